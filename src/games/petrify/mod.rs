//! Petrify (rules and RULINGS Petrify 1-4: docs/rules/petrify.md): disks that capture by moving
//! leave blocks behind; blocks cut the board into patches, and patches are scored at the end.

pub mod notation;
pub mod rules;

pub use notation::Written;
pub use rules::{
    BoardPlay, Colour, Formation, Illegal, Obstacle, Patch, Petrify, PetrifyMove, PetrifyScore, Shape, Square,
};

/// Petrify in the registry.
pub const ABOUT: crate::game::About = crate::game::About {
    name: "petrify",
    title: "Petrify",
    aliases: &[],
    help: "Petrify: the common format, a square board of side 6 to 10",
    format: crate::game::Format::Common,
    sizes: crate::game::Sizes::from(6, 10),
    players: (2, 2),
};
