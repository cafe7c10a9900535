//! JSON lines: one object per record, its fields in the documented order (the README's table).

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use super::{FileProblem, FileStatus, Source};
use crate::verdict::{ClaimCheck, ClaimKind, Problem, ProblemKind, Status, Unchecked, Verdict};

/// The version of the objects' layout: raised when a field changes meaning or goes away, or a
/// field gains a value (2: the status `refuted`).
pub const SCHEMA: u32 = 2;

#[derive(Serialize)]
struct RecordLine<'a> {
    schema: u32,
    file: &'a str,
    index: usize,
    /// The record's first line; for a problem with the whole file, the problem's line if known.
    line: Option<usize>,
    game: Option<&'static str>,
    status: LineStatus,
    moves: usize,
    game_over: bool,
    winner: Option<&'a str>,
    score: Points<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    score_with_stones: Option<Points<'a>>,
    /// The position code where the replay ended (grammar.md, Part V).
    position: Option<&'a str>,
    errors: Vec<ErrorItem<'a>>,
    claims: Vec<ClaimItem<'a>>,
    notes: &'a [String],
}

/// A record's status, or what went wrong with the whole file.
#[derive(Serialize)]
#[serde(untagged)]
enum LineStatus {
    Record(Status),
    File(FileStatus),
}

#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
enum ErrorKind {
    Syntax,
    Illegal,
    Claim,
    Undecided,
    /// The file could not be read, or holds no record.
    Input,
}

impl From<ProblemKind> for ErrorKind {
    fn from(k: ProblemKind) -> Self {
        match k {
            ProblemKind::Syntax => ErrorKind::Syntax,
            ProblemKind::Illegal => ErrorKind::Illegal,
            ProblemKind::Claim => ErrorKind::Claim,
            ProblemKind::Undecided => ErrorKind::Undecided,
        }
    }
}

#[derive(Serialize)]
struct ErrorItem<'a> {
    kind: ErrorKind,
    line: Option<usize>,
    column: Option<usize>,
    token: &'a str,
    message: &'a str,
    /// An illegal move's rule, as a link from the repository's root into `docs/rules/`
    /// (`docs/rules/quarod.md#quarod-placement`); `null` for other problems.
    rule: Option<String>,
    legal: &'a [String],
    legal_count: u32,
    /// Illegal moves only: legal moves in its place, and how far the rest replays with each.
    #[serde(skip_serializing_if = "Option::is_none")]
    alternatives: Option<Vec<AlternativeItem<'a>>>,
}

#[derive(Serialize)]
struct AlternativeItem<'a> {
    #[serde(rename = "move")]
    text: &'a str,
    replays_to_end: bool,
    /// The token where the rest stops replaying, when it does.
    stops_at: Option<StopItem<'a>>,
}

#[derive(Serialize)]
struct StopItem<'a> {
    line: usize,
    column: usize,
    token: &'a str,
}

#[derive(Serialize)]
pub(super) struct ClaimItem<'a> {
    kind: ClaimKind,
    text: &'a str,
    status: &'static str,
    reason: Option<Unchecked>,
    line: usize,
    column: usize,
    detail: &'a str,
    /// Only for a claim judged against a lenient replay past violations: how many.
    #[serde(skip_serializing_if = "is_zero")]
    violations_accepted: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Points per player, as an object in turn order: whole numbers as integers, half points as
/// decimals.
struct Points<'a>(&'a [(String, f64)]);

impl Serialize for Points<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (player, points) in self.0 {
            if points.fract() == 0.0 && points.abs() < 1e15 {
                map.serialize_entry(player, &(*points as i64))?;
            } else {
                map.serialize_entry(player, points)?;
            }
        }
        map.end()
    }
}

pub(super) fn to_line<T: Serialize>(value: &T) -> String {
    // A record's line is most often under a kilobyte: growing an empty buffer to that size a few
    // bytes at a time cost more than writing it (issue 20's profile).
    let mut line = Vec::with_capacity(LINE_CAPACITY);
    // Our types have string keys and no failing Serialize impl: this cannot fail, but a report
    // never panics.
    match value.serialize(&mut serde_json::Serializer::with_formatter(&mut line, Escaping)) {
        Ok(()) => String::from_utf8(line).unwrap_or_default(),
        Err(e) => format!("{{\"schema\":{SCHEMA},\"error\":\"{e}\"}}"),
    }
}

/// The bytes a line's buffer starts with.
const LINE_CAPACITY: usize = 1024;

/// serde_json's compact layout, with every [hidden](super::is_hidden) character of a string
/// written as a `\uXXXX` escape, as serde_json writes the control characters below U+0020: the
/// value a program reads is the same, and a line shown on a terminal shows them.
struct Escaping;

impl serde_json::ser::Formatter for Escaping {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        if !super::has_hidden(fragment) {
            return writer.write_all(fragment.as_bytes());
        }
        let mut rest = fragment;
        while let Some(at) = rest.find(super::is_hidden) {
            writer.write_all(&rest.as_bytes()[..at])?;
            let c = rest[at..].chars().next().unwrap_or_default();
            // Every hidden character is in the Basic Multilingual Plane: one escape each.
            write!(writer, "\\u{:04x}", u32::from(c))?;
            rest = &rest[at + c.len_utf8()..];
        }
        writer.write_all(rest.as_bytes())
    }
}

impl<'a> ErrorItem<'a> {
    /// `alternatives`: those of the record's first illegal move, when `p` is that move.
    fn of(p: &'a Problem, source: &Source, alternatives: &'a [crate::verdict::Alternative]) -> Self {
        let (line, column) = source.line_col(p.span.start);
        let alternative = |a: &'a crate::verdict::Alternative| {
            let stops_at = match &a.reach {
                crate::verdict::Reach::End => None,
                crate::verdict::Reach::StopsAt { span, token } => {
                    let (line, column) = source.line_col(span.start);
                    Some(StopItem { line, column, token })
                }
            };
            AlternativeItem { text: &a.text, replays_to_end: stops_at.is_none(), stops_at }
        };
        ErrorItem {
            kind: p.kind.into(),
            line: Some(line),
            column: Some(column),
            token: &p.token,
            message: &p.message,
            rule: p.rule.map(|r| r.to_string()),
            legal: &p.legal,
            legal_count: p.legal_count,
            alternatives: (p.kind == ProblemKind::Illegal).then(|| alternatives.iter().map(alternative).collect()),
        }
    }
}

impl<'a> ClaimItem<'a> {
    pub(super) fn of(c: &'a ClaimCheck, (line, column): (usize, usize)) -> Self {
        let (text, detail) = (&c.text, &c.detail);
        ClaimItem {
            kind: c.kind,
            text,
            status: c.status.name(),
            reason: c.status.reason(),
            line,
            column,
            detail,
            violations_accepted: c.violations_accepted,
        }
    }
}

/// One JSON object for a record, on one line.
pub fn json_line(source: &Source, v: &Verdict) -> String {
    let illegal = v.problems.iter().position(|p| p.kind == ProblemKind::Illegal);
    let errors = v
        .problems
        .iter()
        .enumerate()
        .map(|(i, p)| ErrorItem::of(p, source, if Some(i) == illegal { &v.alternatives } else { &[] }))
        .collect();
    let claims = v.claims.iter().map(|c| ClaimItem::of(c, source.line_col(c.span.start))).collect();
    to_line(&RecordLine {
        schema: SCHEMA,
        file: source.name(),
        index: v.index,
        line: Some(source.line_col(v.span.start).0),
        game: v.game.map(|g| g.name),
        status: LineStatus::Record(v.status),
        moves: v.moves,
        game_over: v.game_over,
        winner: v.winner.as_deref(),
        score: Points(&v.score),
        score_with_stones: v.score_with_stones.as_deref().map(Points),
        position: v.position.as_deref(),
        errors,
        claims,
        notes: &v.notes,
    })
}

/// One JSON object for a file that could not be read or holds no record: index 0, one error of
/// kind `input`.
pub fn file_json_line(p: &FileProblem) -> String {
    let (line, column) = p.at.unzip();
    to_line(&RecordLine {
        schema: SCHEMA,
        file: &p.file,
        index: 0,
        line,
        game: None,
        status: LineStatus::File(p.status),
        moves: 0,
        game_over: false,
        winner: None,
        score: Points(&[]),
        score_with_stones: None,
        position: None,
        errors: vec![ErrorItem {
            kind: ErrorKind::Input,
            line,
            column,
            token: "",
            message: &p.message,
            rule: None,
            legal: &[],
            legal_count: 0,
            alternatives: None,
        }],
        claims: vec![],
        notes: &[],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_points_are_integers_and_half_points_decimals() {
        let score = vec![("Black".to_string(), 13.0), ("White".to_string(), 12.5)];
        assert_eq!(serde_json::to_string(&Points(&score)).unwrap(), r#"{"Black":13,"White":12.5}"#);
    }

    #[test]
    fn a_file_problem_is_one_object_with_an_input_error() {
        let p = FileProblem {
            file: "a.txt".into(),
            status: FileStatus::Unreadable,
            message: "not valid UTF-8".into(),
            at: Some((2, 21)),
        };
        assert_eq!(
            file_json_line(&p),
            r#"{"schema":2,"file":"a.txt","index":0,"line":2,"game":null,"status":"unreadable","moves":0,"game_over":false,"winner":null,"score":{},"position":null,"errors":[{"kind":"input","line":2,"column":21,"token":"","message":"not valid UTF-8","rule":null,"legal":[],"legal_count":0}],"claims":[],"notes":[]}"#
        );
    }
}
