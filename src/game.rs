//! The [`Game`] trait every rule engine implements, and the enum over all games.

use std::fmt;

use crate::geometry::{Cell, Geometry};

/// The games referee knows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameKind {
    Quadraphages,
    Hexaphages,
}

impl GameKind {
    pub const ALL: [GameKind; 2] = [GameKind::Quadraphages, GameKind::Hexaphages];

    /// The lowercase name used in JSON and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Quadraphages => "quadraphages",
            GameKind::Hexaphages => "hexaphages",
        }
    }

    pub fn from_name(name: &str) -> Option<GameKind> {
        GameKind::ALL.into_iter().find(|g| g.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a renderer needs of a position: the board shape and one glyph per cell.
pub trait BoardView {
    fn geometry(&self) -> Geometry;
    /// The character the published diagrams use for this cell.
    fn glyph(&self, cell: Cell) -> char;
}

/// A rule engine: a position that knows its legal moves and how to play them.
///
/// Legality is layered over an unchecked primitive, as in shakmaty: [`Game::play`] calls
/// [`Game::check`] and then [`Game::play_unchecked`]; lenient replay uses the primitive directly.
pub trait Game: Clone + BoardView {
    type Move: Copy + Eq + fmt::Debug;
    /// Why a move is illegal, in the game's own words.
    type Illegal: fmt::Display + fmt::Debug + Clone;
    type Score: fmt::Display + fmt::Debug + Clone;

    fn kind(&self) -> GameKind;
    /// Every legal move in this position (empty once the game is over).
    fn legal_moves(&self) -> Vec<Self::Move>;
    fn check(&self, m: Self::Move) -> Result<(), Self::Illegal>;
    fn play_unchecked(&mut self, m: Self::Move);
    fn play(&mut self, m: Self::Move) -> Result<(), Self::Illegal> {
        self.check(m)?;
        self.play_unchecked(m);
        Ok(())
    }
    fn is_over(&self) -> bool;
    fn score(&self) -> Self::Score;
    /// The move written in the game's notation.
    fn write_move(&self, m: Self::Move) -> String;
}
