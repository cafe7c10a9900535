//! The harness of the rules tests (`tests/*_rules.rs`, `tests/rules.rs`): a position set up from a
//! diagram, tokens tried on it one at a time, and a transcript of every move, refusal and note with
//! the diagrams, for a snapshot. Each game says how it reads a token and names the player to move
//! ([`Transcribed`]); the rest is the same for every game.

#![allow(dead_code)]

use std::fmt::Debug;

use referee::game::{Game, Outcome, Playable};
use referee::geometry::{Cell, CellLabel};
use referee::render::ascii::diagram;

/// A game as its rules tests read and transcribe it.
pub trait Transcribed: Game + PartialEq + Debug
where
    Self::Illegal: PartialEq,
{
    /// What playing a move tells the test besides that it was legal: `()` for most games.
    type Played: Default + PartialEq + Debug;

    /// Who plays next, as the transcript names them.
    fn who(&self) -> String;
    /// The move `tok` stands for here, as a record reads it; a token that is no move at all
    /// fails the test.
    fn read(&self, tok: &str) -> Result<Self::Move, Self::Illegal>;
    /// Plays a move: what it did (and the words the transcript adds after `ok`), or why it is
    /// refused.
    fn play_told(&mut self, m: Self::Move) -> Result<(Self::Played, String), Self::Illegal> {
        self.play(m).map(|()| (Self::Played::default(), String::new()))
    }
    /// The transcript's first lines.
    fn started(&self) -> String {
        format!("start, {} to move:\n{}", self.who(), diagram(self))
    }
    /// What the transcript shows of the position.
    fn shown(&self) -> String {
        diagram(self)
    }
}

/// A cell label, or the test fails.
pub fn label(s: &str) -> CellLabel {
    CellLabel::parse(s).unwrap_or_else(|| panic!("{s} is not a cell label"))
}

/// Sorted strings.
pub fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// A position with the transcript of everything tried on it.
pub struct Session<G: Transcribed>
where
    G::Illegal: PartialEq,
{
    pub pos: G,
    pub log: String,
}

impl<G: Transcribed> Session<G>
where
    G::Illegal: PartialEq,
{
    pub fn new(pos: G) -> Session<G> {
        let log = pos.started();
        Session { pos, log }
    }

    /// The cell a label names on this board, or the test fails.
    pub fn cell(&self, s: &str) -> Cell {
        self.pos.geometry().parse_label(label(s)).unwrap_or_else(|| panic!("{s} is not on the board"))
    }

    /// Tries a token as a record reads it, and plays it if legal; logs the outcome either way.
    pub fn try_play(&mut self, tok: &str) -> Result<G::Played, G::Illegal> {
        let who = self.pos.who();
        let result = self.pos.read(tok).and_then(|m| self.pos.play_told(m));
        match &result {
            Ok((_, told)) => self.log.push_str(&format!("{who} {tok}: ok{told}\n")),
            Err(why) => self.log.push_str(&format!("{who} {tok}: refused: {why}\n")),
        }
        result.map(|(played, _)| played)
    }

    /// Plays a space-separated list of tokens, each of which must be legal: what the last did.
    pub fn ok(&mut self, tokens: &str) -> G::Played {
        let mut last = G::Played::default();
        for tok in tokens.split_whitespace() {
            match self.try_play(tok) {
                Ok(played) => last = played,
                Err(why) => panic!("{tok} refused: {why}\n{}", self.log),
            }
        }
        last
    }

    /// Tries a token that must be refused for exactly this reason (the position does not change).
    pub fn refused(&mut self, tok: &str, expected: G::Illegal) {
        let before = self.pos.clone();
        assert_eq!(self.try_play(tok), Err(expected), "{tok}\n{}", self.log);
        assert_eq!(self.pos, before, "a refused move changed the position");
    }

    /// Plays a token the rules refuse for exactly this reason, as lenient replay does: through
    /// `play_refused`.
    pub fn lenient(&mut self, tok: &str, expected: G::Illegal) {
        let who = self.pos.who();
        let m = self.pos.read(tok).unwrap_or_else(|e| panic!("{tok}: {e}"));
        assert_eq!(self.pos.check(m), Err(expected.clone()), "{tok}\n{}", self.log);
        self.log.push_str(&format!("{who} {tok}: refused, played leniently: {expected}\n"));
        self.pos.play_refused(m, &expected);
    }

    /// Adds the position to the transcript.
    pub fn show(&mut self) {
        let shown = self.pos.shown();
        self.log.push_str(&shown);
    }

    pub fn note(&mut self, text: &str) {
        self.log.push_str(&format!("-- {text}\n"));
    }

    /// The transcript, ending with the current position.
    pub fn transcript(&self) -> String {
        format!("{}{}", self.log, self.pos.shown())
    }
}

impl<G: Transcribed + Playable> Session<G>
where
    G::Illegal: PartialEq,
{
    /// Logs how the game ended, or that it is not over.
    pub fn outcome(&mut self) -> Option<Outcome> {
        let o = self.pos.outcome();
        match &o {
            Some(o) => self.note(&format!(
                "outcome: winner {:?}, points {:?}: {}",
                o.winner.map(|i| self.pos.player_names()[i]),
                o.points,
                o.detail
            )),
            None => self.note("the game is not over"),
        }
        o
    }
}
