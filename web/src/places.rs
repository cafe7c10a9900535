//! Where a byte offset of the text is, every way the page needs it: 1-based line and column (as
//! the command line prints them) and the offset in UTF-16 code units (how JavaScript indexes a
//! string).
//!
//! The text is indexed once, in one pass: its line starts, and every [`STEP`] bytes the characters
//! and UTF-16 units before that point. A lookup then reads at most `STEP` bytes of the text, in
//! whatever order the offsets are asked (a verdict gives its problems' places before its own
//! start), so that places cost the same for any text: one character outside ASCII no longer makes
//! each lookup count from the start of the text.

use std::ops::Range;

use referee::report::line_starts;
use serde::Serialize;

/// Bytes between two marks of the index: a lookup reads at most this many bytes.
const STEP: usize = 256;

/// Where a span of the text is: 1-based line and column (in characters), the UTF-16 offsets `from`
/// and `to`, and the byte range `bytes` in the UTF-8 text.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct Place {
    pub line: usize,
    pub column: usize,
    pub from: usize,
    pub to: usize,
    pub bytes: [usize; 2],
}

/// The index of one text.
pub struct Places<'t> {
    text: &'t str,
    ascii: bool,
    /// Byte offsets where lines start, as [`referee::report::Source`] counts lines.
    lines: Vec<usize>,
    /// At mark `k`, the characters and UTF-16 units before byte `floor(k * STEP)` (the character
    /// boundary at or before it).
    marks: Vec<(usize, usize)>,
}

/// Characters and UTF-16 units of valid UTF-8: a character starts at every byte that does not
/// continue one, and a character of four bytes (lead byte `0xF0` and above) takes two units.
fn counts(piece: &str) -> (usize, usize) {
    piece.bytes().fold((0, 0), |(chars, units), b| {
        let starts = usize::from(b & 0xC0 != 0x80);
        (chars + starts, units + starts + usize::from(b >= 0xF0))
    })
}

fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

impl<'t> Places<'t> {
    pub fn new(text: &'t str) -> Self {
        let ascii = text.is_ascii();
        let lines = line_starts(text).collect();
        let mut marks = Vec::new();
        if !ascii {
            marks.reserve(text.len() / STEP + 1);
            let (mut at, mut total) = (0, (0, 0));
            for k in 0..=text.len() / STEP {
                let mark = floor_char_boundary(text, k * STEP);
                let (chars, units) = counts(&text[at..mark]);
                total = (total.0 + chars, total.1 + units);
                marks.push(total);
                at = mark;
            }
        }
        Places { text, ascii, lines, marks }
    }

    /// Characters and UTF-16 units before `at`, a character boundary.
    fn before(&self, at: usize) -> (usize, usize) {
        if self.ascii {
            return (at, at);
        }
        let k = at / STEP;
        let mark = floor_char_boundary(self.text, k * STEP);
        let (chars, units) = counts(&self.text[mark..at]);
        (self.marks[k].0 + chars, self.marks[k].1 + units)
    }

    /// The UTF-16 offset of byte `at` (of the character holding it, inside one).
    pub fn utf16(&self, at: usize) -> usize {
        self.before(floor_char_boundary(self.text, at)).1
    }

    /// 1-based line and column (in characters) of byte `at`, as `Source::line_col` gives them: a
    /// byte-order mark opening a line is not a column.
    pub fn line_col(&self, at: usize) -> (usize, usize) {
        let at = floor_char_boundary(self.text, at);
        let line = self.lines.partition_point(|&start| start <= at) - 1;
        let start = self.lines[line];
        let bom = usize::from(self.text[start..at].starts_with('\u{feff}'));
        (line + 1, self.before(at).0 - self.before(start).0 - bom + 1)
    }

    pub fn place(&self, span: &Range<usize>) -> Place {
        let end = span.end.max(span.start);
        let (line, column) = self.line_col(span.start);
        Place { line, column, from: self.utf16(span.start), to: self.utf16(end), bytes: [span.start, end] }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use referee::report::Source;

    use super::*;

    #[test]
    fn utf16_offsets_count_code_units_in_any_order() {
        let text = "é𝄞a";
        let p = Places::new(text);
        assert_eq!(p.utf16(2), 1);
        assert_eq!(p.utf16(6), 3);
        assert_eq!(p.utf16(7), 4);
        assert_eq!(p.utf16(0), 0);
        // Inside a character: its start.
        assert_eq!(p.utf16(3), 1);
        // Past the end: the end.
        assert_eq!(p.utf16(99), 4);
    }

    /// Every offset of texts of every kind of line end, byte-order marks, characters of one to four
    /// bytes, long lines and short, asked in a shuffled order: the same line and column as the
    /// library's `Source`, and the UTF-16 offset that encoding the text before gives.
    #[test]
    fn every_offset_as_the_library_and_utf16_count_it() {
        const PIECES: &[&str] = &["a", "1. ", "\n", "\r\n", "\r", "\u{feff}", "é", "€", "𝄞", "[Game \"Quarod\"]"];
        let mut rng = fastrand::Rng::with_seed(31);
        for round in 0..60 {
            let pieces = rng.usize(0..(round * 40 + 2));
            let text: String = (0..pieces).map(|_| PIECES[rng.usize(..PIECES.len())]).collect();
            let source = Source::new("", Arc::new(text.clone()));
            let places = Places::new(&text);
            let mut offsets: Vec<usize> = (0..=text.len() + 2).collect();
            rng.shuffle(&mut offsets);
            for at in offsets {
                assert_eq!(places.line_col(at), source.line_col(at), "{text:?} at {at}");
                let boundary = floor_char_boundary(&text, at);
                assert_eq!(places.utf16(at), text[..boundary].encode_utf16().count(), "{text:?} at {at}");
            }
        }
    }
}
