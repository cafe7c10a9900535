//! The Splinter Quad engine (seed text `seeds/splinter-quad.txt`; RULINGS Splinter Quad 1-5
//! override it).
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

use std::fmt;

use super::notation::{self, Written};
use super::start::{block_size, default_block, default_size};
use crate::game::{BoardView, Game, GameKind, Outcome, Recorded};
use crate::geometry::{Cell, CellLabel, Direction, Geometry, MAX_SQUARE};

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
    Red,
    Blue,
    Green,
    Yellow,
}

impl Player {
    pub const ALL: [Player; 4] = [Player::Red, Player::Blue, Player::Green, Player::Yellow];
    /// The names, in turn order, as the record tags name them.
    pub const NAMES: [&'static str; 4] = ["Red", "Blue", "Green", "Yellow"];

    /// The index into [`Recorded::player_names`]: Red 0, Blue 1, Green 2, Yellow 3.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The number the glyphs write: Red 1, Blue 2, Green 3, Yellow 4.
    pub fn number(self) -> u8 {
        self as u8 + 1
    }

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
    King,
    Rook,
    Bishop,
    Pawn,
}

impl Kind {
    pub const ALL: [Kind; 4] = [Kind::King, Kind::Rook, Kind::Bishop, Kind::Pawn];

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

    pub fn name(self) -> &'static str {
        ["king", "rook", "bishop", "pawn"][self.index()]
    }

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
    pub player: Player,
    pub kind: Kind,
}

const GLYPHS: [[&str; 4]; 4] =
    [["1K", "1R", "1B", "1P"], ["2K", "2R", "2B", "2P"], ["3K", "3R", "3B", "3P"], ["4K", "4R", "4B", "4P"]];

impl Piece {
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
    pub from: Cell,
    pub to: Cell,
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
    In,
    /// Out of the game, with the knockouts and pieces they had when they went out.
    Out {
        knockouts: u8,
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
    NoStart { size: u8, players: u8 },
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
    GameOver(Ending),
    OffBoard {
        cell: CellLabel,
        size: u8,
    },
    NoPiece {
        player: Player,
        cell: CellLabel,
    },
    NotAStep {
        from: CellLabel,
        to: CellLabel,
    },
    /// A piece, moved or pushed, would end on the square it left on the previous move.
    Returns {
        piece: Piece,
        at: CellLabel,
        back_to: CellLabel,
    },
    /// The move (or, once the players in `after` have gone out, the pieces left) splits into
    /// `groups` largest groups of `size` pieces, and the move does not say which stays.
    ChoiceNeeded {
        after: Vec<Player>,
        groups: u8,
        size: u16,
        like: String,
    },
    /// A `/square` names a square outside every one of the equal largest groups.
    NotInLargest {
        cell: CellLabel,
    },
    /// A `/square` with no tie left to decide: the move meets only `ties` ties.
    NoChoice {
        cell: CellLabel,
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

/// Why a board size, player count or setup diagram cannot start a game.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SetupError {
    #[error(
        "Splinter Quad is played on square boards from {MIN_SIZE}x{MIN_SIZE} to {MAX_SIZE}x{MAX_SIZE}, not {0}x{0}"
    )]
    Size(u8),
    #[error("Splinter Quad is a game for two to four players, not {0}")]
    Players(u8),
    #[error("the setup has {got} cells; the {size}x{size} board has {}", *size as usize * *size as usize)]
    CellCount { size: u8, got: usize },
    #[error(
        "{cell}: `{glyph}` is not a Splinter Quad square: expected `..`, or a player's number 1-4 and K, R, B or P, \
         like 1K or 3P"
    )]
    Glyph { cell: CellLabel, glyph: String },
    #[error("{cell}: `{glyph}` is a piece of player {number}, but the game has {players} players")]
    NoSuchPlayer { cell: CellLabel, glyph: String, number: u8, players: u8 },
    #[error(
        "{cell}: a {} {piece}: each player has at most 1 king, 2 rooks, 2 bishops and 4 pawns",
        ordinal(*.nth)
    )]
    TooMany { cell: CellLabel, piece: Piece, nth: u8 },
    #[error("the setup gives {0} no piece: every player needs at least one")]
    NoPiece(Player),
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
    pub player: Player,
    /// Pieces on the board (none once out).
    pub pieces: u8,
    /// Knockouts taken (as they stood when the player went out, if out).
    pub knockouts: u8,
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
const KING: [Direction; 8] = [
    Direction { dcol: 0, drow: -1 },
    Direction { dcol: 1, drow: -1 },
    Direction { dcol: 1, drow: 0 },
    Direction { dcol: 1, drow: 1 },
    Direction { dcol: 0, drow: 1 },
    Direction { dcol: -1, drow: 1 },
    Direction { dcol: -1, drow: 0 },
    Direction { dcol: -1, drow: -1 },
];

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
}

impl Splinter {
    /// The default start for `players` on a `size` board, or the empty board that waits for a setup
    /// diagram if the default block does not fit (see [`super::start`]).
    pub fn new(size: u8, players: u8) -> Result<Splinter, SetupError> {
        let Some(block) = default_block(players) else { return Err(SetupError::Players(players)) };
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(SetupError::Size(size));
        }
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
        };
        let (width, height) = block_size(block);
        if width > size || height > size {
            pos.ending = Some(Ending::NoStart { size, players });
            return Ok(pos);
        }
        let (left, top) = ((size - width) / 2, (size - height) / 2);
        let mut cells = vec![EMPTY_GLYPH; size as usize * size as usize];
        for (r, rank) in block.iter().enumerate() {
            for (c, glyph) in rank.split_whitespace().enumerate() {
                cells[(top as usize + r) * size as usize + left as usize + c] = glyph;
            }
        }
        pos.setup(&cells)
    }

    /// The default start for `players` on its default board.
    pub fn default_start(players: u8) -> Result<Splinter, SetupError> {
        let size = default_size(players).ok_or(SetupError::Players(players))?;
        Splinter::new(size, players)
    }

    /// A start on this board for this number of players with the pieces of a setup diagram, one
    /// glyph per square in reading order; Red to move.
    pub fn setup(&self, cells: &[&str]) -> Result<Splinter, SetupError> {
        let g = self.geometry();
        let n = self.size as usize * self.size as usize;
        if cells.len() != n {
            return Err(SetupError::CellCount { size: self.size, got: cells.len() });
        }
        let mut squares = vec![None; n].into_boxed_slice();
        let mut army = [[0u8; 4]; 4];
        for (c, &glyph) in g.cells().zip(cells) {
            if glyph == EMPTY_GLYPH {
                continue;
            }
            let cell = g.label(c);
            let piece = Piece::from_glyph(glyph).ok_or_else(|| SetupError::Glyph { cell, glyph: glyph.into() })?;
            if piece.player.index() >= self.players as usize {
                return Err(SetupError::NoSuchPlayer {
                    cell,
                    glyph: glyph.into(),
                    number: piece.player.number(),
                    players: self.players,
                });
            }
            let have = &mut army[piece.player.index()][piece.kind.index()];
            *have += 1;
            if *have > piece.kind.full_army() {
                return Err(SetupError::TooMany { cell, piece, nth: *have });
            }
            squares[c.0 as usize] = Some(piece);
        }
        if let Some(&p) = self.player_list().iter().find(|p| army[p.index()].iter().all(|&k| k == 0)) {
            return Err(SetupError::NoPiece(p));
        }
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
        })
    }

    pub fn size(&self) -> u8 {
        self.size
    }

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

    pub fn piece(&self, c: Cell) -> Option<Piece> {
        self.squares.get(c.0 as usize).copied().flatten()
    }

    /// The player to move.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    pub fn standing(&self, p: Player) -> Standing {
        self.standing[p.index()]
    }

    pub fn is_in(&self, p: Player) -> bool {
        p.index() < self.players as usize && self.standing[p.index()] == Standing::In
    }

    /// The players still in, in turn order.
    pub fn players_in(&self) -> Vec<Player> {
        self.player_list().iter().copied().filter(|&p| self.is_in(p)).collect()
    }

    /// The pieces `p` has on the board.
    pub fn pieces(&self, p: Player) -> u8 {
        self.squares.iter().flatten().filter(|x| x.player == p).count() as u8
    }

    /// The knockouts `p` has taken: the types they had at the start and have run out of (as they
    /// stood when `p` went out, if out).
    pub fn knockouts(&self, p: Player) -> u8 {
        match self.standing[p.index()] {
            Standing::Out { knockouts, .. } => knockouts,
            Standing::In => run_out(&counts(&self.squares), &self.army, p).count() as u8,
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
        groups(self.size as u16, &self.squares)
    }

    fn label(&self, c: Cell) -> CellLabel {
        self.geometry().label(c)
    }

    /// The direction from `from` to `to` if they are neighbours.
    fn direction(&self, from: Cell, to: Cell) -> Option<Direction> {
        let g = self.geometry();
        KING.iter().copied().find(|&d| g.step(from, d) == Some(to))
    }

    /// The first piece the step from `from` in direction `d` would bring back to the square it left
    /// on the previous move: the moved piece, then the pushed line in order.
    fn returning(&self, from: Cell, d: Direction) -> Option<(Cell, Cell)> {
        let g = self.geometry();
        let mut at = Some(from);
        while let Some(c) = at.filter(|&c| self.piece(c).is_some()) {
            let next = g.step(c, d);
            if let Some(n) = next.filter(|&n| self.left_from(c) == Some(n)) {
                return Some((c, n));
            }
            at = next;
        }
        None
    }

    /// What the move does, or why it is illegal.
    pub fn effects(&self, m: SplinterMove) -> Result<Effects, Illegal> {
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
        let d =
            self.direction(m.from, m.to).ok_or(Illegal::NotAStep { from: self.label(m.from), to: self.label(m.to) })?;
        if let Some((at, back_to)) = self.returning(m.from, d) {
            let piece = self.piece(at).expect("a returning piece stands on its square");
            return Err(Illegal::Returns { piece, at: self.label(at), back_to: self.label(back_to) });
        }
        let mut s = Settling::slide(self, m.from, d);
        let mut choices = m.choices();
        let mut made: Vec<Cell> = Vec::new();
        while let Some(tie) = s.next_tie() {
            let Some(cell) = choices.next() else {
                let mut like = format!("{}{}", self.label(m.from), self.label(m.to));
                for c in made.iter().chain([&tie.groups[0][0]]) {
                    like.push_str(&format!("/{}", self.label(*c)));
                }
                return Err(Illegal::ChoiceNeeded {
                    after: tie.after,
                    groups: tie.groups.len() as u8,
                    size: tie.groups[0].len() as u16,
                    like,
                });
            };
            let Some(group) = tie.groups.iter().find(|grp| grp.contains(&cell)) else {
                return Err(Illegal::NotInLargest { cell: self.label(cell) });
            };
            s.keep(group);
            made.push(cell);
        }
        if let Some(cell) = choices.next() {
            return Err(Illegal::NoChoice { cell: self.label(cell), ties: made.len() as u8 });
        }
        Ok(s.effects)
    }

    /// Every way to name the groups that stay, for a move settling from `s`: one list of squares
    /// per legal token.
    fn choice_lists(mut s: Settling, depth: usize) -> Vec<Vec<Cell>> {
        let Some(tie) = s.next_tie() else { return vec![Vec::new()] };
        if depth >= MAX_CHOICES {
            return Vec::new();
        }
        let mut lists = Vec::new();
        for group in &tie.groups {
            let mut t = s.clone();
            t.keep(group);
            let rest = Splinter::choice_lists(t, depth + 1);
            for &c in group {
                lists.extend(rest.iter().map(|r| std::iter::once(c).chain(r.iter().copied()).collect()));
            }
        }
        lists
    }

    /// Applies a settled move.
    fn commit(&mut self, s: Settling) {
        let mover = self.to_move;
        let Settling { squares, standing, effects, moved, .. } = s;
        self.just_moved = moved.into_iter().filter(|&(now, _)| squares[now.0 as usize].is_some()).collect();
        self.squares = squares;
        let before = self.players_in();
        self.standing = standing;
        self.quiet = if effects.pieces_gone() > 0 { 0 } else { self.quiet.saturating_add(1) };
        self.finish_turn(mover, &before);
    }

    /// Moves the turn on and sees whether the game is over.
    fn finish_turn(&mut self, mover: Player, before: &[Player]) {
        self.moves = self.moves.saturating_add(1);
        let left = self.players_in();
        self.ending = match left.as_slice() {
            [] => Some(Ending::AllOut(before.to_vec())),
            [last] => Some(Ending::LastStanding(*last)),
            _ if self.quiet >= QUIET_MOVES => Some(Ending::Quiet),
            _ => None,
        };
        let n = self.players as usize;
        if let Some(next) = (1..=n).map(|k| Player::ALL[(mover.index() + k) % n]).find(|&p| self.is_in(p)) {
            self.to_move = next;
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

/// How many pieces of each type each player has on `squares`: `[player][kind]`.
fn counts(squares: &[Option<Piece>]) -> [[u8; 4]; 4] {
    let mut n = [[0u8; 4]; 4];
    for p in squares.iter().flatten() {
        n[p.player.index()][p.kind.index()] += 1;
    }
    n
}

/// The types `p` had at the start (`army`) and has no piece of now (`counts`).
fn run_out(counts: &[[u8; 4]; 4], army: &[[u8; 4]; 4], p: Player) -> impl Iterator<Item = Kind> {
    let (have, had) = (counts[p.index()], army[p.index()]);
    Kind::ALL.into_iter().filter(move |k| had[k.index()] > 0 && have[k.index()] == 0)
}

/// The groups of pieces on `squares` (a `size` x `size` board), joined through sides and
/// corners, each in reading order, ordered by their first square. Plain index arithmetic: this is
/// the engine's inner loop.
fn groups(size: u16, squares: &[Option<Piece>]) -> Vec<Vec<Cell>> {
    let n = size as i32;
    let mut seen = vec![false; squares.len()];
    let mut out = Vec::new();
    let mut stack = Vec::new();
    for start in 0..squares.len() {
        if squares[start].is_none() || seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let mut group = Vec::new();
        while let Some(c) = stack.pop() {
            group.push(Cell(c as u16));
            let (col, row) = (c as i32 % n, c as i32 / n);
            for (dc, dr) in KING.iter().map(|d| (d.dcol as i32, d.drow as i32)) {
                let (x, y) = (col + dc, row + dr);
                if x < 0 || y < 0 || x >= n || y >= n {
                    continue;
                }
                let next = (y * n + x) as usize;
                if squares[next].is_some() && !seen[next] {
                    seen[next] = true;
                    stack.push(next);
                }
            }
        }
        group.sort_unstable();
        out.push(group);
    }
    out
}

/// A tie the mover must decide: the equal largest groups, and who went out just before (nobody in
/// the first round).
struct Tie {
    groups: Vec<Vec<Cell>>,
    after: Vec<Player>,
}

/// A move being settled: the board after the slide, then round after round of groups and
/// eliminations.
#[derive(Clone)]
struct Settling {
    geometry: Geometry,
    players: u8,
    army: [[u8; 4]; 4],
    squares: Box<[Option<Piece>]>,
    standing: [Standing; 4],
    /// Types each player has run out of so far, so that each knockout is reported once.
    run_out: [[bool; 4]; 4],
    /// Pieces moved by the slide: where each stands and the square it left.
    moved: Vec<(Cell, Cell)>,
    effects: Effects,
    /// The players put out in the latest round.
    last_out: Vec<Player>,
    done: bool,
}

impl Settling {
    /// The board once the piece on `from` has stepped in direction `d` with the line in front of it.
    fn slide(pos: &Splinter, from: Cell, d: Direction) -> Settling {
        let g = pos.geometry();
        let mut squares = pos.squares.clone();
        let mut effects = Effects::default();
        let mut line = vec![from];
        let mut next = g.step(from, d);
        while let Some(c) = next.filter(|&c| squares[c.0 as usize].is_some()) {
            line.push(c);
            next = g.step(c, d);
        }
        let mut moved = Vec::with_capacity(line.len());
        for &c in line.iter().rev() {
            let piece = squares[c.0 as usize].take();
            match (g.step(c, d), piece) {
                (Some(to), _) => {
                    squares[to.0 as usize] = piece;
                    moved.push((to, c));
                }
                (None, Some(p)) => effects.pushed_off.push((g.label(c), p)),
                (None, None) => {}
            }
        }
        let mut run_out_now = [[false; 4]; 4];
        let before = counts(&pos.squares);
        for p in pos.player_list() {
            for k in run_out(&before, &pos.army, *p) {
                run_out_now[p.index()][k.index()] = true;
            }
        }
        Settling {
            geometry: g,
            players: pos.players,
            army: pos.army,
            squares,
            standing: pos.standing,
            run_out: run_out_now,
            moved,
            effects,
            last_out: Vec::new(),
            done: false,
        }
    }

    fn players_in(&self) -> impl Iterator<Item = Player> + '_ {
        Player::ALL[..self.players as usize].iter().copied().filter(|p| self.standing[p.index()] == Standing::In)
    }

    /// Runs the rounds until the mover has to choose between equal largest groups, or the move is
    /// settled (`None`).
    fn next_tie(&mut self) -> Option<Tie> {
        while !self.done {
            let groups = groups(self.geometry.width(), &self.squares);
            if groups.len() > 1 {
                let top = groups.iter().map(Vec::len).max().unwrap_or(0);
                let largest: Vec<Vec<Cell>> = groups.into_iter().filter(|g| g.len() == top).collect();
                if largest.len() > 1 {
                    return Some(Tie { groups: largest, after: self.last_out.clone() });
                }
                self.keep(&largest[0]);
            } else {
                self.eliminate();
            }
        }
        None
    }

    /// Keeps only the pieces of `group`, then takes the knockouts and eliminations that follow.
    fn keep(&mut self, group: &[Cell]) {
        for i in 0..self.squares.len() {
            if self.squares[i].is_some() && group.binary_search(&Cell(i as u16)).is_err() {
                let p = self.squares[i].take().expect("just checked");
                self.effects.splintered.push((self.geometry.label(Cell(i as u16)), p));
            }
        }
        self.eliminate();
    }

    /// Knockouts, and the players they put out; another round follows if anybody went out and two
    /// players or more are still in.
    fn eliminate(&mut self) {
        let mut going = Vec::new();
        let now = counts(&self.squares);
        for p in self.players_in().collect::<Vec<_>>() {
            for k in run_out(&now, &self.army, p) {
                if !std::mem::replace(&mut self.run_out[p.index()][k.index()], true) {
                    self.effects.knockouts.push((p, k));
                }
            }
            let knockouts = self.run_out[p.index()].iter().filter(|&&r| r).count() as u8;
            let pieces = now[p.index()].iter().sum::<u8>();
            if knockouts >= 2 || pieces == 0 {
                going.push((p, knockouts, pieces));
            }
        }
        for &(p, knockouts, pieces) in &going {
            self.standing[p.index()] = Standing::Out { knockouts, pieces };
            self.effects.out.push((p, knockouts, pieces));
        }
        if !going.is_empty() {
            for i in 0..self.squares.len() {
                if let Some(x) = self.squares[i].filter(|x| going.iter().any(|g| g.0 == x.player)) {
                    self.squares[i] = None;
                    self.effects.removed.push((self.geometry.label(Cell(i as u16)), x));
                }
            }
        }
        self.last_out = going.iter().map(|g| g.0).collect();
        self.done = going.is_empty() || self.players_in().count() < 2;
    }
}

impl BoardView for Splinter {
    fn geometry(&self) -> Geometry {
        Splinter::geometry(self)
    }

    fn glyph(&self, cell: Cell) -> &'static str {
        self.piece(cell).map_or(EMPTY_GLYPH, Piece::glyph)
    }
}

impl Game for Splinter {
    type Move = SplinterMove;
    type Illegal = Illegal;
    type Score = SplinterScore;

    fn kind(&self) -> GameKind {
        GameKind::Splinter
    }

    fn legal_moves(&self) -> Vec<SplinterMove> {
        if self.ending.is_some() {
            return Vec::new();
        }
        let g = self.geometry();
        let mut moves = Vec::new();
        for from in g.cells().filter(|&c| self.piece(c).is_some_and(|p| p.player == self.to_move)) {
            for d in KING {
                let Some(to) = g.step(from, d) else { continue };
                if self.returning(from, d).is_some() {
                    continue;
                }
                let s = Settling::slide(self, from, d);
                moves.extend(Splinter::choice_lists(s, 0).iter().map(|keep| SplinterMove::keeping(from, to, keep)));
            }
        }
        moves
    }

    fn check(&self, m: SplinterMove) -> Result<(), Illegal> {
        self.effects(m).map(|_| ())
    }

    /// Plays any move without asking whether it is legal (lenient replay). A step of one of the
    /// mover's pieces to a neighbouring square is played as written, even back to where a piece
    /// came from; a tie the move does not decide (or decides with a square outside the largest
    /// groups) keeps the largest group that comes first in reading order. Anything else (a square
    /// off the board, no piece of the mover's, not a step) moves nothing but uses the turn, so
    /// the players stay in step with the record. A finished game does not change.
    fn play_unchecked(&mut self, m: SplinterMove) {
        if self.ending.is_some() {
            return;
        }
        let g = self.geometry();
        let step = (g.contains(m.from) && g.contains(m.to))
            .then(|| self.direction(m.from, m.to))
            .flatten()
            .filter(|_| self.piece(m.from).is_some_and(|p| p.player == self.to_move));
        match step {
            Some(d) => {
                let mut s = Settling::slide(self, m.from, d);
                let mut choices = m.choices();
                while let Some(tie) = s.next_tie() {
                    let wanted = choices.next();
                    let group = tie.groups.iter().find(|grp| wanted.is_some_and(|c| grp.contains(&c)));
                    s.keep(group.unwrap_or(&tie.groups[0]));
                }
                self.commit(s);
            }
            None => {
                let mover = self.to_move;
                let before = self.players_in();
                self.just_moved.clear();
                self.quiet = self.quiet.saturating_add(1);
                self.finish_turn(mover, &before);
            }
        }
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

    fn write_move(&self, m: SplinterMove) -> String {
        notation::write(self.geometry(), m)
    }
}

impl Recorded for Splinter {
    type Written = Written;
    const TAG: &'static str = "Splinter Quad";

    fn player_names(&self) -> &'static [&'static str] {
        &Player::NAMES[..self.players as usize]
    }

    fn to_move(&self) -> usize {
        self.to_move.index()
    }

    fn start(size: Option<u8>, players: Option<u8>) -> Result<Splinter, String> {
        let players = players.unwrap_or(4);
        let size = match size {
            Some(s) => s,
            None => default_size(players).ok_or(SetupError::Players(players).to_string())?,
        };
        Splinter::new(size, players).map_err(|e| e.to_string())
    }

    fn with_setup(&self, cells: &[&str]) -> Result<Splinter, String> {
        self.setup(cells).map_err(|e| e.to_string())
    }

    fn parse_move(text: &str) -> Result<Written, String> {
        notation::parse(text)
    }

    fn resolve(&self, written: Written) -> Result<SplinterMove, Illegal> {
        let g = self.geometry();
        let cell = |l: CellLabel| g.parse_label(l).ok_or(Illegal::OffBoard { cell: l, size: self.size });
        let mut m = SplinterMove::step(cell(written.from)?, cell(written.to)?);
        for (slot, l) in m.keep.iter_mut().zip(written.keep) {
            *slot = l.map(cell).transpose()?;
        }
        Ok(m)
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
