//! The rule engines, one folder a game family.

pub mod petrify;
pub mod phages;
pub mod quarod;
pub mod splinter;
pub mod vadrantir;
