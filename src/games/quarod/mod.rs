//! Quarod: pieces with rods, placed in engaged pairs and swapped along engagements (RULINGS,
//! Quarod 1-6).

pub mod notation;
pub mod rules;

pub use notation::{parse, WrittenMove};
pub use rules::{
    Action, Colour, Illegal, Piece, Quarod, QuarodMove, QuarodScore, Rod, DEFAULT_SIZE, EMPTY_GLYPH, MIN_SIZE,
};

/// Quarod in the registry.
pub const ABOUT: crate::game::About = crate::game::About {
    name: "quarod",
    title: "Quarod",
    aliases: &[],
    help: "Quarod: the common format, a square board of side 2 to 26",
    format: crate::game::Format::Common,
    sizes: crate::game::Sizes::from(2, 26),
    players: (2, 2),
};
