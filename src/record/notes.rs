//! What a writer adds to the moves of a record of the common format: comments, move glyphs and
//! variations (grammar.md, "Comments, glyphs and variations"). Read here as syntax, with their
//! spans, and placed among the moves; no game is known here.
//!
//! The record's lines of play are numbered: 0 is the main line (the record's tokens), and `k` is
//! variation `k - 1` of [`Notes::variations`]. Variations are kept in one flat list in the order
//! they open, each naming the line it branches from, so that nesting to any depth costs no
//! recursion, here or in anything that walks them.

use super::{Span, Token};

/// A place among the moves of a line of play: after `after` of its tokens (0: before the first).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Place {
    /// The line: 0 for the main line, `k` for variation `k - 1`.
    pub line: usize,
    /// How many of the line's tokens come before the place.
    pub after: usize,
}

/// A comment, as written.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Comment<'a> {
    /// Where it stands: it says something of the move before it (or of its line's start).
    pub at: Place,
    /// Its text, without its `{` `}` or its `;`, exactly as written (line breaks included).
    pub text: &'a str,
    /// Where the whole comment is, `{` and `}` (or `;`) included.
    pub span: Span,
    /// Whether it is written `; ...` to the end of its line rather than `{...}`.
    pub to_line_end: bool,
}

/// A move glyph: `!`, `?`, `!!`, `??`, `!?`, `?!` (glued to the move or standing alone) or `$N`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Glyph {
    /// Where it stands: right after the move it judges (`after` is at least 1).
    pub at: Place,
    /// Its number, as PGN numbers glyphs: 1 `!`, 2 `?`, 3 `!!`, 4 `??`, 5 `!?`, 6 `?!`; any other
    /// `$N` as written.
    pub nag: u8,
    /// Where it is written.
    pub span: Span,
}

/// A variation: moves that could have been played instead of one move of another line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Variation<'a> {
    /// The line it branches from, and (in `after`) the move it is an alternative to: the
    /// variation's first move is played instead of that line's token `after - 1`, from the
    /// position before it.
    pub at: Place,
    /// Where it is written, `(` to `)`.
    pub span: Span,
    /// The move number written before its first move (`12...`), if one is.
    pub number: Option<&'a str>,
    /// Its moves, in order.
    pub tokens: Vec<Token<'a>>,
}

/// Everything a record's writer added to its moves.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Notes<'a> {
    /// Comments, in text order.
    pub comments: Vec<Comment<'a>>,
    /// Move glyphs, in text order.
    pub glyphs: Vec<Glyph>,
    /// Variations, in the order they open (a variation comes after the line it branches from).
    pub variations: Vec<Variation<'a>>,
}

impl<'a> Notes<'a> {
    /// Whether the writer added nothing.
    pub fn is_empty(&self) -> bool {
        self.comments.is_empty() && self.glyphs.is_empty() && self.variations.is_empty()
    }

    /// The tokens of line `line` (see [`Place`]), `main` being the main line's.
    pub fn line<'s>(&'s self, main: &'s [Token<'a>], line: usize) -> &'s [Token<'a>] {
        match line {
            0 => main,
            k => &self.variations[k - 1].tokens,
        }
    }

    /// The lines variation `k - 1` branches from, innermost last, itself included: `[k]` for a
    /// variation of the main line.
    pub fn path(&self, k: usize) -> Vec<usize> {
        let mut path = vec![k];
        let mut at = k;
        // Each variation branches from one that opened before it: the walk ends.
        while at != 0 {
            at = self.variations[at - 1].at.line;
            if at != 0 {
                path.push(at);
            }
        }
        path.reverse();
        path
    }
}

/// The glyph a word writes, if it is one: one of the six of `!` and `?`, or `$N` (0 to 255).
/// `Err` for a word of `!` and `?` that is none of the six, or a `$` not followed by a number
/// that fits.
pub fn glyph_of(word: &str) -> Option<Result<u8, String>> {
    if let Some(n) = word.strip_prefix('$') {
        return Some(
            n.parse::<u8>()
                .ok()
                .filter(|_| n.bytes().all(|b| b.is_ascii_digit()))
                .ok_or_else(|| format!("`{word}` is not a glyph: `$` is followed by a number from 0 to 255")),
        );
    }
    if word.is_empty() || !word.bytes().all(|b| b == b'!' || b == b'?') {
        return None;
    }
    Some(match word {
        "!" => Ok(1),
        "?" => Ok(2),
        "!!" => Ok(3),
        "??" => Ok(4),
        "!?" => Ok(5),
        "?!" => Ok(6),
        _ => Err(format!("`{word}` is not a move glyph: write `!`, `?`, `!!`, `??`, `!?` or `?!` (or `$N`)")),
    })
}

/// How a glyph is written: the six of `!` and `?` as such, glued to their move; others `$N`.
pub fn glyph_text(nag: u8) -> String {
    match nag {
        1 => "!".into(),
        2 => "?".into(),
        3 => "!!".into(),
        4 => "??".into(),
        5 => "!?".into(),
        6 => "?!".into(),
        n => format!("${n}"),
    }
}

/// A move word split from the glyph glued to its end (`d4e4!?`: `d4e4` and `!?`), where it has
/// one: only `!` and `?` may be glued, and no move of any game ends with either.
pub fn split_glued_glyph(word: &str) -> (&str, &str) {
    let glyph = word.bytes().rev().take_while(|&b| b == b'!' || b == b'?').count();
    word.split_at(word.len() - glyph)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_six_glyphs_and_numbered_ones_read_and_write_alike() {
        for nag in 0..=255u8 {
            let text = glyph_text(nag);
            assert_eq!(glyph_of(&text), Some(Ok(nag)), "{text}");
        }
        assert_eq!(glyph_of("$1"), Some(Ok(1)));
        assert!(glyph_of("!!!").unwrap().is_err());
        assert!(glyph_of("$256").unwrap().is_err());
        assert!(glyph_of("$+1").unwrap().is_err());
        assert!(glyph_of("$").unwrap().is_err());
        assert_eq!(glyph_of("d4"), None);
        assert_eq!(split_glued_glyph("d4e4!?"), ("d4e4", "!?"));
        assert_eq!(split_glued_glyph("d4e4"), ("d4e4", ""));
    }
}
