//! Quarod move tokens and the common record format.
//!
//! `d4e4` is a placement (Black on d4, White on e4, rods towards each other), `d4xe4` a board swap
//! of the pieces on d4 and e4, `pass` a pass and `swap` the pie swap of sides. Reading is in two
//! stages: [`parse`] checks the syntax alone; [`Notation::resolve`](crate::game::Notation::resolve) finds the squares on the board.

use std::fmt;

use super::rules::{Illegal, Quarod, QuarodMove, DEFAULT_SIZE};
use crate::game::{BoardView, CommonFormat, Outcome};
use crate::geometry::CellLabel;

/// A move as written, before it meets a board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum WrittenMove {
    /// `d4e4`: Black on the first square, White on the second.
    Place {
        /// The Black piece's square.
        black: CellLabel,
        /// The White piece's square.
        white: CellLabel,
    },
    /// `d4xe4`.
    BoardSwap {
        /// One piece's square.
        a: CellLabel,
        /// The other's.
        b: CellLabel,
    },
    /// `pass`.
    Pass,
    /// `swap`: the pie rule.
    SwapSides,
}

impl fmt::Display for WrittenMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        self.push_to(&mut out);
        f.write_str(&out)
    }
}

impl WrittenMove {
    /// Writes the move (`d4e4`, `d4xe4`, `pass`, `swap`) at the end of `out`.
    pub fn push_to(self, out: &mut String) {
        match self {
            WrittenMove::Place { black, white } => {
                black.push_to(out);
                white.push_to(out);
            }
            WrittenMove::BoardSwap { a, b } => {
                a.push_to(out);
                out.push('x');
                b.push_to(out);
            }
            WrittenMove::Pass => out.push_str("pass"),
            WrittenMove::SwapSides => out.push_str("swap"),
        }
    }
}

const EXPECTED: &str = "expected a placement like `d4e4`, a board swap like `d4xe4`, `pass` or `swap`";

/// Reads a token's syntax: `d4e4`, `d4xe4`, `pass` or `swap`.
pub fn parse(text: &str) -> Result<WrittenMove, String> {
    match text {
        "pass" => return Ok(WrittenMove::Pass),
        "swap" => return Ok(WrittenMove::SwapSides),
        _ => {}
    }
    let bytes = text.as_bytes();
    if !bytes.first().is_some_and(u8::is_ascii_lowercase) {
        return Err(format!("`{text}` is not a Quarod move: {EXPECTED}"));
    }
    // The first label ends with its digits; `x` then a letter means a board swap (`d4x5` is a
    // placement on d4 and x5, since a label starts with a letter and `5` does not).
    let end = 1 + bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    let label = |s: &str| {
        CellLabel::parse(s).ok_or_else(|| format!("`{text}` is not a Quarod move: `{s}` is not a square; {EXPECTED}"))
    };
    let first = label(&text[..end])?;
    let rest = &text[end..];
    if rest.is_empty() {
        return Err(format!("`{text}` is not a Quarod move: a move names two squares; {EXPECTED}"));
    }
    match rest.strip_prefix('x').filter(|r| r.as_bytes().first().is_some_and(u8::is_ascii_lowercase)) {
        Some(second) => Ok(WrittenMove::BoardSwap { a: first, b: label(second)? }),
        None => Ok(WrittenMove::Place { black: first, white: label(rest)? }),
    }
}

impl CommonFormat for Quarod {
    const ABOUT: crate::game::About = super::ABOUT;

    fn to_move(&self) -> usize {
        self.colour_to_move().index()
    }

    fn start(size: Option<u8>, players: Option<u8>) -> Result<Quarod, String> {
        if let Some(n) = players.filter(|&n| n != 2) {
            return Err(format!("Quarod is a game for two players, not {n}"));
        }
        Quarod::new(size.unwrap_or(DEFAULT_SIZE))
    }

    fn with_setup(&self, cells: &[&str]) -> Result<Quarod, String> {
        Quarod::from_glyphs(self.size(), cells)
    }

    fn points(&self) -> Vec<f64> {
        crate::game::Game::score(self).points.iter().map(|&p| p as f64).collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result()
    }
}

impl Quarod {
    /// The move as written in the notation, with cell labels.
    pub fn written(&self, m: QuarodMove) -> WrittenMove {
        match m {
            QuarodMove::Place { black, white } => {
                WrittenMove::Place { black: self.label(black), white: self.label(white) }
            }
            QuarodMove::BoardSwap { a, b } => WrittenMove::BoardSwap { a: self.label(a), b: self.label(b) },
            QuarodMove::Pass => WrittenMove::Pass,
            QuarodMove::SwapSides => WrittenMove::SwapSides,
        }
    }
}

impl crate::game::Notation for Quarod {
    type Written = WrittenMove;

    fn parse_move(text: &str) -> Result<WrittenMove, String> {
        parse(text)
    }

    fn resolve(&self, written: WrittenMove) -> Result<QuarodMove, Illegal> {
        let g = self.geometry();
        let cell = |l: CellLabel| g.parse_label(l).ok_or(Illegal::OffBoard { cell: l, size: self.size() });
        Ok(match written {
            WrittenMove::Place { black, white } => QuarodMove::Place { black: cell(black)?, white: cell(white)? },
            WrittenMove::BoardSwap { a, b } => QuarodMove::BoardSwap { a: cell(a)?, b: cell(b)? },
            WrittenMove::Pass => QuarodMove::Pass,
            WrittenMove::SwapSides => QuarodMove::SwapSides,
        })
    }

    fn write_move(&self, m: QuarodMove) -> String {
        let mut out = String::with_capacity(8);
        self.written(m).push_to(&mut out);
        out
    }

    fn write_move_into(&self, m: QuarodMove, out: &mut String) {
        self.written(m).push_to(out);
    }

    const WRITES_APART: bool = true;
}
