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
    /// The smallest and the largest board on which the game starts without a setup diagram, for
    /// every number of players: the side of a square board, or of a hex board.
    pub sizes: (u8, u8),
    /// The fewest and the most players it is played by.
    pub players: (u8, u8),
}

impl About {
    /// Whether `name` names this game: its name, its title or an alias, in any case.
    pub fn is_named(&self, name: &str) -> bool {
        let name = name.trim();
        [self.name, self.title].iter().chain(self.aliases).any(|n| n.eq_ignore_ascii_case(name))
    }
}
