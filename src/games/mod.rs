//! The rule engines, one folder a game family.

pub mod phages;
