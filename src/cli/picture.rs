//! `referee show --format svg|png|tex` and `referee render`: pictures of a record's positions,
//! wired from the library's scenes and renderers. Every picture is drawn whole in memory before
//! anything is written, so an input problem never leaves half an image behind.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, ValueEnum};

use crate::judge::Games;
use crate::picture::numbers::{NumberRange, RangeError};
use crate::picture::{self, Pictures};
use crate::render::gif::{self, RgbaFrame, Timing};
use crate::render::model::Scene;
use crate::render::png;
use crate::render::svg::{self, StyleName, SvgOptions};
use crate::render::tikz::{self, TexOutput};
use crate::report;
use crate::report::Source;
use crate::verdict::Status;
use crate::verify::{self, VerifyOptions};

use super::file;
use super::out::note;
use crate::files;

/// How pictures look: the options sgf-render has.
#[derive(Args, Debug, Clone)]
pub struct Look {
    /// Width of the picture (its height follows the board): pixels, 120 to 4096; or millimetres
    /// on paper, 32 to 1000, such as `80mm`: the SVG then gives its size in millimetres, the PNG is
    /// drawn at 300 dpi and says so, and a standalone TikZ page is that wide (text and lines as on
    /// a picture of 96 pixels to the inch).
    #[arg(long, default_value = "480", value_name = "WIDTH", value_parser = width)]
    width: Width,
    /// Colours: light, dark, or print (black and white, for paper).
    #[arg(long, value_enum, default_value_t = Style::Light)]
    style: Style,
    /// Leave out the column letters and row numbers around the board.
    #[arg(long)]
    no_coordinates: bool,
    /// Leave out the caption line under the board (game, ply, side to move, score).
    #[arg(long, overrides_with = "caption")]
    no_caption: bool,
    /// Draw the caption line under the board (the default).
    #[arg(long, overrides_with = "no_caption")]
    caption: bool,
    /// With --format tex: a standalone document that pdflatex compiles alone (the default), or a
    /// fragment, the tikzpicture alone, for \refereediagram{FILE} in a document that loads
    /// tex/referee.sty.
    #[arg(long, value_enum, value_name = "FORM")]
    tex: Option<Tex>,
}

/// A picture's width as asked: pixels on a screen, or millimetres on paper.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Width {
    Pixels(u32),
    Millimetres(f64),
}

/// The resolution a picture asked for in millimetres is drawn at as a PNG.
const PRINT_DPI: f64 = 300.0;

fn width(text: &str) -> Result<Width, String> {
    let (min, max) = (svg::MIN_WIDTH, svg::MAX_WIDTH);
    if let Some(mm) = text.strip_suffix("mm") {
        return match mm.trim().parse::<f64>() {
            Ok(mm) if (32.0..=1000.0).contains(&mm) => Ok(Width::Millimetres(mm)),
            _ => Err(format!("`{text}`: a width on paper is 32 to 1000 millimetres, such as 80mm")),
        };
    }
    match text.parse::<u32>() {
        Ok(px) if (min..=max).contains(&px) => Ok(Width::Pixels(px)),
        _ => Err(format!("`{text}`: a width is {min} to {max} pixels, or millimetres on paper such as 80mm")),
    }
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Tex {
    Standalone,
    Fragment,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
enum Style {
    Light,
    Dark,
    Print,
}

impl Look {
    fn options(&self) -> SvgOptions {
        let style = match self.style {
            Style::Light => StyleName::Light,
            Style::Dark => StyleName::Dark,
            Style::Print => StyleName::Print,
        };
        let width = match self.width {
            Width::Pixels(px) => px,
            Width::Millimetres(mm) => ((mm * svg::PX_PER_MM).round() as u32).clamp(svg::MIN_WIDTH, svg::MAX_WIDTH),
        };
        SvgOptions { width, style, coordinates: !self.no_coordinates, caption: !self.no_caption }
    }

    /// The picture of `scene` as SVG, PNG or TikZ, at the width asked: on paper when it was asked
    /// in millimetres.
    fn picture(&self, scene: &Scene, tex: bool, png: bool) -> Result<Vec<u8>, String> {
        let options = self.options();
        let paper = match self.width {
            Width::Millimetres(mm) => Some(mm),
            Width::Pixels(_) => None,
        };
        if tex {
            let mm = paper.unwrap_or(tikz::DEFAULT_MM);
            return tikz::tikz_at(scene, &options, self.tex(), mm)
                .map(String::into_bytes)
                .map_err(|e| format!("cannot draw the TikZ picture: {e}"));
        }
        let picture = svg::svg(scene, &options);
        match (png, paper) {
            (false, None) => Ok(picture.into_bytes()),
            (false, Some(mm)) => Ok(svg::on_paper(&picture, mm).into_bytes()),
            (true, None) => png::png(&picture).map_err(|e| format!("cannot draw the PNG: {e}")),
            (true, Some(_)) => png::png_at(&picture, PRINT_DPI).map_err(|e| format!("cannot draw the PNG: {e}")),
        }
    }

    fn tex(&self) -> TexOutput {
        match self.tex {
            None | Some(Tex::Standalone) => TexOutput::Standalone,
            Some(Tex::Fragment) => TexOutput::Fragment,
        }
    }

    /// `--tex` with a format other than tex is a usage error, said on standard error: it would
    /// change nothing.
    pub fn tex_without_tex(&self, tex: bool) -> Option<ExitCode> {
        (self.tex.is_some() && !tex).then(|| {
            note("--tex chooses the form of a TikZ picture: give it with --format tex");
            ExitCode::from(2)
        })
    }
}

/// Numbered diagrams, for `show` and `render`.
#[derive(Args, Debug, Clone)]
pub struct NumberArgs {
    /// Write on each stone, placement or mark the number of the move that made it, as the record
    /// numbers its moves (the published notation's move lines, the common format's rounds: one
    /// number for a move of each side, told apart by the figure it is written on), with notes
    /// under the diagram for the moves no cell shows any more ("17 at 5"); Splinter Quad's pieces
    /// draw their paths as numbered trails. `show` draws the position after the last move
    /// numbered; `render` the position before the first and after each, numbered up to it, into
    /// files named `<file>-<record>-numbered-…`.
    #[arg(long)]
    numbers: bool,
    /// With --numbers: the first move number written (default: the first move).
    #[arg(long, value_name = "N", requires = "numbers", value_parser = clap::value_parser!(u32).range(1..))]
    from: Option<u32>,
    /// With --numbers: the last move number written, and the position drawn after it (default: the
    /// last move).
    #[arg(long, value_name = "N", requires = "numbers", value_parser = clap::value_parser!(u32).range(1..))]
    to: Option<u32>,
}

impl NumberArgs {
    /// The moves to number, if any.
    pub fn range(&self) -> Option<NumberRange> {
        self.numbers.then_some(NumberRange { from: self.from, to: self.to })
    }
}

/// What `show` prints.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ShowFormat {
    Ascii,
    Svg,
    Png,
    /// A TikZ picture for LaTeX, vector paths and text: a document that pdflatex compiles alone,
    /// or with --tex fragment a picture for a document that loads tex/referee.sty.
    Tex,
    /// The position code, on one line (grammar.md, "Position codes").
    Code,
}

/// What `render` writes.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum RenderFormat {
    Svg,
    Png,
    Gif,
    Html,
    Tex,
}

/// The format a file name asks for by its extension.
pub fn format_of(path: &Path) -> Option<ShowFormat> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "svg" => Some(ShowFormat::Svg),
        "png" => Some(ShowFormat::Png),
        "txt" => Some(ShowFormat::Ascii),
        "tex" => Some(ShowFormat::Tex),
        _ => None,
    }
}

/// A file's text and its pictures, or the exit code of the error already reported.
fn load<S: Games>(file: &Path, index: usize, options: VerifyOptions<S>) -> Result<(String, Pictures), ExitCode> {
    let name = files::display_name(file);
    let src = files::read(file).map_err(|p| {
        note(&format!("{name}: {}", p.message));
        ExitCode::from(2)
    })?;
    if let Some(code) = not_replayable(&name, &src, index, options) {
        return Err(code);
    }
    match picture::pictures(&src, index, options) {
        Ok(p) => Ok((src, p)),
        Err((span, message)) => {
            note_at(&name, &src, &span, &message);
            Err(undrawable(&src, index, options))
        }
    }
}

/// Whether `verify` calls record `index` a syntax error (a token no move can be read from, tags
/// and no moves) or undecided (no game from its start): then nothing is drawn, its problems go to
/// standard error as `verify --format short` gives them, and the exit code is 1, as `verify`'s.
pub fn not_replayable<S: Games>(name: &str, src: &str, index: usize, options: VerifyOptions<S>) -> Option<ExitCode> {
    let found = crate::record::read(src, options.reading()).nth(index.checked_sub(1)?)?;
    let verdict = verify::prepare(src, &found, options).verdict();
    let what = match verdict.status {
        Status::SyntaxError => "a syntax error",
        Status::Undecided => "undecided",
        Status::Valid | Status::Illegal | Status::Refuted => return None,
    };
    let source = Source::new(name, Arc::new(src.to_string()));
    // Standard error closed or full changes nothing: the exit code says it all.
    let _ = std::io::stderr().write_all(report::short_lines(&source, &verdict, false).as_bytes());
    note(&format!("{name}: record {index} is {what}, as verify says: nothing is drawn"));
    Some(ExitCode::from(1))
}

/// The exit code when a record cannot be replayed at all: 1 when the record is there but not
/// valid (a syntax error, no known start) or the file holds no record, as `verify` says; 2 when
/// `--record` asks for a record past the file's last.
pub fn undrawable<S: Games>(src: &str, index: usize, options: VerifyOptions<S>) -> ExitCode {
    let found = crate::record::read(src, options.reading()).take(index).count();
    if found == 0 || found >= index {
        ExitCode::from(1)
    } else {
        ExitCode::from(2)
    }
}

/// Whether the picture `show` draws stands at or after an illegal move (or whether `render`,
/// which draws every position, meets one): the record is not valid up to it.
fn past_an_illegal_move(pictures: &Pictures, ply: Option<usize>) -> bool {
    pictures.error.is_some() && ply.is_none_or(|p| p >= pictures.scenes.len())
}

/// Says on standard error why a record cannot be drawn: at its line and column, or of the whole
/// file when the error has no place in it (an empty span at its start).
pub fn note_at(name: &str, src: &str, span: &std::ops::Range<usize>, message: &str) {
    if span.is_empty() && span.start == 0 {
        note(&format!("{name}: {message}"));
    } else {
        let (line, col) = report::line_col(src, span.start);
        note(&format!("{name}:{line}:{col}: {message}"));
    }
}

/// Says on standard error what the picture shows when it is not the position asked for.
fn explain(name: &str, src: &str, pictures: &Pictures, ply: Option<usize>) {
    let played = pictures.scenes.len() - 1;
    match (&pictures.error, ply) {
        (Some((_, span)), None) => {
            let (line, col) = report::line_col(src, span.start);
            note(&format!(
                "{name}: the move at {line}:{col} is illegal; drawing the position before it, with that move in red"
            ));
        }
        (Some((_, span)), Some(p)) if p > played => {
            let (line, col) = report::line_col(src, span.start);
            note(&format!("{name}: stopped at an illegal move at {line}:{col}; showing the position before it"));
        }
        (None, Some(p)) if p > played => {
            note(&format!("{name}: the record has only {played} moves; showing the last position"));
        }
        _ => {}
    }
}

/// What `show` draws: the position after a number of moves (all: `None`), or a numbered diagram.
#[derive(Clone, Copy, Debug)]
pub enum Shown {
    /// The position after this many moves; the last (or the error diagram) if `None`.
    Ply(Option<usize>),
    /// The numbered diagram of these moves.
    Numbered(NumberRange),
}

/// The numbered diagram of the moves `range` numbers, and whether it is the error diagram; `Err`
/// with the exit code of a range that numbers no move, said on standard error.
fn numbered(name: &str, src: &str, pictures: &Pictures, range: NumberRange) -> Result<(Scene, bool), ExitCode> {
    let scene = match (pictures.numbered(range), &pictures.error) {
        (Ok(scene), _) => scene,
        // Its first move is illegal: the error diagram, with nothing to number, as `show` draws it.
        (Err(RangeError::NoMoves), Some((error, _))) => {
            note(&format!(
                "{name}: the first move is illegal, and no move is numbered; drawing the position before it"
            ));
            return Ok((error.clone(), true));
        }
        (Err(e), _) => {
            note(&format!("{name}: cannot number the moves: {e}"));
            return Err(ExitCode::from(2));
        }
    };
    let last = pictures.turns.last().copied().unwrap_or_default();
    let error = scene.illegal.is_some();
    match (&pictures.error, range.to) {
        // The range reaches the illegal move: it is drawn, as `show` draws it.
        (Some((_, span)), _) if error => {
            let (line, col) = report::line_col(src, span.start);
            note(&format!(
                "{name}: the move at {line}:{col} is illegal; drawing the position before it, with that move in red"
            ));
        }
        (None, Some(to)) if to > last => {
            note(&format!("{name}: the record's last move is numbered {last}; numbering the moves to it"));
        }
        _ => {}
    }
    Ok((scene, error))
}

/// `show` as a picture (SVG or PNG) or as a numbered diagram (a picture or text), to `out` or
/// standard output.
pub fn show<S: Games>(
    file: &Path,
    index: usize,
    shown: Shown,
    options: VerifyOptions<S>,
    format: ShowFormat,
    out: Option<&Path>,
    look: &Look,
) -> ExitCode {
    let (src, pictures) = match load(file, index, options) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let name = files::display_name(file);
    let (scene, illegal) = match shown {
        Shown::Ply(ply) => {
            explain(&name, &src, &pictures, ply);
            (pictures.scene(ply).clone(), past_an_illegal_move(&pictures, ply))
        }
        Shown::Numbered(range) => match numbered(&name, &src, &pictures, range) {
            Ok(numbered) => numbered,
            Err(code) => return code,
        },
    };
    let verdict = if illegal { ExitCode::from(1) } else { ExitCode::SUCCESS };
    let bytes = match format {
        ShowFormat::Svg | ShowFormat::Png | ShowFormat::Tex => {
            match look.picture(&scene, format == ShowFormat::Tex, format == ShowFormat::Png) {
                Ok(bytes) => bytes,
                Err(e) => {
                    note(&e);
                    return ExitCode::from(2);
                }
            }
        }
        ShowFormat::Ascii => match picture::numbered_text(&src, index, &scene, options) {
            Ok(mut text) => {
                for line in picture::scene_words(&scene) {
                    text.push_str(&line);
                    text.push('\n');
                }
                text.into_bytes()
            }
            Err((span, message)) => {
                note_at(&name, &src, &span, &message);
                return ExitCode::from(2);
            }
        },
        ShowFormat::Code => unreachable!("codes are written by show.rs"),
    };
    let written = match out {
        Some(path) => file::write_file(path, file, &bytes, file::Name::Given),
        None => file::write_stdout(&bytes, (format == ShowFormat::Png).then_some("a PNG")),
    };
    if written == ExitCode::SUCCESS {
        verdict
    } else {
        written
    }
}

/// `referee render`.
#[derive(Args, Debug)]
pub struct RenderArgs {
    /// The file holding the record.
    file: PathBuf,
    /// Which record of the file (1-based).
    #[arg(long, default_value_t = 1, value_parser = super::record_number)]
    record: usize,
    /// The folder to write into (created if missing). A picture already there is replaced; a link
    /// at a picture's name is never followed, and it, or a read-only picture, is refused.
    #[arg(short, long, value_name = "DIR")]
    out: PathBuf,
    /// svg, png or tex (TikZ, see --tex): one picture per position (and the error diagram); gif:
    /// one animation, of at most 400 megapixels in all (frames x width x height), about a minute's
    /// work; html: one self-contained replay page.
    #[arg(long, value_enum, default_value_t = RenderFormat::Svg)]
    format: RenderFormat,
    /// One picture per turn rather than per move (a phages turn has several moves).
    #[arg(long)]
    per_turn: bool,
    #[command(flatten)]
    numbers: NumberArgs,
    /// Read the record as this game, whatever its text suggests.
    #[arg(long, value_parser = super::GameParser)]
    game: Option<&'static crate::game::About>,
    #[command(flatten)]
    look: Look,
}

pub fn render<S: Games>(args: RenderArgs, games: S) -> ExitCode {
    if let Some(code) = args.look.tex_without_tex(args.format == RenderFormat::Tex) {
        return code;
    }
    let verify_options = VerifyOptions { game: args.game, ..VerifyOptions::default() }.with_games(games);
    let (src, pictures) = match load(&args.file, args.record, verify_options) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let options = args.look.options();
    let name = files::display_name(&args.file);
    // Numbered, the positions of the moves numbered, each with the numbers up to it.
    let (numbered, numbered_error) = match args.numbers.range().map(|range| pictures.numbered_scenes(range)) {
        None => (None, None),
        Some(Ok((scenes, error))) => (Some(scenes), error),
        // Its first move is illegal: the start and the error diagram, with nothing to number.
        Some(Err(RangeError::NoMoves)) if pictures.error.is_some() => {
            (Some(pictures.scenes.clone()), pictures.error.as_ref().map(|(error, _)| error.clone()))
        }
        Some(Err(e)) => {
            note(&format!("{name}: cannot number the moves: {e}"));
            return ExitCode::from(2);
        }
    };
    let all = numbered.as_deref().unwrap_or(&pictures.scenes);
    let error = match &numbered {
        Some(_) => numbered_error.as_ref(),
        None => pictures.error.as_ref().map(|e| &e.0),
    };
    let turns;
    let scenes: Vec<&Scene> = if args.per_turn {
        turns = picture::per_turn(all);
        turns.iter().collect()
    } else {
        all.iter().collect()
    };
    let stem = args.file.file_stem().and_then(|s| s.to_str()).unwrap_or("record").to_string();
    let base = match numbered {
        Some(_) => format!("{stem}-{}-numbered", args.record),
        None => format!("{stem}-{}", args.record),
    };
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    // The GIF's frames end on the error diagram; their canvas is known before any is drawn.
    let frames: Vec<&Scene> = scenes.iter().copied().chain(error).collect();
    let mut canvas = (0, 0);
    let drawn = (|| -> Result<(), String> {
        match args.format {
            RenderFormat::Svg | RenderFormat::Png | RenderFormat::Tex => {
                let digits = scenes.len().to_string().len().max(3);
                let ext = match args.format {
                    RenderFormat::Png => "png",
                    RenderFormat::Tex => "tex",
                    _ => "svg",
                };
                for scene in &scenes {
                    let name = format!("{base}-ply{:0digits$}.{ext}", scene.ply);
                    files.push((name, picture_bytes(scene, args.format, &args.look)?));
                }
                if let Some(error) = error {
                    files.push((format!("{base}-error.{ext}"), picture_bytes(error, args.format, &args.look)?));
                }
            }
            // Encoded into its file frame by frame, below: never held whole.
            RenderFormat::Gif => canvas = gif_canvas(&frames, &options, args.per_turn)?,
            RenderFormat::Html => {
                let verdict = verify::verify_records(&src, verify_options)
                    .nth(args.record - 1)
                    .ok_or("the record has no verdict")?;
                // The page ends on the error diagram, numbered where the numbers reach it.
                let numbered_pictures = numbered_error.as_ref().map(|error| Pictures {
                    error: pictures.error.as_ref().map(|(_, span)| (error.clone(), span.clone())),
                    ..pictures.clone()
                });
                let pictures = numbered_pictures.as_ref().unwrap_or(&pictures);
                let page = picture::replay_page(&name, &src, pictures, &scenes, &verdict, &options);
                files.push((format!("{base}.html"), page.into_bytes()));
            }
        }
        Ok(())
    })();
    if let Err(e) = drawn {
        note(&format!("cannot draw the pictures: {e}"));
        return ExitCode::from(2);
    }
    // A folder this run made is taken away again if nothing could be written into it (a run
    // that fails leaves no trace); `remove_dir` removes only an empty folder, never a file.
    let made = !args.out.exists();
    let failed = |code: ExitCode| {
        if made {
            let _ = fs::remove_dir(&args.out);
        }
        code
    };
    if let Err(e) = fs::create_dir_all(&args.out) {
        note(&format!("cannot create {}: {e}", args.out.display()));
        return ExitCode::from(2);
    }
    for (name, bytes) in &files {
        let code = file::write_file(&args.out.join(name), &args.file, bytes, file::Name::MadeUp);
        if code != ExitCode::SUCCESS {
            return failed(code);
        }
    }
    let what = if args.format == RenderFormat::Gif {
        let name = format!("{base}.gif");
        if let Err(message) = animation(&args.out.join(&name), &args.file, &frames, canvas, &options) {
            note(&message);
            return failed(ExitCode::from(2));
        }
        name
    } else if files.len() == 1 {
        files[0].0.clone()
    } else {
        format!("{} files", files.len())
    };
    note(&format!("wrote {what} to {}", args.out.display()));
    if let Some(undrawn) = pictures.undrawn_note().filter(|_| args.format == RenderFormat::Html) {
        note(&format!("{}: {undrawn}", files::display_name(&args.file)));
    }
    if let Some((_, span)) = &pictures.error {
        let (line, col) = report::line_col(&src, span.start);
        let drawn = match error {
            Some(_) => "the positions before it are drawn, and that move in red",
            None => "it comes after the moves numbered",
        };
        note(&format!("{name}: the move at {line}:{col} is illegal; {drawn}"));
        return ExitCode::from(1);
    }
    // An illegal move in a variation makes the record illegal too, as verify says.
    if let Some(k) = pictures.variations.iter().position(|b| b.error.is_some()) {
        let (line, col) =
            pictures.variations[k].error.as_ref().map_or((0, 0), |(_, s)| report::line_col(&src, s.start));
        let drawn = if args.format == RenderFormat::Html {
            "the page draws that variation up to it, and that move in red"
        } else {
            "variations are drawn on the replay page (--format html)"
        };
        note(&format!(
            "{}: the move at {line}:{col} is illegal (in the variation at {}); {drawn}",
            files::display_name(&args.file),
            variation_path(&pictures, k + 1)
        ));
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// The name of variation line `k` with the names of the variations it lies in, as the verdict
/// gives it: `1... a1a2 > 2. c1c2`.
fn variation_path(pictures: &Pictures, mut k: usize) -> String {
    let mut names = Vec::new();
    while let Some(b) = k.checked_sub(1).and_then(|i| pictures.variations.get(i)) {
        names.push(b.name.as_str());
        k = b.from;
    }
    names.reverse();
    names.join(" > ")
}

/// The size of the GIF of `frames`: the largest picture's, known from the pictures' SVGs, which
/// cost little next to their pixels. A GIF whose frames hold more than [`gif::MAX_PIXELS`] in all
/// is refused before any is drawn, with what would bring it under: its time grows with them.
fn gif_canvas(frames: &[&Scene], options: &SvgOptions, per_turn: bool) -> Result<(u32, u32), String> {
    let (width, height) = canvas_of(frames, options)?;
    let pixels = gif::pixels(frames.len(), width, height);
    if pixels <= gif::MAX_PIXELS {
        return Ok((width, height));
    }
    let megapixels = |p: u64| p.div_ceil(1_000_000);
    let mut help = vec![match narrower(frames, options, pixels)? {
        Some(fits) => format!("smaller frames (--width {fits} fits)"),
        None => format!("fewer frames (even at the narrowest, --width {}, they are past it)", svg::MIN_WIDTH),
    }];
    if !per_turn {
        help.push("one a turn rather than one a move (--per-turn, where a turn has several moves)".into());
    }
    help.push("pictures rather than an animation (--format png or svg)".into());
    let last = help.pop().unwrap_or_default();
    Err(format!(
        "a GIF of {} frames of {width}x{height} pixels is {} megapixels to draw and encode, past the limit of {} \
         (about a minute's work): draw {}, or {last}",
        frames.len(),
        megapixels(pixels),
        gif::MAX_PIXELS / 1_000_000,
        help.join(", "),
    ))
}

/// The largest picture's width and height among `frames`.
fn canvas_of(frames: &[&Scene], options: &SvgOptions) -> Result<(u32, u32), String> {
    let (mut width, mut height) = (0, 0);
    for scene in frames {
        let (w, h) = png::size(&svg::svg(scene, options)).map_err(|e| e.to_string())?;
        (width, height) = (width.max(w), height.max(h));
    }
    Ok((width, height))
}

/// The widest `--width` (a multiple of 10) at which the GIF of `frames`, `pixels` at
/// `options.width`, is within [`gif::MAX_PIXELS`], or `None` when not even the narrowest is. The
/// height follows the width but for the caption's lines, so the guess from the square root is
/// checked, and narrowed until it fits.
fn narrower(frames: &[&Scene], options: &SvgOptions, pixels: u64) -> Result<Option<u32>, String> {
    let scale = (gif::MAX_PIXELS as f64 / pixels as f64).sqrt();
    let mut width = (f64::from(options.width) * scale) as u32 / 10 * 10;
    while width >= svg::MIN_WIDTH {
        let (w, h) = canvas_of(frames, &SvgOptions { width, ..*options })?;
        if gif::pixels(frames.len(), w, h) <= gif::MAX_PIXELS {
            return Ok(Some(width));
        }
        width = (width * 19 / 20) / 10 * 10;
    }
    Ok(None)
}

/// The GIF of `frames` written to `path` one frame at a time: the memory of one picture, whatever
/// the length of the game. `canvas` is its size, the largest picture's ([`gif_canvas`]).
fn animation(
    path: &Path,
    input: &Path,
    frames: &[&Scene],
    (width, height): (u32, u32),
    options: &SvgOptions,
) -> Result<(), String> {
    let drawing = |e: &dyn std::fmt::Display| format!("cannot draw the pictures: {e}");
    let out = file::OutFile::create(path, input, file::Name::MadeUp)?;
    let mut gif = gif::Animation::new(out, width, height, Timing::default()).map_err(|e| drawing(&e))?;
    for (k, scene) in frames.iter().enumerate() {
        let (width, height, pixels) = png::rgba(&svg::svg(scene, options)).map_err(|e| drawing(&e))?;
        gif.frame(&RgbaFrame { width, height, pixels }, k + 1 == frames.len()).map_err(|e| drawing(&e))?;
    }
    gif.finish().map_err(|e| drawing(&e))?.commit()
}

fn picture_bytes(scene: &Scene, format: RenderFormat, look: &Look) -> Result<Vec<u8>, String> {
    look.picture(scene, format == RenderFormat::Tex, format == RenderFormat::Png)
}
