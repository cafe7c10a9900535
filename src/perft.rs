//! Perft: the number of leaves of the move tree below a position, the regression test of every
//! move generator since chess engines (`src/games/*/*.perft`, beside each engine, hold the counts of each game).
//!
//! The moves counted are [`Game::distinct_moves`](crate::game::Game::distinct_moves), the moves of the game: what `verify` lists and
//! counts as the legal moves of a position (`legal_count`). They differ from
//! [`Game::legal_moves`](crate::game::Game::legal_moves) only in Splinter Quad, where a choice of group may be written with any
//! square of the group: those names are one move, which leaves one position, and counting each
//! name would make the count depend on the size of the groups, not on the rules. Moves that are
//! written differently and happen to leave the same position are still two moves (Quarod's board
//! swap `d4xe4` and `e4xd4`: the engine and the notation give both), as two chess moves that
//! transpose are.
//!
//! A position counts 1 at depth 0, and a finished game has no moves, so it counts 0 at any depth
//! past 0: a move that ends the game is a leaf at the last depth and a dead end before it, as a
//! mate in chess perft.

use crate::format::{Recorded, WithGame};
use crate::game::code::CodeError;
use crate::game::{About, Notation};
use crate::games::no_such_game;
use crate::judge::{Games, Registry};

/// The leaves of the move tree `depth` moves below `position` (1 at depth 0).
pub fn perft<G: crate::game::Game>(position: &G, depth: u32) -> u64 {
    match depth {
        0 => 1,
        // The leaves one move below are the moves: counted without playing them.
        1 => position.distinct_moves().len() as u64,
        _ => position
            .distinct_moves()
            .into_iter()
            .map(|m| {
                let mut next = position.clone();
                next.play_unchecked(m);
                perft(&next, depth - 1)
            })
            .sum(),
    }
}

/// Each move of `position` as written, with the leaves `depth - 1` moves below it: the counts add
/// up to [`perft`] at `depth`, and the first that differs from another engine's names the move to
/// look under. Empty at depth 0, where the tree has no moves.
pub fn divide<G: Notation>(position: &G, depth: u32) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    position
        .distinct_moves()
        .into_iter()
        .map(|m| {
            let mut next = position.clone();
            next.play_unchecked(m);
            (position.write_move(m), perft(&next, depth - 1))
        })
        .collect()
}

/// The moves of `position` as the notation writes them, in the engine's order (the moves
/// [`perft`] counts; none when the game is over).
pub fn moves_written<G: Notation>(position: &G) -> Vec<String> {
    position.distinct_moves().into_iter().map(|m| position.write_move(m)).collect()
}

/// Work on a position of any game, read from its code: [`with_position`] calls `run` with the
/// position, in the engine type of its game.
pub trait WithPosition {
    /// What `run` gives back.
    type Output;
    /// The work, with `G` the engine of the code's game.
    fn run<G: Recorded>(self, position: G) -> Self::Output;
}

/// Reads `code` as a position of the game it names and runs `work` on it; `Err` says where the
/// code goes wrong.
pub fn with_position<W: WithPosition>(code: &str, work: W) -> Result<W::Output, CodeError> {
    with_position_in(Registry, code, work)
}

/// [`with_position`], the code's game one of `games` (a game defined outside the crate too).
pub fn with_position_in<S: Games, W: WithPosition>(games: S, code: &str, work: W) -> Result<W::Output, CodeError> {
    struct Read<'c, W>(&'c str, W);
    impl<W: WithPosition> WithGame for Read<'_, W> {
        type Output = Result<W::Output, CodeError>;
        fn run<G: Recorded>(self, _: &'static About) -> Self::Output {
            Ok(self.1.run(G::from_code(self.0)?))
        }
    }
    let name = code.split('_').next().unwrap_or("");
    let abouts = games.abouts();
    let known = || abouts.iter().map(|a| a.name).collect::<Vec<_>>();
    match abouts.iter().find(|a| a.name == name) {
        Some(about) => {
            games.with_named(about.name, Read(code, work)).unwrap_or_else(|| Err(no_such_game(name, &known())))
        }
        None => Err(no_such_game(name, &known())),
    }
}

/// Reads a code of any game and writes the position it describes again: the code as referee
/// writes that position (the same text for every code referee wrote).
pub fn rewrite(code: &str) -> Result<String, CodeError> {
    struct Rewrite;
    impl WithPosition for Rewrite {
        type Output = String;
        fn run<G: Recorded>(self, position: G) -> String {
            position.code()
        }
    }
    with_position(code, Rewrite)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::code::Coded;
    use crate::game::Game;
    use crate::games::quarod::Quarod;
    use crate::games::GameKind;

    /// Quarod on 2x2, from the rules: a placement is two adjacent empty squares, Black's piece on
    /// the first; 4 adjacent pairs, each in two orders, give 8 first moves. After one, the other
    /// two squares are the only placement (2 orders), White may also swap sides: 3 replies each.
    #[test]
    fn perft_counts_leaves_and_one_at_depth_zero() {
        let start = Quarod::from_code("quarod_2/2_b_0_0_-_-").unwrap();
        assert_eq!(perft(&start, 0), 1);
        assert_eq!(perft(&start, 1), 8);
        assert_eq!(perft(&start, 2), 8 * 3);
        let divided = divide(&start, 2);
        assert_eq!(divided.len(), 8);
        assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), perft(&start, 2));
        assert_eq!(divided[0], ("a1b1".to_string(), 3));
        assert_eq!(moves_written(&start), divided.iter().map(|(m, _)| m.clone()).collect::<Vec<_>>());
        assert!(divide(&start, 0).is_empty());
    }

    #[test]
    fn a_finished_game_counts_one_at_depth_zero_and_nothing_below() {
        // Two passes in a row end Quarod.
        let over = Quarod::from_code("quarod_2/2_b_4_2_-_-").unwrap();
        assert!(over.is_over());
        assert_eq!((perft(&over, 0), perft(&over, 1), perft(&over, 3)), (1, 0, 0));
        assert!(moves_written(&over).is_empty());
    }

    #[test]
    fn with_position_reads_every_game_and_locates_a_bad_code() {
        struct Count;
        impl WithPosition for Count {
            type Output = (GameKind, u64);
            fn run<G: Recorded>(self, position: G) -> (GameKind, u64) {
                (GameKind::from_name(position.about().name).expect("a registered game"), perft(&position, 1))
            }
        }
        let (kind, moves) = with_position("quadraphages_2O6/9/8X/9/9/9/X8/9/6O2_xb0f_a7.i3-c1.g9", Count).unwrap();
        assert_eq!(kind, GameKind::Quadraphages);
        assert!(moves > 0);
        assert_eq!(with_position("vadrantir_5/6/7/8/9/8/7/6/5_b_0_-", Count).unwrap().0, GameKind::Vadrantir);
        let e = with_position("quarod_4/4/2NNN/4_b_0_0_-_-", Count).unwrap_err();
        assert_eq!(e.at, 14, "the third N, one more than row 3 holds");
        assert!(with_position("chess_8/8", Count).is_err());
    }
}
