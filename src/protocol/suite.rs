//! The conformance suite: per game, named positions with their legal moves and perft counts, for
//! an engine written elsewhere to be checked against (`referee suite` writes it, `referee
//! conformance` runs it). The format is that of a perft file (shakmaty's, with `code` in place of
//! chess's `epd`) with three more lines: `start`, the position as a start and moves for engines
//! that read no codes; `moves`, its legal moves; `result`, a finished game's result.
//!
//! A game's suite is made from what its folder declares and from play, the same every time: its
//! named positions ([`crate::game::Playable::POSITIONS`]: its rules' edge cases named after their
//! anchors), the start of every board size and player count it allows, and positions of random
//! games at a third and two thirds of the way, one move before the end and at the end.

use crate::game::About;
use crate::judge::Games;

use super::{held_from_code, held_start, Held};

/// The most leaves a count of the suite has: the deepest depth of each position whose count is
/// within it is the last one written (depth 1 at least), so that the whole suite runs in well
/// under a minute on referee, through the protocol.
pub const MOST_LEAVES: u64 = 20_000;

/// The seeds of the random games each size and player count gives positions of.
const SEEDS: [u64; 2] = [1, 2];

/// A position of the suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its name, unique in the suite: a rule's anchor (`quarod-board-swap`) or what it is
    /// (`quarod-start-size4`, `quarod-random-size8-seed1-ply20`).
    pub id: String,
    /// The position's code.
    pub code: String,
    /// The position as `position start` takes it: `GAME size N [players N] [moves M…]`, when it is
    /// reached from a start.
    pub start: Option<String>,
    /// Its legal moves as written, each once, in referee's order.
    pub moves: Vec<String>,
    /// Perft counts: a depth and the leaves that many moves below.
    pub counts: Vec<(u32, u64)>,
    /// The game's result once it is over (`1-0`); `None` while it goes on.
    pub result: Option<String>,
}

/// One line of a suite that is not one: its line (1-based) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteError {
    /// The line, 1-based.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl std::fmt::Display for SuiteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// The suite of `game`, one of `games`.
pub fn suite_of<S: Games>(games: S, game: &'static About) -> Result<Vec<Entry>, String> {
    let mut entries: Vec<Entry> = Vec::new();
    let mut add = |entry: Entry| {
        // A position given twice (a named start) is counted once, under its first name.
        if !entries.iter().any(|e| e.code == entry.code) {
            entries.push(entry);
        }
    };
    struct Named;
    impl crate::format::WithGame for Named {
        type Output = &'static str;
        fn run<G: crate::format::Recorded>(self, about: &'static About) -> &'static str {
            G::positions(about)
        }
    }
    let positions = games.with_named(game.name, Named).unwrap_or_default();
    for named in read_suite(positions).map_err(|e| format!("{}.perft, {e}", game.name))? {
        let held = held_from_code(games, &named.code).map_err(|e| format!("{}: {e}", named.id))?;
        add(entry(named.id, held.as_ref(), None));
    }
    let several = game.players.0 != game.players.1;
    for players in game.players.0..=game.players.1 {
        let counted = |size: u8| {
            let mut name = format!("{}-start-size{size}", game.name);
            let mut start = format!("{} size {size}", game.name);
            if several {
                name += &format!("-players{players}");
                start += &format!(" players {players}");
            }
            (name, start)
        };
        let mut sizes = Vec::new();
        for size in game.sizes.iter() {
            // A board the game has no start on (too small for its default start) is left out.
            let Ok(held) = held_start(games, game.name, Some(size), several.then_some(players)) else { continue };
            if held.moves().is_empty() {
                continue;
            }
            sizes.push(size);
            let (name, start) = counted(size);
            add(entry(name, held.as_ref(), Some(start)));
        }
        // Random games on the smallest board and the middle one.
        let middle = sizes.iter().copied().find(|&s| s >= game.sizes.middle());
        let mut boards: Vec<u8> = sizes.first().copied().into_iter().chain(middle).collect();
        boards.dedup();
        for size in boards {
            for seed in SEEDS {
                let (name, start) = counted(size);
                let name = name.replacen("-start-", "-random-", 1);
                let fresh = || held_start(games, game.name, Some(size), several.then_some(players));
                let played = random_moves(fresh()?, seed)?;
                let mut held = fresh()?;
                let n = played.len();
                let mut plies = vec![n / 3, 2 * n / 3, n.saturating_sub(1), n];
                plies.dedup();
                let mut at = 0;
                for ply in plies {
                    for m in &played[at..ply] {
                        held.play(m)?;
                    }
                    at = ply;
                    let start = format!("{start} moves {}", played[..ply].join(" "));
                    add(entry(format!("{name}-seed{seed}-ply{ply}"), held.as_ref(), Some(start.trim_end().into())));
                }
            }
        }
    }
    Ok(entries)
}

/// The moves of the random game of `seed` played on `position`, as written.
fn random_moves(mut position: Box<dyn Held>, seed: u64) -> Result<Vec<String>, String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut played = Vec::new();
    // Every game ends; the bound only keeps a faulty engine from running forever.
    while played.len() < 100_000 {
        let moves = position.moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.usize(..moves.len())].clone();
        position.play(&m)?;
        played.push(m);
    }
    Ok(played)
}

/// The entry `id` of `held`: its moves, and its counts up to [`MOST_LEAVES`].
fn entry(id: String, held: &dyn Held, start: Option<String>) -> Entry {
    let mut counts = vec![(1, held.perft(1))];
    // A count costs about one move generation per leaf of the count before it.
    while let Some(&(depth, leaves)) = counts.last() {
        if leaves == 0 || leaves > MOST_LEAVES || depth >= super::MAX_DEPTH {
            break;
        }
        let next = held.perft(depth + 1);
        if next > MOST_LEAVES {
            break;
        }
        counts.push((depth + 1, next));
    }
    let result = held.result();
    Entry { id, code: held.code(), start, moves: held.moves(), counts, result: (result != "*").then_some(result) }
}

/// The suite's text: a header saying what it is and how it was made, then each entry.
pub fn write_suite(game: &About, entries: &[Entry]) -> String {
    let mut out = format!(
        "# The conformance suite of {title}, written by `referee suite --game {name}`: {n} positions.\n\
         # Run it against an engine with `referee conformance --engine CMD --game {name}`\n\
         # (docs/protocol.md). Each entry, a blank line between two:\n\
         #   id NAME          the position's name: a rule's anchor in docs/rules/{name}.md\n\
         #                    (and a detail), or what it is (a start, a random game's ply)\n\
         #   code CODE        the position, as a position code (`position code CODE`)\n\
         #   start ...        the same position as `position start ...` takes it, when it is\n\
         #                    reached from a start: for engines that read no codes\n\
         #   moves M1 M2 ...  its legal moves, each once (`moves` alone: the game is over)\n\
         #   perft DEPTH N    N leaves DEPTH moves below it, up to the deepest depth whose count\n\
         #                    is at most {most}\n\
         #   result R         the game's result, once it is over\n",
        title = game.title,
        name = game.name,
        n = entries.len(),
        most = MOST_LEAVES,
    );
    for e in entries {
        out.push('\n');
        out += &format!("id {}\ncode {}\n", e.id, e.code);
        if let Some(start) = &e.start {
            out += &format!("start {start}\n");
        }
        out += &std::iter::once("moves").chain(e.moves.iter().map(String::as_str)).collect::<Vec<_>>().join(" ");
        out.push('\n');
        for (depth, leaves) in &e.counts {
            out += &format!("perft {depth} {leaves}\n");
        }
        if let Some(result) = &e.result {
            out += &format!("result {result}\n");
        }
    }
    out
}

/// Reads a suite (or a perft file): `#` comments and blank lines aside, each line a key and its
/// value, an entry from each `id`. A line it does not know is an error, not skipped.
pub fn read_suite(text: &str) -> Result<Vec<Entry>, SuiteError> {
    let mut entries: Vec<Entry> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let fault = |message: String| SuiteError { line: i + 1, message };
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        let value = value.trim();
        if key == "id" {
            if value.is_empty() {
                return Err(fault("an id names its position".into()));
            }
            if entries.iter().any(|e| e.id == value) {
                return Err(fault(format!("the id {value} is given twice")));
            }
            entries.push(Entry {
                id: value.to_string(),
                code: String::new(),
                start: None,
                moves: Vec::new(),
                counts: Vec::new(),
                result: None,
            });
            continue;
        }
        let Some(e) = entries.last_mut() else { return Err(fault(format!("`{key}` before the first id"))) };
        match key {
            "code" if !value.is_empty() => e.code = value.to_string(),
            "start" if !value.is_empty() => e.start = Some(value.to_string()),
            "moves" => e.moves = value.split_whitespace().map(str::to_string).collect(),
            "result" if !value.is_empty() => e.result = Some(value.to_string()),
            "perft" => {
                let count = value
                    .split_once(' ')
                    .and_then(|(d, n)| Some((d.trim().parse::<u32>().ok()?, n.trim().parse::<u64>().ok()?)));
                match count {
                    Some(count) => e.counts.push(count),
                    None => return Err(fault(format!("`perft {value}` is not a depth and a count"))),
                }
            }
            _ => {
                return Err(fault(format!("`{line}` is not a line of a suite (id, code, start, moves, perft, result)")))
            }
        }
    }
    if let Some(e) = entries.iter().find(|e| e.code.is_empty()) {
        return Err(SuiteError { line: 0, message: format!("{} has no code", e.id) });
    }
    Ok(entries)
}
