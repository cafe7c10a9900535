//! How a game writes its moves and reads them back: one impl per game, in its `notation.rs`,
//! which depends on the engine and never the other way.

use std::fmt;

use super::Game;

/// A game's move notation, read in two stages, each with its own error (as shakmaty's
/// `San::from_ascii` and `San::to_move`): [`Notation::parse_move`] checks a token's syntax alone;
/// [`Notation::resolve`] places it on the board (a cell off the board is illegal, not a syntax
/// error, since the board's size is the record's). [`Notation::write_move`] writes a move back:
/// the one way the notation writes it, which `parse_move` and `resolve` read as that move.
pub trait Notation: Game {
    /// A move as written, before it meets a position.
    type Written: Copy + fmt::Debug;
    /// Checks a token's syntax: `Err` says what the notation expected.
    fn parse_move(text: &str) -> Result<Self::Written, String>;
    /// The move a written token stands for in this position.
    fn resolve(&self, written: Self::Written) -> Result<Self::Move, Self::Illegal>;
    /// The move written in the game's notation.
    fn write_move(&self, m: Self::Move) -> String;
}
