//! Throughput of the Vadrantir engine alone, per board side (5, 6 and 7):
//!
//! * `replay/side-N`: every move of 200 generated finished games checked and played (`check` then
//!   `play_unchecked`, as `replay::replay` does), moves/s;
//! * `playout/side-N`: `random_game` from the empty board to the end of the game (legal moves,
//!   the end test and play every move), 20 games an iteration, moves/s;
//! * `record/side-N`: `replay::replay` over the tokens of the same 200 games written as records
//!   (read and resolve each token, check, keep the position before the move, play), moves/s.
//!
//! The games are random legal games from fixed seeds, generated once outside any timing.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

use referee::game::{Game, Playable};
use referee::games::vadrantir::{Vadrantir, VadrantirMove};
use referee::random::random_game;
use referee::record::{common, Token};
use referee::replay::{replay, ReplayOptions};
use referee::write::write_common_record;

#[path = "common/mod.rs"]
mod support;

/// Games per board side in the replay corpus.
const GAMES: u64 = 200;
/// Games per iteration of the playout benchmark.
const PLAYOUTS: u64 = 20;
/// Far more moves than any game lasts: every generated game is played to its end.
const MAX_MOVES: usize = 100_000;

fn start(side: u8) -> Vadrantir {
    Vadrantir::start(Some(side), None).expect("sides 5 to 7 are Vadrantir boards")
}

fn benches(c: &mut Criterion) {
    let mut group = support::group(c, "vadrantir");
    for side in [5, 6, 7] {
        let start = start(side);
        let games: Vec<Vec<VadrantirMove>> = (0..GAMES).map(|seed| random_game(&start, seed, MAX_MOVES)).collect();
        let moves: usize = games.iter().map(Vec::len).sum();
        // Outside the timing: every generated move is legal and every game ends.
        assert_eq!(support::replay_all(&start, &games), games.len(), "side {side}: every game is legal and finished");
        println!("side {side}: {GAMES} games, {moves} moves");

        group.throughput(Throughput::Elements(moves as u64));
        group.bench_function(BenchmarkId::new("replay", format!("side-{side}")), |b| {
            b.iter(|| support::replay_all(black_box(&start), &games))
        });

        // Each iteration plays the first PLAYOUTS games of the corpus again from their seeds.
        let playout_moves: usize = games.iter().take(PLAYOUTS as usize).map(Vec::len).sum();
        group.throughput(Throughput::Elements(playout_moves as u64));
        group.bench_function(BenchmarkId::new("playout", format!("side-{side}")), |b| {
            b.iter(|| (0..PLAYOUTS).map(|seed| random_game(black_box(&start), seed, MAX_MOVES).len()).sum::<usize>())
        });

        let texts: Vec<String> = games.iter().map(|moves| write_common_record(&start, moves, &[])).collect();
        let records: Vec<Vec<Token>> = texts.iter().map(|t| common::parse(t).remove(0).tokens).collect();
        for (tokens, moves) in records.iter().zip(&games) {
            let done = replay(start.clone(), tokens, ReplayOptions::default());
            assert!(done.violations.is_empty() && done.position.is_over() && done.moves == moves.len());
        }
        group.throughput(Throughput::Elements(moves as u64));
        group.bench_function(BenchmarkId::new("record", format!("side-{side}")), |b| {
            b.iter(|| {
                for tokens in &records {
                    black_box(replay(start.clone(), black_box(tokens), ReplayOptions::default()));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(vadrantir, benches);
criterion_main!(vadrantir);
