//! How a position looks, in terms that know no rule: the board's shape, what stands on each cell,
//! and signs for moves. The engines describe their positions and moves in these terms; every
//! renderer draws them (`crate::render`), and none knows which game it draws.

use crate::geometry::{Cell, Geometry};

/// Writes a glyph ([`BoardView::glyph`]) at the end of `out`: most are one ASCII letter, pushed
/// as such rather than copied as a string (a board is written for every record's position code,
/// and for an illegal move's verdict).
pub(crate) fn push_glyph(out: &mut String, glyph: &str) {
    match glyph.as_bytes() {
        &[b] if b.is_ascii() => out.push(char::from(b)),
        _ => out.push_str(glyph),
    }
}

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
    /// What the score counts, as cells: each region that scores for a player, as the engine's own
    /// count finds it, for a picture of the end of the game to show what scored. Empty for a game
    /// whose score counts nothing on the board (the default).
    fn scoring(&self) -> Vec<Region> {
        Vec::new()
    }
    /// Whether the score counts the board as it stands, as the end of the game does: before the
    /// end it is what the players would score if the game ended now, and a caption says so. False
    /// for a score of what has happened (marks made, pieces lost), true at every move.
    fn counted_at_end(&self) -> bool {
        false
    }
    /// Whether a move can push figures off the board, which pictures draw leaving it, past its
    /// edge ([`Sign::Leaving`]): every picture of the game keeps room for them there, so that the
    /// pictures of one game are all the same size. False by default.
    fn figures_leave(&self) -> bool {
        false
    }
}

/// Cells that score together for one player (a territory, a patch, a group), and how a picture
/// marks them: the engine finds them with the code that counts the score, and the renderers draw
/// any region by its mark, whatever game it comes from.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Region {
    /// Whose it is, an index into [`BoardView::player_names`]: the player a territory or a patch
    /// scores for, the colour of a group.
    pub owner: u8,
    /// Its cells, in cell order.
    pub cells: Vec<Cell>,
    /// How a picture marks it.
    pub mark: Mark,
    /// The game's word for it, lower case (`territory`, `patch`, `group`): the SVG class.
    pub name: &'static str,
}

/// How a picture marks a [`Region`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Mark {
    /// Its cells shaded in the owner's colour, under the figures: an area that scores as a whole,
    /// empty cells included.
    Shade,
    /// A line in the owner's colour around its cells: figures that count, as one.
    Outline,
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

/// What stands on a cell: whose it is, the shape a picture draws, and the game's word for it.
///
/// The shape is all a renderer looks at, so a new game draws with the shapes already here and adds
/// no case to any renderer; only a shape no game has drawn before does. The name is not drawn: it
/// names the figure for the reader of a picture's source (the SVG class, which pages style by).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Figure {
    /// Whose figure, by place in turn order from the start of the game (an index into
    /// [`BoardView::player_names`]); `None` for a figure that belongs to nobody.
    pub owner: Option<u8>,
    /// What it looks like.
    pub shape: Shape,
    /// The game's word for it, lower case, words apart by spaces (`stone`, `piece king`): a
    /// picture's SVG class names the figure by it.
    pub name: &'static str,
}

/// The shape of a figure. The first shapes take their size from the picture's style, which sizes
/// the figures most games have; a game with figures of its own draws them as [`Shape::Polygon`]
/// and [`Shape::Circle`], whose measures it gives.
///
/// Measures a game gives are whole hundredths of the distance between neighbouring cell centres,
/// from the cell's centre with y growing downwards: integers rather than floats keep a figure
/// `Eq` and `Hash`, and two digits are finer than any picture shows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Shape {
    /// A disc that fills most of its cell (a stone, a disk), as large as the style makes stones.
    Disc,
    /// A small square at the centre (the mark a stone leaves), as large as the style makes marks.
    Square,
    /// A square with rounded corners that fills nearly all of its cell (a wall, a block).
    Block,
    /// A disc drawn out into a point towards an edge of the picture, and a rod along it.
    Rod(Heading),
    /// A polygon through these points, given in hundredths of a cell from its centre.
    Polygon(&'static [(i8, i8)]),
    /// A circle of this radius, in hundredths of a cell: smaller than a [`Shape::Disc`], for a
    /// figure told apart from others by size.
    Circle(u8),
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
    /// A figure leaves the board from the edge cell `from`, pushed one cell further in the
    /// direction `towards` (columns, rows), which is off the board: a picture draws it faint just
    /// past the edge.
    Leaving {
        /// The cell it stood on.
        from: Cell,
        /// The direction it is pushed in, in columns and rows of the board's grid.
        towards: (i8, i8),
        /// The figure, as it stood there.
        figure: Figure,
    },
}
