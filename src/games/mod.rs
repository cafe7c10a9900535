//! The registry: every game referee knows, one line each. A game is its folder here (its engine,
//! its notation, its [`About`]) plus its line in `each_game!` below, which makes [`GameKind`],
//! [`GameKind::ALL`] and the name lookup here, and the one dispatch to each game's engine and
//! record format (`GameKind::with_game`, in `crate::judge`, above the record formats).

pub mod petrify;
pub mod phages;
pub mod quarod;
pub mod splinter;
pub mod vadrantir;

use std::fmt;

use crate::game::code::CodeError;
use crate::game::About;

/// Makes [`GameKind`] from one line per game: `Variant => engine type, its About;`.
macro_rules! registry {
    ($($(#[$doc:meta])* $variant:ident => $engine:ty, $about:expr;)*) => {
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
        }
    };
}

/// The games referee knows, one line each: `Variant => folder::Engine, folder::ABOUT;` (the
/// engine carries its record format, the About says which it is). What is made of the list is made
/// by the macro named in the call (`registry` here, the dispatch in `judge.rs`), so that a game is
/// added in one place.
macro_rules! each_game {
    ($then:ident) => {
        $crate::games::each_game! { @paths $then
            /// Quadraphages: on a 9x9 board, each side's stones move the number of cells a player announced,
            /// marking the cells they leave (published notation).
            Quadraphages => phages::Phages, phages::QUADRAPHAGES;
            /// Hexaphages: the rules of Quadraphages on a hex board (published notation).
            Hexaphages => phages::Phages, phages::HEXAPHAGES;
            /// Quarod: pieces with rods, placed in engaged Black-White pairs and swapped along engagements.
            Quarod => quarod::Quarod, quarod::ABOUT;
            /// Petrify: placing disks and capturing by sliding, which leaves a block behind.
            Petrify => petrify::Petrify, petrify::ABOUT;
            /// Vadrantir: stones placed on a hex board, each group held to at most one stone more than the
            /// largest enemy group it touches.
            Vadrantir => vadrantir::Vadrantir, vadrantir::ABOUT;
            /// Splinter Quad: two to four players slide pieces that push whole lines, off the board
            /// included; after every move only the largest group of pieces stays.
            Splinter => splinter::Splinter, splinter::ABOUT;
        }
    };
    (@paths $then:ident $($(#[$doc:meta])* $variant:ident => $folder:ident::$engine:ident, $afolder:ident::$about:ident;)*) => {
        $then! {
            $($(#[$doc])* $variant => $crate::games::$folder::$engine, $crate::games::$afolder::$about;)*
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

    /// The game of the registry that `about` describes.
    pub fn of(about: &About) -> Option<GameKind> {
        GameKind::ALL.into_iter().find(|g| g.name() == about.name)
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
        let known: Vec<&str> = GameKind::ALL.iter().map(|g| g.name()).collect();
        no_such_game(name, &known)
    })
}

/// Why a code that starts with `name` is of none of the games `known`.
pub fn no_such_game(name: &str, known: &[&str]) -> CodeError {
    CodeError::new(
        0,
        format!("a position code starts with its game's name ({}) and `_`, not `{name}`", known.join(", ")),
    )
}
