//! Any bytes as JSON game documents (`convert --from json`): nothing may panic, and a document
//! that rereads rereads again to the same canonical record.
//!
//! The checks are `referee::fuzz_bodies::json`, which the stable smoke test
//! `tests/fuzz_smoke.rs` runs too. `fuzz/run-all` runs every target (fuzz/README.md).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    referee::fuzz_bodies::json(data);
});
