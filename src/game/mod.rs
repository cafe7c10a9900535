//! The vocabulary every game implements, split by job: the engine ([`Game`]), what a game is
//! ([`About`]), the two colours ([`Colour`]), how its moves are written ([`Notation`]), the rule a refused move breaks
//! ([`Rule`]), how a position looks ([`view`]), the key a search stores it under ([`key`]), and
//! what the common record format needs of a game ([`Playable`]).

use std::fmt;

pub mod about;
pub mod code;
pub mod colour;
pub mod key;
pub mod notation;
pub mod random;
pub mod rule;
pub mod setup;
pub mod stones;
pub mod view;

pub use about::{About, Format, Sizes};
pub use colour::{ByColour, Colour};
pub use key::{board_hash, PlainData, SearchKey};
pub use notation::Notation;
pub use rule::{BreaksRule, Rule};
pub use setup::SetupError;
pub use stones::Stones;
pub use view::{BoardView, Figure, Heading, Mark, Region, Shape, Sign};

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The winner's index in [`BoardView::player_names`]; `None` if nobody wins.
    pub winner: Option<usize>,
    /// Each player's score, in player order.
    pub points: Vec<f64>,
    /// How the winner was decided, in the game's words (for instance a tie-break).
    pub detail: String,
}

impl Outcome {
    /// The outcome of a game that scores only its result: a point for `winner` (an index into
    /// [`BoardView::player_names`]) and none for the others of the `players`, or half a point
    /// each when nobody wins.
    pub fn by_result(winner: Option<usize>, players: usize, detail: String) -> Outcome {
        let points = match winner {
            Some(w) => (0..players).map(|p| if p == w { 1.0 } else { 0.0 }).collect(),
            None => vec![0.5; players],
        };
        Outcome { winner, points, detail }
    }
}

/// A game that is played on its own from a start to an outcome: it makes its start from a board
/// size and a player count or from a setup diagram, says whose turn it is and how the game ended.
/// That is all the common record format (grammar.md: tag pairs, numbered movetext read by the
/// game's [`Notation`], a result token, optional diagrams) needs of a game beyond its engine, so
/// every game that implements it is read and written in that format.
///
/// A result claimed before the end is searched ([`SearchKey`]), and records are
/// verified on several threads, their searches waiting for their turn (hence `Send`).
pub trait Playable: Notation + crate::game::code::Coded + SearchKey + Send + 'static {
    /// What the game is: its `title` is its name in the `[Game "..."]` tag.
    const ABOUT: About;
    /// Named positions of the game with their perft counts, as a perft file writes them (the game
    /// folder's `<name>.perft`, included; none by default): its rules' edge cases, named after
    /// their anchors in its rules document, and positions counted independently. The first entries
    /// of the game's conformance suite (`referee suite`). Read only there, so that a build that
    /// makes no suite (the web page) carries none of it.
    const POSITIONS: &'static str = "";
    /// Whose turn it is: an index into [`BoardView::player_names`].
    fn to_move(&self) -> usize;
    /// The empty start position for a board of `size` (the game's default if `None`), for
    /// `players` players where the game allows several.
    fn start(size: Option<u8>, players: Option<u8>) -> Result<Self, SetupError>;
    /// A start position drawn in a setup diagram: `cells` holds one glyph per cell of the board of
    /// `self` (an empty start), in reading order.
    fn with_setup(&self, cells: &[&str]) -> Result<Self, SetupError>;
    /// How the game ended; `None` while it is not over.
    fn outcome(&self) -> Option<Outcome>;
    /// Why this start is no game at all (a board too small for the game's default start), if it
    /// is not: a record that starts here without a setup diagram cannot be judged.
    fn no_game(&self) -> Option<String> {
        None
    }
    /// Each player's points where the game stands, in player order, as [`Outcome::points`]
    /// counts them at the end. By default the outcome's points once the game is over, and none
    /// before: for a game that scores only its result (a win, a draw).
    fn points(&self) -> Vec<f64> {
        self.outcome().map_or_else(|| vec![0.0; self.player_names().len()], |o| o.points)
    }
    /// Why `player` (an index into [`BoardView::player_names`]) wins no continuation of this
    /// position, when the rules say so without playing any (a Splinter Quad player who is out):
    /// a claim of their win is then refuted without a search. `None` when only a search can tell.
    fn cannot_win(&self, player: usize) -> Option<String> {
        let _ = player;
        None
    }
}

/// A rule engine: a position that knows its legal moves and how to play them.
///
/// Legality is layered over an unchecked primitive, as in shakmaty: [`Game::play`] calls
/// [`Game::check`] and then [`Game::play_unchecked`]; lenient replay plays a refused move through
/// [`Game::play_refused`], which is that primitive unless the reason for the refusal matters.
pub trait Game: Clone + BoardView {
    /// A move, resolved against a position: small and `Copy`, as the engine plays it.
    type Move: Copy + Eq + fmt::Debug;
    /// Why a move is illegal, in the game's own words, naming the rule it breaks.
    type Illegal: fmt::Display + fmt::Debug + Clone + BreaksRule;
    /// The score where the game stands, for reports.
    type Score: fmt::Display + fmt::Debug + Clone;

    /// Which game this is (for Quadraphages and Hexaphages, one engine, by the board's shape).
    fn about(&self) -> &'static About;
    /// Every legal move in this position (empty once the game is over).
    fn legal_moves(&self) -> Vec<Self::Move>;
    /// Every legal move once, where [`Game::legal_moves`] gives some moves under several names (a
    /// Splinter Quad choice of group named by any square of the group): each named the one way the
    /// notation writes it canonically. Moves the notation writes differently stay apart even when
    /// they leave the same position (a Quarod board swap written from either square). What reports
    /// list and count as the legal moves of a position, and what perft counts.
    fn distinct_moves(&self) -> Vec<Self::Move> {
        self.legal_moves()
    }
    /// Whether `m` is legal here: `Err` says why not, in the game's own words.
    fn check(&self, m: Self::Move) -> Result<(), Self::Illegal>;
    /// Plays `m` without checking it: the caller has checked it with [`Game::check`] (or took it
    /// from [`Game::legal_moves`]). What an illegal move does to the position is not specified.
    fn play_unchecked(&mut self, m: Self::Move);
    /// Plays a move that [`Game::check`] refused with `why`, as lenient replay does: as written,
    /// where it can be. An engine overrides it where the reason matters to the end of the game: a
    /// stay or a pass written when a move was possible stands for that move, so it must not count
    /// toward the stays or passes in a row that end the game. Doing that here, rather than in
    /// [`Game::play_unchecked`], keeps the legal moves from paying for asking again.
    fn play_refused(&mut self, m: Self::Move, why: &Self::Illegal) {
        let _ = why;
        self.play_unchecked(m);
    }
    /// Checks `m` and plays it: [`Game::check`], then [`Game::play_unchecked`].
    fn play(&mut self, m: Self::Move) -> Result<(), Self::Illegal> {
        self.play_checked(m, |_| {})
    }
    /// Checks `m` and, if it is legal, shows this position to `before` and then plays `m`: by
    /// default [`Game::check`], `before`, [`Game::play_unchecked`]. When `m` is refused, `before`
    /// is not called and the position is left as it was. Replay calls it to tell its observers of
    /// a move before it is played. An engine overrides it where deciding that a move is legal does
    /// the work of playing it (a Splinter Quad move is settled to see its ties), so that a legal
    /// move pays for that work once rather than twice.
    fn play_checked(&mut self, m: Self::Move, before: impl FnOnce(&Self)) -> Result<(), Self::Illegal> {
        self.check(m)?;
        before(self);
        self.play_unchecked(m);
        Ok(())
    }
    /// Whether the game is over, by the game's own ending (no moves left, two passes in a row, ...).
    fn is_over(&self) -> bool;
    /// The score where the game stands (marks, groups, pieces), as reports print it.
    fn score(&self) -> Self::Score;
    /// How a picture of this position shows the move `m` (legal here or not, as long as its
    /// cells are on the board).
    fn signs(&self, m: Self::Move) -> Vec<Sign>;
}

/// Everything referee asks of any game's engine, whatever its record format: play, notation,
/// position codes, search keys; and `Send`, since records are judged on several threads.
pub trait Engine: Notation + crate::game::code::Coded + SearchKey + Send + 'static {}

impl<G: Notation + crate::game::code::Coded + SearchKey + Send + 'static> Engine for G {}
