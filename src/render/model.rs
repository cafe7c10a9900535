//! What a picture of a position shows, in terms that know no rule: a board's shape, what stands on
//! each cell, and signs for moves. The engines describe their positions and moves in these terms
//! ([`BoardView::figure`], [`Game::signs`](crate::game::Game::signs)); every renderer draws
//! them, and none knows which game it draws.

use crate::game::{BoardView, GameKind};
use crate::geometry::{Cell, Geometry};

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
/// an index into [`Board::players`].
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
}

impl Board {
    /// The board of a position.
    pub fn of(view: &impl BoardView) -> Board {
        let geometry = view.geometry();
        let figures = geometry.cells().filter_map(|c| view.figure(c).map(|f| (c, f))).collect();
        Board { geometry, figures, players: view.player_names().to_vec() }
    }
}

/// One picture: a board, the signs drawn over it, and the caption under it.
#[derive(Clone, PartialEq, Debug)]
pub struct Scene {
    /// The game, named in the caption.
    pub game: GameKind,
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
    /// Why the move drawn with [`Tone::Illegal`] is illegal, for an error diagram.
    pub illegal: Option<String>,
}

impl Scene {
    /// The caption's text: game, ply, side to move and score, then the reason of an illegal move
    /// on a line of its own.
    pub fn caption(&self) -> Vec<String> {
        let mut first = format!("{} · ply {}", self.game.title(), self.ply);
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
        }
        let mut lines = vec![first];
        lines.extend(self.illegal.iter().map(|why| format!("Illegal: {why}")));
        lines
    }
}
