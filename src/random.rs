//! Random legal games, for tests, benchmarks and `referee random`.

use crate::game::Game;
use crate::games::phages::{Phages, PhagesMove};

/// Plays uniformly random legal moves from `start` until the game is over or `max_moves` are
/// played; returns the moves.
pub fn random_game<G: Game>(start: &G, seed: u64, max_moves: usize) -> Vec<G::Move> {
    random_game_preferring(start, seed, max_moves, |_| true)
}

/// A random Quadraphages or Hexaphages game ([`random_game`]) whose record reads one way only:
/// in each phase the stones that can move do so first, in random order, and the stuck stones
/// stay last. A stuck stone stays stuck for the rest of its phase (the cells its side's moves
/// leave are marked), so this is still any stone's play; but a `----` written between two moves
/// of a phase, with three stones a side, may stand for either stuck stone, and the choice can
/// decide when the game ends (RULINGS 5b): a record with its stays last has no such choice,
/// so its claimed result holds in its only reading.
pub fn random_phages_game(start: &Phages, seed: u64, max_moves: usize) -> Vec<PhagesMove> {
    random_game_preferring(start, seed, max_moves, |m| !matches!(m, PhagesMove::Stay { .. }))
}

/// Plays random legal moves, uniformly among those `preferred` accepts while there are any, among
/// all of them otherwise.
fn random_game_preferring<G: Game>(
    start: &G,
    seed: u64,
    max_moves: usize,
    preferred: impl Fn(&G::Move) -> bool,
) -> Vec<G::Move> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut position = start.clone();
    let mut moves = Vec::new();
    while !position.is_over() && moves.len() < max_moves {
        let mut legal = position.legal_moves();
        if legal.is_empty() {
            break;
        }
        if legal.iter().any(&preferred) {
            legal.retain(&preferred);
        }
        let m = legal[rng.usize(..legal.len())];
        position.play_unchecked(m);
        moves.push(m);
    }
    moves
}
