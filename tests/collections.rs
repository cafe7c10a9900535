//! Any concatenation of generated records of any games, with prose between them, yields exactly
//! those records, in order, each with the verdict it has on its own.

use proptest::prelude::*;

use referee::format::published::notation;
use referee::game::Playable;
use referee::games::petrify::Petrify;
use referee::games::phages::Phages;
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
    fn common<G: Playable>(size: u8, players: Option<u8>, seed: u64) -> String {
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
    let stream = StreamOptions { parallel, chunk, read_ahead: parallel, ..StreamOptions::default() };
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
        let stream = StreamOptions { parallel, chunk, read_ahead: parallel, ..StreamOptions::default() };
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

/// A line or record longer than the stream holds at once (`StreamOptions::max_held`: 256 MiB in
/// `verify`, 4 KiB here) is skipped up to the blank line after it, and said where it starts and
/// where reading starts again; the records before and after it are verified, as they are
/// without it. Before, it ended the file's verification there.
#[test]
fn a_line_or_record_too_long_to_hold_is_skipped_and_the_records_after_it_are_verified() {
    let max_held = 4096;
    let kept = [record(2, 1), record(0, 2), record(3, 3), record(4, 4)];
    let stays = "---- ".repeat(2000);
    // A published record with a line of 10 KB; a common record whose tag is as long; a record of
    // many short lines, 8 KB in all; and a line of prose as long after a short one (which is read,
    // as prose), ended by CRLF, then a blank line of blanks. The part skipped starts at the
    // record's first line, or at the long line.
    let too_long = [
        format!("_xx_ _oo_\n1. .... .... 1 a7a8 i3i2\n2. {stays}\n3. a2a3\n\n"),
        format!("[Game \"Quarod\"]\n[Annotator \"{stays}\"]\n[Size \"4\"]\n1. d1d2 a2a3 *\n\n"),
        format!("[Game \"Quarod\"]\n[Size \"4\"]\n\n{}1. d1d2 a2a3 *\n\n", "{a comment}\n".repeat(700)),
        format!("Some words.\nNotes: {stays}\r\n \t\r\n"),
    ];
    let mut text = String::new();
    let mut skipped = Vec::new();
    for ((record, long), read) in kept.iter().zip(&too_long).zip([0, 0, 0, 1]) {
        text.push_str(record);
        text.push('\n');
        let line = lines(&text) + 1 + read;
        text.push_str(long);
        skipped.push(format!("line {line} starts a line or record longer than 4096 bytes, more than referee holds at once: skipped up to the blank line at line {}", lines(&text)));
    }
    let expected = verify_source(&kept.map(|r| r + "\n").concat(), VerifyOptions::default());
    for (parallel, chunk) in [(false, 64), (true, 64), (false, 1000), (true, 3000)] {
        let stream = StreamOptions { parallel, chunk, read_ahead: parallel, max_held };
        let (mut verdicts, mut said) = (Vec::new(), Vec::new());
        verify_stream(text.as_bytes(), VerifyOptions::default(), stream, |s, v| {
            said.extend(s.skipped.map(|s| s.to_string()));
            verdicts.extend(v);
            Ok::<(), ()>(())
        })
        .expect("reads to the end");
        assert_eq!(said, skipped, "chunk {chunk}");
        let summary = |v: &[Verdict]| v.iter().map(|v| (v.index, gist(v))).collect::<Vec<_>>();
        assert_eq!(summary(&verdicts), summary(&expected), "chunk {chunk}");
    }
}

/// How many lines `text` ends: `\n`, `\r\n` and a lone `\r` each count once.
fn lines(text: &str) -> usize {
    text.matches('\n').count() + text.matches('\r').count() - text.matches("\r\n").count()
}
