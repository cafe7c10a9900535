//! The position code of Quarod (grammar.md, "Position codes"):
//! `quarod_BOARD_MOVER_TURNS_PASSES_SWAP_LAST`.

use std::fmt::Write;

use super::{Colour, Piece, Quarod, Rod};
use crate::game::code::{read_board, swap_word, write_board, BoardShape, CodeError, Coded, Fields};

/// A piece as one letter: its rod's compass point, upper case for Black, lower case for White.
const LETTERS: [[&str; 4]; 2] = [["N", "E", "S", "W"], ["n", "e", "s", "w"]];

impl Coded for Quarod {
    fn code(&self) -> String {
        let board = write_board(self.geo, |c| self.piece(c).map(|p| LETTERS[p.colour.index()][p.rod as usize]));
        // One string, written in place: `verify --format json` writes a code for every record.
        let mut out = String::with_capacity(board.len() + 32);
        out.push_str("quarod_");
        out.push_str(&board);
        let swap = swap_word(self.swapped);
        let _ = write!(
            out,
            "_{}_{}_{}_{swap}_{}",
            colour(self.to_move),
            self.turns,
            self.passes,
            self.last_actor.map_or("-", colour)
        );
        out
    }

    fn from_code(code: &str) -> Result<Quarod, CodeError> {
        let (_, mut fields) = Fields::of(code, &[super::super::ABOUT.name])?;
        let board = fields.next("board")?;
        let glyph = |g: &str| {
            (0..2).find_map(|c| {
                let rod = LETTERS[c].iter().position(|&l| l == g)?;
                Some(Piece { colour: Colour::BOTH[c], rod: Rod::ALL[rod] })
            })
        };
        let glyphs = "a rod's compass point, `N` `E` `S` `W` for Black and `n` `e` `s` `w` for White";
        let (geo, cells) = read_board(board, BoardShape::Square, 1, glyph, glyphs)?;
        let colours = [("b", Colour::Black), ("w", Colour::White)];
        let to_move = fields.next("colour to move")?.choice("the colour to move", &colours)?;
        let turns = fields.next("turns taken")?.number("the turns taken", u32::MAX)?;
        let passes = fields.next("passes")?.number("the passes in a row", u8::MAX)?;
        let swapped = fields.next("swap")?.swap()?;
        let last = [("b", Some(Colour::Black)), ("w", Some(Colour::White)), ("-", None)];
        let last_actor = fields.next("last actor")?.choice("the colour of the last placement or board swap", &last)?;
        fields.end()?;
        let pieces: Vec<Option<Piece>> = cells.into_iter().map(|(p, _)| p).collect();
        let mut p = Quarod::from_pieces(geo.size(), &pieces).map_err(|e| board.error(0, e.to_string()))?;
        p.to_move = to_move;
        p.turns = turns;
        p.passes = passes;
        p.swapped = swapped;
        p.last_actor = last_actor;
        Ok(p)
    }
}

fn colour(c: Colour) -> &'static str {
    match c {
        Colour::Black => "b",
        Colour::White => "w",
    }
}
