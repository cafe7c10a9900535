//! How a position looks, in terms that know no rule: the board's shape, what stands on each cell,
//! and signs for moves. The engines describe their positions and moves in these terms; every
//! renderer draws them (`crate::render`), and none knows which game it draws.

use crate::geometry::{Cell, Geometry};

/// What a renderer needs of a position: the board shape, what stands on each cell, the players.
pub trait BoardView {
    /// The board's shape and size.
    fn geometry(&self) -> Geometry;
    /// What a text diagram shows on this cell. Every glyph of one game has the same width (Quarod
    /// needs two characters: colour and rod), and none contains white space.
    fn glyph(&self, cell: Cell) -> &'static str;
    /// What a picture draws on this cell; `None` for an empty cell.
    fn figure(&self, cell: Cell) -> Option<Figure>;
    /// The colours in turn order from the start, as records name them (`[Black "..."]`, `X`).
    fn player_names(&self) -> &'static [&'static str];
}

/// The edge of the picture a rod points to. Up is towards row 1, the top of every diagram.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Heading {
    /// Towards row 1.
    Up,
    /// Towards the last column.
    Right,
    /// Away from row 1.
    Down,
    /// Towards column `a`.
    Left,
}

/// The kinds of Splinter Quad's pieces, each drawn with its own shape.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Rank {
    /// The king.
    King,
    /// The rook.
    Rook,
    /// The bishop.
    Bishop,
    /// The pawn.
    Pawn,
}

/// What stands on a cell. `owner` is the player's place in turn order from the start of the game,
/// an index into [`BoardView::player_names`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Figure {
    /// A stone: Quadraphages, Hexaphages and Vadrantir.
    Stone {
        /// Whose stone, by place in turn order.
        owner: u8,
    },
    /// A cell a phages stone has left, in the colour of the stone that marked it.
    Mark {
        /// Whose stone marked it, by place in turn order.
        owner: u8,
    },
    /// A Petrify disk.
    Disk {
        /// Whose disk, by place in turn order.
        owner: u8,
    },
    /// A Petrify block: nobody's.
    Block,
    /// A Quarod piece and the edge its rod points to.
    Rod {
        /// Whose piece (by its colour), by place in turn order.
        owner: u8,
        /// Where its rod points.
        heading: Heading,
    },
    /// A Splinter Quad piece.
    Piece {
        /// Whose piece, by place in turn order.
        owner: u8,
        /// Which piece.
        rank: Rank,
    },
}

impl Figure {
    /// The player it belongs to, if anyone's.
    pub fn owner(self) -> Option<u8> {
        match self {
            Figure::Stone { owner }
            | Figure::Mark { owner }
            | Figure::Disk { owner }
            | Figure::Rod { owner, .. }
            | Figure::Piece { owner, .. } => Some(owner),
            Figure::Block => None,
        }
    }
}

/// A move as a picture shows it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Sign {
    /// A piece goes from one cell to another (a step, a slide, a capture, a swap of two pieces).
    Arrow {
        /// Where the piece starts.
        from: Cell,
        /// Where it ends.
        to: Cell,
    },
    /// Something is placed on this cell, or the cell is named by the move.
    Ring(Cell),
    /// A phages stone stays on this cell (`----`).
    Stay(Cell),
    /// A number announced (Quadraphages, Hexaphages).
    Number(u8),
    /// A pass: nothing on the board changes.
    Pass,
    /// The players exchange colours (the pie rule).
    Swap,
}
