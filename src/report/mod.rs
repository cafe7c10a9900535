//! Turning verdicts into what people and programs read: miette reports and JSON lines.

use std::sync::Arc;

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan};
use serde_json::json;

use crate::verdict::{ClaimCheck, Problem, ProblemKind, Status, Verdict};

/// 1-based line and column (in characters) of a byte offset. Scans the text: for many lookups in
/// one file, use a [`Source`].
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(src.len());
    let before = &src[..floor_char_boundary(src, offset)];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// A file's text with its line starts indexed once, so that locating a span and drawing its
/// snippet cost the span's lines, not the whole file: a file of many records is reported in
/// linear time.
#[derive(Debug, Clone)]
pub struct Source {
    name: String,
    text: Arc<String>,
    line_starts: Vec<usize>,
}

impl Source {
    pub fn new(name: impl Into<String>, text: Arc<String>) -> Source {
        let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        Source { name: name.into(), text, line_starts }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// 0-based index of the line holding byte `offset`.
    fn line_of(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= offset).saturating_sub(1)
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(&self.text, offset.min(self.text.len()));
        let line = self.line_of(offset);
        let col = self.text[self.line_starts[line]..offset].chars().count();
        (line + 1, col + 1)
    }
}

impl miette::SourceCode for Source {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        // miette's own reader, on a window of whole lines around the span, shifted back.
        let start = span.offset().min(self.text.len());
        let first = self.line_of(start).saturating_sub(before + 1);
        let last = self.line_of((start + span.len()).min(self.text.len())) + after + 2;
        let from = self.line_starts[first];
        let to = self.line_starts.get(last).copied().unwrap_or(self.text.len());
        let window: &'a str = &self.text[from..to];
        let local = miette::SourceSpan::new((start - from).into(), span.len());
        let inner = window.read_span(&local, before, after)?;
        let shifted = miette::SourceSpan::new((inner.span().offset() + from).into(), inner.span().len());
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            shifted,
            inner.line() + first,
            inner.column(),
            inner.line_count() + first,
        )))
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Valid => "valid",
        Status::Illegal => "illegal",
        Status::SyntaxError => "syntax_error",
        Status::Undecided => "undecided",
    }
}

/// One JSON object for a record, on one line.
pub fn json_line(source: &Source, v: &Verdict) -> String {
    let at = |offset: usize| source.line_col(offset);
    let file = source.name();
    let errors: Vec<_> = v
        .problems
        .iter()
        .map(|p| {
            let (line, column) = at(p.span.start);
            json!({
                "line": line, "column": column, "token": p.token, "message": p.message,
                "kind": p.kind, "legal": p.legal,
            })
        })
        .collect();
    let claims: Vec<_> = v
        .claims
        .iter()
        .map(|c| {
            let (line, column) = at(c.span.start);
            json!({ "kind": c.kind, "text": c.text, "status": c.status.name(), "reason": c.status.reason(), "detail": c.detail, "line": line, "column": column })
        })
        .collect();
    json!({
        "file": file,
        "index": v.index,
        "game": v.game.map(|g| g.name()),
        "status": status_name(v.status),
        "errors": errors,
        "claims": claims,
        "moves": v.moves,
        "game_over": v.game_over,
        "winner": v.winner,
        "score": v.score.iter().map(|(n, p)| (n.clone(), json!(p))).collect::<serde_json::Map<_, _>>(),
        "notes": v.notes,
    })
    .to_string()
}

/// A problem as a miette diagnostic; the record's other problems hang under the first as related.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
struct ProblemReport {
    message: String,
    src_code: Option<Source>,
    labels: Vec<LabeledSpan>,
    help: Option<String>,
    code: &'static str,
    related: Vec<ProblemReport>,
}

impl Diagnostic for ProblemReport {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }
    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.help.as_ref().map(|h| Box::new(h) as Box<dyn std::fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.src_code.as_ref().map(|s| s as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(self.labels.iter().cloned()))
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(self.related.iter().map(|r| r as &dyn Diagnostic)))
    }
}

fn kind_words(k: ProblemKind) -> (&'static str, &'static str) {
    match k {
        ProblemKind::Syntax => ("syntax error", "referee::syntax"),
        ProblemKind::Illegal => ("illegal move", "referee::illegal"),
        ProblemKind::Claim => ("false claim", "referee::claim"),
        ProblemKind::Undecided => ("cannot judge", "referee::undecided"),
    }
}

fn legal_help(p: &Problem) -> Option<String> {
    if p.legal.is_empty() {
        return None;
    }
    const SHOWN: usize = 24;
    let mut h = format!("legal here: {}", p.legal.iter().take(SHOWN).cloned().collect::<Vec<_>>().join(" "));
    let shown = p.legal.len().min(SHOWN);
    if p.legal_count as usize > shown {
        h.push_str(&format!(" … and {} more", p.legal_count as usize - shown));
    }
    Some(h)
}

fn to_report(p: &Problem, source: Option<Source>) -> ProblemReport {
    let (words, code) = kind_words(p.kind);
    let len = p.span.len().max(1);
    ProblemReport {
        message: format!("{words}: {}", p.message),
        src_code: source,
        labels: vec![LabeledSpan::new(Some(p.message.clone()), p.span.start, len)],
        help: legal_help(p),
        code,
        related: Vec::new(),
    }
}

/// Settings of the human report.
#[derive(Clone, Copy, Debug)]
pub struct HumanStyle {
    pub color: bool,
    pub width: usize,
}

impl Default for HumanStyle {
    fn default() -> Self {
        HumanStyle { color: false, width: 80 }
    }
}

fn claim_line(c: &ClaimCheck) -> String {
    let status = match c.status {
        crate::verdict::ClaimStatus::Confirmed => "confirmed",
        crate::verdict::ClaimStatus::Refuted => "refuted",
        crate::verdict::ClaimStatus::Unchecked(_) => "unchecked",
    };
    format!("  claim `{}`: {status}: {}\n", c.text, c.detail)
}

/// The human report for one record: a summary line, a miette report of its problems, the board at
/// the first problem, its claims and notes.
pub fn human(source: &Source, v: &Verdict, style: HumanStyle) -> String {
    let file = source.name();
    let (line, _) = source.line_col(v.span.start);
    let game = v.game.map_or("unknown game", |g| g.name());
    let mut out = format!("{file}: record {} ({game}, line {line}): ", v.index);
    match v.status {
        Status::Valid => {
            out.push_str(&format!("valid, {} moves", v.moves));
            out.push_str(if v.game_over { ", game over\n" } else { ", game not over\n" });
        }
        s => {
            let count = v.problems.len();
            out.push_str(&format!(
                "{} ({count} problem{})\n",
                status_name(s).replace('_', " "),
                if count == 1 { "" } else { "s" }
            ));
            let mut first = to_report(&v.problems[0], Some(source.clone()));
            const SHOWN: usize = 12;
            first.related = v.problems[1..].iter().take(SHOWN - 1).map(|p| to_report(p, None)).collect();
            let theme = if style.color { GraphicalTheme::unicode() } else { GraphicalTheme::unicode_nocolor() };
            let handler = GraphicalReportHandler::new_themed(theme).with_width(style.width);
            let mut rendered = String::new();
            if handler.render_report(&mut rendered, &first).is_err() {
                rendered = format!("{}\n", first.message);
            }
            out.push_str(&rendered);
            if v.problems.len() > SHOWN {
                out.push_str(&format!(
                    "  … and {} more problems (--format json lists them all)\n",
                    v.problems.len() - SHOWN
                ));
            }
            if let Some(board) = &v.problems[0].board {
                out.push_str("  board before that move:\n");
                for l in board.lines() {
                    out.push_str(&format!("    {l}\n"));
                }
            }
        }
    }
    if let Some(score) = &v.score_text {
        out.push_str(&format!("  score where the replay ended: {score}\n"));
    }
    for c in &v.claims {
        out.push_str(&claim_line(c));
    }
    for n in &v.notes {
        out.push_str(&format!("  note: {n}\n"));
    }
    out
}
