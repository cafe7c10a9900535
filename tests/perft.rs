//! Perft: the counts of every perft file, which stands in its game's folder (`src/games/*/*.perft`:
//! a new game's file is read with the others), the moves they count, and the `referee perft` and `referee moves` commands.
//!
//! A count costs about one move generation per position one move above its leaves, so the quick
//! test checks the counts whose depth above has at most [`QUICK`] positions; the others are
//! checked by the ignored test (`cargo test --test perft -- --ignored`).

mod support;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use referee::game::Engine;
use referee::perft::{divide, moves_written, perft, with_position, WithPosition};
use referee::GameKind;
use support::run;

/// The most positions one depth above a count's leaves for the quick test to check it: the whole
/// test stays within a few seconds of a debug build.
const QUICK: u64 = 20_000;

/// A position of a perft file and its counts.
struct Entry {
    /// `file:line` of its `id`, for the messages.
    at: String,
    code: String,
    /// Each count: its depth and number of leaves.
    counts: Vec<(u32, u64)>,
}

/// Every perft file: each game's counts stand in its own folder, `src/games/<folder>/<name>.perft`.
fn files() -> Vec<PathBuf> {
    let entries = |dir: &Path| std::fs::read_dir(dir).expect("a folder").map(|e| e.expect("entry").path());
    let mut files: Vec<PathBuf> = entries(Path::new("src/games"))
        .filter(|p| p.is_dir())
        .flat_map(|folder| entries(&folder).collect::<Vec<_>>())
        .filter(|p| p.extension().is_some_and(|x| x == "perft"))
        .collect();
    files.sort();
    files
}

/// Reads a perft file strictly: a line it does not know is a fault of the file, not skipped.
fn read(path: &Path) -> Vec<Entry> {
    let text = std::fs::read_to_string(path).expect("readable");
    let name = path.display();
    let mut entries: Vec<Entry> = Vec::new();
    let mut ids = HashSet::new();
    for (i, line) in text.lines().enumerate() {
        let at = format!("{name}:{}", i + 1);
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or_else(|| panic!("{at}: `{line}` has no value"));
        match key {
            "id" => {
                assert!(ids.insert(value.to_string()), "{at}: id {value} is given twice");
                entries.push(Entry { at, code: String::new(), counts: Vec::new() });
            }
            "code" | "perft" => {
                let entry = entries.last_mut().unwrap_or_else(|| panic!("{at}: `{key}` before any `id`"));
                if key == "code" {
                    assert!(entry.code.is_empty(), "{at}: a second code for {}", entry.at);
                    entry.code = value.to_string();
                    continue;
                }
                assert!(!entry.code.is_empty(), "{at}: a count before the code");
                let (depth, count) = value.split_once(' ').unwrap_or_else(|| panic!("{at}: perft DEPTH COUNT"));
                let depth: u32 = depth.parse().unwrap_or_else(|e| panic!("{at}: depth {depth}: {e}"));
                let count: u64 = count.parse().unwrap_or_else(|e| panic!("{at}: count {count}: {e}"));
                let want = entry.counts.last().map_or(1, |&(d, _)| d + 1);
                assert_eq!(depth, want, "{at}: the depths of a position go 1, 2, 3, ...");
                entry.counts.push((depth, count));
            }
            _ => panic!("{at}: `{key}` is not a line of a perft file (id, code, perft)"),
        }
    }
    for e in &entries {
        assert!(!e.code.is_empty() && !e.counts.is_empty(), "{}: a position needs a code and a count", e.at);
    }
    entries
}

/// Checks the counts of `entry` whose depth above has at most `most` positions (all of them with
/// `u64::MAX`), and that its code reads back as written: what is wrong, one line each.
fn check(entry: &Entry, most: u64) -> Vec<String> {
    struct Counts<'e>(&'e Entry, u64);
    impl WithPosition for Counts<'_> {
        type Output = Vec<String>;
        fn run<G: Engine>(self, position: G) -> Vec<String> {
            let Counts(entry, most) = self;
            let mut wrong = Vec::new();
            if position.code() != entry.code {
                wrong.push(format!("{}: the code reads back as {}", entry.at, position.code()));
            }
            let mut above = 1;
            for &(depth, want) in &entry.counts {
                if above > most {
                    break;
                }
                let got = perft(&position, depth);
                if got != want {
                    wrong.push(format!("{}: perft {depth} is {got}, not {want}", entry.at));
                }
                above = want;
            }
            wrong
        }
    }
    with_position(&entry.code, Counts(entry, most)).unwrap_or_else(|e| vec![format!("{}: {e}", entry.at)])
}

fn check_all(most: u64) {
    let wrong: Vec<String> = files().iter().flat_map(|f| read(f)).flat_map(|e| check(&e, most)).collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_count_of_every_perft_file_whose_depth_above_is_small() {
    check_all(QUICK);
}

#[test]
#[ignore = "the deep counts add some 6 s of a debug build: cargo test --test perft -- --ignored"]
fn every_count_of_every_perft_file() {
    check_all(u64::MAX);
}

#[test]
fn every_game_has_a_perft_file_with_a_start_and_a_position_of_a_game() {
    for game in GameKind::ALL {
        let file = format!("{}.perft", game.name());
        let path = files().into_iter().find(|p| p.ends_with(&file));
        let path = path.unwrap_or_else(|| panic!("{} has no perft file (src/games/*/{file})", game.name()));
        let entries = read(&path);
        assert!(entries.len() >= 3, "{}: a start and positions from games", path.display());
        for e in entries {
            assert_eq!(referee::games::game_of(&e.code), Ok(game), "{}: a code of another game", e.at);
        }
    }
}

/// What perft counts, one move down from every position of the files: each move passes
/// [`Game::check`] and is one of [`Game::legal_moves`]; each position it leads to has a code
/// that reads back; and each name of a move that [`Game::distinct_moves`] leaves out (a Splinter
/// Quad choice of group by another square) leads to a position that a counted move leads to.
#[test]
fn the_moves_counted_are_legal_and_every_other_name_is_one_of_them() {
    struct Moves;
    impl WithPosition for Moves {
        type Output = Vec<String>;
        fn run<G: Engine>(self, position: G) -> Vec<String> {
            let mut wrong = Vec::new();
            let after = |m: G::Move| {
                let mut next = position.clone();
                next.play_unchecked(m);
                next.code()
            };
            let legal = position.legal_moves();
            let counted = position.distinct_moves();
            let mut reached = HashSet::new();
            for &m in &counted {
                let written = position.write_move(m);
                if let Err(why) = position.check(m) {
                    wrong.push(format!("{written} is counted, but check says: {why}"));
                }
                if !legal.contains(&m) {
                    wrong.push(format!("{written} is counted, but not a legal move"));
                }
                let code = after(m);
                match G::from_code(&code) {
                    Ok(read) if read.code() == code => {}
                    _ => wrong.push(format!("after {written}, the code {code} does not read back")),
                }
                reached.insert(code);
            }
            for &m in legal.iter().filter(|m| !counted.contains(m)) {
                if !reached.contains(&after(m)) {
                    wrong
                        .push(format!("{} is left out, but no counted move does what it does", position.write_move(m)));
                }
            }
            wrong.into_iter().map(|w| format!("{}: {w}", position.code())).collect()
        }
    }
    let mut wrong = Vec::new();
    let mut named_twice = 0;
    for entry in files().iter().flat_map(|f| read(f)) {
        wrong.extend(with_position(&entry.code, Moves).expect("the codes read"));
        // And the positions one move down where some move has several names (Splinter Quad ties,
        // which few positions have): checking every position one move down takes seconds.
        struct Children;
        impl WithPosition for Children {
            type Output = (Vec<String>, usize);
            fn run<G: referee::format::Recorded>(self, position: G) -> (Vec<String>, usize) {
                let mut wrong = Vec::new();
                let mut named_twice = 0;
                for m in position.distinct_moves() {
                    let mut next = position.clone();
                    next.play_unchecked(m);
                    let twice = next.legal_moves().len() - next.distinct_moves().len();
                    if twice > 0 {
                        named_twice += twice;
                        wrong.extend(Moves.run(next));
                    }
                }
                (wrong, named_twice)
            }
        }
        let (w, n) = with_position(&entry.code, Children).expect("the codes read");
        wrong.extend(w);
        named_twice += n;
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(named_twice > 0, "some position here has a move named twice, so that the check above checks something");
}

/// `divide` splits `perft` by first move, and `moves_written` lists those moves, in every game.
#[test]
fn divide_adds_up_to_perft_and_lists_the_moves_written() {
    struct Split;
    impl WithPosition for Split {
        type Output = ();
        fn run<G: Engine>(self, position: G) {
            let divided = divide(&position, 2);
            assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), perft(&position, 2), "{}", position.code());
            let moves: Vec<String> = divided.into_iter().map(|(m, _)| m).collect();
            assert_eq!(moves, moves_written(&position), "{}", position.code());
        }
    }
    for entry in files().iter().flat_map(|f| read(f)) {
        with_position(&entry.code, Split).expect("the codes read");
    }
}

const TINY: &str = "quarod_2/2_b_0_0_-_-";

#[test]
fn perft_prints_the_count() {
    assert_eq!(run(&["perft", TINY, "2"]), (0, "24\n".to_string(), String::new()));
    assert_eq!(run(&["perft", TINY, "0"]).1, "1\n");
}

#[test]
fn perft_divide_prints_each_move_its_count_and_the_total() {
    let (code, out, err) = run(&["perft", "--divide", TINY, "2"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let want = "a1b1: 3\na1a2: 3\nb1b2: 3\nb1a1: 3\na2a1: 3\na2b2: 3\nb2b1: 3\nb2a2: 3\n\nNodes searched: 24\n";
    assert_eq!(out, want);
    assert_eq!(run(&["perft", "--divide", TINY, "0"]).1, "\nNodes searched: 1\n");
}

#[test]
fn moves_prints_the_moves_as_written() {
    let (code, out, err) = run(&["moves", TINY]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(out, "a1b1\na1a2\nb1b2\nb1a1\na2a1\na2b2\nb2b1\nb2a2\n");
}

#[test]
fn a_finished_game_has_no_moves_and_standard_error_says_why() {
    let over = "quarod_2/2_b_4_2_-_-";
    let (code, out, err) = run(&["moves", over]);
    assert_eq!((code, out.as_str()), (0, ""));
    assert_eq!(err, "referee: the game is over in this position: it has no moves\n");
    let (code, out, err) = run(&["perft", over, "3"]);
    assert_eq!((code, out.as_str()), (0, "0\n"));
    assert!(err.contains("the game is over"), "{err}");
}

#[test]
fn a_bad_code_or_depth_is_a_usage_error() {
    let (code, out, err) = run(&["perft", "quarod_4/4/2NNN/4_b_0_0_-_-", "1"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "referee: not a position code: row 3 has 4 cells, and `N` is one more (at character 15 of the code)\n"
    );
    let (code, _, err) = run(&["moves", "chess_8/8/8/8/8/8/8/8"]);
    assert_eq!(code, 2);
    assert!(err.contains("a position code starts with its game's name"), "{err}");
    let (code, _, err) = run(&["perft", TINY, "21"]);
    assert_eq!(code, 2);
    assert!(err.contains("21 is not in 0..=20"), "{err}");
    assert_eq!(run(&["perft", TINY, "-1"]).0, 2);
    assert_eq!(run(&["perft", TINY]).0, 2);
}
