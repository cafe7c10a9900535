//! What play can still reach from a position: used to decide a claimed result when a record
//! stops before the game is over.
//!
//! The search is exhaustive (every legal continuation) and bounded by a number of distinct
//! positions, so that a real endgame is settled quickly and an opening is refused rather than
//! searched for hours. Every step fills an empty cell and a run of stays ends the game, so play
//! is finite and the positions form a DAG: memoising each position's result is exact.

use std::collections::HashMap;
use std::rc::Rc;

use super::rules::{Phages, Side};
use crate::game::Game;

/// Final marks: (X marks, O marks).
type Marks = (u16, u16);

/// Every final score play can still reach from `position`, and the value of best play.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Analysis {
    /// Every reachable final (X marks, O marks), sorted, without duplicates.
    pub outcomes: Vec<(u16, u16)>,
    /// The final marks when both sides play to maximise their own margin (X marks - O marks for
    /// X, the reverse for O). A margin fixes the opponent's marks once one's own are known, so
    /// ties are broken towards more of the mover's own marks, which leaves no tie at all.
    pub best_play: (u16, u16),
    /// Distinct positions searched.
    pub positions: usize,
}

/// The search was stopped by its bound: `positions` distinct positions had been solved, one more
/// than allowed, before the position asked about.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the search was stopped after {positions} distinct positions, before deciding the result")]
pub struct SearchLimit {
    pub positions: usize,
}

/// Searches every legal continuation of `position`, storing at most `max_positions` distinct
/// positions. A position that is already over needs no search and is always answered.
pub fn analyse(position: &Phages, max_positions: usize) -> Result<Analysis, SearchLimit> {
    if position.is_over() {
        return Ok(Analysis { outcomes: vec![marks(position)], best_play: marks(position), positions: 1 });
    }
    let mut search = Search { table: HashMap::new(), max_positions };
    let root = search.solve(position)?;
    Ok(Analysis { outcomes: root.outcomes.to_vec(), best_play: root.best, positions: search.table.len() })
}

fn marks(position: &Phages) -> Marks {
    let m = position.score().marks;
    (m[0], m[1])
}

/// A position's result. Sets are shared because many positions reach exactly the outcomes of
/// one of their children (forced stays, single moves).
#[derive(Clone)]
struct Entry {
    outcomes: Rc<[Marks]>,
    best: Marks,
}

struct Search {
    table: HashMap<Phages, Entry>,
    max_positions: usize,
}

impl Search {
    fn solve(&mut self, position: &Phages) -> Result<Entry, SearchLimit> {
        if let Some(entry) = self.table.get(position) {
            return Ok(entry.clone());
        }
        let moves = position.legal_moves();
        // An empty move list on a game not over cannot arise from a valid setup; scoring it as
        // final keeps the search total instead of panicking.
        let entry = if moves.is_empty() {
            Entry { outcomes: Rc::from([marks(position)]), best: marks(position) }
        } else {
            let mover = position.to_move();
            let mut merged: Vec<Marks> = Vec::new();
            let mut largest: Option<Rc<[Marks]>> = None;
            let mut best: Option<Marks> = None;
            for m in moves {
                let mut child = position.clone();
                child.play_unchecked(m);
                let result = self.solve(&child)?;
                merged.extend_from_slice(&result.outcomes);
                // `Option::is_none_or` is newer than the crate's rust-version (1.80).
                if largest.as_ref().map_or(true, |l| l.len() < result.outcomes.len()) {
                    largest = Some(result.outcomes);
                }
                if best.map_or(true, |b| preference(mover, result.best) > preference(mover, b)) {
                    best = Some(result.best);
                }
            }
            merged.sort_unstable();
            merged.dedup();
            // The union contains every child's set, so if it is no larger than the largest one it
            // is that set: share it rather than store a copy.
            let outcomes = match largest {
                Some(l) if l.len() == merged.len() => l,
                _ => Rc::from(merged),
            };
            Entry { outcomes, best: best.unwrap_or_else(|| marks(position)) }
        };
        if self.table.len() >= self.max_positions {
            return Err(SearchLimit { positions: self.table.len() + 1 });
        }
        self.table.insert(position.clone(), entry.clone());
        Ok(entry)
    }
}

/// How much `side` likes a final score: its margin first, then its own marks.
fn preference(side: Side, (x, o): Marks) -> (i32, u16) {
    let (own, theirs) = match side {
        Side::X => (x, o),
        Side::O => (o, x),
    };
    (own as i32 - theirs as i32, own)
}
