//! Vadrantir (rules and RULINGS Vadrantir 1-6: docs/rules/vadrantir.md): stones placed on a hex
//! board, each group held to at most one stone more than the largest enemy group it touches; the
//! empty territories go to the side with the larger adjacent groups, and the half point to the
//! side with the larger groups on the whole board.

pub mod notation;
pub mod rules;

pub use notation::Written;
pub use rules::{Colour, Comparison, Formed, Illegal, Territory, Vadrantir, VadrantirMove, VadrantirScore};

/// Vadrantir in the registry.
pub const ABOUT: crate::game::About = crate::game::About {
    name: "vadrantir",
    title: "Vadrantir",
    aliases: &[],
    help: "Vadrantir: the common format, a hex board of side 5 to 7",
    format: crate::game::Format::Common,
    sizes: crate::game::Sizes::from(5, 7),
    players: (2, 2),
};
