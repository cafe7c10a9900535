//! The convert round trip on any bytes: each record that replays, written as JSON and read back,
//! is the same document, and the record written from it gives the same canonical text.
//!
//! The checks are `referee::fuzz_bodies::round_trip`, which the stable smoke test
//! `tests/fuzz_smoke.rs` runs too. `fuzz/run-all` runs every target (fuzz/README.md).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    referee::fuzz_bodies::round_trip(data);
});
