//! The Vadrantir engine (docs/rules/vadrantir.md: the rule text, and RULINGS Vadrantir 1-6 that
//! override it).
//!
//! Decisions where the texts leave a point open:
//! - The placement rule is one inequality: the group the new stone forms (with every friendly
//!   group it touches, merged) may hold at most one stone more than the largest enemy group
//!   adjacent to any stone of that group, 0 if none is. A stone touching no friendly stone forms a
//!   group of 1, and 1 <= 0 + 1, so the seed's first clause is a case of the second and needs no
//!   check of its own.
//! - "Adjacent to that group after placement" means adjacent to any stone of the merged group, not
//!   only to the new stone: an enemy group touching an old stone of the group counts.
//! - The pie rule: White's first turn is the second move of the game (counted from the start or
//!   from a setup), whatever Black's first move was. `swap` leaves the board alone; the players
//!   exchange colours and the colour to move stays White, now held by the first player, as in
//!   Quarod and Petrify. Scores and the winner go by colour; [`Vadrantir::swapped`] tells a report
//!   that the players hold each other's colours.
//! - The end (RULINGS 4 replaces the seed's "exactly one player cannot place"): the game is over as
//!   soon as the colour to move has no legal placement. A swap is not a placement, so on a White
//!   first turn without a placement the game is over and `swap` is refused with the rest: a swap
//!   leaves the board and the colour to move as they are, so it could only add a move after the
//!   end. This cannot happen on a real board: after one Black stone on a board of 61 cells or
//!   more, White has no stone, so every empty cell is a placement that touches no friendly stone.
//!   Only a setup reaches it.
//! - Territories and the half point compare two lists of group sizes, largest first, a missing
//!   group counting 0. Since every group holds a stone, this is the plain lexicographic order of
//!   the lists, and they compare equal only when they are identical. A territory with no adjacent
//!   group (the empty board) is owned by nobody.
//! - The totals can only be equal when nobody takes the half point (the two sides' group lists are
//!   identical) and the territories are worth the same: then nobody wins. With identical group
//!   lists and different territories, the larger territory still wins.
//! - A move after the end is refused as "the game is over", whatever else is wrong with it (a full
//!   cell, a group too large, a swap); a cell off the board is refused before that, when the
//!   written move is resolved against the board.
//! - A setup diagram may hold any stones, even a group no legal play could make; Black is to move.
//! - [`Game::score`] counts the territories as the board stands, finished or not.
//!
//! The game always ends: every placement fills an empty cell, and the only other move, the swap,
//! comes at most once, so a game has at most one move per cell plus one.

use std::cmp::Ordering;
use std::fmt;
use std::sync::OnceLock;

use crate::game::{BoardView, BreaksRule, Game, Outcome, Playable, SetupError};
use crate::game::{Figure, Mark, Region, Shape, Sign};
use crate::geometry::{Cell, CellLabel, Geometry};

/// The two colours. Scores and results go by colour; after a pie swap the players hold the other
/// colour than the one they started with.
pub use crate::game::Colour;

/// The glyph of an empty cell.
const EMPTY_GLYPH: &str = ".";

/// One turn of a Vadrantir game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum VadrantirMove {
    /// A stone of the mover's colour on an empty cell.
    Place(Cell),
    /// The pie rule: the players exchange colours, and White is to move again.
    Swap,
}

/// The group a stone would form, and what it is measured against.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Formed {
    /// The stones of the group: the new stone and every friendly group it touches.
    pub stones: u16,
    /// The size of the largest enemy group adjacent to any of those stones; 0 if none is.
    pub enemy: u16,
}

impl Formed {
    /// At most one stone larger than the largest adjacent enemy group (RULINGS Vadrantir 3).
    pub fn allowed(self) -> bool {
        self.stones <= self.enemy + 1
    }
}

/// Why a move is illegal, in the game's words. Cells are labels, so a message stands alone.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Illegal {
    /// The colour to move has no legal placement.
    GameOver {
        /// That colour.
        colour: Colour,
    },
    /// A cell is not on the board.
    OffBoard {
        /// The cell.
        cell: CellLabel,
        /// The board's side.
        side: u8,
    },
    /// A placement on an occupied cell.
    NotEmpty {
        /// The cell.
        cell: CellLabel,
    },
    /// A stone on `cell` would form a group of `stones` stones, more than one larger than the
    /// largest adjacent `enemy_colour` group, of `enemy` stones (0 if none is adjacent).
    GroupTooLarge {
        /// The cell.
        cell: CellLabel,
        /// Stones in the group it would form.
        stones: u16,
        /// The other colour.
        enemy_colour: Colour,
        /// Stones in its largest group adjacent to that group.
        enemy: u16,
    },
    /// `swap` anywhere but on White's first turn.
    SwapNotAllowed,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Illegal::*;
        match self {
            GameOver { colour } => write!(f, "the game is over: {colour} has no legal placement"),
            OffBoard { cell, side } => write!(f, "{cell} is not a cell of the side-{side} board"),
            NotEmpty { cell } => write!(f, "{cell} is not empty"),
            GroupTooLarge { stones, enemy_colour, enemy: 0, .. } => write!(
                f,
                "the group this stone would form ({stones} stones) touches no {enemy_colour} group, so it may \
                 hold only 1 stone"
            ),
            GroupTooLarge { stones, enemy_colour, enemy, .. } => write!(
                f,
                "the group this stone would form ({stones} stones) is more than one larger than the largest \
                 adjacent {enemy_colour} group ({enemy})"
            ),
            SwapNotAllowed => write!(f, "a swap of sides is only allowed on White's first turn"),
        }
    }
}

impl std::error::Error for Illegal {}

/// Each reason names its section of docs/rules/vadrantir.md.
impl BreaksRule for Illegal {
    const RULES: &'static [&'static str] = &["end", "board", "placement", "group-limit", "pie"];

    fn rule(&self) -> &'static str {
        use Illegal::*;
        match self {
            GameOver { .. } => "end",
            OffBoard { .. } => "board",
            NotEmpty { .. } => "placement",
            GroupTooLarge { .. } => "group-limit",
            SwapNotAllowed => "pie",
        }
    }
}

/// The first difference between two lists of group sizes, largest first (RULINGS Vadrantir 5
/// and 6): the colour whose groups are larger there, and the two sizes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Comparison {
    /// The colour with the larger group at the first difference.
    pub larger: Colour,
    /// Where the lists first differ: 0 for the largest groups, 1 for the second largest, ...
    pub rank: usize,
    /// The two groups there, indexed by [`Colour::index`]; 0 for a missing group.
    pub sizes: [u16; 2],
}

impl Comparison {
    /// Compares the two colours' group sizes (each sorted largest first); `None` if they are the
    /// same lists.
    pub fn of(groups: &[Vec<u16>; 2]) -> Option<Comparison> {
        Comparison::of_lists(&groups[0], &groups[1])
    }

    /// [`Comparison::of`] the lists of Black's and White's group sizes, each largest first.
    fn of_lists(black: &[u16], white: &[u16]) -> Option<Comparison> {
        let rank = (0..black.len().max(white.len())).find(|&i| black.get(i) != white.get(i))?;
        let sizes = [black.get(rank).copied().unwrap_or(0), white.get(rank).copied().unwrap_or(0)];
        let larger = if sizes[0] > sizes[1] { Colour::Black } else { Colour::White };
        Some(Comparison { larger, rank, sizes })
    }
}

impl fmt::Display for Comparison {
    /// The larger side's group first: `7 to 5`, or `3 to 2 in the 2nd largest groups` after equal
    /// largest ones; a missing group is `none`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = |n: u16| if n == 0 { "none".to_string() } else { n.to_string() };
        let (own, other) = (self.sizes[self.larger.index()], self.sizes[self.larger.opponent().index()]);
        write!(f, "{} to {}", size(own), size(other))?;
        if self.rank > 0 {
            let n = self.rank + 1;
            let suffix = match (n % 10, n % 100) {
                (1, r) if r != 11 => "st",
                (2, r) if r != 12 => "nd",
                (3, r) if r != 13 => "rd",
                _ => "th",
            };
            write!(f, " in the {n}{suffix} largest groups")?;
        }
        Ok(())
    }
}

/// A territory: a maximal connected set of empty cells.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Territory {
    /// Its first cell in reading order.
    pub first: Cell,
    /// Its number of cells: its value.
    pub cells: u16,
    /// The sizes of each colour's groups adjacent to it, largest first (indexed by
    /// [`Colour::index`]).
    pub groups: [Vec<u16>; 2],
    /// How the adjacent groups compare; `None` when they are the same on both sides.
    pub comparison: Option<Comparison>,
}

impl Territory {
    /// The colour with the larger adjacent groups; nobody if they compare equal.
    pub fn owner(&self) -> Option<Colour> {
        self.comparison.map(|c| c.larger)
    }
}

/// The score: the territories each colour owns, and the half point for the larger groups.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct VadrantirScore {
    /// The cells of the territories each colour owns, indexed by [`Colour::index`].
    pub territory: [u16; 2],
    /// How all the groups on the board compare; `None` if both colours have the same sizes.
    pub groups: Option<Comparison>,
}

impl VadrantirScore {
    /// The colour that takes the half point, if either does.
    pub fn half_point(&self) -> Option<Colour> {
        self.groups.map(|c| c.larger)
    }

    /// A colour's total in half points, so that totals compare exactly.
    fn halves(&self, colour: Colour) -> u32 {
        2 * self.territory[colour.index()] as u32 + u32::from(self.half_point() == Some(colour))
    }

    /// A colour's total: its territories plus the half point if it takes it.
    pub fn of(&self, colour: Colour) -> f64 {
        self.halves(colour) as f64 / 2.0
    }

    /// Both totals, Black first.
    pub fn points(&self) -> [f64; 2] {
        [self.of(Colour::Black), self.of(Colour::White)]
    }

    /// The colour with the higher total; `None` if the totals are equal.
    pub fn leader(&self) -> Option<Colour> {
        match self.halves(Colour::Black).cmp(&self.halves(Colour::White)) {
            Ordering::Greater => Some(Colour::Black),
            Ordering::Less => Some(Colour::White),
            Ordering::Equal => None,
        }
    }
}

impl fmt::Display for VadrantirScore {
    /// `Black 12.5, White 10`: the half point shows as `.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, colour) in Colour::BOTH.into_iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            let half = if self.half_point() == Some(colour) { ".5" } else { "" };
            write!(f, "{colour} {}{half}", self.territory[colour.index()])?;
        }
        Ok(())
    }
}

/// A set of cells of one board, a bit per cell in reading order: the largest board (side 7) has
/// 127 cells, so one word holds any set, and the rules' questions (is this cell empty, does it
/// touch a friendly stone, which stones border this territory) are a mask and a test.
type Cells = u128;

/// Most cells of a board (side 7).
const MAX_CELLS: usize = 127;

/// The index past the last cell: it stands for the group of an empty cell, with no colour and
/// size 0, so that asking for the stone on a cell needs no test for an empty one.
const NOWHERE: u8 = MAX_CELLS as u8;

/// Entries of the per-index tables: every cell and [`NOWHERE`].
const INDICES: usize = MAX_CELLS + 1;

/// Per index, the set of that one cell: a shift of a two-word set by a variable takes several
/// instructions, a look-up two loads, and the engine's inner loops make one per stone they meet.
static BITS: [Cells; INDICES] = {
    let mut bits = [0; INDICES];
    let mut i = 0;
    while i < INDICES {
        bits[i] = 1 << i;
        i += 1;
    }
    bits
};

/// The set of cell `i` (an index below [`INDICES`], as every cell's and root's is).
fn bit(i: usize) -> Cells {
    BITS[i % INDICES]
}

/// The set of these cells.
fn set_of(indices: impl IntoIterator<Item = usize>) -> Cells {
    indices.into_iter().fold(0, |set, i| set | bit(i))
}

/// The indices of the cells of a set, lowest first (reading order). The set is taken a word at a
/// time: finding and clearing the lowest cell of one word is one instruction each, of two words
/// several.
fn members(set: Cells) -> Members {
    Members { low: set as u64, high: (set >> 64) as u64 }
}

/// The iterator of [`members`]: the cells left, the low word's first.
struct Members {
    low: u64,
    high: u64,
}

impl Iterator for Members {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.low != 0 {
            let i = self.low.trailing_zeros() as usize;
            self.low &= self.low - 1;
            Some(i)
        } else if self.high != 0 {
            let i = self.high.trailing_zeros() as usize;
            self.high &= self.high - 1;
            Some(64 + i)
        } else {
            None
        }
    }
}

/// The cells of a board and their neighbours, worked out once per side from its [`Geometry`].
/// The engine numbers the cells in reading order (an index into [`Cells`]); a [`Cell`] is a slot
/// of the geometry's grid, so moves and queries translate once, on the way in.
struct Topology {
    /// Per index: the cell.
    cells: Vec<Cell>,
    /// Per grid slot: the index of the cell there, or [`Topology::OFF`] for an unused slot.
    index: Vec<u8>,
    /// Per index: the cell's neighbours, as a set.
    neighbours: Vec<Cells>,
    /// Every cell of the board.
    all: Cells,
}

impl Topology {
    const OFF: u8 = u8::MAX;

    fn of(side: u8) -> &'static Topology {
        static TABLES: [OnceLock<Topology>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        TABLES[(side - Vadrantir::MIN_SIDE) as usize].get_or_init(|| {
            let g = Geometry::Hex { side };
            let cells: Vec<Cell> = g.cells().collect();
            assert!(cells.len() <= MAX_CELLS, "a set of cells fits a Cells word");
            let mut index = vec![Self::OFF; g.slots()];
            for (i, c) in cells.iter().enumerate() {
                index[c.0 as usize] = i as u8;
            }
            let neighbours: Vec<Cells> =
                cells.iter().map(|&c| set_of(g.neighbours(c).map(|n| index[n.0 as usize] as usize))).collect();
            Topology { all: set_of(0..cells.len()), cells, index, neighbours }
        })
    }

    /// The index of a cell of the board; `None` for an unused slot or one past the grid.
    fn index(&self, c: Cell) -> Option<usize> {
        self.index.get(c.0 as usize).filter(|&&i| i != Self::OFF).map(|&i| i as usize)
    }

    /// The cells next to any of these cells (some of them may be among them).
    fn border(&self, cells: impl IntoIterator<Item = usize>) -> Cells {
        cells.into_iter().fold(0, |set, i| set | self.neighbours[i])
    }
}

/// The groups of a position, kept up to date stone by stone. Stones are only ever added (a
/// placement fills an empty cell, and nothing leaves the board), so groups only grow and merge:
/// each group is a ring of its stones named by one of them, its root, and a merge relabels the
/// smaller group's stones (each stone is relabelled O(log n) times over a game).
#[derive(Clone)]
struct Groups {
    /// Per index: the root of the group of the stone there; [`NOWHERE`] for an empty cell.
    root: [u8; INDICES],
    /// Per index holding a stone: the next stone of its group, around a ring.
    next: [u8; INDICES],
    /// Per root: the colour of the group (`None` for [`NOWHERE`]).
    colour: [Option<Colour>; INDICES],
    /// Per root: the stones of the group (0 for [`NOWHERE`]).
    size: [u8; INDICES],
    /// Per root: the size of the largest enemy group adjacent to the group; 0 if none is. This is
    /// what a placement beside the group is measured against, so it is kept rather than searched.
    enemy: [u8; INDICES],
}

impl Groups {
    fn new() -> Groups {
        Groups {
            root: [NOWHERE; INDICES],
            next: [NOWHERE; INDICES],
            colour: [None; INDICES],
            size: [0; INDICES],
            enemy: [0; INDICES],
        }
    }

    fn root(&self, i: usize) -> usize {
        self.root[i] as usize
    }

    /// The size of the group of the stone on `i`.
    fn size_at(&self, i: usize) -> u8 {
        self.size[self.root(i)]
    }

    /// The stones of the group of `root`, around its ring.
    fn stones(&self, root: usize) -> impl Iterator<Item = usize> + '_ {
        let mut at = Some(root);
        std::iter::from_fn(move || {
            let i = at?;
            let next = self.next[i] as usize;
            at = (next != root).then_some(next);
            Some(i)
        })
    }

    /// Merges two groups of one colour; returns the root of the merged group.
    fn merge(&mut self, a: usize, b: usize) -> usize {
        if a == b {
            return a;
        }
        let (big, small) = if self.size[a] >= self.size[b] { (a, b) } else { (b, a) };
        let mut i = small;
        loop {
            self.root[i] = big as u8;
            i = self.next[i] as usize;
            if i == small {
                break;
            }
        }
        // Exchanging the successors of one stone of each ring splices the two rings into one.
        self.next.swap(big, small);
        // The merged group's enemies are measured by the caller, who knows all its stones.
        self.size[big] += self.size[small];
        big
    }
}

/// A Vadrantir position.
///
/// The board is two sets of cells, one per colour, and its groups are kept as they grow
/// (`Groups`), so that checking a placement looks at the new stone's neighbours only and playing
/// it touches only the group it joins: replays and playouts never relabel the whole board. The
/// position holds no heap memory: a replay clones one per move. Territories and the score are
/// worked out when asked.
#[derive(Clone)]
pub struct Vadrantir {
    topology: &'static Topology,
    side: u8,
    /// The cells holding a stone of each colour, indexed by [`Colour::index`].
    stones: [Cells; 2],
    /// The cells next to a stone of each colour: an empty cell outside this set is a placement
    /// forming a group of 1, legal whatever its surroundings, so the end of the game is usually
    /// settled by one mask.
    touching: [Cells; 2],
    groups: Groups,
    to_move: Colour,
    /// Moves played so far (White's first turn is the second move).
    plies: u32,
    /// Whether the players hold each other's starting colours.
    swapped: bool,
}

/// Positions are equal when the board and the game state are: the groups are a function of the
/// stones, and their roots depend on the order the stones came in.
impl PartialEq for Vadrantir {
    fn eq(&self, other: &Vadrantir) -> bool {
        self.state() == other.state()
    }
}

impl Eq for Vadrantir {}

impl std::hash::Hash for Vadrantir {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.state().hash(state);
    }
}

impl fmt::Debug for Vadrantir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board: String = self.cells().map(|c| BoardView::glyph(self, c)).collect();
        f.debug_struct("Vadrantir")
            .field("side", &self.side)
            .field("board", &board)
            .field("to_move", &self.to_move)
            .field("plies", &self.plies)
            .field("swapped", &self.swapped)
            .finish()
    }
}

impl Vadrantir {
    /// The board's side when a record gives none.
    pub const DEFAULT_SIDE: u8 = 6;
    const MIN_SIDE: u8 = 5;
    /// The board sides Vadrantir is played on.
    pub const SIDES: std::ops::RangeInclusive<u8> = Self::MIN_SIDE..=7;

    /// An empty hex board of side `side`, Black to move.
    pub fn new(side: u8) -> Result<Vadrantir, SetupError> {
        super::ABOUT.check_size(side, true)?;
        Ok(Vadrantir {
            topology: Topology::of(side),
            side,
            stones: [0, 0],
            touching: [0, 0],
            groups: Groups::new(),
            to_move: Colour::Black,
            plies: 0,
            swapped: false,
        })
    }

    /// This board with the stones of a setup diagram, one glyph per cell in reading order; Black
    /// is to move.
    pub fn setup(&self, cells: &[&str]) -> Result<Vadrantir, SetupError> {
        let mut p = Vadrantir::new(self.side)?;
        let read = |g: &str| (g == EMPTY_GLYPH).then_some(None).or(Colour::from_glyph(g).map(Some));
        for (i, (_, stone)) in super::ABOUT.read_setup(p.geometry(), cells, "B, W or .", read)?.into_iter().enumerate()
        {
            if let Some(colour) = stone {
                p.put(i, colour);
            }
        }
        Ok(p)
    }

    /// What equality and hashing compare: everything but the group records.
    fn state(&self) -> (u8, [Cells; 2], Colour, u32, bool) {
        (self.side, self.stones, self.to_move, self.plies, self.swapped)
    }

    /// The hex board's side.
    pub fn side(&self) -> u8 {
        self.side
    }

    /// The board's shape.
    pub fn geometry(&self) -> Geometry {
        Geometry::Hex { side: self.side }
    }

    /// The stone on a cell; `None` for an empty cell or one off the board.
    pub fn stone(&self, c: Cell) -> Option<Colour> {
        self.topology.index(c).and_then(|i| self.stone_at(i))
    }

    fn stone_at(&self, i: usize) -> Option<Colour> {
        self.groups.colour[self.groups.root(i)]
    }

    /// The colour to move.
    pub fn to_move(&self) -> Colour {
        self.to_move
    }

    /// Whether the players have swapped colours (the pie rule): the player who moved first now
    /// holds White.
    pub fn swapped(&self) -> bool {
        self.swapped
    }

    /// Whether the colour to move may take the pie swap: White's first turn, the game going on.
    pub fn may_swap(&self) -> bool {
        self.whites_first_turn() && !self.is_over()
    }

    fn whites_first_turn(&self) -> bool {
        self.plies == 1 && self.to_move == Colour::White
    }

    fn label(&self, c: Cell) -> CellLabel {
        self.geometry().label(c)
    }

    fn cells(&self) -> impl Iterator<Item = Cell> {
        self.topology.cells.iter().copied()
    }

    fn empty(&self) -> Cells {
        self.topology.all & !(self.stones[0] | self.stones[1])
    }

    /// Puts a `colour` stone on the empty cell `i` and brings the groups up to date: the stone's
    /// group merges with the friendly groups it touches, and the group and the enemy groups
    /// beside it are measured against each other. This holds whatever the order of the stones,
    /// legal or not, so a setup is built the same way.
    fn put(&mut self, i: usize, colour: Colour) {
        let (own, enemy) = (self.stones[colour.index()], self.stones[colour.opponent().index()]);
        let around = self.topology.neighbours[i];
        self.stones[colour.index()] |= bit(i);
        self.touching[colour.index()] |= around;
        let groups = &mut self.groups;
        groups.root[i] = i as u8;
        groups.next[i] = i as u8;
        groups.colour[i] = Some(colour);
        groups.size[i] = 1;
        let mut root = i;
        for n in members(around & own) {
            root = groups.merge(root, groups.root(n));
        }
        // The group grew, so every enemy group beside it may now have a larger neighbour; no
        // other group's neighbours changed size (each group the new one swallowed was beside
        // only enemy groups that are beside the new one). The enemy groups beside it are all
        // the enemy groups its own record counts, so the largest of them is found on the way.
        let size = groups.size[root];
        let beside = if around & own == 0 { around & enemy } else { self.topology.border(groups.stones(root)) & enemy };
        let mut largest = 0;
        for n in members(beside) {
            let e = groups.root(n);
            groups.enemy[e] = groups.enemy[e].max(size);
            largest = largest.max(groups.size[e]);
        }
        groups.enemy[root] = largest;
    }

    /// The group a `colour` stone on cell `i` would form: the groups of its friendly neighbours
    /// as they stand, so on a full cell the group already there counts as a neighbour.
    ///
    /// This is the engine's inner loop (every empty cell, every move of a playout). The stones
    /// around are found with two masks, so only the occupied neighbours are looked at, and the
    /// friendly groups are told apart by a set of their roots (a hex cell touches at most three).
    fn formed_at(&self, i: usize, colour: Colour) -> Formed {
        let g = &self.groups;
        let around = self.topology.neighbours[i];
        // An enemy group brings its size, a friendly group the enemy groups beside it.
        let mut enemy = 0;
        for n in members(around & self.stones[colour.opponent().index()]) {
            enemy = enemy.max(g.size_at(n));
        }
        let roots = members(around & self.stones[colour.index()]).fold(0, |set, n| set | bit(g.root(n)));
        let mut stones = 1;
        for root in members(roots) {
            stones += u16::from(g.size[root]);
            enemy = enemy.max(g.enemy[root]);
        }
        Formed { stones, enemy: u16::from(enemy) }
    }

    /// The group a `colour` stone on `cell` would form, as if the cell were empty; `None` for a
    /// cell off the board.
    pub fn formed(&self, cell: Cell, colour: Colour) -> Option<Formed> {
        self.topology.index(cell).map(|i| self.formed_at(i, colour))
    }

    /// The cells where the colour to move may place a stone, in reading order.
    pub fn placements(&self) -> Vec<Cell> {
        members(self.placement_set()).map(|i| self.topology.cells[i]).collect()
    }

    /// The cells where the colour to move may place a stone: every empty cell touching no friendly
    /// stone, and those touching one where the group formed is small enough.
    fn placement_set(&self) -> Cells {
        let empty = self.empty();
        let (colour, touching) = (self.to_move, self.touching[self.to_move.index()]);
        // A cell beside one friendly group only, a group no larger than the largest enemy group
        // beside it, is a placement without measuring: the group it forms is one stone larger.
        let (mut once, mut twice, mut roomy) = (0, 0, 0);
        let g = &self.groups;
        for root in self.roots(colour) {
            let liberties = self.topology.border(g.stones(root)) & empty;
            twice |= once & liberties;
            once |= liberties;
            if g.size[root] <= g.enemy[root] {
                roomy |= liberties;
            }
        }
        let sure = roomy & !twice;
        let measured = members(empty & touching & !sure).filter(|&i| self.formed_at(i, colour).allowed());
        empty & !touching | sure | set_of(measured)
    }

    /// Whether the colour to move has a legal placement. An empty cell touching no friendly stone
    /// is one, found with one mask; only when there is none are groups measured.
    pub fn has_placement(&self) -> bool {
        let empty = self.empty();
        empty & !self.touching[self.to_move.index()] != 0
            || members(empty).any(|i| self.formed_at(i, self.to_move).allowed())
    }

    /// Each colour's group sizes on the whole board, largest first (indexed by [`Colour::index`]).
    pub fn group_sizes(&self) -> [Vec<u16>; 2] {
        Colour::BOTH.map(|colour| self.sizes(self.roots(colour)))
    }

    /// The roots of a colour's groups.
    fn roots(&self, colour: Colour) -> impl Iterator<Item = usize> + '_ {
        members(self.stones[colour.index()]).filter(|&i| self.groups.root(i) == i)
    }

    /// The sizes of the groups of these roots, largest first.
    fn sizes(&self, roots: impl Iterator<Item = usize>) -> Vec<u16> {
        let mut sizes: Vec<u16> = roots.map(|r| u16::from(self.groups.size[r])).collect();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        sizes
    }

    /// The colour whose groups with a stone among `cells` are the larger, as
    /// [`Comparison::of`] compares them; `None` if they are the same. Their sizes are sorted on the
    /// stack: every group holds a stone, so the plain order of the two lists is the comparison.
    fn larger_among(&self, cells: Cells) -> Option<Colour> {
        let (mut black, mut white) = ([0; MAX_CELLS], [0; MAX_CELLS]);
        match self.sizes_among(cells, Colour::Black, &mut black).cmp(self.sizes_among(cells, Colour::White, &mut white))
        {
            Ordering::Greater => Some(Colour::Black),
            Ordering::Less => Some(Colour::White),
            Ordering::Equal => None,
        }
    }

    /// The sizes of the `colour` groups with a stone among `cells`, largest first, as
    /// [`Vadrantir::group_sizes`] lists them, in `buffer` rather than a list of their own (there
    /// are fewer groups than cells).
    fn sizes_among<'a>(&self, cells: Cells, colour: Colour, buffer: &'a mut [u16; MAX_CELLS]) -> &'a [u16] {
        let roots = members(cells & self.stones[colour.index()]).fold(0, |set, i| set | bit(self.groups.root(i)));
        let mut count = 0;
        for (slot, root) in buffer.iter_mut().zip(members(roots)) {
            *slot = u16::from(self.groups.size[root]);
            count += 1;
        }
        let sizes = &mut buffer[..count];
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        sizes
    }

    /// The territories of the board, in reading order of their first cells, with their owners.
    pub fn territories(&self) -> Vec<Territory> {
        self.territory_cells().into_iter().map(|(_, t)| t).collect()
    }

    /// [`Vadrantir::territories`], each with the set of its cells: what a picture shades.
    fn territory_cells(&self) -> Vec<(Cells, Territory)> {
        let nb = &self.topology.neighbours;
        let empty = self.empty();
        let mut left = empty;
        let mut territories = Vec::new();
        while left != 0 {
            let first = left.trailing_zeros() as usize;
            // Grow the territory from its first cell, one cell taken off the frontier at a time.
            let (mut cells, mut frontier) = (bit(first), bit(first));
            while frontier != 0 {
                let i = frontier.trailing_zeros() as usize;
                frontier &= frontier - 1;
                let new = nb[i] & empty & !cells;
                cells |= new;
                frontier |= new;
            }
            left &= !cells;
            let border = self.topology.border(members(cells));
            let groups = Colour::BOTH.map(|colour| {
                let roots = set_of(members(border & self.stones[colour.index()]).map(|i| self.groups.root(i)));
                self.sizes(members(roots))
            });
            let comparison = Comparison::of(&groups);
            let first = self.topology.cells[first];
            territories.push((cells, Territory { first, cells: cells.count_ones() as u16, groups, comparison }));
        }
        territories
    }

    fn check_place(&self, cell: Cell) -> Result<(), Illegal> {
        let Some(i) = self.topology.index(cell) else {
            return Err(Illegal::OffBoard { cell: self.label(cell), side: self.side });
        };
        if self.empty() & bit(i) == 0 {
            return Err(Illegal::NotEmpty { cell: self.label(cell) });
        }
        // A stone touching no friendly stone forms a group of 1, allowed beside anything.
        if self.touching[self.to_move.index()] & bit(i) == 0 {
            return Ok(());
        }
        let formed = self.formed_at(i, self.to_move);
        if !formed.allowed() {
            return Err(Illegal::GroupTooLarge {
                cell: self.label(cell),
                stones: formed.stones,
                enemy_colour: self.to_move.opponent(),
                enemy: formed.enemy,
            });
        }
        Ok(())
    }
}

impl BoardView for Vadrantir {
    fn geometry(&self) -> Geometry {
        Vadrantir::geometry(self)
    }

    fn glyph(&self, cell: Cell) -> &'static str {
        self.stone(cell).map_or(EMPTY_GLYPH, Colour::glyph)
    }

    fn figure(&self, cell: Cell) -> Option<Figure> {
        self.stone(cell).map(|colour| Figure { owner: Some(colour.index() as u8), shape: Shape::Disc, name: "stone" })
    }

    fn player_names(&self) -> &'static [&'static str] {
        &["Black", "White"]
    }

    /// The territories that count for a colour, shaded in it: the ones [`Game::score`] adds up.
    fn scoring(&self) -> Vec<Region> {
        let cells = |set: Cells| members(set).map(|i| self.topology.cells[i]).collect();
        self.territory_cells()
            .into_iter()
            .filter_map(|(set, t)| {
                let owner = t.owner()?.index() as u8;
                Some(Region { owner, cells: cells(set), mark: Mark::Shade, name: "territory" })
            })
            .collect()
    }

    fn counted_at_end(&self) -> bool {
        true
    }
}

/// The search stores a Vadrantir position as its state, what equality compares (about 50 bytes),
/// not as the position with its group tables (several hundred), which follow from the stones.
impl crate::game::SearchKey for Vadrantir {
    type Key = (u8, [Cells; 2], Colour, u32, bool);

    fn key(&self) -> std::borrow::Cow<'_, Self::Key> {
        std::borrow::Cow::Owned(self.state())
    }

    fn into_key(self) -> Self::Key {
        self.state()
    }

    fn key_heap_bytes(_: &Self::Key) -> usize {
        0
    }
}

impl Game for Vadrantir {
    type Move = VadrantirMove;
    type Illegal = Illegal;
    type Score = VadrantirScore;

    fn about(&self) -> &'static crate::game::About {
        &super::ABOUT
    }

    fn legal_moves(&self) -> Vec<VadrantirMove> {
        // One allocation, of the most moves there can be: every empty cell and the swap.
        let placements = self.placement_set();
        let mut moves = Vec::with_capacity(placements.count_ones() as usize + 1);
        moves.extend(members(placements).map(|i| VadrantirMove::Place(self.topology.cells[i])));
        // No placement: the game is over, and the swap goes with the rest.
        if !moves.is_empty() && self.whites_first_turn() {
            moves.push(VadrantirMove::Swap);
        }
        moves
    }

    fn check(&self, m: VadrantirMove) -> Result<(), Illegal> {
        let game_over = Illegal::GameOver { colour: self.to_move };
        match m {
            VadrantirMove::Place(cell) => {
                // A legal placement shows that the game goes on; a refused one may come after the end.
                let verdict = self.check_place(cell);
                if verdict.is_err() && self.is_over() {
                    return Err(game_over);
                }
                verdict
            }
            VadrantirMove::Swap if self.is_over() => Err(game_over),
            VadrantirMove::Swap if self.whites_first_turn() => Ok(()),
            VadrantirMove::Swap => Err(Illegal::SwapNotAllowed),
        }
    }

    /// Plays any move without asking whether it is legal (lenient replay). A placement on an empty
    /// cell is played as written, whatever group it forms; one on a full cell or off the board
    /// changes nothing, but the turn passes, so the colours stay in step with the record. A swap
    /// exchanges the players' colours whenever it comes.
    ///
    /// Such a move can end the game. Nothing counts toward the end here that a violation could add
    /// to: the game is over when the colour to move has no legal placement (RULINGS Vadrantir 4),
    /// a fact of the board and the turn. A stone placed as written, or a turn handed over by a
    /// placement on a full cell (replay keeps to the record's turns), can leave that colour
    /// without a placement, and the game as replayed is then over: the record's later moves come
    /// after its end, which the report says of each.
    fn play_unchecked(&mut self, m: VadrantirMove) {
        let mover = self.to_move;
        self.plies = self.plies.saturating_add(1);
        match m {
            VadrantirMove::Place(cell) => {
                if let Some(i) = self.topology.index(cell).filter(|&i| self.empty() & bit(i) != 0) {
                    self.put(i, mover);
                }
                self.to_move = mover.opponent();
            }
            // The board stays; the players exchange colours, so the colour to move stays White,
            // now held by the player who moved first.
            VadrantirMove::Swap => self.swapped = !self.swapped,
        }
    }

    /// Over when the colour to move has no legal placement (RULINGS Vadrantir 4).
    fn is_over(&self) -> bool {
        !self.has_placement()
    }

    /// The territories as [`Vadrantir::territories`] finds them and the groups as
    /// [`Vadrantir::group_sizes`] lists them, compared on the stack without lists: every record's
    /// outcome asks for the score of a nearly full board of small territories.
    fn score(&self) -> VadrantirScore {
        let nb = &self.topology.neighbours;
        let empty = self.empty();
        let mut territory = [0, 0];
        let mut left = empty;
        while left != 0 {
            let first = left.trailing_zeros() as usize;
            let (mut cells, mut frontier, mut border) = (bit(first), bit(first), 0);
            while frontier != 0 {
                let i = frontier.trailing_zeros() as usize;
                frontier &= frontier - 1;
                border |= nb[i];
                let new = nb[i] & empty & !cells;
                cells |= new;
                frontier |= new;
            }
            left &= !cells;
            if let Some(owner) = self.larger_among(border) {
                territory[owner.index()] += cells.count_ones() as u16;
            }
        }
        let (mut black, mut white) = ([0; MAX_CELLS], [0; MAX_CELLS]);
        let all = self.topology.all;
        let groups = Comparison::of_lists(
            self.sizes_among(all, Colour::Black, &mut black),
            self.sizes_among(all, Colour::White, &mut white),
        );
        VadrantirScore { territory, groups }
    }

    fn signs(&self, m: VadrantirMove) -> Vec<Sign> {
        vec![match m {
            VadrantirMove::Place(c) => Sign::Ring(c),
            VadrantirMove::Swap => Sign::Swap,
        }]
    }
}

impl Playable for Vadrantir {
    const ABOUT: crate::game::About = super::ABOUT;
    const POSITIONS: &'static str = include_str!("vadrantir.perft");

    fn to_move(&self) -> usize {
        self.to_move.index()
    }

    fn start(size: Option<u8>, players: Option<u8>) -> Result<Vadrantir, SetupError> {
        super::ABOUT.check_players(players)?;
        Vadrantir::new(size.unwrap_or(Vadrantir::DEFAULT_SIDE))
    }

    fn with_setup(&self, cells: &[&str]) -> Result<Vadrantir, SetupError> {
        self.setup(cells)
    }

    fn points(&self) -> Vec<f64> {
        self.score().points().to_vec()
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let s = self.score();
        let black = s.territory[0];
        let winner = s.leader();
        let mut detail = match (winner, s.groups) {
            (Some(w), groups) if s.territory[w.index()] > s.territory[w.opponent().index()] => {
                let (own, other) = (s.territory[w.index()], s.territory[w.opponent().index()]);
                let l = w.opponent();
                match groups {
                    Some(g) if g.larger == w => {
                        format!("{w} owns territories worth {own} to {l}'s {other} and has the larger groups ({g})")
                    }
                    Some(g) => format!(
                        "{w} owns territories worth {own} to {l}'s {other}; {l} has the larger groups ({g}), and \
                         the half point does not make up the difference"
                    ),
                    None => format!(
                        "{w} owns territories worth {own} to {l}'s {other}; the groups are the same sizes on both \
                         sides, so nobody takes the half point"
                    ),
                }
            }
            (Some(w), Some(g)) => format!(
                "Black and White own territories worth {black} each; {w} has the larger groups ({g}) and wins by \
                 the half point"
            ),
            // Equal territories with identical group lists; a leader with equal territories always
            // has the half point.
            _ => format!(
                "Black and White own territories worth {black} each and their groups are the same sizes: nobody \
                 takes the half point, and nobody wins"
            ),
        };
        if self.swapped {
            detail.push_str(" (the players swapped sides: the first player holds White)");
        }
        let points = s.points().to_vec();
        Some(Outcome { winner: winner.map(Colour::index), points, detail })
    }
}

// The position code (grammar.md, "Position codes") reads and writes every field of the engine.
mod code;

#[cfg(test)]
mod tests {
    use super::*;

    /// What the engine keeps as it goes, worked out from the stones alone by flood fills over the
    /// geometry's neighbours: per index, the cells of the group of the stone there (0 for an
    /// empty cell).
    struct Flooded<'a> {
        p: &'a Vadrantir,
        group: Vec<Cells>,
    }

    impl Flooded<'_> {
        fn of(p: &Vadrantir) -> Flooded<'_> {
            let mut group = vec![0; p.topology.cells.len()];
            for i in 0..group.len() {
                let Some(colour) = Flooded::colour(p, i) else { continue };
                if group[i] != 0 {
                    continue;
                }
                let (mut cells, mut todo) = (bit(i), vec![i]);
                while let Some(j) = todo.pop() {
                    for n in Flooded::neighbours(p, j) {
                        if cells & bit(n) == 0 && Flooded::colour(p, n) == Some(colour) {
                            cells |= bit(n);
                            todo.push(n);
                        }
                    }
                }
                for j in members(cells) {
                    group[j] = cells;
                }
            }
            Flooded { p, group }
        }

        fn colour(p: &Vadrantir, i: usize) -> Option<Colour> {
            Colour::BOTH.into_iter().find(|c| p.stones[c.index()] & bit(i) != 0)
        }

        fn neighbours(p: &Vadrantir, i: usize) -> Vec<usize> {
            let g = p.geometry();
            g.neighbours(p.topology.cells[i]).map(|c| p.topology.index(c).expect("a neighbour on the board")).collect()
        }

        /// The `colour` stones next to any of `cells`.
        fn beside(&self, cells: Cells, colour: Colour) -> Cells {
            members(cells)
                .flat_map(|i| Flooded::neighbours(self.p, i))
                .filter(|&n| Flooded::colour(self.p, n) == Some(colour))
                .fold(0, |set, n| set | bit(n))
        }

        /// The largest `colour` group next to any of `cells`; 0 if none is.
        fn largest_beside(&self, cells: Cells, colour: Colour) -> u16 {
            members(self.beside(cells, colour)).map(|n| self.group[n].count_ones() as u16).max().unwrap_or(0)
        }

        /// The group a `colour` stone on `i` would form, the friendly groups around as they stand.
        fn formed(&self, i: usize, colour: Colour) -> Formed {
            let friends = members(self.beside(bit(i), colour)).fold(0, |set, n| set | self.group[n]);
            Formed {
                stones: 1 + friends.count_ones() as u16,
                enemy: self.largest_beside(friends | bit(i), colour.opponent()),
            }
        }
    }

    /// The score as the territories add up, the way the engine counted it before it told the
    /// owners on the stack.
    fn score_by_territories(p: &Vadrantir) -> VadrantirScore {
        let mut territory = [0, 0];
        for t in p.territories() {
            if let Some(owner) = t.owner() {
                territory[owner.index()] += t.cells;
            }
        }
        VadrantirScore { territory, groups: Comparison::of(&p.group_sizes()) }
    }

    /// Everything the engine keeps or finds quickly, against the flood fills.
    fn assert_agrees(p: &Vadrantir) {
        let f = Flooded::of(p);
        let code = crate::game::code::Coded::code(p);
        let g = &p.groups;
        for colour in Colour::BOTH {
            let stones = p.stones[colour.index()];
            assert_eq!(p.touching[colour.index()], p.topology.border(members(stones)), "{code}");
            for i in members(stones) {
                let root = g.root(i);
                assert_eq!(f.group[root], f.group[i], "{code}: the root of {i} is in its group");
                assert_eq!(set_of(g.stones(root)), f.group[i], "{code}: the ring of {i}");
                assert_eq!(u32::from(g.size[root]), f.group[i].count_ones(), "{code}: the size at {i}");
                assert_eq!(g.colour[root], Some(colour), "{code}: the colour at {i}");
                let enemy = f.largest_beside(f.group[i], colour.opponent());
                assert_eq!(u16::from(g.enemy[root]), enemy, "{code}: the enemy of {i}");
            }
        }
        for i in 0..p.topology.cells.len() {
            for colour in Colour::BOTH {
                assert_eq!(p.formed_at(i, colour), f.formed(i, colour), "{code}: {i} for {colour}");
            }
        }
        let legal = members(p.empty()).filter(|&i| f.formed(i, p.to_move).allowed());
        assert_eq!(p.placement_set(), set_of(legal), "{code}");
        assert_eq!(p.has_placement(), p.placement_set() != 0, "{code}");
        for i in 0..p.topology.cells.len() {
            let cell = p.topology.cells[i];
            let by_formed = if p.empty() & bit(i) == 0 {
                Err(Illegal::NotEmpty { cell: p.label(cell) })
            } else {
                let formed = f.formed(i, p.to_move);
                match formed.allowed() {
                    true => Ok(()),
                    false => Err(Illegal::GroupTooLarge {
                        cell: p.label(cell),
                        stones: formed.stones,
                        enemy_colour: p.to_move.opponent(),
                        enemy: formed.enemy,
                    }),
                }
            };
            assert_eq!(p.check_place(cell), by_formed, "{code}: {i}");
        }
        assert_eq!(p.score(), score_by_territories(p), "{code}");
    }

    /// The groups kept stone by stone, the group a stone would form, the placements and the score
    /// against flood fills of the stones, on boards of every side filled at random (any groups,
    /// stones put in reading order as a setup puts them, and in random order) and along random
    /// games.
    #[test]
    fn the_engine_agrees_with_flood_fills() {
        let mut rng = fastrand::Rng::with_seed(41);
        for side in Vadrantir::SIDES {
            let empty = Vadrantir::new(side).unwrap();
            let count = empty.topology.cells.len();
            for _ in 0..120 {
                // Each glyph with its weight's share of the cells.
                let weights = [rng.u32(0..10), rng.u32(0..10), rng.u32(1..10)];
                let glyphs: Vec<&str> = (0..count)
                    .map(|_| match rng.u32(0..weights.iter().sum()) {
                        n if n < weights[0] => "B",
                        n if n < weights[0] + weights[1] => "W",
                        _ => EMPTY_GLYPH,
                    })
                    .collect();
                let mut p = empty.setup(&glyphs).unwrap();
                p.to_move = if rng.bool() { Colour::Black } else { Colour::White };
                assert_agrees(&p);
            }
            for _ in 0..40 {
                let mut p = empty.clone();
                let mut order: Vec<usize> = (0..count).collect();
                rng.shuffle(&mut order);
                for &i in &order[..rng.usize(..=count)] {
                    p.put(i, if rng.bool() { Colour::Black } else { Colour::White });
                    if rng.u32(0..8) == 0 {
                        assert_agrees(&p);
                    }
                }
                assert_agrees(&p);
            }
            for seed in 0..4 {
                let mut p = empty.clone();
                for m in crate::game::random::random_game(&p, 100 * u64::from(side) + seed, 1000) {
                    p.play_unchecked(m);
                    assert_agrees(&p);
                }
            }
        }
    }

    /// The search's memory figures count positions by their size (src/search): the engine's
    /// speed work keeps it, so that no printed figure moves.
    #[test]
    fn a_position_keeps_its_size() {
        assert_eq!(std::mem::size_of::<Vadrantir>(), 720);
    }
}
