//! The position code of Quadraphages and Hexaphages (grammar.md, "Position codes"):
//! `quadraphages_BOARD_TURN_STONES`.
//!
//! The stones are listed as well as drawn: the engine keeps each side's stones in an order (the
//! order of the start), and which stones have acted or failed to move is kept by that order.

use std::fmt::Write;

use super::{Content, Phages, Phase, Side, MAX_STONES};
use crate::game::code::{read_board, read_cell, BoardShape, CodeError, Coded, Field, Fields};
use crate::game::Game;
use crate::geometry::Geometry;

impl Coded for Phages {
    fn code(&self) -> String {
        let g = self.geo;
        let board = crate::game::code::write_board(g, |c| match self.content(c) {
            Content::Empty => None,
            Content::Mark(Side::X) => Some("x"),
            Content::Mark(Side::O) => Some("o"),
            Content::Stone(Side::X) => Some("X"),
            Content::Stone(Side::O) => Some("O"),
        });
        // One string, written in place: `verify --format json` writes a code for every record.
        let mut out = String::with_capacity(board.len() + 64);
        out.push_str(self.about().name);
        out.push('_');
        out.push_str(&board);
        out.push('_');
        out.push(self.to_move.letter().to_ascii_lowercase());
        out.push(self.phase.letter());
        let _ = write!(out, "{}", self.number);
        if self.first_turn {
            out.push('f');
        }
        out.push('_');
        for s in [Side::X, Side::O] {
            if s == Side::O {
                out.push('-');
            }
            for (i, &c) in self.stones(s).iter().enumerate() {
                if i > 0 {
                    out.push('.');
                }
                g.label(c).push_to(&mut out);
                if s == self.to_move && self.acted & (1 << i) != 0 {
                    out.push('a');
                }
                if self.failed & (1 << (s.index() * MAX_STONES + i)) != 0 {
                    out.push('f');
                }
            }
        }
        out
    }

    fn from_code(code: &str) -> Result<Phages, CodeError> {
        let names = [super::super::QUADRAPHAGES.name, super::super::HEXAPHAGES.name];
        let (which, mut fields) = Fields::of(code, &names)?;
        let shape = if which == 0 { BoardShape::Square } else { BoardShape::Hex };
        let board = fields.next("board")?;
        let glyph = |g: &str| match g {
            "x" => Some(Content::Mark(Side::X)),
            "o" => Some(Content::Mark(Side::O)),
            "X" => Some(Content::Stone(Side::X)),
            "O" => Some(Content::Stone(Side::O)),
            _ => None,
        };
        let (geo, cells) = read_board(board, shape, 1, glyph, "`X` or `O` (stones), `x` or `o` (marks)")?;
        let turn = fields.next("turn")?;
        let stones = fields.next("stones")?;
        fields.end()?;

        let (to_move, phase, number, first_turn) = read_turn(turn)?;
        let listed = read_stones(stones, geo)?;
        let cell_of = |l: &Stone| l.cell;
        let x: Vec<_> = listed[0].iter().map(cell_of).collect();
        let o: Vec<_> = listed[1].iter().map(cell_of).collect();
        let mut p = Phages::new(geo, &x, &o, to_move).map_err(|e| stones.error(0, e.to_string()))?;
        for (cell, (content, at)) in geo.cells().zip(&cells) {
            let content = content.unwrap_or(Content::Empty);
            let drawn = match content {
                Content::Stone(s) => Some(s),
                _ => None,
            };
            if drawn != p.stone_side(cell) {
                let label = geo.label(cell);
                return Err(CodeError::new(
                    *at,
                    match drawn {
                        Some(s) => {
                            format!("the board has an {s} stone on {label}, which the stones field does not list")
                        }
                        None => format!("the stones field lists a stone on {label}, which the board does not draw"),
                    },
                ));
            }
            if let Content::Mark(s) = content {
                p.cells[cell.0 as usize] = content;
                p.marks[s.index()] += 1;
            }
        }
        for (side, stones) in [Side::X, Side::O].into_iter().zip(&listed) {
            for (i, s) in stones.iter().enumerate() {
                if s.acted {
                    if side != to_move || phase == Phase::Announce {
                        let why = "only the stones of the side to move, in phase a or c, can have acted (`a`)";
                        return Err(CodeError::new(s.at, why));
                    }
                    p.acted |= 1 << i;
                }
                if s.failed {
                    p.failed |= 1 << (side.index() * MAX_STONES + i);
                }
            }
        }
        if p.acted.count_ones() as usize == p.stones_per_side() && p.acted != 0 {
            return Err(stones.error(0, "not every stone of the side to move can have acted: the phase would be over"));
        }
        p.phase = phase;
        p.number = number;
        p.first_turn = first_turn;
        // The end is a fact of the run of failures and the stones still to act: the engine settles it
        // after every move, and so it does here.
        p.settle_end();
        Ok(p)
    }
}

/// A stone of the stones field.
struct Stone {
    cell: crate::geometry::Cell,
    acted: bool,
    failed: bool,
    at: usize,
}

impl Phages {
    /// The side whose stone stands on `c`, if one does.
    fn stone_side(&self, c: crate::geometry::Cell) -> Option<Side> {
        match self.content(c) {
            Content::Stone(s) => Some(s),
            _ => None,
        }
    }
}

/// `xb0f`: the side to move, the phase, the number in force, and `f` in the game's first turn.
fn read_turn(turn: Field) -> Result<(Side, Phase, u8, bool), CodeError> {
    let expected = "expected the turn: the side to move (`x` or `o`), the phase (`a`, `b` or `c`), the number \
                    in force, and `f` in the game's first turn, like `xb0f` or `oa3`";
    let t = turn.text.as_bytes();
    let side = match t.first() {
        Some(b'x') => Side::X,
        Some(b'o') => Side::O,
        _ => return Err(turn.error(0, expected)),
    };
    let phase = match t.get(1) {
        Some(b'a') => Phase::Move,
        Some(b'b') => Phase::Announce,
        Some(b'c') => Phase::MoveAgain,
        _ => return Err(turn.error(1.min(t.len()), expected)),
    };
    let rest = &turn.text[2.min(t.len())..];
    let (digits, first) = match rest.strip_suffix('f') {
        Some(d) => (d, true),
        None => (rest, false),
    };
    let number = Field { text: digits, at: turn.at + 2 }.number("the number in force", u8::MAX)?;
    if first && phase == Phase::Move {
        return Err(turn.error(1, "the game's first turn has no phase a"));
    }
    Ok((side, phase, number, first))
}

/// `a7.i3a-c1f.g9`: X's stones, `-`, O's stones, each in the engine's order, each followed by `a`
/// if it has acted in this phase and `f` if it is in the run of failed moves.
fn read_stones(field: Field, geo: Geometry) -> Result<[Vec<Stone>; 2], CodeError> {
    let mut sides = field.split('-');
    let (Some(x), Some(o), None) = (sides.next(), sides.next(), sides.next()) else {
        return Err(field.error(0, "expected X's stones, `-`, then O's stones, like `a7.i3-c1.g9`"));
    };
    let read = |side: Field| -> Result<Vec<Stone>, CodeError> {
        side.split('.')
            .enumerate()
            .map(|(k, s)| {
                // Refused at the first stone too many, so that a list of a million is not held.
                if k == MAX_STONES {
                    return Err(s.error(0, format!("a side has at most {MAX_STONES} stones; this is one more")));
                }
                let label_end = s.text.find(|c: char| c.is_ascii_digit()).map_or(s.text.len(), |d| {
                    d + s.text[d..].find(|c: char| !c.is_ascii_digit()).unwrap_or(s.text.len() - d)
                });
                let cell = read_cell(s, &s.text[..label_end], 0, geo)?;
                let flags = &s.text[label_end..];
                let (acted, failed) = match flags {
                    "" => (false, false),
                    "a" => (true, false),
                    "f" => (false, true),
                    "af" => (true, true),
                    _ => {
                        return Err(s.error(
                            label_end,
                            format!("`{flags}` after a stone: expected `a` (acted in this phase), `f` (failed to move), or both as `af`"),
                        ))
                    }
                };
                Ok(Stone { cell, acted, failed, at: s.at })
            })
            .collect()
    };
    Ok([read(x)?, read(o)?])
}
