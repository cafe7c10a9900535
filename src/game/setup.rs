//! Why a start cannot be had: a board the game is not played on, a player count it is not played
//! by, a setup diagram of the wrong size or with a glyph that is not the game's, or a start its
//! rules forbid. Every game's start reports these kinds alike, and the record formats turn them
//! into a problem in one place.

use std::fmt;

use super::{About, Sizes};
use crate::geometry::{Cell, CellLabel, Geometry};

/// Why a board size, a player count or a setup diagram cannot start a game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SetupError {
    /// A board the game is not played on.
    Size {
        /// The game's name as its rules write it.
        title: &'static str,
        /// The sides it is played on.
        sizes: Sizes,
        /// Whether its boards are hex boards.
        hex: bool,
        /// The side asked for.
        size: u8,
    },
    /// A number of players the game is not played by.
    Players {
        /// The game's name as its rules write it.
        title: &'static str,
        /// The fewest and the most players.
        allowed: (u8, u8),
        /// The number asked for.
        players: u8,
    },
    /// A setup diagram with more or fewer cells than the board.
    CellCount {
        /// Cells in the diagram.
        got: usize,
        /// The board.
        board: Geometry,
    },
    /// A setup glyph that stands for nothing of the game.
    Glyph {
        /// The game's name as its rules write it.
        title: &'static str,
        /// Where it is.
        cell: CellLabel,
        /// The glyph.
        glyph: String,
        /// What the game's glyphs are, in words.
        expected: &'static str,
    },
    /// A start the game's rules forbid, in the game's words.
    Rules(String),
}

impl SetupError {
    /// A start the rules forbid, for the reason `why`.
    pub fn rules(why: impl fmt::Display) -> SetupError {
        SetupError::Rules(why.to_string())
    }
}

/// Numbers of players in words, as the rules write them.
fn players_in_words(n: u8) -> String {
    const WORDS: [&str; 9] = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight"];
    WORDS.get(usize::from(n)).map_or_else(|| n.to_string(), |w| w.to_string())
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Size { title, sizes, hex: false, size } => {
                let (low, high) = (sizes.smallest, sizes.largest);
                write!(f, "{title} is played on square boards from {low}x{low} to {high}x{high}")?;
                if sizes.step > 1 {
                    write!(f, " with an even side")?;
                }
                write!(f, ", not {size}x{size}")
            }
            SetupError::Size { title, sizes, hex: true, size } => {
                write!(f, "{title} is played on hex boards of side {sizes}, not {size}")
            }
            SetupError::Players { title, allowed: (fewest, most), players } => {
                let allowed = match fewest == most {
                    true => players_in_words(*fewest),
                    false => format!("{} to {}", players_in_words(*fewest), players_in_words(*most)),
                };
                write!(f, "{title} is a game for {allowed} players, not {players}")
            }
            SetupError::CellCount { got, board } => {
                let cells = board.cell_count();
                match board {
                    Geometry::Square { size } => {
                        write!(f, "the setup has {got} cells; the {size}x{size} board has {cells}")
                    }
                    Geometry::Hex { side } => {
                        write!(f, "the setup has {got} cells; the hex board of side {side} has {cells}")
                    }
                }
            }
            SetupError::Glyph { title, cell, glyph, expected } => {
                write!(f, "{cell}: `{glyph}` is not a {title} glyph: expected {expected}")
            }
            SetupError::Rules(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for SetupError {}

impl About {
    /// `Ok` if the game is played on a board of side `size` (its [`About::sizes`]).
    pub fn check_size(&self, size: u8, hex: bool) -> Result<(), SetupError> {
        self.check_size_in(self.sizes, size, hex)
    }

    /// `Ok` if `size` is one of `sizes`: for a game played on more boards than it starts on
    /// without a setup diagram.
    pub fn check_size_in(&self, sizes: Sizes, size: u8, hex: bool) -> Result<(), SetupError> {
        match sizes.allows(size) {
            true => Ok(()),
            false => Err(SetupError::Size { title: self.title, sizes, hex, size }),
        }
    }

    /// `Ok` if the game is played by `players` (when a record says how many).
    pub fn check_players(&self, players: Option<u8>) -> Result<(), SetupError> {
        match players {
            Some(n) if !(self.players.0..=self.players.1).contains(&n) => {
                Err(SetupError::Players { title: self.title, allowed: self.players, players: n })
            }
            _ => Ok(()),
        }
    }

    /// A setup diagram's `glyphs`, one per cell of `geometry` in reading order, each read by
    /// `read` (`None` for a glyph that is not the game's: `expected` says what they are), with its
    /// cell.
    pub fn read_setup<T>(
        &self,
        geometry: Geometry,
        glyphs: &[&str],
        expected: &'static str,
        read: impl Fn(&str) -> Option<T>,
    ) -> Result<Vec<(Cell, T)>, SetupError> {
        if glyphs.len() != geometry.cell_count() {
            return Err(SetupError::CellCount { got: glyphs.len(), board: geometry });
        }
        let glyph_error =
            |cell, glyph: &str| SetupError::Glyph { title: self.title, cell, glyph: glyph.to_string(), expected };
        geometry
            .cells()
            .zip(glyphs)
            .map(|(c, &g)| read(g).map(|t| (c, t)).ok_or_else(|| glyph_error(geometry.label(c), g)))
            .collect()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::Format;

    /// A game of even boards for two to four players, for the tests of what games share.
    pub(crate) const GAME: About = About {
        name: "game",
        title: "Game",
        aliases: &[],
        help: "",
        format: Format::Common,
        sizes: Sizes::from(4, 8).every(2),
        players: (2, 4),
    };

    /// Each kind says what was asked and what the game allows.
    #[test]
    fn each_kind_says_what_the_game_allows() {
        let said = |e: SetupError| e.to_string();
        assert_eq!(
            (GAME.check_size(6, false), GAME.check_players(Some(3)), GAME.check_players(None)),
            (Ok(()), Ok(()), Ok(()))
        );
        let odd = GAME.check_size(5, false).unwrap_err();
        assert_eq!(said(odd), "Game is played on square boards from 4x4 to 8x8 with an even side, not 5x5");
        let hex = GAME.check_size_in(Sizes::from(5, 7), 9, true).unwrap_err();
        assert_eq!(said(hex), "Game is played on hex boards of side 5 to 7, not 9");
        assert_eq!(said(GAME.check_players(Some(5)).unwrap_err()), "Game is a game for two to four players, not 5");
        let two = About { players: (2, 2), ..GAME };
        assert_eq!(said(two.check_players(Some(3)).unwrap_err()), "Game is a game for two players, not 3");
        let square = Geometry::Square { size: 2 };
        let read =
            |glyphs: &[&str]| GAME.read_setup(square, glyphs, "X or .", |g| ["X", "."].iter().position(|&s| s == g));
        assert_eq!(read(&["X", ".", ".", "X"]).map(|r| r.len()), Ok(4));
        assert_eq!(said(read(&["X"]).unwrap_err()), "the setup has 1 cells; the 2x2 board has 4");
        assert_eq!(said(read(&["X", ".", "O", "X"]).unwrap_err()), "a2: `O` is not a Game glyph: expected X or .");
        assert_eq!(said(SetupError::rules("no start")), "no start");
    }
}
