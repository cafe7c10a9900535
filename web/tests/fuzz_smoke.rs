//! The page's fuzz target on the stable toolchain: mutated samples through every function the page
//! calls, with the same checks as `fuzz/fuzz_targets/web.rs` (the body is shared:
//! `referee_web::fuzz::entry_points`), so that CI runs them on every change. A longer run on
//! nightly: `fuzz/run-all 1800 web` (fuzz/README.md).

#[path = "../../tests/support/mutate.rs"]
mod mutate;

use referee_web::fuzz::entry_points;

#[test]
fn mutated_samples_through_every_entry_point_of_the_page() {
    let samples = mutate::samples(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples"));
    // The record asked for (1 to 5) and the frame and ply, from the text's length: the same on
    // every run.
    let checked = mutate::over_mutated_samples(&samples, 2000, 31, |text| {
        entry_points(&[&[(text.len() % 5 + 1) as u8, (text.len() / 7) as u8], text].concat())
    });
    assert!(checked > 15_000, "the answers should hold places: {checked}");
}
