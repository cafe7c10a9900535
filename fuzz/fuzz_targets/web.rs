//! The web page's entry points (`web/src/lib.rs`: verify, positions, board, position_code,
//! convert, repairs, games, limits), called natively on any text with any record, frame and ply:
//! nothing may panic (in the browser a panic traps the module), every answer is JSON, and every
//! place it gives points into the text the same way in bytes and in UTF-16 code units.
//!
//! The checks are `referee_web::fuzz::entry_points`, which the stable smoke test
//! `web/tests/fuzz_smoke.rs` runs too. `fuzz/run-all` runs every target (fuzz/README.md).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    referee_web::fuzz::entry_points(data);
});
