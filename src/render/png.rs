//! Pictures as pixels: the SVG of [`svg`](super::svg) rasterised with resvg.
//!
//! The one font text is set in, DejaVu Sans, is built into the binary and is the only font resvg
//! sees: a picture's pixels then depend on nothing installed on the machine.

use std::sync::{Arc, OnceLock};

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{self, fontdb};

/// DejaVu Sans (Bitstream Vera licence, see `assets/fonts/LICENSE`).
pub(crate) const DEJAVU_SANS: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// The family name DejaVu Sans registers under, which the SVG names first.
const FAMILY: &str = "DejaVu Sans";

/// The most pixels one picture may have: more is no board picture but a mistake, and would only
/// cost memory (64 megapixels, 256 MiB of RGBA).
pub const MAX_PIXELS: u64 = 64 * 1024 * 1024;

/// Why a picture could not be rasterised, or read for TikZ.
#[derive(thiserror::Error, Debug)]
pub enum PictureError {
    /// The SVG did not parse.
    #[error("the SVG could not be read: {0}")]
    Svg(#[from] usvg::Error),
    /// The picture is empty or more than [`MAX_PIXELS`] pixels.
    #[error("a picture of {width}x{height} pixels is empty or too large to rasterise")]
    Size {
        /// Its width in pixels.
        width: u32,
        /// Its height in pixels.
        height: u32,
    },
    /// The PNG encoder failed.
    #[error("the PNG could not be encoded: {0}")]
    Encode(String),
}

/// The font database holding DejaVu Sans alone, loaded once per process.
pub(crate) fn fonts() -> Arc<fontdb::Database> {
    static FONTS: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = fontdb::Database::new();
            db.load_font_data(DEJAVU_SANS.to_vec());
            // Generic families (`sans-serif`, and text with no family at all) fall back to the
            // one font there is.
            db.set_sans_serif_family(FAMILY);
            db.set_serif_family(FAMILY);
            db.set_monospace_family(FAMILY);
            db.set_cursive_family(FAMILY);
            db.set_fantasy_family(FAMILY);
            Arc::new(db)
        })
        .clone()
}

/// The SVG rendered at its own size, over a transparent canvas (the SVGs of this crate paint
/// their own background).
fn render(svg: &str) -> Result<Pixmap, PictureError> {
    let (tree, width, height) = parse(svg)?;
    let mut pixmap = Pixmap::new(width, height).ok_or(PictureError::Size { width, height })?;
    resvg::render(&tree, Transform::identity(), &mut pixmap.as_mut());
    Ok(pixmap)
}

/// The SVG's width and height in pixels, as [`rgba`] would rasterise it, without rasterising it.
pub fn size(svg: &str) -> Result<(u32, u32), PictureError> {
    parse(svg).map(|(_, width, height)| (width, height))
}

/// The SVG read with DejaVu Sans as its only font: for pixels here, for a booklet's pages in
/// [`crate::book::pdf`].
pub(crate) fn tree(svg: &str) -> Result<usvg::Tree, usvg::Error> {
    let options = usvg::Options { font_family: FAMILY.to_string(), fontdb: fonts(), ..usvg::Options::default() };
    usvg::Tree::from_str(svg, &options)
}

/// The SVG read, and its size in whole pixels, refused when empty or too large.
pub(crate) fn parse(svg: &str) -> Result<(usvg::Tree, u32, u32), PictureError> {
    let tree = tree(svg)?;
    let size = tree.size();
    let (w, h) = (size.width().ceil(), size.height().ceil());
    // Saturating casts: a NaN or a huge size becomes 0 or u32::MAX, both refused below.
    let (width, height) = (w as u32, h as u32);
    if width == 0 || height == 0 || u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(PictureError::Size { width, height });
    }
    Ok((tree, width, height))
}

/// The SVG as a PNG file, at the SVG's own width and height.
pub fn png(svg: &str) -> Result<Vec<u8>, PictureError> {
    let (width, height, rgba) = rgba(svg)?;
    encode(width, height, &rgba, None).map_err(|e| PictureError::Encode(e.to_string()))
}

/// The SVG as a PNG file for print: each of its pixels (96 to the inch) drawn with `dpi / 96`
/// pixels a side, and the file says its resolution, so that it prints at the SVG's size.
pub fn png_at(svg: &str, dpi: f64) -> Result<Vec<u8>, PictureError> {
    let (tree, width, height) = parse(svg)?;
    let scale = (dpi / 96.0) as f32;
    // Whole pixels only, rounded down: a last pixel half covered would be half transparent.
    // Saturating casts, as in `parse`: refused below when too large.
    let (w, h) = ((width as f32 * scale).floor() as u32, (height as f32 * scale).floor() as u32);
    if w == 0 || h == 0 || u64::from(w) * u64::from(h) > MAX_PIXELS {
        return Err(PictureError::Size { width: w, height: h });
    }
    let mut pixmap = Pixmap::new(w, h).ok_or(PictureError::Size { width: w, height: h })?;
    resvg::render(&tree, Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    let metres = (dpi / 0.0254).round() as u32;
    encode(w, h, &pixmap.take_demultiplied(), Some(metres)).map_err(|e| PictureError::Encode(e.to_string()))
}

/// RGBA pixels as a PNG: without the alpha channel when every pixel is opaque, as board pictures
/// are, which saves a quarter of the pixel data before compression; `per_metre`, the pixels in a
/// metre the file says it has, if it says.
fn encode(width: u32, height: u32, rgba: &[u8], per_metre: Option<u32>) -> Result<Vec<u8>, ::png::EncodingError> {
    let opaque = rgba.chunks_exact(4).all(|p| p[3] == u8::MAX);
    let rgb: Vec<u8>;
    let (colour, data) = if opaque {
        rgb = rgba.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
        (::png::ColorType::Rgb, rgb.as_slice())
    } else {
        (::png::ColorType::Rgba, rgba)
    };
    let mut out = Vec::new();
    let mut encoder = ::png::Encoder::new(&mut out, width, height);
    encoder.set_color(colour);
    encoder.set_depth(::png::BitDepth::Eight);
    encoder.set_compression(::png::Compression::Balanced);
    if let Some(n) = per_metre {
        encoder.set_pixel_dims(Some(::png::PixelDimensions { xppu: n, yppu: n, unit: ::png::Unit::Meter }));
    }
    let mut writer = encoder.write_header()?;
    writer.write_image_data(data)?;
    writer.finish()?;
    Ok(out)
}

/// The SVG as pixels: width, height and un-premultiplied RGBA bytes, row by row from the top.
pub fn rgba(svg: &str) -> Result<(u32, u32, Vec<u8>), PictureError> {
    let pixmap = render(svg)?;
    let (width, height) = (pixmap.width(), pixmap.height());
    Ok((width, height, pixmap.take_demultiplied()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_font_is_found_by_its_family_name() {
        let db = fonts();
        let families: Vec<&str> = db.faces().flat_map(|f| f.families.iter().map(|(name, _)| name.as_str())).collect();
        assert_eq!(families, [FAMILY]);
    }

    #[test]
    fn text_is_drawn_with_the_embedded_font() {
        let blank = r##"<svg xmlns="http://www.w3.org/2000/svg" width="60" height="30"><rect width="60" height="30" fill="#fff"/></svg>"##;
        let text = r##"<svg xmlns="http://www.w3.org/2000/svg" width="60" height="30"><rect width="60" height="30" fill="#fff"/><text x="4" y="22" font-size="20" font-family="DejaVu Sans">Ag</text></svg>"##;
        let (_, _, blank) = rgba(blank).expect("blank");
        let (_, _, text) = rgba(text).expect("text");
        let dark = text.chunks(4).filter(|p| p[0] < 128).count();
        assert!(dark > 20, "text left {dark} dark pixels");
        assert!(blank.chunks(4).all(|p| p[0] == 255));
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        assert!(matches!(png("not svg"), Err(PictureError::Svg(_))));
        assert!(png("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"0\" height=\"10\"/>").is_err());
        assert!(matches!(
            png("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100000\" height=\"100000\"/>"),
            Err(PictureError::Size { .. })
        ));
        assert!(png("").is_err());
    }
}
