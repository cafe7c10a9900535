//! The Quadraphages / Hexaphages engine: one set of rules over a square or hex [`Geometry`].
//!
//! A turn is three phases (seed text): (a) each stone moves the number the opponent announced
//! last, (b) the player announces a new number, (c) each stone moves that number. The very first
//! turn of the game has phases (b) and (c) only (RULINGS 7).

use std::fmt;

use crate::game::{BoardView, BreaksRule, Game};
use crate::game::{Figure, Shape, Sign};
use crate::geometry::{Cell, CellLabel, Geometry, Steps};

/// The two sides, named by the letters the published notation writes them with.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Side {
    /// X: the side that moves first in the default starts.
    X,
    /// O.
    O,
}

impl Side {
    /// 0 for X, 1 for O: the side's index in arrays by side and in [`BoardView::player_names`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    pub fn opponent(self) -> Side {
        match self {
            Side::X => Side::O,
            Side::O => Side::X,
        }
    }

    /// `X` or `O`, as diagrams and claims write the side.
    pub fn letter(self) -> char {
        match self {
            Side::X => 'X',
            Side::O => 'O',
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// What stands on a cell.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Content {
    /// Nothing on it: a stone may land here.
    Empty,
    /// A cell a stone has left, marked with that stone's colour.
    Mark(Side),
    /// A stone of that side.
    Stone(Side),
}

/// The phase of the current turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Phase {
    /// (a): the stones move the number the opponent announced last.
    Move,
    /// (b): the player announces a number.
    Announce,
    /// (c): the stones move the number just announced.
    MoveAgain,
}

impl Phase {
    /// `a`, `b` or `c`, as the seed text names the phases.
    pub fn letter(self) -> char {
        match self {
            Phase::Move => 'a',
            Phase::Announce => 'b',
            Phase::MoveAgain => 'c',
        }
    }
}

/// One action of the record: a stone moving, a stone that stays, or an announcement.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PhagesMove {
    /// A stone moves in a straight line from one cell to another, the number in force.
    Step {
        /// The stone's cell.
        from: Cell,
        /// Where it lands.
        to: Cell,
    },
    /// The stone on this cell stays because it cannot move (`----`).
    Stay {
        /// The stone's cell.
        stone: Cell,
    },
    /// A number announced in phase (b), from 1 to the board's [`Phages::max_number`].
    Announce(u8),
}

/// The board as messages name it: `9x9 board`, `hex board of side 4`.
pub fn board_name(g: Geometry) -> String {
    match g {
        Geometry::Square { size } => format!("{size}x{size} board"),
        Geometry::Hex { side } => format!("hex board of side {side}"),
    }
}

/// Most stones one side may have (the default is two).
pub const MAX_STONES: usize = 3;

/// Why a move is illegal, in the game's words. Cells are given as labels so the message stands alone.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Illegal {
    /// The game is over: every stone failed to move in succession.
    GameOver,
    /// A cell index outside the board (only reachable through the library API; records name cells by label).
    OffBoard {
        /// The cell index.
        cell: u16,
    },
    /// A label that names no cell of the board.
    NotACell {
        /// The label.
        cell: CellLabel,
        /// The board.
        geometry: Geometry,
    },
    /// A number must be announced now (phase b).
    NumberExpected {
        /// The side to move.
        side: Side,
    },
    /// A move of the mover's stones is expected now (phases a and c), not a number.
    StoneMoveExpected {
        /// The side to move.
        side: Side,
        /// The phase.
        phase: Phase,
    },
    /// No stone of the mover's on that cell.
    NoStone {
        /// The side to move.
        side: Side,
        /// The cell named.
        cell: CellLabel,
    },
    /// The stone on that cell is the opponent's.
    OpponentStone {
        /// The side to move.
        side: Side,
        /// The cell named.
        cell: CellLabel,
    },
    /// That stone has already moved or stayed in this phase.
    AlreadyMoved {
        /// The side to move.
        side: Side,
        /// The stone's cell.
        cell: CellLabel,
    },
    /// The two cells are not on one straight line of the board.
    NotStraight {
        /// Where the move starts.
        from: CellLabel,
        /// Where it ends.
        to: CellLabel,
    },
    /// The move covers a different number of cells than the number in force.
    WrongDistance {
        /// Cells the move covers.
        cells: u16,
        /// The number in force.
        number: u8,
        /// Who announced it.
        announced_by: Side,
    },
    /// A stone stands in the way.
    Blocked {
        /// Whose stone.
        by: Side,
        /// Its cell.
        cell: CellLabel,
    },
    /// The move lands on a marked cell.
    LandsOnMark {
        /// The cell.
        cell: CellLabel,
        /// Whose mark.
        mark: Side,
    },
    /// The move lands on a stone.
    LandsOnStone {
        /// The cell.
        cell: CellLabel,
        /// Whose stone.
        stone: Side,
    },
    /// A stone stays (`----`) though it could move the number in force.
    CouldMove {
        /// The side to move.
        side: Side,
        /// The stone's cell.
        cell: CellLabel,
        /// A cell it could move to.
        to: CellLabel,
        /// The number in force.
        number: u8,
    },
    /// The number is not between 1 and the largest the board allows.
    NumberOutOfRange {
        /// The number announced.
        number: u8,
        /// The largest number allowed.
        max: u8,
    },
    /// The number lets none of the announcer's stones move (in phase c) while another number would.
    NumberLetsNoMove {
        /// The number announced.
        number: u8,
        /// A number that would let a stone move.
        would: u8,
    },
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Illegal::*;
        match self {
            GameOver => write!(f, "the game is over: every stone failed to move in succession"),
            OffBoard { cell } => write!(f, "cell index {cell} is not on the board"),
            NotACell { cell, geometry } => write!(f, "{cell} is not a cell of the {}", board_name(*geometry)),
            NumberExpected { side } => write!(f, "{side} must announce a number now (phase b)"),
            StoneMoveExpected { side, phase } => {
                write!(f, "a move of {side}'s stones is expected now (phase {})", phase.letter())
            }
            NoStone { side, cell } => write!(f, "no {side} stone on {cell}"),
            OpponentStone { side, cell } => write!(f, "the stone on {cell} is {}'s, not {side}'s", side.opponent()),
            AlreadyMoved { side, cell } => write!(f, "{side}'s stone on {cell} has already moved in this phase"),
            NotStraight { from, to } => write!(f, "{from} to {to} is not a straight line"),
            WrongDistance { cells, number, announced_by } => {
                write!(f, "a {cells}-cell move after {announced_by} announced {number}")
            }
            Blocked { by, cell } => write!(f, "the path is blocked by {by}'s stone on {cell}"),
            LandsOnMark { cell, mark } => {
                write!(f, "{cell} is marked by {mark}: a stone may not land on a marked cell")
            }
            LandsOnStone { cell, stone } => write!(f, "{cell} is occupied by {stone}'s stone"),
            CouldMove { side, cell, to, number } => {
                write!(f, "{side}'s stone on {cell} could still move {number} (to {to}), so it may not stay")
            }
            NumberOutOfRange { number, max } => write!(f, "{number} is not a number from 1 to {max}"),
            NumberLetsNoMove { number, would } => write!(f, "{number} lets no stone move while {would} would"),
        }
    }
}

/// Each reason names its section of docs/rules/quadraphages.md (and hexaphages.md, which has the same).
impl BreaksRule for Illegal {
    const RULES: &'static [&'static str] =
        &["end", "board", "turn", "stones", "distance", "blocking", "landing", "stay", "number"];

    fn rule(&self) -> &'static str {
        use Illegal::*;
        match self {
            GameOver => "end",
            OffBoard { .. } | NotACell { .. } => "board",
            NumberExpected { .. } | StoneMoveExpected { .. } => "turn",
            NoStone { .. } | OpponentStone { .. } | AlreadyMoved { .. } => "stones",
            NotStraight { .. } | WrongDistance { .. } => "distance",
            Blocked { .. } => "blocking",
            LandsOnMark { .. } | LandsOnStone { .. } => "landing",
            CouldMove { .. } => "stay",
            NumberOutOfRange { .. } | NumberLetsNoMove { .. } => "number",
        }
    }
}

/// The score: marked cells, and the cells under each side's own stones (RULINGS 8).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PhagesScore {
    /// Cells marked by each side, indexed by [`Side::index`].
    pub marks: [u16; 2],
    /// Cells under each side's own stones, which a claim may count too (RULINGS 8).
    pub stones: [u16; 2],
}

impl PhagesScore {
    /// The winner on marked cells alone (the rule text); `None` on a tie.
    pub fn winner(&self) -> Option<Side> {
        match self.marks[0].cmp(&self.marks[1]) {
            std::cmp::Ordering::Greater => Some(Side::X),
            std::cmp::Ordering::Less => Some(Side::O),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// A side's count under a convention: marks only, or marks plus cells under its own stones.
    pub fn count(&self, side: Side, with_stones: bool) -> u16 {
        self.marks[side.index()] + if with_stones { self.stones[side.index()] } else { 0 }
    }
}

impl fmt::Display for PhagesScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "X {} O {} marked cells (X {} O {} counting the cells under their own stones)",
            self.marks[0],
            self.marks[1],
            self.count(Side::X, true),
            self.count(Side::O, true)
        )
    }
}

/// A position of Quadraphages or Hexaphages.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Phages {
    geo: Geometry,
    cells: Box<[Content]>,
    stones: [[Cell; MAX_STONES]; 2],
    per_side: u8,
    to_move: Side,
    phase: Phase,
    /// The number in force: the opponent's last announcement in phase (a), one's own in phase (c);
    /// 0 before the first announcement.
    number: u8,
    /// The mover's stones that have moved or stayed in this phase (bit i = stone i).
    acted: u8,
    /// The stones in the current run of failed moves (bit = side * MAX_STONES + i).
    failed: u8,
    over: bool,
    /// Until the first player's phase (c) ends: the turn without a phase (a).
    first_turn: bool,
    marks: [u16; 2],
}

/// A move [`Phages::legal`] found legal, with what playing it needs.
#[derive(Clone, Copy)]
enum Legal {
    /// A step of the mover's stone `i` to an empty cell.
    Step { i: usize, from: Cell, to: Cell },
    /// A stay of the mover's stone `i`, which cannot move.
    Stay { i: usize },
    /// A number that lets a stone move.
    Announce(u8),
}

/// The numbers whose bits are set (bit `n` for the number `n`), in increasing order.
fn numbers(bits: u32) -> impl Iterator<Item = u8> {
    (1..32).filter(move |&n| bits & (1 << n) != 0)
}

/// Why a setup cannot start a game.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SetupError {
    /// A side has no stone, more than [`MAX_STONES`], or not as many as the other.
    #[error("{side} has {count} stones; each side needs the same number of stones, from 1 to {MAX_STONES}")]
    StoneCount {
        /// The side at fault.
        side: Side,
        /// How many stones it has.
        count: usize,
    },
    /// Two stones stand on one cell.
    #[error("two stones stand on {0}")]
    SameCell(CellLabel),
    /// A stone stands off the board.
    #[error("{0} is not on the board")]
    OffBoard(CellLabel),
}

impl Phages {
    /// The default start of the 9x9 board (RULINGS 10): O on c1 and g9, X on a7 and i3.
    pub fn quadraphages() -> Phages {
        // Every record without a `Startup:` starts here: the position is built once and copied.
        static START: std::sync::OnceLock<Phages> = std::sync::OnceLock::new();
        START
            .get_or_init(|| {
                Self::from_labels(Geometry::Square { size: 9 }, &["a7", "i3"], &["c1", "g9"], Side::X)
                    .expect("default setup is valid")
            })
            .clone()
    }

    /// The default start of a hex board, where a published record shows one (RULINGS 11: derived
    /// from each stone's first move). Side 4, from the blog's game: X on d3 and j5, O on g2 and g6.
    /// Side 5, from the designers' record: X on e5, k7 and k3, O on m5, g7 and g3 (three stones a
    /// side, the 120-degree turns of one another). Other sides have no published start.
    pub fn hexaphages(side: u8) -> Option<Phages> {
        // Built once each, as the 9x9 start is.
        static STARTS: [std::sync::OnceLock<Phages>; 2] = [const { std::sync::OnceLock::new() }; 2];
        let geo = Geometry::Hex { side };
        let (start, x, o): (_, &[&str], &[&str]) = match side {
            4 => (&STARTS[0], &["d3", "j5"], &["g2", "g6"]),
            5 => (&STARTS[1], &["e5", "k7", "k3"], &["m5", "g7", "g3"]),
            _ => return None,
        };
        let position = start.get_or_init(|| Phages::from_labels(geo, x, o, Side::X).expect("default setup is valid"));
        Some(position.clone())
    }

    /// [`Phages::new`] with cells given as labels (`a7`, `i3`). Panics when a label is not a cell
    /// label at all; a label off the board is [`SetupError::OffBoard`].
    pub fn from_labels(geo: Geometry, x: &[&str], o: &[&str], first: Side) -> Result<Phages, SetupError> {
        let cell = |s: &&str| {
            let l = CellLabel::parse(s).expect("label");
            geo.parse_label(l).ok_or(SetupError::OffBoard(l))
        };
        let x = x.iter().map(cell).collect::<Result<Vec<_>, _>>()?;
        let o = o.iter().map(cell).collect::<Result<Vec<_>, _>>()?;
        Phages::new(geo, &x, &o, first)
    }

    /// A new game with these stones, `first` to play phases (b) and (c) of the first turn.
    pub fn new(geo: Geometry, x: &[Cell], o: &[Cell], first: Side) -> Result<Phages, SetupError> {
        for (side, stones) in [(Side::X, x), (Side::O, o)] {
            if stones.is_empty() || stones.len() > MAX_STONES || stones.len() != x.len() {
                return Err(SetupError::StoneCount { side, count: stones.len() });
            }
        }
        let mut cells = vec![Content::Empty; geo.slots()].into_boxed_slice();
        let mut placed = [[Cell(0); MAX_STONES]; 2];
        for (side, stones) in [(Side::X, x), (Side::O, o)] {
            for (i, &c) in stones.iter().enumerate() {
                if !geo.contains(c) {
                    return Err(SetupError::OffBoard(geo.label(c)));
                }
                if cells[c.0 as usize] != Content::Empty {
                    return Err(SetupError::SameCell(geo.label(c)));
                }
                cells[c.0 as usize] = Content::Stone(side);
                placed[side.index()][i] = c;
            }
        }
        Ok(Phages {
            geo,
            cells,
            stones: placed,
            per_side: x.len() as u8,
            to_move: first,
            phase: Phase::Announce,
            number: 0,
            acted: 0,
            failed: 0,
            over: false,
            first_turn: true,
            marks: [0, 0],
        })
    }

    /// The board's shape.
    pub fn geometry(&self) -> Geometry {
        self.geo
    }

    /// Gives the first turn to `side` (only before anything has been played).
    pub fn set_first_mover(&mut self, side: Side) {
        if self.first_turn && self.number == 0 {
            self.to_move = side;
        }
    }

    /// The side to move.
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// The phase of the current turn.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The number stones move in the current phase (0 before the first announcement).
    pub fn number(&self) -> u8 {
        self.number
    }

    /// Whether the game is still in its very first phase (b) or (c), where (a) does not exist.
    pub fn is_first_turn(&self) -> bool {
        self.first_turn
    }

    /// What stands on cell `c`.
    pub fn content(&self, c: Cell) -> Content {
        self.cells[c.0 as usize]
    }

    /// The stones of `side`, in the order the setup gave them.
    #[inline]
    pub fn stones(&self, side: Side) -> &[Cell] {
        &self.stones[side.index()][..self.per_side as usize]
    }

    /// How many stones each side has (1 to [`MAX_STONES`]).
    pub fn stones_per_side(&self) -> usize {
        self.per_side as usize
    }

    /// The largest number that may be announced: one less than the board's longest line.
    pub fn max_number(&self) -> u8 {
        self.geo.longest_line() as u8
    }

    /// The index among the mover's stones of the stone on `c`.
    #[inline]
    fn stone_index(&self, side: Side, c: Cell) -> Option<usize> {
        self.stones(side).iter().position(|&s| s == c)
    }

    /// Whether the mover's stone on `c` has already moved or stayed in this phase.
    pub fn has_acted(&self, c: Cell) -> bool {
        self.stone_index(self.to_move, c).is_some_and(|i| self.acted & (1 << i) != 0)
    }

    /// The mover's stones that have not yet moved in this phase, as bits: bit `i` for the `i`-th
    /// of [`Phages::stones`], as [`Phages::stones_to_act`] gives them.
    pub fn to_act_bits(&self) -> u8 {
        ((1u8 << self.per_side) - 1) & !self.acted
    }

    /// The mover's stones that have not yet moved in this phase.
    pub fn stones_to_act(&self) -> impl Iterator<Item = Cell> + '_ {
        let side = self.to_move;
        self.stones(side).iter().enumerate().filter(move |(i, _)| self.acted & (1 << i) == 0).map(|(_, &c)| c)
    }

    /// Where the stone on `from` (of the side standing there) can go moving exactly `n` cells.
    pub fn destinations(&self, from: Cell, n: u8) -> impl Iterator<Item = Cell> + '_ {
        self.destinations_along(self.geo.steps(), from, n)
    }

    /// [`Phages::destinations`] with the board's rays at hand.
    fn destinations_along<'a>(&'a self, steps: &'a Steps, from: Cell, n: u8) -> impl Iterator<Item = Cell> + 'a {
        let side = match self.content(from) {
            Content::Stone(s) => Some(s),
            _ => None,
        };
        // No direction at all for a cell without a stone.
        let directions = side.map_or(0, |_| self.geo.directions().len());
        (0..directions).filter_map(move |d| self.landing(steps, from, d, n, side?))
    }

    /// Where the stone of `side` on `from` lands moving `n` cells in direction `d` (an index into
    /// [`Geometry::directions`]), if it may: it passes marks and its own side's stones, not the
    /// opponent's, and lands on an empty cell.
    #[inline]
    fn landing(&self, steps: &Steps, from: Cell, d: usize, n: u8, side: Side) -> Option<Cell> {
        let n = u16::from(n);
        if n == 0 || n > steps.ray_len(from, d) {
            return None;
        }
        let opponent = Content::Stone(side.opponent());
        if (1..n).any(|k| self.content(steps.at(from, d, k)) == opponent) {
            return None;
        }
        let to = steps.at(from, d, n);
        (self.content(to) == Content::Empty).then_some(to)
    }

    /// Whether a stone on `from` moving `n` cells (at least 1) in direction `d` stays on the board,
    /// lands on an empty cell and meets no `opponent` on the way: [`Phages::landing`]'s test, for
    /// the replay's checks and the end test, which ask mostly of stuck stones. Their rays end on
    /// marks, so the landing cell is looked at before the way to it. (The move generator walks the
    /// way first, as [`Phages::landing`] does: counted with callgrind, perft runs 3% fewer
    /// instructions so than with this order.)
    #[inline]
    fn lands(&self, steps: &Steps, from: Cell, d: usize, n: u16, opponent: Content) -> bool {
        n <= steps.ray_len(from, d)
            && self.content(steps.at(from, d, n)) == Content::Empty
            && !(1..n).any(|k| self.content(steps.at(from, d, k)) == opponent)
    }

    /// Whether the stone of `side` on `from` can move exactly `n` cells in some direction: whether
    /// [`Phages::landing`] finds a cell in one, for the replay's checks and the end test.
    #[inline]
    fn has_landing(&self, steps: &Steps, from: Cell, n: u8, side: Side) -> bool {
        let n = u16::from(n);
        let opponent = Content::Stone(side.opponent());
        n != 0 && (0..self.geo.directions().len()).any(|d| self.lands(steps, from, d, n, opponent))
    }

    /// Whether the stone on `from` can move exactly `n` cells: whether it has a
    /// [`Phages::destinations`]. A stone that cannot move the number in force may stay (`----`).
    pub fn can_move(&self, from: Cell, n: u8) -> bool {
        match self.content(from) {
            Content::Stone(side) => self.has_landing(self.geo.steps(), from, n, side),
            _ => false,
        }
    }

    /// Whether any stone of `side` can move exactly `n` cells (a number that lets a stone move).
    fn any_can_move(&self, side: Side, n: u8) -> bool {
        self.stones(side).iter().any(|&s| self.can_move(s, n))
    }

    /// The distances the stone on `from` can move, as bits (bit `n` for `n` cells): one walk along
    /// each of its rays, where [`Phages::can_move`] for each number would walk them once a number.
    fn reach(&self, from: Cell) -> u32 {
        let Content::Stone(side) = self.content(from) else { return 0 };
        let steps = self.geo.steps();
        let mut bits = 0;
        for d in 0..self.geo.directions().len() {
            // Numbers are at most the board's longest line, which a `u32` holds (26 cells at most).
            for n in 1..=steps.ray_len(from, d).min(31) {
                match self.content(steps.at(from, d, n)) {
                    Content::Stone(s) if s != side => break,
                    Content::Empty => bits |= 1 << n,
                    _ => {}
                }
            }
        }
        bits
    }

    /// The numbers that would let at least one of the mover's stones move now (RULINGS 6).
    pub fn useful_numbers(&self) -> impl Iterator<Item = u8> {
        numbers(self.useful_bits())
    }

    /// [`Phages::useful_numbers`] as bits (bit `n` for the number `n`).
    fn useful_bits(&self) -> u32 {
        let reach = self.stones(self.to_move).iter().fold(0, |bits, &s| bits | self.reach(s));
        // Numbers from 1 to the largest (bit 0, a move of no cell, is never set).
        let numbers = if self.max_number() >= 31 { u32::MAX } else { (1u32 << (self.max_number() + 1)) - 1 };
        reach & numbers
    }

    fn illegal_step(&self, steps: &Steps, from: Cell, to: Cell) -> Option<Illegal> {
        let side = self.to_move;
        let g = self.geo;
        match self.content(from) {
            Content::Stone(s) if s == side => {}
            Content::Stone(_) => return Some(Illegal::OpponentStone { side, cell: g.label(from) }),
            _ => return Some(Illegal::NoStone { side, cell: g.label(from) }),
        }
        if self.has_acted(from) {
            return Some(Illegal::AlreadyMoved { side, cell: g.label(from) });
        }
        let Some((dir, cells)) = g.line_index(from, to) else {
            return Some(Illegal::NotStraight { from: g.label(from), to: g.label(to) });
        };
        if cells != self.number as u16 {
            let announced_by = if self.phase == Phase::Move { side.opponent() } else { side };
            return Some(Illegal::WrongDistance { cells, number: self.number, announced_by });
        }
        // `to` lies `cells` steps along the line, so every cell before it is on the board.
        for c in (1..cells).map(|k| steps.at(from, dir, k)) {
            if let Content::Stone(s) = self.content(c) {
                if s != side {
                    return Some(Illegal::Blocked { by: s, cell: g.label(c) });
                }
            }
        }
        match self.content(to) {
            Content::Empty => None,
            Content::Mark(m) => Some(Illegal::LandsOnMark { cell: g.label(to), mark: m }),
            Content::Stone(s) => Some(Illegal::LandsOnStone { cell: g.label(to), stone: s }),
        }
    }

    /// [`Game::check`] in full, which names the reason a move is refused: what `check` falls back
    /// to when [`Phages::legal`] does not find the move legal.
    fn check_in_full(&self, m: PhagesMove) -> Result<(), Illegal> {
        if self.over {
            return Err(Illegal::GameOver);
        }
        let side = self.to_move;
        let g = self.geo;
        let steps = g.steps();
        let off_board = match m {
            PhagesMove::Step { from, .. } if !steps.contains(from) => Some(from),
            PhagesMove::Step { to, .. } if !steps.contains(to) => Some(to),
            PhagesMove::Stay { stone } if !steps.contains(stone) => Some(stone),
            _ => None,
        };
        if let Some(cell) = off_board {
            return Err(Illegal::OffBoard { cell: cell.0 });
        }
        match (self.phase, m) {
            (Phase::Announce, PhagesMove::Announce(n)) => {
                if n == 0 || n > self.max_number() {
                    return Err(Illegal::NumberOutOfRange { number: n, max: self.max_number() });
                }
                if self.any_can_move(side, n) {
                    return Ok(());
                }
                match self.useful_numbers().next() {
                    Some(would) => Err(Illegal::NumberLetsNoMove { number: n, would }),
                    None => Ok(()),
                }
            }
            (Phase::Announce, _) => Err(Illegal::NumberExpected { side }),
            (phase, PhagesMove::Announce(_)) => Err(Illegal::StoneMoveExpected { side, phase }),
            (_, PhagesMove::Step { from, to }) => self.illegal_step(steps, from, to).map_or(Ok(()), Err),
            (_, PhagesMove::Stay { stone }) => {
                match self.content(stone) {
                    Content::Stone(s) if s == side => {}
                    Content::Stone(_) => return Err(Illegal::OpponentStone { side, cell: g.label(stone) }),
                    _ => return Err(Illegal::NoStone { side, cell: g.label(stone) }),
                }
                if self.has_acted(stone) {
                    return Err(Illegal::AlreadyMoved { side, cell: g.label(stone) });
                }
                match self.destinations_along(steps, stone, self.number).next() {
                    Some(to) => {
                        Err(Illegal::CouldMove { side, cell: g.label(stone), to: g.label(to), number: self.number })
                    }
                    None => Ok(()),
                }
            }
        }
    }

    /// Whether `m` is legal, found the short way, with what playing it needs: `Some` exactly for
    /// the moves [`Game::check`] accepts, in a position whose stones stand where its cells say
    /// they do (every position play reaches); `check` falls back to the check in full for the
    /// rest, which names the reason.
    ///
    /// A step is legal when its landing cell is the one `number` cells along one of the stone's
    /// rays: the directions step by different offsets in the grid, so at most one direction's
    /// `number`-th step is `to`, and only that ray is walked, where the check in full measures the
    /// line between the two cells first, to name a reason.
    #[inline]
    fn legal(&self, m: PhagesMove) -> Option<Legal> {
        if self.over {
            return None;
        }
        let side = self.to_move;
        let steps = self.geo.steps();
        match (self.phase, m) {
            // A number in range is legal when it lets a stone move, or when no number would.
            (Phase::Announce, PhagesMove::Announce(n)) => {
                let in_range = n != 0 && n <= self.max_number();
                (in_range && (self.any_can_move(side, n) || self.useful_bits() == 0)).then_some(Legal::Announce(n))
            }
            (Phase::Announce, _) | (_, PhagesMove::Announce(_)) => None,
            (_, PhagesMove::Step { from, to }) => {
                let i = self.unacted_index(steps, from)?;
                let (n, opponent) = (u16::from(self.number), Content::Stone(side.opponent()));
                // Only the ray whose `n`-th cell is `to` is walked (past the edge, `Steps::at` may
                // give `to` too, and `lands` refuses it).
                let reaches = |d| steps.at(from, d, n) == to && self.lands(steps, from, d, n, opponent);
                (n != 0 && (0..self.geo.directions().len()).any(reaches)).then_some(Legal::Step { i, from, to })
            }
            (_, PhagesMove::Stay { stone }) => {
                let i = self.unacted_index(steps, stone)?;
                (!self.has_landing(steps, stone, self.number, side)).then_some(Legal::Stay { i })
            }
        }
    }

    /// The index among the mover's stones of a stone of the mover's on cell `c` (on the board)
    /// that has not acted in this phase.
    #[inline]
    fn unacted_index(&self, steps: &Steps, c: Cell) -> Option<usize> {
        if !steps.contains(c) || self.content(c) != Content::Stone(self.to_move) {
            return None;
        }
        self.stone_index(self.to_move, c).filter(|&i| self.acted & (1 << i) == 0)
    }

    /// Plays a move [`Phages::legal`] found legal: what [`Game::play_unchecked`] does with it.
    fn play_legal(&mut self, legal: Legal) {
        match legal {
            Legal::Announce(n) => self.announce(n),
            // A step empties the run of failed moves, and a run of the stones of one side alone
            // never ends the game: nothing to settle.
            Legal::Step { i, from, to } => return self.step(i, from, to),
            Legal::Stay { i } => self.fail(i),
        }
        self.settle_end();
    }

    /// Phase (b): the mover announces `n`, and its stones move `n` in phase (c).
    fn announce(&mut self, n: u8) {
        self.number = n;
        self.phase = Phase::MoveAgain;
        self.acted = 0;
    }

    /// The mover's stone `i` moves from `from` to `to`, an empty or marked cell (lenient replay
    /// plays a step onto a mark), and marks the cell it leaves.
    #[inline]
    fn step(&mut self, i: usize, from: Cell, to: Cell) {
        let side = self.to_move;
        if let Content::Mark(owner) = self.content(to) {
            self.marks[owner.index()] -= 1;
        }
        self.cells[from.0 as usize] = Content::Mark(side);
        self.marks[side.index()] += 1;
        self.cells[to.0 as usize] = Content::Stone(side);
        self.stones[side.index()][i] = to;
        self.acted |= 1 << i;
        self.failed = 0;
        self.advance_after_stone();
    }

    /// The mover's stone `i` stays, as a stone that cannot move: it fails (RULINGS 8).
    fn fail(&mut self, i: usize) {
        self.acted |= 1 << i;
        self.failed |= 1 << (self.to_move.index() * MAX_STONES + i);
        self.advance_after_stone();
    }

    /// Ends the game once the run of failed moves must come to include every stone (RULINGS 8).
    ///
    /// When every stone left to act in this phase is stuck, their stays are certain and nothing can
    /// move in between, so the run is decided now. Ending here, rather than at the last of those
    /// stays, makes the end independent of the order in which a record writes them: `----` names
    /// no stone, and which one stays first is not written anywhere.
    ///
    /// Inlined where a move is played: most moves leave a run that cannot be complete, which a few
    /// bit operations tell.
    #[inline]
    fn settle_end(&mut self) {
        if self.over {
            return;
        }
        let all = (1u8 << self.per_side) - 1;
        // The run can only be complete if every stone left to act joins it: when even that would
        // not complete it, whether those stones are stuck does not matter (and is not computed).
        let to_act = (all & !self.acted) << (self.to_move.index() * MAX_STONES);
        if self.failed | to_act != all | (all << MAX_STONES) {
            return;
        }
        self.settle_run(all, to_act);
    }

    /// The rest of [`Phages::settle_end`], for a run that every stone left to act (`to_act`, as
    /// bits of the run) would complete: whether they are all stuck.
    fn settle_run(&mut self, all: u8, to_act: u8) {
        let mut run = self.failed;
        // The stones left to act join the run when every one of them is stuck: their bits are
        // `to_act`'s.
        if self.phase != Phase::Announce && !self.any_to_act_can_move() {
            run |= to_act;
        }
        if run == all | (all << MAX_STONES) {
            self.over = true;
        }
    }

    /// Whether one of the mover's stones left to act in this phase can move the number in force.
    fn any_to_act_can_move(&self) -> bool {
        let stones = self.stones(self.to_move);
        (0..stones.len()).any(|i| self.acted & (1 << i) == 0 && self.can_move(stones[i], self.number))
    }

    /// The mover's stone `i`, standing on `stone`, uses its turn in the phase where it stands, as
    /// lenient replay plays a `----` written for a stone that could move, or a step it cannot play
    /// as written.
    ///
    /// It fails to move (RULINGS 8) only if it cannot move. A stone that could move did not fail,
    /// it was due to move, so it breaks the run of failures as the move it stands for would have.
    /// Were it to join the run, two such stays could end the game, and every later move of the
    /// record would be a move after the end.
    fn stand(&mut self, i: usize, stone: Cell) {
        // Only lenient replay offers a stone that has already acted: its turn is used, nothing to play.
        if self.acted & (1 << i) != 0 {
            return;
        }
        self.acted |= 1 << i;
        if self.can_move(stone, self.number) {
            self.failed = 0;
        } else {
            self.failed |= 1 << (self.to_move.index() * MAX_STONES + i);
        }
        self.advance_after_stone();
    }

    /// The mover's stone on `stone` loses its turn in this phase without moving or failing to move:
    /// play that did not happen, as a repaired record may have it (`repair`, for a phase a record
    /// skips while its stones could move). The run of failed moves is left as it is.
    pub fn lose_turn(&mut self, stone: Cell) {
        if self.over || self.phase == Phase::Announce {
            return;
        }
        let Some(i) = self.stone_index(self.to_move, stone) else { return };
        self.acted |= 1 << i;
        self.advance_after_stone();
        self.settle_end();
    }

    fn advance_after_stone(&mut self) {
        if self.acted.count_ones() as u8 == self.per_side {
            self.acted = 0;
            match self.phase {
                Phase::Move => self.phase = Phase::Announce,
                Phase::MoveAgain => {
                    self.phase = Phase::Move;
                    self.to_move = self.to_move.opponent();
                    self.first_turn = false;
                }
                Phase::Announce => unreachable!("stones do not act in phase (b)"),
            }
        }
    }
}

impl BoardView for Phages {
    fn geometry(&self) -> Geometry {
        self.geo
    }

    fn glyph(&self, cell: Cell) -> &'static str {
        match self.content(cell) {
            Content::Empty => ".",
            Content::Mark(Side::X) => "x",
            Content::Mark(Side::O) => "o",
            Content::Stone(Side::X) => "X",
            Content::Stone(Side::O) => "O",
        }
    }

    fn figure(&self, cell: Cell) -> Option<Figure> {
        match self.content(cell) {
            Content::Empty => None,
            Content::Mark(side) => Some(Figure { owner: Some(side.index() as u8), shape: Shape::Square, name: "mark" }),
            Content::Stone(side) => Some(Figure { owner: Some(side.index() as u8), shape: Shape::Disc, name: "stone" }),
        }
    }

    fn player_names(&self) -> &'static [&'static str] {
        &["X", "O"]
    }
}

/// The search stores Quadraphages and Hexaphages positions whole: they are plain data (a board,
/// the stones, the turn's state).
impl crate::game::PlainData for Phages {
    fn heap_bytes(&self) -> usize {
        crate::game::key::allocation(std::mem::size_of_val(&*self.cells))
    }

    fn plain_hash(&self) -> u64 {
        let cell = |c: &Content| match c {
            Content::Empty => 0,
            Content::Mark(s) => 1 + *s as u8,
            Content::Stone(s) => 3 + *s as u8,
        };
        let rest =
            (self.stones, self.to_move, self.phase, self.number, self.acted, self.failed, self.over, self.first_turn);
        crate::game::board_hash(&self.cells, cell, rest)
    }
}

impl Game for Phages {
    type Move = PhagesMove;
    type Illegal = Illegal;
    type Score = PhagesScore;

    fn about(&self) -> &'static crate::game::About {
        match self.geo {
            Geometry::Square { .. } => &super::QUADRAPHAGES,
            Geometry::Hex { .. } => &super::HEXAPHAGES,
        }
    }

    /// The moves are gathered first and then copied into a vector of the capacity that pushing
    /// them one by one grows a vector to: the search counts the bytes of the move lists it holds
    /// by their capacity, and reports them, so the figures stay those of that vector, without the
    /// reallocations of growing it.
    fn legal_moves(&self) -> Vec<PhagesMove> {
        // The capacity a vector pushed `len` moves one by one has: none, then 4, then doubling.
        let grown = |len: usize| if len == 0 { 0 } else { len.next_power_of_two().max(4) };
        if self.over {
            return Vec::new();
        }
        if self.phase == Phase::Announce {
            let useful = self.useful_bits();
            if useful == 0 {
                // Extending an empty vector by an exact count allocates that count at once.
                let all = self.max_number() as usize;
                let mut moves = Vec::with_capacity(if all == 0 { 0 } else { all.max(4) });
                moves.extend((1..=self.max_number()).map(PhagesMove::Announce));
                return moves;
            }
            let mut moves = Vec::with_capacity(grown(useful.count_ones() as usize));
            moves.extend(numbers(useful).map(PhagesMove::Announce));
            return moves;
        }
        // At most a destination per direction (six on a hex board) for each stone, or its stay.
        let mut found = [PhagesMove::Announce(0); MAX_STONES * 6];
        let mut len = 0;
        for from in self.stones_to_act() {
            let before = len;
            for to in self.destinations(from, self.number) {
                found[len] = PhagesMove::Step { from, to };
                len += 1;
            }
            if len == before {
                found[len] = PhagesMove::Stay { stone: from };
                len += 1;
            }
        }
        let mut moves = Vec::with_capacity(grown(len));
        moves.extend_from_slice(&found[..len]);
        moves
    }

    /// A legal move is found legal by `Phages::legal`, which walks only the ray the move takes;
    /// the rest, and the reason for a refusal, by the check in full.
    fn check(&self, m: PhagesMove) -> Result<(), Illegal> {
        if self.legal(m).is_some() {
            return Ok(());
        }
        self.check_in_full(m)
    }

    /// Replay checks and plays each move of a record here: a legal move is played with what
    /// `Phages::legal` found (the stone's index, and for a step, that it lands on an empty
    /// cell), rather than found again by [`Game::play_unchecked`].
    fn play_checked(&mut self, m: PhagesMove, before: impl FnOnce(&Phages)) -> Result<(), Illegal> {
        match self.legal(m) {
            Some(legal) => {
                before(self);
                self.play_legal(legal);
            }
            None => {
                self.check_in_full(m)?;
                before(self);
                self.play_unchecked(m);
            }
        }
        Ok(())
    }

    /// Lenient replay plays here the moves `check` refuses, as written where they can be, and no
    /// such move ends a game that the legal move in its place would not have ended: a refused
    /// step to an empty or marked cell moves the stone, which breaks the run of failures
    /// (RULINGS 8); a step onto a stone, for a stone that could move, breaks it too
    /// (`Phages::stand`), as a stay for such a stone does ([`Game::play_refused`]); a refused
    /// number is announced, and the mover's stones failing it cannot complete a run, which would
    /// have to hold the opponent's stones with nothing moved since, so the mover's own phase (a)
    /// would have completed it already.
    fn play_unchecked(&mut self, m: PhagesMove) {
        let side = self.to_move;
        // Lenient replay may offer a stone move where a number is due, or the reverse: such a move
        // cannot be played as written at all, so it changes nothing.
        if self.over || (self.phase == Phase::Announce) != matches!(m, PhagesMove::Announce(_)) {
            return;
        }
        match m {
            PhagesMove::Announce(n) => self.announce(n),
            PhagesMove::Step { from, to } => {
                let Some(i) = self.stone_index(side, from) else { return };
                match self.content(to) {
                    // Only lenient replay plays such a move (`to` may be `from` itself): the stone
                    // cannot get there, so it stays where it stands.
                    Content::Stone(_) => self.stand(i, from),
                    // A step empties the run of failed moves: nothing to settle (`play_legal`).
                    _ => return self.step(i, from, to),
                }
            }
            // A stay is a stone that cannot move, and fails (RULINGS 8); lenient replay plays a
            // stay for a stone that could move through `play_refused`.
            PhagesMove::Stay { stone } => {
                let Some(i) = self.stone_index(side, stone) else { return };
                self.fail(i);
            }
        }
        self.settle_end();
    }

    /// A `----` for a stone that could move is played as a stay that is no failure
    /// (`Phages::stand`); any other refused move, as written ([`Game::play_unchecked`]).
    fn play_refused(&mut self, m: PhagesMove, why: &Illegal) {
        match (m, why) {
            (PhagesMove::Stay { stone }, Illegal::CouldMove { .. }) if !self.over => {
                let Some(i) = self.stone_index(self.to_move, stone) else { return };
                self.stand(i, stone);
                self.settle_end();
            }
            _ => self.play_unchecked(m),
        }
    }

    fn is_over(&self) -> bool {
        self.over
    }

    fn score(&self) -> PhagesScore {
        let n = self.per_side as u16;
        PhagesScore { marks: self.marks, stones: [n, n] }
    }

    fn signs(&self, m: PhagesMove) -> Vec<Sign> {
        vec![match m {
            PhagesMove::Step { from, to } => Sign::Arrow { from, to },
            PhagesMove::Stay { stone } => Sign::Stay(stone),
            PhagesMove::Announce(n) => Sign::Number(n),
        }]
    }
}

// The position code (grammar.md, "Position codes") reads and writes every field of the engine.
mod code;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::code::Coded;

    impl Phages {
        /// The end test as first written: whether every stone left to act is stuck is always
        /// computed. [`Phages::settle_end`] skips it when it cannot matter.
        fn run_completes_reference(&self) -> bool {
            let side = self.to_move;
            let mut run = self.failed;
            if self.phase != Phase::Announce {
                let stuck = self.stones_to_act().all(|c| !self.can_move(c, self.number));
                if stuck {
                    for (i, _) in self.stones(side).iter().enumerate().filter(|(i, _)| self.acted & (1 << i) == 0) {
                        run |= 1 << (side.index() * MAX_STONES + i);
                    }
                }
            }
            let all = (1u8 << self.per_side) - 1;
            run == all | (all << MAX_STONES)
        }
    }

    impl Phages {
        /// Destinations as first written, along [`Geometry::ray`]: the step table must find the same.
        fn destinations_reference(&self, from: Cell, n: u8) -> Vec<Cell> {
            let Content::Stone(side) = self.content(from) else { return Vec::new() };
            let walk = |d| {
                let mut ray = self.geo.ray(from, d);
                for step in 1..=n {
                    let c = ray.next()?;
                    match self.content(c) {
                        Content::Stone(s) if s != side => return None,
                        _ if step < n => {}
                        Content::Empty => return Some(c),
                        _ => return None,
                    }
                }
                None
            };
            self.geo.directions().iter().filter_map(|&d| walk(d)).collect()
        }
    }

    /// Calls `visit` with every position of random games (`games` a board, at most `plies` moves
    /// each) from random starts of one to three stones a side on each of `boards`.
    fn random_positions(
        boards: impl Iterator<Item = Geometry>,
        games: u64,
        plies: usize,
        mut visit: impl FnMut(&Phages),
    ) {
        for (k, g) in boards.enumerate() {
            let cells: Vec<Cell> = g.cells().collect();
            for seed in 0..games {
                let mut rng = fastrand::Rng::with_seed(seed * 31 + k as u64);
                let mut picks = cells.clone();
                rng.shuffle(&mut picks);
                let per_side = rng.usize(1..=MAX_STONES).min(cells.len() / 2);
                if per_side == 0 {
                    continue;
                }
                let (x, o) = (&picks[..per_side], &picks[per_side..2 * per_side]);
                let mut position = Phages::new(g, x, o, Side::X).unwrap();
                for _ in 0..plies {
                    visit(&position);
                    let legal = position.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    position.play(legal[rng.usize(..legal.len())]).unwrap();
                }
            }
        }
    }

    /// Random games on every board size: every stone's destinations for every number (0 and one
    /// past the largest too), and the useful numbers, are those of the walks along `Geometry::ray`.
    #[test]
    fn destinations_agree_with_the_ray_walk() {
        let boards = (2..=12).map(|size| Geometry::Square { size }).chain((2..=7).map(|side| Geometry::Hex { side }));
        random_positions(boards, 20, 200, |position| {
            let g = position.geometry();
            let per_side = position.stones_per_side();
            for &stone in position.stones[0][..per_side].iter().chain(&position.stones[1][..per_side]) {
                for n in 0..=position.max_number() + 1 {
                    let found: Vec<Cell> = position.destinations(stone, n).collect();
                    assert_eq!(found, position.destinations_reference(stone, n), "{g:?} {}", position.code());
                }
            }
            let side = position.to_move();
            let useful = (1..=position.max_number())
                .filter(|&n| position.stones(side).iter().any(|&s| !position.destinations_reference(s, n).is_empty()));
            assert!(position.useful_numbers().eq(useful), "{g:?} {}", position.code());
        });
    }

    impl Phages {
        /// The legal moves as first written, pushed into a vector one by one.
        fn legal_moves_reference(&self) -> Vec<PhagesMove> {
            let mut moves = Vec::new();
            if self.over {
                return moves;
            }
            if self.phase == Phase::Announce {
                let useful =
                    (1..=self.max_number()).filter(|&n| self.stones(self.to_move).iter().any(|&s| self.can_move(s, n)));
                moves.extend(useful.map(PhagesMove::Announce));
                if moves.is_empty() {
                    moves.extend((1..=self.max_number()).map(PhagesMove::Announce));
                }
                return moves;
            }
            for from in self.stones_to_act() {
                let before = moves.len();
                moves.extend(self.destinations(from, self.number).map(|to| PhagesMove::Step { from, to }));
                if moves.len() == before {
                    moves.push(PhagesMove::Stay { stone: from });
                }
            }
            moves
        }
    }

    /// Random games from random starts on boards of every shape and a few sizes: the legal moves
    /// are the reference's, in its order, in a vector of the same capacity (the search counts it).
    #[test]
    fn legal_moves_agree_with_the_reference_capacity_too() {
        let boards = [1, 2, 3, 5, 9, 14, 26].map(|size| Geometry::Square { size });
        let boards = boards.into_iter().chain((1..=7).map(|side| Geometry::Hex { side }));
        random_positions(boards, 20, 300, |position| {
            let (legal, reference) = (position.legal_moves(), position.legal_moves_reference());
            assert_eq!(legal, reference, "{}", position.code());
            assert_eq!(legal.capacity(), reference.capacity(), "{}: {legal:?}", position.code());
        });
    }

    /// Random games on both boards, with stays written for stones that could move (as lenient
    /// replay plays them): after every move the game is over exactly when the reference says so.
    #[test]
    fn end_test_agrees_with_the_reference() {
        let starts = [Phages::quadraphages(), Phages::hexaphages(4).unwrap(), Phages::hexaphages(5).unwrap()];
        for (k, start) in starts.iter().enumerate() {
            let mut ended = 0;
            for seed in 0..300u64 {
                let mut rng = fastrand::Rng::with_seed(seed * 7 + k as u64);
                let mut position = start.clone();
                for _ in 0..400 {
                    let mut legal = position.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    if position.phase() != Phase::Announce && rng.u8(..4) == 0 {
                        legal = position.stones_to_act().map(|stone| PhagesMove::Stay { stone }).collect();
                    }
                    let m = legal[rng.usize(..legal.len())];
                    let was_over = position.is_over();
                    position.play_unchecked(m);
                    assert_eq!(position.is_over(), was_over || position.run_completes_reference(), "seed {seed}");
                }
                ended += usize::from(position.is_over());
            }
            // Most games end within 400 moves: the end test was met, not only passed by.
            assert!(ended > 200, "{ended} of 300 games ended on start {k}");
        }
    }

    impl Phages {
        /// `check` as first written, before [`Phages::legal`] decided legal moves the short way:
        /// every move measured by [`Geometry::line_index`], rays walked along [`Geometry::ray`].
        fn check_reference(&self, m: PhagesMove) -> Result<(), Illegal> {
            if self.over {
                return Err(Illegal::GameOver);
            }
            let side = self.to_move;
            let g = self.geo;
            let steps = g.steps();
            let off_board = match m {
                PhagesMove::Step { from, to } => [from, to].into_iter().find(|&c| !steps.contains(c)),
                PhagesMove::Stay { stone } => Some(stone).filter(|&c| !steps.contains(c)),
                PhagesMove::Announce(_) => None,
            };
            if let Some(cell) = off_board {
                return Err(Illegal::OffBoard { cell: cell.0 });
            }
            match (self.phase, m) {
                (Phase::Announce, PhagesMove::Announce(n)) => {
                    if n == 0 || n > self.max_number() {
                        return Err(Illegal::NumberOutOfRange { number: n, max: self.max_number() });
                    }
                    if self.stones(side).iter().any(|&s| !self.destinations_reference(s, n).is_empty()) {
                        return Ok(());
                    }
                    match self.useful_numbers().next() {
                        Some(would) => Err(Illegal::NumberLetsNoMove { number: n, would }),
                        None => Ok(()),
                    }
                }
                (Phase::Announce, _) => Err(Illegal::NumberExpected { side }),
                (phase, PhagesMove::Announce(_)) => Err(Illegal::StoneMoveExpected { side, phase }),
                (_, PhagesMove::Step { from, to }) => self.illegal_step(steps, from, to).map_or(Ok(()), Err),
                (_, PhagesMove::Stay { stone }) => {
                    match self.content(stone) {
                        Content::Stone(s) if s == side => {}
                        Content::Stone(_) => return Err(Illegal::OpponentStone { side, cell: g.label(stone) }),
                        _ => return Err(Illegal::NoStone { side, cell: g.label(stone) }),
                    }
                    if self.has_acted(stone) {
                        return Err(Illegal::AlreadyMoved { side, cell: g.label(stone) });
                    }
                    match self.destinations_reference(stone, self.number).first() {
                        Some(&to) => {
                            Err(Illegal::CouldMove { side, cell: g.label(stone), to: g.label(to), number: self.number })
                        }
                        None => Ok(()),
                    }
                }
            }
        }

        /// `play_unchecked` as first written: the cells, marks and stones changed in place, and the
        /// end test of [`Phages::run_completes_reference`] after every move.
        fn play_unchecked_reference(&mut self, m: PhagesMove) {
            let side = self.to_move;
            if self.over || (self.phase == Phase::Announce) != matches!(m, PhagesMove::Announce(_)) {
                return;
            }
            let index = |p: &Phages, c: Cell| p.stones(side).iter().position(|&s| s == c);
            match m {
                PhagesMove::Announce(n) => {
                    self.number = n;
                    self.phase = Phase::MoveAgain;
                    self.acted = 0;
                }
                PhagesMove::Step { from, to } => {
                    let Some(i) = index(self, from) else { return };
                    match self.content(to) {
                        Content::Stone(_) => {
                            if self.acted & (1 << i) != 0 {
                                return;
                            }
                            self.acted |= 1 << i;
                            if self.destinations_reference(from, self.number).is_empty() {
                                self.failed |= 1 << (side.index() * MAX_STONES + i);
                            } else {
                                self.failed = 0;
                            }
                            self.advance_after_stone();
                        }
                        content => {
                            if let Content::Mark(owner) = content {
                                self.marks[owner.index()] -= 1;
                            }
                            self.cells[from.0 as usize] = Content::Mark(side);
                            self.marks[side.index()] += 1;
                            self.cells[to.0 as usize] = Content::Stone(side);
                            self.stones[side.index()][i] = to;
                            self.acted |= 1 << i;
                            self.failed = 0;
                            self.advance_after_stone();
                        }
                    }
                }
                PhagesMove::Stay { stone } => {
                    let Some(i) = index(self, stone) else { return };
                    self.acted |= 1 << i;
                    self.failed |= 1 << (side.index() * MAX_STONES + i);
                    self.advance_after_stone();
                }
            }
            if !self.over && self.run_completes_reference() {
                self.over = true;
            }
        }
    }

    /// Moves to try in `position`: its legal moves, steps of every stone of both sides to some
    /// random cells (off the board too), stays of every stone and of random cells, every number
    /// from 0 to two past the largest.
    fn candidates(position: &Phages, rng: &mut fastrand::Rng) -> Vec<PhagesMove> {
        let g = position.geometry();
        let slots = g.slots() as u16;
        let mut moves = position.legal_moves();
        let stones: Vec<Cell> = position.stones(Side::X).iter().chain(position.stones(Side::O)).copied().collect();
        for &from in &stones {
            moves.push(PhagesMove::Stay { stone: from });
            for _ in 0..12 {
                moves.push(PhagesMove::Step { from, to: Cell(rng.u16(..slots + 3)) });
            }
            // Every cell on the stone's rays, so that blocked steps, steps onto marks and steps of
            // the wrong length are tried.
            for &dir in g.directions() {
                moves.extend(g.ray(from, dir).map(|to| PhagesMove::Step { from, to }));
            }
            moves.push(PhagesMove::Step { from, to: from });
        }
        for _ in 0..4 {
            let c = Cell(rng.u16(..slots + 3));
            moves.push(PhagesMove::Stay { stone: c });
            moves.push(PhagesMove::Step { from: c, to: Cell(rng.u16(..slots + 3)) });
        }
        moves.extend((0..=position.max_number() + 2).map(PhagesMove::Announce));
        moves
    }

    /// Random games from random starts of one to three stones a side on square and hex boards of
    /// many sizes, and from the default starts, played on through refused moves as lenient replay
    /// plays them (so that a number out of range, a stone moved onto a mark and stays of stones
    /// that could move are met too): every candidate move is checked as the reference checks it,
    /// and `play_checked` leaves the position the reference's check and play leave, calling
    /// `before` with the position before the move exactly when the move is legal.
    #[test]
    fn check_and_play_checked_agree_with_the_reference() {
        let boards = (1..=12).map(|size| Geometry::Square { size }).chain((1..=7).map(|side| Geometry::Hex { side }));
        let mut starts: Vec<Phages> = Vec::new();
        for (k, g) in boards.enumerate() {
            let cells: Vec<Cell> = g.cells().collect();
            for seed in 0..3u64 {
                let mut rng = fastrand::Rng::with_seed(seed * 131 + k as u64);
                let mut picks = cells.clone();
                rng.shuffle(&mut picks);
                let per_side = rng.usize(1..=MAX_STONES).min(cells.len() / 2);
                if per_side > 0 {
                    let (x, o) = (&picks[..per_side], &picks[per_side..2 * per_side]);
                    starts.push(Phages::new(g, x, o, if seed % 2 == 0 { Side::X } else { Side::O }).unwrap());
                }
            }
        }
        starts.extend([Phages::quadraphages(), Phages::hexaphages(4).unwrap(), Phages::hexaphages(5).unwrap()]);
        let (mut legal_seen, mut refused_seen) = (0usize, 0usize);
        for (k, start) in starts.iter().enumerate() {
            for seed in 0..2u64 {
                let mut rng = fastrand::Rng::with_seed(seed * 7919 + k as u64);
                let mut position = start.clone();
                for _ in 0..120 {
                    let moves = candidates(&position, &mut rng);
                    for &m in &moves {
                        let expected = position.check_reference(m);
                        assert_eq!(position.check(m), expected, "{m:?} in {}", position.code());
                        assert_eq!(position.legal(m).is_some(), expected.is_ok(), "{m:?} in {}", position.code());
                        let mut played = position.clone();
                        let mut seen = None;
                        let result = played.play_checked(m, |before| seen = Some(before.clone()));
                        assert_eq!(result, expected, "{m:?} in {}", position.code());
                        let mut reference = position.clone();
                        if expected.is_ok() {
                            reference.play_unchecked_reference(m);
                            assert_eq!(seen.as_ref(), Some(&position), "{m:?} in {}", position.code());
                            legal_seen += 1;
                        } else {
                            assert_eq!(seen, None, "{m:?} in {}", position.code());
                            refused_seen += 1;
                        }
                        assert_eq!(played, reference, "{m:?} in {}", position.code());
                        // Played unchecked, as lenient replay plays some refused moves (whose
                        // cells are on the board: records name cells by label).
                        if !matches!(expected, Err(Illegal::OffBoard { .. })) {
                            let (mut unchecked, mut reference) = (position.clone(), position.clone());
                            unchecked.play_unchecked(m);
                            reference.play_unchecked_reference(m);
                            assert_eq!(unchecked, reference, "{m:?} unchecked in {}", position.code());
                        }
                    }
                    if position.is_over() {
                        break;
                    }
                    // Mostly a legal move; now and then any candidate, played as lenient replay
                    // plays a refused one.
                    let m = moves[rng.usize(..moves.len())];
                    match position.check_reference(m) {
                        Ok(()) => position.play_unchecked(m),
                        Err(Illegal::OffBoard { .. }) => {}
                        Err(why) if rng.u8(..4) == 0 => position.play_refused(m, &why),
                        Err(_) => {
                            let legal = position.legal_moves();
                            if legal.is_empty() {
                                break;
                            }
                            position.play_unchecked(legal[rng.usize(..legal.len())]);
                        }
                    }
                }
            }
        }
        // Both kinds were met in numbers: the comparison was not idle.
        assert!(legal_seen > 30_000 && refused_seen > 500_000, "{legal_seen} legal, {refused_seen} refused");
    }

    /// The default starts are built once and copied: each call gives the start as built from its
    /// labels, whatever was played on an earlier copy.
    #[test]
    fn default_starts_are_fresh_copies() {
        let built = [
            Phages::from_labels(Geometry::Square { size: 9 }, &["a7", "i3"], &["c1", "g9"], Side::X),
            Phages::from_labels(Geometry::Hex { side: 4 }, &["d3", "j5"], &["g2", "g6"], Side::X),
            Phages::from_labels(Geometry::Hex { side: 5 }, &["e5", "k7", "k3"], &["m5", "g7", "g3"], Side::X),
        ];
        let start = |k: usize| if k == 0 { Some(Phages::quadraphages()) } else { Phages::hexaphages(k as u8 + 3) };
        for (k, built) in built.into_iter().enumerate() {
            let mut first = start(k).unwrap();
            assert_eq!(first, built.unwrap());
            first.play(first.legal_moves()[0]).unwrap();
            first.play(first.legal_moves()[0]).unwrap();
            assert_ne!(Some(first), start(k));
        }
        assert_eq!(Phages::hexaphages(3), None);
        assert_eq!(Phages::hexaphages(6), None);
    }
}
