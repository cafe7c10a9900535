//! Line classification (nom) and the assembly of lines into records.

use nom::bytes::complete::take_while1;
use nom::character::complete::{char as ch, one_of, satisfy, space0, space1};
use nom::combinator::{all_consuming, map};
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

use super::cursor::Lines;
use super::{
    cap_syntax_errors, next_word, push_capped, row_past_any_board, rows_past_any_board, ColumnHeader, Diagram,
    DiagramLabel, MoveLine, Record, Room, Span, SyntaxError, Token, TokenKind, Tokens,
};

use super::notes::{
    glyph_at, markup_in, split_glued_glyph, Comment, Glyph, Markup, NoteCount, Notes, Place, Variation, CLOSES_NONE,
    NO_MOVES, NO_MOVE_BEFORE,
};
use super::Side;
use crate::geometry::{CellLabel, Geometry, MAX_ROW_CELLS};

/// What one line of a file is.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum LineKind {
    /// Nothing but white space.
    Blank,
    /// A game's title, such as `QUADRAPHAGES`, which opens a record of the published notation.
    Title(&'static str),
    /// `Startup:` or `Final Position:`, possibly followed by column letters.
    DiagramLabel(DiagramLabel),
    /// `Startup:` followed by a position code: the code's span.
    StartupCode(Span),
    /// Column letters, `a b c d e f g h i` or `abcdefghijklm`.
    Letters(usize),
    /// A row of a diagram: glyphs, and the row number written after them.
    DiagramRow(Row),
    /// A numbered move line, with its number: its tokens are read when it joins a movetext.
    Move(u32),
    /// Anything else; a column header may stand inside it.
    Prose(Option<Result<ColumnHeader, SyntaxError>>),
}

/// The kind of a movetext word of the published notation, the whole word read: `....`, `----`,
/// a stone move (two cell labels, `a7a8`), an announced number (up to 255), `resign` (in any case,
/// `resigns`, with a `.` or `!`). Read by hand, byte by byte: it is read for every word of every
/// move line. `tests::move_token_reads_as_the_grammar` holds it to the grammar written with nom.
fn move_token(word: &str) -> Option<TokenKind> {
    let b = word.as_bytes();
    match b {
        b"...." => Some(TokenKind::Filler),
        b"----" => Some(TokenKind::Stay),
        [b'a'..=b'z', b'0'..=b'9', ..] => {
            let (from, rest) = CellLabel::read(b)?;
            let (to, rest) = CellLabel::read(rest)?;
            rest.is_empty().then_some(TokenKind::Step(from, to))
        }
        // A number past 255 announces nothing: no token.
        [b'0'..=b'9', ..] => word.parse::<u8>().ok().map(TokenKind::Number),
        _ => {
            let rest = b.get(..6).filter(|r| r.eq_ignore_ascii_case(b"resign")).map(|_| &b[6..])?;
            let rest = rest.strip_prefix(b"s").or_else(|| rest.strip_prefix(b"S")).unwrap_or(rest);
            matches!(rest, [] | [b'.'] | [b'!']).then_some(TokenKind::Resign)
        }
    }
}

/// The kind of a movetext word of the published notation, as the reader classifies it (a claim is
/// not a word); `None` when the word is no token. Repairs make their tokens with it, so that the
/// notation reads them exactly as it reads the record's own.
pub fn token_kind(word: &str) -> Option<TokenKind> {
    move_token(word)
}

/// `and wins 40-39`, `wins`, `X wins 41-38`: the rest of a line from its first word. Read by hand,
/// byte by byte (nom's parsers took a few thousand instructions a claim, a record's most costly
/// line): an optional subject (`and`, or a side's letter) and the blanks after it, `wins` in any
/// case, optionally blanks and a score of two numbers up to 65535 (`40-39`, `40:39`), optionally
/// `.` or `!`, then blanks to the end. Any of them that does not read leaves the text to what
/// follows, as nom's `opt` does. `tests::claim_reads_as_the_grammar` holds it to the grammar
/// written with nom.
fn claim(i: &str) -> Option<TokenKind> {
    let b = i.as_bytes();
    // Spaces and tabs (nom's `space0`) from `k` on.
    let blanks = |k: usize| b[k..].iter().take_while(|&&c| c == b' ' || c == b'\t').count();
    let digits = |k: usize| b[k..].iter().take_while(|c| c.is_ascii_digit()).count();
    // Only ASCII letters compare equal to these tags' letters whatever their case.
    let head = |k: usize, tag: &[u8]| b.get(k..k + tag.len()).is_some_and(|h| h.eq_ignore_ascii_case(tag));
    let subject = match b.first() {
        _ if head(0, b"and") => Some((None, 3)),
        Some(&c @ (b'X' | b'O' | b'x' | b'o')) => Some((Side::from_letter(char::from(c)), 1)),
        _ => None,
    };
    let (mut side, mut k) = (None, 0);
    if let Some((named, len)) = subject {
        let n = blanks(len);
        if n > 0 {
            (side, k) = (named, len + n);
        }
    }
    if !head(k, b"wins") {
        return None;
    }
    k += 4;
    let mut score = None;
    let n = blanks(k);
    if n > 0 {
        let (a, da) = (k + n, digits(k + n));
        if da > 0 && matches!(b.get(a + da), Some(b'-' | b':')) {
            let (c, dc) = (a + da + 1, digits(a + da + 1));
            if let (Ok(x), Ok(y)) = (i[a..a + da].parse::<u16>(), i[c..c + dc].parse::<u16>()) {
                (score, k) = (Some((x, y)), c + dc);
            }
        }
    }
    if matches!(b.get(k), Some(b'.' | b'!')) {
        k += 1;
    }
    k += blanks(k);
    (k == b.len()).then_some(TokenKind::Wins { side, score })
}

fn starts_claim(word: &str) -> bool {
    let w = word.trim_end_matches(['.', '!']).to_ascii_lowercase();
    matches!(w.as_str(), "and" | "wins" | "x" | "o")
}

/// A line holding only a resignation or a claimed result, written under the moves.
fn claim_only_line(line: &str, at: usize) -> Option<Token<'_>> {
    let text = line.trim();
    let start = at + (text.as_ptr() as usize - line.as_ptr() as usize);
    let kind = match move_token(text) {
        Some(TokenKind::Resign) => TokenKind::Resign,
        _ => claim(text)?,
    };
    Some(Token { text, span: start..start + text.len(), kind })
}

fn looks_like_move(word: &str) -> bool {
    let b = word.as_bytes();
    word == "...."
        || word == "----"
        || word.eq_ignore_ascii_case("resign")
        || (b.len() >= 2 && b[0].is_ascii_lowercase() && b[1].is_ascii_digit())
}

/// The token that opens `b` (a move line's text from a word's first byte), when it has one of
/// the shapes nearly every word has: a stone move of one-digit rows (`a7a8`), `----`, `....` or a
/// one-digit number, and the word ends after it. Read without finding the word's end first, and
/// what it reads is what [`move_token`] reads of the word (`tests::quick_token_reads_as_move_token`).
#[inline]
fn quick_token(b: &[u8]) -> Option<(TokenKind, usize)> {
    let ends = |k: usize| b.get(k).is_none_or(u8::is_ascii_whitespace);
    let label = |col: u8, row: u8| CellLabel { col: col - b'a', row: u16::from(row - b'0') };
    match *b {
        [c1 @ b'a'..=b'z', r1 @ b'1'..=b'9', c2 @ b'a'..=b'z', r2 @ b'1'..=b'9', ..] if ends(4) => {
            Some((TokenKind::Step(label(c1, r1), label(c2, r2)), 4))
        }
        [b'-', b'-', b'-', b'-', ..] if ends(4) => Some((TokenKind::Stay, 4)),
        [b'.', b'.', b'.', b'.', ..] if ends(4) => Some((TokenKind::Filler, 4)),
        [d @ b'0'..=b'9', ..] if ends(1) => Some((TokenKind::Number(d - b'0'), 1)),
        _ => None,
    }
}

fn token_error(word: &str) -> String {
    let b = word.as_bytes();
    if b.first().is_some_and(|c| c.is_ascii_lowercase()) && b.get(1).is_some_and(|c| c.is_ascii_digit()) {
        format!("`{word}` is not a stone move: write the cell it leaves and the cell it reaches, like a7a8")
    } else if b.iter().all(|c| c.is_ascii_digit()) {
        format!("`{word}` is too large for an announced number")
    } else if b.iter().all(|&c| c == b'.' || c == b'-') {
        format!("`{word}` is neither `----` (a stone that stays) nor `....` (a missing phase)")
    } else {
        format!("`{word}` is not a token of the notation: expected a stone move like a7a8, `----`, `....`, a number, `resign` or a claimed result like `and wins 40-39`")
    }
}

/// A line's number (after spaces and tabs), whether a period follows it, and the text after
/// both. Read by hand: every line that opens with a digit is asked, twice.
/// `tests::line_number_reads_as_the_grammar` holds it to the grammar written with nom.
fn line_number(i: &str) -> Option<(&str, (u32, bool))> {
    let t = i.trim_start_matches([' ', '\t']);
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let number = t.get(..digits).filter(|d| !d.is_empty())?.parse::<u32>().ok()?;
    let rest = &t[digits..];
    Some(match rest.strip_prefix('.') {
        Some(after) => (after, (number, true)),
        None => (rest, (number, false)),
    })
}

/// The number of a numbered move line and the text after it; `None` if the line is not one.
fn move_line_head(line: &str, continuing: bool) -> Option<(u32, &str)> {
    let (rest, (number, period)) = line_number(line)?;
    // `8.---- ----` glues the number to the first token, as the common format allows (`12.d4`).
    let glued = !rest.starts_with([' ', '\t']);
    if glued && !period {
        return None;
    }
    let first = rest.split_ascii_whitespace().next()?;
    let opens = looks_like_move(first) || (number == 1 && !glued && first_turn_unfilled(rest));
    if (glued || !continuing) && !opens {
        return None;
    }
    Some((number, rest))
}

/// Whether the text after a line's `1.` is a first turn written without its `....`: `1 a7a8 i3i2
/// …`, every word a token of the notation (up to a claim), a number first and a stone move in
/// it. Numbered prose (`1. 2 eggs`) is none; such a line opens a record with an error that says
/// what is missing ([`unfilled_first_turn`]).
fn first_turn_unfilled(rest: &str) -> bool {
    let mut kinds = rest.split_ascii_whitespace().take_while(|w| !starts_claim(w)).map(move_token);
    matches!(kinds.next(), Some(Some(TokenKind::Number(_))))
        && kinds.try_fold(false, |step, k| k.map(|k| step || matches!(k, TokenKind::Step(..)))) == Some(true)
}

/// The error of a first line written without its `....` (see [`first_turn_unfilled`]), at its
/// number, with the line as it should begin: one `....` for each stone the number moves. The
/// stone moves after the number are the mover's phase (c) and then the other side's phase (a),
/// as many each, when the other side's number follows them.
fn unfilled_first_turn(tokens: &[Token]) -> SyntaxError {
    let moves = |t: &&Token| matches!(t.kind, TokenKind::Step(..) | TokenKind::Stay);
    let run = tokens[1..].iter().take_while(moves).count();
    let answered = matches!(tokens.get(1 + run).map(|t| t.kind), Some(TokenKind::Number(_)));
    let stones = if answered && run % 2 == 0 { run / 2 } else { run };
    let shown: Vec<&str> = tokens[..=stones].iter().map(|t| t.text).collect();
    let more = if tokens.len() > stones + 1 { " …" } else { "" };
    SyntaxError {
        span: tokens[0].span.clone(),
        message: format!(
            "the first turn is written without `....`: the notation fills its missing phase (a) with one \
             `....` for each stone, before the number: write `1. {}{}{more}`",
            ".... ".repeat(stones),
            shown.join(" ")
        ),
    }
}

/// Reads the tokens of a move line (one [`move_line_head`] accepted) onto the end of `tokens`,
/// its errors onto `errors`; returns the line, and whether it holds a claim. The tokens of a whole
/// movetext share one vector.
fn move_line<'a>(
    line: &'a str,
    at: usize,
    (number, rest): (u32, &'a str),
    tokens: &mut Tokens<'a>,
    notes: &mut Noted<'a>,
    errors: &mut Vec<SyntaxError>,
) -> (MoveLine, bool) {
    let body = line.len() - rest.len();
    notes.number = line[..body].trim();
    let from = tokens.len();
    // Whether the line holds a claim: only then are its tokens searched for what follows one.
    let mut claimed = false;
    // The variations open on this line, innermost last (a variation closes on its own line).
    let mut open: Vec<usize> = Vec::new();
    // The words, split at ASCII white space as `str::split_ascii_whitespace` splits them, read
    // byte by byte; the commonest tokens are read as their words are found (`quick_token`).
    let b = rest.as_bytes();
    let mut i = 0;
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if let Some((kind, len)) = quick_token(&b[i..]).filter(|_| open.is_empty()) {
            let (off, word) = (body + i, &rest[i..i + len]);
            i += len;
            tokens.push_token(Token { text: word, span: at + off..at + off + len, kind }, errors);
            continue;
        }
        let mut past = i;
        let Some((start, end)) = next_word(b, &mut past) else { break };
        let (off, word) = (body + start, &rest[start..end]);
        let span = at + off..at + off + word.len();
        if !open.is_empty() || (notes::annotated(word) && move_token(word).is_none() && !starts_claim(word)) {
            // Comments, glyphs and variations: read a piece at a time, from the word's start.
            i = notes.read(rest, at + body, start, tokens, &mut open, errors);
            continue;
        }
        i = past;
        if let Some(kind) = move_token(word) {
            claimed |= kind.is_claim();
            tokens.push_token(Token { text: word, span, kind }, errors);
        } else if starts_claim(word) {
            claimed = true;
            // A comment may follow the claim on its line: the claim is the text before it.
            let whole = &line[off..];
            let brace = whole.find('{');
            let text = whole[..brace.unwrap_or(whole.len())].trim_end();
            let span = at + off..at + off + text.len();
            match claim(text) {
                Some(kind) => tokens.push_token(Token { text, span, kind }, errors),
                None => push_capped(
                    errors,
                    SyntaxError {
                        span,
                        message: format!(
                            "`{text}` is not a claimed result: write it like `and wins 40-39` or `X wins`"
                        ),
                    },
                ),
            }
            if let Some(k) = brace {
                let mut j = start + k;
                while j < b.len() {
                    j = notes.read(rest, at + body, j, tokens, &mut open, errors);
                    while j < b.len() && b[j].is_ascii_whitespace() {
                        j += 1;
                    }
                }
            }
            break;
        } else {
            push_capped(errors, SyntaxError { span, message: token_error(word) });
        }
    }
    if let Some(&k) = open.first() {
        let start = notes.notes.variations[k - 1].span.start;
        let message = "this variation is never closed with `)` on its line: in the published notation a variation \
                       closes on its move line"
            .into();
        push_capped(errors, SyntaxError { span: start..start + 1, message });
    }
    let own = &tokens[from..];
    let claim_at = if claimed { own.iter().position(|t| t.kind.is_claim()) } else { None };
    if let Some(claim_at) = claim_at {
        if let Some(after) = own.get(claim_at + 1) {
            let span = after.span.start..own.last().map_or(after.span.end, |t| t.span.end);
            push_capped(
                errors,
                SyntaxError { span, message: "nothing may follow a resignation or a claimed result".into() },
            );
        }
    }
    let end = at + line.trim_end().len();
    (MoveLine { number, span: at..end, tokens: from..tokens.len() }, claimed)
}

fn column_tag(i: &str) -> IResult<&str, (char, char)> {
    (ch('_'), satisfy(|c| c.is_ascii_alphabetic()), one_of("xXoO"), ch('_'))
        .parse(i)
        .map(|(r, (_, a, b, _))| (r, (a, b)))
}

/// A column tag's two letters: an initial (or the side again) and the side.
type Tag = (char, char);

fn header_tags(i: &str) -> IResult<&str, (Tag, Tag)> {
    map((column_tag, space1, column_tag), |(a, _, b)| (a, b)).parse(i)
}

/// A column header anywhere in the line: two tags such as `_xx_ _oo_` separated by spaces.
fn column_header(line: &str, at: usize) -> Option<Result<ColumnHeader, SyntaxError>> {
    line.match_indices('_').find_map(|(off, _)| {
        let (rest, (a, b)) = header_tags(&line[off..]).ok()?;
        let span = at + off..at + line.len() - rest.len();
        let sides = [Side::from_letter(a.1)?, Side::from_letter(b.1)?];
        Some(if sides[0] == sides[1] {
            Err(SyntaxError {
                span,
                message: format!("both columns are headed for {}; one column must be X and the other O", sides[0]),
            })
        } else {
            Ok(ColumnHeader { span, sides, initials: [a.0, b.0] })
        })
    })
}

fn letters(i: &str) -> Option<usize> {
    let mut n = 0;
    for c in i.bytes().filter(|c| !c.is_ascii_whitespace()) {
        if c != b'a' + n as u8 {
            return None;
        }
        n += 1;
    }
    (n >= 3).then_some(n)
}

/// A diagram row as written: its glyphs with where each is (the first [`MAX_ROW_CELLS`] + 1 of
/// them: a row that has more is refused, when its diagram is built), how many glyphs it has, and the
/// row number written after them.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Row {
    /// The row's first glyphs, each with its span.
    pub glyphs: Vec<(char, Span)>,
    /// How many glyphs the row has.
    pub count: usize,
    /// The row number written after the glyphs.
    pub number: u16,
}

/// A row of a diagram: glyphs (`.oOxX`) separated by spaces or tabs, then the row number,
/// optionally followed by `.`. It is read in one pass and only the first glyphs are kept, so that
/// a row of millions of cells costs its scan, not its cells.
fn diagram_row(line: &str, at: usize) -> Option<LineKind> {
    let mut glyphs = Vec::new();
    let (count, number) = row_glyphs(line, at, &mut glyphs)?;
    Some(LineKind::DiagramRow(Row { glyphs, count, number }))
}

/// Reads a diagram row (see [`diagram_row`]) onto the end of `glyphs`, of which it keeps the
/// first [`MAX_ROW_CELLS`] + 1; returns how many glyphs the row has and its number. A line that
/// is no row leaves `glyphs` as it was. The rows of a diagram share one vector this way.
fn row_glyphs(line: &str, at: usize, glyphs: &mut Vec<(char, Span)>) -> Option<(usize, u16)> {
    let blank = |c: u8| c == b' ' || c == b'\t';
    let b = line.as_bytes();
    // The row number at the end, after the glyphs, then an optional period, then blanks.
    let mut end = b.len();
    while end > 0 && blank(b[end - 1]) {
        end -= 1;
    }
    if end > 0 && b[end - 1] == b'.' {
        end -= 1;
    }
    let mut glyphs_end = end;
    while glyphs_end > 0 && b[glyphs_end - 1].is_ascii_digit() {
        glyphs_end -= 1;
    }
    let number = crate::game::code::read_number(&line[glyphs_end..end], u64::from(u16::MAX)).ok()? as u16;
    // Room for the glyphs of the widest row at once (a glyph and a blank each), not grown one at a time.
    let kept = glyphs.len();
    glyphs.reserve(glyphs_end.div_ceil(2).min(MAX_ROW_CELLS + 1));
    let mut count = 0;
    // Whether the byte before is a space or a tab (the line's start counts as one).
    let mut after_blank = true;
    for (off, &c) in b[..glyphs_end].iter().enumerate() {
        match c {
            b' ' | b'\t' => after_blank = true,
            b'.' | b'o' | b'O' | b'x' | b'X' if after_blank => {
                after_blank = false;
                count += 1;
                if count <= MAX_ROW_CELLS + 1 {
                    glyphs.push((char::from(c), at + off..at + off + 1));
                }
            }
            _ => {
                glyphs.truncate(kept);
                return None;
            }
        }
    }
    if count > 0 && after_blank {
        Some((count, number))
    } else {
        glyphs.truncate(kept);
        None
    }
}

fn title_word(i: &str) -> IResult<&str, &str> {
    all_consuming(preceded(space0, terminated(take_while1(|c: char| c.is_ascii_alphabetic()), space0))).parse(i)
}

/// The game a title line names, by its registry name: the published notation's titles are the
/// names of its two games, in any case, with or without their final S.
fn title(i: &str) -> Option<&'static str> {
    let (_, word) = title_word(i).ok()?;
    let word = word.to_ascii_lowercase();
    ["quadraphages", "hexaphages"].into_iter().find(|name| *name == word || name.strip_suffix('s') == Some(&word))
}

/// `Startup:`, `Start:` or `Final Position:` at the start of `i`, in any case, and the text after
/// it. Compared by bytes: every line that opens with one of their letters is asked, and nom's
/// case-blind tag lowercased each character of it. No character but an ASCII letter lowercases to
/// theirs, so the two agree (`tests::label_word_reads_as_the_grammar`).
fn label_word(i: &str) -> Option<(&str, DiagramLabel)> {
    let after = |tag: &str| i.get(..tag.len()).filter(|head| head.eq_ignore_ascii_case(tag)).map(|_| &i[tag.len()..]);
    [
        ("startup:", DiagramLabel::Startup),
        ("start:", DiagramLabel::Startup),
        ("final position:", DiagramLabel::FinalPosition),
    ]
    .into_iter()
    .find_map(|(tag, label)| after(tag).map(|rest| (rest, label)))
}

fn diagram_label(i: &str) -> Option<(DiagramLabel, &str)> {
    let t = i.trim_start();
    let (rest, label) = label_word(t)?;
    (rest.trim().is_empty() || letters(rest).is_some()).then_some((label, rest))
}

/// `Startup: quadraphages_...`: a start given as a position code (grammar.md, "Position codes"),
/// one word that starts with a name in lowercase letters and `_`; the span of the code. Whether
/// the name is a game's, and the code one of the record's game, the record's start says, at the
/// code.
fn startup_code(line: &str, at: usize) -> Option<Span> {
    let t = line.trim_start();
    let (rest, label) = label_word(t)?;
    let code = rest.trim();
    let is_code = label == DiagramLabel::Startup
        && rest.starts_with([' ', '\t'])
        && !code.contains(char::is_whitespace)
        && code.contains('_')
        && code.split('_').next().is_some_and(|name| !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase()));
    let start = at + (code.as_ptr() as usize - line.as_ptr() as usize);
    is_code.then(|| start..start + code.len())
}

/// Classifies one line (without its line ending) that starts at byte `at` of the file.
pub fn classify(line: &str, at: usize, continuing: bool) -> LineKind {
    // The first visible character tells which line parsers can apply, so each line is tried
    // against one or two of them rather than all.
    let Some(first) = line.bytes().find(|c| !c.is_ascii_whitespace()) else {
        return LineKind::Blank;
    };
    let found = match first {
        b'0'..=b'9' => move_line_head(line, continuing).map(|(number, _)| LineKind::Move(number)),
        b'.' | b'o' | b'O' | b'x' | b'X' => diagram_row(line, at),
        b'a' => letters(line).map(LineKind::Letters),
        b'Q' | b'q' | b'H' | b'h' => title(line).map(LineKind::Title),
        b'S' | b's' | b'F' | b'f' => diagram_label(line)
            .map(|(label, _)| LineKind::DiagramLabel(label))
            .or_else(|| startup_code(line, at).map(LineKind::StartupCode)),
        _ => None,
    };
    found.unwrap_or_else(|| LineKind::Prose(column_header(line, at)))
}

/// The shape a diagram's row lengths describe: `n` rows of `n` (square) or a hexagon.
fn diagram_shape(lengths: &[usize]) -> Option<Geometry> {
    let n = lengths.len();
    if n >= 2 && lengths.iter().all(|&l| l == n) && n <= crate::geometry::MAX_SQUARE as usize {
        return Some(Geometry::Square { size: n as u8 });
    }
    if n % 2 == 1 && n >= 3 {
        let s = n.div_ceil(2);
        let hex = lengths.iter().enumerate().all(|(r, &l)| l == 2 * s - 1 - (r + 1).abs_diff(s));
        if hex && s <= crate::geometry::MAX_HEX_SIDE as usize {
            return Some(Geometry::Hex { side: s as u8 });
        }
    }
    None
}

/// A row of a diagram being read: how many glyphs it has, and where the first of them are in the
/// diagram's vector of glyphs.
struct RowAt {
    count: usize,
    glyphs: std::ops::Range<usize>,
}

fn build_diagram(
    label: DiagramLabel,
    glyphs: &[(char, Span)],
    rows: &[RowAt],
    seen: usize,
    span: Span,
) -> Result<Diagram, SyntaxError> {
    let row_span = |r: &RowAt| {
        let g = &glyphs[r.glyphs.clone()];
        g.first().map_or(span.start, |g| g.1.start)..g.last().map_or(span.end, |g| g.1.end)
    };
    // What no board has is refused before any shape is tried: only the first rows, and the first
    // cells of each, were kept.
    if let Some((k, row)) = rows.iter().enumerate().find(|(_, r)| r.count > MAX_ROW_CELLS) {
        return Err(row_past_any_board(k + 1, row.count, row_span(row)));
    }
    if seen > MAX_ROW_CELLS {
        return Err(rows_past_any_board(seen, row_span(&rows[MAX_ROW_CELLS])));
    }
    let lengths: Vec<usize> = rows.iter().map(|r| r.count).collect();
    let geometry = diagram_shape(&lengths).ok_or_else(|| {
        // Point at the first row that breaks the pattern the first row sets, else at the last row.
        let odd = rows.iter().position(|r| r.count != lengths[0] && lengths[0] == lengths.get(1).copied().unwrap_or(0));
        match odd {
            Some(k) => SyntaxError {
                span: row_span(&rows[k]),
                message: format!("row {} of this diagram has {} cells where the rows above have {}", k + 1, lengths[k], lengths[0]),
            },
            None => SyntaxError {
                span: row_span(&rows[rows.len() - 1]),
                message: format!(
                    "a diagram of {} rows must have {} cells in every row (square board) or the rows of a hexagon; its rows have {} cells",
                    rows.len(),
                    rows.len(),
                    lengths.iter().map(|l| l.to_string()).collect::<Vec<_>>().join(", ")
                ),
            },
        }
    })?;
    let mut cells = Vec::with_capacity(glyphs.len());
    for (r, row) in rows.iter().enumerate() {
        for (cell, (glyph, gspan)) in geometry.row_cells(r as u16).zip(&glyphs[row.glyphs.clone()]) {
            cells.push((geometry.label(cell), *glyph, gspan.clone()));
        }
    }
    Ok(Diagram { span, label, geometry, cells })
}

/// Something a record is assembled from, in file order.
pub enum Element<'a> {
    Title(&'static str, Span),
    Header(Result<ColumnHeader, SyntaxError>),
    Diagram(Result<Diagram, SyntaxError>, DiagramLabel),
    /// A start given as a position code: where it is, and the code.
    StartupCode(Span, &'a str),
    /// The lines, every token of them in one vector, and their syntax errors.
    Movetext(Vec<MoveLine>, Vec<Token<'a>>, Notes<'a>, Vec<SyntaxError>),
}

/// The element that opens at the line `(at, line)`, taking the further lines it spans (a
/// diagram's rows, a movetext's lines) from `rest`; `None` if the line is prose.
///
/// A movetext's tokens are gathered in `scratch` (see [`super::Capped::tokens_in`]).
pub fn element<'a>(
    at: usize,
    line: &'a str,
    rest: &mut Lines<'a>,
    room: Room,
    scratch: &mut Vec<Token<'a>>,
) -> Option<Element<'a>> {
    let is_letters =
        |l: Option<(usize, &str)>| l.is_some_and(|(a, l)| matches!(classify(l, a, false), LineKind::Letters(_)));
    match classify(line, at, false) {
        LineKind::Blank | LineKind::Prose(None) | LineKind::Letters(_) => None,
        LineKind::Prose(Some(h)) => Some(Element::Header(h)),
        LineKind::Title(kind) => Some(Element::Title(kind, at..at + line.trim_end().len())),
        LineKind::StartupCode(span) => {
            let code = &line[span.start - at..span.end - at];
            Some(Element::StartupCode(span, code))
        }
        kind @ (LineKind::DiagramLabel(_) | LineKind::DiagramRow(..)) => {
            let mut ahead = *rest;
            // The rows read, of which the first `MAX_ROW_CELLS` + 1 are kept, their glyphs in one
            // vector: a diagram of more rows than any board is refused from the count
            // (`build_diagram`). Once the first row is read, of `n` glyphs, the vector has room
            // for the board either shape makes of it: `n` rows of `n`, or a hexagon of side `n`
            // (fewer than 3n² cells), so that it does not grow a doubling at a time.
            let room_for_board = |g: &mut Vec<(char, Span)>| g.reserve(g.len() * (3 * g.len()).saturating_sub(1));
            let mut rows = Vec::new();
            let mut glyphs = Vec::new();
            let mut seen = 0;
            let mut end = at + line.len();
            let label = match kind {
                LineKind::DiagramLabel(l) => {
                    if is_letters(ahead.peek()) {
                        ahead.next();
                    }
                    l
                }
                LineKind::DiagramRow(row) if row.number == 1 => {
                    glyphs = row.glyphs;
                    room_for_board(&mut glyphs);
                    rows.push(RowAt { count: row.count, glyphs: 0..glyphs.len() });
                    seen = 1;
                    DiagramLabel::None
                }
                LineKind::DiagramRow(..) => return None,
                _ => unreachable!("matched above"),
            };
            // A line is a row exactly when `classify` says so: see `tests::rows_read_as_classified`.
            let mut past = ahead;
            while let Some((a, l)) = past.next() {
                let kept = glyphs.len();
                match row_glyphs(l, a, &mut glyphs) {
                    Some((count, number)) if number as usize == seen + 1 => {
                        seen += 1;
                        if seen == 1 {
                            room_for_board(&mut glyphs);
                        }
                        if rows.len() <= MAX_ROW_CELLS {
                            rows.push(RowAt { count, glyphs: kept..glyphs.len() });
                        } else {
                            glyphs.truncate(kept);
                        }
                    }
                    _ => break,
                }
                ahead = past;
                end = a + l.len();
            }
            if seen < 2 {
                return None;
            }
            if let Some((a, l)) = ahead.peek().filter(|&l| is_letters(Some(l))) {
                end = a + l.len();
                ahead.next();
            }
            *rest = ahead;
            Some(Element::Diagram(build_diagram(label, &glyphs, &rows, seen, at..end), label))
        }
        LineKind::Move(_) => {
            let (mut tokens, mut errors) = (Tokens::tokens_in(std::mem::take(scratch)), Vec::new());
            let mut notes = Noted::default();
            let head = move_line_head(line, false).expect("classified as a move line");
            let mut moves = Vec::with_capacity(room.lines.max(1));
            let (first, mut claimed) = move_line(line, at, head, &mut tokens, &mut notes, &mut errors);
            moves.push(first);
            // Each line is read once: `ahead` is the cursor past it, kept if the line is taken.
            let mut ahead = *rest;
            while let Some((a, l)) = ahead.next() {
                // A line numbered 1 opens the next record instead.
                if let Some(head) = move_line_head(l, true).filter(|h| h.0 != 1) {
                    // Past the limit of tokens, the lines that follow are one with the last: the
                    // record's span reaches its end, and no line of it is held.
                    let past = tokens.is_full();
                    let (line, claims) = move_line(l, a, head, &mut tokens, &mut notes, &mut errors);
                    claimed |= claims;
                    match moves.last_mut() {
                        Some(last) if past => last.span.end = line.span.end,
                        _ => moves.push(line),
                    }
                    *rest = ahead;
                    continue;
                }
                if let LineKind::Prose(None) = classify(l, a, true) {
                    if let Some(token) = claim_only_line(l, a) {
                        claimed = true;
                        tokens.push_token(token, &mut errors);
                        moves.last_mut().expect("a movetext has a line").tokens.end = tokens.len();
                        *rest = ahead;
                    }
                }
                break;
            }
            let (tokens, emptied) = tokens.into_exact();
            *scratch = emptied;
            // A claim ends the movetext: later lines may not hold moves.
            let after_claim = if claimed { tokens.iter().skip_while(|t| !t.kind.is_claim()).nth(1) } else { None };
            if let Some(t) = after_claim {
                if !errors.iter().any(|e| e.span.start <= t.span.start && t.span.start < e.span.end) {
                    errors.push(SyntaxError {
                        span: t.span.clone(),
                        message: "nothing may follow a resignation or a claimed result".into(),
                    });
                }
            }
            Some(Element::Movetext(moves, tokens, notes.notes, errors))
        }
    }
}

/// The comments, glyphs and variations of a movetext of the published notation as its lines are
/// read (grammar.md, Part I, "Comments, glyphs and variations"): each closes on its own line.
#[derive(Default)]
pub(crate) struct Noted<'a> {
    pub(crate) notes: Notes<'a>,
    /// The record's notes, counted.
    counted: NoteCount,
    /// The number of the move line being read, as written (`12.`): a variation on it is named by
    /// it (`in the variation at 12. c2c5`), since a line holds a turn of each side.
    number: &'a str,
}

mod notes {
    /// Whether a word of a move line holds more than a token: a comment, a parenthesis of a
    /// variation, a glyph glued to a token or standing alone.
    pub(super) fn annotated(word: &str) -> bool {
        word.bytes().any(|c| matches!(c, b'{' | b'(' | b')' | b'$')) || word.ends_with(['!', '?'])
    }
}

impl<'a> Noted<'a> {
    /// Counts one more note (see [`NoteCount::count`]).
    fn count(&mut self, span: &Span, errors: &mut Vec<SyntaxError>) -> bool {
        self.counted.count(span, errors)
    }

    /// Where the writer is: after so many tokens of the line of play being written.
    fn place(&self, tokens: &Tokens<'a>, open: &[usize]) -> Place {
        match open.last() {
            None => Place { line: 0, after: tokens.len() },
            Some(&k) => Place { line: k, after: self.notes.variations[k - 1].tokens.len() },
        }
    }

    /// Reads one piece of a move line's `rest` (which stands at offset `at` of the file) from byte
    /// `i`: a comment to its `}`, a parenthesis, or a word up to white space or one of `{()`, a token
    /// with the glyph glued to it or a glyph alone. Where reading goes on.
    fn read(
        &mut self,
        rest: &'a str,
        at: usize,
        i: usize,
        tokens: &mut Tokens<'a>,
        open: &mut Vec<usize>,
        errors: &mut Vec<SyntaxError>,
    ) -> usize {
        let b = rest.as_bytes();
        let here = self.place(tokens, open);
        match b[i] {
            b'{' => {
                let Some(close) = rest[i..].find('}').map(|k| i + k) else {
                    let message = "this comment is never closed with `}` on its line: in the published notation a \
                                   comment closes on its move line"
                        .into();
                    push_capped(errors, SyntaxError { span: at + i..at + i + 1, message });
                    return b.len();
                };
                let (text, span) = (&rest[i + 1..close], at + i..at + close + 1);
                if self.count(&span, errors) {
                    if text.contains("[%") {
                        let (found, faults) = markup_in(text, span.start + 1, self.counted.room());
                        errors.extend(faults.into_iter().take(super::MAX_SYNTAX_ERRORS));
                        for (drawing, span) in found {
                            if !self.count(&span, errors) {
                                break;
                            }
                            self.notes.markup.push(Markup { at: here, drawing, span });
                        }
                    }
                    self.notes.comments.push(Comment { at: here, text, span, to_line_end: false });
                }
                close + 1
            }
            b'(' => {
                let span = at + i..at + i + 1;
                if here.after == 0 {
                    push_capped(errors, SyntaxError { span: span.clone(), message: NO_MOVE_BEFORE.into() });
                }
                if self.count(&span, errors) {
                    let number = Some(self.number).filter(|n| !n.is_empty());
                    self.notes.variations.push(Variation { at: here, span, number, tokens: Vec::new() });
                    open.push(self.notes.variations.len());
                } else {
                    // Past the limit, the variation is read to its `)` and not kept.
                    open.push(usize::MAX);
                }
                i + 1
            }
            b')' => {
                match open.pop() {
                    None => {
                        push_capped(errors, SyntaxError { span: at + i..at + i + 1, message: CLOSES_NONE.into() });
                    }
                    Some(usize::MAX) => {}
                    Some(k) => {
                        let v = &mut self.notes.variations[k - 1];
                        v.span.end = at + i + 1;
                        if v.tokens.is_empty() {
                            push_capped(errors, SyntaxError { span: v.span.clone(), message: NO_MOVES.into() });
                        }
                    }
                }
                i + 1
            }
            _ => {
                let end = b[i..]
                    .iter()
                    .position(|c| c.is_ascii_whitespace() || matches!(c, b'{' | b'(' | b')'))
                    .map_or(b.len(), |k| i + k);
                let word = &rest[i..end];
                let span = at + i..at + end;
                let (token, glyph) = split_glued_glyph(word);
                let glyph_at = at + i + token.len()..at + end;
                if token.is_empty() || token.starts_with('$') {
                    self.glyph(word, span, tokens, open, errors);
                } else {
                    match move_token(token) {
                        Some(kind) if kind.is_claim() || starts_claim(token) => {
                            let message = format!(
                                "`{token}` ends the record: a claim belongs to the main line, outside any variation"
                            );
                            push_capped(errors, SyntaxError { span, message });
                        }
                        Some(kind) => {
                            let token = Token { text: token, span: at + i..at + i + token.len(), kind };
                            match open.last() {
                                None => tokens.push_token(token, errors),
                                Some(&usize::MAX) => {}
                                Some(&k) => {
                                    if self.count(&token.span, errors) {
                                        self.notes.variations[k - 1].tokens.push(token);
                                    }
                                }
                            }
                            if !glyph.is_empty() {
                                self.glyph(glyph, glyph_at, tokens, open, errors);
                            }
                        }
                        None => push_capped(errors, SyntaxError { span, message: token_error(word) }),
                    }
                }
                end
            }
        }
    }

    /// Keeps a glyph written at `span`, after the move of the line being written.
    fn glyph(&mut self, word: &str, span: Span, tokens: &Tokens<'a>, open: &[usize], errors: &mut Vec<SyntaxError>) {
        let at = self.place(tokens, open);
        let nag = glyph_at(word, at).unwrap_or_else(|| Err(token_error(word)));
        match nag {
            Ok(nag) if self.count(&span, errors) => self.notes.glyphs.push(Glyph { at, nag, span }),
            Ok(_) => {}
            Err(message) => push_capped(errors, SyntaxError { span, message }),
        }
    }
}

#[derive(Default)]
struct Pending<'a> {
    title: Option<(&'static str, Span)>,
    header: Option<Result<ColumnHeader, SyntaxError>>,
    startup: Option<Result<Diagram, SyntaxError>>,
    /// A start given as a code; it and a start diagram replace each other, as two diagrams do.
    startup_code: Option<(Span, &'a str)>,
    final_position: Option<Result<Diagram, SyntaxError>>,
}

/// Groups elements into records around each movetext (grammar.md, "Finding records"), handing
/// each record on as soon as nothing further can join it.
#[derive(Default)]
pub struct Assembler<'a> {
    pending: Pending<'a>,
    /// The last record, while it can still take a final-position diagram that follows its moves.
    open: Option<Record<'a>>,
}

impl<'a> Assembler<'a> {
    /// Takes the next element; the record it closes, if any, comes out.
    pub fn push(&mut self, el: Element<'a>) -> Option<Record<'a>> {
        match el {
            Element::Title(kind, span) => {
                self.pending.title = Some((kind, span));
                self.close()
            }
            Element::Header(h) => {
                self.pending.header = Some(h);
                self.close()
            }
            Element::Diagram(d, label) => {
                let is_final = match (&d, label) {
                    (_, DiagramLabel::FinalPosition) => true,
                    (_, DiagramLabel::Startup) => false,
                    (Ok(d), DiagramLabel::None) => d.has_marks(),
                    (Err(_), DiagramLabel::None) => true,
                };
                if !is_final {
                    self.pending.startup = Some(d);
                    self.pending.startup_code = None;
                    self.close()
                } else if let Some(mut r) = self.open.take() {
                    attach(&mut r, d, true);
                    Some(finished(r))
                } else {
                    self.pending.final_position = Some(d);
                    None
                }
            }
            Element::StartupCode(span, code) => {
                self.pending.startup_code = Some((span, code));
                self.pending.startup = None;
                self.close()
            }
            Element::Movetext(lines, tokens, notes, errors) => {
                let closed = self.close();
                self.open = Some(self.record(lines, tokens, notes, errors));
                closed
            }
        }
    }

    /// Whether nothing waits for more lines: no element for a record to come, no open record.
    pub fn is_idle(&self) -> bool {
        let p = &self.pending;
        self.open.is_none()
            && p.title.is_none()
            && p.header.is_none()
            && p.startup.is_none()
            && p.startup_code.is_none()
            && p.final_position.is_none()
    }

    /// The end of this notation's text (the end of the file, or a record of the common format):
    /// the open record comes out, and elements still waiting belong to no record.
    pub fn finish(&mut self) -> Option<Record<'a>> {
        self.pending = Pending::default();
        self.close()
    }

    fn close(&mut self) -> Option<Record<'a>> {
        self.open.take().map(finished)
    }

    fn record(
        &mut self,
        lines: Vec<MoveLine>,
        tokens: Vec<Token<'a>>,
        notes: Notes<'a>,
        errors: Vec<SyntaxError>,
    ) -> Record<'a> {
        let span = lines[0].span.start..lines.last().map_or(0, |l| l.span.end);
        let mut r = Record {
            index: 0,
            span,
            title: self.pending.title.take(),
            header: None,
            startup: None,
            startup_code: None,
            final_position: None,
            lines,
            tokens,
            annotations: (!notes.is_empty()).then(|| Box::new(notes)),
            syntax_errors: errors,
        };
        if let Some(t) = &r.title {
            r.span.start = r.span.start.min(t.1.start);
        }
        match self.pending.header.take() {
            Some(Ok(h)) => {
                r.span.start = r.span.start.min(h.span.start);
                r.header = Some(h);
            }
            Some(Err(e)) => r.syntax_errors.push(e),
            None => {}
        }
        if let Some(d) = self.pending.startup.take() {
            attach(&mut r, d, false);
        }
        // A movetext that opens with a number is a first turn without its `....`, unless a start
        // code puts the game where a number is due (phase b of a later turn).
        if let Some((span, code)) = self.pending.startup_code.take() {
            r.span.start = r.span.start.min(span.start);
            r.startup_code = Some((span, code));
        } else if r.tokens.first().is_some_and(|t| matches!(t.kind, TokenKind::Number(_))) {
            r.syntax_errors.insert(0, unfilled_first_turn(&r.tokens));
        }
        if let Some(d) = self.pending.final_position.take() {
            attach(&mut r, d, true);
        }
        r
    }
}

/// A record as it is handed on: its syntax errors in file order, at most
/// [`MAX_SYNTAX_ERRORS`] of them.
fn finished(mut r: Record) -> Record {
    r.syntax_errors.sort_by_key(|e| e.span.start);
    cap_syntax_errors(&mut r.syntax_errors);
    r
}

fn attach(r: &mut Record, d: Result<Diagram, SyntaxError>, is_final: bool) {
    match d {
        Ok(d) => {
            r.span = r.span.start.min(d.span.start)..r.span.end.max(d.span.end);
            if is_final {
                r.final_position = Some(d);
            } else {
                r.startup = Some(d);
            }
        }
        Err(e) => r.syntax_errors.push(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nom::branch::alt;
    use nom::bytes::complete::{tag, tag_no_case};
    use nom::character::complete::digit1;
    use nom::combinator::recognize;
    use nom::combinator::{map_res, opt, value};
    use nom::sequence::pair;

    /// The grammar of a movetext word, as nom writes it: what [`move_token`] reads by hand.
    fn grammar(i: &str) -> IResult<&str, TokenKind> {
        let cell_label = |i| {
            map_res(recognize(pair(satisfy(|c| c.is_ascii_lowercase()), digit1)), |s: &str| {
                CellLabel::parse(s).ok_or(())
            })
            .parse(i)
        };
        all_consuming(alt((
            value(TokenKind::Filler, tag("....")),
            value(TokenKind::Stay, tag("----")),
            map(pair(cell_label, cell_label), |(a, b)| TokenKind::Step(a, b)),
            map_res(digit1, |d: &str| d.parse::<u8>().map(TokenKind::Number)),
            value(TokenKind::Resign, terminated(tag_no_case("resign"), pair(opt(tag_no_case("s")), opt(one_of(".!"))))),
        )))
        .parse(i)
    }

    #[test]
    fn claim_reads_as_the_grammar() {
        fn score(i: &str) -> IResult<&str, (u16, u16)> {
            (map_res(digit1, str::parse), preceded(one_of("-:"), map_res(digit1, str::parse))).parse(i)
        }
        fn grammar(i: &str) -> IResult<&str, TokenKind> {
            let subject = alt((value(None, tag_no_case("and")), map(one_of("XOxo"), Side::from_letter)));
            all_consuming(map(
                (
                    opt(terminated(subject, space1)),
                    tag_no_case("wins"),
                    opt(preceded(space1, score)),
                    opt(one_of(".!")),
                    space0,
                ),
                |(side, _, score, _, _)| TokenKind::Wins { side: side.flatten(), score },
            ))
            .parse(i)
        }
        let known = [
            "and wins 40-39",
            "X wins",
            "o wins 37-36 ",
            "wins",
            "WINS.",
            "wins!\t",
            "And Wins 1:2!",
            "wins 65535-0",
            "wins 65536-0",
            "wins 40-",
            "wins 40",
            "wins -3",
            "and  wins",
            "andwins",
            "Xwins",
            "x\twins 0-0.",
            "wins 40-39 x",
            "and",
            "",
            "wins  .",
            "wins 007-1",
            "o  wins 4-4!  ",
            "XO wins",
            "wİns",
            "wınsx",
        ];
        let mut rng = fastrand::Rng::with_seed(27);
        let pieces = [
            "and", "AnD", "x", "O", "o", "X", "wins", "WiNs", " ", "  ", "\t", "40", "39", "65535", "65536", "0", "-",
            ":", ".", "!", "a", "s", "İ", "\u{212a}", "ſ", "\u{3000}",
        ];
        let random = (0..200_000).map(|_| {
            let n = rng.usize(0..9);
            (0..n).map(|_| pieces[rng.usize(..pieces.len())]).collect::<String>()
        });
        for text in known.iter().map(|w| w.to_string()).chain(random) {
            assert_eq!(claim(&text), grammar(&text).ok().map(|(_, k)| k), "{text:?}");
        }
    }

    #[test]
    fn label_word_reads_as_the_grammar() {
        fn grammar(i: &str) -> IResult<&str, DiagramLabel> {
            alt((
                value(DiagramLabel::Startup, alt((tag_no_case("startup:"), tag_no_case("start:")))),
                value(DiagramLabel::FinalPosition, tag_no_case("final position:")),
            ))
            .parse(i)
        }
        let known = ["Startup:", "START: a", "start", "Final Position:a b c", "final position", "FINAL POSITION: x"];
        let mut rng = fastrand::Rng::with_seed(22);
        let alphabet =
            ['s', 'S', 't', 'a', 'r', 'u', 'p', ':', ' ', 'f', 'i', 'n', 'l', 'o', 'K', '\u{212a}', 'ſ', 'İ', 'é'];
        let random: Vec<String> = (0..200_000)
            .map(|_| {
                let n = rng.usize(0..18);
                (0..n).map(|_| alphabet[rng.usize(..alphabet.len())]).collect()
            })
            .collect();
        let prefixes = ["startup:", "start:", "final position:", "Final Position:", "sTaRt:"];
        let near = (0..50_000).map(|_| {
            let mut w: Vec<char> = prefixes[rng.usize(..prefixes.len())].chars().collect();
            let at = rng.usize(..w.len());
            w[at] = alphabet[rng.usize(..alphabet.len())];
            w.into_iter().collect::<String>()
        });
        for line in known.iter().map(|w| w.to_string()).chain(random).chain(near) {
            assert_eq!(label_word(&line), grammar(&line).ok(), "{line:?}");
        }
    }

    #[test]
    fn line_number_reads_as_the_grammar() {
        fn grammar(i: &str) -> IResult<&str, (u32, bool)> {
            (preceded(space0, map_res(digit1, str::parse::<u32>)), map(opt(ch('.')), |p| p.is_some())).parse(i)
        }
        let mut rng = fastrand::Rng::with_seed(21);
        let alphabet = [' ', '\t', '0', '1', '9', '.', 'a', '-', 'é', '\u{3000}'];
        let known = ["", "1", "1.", " 12. a7a8", "\t3 ", "4294967295.", "4294967296", "007", ". 1", "1..2"];
        let random = (0..100_000).map(|_| {
            let n = rng.usize(0..12);
            (0..n).map(|_| alphabet[rng.usize(..alphabet.len())]).collect::<String>()
        });
        for line in known.iter().map(|w| w.to_string()).chain(random) {
            assert_eq!(line_number(&line), grammar(&line).ok(), "{line:?}");
        }
    }

    /// Random words of the bytes tokens are made of, and of those around them.
    fn random_words(rng: &mut fastrand::Rng, count: usize, longest: usize) -> Vec<String> {
        let alphabet = [
            'a', 'i', 'z', 'r', 'e', 's', 'g', 'n', 'R', '0', '1', '2', '5', '9', '.', '-', '!', 'é', ' ', '\t',
            '\x0c', '\u{3000}',
        ];
        (0..count)
            .map(|_| {
                let n = rng.usize(0..=longest);
                (0..n).map(|_| alphabet[rng.usize(..alphabet.len())]).collect()
            })
            .collect()
    }

    #[test]
    fn quick_token_reads_as_move_token() {
        let known = [
            "a7a8",
            "a7a8 ",
            "a7a8\t.",
            "a7a8a",
            "a7a80",
            "a0a8",
            "a7a0",
            "z9z9",
            "----",
            "---- x",
            "-----",
            "....",
            "....\x0c",
            ".....",
            "0",
            "9 ",
            "90",
            "9.",
            "",
            " ",
            "a7a",
            "a7a8\u{3000}",
        ];
        let mut rng = fastrand::Rng::with_seed(23);
        let random = random_words(&mut rng, 200_000, 7);
        for text in known.iter().map(|w| w.to_string()).chain(random) {
            if let Some((kind, len)) = quick_token(text.as_bytes()) {
                let word = text.split_ascii_whitespace().next().expect("a word");
                assert_eq!((Some(kind), len), (move_token(word), word.len()), "{text:?}");
                assert!(text.starts_with(word), "{text:?}");
            }
        }
    }

    /// A move line's tokens are its words (as `split_ascii_whitespace` splits them) that
    /// [`move_token`] reads, each at its own place, and every other word is an error.
    #[test]
    fn move_lines_read_each_word_as_move_token_does() {
        let mut rng = fastrand::Rng::with_seed(24);
        let words = ["a7a8", "----", "....", "3", "12", "i3i2", "a10b2", "resign", "x", "a7a8a", "", " ", "\t"];
        let mut lines: Vec<String> = (0..20_000)
            .map(|_| {
                let n = rng.usize(0..8);
                (0..n).map(|_| words[rng.usize(..words.len())]).collect::<Vec<_>>().join(" ")
            })
            .collect();
        lines.extend(random_words(&mut rng, 50_000, 16));
        for rest in lines {
            let line = format!("2. {rest}");
            let (mut tokens, mut errors) = (Tokens::tokens_in(Vec::new()), Vec::new());
            move_line(&line, 10, (2, &line[2..]), &mut tokens, &mut Noted::default(), &mut errors);
            let mut expected = Vec::new();
            let mut wrong = 0;
            for word in line[2..].split_ascii_whitespace() {
                let off = word.as_ptr() as usize - line.as_ptr() as usize;
                match move_token(word) {
                    Some(kind) => expected.push(Token { text: word, span: 10 + off..10 + off + word.len(), kind }),
                    None => wrong += 1,
                }
            }
            // Claims, and words with comments, glyphs or variations, are read otherwise (below).
            let otherwise = |w: &str| starts_claim(w) || (notes::annotated(w) && move_token(w).is_none());
            if line[2..].split_ascii_whitespace().any(otherwise) {
                continue;
            }
            assert_eq!(&tokens[..], &expected[..], "{line:?}");
            // A resignation followed by more tokens is one error more.
            let resigned = expected.iter().position(|t| t.kind.is_claim()).is_some_and(|k| k + 1 < expected.len());
            assert_eq!(errors.len(), wrong + usize::from(resigned), "{line:?}");
        }
    }

    /// Comments, glyphs and variations on a move line of the published notation, each closed on
    /// the line, placed among the main line's tokens; a claim may be followed by a comment.
    #[test]
    fn move_lines_keep_comments_glyphs_and_variations() {
        let line = "3. ---- a7a8!? {good} (3 a7a4 $14 {deep (not a variation)}) i3i2 and wins 40-39 {a claim's note}";
        let (mut tokens, mut errors, mut notes) = (Tokens::tokens_in(Vec::new()), Vec::new(), Noted::default());
        move_line(line, 0, (3, &line[2..]), &mut tokens, &mut notes, &mut errors);
        assert_eq!(errors, []);
        let texts: Vec<&str> = tokens.iter().map(|t| t.text).collect();
        assert_eq!(texts, ["----", "a7a8", "i3i2", "and wins 40-39"]);
        let n = &notes.notes;
        let comments: Vec<_> = n.comments.iter().map(|c| (c.at.line, c.at.after, c.text)).collect();
        assert_eq!(comments, [(0, 2, "good"), (1, 2, "deep (not a variation)"), (0, 4, "a claim's note")]);
        let glyphs: Vec<_> = n.glyphs.iter().map(|g| (g.at.line, g.at.after, g.nag)).collect();
        assert_eq!(glyphs, [(0, 2, 5), (1, 2, 14)]);
        assert_eq!(n.variations.len(), 1);
        assert_eq!((n.variations[0].at.after, n.variations[0].number), (2, Some("3.")));
        for (broken, words) in [
            ("3. a7a8 {open", "closes on its move line"),
            ("3. a7a8 (3 a7a4", "closes on its move line"),
            ("3. a7a8 (3 resign)", "outside any variation"),
            ("3. a7a8 )", "closes no variation"),
        ] {
            let (mut tokens, mut errors) = (Tokens::tokens_in(Vec::new()), Vec::new());
            move_line(broken, 0, (3, &broken[2..]), &mut tokens, &mut Noted::default(), &mut errors);
            assert!(errors.len() == 1 && errors[0].message.contains(words), "{broken}: {errors:?}");
        }
    }

    /// The rows of a diagram are read without [`classify`]: a line is a row exactly when it
    /// classifies as one, with the same glyphs, count and number.
    #[test]
    fn rows_read_as_classified() {
        let mut rng = fastrand::Rng::with_seed(25);
        let alphabet = ['.', 'o', 'O', 'x', 'X', ' ', ' ', '\t', '1', '2', '0', '9', '.', 'a', '\x0c', 'é'];
        let known = ["x o . 1", " . O 12.", "x o 1. ", "xo 1", "x 1", "1", " ", "", ". . 0", "x o 99999"];
        let random = (0..200_000).map(|_| {
            let n = rng.usize(0..12);
            (0..n).map(|_| alphabet[rng.usize(..alphabet.len())]).collect::<String>()
        });
        for line in known.iter().map(|w| w.to_string()).chain(random) {
            let mut glyphs = vec![('x', 0..1)];
            let read = row_glyphs(&line, 5, &mut glyphs);
            let classified = match classify(&line, 5, false) {
                LineKind::DiagramRow(row) => Some(row),
                _ => None,
            };
            match (read, classified) {
                (Some((count, number)), Some(row)) => {
                    assert_eq!((&glyphs[1..], count, number), (&row.glyphs[..], row.count, row.number), "{line:?}");
                }
                (None, None) => assert_eq!(glyphs, [('x', 0..1)], "{line:?}"),
                (read, classified) => panic!("{line:?}: {read:?} {classified:?}"),
            }
        }
    }

    #[test]
    fn move_token_reads_as_the_grammar() {
        let known = [
            "....", "----", "a7a8", "i3i2", "a10b10", "a1234b5", "a0b1", "a1b", "a1b2c", "8", "255", "256", "007",
            "3.", "resign", "RESIGNS.", "Resign!", "resignss", "resign.!", "resig", "wins", "", "ä1b2", "a1b2!",
        ];
        let mut rng = fastrand::Rng::with_seed(20);
        let alphabet =
            ['a', 'b', 'i', 'r', 'e', 's', 'g', 'n', 'R', 'E', 'S', '0', '1', '2', '5', '9', '.', '-', '!', 'é'];
        let random = (0..200_000).map(|_| {
            let n = rng.usize(0..9);
            (0..n).map(|_| alphabet[rng.usize(..alphabet.len())]).collect::<String>()
        });
        for word in known.iter().map(|w| w.to_string()).chain(random) {
            assert_eq!(move_token(&word), grammar(&word).ok().map(|(_, k)| k), "{word:?}");
        }
    }
}
