//! A booklet's pages as PDF, with krilla: text set in DejaVu Sans (and the report in DejaVu Sans
//! Mono), both embedded as subsets, so that the text can be selected and searched; the diagrams
//! are the SVG of [`svg`], drawn as vectors by krilla-svg, their text embedded
//! too.
//!
//! Pages are laid out first, then drawn: a collection's contents page gives the page each record
//! starts on, and every page its number. Lengths are in PDF points (1/72 inch), from the page's
//! top left corner.

use std::sync::OnceLock;

use krilla::color::rgb;
use krilla::destination::XyzDestination;
use krilla::geom::{Point, Size, Transform};
use krilla::metadata::Metadata;
use krilla::num::NormalizedF32;
use krilla::outline::{Outline, OutlineNode};
use krilla::page::PageSettings;
use krilla::paint::Fill;
use krilla::surface::Surface;
use krilla::text::{Font, TextDirection};
use krilla::Document;
use krilla_svg::{SurfaceExt, SvgSettings};
use resvg::usvg;

use super::{Entry, Section, Written};
use crate::render::model::Scene;
use crate::render::png::DEJAVU_SANS;
use crate::render::svg::{self, StyleName, SvgOptions};

/// DejaVu Sans Mono (Bitstream Vera licence, see `assets/fonts/LICENSE`): the report, whose
/// lines point at columns, needs a font whose characters are all as wide.
const DEJAVU_SANS_MONO: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansMono.ttf");

/// The most pages a booklet has: a PDF is built whole in memory, so a booklet is kept to what a
/// printed one could be.
pub const MAX_PAGES: usize = 2_000;

/// Points in a millimetre.
pub const MM: f32 = 72.0 / 25.4;

/// The paper a booklet is printed on.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Paper {
    /// ISO A4, 210 × 297 mm.
    #[default]
    A4,
    /// US Letter, 8.5 × 11 inches.
    Letter,
}

impl Paper {
    /// Its width and height in points.
    pub fn size(self) -> (f32, f32) {
        match self {
            Paper::A4 => (210.0 * MM, 297.0 * MM),
            Paper::Letter => (612.0, 792.0),
        }
    }
}

/// How a booklet looks.
#[derive(Clone, Debug, PartialEq)]
pub struct Look {
    /// Its paper.
    pub paper: Paper,
    /// The diagrams' style: print (black and white) unless asked.
    pub style: StyleName,
    /// The diagrams' width, in millimetres (from 30 to the text's width).
    pub diagram_mm: f32,
    /// The booklet's title: its metadata, and the contents page's heading.
    pub title: String,
}

impl Default for Look {
    fn default() -> Look {
        Look { paper: Paper::A4, style: StyleName::Print, diagram_mm: 70.0, title: "Records".to_string() }
    }
}

/// Why a booklet could not be made.
#[derive(thiserror::Error, Debug)]
pub enum BookError {
    /// It would have more than [`MAX_PAGES`] pages.
    #[error("the booklet would have more than {MAX_PAGES} pages: make booklets of fewer records")]
    TooLong,
    /// There is no record to put in it.
    #[error("there is no record to put in a booklet")]
    Empty,
    /// A diagram's SVG could not be read (a fault of this program, said rather than hidden).
    #[error("a diagram could not be drawn: {0}")]
    Diagram(String),
    /// krilla refused the document.
    #[error("the PDF could not be written: {0}")]
    Pdf(String),
}

/// The margin around the text on every side.
const MARGIN: f32 = 18.0 * MM;
/// The body's font size, and the lines' height.
const BODY: f32 = 9.5;
const LEADING: f32 = 1.35;
/// A record's heading.
const HEADING: f32 = 13.0;
/// The report's font size: a line of 100 columns fits the text's width on A4 and Letter.
const REPORT: f32 = 7.2;
/// The page number's.
const FOLIO: f32 = 8.0;
/// The gap between a diagram and the moves beside it.
const GUTTER: f32 = 5.0 * MM;

/// The grey of comments, variations and notes: told apart from the moves by more than colour,
/// since a comment is in braces and a variation in brackets, as written.
const GREY: (u8, u8, u8) = (0x55, 0x55, 0x55);
const BLACK: (u8, u8, u8) = (0, 0, 0);

/// Which of the two embedded fonts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Face {
    Sans,
    Mono,
}

/// The fonts' metrics, read once: each character's advance, in ems.
struct Metrics {
    sans: ttf_parser::Face<'static>,
    mono: ttf_parser::Face<'static>,
}

fn metrics() -> &'static Metrics {
    static METRICS: OnceLock<Metrics> = OnceLock::new();
    METRICS.get_or_init(|| Metrics {
        sans: ttf_parser::Face::parse(DEJAVU_SANS, 0).expect("DejaVu Sans is built in"),
        mono: ttf_parser::Face::parse(DEJAVU_SANS_MONO, 0).expect("DejaVu Sans Mono is built in"),
    })
}

/// The width of `text` set in `face` at `size` points, unshaped: DejaVu's kerning only narrows it.
fn width(text: &str, face: Face, size: f32) -> f32 {
    let m = metrics();
    let f = match face {
        Face::Sans => &m.sans,
        Face::Mono => &m.mono,
    };
    let em = f32::from(f.units_per_em());
    // A character the font lacks is drawn as its missing glyph, as wide as glyph 0.
    let advance = |c: char| {
        f.glyph_index(c).and_then(|g| f.glyph_hor_advance(g)).or_else(|| f.glyph_hor_advance(ttf_parser::GlyphId(0)))
    };
    text.chars().map(|c| f32::from(advance(c).unwrap_or(0))).sum::<f32>() / em * size
}

/// A word of a paragraph, in its colour.
#[derive(Clone, Debug, PartialEq)]
struct Word {
    text: String,
    colour: (u8, u8, u8),
}

/// Words broken into lines no wider than `max`; a word wider than a line alone is cut.
fn lines(words: &[Word], face: Face, size: f32, max: f32) -> Vec<Vec<Word>> {
    let space = width(" ", face, size);
    let mut out: Vec<Vec<Word>> = Vec::new();
    let mut line: Vec<Word> = Vec::new();
    let mut used = 0.0;
    for word in words {
        let w = width(&word.text, face, size);
        if !line.is_empty() && used + space + w > max {
            out.push(std::mem::take(&mut line));
            used = 0.0;
        }
        if w > max {
            // Cut where it must be, a piece a line.
            let mut piece = String::new();
            for c in word.text.chars() {
                if !piece.is_empty() && width(&piece, face, size) + width(&c.to_string(), face, size) > max {
                    out.push(vec![Word { text: std::mem::take(&mut piece), colour: word.colour }]);
                }
                piece.push(c);
            }
            used = width(&piece, face, size);
            line.push(Word { text: piece, colour: word.colour });
            continue;
        }
        used += if line.is_empty() { w } else { space + w };
        line.push(word.clone());
    }
    if !line.is_empty() {
        out.push(line);
    }
    out
}

/// Plain text in one colour, as words.
fn words(text: &str, colour: (u8, u8, u8)) -> Vec<Word> {
    text.split_whitespace().map(|w| Word { text: w.to_string(), colour }).collect()
}

/// What a page holds, placed.
#[derive(Debug)]
enum Item {
    /// A line of words, its baseline at `y`.
    Line { x: f32, y: f32, face: Face, size: f32, words: Vec<Word> },
    /// The number of a page of the records (0: the first record's first), its right end at `x`:
    /// the contents give it before they know how many pages they take themselves.
    PageNumber { x: f32, y: f32, page: usize },
    /// A diagram, its top left corner at `x`, `y`, `w` wide, read once from its SVG.
    Diagram { x: f32, y: f32, w: f32, h: f32, tree: Box<usvg::Tree> },
}

/// Pages being filled, top to bottom.
struct Pages {
    width: f32,
    height: f32,
    pages: Vec<Vec<Item>>,
    /// Where the next thing goes on the last page.
    y: f32,
}

impl Pages {
    fn new(paper: Paper) -> Pages {
        let (width, height) = paper.size();
        Pages { width, height, pages: Vec::new(), y: MARGIN }
    }

    fn bottom(&self) -> f32 {
        // Room for the page number under the text.
        self.height - MARGIN
    }

    fn text_width(&self) -> f32 {
        self.width - 2.0 * MARGIN
    }

    fn new_page(&mut self) -> Result<(), BookError> {
        if self.pages.len() >= MAX_PAGES {
            return Err(BookError::TooLong);
        }
        self.pages.push(Vec::new());
        self.y = MARGIN;
        Ok(())
    }

    /// Makes room for `h` points on the page, on a new one if this one lacks it (and is not bare).
    fn room(&mut self, h: f32) -> Result<(), BookError> {
        if self.pages.is_empty() || (self.y + h > self.bottom() && self.y > MARGIN) {
            self.new_page()?;
        }
        Ok(())
    }

    fn push(&mut self, item: Item) {
        self.pages.last_mut().expect("a page is started before anything is put on it").push(item);
    }

    /// A line of words at `x` on the next line down, which the page has room for; gives its
    /// baseline.
    fn line(&mut self, x: f32, words: Vec<Word>, face: Face, size: f32) -> f32 {
        self.y += size * LEADING;
        let y = self.y - size * 0.3;
        self.push(Item::Line { x, y, face, size, words });
        y
    }

    /// A paragraph at `x`, `max` wide, from the current line down, on as many pages as it takes;
    /// gives the page and the baseline of its first line.
    fn paragraph(
        &mut self,
        x: f32,
        max: f32,
        words: &[Word],
        face: Face,
        size: f32,
    ) -> Result<(usize, f32), BookError> {
        let step = size * LEADING;
        let mut first = None;
        for line in lines(words, face, size, max) {
            self.room(step)?;
            let y = self.line(x, line, face, size);
            first.get_or_insert((self.pages.len() - 1, y));
        }
        Ok(first.unwrap_or((self.pages.len().saturating_sub(1), self.y)))
    }

    fn gap(&mut self, h: f32) {
        self.y += h;
    }
}

/// The words of a move list: numbers and moves in black, comments `{…}` and variations `(…)` in
/// grey, as written.
fn move_words(moves: &[Written]) -> Vec<Word> {
    let mut out = Vec::new();
    for w in moves {
        match w {
            Written::Number(n) => out.push(Word { text: format!("{n}."), colour: BLACK }),
            Written::Move(m) => out.push(Word { text: m.clone(), colour: BLACK }),
            Written::Comment(c) => out.extend(words(&format!("{{{c}}}"), GREY)),
            Written::Variation(v) => out.extend(words(v, GREY)),
        }
    }
    out
}

/// A diagram read from its SVG to be drawn `w` points wide, and its height in points.
fn diagram(scene: &Scene, w: f32, look: &Look) -> Result<(Box<usvg::Tree>, f32), BookError> {
    // SVG pixels are 1/96 inch: the picture is drawn at the size it is printed, so that its
    // text has the sizes the painter chose for that width.
    let px = (w * 96.0 / 72.0).round() as u32;
    let options = SvgOptions { width: px, style: look.style, coordinates: true, caption: true };
    let text = svg::svg(scene, &options);
    let tree = crate::render::png::tree(&text).map_err(|e| BookError::Diagram(e.to_string()))?;
    let h = w * tree.size().height() / tree.size().width();
    Ok((Box::new(tree), h))
}

/// Lays out one record from the top of a new page.
fn lay_out_entry(pages: &mut Pages, entry: &Entry, look: &Look) -> Result<(), BookError> {
    pages.new_page()?;
    let full = pages.text_width();
    pages.paragraph(MARGIN, full, &words(&entry.title(), BLACK), Face::Sans, HEADING)?;
    pages.gap(2.0);
    let status = format!("Verdict: {}", entry.status);
    pages.paragraph(MARGIN, full, &words(&status, BLACK), Face::Sans, BODY)?;
    for (name, value) in &entry.tags {
        let mut line = vec![Word { text: format!("{name}:"), colour: GREY }];
        line.extend(words(value, BLACK));
        pages.paragraph(MARGIN, full, &line, Face::Sans, BODY)?;
    }
    for said in &entry.opening {
        pages.paragraph(MARGIN, full, &words(said, GREY), Face::Sans, BODY)?;
    }
    if let Some(why) = &entry.undrawn {
        pages.gap(BODY);
        pages.paragraph(MARGIN, full, &words(&format!("No position is drawn: {why}"), BLACK), Face::Sans, BODY)?;
    }
    let w = (look.diagram_mm * MM).clamp(30.0 * MM, full);
    for section in &entry.sections {
        lay_out_section(pages, section, w, look, None)?;
    }
    if let Some((scene, after)) = &entry.error {
        pages.gap(BODY);
        let said = "The first illegal move, drawn on the board before it, with the legal moves there faint:";
        let moves = after.iter().map(|c| Written::Comment(c.clone())).collect();
        lay_out_section(pages, &Section { scene: scene.clone(), moves }, w, look, Some(said))?;
    }
    pages.gap(BODY);
    pages.paragraph(MARGIN, full, &words("The verdict, as referee verify reports it:", BLACK), Face::Sans, BODY)?;
    for line in &entry.report {
        // The report's columns are kept: each line as one word, cut only where it is wider than
        // the page.
        let word = [Word { text: line.clone(), colour: BLACK }];
        if line.trim().is_empty() {
            pages.gap(REPORT * LEADING);
            continue;
        }
        pages.paragraph(MARGIN, full, &word, Face::Mono, REPORT)?;
    }
    Ok(())
}

/// A diagram with its moves beside it, after a line that leads to it (kept on its page); the moves
/// go on under it when they are longer than it is tall, and onto the next pages.
fn lay_out_section(
    pages: &mut Pages,
    section: &Section,
    w: f32,
    look: &Look,
    lead: Option<&str>,
) -> Result<(), BookError> {
    let (tree, h) = diagram(&section.scene, w, look)?;
    pages.gap(BODY * 0.8);
    let full = pages.text_width();
    if let Some(lead) = lead {
        pages.room(BODY * LEADING * 2.0 + h)?;
        pages.paragraph(MARGIN, full, &words(lead, BLACK), Face::Sans, BODY)?;
        pages.gap(BODY * 0.5);
    }
    pages.room(h)?;
    let top = pages.y;
    pages.push(Item::Diagram { x: MARGIN, y: top, w, h, tree });
    let beside = full - w - GUTTER;
    let words = move_words(&section.moves);
    // Beside the diagram while there is room there, then across the page under it.
    let step = BODY * LEADING;
    let narrow = beside >= 40.0 * MM;
    let mut rest: &[Word] = &words;
    if narrow {
        let x = MARGIN + w + GUTTER;
        let mut placed = 0;
        for line in lines(&words, Face::Sans, BODY, beside) {
            if pages.y + step > top + h {
                break;
            }
            placed += line.len();
            pages.line(x, line, Face::Sans, BODY);
        }
        rest = &words[placed.min(words.len())..];
    }
    pages.y = top + h;
    if !rest.is_empty() {
        pages.paragraph(MARGIN, full, rest, Face::Sans, BODY)?;
    }
    Ok(())
}

/// The booklet of `entries` as a PDF: a contents page when there is more than one record, then
/// each record from a new page, every page numbered.
pub fn book(entries: &[Entry], look: &Look) -> Result<Vec<u8>, BookError> {
    if entries.is_empty() {
        return Err(BookError::Empty);
    }
    let mut pages = Pages::new(look.paper);
    let mut starts = Vec::with_capacity(entries.len());
    for entry in entries {
        starts.push(pages.pages.len());
        lay_out_entry(&mut pages, entry, look)?;
    }
    // The contents, laid out last, go first: the records' pages move down by its pages.
    let contents = if entries.len() > 1 { contents(entries, &starts, look)? } else { Vec::new() };
    let before = contents.len();
    if before + pages.pages.len() > MAX_PAGES {
        return Err(BookError::TooLong);
    }
    let all: Vec<Vec<Item>> = contents.into_iter().chain(pages.pages).collect();
    draw(&all, look, before, &starts, entries)
}

/// The contents: each record's title and verdict, and the page it starts on (counted from the
/// first record's page, 0; [`book`] adds the contents' own pages).
fn contents(entries: &[Entry], starts: &[usize], look: &Look) -> Result<Vec<Vec<Item>>, BookError> {
    let mut pages = Pages::new(look.paper);
    pages.paragraph(MARGIN, pages.text_width(), &words(&look.title, BLACK), Face::Sans, HEADING)?;
    pages.paragraph(MARGIN, pages.text_width(), &words("Contents", GREY), Face::Sans, BODY)?;
    pages.gap(BODY);
    let number_room = 12.0 * MM;
    let right = pages.width - MARGIN;
    for (entry, start) in entries.iter().zip(starts) {
        let mut line = words(&entry.title(), BLACK);
        line.push(Word { text: format!("· {}", entry.status), colour: GREY });
        let (page, baseline) = pages.paragraph(MARGIN, pages.text_width() - number_room, &line, Face::Sans, BODY)?;
        pages.pages[page].push(Item::PageNumber { x: right, y: baseline, page: *start });
    }
    Ok(pages.pages)
}

fn fill(colour: (u8, u8, u8)) -> Fill {
    Fill {
        paint: rgb::Color::new(colour.0, colour.1, colour.2).into(),
        opacity: NormalizedF32::ONE,
        rule: Default::default(),
    }
}

/// Draws the pages laid out, the records' after `before` pages of contents, numbers them, and
/// gives the records, which start on pages `starts` of theirs, an outline (bookmarks).
fn draw(
    all: &[Vec<Item>],
    look: &Look,
    before: usize,
    starts: &[usize],
    entries: &[Entry],
) -> Result<Vec<u8>, BookError> {
    let sans =
        Font::new(DEJAVU_SANS.into(), 0).ok_or_else(|| BookError::Pdf("DejaVu Sans could not be read".into()))?;
    let mono = Font::new(DEJAVU_SANS_MONO.into(), 0)
        .ok_or_else(|| BookError::Pdf("DejaVu Sans Mono could not be read".into()))?;
    let (pw, ph) = look.paper.size();
    let mut document = Document::new();
    for (n, items) in all.iter().enumerate() {
        let settings = PageSettings::from_wh(pw, ph).ok_or_else(|| BookError::Pdf("the paper has no size".into()))?;
        let mut page = document.start_page_with(settings);
        let mut surface = page.surface();
        for item in items {
            draw_item(&mut surface, item, &sans, &mono, before)?;
        }
        let folio = (n + 1).to_string();
        surface.set_fill(Some(fill(GREY)));
        let x = (pw - width(&folio, Face::Sans, FOLIO)) / 2.0;
        surface.draw_text(
            Point::from_xy(x, ph - MARGIN / 2.0),
            sans.clone(),
            FOLIO,
            &folio,
            false,
            TextDirection::Auto,
        );
        surface.finish();
        page.finish();
    }
    let mut outline = Outline::new();
    for (entry, &start) in entries.iter().zip(starts) {
        let page = before + start;
        outline.push_child(OutlineNode::new(entry.title(), XyzDestination::new(page, Point::from_xy(0.0, 0.0))));
    }
    document.set_outline(outline);
    document.set_metadata(
        Metadata::new().title(look.title.clone()).creator(format!("referee {}", env!("CARGO_PKG_VERSION"))),
    );
    document.finish().map_err(|e| BookError::Pdf(format!("{e:?}")))
}

fn draw_item(surface: &mut Surface<'_>, item: &Item, sans: &Font, mono: &Font, before: usize) -> Result<(), BookError> {
    match item {
        Item::PageNumber { x, y, page } => {
            // Numbered from 1, the contents' pages first.
            let text = (before + page + 1).to_string();
            surface.set_fill(Some(fill(BLACK)));
            let at = x - width(&text, Face::Sans, BODY);
            surface.draw_text(Point::from_xy(at, *y), sans.clone(), BODY, &text, false, TextDirection::Auto);
        }
        Item::Line { x, y, face, size, words } => {
            let font = match face {
                Face::Sans => sans,
                Face::Mono => mono,
            };
            let space = width(" ", *face, *size);
            let mut at = *x;
            // A run of words of one colour is one text, spaces and all: the text read back from
            // the page (selected, searched, pdftotext) has its spaces.
            for run in words.chunk_by(|a, b| a.colour == b.colour) {
                let text = run.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" ");
                surface.set_fill(Some(fill(run[0].colour)));
                surface.draw_text(Point::from_xy(at, *y), font.clone(), *size, &text, false, TextDirection::Auto);
                at += width(&text, *face, *size) + space;
            }
        }
        Item::Diagram { x, y, w, h, tree } => {
            let size = Size::from_wh(*w, *h).ok_or_else(|| BookError::Diagram("a diagram has no size".into()))?;
            surface.push_transform(&Transform::from_translate(*x, *y));
            surface.draw_svg(tree, size, SvgSettings::default());
            surface.pop();
        }
    }
    Ok(())
}
