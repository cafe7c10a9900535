//! Splinter Quad move tokens.
//!
//! `d4e5` is the piece on d4 stepping to e5 (the line in front of it is pushed along). When the
//! move splits the pieces into equal largest groups, the token adds `/` and a square of the group
//! that stays: `d4e5/f7`. That `/square` is written exactly when there is a choice: if the pieces
//! of a player who goes out leave the board and the rest split into equal largest groups again, a
//! second `/square` says which of those stays (`d4e5/f7/c3`), and so on, in the order the ties
//! come. There is no `pass`: a player always has a step to make (see [`super::rules`]).
//!
//! Reading is in two stages: [`parse`] checks the syntax alone; [`Notation::resolve`] finds the
//! squares on the board, and [`Game::check`] whether the move and its choices are legal.
//!
//! [`Notation::resolve`]: crate::game::Notation::resolve
//! [`Game::check`]: crate::game::Game::check

use std::fmt;

use super::rules::{Illegal, Splinter, SplinterMove, MAX_CHOICES};
use crate::geometry::{Cell, CellLabel, Geometry};

/// A move as written, before it meets a board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Written {
    /// The square of the mover's piece.
    pub from: CellLabel,
    /// The neighbouring square it slides to.
    pub to: CellLabel,
    /// The `/square`s, in order; unused slots are `None`.
    pub keep: [Option<CellLabel>; MAX_CHOICES],
}

impl fmt::Display for Written {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        for c in self.keep.iter().map_while(|c| *c) {
            write!(f, "/{c}")?;
        }
        Ok(())
    }
}

const EXPECTED: &str = "expected the square of a piece and the square it steps to, like d4e5, then, if the move \
                        splits the pieces into equal largest groups, `/` and a square of the group that stays, like \
                        d4e5/f7";

/// Reads a token's syntax: `d4e5`, `d4e5/f7`, `d4e5/f7/c3`.
pub fn parse(text: &str) -> Result<Written, String> {
    plain_step(text.as_bytes()).map_or_else(|| parse_in_full(text), Ok)
}

/// [`parse`], for any token.
fn parse_in_full(text: &str) -> Result<Written, String> {
    let not = |why: &str| format!("`{text}` is not a Splinter Quad move: {why}");
    if text == "pass" {
        return Err(not("there is no passing, since a player always has a step to make"));
    }
    // The step, then the `/square`s, if any (found byte by byte: tokens are a few bytes long).
    let slash = text.bytes().position(|b| b == b'/');
    let step = &text[..slash.unwrap_or(text.len())];
    let parts = slash.into_iter().flat_map(|i| text[i + 1..].split('/'));
    let bytes = step.as_bytes();
    if !bytes.first().is_some_and(u8::is_ascii_lowercase) {
        return Err(not(EXPECTED));
    }
    // The first square ends with its digits; the second starts with the next letter.
    let end = 1 + bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    let label = |s: &str| CellLabel::parse(s).ok_or_else(|| not(&format!("`{s}` is not a square; {EXPECTED}")));
    let from = label(&step[..end])?;
    if end == step.len() {
        return Err(not(&format!("a move names two squares; {EXPECTED}")));
    }
    let to = label(&step[end..])?;
    let mut keep = [None; MAX_CHOICES];
    for (i, part) in parts.enumerate() {
        if i >= MAX_CHOICES {
            return Err(not("a move meets at most three ties between largest groups, so it has at most three `/`"));
        }
        if part.is_empty() {
            return Err(not(&format!("a `/` is followed by a square of the group that stays; {EXPECTED}")));
        }
        keep[i] = Some(label(part)?);
    }
    Ok(Written { from, to, keep })
}

/// A token that is two squares and nothing else, as most are (`d4e5`, `a10b11`), read byte by
/// byte; `None` for any other, which [`parse`] reads in full (and reads these alike).
fn plain_step(text: &[u8]) -> Option<Written> {
    let (from, rest) = CellLabel::read(text)?;
    let (to, rest) = CellLabel::read(rest)?;
    rest.is_empty().then_some(Written { from, to, keep: [None; MAX_CHOICES] })
}

/// Writes a move as a token (the inverse of [`parse`]).
pub fn write(g: Geometry, m: SplinterMove) -> String {
    let mut out = format!("{}{}", g.label(m.from), g.label(m.to));
    for c in m.choices() {
        out.push_str(&format!("/{}", g.label(c)));
    }
    out
}

impl crate::game::Notation for Splinter {
    type Written = Written;

    fn parse_move(text: &str) -> Result<Written, String> {
        parse(text)
    }

    fn resolve(&self, written: Written) -> Result<SplinterMove, Illegal> {
        let g = self.geometry();
        let cell = |l: CellLabel| g.parse_label(l).ok_or(Illegal::OffBoard { cell: l, size: self.size() });
        let from = cell(written.from)?;
        let to = match g.parse_label(written.to) {
            Some(to) => to,
            None => return Err(self.off_the_board(from, written.from, written.to)),
        };
        let mut m = SplinterMove::step(from, to);
        for (slot, l) in m.keep.iter_mut().zip(written.keep) {
            *slot = l.map(cell).transpose()?;
        }
        Ok(m)
    }

    fn write_move(&self, m: SplinterMove) -> String {
        write(self.geometry(), m)
    }

    const WRITES_APART: bool = true;
}

impl Splinter {
    /// Why a move from the square `from` (on the board, labelled `from_label`) to `to`, off the
    /// board, is illegal, in the order [`Game::check`](crate::game::Game::check) would find it were `to` a square: a
    /// square without the mover's piece, then a square that is no neighbour, and else a step of the
    /// mover's own piece off the board. All three break the step's rule; only a square named off
    /// the board where no step is at stake (`a11a10`, `/k1`) breaks the board's.
    fn off_the_board(&self, from: Cell, from_label: CellLabel, to: CellLabel) -> Illegal {
        if self.piece(from).map(|p| p.player) != Some(self.to_move()) {
            return Illegal::NoPiece { player: self.to_move(), cell: from_label };
        }
        let neighbour = from_label.col.abs_diff(to.col) <= 1 && from_label.row.abs_diff(to.row) <= 1;
        match neighbour {
            true => Illegal::StepsOff { from: from_label, to, size: self.size() },
            false => Illegal::NotAStep { from: from_label, to },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(s: &str) -> CellLabel {
        CellLabel::parse(s).unwrap()
    }

    #[test]
    fn tokens_read_back() {
        let w = |from, to, keep: &[&str]| {
            let mut k = [None; MAX_CHOICES];
            for (slot, s) in k.iter_mut().zip(keep) {
                *slot = Some(l(s));
            }
            Written { from: l(from), to: l(to), keep: k }
        };
        assert_eq!(parse("d4e5"), Ok(w("d4", "e5", &[])));
        assert_eq!(parse("j10i9"), Ok(w("j10", "i9", &[])));
        assert_eq!(parse("d4e5/f7"), Ok(w("d4", "e5", &["f7"])));
        assert_eq!(parse("d4e5/f7/c3/a1"), Ok(w("d4", "e5", &["f7", "c3", "a1"])));
        assert_eq!(parse("a10b11"), Ok(w("a10", "b11", &[])));
        for tok in ["d4e5", "a10b11/c12", "d4e5/f7/c3"] {
            assert_eq!(parse(tok).unwrap().to_string(), tok);
        }
        for bad in ["", "d4", "d4e", "D4e5", "d4e5/", "d4e5//f7", "d4-e5", "d4e5/f7/c3/a1/b2", "d0e5", "4d5e", "pass"] {
            assert!(parse(bad).is_err(), "{bad} was read");
        }
        // The quick reading of two squares agrees with the full one on every token it reads, and
        // leaves the rest (three digits, a zero first, anything after) to it.
        for tok in ["d4e5", "a10b11", "z99a1", "a123b4", "d0e5", "d4e05", "d4e5x", "d4e5/f7", "pass", "d4E5", "a1b"] {
            if let Some(quick) = plain_step(tok.as_bytes()) {
                assert_eq!(parse_in_full(tok), Ok(quick), "{tok}");
            }
        }
        for tok in ["a123b4", "d0e5", "d4e05", "d4e5x", "d4e5/f7", "pass", "d4E5", "a1b"] {
            assert_eq!(plain_step(tok.as_bytes()), None, "{tok}");
            assert_eq!(parse(tok), parse_in_full(tok), "{tok}");
        }
        // And on every token of up to six characters from a few that matter.
        let chars = b"az019/A";
        let mut tokens = vec![String::new()];
        for _ in 0..6 {
            let longer: Vec<String> =
                tokens.iter().flat_map(|t| chars.iter().map(move |&c| format!("{t}{}", c as char))).collect();
            for tok in &longer {
                assert_eq!(parse(tok), parse_in_full(tok), "{tok}");
            }
            tokens = longer;
        }
    }
}
