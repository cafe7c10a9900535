//! The pictures of every scene of any bytes' records: text diagrams, codes, SVG in every style,
//! the HTML replay page. Nothing may panic. (The smoke test rasterises too: PNG and GIF.)
//!
//! The checks are `referee::fuzz_bodies::pictures`, which the stable smoke test
//! `tests/fuzz_smoke.rs` runs too. `fuzz/run-all` runs every target (fuzz/README.md).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Without PNG and GIF: rasterising would make it a hundred times slower.
    referee::fuzz_bodies::pictures(data, false);
});
