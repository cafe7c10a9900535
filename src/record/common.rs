//! The common record format of the games without a published notation (grammar.md, "The common
//! record format"): PGN-style tag pairs, numbered movetext with `{...}` comments and a result
//! token, and optional setup and final diagrams in the style `referee show` prints.
//!
//! Only syntax is checked here; move tokens are handed to their game as text with spans.

use super::cursor::Lines;
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
    /// Moves and the result token, in order (move numbers and comments are left out).
    pub tokens: Vec<Token<'a>>,
    /// The diagram after the moves (`Final Position:`), which the replay must reach.
    pub final_position: Option<TextDiagram<'a>>,
    /// Every syntax error of the record, in text order.
    pub syntax_errors: Vec<SyntaxError>,
}

impl<'a> CommonRecord<'a> {
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
    let number = crate::code::read_number(last.strip_suffix('.').unwrap_or(last), u64::from(u16::MAX)).ok()? as u16;
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

/// Whether a line after a blank one carries the movetext on: it opens with a move number or a
/// comment. Anything else after a blank line is prose and ends a record that has begun its moves.
fn carries_movetext_on(line: &str) -> bool {
    let first = line.split_ascii_whitespace().next().unwrap_or("");
    strip_move_number(first).is_some() || first.starts_with(['{', ';'])
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
    let mut in_comment: Option<usize> = None;
    let mut begun = false;
    let mut tokens = Tokens::tokens_in(std::mem::take(scratch));
    loop {
        // The cursor past the next line: each line is read once.
        let mut after = *lines;
        let mut read = None;
        if in_comment.is_none() {
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
        if movetext_line(&mut r, &mut tokens, line, at, &mut in_comment) == Line::Result {
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
    if let Some(start) = in_comment {
        push_capped(
            &mut r.syntax_errors,
            SyntaxError { span: start..start + 1, message: "this comment is never closed with `}`".into() },
        );
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

/// Tokens of one movetext line: moves, the result, move numbers and comments.
fn movetext_line<'a>(
    r: &mut CommonRecord<'a>,
    tokens: &mut Tokens<'a>,
    line: &'a str,
    at: usize,
    in_comment: &mut Option<usize>,
) -> Line {
    let mut rest = line;
    let mut result = false;
    loop {
        if in_comment.is_some() {
            match rest.find('}') {
                Some(close) => {
                    rest = &rest[close + 1..];
                    *in_comment = None;
                }
                None => break,
            }
        }
        let trimmed = trim_start(rest);
        if trimmed.is_empty() || trimmed.starts_with(';') {
            break;
        }
        let start = at + (trimmed.as_ptr() as usize - line.as_ptr() as usize);
        if let Some(body) = trimmed.strip_prefix('{') {
            *in_comment = Some(start);
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
        let len = trimmed.bytes().position(|c| c.is_ascii_whitespace() || c == b'{').unwrap_or(trimmed.len());
        let mut word = &trimmed[..len];
        rest = &trimmed[len..];
        if surely_a_move(word) {
            tokens.push_token(
                Token { text: word, span: start..start + len, kind: TokenKind::Written },
                &mut r.syntax_errors,
            );
            continue;
        }
        if is_move_number(word) {
            continue;
        }
        // Before the move number is taken off: `0.5-0.5` is no `0.` glued to a move.
        if let Some(message) = not_a_result(word) {
            // Meant as the result, so the movetext ends here too.
            push_capped(&mut r.syntax_errors, SyntaxError { span: start..start + word.len(), message });
            result = true;
            continue;
        }
        if let Some(after) = strip_move_number(word) {
            if after.is_empty() {
                continue;
            }
            word = after;
        }
        let word_start = at + (word.as_ptr() as usize - line.as_ptr() as usize);
        let kind = result_token(word).unwrap_or(TokenKind::Written);
        result = kind.is_claim();
        tokens.push_token(Token { text: word, span: word_start..word_start + word.len(), kind }, &mut r.syntax_errors);
    }
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
