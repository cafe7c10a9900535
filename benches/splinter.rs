//! Throughput of the Splinter Quad engine, per player count on the default boards:
//!
//! * `replay/<n>-players`: every move of 100 generated games checked and played (`check`, then
//!   `play_unchecked`, as `referee::replay::replay` does), moves/s;
//! * `playout/<n>-players`: random games from the start (`legal_moves` and `play_unchecked` per
//!   move, as `referee::random::random_game` does), moves/s.
//!
//! The games are random legal games played to their end from fixed seeds.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, Throughput};

use referee::game::{Game, Recorded};
use referee::games::splinter::{Splinter, SplinterMove};
use referee::random::random_game;

/// Games replayed per player count.
const GAMES: u64 = 100;
/// Games played out per iteration of the playout benchmark.
const PLAYOUTS: u64 = 10;
/// Far more moves than any game lasts: every generated game is played to its end.
const MAX_MOVES: usize = 100_000;

fn start(players: u8) -> Splinter {
    Splinter::start(None, Some(players)).expect("a default start")
}

/// Checks and plays every move of `moves` from `start`; the final position.
fn replay(start: &Splinter, moves: &[SplinterMove]) -> Splinter {
    let mut pos = start.clone();
    for &m in moves {
        if pos.check(m).is_ok() {
            pos.play_unchecked(m);
        }
    }
    pos
}

fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(name);
    // Iterations take tens of milliseconds: flat sampling fits 20 samples in a few seconds.
    group
        .sample_size(20)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    group
}

fn replays(c: &mut Criterion) {
    let mut group = group(c, "replay");
    for players in 2..=4 {
        let start = start(players);
        let games: Vec<Vec<SplinterMove>> = (0..GAMES).map(|seed| random_game(&start, seed, MAX_MOVES)).collect();
        let moves: usize = games.iter().map(Vec::len).sum();
        for game in &games {
            assert!(replay(&start, game).is_over(), "every generated game replays to its end");
        }
        println!("{players} players: {GAMES} games, {moves} moves");
        group.throughput(Throughput::Elements(moves as u64));
        group.bench_function(BenchmarkId::new("players", players), |b| {
            b.iter(|| {
                for game in &games {
                    black_box(replay(&start, black_box(game)));
                }
            })
        });
    }
    group.finish();
}

fn playouts(c: &mut Criterion) {
    let mut group = group(c, "playout");
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
