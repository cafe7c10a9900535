//! The verdict on one record, independent of the game: what the reports print.

use serde::Serialize;

use crate::game::{BoardView, GameKind};
use crate::geometry::Cell;
use crate::record::Span;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Every move is legal and no claim is refuted.
    Valid,
    /// An illegal move, or a claim the replay refutes.
    Illegal,
    /// The record does not follow the notation.
    SyntaxError,
    /// The record cannot be judged: the rules it was played under are not known.
    Undecided,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemKind {
    Syntax,
    Illegal,
    Claim,
    Undecided,
}

/// One thing wrong with a record, at a span of the file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Problem {
    pub kind: ProblemKind,
    pub span: Span,
    pub token: String,
    pub message: String,
    /// Legal moves at that point, in the notation.
    pub legal: Vec<String>,
    /// The board at that moment, as a diagram.
    pub board: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimKind {
    Result,
    FinalPosition,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimStatus {
    Confirmed,
    Refuted,
    Unchecked,
}

/// A claim the record makes (a result, a resignation, a final diagram) and what the replay says of it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ClaimCheck {
    pub kind: ClaimKind,
    pub span: Span,
    pub text: String,
    pub status: ClaimStatus,
    pub detail: String,
}

/// Everything referee has to say about one record.
#[derive(Clone, PartialEq, Debug)]
pub struct Verdict {
    /// 1-based position among the file's records.
    pub index: usize,
    pub span: Span,
    pub game: GameKind,
    pub status: Status,
    pub problems: Vec<Problem>,
    pub claims: Vec<ClaimCheck>,
    /// Moves played by the replay.
    pub moves: usize,
    /// Whether the game was over where the replay ended.
    pub game_over: bool,
    /// The score where the replay ended, in words and as JSON.
    pub score_text: Option<String>,
    pub score: serde_json::Value,
    /// What the reader should know beyond the problems (conventions used, defaults assumed).
    pub notes: Vec<String>,
}

/// Checks a final-position diagram, one glyph per cell, against the position the replay reached.
pub fn compare_final_position<G: BoardView>(position: &G, shown: &[(Cell, &str)]) -> (ClaimStatus, String) {
    let g = position.geometry();
    let diffs: Vec<String> = shown
        .iter()
        .filter(|(c, glyph)| position.glyph(*c) != *glyph)
        .map(|(c, glyph)| format!("{} shows {glyph}, the replay has {}", g.label(*c), position.glyph(*c)))
        .collect();
    if diffs.is_empty() {
        return (ClaimStatus::Confirmed, format!("all {} cells match the replay", shown.len()));
    }
    const LISTED: usize = 6;
    let more = if diffs.len() > LISTED { format!(" and {} more", diffs.len() - LISTED) } else { String::new() };
    (
        ClaimStatus::Refuted,
        format!("{} cells differ: {}{more}", diffs.len(), diffs[..diffs.len().min(LISTED)].join("; ")),
    )
}
