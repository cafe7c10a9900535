//! Board diagrams over a read-only [`BoardView`](crate::game::BoardView): text, SVG, PNG
//! rasterised from the SVG, and TikZ translated from it.

pub mod ascii;
pub mod gif;
pub mod html;
pub mod model;
#[cfg(feature = "png")]
pub mod png;
pub mod svg;
#[cfg(feature = "png")]
pub mod tikz;
