//! Record + engine -> what happened: the first illegal move, or (lenient) every one.

use crate::game::{BreaksRule, Game, Notation, Playable, Rule};
use crate::record::{Span, Token};
use crate::verdict::BoardGlyphs;

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
pub trait Reader: Notation + crate::game::code::Coded {
    /// Reads `tokens[i]` in this position; the other tokens give context (such as which stone a
    /// `----` stands for).
    fn read(&self, tokens: &[Token], i: usize) -> Reading<Self::Move>;
    /// Whether `text` is written as a move of the notation at all, whatever the position: a token
    /// that is not stops a replay as a syntax error (not a move), one that is but cannot be played
    /// there as an illegal move.
    fn writes_a_move(text: &str) -> bool;
    /// The player to move, by their place in turn order: who writes the next move.
    fn mover(&self) -> usize;
    /// The other moves token `i` may stand for here, besides the one [`Reader::read`] gives:
    /// where the notation does not say which piece a token names (Quadraphages' `----` with three
    /// stones a side, RULINGS 5b). Each is a legal reading of the token if the engine accepts it.
    fn other_readings(&self, _tokens: &[Token], _i: usize) -> Vec<Self::Move> {
        Vec::new()
    }
    /// Whether a record from this start may be read in more than one way (see
    /// [`Reader::other_readings`]): only then does a replay follow every reading.
    fn readings_may_differ(&self) -> bool {
        false
    }
    /// Whether two readings have reached the same position (the replay keeps it once): by
    /// default, whether their codes are the same, since a code gives back its position exactly.
    fn same_position(&self, other: &Self) -> bool {
        self.code() == other.code()
    }
}

/// Every game in the common record format reads its tokens the same way: syntax, then position.
impl<G: Playable> Reader for G {
    fn read(&self, tokens: &[Token], i: usize) -> Reading<Self::Move> {
        match G::parse_move(tokens[i].text) {
            Err(message) => Reading::Problem { message, apply: None },
            Ok(written) => match self.resolve(written) {
                Ok(m) => Reading::Move(m),
                Err(why) => Reading::Problem { message: why.to_string(), apply: None },
            },
        }
    }

    fn writes_a_move(text: &str) -> bool {
        G::parse_move(text).is_ok()
    }

    fn mover(&self) -> usize {
        self.to_move()
    }
}

/// Most legal moves a problem lists; the count says how many there were.
pub const LEGAL_LISTED: usize = 32;

/// What the search needs to know of a notation beyond reading tokens: how it classifies the tokens
/// a repair writes, and what slips of a writer look like in it.
pub trait Repairable: Reader + crate::game::SearchKey {
    /// How many tokens after a token its reading may look at: an edit can change how the tokens
    /// this far before it read (Quadraphages' `----` looks at the rest of its phase).
    const READ_AHEAD: usize;
    /// How the reader classifies a token written into a record of this notation.
    fn token_kind(text: &str) -> crate::record::TokenKind;
    /// How many tokens before the first violation a slip may stand and still read as legal until
    /// there.
    fn window(&self) -> usize;
    /// Lengths in tokens (more than one) of the stretches of play starting here that a writer may
    /// have added or left out as one slip: a phase, a half-turn.
    fn stretches(&self) -> Vec<usize>;
    /// The tokens that would record the stretch starting here as not played, when the rules do not
    /// allow that (a stay for a stone that could move, a pass with a move on the board): the
    /// notation cannot write such play legally, but the writer's record may be all there is.
    fn skipped(&self) -> Option<Vec<String>>;
    /// Plays a move of such a token, which the rules refuse here: by default as written.
    fn play_forced(&mut self, m: Self::Move) {
        self.play_unchecked(m);
    }
}

/// The games of the common format: one token a move, read on its own.
impl<G: Playable> Repairable for G {
    const READ_AHEAD: usize = 0;

    fn token_kind(_: &str) -> crate::record::TokenKind {
        crate::record::TokenKind::Written
    }

    /// A dropped or doubled move gives the next moves to the wrong players, which may stay legal
    /// for a round.
    fn window(&self) -> usize {
        self.player_names().len().max(2)
    }

    fn stretches(&self) -> Vec<usize> {
        Vec::new()
    }

    fn skipped(&self) -> Option<Vec<String>> {
        let pass = self.resolve(G::parse_move("pass").ok()?).ok()?;
        (!self.is_over() && self.check(pass).is_err()).then(|| vec!["pass".to_string()])
    }
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
    /// The rule the token breaks: the engine's reason's, or the notation's when the token reads as
    /// no move of the game here.
    pub rule: Rule,
    /// The legal moves at that point, written in the notation: the first
    /// [`LEGAL_LISTED`] distinct ones.
    pub legal: Vec<String>,
    /// How many distinct legal moves there were.
    pub legal_count: u32,
    /// The position before the token, as a diagram: every violation has its own, which a report
    /// draws under it (a lenient replay keeps at most [`MAX_VIOLATIONS`] of them).
    pub board: Option<BoardGlyphs>,
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
    /// Who played the last move played, by place in turn order (see [`Reader::mover`]).
    pub last_mover: Option<usize>,
    /// Whether the replay went on past illegal moves ([`ReplayOptions::lenient`]).
    pub lenient: bool,
    /// Where the record's other legal readings end (RULINGS 5b), each a different position from
    /// `position` and from one another: empty when the record reads one way only, and when the
    /// replay met an illegal move (it then follows one reading, see [`replay_observed`]).
    pub readings: Vec<G>,
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
pub fn replay<G: Reader>(start: G, tokens: &[Token], options: ReplayOptions) -> Replay<G> {
    replay_observed(start, tokens, options, |_| {})
}

/// Replays `tokens` from `start`, telling `observe` of every move and every illegal token, in
/// order: what pictures of a whole game are drawn from.
///
/// Where a token may stand for several moves ([`Reader::other_readings`]), the replay follows
/// one reading that makes every token legal; when none does, one that goes as far as any, and its
/// first illegal token is the violation (see `furthest` for which). The other legal readings'
/// ends are [`Replay::readings`].
pub fn replay_observed<G: Reader>(
    start: G,
    tokens: &[Token],
    options: ReplayOptions,
    mut observe: impl FnMut(Event<G>),
) -> Replay<G> {
    let (choices, readings) = if start.readings_may_differ() {
        follow_readings(&start, tokens, 0, options)
    } else {
        (Vec::new(), Vec::new())
    };
    let mut choices = choices.into_iter().peekable();
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
        let reading = match choices.next_if(|&(at, _)| at == i) {
            Some((_, m)) => Reading::Move(m),
            None => position.read(tokens, i),
        };
        let (problem, apply, refused, attempted) = match reading {
            Reading::Nothing => continue,
            // The observer sees the position before the move, and only a legal move: a refused
            // one leaves the position as it was, for the violation's board and legal moves.
            Reading::Move(m) => match position.play_checked(m, |before| {
                observe(Event::Playing { token: i, position: before, m });
                last_mover = Some(before.mover());
            }) {
                Ok(()) => {
                    moves += 1;
                    observe(Event::Played { position: &position });
                    continue;
                }
                Err(why) => (why.to_string(), Some(m), Some(why), Some(m)),
            },
            Reading::Problem { message, apply } => (message, apply, None, None),
        };
        let rule = match &refused {
            Some(why) => why.rule(),
            None => problem_rule(&position, token.text),
        };
        observe(Event::Illegal { token: i, position: &position, attempted, why: &problem });
        let (legal, legal_count) = written_legal_moves(&position);
        violations.push(Violation {
            span: token.span.clone(),
            token: token.text.to_string(),
            message: problem,
            rule: Rule::of(position.about(), rule),
            legal,
            legal_count,
            board: Some(BoardGlyphs::of(&position)),
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
    // A replay past an illegal move follows one reading only.
    let readings = if violations.is_empty() { readings } else { Vec::new() };
    Replay { position, violations, moves, stopped_at, claim_at, last_mover, lenient: options.lenient, readings }
}

/// The rule a token breaks that [`Reader::read`] finds no move in, or no move for the engine to
/// check (a cell off the board, a step of a stone that is not the mover's): the reason the engine
/// gives when the token is resolved and checked on its own, as the notation writes a move; the
/// notation's rule when it reads as no move at all (Quadraphages' `....` out of place).
fn problem_rule<G: Reader>(position: &G, text: &str) -> &'static str {
    let Ok(written) = G::parse_move(text) else { return Rule::NOTATION };
    match position.resolve(written) {
        Err(why) => why.rule(),
        Ok(m) => position.check(m).err().map_or(Rule::NOTATION, |why| why.rule()),
    }
}

/// One reading of a record as far as it goes: its position, its moves, and the moves it chose
/// where [`Reader::read`] would have read another (token index, move).
#[derive(Clone)]
struct Alive<G: Game> {
    position: G,
    moves: usize,
    choices: Vec<(usize, G::Move)>,
}

/// A move a token may stand for, and whether it is another than the one `read` gives.
type Step<G> = (<G as Game>::Move, bool);

/// Follows every reading of `tokens` at once (RULINGS 5b): the choices of the reading a replay
/// follows (see [`replay_observed`]), and where the other legal readings end.
///
/// Readings differ only in which piece a token names where the notation does not say, so the
/// positions they reach differ only in the turn's bookkeeping (which pieces have acted, which
/// failed to move, whether the game is over); identical positions are kept once, which bounds
/// the set by that bookkeeping whatever the record's length.
fn follow_readings<G: Reader>(
    start: &G,
    tokens: &[Token],
    from: usize,
    options: ReplayOptions,
) -> (Vec<(usize, G::Move)>, Vec<G>) {
    let mut alive = vec![Alive { position: start.clone(), moves: 0, choices: Vec::new() }];
    // A reading that has played `max_moves` plays no more.
    let at_limit = |a: &Alive<G>| options.max_moves.is_some_and(|m| a.moves >= m);
    for (i, token) in tokens.iter().enumerate().skip(from) {
        if token_is_claim(token) || alive.iter().all(at_limit) {
            break;
        }
        // One reading, and a token with one meaning (nearly every token): played in place.
        if let [a] = alive.as_mut_slice() {
            if !at_limit(a) && a.position.other_readings(tokens, i).is_empty() {
                match a.position.read(tokens, i) {
                    Reading::Nothing => continue,
                    // Played if legal (checked and played at once); a refused move leaves the
                    // position as it was.
                    Reading::Move(m) if a.position.play(m).is_ok() => {
                        a.moves += 1;
                        continue;
                    }
                    _ => return (std::mem::take(&mut a.choices), Vec::new()),
                }
            }
        }
        // Each reading's moves for this token that the engine accepts, the preferred first; `None`
        // for a token that plays nothing (or a reading already at `max_moves`).
        let steps: Vec<Option<Vec<Step<G>>>> = alive
            .iter()
            .map(|a| {
                if at_limit(a) {
                    return None;
                }
                match a.position.read(tokens, i) {
                    Reading::Nothing => None,
                    Reading::Problem { .. } => Some(Vec::new()),
                    Reading::Move(m) => {
                        let others = a.position.other_readings(tokens, i).into_iter().map(|o| (o, true));
                        let all = std::iter::once((m, false)).chain(others);
                        Some(all.filter(|&(m, _)| a.position.check(m).is_ok()).collect())
                    }
                }
            })
            .collect();
        if steps.iter().all(|s| s.as_ref().is_some_and(Vec::is_empty)) {
            // No reading admits this token: the replay follows one of them to it.
            let followed = furthest(&alive);
            return (std::mem::take(&mut alive[followed].choices), Vec::new());
        }
        let mut next: Vec<Alive<G>> = Vec::with_capacity(alive.len());
        for (a, step) in alive.into_iter().zip(steps) {
            let successors: Vec<Alive<G>> = match step {
                None => vec![a],
                Some(ms) => {
                    let n = ms.len();
                    let mut a = Some(a);
                    ms.into_iter()
                        .enumerate()
                        .filter_map(|(k, (m, chosen))| {
                            // The last reading of the token takes the position itself: one reading,
                            // no copy.
                            let mut s = if k + 1 == n { a.take()? } else { a.as_ref()?.clone() };
                            s.position.play_unchecked(m);
                            s.moves += 1;
                            if chosen {
                                s.choices.push((i, m));
                            }
                            Some(s)
                        })
                        .collect()
                }
            };
            for s in successors {
                if !next.iter().any(|n| n.position.same_position(&s.position)) {
                    next.push(s);
                }
            }
        }
        alive = next;
    }
    if alive.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let followed = alive.remove(furthest(&alive));
    (followed.choices, alive.into_iter().map(|a| a.position).collect())
}

/// The moves of the reading a strict replay of `tokens` from token `from` on, standing in `start`,
/// follows where a token may stand for several (see [`replay_observed`]): for replays that play
/// token by token themselves, as the repair search does. Empty where readings cannot differ.
pub(crate) fn reading_choices<G: Reader>(start: &G, tokens: &[Token], from: usize) -> Vec<(usize, G::Move)> {
    if !start.readings_may_differ() {
        return Vec::new();
    }
    follow_readings(start, tokens, from, ReplayOptions { lenient: false, max_moves: None }).0
}

/// Where the other legal readings of `tokens` from `start` end, besides the one a replay follows:
/// for a record replayed to its end token by token, whose claims are judged over every reading.
pub(crate) fn other_reading_ends<G: Reader>(start: &G, tokens: &[Token]) -> Vec<G> {
    if !start.readings_may_differ() {
        return Vec::new();
    }
    follow_readings(start, tokens, 0, ReplayOptions { lenient: false, max_moves: None }).1
}

/// The reading a replay follows among `alive`: the one that played the most moves (a `----`
/// after the end of the game plays nothing, so the game lasted longest in it), the first of
/// those in the order `read` prefers. Which stone a start lists first changes that order, not
/// which readings there are, and so not the moves played, what is legal, or the claims' verdicts.
fn furthest<G: Game>(alive: &[Alive<G>]) -> usize {
    let most = alive.iter().map(|a| a.moves).max().unwrap_or(0);
    alive.iter().position(|a| a.moves == most).unwrap_or(0)
}

/// The first [`LEGAL_LISTED`] distinct legal moves as written, and
/// how many distinct ones there are: each move once ([`Game::distinct_moves`]), and two moves
/// written alike once (the published notation's `----`, which names none of the stuck stones).
fn written_legal_moves<G: Notation>(position: &G) -> (Vec<String>, u32) {
    let moves = position.distinct_moves();
    if G::WRITES_APART {
        let listed = moves.iter().take(LEGAL_LISTED).map(|&m| position.write_move(m)).collect();
        return (listed, moves.len() as u32);
    }
    let mut seen = rustc_hash::FxHashSet::default();
    let mut listed = Vec::new();
    for m in moves {
        let w = position.write_move(m);
        if listed.len() < LEGAL_LISTED {
            if !seen.contains(&w) {
                listed.push(w.clone());
                seen.insert(w);
            }
        } else {
            seen.insert(w);
        }
    }
    (listed, seen.len() as u32)
}

fn token_is_claim(t: &Token) -> bool {
    t.kind.is_claim()
}

impl Violation {
    /// The problem of this violation, which takes its board: the replay's claims do not need it.
    pub(crate) fn take_problem(&mut self) -> crate::verdict::Problem {
        crate::verdict::Problem {
            kind: crate::verdict::ProblemKind::Illegal,
            span: self.span.clone(),
            token: self.token.clone(),
            message: self.message.clone(),
            rule: Some(self.rule),
            legal: self.legal.clone(),
            legal_count: self.legal_count,
            board: self.board.take(),
            variation: None,
        }
    }
}
