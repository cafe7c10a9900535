//! Vadrantir move tokens: a placement is the cell's label (`f6`), and `swap` is the pie rule.
//! There is no passing, so `pass` is not a move. Reading only checks the syntax; the cell meets
//! the board in [`Vadrantir::resolve`](crate::game::Notation::resolve).

use super::rules::{Illegal, Vadrantir, VadrantirMove};
use crate::geometry::{CellLabel, Geometry};

/// A Vadrantir move as written, before it meets a position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Written {
    /// `g6`: a stone of the mover's colour on an empty cell.
    Place(CellLabel),
    /// `swap`: the pie rule.
    Swap,
}

/// Reads one token; `Err` says what the notation expected.
pub fn parse(text: &str) -> Result<Written, String> {
    match text {
        "swap" => return Ok(Written::Swap),
        "pass" => {
            return Err("`pass` is not a Vadrantir move: there is no passing; the game ends when the player to move \
                 has no legal placement"
                .to_string())
        }
        _ => {}
    }
    match CellLabel::parse(text) {
        Some(l) => Ok(Written::Place(l)),
        None => Err(format!(
            "`{text}` is not a Vadrantir move: expected a cell (a letter and a row number, as in g6) or `swap`"
        )),
    }
}

/// Writes a move as a token (the inverse of [`parse`]).
pub fn write(g: Geometry, m: VadrantirMove) -> String {
    match m {
        VadrantirMove::Place(c) => g.label(c).to_string(),
        VadrantirMove::Swap => "swap".to_string(),
    }
}

impl crate::game::Notation for Vadrantir {
    type Written = Written;

    fn parse_move(text: &str) -> Result<Written, String> {
        parse(text)
    }

    fn resolve(&self, written: Written) -> Result<VadrantirMove, Illegal> {
        Ok(match written {
            Written::Place(l) => VadrantirMove::Place(
                // The geometry's table: every move of every record is resolved here.
                self.geometry().steps().parse_label(l).ok_or(Illegal::OffBoard { cell: l, side: self.side() })?,
            ),
            Written::Swap => VadrantirMove::Swap,
        })
    }

    fn write_move(&self, m: VadrantirMove) -> String {
        write(self.geometry(), m)
    }

    const WRITES_APART: bool = true;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_read_back() {
        assert_eq!(parse("f6"), Ok(Written::Place(CellLabel { col: 5, row: 6 })));
        assert_eq!(parse("a11"), Ok(Written::Place(CellLabel { col: 0, row: 11 })));
        assert_eq!(parse("swap"), Ok(Written::Swap));
        for bad in ["", "F6", "f0", "pass", "Swap", "f6f7", "f6x", "6f", "resign"] {
            assert!(parse(bad).is_err(), "{bad} was read");
        }
    }
}
