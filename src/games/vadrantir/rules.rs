//! The Vadrantir engine (seed text `seeds/vadrantir.txt`; RULINGS Vadrantir 1-6 override it).
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

use super::notation::{self, Written};
use crate::game::{BoardView, Game, GameKind, Outcome, Recorded};
use crate::geometry::{Cell, CellLabel, Geometry};

/// The two colours, in turn order from the start.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Colour {
    Black,
    White,
}

impl Colour {
    pub const BOTH: [Colour; 2] = [Colour::Black, Colour::White];

    /// The index into [`Recorded::player_names`]: Black 0, White 1.
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn opponent(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Colour::Black => "Black",
            Colour::White => "White",
        }
    }

    /// The glyph of a stone of this colour: `B` or `W`.
    pub fn glyph(self) -> &'static str {
        match self {
            Colour::Black => "B",
            Colour::White => "W",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

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
        colour: Colour,
    },
    OffBoard {
        cell: CellLabel,
        side: u8,
    },
    NotEmpty {
        cell: CellLabel,
    },
    /// A stone on `cell` would form a group of `stones` stones, more than one larger than the
    /// largest adjacent `enemy_colour` group, of `enemy` stones (0 if none is adjacent).
    GroupTooLarge {
        cell: CellLabel,
        stones: u16,
        enemy_colour: Colour,
        enemy: u16,
    },
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

/// Why a board side, player count or setup diagram cannot start a game.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SetupError {
    #[error("Vadrantir is played on hex boards of side 5 to 7, not {0}")]
    Side(u8),
    #[error("Vadrantir is a game for two players, not {0}")]
    Players(u8),
    #[error("the setup has {got} cells; the side-{side} board has {cells}")]
    CellCount { side: u8, got: usize, cells: usize },
    #[error("{cell}: `{glyph}` is not a Vadrantir glyph (B, W or .)")]
    Glyph { cell: CellLabel, glyph: String },
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
        let [black, white] = groups;
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

/// The cells of a board and their neighbours, worked out once per side from its [`Geometry`]:
/// every rule walks them many times, and the engine's loops stay plain slice walks.
struct Topology {
    /// The hexagon's cells, in reading order.
    cells: Vec<Cell>,
    /// Per grid slot, the neighbours of the cell there (none for the grid's unused slots).
    neighbours: Vec<Vec<Cell>>,
}

impl Topology {
    fn of(side: u8) -> &'static Topology {
        static TABLES: [OnceLock<Topology>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        TABLES[(side - Vadrantir::MIN_SIDE) as usize].get_or_init(|| {
            let g = Geometry::Hex { side };
            let mut neighbours = vec![Vec::new(); g.slots()];
            for c in g.cells() {
                neighbours[c.0 as usize] = g.neighbours(c).collect();
            }
            Topology { cells: g.cells().collect(), neighbours }
        })
    }
}

/// The groups of a position: which group each stone belongs to, and what each group is.
struct Groups {
    /// Per grid slot: the group of the stone there, or [`Groups::NONE`].
    of: Vec<u32>,
    size: Vec<u16>,
    colour: Vec<Colour>,
    /// The size of the largest enemy group adjacent to each group (0 if none is).
    enemy: Vec<u16>,
}

impl Groups {
    const NONE: u32 = u32::MAX;

    fn at(&self, c: Cell) -> Option<usize> {
        let id = self.of[c.0 as usize];
        (id != Self::NONE).then_some(id as usize)
    }

    /// Each colour's group sizes, largest first.
    fn sizes(&self) -> [Vec<u16>; 2] {
        let mut sizes = [Vec::new(), Vec::new()];
        for (&size, &colour) in self.size.iter().zip(&self.colour) {
            sizes[colour.index()].push(size);
        }
        for v in &mut sizes {
            v.sort_unstable_by(|a, b| b.cmp(a));
        }
        sizes
    }
}

/// A Vadrantir position.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Vadrantir {
    side: u8,
    /// One entry per grid slot of the hex geometry; only the hexagon's cells are used.
    stones: Box<[Option<Colour>]>,
    to_move: Colour,
    /// Moves played so far (White's first turn is the second move).
    plies: u32,
    /// Whether the players hold each other's starting colours.
    swapped: bool,
}

impl Vadrantir {
    pub const DEFAULT_SIDE: u8 = 6;
    const MIN_SIDE: u8 = 5;
    pub const SIDES: std::ops::RangeInclusive<u8> = Self::MIN_SIDE..=7;

    /// An empty hex board of side `side`, Black to move.
    pub fn new(side: u8) -> Result<Vadrantir, SetupError> {
        if !Self::SIDES.contains(&side) {
            return Err(SetupError::Side(side));
        }
        let g = Geometry::Hex { side };
        Ok(Vadrantir {
            side,
            stones: vec![None; g.slots()].into_boxed_slice(),
            to_move: Colour::Black,
            plies: 0,
            swapped: false,
        })
    }

    /// This board with the stones of a setup diagram, one glyph per cell in reading order; Black
    /// is to move.
    pub fn setup(&self, cells: &[&str]) -> Result<Vadrantir, SetupError> {
        let mut p = Vadrantir::new(self.side)?;
        let g = p.geometry();
        let count = g.cell_count();
        if cells.len() != count {
            return Err(SetupError::CellCount { side: self.side, got: cells.len(), cells: count });
        }
        for (c, glyph) in g.cells().zip(cells) {
            p.stones[c.0 as usize] = match *glyph {
                EMPTY_GLYPH => None,
                "B" => Some(Colour::Black),
                "W" => Some(Colour::White),
                other => return Err(SetupError::Glyph { cell: g.label(c), glyph: other.to_string() }),
            };
        }
        Ok(p)
    }

    /// The hex board's side.
    pub fn side(&self) -> u8 {
        self.side
    }

    pub fn geometry(&self) -> Geometry {
        Geometry::Hex { side: self.side }
    }

    /// The stone on a cell; `None` for an empty cell or one off the board.
    pub fn stone(&self, c: Cell) -> Option<Colour> {
        self.stones.get(c.0 as usize).copied().flatten()
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
        Topology::of(self.side).cells.iter().copied()
    }

    /// The neighbours of a cell of the board.
    fn neighbours(&self, c: Cell) -> impl Iterator<Item = Cell> {
        Topology::of(self.side).neighbours[c.0 as usize].iter().copied()
    }

    fn is_empty_cell(&self, c: Cell) -> bool {
        self.geometry().contains(c) && self.stone(c).is_none()
    }

    fn groups(&self) -> Groups {
        let mut groups = Groups {
            of: vec![Groups::NONE; self.stones.len()],
            size: Vec::new(),
            colour: Vec::new(),
            enemy: Vec::new(),
        };
        let mut stack = Vec::new();
        for start in self.cells() {
            let Some(colour) = self.stone(start) else { continue };
            if groups.of[start.0 as usize] != Groups::NONE {
                continue;
            }
            let id = groups.size.len() as u32;
            groups.of[start.0 as usize] = id;
            stack.push(start);
            let mut size = 0;
            while let Some(c) = stack.pop() {
                size += 1;
                for nb in self.neighbours(c) {
                    if self.stone(nb) == Some(colour) && groups.of[nb.0 as usize] == Groups::NONE {
                        groups.of[nb.0 as usize] = id;
                        stack.push(nb);
                    }
                }
            }
            groups.size.push(size);
            groups.colour.push(colour);
        }
        groups.enemy = vec![0; groups.size.len()];
        for c in self.cells() {
            let Some(id) = groups.at(c) else { continue };
            for nb in self.neighbours(c) {
                if let Some(other) = groups.at(nb).filter(|&o| groups.colour[o] != groups.colour[id]) {
                    groups.enemy[id] = groups.enemy[id].max(groups.size[other]);
                }
            }
        }
        groups
    }

    fn formed_with(&self, groups: &Groups, cell: Cell, colour: Colour) -> Formed {
        let mut merged: Vec<usize> = Vec::with_capacity(6);
        let mut formed = Formed { stones: 1, enemy: 0 };
        for nb in self.neighbours(cell) {
            let Some(id) = groups.at(nb) else { continue };
            if groups.colour[id] == colour {
                if !merged.contains(&id) {
                    merged.push(id);
                    formed.stones += groups.size[id];
                    formed.enemy = formed.enemy.max(groups.enemy[id]);
                }
            } else {
                formed.enemy = formed.enemy.max(groups.size[id]);
            }
        }
        formed
    }

    /// The group a `colour` stone on `cell` would form, as if the cell were empty; `None` for a
    /// cell off the board.
    pub fn formed(&self, cell: Cell, colour: Colour) -> Option<Formed> {
        self.geometry().contains(cell).then(|| self.formed_with(&self.groups(), cell, colour))
    }

    /// The cells where the colour to move may place a stone, in reading order.
    pub fn placements(&self) -> Vec<Cell> {
        let groups = self.groups();
        self.cells()
            .filter(|&c| self.stone(c).is_none() && self.formed_with(&groups, c, self.to_move).allowed())
            .collect()
    }

    /// Whether the colour to move has a legal placement. A cell touching no friendly stone is one,
    /// and is usually found without measuring any group.
    pub fn has_placement(&self) -> bool {
        let mut groups = None;
        self.cells().filter(|&c| self.stone(c).is_none()).any(|c| {
            if self.neighbours(c).all(|n| self.stone(n) != Some(self.to_move)) {
                return true;
            }
            let groups = groups.get_or_insert_with(|| self.groups());
            self.formed_with(groups, c, self.to_move).allowed()
        })
    }

    /// Each colour's group sizes on the whole board, largest first (indexed by [`Colour::index`]).
    pub fn group_sizes(&self) -> [Vec<u16>; 2] {
        self.groups().sizes()
    }

    /// The territories of the board, in reading order of their first cells, with their owners.
    pub fn territories(&self) -> Vec<Territory> {
        let groups = self.groups();
        let mut seen = vec![false; self.stones.len()];
        let mut territories = Vec::new();
        let mut stack = Vec::new();
        for first in self.cells() {
            if self.stone(first).is_some() || seen[first.0 as usize] {
                continue;
            }
            seen[first.0 as usize] = true;
            stack.push(first);
            let mut cells = 0;
            let mut adjacent: Vec<usize> = Vec::new();
            while let Some(c) = stack.pop() {
                cells += 1;
                for nb in self.neighbours(c) {
                    match groups.at(nb) {
                        Some(id) if !adjacent.contains(&id) => adjacent.push(id),
                        Some(_) => {}
                        None if !seen[nb.0 as usize] => {
                            seen[nb.0 as usize] = true;
                            stack.push(nb);
                        }
                        None => {}
                    }
                }
            }
            let mut sizes: [Vec<u16>; 2] = [Vec::new(), Vec::new()];
            for id in adjacent {
                sizes[groups.colour[id].index()].push(groups.size[id]);
            }
            for v in &mut sizes {
                v.sort_unstable_by(|a, b| b.cmp(a));
            }
            let comparison = Comparison::of(&sizes);
            territories.push(Territory { first, cells, groups: sizes, comparison });
        }
        territories
    }

    fn check_place(&self, cell: Cell) -> Result<(), Illegal> {
        let g = self.geometry();
        if !g.contains(cell) {
            return Err(Illegal::OffBoard { cell: g.label(cell), side: self.side });
        }
        if self.stone(cell).is_some() {
            return Err(Illegal::NotEmpty { cell: self.label(cell) });
        }
        let formed = self.formed_with(&self.groups(), cell, self.to_move);
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
}

impl Game for Vadrantir {
    type Move = VadrantirMove;
    type Illegal = Illegal;
    type Score = VadrantirScore;

    fn kind(&self) -> GameKind {
        GameKind::Vadrantir
    }

    fn legal_moves(&self) -> Vec<VadrantirMove> {
        let mut moves: Vec<VadrantirMove> = self.placements().into_iter().map(VadrantirMove::Place).collect();
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
    fn play_unchecked(&mut self, m: VadrantirMove) {
        let mover = self.to_move;
        self.plies = self.plies.saturating_add(1);
        match m {
            VadrantirMove::Place(cell) => {
                if self.is_empty_cell(cell) {
                    self.stones[cell.0 as usize] = Some(mover);
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

    fn score(&self) -> VadrantirScore {
        let mut territory = [0, 0];
        for t in self.territories() {
            if let Some(owner) = t.owner() {
                territory[owner.index()] += t.cells;
            }
        }
        VadrantirScore { territory, groups: Comparison::of(&self.group_sizes()) }
    }

    fn write_move(&self, m: VadrantirMove) -> String {
        notation::write(self.geometry(), m)
    }
}

impl Recorded for Vadrantir {
    type Written = Written;
    const TAG: &'static str = "Vadrantir";

    fn player_names(&self) -> &'static [&'static str] {
        &["Black", "White"]
    }

    fn to_move(&self) -> usize {
        self.to_move.index()
    }

    fn start(size: Option<u8>, players: Option<u8>) -> Result<Vadrantir, String> {
        if let Some(n) = players.filter(|&n| n != 2) {
            return Err(SetupError::Players(n).to_string());
        }
        Vadrantir::new(size.unwrap_or(Vadrantir::DEFAULT_SIDE)).map_err(|e| e.to_string())
    }

    fn with_setup(&self, cells: &[&str]) -> Result<Vadrantir, String> {
        self.setup(cells).map_err(|e| e.to_string())
    }

    fn parse_move(text: &str) -> Result<Written, String> {
        notation::parse(text)
    }

    fn resolve(&self, written: Written) -> Result<VadrantirMove, Illegal> {
        Ok(match written {
            Written::Place(l) => VadrantirMove::Place(
                self.geometry().parse_label(l).ok_or(Illegal::OffBoard { cell: l, side: self.side })?,
            ),
            Written::Swap => VadrantirMove::Swap,
        })
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
