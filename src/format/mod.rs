//! A record in its notation, as judging needs it. Referee reads two notations: the common record
//! format (grammar.md) of the games that implement [`Playable`](crate::game::Playable),
//! in [`judge`](crate::judge), and the published notation of Quadraphages and Hexaphages, in
//! [`published`]. They differ in how a record gives its game and its start, what it is
//! checked for before its moves are replayed, and how its claims and final diagram are read; the
//! rest (replay, alternatives, repair, diagrams) is one path for both, written over
//! [`OpenRecord`].

pub mod common;
pub(crate) mod movetext;
pub mod published;

pub use movetext::Round;

use crate::document::{ConvertError, GameDocument};
use crate::game::About;
use crate::record::{Found, Span, Token};
use crate::replay::{Repairable, Replay};
use crate::search::SearchBudget;
use crate::verdict::{ClaimCheck, ClaimKind, ClaimStatus, Problem, ProblemKind, Status, Verdict};

/// One record in its notation, its game known: what differs between notations in judging it.
/// `'r` is how long the record is borrowed: claims left to judge later may hold it.
pub trait OpenRecord<'r> {
    /// The engine of the record's game.
    type Game: Repairable;
    /// The judge of the record's claims on repaired replays.
    type Judge: Judge<Self::Game>;

    /// The verdict before the record is replayed: its game as far as the record tells it, and
    /// what stops it before its start is read (its syntax errors, a record with nothing to
    /// verify).
    fn verdict(&self) -> Verdict;
    /// The record's move tokens, in order.
    fn tokens(&self) -> &[Token<'_>];
    /// The record's variations (see [`crate::record::notes`]): none by default.
    fn variations(&self) -> &[crate::record::notes::Variation<'_>] {
        &[]
    }
    /// The record's start position; `Err` is the record's first syntax error, or why its start
    /// cannot be had.
    fn start(&self) -> Result<Self::Game, Problem>;
    /// What the record says of its start, or does wrong, before any move is replayed from `start`:
    /// notes and problems, into `v`. A problem stops the record before replay.
    fn check(&self, start: &Self::Game, v: &mut Verdict);
    /// The record's move tokens read on their own, for the syntax errors that stop a record before
    /// replay, into `v`. Asked only after a replay that met a fault or stopped: a replay that took
    /// every token as a move read each one as this does and found none, so a valid record is not
    /// read twice. A problem found here stands for the replay's. None by default.
    fn check_moves(&self, v: &mut Verdict) {
        let _ = v;
    }
    /// Judges the record's claims against its replay into `v`, and gives `v` its score; claims
    /// that draw on a search budget (a file's, or a run's) come back, to judge in input order.
    fn judge(&self, replay: Replay<Self::Game>, v: &mut Verdict) -> Option<PendingClaims<'r>>;
    /// The judge of the record's claims on repaired replays, whose searches spend `budget`.
    fn judge_repairs(&self, budget: SearchBudget) -> Self::Judge;
    /// The record replayed from `start` into a game document; `Err` when it does not replay to its
    /// end.
    fn document(&self, start: Self::Game) -> Result<GameDocument, ConvertError>;
    /// The record's text with `written`, a legal move of `position`, played there, in the record's
    /// own layout and numbering: `replaced` is the token of the record's own move at that point
    /// (the move is then written as a variation after it and what is said of it), or `None` at the
    /// record's end (the move is written after its last one, before its claim). Returns the new
    /// text and where the move's token is in it.
    fn play_into(&self, position: &Self::Game, replaced: Option<usize>, written: &str) -> (String, Span);
    /// The record's text with the comment `comment` said of its move of token `k` (see
    /// [`crate::write::insert_comment`]); `Err` for a comment its notation cannot hold.
    fn comment_into(&self, k: usize, comment: &str) -> Result<(String, Span), String>;
}

/// A game's record format, which its engine carries: how a record of the game found in a text is
/// judged ([`Recorded::open`]), how a game document is written back as a record, and the record
/// of a random game. The games of the common format have it from the format ([`common`]); the
/// games of the published notation from theirs ([`published`]).
pub trait Recorded: crate::game::Engine + Repairable {
    /// Runs `work` on the record `found` of `src` in this game's record format, as a record of
    /// `about` (one of the games this engine plays); `forced` is the game `--game` names, if any.
    /// `Err` says why the record cannot be read in this format (it is in the other notation).
    fn open<'r, W: WithOpenRecord<'r>>(
        src: &str,
        found: &'r Found,
        about: &'static About,
        forced: Option<&'static About>,
        work: W,
    ) -> Result<W::Output, Problem>;
    /// Runs `work` with this engine as a game of the common format; `None` for a game of another
    /// notation.
    fn with_playable<W: WithPlayable>(work: W) -> Option<W::Output> {
        let _ = work;
        None
    }
    /// The record of the game `doc` holds (a game of `about`), in its format's canonical layout
    /// (see [`crate::convert::canonical_of`]); `Err` when the document holds no game that replays.
    fn write_document(about: &'static About, doc: &GameDocument) -> Result<String, ConvertError>;
    /// The record of the random game of `seed` of `about`, on a board of `size` (the game's default
    /// if `None`) for `players` players; `Err` says why the game has no such start. The record
    /// says its seed.
    fn random_record(about: &'static About, size: Option<u8>, players: Option<u8>, seed: u64)
        -> Result<String, String>;
    /// A record of `about` with no move yet, on a board of `size` (the game's default if `None`)
    /// for `players` players, ready to be played: its head (tags, or the published title and
    /// columns) and no claim. `Err` says why the game has no such start.
    fn new_record(about: &'static About, size: Option<u8>, players: Option<u8>) -> Result<String, String>;
    /// The board a start diagram of `about` draws, on a board of `size` for `players`, for a board
    /// editor: its cells and what each may show. `Err` says why the game has no such start.
    fn setup_board(about: &'static About, size: Option<u8>, players: Option<u8>) -> Result<SetupBoard, String>;
    /// A record of `about` with no move yet that starts from the position whose cells show
    /// `cells` (one glyph per cell, in reading order, as [`Recorded::setup_board`] writes them),
    /// on a board of `size` for `players`: its start written as the record's start diagram, or as
    /// a position code where a diagram cannot say it. `Err` says why the game cannot have that
    /// position.
    fn setup_record(
        about: &'static About,
        size: Option<u8>,
        players: Option<u8>,
        cells: &[&str],
    ) -> Result<String, String>;
    /// A record of `about` with no move yet that starts from the position `code` gives (any
    /// position of the game: the side to move, marks, a turn under way), written as the record's
    /// start diagram where one says it all, else as its position code; and what each cell of that
    /// position shows, in reading order. `Err` says why the code gives no position of the game.
    fn code_record(about: &'static About, code: &str) -> Result<(String, Vec<String>), String>;
    /// How a game at `position` ended: `Some(winner)` once it is over (the winner's index into its
    /// player names, `None` when nobody won), `None` while it goes on.
    fn ended(position: &Self) -> Option<Option<usize>>;
    /// The named positions of `about` (one of the games this engine plays), as a perft file
    /// writes them: see [`crate::game::Playable::POSITIONS`].
    fn positions(about: &'static About) -> &'static str;
    /// Each player's points where the game stands, in player order: what decides the game at its
    /// end (marks, territory, pieces; for a game that scores only its result, none before the
    /// end). A player's search weighs positions by them.
    fn points(position: &Self) -> Vec<f64>;
}

/// A board to set a start position up on ([`Recorded::setup_board`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupBoard {
    /// The cells, by their labels (`c3`), in reading order: a start diagram's order.
    pub cells: Vec<String>,
    /// What each cell shows in the game's start (or an empty board), in the same order.
    pub start: Vec<String>,
    /// What a cell may show, as diagrams write it, the empty cell's glyph first.
    pub glyphs: Vec<String>,
}

/// Work to do with any game's engine and record format, written once for all of them: the
/// registry's one dispatch (`GameKind::with_game`) calls `run` with the engine of the game at hand
/// and what the game is.
pub trait WithGame {
    /// What `run` gives back.
    type Output;
    /// The work, with `G` the engine of the game `about`.
    fn run<G: Recorded>(self, about: &'static About) -> Self::Output;
}

/// Work to do with the engine of a game of the common format: [`Recorded::with_playable`] calls
/// `run` with it.
pub trait WithPlayable {
    /// What `run` gives back.
    type Output;
    /// The work, with `G` the engine of the game at hand.
    fn run<G: crate::game::Playable>(self) -> Self::Output;
}

/// A [`WithPlayable`] as a [`WithGame`]: runs it with the game at hand if it is of the common
/// format (`None` if not).
pub struct AsPlayable<W>(pub W);

impl<W: WithPlayable> WithGame for AsPlayable<W> {
    type Output = Option<W::Output>;

    fn run<G: Recorded>(self, _: &'static About) -> Option<W::Output> {
        G::with_playable(self.0)
    }
}

/// Work on one record in its format, whatever the format and the game, written once for all: the
/// judge finds the record's format and game and calls `run` with them.
pub trait WithOpenRecord<'r> {
    /// What `run` gives back.
    type Output;
    /// The work.
    fn run<F: OpenRecord<'r>>(self, record: F) -> Self::Output;
}

/// A record's claims and final diagram, judged on a replay of (edited) tokens.
pub trait Judge<G> {
    /// The checks of the record's claims (result, resignation) against `replay` of `tokens`.
    fn claims(&mut self, tokens: &[Token], replay: &Replay<G>) -> Vec<ClaimCheck>;
    /// How many cells of the record's final diagram differ from `position`; `None` without one.
    fn cells_differing(&self, position: &G) -> Option<usize>;
}

/// A record's verdict as far as it can be taken on its own: all of it, or all but its claims that
/// draw on the search budget its file (or run) shares, and so are judged in input order.
pub enum Prepared<'r> {
    /// The verdict is whole.
    Done(Verdict),
    /// The verdict without the claims still to judge.
    Pending {
        /// The verdict so far.
        verdict: Verdict,
        /// The claims still to judge, and how.
        pending: PendingClaims<'r>,
    },
}

impl Prepared<'_> {
    /// The verdict, its claims judged with the `budget` its file (or run) shares.
    pub fn finish(self, budget: &mut SearchBudget) -> Verdict {
        match self {
            Prepared::Done(v) => v,
            Prepared::Pending { mut verdict, pending } => {
                pending.0.judge(&mut verdict, budget);
                verdict
            }
        }
    }

    /// The verdict so far, without judging what is pending.
    pub fn verdict(self) -> Verdict {
        match self {
            Prepared::Done(v) | Prepared::Pending { verdict: v, .. } => v,
        }
    }
}

/// A record's claims that wait for a search, with what judging them needs (the position where
/// the record stops, or its whole replay), in the record's notation's way.
pub struct PendingClaims<'r>(Box<dyn JudgeLater + 'r>);

impl<'r> PendingClaims<'r> {
    /// Claims that `later` judges.
    pub fn new(later: impl JudgeLater + 'r) -> Self {
        PendingClaims(Box::new(later))
    }

    /// Judges the claims with `budget` into `v`.
    pub fn judge(self, v: &mut Verdict, budget: &mut SearchBudget) {
        self.0.judge(v, budget)
    }
}

/// Claims to judge once the budget they share can be spent on them.
pub trait JudgeLater: Send {
    /// Judges the claims with `budget`, and settles what follows from them in `v`.
    fn judge(self: Box<Self>, v: &mut Verdict, budget: &mut SearchBudget);
}

/// The record's markup against its board: a cell the board lacks is a syntax error at the markup;
/// a command referee does not draw is noted, once a command.
pub(crate) fn check_markup(
    src: &str,
    notes: &crate::record::notes::Notes,
    board: crate::geometry::Geometry,
    v: &mut Verdict,
) {
    let mut undrawn: Vec<&str> = Vec::new();
    for m in &notes.markup {
        if let Some(cell) = m.drawing.cells().into_iter().find(|&c| board.parse_label(c).is_none()) {
            let message = format!("this markup names {cell}, which is not on {}", board_words(board));
            v.problems.push(problem(ProblemKind::Syntax, m.span.clone(), &src[m.span.clone()], message));
        }
        if let crate::record::notes::Drawing::Other { command } = m.drawing {
            if !undrawn.contains(&command) && undrawn.len() < 10 {
                undrawn.push(command);
                v.notes.push(format!(
                    "the markup `[%{command} ...]` is kept as written but not drawn: referee draws [%arrow], [%mark] \
                     and [%label]"
                ));
            }
        }
    }
}

/// A board in words: `the 8x8 board`, `the hexagonal board of side 6`.
fn board_words(board: crate::geometry::Geometry) -> String {
    match board {
        crate::geometry::Geometry::Square { size } => format!("the {size}x{size} board"),
        crate::geometry::Geometry::Hex { side } => format!("the hexagonal board of side {side}"),
    }
}

/// A problem of kind `kind` at `span`, whose text is `token`.
pub(crate) fn problem(kind: ProblemKind, span: Span, token: &str, message: String) -> Problem {
    Problem::new(kind, span, token, message)
}

/// Why a record's start cannot be had, as a problem of the record at `span`, whose text is
/// `token`: every game's [`SetupError`](crate::game::SetupError) reaches the verdict here.
pub(crate) fn setup_problem(e: crate::game::SetupError, span: Span, token: &str) -> Problem {
    problem(ProblemKind::Syntax, span, token, e.to_string())
}

/// A syntax error of the reader as a problem of the record, at the text it names.
pub(crate) fn syntax_problem(src: &str, e: &crate::record::SyntaxError) -> Problem {
    problem(ProblemKind::Syntax, e.span.clone(), &src[e.span.clone()], e.message.clone())
}

/// A record's status: its worst problem.
pub(crate) fn status_of(problems: &[Problem]) -> Status {
    let has = |kind| problems.iter().any(|p| p.kind == kind);
    if has(ProblemKind::Syntax) {
        Status::SyntaxError
    } else if has(ProblemKind::Undecided) {
        Status::Undecided
    } else if has(ProblemKind::Illegal) {
        Status::Illegal
    } else if problems.is_empty() {
        Status::Valid
    } else {
        Status::Refuted
    }
}

/// A refuted claim is a problem of the record: it states something false.
pub(crate) fn refuted_claims(claims: &[ClaimCheck]) -> Vec<Problem> {
    claims
        .iter()
        .filter(|c| c.status == ClaimStatus::Refuted)
        .map(|c| {
            let what = match c.kind {
                ClaimKind::Result => "the claimed result does not hold",
                ClaimKind::FinalPosition => "the final-position diagram does not match the replay",
            };
            problem(ProblemKind::Claim, c.span.clone(), &c.text, format!("{what}: {}", c.detail))
        })
        .collect()
}
