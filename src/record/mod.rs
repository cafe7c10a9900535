//! The grammar of published Quadraphages and Hexaphages records (see grammar.md).
//!
//! A file is read line by line; each line is classified (title, column header, diagram row,
//! numbered move line, prose) and records are assembled around their movetext, so that records
//! inside other text are found and the prose around them is ignored. Every token keeps its byte
//! span in the file, all the way to the diagnostic. Parsing only checks syntax; what a token means
//! in a position is decided by the game's notation module.

pub mod common;
mod lines;

use std::ops::Range;

use crate::game::GameKind;
use crate::games::phages::Side;
use crate::geometry::{CellLabel, Geometry};

pub use lines::{classify, LineKind};

/// Byte offsets into the file.
pub type Span = Range<usize>;

/// One token of movetext.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Token<'a> {
    pub text: &'a str,
    pub span: Span,
    pub kind: TokenKind,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TokenKind {
    /// `a7a8`: the stone on the first cell moves to the second.
    Step(CellLabel, CellLabel),
    /// `----`: a stone that stays because it cannot move.
    Stay,
    /// `....`: fills a phase that does not exist (the first turn's phase (a)).
    Filler,
    /// An announced number.
    Number(u8),
    /// `resign`: the side to move gives up.
    Resign,
    /// `and wins 40-39`, `X wins`: a claimed result. `side` is given when the claim names it;
    /// `and wins` means the side that wrote the last move.
    Wins { side: Option<Side>, score: Option<(u16, u16)> },
    /// A move in the common record format; its game reads it.
    Written,
    /// The result token of the common format: `1-0`, `0-1`, `0-0-1` (the winner's place holds
    /// 1), all zeros for a game nobody won, or `*` (no result claimed: `players` is 0);
    /// `players` is how many places it has.
    Result { winner: Option<u8>, players: u8 },
}

impl TokenKind {
    pub fn is_claim(self) -> bool {
        matches!(self, TokenKind::Resign | TokenKind::Wins { .. } | TokenKind::Result { .. })
    }
}

/// A numbered line of movetext: one turn of each column's side. Its tokens are
/// `record.tokens[line.tokens]`: a record keeps all of its tokens in one vector.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveLine {
    pub number: u32,
    pub span: Span,
    pub tokens: Range<usize>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DiagramLabel {
    Startup,
    FinalPosition,
    None,
}

/// A board diagram: rows of `.`, `o`, `x` (marks) and `O`, `X` (stones).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diagram {
    pub span: Span,
    pub label: DiagramLabel,
    pub geometry: Geometry,
    /// Every cell of the board in reading order, with the glyph written and where.
    pub cells: Vec<(CellLabel, char, Span)>,
}

impl Diagram {
    pub fn has_marks(&self) -> bool {
        self.cells.iter().any(|c| matches!(c.1, 'o' | 'x'))
    }
}

/// The header that names the side of each column, like `_xx_ _oo_` or `_Jx_ _Bo_`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ColumnHeader {
    pub span: Span,
    pub sides: [Side; 2],
    /// The first letter of each column's tag: a player's initial, or the side's letter again.
    pub initials: [char; 2],
}

/// A syntax error: the text at `span` is not what the notation allows there.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("{message}")]
pub struct SyntaxError {
    pub span: Span,
    pub message: String,
}

/// One game record found in a file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Record<'a> {
    /// 1-based position among the file's records.
    pub index: usize,
    pub span: Span,
    pub title: Option<(GameKind, Span)>,
    pub header: Option<ColumnHeader>,
    pub startup: Option<Diagram>,
    pub final_position: Option<Diagram>,
    pub lines: Vec<MoveLine>,
    /// Every token of the movetext, in order.
    pub tokens: Vec<Token<'a>>,
    pub syntax_errors: Vec<SyntaxError>,
}

impl<'a> Record<'a> {
    /// The tokens of one of the record's lines.
    pub fn line_tokens(&self, line: &MoveLine) -> &[Token<'a>] {
        &self.tokens[line.tokens.clone()]
    }

    /// The game the record's own text names or draws, if any: its title, else its diagrams.
    pub fn game_hint(&self) -> Option<(GameKind, Option<Geometry>)> {
        let drawn = self.startup.as_ref().or(self.final_position.as_ref()).map(|d| d.geometry);
        let from_geometry = |g: Geometry| match g {
            Geometry::Square { .. } => GameKind::Quadraphages,
            Geometry::Hex { .. } => GameKind::Hexaphages,
        };
        match (self.title.as_ref().map(|t| t.0), drawn) {
            (Some(kind), Some(g)) if from_geometry(g) == kind => Some((kind, Some(g))),
            (Some(kind), _) => Some((kind, None)),
            (None, Some(g)) => Some((from_geometry(g), Some(g))),
            (None, None) => None,
        }
    }
}

/// Reads every record in a file. Prose is ignored; a file with no movetext has no records.
pub fn parse(src: &str) -> Vec<Record<'_>> {
    lines::assemble(src)
}
