//! An animated GIF of a whole game: one frame per picture, each rasterised from its SVG.

/// One picture of an animation: its size and its un-premultiplied RGBA pixels, row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RgbaFrame {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
}

/// Why an animation could not be made.
#[derive(Debug, thiserror::Error)]
pub enum AnimationError {
    #[error("an animation needs at least one picture")]
    Empty,
    #[error("picture {index} is {width}x{height}, the first is {first_width}x{first_height}: every frame of a GIF has one size")]
    SizesDiffer { index: usize, width: u32, height: u32, first_width: u32, first_height: u32 },
    #[error("a GIF is at most 65535 pixels wide and high; the pictures are {width}x{height}")]
    TooLarge { width: u32, height: u32 },
    #[error("picture {index} has {got} bytes of pixels where {width}x{height} RGBA needs {need}")]
    Pixels { index: usize, got: usize, need: usize, width: u32, height: u32 },
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
pub fn animation(frames: &[RgbaFrame], timing: Timing) -> Result<Vec<u8>, AnimationError> {
    let first = frames.first().ok_or(AnimationError::Empty)?;
    let (width, height) = (first.width, first.height);
    let (Ok(w), Ok(h)) = (u16::try_from(width), u16::try_from(height)) else {
        return Err(AnimationError::TooLarge { width, height });
    };
    for (index, f) in frames.iter().enumerate() {
        if (f.width, f.height) != (width, height) {
            let (first_width, first_height) = (width, height);
            return Err(AnimationError::SizesDiffer {
                index,
                width: f.width,
                height: f.height,
                first_width,
                first_height,
            });
        }
        let need = width as usize * height as usize * 4;
        if f.pixels.len() != need {
            return Err(AnimationError::Pixels { index, got: f.pixels.len(), need, width, height });
        }
    }
    let mut out = Vec::new();
    {
        let mut encoder = ::gif::Encoder::new(&mut out, w, h, &[])?;
        encoder.set_repeat(::gif::Repeat::Infinite)?;
        for (i, f) in frames.iter().enumerate() {
            let mut pixels = f.pixels.clone();
            // Speed 10 of 30: quantising a board picture takes milliseconds, and its colours stay.
            let mut frame = ::gif::Frame::from_rgba_speed(w, h, &mut pixels, 10);
            frame.delay = if i + 1 == frames.len() { timing.last } else { timing.frame };
            encoder.write_frame(&frame)?;
        }
    }
    Ok(out)
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
        let mixed = animation(&[solid(4, 3, [0; 4]), solid(3, 4, [0; 4])], Timing::default());
        assert!(matches!(mixed, Err(AnimationError::SizesDiffer { index: 1, .. })));
        let short = RgbaFrame { width: 2, height: 2, pixels: vec![0; 15] };
        assert!(matches!(animation(&[short], Timing::default()), Err(AnimationError::Pixels { .. })));
        let huge = RgbaFrame { width: 70_000, height: 1, pixels: Vec::new() };
        assert!(matches!(animation(&[huge], Timing::default()), Err(AnimationError::TooLarge { .. })));
    }
}
