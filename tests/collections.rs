//! Any concatenation of generated records of any games, with prose between them, yields exactly
//! those records, in order, each with the verdict it has on its own.

use proptest::prelude::*;

use referee::game::CommonFormat;
use referee::games::petrify::Petrify;
use referee::games::phages::{notation, Phages};
use referee::games::quarod::Quarod;
use referee::games::splinter::Splinter;
use referee::games::vadrantir::Vadrantir;
use referee::random::random_game;
use referee::stream::{verify_stream, StreamOptions};
use referee::verdict::{Status, Verdict};
use referee::verify::{verify_source, VerifyOptions};
use referee::write::write_common_record;

/// Text a collection holds between records: none of it may read as a record.
const PROSE: &[&str] = &[
    "",
    "Some words about the game.\n",
    "Game 12, played on the club's board.\n\n",
    "1. 2 eggs\n2. 3 apples\n\n",
    "[citation needed] as they say.\n",
    "Results: 1-0, 0-1 and * are written at the end; ratings 1500-1450.\n",
    "{this is not a comment}\n",
    "QUADRAPHAGES is a game, and so is Hexaphages.\n",
    "   \t\n\n\n",
    "A line with the letters a b c and a row . . o 1.\n",
];

fn record(game: u8, seed: u64) -> String {
    fn common<G: CommonFormat>(size: u8, players: Option<u8>, seed: u64) -> String {
        let start = G::start(Some(size), players).expect("a start");
        write_common_record(&start, &random_game(&start, seed, 100_000), &[])
    }
    match game % 6 {
        0 => {
            let start = Phages::quadraphages();
            notation::write_record(&start, &random_game(&start, seed, 10_000))
        }
        1 => {
            let start = Phages::hexaphages(4).expect("side 4");
            notation::write_record(&start, &random_game(&start, seed, 10_000))
        }
        2 => common::<Quarod>(4 + (seed % 4) as u8, None, seed),
        3 => common::<Petrify>(6, None, seed),
        4 => common::<Vadrantir>(5, None, seed),
        _ => common::<Splinter>(6, Some(2), seed),
    }
}

/// What a verdict says, without where the record stands in its file.
fn gist(v: &Verdict) -> (Option<&'static str>, Status, usize, bool, Option<String>, Vec<&'static str>) {
    (
        v.game.map(|g| g.name),
        v.status,
        v.moves,
        v.game_over,
        v.winner.clone(),
        v.claims.iter().map(|c| c.status.name()).collect(),
    )
}

/// The verdicts of a text read as a stream in chunks of `chunk` bytes, each with the line of its
/// record's first character in the whole text; read side by side when `parallel`, the next window
/// read while one is judged.
fn streamed(text: &str, chunk: usize, parallel: bool) -> Vec<(usize, Verdict)> {
    let mut out = Vec::new();
    let stream = StreamOptions { parallel, chunk, read_ahead: parallel };
    verify_stream(text.as_bytes(), VerifyOptions::default(), stream, |s, verdicts| {
        for v in verdicts {
            let before = &s.text[..v.span.start];
            let lines = before.matches('\n').count() + before.matches('\r').count() - before.matches("\r\n").count();
            out.push((s.first_line + lines + 1, v));
        }
        Ok::<(), ()>(())
    })
    .expect("reads");
    out
}

/// The line of each record's first character, as a whole-text reading gives it.
fn lines_of(text: &str, verdicts: &[Verdict]) -> Vec<usize> {
    verdicts.iter().map(|v| referee::report::line_col(text, v.span.start).0).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn a_collection_yields_exactly_its_records_with_their_verdicts(
        parts in prop::collection::vec((any::<u8>(), 0u64..1000, 0..PROSE.len()), 1..5),
        opening in 0..PROSE.len(),
        crlf in any::<bool>(),
        chunk in 1usize..3000,
    ) {
        let mut text = PROSE[opening].to_string();
        let mut alone = Vec::new();
        for &(game, seed, prose) in &parts {
            let r = record(game, seed);
            alone.push(verify_source(&r, VerifyOptions::default()));
            text.push_str(&r);
            text.push('\n');
            text.push_str(PROSE[prose]);
        }
        if crlf {
            text = text.replace('\n', "\r\n");
        }
        let found = verify_source(&text, VerifyOptions::default());
        prop_assert_eq!(found.len(), parts.len(), "{}", text);
        // Read as a stream in small chunks, on one thread or several, the verdicts are the same,
        // in the same order, at the same lines.
        for (chunk, parallel) in [(chunk, false), (chunk, true), (4096, true)] {
            let by_stream = streamed(&text, chunk, parallel);
            prop_assert_eq!(by_stream.iter().map(|(l, _)| *l).collect::<Vec<_>>(), lines_of(&text, &found));
            for ((_, s), v) in by_stream.iter().zip(&found) {
                prop_assert_eq!(s.index, v.index);
                prop_assert_eq!(gist(s), gist(v));
                prop_assert_eq!(&s.problems.iter().map(|p| &p.message).collect::<Vec<_>>(), &v.problems.iter().map(|p| &p.message).collect::<Vec<_>>());
            }
        }
        for (i, (v, own)) in found.iter().zip(&alone).enumerate() {
            prop_assert_eq!(own.len(), 1);
            prop_assert_eq!(v.index, i + 1);
            prop_assert_eq!(gist(v), gist(&own[0]), "record {} of\n{}", i + 1, text);
            prop_assert_eq!(v.status, Status::Valid);
        }
    }
}

/// Every bundled sample, broken ones and published pages included, one after another.
fn all_samples() -> String {
    fn walk(dir: &std::path::Path, out: &mut String) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).expect("samples").flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push_str(&std::fs::read_to_string(&p).expect("UTF-8"));
                out.push('\n');
            }
        }
    }
    let mut out = String::new();
    walk(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples"), &mut out);
    out
}

#[test]
fn every_sample_read_as_one_stream_in_chunks_of_any_size_gives_the_same_verdicts() {
    // Twelve times over in large chunks, so that a window is large enough to be cut into pieces
    // read side by side.
    for (times, chunk) in [(1, 7), (1, 100), (1, 1000), (1, 10_000), (12, 1 << 18), (12, 1 << 20)] {
        let text = all_samples().repeat(times);
        let whole = verify_source(&text, VerifyOptions::default());
        assert!(whole.len() > 80 * times, "{}", whole.len());
        let by_stream = streamed(&text, chunk, chunk % 2 == 0);
        assert_eq!(by_stream.iter().map(|(l, _)| *l).collect::<Vec<_>>(), lines_of(&text, &whole), "chunk {chunk}");
        for ((_, s), v) in by_stream.iter().zip(&whole) {
            assert_eq!((s.index, gist(s)), (v.index, gist(v)), "chunk {chunk}");
            let messages = |v: &Verdict| v.problems.iter().map(|p| p.message.clone()).collect::<Vec<_>>();
            assert_eq!(messages(s), messages(v), "chunk {chunk}, record {}", v.index);
        }
    }
}

#[test]
fn a_stream_stops_at_a_byte_that_is_not_utf8_and_says_where() {
    let mut bytes = format!("{}\nprose\n", record(2, 1)).into_bytes();
    bytes.extend_from_slice(b"caf\xE9\n");
    bytes.extend_from_slice(record(3, 1).as_bytes());
    let lines = std::str::from_utf8(&bytes[..bytes.iter().position(|&b| b == 0xE9).unwrap()]).unwrap().lines().count();
    // Read one window at a time, or the next one read while one is judged: the same stop.
    for (parallel, chunk) in [(false, 64), (true, 64), (true, 300)] {
        let stream = StreamOptions { parallel, chunk, read_ahead: parallel };
        let mut seen = 0;
        let result = verify_stream(&bytes[..], VerifyOptions::default(), stream, |_, v| {
            seen += v.len();
            Ok::<(), ()>(())
        });
        match result {
            Err(referee::stream::StreamError::Input(e)) => {
                assert_eq!(e.to_string(), format!("not valid UTF-8: byte 0xE9 at line {lines}, column 4"))
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(seen, 1, "the record before the bad byte is verified (chunk {chunk})");
    }
}
