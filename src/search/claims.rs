//! A result claimed before a game of the common record format is over (RULINGS 9): judged against
//! the winners every continuation can reach.

use super::{search, Goal, Limits, SearchBudget, Searched, Stopped};
use crate::game::Playable;
use crate::verdict::{ClaimStatus, Unchecked};

/// Who wins a game: the winner's index in turn order, `None` when nobody does (a tie). The
/// result tokens name nothing finer (`1-0`, `0-0-1`, all zeros). A game says who won a finished
/// game and whose move it is through `winner` and `mover`: its outcome and turn for the common
/// format ([`Winner::of`]); its record format's for any game (`protocol::player`).
pub struct Winner<G> {
    players: usize,
    winner: fn(&G) -> Option<u8>,
    mover: fn(&G) -> usize,
}

impl<G> Winner<G> {
    /// The goal of a search in a game of `players` players.
    pub fn new(players: usize, winner: fn(&G) -> Option<u8>, mover: fn(&G) -> usize) -> Winner<G> {
        Winner { players, winner, mover }
    }

    /// How much `mover` likes a result: a win, then nobody winning, then anybody else's win.
    pub fn rank(mover: usize, r: Option<u8>) -> u8 {
        match r {
            Some(w) if usize::from(w) == mover => 2,
            None => 1,
            Some(_) => 0,
        }
    }

    /// How many players the game has.
    pub fn players(&self) -> usize {
        self.players
    }
}

impl<G: Playable> Winner<G> {
    /// The goal of a search in the game of `position`, of the common format.
    pub fn of(position: &G) -> Winner<G> {
        Winner::new(
            position.player_names().len(),
            |end| end.outcome().and_then(|o| o.winner).map(|w| w as u8),
            |at| at.to_move(),
        )
    }
}

impl<G> Goal<G> for Winner<G> {
    type Result = Option<u8>;

    fn result(&self, end: &G) -> Option<u8> {
        (self.winner)(end)
    }

    fn best_play(&self) -> bool {
        self.players == 2
    }

    fn prefers(&self, at: &G, a: Option<u8>, b: Option<u8>) -> bool {
        let mover = (self.mover)(at);
        Self::rank(mover, a) > Self::rank(mover, b)
    }
}

/// Every winner play can still reach from `position`, within `limits`.
pub fn winners<G: Playable>(position: &G, limits: Limits) -> Result<Searched<Option<u8>>, Stopped> {
    search(position, &Winner::of(position), limits)
}

/// A result as a claim or best play says it: `Black wins`, `nobody wins` (`a tie` in a claim, which
/// continuations "give").
fn stated(names: &[&str], winner: Option<u8>) -> String {
    match winner {
        Some(w) => format!("{} wins", names[usize::from(w)]),
        None => "nobody wins".to_string(),
    }
}

/// What play can still reach, in words: `Black or White can still win`, `Red can still win, or
/// nobody`, `nobody can win any more`.
pub fn reachable_words(names: &[&str], results: &[Option<u8>]) -> String {
    let winners: Vec<&str> = results.iter().flatten().map(|&w| names[usize::from(w)]).collect();
    let tie = results.contains(&None);
    let list = match winners.as_slice() {
        [] => return "nobody can win any more".to_string(),
        [one] => one.to_string(),
        [first @ .., last] => format!("{} or {last}", first.join(", ")),
    };
    if tie {
        format!("{list} can still win, or nobody")
    } else {
        format!("{list} can still win")
    }
}

/// Judges a claimed winner (`None`: nobody wins) of a game that is not over without a search,
/// where the rules settle it at once ([`Playable::cannot_win`]: a Splinter Quad player who is out);
/// `None` when only a search can tell.
pub fn settled<G: Playable>(position: &G, claimed: Option<u8>) -> Option<(ClaimStatus, String)> {
    let why = position.cannot_win(usize::from(claimed?))?;
    Some((
        ClaimStatus::Refuted,
        format!(
            "the record stops before the game is over, but {why}: no continuation gives {} (no search needed)",
            stated(position.player_names(), claimed)
        ),
    ))
}

/// Judges a claimed winner (`None`: nobody wins) of a game that is not over: at once where the
/// rules settle it ([`settled`]), else by searching every continuation within what is left of
/// `budget`.
pub fn judge<G: Playable>(position: &G, claimed: Option<u8>, budget: &mut SearchBudget) -> (ClaimStatus, String) {
    if let Some(settled) = settled(position, claimed) {
        return settled;
    }
    let found = match budget.spend(|limits| winners(position, limits)) {
        Err(why) => return (ClaimStatus::Unchecked(Unchecked::SearchLimit), why.to_string()),
        Ok(found) => found,
    };
    let names = position.player_names();
    let said = if claimed.is_some() { stated(names, claimed) } else { "a tie".to_string() };
    let searched = format!("{} positions searched", found.positions);
    let mut reach = reachable_words(names, &found.results);
    if let Some(best) = found.best {
        reach.push_str(&format!("; with best play {}", stated(names, best)));
    }
    let stops = "the record stops before the game is over, and";
    if found.results == [claimed] {
        (ClaimStatus::Confirmed, format!("{stops} every continuation gives {said} ({searched})"))
    } else if !found.results.contains(&claimed) {
        (ClaimStatus::Refuted, format!("{stops} no continuation gives {said}: {reach} ({searched})"))
    } else {
        (
            ClaimStatus::Unchecked(Unchecked::Open),
            format!("{stops} some continuations give {said}, others not: {reach} ({searched})"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_play_can_reach_is_said_in_the_players_names() {
        let names = ["Red", "Blue", "Green"];
        assert_eq!(reachable_words(&names, &[Some(0), Some(2)]), "Red or Green can still win");
        assert_eq!(
            reachable_words(&names, &[None, Some(0), Some(1), Some(2)]),
            "Red, Blue or Green can still win, or nobody"
        );
        assert_eq!(reachable_words(&names, &[None, Some(1)]), "Blue can still win, or nobody");
        assert_eq!(reachable_words(&names, &[None]), "nobody can win any more");
    }
}
