//! Board diagrams over a read-only [`BoardView`](crate::game::BoardView).

pub mod ascii;
pub mod gif;
pub mod html;
pub mod model;
