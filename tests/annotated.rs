//! Annotated records (grammar.md, "Comments, glyphs and variations" and "Markup"): what a writer
//! adds to the moves is read, every line of play is checked, and everything is kept, in place,
//! through the canonical layout and JSON and back.
//!
//! tests/annotated/ holds fourteen records annotated by hand, of all six games: twelve of the four
//! games of the common format (comments before the first move, after moves and after the result,
//! `;` comments, glyphs glued and alone, markup of every kind, nested variations with comments of
//! their own; written in no canonical layout, with no move numbers at all, lines as they come),
//! and a Quadraphages and a Hexaphages record in their published notation (comments, glyphs,
//! markup and nested variations on their move lines, prose inside the record). In the `-errata`
//! records an illegal move stands inside a variation.

use proptest::prelude::*;
use referee::convert::{self, GameDocument};
use referee::game::Playable;
use referee::games::{petrify::Petrify, quarod::Quarod, splinter::Splinter, vadrantir::Vadrantir};
use referee::random::random_game;
use referee::record::{self, Found};
use referee::verdict::Status;
use referee::verify::{verify_source, VerifyOptions};

fn collection() -> Vec<(String, String)> {
    let dir = format!("{}/tests/annotated", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/annotated")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).expect("a record"))
        })
        .collect()
}

/// What the writer of `text`'s first record added to its moves, each where it stands: each
/// glyph, comment, markup and variation (with its moves) by its line of play and the move it
/// follows, glyphs first (they are written on the move), the others in the order written; and the
/// main line's moves.
fn written(text: &str) -> Vec<String> {
    let (tokens, held) = match record::read(text, None).next() {
        Some(Found::Common(r)) => (r.tokens, r.annotations),
        Some(Found::Published(r)) => (r.tokens, r.annotations),
        None => panic!("no record"),
    };
    let n = record::notes::Notes::of(&held);
    let mut items: Vec<((usize, usize, u8, usize), String)> = Vec::new();
    let key = |at: record::notes::Place, rank: u8, start: usize| (at.line, at.after, rank, start);
    items.extend(n.glyphs.iter().map(|g| (key(g.at, 0, g.span.start), format!("glyph {}", g.nag))));
    items.extend(
        n.comments.iter().map(|c| (key(c.at, 1, c.span.start), format!("comment {:?}{}", c.text, c.to_line_end))),
    );
    items.extend(n.markup.iter().map(|m| (key(m.at, 1, m.span.start), format!("markup {:?}", m.drawing))));
    items.extend(n.variations.iter().map(|v| {
        let moves: Vec<&str> = v.tokens.iter().map(|t| t.text).collect();
        (key(v.at, 1, v.span.start), format!("variation {}", moves.join(" ")))
    }));
    items.sort_by_key(|(k, _)| *k);
    let mut out: Vec<String> = items.into_iter().map(|(k, s)| format!("{}:{} {s}", k.0, k.1)).collect();
    out.push(format!("main {}", tokens.iter().map(|t| t.text).collect::<Vec<_>>().join(" ")));
    out
}

/// Text -> canonical -> JSON -> canonical: the canonical record keeps everything the writer
/// added, is its own canonical record, and comes back from its JSON byte for byte.
fn round_trips(name: &str, text: &str) -> Result<(), String> {
    let options = VerifyOptions::default();
    let canonical = convert::canonical(text, 1, options).map_err(|e| format!("{name}: {e}"))?;
    let (before, after) = (written(text), written(&canonical));
    if before != after {
        let differs: Vec<_> = before.iter().zip(&after).filter(|(a, b)| a != b).take(3).collect();
        return Err(format!("{name}: the canonical record changed what was written ({differs:?}):\n{canonical}"));
    }
    let again = convert::canonical(&canonical, 1, options).map_err(|e| format!("{name}: {e}"))?;
    if again != canonical {
        return Err(format!("{name}: the canonical layout is no fixed point:\n{canonical}\n---\n{again}"));
    }
    let doc = convert::document(text, 1, options).map_err(|e| format!("{name}: {e}"))?;
    let json = convert::to_json(&doc);
    let read: Vec<GameDocument> = convert::read_json(&json).map_err(|e| format!("{name}: {e}"))?;
    let back = convert::reread(&read[0]).map_err(|e| format!("{name}: {e}"))?;
    if back != doc {
        return Err(format!("{name}: the document read back differs"));
    }
    let from_json = convert::canonical_of(&back).map_err(|e| format!("{name}: {e}"))?;
    if from_json != canonical {
        return Err(format!(
            "{name}: canonical -> JSON -> canonical is not byte-exact:\n{canonical}\n---\n{from_json}"
        ));
    }
    Ok(())
}

#[test]
fn the_collection_holds_every_game_and_every_kind_of_note() {
    let records = collection();
    assert!(records.len() >= 14, "{} records", records.len());
    for game in [
        "[Game \"Quarod\"]",
        "[Game \"Petrify\"]",
        "[Game \"Vadrantir\"]",
        "[Game \"Splinter Quad\"]",
        "QUADRAPHAGES",
        "HEXAPHAGES",
    ] {
        assert!(records.iter().any(|(_, t)| t.contains(game)), "{game}");
    }
    for (name, text) in &records {
        let w = written(text);
        for kind in ["comment", "glyph", "markup", "variation"] {
            assert!(w.iter().any(|s| s.contains(&format!(" {kind} "))), "{name} has no {kind}");
        }
        // A variation inside a variation; and in the common format a comment to the line's end,
        // which the published notation has not.
        let (notes, common) = match record::read(text, None).next() {
            Some(Found::Common(r)) => (r.annotations, true),
            Some(Found::Published(r)) => (r.annotations, false),
            None => unreachable!(),
        };
        let notes = record::notes::Notes::of(&notes);
        assert!(notes.variations.iter().any(|v| v.at.line != 0), "{name}: nested");
        assert_eq!(notes.comments.iter().any(|c| c.to_line_end), common, "{name}: `;`");
    }
}

#[test]
fn every_annotated_record_is_judged_on_every_line() {
    let mut lines = Vec::new();
    for (name, text) in collection() {
        let v = &verify_source(&text, VerifyOptions::default())[0];
        // The errata records, and only they, have an illegal move: in a variation.
        let in_variation = v.problems.iter().all(|p| p.variation.is_some());
        assert_eq!(name.ends_with("errata"), v.status == Status::Illegal, "{name}: {:?}", v.problems);
        assert!(in_variation, "{name}: {:?}", v.problems);
        lines.push(format!("{name}: {:?}, {} moves", v.status, v.moves));
        for p in &v.problems {
            let (line, col) = referee::report::line_col(&text, p.span.start);
            lines.push(format!("  {line}:{col} `{}`: {}", p.token, p.said()));
        }
        // A lenient replay goes on in variations too, and says the same of them.
        let lenient = &verify_source(&text, VerifyOptions { lenient: true, ..VerifyOptions::default() })[0];
        assert_eq!(lenient.problems.len(), v.problems.len(), "{name}");
    }
    insta::assert_snapshot!(lines.join("\n"));
}

#[test]
fn every_annotated_record_round_trips_keeping_what_was_written() {
    for (name, text) in collection() {
        round_trips(&name, &text).unwrap();
    }
}

#[test]
fn an_illegal_move_inside_a_variation_is_located_and_named_by_its_path() {
    let text =
        std::fs::read_to_string(format!("{}/tests/annotated/quarod-eight-errata.txt", env!("CARGO_MANIFEST_DIR")))
            .unwrap();
    let out = assert_cmd::Command::cargo_bin("referee")
        .unwrap()
        .args(["verify", "--format", "short", "tests/annotated/quarod-eight-errata.txt"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    let v = &verify_source(&text, VerifyOptions::default())[0];
    let p = &v.problems[0];
    let (line, col) = referee::report::line_col(&text, p.span.start);
    assert!(
        said.contains(&format!("quarod-eight-errata.txt:{line}:{col}: illegal: "))
            && said.contains("(in the variation at "),
        "{said}"
    );
    assert_eq!(&text[p.span.clone()], p.token);
    let json = assert_cmd::Command::cargo_bin("referee")
        .unwrap()
        .args(["verify", "--format", "json", "tests/annotated/quarod-eight-errata.txt"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(json["schema"], 3);
    assert_eq!(json["errors"][0]["variation"], p.variation.as_deref().unwrap());
}

/// A random game of `G` with comments, glyphs, markup and variations put in at random: comment
/// texts of any characters but `}` (line breaks and `[` included), and variations of legal moves
/// from their branch, some ending with a move that is not legal there.
fn annotated<G: Playable>(start: &G, seed: u64, tags: &str) -> String {
    let mut rng = fastrand::Rng::with_seed(seed);
    let moves = random_game(start, seed, 12);
    let mut position = start.clone();
    let mut played: Vec<String> = Vec::new();
    let mut out = format!("[Game \"{}\"]{tags}\n\n", G::ABOUT.title);
    let geometry = start.geometry();
    let corner = geometry.label(geometry.cells().next().expect("a board has cells"));
    let comment = |rng: &mut fastrand::Rng| {
        let words = ["a quiet move", "ÿ accents é", "line\nbreak", "[not markup]", " spaced  ", "x"];
        let mut text: String = words[rng.usize(..words.len())].to_string();
        if rng.bool() {
            text.push_str(&format!(" [%mark {corner} red]"));
        }
        text
    };
    // Movetext opens with a move number or a comment (grammar.md): the moves after are not numbered.
    if rng.bool() {
        out.push_str(&format!("{{{}}} ", comment(&mut rng)));
    } else {
        out.push_str("1. ");
    }
    for (i, &m) in moves.iter().enumerate() {
        let before = position.clone();
        played.push(position.write_move(m));
        out.push_str(&position.write_move(m));
        position.play_unchecked(m);
        if rng.u8(..4) == 0 {
            out.push_str(["!", "?", "!?", "?!"][rng.usize(..4)]);
        }
        if rng.u8(..5) == 0 {
            out.push_str(&format!(" ${}", rng.u8(..)));
        }
        if rng.u8(..3) == 0 {
            out.push_str(&format!(" {{{}}}", comment(&mut rng)));
        }
        if rng.u8(..6) == 0 {
            out.push_str(&format!(" ;{}\n", comment(&mut rng).replace('\n', " ")));
        }
        if rng.u8(..3) == 0 {
            // A variation from the position before this move, with a nested one now and then.
            let line = random_game(&before, seed.wrapping_add(i as u64 + 1), 1 + rng.usize(..3));
            if !line.is_empty() {
                let mut v = before.clone();
                let mut words = Vec::new();
                for (k, &lm) in line.iter().enumerate() {
                    let at = v.clone();
                    words.push(v.write_move(lm));
                    v.play_unchecked(lm);
                    if k == 0 && line.len() > 1 && rng.bool() {
                        let nested = random_game(&at, seed.wrapping_add(100 + i as u64), 1);
                        if let Some(&n) = nested.first() {
                            words.push(format!("({} {{{}}})", at.write_move(n), comment(&mut rng)));
                        }
                    }
                }
                if rng.u8(..4) == 0 {
                    // A move of the main line already played: most often not legal here.
                    words.push(played[rng.usize(..played.len())].clone());
                }
                out.push_str(&format!(" ({})", words.join(" ")));
            }
        }
        out.push(' ');
    }
    out.push('*');
    if rng.bool() {
        out.push_str(&format!(" {{{}}}", comment(&mut rng)));
    }
    out.push('\n');
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Generated annotated records of every game of the common format keep every comment, glyph,
    /// markup and variation in place through the canonical layout and JSON, byte for byte.
    #[test]
    fn generated_annotated_records_round_trip(seed in any::<u64>()) {
        let texts = [
            annotated(&Quarod::start(Some(6), None).unwrap(), seed, "\n[Size \"6\"]"),
            annotated(&Petrify::start(Some(6), None).unwrap(), seed, "\n[Size \"6\"]"),
            annotated(&Vadrantir::start(Some(5), None).unwrap(), seed, "\n[Size \"5\"]"),
            annotated(&Splinter::start(Some(10), Some(3)).unwrap(), seed, "\n[Size \"10\"]\n[Players \"3\"]"),
        ];
        for text in texts {
            let v = &verify_source(&text, VerifyOptions::default())[0];
            // Only a variation may hold an illegal move: the main line is a random game.
            prop_assert!(v.problems.iter().all(|p| p.variation.is_some()), "{text}\n{:?}", v.problems);
            if let Err(e) = round_trips("generated", &text) {
                return Err(TestCaseError::fail(format!("{e}\n{text}")));
            }
        }
    }
}

/// docs/json.md's example of a move with a variation, a glyph and a comment is what `convert`
/// writes for the record it names.
#[test]
fn the_json_documentation_shows_what_convert_writes() {
    let doc = std::fs::read_to_string(format!("{}/docs/json.md", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let record = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. d1d2 a2a3 (1... a1a2!? {a quieter try [%label c3 \"A\"]}) *\n";
    assert!(doc.contains("`1. d1d2 a2a3 (1... a1a2!? {a quieter try [%label c3 \"A\"]}) *`"));
    let json = convert::to_json(&convert::document(record, 1, VerifyOptions::default()).unwrap());
    let second = json.lines().find(|l| l.contains("\"ply\":2")).unwrap().trim().trim_end_matches(',');
    assert!(doc.contains(&format!("```json\n{second}\n```")), "docs/json.md lacks:\n{second}");
}

/// Variations nest to any depth in a record, which is verified whole; a document holds them at
/// most 20 deep, so that what `--to json` writes reads back, and a deeper record is refused with
/// why. A document's notes are bounded in all its lines together, as a record's are.
#[test]
fn nesting_and_notes_have_their_bounds_in_documents() {
    let nested = |depth: usize| {
        let mut line = String::from("b1c1");
        for _ in 0..depth {
            line = format!("b1c1 (a1a2 ({line}))");
        }
        format!("[Game \"Quarod\"]\n[Size \"4\"]\n\n1. d1d2 a2a3 ({line}) *\n")
    };
    let options = VerifyOptions::default();
    let deep = nested(300);
    assert_eq!(verify_source(&deep, options)[0].status, Status::Valid);
    let refused = convert::document(&deep, 1, options).unwrap_err().to_string();
    assert!(refused.contains("variations nested at most 20 deep"), "{refused}");
    round_trips("nested 9", &nested(9)).unwrap();

    let doc = convert::document(&nested(1), 1, options).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&convert::to_json(&doc)).unwrap();
    json["moves"][0]["glyphs"] = serde_json::Value::Array(vec![1.into(); 100_001]);
    let refused = convert::read_json(&json.to_string()).unwrap_err().to_string();
    assert!(refused.contains("more than 100000 comments, glyphs, variations and moves of variations"), "{refused}");
}

/// `repair` searches a variation whose illegal move comes first as a line of its own, and
/// `repair --write` mends it in place: the record verifies valid and keeps every comment, glyph,
/// markup and variation of its writer's.
#[test]
fn repair_mends_an_illegal_move_inside_a_variation_and_keeps_the_rest() {
    let options = VerifyOptions::default();
    for (name, text) in collection().into_iter().filter(|(n, _)| n.ends_with("errata")) {
        let repaired = referee::repair::repair_source(&text, options, Default::default(), None).unwrap();
        let r = &repaired[0];
        let search = r.search.as_ref().unwrap_or_else(|| panic!("{name}: searched"));
        assert!(search.candidates.first().is_some_and(|c| c.replays_to_end), "{name}");
        let referee::repair::Rewrite::Repaired { text: mended, edits } = referee::repair::rewrite(&text, r, options)
        else {
            panic!("{name}: not written")
        };
        assert_eq!(edits, 1, "{name}");
        let mended = format!("{}{mended}{}", &text[..r.verdict.span.start], &text[r.verdict.span.end..]);
        assert_eq!(verify_source(&mended, options)[0].status, Status::Valid, "{name}:\n{mended}");
        let (before, after) = (written(&text), written(&mended));
        let changed = before.iter().zip(&after).filter(|(a, b)| a != b).count();
        assert_eq!((before.len(), changed), (after.len(), 1), "{name}: only the repaired variation changes");
    }
}

/// Formatting (the editor's, `referee::layout`) on each annotated record changes only spacing,
/// line breaks and move numbers: every non-blank character of the writer's stays, in order, and
/// formatting again changes nothing. Each record of the common format that replays is laid out.
#[test]
fn formatting_keeps_every_character_of_the_writers() {
    use referee::search::Stop;
    let options = VerifyOptions::default();
    let mut laid_out = 0;
    for (name, text) in collection() {
        let edits = referee::layout::layout(&text, options, &Stop::never()).expect("never stopped");
        let mut formatted = text.clone();
        for (span, new) in edits.iter().rev() {
            formatted.replace_range(span.clone(), new);
        }
        laid_out += usize::from(formatted != text);
        // The writer's characters, in order, are a subsequence of the formatted text's: only move
        // numbers are added.
        let mut left = formatted.chars().filter(|c| !c.is_whitespace());
        for c in text.chars().filter(|c| !c.is_whitespace()) {
            assert!(left.any(|d| d == c), "{name}: `{c}` is lost:\n{formatted}");
        }
        assert_eq!(written(&formatted), written(&text), "{name}");
        let again = referee::layout::layout(&formatted, options, &Stop::never()).expect("never stopped");
        assert!(again.is_empty(), "{name}: formatting twice changes it: {again:?}");
    }
    assert!(laid_out >= 10, "{laid_out} records laid out");
}

/// The notes of [`written`], wherever they stand, sorted: places move when a token, a comment or a
/// variation is added before them.
fn what_was_written(notes: &[String]) -> Vec<String> {
    let mut w: Vec<String> = notes.iter().map(|n| n.split_once(' ').map_or(n.clone(), |x| x.1.to_string())).collect();
    w.sort();
    w
}

/// A move played on the board into an annotated record (the web page's play) keeps everything the
/// writer wrote: at the record's end, after its last move and what is said of it, before its
/// claim; earlier, as one more variation after the move it replaces and what is said of that
/// move. Every record of the collection, of every game, in either notation: the new text is the
/// old one with one insertion, read with the same notes (and the one variation added), and judged
/// as before on every line.
#[test]
fn a_move_played_into_an_annotated_record_keeps_what_was_written() {
    use referee::moves::{moves_after, play_move};
    let options = VerifyOptions::default();
    for (name, text) in collection() {
        let replayed = referee::record_moves(&text, 1, options).expect("the record replays");
        let before = written(&text);
        let status = verify_source(&text, options)[0].status;
        // At the end, when the main line is legal to its end and the game goes on.
        if let Some(next) = replayed.next.first() {
            let played = play_move(&text, 1, replayed.moves.len(), &next.written, options)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let after = written(&played.text);
            let (main, kept) = after.split_last().expect("the main line");
            let (old_main, was) = before.split_last().expect("the main line");
            // What was written, wherever it stands (what is said after the claim follows one
            // more token).
            assert_eq!(what_was_written(kept), what_was_written(was), "{name}: the notes changed\n{}", played.text);
            assert!(main.contains(&next.written) && main.len() > old_main.len(), "{name}: {main}");
            let v = &verify_source(&played.text, options)[0];
            assert!(v.moves == replayed.moves.len() + 1, "{name}: {:?}\n{}", v.problems, played.text);
        }
        // A variation at ply 1.
        let Some(other) = moves_after(&text, 1, 1, options)
            .expect("the record replays")
            .into_iter()
            .find(|m| replayed.moves.get(1).map(|own| &own.written) != Some(&m.written))
        else {
            continue;
        };
        if replayed.moves.len() < 2 {
            continue;
        }
        let varied = play_move(&text, 1, 1, &other.written, options).unwrap_or_else(|e| panic!("{name}: {e}"));
        let after = written(&varied.text);
        assert_eq!(after.len(), before.len() + 1, "{name}: one variation more\n{}", varied.text);
        assert_eq!(after.last(), before.last(), "{name}: the main line changed");
        // What was written, wherever it stands: the lines after the new variation are numbered
        // one more (a line is numbered by the order its variation opens in).
        let (mut was, now) = (what_was_written(&before), what_was_written(&after));
        was.push(format!("variation {}", other.written));
        was.sort();
        assert_eq!(was, now, "{name}: a note was lost\n{}", varied.text);
        assert!(
            after.iter().any(|a| a.starts_with("0:") && a.ends_with(&format!(" variation {}", other.written))),
            "{name}: {after:?}\n{}",
            varied.text
        );
        assert_eq!(verify_source(&varied.text, options)[0].status, status, "{name}\n{}", varied.text);
    }
}

/// A comment typed for a move on the board (the web page's) is written after that move and what
/// is already said of it, in either notation, and everything else the writer wrote is kept: every
/// record of the collection, its first move and its last; the verdict is the same. A comment the
/// notation cannot hold is refused with the reason.
#[test]
fn a_comment_said_of_a_move_is_written_after_it_and_keeps_what_was_written() {
    use referee::moves::comment_move;
    let options = VerifyOptions::default();
    for (name, text) in collection() {
        let replayed = referee::record_moves(&text, 1, options).expect("the record replays");
        let before = written(&text);
        let status = verify_source(&text, options)[0].status;
        for ply in [1, replayed.moves.len()] {
            let (said, span) = comment_move(&text, 1, ply, "a note typed on the board", options)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(&said[span.clone()], "a note typed on the board");
            let after = written(&said);
            let mut was = what_was_written(&before);
            was.push("comment \"a note typed on the board\"false".to_string());
            was.sort();
            assert_eq!(what_was_written(&after), was, "{name}: move {ply}\n{said}");
            // Said of that very move: no move of the main line between it and the comment.
            let token = &replayed.moves[ply - 1].token;
            // Where the comment went, in the text before it.
            let between = token.end..span.start - 2;
            assert!(replayed.moves.iter().all(|m| !between.contains(&m.token.start)), "{name}\n{said}");
            assert_eq!(verify_source(&said, options)[0].status, status, "{name}\n{said}");
        }
        let refused = comment_move(&text, 1, 1, "a } too many", options).expect_err("a } closes a comment");
        assert!(refused.contains('}'), "{refused}");
        if text.contains("_oo_") || text.contains("_xx_") {
            let refused =
                comment_move(&text, 1, 1, "two\nlines", options).expect_err("a published comment is one line");
            assert!(refused.contains("line break"), "{refused}");
        }
        let beyond = comment_move(&text, 1, replayed.moves.len() + 1, "past the end", options);
        assert!(beyond.is_err(), "{name}");
    }
}
