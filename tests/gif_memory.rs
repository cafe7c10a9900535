//! A GIF of a long game takes the memory of one picture: frames are encoded one at a time into the
//! output, as `render --format gif` does, and none is held until the end. This test counts its own
//! heap (a global allocator that keeps the peak), so it has a file of its own.

use referee::picture::pictures;
use referee::render::gif::{Animation, RgbaFrame, Timing};
use referee::render::png;
use referee::render::svg::{svg, SvgOptions};
use referee::verify::VerifyOptions;

#[path = "support/heap.rs"]
mod heap;

#[global_allocator]
static ALLOCATOR: heap::Counting = heap::Counting;

#[test]
fn a_long_game_is_encoded_in_the_memory_of_one_frame() {
    // A Quarod game on a 10x10 board, written for this test by `referee random`.
    let record = std::process::Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["random", "--game", "quarod", "--size", "10", "--seed", "3"])
        .output()
        .unwrap();
    let src = String::from_utf8(record.stdout).unwrap();
    let drawn = pictures(&src, 1, VerifyOptions::default()).unwrap();
    let options = SvgOptions { width: 400, ..SvgOptions::default() };
    let frames = drawn.scenes.len();
    assert!(frames > 40, "a long game: {frames} positions");
    // The animation's size is the largest picture's (a caption may take one more line).
    let sizes: Vec<(u32, u32)> = drawn.scenes.iter().map(|s| png::size(&svg(s, &options)).unwrap()).collect();
    let width = sizes.iter().map(|s| s.0).max().unwrap();
    let height = sizes.iter().map(|s| s.1).max().unwrap();
    let one_frame = width as usize * height as usize * 4;

    // The output is counted too: a GIF of board pictures is small next to their pixels.
    let (bytes, peak) = heap::peak(|| {
        let mut gif = Animation::new(Vec::new(), width, height, Timing::default()).unwrap();
        for (k, scene) in drawn.scenes.iter().enumerate() {
            let (w, h, pixels) = png::rgba(&svg(scene, &options)).unwrap();
            gif.frame(&RgbaFrame { width: w, height: h, pixels }, k + 1 == frames).unwrap();
        }
        gif.finish().unwrap()
    });
    assert!(bytes.starts_with(b"GIF89a"));
    // Every frame held would be `frames` x `one_frame`; one at a time is a few (its pixels, the
    // padded copy, the quantiser's tables, the rasteriser's canvas), whatever the game's length.
    assert!(
        peak < 8 * one_frame + bytes.len(),
        "peak {peak} bytes for {frames} frames of {one_frame} bytes ({} bytes of GIF)",
        bytes.len()
    );
}
