//! What a writer adds to the moves of a record of the common format: comments, move glyphs and
//! variations (grammar.md, "Comments, glyphs and variations"). Read here as syntax, with their
//! spans, and placed among the moves; no game is known here.
//!
//! The record's lines of play are numbered: 0 is the main line (the record's tokens), and `k` is
//! variation `k - 1` of [`Notes::variations`]. Variations are kept in one flat list in the order
//! they open, each naming the line it branches from, so that nesting to any depth costs no
//! recursion, here or in anything that walks them.

use super::{push_capped, Span, SyntaxError, Token};
use crate::geometry::CellLabel;

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

/// A colour of markup: one of four, each drawn the same in every game and style.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Colour {
    /// `red`.
    Red,
    /// `green`, the colour of markup that names none.
    Green,
    /// `blue`.
    Blue,
    /// `yellow`.
    Yellow,
}

impl Colour {
    /// Every colour, as markup names them.
    pub const ALL: [(Colour, &'static str); 4] =
        [(Colour::Red, "red"), (Colour::Green, "green"), (Colour::Blue, "blue"), (Colour::Yellow, "yellow")];

    /// The colour's name, as markup writes it.
    pub fn name(self) -> &'static str {
        Colour::ALL.iter().find(|(c, _)| *c == self).map_or("green", |(_, n)| n)
    }
}

/// What a markup command draws (grammar.md, "Markup").
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Drawing<'a> {
    /// `[%arrow c1c5 red]`: an arrow from one cell to another.
    Arrow {
        /// Where it starts.
        from: CellLabel,
        /// Where it points.
        to: CellLabel,
        /// Its colour.
        colour: Colour,
    },
    /// `[%mark e5 green]`: a cell coloured.
    Mark {
        /// The cell.
        cell: CellLabel,
        /// Its colour.
        colour: Colour,
    },
    /// `[%label d4 "A"]`: a short text (one to three characters) written on a cell.
    Label {
        /// The cell.
        cell: CellLabel,
        /// The text, without its quotes.
        text: &'a str,
    },
    /// A command referee does not draw (`[%clk 0:10:00]`, as other tools write), kept as written.
    Other {
        /// The command's name.
        command: &'a str,
    },
}

impl Drawing<'_> {
    /// The cells it names, in the order written.
    pub fn cells(&self) -> Vec<CellLabel> {
        match *self {
            Drawing::Arrow { from, to, .. } => vec![from, to],
            Drawing::Mark { cell, .. } | Drawing::Label { cell, .. } => vec![cell],
            Drawing::Other { .. } => Vec::new(),
        }
    }
}

/// A markup command inside a comment: something to draw on the board of the position after the
/// move the comment follows.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Markup<'a> {
    /// The comment's place.
    pub at: Place,
    /// What it draws.
    pub drawing: Drawing<'a>,
    /// Where it is written, `[%` to `]`.
    pub span: Span,
}

/// The markup commands in a comment's `text`, which stands at offset `at` of the file, each with
/// its span, at most `most` of them (so that a comment of millions costs no more than a record's
/// notes may); and the syntax errors of those that are not well formed (one each, as many).
pub fn markup_in(text: &str, at: usize, most: usize) -> (Vec<(Drawing<'_>, Span)>, Vec<SyntaxError>) {
    let (mut found, mut errors) = (Vec::new(), Vec::new());
    let mut from = 0;
    while let Some(open) = text[from..].find("[%").map(|i| from + i) {
        if found.len() + errors.len() >= most {
            break;
        }
        let Some(close) = text[open..].find(']').map(|i| open + i) else {
            let message = "this markup is never closed with `]`".into();
            errors.push(SyntaxError { span: at + open..at + open + 2, message });
            break;
        };
        let span = at + open..at + close + 1;
        match drawing(&text[open + 2..close], at + open + 2) {
            Ok(d) => found.push((d, span)),
            Err(e) => errors.push(e),
        }
        from = close + 1;
    }
    (found, errors)
}

/// A comment's `text` as a reader reads it beside a picture: without the markup the picture
/// draws (`[%arrow ...]`, `[%mark ...]`, `[%label ...]`), the blanks around each closed up, and
/// trimmed. Other tools' commands (`[%clk 0:10:00]`), which are not drawn, stay, as does markup
/// that is not well formed.
pub fn without_markup(text: &str) -> String {
    let (found, _) = markup_in(text, 0, usize::MAX);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (drawing, span) in found {
        if matches!(drawing, Drawing::Other { .. }) {
            continue;
        }
        out.push_str(&text[at..span.start]);
        // One blank where the markup and the blanks around it stood, if any.
        let blank_after = text[span.end..].starts_with(char::is_whitespace);
        if blank_after && !out.is_empty() && !out.ends_with(char::is_whitespace) {
            out.push(' ');
        }
        at = span.end + text[span.end..].len() - text[span.end..].trim_start_matches([' ', '\t']).len();
    }
    out.push_str(&text[at..]);
    out.trim().to_string()
}

/// The drawing of a markup command's `body` (between `[%` and `]`), which stands at offset `at`.
fn drawing(body: &str, at: usize) -> Result<Drawing<'_>, SyntaxError> {
    let offset = |word: &str| at + (word.as_ptr() as usize - body.as_ptr() as usize);
    let fault = |word: &str, message: String| {
        let start = offset(word);
        SyntaxError { span: start..start + word.len().max(1), message }
    };
    let mut words = body.split_ascii_whitespace();
    let command = words.next().unwrap_or(body);
    let colour = |word: Option<&str>| match word {
        None => Ok(Colour::Green),
        Some(w) => Colour::ALL
            .iter()
            .find(|(_, n)| *n == w)
            .map(|(c, _)| *c)
            .ok_or_else(|| fault(w, format!("`{w}` is not a markup colour: write red, green, blue or yellow"))),
    };
    let cell = |word: Option<&str>, example: &str| {
        let w = word.unwrap_or(command);
        CellLabel::parse(w).ok_or_else(|| fault(w, format!("a cell is named like `d4`: `{example}`")))
    };
    let drawing = match command {
        "arrow" => {
            let cells = words.next();
            let example = "[%arrow c1c5 red]";
            let w = cells.unwrap_or(command);
            let (from, rest) = CellLabel::read(w.as_bytes())
                .ok_or_else(|| fault(w, format!("an arrow names two cells, run together: `{example}`")))?;
            let to = CellLabel::read(rest)
                .filter(|(_, rest)| rest.is_empty())
                .map(|(to, _)| to)
                .ok_or_else(|| fault(w, format!("an arrow names two cells, run together: `{example}`")))?;
            Drawing::Arrow { from, to, colour: colour(words.next())? }
        }
        "mark" => Drawing::Mark { cell: cell(words.next(), "[%mark e5 green]")?, colour: colour(words.next())? },
        "label" => {
            let cell = cell(words.next(), "[%label d4 \"A\"]")?;
            let quoted = body.find('"').map(|i| &body[i..]).unwrap_or("");
            let text = quoted.strip_prefix('"').and_then(|q| q.strip_suffix('"')).filter(|t| !t.contains('"'));
            match text {
                Some(t) if (1..=3).contains(&t.chars().count()) && !t.contains(char::is_whitespace) => {
                    return Ok(Drawing::Label { cell, text: t });
                }
                _ => {
                    let w = if quoted.is_empty() { body.trim_end() } else { quoted };
                    let w = if w.is_empty() { body } else { w };
                    return Err(fault(
                        w,
                        "a label is one to three characters in quotes, with no blank: `[%label d4 \"A\"]`".into(),
                    ));
                }
            }
        }
        _ if command.is_empty() || !command.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') => {
            return Err(fault(command, "a markup command is a word after `[%`: `[%arrow c1c5 red]`".into()));
        }
        _ => return Ok(Drawing::Other { command }),
    };
    match words.next() {
        Some(extra) => Err(fault(extra, format!("`{extra}` is more than this markup takes"))),
        None => Ok(drawing),
    }
}

/// Everything a record's writer added to its moves.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Notes<'a> {
    /// Markup commands in the comments, in text order.
    pub markup: Vec<Markup<'a>>,
    /// Comments, in text order.
    pub comments: Vec<Comment<'a>>,
    /// Move glyphs, in text order.
    pub glyphs: Vec<Glyph>,
    /// Variations, in the order they open (a variation comes after the line it branches from).
    pub variations: Vec<Variation<'a>>,
}

/// A record's notes where it has none: what [`Notes::of`] gives for a record without any.
pub static NONE: Notes<'static> =
    Notes { markup: Vec::new(), comments: Vec::new(), glyphs: Vec::new(), variations: Vec::new() };

impl<'a> Notes<'a> {
    /// The notes a record holds: most records have none, and hold no room for them (a record
    /// holds `None`, eight bytes, rather than four empty lists: a window of records is held at
    /// once while it is judged).
    pub fn of<'r>(held: &'r Option<Box<Notes<'a>>>) -> &'r Notes<'a> {
        held.as_deref().unwrap_or(&NONE)
    }

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

    /// Where token `k` of the main line `main` ends with what is said of it (its glyphs, comments
    /// and variations): whatever is written after that move (a comment, a variation, the next
    /// move) goes here.
    pub fn said_end(&self, main: &[Token], k: usize) -> usize {
        let at = Place { line: 0, after: k + 1 };
        let comments = self.comments.iter().filter(|c| c.at == at).map(|c| c.span.end);
        let glyphs = self.glyphs.iter().filter(|g| g.at == at).map(|g| g.span.end);
        let variations = self.variations.iter().filter(|v| v.at == at).map(|v| v.span.end);
        comments.chain(glyphs).chain(variations).fold(main[k].span.end, usize::max)
    }
}

/// Most notes (comments, glyphs, markup, variations and the variations' moves) read of one record:
/// as many as its tokens ([`super::MAX_TOKENS`]), far more than the most annotated real record has,
/// so that a record costs what its text costs and no more.
pub const MAX_NOTES: usize = super::MAX_TOKENS;

/// The notes of a record counted as they are read, in either notation: past [`MAX_NOTES`], none is
/// kept, and the first one past says so.
#[derive(Default)]
pub(crate) struct NoteCount {
    held: usize,
}

impl NoteCount {
    /// Counts one more note: `false`, and the record's error at `span` once, past [`MAX_NOTES`].
    pub(crate) fn count(&mut self, span: &Span, errors: &mut Vec<SyntaxError>) -> bool {
        self.held = self.held.saturating_add(1);
        if self.held == MAX_NOTES + 1 {
            let message = format!(
                "this is note {} of the record: referee reads at most {MAX_NOTES} comments, glyphs, variations and \
                 moves of variations of one record, far more than any real record has, so this record is not verified",
                MAX_NOTES + 1
            );
            push_capped(errors, SyntaxError { span: span.clone(), message });
        }
        self.held <= MAX_NOTES
    }

    /// How many more notes may be kept, and one: the one past them, for its error.
    pub(crate) fn room(&self) -> usize {
        MAX_NOTES.saturating_sub(self.held) + 1
    }
}

/// The error of a `(` with no move before it in its line.
pub(crate) const NO_MOVE_BEFORE: &str =
    "a variation is an alternative to the move before it, but no move comes before this one (write it after the move \
     it replaces)";
/// The error of a `)` that closes no variation.
pub(crate) const CLOSES_NONE: &str = "this `)` closes no variation: a variation opens with `(`";
/// The error of `()`.
pub(crate) const NO_MOVES: &str = "this variation has no moves: write the moves that could have been played instead";

/// The glyph `word` writes at `at`, if it is one ([`glyph_of`]): a glyph before any move of its
/// line judges nothing, and is an error.
pub(crate) fn glyph_at(word: &str, at: Place) -> Option<Result<u8, String>> {
    match glyph_of(word)? {
        Ok(_) if at.after == 0 => Some(Err(format!("`{word}` judges a move, so it follows one"))),
        glyph => Some(glyph),
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

/// What a glyph says, in words, as PGN defines glyphs 0 to 19 (`$14`: the first player stands
/// slightly better), or `None` for another number: its meaning is the writer's.
pub fn glyph_meaning(nag: u8) -> Option<&'static str> {
    const MEANINGS: [&str; 20] = [
        "no judgement",
        "a good move",
        "a poor move",
        "a very good move",
        "a very poor move",
        "an interesting move",
        "a dubious move",
        "the only move",
        "the only good move",
        "the worst move",
        "an even position",
        "equal chances, a quiet position",
        "equal chances, a lively position",
        "an unclear position",
        "the first player stands slightly better",
        "the second player stands slightly better",
        "the first player stands better",
        "the second player stands better",
        "the first player is winning",
        "the second player is winning",
    ];
    MEANINGS.get(usize::from(nag)).copied()
}

/// Each glyph of `glyphs`, glyphs as [`glyph_text`] writes them apart by blanks (`!? $14`, as a
/// picture's caption gives them), with what it says: [`glyph_meaning`], or empty for a number
/// whose meaning is the writer's.
pub fn glyph_words(glyphs: &str) -> Vec<(&str, &'static str)> {
    glyphs
        .split_whitespace()
        .map(|g| (g, glyph_of(g).and_then(Result::ok).and_then(glyph_meaning).unwrap_or_default()))
        .collect()
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

    #[test]
    fn a_comment_is_read_without_the_markup_a_picture_draws() {
        assert_eq!(without_markup("a good start [%arrow d1d2 green] indeed"), "a good start indeed");
        assert_eq!(without_markup(" [%mark b2 yellow] [%label c3 \"A\"] "), "");
        assert_eq!(
            without_markup("Played here. [%mark b2]\nThen [%clk 0:10:00] [%mark e9 purple]"),
            "Played here. \nThen [%clk 0:10:00] [%mark e9 purple]"
        );
        assert_eq!(without_markup("x [%arrow a1"), "x [%arrow a1");
    }
}
