//! The Quarod engine (RULINGS, Quarod 1-6).
//!
//! Pieces are squares with a rod towards one edge. A placement puts an engaged Black-White pair on
//! two adjacent empty squares; a board swap exchanges two adjacent pieces of different colours that
//! are engaged elsewhere, turning them to engage each other. Neither move depends on whose turn it
//! is, so once the mover has nothing to do, neither has the opponent, and the game ends in two
//! passes. Every board swap removes one engagement and every placement adds one, so a game from an
//! empty board lasts at most one move per square, plus the pie swap and the two passes.

use std::fmt;
use std::ops::ControlFlow;

use crate::game::{BoardView, BreaksRule, Game, Outcome, SetupError};
use crate::game::{Figure, Heading, Mark, Region, Shape, Sign};
use crate::geometry::{Cell, CellLabel, Direction, Geometry, MAX_SQUARE};

/// The board's default edge (RULINGS, Quarod 1).
pub const DEFAULT_SIZE: u8 = 8;
/// The smallest board: one placement must fit.
pub const MIN_SIZE: u8 = 2;

/// The two colours. Scores and results go by colour; after a pie swap the players hold the other
/// colour than the one they started with.
pub use crate::game::Colour;

/// The edge a piece's rod points to. North is towards row 1, the top of the diagram.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Rod {
    /// Towards row 1.
    North,
    /// Towards the last column.
    East,
    /// Away from row 1.
    South,
    /// Towards column `a`.
    West,
}

impl Rod {
    /// Every rod, clockwise from North.
    pub const ALL: [Rod; 4] = [Rod::North, Rod::East, Rod::South, Rod::West];

    /// The rod pointing the other way.
    pub fn opposite(self) -> Rod {
        match self {
            Rod::North => Rod::South,
            Rod::East => Rod::West,
            Rod::South => Rod::North,
            Rod::West => Rod::East,
        }
    }

    /// The step from a piece to the square its rod points at.
    pub fn direction(self) -> Direction {
        match self {
            Rod::North => Direction { dcol: 0, drow: -1 },
            Rod::East => Direction { dcol: 1, drow: 0 },
            Rod::South => Direction { dcol: 0, drow: 1 },
            Rod::West => Direction { dcol: -1, drow: 0 },
        }
    }

    /// The second character of a glyph: `^`, `>`, `v` or `<`.
    pub fn symbol(self) -> char {
        match self {
            Rod::North => '^',
            Rod::East => '>',
            Rod::South => 'v',
            Rod::West => '<',
        }
    }

    /// The rod a glyph's second character shows (`^`, `>`, `v`, `<`).
    pub fn from_symbol(c: char) -> Option<Rod> {
        Rod::ALL.into_iter().find(|r| r.symbol() == c)
    }

    /// The rod a piece on `from` needs to point at `to`, if the two squares are adjacent.
    pub fn towards(geo: Geometry, from: Cell, to: Cell) -> Option<Rod> {
        if !geo.contains(from) || !geo.contains(to) {
            return None;
        }
        Rod::ALL.into_iter().find(|r| geo.step(from, r.direction()) == Some(to))
    }
}

/// A piece on the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Its colour.
    pub colour: Colour,
    /// Where its rod points.
    pub rod: Rod,
}

const GLYPHS: [[&str; 4]; 2] = [["B^", "B>", "Bv", "B<"], ["W^", "W>", "Wv", "W<"]];
/// The glyph of an empty square.
pub const EMPTY_GLYPH: &str = "..";

impl Piece {
    /// Colour then rod, as the diagrams write it: `B>`, `Wv`.
    pub fn glyph(self) -> &'static str {
        GLYPHS[self.colour.index()][self.rod as usize]
    }

    /// Reads a glyph written by [`Piece::glyph`].
    pub fn from_glyph(s: &str) -> Option<Piece> {
        let mut chars = s.chars();
        let colour = match chars.next()? {
            'B' => Colour::Black,
            'W' => Colour::White,
            _ => return None,
        };
        let rod = Rod::from_symbol(chars.next()?)?;
        chars.next().is_none().then_some(Piece { colour, rod })
    }
}

/// A move as the engine plays it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum QuarodMove {
    /// A Black piece on `black` and a White piece on the adjacent `white`, rods towards each other.
    Place {
        /// The Black piece's square.
        black: Cell,
        /// The White piece's square.
        white: Cell,
    },
    /// The pieces on `a` and `b` exchange squares and turn their rods towards each other. The same
    /// swap can be written in either order, and both orders are legal moves.
    BoardSwap {
        /// One piece's square.
        a: Cell,
        /// The other's, adjacent to it.
        b: Cell,
    },
    /// A pass: legal only when the mover has neither a placement nor a board swap.
    Pass,
    /// The pie rule: the players exchange colours and White is to move again.
    SwapSides,
}

/// Why a move is illegal, in the game's words. Cells are labels so the message stands alone.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Illegal {
    /// The game is over: both players passed in succession.
    GameOver,
    /// A square is not on the board.
    OffBoard {
        /// The square.
        cell: CellLabel,
        /// The board's size.
        size: u8,
    },
    /// Both squares of a placement or a board swap are the same.
    SameSquare {
        /// The square.
        cell: CellLabel,
    },
    /// The two squares are not side by side.
    NotAdjacent {
        /// One square.
        a: CellLabel,
        /// The other.
        b: CellLabel,
    },
    /// A placement on an occupied square.
    NotEmpty {
        /// The square.
        cell: CellLabel,
    },
    /// A board swap names an empty square.
    NoPiece {
        /// The square.
        cell: CellLabel,
    },
    /// A board swap of two pieces of one colour.
    SameColour {
        /// One piece's square.
        a: CellLabel,
        /// The other's.
        b: CellLabel,
    },
    /// A board swap of two pieces engaged to each other already.
    EngagedToEachOther {
        /// One piece's square.
        a: CellLabel,
        /// The other's.
        b: CellLabel,
    },
    /// A board swap of a piece engaged to no piece.
    NotEngaged {
        /// Its square.
        cell: CellLabel,
    },
    /// `swap` anywhere but on White's first turn.
    SwapSidesNotNow,
    /// A pass while a placement or a board swap exists; `possible` is one of them.
    MayNotPass {
        /// The colour to move.
        colour: Colour,
        /// A move it could make instead.
        possible: Action,
    },
}

/// A placement or a board swap, by its squares' labels: what makes a pass illegal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Action {
    /// A Black piece on `black` and a White piece on `white`.
    Place {
        /// The Black piece's square.
        black: CellLabel,
        /// The White piece's square.
        white: CellLabel,
    },
    /// The pieces on `a` and `b` swap squares.
    BoardSwap {
        /// One square.
        a: CellLabel,
        /// The other.
        b: CellLabel,
    },
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Illegal::*;
        match self {
            GameOver => write!(f, "the game is over: both players passed in succession"),
            OffBoard { cell, size } => write!(f, "{cell} is not on the {size}x{size} board"),
            SameSquare { cell } => write!(f, "{cell} is named twice: a move takes two adjacent squares"),
            NotAdjacent { a, b } => write!(f, "{a} and {b} are not adjacent"),
            NotEmpty { cell } => write!(f, "{cell} is not empty"),
            NoPiece { cell } => write!(f, "there is no piece on {cell}"),
            SameColour { a, b } => write!(f, "the pieces on {a} and {b} are the same colour"),
            EngagedToEachOther { a, b } => write!(f, "the piece on {a} is engaged to the piece on {b} already"),
            NotEngaged { cell } => write!(f, "the piece on {cell} is not engaged to any piece"),
            SwapSidesNotNow => write!(f, "a swap of sides is only allowed on White's first turn"),
            MayNotPass { colour, possible } => match possible {
                Action::Place { black, white } => {
                    write!(f, "{colour} may not pass: a placement on {black}/{white} is possible")
                }
                Action::BoardSwap { a, b } => {
                    write!(f, "{colour} may not pass: a board swap of {a} and {b} is possible")
                }
            },
        }
    }
}

impl std::error::Error for Illegal {}

/// Each reason names its section of docs/rules/quarod.md.
impl BreaksRule for Illegal {
    const RULES: &'static [&'static str] = &["end", "board", "pairs", "placement", "board-swap", "pie", "pass"];

    fn rule(&self) -> &'static str {
        use Illegal::*;
        match self {
            GameOver => "end",
            OffBoard { .. } => "board",
            SameSquare { .. } | NotAdjacent { .. } => "pairs",
            NotEmpty { .. } => "placement",
            NoPiece { .. } | SameColour { .. } | EngagedToEachOther { .. } | NotEngaged { .. } => "board-swap",
            SwapSidesNotNow => "pie",
            MayNotPass { .. } => "pass",
        }
    }
}

/// Both colours' scores (RULINGS, Quarod 6).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct QuarodScore {
    /// Each colour's score, Black first: the largest group size at which it has more groups than
    /// the other colour, or 0.
    pub points: [u16; 2],
    /// At each colour's scoring size: its own number of groups of that size, then the other's
    /// (both 0 for a score of 0).
    pub groups: [[u16; 2]; 2],
}

impl QuarodScore {
    /// The colour with the higher score; `None` when both score 0 (two scores can only be equal
    /// at 0, since more groups of one size for one colour means fewer for the other).
    pub fn leader(&self) -> Option<Colour> {
        match self.points[0].cmp(&self.points[1]) {
            std::cmp::Ordering::Greater => Some(Colour::Black),
            std::cmp::Ordering::Less => Some(Colour::White),
            std::cmp::Ordering::Equal => None,
        }
    }
}

impl fmt::Display for QuarodScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, colour) in Colour::BOTH.into_iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            let (points, [own, other]) = (self.points[i], self.groups[i]);
            write!(f, "{colour} {points}")?;
            if points > 0 {
                write!(f, " ({own} to {other} groups of size {points})")?;
            }
        }
        Ok(())
    }
}

/// The squares next to square `a` of a `w`-wide board of `n` squares, north, east, south, west
/// (the order of [`Geometry::neighbours`]), each with whether it is on the board.
#[inline]
fn rook_neighbours(a: usize, w: usize, n: usize) -> [(bool, usize); 4] {
    debug_assert_eq!(n, w * w);
    rook_neighbours_at(a, a % w, a / w, w)
}

/// [`rook_neighbours`] of square `a` in column `col` and row `row` of the square `w`-wide board,
/// for loops that go row by row and so know both without a division.
#[inline]
fn rook_neighbours_at(a: usize, col: usize, row: usize, w: usize) -> [(bool, usize); 4] {
    [(row > 0, a.wrapping_sub(w)), (col + 1 < w, a + 1), (row + 1 < w, a + w), (col > 0, a.wrapping_sub(1))]
}

/// A board row by row, each row a word with bit `col` for the square in column `col`: what
/// [`Quarod::first_action`] asks of every square, for whole rows at once. One row past the last is
/// all zeros, so that looking south from the last row finds nothing.
struct RowMasks {
    /// The board's side.
    width: usize,
    /// The empty squares.
    empty: [u32; MAX_SQUARE as usize + 1],
    /// The Black pieces.
    black: [u32; MAX_SQUARE as usize + 1],
    /// The pieces engaged to the piece east of them.
    east_pairs: [u32; MAX_SQUARE as usize + 1],
    /// The pieces engaged to the piece south of them.
    south_pairs: [u32; MAX_SQUARE as usize + 1],
}

impl RowMasks {
    fn of(pos: &Quarod) -> RowMasks {
        let w = pos.geo.width() as usize;
        let rows = [0u32; MAX_SQUARE as usize + 1];
        let mut masks = RowMasks { width: w, empty: rows, black: rows, east_pairs: rows, south_pairs: rows };
        // Each rod's squares, by row: engagements are rods pointing at each other.
        let mut rods = [rows; 4];
        for (r, row) in pos.cells.chunks_exact(w).enumerate() {
            for (c, cell) in row.iter().enumerate() {
                let bit = 1u32 << c;
                match cell {
                    None => masks.empty[r] |= bit,
                    Some(p) => {
                        if p.colour == Colour::Black {
                            masks.black[r] |= bit;
                        }
                        rods[p.rod as usize][r] |= bit;
                    }
                }
            }
        }
        let [north, east, south, west] = rods;
        for r in 0..w {
            let black = masks.black[r];
            // A rod at the east edge or in the last row points off the board: the zeros past it
            // pair it with nothing.
            masks.east_pairs[r] = east[r] & west[r] >> 1 & (black ^ black >> 1);
            masks.south_pairs[r] = south[r] & north[r + 1] & (black ^ masks.black[r + 1]);
        }
        masks
    }

    /// The engaged pieces of row `r` (none past the last row).
    fn engaged(&self, r: usize) -> u32 {
        let north = if r > 0 { self.south_pairs[r - 1] } else { 0 };
        self.east_pairs[r] | self.east_pairs[r] << 1 | self.south_pairs[r] | north
    }
}

/// The squares of the largest board: room for any board's squares in an array on the stack.
const MAX_CELLS: usize = MAX_SQUARE as usize * MAX_SQUARE as usize;

/// In [`Quarod::mates`], a square whose piece (if any) is engaged to none.
const UNENGAGED: u16 = u16::MAX;

/// A Quarod position.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Quarod {
    geo: Geometry,
    cells: Box<[Option<Piece>]>,
    to_move: Colour,
    /// Turns taken, passes and the pie swap included: White's first turn is turn 1.
    turns: u32,
    /// Passes in a row; two end the game.
    passes: u8,
    /// Whether White took the pie swap, so that the players hold the other colours.
    swapped: bool,
    /// The colour now held by the player who made the last placement or board swap.
    last_actor: Option<Colour>,
}

impl Quarod {
    /// The empty `size x size` board, Black to move.
    pub fn new(size: u8) -> Result<Quarod, SetupError> {
        super::ABOUT.check_size(size, false)?;
        let geo = Geometry::Square { size };
        Ok(Quarod {
            geo,
            cells: vec![None; geo.slots()].into_boxed_slice(),
            to_move: Colour::Black,
            turns: 0,
            passes: 0,
            swapped: false,
            last_actor: None,
        })
    }

    /// A start position with these pieces, one entry per square in reading order, Black to move.
    pub fn from_pieces(size: u8, pieces: &[Option<Piece>]) -> Result<Quarod, SetupError> {
        let mut pos = Quarod::new(size)?;
        if pieces.len() != pos.cells.len() {
            return Err(SetupError::CellCount { got: pieces.len(), board: pos.geo });
        }
        pos.cells.copy_from_slice(pieces);
        Ok(pos)
    }

    /// A start position drawn as glyphs (`..`, `B>`, ...), one per square in reading order.
    pub fn from_glyphs(size: u8, glyphs: &[&str]) -> Result<Quarod, SetupError> {
        let mut pos = Quarod::new(size)?;
        let read = |g: &str| if g == EMPTY_GLYPH { Some(None) } else { Piece::from_glyph(g).map(Some) };
        let expected = "`..`, or B or W followed by a rod ^ > v <";
        for (c, piece) in super::ABOUT.read_setup(pos.geo, glyphs, expected, read)? {
            pos.cells[usize::from(c.0)] = piece;
        }
        Ok(pos)
    }

    /// The board's side, in squares.
    pub fn size(&self) -> u8 {
        self.geo.width() as u8
    }

    /// The piece on `c`, if any.
    pub fn piece(&self, c: Cell) -> Option<Piece> {
        self.cells.get(c.0 as usize).copied().flatten()
    }

    /// The colour to move.
    pub fn colour_to_move(&self) -> Colour {
        self.to_move
    }

    /// Whether White took the pie swap: the player who moved first now plays White.
    pub fn sides_swapped(&self) -> bool {
        self.swapped
    }

    /// Whether this is White's first turn, the only one where the sides may be swapped.
    pub fn may_swap_sides(&self) -> bool {
        self.turns == 1 && !self.is_over()
    }

    /// The colour now held by the player who made the last placement or board swap.
    pub fn last_actor(&self) -> Option<Colour> {
        self.last_actor
    }

    /// The piece the piece on `c` is engaged to: the adjacent piece of the other colour its rod
    /// points at, whose rod points back.
    pub fn partner(&self, c: Cell) -> Option<Cell> {
        self.partner_at(c.0 as usize).map(|i| Cell(i as u16))
    }

    /// [`Quarod::partner`] by square index, for the move generator's inner loops.
    #[inline]
    fn partner_at(&self, c: usize) -> Option<usize> {
        let piece = (*self.cells.get(c)?)?;
        let other = self.step_index(c, piece.rod)?;
        let p = self.cells[other]?;
        (p.colour != piece.colour && p.rod == piece.rod.opposite()).then_some(other)
    }

    /// The square next to square `c` (on the board) on the side `rod` points to, by index: the
    /// board is a plain `size x size` grid, so this is [`Geometry::step`] without its general
    /// (hex) bookkeeping.
    #[inline]
    fn step_index(&self, c: usize, rod: Rod) -> Option<usize> {
        let (w, n) = (self.geo.width() as usize, self.cells.len());
        match rod {
            Rod::North => c.checked_sub(w),
            Rod::East => (!(c + 1).is_multiple_of(w)).then_some(c + 1),
            Rod::South => (c + w < n).then_some(c + w),
            Rod::West => (!c.is_multiple_of(w)).then(|| c - 1),
        }
    }

    /// [`Rod::towards`] on this board, by index arithmetic: the rod a piece on `from` needs to
    /// point at `to`, if both are on the board and adjacent.
    #[inline]
    fn rod_towards(&self, from: Cell, to: Cell) -> Option<Rod> {
        let (a, b, n) = (from.0 as usize, to.0 as usize, self.cells.len());
        if a >= n || b >= n {
            return None;
        }
        let w = self.geo.width() as usize;
        if b + w == a {
            Some(Rod::North)
        } else if a + w == b {
            Some(Rod::South)
        } else if b == a + 1 && b % w != 0 {
            Some(Rod::East)
        } else if a == b + 1 && a % w != 0 {
            Some(Rod::West)
        } else {
            None
        }
    }

    /// The square a label names, if it is on the board: [`Geometry::parse_label`] on the plain
    /// square grid, for every square of every move a record names.
    pub(crate) fn cell_of(&self, label: CellLabel) -> Option<Cell> {
        let (col, row, w) = (label.col as u16, label.row, self.geo.width());
        (col < w && (1..=w).contains(&row)).then(|| Cell((row - 1) * w + col))
    }

    pub(crate) fn label(&self, c: Cell) -> CellLabel {
        self.geo.label(c)
    }

    fn on_board(&self, c: Cell) -> Result<(), Illegal> {
        match self.geo.contains(c) {
            true => Ok(()),
            false => Err(Illegal::OffBoard { cell: self.label(c), size: self.size() }),
        }
    }

    /// The rod `a` needs to point at `b`, or why the two squares do not make a pair. Every move of
    /// every record asks, so the usual answer is found by index arithmetic alone: two squares with
    /// a rod between them are on the board, distinct and adjacent.
    #[inline]
    fn pair(&self, a: Cell, b: Cell) -> Result<Rod, Illegal> {
        match self.rod_towards(a, b) {
            Some(rod) => Ok(rod),
            None => Err(self.unpaired(a, b)),
        }
    }

    /// Why two squares with no rod between them do not make a pair.
    #[cold]
    fn unpaired(&self, a: Cell, b: Cell) -> Illegal {
        let why = self.on_board(a).and_then(|()| self.on_board(b));
        match why {
            Err(why) => why,
            Ok(()) if a == b => Illegal::SameSquare { cell: self.label(a) },
            Ok(()) => Illegal::NotAdjacent { a: self.label(a), b: self.label(b) },
        }
    }

    /// The pieces a legal placement puts on `black` and `white`, or why it is illegal.
    fn check_place(&self, black: Cell, white: Cell) -> Result<[Piece; 2], Illegal> {
        let rod = self.pair(black, white)?;
        for c in [black, white] {
            if self.piece(c).is_some() {
                return Err(Illegal::NotEmpty { cell: self.label(c) });
            }
        }
        Ok(placed(Colour::Black, rod, Colour::White))
    }

    /// The pieces a legal board swap leaves on `a` and `b`, or why it is illegal.
    fn check_board_swap(&self, a: Cell, b: Cell) -> Result<[Piece; 2], Illegal> {
        let rod = self.pair(a, b)?;
        let (pa, pb) = match (self.piece(a), self.piece(b)) {
            (Some(pa), Some(pb)) => (pa, pb),
            (None, _) => return Err(Illegal::NoPiece { cell: self.label(a) }),
            (_, None) => return Err(Illegal::NoPiece { cell: self.label(b) }),
        };
        if pa.colour == pb.colour {
            return Err(Illegal::SameColour { a: self.label(a), b: self.label(b) });
        }
        match (self.partner_at(a.0 as usize), self.partner_at(b.0 as usize)) {
            (Some(p), _) if p == b.0 as usize => {
                Err(Illegal::EngagedToEachOther { a: self.label(a), b: self.label(b) })
            }
            (None, _) => Err(Illegal::NotEngaged { cell: self.label(a) }),
            (_, None) => Err(Illegal::NotEngaged { cell: self.label(b) }),
            _ => Ok(placed(pb.colour, rod, pa.colour)),
        }
    }

    /// Feeds `f` the placements, then the board swaps, in reading order of their first square and
    /// then in the order north, east, south, west of the second (the order of
    /// [`Geometry::neighbours`]), until `f` breaks. The same moves as checking every ordered pair
    /// of adjacent squares with `check_place` and `check_board_swap`, in index arithmetic: this
    /// runs at every move of a random playout.
    fn for_each_action(&self, mut f: impl FnMut(QuarodMove) -> ControlFlow<()>) -> ControlFlow<()> {
        let cells = &self.cells[..];
        let w = self.geo.width() as usize;
        let pair = |a: usize, b: usize| (Cell(a as u16), Cell(b as u16));
        // Square by square in reading order, row by row: a square's column and row come without
        // a division.
        for row in 0..w {
            for col in 0..w {
                let a = row * w + col;
                if cells[a].is_some() {
                    continue;
                }
                for (ok, b) in rook_neighbours_at(a, col, row, w) {
                    if ok && cells[b].is_none() {
                        let (black, white) = pair(a, b);
                        f(QuarodMove::Place { black, white })?;
                    }
                }
            }
        }
        let mates = self.mates();
        for row in 0..w {
            for col in 0..w {
                let a = row * w + col;
                let mate = mates[a];
                if mate == UNENGAGED {
                    continue;
                }
                let colour = cells[a].map(|p| p.colour);
                for (ok, b) in rook_neighbours_at(a, col, row, w) {
                    if ok && b != mate as usize && mates[b] != UNENGAGED && cells[b].map(|p| p.colour) != colour {
                        let (a, b) = pair(a, b);
                        f(QuarodMove::BoardSwap { a, b })?;
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Each square's partner by index ([`UNENGAGED`] for an empty or unengaged square), found once
    /// for the whole board: a board swap asks for both squares' partners. Engagements are pairs, so
    /// looking east and south from each piece finds every one.
    fn mates(&self) -> [u16; MAX_CELLS] {
        let cells = &self.cells[..];
        let (n, w) = (cells.len(), self.geo.width() as usize);
        let mut mates = [UNENGAGED; MAX_CELLS];
        for a in 0..n {
            let Some(piece) = cells[a] else { continue };
            let (on_board, b, back) = match piece.rod {
                Rod::East => ((a + 1) % w != 0, a + 1, Rod::West),
                Rod::South => (a + w < n, a + w, Rod::North),
                Rod::North | Rod::West => continue,
            };
            if on_board && cells[b].is_some_and(|p| p.colour != piece.colour && p.rod == back) {
                (mates[a], mates[b]) = (b as u16, a as u16);
            }
        }
        mates
    }

    /// A placement or board swap open to the mover, if any: without one the mover must pass.
    ///
    /// The first placement or board swap of [`Game::legal_moves`], found with less work: at the
    /// end of every game both passes are checked on a full board. Both kinds of move take a pair
    /// of adjacent squares that would make the move from either side, so the first square in
    /// reading order that has a move has none with its north or west neighbour (that neighbour,
    /// earlier, would come first): looking east, then south, finds the same move. Each row is a
    /// word of bits, one a column, so a row's squares are looked at all at once.
    pub fn first_action(&self) -> Option<QuarodMove> {
        let rows = RowMasks::of(self);
        let w = rows.width;
        let at = |r: usize, c: u32| Cell((r * w + c as usize) as u16);
        // A placement from an empty square to the empty one east, or else south.
        for r in 0..w {
            let (here, below) = (rows.empty[r], rows.empty[r + 1]);
            let from = here & (here >> 1 | below);
            if from != 0 {
                let c = from.trailing_zeros();
                let white = if here >> (c + 1) & 1 == 1 { at(r, c + 1) } else { at(r + 1, c) };
                return Some(QuarodMove::Place { black: at(r, c), white });
            }
        }
        // A board swap of two engaged pieces of different colours not engaged to each other.
        for r in 0..w {
            let (engaged, black) = (rows.engaged(r), rows.black[r]);
            let east = engaged & engaged >> 1 & (black ^ black >> 1) & !rows.east_pairs[r];
            let south = engaged & rows.engaged(r + 1) & (black ^ rows.black[r + 1]) & !rows.south_pairs[r];
            let from = east | south;
            if from != 0 {
                let c = from.trailing_zeros();
                let b = if east >> c & 1 == 1 { at(r, c + 1) } else { at(r + 1, c) };
                return Some(QuarodMove::BoardSwap { a: at(r, c), b });
            }
        }
        None
    }

    /// How many groups of each size each colour has: `counts[size][colour]`.
    pub fn group_counts(&self) -> Vec<[u16; 2]> {
        let mut counts = vec![[0u16; 2]; self.cells.len() + 1];
        self.count_groups(&mut counts);
        counts
    }

    /// Adds each group to `counts[size][colour]` (room for every size up to the number of
    /// squares) and returns the largest group's size. The score of every finished record asks: on
    /// boards up to 8x8 (the default's) each colour's pieces are one word of bits, a row a byte,
    /// and a group is grown from its first piece a ring of neighbours at a time, all at once;
    /// larger boards are flood filled square by square.
    fn count_groups(&self, counts: &mut [[u16; 2]]) -> usize {
        let w = self.geo.width() as usize;
        let mut largest = 0;
        if w > 8 {
            self.for_each_group(|colour, group| {
                counts[group.len()][colour.index()] += 1;
                largest = largest.max(group.len());
            });
            return largest;
        }
        // The first and the last column of the bytes: a step west or east across them would come
        // out on the other edge of the next row.
        const FIRST: u64 = 0x0101_0101_0101_0101;
        const LAST: u64 = FIRST << 7;
        let mut boards = [0u64; 2];
        for (r, row) in self.cells.chunks_exact(w).enumerate() {
            for (c, cell) in row.iter().enumerate() {
                if let Some(p) = cell {
                    boards[p.colour.index()] |= 1 << (8 * r + c);
                }
            }
        }
        for (colour, mut left) in boards.into_iter().enumerate() {
            while left != 0 {
                let mut group = left & left.wrapping_neg();
                loop {
                    let grown = (group | (group << 1 & !FIRST) | (group >> 1 & !LAST) | group << 8 | group >> 8) & left;
                    if grown == group {
                        break;
                    }
                    group = grown;
                }
                let size = group.count_ones() as usize;
                counts[size][colour] += 1;
                largest = largest.max(size);
                left &= !group;
            }
        }
        largest
    }

    /// Calls `visit` with each group of the board, its colour and its pieces (the first in reading
    /// order first), groups in reading order of their first pieces.
    fn for_each_group(&self, mut visit: impl FnMut(Colour, &[Cell])) {
        let cells = &self.cells[..];
        let (n, w) = (cells.len(), self.geo.width() as usize);
        // Fixed arrays and index arithmetic: this runs for the score of every finished record.
        let mut seen = [false; MAX_CELLS];
        let mut group = [Cell(0); MAX_CELLS];
        for start in 0..n {
            let Some(piece) = cells[start] else { continue };
            if seen[start] {
                continue;
            }
            seen[start] = true;
            group[0] = Cell(start as u16);
            // The group is its own queue: the pieces past `next` are found but not yet looked around.
            let (mut len, mut next) = (1, 0);
            while next < len {
                let c = group[next].0 as usize;
                next += 1;
                for (on_board, d) in rook_neighbours(c, w, n) {
                    if on_board && !seen[d] && cells[d].is_some_and(|p| p.colour == piece.colour) {
                        seen[d] = true;
                        group[len] = Cell(d as u16);
                        len += 1;
                    }
                }
            }
            visit(piece.colour, &group[..len]);
        }
    }
}

impl BoardView for Quarod {
    fn geometry(&self) -> Geometry {
        self.geo
    }

    fn glyph(&self, cell: Cell) -> &'static str {
        self.piece(cell).map_or(EMPTY_GLYPH, Piece::glyph)
    }

    fn figure(&self, cell: Cell) -> Option<Figure> {
        self.piece(cell).map(|p| {
            let heading = match p.rod {
                Rod::North => Heading::Up,
                Rod::East => Heading::Right,
                Rod::South => Heading::Down,
                Rod::West => Heading::Left,
            };
            Figure { owner: Some(p.colour.index() as u8), shape: Shape::Rod(heading), name: "rod" }
        })
    }

    fn player_names(&self) -> &'static [&'static str] {
        &["Black", "White"]
    }

    /// The groups the score compares, outlined in their colours: for each colour that scores, every
    /// group of its scoring size, its own (which outnumber) and the other colour's.
    fn scoring(&self) -> Vec<Region> {
        let sizes: Vec<usize> = self.score().points.iter().filter(|&&p| p > 0).map(|&p| p as usize).collect();
        let mut regions = Vec::new();
        self.for_each_group(|colour, group| {
            if sizes.contains(&group.len()) {
                let mut cells = group.to_vec();
                cells.sort_unstable();
                regions.push(Region { owner: colour.index() as u8, cells, mark: Mark::Outline, name: "group" });
            }
        });
        regions
    }

    fn counted_at_end(&self) -> bool {
        true
    }
}

/// The search stores Quarod positions whole: they are plain data (a board and the turn's state), and
/// equal positions have the same continuations.
impl crate::game::PlainData for Quarod {
    fn heap_bytes(&self) -> usize {
        crate::game::key::allocation(std::mem::size_of_val(&*self.cells))
    }

    fn plain_hash(&self) -> u64 {
        let cell = |c: &Option<Piece>| c.map_or(0, |p| 1 + 4 * p.colour as u8 + p.rod as u8);
        let rest = (self.geo, self.to_move, self.turns, self.passes, self.swapped, self.last_actor);
        crate::game::board_hash(&self.cells, cell, rest)
    }
}

impl Game for Quarod {
    type Move = QuarodMove;
    type Illegal = Illegal;
    type Score = QuarodScore;

    fn about(&self) -> &'static crate::game::About {
        &super::ABOUT
    }

    fn legal_moves(&self) -> Vec<QuarodMove> {
        if self.is_over() {
            return Vec::new();
        }
        // At most four placements from each square, and no more board swaps than that: room
        // enough for every move at once, so the list never grows.
        let mut moves = Vec::with_capacity(4 * self.cells.len() + 1);
        let _ = self.for_each_action(|m| {
            moves.push(m);
            ControlFlow::Continue(())
        });
        if moves.is_empty() {
            moves.push(QuarodMove::Pass);
        }
        if self.may_swap_sides() {
            moves.push(QuarodMove::SwapSides);
        }
        moves
    }

    fn check(&self, m: QuarodMove) -> Result<(), Illegal> {
        if self.is_over() {
            return Err(Illegal::GameOver);
        }
        match m {
            QuarodMove::Place { black, white } => self.check_place(black, white).map(drop),
            QuarodMove::BoardSwap { a, b } => self.check_board_swap(a, b).map(drop),
            QuarodMove::Pass => match self.first_action() {
                Some(QuarodMove::Place { black, white }) => {
                    let possible = Action::Place { black: self.label(black), white: self.label(white) };
                    Err(Illegal::MayNotPass { colour: self.to_move, possible })
                }
                Some(QuarodMove::BoardSwap { a, b }) => {
                    let possible = Action::BoardSwap { a: self.label(a), b: self.label(b) };
                    Err(Illegal::MayNotPass { colour: self.to_move, possible })
                }
                // An action is a placement or a board swap.
                Some(QuarodMove::Pass | QuarodMove::SwapSides) | None => Ok(()),
            },
            QuarodMove::SwapSides if self.may_swap_sides() => Ok(()),
            QuarodMove::SwapSides => Err(Illegal::SwapSidesNotNow),
        }
    }

    /// Plays any move without asking whether it is legal (lenient replay). A board swap is played
    /// as written wherever two adjacent pieces stand on its squares, engaged or not; a placement
    /// needs two adjacent empty squares. Anything else (off the board, not adjacent, a placement on
    /// a piece, a board swap of a missing piece) leaves the board as it is but uses the turn, so
    /// the colours stay in step with the record.
    fn play_unchecked(&mut self, m: QuarodMove) {
        let put = match m {
            QuarodMove::Place { black, white } => {
                match (self.rod_towards(black, white), self.piece(black), self.piece(white)) {
                    (Some(rod), None, None) => Some(placed(Colour::Black, rod, Colour::White)),
                    _ => None,
                }
            }
            QuarodMove::BoardSwap { a, b } => match (self.rod_towards(a, b), self.piece(a), self.piece(b)) {
                (Some(rod), Some(pa), Some(pb)) => Some(placed(pb.colour, rod, pa.colour)),
                _ => None,
            },
            QuarodMove::Pass | QuarodMove::SwapSides => None,
        };
        self.take_turn(m, put);
    }

    /// [`Game::check`] and [`Game::play_unchecked`] with the squares looked at once: the check of
    /// a placement or a board swap finds the pieces it leaves, and those are put down.
    fn play_checked(&mut self, m: QuarodMove, before: impl FnOnce(&Quarod)) -> Result<(), Illegal> {
        if self.is_over() {
            return Err(Illegal::GameOver);
        }
        let put = match m {
            QuarodMove::Place { black, white } => Some(self.check_place(black, white)?),
            QuarodMove::BoardSwap { a, b } => Some(self.check_board_swap(a, b)?),
            QuarodMove::Pass | QuarodMove::SwapSides => {
                self.check(m)?;
                None
            }
        };
        before(self);
        self.take_turn(m, put);
        Ok(())
    }

    /// A pass written by a player who had a placement or a board swap stands for that move: it
    /// does not count toward the two passes in a row that end the game (RULINGS Quarod 5), and
    /// like the move it breaks a run of passes. Otherwise two wrong passes would end the game, and
    /// every later move of the record would be a move after the end.
    fn play_refused(&mut self, m: QuarodMove, why: &Illegal) {
        self.play_unchecked(m);
        if let Illegal::MayNotPass { .. } = why {
            self.passes = 0;
        }
    }

    fn is_over(&self) -> bool {
        self.passes >= 2
    }

    fn score(&self) -> QuarodScore {
        // Room for the counts of every size, on the stack for boards up to 8x8: zeroing room for
        // the largest board's sizes would cost more than counting the groups.
        let n = self.cells.len();
        let (mut small, mut large) = ([[0u16; 2]; 65], Vec::new());
        let counts = match small.get_mut(..=n) {
            Some(counts) => counts,
            None => {
                large.resize(n + 1, [0u16; 2]);
                &mut large[..]
            }
        };
        // No group is larger than the largest: the sizes above it have no groups of either colour.
        let largest = self.count_groups(counts);
        let mut score = QuarodScore { points: [0; 2], groups: [[0; 2]; 2] };
        for colour in Colour::BOTH {
            let (own, other) = (colour.index(), colour.opponent().index());
            if let Some(size) = (1..=largest).rev().find(|&s| counts[s][own] > counts[s][other]) {
                score.points[own] = size as u16;
                score.groups[own] = [counts[size][own], counts[size][other]];
            }
        }
        score
    }

    /// A placement rings both new pieces; a board swap is an arrow each way.
    fn signs(&self, m: QuarodMove) -> Vec<Sign> {
        match m {
            QuarodMove::Place { black, white } => vec![Sign::Ring(black), Sign::Ring(white)],
            QuarodMove::BoardSwap { a, b } => vec![Sign::Arrow { from: a, to: b }, Sign::Arrow { from: b, to: a }],
            QuarodMove::Pass => vec![Sign::Pass],
            QuarodMove::SwapSides => vec![Sign::Swap],
        }
    }
}

impl Quarod {
    /// The result of a finished game (RULINGS, Quarod 6); `None` while it goes on.
    pub fn result(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let score = self.score();
        let points = score.points.iter().map(|&p| p as f64).collect();
        let (winner, detail) = match (score.leader(), self.last_actor) {
            (Some(w), _) => {
                let [own, other] = score.groups[w.index()];
                (Some(w), format!("{w} has more groups of size {} ({own} to {other})", score.points[w.index()]))
            }
            (None, Some(loser)) => {
                // After a pie swap the colour that made the last move may be the other player's now.
                let who = if self.swapped { format!("the player now playing {loser}") } else { loser.to_string() };
                (
                    Some(loser.opponent()),
                    format!("both players score 0, and {who} made the last placement or board swap and loses"),
                )
            }
            (None, None) => {
                (None, "both players score 0 and nobody made a placement or board swap: a draw".to_string())
            }
        };
        Some(Outcome { winner: winner.map(Colour::index), points, detail })
    }
}

impl Quarod {
    /// Plays `m`, whose placement or board swap (if it is one that changes the board) leaves the
    /// pieces `put` on its two squares: what [`Game::play_unchecked`] and [`Game::play_checked`]
    /// share once they know what the move does to the board.
    fn take_turn(&mut self, m: QuarodMove, put: Option<[Piece; 2]>) {
        let mover = self.to_move;
        self.turns = self.turns.saturating_add(1);
        match m {
            QuarodMove::Place { black: a, white: b } | QuarodMove::BoardSwap { a, b } => {
                if let Some([pa, pb]) = put {
                    self.cells[a.0 as usize] = Some(pa);
                    self.cells[b.0 as usize] = Some(pb);
                    self.last_actor = Some(mover);
                }
                self.passes = 0;
            }
            QuarodMove::Pass => self.passes = self.passes.saturating_add(1),
            QuarodMove::SwapSides => {
                // The board stays; the players exchange colours, so the colour to move stays White
                // (now held by the player who moved first), and the last placer's colour changes.
                self.swapped = !self.swapped;
                self.last_actor = self.last_actor.map(Colour::opponent);
                self.passes = 0;
                return;
            }
        }
        self.to_move = mover.opponent();
    }
}

/// The two engaged pieces a placement or a board swap leaves: `first` on the first square, its rod
/// `rod` pointing at the second, and `second` there, its rod pointing back.
fn placed(first: Colour, rod: Rod, second: Colour) -> [Piece; 2] {
    [Piece { colour: first, rod }, Piece { colour: second, rod: rod.opposite() }]
}

// The position code (grammar.md, "Position codes") reads and writes every field of the engine.
mod code;

#[cfg(test)]
mod tests {
    use super::*;

    /// Boards of random pieces, sparse to full, on sizes 2 to 9 and the largest: every kind of
    /// neighbourhood, engaged or not, at the edges too.
    fn random_boards() -> impl Iterator<Item = Quarod> {
        let mut rng = fastrand::Rng::with_seed(20);
        (0..3000).map(move |i| {
            let size = if i % 100 == 0 { MAX_SQUARE } else { rng.u8(MIN_SIZE..10) };
            let empty = rng.u32(0..=100);
            let pieces: Vec<Option<Piece>> = (0..size as usize * size as usize)
                .map(|_| {
                    (rng.u32(0..100) >= empty)
                        .then(|| Piece { colour: Colour::BOTH[rng.usize(0..2)], rod: Rod::ALL[rng.usize(0..4)] })
                })
                .collect();
            Quarod::from_pieces(size, &pieces).unwrap()
        })
    }

    /// The positions of random games on sizes 2 to 9, start to end.
    fn random_game_positions() -> Vec<Quarod> {
        let mut positions = Vec::new();
        for size in MIN_SIZE..10 {
            for seed in 0..6 {
                let mut pos = Quarod::new(size).unwrap();
                for m in crate::game::random::random_game(&pos, 100 * size as u64 + seed, 10_000) {
                    positions.push(pos.clone());
                    pos.play_unchecked(m);
                }
                positions.push(pos);
            }
        }
        positions
    }

    /// `first_action` looks only east and south: the same move as the first the full generator
    /// gives.
    #[test]
    fn first_action_is_the_generators_first() {
        for pos in random_boards().chain(random_game_positions()) {
            let mut first = None;
            let _ = pos.for_each_action(|m| {
                first = Some(m);
                ControlFlow::Break(())
            });
            assert_eq!(pos.first_action(), first, "{}", crate::game::code::Coded::code(&pos));
        }
    }

    /// The first action as it was found before rows of bits: squares one by one, with every
    /// square's partner found first.
    fn first_action_by_squares(pos: &Quarod) -> Option<QuarodMove> {
        let cells = &pos.cells[..];
        let (n, w) = (cells.len(), pos.geo.width() as usize);
        let pair = |a: usize, b: usize| (Cell(a as u16), Cell(b as u16));
        let east = |a: usize| (!(a + 1).is_multiple_of(w)).then_some(a + 1);
        let south = |a: usize| (a + w < n).then_some(a + w);
        for a in (0..n).filter(|&a| cells[a].is_none()) {
            if let Some(b) = [east(a), south(a)].into_iter().flatten().find(|&b| cells[b].is_none()) {
                let (black, white) = pair(a, b);
                return Some(QuarodMove::Place { black, white });
            }
        }
        let mates = pos.mates();
        let colour = |a: usize| cells[a].map(|p| p.colour);
        for a in (0..n).filter(|&a| mates[a] != UNENGAGED) {
            let swappable = |&b: &usize| mates[a] as usize != b && mates[b] != UNENGAGED && colour(b) != colour(a);
            if let Some(b) = [east(a), south(a)].into_iter().flatten().find(swappable) {
                let (a, b) = pair(a, b);
                return Some(QuarodMove::BoardSwap { a, b });
            }
        }
        None
    }

    /// Every pair of squares on and off the boards of sizes 2 to 9 and the largest: the rod, or
    /// the reason, the checks one after the other gave (on the board, distinct, adjacent).
    #[test]
    fn pair_is_the_checks_in_turn() {
        for size in (MIN_SIZE..10).chain([MAX_SQUARE]) {
            let pos = Quarod::new(size).unwrap();
            let n = pos.cells.len() as u16;
            for a in (0..n + 3).map(Cell) {
                for b in (0..n + 3).map(Cell) {
                    let expected = pos.on_board(a).and_then(|()| pos.on_board(b)).and_then(|()| {
                        if a == b {
                            return Err(Illegal::SameSquare { cell: pos.label(a) });
                        }
                        Rod::towards(pos.geo, a, b).ok_or(Illegal::NotAdjacent { a: pos.label(a), b: pos.label(b) })
                    });
                    assert_eq!(pos.pair(a, b), expected, "{size} {a:?} {b:?}");
                }
            }
        }
    }

    /// The rows of bits find the move the squares one by one found, on random boards of every
    /// size and the positions of random games; and both are the generator's first.
    #[test]
    fn first_action_by_rows_is_the_one_by_squares() {
        let mut found = [0usize; 3];
        for pos in random_boards().chain(random_game_positions()) {
            let expected = first_action_by_squares(&pos);
            found[match expected {
                Some(QuarodMove::Place { .. }) => 0,
                Some(_) => 1,
                None => 2,
            }] += 1;
            assert_eq!(pos.first_action(), expected, "{}", crate::game::code::Coded::code(&pos));
        }
        // Every answer came up many times.
        assert!(found.iter().all(|&k| k > 100), "{found:?}");
    }

    /// Playing with the check, on every move open in random game positions and on moves that
    /// are not (off the board, apart, on pieces, of empty squares): the same refusal as
    /// [`Game::check`], and the same position as [`Game::play_unchecked`] after a legal move;
    /// a refused move leaves the position as it was.
    #[test]
    fn play_checked_is_check_then_play() {
        let mut rng = fastrand::Rng::with_seed(7);
        let (mut played, mut refused) = (0, 0);
        for pos in random_game_positions().into_iter().chain(random_boards().take(500)) {
            let n = pos.cells.len() as u16;
            let mut moves = pos.legal_moves();
            for _ in 0..8 {
                let (a, b) = (Cell(rng.u16(0..n + 3)), Cell(rng.u16(0..n + 3)));
                moves.push(if rng.bool() {
                    QuarodMove::Place { black: a, white: b }
                } else {
                    QuarodMove::BoardSwap { a, b }
                });
            }
            moves.extend([QuarodMove::Pass, QuarodMove::SwapSides]);
            for m in moves {
                let mut checked = pos.clone();
                let mut seen = None;
                let outcome = checked.play_checked(m, |before| seen = Some(before.clone()));
                assert_eq!(outcome, pos.check(m), "{m:?} {}", crate::game::code::Coded::code(&pos));
                if outcome.is_ok() {
                    let mut expected = pos.clone();
                    expected.play_unchecked(m);
                    assert_eq!(checked, expected, "{m:?} {}", crate::game::code::Coded::code(&pos));
                    assert_eq!(seen.as_ref(), Some(&pos));
                    played += 1;
                } else {
                    assert_eq!(checked, pos);
                    assert!(seen.is_none());
                    refused += 1;
                }
            }
        }
        assert!(played > 1000 && refused > 1000, "{played} {refused}");
    }

    /// The group counts in words of bits (and on larger boards), against the groups the flood
    /// fill of the diagrams' outlines finds, with the largest group's size.
    #[test]
    fn group_counts_are_the_flood_fills() {
        for pos in random_boards().chain(random_game_positions()) {
            let mut expected = vec![[0u16; 2]; pos.cells.len() + 1];
            let mut largest = 0;
            pos.for_each_group(|colour, group| {
                expected[group.len()][colour.index()] += 1;
                largest = largest.max(group.len());
            });
            let mut counts = vec![[0u16; 2]; pos.cells.len() + 1];
            assert_eq!(pos.count_groups(&mut counts), largest, "{}", crate::game::code::Coded::code(&pos));
            assert_eq!(counts, expected, "{}", crate::game::code::Coded::code(&pos));
        }
    }

    /// The score as it was found before: from the counts of every size, the largest where a colour
    /// has more groups, on boards up to 8x8 and larger.
    #[test]
    fn score_is_the_largest_size_a_colour_outnumbers_at() {
        let mut scored = 0;
        for pos in random_boards().chain(random_game_positions()) {
            let counts = pos.group_counts();
            let mut expected = QuarodScore { points: [0; 2], groups: [[0; 2]; 2] };
            for colour in Colour::BOTH {
                let (own, other) = (colour.index(), colour.opponent().index());
                if let Some(size) = (1..counts.len()).rev().find(|&s| counts[s][own] > counts[s][other]) {
                    expected.points[own] = size as u16;
                    expected.groups[own] = [counts[size][own], counts[size][other]];
                    scored += 1;
                }
            }
            assert_eq!(pos.score(), expected, "{}", crate::game::code::Coded::code(&pos));
        }
        assert!(scored > 1000, "{scored}");
    }

    /// The group counts by index arithmetic, against a flood fill over the geometry's neighbours.
    #[test]
    fn group_counts_match_a_flood_fill_over_the_geometry() {
        for pos in random_boards().chain(random_game_positions()) {
            let geo = pos.geo;
            let mut expected = vec![[0u16; 2]; pos.cells.len() + 1];
            let mut seen = vec![false; pos.cells.len()];
            for start in geo.cells() {
                let Some(piece) = pos.piece(start) else { continue };
                if std::mem::replace(&mut seen[start.0 as usize], true) {
                    continue;
                }
                let (mut stack, mut size) = (vec![start], 0);
                while let Some(c) = stack.pop() {
                    size += 1;
                    for d in geo.neighbours(c) {
                        if pos.piece(d).is_some_and(|p| p.colour == piece.colour)
                            && !std::mem::replace(&mut seen[d.0 as usize], true)
                        {
                            stack.push(d);
                        }
                    }
                }
                expected[size][piece.colour.index()] += 1;
            }
            assert_eq!(pos.group_counts(), expected, "{}", crate::game::code::Coded::code(&pos));
        }
    }
}
