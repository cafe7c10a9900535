//! The players of `referee engine`: one that picks a legal move at random, and a stronger one that
//! searches a few moves ahead weighing positions by the game's points, and plays exactly (by the
//! claim search, [`crate::search`]) once every continuation of the game fits in a small search.

use std::time::Instant;

use crate::format::Recorded;
use crate::search::claims::Winner;
use crate::search::{search, Limits, DEFAULT_SEARCH_BYTES};

/// The deepest the search player looks without a depth of its own: four moves.
pub const SEARCH_DEPTH: u32 = 4;

/// The most positions the exact search of the end of a game may solve for one move: a fraction of
/// a second.
pub const EXACT_POSITIONS: usize = 5_000;

/// Who wins a game of either notation, by its record format: the goal of the searches here.
fn winner_of<G: Recorded>(position: &G) -> Winner<G> {
    Winner::new(
        position.player_names().len(),
        |end| G::ended(end).flatten().map(|w| w as u8),
        |at| <G as crate::replay::Reader>::mover(at),
    )
}

/// The result every continuation of `position` gives, when they all give one and a search of at
/// most `positions` positions finds it: the winner's index, or `None` for nobody. `None` when the
/// result is still open, or the search too large.
pub fn decided<G: Recorded>(position: &G, positions: usize) -> Option<Option<usize>> {
    if let Some(end) = G::ended(position) {
        return Some(end);
    }
    let found = search(position, &winner_of(position), Limits::new(positions, DEFAULT_SEARCH_BYTES)).ok()?;
    match found.results.as_slice() {
        [only] => Some(only.map(usize::from)),
        _ => None,
    }
}

/// The stronger player's move in `position` (not over): a move that keeps the best result
/// there is when the end is within an exact search, else the best move of a search a few moves
/// deep (the deepest finished before `deadline`, at most `depth`) by the mover's points against the best of the
/// others'. Ties are broken by `rng`.
pub fn best_move<G: Recorded>(position: &G, deadline: Instant, depth: u32, rng: &mut fastrand::Rng) -> Option<G::Move> {
    let mut moves = position.distinct_moves();
    if moves.len() <= 1 {
        return moves.first().copied();
    }
    rng.shuffle(&mut moves);
    let mover = <G as crate::replay::Reader>::mover(position);
    if let Some(m) = exact(position, &moves, mover) {
        return Some(m);
    }
    let mut best = moves[0];
    for depth in 1..=depth.max(1) {
        match searched(position, &moves, mover, depth, deadline) {
            Some(m) => best = m,
            None => break,
        }
        if Instant::now() >= deadline {
            break;
        }
    }
    Some(best)
}

/// A move that keeps the result of best play, when the whole rest of the game fits in
/// [`EXACT_POSITIONS`] (two players; with more there is no best play to keep). `None` when it does
/// not, or when every move loses (the search by points then makes the loss hard to find).
fn exact<G: Recorded>(position: &G, moves: &[G::Move], mover: usize) -> Option<G::Move> {
    let goal = winner_of(position);
    if goal.players() != 2 {
        return None;
    }
    let limits = || Limits::new(EXACT_POSITIONS, DEFAULT_SEARCH_BYTES);
    let best = search(position, &goal, limits()).ok()?.best?;
    if Winner::<G>::rank(mover, best) == 0 {
        return None;
    }
    moves.iter().copied().find(|&m| {
        let mut child = position.clone();
        child.play_unchecked(m);
        let reached = match G::ended(&child) {
            Some(end) => Some(end.map(|w| w as u8)),
            None => search(&child, &goal, limits()).ok().and_then(|f| f.best),
        };
        reached == Some(best)
    })
}

/// The value of a position to `player`: far above any points when they have won, far below when
/// another has, else their points less the best of the others'.
fn value<G: Recorded>(position: &G, player: usize) -> f64 {
    const WON: f64 = 1e9;
    match G::ended(position) {
        Some(Some(w)) if w == player => WON,
        Some(Some(_)) => -WON,
        Some(None) => 0.0,
        None => {
            let points = <G as Recorded>::points(position);
            let mine = points.get(player).copied().unwrap_or(0.0);
            let others =
                points.iter().enumerate().filter(|&(i, _)| i != player).map(|(_, &p)| p).fold(f64::MIN, f64::max);
            mine - if others == f64::MIN { 0.0 } else { others }
        }
    }
}

/// The best root move of a search `depth` moves deep, every other player taken to play against
/// `player` (a paranoid search: with two players, minimax); `None` when `deadline` passed first.
fn searched<G: Recorded>(
    position: &G,
    moves: &[G::Move],
    player: usize,
    depth: u32,
    deadline: Instant,
) -> Option<G::Move> {
    let mut best: Option<(f64, G::Move)> = None;
    for &m in moves {
        let mut child = position.clone();
        child.play_unchecked(m);
        let alpha = best.map_or(f64::NEG_INFINITY, |(v, _)| v);
        let v = alphabeta(&child, player, depth - 1, alpha, f64::INFINITY, deadline)?;
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, m));
        }
    }
    best.map(|(_, m)| m)
}

fn alphabeta<G: Recorded>(
    position: &G,
    player: usize,
    depth: u32,
    mut alpha: f64,
    mut beta: f64,
    deadline: Instant,
) -> Option<f64> {
    if Instant::now() >= deadline {
        return None;
    }
    if depth == 0 || G::ended(position).is_some() {
        return Some(value(position, player));
    }
    let moves = position.distinct_moves();
    if moves.is_empty() {
        return Some(value(position, player));
    }
    let maximising = <G as crate::replay::Reader>::mover(position) == player;
    let mut best = if maximising { f64::NEG_INFINITY } else { f64::INFINITY };
    for m in moves {
        let mut child = position.clone();
        child.play_unchecked(m);
        let v = alphabeta(&child, player, depth - 1, alpha, beta, deadline)?;
        if maximising {
            best = best.max(v);
            alpha = alpha.max(v);
        } else {
            best = best.min(v);
            beta = beta.min(v);
        }
        if alpha >= beta {
            break;
        }
    }
    Some(best)
}
