//! What a picture of a position shows, in terms that know no rule: a board's shape, what stands on
//! each cell, and signs for moves. The engines describe their positions and moves in these terms
//! ([`BoardView::figure`], [`Game::signs`](crate::game::Game::signs)); every renderer draws
//! them, and none knows which game it draws.

pub use crate::game::view::{Figure, Heading, Mark, Region, Shape, Sign};
use crate::game::{About, BoardView};
use crate::geometry::{Cell, Geometry};

/// Why a sign is drawn, which decides its colour and weight.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Tone {
    /// The move that led to this position.
    Last,
    /// The move the record writes here, which is illegal.
    Illegal,
    /// A legal move the record could have written instead.
    Alternative,
}

/// A board and what stands on it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Board {
    /// The board's shape.
    pub geometry: Geometry,
    /// Every occupied cell and what stands there, in cell order.
    pub figures: Vec<(Cell, Figure)>,
    /// The players' names in turn order from the start, as records name them (`X`, `Black`,
    /// `Red`): a style gives each a colour, by name where it knows the name.
    pub players: Vec<&'static str>,
    /// Figures can leave this board ([`BoardView::figures_leave`]): pictures keep room past its
    /// edge for them.
    pub figures_leave: bool,
}

impl Board {
    /// The board of a position.
    pub fn of(view: &impl BoardView) -> Board {
        let geometry = view.geometry();
        let figures = geometry.cells().filter_map(|c| view.figure(c).map(|f| (c, f))).collect();
        Board { geometry, figures, players: view.player_names().to_vec(), figures_leave: view.figures_leave() }
    }
}

pub use crate::record::notes::Colour;

/// What a writer's markup draws on a position (grammar.md, "Markup"), on cells of its board.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Drawn {
    /// An arrow from one cell to another.
    Arrow {
        /// Where it starts.
        from: Cell,
        /// Where it points.
        to: Cell,
        /// Its colour.
        colour: Colour,
    },
    /// A coloured cell.
    Mark {
        /// The cell.
        cell: Cell,
        /// Its colour.
        colour: Colour,
    },
    /// A short text on a cell.
    Label {
        /// The cell.
        cell: Cell,
        /// The text.
        text: String,
    },
}

/// One picture: a board, the signs drawn over it, and the caption under it.
#[derive(Clone, PartialEq, Debug)]
pub struct Scene {
    /// The game, named in the caption.
    pub game: &'static About,
    /// The board and what stands on it.
    pub board: Board,
    /// Moves drawn over the board, each with why it is drawn.
    pub signs: Vec<(Sign, Tone)>,
    /// How many moves were played to reach this position.
    pub ply: usize,
    /// Whose turn it is, an index into [`Board::players`]; `None` once the game is over.
    pub to_move: Option<usize>,
    /// The score where the game stands, in the game's words (`X 3 marks, O 2 marks`).
    pub score: String,
    /// The score is what the players would score if the game ended now: the game counts the board
    /// at its end ([`BoardView::counted_at_end`]) and has not ended.
    pub provisional: bool,
    /// What scored, drawn under the figures: at the end of a game, the regions its count found
    /// ([`BoardView::scoring`]); empty before.
    pub scoring: Vec<Region>,
    /// Why the move drawn with [`Tone::Illegal`] is illegal, for an error diagram.
    pub illegal: Option<String>,
    /// Whether the token the error diagram stops at writes no move of the game at all (a syntax
    /// error, `e3xxe2`), rather than a move that cannot be played there: its caption says "Not a
    /// move", not "Illegal".
    pub syntax: bool,
    /// The markup of the comments after the move that led here (or before the first move, at the
    /// start), drawn over the board.
    pub markup: Vec<Drawn>,
    /// The glyphs written after the move that led here (`!?`, `$14`), as the caption gives them.
    pub glyphs: String,
}

impl Scene {
    /// The caption's text: game, ply, side to move and score, then the reason of an illegal move
    /// on a line of its own.
    pub fn caption(&self) -> Vec<String> {
        let mut first = format!("{} · ply {}", self.game.title, self.ply);
        if !self.glyphs.is_empty() {
            first.push_str(&format!(" {}", self.glyphs));
        }
        match self.to_move {
            Some(p) => {
                if let Some(name) = self.board.players.get(p) {
                    first.push_str(&format!(" · {name} to move"));
                }
            }
            None => first.push_str(" · game over"),
        }
        if !self.score.is_empty() {
            first.push_str(&format!(" · {}", self.score));
            if self.provisional {
                first.push_str(" if the game ended now");
            }
        }
        let mut lines = vec![first];
        let stop = if self.syntax { "Not a move" } else { "Illegal" };
        lines.extend(self.illegal.iter().map(|why| format!("{stop}: {why}")));
        lines
    }
}
