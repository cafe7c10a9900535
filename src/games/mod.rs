//! The registry: every game referee knows, one line each. A game is its folder here (its engine,
//! its notation, its [`About`]) plus its line in `registry!`'s call below, which makes
//! [`GameKind`], [`GameKind::ALL`], the name lookup and the dispatch to each game's engine.

pub mod petrify;
pub mod phages;
pub mod quarod;
pub mod splinter;
pub mod vadrantir;

use std::fmt;

use crate::game::code::CodeError;
use crate::game::{About, Engine, WithCommonFormat, WithGame};

/// Makes [`GameKind`] from one line per game: `Variant => engine type, its About, format;` where
/// the format is `common` (the engine is [`CommonFormat`](crate::game::CommonFormat)) or `published`.
macro_rules! registry {
    ($($(#[$doc:meta])* $variant:ident => $engine:ty, $about:expr, $format:ident;)*) => {
        /// The games referee knows.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        pub enum GameKind {
            $($(#[$doc])* $variant,)*
        }

        impl GameKind {
            /// Every game, in the registry's order.
            pub const ALL: [GameKind; [$(GameKind::$variant),*].len()] = [$(GameKind::$variant),*];

            /// What the game is, as its folder declares it.
            pub fn about(self) -> &'static About {
                match self {
                    $(GameKind::$variant => &$about,)*
                }
            }

            /// Runs `work` with this game's engine.
            pub fn with_game<W: WithGame>(self, work: W) -> W::Output {
                match self {
                    $(GameKind::$variant => work.run::<$engine>(),)*
                }
            }

            /// Runs `work` with this game's engine; `None` for the games of the published notation.
            pub fn with_common_format<W: WithCommonFormat>(self, work: W) -> Option<W::Output> {
                match self {
                    $(GameKind::$variant => registry!(@run $format $engine, work),)*
                }
            }
        }
    };
    (@run common $engine:ty, $work:ident) => {
        Some($work.run::<$engine>())
    };
    (@run published $engine:ty, $work:ident) => {
        None
    };
}

/// The games referee knows, one line each: `Variant => folder::Engine, folder::ABOUT, format;`,
/// the format `common` (the engine is [`CommonFormat`](crate::game::CommonFormat)) or `published`.
/// Every dispatch over the games is made from this list, by the macro named in the call
/// (`registry` here, the record formats' in `judge.rs`), so that a game is added in one place.
macro_rules! each_game {
    ($then:ident) => {
        $crate::games::each_game! { @paths $then
            /// Quadraphages: on a 9x9 board, each side's stones move the number of cells a player announced,
            /// marking the cells they leave (published notation).
            Quadraphages => phages::Phages, phages::QUADRAPHAGES, published;
            /// Hexaphages: the rules of Quadraphages on a hex board (published notation).
            Hexaphages => phages::Phages, phages::HEXAPHAGES, published;
            /// Quarod: pieces with rods, placed in engaged Black-White pairs and swapped along engagements.
            Quarod => quarod::Quarod, quarod::ABOUT, common;
            /// Petrify: placing disks and capturing by sliding, which leaves a block behind.
            Petrify => petrify::Petrify, petrify::ABOUT, common;
            /// Vadrantir: stones placed on a hex board, each group held to at most one stone more than the
            /// largest enemy group it touches.
            Vadrantir => vadrantir::Vadrantir, vadrantir::ABOUT, common;
            /// Splinter Quad: two to four players slide pieces that push whole lines, off the board
            /// included; after every move only the largest group of pieces stays.
            Splinter => splinter::Splinter, splinter::ABOUT, common;
        }
    };
    (@paths $then:ident $($(#[$doc:meta])* $variant:ident => $folder:ident::$engine:ident, $afolder:ident::$about:ident, $format:ident;)*) => {
        $then! {
            $($(#[$doc])* $variant => $crate::games::$folder::$engine, $crate::games::$afolder::$about, $format;)*
        }
    };
}
pub(crate) use each_game;

each_game!(registry);

impl GameKind {
    /// The game's name as its rules write it, for captions and titles.
    pub fn title(self) -> &'static str {
        self.about().title
    }

    /// The lowercase name used in JSON and on the command line.
    pub fn name(self) -> &'static str {
        self.about().name
    }

    /// The game a name or a `[Game]` tag names: its name, its title or an alias, in any case.
    pub fn from_name(name: &str) -> Option<GameKind> {
        GameKind::ALL.into_iter().find(|g| g.about().is_named(name))
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The game a position code is of, from the name it starts with.
pub fn game_of(code: &str) -> Result<GameKind, CodeError> {
    let name = code.split('_').next().unwrap_or("");
    GameKind::ALL.into_iter().find(|g| g.name() == name).ok_or_else(|| {
        let known = GameKind::ALL.iter().map(|g| g.name()).collect::<Vec<_>>().join(", ");
        CodeError::new(0, format!("a position code starts with its game's name ({known}) and `_`, not `{name}`"))
    })
}

/// Reads a code of any game and writes the position it describes again: the code as referee
/// writes that position (the same text for every code referee wrote).
pub fn rewrite(code: &str) -> Result<String, CodeError> {
    struct Rewrite<'c>(&'c str);
    impl WithGame for Rewrite<'_> {
        type Output = Result<String, CodeError>;
        fn run<G: Engine>(self) -> Self::Output {
            G::from_code(self.0).map(|p| p.code())
        }
    }
    game_of(code)?.with_game(Rewrite(code))
}
