//! `referee show --format svg|png` and `referee render`: pictures from the command line.

mod support;

use support::{arg, run};

const BLOG: &str = "samples/quadraphages/blog-game-sample.txt";
const QUAROD: &str = "samples/quarod/random-size-6.txt";

#[test]
fn show_draws_svg_and_png_and_the_format_follows_the_file_name() {
    let (code, out, _) = run(&["show", "--format", "svg", "--ply", "3", QUAROD]);
    assert_eq!(code, 0);
    assert!(out.starts_with("<svg") || out.starts_with("<?xml"), "{}", &out[..out.len().min(200)]);
    assert!(out.contains("ply 3"), "the caption names the ply");
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("board.png");
    let (code, _, err) = run(&["show", "--ply", "3", "--width", "300", QUAROD, "-o", arg(&png)]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    // The IHDR chunk holds the width, big-endian, at byte 16.
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), 300);
    let svg = dir.path().join("board.svg");
    assert_eq!(run(&["show", QUAROD, "-o", arg(&svg)]).0, 0);
    assert!(std::fs::read_to_string(&svg).unwrap().contains("</svg>"));
    let (code, _, err) = run(&["show", QUAROD, "-o", arg(&dir.path().join("board.bmp"))]);
    assert_eq!(code, 2);
    assert!(err.contains("give --format ascii, svg, png or tex"), "{err}");
}

/// Print sizes: `--width 80mm` gives the SVG its size in millimetres (its drawing that of a
/// picture of 96 pixels to the inch: 302 pixels), the PNG 300 dpi, said in its pHYs chunk, and a
/// standalone TikZ page that width; the range of millimetres and pixels is a usage error's.
#[test]
fn widths_in_millimetres_give_pictures_their_size_on_paper() {
    let dir = tempfile::tempdir().unwrap();
    let svg = run(&["show", "--format", "svg", "--width", "80mm", QUAROD]).1;
    let root = svg.lines().next().unwrap();
    assert!(root.contains("width=\"80mm\"") && root.contains("viewBox=\"0 0 302 "), "{root}");
    let height_mm: f64 = root.split("height=\"").nth(1).unwrap().split("mm").next().unwrap().parse().unwrap();
    let view_h: f64 = root.split("viewBox=\"0 0 302 ").nth(1).unwrap().split('"').next().unwrap().parse().unwrap();
    assert!((height_mm - 80.0 * view_h / 302.0).abs() < 0.01, "{root}");
    // The same drawing as at 302 pixels.
    let px = run(&["show", "--format", "svg", "--width", "302", QUAROD]).1;
    assert_eq!(svg.lines().skip(1).collect::<Vec<_>>(), px.lines().skip(1).collect::<Vec<_>>());
    let png = dir.path().join("board.png");
    assert_eq!(run(&["show", "--width", "80mm", QUAROD, "-o", arg(&png)]).0, 0);
    let bytes = std::fs::read(&png).unwrap();
    // 80 mm at 300 dpi: 302 pixels drawn 3.125 times as large, whole pixels.
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), 943);
    let phys = bytes.windows(4).position(|w| w == b"pHYs").expect("a pHYs chunk") + 4;
    let per_metre = u32::from_be_bytes(bytes[phys..phys + 4].try_into().unwrap());
    assert_eq!((per_metre, bytes[phys + 8]), (11811, 1), "300 dpi, in pixels a metre");
    let tex = run(&["show", "--format", "tex", "--width", "60mm", QUAROD]).1;
    assert!(tex.contains("\\setlength\\refereewidth{60mm}"), "{}", &tex[..tex.len().min(600)]);
    for bad in ["10mm", "2000mm", "50", "5000", "80cm"] {
        let (code, _, err) = run(&["show", "--width", bad, QUAROD]);
        assert_eq!(code, 2, "{bad}");
        assert!(err.contains("millimetres"), "{bad}: {err}");
    }
}

#[test]
fn show_without_a_ply_draws_the_error_diagram() {
    let (code, out, err) = run(&["show", "--format", "svg", BLOG]);
    assert_eq!(code, 1, "the record is not valid up to the position drawn, as verify says");
    assert!(err.contains("is illegal; drawing the position before it"), "{err}");
    assert!(out.contains("no O stone on d2"), "the reason is in the caption");
    assert!(out.contains("illegal"), "the move is drawn as illegal");
}

#[test]
fn styles_and_options_change_the_picture() {
    let light = run(&["show", "--format", "svg", QUAROD]).1;
    let dark = run(&["show", "--format", "svg", "--style", "dark", QUAROD]).1;
    let print = run(&["show", "--format", "svg", "--style", "print", QUAROD]).1;
    assert!(light != dark && light != print && dark != print);
    let bare = run(&["show", "--format", "svg", "--no-coordinates", "--no-caption", QUAROD]).1;
    assert!(bare.len() < light.len());
    assert!(!bare.contains("class=\"caption"), "no caption");
    assert_eq!(run(&["show", "--format", "svg", "--style", "neon", QUAROD]).0, 2);
}

#[test]
fn a_record_that_cannot_be_drawn_writes_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bad.png");
    let (code, _, err) = run(&["show", "samples/quadraphages/broken/syntax-bad-token.txt", "-o", arg(&out)]);
    assert_eq!(code, 1, "a syntax error, as verify says");
    assert!(err.contains(":3:31: syntax_error: `d8-d5` is not a stone move"), "{err}");
    assert!(!out.exists());
    let folder = dir.path().join("frames");
    let (code, _, _) = run(&["render", "samples/quadraphages/broken/syntax-bad-token.txt", "--out", arg(&folder)]);
    assert_eq!(code, 1);
    assert!(!folder.exists(), "nothing is written when nothing can be drawn");
}

#[test]
fn render_writes_every_position_and_the_error_diagram() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = run(&["render", BLOG, "--out", arg(dir.path())]);
    assert_eq!(code, 1, "the record has an illegal move: {err}");
    assert!(err.contains("the move at 15:31 is illegal; the positions before it are drawn"), "{err}");
    let mut names: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    // The blog's game: three moves (the filler `....` is no move) before the illegal d2d5.
    assert!(names.contains(&"blog-game-sample-1-ply000.svg".to_string()), "{names:?}");
    assert!(names.contains(&"blog-game-sample-1-error.svg".to_string()), "{names:?}");
    assert!(names.iter().all(|n| n.ends_with(".svg")));
    assert!(err.contains(&format!("wrote {} files", names.len())), "{err}");
}

#[test]
fn render_makes_a_gif_with_a_frame_per_move() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = run(&["render", QUAROD, "--format", "gif", "--width", "200", "--out", arg(dir.path())]);
    assert_eq!(code, 0, "{err}");
    let file = std::fs::File::open(dir.path().join("random-size-6-1.gif")).unwrap();
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(file).unwrap();
    assert_eq!(decoder.width(), 200);
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    let json = run(&["verify", "--format", "json", QUAROD]).1;
    let moves = support::json_lines(&json)[0]["moves"].as_u64().unwrap() as usize;
    assert_eq!(frames, moves + 1, "the start and one frame per move");
}

/// A GIF's time grows with its frames' pixels (2.4 s for one frame of a 9x9 board 4096 pixels
/// wide): one past `gif::MAX_PIXELS` is refused before any frame is drawn or any file made, with
/// a width at which it fits, and does.
#[test]
fn a_gif_too_large_to_draw_in_reasonable_time_is_refused_at_once_with_a_width_that_fits() {
    let dir = tempfile::tempdir().unwrap();
    // The first three turns of a Quadraphages game: 29 positions.
    let head: String = std::fs::read_to_string("samples/quadraphages/random-seed-1.txt")
        .unwrap()
        .lines()
        .take(5)
        .map(|l| format!("{l}\n"))
        .collect();
    let game = dir.path().join("game.txt");
    std::fs::write(&game, head).unwrap();
    let out = dir.path().join("out");
    let render = |format: &str, width: &str| {
        // A run that draws the GIF takes minutes here: it is stopped, and fails the test.
        support::outcome(
            support::referee()
                .args(["render", arg(&game), "--format", format, "--width", width, "--out", arg(&out)])
                .timeout(std::time::Duration::from_secs(60))
                .output()
                .unwrap(),
        )
    };
    let (code, _, err) = render("gif", "4096");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(
            "a GIF of 29 frames of 4096x4105 pixels is 488 megapixels to draw and encode, past the limit of 400"
        ),
        "{err}"
    );
    assert!(!out.exists(), "nothing is written");
    // The width it names: the frames' pixels, from their SVGs (which cost little), are within the
    // limit, and not far below it.
    let fits = err.split("--width ").nth(1).and_then(|w| w.split(' ').next()).unwrap();
    assert_eq!(render("svg", fits).0, 0);
    let (mut width, mut height) = (0, 0);
    for picture in std::fs::read_dir(&out).unwrap() {
        let svg = std::fs::read_to_string(picture.unwrap().path()).unwrap();
        let number = |name: &str| -> u64 {
            let at = svg.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
            svg[at..].split('"').next().unwrap().parse().unwrap()
        };
        (width, height) = (number("width").max(width), number("height").max(height));
    }
    let pixels = 29 * width * height;
    assert!(pixels <= referee::render::gif::MAX_PIXELS, "{pixels} pixels at --width {fits}");
    assert!(pixels > referee::render::gif::MAX_PIXELS * 4 / 5, "{pixels} pixels at --width {fits}");
}

#[test]
fn render_makes_a_self_contained_replay_page() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = run(&["render", BLOG, "--format", "html", "--out", arg(dir.path())]);
    assert_eq!(code, 1, "the record has an illegal move: {err}");
    let page = std::fs::read_to_string(dir.path().join("blog-game-sample-1.html")).unwrap();
    assert!(page.contains("<svg"));
    assert!(page.contains("no O stone on d2"));
    assert!(page.contains("d2d5"));
    for external in ["src=\"http", "href=\"http", "url(http", "@import"] {
        assert!(!page.contains(external), "{external}");
    }
}

/// At an illegal move the page lists the moves legal there, and its step counter says the ply each
/// frame's caption says, per move and per turn: the error diagram, the position before the
/// illegal move, counts as that position.
#[test]
fn the_replay_page_lists_the_legal_moves_and_counts_as_its_captions() {
    let dir = tempfile::tempdir().unwrap();
    let record = "samples/quadraphages/broken/illegal-blocked.txt";
    for per_turn in [false, true] {
        let mut args = vec!["render", record, "--format", "html", "--out", arg(dir.path())];
        if per_turn {
            args.push("--per-turn");
        }
        let (code, _, err) = run(&args);
        assert_eq!(code, 1, "the record has an illegal move: {err}");
        let page = std::fs::read_to_string(dir.path().join("illegal-blocked-1.html")).unwrap();
        // g7b7 is blocked; O's other moves at that point are listed.
        assert!(page.contains("<strong>Legal there (2):</strong> <code>c3h3</code> <code>g7g2</code>"), "{page}");
        let frames: Vec<&str> = page.split("<figure class=\"frame").skip(1).collect();
        assert!(frames.len() > 2);
        for frame in &frames {
            let counter = frame.split("data-counter=\"").nth(1).and_then(|t| t.split('"').next()).unwrap();
            let caption = frame.split("<figcaption>").nth(1).unwrap();
            let ply = |text: &str| text.split("ply ").nth(1).and_then(|t| t.split(' ').next()).unwrap().to_string();
            assert_eq!(ply(counter), ply(caption), "{counter} / {caption}");
        }
        let error = frames.last().unwrap();
        assert!(error.starts_with(" illegal\""), "the error diagram comes last");
        assert!(error.contains("data-counter=\"ply 6 of 6 · illegal move\""), "{error}");
    }
}

/// The replay page of an annotated record: comments and glyphs beside the board, markup drawn, and
/// the variations as lines of frames of their own, one of which stops at an illegal move.
#[test]
fn the_replay_page_shows_comments_glyphs_markup_and_variations() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("annotated.txt");
    let record =
        "[Game \"Quarod\"]\n[Size \"4\"]\n\n{Before <the> start.}\n1. d1d2!? {a good start [%arrow d1d2 green]} a2a3 \
                  (1... a1a2 {quiet [%mark a1 blue]} 2. b1b2 (2. c1c2 {also [%label b3 \"B\"]}) 2... c1c2) \
                  (1... b1b2 2. d2d3) 2. c3d3 *\n";
    std::fs::write(&input, record).unwrap();
    let (code, _, err) = run(&["render", arg(&input), "--format", "html", "--out", arg(dir.path())]);
    assert_eq!(code, 1, "a variation has an illegal move: {err}");
    assert!(err.contains("the move at 5:152 is illegal (in the variation at 1... b1b2); the page draws"), "{err}");
    let page = std::fs::read_to_string(dir.path().join("annotated-1.html")).unwrap();
    assert!(page.contains("<div class=\"comment\">Before &lt;the&gt; start.</div>"), "the start's comment");
    assert!(page.contains("<div class=\"comment\">a good start</div>"), "said without its markup");
    assert!(page.contains("<p class=\"glyph\"><b>!?</b> an interesting move</p>"));
    assert!(page.contains(
        "data-go=\"1\">1... a1a2</button> <button type=\"button\" class=\"branch\" data-go=\"3\">1... b1b2</button>"
    ));
    assert!(page.contains("<span data-line=\"2\" data-from=\"1\" data-at=\"1\">2. c1c2</span>"));
    // Each variation's frames, with their markup: the nested one's label, 1... a1a2's mark.
    let frame =
        |id: &str| page.split(&format!("id=\"{id}\"")).nth(1).and_then(|f| f.split("</figure>").next()).unwrap();
    assert!(frame("frame-2-1").contains("markup label"), "the nested variation's label");
    assert!(frame("frame-1-1").contains("markup mark"), "the variation's mark");
    assert!(frame("frame-1").contains("markup arrow"), "the main line's arrow");
    assert!(frame("frame-3-2").contains("sign illegal"), "1... b1b2's error diagram");
    assert!(
        page.contains("<strong>Illegal move <code>d2d3</code>:</strong> d2 is not empty. The variation stops here.")
    );
    assert!(page.contains("<li class=\"claim\">d2 is not empty (in the variation at 1... b1b2)</li>"), "the verdict");
}

/// A render that cannot write its pictures (here a name past the file system's 255 bytes) exits 2
/// and leaves no folder it made behind, for every format.
#[test]
fn a_render_that_fails_takes_away_the_folder_it_made() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join(format!("{}.txt", "a".repeat(250)));
    std::fs::copy("samples/quarod/random-size-4.txt", &input).unwrap();
    for format in ["gif", "svg", "png", "html"] {
        let out = dir.path().join(format!("new-{format}"));
        let (code, _, err) = run(&["render", arg(&input), "--format", format, "--out", arg(&out)]);
        assert_eq!(code, 2, "{format}: {err}");
        assert!(err.contains("File name too long"), "{format}: {err}");
        assert!(!out.exists(), "{format}: the folder the run made is left behind");
    }
}
