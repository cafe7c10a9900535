//! Writing games as records: the inverse of parsing and replay, used by `referee random`, the
//! property tests and the benchmarks.

use crate::game::Playable;
use crate::render::ascii;

/// The result token of a finished game: `1-0`, `0-1`, `0-0-1`, ..., all zeros when nobody won;
/// `*` while it is not over.
pub fn result_token<G: Playable>(position: &G) -> String {
    match position.outcome() {
        Some(o) => (0..position.player_names().len())
            .map(|i| if o.winner == Some(i) { "1" } else { "0" })
            .collect::<Vec<_>>()
            .join("-"),
        None => "*".to_string(),
    }
}

/// How a common-format record gives its start so that reading the record gives that very position
/// back: the plainest form that does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartForm {
    /// The empty board of the record's size and players: nothing to write.
    Empty,
    /// A `Setup:` diagram: this one (pieces on the board, the game not begun).
    Diagram(String),
    /// A `[Position "CODE"]` tag with this code: a game under way (turns taken, a swap used,
    /// passes in a row), which a diagram cannot say.
    Code(String),
}

/// How a record written by referee gives the start `start` (see [`StartForm`]).
pub fn start_form<G: Playable>(start: &G) -> StartForm {
    let code = start.code();
    let g = start.geometry();
    let Ok(empty) = G::start(Some(g.size()), Some(start.player_names().len() as u8)) else {
        return StartForm::Code(code);
    };
    if empty.code() == code {
        return StartForm::Empty;
    }
    let glyphs: Vec<&str> = (0..g.height()).flat_map(|r| g.row_cells(r)).map(|c| start.glyph(c)).collect();
    match empty.with_setup(&glyphs) {
        Ok(drawn) if drawn.code() == code => StartForm::Diagram(ascii::diagram(start)),
        _ => StartForm::Code(code),
    }
}

/// A game in the common record format: tags, the start when it is not the empty default (a setup
/// diagram, or a `[Position]` tag for a game under way: [`start_form`]), numbered movetext (a number before every other move) with the result, and the final
/// position.
///
/// `extra_tags` are written after `Game`, `Size`, `Players` and `Position`, before `Result`: they
/// name none of these, which the game gives, since a record gives each tag once.
pub fn write_common_record<G: Playable>(start: &G, moves: &[G::Move], extra_tags: &[(&str, String)]) -> String {
    let mut position = start.clone();
    // Words of the movetext; a move number stays with the move after it.
    let mut words = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        let w = position.write_move(m);
        words.push(if i % 2 == 0 { format!("{}. {w}", i / 2 + 1) } else { w });
        position.play_unchecked(m);
    }
    let result = result_token(&position);
    let tags = extra_tags.iter().map(|(n, v)| (*n, v.as_str())).chain([("Result", result.as_str())]);
    let mut out = record_head(start, tags);
    words.push(result.clone());
    out.push_str(&wrap(&words, 80));
    out.push_str("\n\nFinal Position:\n");
    out.push_str(&ascii::diagram(&position));
    out
}

/// The head of a common-format record that starts at `start`: its `[Game]` and `[Size]` tags,
/// `[Players]` unless the game's default number plays, `[Position]` for a game under way, then
/// `tags` in their order, then its `Setup:` diagram if its start is drawn in one (see
/// [`start_form`]), and the blank line before the movetext. `referee random` and `convert` write
/// their records' heads here.
pub fn record_head<'t, G: Playable>(start: &G, tags: impl IntoIterator<Item = (&'t str, &'t str)>) -> String {
    let mut out = format!("[Game \"{}\"]\n", G::ABOUT.title);
    let size = start.geometry().size();
    out.push_str(&format!("[Size \"{size}\"]\n"));
    let players = start.player_names().len();
    let default_players = G::start(Some(size), None).map_or(2, |g| g.player_names().len());
    if players != default_players {
        out.push_str(&format!("[Players \"{players}\"]\n"));
    }
    let form = start_form(start);
    if let StartForm::Code(code) = &form {
        out.push_str(&format!("[Position \"{code}\"]\n"));
    }
    for (name, value) in tags {
        out.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    if let StartForm::Diagram(diagram) = &form {
        out.push_str("\nSetup:\n");
        out.push_str(diagram);
    }
    out.push('\n');
    out
}

/// Joins words with spaces, breaking lines so that none is longer than `width`.
fn wrap(words: &[String], width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in words {
        if line > 0 && line + 1 + word.len() > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += word.len();
    }
    out
}

/// `src` with the move `written` played at the end of the common-format record `r` of it: after
/// its last move and before its result token, numbered as the record numbers its turns (a move
/// number before every second move, counted from the last number the record writes: `1. c1d1
/// d3c3 2. …`; after `N...` one move completes the turn). Returns the new text and the span of the
/// move's token in it. The record's own layout is kept: only the move (and its number) is added.
pub fn insert_move(src: &str, r: &crate::record::common::CommonRecord, written: &str) -> (String, crate::record::Span) {
    use crate::record::TokenKind;
    let moves: Vec<&crate::record::Token> = r.tokens.iter().filter(|t| t.kind == TokenKind::Written).collect();
    let claim = r.tokens.iter().find(|t| t.kind.is_claim());
    // After the last move and what is said of it (its comments, glyphs, variations), before the
    // result; in a record with no move yet, just before its result.
    let end = claim.map_or(r.span.end, |c| c.span.start);
    let said_end = r.span.start + src[r.span.start..end].trim_end().len();
    let at = match (moves.is_empty(), claim) {
        (false, _) => said_end,
        (true, Some(c)) => c.span.start,
        (true, None) => r.span.end,
    };
    let starts: Vec<usize> = moves.iter().map(|t| t.span.start).collect();
    let prefix = match next_number(src, r.span.start, at, &starts) {
        Some(n) => format!("{n}. "),
        None => String::new(),
    };
    let (before, after_word) = match (moves.is_empty(), claim) {
        (false, _) => (" ", ""),
        (true, Some(_)) => ("", " "),
        (true, None) => (if src[..at].ends_with(char::is_whitespace) || at == 0 { "" } else { "\n" }, "\n"),
    };
    let start = at + before.len() + prefix.len();
    (splice(src, at, &format!("{before}{prefix}{written}{after_word}")), start..start + written.len())
}

/// `src` with the move `written` played instead of the move of token `replaced` of the
/// common-format record `r`: a variation (grammar.md, "Comments, glyphs and variations") written
/// after that move and what is said of it (its glyphs, comments, variations), numbered as the
/// record numbers that move (`N.` when it opens a turn, `N...` when not): `1. c1d1 d3c3 (1...
/// b4a4)`. `None` when that token is not a move. Returns the new text and the span of the move's
/// token in it.
pub fn insert_variation(
    src: &str,
    r: &crate::record::common::CommonRecord,
    replaced: usize,
    written: &str,
) -> Option<(String, crate::record::Span)> {
    use crate::record::TokenKind;
    let token = r.tokens.get(replaced).filter(|t| t.kind == TokenKind::Written)?;
    let starts: Vec<usize> =
        r.tokens[..replaced].iter().filter(|t| t.kind == TokenKind::Written).map(|t| t.span.start).collect();
    let number = match turn_of(src, r.span.start, token.span.start, &starts) {
        (n, true) => format!("{n}."),
        (n, false) => format!("{n}..."),
    };
    let at = r.notes().said_end(&r.tokens, replaced);
    let start = at + 2 + number.len() + 1;
    Some((splice(src, at, &format!(" ({number} {written})")), start..start + written.len()))
}

/// `src` with the comment `comment` said of the move of token `k` of a record whose main line is
/// `tokens` and notes `notes`: written `{comment}` after that move and what is already said of it
/// (its glyphs, comments, variations). Returns the new text and the span of the comment's text
/// in it. `Err` for a comment the notation cannot hold: one with a `}` (which would close it),
/// or, where a comment stays on its move line (`one_line`: the published notation), a line
/// break.
pub fn insert_comment(
    src: &str,
    tokens: &[crate::record::Token],
    notes: &crate::record::notes::Notes,
    k: usize,
    comment: &str,
    one_line: bool,
) -> Result<(String, crate::record::Span), String> {
    if comment.contains('}') {
        return Err("a comment holds no `}`: it would close the comment".into());
    }
    if one_line && comment.contains(['\n', '\r']) {
        return Err("a comment of the published notation stays on its move line: it holds no line break".into());
    }
    if k >= tokens.len() {
        return Err("there is no such move".into());
    }
    let at = notes.said_end(tokens, k);
    let start = at + 2;
    Ok((splice(src, at, &format!(" {{{comment}}}")), start..start + comment.len()))
}

/// `src` with `insert` put in at byte `at`.
pub(crate) fn splice(src: &str, at: usize, insert: &str) -> String {
    [&src[..at], insert, &src[at..]].concat()
}

/// The number the next move is written after, when it opens a turn, for a move at `at` in the
/// record of `src` that starts at `start` and has moves at `moves` before it (where each starts).
/// None too in a record whose moves are written without numbers: it is not numbered now.
fn next_number(src: &str, start: usize, at: usize, moves: &[usize]) -> Option<u32> {
    let (n, opens, numbered) = numbered_turn_of(src, start, at, moves);
    (opens && (numbered || moves.is_empty())).then_some(n)
}

/// The turn a move at `at` is of, and whether it opens the turn: from the last `N.` (or `N...`)
/// the record of `src` (from `start`) writes before `at`, counting its moves after it (comments
/// are no moves; `moves` are where the moves before `at` start). Two moves a turn, the first after
/// `N.`, the second after `N...`; a record that writes no number counts from its first move.
fn turn_of(src: &str, start: usize, at: usize, moves: &[usize]) -> (u32, bool) {
    let (turn, opens, _) = numbered_turn_of(src, start, at, moves);
    (turn, opens)
}

/// [`turn_of`], and whether the record writes a number before `at`.
fn numbered_turn_of(src: &str, start: usize, at: usize, moves: &[usize]) -> (u32, bool, bool) {
    let number = |w: &str| -> Option<(u32, bool)> {
        let (digits, dots) = w.split_at(w.find('.')?);
        let n = digits.parse().ok().filter(|_| !digits.is_empty())?;
        match dots {
            "." => Some((n, false)),
            "..." => Some((n, true)),
            _ => None,
        }
    };
    // The last number word before `at`, and where it is.
    let mut last = None;
    let mut offset = start;
    for word in src[start..at].split_inclusive(char::is_whitespace) {
        if let Some(n) = number(word.trim_end()) {
            last = Some((n, offset));
        }
        offset += word.len();
    }
    let (turn, continued, counted) = match last {
        None => (1, false, moves.len()),
        Some(((n, continued), from)) => (n, continued, moves.iter().filter(|&&m| m > from).count()),
    };
    let place = counted + usize::from(continued);
    (turn + (place / 2) as u32, place % 2 == 0, last.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{read, Found};

    fn played(src: &str, written: &str) -> String {
        let Some(Found::Common(r)) = read(src, None).next() else { panic!("{src}") };
        let (out, span) = insert_move(src, &r, written);
        assert_eq!(&out[span], written);
        out
    }

    /// A move is written where the record's movetext ends, numbered as the record numbers its
    /// turns, before its result, and nothing else of the text changes.
    #[test]
    fn a_move_is_written_at_the_end_of_the_movetext_in_the_record_s_own_numbering() {
        let head = "[Game \"Quarod\"]\n[Size \"4\"]\n\n";
        assert_eq!(played(&format!("{head}*\n"), "c1d1"), format!("{head}1. c1d1 *\n"));
        assert_eq!(played(&format!("{head}1. c1d1 *\n"), "d3c3"), format!("{head}1. c1d1 d3c3 *\n"));
        assert_eq!(played(&format!("{head}1. c1d1 d3c3 *\n"), "b4a4"), format!("{head}1. c1d1 d3c3 2. b4a4 *\n"));
        // The record's own layout: a move a line, a comment after a move.
        let lines = format!("{head}1. c1d1 {{a fine start}}\n1... d3c3\n*\n");
        assert_eq!(played(&lines, "b4a4"), format!("{head}1. c1d1 {{a fine start}}\n1... d3c3 2. b4a4\n*\n"));
        // What is said of the last move stays with it: the new move comes after.
        let said = format!("{head}1. c1d1 d3c3 !? {{a trap}} (1... b4a4) *\n");
        assert_eq!(played(&said, "b4a4"), format!("{head}1. c1d1 d3c3 !? {{a trap}} (1... b4a4) 2. b4a4 *\n"));
        // No result token: the move goes at the end.
        assert_eq!(played(&format!("{head}1. c1d1"), "d3c3"), format!("{head}1. c1d1 d3c3"));
        assert_eq!(played(&format!("{head}1. c1d1 d3c3 0-1\n"), "b4a4"), format!("{head}1. c1d1 d3c3 2. b4a4 0-1\n"));
        // A record that writes no move numbers gets none.
        assert_eq!(
            played(&format!("{head}{{no numbers}} c1d1 d3c3 *\n"), "b4a4"),
            format!("{head}{{no numbers}} c1d1 d3c3 b4a4 *\n")
        );
        // A comment is no move: the turn is not over.
        assert_eq!(
            played(&format!("{head}1. c1d1 {{two words}} *\n"), "d3c3"),
            format!("{head}1. c1d1 {{two words}} d3c3 *\n")
        );
    }

    /// A move played instead of one of the record's is written as a variation right after the
    /// move it replaces, numbered as that move is.
    #[test]
    fn a_move_played_at_an_earlier_point_is_a_variation_after_the_move_it_replaces() {
        let head = "[Game \"Quarod\"]\n[Size \"4\"]\n\n";
        let text = format!("{head}1. c1d1 d3c3 2. b4a4 *\n");
        let Some(Found::Common(r)) = read(&text, None).next() else { panic!("{text}") };
        let varied = |ply: usize, written: &str| {
            let (out, span) = insert_variation(&text, &r, ply, written).expect("a move to replace");
            assert_eq!(&out[span], written);
            out
        };
        assert_eq!(varied(0, "a1b1"), format!("{head}1. c1d1 (1. a1b1) d3c3 2. b4a4 *\n"));
        assert_eq!(varied(1, "b4a4"), format!("{head}1. c1d1 d3c3 (1... b4a4) 2. b4a4 *\n"));
        assert_eq!(varied(2, "a3b3"), format!("{head}1. c1d1 d3c3 2. b4a4 (2. a3b3) *\n"));
        assert!(insert_variation(&text, &r, 3, "a3b3").is_none(), "the result is no move to replace");
        // After what is said of the move replaced: its glyph, its comment, its variations.
        let said = format!("{head}1. c1d1!? {{bold}} (1. a1b1) d3c3 *\n");
        let Some(Found::Common(r)) = read(&said, None).next() else { panic!() };
        let (out, _) = insert_variation(&said, &r, 0, "b4a4").expect("a move to replace");
        assert_eq!(out, format!("{head}1. c1d1!? {{bold}} (1. a1b1) (1. b4a4) d3c3 *\n"));
        let numbered = format!("{head}1. c1d1\n1... d3c3\n2. b4a4 *\n");
        let Some(Found::Common(r)) = read(&numbered, None).next() else { panic!() };
        let (out, _) = insert_variation(&numbered, &r, 1, "b4a4").expect("a move to replace");
        assert_eq!(out, format!("{head}1. c1d1\n1... d3c3 (1... b4a4)\n2. b4a4 *\n"));
    }
}
