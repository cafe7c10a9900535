//! One snapshot per sample file: the human report (fixed no-colour theme, width 80) and the JSON
//! lines, so any change in a verdict shows as a diff.

use std::sync::Arc;

use referee::report::{self, HumanStyle};
use referee::verify::{verify_source, VerifyOptions};

fn reports(path: &std::path::Path, options: VerifyOptions) -> (String, String) {
    let src = Arc::new(std::fs::read_to_string(path).expect("sample is UTF-8"));
    let name = path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(path).display().to_string();
    let verdicts = verify_source(&src, options);
    assert!(!verdicts.is_empty(), "{name} holds no record");
    let source = report::Source::new(name, src.clone());
    let human: String = verdicts.iter().map(|v| report::human(&source, v, HumanStyle::default()) + "\n").collect();
    let json: String = verdicts.iter().map(|v| report::json_line(&source, v) + "\n").collect();
    (human, json)
}

#[test]
fn every_sample_has_a_snapshot_of_its_verdict() {
    insta::glob!("../samples", "**/*.txt", |path| {
        let (human, json) = reports(path, VerifyOptions::default());
        insta::assert_snapshot!("human", human);
        insta::assert_snapshot!("json", json);
    });
}

#[test]
fn every_sample_has_a_snapshot_of_its_lenient_verdict() {
    insta::glob!("../samples", "**/*.txt", |path| {
        let (human, _) = reports(path, VerifyOptions { lenient: true, ..VerifyOptions::default() });
        insta::assert_snapshot!("lenient", human);
    });
}

/// The published records, checked against what a reader can confirm by hand in the files.
#[test]
fn published_records_stop_at_their_first_illegal_move() {
    let cases = [
        ("samples/quadraphages/blog-page.txt", 1, "no O stone on d2", "d2d5"),
        ("samples/quadraphages/blog-page.txt", 2, "a 3-cell move after O announced 4", "m4j1"),
        ("samples/quadraphages/designers-game-1.txt", 1, "the path is blocked by O's stone on d1", "h1a1"),
        ("samples/quadraphages/designers-game-2.txt", 1, "no O stone on g7", "g7g5"),
    ];
    for (file, index, message, token) in cases {
        let src = std::fs::read_to_string(file).unwrap();
        let v = &verify_source(&src, VerifyOptions::default())[index - 1];
        assert_eq!(v.status, referee::verdict::Status::Illegal, "{file} #{index}");
        assert_eq!(v.problems.len(), 1);
        assert_eq!(v.problems[0].message, message);
        assert_eq!(v.problems[0].token, token);
    }
}

/// Lenient replay: a `----` for a stone that could move is one violation, not the end of the game
/// (it would have been the fourth stay in a row), and the claims are checked against the game as
/// replayed past it. Strict replay stops there and leaves the claims unchecked.
#[test]
fn a_lenient_replay_goes_past_an_illegal_stay_and_checks_the_claims() {
    use referee::verdict::{ClaimStatus, ProblemKind, Status, Unchecked};
    let src = std::fs::read_to_string("samples/quadraphages/broken/illegal-stay-then-play-on.txt").unwrap();
    let lenient = &verify_source(&src, VerifyOptions { lenient: true, ..VerifyOptions::default() })[0];
    assert_eq!(lenient.status, Status::Illegal);
    assert_eq!(lenient.problems.len(), 1, "{:?}", lenient.problems);
    assert_eq!(lenient.problems[0].kind, ProblemKind::Illegal);
    assert_eq!(lenient.problems[0].message, "O's stone on a2 could still move 3 (to d2), so it may not stay");
    assert!(lenient.game_over, "the record's own last stays end the game");
    assert_eq!(lenient.winner.as_deref(), Some("O"));
    for c in &lenient.claims {
        assert_eq!((c.status, c.violations_accepted), (ClaimStatus::Confirmed, 1), "{c:?}");
        assert!(c.detail.starts_with("as replayed, past 1 violation: "), "{}", c.detail);
    }
    assert_eq!(lenient.claims.len(), 2);

    let strict = &verify_source(&src, VerifyOptions::default())[0];
    assert_eq!(strict.problems, lenient.problems);
    for c in &strict.claims {
        assert_eq!((c.status, c.violations_accepted), (ClaimStatus::Unchecked(Unchecked::IllegalMoves), 0));
    }

    // The blog's hex game: two violations, after which the record agrees with itself.
    let src = std::fs::read_to_string("samples/quadraphages/blog-page.txt").unwrap();
    let hex = &verify_source(&src, VerifyOptions { lenient: true, ..VerifyOptions::default() })[1];
    assert_eq!(hex.problems.len(), 2);
    let judged: Vec<_> = hex.claims.iter().map(|c| (c.status, c.violations_accepted)).collect();
    assert_eq!(judged, [(ClaimStatus::Confirmed, 2), (ClaimStatus::Confirmed, 2)]);
}
