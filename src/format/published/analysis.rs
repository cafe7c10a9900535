//! What play can still reach from a position: used to decide a claimed result when a record
//! stops before the game is over.
//!
//! The search is the one every game uses ([`crate::search`]): exhaustive (every legal
//! continuation), memoised, and bounded by a number of distinct positions and a number of bytes,
//! so that a real endgame is settled quickly and an opening is refused rather than searched for
//! hours or until memory runs out. Every step fills an empty cell and a run of stays ends the
//! game, so play is finite and the positions form a DAG: memoising each position's result is
//! exact. Claims name a score, so the results searched are the final marks of both sides.

use crate::game::Game;
use crate::games::phages::rules::{Phages, Side};
use crate::search::{search, Goal, Limits, Stopped};

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

impl crate::search::Solved for Analysis {
    fn positions(&self) -> usize {
        self.positions
    }
}

/// The final marks of both sides, each side to move preferring its own margin.
struct FinalMarks;

impl Goal<Phages> for FinalMarks {
    type Result = Marks;

    fn result(&self, end: &Phages) -> Marks {
        marks(end)
    }

    fn best_play(&self) -> bool {
        true
    }

    fn prefers(&self, at: &Phages, a: Marks, b: Marks) -> bool {
        preference(at.to_move(), a) > preference(at.to_move(), b)
    }
}

/// Searches every legal continuation of `position` within `limits`. A position that is already
/// over needs no search and is always answered.
pub fn analyse(position: &Phages, limits: Limits) -> Result<Analysis, Stopped> {
    let found = search(position, &FinalMarks, limits)?;
    Ok(Analysis {
        best_play: found.best.unwrap_or_else(|| marks(position)),
        outcomes: found.results,
        positions: found.positions,
    })
}

fn marks(position: &Phages) -> Marks {
    let m = position.score().marks;
    (m[0], m[1])
}

/// How much `side` likes a final score: its margin first, then its own marks.
fn preference(side: Side, (x, o): Marks) -> (i32, u16) {
    let (own, theirs) = match side {
        Side::X => (x, o),
        Side::O => (o, x),
    };
    (own as i32 - theirs as i32, own)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::phages::PhagesMove;
    use crate::geometry::{Cell, CellLabel, Geometry};
    use crate::search::{Bound, DEFAULT_SEARCH_BYTES};

    /// Limits of `positions` positions and the default byte budget.
    fn at_most(positions: usize) -> Limits {
        Limits::new(positions, DEFAULT_SEARCH_BYTES)
    }

    fn cell(geo: Geometry, s: &str) -> Cell {
        geo.parse_label(CellLabel::parse(s).unwrap()).unwrap()
    }

    /// Plays a line written as numbers, `a1c1`-style steps and `-a2`-style stays.
    fn after(geo: Geometry, x: &[&str], o: &[&str], line: &str) -> Phages {
        let cells = |v: &[&str]| v.iter().map(|s| cell(geo, s)).collect::<Vec<_>>();
        let mut p = Phages::new(geo, &cells(x), &cells(o), Side::X).unwrap();
        for w in line.split_whitespace() {
            let m = if let Ok(n) = w.parse() {
                PhagesMove::Announce(n)
            } else if let Some(stone) = w.strip_prefix('-') {
                PhagesMove::Stay { stone: cell(geo, stone) }
            } else {
                PhagesMove::Step { from: cell(geo, &w[..2]), to: cell(geo, &w[2..]) }
            };
            p.play(m).unwrap_or_else(|e| panic!("{w}: {e}"));
        }
        p
    }

    /// 3x3, X to announce with 2 marks each:
    /// ```text
    /// x . x 1.
    /// . . X 2.
    /// o O o 3.
    /// ```
    fn three_by_three_endgame() -> Phages {
        after(Geometry::Square { size: 3 }, &["a1"], &["c3"], "2 a1c1 c3a3 1 a3b3 c1c2")
    }

    #[test]
    fn a_finished_game_reaches_only_its_own_marks() {
        let geo = Geometry::Hex { side: 2 };
        let p = after(geo, &["a2"], &["e2"], "1 a2c2 e2d3 1 d3b3 c2b1 1 b1d1 -b3 1 -b3");
        // X's d1 is shut in, so its stay is forced and ends the game with O's last stay.
        assert!(p.is_over());
        let want = Analysis { outcomes: vec![(3, 2)], best_play: (3, 2), positions: 1 };
        assert_eq!(analyse(&p, at_most(1000)), Ok(want.clone()));
        // Nothing is searched, so even a zero bound answers.
        assert_eq!(analyse(&p, at_most(0)), Ok(want));
    }

    #[test]
    fn endgame_outcomes_match_a_hand_count() {
        // X announces 1 or 2 (either lets c2 move).
        // 2: X c2-a2 (3 marks). O's b3 can only go b1 (3 marks), then only 1 moves it: b1-b2 (4).
        //    X's a2 is now shut in (b2 is O's stone and blocks a2-c2), O's b2 has no empty cell at
        //    1 or 2, so everyone stays: (3, 4).
        // 1: X c2-b2 (3). O's b3 is shut in (b2 blocks b3-b1), so O stays and announces n.
        //    n=2: X's b2 cannot move 2 on a 3x3 board, so all stones have failed: (3, 2).
        //    n=1: X b2 goes a2 or b1 (4 marks), and is shut in there. X announces m and stays.
        //      From b1, O's only cell b1 is taken: O stays whatever m, (4, 2).
        //      From a2, m=1 leaves O stuck, (4, 2); m=2 lets O go b3-b1 across X's mark on b2
        //      (marks do not block), O has 3 marks and then everyone is stuck: (4, 3).
        let a = analyse(&three_by_three_endgame(), at_most(10_000)).unwrap();
        assert_eq!(a.outcomes, vec![(3, 2), (3, 4), (4, 2), (4, 3)]);
    }

    #[test]
    fn best_play_is_the_movers_best_reachable_margin() {
        // From the hand count above. After X announces 1, O chooses: n=2 ends at (3, 2), margin
        // -1 for O; n=1 lets X pick (4, 2), margin -2 for O. So O announces 2.
        let p = three_by_three_endgame();
        let line = "2 a1c1 c3a3 1 a3b3 c1c2 1 c2b2 -b3";
        let o_to_announce = after(Geometry::Square { size: 3 }, &["a1"], &["c3"], line);
        assert_eq!(o_to_announce.to_move(), Side::O);
        assert_eq!(analyse(&o_to_announce, at_most(10_000)).unwrap().best_play, (3, 2));
        // X then compares 1, worth (3, 2) = +1, with 2, worth (3, 4) = -1, and announces 1.
        let a = analyse(&p, at_most(10_000)).unwrap();
        assert_eq!(a.best_play, (3, 2));
        assert!(a.outcomes.contains(&a.best_play));
        // (4, 2) is reachable and better for X, but only if O helps.
        assert!(a.outcomes.contains(&(4, 2)));
    }

    #[test]
    fn the_bound_stops_the_search_and_says_where() {
        let p = Phages::from_labels(Geometry::Hex { side: 2 }, &["a2"], &["e2"], Side::X).unwrap();
        let stopped = analyse(&p, at_most(1)).unwrap_err();
        assert_eq!((stopped.bound, stopped.positions), (Bound::Positions, 1));
        let full = analyse(&p, at_most(usize::MAX)).unwrap();
        assert!(full.positions > 100);
        assert_eq!(analyse(&p, at_most(full.positions)), Ok(full.clone()));
        let stopped = analyse(&p, at_most(full.positions - 1)).unwrap_err();
        assert_eq!((stopped.bound, stopped.positions), (Bound::Positions, full.positions - 1));
    }

    #[test]
    fn the_byte_budget_stops_the_search_whatever_the_position_bound() {
        let p = Phages::from_labels(Geometry::Hex { side: 2 }, &["a2"], &["e2"], Side::X).unwrap();
        let whole = crate::search::search(&p, &FinalMarks, at_most(usize::MAX)).unwrap();
        assert!(whole.bytes > 0 && whole.bytes < DEFAULT_SEARCH_BYTES, "{}", whole.bytes);
        // Half the bytes the whole search held stop it, before its end, within the budget.
        let budget = whole.bytes / 2;
        let stopped = analyse(&p, Limits::new(usize::MAX, budget)).unwrap_err();
        assert_eq!(stopped.bound, Bound::Bytes);
        assert!(stopped.bytes <= budget && stopped.positions < whole.positions, "{stopped:?}");
        // Exactly the bytes it needs let it end.
        let exact = analyse(&p, Limits::new(usize::MAX, whole.bytes)).unwrap();
        assert_eq!(exact.positions, whole.positions);
    }

    /// The same answers from a plain tree walk, with no transposition table to get wrong.
    fn walk(p: &Phages, outcomes: &mut Vec<Marks>) -> Marks {
        let moves = p.legal_moves();
        if moves.is_empty() {
            outcomes.push(marks(p));
            return marks(p);
        }
        let values: Vec<Marks> = moves
            .into_iter()
            .map(|m| {
                let mut c = p.clone();
                c.play(m).unwrap();
                walk(&c, outcomes)
            })
            .collect();
        values.into_iter().max_by_key(|&v| preference(p.to_move(), v)).unwrap()
    }

    #[test]
    fn the_table_changes_nothing_but_the_work() {
        for p in [
            Phages::from_labels(Geometry::Square { size: 3 }, &["a1"], &["c3"], Side::X).unwrap(),
            Phages::from_labels(Geometry::Hex { side: 2 }, &["a2"], &["e2"], Side::X).unwrap(),
        ] {
            let mut outcomes = Vec::new();
            let best = walk(&p, &mut outcomes);
            outcomes.sort_unstable();
            outcomes.dedup();
            let a = analyse(&p, at_most(100_000)).unwrap();
            assert_eq!((a.outcomes, a.best_play), (outcomes, best));
        }
    }
}
