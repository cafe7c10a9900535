//! Square and hex boards as one dense grid of cells.
//!
//! Both shapes are stored as a `width x height` grid indexed row-major; a hex board of side `s` uses
//! doubled-column coordinates (RULINGS, Quadraphages 11): `4(s-1)+1` letter columns and `2s-1` rows,
//! where only every second letter of a row is a cell. Rows are numbered from the top, as in the
//! published diagrams.

use std::fmt::{self, Write as _};

/// A cell, as an index into the row-major grid of its [`Geometry`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Cell(pub u16);

/// A step between neighbouring cells, in grid columns and rows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Direction {
    /// Columns to the right (negative: to the left); a hex step across an edge moves two columns.
    pub dcol: i8,
    /// Rows down (negative: up).
    pub drow: i8,
}

impl Direction {
    /// The step the other way along the same line.
    pub fn opposite(self) -> Direction {
        Direction { dcol: -self.dcol, drow: -self.drow }
    }
}

/// The eight directions around a cell of a square board, clockwise from up: N, NE, E, SE, S, SW,
/// W, NW. Direction `i`'s opposite is `(i + 4) % 8`.
pub const AROUND: [Direction; 8] = [
    Direction { dcol: 0, drow: -1 },
    Direction { dcol: 1, drow: -1 },
    Direction { dcol: 1, drow: 0 },
    Direction { dcol: 1, drow: 1 },
    Direction { dcol: 0, drow: 1 },
    Direction { dcol: -1, drow: 1 },
    Direction { dcol: -1, drow: 0 },
    Direction { dcol: -1, drow: -1 },
];

/// The lines through a cell of a square board, each as one of its two directions: across, down and
/// the two diagonals.
const SQUARE_LINES: [Direction; 4] = [
    Direction { dcol: 1, drow: 0 },
    Direction { dcol: 0, drow: 1 },
    Direction { dcol: 1, drow: 1 },
    Direction { dcol: 1, drow: -1 },
];

const ROOK: [Direction; 4] = [
    Direction { dcol: 0, drow: -1 },
    Direction { dcol: 1, drow: 0 },
    Direction { dcol: 0, drow: 1 },
    Direction { dcol: -1, drow: 0 },
];

const HEX: [Direction; 6] = [
    Direction { dcol: 2, drow: 0 },
    Direction { dcol: 1, drow: 1 },
    Direction { dcol: -1, drow: 1 },
    Direction { dcol: -2, drow: 0 },
    Direction { dcol: -1, drow: -1 },
    Direction { dcol: 1, drow: -1 },
];

/// The shape of a board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Geometry {
    /// `size x size` squares, files `a..` left to right, rank 1 at the top.
    Square {
        /// Squares a side, at most [`MAX_SQUARE`].
        size: u8,
    },
    /// A hexagon of `side` cells a side, in doubled-column coordinates.
    Hex {
        /// Cells a side, at most [`MAX_HEX_SIDE`].
        side: u8,
    },
}

/// Largest board edge accepted anywhere, so that every cell index fits a `u16` and letters stay in `a..=z`.
pub const MAX_SQUARE: u8 = 26;
/// Largest hex side accepted: `4(side-1)+1` columns must stay within `a..=z`.
pub const MAX_HEX_SIDE: u8 = 7;
/// The most rows any board has, and the most cells in any of its rows: a 26x26 square board (a
/// hex board of side 7 has 13 rows of at most 13 cells). Codes and diagrams are refused as soon as
/// they pass it, so that no row, however long, is held.
pub const MAX_ROW_CELLS: usize = {
    let square = MAX_SQUARE as usize;
    let hex = 2 * MAX_HEX_SIDE as usize - 1;
    if square > hex {
        square
    } else {
        hex
    }
};

impl Geometry {
    /// Grid columns: the squares of a row, or `4(side-1)+1` letter columns of a hex board.
    pub fn width(self) -> u16 {
        match self {
            Geometry::Square { size } => size as u16,
            Geometry::Hex { side } => 4 * (side as u16 - 1) + 1,
        }
    }

    /// Grid rows: the squares of a column, or `2·side-1` rows of a hex board.
    pub fn height(self) -> u16 {
        match self {
            Geometry::Square { size } => size as u16,
            Geometry::Hex { side } => 2 * side as u16 - 1,
        }
    }

    /// The board's size as records give it (`[Size]`): the side of the square or of the hexagon.
    pub fn size(self) -> u8 {
        match self {
            Geometry::Square { size } => size,
            Geometry::Hex { side } => side,
        }
    }

    /// Number of grid slots (cells plus the unused slots of a hex grid).
    pub fn slots(self) -> usize {
        self.width() as usize * self.height() as usize
    }

    /// The cell at grid column `col` and row `row` (both 0-based), if the board has it.
    #[inline]
    pub fn cell_at(self, col: i32, row: i32) -> Option<Cell> {
        if col < 0 || row < 0 || col >= self.width() as i32 || row >= self.height() as i32 {
            return None;
        }
        if let Geometry::Hex { side } = self {
            let (lo, hi) = self.hex_row_span(row as u16);
            let _ = side;
            if (col as u16) < lo || (col as u16) > hi || !(col as u16 - lo).is_multiple_of(2) {
                return None;
            }
        }
        Some(Cell((row as u16) * self.width() + col as u16))
    }

    /// First and last grid column of a hex row (RULINGS 11: from `|r-s|` to `4(s-1)-|r-s|`).
    #[inline]
    fn hex_row_span(self, row: u16) -> (u16, u16) {
        match self {
            Geometry::Hex { side } => {
                let s = side as i32;
                let off = ((row as i32 + 1) - s).unsigned_abs() as u16;
                (off, 4 * (side as u16 - 1) - off)
            }
            Geometry::Square { size } => (0, size as u16 - 1),
        }
    }

    /// The 0-based grid column of `c`.
    #[inline]
    pub fn col(self, c: Cell) -> u16 {
        c.0 % self.width()
    }

    /// The 0-based grid row of `c` (row 1 of a diagram is row 0).
    #[inline]
    pub fn row(self, c: Cell) -> u16 {
        c.0 / self.width()
    }

    /// Whether `c` is a cell of this board (on a hex board, not every grid slot is).
    pub fn contains(self, c: Cell) -> bool {
        match self {
            // Every slot of a square grid is a cell.
            Geometry::Square { size } => (c.0 as usize) < size as usize * size as usize,
            Geometry::Hex { .. } => {
                (c.0 as usize) < self.slots() && self.cell_at(self.col(c) as i32, self.row(c) as i32) == Some(c)
            }
        }
    }

    /// Every cell of the board, in reading order.
    pub fn cells(self) -> impl Iterator<Item = Cell> + Clone {
        (0..self.slots() as u16).map(Cell).filter(move |&c| self.contains(c))
    }

    /// How many cells the board has: counted from the side, not by walking the board (a final
    /// diagram and a position code ask it for every record).
    pub fn cell_count(self) -> usize {
        match self {
            Geometry::Square { size } => usize::from(size) * usize::from(size),
            Geometry::Hex { side } => 3 * usize::from(side) * usize::from(side).saturating_sub(1) + 1,
        }
    }

    /// The directions a stone may travel in a straight line.
    pub fn directions(self) -> &'static [Direction] {
        match self {
            Geometry::Square { .. } => &ROOK,
            Geometry::Hex { .. } => &HEX,
        }
    }

    /// Every direction from a cell to the cells around it: on a square board the eight of
    /// [`AROUND`] (the diagonals too, as a king steps), on a hex board the six of
    /// [`Geometry::directions`].
    pub fn all_directions(self) -> &'static [Direction] {
        match self {
            Geometry::Square { .. } => &AROUND,
            Geometry::Hex { .. } => &HEX,
        }
    }

    /// The straight lines through a cell, each as one of its two directions (the other is its
    /// [`Direction::opposite`]): on a square board across, down and the two diagonals, on a hex
    /// board its three axes. Rows of stones are counted along them.
    pub fn lines(self) -> &'static [Direction] {
        match self {
            Geometry::Square { .. } => &SQUARE_LINES,
            Geometry::Hex { .. } => &HEX[..3],
        }
    }

    /// The neighbour of `c` one step in direction `d`.
    #[inline]
    pub fn step(self, c: Cell, d: Direction) -> Option<Cell> {
        self.cell_at(self.col(c) as i32 + d.dcol as i32, self.row(c) as i32 + d.drow as i32)
    }

    /// The cells from `c` on in direction `d`, `c` left out, to the edge of the board. The cell's
    /// column and row are found once, not at every step (replays walk many such lines).
    pub fn ray(self, c: Cell, d: Direction) -> impl Iterator<Item = Cell> {
        let (mut col, mut row) = (self.col(c) as i32, self.row(c) as i32);
        std::iter::from_fn(move || {
            col += d.dcol as i32;
            row += d.drow as i32;
            self.cell_at(col, row)
        })
    }

    /// The neighbours of `c`, one per direction that stays on the board.
    pub fn neighbours(self, c: Cell) -> impl Iterator<Item = Cell> {
        self.directions().iter().filter_map(move |&d| self.step(c, d))
    }

    /// If `to` lies on a straight line from `from`, the direction and the number of steps.
    pub fn line_between(self, from: Cell, to: Cell) -> Option<(Direction, u16)> {
        let dc = self.col(to) as i32 - self.col(from) as i32;
        let dr = self.row(to) as i32 - self.row(from) as i32;
        if dc == 0 && dr == 0 {
            return None;
        }
        self.directions().iter().find_map(|&d| {
            let (sc, sr) = (d.dcol as i32, d.drow as i32);
            // Steps k with k*sc == dc and k*sr == dr, k > 0.
            let k = if sc != 0 { dc / sc } else { dr / sr };
            (k > 0 && k * sc == dc && k * sr == dr).then_some((d, k as u16))
        })
    }

    /// The label of a cell: its column letter and row number, as in `e5`.
    pub fn label(self, c: Cell) -> CellLabel {
        CellLabel { col: self.col(c) as u8, row: self.row(c) + 1 }
    }

    /// The cell a label names, if it is on this board.
    pub fn parse_label(self, label: CellLabel) -> Option<Cell> {
        if label.row == 0 {
            return None;
        }
        self.cell_at(label.col as i32, label.row as i32 - 1)
    }

    /// The largest number of cells a stone can travel in one straight move.
    pub fn longest_line(self) -> u16 {
        match self {
            Geometry::Square { size } => size as u16 - 1,
            Geometry::Hex { side } => 2 * (side as u16 - 1),
        }
    }

    /// The columns that hold cells in this row (every column on a square board).
    pub fn row_cells(self, row: u16) -> impl Iterator<Item = Cell> {
        let w = self.width();
        (0..w).filter_map(move |col| self.cell_at(col as i32, row as i32))
    }
}

/// The rays of a board, measured once: how many cells lie from each cell to the edge in each of
/// the board's [`Geometry::directions`], and the step in grid index that each direction makes, so
/// that walking a ray is adding to an index; and which grid slots are cells. A replay walks rays
/// and reads cell labels millions of times, and [`Geometry::ray`] and [`Geometry::cell_at`] find
/// the column and row, check the bounds and, on a hex board, the row's span each time. Built once
/// per geometry by [`Geometry::steps`].
pub struct Steps {
    /// The grid index a step in each direction adds (a hex board's grid is `width` slots a row).
    offset: [i32; 6],
    /// Per grid slot, the cells from it to the edge in each direction (0 for a slot that is no cell).
    len: Box<[[u16; 6]]>,
    /// Per grid slot, whether it is a cell of the board.
    cell: Box<[bool]>,
    /// The grid's columns and rows ([`Geometry::width`], [`Geometry::height`]).
    width: u16,
    height: u16,
}

impl Steps {
    /// Whether `c` is a cell of the board, as [`Geometry::contains`] says.
    #[inline]
    pub fn contains(&self, c: Cell) -> bool {
        self.cell.get(c.0 as usize).copied().unwrap_or(false)
    }

    /// The cell a label names, if it is on the board, as [`Geometry::parse_label`] finds it.
    #[inline]
    pub fn parse_label(&self, label: CellLabel) -> Option<Cell> {
        let (col, row) = (u16::from(label.col), label.row.wrapping_sub(1));
        if col >= self.width || row >= self.height {
            return None;
        }
        Some(Cell(row * self.width + col)).filter(|&c| self.contains(c))
    }

    /// The cells from `c` to the edge of the board in direction `d` (an index into
    /// [`Geometry::directions`]), `c` left out: as many as [`Geometry::ray`] gives. 0 for a slot
    /// that is no cell, or a direction the board does not have.
    #[inline]
    pub fn ray_len(&self, c: Cell, d: usize) -> u16 {
        self.len.get(c.0 as usize).and_then(|l| l.get(d)).copied().unwrap_or(0)
    }

    /// The cell `k` steps from cell `c` in direction `d`: the `k`-th cell of [`Geometry::ray`] for
    /// `k` from 1 to [`Steps::ray_len`] (0 is `c` itself). Past the ray, some other grid index.
    #[inline]
    pub fn at(&self, c: Cell, d: usize, k: u16) -> Cell {
        let offset = self.offset.get(d).copied().unwrap_or(0);
        Cell((i32::from(c.0) + i32::from(k) * offset) as u16)
    }

    /// The neighbour of cell `c` in direction `d`, as [`Geometry::step`] gives it; `None` past the
    /// edge, or for a slot that is no cell.
    #[inline]
    pub fn next(&self, c: Cell, d: usize) -> Option<Cell> {
        (self.ray_len(c, d) > 0).then(|| self.at(c, d, 1))
    }
}

impl Geometry {
    /// The rays of this geometry, measured the first time they are asked for and kept for the life
    /// of the process (a few kilobytes for the largest board). Inlined: engines ask for it at every
    /// move, and the measuring is out of line.
    #[inline]
    pub fn steps(self) -> &'static Steps {
        static SQUARE: [std::sync::OnceLock<Steps>; 256] = [const { std::sync::OnceLock::new() }; 256];
        static HEX: [std::sync::OnceLock<Steps>; 256] = [const { std::sync::OnceLock::new() }; 256];
        let table = match self {
            Geometry::Square { size } => &SQUARE[size as usize],
            Geometry::Hex { side } => &HEX[side as usize],
        };
        table.get_or_init(|| self.measure_steps())
    }

    /// The rays of this geometry, measured.
    #[cold]
    fn measure_steps(self) -> Steps {
        let mut offset = [0; 6];
        for (o, d) in offset.iter_mut().zip(self.directions()) {
            *o = i32::from(d.drow) * i32::from(self.width()) + i32::from(d.dcol);
        }
        let mut len = vec![[0; 6]; self.slots()].into_boxed_slice();
        let mut cell = vec![false; self.slots()].into_boxed_slice();
        for c in self.cells() {
            cell[c.0 as usize] = true;
            for (d, &dir) in self.directions().iter().enumerate() {
                len[c.0 as usize][d] = self.ray(c, dir).count() as u16;
            }
        }
        Steps { offset, len, cell, width: self.width(), height: self.height() }
    }

    /// If `to` lies on a straight line from `from`, the index of the direction in
    /// [`Geometry::directions`] and the number of steps: [`Geometry::line_between`] by arithmetic,
    /// for replays that check every move, without trying each direction in turn.
    pub fn line_index(self, from: Cell, to: Cell) -> Option<(usize, u16)> {
        let dc = self.col(to) as i32 - self.col(from) as i32;
        let dr = self.row(to) as i32 - self.row(from) as i32;
        // The directions' order is that of `ROOK` and `HEX`.
        let (d, k) = match (self, dc.signum(), dr.signum()) {
            (_, 0, 0) => return None,
            (Geometry::Square { .. }, 0, -1) => (0, -dr),
            (Geometry::Square { .. }, 1, 0) => (1, dc),
            (Geometry::Square { .. }, 0, 1) => (2, dr),
            (Geometry::Square { .. }, -1, 0) => (3, -dc),
            (Geometry::Square { .. }, _, _) => return None,
            (Geometry::Hex { .. }, _, 0) if dc % 2 != 0 => return None,
            (Geometry::Hex { .. }, 1, 0) => (0, dc / 2),
            (Geometry::Hex { .. }, -1, 0) => (3, -dc / 2),
            (Geometry::Hex { .. }, _, _) if dc.abs() != dr.abs() => return None,
            (Geometry::Hex { .. }, 1, 1) => (1, dr),
            (Geometry::Hex { .. }, -1, 1) => (2, dr),
            (Geometry::Hex { .. }, -1, -1) => (4, -dr),
            (Geometry::Hex { .. }, _, _) => (5, -dr),
        };
        Some((d, k as u16))
    }
}

/// A cell's name as written: a column letter and a row number from 1.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct CellLabel {
    /// 0 for `a`.
    pub col: u8,
    /// 1-based.
    pub row: u16,
}

impl CellLabel {
    /// Reads `e5`-style labels: one lowercase letter and a number from 1 to 99.
    pub fn parse(s: &str) -> Option<CellLabel> {
        CellLabel::read(s.as_bytes()).filter(|(_, rest)| rest.is_empty()).map(|(label, _)| label)
    }

    /// The label at the start of `bytes` and the bytes after it, if one is there with no digit
    /// after it: a lowercase letter and a row of one or two digits, the first not 0. Every
    /// notation's reader takes its labels with it (the moves of every record pass here).
    #[inline]
    pub fn read(bytes: &[u8]) -> Option<(CellLabel, &[u8])> {
        let (col, row, rest) = match *bytes {
            [col @ b'a'..=b'z', d @ b'1'..=b'9', u @ b'0'..=b'9', ref rest @ ..] => {
                (col, u16::from(d - b'0') * 10 + u16::from(u - b'0'), rest)
            }
            [col @ b'a'..=b'z', d @ b'1'..=b'9', ref rest @ ..] => (col, u16::from(d - b'0'), rest),
            _ => return None,
        };
        match rest.first() {
            Some(b'0'..=b'9') => None,
            _ => Some((CellLabel { col: col - b'a', row }, rest)),
        }
    }
}

impl fmt::Display for CellLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut result = Ok(());
        self.each_char(|c| result = result.and_then(|()| f.write_char(c)));
        result
    }
}

impl CellLabel {
    /// Gives the label's characters (`d`, `1`, `0` for `d10`) one by one: [`CellLabel::push_to`]
    /// and the label's `Display` both write them.
    fn each_char(self, mut put: impl FnMut(char)) {
        // The column's letter: past `z` (no board has so many columns) the character of that byte,
        // as the label was always written.
        put(char::from(b'a'.wrapping_add(self.col)));
        let row = u32::from(self.row);
        let mut unit = 1;
        while unit * 10 <= row {
            unit *= 10;
        }
        while unit > 0 {
            put(char::from(b'0' + (row / unit % 10) as u8));
            unit /= 10;
        }
    }

    /// Writes the label (`d4`) at the end of `out`, with no `String` of its own: for the thousands
    /// of moves of a large board written one after the other.
    pub fn push_to(self, out: &mut String) {
        // Every label of a board (a letter to `z`, a row below 100) is two or three ASCII bytes:
        // written at once. An illegal move's alternatives write every legal move of its position.
        if self.col < 26 && self.row < 100 {
            let (tens, units) = ((self.row / 10) as u8, (self.row % 10) as u8);
            out.push(char::from(b'a' + self.col));
            if tens > 0 {
                out.push(char::from(b'0' + tens));
            }
            out.push(char::from(b'0' + units));
            return;
        }
        self.each_char(|c| out.push(c));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(g: Geometry, s: &str) -> Cell {
        g.parse_label(CellLabel::parse(s).unwrap()).unwrap()
    }

    #[test]
    fn labels_are_written_alike_into_a_buffer_and_by_display() {
        let every = (0..=27u8).flat_map(|col| (0..=101u16).map(move |row| (col, row)));
        for (col, row) in [(0, 1), (25, 26), (3, 10), (2, 65535), (200, 7)].into_iter().chain(every) {
            let label = CellLabel { col, row };
            let mut out = String::from("x");
            label.push_to(&mut out);
            assert_eq!(out, format!("x{}{row}", char::from(b'a'.wrapping_add(col))));
            assert_eq!(label.to_string(), out[1..]);
        }
    }

    #[test]
    fn hex_side_4_rows_follow_the_published_layout() {
        let g = Geometry::Hex { side: 4 };
        let row = |r: u16| g.row_cells(r - 1).map(|c| g.label(c).to_string()).collect::<Vec<_>>().join(" ");
        assert_eq!(row(1), "d1 f1 h1 j1");
        assert_eq!(row(4), "a4 c4 e4 g4 i4 k4 m4");
        assert_eq!(row(7), "d7 f7 h7 j7");
        assert_eq!(g.cell_count(), 37);
        assert_eq!(Geometry::Hex { side: 5 }.cell_count(), 61);
        for g in (2..=MAX_SQUARE)
            .map(|size| Geometry::Square { size })
            .chain((2..=MAX_HEX_SIDE).map(|side| Geometry::Hex { side }))
        {
            assert_eq!(g.cell_count(), g.cells().count(), "{g:?}");
        }
    }

    #[test]
    fn hex_neighbours_differ_by_two_letters_or_one_letter_and_one_row() {
        let g = Geometry::Hex { side: 4 };
        let mut n: Vec<_> = g.neighbours(cell(g, "g4")).map(|c| g.label(c).to_string()).collect();
        n.sort();
        assert_eq!(n, ["e4", "f3", "f5", "h3", "h5", "i4"]);
        assert_eq!(g.neighbours(cell(g, "d1")).count(), 3);
    }

    #[test]
    fn lines_are_measured_in_steps() {
        let g = Geometry::Hex { side: 4 };
        assert_eq!(g.line_between(cell(g, "c4"), cell(g, "f1")).map(|l| l.1), Some(3));
        assert_eq!(g.line_between(cell(g, "a4"), cell(g, "m4")).map(|l| l.1), Some(6));
        assert_eq!(g.line_between(cell(g, "g2"), cell(g, "g6")), None);
        let s = Geometry::Square { size: 9 };
        assert_eq!(s.line_between(cell(s, "a7"), cell(s, "a8")).map(|l| l.1), Some(1));
        assert_eq!(s.line_between(cell(s, "a1"), cell(s, "b2")), None);
    }

    /// Every board that may be played: square sizes and hex sides up to the largest accepted.
    fn every_board() -> impl Iterator<Item = Geometry> {
        let square = (1..=MAX_SQUARE).map(|size| Geometry::Square { size });
        square.chain((1..=MAX_HEX_SIDE).map(|side| Geometry::Hex { side }))
    }

    #[test]
    fn the_step_table_walks_the_rays_of_ray_and_step() {
        for g in every_board() {
            let steps = g.steps();
            for c in g.cells() {
                for (d, &dir) in g.directions().iter().enumerate() {
                    let ray: Vec<Cell> = g.ray(c, dir).collect();
                    assert_eq!(steps.ray_len(c, d) as usize, ray.len(), "{g:?} {c:?} {dir:?}");
                    for (k, &cell) in ray.iter().enumerate() {
                        assert_eq!(steps.at(c, d, k as u16 + 1), cell, "{g:?} {c:?} {dir:?} {k}");
                    }
                    assert_eq!(steps.next(c, d), g.step(c, dir), "{g:?} {c:?} {dir:?}");
                }
            }
            // Past the grid, and past the directions, there are no rays.
            assert_eq!(steps.ray_len(Cell(g.slots() as u16), 0), 0);
            assert_eq!(steps.next(Cell(0), 6), None);
        }
    }

    #[test]
    fn the_step_table_knows_the_cells_and_their_labels() {
        for g in every_board() {
            let steps = g.steps();
            for slot in 0..g.slots() as u16 + 30 {
                assert_eq!(steps.contains(Cell(slot)), g.contains(Cell(slot)), "{g:?} {slot}");
            }
            for col in 0..=27 {
                for row in (0..=28).chain([99, u16::MAX]) {
                    let label = CellLabel { col, row };
                    assert_eq!(steps.parse_label(label), g.parse_label(label), "{g:?} {label:?}");
                }
            }
        }
    }

    #[test]
    fn line_index_agrees_with_line_between() {
        for g in every_board() {
            let dirs = g.directions();
            for from in g.cells() {
                for to in g.cells() {
                    let by_search = g.line_between(from, to);
                    assert_eq!(g.line_index(from, to).map(|(d, k)| (dirs[d], k)), by_search, "{g:?} {from:?} {to:?}");
                }
            }
        }
    }

    #[test]
    fn labels_outside_the_board_are_refused() {
        let g = Geometry::Hex { side: 4 };
        assert_eq!(g.parse_label(CellLabel::parse("a1").unwrap()), None);
        assert_eq!(g.parse_label(CellLabel::parse("e5").unwrap()), None);
        let s = Geometry::Square { size: 9 };
        assert_eq!(s.parse_label(CellLabel::parse("j5").unwrap()), None);
        assert_eq!(s.parse_label(CellLabel::parse("a10").unwrap()), None);
        assert_eq!(CellLabel::parse("a0"), None);
        assert_eq!(CellLabel::parse("A1"), None);
    }

    /// The lines through a cell are its rows of neighbours: each line and its opposite are two
    /// directions around the cell, the lines of a board are as many as half its directions around
    /// a cell, and a line's cells through d4 on 7x7 are the ones a player counts (row 1 is the top row:
    /// down is toward higher rows).
    #[test]
    fn lines_run_both_ways_through_every_direction_around_a_cell() {
        for g in [Geometry::Square { size: 7 }, Geometry::Hex { side: 4 }] {
            let around = g.all_directions();
            assert_eq!(g.lines().len() * 2, around.len(), "{g:?}");
            for d in g.lines() {
                assert!(around.contains(d) && around.contains(&d.opposite()), "{g:?} {d:?}");
                assert_eq!(d.opposite().opposite(), *d);
            }
            for (i, d) in around.iter().enumerate() {
                assert_eq!(around.iter().filter(|&&e| e == *d).count(), 1, "{g:?}: {i} once");
            }
        }
        for (i, d) in AROUND.iter().enumerate() {
            assert_eq!(AROUND[(i + 4) % 8], d.opposite());
        }
        let g = Geometry::Square { size: 7 };
        let d4 = cell(g, "d4");
        let through = |d: Direction| {
            let mut cells: Vec<String> = g.ray(d4, d.opposite()).map(|c| g.label(c).to_string()).collect();
            cells.reverse();
            cells.push("d4".into());
            cells.extend(g.ray(d4, d).map(|c| g.label(c).to_string()));
            cells.join(" ")
        };
        let lines: Vec<String> = g.lines().iter().map(|&d| through(d)).collect();
        assert_eq!(
            lines,
            ["a4 b4 c4 d4 e4 f4 g4", "d1 d2 d3 d4 d5 d6 d7", "a1 b2 c3 d4 e5 f6 g7", "a7 b6 c5 d4 e3 f2 g1"]
        );
    }
}
