//! Random legal games, for tests, benchmarks and `referee random`.

use super::Game;

/// Plays uniformly random legal moves from `start` until the game is over or `max_moves` are
/// played; returns the moves.
pub fn random_game<G: Game>(start: &G, seed: u64, max_moves: usize) -> Vec<G::Move> {
    random_game_preferring(start, seed, max_moves, |_| true)
}

/// Plays random legal moves, uniformly among those `preferred` accepts while there are any, among
/// all of them otherwise.
pub fn random_game_preferring<G: Game>(
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
