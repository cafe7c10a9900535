//! The Splinter Quad engine (docs/rules/splinter.md: the rule text, and RULINGS Splinter Quad
//! 1-5 that override it).
//!
//! A move slides one of the mover's pieces one square in any of the 8 directions; the unbroken
//! line of pieces in front of it (anybody's) moves one square along with it, and a piece pushed off
//! the board is eliminated. Then the move settles, in rounds:
//!
//! 1. The pieces form groups, joined through sides and corners. If there are several, only the
//!    largest stays; among equal largest groups the mover says which stays (the record writes it
//!    after a `/`). The other groups' pieces are eliminated: they splinter off.
//! 2. Every player still in takes a knockout for each type of piece they have run out of. A player
//!    with two knockouts or more is out, and their pieces leave the board. If anybody went out and
//!    two players or more are still in, the groups are checked again: back to 1.
//!
//! The game ends when one player is left (the last player standing wins), or when a single move
//! puts out every player still in (fewest knockouts wins, then most pieces, else a tie).
//!
//! Decisions where the texts leave a point open:
//! - **No step off the board.** "Slide any one of your pieces one square in any direction" names a
//!   square to move to; "including off the board" is said of the pieces that "lie in the way" and
//!   "get pushed along". So the moved piece must land on the board (a move is written with its
//!   to-square, which must be a square of the board), while pushed pieces may leave it.
//! - **No return** applies to every piece that moves (the moved one and each one pushed) and to the
//!   square it left on the previous move of the game, whoever made it. It is checked where the
//!   slide leaves the pieces, before the groups are looked at: a piece that would return and then
//!   splinter off still makes the move illegal. Identity is tracked through the previous move: the
//!   position remembers, for each piece the previous move moved, the square it stands on and the
//!   square it left. Pieces leave the board but never move between two moves, so the square a
//!   piece stands on names it.
//! - **Which knockouts count.** A knockout is taken for a type the player had at the start and has
//!   no piece of left: "runs out of" a type needs having had it. A record's own start may give a
//!   player fewer types than four; the missing ones are no knockouts. A player whose last piece
//!   leaves the board is out even with fewer than two knockouts (only possible in such a start:
//!   a full army without a piece has four knockouts).
//! - **Knockouts stop counting when a player is out**: their pieces leaving the board adds none.
//!   The knockouts and pieces a player had when they went out are kept for the tie-break.
//! - **Ties after an elimination.** When the pieces of a player who is out leave the board, the
//!   groups are checked again, and equal largest groups are again the mover's choice, even if the
//!   mover has just gone out: it is still their move. The record gives one `/square` per tie, in
//!   the order they come (at most [`MAX_CHOICES`]: every round after the first follows somebody
//!   going out with two players or more left, and four players give at most two such rounds).
//!   Once one player or none is left the game is over and nothing more is checked.
//! - **One move, everybody out.** "A single move" puts out several players together even when one
//!   goes out first and the pieces leaving with them put out the others: the tie-break (fewest
//!   knockouts, then most pieces) compares every player the move put out, with the knockouts and
//!   pieces each had when they went out.
//! - **The turn** goes to the next player in turn order who is still in, whether or not the mover
//!   went out on their own move.
//! - **No passing.** A piece has at least three squares around it on any board of 2x2 or more, and
//!   the no-return rule forbids one direction at most (the reverse of the previous move's: only a
//!   step against it brings a piece back to where it was). Every player still in has a piece, so
//!   every player to move has at least two moves, and there is no `pass`.
//! - **The quiet-move rule.** Pieces can be shuffled to and fro forever (the no-return rule only
//!   looks one move back). So the game also ends after [`QUIET_MOVES`] moves in a row in which no
//!   piece leaves the board; the players still in are then ranked as in a simultaneous
//!   elimination: fewest knockouts, then most pieces, else a tie.
//! - **Points** are the pieces each player has on the board at the end; in a simultaneous
//!   elimination, the players the last move put out score the pieces they had when they went out
//!   (what the tie-break compares).
//! - **Setups.** A record's start diagram may hold any pieces, at most 1 king, 2 rooks, 2 bishops
//!   and 4 pawns a player and at least one piece for every player; Red moves first. Its pieces may
//!   form several groups: groups are checked after a move, so the first move settles them. On a
//!   board too small for the default start (see [`super::start`]) a record must give a setup
//!   diagram; without one the position is over before it starts ([`Ending::NoStart`]).
//!
//! The game always ends: a move in which no piece leaves the board counts towards the quiet-move
//! rule, and each other move takes at least one piece off the board. So a game from a start with
//! `n` pieces lasts at most `(n + 1) * QUIET_MOVES` moves.
//!
//! Speed. Settling a move in full (a search for groups per round, on the board or on a copy of it)
//! is kept for the moves that need it: a split, a tie to decide, or somebody going out. Most moves
//! settle in one round with nothing to choose, and that is seen without settling them: `check` and
//! `play_unchecked` look at the squares around the step, the ring of eight and then the 5x5 square
//! (`settles_at_once`, `joined_nearby`), and `legal_moves`, which only needs to know whether a step
//! has a tie to decide, builds the pieces' graph once and finds the groups of the other pieces once
//! per piece, for all its steps (`settles_without_tie`). A move checked and played together
//! (`play_checked`, as replay plays a record's moves) is looked at or settled once, not once to
//! check it and again to play it. A settling reads its board once into rows
//! of bits, and finds groups a row at a time (`fill`). Boards are copied into buffers on the stack
//! sized to them, groups found in fixed-size ones; nothing is allocated per move but the list of
//! legal moves. The algorithm this replaced is kept in `reference` for the differential test, and
//! the group search is tested against a plain flood fill.

use std::cmp::Ordering;
use std::fmt;

use super::start::{block_size, default_block, default_size};
use crate::game::{BoardView, BreaksRule, Game, Outcome, Playable, SetupError, Sizes};
use crate::game::{Figure, Shape, Sign};
use crate::geometry::{Cell, CellLabel, Direction, Geometry, MAX_SQUARE};

mod reference;

/// The smallest board: every square has at least three neighbours.
pub const MIN_SIZE: u8 = 2;
/// The largest board.
pub const MAX_SIZE: u8 = MAX_SQUARE;
/// Moves in a row without a piece leaving the board that end the game.
pub const QUIET_MOVES: u16 = 100;
/// The most ties between largest groups one move can meet (see the module documentation).
pub const MAX_CHOICES: usize = 3;
/// The glyph of an empty square.
pub const EMPTY_GLYPH: &str = "..";

/// The players, in turn order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Player {
    /// Red: moves first.
    Red,
    /// Blue: second.
    Blue,
    /// Green: third (three or four players).
    Green,
    /// Yellow: fourth (four players).
    Yellow,
}

impl Player {
    /// Every player, in turn order; a game of `n` players has the first `n`.
    pub const ALL: [Player; 4] = [Player::Red, Player::Blue, Player::Green, Player::Yellow];
    /// The names, in turn order, as the record tags name them.
    pub const NAMES: [&'static str; 4] = ["Red", "Blue", "Green", "Yellow"];

    /// The index into [`BoardView::player_names`]: Red 0, Blue 1, Green 2, Yellow 3.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The number the glyphs write: Red 1, Blue 2, Green 3, Yellow 4.
    pub fn number(self) -> u8 {
        self as u8 + 1
    }

    /// `Red`, `Blue`, `Green` or `Yellow`, as records and messages name the player.
    pub fn name(self) -> &'static str {
        Self::NAMES[self.index()]
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The four types of piece. They all move alike; only knockouts tell them apart.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Kind {
    /// The king (1 a player).
    King,
    /// A rook (2 a player).
    Rook,
    /// A bishop (2 a player).
    Bishop,
    /// A pawn (4 a player).
    Pawn,
}

impl Kind {
    /// Every type, in the order of the glyph letters `K`, `R`, `B`, `P`.
    pub const ALL: [Kind; 4] = [Kind::King, Kind::Rook, Kind::Bishop, Kind::Pawn];

    /// The type's index: king 0, rook 1, bishop 2, pawn 3.
    pub fn index(self) -> usize {
        self as usize
    }

    /// How many of this type a player starts with: 1 king, 2 rooks, 2 bishops, 4 pawns.
    pub fn full_army(self) -> u8 {
        [1, 2, 2, 4][self.index()]
    }

    /// The second character of a glyph.
    pub fn letter(self) -> char {
        ['K', 'R', 'B', 'P'][self.index()]
    }

    /// `king`, `rook`, `bishop` or `pawn`, as messages name the type.
    pub fn name(self) -> &'static str {
        ["king", "rook", "bishop", "pawn"][self.index()]
    }

    /// The type a glyph's second character names (`K`, `R`, `B`, `P`).
    pub fn from_letter(c: char) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.letter() == c)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Whose piece.
    pub player: Player,
    /// Its type.
    pub kind: Kind,
}

const GLYPHS: [[&str; 4]; 4] =
    [["1K", "1R", "1B", "1P"], ["2K", "2R", "2B", "2P"], ["3K", "3R", "3B", "3P"], ["4K", "4R", "4B", "4P"]];

impl Piece {
    /// How a picture draws it: its type's shape, in its player's colour.
    pub fn figure(self) -> Figure {
        let (shape, name) = match self.kind {
            Kind::King => (Shape::Polygon(KING_OUTLINE), "piece king"),
            Kind::Rook => (Shape::Polygon(ROOK_OUTLINE), "piece rook"),
            Kind::Bishop => (Shape::Polygon(BISHOP_OUTLINE), "piece bishop"),
            Kind::Pawn => (Shape::Circle(24), "piece pawn"),
        };
        Figure { owner: Some(self.player.index() as u8), shape, name }
    }

    /// The player's number, then the type: `1K`, `3P`.
    pub fn glyph(self) -> &'static str {
        GLYPHS[self.player.index()][self.kind.index()]
    }

    /// Reads a glyph written by [`Piece::glyph`].
    pub fn from_glyph(s: &str) -> Option<Piece> {
        let mut chars = s.chars();
        let player = match chars.next()? {
            c @ '1'..='4' => Player::ALL[(c as u8 - b'1') as usize],
            _ => return None,
        };
        let kind = Kind::from_letter(chars.next()?)?;
        chars.next().is_none().then_some(Piece { player, kind })
    }
}

impl fmt::Display for Piece {
    /// `Blue rook`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.player, self.kind)
    }
}

/// One move: the piece on `from` steps to the neighbouring `to`, pushing the line in front of it.
/// `keep` names, for each tie between equal largest groups the move meets, in order, a square of
/// the group that stays; the unused slots are `None`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct SplinterMove {
    /// The square of the mover's piece.
    pub from: Cell,
    /// The neighbouring square it steps to.
    pub to: Cell,
    /// For each tie between equal largest groups, in order, a square of the group that stays.
    pub keep: [Option<Cell>; MAX_CHOICES],
}

impl SplinterMove {
    /// A step with no choice of group.
    pub fn step(from: Cell, to: Cell) -> SplinterMove {
        SplinterMove { from, to, keep: [None; MAX_CHOICES] }
    }

    /// This move with `cells` as its choices of groups.
    pub fn keeping(from: Cell, to: Cell, cells: &[Cell]) -> SplinterMove {
        let mut m = SplinterMove::step(from, to);
        for (slot, &c) in m.keep.iter_mut().zip(cells) {
            *slot = Some(c);
        }
        m
    }

    /// The choices of groups, in order.
    pub fn choices(&self) -> impl Iterator<Item = Cell> + '_ {
        self.keep.iter().map_while(|c| *c)
    }
}

/// Where a player stands in the game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Standing {
    /// Still in the game.
    In,
    /// Out of the game, with the knockouts and pieces they had when they went out.
    Out {
        /// Knockouts taken.
        knockouts: u8,
        /// Pieces on the board.
        pieces: u8,
    },
}

/// How a game ended.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Ending {
    /// One player is left.
    LastStanding(Player),
    /// One move put out every player still in: these, in turn order.
    AllOut(Vec<Player>),
    /// [`QUIET_MOVES`] moves in a row went by without a piece leaving the board.
    Quiet,
    /// The board is too small for the default start and no setup diagram was given.
    NoStart {
        /// The board's size.
        size: u8,
        /// The number of players.
        players: u8,
    },
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::LastStanding(p) => write!(f, "{p} is the last player standing"),
            Ending::AllOut(players) => write!(f, "{} went out on the same move", and_list(players)),
            Ending::Quiet => write!(f, "{QUIET_MOVES} moves in a row went by without a piece leaving the board"),
            Ending::NoStart { size, players } => {
                let block = default_block(*players).map(block_size).unwrap_or((0, 0));
                write!(
                    f,
                    "there is no game: the {size}x{size} board is too small for the default start of {players} \
                     players (a {}x{} block), and no setup diagram was given",
                    block.0, block.1
                )
            }
        }
    }
}

/// Why a move is illegal, in the game's words. Squares are labels, so a message stands alone.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Illegal {
    /// The game is over, and how it ended.
    GameOver(Ending),
    /// A square is not on the board.
    OffBoard {
        /// The square.
        cell: CellLabel,
        /// The board's size.
        size: u8,
    },
    /// No piece of the mover's on that square.
    NoPiece {
        /// The player to move.
        player: Player,
        /// The square.
        cell: CellLabel,
    },
    /// A step of the mover's own piece to a neighbouring square off the board: only a pushed piece
    /// may leave it.
    StepsOff {
        /// Where the piece stands.
        from: CellLabel,
        /// The square off the board it was to step to.
        to: CellLabel,
        /// The board's size.
        size: u8,
    },
    /// The two squares are not neighbours (one step in any of the 8 directions).
    NotAStep {
        /// Where the piece starts.
        from: CellLabel,
        /// Where it was to go.
        to: CellLabel,
    },
    /// A piece, moved or pushed, would end on the square it left on the previous move.
    Returns {
        /// The piece.
        piece: Piece,
        /// Where it stands before the move.
        at: CellLabel,
        /// Where it would go: the square it left on the previous move.
        back_to: CellLabel,
    },
    /// The move (or, once the players in `after` have gone out, the pieces left) splits into
    /// `groups` largest groups of `size` pieces, and the move does not say which stays.
    ChoiceNeeded {
        /// The players who go out first, in order, before the tie.
        after: Vec<Player>,
        /// How many equal largest groups.
        groups: u8,
        /// Pieces in each.
        size: u16,
        /// The move written with a choice, as an example (`d4e5/f7`).
        like: String,
    },
    /// A `/square` names a square outside every one of the equal largest groups.
    NotInLargest {
        /// The square named.
        cell: CellLabel,
    },
    /// A `/square` with no tie left to decide: the move meets only `ties` ties.
    NoChoice {
        /// The square named.
        cell: CellLabel,
        /// How many ties the move meets.
        ties: u8,
    },
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Illegal::*;
        match self {
            GameOver(e @ Ending::NoStart { .. }) => write!(f, "{e}"),
            GameOver(e) => write!(f, "the game is over: {e}"),
            OffBoard { cell, size } => write!(f, "{cell} is not on the {size}x{size} board"),
            NoPiece { player, cell } => write!(f, "no {player} piece on {cell}"),
            StepsOff { from, to, size } => {
                write!(f, "{from} to {to} steps off the {size}x{size} board: only a pushed piece may leave it")
            }
            NotAStep { from, to } => write!(f, "{from} to {to} is not a one-square step"),
            Returns { piece, at, back_to } => {
                write!(f, "the {piece} on {at} would return to {back_to}, which it left on the previous turn")
            }
            ChoiceNeeded { after, groups, size, like } => {
                let n = number_word(*groups as usize);
                if after.is_empty() {
                    write!(f, "the move splits the pieces into {n} largest groups of {size}")?;
                } else {
                    let verb = if after.len() == 1 { "goes" } else { "go" };
                    write!(
                        f,
                        "once {} {verb} out, the pieces left split into {n} largest groups of {size}",
                        and_list(after)
                    )?;
                }
                write!(f, ": say which stays, like {like}")
            }
            NotInLargest { cell } => write!(f, "{cell} is not in one of the largest groups"),
            NoChoice { cell, ties: 0 } => write!(
                f,
                "the move leaves no equal largest groups to choose between, so there is nothing for /{cell} to choose"
            ),
            NoChoice { cell, ties } => write!(
                f,
                "the move meets only {} tie{} between largest groups, so there is nothing left for /{cell} to choose",
                number_word(*ties as usize),
                if *ties == 1 { "" } else { "s" }
            ),
        }
    }
}

impl std::error::Error for Illegal {}

/// Each reason names its section of docs/rules/splinter.md.
impl BreaksRule for Illegal {
    const RULES: &'static [&'static str] = &["start", "end", "board", "step", "no-return", "splinter"];

    fn rule(&self) -> &'static str {
        use Illegal::*;
        match self {
            // No game at all: the board is too small for the default start.
            GameOver(Ending::NoStart { .. }) => "start",
            GameOver(Ending::LastStanding(_) | Ending::AllOut(_) | Ending::Quiet) => "end",
            OffBoard { .. } => "board",
            // Stepping off is the step's rule (docs/rules/splinter.md#splinter-step), not the board's.
            NoPiece { .. } | StepsOff { .. } | NotAStep { .. } => "step",
            Returns { .. } => "no-return",
            ChoiceNeeded { .. } | NotInLargest { .. } | NoChoice { .. } => "splinter",
        }
    }
}

/// A setup the rules of Splinter Quad forbid: a start reports it as a [`SetupError::Rules`].
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum Forbidden {
    /// A setup piece of a player the game does not have.
    #[error("{cell}: `{glyph}` is a piece of player {number}, but the game has {players} players")]
    NoSuchPlayer {
        /// Where it is.
        cell: CellLabel,
        /// The glyph.
        glyph: String,
        /// The player's number in the glyph.
        number: u8,
        /// The number of players.
        players: u8,
    },
    /// More pieces of one type and player than a player starts with ([`Kind::full_army`]).
    #[error(
        "{cell}: a {} {piece}: each player has at most 1 king, 2 rooks, 2 bishops and 4 pawns",
        ordinal(*.nth)
    )]
    TooMany {
        /// Where the piece too many is.
        cell: CellLabel,
        /// The piece.
        piece: Piece,
        /// Which one of its type it is (the third rook: 3).
        nth: u8,
    },
    /// A player without any piece in the setup.
    #[error("the setup gives {0} no piece: every player needs at least one")]
    NoPiece(Player),
}

impl From<Forbidden> for SetupError {
    fn from(why: Forbidden) -> SetupError {
        SetupError::rules(why)
    }
}

/// The score: each player's pieces on the board and knockouts.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct SplinterScore {
    /// One entry a player, in turn order.
    pub players: Vec<PlayerScore>,
}

/// One player's part of the score.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PlayerScore {
    /// The player.
    pub player: Player,
    /// Pieces on the board (none once out).
    pub pieces: u8,
    /// Knockouts taken (as they stood when the player went out, if out).
    pub knockouts: u8,
    /// Whether the player is out of the game.
    pub out: bool,
}

impl fmt::Display for SplinterScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.players.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(
                f,
                "{} {}, {}",
                s.player,
                count(s.pieces as usize, "piece"),
                count(s.knockouts as usize, "knockout")
            )?;
            if s.out {
                f.write_str(", out")?;
            }
        }
        Ok(())
    }
}

/// What a move does besides moving pieces: what leaves the board, and who takes knockouts or
/// goes out. Squares are where the pieces stood when they left.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Effects {
    /// Pieces pushed off the board, with the square each was pushed from.
    pub pushed_off: Vec<(CellLabel, Piece)>,
    /// Pieces eliminated because their group was not the one that stayed.
    pub splintered: Vec<(CellLabel, Piece)>,
    /// Knockouts taken: a player and the type they ran out of.
    pub knockouts: Vec<(Player, Kind)>,
    /// Players put out, with their knockouts and pieces when they went out.
    pub out: Vec<(Player, u8, u8)>,
    /// The pieces of the players put out, which left the board with them.
    pub removed: Vec<(CellLabel, Piece)>,
}

impl Effects {
    /// How many pieces left the board.
    pub fn pieces_gone(&self) -> usize {
        self.pushed_off.len() + self.splintered.len() + self.removed.len()
    }
}

impl fmt::Display for Effects {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |v: &[(CellLabel, Piece)]| {
            v.iter().map(|(c, p)| format!("{} {c}", p.glyph())).collect::<Vec<_>>().join(", ")
        };
        let mut parts = Vec::new();
        if !self.pushed_off.is_empty() {
            parts.push(format!("pushed off: {}", list(&self.pushed_off)));
        }
        if !self.splintered.is_empty() {
            parts.push(format!("splintered off: {}", list(&self.splintered)));
        }
        if !self.knockouts.is_empty() {
            let k: Vec<String> = self.knockouts.iter().map(|(p, k)| format!("{p} runs out of {}s", k.name())).collect();
            parts.push(format!("knockouts: {}", k.join(", ")));
        }
        for (p, k, n) in &self.out {
            parts.push(format!(
                "{p} is out with {} and {}",
                count(*k as usize, "knockout"),
                count(*n as usize, "piece")
            ));
        }
        if !self.removed.is_empty() {
            parts.push(format!("leave with them: {}", list(&self.removed)));
        }
        if parts.is_empty() {
            f.write_str("nothing leaves the board")
        } else {
            f.write_str(&parts.join("; "))
        }
    }
}

/// The 8 directions a piece steps in, as columns and rows: N, NE, E, SE, S, SW, W, NW.
const KING: [Direction; 8] = crate::geometry::AROUND;

/// The direction of each step (an index into [`KING`]), at `(drow + 1) * 3 + dcol + 1`; `None`
/// for no step.
const DIRECTIONS: [Option<usize>; 9] = {
    let mut table = [None; 9];
    let mut i = 0;
    while i < KING.len() {
        table[((KING[i].drow + 1) * 3 + KING[i].dcol + 1) as usize] = Some(i);
        i += 1;
    }
    table
};

/// A Splinter Quad position.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Splinter {
    size: u8,
    players: u8,
    squares: Box<[Option<Piece>]>,
    /// How many pieces of each type each player had at the start.
    army: [[u8; 4]; 4],
    standing: [Standing; 4],
    to_move: Player,
    /// The pieces the previous move moved that are still on the board: the square each stands
    /// on, and the square it left.
    just_moved: Vec<(Cell, Cell)>,
    /// Moves in a row without a piece leaving the board.
    quiet: u16,
    /// Moves played.
    moves: u32,
    ending: Option<Ending>,
    /// How many pieces of each type each player has on the board, `[player][kind]`: kept with
    /// the board, since knockouts are counted after every move.
    counts: [[u8; 4]; 4],
    /// Whether the pieces form one group at most. Always so while the game goes on once a move has
    /// settled (only the largest group stays); a setup may start with several. Steps from one
    /// group can settle without looking for groups (see [`Splinter::settles_at_once`]).
    one_group: bool,
}

impl Splinter {
    /// The default start for `players` on a `size` board, or the empty board that waits for a setup
    /// diagram if the default block does not fit (see [`super::start`]).
    pub fn new(size: u8, players: u8) -> Result<Splinter, SetupError> {
        thread_local! {
            /// The start made last on this thread: the records of a file mostly start from one, and
            /// a copy costs a small part of reading the block's glyphs and finding its groups.
            static LAST: std::cell::RefCell<Option<Splinter>> = const { std::cell::RefCell::new(None) };
        }
        let same = |p: &&Splinter| p.size == size && p.players == players;
        if let Some(start) = LAST.with_borrow(|last| last.as_ref().filter(same).cloned()) {
            return Ok(start);
        }
        let start = Splinter::make(size, players)?;
        LAST.set(Some(start.clone()));
        Ok(start)
    }

    /// [`Splinter::new`], made from the block.
    fn make(size: u8, players: u8) -> Result<Splinter, SetupError> {
        let about = &super::ABOUT;
        let no_block = || SetupError::Players { title: about.title, allowed: about.players, players };
        let block = default_block(players).ok_or_else(no_block)?;
        super::ABOUT.check_size_in(Sizes::from(MIN_SIZE, MAX_SIZE), size, false)?;
        let mut pos = Splinter {
            size,
            players,
            squares: vec![None; size as usize * size as usize].into_boxed_slice(),
            army: [[0; 4]; 4],
            standing: [Standing::In; 4],
            to_move: Player::Red,
            just_moved: Vec::new(),
            quiet: 0,
            moves: 0,
            ending: None,
            counts: [[0; 4]; 4],
            one_group: true,
        };
        let (width, height) = block_size(block);
        if width > size || height > size {
            pos.ending = Some(Ending::NoStart { size, players });
            return Ok(pos);
        }
        // The block's pieces, straight onto the board: the blocks are valid setups (the test
        // `default_starts_are_their_own_setups` reads each back through `setup`).
        let (left, top) = ((size - width) as usize / 2, (size - height) as usize / 2);
        for (r, rank) in block.iter().enumerate() {
            for (c, glyph) in rank.split_whitespace().enumerate() {
                if let Some(piece) = Piece::from_glyph(glyph) {
                    pos.squares[(top + r) * size as usize + left + c] = Some(piece);
                    pos.army[piece.player.index()][piece.kind.index()] += 1;
                }
            }
        }
        pos.counts = pos.army;
        pos.one_group = Groups::find(pos.grid(), &pos.squares).count <= 1;
        Ok(pos)
    }

    /// The default start for `players` on its default board.
    pub fn default_start(players: u8) -> Result<Splinter, SetupError> {
        super::ABOUT.check_players(Some(players))?;
        Splinter::new(default_size(players).unwrap_or(MIN_SIZE), players)
    }

    /// A start on this board for this number of players with the pieces of a setup diagram, one
    /// glyph per square in reading order; Red to move.
    pub fn setup(&self, cells: &[&str]) -> Result<Splinter, SetupError> {
        let g = self.geometry();
        let n = self.size as usize * self.size as usize;
        if cells.len() != n {
            return Err(SetupError::CellCount { got: cells.len(), board: g });
        }
        let mut squares = vec![None; n].into_boxed_slice();
        let mut army = [[0u8; 4]; 4];
        for (c, &glyph) in g.cells().zip(cells) {
            if glyph == EMPTY_GLYPH {
                continue;
            }
            let cell = || g.label(c);
            let expected = "`..`, or a player's number 1-4 and K, R, B or P, like 1K or 3P";
            let piece = Piece::from_glyph(glyph).ok_or_else(|| SetupError::Glyph {
                title: super::ABOUT.title,
                cell: cell(),
                glyph: glyph.into(),
                expected,
            })?;
            if piece.player.index() >= self.players as usize {
                return Err(SetupError::from(Forbidden::NoSuchPlayer {
                    cell: cell(),
                    glyph: glyph.into(),
                    number: piece.player.number(),
                    players: self.players,
                }));
            }
            let have = &mut army[piece.player.index()][piece.kind.index()];
            *have += 1;
            if *have > piece.kind.full_army() {
                return Err(Forbidden::TooMany { cell: cell(), piece, nth: *have }.into());
            }
            squares[c.0 as usize] = Some(piece);
        }
        if let Some(&p) = self.player_list().iter().find(|p| army[p.index()].iter().all(|&k| k == 0)) {
            return Err(Forbidden::NoPiece(p).into());
        }
        let one_group = Groups::find(self.grid(), &squares).count <= 1;
        Ok(Splinter {
            size: self.size,
            players: self.players,
            squares,
            army,
            standing: [Standing::In; 4],
            to_move: Player::Red,
            just_moved: Vec::new(),
            quiet: 0,
            moves: 0,
            ending: None,
            counts: army,
            one_group,
        })
    }

    /// The board's side, in squares.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The board's shape.
    pub fn geometry(&self) -> Geometry {
        Geometry::Square { size: self.size }
    }

    /// The number of players the game started with.
    pub fn player_count(&self) -> u8 {
        self.players
    }

    /// The players the game started with, in turn order.
    pub fn player_list(&self) -> &'static [Player] {
        &Player::ALL[..self.players as usize]
    }

    /// The piece on `c`, if any.
    pub fn piece(&self, c: Cell) -> Option<Piece> {
        self.squares.get(c.0 as usize).copied().flatten()
    }

    /// The player to move.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// Where player `p` stands: in, or out with what they had.
    pub fn standing(&self, p: Player) -> Standing {
        self.standing[p.index()]
    }

    /// Whether player `p` is in the game and still in.
    pub fn is_in(&self, p: Player) -> bool {
        p.index() < self.players as usize && self.standing[p.index()] == Standing::In
    }

    /// The players still in, in turn order.
    pub fn players_in(&self) -> Vec<Player> {
        self.player_list().iter().copied().filter(|&p| self.is_in(p)).collect()
    }

    /// The pieces `p` has on the board.
    pub fn pieces(&self, p: Player) -> u8 {
        self.counts[p.index()].iter().sum()
    }

    /// The knockouts `p` has taken: the types they had at the start and have run out of (as they
    /// stood when `p` went out, if out).
    pub fn knockouts(&self, p: Player) -> u8 {
        match self.standing[p.index()] {
            Standing::Out { knockouts, .. } => knockouts,
            Standing::In => run_out(&self.counts, &self.army, p).count() as u8,
        }
    }

    /// How many pieces of each type `p` had at the start (indexed by [`Kind::index`]).
    pub fn army(&self, p: Player) -> [u8; 4] {
        self.army[p.index()]
    }

    /// The square the piece on `c` left on the previous move, if the previous move moved it.
    pub fn left_from(&self, c: Cell) -> Option<Cell> {
        self.just_moved.iter().find(|&&(now, _)| now == c).map(|&(_, left)| left)
    }

    /// Moves in a row without a piece leaving the board.
    pub fn quiet_moves(&self) -> u16 {
        self.quiet
    }

    /// Moves played so far.
    pub fn moves_played(&self) -> u32 {
        self.moves
    }

    /// How the game ended; `None` while it goes on.
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// The groups of pieces (joined through sides and corners), each in reading order, ordered by
    /// their first square.
    pub fn groups(&self) -> Vec<Vec<Cell>> {
        let groups = Groups::find(self.grid(), &self.squares);
        (1..=groups.count).map(|g| groups.cells(g).collect()).collect()
    }

    fn grid(&self) -> Grid {
        Grid { size: self.size as i32 }
    }

    fn label(&self, c: Cell) -> CellLabel {
        self.geometry().label(c)
    }

    /// The direction from `from` to `to` (an index into [`KING`]) if they are neighbours; both are
    /// squares of the board.
    fn direction(&self, from: Cell, to: Cell) -> Option<usize> {
        let grid = self.grid();
        let ((x, y), (to_x, to_y)) = (grid.xy(from), grid.xy(to));
        let (dcol, drow) = (to_x - x, to_y - y);
        if dcol.abs() > 1 || drow.abs() > 1 {
            return None;
        }
        DIRECTIONS[((drow + 1) * 3 + dcol + 1) as usize]
    }

    /// What the move does, or why it is illegal.
    pub fn effects(&self, m: SplinterMove) -> Result<Effects, Illegal> {
        let s = self.checked_step(m)?;
        self.settle_checked(m, &s, true)
    }

    /// The step a move makes and the line it pushes, if nothing but its choices of group can make
    /// it illegal; else why it is illegal.
    fn checked_step(&self, m: SplinterMove) -> Result<Slide, Illegal> {
        if let Some(e) = &self.ending {
            return Err(Illegal::GameOver(e.clone()));
        }
        let g = self.geometry();
        if let Some(c) = [m.from, m.to].into_iter().chain(m.choices()).find(|&c| !g.contains(c)) {
            return Err(Illegal::OffBoard { cell: self.label(c), size: self.size });
        }
        if self.piece(m.from).map(|p| p.player) != Some(self.to_move) {
            return Err(Illegal::NoPiece { player: self.to_move, cell: self.label(m.from) });
        }
        let not_a_step = || Illegal::NotAStep { from: self.label(m.from), to: self.label(m.to) };
        let dir = self.direction(m.from, m.to).ok_or_else(not_a_step)?;
        let s = self.line(m.from, dir);
        if let Some((at, back_to)) = s.returning {
            let piece = self.piece(at).expect("a returning piece stands on its square");
            return Err(Illegal::Returns { piece, at: self.label(at), back_to: self.label(back_to) });
        }
        Ok(s)
    }

    /// The direction of a move that `play_unchecked` plays as written: a step of one of the mover's
    /// pieces to a neighbouring square.
    fn own_step(&self, m: SplinterMove) -> Option<usize> {
        let g = self.geometry();
        (g.contains(m.from) && g.contains(m.to))
            .then(|| self.direction(m.from, m.to))
            .flatten()
            .filter(|_| self.piece(m.from).is_some_and(|p| p.player == self.to_move))
    }

    /// The step of the piece on `from` in direction `KING[dir]`, and the line in front of it.
    fn line(&self, from: Cell, dir: usize) -> Slide {
        self.line_at(from, self.grid().xy(from), dir)
    }

    /// [`Splinter::line`], with the column and row of `from`.
    fn line_at(&self, from: Cell, (mut x, mut y): (i32, i32), dir: usize) -> Slide {
        let grid = self.grid();
        let d = KING[dir];
        let mut s = Slide { from, dir, last: from, beyond: None, end: (x, y), returning: None };
        loop {
            (x, y) = (x + d.dcol as i32, y + d.drow as i32);
            let next = grid.at(x, y);
            if s.returning.is_none() && next.is_some() && self.left_from(s.last) == next {
                s.returning = next.map(|n| (s.last, n));
            }
            match next {
                Some(n) if self.squares[n.0 as usize].is_some() => s.last = n,
                beyond => return Slide { beyond, end: (x, y), ..s },
            }
        }
    }

    /// The pieces around `c`: bit `i` for the neighbour in direction `KING[i]`.
    fn around(&self, c: Cell) -> u8 {
        let grid = self.grid();
        let (x, y) = grid.xy(c);
        let n = grid.size;
        if x > 0 && y > 0 && x + 1 < n && y + 1 < n {
            // Away from the edges: the 3x3 square around `c`, read as three runs of the board.
            let (n, i) = (n as usize, c.0 as usize);
            // From the square above-left of `c` to the one below-right of it.
            let square = &self.squares[i - n - 1..][..2 * n + 3];
            let at = |k: usize| square[k].is_some() as u8;
            let (nw, north, ne) = (at(0), at(1), at(2));
            let (west, east) = (at(n), at(n + 2));
            let (sw, south, se) = (at(2 * n), at(2 * n + 1), at(2 * n + 2));
            return north | ne << 1 | east << 2 | se << 3 | south << 4 | sw << 5 | west << 6 | nw << 7;
        }
        KING.iter().enumerate().fold(0, |ring, (i, d)| match grid.at(x + d.dcol as i32, y + d.drow as i32) {
            Some(n) if self.squares[n.0 as usize].is_some() => ring | 1 << i,
            _ => ring,
        })
    }

    /// Whether a step settles at once, with no tie to decide and nobody out, as most do: the
    /// pieces were one group and stay one group, and a piece pushed off puts nobody out. Then no
    /// groups need finding, only the pieces around the squares the step leaves and enters.
    ///
    /// The slide leaves every square as it was but two: `from` empties, and the square beyond the
    /// line fills (unless the last piece is pushed off). If the pieces around `from` all touch
    /// each other ([`RING_GROUPS`]), any path between two pieces that went through `from` can go
    /// round it instead: the others stay one group. The square beyond the line joins them: it
    /// touches the line's last piece, or, if the moved piece pushes nothing, it is the step's
    /// square, and joins if it touches a piece other than the moved one (the ring counts it as a
    /// piece, so that it may also join pieces around `from` that touch only through it). Failing
    /// that, the pieces around `from` may still join up a little further out
    /// ([`Splinter::joined_nearby`]).
    fn settles_at_once(&self, s: &Slide) -> bool {
        if !self.one_group {
            return false;
        }
        let ring = self.around(s.from);
        let one_group = if s.last != s.from {
            RING_GROUPS[ring as usize] <= 1
        } else {
            let to = s.beyond.expect("a step lands on the board");
            let back = 1 << ((s.dir + 4) % KING.len());
            RING_GROUPS[(ring | 1 << s.dir) as usize] <= 1
                || RING_GROUPS[ring as usize] <= 1 && self.around(to) & !back != 0
        };
        (one_group || self.joined_nearby(s))
            && match (s.beyond, self.squares[s.last.0 as usize]) {
                (None, Some(p)) => !self.puts_out(p),
                _ => true,
            }
    }

    /// Whether the pieces around `from` after the slide all join up through the pieces of the 5x5
    /// square around it (without `from`): then, as in [`Splinter::settles_at_once`], any path
    /// that went through `from` can go round it, and the pieces stay one group if they were one.
    /// It sees what the ring of eight alone does not: pieces around `from` joined by a detour.
    fn joined_nearby(&self, s: &Slide) -> bool {
        /// The 5x5 square as bits, `(dy + 2) * 5 + dx + 2` for the square `dx` columns and `dy`
        /// rows away from `from`: the eight around it, and the columns a shift may not enter.
        const RING: u32 = 0b111 << 6 | 0b101 << 11 | 0b111 << 16;
        const NOT_LEFT: u32 = 0b11110_11110_11110_11110_11110;
        const NOT_RIGHT: u32 = 0b01111_01111_01111_01111_01111;
        const ALL: u32 = (1 << 25) - 1;
        let grid = self.grid();
        let (x, y) = grid.xy(s.from);
        let n = grid.size;
        let mut pieces = 0u32;
        if x >= 2 && y >= 2 && x + 2 < n && y + 2 < n {
            // Away from the edges: five runs of five squares of the board.
            let (n, i) = (n as usize, s.from.0 as usize);
            let square = &self.squares[i - 2 * n - 2..][..4 * n + 5];
            for row in 0..5 {
                for col in 0..5 {
                    pieces |= (square[row * n + col].is_some() as u32) << (row * 5 + col);
                }
            }
        } else {
            for dy in -2..=2 {
                for dx in -2..=2 {
                    let filled = grid.at(x + dx, y + dy).is_some_and(|c| self.squares[c.0 as usize].is_some());
                    pieces |= (filled as u32) << ((dy + 2) * 5 + dx + 2);
                }
            }
        }
        // After the slide: `from` empties, the square beyond the line fills.
        pieces &= !(1 << 12);
        let (dx, dy) = (s.end.0 - x, s.end.1 - y);
        if s.beyond.is_some() && dx.abs() <= 2 && dy.abs() <= 2 {
            pieces |= 1 << ((dy + 2) * 5 + dx + 2);
        }
        let ring = pieces & RING;
        let mut group = ring & ring.wrapping_neg();
        loop {
            let wide = group | (group << 1 & NOT_LEFT) | (group >> 1 & NOT_RIGHT);
            let grown = (wide | wide << 5 | wide >> 5) & ALL & pieces;
            if grown == group {
                return ring & !group == 0;
            }
            group = grown;
        }
    }

    /// The legal moves: with `every_name`, each choice of group written with every square of the
    /// group ([`Game::legal_moves`]); without, with the group's first square in reading order only,
    /// so that each move that does something else comes once ([`Game::distinct_moves`]).
    fn moves(&self, every_name: bool) -> Vec<SplinterMove> {
        if self.ending.is_some() {
            return Vec::new();
        }
        let grid = self.grid();
        let graph = Graph::new(grid, &self.squares);
        let mut moves = Vec::with_capacity(KING.len() * self.pieces(self.to_move) as usize);
        let mut others = [0; MAX_PIECES];
        for (i, &from) in graph.cells[..graph.count].iter().enumerate() {
            if self.piece(from).is_none_or(|p| p.player != self.to_move) {
                continue;
            }
            // The groups of the other pieces, the same for all the steps of this piece: all of
            // them, if the pieces are one group and those around this one touch each other (see
            // `settles_at_once`), else found on the graph.
            let found = if self.one_group && RING_GROUPS[self.around(from) as usize] <= 1 {
                others[0] = graph.all() & !(1 << i);
                (others[0] != 0) as usize
            } else {
                graph.groups_without(i, &mut others)
            };
            let at = grid.xy(from);
            for (dir, &d) in KING.iter().enumerate() {
                let Some(to) = grid.at(at.0 + d.dcol as i32, at.1 + d.drow as i32) else { continue };
                let s = self.line_at(from, at, dir);
                if s.returning.is_some() {
                    continue;
                }
                if self.settles_without_tie(&s, &graph, &others[..found]) {
                    moves.push(SplinterMove::step(from, to));
                    continue;
                }
                with_copy(&self.squares, |board| {
                    let mut settling = Settling::new(self, board, false);
                    settling.slide(&s);
                    choose(settling, SplinterMove::step(from, to), 0, every_name, &mut moves);
                });
            }
        }
        moves
    }

    /// Whether a step settles with no tie to decide (so that it is written with no choice of
    /// group), given `graph`, the pieces' graph, and `others`, the groups of the pieces but the
    /// moved one (for `legal_moves`, which finds them once for all the steps of a piece). `false`
    /// if it cannot tell: the move must be settled to see.
    ///
    /// After the slide the pieces stand where `others` stand, and on the square beyond the line,
    /// which joins the groups of `others` it touches into one (the line's own group among them,
    /// with the moved piece). The pieces left are those of the largest group, if it is the only
    /// one of its size. Then the move is settled if they leave every player still in with a piece
    /// and fewer than two knockouts, or one player at most; and also if the pieces left once the
    /// players going out have left are one group.
    fn settles_without_tie(&self, s: &Slide, graph: &Graph, others: &[u64]) -> bool {
        let grid = self.grid();
        let from = graph.number(s.from).expect("the moved piece");
        // The pieces the square beyond the line touches (the line's last one among them, if the
        // moved piece pushes any), and the groups they are in, joined.
        let touched = || s.beyond.map_or(0, |_| graph.around(grid, s.end) & !(1 << from));
        // The common case, quickly: the other pieces are one group (or none), and the square
        // beyond the line joins it, or there is none. Then only a piece pushed off can put
        // anybody out.
        if others.len() <= 1 && (others.is_empty() || s.beyond.is_none() || s.last != s.from || touched() != 0) {
            return match s.beyond {
                Some(_) => true,
                None => !self.puts_out(self.squares[s.last.0 as usize].expect("the pushed piece")),
            };
        }
        let touched = touched();
        let joined = others.iter().filter(|&&g| g & touched != 0).fold(0, |all, g| all | g);
        let joined_size = s.beyond.map(|_| joined.count_ones() + 1);
        let apart = others.iter().filter(|&&g| g & touched == 0);
        // The largest size, and how many groups have it.
        let sizes = joined_size.into_iter().chain(apart.clone().map(|g| g.count_ones()));
        let (top, ties) = sizes.fold((0, 0), |(top, n), size| match size.cmp(&top) {
            Ordering::Greater => (size, 1),
            Ordering::Equal => (top, n + 1),
            Ordering::Less => (top, n),
        });
        if ties > 1 {
            return false;
        }
        // The pieces of the group that stays, as they stand before the slide, and whether the
        // moved piece is among them: it is in the joined group, or, if the line's last piece is
        // pushed off, in the line's.
        let (kept, with_moved) = match s.beyond {
            Some(_) if joined_size == Some(top) => (joined, true),
            _ => {
                let kept = *apart.clone().find(|g| g.count_ones() == top).expect("a largest group");
                let step = graph.number(grid.step(s.from, KING[s.dir]).expect("a step"));
                (kept, s.beyond.is_none() && step.is_some_and(|n| kept & 1 << n != 0))
            }
        };
        // What leaves the board: the pieces of the other groups, the moved piece if its group is
        // not the one that stays, and the line's last piece if it is pushed off (if its group
        // stays: else it is among the first).
        let mut left = self.counts;
        let mut lose = |c: Cell| {
            let p = self.squares[c.0 as usize].expect("a piece");
            left[p.player.index()][p.kind.index()] -= 1;
        };
        for n in bits(graph.all() & !kept & !(1 << from)) {
            lose(graph.cells[n]);
        }
        if !with_moved {
            lose(s.from);
        } else if s.beyond.is_none() {
            lose(s.last);
        }
        let mut going = [false; 4];
        for &p in self.player_list().iter().filter(|&&p| self.is_in(p)) {
            going[p.index()] = run_out(&left, &self.army, p).count() >= 2 || left[p.index()].iter().all(|&n| n == 0);
        }
        let staying = self.player_list().iter().filter(|&&p| self.is_in(p) && !going[p.index()]).count();
        if !going.contains(&true) || staying < 2 {
            // Nobody goes out, or the game is over: nothing more is checked.
            return true;
        }
        // The pieces of the players going out leave, and the groups are checked again: if the
        // pieces left are one group, nobody takes another knockout, and the move is settled. On the
        // graph the square beyond the line takes the moved piece's number, and the pieces of the
        // line are those behind their squares.
        let back = KING[(s.dir + 4) % KING.len()];
        let line =
            s.back(grid).filter(|&c| c != s.from).fold(0u64, |set, c| set | 1 << graph.number(c).expect("a piece"));
        let after = |n: usize| match () {
            _ if s.beyond.is_some() && n == from => s.last,
            _ if line & 1 << n != 0 => grid.step(graph.cells[n], back).expect("the square behind"),
            _ => graph.cells[n],
        };
        let kept = kept | if with_moved && s.beyond.is_some() { 1 << from } else { 0 };
        let left = bits(kept)
            .filter(|&n| !going[self.squares[after(n).0 as usize].expect("a piece").player.index()])
            .fold(0u64, |set, n| set | 1 << n);
        graph.connected(left, |n| match s.beyond {
            Some(_) if n == from => touched,
            Some(_) if touched & 1 << n != 0 => graph.around[n] | 1 << from,
            _ => graph.around[n] & !(1 << from),
        })
    }

    /// Whether losing `p` puts its player out: it is their last piece, or their last of a type and
    /// they have a knockout already.
    fn puts_out(&self, p: Piece) -> bool {
        let have = self.counts[p.player.index()];
        have.iter().sum::<u8>() == 1 || have[p.kind.index()] == 1 && self.knockouts(p.player) >= 1
    }

    /// Settles a checked step on a copy of the board, deciding each tie by the move's next choice:
    /// what the move does (recorded if `record`), or why its choices are wrong.
    fn settle_checked(&self, m: SplinterMove, s: &Slide, record: bool) -> Result<Effects, Illegal> {
        with_copy(&self.squares, |board| self.settle_on(board, m, s, record).map(|settled| settled.effects))
    }

    /// [`Splinter::settle_checked`] on `board`, a copy of this position's: where the move leaves
    /// the players and their pieces, the board settled.
    fn settle_on(
        &self,
        board: &mut [Option<Piece>],
        m: SplinterMove,
        s: &Slide,
        record: bool,
    ) -> Result<Settled, Illegal> {
        let mut settling = Settling::new(self, board, record);
        settling.slide(s);
        let mut choices = m.choices();
        let mut ties = 0;
        while let Some(tie) = settling.next_tie() {
            let Some(cell) = choices.next() else {
                let mut like = format!("{}{}", self.label(m.from), self.label(m.to));
                for c in m.choices().take(ties).chain([tie.groups.cells(tie.first()).next().expect("a group")]) {
                    like.push_str(&format!("/{}", self.label(c)));
                }
                return Err(Illegal::ChoiceNeeded {
                    after: self.player_list().iter().copied().filter(|p| tie.after[p.index()]).collect(),
                    groups: tie.largest.count_ones() as u8,
                    size: tie.size as u16,
                    like,
                });
            };
            let Some(g) = tie.group_of(cell) else {
                return Err(Illegal::NotInLargest { cell: self.label(cell) });
            };
            settling.keep(&tie.groups, g);
            ties += 1;
        }
        if let Some(cell) = choices.next() {
            return Err(Illegal::NoChoice { cell: self.label(cell), ties: ties as u8 });
        }
        Ok(settling.settled())
    }

    /// Plays the step `s` of `m` on this position's own board: the slide, and unless the step
    /// settles at once (`at_once`, [`Splinter::settles_at_once`]), the rounds, each tie decided by
    /// the move's next choice, or else for the largest group that comes first (lenient replay).
    fn settle_in_place(&mut self, m: SplinterMove, s: &Slide, at_once: bool) {
        if at_once {
            // The slide is all there is to it: no round to play, so no settling to set up.
            let mut counts = self.counts;
            let pushed_off = s.shift(self.grid(), &mut self.squares);
            if let Some(p) = pushed_off {
                counts[p.player.index()][p.kind.index()] -= 1;
            }
            let gone = pushed_off.is_some() as u16;
            return self.commit(s, Settled { standing: self.standing, counts, gone, effects: Effects::default() });
        }
        // The board is settled in place: taken out of the position while the settling holds it.
        let mut squares = std::mem::take(&mut self.squares);
        let mut settling = Settling::new(self, &mut squares, false);
        settling.slide(s);
        let mut choices = m.choices();
        while let Some(tie) = settling.next_tie() {
            let g = choices.next().and_then(|c| tie.group_of(c)).unwrap_or(tie.first());
            settling.keep(&tie.groups, g);
        }
        let settled = settling.settled();
        self.squares = squares;
        self.commit(s, settled);
    }

    /// Applies the move of the step `s`, settled on this position's board: the players and their
    /// pieces as `settled` leaves them.
    fn commit(&mut self, s: &Slide, settled: Settled) {
        let Settled { standing, counts, gone, .. } = settled;
        let mover = self.to_move;
        let before = self.standing;
        let grid = self.grid();
        self.just_moved.clear();
        let ahead = s.ahead(grid);
        for c in s.back(grid) {
            // Where the piece from `c` went, if it is still on the board.
            let now = if c == s.last { s.beyond } else { Some(Cell((c.0 as i32 + ahead) as u16)) };
            if let Some(now) = now.filter(|now| self.squares[now.0 as usize].is_some()) {
                self.just_moved.push((now, c));
            }
        }
        self.standing = standing;
        self.counts = counts;
        self.quiet = if gone > 0 { 0 } else { self.quiet.saturating_add(1) };
        self.finish_turn(mover, before);
        // The kept group is all that is left while the game goes on (see `one_group`).
        self.one_group = self.ending.is_none() || Groups::find(grid, &self.squares).count <= 1;
    }

    /// A move that `play_unchecked` cannot play as written: nothing moves, the turn passes.
    ///
    /// It does not count toward the quiet-move rule: it stands for a move the player should have
    /// made, which might have put pieces off the board, so counting it could end a game that the
    /// move would have kept going. (Resetting the count would keep going a game that a quiet move
    /// would have ended; leaving it as it was does neither.)
    fn pass_turn(&mut self) {
        let mover = self.to_move;
        self.just_moved.clear();
        self.finish_turn(mover, self.standing);
    }

    /// Moves the turn on and sees whether the game is over; `before` is where the players stood
    /// before the move.
    fn finish_turn(&mut self, mover: Player, before: [Standing; 4]) {
        self.moves = self.moves.saturating_add(1);
        let mut left = self.player_list().iter().copied().filter(|&p| self.is_in(p));
        self.ending = match (left.next(), left.next()) {
            (None, _) => Some(Ending::AllOut(
                self.player_list().iter().copied().filter(|p| before[p.index()] == Standing::In).collect(),
            )),
            (Some(last), None) => Some(Ending::LastStanding(last)),
            _ if self.quiet >= QUIET_MOVES => Some(Ending::Quiet),
            _ => None,
        };
        let n = self.players as usize;
        let mut next = mover.index();
        for _ in 0..n {
            next = if next + 1 == n { 0 } else { next + 1 };
            if self.is_in(Player::ALL[next]) {
                self.to_move = Player::ALL[next];
                break;
            }
        }
    }

    /// Ranks `candidates` (player, knockouts, pieces) as the seed text ranks a simultaneous
    /// elimination: fewest knockouts, then most pieces, else a tie.
    fn rank(candidates: &[(Player, u8, u8)]) -> (Option<Player>, String) {
        let each = |v: &[(Player, u8, u8)], what: fn(&(Player, u8, u8)) -> u8| {
            v.iter().map(|c| format!("{} {}", c.0, what(c))).collect::<Vec<_>>().join(", ")
        };
        let names = |v: &[(Player, u8, u8)]| and_list(&v.iter().map(|c| c.0).collect::<Vec<_>>());
        let both = |v: &[(Player, u8, u8)]| if v.len() == 2 { "both" } else { "all" };
        let fewest = candidates.iter().map(|c| c.1).min().unwrap_or(0);
        let first: Vec<_> = candidates.iter().filter(|c| c.1 == fewest).copied().collect();
        if let [(w, _, _)] = first.as_slice() {
            return (Some(*w), format!("{w} wins with the fewest knockouts ({})", each(candidates, |c| c.1)));
        }
        // Who is still in the running after the knockouts.
        let level = if first.len() == candidates.len() {
            format!("{} {} have {}", names(&first), both(&first), count(fewest as usize, "knockout"))
        } else {
            format!("{} have the fewest knockouts ({})", names(&first), each(candidates, |c| c.1))
        };
        let most = first.iter().map(|c| c.2).max().unwrap_or(0);
        let second: Vec<_> = first.iter().filter(|c| c.2 == most).copied().collect();
        let pieces = count(most as usize, "piece");
        match second.as_slice() {
            [(w, _, _)] => {
                (Some(*w), format!("{level}, and {w} wins with the most pieces ({})", each(&first, |c| c.2)))
            }
            _ if second.len() == candidates.len() => (
                None,
                format!(
                    "{} {} have {} and {pieces}: the game ends in a tie",
                    names(&first),
                    both(&first),
                    count(fewest as usize, "knockout")
                ),
            ),
            _ if second.len() == first.len() => {
                (None, format!("{level}, and {} {} have {pieces}: the game ends in a tie", names(&first), both(&first)))
            }
            _ => (
                None,
                format!(
                    "{level}, and {} have the most pieces ({}): the game ends in a tie",
                    names(&second),
                    each(&first, |c| c.2)
                ),
            ),
        }
    }

    /// The result of a finished game; `None` while it goes on.
    pub fn result(&self) -> Option<Outcome> {
        let ending = self.ending.as_ref()?;
        let mut points: Vec<f64> = self.player_list().iter().map(|&p| self.pieces(p) as f64).collect();
        let (winner, detail) = match ending {
            Ending::LastStanding(p) => (Some(*p), format!("{p} is the last player standing")),
            Ending::AllOut(players) => {
                let stats: Vec<(Player, u8, u8)> = players
                    .iter()
                    .map(|&p| match self.standing(p) {
                        Standing::Out { knockouts, pieces } => (p, knockouts, pieces),
                        Standing::In => (p, self.knockouts(p), self.pieces(p)),
                    })
                    .collect();
                for &(p, _, pieces) in &stats {
                    points[p.index()] = pieces as f64;
                }
                let (w, why) = Splinter::rank(&stats);
                (w, format!("{ending}: {why}"))
            }
            Ending::Quiet => {
                let stats: Vec<(Player, u8, u8)> =
                    self.players_in().into_iter().map(|p| (p, self.knockouts(p), self.pieces(p))).collect();
                let (w, why) = Splinter::rank(&stats);
                (w, format!("{ending}: {why}"))
            }
            Ending::NoStart { .. } => (None, ending.to_string()),
        };
        Some(Outcome { winner: winner.map(Player::index), points, detail })
    }
}

/// The types `p` had at the start (`army`) and has no piece of now (`counts`).
fn run_out(counts: &[[u8; 4]; 4], army: &[[u8; 4]; 4], p: Player) -> impl Iterator<Item = Kind> {
    let (have, had) = (counts[p.index()], army[p.index()]);
    Kind::ALL.into_iter().filter(move |k| had[k.index()] > 0 && have[k.index()] == 0)
}

/// The most pieces a board can hold: four players with a full army each.
const MAX_PIECES: usize = 4 * 9;
/// The most squares a board can have.
const MAX_CELLS: usize = MAX_SIZE as usize * MAX_SIZE as usize;

/// Square-board arithmetic on cell indices, for the engine's inner loops (the geometry's `step`
/// serves hex boards too, and looks at the shape on every call). Loops that walk the board carry
/// columns and rows along rather than divide for them.
#[derive(Clone, Copy)]
struct Grid {
    size: i32,
}

impl Grid {
    fn xy(self, c: Cell) -> (i32, i32) {
        (c.0 as i32 % self.size, c.0 as i32 / self.size)
    }

    fn at(self, x: i32, y: i32) -> Option<Cell> {
        self.contains(x, y).then(|| Cell((y * self.size + x) as u16))
    }

    fn contains(self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.size && y < self.size
    }

    fn step(self, c: Cell, d: Direction) -> Option<Cell> {
        let (x, y) = self.xy(c);
        self.at(x + d.dcol as i32, y + d.drow as i32)
    }
}

/// For each set of pieces around a square (bit `i` for the neighbour in direction `KING[i]`), how
/// many groups they form among themselves: neighbours next to each other round the ring touch,
/// and so do the orthogonal ones two apart (N and E meet at a corner), but no others.
const RING_GROUPS: [u8; 256] = ring_groups();

const fn ring_groups() -> [u8; 256] {
    /// N, E, S and W.
    const ORTHOGONAL: u8 = 0b0101_0101;
    let mut table = [0u8; 256];
    let mut ring = 0;
    while ring < 256 {
        let pieces = ring as u8;
        let mut seen = 0u8;
        let mut i = 0;
        while i < 8 {
            if pieces & !seen & (1 << i) != 0 {
                table[ring] += 1;
                let mut group = 1u8 << i;
                loop {
                    let ends = group & ORTHOGONAL;
                    let grown = (group
                        | group.rotate_left(1)
                        | group.rotate_right(1)
                        | ends.rotate_left(2)
                        | ends.rotate_right(2))
                        & pieces;
                    if grown == group {
                        break;
                    }
                    group = grown;
                }
                seen |= group;
            }
            i += 1;
        }
        ring += 1;
    }
    table
}

/// Runs `f` on a copy of the board `squares`, in a buffer on the stack (nothing is allocated) no
/// larger than the board needs: filling one for the largest board (26x26) costs more than settling
/// a move on the default ones (10x10 and 13x13).
fn with_copy<R>(squares: &[Option<Piece>], f: impl FnOnce(&mut [Option<Piece>]) -> R) -> R {
    with_board(squares.len(), |board| {
        board.copy_from_slice(squares);
        f(board)
    })
}

/// Runs `f` on an empty board of `len` squares, in a buffer on the stack as [`with_copy`]'s.
fn with_board<R>(len: usize, f: impl FnOnce(&mut [Option<Piece>]) -> R) -> R {
    fn on<const N: usize, R>(len: usize, f: impl FnOnce(&mut [Option<Piece>]) -> R) -> R {
        f(&mut [None; N][..len])
    }
    match len {
        n if n <= 10 * 10 => on::<{ 10 * 10 }, R>(len, f),
        n if n <= 13 * 13 => on::<{ 13 * 13 }, R>(len, f),
        _ => on::<MAX_CELLS, R>(len, f),
    }
}

/// Where the pieces of a board stand, a row of bits per rank: bit `x` of `rows[y]` for the square
/// at column `x` and row `y` (a board is at most [`MAX_SIZE`] squares wide, so a rank fits a
/// `u32`). Settling keeps one beside its board, so that groups are found without reading the
/// board square by square each round.
type Rows = [u32; MAX_SIZE as usize];

/// The rows of bits of the pieces on `squares`.
fn rows(grid: Grid, squares: &[Option<Piece>]) -> Rows {
    let mut rows = [0; MAX_SIZE as usize];
    for (bits, rank) in rows.iter_mut().zip(squares.chunks_exact(grid.size as usize)) {
        *bits = rank.iter().rev().fold(0, |bits, square| bits << 1 | square.is_some() as u32);
    }
    rows
}

/// The squares of the pieces of `rows`, in reading order.
fn occupied(grid: Grid, rows: &Rows) -> impl Iterator<Item = Cell> + '_ {
    let n = grid.size as usize;
    rows[..n].iter().enumerate().flat_map(move |(y, &row)| bits(row as u64).map(move |x| Cell((y * n + x) as u16)))
}

/// The groups of pieces on a board, joined through sides and corners, numbered from 1 in the
/// order of their first squares (reading order). Fixed-size buffers: nothing is allocated.
struct Groups {
    grid: Grid,
    /// The pieces of the board.
    rows: Rows,
    /// The first square of group `g`, in reading order, at `first[g - 1]`.
    first: [Cell; MAX_PIECES],
    /// The size of group `g` at `sizes[g - 1]`.
    sizes: [u8; MAX_PIECES],
    /// The groups found: all of them if `whole`.
    count: u8,
    /// Whether every piece is in a group found (see [`Groups::of_rows`]).
    whole: bool,
    /// The first of the largest groups, and its pieces: the group that stays when there is no tie,
    /// kept so that it need not be found again.
    top: (u8, Rows),
}

impl Groups {
    /// The groups of the pieces on `squares`.
    fn find(grid: Grid, squares: &[Option<Piece>]) -> Groups {
        Groups::of_rows(grid, &rows(grid, squares), false)
    }

    /// The groups of the pieces on a board read into rows of bits ([`rows`]): a flood fill
    /// ([`fill`]) from each piece not yet in a group, in reading order.
    ///
    /// With `until_unique`, the search stops as soon as the largest group found is larger than
    /// every other one found and than all the pieces not yet in a group together: it is then the
    /// only largest group, the one a round of settling keeps, and the groups of the other pieces
    /// make no difference (they all leave the board). The groups after it are not found, and
    /// `whole` is false. Most splits cut a few pieces off a large group, which is then found
    /// first or second.
    fn of_rows(grid: Grid, rows: &Rows, until_unique: bool) -> Groups {
        let n = grid.size as usize;
        let mut groups = Groups {
            grid,
            rows: *rows,
            first: [Cell(0); MAX_PIECES],
            sizes: [0; MAX_PIECES],
            count: 0,
            whole: true,
            top: (0, [0; MAX_SIZE as usize]),
        };
        // The pieces not yet in a group, how many, the size of the largest group so far, and how
        // many groups have that size.
        let mut unseen = *rows;
        let mut left: u32 = unseen[..n].iter().map(|row| row.count_ones()).sum();
        let (mut best, mut ties) = (0, 0);
        for y in 0..n {
            while unseen[y] != 0 {
                let x = unseen[y].trailing_zeros() as usize;
                let (group, size) = fill(&unseen, n, x, y);
                for (row, g) in unseen[..n].iter_mut().zip(&group) {
                    *row &= !g;
                }
                left -= size as u32;
                groups.first[groups.count as usize] = Cell((y * n + x) as u16);
                groups.sizes[groups.count as usize] = size;
                groups.count += 1;
                match size.cmp(&best) {
                    Ordering::Greater => {
                        (best, ties) = (size, 1);
                        groups.top = (groups.count, group);
                    }
                    Ordering::Equal => ties += 1,
                    Ordering::Less => {}
                }
                if until_unique && left > 0 && ties == 1 && best as u32 > left {
                    groups.whole = false;
                    return groups;
                }
            }
        }
        groups
    }

    /// The pieces of group `g`.
    fn members(&self, g: u8) -> Rows {
        if g == self.top.0 {
            return self.top.1;
        }
        let n = self.grid.size as usize;
        let (x, y) = self.grid.xy(self.first[g as usize - 1]);
        fill(&self.rows, n, x as usize, y as usize).0
    }

    /// The squares of group `g`, in reading order.
    fn cells(&self, g: u8) -> impl Iterator<Item = Cell> {
        let members = self.members(g);
        let grid = self.grid;
        (0..grid.size as usize)
            .flat_map(move |y| bits(members[y] as u64).map(move |x| Cell((y * grid.size as usize + x) as u16)))
    }

    /// Whether the piece on `c` is in group `g`.
    fn holds(&self, g: u8, c: Cell) -> bool {
        let (x, y) = self.grid.xy(c);
        self.members(g)[y as usize] & 1 << x != 0
    }

    /// The largest groups found (bit `g - 1` for group `g`), and their size: of all the groups,
    /// or, when not `whole`, the only largest group.
    fn largest(&self) -> (u64, u8) {
        let sizes = &self.sizes[..self.count as usize];
        let top = sizes.iter().copied().max().unwrap_or(0);
        let set = sizes.iter().enumerate().filter(|&(_, &n)| n == top).fold(0, |set, (g, _)| set | 1 << g);
        (set, top)
    }
}

/// The group of the piece at column `x` and row `y` among `pieces` (a board `n` squares wide),
/// and its size: a flood fill a row at a time. A row of the group is grown from the group's rows
/// next to it (bits shifted by one column either way take in the corners), then along itself until
/// it grows no more; a row next to one that grew is grown again if a piece of it touches the new
/// ones, until no row is left to grow, lowest row first.
fn fill(pieces: &Rows, n: usize, x: usize, y: usize) -> (Rows, u8) {
    let spread = |row: u32| row | row << 1 | row >> 1;
    let (mut group, mut size) = ([0; MAX_SIZE as usize], 0);
    // The rows to grow: bit `r` for row `r`; first the row of the piece the fill starts from, with
    // that piece.
    let (mut todo, mut start) = (1u32 << y, 1 << x);
    while todo != 0 {
        let r = todo.trailing_zeros() as usize;
        todo &= todo - 1;
        let above = if r > 0 { group[r - 1] } else { 0 };
        let below = if r + 1 < n { group[r + 1] } else { 0 };
        let mut row = pieces[r] & spread(above | group[r] | below) | std::mem::take(&mut start);
        loop {
            let wider = pieces[r] & spread(row);
            if wider == row {
                break;
            }
            row = wider;
        }
        let new = row & !group[r];
        if new == 0 {
            continue;
        }
        group[r] = row;
        size += new.count_ones();
        let touched = spread(new);
        if r > 0 && pieces[r - 1] & !group[r - 1] & touched != 0 {
            todo |= 1 << (r - 1);
        }
        if r + 1 < n && pieces[r + 1] & !group[r + 1] & touched != 0 {
            todo |= 1 << (r + 1);
        }
    }
    (group, size as u8)
}

/// The members of a set of numbers (below 64), smallest first.
fn bits(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let n = set.trailing_zeros() as usize;
        set &= set.wrapping_sub(1);
        (n < 64).then_some(n)
    })
}

/// The pieces of a position as a graph, for [`Game::legal_moves`]: the pieces numbered in
/// reading order, with their neighbours as sets of numbers (bit `n` for piece `n`). All the steps
/// of one piece need the groups of the other pieces, which a flood fill over these sets finds in a
/// few operations a piece, with no look at the board.
struct Graph {
    /// The square of each piece.
    cells: [Cell; MAX_PIECES],
    count: usize,
    /// The number of the piece on each square, plus one; 0 for an empty square.
    numbers: [u8; MAX_CELLS],
    /// The pieces around each piece.
    around: [u64; MAX_PIECES],
}

impl Graph {
    fn new(grid: Grid, squares: &[Option<Piece>]) -> Graph {
        let mut graph =
            Graph { cells: [Cell(0); MAX_PIECES], count: 0, numbers: [0; MAX_CELLS], around: [0; MAX_PIECES] };
        for (i, _) in squares.iter().enumerate().filter(|(_, p)| p.is_some()) {
            graph.cells[graph.count] = Cell(i as u16);
            graph.count += 1;
            graph.numbers[i] = graph.count as u8;
        }
        // Each piece is a neighbour of the pieces it finds: only the directions that come later
        // in reading order (E, SE, S and SW) need looking at.
        for n in 0..graph.count {
            let (x, y) = grid.xy(graph.cells[n]);
            for d in &KING[2..6] {
                if let Some(m) = grid.at(x + d.dcol as i32, y + d.drow as i32).and_then(|c| graph.number(c)) {
                    graph.around[n] |= 1 << m;
                    graph.around[m] |= 1 << n;
                }
            }
        }
        graph
    }

    /// The number of the piece on `c`, if any.
    fn number(&self, c: Cell) -> Option<usize> {
        (self.numbers[c.0 as usize] as usize).checked_sub(1)
    }

    /// The pieces around the square at column `x` and row `y`.
    fn around(&self, grid: Grid, (x, y): (i32, i32)) -> u64 {
        let n = grid.size;
        if x > 0 && y > 0 && x + 1 < n && y + 1 < n {
            // Away from the edges: three runs of the board, as in `Splinter::around`. A piece's
            // number plus one, shifted in and back out, is the piece's bit, and nothing for none.
            let (n, i) = ((n) as usize, (y * n + x) as usize);
            let near = &self.numbers[i - n - 1..][..2 * n + 3];
            return [0, 1, 2, n, n + 2, 2 * n, 2 * n + 1, 2 * n + 2]
                .iter()
                .fold(0, |set, &k| set | (1 << near[k]) >> 1);
        }
        KING.iter()
            .filter_map(|d| grid.at(x + d.dcol as i32, y + d.drow as i32))
            .filter_map(|n| self.number(n))
            .fold(0, |set, n| set | 1 << n)
    }

    /// All the pieces.
    fn all(&self) -> u64 {
        (1 << self.count) - 1
    }

    /// Whether the pieces of `set` are one group (or none), with `around` the pieces around each.
    fn connected(&self, set: u64, around: impl Fn(usize) -> u64) -> bool {
        let mut group = set & set.wrapping_neg();
        let mut todo = group;
        while todo != 0 {
            let n = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let new = around(n) & set & !group;
            group |= new;
            todo |= new;
        }
        group == set
    }

    /// The groups of the pieces but piece `without`, written to `groups` (one set of pieces a
    /// group); returns how many.
    fn groups_without(&self, without: usize, groups: &mut [u64; MAX_PIECES]) -> usize {
        let mut left = self.all() & !(1 << without);
        let mut found = 0;
        while left != 0 {
            let mut group = left & left.wrapping_neg();
            let mut todo = group;
            while todo != 0 {
                let n = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                let new = self.around[n] & left & !group;
                group |= new;
                todo |= new;
            }
            left &= !group;
            groups[found] = group;
            found += 1;
        }
        found
    }
}

/// A step and the line it pushes.
#[derive(Clone, Copy)]
struct Slide {
    from: Cell,
    /// The direction, as an index into [`KING`].
    dir: usize,
    /// The last piece of the unbroken line the moved piece pushes (the moved piece itself if it
    /// pushes none).
    last: Cell,
    /// The square the last piece moves to; `None` if it is pushed off the board.
    beyond: Option<Cell>,
    /// The column and row of that square, on the board or not.
    end: (i32, i32),
    /// The first piece, moved or pushed, that the step brings back to the square it left on the
    /// previous move, and that square: the step is illegal.
    returning: Option<(Cell, Cell)>,
}

impl Slide {
    /// The squares of the line, from the last piece back to the moved one. They are all on the
    /// board, one step apart: each is a fixed number of squares before the next in reading order.
    fn back(self, grid: Grid) -> impl Iterator<Item = Cell> {
        let ahead = self.ahead(grid);
        std::iter::successors(Some(self.last), move |&c| (c != self.from).then(|| Cell((c.0 as i32 - ahead) as u16)))
    }

    /// How many squares on in reading order a step in the slide's direction goes.
    fn ahead(self, grid: Grid) -> i32 {
        let d = KING[self.dir];
        d.drow as i32 * grid.size + d.dcol as i32
    }

    /// Moves the line one square on, on `squares`, from its far end back: each piece into the
    /// square in front of it. Returns the last piece if it is pushed off the board.
    fn shift(self, grid: Grid, squares: &mut [Option<Piece>]) -> Option<Piece> {
        let mut to = self.beyond;
        let mut pushed_off = None;
        for c in self.back(grid) {
            let piece = squares[c.0 as usize].take();
            match to {
                Some(t) => squares[t.0 as usize] = piece,
                None => pushed_off = piece,
            }
            to = Some(c);
        }
        pushed_off
    }
}

/// A tie the mover must decide.
struct Tie {
    groups: Groups,
    /// The equal largest groups (bit `g - 1` for group `g`).
    largest: u64,
    /// Their size.
    size: u8,
    /// Who went out just before (nobody in the first round).
    after: [bool; 4],
}

impl Tie {
    /// The largest groups, in the order of their first squares.
    fn choices(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.groups.count).filter(|g| self.largest & 1 << g != 0).map(|g| g + 1)
    }

    /// The first of the largest groups: the one that stays when a lenient move does not decide.
    fn first(&self) -> u8 {
        self.largest.trailing_zeros() as u8 + 1
    }

    /// The largest group that holds the square `c`, if any.
    fn group_of(&self, c: Cell) -> Option<u8> {
        let size = self.groups.grid.size as usize;
        if c.0 as usize >= size * size {
            return None;
        }
        self.choices().find(|&g| self.groups.holds(g, c))
    }
}

/// Where a settled move leaves the players and their pieces (the board aside).
struct Settled {
    standing: [Standing; 4],
    counts: [[u8; 4]; 4],
    /// Pieces that left the board.
    gone: u16,
    /// What left it, if the settling recorded it.
    effects: Effects,
}

/// A move being settled on a board (the position's own, or a copy): the slide, then round after
/// round of groups and eliminations. What leaves the board is recorded in `effects` only when
/// `record` asks for it (for reports): settling allocates nothing otherwise.
struct Settling<'a> {
    grid: Grid,
    players: u8,
    army: [[u8; 4]; 4],
    squares: &'a mut [Option<Piece>],
    counts: [[u8; 4]; 4],
    standing: [Standing; 4],
    /// Types each player has run out of so far, so that each knockout is reported once.
    run_out: [[bool; 4]; 4],
    /// Pieces that have left the board.
    gone: u16,
    record: bool,
    effects: Effects,
    /// The players put out in the latest round.
    last_out: [bool; 4],
    done: bool,
    /// The pieces of `squares` as rows of bits, once the first round needs them (`None` before):
    /// the slide and a move that settles at once never do.
    rows: Option<Rows>,
}

impl<'a> Settling<'a> {
    /// The settling of a move from `pos`, on `squares` (its board or a copy).
    fn new(pos: &Splinter, squares: &'a mut [Option<Piece>], record: bool) -> Settling<'a> {
        // The types each player had and has none of (see `run_out`), all sixteen at once: a
        // player the game does not have had none.
        let mut run_out_now = [[false; 4]; 4];
        for ((run_out, had), have) in run_out_now.iter_mut().zip(&pos.army).zip(&pos.counts) {
            for ((run_out, &had), &have) in run_out.iter_mut().zip(had).zip(have) {
                *run_out = had > 0 && have == 0;
            }
        }
        Settling {
            grid: pos.grid(),
            players: pos.players,
            army: pos.army,
            squares,
            counts: pos.counts,
            standing: pos.standing,
            run_out: run_out_now,
            gone: 0,
            record,
            effects: Effects::default(),
            last_out: [false; 4],
            done: false,
            rows: None,
        }
    }

    /// Where the settling leaves the players and their pieces.
    fn settled(self) -> Settled {
        Settled { standing: self.standing, counts: self.counts, gone: self.gone, effects: self.effects }
    }

    /// This settling, carried on by `f` on a copy of its board.
    fn fork<R>(&self, f: impl FnOnce(Settling) -> R) -> R {
        with_copy(self.squares, |squares| {
            f(Settling {
                grid: self.grid,
                players: self.players,
                army: self.army,
                squares,
                counts: self.counts,
                standing: self.standing,
                run_out: self.run_out,
                gone: self.gone,
                record: self.record,
                effects: self.effects.clone(),
                last_out: self.last_out,
                done: self.done,
                rows: self.rows,
            })
        })
    }

    /// Takes the piece on `c` off the board; `list` is where the effects record it.
    fn remove(&mut self, c: Cell, list: fn(&mut Effects) -> &mut Vec<(CellLabel, Piece)>) {
        if let Some(p) = self.squares[c.0 as usize].take() {
            if let Some(rows) = &mut self.rows {
                let (x, y) = self.grid.xy(c);
                rows[y as usize] &= !(1 << x);
            }
            self.lost(c, p, list);
        }
    }

    /// Counts `p`, taken off the board from `c`, as gone; `list` is where the effects record it.
    fn lost(&mut self, c: Cell, p: Piece, list: fn(&mut Effects) -> &mut Vec<(CellLabel, Piece)>) {
        self.counts[p.player.index()][p.kind.index()] -= 1;
        self.gone += 1;
        if self.record {
            let label = Geometry::Square { size: self.grid.size as u8 }.label(c);
            list(&mut self.effects).push((label, p));
        }
    }

    /// Plays the step and its push, before any round: `rows` are not made yet.
    fn slide(&mut self, s: &Slide) {
        debug_assert!(self.rows.is_none(), "the slide comes before the rounds");
        if let Some(p) = s.shift(self.grid, self.squares) {
            self.lost(s.last, p, |e| &mut e.pushed_off);
        }
    }

    fn players_in(&self) -> impl Iterator<Item = Player> + '_ {
        Player::ALL[..self.players as usize].iter().copied().filter(|p| self.standing[p.index()] == Standing::In)
    }

    /// Runs the rounds until the mover has to choose between equal largest groups, or the move is
    /// settled (`None`).
    fn next_tie(&mut self) -> Option<Tie> {
        while !self.done {
            let rows = self.rows.get_or_insert_with(|| rows(self.grid, self.squares));
            let groups = Groups::of_rows(self.grid, rows, true);
            if groups.count > 1 || !groups.whole {
                let (largest, size) = groups.largest();
                if largest.count_ones() > 1 {
                    return Some(Tie { groups, largest, size, after: self.last_out });
                }
                self.keep(&groups, largest.trailing_zeros() as u8 + 1);
            } else {
                self.eliminate();
            }
        }
        None
    }

    /// Keeps only the pieces of group `g` of `groups` (the groups of this board), then takes the
    /// knockouts and eliminations that follow.
    fn keep(&mut self, groups: &Groups, g: u8) {
        let kept = groups.members(g);
        let mut others = groups.rows;
        for (row, kept) in others.iter_mut().zip(kept) {
            *row &= !kept;
        }
        for c in occupied(self.grid, &others) {
            self.remove(c, |e| &mut e.splintered);
        }
        self.eliminate();
    }

    /// Knockouts, and the players they put out; another round follows if anybody went out and two
    /// players or more are still in.
    fn eliminate(&mut self) {
        let mut going = [false; 4];
        for (p, going) in going.iter_mut().enumerate().take(self.players as usize) {
            if self.standing[p] != Standing::In {
                continue;
            }
            // The types run out (see `run_out`), each reported the first time.
            let mut knockouts = 0;
            for (k, kind) in Kind::ALL.into_iter().enumerate() {
                if self.army[p][k] > 0 && self.counts[p][k] == 0 && !self.run_out[p][k] {
                    self.run_out[p][k] = true;
                    if self.record {
                        self.effects.knockouts.push((Player::ALL[p], kind));
                    }
                }
                knockouts += self.run_out[p][k] as u8;
            }
            *going = knockouts >= 2 || self.counts[p] == [0; 4];
        }
        for p in Player::ALL.into_iter().filter(|p| going[p.index()]) {
            let knockouts = self.run_out[p.index()].iter().filter(|&&r| r).count() as u8;
            let pieces = self.counts[p.index()].iter().sum::<u8>();
            self.standing[p.index()] = Standing::Out { knockouts, pieces };
            if self.record {
                self.effects.out.push((p, knockouts, pieces));
            }
        }
        if going.contains(&true) {
            let rows = *self.rows.get_or_insert_with(|| rows(self.grid, self.squares));
            for c in occupied(self.grid, &rows) {
                if self.squares[c.0 as usize].is_some_and(|x| going[x.player.index()]) {
                    self.remove(c, |e| &mut e.removed);
                }
            }
        }
        self.last_out = going;
        self.done = !going.contains(&true) || self.players_in().count() < 2;
    }
}

/// Adds to `out` every legal way to write `m`, a move settling from `s` whose first `depth` ties
/// are decided: for the next tie, each of the largest groups in the order of their first squares,
/// named by each of its squares in reading order (`every_name`; else by its first square only, the
/// canonical name), each followed by every way to decide the ties that come after it; `m` itself
/// when no tie is left.
fn choose(mut s: Settling, m: SplinterMove, depth: usize, every_name: bool, out: &mut Vec<SplinterMove>) {
    let Some(tie) = s.next_tie() else {
        out.push(m);
        return;
    };
    if depth >= MAX_CHOICES {
        return;
    }
    for g in tie.choices() {
        // What follows does not depend on the square that names the group: find it once, named
        // by the first square, and copy it for the others.
        let mut cells = tie.groups.cells(g);
        let mut named = m;
        named.keep[depth] = cells.next();
        let start = out.len();
        s.fork(|mut kept| {
            kept.keep(&tie.groups, g);
            choose(kept, named, depth + 1, every_name, out);
        });
        if !every_name {
            continue;
        }
        let end = out.len();
        for c in cells {
            for i in start..end {
                let mut other = out[i];
                other.keep[depth] = Some(c);
                out.push(other);
            }
        }
    }
}

// How pictures draw the pieces: in the shapes the game gives them (seed text: "1 king (star), 2
// rooks (squares), 2 bishops (crosses) and 4 pawns (circles)"), which read apart in greyscale too,
// and the player by colour. The outlines are the game's, beside its rules rather than in the
// renderers, which draw any polygon; points in hundredths of a cell from its centre, y downwards.

/// The king: a five-pointed star.
const KING_OUTLINE: &[(i8, i8)] =
    &[(0, -40), (11, -11), (42, -10), (17, 10), (26, 40), (0, 22), (-26, 40), (-17, 10), (-42, -10), (-11, -11)];

/// The rook: a square.
const ROOK_OUTLINE: &[(i8, i8)] = &[(-29, -29), (29, -29), (29, 29), (-29, 29)];

/// The bishop: a cross of two equal bars. (The pawn is a circle, [`Shape::Circle`].)
const BISHOP_OUTLINE: &[(i8, i8)] = &[
    (-12, -38),
    (12, -38),
    (12, -12),
    (38, -12),
    (38, 12),
    (12, 12),
    (12, 38),
    (-12, 38),
    (-12, 12),
    (-38, 12),
    (-38, -12),
    (-12, -12),
];

impl BoardView for Splinter {
    fn geometry(&self) -> Geometry {
        Splinter::geometry(self)
    }

    fn glyph(&self, cell: Cell) -> &'static str {
        self.piece(cell).map_or(EMPTY_GLYPH, Piece::glyph)
    }

    fn figure(&self, cell: Cell) -> Option<Figure> {
        self.piece(cell).map(Piece::figure)
    }

    fn player_names(&self) -> &'static [&'static str] {
        &Player::NAMES[..self.players as usize]
    }

    /// Pieces in the way of a step are pushed along, off the board too.
    fn figures_leave(&self) -> bool {
        true
    }
}

/// The search stores Splinter Quad positions whole. Besides the board they hold what the rules look
/// back at (the pieces the last move moved, the quiet moves, the standings) and two things derived
/// from the board (`counts`, `one_group`), which are equal whenever the boards are: equality is
/// never looser than the rules.
impl crate::game::PlainData for Splinter {
    fn heap_bytes(&self) -> usize {
        crate::game::key::allocation(std::mem::size_of_val(&*self.squares))
            + crate::game::key::allocation(self.just_moved.capacity() * std::mem::size_of::<(Cell, Cell)>())
    }

    /// The board and what the rules look back at; the rest follows from them or from the start, and
    /// equality still compares it.
    fn plain_hash(&self) -> u64 {
        let square = |s: &Option<Piece>| s.map_or(0, |p| 1 + 4 * p.player as u8 + p.kind as u8);
        let rest = (self.size, self.to_move, &self.just_moved, self.quiet, self.moves, self.standing);
        crate::game::board_hash(&self.squares, square, rest)
    }
}

impl Game for Splinter {
    type Move = SplinterMove;
    type Illegal = Illegal;
    type Score = SplinterScore;

    fn about(&self) -> &'static crate::game::About {
        &super::ABOUT
    }

    fn legal_moves(&self) -> Vec<SplinterMove> {
        self.moves(true)
    }

    fn distinct_moves(&self) -> Vec<SplinterMove> {
        self.moves(false)
    }

    /// Most moves settle at once (`settles_at_once`): they are not settled here, only looked at
    /// (they are legal if they write no choice of group), and `play_unchecked` settles them. The
    /// others (a split, somebody out, a tie) are settled on a copy of the board, to see their ties:
    /// measured, that is quicker than telling on the pieces' graph whether they have a tie, as
    /// `legal_moves` does (fewer instructions, but the graph is built square by square for one
    /// step). Replay does not settle them again to play them: it calls `play_checked`, which keeps
    /// the settled copy.
    fn check(&self, m: SplinterMove) -> Result<(), Illegal> {
        let s = self.checked_step(m)?;
        if !self.settles_at_once(&s) {
            return self.settle_checked(m, &s, false).map(|_| ());
        }
        match m.choices().next() {
            Some(cell) => Err(Illegal::NoChoice { cell: self.label(cell), ties: 0 }),
            None => Ok(()),
        }
    }

    /// Plays any move without asking whether it is legal (lenient replay). A step of one of the
    /// mover's pieces to a neighbouring square is played as written, even back to where a piece
    /// came from; a tie the move does not decide (or decides with a square outside the largest
    /// groups) keeps the largest group that comes first in reading order. Anything else (a square
    /// off the board, no piece of the mover's, not a step) moves nothing but uses the turn, so
    /// the players stay in step with the record. A finished game does not change.
    ///
    /// A step played as written can end the game: it is a move on the board, and what it pushes
    /// off, splinters off or puts out is gone as after any move, so the end (one player left, or a
    /// hundred quiet moves) is that of the board the record's moves leave. A move that cannot be
    /// played adds no quiet move (`Splinter::pass_turn`).
    fn play_unchecked(&mut self, m: SplinterMove) {
        if self.ending.is_some() {
            return;
        }
        let Some(dir) = self.own_step(m) else { return self.pass_turn() };
        let s = self.line(m.from, dir);
        let at_once = self.settles_at_once(&s);
        self.settle_in_place(m, &s, at_once);
    }

    /// [`Game::check`] and [`Game::play_unchecked`] with the work done once: a move that settles
    /// at once is looked at once, and one that does not is settled once, on a copy of the board
    /// that becomes the position's board if the move is legal (`before` still sees the position
    /// as it was).
    fn play_checked(&mut self, m: SplinterMove, before: impl FnOnce(&Splinter)) -> Result<(), Illegal> {
        let s = self.checked_step(m)?;
        if self.settles_at_once(&s) {
            if let Some(cell) = m.choices().next() {
                return Err(Illegal::NoChoice { cell: self.label(cell), ties: 0 });
            }
            before(self);
            self.settle_in_place(m, &s, true);
            return Ok(());
        }
        with_board(self.squares.len(), |board| {
            board.copy_from_slice(&self.squares);
            let settled = self.settle_on(board, m, &s, false)?;
            before(self);
            self.squares.copy_from_slice(board);
            self.commit(&s, settled);
            Ok(())
        })
    }

    fn is_over(&self) -> bool {
        self.ending.is_some()
    }

    fn score(&self) -> SplinterScore {
        let players = self
            .player_list()
            .iter()
            .map(|&p| PlayerScore {
                player: p,
                pieces: self.pieces(p),
                knockouts: self.knockouts(p),
                out: !self.is_in(p),
            })
            .collect();
        SplinterScore { players }
    }

    /// The step, a ring on each square named to choose the group that stays, and each piece the
    /// step pushes off the board leaving it, as the move's [`Effects`] say (none if it is illegal).
    fn signs(&self, m: SplinterMove) -> Vec<Sign> {
        let mut signs = vec![Sign::Arrow { from: m.from, to: m.to }];
        signs.extend(m.choices().map(Sign::Ring));
        let g = self.geometry();
        let towards = (g.col(m.to) as i32 - g.col(m.from) as i32, g.row(m.to) as i32 - g.row(m.from) as i32);
        let towards = (towards.0.clamp(-1, 1) as i8, towards.1.clamp(-1, 1) as i8);
        let pushed_off = self.effects(m).map(|e| e.pushed_off).unwrap_or_default();
        signs.extend(pushed_off.into_iter().filter_map(|(label, piece)| {
            let from = g.parse_label(label)?;
            Some(Sign::Leaving { from, towards, figure: piece.figure() })
        }));
        signs
    }
}

impl Playable for Splinter {
    const ABOUT: crate::game::About = super::ABOUT;
    const POSITIONS: &'static str = include_str!("splinter.perft");

    fn to_move(&self) -> usize {
        self.to_move.index()
    }

    fn start(size: Option<u8>, players: Option<u8>) -> Result<Splinter, SetupError> {
        let players = players.unwrap_or(4);
        super::ABOUT.check_players(Some(players))?;
        Splinter::new(size.or(default_size(players)).unwrap_or(MIN_SIZE), players)
    }

    fn with_setup(&self, cells: &[&str]) -> Result<Splinter, SetupError> {
        self.setup(cells)
    }

    fn points(&self) -> Vec<f64> {
        self.player_list().iter().map(|&p| self.pieces(p) as f64).collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result()
    }

    fn no_game(&self) -> Option<String> {
        match &self.ending {
            Some(e @ Ending::NoStart { .. }) => Some(e.to_string()),
            _ => None,
        }
    }

    /// A player who is out never wins: the last player standing is in, and a tie-break (a move
    /// that puts out every player still in, the quiet-move rule) ranks only the players who were
    /// in before the move.
    fn cannot_win(&self, player: usize) -> Option<String> {
        let p = *self.player_list().get(player)?;
        match self.standing(p) {
            Standing::In => None,
            Standing::Out { knockouts, pieces } => {
                let had = match (knockouts, pieces) {
                    (k, _) if k >= 2 => count(k as usize, "knockout"),
                    (_, 0) => "no piece left".to_string(),
                    (k, n) => format!("{} and {}", count(k as usize, "knockout"), count(n as usize, "piece")),
                };
                Some(format!("{p} is out of the game ({had}), and a player who is out never wins"))
            }
        }
    }
}

/// `Red`, `Red and Blue`, `Red, Blue and Green`.
fn and_list(players: &[Player]) -> String {
    let names: Vec<&str> = players.iter().map(|p| p.name()).collect();
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

fn number_word(n: usize) -> String {
    const WORDS: [&str; 11] = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
    WORDS.get(n).map_or(n.to_string(), |w| w.to_string())
}

fn ordinal(n: u8) -> &'static str {
    ["zeroth", "first", "second", "third", "fourth", "fifth"].get(n as usize).copied().unwrap_or("further")
}

/// `1 piece`, `3 pieces`.
fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

// The position code (grammar.md, "Position codes") reads and writes every field of the engine.
mod code;

#[cfg(test)]
mod tests {
    use super::*;
    use Player::*;

    #[test]
    fn ranking_reads_fewest_knockouts_then_most_pieces_then_a_tie() {
        let rank = |c: &[(Player, u8, u8)]| Splinter::rank(c);
        assert_eq!(
            rank(&[(Red, 3, 5), (Blue, 2, 1)]),
            (Some(Blue), "Blue wins with the fewest knockouts (Red 3, Blue 2)".to_string())
        );
        assert_eq!(
            rank(&[(Red, 3, 5), (Blue, 2, 1), (Green, 2, 2), (Yellow, 2, 1)]),
            (
                Some(Green),
                "Blue, Green and Yellow have the fewest knockouts (Red 3, Blue 2, Green 2, Yellow 2), and Green \
                 wins with the most pieces (Blue 1, Green 2, Yellow 1)"
                    .to_string()
            )
        );
        assert_eq!(
            rank(&[(Red, 3, 5), (Blue, 2, 1), (Green, 2, 1)]),
            (
                None,
                "Blue and Green have the fewest knockouts (Red 3, Blue 2, Green 2), and Blue and Green both have \
                 1 piece: the game ends in a tie"
                    .to_string()
            )
        );
        assert_eq!(
            rank(&[(Red, 2, 2), (Blue, 2, 2), (Green, 2, 1)]),
            (
                None,
                "Red, Blue and Green all have 2 knockouts, and Red and Blue have the most pieces (Red 2, Blue 2, \
                 Green 1): the game ends in a tie"
                    .to_string()
            )
        );
        assert_eq!(
            rank(&[(Red, 2, 0), (Blue, 2, 0), (Green, 2, 0)]),
            (None, "Red, Blue and Green all have 2 knockouts and 0 pieces: the game ends in a tie".to_string())
        );
    }

    /// The table of groups around a square agrees with a search for groups on a 3x3 board with
    /// those pieces around its empty centre.
    #[test]
    fn ring_groups_count_the_groups_around_a_square() {
        let grid = Grid { size: 3 };
        let piece = Some(Piece { player: Red, kind: Kind::Pawn });
        for ring in 0..=255u8 {
            let mut squares = [None; 9];
            for (_, d) in KING.iter().enumerate().filter(|(i, _)| ring & 1 << i != 0) {
                squares[grid.at(1 + d.dcol as i32, 1 + d.drow as i32).expect("a neighbour").0 as usize] = piece;
            }
            assert_eq!(RING_GROUPS[ring as usize], Groups::find(grid, &squares).count, "ring {ring:08b}");
        }
    }

    /// The groups of the pieces on a board `n` squares wide, found square by square with a
    /// stack, as plainly as can be: each group in reading order, the groups by their first square.
    fn plain_groups(n: usize, squares: &[Option<Piece>]) -> Vec<Vec<Cell>> {
        let mut seen = vec![false; squares.len()];
        let mut groups = Vec::new();
        for start in 0..squares.len() {
            if squares[start].is_none() || seen[start] {
                continue;
            }
            seen[start] = true;
            let (mut stack, mut group) = (vec![start], Vec::new());
            while let Some(c) = stack.pop() {
                group.push(Cell(c as u16));
                let (x, y) = ((c % n) as i32, (c / n) as i32);
                for d in KING {
                    let (x, y) = (x + d.dcol as i32, y + d.drow as i32);
                    if x < 0 || y < 0 || x >= n as i32 || y >= n as i32 {
                        continue;
                    }
                    let next = y as usize * n + x as usize;
                    if squares[next].is_some() && !std::mem::replace(&mut seen[next], true) {
                        stack.push(next);
                    }
                }
            }
            group.sort_unstable();
            groups.push(group);
        }
        groups
    }

    /// Random boards of every size, with up to [`MAX_PIECES`] pieces scattered or in clumps.
    fn random_boards() -> impl Iterator<Item = (Grid, Vec<Option<Piece>>)> {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            // xorshift64*: any fixed sequence does.
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32
        };
        let piece = Some(Piece { player: Red, kind: Kind::Pawn });
        (0..4000).map(move |_| {
            let n = 2 + next() as usize % (MAX_SIZE as usize - 1);
            let mut squares = vec![None; n * n];
            // Clumps near a centre, or pieces anywhere.
            let (centre, spread) = (next() as usize % (n * n), 1 + next() as usize % n);
            for _ in 0..next() as usize % (MAX_PIECES + 1) {
                let c = if next() % 2 == 0 {
                    let (x, y) = (centre % n, centre / n);
                    let x = (x + next() as usize % (2 * spread + 1)).saturating_sub(spread).min(n - 1);
                    let y = (y + next() as usize % (2 * spread + 1)).saturating_sub(spread).min(n - 1);
                    y * n + x
                } else {
                    next() as usize % (n * n)
                };
                squares[c] = piece;
            }
            (Grid { size: n as i32 }, squares)
        })
    }

    /// The flood fill a row at a time finds the groups that a plain flood fill finds, numbered
    /// alike, with their sizes, and the first of the largest groups.
    #[test]
    fn groups_agree_with_a_plain_flood_fill_on_random_boards() {
        for (grid, squares) in random_boards() {
            let groups = Groups::find(grid, &squares);
            let plain = plain_groups(grid.size as usize, &squares);
            let board = format!("{} squares wide: {:?}", grid.size, rows(grid, &squares));
            assert_eq!(groups.count as usize, plain.len(), "{board}");
            for (g, cells) in (1..=groups.count).zip(&plain) {
                assert_eq!(&groups.cells(g).collect::<Vec<_>>(), cells, "group {g} of {board}");
                assert_eq!(groups.sizes[g as usize - 1] as usize, cells.len(), "group {g} of {board}");
                assert!(cells.iter().all(|&c| groups.holds(g, c)), "group {g} of {board}");
            }
            let top = plain.iter().map(Vec::len).max().unwrap_or(0);
            let first_top = plain.iter().position(|g| g.len() == top).map_or(0, |i| i + 1);
            assert_eq!(groups.top.0 as usize, first_top, "{board}");
            assert_eq!(groups.largest().1 as usize, top, "{board}");
        }
    }

    /// A search that stops once the largest group is known to be the only one finds every group
    /// (as the whole search does) unless there is an only largest group, and then finds it, with
    /// its number and pieces, and no group as large among those it found.
    #[test]
    fn groups_found_until_the_largest_is_unique_keep_the_same_largest_group() {
        let mut cut_short = 0;
        for (grid, squares) in random_boards() {
            let whole = Groups::find(grid, &squares);
            let part = Groups::of_rows(grid, &rows(grid, &squares), true);
            let board = format!("{} squares wide: {:?}", grid.size, rows(grid, &squares));
            let (largest, size) = whole.largest();
            if !part.whole {
                cut_short += 1;
                assert_eq!(largest.count_ones(), 1, "{board}");
                assert_eq!(part.largest(), (1 << (part.top.0 - 1), size), "{board}");
            } else {
                assert_eq!(part.count, whole.count, "{board}");
                assert_eq!(part.sizes, whole.sizes, "{board}");
                assert_eq!(part.first, whole.first, "{board}");
            }
            assert_eq!(part.top, whole.top, "{board}");
        }
        // The random boards have some that stop short, and some that do not.
        assert!(cut_short > 100, "{cut_short} searches stopped short");
    }

    /// A start is the one made from the block, whether it is made or copied from the last one made
    /// (sizes and player counts in turn, each twice in a row).
    #[test]
    fn a_start_copied_from_the_last_one_is_the_one_made() {
        for players in [2, 3, 4, 5, 2] {
            for size in [MIN_SIZE, 9, 10, 13, MAX_SIZE, MAX_SIZE + 1, 10] {
                for _ in 0..2 {
                    let (made, got) = (Splinter::make(size, players), Splinter::new(size, players));
                    assert_eq!(got, made, "{size}x{size}, {players} players");
                    if let Ok(start) = got {
                        assert_eq!(start.moves_played(), 0);
                        assert_eq!(start.just_moved.capacity(), 0, "as a start made: the search counts its bytes");
                    }
                }
            }
        }
    }

    /// The pieces around a square, read away from the edges as runs of the board, are those
    /// found one direction at a time.
    #[test]
    fn around_reads_the_eight_neighbours() {
        for (grid, squares) in random_boards().take(500) {
            let pos = Splinter::new(grid.size as u8, 2).expect("a board");
            let pos = Splinter { squares: squares.into_boxed_slice(), ..pos };
            for c in pos.geometry().cells() {
                let (x, y) = grid.xy(c);
                let plain = KING.iter().enumerate().fold(0, |ring, (i, d)| {
                    match grid.at(x + d.dcol as i32, y + d.drow as i32) {
                        Some(n) if pos.piece(n).is_some() => ring | 1 << i,
                        _ => ring,
                    }
                });
                assert_eq!(pos.around(c), plain, "{c:?} on {:?}", rows(grid, &pos.squares));
            }
        }
    }

    /// The pieces' graph reads the pieces around a square, away from the edges, as runs of the
    /// board: the same as one direction at a time.
    #[test]
    fn the_graph_reads_the_eight_neighbours() {
        for (grid, squares) in random_boards().take(500) {
            let graph = Graph::new(grid, &squares);
            for c in 0..squares.len() {
                let (x, y) = grid.xy(Cell(c as u16));
                let plain = KING
                    .iter()
                    .filter_map(|d| grid.at(x + d.dcol as i32, y + d.drow as i32))
                    .filter_map(|n| graph.number(n))
                    .fold(0, |set, n| set | 1 << n);
                assert_eq!(graph.around(grid, (x, y)), plain, "{c} on {:?}", rows(grid, &squares));
            }
        }
    }

    /// Whenever the pieces around a step's square join up nearby, the pieces after the slide are
    /// one group, as a search of the whole board finds; and it does see some joins that the ring
    /// of eight alone does not.
    #[test]
    fn pieces_joined_nearby_stay_one_group() {
        let (mut joined, mut beyond_ring) = (0, 0);
        for (grid, mut squares) in random_boards() {
            // One group: the largest.
            let groups = Groups::find(grid, &squares);
            if groups.count == 0 {
                continue;
            }
            let kept = groups.members(groups.top.0);
            for c in occupied(grid, &groups.rows) {
                let (x, y) = grid.xy(c);
                if kept[y as usize] & 1 << x == 0 {
                    squares[c.0 as usize] = None;
                }
            }
            let pos = Splinter::new(grid.size as u8, 2).expect("a board");
            let pos = Splinter { squares: squares.into_boxed_slice(), one_group: true, ..pos };
            for from in pos.geometry().cells().filter(|&c| pos.piece(c).is_some()) {
                for (dir, &d) in KING.iter().enumerate() {
                    if grid.step(from, d).is_none() {
                        continue;
                    }
                    let s = pos.line(from, dir);
                    if !pos.joined_nearby(&s) {
                        continue;
                    }
                    let mut after = pos.squares.to_vec();
                    s.shift(grid, &mut after);
                    assert!(Groups::find(grid, &after).count <= 1, "{from:?} {dir} on {:?}", rows(grid, &pos.squares));
                    joined += 1;
                    let ring = pos.around(from) | if s.last == s.from { 1 << dir } else { 0 };
                    beyond_ring += (RING_GROUPS[ring as usize] > 1) as u32;
                }
            }
        }
        assert!(joined > 1000 && beyond_ring > 100, "{joined} joined, {beyond_ring} beyond the ring");
    }

    /// `Splinter::new` puts the default blocks straight onto the board: each start is what its
    /// diagram gives when read as a setup, on every board it fits.
    #[test]
    fn default_starts_are_their_own_setups() {
        for players in 2..=4 {
            for size in MIN_SIZE..=MAX_SIZE {
                let pos = Splinter::new(size, players).expect("a board");
                if pos.ending.is_some() {
                    continue;
                }
                let cells: Vec<&str> = pos.geometry().cells().map(|c| BoardView::glyph(&pos, c)).collect();
                assert_eq!(pos.setup(&cells).as_ref(), Ok(&pos), "{players} players on {size}x{size}");
            }
        }
    }

    #[test]
    fn every_glyph_reads_back() {
        for p in Player::ALL {
            for k in Kind::ALL {
                let piece = Piece { player: p, kind: k };
                assert_eq!(Piece::from_glyph(piece.glyph()), Some(piece));
                assert_eq!(piece.glyph().len(), 2);
            }
        }
        for bad in ["..", "5K", "0K", "1k", "1", "1KK", "K1", ""] {
            assert_eq!(Piece::from_glyph(bad), None, "{bad}");
        }
    }
}
