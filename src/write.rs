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
