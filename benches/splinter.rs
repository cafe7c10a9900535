//! Throughput of the Splinter Quad engine, per player count on the default boards:
//!
//! * `replay/<n>-players`: every move of 100 generated games checked and played (`check`, then
//!   `play_unchecked`, as `referee::replay::replay` does), moves/s;
//! * `playout/<n>-players`: random games from the start (`legal_moves` and `play_unchecked` per
//!   move, as `referee::random::random_game` does), moves/s.
//!
//! The games are random legal games played to their end from fixed seeds.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

use referee::game::Playable;
use referee::games::splinter::{Splinter, SplinterMove};
use referee::random::random_game;

#[path = "common/mod.rs"]
mod support;

/// Games replayed per player count.
const GAMES: u64 = 100;
/// Games played out per iteration of the playout benchmark.
const PLAYOUTS: u64 = 10;
/// Far more moves than any game lasts: every generated game is played to its end.
const MAX_MOVES: usize = 100_000;

fn start(players: u8) -> Splinter {
    Splinter::start(None, Some(players)).expect("a default start")
}

fn replays(c: &mut Criterion) {
    let mut group = support::group(c, "replay");
    for players in 2..=4 {
        let start = start(players);
        let games: Vec<Vec<SplinterMove>> = (0..GAMES).map(|seed| random_game(&start, seed, MAX_MOVES)).collect();
        let moves: usize = games.iter().map(Vec::len).sum();
        assert_eq!(support::replay_all(&start, &games), games.len(), "every generated game replays to its end");
        println!("{players} players: {GAMES} games, {moves} moves");
        group.throughput(Throughput::Elements(moves as u64));
        group.bench_function(BenchmarkId::new("players", players), |b| {
            b.iter(|| support::replay_all(black_box(&start), &games))
        });
    }
    group.finish();
}

fn playouts(c: &mut Criterion) {
    let mut group = support::group(c, "playout");
    for players in 2..=4 {
        let start = start(players);
        let moves: usize = (0..PLAYOUTS).map(|seed| random_game(&start, seed, MAX_MOVES).len()).sum();
        group.throughput(Throughput::Elements(moves as u64));
        group.bench_function(BenchmarkId::new("players", players), |b| {
            b.iter(|| {
                for seed in 0..PLAYOUTS {
                    black_box(random_game(black_box(&start), seed, MAX_MOVES));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(splinter, replays, playouts);
criterion_main!(splinter);
