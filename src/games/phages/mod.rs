//! Quadraphages (square board) and Hexaphages (hex board): one engine over two geometries.

pub mod notation;
pub mod rules;

pub use rules::{Content, Illegal, Phages, PhagesMove, PhagesScore, Phase, SetupError, Side};

/// Quadraphages in the registry: the engine on a square board.
pub const QUADRAPHAGES: crate::game::About = crate::game::About {
    name: "quadraphages",
    title: "Quadraphages",
    aliases: &[],
    help: "Quadraphages: the published notation, a square board (9x9 by default)",
    format: crate::game::Format::Published,
    // Another board needs its start drawn in a `Startup:` diagram.
    sizes: crate::game::Sizes::from(9, 9),
    players: (2, 2),
};

/// Hexaphages in the registry: the engine on a hex board.
pub const HEXAPHAGES: crate::game::About = crate::game::About {
    name: "hexaphages",
    title: "Hexaphages",
    aliases: &[],
    help: "Hexaphages: the published notation, a hex board of side 4 or 5",
    format: crate::game::Format::Published,
    sizes: crate::game::Sizes::from(4, 5),
    players: (2, 2),
};

/// Quadraphages' named positions and their perft counts (see `Playable::POSITIONS`).
pub const QUADRAPHAGES_POSITIONS: &str = include_str!("quadraphages.perft");

/// Hexaphages' named positions and their perft counts.
pub const HEXAPHAGES_POSITIONS: &str = include_str!("hexaphages.perft");
