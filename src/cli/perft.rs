//! `referee perft` and `referee moves`: the move generator of a position given by its code, for
//! engine writers to compare theirs with.

use std::fmt::Write as _;
use std::process::ExitCode;

use clap::Args;

use crate::game::Engine;
use crate::judge::Games;
use crate::perft::{self, WithPosition};

use super::out::{note, Out};

/// Each depth multiplies the count by about the number of moves (Quarod 8x8: 224, 47,616 and
/// 9,505,600 leaves at depth 1 to 3, a second of a debug build), so that a count far deeper than
/// this would not end: it is refused, as a usage error, rather than left running.
const MAX_DEPTH: u32 = 20;

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// The position's code (`referee show --format code` writes one).
    code: String,
    /// How many moves deep to count, 0 to 20 (0 counts the position itself: 1).
    #[arg(value_parser = clap::value_parser!(u32).range(0..=MAX_DEPTH as i64))]
    depth: u32,
    /// Print each move of the position as written and the leaves below it, then a blank line and
    /// `Nodes searched: N`, as chess engines' `go perft` does.
    #[arg(long)]
    divide: bool,
}

#[derive(Args, Debug)]
pub struct MovesArgs {
    /// The position's code (`referee show --format code` writes one).
    code: String,
}

pub fn perft<S: Games>(args: PerftArgs, games: S) -> ExitCode {
    struct Count {
        depth: u32,
        divide: bool,
    }
    impl WithPosition for Count {
        type Output = (String, bool);
        fn run<G: Engine>(self, position: G) -> (String, bool) {
            let text = if self.divide {
                let moves = perft::divide(&position, self.depth);
                let mut text = String::new();
                for (m, n) in &moves {
                    let _ = writeln!(text, "{m}: {n}");
                }
                // At depth 0 no move is listed and the position is the one leaf.
                let total = if self.depth == 0 { 1 } else { moves.iter().map(|(_, n)| n).sum() };
                let _ = write!(text, "\nNodes searched: {total}\n");
                text
            } else {
                format!("{}\n", perft::perft(&position, self.depth))
            };
            (text, position.is_over())
        }
    }
    print(&args.code, Count { depth: args.depth, divide: args.divide }, games)
}

pub fn moves<S: Games>(args: MovesArgs, games: S) -> ExitCode {
    struct Moves;
    impl WithPosition for Moves {
        type Output = (String, bool);
        fn run<G: Engine>(self, position: G) -> (String, bool) {
            let text = perft::moves_written(&position).into_iter().map(|m| m + "\n").collect();
            (text, position.is_over())
        }
    }
    print(&args.code, Moves, games)
}

/// Runs `work` on the code's position and prints what it gives: exit code 2 with the code's fault
/// on standard error if it describes no position, as any usage error. A finished game is no
/// error (it has no moves, and its counts say so), but standard error says why they are 0.
fn print<S: Games>(code: &str, work: impl WithPosition<Output = (String, bool)>, games: S) -> ExitCode {
    let (text, over) = match perft::with_position_in(games, code, work) {
        Ok(done) => done,
        Err(e) => {
            note(&format!("not a position code: {e}"));
            return ExitCode::from(2);
        }
    };
    if over {
        note("the game is over in this position: it has no moves");
    }
    match Out::new().finish(&text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(closed) => closed.exit_code(),
    }
}
