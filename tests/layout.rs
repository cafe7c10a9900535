//! Layout (what an editor's formatting does, `referee::layout`): only spacing, line breaks and
//! move numbers change. Every word a writer wrote stays, in its place: tags in their order,
//! moves as written, comments byte for byte, glyphs, variations, diagrams, the prose inside a
//! record of the published notation; what a record says is what it said; laying out twice gives
//! the same text.

use std::path::{Path, PathBuf};

use referee::layout::layout;
use referee::record::{self, Found};
use referee::search::Stop;
use referee::verify::{verify_source, VerifyOptions};

/// `text` with every record laid out.
fn laid_out(text: &str) -> String {
    let edits = layout(text, VerifyOptions::default(), &Stop::never()).expect("never stopped");
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (span, new) in edits {
        assert!(at <= span.start, "edits in text order, apart");
        out.push_str(&text[at..span.start]);
        out.push_str(&new);
        at = span.end;
    }
    out.push_str(&text[at..]);
    out
}

/// What the writer of each record of a text wrote, but for spacing, line breaks and move
/// numbers: its tags, its tokens (a claim's words one blank apart), its comments with their
/// places, glyphs, variations and diagrams; of the published notation, its lines but the move
/// lines as they are, and the words of each move line.
fn written(text: &str) -> Vec<String> {
    let words = |t: &str| t.split_ascii_whitespace().collect::<Vec<_>>().join(" ");
    record::read(text, None)
        .map(|found| match found {
            Found::Common(r) => {
                let glyphs = |d: &Option<record::common::TextDiagram>| -> Option<Vec<String>> {
                    d.as_ref().map(|d| d.glyphs().iter().map(|g| g.to_string()).collect())
                };
                let diagrams = [glyphs(&r.setup), glyphs(&r.final_position)];
                let notes = r.notes();
                format!(
                    "tags {:?}\ntokens {:?}\ncomments {:?}\nglyphs {:?}\nvariations {:?}\ndiagrams {diagrams:?}",
                    r.tags.iter().map(|t| (t.name, t.value)).collect::<Vec<_>>(),
                    r.tokens.iter().map(|t| t.text).collect::<Vec<_>>(),
                    notes.comments.iter().map(|c| (c.at, c.text, c.to_line_end)).collect::<Vec<_>>(),
                    notes.glyphs.iter().map(|g| (g.at, g.nag)).collect::<Vec<_>>(),
                    notes
                        .variations
                        .iter()
                        .map(|v| (v.at, v.tokens.iter().map(|t| t.text).collect::<Vec<_>>()))
                        .collect::<Vec<_>>(),
                )
            }
            Found::Published(r) => {
                let moves: Vec<_> = r.lines.iter().map(|l| l.span.start).collect();
                let other_lines: Vec<&str> = record::Lines::new(&text[..r.span.end])
                    .filter(|(at, _)| *at >= r.span.start && !moves.contains(at))
                    .map(|(_, l)| l)
                    .collect();
                let tokens: Vec<Vec<String>> =
                    r.lines.iter().map(|l| r.line_tokens(l).iter().map(|t| words(t.text)).collect()).collect();
                format!("lines {other_lines:?}\ntokens {tokens:?}")
            }
        })
        .collect()
}

/// The text's non-blank characters, move numbers left out (`12.`, `12...`, glued to a move or
/// not, and the bare numbers of the published notation's lines, with its announced numbers): what
/// a layout keeps of every byte.
fn squeezed(text: &str) -> String {
    let spaced = text.replace('(', " ( ").replace(')', " ) ");
    spaced
        .split_whitespace()
        .map(|w| {
            let digits = w.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 && w[digits..].bytes().all(|b| b == b'.') {
                ""
            } else if digits > 0 && w[digits..].starts_with('.') {
                w[digits..].trim_start_matches('.')
            } else {
                w
            }
        })
        .collect()
}

/// What each record's verdict says, but for where.
fn verdicts(text: &str) -> Vec<String> {
    verify_source(text, VerifyOptions::default())
        .iter()
        .map(|v| {
            let problems: Vec<_> = v.problems.iter().map(|p| p.said().into_owned()).collect();
            format!("{:?} {} moves {problems:?}", v.status, v.moves)
        })
        .collect()
}

/// Lays `text` out, checks that it keeps what is written and is laid out already, and gives it.
fn keeps(name: &str, text: &str) -> String {
    let laid = laid_out(text);
    assert_eq!(laid_out(&laid), laid, "{name}: laid out twice");
    assert_eq!(written(&laid), written(text), "{name}: {laid}");
    assert_eq!(squeezed(&laid), squeezed(text), "{name}: {laid}");
    assert_eq!(verdicts(&laid), verdicts(text), "{name}: {laid}");
    laid
}

fn samples(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            samples(&path, out);
        } else if path.extension().is_some_and(|e| e == "txt") {
            out.push(path);
        }
    }
}

#[test]
fn every_sample_laid_out_keeps_every_word_and_what_it_says() {
    let mut files = Vec::new();
    samples(&Path::new(env!("CARGO_MANIFEST_DIR")).join("samples"), &mut files);
    files.sort();
    let mut changed = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.display().to_string();
        if keeps(&name, &text) != text {
            changed.push(name);
        }
    }
    // The designers' records (columns aligned), the generated ones (moves wrapped at 80 columns),
    // the broken records of two players: laid out. Records of three or four players that do not
    // replay, and records already laid out, stay.
    assert!(changed.len() >= 50, "{} of {} files laid out: {changed:?}", changed.len(), files.len());
    for expected in ["designers-game-1.txt", "newsletter-crlf-bom.txt", "old-mac-cr.txt", "quarod/broken"] {
        assert!(changed.iter().any(|c| c.contains(expected)), "{expected} not laid out: {changed:?}");
    }
}

/// A record with comments in every place they may stand, a glyph glued and one alone, `$N`,
/// variations nested with comments inside: its moves one round a line, every note where it was.
#[test]
fn an_annotated_record_keeps_every_comment_glyph_and_variation_in_its_place() {
    let text = "[Game \"Quarod\"]  [Size \"4\"]\n[Black \"Ann\"] [White \"Bo\"]\n\
        {Played at the club.}   ; a line comment before the first move\n\
        1.c1d1 !  d3c3 {Bo thought long here}\n\
        2. b4a4 (2. a3b3 {why not?} (2. a2a1 $14 {inner}) {back}) a3b3?!\n\
        {A comment\nover two lines} 3. b1b2   d4c4 *  {after the result} ; and a last word\n";
    let laid = keeps("annotated Quarod", text);
    assert_eq!(
        laid,
        "[Game \"Quarod\"]\n[Size \"4\"]\n[Black \"Ann\"]\n[White \"Bo\"]\n\n\
         {Played at the club.} ; a line comment before the first move\n\
         1. c1d1! d3c3 {Bo thought long here}\n\
         2. b4a4 (2. a3b3 {why not?} (2. a2a1 $14 {inner}) {back}) 2... a3b3?! {A comment\nover two lines}\n\
         3. b1b2 d4c4 * {after the result} ; and a last word\n"
    );
}

/// Three players: a round is a move of each, a variation and a comment to the line's end number
/// the move after them.
#[test]
fn a_record_of_three_players_is_numbered_by_rounds() {
    let text = "[Game \"Splinter Quad\"] [Size \"13\"] [Players \"3\"]\n{Three players.}\n\
        1. c6c7 f7g8!? (1... f7f8 {quieter} j7i8) j7i8 2. g10f9 ; a long think\n d6e5 i8h8 *\n";
    let laid = keeps("Splinter Quad of three", text);
    assert_eq!(
        laid,
        "[Game \"Splinter Quad\"]\n[Size \"13\"]\n[Players \"3\"]\n\n{Three players.}\n\
         1. c6c7 f7g8!? (1... f7f8 {quieter} j7i8) 1... j7i8\n2. g10f9 ; a long think\n2... d6e5 i8h8 *\n"
    );
    // A variation of three players that does not replay leaves its rounds unknown: left alone.
    let unsure = text.replace("1... f7f8", "1... f6f5");
    assert_eq!(keeps("Splinter Quad of three, a variation broken", &unsure), unsure);
}

/// The published notation: only the move lines are spaced again; the prose, the header and the
/// diagram inside the record's span stay as they are.
#[test]
fn a_published_record_keeps_its_prose_and_has_only_its_move_lines_spaced() {
    let designers = include_str!("../samples/quadraphages/designers-game-1.txt");
    let text = format!("QUADRAPHAGES\nA short friendly game, written down by hand.\n{designers}");
    let laid = keeps("designers' game with prose", &text);
    assert!(laid.starts_with("QUADRAPHAGES\nA short friendly game, written down by hand.\n"), "{laid}");
    assert!(laid.contains("\n1. .... .... 1 c1b1 g9h9 a7b7 i3i2 3 b7b4 i2f2\n"), "{laid}");
    assert!(laid.contains("\n10. ---- ---- 3 f6f3 b6e6 h2h5 ---- 5 h5c5 ----\n"), "{laid}");
    let header = designers.lines().next().unwrap();
    assert!(laid.contains(&format!("\n{header}\n")), "the header as written: {laid}");
    let diagram = &designers[designers.find("\n\n\n").unwrap()..];
    assert!(laid.ends_with(diagram), "the final diagram as written: {laid}");
}

/// What a layout would lose, or change, is never laid out: the record stays as written.
#[test]
fn a_record_whose_layout_would_lose_a_word_stays_as_written() {
    for text in [
        // A malformed tag makes its line give no tag.
        "[Game \"Quarod\"] [Size \"4\"] [Oops]\n\n1. c1d1   d3c3 *\n",
        // Nothing may follow the result on its line.
        "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1   d3c3 * and more\n",
        // An unknown game.
        "[Game \"Chess\"]\n\n1. e4   e5 *\n",
    ] {
        assert_eq!(laid_out(text), text, "{text}");
    }
}

/// A record's layout that would change where the record before it ends is not made: `1 d4`
/// opens a record of the published notation, which ends the tags before it; `1. d4` would be
/// their moves.
#[test]
fn a_layout_that_would_join_two_records_is_not_made() {
    let text = "[Game \"Petrify\"]\n[Size \"6\"]\n\n1 d4  a1 2. e1 a3\n";
    assert_eq!(record::read(text, None).count(), 2);
    assert_eq!(keeps("tags, then a published move line", text), text);
}

/// A record of the common format in a text of CRLF line ends is laid out with them; a comment
/// keeps its own.
#[test]
fn line_ends_are_the_texts() {
    let text = "Before.\r\n\r\n[Game \"Quarod\"] [Size \"4\"]\r\n1. c1d1 {one\r\ntwo}   d3c3 *\r\n\r\nAfter.\r\n";
    let laid = keeps("CRLF", text);
    assert_eq!(
        laid,
        "Before.\r\n\r\n[Game \"Quarod\"]\r\n[Size \"4\"]\r\n\r\n1. c1d1 {one\r\ntwo} d3c3 *\r\n\r\nAfter.\r\n"
    );
}
