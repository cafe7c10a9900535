//! A board of stones of two colours, Black and White, as the placement games of go's family have
//! it (In a Row, Reversi): what stands on each cell, how it looks, how a position code and a setup
//! diagram write it, and how a search keys it. A game of such stones keeps its board in one and
//! writes only its rules.

use std::hash::Hash;

use super::code::{read_board, write_board, BoardShape, CodeError, Field};
use super::key::{allocation, board_hash};
use super::{About, Colour, Figure, SetupError, Shape};
use crate::geometry::{Cell, Geometry};

/// The glyph of an empty cell; a stone's is its colour's letter, `B` or `W`.
pub const EMPTY: &str = ".";

/// The stones on a board: at most one on a cell.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Stones {
    geometry: Geometry,
    /// One entry a slot of the geometry (a hex board's slots off the board stay empty).
    cells: Box<[Option<Colour>]>,
}

impl Stones {
    /// The empty board of `geometry`.
    pub fn empty(geometry: Geometry) -> Stones {
        Stones { geometry, cells: vec![None; geometry.slots()].into_boxed_slice() }
    }

    /// The board's shape and size.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The stone on `cell`; `None` if it is empty or off the board.
    pub fn at(&self, cell: Cell) -> Option<Colour> {
        self.cells.get(usize::from(cell.0)).copied().flatten()
    }

    /// Puts `stone` on `cell` (`None` empties it); a cell off the board is left alone.
    pub fn set(&mut self, cell: Cell, stone: Option<Colour>) {
        if let Some(c) = self.cells.get_mut(usize::from(cell.0)) {
            *c = stone;
        }
    }

    /// The cells of the board that hold `stone` (`None`: the empty ones), in reading order.
    pub fn cells_with(&self, stone: Option<Colour>) -> impl Iterator<Item = Cell> + '_ {
        self.geometry.cells().filter(move |&c| self.at(c) == stone)
    }

    /// How many cells hold `stone` (`None`: how many are empty).
    pub fn count(&self, stone: Option<Colour>) -> usize {
        self.cells_with(stone).count()
    }

    /// What a text diagram shows on `cell`: `B`, `W` or `.`, for [`crate::game::BoardView::glyph`].
    pub fn glyph(&self, cell: Cell) -> &'static str {
        self.at(cell).map_or(EMPTY, Colour::glyph)
    }

    /// What a picture draws on `cell`: a disc of its colour that the game calls `name` (`stone`,
    /// `disc`), for [`crate::game::BoardView::figure`].
    pub fn figure(&self, cell: Cell, name: &'static str) -> Option<Figure> {
        self.at(cell).map(|c| Figure { owner: Some(c.index() as u8), shape: Shape::Disc, name })
    }

    /// The board field of a position code: rows from the top separated by `/`, `B` and `W` for
    /// stones and a number for a run of empty cells.
    pub fn code(&self) -> String {
        write_board(self.geometry, |c| self.at(c).map(Colour::glyph))
    }

    /// The board a code's board field writes, as [`Stones::code`] writes it.
    pub fn from_code(field: Field, shape: BoardShape) -> Result<Stones, CodeError> {
        let (geometry, read) = read_board(field, shape, 1, Colour::from_glyph, "B or W")?;
        let mut stones = Stones::empty(geometry);
        for (c, (stone, _)) in geometry.cells().zip(read) {
            stones.set(c, stone);
        }
        Ok(stones)
    }

    /// The board a setup diagram draws for a game of `about` on `geometry`: one glyph a cell in
    /// reading order, `B`, `W` or `.`.
    pub fn from_setup(about: &About, geometry: Geometry, glyphs: &[&str]) -> Result<Stones, SetupError> {
        let read = |g: &str| if g == EMPTY { Some(None) } else { Colour::from_glyph(g).map(Some) };
        let mut stones = Stones::empty(geometry);
        for (c, stone) in about.read_setup(geometry, glyphs, "B, W or .", read)? {
            stones.set(c, stone);
        }
        Ok(stones)
    }

    /// A search key's hash of this board and `rest` (whose turn it is, and the like), for
    /// [`crate::game::PlainData::plain_hash`].
    pub fn hash_with(&self, rest: impl Hash) -> u64 {
        board_hash(&self.cells, |c| c.map_or(0, |c| c.index() as u8 + 1), rest)
    }

    /// The bytes the board holds on the heap, for [`crate::game::PlainData::heap_bytes`].
    pub fn heap_bytes(&self) -> usize {
        allocation(self.cells.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::setup::tests::GAME;

    /// Stones placed, counted, drawn and read back from their code and from a setup diagram, on a
    /// square and a hex board; a glyph that is no stone is refused where it stands.
    #[test]
    fn a_board_of_stones_writes_and_reads_itself() {
        for geometry in [Geometry::Square { size: 3 }, Geometry::Hex { side: 2 }] {
            let mut stones = Stones::empty(geometry);
            let cells: Vec<Cell> = geometry.cells().collect();
            stones.set(cells[0], Some(Colour::Black));
            stones.set(cells[4], Some(Colour::White));
            stones.set(cells[5], Some(Colour::Black));
            stones.set(Cell(999), Some(Colour::Black));
            assert_eq!((stones.count(Some(Colour::Black)), stones.count(None)), (2, cells.len() - 3));
            assert_eq!((stones.glyph(cells[4]), stones.glyph(cells[1])), ("W", "."));
            assert_eq!(stones.figure(cells[4], "disc").map(|f| (f.owner, f.name)), Some((Some(1), "disc")));
            let code = stones.code();
            let shape = if matches!(geometry, Geometry::Hex { .. }) { BoardShape::Hex } else { BoardShape::Square };
            let read = Stones::from_code(Field { text: &code, at: 0 }, shape);
            assert_eq!(read.as_ref(), Ok(&stones), "{code}");
            let glyphs: Vec<&str> = cells.iter().map(|&c| stones.glyph(c)).collect();
            assert_eq!(Stones::from_setup(&GAME, geometry, &glyphs).as_ref(), Ok(&stones));
            assert_ne!(stones.hash_with(1), stones.hash_with(2));
        }
        let square = Geometry::Square { size: 2 };
        let refused = Stones::from_setup(&GAME, square, &["B", ".", "X", "."]).unwrap_err();
        assert_eq!(refused.to_string(), "a2: `X` is not a Game glyph: expected B, W or .");
        assert!(Stones::from_code(Field { text: "BX/2", at: 0 }, BoardShape::Square).is_err());
    }
}
