//! How a Quadraphages / Hexaphages move is written: a step `a7a8`, a stay `----`, an announced
//! number. Reading a whole record (which stone a `----` stands for, the start a record implies) is
//! the published notation's, in `crate::format::published`.

use super::rules::{Illegal, Phages, PhagesMove, Phase};
use crate::game::{Game, Notation};
use crate::geometry::CellLabel;

/// A token of the published notation that stands for a move, before it meets a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Written {
    /// `a7a8`: the stone on the first cell moves to the second.
    Step(CellLabel, CellLabel),
    /// `----`: a stone stays.
    Stay,
    /// An announced number.
    Number(u8),
}

impl Written {
    /// The move a word writes: two cell labels, `----`, or a number up to 255 (a larger one
    /// announces nothing). The published notation's reader classifies a record's words the same
    /// way (`crate::record::token_kind`; `format::published` holds the two to each other).
    pub fn read(word: &str) -> Option<Written> {
        let b = word.as_bytes();
        match b {
            b"----" => Some(Written::Stay),
            [b'a'..=b'z', b'0'..=b'9', ..] => {
                let (from, rest) = CellLabel::read(b)?;
                let (to, rest) = CellLabel::read(rest)?;
                rest.is_empty().then_some(Written::Step(from, to))
            }
            [b'0'..=b'9', ..] => word.parse::<u8>().ok().map(Written::Number),
            _ => None,
        }
    }
}

/// The moves of the published notation one token at a time, out of any record. A record is read
/// with its context (`format::published::notation::read`: which stone a `----` stands for depends on the other tokens of its
/// phase); alone, a `----` stands for the first stone still to act, in the engine's order.
impl Notation for Phages {
    type Written = Written;

    fn parse_move(text: &str) -> Result<Written, String> {
        Written::read(text)
            .ok_or_else(|| format!("expected a step such as `a7a8`, `----` or an announced number, not `{text}`"))
    }

    fn resolve(&self, written: Written) -> Result<PhagesMove, Illegal> {
        let g = self.geometry();
        let cell = |l: CellLabel| g.parse_label(l).ok_or(Illegal::NotACell { cell: l, geometry: g });
        Ok(match written {
            Written::Number(n) => PhagesMove::Announce(n),
            Written::Step(from, to) => PhagesMove::Step { from: cell(from)?, to: cell(to)? },
            // The first stone still to act that may stay (a stuck one), as a record's `----` is
            // read when nothing else tells which; else the first stone, and `check` says why the
            // stay is illegal.
            Written::Stay => {
                let stay = |stone| PhagesMove::Stay { stone };
                let to_act = match self.phase() {
                    Phase::Announce => Vec::new(),
                    _ => self.stones_to_act().collect(),
                };
                let may = to_act.iter().map(|&c| stay(c)).find(|&m| self.check(m).is_ok());
                may.unwrap_or(stay(to_act.first().copied().unwrap_or(self.stones(self.to_move())[0])))
            }
        })
    }

    fn write_move(&self, m: PhagesMove) -> String {
        match m {
            PhagesMove::Step { from, to } => format!("{}{}", self.geometry().label(from), self.geometry().label(to)),
            PhagesMove::Stay { .. } => "----".to_string(),
            PhagesMove::Announce(n) => n.to_string(),
        }
    }
}
