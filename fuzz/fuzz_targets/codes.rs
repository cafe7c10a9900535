//! Any bytes, as a position code or as a JSON game document: nothing may panic; a code that reads
//! is one of a position whose code reads back the same.
//!
//! `cargo +nightly fuzz run codes -- -max_total_time=300`; the stable smoke test is
//! `tests/fuzz_smoke.rs` (`mutated_codes_and_json_documents_never_panic`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(code) = referee::code::rewrite(&text) {
        assert_eq!(referee::code::rewrite(&code).as_deref(), Ok(code.as_str()));
    }
    if let Ok(docs) = referee::convert::read_json(&text) {
        for doc in docs {
            let _ = referee::convert::reread(&doc).map(|d| referee::convert::canonical_of(&d));
        }
    }
});
