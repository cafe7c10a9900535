//! RULINGS 5b: with three stones a side, a `----` written between two moves of a phase may stand
//! for either of two stuck stones, and the choice decides when the game ends (RULINGS 8). A record
//! is legal when some reading makes every token legal; its claims are judged over the legal
//! readings; and nothing depends on the order in which a start code lists the stones.

use std::sync::Arc;

use referee::format::published::notation;
use referee::format::published::random_game as random_phages_game;
use referee::games::phages::Phages;
use referee::random::random_game;
use referee::report::{self, HumanStyle};
use referee::verdict::{ClaimKind, ClaimStatus, Status, Unchecked, Verdict};
use referee::verify::{verify_source, VerifyOptions};

/// Side 5, X to move 1 in phase (a). X's stones on i3 and e1 cannot move 1, q5 can; e1 and q5 are
/// in the run of failed moves with all of O's stones, i3 is not. So the first `----` must be e1:
/// were it i3, the run would hold every stone and the game would be over before `q5o5`.
/// (From a random game, seed 500337, that `verify` refused when i3 came first.)
const ONE_LEGAL_READING: &str =
    "hexaphages_XxOox/oxooox/xooXxox/oxoooxxo/xxxooxo1X/xOxoxxoo/oooOxoo/xxxoxx/xxxox_xa1_i3.q5f.e1f-i7f.i1f.d6f";

/// Side 5, X to move 1 in phase (c), every stone in the run. m9 can move, o3 and m1 cannot, before
/// `m9k9` or after it: either may stay first. The one that stays after the move starts the new
/// run, and so decides whether O's and X's stays that follow end the game.
/// (From a random game, seed 500408, whose claim held in one reading only.)
const TWO_LEGAL_READINGS: &str =
    "hexaphages_xoxxX/1ooxxo/oooxxoX/xooxxooo/1xx1oxo1o/oo1xxxxo/OooOxoo/xxooOx/xxo1X_xc1_m9f.o3f.m1f-l8.c7f.i7f";

fn record(code: &str, moves: &str) -> String {
    format!("HEXAPHAGES\nStartup: {code}\n_xx_ _oo_\n{moves}\n")
}

fn verdict(text: &str) -> Verdict {
    let mut all = verify_source(text, VerifyOptions::default());
    assert_eq!(all.len(), 1, "{text}");
    all.remove(0)
}

/// The human report, fixed theme and width, as the sample snapshots have it.
fn human(text: &str) -> String {
    let v = verdict(text);
    report::human(&report::Source::new("record.txt", Arc::new(text.to_string())), &v, HumanStyle::default())
}

/// Every permutation of `items`.
fn orders<T: Clone>(items: &[T]) -> Vec<Vec<T>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut tail in orders(&rest) {
            tail.insert(0, first.clone());
            out.push(tail);
        }
    }
    out
}

/// The code with each side's stones listed in every order (36 codes for three stones a side).
fn every_order(code: &str) -> Vec<String> {
    let (head, stones) = code.rsplit_once('_').expect("a stones field");
    let (x, o) = stones.split_once('-').expect("X's stones - O's stones");
    let x: Vec<&str> = x.split('.').collect();
    let o: Vec<&str> = o.split('.').collect();
    let mut codes = Vec::new();
    for xs in orders(&x) {
        for os in orders(&o) {
            codes.push(format!("{head}_{}-{}", xs.join("."), os.join(".")));
        }
    }
    codes
}

/// What a verdict says, without the position code (which lists the stones in the start's order).
fn gist(v: &Verdict) -> String {
    let problems: Vec<_> = v.problems.iter().map(|p| (p.kind, &p.token, &p.message, &p.legal)).collect();
    let claims: Vec<_> = v.claims.iter().map(|c| (c.kind, &c.text, c.status, &c.detail)).collect();
    format!(
        "{:?}\n{problems:?}\n{claims:?}\n{:?}\nmoves {} over {} winner {:?} {:?}",
        v.status, v.notes, v.moves, v.game_over, v.winner, v.score_text
    )
}

/// The verdict of the record from `code`, the same whatever order the code lists the stones in.
fn same_in_every_order(code: &str, moves: &str) -> Verdict {
    let first = verdict(&record(code, moves));
    let codes = every_order(code);
    assert_eq!(codes.len(), 36);
    for c in codes {
        let v = verdict(&record(&c, moves));
        assert_eq!(gist(&v), gist(&first), "{c}");
    }
    first
}

#[test]
fn a_stay_names_the_stuck_stone_that_makes_the_record_legal() {
    let moves = "1. ---- q5o5 ---- 5 ---- ---- ---- X wins 29-26";
    let v = same_in_every_order(ONE_LEGAL_READING, moves);
    assert_eq!(v.status, Status::Valid, "{}", gist(&v));
    assert!(v.game_over);
    assert!(v.claims.iter().all(|c| c.status == ClaimStatus::Confirmed), "{:?}", v.claims);
    // One reading only: nothing to say about readings.
    assert!(!v.notes.iter().any(|n| n.contains("RULINGS 5b")), "{:?}", v.notes);
    insta::assert_snapshot!(human(&record(ONE_LEGAL_READING, moves)));
}

/// The rest of the random game from [`TWO_LEGAL_READINGS`], and a claim.
fn two_readings_claiming(claim: &str) -> String {
    format!("1. ---- m9k9 ---- ---- ---- ---- 3 l8o5 ---- ----\n2. ---- ---- ---- 5 ---- ---- ---- ---- {claim}")
}

/// The verdict on the record from [`TWO_LEGAL_READINGS`] (the same in every order of its stones),
/// and its claimed result's check.
fn result_claim(moves: &str) -> (Verdict, referee::verdict::ClaimCheck) {
    let v = same_in_every_order(TWO_LEGAL_READINGS, moves);
    let claim = v.claims.iter().find(|c| c.kind == ClaimKind::Result).expect("a result claim").clone();
    (v, claim)
}

#[test]
fn a_claim_that_holds_in_one_reading_only_depends_on_the_reading() {
    let moves = two_readings_claiming("O wins 27-24");
    let (v, claim) = result_claim(&moves);
    assert_eq!(v.status, Status::Valid, "{}", gist(&v));
    assert_eq!(claim.status, ClaimStatus::Unchecked(Unchecked::Open), "{}", claim.detail);
    assert!(claim.detail.contains("it holds in 1 of the 2 readings"), "{}", claim.detail);
    // Over in one reading, not in the other: not certainly over.
    assert!(!v.game_over);
    assert!(
        v.notes.iter().any(|n| n.contains("the game is over in 1 of them and not in the other 1")),
        "{:?}",
        v.notes
    );
    insta::assert_snapshot!(human(&record(TWO_LEGAL_READINGS, &moves)));
}

#[test]
fn a_claim_refuted_in_every_reading_is_refuted() {
    // The same game, with a score neither reading gives.
    let (_, claim) = result_claim(&two_readings_claiming("X wins 27-24"));
    assert_eq!(claim.status, ClaimStatus::Refuted, "{}", claim.detail);
    assert!(claim.detail.starts_with("it holds in none of the 2 readings"), "{}", claim.detail);
}

#[test]
fn a_move_no_reading_admits_is_illegal() {
    // Both stays before the move: i3 and e1 both join the run, which then holds every stone.
    let moves = "1. ---- ---- q5o5 5 ---- ---- ---- X wins 29-26";
    let v = same_in_every_order(ONE_LEGAL_READING, moves);
    assert_eq!(v.status, Status::Illegal);
    assert_eq!(v.problems[0].token, "q5o5");
    assert_eq!(v.problems[0].message, "the game is over: every stone failed to move in succession");
    insta::assert_snapshot!(human(&record(ONE_LEGAL_READING, moves)));
}

/// The starts `referee random` plays from: every board with a default start.
fn boards() -> [Phages; 3] {
    [Phages::quadraphages(), Phages::hexaphages(4).expect("side 4"), Phages::hexaphages(5).expect("side 5")]
}

/// What `referee random` writes verifies: valid, and every claim confirmed, on every board. (The
/// `random_game_readings` example runs thousands of seeds.)
#[test]
fn random_records_verify_with_their_claims_confirmed() {
    for start in boards() {
        for seed in 0..150 {
            let text = notation::write_record(&start, &random_phages_game(&start, seed, 10_000));
            let v = verdict(&text);
            assert_eq!(v.status, Status::Valid, "seed {seed}:\n{text}");
            assert!(v.claims.iter().all(|c| c.status == ClaimStatus::Confirmed), "seed {seed}: {:?}\n{text}", v.claims);
        }
    }
}

/// Games with their stays anywhere in the phase, as the engine allows: some reading of each
/// record is legal, so every one is valid (seed 500337 was refused before readings were
/// followed), and a claim not confirmed depends on the reading (seed 500408).
#[test]
fn every_game_the_engine_plays_has_a_legal_reading() {
    let side5 = Phages::hexaphages(5).expect("side 5");
    for seed in (0..200).chain([500337, 500408]) {
        let text = notation::write_record(&side5, &random_game(&side5, seed, 10_000));
        let v = verdict(&text);
        assert_eq!(v.status, Status::Valid, "seed {seed}:\n{text}");
        for c in &v.claims {
            let depends = c.status == ClaimStatus::Unchecked(Unchecked::Open) && c.detail.contains("depends on which");
            assert!(c.status == ClaimStatus::Confirmed || depends, "seed {seed}: {c:?}");
        }
    }
}

/// `repair` reads a `----` as `verify` does: a record that some reading makes valid is not
/// repaired, and a slip after such a `----` is repaired by the one edit it needs, whatever order
/// the start lists the stones in (the search once followed the first stuck stone only, and
/// "repaired" the record by swapping its first two tokens when i3 came first).
#[test]
fn repair_follows_the_reading_verify_follows() {
    use referee::repair::{repair_source, rewrite, RepairOptions, Rewrite};
    let options = RepairOptions { time_limit: None, ..RepairOptions::default() };
    for code in every_order(ONE_LEGAL_READING) {
        let valid = record(&code, "1. ---- q5o5 ---- 5 ---- ---- ---- X wins 29-26");
        let r = &repair_source(&valid, VerifyOptions::default(), options.clone(), None).unwrap()[0];
        assert!(r.search.is_none() && r.stands(), "{code}");
        assert_eq!(rewrite(&valid, r, VerifyOptions::default()), Rewrite::Unchanged, "{code}");

        let slip = record(&code, "1. ---- q5o5 ---- 5 ---- ---- ---- a1a2");
        let r = &repair_source(&slip, VerifyOptions::default(), options.clone(), None).unwrap()[0];
        let best = &r.search.as_ref().unwrap().candidates[0];
        let edits: Vec<_> = best.changes.iter().map(|c| (c.kind.name(), c.from.as_str(), c.to.as_str())).collect();
        assert_eq!(edits, [("delete", "a1a2", "")], "{code}");
        match rewrite(&slip, r, VerifyOptions::default()) {
            Rewrite::Repaired { text, .. } => assert!(text.ends_with("---- ---- ----"), "{text}"),
            other => panic!("{code}: {other:?}"),
        }
    }
}

/// A repair's claims are judged over every legal reading, as `verify` judges them: the repair of a
/// mistyped move in the record whose claim holds in one reading only leaves the claim open, as the
/// record as written has it.
#[test]
fn a_repairs_claims_are_judged_over_every_reading() {
    use referee::repair::{repair_source, RepairOptions};
    let written = two_readings_claiming("O wins 27-24");
    let (_, expected) = result_claim(&written);
    let slip = record(TWO_LEGAL_READINGS, &written.replace("l8o5", "l8z5"));
    let options = RepairOptions { time_limit: None, shown: 10, ..RepairOptions::default() };
    let r = &repair_source(&slip, VerifyOptions::default(), options, None).unwrap()[0];
    let meant = r
        .search
        .as_ref()
        .unwrap()
        .candidates
        .iter()
        .find(|c| c.changes.iter().map(|ch| (ch.from.as_str(), ch.to.as_str())).eq([("l8z5", "l8o5")]));
    let meant = meant.expect("the move that was meant is among the repairs");
    let claim = meant.claims.iter().find(|c| c.text == "O wins 27-24").unwrap();
    assert_eq!((claim.status, &claim.detail), (expected.status, &expected.detail));
}
