//! Diagrams in the published style: column letters, then one row per line ending in its number.
//!
//! Square rows are written `x o o . o o o o x 1.`; hex rows put each cell at its letter's column,
//! as the designers' side-5 record does, so the hexagon shows. The record parser reads both back.

use std::collections::BTreeMap;

use crate::game::BoardView;
use crate::geometry::{Cell, Geometry};
use crate::render::model::Numbers;

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

/// A numbered diagram of a position (`show --numbers`): each cell's glyph followed by the number
/// the diagram writes there ([`Numbers`]: on a figure, the number of the move played at its cell;
/// on an empty cell a trail passes, the number of its last step there), in the layout of
/// [`diagram`] with cells as wide as the widest; then its notes (`notes: 17 at 5, 23 at e5`) and
/// its trails (`trail Red: e5, 12 e6, 13 f7`), a line each. Not read back as a record's diagram.
pub fn numbered(view: &impl BoardView, numbers: &Numbers) -> String {
    let g = view.geometry();
    let mut on: BTreeMap<Cell, u32> = BTreeMap::new();
    for trail in &numbers.trails {
        for &(cell, n) in &trail.steps {
            if let Some(n) = n.filter(|_| view.figure(cell).is_none()) {
                on.insert(cell, n);
            }
        }
    }
    on.extend(numbers.cells.iter().copied());
    let text: BTreeMap<Cell, String> = g
        .cells()
        .map(|c| (c, on.get(&c).map_or_else(|| view.glyph(c).to_string(), |n| format!("{}{n}", view.glyph(c)))))
        .collect();
    let wide = text.values().map(|t| t.chars().count()).max().unwrap_or(1);
    let cell = |c: Cell| format!("{:<wide$}", text[&c]);
    let letters = |step: usize| {
        let mut line = String::new();
        for col in 0..g.width() as usize {
            line.extend(std::iter::repeat_n(' ', (col * step).saturating_sub(line.chars().count())));
            line.push((b'a' + col as u8) as char);
        }
        line
    };
    let mut out = String::new();
    match g {
        Geometry::Square { .. } => {
            out.push_str(&letters(wide + 1));
            out.push('\n');
            for row in 0..g.height() {
                for c in g.row_cells(row) {
                    out.push_str(&cell(c));
                    out.push(' ');
                }
                out.push_str(&format!("{}.\n", row + 1));
            }
        }
        Geometry::Hex { .. } => {
            // Neighbours in a row are two columns apart: a column is half a cell and its blank.
            let step = (wide + 2) / 2;
            let width = (g.width() as usize).saturating_sub(1) * step + wide;
            out.push_str(letters(step).trim_end());
            out.push('\n');
            for row in 0..g.height() {
                let mut line = String::new();
                for c in g.row_cells(row) {
                    line.extend(std::iter::repeat_n(
                        ' ',
                        (g.col(c) as usize * step).saturating_sub(line.chars().count()),
                    ));
                    line.push_str(&cell(c));
                }
                line.extend(std::iter::repeat_n(' ', width.saturating_sub(line.chars().count())));
                out.push_str(&format!("{line} {}\n", row + 1));
            }
            out.push_str(letters(step).trim_end());
            out.push('\n');
        }
    }
    let notes = numbers.notes(g);
    if !notes.is_empty() {
        out.push_str(&format!("notes: {}\n", notes.join(", ")));
    }
    for trail in &numbers.trails {
        let whose = trail.owner.and_then(|o| view.player_names().get(o as usize)).copied().unwrap_or("nobody");
        let steps: Vec<String> = trail
            .steps
            .iter()
            .map(|&(c, n)| match n {
                Some(n) => format!("{n} {}", g.label(c)),
                None => g.label(c).to_string(),
            })
            .collect();
        let gone = if trail.standing { "" } else { " (gone)" };
        out.push_str(&format!("trail {whose}: {}{gone}\n", steps.join(", ")));
    }
    out
}
