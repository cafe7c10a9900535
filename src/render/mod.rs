//! Board diagrams over a read-only [`BoardView`](crate::game::BoardView): text, SVG, and PNG
//! rasterised from the SVG.

pub mod ascii;
pub mod gif;
pub mod html;
pub mod model;
#[cfg(feature = "png")]
pub mod png;
pub mod svg;
