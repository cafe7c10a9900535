//! Random legal games, for tests, benchmarks and `referee random`.

use crate::game::{CommonFormat, Game, WithCommonFormat};
use crate::games::phages::{self, Phages, PhagesMove};
use crate::games::GameKind;
use crate::geometry::Geometry;

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

/// The record of the random game of `seed` of `game`, on a board of `size` (the game's default
/// if `None`) for `players` players; `Err` says why the game has no such start. The common format keeps the seed in a `[Seed]` tag;
/// the published Quadraphages/Hexaphages notation has no tags, so a line of prose before the
/// record (which the reader passes over) says it.
pub fn random_record(game: GameKind, size: Option<u8>, players: Option<u8>, seed: u64) -> Result<String, String> {
    struct Random {
        size: Option<u8>,
        players: Option<u8>,
        seed: u64,
    }
    impl WithCommonFormat for Random {
        type Output = Result<String, String>;
        fn run<G: CommonFormat>(self) -> Self::Output {
            let start = G::start(self.size, self.players)?;
            if let Some(why) = start.no_game() {
                return Err(format!("{why}: choose a larger --size"));
            }
            let moves = random_game(&start, self.seed, 1_000_000);
            Ok(crate::write::write_common_record(&start, &moves, &[("Seed", self.seed.to_string())]))
        }
    }
    if let Some(text) = game.with_common_format(Random { size, players, seed }) {
        return text;
    }
    if players.is_some_and(|p| p != 2) {
        return Err(format!("{game} is a game for two players"));
    }
    let geometry = match game {
        GameKind::Quadraphages => Geometry::Square { size: size.unwrap_or(9) },
        _ => Geometry::Hex { side: size.unwrap_or(4) },
    };
    let start = phages::notation::default_start(geometry)
        .ok_or_else(|| format!("no start position is known for {game} of size {}", size.unwrap_or(0)))?;
    let moves = random_phages_game(&start, seed, 1_000_000);
    Ok(format!("Seed: {seed}\n{}", phages::notation::write_record(&start, &moves)))
}
