//! A record replayed move by move, whatever its game: who played what, and the board after it.
//!
//! [`record_moves`] is the plain-data view of [`replay_observed`] for programs that want each
//! move and position of a record without naming the game's engine type. Work that needs the
//! engine itself (its legal moves, its score as a type) goes through
//! [`crate::verify::with_record`] instead.

use crate::game::About;
use crate::judge::Games;
use crate::record::Found;
use crate::record::{Span, Token};
use crate::render::ascii;
use crate::replay::{replay_observed, Event, Reader, ReplayOptions, Violation};
use crate::verify::{with_found_start, with_record, VerifyOptions, WithStart};

/// One move of a replayed record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// How many moves were played once this one was: 1 for the first move.
    pub ply: usize,
    /// Who played it, as the record names the players (`X`, `Black`, `Red`).
    pub player: &'static str,
    /// The move as the game's notation writes it (which may differ from the record's token in
    /// spelling, as `----` for a stone that stays in the published notation).
    pub written: String,
    /// Where the move's token is in the text.
    pub token: Span,
    /// The position after the move, as a text diagram ([`ascii::diagram`]).
    pub board: String,
    /// The position after the move, as its position code ([`crate::game::code::Coded`]): the game's
    /// engine reads it back exactly (`G::from_code`).
    pub code: String,
}

/// A record replayed up to its first illegal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMoves {
    /// The game the record was read as.
    pub game: &'static About,
    /// Where the record is in the text.
    pub span: Span,
    /// The start position, as a text diagram.
    pub start: String,
    /// The start position, as its position code.
    pub start_code: String,
    /// Every move played, in order.
    pub moves: Vec<PlayedMove>,
    /// The first illegal move, where the replay stopped: its token, why, and what was legal.
    pub illegal: Option<Violation>,
    /// Whether the game was over where the replay ended.
    pub over: bool,
    /// The score where the replay ended, in the game's words (`X 3 marks, O 2 marks`).
    pub score: String,
    /// The moves that may be played next where the replay ended (none once the game is over or
    /// after an illegal move), as a board that plays moves by clicks needs them.
    pub next: Vec<NextMove>,
}

/// A move that may be played next: how it is written, and the cells that name it on a board, in
/// the order a player points at them (where a piece goes from, then to; the cell a piece is
/// placed on; a group kept). A move that names no cell (a pass, a swap, an announced number) has
/// none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NextMove {
    /// The move as the game's notation writes it.
    pub written: String,
    /// The cells that name it, by their labels (`c3`).
    pub cells: Vec<String>,
}

/// The moves that may be played after the first `ply` moves of record `index` of `src` (its
/// main line), as [`RecordMoves::next`] gives them at its end: for a board that plays a move at
/// an earlier point, as a variation. `Err` says why the record cannot be replayed; no moves when
/// the record stops at an illegal move before `ply` or the game is over there.
pub fn moves_after<S: Games>(
    src: &str,
    index: usize,
    ply: usize,
    options: VerifyOptions<S>,
) -> Result<Vec<NextMove>, (Span, String)> {
    struct After(usize);
    impl WithStart for After {
        type Output = Vec<NextMove>;
        fn run<G: Reader>(self, start: G, tokens: &[Token]) -> Vec<NextMove> {
            let rep = replay_observed(
                start,
                tokens,
                ReplayOptions { max_moves: Some(self.0), ..ReplayOptions::default() },
                |_| {},
            );
            if !rep.violations.is_empty() || rep.moves < self.0 {
                return Vec::new();
            }
            next_of(&rep.position)
        }
    }
    Ok(with_record(src, index, options, After(ply))?.0)
}

/// A move played into a record's text ([`play_move`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The text with the move written in; the text as it was when the move is the record's own.
    pub text: String,
    /// Where the move's token is in `text`.
    pub token: Span,
    /// Whether the move is the record's own next move, so nothing was written.
    pub same: bool,
}

/// Record `index` of `src` with the move written `written` played after its first `ply` moves (of
/// its main line; at its end when `ply` is past it), if the position there allows it, in the record's own notation, layout and
/// numbering ([`crate::format::OpenRecord::play_into`]): at the record's end after its last move;
/// earlier as a variation after the move it replaces (unless it is that very move: `same`).
/// `Err` says why not: the record cannot be replayed, stops at an illegal move before `ply`, is
/// over there, or the move is not legal there (with the legal moves).
///
/// ```
/// use referee::moves::play_move;
/// let text = "QUADRAPHAGES\n_xx_ _oo_\n1. .... ....\n";
/// let played = play_move(text, 1, 0, "5", Default::default()).unwrap();
/// assert_eq!(played.text, "QUADRAPHAGES\n_xx_ _oo_\n1. .... .... 5\n");
/// assert_eq!(&played.text[played.token], "5");
/// let refused = play_move(text, 1, 0, "9", Default::default()).unwrap_err();
/// assert!(refused.starts_with("9 is not a legal move here; legal: 1 2 3"), "{refused}");
/// ```
pub fn play_move<S: Games>(
    src: &str,
    index: usize,
    ply: usize,
    written: &str,
    options: VerifyOptions<S>,
) -> Result<Played, String> {
    use crate::format::{OpenRecord, WithOpenRecord};
    use crate::game::Notation;
    struct Play<'w> {
        ply: usize,
        written: &'w str,
    }
    impl<'r> WithOpenRecord<'r> for Play<'_> {
        type Output = Result<Played, String>;
        fn run<F: OpenRecord<'r>>(self, record: F) -> Self::Output {
            let start = record.start().map_err(|p| p.message)?;
            // The position after `ply` moves, and the token of the move the record plays there.
            let mut at: Option<(F::Game, usize, String)> = None;
            let mut played = 0;
            let rep = replay_observed(start, record.tokens(), ReplayOptions::default(), |event| {
                if let Event::Playing { token, position, m } = event {
                    if played == self.ply {
                        at = Some((position.clone(), token, position.write_move(m)));
                    }
                    played += 1;
                }
            });
            let (position, replaced) = match at {
                // The text is the caller's to give back.
                Some((_, token, own)) if own == self.written => {
                    let token = record.tokens()[token].span.clone();
                    return Ok(Played { text: String::new(), token, same: true });
                }
                Some((position, token, _)) => (position, Some(token)),
                None => {
                    if let Some(v) = rep.violations.first() {
                        return Err(format!(
                            "the record stops at an illegal move ({}): no move is played after it",
                            v.token
                        ));
                    }
                    (rep.position, None)
                }
            };
            let legal = next_of(&position);
            if !legal.iter().any(|m| m.written == self.written) {
                return Err(match legal.is_empty() {
                    true => "the game is over: no move is played after its end".to_string(),
                    false => {
                        let legal: Vec<&str> = legal.iter().map(|m| m.written.as_str()).collect();
                        format!("{} is not a legal move here; legal: {}", self.written, legal.join(" "))
                    }
                });
            }
            let (text, token) = record.play_into(&position, replaced, self.written);
            Ok(Played { text, token, same: false })
        }
    }
    let found = nth_record(src, index, options)?;
    let mut played =
        crate::judge::with_found(src, &found, options, Play { ply, written }).map_err(|u| u.why.message)??;
    if played.same {
        played.text = src.to_string();
    }
    Ok(played)
}

/// Record `index` of `src` with the comment `comment` said of its move `ply` (1 for the first of
/// its main line), written `{comment}` after that move and what is already said of it
/// ([`crate::format::OpenRecord::comment_into`]). Returns the new text and where the comment's
/// text is in it; `Err` says why not: the record cannot be replayed, has no such move (it stops
/// before it, at an illegal move or its end), or the comment is one its notation cannot hold.
///
/// ```
/// let text = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 d3c3 *\n";
/// let (said, _) = referee::moves::comment_move(text, 1, 1, "a quiet start", Default::default()).unwrap();
/// assert_eq!(said, "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 {a quiet start} d3c3 *\n");
/// ```
pub fn comment_move<S: Games>(
    src: &str,
    index: usize,
    ply: usize,
    comment: &str,
    options: VerifyOptions<S>,
) -> Result<(String, Span), String> {
    use crate::format::{OpenRecord, WithOpenRecord};
    struct Say<'c> {
        ply: usize,
        comment: &'c str,
    }
    impl<'r> WithOpenRecord<'r> for Say<'_> {
        type Output = Result<(String, Span), String>;
        fn run<F: OpenRecord<'r>>(self, record: F) -> Self::Output {
            let start = record.start().map_err(|p| p.message)?;
            // The token of the record's move `ply`.
            let mut token = None;
            let mut played = 0;
            replay_observed(start, record.tokens(), ReplayOptions::default(), |event| {
                if let Event::Playing { token: t, .. } = event {
                    played += 1;
                    if played == self.ply {
                        token = Some(t);
                    }
                }
            });
            let k = token.ok_or_else(|| format!("the record has no move {} to comment on", self.ply))?;
            record.comment_into(k, self.comment)
        }
    }
    let found = nth_record(src, index, options)?;
    crate::judge::with_found(src, &found, options, Say { ply, comment }).map_err(|u| u.why.message)?
}

/// Record `index` (1-based) of `src`, or why there is none.
fn nth_record<S: Games>(src: &str, index: usize, options: VerifyOptions<S>) -> Result<Found<'_>, String> {
    crate::record::read(src, options.reading()).nth(index.wrapping_sub(1)).ok_or_else(|| {
        format!("there is no record {index} (the file has {})", crate::record::read(src, options.reading()).count())
    })
}

/// The moves that may be played next in `p`, each with the cells that name it.
fn next_of<G: Reader>(p: &G) -> Vec<NextMove> {
    p.distinct_moves()
        .into_iter()
        .map(|m| NextMove { written: p.write_move(m), cells: pointed(p.geometry(), &p.signs(m)) })
        .collect()
}

/// The cells a move's signs name, in the order a player points at them: the first piece's move
/// (from, to), then any cell placed on or chosen; pieces pushed along are not pointed at.
fn pointed(geometry: crate::geometry::Geometry, signs: &[crate::game::Sign]) -> Vec<String> {
    use crate::game::Sign;
    let mut cells = Vec::new();
    let mut moved = false;
    for sign in signs {
        let named = match *sign {
            Sign::Arrow { from, to } if !moved => {
                moved = true;
                vec![from, to]
            }
            Sign::Ring(c) | Sign::Stay(c) => vec![c],
            _ => Vec::new(),
        };
        for c in named {
            let label = geometry.label(c).to_string();
            if !cells.contains(&label) {
                cells.push(label);
            }
        }
    }
    cells
}

/// Replays record `index` (1-based) of `src`, of any of the six games, keeping every move and the
/// position after it; `Err` says why the record cannot be replayed (there is no such record, its
/// syntax, its start position), and where in `src`.
///
/// ```
/// let text = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 d3c3 *\n";
/// let replayed = referee::record_moves(text, 1, Default::default()).unwrap();
/// assert_eq!(replayed.game.name, "quarod");
/// let first = &replayed.moves[0];
/// assert_eq!((first.ply, first.player, first.written.as_str()), (1, "Black", "c1d1"));
/// // The position after it, for the engine: read back from its code.
/// use referee::game::code::Coded;
/// let after = referee::games::quarod::Quarod::from_code(&first.code).unwrap();
/// assert_eq!(after.code(), first.code);
/// assert_eq!(replayed.moves.len(), 2);
/// assert!(replayed.illegal.is_none());
/// ```
pub fn record_moves<S: Games>(
    src: &str,
    index: usize,
    options: VerifyOptions<S>,
) -> Result<RecordMoves, (Span, String)> {
    let (mut replayed, span) = with_record(src, index, options, Walk)?;
    replayed.span = span;
    Ok(replayed)
}

/// [`record_moves`] of a record already found in `src`.
pub fn found_moves<S: Games>(
    src: &str,
    found: &Found,
    options: VerifyOptions<S>,
) -> Result<RecordMoves, (Span, String)> {
    let (mut replayed, span) = with_found_start(src, found, options, Walk)?;
    replayed.span = span;
    Ok(replayed)
}

struct Walk;

impl WithStart for Walk {
    type Output = RecordMoves;
    fn run<G: Reader>(self, start: G, tokens: &[Token]) -> RecordMoves {
        walk(start, tokens)
    }
}

fn walk<G: Reader>(start: G, tokens: &[Token]) -> RecordMoves {
    let mut moves = Vec::new();
    let mut pending: Option<(usize, &'static str, String)> = None;
    let rep = replay_observed(start.clone(), tokens, ReplayOptions::default(), |event| match event {
        Event::Playing { token, position, m } => {
            pending = Some((token, position.player_names()[position.mover()], position.write_move(m)));
        }
        Event::Played { position } => {
            if let Some((token, player, written)) = pending.take() {
                moves.push(PlayedMove {
                    ply: moves.len() + 1,
                    player,
                    written,
                    token: tokens[token].span.clone(),
                    board: ascii::diagram(position),
                    code: position.code(),
                });
            }
        }
        Event::Illegal { .. } => {}
    });
    let next = if rep.violations.is_empty() { next_of(&rep.position) } else { Vec::new() };
    RecordMoves {
        next,
        game: start.about(),
        span: 0..0,
        start: ascii::diagram(&start),
        start_code: start.code(),
        moves,
        illegal: rep.violations.into_iter().next(),
        over: rep.position.is_over(),
        score: rep.position.score().to_string(),
    }
}
