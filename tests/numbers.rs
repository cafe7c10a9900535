//! Numbered diagrams (`show --numbers`, `render --numbers`, `picture::Pictures::numbered`): each
//! cell a move was played at carries the record's own number of that move, checked against the
//! replay; text and SVG snapshots of one position per game; the command line's ranges.

mod support;

use std::collections::BTreeSet;

use referee::geometry::{Cell, CellLabel};
use referee::picture::numbers::{NumberRange, RangeError};
use referee::picture::{numbered_text, pictures, Pictures};
use referee::render::model::Scene;
use referee::render::svg::{svg, SvgOptions};
use referee::verify::VerifyOptions;
use support::{arg, run};

const DESIGNERS_1: &str = "samples/quadraphages/designers-game-1.txt";
const BLOG_HEX: &str = "samples/quadraphages/blog-page.txt";
const QUAROD: &str = "samples/quarod/annotated-lesson.txt";

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn pictures_of(src: &str, index: usize) -> Pictures {
    pictures(src, index, VerifyOptions::default()).unwrap_or_else(|(_, e)| panic!("{e}"))
}

/// The record of `src` whose title is `title`, by its place among the file's records.
fn record_titled(src: &str, title: &str) -> usize {
    referee::record::read(src, None)
        .position(|found| match found {
            referee::record::Found::Published(r) => {
                r.title.as_ref().is_some_and(|(_, span)| src[span.clone()].trim().eq_ignore_ascii_case(title))
            }
            referee::record::Found::Common(_) => false,
        })
        .unwrap_or_else(|| panic!("no record titled {title}"))
        + 1
}

/// The number a move line starts with, read from the text: the line `at` is on.
fn line_number(src: &str, at: usize) -> u32 {
    let start = src[..at].rfind(['\n', '\r']).map_or(0, |k| k + 1);
    let digits: String = src[start..].trim_start().chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap_or_else(|_| panic!("no number at the start of {:?}", &src[start..at]))
}

/// The cell a step token of the published notation leaves (`c1b1`: c1), if the token is a step.
fn left_from(scene: &Scene, token: &str) -> Option<Cell> {
    let (from, rest) = CellLabel::read(token.as_bytes())?;
    let (_, rest) = CellLabel::read(rest)?;
    rest.is_empty().then(|| scene.board.geometry.parse_label(from)).flatten()
}

fn figure_name(scene: &Scene, cell: Cell) -> Option<&'static str> {
    scene.board.figures.iter().find(|(c, _)| *c == cell).map(|(_, f)| f.name)
}

/// Every mark of the numbered diagram carries the number of the line its move is written on, and
/// is the cell the replay's stone left; no other cell carries a number; the picture writes each.
fn check_marks_against_the_replay(src: &str, index: usize) {
    let p = pictures_of(src, index);
    let scene = p.numbered(NumberRange::default()).expect("the record plays moves");
    let numbers = scene.numbers.as_ref().expect("a numbered diagram");
    let mut expected = BTreeSet::new();
    for (k, span) in p.moves.iter().enumerate() {
        let line = line_number(src, span.start);
        assert_eq!(p.turns[k], line, "move {} (`{}`) is written on line {line}", k + 1, &src[span.clone()]);
        let Some(from) = left_from(&p.scenes[k], &src[span.clone()]) else { continue };
        assert_eq!(figure_name(&p.scenes[k], from), Some("stone"), "a stone leaves {}", &src[span.clone()]);
        assert_eq!(figure_name(&p.scenes[k + 1], from), Some("mark"), "a mark stays after {}", &src[span.clone()]);
        expected.insert((from, line));
    }
    assert!(expected.len() >= 10, "{} marks", expected.len());
    let drawn: BTreeSet<(Cell, u32)> = numbers.cells.iter().copied().collect();
    assert_eq!(drawn, expected, "each number is where that move's stone left from, and only there");
    assert!(numbers.hidden.is_empty(), "a mark stays: no cell is played twice");
    // The board shows every mark the moves made, and no mark the start had: each carries a number.
    for &(cell, figure) in &scene.board.figures {
        if figure.name == "mark" {
            assert!(numbers.at(cell).is_some(), "the mark on {} has a number", scene.board.geometry.label(cell));
        }
    }
    let picture = svg(&scene, &SvgOptions::default());
    for &(cell, n) in &numbers.cells {
        let label = scene.board.geometry.label(cell);
        let at = picture
            .find(&format!("<g class=\"number\" data-cell=\"{label}\">"))
            .unwrap_or_else(|| panic!("{label} is numbered in the picture"));
        let element = &picture[at..at + picture[at..].find("</g>").unwrap()];
        assert!(element.contains(&format!(">{n}</text>")), "{label} shows {n}: {element}");
    }
}

#[test]
fn each_number_of_the_designers_game_1_is_where_its_moves_stone_left_from() {
    check_marks_against_the_replay(&read(DESIGNERS_1), 1);
}

#[test]
fn each_number_of_the_blog_pages_hexaphages_game_is_where_its_moves_stone_left_from() {
    let src = read(BLOG_HEX);
    let index = record_titled(&src, "HEXAPHAGE");
    check_marks_against_the_replay(&src, index);
    // The same game, on a page of its own.
    check_marks_against_the_replay(&read("samples/hexaphages/blog-hexaphage.txt"), 1);
}

#[test]
fn the_common_format_numbers_rounds() {
    let p = pictures_of(&read(QUAROD), 1);
    assert_eq!(p.turns, [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]);
    let p = pictures_of(&read("samples/splinter/random-3-players.txt"), 1);
    assert_eq!(p.turns.len(), p.moves.len());
    assert!(p.turns.windows(2).all(|w| w[0] <= w[1] && w[1] - w[0] <= 1), "{:?}", p.turns);
}

#[test]
fn a_range_draws_the_position_after_its_last_move_and_numbers_only_its_moves() {
    let src = read(DESIGNERS_1);
    let p = pictures_of(&src, 1);
    let scene = p.numbered(NumberRange { from: Some(2), to: Some(3) }).unwrap();
    let numbers = scene.numbers.as_ref().unwrap();
    assert_eq!((numbers.first, numbers.last), (2, 3));
    assert!(numbers.cells.iter().all(|&(_, n)| (2..=3).contains(&n)));
    let last = p.turns.iter().rposition(|&t| t <= 3).unwrap();
    assert_eq!(scene.ply, last + 1, "the position after the last move of line 3");
    assert!(scene.signs.is_empty() && scene.illegal.is_none());
    assert!(scene.caption()[0].contains("moves 2 to 3 numbered"), "{:?}", scene.caption());
    let range = |from, to| p.numbered(NumberRange { from, to }).map(|_| ());
    assert_eq!(range(Some(4), Some(2)), Err(RangeError::Reversed { from: 4, to: 2 }));
    assert_eq!(range(Some(40), None), Err(RangeError::PastTheEnd { from: 40, last: 6 }));
    // Up to the end, the record's illegal move is drawn, numbered as the position before it.
    let error = p.numbered(NumberRange { from: None, to: Some(99) }).unwrap();
    assert!(error.illegal.is_some());
}

/// A capture is played where the capturing disk lands and where it leaves its block: the disks
/// that stood there lose their numbers to it, and are noted.
#[test]
fn a_capture_numbers_its_block_and_its_disk_and_notes_what_it_took() {
    let src = "[Game \"Petrify\"]\n[Size \"6\"]\n\n1. c3 d4 2. c3xd4 *\n";
    let p = pictures_of(src, 1);
    let scene = p.numbered(NumberRange::default()).unwrap();
    let numbers = scene.numbers.as_ref().unwrap();
    let g = scene.board.geometry;
    let cell = |s: &str| g.parse_label(CellLabel::parse(s).unwrap()).unwrap();
    assert_eq!(numbers.cells, [(cell("c3"), 2), (cell("d4"), 2)]);
    assert_eq!(numbers.hidden, [(1, cell("c3")), (1, cell("d4"))]);
    assert_eq!(numbers.notes(g), ["1 at 2"]);
    let text = numbered_text(src, 1, &scene, VerifyOptions::default()).unwrap();
    assert!(text.contains(". . #2 . . . 3.") || text.contains(".  .  #2 .  .  .  3."), "{text}");
    assert!(text.contains("notes: 1 at 2"), "{text}");
}

/// A Splinter Quad piece that moves, and those it pushes, draw trails; a cell played at again
/// notes the move it hid.
#[test]
fn moving_pieces_leave_numbered_trails() {
    let src = "[Game \"Splinter Quad\"]\n[Players \"2\"]\n\n1. d5c6 h4g4 2. b4b5 *\n";
    let p = pictures_of(src, 1);
    let scene = p.numbered(NumberRange::default()).unwrap();
    let numbers = scene.numbers.as_ref().unwrap();
    let g = scene.board.geometry;
    let label = |c: Cell| g.label(c).to_string();
    let trails: Vec<String> = numbers
        .trails
        .iter()
        .map(|t| {
            let steps: Vec<String> = t
                .steps
                .iter()
                .map(|&(c, n)| format!("{}{}", n.map_or(String::new(), |n| format!("{n} ")), label(c)))
                .collect();
            format!("{}: {}", t.owner.unwrap(), steps.join(", "))
        })
        .collect();
    // Red's d5c6 pushes the piece on c6 to b7; Blue's h4g4 pushes the whole row, c4 to b4, which
    // Red's b4b5 then moves on.
    assert!(trails.contains(&"0: d5, 1 c6".to_string()), "{trails:?}");
    assert!(trails.contains(&"0: c6, 1 b7".to_string()), "{trails:?}");
    assert!(trails.contains(&"1: h4, 1 g4".to_string()), "{trails:?}");
    assert!(trails.contains(&"0: c4, 1 b4, 2 b5".to_string()), "{trails:?}");
    assert!(numbers.trails.iter().all(|t| t.standing));
    let b5 = g.parse_label(CellLabel::parse("b5").unwrap()).unwrap();
    assert_eq!(numbers.at(b5), Some(2), "the piece carries the number of its last step");
    let picture = svg(&scene, &SvgOptions::default());
    assert_eq!(picture.matches("<g class=\"trail owner-").count(), numbers.trails.len());
    assert!(picture.contains("<g class=\"step owner-0\" data-cell=\"b4\">"), "a step of a trail shows its number");
}

/// One position per game, as text and as a picture.
#[test]
fn every_game_numbers_as_in_its_snapshot() {
    let cases: [(&str, &str, usize, NumberRange); 6] = [
        ("quadraphages", DESIGNERS_1, 1, NumberRange::default()),
        ("hexaphages", "samples/hexaphages/blog-hexaphage.txt", 1, NumberRange::default()),
        ("quarod", QUAROD, 1, NumberRange::default()),
        ("petrify", "samples/petrify/random-size-6.txt", 1, NumberRange { from: Some(10), to: Some(16) }),
        ("vadrantir", "samples/vadrantir/random-side-5.txt", 1, NumberRange { from: None, to: Some(12) }),
        ("splinter", "samples/splinter/random-2-players.txt", 1, NumberRange { from: Some(2), to: Some(6) }),
    ];
    for (name, path, index, range) in cases {
        let src = read(path);
        let scene = pictures_of(&src, index).numbered(range).unwrap();
        let text = numbered_text(&src, index, &scene, VerifyOptions::default()).unwrap();
        insta::assert_snapshot!(format!("{name}-text"), text);
        insta::assert_snapshot!(format!("{name}-svg"), svg(&scene, &SvgOptions::default()));
    }
}

#[test]
fn show_numbers_a_record_as_text_and_as_a_picture() {
    let (code, out, err) = run(&["show", "--numbers", QUAROD]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("a   b   c"), "{out}");
    assert!(out.contains("notes: 4 at 6, 3 at 6, 5 at 6"), "{out}");
    assert!(out.contains("markup: mark c3 yellow"), "what the text cannot draw is said: {out}");
    let (code, out, _) = run(&["show", "--numbers", "--from", "2", "--to", "3", "--format", "svg", QUAROD]);
    assert_eq!(code, 0);
    assert!(out.contains("moves 2 to 3 numbered") && out.contains("<g class=\"number\""), "{out}");
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("numbered.png");
    let (code, _, err) = run(&["show", "--numbers", DESIGNERS_1, "-o", arg(&png)]);
    assert_eq!(code, 1, "the record's illegal move is drawn, as show draws it");
    assert!(err.contains("is illegal; drawing the position before it"), "{err}");
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    // A first move that is illegal leaves nothing to number: the error diagram, as show draws it.
    let (code, out, err) = run(&[
        "show",
        "--numbers",
        "--format",
        "svg",
        "samples/vadrantir/broken/illegal-pie-swap-as-the-first-move.txt",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("the first move is illegal, and no move is numbered"), "{err}");
    assert!(out.contains("class=\"sign illegal"), "{out}");
    // Past the last move: numbered to it, and said.
    let (code, _, err) = run(&["show", "--numbers", "--to", "40", QUAROD]);
    assert_eq!(code, 0);
    assert!(err.contains("the record's last move is numbered 6; numbering the moves to it"), "{err}");
}

#[test]
fn a_range_that_numbers_no_move_is_a_usage_error() {
    for (args, said) in [
        (&["--numbers", "--from", "5", "--to", "3"][..], "the range from move 5 to move 3 ends before it starts"),
        (&["--numbers", "--from", "9"], "there is no move 9: the last move played is numbered 6"),
        (&["--numbers", "--from", "0"], "invalid value '0' for '--from <N>'"),
        (&["--from", "2"], "--numbers"),
        (&["--numbers", "--ply", "3"], "cannot be used with"),
        (&["--numbers", "--format", "code"], "a position code has no numbers"),
    ] {
        let mut all = vec!["show"];
        all.extend_from_slice(args);
        all.push(QUAROD);
        let (code, out, err) = run(&all);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: nothing is drawn");
        assert!(err.contains(said), "{args:?}: {err}");
    }
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = run(&["render", "--numbers", "--from", "7", QUAROD, "-o", arg(dir.path())]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot number the moves: there is no move 7"), "{err}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing is written");
}

#[test]
fn render_numbers_each_position_of_the_range() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = run(&["render", "--numbers", "--from", "2", "--to", "3", QUAROD, "-o", arg(dir.path())]);
    assert_eq!(code, 0, "{err}");
    let mut names: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    // The position before move 2, then after each of the four moves of rounds 2 and 3.
    let expected: Vec<String> = (2..=6).map(|ply| format!("annotated-lesson-1-numbered-ply{ply:03}.svg")).collect();
    assert_eq!(names, expected);
    let last = std::fs::read_to_string(dir.path().join(&expected[4])).unwrap();
    assert!(last.contains("moves 2 to 3 numbered"), "{last}");
    let first = std::fs::read_to_string(dir.path().join(&expected[0])).unwrap();
    assert!(!first.contains("class=\"number\""), "nothing is numbered before the first move");
    // An animation and a replay page of the same.
    for format in ["gif", "html"] {
        let (code, _, err) =
            run(&["render", "--numbers", "--to", "3", "--format", format, QUAROD, "-o", arg(dir.path())]);
        assert_eq!(code, 0, "{err}");
        assert!(dir.path().join(format!("annotated-lesson-1-numbered.{format}")).exists());
    }
}
