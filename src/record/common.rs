//! The common record format of the games without a published notation (grammar.md, "The common
//! record format"): PGN-style tag pairs, numbered movetext with `{...}` comments and a result
//! token, and optional setup and final diagrams in the style `referee show` prints.
//!
//! Only syntax is checked here; move tokens are handed to their game as text with spans.

use super::{Span, SyntaxError, Token, TokenKind};

/// A `[Name "value"]` pair.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Tag<'a> {
    pub name: &'a str,
    pub value: &'a str,
    pub span: Span,
    /// Where the value is, without its quotes.
    pub value_span: Span,
}

/// A diagram as written: one glyph per cell, row by row, not yet read by any game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TextDiagram<'a> {
    pub span: Span,
    pub rows: Vec<Vec<(&'a str, Span)>>,
}

impl TextDiagram<'_> {
    pub fn glyphs(&self) -> Vec<&str> {
        self.rows.iter().flatten().map(|g| g.0).collect()
    }
}

/// One record of the common format.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CommonRecord<'a> {
    pub index: usize,
    pub span: Span,
    pub tags: Vec<Tag<'a>>,
    pub setup: Option<TextDiagram<'a>>,
    /// Moves and the result token, in order (move numbers and comments are left out).
    pub tokens: Vec<Token<'a>>,
    pub final_position: Option<TextDiagram<'a>>,
    pub syntax_errors: Vec<SyntaxError>,
}

impl<'a> CommonRecord<'a> {
    pub fn tag(&self, name: &str) -> Option<&Tag<'a>> {
        self.tags.iter().find(|t| t.name.eq_ignore_ascii_case(name))
    }
}

/// Whether a text is in the common format: some line opens with a `[Game "..."]` tag.
pub fn is_common(src: &str) -> bool {
    src.lines().any(|l| l.trim_start().starts_with("[Game "))
}

/// The tags on a line made only of tags, or `None` if the line is anything else.
fn tag_line(line: &str, at: usize) -> Option<Result<Vec<Tag<'_>>, SyntaxError>> {
    let trimmed = line.trim();
    if !trimmed.starts_with('[') {
        return None;
    }
    let mut tags = Vec::new();
    let mut rest = trimmed;
    let offset = |s: &str| at + (s.as_ptr() as usize - line.as_ptr() as usize);
    while !rest.is_empty() {
        let start = offset(rest);
        let bad = |rest: &str| {
            let end = rest.find(']').map_or(rest.len(), |e| e + 1);
            let span = offset(rest)..offset(rest) + end;
            SyntaxError { span, message: "a tag is written `[Name \"value\"]`".into() }
        };
        let Some(body) = rest.strip_prefix('[') else { return Some(Err(bad(rest))) };
        let name_len = body.find(|c: char| !c.is_ascii_alphanumeric() && c != '_').unwrap_or(body.len());
        let (name, after) = body.split_at(name_len);
        let after = after.trim_start();
        let Some(quoted) = after.strip_prefix('"') else { return Some(Err(bad(rest))) };
        let Some(close) = quoted.find('"') else { return Some(Err(bad(rest))) };
        let value = &quoted[..close];
        let Some(tail) = quoted[close + 1..].trim_start().strip_prefix(']') else { return Some(Err(bad(rest))) };
        if name.is_empty() {
            return Some(Err(bad(rest)));
        }
        let end = offset(tail);
        let vs = offset(value);
        tags.push(Tag { name, value, span: start..end, value_span: vs..vs + value.len() });
        rest = tail.trim_start();
    }
    Some(Ok(tags))
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

/// A diagram row: glyphs, then the row number (`1.` or `1`).
fn diagram_row(line: &str, at: usize) -> Option<(Vec<(&str, Span)>, u16)> {
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    let (last, glyphs) = words.split_last()?;
    let number: u16 = last.strip_suffix('.').unwrap_or(last).parse().ok()?;
    if glyphs.is_empty() || glyphs.iter().any(|g| g.starts_with(['{', '[']) || strip_move_number(g).is_some()) {
        return None;
    }
    let cells = glyphs
        .iter()
        .map(|g| {
            let off = at + (g.as_ptr() as usize - line.as_ptr() as usize);
            (*g, off..off + g.len())
        })
        .collect();
    Some((cells, number))
}

/// What a `[Result "..."]` value claims, if it is a result.
pub fn result_kind(value: &str) -> Option<TokenKind> {
    result_token(value.trim())
}

fn result_token(word: &str) -> Option<TokenKind> {
    if word == "*" {
        return Some(TokenKind::Result { winner: None, players: 0 });
    }
    let places: Vec<&str> = word.split('-').collect();
    if places.len() < 2 || places.len() > 8 || !places.iter().all(|p| *p == "0" || *p == "1") {
        return None;
    }
    let winners: Vec<usize> = places.iter().enumerate().filter(|(_, p)| **p == "1").map(|(i, _)| i).collect();
    // All zeros: the game ended and nobody won (a tie).
    match winners[..] {
        [] => Some(TokenKind::Result { winner: None, players: places.len() as u8 }),
        [w] => Some(TokenKind::Result { winner: Some(w as u8), players: places.len() as u8 }),
        _ => None,
    }
}

/// A move number: `12.` or `12...`, alone or glued to the move that follows (`12.d4`).
fn strip_move_number(word: &str) -> Option<&str> {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || !word[digits..].starts_with('.') {
        return None;
    }
    Some(word[digits..].trim_start_matches('.'))
}

#[derive(PartialEq)]
enum Part {
    Tags,
    Body,
}

/// Reads every record of a text in the common format. A record opens with its tag pairs; the
/// next tag line after movetext opens the next record.
pub fn parse(src: &str) -> Vec<CommonRecord<'_>> {
    let mut records: Vec<CommonRecord> = Vec::new();
    let mut lines = Vec::new();
    let mut at = 0;
    for raw in src.split_inclusive('\n') {
        lines.push((at, raw.trim_end_matches(['\n', '\r'])));
        at += raw.len();
    }
    let mut part = Part::Body;
    let mut in_comment: Option<usize> = None;
    let mut i = 0;
    while i < lines.len() {
        let (at, line) = lines[i];
        if in_comment.is_none() {
            if let Some(tags) = tag_line(line, at) {
                if part == Part::Body || records.is_empty() {
                    records.push(CommonRecord {
                        index: records.len() + 1,
                        span: at..at,
                        tags: Vec::new(),
                        setup: None,
                        tokens: Vec::new(),
                        final_position: None,
                        syntax_errors: Vec::new(),
                    });
                    part = Part::Tags;
                }
                let r = records.last_mut().expect("just pushed");
                match tags {
                    Ok(t) => r.tags.extend(t),
                    Err(e) => r.syntax_errors.push(e),
                }
                r.span.end = at + line.len();
                i += 1;
                continue;
            }
        }
        part = Part::Body;
        let Some(r) = records.last_mut() else {
            i += 1;
            continue;
        };
        if line.trim().is_empty() && in_comment.is_none() {
            i += 1;
            continue;
        }
        // A diagram: an optional label, column letters, then rows numbered 1, 2, ...
        if in_comment.is_none() {
            let label = line.trim().to_ascii_lowercase();
            let labelled = label == "setup:" || label == "final position:";
            let letters_at = if labelled { i + 1 } else { i };
            if letters_at < lines.len() && letters_line(lines[letters_at].1) {
                let mut j = letters_at + 1;
                let mut rows = Vec::new();
                while j < lines.len() {
                    match diagram_row(lines[j].1, lines[j].0) {
                        Some((cells, n)) if n as usize == rows.len() + 1 => rows.push(cells),
                        _ => break,
                    }
                    j += 1;
                }
                if !rows.is_empty() {
                    // Hex diagrams repeat the letters under the rows.
                    if j < lines.len() && letters_line(lines[j].1) {
                        j += 1;
                    }
                    let end = lines[j - 1].0 + lines[j - 1].1.len();
                    let d = TextDiagram { span: at..end, rows };
                    let before_moves = r.tokens.is_empty();
                    let is_setup = label == "setup:" || (!labelled && before_moves);
                    let slot = if is_setup { &mut r.setup } else { &mut r.final_position };
                    if slot.is_some() {
                        r.syntax_errors.push(SyntaxError {
                            span: d.span.clone(),
                            message: format!(
                                "a record has one {} diagram at most",
                                if is_setup { "setup" } else { "final" }
                            ),
                        });
                    } else {
                        *slot = Some(d);
                    }
                    r.span.end = end;
                    i = j;
                    continue;
                }
            }
        }
        movetext_line(r, line, at, &mut in_comment);
        r.span.end = at + line.len();
        i += 1;
    }
    for r in &mut records {
        if let Some(start) = in_comment.take() {
            r.syntax_errors
                .push(SyntaxError { span: start..start + 1, message: "this comment is never closed with `}`".into() });
        }
        if let Some(pos) = r.tokens.iter().position(|t| t.kind.is_claim()) {
            if let Some(t) = r.tokens.get(pos + 1) {
                r.syntax_errors
                    .push(SyntaxError { span: t.span.clone(), message: "nothing may follow the result token".into() });
            }
        }
        if r.final_position.is_some() && r.tokens.is_empty() {
            // A lone diagram after the tags is a setup, whatever its label said.
            r.setup = r.setup.take().or(r.final_position.take());
        }
        r.syntax_errors.sort_by_key(|e| e.span.start);
    }
    records
}

/// Tokens of one movetext line: moves, results, move numbers and comments.
fn movetext_line<'a>(r: &mut CommonRecord<'a>, line: &'a str, at: usize, in_comment: &mut Option<usize>) {
    let mut rest = line;
    loop {
        if in_comment.is_some() {
            match rest.find('}') {
                Some(close) => {
                    rest = &rest[close + 1..];
                    *in_comment = None;
                }
                None => return,
            }
        }
        let trimmed = rest.trim_start();
        if trimmed.is_empty() {
            return;
        }
        let start = at + (trimmed.as_ptr() as usize - line.as_ptr() as usize);
        if let Some(body) = trimmed.strip_prefix('{') {
            *in_comment = Some(start);
            rest = body;
            continue;
        }
        if trimmed.starts_with(';') {
            return;
        }
        let len = trimmed.find(|c: char| c.is_ascii_whitespace() || c == '{').unwrap_or(trimmed.len());
        let mut word = &trimmed[..len];
        rest = &trimmed[len..];
        if let Some(after) = strip_move_number(word) {
            if after.is_empty() {
                continue;
            }
            word = after;
        }
        let word_start = at + (word.as_ptr() as usize - line.as_ptr() as usize);
        let kind = result_token(word).unwrap_or(TokenKind::Written);
        r.tokens.push(Token { text: word, span: word_start..word_start + word.len(), kind });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let r = &parse("[Game \"Petrify\"]\n1. c3 1-0 d4\n")[0];
        assert_eq!(r.syntax_errors[0].message, "nothing may follow the result token");
        assert_eq!(r.syntax_errors[0].span, 27..29);
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
}
