//! The referee game protocol (docs/protocol.md), engine side: a session that reads one command a
//! line and answers as an engine does, for any game of a run (`referee engine`). Commands:
//! `rgp`, `isready`, `position start GAME [size N] [players N] [moves M…]`, `position code CODE
//! [moves M…]`, `moves`, `perft N`, `divide N`, `go [movetime MS]`, `result`, `quit`; anything else is
//! answered `error …`, never with silence.
//!
//! A position is held whatever its game: [`Held`] is the engine's position behind one interface,
//! made from the position code of the start the game's registry gives ([`crate::random::new_record_in`],
//! [`crate::perft::with_position_in`]), so that every game, one defined outside the crate too,
//! speaks the protocol with no code of its own.

pub mod client;
pub mod conformance;
pub mod matches;
pub mod player;
pub mod suite;

use std::io::{BufRead, Read, Write};

use crate::format::Recorded;
use crate::judge::Games;
use crate::perft::{divide, perft, with_position_in, WithPosition};

/// The deepest `perft` or `divide` the session counts: as `referee perft`.
pub const MAX_DEPTH: u32 = 20;

/// A position of any game, as the protocol needs it.
pub trait Held: Send {
    /// The legal moves as the notation writes them, each once, in the engine's order.
    fn moves(&self) -> Vec<String>;
    /// Plays the legal move written `written`; `Err` says why it is none.
    fn play(&mut self, written: &str) -> Result<(), String>;
    /// The leaves of the move tree `depth` moves below.
    fn perft(&self, depth: u32) -> u64;
    /// Each move as written with the leaves `depth - 1` below it.
    fn divide(&self, depth: u32) -> Vec<(String, u64)>;
    /// The position's code.
    fn code(&self) -> String;
    /// The game's result as a record's result token writes it once the game is over (`1-0`,
    /// `0-1`, `0-0-1`, all zeros when nobody won), `*` while it goes on.
    fn result(&self) -> String;
    /// How many players the game has.
    fn players(&self) -> usize;
    /// The players' names (colours) in turn order from the start, as records name them.
    fn names(&self) -> &'static [&'static str];
    /// Whose move it is: an index into the players, in turn order.
    fn mover(&self) -> usize;
    /// The stronger player's move ([`player::best_move`]), as written; `None` once the game is over.
    fn best_move(&self, deadline: std::time::Instant, depth: u32, rng: &mut fastrand::Rng) -> Option<String>;
    /// The result every continuation gives, as [`Held::result`] writes it, when a search of at most
    /// `positions` positions finds that they all give one ([`player::decided`]).
    fn decided(&self, positions: usize) -> Option<String>;
}

/// A result as a record's result token writes it: a `1` in the winner's place, `0` in the others.
pub fn result_token(players: usize, winner: Option<usize>) -> String {
    (0..players).map(|i| if winner == Some(i) { "1" } else { "0" }).collect::<Vec<_>>().join("-")
}

impl<G: Recorded> Held for G {
    fn moves(&self) -> Vec<String> {
        let moves = self.distinct_moves();
        if G::WRITES_APART {
            return moves.into_iter().map(|m| self.write_move(m)).collect();
        }
        // `----` for each stone that cannot move: written once.
        let mut written: Vec<String> = Vec::new();
        for m in moves {
            let w = self.write_move(m);
            if !written.contains(&w) {
                written.push(w);
            }
        }
        written
    }

    fn play(&mut self, written: &str) -> Result<(), String> {
        if self.is_over() {
            return Err(format!("{written}: the game is over"));
        }
        // Where no two moves are written alike, the word is read as a record's token is (its
        // syntax, then the board) rather than looked for among every legal move written out; it
        // must still be written as the engine writes it, as `moves` lists it.
        if G::WRITES_APART {
            if let Some(m) = G::parse_move(written).ok().and_then(|w| self.resolve(w).ok()) {
                if self.check(m).is_ok() && self.write_move(m) == written {
                    self.play_unchecked(m);
                    return Ok(());
                }
            }
        }
        // Elsewhere (`----` for any stone that cannot move), the first legal move written so.
        let m = self.distinct_moves().into_iter().find(|&m| self.write_move(m) == written);
        match m {
            Some(m) => {
                self.play_unchecked(m);
                Ok(())
            }
            None => Err(format!("{written} is not a legal move here")),
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        perft(self, depth)
    }

    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        divide(self, depth)
    }

    fn code(&self) -> String {
        crate::game::code::Coded::code(self)
    }

    fn result(&self) -> String {
        match G::ended(self) {
            None => "*".to_string(),
            Some(winner) => result_token(self.players(), winner),
        }
    }

    fn players(&self) -> usize {
        self.player_names().len()
    }

    fn names(&self) -> &'static [&'static str] {
        self.player_names()
    }

    fn mover(&self) -> usize {
        <G as crate::replay::Reader>::mover(self)
    }

    fn best_move(&self, deadline: std::time::Instant, depth: u32, rng: &mut fastrand::Rng) -> Option<String> {
        player::best_move(self, deadline, depth, rng).map(|m| self.write_move(m))
    }

    fn decided(&self, positions: usize) -> Option<String> {
        player::decided(self, positions).map(|winner| result_token(self.players(), winner))
    }
}

/// The position of `code`, of one of `games`, held; `Err` says where the code goes wrong.
pub fn held_from_code<S: Games>(games: S, code: &str) -> Result<Box<dyn Held>, String> {
    struct Hold;
    impl WithPosition for Hold {
        type Output = Box<dyn Held>;
        fn run<G: Recorded>(self, position: G) -> Box<dyn Held> {
            Box::new(position)
        }
    }
    with_position_in(games, code, Hold).map_err(|e| e.to_string())
}

/// The start of the game named `game` (a name `--game` takes), on a board of `size` for `players`
/// (the game's defaults if `None`), held.
pub fn held_start<S: Games>(
    games: S,
    game: &str,
    size: Option<u8>,
    players: Option<u8>,
) -> Result<Box<dyn Held>, String> {
    let about =
        games.abouts().into_iter().find(|a| a.is_named(game)).ok_or_else(|| format!("no game is named {game}"))?;
    let record = crate::random::new_record_in(games, about, size, players)?;
    let start = crate::moves::record_moves(&record, 1, crate::verify::VerifyOptions::default().with_games(games))
        .map_err(|(_, why)| why)?
        .start_code;
    held_from_code(games, &start)
}

/// One session of the protocol: the position set last, if any, and the random numbers of `go`.
pub struct Session<S> {
    games: S,
    position: Option<Box<dyn Held>>,
    seed: u64,
    player: Player,
    rng: fastrand::Rng,
}

/// How `go` picks its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A legal move at random.
    Random,
    /// The move of a search by the game's points, exact near the end ([`player::best_move`]):
    /// this many moves deep whatever the time it takes (the same moves every time), or, without
    /// one, as deep as a third of `go movetime` allows, up to [`player::SEARCH_DEPTH`].
    Search(Option<u32>),
}

/// The time `go` takes without `movetime`, and the part of a `movetime` the search player spends
/// (the rest is left for the driver's pipes and clock).
const DEFAULT_MOVETIME_MS: u64 = 300;

/// What a command asks of the loop after its answer.
#[derive(Debug, PartialEq, Eq)]
pub enum Then {
    /// Read the next command.
    Go,
    /// End the session (`quit`).
    Quit,
}

impl<S: Games> Session<S> {
    /// A session with no position yet; `seed` decides the moves `go` picks, at random or among the
    /// best the search finds.
    pub fn new(games: S, seed: u64, player: Player) -> Session<S> {
        Session { games, position: None, seed: seed.max(1), player, rng: fastrand::Rng::with_seed(seed) }
    }

    /// Answers one command line into `out` (nothing for `position` and `quit`, or an `error` line).
    pub fn command(&mut self, line: &str, out: &mut impl Write) -> std::io::Result<Then> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&name, args)) = words.split_first() else { return Ok(Then::Go) };
        // A command that takes no words is refused with some: a driver that sends them expects
        // something this engine does not do.
        let bare = |answer: Result<Vec<String>, String>| {
            if args.is_empty() {
                answer
            } else {
                Err(format!("{name} takes nothing after it, not {}", args.join(" ")))
            }
        };
        let answer = match name {
            "rgp" => bare(Ok(vec![
                "id name referee engine".to_string(),
                "id author the referee project".to_string(),
                "rgpok".to_string(),
            ])),
            "isready" => bare(Ok(vec!["readyok".to_string()])),
            "quit" if args.is_empty() => return Ok(Then::Quit),
            "quit" => bare(Ok(Vec::new())),
            "position" => self.set_position(args).map(|()| Vec::new()),
            "moves" => bare(
                self.held()
                    .map(|p| vec![std::iter::once("moves".to_string()).chain(p.moves()).collect::<Vec<_>>().join(" ")]),
            ),
            "perft" => depth(args).and_then(|n| Ok(vec![format!("perft {n} {}", self.held()?.perft(n))])),
            "divide" => depth(args).and_then(|n| {
                let p = self.held()?;
                let split = p.divide(n);
                // At depth 0 no move is listed and the position is the one leaf, as perft 0 counts.
                let total: u64 = if n == 0 { 1 } else { split.iter().map(|(_, c)| c).sum() };
                Ok(split
                    .into_iter()
                    .map(|(m, c)| format!("divide {m} {c}"))
                    .chain([format!("divideok {n} {total}")])
                    .collect())
            }),
            "go" => go_options(args).and_then(|ms| self.go(ms)).map(|m| vec![format!("bestmove {m}")]),
            "result" => bare(self.held().map(|p| vec![format!("result {}", p.result())])),
            other => Err(format!("unknown command {other}")),
        };
        match answer {
            Ok(lines) => lines.iter().try_for_each(|l| writeln!(out, "{l}"))?,
            Err(why) => writeln!(out, "error {why}")?,
        }
        out.flush()?;
        Ok(Then::Go)
    }

    fn held(&self) -> Result<&dyn Held, String> {
        self.position.as_deref().ok_or_else(|| "no position yet: send position first".to_string())
    }

    /// `position start GAME [size N] [players N] [moves …]` or `position code CODE [moves …]`: the
    /// position is set only if every move is legal.
    fn set_position(&mut self, args: &[&str]) -> Result<(), String> {
        let (head, moves) = match args.iter().position(|&a| a == "moves") {
            Some(k) => (&args[..k], &args[k + 1..]),
            None => (args, &[][..]),
        };
        let mut held = match head {
            ["code", code] => held_from_code(self.games, code)?,
            ["start", game, rest @ ..] => {
                let (mut size, mut players) = (None, None);
                for pair in rest.chunks(2) {
                    let number = |v: Option<&&str>| {
                        v.and_then(|v| v.parse::<u8>().ok()).ok_or_else(|| format!("{} takes a number", pair[0]))
                    };
                    match pair[0] {
                        "size" => size = Some(number(pair.get(1))?),
                        "players" => players = Some(number(pair.get(1))?),
                        other => return Err(format!("position start takes size and players, not {other}")),
                    }
                }
                held_start(self.games, game, size, players)?
            }
            _ => {
                return Err(
                    "expected position start GAME [size N] [players N] [moves …] or position code CODE [moves …]"
                        .into(),
                )
            }
        };
        for (k, m) in moves.iter().enumerate() {
            held.play(m).map_err(|why| format!("move {} of the position: {why}", k + 1))?;
        }
        self.position = Some(held);
        Ok(())
    }

    /// A legal move picked at random (the random player), or why there is none.
    fn go(&mut self, movetime: Option<u64>) -> Result<String, String> {
        let moves = self.held()?.moves();
        if moves.is_empty() {
            return Err("the game is over: no move".into());
        }
        if let Player::Search(depth) = self.player {
            let now = std::time::Instant::now();
            let (deadline, depth) = match depth {
                Some(depth) => (now + std::time::Duration::from_secs(24 * 3600), depth),
                None => {
                    let ms = movetime.unwrap_or(DEFAULT_MOVETIME_MS) / 3;
                    (now + std::time::Duration::from_millis(ms.max(1)), player::SEARCH_DEPTH)
                }
            };
            let position = self.position.as_deref().expect("held");
            return position
                .best_move(deadline, depth, &mut self.rng)
                .ok_or_else(|| "the game is over: no move".into());
        }
        // xorshift: the same seed picks the same moves.
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 7;
        self.seed ^= self.seed << 17;
        Ok(moves[(self.seed % moves.len() as u64) as usize].clone())
    }
}

/// The options of `go`: none, or `movetime MS` (a number of milliseconds, which the search player
/// spends a third of; the random player takes no time whatever it says).
fn go_options(args: &[&str]) -> Result<Option<u64>, String> {
    match args {
        [] => Ok(None),
        ["movetime", ms] if ms.parse::<u64>().is_ok() => Ok(ms.parse().ok()),
        ["movetime", ms] => Err(format!("movetime takes a number of milliseconds, not {ms}")),
        _ => Err(format!("go takes movetime MS, not {}", args.join(" "))),
    }
}

/// The depth a `perft` or `divide` names.
fn depth(args: &[&str]) -> Result<u32, String> {
    match args {
        [n] => n
            .parse::<u32>()
            .ok()
            .filter(|&n| n <= MAX_DEPTH)
            .ok_or_else(|| format!("the depth is a number from 0 to {MAX_DEPTH}, not {n}")),
        _ => Err("expected one depth".into()),
    }
}

/// The longest command line read: a `position` with thousands of moves fits many times over.
pub const MAX_LINE: u64 = 1 << 20;

/// Runs a session on `input` and `output` until `quit` or the end of the input. A line that is
/// not UTF-8 or is longer than [`MAX_LINE`] is answered `error` (and the rest of a long line
/// skipped), so that no input makes the session hang or hold more than a line.
pub fn serve<S: Games>(
    games: S,
    seed: u64,
    player: Player,
    mut input: impl BufRead,
    mut output: impl Write,
) -> std::io::Result<()> {
    let mut session = Session::new(games, seed, player);
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = input.by_ref().take(MAX_LINE).read_until(b'\n', &mut line)?;
        if read == 0 {
            return Ok(());
        }
        if line.last() != Some(&b'\n') && read as u64 == MAX_LINE {
            // The rest of the line, read and dropped a piece at a time.
            let mut rest = Vec::new();
            while input.by_ref().take(MAX_LINE).read_until(b'\n', &mut rest)? > 0 && rest.last() != Some(&b'\n') {
                rest.clear();
            }
            writeln!(output, "error a command line is at most {MAX_LINE} bytes")?;
            output.flush()?;
            continue;
        }
        match std::str::from_utf8(&line) {
            Ok(text) => {
                if session.command(text, &mut output)? == Then::Quit {
                    return Ok(());
                }
            }
            Err(_) => {
                writeln!(output, "error a command line is text in UTF-8")?;
                output.flush()?;
            }
        }
    }
}
