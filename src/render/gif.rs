//! An animated GIF of a whole game: one frame per picture, each rasterised from its SVG.

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
    /// The GIF encoder failed.
    #[error("cannot encode the GIF: {0}")]
    Encoding(#[from] ::gif::EncodingError),
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

/// The GIF of `frames`, in order, looping for ever. Each frame gets its own palette of up to 256
/// colours, quantised from its pixels: board pictures have few colours, so nothing visible is lost.
///
/// A GIF has one size: pictures of different sizes (a caption that wraps onto one more line) are
/// drawn at the top left of the largest, the rest filled with the colour of their own bottom-left
/// pixel, their background.
pub fn animation(frames: &[RgbaFrame], timing: Timing) -> Result<Vec<u8>, AnimationError> {
    if frames.is_empty() {
        return Err(AnimationError::Empty);
    }
    let width = frames.iter().map(|f| f.width).max().unwrap_or(0);
    let height = frames.iter().map(|f| f.height).max().unwrap_or(0);
    let (Ok(w), Ok(h)) = (u16::try_from(width), u16::try_from(height)) else {
        return Err(AnimationError::TooLarge { width, height });
    };
    for (index, f) in frames.iter().enumerate() {
        let need = f.width as usize * f.height as usize * 4;
        if f.pixels.len() != need {
            return Err(AnimationError::Pixels { index, got: f.pixels.len(), need, width: f.width, height: f.height });
        }
    }
    let mut out = Vec::new();
    {
        let mut encoder = ::gif::Encoder::new(&mut out, w, h, &[])?;
        encoder.set_repeat(::gif::Repeat::Infinite)?;
        for (i, f) in frames.iter().enumerate() {
            let mut pixels = padded(f, width, height);
            // Speed 10 of 30: quantising a board picture takes milliseconds, and its colours stay.
            let mut frame = ::gif::Frame::from_rgba_speed(w, h, &mut pixels, 10);
            frame.delay = if i + 1 == frames.len() { timing.last } else { timing.frame };
            encoder.write_frame(&frame)?;
        }
    }
    Ok(out)
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
