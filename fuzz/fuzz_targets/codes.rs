//! Any bytes as a position code: nothing may panic, a code that reads is one of a position whose
//! code reads back the same, and an error points inside the code.
//!
//! The checks are `referee::fuzz_bodies::code`, which the stable smoke test
//! `tests/fuzz_smoke.rs` runs too. `fuzz/run-all` runs every target (fuzz/README.md).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    referee::fuzz_bodies::code(data);
});
