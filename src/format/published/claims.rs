//! Checking what a record claims: its result (a score, a resignation) and its final diagram.

use super::analysis::{analyse, Analysis};
use crate::game::Game;
use crate::games::phages::rules::{Content, Phages, Side};
use crate::record::{Record, Token, TokenKind};
use crate::replay::Replay;
use crate::verdict::{compare_final_position, ClaimCheck, ClaimKind, ClaimStatus, Unchecked};

/// Whether a final score gives the claimed result, and under which counting (RULINGS 8).
fn holds(marks: (u16, u16), stones: u16, winner: Side, score: Option<(u16, u16)>) -> Option<&'static str> {
    let (w, l) = match winner {
        Side::X => marks,
        Side::O => (marks.1, marks.0),
    };
    if w <= l {
        return None;
    }
    match score {
        None => Some("on marked cells"),
        Some(s) if s == (w, l) => Some("on marked cells"),
        Some(s) if s == (w + stones, l + stones) => Some("counting the cells under each side's own stones"),
        Some(_) => None,
    }
}

fn result_words(marks: (u16, u16), stones: u16) -> String {
    let (x, o) = marks;
    let (lead, w, l) = match x.cmp(&o) {
        std::cmp::Ordering::Greater => ("X wins", x, o),
        std::cmp::Ordering::Less => ("O wins", o, x),
        std::cmp::Ordering::Equal => ("a tie", x, o),
    };
    format!(
        "{lead} {w}-{l} on marked cells ({}-{} counting the cells under each side's own stones)",
        w + stones,
        l + stones
    )
}

/// The budget the searches of one file, or one run, share: see [`crate::search::SearchBudget`].
pub use crate::search::SearchBudget;

/// Whether checking the claims of a record searches continuations (RULINGS 9), and so draws on
/// a search budget: a claimed result of a record that replays to its end (without fault, or
/// leniently past its faults) and stops before the game is over.
pub fn needs_search(tokens: &[Token], replay: &Replay<Phages>) -> bool {
    let claim = tokens.iter().find(|t| t.kind.is_claim());
    let claims = claim.is_some_and(|t| matches!(t.kind, TokenKind::Resign | TokenKind::Wins { .. }));
    claims && replay.incomplete().is_none() && ends(replay).any(|p| !p.is_over())
}

/// Where each legal reading of the record ends (RULINGS 5b): the replay's own first.
fn ends(replay: &Replay<Phages>) -> impl Iterator<Item = &Phages> {
    std::iter::once(&replay.position).chain(&replay.readings)
}

/// What a report says of a record whose `----` tokens can be read in several ways (RULINGS 5b):
/// how many readings make every token legal, and whether they differ in ending the game.
pub fn readings_note(replay: &Replay<Phages>) -> Option<String> {
    if replay.readings.is_empty() {
        return None;
    }
    let n = replay.readings.len() + 1;
    let over = ends(replay).filter(|p| p.is_over()).count();
    let end = match over {
        0 => "the game goes on in all of them".to_string(),
        o if o == n => "the game is over in all of them".to_string(),
        o => format!("the game is over in {o} of them and not in the other {}", n - o),
    };
    Some(format!(
        "the record's `----` tokens have {n} legal readings, which differ in which stuck stone stays first in a phase and so in the run of failed moves (RULINGS 5b): {end}"
    ))
}

/// A claim's verdict over every legal reading of the record (RULINGS 5b): confirmed when every
/// reading confirms it, refuted when none does, otherwise open, saying in how many it holds. The
/// readings' own verdicts are listed in a fixed order, so that the report does not depend on the
/// order in which a start lists its stones.
fn over_readings(mut judged: Vec<(ClaimStatus, String)>) -> (ClaimStatus, String) {
    if judged.len() == 1 {
        return judged.remove(0);
    }
    let n = judged.len();
    let holds = judged.iter().filter(|j| j.0 == ClaimStatus::Confirmed).count();
    let fails = judged.iter().filter(|j| j.0 == ClaimStatus::Refuted).count();
    judged.sort_by(|a, b| (a.0.name(), &a.1).cmp(&(b.0.name(), &b.1)));
    let status = match (holds, fails) {
        (h, _) if h == n => ClaimStatus::Confirmed,
        (_, f) if f == n => ClaimStatus::Refuted,
        (h, f) if h > 0 && f > 0 => ClaimStatus::Unchecked(Unchecked::Open),
        // Some readings cannot be judged: the claim is as open as the first of them.
        _ => judged.iter().map(|j| j.0).find(|s| matches!(s, ClaimStatus::Unchecked(_))).unwrap_or(judged[0].0),
    };
    judged.dedup();
    let details = judged.iter().map(|(_, d)| d.as_str()).collect::<Vec<_>>().join("; ");
    let lead = match status {
        ClaimStatus::Confirmed => format!("it holds in every one of the {n} readings of the record's `----` tokens"),
        ClaimStatus::Refuted => format!("it holds in none of the {n} readings of the record's `----` tokens"),
        ClaimStatus::Unchecked(_) => format!(
            "it depends on which stuck stone each `----` names: it holds in {holds} of the {n} readings of the record's `----` tokens"
        ),
    };
    (status, format!("{lead}: {details}"))
}

/// The claims of a record, checked against its replay (a lenient one as replayed, past its
/// violations) and every other legal reading of it (RULINGS 5b); searches of continuations
/// (RULINGS 9) draw on `budget`. The final diagram is judged once: the readings differ only in
/// which stone stayed when, never in the board.
pub fn check(record: &Record, tokens: &[Token], replay: &Replay<Phages>, budget: &mut SearchBudget) -> Vec<ClaimCheck> {
    let mut out = Vec::new();
    let gap = replay.incomplete();
    let position = &replay.position;
    let stones = position.stones_per_side() as u16;
    if let Some(token) = tokens.iter().find(|t| t.kind.is_claim()) {
        let (claimant, score, resigned) = match token.kind {
            TokenKind::Resign => (position.to_move().opponent(), None, true),
            TokenKind::Wins { side, score } => {
                let sides = [Side::X, Side::O];
                let last = replay.last_mover.map_or(position.to_move(), |m| sides[m]);
                (side.map_or(last, super::side), score, false)
            }
            _ => return out,
        };
        // Told only of a game the record stops before its end.
        let stated = || {
            if resigned {
                format!("{} resigns, so {claimant} wins", claimant.opponent())
            } else {
                match score {
                    Some((a, b)) => format!("{claimant} wins {a}-{b}"),
                    None => format!("{claimant} wins"),
                }
            }
        };
        let judge = |position: &Phages, budget: &mut SearchBudget| {
            if position.is_over() {
                let s = position.score();
                let marks = (s.marks[0], s.marks[1]);
                return match holds(marks, stones, claimant, score) {
                    Some(how) => (
                        ClaimStatus::Confirmed,
                        format!("the game is over: {}; the claim holds {how}", result_words(marks, stones)),
                    ),
                    None => (ClaimStatus::Refuted, format!("the game is over: {}", result_words(marks, stones))),
                };
            }
            if let Some(settled) = settled(position, stones, claimant, score, &stated()) {
                return settled;
            }
            match budget.spend(|limits| analyse(position, limits)) {
                Err(why) => (ClaimStatus::Unchecked(Unchecked::SearchLimit), why.to_string()),
                Ok(a) => judge_continuations(&a, stones, claimant, score, &stated()),
            }
        };
        let (status, detail) = match &gap {
            Some(g) => (ClaimStatus::Unchecked(Unchecked::IllegalMoves), g.clone()),
            None => over_readings(ends(replay).map(|p| judge(p, budget)).collect()),
        };
        out.push(
            ClaimCheck {
                kind: ClaimKind::Result,
                span: token.span.clone(),
                text: token.text.to_string(),
                status,
                detail,
                violations_accepted: 0,
            }
            .as_replayed(replay.violations_accepted()),
        );
    }
    if let Some(d) = &record.final_position {
        let (status, detail) = match &gap {
            Some(g) => (ClaimStatus::Unchecked(Unchecked::IllegalMoves), g.clone()),
            None if d.geometry != position.geometry() => {
                (ClaimStatus::Refuted, "the diagram draws a different board".to_string())
            }
            None => {
                let g = position.geometry();
                // The diagram's glyphs are the ones the position draws: no string per cell.
                let glyph = |c: char| match c {
                    'x' => "x",
                    'o' => "o",
                    'X' => "X",
                    'O' => "O",
                    _ => ".",
                };
                compare_final_position(position, d.cells.iter().filter_map(|c| Some((g.parse_label(c.0)?, glyph(c.1)))))
            }
        };
        out.push(ClaimCheck::final_position(d.span.clone(), (status, detail), replay.violations_accepted()));
    }
    out
}

/// A claim on a game that is not over, judged without a search where the counts settle it. A
/// step lands on an empty cell and marks the one it leaves, and nothing else adds or removes a
/// mark: from here each side ends with at least the marks it has, and both sides together gain at
/// most one mark per empty cell. With no empty cell left no stone can move again, and the score
/// stands. `None` when only a search can tell.
fn settled(
    position: &Phages,
    stones: u16,
    claimant: Side,
    score: Option<(u16, u16)>,
    stated: &str,
) -> Option<(ClaimStatus, String)> {
    let g = position.geometry();
    let empty = g.cells().filter(|&c| position.content(c) == Content::Empty).count() as u32;
    let s = position.score();
    let marks = (s.marks[0], s.marks[1]);
    let stops = "the record stops before the game is over, but";
    if empty == 0 {
        let words = result_words(marks, stones);
        return Some(match holds(marks, stones, claimant, score) {
            Some(how) => (
                ClaimStatus::Confirmed,
                format!("{stops} no empty cell is left, so no stone can move again and the score stands: {words}; the claim holds {how} (no search needed)"),
            ),
            None => (
                ClaimStatus::Refuted,
                format!("{stops} no empty cell is left, so no stone can move again and the score stands: {words} (no search needed)"),
            ),
        });
    }
    let (mine, theirs) = (u32::from(s.marks[claimant.index()]), u32::from(s.marks[claimant.opponent().index()]));
    let cells = |n: u32, what: &str| format!("{n} {what} cell{}", if n == 1 { "" } else { "s" });
    let counts = format!(
        "{claimant} has {} and {} {theirs}, with {} left, and each step marks one cell",
        cells(mine, "marked"),
        claimant.opponent(),
        cells(empty, "empty")
    );
    // A final score (claimant's marks, the other side's) that the counts allow, won by the claimant.
    let allowed = |(w, l): (u32, u32)| w > l && w >= mine && l >= theirs && (w - mine) + (l - theirs) <= empty;
    let possible = match score {
        None => mine + empty > theirs,
        Some((a, b)) => {
            let (a, b, stones) = (u32::from(a), u32::from(b), u32::from(stones));
            allowed((a, b)) || (a >= stones && b >= stones && allowed((a - stones, b - stones)))
        }
    };
    if !possible {
        return Some((
            ClaimStatus::Refuted,
            format!("{stops} {counts}: no continuation gives {stated} (no search needed)"),
        ));
    }
    (score.is_none() && mine > theirs + empty).then(|| {
        (ClaimStatus::Confirmed, format!("{stops} {counts}: every continuation gives {stated} (no search needed)"))
    })
}

fn judge_continuations(
    a: &Analysis,
    stones: u16,
    claimant: Side,
    score: Option<(u16, u16)>,
    stated: &str,
) -> (ClaimStatus, String) {
    let giving = a.outcomes.iter().filter(|&&o| holds(o, stones, claimant, score).is_some()).count();
    let margin = |o: &(u16, u16)| o.0 as i32 - o.1 as i32;
    let lo = a.outcomes.iter().map(margin).min().unwrap_or(0);
    let hi = a.outcomes.iter().map(margin).max().unwrap_or(0);
    let n = a.outcomes.len();
    let range = format!(
        "X's final margin in marked cells can be anything from {lo:+} to {hi:+}; with best play {}",
        result_words(a.best_play, stones)
    );
    let searched = format!("{} positions searched", a.positions);
    if giving == n {
        (
            ClaimStatus::Confirmed,
            if n == 1 {
                format!("the record stops before the game is over, and its only reachable final score gives {stated} ({searched})")
            } else {
                format!("the record stops before the game is over, and every one of its {n} reachable final scores gives {stated} ({searched})")
            },
        )
    } else if giving == 0 {
        (
            ClaimStatus::Refuted,
            format!(
                "the record stops before the game is over, and no continuation gives {stated}: {range} ({searched})"
            ),
        )
    } else {
        (
            ClaimStatus::Unchecked(Unchecked::Open),
            format!(
                "the record stops before the game is over, and {giving} of the {n} reachable final scores give {stated}: {range} ({searched})"
            ),
        )
    }
}
