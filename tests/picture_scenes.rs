//! The board model pictures are drawn from: every engine describes each cell as its text diagram
//! does, and a record's scenes follow its replay, with the error diagram at its first illegal move.

use referee::game::{Game, Playable};
use referee::games::petrify::Petrify;
use referee::games::phages::Phages;
use referee::games::quarod::Quarod;
use referee::games::splinter::Splinter;
use referee::games::vadrantir::Vadrantir;
use referee::picture::pictures;
use referee::random::random_game;
use referee::render::model::{Heading, Shape, Sign, Tone};
use referee::verify::VerifyOptions;

/// What the text diagram's glyph says a cell holds, read independently of [`BoardView::figure`]:
/// the owner's place in turn order, the figure's name and its shape (Splinter's outlines only by
/// kind: their points are the engine's), or `None` for an empty cell.
fn glyph_says(glyph: &str, players: &[&str]) -> Option<(Option<u8>, &'static str, Shape)> {
    let owner = |letter: char| players.iter().position(|p| p.starts_with(letter)).map(|i| i as u8);
    let mut chars = glyph.chars();
    let first = chars.next()?;
    let second = chars.next();
    Some(match (first, second) {
        ('.', _) => return None,
        ('#', None) => (None, "block", Shape::Block),
        // Petrify's disks are B and O (Blue, Orange); Vadrantir's stones are B and W.
        (c, None) if players == ["Blue", "Orange"] => (Some(owner(c)?), "disk", Shape::Disc),
        ('x' | 'o', None) => (Some(owner(first.to_ascii_uppercase())?), "mark", Shape::Square),
        ('X' | 'O', None) => (Some(owner(first)?), "stone", Shape::Disc),
        (c, None) => (Some(owner(c)?), "stone", Shape::Disc),
        (c @ ('B' | 'W'), Some(rod)) => {
            let heading = match rod {
                '^' => Heading::Up,
                '>' => Heading::Right,
                'v' => Heading::Down,
                '<' => Heading::Left,
                _ => return None,
            };
            (Some(owner(c)?), "rod", Shape::Rod(heading))
        }
        (n @ '1'..='4', Some(kind)) => {
            let name = match kind {
                'K' => "piece king",
                'R' => "piece rook",
                'B' => "piece bishop",
                'P' => "piece pawn",
                _ => return None,
            };
            // The pawn is a circle and the other ranks polygons: compared by kind below.
            let shape = if kind == 'P' { Shape::Circle(0) } else { Shape::Polygon(&[]) };
            (Some(n as u8 - b'1'), name, shape)
        }
        _ => return None,
    })
}

/// A shape with a game's own measures forgotten, for comparison with what a glyph says.
fn kind_of(shape: Shape) -> Shape {
    match shape {
        Shape::Polygon(_) => Shape::Polygon(&[]),
        Shape::Circle(_) => Shape::Circle(0),
        other => other,
    }
}

/// At every ply of a few random games, each cell's figure is what its glyph says, and each move's
/// signs name cells of the board.
fn figures_match_glyphs<G: Game>(start: &G, seeds: std::ops::Range<u64>) -> usize {
    let mut checked = 0;
    for seed in seeds {
        let mut position = start.clone();
        for m in random_game(start, seed, 400) {
            let g = position.geometry();
            for c in g.cells() {
                let glyph = position.glyph(c);
                let drawn = position.figure(c).map(|f| (f.owner, f.name, kind_of(f.shape)));
                assert_eq!(drawn, glyph_says(glyph, position.player_names()), "glyph {glyph:?}");
                checked += 1;
            }
            for sign in position.signs(m) {
                match sign {
                    Sign::Arrow { from, to } => assert!(g.contains(from) && g.contains(to)),
                    Sign::Ring(c) | Sign::Stay(c) => assert!(g.contains(c)),
                    Sign::Number(n) => assert!(n > 0),
                    Sign::Pass | Sign::Swap => {}
                    // What leaves the board stands on its edge before the move, and one more
                    // step takes it off.
                    Sign::Leaving { from, towards: (dx, dy), figure } => {
                        assert_eq!(position.figure(from), Some(figure));
                        let (col, row) = (g.col(from) as i32 + i32::from(dx), g.row(from) as i32 + i32::from(dy));
                        let (w, h) = (g.width() as i32, g.height() as i32);
                        assert!(col < 0 || row < 0 || col >= w || row >= h, "{sign:?} stays on the board");
                    }
                }
            }
            position.play_unchecked(m);
        }
    }
    checked
}

#[test]
fn every_engine_describes_each_cell_as_its_diagram_does() {
    assert!(figures_match_glyphs(&Phages::quadraphages(), 0..3) > 10_000);
    assert!(figures_match_glyphs(&Phages::hexaphages(4).unwrap(), 0..3) > 1_000);
    assert!(figures_match_glyphs(&Quarod::start(None, None).unwrap(), 0..3) > 1_000);
    assert!(figures_match_glyphs(&Petrify::start(None, None).unwrap(), 0..3) > 1_000);
    assert!(figures_match_glyphs(&Vadrantir::start(None, None).unwrap(), 0..3) > 1_000);
    for players in 2..=4 {
        assert!(figures_match_glyphs(&Splinter::start(None, Some(players)).unwrap(), 0..2) > 1_000);
    }
}

fn sample(path: &str) -> String {
    std::fs::read_to_string(format!("{}/samples/{path}", env!("CARGO_MANIFEST_DIR"))).expect("sample exists")
}

#[test]
fn a_valid_record_has_a_scene_per_move_and_no_error_diagram() {
    let src = sample("quarod/random-size-6.txt");
    let p = pictures(&src, 1, VerifyOptions::default()).expect("the record replays");
    assert_eq!(p.scenes.len(), p.moves.len() + 1);
    assert!(p.error.is_none());
    assert!(p.scenes[0].signs.is_empty(), "the start has no last move");
    for (k, scene) in p.scenes.iter().enumerate() {
        assert_eq!(scene.ply, k);
        assert!(scene.signs.iter().all(|&(_, tone)| tone == Tone::Last));
    }
    // Every move token's span is the text of a move in the file.
    assert!(p.moves.iter().all(|s| !src[s.clone()].trim().is_empty()));
    // With no ply, `show` draws the last position; a ply past the end gives the last one too.
    assert_eq!(p.scene(None), p.scenes.last().unwrap());
    assert_eq!(p.scene(Some(100_000)), p.scenes.last().unwrap());
    assert_eq!(p.scene(Some(1)).ply, 1);
}

#[test]
fn an_illegal_move_gives_the_error_diagram() {
    // Move 2 of the blog's square game: "no O stone on d2", the board before it, d2d5 in red.
    let src = sample("quadraphages/blog-game-sample.txt");
    let p = pictures(&src, 1, VerifyOptions::default()).expect("the record replays to its error");
    let (error, span) = p.error.as_ref().expect("the record has an illegal move");
    assert_eq!(&src[span.clone()], "d2d5");
    assert_eq!(p.scene(None), error);
    assert_eq!(error.ply, p.scenes.len() - 1, "the board before the illegal move");
    assert_eq!(error.board, p.scenes.last().unwrap().board);
    let reason = error.illegal.as_deref().expect("a reason");
    assert!(reason.contains("no O stone on d2"), "{reason}");
    let illegal: Vec<_> = error.signs.iter().filter(|s| s.1 == Tone::Illegal).collect();
    assert_eq!(illegal.len(), 1, "{:?}", error.signs);
    // The legal moves that meet d2d5 at a cell: O's step d8d5, the move the writer meant.
    let g = error.board.geometry;
    let cell = |s: &str| g.parse_label(referee::geometry::CellLabel::parse(s).unwrap()).unwrap();
    let alternatives: Vec<_> = error.signs.iter().filter(|s| s.1 == Tone::Alternative).map(|s| s.0).collect();
    assert_eq!(alternatives, [Sign::Arrow { from: cell("d8"), to: cell("d5") }]);
    assert!(error.caption().iter().any(|l| l.starts_with("Illegal: d2d5")), "{:?}", error.caption());
}

#[test]
fn an_illegal_move_the_engine_can_read_is_drawn_as_that_move() {
    let src = sample("petrify/broken/illegal-capture-not-straight.txt");
    let p = pictures(&src, 1, VerifyOptions::default()).unwrap();
    let (error, _) = p.error.as_ref().unwrap();
    let g = error.board.geometry;
    let cell = |s: &str| g.parse_label(referee::geometry::CellLabel::parse(s).unwrap()).unwrap();
    assert!(error.signs.contains(&(Sign::Arrow { from: cell("d1"), to: cell("a3") }, Tone::Illegal)));
}

#[test]
fn phages_turns_gather_their_moves() {
    let src = sample("quadraphages/random-seed-1.txt");
    let p = pictures(&src, 1, VerifyOptions::default()).unwrap();
    let turns = p.per_turn();
    assert!(turns.len() < p.scenes.len(), "a turn has several moves");
    assert_eq!(turns[0], p.scenes[0]);
    assert_eq!(turns.last().unwrap().board, p.scenes.last().unwrap().board);
    // A whole turn: the number announced and every stone's step.
    assert!(turns[2].signs.len() >= 3, "{:?}", turns[2].signs);
    let total: usize = turns.iter().map(|t| t.signs.len()).sum();
    let all: usize = p.scenes.iter().map(|s| s.signs.len()).sum();
    assert_eq!(total, all, "no move is lost between turns");
}

#[test]
fn records_that_cannot_be_replayed_say_why() {
    let src = sample("quadraphages/broken/syntax-bad-token.txt");
    let (_, message) = pictures(&src, 1, VerifyOptions::default()).unwrap_err();
    assert!(message.contains("is not a stone move"), "{message}");
    let (_, message) = pictures(&src, 7, VerifyOptions::default()).unwrap_err();
    assert_eq!(message, "there is no record 7 (the file has 1)");
}

#[test]
fn a_record_played_to_its_end_shows_what_scored_and_only_there() {
    let src = sample("vadrantir/random-side-5.txt");
    let p = pictures(&src, 1, VerifyOptions::default()).unwrap();
    let last = p.scenes.last().unwrap();
    assert!(last.to_move.is_none() && !last.provisional, "the game is over");
    // Black 4.5: territories of 4 cells and the half point; White 1.
    let cells = |owner: u8| last.scoring.iter().filter(|r| r.owner == owner).map(|r| r.cells.len()).sum::<usize>();
    assert_eq!((cells(0), cells(1)), (4, 1), "{}", last.score);
    for scene in &p.scenes[..p.scenes.len() - 1] {
        assert!(scene.provisional && scene.scoring.is_empty(), "ply {}", scene.ply);
    }
}

#[test]
fn a_piece_pushed_off_leaves_with_the_move_that_pushed_it() {
    let src = sample("splinter/random-4-players.txt");
    let p = pictures(&src, 1, VerifyOptions::default()).unwrap();
    let leaving: Vec<usize> = p
        .scenes
        .iter()
        .filter(|s| s.signs.iter().any(|(sign, tone)| matches!(sign, Sign::Leaving { .. }) && *tone == Tone::Last))
        .map(|s| s.ply)
        .collect();
    assert_eq!(leaving, [29, 45]);
    // With move 29 written as an illegal one, the error diagram offers the move that pushes a
    // piece off among the legal ones, as its arrow only: what a move not played would push off is
    // not drawn.
    let pushing = p.scenes[29].signs.iter().find(|(sign, _)| matches!(sign, Sign::Arrow { .. })).unwrap().0;
    let span = p.moves[28].clone();
    let broken = format!("{}a1a3{}", &src[..span.start], &src[span.end..]);
    let p = pictures(&broken, 1, VerifyOptions::default()).unwrap();
    let (error, _) = p.error.as_ref().expect("a1a3 is illegal there");
    assert_eq!(error.ply, 28);
    assert!(error.signs.contains(&(pushing, Tone::Alternative)), "{:?}", error.signs);
    assert!(!error.signs.iter().any(|(sign, _)| matches!(sign, Sign::Leaving { .. })));
}

/// A Quarod record with a comment before its first move, comments after moves (one after the
/// result), glyphs, a variation with a variation in it, comments and markup in both, and a
/// variation stopped by an illegal move.
const ANNOTATED: &str = r#"[Game "Quarod"]
[Size "4"]

{Played at the club. [%mark b2 yellow]}
1. d1d2!? {a good start [%arrow d1d2 green]} a2a3
(1... a1a2 {the quiet way [%mark a1 blue]} 2. b1b2 $14
  (2. c1c2 {also playable [%arrow c1c2 red] [%label b3 "B"]} 2... d3d4)
 2... c1c2)
(1... b1b2 {also fine} 2. d2d3 {but d2 is taken} 2... a4b4)
2. c3d3 ; a quiet move
2... c1b1?!
3. b4a4 * {stopped here}
"#;

#[test]
fn variations_are_drawn_from_where_they_branch_with_their_comments_and_markup() {
    let p = pictures(ANNOTATED, 1, VerifyOptions::default()).expect("the record replays");
    let main = p.line(0).unwrap();
    assert_eq!(main.len(), 6, "the start and five moves");
    // Each comment speaks of its frame, without the markup the picture draws; the one after the
    // result of the last position.
    let said: Vec<(usize, &str)> = p.comments.iter().map(|c| (c.frame, c.text.as_str())).collect();
    assert_eq!(said, [(0, "Played at the club."), (1, "a good start"), (3, "a quiet move"), (5, "stopped here")]);
    assert_eq!(main.said(1..=1), ["a good start"]);
    assert_eq!(p.scenes[1].glyphs, "!?");
    assert_eq!(p.scenes[0].markup.len(), 1, "the start's markup");

    let names: Vec<&str> = p.variations.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["1... a1a2", "2. c1c2", "1... b1b2"]);
    // 1... a1a2 replaces a2a3: it starts from the position after d1d2, that move drawn as there,
    // and its moves are the game's plies 2 and 3.
    let first = &p.variations[0];
    assert_eq!((first.from, first.at, first.drawn), (0, 1, true));
    assert_eq!(first.scenes[0].board, p.scenes[1].board);
    assert_eq!(first.scenes[0].signs, p.scenes[1].signs);
    assert!(first.scenes[0].markup.is_empty(), "the markup of d1d2's comment is the main line's");
    assert_eq!(first.scenes.iter().map(|s| s.ply).collect::<Vec<_>>(), [1, 2, 3, 4]);
    assert_eq!(first.scenes[1].markup.len(), 1);
    assert_eq!(first.scenes[2].glyphs, "$14");
    assert_eq!(first.codes.len(), first.scenes.len());
    assert_eq!(first.codes[0], "quarod_3S/3n/4/4_w_1_0_-_b", "the code of the position after d1d2");
    assert_eq!(first.comments.iter().map(|c| (c.frame, c.text.as_str())).collect::<Vec<_>>(), [(1, "the quiet way")]);
    let tokens: Vec<&str> = first.moves.iter().map(|s| &ANNOTATED[s.clone()]).collect();
    assert_eq!(tokens, ["a1a2", "b1b2", "c1c2"]);
    // 2. c1c2, in it, replaces b1b2: from the variation's position after a1a2.
    let nested = &p.variations[1];
    assert_eq!((nested.from, nested.at), (1, 1));
    assert_eq!(nested.scenes[0].board, first.scenes[1].board);
    assert_eq!(nested.scenes[1].markup.len(), 2, "an arrow and a label");
    assert_eq!(nested.comments[0].text, "also playable");
    // 1... b1b2 stops at d2d3: its positions up to it, then its error diagram, where its comment
    // after the illegal move is said.
    let stopped = p.line(3).unwrap();
    assert_eq!(stopped.scenes.len(), 2);
    let (error, span) = stopped.error.unwrap();
    assert_eq!(&ANNOTATED[span.clone()], "d2d3");
    assert!(error.illegal.as_deref().unwrap().contains("d2 is not empty"), "{error:?}");
    assert_eq!(stopped.frame(2), Some(error));
    assert_eq!(stopped.token(2), Some(span));
    assert_eq!(stopped.said(2..=2), ["but d2 is taken"]);
    assert!(p.error.is_none(), "the main line is legal");
}

#[test]
fn a_variation_past_where_its_line_stops_is_not_drawn() {
    // The main line stops at its second move; the variation replaces its third.
    let src = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. d1d2 d1d2 2. a1a2 (2. b1b2 {never reached}) *\n";
    let p = pictures(src, 1, VerifyOptions::default()).unwrap();
    assert!(p.error.is_some());
    let b = &p.variations[0];
    assert!(!b.drawn && b.scenes.is_empty() && b.comments.is_empty());
    assert!(p.line(1).is_none());
    // One that replaces the illegal move itself starts from the position before it.
    let src = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. d1d2 d1d2 (1... a1a2 {instead}) *\n";
    let p = pictures(src, 1, VerifyOptions::default()).unwrap();
    let b = &p.variations[0];
    assert!(b.drawn);
    assert_eq!((b.from, b.at), (0, 1));
    assert_eq!(b.scenes[0].board, p.scenes[1].board);
}

#[test]
fn the_variations_of_a_record_are_drawn_with_a_bounded_number_of_positions() {
    // 1,100 variations of one move, each with one in it: each takes its start, its move and room
    // for an error diagram.
    let src = format!("[Game \"Quarod\"]\n[Size \"4\"]\n\n1. d1d2 a2a3 {}*\n", "(1... a1a2 (1... b1b2)) ".repeat(1100));
    let p = pictures(&src, 1, VerifyOptions::default()).unwrap();
    let drawn = p.variations.iter().filter(|b| b.drawn).count();
    assert_eq!(drawn, referee::picture::MAX_VARIATION_SCENES / 3);
    let scenes: usize = p.variations.iter().map(|b| b.scenes.len()).sum();
    assert!(scenes <= referee::picture::MAX_VARIATION_SCENES, "{scenes}");
    assert_eq!(p.undrawn, 2200 - drawn);
    // Those in a variation not drawn are not drawn either.
    assert!(p.variations.iter().all(|b| !b.drawn || b.from == 0 || p.variations[b.from - 1].drawn));
    assert_eq!(
        p.undrawn_note().unwrap(),
        format!(
            "{} variations are not drawn: the variations of a record are drawn with at most 2000 positions in all",
            2200 - drawn
        )
    );
}

/// The error diagram says what its token is: a move that cannot be played there is illegal, a
/// token that writes no move of the game at all (a syntax error) is not a move; in both notations.
#[test]
fn the_error_diagram_tells_a_token_that_is_no_move_from_an_illegal_move() {
    let cases = [
        ("[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 d3c3 2. b4a4 e3xxe2 *\n", true, "Not a move: e3xxe2: "),
        ("[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 c1d1 *\n", false, "Illegal: c1d1: "),
        ("[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 z9z8 *\n", false, "Illegal: z9z8: "),
    ];
    for (text, syntax, caption) in cases {
        let p = pictures(text, 1, VerifyOptions::default()).expect("drawn");
        let (scene, _) = p.error.as_ref().expect("an error diagram");
        let lines = scene.caption();
        assert_eq!(scene.syntax, syntax, "{text}");
        assert!(lines[1].starts_with(caption), "{lines:?}");
    }
}
