//! In a Row, defined outside the crate through referee's public traits: Black and White in turn
//! place a stone on an empty cell of a square board (5x5 unless a `[Size]` tag says otherwise, 4 to
//! 26); four in a row, in any line, wins; a full board without one is a draw. `web/own_game/` too.

use referee::game::stones::OnStones;
use referee::game::{About, BoardView, BreaksRule, Colour, Format, Game, Notation, Outcome, Playable};
use referee::game::{SetupError, Sign, Sizes, Stones};
use referee::geometry::{Cell, CellLabel, Geometry};

/// Stones in a row that win.
pub const K: usize = 4;

pub const ABOUT: About = About {
    name: "inrow",
    title: "In a Row",
    aliases: &["gomoku"],
    help: "In a Row: the common format, a square board of 4 to 26 (5 by default), four in a row wins",
    format: Format::Common,
    sizes: Sizes::from(4, 26),
    players: (2, 2),
};

/// A position: the plain data is the whole state, so it is its own search key.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct InRow {
    stones: Stones,
    to_move: Colour,
    /// Kept rather than found again from the board: a lenient replay may place stones after the
    /// end, and the first row made is the one that won.
    winner: Option<Colour>,
}

/// Why a move is illegal.
#[derive(Clone, Debug, thiserror::Error)]
pub enum Illegal {
    #[error("{0} is not on the board")]
    OffBoard(CellLabel),
    #[error("{0} already holds a {1} stone")]
    Occupied(CellLabel, Colour),
    #[error("the game is over: somebody has {K} in a row, or the board is full")]
    GameOver,
}

/// The rule each reason breaks, as the game's rules page (`docs/rules/inrow.md` of the repository
/// that holds the game) names its sections: `inrow-board`, `inrow-placement`, `inrow-end`.
impl BreaksRule for Illegal {
    const RULES: &'static [&'static str] = &["board", "placement", "end"];
    fn rule(&self) -> &'static str {
        match self {
            Illegal::OffBoard(_) => "board",
            Illegal::Occupied(..) => "placement",
            Illegal::GameOver => "end",
        }
    }
}

impl InRow {
    /// The position of `stones` with `to_move` to move; the winner is the colour with a row.
    fn of(stones: Stones, to_move: Colour) -> Result<InRow, String> {
        let mut p = InRow { stones, to_move, winner: None };
        match Colour::BOTH.map(|c| p.winning_row(c).is_some()) {
            [true, true] => return Err(format!("both colours have {K} in a row")),
            rows => p.winner = Colour::BOTH.into_iter().zip(rows).find(|&(_, row)| row).map(|(c, _)| c),
        }
        Ok(p)
    }

    /// The longest row of one colour through `cell`, in line order.
    fn row_through(&self, cell: Cell) -> Vec<Cell> {
        let (g, stone) = (self.geometry(), self.stones.at(cell));
        let same = |c: &Cell| stone.is_some() && self.stones.at(*c) == stone;
        let rows = g.lines().iter().map(|&d| {
            let back: Vec<Cell> = g.ray(cell, d.opposite()).take_while(same).collect();
            back.into_iter().rev().chain([cell]).chain(g.ray(cell, d).take_while(same)).collect::<Vec<_>>()
        });
        rows.max_by_key(Vec::len).filter(|_| stone.is_some()).unwrap_or_default()
    }

    /// A winning row of `colour` anywhere on the board (play looks only through the stone placed).
    fn winning_row(&self, colour: Colour) -> Option<Vec<Cell>> {
        self.stones.cells_with(Some(colour)).map(|c| self.row_through(c)).find(|r| r.len() >= K)
    }
}

/// The position is its stones and the colour to move: its view, code and search key follow.
impl OnStones for InRow {
    const ABOUT: &'static About = &ABOUT;
    fn stones(&self) -> &Stones {
        &self.stones
    }
    fn mover(&self) -> Colour {
        self.to_move
    }
    fn with_stones(stones: Stones, to_move: Colour) -> Result<InRow, String> {
        InRow::of(stones, to_move)
    }
}

impl Game for InRow {
    type Move = Cell;
    type Illegal = Illegal;
    type Score = String;

    fn about(&self) -> &'static About {
        &ABOUT
    }
    fn legal_moves(&self) -> Vec<Cell> {
        if self.is_over() {
            Vec::new()
        } else {
            self.stones.cells_with(None).collect()
        }
    }
    fn check(&self, m: Cell) -> Result<(), Illegal> {
        let g = self.geometry();
        match (g.contains(m), self.stones.at(m)) {
            (false, _) => Err(Illegal::OffBoard(g.label(m))),
            (_, Some(by)) => Err(Illegal::Occupied(g.label(m), by)),
            _ if self.is_over() => Err(Illegal::GameOver),
            _ => Ok(()),
        }
    }
    /// A stone on a full cell or off the board changes nothing, but the turn passes all the same,
    /// so that a lenient replay keeps the colours in step with the record.
    fn play_unchecked(&mut self, m: Cell) {
        if self.geometry().contains(m) && self.stones.at(m).is_none() {
            self.stones.set(m, Some(self.to_move));
            if self.winner.is_none() && self.row_through(m).len() >= K {
                self.winner = Some(self.to_move);
            }
        }
        self.to_move = self.to_move.opponent();
    }
    fn is_over(&self) -> bool {
        self.winner.is_some() || self.stones.count(None) == 0
    }
    fn score(&self) -> String {
        let longest = |c| self.stones.cells_with(Some(c)).map(|x| self.row_through(x).len()).max().unwrap_or(0);
        format!("longest rows: Black {}, White {}", longest(Colour::Black), longest(Colour::White))
    }
    fn signs(&self, m: Cell) -> Vec<Sign> {
        vec![Sign::Ring(m)]
    }
}

impl Notation for InRow {
    type Written = CellLabel;

    fn parse_move(text: &str) -> Result<CellLabel, String> {
        CellLabel::parse(text).ok_or_else(|| format!("`{text}` is not an In a Row move: expected a cell such as c3"))
    }
    fn resolve(&self, written: CellLabel) -> Result<Cell, Illegal> {
        self.geometry().parse_label(written).ok_or(Illegal::OffBoard(written))
    }
    fn write_move(&self, m: Cell) -> String {
        self.geometry().label(m).to_string()
    }
}

impl Playable for InRow {
    const ABOUT: About = ABOUT;

    fn to_move(&self) -> usize {
        self.to_move.index()
    }
    fn start(size: Option<u8>, players: Option<u8>) -> Result<InRow, SetupError> {
        let size = size.unwrap_or(5);
        ABOUT.check_size(size, false).and(ABOUT.check_players(players))?;
        Ok(InRow { stones: Stones::empty(Geometry::Square { size }), to_move: Colour::Black, winner: None })
    }
    /// The colour to move follows from the counts, the winner from the rows.
    fn with_setup(&self, cells: &[&str]) -> Result<InRow, SetupError> {
        let stones = Stones::from_setup(&ABOUT, self.geometry(), cells)?;
        let (black, white) = (stones.count(Some(Colour::Black)), stones.count(Some(Colour::White)));
        let to_move = match black.checked_sub(white) {
            Some(0) => Colour::Black,
            Some(1) => Colour::White,
            _ => return Err(SetupError::rules(format!("Black moves first: Black has {black} stones, White {white}"))),
        };
        InRow::of(stones, to_move).map_err(SetupError::Rules)
    }
    fn outcome(&self) -> Option<Outcome> {
        let labels = |row: Vec<Cell>| row.iter().map(|&c| self.geometry().label(c).to_string()).collect::<Vec<_>>();
        let detail = match self.winner.map(|w| labels(self.winning_row(w).unwrap_or_default())) {
            Some(row) => format!("{} in a row: {}", row.len(), row.join(" ")),
            None => format!("the board is full with no {K} in a row"),
        };
        self.is_over().then(|| Outcome::by_result(self.winner.map(Colour::index), 2, detail))
    }
}

/// A record with an illegal move: Black's second `c3` is on Black's own stone.
pub const ILLEGAL: &str = "[Game \"In a Row\"]\n[Size \"5\"]\n\n1. c3 d3 2. c3 d4 3. b2 e5 *\n";

/// A full board with no row of four, drawn: `BBWWB/WWBBW/BBWWB/WWBBW/BBWWB`.
pub const DRAWN: &str = "[Game \"In a Row\"]\n\n1. a1 c1 2. b1 d1 3. e1 a2 4. c2 b2 5. d2 e2 6. a3 c3 7. b3 d3 \
                         8. e3 a4 9. c4 b4 10. d4 e4 11. a5 c5 12. b5 d5 13. e5 0-0\n";
