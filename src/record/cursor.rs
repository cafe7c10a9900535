//! The lines of a text, with their byte offsets, for readers that look ahead.

use std::sync::atomic::{AtomicBool, Ordering};

/// A position in a text, handing out its lines one at a time. It is `Copy`: a reader looks ahead
/// by copying the cursor and reading on from the copy, and takes the lines it keeps by moving the
/// original forward.
///
/// A line ends at LF, CRLF or a lone CR (old Mac files); the line ending is not part of the line.
/// A UTF-8 byte-order mark (U+FEFF) at the start of a line is skipped, so that a line reads the same
/// with or without one: at the start of the text, and where texts that each open with one were
/// joined (`cat a.txt b.txt`). Offsets stay those of the whole text.
///
/// A cursor over a window of a longer text (read in chunks) has an open end: reading past it sets
/// a flag shared by all copies, since whatever was decided there may change once more text comes.
#[derive(Clone, Copy, Debug)]
pub struct Lines<'a> {
    src: &'a str,
    pos: usize,
    open_end: Option<&'a AtomicBool>,
}

impl<'a> Lines<'a> {
    /// The lines of a whole text.
    pub fn new(src: &'a str) -> Lines<'a> {
        Lines::window(src, None)
    }

    /// The lines of a window of a text, from a line start: `open_end` when more text may follow
    /// the window, set once any reader tries to read past it.
    pub fn window(src: &'a str, open_end: Option<&'a AtomicBool>) -> Lines<'a> {
        Lines { src, pos: 0, open_end }
    }

    /// The offset of the next line (after the byte-order mark it may open with).
    pub fn offset(&self) -> usize {
        let rest = self.src.get(self.pos..).unwrap_or("");
        self.pos + rest.len() - without_bom(rest).len()
    }

    /// The whole text (or window) the cursor reads: what its offsets are offsets into.
    pub fn source(&self) -> &'a str {
        self.src
    }

    /// The offset of the end of the text (or of the window).
    pub fn end(&self) -> usize {
        self.src.len()
    }

    /// The next line without taking it.
    pub fn peek(&self) -> Option<(usize, &'a str)> {
        let mut ahead = *self;
        ahead.next()
    }

    /// Moves to `offset`, a line start of the text.
    pub fn seek(&mut self, offset: usize) {
        self.pos = offset.min(self.src.len());
    }

    /// Takes the blank lines ahead, at most `most` of them: `false` when more follow.
    pub fn skip_blanks(&mut self, most: usize) -> bool {
        let blank = |lines: &Lines| lines.peek().is_some_and(|(_, l)| l.trim().is_empty());
        for _ in 0..most {
            if !blank(self) {
                return true;
            }
            self.next();
        }
        !blank(self)
    }
}

/// A line without the byte-order mark it may open with (see [`Lines`]): the mark is no part of
/// the line, nor a column of it.
pub fn without_bom(line: &str) -> &str {
    line.strip_prefix('\u{feff}').unwrap_or(line)
}

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<(usize, &'a str)> {
        let Some(rest) = self.src.get(self.pos..).filter(|r| !r.is_empty()) else {
            if let Some(flag) = self.open_end {
                flag.store(true, Ordering::Relaxed);
            }
            return None;
        };
        let line = without_bom(rest);
        let (at, rest) = (self.pos + rest.len() - line.len(), line);
        // Both line-end bytes are ASCII, so a byte search finds them (SIMD, unlike a `char` pattern).
        let end = memchr::memchr2(b'\n', b'\r', rest.as_bytes()).unwrap_or(rest.len());
        let ending = match rest.as_bytes().get(end) {
            Some(b'\r') if rest.as_bytes().get(end + 1) == Some(&b'\n') => 2,
            Some(_) => 1,
            None => 0,
        };
        self.pos = at + end + ending;
        Some((at, &rest[..end]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_at_lf_crlf_and_lone_cr_and_a_bom_is_skipped() {
        let text = "\u{feff}one\r\ntwo\rthree\nfour";
        let lines: Vec<_> = Lines::new(text).collect();
        assert_eq!(lines, [(3, "one"), (8, "two"), (12, "three"), (18, "four")]);
        assert_eq!(Lines::new("a\n\n").collect::<Vec<_>>(), [(0, "a"), (2, "")]);
        assert_eq!(Lines::new("").count(), 0);
    }

    #[test]
    fn a_bom_opening_any_line_is_skipped() {
        let joined = "\u{feff}a\n\u{feff}b\r\n\u{feff}\nc\u{feff}";
        let lines: Vec<_> = Lines::new(joined).collect();
        assert_eq!(lines, [(3, "a"), (8, "b"), (14, ""), (15, "c\u{feff}")]);
    }
}
