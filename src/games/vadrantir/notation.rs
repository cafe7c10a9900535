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
    // A cell first: nearly every token of a record is one, and no word below reads as a cell.
    if let Some(l) = CellLabel::parse(text) {
        return Ok(Written::Place(l));
    }
    match text {
        "swap" => return Ok(Written::Swap),
        "pass" => {
            return Err("`pass` is not a Vadrantir move: there is no passing; the game ends when the player to move \
                 has no legal placement"
                .to_string())
        }
        _ => {}
    }
    Err(format!("`{text}` is not a Vadrantir move: expected a cell (a letter and a row number, as in g6) or `swap`"))
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

    /// The reader, which tries a cell first, against the words first and a cell after them, on
    /// every token of up to three bytes from an alphabet of the bytes that matter and on random
    /// longer ones.
    #[test]
    fn a_cell_read_first_reads_the_same() {
        let words_first = |text: &str| match text {
            "swap" => Ok(Written::Swap),
            "pass" => Err(()),
            _ => CellLabel::parse(text).map(Written::Place).ok_or(()),
        };
        let alphabet = b"afuz0159swapSA -";
        let mut tokens: Vec<Vec<u8>> = vec![Vec::new()];
        for len in 1..=3 {
            let shorter: Vec<Vec<u8>> = tokens.iter().filter(|t| t.len() == len - 1).cloned().collect();
            for t in shorter {
                tokens.extend(alphabet.iter().map(|&b| [t.as_slice(), &[b]].concat()));
            }
        }
        let mut rng = fastrand::Rng::with_seed(6);
        tokens
            .extend((0..20_000).map(|_| (0..rng.usize(4..7)).map(|_| alphabet[rng.usize(..alphabet.len())]).collect()));
        tokens.extend([b"swap".to_vec(), b"pass".to_vec(), b"a99".to_vec(), b"u11".to_vec()]);
        for t in tokens {
            let text = std::str::from_utf8(&t).expect("ASCII");
            assert_eq!(parse(text).map_err(|_| ()), words_first(text), "{text:?}");
        }
    }
}
