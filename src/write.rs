//! Writing games as records: the inverse of parsing and replay, used by `referee random`, the
//! property tests and the benchmarks.

use crate::game::Recorded;
use crate::render::ascii;

/// The result token of a finished game: `1-0`, `0-1`, `0-0-1`, ..., all zeros when nobody won;
/// `*` while it is not over.
pub fn result_token<G: Recorded>(position: &G) -> String {
    match position.outcome() {
        Some(o) => (0..position.player_names().len())
            .map(|i| if o.winner == Some(i) { "1" } else { "0" })
            .collect::<Vec<_>>()
            .join("-"),
        None => "*".to_string(),
    }
}

/// A game in the common record format: tags, the setup diagram when the start is not the empty
/// default, numbered movetext (a number before every other move) with the result, and the final
/// position.
pub fn write_common_record<G: Recorded>(start: &G, moves: &[G::Move], extra_tags: &[(&str, String)]) -> String {
    let mut out = format!("[Game \"{}\"]\n", G::TAG);
    let size = start.geometry().size();
    out.push_str(&format!("[Size \"{size}\"]\n"));
    let players = start.player_names().len();
    let default_players = G::start(Some(size), None).map_or(2, |g| g.player_names().len());
    if players != default_players {
        out.push_str(&format!("[Players \"{players}\"]\n"));
    }
    for (name, value) in extra_tags {
        out.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    let mut position = start.clone();
    // Words of the movetext; a move number stays with the move after it.
    let mut words = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        let w = position.write_move(m);
        words.push(if i % 2 == 0 { format!("{}. {w}", i / 2 + 1) } else { w });
        position.play_unchecked(m);
    }
    let result = result_token(&position);
    out.push_str(&format!("[Result \"{result}\"]\n"));
    let empty = G::start(Some(size), Some(players as u8)).ok();
    if empty.as_ref().map(ascii::diagram) != Some(ascii::diagram(start)) {
        out.push_str("\nSetup:\n");
        out.push_str(&ascii::diagram(start));
    }
    out.push('\n');
    words.push(result);
    out.push_str(&wrap(&words, 80));
    out.push_str("\n\nFinal Position:\n");
    out.push_str(&ascii::diagram(&position));
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
