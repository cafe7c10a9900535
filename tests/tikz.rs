//! TikZ diagrams (`--format tex`): one position of each game in every style, a numbered diagram
//! and an error diagram compiled with `pdflatex` as standalone documents, and a fragment through a
//! paper that loads `tex/referee.sty`; the PDFs' text read back with `pdftotext`.
//!
//! CI installs pdflatex (`.ci/run`); elsewhere, without it, the compiling tests say so and pass.
//! `cargo test --test tikz -- --ignored --nocapture write_tikz_pictures` writes each diagram's
//! TeX, PDF and a PNG of it (pdftoppm) to `$REFEREE_PICTURES` (default `/tmp/tikz`), to be
//! looked at beside the PNG of the same scene.

mod support;

use std::path::Path;
use std::process::Command;

use referee::picture::numbers::NumberRange;
use referee::picture::pictures;
use referee::render::model::Scene;
use referee::render::png;
use referee::render::svg::{svg, StyleName, SvgOptions};
use referee::render::tikz::{tikz, tikz_of_svg, TexOutput};
use referee::verify::VerifyOptions;
use support::{arg, run};

/// A sample of each game, and the position drawn of it.
const POSITIONS: [(&str, &str, usize); 6] = [
    ("quadraphages", "samples/quadraphages/random-seed-1.txt", 12),
    ("hexaphages", "samples/hexaphages/random-seed-1.txt", 12),
    ("quarod", "samples/quarod/random-size-6.txt", 14),
    ("petrify", "samples/petrify/random-size-6.txt", 16),
    ("vadrantir", "samples/vadrantir/random-side-5.txt", 14),
    ("splinter", "samples/splinter/random-4-players.txt", 16),
];

/// Last positions that draw what a position in the middle of a game does not.
const ENDS: [(&str, &str, StyleName); 5] = [
    ("petrify-end", "samples/petrify/random-size-6.txt", StyleName::Light),
    ("vadrantir-end-print", "samples/vadrantir/random-side-5.txt", StyleName::Print),
    ("splinter-end-print", "samples/splinter/random-4-players.txt", StyleName::Print),
    ("quadraphages-labels", "samples/quadraphages/annotated-club-notes.txt", StyleName::Light),
    ("quarod-marks-dark", "samples/quarod/annotated-lesson.txt", StyleName::Dark),
];

const DESIGNERS_1: &str = "samples/quadraphages/designers-game-1.txt";
const BLOG: &str = "samples/quadraphages/blog-game-sample.txt";

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn pictures_of(path: &str) -> referee::picture::Pictures {
    pictures(&read(path), 1, VerifyOptions::default()).unwrap_or_else(|(_, e)| panic!("{path}: {e}"))
}

fn options(style: StyleName) -> SvgOptions {
    SvgOptions { style, ..SvgOptions::default() }
}

/// Every diagram compiled: a name, the scene and its style.
fn diagrams() -> Vec<(String, Scene, StyleName)> {
    let mut all = Vec::new();
    for (game, path, ply) in POSITIONS {
        let scene = pictures_of(path).scene(Some(ply)).clone();
        assert_eq!(scene.ply, ply, "{path} has {ply} moves");
        for style in StyleName::ALL {
            all.push((format!("{game}-{style}"), scene.clone(), style));
        }
    }
    let numbered = pictures_of(DESIGNERS_1).numbered(NumberRange { from: None, to: None }).expect("numbers");
    all.push(("quadraphages-numbered".to_string(), numbered, StyleName::Light));
    let error = pictures_of(BLOG).error.expect("the blog's game has an illegal move").0;
    all.push(("quadraphages-error".to_string(), error, StyleName::Light));
    // What the positions above leave out: regions that scored and a pass's badge, a piece pushed
    // off the board, the writer's markup (labels, marked cells).
    for (name, path, style) in ENDS {
        all.push((name.to_string(), pictures_of(path).scene(None).clone(), style));
    }
    all
}

/// Whether pdflatex is here; without it on CI, a failure that says why.
fn pdflatex_here() -> bool {
    let here = Command::new("pdflatex").arg("--version").output().is_ok_and(|o| o.status.success());
    if !here {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI compiles the TikZ diagrams: install pdflatex with pgf (.ci/run installs texlive-latex-base \
             texlive-pictures poppler-utils)"
        );
        eprintln!("note: pdflatex is not installed: the TikZ diagrams are not compiled");
    }
    here
}

/// Where TeX finds a file: beside the document, or also in `tex/` (the package) when `package`.
fn texinputs(package: bool) -> String {
    if package {
        concat!(env!("CARGO_MANIFEST_DIR"), "/tex:").to_string()
    } else {
        // Empty: TeX's own tree only.
        String::new()
    }
}

/// Compiles `name.tex` in `dir`, with `tex/referee.sty` within reach only when `package`: the
/// log's error when it fails.
fn pdflatex(dir: &Path, name: &str, package: bool) -> Result<String, String> {
    let out = Command::new("pdflatex")
        .args(["-interaction=nonstopmode", "-halt-on-error", &format!("{name}.tex")])
        .current_dir(dir)
        .env("TEXINPUTS", texinputs(package))
        .output()
        .expect("pdflatex runs");
    let log = std::fs::read_to_string(dir.join(format!("{name}.log"))).unwrap_or_default();
    if out.status.success() {
        Ok(log)
    } else {
        let error = log.lines().skip_while(|l| !l.starts_with('!')).take(12).collect::<Vec<_>>().join("\n");
        Err(format!("{name}.tex does not compile:\n{error}"))
    }
}

/// The text of a PDF as pdftotext reads it, its white space made single spaces (the caption's
/// lines run on) and its typographic apostrophes plain.
fn pdf_text(pdf: &Path) -> String {
    let out = Command::new("pdftotext").args([arg(pdf), "-"]).output().expect("pdftotext runs");
    assert!(out.status.success(), "pdftotext {}", pdf.display());
    let text = String::from_utf8_lossy(&out.stdout).replace('’', "'");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The fonts of a PDF that are bitmaps (Type 3: METAFONT's, where a font has no outlines), as
/// pdffonts lists them: a diagram's text is drawn in outline fonts, sharp at any size.
fn bitmap_fonts(pdf: &Path) -> Vec<String> {
    let out = Command::new("pdffonts").arg(arg(pdf)).output().expect("pdffonts runs");
    String::from_utf8_lossy(&out.stdout).lines().filter(|l| l.contains("Type 3")).map(str::to_string).collect()
}

/// A PDF's page size in points, as pdfinfo gives it.
fn page_size(pdf: &Path) -> (f64, f64) {
    let out = Command::new("pdfinfo").arg(arg(pdf)).output().expect("pdfinfo runs");
    let info = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = info.lines().find(|l| l.starts_with("Page size:")).expect("a page size");
    let numbers: Vec<f64> = line.split_whitespace().filter_map(|w| w.parse().ok()).collect();
    (numbers[0], numbers[1])
}

/// 80 mm, the width of a diagram unless the document says otherwise, in points.
const WIDTH_PT: f64 = 80.0 / 25.4 * 72.27;

/// A count of each word that stands alone (a coordinate, a number) in a text.
fn words(text: &str) -> std::collections::BTreeMap<&str, usize> {
    let mut counts = std::collections::BTreeMap::new();
    for word in text.split(' ') {
        *counts.entry(word).or_default() += 1;
    }
    counts
}

#[test]
fn every_game_compiles_in_every_style_and_reads_as_its_picture() {
    if !pdflatex_here() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (name, scene, style) in diagrams() {
        let options = options(style);
        let tex = tikz(&scene, &options, TexOutput::Standalone).expect("TikZ");
        // One node per text of the SVG: the caption's lines, the coordinates, the numbers.
        assert_eq!(tex.matches("\\node[").count(), svg(&scene, &options).matches("<text ").count(), "{name}");
        std::fs::write(dir.path().join(format!("{name}.tex")), &tex).unwrap();
        // Without the package within reach: a standalone document holds what it needs.
        pdflatex(dir.path(), &name, false).unwrap_or_else(|e| panic!("{e}"));
        let pdf = dir.path().join(format!("{name}.pdf"));
        let (width, height) = page_size(&pdf);
        let (w, h) = png::size(&svg(&scene, &options)).unwrap();
        assert!((width - WIDTH_PT * 72.0 / 72.27).abs() < 0.05, "{name}: a page {width}pt wide");
        assert!((height - width * f64::from(h) / f64::from(w)).abs() < 0.1, "{name}: a page {height}pt high");
        assert_eq!(bitmap_fonts(&pdf), Vec::<String>::new(), "{name}");
        let text = pdf_text(&pdf);
        // The caption, its lines run on, and the players' names in the legend.
        for line in scene.caption() {
            assert!(text.contains(&line.split_whitespace().collect::<Vec<_>>().join(" ")), "{name}: {line} in {text}");
        }
        let counts = words(&text);
        for player in &scene.board.players {
            assert!(counts.contains_key(&**player), "{name}: {player} in {text}");
        }
        // Each column's letter twice, above and below the board.
        for col in 0..scene.board.geometry.width() {
            let letter = ((b'a' + col as u8) as char).to_string();
            assert!(counts.get(letter.as_str()) >= Some(&2), "{name}: {letter} twice in {text}");
        }
    }
}

#[test]
fn a_numbered_diagram_shows_each_number_once_with_its_halo() {
    if !pdflatex_here() {
        return;
    }
    let scene = pictures_of(DESIGNERS_1).numbered(NumberRange { from: None, to: None }).expect("numbers");
    let numbers = scene.numbers.as_ref().expect("a numbered diagram");
    let tex = tikz(&scene, &SvgOptions::default(), TexOutput::Standalone).expect("TikZ");
    assert_eq!(tex.matches("\\refereehalo{").count(), numbers.cells.len(), "each number has its halo");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("numbered.tex"), &tex).unwrap();
    pdflatex(dir.path(), "numbered", false).unwrap_or_else(|e| panic!("{e}"));
    let mut text = pdf_text(&dir.path().join("numbered.pdf"));
    for line in scene.caption() {
        text = text.replace(&line.split_whitespace().collect::<Vec<_>>().join(" "), "");
    }
    // Each number as often as cells carry it (its halo is the same text, which pdftotext reads
    // once), and the row numbers beside the board.
    let counts = words(&text);
    let rows = scene.board.geometry.height();
    for n in 1..=numbers.last {
        let cells = numbers.cells.iter().filter(|&&(_, m)| m == n).count();
        let beside = if n <= u32::from(rows) { 2 } else { 0 };
        assert_eq!(counts.get(n.to_string().as_str()).copied().unwrap_or(0), cells + beside, "{n} in {text}");
    }
}

#[test]
fn a_fragment_compiles_in_a_paper_that_loads_the_package_at_the_width_asked() {
    if !pdflatex_here() {
        return;
    }
    let scene = pictures_of(POSITIONS[2].1).scene(Some(POSITIONS[2].2)).clone();
    let fragment = tikz(&scene, &options(StyleName::Print), TexOutput::Fragment).expect("TikZ");
    assert!(!fragment.contains("\\documentclass") && !fragment.contains("\\usepackage"));
    assert!(fragment.trim_end().ends_with("\\end{tikzpicture}%"));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("diagram.tex"), &fragment).unwrap();
    let paper = r"\documentclass{article}
\usepackage{referee}
\newsavebox\diagram
\begin{document}
Before the diagram.

\sbox\diagram{\refereediagram[60mm]{diagram}}\typeout{diagram width: \the\wd\diagram}\usebox\diagram

\refereediagram{diagram}

After the diagram.
\end{document}
";
    std::fs::write(dir.path().join("paper.tex"), paper).unwrap();
    let log = pdflatex(dir.path(), "paper", true).unwrap_or_else(|e| panic!("{e}"));
    let width: f64 = log
        .lines()
        .find_map(|l| l.strip_prefix("diagram width: "))
        .and_then(|w| w.trim_end_matches("pt").parse().ok())
        .expect("the width in the log");
    assert!((width - 60.0 / 25.4 * 72.27).abs() < 0.05, "a diagram 60mm wide is {width}pt");
    assert_eq!(bitmap_fonts(&dir.path().join("paper.pdf")), Vec::<String>::new());
    let text = pdf_text(&dir.path().join("paper.pdf"));
    let caption = scene.caption()[0].split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(text.starts_with("Before the diagram."), "{text}");
    assert!(text.ends_with("After the diagram. 1"), "{text}");
    assert_eq!(text.matches(&caption).count(), 2, "{text}");
}

#[test]
fn text_with_the_characters_latex_keeps_for_itself_compiles_and_reads_back() {
    if !pdflatex_here() {
        return;
    }
    // What a player's name, a reason or a markup label could hold, and what the captions use.
    let said = r#"a\b{c}$&#_%^~ <x>|y -- z · 1—0 × "q" …"#;
    let escaped = said.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let picture = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"300\" height=\"40\"><rect width=\"300\" height=\"40\" \
         fill=\"#fff\"/><text x=\"5\" y=\"25\" font-size=\"10\" fill=\"#222\">{escaped}</text></svg>"
    );
    let tex = tikz_of_svg(&picture, said, TexOutput::Standalone, referee::render::tikz::DEFAULT_MM).expect("TikZ");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("said.tex"), &tex).unwrap();
    pdflatex(dir.path(), "said", false).unwrap_or_else(|e| panic!("{e}\n{tex}"));
    assert_eq!(bitmap_fonts(&dir.path().join("said.pdf")), Vec::<String>::new());
    let text = pdf_text(&dir.path().join("said.pdf"));
    // pdftotext reads `_` (a rule in Computer Modern) as a space, and `…` as LaTeX's dots.
    for piece in [r"a\b{c}$&#", "%", "<x>|y", "-- z · 1—0 ×", ". . ."] {
        assert!(text.contains(piece), "{piece} in {text}");
    }
}

/// The README's paper ("LaTeX diagrams"), as written there, around the fragment its command writes.
#[test]
fn the_readme_paper_compiles() {
    if !pdflatex_here() {
        return;
    }
    let readme = read("README.md");
    let paper = readme.split("```latex\n").nth(1).and_then(|b| b.split("```").next()).expect("a latex block");
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) =
        run(&["show", DESIGNERS_1, "--numbers", "--tex", "fragment", "-o", arg(&dir.path().join("game1.tex"))]);
    assert_eq!(code, 1, "the record's illegal move is drawn: {err}");
    std::fs::write(dir.path().join("paper.tex"), paper).unwrap();
    pdflatex(dir.path(), "paper", true).unwrap_or_else(|e| panic!("{e}"));
    let text = pdf_text(&dir.path().join("paper.pdf"));
    assert!(text.contains("Illegal: h1a1"), "{text}");
}

/// The TikZ of a small position: what the translation writes, reviewed as a diff when it changes.
#[test]
fn the_tikz_of_a_small_position() {
    let scene = pictures_of("samples/quarod/random-size-4.txt").scene(Some(3)).clone();
    let options = SvgOptions { width: 240, ..options(StyleName::Print) };
    let fragment = tikz(&scene, &options, TexOutput::Fragment).expect("TikZ");
    assert_eq!(fragment, tikz(&scene, &options, TexOutput::Fragment).unwrap(), "the same bytes every time");
    insta::assert_snapshot!("quarod-4-ply-3-print-fragment", fragment);
}

#[test]
#[ignore = "writes TeX, PDF and PNG files to look at"]
fn write_tikz_pictures() {
    let dir = std::env::var("REFEREE_PICTURES").unwrap_or_else(|_| "/tmp/tikz".to_string());
    let dir = Path::new(&dir);
    std::fs::create_dir_all(dir).expect("a folder");
    let only = std::env::var("REFEREE_ONLY").unwrap_or_default();
    for (name, scene, style) in diagrams().into_iter().filter(|(name, _, _)| name.contains(&only)) {
        let tex = tikz(&scene, &options(style), TexOutput::Standalone).expect("TikZ");
        std::fs::write(dir.join(format!("{name}.tex")), tex).expect("written");
        std::fs::write(dir.join(format!("{name}-svg.png")), png::png(&svg(&scene, &options(style))).expect("PNG"))
            .expect("written");
        pdflatex(dir, &name, false).unwrap_or_else(|e| panic!("{e}"));
        to_png(&dir.join(format!("{name}.pdf")), &dir.join(format!("{name}-tex")));
    }
}

/// The README's picture of a TikZ diagram: the designers' Quadraphages game 1 numbered, compiled
/// and drawn at 150 dpi.
#[test]
#[ignore = "writes the README's picture into docs/pictures"]
fn write_docs_picture() {
    let dir = tempfile::tempdir().unwrap();
    let scene = pictures_of(DESIGNERS_1).numbered(NumberRange { from: None, to: None }).expect("numbers");
    let tex = tikz(&scene, &SvgOptions::default(), TexOutput::Standalone).expect("TikZ");
    std::fs::write(dir.path().join("numbered.tex"), tex).unwrap();
    pdflatex(dir.path(), "numbered", false).unwrap_or_else(|e| panic!("{e}"));
    let out = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/pictures/quadraphages-numbered-tikz");
    to_png(&dir.path().join("numbered.pdf"), Path::new(out));
    let bytes = std::fs::metadata(format!("{out}.png")).expect("written").len();
    assert!(bytes < 100_000, "{bytes} bytes");
}

/// The page of a PDF as `<stem>.png`, at 150 dpi.
fn to_png(pdf: &Path, stem: &Path) {
    let status = Command::new("pdftoppm")
        .args(["-png", "-r", "150", "-singlefile", arg(pdf), arg(stem)])
        .status()
        .expect("pdftoppm runs");
    assert!(status.success(), "pdftoppm {}", pdf.display());
}

#[test]
fn show_writes_tex_by_format_or_by_the_file_name() {
    let quarod = POSITIONS[2].1;
    let (code, out, err) = run(&["show", "--format", "tex", "--ply", "3", quarod]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\\documentclass{article}") && out.contains("\\begin{tikzpicture}[referee=480]"));
    assert!(out.trim_end().ends_with("\\end{document}"));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("board.tex");
    let (code, _, err) =
        run(&["show", "--ply", "3", "--tex", "fragment", "--style", "print", quarod, "-o", arg(&file)]);
    assert_eq!(code, 0, "{err}");
    let fragment = std::fs::read_to_string(&file).unwrap();
    assert!(fragment.contains("\\begin{tikzpicture}") && !fragment.contains("\\documentclass"), "{fragment}");
    // Numbers come with the picture, from the same drawing.
    let (code, out, _) = run(&["show", "--numbers", "--to", "3", "--format", "tex", DESIGNERS_1]);
    assert_eq!(code, 0);
    assert!(out.contains("\\refereehalo{"), "numbers with halos");
    // --tex only says something with --format tex.
    for format in [&["--format", "svg"][..], &[], &["-o", "board.svg"]] {
        let (code, _, err) = run(&[&["show", quarod, "--tex", "fragment"][..], format].concat());
        assert_eq!(code, 2, "{format:?}");
        assert!(err.contains("--tex chooses the form of a TikZ picture: give it with --format tex"), "{err}");
    }
}

#[test]
fn render_writes_one_tex_per_position() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pictures");
    let quarod = "samples/quarod/random-size-4.txt";
    let (code, _, err) = run(&["render", quarod, "--format", "tex", "--tex", "fragment", "--out", arg(&out)]);
    assert_eq!(code, 0, "{err}");
    let plies = pictures_of(quarod).scenes.len();
    let mut names: Vec<String> =
        std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names.len(), plies, "{names:?}");
    assert_eq!(names[0], "random-size-4-1-ply000.tex");
    let first = std::fs::read_to_string(out.join(&names[0])).unwrap();
    assert!(first.starts_with("% Quarod · ply 0") && !first.contains("\\documentclass"), "{first}");
    let (code, _, err) = run(&["render", quarod, "--tex", "standalone", "--out", arg(&dir.path().join("svg"))]);
    assert_eq!(code, 2, "--tex with svg pictures: {err}");
}
