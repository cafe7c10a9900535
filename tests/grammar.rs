//! grammar.md against the library: its diagrams of cell names and of the Splinter Quad default
//! starts are drawn here from the geometry and the engine, and its worked examples verify as it
//! says they do. One truth per fact: when the code changes, this test says which text to paste.

use referee::geometry::Geometry;
use referee::verdict::Status;
use referee::verify::{position_diagram, verify_source, VerifyOptions};

fn grammar() -> String {
    std::fs::read_to_string(format!("{}/grammar.md", env!("CARGO_MANIFEST_DIR"))).expect("grammar.md")
}

/// The cells of a board with their names in them, row by row from the top: a square board as a
/// grid, a hex board with each name at its column (two characters a column, so the rows
/// interleave as the cells do).
fn cell_names(g: Geometry) -> String {
    let width = g.cells().map(|c| g.label(c).to_string().len()).max().expect("a board has cells");
    let step = match g {
        Geometry::Square { .. } => width + 1,
        Geometry::Hex { .. } => 2,
    };
    let mut out = String::new();
    for row in 0..g.height() {
        let mut line = String::new();
        for c in g.row_cells(row) {
            let x = g.col(c) as usize * step;
            line.extend(std::iter::repeat_n(' ', x - line.len()));
            line.push_str(&g.label(c).to_string());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// What grammar.md shows: every block, fenced, as it must stand in the file.
fn fenced(block: &str) -> String {
    format!("```text\n{block}```\n")
}

/// Asserts that grammar.md holds every block, and prints the ones it lacks.
fn assert_in_grammar(blocks: &[(String, String)]) {
    let text = grammar();
    let missing: Vec<&(String, String)> = blocks.iter().filter(|(_, b)| !text.contains(&fenced(b))).collect();
    for (what, block) in &missing {
        eprintln!("grammar.md lacks {what}:\n{}", fenced(block));
    }
    assert!(missing.is_empty(), "grammar.md lacks {} diagrams (printed above)", missing.len());
}

#[test]
fn grammar_shows_the_cell_names_of_every_board_as_the_geometry_names_them() {
    let mut blocks = Vec::new();
    for size in [4, 9] {
        blocks.push((format!("the square board of size {size}"), cell_names(Geometry::Square { size })));
    }
    for side in 2..=referee::geometry::MAX_HEX_SIDE {
        blocks.push((format!("the hex board of side {side}"), cell_names(Geometry::Hex { side })));
    }
    assert_in_grammar(&blocks);
}

#[test]
fn grammar_shows_the_splinter_default_starts_as_show_draws_them() {
    let blocks: Vec<(String, String)> = (2..=4)
        .map(|players| {
            let record = format!("[Game \"Splinter Quad\"]\n[Players \"{players}\"]\n\n*\n");
            let (diagram, note) = position_diagram(&record, 1, None, VerifyOptions::default()).expect("a start");
            assert!(note.is_none());
            (format!("the default start for {players} players"), diagram)
        })
        .collect();
    assert_in_grammar(&blocks);
}

/// The worked examples of "Writing a record by hand" say what referee says of them.
#[test]
fn the_worked_examples_verify_as_grammar_says() {
    let text = grammar();
    let valid = [
        "_xx_ _oo_\n1. .... .... 1 a7a8 i3i2 c1c2 g9g8 3 c2f2 g8d8\n2. a8a5 i2i5 3 a5a2 i5i8 f2f5 d8d5 2 f5f7 d5b5\n",
        "_xx_ _oo_\n1. .... .... .... .... .... .... 1 c1c2 g9g8\n2. a7a6 i3i4 3 a6a3 i4i7 c2f2 g8d8 2 f2f4 d8d6\n",
        "[Game \"Splinter Quad\"]\n[Players \"3\"]\n\n1. d8c9 g6f5 2. c8c7 e7d8 3. j6k5 j7k7 *\n",
        "[Game \"Splinter Quad\"]\n[Players \"3\"]\n\n1. d8c9 g6f5 c8c7 2. e7d8 j6k5 j7k7 *\n",
    ];
    for src in valid {
        assert!(text.contains(src), "grammar.md lacks the example:\n{src}");
        let v = &verify_source(src, VerifyOptions::default())[0];
        assert_eq!(v.status, Status::Valid, "{src}: {:?}", v.problems);
    }
    // Both numberings of the three-player game are the same game.
    let last = |src: &str| position_diagram(src, 1, None, VerifyOptions::default()).unwrap().0;
    assert_eq!(last(valid[2]), last(valid[3]));
    let unfilled = "_xx_ _oo_\n1. 1 a7a8 i3i2 c1c2 g9g8 3 c2f2 g8d8\n";
    assert!(text.contains(unfilled), "grammar.md lacks the example:\n{unfilled}");
    let v = &verify_source(unfilled, VerifyOptions::default())[0];
    assert_eq!(v.status, Status::SyntaxError);
    assert!(text.contains(&v.problems[0].message), "grammar.md lacks the message:\n{}", v.problems[0].message);
}

/// The worked example of "Comments, glyphs and variations": a valid record in the canonical layout
/// (its own canonical record), which keeps its comments, glyphs, markup and variations through
/// JSON and back; and the error the section quotes for an illegal move inside a variation.
#[test]
fn the_annotated_example_is_valid_canonical_and_round_trips() {
    let text = grammar();
    let at = text.find("### Comments, glyphs and variations").expect("the section");
    let open = text[at..].find("```text\n").expect("its example") + at + 8;
    let example = &text[open..open + text[open..].find("```").expect("closed")];
    let v = verify_source(example, VerifyOptions::default());
    assert_eq!(v[0].status, Status::Valid, "{:?}", v[0].problems);
    let options = VerifyOptions::default();
    assert_eq!(referee::convert::canonical(example, 1, options).unwrap(), example);
    let json = referee::convert::to_json(&referee::convert::document(example, 1, options).unwrap());
    let back = referee::convert::reread(&referee::convert::read_json(&json).unwrap()[0]).unwrap();
    assert_eq!(referee::convert::canonical_of(&back).unwrap(), example);
    // The error quoted: d1d2 again in a variation where d1 is taken.
    let illegal = example.replace("(2. c1c2 {also playable})", "(2. d1d2 {taken})");
    let v = verify_source(&illegal, options);
    assert_eq!(v[0].status, Status::Illegal);
    assert_eq!(v[0].problems[0].said(), "d1 is not empty (in the variation at 1... a1a2 > 2. d1d2)");
    assert!(text.contains("`d1 is not empty (in the variation at 1... a1a2 > 2. d1d2)`"));
}

/// The published notation's worked example of comments, glyphs and variations (Part I, 6a) is
/// valid, keeps them all through its canonical record and JSON, and the errors the section quotes
/// are what the reader says.
#[test]
fn the_published_annotated_example_is_valid_and_round_trips() {
    let text = grammar();
    let at = text.find("## 6a. Comments, glyphs and variations").expect("the section");
    let open = text[at..].find("```text\n").expect("its example") + at + 8;
    let example = &text[open..open + text[open..].find("```").expect("closed")];
    let options = VerifyOptions::default();
    let v = verify_source(example, options);
    assert_eq!(v[0].status, Status::Valid, "{:?}", v[0].problems);
    let canonical = referee::convert::canonical(example, 1, options).unwrap();
    assert!(canonical.contains("(g9g4 (c1h1 {or the other stone first}))"), "{canonical}");
    let json = referee::convert::to_json(&referee::convert::document(example, 1, options).unwrap());
    let back = referee::convert::reread(&referee::convert::read_json(&json).unwrap()[0]).unwrap();
    assert_eq!(referee::convert::canonical_of(&back).unwrap(), canonical);
    let open_comment = example.replace("{we stopped here}", "{we stopped");
    let v = verify_source(&open_comment, options);
    assert!(v[0].problems[0].message.starts_with("this comment is never closed with `}` on its line"));
    assert!(text.contains("this\n  comment is never closed with } on its line: in the published notation a comment closes on its\n  move line"));
}

/// Part III's example of annotating by hand is valid and in the canonical layout but for its
/// final diagram; a variation move on a taken cell is reported with the variation's name.
#[test]
fn the_rules_of_thumb_for_annotating_hold() {
    let text = grammar();
    let at = text.find("## Comments, variations and markup").expect("the section");
    let open = text[at..].find("```text\n").expect("its example") + at + 8;
    let example = &text[open..open + text[open..].find("```").expect("closed")];
    let options = VerifyOptions::default();
    assert_eq!(verify_source(example, options)[0].status, Status::Valid);
    let canonical = referee::convert::canonical(example, 1, options).unwrap();
    assert!(canonical.starts_with(example.trim_end()), "{canonical}");
    let taken = example.replace("(2. d3", "(2. d4");
    let v = &verify_source(&taken, options)[0];
    assert_eq!(v.problems[0].said(), "d4 is not empty (in the variation at 2. d4)");
}
