//! An animated GIF of a whole game: one frame per picture, each rasterised from its SVG.

use std::io::Write;

/// One picture of an animation: its size and its un-premultiplied RGBA pixels, row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RgbaFrame {
    /// Pixels across.
    pub width: u32,
    /// Pixels down.
    pub height: u32,
    /// `width x height` RGBA quadruples, row by row from the top.
    pub pixels: Vec<u8>,
}

/// Why an animation could not be made.
#[derive(Debug, thiserror::Error)]
pub enum AnimationError {
    /// No pictures were given.
    #[error("an animation needs at least one picture")]
    Empty,
    /// The pictures are too large for a GIF.
    #[error("a GIF is at most 65535 pixels wide and high; the pictures are {width}x{height}")]
    TooLarge {
        /// Their width in pixels.
        width: u32,
        /// Their height in pixels.
        height: u32,
    },
    /// A picture's pixel buffer does not have the size its width and height ask.
    #[error("picture {index} has {got} bytes of pixels where {width}x{height} RGBA needs {need}")]
    Pixels {
        /// The picture's index among the frames.
        index: usize,
        /// Bytes given.
        got: usize,
        /// Bytes needed: `4 x width x height`.
        need: usize,
        /// The picture's width.
        width: u32,
        /// The picture's height.
        height: u32,
    },
    /// A picture is larger than the animation.
    #[error("picture {index} is {width}x{height}, larger than the animation")]
    Larger {
        /// The picture's index among the frames.
        index: usize,
        /// Its width.
        width: u32,
        /// Its height.
        height: u32,
    },
    /// The GIF encoder failed.
    #[error("cannot encode the GIF: {0}")]
    Encoding(#[from] ::gif::EncodingError),
}

/// Most pixels the frames of one animation may hold in all (frames x width x height of the
/// animation, each frame drawn on its whole canvas): what drawing and encoding it take grows
/// with, and `referee render --format gif` refuses an animation past this before drawing any of
/// it. Rasterising, quantising to 256 colours and encoding took about 0.15 s a megapixel on this
/// project's machine (a 4096-pixel-wide frame of a 9x9 board, 16.7 megapixels, 2.4 s), so the
/// limit is about a minute's work: some 1,500 frames of the default 480 pixels, 23 of 4096.
pub const MAX_PIXELS: u64 = 400_000_000;

/// The pixels of an animation of `frames` pictures of `width` x `height`, which its cost grows
/// with; compare with [`MAX_PIXELS`].
pub fn pixels(frames: usize, width: u32, height: u32) -> u64 {
    (frames as u64).saturating_mul(u64::from(width) * u64::from(height))
}

/// How long each frame shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Each frame but the last, in hundredths of a second (GIF's unit).
    pub frame: u16,
    /// The last frame, so that a looping animation lets the final position be seen.
    pub last: u16,
}

impl Default for Timing {
    fn default() -> Self {
        Timing { frame: 80, last: 300 }
    }
}

/// The GIF of `frames`, in order, looping for ever: [`Animation`] with every frame at hand.
pub fn animation(frames: &[RgbaFrame], timing: Timing) -> Result<Vec<u8>, AnimationError> {
    let width = frames.iter().map(|f| f.width).max().ok_or(AnimationError::Empty)?;
    let height = frames.iter().map(|f| f.height).max().unwrap_or(0);
    let mut gif = Animation::new(Vec::new(), width, height, timing)?;
    for (i, f) in frames.iter().enumerate() {
        gif.frame(f, i + 1 == frames.len())?;
    }
    gif.finish()
}

/// A GIF written frame by frame into `W`, looping for ever: only the frame being encoded is held,
/// so a game of any length takes the memory of one picture. Each frame gets its own palette of up
/// to 256 colours, quantised from its pixels: board pictures have few colours, so nothing visible
/// is lost.
///
/// A GIF has one size, given first: pictures smaller than it (a caption on one line fewer) are
/// drawn at its top left, the rest filled with the colour of their own bottom-left pixel, their
/// background.
pub struct Animation<W: Write> {
    encoder: ::gif::Encoder<W>,
    width: u32,
    height: u32,
    timing: Timing,
    frames: usize,
}

impl<W: Write> Animation<W> {
    /// Starts a GIF of `width` x `height` pixels (the largest picture's) in `out`.
    pub fn new(out: W, width: u32, height: u32, timing: Timing) -> Result<Animation<W>, AnimationError> {
        let (Ok(w), Ok(h)) = (u16::try_from(width), u16::try_from(height)) else {
            return Err(AnimationError::TooLarge { width, height });
        };
        let mut encoder = ::gif::Encoder::new(out, w, h, &[])?;
        encoder.set_repeat(::gif::Repeat::Infinite)?;
        Ok(Animation { encoder, width, height, timing, frames: 0 })
    }

    /// Encodes the next frame; `last` gives it the last frame's longer delay.
    pub fn frame(&mut self, f: &RgbaFrame, last: bool) -> Result<(), AnimationError> {
        let index = self.frames;
        let need = f.width as usize * f.height as usize * 4;
        if f.pixels.len() != need {
            return Err(AnimationError::Pixels { index, got: f.pixels.len(), need, width: f.width, height: f.height });
        }
        if f.width > self.width || f.height > self.height {
            return Err(AnimationError::Larger { index, width: f.width, height: f.height });
        }
        let mut pixels = padded(f, self.width, self.height);
        // Speed 10 of 30: quantising a board picture takes milliseconds, and its colours stay.
        let (w, h) = (self.width as u16, self.height as u16);
        let mut frame = ::gif::Frame::from_rgba_speed(w, h, &mut pixels, 10);
        frame.delay = if last { self.timing.last } else { self.timing.frame };
        self.encoder.write_frame(&frame)?;
        self.frames += 1;
        Ok(())
    }

    /// Ends the GIF, and gives back what it was written to.
    pub fn finish(self) -> Result<W, AnimationError> {
        if self.frames == 0 {
            return Err(AnimationError::Empty);
        }
        Ok(self.encoder.into_inner()?)
    }
}

/// The pixels of `f` at the top left of a `width` x `height` canvas of its background colour.
fn padded(f: &RgbaFrame, width: u32, height: u32) -> Vec<u8> {
    if (f.width, f.height) == (width, height) {
        return f.pixels.clone();
    }
    let corner = (f.height as usize).saturating_sub(1) * f.width as usize * 4;
    let background: [u8; 4] = f.pixels.get(corner..corner + 4).and_then(|p| p.try_into().ok()).unwrap_or([255; 4]);
    let mut out = background.repeat(width as usize * height as usize);
    let row = f.width as usize * 4;
    for (y, line) in f.pixels.chunks_exact(row.max(1)).enumerate() {
        let at = y * width as usize * 4;
        out[at..at + row].copy_from_slice(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solid(width: u32, height: u32, rgba: [u8; 4]) -> RgbaFrame {
        RgbaFrame { width, height, pixels: rgba.repeat((width * height) as usize) }
    }

    #[test]
    fn frames_of_one_size_make_an_animation_and_others_are_refused() {
        let gif =
            animation(&[solid(4, 3, [255, 0, 0, 255]), solid(4, 3, [0, 0, 255, 255])], Timing::default()).unwrap();
        assert!(gif.starts_with(b"GIF89a"));
        assert!(matches!(animation(&[], Timing::default()), Err(AnimationError::Empty)));
        let short = RgbaFrame { width: 2, height: 2, pixels: vec![0; 15] };
        assert!(matches!(animation(&[short], Timing::default()), Err(AnimationError::Pixels { .. })));
        let huge = RgbaFrame { width: 70_000, height: 1, pixels: Vec::new() };
        assert!(matches!(animation(&[huge], Timing::default()), Err(AnimationError::TooLarge { .. })));
    }

    #[test]
    fn smaller_pictures_are_padded_with_their_background() {
        let mut f = solid(2, 2, [9, 9, 9, 255]);
        f.pixels[..4].copy_from_slice(&[1, 2, 3, 255]);
        let p = padded(&f, 3, 3);
        assert_eq!(p.len(), 3 * 3 * 4);
        assert_eq!(&p[..4], &[1, 2, 3, 255], "the picture stays at the top left");
        assert_eq!(&p[8..12], &[9, 9, 9, 255], "the new column is background");
        assert_eq!(&p[32..36], &[9, 9, 9, 255], "the new row is background");
        let gif = animation(&[solid(4, 3, [0; 4]), solid(3, 4, [0; 4])], Timing::default()).unwrap();
        // The logical screen is the largest picture: 4x4.
        assert_eq!(&gif[6..10], &[4, 0, 4, 0]);
    }
}
