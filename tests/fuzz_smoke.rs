//! A fuzz smoke test on the stable toolchain: thousands of mutated samples through the reader, the
//! replay (strict and lenient) and every report format. Nothing may panic, and every problem must
//! be located inside the text. (`fuzz/` has cargo-fuzz targets for a longer run on nightly.)

use std::sync::Arc;

use referee::report::{self, HumanStyle};
use referee::verify::{verify_source, VerifyOptions};

/// Characters that mean something to one notation or the other, and a few that mean nothing.
const INTERESTING: &[char] = &[
    '\n',
    '\r',
    ' ',
    '\t',
    '[',
    ']',
    '"',
    '{',
    '}',
    ';',
    '.',
    '-',
    '*',
    '/',
    '0',
    '1',
    '2',
    '9',
    'a',
    'x',
    'X',
    'o',
    'O',
    'B',
    'W',
    '#',
    '^',
    '<',
    '_',
    '\u{feff}',
    'é',
    '\u{1F600}',
];

fn mutate(text: &str, rng: &mut fastrand::Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..rng.usize(1..8) {
        let at = rng.usize(0..=chars.len());
        match rng.u8(0..5) {
            0 if at < chars.len() => {
                chars.remove(at);
            }
            1 if at < chars.len() => chars[at] = INTERESTING[rng.usize(0..INTERESTING.len())],
            2 => chars.insert(at, INTERESTING[rng.usize(0..INTERESTING.len())]),
            3 if at < chars.len() => {
                // Duplicate or drop a whole stretch, as copying and pasting does.
                let end = (at + rng.usize(1..200)).min(chars.len());
                if rng.bool() {
                    let piece: Vec<char> = chars[at..end].to_vec();
                    chars.splice(at..at, piece);
                } else {
                    chars.drain(at..end);
                }
            }
            _ => chars.truncate(at),
        }
    }
    chars.into_iter().collect()
}

fn samples() -> Vec<String> {
    fn walk(dir: &std::path::Path, out: &mut Vec<String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).expect("samples").flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if let Ok(text) = std::fs::read_to_string(&p) {
                out.push(text);
            }
        }
    }
    let mut out = Vec::new();
    walk(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples"), &mut out);
    out
}

#[test]
fn mutated_samples_never_panic_and_every_problem_is_located() {
    let samples = samples();
    let mut rng = fastrand::Rng::with_seed(7);
    let mut problems = 0;
    for round in 0..4000 {
        let text = Arc::new(mutate(&samples[round % samples.len()], &mut rng));
        let options = VerifyOptions { lenient: round % 3 == 0, search_limit: 2_000, ..VerifyOptions::default() };
        let verdicts = verify_source(&text, options);
        let source = report::Source::new("fuzz.txt", text.clone());
        for v in &verdicts {
            for p in &v.problems {
                assert!(
                    p.span.start <= p.span.end && p.span.end <= text.len(),
                    "round {round}: {p:?} outside the text"
                );
                assert!(text.is_char_boundary(p.span.start), "round {round}: {p:?} inside a character");
                problems += 1;
            }
            let human = report::human(&source, v, HumanStyle::default());
            assert!(human.contains(&format!("record {}", v.index)), "round {round}");
            let json: serde_json::Value = serde_json::from_str(&report::json_line(&source, v)).expect("JSON");
            assert_eq!(json["errors"].as_array().map(Vec::len), Some(v.problems.len()), "round {round}");
            let short = report::short_lines(&source, v, false);
            assert_eq!(short.lines().count(), v.problems.len(), "round {round}: one line per problem");
            for l in short.lines() {
                let mut parts = l.splitn(4, ':');
                assert_eq!(parts.next(), Some("fuzz.txt"), "round {round}: {l}");
                for number in [parts.next(), parts.next()] {
                    assert!(number.and_then(|n| n.parse::<usize>().ok()).is_some_and(|n| n >= 1), "round {round}: {l}");
                }
            }
            for e in json["errors"].as_array().into_iter().flatten() {
                assert!(e["line"].as_u64().is_some_and(|l| l >= 1), "round {round}: {e}");
                assert!(e["column"].as_u64().is_some_and(|c| c >= 1), "round {round}: {e}");
            }
        }
    }
    assert!(problems > 1000, "the mutations should break records: {problems} problems");
}

/// A code with a few of its characters changed, dropped or doubled, in the codes' own alphabet.
fn mutate_code(code: &str, rng: &mut fastrand::Rng) -> String {
    const ALPHABET: &[u8] = b"0123456789_/.-abcdefgklnopqrswxyABEGKNOPRSWXY";
    let mut bytes = code.as_bytes().to_vec();
    for _ in 0..rng.usize(1..4) {
        let at = rng.usize(0..bytes.len().max(1));
        let new = ALPHABET[rng.usize(..ALPHABET.len())];
        match rng.u8(0..3) {
            0 if at < bytes.len() => bytes[at] = new,
            1 if at < bytes.len() => {
                bytes.remove(at);
            }
            _ => bytes.insert(at.min(bytes.len()), new),
        }
    }
    String::from_utf8(bytes).expect("ASCII")
}

/// Mutated position codes (of positions of every game) and mutated JSON game documents: nothing
/// panics; a code that reads is one of a position whose code reads back the same, and an error
/// says where it goes wrong inside the code.
#[test]
fn mutated_codes_and_json_documents_never_panic() {
    let mut rng = fastrand::Rng::with_seed(11);
    let mut codes = Vec::new();
    let mut documents = Vec::new();
    for text in samples() {
        for index in 1..=referee::record::read(&text, None).count() {
            if let Ok(doc) = referee::convert::document(&text, index, VerifyOptions::default()) {
                codes.extend(doc.moves.iter().map(|m| m.code.clone()));
                documents.push(referee::convert::to_json(&doc));
            }
        }
    }
    assert!(codes.len() > 1000 && documents.len() > 20, "{} codes, {} documents", codes.len(), documents.len());
    let mut read = 0;
    for round in 0..20_000 {
        let code = match round % 2 {
            0 => mutate(&codes[rng.usize(..codes.len())], &mut rng),
            _ => mutate_code(&codes[rng.usize(..codes.len())], &mut rng),
        };
        if let Ok(again) = referee::code::rewrite(&code) {
            assert_eq!(referee::code::rewrite(&again).as_deref(), Ok(again.as_str()), "round {round}: {code}");
            read += 1;
        }
        if let Err(e) = referee::code::game_of(&code) {
            assert!(e.at <= code.len(), "round {round}: {e:?}");
        }
    }
    assert!(read > 50, "some mutated codes are still positions: {read}");
    for round in 0..2_000 {
        let json = mutate(&documents[round % documents.len()], &mut rng);
        if let Ok(docs) = referee::convert::read_json(&json) {
            for doc in docs {
                let _ = referee::convert::reread(&doc).map(|d| referee::convert::canonical_of(&d));
            }
        }
    }
}
