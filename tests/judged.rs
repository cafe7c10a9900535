//! A text's verdicts kept current through edits (`referee::judged`): after any edit they are the
//! verdicts of the text judged anew, while an edit in one record of many judges that record again,
//! not the others, and an edit in a long stretch of prose reads a few checkpoints' worth of it.
//! Claims that need a search wait for it, and its verdict goes in only where its record still is
//! as it was.

use proptest::prelude::*;
use referee::judged::{JudgedText, CHECKPOINT_BYTES};
use referee::verdict::{ProblemKind, Status, Verdict};
use referee::verify::{verify_source, VerifyOptions};

/// Every sample, judged as a whole text, has `verify`'s verdicts.
#[test]
fn a_text_judged_anew_has_the_verdicts_verify_gives() {
    for entry in walkdir::WalkDir::new("samples").sort_by_file_name() {
        let entry = entry.unwrap();
        if !entry.file_type().is_file() {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap();
        let judged = JudgedText::searched(text.clone(), VerifyOptions::default());
        let verdicts: Vec<Verdict> = judged.verdicts().cloned().collect();
        assert_eq!(verdicts, verify_source(&text, VerifyOptions::default()), "{}", entry.path().display());
    }
}

/// Records of every notation and line ending, some broken, two that stop before the end with a
/// claim to search, and between them stretches of prose longer than the reading's checkpoints:
/// the text the edits work on.
fn collection() -> String {
    let prose = "A line of prose between the records, as a page has them.\n".repeat(CHECKPOINT_BYTES / 40);
    let records = [
        "samples/quarod/random-size-4.txt",
        "samples/quadraphages/blog-page.txt",
        "samples/mixed/old-mac-cr.txt",
        "samples/petrify/broken/illegal-capture-not-straight.txt",
        "samples/hexaphages/designers-game-side5.txt",
        "samples/mixed/newsletter-crlf-bom.txt",
        "samples/vadrantir/broken/illegal-placement-not-empty.txt",
        "samples/splinter/broken/illegal-no-own-piece.txt",
        "samples/quadraphages/designers-game-1.txt",
        "samples/quadraphages/claim-before-the-end-open.txt",
    ]
    .iter()
    .map(|f| std::fs::read_to_string(f).unwrap())
    .collect::<Vec<_>>();
    let halves = records.len() / 2;
    format!("{}\n{prose}\n{}\n{CLAIM}\n{prose}", records[..halves].join("\n"), records[halves..].join("\n"))
}

/// A Quarod record that stops before the end, claiming a result: its search solves 48 positions.
const CLAIM: &str =
    "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 d3c3 2. b4a4 a3b3 3. b1b2 d4c4 4. a3xa4 a2a1 5. a3xa2 0-1\n";

/// What an edit may write: pieces of every notation, line breaks of every kind, characters of
/// several bytes.
const PIECES: [&str; 16] = [
    "a1",
    "x",
    " ",
    "\n",
    "\r",
    "\r\n",
    "1.",
    "----",
    "[Game \"Petrify\"]",
    "[Size \"6\"]\n",
    "é",
    "🂡",
    "*",
    "1-0",
    "QUADRAPHAGES\n",
    "3 ",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// After each of a series of edits anywhere (also inside a character of several bytes, which
    /// the edit takes to its start), the verdicts are those of the edited text judged anew.
    #[test]
    fn after_any_edits_the_verdicts_are_the_texts_judged_anew(
        edits in prop::collection::vec((0.0..1.0f64, 0usize..40, 0..PIECES.len(), any::<bool>(), any::<bool>()), 1..12)
    ) {
        let mut judged = JudgedText::new(collection(), VerifyOptions::default());
        for (place, cut, piece, whole, search) in edits {
            let len = judged.text().len();
            let at = (place * len as f64) as usize;
            let range = at..(at + cut).min(len);
            if whole {
                // The editor sends the whole text: the difference is found by comparing.
                let mut text = judged.text().to_string();
                let (start, end) = (floor(&text, range.start), floor(&text, range.end));
                text.replace_range(start..end.max(start), PIECES[piece]);
                judged.set_text(text);
            } else {
                judged.replace(range, PIECES[piece]);
            }
            // Now and then the claims that wait are searched, as an editor does between keystrokes;
            // a record searched before and not touched since keeps its searched verdict.
            if search {
                while let Some(s) = judged.next_search() {
                    prop_assert!(judged.settle(s.run()));
                }
            }
            let text = judged.text().to_string();
            let (waiting, searched) = (
                JudgedText::new(text.clone(), VerifyOptions::default()),
                JudgedText::searched(text, VerifyOptions::default()),
            );
            prop_assert_eq!(judged.verdicts().len(), searched.verdicts().len());
            for (k, kept) in judged.verdicts().enumerate() {
                let index = k + 1;
                prop_assert!(!judged.waits(index) || waiting.waits(index));
                let fresh = if judged.waits(index) { &waiting } else { &searched };
                let fresh = fresh.verdicts().nth(k).unwrap();
                // The first verdict that differs, alone: the whole lists are long to read.
                prop_assert!(kept == fresh, "kept, then judged anew: {:#?}", (kept, fresh));
            }
        }
    }
}

fn floor(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

const RECORD: &str = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. c1d1 d3c3 *\n";

/// A collection of 300 records: a move mended in one judges that record again and no other, and
/// a record added in the middle renumbers those after it without judging them again.
#[test]
fn an_edit_in_one_record_of_many_judges_that_record_only() {
    let text = vec![RECORD; 300].join("\n");
    let mut judged = JudgedText::new(text, VerifyOptions::default());
    assert!(judged.verdicts().all(|v| v.status == Status::Valid));

    // Record 150's second move made illegal (onto the first move's square), then mended.
    let at = judged.verdicts().nth(149).unwrap().span.start + RECORD.find("d3c3").unwrap();
    let cost = judged.replace(at..at + 4, "c1d1");
    assert_eq!((cost.judged, cost.kept, cost.moved), (1, 149, 150));
    let broken: Vec<usize> = judged.verdicts().filter(|v| v.status != Status::Valid).map(|v| v.index).collect();
    assert_eq!(broken, [150]);
    let v = judged.verdicts().nth(149).unwrap();
    assert_eq!(v.problems[0].kind, ProblemKind::Illegal);
    assert_eq!(&judged.text()[v.problems[0].span.clone()], "c1d1");
    let cost = judged.replace(at..at + 4, "d3c3");
    assert_eq!((cost.judged, cost.kept, cost.moved), (1, 149, 150));
    assert!(judged.verdicts().all(|v| v.status == Status::Valid));

    // A record added after record 100: the 200 after it are renumbered, not judged again.
    let end = judged.verdicts().nth(99).unwrap().span.end;
    let added = format!("\n{}", RECORD.replace("*", "1-0"));
    let cost = judged.replace(end..end, &added);
    assert_eq!(cost.judged + cost.kept + cost.moved, 301);
    assert!(cost.judged <= 2, "{cost:?}");
    let indexes: Vec<usize> = judged.verdicts().map(|v| v.index).collect();
    assert_eq!(indexes, (1..=301).collect::<Vec<_>>());
    let anew = JudgedText::new(judged.text().to_string(), VerifyOptions::default());
    assert!(judged.verdicts().eq(anew.verdicts()));
    // The record found from its own line, not from the start: the one added.
    let found = judged.found(101).unwrap();
    assert_eq!(&judged.text()[found.span()], added.trim());
    assert!(judged.moves(101).unwrap().moves.len() == 2);
    assert!(judged.moves(302).is_err());
}

/// Records at both ends of 4 MiB of prose (a long page, or a file of blank lines): an edit in the
/// prose reads the text from the checkpoint before it to the one after it, not from the first
/// record on, and judges no record again.
#[test]
fn an_edit_in_a_long_stretch_of_prose_reads_between_two_checkpoints() {
    for line in ["Prose, and more prose.\n", "\n", "\r\n", "\r"] {
        let prose = line.repeat((4 << 20) / line.len());
        let text = format!("{RECORD}\n{prose}{RECORD}");
        let mut judged = JudgedText::new(text, VerifyOptions::default());
        for at in [prose.len() / 3, prose.len() / 2, prose.len() - 100] {
            let at = RECORD.len() + 1 + at - at % line.len();
            let cost = judged.replace(at..at, "x");
            assert_eq!((cost.judged, cost.kept, cost.moved), (0, 1, 1), "{line:?}");
            assert!(cost.read <= 3 * CHECKPOINT_BYTES, "{line:?}: read {} bytes", cost.read);
            judged.replace(at..at + 1, "");
        }
        let anew = JudgedText::new(judged.text().to_string(), VerifyOptions::default());
        assert!(judged.verdicts().eq(anew.verdicts()), "{line:?}");
        // A record typed into the middle of the prose is found, and the one after renumbered.
        let middle = RECORD.len() + 1 + prose.len() / 2;
        let middle = middle - (middle - RECORD.len() - 1) % line.len();
        let cost = judged.replace(middle..middle, &format!("{RECORD}\n"));
        assert_eq!((cost.judged, cost.kept, cost.moved), (1, 1, 1), "{line:?}");
        let indexes: Vec<usize> = judged.verdicts().map(|v| v.index).collect();
        assert_eq!(indexes, [1, 2, 3], "{line:?}");
        let anew = JudgedText::new(judged.text().to_string(), VerifyOptions::default());
        assert!(judged.verdicts().eq(anew.verdicts()), "{line:?}");
    }
}

/// A record that stops before the end with a claim waits for its search; the search's verdict goes
/// in where the record is when it comes back, moved by edits before it, and not at all when the
/// record itself was edited meanwhile.
#[test]
fn a_search_settles_its_record_only_if_it_is_as_it_was() {
    let text = format!("{RECORD}\n{CLAIM}\n{RECORD}");
    let mut judged = JudgedText::new(text.clone(), VerifyOptions::default());
    assert!(judged.waits(2) && !judged.waits(1) && !judged.waits(3));
    let claim = &judged.verdicts().nth(1).unwrap().claims[0];
    assert!(claim.detail.contains("still to search"), "{}", claim.detail);

    // An edit before the record: the search comes back to the record moved and renumbered.
    let search = judged.next_search().unwrap();
    assert_eq!(search.index(), 2);
    judged.replace(0..0, &format!("{RECORD}\n"));
    assert!(judged.wants(&search));
    let searched = search.run();
    assert!(judged.settle(searched));
    assert!(!judged.waits(3) && judged.next_search().is_none());
    let searched_anew = JudgedText::searched(judged.text().to_string(), VerifyOptions::default());
    assert!(judged.verdicts().eq(searched_anew.verdicts()));
    let claim = &judged.verdicts().nth(2).unwrap().claims[0];
    assert_eq!(&judged.text()[claim.span.clone()], "0-1");
    assert!(claim.detail.contains("positions searched"), "{}", claim.detail);

    // An edit of the record itself: the search given out before it no longer settles anything.
    let mut judged = JudgedText::new(text, VerifyOptions::default());
    let search = judged.next_search().unwrap();
    let at = judged.verdicts().nth(1).unwrap().span.end - "0-1".len();
    judged.replace(at..at + 3, "1-0");
    assert!(!judged.wants(&search));
    let stopped = search.stop();
    stopped.stop();
    assert!(!judged.settle(search.run()));
    assert!(judged.waits(2));
    let claim = &judged.verdicts().nth(1).unwrap().claims[0];
    assert_eq!(claim.text, "1-0");
}

/// The searches of one text share its budget: a text of many claims searches as many as a file's
/// budget allows, and the claims past it say so, as `verify` does.
#[test]
fn the_searches_of_a_text_share_one_budget() {
    let options = VerifyOptions { search_limit: 40, ..VerifyOptions::default() };
    let text = [CLAIM; 12].join("\n");
    let judged = JudgedText::searched(text.clone(), options);
    let verify: Vec<Verdict> = verify_source(&text, options);
    assert!(judged.verdicts().eq(verify.iter()));
    let spent = verify.iter().filter(|v| v.claims[0].detail.contains("used up their budget")).count();
    assert!(spent > 0, "{:#?}", verify[11].claims);
}
