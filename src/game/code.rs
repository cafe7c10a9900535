//! Position codes: a position of any game as one line of text, short enough for a URL
//! (grammar.md, "Position codes").
//!
//! A code is the game's name, then fields separated by `_`: first the board, its rows from the
//! top separated by `/`, a run of empty cells written as its length (as in FEN); then what else
//! decides the game's future, field by field. Each game reads and writes its own fields (the
//! `code` module beside each engine, which sees all of the engine's state); this module holds
//! what they share: the fields, the board, and the error that says where a code goes wrong. A
//! game defined outside the crate writes its code with them too ([`Fields`], [`read_board`],
//! [`write_board`]), so that its codes read and fail as referee's own games' do.

use crate::geometry::{Cell, CellLabel, Geometry, MAX_HEX_SIDE, MAX_SQUARE};

/// A position that can be written as a code and read back, exactly: reading the code of a
/// position gives a position equal to it in every part of its state.
pub trait Coded: Sized {
    /// The position's code, on one line.
    fn code(&self) -> String;
    /// The position a code describes; `Err` says what was expected, and where.
    fn from_code(code: &str) -> Result<Self, CodeError>;
}

/// Why a code describes no position: what was expected, at which byte of the code.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("{message} (at character {} of the code)", .at + 1)]
pub struct CodeError {
    /// The byte offset in the code where the fault is.
    pub at: usize,
    /// What was expected there, in the game's words.
    pub message: String,
}

impl CodeError {
    /// An error at byte `at` of the code.
    pub fn new(at: usize, message: impl Into<String>) -> CodeError {
        CodeError { at, message: message.into() }
    }
}

/// Why the text of a number in a code or a diagram gives none.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NumberError {
    /// The text is empty or holds something other than ASCII digits.
    NotDigits,
    /// The digits give a number past the limit asked for.
    TooLarge,
}

/// Reads a whole number written in a code or a diagram (a run of empty cells, a count of turns, a
/// diagram's row number): ASCII digits, refused as soon as their value passes `max`. Every number
/// of a code or a diagram is read here, so that none, however many digits it has, overflows or
/// sizes anything past what a board can hold; it costs one pass over its digits.
pub fn read_number(digits: &str, max: u64) -> Result<u64, NumberError> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NumberError::NotDigits);
    }
    digits.bytes().try_fold(0u64, |n, d| {
        let n = n.checked_mul(10).and_then(|n| n.checked_add(u64::from(d - b'0')));
        n.filter(|&n| n <= max).ok_or(NumberError::TooLarge)
    })
}

/// Digits as an error names them: all of them up to 24, else the first 24 and how many there are,
/// so that a message stays short whatever the input.
pub fn shown_number(digits: &str) -> String {
    const SHOWN: usize = 24;
    let count = digits.chars().count();
    if count <= SHOWN {
        digits.to_string()
    } else {
        format!("{}… (a number of {count} digits)", digits.chars().take(SHOWN).collect::<String>())
    }
}

/// One field of a code: its text and where it starts.
#[derive(Clone, Copy, Debug)]
pub struct Field<'a> {
    /// The field's text.
    pub text: &'a str,
    /// The byte of the code where it starts.
    pub at: usize,
}

impl<'a> Field<'a> {
    /// An error at byte `offset` of this field.
    pub fn error(&self, offset: usize, message: impl Into<String>) -> CodeError {
        CodeError::new(self.at + offset, message)
    }

    /// The field as a whole number of at most `max` (see [`read_number`]); `what` names it in the
    /// error.
    pub fn number<T: Copy + Into<u64> + TryFrom<u64>>(&self, what: &str, max: T) -> Result<T, CodeError> {
        match read_number(self.text, max.into()) {
            // At most `max`, so it fits `T`.
            Ok(n) => Ok(T::try_from(n).unwrap_or(max)),
            Err(NumberError::NotDigits) => {
                Err(self.error(0, format!("expected {what}, a whole number, not `{}`", self.text)))
            }
            Err(NumberError::TooLarge) => {
                Err(self.error(0, format!("expected {what}, at most {}, not {}", max.into(), shown_number(self.text))))
            }
        }
    }

    /// The field as one of `choices` (each a word of the code and its meaning); `what` names it.
    pub fn choice<T: Copy>(&self, what: &str, choices: &[(&str, T)]) -> Result<T, CodeError> {
        choices.iter().find(|(word, _)| *word == self.text).map(|&(_, value)| value).ok_or_else(|| {
            let words = choices.iter().map(|(w, _)| format!("`{w}`")).collect::<Vec<_>>().join(" or ");
            self.error(0, format!("expected {what}: {words}, not `{}`", self.text))
        })
    }

    /// The field as a colour, `b` or `w` as [`Colour::word`](crate::game::Colour::word) writes
    /// it; `what` names it (`the colour to move`).
    pub fn colour(&self, what: &str) -> Result<crate::game::Colour, CodeError> {
        use crate::game::Colour;
        self.choice(what, &Colour::BOTH.map(|c| (c.word(), c)))
    }

    /// The field as the pie rule's swap: `s` when the players exchanged colours, `-` when not.
    pub fn swap(&self) -> Result<bool, CodeError> {
        self.choice("whether the sides were swapped", &[("s", true), ("-", false)])
    }

    /// The pieces of the field between `separator`s, each with where it starts.
    pub fn split(self, separator: char) -> impl Iterator<Item = Field<'a>> {
        self.text.split(separator).scan(self.at, move |at, text| {
            let field = Field { text, at: *at };
            *at += text.len() + separator.len_utf8();
            Some(field)
        })
    }
}

/// The fields of a code after its game's name, read in turn.
pub struct Fields<'a> {
    code: &'a str,
    /// Read one at a time: a code of a million `_` is refused at the first field too many, not
    /// held as a million fields.
    rest: Box<dyn Iterator<Item = Field<'a>> + 'a>,
    /// What the last field read was, for the error when something follows the last one.
    last: &'static str,
}

impl<'a> Fields<'a> {
    /// The fields of `code`, which must start with one of `names` (the games a reader reads);
    /// returns which one too.
    pub fn of(code: &'a str, names: &[&str]) -> Result<(usize, Fields<'a>), CodeError> {
        let name = code.split('_').next().unwrap_or("");
        let Some(which) = names.iter().position(|&n| n == name) else {
            let names = names.join(" or ");
            return Err(CodeError::new(0, format!("this is a code of {name}, not of {names}")));
        };
        if let Some(bad) = code.find(|c: char| !(c.is_ascii_alphanumeric() || "_/.-".contains(c))) {
            let c = code[bad..].chars().next().unwrap_or(' ');
            return Err(CodeError::new(
                bad,
                format!("`{c}` cannot stand in a position code: it holds letters, digits, `_`, `/`, `.` and `-`"),
            ));
        }
        let fields = Field { text: code, at: 0 }.split('_').skip(1);
        Ok((which, Fields { code, rest: Box::new(fields), last: "game's name" }))
    }

    /// The next field, which the code must have: `what` names it in the error.
    pub fn next(&mut self, what: &'static str) -> Result<Field<'a>, CodeError> {
        self.last = what;
        self.rest.next().ok_or_else(|| CodeError::new(self.code.len(), format!("the code ends before its {what}")))
    }

    /// Checks that no field is left.
    pub fn end(mut self) -> Result<(), CodeError> {
        match self.rest.next() {
            None => Ok(()),
            Some(f) => {
                Err(CodeError::new(f.at - 1, format!("nothing may follow the {}, but `_{}` does", self.last, f.text)))
            }
        }
    }
}

/// Which shape of board a game is played on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BoardShape {
    /// A square board of 2x2 to [`MAX_SQUARE`] cells a side.
    Square,
    /// A hex board of side 2 to [`MAX_HEX_SIDE`].
    Hex,
}

/// What a board field says of one cell: what stands on it (`None` if it is empty), and the byte
/// of the code that says so.
pub type Read<T> = (Option<T>, usize);

/// Reads a board field: rows from the top separated by `/`, each of glyphs of `width` characters
/// (read by `glyph`, which says `None` to a glyph it does not know) and runs of empty cells written
/// as numbers. The number of rows gives the board. Returns it and what stands on each cell, in
/// reading order, with where each cell's glyph is.
pub fn read_board<T>(
    field: Field,
    shape: BoardShape,
    width: usize,
    glyph: impl Fn(&str) -> Option<T>,
    glyphs: &str,
) -> Result<(Geometry, Vec<Read<T>>), CodeError> {
    // The rows are counted before any is read: a board field of a million `/` is refused from its
    // count, and no row past the board's is held.
    let n = field.text.bytes().filter(|&b| b == b'/').count() + 1;
    let geometry = match shape {
        BoardShape::Square if n >= 2 && n <= MAX_SQUARE as usize => Geometry::Square { size: n as u8 },
        BoardShape::Hex if n % 2 == 1 && n >= 3 && n.div_ceil(2) <= MAX_HEX_SIDE as usize => {
            Geometry::Hex { side: n.div_ceil(2) as u8 }
        }
        BoardShape::Square => {
            let rows = if n == 1 { "1 row".to_string() } else { format!("{n} rows") };
            return Err(field.error(0, format!("the board has {rows}; a square board has 2 to {MAX_SQUARE}")));
        }
        BoardShape::Hex => {
            return Err(field.error(
                0,
                format!("the board has {n} rows; a hex board of side s has 2s-1, from 3 to {}", 2 * MAX_HEX_SIDE - 1),
            ))
        }
    };
    let mut cells = Vec::with_capacity(geometry.cell_count());
    for (r, row) in field.split('/').enumerate() {
        let want = geometry.row_cells(r as u16).count();
        let before = cells.len();
        let text = row.text;
        let mut i = 0;
        while i < text.len() {
            let digits = text[i..].bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 {
                // A run may fill the cells left in its row, and no more.
                let left = want - (cells.len() - before);
                let written = &text[i..i + digits];
                // One way to write each run (grammar.md: `empty = nonzero-digit , { digit }`), so
                // that a code reads back the same.
                if written.len() > 1 && written.starts_with('0') {
                    let plain = written.trim_start_matches('0');
                    let plain = if plain.is_empty() { "0" } else { plain };
                    let message = format!(
                        "a run of empty cells has no leading zero: `{}` is written `{}`",
                        shown_number(written),
                        shown_number(plain)
                    );
                    return Err(row.error(i, message));
                }
                let run = match read_number(written, left as u64) {
                    Ok(0) => return Err(row.error(i, "a run of empty cells is 1 or more, not 0")),
                    Ok(run) => run as usize,
                    Err(_) => {
                        let left = if left == want { String::new() } else { format!(" ({left} left)") };
                        return Err(row.error(
                            i,
                            format!(
                                "row {} has {want} cells{left}, and this run of {} goes past them",
                                r + 1,
                                shown_number(written)
                            ),
                        ));
                    }
                };
                cells.extend(std::iter::repeat_with(|| (None, row.at + i)).take(run));
                i += digits;
                continue;
            }
            let end = text[i..].char_indices().nth(width).map_or(text.len(), |(k, _)| i + k);
            let g = &text[i..end];
            let Some(content) = glyph(g) else {
                return Err(row.error(
                    i,
                    format!("`{g}` is not a cell of this game: expected {glyphs}, or a number of empty cells"),
                ));
            };
            if cells.len() - before == want {
                return Err(row.error(i, format!("row {} has {want} cells, and `{g}` is one more", r + 1)));
            }
            cells.push((Some(content), row.at + i));
            i = end;
        }
        let got = cells.len() - before;
        if got != want {
            return Err(row.error(text.len(), format!("row {} has {got} cells; it needs {want}", r + 1)));
        }
    }
    Ok((geometry, cells))
}

/// Writes a board field: the glyph of each cell (`None` for an empty one), runs of empty cells
/// as numbers, rows from the top separated by `/`.
pub fn write_board(geometry: Geometry, glyph: impl Fn(Cell) -> Option<&'static str>) -> String {
    // `verify --format json` writes a code for every record: one allocation, no formatting.
    fn push_run(out: &mut String, empty: usize) {
        if empty >= 10 {
            push_run(out, empty / 10);
        }
        out.push(char::from(b'0' + (empty % 10) as u8));
    }
    // One row's cells, each a glyph or one of a run of empty cells.
    fn push_row(out: &mut String, cells: impl Iterator<Item = Cell>, glyph: &impl Fn(Cell) -> Option<&'static str>) {
        let mut empty = 0;
        for c in cells {
            match glyph(c) {
                None => empty += 1,
                Some(g) => {
                    if empty > 0 {
                        push_run(out, empty);
                        empty = 0;
                    }
                    crate::game::view::push_glyph(out, g);
                }
            }
        }
        if empty > 0 {
            push_run(out, empty);
        }
    }
    let mut out = String::with_capacity(2 * geometry.slots() + geometry.height() as usize);
    let steps = geometry.steps();
    for r in 0..geometry.height() {
        if r > 0 {
            out.push('/');
        }
        let first = r * geometry.width();
        let slots = (first..first + geometry.width()).map(Cell);
        // A square row is a run of slots: no need to ask the geometry which slots are cells; a hex
        // row's slots are told apart by the geometry's table.
        match geometry {
            Geometry::Square { .. } => push_row(&mut out, slots, &glyph),
            Geometry::Hex { .. } => push_row(&mut out, slots.filter(|&c| steps.contains(c)), &glyph),
        }
    }
    out
}

/// The swap field of a game with the pie rule, as [`Field::swap`] reads it.
pub fn swap_word(swapped: bool) -> &'static str {
    if swapped {
        "s"
    } else {
        "-"
    }
}

/// Reads a cell label of `geometry` (`e5`), with an error naming the board if it is not on it.
pub fn read_cell(field: Field, text: &str, offset: usize, geometry: Geometry) -> Result<Cell, CodeError> {
    let label =
        CellLabel::parse(text).ok_or_else(|| field.error(offset, format!("`{text}` is not a cell label like e5")))?;
    geometry.parse_label(label).ok_or_else(|| field.error(offset, format!("{label} is not on the board")))
}

/// The items of a list field: `-` for none, else the items joined by `.`.
pub fn items(field: Field) -> impl Iterator<Item = Field> {
    (field.text != "-").then(|| field.split('.')).into_iter().flatten()
}
