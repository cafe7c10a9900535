//! Quarod move tokens and the common record format.
//!
//! `d4e4` is a placement (Black on d4, White on e4, rods towards each other), `d4xe4` a board swap
//! of the pieces on d4 and e4, `pass` a pass and `swap` the pie swap of sides. Reading is in two
//! stages: [`parse`] checks the syntax alone; [`Notation::resolve`](crate::game::Notation::resolve) finds the squares on the board.

use std::fmt;

use super::rules::{Illegal, Quarod, QuarodMove, DEFAULT_SIZE};
use crate::game::{Outcome, Playable, SetupError};
use crate::geometry::CellLabel;

/// A move as written, before it meets a board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum WrittenMove {
    /// `d4e4`: Black on the first square, White on the second.
    Place {
        /// The Black piece's square.
        black: CellLabel,
        /// The White piece's square.
        white: CellLabel,
    },
    /// `d4xe4`.
    BoardSwap {
        /// One piece's square.
        a: CellLabel,
        /// The other's.
        b: CellLabel,
    },
    /// `pass`.
    Pass,
    /// `swap`: the pie rule.
    SwapSides,
}

impl fmt::Display for WrittenMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        self.push_to(&mut out);
        f.write_str(&out)
    }
}

impl WrittenMove {
    /// Writes the move (`d4e4`, `d4xe4`, `pass`, `swap`) at the end of `out`.
    pub fn push_to(self, out: &mut String) {
        match self {
            WrittenMove::Place { black, white } => push_pair(black, None, white, out),
            WrittenMove::BoardSwap { a, b } => push_pair(a, Some('x'), b, out),
            WrittenMove::Pass => out.push_str("pass"),
            WrittenMove::SwapSides => out.push_str("swap"),
        }
    }
}

/// Two labels with `between` between them at the end of `out`, as [`CellLabel::push_to`] writes
/// each: where both are a letter and a row below 100 (every Quarod board's), in one function with
/// room made once, since an illegal move's alternatives write every legal move of a position.
fn push_pair(a: CellLabel, between: Option<char>, b: CellLabel, out: &mut String) {
    let short = |l: CellLabel| l.col < 26 && l.row < 100;
    if !(short(a) && short(b)) {
        a.push_to(out);
        out.extend(between);
        b.push_to(out);
        return;
    }
    out.reserve(7);
    push_short(a, out);
    if let Some(c) = between {
        out.push(c);
    }
    push_short(b, out);
}

/// [`CellLabel::push_to`] for a label of a letter and a row below 100, inlined in [`push_pair`].
#[inline(always)]
fn push_short(l: CellLabel, out: &mut String) {
    let (tens, units) = ((l.row / 10) as u8, (l.row % 10) as u8);
    out.push(char::from(b'a' + l.col));
    if tens > 0 {
        out.push(char::from(b'0' + tens));
    }
    out.push(char::from(b'0' + units));
}

const EXPECTED: &str = "expected a placement like `d4e4`, a board swap like `d4xe4`, `pass` or `swap`";

/// Reads a token's syntax: `d4e4`, `d4xe4`, `pass` or `swap`.
pub fn parse(text: &str) -> Result<WrittenMove, String> {
    // Every move of a record is read twice (for syntax errors, then in the replay): the common
    // shapes are read byte by byte first, and anything else as the rules below say.
    match parse_plain(text.as_bytes()) {
        Some(m) => Ok(m),
        None => parse_by_rules(text),
    }
}

/// [`parse`] for any token, with the error that says what is wrong.
fn parse_by_rules(text: &str) -> Result<WrittenMove, String> {
    match text {
        "pass" => return Ok(WrittenMove::Pass),
        "swap" => return Ok(WrittenMove::SwapSides),
        _ => {}
    }
    let bytes = text.as_bytes();
    if !bytes.first().is_some_and(u8::is_ascii_lowercase) {
        return Err(format!("`{text}` is not a Quarod move: {EXPECTED}"));
    }
    // The first label ends with its digits; `x` then a letter means a board swap (`d4x5` is a
    // placement on d4 and x5, since a label starts with a letter and `5` does not).
    let end = 1 + bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    let label = |s: &str| {
        CellLabel::parse(s).ok_or_else(|| format!("`{text}` is not a Quarod move: `{s}` is not a square; {EXPECTED}"))
    };
    let first = label(&text[..end])?;
    let rest = &text[end..];
    if rest.is_empty() {
        return Err(format!("`{text}` is not a Quarod move: a move names two squares; {EXPECTED}"));
    }
    match rest.strip_prefix('x').filter(|r| r.as_bytes().first().is_some_and(u8::is_ascii_lowercase)) {
        Some(second) => Ok(WrittenMove::BoardSwap { a: first, b: label(second)? }),
        None => Ok(WrittenMove::Place { black: first, white: label(rest)? }),
    }
}

/// The moves [`parse`] reads, in their common shapes (`pass`, `d4e4`, `d4xe4`, rows of one or
/// two digits), without a word about anything else: `None` leaves the token to
/// [`parse_by_rules`].
#[inline]
fn parse_plain(bytes: &[u8]) -> Option<WrittenMove> {
    match bytes {
        b"pass" => return Some(WrittenMove::Pass),
        b"swap" => return Some(WrittenMove::SwapSides),
        _ => {}
    }
    let (first, rest) = CellLabel::read(bytes)?;
    let (m, rest) = match rest {
        // `x` then a letter: a board swap (`d4x5` is a placement on d4 and x5).
        [b'x', b'a'..=b'z', ..] => {
            let (b, rest) = CellLabel::read(&rest[1..])?;
            (WrittenMove::BoardSwap { a: first, b }, rest)
        }
        _ => {
            let (white, rest) = CellLabel::read(rest)?;
            (WrittenMove::Place { black: first, white }, rest)
        }
    };
    rest.is_empty().then_some(m)
}

impl Playable for Quarod {
    const ABOUT: crate::game::About = super::ABOUT;
    const POSITIONS: &'static str = include_str!("quarod.perft");

    fn to_move(&self) -> usize {
        self.colour_to_move().index()
    }

    fn start(size: Option<u8>, players: Option<u8>) -> Result<Quarod, SetupError> {
        super::ABOUT.check_players(players)?;
        Quarod::new(size.unwrap_or(DEFAULT_SIZE))
    }

    fn with_setup(&self, cells: &[&str]) -> Result<Quarod, SetupError> {
        Quarod::from_glyphs(self.size(), cells)
    }

    fn points(&self) -> Vec<f64> {
        crate::game::Game::score(self).points.iter().map(|&p| p as f64).collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result()
    }
}

impl Quarod {
    /// The move as written in the notation, with cell labels.
    pub fn written(&self, m: QuarodMove) -> WrittenMove {
        match m {
            QuarodMove::Place { black, white } => {
                WrittenMove::Place { black: self.label(black), white: self.label(white) }
            }
            QuarodMove::BoardSwap { a, b } => WrittenMove::BoardSwap { a: self.label(a), b: self.label(b) },
            QuarodMove::Pass => WrittenMove::Pass,
            QuarodMove::SwapSides => WrittenMove::SwapSides,
        }
    }
}

impl crate::game::Notation for Quarod {
    type Written = WrittenMove;

    fn parse_move(text: &str) -> Result<WrittenMove, String> {
        parse(text)
    }

    fn resolve(&self, written: WrittenMove) -> Result<QuarodMove, Illegal> {
        let cell = |l: CellLabel| self.cell_of(l).ok_or(Illegal::OffBoard { cell: l, size: self.size() });
        Ok(match written {
            WrittenMove::Place { black, white } => QuarodMove::Place { black: cell(black)?, white: cell(white)? },
            WrittenMove::BoardSwap { a, b } => QuarodMove::BoardSwap { a: cell(a)?, b: cell(b)? },
            WrittenMove::Pass => QuarodMove::Pass,
            WrittenMove::SwapSides => QuarodMove::SwapSides,
        })
    }

    fn write_move(&self, m: QuarodMove) -> String {
        let mut out = String::with_capacity(8);
        self.written(m).push_to(&mut out);
        out
    }

    fn write_move_into(&self, m: QuarodMove, out: &mut String) {
        self.written(m).push_to(out);
    }

    const WRITES_APART: bool = true;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A move is written into a buffer as its two labels are written one after the other, on
    /// boards up to the largest Quarod's and past it (labels of three digits or past `z`).
    #[test]
    fn moves_are_written_as_their_labels() {
        let label = |col: u8, row: u16| CellLabel { col, row };
        let labels: Vec<CellLabel> = (0..=27u8)
            .flat_map(|col| [0u16, 1, 9, 10, 26, 99, 100, 101, 65535].map(|row| label(col, row)))
            .chain([label(200, 7), label(255, 3)])
            .collect();
        for &a in &labels {
            for &b in &labels {
                for (m, between) in
                    [(WrittenMove::Place { black: a, white: b }, ""), (WrittenMove::BoardSwap { a, b }, "x")]
                {
                    let mut out = String::from("d4e4 ");
                    m.push_to(&mut out);
                    assert_eq!(out, format!("d4e4 {a}{between}{b}"), "{a:?} {b:?}");
                }
            }
        }
    }

    /// Every token of up to six characters from an alphabet of letters, digits and others: the
    /// byte reader reads what the rules read, the same way, and leaves the rest to them.
    #[test]
    fn the_byte_reader_reads_as_the_rules_do() {
        let alphabet = b"adxz0192A-";
        let mut read = 0;
        for len in 0..=6u32 {
            for mut k in 0..alphabet.len().pow(len) {
                let token: String = (0..len)
                    .map(|_| {
                        let c = alphabet[k % alphabet.len()];
                        k /= alphabet.len();
                        char::from(c)
                    })
                    .collect();
                if let Some(m) = parse_plain(token.as_bytes()) {
                    assert_eq!(parse_by_rules(&token), Ok(m), "{token}");
                    read += 1;
                }
                assert_eq!(parse(&token), parse_by_rules(&token), "{token}");
            }
        }
        for token in ["pass", "swap", "z26a1", "a1xz26", "d10xe10", "d4e4", "d4x5"] {
            assert_eq!(parse_plain(token.as_bytes()).map(Ok), Some(parse_by_rules(token)), "{token}");
        }
        assert!(read > 4_000, "{read}");
    }
}
