//! Turning verdicts into what people and programs read: miette reports, JSON lines and one line
//! per problem.

use std::sync::Arc;

use serde::Serialize;

use crate::record::without_bom;
use crate::verdict::Status;

mod csv;
mod human;
mod json;
mod repair;
mod short;

pub use csv::{csv_header, csv_row, file_csv_row, CSV_COLUMNS};
pub use human::{human, HumanStyle};
pub use json::{file_json_line, json_line, SCHEMA};
pub use repair::{left_words, repair_human, repair_json};
pub use short::{file_short_line, short_lines};

/// What a problem of kind `k` is called in reports: `illegal move`, `syntax error`, `false claim`,
/// `cannot judge`.
pub fn problem_name(k: crate::verdict::ProblemKind) -> &'static str {
    human::kind_words(k).0
}

/// Byte offsets where lines start. A line ends at `\r\n`, `\n`, or a lone `\r` (old Mac files), as
/// the Language Server Protocol counts lines too.
pub fn line_starts(text: &str) -> impl Iterator<Item = usize> + '_ {
    let bytes = text.as_bytes();
    // A `\r` before a `\n` ends its line with it.
    let ends =
        memchr::memchr2_iter(b'\n', b'\r', bytes).filter(|&i| !(bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n')));
    std::iter::once(0).chain(ends.map(|i| i + 1))
}

/// 1-based column (in characters) of `offset` on the line starting at `line_start`; a byte-order
/// mark opening the line is not a column.
fn column(text: &str, line_start: usize, offset: usize) -> usize {
    without_bom(&text[line_start..offset]).chars().count() + 1
}

/// 1-based line and column (in characters) of a byte offset. Scans the text: for many lookups in
/// one file, use a [`Source`].
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(src, offset.min(src.len()));
    let (line, start) = line_starts(src).take_while(|&s| s <= offset).enumerate().last().unwrap_or((0, 0));
    (line + 1, column(src, start, offset))
}

/// Whether a character of a record is shown escaped wherever a report quotes it: a control
/// character (a tab and the line end excepted), which a terminal does not show or acts on (a NUL,
/// an escape sequence), or one that changes the direction of the text after it (U+202E turns the
/// rest of the line around) or breaks a line where the report has none (U+2028, U+2029).
pub fn is_hidden(c: char) -> bool {
    (c.is_control() && c != '\t' && c != '\n')
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        || matches!(c, '\u{2028}' | '\u{2029}')
}

/// Whether `text` holds a [hidden](is_hidden) character. Text of printable ASCII, tabs and line
/// feeds (nearly every record) is told by its bytes alone, without decoding its characters.
pub fn has_hidden(text: &str) -> bool {
    let plain = |b: u8| (b' '..=b'~').contains(&b) || b == b'\t' || b == b'\n';
    !text.bytes().all(plain) && text.contains(is_hidden)
}

/// Text of a record as reports quote it: each [hidden](is_hidden) character written as its escape,
/// `\u{0}`, `\u{202e}`, so that what the record holds shows, and cannot hide or reorder the report.
pub fn escaped(text: &str) -> std::borrow::Cow<'_, str> {
    if !has_hidden(text) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match escape(c) {
            Some(e) => out.extend(e),
            None => out.push(c),
        }
    }
    out.into()
}

/// The escape a character is shown as, if it is [hidden](is_hidden).
fn escape(c: char) -> Option<std::char::EscapeUnicode> {
    is_hidden(c).then(|| c.escape_unicode())
}

/// A file's text with its line starts indexed once, so that locating a span and drawing its
/// snippet cost the span's lines, not the whole file: a file of many records is reported in
/// linear time.
#[derive(Debug, Clone)]
pub struct Source {
    name: String,
    text: Arc<String>,
    line_starts: Vec<usize>,
    /// The lines of the file before `text`, when it is a window of a file read in chunks.
    first_line: usize,
}

impl Source {
    /// A whole file's text.
    pub fn new(name: impl Into<String>, text: Arc<String>) -> Source {
        Source::window(name, text, 0)
    }

    /// A window of a file read in chunks ([`crate::stream::Stretch`]): `first_line` lines of the
    /// file come before it. Lines are numbered as in the file.
    pub fn window(name: impl Into<String>, text: Arc<String>, first_line: usize) -> Source {
        let line_starts = line_starts(&text).collect();
        Source { name: name.into(), text, line_starts, first_line }
    }

    /// The file's name as reports print it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The text reports quote from (the window's text, for a window).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// 0-based index of the line holding byte `offset`.
    fn line_of(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= offset).saturating_sub(1)
    }

    fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// The text of 0-based line `i`, without its line end (and without a byte-order mark).
    fn line_text(&self, i: usize) -> &str {
        let start = self.line_starts[i];
        let end = self.line_starts.get(i + 1).copied().unwrap_or(self.text.len());
        let line = &self.text[start..end];
        let line = line.strip_suffix('\n').unwrap_or(line);
        without_bom(line.strip_suffix('\r').unwrap_or(line))
    }

    /// 1-based line and column (in characters) of a byte offset, as in the file.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let (line, col) = self.local_line_col(offset);
        (line + self.first_line, col)
    }

    /// 1-based line (within this text) and column (in characters) of a byte offset.
    fn local_line_col(&self, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(&self.text, offset.min(self.text.len()));
        let line = self.line_of(offset);
        (line + 1, column(&self.text, self.line_starts[line], offset))
    }
}

/// The move number a token belongs to, as its line writes it: the last move number before the
/// token on its line (`5.` in `5. b4a4 b4xc4`), else a number opening the line (the published
/// notation's `10  ----  ----`; its other numbers are announcements).
fn move_number(source: &Source, offset: usize) -> Option<u32> {
    let line = source.line_of(offset.min(source.text().len()));
    let start = source.line_starts[line];
    let before = source.text().get(start..offset)?;
    let words = before.split_ascii_whitespace();
    let first = words.clone().next()?;
    let numbered = |w: &str| {
        let digits = w.trim_end_matches('.');
        (digits.len() < w.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
            .then(|| digits.parse().ok())
            .flatten()
    };
    words.filter_map(numbered).next_back().or_else(|| first.parse().ok())
}

/// How far the rest of a record replays with an alternative: `the rest replays to the end`, or
/// `the rest replays up to move 4 (`i6i9` at 30:4)`.
pub(crate) fn reach_words(source: &Source, reach: &crate::verdict::Reach) -> String {
    match reach {
        crate::verdict::Reach::End => "the rest replays to the end".to_string(),
        crate::verdict::Reach::StopsAt { span, token } => {
            let (line, column) = source.line_col(span.start);
            match move_number(source, span.start) {
                Some(n) => format!("the rest replays up to move {n} (`{token}` at {line}:{column})"),
                None => format!("the rest replays up to `{token}` at {line}:{column}"),
            }
        }
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// A record's status as reports write it: `valid`, `illegal`, `refuted`, `syntax_error`,
/// `undecided`.
pub fn status_name(s: Status) -> &'static str {
    s.name()
}

/// What went wrong with a whole input, rather than with one of its records.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FileStatus {
    /// It could not be read as text: missing, not permitted, not UTF-8, too large.
    Unreadable,
    /// It was read but holds no record.
    NoRecord,
}

impl FileStatus {
    /// The status as JSON and short lines write it: `unreadable`, `no_record`.
    pub fn name(self) -> &'static str {
        match self {
            FileStatus::Unreadable => "unreadable",
            FileStatus::NoRecord => "no_record",
        }
    }
}

/// A problem with a whole input: its name, what went wrong, and where when that is known.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FileProblem {
    /// The input's name as given (a path, or `-` for standard input).
    pub file: String,
    /// What kind of problem.
    pub status: FileStatus,
    /// What went wrong, in words.
    pub message: String,
    /// 1-based line and column, when the problem has a place (a byte that is not UTF-8).
    pub at: Option<(usize, usize)>,
}

/// How a status word is coloured: green when valid, yellow when it cannot be judged, red when
/// something is wrong.
#[derive(Clone, Copy)]
enum Tone {
    Good,
    Doubt,
    Bad,
}

impl From<Status> for Tone {
    fn from(s: Status) -> Tone {
        match s {
            Status::Valid => Tone::Good,
            Status::Undecided => Tone::Doubt,
            Status::Illegal | Status::Refuted | Status::SyntaxError => Tone::Bad,
        }
    }
}

/// `word` in its tone's colour when `color` is on.
fn painted(word: &str, tone: Tone, color: bool) -> String {
    use anstyle::AnsiColor;
    if !color {
        return word.to_string();
    }
    let fg = match tone {
        Tone::Good => AnsiColor::Green,
        Tone::Doubt => AnsiColor::Yellow,
        Tone::Bad => AnsiColor::Red,
    };
    let style = anstyle::Style::new().fg_color(Some(fg.into())).bold();
    format!("{style}{word}{style:#}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks the places of `offsets` (from the index and from a scan, which agree everywhere)
    /// and the text of each line.
    fn check(text: &str, places: &[(usize, (usize, usize))], lines: &[&str]) {
        let s = Source::new("t", Arc::new(text.to_string()));
        for offset in 0..=text.len() {
            assert_eq!(line_col(text, offset), s.line_col(offset), "{offset}");
        }
        for &(offset, place) in places {
            assert_eq!(s.line_col(offset), place, "{offset}");
        }
        assert_eq!((0..s.line_count()).map(|i| s.line_text(i)).collect::<Vec<_>>(), lines);
    }

    #[test]
    fn lines_end_at_crlf_lf_and_a_lone_cr() {
        let places = [(0, (1, 1)), (4, (2, 1)), (7, (3, 1)), (10, (4, 1)), (11, (4, 2))];
        check("ab\r\ncd\nef\rgh", &places, &["ab", "cd", "ef", "gh"]);
    }

    #[test]
    fn a_byte_order_mark_is_not_a_column() {
        check("\u{feff}[Game \"Quarod\"]\nx", &[(3, (1, 1)), (4, (1, 2))], &["[Game \"Quarod\"]", "x"]);
        // Nor where files that each open with one were joined.
        check("a\n\u{feff}[b", &[(5, (2, 1)), (6, (2, 2))], &["a", "[b"]);
    }
}
