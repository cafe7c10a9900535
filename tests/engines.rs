//! referee as the judge of engines (docs/protocol.md): the conformance suite in conformance/ is the
//! one `referee suite` writes; `referee conformance` passes `referee engine` and the Python example
//! engine, and names the first differing position of an engine with one rule broken in each game;
//! `referee match` plays games whose records verify, and engines that crash, play an illegal move,
//! take too long or answer garbage lose by forfeit with the reason in the record while the match
//! goes on. The engines of the tests are in tests/engines/.

use std::path::PathBuf;
use std::process::{Command, Output};

use referee::games::GameKind;
use referee::judge::Registry;
use referee::protocol::suite::{read_suite, suite_of, write_suite};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn referee(args: &[&str]) -> Output {
    Command::new(REFEREE).current_dir(root()).args(args).output().expect("referee runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// An engine command: `python3 tests/engines/NAME ARGS`.
fn python(script: &str, args: &str) -> String {
    format!("python3 {} {args}", root().join("tests/engines").join(script).display())
}

/// The suite is versioned: each game's file in conformance/ is what `referee suite` writes, and
/// reads back as written. (`referee suite -o conformance` writes them again after a rule change.)
#[test]
fn the_suite_in_the_repository_is_the_one_referee_suite_writes() {
    for kind in GameKind::ALL {
        let about = kind.about();
        let path = root().join("conformance").join(format!("{}.suite", about.name));
        let kept = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let entries = suite_of(Registry, about).expect("a suite");
        assert_eq!(kept, write_suite(about, &entries), "{}: run `referee suite -o conformance`", path.display());
        assert_eq!(read_suite(&kept).expect("reads back"), entries);
        // Starts, random games to their end, and the rules' edge cases named after their anchors.
        assert!(entries.iter().any(|e| e.result.is_some()), "{}: no finished game", about.name);
        assert!(entries.iter().any(|e| e.id.contains("-start-")), "{}: no start", about.name);
        let anchored = entries.iter().filter(|e| e.id.starts_with(&format!("{}-", about.name))).count();
        assert!(anchored > 0, "{}: no named position", about.name);
    }
}

/// The reference engine passes every entry of every game (the suites of conformance/, which the
/// first test checks are `referee suite`'s).
#[test]
fn referee_engine_passes_every_entry_of_every_game() {
    let engine = format!("{REFEREE} engine");
    let out = referee(&["conformance", "--engine", &engine, "--suite", "conformance"]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    let last = text.lines().last().unwrap_or_default();
    assert!(last.starts_with("all games: ") && last.ends_with(" passed"), "{text}");
    for kind in GameKind::ALL {
        assert!(text.contains(&format!("\n{}: ", kind.about().name)), "{text}");
    }
}

/// The example engine in Python, written from docs/protocol.md and the rules page alone, passes
/// Vadrantir's suite.
#[test]
fn the_python_example_engine_passes_the_vadrantir_suite() {
    let engine = format!("python3 {}", root().join("examples/vadrantir_engine.py").display());
    let out = referee(&[
        "conformance",
        "--engine",
        &engine,
        "--game",
        "vadrantir",
        "--format",
        "json",
        "--suite",
        "conformance",
    ]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    let entries: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    assert!(entries.len() > 10);
    assert!(entries.iter().all(|e| e["status"] == "passed" && e["game"] == "vadrantir"), "{text}");
}

/// Per game, an engine that never generates the moves of one rule (a Quarod board swap, a
/// Petrify capture, the Vadrantir pie swap, a Splinter Quad group choice, a Quadraphages or
/// Hexaphages announcement of 1): `conformance` names the first position where its moves differ
/// from referee's, with the moves only referee has, which are exactly the dropped ones.
#[test]
fn an_engine_with_one_rule_broken_is_caught_at_the_first_differing_position() {
    let broken = [
        ("quarod", "x"),
        ("petrify", "x"),
        ("vadrantir", "^swap$"),
        ("splinter", "/"),
        ("quadraphages", "^1$"),
        ("hexaphages", "^1$"),
    ];
    for (game, dropped) in broken {
        let engine = python("broken.py", &format!("'{dropped}' -- {REFEREE} engine"));
        // One game descends from a count (depth 2, each count of the wrapper a Python recursion
        // through the protocol); the others compare the moves of each position (depth 1; below a
        // `----` the wrapper counts right at depth 1 only, see broken.py).
        let depth = if game == "quarod" { "2" } else { "1" };
        let args = [
            "conformance",
            "--engine",
            &engine,
            "--game",
            game,
            "--depth",
            depth,
            "--format",
            "json",
            "--suite",
            "conformance",
        ];
        let out = referee(&args);
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(1), "{game}: {text}");
        let differs: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
            .filter(|e| e["status"] == "differs")
            .collect();
        assert!(!differs.is_empty(), "{game}: {text}");
        let pattern = regex_lite(dropped);
        for d in &differs {
            let only: Vec<&str> =
                d["only_referee"].as_array().expect("a list").iter().filter_map(|m| m.as_str()).collect();
            assert!(!only.is_empty() && only.iter().all(|m| pattern(m)), "{game}: {d}");
            assert_eq!(d["only_engine"].as_array().map(Vec::len), Some(0), "{game}: {d}");
            // The position named is one referee reads, and has those moves.
            let code = d["code"].as_str().expect("a code");
            let listed = stdout(&referee(&["moves", code]));
            assert!(only.iter().all(|m| listed.lines().any(|l| l == *m)), "{game}: {code}: {listed}");
        }
    }
}

/// The few patterns of the test above, matched without a regex crate.
fn regex_lite(pattern: &str) -> impl Fn(&str) -> bool + '_ {
    move |m: &str| match pattern.strip_prefix('^').and_then(|p| p.strip_suffix('$')) {
        Some(whole) => m == whole,
        None => m.contains(pattern),
    }
}

/// Quarod's suite run on `engine`, each answer awaited half a second.
fn quarod_suite_on(engine: &str) -> Output {
    referee(&["conformance", "--engine", engine, "--game", "quarod", "--timeout", "0.5", "--suite", "conformance"])
}

/// Engines that crash, answer nonsense, take too long or list a move of no game: each entry says
/// so (crash: how it ended and its last words on standard error), the run does not hang, and
/// after three failures in a row it stops.
#[test]
fn engines_that_fail_are_reported_and_never_hung_on() {
    let cases = [
        ("crash", "the engine ended (exit status 3) before it answered `moves`; the last lines of its standard error: misbehaving: a deliberate crash"),
        ("garbage", "the engine answered `moves` with `hello, I am not an answer`, which is not `moves …`"),
        ("slow", "the engine did not answer `moves` within 500 ms"),
    ];
    for (mode, said) in cases {
        let started = std::time::Instant::now();
        let out = quarod_suite_on(&python("misbehaving.py", mode));
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(1), "{mode}: {text}");
        assert!(text.contains(&format!("FAILED  quarod quarod-start-8x8: {said}\n")), "{mode}: {text}");
        assert!(text.contains("stopped: the engine failed 3 positions in a row"), "{mode}: {text}");
        assert!(started.elapsed().as_secs() < 30, "{mode}");
    }
    let out = quarod_suite_on(&python("misbehaving.py", "illegal"));
    assert!(stdout(&out).contains("moves only the engine has: a1a1"), "{}", stdout(&out));
    // An engine that does not start is a usage error, said on standard error.
    let out = referee(&["conformance", "--engine", "/no/such/engine"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/engine: the engine could not be started"));
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary folder")
}

/// The stronger player against the random one, in every game on small boards with every player
/// count: every game written as a record in its notation, valid with its claim confirmed, and
/// the stronger player ahead in the crosstable, each playing each seat once. (The README gives a
/// match of 100 games a game.)
#[test]
fn a_match_of_the_search_player_against_the_random_one_writes_records_that_verify() {
    // A fixed depth: the same games whatever the machine's speed.
    let search = format!("{REFEREE} engine --player search --depth 2 --seed 3");
    let random = format!("{REFEREE} engine --seed 5");
    let matches: [(&str, &[&str]); 6] = [
        ("quarod", &["--size", "3,4"]),
        ("petrify", &["--size", "6"]),
        ("vadrantir", &["--size", "5"]),
        ("splinter", &["--players", "2,3"]),
        ("quadraphages", &[]),
        ("hexaphages", &["--size", "4"]),
    ];
    for (game, options) in matches {
        let dir = tempdir();
        let out_dir = dir.path().join("m");
        let mut args =
            vec!["match", "--engine", &search, "--engine", &random, "--game", game, "--games", "2", "-j", "2"];
        args.extend_from_slice(options);
        let out_arg = out_dir.display().to_string();
        // A generous margin: a debug build's search of depth 2 must not lose on time.
        args.extend(["-o", &out_arg, "--movetime", "30", "--margin", "20000"]);
        let out = referee(&args);
        let table = stdout(&out);
        assert!(out.status.success(), "{game}: {table}{}", String::from_utf8_lossy(&out.stderr));
        let first = table.lines().nth(2).unwrap_or_default();
        assert!(first.contains("--player search"), "{game}: the search player leads\n{table}");
        assert_eq!(std::fs::read_to_string(out_dir.join("crosstable")).expect("the crosstable"), table);
        let verified = referee(&["verify", "--format", "json", &out_arg]);
        let text = stdout(&verified);
        assert!(verified.status.success(), "{game}: {text}");
        for line in text.lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("JSON");
            assert_eq!(v["status"], "valid", "{game}: {line}");
            // Every game ends in a claim that verify confirms, but a tie in the published
            // notation, which has no way to claim one.
            let claims = v["claims"].as_array().expect("claims");
            assert!(claims.iter().all(|c| c["status"] == "confirmed"), "{game}: {line}");
            assert!(claims.len() == 1 || game.ends_with("phages"), "{game}: {line}");
        }
        let record = std::fs::read_to_string(out_dir.join(format!("{game}-001.txt"))).expect("game 1");
        assert!(record.contains("referee match") && record.contains("movetime 30 ms"), "{record}");
        assert!(record.contains("--player search"), "{record}");
    }
}

/// Engines that crash, play an illegal move, take too long or answer garbage lose each game by
/// forfeit with the reason in its record, and the match goes on to its end.
#[test]
fn engines_that_fail_in_a_match_forfeit_with_the_reason_in_the_record() {
    let good = format!("{REFEREE} engine --seed 2");
    let cases = [
        ("crash", "ended (exit status 3)"),
        ("illegal", "played a1a1, which is illegal: a1a1 is not a legal move here"),
        ("slow", "did not answer `go movetime 50` within 250 ms"),
        ("garbage", "answered `go movetime 50` with `hello, I am not an answer`, which is not `bestmove MOVE`"),
    ];
    for (mode, reason) in cases {
        let dir = tempdir();
        let out_dir = dir.path().join("m");
        let out_arg = out_dir.display().to_string();
        let bad = python("misbehaving.py", mode);
        let args = [
            "match",
            "--engine",
            &good,
            "--engine",
            &bad,
            "--game",
            "quarod",
            "--size",
            "4",
            "--games",
            "2",
            "--movetime",
            "50",
            "--margin",
            "200",
            "-o",
            &out_arg,
        ];
        let out = referee(&args);
        let table = stdout(&out);
        assert!(out.status.success(), "{mode}: {table}{}", String::from_utf8_lossy(&out.stderr));
        assert!(table.lines().nth(2).unwrap_or_default().contains(&good), "{mode}: {table}");
        for k in 1..=2 {
            let record = std::fs::read_to_string(out_dir.join(format!("quarod-00{k}.txt"))).expect("a record");
            assert!(record.contains("[Termination \"forfeit: ") && record.contains(reason), "{mode}: {record}");
            // The moves before the forfeit stand: the record is valid, and claims nothing.
            let verified = referee(&[
                "verify",
                "--format",
                "short",
                &out_dir.join(format!("quarod-00{k}.txt")).display().to_string(),
            ]);
            assert!(verified.status.success(), "{mode}: {}", stdout(&verified));
        }
    }
}

/// The search player near the end: wherever a search of every continuation (within the player's
/// bound) finds that the player to move wins with best play, the move it chooses keeps the win,
/// in random Quarod and Petrify games on small boards.
#[test]
fn the_search_player_keeps_a_won_game_won() {
    use referee::game::Playable;
    use referee::protocol::player::{best_move, EXACT_POSITIONS};
    use referee::search::claims::Winner;
    use referee::search::{search, Limits, DEFAULT_SEARCH_BYTES};
    use std::time::{Duration, Instant};

    fn wins<G: Playable + referee::format::Recorded>(start: G, seeds: std::ops::Range<u64>) -> usize {
        let limits = || Limits::new(EXACT_POSITIONS, DEFAULT_SEARCH_BYTES);
        let mut checked = 0;
        for seed in seeds {
            let mut position = start.clone();
            let mut rng = fastrand::Rng::with_seed(seed);
            for m in referee::random::random_game(&start, seed, 1000) {
                let mover = position.to_move() as u8;
                let best = search(&position, &Winner::of(&position), limits()).ok().and_then(|f| f.best);
                if best == Some(Some(mover)) {
                    let deadline = Instant::now() + Duration::from_millis(20);
                    let chosen = best_move(&position, deadline, 4, &mut rng).expect("a move");
                    let mut after = position.clone();
                    after.play_unchecked(chosen);
                    let kept = match after.outcome() {
                        Some(o) => o.winner == Some(usize::from(mover)),
                        None => {
                            search(&after, &Winner::of(&after), limits()).ok().and_then(|f| f.best) == Some(Some(mover))
                        }
                    };
                    assert!(kept, "{}: {:?} gives the win away", position.code(), chosen);
                    checked += 1;
                }
                position.play_unchecked(m);
            }
        }
        checked
    }
    let quarod = wins(referee::games::quarod::Quarod::start(Some(3), None).expect("3x3"), 0..20);
    let petrify = wins(referee::games::petrify::Petrify::start(Some(6), None).expect("6x6"), 0..3);
    assert!(quarod > 20 && petrify > 5, "{quarod} {petrify}");
}
