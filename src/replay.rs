//! Record + engine -> what happened: the first illegal move, or (lenient) every one.

use crate::game::Game;
use crate::record::{Span, Token};
use crate::render::ascii;

/// What a token means where it stands, as the game's notation reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reading<M> {
    /// A move to check and play.
    Move(M),
    /// Notation only: nothing to play.
    Nothing,
    /// The token cannot be a move here; `apply` is what lenient replay plays instead, if anything.
    Problem {
        /// Why, in the game's words.
        message: String,
        /// The move lenient replay plays in its place, if any.
        apply: Option<M>,
    },
}

/// A game whose records can be read token by token, and whose positions have codes (a record
/// may start from one, and `show --format code` writes one).
pub trait Notation: Game + crate::code::Coded {
    /// Reads `tokens[i]` in this position; the other tokens give context (such as which stone a
    /// `----` stands for).
    fn read(&self, tokens: &[Token], i: usize) -> Reading<Self::Move>;
    /// The player to move, by their place in turn order: who writes the next move.
    fn mover(&self) -> usize;
}

/// An illegal move: where, why, what was legal instead, and the board at that moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Where the token is in the text.
    pub span: Span,
    /// The token as written.
    pub token: String,
    /// Why the move is illegal, in the game's words.
    pub message: String,
    /// The legal moves at that point, written in the notation: the first
    /// [`LEGAL_LISTED`](crate::verdict::LEGAL_LISTED) distinct ones.
    pub legal: Vec<String>,
    /// How many distinct legal moves there were.
    pub legal_count: u32,
    /// The position before the token, as a diagram: every violation has its own, which a report
    /// draws under it (a lenient replay keeps at most [`MAX_VIOLATIONS`] of them).
    pub board: Option<String>,
}

/// The outcome of replaying a record's tokens.
#[derive(Clone, Debug)]
pub struct Replay<G> {
    /// The position where the replay ended.
    pub position: G,
    /// The illegal moves met, in order: at most one unless the replay was lenient.
    pub violations: Vec<Violation>,
    /// How many moves were played.
    pub moves: usize,
    /// Index of the token where replay stopped, if it stopped before the end of the movetext.
    pub stopped_at: Option<usize>,
    /// Position in the token list of the first claim (`resign`, `wins ...`), if any.
    pub claim_at: Option<usize>,
    /// Who played the last move played, by place in turn order (see [`Notation::mover`]).
    pub last_mover: Option<usize>,
    /// Whether the replay went on past illegal moves ([`ReplayOptions::lenient`]).
    pub lenient: bool,
}

impl<G> Replay<G> {
    /// Why the replay is not the whole game the record describes, if it is not: claims cannot be
    /// checked against it. A lenient replay that reached the end of the record is the game as
    /// replayed past its violations ([`Replay::violations_accepted`]), and claims are checked
    /// against that.
    pub fn incomplete(&self) -> Option<String> {
        match (self.violations.len(), self.stopped_at) {
            (0, None) => None,
            (0, Some(_)) => Some("the replay stopped before the end of the record".to_string()),
            (_, None) if self.lenient => None,
            (n, Some(_)) if self.lenient => {
                Some(format!("the lenient replay stopped after {n} illegal moves, before the end of the record"))
            }
            (1, _) => Some("the record has 1 illegal move".to_string()),
            (n, _) => Some(format!("the record has {n} illegal moves")),
        }
    }

    /// How many violations a lenient replay went past to reach the end of the record: claims
    /// checked against it hold or fail "as replayed, past N violations". 0 for a strict replay,
    /// which stops at the first.
    pub fn violations_accepted(&self) -> usize {
        if self.lenient && self.stopped_at.is_none() {
            self.violations.len()
        } else {
            0
        }
    }
}

/// Options of a replay.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReplayOptions {
    /// Go on past illegal moves where the move can still be applied as written, listing all.
    pub lenient: bool,
    /// Stop after this many moves (for diagrams of earlier positions).
    pub max_moves: Option<usize>,
}

/// Most violations a lenient replay lists before it stops, so that memory stays bounded (each one
/// keeps a diagram and the legal moves).
pub const MAX_VIOLATIONS: usize = 1000;

/// What a replay tells an observer as it goes (see [`replay_observed`]).
pub enum Event<'p, G: Game> {
    /// The move of token `token` is about to be played in `position`.
    Playing {
        /// The move's index in the token list.
        token: usize,
        /// The position before the move.
        position: &'p G,
        /// The move.
        m: G::Move,
    },
    /// The move announced by the last [`Event::Playing`] was played: this is the position now.
    Played {
        /// The position after the move.
        position: &'p G,
    },
    /// Token `token` is illegal in `position`; `attempted` is the move it stands for, if it
    /// stands for one (a move may be unreadable here, or name a cell that is not on the board);
    /// `why` is the violation's message.
    Illegal {
        /// The token's index in the token list.
        token: usize,
        /// The position the token is illegal in.
        position: &'p G,
        /// The move the token stands for, if it stands for one.
        attempted: Option<G::Move>,
        /// The violation's message.
        why: &'p str,
    },
}

/// Replays `tokens` from `start`.
pub fn replay<G: Notation>(start: G, tokens: &[Token], options: ReplayOptions) -> Replay<G> {
    replay_observed(start, tokens, options, |_| {})
}

/// Replays `tokens` from `start`, telling `observe` of every move and every illegal token, in
/// order: what pictures of a whole game are drawn from.
pub fn replay_observed<G: Notation>(
    start: G,
    tokens: &[Token],
    options: ReplayOptions,
    mut observe: impl FnMut(Event<G>),
) -> Replay<G> {
    let mut position = start;
    let mut violations = Vec::new();
    let mut moves = 0;
    let mut stopped_at = None;
    let mut claim_at = None;
    let mut last_mover = None;
    for (i, token) in tokens.iter().enumerate() {
        if token_is_claim(token) {
            claim_at = Some(i);
            break;
        }
        if options.max_moves.is_some_and(|m| moves >= m) {
            stopped_at = Some(i);
            break;
        }
        // The refused move's reason, which lenient replay hands to the engine with it.
        let (problem, apply, refused, attempted) = match position.read(tokens, i) {
            Reading::Nothing => continue,
            Reading::Move(m) => match position.check(m) {
                Ok(()) => {
                    observe(Event::Playing { token: i, position: &position, m });
                    last_mover = Some(position.mover());
                    position.play_unchecked(m);
                    moves += 1;
                    observe(Event::Played { position: &position });
                    continue;
                }
                Err(why) => (why.to_string(), Some(m), Some(why), Some(m)),
            },
            Reading::Problem { message, apply } => (message, apply, None, None),
        };
        observe(Event::Illegal { token: i, position: &position, attempted, why: &problem });
        let (legal, legal_count) = written_legal_moves(&position);
        violations.push(Violation {
            span: token.span.clone(),
            token: token.text.to_string(),
            message: problem,
            legal,
            legal_count,
            board: Some(ascii::diagram(&position)),
        });
        if !options.lenient || violations.len() >= MAX_VIOLATIONS {
            stopped_at = Some(i);
            break;
        }
        if let Some(m) = apply {
            if !position.is_over() {
                observe(Event::Playing { token: i, position: &position, m });
                last_mover = Some(position.mover());
                match &refused {
                    Some(why) => position.play_refused(m, why),
                    None => position.play_unchecked(m),
                }
                moves += 1;
                observe(Event::Played { position: &position });
            }
        }
    }
    Replay { position, violations, moves, stopped_at, claim_at, last_mover, lenient: options.lenient }
}

/// The first [`LEGAL_LISTED`](crate::verdict::LEGAL_LISTED) distinct legal moves as written, and
/// how many distinct ones there are (two moves may be written alike, as Quarod's swap both ways).
fn written_legal_moves<G: Game>(position: &G) -> (Vec<String>, u32) {
    let mut seen = rustc_hash::FxHashSet::default();
    let mut listed = Vec::new();
    for m in position.legal_moves() {
        let w = position.write_move(m);
        if seen.insert(w.clone()) && listed.len() < crate::verdict::LEGAL_LISTED {
            listed.push(w);
        }
    }
    (listed, seen.len() as u32)
}

fn token_is_claim(t: &Token) -> bool {
    t.kind.is_claim()
}
