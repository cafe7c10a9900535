//! The search of `referee repair` holds at most its memory ceiling, whatever `--beam` and
//! `--max-positions` say, and says so when the ceiling stops it. This test counts its own heap (a
//! global allocator that keeps the peak), so it has a file of its own.

use referee::repair::{repair_source, Bound, RepairOptions};
use referee::verify::VerifyOptions;

#[path = "support/heap.rs"]
mod heap;

#[global_allocator]
static ALLOCATOR: heap::Counting = heap::Counting;

/// The designers' first game, whose search goes on for millions of candidates when its beam and
/// its bound of tokens are lifted (2.6 GB, then an allocation abort, before the ceiling).
#[test]
fn a_search_without_other_bounds_stops_at_its_memory_ceiling_and_says_so() {
    let src = std::fs::read_to_string("samples/quadraphages/designers-game-1.txt").unwrap();
    // The claims of the candidates are judged by searches of their own, bounded apart: small here.
    let verify = VerifyOptions { search_limit: 1_000, ..VerifyOptions::default() };
    let ceiling = 8 << 20;
    let repair = RepairOptions {
        beam: usize::MAX,
        max_positions: u64::MAX,
        time_limit: None,
        max_bytes: ceiling,
        ..RepairOptions::default()
    };
    let (records, peak) = heap::peak(|| repair_source(&src, verify, repair, None).unwrap());
    let search = records[0].search.as_ref().unwrap();
    let Some(Bound::Bytes { ceiling: c, needed }) = search.stopped else { panic!("{:?}", search.stopped) };
    assert_eq!(c, ceiling);
    assert!(needed > ceiling && search.bytes <= ceiling, "{needed} {}", search.bytes);
    // What the search counts is what it holds, give or take the work of one candidate and the
    // record's own verdict.
    assert!(peak < ceiling + ceiling / 2, "peak {peak} bytes for a ceiling of {ceiling} (counted {})", search.bytes);
    assert!(!search.candidates.is_empty());
}
