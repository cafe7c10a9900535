//! Random legal games, for tests, benchmarks and `referee random`; and records made for a board
//! that plays them: a new record, a start set up on a board.

use crate::format::{Recorded, WithGame};
pub use crate::game::random::{random_game, random_game_preferring};
use crate::game::About;
use crate::games::GameKind;

/// The record of the random game of `seed` of `game`, on a board of `size` (the game's default
/// if `None`) for `players` players, in the game's record format; `Err` says why the game has no
/// such start.
pub fn random_record(game: GameKind, size: Option<u8>, players: Option<u8>, seed: u64) -> Result<String, String> {
    random_record_in(crate::judge::Registry, game.about(), size, players, seed)
}

/// [`random_record`] of `game`, one of `games` (a game defined outside the crate among them).
pub fn random_record_in<S: crate::judge::Games>(
    games: S,
    game: &'static About,
    size: Option<u8>,
    players: Option<u8>,
    seed: u64,
) -> Result<String, String> {
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
    let random = Random { size, players, seed };
    games.with_named(game.name, random).unwrap_or_else(|| Err(format!("no game is named {}", game.name)))
}

/// A record of `game`, one of `games`, with no move yet, ready to be played (see
/// [`crate::format::Recorded::new_record`]); `Err` says why the game has no such start.
pub fn new_record_in<S: crate::judge::Games>(
    games: S,
    game: &'static About,
    size: Option<u8>,
    players: Option<u8>,
) -> Result<String, String> {
    struct New {
        size: Option<u8>,
        players: Option<u8>,
    }
    impl WithGame for New {
        type Output = Result<String, String>;
        fn run<G: Recorded>(self, about: &'static About) -> Self::Output {
            G::new_record(about, self.size, self.players)
        }
    }
    games.with_named(game.name, New { size, players }).unwrap_or_else(|| Err(format!("no game is named {}", game.name)))
}

/// The board to set a start of `game`, one of `games`, up on (see
/// [`crate::format::Recorded::setup_board`]).
pub fn setup_board_in<S: crate::judge::Games>(
    games: S,
    game: &'static About,
    size: Option<u8>,
    players: Option<u8>,
) -> Result<crate::format::SetupBoard, String> {
    struct Board {
        size: Option<u8>,
        players: Option<u8>,
    }
    impl WithGame for Board {
        type Output = Result<crate::format::SetupBoard, String>;
        fn run<G: Recorded>(self, about: &'static About) -> Self::Output {
            G::setup_board(about, self.size, self.players)
        }
    }
    games
        .with_named(game.name, Board { size, players })
        .unwrap_or_else(|| Err(format!("no game is named {}", game.name)))
}

/// A record of `game`, one of `games`, that starts from the position whose cells show `cells`
/// (see [`crate::format::Recorded::setup_record`]); `Err` says why the game cannot have it.
pub fn setup_record_in<S: crate::judge::Games>(
    games: S,
    game: &'static About,
    size: Option<u8>,
    players: Option<u8>,
    cells: &[&str],
) -> Result<String, String> {
    struct Set<'c> {
        size: Option<u8>,
        players: Option<u8>,
        cells: &'c [&'c str],
    }
    impl WithGame for Set<'_> {
        type Output = Result<String, String>;
        fn run<G: Recorded>(self, about: &'static About) -> Self::Output {
            G::setup_record(about, self.size, self.players, self.cells)
        }
    }
    games
        .with_named(game.name, Set { size, players, cells })
        .unwrap_or_else(|| Err(format!("no game is named {}", game.name)))
}

/// A record of `game`, one of `games`, that starts from the position `code` gives, and what each
/// cell of it shows (see [`crate::format::Recorded::code_record`]).
pub fn code_record_in<S: crate::judge::Games>(
    games: S,
    game: &'static About,
    code: &str,
) -> Result<(String, Vec<String>), String> {
    struct Code<'c>(&'c str);
    impl WithGame for Code<'_> {
        type Output = Result<(String, Vec<String>), String>;
        fn run<G: Recorded>(self, about: &'static About) -> Self::Output {
            G::code_record(about, self.0)
        }
    }
    games.with_named(game.name, Code(code)).unwrap_or_else(|| Err(format!("no game is named {}", game.name)))
}
