//! Any bytes, as text, through the reader, the replay (strict and lenient) and the reports:
//! nothing may panic and every problem is located inside the text.
//!
//! `cargo +nightly fuzz run reader fuzz/corpus -- -max_total_time=300` (seed the corpus with
//! `cp -r samples fuzz/corpus`); the stable smoke test is `tests/fuzz_smoke.rs`.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use referee::report::{self, HumanStyle};
use referee::verify::{verify_source, VerifyOptions};

fuzz_target!(|data: &[u8]| {
    let text = Arc::new(String::from_utf8_lossy(data).into_owned());
    for lenient in [false, true] {
        let options = VerifyOptions { lenient, search_limit: 2_000, ..VerifyOptions::default() };
        let source = report::Source::new("fuzz.txt", text.clone());
        for v in verify_source(&text, options) {
            for p in &v.problems {
                assert!(p.span.end <= text.len() && text.is_char_boundary(p.span.start));
            }
            let _ = report::human(&source, &v, HumanStyle::default());
            let _ = report::json_line(&source, &v);
        }
    }
});
