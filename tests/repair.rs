//! `referee repair`: made-up records of every game with one slip of a known kind, whose best repair
//! must be the move that was meant; the published records' repairs as snapshots; the command line.

mod support;

use std::sync::Arc;

use referee::format::published::notation;
use referee::game::Playable;
use referee::games::petrify::Petrify;
use referee::games::phages::{Phages, PhagesMove};
use referee::games::quarod::Quarod;
use referee::games::splinter::Splinter;
use referee::games::vadrantir::Vadrantir;
use referee::random::random_game;
use referee::record::{self, Found, Span, Token, TokenKind};
use referee::render::ascii;
use referee::repair::{repair_source, repaired_text, Left, RepairOptions, Repairable, Rewrite};
use referee::replay::{replay_observed, Event, Reader, ReplayOptions};
use referee::report::{self, HumanStyle, Source};
use referee::verdict::{ProblemKind, Status};
use referee::verify::{verify_source, with_record, VerifyOptions, WithStart};
use referee::write::write_common_record;
use support::{json_lines, run};

/// Searches that are bounded by positions only, so that they end the same on any machine.
fn options() -> RepairOptions {
    RepairOptions { time_limit: None, ..RepairOptions::default() }
}

/// A slip of the writer's hand, as the tests make them.
#[derive(Clone, Copy, Debug)]
enum Slip {
    /// One character of a move's cells mistyped.
    Mistyped,
    /// A stone's move written from the cell of its twin, the side's other stone (Quadraphages).
    Twin,
    /// Two tokens written in the wrong order.
    Swapped,
    /// An announced number written wrong (Quadraphages).
    WrongNumber,
    /// A move left out.
    Dropped,
}

/// How a slip changes a record's move tokens: new texts at token indices (`None` deletes).
type Corruption = Vec<(usize, Option<String>)>;

/// The corruptions of a slip at move `i` that the text alone gives.
fn corruptions(slip: Slip, texts: &[String], i: usize) -> Vec<Corruption> {
    let written = &texts[i];
    let is_number = written.bytes().all(|b| b.is_ascii_digit());
    match slip {
        Slip::Mistyped if !is_number => {
            // Each digit of the token, each other value: `d2d5` as `d2d6`, `d3d5`, ...
            let mut out = Vec::new();
            for (at, c) in written.char_indices().filter(|(_, c)| c.is_ascii_digit()) {
                for d in ('1'..='9').filter(|&d| d != c) {
                    let mut t = written.clone();
                    t.replace_range(at..at + 1, &d.to_string());
                    out.push(vec![(i, Some(t))]);
                }
            }
            out
        }
        Slip::Swapped if texts.get(i + 1).is_some_and(|n| n != written) => {
            vec![vec![(i, Some(texts[i + 1].clone())), (i + 1, Some(written.clone()))]]
        }
        Slip::WrongNumber if is_number => {
            (1..=9).map(|n| n.to_string()).filter(|n| n != written).map(|n| vec![(i, Some(n))]).collect()
        }
        Slip::Dropped => vec![vec![(i, None)]],
        _ => Vec::new(),
    }
}

/// The twin slip, which needs to know the stones: the step written from the other stone's cell.
fn twin(before: &Phages, m: PhagesMove, i: usize) -> Vec<Corruption> {
    let PhagesMove::Step { from, to } = m else { return Vec::new() };
    let g = before.geometry();
    before
        .stones(before.to_move())
        .iter()
        .filter(|&&c| c != from)
        .map(|&c| vec![(i, Some(format!("{}{}", g.label(c), g.label(to))))])
        .collect()
}

/// A generated game's record, where it stands in its text, and the spans of its move tokens in the
/// order of its moves.
struct Written {
    text: String,
    record: Span,
    spans: Vec<Span>,
    texts: Vec<String>,
}

fn move_tokens(text: &str) -> (Vec<Span>, Vec<String>) {
    let found = record::read(text, None).next().expect("a record");
    move_tokens_of(&found)
}

fn move_tokens_of(found: &Found) -> (Vec<Span>, Vec<String>) {
    let tokens = match &found {
        Found::Published(r) => r.tokens.clone(),
        Found::Common(r) => r.tokens.clone(),
    };
    tokens
        .iter()
        .filter(|t| !t.kind.is_claim() && t.kind != TokenKind::Filler)
        .map(|t| (t.span.clone(), t.text.to_string()))
        .unzip()
}

fn written(text: String) -> Written {
    let found = record::read(&text, None).next().expect("a record");
    let (spans, texts) = move_tokens_of(&found);
    let record = found.span();
    Written { text, record, spans, texts }
}

/// The text with a corruption made at its move tokens.
fn corrupt(w: &Written, c: &Corruption) -> String {
    let mut text = w.text.clone();
    let mut edits = c.clone();
    edits.sort_by_key(|(i, _)| std::cmp::Reverse(*i));
    for (i, new) in edits {
        let span = w.spans[i].clone();
        match new {
            Some(t) => text.replace_range(span, &t),
            None => {
                let blanks = text[span.end..].bytes().take_while(|&b| b == b' ').count();
                text.replace_range(span.start..span.end + blanks, "");
            }
        }
    }
    text
}

/// Every position of a record's game, from its start, as diagrams: two records of the same game
/// give the same, whatever their layout and however they write a move that can be written two
/// ways (a Quarod swap, `e1xe2` or `e2xe1`).
fn game_of(text: &str) -> Vec<String> {
    struct Positions;
    impl WithStart for Positions {
        type Output = Vec<String>;
        fn run<G: Reader>(self, start: G, tokens: &[Token]) -> Vec<String> {
            let mut out = vec![ascii::diagram(&start)];
            replay_observed(start, tokens, ReplayOptions::default(), |e| {
                if let Event::Played { position } = e {
                    out.push(ascii::diagram(position));
                }
            });
            out
        }
    }
    with_record(text, 1, VerifyOptions::default(), Positions).expect("a record").0
}

/// Makes up to `wanted` records with one slip each, from move `moves.len() / 3` on, each one
/// illegal and noticed within the window the search looks back over (a slip noticed further on
/// is not where its violation points); repairs each, and checks that the best repair gives back
/// the record as it was generated. Returns how many were checked.
fn check_slips<G: Repairable>(
    name: &str,
    start: &G,
    moves: &[G::Move],
    w: &Written,
    slip: Slip,
    make: impl Fn(&G, G::Move, usize) -> Vec<Corruption>,
    wanted: usize,
) -> usize {
    assert_eq!(w.texts.len(), moves.len(), "{name}: one token per move");
    let mut position = start.clone();
    let mut positions = Vec::new();
    for &m in moves {
        positions.push(position.clone());
        position.play_unchecked(m);
    }
    let mut checked = 0;
    for i in moves.len() / 3..moves.len() {
        if checked == wanted {
            break;
        }
        for c in make(&positions[i], moves[i], i) {
            let text = corrupt(w, &c);
            let v = &verify_source(&text, VerifyOptions::default())[0];
            let Some(p) = v.problems.iter().find(|p| p.kind == ProblemKind::Illegal) else { continue };
            let (spans, _) = move_tokens(&text);
            let Some(at) = spans.iter().position(|s| s.start == p.span.start) else { continue };
            if at > i + positions[i].window() {
                continue;
            }
            // A record cut before its end may claim a result: its continuations are searched to a
            // smaller bound than `verify`'s, to keep the test fast (the slips are what is tested).
            let verify = VerifyOptions { search_limit: 5_000, ..VerifyOptions::default() };
            let repaired = repair_source(&text, verify, options(), None).expect("records");
            let search = repaired[0].search.as_ref().expect("an illegal record is searched");
            let best = search.candidates.first().unwrap_or_else(|| panic!("{name} {slip:?} at {i}: no repair"));
            let fixed = repaired_text(&text, &repaired[0].verdict.span, &best.changes);
            assert!(best.replays_to_end && best.claims_hold(), "{name} {slip:?} at {i}: {best:?}");
            if game_of(&fixed) != game_of(&w.text[w.record.clone()]) {
                // Another repair can be as good as the one meant by every key but the place of its
                // first edit (a Quarod swap left out is the same swap whoever plays it): the earlier
                // ranks first. Then it must be so: the one meant would need as many edits and
                // match as well, and it begins at move `i`.
                let first = c.iter().map(|(k, _)| *k).min().unwrap();
                assert!(
                    best.final_cells_differing.unwrap_or(0) == 0
                        && best.edits.len() <= c.len()
                        && best.edits[0].at < first,
                    "{name} {slip:?} at move {i} ({c:?}): the best repair is {:?}\n{text}",
                    best.changes
                );
                continue;
            }
            checked += 1;
            break;
        }
    }
    checked
}

fn phages_games() -> Vec<(&'static str, Phages)> {
    vec![("quadraphages", Phages::quadraphages()), ("hexaphages", Phages::hexaphages(4).expect("side 4"))]
}

#[test]
fn quadraphages_and_hexaphages_slips_are_repaired_by_the_move_that_was_meant() {
    for (name, start) in phages_games() {
        let moves = random_game(&start, 7, 10_000);
        let w = written(notation::write_record(&start, &moves));
        for slip in [Slip::Mistyped, Slip::Twin, Slip::Swapped, Slip::WrongNumber] {
            let make = |p: &Phages, m: PhagesMove, i: usize| match slip {
                Slip::Twin => twin(p, m, i),
                _ => corruptions(slip, &w.texts, i),
            };
            let checked = check_slips(name, &start, &moves, &w, slip, make, 2);
            assert_eq!(checked, 2, "{name} {slip:?}: found slips to check");
        }
    }
}

/// Two slips of each kind, from the games of seeds `seed`, `seed + 1`, ... (a game may have no slip
/// of a kind that is noticed near it and can only have been that slip).
fn check_common<G: Repairable + Playable>(name: &str, start: G, seed: u64, max_moves: usize) {
    for slip in [Slip::Mistyped, Slip::Swapped, Slip::Dropped] {
        let mut checked = 0;
        for seed in seed..seed + 4 {
            let moves = random_game(&start, seed, max_moves);
            let w = written(write_common_record(&start, &moves, &[]));
            let make = |_: &G, _: G::Move, i: usize| corruptions(slip, &w.texts, i);
            checked += check_slips(name, &start, &moves, &w, slip, make, 2 - checked);
            if checked == 2 {
                break;
            }
        }
        assert_eq!(checked, 2, "{name} {slip:?}: found slips to check");
    }
}

#[test]
fn quarod_slips_are_repaired_by_the_move_that_was_meant() {
    check_common("quarod", Quarod::start(Some(6), None).unwrap(), 3, 10_000);
}

#[test]
fn petrify_slips_are_repaired_by_the_move_that_was_meant() {
    check_common("petrify", Petrify::start(Some(6), None).unwrap(), 3, 10_000);
}

#[test]
fn vadrantir_slips_are_repaired_by_the_move_that_was_meant() {
    check_common("vadrantir", Vadrantir::start(Some(5), None).unwrap(), 3, 10_000);
}

#[test]
fn splinter_slips_are_repaired_by_the_move_that_was_meant() {
    check_common("splinter", Splinter::start(None, Some(2)).unwrap(), 3, 60);
}

fn human_repairs(path: &str) -> String {
    let src = std::fs::read_to_string(path).expect("sample");
    let source = Source::new(path, Arc::new(src.clone()));
    // The continuations of a repaired record that stops before the end are searched to a smaller
    // bound than `verify`'s, to keep the test fast; the bound is said where it stops a search.
    let verify = VerifyOptions { search_limit: 20_000, ..VerifyOptions::default() };
    let records = repair_source(&src, verify, options(), None).expect("records");
    records.iter().map(|r| report::repair_human(&source, r, HumanStyle::default()) + "\n").collect()
}

/// The five published records: the blog page's two games, the designers' three.
#[test]
fn published_records_have_a_snapshot_of_their_repairs() {
    for path in [
        "samples/quadraphages/blog-page.txt",
        "samples/quadraphages/designers-game-1.txt",
        "samples/quadraphages/designers-game-2.txt",
        "samples/hexaphages/designers-game-side5.txt",
    ] {
        let name = path.rsplit('/').next().unwrap().trim_end_matches(".txt");
        insta::assert_snapshot!(format!("repair-{name}"), human_repairs(path));
    }
}

/// The test case: on the blog's square game, the best repair begins with O's stone on d8
/// moving to d5 where the record writes d2d5, and goes on to the end of the record.
#[test]
fn the_blog_games_best_repair_moves_the_stone_on_d8_and_replays_to_the_end() {
    let path = "samples/quadraphages/blog-page.txt";
    let src = std::fs::read_to_string(path).unwrap();
    let records = repair_source(&src, VerifyOptions::default(), options(), Some(1)).unwrap();
    let best = &records[0].search.as_ref().unwrap().candidates[0];
    let first = &best.changes[0];
    assert_eq!((first.from.as_str(), first.to.as_str()), ("d2d5", "d8d5"));
    assert_eq!(report::line_col(&src, first.spans[0].start), (28, 31));
    assert!(best.replays_to_end, "{best:?}");
}

#[test]
fn a_bound_that_stops_the_search_is_reported() {
    let src = std::fs::read_to_string("samples/quadraphages/designers-game-1.txt").unwrap();
    let tight = RepairOptions { max_positions: 2_000, ..options() };
    let records = repair_source(&src, VerifyOptions::default(), tight, None).unwrap();
    let search = records[0].search.as_ref().unwrap();
    assert_eq!(search.stopped, Some(referee::repair::Bound::Positions(2_000)));
    let source = Source::new("d1.txt", Arc::new(src.clone()));
    let human = report::repair_human(&source, &records[0], HumanStyle::default());
    assert!(human.contains("the search stopped at its bound of 2000 tokens replayed"), "{human}");
    assert!(report::repair_json(&source, &records[0]).contains("\"stopped_by\":\"positions\""));
}

/// A search whose beam and bound of tokens are lifted stops at its memory ceiling, and the report
/// says so (the memory the search holds is measured in tests/repair_memory.rs).
#[test]
fn a_memory_ceiling_that_stops_the_search_is_reported() {
    let path = "samples/quadraphages/designers-game-1.txt";
    let huge = ["--beam", "1000000000000", "--max-positions", "1000000000000", "--time-limit", "100000"];
    let (code, out, _) =
        run(&[&["repair", "--search-limit", "1000", "--max-memory", "4"][..], &huge, &[path]].concat());
    assert_eq!(code, 1, "{out}");
    let words = out.lines().find(|l| l.contains("searched")).unwrap().trim();
    insta::assert_snapshot!("repair-memory-ceiling", words);
    let (_, json, _) =
        run(&[&["repair", "--search-limit", "1000", "--max-memory", "4", "--format", "json"][..], &huge, &[path]]
            .concat());
    assert_eq!(json_lines(&json)[0]["search"]["stopped_by"].as_str(), Some("memory"), "{json}");
}

#[test]
fn repair_prints_json_and_the_repaired_record_and_says_by_its_exit_code_whether_it_stands() {
    let (code, out, _) =
        run(&["repair", "--format", "json", "--time-limit", "600", "samples/quadraphages/designers-game-2.txt"]);
    assert_eq!(code, 0, "its best repair replays to the end, diagram and claims confirmed: {out}");
    let v = json_lines(&out);
    assert_eq!(v.len(), 1);
    let best = &v[0]["candidates"][0];
    for key in ["edits", "violations_remaining", "final_position", "claims"] {
        assert!(!best[key].is_null(), "{key} in {best}");
    }
    let edit = &best["edits"][0];
    let written = edit["from"].as_str().unwrap();
    assert_eq!(
        (edit["line"].as_u64(), edit["column"].as_u64(), v[0]["game"].as_str()),
        (Some(8), Some(56), Some("quadraphages"))
    );
    assert_eq!(best["violations_remaining"].as_u64(), Some(0));
    assert_eq!(best["final_position"].as_str(), Some("confirmed"));

    // The repaired record, written to standard output for `-`, verified: valid, its claims
    // confirmed.
    let sample = std::fs::read("samples/quadraphages/designers-game-2.txt").unwrap();
    let (code, repaired, _) = support::outcome(
        support::referee()
            .args(["repair", "--write", "--time-limit", "600", "-"])
            .write_stdin(sample)
            .output()
            .unwrap(),
    );
    assert_eq!(code, 0);
    assert!(!repaired.contains(written), "{repaired}");
    let v = &verify_source(&repaired, VerifyOptions::default())[0];
    assert_eq!(v.status, Status::Valid, "{repaired}\n{:?}", v.problems);

    // The blog page: its hex game's best repair leaves cells of the diagram different.
    let (code, _, _) = run(&["repair", "--time-limit", "600", "samples/quadraphages/blog-page.txt"]);
    assert_eq!(code, 1);
    let (code, _, err) = run(&["repair", "--record", "3", "samples/quadraphages/blog-page.txt"]);
    assert_eq!(code, 2);
    assert!(err.contains("there is no record 3 (the file has 2)"), "{err}");
}

#[test]
fn verify_says_how_far_the_rest_replays_with_each_legal_alternative() {
    let (_, out, _) = run(&["verify", "--color", "never", "samples/quadraphages/designers-game-2.txt"]);
    let help = out.lines().skip_while(|l| !l.contains("help: legal here")).take(4).collect::<Vec<_>>();
    let alternatives: Vec<&str> = help[1..].iter().map(|l| l.trim()).collect();
    // Each legal move of the help line, and one of them replays to the end.
    let legal: Vec<&str> = help[0].split("legal here: ").nth(1).unwrap().split(' ').collect();
    assert_eq!(alternatives.len(), legal.len().min(referee::alternatives::ALTERNATIVES_SHOWN));
    for a in &alternatives {
        let (m, reach) = a.split_once(": ").unwrap();
        assert!(legal.contains(&m), "{m} in {legal:?}");
        assert!(reach.starts_with("the rest replays "), "{a}");
    }
    assert!(alternatives[0].ends_with("the rest replays to the end"), "{alternatives:?}");
}

/// Over every broken sample, of every game: the repairs come in the order the issue ranks them
/// (replays to the end, the diagram matches, the claims hold, fewest edits, earliest first edit),
/// a record that claims no result (`*`) stands once a repair replays it to the end, and the text
/// `--write` would write verifies.
#[test]
fn repairs_of_every_broken_sample_come_in_ranking_order() {
    let (mut searched, mut written) = (0, 0);
    for game in ["quadraphages", "quarod", "petrify", "vadrantir", "splinter"] {
        let dir = std::path::Path::new("samples").join(game).join("broken");
        let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        paths.sort();
        for path in paths {
            let src = std::fs::read_to_string(&path).unwrap();
            for r in repair_source(&src, VerifyOptions::default(), options(), None).unwrap() {
                // What `--write` writes verifies: no repair that stands is lost on the way from
                // tokens to text.
                match referee::repair::rewrite(&src, &r, VerifyOptions::default()) {
                    Rewrite::Left(Left::Unverified(why)) => panic!("{}: {why}", path.display()),
                    Rewrite::Repaired { .. } => written += 1,
                    _ => {}
                }
                let Some(search) = &r.search else { continue };
                searched += 1;
                let key = |c: &referee::repair::Candidate| {
                    (
                        !c.replays_to_end,
                        c.final_cells_differing.unwrap_or(0),
                        !c.claims_hold(),
                        c.edits.len(),
                        c.edits.first().map_or(0, |e| e.at),
                    )
                };
                // Those that replay to the end first, in the order of the keys; the others rank
                // by how far they replay, then the same keys.
                let ends = search.candidates.iter().take_while(|c| c.replays_to_end).count();
                assert!(search.candidates[ends..].iter().all(|c| !c.replays_to_end), "{}", path.display());
                let keys: Vec<_> = search.candidates[..ends].iter().map(key).collect();
                assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{}: {keys:?}", path.display());
                let best = search.candidates.first().unwrap_or_else(|| panic!("{}: no repair", path.display()));
                let claims_nothing =
                    r.verdict.claims.iter().all(|c| c.text == "*" || c.kind != referee::verdict::ClaimKind::Result);
                if best.replays_to_end && best.final_cells_differing.unwrap_or(0) == 0 && claims_nothing {
                    assert!(r.stands(), "{}", path.display());
                }
            }
        }
    }
    assert!(searched > 20, "{searched} records searched");
    assert!(written > 40, "{written} records written repaired");
}

/// A deletion of the tokens at `spans`, as a repair reports it.
fn deletion(src: &str, spans: &[Span]) -> referee::repair::Change {
    referee::repair::Change {
        kind: referee::repair::ChangeKind::Delete,
        spans: spans.to_vec(),
        from: spans.iter().map(|s| &src[s.clone()]).collect::<Vec<_>>().join(" "),
        to: String::new(),
        expressible: true,
        at_end: false,
    }
}

/// Deleted tokens take the blanks after them, or, at the end of a line or of the record, the
/// blanks before them; never the move numbers, the line ends, nor text past the record.
#[test]
fn deleted_tokens_take_their_blanks_and_nothing_past_the_record() {
    let src = "10. a b  c\n11. d e  \nprose";
    let at = |t: &str| {
        let i = src.find(t).unwrap();
        i..i + t.len()
    };
    let record = 0..src.find("e").unwrap() + 1;
    let cases: [(&[&str], &str); 6] = [
        (&["a"], "10. b  c\n11. d e"),
        (&["c"], "10. a b\n11. d e"),
        (&["b", "c"], "10. a\n11. d e"),
        (&["a", "b", "c"], "10.\n11. d e"),
        // The record's last token, with blanks after it on its line, past the record's end: the
        // case that panicked ("begin > end").
        (&["e"], "10. a b  c\n11. d"),
        (&["d", "e"], "10. a b  c\n11."),
    ];
    for (tokens, expected) in cases {
        let spans: Vec<Span> = tokens.iter().map(|t| at(t)).collect();
        let change = deletion(src, &spans);
        assert_eq!(repaired_text(src, &record, &[change]), expected, "{tokens:?}");
    }
}

/// Changes that no search makes (spans past the text, inside a character, a swap of one token)
/// change nothing rather than panic: the text is all the function trusts.
#[test]
// A change's spans are a list of ranges, one each token: a list of one range is meant, and a
// reversed one is the odd input tested.
#[allow(clippy::single_range_in_vec_init)]
fn repaired_text_never_cuts_outside_the_record() {
    let src = "1. é b c";
    let odd = |kind, spans: Vec<Span>| referee::repair::Change {
        kind,
        spans,
        from: String::new(),
        to: "x".into(),
        expressible: true,
        at_end: false,
    };
    use referee::repair::ChangeKind::{Delete, Insert, Replace, Swap};
    for c in [
        odd(Swap, vec![3..5]),
        odd(Insert, vec![]),
        odd(Replace, vec![4..40]),
        odd(Delete, vec![Span { start: 7, end: 3 }]),
        odd(Swap, vec![6..7, 3..5]),
    ] {
        let text = repaired_text(src, &(0..src.len() + 9), std::slice::from_ref(&c));
        assert!(text.starts_with("1. "), "{c:?}: {text}");
    }
}

/// The record: the designers' wide columns, whose best repair deletes the last tokens of
/// the record, two blanks after them. The repaired text ends the line at the last token kept, and
/// verifies.
#[test]
fn a_repair_that_deletes_a_records_last_tokens_before_blanks_is_written() {
    let sample = std::fs::read_to_string("samples/quadraphages/random-seed-1.txt").unwrap();
    let head: String = sample.lines().take(11).map(|l| format!("{l}\n")).collect();
    let src = format!("{head}10. ---- ---- 3 f6f3 b6e6 h2h5 ---- 5  \n");
    let records = repair_source(&src, VerifyOptions::default(), options(), None).unwrap();
    let best = &records[0].search.as_ref().unwrap().candidates[0];
    assert!(best.changes.last().unwrap().spans.last().unwrap().end == src.trim_end().len(), "{best:?}");
    let text = repaired_text(&src, &records[0].verdict.span, &best.changes);
    assert!(text.ends_with("\n10. b6b3 ----"), "{text}");
    let v = &verify_source(&text, VerifyOptions::default())[0];
    assert_eq!(v.status, Status::Valid, "{text}\n{:?}", v.problems);
}

/// A file of prose and four records, as a club might keep it: a valid record, one whose repair the
/// notation can write (the record, its last tokens deleted), and the blog page's two, whose
/// best repairs it cannot write or that leave the final diagram different.
fn club_file() -> String {
    let sample = |name: &str| std::fs::read_to_string(format!("samples/quadraphages/{name}")).unwrap();
    let head: String = sample("random-seed-1.txt").lines().take(11).map(|l| format!("{l}\n")).collect();
    format!(
        "Games of the club, copied by hand.\n\n{}\nThe next one has a slip at the end.\n\n{head}10. ---- ---- 3 f6f3 b6e6 h2h5 ---- 5  \n\nFrom the blog:\n\n{}",
        sample("random-seed-2.txt"),
        sample("blog-page.txt")
    )
}

/// `--write` writes the whole file: every byte as it was but the repaired record's edits; it
/// never writes a repair the notation cannot express, nor one that would not verify, and says on
/// standard error what it did to each record that needed a repair.
#[test]
fn repair_write_rewrites_the_whole_file_with_only_the_repairs_it_can_write() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("club.txt");
    let src = club_file();
    std::fs::write(&path, &src).unwrap();
    let before: Vec<Status> = verify_source(&src, VerifyOptions::default()).iter().map(|v| v.status).collect();
    let (code, out, err) = run(&["repair", "--write", "--time-limit", "600", support::arg(&path)]);
    assert_eq!(code, 1, "two records are left as written: {err}");
    assert_eq!(out, "");
    insta::assert_snapshot!("repair-write-club-stderr", err.replace(support::arg(&path), "club.txt"));
    let written = std::fs::read_to_string(&path).unwrap();
    // One line differs: the record, its last tokens deleted.
    let changed: Vec<(&str, &str)> = src.lines().zip(written.lines()).filter(|(a, b)| a != b).collect();
    assert_eq!(changed, [("10. ---- ---- 3 f6f3 b6e6 h2h5 ---- 5  ", "10. b6b3 ----  ")]);
    assert_eq!(src.lines().count(), written.lines().count());
    // The repaired record verifies; the others are as they were.
    let after: Vec<Status> = verify_source(&written, VerifyOptions::default()).iter().map(|v| v.status).collect();
    assert_eq!(before, [Status::Valid, Status::Illegal, Status::Illegal, Status::Illegal]);
    assert_eq!(after, [Status::Valid, Status::Valid, Status::Illegal, Status::Illegal]);
    let (_, json, _) = run(&["verify", "--format", "json", support::arg(&path)]);
    let statuses: Vec<_> = json_lines(&json).iter().filter_map(|v| v["status"].as_str().map(String::from)).collect();
    assert_eq!(statuses, ["valid", "valid", "illegal", "illegal"], "{json}");

    // Again: nothing left that can be written, and the file is not replaced (the same inode).
    let inode = |p: &std::path::Path| std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(p).unwrap());
    let was = inode(&path);
    let (code, _, err) = run(&["repair", "--write", "--time-limit", "600", support::arg(&path)]);
    assert_eq!(code, 1);
    assert!(!err.contains("repaired"), "{err}");
    assert_eq!((inode(&path), std::fs::read_to_string(&path).unwrap()), (was, written));
}

/// `repair --write` on the blog page, whose best repair of its square game holds a phase that did
/// not happen: nothing is written, and the page is as it was.
#[test]
fn repair_write_never_writes_play_the_notation_cannot_express() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("blog-page.txt");
    let src = std::fs::read_to_string("samples/quadraphages/blog-page.txt").unwrap();
    std::fs::write(&path, &src).unwrap();
    let (code, _, err) = run(&["repair", "--write", "--record", "1", "--time-limit", "600", support::arg(&path)]);
    assert_eq!(code, 1);
    assert!(
        err.contains(
            "record 1 (line 1): left as written: its best repair needs play the notation cannot write (at 29:16"
        ),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), src);
}

/// The report of each record is printed as soon as its repair is found: a reader that closes the
/// pipe after the first report ends the run at once, with the other records never searched.
#[test]
fn repairs_are_printed_record_by_record() {
    let src = club_file();
    let mut printed = Vec::new();
    referee::repair::repair_each(&src, VerifyOptions::default(), options(), None, |r| {
        printed.push(r.verdict.index);
        // The first record that needs a repair is the last one looked at.
        if r.search.is_some() {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    })
    .unwrap();
    assert_eq!(printed, [1, 2]);
}

/// A run's claims share one budget, lent to each record in file order: what the records before
/// spent, and what the caller spent with them (`repair --write` verifies the text it writes), the
/// records after cannot.
#[test]
fn the_records_of_a_run_and_what_is_done_with_them_share_one_budget() {
    // Claims refuted by a search of 18 positions, at 20 a claim: a budget of 80 for the run.
    let record = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 d3c3 2. b4a4 a3b3 3. b1b2 d4c4 4. a3xa4 a2a1 \
                  5. a3xa2 d2c2 1-0\n\n";
    let verify = VerifyOptions { search_limit: 20, ..VerifyOptions::default() };
    let judged = |spend_after: Option<usize>| {
        let mut budget = verify.run_budget();
        let mut seen = Vec::new();
        referee::repair::repair_each_within(&record.repeat(6), verify, options(), None, &mut budget, |r, budget| {
            seen.push((r.verdict.status, budget.left));
            if Some(r.verdict.index) == spend_after {
                let positions = budget.left;
                let searched = referee::search::Searched { results: vec![()], best: None, positions, bytes: 0 };
                budget.spend(|_| Ok(searched)).unwrap();
            }
            std::ops::ControlFlow::Continue(())
        })
        .unwrap();
        seen
    };
    let (refuted, valid) = (Status::Refuted, Status::Valid);
    let four_searched = [(refuted, 62), (refuted, 44), (refuted, 26), (refuted, 8), (valid, 0), (valid, 0)];
    assert_eq!(judged(None), four_searched);
    assert_eq!(judged(Some(1)), [(refuted, 62), (valid, 0), (valid, 0), (valid, 0), (valid, 0), (valid, 0)]);
}

/// The command prints each record's report as soon as its repair is found: the first record's
/// report arrives while the second record's search, which its bounds let run for a minute or up
/// to 512 MiB (seconds at the least), is still going; were the reports collected first, it would
/// arrive only when the run ends.
#[test]
fn the_command_prints_a_records_report_before_the_next_record_is_searched() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.txt");
    let quick = club_file().lines().skip(32).take(12).map(|l| format!("{l}\n")).collect::<String>();
    let slow = std::fs::read_to_string("samples/quadraphages/designers-game-1.txt").unwrap();
    std::fs::write(&path, format!("{quick}\n{slow}")).unwrap();
    let huge = ["--beam", "1000000000000", "--max-positions", "1000000000000", "--time-limit", "60"];
    let mut child = support::referee_process()
        .args([&["repair", "--format", "json", "--max-memory", "512"][..], &huge, &[support::arg(&path)]].concat())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    let v: serde_json::Value = serde_json::from_str(&first).unwrap();
    assert_eq!((v["index"].as_u64(), v["candidates"][0]["replays_to_end"].as_bool()), (Some(1), Some(true)), "{first}");
    assert!(running, "the run had ended when the first report arrived");
}
