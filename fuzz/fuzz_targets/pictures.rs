//! The pictures of every scene of any bytes' records: text diagrams, codes, SVG in every style,
//! the HTML replay page, a small PNG and GIF. Nothing may panic.
//!
//! The checks are `referee::fuzz_bodies::pictures`, which the stable smoke test
//! `tests/fuzz_smoke.rs` runs too. `fuzz/run-all` runs every target (fuzz/README.md).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    referee::fuzz_bodies::pictures(data);
});
