//! A board of stones of two colours, Black and White, as the placement games of go's family have
//! it (In a Row, Reversi): what stands on each cell, how it looks, how a position code and a setup
//! diagram write it, and how a search keys it. A game whose position is such a board and the
//! colour to move says so ([`OnStones`]) and writes only its rules: its view, its position code
//! and its search key follow.

use std::hash::Hash;

use super::code::{read_board, write_board, BoardShape, CodeError, Coded, Field, Fields};
use super::key::{allocation, board_hash, PlainData};
use super::{About, BoardView, Colour, Figure, Game, SetupError, Shape};
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

/// A position that is a board of [`Stones`] and the colour to move, and whatever follows from them:
/// its [`BoardView`], its position code (`NAME_BOARD_MOVER`, [`Coded`]) and its search key
/// ([`PlainData`]) are implemented here for every such position.
pub trait OnStones: Sized {
    /// What the game is: its name starts the position's code, its sizes bound the code's board.
    const ABOUT: &'static About;
    /// The shape of its boards.
    const SHAPE: BoardShape = BoardShape::Square;
    /// The game's word for a stone (`stone`, `disc`): a picture's class names the figure by it.
    const STONE: &'static str = "stone";
    /// Whether the score counts the board as it stands ([`BoardView::counted_at_end`]).
    const COUNTED_AT_END: bool = false;
    /// The board.
    fn stones(&self) -> &Stones;
    /// The colour to move.
    fn mover(&self) -> Colour;
    /// The position of `stones` with `mover` to move, as a position code gives it; `Err` says, in
    /// the game's words, why there is no such position.
    fn with_stones(stones: Stones, mover: Colour) -> Result<Self, String>;
}

impl<T: OnStones> BoardView for T {
    fn geometry(&self) -> Geometry {
        self.stones().geometry()
    }

    fn glyph(&self, cell: Cell) -> &'static str {
        self.stones().glyph(cell)
    }

    fn figure(&self, cell: Cell) -> Option<Figure> {
        self.stones().figure(cell, T::STONE)
    }

    fn player_names(&self) -> &'static [&'static str] {
        &Colour::NAMES
    }

    fn counted_at_end(&self) -> bool {
        T::COUNTED_AT_END
    }
}

/// The search stores the position itself, keyed by its board and the colour to move.
impl<T: OnStones + Game + Hash + Eq> PlainData for T {
    fn heap_bytes(&self) -> usize {
        self.stones().heap_bytes()
    }

    fn plain_hash(&self) -> u64 {
        self.stones().hash_with(self.mover())
    }
}

/// `NAME_BOARD_MOVER`: the game's name, its board field ([`Stones::code`]), `b` or `w` to move.
impl<T: OnStones> Coded for T {
    fn code(&self) -> String {
        format!("{}_{}_{}", T::ABOUT.name, self.stones().code(), self.mover().word())
    }

    fn from_code(code: &str) -> Result<T, CodeError> {
        let (_, mut fields) = Fields::of(code, &[T::ABOUT.name])?;
        let board = fields.next("board")?;
        let stones = Stones::from_code(board, T::SHAPE)?;
        let hex = T::SHAPE == BoardShape::Hex;
        T::ABOUT.check_size(stones.geometry().size(), hex).map_err(|e| board.error(0, e.to_string()))?;
        let mover = fields.next("colour to move")?.colour("the colour to move")?;
        fields.end()?;
        T::with_stones(stones, mover).map_err(|why| board.error(0, why))
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

    /// A position of stones and a mover: its view, its code read back, and codes refused where
    /// they are wrong (a board of the wrong size, a mover that is no colour, a position the game
    /// forbids).
    #[test]
    fn a_position_on_stones_is_viewed_and_coded_from_its_board() {
        #[derive(Debug, PartialEq)]
        struct Board(Stones, Colour);
        impl OnStones for Board {
            const ABOUT: &'static About = &GAME;
            const STONE: &'static str = "disc";
            fn stones(&self) -> &Stones {
                &self.0
            }
            fn mover(&self) -> Colour {
                self.1
            }
            fn with_stones(stones: Stones, mover: Colour) -> Result<Board, String> {
                match stones.count(Some(Colour::White)) {
                    0..=2 => Ok(Board(stones, mover)),
                    n => Err(format!("{n} white stones")),
                }
            }
        }
        let mut stones = Stones::empty(Geometry::Square { size: 4 });
        stones.set(Cell(5), Some(Colour::White));
        let board = Board(stones, Colour::Black);
        assert_eq!((board.glyph(Cell(5)), board.player_names()), ("W", &Colour::NAMES[..]));
        assert_eq!(board.figure(Cell(5)).map(|f| f.name), Some("disc"));
        assert_eq!(board.code(), "game_4/1W2/4/4_b");
        assert_eq!(Board::from_code(&board.code()), Ok(board));
        let refused = |code: &str| Board::from_code(code).map(|_| ()).unwrap_err().to_string();
        assert!(refused("game_3/3/3_b").contains("Game is played on square boards from 4x4 to 8x8 with an even side"));
        assert!(refused("game_4/4/4/4_x").contains("expected the colour to move: `b` or `w`, not `x`"));
        assert!(refused("game_WWW1/4/4/4_w").contains("3 white stones"));
    }
}
