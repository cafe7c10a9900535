//! Pictures of a [`Scene`] as SVG: a board, its figures, the signs of moves and a caption.
//!
//! The drawing knows no rule: it only draws what the model says stands on each cell and which
//! signs go over it. Colours and sizes are data ([`Style`]); every element carries classes
//! (`cell`, `coord`, `figure stone owner-0`, `region territory shade owner-1`, `sign last arrow`,
//! `gone piece pawn owner-0`, `caption`) so that a page can restyle it. Regions that scored
//! ([`Scene::scoring`]) go under the figures, each drawn by its mark whatever game it comes from. The output is deterministic: the same scene and options always give the same
//! bytes, with numbers written at a fixed precision and no generated ids.
//!
//! The text is set in DejaVu Sans, the font the PNG rasteriser embeds, so that text measured
//! here for wrapping is the text drawn there.

use std::fmt;
use std::str::FromStr;

use crate::geometry::{Cell, Geometry};
use crate::render::model::{Colour, Drawn, Figure, Heading, Mark, Scene, Shape, Sign, Tone};

/// The font every text is set in: the one `png` embeds, then whatever sans the viewer has.
pub const FONT_FAMILY: &str = "DejaVu Sans, sans-serif";

/// The narrowest and widest pictures drawn: narrower ones have no room for the coordinates,
/// wider ones would only cost memory when rasterised.
pub const MIN_WIDTH: u32 = 120;
/// See [`MIN_WIDTH`].
pub const MAX_WIDTH: u32 = 4096;

/// The named styles the command line offers.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum StyleName {
    /// Coloured pieces on a light wooden board.
    #[default]
    Light,
    /// Coloured pieces on a dark board, for dark pages.
    Dark,
    /// Black, white and grey only, for printing: players told apart by fill and pattern.
    Print,
}

impl StyleName {
    /// Every style, in the order the command line lists them.
    pub const ALL: [StyleName; 3] = [StyleName::Light, StyleName::Dark, StyleName::Print];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            StyleName::Light => "light",
            StyleName::Dark => "dark",
            StyleName::Print => "print",
        }
    }
}

impl fmt::Display for StyleName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A style name that is none of [`StyleName::ALL`].
#[derive(thiserror::Error, Clone, PartialEq, Eq, Debug)]
#[error("unknown style `{0}`: expected light, dark or print")]
pub struct UnknownStyle(pub String);

impl FromStr for StyleName {
    type Err = UnknownStyle;

    fn from_str(s: &str) -> Result<StyleName, UnknownStyle> {
        StyleName::ALL
            .into_iter()
            .find(|n| n.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownStyle(s.to_string()))
    }
}

/// An opaque colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// How a player's figures are painted.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Paint {
    /// The figure's body.
    pub fill: Rgb,
    /// The outline, and the lines of the hatching.
    pub stroke: Rgb,
    /// What is drawn on the figure (a rod's line): it must stand out from `fill`.
    pub ink: Rgb,
    /// Diagonal lines in `stroke` over `fill`, so that a fourth player stays apart in greyscale.
    pub hatch: bool,
}

/// How the signs of one [`Tone`] are drawn.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Ink {
    /// Its colour.
    pub colour: Rgb,
    /// Its opacity, 0 (invisible) to 1.
    pub opacity: f64,
}

/// Sizes, in fractions of the distance between neighbouring cell centres unless said otherwise.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Sizes {
    /// Radius of a [`Shape::Disc`] (a stone, a disk).
    pub stone: f64,
    /// Side of a [`Shape::Square`] (a mark).
    pub mark: f64,
    /// Width of the cell lines.
    pub line: f64,
    /// Width of the lines of rings and arrows.
    pub sign: f64,
    /// Width of the halo around signs, which keeps them apart from the figures under them.
    pub halo: f64,
    /// Font size of the coordinates.
    pub coordinates: f64,
    /// Font size of the caption, as a fraction of the picture's width.
    pub caption: f64,
}

/// How a markup arrow or marked cell is drawn: filled with its colour, or hollow (outlined in
/// it), its outline solid or dashed.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Line {
    /// Filled.
    #[default]
    Filled,
    /// Outlined, with a solid line.
    Hollow,
    /// Outlined, with a dashed line.
    Dashed,
}

/// Everything a picture's look depends on: colours and sizes as data.
#[derive(Clone, PartialEq, Debug)]
pub struct Style {
    /// The named style it was made from.
    pub name: StyleName,
    /// Behind everything.
    pub background: Rgb,
    /// The cells.
    pub board: Rgb,
    /// The cells' outlines.
    pub lines: Rgb,
    /// The column letters and row numbers.
    pub coordinates: Rgb,
    /// The caption.
    pub text: Rgb,
    /// Around signs, so that they stay visible over figures of any colour.
    pub halo: Rgb,
    /// Player colours by the names records give players; names not listed take `indexed`.
    pub named: &'static [(&'static str, Paint)],
    /// Player colours by place in turn order, for names `named` does not know.
    pub indexed: &'static [Paint],
    /// Figures that belong to nobody.
    pub block: Paint,
    /// Signs of the move that led to the position ([`Tone::Last`]).
    pub last: Ink,
    /// Signs of an illegal move ([`Tone::Illegal`]).
    pub illegal: Ink,
    /// Signs of the legal moves an error diagram offers instead ([`Tone::Alternative`]).
    pub alternative: Ink,
    /// Behind the text of badges (pass, swap, numbers).
    pub badge: Rgb,
    /// The band around the figures that counted for the score ([`Mark::Outline`]).
    pub counted: Rgb,
    /// The colours of markup (grammar.md, "Markup"): red, green, blue, yellow.
    pub markup: [Rgb; 4],
    /// How each markup colour is drawn besides its colour, for a style whose colours do not tell
    /// them apart (print: a photocopy keeps no colour): red, green, blue, yellow.
    pub markup_lines: [Line; 4],
    /// How strongly a region that scored ([`Mark::Shade`]) is shaded in its owner's colour, 0 to 1.
    pub shade_opacity: f64,
    /// The sizes of figures, lines and text.
    pub sizes: Sizes,
}

const SIZES: Sizes =
    Sizes { stone: 0.4, mark: 0.3, line: 0.025, sign: 0.1, halo: 0.035, coordinates: 0.3, caption: 0.03 };

const fn paint(fill: Rgb, stroke: Rgb, ink: Rgb) -> Paint {
    Paint { fill, stroke, ink, hatch: false }
}

const INK_BLACK: Rgb = Rgb(0, 0, 0);
const INK_WHITE: Rgb = Rgb(255, 255, 255);

const LIGHT_BLACK: Paint = paint(Rgb(0x1c, 0x1c, 0x1c), INK_BLACK, INK_WHITE);
const LIGHT_WHITE: Paint = paint(Rgb(0xfa, 0xfa, 0xfa), Rgb(0x33, 0x33, 0x33), INK_BLACK);
const LIGHT_BLUE: Paint = paint(Rgb(0x2f, 0x6f, 0xd6), Rgb(0x15, 0x3a, 0x78), INK_WHITE);
const LIGHT_ORANGE: Paint = paint(Rgb(0xf2, 0x8c, 0x28), Rgb(0x80, 0x44, 0x0a), INK_BLACK);
const LIGHT_RED: Paint = paint(Rgb(0xd7, 0x30, 0x2a), Rgb(0x70, 0x12, 0x0e), INK_WHITE);
const LIGHT_GREEN: Paint = paint(Rgb(0x2e, 0x9e, 0x44), Rgb(0x12, 0x4d, 0x20), INK_WHITE);
const LIGHT_YELLOW: Paint = paint(Rgb(0xf5, 0xcc, 0x1b), Rgb(0x70, 0x5a, 0x00), INK_BLACK);

const LIGHT_NAMED: [(&str, Paint); 9] = [
    ("Black", LIGHT_BLACK),
    ("White", LIGHT_WHITE),
    ("X", LIGHT_BLACK),
    ("O", LIGHT_WHITE),
    ("Blue", LIGHT_BLUE),
    ("Orange", LIGHT_ORANGE),
    ("Red", LIGHT_RED),
    ("Green", LIGHT_GREEN),
    ("Yellow", LIGHT_YELLOW),
];
const LIGHT_INDEXED: [Paint; 6] = [LIGHT_BLACK, LIGHT_WHITE, LIGHT_RED, LIGHT_BLUE, LIGHT_GREEN, LIGHT_YELLOW];

const DARK_LINE: Rgb = Rgb(0xa8, 0xae, 0xb6);
const DARK_BLACK: Paint = paint(Rgb(0x0b, 0x0b, 0x0b), DARK_LINE, INK_WHITE);
const DARK_WHITE: Paint = paint(Rgb(0xee, 0xee, 0xee), INK_BLACK, INK_BLACK);
const DARK_BLUE: Paint = paint(Rgb(0x4d, 0x8e, 0xf0), Rgb(0xc8, 0xdc, 0xff), INK_WHITE);
const DARK_ORANGE: Paint = paint(Rgb(0xf5, 0x9a, 0x3c), Rgb(0xff, 0xe0, 0xc0), INK_BLACK);
const DARK_RED: Paint = paint(Rgb(0xef, 0x4a, 0x43), Rgb(0xff, 0xd0, 0xcc), INK_WHITE);
const DARK_GREEN: Paint = paint(Rgb(0x43, 0xb8, 0x5c), Rgb(0xc8, 0xf0, 0xd0), INK_BLACK);
const DARK_YELLOW: Paint = paint(Rgb(0xf7, 0xd3, 0x3a), Rgb(0xff, 0xf4, 0xc0), INK_BLACK);

const DARK_NAMED: [(&str, Paint); 9] = [
    ("Black", DARK_BLACK),
    ("White", DARK_WHITE),
    ("X", DARK_BLACK),
    ("O", DARK_WHITE),
    ("Blue", DARK_BLUE),
    ("Orange", DARK_ORANGE),
    ("Red", DARK_RED),
    ("Green", DARK_GREEN),
    ("Yellow", DARK_YELLOW),
];
const DARK_INDEXED: [Paint; 6] = [DARK_BLACK, DARK_WHITE, DARK_RED, DARK_BLUE, DARK_GREEN, DARK_YELLOW];

/// Print knows no colour names: players are black, white, grey and hatched in turn order.
const PRINT_INDEXED: [Paint; 4] = [
    paint(INK_BLACK, INK_BLACK, INK_WHITE),
    paint(INK_WHITE, INK_BLACK, INK_BLACK),
    paint(Rgb(0x9a, 0x9a, 0x9a), INK_BLACK, INK_BLACK),
    Paint { fill: INK_WHITE, stroke: INK_BLACK, ink: INK_BLACK, hatch: true },
];

impl Style {
    /// The style of a name.
    pub fn of(name: StyleName) -> Style {
        match name {
            StyleName::Light => Style {
                name,
                background: Rgb(0xff, 0xff, 0xff),
                board: Rgb(0xe9, 0xd6, 0xac),
                lines: Rgb(0x7a, 0x62, 0x3c),
                coordinates: Rgb(0x5c, 0x48, 0x2a),
                text: Rgb(0x22, 0x22, 0x22),
                halo: Rgb(0xff, 0xff, 0xff),
                named: &LIGHT_NAMED,
                indexed: &LIGHT_INDEXED,
                block: paint(Rgb(0x5a, 0x4e, 0x44), Rgb(0x2a, 0x22, 0x1c), INK_WHITE),
                last: Ink { colour: Rgb(0x8e, 0x24, 0xaa), opacity: 0.85 },
                illegal: Ink { colour: Rgb(0xe0, 0x00, 0x00), opacity: 1.0 },
                alternative: Ink { colour: Rgb(0x8e, 0x24, 0xaa), opacity: 0.35 },
                badge: Rgb(0xf6, 0xf0, 0xe2),
                counted: Rgb(0x00, 0x8a, 0x5e),
                markup: [Rgb(0xd7, 0x26, 0x1e), Rgb(0x1e, 0x8c, 0x3c), Rgb(0x1f, 0x5f, 0xd0), Rgb(0xe8, 0xb4, 0x00)],
                markup_lines: [Line::Filled; 4],
                shade_opacity: 0.5,
                sizes: SIZES,
            },
            StyleName::Dark => Style {
                name,
                background: Rgb(0x1b, 0x1d, 0x21),
                board: Rgb(0x32, 0x36, 0x3d),
                lines: Rgb(0x63, 0x6a, 0x74),
                coordinates: Rgb(0xa9, 0xb0, 0xb8),
                text: Rgb(0xe6, 0xe6, 0xe6),
                halo: Rgb(0x1b, 0x1d, 0x21),
                named: &DARK_NAMED,
                indexed: &DARK_INDEXED,
                block: paint(Rgb(0x8a, 0x7d, 0x6e), Rgb(0xd8, 0xcc, 0xbc), INK_BLACK),
                last: Ink { colour: Rgb(0xd5, 0x8a, 0xe6), opacity: 0.9 },
                illegal: Ink { colour: Rgb(0xff, 0x4d, 0x4d), opacity: 1.0 },
                alternative: Ink { colour: Rgb(0xd5, 0x8a, 0xe6), opacity: 0.4 },
                badge: Rgb(0x2a, 0x2d, 0x33),
                counted: Rgb(0x3d, 0xd6, 0x9a),
                markup: [Rgb(0xff, 0x5c, 0x55), Rgb(0x4c, 0xd0, 0x6a), Rgb(0x5c, 0x9c, 0xff), Rgb(0xff, 0xd3, 0x3a)],
                markup_lines: [Line::Filled; 4],
                shade_opacity: 0.5,
                sizes: SIZES,
            },
            StyleName::Print => Style {
                name,
                background: INK_WHITE,
                board: INK_WHITE,
                lines: INK_BLACK,
                coordinates: INK_BLACK,
                text: INK_BLACK,
                halo: INK_WHITE,
                named: &[],
                indexed: &PRINT_INDEXED,
                block: paint(Rgb(0x55, 0x55, 0x55), INK_BLACK, INK_WHITE),
                last: Ink { colour: Rgb(0x44, 0x44, 0x44), opacity: 0.9 },
                illegal: Ink { colour: INK_BLACK, opacity: 1.0 },
                alternative: Ink { colour: Rgb(0x80, 0x80, 0x80), opacity: 0.6 },
                badge: INK_WHITE,
                counted: INK_BLACK,
                // Print has no colours: each markup colour is its own kind of drawing, as the
                // players' figures are: red black, green hollow, blue grey, yellow dashed.
                markup: [INK_BLACK, INK_BLACK, Rgb(0x80, 0x80, 0x80), INK_BLACK],
                markup_lines: [Line::Filled, Line::Hollow, Line::Filled, Line::Dashed],
                shade_opacity: 0.35,
                sizes: Sizes { line: 0.03, ..SIZES },
            },
        }
    }

    /// The paint of each player: by name where the style knows it, else by place in turn order,
    /// and never a paint an earlier player already has (two unknown names stay apart).
    pub fn palette(&self, players: &[&str]) -> Vec<Paint> {
        let mut taken: Vec<Paint> = Vec::with_capacity(players.len());
        for (i, name) in players.iter().enumerate() {
            let named = self.named.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|&(_, p)| p);
            let by_index = || {
                let fresh = self.indexed.iter().copied().find(|p| !taken.contains(p));
                fresh.or_else(|| self.indexed.get(i % self.indexed.len().max(1)).copied())
            };
            let chosen = named.filter(|p| !taken.contains(p)).or_else(by_index).unwrap_or(self.block);
            taken.push(chosen);
        }
        taken
    }

    fn ink(&self, tone: Tone) -> Ink {
        match tone {
            Tone::Last => self.last,
            Tone::Illegal => self.illegal,
            Tone::Alternative => self.alternative,
        }
    }
}

impl Default for Style {
    fn default() -> Style {
        Style::of(StyleName::default())
    }
}

/// What to draw, and how large.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct SvgOptions {
    /// The picture's width in pixels (clamped to [`MIN_WIDTH`]..=[`MAX_WIDTH`]); the height
    /// follows from the board and the caption.
    pub width: u32,
    /// The named style drawn in.
    pub style: StyleName,
    /// Column letters and row numbers around the board.
    pub coordinates: bool,
    /// The scene's caption under the board.
    pub caption: bool,
}

impl Default for SvgOptions {
    fn default() -> SvgOptions {
        SvgOptions { width: 480, style: StyleName::Light, coordinates: true, caption: true }
    }
}

/// The picture of a scene in the named style of `options`.
pub fn svg(scene: &Scene, options: &SvgOptions) -> String {
    svg_with_style(scene, options, &Style::of(options.style))
}

/// The picture of a scene in any style, such as one made from [`Style::of`] with other colours
/// (`options.style` is then not used).
pub fn svg_with_style(scene: &Scene, options: &SvgOptions, style: &Style) -> String {
    Painter::new(scene, options, style).paint()
}

/// Pixels in a millimetre, as SVG and CSS count them (96 to the inch).
pub const PX_PER_MM: f64 = 96.0 / 25.4;

/// The picture `svg` (of [`svg`]) with its size given on paper: `width_mm` millimetres wide, its
/// height in proportion, the drawing as it was (its coordinates are its view box's). A page or a
/// layout program then prints it at that size, whatever it takes a pixel to be.
pub fn on_paper(svg: &str, width_mm: f64) -> String {
    let attribute = |name: &str| -> Option<(usize, usize, f64)> {
        let key = format!(" {name}=\"");
        let start = svg.find(&key)? + key.len();
        let end = start + svg[start..].find('"')?;
        Some((start, end, svg[start..end].parse().ok()?))
    };
    match (attribute("width"), attribute("height")) {
        (Some((ws, we, w)), Some((hs, he, h))) if w > 0.0 && ws < hs => {
            let height_mm = width_mm * h / w;
            format!("{}{}mm{}{}mm{}", &svg[..ws], Num(width_mm), &svg[we..hs], Num(height_mm), &svg[he..])
        }
        // Not a picture of this module's: as it is.
        _ => svg.to_string(),
    }
}

/// A number as SVG writes it: two decimals at most, no trailing zeros, never `-0`.
pub(crate) struct Num(pub(crate) f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = if self.0.is_finite() { (self.0 * 100.0).round() / 100.0 } else { 0.0 };
        let text = format!("{x:.2}");
        let text = text.trim_end_matches('0').trim_end_matches('.');
        f.write_str(if text == "-0" { "0" } else { text })
    }
}

/// Text made safe for XML content and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters are not allowed in XML 1.0 at all.
            c if (c as u32) < 0x20 && c != '\t' && c != '\n' && c != '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The advance of a character in DejaVu Sans, in ems, rounded up: enough to wrap text so that
/// it never overflows, without shaping it.
fn advance(ch: char) -> f64 {
    match ch {
        ' ' => 0.32,
        'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' | '·' => 0.3,
        'f' | 't' | 'r' | 'I' | 'J' | '(' | ')' | '[' | ']' | '-' => 0.42,
        'm' | 'w' => 0.98,
        'M' | 'W' => 1.0,
        '0'..='9' => 0.64,
        'a'..='z' => 0.63,
        'A'..='Z' => 0.77,
        _ => 0.8,
    }
}

fn text_width(text: &str, font: f64) -> f64 {
    text.chars().map(advance).sum::<f64>() * font
}

/// Breaks text into lines no wider than `width` at spaces; a word longer than a line is cut.
fn wrap(text: &str, font: f64, width: f64) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let candidate = if line.is_empty() { word.to_string() } else { format!("{line} {word}") };
        if text_width(&candidate, font) <= width {
            line = candidate;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        // A word wider than the line alone goes on lines of its own, cut where it must be.
        for ch in word.chars() {
            if !line.is_empty() && text_width(&line, font) + advance(ch) * font > width {
                lines.push(std::mem::take(&mut line));
            }
            line.push(ch);
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Where the board lies in the picture.
struct Layout {
    geometry: Geometry,
    /// Distance between the centres of neighbouring cells (in a row, on a hex board).
    s: f64,
    /// Centre of the grid slot at column 0, row 0.
    ox: f64,
    oy: f64,
    coord_font: f64,
    /// Where the coordinates stand: letters above and below, numbers to the left and right.
    top_letters: f64,
    bottom_letters: f64,
    /// Distance from the outer edge of a row's end cells to its numbers' centres.
    number_gap: f64,
    /// Bottom of everything that belongs to the board, coordinates included.
    bottom: f64,
}

const SQRT3: f64 = 1.732_050_807_568_877_2;
/// Space around the board, in cells.
const PAD: f64 = 0.3;
/// How far past the centre of its edge cell a figure leaving the board is drawn, in cells: most
/// of it past the board's edge, all of it inside the space around the board.
const LEAVING: f64 = 0.9;
/// Space around the board, in cells, for a figure leaving it when there are no coordinates there.
const PAD_LEAVING: f64 = 0.8;

impl Layout {
    /// `leaving`: a figure is drawn leaving the board, past its edge, which needs room there.
    fn new(geometry: Geometry, width: f64, coordinates: bool, leaving: bool, style: &Style) -> Layout {
        // The coordinates' bands hold a figure leaving the board; without them the space around
        // the board grows to hold it.
        let pad_cells = if leaving && !coordinates { PAD_LEAVING } else { PAD };
        let (w, h) = (geometry.width().max(1) as f64, geometry.height().max(1) as f64);
        // Columns of cells, in units of s, the board spans from edge to edge.
        let span = match geometry {
            Geometry::Square { .. } => w,
            Geometry::Hex { .. } => (w + 1.0) / 2.0,
        };
        // A first guess of the cell size sets the font; the bands for the coordinates must then
        // hold two digits of that font, which on small cells is more than their share.
        let band_share = if coordinates { 0.62 } else { 0.0 };
        let guess = width / (span + 2.0 * (band_share + pad_cells));
        let coord_font = (guess * style.sizes.coordinates).clamp(7.0, 16.0);
        let band = if coordinates { (guess * band_share).max(coord_font * 1.7) } else { 0.0 };
        let s = ((width - 2.0 * band) / (span + 2.0 * pad_cells)).max(1.0);
        let pad = s * pad_cells;
        let vband = if coordinates { (s * 0.5).max(coord_font * 1.4) } else { 0.0 };
        // Half a cell's height, and the board's from the top of its first row to the bottom of
        // its last: hex rows overlap by a quarter of a hexagon.
        let (half, board_height) = match geometry {
            Geometry::Square { .. } => (s / 2.0, h * s),
            Geometry::Hex { .. } => {
                let r = s / SQRT3;
                (r, 2.0 * r + (h - 1.0) * 1.5 * r)
            }
        };
        let top = pad + vband;
        let board_bottom = top + board_height;
        Layout {
            geometry,
            s,
            ox: pad + band + s / 2.0,
            oy: top + half,
            coord_font,
            top_letters: pad + vband / 2.0,
            bottom_letters: board_bottom + vband / 2.0,
            number_gap: band / 2.0,
            bottom: board_bottom + vband + pad,
        }
    }

    fn slot(&self, col: f64, row: f64) -> (f64, f64) {
        match self.geometry {
            Geometry::Square { .. } => (self.ox + col * self.s, self.oy + row * self.s),
            Geometry::Hex { .. } => (self.ox + col * self.s / 2.0, self.oy + row * 1.5 * self.s / SQRT3),
        }
    }

    fn centre(&self, c: Cell) -> (f64, f64) {
        self.slot(self.geometry.col(c) as f64, self.geometry.row(c) as f64)
    }
}

/// The elements of one picture, written in drawing order.
struct Painter<'a> {
    scene: &'a Scene,
    options: &'a SvgOptions,
    style: &'a Style,
    palette: Vec<Paint>,
    width: f64,
    layout: Layout,
    caption_font: f64,
    out: String,
}

/// What goes under the board, placed: the players' colours, the badges of signs with no cell, the
/// caption's lines (each with what it says) and a numbered diagram's notes, and the picture's
/// height with them.
struct Below {
    margin: f64,
    legend: Vec<(u8, String)>,
    legend_at: Vec<(f64, f64)>,
    badges: Vec<(Sign, Tone, String)>,
    badges_at: Vec<(f64, f64)>,
    badge_height: f64,
    caption: Vec<(String, Said)>,
    caption_top: f64,
    line_height: f64,
    height: f64,
}

/// What a line under the board says.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Said {
    /// The caption: game, ply, side to move, score.
    Caption,
    /// Why the move drawn is illegal.
    Reason,
    /// A numbered diagram's notes: the moves no cell shows.
    Notes,
}

impl<'a> Painter<'a> {
    fn new(scene: &'a Scene, options: &'a SvgOptions, style: &'a Style) -> Painter<'a> {
        let width = options.width.clamp(MIN_WIDTH, MAX_WIDTH) as f64;
        // Room for figures leaving the board in every picture of a game where they can (so that
        // the frames of an animation keep one size), and in any picture that draws one.
        let leaving =
            scene.board.figures_leave || scene.signs.iter().any(|(sign, _)| matches!(sign, Sign::Leaving { .. }));
        let layout = Layout::new(scene.board.geometry, width, options.coordinates, leaving, style);
        let caption_font = (width * style.sizes.caption).clamp(10.0, 18.0);
        Painter {
            scene,
            options,
            style,
            palette: style.palette(&scene.board.players),
            width,
            layout,
            caption_font,
            out: String::new(),
        }
    }

    fn paint_of(&self, owner: u8) -> Paint {
        match self.palette.get(owner as usize) {
            Some(&p) => p,
            // An owner the board names no player for still gets a colour of its own.
            None => self
                .style
                .indexed
                .get(owner as usize % self.style.indexed.len().max(1))
                .copied()
                .unwrap_or(self.style.block),
        }
    }

    /// `fill="..."` for a paint, the hatching of the player's own pattern where it has one.
    fn fill_of(&self, owner: Option<u8>, paint: Paint) -> String {
        match owner {
            // Patterns are defined for the players of the board only.
            Some(o) if paint.hatch && (o as usize) < self.palette.len() => format!("url(#referee-hatch-{o})"),
            _ => paint.fill.to_string(),
        }
    }

    fn paint(mut self) -> String {
        let scene = self.scene;
        let below = self.below();
        // The whole caption, reason included, for readers that do not see the picture.
        let title = scene.caption().join(" — ");
        self.out.push_str(&format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
             font-family=\"{FONT_FAMILY}\" class=\"referee style-{style} game-{game}\">\n<title>{title}</title>\n",
            w = Num(self.width),
            h = Num(below.height),
            style = self.style.name,
            game = scene.game.name,
            title = escape(&title),
        ));
        self.defs();
        self.out.push_str(&format!(
            "<rect class=\"background\" width=\"{}\" height=\"{}\" fill=\"{}\"/>\n",
            Num(self.width),
            Num(below.height),
            self.style.background
        ));
        self.cells();
        self.regions();
        if self.options.coordinates {
            self.coordinates();
        }
        self.marked_cells();
        self.trails();
        self.figures();
        // Faint alternatives under the last move, and the illegal move above everything.
        for (sign, tone) in ordered(&scene.signs) {
            if cell_of(sign).is_some() {
                self.sign(sign, tone);
            }
        }
        for (sign, tone) in ordered(&scene.signs) {
            if tone == Tone::Illegal {
                if let Some(cell) = cell_of(sign) {
                    self.cross(cell);
                }
            }
        }
        // Over the signs, which would hide them: an error diagram's arrows cross numbered cells.
        self.numbers();
        self.markup();
        self.draw_below(&below);
        self.out.push_str("</svg>\n");
        self.out
    }

    /// Where what goes under the board stands, each on rows of its own: the players' colours, the
    /// signs that have no cell (as badges), and the caption; and the picture's height with them.
    fn below(&self) -> Below {
        let s = self.layout.s;
        let scene = self.scene;
        let font = self.caption_font;
        let margin = (s * PAD).max(font * 0.6);
        let right = self.width - margin;
        let mut y = self.layout.bottom;
        let legend: Vec<(u8, String)> = if self.options.caption {
            scene.board.players.iter().enumerate().map(|(i, name)| (i.min(255) as u8, name.to_string())).collect()
        } else {
            Vec::new()
        };
        let widths: Vec<f64> = legend.iter().map(|(_, name)| font * 1.35 + text_width(name, font)).collect();
        let (legend_at, bottom) = flow(&widths, margin, right, y, font * 1.4, font * 0.9);
        if !legend.is_empty() {
            y = bottom + font * 0.2;
        }
        let badges: Vec<(Sign, Tone, String)> =
            ordered(&scene.signs).filter_map(|(sign, tone)| badge_text(sign).map(|text| (sign, tone, text))).collect();
        let badge_height = font * 1.6;
        let widths: Vec<f64> = badges.iter().map(|(_, _, text)| text_width(text, font) + font * 1.2).collect();
        let (badges_at, bottom) = flow(&widths, margin, right, y, badge_height, font * 0.5);
        if !badges.is_empty() {
            y = bottom + font * 0.3;
        }
        let line_height = font * 1.3;
        let mut caption: Vec<(String, Said)> = Vec::new();
        if self.options.caption {
            for (i, line) in scene.caption().iter().enumerate() {
                // The second line, when there is one, says why the move is illegal.
                let said = if i > 0 && scene.illegal.is_some() { Said::Reason } else { Said::Caption };
                caption.extend(wrap(line, font, right - margin).into_iter().map(|l| (l, said)));
            }
        }
        // A numbered diagram's notes are part of it, caption or not.
        if let Some(numbers) = &scene.numbers {
            let notes = numbers.notes(scene.board.geometry);
            if !notes.is_empty() {
                let text = notes.join(", ");
                caption.extend(wrap(&text, font, right - margin).into_iter().map(|l| (l, Said::Notes)));
            }
        }
        let caption_top = y;
        if !caption.is_empty() {
            y += caption.len() as f64 * line_height + font * 0.7;
        }
        let height = y.max(self.layout.bottom).ceil();
        Below { margin, legend, legend_at, badges, badges_at, badge_height, caption, caption_top, line_height, height }
    }

    /// Draws what goes under the board where [`Painter::below`] placed it.
    fn draw_below(&mut self, below: &Below) {
        let font = self.caption_font;
        for ((owner, name), &(x, y)) in below.legend.iter().zip(&below.legend_at) {
            self.legend(*owner, name, x, y + font * 0.7);
        }
        for ((sign, tone, text), &(x, y)) in below.badges.iter().zip(&below.badges_at) {
            self.badge(*sign, *tone, text, x, y, below.badge_height);
        }
        for (i, (line, said)) in below.caption.iter().enumerate() {
            let baseline = below.caption_top + (i as f64 + 1.0) * below.line_height - font * 0.3;
            let (class, colour) = match said {
                Said::Reason => ("caption reason", self.style.illegal.colour),
                Said::Caption => ("caption", self.style.text),
                Said::Notes => ("notes", self.style.text),
            };
            self.out.push_str(&format!(
                "<text class=\"{class}\" x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{colour}\">{}</text>\n",
                Num(below.margin),
                Num(baseline),
                Num(font),
                escape(line)
            ));
        }
    }

    /// The hatching of players painted with a pattern.
    fn defs(&mut self) {
        let hatched: Vec<(usize, Paint)> = self.palette.iter().copied().enumerate().filter(|(_, p)| p.hatch).collect();
        if hatched.is_empty() {
            return;
        }
        let step = (self.layout.s * 0.12).max(3.0);
        self.out.push_str("<defs>\n");
        for (i, p) in hatched {
            self.out.push_str(&format!(
                "<pattern id=\"referee-hatch-{i}\" patternUnits=\"userSpaceOnUse\" width=\"{st}\" height=\"{st}\" \
                 patternTransform=\"rotate(45)\"><rect width=\"{st}\" height=\"{st}\" fill=\"{}\"/>\
                 <rect width=\"{}\" height=\"{st}\" fill=\"{}\"/></pattern>\n",
                p.fill,
                Num(step * 0.4),
                p.stroke,
                st = Num(step),
            ));
        }
        self.out.push_str("</defs>\n");
    }

    fn cells(&mut self) {
        let l = &self.layout;
        let s = l.s;
        let g = l.geometry;
        let mut out = format!(
            "<g class=\"cells\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\">\n",
            self.style.board,
            self.style.lines,
            Num((s * self.style.sizes.line).max(1.0))
        );
        for c in g.cells() {
            let (x, y) = l.centre(c);
            let label = g.label(c);
            match g {
                Geometry::Square { .. } => out.push_str(&format!(
                    "<rect class=\"cell\" data-cell=\"{label}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n",
                    Num(x - s / 2.0),
                    Num(y - s / 2.0),
                    Num(s),
                    Num(s)
                )),
                Geometry::Hex { .. } => {
                    // Pointy-top hexagons: the doubled columns put neighbours in a row s apart.
                    let r = s / SQRT3;
                    let points: Vec<String> = (0..6)
                        .map(|k| {
                            let a = std::f64::consts::PI / 3.0 * k as f64 - std::f64::consts::PI / 2.0;
                            format!("{},{}", Num(x + r * a.cos()), Num(y + r * a.sin()))
                        })
                        .collect();
                    out.push_str(&format!(
                        "<polygon class=\"cell\" data-cell=\"{label}\" points=\"{}\"/>\n",
                        points.join(" ")
                    ));
                }
            }
        }
        out.push_str("</g>\n");
        self.out.push_str(&out);
    }

    fn coordinates(&mut self) {
        let l = &self.layout;
        let g = l.geometry;
        let font = l.coord_font;
        // Text is placed by its baseline; this puts the middle of digits and lowercase letters
        // on the given line.
        let lift = font * 0.36;
        let mut out = format!(
            "<g class=\"coords\" font-size=\"{}\" fill=\"{}\" text-anchor=\"middle\">\n",
            Num(font),
            self.style.coordinates
        );
        for col in 0..g.width() {
            let letter = (b'a' + (col % 26) as u8) as char;
            let (x, _) = l.slot(col as f64, 0.0);
            for y in [l.top_letters, l.bottom_letters] {
                out.push_str(&format!(
                    "<text class=\"coord col\" x=\"{}\" y=\"{}\">{letter}</text>\n",
                    Num(x),
                    Num(y + lift)
                ));
            }
        }
        for row in 0..g.height() {
            let cells: Vec<Cell> = g.row_cells(row).collect();
            let (Some(&first), Some(&last)) = (cells.first(), cells.last()) else { continue };
            let (x0, y) = l.centre(first);
            let (x1, _) = l.centre(last);
            // Numbers hug each row's end cells, which on a hex board are indented.
            let reach = l.s / 2.0 + l.number_gap;
            for x in [x0 - reach, x1 + reach] {
                out.push_str(&format!(
                    "<text class=\"coord row\" x=\"{}\" y=\"{}\">{}</text>\n",
                    Num(x),
                    Num(y + lift),
                    row + 1
                ));
            }
        }
        out.push_str("</g>\n");
        self.out.push_str(&out);
    }

    fn figures(&mut self) {
        for &(cell, figure) in &self.scene.board.figures {
            let (x, y) = self.layout.centre(cell);
            // A mark that carries a number grows to hold it.
            let numbered = self.scene.numbers.as_ref().and_then(|n| n.at(cell)).is_some();
            let mark = self.layout.s * if numbered { NUMBERED_MARK } else { self.style.sizes.mark };
            let (class, body) = self.figure_of(figure, mark);
            self.out.push_str(&format!(
                "<g class=\"figure {class}\" data-cell=\"{}\" transform=\"translate({} {})\">{body}</g>\n",
                self.layout.geometry.label(cell),
                Num(x),
                Num(y)
            ));
        }
    }

    /// A figure drawn around the origin: its classes (`stone owner-0`) and its elements.
    fn figure(&self, figure: Figure) -> (String, String) {
        self.figure_of(figure, self.layout.s * self.style.sizes.mark)
    }

    /// [`Painter::figure`], a [`Shape::Square`] drawn `mark` wide.
    fn figure_of(&self, figure: Figure, mark: f64) -> (String, String) {
        let s = self.layout.s;
        let stroke_width = (s * 0.035).max(1.0);
        let owner = figure.owner;
        let paint = owner.map_or(self.style.block, |o| self.paint_of(o));
        let fill = self.fill_of(owner, paint);
        let owner_class = owner.map(|o| format!(" owner-{o}")).unwrap_or_default();
        let common = format!("fill=\"{fill}\" stroke=\"{}\" stroke-width=\"{}\"", paint.stroke, Num(stroke_width));
        let circle = |r: f64| format!("<circle r=\"{}\" {common}/>", Num(r));
        // One case per shape, none per game: the game's word for the figure is only its class.
        let body = match figure.shape {
            Shape::Disc => circle(s * self.style.sizes.stone),
            Shape::Circle(r) => circle(s * hundredths(r)),
            Shape::Square => {
                let m = mark;
                format!(
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {common}/>",
                    Num(-m / 2.0),
                    Num(-m / 2.0),
                    Num(m),
                    Num(m)
                )
            }
            Shape::Block => {
                let b = s * 0.82;
                format!(
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" {common}/>",
                    Num(-b / 2.0),
                    Num(-b / 2.0),
                    Num(b),
                    Num(b),
                    Num(s * 0.08)
                )
            }
            Shape::Rod(heading) => rod(s, heading, &common, paint, stroke_width),
            Shape::Polygon(points) => polygon(s, points, &common),
        };
        // A rod's class says where it points too, so that a page can tell rods apart.
        let name = match figure.shape {
            Shape::Rod(heading) => format!("{} heading-{}", figure.name, heading_name(heading)),
            _ => figure.name.to_string(),
        };
        (format!("{name}{owner_class}"), body)
    }

    /// The paths of a numbered diagram's pieces that moved, under the figures: a line from cell to
    /// cell in the owner's colours (its fill inside its outline colour, so that print tells the
    /// players apart as it tells their figures apart).
    fn trails(&mut self) {
        let Some(numbers) = &self.scene.numbers else { return };
        let s = self.layout.s;
        for trail in &numbers.trails {
            let paint = trail.owner.map_or(self.style.block, |o| self.paint_of(o));
            let points: Vec<String> = trail
                .steps
                .iter()
                .map(|&(c, _)| {
                    let (x, y) = self.layout.centre(c);
                    format!("{},{}", Num(x), Num(y))
                })
                .collect();
            let owner = trail.owner.map(|o| format!(" owner-{o}")).unwrap_or_default();
            let line = |colour: Rgb, width: f64| {
                format!(
                    "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{}\" \
                     stroke-linejoin=\"round\" stroke-linecap=\"round\"/>",
                    points.join(" "),
                    Num(width)
                )
            };
            // Where the piece stood when the numbering began: a small ring.
            let (x, y) = self.layout.centre(trail.steps[0].0);
            self.out.push_str(&format!(
                "<g class=\"trail{owner}\">{}{}<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"{}\" \
                 stroke-width=\"{}\"/></g>\n",
                line(paint.stroke, s * 0.13),
                line(paint.fill, s * 0.07),
                Num(x),
                Num(y),
                Num(s * 0.1),
                paint.fill,
                paint.stroke,
                Num((s * 0.03).max(1.0))
            ));
        }
    }

    /// A numbered diagram's numbers, over the figures: on each figure the number of the move
    /// played at its cell, in the ink its owner's figures carry, haloed in their fill so that it
    /// reads on figures of any colour; and on each trail the numbers of its steps, in small discs
    /// of the owner's colours, on the cell where it is empty and at its corner where not.
    fn numbers(&mut self) {
        let Some(numbers) = &self.scene.numbers else { return };
        let s = self.layout.s;
        let figure_at = |cell: Cell| {
            let figures = &self.scene.board.figures;
            figures.binary_search_by_key(&cell, |&(c, _)| c).ok().map(|k| figures[k].1)
        };
        let mut out = String::from("<g class=\"numbers\" text-anchor=\"middle\">\n");
        for trail in &numbers.trails {
            let paint = trail.owner.map_or(self.style.block, |o| self.paint_of(o));
            let fill = self.fill_of(trail.owner, paint);
            let last = trail.steps.len() - 1;
            for (i, &(cell, n)) in trail.steps.iter().enumerate() {
                // The piece at the trail's end carries its number itself.
                let Some(n) = n.filter(|_| !(i == last && trail.standing)) else { continue };
                let (x, y) = self.layout.centre(cell);
                let (x, y, r) =
                    if figure_at(cell).is_some() { (x - s * 0.28, y - s * 0.28, s * 0.2) } else { (x, y, s * 0.25) };
                out.push_str(&format!(
                    "<g class=\"step owner-{}\" data-cell=\"{}\"><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" \
                     stroke=\"{}\" stroke-width=\"{}\"/>{}</g>\n",
                    trail.owner.map_or_else(|| "none".to_string(), |o| o.to_string()),
                    self.layout.geometry.label(cell),
                    Num(x),
                    Num(y),
                    Num(r),
                    paint.stroke,
                    Num((s * 0.025).max(1.0)),
                    number_text(x, y, n, r * 1.7, paint)
                ));
            }
        }
        for &(cell, n) in &numbers.cells {
            let Some(figure) = figure_at(cell) else { continue };
            let paint = figure.owner.map_or(self.style.block, |o| self.paint_of(o));
            let (x, y) = self.layout.centre(cell);
            // As wide as the figure's body, which a rod's point and line leave smaller, and a
            // rod's number a little back from its line.
            let (room, (dx, dy)) = match figure.shape {
                Shape::Circle(r) => ((s * hundredths(r) * 1.7).max(s * 0.5), (0.0, 0.0)),
                Shape::Rod(heading) => (s * 0.46, heading_vector(heading)),
                Shape::Polygon(_) => (s * 0.5, (0.0, 0.0)),
                Shape::Disc | Shape::Square | Shape::Block => (s * 0.6, (0.0, 0.0)),
            };
            let (x, y) = (x - dx * s * 0.06, y - dy * s * 0.06);
            out.push_str(&format!(
                "<g class=\"number\" data-cell=\"{}\">{}</g>\n",
                self.layout.geometry.label(cell),
                number_text(x, y, n, room, paint)
            ));
        }
        out.push_str("</g>\n");
        self.out.push_str(&out);
    }

    /// What scored, under the figures: each region's cells shaded in its owner's colour
    /// ([`Mark::Shade`]), and a band just inside its edge, in the owner's outline colour for a
    /// shaded region and in the style's `counted` colour for an outlined one ([`Mark::Outline`]).
    /// The band is a line along the region's edge clipped to its cells, so that two regions side by
    /// side each keep their own.
    fn regions(&mut self) {
        let s = self.layout.s;
        for (i, region) in self.scene.scoring.iter().enumerate() {
            let paint = self.paint_of(region.owner);
            let cells = self.region_cells(&region.cells);
            let edge = self.region_edge(&region.cells);
            let (band, colour, fill) = match region.mark {
                Mark::Shade => (0.07, paint.stroke, Some(self.fill_of(Some(region.owner), paint))),
                Mark::Outline => (0.1, self.style.counted, None),
            };
            let mut out = format!(
                "<g class=\"region {} {} owner-{}\">",
                region.name,
                if region.mark == Mark::Shade { "shade" } else { "outline" },
                region.owner
            );
            out.push_str(&format!("<clipPath id=\"referee-region-{i}\"><path d=\"{cells}\"/></clipPath>"));
            if let Some(fill) = fill {
                out.push_str(&format!(
                    "<path d=\"{cells}\" fill=\"{fill}\" opacity=\"{}\"/>",
                    Num(self.style.shade_opacity)
                ));
            }
            out.push_str(&format!(
                "<path d=\"{edge}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{}\" stroke-linecap=\"round\" \
                 clip-path=\"url(#referee-region-{i})\"/></g>\n",
                Num((2.0 * band * s).max(2.0))
            ));
            self.out.push_str(&out);
        }
    }

    /// The corners of a cell, clockwise from the top (a hexagon) or the top left (a square).
    fn corners(&self, cell: Cell) -> Vec<(f64, f64)> {
        let (x, y) = self.layout.centre(cell);
        let s = self.layout.s;
        match self.layout.geometry {
            Geometry::Square { .. } => {
                let h = s / 2.0;
                vec![(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)]
            }
            Geometry::Hex { .. } => {
                let r = s / SQRT3;
                (0..6)
                    .map(|k| {
                        let a = std::f64::consts::PI / 3.0 * k as f64 - std::f64::consts::PI / 2.0;
                        (x + r * a.cos(), y + r * a.sin())
                    })
                    .collect()
            }
        }
    }

    /// The outline of each of these cells, as one path.
    fn region_cells(&self, cells: &[Cell]) -> String {
        let mut d = String::new();
        for &cell in cells {
            for (k, (x, y)) in self.corners(cell).into_iter().enumerate() {
                d.push_str(&format!("{}{} {}", if k == 0 { "M" } else { "L" }, Num(x), Num(y)));
            }
            d.push('Z');
        }
        d
    }

    /// The sides of these cells that no other of them shares: the region's edge, as one path. A
    /// side is shared when the cell across it, a neighbour whose centre is the cell's centre
    /// mirrored in the side's middle, is one of them.
    fn region_edge(&self, cells: &[Cell]) -> String {
        let g = self.layout.geometry;
        let mut d = String::new();
        for &cell in cells {
            let (x, y) = self.layout.centre(cell);
            let corners = self.corners(cell);
            for (k, &(ax, ay)) in corners.iter().enumerate() {
                let (bx, by) = corners[(k + 1) % corners.len()];
                let across = (ax + bx - x, ay + by - y);
                let shared = g.neighbours(cell).any(|n| {
                    let (nx, ny) = self.layout.centre(n);
                    cells.contains(&n) && (nx - across.0).abs() + (ny - across.1).abs() < self.layout.s * 0.1
                });
                if !shared {
                    d.push_str(&format!("M{} {}L{} {}", Num(ax), Num(ay), Num(bx), Num(by)));
                }
            }
        }
        d
    }

    /// The colour of markup, and how it is drawn.
    fn markup_colour(&self, colour: Colour) -> (Rgb, Line) {
        let k = Colour::ALL.iter().position(|(c, _)| *c == colour).unwrap_or(1);
        (self.style.markup[k], self.style.markup_lines[k])
    }

    /// The outline of a hollow markup drawing, `width` wide: solid or dashed.
    fn outline(colour: Rgb, line: Line, width: f64) -> String {
        let dash = match line {
            Line::Dashed => format!(" stroke-dasharray=\"{} {}\"", Num(width * 2.5), Num(width * 1.5)),
            _ => String::new(),
        };
        format!("stroke=\"{colour}\" stroke-width=\"{}\" stroke-linejoin=\"round\"{dash}", Num(width))
    }

    /// The cells the writer's markup colours, under the figures.
    fn marked_cells(&mut self) {
        for drawn in &self.scene.markup {
            if let Drawn::Mark { cell, colour } = *drawn {
                let corners = self.corners(cell);
                let points: Vec<String> = corners.iter().map(|&(x, y)| format!("{},{}", Num(x), Num(y))).collect();
                let (ink, line) = self.markup_colour(colour);
                let paint = match line {
                    Line::Filled => format!("fill=\"{ink}\" opacity=\"0.55\""),
                    // Inside the cell's own lines, as wide as a sign's.
                    _ => format!("fill=\"none\" {}", Self::outline(ink, line, self.layout.s * 0.08)),
                };
                self.out.push_str(&format!(
                    "<polygon class=\"markup mark {}\" points=\"{}\" {paint}/>\n",
                    colour.name(),
                    points.join(" "),
                ));
            }
        }
    }

    /// The writer's arrows and labels, over everything on the board.
    fn markup(&mut self) {
        let s = self.layout.s;
        let halo = (s * self.style.sizes.halo).max(1.0);
        for drawn in &self.scene.markup {
            match drawn {
                Drawn::Arrow { from, to, colour } => {
                    let (ink, line) = self.markup_colour(*colour);
                    let (from, to) = (self.layout.centre(*from), self.layout.centre(*to));
                    let width = s * self.style.sizes.sign * 1.2;
                    let body = match line {
                        Line::Filled => arrow(from, to, 0.0, width, s, ink, self.style.halo, halo),
                        // A hollow arrow is wider, so that its inside shows.
                        _ => arrow_points(from, to, 0.0, width * 1.8, s).map_or_else(String::new, |points| {
                            format!(
                                "<polygon points=\"{points}\" fill=\"{}\" {}/>",
                                self.style.halo,
                                Self::outline(ink, line, (s * 0.035).max(1.0))
                            )
                        }),
                    };
                    self.out.push_str(&format!(
                        "<g class=\"markup arrow {}\" opacity=\"0.85\">{body}</g>\n",
                        colour.name()
                    ));
                }
                Drawn::Label { cell, text } => {
                    let (x, y) = self.layout.centre(*cell);
                    let font = s * if text.chars().count() > 2 { 0.34 } else { 0.46 };
                    self.out.push_str(&format!(
                        "<text class=\"markup label\" x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"bold\" \
                         text-anchor=\"middle\" dominant-baseline=\"central\" fill=\"{}\" stroke=\"{}\" \
                         stroke-width=\"{}\" paint-order=\"stroke\">{}</text>\n",
                        Num(x),
                        Num(y),
                        Num(font),
                        self.style.text,
                        self.style.halo,
                        Num(halo * 2.0),
                        escape(text)
                    ));
                }
                Drawn::Mark { .. } => {}
            }
        }
    }

    fn sign(&mut self, sign: Sign, tone: Tone) {
        let s = self.layout.s;
        let ink = self.style.ink(tone);
        // Illegal signs are drawn heavier, so that they stand out in greyscale too.
        let weight = if tone == Tone::Illegal { 1.3 } else { 1.0 };
        let width = s * self.style.sizes.sign * weight;
        let halo = (s * self.style.sizes.halo).max(1.0);
        let class = format!("sign {} {}", tone_name(tone), sign_name(sign));
        let group = format!("<g class=\"{class}\" opacity=\"{}\">", Num(ink.opacity));
        let body = match sign {
            Sign::Arrow { from, to } => {
                let (ax, ay) = self.layout.centre(from);
                let (bx, by) = self.layout.centre(to);
                // Two arrows between the same cells in opposite directions (a swap) would hide
                // one another: each moves aside to its own right.
                let reverse = self.scene.signs.iter().any(|(o, _)| *o == Sign::Arrow { from: to, to: from });
                let side = if reverse { s * 0.13 } else { 0.0 };
                arrow((ax, ay), (bx, by), side, width, s, ink.colour, self.style.halo, halo)
            }
            // A cell the record could have played instead is a faint dot, not a ring: on a
            // placement game nearly every empty cell is one, and rings would cover the board.
            Sign::Ring(cell) if tone == Tone::Alternative => {
                let (x, y) = self.layout.centre(cell);
                format!("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"/>", Num(x), Num(y), Num(s * 0.12), ink.colour,)
            }
            Sign::Ring(cell) => {
                let (x, y) = self.layout.centre(cell);
                format!(
                    "<circle cx=\"{x}\" cy=\"{y}\" r=\"{r}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"/>\
                     <circle cx=\"{x}\" cy=\"{y}\" r=\"{r}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"/>",
                    self.style.halo,
                    Num(width + 2.0 * halo),
                    ink.colour,
                    Num(width),
                    x = Num(x),
                    y = Num(y),
                    r = Num(s * 0.45),
                )
            }
            Sign::Stay(cell) => {
                let (x, y) = self.layout.centre(cell);
                format!(
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/>",
                    Num(x),
                    Num(y),
                    Num(s * 0.14 * weight),
                    ink.colour,
                    self.style.halo,
                    Num(halo * 1.5)
                )
            }
            // The figure faint just past the edge, smaller, and an arrow out to it.
            Sign::Leaving { from, towards, figure } => {
                let (ax, ay) = self.layout.centre(from);
                let g = self.layout.geometry;
                let (col, row) = (g.col(from) as f64, g.row(from) as f64);
                let (dx, dy) = (f64::from(towards.0) * LEAVING, f64::from(towards.1) * LEAVING);
                let (bx, by) = self.layout.slot(col + dx, row + dy);
                let (class, figure) = self.figure(figure);
                format!(
                    "<g class=\"gone {class}\" opacity=\"0.55\" transform=\"translate({} {}) scale(0.8)\">{figure}</g>{}",
                    Num(bx),
                    Num(by),
                    arrow((ax, ay), (bx, by), 0.0, width, s, ink.colour, self.style.halo, halo)
                )
            }
            Sign::Number(_) | Sign::Pass | Sign::Swap => return,
        };
        self.out.push_str(&format!("{group}{body}</g>\n"));
    }

    /// A small cross in a badge at the corner of the cell an illegal move names: illegal reads
    /// as illegal in any style, colour or none.
    fn cross(&mut self, cell: Cell) {
        let s = self.layout.s;
        let (x, y) = self.layout.centre(cell);
        let (cx, cy) = (x + s * 0.3, y - s * 0.3);
        let r = s * 0.16;
        let a = r * 0.5;
        let ink = self.style.illegal;
        self.out.push_str(&format!(
            "<g class=\"sign illegal cross\" transform=\"translate({} {})\"><circle r=\"{}\" fill=\"{}\" stroke=\"{}\" \
             stroke-width=\"{}\"/><path d=\"M{} {}L{} {}M{} {}L{} {}\" stroke=\"{}\" stroke-width=\"{}\" \
             stroke-linecap=\"round\"/></g>\n",
            Num(cx),
            Num(cy),
            Num(r),
            ink.colour,
            self.style.halo,
            Num((s * 0.03).max(1.0)),
            Num(-a),
            Num(-a),
            Num(a),
            Num(a),
            Num(-a),
            Num(a),
            Num(a),
            Num(-a),
            self.style.halo,
            Num((r * 0.3).max(1.0)),
        ));
    }

    /// A player's colour and name: the caption names players, and print tells them apart only
    /// by fill.
    fn legend(&mut self, owner: u8, name: &str, x: f64, middle: f64) {
        let font = self.caption_font;
        let paint = self.paint_of(owner);
        let r = font * 0.45;
        self.out.push_str(&format!(
            "<g class=\"legend owner-{owner}\"><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"{}\" \
             stroke-width=\"1\"/><text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{}\">{}</text></g>\n",
            Num(x + r),
            Num(middle),
            Num(r),
            self.fill_of(Some(owner), paint),
            paint.stroke,
            Num(x + 2.0 * r + font * 0.35),
            Num(middle + font * 0.36),
            Num(font),
            self.style.text,
            escape(name)
        ));
    }

    /// A sign without a cell, as a short label.
    fn badge(&mut self, sign: Sign, tone: Tone, text: &str, x: f64, y: f64, height: f64) {
        let font = self.caption_font;
        let ink = self.style.ink(tone);
        let w = text_width(text, font) + font * 1.2;
        let stroke = if tone == Tone::Illegal { font * 0.16 } else { font * 0.1 };
        self.out.push_str(&format!(
            "<g class=\"sign {} {}\" opacity=\"{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" \
             fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/><text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{}\" \
             text-anchor=\"middle\">{}</text></g>\n",
            tone_name(tone),
            sign_name(sign),
            // Faint badges would be unreadable text.
            Num(ink.opacity.max(0.6)),
            Num(x),
            Num(y),
            Num(w),
            Num(height),
            Num(height / 2.0),
            self.style.badge,
            ink.colour,
            Num(stroke),
            Num(x + w / 2.0),
            Num(y + height / 2.0 + font * 0.36),
            Num(font),
            ink.colour,
            escape(text)
        ));
    }
}

/// How wide a mark that carries a number is drawn, in cells: wide enough for two digits.
const NUMBERED_MARK: f64 = 0.64;

/// A move number centred on (`x`, `y`), at most `room` wide, in `paint`'s ink with a halo of its
/// fill.
fn number_text(x: f64, y: f64, n: u32, room: f64, paint: Paint) -> String {
    let text = n.to_string();
    let font = (room / (text.len() as f64 * advance('0'))).min(room * 0.7);
    format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\" \
         paint-order=\"stroke\">{text}</text>",
        Num(x),
        // Digits stand on the baseline: this puts their middle on `y`.
        Num(y + font * 0.36),
        Num(font),
        paint.ink,
        paint.fill,
        Num(font * 0.12)
    )
}

/// The text of a sign drawn as a badge; `None` for signs drawn on the board.
fn badge_text(sign: Sign) -> Option<String> {
    match sign {
        Sign::Number(n) => Some(format!("number {n}")),
        Sign::Pass => Some("pass".to_string()),
        Sign::Swap => Some("swap".to_string()),
        Sign::Arrow { .. } | Sign::Ring(_) | Sign::Stay(_) | Sign::Leaving { .. } => None,
    }
}

/// Items of the given widths laid out left to right from `left`, on a new row when one would pass
/// `right`: the top-left corner of each, and the bottom of the last row (`top` if none).
fn flow(widths: &[f64], left: f64, right: f64, top: f64, row: f64, gap: f64) -> (Vec<(f64, f64)>, f64) {
    let mut at = Vec::with_capacity(widths.len());
    let (mut x, mut y) = (left, top);
    for &w in widths {
        if x > left && x + w > right {
            x = left;
            y += row + gap * 0.5;
        }
        at.push((x, y));
        x += w + gap;
    }
    let bottom = if widths.is_empty() { top } else { y + row };
    (at, bottom)
}

/// Signs in drawing order: alternatives first, the last move over them, the illegal move on top.
fn ordered(signs: &[(Sign, Tone)]) -> impl Iterator<Item = (Sign, Tone)> + '_ {
    [Tone::Alternative, Tone::Last, Tone::Illegal]
        .into_iter()
        .flat_map(move |t| signs.iter().copied().filter(move |&(_, tone)| tone == t))
}

/// The cell a sign is drawn on (the target of an arrow); `None` for signs drawn as badges.
fn cell_of(sign: Sign) -> Option<Cell> {
    match sign {
        Sign::Arrow { to, .. } => Some(to),
        Sign::Ring(c) | Sign::Stay(c) => Some(c),
        Sign::Leaving { from, .. } => Some(from),
        Sign::Number(_) | Sign::Pass | Sign::Swap => None,
    }
}

fn tone_name(tone: Tone) -> &'static str {
    match tone {
        Tone::Last => "last",
        Tone::Illegal => "illegal",
        Tone::Alternative => "alternative",
    }
}

fn sign_name(sign: Sign) -> &'static str {
    match sign {
        Sign::Arrow { .. } => "arrow",
        Sign::Ring(_) => "ring",
        Sign::Stay(_) => "stay",
        Sign::Leaving { .. } => "leaving",
        Sign::Number(_) => "number",
        Sign::Pass => "pass",
        Sign::Swap => "swap",
    }
}

/// An arrow from one cell centre towards another as one polygon (shaft and head), so that a
/// translucent arrow has no darker seam; `side` moves it to its right.
#[allow(clippy::too_many_arguments)]
fn arrow(
    (ax, ay): (f64, f64),
    (bx, by): (f64, f64),
    side: f64,
    width: f64,
    s: f64,
    colour: Rgb,
    halo: Rgb,
    halo_width: f64,
) -> String {
    let Some(points) = arrow_points((ax, ay), (bx, by), side, width, s) else { return String::new() };
    format!(
        "<polygon points=\"{points}\" fill=\"{colour}\" stroke=\"{halo}\" stroke-width=\"{}\" stroke-linejoin=\"round\" \
         paint-order=\"stroke\"/>",
        Num(halo_width * 2.0)
    )
}

/// The outline of an arrow from one point to another, as [`arrow`] draws it: its polygon's points;
/// none between two points that are one.
fn arrow_points((ax, ay): (f64, f64), (bx, by): (f64, f64), side: f64, width: f64, s: f64) -> Option<String> {
    let (dx, dy) = (bx - ax, by - ay);
    let length = (dx * dx + dy * dy).sqrt();
    if length < 1e-6 {
        return None;
    }
    let (ux, uy) = (dx / length, dy / length);
    // The right-hand normal, in a picture whose y axis points down.
    let (nx, ny) = (-uy, ux);
    let (ax, ay) = (ax + nx * side, ay + ny * side);
    // The tip stops short of the target's centre so that the figure there still shows.
    let tip = (length - s * 0.12).max(length * 0.5);
    let head = (s * 0.3).min(tip * 0.6);
    let half_head = s * 0.17;
    let half = width / 2.0;
    let at = |along: f64, across: f64| (ax + ux * along + nx * across, ay + uy * along + ny * across);
    let start = s * 0.05;
    let points = [
        at(start, -half),
        at(tip - head, -half),
        at(tip - head, -half_head),
        at(tip, 0.0),
        at(tip - head, half_head),
        at(tip - head, half),
        at(start, half),
    ];
    let points: Vec<String> = points.iter().map(|&(x, y)| format!("{},{}", Num(x), Num(y))).collect();
    Some(points.join(" "))
}

/// The unit vector of a heading, in a picture whose y axis points down.
fn heading_vector(heading: Heading) -> (f64, f64) {
    match heading {
        Heading::Up => (0.0, -1.0),
        Heading::Right => (1.0, 0.0),
        Heading::Down => (0.0, 1.0),
        Heading::Left => (-1.0, 0.0),
    }
}

/// A [`Shape::Rod`]: a disk drawn out into a point towards its heading, and the rod along it.
fn rod(s: f64, heading: Heading, common: &str, paint: Paint, stroke_width: f64) -> String {
    let (dx, dy) = heading_vector(heading);
    let radius = s * 0.3;
    let reach = s * 0.47;
    // The outline runs from the tip along a tangent, round the back of the disk, and back along
    // the other tangent.
    let phi = (radius / reach).acos();
    let base = dy.atan2(dx);
    let p1 = (radius * (base + phi).cos(), radius * (base + phi).sin());
    let p2 = (radius * (base - phi).cos(), radius * (base - phi).sin());
    format!(
        "<path d=\"M{} {}L{} {}A{r} {r} 0 1 1 {} {}Z\" {common} stroke-linejoin=\"round\"/>\
         <path d=\"M0 0L{} {}\" stroke=\"{}\" stroke-width=\"{}\" stroke-linecap=\"round\"/>",
        Num(dx * reach),
        Num(dy * reach),
        Num(p1.0),
        Num(p1.1),
        Num(p2.0),
        Num(p2.1),
        Num(dx * reach * 0.78),
        Num(dy * reach * 0.78),
        paint.ink,
        Num((s * 0.07).max(stroke_width)),
        r = Num(radius),
    )
}

/// The edge a rod points to, as its class names it.
fn heading_name(heading: Heading) -> &'static str {
    match heading {
        Heading::Up => "up",
        Heading::Right => "right",
        Heading::Down => "down",
        Heading::Left => "left",
    }
}

/// A [`Shape::Polygon`], its points given in hundredths of `s`, with round corners.
fn polygon(s: f64, points: &[(i8, i8)], common: &str) -> String {
    let at = |v: i8| Num(hundredths(v) * s);
    let points: Vec<String> = points.iter().map(|&(x, y)| format!("{},{}", at(x), at(y))).collect();
    format!("<polygon points=\"{}\" {common} stroke-linejoin=\"round\"/>", points.join(" "))
}

/// A measure a game gives in hundredths (of a cell), as a fraction. Divided by 100 rather than
/// multiplied by 0.01, so that it is the float its decimals name (`-32` is `-0.32`, `19` is `0.19`):
/// the figures keep the numbers they were drawn with when the engines gave them as decimals.
fn hundredths(v: impl Into<f64>) -> f64 {
    v.into() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_at_fixed_precision() {
        assert_eq!(Num(1.0).to_string(), "1");
        assert_eq!(Num(1.5).to_string(), "1.5");
        assert_eq!(Num(1.2345).to_string(), "1.23");
        assert_eq!(Num(-0.001).to_string(), "0");
        assert_eq!(Num(f64::NAN).to_string(), "0");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
        assert_eq!(escape("a\u{1}b"), "a b");
    }

    #[test]
    fn long_lines_wrap_within_the_width() {
        let text = "Illegal: ".to_string() + &"word ".repeat(40) + &"x".repeat(120);
        let lines = wrap(&text, 14.0, 300.0);
        assert!(lines.len() > 3);
        for line in &lines {
            assert!(text_width(line, 14.0) <= 300.0, "{line}");
        }
        assert_eq!(lines.join(" ").replace(' ', ""), text.replace(' ', ""));
    }

    #[test]
    fn style_names_round_trip() {
        for name in StyleName::ALL {
            assert_eq!(name.name().parse::<StyleName>(), Ok(name));
        }
        assert!("sepia".parse::<StyleName>().is_err());
    }

    #[test]
    fn palettes_keep_players_apart() {
        for name in StyleName::ALL {
            let style = Style::of(name);
            for players in
                [&["Red", "Blue", "Green", "Yellow"][..], &["X", "O"], &["Foo", "Bar", "Baz"], &["Black", "X"]]
            {
                let palette = style.palette(players);
                assert_eq!(palette.len(), players.len());
                for i in 0..palette.len() {
                    for j in 0..i {
                        assert_ne!(palette[i], palette[j], "{name}: {players:?}");
                    }
                }
            }
        }
    }
}
