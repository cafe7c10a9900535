//! The movetext of a game document in the common format: its lines of play replayed
//! ([`fill`]) and written in the canonical layout ([`write`]), with every glyph, comment and
//! variation in its place (grammar.md, Part IV).

use crate::document::tree::MAX_NESTING;
use crate::document::{invalid, ConvertError, MoveEntry, NoteEntry};
use crate::game::Playable;
use crate::record::notes::glyph_text;
use crate::record::{Token, TokenKind};
use crate::replay::{replay_observed, Event, Reader, ReplayOptions};

/// Replays a document's main line from `start`, giving each move its derived fields (`ply`,
/// `mover`, `canonical`, `code`), and each variation's as far as its moves are legal (the rest
/// kept as written: see [`MoveEntry::played`]). `Err` at the main line's first illegal move, or
/// for variations nested deeper than [`MAX_NESTING`]. The position the main line reaches.
pub(crate) fn fill<G: Playable>(start: &G, moves: &mut [MoveEntry]) -> Result<G, ConvertError> {
    fill_line(Some(start), 0, moves, 0, true)
}

/// [`fill`], the main line played as far as it is legal too, as a variation is: the rest kept as
/// written. `Err` only for variations nested deeper than [`MAX_NESTING`].
pub(crate) fn fill_as_written<G: Playable>(start: &G, moves: &mut [MoveEntry]) -> Result<(), ConvertError> {
    fill_line(Some(start), 0, moves, 0, false).map(drop)
}

/// The moves of one line from `start` (`None`: a line that branches where its own line was no
/// longer played, so that none of its moves can be), its first move being ply `ply0 + 1`; `depth`
/// is how many variations it lies in (0: the main line). `strict`: the main line's first illegal
/// move is an error.
fn fill_line<G: Playable>(
    start: Option<&G>,
    ply0: usize,
    moves: &mut [MoveEntry],
    depth: usize,
    strict: bool,
) -> Result<G, ConvertError> {
    if depth > MAX_NESTING {
        return Err(invalid(format!(
            "variations nested {depth} deep: a document holds them at most {MAX_NESTING} deep"
        )));
    }
    let mut position = start.cloned();
    let names = start.map(|s| s.player_names()).unwrap_or_default();
    for (i, e) in moves.iter_mut().enumerate() {
        let branches = e.after.iter().any(|n| matches!(n, NoteEntry::Variation(_)));
        let before = position.as_ref().filter(|_| branches).cloned();
        e.ply = ply0 + i + 1;
        let played = match position.as_mut() {
            Some(p) => match play(p, &e.token) {
                Ok(played) => Some(played),
                Err(why) if depth == 0 && strict => {
                    return Err(ConvertError::Document {
                        ply: Some(i + 1),
                        message: format!("`{}` is not a legal move here: {why}", e.token),
                    })
                }
                Err(_) => None,
            },
            None => None,
        };
        match (played, position.as_ref()) {
            (Some((canonical, mover)), Some(p)) => {
                e.mover = names[mover].to_string();
                e.canonical = canonical;
                e.code = p.code();
            }
            _ => {
                position = None;
                e.mover.clear();
                e.canonical.clone_from(&e.token);
                e.code.clear();
            }
        }
        for note in &mut e.after {
            if let NoteEntry::Variation(v) = note {
                fill_line(before.as_ref(), ply0 + i, &mut v.moves, depth + 1, strict)?;
            }
        }
    }
    // Only the main line's end is asked for, and the main line is played to its end.
    position.or_else(|| start.cloned()).ok_or_else(|| invalid("the line was not played".into()))
}

/// Plays the move `token` writes, if it is legal in `position`: the move as the engine writes it,
/// and who played it (by place in turn order); else why not.
fn play<G: Playable>(position: &mut G, token: &str) -> Result<(String, usize), String> {
    let written = G::parse_move(token)?;
    let m = position.resolve(written).map_err(|why| why.to_string())?;
    position.check(m).map_err(|why| why.to_string())?;
    let canonical = position.write_move(m);
    let mover = position.to_move();
    position.play_unchecked(m);
    Ok((canonical, mover))
}

/// Where the numbering of moves stands, as the common format numbers them: the number of the
/// round under way and who played last.
#[derive(Clone, Copy, Default, Debug)]
pub struct Round {
    number: usize,
    last: Option<usize>,
}

impl Round {
    /// Moves the numbering on to the move of ply `ply` (from 1), played by the player at `mover` in
    /// the turn order of `players` (None for a move no player made, such as a pass written for one
    /// who is out): whether the move opens a round. With two players a round is a pair of moves, as
    /// PGN numbers them; with more, a round ends where the turn order wraps around, so that a
    /// player who is out leaves no gap.
    pub fn step(&mut self, players: usize, ply: usize, mover: Option<usize>) -> bool {
        let two = players == 2;
        let opens = if two { ply % 2 == 1 } else { mover.is_some_and(|m| self.last.is_none_or(|l| m <= l)) };
        if two {
            self.number = ply.div_ceil(2);
        } else if opens {
            self.number += 1;
        }
        if mover.is_some() {
            self.last = mover;
        }
        opens
    }

    /// The number of the round under way: 0 before the first move.
    pub fn number(&self) -> usize {
        self.number
    }
}

/// How a movetext's moves are spelled.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Spelling {
    /// Each move played as its engine writes it (`convert --to canonical`).
    Canonical,
    /// Each move as the record writes it: a layout that changes no word of the writer's.
    Written,
}

/// The movetext being written.
struct Writer<'n> {
    out: String,
    /// The players' names, in turn order.
    names: &'n [&'n str],
    spelling: Spelling,
    /// Whether the next move is written with its number, as a move after a variation or a comment
    /// to the line's end is, even when it opens no round (`12... c3`).
    number_next: bool,
}

impl Writer<'_> {
    /// A blank before the next word, unless it opens a line or follows a `(`.
    fn space(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with(['\n', '(']) {
            self.out.push(' ');
        }
    }

    fn note(&mut self, note: &NoteEntry, round: Round, depth: usize) -> Result<(), ConvertError> {
        self.space();
        match note {
            NoteEntry::Comment(text) => {
                if text.contains('}') {
                    return Err(invalid(format!("the comment `{text}` holds a `}}`, which would close it early")));
                }
                self.out.push('{');
                self.out.push_str(text);
                self.out.push('}');
            }
            NoteEntry::LineComment(text) => {
                if text.contains(['\n', '\r']) {
                    return Err(invalid(format!(
                        "the comment `;{text}` runs to the end of its line, but holds a line end"
                    )));
                }
                self.out.push(';');
                self.out.push_str(text);
                self.out.push('\n');
                self.number_next = true;
            }
            NoteEntry::Variation(v) => {
                self.out.push('(');
                for n in &v.before {
                    if matches!(n, NoteEntry::Variation(_)) {
                        return Err(invalid("a variation is an alternative to a move, so it follows one".into()));
                    }
                    self.note(n, round, depth + 1)?;
                }
                self.line(&v.moves, round, depth + 1)?;
                self.out.push(')');
                self.number_next = true;
            }
        }
        Ok(())
    }

    /// Writes a line of moves, numbered on from `round`: the main line (`depth` 0) one round a
    /// line, a variation on the line it stands in.
    fn line(&mut self, moves: &[MoveEntry], mut round: Round, depth: usize) -> Result<(), ConvertError> {
        if moves.is_empty() && depth > 0 {
            return Err(invalid("a variation has no moves".into()));
        }
        self.number_next = true;
        for e in moves {
            let before = round;
            let mover = self.names.iter().position(|n| *n == e.mover).filter(|_| e.played());
            let opens = round.step(self.names.len(), e.ply, mover);
            if depth == 0 && opens && !self.out.is_empty() && !self.out.ends_with('\n') {
                self.out.push('\n');
            }
            self.space();
            if opens {
                self.out.push_str(&format!("{}. ", round.number()));
            } else if self.number_next {
                self.out.push_str(&format!("{}... ", round.number().max(1)));
            }
            self.number_next = false;
            let canonical = e.played() && self.spelling == Spelling::Canonical;
            self.out.push_str(if canonical { &e.canonical } else { &e.token });
            for (k, &nag) in e.glyphs.iter().enumerate() {
                if k > 0 || !(1..=6).contains(&nag) {
                    self.out.push(' ');
                }
                self.out.push_str(&glyph_text(nag));
            }
            for note in &e.after {
                self.note(note, before, depth)?;
            }
        }
        Ok(())
    }
}

/// The movetext of a document's moves: the comments before the first move, one numbered line per
/// round of the main line with each move's glyphs, comments and variations after it, the result
/// token (if any) and the comments after it, each move spelled as `spelling` says. The moves are
/// [`fill`]ed.
pub(crate) fn write<G: Playable>(
    start: &G,
    before: &[NoteEntry],
    moves: &[MoveEntry],
    result: Option<&str>,
    after_result: &[NoteEntry],
    spelling: Spelling,
) -> Result<String, ConvertError> {
    let names = start.player_names();
    let mut w = Writer { out: String::new(), names, spelling, number_next: true };
    let round = Round::default();
    for n in before {
        if matches!(n, NoteEntry::Variation(_)) {
            return Err(invalid("a variation is an alternative to a move, so it follows one".into()));
        }
        w.note(n, round, 0)?;
    }
    if !w.out.is_empty() && !w.out.ends_with('\n') {
        w.out.push('\n');
    }
    w.line(moves, round, 0)?;
    if let Some(result) = result {
        w.space();
        w.out.push_str(result.trim());
    }
    for n in after_result {
        if matches!(n, NoteEntry::Variation(_)) {
            return Err(invalid("a variation follows a move, not the result".into()));
        }
        w.note(n, round, 0)?;
    }
    Ok(w.out.trim_end_matches('\n').to_string())
}

/// Gives the moves of a variation of any notation their derived fields, replaying them as the
/// notation reads them (`kind` classifies a token, as the record's reader does) from `start` (`None`:
/// a line that branches where its own line was no longer played), its first move being ply
/// `ply0 + 1`; and so each variation after its moves, `depth` being how many variations it lies
/// in. A token that is no move (a published `....`), and every token from the first illegal one on,
/// is kept as written ([`MoveEntry::played`] false).
pub(crate) fn fill_read<G: Reader>(
    start: Option<&G>,
    ply0: usize,
    moves: &mut [MoveEntry],
    kind: &dyn Fn(&str) -> TokenKind,
    depth: usize,
) -> Result<(), ConvertError> {
    if depth > MAX_NESTING {
        return Err(invalid(format!(
            "variations nested {depth} deep: a document holds them at most {MAX_NESTING} deep"
        )));
    }
    let branches: Vec<bool> =
        moves.iter().map(|e| e.after.iter().any(|n| matches!(n, NoteEntry::Variation(_)))).collect();
    let mut before: Vec<Option<G>> = vec![None; moves.len()];
    // Per token: who played it, as the engine writes it, and the code after it.
    let mut derived: Vec<Option<(usize, String, String)>> = vec![None; moves.len()];
    if let Some(start) = start {
        let tokens: Vec<Token> =
            moves.iter().enumerate().map(|(i, e)| Token { text: &e.token, span: i..i, kind: kind(&e.token) }).collect();
        let mut playing = None;
        replay_observed(start.clone(), &tokens, ReplayOptions::default(), |event| match event {
            Event::Playing { token, position, m } => {
                if branches[token] {
                    before[token] = Some(position.clone());
                }
                derived[token] = Some((position.mover(), position.write_move(m), String::new()));
                playing = Some(token);
            }
            Event::Played { position } => {
                if let Some(d) = playing.take().and_then(|t| derived[t].as_mut()) {
                    d.2 = position.code();
                }
            }
            Event::Illegal { token, position, .. } => {
                if branches[token] {
                    before[token] = Some(position.clone());
                }
            }
        });
    }
    let names = start.map(|s| s.player_names()).unwrap_or_default();
    let mut ply = ply0;
    for ((e, d), before) in moves.iter_mut().zip(derived).zip(before) {
        match d {
            Some((mover, canonical, code)) => {
                ply += 1;
                e.ply = ply;
                e.mover = names[mover].to_string();
                e.canonical = canonical;
                e.code = code;
            }
            None => {
                e.ply = ply + 1;
                e.mover.clear();
                e.canonical.clone_from(&e.token);
                e.code.clear();
            }
        }
        for note in &mut e.after {
            if let NoteEntry::Variation(v) = note {
                fill_read(before.as_ref(), e.ply - 1, &mut v.moves, kind, depth + 1)?;
            }
        }
    }
    Ok(())
}
