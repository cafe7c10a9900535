//! Pictures of positions from every engine: SVG snapshots, determinism, every figure of the board
//! model drawn once, and PNG pixels in the style's colours.
//!
//! `cargo test --test pictures -- --ignored --nocapture write_pictures` writes PNGs of every scene
//! in every style to `$REFEREE_PICTURES` (default `/tmp/pictures`), to be looked at.

use std::collections::BTreeMap;

use referee::game::{Game, Playable};
use referee::games::{petrify::Petrify, phages::Phages, quarod::Quarod, splinter::Splinter, vadrantir::Vadrantir};
use referee::random::random_game;
use referee::render::model::{Board, Figure, Mark, Scene, Shape, Sign, Tone};
use referee::render::png;
use referee::render::svg::{svg, Rgb, Style, StyleName, SvgOptions};

/// The position after the first `ply` moves, with the last of them drawn as the last move.
fn scene_at<G: Game>(start: &G, moves: &[G::Move], ply: usize, to_move: fn(&G) -> usize) -> (G, Scene) {
    let mut pos = start.clone();
    let mut signs = Vec::new();
    for (i, &m) in moves.iter().take(ply).enumerate() {
        if i + 1 == ply {
            signs = pos.signs(m).into_iter().map(|s| (s, Tone::Last)).collect();
        }
        pos.play_unchecked(m);
    }
    let scene = Scene {
        game: pos.about(),
        board: Board::of(&pos),
        signs,
        ply: ply.min(moves.len()),
        to_move: (!pos.is_over()).then(|| to_move(&pos)),
        score: pos.score().to_string(),
        provisional: !pos.is_over() && pos.counted_at_end(),
        scoring: if pos.is_over() { pos.scoring() } else { Vec::new() },
        illegal: None,
        syntax: false,
        markup: Vec::new(),
        glyphs: String::new(),
        numbers: None,
    };
    (pos, scene)
}

/// An error diagram after `ply` moves: the move the record writes next is one that was legal
/// earlier in the game and is not any more, drawn with three legal moves it could have been.
fn error_scene<G: Game>(start: &G, moves: &[G::Move], ply: usize, to_move: fn(&G) -> usize) -> Scene {
    let (pos, mut scene) = scene_at(start, moves, ply, to_move);
    let mut earlier = start.clone();
    let mut illegal = None;
    for &m in moves.iter().take(ply) {
        illegal = earlier.legal_moves().into_iter().find_map(|old| pos.check(old).err().map(|why| (old, why)));
        if illegal.is_some() {
            break;
        }
        earlier.play_unchecked(m);
    }
    let (m, why) = illegal.expect("some earlier move is illegal here");
    for alternative in pos.legal_moves().into_iter().take(3) {
        scene.signs.extend(pos.signs(alternative).into_iter().map(|s| (s, Tone::Alternative)));
    }
    scene.signs.extend(pos.signs(m).into_iter().map(|s| (s, Tone::Illegal)));
    scene.illegal = Some(why.to_string());
    scene
}

/// Start, middle and error diagram of one random game.
fn three<G: Game>(start: &G, seed: u64, middle: usize, to_move: fn(&G) -> usize) -> Vec<(&'static str, Scene)> {
    let moves = random_game(start, seed, middle + 1);
    assert!(moves.len() > middle, "the game of seed {seed} ends before ply {middle}");
    vec![
        ("start", scene_at(start, &moves, 0, to_move).1),
        ("middle", scene_at(start, &moves, middle, to_move).1),
        ("error", error_scene(start, &moves, middle, to_move)),
    ]
}

fn phages_to_move(p: &Phages) -> usize {
    p.to_move().index()
}

fn common<G: Playable>(players: Option<u8>) -> G {
    G::start(None, players).expect("default start")
}

/// Every game's scenes, named `<game>-<what>`.
fn scenes() -> Vec<(String, Scene)> {
    let hexaphages = Phages::hexaphages(4).expect("side 4 has a start");
    let mut all = Vec::new();
    let mut add = |game: &str, scenes: Vec<(&'static str, Scene)>| {
        all.extend(scenes.into_iter().map(|(what, s)| (format!("{game}-{what}"), s)));
    };
    add("quadraphages", three(&Phages::quadraphages(), 3, 19, phages_to_move));
    add("hexaphages", three(&hexaphages, 5, 15, phages_to_move));
    add("quarod", three(&common::<Quarod>(None), 1, 14, <Quarod as Playable>::to_move));
    add("petrify", three(&common::<Petrify>(None), 2, 30, <Petrify as Playable>::to_move));
    add("vadrantir", three(&common::<Vadrantir>(None), 4, 30, <Vadrantir as Playable>::to_move));
    add("splinter4", three(&common::<Splinter>(Some(4)), 6, 21, <Splinter as Playable>::to_move));
    let two = common::<Splinter>(Some(2));
    let three_players = common::<Splinter>(Some(3));
    add("splinter2", vec![("start", scene_at(&two, &[], 0, <Splinter as Playable>::to_move).1)]);
    add("splinter3", vec![("start", scene_at(&three_players, &[], 0, <Splinter as Playable>::to_move).1)]);
    all
}

fn options(style: StyleName) -> SvgOptions {
    SvgOptions { style, ..SvgOptions::default() }
}

#[test]
fn every_game_draws_as_in_its_snapshot() {
    for (name, scene) in scenes() {
        insta::assert_snapshot!(name, svg(&scene, &SvgOptions::default()));
    }
}

#[test]
fn the_other_styles_draw_as_in_their_snapshots() {
    let scenes: BTreeMap<String, Scene> = scenes().into_iter().collect();
    for (name, style) in [("splinter4-error", StyleName::Print), ("quarod-middle", StyleName::Dark)] {
        let scene = &scenes[name];
        insta::assert_snapshot!(format!("{name}-{style}"), svg(scene, &options(style)));
    }
}

const LONG_REASON: &str = "the disk on c4 cannot capture towards f4 because the squares between them hold a \
                           block and a disk of its own colour, and a capture must cross empty squares only";

/// An error diagram whose reason is as long as the longest an engine gives.
fn long_reason_scene() -> Scene {
    let scenes: BTreeMap<String, Scene> = scenes().into_iter().collect();
    let mut scene = scenes["petrify-error"].clone();
    scene.illegal = Some(LONG_REASON.to_string());
    scene
}

#[test]
fn a_long_reason_wraps_under_the_board() {
    let scene = long_reason_scene();
    let reason = LONG_REASON;
    assert!(reason.len() > 140);
    let picture = svg(&scene, &SvgOptions { width: 360, ..SvgOptions::default() });
    let lines: Vec<&str> = picture.lines().filter(|l| l.contains("class=\"caption reason\"")).collect();
    assert!(lines.len() >= 3, "{lines:#?}");
    // Each line ends within the picture, as far as the widest glyphs can take it.
    for line in &lines {
        let text = line.split('>').nth(1).and_then(|t| t.split('<').next()).expect("text");
        assert!(text.chars().count() < 60, "{text}");
    }
    let words: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.split('>').nth(1).and_then(|t| t.split('<').next()))
        .flat_map(|t| t.split(' '))
        .collect();
    assert_eq!(words.join(" "), format!("Illegal: {reason}").split_whitespace().collect::<Vec<_>>().join(" "));
    insta::assert_snapshot!("petrify-long-reason", picture);
}

#[test]
fn a_picture_is_the_same_every_time() {
    for (name, scene) in scenes() {
        for style in StyleName::ALL {
            let a = svg(&scene, &options(style));
            let b = svg(&scene.clone(), &options(style));
            assert_eq!(a, b, "{name} in {style}");
        }
    }
}

#[test]
fn text_is_escaped_and_the_picture_has_its_frame() {
    let (_, mut scene) = scene_at(&Phages::quadraphages(), &[], 0, phages_to_move);
    scene.score = "X <3> & O \"2\"".to_string();
    let picture = svg(&scene, &SvgOptions::default());
    assert!(picture.contains("X &lt;3&gt; &amp; O &quot;2&quot;"));
    assert!(!picture.contains("<3>"));
    assert!(picture.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"480\" height=\""));
    assert!(picture.contains("viewBox=\"0 0 480 "));
    assert!(picture.contains("<title>Quadraphages · ply 0 · X to move"));
    assert!(picture.contains("font-family=\"DejaVu Sans"));
    assert_eq!(picture.matches("class=\"cell\"").count(), 81);
    assert_eq!(picture.matches("class=\"coord col\"").count(), 18);
    assert_eq!(picture.matches("class=\"coord row\"").count(), 18);
    let bare = svg(&scene, &SvgOptions { coordinates: false, caption: false, ..SvgOptions::default() });
    assert!(!bare.contains("class=\"coord"));
    assert!(!bare.contains("class=\"caption"));
}

/// A figure no engine has, as a new game would bring it: its shape and name are all the renderer
/// needs, and the name is its class.
#[test]
fn a_new_figure_is_drawn_from_its_shape_and_name() {
    let (_, mut scene) = scene_at(&Phages::quadraphages(), &[], 0, phages_to_move);
    let g = scene.board.geometry;
    let mut cells = g.cells();
    let (a, b) = (cells.next().expect("a cell"), cells.next().expect("another cell"));
    const TRIANGLE: &[(i8, i8)] = &[(0, -40), (35, 20), (-35, 20)];
    scene.board.figures = vec![
        (a, Figure { owner: Some(1), shape: Shape::Polygon(TRIANGLE), name: "piece pyramid" }),
        (b, Figure { owner: None, shape: Shape::Circle(25), name: "hole" }),
    ];
    let picture = svg(&scene, &SvgOptions::default());
    let line = |class: &str| {
        picture.lines().find(|l| l.contains(&format!("class=\"figure {class}\""))).unwrap_or_default().to_string()
    };
    let pyramid = line("piece pyramid owner-1");
    assert!(pyramid.contains(&format!("data-cell=\"{}\"", g.label(a))), "{pyramid}");
    let points = pyramid.split("points=\"").nth(1).and_then(|t| t.split('"').next()).expect("a polygon");
    let points: Vec<(f64, f64)> = points
        .split(' ')
        .map(|p| p.split_once(',').map(|(x, y)| (x.parse().expect("x"), y.parse().expect("y"))).expect("x,y"))
        .collect();
    // The points scale with the cell: the apex twice as far above as the base is below.
    assert_eq!(points.len(), 3, "{pyramid}");
    assert_eq!(points[0].0, 0.0);
    assert!((points[0].1 + 2.0 * points[1].1).abs() < 0.02, "{points:?}");
    assert!(pyramid.contains("stroke-linejoin=\"round\""), "{pyramid}");
    let hole = line("hole");
    assert!(hole.contains("<circle r=\""), "{hole}");
    assert_eq!(drawn(&picture), BTreeMap::from([(None, 1), (Some(1), 1)]));
}

/// Figures drawn per owner (`None` for nobody's), read from the classes of the SVG.
fn drawn(picture: &str) -> BTreeMap<Option<u8>, usize> {
    let mut counts = BTreeMap::new();
    for tail in picture.split("class=\"figure ").skip(1) {
        let classes = tail.split('"').next().unwrap_or_default();
        let owner =
            classes.split(' ').find_map(|c| c.strip_prefix("owner-")).map(|n| n.parse::<u8>().expect("owner number"));
        *counts.entry(owner).or_insert(0) += 1;
    }
    counts
}

fn modelled(board: &Board) -> BTreeMap<Option<u8>, usize> {
    let mut counts = BTreeMap::new();
    for (_, figure) in &board.figures {
        *counts.entry(figure.owner).or_insert(0) += 1;
    }
    counts
}

/// Every ply of a random game: the picture draws each figure of the model once, for its owner.
fn count_every_ply<G: Game>(start: &G, seed: u64, max: usize, to_move: fn(&G) -> usize) -> usize {
    let moves = random_game(start, seed, max);
    let mut pos = start.clone();
    let opts = SvgOptions { coordinates: false, caption: false, ..SvgOptions::default() };
    // The last move's signs go over the board too: none of them may count as a figure.
    let mut signs = Vec::new();
    for ply in 0..=moves.len() {
        let scene = Scene {
            game: pos.about(),
            board: Board::of(&pos),
            signs: std::mem::take(&mut signs),
            ply,
            to_move: (!pos.is_over()).then(|| to_move(&pos)),
            score: String::new(),
            provisional: false,
            scoring: Vec::new(),
            illegal: None,
            syntax: false,
            markup: Vec::new(),
            glyphs: String::new(),
            numbers: None,
        };
        let picture = svg(&scene, &opts);
        assert_eq!(drawn(&picture), modelled(&scene.board), "{} at ply {ply}", pos.about().title);
        if let Some(&m) = moves.get(ply) {
            signs = pos.signs(m).into_iter().map(|s| (s, Tone::Last)).collect();
            pos.play_unchecked(m);
        }
    }
    moves.len()
}

#[test]
fn every_figure_is_drawn_once_for_its_owner() {
    let plies = [
        count_every_ply(&Phages::quadraphages(), 11, 400, phages_to_move),
        count_every_ply(&Phages::hexaphages(4).expect("side 4"), 12, 400, phages_to_move),
        count_every_ply(&common::<Quarod>(None), 13, 400, <Quarod as Playable>::to_move),
        count_every_ply(&common::<Petrify>(None), 14, 400, <Petrify as Playable>::to_move),
        count_every_ply(&common::<Vadrantir>(None), 15, 400, <Vadrantir as Playable>::to_move),
        count_every_ply(&common::<Splinter>(Some(4)), 16, 400, <Splinter as Playable>::to_move),
    ];
    // Each game got somewhere, so figures were counted in many positions.
    assert!(plies.iter().all(|&n| n >= 10), "{plies:?}");
}

/// The centre of the figure on `cell`, from its `translate` in the SVG.
fn figure_centre(picture: &str, cell: &str) -> (f64, f64) {
    let tail = picture
        .split("class=\"figure ")
        .find(|t| t.contains(&format!("data-cell=\"{cell}\"")) && t.find("data-cell") < t.find('>'))
        .expect("a figure on the cell");
    let inner = tail.split("translate(").nth(1).and_then(|t| t.split(')').next()).expect("translate");
    let mut xy = inner.split(' ').map(|n| n.parse::<f64>().expect("number"));
    (xy.next().expect("x"), xy.next().expect("y"))
}

fn pixel(png_bytes: &[u8], (x, y): (f64, f64)) -> (u32, Rgb) {
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(png_bytes).expect("a PNG");
    let p = pixmap.pixel(x as u32, y as u32).expect("inside").demultiply();
    (pixmap.width(), Rgb(p.red(), p.green(), p.blue()))
}

fn close(a: Rgb, b: Rgb) -> bool {
    let d = |x: u8, y: u8| (x as i32 - y as i32).abs();
    d(a.0, b.0) <= 3 && d(a.1, b.1) <= 3 && d(a.2, b.2) <= 3
}

#[test]
fn a_png_has_the_width_asked_and_stones_in_their_colours() {
    let (_, scene) = scene_at(&Phages::quadraphages(), &[], 0, phages_to_move);
    for (style, width) in [(StyleName::Light, 480), (StyleName::Dark, 300), (StyleName::Print, 333)] {
        let picture = svg(&scene, &SvgOptions { width, style, ..SvgOptions::default() });
        let bytes = png::png(&picture).expect("rasterised");
        let palette = Style::of(style).palette(&scene.board.players);
        // X on a7 and O on c1 at the start.
        for (cell, owner) in [("a7", 0), ("c1", 1), ("i3", 0), ("g9", 1)] {
            let (w, colour) = pixel(&bytes, figure_centre(&picture, cell));
            assert_eq!(w, width);
            assert!(close(colour, palette[owner].fill), "{style} {cell}: {colour:?} is not {:?}", palette[owner].fill);
        }
        let (w, h, rgba) = png::rgba(&picture).expect("rasterised");
        assert_eq!((w as usize) * (h as usize) * 4, rgba.len());
        assert_eq!(w, width);
        // Opaque everywhere: the picture paints its own background.
        assert!(rgba.chunks(4).all(|p| p[3] == 255));
    }
}

#[test]
fn splinter_pieces_are_in_their_players_colours() {
    let (_, scene) = scene_at(&common::<Splinter>(Some(4)), &[], 0, <Splinter as Playable>::to_move);
    let picture = svg(&scene, &SvgOptions::default());
    let bytes = png::png(&picture).expect("rasterised");
    let palette = Style::of(StyleName::Light).palette(&scene.board.players);
    // Rooks fill their square: its centre is the player's colour.
    let g = scene.board.geometry;
    let mut seen = [false; 4];
    for (cell, figure) in &scene.board.figures {
        if let (Some(owner), "piece rook") = (figure.owner, figure.name) {
            let label = g.label(*cell).to_string();
            let (_, colour) = pixel(&bytes, figure_centre(&picture, &label));
            assert!(close(colour, palette[owner as usize].fill), "{label}: {colour:?}");
            seen[owner as usize] = true;
        }
    }
    assert_eq!(seen, [true; 4]);
}

#[test]
#[ignore = "writes PNGs to look at"]
fn write_pictures() {
    let dir = std::env::var("REFEREE_PICTURES").unwrap_or_else(|_| "/tmp/pictures".to_string());
    let width = std::env::var("REFEREE_PICTURES_WIDTH").ok().and_then(|w| w.parse().ok()).unwrap_or(480);
    let only = std::env::var("REFEREE_PICTURES_ONLY").unwrap_or_default();
    std::fs::create_dir_all(&dir).expect("a folder");
    let mut all = scenes();
    all.push(("petrify-long-reason".to_string(), long_reason_scene()));
    all.extend(score_scenes());
    for (name, scene) in all.into_iter().filter(|(name, _)| name.contains(&only)) {
        for style in StyleName::ALL {
            let bytes = png::png(&svg(&scene, &SvgOptions { width, ..options(style) })).expect("rasterised");
            std::fs::write(format!("{dir}/{name}-{style}.png"), bytes).expect("written");
        }
    }
}

/// The pictures the README shows, regenerated by hand after a change of look.
#[test]
#[ignore = "writes the README's pictures into docs/pictures"]
fn write_docs_pictures() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/pictures");
    std::fs::create_dir_all(dir).expect("a folder");
    let scenes: BTreeMap<String, Scene> = scenes().into_iter().collect();
    let score: BTreeMap<String, Scene> = score_scenes().into_iter().collect();
    // The error diagrams are those of real records: the blog's game, and broken samples.
    let error_of = |path: &str| {
        let src = std::fs::read_to_string(format!("{}/samples/{path}", env!("CARGO_MANIFEST_DIR"))).expect("a sample");
        let p = referee::picture::pictures(&src, 1, referee::verify::VerifyOptions::default()).expect("replays");
        p.error.expect("the sample has an illegal move").0
    };
    // Numbered diagrams (`show --numbers`) of real records.
    let numbered_of = |path: &str, from: Option<u32>, to: Option<u32>| {
        let src = std::fs::read_to_string(format!("{}/samples/{path}", env!("CARGO_MANIFEST_DIR"))).expect("a sample");
        let p = referee::picture::pictures(&src, 1, referee::verify::VerifyOptions::default()).expect("replays");
        p.numbered(referee::picture::numbers::NumberRange { from, to }).expect("numbers moves")
    };
    let chosen = [
        (error_of("quadraphages/blog-game-sample.txt"), "quadraphages-error", StyleName::Light),
        (scenes["hexaphages-middle"].clone(), "hexaphages-middle", StyleName::Light),
        (scenes["quarod-middle"].clone(), "quarod-middle", StyleName::Light),
        (error_of("petrify/broken/illegal-capture-not-straight.txt"), "petrify-error", StyleName::Light),
        (scenes["vadrantir-middle"].clone(), "vadrantir-middle", StyleName::Light),
        (score["petrify-end"].clone(), "petrify-end", StyleName::Light),
        (score["splinter2-pushed-off"].clone(), "splinter-pushed-off", StyleName::Light),
        (scenes["splinter4-middle"].clone(), "splinter-middle", StyleName::Light),
        (error_of("splinter/broken/illegal-not-a-one-square-step.txt"), "splinter-error-print", StyleName::Print),
        (scenes["quarod-middle"].clone(), "quarod-middle-dark", StyleName::Dark),
        (numbered_of("quadraphages/designers-game-1.txt", None, None), "quadraphages-numbered", StyleName::Light),
        (numbered_of("splinter/random-2-players.txt", Some(2), Some(6)), "splinter-trails-print", StyleName::Print),
    ];
    for (scene, file, style) in chosen {
        let picture = svg(&scene, &SvgOptions { width: 420, ..options(style) });
        let bytes = png::png(&picture).expect("rasterised");
        // READMEs load every picture they show: each stays small.
        assert!(bytes.len() < 60_000, "{file}: {} bytes", bytes.len());
        std::fs::write(format!("{dir}/{file}.png"), bytes).expect("written");
    }
}

/// The last position of a random game played to its end from `start`.
fn end_of<G: Game>(start: &G, seed: u64, to_move: fn(&G) -> usize) -> (G, Scene) {
    let moves = random_game(start, seed, 100_000);
    let (pos, scene) = scene_at(start, &moves, moves.len(), to_move);
    assert!(pos.is_over(), "the game of seed {seed} ends");
    (pos, scene)
}

/// The pictures that explain a score: the ends of three games, and a piece pushed off the board.
fn score_scenes() -> Vec<(String, Scene)> {
    vec![
        ("vadrantir-end".to_string(), end_of(&Vadrantir::new(5).unwrap(), 3, <Vadrantir as Playable>::to_move).1),
        ("petrify-end".to_string(), end_of(&Petrify::new(6).unwrap(), 1, <Petrify as Playable>::to_move).1),
        ("quarod-end".to_string(), end_of(&Quarod::new(4).unwrap(), 2, <Quarod as Playable>::to_move).1),
        ("splinter2-pushed-off".to_string(), pushed_off_scene()),
    ]
}

/// The cells of each player's regions, counted.
fn region_cells(scene: &Scene) -> [usize; 2] {
    let mut cells = [0, 0];
    for r in &scene.scoring {
        cells[r.owner as usize] += r.cells.len();
    }
    cells
}

#[test]
fn the_end_of_a_territory_game_shades_what_scored() {
    // Vadrantir's territories and Petrify's patches hold exactly the cells each colour scores.
    let (vadrantir, scene) = end_of(&Vadrantir::new(5).unwrap(), 3, <Vadrantir as Playable>::to_move);
    let score = vadrantir.score();
    assert_eq!(region_cells(&scene), score.territory.map(usize::from));
    assert!(scene.scoring.iter().all(|r| r.mark == Mark::Shade && r.name == "territory"));
    assert!(!scene.scoring.is_empty(), "the game of seed 3 has territories");
    let picture = svg(&scene, &SvgOptions::default());
    assert_eq!(picture.matches("<g class=\"region territory shade owner-").count(), scene.scoring.len());
    assert!(!picture.contains("if the game ended now"), "the end's score is the score");
    insta::assert_snapshot!("vadrantir-end", picture);
    insta::assert_snapshot!("vadrantir-end-print", svg(&scene, &options(StyleName::Print)));

    let (petrify, scene) = end_of(&Petrify::new(6).unwrap(), 1, <Petrify as Playable>::to_move);
    assert_eq!(region_cells(&scene), petrify.score().points.map(usize::from));
    assert!(scene.scoring.iter().all(|r| r.mark == Mark::Shade && r.name == "patch"));
    assert!(!scene.scoring.is_empty(), "the game of seed 1 has an owned patch");
    insta::assert_snapshot!("petrify-end", svg(&scene, &SvgOptions::default()));
}

#[test]
fn the_end_of_quarod_outlines_the_groups_it_counted() {
    let (quarod, scene) = end_of(&Quarod::new(4).unwrap(), 2, <Quarod as Playable>::to_move);
    let score = quarod.score();
    assert!(score.points.iter().any(|&p| p > 0), "the game of seed 2 scores: {score}");
    // Every group of a scoring size, of either colour, and nothing else.
    let counts = quarod.group_counts();
    let sizes: Vec<usize> = score.points.iter().filter(|&&p| p > 0).map(|&p| p as usize).collect();
    let expected: usize = sizes.iter().map(|&s| usize::from(counts[s][0] + counts[s][1])).sum();
    assert_eq!(scene.scoring.len(), expected);
    for r in &scene.scoring {
        assert!(r.mark == Mark::Outline && r.name == "group" && sizes.contains(&r.cells.len()), "{r:?}");
    }
    insta::assert_snapshot!("quarod-end", svg(&scene, &SvgOptions::default()));
}

#[test]
fn before_the_end_nothing_is_shaded_and_the_caption_says_if() {
    let start = Vadrantir::new(5).unwrap();
    let moves = random_game(&start, 3, 20);
    let (_, scene) = scene_at(&start, &moves, 20, <Vadrantir as Playable>::to_move);
    assert!(scene.scoring.is_empty() && scene.provisional);
    assert!(scene.caption()[0].ends_with(" if the game ended now"), "{:?}", scene.caption());
    assert!(!svg(&scene, &SvgOptions::default()).contains("class=\"region"));
    // A score of what has happened is no guess: Splinter Quad's pieces and knockouts.
    let (_, scene) = scene_at(&common::<Splinter>(Some(2)), &[], 0, <Splinter as Playable>::to_move);
    assert!(!scene.provisional && !scene.caption()[0].contains("if the game ended now"));
}

/// The first move of a random two-player Splinter Quad game on a 6x6 board (its block of pieces
/// as wide as the board) that pushes a piece off the board, drawn after it.
fn pushed_off_scene() -> Scene {
    let start = Splinter::start(Some(6), Some(2)).expect("the default block fits a 6x6 board");
    let moves = random_game(&start, 1, 400);
    let mut pos = start.clone();
    for (k, &m) in moves.iter().enumerate() {
        if pos.signs(m).iter().any(|s| matches!(s, Sign::Leaving { .. })) {
            return scene_at(&start, &moves, k + 1, <Splinter as Playable>::to_move).1;
        }
        pos.play_unchecked(m);
    }
    panic!("no move of the game of seed 1 pushes a piece off");
}

#[test]
fn a_piece_pushed_off_is_drawn_leaving_the_board() {
    let scene = pushed_off_scene();
    let leaving: Vec<Sign> =
        scene.signs.iter().map(|&(s, _)| s).filter(|s| matches!(s, Sign::Leaving { .. })).collect();
    assert_eq!(leaving.len(), 1, "{:?}", scene.signs);
    let picture = svg(&scene, &SvgOptions::default());
    assert_eq!(picture.matches("<g class=\"sign last leaving\"").count(), 1);
    // The piece that left is not counted among the board's figures.
    assert_eq!(drawn(&picture), modelled(&scene.board));
    insta::assert_snapshot!("splinter2-pushed-off", picture);
    // Without the coordinates' bands, the space around the board still holds it, in every picture
    // of the game: the start is as large as the picture of the piece leaving.
    let bare = SvgOptions { coordinates: false, caption: false, ..SvgOptions::default() };
    let (_, start) = scene_at(&Splinter::start(Some(6), Some(2)).unwrap(), &[], 0, <Splinter as Playable>::to_move);
    assert_eq!(size_of(&svg(&start, &bare)), size_of(&svg(&scene, &bare)));
    for coordinates in [true, false] {
        let picture = svg(&scene, &SvgOptions { coordinates, caption: false, ..SvgOptions::default() });
        let (width, height) = size_of(&picture);
        let gone = picture.split("<g class=\"gone ").nth(1).expect("the piece leaving");
        let at = gone.split("translate(").nth(1).and_then(|t| t.split(')').next()).expect("placed");
        let (x, y) = at.split_once(' ').map(|(x, y)| (x.parse::<f64>().unwrap(), y.parse::<f64>().unwrap())).unwrap();
        // The largest figure reaches 0.42 of a cell from its centre, drawn at 0.8 of its size.
        let reach = 0.42 * 0.8 * board_step(&picture);
        assert!(
            x - reach > 0.0 && x + reach < width && y - reach > 0.0 && y + reach < height,
            "{x} {y} in {width}x{height}"
        );
    }
}

/// A picture's width and height, from its root element.
fn size_of(picture: &str) -> (f64, f64) {
    let number = |name: &str| {
        picture.split(&format!(" {name}=\"")).nth(1).and_then(|t| t.split('"').next()).unwrap().parse().unwrap()
    };
    (number("width"), number("height"))
}

/// The distance between neighbouring cell centres: the width of a square cell.
fn board_step(picture: &str) -> f64 {
    let cell = picture.split("<rect class=\"cell\"").nth(1).expect("a square cell");
    cell.split("width=\"").nth(1).and_then(|t| t.split('"').next()).unwrap().parse().unwrap()
}

/// Markup written in comments (`[%arrow ...]`, `[%mark ...]`, `[%label ...]`) is drawn on the
/// position after the move the comment follows, on square and hexagonal boards alike, with the
/// move's glyph in the caption.
#[test]
fn markup_in_comments_is_drawn_on_square_and_hex_boards() {
    let records = [
        (
            "markup-square",
            "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. d1d2!? {[%arrow a1d4 red] [%mark b2] [%label c3 \"A\"]} a2a3 *\n",
        ),
        (
            "markup-hex",
            "[Game \"Vadrantir\"]\n[Size \"5\"]\n\n1. b6 d4 2. l4?! {[%arrow d4l4 blue] [%mark g5 yellow] [%label i5 \"12\"]} *\n",
        ),
    ];
    for (name, text) in records {
        let pictures = referee::picture::pictures(text, 1, Default::default()).expect("the record replays");
        let ply = if name == "markup-square" { 1 } else { 3 };
        let scene = pictures.scene(Some(ply));
        assert_eq!(scene.markup.len(), 3, "{name}");
        let picture = svg(scene, &SvgOptions::default());
        for class in ["markup arrow", "markup mark", "markup label"] {
            assert!(picture.contains(class), "{name}: {class}");
        }
        assert!(scene.caption()[0].contains(&format!("ply {ply} {}", if ply == 1 { "!?" } else { "?!" })));
        // Only the position after the commented move carries its markup.
        assert!(pictures.scene(Some(ply - 1)).markup.is_empty(), "{name}");
        insta::assert_snapshot!(name, picture);
    }
}

/// Print has no colours: the four markup colours stay apart by how they are drawn, arrows and
/// cells alike (red filled black, green hollow, blue filled grey, yellow dashed), as the players'
/// figures do by fill.
#[test]
fn print_tells_the_markup_colours_apart_without_colour() {
    let text = "[Game \"Quarod\"]\n[Size \"6\"]\n\n1. d1d2 {[%arrow a1a4 red] [%arrow b1b4 green] [%arrow c1c4 blue] \
                [%arrow e1e4 yellow] [%mark a6 red] [%mark b6 green] [%mark c6 blue] [%mark e6 yellow]} *\n";
    let pictures = referee::picture::pictures(text, 1, Default::default()).expect("the record replays");
    let scene = pictures.scene(Some(1));
    let picture = svg(scene, &options(StyleName::Print));
    let drawn = |what: &str, colour: &str| {
        let class = format!("class=\"markup {what} {colour}\"");
        let at = picture.find(&class).unwrap_or_else(|| panic!("{what} {colour}"));
        picture[at..].split_once('\n').map_or("", |(line, _)| line).to_string()
    };
    for what in ["arrow", "mark"] {
        let [red, green, blue, yellow] = ["red", "green", "blue", "yellow"].map(|c| drawn(what, c));
        // Four different drawings, none of them in colour.
        let all = [&red, &green, &blue, &yellow];
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(strip_points(a), strip_points(b), "{what}: two colours drawn alike");
            }
            for colour in ["#d7261e", "#1e8c3c", "#1f5fd0", "#e8b400"] {
                assert!(!a.contains(colour), "{what}: a colour in print: {a}");
            }
        }
        assert!(yellow.contains("stroke-dasharray"), "{what}: yellow dashed: {yellow}");
        assert!(green.contains("stroke=\"#000000\"") && !green.contains("stroke-dasharray"), "{what}: green hollow");
        assert!(blue.contains("#808080"), "{what}: blue grey: {blue}");
    }
    insta::assert_snapshot!("markup-print", picture);
}

/// A drawing's element without its coordinates: what it looks like, wherever it stands.
fn strip_points(element: &str) -> String {
    let mut out = element.to_string();
    while let Some(at) = out.find("points=\"") {
        let end = out[at + 8..].find('"').map_or(out.len(), |e| at + 9 + e);
        out.replace_range(at..end, "");
    }
    out
}

/// In the published notation a note goes with the move before it, the `....` of the first turn
/// being no move: the markup after the first stone move (ply 2, after the announced number) is
/// drawn there.
#[test]
fn markup_of_a_published_record_is_drawn_after_its_move() {
    let text = "QUADRAPHAGES\n_xx_ _oo_\n1. .... .... 1 a7a8!? {[%arrow a8a5 red] [%mark i3 blue]} i3i2 c1c2 g9g8 3 c2f2 g8d8\n";
    let pictures = referee::picture::pictures(text, 1, Default::default()).expect("the record replays");
    assert_eq!(pictures.scene(Some(2)).markup.len(), 2);
    assert_eq!(pictures.scene(Some(2)).glyphs, "!?");
    assert!(pictures.scene(Some(1)).markup.is_empty() && pictures.scene(Some(3)).markup.is_empty());
}
