//! The report for people: a summary line per record, a miette report of each of its problems
//! drawn on the lines around it, with the board before it for an illegal move, its claims and
//! notes.

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteSpanContents, SourceCode};

use super::{escaped, painted, status_name, Source};
use crate::record::Span;
use crate::verdict::Alternative;
use crate::verdict::{ClaimCheck, Problem, ProblemKind, Status, Verdict};

/// Settings of the human report.
#[derive(Clone, Copy, Debug)]
pub struct HumanStyle {
    /// Whether to colour the report with ANSI escapes (miette's unicode theme) or not.
    pub color: bool,
    /// The width the report is wrapped to, in columns.
    pub width: usize,
}

impl Default for HumanStyle {
    fn default() -> Self {
        HumanStyle { color: false, width: 80 }
    }
}

/// A line of more characters than this is drawn cut to a window around the problem.
const LONG_LINE: usize = 160;
/// Characters of a cut line drawn before the problem's first column.
const CUT_BEFORE: usize = 40;
/// Characters of a cut line drawn in all.
const CUT_WIDTH: usize = 120;
/// Lines drawn above and below the problem's lines (miette's default).
const CONTEXT_LINES: usize = 1;

/// One drawn line of a [`Snippet`].
#[derive(Debug, Clone)]
struct DrawnLine {
    /// Byte offset in the snippet's text.
    start: usize,
    /// Characters of the file's line left out before the drawn part.
    skipped: usize,
    /// Characters of the file's line drawn (ellipses not counted).
    drawn: usize,
    /// Whether an ellipsis stands for the skipped characters.
    ellipsis: bool,
    /// The drawn characters shown escaped ([`super::escaped`]): their index among the drawn
    /// characters, and how many characters their escape takes.
    escapes: Vec<(usize, usize)>,
}

/// The lines around a problem, as miette draws them: each line of the file that is longer than
/// [`LONG_LINE`] is cut to a window around the problem's columns, with ellipses where text is left
/// out. miette pads to a column with `format!` widths, which cannot pass 65,535, and a drawn line
/// of 70,000 characters helps nobody; line ends of every kind (`\r\n`, `\n`, a lone `\r`) become
/// `\n`, so that miette numbers the lines as [`Source`] does; hidden characters are drawn escaped
/// ([`super::escaped`]). The header's line and column are the file's, as [`Source::line_col`]
/// gives them.
#[derive(Debug, Clone)]
struct Snippet {
    name: String,
    text: String,
    /// The 0-based line number, within the source's text, of the first drawn line.
    first_line: usize,
    /// The file's lines before the source's text (a window of a file read in chunks).
    file_lines_before: usize,
    lines: Vec<DrawnLine>,
}

impl Snippet {
    /// The snippet around `span` of `source`, and the span's place in it.
    fn around(source: &Source, span: &Span) -> (Snippet, miette::SourceSpan) {
        let len = source.text().len();
        let start = super::floor_char_boundary(source.text(), span.start.min(len));
        let end = super::floor_char_boundary(source.text(), span.end.min(len)).max(start);
        let (start_line, start_col) = source.local_line_col(start);
        let (end_line, end_col) = source.local_line_col(end);
        let first = (start_line - 1).saturating_sub(CONTEXT_LINES);
        // A file that ends with a line end has no last line to draw, unless the span is there.
        let lines = source.line_count() - usize::from(source.line_count() > 1 && source.text().ends_with(['\n', '\r']));
        let last = (end_line - 1 + CONTEXT_LINES).min(lines - 1).max(end_line - 1);
        let window = (start_col - 1).saturating_sub(CUT_BEFORE);
        let mut snippet = Snippet {
            name: escaped(source.name()).into_owned(),
            text: String::new(),
            first_line: first,
            file_lines_before: source.first_line,
            lines: vec![],
        };
        for i in first..=last {
            snippet.push_line(source.line_text(i), window);
        }
        let from = snippet.offset_of(start_line - 1, start_col - 1);
        let to = snippet.offset_of(end_line - 1, end_col - 1).max(from);
        (snippet, miette::SourceSpan::new(from.into(), to - from))
    }

    fn push_line(&mut self, line: &str, window: usize) {
        let start = self.text.len();
        let count = line.chars().count();
        let (skipped, drawn) =
            if count > LONG_LINE { (window.min(count), CUT_WIDTH.min(count - window.min(count))) } else { (0, count) };
        let ellipsis = skipped > 0;
        if ellipsis {
            self.text.push('…');
        }
        let mut escapes = Vec::new();
        for (k, c) in line.chars().skip(skipped).take(drawn).enumerate() {
            match super::escape(c) {
                Some(e) => {
                    escapes.push((k, e.len()));
                    self.text.extend(e);
                }
                None => self.text.push(c),
            }
        }
        if skipped + drawn < count {
            self.text.push('…');
        }
        self.text.push('\n');
        self.lines.push(DrawnLine { start, skipped, drawn, ellipsis, escapes });
    }

    /// Byte offset in the snippet of the file's 0-based `line` and `col` (in characters); a column
    /// left out is drawn at the nearest end of the drawn part.
    fn offset_of(&self, line: usize, col: usize) -> usize {
        let l = &self.lines[line - self.first_line];
        let k = col.saturating_sub(l.skipped).min(l.drawn);
        let wider: usize = l.escapes.iter().take_while(|e| e.0 < k).map(|e| e.1 - 1).sum();
        let k = k + wider + usize::from(l.ellipsis);
        l.start + self.text[l.start..].char_indices().nth(k).map_or(self.text.len() - l.start, |(i, _)| i)
    }

    /// The file's 0-based column of a byte offset in the snippet (inside an escape, its character's).
    fn column_of(&self, offset: usize) -> usize {
        let l = &self.lines[self.lines.partition_point(|l| l.start <= offset).saturating_sub(1)];
        let k = self.text[l.start..offset.min(self.text.len())].chars().count();
        let drawn = k.saturating_sub(usize::from(l.ellipsis));
        let mut wider = 0;
        for &(at, len) in &l.escapes {
            let shown = at + wider;
            if drawn <= shown {
                break;
            }
            if drawn < shown + len {
                wider += drawn - shown;
                break;
            }
            wider += len - 1;
        }
        (k + l.skipped).saturating_sub(usize::from(l.ellipsis)) - wider
    }
}

impl SourceCode for Snippet {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        // miette's own reader on the drawn lines, with the file's line numbers and columns.
        let inner = self.text.as_str().read_span(span, before, after)?;
        let column = if before == 0 { self.column_of(span.offset()) } else { inner.column() };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line() + self.first_line + self.file_lines_before,
            column,
            inner.line_count() + self.first_line + self.file_lines_before,
        )))
    }
}

/// A problem as a miette diagnostic.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
struct ProblemReport {
    message: String,
    src_code: Snippet,
    labels: Vec<LabeledSpan>,
    help: Option<String>,
    code: &'static str,
}

impl Diagnostic for ProblemReport {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }
    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.help.as_ref().map(|h| Box::new(h) as Box<dyn std::fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.src_code)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(self.labels.iter().cloned()))
    }
}

pub(super) fn kind_words(k: ProblemKind) -> (&'static str, &'static str) {
    match k {
        ProblemKind::Syntax => ("syntax error", "referee::syntax"),
        ProblemKind::Illegal => ("illegal move", "referee::illegal"),
        ProblemKind::Claim => ("false claim", "referee::claim"),
        ProblemKind::Undecided => ("cannot judge", "referee::undecided"),
    }
}

fn legal_help(p: &Problem, source: &Source, alternatives: &[Alternative]) -> Option<String> {
    if p.legal.is_empty() {
        return None;
    }
    const SHOWN: usize = 24;
    let mut h = format!("legal here: {}", p.legal.iter().take(SHOWN).cloned().collect::<Vec<_>>().join(" "));
    let shown = p.legal.len().min(SHOWN);
    if p.legal_count as usize > shown {
        h.push_str(&format!(" … and {} more", p.legal_count as usize - shown));
    }
    for a in alternatives {
        h.push_str(&format!("\n{}: {}", a.text, super::reach_words(source, &a.reach)));
    }
    Some(h)
}

/// The report of a problem, drawn on its lines of `source`; `alternatives` to it when it is the
/// first illegal move.
fn to_report(p: &Problem, source: &Source, alternatives: &[Alternative]) -> ProblemReport {
    let (words, code) = kind_words(p.kind);
    let (snippet, span) = Snippet::around(source, &p.span);
    let len = span.len().max(1).min(snippet.text.len() - span.offset());
    let message = escaped(&p.said()).into_owned();
    ProblemReport {
        message: format!("{words}: {message}"),
        labels: vec![LabeledSpan::new(Some(message), span.offset(), len)],
        src_code: snippet,
        help: legal_help(p, source, alternatives).map(|h| escaped(&h).into_owned()),
        code,
    }
}

fn claim_line(c: &ClaimCheck) -> String {
    escaped(&format!("  claim `{}`: {}: {}\n", c.text, c.status.name(), c.detail)).into_owned()
}

/// The human report for one record: a summary line, a miette report of each problem with the board
/// before it (an illegal move's), its claims and notes.
pub fn human(source: &Source, v: &Verdict, style: HumanStyle) -> String {
    let file = escaped(source.name());
    let (line, _) = source.line_col(v.span.start);
    let game = v.game.map_or("unknown game", |g| g.name);
    let mut out = format!("{file}: record {} ({game}, line {line}): ", v.index);
    let status = painted(&status_name(v.status).replace('_', " "), v.status.into(), style.color);
    match v.status {
        Status::Valid => {
            out.push_str(&format!("{status}, {} moves", v.moves));
            out.push_str(if v.game_over { ", game over\n" } else { ", game not over\n" });
        }
        _ if v.problems.is_empty() => out.push_str(&format!("{status}\n")),
        _ => {
            let count = v.problems.len();
            out.push_str(&format!("{status} ({count} problem{})\n", if count == 1 { "" } else { "s" }));
            // The alternatives' reach belongs to the record's first illegal move.
            let illegal = v.problems.iter().position(|p| p.kind == ProblemKind::Illegal && p.variation.is_none());
            let alternatives = |i| if Some(i) == illegal { &v.alternatives[..] } else { &[] };
            const SHOWN: usize = 12;
            let theme = if style.color { GraphicalTheme::unicode() } else { GraphicalTheme::unicode_nocolor() };
            let handler = GraphicalReportHandler::new_themed(theme).with_width(style.width);
            for (k, p) in v.problems.iter().take(SHOWN).enumerate() {
                // Each problem is its own report, so that its board comes right under it; the ones
                // after the first are introduced as miette introduces related diagnostics.
                if k > 0 {
                    out.push_str("\nError: ");
                }
                let report = to_report(p, source, alternatives(k));
                let mut rendered = String::new();
                if handler.render_report(&mut rendered, &report).is_err() {
                    rendered = format!("{}\n", report.message);
                }
                out.push_str(&rendered);
                if let Some(rule) = &p.rule {
                    out.push_str(&format!("  rule: {rule}\n"));
                }
                if let Some(board) = &p.board {
                    out.push_str("  board before that move:\n");
                    for l in board.diagram().lines() {
                        out.push_str(&format!("    {l}\n"));
                    }
                }
            }
            if v.problems.len() > SHOWN {
                out.push_str(&format!(
                    "  … and {} more problems (--format json lists them all)\n",
                    v.problems.len() - SHOWN
                ));
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
        out.push_str(&escaped(&format!("  note: {n}\n")));
    }
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    fn snippet_of(text: &str, span: Span) -> (String, String) {
        let source = Source::new("f.txt", Arc::new(text.to_string()));
        let (snippet, at) = Snippet::around(&source, &span);
        let marked = snippet.text[at.offset()..at.offset() + at.len()].to_string();
        (snippet.text, marked)
    }

    #[test]
    fn a_long_line_is_drawn_cut_around_the_problem() {
        let line = format!("1. {}zz{}", " ".repeat(70_000), "y".repeat(500));
        let text = format!("first\n{line}\nlast\n");
        let start = text.find("zz").unwrap();
        let (drawn, marked) = snippet_of(&text, start..start + 2);
        assert_eq!(marked, "zz");
        let lines: Vec<&str> = drawn.lines().collect();
        assert_eq!(lines[0], "first");
        assert!(lines[1].starts_with('…') && lines[1].ends_with('…'), "{drawn}");
        assert_eq!(lines[1].chars().count(), CUT_WIDTH + 2);
        assert_eq!(lines[2], "last");
    }

    #[test]
    fn hidden_characters_are_drawn_escaped_and_columns_stay_the_files() {
        // A cut line, hidden characters before the problem (some of them cut off) and after it.
        let line = format!("1. {}zz{}", "\u{0}".repeat(100), "\u{202e}".repeat(100));
        let text = format!("{line}\n");
        let source = Source::new("f.txt", Arc::new(text.clone()));
        let start = text.find("zz").unwrap();
        let (snippet, at) = Snippet::around(&source, &(start..start + 2));
        assert_eq!(&snippet.text[at.offset()..at.offset() + at.len()], "zz");
        assert!(!snippet.text.contains(super::super::is_hidden), "{}", snippet.text);
        assert!(snippet.text.starts_with("…\\u{0}") && snippet.text.contains("zz\\u{202e}"), "{}", snippet.text);
        let contents = snippet.read_span(&at, 0, 0).unwrap();
        assert_eq!((contents.line() + 1, contents.column() + 1), source.line_col(start));
        assert_eq!(source.line_col(start), (1, 104));
        // Inside an escape, the column is its character's.
        let inside = at.offset() + 2 + 3;
        assert_eq!(snippet.column_of(inside) + 1, 106);
    }

    #[test]
    fn the_header_gives_the_files_line_and_column() {
        let line = format!("1. {}zz", " ".repeat(70_000));
        let text = format!("first\r{line}\r\nlast");
        let source = Source::new("f.txt", Arc::new(text.clone()));
        let start = text.find("zz").unwrap();
        let (snippet, at) = Snippet::around(&source, &(start..start + 2));
        let contents = snippet.read_span(&at, 0, 0).unwrap();
        assert_eq!((contents.line() + 1, contents.column() + 1), source.line_col(start));
        assert_eq!(source.line_col(start), (2, 70_004));
    }

    #[test]
    fn a_report_on_a_file_with_lone_carriage_returns_and_a_bom_draws_its_lines() {
        let text = "\u{feff}_xx_ _oo_\r1. .... .... 1 a7a8 zz\r2. x\r";
        let source = Source::new("old-mac.txt", Arc::new(text.to_string()));
        let start = text.find("zz").unwrap();
        let mut v = Verdict::new(1, 0..text.len(), None);
        v.status = Status::SyntaxError;
        v.problems.push(Problem::new(ProblemKind::Syntax, start..start + 2, "zz", "not a move".into()));
        let report = human(&source, &v, HumanStyle::default());
        assert!(
            report.starts_with("old-mac.txt: record 1 (unknown game, line 1): syntax error (1 problem)"),
            "{report}"
        );
        assert!(!report.contains('\r') && !report.contains('\u{feff}'), "{report:?}");
        for drawn in ["[old-mac.txt:2:21]", " 1 │ _xx_ _oo_\n", " 2 │ 1. .... .... 1 a7a8 zz\n", " 3 │ 2. x\n"] {
            assert!(report.contains(drawn), "{drawn:?} in\n{report}");
        }
    }

    #[test]
    fn lone_carriage_returns_are_drawn_as_line_ends() {
        let (drawn, marked) = snippet_of("a\rbb cc\rd\r", 5..7);
        assert_eq!((drawn.as_str(), marked.as_str()), ("a\nbb cc\nd\n", "cc"));
    }
}
