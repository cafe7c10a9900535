//! Any bytes, as text, through the reader of both notations, the replay (strict and lenient) and
//! every report: nothing may panic and every problem is located inside the text.
//!
//! The checks are `referee::fuzz_bodies::reader`, which the stable smoke test
//! `tests/fuzz_smoke.rs` runs too. `fuzz/run-all` runs every target (fuzz/README.md).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    referee::fuzz_bodies::reader(data);
});
