//! `repair` and the text `repair --write` writes, on any bytes: nothing may panic, and a repair
//! the notation can write gives a text where the repaired record reads again.
//!
//! The checks are `referee::fuzz_bodies::repair`, which the stable smoke test
//! `tests/fuzz_smoke.rs` runs too. `fuzz/run-all` runs every target (fuzz/README.md).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    referee::fuzz_bodies::repair(data);
});
