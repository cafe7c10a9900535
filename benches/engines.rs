//! Throughput of the engines that have no bench of their own (Quadraphages, Hexaphages, Quarod,
//! Petrify), each on its default board:
//!
//! * `replay/GAME`: every move of 100 generated finished games checked and played (`check` then
//!   `play_unchecked`, as `replay::replay` does), moves/s;
//! * `playout/GAME`: `random_game` from the start to the end of the game, 10 games an iteration,
//!   moves/s.
//!
//! `benches/vadrantir.rs` and `benches/splinter.rs` measure those two engines the same way.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

use referee::game::{Game, Playable};
use referee::games::{petrify::Petrify, phages::Phages, quarod::Quarod};
use referee::random::random_game;

#[path = "common/mod.rs"]
mod support;

const GAMES: u64 = 100;
const PLAYOUTS: u64 = 10;
const MAX_MOVES: usize = 100_000;

fn bench_game<G: Game>(c: &mut Criterion, name: &str, start: G) {
    let mut group = support::group(c, name);
    let games: Vec<Vec<G::Move>> = (0..GAMES).map(|seed| random_game(&start, seed, MAX_MOVES)).collect();
    let moves: usize = games.iter().map(Vec::len).sum();
    // Outside the timing: every generated move is legal and every game ends.
    assert_eq!(support::replay_all(&start, &games), games.len(), "{name}: every game is legal and finished");
    group.throughput(Throughput::Elements(moves as u64));
    group.bench_function(BenchmarkId::new("replay", name), |b| {
        b.iter(|| support::replay_all(black_box(&start), &games))
    });
    let playout_moves: usize = games.iter().take(PLAYOUTS as usize).map(Vec::len).sum();
    group.throughput(Throughput::Elements(playout_moves as u64));
    group.bench_function(BenchmarkId::new("playout", name), |b| {
        b.iter(|| (0..PLAYOUTS).map(|seed| random_game(black_box(&start), seed, MAX_MOVES).len()).sum::<usize>())
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench_game(c, "quadraphages", Phages::quadraphages());
    bench_game(c, "hexaphages", Phages::hexaphages(4).expect("side 4 has a start"));
    bench_game(c, "quarod", Quarod::start(None, None).expect("the default board"));
    bench_game(c, "petrify", Petrify::start(None, None).expect("the default board"));
}

criterion_group!(engines, benches);
criterion_main!(engines);
