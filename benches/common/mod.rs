//! What the engine benchmarks share: replaying generated games, and the group settings.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, SamplingMode};

use referee::game::Game;

/// Checks and plays every move of every game from `start`, as `replay::replay` does; how many
/// games ended.
pub fn replay_all<G: Game>(start: &G, games: &[Vec<G::Move>]) -> usize {
    let mut over = 0;
    for moves in games {
        let mut position = start.clone();
        for &m in moves {
            if position.check(black_box(m)).is_ok() {
                position.play_unchecked(m);
            }
        }
        over += usize::from(position.is_over());
    }
    over
}

/// A benchmark group whose iterations take milliseconds: flat sampling fits 20 samples in a few
/// seconds.
pub fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(name);
    group
        .sample_size(20)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    group
}
