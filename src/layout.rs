//! Records laid out again, every word of their writers' kept: what an editor's formatting does.
//!
//! A layout changes only spacing, line breaks and move numbers. A record of the common format
//! keeps its tags in the order and spelling written (one a line), its diagrams as drawn, its
//! moves as written (not as the engine would write them), every comment byte for byte in its
//! place, its glyphs and its variations; its movetext is laid out as `convert --to canonical` lays
//! it out (one numbered line a round, variations inline with their own numbers). A record of the
//! published notation has only its own move lines spaced again (single spaces, the lines numbered
//! `1.`, `2.`, ... as the canonical layout numbers them): every other line in its span (a title, a
//! header, a diagram, prose) stays exactly as it is.
//!
//! A layout is given only where reading it back gives the record as written: the same words but
//! move numbers, tags, tokens, comments, glyphs, variations, diagrams and verdict; and the
//! layouts of a text, made together, must leave every record where they put it ([`layout`]).
//! Else the record stays as written. A record need not replay to be laid out; one of more than two players whose
//! moves do not all replay is not (its rounds, and so its move numbers, depend on who is out).

use crate::document::tree::tree_of;
use crate::document::{MoveEntry, NoteEntry};
use crate::format::common::common_start;
use crate::format::movetext::{self, Spelling};
use crate::format::{AsPlayable, WithPlayable};
use crate::game::Playable;
use crate::judge::Games;
use crate::record::common::{CommonRecord, TextDiagram};
use crate::record::notes::Place;
use crate::record::{self, Diagram, Found, Lines, Record, Span, TokenKind};
use crate::search::Stop;
use crate::verdict::{ClaimKind, ClaimStatus, ProblemKind, Status};
use crate::verify::{prepare, VerifyOptions};

/// Most bytes of the text after a record that its layout is read back with: what decides where a
/// record ends is its next few lines.
const TAIL: usize = 1024;

/// Most times the edits of a text are read together ([`settle`]) before formatting gives up.
const MAX_SETTLE: usize = 8;

/// The layout of every record of `text` that has one other than as written, as the bytes each
/// replaces and the text that replaces them, in text order; the text between records stays.
/// `None` when `stop` is given (checked between records).
pub fn layout<S: Games>(text: &str, options: VerifyOptions<S>, stop: &Stop) -> Option<Vec<(Span, String)>> {
    let mut records = record::read(text, options.reading()).peekable();
    let mut spans = Vec::new();
    let mut edits = Vec::new();
    while let Some(found) = records.next() {
        if stop.is_given() {
            return None;
        }
        let span = found.span();
        spans.push((span.clone(), matches!(found, Found::Common(_))));
        let next = records.peek().map_or(text.len(), |f| f.span().start).max(span.end);
        let Some(laid) = laid_out(text, &found, options) else { continue };
        if laid != text[span.clone()] && reads_back(text, &found, &laid, tail(text, span.end, next), options) {
            edits.push(Edit { record: spans.len() - 1, span, laid });
        }
    }
    settle(text, options, &spans, &mut edits, stop)?;
    Some(edits.into_iter().map(|e| (e.span, e.laid)).collect())
}

/// A record's layout: record `record` of its text, whose `span` `laid` replaces.
struct Edit {
    record: usize,
    span: Span,
    laid: String,
}

/// Keeps the edits that, made together, leave every record of the text where they put it: a
/// record's end depends on the lines after it, which the next record's layout may change (`1 d4`
/// opening a published record is prose to a record of the common format before it; `1. d4`
/// would carry its moves on). Where a record is found elsewhere, the layouts of it and its
/// neighbours are dropped and the text read again, at most [`MAX_SETTLE`] times; then every
/// layout is. `None` when `stop` is given.
fn settle<S: Games>(
    text: &str,
    options: VerifyOptions<S>,
    spans: &[(Span, bool)],
    edits: &mut Vec<Edit>,
    stop: &Stop,
) -> Option<()> {
    for _ in 0..MAX_SETTLE {
        if edits.is_empty() {
            return Some(());
        }
        if stop.is_given() {
            return None;
        }
        let mut made = String::with_capacity(text.len());
        let mut expected = Vec::with_capacity(spans.len());
        let (mut at, mut next) = (0, edits.iter().peekable());
        for (k, (span, common)) in spans.iter().enumerate() {
            // Records are found apart, in text order: were one not, no edit could be made safely.
            if span.start < at {
                edits.clear();
                return Some(());
            }
            let start = made.len() + span.start - at;
            made.push_str(&text[at..span.start]);
            let written = &text[span.clone()];
            made.push_str(next.next_if(|e| e.record == k).map_or(written, |e| e.laid.as_str()));
            expected.push((start..made.len(), *common));
            at = span.end;
        }
        made.push_str(&text[at..]);
        let found = record::read(&made, options.reading()).map(|f| {
            let common = matches!(f, Found::Common(_));
            (f.span(), common)
        });
        let Some(wrong) = found
            .map(Some)
            .chain(std::iter::repeat(None))
            .zip(expected.iter().map(Some).chain([None]))
            .position(|(f, e)| f.as_ref() != e)
        else {
            return Some(());
        };
        edits.retain(|e| e.record + 1 < wrong || e.record > wrong + 1);
    }
    edits.clear();
    Some(())
}

/// A record laid out, not yet read back.
fn laid_out<S: Games>(src: &str, found: &Found, options: VerifyOptions<S>) -> Option<String> {
    match found {
        Found::Published(r) => published_layout(src, r),
        Found::Common(r) => {
            let laid = options.games.with_record_game(
                src,
                r,
                options.game,
                AsPlayable(CommonLayout { src, record: r }),
            )???;
            Some(with_line_end(&laid, line_end(src, r.span.start)))
        }
    }
}

/// The text after a record, from `from` to at most `to`, that its layout is read back with: the
/// whole lines of the first [`TAIL`] bytes.
fn tail(text: &str, from: usize, to: usize) -> &str {
    let limit = to.min(from.saturating_add(TAIL));
    if limit >= text.len() {
        return &text[from..];
    }
    match text.as_bytes()[from..limit].iter().rposition(|&b| b == b'\n' || b == b'\r') {
        Some(end) => &text[from..from + end + 1],
        None => "",
    }
}

/// Whether `laid` keeps every word of the record `found` of `src` (but for move numbers) and,
/// followed by the text that followed the record (`tail`), reads as one record that ends where
/// `laid` does and says what the record says.
fn reads_back<S: Games>(src: &str, found: &Found, laid: &str, tail: &str, options: VerifyOptions<S>) -> bool {
    // What a record's model holds is checked below; this checks that nothing outside it (a word a
    // syntax error past the listed ones passed over) is lost.
    if !same_words(&src[found.span()], laid) {
        return false;
    }
    let probe = format!("{laid}{tail}");
    let Some(again) = record::read(&probe, options.reading()).next() else { return false };
    again.span() == (0..laid.len()) && Said::of(src, found, options) == Said::of(&probe, &again, options)
}

/// A text's words, without move numbers (`12.`, `12...`, alone or glued to what follows, and the
/// bare numbers that open a published move line, along with its announced numbers): what a
/// layout changes nothing of but the blanks between them. A parenthesis or a brace is a word of
/// its own, so that a number after it is found.
fn words(text: &str) -> impl Iterator<Item = &str> {
    let apart = |c: char| matches!(c, '(' | ')' | '{' | '}');
    let mut rest = text;
    std::iter::from_fn(move || loop {
        rest = rest.trim_start();
        let first = rest.chars().next()?;
        let end =
            if apart(first) { 1 } else { rest.find(|c: char| c.is_whitespace() || apart(c)).unwrap_or(rest.len()) };
        let (word, after) = rest.split_at(end);
        rest = after;
        let digits = word.bytes().take_while(u8::is_ascii_digit).count();
        let word = match word[digits..].strip_prefix('.') {
            Some(glued) if digits > 0 => glued.trim_start_matches('.'),
            _ if digits == word.len() => "",
            _ => word,
        };
        if !word.is_empty() {
            return Some(word);
        }
    })
}

/// Whether two texts have the same [`words`], the blanks between them aside (a glyph may be
/// glued to its move or not).
fn same_words(a: &str, b: &str) -> bool {
    words(a).flat_map(str::chars).eq(words(b).flat_map(str::chars))
}

/// The line end a text uses where a record starts: its first line's (`\n` when it has none).
fn line_end(src: &str, from: usize) -> &'static str {
    let rest = &src.as_bytes()[from..];
    match memchr::memchr2(b'\n', b'\r', rest) {
        Some(i) if rest[i] == b'\r' && rest.get(i + 1) == Some(&b'\n') => "\r\n",
        Some(i) if rest[i] == b'\r' => "\r",
        _ => "\n",
    }
}

/// A layout written with `\n`, its line breaks made `end`: those already of `end` (inside a
/// comment) stay as they are.
fn with_line_end(text: &str, end: &str) -> String {
    match end {
        "\r\n" => {
            let mut out = String::with_capacity(text.len() + text.len() / 16);
            let mut last = None;
            for c in text.chars() {
                if c == '\n' && last != Some('\r') {
                    out.push('\r');
                }
                out.push(c);
                last = Some(c);
            }
            out
        }
        "\r" => text.replace('\n', "\r"),
        _ => text.to_string(),
    }
}

// The common format.

struct CommonLayout<'s, 'r> {
    src: &'s str,
    record: &'r CommonRecord<'r>,
}

impl WithPlayable for CommonLayout<'_, '_> {
    type Output = Option<String>;

    fn run<G: Playable>(self) -> Option<String> {
        let start = common_start::<G>(self.src, self.record).ok()?;
        common_layout(self.src, self.record, &start)
    }
}

/// A record of the common format laid out from `start`: its tags, its setup diagram, its
/// movetext, its final diagram, a blank line between them.
fn common_layout<G: Playable>(src: &str, r: &CommonRecord, start: &G) -> Option<String> {
    let mut tree = tree_of(&r.tokens, r.notes(), None).ok()?;
    movetext::fill_as_written(start, &mut tree.moves).ok()?;
    // With more than two players a round ends where the turn order wraps around, which only the
    // moves played tell: past one that is not, its number would be a guess.
    if start.player_names().len() > 2 && !all_played(&tree.moves) {
        return None;
    }
    let result = r.tokens.last().filter(|t| t.kind.is_claim()).map(|t| t.text);
    let moves =
        movetext::write(start, &tree.before, &tree.moves, result, &tree.after_result, Spelling::Written).ok()?;
    let tags: Vec<String> = r.tags.iter().map(|t| format!("[{} \"{}\"]", t.name, t.value)).collect();
    let mut parts = Vec::new();
    if !tags.is_empty() {
        parts.push(tags.join("\n"));
    }
    parts.extend(r.setup.as_ref().map(|d| diagram_as_drawn(src, &d.span)));
    if !moves.is_empty() {
        parts.push(moves);
    }
    parts.extend(r.final_position.as_ref().map(|d| diagram_as_drawn(src, &d.span)));
    Some(parts.join("\n\n"))
}

/// Whether every move of a line and of the variations in it was played.
fn all_played(moves: &[MoveEntry]) -> bool {
    // Variations nest at most `MAX_NESTING` deep (`tree_of`): the recursion is bounded.
    moves.iter().all(|m| {
        m.played()
            && m.after.iter().all(|n| match n {
                NoteEntry::Variation(v) => all_played(&v.moves),
                _ => true,
            })
    })
}

/// A diagram's lines (its label's too) as drawn, without the blanks that end them.
fn diagram_as_drawn(src: &str, span: &Span) -> String {
    Lines::new(&src[span.clone()]).map(|(_, l)| l.trim_end()).collect::<Vec<_>>().join("\n")
}

// The published notation.

/// A record of the published notation with each of its move lines spaced again: `N.` and its
/// words, one blank between them. Every other line of its span stays as it is.
fn published_layout(src: &str, r: &Record) -> Option<String> {
    let mut out = String::with_capacity(r.span.len());
    let mut at = r.span.start;
    for (k, line) in r.lines.iter().enumerate() {
        let text = &src[line.span.clone()];
        // Past the limit of tokens, a record's last line runs to its end: no line is joined.
        if text.contains(['\n', '\r']) {
            return None;
        }
        out.push_str(&src[at..line.span.start]);
        out.push_str(&format!("{}.", k + 1));
        let mut words = text.split_ascii_whitespace();
        let number = words.next()?;
        let glued = number.trim_start_matches(|c: char| c.is_ascii_digit());
        let glued = glued.strip_prefix('.').unwrap_or(glued);
        for word in std::iter::once(glued).filter(|w| !w.is_empty()).chain(words) {
            out.push(' ');
            out.push_str(word);
        }
        at = line.span.end;
    }
    out.push_str(&src[at..r.span.end]);
    Some(out)
}

// Reading back.

/// What a record says, for a layout to keep: what its writer wrote (but for spacing, line breaks
/// and move numbers) and its verdict (but for where things are).
#[derive(PartialEq, Debug)]
struct Said<'a> {
    written: Written<'a>,
    status: Status,
    moves: usize,
    game_over: bool,
    winner: Option<String>,
    problems: Vec<(ProblemKind, String)>,
    claims: Vec<(ClaimKind, ClaimStatus, String)>,
    notes: Vec<String>,
}

/// What a writer wrote.
#[derive(PartialEq, Debug)]
enum Written<'a> {
    Common {
        tags: Vec<(&'a str, &'a str)>,
        tokens: Vec<(&'a str, TokenKind)>,
        comments: Vec<(Place, &'a str, bool)>,
        glyphs: Vec<(Place, u8)>,
        variations: Vec<(Place, Vec<&'a str>)>,
        diagrams: [Option<Vec<Vec<&'a str>>>; 2],
    },
    Published {
        title: Option<&'static str>,
        header: Option<[(record::Side, char); 2]>,
        startup_code: Option<&'a str>,
        diagrams: [Option<(record::DiagramLabel, Vec<char>)>; 2],
        /// Each move line's tokens, their words one blank apart (a claim is several).
        lines: Vec<Vec<(String, TokenKind)>>,
    },
}

impl<'a> Said<'a> {
    fn of<S: Games>(src: &'a str, found: &Found<'a>, options: VerifyOptions<S>) -> Said<'a> {
        let v = prepare(src, found, options).verdict();
        Said {
            written: Written::of(found),
            status: v.status,
            moves: v.moves,
            game_over: v.game_over,
            winner: v.winner,
            problems: v.problems.iter().map(|p| (p.kind, p.said().into_owned())).collect(),
            claims: v.claims.into_iter().map(|c| (c.kind, c.status, c.detail)).collect(),
            notes: v.notes,
        }
    }
}

impl<'a> Written<'a> {
    fn of(found: &Found<'a>) -> Written<'a> {
        match found {
            Found::Common(r) => {
                let glyphs = |d: &Option<TextDiagram<'a>>| {
                    d.as_ref().map(|d| d.rows.iter().map(|row| row.iter().map(|g| g.0).collect()).collect())
                };
                Written::Common {
                    tags: r.tags.iter().map(|t| (t.name, t.value)).collect(),
                    tokens: r.tokens.iter().map(|t| (t.text, t.kind)).collect(),
                    comments: r.notes().comments.iter().map(|c| (c.at, c.text, c.to_line_end)).collect(),
                    glyphs: r.notes().glyphs.iter().map(|g| (g.at, g.nag)).collect(),
                    variations: r
                        .notes()
                        .variations
                        .iter()
                        .map(|v| (v.at, v.tokens.iter().map(|t| t.text).collect()))
                        .collect(),
                    diagrams: [glyphs(&r.setup), glyphs(&r.final_position)],
                }
            }
            Found::Published(r) => {
                let cells = |d: &Option<Diagram>| d.as_ref().map(|d| (d.label, d.cells.iter().map(|c| c.1).collect()));
                let words = |t: &str| t.split_ascii_whitespace().collect::<Vec<_>>().join(" ");
                Written::Published {
                    title: r.title.as_ref().map(|t| t.0),
                    header: r.header.as_ref().map(|h| [(h.sides[0], h.initials[0]), (h.sides[1], h.initials[1])]),
                    startup_code: r.startup_code.as_ref().map(|c| c.1),
                    diagrams: [cells(&r.startup), cells(&r.final_position)],
                    lines: r
                        .lines
                        .iter()
                        .map(|l| r.line_tokens(l).iter().map(|t| (words(t.text), t.kind)).collect())
                        .collect(),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_ends_are_made_the_texts_and_those_of_comments_stay() {
        assert_eq!(with_line_end("a\nb\r\nc", "\r\n"), "a\r\nb\r\nc");
        assert_eq!(with_line_end("a\nb", "\r"), "a\rb");
        assert_eq!(with_line_end("a\nb", "\n"), "a\nb");
        assert_eq!(line_end("x\r\ny", 0), "\r\n");
        assert_eq!(line_end("x\ry", 0), "\r");
        assert_eq!(line_end("x", 0), "\n");
    }

    #[test]
    fn words_leave_out_move_numbers_and_blanks_only() {
        assert!(same_words("1.c1d1 !  d3c3 (2... a1 {3. b})", "1. c1d1! d3c3 (7... a1 {3. b})"));
        assert!(same_words("10  ----  a1", "10. ---- a1"));
        assert!(!same_words("1. a1 * and more", "1. a1 *"));
        assert!(!same_words("1. a1 (b2)", "1. a1 b2"));
        assert!(!same_words("1. a1 {b2}", "1. a1 b2"));
    }

    #[test]
    fn the_tail_is_whole_lines() {
        let text = format!("record\n{}\nmore", "p".repeat(2 * TAIL));
        assert_eq!(tail(&text, 6, text.len()), "\n");
        assert_eq!(tail("record\nend", 6, 10), "\nend");
    }
}
