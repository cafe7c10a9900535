//! Pictures of a [`Scene`] as TikZ, for LaTeX: the SVG of [`svg`] read back with usvg
//! and written as TikZ paths and text nodes.
//!
//! The SVG painter is the one truth about what a picture shows; this module only translates its
//! output, so that a TikZ diagram shows what the SVG and the PNG show, in the same styles and with
//! the same numbers. usvg has already turned every shape (circles, rectangles, polygons) into
//! paths and resolved transforms, inherited attributes and paint order; what is left to write is
//! paths (`\fill`, `\draw`, `\filldraw`), colours, opacity, clips, the print style's hatching (a
//! TikZ pattern) and text.
//!
//! Text stays text, in `\node`s at the SVG's positions and anchors, set in the document's
//! sans-serif family: it can be selected and searched, and a document can restyle it. The
//! picture's coordinates are the SVG's pixels, in units of `\refereeunit`, which the picture's
//! width (`\refereewidth`, 80 mm unless the document says otherwise) sets: lines and text grow
//! with the width. `tex/referee.sty` defines the styles and macros a picture uses; a standalone
//! document holds a copy of them and compiles alone with `pdflatex`.
//!
//! The output is deterministic, with numbers written as the SVG writes them.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use resvg::tiny_skia::{Point, Transform};
use resvg::usvg::tiny_skia_path::PathSegment;
use resvg::usvg::{
    self, DominantBaseline, FillRule, Group, LineCap, LineJoin, Node, Paint, PaintOrder, TextAnchor, TextSpan,
};

use super::model::Scene;
use super::png::{self, PictureError};
use super::svg::{self, Num, SvgOptions};

/// The package: what a fragment needs, and what a standalone document copies.
pub const PACKAGE: &str = include_str!("../../tex/referee.sty");

/// The line of [`PACKAGE`] after which its definitions start.
const DEFINITIONS: &str = "%% ---- definitions";

/// What a picture is written as.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum TexOutput {
    /// A whole document, one page the size of the picture, that compiles alone with `pdflatex`
    /// (the definitions of `referee.sty` inlined).
    #[default]
    Standalone,
    /// The `tikzpicture` alone, for `\refereediagram{file}` (or `\input`) in a document that
    /// loads `referee.sty`.
    Fragment,
}

/// The width of a standalone document's picture unless asked: [`tikz_at`].
pub const DEFAULT_MM: f64 = 80.0;

/// The picture of a scene as TikZ, drawn as [`svg::svg`] draws it; a standalone document's page
/// is [`DEFAULT_MM`] wide.
pub fn tikz(scene: &Scene, options: &SvgOptions, output: TexOutput) -> Result<String, PictureError> {
    tikz_at(scene, options, output, DEFAULT_MM)
}

/// [`tikz`], a standalone document's picture `width_mm` millimetres wide (a fragment's width is
/// the document's: `\refereediagram[<width>]`).
pub fn tikz_at(scene: &Scene, options: &SvgOptions, output: TexOutput, width_mm: f64) -> Result<String, PictureError> {
    tikz_of_svg(&svg::svg(scene, options), &scene.caption().join(" — "), output, width_mm)
}

/// An SVG picture of this crate as TikZ; `title` goes into a comment at its top; a standalone
/// document's picture is `width_mm` millimetres wide.
pub fn tikz_of_svg(svg: &str, title: &str, output: TexOutput, width_mm: f64) -> Result<String, PictureError> {
    let (tree, _, _) = png::parse(svg)?;
    let size = tree.size();
    let (width, height) = (f64::from(size.width()), f64::from(size.height()));
    let mut picture = Picture::default();
    picture.group(tree.root(), Transform::identity());
    // One line, whatever the title holds: a comment ends at the line's end.
    let title: String = title.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let mut out = format!("% {title}\n");
    match output {
        TexOutput::Standalone => out.push_str(&preamble(width, height, width_mm)),
        TexOutput::Fragment => {
            out.push_str("% Drawn by referee, for a document that loads referee.sty: \\refereediagram{<this file>}.\n")
        }
    }
    let _ = writeln!(out, "\\begin{{tikzpicture}}[referee={}]", Num(width));
    for &colour in &picture.colours {
        let (r, g, b) = colour;
        let _ = writeln!(out, "\\definecolor{{{}}}{{RGB}}{{{r},{g},{b}}}", colour_name(colour));
    }
    // The SVG's viewport: the picture is its size, and nothing is drawn outside it.
    let _ = writeln!(out, "\\path[use as bounding box, clip] (0,0) rectangle ({},{});", Num(width), Num(height));
    out.push_str(&picture.out);
    // No space after the picture in the paragraph it is set in.
    out.push_str("\\end{tikzpicture}%\n");
    if output == TexOutput::Standalone {
        out.push_str("\\end{document}\n");
    }
    Ok(out)
}

/// What a standalone document has before its picture: the package's definitions, and a page as
/// large as a picture of `width` by `height` units set `width_mm` millimetres wide.
fn preamble(width: f64, height: f64, width_mm: f64) -> String {
    let mut out = String::from(
        "% Drawn by referee. Compile with pdflatex: the page is as large as the picture, \\refereewidth wide.\n",
    );
    // Text sizes as computed, in Computer Modern too; and text that reads back as written
    // (searched, copied: the glyphs' Unicode names), where pdfTeX can say it.
    out.push_str(
        "\\RequirePackage{fix-cm}\n\\documentclass{article}\n\\usepackage{geometry}\n\
         \\ifdefined\\pdfgentounicode\\input{glyphtounicode}\\pdfgentounicode=1\\fi\n",
    );
    out.push_str(&definitions());
    let _ = writeln!(
        out,
        "\\setlength\\refereewidth{{{mm}mm}}\n\\pgfmathsetlength\\refereeunit{{\\refereewidth/({w})}}\n\
         \\geometry{{paperwidth=\\refereewidth,paperheight={h}\\refereeunit,margin=0pt}}\n\
         \\pagestyle{{empty}}\n\\begin{{document}}\n\\noindent",
        w = Num(width),
        h = Num(height),
        mm = Num(width_mm)
    );
    out
}

/// The definitions of `referee.sty`, without its comments, for a standalone document.
fn definitions() -> String {
    let lines = PACKAGE.lines().skip_while(|l| !l.starts_with(DEFINITIONS)).skip(1);
    let mut out = String::new();
    for line in lines.take_while(|l| l.trim() != "\\endinput") {
        if !line.trim_start().starts_with('%') && !line.trim().is_empty() {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// A colour as the picture names it: by its value, so that one colour has one name.
fn colour_name((r, g, b): (u8, u8, u8)) -> String {
    format!("referee-{r:02x}{g:02x}{b:02x}")
}

/// How far above its baseline the middle of a line of text stands, in ems: the SVG centres text
/// this way (`dominant-baseline`), and TikZ places it by its baseline. DejaVu Sans's, as usvg
/// measures it.
const CENTRAL: f64 = 0.35;
/// Half the height of a lowercase letter, in ems (`dominant-baseline: middle`).
const MIDDLE: f64 = 0.27;

/// The TikZ of one picture's content, and the colours it uses.
#[derive(Default)]
struct Picture {
    out: String,
    colours: BTreeSet<(u8, u8, u8)>,
}

impl Picture {
    /// A colour's name, defined at the top of the picture.
    fn colour(&mut self, c: usvg::Color) -> String {
        self.colours.insert((c.red, c.green, c.blue));
        colour_name((c.red, c.green, c.blue))
    }

    /// A group's children; a group with an opacity or a clip is a scope of its own.
    fn group(&mut self, group: &Group, transform: Transform) {
        let transform = transform.pre_concat(group.transform());
        let opacity = group.opacity().get();
        let scoped = opacity < 1.0 || group.clip_path().is_some();
        if scoped {
            if opacity < 1.0 {
                // A transparency group: the group is faint as a whole, its parts do not show
                // through one another (a halo under its sign).
                let _ = writeln!(self.out, "\\begin{{scope}}[transparency group, opacity={}]", Num(opacity.into()));
            } else {
                self.out.push_str("\\begin{scope}\n");
            }
        }
        let mut clip = group.clip_path();
        while let Some(c) = clip {
            let at = transform.pre_concat(c.transform());
            let mut paths = String::new();
            for child in c.root().children() {
                if let Node::Path(p) = child {
                    paths.push_str(&path_data(p.data(), at));
                    paths.push(' ');
                }
            }
            let _ = writeln!(self.out, "\\clip {};", paths.trim_end());
            clip = c.clip_path();
        }
        for child in group.children() {
            match child {
                Node::Group(g) => self.group(g, transform),
                Node::Path(p) => self.path(p, transform),
                Node::Text(t) => self.text(t, transform),
                // The SVG painter draws no images.
                Node::Image(_) => {}
            }
        }
        if scoped {
            self.out.push_str("\\end{scope}\n");
        }
    }

    /// A path: filled, stroked or both, in the SVG's paint order.
    fn path(&mut self, path: &usvg::Path, transform: Transform) {
        if !path.is_visible() {
            return;
        }
        let scale = scale_of(transform);
        // A line has nothing to fill, though SVG gives every path a fill unless told otherwise.
        let fill = path.fill().filter(|_| encloses(path.data())).map(|f| self.fill(f, transform));
        let stroke = path.stroke().map(|s| self.stroke(s, scale));
        let (command, options) = match (fill, stroke) {
            (Some(fill), None) => ("fill", fill),
            (None, Some(stroke)) => ("draw", stroke),
            // The halo of an arrow is stroked first and the arrow filled over it.
            (Some(fill), Some(stroke)) if path.paint_order() == PaintOrder::StrokeAndFill => {
                ("fill", format!("preaction={{draw, {stroke}}}, {fill}"))
            }
            (Some(fill), Some(stroke)) => ("filldraw", format!("{fill}, {stroke}")),
            (None, None) => return,
        };
        let _ = writeln!(self.out, "\\{command}[{options}] {};", path_data(path.data(), transform));
    }

    /// The options of a fill: its colour or hatching, its opacity and its rule.
    fn fill(&mut self, fill: &usvg::Fill, transform: Transform) -> String {
        let mut options = match fill.paint() {
            Paint::Pattern(p) => self.hatch(p, transform),
            paint => format!("fill={}", self.flat(paint)),
        };
        let opacity = fill.opacity().get();
        if opacity < 1.0 {
            let _ = write!(options, ", fill opacity={}", Num(opacity.into()));
        }
        if fill.rule() == FillRule::EvenOdd {
            options.push_str(", even odd rule");
        }
        options
    }

    /// The options of a stroke: colour, width, opacity, dashes, caps and joins.
    fn stroke(&mut self, stroke: &usvg::Stroke, scale: f64) -> String {
        let mut options = format!("draw={}", self.flat(stroke.paint()));
        let _ = write!(options, ", line width={}\\refereeunit", Num(f64::from(stroke.width().get()) * scale));
        let opacity = stroke.opacity().get();
        if opacity < 1.0 {
            let _ = write!(options, ", draw opacity={}", Num(opacity.into()));
        }
        if let Some(dashes) = stroke.dasharray() {
            let pattern: Vec<String> = dashes
                .chunks(2)
                .map(|pair| {
                    let off = pair.get(1).copied().unwrap_or(pair[0]);
                    format!(
                        "on {}\\refereeunit off {}\\refereeunit",
                        Num(f64::from(pair[0]) * scale),
                        Num(f64::from(off) * scale)
                    )
                })
                .collect();
            let _ = write!(
                options,
                ", dash pattern={}, dash phase={}\\refereeunit",
                pattern.join(" "),
                Num(f64::from(stroke.dashoffset()) * scale)
            );
        }
        match stroke.linecap() {
            LineCap::Butt => {}
            LineCap::Round => options.push_str(", line cap=round"),
            LineCap::Square => options.push_str(", line cap=rect"),
        }
        match stroke.linejoin() {
            LineJoin::Miter | LineJoin::MiterClip => {
                let limit = stroke.miterlimit().get();
                if limit != 4.0 {
                    let _ = write!(options, ", miter limit={}", Num(limit.into()));
                }
            }
            LineJoin::Round => options.push_str(", line join=round"),
            LineJoin::Bevel => options.push_str(", line join=bevel"),
        }
        options
    }

    /// The name of a paint's colour; a pattern's or a gradient's first (the SVG painter strokes
    /// with neither, and draws no gradient: a flat colour is better than nothing), black if none.
    fn flat(&mut self, paint: &Paint) -> String {
        let colour = match paint {
            Paint::Color(c) => Some(*c),
            Paint::Pattern(p) => solid(p.root()),
            Paint::LinearGradient(g) => g.stops().first().map(usvg::Stop::color),
            Paint::RadialGradient(g) => g.stops().first().map(usvg::Stop::color),
        };
        self.named(colour)
    }

    /// A colour's name, black if there is none.
    fn named(&mut self, colour: Option<usvg::Color>) -> String {
        colour.map_or_else(|| "black".to_string(), |c| self.colour(c))
    }

    /// The print style's hatching (`svg`'s `referee-hatch-N`: a tile of the figure's fill with one
    /// stripe of its outline colour along the tile's height, turned) as TikZ lines over the fill.
    fn hatch(&mut self, pattern: &usvg::Pattern, transform: Transform) -> String {
        let children = pattern.root().children();
        let colour_of = |node: Option<&Node>| match node {
            Some(Node::Path(p)) => match p.fill().map(usvg::Fill::paint) {
                Some(Paint::Color(c)) => Some((*c, p.bounding_box().width())),
                _ => None,
            },
            _ => None,
        };
        let (Some((background, _)), Some((ink, stripe))) = (colour_of(children.first()), colour_of(children.get(1)))
        else {
            // Not a hatching: its first colour, flat.
            return format!("fill={}", self.named(solid(pattern.root())));
        };
        let at = transform.pre_concat(pattern.transform());
        // The stripes run along the tile's y axis, and repeat across its x axis.
        let (dx, dy) = (f64::from(at.kx), f64::from(at.sy));
        // TeX's y axis points up, the picture's down.
        let angle = (-dy).atan2(dx).to_degrees().rem_euclid(180.0);
        let scale = scale_of(at);
        format!(
            "preaction={{fill={}}}, pattern={{Lines[angle={}, distance=\\refereelength{{{}}}, \
             line width=\\refereelength{{{}}}]}}, pattern color={}",
            self.colour(background),
            Num(angle),
            Num(f64::from(pattern.rect().width()) * scale),
            Num(f64::from(stripe) * scale),
            self.colour(ink)
        )
    }

    /// Text: a node per chunk (an SVG `text` element), at its position and anchor, each span in
    /// its size, weight and colour, and with a halo where the SVG strokes it.
    fn text(&mut self, text: &usvg::Text, transform: Transform) {
        let scale = scale_of(transform);
        for chunk in text.chunks() {
            let Some(first) = chunk.spans().first() else { continue };
            let size = f64::from(first.font_size().get()) * scale;
            let lift = match first.dominant_baseline() {
                DominantBaseline::Central => CENTRAL,
                DominantBaseline::Middle => MIDDLE,
                _ => 0.0,
            };
            let mut at = Point::from_xy(chunk.x().unwrap_or(0.0), chunk.y().unwrap_or(0.0));
            transform.map_point(&mut at);
            let anchor = match chunk.anchor() {
                TextAnchor::Start => "base west",
                TextAnchor::Middle => "base",
                TextAnchor::End => "base east",
            };
            let colour = self.span_colour(first);
            let mut content = String::new();
            let spans = chunk.spans();
            for span in spans {
                let words = chunk.text().get(span.start()..span.end()).unwrap_or_default();
                let span = self.span(span, words, scale, &colour);
                // The node's braces hold the size of its one span; more each have their own.
                if spans.len() == 1 {
                    content.push_str(&span);
                } else {
                    let _ = write!(content, "{{{span}}}");
                }
            }
            let _ = writeln!(
                self.out,
                "\\node[referee text, anchor={anchor}, text={colour}] at ({},{}) {{{content}}};",
                Num(at.x.into()),
                Num(f64::from(at.y) + lift * size)
            );
        }
    }

    /// A span's fill colour's name, black if it has none.
    fn span_colour(&mut self, span: &TextSpan) -> String {
        match span.fill() {
            Some(fill) => self.flat(fill.paint()),
            None => self.named(None),
        }
    }

    /// A span of text in its size and weight, in its colour where it is not the node's, to be set
    /// in a group of its own.
    fn span(&mut self, span: &TextSpan, words: &str, scale: f64, node_colour: &str) -> String {
        let mut out = format!("\\refereesize{{{}}}", Num(f64::from(span.font_size().get()) * scale));
        if span.font().weight() >= 600 {
            // The space ends the command's name.
            out.push_str("\\bfseries ");
        }
        let colour = self.span_colour(span);
        if colour != node_colour {
            let _ = write!(out, "\\color{{{colour}}}");
        }
        let words = escape(words);
        match span.stroke() {
            Some(stroke) => {
                let halo = self.flat(stroke.paint());
                let width = Num(f64::from(stroke.width().get()) * scale);
                let _ = write!(out, "\\refereehalo{{{width}}}{{{halo}}}{{{words}}}");
            }
            None => out.push_str(&words),
        }
        out
    }
}

/// The first flat colour of a paint server's content.
fn solid(group: &Group) -> Option<usvg::Color> {
    group.children().iter().find_map(|node| match node {
        Node::Path(p) => match p.fill().map(usvg::Fill::paint) {
            Some(Paint::Color(c)) => Some(*c),
            _ => None,
        },
        Node::Group(g) => solid(g),
        _ => None,
    })
}

/// Whether a path encloses anything: some subpath of it has three points or more (a line's two
/// do not).
fn encloses(data: &usvg::tiny_skia_path::Path) -> bool {
    let mut points = 0;
    for segment in data.segments() {
        points = match segment {
            PathSegment::MoveTo(_) => 1,
            PathSegment::LineTo(_) => points + 1,
            PathSegment::QuadTo(..) | PathSegment::CubicTo(..) => points + 2,
            PathSegment::Close => points,
        };
        if points >= 3 {
            return true;
        }
    }
    false
}

/// How much a transform enlarges lengths (widths, font sizes): the square root of its area's.
fn scale_of(t: Transform) -> f64 {
    f64::from(t.sx * t.sy - t.kx * t.ky).abs().sqrt()
}

/// A path's segments in the picture's coordinates, as TikZ writes a path.
fn path_data(data: &usvg::tiny_skia_path::Path, transform: Transform) -> String {
    let point = |mut p: Point| {
        transform.map_point(&mut p);
        format!("({},{})", Num(p.x.into()), Num(p.y.into()))
    };
    let mut out = String::new();
    let mut last = Point::zero();
    for segment in data.segments() {
        let piece = match segment {
            PathSegment::MoveTo(p) => {
                last = p;
                point(p)
            }
            PathSegment::LineTo(p) => {
                last = p;
                format!("-- {}", point(p))
            }
            // TikZ draws cubic curves only: a quadratic one is the cubic with these controls.
            PathSegment::QuadTo(c, p) => {
                let third =
                    |a: Point, b: Point| Point::from_xy(a.x + (b.x - a.x) * 2.0 / 3.0, a.y + (b.y - a.y) * 2.0 / 3.0);
                let (c1, c2) = (third(last, c), third(p, c));
                last = p;
                format!(".. controls {} and {} .. {}", point(c1), point(c2), point(p))
            }
            PathSegment::CubicTo(c1, c2, p) => {
                last = p;
                format!(".. controls {} and {} .. {}", point(c1), point(c2), point(p))
            }
            PathSegment::Close => "-- cycle".to_string(),
        };
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&piece);
    }
    out
}

/// Text made safe for LaTeX: its special characters as the commands that print them, and the
/// typographic characters the captions use as LaTeX writes them, so that any font encoding sets
/// them. Other characters are left to the document's input encoding (UTF-8).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' => out.push_str("\\textbackslash{}"),
            // Computer Modern's sans-serif has no dollar: it would come from a bitmap font.
            '$' => out.push_str("\\ensuremath{\\$}"),
            '{' | '}' | '&' | '#' | '_' | '%' => {
                out.push('\\');
                out.push(ch);
            }
            '^' => out.push_str("\\textasciicircum{}"),
            '~' => out.push_str("\\textasciitilde{}"),
            // Computer Modern's OT1 encoding has ¡ and ¿ where ASCII has < and >.
            '<' => out.push_str("\\textless{}"),
            '>' => out.push_str("\\textgreater{}"),
            '|' => out.push_str("\\textbar{}"),
            // Two hyphens would be set as a dash, and `` or '' as a quotation mark.
            '-' | '`' | '\'' if chars.peek() == Some(&ch) => {
                out.push(ch);
                out.push_str("{}");
            }
            // Mathematics' symbols, which every LaTeX has in outline fonts: the text companions
            // (\\textperiodcentered) are bitmaps in Computer Modern without cm-super.
            '·' => out.push_str("\\ensuremath{\\cdot}"),
            '—' => out.push_str("---"),
            '–' => out.push_str("--"),
            '…' => out.push_str("\\dots{}"),
            '×' => out.push_str("\\ensuremath{\\times}"),
            '‘' => out.push('`'),
            '’' => out.push('\''),
            '“' => out.push_str("``"),
            '”' => out.push_str("''"),
            '→' => out.push_str("\\ensuremath{\\rightarrow}"),
            '←' => out.push_str("\\ensuremath{\\leftarrow}"),
            '\u{a0}' => out.push('~'),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_for_latex() {
        assert_eq!(
            escape(r"a\b{c}$&#_%^~"),
            r"a\textbackslash{}b\{c\}\ensuremath{\$}\&\#\_\%\textasciicircum{}\textasciitilde{}"
        );
        assert_eq!(escape("Quarod · ply 3 — 1-0 --"), r"Quarod \ensuremath{\cdot} ply 3 --- 1-0 -{}-");
        assert_eq!(escape("x × y <z>"), r"x \ensuremath{\times} y \textless{}z\textgreater{}");
    }

    #[test]
    fn the_definitions_are_the_package_without_its_comments() {
        let defs = definitions();
        assert!(defs.starts_with("\\RequirePackage{tikz}"), "{defs}");
        assert!(defs.contains("\\newcommand\\refereediagram"));
        assert!(!defs.contains("\\endinput") && !defs.contains("ProvidesPackage"));
        assert!(defs.lines().all(|l| !l.trim_start().starts_with('%')));
    }
}
