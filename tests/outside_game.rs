//! A game defined outside the crate (`examples/own_game/game.rs`, In a Row) through the library's
//! entry points, as a crate that adds a game uses them: `VerifyOptions::of::<InRow>()` reads every
//! record as one of the game, and every entry point that takes options serves it as it serves the
//! six games of the registry. The example itself runs the command line and the language server on
//! the game (CI runs it).

#[allow(dead_code)]
#[path = "../examples/own_game/game.rs"]
mod own_game;

use std::sync::Arc;

use own_game::{InRow, DRAWN, ILLEGAL, K};
use referee::format::common::common_start;
use referee::game::code::Coded;
use referee::game::{Game, Notation, Playable};
use referee::judge::{Games, Only, Registry};
use referee::record::Found;
use referee::render::svg::{svg, SvgOptions};
use referee::repair::RepairOptions;
use referee::replay::{Event, ReplayOptions};
use referee::report::{HumanStyle, Source};
use referee::stream::StreamOptions;
use referee::verdict::{ClaimStatus, Reach, Verdict};
use referee::{Status, VerifyOptions};

/// A record from a setup: Black, to move, makes four across at once.
const SETUP: &str = "[Game \"In a Row\"]\n\nSetup:\na b c d e\nB B B . . 1\nW W W . . 2\n. . . . . 3\n. . . . . 4\n\
                     . . . . . 5\n\n1. d1 1-0\n\nFinal Position:\na b c d e\nB B B B . 1\nW W W . . 2\n. . . . . 3\n\
                     . . . . . 4\n. . . . . 5\n";

fn options() -> VerifyOptions<Only<InRow>> {
    VerifyOptions::of::<InRow>()
}

fn verdicts(text: &str) -> Vec<Verdict> {
    referee::verify::verify_records(text, options()).collect()
}

/// `DRAWN` up to (not including) move `n`, with `result` claimed.
fn drawn_until(n: usize, result: &str) -> String {
    let stop = DRAWN.find(&format!(" {n}.")).unwrap_or(DRAWN.len());
    format!("{} {result}\n", &DRAWN[..stop])
}

/// An illegal move, located, with the legal moves, the alternatives and the human report that
/// links the game's own rules page.
#[test]
fn an_illegal_move_is_located_with_the_legal_moves_and_alternatives() {
    let v = &verdicts(ILLEGAL)[0];
    let p = &v.problems[0];
    let second_c3 = ILLEGAL.match_indices("c3").nth(1).map(|(at, _)| at).unwrap_or_default();
    assert_eq!(v.status, Status::Illegal);
    assert_eq!((p.span.clone(), p.token.as_str()), (second_c3..second_c3 + 2, "c3"));
    assert!(p.message.contains("c3 already holds a Black stone"));
    assert_eq!(p.legal_count, 23);
    assert!(p.legal.iter().any(|m| m == "a1") && !p.legal.iter().any(|m| m == "c3" || m == "d3"));
    let ends = v.alternatives.iter().filter(|a| a.reach == Reach::End).count();
    assert!(ends > 0, "{:?}", v.alternatives);
    let source = Source::new("illegal.txt", Arc::new(ILLEGAL.to_string()));
    let report = referee::report::human(&source, v, HumanStyle::default());
    assert!(report.contains("c3 already holds a Black stone") && report.contains("legal here: a1 b1"), "{report}");
    assert!(report.contains("rule: docs/rules/inrow.md#inrow-placement"), "{report}");
}

/// Results claimed before the end are judged by searching every continuation: three cells are
/// left after White's 11th move, and no row of four can be made with them.
#[test]
fn claims_before_the_end_are_searched() {
    for (claim, expected) in [("0-1", ClaimStatus::Refuted), ("0-0", ClaimStatus::Confirmed)] {
        let v = &verdicts(&drawn_until(12, claim))[0];
        let c = &v.claims[0];
        assert_eq!(c.status, expected, "{claim}: {}", c.detail);
        assert!(!v.game_over && c.detail.contains("positions searched"), "{}", c.detail);
    }
}

/// Results at the end: a win, a draw, and a game from a setup diagram with a final diagram.
#[test]
fn results_at_the_end_are_confirmed() {
    let won = "[Game \"In a Row\"]\n\n1. a1 a2 2. b2 b1 3. c3 c1 4. d4 1-0\n".to_string();
    for (text, winner) in [(won, Some("Black")), (DRAWN.to_string(), None), (SETUP.to_string(), Some("Black"))] {
        let v = &verdicts(&text)[0];
        assert_eq!((v.status, v.winner.as_deref()), (Status::Valid, winner), "{text}");
        assert!(!v.claims.is_empty() && v.claims.iter().all(|c| c.status == ClaimStatus::Confirmed), "{text}");
    }
    let v = &verdicts(&DRAWN.replace("0-0", "1-0"))[0];
    assert!(v.claims.iter().any(|c| c.status == ClaimStatus::Refuted), "{:?}", v.claims);
}

/// Random games, written as records and verified; every position read back from its code, and
/// codes that are not the game's refused with where and why.
#[test]
fn random_games_verify_and_their_codes_read_back() {
    let start = InRow::start(None, None).expect("the default board");
    let mut positions = 0;
    for seed in 1..=20 {
        let moves = referee::random::random_game(&start, seed, 100);
        let text = referee::write::write_common_record(&start, &moves, &[]);
        let v = &verdicts(&text)[0];
        assert_eq!((v.status, v.moves, v.claims[0].status), (Status::Valid, moves.len(), ClaimStatus::Confirmed));
        let Some(Found::Common(r)) = referee::record::read_format(&text, None).next() else { panic!("{text}") };
        let start = common_start::<InRow>(&text, &r).unwrap_or_else(|p| panic!("{}", p.message));
        referee::replay::replay_observed(start, &r.tokens, ReplayOptions::default(), |event| {
            if let Event::Played { position } = event {
                assert_eq!(InRow::from_code(&position.code()).as_ref(), Ok(position));
                positions += 1;
            }
        });
    }
    assert!(positions > 20 * K);
    let refused = [
        ("inrow_4/4/4/4", "the code ends before its colour to move"),
        ("inrow_3/3/3_b", "In a Row is played on square boards from 4x4 to 26x26, not 3x3"),
        ("inrow_BWBWBW/5/5/5/5_b", ""),
        ("inrow_5/5/5/5/4é_b", "cannot stand in a position code"),
        ("inrow_BBBB1/WWWW1/5/5/5_w", "both colours have 4 in a row"),
        ("inrow_4/4/4/4_x", "expected the colour to move: `b` or `w`, not `x`"),
        ("inrow_4/4/4/4_b_-", "nothing may follow"),
    ];
    for (code, says) in refused {
        let e = InRow::from_code(code).map(|_| ()).unwrap_err();
        assert!(e.to_string().contains(says), "{code}: {e}");
    }
}

/// A record may start from the game's own position code; a picture draws the game's position.
#[test]
fn codes_start_records_and_pictures_draw_positions() {
    let start = InRow::start(None, None).expect("the default board");
    let coded = format!("[Game \"In a Row\"]\n[Position \"{}\"]\n\n1. c3 *\n", start.code());
    let v = &verdicts(&coded)[0];
    assert_eq!((v.status, v.moves), (Status::Valid, 1), "{:?}", v.problems);
    let mut position = start;
    for token in ["a1", "c1", "b1"] {
        let m = InRow::parse_move(token).and_then(|w| position.resolve(w).map_err(|e| e.to_string()));
        position.play(m.expect("a move")).expect("legal");
    }
    let picture = svg(&referee::picture::position_scene(&position, 3), &SvgOptions::default());
    assert!(picture.starts_with("<svg") && picture.contains("In a Row"));
    assert_eq!(picture.matches("class=\"figure stone owner-").count(), 3, "{picture}");
}

/// Converted to the canonical layout and to JSON and back; repaired; replayed move by move, drawn
/// position by position, read in chunks; perft counted from a code.
#[test]
fn convert_repair_pictures_streams_and_perft_serve_the_game() {
    let canonical = referee::convert::canonical(DRAWN, 1, options()).expect("it converts");
    assert_eq!(verdicts(&canonical)[0].status, Status::Valid, "{canonical}");
    let doc = referee::convert::document(DRAWN, 1, options()).expect("it converts");
    let back = referee::convert::read_json(&referee::convert::to_json(&doc)).expect("the JSON reads back");
    assert_eq!(referee::convert::reread_in(&back[0], options().games).expect("it rereads"), doc);

    let repaired = referee::repair::repair_source(ILLEGAL, options(), RepairOptions::default(), None).expect("read");
    let best = repaired[0].search.as_ref().and_then(|s| s.candidates.first()).expect("a repair");
    assert!(repaired[0].stands() && best.changes.iter().any(|c| c.from == "c3"), "{:?}", best.changes);

    let replayed = referee::moves::record_moves(DRAWN, 1, options()).unwrap_or_else(|(_, e)| panic!("{e}"));
    let pictures = referee::picture::pictures(DRAWN, 1, options()).unwrap_or_else(|(_, e)| panic!("{e}"));
    assert_eq!((replayed.moves.len(), pictures.scenes.len()), (25, 26));
    let collection = [ILLEGAL, DRAWN, SETUP].join("\n");
    let mut streamed = Vec::new();
    let chunks = StreamOptions { chunk: 64, ..StreamOptions::default() };
    referee::stream::verify_stream(collection.as_bytes(), options(), chunks, |_, v| {
        streamed.extend(v.into_iter().map(|v| v.status));
        Ok::<(), ()>(())
    })
    .expect("the collection streams");
    assert_eq!(streamed, [Status::Illegal, Status::Valid, Status::Valid]);

    struct Perft;
    impl referee::perft::WithPosition for Perft {
        type Output = u64;
        fn run<G: referee::Engine>(self, position: G) -> u64 {
            referee::perft::perft(&position, 2)
        }
    }
    let empty = InRow::start(None, None).expect("the default board").code();
    assert_eq!(referee::perft::with_position_in(options().games, &empty, Perft), Ok(25 * 24));
}

/// The registry with the game added reads records of both: each by its `[Game]` tag.
#[test]
fn the_registry_with_the_game_added_reads_both() {
    let quarod = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 d3c3 2. b4a4 a3b3 *\n";
    let text = format!("{ILLEGAL}\n{quarod}\n{DRAWN}");
    let options = VerifyOptions::default().with_games(Registry.and::<InRow>());
    let games: Vec<_> = referee::verify::verify_records(&text, options).map(|v| (v.game, v.status)).collect();
    assert_eq!(games.len(), 3, "{games:?}");
    assert_eq!(games.iter().map(|g| g.1).collect::<Vec<_>>(), [Status::Illegal, Status::Valid, Status::Valid]);
}
