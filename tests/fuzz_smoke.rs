//! A fuzz smoke test on the stable toolchain: thousands of mutated samples through every entry
//! point that reads outside input, with the same checks as the cargo-fuzz targets in `fuzz/` (the
//! bodies are shared: `referee::fuzz_bodies`), so that CI runs them on every change. A longer run
//! on nightly: `fuzz/run-all` (fuzz/README.md).

use referee::fuzz_bodies;
use referee::verify::VerifyOptions;

#[path = "support/mutate.rs"]
mod mutate;

use mutate::mutate;

fn samples() -> Vec<String> {
    mutate::samples(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples"))
}

/// What a fuzz body counts over `n` mutations of the samples, taken in turn, the same on every
/// run.
fn over_mutated_samples(n: usize, seed: u64, body: fn(&[u8]) -> usize) -> usize {
    mutate::over_mutated_samples(&samples(), n, seed, body)
}

#[test]
fn mutated_samples_never_panic_and_every_problem_is_located() {
    let problems = over_mutated_samples(4000, 7, fuzz_bodies::reader);
    assert!(problems > 1000, "the mutations should break records: {problems} problems");
}

#[test]
fn mutated_records_draw_every_scene() {
    let drawn = over_mutated_samples(50, 13, |data| fuzz_bodies::pictures(data, true));
    assert!(drawn > 500, "most mutated records still draw: {drawn} scenes");
}

#[test]
fn mutated_records_repair_into_text_that_reads() {
    // Only repairs that make a record stand are written (15 of these 300 inputs have one).
    let made = over_mutated_samples(300, 17, fuzz_bodies::repair);
    assert!(made >= 10, "the mutations should leave records that a repair makes stand: {made} repairs");
}

#[test]
fn mutated_records_convert_to_json_and_back_to_the_same_canonical_text() {
    let done = over_mutated_samples(600, 19, fuzz_bodies::round_trip);
    assert!(done > 30, "some mutated records still replay: {done} round trips");
}

#[test]
fn mutated_records_laid_out_verify_the_same_and_are_laid_out_already() {
    let laid = over_mutated_samples(600, 29, fuzz_bodies::layout);
    assert!(laid > 100, "most mutated records are still laid out: {laid} records");
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
        read += usize::from(fuzz_bodies::code(code.as_bytes()));
    }
    assert!(read > 50, "some mutated codes are still positions: {read}");
    let mut reread = 0;
    for round in 0..1_000 {
        reread += fuzz_bodies::json(mutate(&documents[round % documents.len()], &mut rng).as_bytes());
    }
    assert!(reread > 100, "some mutated documents still reread: {reread}");
}

/// Sessions of the language server on mutated samples, their messages mutated too now and then,
/// and mutated raw bytes through its framing: nothing panics, the server ends as it should, writes
/// nothing but framed JSON-RPC, and answers every request it read.
#[test]
fn mutated_language_server_sessions_are_answered_whole() {
    let samples = samples();
    let mut rng = fastrand::Rng::with_seed(23);
    let mut written = 0;
    for round in 0..300 {
        let text = mutate(&samples[round % samples.len()], &mut rng);
        let session = fuzz_bodies::lsp_session(&text, rng.usize(..=text.len()));
        let session = match round % 3 {
            0 => session,
            // The session's bytes mutated: a message's body garbled, or two messages run together.
            1 => mutate(&String::from_utf8_lossy(&session), &mut rng).into_bytes(),
            _ => {
                let framed: Vec<u8> = session
                    .split(|&b| b == fuzz_bodies::LSP_SEPARATOR)
                    .flat_map(|body| [format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes(), body].concat())
                    .collect();
                [fuzz_bodies::LSP_RAW, mutate(&String::from_utf8_lossy(&framed), &mut rng).as_bytes()].concat()
            }
        };
        written += fuzz_bodies::lsp(&session);
    }
    assert!(written > 3000, "the sessions are answered: {written} messages written");
}
