//! Black and White, the two colours of most two-player games, and a pair of anything indexed by
//! them (as shakmaty's `Color` and `ByColor`): a game of two colours names its players by these
//! rather than by a colour type of its own. A game whose rules name other colours (Petrify's Blue
//! and Orange, the phages' X and O) keeps its own words.

use std::fmt;
use std::ops::{Index, IndexMut};

/// The two colours, in turn order from the start: Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Colour {
    /// Black: moves first.
    Black,
    /// White.
    White,
}

impl Colour {
    /// Both colours, Black first.
    pub const BOTH: [Colour; 2] = [Colour::Black, Colour::White];
    /// Their names, Black first, as [`crate::game::BoardView::player_names`] gives them.
    pub const NAMES: [&'static str; 2] = ["Black", "White"];

    /// The index into [`crate::game::BoardView::player_names`] and into a [`ByColour`]: Black 0,
    /// White 1.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour of the player at `index` in turn order from the start (0 Black, 1 White).
    pub fn of_index(index: usize) -> Option<Colour> {
        Colour::BOTH.get(index).copied()
    }

    /// The other colour.
    pub fn opponent(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    /// `Black` or `White`, as records and messages name the colour.
    pub fn name(self) -> &'static str {
        Colour::NAMES[self.index()]
    }

    /// `B` or `W`: how diagrams write a stone of the colour, and the first character of a longer
    /// glyph.
    pub fn letter(self) -> char {
        ['B', 'W'][self.index()]
    }

    /// [`Colour::letter`] as a glyph.
    pub fn glyph(self) -> &'static str {
        ["B", "W"][self.index()]
    }

    /// `b` or `w`: how a position code writes the colour (see
    /// [`Field::colour`](crate::game::code::Field::colour)).
    pub fn word(self) -> &'static str {
        ["b", "w"][self.index()]
    }

    /// The colour a glyph `B` or `W` writes.
    pub fn from_glyph(glyph: &str) -> Option<Colour> {
        Colour::BOTH.into_iter().find(|c| c.glyph() == glyph)
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One `T` for each colour: `by[Colour::White]`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ByColour<T>(pub [T; 2]);

impl<T> ByColour<T> {
    /// `black`'s and `white`'s.
    pub const fn new(black: T, white: T) -> ByColour<T> {
        ByColour([black, white])
    }

    /// Each colour's, as `f` makes it from the colour.
    pub fn from_fn(mut f: impl FnMut(Colour) -> T) -> ByColour<T> {
        ByColour([f(Colour::Black), f(Colour::White)])
    }

    /// Each colour's `T` made into a `U`.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> ByColour<U> {
        ByColour(self.0.map(f))
    }

    /// Each colour with its `T`, Black first.
    pub fn iter(&self) -> impl Iterator<Item = (Colour, &T)> {
        Colour::BOTH.into_iter().zip(&self.0)
    }
}

impl<T> Index<Colour> for ByColour<T> {
    type Output = T;

    fn index(&self, colour: Colour) -> &T {
        &self.0[colour.index()]
    }
}

impl<T> IndexMut<Colour> for ByColour<T> {
    fn index_mut(&mut self, colour: Colour) -> &mut T {
        &mut self.0[colour.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The colours read back from their glyphs and indices, each the other's opponent, and a pair
    /// indexed, mapped and listed by them.
    #[test]
    fn colours_and_pairs() {
        for c in Colour::BOTH {
            assert_eq!((Colour::from_glyph(c.glyph()), Colour::of_index(c.index())), (Some(c), Some(c)));
            assert_eq!((c.opponent().opponent(), c.letter().to_string()), (c, c.glyph().to_string()));
        }
        assert_eq!((Colour::from_glyph("X"), Colour::of_index(2)), (None, None));
        let mut discs = ByColour::new(2, 3);
        discs[Colour::White] += 1;
        assert_eq!((discs[Colour::Black], discs[Colour::White]), (2, 4));
        assert_eq!(discs.map(|n| n * 10), ByColour::new(20, 40));
        assert_eq!(ByColour::from_fn(Colour::name), ByColour::new("Black", "White"));
        let listed: Vec<String> = discs.iter().map(|(c, n)| format!("{c} {n}")).collect();
        assert_eq!(listed, ["Black 2", "White 4"]);
    }
}
