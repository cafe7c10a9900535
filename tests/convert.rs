//! `referee convert`: a record and its canonical rewrite verify alike, the canonical layout is a
//! fixed point, and record -> JSON -> record gives the same game; over generated games of every
//! game and over every record in samples/. Then the command line.

mod support;

use proptest::prelude::*;

use referee::convert::{self, ConvertError, GameDocument};
use referee::format::published::notation;
use referee::game::{Game, Playable};
use referee::games::petrify::Petrify;
use referee::games::phages::{Phages, Phase, Side};
use referee::games::quarod::Quarod;
use referee::games::splinter::Splinter;
use referee::games::vadrantir::Vadrantir;
use referee::random::random_game;
use referee::verdict::{ClaimKind, Verdict};
use referee::verify::{verify_source, VerifyOptions};
use referee::write::write_common_record;
use support::{arg, run};

/// Small searches: both sides of a comparison make the same ones.
fn options() -> VerifyOptions {
    VerifyOptions { search_limit: 20_000, ..VerifyOptions::default() }
}

/// What a verdict says, without where it says it (spans, lines) and without its notes (a canonical
/// record has the column header whose absence a note remarks). A canonical record of a record
/// without a final diagram has the replay's, whose claim holds: it is left out then.
fn gist(v: &Verdict, final_claim: bool) -> String {
    let problems: Vec<_> = v.problems.iter().map(|p| (p.kind, &p.token, &p.message)).collect();
    let claims: Vec<_> = v
        .claims
        .iter()
        .filter(|c| final_claim || c.kind != ClaimKind::FinalPosition)
        .map(|c| (c.kind, &c.text, c.status, &c.detail))
        .collect();
    format!(
        "{:?} {:?}\n{problems:?}\n{claims:?}\nmoves {} over {} winner {:?} score {:?} {:?} {:?}",
        v.game, v.status, v.moves, v.game_over, v.winner, v.score, v.score_with_stones, v.score_text
    )
}

/// The document with each move's token as referee writes it: what the canonical record writes.
fn as_canonical(doc: &GameDocument) -> GameDocument {
    let mut doc = doc.clone();
    for m in &mut doc.moves {
        m.token = m.canonical.clone();
    }
    doc
}

/// Record `index` of `src` converted every way; `false` when it is refused for not replaying to
/// its end (its verdict then says so).
fn check_record(src: &str, index: usize) -> Result<bool, String> {
    let all = verify_source(src, options());
    let Some(original) = all.get(index - 1) else { return Err(format!("no record {index} in:\n{src}")) };
    let doc = match convert::document(src, index, options()) {
        Err(ConvertError::NotReplayed(v)) => {
            if original.status == referee::verdict::Status::Valid {
                return Err(format!("a valid record was refused: {:?}", v.problems));
            }
            return Ok(false);
        }
        Err(e) => return Err(format!("record {index}: {e}")),
        Ok(doc) => doc,
    };
    let canonical = convert::canonical_of(&doc).map_err(|e| e.to_string())?;
    // The same verdict.
    let rewritten = &verify_source(&canonical, options());
    if rewritten.len() != 1 {
        return Err(format!("the canonical text holds {} records:\n{canonical}", rewritten.len()));
    }
    let has_final = original.claims.iter().any(|c| c.kind == ClaimKind::FinalPosition);
    let (a, b) = (gist(original, true), gist(&rewritten[0], has_final));
    if a != b {
        return Err(format!("the verdicts differ:\n{a}\n---\n{b}\n{canonical}"));
    }
    // A fixed point.
    let again = convert::canonical(&canonical, 1, options()).map_err(|e| e.to_string())?;
    if again != canonical {
        return Err(format!("canonical of canonical differs:\n{canonical}\n---\n{again}"));
    }
    // Record -> JSON -> record -> JSON.
    let rewritten_doc = convert::document(&canonical, 1, options()).map_err(|e| e.to_string())?;
    if rewritten_doc != as_canonical(&doc) {
        return Err(format!("the canonical record's document differs:\n{doc:#?}\n---\n{rewritten_doc:#?}"));
    }
    let json = convert::to_json(&doc);
    let read = convert::read_json(&json).map_err(|e| format!("{e}\n{json}"))?;
    if read != [doc.clone()] {
        return Err(format!("the JSON does not read back as written:\n{json}"));
    }
    let reread = convert::reread(&read[0]).map_err(|e| format!("{e}\n{json}"))?;
    if reread != as_canonical(&doc) || convert::canonical_of(&reread).map_err(|e| e.to_string())? != canonical {
        return Err(format!("the JSON replays to another game:\n{json}"));
    }
    Ok(true)
}

// The common format's games, cut anywhere, convert as every game does: every_game.rs, over the
// registry. The published notation's own twists (O moving first, stays read several ways) are here.

/// Side-5 games (three stones a side) whose `----` tokens have several readings (RULINGS 5b), from
/// `generated_quadraphages_and_hexaphages_games_convert`'s player: before every reading was
/// followed, seed 500337 was refused at a move it played, and 500408 and 502039 had their claims
/// refuted. They convert, and read back to the same verdict.
#[test]
fn games_whose_stays_read_more_than_one_way_convert() {
    let start = Phages::hexaphages(5).expect("side 5 has a start");
    for seed in [500337, 500408, 502039] {
        let text = notation::write_record(&start, &random_game(&start, seed, 10_000));
        assert_eq!(check_record(&text, 1), Ok(true), "seed {seed}:\n{text}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn generated_quadraphages_and_hexaphages_games_convert(
        seed in any::<u64>(),
        board in 0u8..3,
        o_first in any::<bool>(),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut start = match board {
            0 => Phages::quadraphages(),
            side => Phages::hexaphages(side + 3).expect("sides 4 and 5 have a start"),
        };
        if o_first {
            start.set_first_mover(Side::O);
        }
        let mut moves = random_game(&start, seed, 10_000);
        // Half the games stop before their end, after one move at least: without movetext there
        // is no published record.
        if seed % 2 == 1 {
            moves.truncate(1 + cut.index(moves.len()));
        }
        let text = notation::write_record(&start, &moves);
        prop_assert_eq!(check_record(&text, 1), Ok(true), "{}", text);
    }
}

/// A final diagram claiming a glyph of two characters (here a byte-order mark glued to a stone, as a
/// newsletter pasted together leaves it): the canonical record claims that glyph whole, so it
/// verifies as the record does and reads back to the same canonical text.
#[test]
fn a_diagram_glyph_of_several_characters_is_written_whole() {
    let sample = std::fs::read_to_string("samples/vadrantir/random-side-5.txt").unwrap();
    let row = "\n    W W B W W     1\n";
    assert!(sample.contains(row), "the sample's first diagram row");
    let src = sample.replace(row, "\n    \u{feff}W W B W W     1\n");
    let doc = convert::document(&src, 1, options()).unwrap();
    assert_eq!(doc.final_position[0], "\u{feff}W W B W W");
    let canonical = convert::canonical_of(&doc).unwrap();
    assert!(canonical.contains("\n    \u{feff}W W B W W    1\n"), "{canonical}");
    let problem = |text: &str| verify_source(text, options())[0].problems[0].message.clone();
    assert_eq!(problem(&canonical), problem(&src));
    assert!(problem(&src).contains("e1 shows \u{feff}W, the replay has W"), "{}", problem(&src));
    assert_eq!(referee::fuzz_bodies::round_trip(src.as_bytes()), 1);

    // On a square board the glyph opens its row: written at the line's start, its mark would be
    // skipped as a line's byte-order mark, so the row is indented.
    let sample = std::fs::read_to_string("samples/quarod/random-size-4.txt").unwrap();
    let src = sample.replace("\nWv W> B< W< 1.\n", "\n \u{feff}Wv W> B< W< 1.\n");
    assert_ne!(src, sample);
    let canonical = convert::canonical(&src, 1, options()).unwrap();
    assert!(
        canonical.ends_with("a   b   c   d\n \u{feff}Wv W> B< W< 1.\nWv W^ B^ B< 2.\nB^ W< W> B< 3.\nB^ B< W> B< 4.\n"),
        "{canonical}"
    );
    assert_eq!(problem(&canonical), problem(&src));
    assert_eq!(referee::fuzz_bodies::round_trip(src.as_bytes()), 1);
}

#[test]
fn every_sample_record_that_replays_converts_and_verifies_alike() {
    let mut files: Vec<_> = walk("samples");
    files.sort();
    let (mut converted, mut refused) = (0, 0);
    for path in files {
        let src = std::fs::read_to_string(&path).unwrap();
        let count = referee::record::read(&src, None).count();
        for index in 1..=count {
            match check_record(&src, index) {
                Ok(true) => converted += 1,
                Ok(false) => refused += 1,
                Err(e) => panic!("{} record {index}: {e}", path.display()),
            }
        }
    }
    assert!(converted >= 30 && refused >= 40, "{converted} converted, {refused} refused");
}

fn walk(dir: &str) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(path.to_str().unwrap()));
        } else if path.extension().is_some_and(|e| e == "txt") {
            out.push(path);
        }
    }
    out
}

/// A short Quadraphages record in the blog's style, whose X resigns: the resignation opens a line.
const RESIGNED: &str = "Two turns and a resignation, as sent in:

_Jx_ _Bo_
1. .... .... 7 a7h7 i3b3 c1c8 g9g2 1 g2g3 c8c7
2. h7i7 b3c3 4 i7e7 ---- g3g7 ----   2 g7g5 c7c5 resign
";

/// A Quarod record with its tags out of order, a comment, a move number glued to its move and no
/// final diagram.
const QUAROD: &str = "[Seed \"4\"] [Result \"0-1\"]
[White \"Bo\"]
[Game \"quarod\"]
[Event \"Club night\"]
[Black \"Ann\"]
[Size \"4\"]

1. c1d1 d3c3 {a quiet start} 2.b4a4 a3b3 3. b1b2 d4c4 4. a3xa4 a2a1 5. a3xa2 d2c2
6. c2xc1 b1xc1 7. pass pass 0-1
";

#[test]
fn canonical_and_json_of_a_published_record() {
    insta::assert_snapshot!("published_canonical", convert::canonical(RESIGNED, 1, options()).unwrap());
    insta::assert_snapshot!("published_json", convert::to_json(&convert::document(RESIGNED, 1, options()).unwrap()));
}

#[test]
fn canonical_and_json_of_a_common_format_record() {
    insta::assert_snapshot!("common_canonical", convert::canonical(QUAROD, 1, options()).unwrap());
    insta::assert_snapshot!("common_json", convert::to_json(&convert::document(QUAROD, 1, options()).unwrap()));
}

#[test]
fn a_claim_refuted_or_unchecked_stays_so() {
    let refuted = std::fs::read_to_string("samples/quarod/broken/claim-refuted.txt").unwrap();
    for (src, refutes) in [(refuted.as_str(), true), (RESIGNED, false)] {
        let canonical = convert::canonical(src, 1, options()).unwrap();
        let v = &verify_source(&canonical, options())[0];
        let claim = v.claims.iter().find(|c| c.kind == ClaimKind::Result).unwrap();
        let expected = if refutes { "Refuted" } else { "Unchecked" };
        assert!(format!("{:?}", claim.status).starts_with(expected), "{claim:?}");
    }
}

#[test]
fn json_derived_fields_may_be_left_out_and_are_recomputed() {
    let json = r#"{"game": "quarod", "size": 4, "players": ["Black", "White"], "first": "Black", "tags": [],
        "setup": null, "moves": [{"token": "c1d1"}, {"token": "d3c3", "mover": "nobody"}],
        "result": "*", "final_position": []}"#;
    let doc = convert::reread(&convert::read_json(json).unwrap()[0]).unwrap();
    assert_eq!(doc.moves[1].mover, "White");
    assert_eq!(doc.moves[1].ply, 2);
    assert_eq!(doc.moves[1].canonical, "d3c3");
    assert_eq!(doc.outcome, None);
}

#[test]
fn json_with_an_illegal_move_is_refused_at_that_move() {
    let json = r#"{"game": "quarod", "size": 4, "players": ["Black", "White"], "first": "Black", "tags": [],
        "setup": null, "moves": [{"token": "c1d1"}, {"token": "c1d1"}], "result": null, "final_position": []}"#;
    let e = convert::reread(&convert::read_json(json).unwrap()[0]).unwrap_err();
    assert_eq!(e.to_string(), "move 2: `c1d1` is not a legal move here: c1 is not empty");
}

// The command line.

#[test]
fn convert_writes_to_standard_output_or_a_file() {
    let (code, out, err) = run(&["convert", "samples/quarod/random-size-4.txt", "--to", "canonical"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("[Game \"Quarod\"]\n[Size \"4\"]\n") && out.contains("\n1. c1d1 d3c3\n"), "{out}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    let (code, out, err) = run(&["convert", "samples/quarod/random-size-4.txt", "--to", "json", "-o", arg(&file)]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let json = std::fs::read_to_string(&file).unwrap();
    assert!(json.contains("\"game\": \"quarod\""), "{json}");
    // And back.
    let (code, back, err) = run(&["convert", "--from", "json", arg(&file), "--to", "canonical"]);
    assert_eq!(code, 0, "{err}");
    let (_, canonical, _) = run(&["convert", "samples/quarod/random-size-4.txt", "--to", "canonical"]);
    assert_eq!(back, canonical);
    let (code, again, _) = run(&["convert", "--from", "json", arg(&file), "--to", "json"]);
    assert_eq!((code, again), (0, json));
}

#[test]
fn convert_picks_a_record_and_reads_standard_input() {
    let src = format!("{RESIGNED}\n{QUAROD}");
    let out = support::referee()
        .args(["convert", "-", "--record", "2", "--to", "canonical"])
        .write_stdin(src)
        .output()
        .unwrap();
    let (code, out, err) = support::outcome(out);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("[Game \"Quarod\"]"), "{out}");
    let (code, _, err) = run(&["convert", "samples/quarod/random-size-4.txt", "--record", "3", "--to", "json"]);
    assert_eq!(code, 2);
    assert!(err.contains("there is no record 3 (the file has 1)"), "{err}");
}

#[test]
fn convert_refuses_a_record_that_does_not_replay_to_its_end() {
    let (code, out, err) = run(&["convert", "samples/quadraphages/broken/illegal-blocked.txt", "--to", "json"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains("illegal-blocked.txt:2:38: illegal: the path is blocked by X's stone on c7"), "{err}");
    assert!(err.contains("record 1 does not replay to its end, so it is not converted"), "{err}");
    let (code, _, err) = run(&["convert", "samples/quadraphages/broken/syntax-bad-token.txt", "--to", "canonical"]);
    assert_eq!(code, 1);
    assert!(err.contains("syntax_error: `d8-d5` is not a stone move"), "{err}");
}

#[test]
fn convert_reports_malformed_json_with_its_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.json");
    std::fs::write(&file, "{\"game\": \"quarod\",\n \"size\": four}\n").unwrap();
    let (code, out, err) = run(&["convert", "--from", "json", arg(&file), "--to", "canonical"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("bad.json: not a game document: expected ident at line 2 column 11"), "{err}");
    std::fs::write(&file, "{\"game\": \"chess\", \"size\": 8, \"players\": [], \"first\": \"White\", \"tags\": [], \"setup\": null, \"moves\": [], \"result\": null, \"final_position\": []}").unwrap();
    let (code, _, err) = run(&["convert", "--from", "json", arg(&file), "--to", "json"]);
    assert_eq!(code, 1);
    assert!(err.contains("record 1: unknown game `chess`"), "{err}");
}

#[test]
fn json_with_a_result_that_is_none_is_refused_unless_a_result_tag_holds_it() {
    let doc = |tags: &str| {
        format!(
            r#"{{"game": "quarod", "size": 4, "players": ["Black", "White"], "first": "Black", "tags": [{tags}],
            "moves": [{{"token": "c1d1"}}], "result": "won", "final_position": []}}"#
        )
    };
    let e = convert::reread(&convert::read_json(&doc("")).unwrap()[0]).unwrap_err();
    assert!(e.to_string().starts_with("`won` is not a result"), "{e}");
    let kept = convert::reread(&convert::read_json(&doc(r#"["Result", "won"]"#)).unwrap()[0]).unwrap();
    assert_eq!(kept.result.as_deref(), Some("won"));
}

#[test]
fn help_says_what_is_refused_and_the_exit_codes() {
    let (code, out, _) = run(&["convert", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("Only a record that replays to its end is converted"), "{out}");
    assert!(out.contains("0  every record asked for was converted"), "{out}");
}

#[test]
fn convert_from_json_picks_a_document_of_several() {
    let first = convert::to_json(&convert::document(RESIGNED, 1, options()).unwrap());
    let second = convert::to_json(&convert::document(QUAROD, 1, options()).unwrap());
    let out = support::referee()
        .args(["convert", "--from", "json", "-", "--record", "2", "--to", "json"])
        .write_stdin(format!("{first}{second}"))
        .output()
        .unwrap();
    let (code, out, err) = support::outcome(out);
    assert_eq!((code, out), (0, second), "{err}");
}

#[test]
fn records_with_a_start_of_their_own_convert() {
    // Petrify with a block and a disk of each colour placed before the first move.
    let mut glyphs = vec!["."; 36];
    (glyphs[0], glyphs[7], glyphs[35]) = ("B", "#", "O");
    let start = Petrify::start(Some(6), None).unwrap().with_setup(&glyphs).unwrap();
    let text = write_common_record(&start, &random_game(&start, 7, 100_000), &[]);
    assert!(text.contains("Setup:"), "{text}");
    assert_eq!(check_record(&text, 1), Ok(true), "{text}");
    // Quadraphages on a 7x7 board, three stones a side: the start must be drawn.
    let geometry = referee::geometry::Geometry::Square { size: 7 };
    let start = Phages::from_labels(geometry, &["a1", "d4", "g7"], &["g1", "a7", "d1"], Side::X).unwrap();
    let text = notation::write_record(&start, &random_game(&start, 7, 10_000));
    assert!(text.contains("Startup:"), "{text}");
    assert_eq!(check_record(&text, 1), Ok(true), "{text}");
    let doc = convert::document(&text, 1, options()).unwrap();
    assert_eq!(doc.setup.as_ref().map(Vec::len), Some(7));
}

/// Games that start in the middle: a random game cut at a ply, the position there its start (a
/// `[Position]` tag, a `Startup:` code, which `write_common_record` and `write_record` choose
/// because no diagram gives it). They convert, verify as the input does, and the JSON round-trips
/// with every move's code.
#[test]
fn records_that_start_from_a_position_code_convert() {
    fn common<G: Playable>(size: u8, players: Option<u8>) {
        for seed in 0..8u64 {
            let start = G::start(Some(size), players).expect("size in range");
            let moves = random_game(&start, seed, 100_000);
            let cut = moves.len() * (seed as usize % 4 + 1) / 5;
            let mut middle = start.clone();
            for &m in &moves[..cut] {
                middle.play_unchecked(m);
            }
            let text = write_common_record(&middle, &moves[cut..], &[]);
            assert_eq!(cut > 0, text.contains("[Position \""), "{text}");
            assert_eq!(check_record(&text, 1), Ok(true), "{text}");
        }
    }
    common::<Quarod>(6, None);
    common::<Petrify>(8, None);
    common::<Vadrantir>(5, None);
    common::<Splinter>(10, Some(4));
    common::<Splinter>(13, Some(3));
    common::<Splinter>(10, Some(2));

    // Published records start under way at the beginning of a turn, where a number is due (phase
    // b), and in the middle of a phase.
    type Cut = fn(&Phages) -> bool;
    let cuts: [(&str, Cut); 3] = [
        ("a turn begins", |p| p.phase() == Phase::Move && p.stones_to_act().count() == p.stones_per_side()),
        ("a number is due", |p| p.phase() == Phase::Announce),
        ("a phase half done", |p| p.phase() == Phase::Move && p.stones_to_act().count() < p.stones_per_side()),
    ];
    for seed in 0..12u64 {
        let start = if seed % 2 == 0 { Phages::quadraphages() } else { Phages::hexaphages(5).expect("side 5") };
        let (what, at) = cuts[seed as usize % 3];
        let moves = random_game(&start, seed, 10_000);
        let mut middle = start.clone();
        let mut cut = None;
        for (i, &m) in moves.iter().enumerate() {
            if i >= moves.len() / 2 && !middle.is_first_turn() && at(&middle) {
                cut = Some(i);
                break;
            }
            middle.play_unchecked(m);
        }
        let cut = cut.unwrap_or_else(|| panic!("no cut where {what} in the second half"));
        let text = notation::write_record(&middle, &moves[cut..]);
        assert!(text.contains("\nStartup: "), "{what}:\n{text}");
        assert_eq!(check_record(&text, 1), Ok(true), "{what}:\n{text}");
        assert_eq!(verify_source(&text, options())[0].status, referee::verdict::Status::Valid, "{text}");
    }
}

#[test]
fn convert_to_code_gives_the_last_position_as_show_does() {
    for file in ["samples/quarod/random-size-4.txt", "samples/hexaphages/random-seed-2.txt"] {
        let (code, out, err) = run(&["convert", file, "--to", "code"]);
        assert_eq!(code, 0, "{err}");
        let (code, shown, err) = run(&["show", file, "--format", "code"]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, shown);
        assert_eq!(out.lines().count(), 1, "{out}");
        // The JSON's last move carries the same code.
        let (_, json, _) = run(&["convert", file, "--to", "json"]);
        assert!(json.contains(&format!("\"code\":\"{}\"}}", out.trim())), "{json}");
    }
}

/// Without `--record`, every record of the file in turn: the ones that replay are converted, each
/// refused one is reported on standard error, and the exit code says some were.
#[test]
fn convert_without_record_converts_every_record_in_file_order() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("collection.txt");
    let illegal = std::fs::read_to_string("samples/quadraphages/broken/illegal-blocked.txt").unwrap();
    std::fs::write(&file, format!("A newsletter.\n\n{QUAROD}\n{illegal}\n{RESIGNED}\n")).unwrap();

    let (code, out, err) = run(&["convert", arg(&file), "--to", "canonical"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("record 2 does not replay to its end, so it is not converted"), "{err}");
    let quarod = convert::canonical(QUAROD, 1, options()).unwrap();
    let resigned = convert::canonical(RESIGNED, 1, options()).unwrap();
    assert_eq!(out, format!("{quarod}\n{resigned}"));
    // The two canonical records read back as two valid-or-as-before records.
    assert_eq!(verify_source(&out, options()).len(), 2);

    let (code, json, _) = run(&["convert", arg(&file), "--to", "json"]);
    assert_eq!(code, 1);
    let docs = convert::read_json(&json).unwrap();
    assert_eq!(docs.len(), 2);
    assert_eq!(docs[0].game, "quarod");
    assert_eq!(docs[1].game, "quadraphages");
    let (code, codes, _) = run(&["convert", arg(&file), "--to", "code"]);
    assert_eq!(code, 1);
    let codes: Vec<&str> = codes.lines().collect();
    assert_eq!(codes, [convert::last_code(&docs[0]), convert::last_code(&docs[1])]);

    // And the JSON documents, all of them, back to records.
    let json_file = dir.path().join("games.json");
    std::fs::write(&json_file, &json).unwrap();
    let (code, back, err) = run(&["convert", "--from", "json", arg(&json_file), "--to", "canonical"]);
    assert_eq!((code, back), (0, out), "{err}");

    // Only refused records: nothing is written, not even an empty file.
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, &illegal).unwrap();
    let target = dir.path().join("out.txt");
    let (code, _, _) = run(&["convert", arg(&bad), "--to", "canonical", "-o", arg(&target)]);
    assert_eq!(code, 1);
    assert!(!target.exists());
    // No record at all.
    std::fs::write(&bad, "just prose\n").unwrap();
    let (code, out, err) = run(&["convert", arg(&bad), "--to", "json"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains("no game record found"), "{err}");
}

/// The document of `src`'s first record with `change` made to its JSON, read back.
fn reread_changed(src: &str, change: impl Fn(&mut serde_json::Value)) -> Result<GameDocument, ConvertError> {
    let mut json: serde_json::Value =
        serde_json::from_str(&convert::to_json(&convert::document(src, 1, options()).unwrap())).unwrap();
    change(&mut json);
    convert::reread(&convert::read_json(&json.to_string()).unwrap()[0])
}

#[test]
fn a_tag_given_twice_is_refused_in_a_record_and_in_a_document() {
    let twice = QUAROD.replace("[Black \"Ann\"]", "[Black \"Ann\"] [Result \"1-0\"]");
    let Err(ConvertError::NotReplayed(v)) = convert::document(&twice, 1, options()) else { panic!("converted") };
    assert_eq!(v.problems[0].message, "the Result tag is given twice (first as \"0-1\"): a record gives each tag once");
    let refused = |tags: serde_json::Value| {
        reread_changed(QUAROD, |doc| doc["tags"] = tags.clone()).map(|_| ()).map_err(|e| e.to_string())
    };
    assert_eq!(
        refused(serde_json::json!([["Result", "0-1"], ["result", "1-0"]])),
        Err("tags: the Result tag is given twice (first as \"0-1\"): a document gives each tag once".into())
    );
    assert_eq!(
        refused(serde_json::json!([["Game", "Petrify"]])),
        Err("tags: the document gives Game in a field of its own (game, size, players, start_code), not as a tag"
            .into())
    );
    assert_eq!(refused(serde_json::json!([["Black", "Ann"], ["Result", "0-1"]])), Ok(()));
}

#[test]
fn a_final_position_that_no_record_can_hold_is_refused_never_replaced() {
    let final_rows = |rows: serde_json::Value| move |doc: &mut serde_json::Value| doc["final_position"] = rows.clone();
    // Rows a diagram cannot hold: the written record would have no final diagram, and the replay's
    // board would stand in for the document's claim.
    for (src, rows, message) in [
        (QUAROD, serde_json::json!(["", "", "", ""]), "row 1 is empty"),
        (
            QUAROD,
            serde_json::json!(["W> W> W> W>", "{ a", "W> W> W> W>", "W> W> W> W>"]),
            "from row 2 (`{ a`) on, its rows are no diagram a record can hold",
        ),
        (
            RESIGNED,
            serde_json::json!(vec!["? ? ? ? ? ? ? ? ?"; 9]),
            "from row 1 (`? ? ? ? ? ? ? ? ?`) on, its rows are no diagram a record can hold",
        ),
    ] {
        let e = reread_changed(src, final_rows(rows)).unwrap_err().to_string();
        assert_eq!(
            e,
            format!("final_position: {message}: write one string per row of the board, top row first, its glyphs separated by spaces")
        );
    }
    // A diagram the record can hold is kept, wrong as it is: the canonical record refutes it.
    let empty = reread_changed(QUAROD, final_rows(serde_json::json!(vec![". . . ."; 4]))).unwrap();
    assert_eq!(empty.final_position, [". . . ."; 4]);
    let v = &verify_source(&convert::canonical_of(&empty).unwrap(), options())[0];
    let claim = v.claims.iter().find(|c| c.kind == ClaimKind::FinalPosition).unwrap();
    assert!(format!("{:?}", claim.status).starts_with("Refuted"), "{claim:?}");
    // No rows: the document claims no final position, and the record gains the replay's board.
    let none = reread_changed(QUAROD, final_rows(serde_json::json!([]))).unwrap();
    assert_eq!(none.final_position, convert::document(QUAROD, 1, options()).unwrap().final_position);
}

#[test]
fn a_record_of_no_moves_keeps_its_first_line_and_round_trips() {
    let none = "QUADRAPHAGES\n_xx_ _oo_\n1. .... ....\n";
    let resigned = "HEXAPHAGES\n_oo_ _xx_\n1. .... .... resign\n";
    // The common format's record of no moves holds its result token.
    let common = "[Game \"Quarod\"]\n[Size \"4\"]\n\n*\n";
    for src in [none, resigned, common] {
        assert_eq!(check_record(src, 1), Ok(true), "{src}");
    }
    let canonical = convert::canonical(none, 1, options()).unwrap();
    let doc = convert::reread(
        &convert::read_json(&convert::to_json(&convert::document(none, 1, options()).unwrap())).unwrap()[0],
    )
    .unwrap();
    assert_eq!((doc.moves.len(), convert::canonical_of(&doc).unwrap()), (0, canonical.clone()));
    insta::assert_snapshot!(format!("{canonical}\n{}", convert::canonical(resigned, 1, options()).unwrap()));
}

#[test]
fn convert_says_what_a_document_holds_with_its_hidden_characters_escaped() {
    let json = r#"{"game": "quarod", "size": 4, "players": ["Black", "White"], "first": "Black", "tags": [],
        "setup": null, "moves": [{"token": "c1\u0000d1\u202e"}], "result": null, "final_position": []}"#;
    let out = support::referee()
        .args(["convert", "--from", "json", "-", "--to", "canonical"])
        .write_stdin(json)
        .output()
        .unwrap();
    let (code, out, err) = support::outcome(out);
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "referee: <stdin>: record 1: move 1: `c1\\u{0}d1\\u{202e}` is not a legal move here: `c1\\u{0}d1\\u{202e}` is not a \
         Quarod move: `\\u{0}d1\\u{202e}` is not a square; expected a placement like `d4e4`, a board swap like `d4xe4`, `pass` or \
         `swap`\n"
    );
}

/// A document made in code is held to the limits of a record: at most `MAX_TOKENS` moves, and a
/// setup counted before any cell is held. (Read from JSON, such a document is refused sooner, as
/// its lists and strings are read: `json_past_its_bounds_is_refused_where_it_stands`.)
#[test]
fn a_document_past_the_limits_of_a_record_is_refused_from_its_counts() {
    let changed = |change: &dyn Fn(&mut GameDocument)| {
        let mut doc = convert::document(QUAROD, 1, options()).unwrap();
        change(&mut doc);
        convert::reread(&doc).map(|_| ()).unwrap_err().to_string()
    };
    let e = changed(&|doc| doc.moves = vec![doc.moves[0].clone(); referee::record::MAX_TOKENS + 1]);
    assert!(e.contains("the document has 100001 moves: referee reads at most 100000 of one record"), "{e}");
    let rows = |rows: Vec<String>| {
        move |doc: &mut GameDocument| {
            doc.setup = Some(rows.clone());
            doc.start_code = None;
        }
    };
    let wide = ". ".repeat(1_000_000);
    let four = ". . . .".to_string();
    let e = changed(&rows(vec![wide.clone(), four.clone(), four.clone(), four.clone()]));
    assert_eq!(
        e,
        "the setup has 4 rows of [1000000, 4, 4, 4] cells, which do not draw the game's board (4 rows of [4, 4, 4, 4])"
    );
    let e = changed(&rows(vec![four.clone(); 100_000]));
    assert_eq!(e, "the setup has 100000 rows, which do not draw the game's board (4 rows of [4, 4, 4, 4])");
    // Beside a start code, a setup is compared with the code's board word by word.
    let e = changed(&|doc| doc.setup = Some(vec![wide.clone(), four.clone(), four.clone(), four.clone()]));
    assert_eq!(e, "the setup does not draw the start_code's board");
}

/// JSON is read within bounds, so that memory follows the text: a string of more than
/// `MAX_STRING` bytes, or a list longer than any record holds (moves, tags, a diagram's rows), is
/// refused where it stands, with its line and column. A record whose document would hold such a
/// string is not converted, so that every document written reads back.
#[test]
fn json_past_its_bounds_is_refused_where_it_stands() {
    let json = convert::to_json(&convert::document(QUAROD, 1, options()).unwrap());
    let changed = |change: &dyn Fn(&mut serde_json::Value)| {
        let mut doc: serde_json::Value = serde_json::from_str(&json).unwrap();
        change(&mut doc);
        // One line: the column is where the string or list is refused, from the text's start.
        let text = doc.to_string();
        (convert::read_json(&text).map(|_| ()).map_err(|e| e.to_string()), text)
    };
    let tag = |len: usize| move |doc: &mut serde_json::Value| doc["tags"][0][1] = "a".repeat(len).into();
    assert_eq!(changed(&tag(convert::MAX_STRING)).0, Ok(()));
    let (e, text) = changed(&tag(convert::MAX_STRING + 1));
    let end = text.find(&"a".repeat(convert::MAX_STRING + 1)).unwrap() + convert::MAX_STRING + 2;
    assert_eq!(
        e.unwrap_err(),
        format!("not a game document: a string of 65537 bytes: a document's strings hold at most 65536 bytes at line 1 column {end}")
    );
    let many = |field: &'static str, n: usize| {
        move |doc: &mut serde_json::Value| {
            let one = doc[field][0].clone();
            doc[field] = serde_json::Value::Array(vec![one; n]);
        }
    };
    let (e, _) = changed(&many("moves", referee::record::MAX_TOKENS + 1));
    let e = e.unwrap_err();
    assert!(e.starts_with("not a game document: more than 100000 moves: referee reads at most as many of one record, far more than any real game has at line 1 column "), "{e}");
    let (e, _) = changed(&many("tags", referee::record::MAX_TAGS + 1));
    assert!(e.unwrap_err().contains(": more than 1000 tags: "));
    let (e, _) = changed(&many("final_position", 27));
    assert!(e.unwrap_err().contains(": more than 26 rows: no board has more at line 1 column "));
    assert_eq!(changed(&many("moves", 1000)).0, Ok(()), "long lists within bounds are read");

    // From the command line, exit code 2, as for any JSON that is no game document; and the other
    // way, a record whose tag no document may hold is not converted (exit code 1).
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("long.json");
    std::fs::write(&file, changed(&tag(1 << 20)).1).unwrap();
    let (code, out, err) = run(&["convert", "--from", "json", arg(&file), "--to", "canonical"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("long.json: not a game document: a string of 1048576 bytes: a document's strings hold at most 65536 bytes at line 1 column "), "{err}");
    let record = dir.path().join("long.txt");
    std::fs::write(&record, QUAROD.replace("[Seed \"4\"]", &format!("[Annotator \"{}\"]", "a".repeat(100_000))))
        .unwrap();
    let (code, out, err) = run(&["convert", arg(&record), "--to", "json"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains("long.txt: record 1: the value of the Annotator tag is 100000 bytes: a document's strings hold at most 65536 bytes"), "{err}");
}

/// A byte-order mark before a JSON document is passed over, as before a record: at the start of
/// the file, and at the start of each document of files joined with `cat`. Lines and columns in
/// errors are still the whole text's, the mark no column.
#[test]
fn a_byte_order_mark_before_a_json_document_is_passed_over() {
    let json = convert::to_json(&convert::document(QUAROD, 1, options()).unwrap());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("marked.json");
    let convert_file = |text: &str| {
        std::fs::write(&file, text).unwrap();
        run(&["convert", "--from", "json", arg(&file), "--to", "code"])
    };
    let (code, plain, err) = convert_file(&json);
    assert_eq!(code, 0, "{err}");
    assert_eq!(convert_file(&format!("\u{feff}{json}")), (0, plain.clone(), String::new()));
    let joined = format!("\u{feff}{json}\u{feff}{json}\n\u{feff}{json}");
    assert_eq!(convert_file(&joined), (0, plain.repeat(3), String::new()));
    assert_eq!(convert::read_json(&joined).unwrap().len(), 3);
    // A fault in the second document, on its first line and on its second.
    let lines = json.lines().count();
    for (bad, at) in [
        ("{\"game\": four}", format!("line {} column 11", lines + 1)),
        ("{\"game\": \"quarod\",\n \"size\": four}", format!("line {} column 11", lines + 2)),
    ] {
        let (code, out, err) = convert_file(&format!("\u{feff}{json}\u{feff}{bad}\n"));
        assert_eq!((code, out), (2, plain.clone()), "the first document is converted");
        assert!(err.contains(&format!("marked.json: not a game document: expected ident at {at}")), "{err}");
    }
}

/// A document that draws no final position is written with the board its replay reaches, not an
/// empty diagram: the record reads back to the same document.
#[test]
fn a_document_without_a_final_position_is_written_with_the_replays() {
    for text in
        [include_str!("../samples/quarod/random-size-4.txt"), include_str!("../samples/quadraphages/random-seed-1.txt")]
    {
        let mut doc = convert::document(text, 1, options()).unwrap();
        let drawn = std::mem::take(&mut doc.final_position);
        let canonical = convert::canonical_of(&doc).unwrap();
        assert!(canonical.ends_with(".\n"), "a diagram's last row ends the record:\n{canonical}");
        let back = convert::document(&canonical, 1, options()).unwrap();
        assert_eq!(back.final_position, drawn, "{canonical}");
    }
}
