//! Petrify move tokens: `d4` places a disk, `d4xg7` is the disk on d4 capturing the enemy disk on
//! g7, `pass`, and `swap` (the pie rule). Reading only checks the syntax; the cells meet the board
//! in [`Petrify::resolve`](crate::game::Notation::resolve).

use super::rules::{Illegal, Petrify, PetrifyMove};
use crate::geometry::{CellLabel, Geometry};

/// A Petrify move as written, before it meets a position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Written {
    /// `d4`: a placement.
    Place(CellLabel),
    /// `d4xg7`: a capture.
    Capture {
        /// The capturing disk's square.
        from: CellLabel,
        /// The captured disk's square.
        to: CellLabel,
    },
    /// `pass`.
    Pass,
    /// `swap`: the pie rule.
    Swap,
}

/// Reads one token; `Err` says what the notation expected.
pub fn parse(text: &str) -> Result<Written, String> {
    match text {
        "pass" => return Ok(Written::Pass),
        "swap" => return Ok(Written::Swap),
        _ => {}
    }
    if let Some(l) = CellLabel::parse(text) {
        return Ok(Written::Place(l));
    }
    // The `x` of a capture is the first one that follows a digit: `x` may also be a file letter.
    let b = text.as_bytes();
    if let Some(i) = (1..b.len()).find(|&i| b[i] == b'x' && b[i - 1].is_ascii_digit()) {
        let (from, to) = (&text[..i], &text[i + 1..]);
        return match (CellLabel::parse(from), CellLabel::parse(to)) {
            (Some(from), Some(to)) => Ok(Written::Capture { from, to }),
            _ => Err(format!("`{text}` is not a capture: a capture is written as two cells around `x`, as in d4xg7")),
        };
    }
    Err(format!(
        "`{text}` is not a Petrify move: expected a placement such as d4, a capture such as d4xg7, `pass` or `swap`"
    ))
}

/// Writes a move as a token (the inverse of [`parse`]).
pub fn write(g: Geometry, m: PetrifyMove) -> String {
    match m {
        PetrifyMove::Place(c) => g.label(c).to_string(),
        PetrifyMove::Capture { from, to } => format!("{}x{}", g.label(from), g.label(to)),
        PetrifyMove::Pass => "pass".to_string(),
        PetrifyMove::Swap => "swap".to_string(),
    }
}

impl crate::game::Notation for Petrify {
    type Written = Written;

    fn parse_move(text: &str) -> Result<Written, String> {
        parse(text)
    }

    fn resolve(&self, written: Written) -> Result<PetrifyMove, Illegal> {
        let g = self.geometry();
        let cell = |l: CellLabel| g.parse_label(l).ok_or(Illegal::OffBoard { cell: l, size: self.size() });
        Ok(match written {
            Written::Place(l) => PetrifyMove::Place(cell(l)?),
            Written::Capture { from, to } => PetrifyMove::Capture { from: cell(from)?, to: cell(to)? },
            Written::Pass => PetrifyMove::Pass,
            Written::Swap => PetrifyMove::Swap,
        })
    }

    fn write_move(&self, m: PetrifyMove) -> String {
        write(self.geometry(), m)
    }

    const WRITES_APART: bool = true;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(s: &str) -> CellLabel {
        CellLabel::parse(s).unwrap()
    }

    #[test]
    fn tokens_read_back() {
        assert_eq!(parse("d4"), Ok(Written::Place(l("d4"))));
        assert_eq!(parse("j10"), Ok(Written::Place(l("j10"))));
        assert_eq!(parse("d4xg7"), Ok(Written::Capture { from: l("d4"), to: l("g7") }));
        assert_eq!(parse("x5xg7"), Ok(Written::Capture { from: l("x5"), to: l("g7") }));
        assert_eq!(parse("pass"), Ok(Written::Pass));
        assert_eq!(parse("swap"), Ok(Written::Swap));
        for bad in ["", "D4", "d0", "d4x", "xd4", "d4-g7", "d4g7", "Pass", "d4xg7x"] {
            assert!(parse(bad).is_err(), "{bad} was read");
        }
    }
}
