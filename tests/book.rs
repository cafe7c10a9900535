//! PDF booklets (`referee book`, `referee::book`): a booklet of samples/ read back with poppler's
//! `pdftotext` (every record's tags, moves and verdict are in it), checked with `qpdf --check`, its
//! pages drawn with `pdftoppm` and snapshot-tested as text layouts and ink maps; what a booklet
//! holds checked against the replay; and the command line's errors.
//!
//! poppler-utils and qpdf are installed by `.ci/run`; elsewhere, without them, the tests that need
//! them say so and pass.

mod support;

use std::path::Path;
use std::process::Command;

use referee::book::{entries, Plan, Written};
use referee::picture::pictures;
use referee::verify::VerifyOptions;
use support::{arg, json_lines, referee_process, run};

const DESIGNERS_1: &str = "samples/quadraphages/designers-game-1.txt";
const LESSON: &str = "samples/quarod/annotated-lesson.txt";

/// Whether `tool` can be run; in CI it must be.
fn have(tool: &str) -> bool {
    let found = Command::new(tool).arg("-v").output().is_ok();
    if !found {
        assert!(std::env::var_os("CI").is_none(), "{tool} is missing: .ci/run installs poppler-utils and qpdf");
        eprintln!("note: {tool} is not installed: skipped (CI installs it)");
    }
    found
}

fn tool(name: &str, args: &[&str]) -> String {
    let out = Command::new(name).args(args).output().unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(out.status.success(), "{name} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Text without its blanks and line breaks.
fn compact(text: &str) -> String {
    text.split_whitespace().collect()
}

/// Text with its blanks and line breaks run together, as a search in a PDF reader finds it.
fn squeezed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn a_booklet_of_the_samples_holds_every_record_its_tags_moves_and_verdict() {
    if !(have("pdftotext") && have("qpdf")) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("samples.pdf");
    let (code, _, err) = run(&["book", "samples", "-o", arg(&pdf)]);
    assert_eq!(code, 0, "{err}");
    let (_, verified, _) = run(&["verify", "--format", "json", "samples"]);
    let verdicts = json_lines(&verified);
    assert!(err.contains(&format!("{} records", verdicts.len())), "{err}");
    let check = tool("qpdf", &["--check", arg(&pdf)]);
    assert!(check.contains("No syntax or stream encoding errors found"), "{check}");
    // Without blanks: a word too wide for its line (a long file name in a heading) is cut.
    let text = compact(&tool("pdftotext", &[arg(&pdf), "-"]));
    let mut moves_checked = 0;
    for v in &verdicts {
        let file = v["file"].as_str().unwrap();
        let index = v["index"].as_u64().unwrap() as usize;
        let status = v["status"].as_str().unwrap().replace('_', " ");
        let game = v["game"].as_str().unwrap_or("unknown game");
        let title = compact(&format!("{file}, record {index}: {game}"));
        // The contents give the title first; the record's page last.
        let at = text.rfind(&title).unwrap_or_else(|| panic!("no heading {title}"));
        // The record's page runs to the next record's heading.
        let page = &text[at..];
        let end = page[title.len()..].find(",record").map_or(page.len(), |e| e + title.len());
        let page = &page[..end.min(page.len())];
        assert!(text.contains(&compact(&format!("{title} · {status}"))), "the contents list {title} as {status}");
        assert!(page.contains(&compact(&format!("Verdict: {status}"))), "{title}: no verdict");
        let src = read(file);
        let found = referee::record::read(&src, None).nth(index - 1).expect("the record");
        for (name, value) in found.tags(&src) {
            assert!(page.contains(&compact(&format!("{name}: {value}"))), "{title}: tag {name} {value} missing");
        }
        if let Ok(p) = pictures(&src, index, VerifyOptions::default()) {
            // Every move played, as written, in order.
            // pdftotext joins a line ending in `-` to the next as a hyphenated word: a `----`
            // (a stone that stays) at a line's end loses a dash. Dashes are left out of both.
            let page = page.replace('-', "");
            let mut from = 0;
            for span in &p.moves {
                let token = compact(&src[span.clone()]).replace('-', "");
                let found = page[from..].find(&token).unwrap_or_else(|| panic!("{title}: move {token} missing"));
                from += found + token.len();
                moves_checked += 1;
            }
        }
    }
    assert!(moves_checked > 2_000, "{moves_checked} moves checked");
    let info = tool("pdfinfo", &[arg(&pdf)]);
    assert!(info.contains("(A4)"), "{info}");
    let fonts = tool("pdffonts", &[arg(&pdf)]);
    for font in ["DejaVuSans ", "DejaVuSansMono "] {
        let line = fonts.lines().find(|l| l.contains(font)).unwrap_or_else(|| panic!("{font} not used: {fonts}"));
        assert!(line.contains("yes yes yes"), "{font} embedded, subset, with its Unicode map: {line}");
    }
}

/// A page's ink drawn coarsely: a character per 4x4 mm, `#` where it is mostly dark, `+` where
/// some ink falls, ` ` where blank. Where the board, the numbers and the text blocks stand shows;
/// anti-aliasing's differences do not.
fn ink_map(pgm: &[u8]) -> String {
    // A binary PGM: "P5\n<w> <h>\n255\n" then the pixels.
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while pgm[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        while !pgm[at].is_ascii_whitespace() {
            at += 1;
        }
        fields.push(String::from_utf8_lossy(&pgm[start..at]).to_string());
    }
    let (w, h): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    let pixels = &pgm[at + 1..];
    // 25 dpi: a pixel is about 1 mm; a cell is 4x4 pixels.
    let mut out = String::new();
    for cy in 0..h / 4 {
        for cx in 0..w / 4 {
            let dark = (0..16).filter(|k| pixels[(cy * 4 + k / 4) * w + cx * 4 + k % 4] < 160).count();
            out.push(match dark {
                0 => ' ',
                1..=7 => '+',
                _ => '#',
            });
        }
        out.push('\n');
    }
    out
}

#[test]
fn a_record_s_pages_look_as_they_did() {
    if !(have("pdftotext") && have("pdftoppm")) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("designers.pdf");
    let (code, _, err) = run(&["book", DESIGNERS_1, "-o", arg(&pdf), "--every", "3"]);
    assert_eq!(code, 0, "{err}");
    let layout = tool("pdftotext", &["-layout", arg(&pdf), "-"]);
    insta::assert_snapshot!("designers_game_1_text", layout);
    let prefix = dir.path().join("page");
    tool("pdftoppm", &["-gray", "-r", "25", "-f", "1", "-l", "1", arg(&pdf), arg(&prefix)]);
    let page = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "pgm"))
        .expect("a page drawn");
    insta::assert_snapshot!("designers_game_1_page_1", ink_map(&std::fs::read(page).unwrap()));
}

#[test]
fn each_diagram_numbers_the_moves_beside_it_and_the_moves_are_all_there_in_order() {
    let src = read(DESIGNERS_1);
    let p = pictures(&src, 1, VerifyOptions::default()).unwrap();
    let book = entries(DESIGNERS_1, &src, VerifyOptions::default(), &Plan { every: 2, at: vec![] }).collect::<Vec<_>>();
    assert_eq!(book.len(), 1);
    let entry = &book[0];
    assert_eq!(entry.status, "illegal");
    // Move numbers 1 to 6 played before the illegal move: a diagram after 2, 4 and 6.
    assert_eq!(p.turns.last(), Some(&6));
    assert_eq!(entry.sections.len(), 3);
    let mut played = Vec::new();
    for (k, section) in entry.sections.iter().enumerate() {
        let numbers: Vec<u32> = section
            .moves
            .iter()
            .filter_map(|w| match w {
                Written::Number(n) => Some(*n),
                _ => None,
            })
            .collect();
        let first = 2 * k as u32 + 1;
        assert_eq!(numbers, [first, first + 1], "section {k}");
        let drawn = section.scene.numbers.as_ref().expect("numbered");
        assert_eq!((drawn.first, drawn.last), (first, first + 1), "section {k}: the diagram numbers its moves");
        played.extend(section.moves.iter().filter_map(|w| match w {
            Written::Move(m) => Some(m.clone()),
            _ => None,
        }));
    }
    let written: Vec<String> = p.moves.iter().map(|s| squeezed(&src[s.clone()])).collect();
    assert_eq!(played, written);
    // The board before the illegal move, and the report that names it.
    let (scene, _) = entry.error.as_ref().expect("an error diagram");
    assert!(scene.illegal.as_deref().is_some_and(|why| why.contains("blocked")), "{:?}", scene.illegal);
    assert!(entry.report.iter().any(|l| l.contains("illegal move: the path is blocked")), "{:?}", entry.report);
    // --every 0: one diagram of the whole game.
    let whole: Vec<_> = entries(DESIGNERS_1, &src, VerifyOptions::default(), &Plan { every: 0, at: vec![] }).collect();
    assert_eq!(whole[0].sections.len(), 1);
    // --at: one more, after ply 5.
    let at: Vec<_> = entries(DESIGNERS_1, &src, VerifyOptions::default(), &Plan { every: 0, at: vec![5] }).collect();
    assert_eq!(at[0].sections.len(), 2);
    assert_eq!(at[0].sections[0].scene.ply, 5);
}

#[test]
fn comments_glyphs_and_variations_are_all_written_beside_their_moves() {
    let src = read(LESSON);
    let p = pictures(&src, 1, VerifyOptions::default()).unwrap();
    let book: Vec<_> = entries(LESSON, &src, VerifyOptions::default(), &Plan::default()).collect();
    let entry = &book[0];
    let mut said: Vec<String> = entry.opening.clone();
    let mut variations = Vec::new();
    let mut glyphs = 0;
    for section in &entry.sections {
        for w in &section.moves {
            match w {
                Written::Comment(c) => said.push(c.clone()),
                Written::Variation(v) => variations.push(v.clone()),
                Written::Move(m) if m.ends_with(['!', '?']) || m.contains('$') => glyphs += 1,
                _ => {}
            }
        }
    }
    if let Some((_, after)) = &entry.error {
        said.extend(after.iter().cloned());
    }
    let comments: Vec<String> = p.comments.iter().map(|c| c.text.clone()).collect();
    assert!(!comments.is_empty(), "the lesson has comments");
    assert_eq!(said, comments, "every comment, in order");
    let top: Vec<String> =
        p.variations.iter().filter(|b| b.from == 0).map(|b| squeezed(&src[b.span.clone()])).collect();
    assert!(!top.is_empty(), "the lesson has variations");
    assert_eq!(variations, top, "every variation of the main line, as written");
    let written_glyphs = p.scenes.iter().filter(|s| !s.glyphs.is_empty()).count();
    assert_eq!(glyphs, written_glyphs, "every move's glyphs");
    // A comment's markup draws a diagram after its move.
    let marked: Vec<usize> = p.scenes.iter().filter(|s| !s.markup.is_empty()).map(|s| s.ply).collect();
    for ply in marked {
        assert!(entry.sections.iter().any(|s| s.scene.ply == ply), "a diagram after ply {ply}, whose comment draws");
    }
}

#[test]
fn letter_paper_standard_output_and_the_command_line_s_errors() {
    let dir = tempfile::tempdir().unwrap();
    let quarod = "samples/quarod/random-size-4.txt";
    // Standard output, when it is a pipe.
    let out = referee_process().args(["book", quarod, "-o", "-", "--paper", "letter"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.starts_with(b"%PDF-"), "a PDF on standard output");
    if have("pdfinfo") {
        let pdf = dir.path().join("letter.pdf");
        std::fs::write(&pdf, &out.stdout).unwrap();
        let info = tool("pdfinfo", &[arg(&pdf)]);
        assert!(info.contains("612 x 792 pts (letter)"), "{info}");
    }
    // A file that cannot be read is said, and left out; the rest make the booklet: exit code 1.
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, b"[Game \"Quarod\"]\n1. a1\xff\n").unwrap();
    let pdf = dir.path().join("some.pdf");
    let (code, _, err) = run(&["book", quarod, arg(&bad), "-o", arg(&pdf)]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not valid UTF-8") && err.contains("not in the booklet"), "{err}");
    assert!(pdf.exists());
    // No record at all: no booklet, exit code 2, nothing written.
    let prose = dir.path().join("prose.txt");
    std::fs::write(&prose, "Only words here.\n").unwrap();
    let none = dir.path().join("none.pdf");
    let (code, _, err) = run(&["book", arg(&prose), "-o", arg(&none)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("holds no record") && err.contains("no booklet"), "{err}");
    assert!(!none.exists());
    // The output is an input: refused before anything is written.
    let copy = dir.path().join("copy.txt");
    std::fs::copy(quarod, &copy).unwrap();
    let (code, _, err) = run(&["book", arg(&copy), "-o", arg(&copy)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is an input"), "{err}");
    assert_eq!(std::fs::read_to_string(&copy).unwrap(), read(quarod));
    // Widths out of range, in millimetres.
    let (code, _, err) = run(&["book", quarod, "-o", arg(&pdf), "--diagram-width", "5mm"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("30 to 300 mm"), "{err}");
    assert!(Path::new(quarod).exists());
    // More records than a booklet has pages: refused once the records past it are found, before
    // they are drawn, and nothing is written.
    let many = dir.path().join("many.txt");
    let record = read(quarod);
    std::fs::write(&many, format!("{record}\n").repeat(referee::book::pdf::MAX_PAGES + 1)).unwrap();
    let (_, verified, _) = run(&["verify", "--format", "json", arg(&many)]);
    assert!(json_lines(&verified).len() > referee::book::pdf::MAX_PAGES);
    let big = dir.path().join("big.pdf");
    let (code, _, err) = run(&["book", arg(&many), "-o", arg(&big)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("more than 2000 pages"), "{err}");
    assert!(!big.exists());
}
