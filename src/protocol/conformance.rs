//! `referee conformance`: a suite ([`super::suite`]) run against an engine over the protocol. Each
//! entry's position is set (by its code, or as a start and moves when the engine reads no codes),
//! its legal moves and perft counts asked and compared with the suite's; where a count differs,
//! the run descends through `divide` (or, for an engine without it, `moves` and `perft` below each
//! move) to the first position where the engine's legal moves and referee's are not the same, and
//! says which moves only one side has.
//!
//! An engine that crashes, hangs or answers nonsense fails the entry it was asked about, with the
//! reason, and is started again for the next one.

use std::time::Duration;

use serde::Serialize;

use super::client::{Client, Fault};
use super::suite::Entry;
use super::{held_from_code, Held};
use crate::judge::Games;

/// How an entry went.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    /// The engine's moves, counts and result are referee's.
    Passed,
    /// They are not: where, and how.
    Differs(Difference),
    /// The engine failed (crashed, hung, answered nonsense, refused a command it must do).
    Fault {
        /// What went wrong.
        fault: String,
    },
    /// Not checked: the engine refused the position's code and the suite gives no start for it.
    Skipped {
        /// Why.
        why: String,
    },
}

/// The first position where an engine and referee differ.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Difference {
    /// What differs, in words: `perft 3: referee counts 1840, the engine 1839`.
    pub what: String,
    /// The position's code.
    pub code: String,
    /// The position as `position` takes it, from the entry's start (`start quarod size 4 moves …`)
    /// or code (`code CODE moves …`).
    pub position: String,
    /// The legal moves referee has there and the engine does not.
    pub only_referee: Vec<String>,
    /// The moves the engine has there and referee does not.
    pub only_engine: Vec<String>,
}

/// The outcome of one entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Checked {
    /// The game, by name.
    pub game: String,
    /// The entry's id.
    pub id: String,
    /// How it went.
    #[serde(flatten)]
    pub status: Status,
}

/// A run of suites against one engine, started as `argv`, restarted after a fault.
pub struct Conformance<S> {
    games: S,
    argv: Vec<String>,
    client: Option<Client>,
    /// The longest wait for any one answer (a `perft` or a `divide` included).
    pub wait: Duration,
    /// The deepest count asked, if less than the suite's.
    pub depth: Option<u32>,
}

impl<S: Games> Conformance<S> {
    /// A run against the engine `argv`, started now: `Err` when it does not start or greet.
    pub fn start(games: S, argv: Vec<String>, wait: Duration) -> Result<Conformance<S>, Fault> {
        let client = Client::start(&argv, wait)?;
        Ok(Conformance { games, argv, client: Some(client), wait, depth: None })
    }

    /// The engine's name and author, as it gave them.
    pub fn engine(&self) -> (Option<&str>, Option<&str>) {
        match &self.client {
            Some(c) => (c.name.as_deref(), c.author.as_deref()),
            None => (None, None),
        }
    }

    /// Checks the engine on `entry` of `game`'s suite.
    pub fn check(&mut self, game: &str, entry: &Entry) -> Checked {
        let status = match self.check_entry(entry) {
            Ok(status) => status,
            Err(fault) => {
                // The next entry starts it afresh.
                self.client = None;
                Status::Fault { fault: fault.to_string() }
            }
        };
        Checked { game: game.to_string(), id: entry.id.clone(), status }
    }

    fn client(&mut self) -> Result<&mut Client, Fault> {
        if self.client.is_none() {
            self.client = Some(Client::start(&self.argv, self.wait)?);
        }
        Ok(self.client.as_mut().expect("started"))
    }

    fn check_entry(&mut self, entry: &Entry) -> Result<Status, Fault> {
        let wait = self.wait;
        let held =
            held_from_code(self.games, &entry.code).map_err(|why| Fault::Start(format!("{}: {why}", entry.id)))?;
        // The position by its code; by its start where the engine refuses the code.
        let code = format!("code {}", entry.code);
        let base = match self.client()?.position(&code, wait) {
            Ok(()) => code,
            Err(Fault::Refused { why, .. }) => match &entry.start {
                Some(start) => {
                    let start = format!("start {start}");
                    self.client()?.position(&start, wait)?;
                    start
                }
                None => {
                    return Ok(Status::Skipped {
                        why: format!("the engine refused its code (error {why}), and it is not reached from a start"),
                    })
                }
            },
            Err(other) => return Err(other),
        };
        let theirs = self.client()?.moves(wait)?;
        if let Some(difference) = moves_differ(&base, held.as_ref(), &entry.moves, &theirs) {
            return Ok(Status::Differs(difference));
        }
        for &(depth, count) in &entry.counts {
            if self.depth.is_some_and(|most| depth > most) {
                break;
            }
            let counted = self.client()?.perft(depth, wait)?;
            if counted != count {
                let what = format!("perft {depth}: referee counts {count}, the engine {counted}");
                return self.descend(base, held, depth, what).map(Status::Differs);
            }
        }
        if let Some(result) = &entry.result {
            let said = self.client()?.result(wait)?;
            if &said != result {
                return Ok(Status::Differs(Difference {
                    what: format!("result: the game is over, {result}; the engine says {said}"),
                    code: entry.code.clone(),
                    position: base,
                    only_referee: Vec::new(),
                    only_engine: Vec::new(),
                }));
            }
        }
        Ok(Status::Passed)
    }

    /// From a position (`base` and the moves played on `held` since) whose count at `depth`
    /// differs, down to the first position where the legal moves differ.
    fn descend(
        &mut self,
        base: String,
        mut held: Box<dyn Held>,
        mut depth: u32,
        what: String,
    ) -> Result<Difference, Fault> {
        let wait = self.wait;
        let mut path: Vec<String> = Vec::new();
        let at = |path: &[String]| {
            if path.is_empty() {
                base.clone()
            } else if base.contains(" moves ") {
                format!("{base} {}", path.join(" "))
            } else {
                format!("{base} moves {}", path.join(" "))
            }
        };
        loop {
            let here = at(&path);
            let difference = |what: String, held: &dyn Held, only_referee, only_engine| Difference {
                what,
                code: held.code(),
                position: here.clone(),
                only_referee,
                only_engine,
            };
            let ours = summed(held.divide(depth));
            let theirs = match self.client()?.divide(depth, wait) {
                Ok(split) => summed(split),
                // No divide: the moves, and the count below each.
                Err(Fault::Refused { .. }) => {
                    let mut split = Vec::new();
                    for m in self.client()?.moves(wait)? {
                        self.client()?.position(&extended(&here, &m), wait)?;
                        split.push((m.clone(), self.client()?.perft(depth - 1, wait)?));
                    }
                    self.client()?.position(&here, wait)?;
                    summed(split)
                }
                Err(other) => return Err(other),
            };
            let only = |a: &[(String, u64)], b: &[(String, u64)]| -> Vec<String> {
                a.iter().filter(|(m, _)| !b.iter().any(|(n, _)| n == m)).map(|(m, _)| m.clone()).collect()
            };
            let (only_referee, only_engine) = (only(&ours, &theirs), only(&theirs, &ours));
            if !only_referee.is_empty() || !only_engine.is_empty() {
                let what = if path.is_empty() {
                    format!("{what}; the legal moves differ at the position itself")
                } else {
                    format!("{what}; the legal moves first differ after {}", path.join(" "))
                };
                return Ok(difference(what, held.as_ref(), only_referee, only_engine));
            }
            let Some((m, ours, theirs)) = ours
                .iter()
                .zip(&theirs)
                .find(|(a, b)| a.1 != b.1)
                .or_else(|| ours.iter().find_map(|a| theirs.iter().find(|b| b.0 == a.0 && b.1 != a.1).map(|b| (a, b))))
                .map(|(a, b)| (a.0.clone(), a.1, b.1))
            else {
                let what = format!(
                    "{what}, but the engine's divide {depth} after {} adds up to referee's count",
                    path.join(" ")
                );
                return Ok(difference(what, held.as_ref(), Vec::new(), Vec::new()));
            };
            if depth == 1 {
                let what = format!("{what}; here the engine counts {m} {theirs} times, referee {ours}");
                return Ok(difference(what, held.as_ref(), Vec::new(), Vec::new()));
            }
            let parent = held.code();
            held.play(&m).map_err(Fault::Start)?;
            path.push(m.clone());
            depth -= 1;
            self.client()?.position(&at(&path), wait)?;
            let counted = self.client()?.perft(depth, wait)?;
            let count = held.perft(depth);
            if counted == count {
                // The move names several moves (the stays of different stones): the protocol
                // sets the first, whose counts agree; the difference is below another of them.
                let what = format!(
                    "{what}: below {m} referee counts {ours} and the engine {theirs}, but {m} stands for \
                     several moves here and the one `position` plays counts alike"
                );
                path.pop();
                return Ok(Difference {
                    what,
                    code: parent,
                    position: at(&path),
                    only_referee: Vec::new(),
                    only_engine: Vec::new(),
                });
            }
        }
    }
}

/// `here` with one move more.
fn extended(here: &str, m: &str) -> String {
    if here.contains(" moves ") {
        format!("{here} {m}")
    } else {
        format!("{here} moves {m}")
    }
}

/// A divide with each move once, its counts added up (the stays of several stones, written alike),
/// in the order of their first line.
fn summed(split: Vec<(String, u64)>) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = Vec::new();
    for (m, n) in split {
        match out.iter_mut().find(|(k, _)| *k == m) {
            Some(entry) => entry.1 += n,
            None => out.push((m, n)),
        }
    }
    out
}

/// Where the engine's legal moves (`theirs`) are not referee's (`ours`) at `position`: moves only one
/// side has, or a move the engine lists twice.
fn moves_differ(position: &str, held: &dyn Held, ours: &[String], theirs: &[String]) -> Option<Difference> {
    let only = |a: &[String], b: &[String]| -> Vec<String> { a.iter().filter(|m| !b.contains(m)).cloned().collect() };
    let (only_referee, only_engine) = (only(ours, theirs), only(theirs, ours));
    let twice: Vec<&String> =
        theirs.iter().enumerate().filter(|(i, m)| theirs[..*i].contains(m)).map(|(_, m)| m).collect();
    let what = if !only_referee.is_empty() || !only_engine.is_empty() {
        format!("moves: referee has {} legal moves, the engine {}", ours.len(), theirs.len())
    } else if let Some(m) = twice.first() {
        format!("moves: the engine lists {m} more than once")
    } else {
        return None;
    };
    Some(Difference { what, code: held.code(), position: position.to_string(), only_referee, only_engine })
}
