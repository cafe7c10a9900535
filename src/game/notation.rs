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
    /// [`Notation::write_move`] at the end of `out`, for work that writes every legal move of a
    /// position (an illegal move's alternatives on a board of hundreds of cells) into one buffer.
    fn write_move_into(&self, m: Self::Move, out: &mut String) {
        out.push_str(&self.write_move(m));
    }
    /// Whether no two moves [`Game::legal_moves`] lists are written alike, nor two that
    /// [`Game::distinct_moves`] lists: then the written moves need no sifting for repeats. Not so
    /// in the published notation, where `----` stands for any stone that cannot move.
    const WRITES_APART: bool = false;
}
