//! Any bytes, as a position code or as a JSON game document: nothing may panic; a code that reads
//! is one of a position whose code reads back the same.
//!
//! `cargo +nightly fuzz run codes -- -max_total_time=300`; the stable smoke test is
//! `tests/fuzz_smoke.rs` (`mutated_codes_and_json_documents_never_panic`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use referee::code::Coded;
use referee::game::{GameKind, Recorded, WithRecorded};
use referee::games::phages::Phages;

struct Read<'c>(&'c str);

impl WithRecorded for Read<'_> {
    type Output = Option<String>;
    fn run<G: Recorded>(self) -> Option<String> {
        G::from_code(self.0).ok().map(|p| p.code())
    }
}

fn read(code: &str) -> Option<String> {
    match referee::code::game_of(code).ok()? {
        GameKind::Quadraphages | GameKind::Hexaphages => Phages::from_code(code).ok().map(|p| p.code()),
        kind => kind.with_recorded(Read(code)).flatten(),
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Some(code) = read(&text) {
        assert_eq!(read(&code).as_deref(), Some(code.as_str()));
    }
    if let Ok(docs) = referee::convert::read_json(&text) {
        for doc in docs {
            let _ = referee::convert::reread(&doc).map(|d| referee::convert::canonical_of(&d));
        }
    }
});
