//! Random legal games, for tests, benchmarks and `referee random`.

use crate::format::{Recorded, WithGame};
pub use crate::game::random::{random_game, random_game_preferring};
use crate::game::About;
use crate::games::GameKind;

/// The record of the random game of `seed` of `game`, on a board of `size` (the game's default
/// if `None`) for `players` players, in the game's record format; `Err` says why the game has no
/// such start.
pub fn random_record(game: GameKind, size: Option<u8>, players: Option<u8>, seed: u64) -> Result<String, String> {
    struct Random {
        size: Option<u8>,
        players: Option<u8>,
        seed: u64,
    }
    impl WithGame for Random {
        type Output = Result<String, String>;
        fn run<G: Recorded>(self, about: &'static About) -> Self::Output {
            G::random_record(about, self.size, self.players, self.seed)
        }
    }
    game.with_game(Random { size, players, seed })
}
