//! Diagrams in the published style: column letters, then one row per line ending in its number.
//!
//! Square rows are written `x o o . o o o o x 1.`; hex rows put each cell at its letter's column,
//! as the designers' side-5 record does, so the hexagon shows. The record parser reads both back.

use crate::game::BoardView;
use crate::geometry::{Cell, Geometry};

/// The diagram of a position, one line per row, ending with a newline.
pub fn diagram(view: &impl BoardView) -> String {
    diagram_of(view.geometry(), |c| view.glyph(c))
}

/// What each cell of `view` shows in its diagram, in reading order (the diagram's rows from the
/// top, each from its left): a start diagram's cells, as a board editor sets them.
pub fn diagram_cells(view: &impl BoardView) -> Vec<String> {
    let g = view.geometry();
    (0..g.height()).flat_map(|r| g.row_cells(r)).map(|c| view.glyph(c).to_string()).collect()
}

/// The diagram of a board of shape `g` whose cells show `glyph(cell)`: a position's, or one drawn
/// in a record and laid out again (`referee convert`).
pub fn diagram_of<'g>(g: Geometry, glyph: impl Fn(Cell) -> &'g str) -> String {
    let width = g.width() as usize;
    let letters: String = (0..width).map(|c| (b'a' + c as u8) as char).collect();
    let mut out = String::new();
    match g {
        Geometry::Square { .. } => {
            out.push_str(&letters.chars().map(String::from).collect::<Vec<_>>().join(" "));
            out.push('\n');
            // Letters stand over the first character of each cell's glyph.
            let wide = g.cells().map(|c| glyph(c).chars().count()).max().unwrap_or(1);
            if wide > 1 {
                out.clear();
                let pad = " ".repeat(wide);
                out.push_str(
                    letters.chars().map(|c| format!("{c}{}", &pad[1..])).collect::<Vec<_>>().join(" ").trim_end(),
                );
                out.push('\n');
            }
            for row in 0..g.height() {
                for cell in g.row_cells(row) {
                    out.push_str(glyph(cell));
                    out.push(' ');
                }
                out.push_str(&format!("{}.\n", row + 1));
            }
        }
        Geometry::Hex { .. } => {
            out.push_str(&letters);
            out.push('\n');
            for row in 0..g.height() {
                // Each glyph at its cell's column, whole: a record's diagram may hold a glyph of
                // several characters (a wrong one, which `convert` must write as it was claimed),
                // and then the rest of the row moves right, a blank still between cells.
                let mut line = String::new();
                let mut at = 0;
                for cell in g.row_cells(row) {
                    let col = g.col(cell) as usize;
                    let pad = if at < col { col - at } else { usize::from(at > 0) };
                    line.extend(std::iter::repeat_n(' ', pad));
                    line.push_str(glyph(cell));
                    at += pad + glyph(cell).chars().count();
                }
                line.extend(std::iter::repeat_n(' ', width.saturating_sub(at)));
                out.push_str(&line);
                out.push_str(&format!(" {}\n", row + 1));
            }
            out.push_str(&letters);
            out.push('\n');
        }
    }
    out
}
