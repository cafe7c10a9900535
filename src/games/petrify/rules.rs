//! The Petrify engine (docs/rules/petrify.md: the rule text, and RULINGS Petrify 1-4 that
//! override it).
//!
//! Decisions where the texts leave a point open:
//! - The pie rule: Orange's first turn is the second move of the game, whatever Blue's first move
//!   was. `swap` leaves the board alone; the players exchange colours and the turn passes to the
//!   other player, who now holds Orange: Orange is to move again. Scores and the winner are given
//!   by colour; [`Petrify::swapped`] tells a report that the players hold each other's colours.
//! - `swap` is not a board play (it does not take part in the tie-break) and not a pass: it ends a
//!   run of passes, and it does not forbid a pass to an Orange who has no board play.
//! - The tie-break names a player: whoever made the last board play. If the players swap after
//!   Blue's first placement, that player now holds Orange, so Orange loses a tie unless another
//!   board play follows. With no board play at all (a setup where nobody can play), a tie is a draw.
//! - Mounds and barricades are checked on the board with its ring of virtual blocks. Since a start
//!   position holds none and a capture adds one block, only formations through the new block need
//!   looking at. The ring alone holds none (it is one square thick), so messages name the virtual
//!   squares together as "the edge". What follows: no block ever stands on a corner (a mound with
//!   three virtual blocks); an edge block makes a mound with a block beside it on the same edge,
//!   and a barricade with a block diagonally inwards from it (b1 with c2 or a2: the third block is
//!   the virtual a0 or c0); so a block on the second line (b2) makes a barricade with an edge
//!   block diagonally outwards from it (a3 or c1), but never through a corner (a1 holds no block).
//! - Ownership of a patch: equal-sized opposite groups cancel in pairs. The result does not depend
//!   on the order: for each size s, min(blue_s, orange_s) pairs go, and only the colour that had
//!   more groups of size s keeps any. So the largest size left over is held by one colour only:
//!   the largest remaining group is never shared, and a patch with nothing left (or no disks) is
//!   owned by nobody.
//!
//! The game always ends: a placement fills an empty square, and a capture turns one of the two
//! disks into a block (the capturing disk takes the captured one's square). So `2 * empty + disks`
//! falls by one with every board play and there are at most `2 * size^2` of them; between two
//! board plays there is at most one pass (two in a row end the game) and the single swap.

use std::fmt;

use crate::game::{BoardView, BreaksRule, Game, Outcome, Playable, SetupError};
use crate::game::{Figure, Mark, Region, Sign};
use crate::geometry::{Cell, CellLabel, Geometry};

/// The two colours, in turn order from the start.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Colour {
    /// Blue: moves first.
    Blue,
    /// Orange.
    Orange,
}

impl Colour {
    /// 0 for Blue, 1 for Orange: the colour's index in [`BoardView::player_names`] and in scores.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The other colour.
    pub fn opponent(self) -> Colour {
        match self {
            Colour::Blue => Colour::Orange,
            Colour::Orange => Colour::Blue,
        }
    }

    /// `Blue` or `Orange`, as records and messages name the colour.
    pub fn name(self) -> &'static str {
        match self {
            Colour::Blue => "Blue",
            Colour::Orange => "Orange",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What stands on a square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Square {
    /// Nothing on it.
    Empty,
    /// A disk of that colour.
    Disk(Colour),
    /// A block, left where a capturing disk started: nobody's.
    Block,
}

impl Square {
    fn glyph(self) -> &'static str {
        match self {
            Square::Empty => ".",
            Square::Disk(Colour::Blue) => "B",
            Square::Disk(Colour::Orange) => "O",
            Square::Block => "#",
        }
    }
}

/// One turn of a Petrify game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PetrifyMove {
    /// A disk of the mover's colour on an empty square.
    Place(Cell),
    /// The mover's disk on `from` slides to `to` and captures the enemy disk there; a block goes on `from`.
    Capture {
        /// The capturing disk's square, where the block goes.
        from: Cell,
        /// The captured disk's square.
        to: Cell,
    },
    /// A pass: legal only when the mover has no board play.
    Pass,
    /// The pie rule: the players exchange colours.
    Swap,
}

/// The two illegal formations of blocks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Shape {
    /// Four blocks in a 2x2 area.
    Mound,
    /// Three adjoining blocks in a straight diagonal line.
    Barricade,
}

/// A mound or barricade through one block: the other blocks in it, real squares by file then rank,
/// and whether the ring of virtual blocks around the board (`the edge`) takes part.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Formation {
    /// Mound or barricade.
    pub shape: Shape,
    /// The formation's other blocks, real squares by file then rank.
    pub with: Vec<CellLabel>,
    /// Whether the ring of virtual blocks around the board takes part.
    pub edge: bool,
}

impl fmt::Display for Formation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut names: Vec<String> = self.with.iter().map(|l| l.to_string()).collect();
        if self.edge {
            names.push("the edge".to_string());
        }
        let list = match names.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => String::new(),
        };
        let shape = match self.shape {
            Shape::Mound => "mound",
            Shape::Barricade => "barricade",
        };
        write!(f, "a {shape} with {list}")
    }
}

/// What stops a sliding disk.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Obstacle {
    /// A disk of that colour, on that square.
    Disk(Colour, CellLabel),
    /// A block, on that square.
    Block(CellLabel),
}

/// A board play that forbids a pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BoardPlay {
    /// A placement is possible.
    Placement,
    /// A capture is possible.
    Capture {
        /// The capturing disk's square.
        from: CellLabel,
        /// The captured disk's square.
        to: CellLabel,
    },
}

/// Why a move is illegal, in the game's words. Cells are labels, so a message stands alone.
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
    /// A placement on an occupied square.
    NotEmpty {
        /// The square.
        cell: CellLabel,
    },
    /// A capture from a square without a disk of the mover's.
    NoDisk {
        /// The colour to move.
        colour: Colour,
        /// The square.
        cell: CellLabel,
    },
    /// A capture of a square without an enemy disk.
    NothingToCapture {
        /// The enemy's colour.
        enemy: Colour,
        /// The square.
        cell: CellLabel,
    },
    /// The capture's squares are not on one orthogonal or diagonal line.
    NotStraight {
        /// Where the disk starts.
        from: CellLabel,
        /// The square it captures.
        to: CellLabel,
    },
    /// Something stops the slide before the captured disk.
    Blocked {
        /// Where the disk starts.
        from: CellLabel,
        /// The square it captures.
        to: CellLabel,
        /// What is in the way.
        by: Obstacle,
    },
    /// The block the capturing disk leaves would complete a mound or barricade.
    Formation {
        /// The block's square.
        block: CellLabel,
        /// The formation it would make.
        formation: Formation,
    },
    /// `swap` anywhere but on Orange's first turn.
    SwapNotAllowed,
    /// A pass while a board play is possible.
    MayNotPass {
        /// The colour to move.
        colour: Colour,
        /// A board play it could make.
        play: BoardPlay,
    },
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Illegal::*;
        match self {
            GameOver => write!(f, "the game is over: both players passed in succession"),
            OffBoard { cell, size } => write!(f, "{cell} is not on the {size}x{size} board"),
            NotEmpty { cell } => write!(f, "{cell} is not empty"),
            NoDisk { colour, cell } => write!(f, "no {colour} disk on {cell}"),
            NothingToCapture { enemy, cell } => write!(f, "{cell} holds no {enemy} disk to capture"),
            NotStraight { from, to } => write!(f, "{from} to {to} is not a straight orthogonal or diagonal line"),
            Blocked { from, to, by: Obstacle::Disk(colour, cell) } => {
                write!(f, "the way from {from} to {to} is blocked by {colour}'s disk on {cell}")
            }
            Blocked { from, to, by: Obstacle::Block(cell) } => {
                write!(f, "the way from {from} to {to} is blocked by a block on {cell}")
            }
            Formation { block, formation } => write!(f, "the block left on {block} would make {formation}"),
            SwapNotAllowed => write!(f, "a swap of sides is only allowed on Orange's first turn"),
            MayNotPass { colour, play: BoardPlay::Placement } => {
                write!(f, "{colour} may not pass: a placement is possible")
            }
            MayNotPass { colour, play: BoardPlay::Capture { from, to } } => {
                write!(f, "{colour} may not pass: a capture is possible ({from}x{to})")
            }
        }
    }
}

/// Each reason names its section of docs/rules/petrify.md.
impl BreaksRule for Illegal {
    const RULES: &'static [&'static str] = &["end", "board", "placement", "capture", "formations", "pie", "pass"];

    fn rule(&self) -> &'static str {
        use Illegal::*;
        match self {
            GameOver => "end",
            OffBoard { .. } => "board",
            NotEmpty { .. } => "placement",
            NoDisk { .. } | NothingToCapture { .. } | NotStraight { .. } | Blocked { .. } => "capture",
            Formation { .. } => "formations",
            SwapNotAllowed => "pie",
            MayNotPass { .. } => "pass",
        }
    }
}

/// The score: the squares of the patches each colour owns.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PetrifyScore {
    /// Indexed by [`Colour::index`]: Blue, Orange.
    pub points: [u16; 2],
}

impl PetrifyScore {
    /// The points of `colour`.
    pub fn of(&self, colour: Colour) -> u16 {
        self.points[colour.index()]
    }
}

impl fmt::Display for PetrifyScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Blue {}, Orange {}", self.points[0], self.points[1])
    }
}

/// A patch: a maximal orthogonally connected set of squares without blocks.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Patch {
    /// Its first square in reading order.
    pub first: Cell,
    /// Its number of squares, empty ones included.
    pub size: u16,
    /// The sizes of each colour's groups in it, largest first (indexed by [`Colour::index`]).
    pub groups: [Vec<u16>; 2],
    /// The sizes left over once equal-sized opposite groups have cancelled, largest first.
    pub remaining: [Vec<u16>; 2],
    /// Whoever has the largest remaining group; nobody if no group remains.
    pub owner: Option<Colour>,
}

/// The 8 directions a capturing disk slides in, as (columns, rows).
const QUEEN: [(i32, i32); 8] = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)];

/// The side of the largest board.
const MAX_SIDE: usize = 10;

/// The squares of the largest board: room for any board's squares in an array on the stack.
const MAX_SQUARES: usize = MAX_SIDE * MAX_SIDE;

/// The side of the largest board with two rings around it (see [`Petrify::padded_blocks`]).
const PADDED: usize = MAX_SIDE + 4;

/// A Petrify position.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Petrify {
    size: u8,
    squares: Box<[Square]>,
    to_move: Colour,
    /// Moves played so far (Orange's first turn is the second move).
    plies: u32,
    /// Whether the players hold each other's starting colours.
    swapped: bool,
    /// Passes in a row; two end the game.
    passes: u8,
    /// The colour now held by the player who made the last board play.
    last_board_play: Option<Colour>,
}

impl Petrify {
    /// The board's size when a record gives none.
    pub const DEFAULT_SIZE: u8 = 8;
    /// The board sizes Petrify is played on.
    pub const SIZES: std::ops::RangeInclusive<u8> = 6..=MAX_SIDE as u8;

    /// An empty board of `size` x `size` squares, Blue to move.
    pub fn new(size: u8) -> Result<Petrify, SetupError> {
        super::ABOUT.check_size(size, false)?;
        Ok(Petrify {
            size,
            squares: vec![Square::Empty; size as usize * size as usize].into_boxed_slice(),
            to_move: Colour::Blue,
            plies: 0,
            swapped: false,
            passes: 0,
            last_board_play: None,
        })
    }

    /// This board with the squares of a setup diagram, one glyph per square in reading order.
    pub fn setup(&self, cells: &[&str]) -> Result<Petrify, SetupError> {
        let mut p = Petrify::new(self.size)?;
        let g = p.geometry();
        let read = |glyph: &str| match glyph {
            "." => Some(Square::Empty),
            "B" => Some(Square::Disk(Colour::Blue)),
            "O" => Some(Square::Disk(Colour::Orange)),
            "#" => Some(Square::Block),
            _ => None,
        };
        for (c, square) in super::ABOUT.read_setup(g, cells, "B, O, # or .", read)? {
            p.squares[c.0 as usize] = square;
        }
        for c in g.cells().filter(|&c| p.square(c) == Square::Block) {
            if let Some(formation) = p.formation_through(c) {
                let block = g.label(c);
                return Err(SetupError::rules(format_args!(
                    "the block on {block} makes {formation}: a start position may hold no mound or barricade"
                )));
            }
        }
        Ok(p)
    }

    /// The board's side, in squares.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The board's shape.
    pub fn geometry(&self) -> Geometry {
        Geometry::Square { size: self.size }
    }

    /// What stands on `c`.
    pub fn square(&self, c: Cell) -> Square {
        self.squares[c.0 as usize]
    }

    /// The colour to move.
    pub fn to_move(&self) -> Colour {
        self.to_move
    }

    /// Whether the players have swapped colours (the pie rule): the player who moved first now
    /// holds Orange.
    pub fn swapped(&self) -> bool {
        self.swapped
    }

    /// The colour now held by the player who made the last board play, if any was made.
    pub fn last_board_play(&self) -> Option<Colour> {
        self.last_board_play
    }

    fn label(&self, c: Cell) -> CellLabel {
        self.geometry().label(c)
    }

    fn at(&self, col: i32, row: i32) -> Option<Cell> {
        let n = self.size as i32;
        let inside = (0..n).contains(&col) && (0..n).contains(&row);
        inside.then(|| Cell((row * n + col) as u16))
    }

    fn coords(&self, c: Cell) -> (i32, i32) {
        let n = self.size as u16;
        ((c.0 % n) as i32, (c.0 / n) as i32)
    }

    /// The mound or barricade a block on `block` makes (or would make) with the blocks already on
    /// the board and the ring of virtual blocks around it.
    pub fn formation_through(&self, block: Cell) -> Option<Formation> {
        let (bc, br) = self.coords(block);
        let n = self.size as i32;
        // The imaginary board runs from -1 to n; its squares outside the real board are blocks.
        let blocked = |col: i32, row: i32| match self.at(col, row) {
            Some(c) => c == block || self.square(c) == Square::Block,
            None => (-1..=n).contains(&col) && (-1..=n).contains(&row),
        };
        let formation = |shape, squares: &[(i32, i32)]| {
            let mut with: Vec<Cell> =
                squares.iter().filter_map(|&(c, r)| self.at(c, r)).filter(|&c| c != block).collect();
            // By file, then rank: the order of the labels, and along the line for a barricade.
            with.sort_by_key(|&c| self.coords(c));
            let edge = squares.iter().any(|&(c, r)| self.at(c, r).is_none());
            Formation { shape, with: with.into_iter().map(|c| self.label(c)).collect(), edge }
        };
        for (c0, r0) in [(bc - 1, br - 1), (bc, br - 1), (bc - 1, br), (bc, br)] {
            let squares = [(c0, r0), (c0 + 1, r0), (c0, r0 + 1), (c0 + 1, r0 + 1)];
            if squares.iter().all(|&(c, r)| blocked(c, r)) {
                return Some(formation(Shape::Mound, &squares));
            }
        }
        for (dc, dr) in [(1, 1), (1, -1)] {
            for k in -2..=0 {
                let squares: [(i32, i32); 3] =
                    std::array::from_fn(|i| (bc + (k + i as i32) * dc, br + (k + i as i32) * dr));
                if squares.iter().all(|&(c, r)| blocked(c, r)) {
                    return Some(formation(Shape::Barricade, &squares));
                }
            }
        }
        None
    }

    /// The first thing that stops a disk sliding from `from` towards `to` (which lie on one line),
    /// counting neither end.
    fn obstacle(&self, from: Cell, to: Cell, mover: Colour) -> Option<(Cell, Square)> {
        let ((fc, fr), (tc, tr)) = (self.coords(from), self.coords(to));
        let (dc, dr) = ((tc - fc).signum(), (tr - fr).signum());
        let steps = (tc - fc).abs().max((tr - fr).abs());
        (1..steps).filter_map(|k| self.at(fc + k * dc, fr + k * dr)).find_map(|c| match self.square(c) {
            Square::Empty => None,
            Square::Disk(colour) if colour == mover => None,
            other => Some((c, other)),
        })
    }

    /// Where the blocks are on the imaginary board with a ring of virtual blocks, itself inside one
    /// more ring of squares that hold nothing (so that every neighbour two squares away of a real
    /// square has an index): [`PADDED`] squares a side at most, `size + 4` of them used.
    fn padded_blocks(&self) -> [bool; PADDED * PADDED] {
        let n = self.size as usize;
        let w = n + 4;
        let mut blocked = [false; PADDED * PADDED];
        for k in 1..=n + 2 {
            for (col, row) in [(k, 1), (k, n + 2), (1, k), (n + 2, k)] {
                blocked[row * w + col] = true;
            }
        }
        for (row, squares) in self.squares.chunks_exact(n).enumerate() {
            let start = (row + 2) * w + 2;
            for (b, &square) in blocked[start..start + n].iter_mut().zip(squares) {
                *b = square == Square::Block;
            }
        }
        blocked
    }

    /// Whether a block on `block` makes (or would make) a mound or barricade, given the
    /// [`Petrify::padded_blocks`] of the board: the question [`Petrify::formation_through`]
    /// answers, without building the formation. Move generation asks it of every disk of the mover.
    fn makes_formation(&self, blocked: &[bool; PADDED * PADDED], block: Cell) -> bool {
        let n = self.size as usize;
        let w = n + 4;
        let p = (block.0 as usize / n + 2) * w + block.0 as usize % n + 2;
        let at = |d: isize| d == 0 || blocked[p.wrapping_add_signed(d)];
        let (w, across, down) = (w as isize, w as isize + 1, w as isize - 1);
        // Every mound and every barricade through the block holds one of its diagonal neighbours.
        if !(at(-across) || at(-down) || at(down) || at(across)) {
            return false;
        }
        let mound = |top_left: isize| at(top_left) && at(top_left + 1) && at(top_left + w) && at(top_left + across);
        if mound(-across) || mound(-w) || mound(-1) || mound(0) {
            return true;
        }
        [across, down].iter().any(|&d| {
            // The three lines of three through the block: behind it, across it, ahead of it.
            (at(-d) && (at(-2 * d) || at(d))) || (at(d) && at(2 * d))
        })
    }

    /// Calls `visit` with every capture the mover has, in reading order of the capturing disk,
    /// then in the order of [`QUEEN`], until it returns `false`.
    fn visit_captures(&self, mut visit: impl FnMut(Cell, Cell) -> bool) {
        let mover = self.to_move;
        let n = self.size as i32;
        let blocked = self.padded_blocks();
        for (i, &square) in self.squares.iter().enumerate() {
            let from = Cell(i as u16);
            // The block a capture leaves depends on its start square only. Asked first: near the
            // end of a game most disks are held by the blocks, and need no slide looked at.
            if square != Square::Disk(mover) || self.makes_formation(&blocked, from) {
                continue;
            }
            let (fc, fr) = self.coords(from);
            for &(dc, dr) in &QUEEN {
                // Squares from `from` to the edge of the board in this direction.
                let room = |d: i32, at: i32| match d {
                    1 => n - 1 - at,
                    -1 => at,
                    _ => n,
                };
                let steps = room(dc, fc).min(room(dr, fr)) as usize;
                let stride = (dr * n + dc) as isize;
                let mut to = i;
                for _ in 0..steps {
                    to = to.wrapping_add_signed(stride);
                    match self.squares[to] {
                        Square::Empty => {}
                        Square::Disk(colour) if colour == mover => {}
                        Square::Disk(_) => {
                            if !visit(from, Cell(to as u16)) {
                                return;
                            }
                            break;
                        }
                        Square::Block => break,
                    }
                }
            }
        }
    }

    fn board_play(&self) -> Option<BoardPlay> {
        if self.squares.contains(&Square::Empty) {
            return Some(BoardPlay::Placement);
        }
        let mut first = None;
        self.visit_captures(|from, to| {
            first = Some(BoardPlay::Capture { from: self.label(from), to: self.label(to) });
            false
        });
        first
    }

    /// The patches of the board, in reading order of their first squares, with their owners.
    pub fn patches(&self) -> Vec<Patch> {
        self.patch_squares().into_iter().map(|(_, p)| p).collect()
    }

    /// [`Petrify::patches`], each with its squares: what a picture shades.
    fn patch_squares(&self) -> Vec<(Vec<Cell>, Patch)> {
        let g = self.geometry();
        let n = self.squares.len();
        let mut patch_seen = vec![false; n];
        let mut group_seen = vec![false; n];
        let mut patches = Vec::new();
        let mut stack = Vec::new();
        for first in g.cells() {
            if self.square(first) == Square::Block || patch_seen[first.0 as usize] {
                continue;
            }
            let mut squares = Vec::new();
            patch_seen[first.0 as usize] = true;
            stack.push(first);
            while let Some(c) = stack.pop() {
                squares.push(c);
                for nb in g.neighbours(c) {
                    if self.square(nb) != Square::Block && !patch_seen[nb.0 as usize] {
                        patch_seen[nb.0 as usize] = true;
                        stack.push(nb);
                    }
                }
            }
            // A group's disks are non-block squares joined orthogonally, so it lies in one patch.
            let mut groups: [Vec<u16>; 2] = [Vec::new(), Vec::new()];
            for &start in &squares {
                let Square::Disk(colour) = self.square(start) else { continue };
                if group_seen[start.0 as usize] {
                    continue;
                }
                group_seen[start.0 as usize] = true;
                stack.push(start);
                let mut count = 0;
                while let Some(c) = stack.pop() {
                    count += 1;
                    for nb in g.neighbours(c) {
                        if self.square(nb) == Square::Disk(colour) && !group_seen[nb.0 as usize] {
                            group_seen[nb.0 as usize] = true;
                            stack.push(nb);
                        }
                    }
                }
                groups[colour.index()].push(count);
            }
            for v in &mut groups {
                v.sort_unstable_by(|a, b| b.cmp(a));
            }
            let remaining = cancel(&groups);
            // Equal sizes cancel, so the largest remaining size is one colour's alone.
            let owner = match (remaining[0].first(), remaining[1].first()) {
                (None, None) => None,
                (Some(_), None) => Some(Colour::Blue),
                (None, Some(_)) => Some(Colour::Orange),
                (Some(b), Some(o)) => Some(if b > o { Colour::Blue } else { Colour::Orange }),
            };
            let size = squares.len() as u16;
            patches.push((squares, Patch { first, size, groups, remaining, owner }));
        }
        patches
    }
}

impl Petrify {
    /// The squares orthogonally joined to `start` whose contents `joins` accepts (`start` is
    /// one), into `found` by index, each marked in `seen`; gives how many. Index arithmetic on
    /// arrays on the stack, for [`Game::score`].
    fn flood(
        &self,
        start: usize,
        found: &mut [u8; MAX_SQUARES],
        seen: &mut [bool; MAX_SQUARES],
        joins: impl Fn(Square) -> bool,
    ) -> usize {
        let (n, w) = (self.squares.len(), self.size as usize);
        seen[start] = true;
        found[0] = start as u8;
        // The squares past `next` are found but not yet looked around.
        let (mut len, mut next) = (1, 0);
        while next < len {
            let c = found[next] as usize;
            next += 1;
            let sides = [
                (c >= w, c.wrapping_sub(w)),
                (!(c + 1).is_multiple_of(w), c + 1),
                (c + w < n, c + w),
                (!c.is_multiple_of(w), c.wrapping_sub(1)),
            ];
            for (on_board, d) in sides {
                if on_board && !seen[d] && joins(self.squares[d]) {
                    seen[d] = true;
                    found[len] = d as u8;
                    len += 1;
                }
            }
        }
        len
    }
}

/// Removes pairs of opposite groups of the same size: for each size, as many as the colour with
/// fewer groups of that size has. Both lists are sorted largest first, and so is the result.
fn cancel(groups: &[Vec<u16>; 2]) -> [Vec<u16>; 2] {
    let mut left = [Vec::new(), Vec::new()];
    let (mut i, mut j) = (0, 0);
    let (b, o) = (&groups[0], &groups[1]);
    while i < b.len() || j < o.len() {
        match (b.get(i), o.get(j)) {
            (Some(x), Some(y)) if x == y => (i, j) = (i + 1, j + 1),
            (Some(x), Some(y)) if x > y => {
                left[0].push(*x);
                i += 1;
            }
            (_, Some(y)) => {
                left[1].push(*y);
                j += 1;
            }
            (Some(x), None) => {
                left[0].push(*x);
                i += 1;
            }
            (None, None) => unreachable!(),
        }
    }
    left
}

impl BoardView for Petrify {
    fn geometry(&self) -> Geometry {
        Petrify::geometry(self)
    }

    fn glyph(&self, cell: Cell) -> &'static str {
        self.square(cell).glyph()
    }

    fn figure(&self, cell: Cell) -> Option<Figure> {
        // `crate::game::Shape` in full: this module's `Shape` is a formation of blocks.
        match self.square(cell) {
            Square::Empty => None,
            Square::Disk(colour) => {
                Some(Figure { owner: Some(colour.index() as u8), shape: crate::game::Shape::Disc, name: "disk" })
            }
            Square::Block => Some(Figure { owner: None, shape: crate::game::Shape::Block, name: "block" }),
        }
    }

    fn player_names(&self) -> &'static [&'static str] {
        &["Blue", "Orange"]
    }

    /// The patches that count for a colour, shaded in it: the ones [`Game::score`] adds up.
    fn scoring(&self) -> Vec<Region> {
        self.patch_squares()
            .into_iter()
            .filter_map(|(mut cells, p)| {
                cells.sort_unstable();
                Some(Region { owner: p.owner?.index() as u8, cells, mark: Mark::Shade, name: "patch" })
            })
            .collect()
    }

    fn counted_at_end(&self) -> bool {
        true
    }
}

/// The search stores Petrify positions whole: they are plain data (a board and the turn's state), and
/// equal positions have the same continuations.
impl crate::game::PlainData for Petrify {
    fn heap_bytes(&self) -> usize {
        crate::game::key::allocation(std::mem::size_of_val(&*self.squares))
    }

    fn plain_hash(&self) -> u64 {
        let square = |s: &Square| match s {
            Square::Empty => 0,
            Square::Disk(c) => 1 + *c as u8,
            Square::Block => 3,
        };
        let rest = (self.size, self.to_move, self.plies, self.swapped, self.passes, self.last_board_play);
        crate::game::board_hash(&self.squares, square, rest)
    }
}

impl Game for Petrify {
    type Move = PetrifyMove;
    type Illegal = Illegal;
    type Score = PetrifyScore;

    fn about(&self) -> &'static crate::game::About {
        &super::ABOUT
    }

    fn legal_moves(&self) -> Vec<PetrifyMove> {
        if self.is_over() {
            return Vec::new();
        }
        let mut moves = Vec::with_capacity(self.squares.len() + 2);
        moves.extend(
            (self.squares.iter().enumerate())
                .filter(|&(_, &square)| square == Square::Empty)
                .map(|(i, _)| PetrifyMove::Place(Cell(i as u16))),
        );
        self.visit_captures(|from, to| {
            moves.push(PetrifyMove::Capture { from, to });
            true
        });
        if moves.is_empty() {
            moves.push(PetrifyMove::Pass);
        }
        if self.plies == 1 {
            moves.push(PetrifyMove::Swap);
        }
        moves
    }

    fn check(&self, m: PetrifyMove) -> Result<(), Illegal> {
        if self.is_over() {
            return Err(Illegal::GameOver);
        }
        let g = self.geometry();
        let cells = match m {
            PetrifyMove::Place(c) => vec![c],
            PetrifyMove::Capture { from, to } => vec![from, to],
            PetrifyMove::Pass | PetrifyMove::Swap => vec![],
        };
        if let Some(&c) = cells.iter().find(|&&c| !g.contains(c)) {
            return Err(Illegal::OffBoard { cell: g.label(c), size: self.size });
        }
        let mover = self.to_move;
        match m {
            PetrifyMove::Place(c) => match self.square(c) {
                Square::Empty => Ok(()),
                _ => Err(Illegal::NotEmpty { cell: g.label(c) }),
            },
            PetrifyMove::Capture { from, to } => {
                let (lf, lt) = (g.label(from), g.label(to));
                if self.square(from) != Square::Disk(mover) {
                    return Err(Illegal::NoDisk { colour: mover, cell: lf });
                }
                if self.square(to) != Square::Disk(mover.opponent()) {
                    return Err(Illegal::NothingToCapture { enemy: mover.opponent(), cell: lt });
                }
                let ((fc, fr), (tc, tr)) = (self.coords(from), self.coords(to));
                let (dc, dr) = ((tc - fc).abs(), (tr - fr).abs());
                if !(dc == 0 || dr == 0 || dc == dr) {
                    return Err(Illegal::NotStraight { from: lf, to: lt });
                }
                if let Some((c, what)) = self.obstacle(from, to, mover) {
                    let by = match what {
                        Square::Disk(colour) => Obstacle::Disk(colour, g.label(c)),
                        _ => Obstacle::Block(g.label(c)),
                    };
                    return Err(Illegal::Blocked { from: lf, to: lt, by });
                }
                match self.formation_through(from) {
                    Some(formation) => Err(Illegal::Formation { block: lf, formation }),
                    None => Ok(()),
                }
            }
            PetrifyMove::Pass => match self.board_play() {
                Some(play) => Err(Illegal::MayNotPass { colour: mover, play }),
                None => Ok(()),
            },
            PetrifyMove::Swap if self.plies == 1 => Ok(()),
            PetrifyMove::Swap => Err(Illegal::SwapNotAllowed),
        }
    }

    fn play_unchecked(&mut self, m: PetrifyMove) {
        let mover = self.to_move;
        let at = |c: Cell| self.squares.get(c.0 as usize).copied();
        // Lenient replay plays refused moves as written where the board can hold them (a capture
        // through an obstacle or into a formation); a placement on a full square or a capture
        // without the two disks cannot be played, and only the turn goes by.
        match m {
            PetrifyMove::Place(c) if at(c) == Some(Square::Empty) => {
                self.squares[c.0 as usize] = Square::Disk(mover);
                self.last_board_play = Some(mover);
            }
            PetrifyMove::Capture { from, to }
                if at(from) == Some(Square::Disk(mover)) && at(to) == Some(Square::Disk(mover.opponent())) =>
            {
                self.squares[from.0 as usize] = Square::Block;
                self.squares[to.0 as usize] = Square::Disk(mover);
                self.last_board_play = Some(mover);
            }
            PetrifyMove::Swap => {
                self.swapped = !self.swapped;
                // The player who made the last board play now holds the other colour.
                self.last_board_play = self.last_board_play.map(Colour::opponent);
            }
            _ => {}
        }
        self.passes = if m == PetrifyMove::Pass { self.passes + 1 } else { 0 };
        // After a swap the other player, now Orange, moves: the colour to move stays Orange.
        if m != PetrifyMove::Swap {
            self.to_move = mover.opponent();
        }
        self.plies += 1;
    }

    /// A pass written by a player who had a board play stands for it: it does not count toward
    /// the two passes in a row that end the game (RULINGS Petrify 3), and like the play it breaks
    /// a run of passes. Otherwise two wrong passes would end the game, and every later move of the
    /// record would come after the end.
    fn play_refused(&mut self, m: PetrifyMove, why: &Illegal) {
        self.play_unchecked(m);
        if let Illegal::MayNotPass { .. } = why {
            self.passes = 0;
        }
    }

    fn is_over(&self) -> bool {
        self.passes >= 2
    }

    /// What [`Petrify::patches`] gives, added up by owner, without the lists: a claim's search
    /// scores every finished position it reaches.
    fn score(&self) -> PetrifyScore {
        let squares = &self.squares[..];
        let mut patch_seen = [false; MAX_SQUARES];
        let mut group_seen = [false; MAX_SQUARES];
        let (mut patch, mut group) = ([0u8; MAX_SQUARES], [0u8; MAX_SQUARES]);
        // For each group size in the patch, Blue's groups less Orange's; and the sizes seen.
        let mut balance = [0i8; MAX_SQUARES + 1];
        let mut sizes = [0u8; MAX_SQUARES];
        let mut points = [0, 0];
        for first in 0..squares.len() {
            if squares[first] == Square::Block || patch_seen[first] {
                continue;
            }
            let area = self.flood(first, &mut patch, &mut patch_seen, |s| s != Square::Block);
            let mut kinds = 0;
            for &start in &patch[..area] {
                let start = start as usize;
                let Square::Disk(colour) = squares[start] else { continue };
                if group_seen[start] {
                    continue;
                }
                let size = self.flood(start, &mut group, &mut group_seen, |s| s == Square::Disk(colour));
                if balance[size] == 0 {
                    sizes[kinds] = size as u8;
                    kinds += 1;
                }
                balance[size] += if colour == Colour::Blue { 1 } else { -1 };
            }
            // Equal-sized opposite groups cancel: the owner has more groups of the largest size at
            // which the counts differ.
            let mut owner = None;
            for &size in &sizes[..kinds] {
                let size = size as usize;
                if balance[size] != 0 && owner.is_none_or(|(largest, _)| size > largest) {
                    owner = Some((size, if balance[size] > 0 { Colour::Blue } else { Colour::Orange }));
                }
                balance[size] = 0;
            }
            if let Some((_, colour)) = owner {
                points[colour.index()] += area as u16;
            }
        }
        PetrifyScore { points }
    }

    fn signs(&self, m: PetrifyMove) -> Vec<Sign> {
        vec![match m {
            PetrifyMove::Place(c) => Sign::Ring(c),
            PetrifyMove::Capture { from, to } => Sign::Arrow { from, to },
            PetrifyMove::Pass => Sign::Pass,
            PetrifyMove::Swap => Sign::Swap,
        }]
    }
}

impl Playable for Petrify {
    const ABOUT: crate::game::About = super::ABOUT;
    const POSITIONS: &'static str = include_str!("petrify.perft");

    fn to_move(&self) -> usize {
        self.to_move.index()
    }

    fn start(size: Option<u8>, players: Option<u8>) -> Result<Petrify, SetupError> {
        super::ABOUT.check_players(players)?;
        Petrify::new(size.unwrap_or(Petrify::DEFAULT_SIZE))
    }

    fn with_setup(&self, cells: &[&str]) -> Result<Petrify, SetupError> {
        self.setup(cells)
    }

    fn points(&self) -> Vec<f64> {
        self.score().points.iter().map(|&p| p as f64).collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let s = self.score();
        let (blue, orange) = (s.of(Colour::Blue), s.of(Colour::Orange));
        let (winner, mut detail) = match blue.cmp(&orange) {
            std::cmp::Ordering::Greater => {
                (Some(Colour::Blue), format!("Blue owns {blue} squares to Orange's {orange} and wins"))
            }
            std::cmp::Ordering::Less => {
                (Some(Colour::Orange), format!("Orange owns {orange} squares to Blue's {blue} and wins"))
            }
            std::cmp::Ordering::Equal => match self.last_board_play {
                Some(last) => (
                    Some(last.opponent()),
                    format!(
                        "Blue and Orange both own {blue} squares: {last} made the last board play and loses the tie"
                    ),
                ),
                None => (None, format!("Blue and Orange both own {blue} squares and nobody made a board play: a draw")),
            },
        };
        if self.swapped {
            detail.push_str(" (the players swapped sides: the first player holds Orange)");
        }
        Some(Outcome { winner: winner.map(Colour::index), points: vec![blue as f64, orange as f64], detail })
    }
}

// The position code (grammar.md, "Position codes") reads and writes every field of the engine.
mod code;

#[cfg(test)]
mod tests {
    use super::*;

    /// The score by arrays on the stack against the patches it adds up, on boards of random
    /// squares (any mix of disks, blocks and empty squares, formations or not) and the positions
    /// of random games, on every size.
    #[test]
    fn the_score_adds_up_the_patches() {
        let by_patches = |p: &Petrify| {
            let mut points = [0, 0];
            for patch in p.patches() {
                if let Some(owner) = patch.owner {
                    points[owner.index()] += patch.size;
                }
            }
            PetrifyScore { points }
        };
        let mut rng = fastrand::Rng::with_seed(20);
        let kinds = [Square::Empty, Square::Disk(Colour::Blue), Square::Disk(Colour::Orange), Square::Block];
        for size in Petrify::SIZES {
            for _ in 0..300 {
                let mut p = Petrify::new(size).unwrap();
                let weights: Vec<u32> = (0..4).map(|_| rng.u32(0..10)).collect();
                let total = weights.iter().sum::<u32>().max(1);
                for square in p.squares.iter_mut() {
                    // Each kind with its weight's share of the squares.
                    let mut pick = rng.u32(0..total);
                    for (&kind, &weight) in kinds.iter().zip(&weights) {
                        if pick < weight {
                            *square = kind;
                            break;
                        }
                        pick -= weight;
                    }
                }
                assert_eq!(p.score(), by_patches(&p), "{}", crate::game::code::Coded::code(&p));
            }
            for seed in 0..4 {
                let mut p = Petrify::new(size).unwrap();
                for m in crate::game::random::random_game(&p, 100 * size as u64 + seed, 100_000) {
                    p.play_unchecked(m);
                    assert_eq!(p.score(), by_patches(&p), "{}", crate::game::code::Coded::code(&p));
                }
            }
        }
    }
}
