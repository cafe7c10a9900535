//! A text's verdicts kept current through edits (`referee::judged`): after any edit they are the
//! verdicts of the text judged anew, while an edit in one record of many judges that record again,
//! not the others.

use proptest::prelude::*;
use referee::judged::{JudgedText, Rejudged};
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
        let judged = JudgedText::new(text.clone(), VerifyOptions::default());
        let verdicts: Vec<Verdict> = judged.verdicts().cloned().collect();
        assert_eq!(verdicts, verify_source(&text, VerifyOptions::default()), "{}", entry.path().display());
    }
}

/// Records of every notation and line ending, some broken: the text the edits work on.
fn collection() -> String {
    [
        "samples/quarod/random-size-4.txt",
        "samples/quadraphages/blog-page.txt",
        "samples/mixed/old-mac-cr.txt",
        "samples/petrify/broken/illegal-capture-not-straight.txt",
        "samples/hexaphages/designers-game-side5.txt",
        "samples/mixed/newsletter-crlf-bom.txt",
        "samples/vadrantir/broken/illegal-placement-not-empty.txt",
        "samples/splinter/broken/illegal-no-own-piece.txt",
        "samples/quadraphages/designers-game-1.txt",
    ]
    .iter()
    .map(|f| std::fs::read_to_string(f).unwrap())
    .collect::<Vec<_>>()
    .join("\n")
}

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
        edits in prop::collection::vec((0.0..1.0f64, 0usize..40, 0..PIECES.len(), any::<bool>()), 1..12)
    ) {
        let mut judged = JudgedText::new(collection(), VerifyOptions::default());
        for (place, cut, piece, whole) in edits {
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
            let anew = JudgedText::new(judged.text().to_string(), VerifyOptions::default());
            prop_assert_eq!(judged.verdicts().len(), anew.verdicts().len());
            // The first verdict that differs, alone: the whole lists are long to read.
            let differs = judged.verdicts().zip(anew.verdicts()).find(|(kept, fresh)| kept != fresh);
            prop_assert!(differs.is_none(), "kept, then judged anew: {:#?}", differs);
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
    assert_eq!(cost, Rejudged { judged: 1, kept: 149, moved: 150 });
    let broken: Vec<usize> = judged.verdicts().filter(|v| v.status != Status::Valid).map(|v| v.index).collect();
    assert_eq!(broken, [150]);
    let v = judged.verdicts().nth(149).unwrap();
    assert_eq!(v.problems[0].kind, ProblemKind::Illegal);
    assert_eq!(&judged.text()[v.problems[0].span.clone()], "c1d1");
    let cost = judged.replace(at..at + 4, "d3c3");
    assert_eq!(cost, Rejudged { judged: 1, kept: 149, moved: 150 });
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
