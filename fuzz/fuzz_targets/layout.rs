//! Layout (an editor's formatting) on any bytes: the text the edits make verifies as the text did,
//! and laying it out again changes nothing.
//!
//! The checks are `referee::fuzz_bodies::layout`, which the stable smoke test
//! `tests/fuzz_smoke.rs` runs too. `fuzz/run-all` runs every target (fuzz/README.md).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    referee::fuzz_bodies::layout(data);
});
