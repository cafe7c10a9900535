//! Position codes (grammar.md, "Position codes"): every position of generated games reads back
//! from its code equal in all its state; the codes of known positions and the errors of malformed
//! codes are pinned by snapshots; records start from a code in a `[Position]` tag or after
//! `Startup:`.

mod support;

use std::sync::Arc;

use proptest::prelude::*;

use referee::format::published::notation::write_record;
use referee::format::{AsPlayable, WithPlayable};
use referee::game::code::Coded;
use referee::game::Notation;
use referee::game::{Game, Playable};
use referee::games::petrify::Petrify;
use referee::games::phages::{Phages, PhagesMove, Phase};
use referee::games::quarod::Quarod;
use referee::games::splinter::Splinter;
use referee::games::vadrantir::Vadrantir;
use referee::games::GameKind;
use referee::random::random_game;
use referee::report::{self, HumanStyle, Source};
use referee::verdict::{ClaimStatus, Status, Verdict};
use referee::verify::{verify_source, VerifyOptions};
use referee::write::write_common_record;

// That every position of random games of every game reads back from its code is checked over the
// registry, in every_game.rs.

/// The position after the first `ply` of `moves`.
fn after<G: Game>(start: &G, moves: &[G::Move], ply: usize) -> G {
    let mut p = start.clone();
    for &m in &moves[..ply] {
        p.play_unchecked(m);
    }
    p
}

/// The codes of the start and of a position in the middle of a random game, for each game: the
/// format, pinned.
#[test]
fn codes_of_known_positions() {
    fn two<G: Game + Coded>(out: &mut String, name: &str, start: &G) {
        let moves = random_game(start, 7, 2_000);
        out.push_str(&format!("{name}, start:\n{}\n", start.code()));
        out.push_str(&format!(
            "{name}, after {} moves:\n{}\n",
            moves.len() / 2,
            after(start, &moves, moves.len() / 2).code()
        ));
        out.push_str(&format!("{name}, at the end:\n{}\n\n", after(start, &moves, moves.len()).code()));
    }
    let mut out = String::new();
    two(&mut out, "quadraphages 9x9", &Phages::quadraphages());
    two(&mut out, "hexaphages side 4", &Phages::hexaphages(4).unwrap());
    two(&mut out, "hexaphages side 5", &Phages::hexaphages(5).unwrap());
    two(&mut out, "quarod 6x6", &Quarod::start(Some(6), None).unwrap());
    two(&mut out, "petrify 8x8", &Petrify::start(None, None).unwrap());
    two(&mut out, "vadrantir side 5", &Vadrantir::start(Some(5), None).unwrap());
    two(&mut out, "splinter 2 players", &Splinter::start(Some(10), Some(2)).unwrap());
    two(&mut out, "splinter 3 players", &Splinter::start(Some(13), Some(3)).unwrap());
    two(&mut out, "splinter 4 players", &Splinter::start(None, None).unwrap());
    insta::assert_snapshot!(out);
}

/// A malformed code and what its game's reader says, with a caret under the place.
fn explain<G: Coded>(code: &str) -> String {
    match G::from_code(code) {
        Ok(_) => format!("{code}\n  reads as a position\n"),
        Err(e) => format!("{code}\n{}^ {}\n", " ".repeat(e.at), e.message),
    }
}

#[test]
fn malformed_codes_say_what_was_expected_and_where() {
    let out = [
        explain::<Quarod>("chess_8/8/8/8/8/8/8/8_w"),
        explain::<Quarod>("petrify_6/6/6/6/6/6_b_0_0_-_-"),
        explain::<Quarod>("quarod_4/4/4/4 _b_0_0_-_-"),
        explain::<Quarod>("quarod_4/4/4/4"),
        explain::<Quarod>("quarod_4/4/4/4_b_0_0_-_-_more"),
        explain::<Quarod>("quarod_4/4/4_b_0_0_-_-"),
        explain::<Quarod>("quarod_4/4/5/4_b_0_0_-_-"),
        explain::<Quarod>("quarod_4/4/2Nx/4_b_0_0_-_-"),
        explain::<Quarod>("quarod_4/4/2NNN/4_b_0_0_-_-"),
        explain::<Quarod>("quarod_4/4/4/4_x_0_0_-_-"),
        explain::<Quarod>("quarod_4/4/4/4_b_one_0_-_-"),
        explain::<Quarod>("quarod_4/4/4/4_b_0_0_y_-"),
        explain::<Quarod>("quarod_1_b_0_0_-_-"),
        explain::<Petrify>("petrify_4/4/4/4_b_0_0_-_-"),
        explain::<Petrify>("petrify_6/6/6/6/6/5#_b_0_0_-_-"),
        explain::<Vadrantir>("vadrantir_4/5/6/7/6/5/4_b_0_-"),
        explain::<Vadrantir>("vadrantir_5/6/7/8/9/8/7/6/5_b_0_-"),
        explain::<Vadrantir>("vadrantir_5/6/7/8/9/8/7/6/6_b_0_-"),
        explain::<Phages>("quadraphages_9/9/9/9/9/9/9/9/9_xb0f_a7.i3-c1.g9"),
        explain::<Phages>("quadraphages_2O6/9/8X/9/9/9/X8/9/6O2_xd0f_a7.i3-c1.g9"),
        explain::<Phages>("quadraphages_2O6/9/8X/9/9/9/X8/9/6O2_xa0f_a7.i3-c1.g9"),
        explain::<Phages>("quadraphages_2O6/9/8X/9/9/9/X8/9/6O2_xb0f_a7.i3"),
        explain::<Phages>("quadraphages_2O6/9/8X/9/9/9/X8/9/6O2_xb0f_a7.i3-c1"),
        explain::<Phages>("quadraphages_2O6/9/8X/9/9/9/X8/9/6O2_xb0f_a7.i4-c1.g9"),
        explain::<Phages>("quadraphages_2O6/9/8X/9/9/9/X8/9/6O2_xb0f_a7.i3-c1.g9z"),
        explain::<Phages>("quadraphages_2O6/9/8X/9/9/9/X8/9/6O2_xb0f_a7.i3-c1a.g9"),
        explain::<Phages>("quadraphages_2O6/9/8X/9/9/9/X8/9/6O2_xc3_a7a.i3a-c1.g9"),
        explain::<Phages>("hexaphages_2O6/9/8X/9/9/9/X8/9/6O2_xb0f_a7.i3-c1.g9"),
        explain::<Phages>("hexaphages_4/2O2/1X4/7/4X1/2O2/4_xb256_d3.j5-g2.g6"),
        explain::<Splinter>("splinter_6/6/6/6/6/6_5_r_1224_-_0_0_-"),
        explain::<Splinter>("splinter_6/6/2RkBk2/6/6/6_2_g_1000.1000_-_0_0_-"),
        explain::<Splinter>("splinter_6/6/2RkBk2/6/6/6_2_r_1000_-_0_0_-"),
        explain::<Splinter>("splinter_6/6/2RkBk2/6/6/6_2_r_1000.2000_-_0_0_-"),
        explain::<Splinter>("splinter_6/6/2RkBk2/6/6/6_2_r_1000.1000-2_-_0_0_-"),
        explain::<Splinter>("splinter_6/6/2RkGk2/6/6/6_2_r_1000.1000_-_0_0_-"),
        explain::<Splinter>("splinter_6/6/2RkBk2/6/6/6_2_r_1000.1000_c3e3_0_0_-"),
        explain::<Splinter>("splinter_6/6/2RkBk2/6/6/6_2_r_1000.1000_-_0_0_lg"),
        explain::<Splinter>("splinter_6/6/2RkBk2/6/6/6_2_r_1000.1000_-_0_0_x"),
        // More of a type than a full army: a board of sixty pawns once overran the engine's lists.
        explain::<Splinter>(
            "splinter_RpRpRpRpRpRpRpRpRpRp/RpRpRpRpRpRpRpRpRpRp/RpRpRpRpRpRpRpRpRpRp/RpRpRpRpRpRpRpRpRpRp/RpRpRpRpRpRpRpRpRpRp/RpRpRpRpRpRpRpRpRpRp/10/10/10/10_2_r_1224.1224_-_0_0_-",
        ),
        explain::<Splinter>("splinter_6/6/2RkBkRk1/6/6/6_2_r_1000.1000_-_0_0_-"),
    ]
    .concat();
    insta::assert_snapshot!(out);
}

#[test]
fn numbers_and_lists_past_what_a_board_holds_are_refused_with_the_number_and_its_limit() {
    // Each number is read by one bounded reader (`code::read_number`): a run of empty cells past the
    // cells left in its row, at the integer limit or too long for any integer, a count past its
    // type; rows, fields, stones, armies and moved pieces are refused at the first one too many.
    let many = |unit: &str, n: usize| unit.repeat(n);
    let out = [
        explain::<Quarod>("quarod_N18446744073709551615/4/4/4_b_0_0_-_-"),
        explain::<Quarod>("quarod_N18446744073709551616/4/4/4_b_0_0_-_-"),
        explain::<Quarod>("quarod_99999999999999999999999999999999999999/4/4/4_b_0_0_-_-"),
        explain::<Quarod>("quarod_N0N2/4/4/4_b_0_0_-_-"),
        explain::<Quarod>("quarod_04/4/4/4_b_0_0_-_-"),
        explain::<Phages>("quadraphages_2O99999999999999999999999/9/8X/9/9/9/X8/9/6O2_xb0f_a7.i3-c1.g9"),
        explain::<Quarod>("quarod_4/4/4/4_b_4294967296_0_-_-"),
        explain::<Petrify>("petrify_6/6/6/6/6/6_b_0_256_-_-"),
        explain::<Vadrantir>("vadrantir_5/6/7/8/9/8/7/6/5_b_99999999999999999999_-"),
        explain::<Splinter>("splinter_6/6/2RkBk2/6/6/6_2_r_1000.1000_-_65536_0_-"),
        explain::<Splinter>("splinter_6/6/2RkBk2/6/6/6_2_r_1000.1000-2-256_-_0_0_-"),
        explain::<Phages>("quadraphages_2O6/9/8X/9/9/9/X8/9/6O2_xb0f_a7.i3.a1.a2-c1.g9"),
    ]
    .concat();
    insta::assert_snapshot!(out);
    // Lists of a million are refused from their count or at their first item too many, the error
    // at the right place.
    let rows = format!("quarod_4{}_b_0_0_-_-", many("/4", 1_000_000));
    assert_eq!(Quarod::from_code(&rows).unwrap_err().message, "the board has 1000001 rows; a square board has 2 to 26");
    let fields = format!("quarod_4/4/4/4_b_0_0_-_-{}", many("_", 1_000_000));
    assert_eq!(Quarod::from_code(&fields).unwrap_err().at, "quarod_4/4/4/4_b_0_0_-_-".len());
    let armies = format!("splinter_6/6/2RkBk2/6/6/6_2_r_1000{}_-_0_0_-", many(".1000", 1_000_000));
    assert!(Splinter::from_code(&armies).unwrap_err().message.starts_with("1000001 armies for 2 players"));
    let moved = format!("splinter_6/6/2RkBk2/6/6/6_2_r_1000.1000_{}_0_0_-", many("b3c3.", 1_000_000));
    let e = Splinter::from_code(&moved).unwrap_err();
    assert_eq!(e.message, "more pieces just moved than the 36 squares of the board");
    assert_eq!(e.at, "splinter_6/6/2RkBk2/6/6/6_2_r_1000.1000_".len() + 36 * 5);
}

/// The verdicts of `text`, each as the human report writes it.
fn reports(text: &str) -> String {
    let verdicts = verify_source(text, VerifyOptions::default());
    let source = Source::new("record.txt", Arc::new(text.to_string()));
    verdicts.iter().map(|v| report::human(&source, v, HumanStyle::default())).collect::<Vec<_>>().join("\n")
}

#[test]
fn position_tags_that_disagree_with_the_record_are_syntax_errors() {
    let code = "quarod_2Ew/4/2eW/eW2_w_3_0_-_b";
    let cases = [
        // The code alone: the record starts from it.
        format!("[Game \"Quarod\"]\n[Position \"{code}\"]\n\n1. a1b1 *\n"),
        format!("[Game \"Petrify\"]\n[Position \"{code}\"]\n\n1. a1 *\n"),
        format!("[Game \"Quarod\"]\n[Size \"6\"]\n[Position \"{code}\"]\n\n1. a1b1 *\n"),
        "[Game \"Quarod\"]\n[Position \"quarod_2Ew/4/2eW/eW2_w_3_0_-_q\"]\n\n1. a1b1 *\n".to_string(),
        "[Game \"Splinter Quad\"]\n[Players \"3\"]\n[Position \"splinter_6/6/2RkBk2/6/6/6_2_r_1000.1000_-_0_0_-\"]\n\n1. c3c2 *\n".to_string(),
        format!("[Game \"Quarod\"]\n[Position \"{code}\"]\n\nSetup:\na  b  c  d\n.. .. B> W< 1.\n.. .. .. .. 2.\n.. .. W> B< 3.\nW> B< .. W< 4.\n\n1. a1b1 *\n"),
    ];
    let out: Vec<String> = cases.iter().map(|c| reports(c)).collect();
    insta::assert_snapshot!(out.join("\n"));
}

/// The verdict of a record, as far as these tests compare verdicts.
fn summary(v: &Verdict) -> (Status, bool, Option<String>, Vec<(String, f64)>) {
    (v.status, v.game_over, v.winner.clone(), v.score.clone())
}

/// A generated game, cut at `ply`: the record of the rest, starting from the code of the position
/// there in a `[Position]` tag (with its setup diagram, and without), verifies to the same end as
/// the whole game.
fn position_tag_starts_the_record<G: Playable>(start: &G, seed: u64, cut: usize) -> Result<(), TestCaseError> {
    let moves = random_game(start, seed, 2_000);
    let whole = &verify_source(&write_common_record(start, &moves, &[]), VerifyOptions::default())[0];
    prop_assert_eq!(whole.status, Status::Valid);
    let ply = cut % (moves.len() + 1);
    let middle = after(start, &moves, ply);
    // The writer gives a start under way a `[Position]` tag of its own; a record gives a tag once.
    let own = matches!(referee::write::start_form(&middle), referee::write::StartForm::Code(_));
    let tags = if own { vec![] } else { vec![("Position", middle.code())] };
    let with_setup = write_common_record(&middle, &moves[ply..], &tags);
    // Without the setup diagram the tag alone gives the start.
    let alone = match with_setup.find("\nSetup:\n") {
        Some(i) => {
            let end = i + 1 + with_setup[i + 1..].find("\n\n").expect("the diagram ends at a blank line");
            format!("{}{}", &with_setup[..i], &with_setup[end..])
        }
        None => with_setup.clone(),
    };
    for text in [&with_setup, &alone] {
        let v = &verify_source(text, VerifyOptions::default())[0];
        prop_assert_eq!(summary(v), summary(whole), "{}\n{:?}", text, v.problems);
        prop_assert_eq!(v.moves, moves.len() - ply);
        prop_assert!(v.claims.iter().all(|c| c.status == ClaimStatus::Confirmed), "{:?}", v.claims);
    }
    Ok(())
}

/// A generated Quadraphages or Hexaphages game, cut anywhere, a number due included: the rest,
/// after `Startup: CODE`, replays to the same end. A first line that opens with a number is read as
/// moves when it holds a stone's step (grammar.md, Part I, Known gaps 6), as it nearly always does.
fn startup_code_starts_the_record(start: &Phages, seed: u64, cut: usize) -> Result<(), TestCaseError> {
    // A game whose record reads one way only: with its stays anywhere in a phase, a side-5 record's
    // `----` may read several ways, one of which need not end the game (RULINGS 5b), and then the
    // record is not over (seen once in a full test run).
    let moves = referee::format::published::random_game(start, seed, 1_000_000);
    let whole = &verify_source(&write_record(start, &moves), VerifyOptions::default())[0];
    prop_assert!(whole.game_over);
    let opens = |k: &usize| {
        after(start, &moves, *k).phase() != Phase::Announce
            || moves[*k..].iter().take(10).any(|m| matches!(m, PhagesMove::Step { .. }))
    };
    let Some(ply) = (cut % moves.len()..moves.len()).find(opens) else { return Ok(()) };
    let middle = after(start, &moves, ply);
    let mut p = middle.clone();
    let tokens: Vec<String> = moves[ply..]
        .iter()
        .map(|&m| {
            let w = p.write_move(m);
            p.play_unchecked(m);
            w
        })
        .collect();
    let lines: Vec<String> =
        tokens.chunks(10).enumerate().map(|(i, chunk)| format!("{}. {}", i + 1, chunk.join(" "))).collect();
    let text = format!("{}\nStartup: {}\n{}\n", start.about().title.to_uppercase(), middle.code(), lines.join("\n"));
    let v = &verify_source(&text, VerifyOptions::default())[0];
    prop_assert_eq!(v.status, Status::Valid, "{}\n{:?}", text, v.problems);
    prop_assert_eq!(v.game, whole.game);
    prop_assert!(v.game_over, "{}", text);
    prop_assert_eq!(&v.score_text, &whole.score_text, "{}", text);
    prop_assert_eq!(v.moves, moves.len() - ply);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn a_position_tag_starts_a_record_of_any_game_of_the_common_format(
        game in prop::sample::select(GameKind::ALL.to_vec()),
        size in any::<prop::sample::Index>(),
        players in any::<prop::sample::Index>(),
        seed in any::<u64>(),
        cut in any::<usize>(),
    ) {
        struct Start { size: u8, players: u8, seed: u64, cut: usize }
        impl WithPlayable for Start {
            type Output = Result<(), TestCaseError>;
            fn run<G: Playable>(self) -> Self::Output {
                let start = G::start(Some(self.size), Some(self.players)).map_err(|e| TestCaseError::fail(e.to_string()))?;
                position_tag_starts_the_record(&start, self.seed, self.cut)
            }
        }
        // The smaller boards the game declares: a cut game is replayed twice per case.
        let about = game.about();
        let smaller: Vec<u8> = about.sizes.iter().take(5).collect();
        let size = smaller[size.index(smaller.len())];
        let players = about.players.0 + players.index(usize::from(about.players.1 - about.players.0) + 1) as u8;
        if let Some(checked) = game.with_game(AsPlayable(Start { size, players, seed, cut })) {
            checked?;
        }
    }

    #[test]
    fn a_startup_code_starts_a_quadraphages_record(seed in any::<u64>(), cut in any::<usize>()) {
        startup_code_starts_the_record(&Phages::quadraphages(), seed, cut)?;
    }

    #[test]
    fn a_startup_code_starts_a_hexaphages_record(side in 4u8..=5, seed in any::<u64>(), cut in any::<usize>()) {
        startup_code_starts_the_record(&Phages::hexaphages(side).unwrap(), seed, cut)?;
    }
}

#[test]
fn startup_codes_that_do_not_fit_the_record_are_syntax_errors() {
    let cases = [
        // A Hexaphages code under a Quadraphages title.
        "QUADRAPHAGES\nStartup: hexaphages_4/2O2/1X4/7/4X1/2O2/4_xb0f_d3.j5-g2.g6\n1. .... .... 1 d3e4 j5i4\n",
        // A code of another game.
        "Startup: quarod_4/4/4/4_b_0_0_-_-\n1. .... .... 1 a7a8 i3i2\n",
        // A malformed code: the error points into it.
        "Startup: quadraphages_2O6/9/8X/9/9/9/X8/9/6O2_xb0f_a7.i3-c1.g8\n1. .... .... 1 a7a8 i3i2\n",
    ];
    let out: Vec<String> = cases.iter().map(|c| reports(c)).collect();
    insta::assert_snapshot!(out.join("\n"));
}

#[test]
fn show_writes_the_code_of_a_position() {
    let (code, out, err) =
        support::run(&["show", "samples/quadraphages/random-seed-1.txt", "--format", "code", "--ply", "7"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "quadraphages_X1o5O/9/O7x/9/9/9/x8/9/o5o1X_oc6_a1.i9-i1.a3a\n");
    let (code, out, _) =
        support::run(&["show", "samples/petrify/pie-swap-size-6.txt", "--format", "code", "--ply", "0"]);
    assert_eq!(code, 0);
    assert_eq!(out, "petrify_6/6/6/6/6/6_b_0_0_-_-\n");
    // The code written to a file reads back as the position `show` draws.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("position.code");
    let (code, _, err) = support::run(&[
        "show",
        "samples/splinter/random-3-players.txt",
        "--format",
        "code",
        "--ply",
        "20",
        "-o",
        support::arg(&file),
    ]);
    assert_eq!(code, 0, "{err}");
    let written = std::fs::read_to_string(&file).unwrap();
    let position = Splinter::from_code(written.trim_end()).expect("the code reads back");
    let (_, diagram, _) = support::run(&["show", "samples/splinter/random-3-players.txt", "--ply", "20"]);
    assert_eq!(referee::render::ascii::diagram(&position), diagram);
}

#[test]
fn a_position_tag_may_have_spaces_around_its_code() {
    let text = "[Game \"Quarod\"]\n[Position \" quarod_2Ew/4/2eW/eW2_w_3_0_-_b \"]\n\n1. a1b1 *\n";
    let v = &verify_source(text, VerifyOptions::default())[0];
    assert_eq!(v.status, Status::Valid, "{:?}", v.problems);
    assert_eq!(v.moves, 1);
}

/// Lenient replay plays moves the rules refuse (a stay for a stone that could move breaks the run of
/// failures instead of joining it): the positions it leaves read back from their codes too.
#[test]
fn phages_codes_round_trip_in_lenient_play() {
    for start in [Phages::quadraphages(), Phages::hexaphages(4).unwrap(), Phages::hexaphages(5).unwrap()] {
        for seed in 0..40u64 {
            let mut rng = fastrand::Rng::with_seed(seed);
            let mut p = start.clone();
            for _ in 0..300 {
                let mut moves = p.legal_moves();
                if p.phase() != Phase::Announce && rng.u8(..4) == 0 {
                    moves = p.stones_to_act().map(|stone| referee::games::phages::PhagesMove::Stay { stone }).collect();
                }
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.usize(..moves.len())];
                match p.check(m) {
                    Ok(()) => p.play_unchecked(m),
                    Err(why) => p.play_refused(m, &why),
                }
                let code = p.code();
                let back = Phages::from_code(&code).unwrap_or_else(|e| panic!("{code}: {e}"));
                assert!(back == p, "{code} reads back as another position");
            }
        }
    }
}
