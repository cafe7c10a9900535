//! A record's annotations, shaped as python-chess shapes a game: `Record.mainline()`, a list of
//! `referee.Move`, each with its glyphs, comments and variations (themselves lists of moves), from
//! the record's game document (`referee::convert`, what `referee convert --to json` writes). Its
//! tags are the library's (`Found::tags`).

use pyo3::prelude::*;

use referee::convert::{GameDocument, MoveEntry};
use referee::document::NoteEntry;
use referee::format::Round;
use referee::record::{Found, TokenKind};

use crate::position::{from_code, Position};

/// The number of the move line each move of a record of the published notation is written on
/// (a line is a turn of each column's side), in the order of its document's main line: the
/// tokens it replays, up to its claim, but for the `....` that fills a phase that does not exist.
/// `None` for a record of the common format.
pub fn published_turns(found: &Found) -> Option<Vec<Option<usize>>> {
    let Found::Published(r) = found else { return None };
    let number = |token: usize| r.lines.iter().find(|l| l.tokens.contains(&token)).map(|l| l.number as usize);
    Some(
        r.tokens
            .iter()
            .enumerate()
            .take_while(|(_, t)| !t.kind.is_claim())
            .filter(|(_, t)| t.kind != TokenKind::Filler)
            .map(|(k, _)| number(k))
            .collect(),
    )
}

/// The texts of comments, as written; a variation among them (never before a move) is not one.
pub fn texts(notes: &[NoteEntry]) -> Vec<String> {
    notes
        .iter()
        .filter_map(|n| match n {
            NoteEntry::Comment(text) | NoteEntry::LineComment(text) => Some(text.clone()),
            NoteEntry::Variation(_) => None,
        })
        .collect()
}

/// How a line's moves are numbered.
#[derive(Clone, Copy)]
enum Turns<'a> {
    /// In rounds, from where the numbering stands (the common format).
    Rounds(Round),
    /// As the record's move lines are numbered, a number per move (the published notation's main
    /// line).
    Lines(&'a [Option<usize>]),
    /// All with the number of the move they stand in for (the published notation's variations).
    Same(Option<usize>),
}

/// The main line of a document as moves; `lines` are the numbers of the move lines of a record
/// of the published notation ([`published_turns`]).
pub fn mainline(py: Python<'_>, doc: &GameDocument, lines: Option<&[Option<usize>]>) -> PyResult<Vec<Py<Move>>> {
    let turns = match lines {
        Some(lines) if lines.len() == doc.moves.len() => Turns::Lines(lines),
        Some(_) => Turns::Same(None),
        None => Turns::Rounds(Round::default()),
    };
    line(py, &doc.players, &doc.moves, &[], turns)
}

/// The moves of a line of play, `before` the comments before its first move.
fn line(
    py: Python<'_>,
    players: &[String],
    entries: &[MoveEntry],
    before: &[NoteEntry],
    turns: Turns,
) -> PyResult<Vec<Py<Move>>> {
    let mut round = match turns {
        Turns::Rounds(r) => r,
        _ => Round::default(),
    };
    let mut moves = Vec::with_capacity(entries.len());
    for (k, e) in entries.iter().enumerate() {
        let prior = round;
        let turn = match turns {
            Turns::Rounds(_) => {
                let mover = players.iter().position(|p| *p == e.mover).filter(|_| e.played());
                round.step(players.len(), e.ply, mover);
                Some(round.number().max(1))
            }
            Turns::Lines(lines) => lines.get(k).copied().flatten(),
            Turns::Same(turn) => turn,
        };
        let mut variations = Vec::new();
        for note in &e.after {
            if let NoteEntry::Variation(v) = note {
                // A variation stands in for this move: numbered from where the numbering stood
                // before it.
                let inner = match turns {
                    Turns::Rounds(_) => Turns::Rounds(prior),
                    _ => Turns::Same(turn),
                };
                variations.push(line(py, players, &v.moves, &v.before, inner)?);
            }
        }
        let played = e.played();
        let m = Move {
            text: e.token.clone(),
            canonical: e.canonical.clone(),
            ply: e.ply,
            mover: played.then(|| e.mover.clone()),
            turn,
            code: played.then(|| e.code.clone()),
            glyphs: e.glyphs.iter().map(|&g| u32::from(g)).collect(),
            comments: texts(&e.after),
            comments_before: if k == 0 { texts(before) } else { Vec::new() },
            variations,
        };
        moves.push(Py::new(py, m)?);
    }
    Ok(moves)
}

/// A move of a record as written, with what its writer added: its glyphs, the comments after it,
/// and the variations that could have been played instead (python-chess's GameNode is the model).
/// `Record.mainline()` gives them, from the record's game document (`to_json()`).
///
/// >>> [r] = read('[Game "Quarod"]\n[Size "4"]\n\n1. c1d1 {corner} d3c3!? (d4c4) *\n')
/// >>> m = r.mainline()[1]
/// >>> m.text, m.turn, m.glyphs, [v[0].text for v in m.variations]
/// ('d3c3', 1, [5], ['d4c4'])
#[pyclass(module = "referee", name = "Move", frozen)]
pub struct Move {
    text: String,
    canonical: String,
    ply: usize,
    mover: Option<String>,
    turn: Option<usize>,
    code: Option<String>,
    glyphs: Vec<u32>,
    comments: Vec<String>,
    comments_before: Vec<String>,
    variations: Vec<Vec<Py<Move>>>,
}

#[pymethods]
impl Move {
    /// The move as the record writes it.
    #[getter]
    fn text(&self) -> &str {
        &self.text
    }

    /// The move as referee writes it (as `Position.legal_moves()` lists it); for a variation's
    /// move that was not played, as written.
    #[getter]
    fn canonical(&self) -> &str {
        &self.canonical
    }

    /// How many moves the game has had once this one is played: 1 for the first move of a game
    /// played from its start; a variation's first move has the ply of the move it stands in for.
    #[getter]
    fn ply(&self) -> usize {
        self.ply
    }

    /// Who plays it, as the record names the players (X, Black, Red); None for a variation's
    /// move that was not played.
    #[getter]
    fn mover(&self) -> Option<&str> {
        self.mover.as_deref()
    }

    /// The number of the move's turn as the record counts them. The published notation: the
    /// number of the move line it is written on (a line is a turn of each column's side; a
    /// variation's moves have the number of the move they stand in for). The common format, which
    /// may number its moves any way it likes or not at all: the number `referee convert --to
    /// canonical` writes for the move's round (a pair of moves with two players, as PGN numbers
    /// them; with three or four, a move of each player still in).
    #[getter]
    fn turn(&self) -> Option<usize> {
        self.turn
    }

    /// The position code after the move; None for a variation's move that was not played.
    #[getter]
    fn code(&self) -> Option<&str> {
        self.code.as_deref()
    }

    /// The glyphs written after the move, as numbers as PGN numbers them: 1 `!`, 2 `?`, 3 `!!`,
    /// 4 `??`, 5 `!?`, 6 `?!`, any other `$N` as written.
    #[getter]
    fn glyphs(&self) -> Vec<u32> {
        self.glyphs.clone()
    }

    /// The comments written after the move, in order, as written (without their braces, or the
    /// `;` of a comment to the line's end; markup such as `[%mark c3 red]` kept).
    #[getter]
    fn comments(&self) -> Vec<String> {
        self.comments.clone()
    }

    /// The comments written before the move when it opens a variation (the comments before a
    /// record's first move are `Record.comments_before()`).
    #[getter]
    fn comments_before(&self) -> Vec<String> {
        self.comments_before.clone()
    }

    /// The variations written after the move: each a list of moves that could have been played
    /// instead of this one, from the position before it, with their own annotations. A variation's
    /// moves are played as far as they are legal; from its first illegal move on they are kept as
    /// written, with no position.
    #[getter]
    fn variations(&self, py: Python<'_>) -> Vec<Vec<Py<Move>>> {
        self.variations.iter().map(|v| v.iter().map(|m| m.clone_ref(py)).collect()).collect()
    }

    /// The position after the move; None for a variation's move that was not played.
    fn position(&self, py: Python<'_>) -> PyResult<Option<Position>> {
        let Some(code) = &self.code else { return Ok(None) };
        match from_code(code) {
            Ok(pos) => Ok(Some(Position::with_ply(pos, self.ply))),
            Err(e) => Err(crate::errors::code_error(py, code, &e)),
        }
    }

    fn __repr__(&self) -> String {
        let turn = self.turn.map_or(String::new(), |t| format!(", turn={t}"));
        format!("<Move {:?}: ply={}{turn}>", self.text, self.ply)
    }
}
