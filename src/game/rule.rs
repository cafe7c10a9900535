//! The rules as the project states them, one document a game: `docs/rules/<name>.md`, where
//! `<name>` is the game's [`About::name`]. Every rule there has the anchor `<name>-<rule>`, so a
//! refused move can say where the rule it breaks is written (docs/rules/README.md).

use std::fmt;

use super::About;

/// An engine's reason for refusing a move, naming the rule the move breaks.
pub trait BreaksRule {
    /// Every rule [`BreaksRule::rule`] names: what the documents must hold an anchor for
    /// (tests/rules_docs.rs checks that they do).
    const RULES: &'static [&'static str];
    /// The rule this reason comes from, by its name within the game (`capture`): the section
    /// `<game>-<rule>` of the game's document.
    fn rule(&self) -> &'static str;
}

/// A rule of one game: a section of its document in `docs/rules/`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rule {
    /// The game.
    pub game: &'static About,
    /// The rule's name within the game, as [`BreaksRule::rule`] gives it.
    pub name: &'static str,
}

impl Rule {
    /// The section every game's document has on how its records are written: what a token that
    /// reads as no move of the game breaks.
    pub const NOTATION: &'static str = "notation";

    /// The rule `name` of `game`.
    pub fn of(game: &'static About, name: &'static str) -> Rule {
        Rule { game, name }
    }

    /// The game's rules document, from the repository's root: `docs/rules/quarod.md` (for a game
    /// defined outside this crate, the same path in the repository that defines it).
    pub fn document(game: &About) -> String {
        format!("docs/rules/{}.md", game.name)
    }

    /// The rule's anchor in the document: `quarod-placement`. The game's name comes first so that
    /// anchors stay unique when the documents are shown together (Quadraphages and Hexaphages
    /// share an engine, and so their rules' names).
    pub fn anchor(&self) -> String {
        format!("{}-{}", self.game.name, self.name)
    }
}

impl fmt::Display for Rule {
    /// The link to the rule from the repository's root: `docs/rules/quarod.md#quarod-placement`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#{}", Rule::document(self.game), self.anchor())
    }
}
