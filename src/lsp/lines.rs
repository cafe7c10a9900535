//! Where a text's lines start, for the protocol's positions (a line and a column in UTF-16 code
//! units), kept through edits without reading the whole text again.
//!
//! The index holds a mark (a line start and its line number) every [`MARK_LINES`] lines or so,
//! and finds the lines between two marks by reading the text there: a text of 50 million blank
//! lines has 400 thousand marks, not 50 million line starts, and an edit reads the text from the
//! mark before it to the mark after it and moves the marks that follow. A line ends at `\n`,
//! `\r\n` or `\r`, as the protocol counts lines.

use lsp_types::Position;

use crate::judged::floor_boundary;

/// About how many lines lie between two marks (at most twice as many after edits).
pub const MARK_LINES: usize = 128;

/// A line start, and the number of its line (from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Mark {
    byte: usize,
    line: usize,
}

/// Marks at line starts of a text, the first at its start, in text order.
#[derive(Clone, Debug)]
pub struct Lines {
    marks: Vec<Mark>,
}

/// The line starts of `text` after byte `from` (a line start, or any byte but one between the
/// `\r` and the `\n` of a line break), in order: each the byte after a line break.
fn starts_after(text: &[u8], from: usize) -> impl Iterator<Item = usize> + '_ {
    let mut at = from;
    std::iter::from_fn(move || {
        let i = at + memchr::memchr2(b'\n', b'\r', text.get(at..)?)?;
        at = match text[i] {
            b'\r' if text.get(i + 1) == Some(&b'\n') => i + 2,
            _ => i + 1,
        };
        Some(at)
    })
}

impl Lines {
    /// The index of `text`.
    pub fn of(text: &str) -> Lines {
        let mut marks = vec![Mark { byte: 0, line: 0 }];
        marks.extend(Self::marks_after(text, marks[0], usize::MAX));
        Lines { marks }
    }

    /// Marks every [`MARK_LINES`] lines after `from`, up to byte `to` (included).
    fn marks_after(text: &str, from: Mark, to: usize) -> impl Iterator<Item = Mark> + '_ {
        starts_after(text.as_bytes(), from.byte)
            .take_while(move |&s| s <= to)
            .enumerate()
            .filter(|(k, _)| (k + 1) % MARK_LINES == 0)
            .map(move |(k, byte)| Mark { byte, line: from.line + k + 1 })
    }

    /// The last mark at or before byte `at`.
    fn mark_at_byte(&self, at: usize) -> Mark {
        self.marks[self.marks.partition_point(|m| m.byte <= at).saturating_sub(1)]
    }

    /// The line of byte `at` and where it starts.
    fn line_of(&self, text: &str, at: usize) -> Mark {
        let mark = self.mark_at_byte(at);
        let mut line = mark;
        for s in starts_after(text.as_bytes(), mark.byte) {
            if s > at {
                break;
            }
            line = Mark { byte: s, line: line.line + 1 };
        }
        line
    }

    /// The position of byte `at` of `text` (taken to the character boundary at or before it).
    pub fn position(&self, text: &str, at: usize) -> Position {
        Positions::new(self, text).position(at)
    }

    /// The byte of `text` at a protocol position: past the end of its line, the line's end; past
    /// the last line, the text's end.
    pub fn offset(&self, text: &str, p: Position) -> usize {
        let want = p.line as usize;
        let mark = self.marks[self.marks.partition_point(|m| m.line <= want).saturating_sub(1)];
        let mut start = mark.byte;
        if mark.line < want {
            match starts_after(text.as_bytes(), mark.byte).nth(want - mark.line - 1) {
                Some(s) => start = s,
                None => return text.len(),
            }
        }
        let rest = &text[start..];
        let line = &rest[..memchr::memchr2(b'\n', b'\r', rest.as_bytes()).unwrap_or(rest.len())];
        let mut units = 0;
        for (i, c) in line.char_indices() {
            if units >= p.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        start + line.len()
    }

    /// Follows an edit of the text: bytes `start..start + removed` were replaced by `inserted`
    /// bytes, and `text` is the text after it.
    pub fn edit(&mut self, text: &str, start: usize, removed: usize, inserted: usize) {
        // A mark before the edit stays: its line break, and what follows a `\r` of it, are before
        // the edit. The text's start is a line start whatever the edit.
        let kept = self.marks.partition_point(|m| m.byte < start).max(1);
        let from = self.marks[kept - 1];
        // A mark past the edit, and past the byte after it (which a `\r` ending the edit joins to a
        // `\n` there), stays a line start: moved by the edit, and renumbered.
        let after = self.marks.partition_point(|m| m.byte <= start + removed);
        let grew = inserted as isize - removed as isize;
        let tail: Vec<Mark> = self.marks.drain(after..).collect();
        self.marks.truncate(kept);
        match tail.first() {
            Some(next) => {
                let next_now = next.byte.saturating_add_signed(grew);
                self.marks.extend(Self::marks_after(text, from, next_now.saturating_sub(1)));
                let lines = starts_after(text.as_bytes(), from.byte).take_while(|&s| s <= next_now).count();
                let renumbered = (from.line + lines) as isize - next.line as isize;
                self.marks.extend(tail.into_iter().map(|m| Mark {
                    byte: m.byte.saturating_add_signed(grew),
                    line: m.line.saturating_add_signed(renumbered),
                }));
            }
            None => self.marks.extend(Self::marks_after(text, from, usize::MAX)),
        }
    }
}

/// Positions of many bytes of one text, asked mostly in increasing order (the problems of a text,
/// record after record): each answer reads the text from the last one, or from the mark before
/// it when that is nearer, so that a pass over a text reads it about once.
pub struct Positions<'a> {
    lines: &'a Lines,
    text: &'a str,
    /// The last byte asked, its line, and its column in UTF-16 code units.
    at: usize,
    line: Mark,
    units: usize,
    /// The start of the line after `line` once it was looked for (`usize::MAX`: there is none):
    /// looked for once a line, so that the positions of many bytes of one long line do not each
    /// read to its end.
    next: Option<usize>,
}

impl<'a> Positions<'a> {
    /// Positions in `text`, indexed by `lines`.
    pub fn new(lines: &'a Lines, text: &'a str) -> Positions<'a> {
        Positions { lines, text, at: 0, line: Mark { byte: 0, line: 0 }, units: 0, next: None }
    }

    /// The position of byte `at` (taken to the character boundary at or before it).
    pub fn position(&mut self, at: usize) -> Position {
        let at = floor_boundary(self.text, at);
        let mark = self.lines.mark_at_byte(at);
        if at < self.at || mark.byte > self.at {
            self.line = self.lines.line_of(self.text, at);
            (self.at, self.units, self.next) = (self.line.byte, 0, None);
        } else {
            loop {
                let text = self.text.as_bytes();
                let from = self.line.byte;
                let next = *self.next.get_or_insert_with(|| starts_after(text, from).next().unwrap_or(usize::MAX));
                if next > at {
                    break;
                }
                self.line = Mark { byte: next, line: self.line.line + 1 };
                (self.at, self.units, self.next) = (next, 0, None);
            }
        }
        self.units += utf16_len(&self.text[self.at..at]);
        self.at = at;
        Position { line: self.line.line as u32, character: self.units as u32 }
    }
}

/// The length of `s` in UTF-16 code units: its bytes, when it is ASCII.
fn utf16_len(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.encode_utf16().count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line start, the slow way: the report's line index.
    fn naive(text: &str) -> Vec<usize> {
        crate::report::line_starts(text).collect()
    }

    fn naive_position(text: &str, starts: &[usize], at: usize) -> Position {
        let at = floor_boundary(text, at);
        let line = starts.partition_point(|&s| s <= at) - 1;
        Position { line: line as u32, character: text[starts[line]..at].encode_utf16().count() as u32 }
    }

    const PIECES: [&str; 9] = ["a", "\n", "\r", "\r\n", "é", "🂡", "\n\n", "xy\r", "\r\r\n"];

    fn random_text(rng: &mut fastrand::Rng, pieces: usize) -> String {
        (0..pieces).map(|_| PIECES[rng.usize(..PIECES.len())]).collect()
    }

    /// After any edits, every byte's position and every position's byte are those of the text
    /// indexed anew, the slow way.
    #[test]
    fn after_any_edits_positions_are_those_of_the_text_read_anew() {
        let mut rng = fastrand::Rng::with_seed(7);
        for round in 0..100 {
            let pieces = rng.usize(0..2000);
            let mut text = random_text(&mut rng, pieces);
            let mut lines = Lines::of(&text);
            for _ in 0..12 {
                let start = floor_boundary(&text, rng.usize(..=text.len()));
                let end = floor_boundary(&text, (start + rng.usize(..40)).min(text.len()));
                let pieces = rng.usize(0..4 * (round % 3) + 1);
                let with = random_text(&mut rng, pieces);
                text.replace_range(start..end, &with);
                lines.edit(&text, start, end - start, with.len());
                assert!(lines.marks.windows(2).all(|w| w[0].byte < w[1].byte && w[0].line < w[1].line));
                let mut positions = Positions::new(&lines, &text);
                let starts = naive(&text);
                for at in (0..=text.len()).step_by(7).chain([rng.usize(..=text.len()), 3, text.len()]) {
                    let expected = naive_position(&text, &starts, at);
                    assert_eq!(positions.position(at), expected, "byte {at} of {text:?}");
                    assert_eq!(lines.position(&text, at), expected, "byte {at} of {text:?}");
                }
                for (line, &s) in starts.iter().enumerate().step_by(3) {
                    let p = Position { line: line as u32, character: 0 };
                    assert_eq!(lines.offset(&text, p), s, "line {line} of {text:?}");
                }
            }
        }
    }

    #[test]
    fn an_offset_past_a_line_or_the_text_is_its_end() {
        let text = "ab\r\ncd🂡e\rf";
        let lines = Lines::of(text);
        let at = |line, character| lines.offset(text, Position { line, character });
        assert_eq!(at(0, 9), 2);
        assert_eq!(at(1, 2), 6);
        assert_eq!(at(1, 4), 10, "the character after the two units of 🂡");
        assert_eq!(at(1, 9), 11);
        assert_eq!(at(2, 0), 12);
        assert_eq!(at(7, 0), text.len());
    }

    /// Fifty thousand blank lines: about one mark every [`MARK_LINES`], and an edit in the middle
    /// keeps them so.
    #[test]
    fn a_long_text_holds_a_mark_every_so_many_lines() {
        let mut text = "\n".repeat(50_000);
        let mut lines = Lines::of(&text);
        assert_eq!(lines.marks.len(), 1 + 50_000 / MARK_LINES);
        text.insert_str(25_000, "x\ny\n");
        lines.edit(&text, 25_000, 0, 4);
        assert!(lines.marks.len() <= 3 + 50_002 / MARK_LINES, "{}", lines.marks.len());
        assert_eq!(lines.position(&text, text.len()), Position { line: 50_002, character: 0 });
    }
}
