//! The position code of Vadrantir (grammar.md, "Position codes"): `vadrantir_BOARD_MOVER_TURNS_SWAP`.

use super::{Colour, Vadrantir};
use crate::game::code::{read_board, swap_word, write_board, BoardShape, CodeError, Coded, Fields};

impl Coded for Vadrantir {
    fn code(&self) -> String {
        let board = write_board(self.geometry(), |c| match self.stone(c) {
            None => None,
            Some(Colour::Black) => Some("B"),
            Some(Colour::White) => Some("W"),
        });
        format!("vadrantir_{board}_{}_{}_{}", colour(self.to_move), self.plies, swap_word(self.swapped))
    }

    fn from_code(code: &str) -> Result<Vadrantir, CodeError> {
        let (_, mut fields) = Fields::of(code, &[super::super::ABOUT.name])?;
        let board = fields.next("board")?;
        let glyph = |g: &str| match g {
            "B" => Some("B"),
            "W" => Some("W"),
            _ => None,
        };
        let (geo, cells) = read_board(board, BoardShape::Hex, 1, glyph, "`B` (Black) or `W` (White)")?;
        let colours = [("b", Colour::Black), ("w", Colour::White)];
        let to_move = fields.next("colour to move")?.choice("the colour to move", &colours)?;
        let plies = fields.next("turns taken")?.number("the turns taken", u32::MAX)?;
        let swapped = fields.next("swap")?.swap()?;
        fields.end()?;
        let empty = Vadrantir::new(geo.size()).map_err(|e| board.error(0, e.to_string()))?;
        let glyphs: Vec<&str> = cells.iter().map(|(g, _)| g.unwrap_or(super::EMPTY_GLYPH)).collect();
        let mut p = empty.setup(&glyphs).map_err(|e| board.error(0, e.to_string()))?;
        p.to_move = to_move;
        p.plies = plies;
        p.swapped = swapped;
        Ok(p)
    }
}

fn colour(c: Colour) -> &'static str {
    match c {
        Colour::Black => "b",
        Colour::White => "w",
    }
}
