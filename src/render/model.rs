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
    /// The move numbers of a numbered diagram (`--numbers`); none in any other picture.
    pub numbers: Option<Numbers>,
}

/// What a numbered diagram writes over the board: on each cell the number of the move played
/// there, the paths of pieces that moved, and the moves no cell shows any more, as go kifu give
/// them ("17 at 5").
///
/// Numbers are the record's own (the published notation's move lines, the common format's
/// rounds), so one number stands for a move of each side, or for every move of a line: the side is
/// told by the figure the number is written on, as a kifu tells it by the stone's colour.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Numbers {
    /// The first and last move numbers drawn.
    pub first: u32,
    /// See [`Numbers::first`].
    pub last: u32,
    /// Each cell that shows a number, in cell order, with the number of the last move played there:
    /// the mark a stone left, a piece placed, the piece at the end of its trail.
    pub cells: Vec<(Cell, u32)>,
    /// The paths of pieces that moved off the cells they stood on (Splinter Quad's).
    pub trails: Vec<Trail>,
    /// The moves whose number no cell shows any more, in the order they were played: each number
    /// with the cell it was played at, where a later move played or what stands there changed.
    pub hidden: Vec<(u32, Cell)>,
}

/// The path of a piece that moved, cell by cell: where it stood when the numbering began (or when
/// it first moved), then each cell a move took it to, with that move's number.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Trail {
    /// Whose piece it is, as [`Figure::owner`].
    pub owner: Option<u8>,
    /// The cells it stood on in turn, each with the number of the move that took it there (the
    /// first: the number written on it there, if any).
    pub steps: Vec<(Cell, Option<u32>)>,
    /// Whether the piece still stands at the trail's last cell, where the board's number is
    /// written on it; else (taken off, splintered away) the trail ends there.
    pub standing: bool,
}

impl Numbers {
    /// The number a cell shows, if it shows one.
    pub fn at(&self, cell: Cell) -> Option<u32> {
        self.cells.binary_search_by_key(&cell, |&(c, _)| c).ok().map(|k| self.cells[k].1)
    }

    /// The notes under the diagram for the moves no cell shows: `17 at 5` where the cell shows
    /// another number, `17 at e5` where it shows none (or the same), each once, in move order.
    pub fn notes(&self, geometry: Geometry) -> Vec<String> {
        let mut notes: Vec<String> = Vec::new();
        for &(n, cell) in &self.hidden {
            let note = match self.at(cell) {
                Some(m) if m != n => format!("{n} at {m}"),
                _ => format!("{n} at {}", geometry.label(cell)),
            };
            if !notes.contains(&note) {
                notes.push(note);
            }
        }
        notes
    }

    /// The numbers drawn, as a caption says it: `moves 3 to 7 numbered`.
    pub fn range(&self) -> String {
        if self.first == self.last {
            format!("move {} numbered", self.first)
        } else {
            format!("moves {} to {} numbered", self.first, self.last)
        }
    }
}

impl Scene {
    /// The caption's text: game, ply, side to move and score, then the reason of an illegal move
    /// on a line of its own.
    pub fn caption(&self) -> Vec<String> {
        let mut first = format!("{} · ply {}", self.game.title, self.ply);
        if let Some(numbers) = &self.numbers {
            first.push_str(&format!(" · {}", numbers.range()));
        }
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
