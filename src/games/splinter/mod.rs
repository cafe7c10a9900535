//! Splinter Quad (rules and RULINGS Splinter Quad 1-5: docs/rules/splinter.md): two to four
//! players slide their pieces one square, pushing whole lines along and off the board; after
//! every move only the largest group of pieces stays, and a player who runs out of two types of
//! piece is out.
//!
//! [`start`] holds the default starts (with their diagrams), [`rules`] the engine and every
//! decision taken where the texts leave a point open, [`notation`] the move tokens.

pub mod notation;
pub mod rules;
pub mod start;

pub use notation::{parse, Written};
pub use rules::{
    Effects, Ending, Forbidden, Illegal, Kind, Piece, Player, PlayerScore, Splinter, SplinterMove, SplinterScore,
    Standing, EMPTY_GLYPH, MAX_CHOICES, MAX_SIZE, MIN_SIZE, QUIET_MOVES,
};
pub use start::{default_block, default_size};

/// Splinter Quad in the registry.
pub const ABOUT: crate::game::About = crate::game::About {
    name: "splinter",
    title: "Splinter Quad",
    aliases: &["splinter-quad"],
    help: "Splinter Quad (also `splinter-quad`): the common format, 2 to 4 players",
    format: crate::game::Format::Common,
    // A smaller board holds some player counts' default start, not all (3 players need 9).
    sizes: crate::game::Sizes::from(9, 26),
    players: (2, 4),
};
