//! Quadraphages (square board) and Hexaphages (hex board): one engine over two geometries.

pub mod analysis;
pub mod claims;
pub mod notation;
pub mod rules;

pub use rules::{Content, Illegal, Phages, PhagesMove, PhagesScore, Phase, SetupError, Side};
