//! Every line of a record replayed: each variation from the position before the move it is an
//! alternative to (grammar.md, "Comments, glyphs and variations"). [`check`] gives the verdict's
//! part of it: the record's claims and final diagram are the main line's; an illegal move in a
//! variation is a problem of the record, which says which variation it is in. Pictures walk the
//! same lines with [`replay_lines`] to draw them.

use crate::record::notes::Variation;
use crate::record::Token;
use crate::replay::{replay_observed, Event, Reader, Replay, ReplayOptions};
use crate::verdict::Problem;

/// What a replay of every line of a record tells, line by line: each line is begun, its events
/// told, and ended before the next one begins, a variation after the line it branches from.
pub(crate) trait Lines<G: Reader> {
    /// Line `line` (0: the main line; `k`: variation `k - 1`) is replayed from `from`, its first
    /// move being the game's move `ply + 1`.
    fn begin(&mut self, _line: usize, _from: &G, _ply: usize) {}
    /// An event of line `line`'s replay, as [`replay_observed`] tells it.
    fn event(&mut self, _line: usize, _event: Event<G>) {}
    /// Line `line`'s replay ended so.
    fn end(&mut self, _line: usize, _replay: Replay<G>) {}
    /// Variation line `k` is not replayed: its line, `from`, stops before the move it replaces.
    fn unreachable(&mut self, _k: usize, _from: usize) {}
}

/// Replays every line of a record whose main line is `main` from `start` once, each variation
/// from the position its line had before the move it replaces, telling `visit` as it goes. A
/// variation whose line stops before that move is not replayed, nor are the variations in it.
pub(crate) fn replay_lines<G: Reader>(
    start: &G,
    main: &[Token],
    variations: &[Variation],
    options: ReplayOptions,
    visit: &mut impl Lines<G>,
) {
    // Each line's variations, as (line, the index of the token each replaces), in text order,
    // which is the order of that index within a line.
    let mut children: Vec<Vec<(usize, usize)>> = vec![Vec::new(); variations.len() + 1];
    for (k, v) in variations.iter().enumerate() {
        // A variation with no move before it is a syntax error, which stops the record first.
        if let Some(at) = v.at.after.checked_sub(1) {
            children[v.at.line].push((k + 1, at));
        }
    }
    // Each line's start, and the ply of its first move.
    let mut starts: Vec<Option<(G, usize)>> = vec![None; variations.len() + 1];
    starts[0] = Some((start.clone(), 0));
    for line in 0..=variations.len() {
        let Some((from, ply)) = starts[line].take() else { continue };
        let tokens = match line {
            0 => main,
            k => &variations[k - 1].tokens,
        };
        visit.begin(line, &from, ply);
        let wanted = &children[line];
        let mut found: Vec<Option<G>> = vec![None; wanted.len()];
        let mut next = 0;
        let rep = replay_observed(from, tokens, options, |e| {
            if let Event::Playing { token, position, .. } | Event::Illegal { token, position, .. } = &e {
                while next < wanted.len() && wanted[next].1 <= *token {
                    if wanted[next].1 == *token {
                        found[next] = Some((*position).clone());
                    }
                    next += 1;
                }
            }
            visit.event(line, e);
        });
        for ((k, at), position) in wanted.iter().zip(found) {
            match position {
                Some(position) => starts[*k] = Some((position, ply + at)),
                None => visit.unreachable(*k, line),
            }
        }
        visit.end(line, rep);
    }
}

/// What the variations of a record come to.
#[derive(Default)]
pub(crate) struct Checked {
    /// Their illegal moves, each naming its variation.
    pub(crate) problems: Vec<Problem>,
    /// The variations that could not be checked, and why.
    pub(crate) notes: Vec<String>,
    /// Whether a variation's replay met a fault (whose token may be a syntax error).
    pub(crate) faulted: bool,
}

/// Replays each variation of a record whose main line is `main`, from `start`: every line once,
/// a variation from the position its line had before the move it replaces.
pub(crate) fn check<G: Reader>(start: &G, main: &[Token], variations: &[Variation], options: ReplayOptions) -> Checked {
    struct Check<'v, 'a> {
        variations: &'v [Variation<'a>],
        names: Vec<String>,
        out: Checked,
    }
    impl<G: Reader> Lines<G> for Check<'_, '_> {
        fn end(&mut self, line: usize, mut rep: Replay<G>) {
            if line == 0 {
                return;
            }
            self.out.faulted |= !rep.violations.is_empty() || rep.stopped_at.is_some();
            let path = path_name(self.variations, &self.names, line);
            self.out.problems.extend(
                rep.violations.iter_mut().map(|viol| Problem { variation: Some(path.clone()), ..viol.take_problem() }),
            );
        }

        fn unreachable(&mut self, k: usize, from: usize) {
            self.out.notes.push(format!(
                "the variation at {} is not checked: {} stops before the move it replaces",
                path_name(self.variations, &self.names, k),
                if from == 0 { "the main line".to_string() } else { format!("the variation at {}", self.names[from]) }
            ));
        }
    }
    if variations.is_empty() {
        return Checked::default();
    }
    let names = line_names(variations, start.player_names().len());
    let mut check = Check { variations, names, out: Checked::default() };
    replay_lines(start, main, variations, options, &mut check);
    check.out
}

/// The names of a record's lines, as its problems name them: the main line's, then each
/// variation's (its first move, after the move number its writer wrote before it, `12... c3`, or
/// else the one [`move_name`] gives it), for a game of `players` players.
pub(crate) fn line_names(variations: &[Variation], players: usize) -> Vec<String> {
    let plies = first_plies(variations);
    let mut names = vec!["the main line".to_string()];
    names.extend(variations.iter().zip(&plies[1..]).map(|(v, &ply)| {
        let first = v.tokens.first().map_or("", |t| t.text);
        match v.number {
            Some(number) => format!("{number} {first}"),
            None => move_name(ply, first, players),
        }
    }));
    names
}

/// How many moves come before the first move of each line of a record: 0 before the main line's,
/// and before a variation's as many as before the move it replaces (each token of the common
/// format is one move).
pub(crate) fn first_plies(variations: &[Variation]) -> Vec<usize> {
    let mut plies = vec![0; variations.len() + 1];
    // A variation branches from a line that opened before it: its line's count is known.
    for (k, v) in variations.iter().enumerate() {
        plies[k + 1] = plies[v.at.line] + v.at.after.saturating_sub(1);
    }
    plies
}

/// A move written `text`, with `ply` moves before it: numbered as PGN numbers moves with two
/// players (`12. d4`, `12... c3`), else by its place (`c3 (move 24)`).
pub(crate) fn move_name(ply: usize, text: &str, players: usize) -> String {
    if players == 2 {
        format!("{}{} {text}", ply / 2 + 1, if ply.is_multiple_of(2) { "." } else { "..." })
    } else {
        format!("{text} (move {})", ply + 1)
    }
}

/// Line `k`'s name with the names of the variations it lies in: `10. d4 > 12... c3`.
pub(crate) fn path_name(variations: &[Variation], names: &[String], k: usize) -> String {
    let mut path = vec![names[k].as_str()];
    let mut at = variations[k - 1].at.line;
    while at != 0 {
        path.push(&names[at]);
        at = variations[at - 1].at.line;
    }
    path.reverse();
    path.join(" > ")
}

/// The position variation `k - 1` starts from (the position before the move it replaces, in the
/// line it branches from), replaying each line on its path from the main line; `None` when a line
/// on the way stops before the branch.
pub(crate) fn start_of<G: Reader>(start: &G, main: &[Token], variations: &[Variation], k: usize) -> Option<G> {
    let mut path = vec![k];
    while let Some(&line) = path.last().filter(|&&l| l != 0) {
        path.push(variations[line - 1].at.line);
    }
    path.reverse();
    let mut position = start.clone();
    for pair in path.windows(2) {
        let (line, next) = (pair[0], pair[1]);
        let tokens = if line == 0 { main } else { &variations[line - 1].tokens };
        let at = variations[next - 1].at.after.checked_sub(1)?;
        let mut found = None;
        replay_observed(position, tokens, ReplayOptions::default(), |e| match e {
            Event::Playing { token, position, .. } | Event::Illegal { token, position, .. } if token == at => {
                found.get_or_insert_with(|| position.clone());
            }
            _ => {}
        });
        position = found?;
    }
    Some(position)
}

/// The variation (as a line, see [`crate::record::notes::Place`]) whose token is at `span`.
pub(crate) fn line_of(variations: &[Variation], span: &crate::record::Span) -> Option<usize> {
    variations.iter().position(|v| v.tokens.iter().any(|t| t.span == *span)).map(|k| k + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A variation is named by the move number written before it, or else by the moves before it,
    /// its lines' included.
    #[test]
    fn variations_are_named_by_their_first_move() {
        let text = "[Game \"Quarod\"]\n\n1. c1d1 d3c3 (a3b3 b4a4 (a2a1)) 2. b4a4 (2... d4c4) a3b3 *\n";
        let r = &crate::record::common::parse(text)[0];
        let variations = &r.notes().variations;
        assert_eq!(first_plies(variations), [0, 1, 2, 2]);
        assert_eq!(line_names(variations, 2), ["the main line", "1... a3b3", "2. a2a1", "2... d4c4"]);
        assert_eq!(line_names(variations, 3)[1..2], ["a3b3 (move 2)"]);
        let names = line_names(variations, 2);
        assert_eq!(path_name(variations, &names, 2), "1... a3b3 > 2. a2a1");
        assert_eq!(move_name(24, "c3", 2), "13. c3");
    }
}
