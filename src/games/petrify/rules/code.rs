//! The position code of Petrify (grammar.md, "Position codes"):
//! `petrify_BOARD_MOVER_TURNS_PASSES_SWAP_LAST`.

use super::{Colour, Petrify, Square};
use crate::game::code::{read_board, swap_word, write_board, BoardShape, CodeError, Coded, Fields};

impl Coded for Petrify {
    fn code(&self) -> String {
        let board = write_board(self.geometry(), |c| match self.square(c) {
            Square::Empty => None,
            Square::Disk(Colour::Blue) => Some("B"),
            Square::Disk(Colour::Orange) => Some("O"),
            Square::Block => Some("X"),
        });
        format!(
            "petrify_{board}_{}_{}_{}_{}_{}",
            colour(self.to_move),
            self.plies,
            self.passes,
            swap_word(self.swapped),
            self.last_board_play.map_or("-", colour)
        )
    }

    /// Reads a code. A mound or a barricade on its board is read as it stands: lenient replay can
    /// leave one, and a code holds whatever position the engine can.
    fn from_code(code: &str) -> Result<Petrify, CodeError> {
        let (_, mut fields) = Fields::of(code, &[super::super::ABOUT.name])?;
        let board = fields.next("board")?;
        let glyph = |g: &str| match g {
            "B" => Some(Square::Disk(Colour::Blue)),
            "O" => Some(Square::Disk(Colour::Orange)),
            "X" => Some(Square::Block),
            _ => None,
        };
        let (geo, cells) =
            read_board(board, BoardShape::Square, 1, glyph, "`B` (Blue), `O` (Orange) or `X` (a block)")?;
        let colours = [("b", Colour::Blue), ("o", Colour::Orange)];
        let to_move = fields.next("colour to move")?.choice("the colour to move", &colours)?;
        let plies = fields.next("turns taken")?.number("the turns taken", u32::MAX)?;
        let passes = fields.next("passes")?.number("the passes in a row", u8::MAX)?;
        let swapped = fields.next("swap")?.swap()?;
        let last = [("b", Some(Colour::Blue)), ("o", Some(Colour::Orange)), ("-", None)];
        let last_board_play = fields.next("last board play")?.choice("the colour of the last board play", &last)?;
        fields.end()?;
        let mut p = Petrify::new(geo.size()).map_err(|e| board.error(0, e.to_string()))?;
        for (c, (square, _)) in geo.cells().zip(cells) {
            p.squares[c.0 as usize] = square.unwrap_or(Square::Empty);
        }
        p.to_move = to_move;
        p.plies = plies;
        p.passes = passes;
        p.swapped = swapped;
        p.last_board_play = last_board_play;
        Ok(p)
    }
}

fn colour(c: Colour) -> &'static str {
    match c {
        Colour::Blue => "b",
        Colour::Orange => "o",
    }
}
