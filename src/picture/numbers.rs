//! Numbered diagrams (`show --numbers`, `render --numbers`): on each cell the number of the move
//! played there, as go kifu write them, found from the scenes of a replay and knowing no rule.
//!
//! A move is played at the cells its signs name ([`Sign`]): a placement at its ring; a step that
//! leaves something behind (a phages stone's mark, a Petrify block, a Quarod piece swapped in) at
//! the cell it leaves, and at the cell it lands on if something stood there (a capture), not where
//! a stone moves on to an empty cell (a phages stone carries no number: the marks it leaves do); a
//! piece that moves off its cell, leaving it empty (Splinter Quad's), at the cell it reaches, its
//! path kept as a [`Trail`], and the pieces it pushes along with it. A cell played at again, or whose figure changes or goes, no longer shows
//! its number: that move is noted under the diagram ([`Numbers::hidden`]).

use std::collections::BTreeMap;
use std::ops::Range;

use crate::geometry::{Cell, Geometry};
use crate::render::model::{Board, Figure, Numbers, Scene, Sign, Tone, Trail};

/// Which moves a numbered diagram numbers, by the record's own move numbers: from `from` to `to`,
/// both included; `None` for from the first, to the last.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct NumberRange {
    /// The first move number drawn.
    pub from: Option<u32>,
    /// The last move number drawn; past the record's last move, its last.
    pub to: Option<u32>,
}

/// Why a range numbers no move.
#[derive(thiserror::Error, Clone, PartialEq, Eq, Debug)]
pub enum RangeError {
    /// The range ends before it starts.
    #[error("the range from move {from} to move {to} ends before it starts")]
    Reversed {
        /// Its first number.
        from: u32,
        /// Its last number.
        to: u32,
    },
    /// The record plays no move (before its first illegal one, if it has one).
    #[error("the record plays no move to number")]
    NoMoves,
    /// The range starts past the record's last move.
    #[error("there is no move {from}: the last move played is numbered {last}")]
    PastTheEnd {
        /// Its first number.
        from: u32,
        /// The last move's number.
        last: u32,
    },
    /// No move played has a number in the range (the record skips those numbers).
    #[error("no move played is numbered from {from} to {to}")]
    Empty {
        /// Its first number.
        from: u32,
        /// Its last number.
        to: u32,
    },
}

/// The moves `range` numbers, among moves numbered `turns` in the order played: their indices.
pub fn moves_in(turns: &[u32], range: NumberRange) -> Result<Range<usize>, RangeError> {
    if let (Some(from), Some(to)) = (range.from, range.to) {
        if from > to {
            return Err(RangeError::Reversed { from, to });
        }
    }
    let last = *turns.last().ok_or(RangeError::NoMoves)?;
    let from = range.from.unwrap_or(0);
    let to = range.to.unwrap_or(u32::MAX);
    if from > last {
        return Err(RangeError::PastTheEnd { from, last });
    }
    let first = turns.iter().position(|&t| t >= from).unwrap_or(turns.len());
    let end = turns.iter().rposition(|&t| t <= to).map_or(0, |k| k + 1);
    if first >= end {
        return Err(RangeError::Empty { from, to });
    }
    Ok(first..end)
}

/// The figure on `cell` of `board`, whose figures are in cell order.
fn figure_at(board: &Board, cell: Cell) -> Option<Figure> {
    board.figures.binary_search_by_key(&cell, |&(c, _)| c).ok().map(|k| board.figures[k].1)
}

/// The cells whose figure differs between two boards of one shape, in cell order.
fn changed(before: &Board, after: &Board) -> Vec<Cell> {
    let (mut a, mut b) = (before.figures.iter().peekable(), after.figures.iter().peekable());
    let mut out = Vec::new();
    loop {
        match (a.peek(), b.peek()) {
            (None, None) => return out,
            (Some(&&(c, _)), None) => {
                out.push(c);
                a.next();
            }
            (None, Some(&&(c, _))) => {
                out.push(c);
                b.next();
            }
            (Some(&&(ca, fa)), Some(&&(cb, fb))) => {
                if ca == cb {
                    if fa != fb {
                        out.push(ca);
                    }
                    a.next();
                    b.next();
                } else if ca < cb {
                    out.push(ca);
                    a.next();
                } else {
                    out.push(cb);
                    b.next();
                }
            }
        }
    }
}

/// The numbering of a record's moves, played one at a time over its scenes: `scenes[k]` is the
/// position before move `k`, `scenes[k + 1]` the one after it, drawn with its signs.
pub struct Numbering<'s> {
    scenes: &'s [Scene],
    turns: &'s [u32],
    /// The number each cell shows.
    labels: BTreeMap<Cell, u32>,
    hidden: Vec<(u32, Cell)>,
    trails: Vec<Trail>,
    /// The trail of the piece standing on a cell.
    heads: BTreeMap<Cell, usize>,
    first: Option<u32>,
    last: u32,
}

impl<'s> Numbering<'s> {
    /// A numbering of no move yet, of the moves from `scenes` numbered `turns` (one fewer).
    pub fn new(scenes: &'s [Scene], turns: &'s [u32]) -> Numbering<'s> {
        Numbering {
            scenes,
            turns,
            labels: BTreeMap::new(),
            hidden: Vec::new(),
            trails: Vec::new(),
            heads: BTreeMap::new(),
            first: None,
            last: 0,
        }
    }

    /// What is numbered so far.
    pub fn numbers(&self) -> Numbers {
        Numbers {
            first: self.first.unwrap_or(self.last),
            last: self.last,
            cells: self.labels.iter().map(|(&c, &n)| (c, n)).collect(),
            trails: self.trails.clone(),
            hidden: self.hidden.clone(),
        }
    }

    /// Numbers move `k`, which leads from `scenes[k]` to `scenes[k + 1]`.
    pub fn play(&mut self, k: usize) {
        let (Some(t), Some(before), Some(after)) = (self.turns.get(k), self.scenes.get(k), self.scenes.get(k + 1))
        else {
            return;
        };
        let t = *t;
        self.first.get_or_insert(t);
        self.last = t;
        let (before, after) = (&before.board, &after.board);
        let mut played = Vec::new();
        let mut play = |c: Cell| {
            if !played.contains(&c) {
                played.push(c);
            }
        };
        let mut moved: Vec<(Cell, Option<Cell>)> = Vec::new();
        for &(sign, tone) in &self.scenes[k + 1].signs {
            match sign {
                _ if tone != Tone::Last => {}
                Sign::Ring(c) if figure_at(after, c).is_some() => play(c),
                // What the piece leaves behind is where the move was played, and what it takes
                // where it lands (a capture; a piece swapped in, as the arrow back says).
                Sign::Arrow { from, to } if figure_at(after, from).is_some() => {
                    play(from);
                    if figure_at(before, to).is_some() && figure_at(after, to).is_some() {
                        play(to);
                    }
                }
                Sign::Arrow { from, to }
                    if figure_at(before, from).is_some_and(|f| figure_at(after, to) == Some(f)) =>
                {
                    moved.push((from, Some(to)));
                    pushed(after.geometry, before, after, from, to, &mut moved);
                }
                _ => {}
            }
        }
        self.moved(t, before, &moved);
        let targets: Vec<Cell> = moved.iter().filter_map(|&(_, to)| to).collect();
        for &c in &played {
            if let Some(h) = self.heads.remove(&c) {
                self.trails[h].standing = false;
            }
            if let Some(old) = self.labels.insert(c, t) {
                self.hidden.push((old, c));
            }
        }
        // What stands on a cell changed, or went, with no move played there: its number is the
        // number of something else.
        for c in changed(before, after) {
            if played.contains(&c) || targets.contains(&c) {
                continue;
            }
            let label = self.labels.remove(&c);
            match self.heads.remove(&c) {
                // The trail's last step says it.
                Some(h) => self.trails[h].standing = false,
                None => self.hidden.extend(label.map(|n| (n, c))),
            }
        }
    }

    /// Moves the pieces of `moved` (from, to; to `None` off the board) along their trails, each
    /// numbered `t` where it arrives.
    fn moved(&mut self, t: u32, before: &Board, moved: &[(Cell, Option<Cell>)]) {
        // Taken off their cells first: a piece may move onto the cell another leaves.
        let taken: Vec<_> = moved.iter().map(|&(a, b)| (a, b, self.labels.remove(&a), self.heads.remove(&a))).collect();
        for (a, b, label, head) in taken {
            match b {
                Some(b) => {
                    let h = head.unwrap_or_else(|| {
                        let owner = figure_at(before, a).and_then(|f| f.owner);
                        self.trails.push(Trail { owner, steps: vec![(a, label)], standing: true });
                        self.trails.len() - 1
                    });
                    self.trails[h].steps.push((b, Some(t)));
                    self.heads.insert(b, h);
                    self.labels.insert(b, t);
                }
                None => match head {
                    Some(h) => self.trails[h].standing = false,
                    None => self.hidden.extend(label.map(|n| (n, a))),
                },
            }
        }
    }
}

/// The pieces a piece moving from `from` to `to` pushes on in the same direction: each piece in
/// its way that stands one step further after the move, or off the board past its edge.
fn pushed(g: Geometry, before: &Board, after: &Board, from: Cell, to: Cell, moved: &mut Vec<(Cell, Option<Cell>)>) {
    let (dc, dr) = (i32::from(g.col(to)) - i32::from(g.col(from)), i32::from(g.row(to)) - i32::from(g.row(from)));
    let mut at = to;
    while let Some(f) = figure_at(before, at) {
        match g.cell_at(i32::from(g.col(at)) + dc, i32::from(g.row(at)) + dr) {
            None => {
                moved.push((at, None));
                return;
            }
            Some(next) if figure_at(after, next) == Some(f) => {
                moved.push((at, Some(next)));
                at = next;
            }
            Some(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_finds_its_moves() {
        let turns = [1, 1, 2, 2, 3, 5, 5];
        let r = |from, to| moves_in(&turns, NumberRange { from, to });
        assert_eq!(r(None, None), Ok(0..7));
        assert_eq!(r(Some(2), Some(3)), Ok(2..5));
        assert_eq!(r(Some(3), Some(99)), Ok(4..7));
        assert_eq!(r(Some(4), Some(4)), Err(RangeError::Empty { from: 4, to: 4 }));
        assert_eq!(r(Some(3), Some(2)), Err(RangeError::Reversed { from: 3, to: 2 }));
        assert_eq!(r(Some(6), None), Err(RangeError::PastTheEnd { from: 6, last: 5 }));
        assert_eq!(moves_in(&[], NumberRange::default()), Err(RangeError::NoMoves));
    }
}
