//! The common record format of the games without a published notation (grammar.md, "The common
//! record format"): PGN-style tag pairs, numbered movetext with `{...}` comments and a result
//! token, and optional setup and final diagrams in the style `referee show` prints.
//!
//! Only syntax is checked here; move tokens are handed to their game as text with spans.

use super::cursor::Lines;
use super::notes::{
    glyph_at, glyph_of, markup_in, split_glued_glyph, Comment, Glyph, Markup, NoteCount, Notes, Place, Variation,
    CLOSES_NONE, NO_MOVES, NO_MOVE_BEFORE,
};
use super::{
    cap_syntax_errors, push_capped, row_past_any_board, rows_past_any_board, Capped, Span, SyntaxError, Token,
    TokenKind, Tokens,
};
use crate::geometry::MAX_ROW_CELLS;

/// A `[Name "value"]` pair.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Tag<'a> {
    /// The tag's name (`Game`, `Size`, `Result`, ...).
    pub name: &'a str,
    /// Its value, without the quotes.
    pub value: &'a str,
    /// Where the whole tag is in the text.
    pub span: Span,
    /// Where the value is, without its quotes.
    pub value_span: Span,
}

/// A diagram as written: one glyph per cell, row by row, not yet read by any game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TextDiagram<'a> {
    /// Where the diagram is in the text.
    pub span: Span,
    /// Each row's glyphs with where each is, top row first.
    pub rows: Vec<Vec<(&'a str, Span)>>,
}

impl TextDiagram<'_> {
    /// Every glyph, in reading order.
    pub fn glyphs(&self) -> Vec<&str> {
        self.rows.iter().flatten().map(|g| g.0).collect()
    }
}

/// One record of the common format.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CommonRecord<'a> {
    /// 1-based position among the text's records.
    pub index: usize,
    /// Where the record is in the text, from its first tag to its last line.
    pub span: Span,
    /// Its tag pairs, in order.
    pub tags: Vec<Tag<'a>>,
    /// The diagram before the moves (`Setup:`), when the game does not start on an empty board.
    pub setup: Option<TextDiagram<'a>>,
    /// Moves and the result token of the main line, in order (move numbers are left out).
    pub tokens: Vec<Token<'a>>,
    /// The comments, glyphs and variations written among the moves, if any ([`CommonRecord::notes`]).
    pub annotations: Option<Box<Notes<'a>>>,
    /// The diagram after the moves (`Final Position:`), which the replay must reach.
    pub final_position: Option<TextDiagram<'a>>,
    /// Every syntax error of the record, in text order.
    pub syntax_errors: Vec<SyntaxError>,
}

impl<'a> CommonRecord<'a> {
    /// The comments, glyphs and variations written among the moves.
    pub fn notes(&self) -> &Notes<'a> {
        Notes::of(&self.annotations)
    }

    /// The same, to add to.
    fn notes_mut(&mut self) -> &mut Notes<'a> {
        self.annotations.get_or_insert_with(Default::default)
    }

    /// The tag of that name, whatever its case (a record gives each tag once: see
    /// [`repeated_tags`]).
    pub fn tag(&self, name: &str) -> Option<&Tag<'a>> {
        self.tags.iter().find(|t| t.name.eq_ignore_ascii_case(name))
    }
}

/// Every tag whose name (whatever its case) an earlier tag already gives, as `(earlier, later)`
/// indices into `names`: a record gives each tag once, so that no value is silently left out
/// (two `[Result]` tags that disagree claim nothing).
pub fn repeated_tags<'t>(names: impl IntoIterator<Item = &'t str>) -> Vec<(usize, usize)> {
    let names: Vec<&str> = names.into_iter().collect();
    // A record has a handful of tags: comparing each with those before it costs less than a map
    // of lowercased names, which every record of a file would pay for.
    if names.len() <= FEW_TAGS {
        return (0..names.len())
            .filter_map(|i| (0..i).find(|&j| names[j].eq_ignore_ascii_case(names[i])).map(|j| (j, i)))
            .collect();
    }
    let mut first = std::collections::HashMap::new();
    let mut repeats = Vec::new();
    for (i, name) in names.into_iter().enumerate() {
        match first.entry(name.to_ascii_lowercase()) {
            std::collections::hash_map::Entry::Occupied(e) => repeats.push((*e.get(), i)),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(i);
            }
        }
    }
    repeats
}

/// Up to this many tags, [`repeated_tags`] compares them pairwise.
const FEW_TAGS: usize = 16;

/// What a tag given twice is told, at the second one.
pub fn repeated_tag_message(name: &str, first_value: &str, whose: &str) -> String {
    format!("the {name} tag is given twice (first as \"{first_value}\"): {whose} gives each tag once")
}

/// Whether a line opens a record of the common format: its first tag is well formed.
pub fn opens_record(line: &str) -> bool {
    line.trim_start().strip_prefix('[').and_then(tag_body).is_some()
}

/// `Name "value"]` after a tag's `[`: its name, its value and the text after the `]`.
fn tag_body(body: &str) -> Option<(&str, &str, &str)> {
    let name_len = body.find(|c: char| !c.is_ascii_alphanumeric() && c != '_').unwrap_or(body.len());
    let (name, after) = body.split_at(name_len);
    let quoted = after.trim_start().strip_prefix('"')?;
    let close = quoted.find('"')?;
    let tail = quoted[close + 1..].trim_start().strip_prefix(']')?;
    (!name.is_empty()).then_some((name, &quoted[..close], tail))
}

/// Reads the tags of a line made only of tags onto `tags`, its error onto `errors`; `false` if
/// the line is anything else. A line with a malformed tag gives none of its tags.
fn tag_line<'a>(line: &'a str, at: usize, tags: &mut Capped<Tag<'a>>, errors: &mut Vec<SyntaxError>) -> bool {
    let trimmed = line.trim();
    if !trimmed.starts_with('[') {
        return false;
    }
    let before = tags.len();
    let mut rest = trimmed;
    let offset = |s: &str| at + (s.as_ptr() as usize - line.as_ptr() as usize);
    while !rest.is_empty() {
        let Some((name, value, tail)) = rest.strip_prefix('[').and_then(tag_body) else {
            let end = rest.find(']').map_or(rest.len(), |e| e + 1);
            let span = offset(rest)..offset(rest) + end;
            tags.truncate(before);
            push_capped(errors, SyntaxError { span, message: "a tag is written `[Name \"value\"]`".into() });
            return true;
        };
        let vs = offset(value);
        let span = offset(rest)..offset(tail);
        tags.push(Tag { name, value, span: span.clone(), value_span: vs..vs + value.len() }, &span, errors);
        rest = tail.trim_start();
    }
    true
}

/// Column letters over (or under) a diagram: `a b c d` on square boards, or `abcdefghijk` over a
/// hex board's doubled columns.
fn letters_line(line: &str) -> bool {
    let mut n = 0u8;
    for c in line.bytes().filter(|c| !c.is_ascii_whitespace()) {
        if c != b'a' + n {
            return false;
        }
        n += 1;
    }
    n >= 2
}

/// Glyphs of a diagram row, each with where it is.
type Glyphs<'a> = Vec<(&'a str, Span)>;

/// A diagram row: glyphs, then the row number (`1.` or `1`). Returns the first
/// [`MAX_ROW_CELLS`] + 1 glyphs with where each is, how many glyphs the row has, and its number:
/// a row of millions of cells costs its scan, not its cells.
fn diagram_row(line: &str, at: usize) -> Option<(Glyphs<'_>, usize, u16)> {
    // One pass over the words: each is a glyph once a word follows it; the last is the number.
    let mut words = line.split_ascii_whitespace();
    let mut last = words.next()?;
    // Room for the cells of a row of the widest board at once, not grown a cell at a time.
    let mut cells = Vec::with_capacity(line.len().div_ceil(2).min(MAX_ROW_CELLS + 1));
    let mut count = 0;
    for next in words {
        let g = std::mem::replace(&mut last, next);
        // Only a word that opens with a digit can be a move number.
        let first = g.as_bytes()[0];
        if matches!(first, b'{' | b'[') || (first.is_ascii_digit() && strip_move_number(g).is_some()) {
            return None;
        }
        count += 1;
        if cells.len() <= MAX_ROW_CELLS {
            let off = at + (g.as_ptr() as usize - line.as_ptr() as usize);
            cells.push((g, off..off + g.len()));
        }
    }
    let number =
        crate::game::code::read_number(last.strip_suffix('.').unwrap_or(last), u64::from(u16::MAX)).ok()? as u16;
    (count > 0).then_some((cells, count, number))
}

/// What a `[Result "..."]` value claims, if it is a result.
pub fn result_kind(value: &str) -> Option<TokenKind> {
    result_token(value.trim())
}

fn result_token(word: &str) -> Option<TokenKind> {
    if word == "*" {
        return Some(TokenKind::Result { winner: None, players: 0 });
    }
    // Every move token is tried here: one that cannot be a result is told so at its first byte,
    // and the others are read in one pass, without allocating.
    if !word.starts_with(['0', '1']) {
        return None;
    }
    let (mut players, mut winner) = (0u8, None);
    for place in word.split('-') {
        match place {
            "0" => {}
            // More than one winner is no result.
            "1" if winner.is_none() => winner = Some(players),
            _ => return None,
        }
        players += 1;
        if players > 8 {
            return None;
        }
    }
    // All zeros: the game ended and nobody won (a tie).
    (players >= 2).then_some(TokenKind::Result { winner, players })
}

/// How the result token is written, for the errors of words meant as one.
pub const RESULT_SYNTAX: &str = "write one place per player, in turn order, 1 for the winner and 0 for \
     the others (`1-0`, `0-1`, `0-0-1-0`), all 0 when nobody won (`0-0`), or `*` for no result";

/// The error of a word meant as a result that is none: a draw as other formats write it
/// (`1/2-1/2`, `½-½`, `0.5-0.5`, `draw`), or places that are not 0 or one 1 (`1-1`, `2-0`).
/// A move of any game starts with a letter, so none is taken for one.
pub fn not_a_result(word: &str) -> Option<String> {
    // Called on every word of every movetext, so a move or a move number is told apart at once,
    // and nothing is allocated: a draw starts with `d`, `t`, `=`, `½` (0xC2 0xBD) or `1/`, places
    // with a digit or `½` and hold a separator a move number (`12.`, `12...`) has not.
    let bytes = word.as_bytes();
    let maybe = match bytes.first() {
        Some(b'0'..=b'9') => !bytes.iter().all(|&b| b.is_ascii_digit() || b == b'.'),
        Some(b'=' | 0xC2) => true,
        Some(b'd' | b'D' | b't' | b'T') => (3..=6).contains(&bytes.len()),
        _ => false,
    };
    if !maybe {
        return None;
    }
    let bare = word.trim_end_matches(['.', '!']);
    let drawn = ["draw", "drawn", "tie", "=", "½", "1/2"].iter().any(|d| bare.eq_ignore_ascii_case(d));
    let places = || {
        !bare.is_empty()
            && bare.chars().all(|c| matches!(c, '0'..='9' | '/' | '½' | '.' | '-' | ':' | '='))
            && bare.contains(['-', ':', '½', '/', '='])
            && bare.contains(|c: char| c.is_ascii_digit() || c == '½')
    };
    ((drawn || places()) && result_token(word).is_none())
        .then(|| format!("`{word}` is not a result token: {RESULT_SYNTAX}"))
}

/// A move number: `12.` or `12...`, alone or glued to the move that follows (`12.d4`).
pub(crate) fn strip_move_number(word: &str) -> Option<&str> {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || !word[digits..].starts_with('.') {
        return None;
    }
    Some(word[digits..].trim_start_matches('.'))
}

/// A diagram read from the lines ahead, and where reading goes on after it.
struct Ahead<'a> {
    diagram: TextDiagram<'a>,
    /// Why no board can be drawn so: a row, or a count of rows, past any board's.
    refused: Option<SyntaxError>,
    /// `Setup:` or `Final Position:`, if the diagram is labelled.
    label: Option<DiagramSlot>,
    after: Lines<'a>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum DiagramSlot {
    Setup,
    Final,
}

/// The diagram that opens at the next line of `lines`, if one does: an optional label, column
/// letters, then rows numbered 1, 2, ... (hex diagrams repeat the letters under the rows).
fn diagram_ahead<'a>(lines: &Lines<'a>) -> Option<Ahead<'a>> {
    let mut after = *lines;
    let first = after.next()?;
    diagram_at(first, after)
}

/// The diagram that opens at the line `(at, first)`, if one does; `after` is the cursor past
/// that line (see [`diagram_ahead`]). Asked at every line of a movetext, which the caller has
/// read already: each line is read once, and no text is made to compare.
fn diagram_at<'a>((at, first): (usize, &'a str), mut ahead: Lines<'a>) -> Option<Ahead<'a>> {
    let label_text = first.trim();
    let label = if label_text.eq_ignore_ascii_case("setup:") {
        Some(DiagramSlot::Setup)
    } else if label_text.eq_ignore_ascii_case("final position:") {
        Some(DiagramSlot::Final)
    } else {
        None
    };
    let letters = if label.is_some() { ahead.next()?.1 } else { first };
    if !letters_line(letters) {
        return None;
    }
    // The rows read, of which the first `MAX_ROW_CELLS` + 1 are kept, each with its first cells
    // and how many it has.
    let mut rows = Vec::new();
    let mut counts = Vec::new();
    let mut seen = 0;
    let mut end = at;
    let mut past = ahead;
    while let Some((a, l)) = past.next() {
        match diagram_row(l, a) {
            Some((cells, count, n)) if n as usize == seen + 1 => {
                seen += 1;
                if rows.len() <= MAX_ROW_CELLS {
                    rows.push(cells);
                    counts.push(count);
                }
            }
            _ => break,
        }
        ahead = past;
        end = a + l.len();
    }
    let row_span = |r: &Glyphs| r[0].1.start..r[r.len() - 1].1.end;
    let refused = match counts.iter().position(|&c| c > MAX_ROW_CELLS) {
        Some(k) => Some(row_past_any_board(k + 1, counts[k], row_span(&rows[k]))),
        None => (seen > MAX_ROW_CELLS).then(|| rows_past_any_board(seen, row_span(&rows[MAX_ROW_CELLS]))),
    };
    if rows.is_empty() {
        return None;
    }
    if let Some((a, l)) = ahead.peek().filter(|(_, l)| letters_line(l)) {
        end = a + l.len();
        ahead.next();
    }
    Some(Ahead { diagram: TextDiagram { span: at..end, rows }, refused, label, after: ahead })
}

/// Whether a line can open a record's movetext: a move number, a comment or a result token first.
fn opens_movetext(line: &str) -> bool {
    carries_movetext_on(line) || line.split_ascii_whitespace().next().is_some_and(|w| result_token(w).is_some())
}

/// Whether a line after a blank one carries the movetext on: it opens with a move number, a
/// comment, or a parenthesis of a variation. Anything else after a blank line is prose and ends a record that has begun its moves.
fn carries_movetext_on(line: &str) -> bool {
    let first = line.split_ascii_whitespace().next().unwrap_or("");
    strip_move_number(first).is_some() || first.starts_with(['{', ';', '(', ')'])
}

/// Reads the record of the common format that opens at the next line of `lines` (its tag lines,
/// or its first move line when `--game` names the game of a record without tags), and moves
/// `lines` past it.
///
/// The record ends at its result token, with a final diagram if one follows (blank lines
/// between); without a result token, at the next tag line, at a final diagram, or at the first
/// line after a blank line that neither opens with a move number nor is a comment.
pub fn read_record<'a>(lines: &mut Lines<'a>) -> CommonRecord<'a> {
    read_record_in(lines, &mut Vec::new())
}

/// [`read_record`], gathering the tokens in a reader's `scratch` vector (see
/// [`Capped::tokens_in`]).
pub(crate) fn read_record_in<'a>(lines: &mut Lines<'a>, scratch: &mut Vec<Token<'a>>) -> CommonRecord<'a> {
    let start = lines.offset();
    let mut r = CommonRecord {
        index: 0,
        span: start..start,
        tags: Vec::new(),
        setup: None,
        tokens: Vec::new(),
        annotations: None,
        final_position: None,
        syntax_errors: Vec::new(),
    };
    let mut tags = Capped::tags();
    let mut after = *lines;
    while let Some((at, line)) = after.next() {
        if !tag_line(line, at, &mut tags, &mut r.syntax_errors) {
            break;
        }
        *lines = after;
        r.span.end = at + line.len();
    }
    r.tags = tags.into_vec();
    for (first, again) in repeated_tags(r.tags.iter().map(|t| t.name)) {
        let (first, again) = (&r.tags[first], &r.tags[again]);
        let message = repeated_tag_message(first.name, first.value, "a record");
        push_capped(&mut r.syntax_errors, SyntaxError { span: again.span.clone(), message });
    }
    let mut open = Open::default();
    let mut begun = false;
    let mut tokens = Tokens::tokens_in(std::mem::take(scratch));
    loop {
        // The cursor past the next line: each line is read once.
        let mut after = *lines;
        let mut read = None;
        if open.comment.is_none() {
            let Some((at, line)) = after.next() else { break };
            read = Some((at, line));
            if line.trim().is_empty() {
                let mut past = *lines;
                // A record waits for its movetext to go on as long as a title waits for its moves.
                if !past.skip_blanks(super::MAX_WAIT_LINES) {
                    break;
                }
                let Some((_, next)) = past.peek() else { break };
                if !begun || carries_movetext_on(next) || diagram_ahead(&past).is_some() {
                    *lines = past;
                    continue;
                }
                break;
            }
            if opens_record(line) {
                break;
            }
            // Movetext opens with a move number, a comment or the result: text of any other shape
            // after the tags is prose, and the record has no moves.
            let ahead = diagram_at((at, line), after);
            if !begun && ahead.is_none() && !opens_movetext(line) {
                break;
            }
            if let Some(ahead) = ahead {
                *lines = ahead.after;
                r.span.end = ahead.diagram.span.end;
                let slot = ahead.label.unwrap_or(if begun { DiagramSlot::Final } else { DiagramSlot::Setup });
                place_diagram(&mut r, ahead.diagram, ahead.refused, slot);
                if slot == DiagramSlot::Final {
                    break;
                }
                continue;
            }
        }
        let Some((at, line)) = read.or_else(|| after.next()) else { break };
        *lines = after;
        begun = true;
        r.span.end = at + line.len();
        if movetext_line(&mut r, &mut tokens, lines.source(), (at, line), &mut open) == Line::Result {
            // A comment opened after the result runs on to its `}`, over as many lines as it takes.
            while open.comment.is_some() {
                let Some((at, line)) = lines.next() else { break };
                r.span.end = at + line.len();
                movetext_line(&mut r, &mut tokens, lines.source(), (at, line), &mut open);
            }
            // A final diagram may follow the result, after blank lines (as many as a published
            // record waits for its diagram).
            let mut past = *lines;
            let ahead = if past.skip_blanks(super::MAX_WAIT_LINES) { diagram_ahead(&past) } else { None };
            if let Some(ahead) = ahead.filter(|a| a.label != Some(DiagramSlot::Setup)) {
                *lines = ahead.after;
                r.span.end = ahead.diagram.span.end;
                place_diagram(&mut r, ahead.diagram, ahead.refused, DiagramSlot::Final);
            }
            break;
        }
    }
    if let Some(start) = open.comment {
        push_capped(
            &mut r.syntax_errors,
            SyntaxError { span: start..start + 1, message: "this comment is never closed with `}`".into() },
        );
    }
    if let Some(&k) = open.variations.first() {
        let start = r.notes().variations[k - 1].span.start;
        let message = "this variation is never closed with `)`".into();
        push_capped(&mut r.syntax_errors, SyntaxError { span: start..start + 1, message });
    }
    (r.tokens, *scratch) = tokens.into_exact();
    if r.final_position.is_some() && r.tokens.is_empty() && r.setup.is_none() {
        // A lone diagram after the tags is a setup, whatever its label said.
        r.setup = r.final_position.take();
    }
    r.syntax_errors.sort_by_key(|e| e.span.start);
    cap_syntax_errors(&mut r.syntax_errors);
    r
}

/// Gives the record its diagram, or the syntax error of one that no board can be.
fn place_diagram<'a>(r: &mut CommonRecord<'a>, d: TextDiagram<'a>, refused: Option<SyntaxError>, slot: DiagramSlot) {
    if let Some(e) = refused {
        push_capped(&mut r.syntax_errors, e);
        return;
    }
    let place = match slot {
        DiagramSlot::Setup => &mut r.setup,
        DiagramSlot::Final => &mut r.final_position,
    };
    if place.is_some() {
        let which = if slot == DiagramSlot::Setup { "setup" } else { "final" };
        push_capped(
            &mut r.syntax_errors,
            SyntaxError { span: d.span.clone(), message: format!("a record has one {which} diagram at most") },
        );
    } else {
        *place = Some(d);
    }
}

/// How a movetext line ended.
#[derive(PartialEq, Eq)]
enum Line {
    /// The movetext goes on.
    Goes,
    /// The line holds the result token: the movetext ends there.
    Result,
}

/// What a record's movetext holds open from one line to the next as it is read.
#[derive(Default)]
struct Open<'a> {
    /// The `{` of a comment not yet closed.
    comment: Option<usize>,
    /// The variations not yet closed, innermost last, as lines (see [`Place`]).
    variations: Vec<usize>,
    /// Variations opened past the limit of notes, not kept: only counted, to close them.
    uncounted: usize,
    /// Whether the main line's result token was read: only comments may follow it.
    ended: bool,
    /// A move number just read, which the first move of a variation may follow (`(12... c3`).
    number: Option<&'a str>,
    /// The record's notes, counted.
    notes: NoteCount,
}

pub use super::notes::MAX_NOTES;

impl<'a> Open<'a> {
    /// The line of play being written: the innermost open variation's, or the main line.
    fn line(&self) -> usize {
        self.variations.last().copied().unwrap_or(0)
    }

    /// Counts one more note (see [`NoteCount::count`]).
    fn count(&mut self, span: &Span, errors: &mut Vec<SyntaxError>) -> bool {
        self.notes.count(span, errors)
    }
}

/// Where the writer is: after so many tokens of the line being written.
fn place<'a>(r: &CommonRecord<'a>, tokens: &Tokens<'a>, open: &Open<'a>) -> Place {
    let line = open.line();
    let after = match line {
        0 => tokens.len(),
        k => r.notes().variations[k - 1].tokens.len(),
    };
    Place { line, after }
}

/// Keeps a move (or the result) of the line being written.
fn push_move<'a>(r: &mut CommonRecord<'a>, tokens: &mut Tokens<'a>, open: &mut Open<'a>, token: Token<'a>) {
    let number = open.number.take();
    match open.line() {
        0 => tokens.push_token(token, &mut r.syntax_errors),
        k => {
            if open.count(&token.span, &mut r.syntax_errors) {
                let v = &mut r.notes_mut().variations[k - 1];
                if v.tokens.is_empty() {
                    v.number = number;
                }
                v.tokens.push(token);
            }
        }
    }
}

/// Keeps a glyph written at `span`, after the move of the line being written.
fn push_glyph<'a>(r: &mut CommonRecord<'a>, tokens: &Tokens<'a>, open: &mut Open<'a>, word: &str, span: Span) {
    let at = place(r, tokens, open);
    let Some(nag) = glyph_at(word, at) else { return };
    match nag {
        Ok(nag) if open.count(&span, &mut r.syntax_errors) => r.notes_mut().glyphs.push(Glyph { at, nag, span }),
        Ok(_) => {}
        Err(message) => push_capped(&mut r.syntax_errors, SyntaxError { span, message }),
    }
}

/// Keeps a comment written at `span`, whose text is `text`.
fn push_comment<'a>(
    r: &mut CommonRecord<'a>,
    tokens: &Tokens<'a>,
    open: &mut Open<'a>,
    text: &'a str,
    span: Span,
    to_line_end: bool,
) {
    let at = place(r, tokens, open);
    if !open.count(&span, &mut r.syntax_errors) {
        return;
    }
    // The text opens one byte into the comment, past its `{` or `;`.
    if text.contains("[%") {
        // One past what the record may still hold, for the error at it.
        let (found, errors) = markup_in(text, span.start + 1, open.notes.room());
        for e in errors {
            push_capped(&mut r.syntax_errors, e);
        }
        for (drawing, span) in found {
            if !open.count(&span, &mut r.syntax_errors) {
                break;
            }
            r.notes_mut().markup.push(Markup { at, drawing, span });
        }
    }
    r.notes_mut().comments.push(Comment { at, text, span, to_line_end });
}

/// Opens a variation at the `(` at `start`.
fn open_variation<'a>(r: &mut CommonRecord<'a>, tokens: &Tokens<'a>, open: &mut Open<'a>, start: usize) {
    let span = start..start + 1;
    if open.uncounted > 0 || !open.count(&span, &mut r.syntax_errors) {
        open.uncounted += 1;
        return;
    }
    let at = place(r, tokens, open);
    if at.after == 0 {
        push_capped(&mut r.syntax_errors, SyntaxError { span: span.clone(), message: NO_MOVE_BEFORE.into() });
    }
    r.notes_mut().variations.push(Variation { at, span, number: None, tokens: Vec::new() });
    open.variations.push(r.notes_mut().variations.len());
    open.number = None;
}

/// Closes the innermost open variation at the `)` at `start`.
fn close_variation(r: &mut CommonRecord<'_>, open: &mut Open<'_>, start: usize) {
    if open.uncounted > 0 {
        open.uncounted -= 1;
        return;
    }
    let Some(k) = open.variations.pop() else {
        return push_capped(&mut r.syntax_errors, SyntaxError { span: start..start + 1, message: CLOSES_NONE.into() });
    };
    let v = &mut r.notes_mut().variations[k - 1];
    v.span.end = start + 1;
    if v.tokens.is_empty() {
        let span = v.span.clone();
        push_capped(&mut r.syntax_errors, SyntaxError { span, message: NO_MOVES.into() });
    }
    open.number = None;
}

/// Tokens of one movetext line (`line`, at offset `at` of `src`): moves, the result, move numbers,
/// comments, glyphs and the parentheses of variations.
fn movetext_line<'a>(
    r: &mut CommonRecord<'a>,
    tokens: &mut Tokens<'a>,
    src: &'a str,
    (at, line): (usize, &'a str),
    open: &mut Open<'a>,
) -> Line {
    let offset = |s: &str| at + (s.as_ptr() as usize - line.as_ptr() as usize);
    let mut rest = line;
    let mut result = open.ended;
    loop {
        if let Some(start) = open.comment {
            match rest.find('}') {
                Some(close) => {
                    let end = offset(rest) + close;
                    push_comment(r, tokens, open, &src[start + 1..end], start..end + 1, false);
                    rest = &rest[close + 1..];
                    open.comment = None;
                }
                None => break,
            }
        }
        let trimmed = trim_start(rest);
        if trimmed.is_empty() {
            break;
        }
        let start = offset(trimmed);
        if let Some(text) = trimmed.strip_prefix(';') {
            push_comment(r, tokens, open, text, start..start + trimmed.len(), true);
            break;
        }
        if let Some(body) = trimmed.strip_prefix('{') {
            open.comment = Some(start);
            rest = body;
            continue;
        }
        if result {
            // Only a comment may follow the result token on its line.
            let text = trimmed.trim_end();
            let message = format!("nothing may follow the result token on its line, but `{text}` does");
            push_capped(&mut r.syntax_errors, SyntaxError { span: start..start + text.len(), message });
            break;
        }
        if let Some(body) = trimmed.strip_prefix('(') {
            open_variation(r, tokens, open, start);
            rest = body;
            continue;
        }
        if let Some(body) = trimmed.strip_prefix(')') {
            close_variation(r, open, start);
            rest = body;
            continue;
        }
        let len = trimmed
            .bytes()
            .position(|c| c.is_ascii_whitespace() || matches!(c, b'{' | b'(' | b')'))
            .unwrap_or(trimmed.len());
        let mut word = &trimmed[..len];
        rest = &trimmed[len..];
        if surely_a_move(word) {
            let (mv, glyph) = split_glued_glyph(word);
            push_move(r, tokens, open, Token { text: mv, span: start..start + mv.len(), kind: TokenKind::Written });
            if !glyph.is_empty() {
                push_glyph(r, tokens, open, glyph, start + mv.len()..start + len);
            }
            continue;
        }
        if is_move_number(word) {
            open.number = Some(word);
            continue;
        }
        if glyph_of(word).is_some() {
            push_glyph(r, tokens, open, word, start..start + len);
            continue;
        }
        // Before the move number is taken off: `0.5-0.5` is no `0.` glued to a move.
        if let Some(message) = not_a_result(word) {
            // Meant as the result, so the movetext ends here too (in the main line).
            push_capped(&mut r.syntax_errors, SyntaxError { span: start..start + word.len(), message });
            result = open.line() == 0;
            continue;
        }
        if let Some(after) = strip_move_number(word) {
            if after.is_empty() {
                continue;
            }
            open.number = Some(&word[..word.len() - after.len()]);
            word = after;
        }
        let word_start = offset(word);
        let (word, glyph) = split_glued_glyph(word);
        let kind = result_token(word).unwrap_or(TokenKind::Written);
        if kind.is_claim() && open.line() != 0 {
            let message = format!(
                "`{word}` is a result, which ends the record: a variation holds moves, comments and glyphs, and the \
                 result belongs to the main line"
            );
            push_capped(&mut r.syntax_errors, SyntaxError { span: word_start..word_start + word.len(), message });
            continue;
        }
        result = kind.is_claim();
        push_move(r, tokens, open, Token { text: word, span: word_start..word_start + word.len(), kind });
        if result && !glyph.is_empty() {
            let glyph_start = word_start + word.len();
            let message = format!("`{glyph}` judges a move, not the result: write it after the last move");
            push_capped(&mut r.syntax_errors, SyntaxError { span: glyph_start..glyph_start + glyph.len(), message });
        } else if !glyph.is_empty() {
            let glyph_start = word_start + word.len();
            push_glyph(r, tokens, open, glyph, glyph_start..glyph_start + glyph.len());
        }
    }
    open.ended = result;
    if result {
        Line::Result
    } else {
        Line::Goes
    }
}

/// [`str::trim_start`], with the commonest case read by bytes: ASCII white space, then an ASCII
/// character. Unicode's white space among the ASCII characters is these six bytes (U+000B, which
/// `u8::is_ascii_whitespace` leaves out, is one of them). Every word of every movetext is trimmed
/// so. `tests::trim_start_trims_as_str_trim_start` holds it to the standard one.
fn trim_start(s: &str) -> &str {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r') {
        i += 1;
    }
    match b.get(i) {
        Some(c) if !c.is_ascii() => s[i..].trim_start(),
        _ => &s[i..],
    }
}

/// Whether a word of movetext is a move number alone (`12.`, `12...`): digits, then periods and
/// nothing else. What the checks after [`surely_a_move`] make of such a word, which is skipped
/// (`not_a_result` sees no result in digits and periods, and `strip_move_number` leaves nothing),
/// read at once: one word in three of a movetext is one.
/// `tests::move_numbers_are_what_the_checks_skip` holds it to them.
fn is_move_number(word: &str) -> bool {
    let b = word.as_bytes();
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    digits > 0 && digits < b.len() && b[digits..].iter().all(|&c| c == b'.')
}

/// Whether a word of movetext is a move for all the checks below could tell: most words are
/// moves, which open with a lowercase letter, and of such words only the draws `not_a_result`
/// names (`draw`, `drawn`, `tie`) are anything else. So most words are taken at their first byte.
/// `tests::surely_a_move_is_no_number_result_or_draw` holds it to the checks.
fn surely_a_move(word: &str) -> bool {
    matches!(word.as_bytes().first(), Some(b'a'..=b'z')) && !matches!(word.as_bytes()[0], b'd' | b't')
}

/// Every record of the common format in a text, as [`super::read`] finds them.
pub fn parse(src: &str) -> Vec<CommonRecord<'_>> {
    super::read(src, None)
        .filter_map(|f| match f {
            super::Found::Common(r) => Some(r),
            super::Found::Published(_) => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn surely_a_move_is_no_number_result_or_draw() {
        let mut rng = fastrand::Rng::with_seed(7);
        let alphabet = [
            'a', 'b', 'd', 'e', 'i', 'r', 't', 'w', 'n', 'D', 'T', 'x', '0', '1', '5', '.', '-', ':', '=', '/', '½',
            '*', '!',
        ];
        let mut taken = 0;
        for _ in 0..200_000 {
            let n = rng.usize(1..8);
            let word: String = (0..n).map(|_| alphabet[rng.usize(..alphabet.len())]).collect();
            if surely_a_move(&word) {
                taken += 1;
                assert!(not_a_result(&word).is_none(), "{word}");
                assert!(strip_move_number(&word).is_none(), "{word}");
                assert!(result_token(&word).is_none(), "{word}");
            }
        }
        for word in ["draw", "drawn", "tie", "tie.", "1-0", "0-0-1", "*", "12.", "12...d4", "½-½"] {
            assert!(!surely_a_move(word), "{word}");
        }
        assert!(taken > 10_000, "{taken}");
    }

    #[test]
    fn trim_start_trims_as_str_trim_start() {
        let mut rng = fastrand::Rng::with_seed(8);
        let alphabet =
            [' ', '\t', '\n', '\x0b', '\x0c', '\r', '\u{85}', '\u{a0}', '\u{3000}', '\u{2028}', 'a', '1', 'é', '{'];
        for _ in 0..200_000 {
            let n = rng.usize(0..8);
            let text: String = (0..n).map(|_| alphabet[rng.usize(..alphabet.len())]).collect();
            assert_eq!(trim_start(&text), text.trim_start(), "{text:?}");
        }
        for c in (0..128u8).map(char::from) {
            let text = format!("{c}x");
            assert_eq!(trim_start(&text), text.trim_start(), "{text:?}");
        }
    }

    /// A word [`is_move_number`] takes is one that the checks of a movetext word skip: no result,
    /// no draw, and a move number with nothing glued to it; and it takes every such word.
    #[test]
    fn move_numbers_are_what_the_checks_skip() {
        let mut rng = fastrand::Rng::with_seed(9);
        let alphabet = ['0', '1', '5', '9', '.', '-', '/', '½', 'a', 'd', ':', '='];
        let known = ["1.", "12...", "0.", "1", ".", "1.5", "0.5-0.5", "1-0", "12.d4", "", "007.."];
        let random = (0..200_000).map(|_| {
            let n = rng.usize(0..7);
            (0..n).map(|_| alphabet[rng.usize(..alphabet.len())]).collect::<String>()
        });
        for word in known.iter().map(|w| w.to_string()).chain(random) {
            let skipped = !surely_a_move(&word)
                && not_a_result(&word).is_none()
                && strip_move_number(&word).is_some_and(str::is_empty);
            assert_eq!(is_move_number(&word), skipped, "{word:?}");
        }
    }

    /// Few tags or many, a repeat is paired with the first tag of its name, whatever the case.
    #[test]
    fn repeated_tags_pair_each_repeat_with_the_first_of_its_name() {
        let mut rng = fastrand::Rng::with_seed(7);
        let pool = ["Game", "GAME", "size", "Size", "Result", "White", "Black", "Seed", "Date", "é", "É"];
        for n in [0, 1, 2, 5, FEW_TAGS, FEW_TAGS + 1, 40] {
            for _ in 0..50 {
                let names: Vec<&str> = (0..n).map(|_| pool[rng.usize(..pool.len())]).collect();
                let lower: Vec<String> = names.iter().map(|m| m.to_ascii_lowercase()).collect();
                let reference: Vec<(usize, usize)> = (0..n)
                    .filter_map(|i| lower.iter().position(|m| *m == lower[i]).filter(|&j| j < i).map(|j| (j, i)))
                    .collect();
                assert_eq!(repeated_tags(names.iter().copied()), reference, "{names:?}");
            }
        }
    }

    const RECORD: &str = "[Game \"Petrify\"]\n[Size \"6\"] [Blue \"Ann\"]\n\n1. c3 d4 {a comment\nover two lines} 2.c3xd4 pass\n3... swap 1-0\nFinal Position:\na b c\n. # B 1.\nO . . 2.\n";

    #[test]
    fn tags_moves_comments_results_and_diagrams() {
        let r = &parse(RECORD)[0];
        assert_eq!(
            r.tags.iter().map(|t| (t.name, t.value)).collect::<Vec<_>>(),
            [("Game", "Petrify"), ("Size", "6"), ("Blue", "Ann")]
        );
        let texts: Vec<&str> = r.tokens.iter().map(|t| t.text).collect();
        assert_eq!(texts, ["c3", "d4", "c3xd4", "pass", "swap", "1-0"]);
        assert_eq!(r.tokens[5].kind, TokenKind::Result { winner: Some(0), players: 2 });
        assert_eq!(&RECORD[r.tokens[2].span.clone()], "c3xd4");
        let d = r.final_position.as_ref().unwrap();
        assert_eq!(d.glyphs(), [".", "#", "B", "O", ".", "."]);
        assert!(r.syntax_errors.is_empty());
    }

    #[test]
    fn comments_glyphs_and_nested_variations_are_kept_in_place() {
        let text = "[Game \"Petrify\"]\n{before any move} 1. c3!? d4 {a comment\nover two lines} $14\n\
                    (1... e5? {why not} (1... f6 2. a1) 2. b2) ; to the line's end\n2. c3xd4 ?! 1-0 {after it}\n";
        let r = &parse(text)[0];
        assert_eq!(r.syntax_errors, []);
        let texts: Vec<&str> = r.tokens.iter().map(|t| t.text).collect();
        assert_eq!(texts, ["c3", "d4", "c3xd4", "1-0"]);
        let comments: Vec<_> =
            r.notes().comments.iter().map(|c| (c.at.line, c.at.after, c.text, c.to_line_end)).collect();
        assert_eq!(
            comments,
            [
                (0, 0, "before any move", false),
                (0, 2, "a comment\nover two lines", false),
                (1, 1, "why not", false),
                (0, 2, " to the line's end", true),
                (0, 4, "after it", false),
            ]
        );
        assert_eq!(&text[r.notes().comments[2].span.clone()], "{why not}");
        let glyphs: Vec<_> = r.notes().glyphs.iter().map(|g| (g.at.line, g.at.after, g.nag)).collect();
        assert_eq!(glyphs, [(0, 1, 5), (0, 2, 14), (1, 1, 2), (0, 3, 6)]);
        let variations: Vec<_> = r
            .notes()
            .variations
            .iter()
            .map(|v| (v.at.line, v.at.after, v.number, v.tokens.iter().map(|t| t.text).collect::<Vec<_>>()))
            .collect();
        assert_eq!(variations, [(0, 2, Some("1..."), vec!["e5", "b2"]), (1, 1, Some("1..."), vec!["f6", "a1"])]);
        assert_eq!(&text[r.notes().variations[1].span.clone()], "(1... f6 2. a1)");
        assert_eq!(r.notes().path(2), [1, 2]);
    }

    #[test]
    fn broken_variations_and_glyphs_are_located() {
        let errors = |text: &str| {
            parse(text)[0].syntax_errors.iter().map(|e| (e.span.start, e.message.clone())).collect::<Vec<_>>()
        };
        let head = "[Game \"Quarod\"]\n";
        let at = head.len();
        for (movetext, offset, words) in [
            ("1. (a1b1) b2c2 *", 3, "no move comes before"),
            ("1. a1b1 () *", 8, "has no moves"),
            ("1. a1b1 (b1c1", 8, "never closed"),
            ("1. a1b1 ) *", 8, "closes no variation"),
            ("1. a1b1 (b1c1 1-0) *", 14, "the result belongs to the main line"),
            ("1. a1b1!!! *", 7, "not a move glyph"),
            ("1. ! a1b1 *", 3, "follows one"),
            ("1. a1b1 $300 *", 8, "0 to 255"),
            ("1. a1b1 *!", 9, "not the result"),
        ] {
            let found = errors(&format!("{head}{movetext}\n"));
            assert_eq!(found.len(), 1, "{movetext}: {found:?}");
            assert_eq!(found[0].0, at + offset, "{movetext}: {found:?}");
            assert!(found[0].1.contains(words), "{movetext}: {found:?}");
        }
    }

    #[test]
    fn a_variation_may_go_on_after_a_blank_line() {
        let r = &parse("[Game \"Quarod\"]\n1. a1b1 b2c2\n\n(1... c3d3\n\n) 2. d4c4 *\n")[0];
        assert_eq!(r.syntax_errors, []);
        assert_eq!(r.tokens.len(), 4);
        assert_eq!(r.notes().variations.len(), 1);
    }

    #[test]
    fn deep_nesting_costs_no_recursion_and_notes_are_bounded() {
        let text = format!("[Game \"Quarod\"]\n1. a1b1 {}{} *\n", "(b1c1 ".repeat(200_000), ")".repeat(200_000));
        let r = &parse(&text)[0];
        assert_eq!(
            r.notes().variations.len() + r.notes().variations.iter().map(|v| v.tokens.len()).sum::<usize>(),
            MAX_NOTES
        );
        assert_eq!(r.syntax_errors.len(), 1, "{:?}", r.syntax_errors);
        assert!(r.syntax_errors[0].message.starts_with("this is note 100001 of the record"));
        assert_eq!(r.tokens.len(), 2);
    }

    #[test]
    fn a_new_tag_section_opens_the_next_record() {
        let two = format!("{RECORD}\n[Game \"Quarod\"]\n1. a1b1 *\n");
        let records = parse(&two);
        assert_eq!(records.len(), 2);
        assert_eq!(records[1].tag("game").map(|t| t.value), Some("Quarod"));
        assert_eq!(records[1].tokens.last().map(|t| t.kind), Some(TokenKind::Result { winner: None, players: 0 }));
    }

    #[test]
    fn broken_tags_unclosed_comments_and_moves_after_the_result_are_located() {
        let r = &parse("[Game \"Petrify\"]\n[Size 6]\n1. c3 {never closed\n")[0];
        let messages: Vec<&str> = r.syntax_errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(messages, ["a tag is written `[Name \"value\"]`", "this comment is never closed with `}`"]);
        let r = &parse("[Game \"Petrify\"]\n1. c3 1-0 d4 e5 {a comment}\n2. f6\n")[0];
        assert_eq!(r.syntax_errors.len(), 1, "{:?}", r.syntax_errors);
        assert_eq!(
            r.syntax_errors[0].message,
            "nothing may follow the result token on its line, but `d4 e5 {a comment}` does"
        );
        assert_eq!(r.syntax_errors[0].span, 27..44);
        assert_eq!(r.tokens.len(), 2, "the record ends at its result");
    }

    #[test]
    fn hex_diagrams_have_letters_above_and_below_and_indented_rows() {
        let text = "[Game \"Vadrantir\"]\n1. c2 *\nFinal Position:\nabcde\n  B .   1\n . W .  2\n  . .   3\nabcde\n";
        let r = &parse(text)[0];
        let d = r.final_position.as_ref().expect("diagram");
        assert_eq!(d.glyphs(), ["B", ".", ".", "W", ".", ".", "."]);
        assert!(r.syntax_errors.is_empty(), "{:?}", r.syntax_errors);
        assert_eq!(d.span.end, text.len() - 1);
    }

    #[test]
    fn results_name_the_winners_place() {
        assert_eq!(result_token("0-1"), Some(TokenKind::Result { winner: Some(1), players: 2 }));
        assert_eq!(result_token("0-0-1-0"), Some(TokenKind::Result { winner: Some(2), players: 4 }));
        assert_eq!(result_token("0-0-0"), Some(TokenKind::Result { winner: None, players: 3 }));
        assert_eq!(result_token("1-1"), None);
        assert_eq!(result_token("1/2-1/2"), None);
    }

    #[test]
    fn draws_as_other_formats_write_them_are_told_the_result_syntax() {
        for word in ["1/2-1/2", "½-½", "0.5-0.5", "draw", "Draw.", "1-1", "1-0-1", "2-0", "1:0"] {
            assert!(not_a_result(word).is_some_and(|m| m.contains("is not a result token")), "{word}");
        }
        for word in ["1-0", "0-0-1", "*", "d4", "d4e5/f7", "pass", "12.", "12...", "--", "----"] {
            assert_eq!(not_a_result(word), None, "{word}");
        }
    }
}
