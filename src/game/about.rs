//! What a game is, declared once in its own folder: the registry (`crate::games`) and the command
//! line read everything they say about a game from here.

/// How a game's records are written (grammar.md).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Format {
    /// The published notation of Quadraphages and Hexaphages: a title, a column header, numbered
    /// lines of stones and announced numbers.
    Published,
    /// The common record format: tag pairs, numbered movetext, a result token, optional diagrams.
    Common,
}

/// A game, as the registry, the reports and the command line name and describe it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct About {
    /// The lowercase name used in JSON, in position codes and on the command line.
    pub name: &'static str,
    /// The name as the game's rules write it, for captions and titles.
    pub title: &'static str,
    /// Other names a `[Game]` tag or `--game` may give it, in any case, besides its name and title
    /// (`--game` reads a `-` as a space too, so a title of two words needs no alias).
    pub aliases: &'static [&'static str],
    /// One line for `--game`'s help: the notation, the board, the sizes and players allowed.
    pub help: &'static str,
    /// The notation its records are written in.
    pub format: Format,
    /// The boards on which the game starts without a setup diagram, for every number of players:
    /// the side of a square board, or of a hex board.
    pub sizes: Sizes,
    /// The fewest and the most players it is played by.
    pub players: (u8, u8),
}

/// The board sizes a game starts on: from `smallest` to `largest`, every `step`th (a game played
/// on even boards only has a step of 2 from an even size).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Sizes {
    /// The smallest size.
    pub smallest: u8,
    /// The largest size.
    pub largest: u8,
    /// How far apart the sizes are: 1 for every size.
    pub step: u8,
}

impl Sizes {
    /// Every size from `smallest` to `largest`.
    pub const fn from(smallest: u8, largest: u8) -> Sizes {
        Sizes { smallest, largest, step: 1 }
    }

    /// These sizes, only every `step`th from the smallest (`Sizes::from(4, 16).every(2)`: the even
    /// sizes from 4 to 16).
    pub const fn every(self, step: u8) -> Sizes {
        Sizes { step, ..self }
    }

    /// Whether the game starts on a board of `size`.
    pub fn allows(self, size: u8) -> bool {
        (self.smallest..=self.largest).contains(&size) && (size - self.smallest).is_multiple_of(self.step.max(1))
    }

    /// The sizes, from the smallest.
    pub fn iter(self) -> impl Iterator<Item = u8> + Clone {
        (self.smallest..=self.largest).step_by(usize::from(self.step.max(1)))
    }

    /// The size halfway between the smallest and the largest, or the nearest smaller one.
    pub fn middle(self) -> u8 {
        let step = self.step.max(1);
        let count = (self.largest - self.smallest) / step + 1;
        self.smallest + (count - 1) / 2 * step
    }
}

/// `9 to 26`, `4 to 16, every 2nd`.
impl std::fmt::Display for Sizes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} to {}", self.smallest, self.largest)?;
        match self.step {
            0 | 1 => Ok(()),
            2 => f.write_str(", every 2nd"),
            3 => f.write_str(", every 3rd"),
            n => write!(f, ", every {n}th"),
        }
    }
}

impl About {
    /// Whether `name` names this game: its name, its title or an alias, in any case.
    pub fn is_named(&self, name: &str) -> bool {
        let name = name.trim();
        [self.name, self.title].iter().chain(self.aliases).any(|n| n.eq_ignore_ascii_case(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game on even boards only declares a step of 2: odd sizes are not its, and its sizes,
    /// middle and words say so; a step of 1 is every size, as the games of referee have it.
    #[test]
    fn sizes_are_a_range_with_a_step() {
        let even = Sizes::from(4, 16).every(2);
        assert_eq!(even.iter().collect::<Vec<_>>(), [4, 6, 8, 10, 12, 14, 16]);
        assert!(even.allows(8) && !even.allows(9) && !even.allows(2) && !even.allows(18));
        assert_eq!((even.middle(), even.to_string()), (10, "4 to 16, every 2nd".to_string()));
        let every = Sizes::from(2, 26);
        assert_eq!((every.iter().count(), every.middle(), every.to_string()), (25, 14, "2 to 26".to_string()));
        assert!(every.allows(2) && every.allows(26) && !every.allows(1));
        let one = Sizes::from(9, 9);
        assert_eq!((one.iter().collect::<Vec<_>>(), one.middle()), (vec![9], 9));
    }
}
