//! The language server (`referee lsp`) over in-memory streams, its whole message loop: a session's
//! messages (their bodies apart by a zero byte, each framed as the protocol says), or raw bytes
//! after `RAW`, framing and all, between `initialize` and `shutdown`/`exit`. Nothing may panic;
//! the server ends with 0 or 1, writes nothing but framed JSON-RPC, and answers every request it
//! read.
//!
//! The checks are `referee::fuzz_bodies::lsp`, which the stable smoke test `tests/fuzz_smoke.rs`
//! runs too. `fuzz/run-all` runs every target (fuzz/README.md).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    referee::fuzz_bodies::lsp(data);
});
