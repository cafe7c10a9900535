//! Throughput of the three stages of `referee verify` over a corpus of generated, finished games:
//!
//! * `parse`: `record::parse` over the whole corpus text (MiB/s);
//! * `verify`: `verify_source` — parse, replay and claim checks (records/s);
//! * `replay`: `replay::replay` alone over pre-parsed tokens (stone moves/s);
//! * `common/<game>`: `verify_source` over 100 finished games of each game of the common format
//!   (records/s).
//!
//! The games are random legal games played to the end from fixed seeds, so every record is valid,
//! finished, and its claims are settled without any search.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode, Throughput};

use referee::format::published::notation;
use referee::game::{Game, Playable};
use referee::games::phages::{Phages, PhagesMove};
use referee::games::{petrify::Petrify, quarod::Quarod, splinter::Splinter, vadrantir::Vadrantir};
use referee::random::random_game;
use referee::record::{self, Token};
use referee::replay::{replay, ReplayOptions};
use referee::verdict::Status;
use referee::verify::{verify_source, VerifyOptions};
use referee::write::write_common_record;

/// Records per game in the corpus.
const GAMES_PER_KIND: u64 = 200;
/// Far more moves than any game lasts: every generated game is played to its end.
const MAX_MOVES: usize = 100_000;

/// One generated game: its start position, its moves, and its record's text.
struct Generated {
    start: Phages,
    moves: Vec<PhagesMove>,
}

struct Corpus {
    games: Vec<Generated>,
    /// Every record, one after another, separated by blank lines.
    text: String,
    /// Stone moves (`Step` and `Stay`) over all games; announcements are not counted.
    stone_moves: u64,
}

fn corpus() -> Corpus {
    let quadra = Phages::quadraphages();
    let hexa = Phages::hexaphages(4).expect("hexaphages of side 4 has a default start");
    let mut games = Vec::new();
    for seed in 0..GAMES_PER_KIND {
        for start in [&quadra, &hexa] {
            let moves = random_game(start, seed, MAX_MOVES);
            games.push(Generated { start: start.clone(), moves });
        }
    }
    let text = games.iter().map(|g| notation::write_record(&g.start, &g.moves)).collect::<Vec<_>>().join("\n\n");
    let stone_moves = games
        .iter()
        .flat_map(|g| g.moves.iter())
        .filter(|m| matches!(m, PhagesMove::Step { .. } | PhagesMove::Stay { .. }))
        .count() as u64;
    Corpus { games, text, stone_moves }
}

/// Checks, once and outside any timing, that the corpus reads back as the games it was made from.
fn check(c: &Corpus) {
    let records = record::parse(&c.text);
    assert_eq!(records.len(), c.games.len(), "every generated record is found");
    let verdicts = verify_source(&c.text, VerifyOptions::default());
    assert_eq!(verdicts.len(), c.games.len());
    for (v, g) in verdicts.iter().zip(&c.games) {
        assert_eq!(v.status, Status::Valid, "record {} verifies: {:?}", v.index, v.problems);
        assert!(v.game_over, "record {} is a finished game", v.index);
        assert_eq!(v.moves, g.moves.len(), "record {} replays all its moves", v.index);
    }
}

fn benches(c: &mut Criterion) {
    let corpus = corpus();
    check(&corpus);
    let records = corpus.games.len();
    println!(
        "corpus: {records} records, {} bytes, {} moves, {} stone moves",
        corpus.text.len(),
        corpus.games.iter().map(|g| g.moves.len()).sum::<usize>(),
        corpus.stone_moves
    );

    let mut group = c.benchmark_group("referee");
    // Iterations take tens of milliseconds: flat sampling fits 20 samples in a few seconds.
    group
        .sample_size(20)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));

    group.throughput(Throughput::Bytes(corpus.text.len() as u64));
    group.bench_function(BenchmarkId::new("parse", records), |b| b.iter(|| record::parse(black_box(&corpus.text))));

    group.throughput(Throughput::Elements(records as u64));
    group.bench_function(BenchmarkId::new("verify", records), |b| {
        b.iter(|| verify_source(black_box(&corpus.text), VerifyOptions::default()))
    });

    // Pre-parsed: the start position and the movetext tokens of every record.
    let parsed = record::parse(&corpus.text);
    let inputs: Vec<(Phages, Vec<Token>)> =
        parsed.iter().zip(&corpus.games).map(|(r, g)| (g.start.clone(), r.tokens.clone())).collect();
    for ((start, tokens), g) in inputs.iter().zip(&corpus.games) {
        let rep = replay(start.clone(), tokens, ReplayOptions::default());
        assert!(rep.violations.is_empty() && rep.position.is_over());
        assert_eq!(rep.moves, g.moves.len());
    }
    group.throughput(Throughput::Elements(corpus.stone_moves));
    group.bench_function(BenchmarkId::new("replay", records), |b| {
        b.iter(|| {
            for (start, tokens) in &inputs {
                black_box(replay(start.clone(), black_box(tokens), ReplayOptions::default()));
            }
        })
    });

    group.finish();
}

/// Records of one game in the common format, `n` of them from fixed seeds, joined into one text.
fn common_corpus<G: Playable>(start: &G, n: u64) -> (String, usize) {
    let mut moves = 0;
    let text = (0..n)
        .map(|seed| {
            let game = random_game(start, seed, MAX_MOVES);
            moves += game.len();
            write_common_record(start, &game, &[])
        })
        .collect::<Vec<_>>()
        .join("\n");
    (text, moves)
}

/// Whole verification of the games in the common record format, records/s, one benchmark a game.
fn common_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("common");
    group
        .sample_size(20)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    let corpora = [
        ("quarod-8x8", common_corpus(&Quarod::start(None, None).expect("default"), 100)),
        ("petrify-8x8", common_corpus(&Petrify::start(None, None).expect("default"), 100)),
        ("vadrantir-side6", common_corpus(&Vadrantir::start(None, None).expect("default"), 100)),
        ("splinter-4-players", common_corpus(&Splinter::start(None, None).expect("default"), 100)),
    ];
    for (name, (text, moves)) in &corpora {
        let verdicts = verify_source(text, VerifyOptions::default());
        assert_eq!(verdicts.len(), 100);
        assert!(verdicts.iter().all(|v| v.status == Status::Valid && v.game_over), "{name} verifies");
        println!("{name}: 100 records, {} bytes, {moves} moves", text.len());
        group.throughput(Throughput::Elements(100));
        group.bench_function(*name, |b| b.iter(|| verify_source(black_box(text), VerifyOptions::default())));
    }
    group.finish();
}

criterion_group!(verify, benches, common_benches);
criterion_main!(verify);
