//! The notation as published, variant by variant, and broken input: each gets a located error.

use referee::games::GameKind;
use referee::geometry::Geometry;
use referee::record::Side;
use referee::record::{self, DiagramLabel, TokenKind};
use referee::verdict::Status;
use referee::verify::{verify_source, VerifyOptions};

fn one(src: &str) -> record::Record<'_> {
    let mut records = record::parse(src);
    assert_eq!(records.len(), 1, "expected one record in {src:?}");
    records.remove(0)
}

fn kinds(r: &record::Record) -> Vec<TokenKind> {
    r.tokens.iter().map(|t| t.kind).collect()
}

#[test]
fn a_title_names_the_game() {
    let r = one("HEXAPHAGE\n_oo_ _xx_\n1. .... .... .... .... .... .... 1 j5h5 d3e4\n");
    assert_eq!(referee::format::published::notation::game_hint(&r), Some((GameKind::Hexaphages, None)));
    let r = one("QUADRAPHAGES\n_xx_ _oo_\n1. .... .... 1 a7a8 i3i2\n");
    assert_eq!(referee::format::published::notation::game_hint(&r), Some((GameKind::Quadraphages, None)));
}

#[test]
fn a_startup_diagram_gives_the_start_position() {
    let src = std::fs::read_to_string("samples/quadraphages/blog-game-sample.txt").unwrap();
    let r = one(&src);
    let d = r.startup.as_ref().expect("startup");
    assert_eq!(d.label, DiagramLabel::Startup);
    assert_eq!(d.geometry, Geometry::Square { size: 9 });
    let stones: Vec<String> = d.cells.iter().filter(|c| c.1 != '.').map(|c| format!("{}{}", c.1, c.0)).collect();
    assert_eq!(stones, ["Oc1", "Xi3", "Xa7", "Og9"]);
}

#[test]
fn the_column_header_may_use_initials_and_stand_inside_prose() {
    let r = one("_Jx_    _Bo_\n1.  ....  ....  1  a7a8  i3i2    c1c2  g9g8  3  c2f2  g8d8\n");
    let h = r.header.unwrap();
    assert_eq!((h.sides, h.initials), ([Side::X, Side::O], ['J', 'B']));
    let r = one("========= (numbers up to 6) Rules as for quadraphage. _oo_ _xx_\n1. .... .... 1 a1a2\n");
    assert_eq!(r.header.unwrap().sides, [Side::O, Side::X]);
}

#[test]
fn move_lines_may_drop_the_period_after_their_number() {
    let r = one("_xx_ _oo_\n1. .... .... 1 a7a8 i3i2 c1c2 g9g8 3 c2f2 g8d8\n10 ---- ---- resign\n");
    assert_eq!(r.lines.iter().map(|l| l.number).collect::<Vec<_>>(), [1, 10]);
}

#[test]
fn tokens_are_stone_moves_stays_fillers_numbers_and_claims() {
    let r = one("_xx_ _oo_\n1. .... .... 1 a7a8 ---- c1c2 g9g8 3 c2f2 g8d8 and wins 40-39\n");
    let k = kinds(&r);
    assert_eq!(k[0], TokenKind::Filler);
    assert_eq!(k[2], TokenKind::Number(1));
    assert!(matches!(k[3], TokenKind::Step(..)));
    assert_eq!(k[4], TokenKind::Stay);
    assert_eq!(k.last(), Some(&TokenKind::Wins { side: None, score: Some((40, 39)) }));
    let r = one("_xx_ _oo_\n1. .... .... 1 a7a8 i3i2 X wins 41-38\n");
    assert_eq!(kinds(&r).last(), Some(&TokenKind::Wins { side: Some(Side::X), score: Some((41, 38)) }));
    let r = one("_xx_ _oo_\n1. .... .... 1 a7a8 i3i2\n2. resign\n");
    assert_eq!(kinds(&r).last(), Some(&TokenKind::Resign));
}

#[test]
fn a_first_column_of_fillers_means_the_other_side_began() {
    let src = std::fs::read_to_string("samples/hexaphages/blog-hexaphage.txt").unwrap();
    let r = one(&src);
    assert_eq!(referee::format::published::notation::first_mover(&r, 2), referee::games::phages::Side::X);
    let src = "_xx_ _oo_\n1. .... .... 1 a7a8 i3i2 c1c2 g9g8 3 c2f2 g8d8\n";
    assert_eq!(referee::format::published::notation::first_mover(&one(src), 2), referee::games::phages::Side::X);
}

#[test]
fn final_diagrams_are_found_labelled_or_not_before_or_after_the_moves() {
    for (file, label, geometry) in [
        ("samples/quadraphages/blog-game-sample.txt", DiagramLabel::FinalPosition, Geometry::Square { size: 9 }),
        ("samples/hexaphages/blog-hexaphage.txt", DiagramLabel::FinalPosition, Geometry::Hex { side: 4 }),
        ("samples/quadraphages/designers-game-1.txt", DiagramLabel::None, Geometry::Square { size: 9 }),
        ("samples/hexaphages/designers-game-side5.txt", DiagramLabel::None, Geometry::Hex { side: 5 }),
    ] {
        let src = std::fs::read_to_string(file).unwrap();
        let r = one(&src);
        let d = r.final_position.as_ref().unwrap_or_else(|| panic!("{file}: no final diagram"));
        assert_eq!((d.label, d.geometry), (label, geometry), "{file}");
    }
}

#[test]
fn records_inside_prose_are_found_and_a_file_may_hold_several() {
    let src = std::fs::read_to_string("samples/quadraphages/blog-page.txt").unwrap();
    let records = record::parse(&src);
    assert_eq!(records.len(), 2);
    assert_eq!(referee::format::published::notation::game_hint(&records[0]).map(|h| h.0), Some(GameKind::Quadraphages));
    assert_eq!(referee::format::published::notation::game_hint(&records[1]).map(|h| h.0), Some(GameKind::Hexaphages));
    let two =
        "Some prose.\n_xx_ _oo_\n1. .... .... 1 a7a8 i3i2\nMore prose 1 2 3.\n_oo_ _xx_\n1. .... .... 2 c1c3 g9g7\n";
    assert_eq!(record::parse(two).len(), 2);
}

#[test]
fn prose_without_movetext_holds_no_record() {
    assert!(record::parse("No comments:\nPost a Comment\n10 reasons to play\n").is_empty());
    assert!(record::parse("").is_empty());
}

/// Each broken input: (text, expected status, line, column, message start).
#[test]
fn broken_input_gets_a_located_error() {
    let cases: &[(&str, Status, usize, usize, &str)] = &[
        ("_xx_ _oo_\n1. .... .... 1 a7a9x i3i2\n", Status::SyntaxError, 2, 16, "`a7a9x` is not a stone move"),
        ("_xx_ _oo_\n1. .... .... 1 a7a8 i3i2 #?\n", Status::SyntaxError, 2, 26, "`#?` is not a token"),
        // A glyph judges a move: `??` alone after a move is one, but `!!!` is none.
        ("_xx_ _oo_\n1. .... .... 1 a7a8 i3i2 !!!\n", Status::SyntaxError, 2, 26, "`!!!` is not a move glyph"),
        ("_xx_ _oo_\n1. .... .... 999 a7a8\n", Status::SyntaxError, 2, 14, "`999` is too large"),
        (
            "_xx_ _oo_\n1. .... .... 1 a7a8 i3i2 and wins big\n",
            Status::SyntaxError,
            2,
            26,
            "`and wins big` is not a claimed result",
        ),
        ("_xx_ _oo_\n1. .... .... 1 a7a8 i3i2\n2. resign a8a9\n", Status::SyntaxError, 3, 11, "nothing may follow"),
        ("_xx_ _oo_\n1. .... .... 1 a7a8 resign\n2. c1c2 g9g8\n", Status::SyntaxError, 3, 4, "nothing may follow"),
        ("_xx_ _xx_\n1. .... .... 1 a7a8 i3i2\n", Status::SyntaxError, 1, 1, "both columns are headed for X"),
        ("_xx_ _oo_\n1. .... .... 1 a7z8 i3i2\n", Status::Illegal, 2, 16, "z8 is not a cell of the 9x9 board"),
        ("_xx_ _oo_\n1. .... .... 1 a7a8 i3i2 .... c1c2\n", Status::Illegal, 2, 26, "`....` stands only"),
        ("_xx_ _oo_\n1. .... .... 0 a7a8\n", Status::Illegal, 2, 14, "0 is not a number from 1 to 8"),
        ("_xx_ _oo_\n1. .... .... a7a8 i3i2\n", Status::Illegal, 2, 14, "X must announce a number now"),
        ("_xx_ _oo_\n1. .... .... 1 a7a8 2\n", Status::Illegal, 2, 21, "a move of X's stones is expected now"),
        ("_xx_ _oo_\n1. .... .... 1 a7a8 a8a9\n", Status::Illegal, 2, 21, "X's stone on a8 has already moved"),
        ("_xx_ _oo_\n1. .... .... 1 c1c2\n", Status::Illegal, 2, 16, "the stone on c1 is O's, not X's"),
        ("_xx_ _oo_\n1. .... .... 2 a7b8\n", Status::Illegal, 2, 16, "a7 to b8 is not a straight line"),
        (
            "HEXAPHAGES\nStartup:\n . . . 1\n. . . . 2\n . . . 3\n_xx_ _oo_\n1. .... .... 1 a2b2\n",
            Status::SyntaxError,
            5,
            2,
            "a diagram of 3 rows",
        ),
        (
            "_xx_ _oo_\n1. .... .... 1 a2b2\nFinal Position:\n  o . 1\n . . . 2\n  . . 3\n",
            Status::Undecided,
            3,
            1,
            "no start position is known for hexaphages",
        ),
    ];
    for &(src, status, line, column, message) in cases {
        let verdicts = verify_source(src, VerifyOptions::default());
        assert_eq!(verdicts.len(), 1, "{src:?}");
        let v = &verdicts[0];
        assert_eq!(v.status, status, "{src:?}: {:?}", v.problems);
        let p = &v.problems[0];
        assert!(p.message.starts_with(message), "{src:?}: got {:?}", p.message);
        assert_eq!(referee::report::line_col(src, p.span.start), (line, column), "{src:?}: {:?}", p.message);
    }
}

#[test]
fn noise_never_panics_and_every_problem_is_located() {
    let mut rng = fastrand::Rng::with_seed(7);
    let alphabet = b"0123456789abcdefghijz.-_ox XO\n:resignwn";
    for _ in 0..2000 {
        let len = rng.usize(0..300);
        let s: String = (0..len).map(|_| alphabet[rng.usize(..alphabet.len())] as char).collect();
        let src = format!("_xx_ _oo_\n1. {s}");
        for lenient in [false, true] {
            for v in verify_source(&src, VerifyOptions { search_limit: 1000, lenient, ..VerifyOptions::default() }) {
                for p in &v.problems {
                    assert!(p.span.end <= src.len() && p.span.start <= p.span.end, "{src:?}");
                }
            }
        }
    }
}

#[test]
fn a_claim_may_stand_on_its_own_line_under_the_moves() {
    let r = one("_xx_ _oo_\n1. .... .... 1 a7a8 i3i2 c1c2 g9g8 3 c2f2 g8d8\nX wins.\n");
    assert_eq!(kinds(&r).last(), Some(&TokenKind::Wins { side: Some(Side::X), score: None }));
    let r = one("_xx_ _oo_\n1. .... .... 1 a7a8 i3i2 c1c2 g9g8 3 c2f2 g8d8\n   resign\n");
    assert_eq!(kinds(&r).last(), Some(&TokenKind::Resign));
}

#[test]
fn with_one_stone_a_side_three_fillers_mean_the_other_side_began() {
    use referee::format::published::notation::first_mover;
    let r = one("_oo_ _xx_\n1. .... .... .... 1 a7a8\n");
    assert_eq!(first_mover(&r, 1), referee::games::phages::Side::X);
    let r = one("_oo_ _xx_\n1. .... 1 a7a8\n");
    assert_eq!(first_mover(&r, 1), referee::games::phages::Side::O);
}

#[test]
fn lenient_replay_survives_moves_where_numbers_are_due() {
    let src = "_xx_ _oo_\n1. .... .... a7a8 i3i2 c1c2 g9g8\n";
    let v = &verify_source(src, VerifyOptions { lenient: true, ..VerifyOptions::default() })[0];
    assert_eq!(v.status, Status::Illegal);
    assert!(v.problems.iter().all(|p| p.message == "X must announce a number now (phase b)"), "{:?}", v.problems);
    assert_eq!(v.problems.len(), 4);
}

/// A `Startup:` code of a game referee does not know is the record's start, refused where it is
/// written: read as prose, it would leave the record to replay from the default start.
#[test]
fn a_startup_code_of_an_unknown_game_is_an_error_at_the_code() {
    let text = "QUADRAPHAGES\nStartup: chess_rnbqkbnr\n\n1. .... .... 1 a7a8 i3i2 c1c2 g9g8\n";
    let v = &verify_source(text, VerifyOptions::default())[0];
    assert_eq!(v.status, Status::SyntaxError);
    let p = &v.problems[0];
    assert_eq!(p.span.start, text.find("chess_").unwrap());
    assert_eq!(p.message, "this is a code of chess, not of quadraphages or hexaphages");
}
