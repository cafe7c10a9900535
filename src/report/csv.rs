//! CSV: one row per record (and per file that could not be read or holds no record) with the
//! verdict's columns, for a spreadsheet or a data frame. The columns are the JSON line's fields
//! that fit in a cell: the first problem of the main line and the record's result claim stand
//! for the lists (the JSON lines give them all).

use super::{status_name, FileProblem, Source};
use crate::verdict::{ClaimKind, ProblemKind, Verdict};

/// The columns, in order: the first row of the output.
pub const CSV_COLUMNS: [&str; 19] = [
    "file",
    "index",
    "line",
    "game",
    "status",
    "moves",
    "game_over",
    "winner",
    "score",
    "position",
    "problems",
    "problem_kind",
    "problem_line",
    "problem_column",
    "problem_token",
    "problem_message",
    "problem_rule",
    "claim",
    "claim_status",
];

/// The first row: the columns' names.
pub fn csv_header() -> String {
    row(CSV_COLUMNS.iter().map(|c| c.to_string()))
}

/// A record's row.
pub fn csv_row(source: &Source, v: &Verdict) -> String {
    let first = v.problems.iter().find(|p| p.variation.is_none()).or(v.problems.first());
    let at = first.map(|p| source.line_col(p.span.start));
    let claim = v.claims.iter().find(|c| c.kind == ClaimKind::Result);
    let kind = first.map(|p| match p.kind {
        ProblemKind::Syntax => "syntax",
        ProblemKind::Illegal => "illegal",
        ProblemKind::Claim => "claim",
        ProblemKind::Undecided => "undecided",
    });
    row([
        source.name().to_string(),
        v.index.to_string(),
        source.line_col(v.span.start).0.to_string(),
        v.game.map(|g| g.name).unwrap_or_default().to_string(),
        status_name(v.status).to_string(),
        v.moves.to_string(),
        v.game_over.to_string(),
        v.winner.clone().unwrap_or_default(),
        score(&v.score),
        v.position.clone().unwrap_or_default(),
        v.problems.len().to_string(),
        kind.unwrap_or_default().to_string(),
        at.map(|a| a.0.to_string()).unwrap_or_default(),
        at.map(|a| a.1.to_string()).unwrap_or_default(),
        first.map(|p| p.token.clone()).unwrap_or_default(),
        first.map(|p| p.message.clone()).unwrap_or_default(),
        first.and_then(|p| p.rule).map(|r| r.to_string()).unwrap_or_default(),
        claim.map(|c| c.text.clone()).unwrap_or_default(),
        claim.map(|c| c.status.name().to_string()).unwrap_or_default(),
    ])
}

/// The row of a file that could not be read or holds no record: index 0, its problem.
pub fn file_csv_row(p: &FileProblem) -> String {
    let (line, column) = p.at.unzip();
    let number = |n: Option<usize>| n.map(|n| n.to_string()).unwrap_or_default();
    row([
        p.file.clone(),
        "0".into(),
        number(line),
        String::new(),
        p.status.name().into(),
        "0".into(),
        "false".into(),
        String::new(),
        String::new(),
        String::new(),
        "1".into(),
        "input".into(),
        number(line),
        number(column),
        String::new(),
        p.message.clone(),
        String::new(),
        String::new(),
        String::new(),
    ])
}

/// Points per player, `X=6;O=5`: whole numbers without a fraction.
fn score(points: &[(String, f64)]) -> String {
    points.iter().map(|(player, p)| format!("{player}={p}")).collect::<Vec<_>>().join(";")
}

/// One row, its cells quoted as RFC 4180 says (the csv crate's writer), ending in a line feed.
fn row(cells: impl IntoIterator<Item = String>) -> String {
    let mut writer = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(Vec::new());
    // Writing into memory cannot fail.
    let _ = writer.write_record(cells);
    String::from_utf8(writer.into_inner().unwrap_or_default()).unwrap_or_default()
}
