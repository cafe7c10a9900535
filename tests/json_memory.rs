//! JSON documents are read (`convert --from json`) in memory that follows the text, not what the
//! text claims to hold: a huge string is refused from its length before it is copied, and a list
//! longer than any record's stops growing at its bound. Before, one tag value of 250 MB took
//! 1.5 GB for the whole run, and a move of a long list eight times its text. This test counts its
//! own heap (a global allocator that keeps the peak), so it has a file of its own, and one test.

use referee::convert::{self, MAX_STRING};

#[path = "support/heap.rs"]
mod heap;

#[global_allocator]
static ALLOCATOR: heap::Counting = heap::Counting;

const MB: usize = 1 << 20;

/// A short Quarod game as a document, `field` given `value` (JSON), on one line.
fn document(field: &str, value: &str) -> String {
    let record = "[Game \"Quarod\"]\n[Size \"4\"]\n\n1. d1d2 a2a3 2. c3d3 c1b1 *\n";
    let json = convert::to_json(&convert::document(record, 1, Default::default()).unwrap());
    let mut doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    doc[field] = serde_json::Value::Null;
    doc.to_string().replace(&format!("\"{field}\":null"), &format!("\"{field}\":{value}"))
}

#[test]
fn huge_strings_and_long_lists_are_refused_in_memory_that_follows_the_text() {
    // A tag value of 40 MB: refused from its length, never copied (it has no escapes, so serde_json
    // hands it over in place).
    let text = document("tags", &format!("[[\"Annotator\",\"{}\"]]", "a".repeat(40 * MB)));
    let (read, peak) = heap::peak(|| convert::read_json(&text).map(|docs| docs.len()));
    let e = read.unwrap_err().to_string();
    assert!(
        e.contains(&format!("a string of {} bytes: a document's strings hold at most {MAX_STRING}", 40 * MB)),
        "{e}"
    );
    eprintln!("a tag value of 40 MB: peak {} KB", peak >> 10);
    assert!(peak < MB, "peak {peak} bytes for a string of 40 MB");

    // Twenty million tabs written as escapes (40 MB of text), which serde_json unescapes into a
    // buffer before the length is known: the string once (a buffer that grows by doubling, its
    // old and new blocks both counted while it moves), no more.
    let text = document("tags", &format!("[[\"Annotator\",\"{}\"]]", "\\t".repeat(20 * MB)));
    let (read, peak) = heap::peak(|| convert::read_json(&text).map(|docs| docs.len()));
    assert!(read.is_err());
    eprintln!("a tag value of 20 MB written in 40 MB of escapes: peak {} MB", peak / MB);
    assert!(peak < 3 * 20 * MB, "peak {peak} bytes for an escaped string of 20 MB");

    // Two million moves of 14 bytes each (28 MB): each held would take some 120 bytes (its entry,
    // its token), 240 MB in all; refused at move 100,001, having held at most as many.
    let moves = vec!["{\"token\":\"a1b1\"}"; 2_000_000].join(",");
    let text = document("moves", &format!("[{moves}]"));
    let (read, peak) = heap::peak(|| convert::read_json(&text).map(|docs| docs.len()));
    assert!(read.unwrap_err().to_string().contains("more than 100000 moves"));
    eprintln!("2,000,000 moves, {} MB: peak {} MB", text.len() / MB, peak / MB);
    assert!(peak < 32 * MB, "peak {peak} bytes for {} bytes of moves", text.len());

    // Many documents, one after the other: each is read when asked for and let go of, so a run
    // holds one document at a time, whatever the number.
    let one = document("result", "null");
    let text = format!("{one}\n").repeat(20_000);
    let (count, peak) = heap::peak(|| convert::json_documents(&text).filter(Result::is_ok).count());
    assert_eq!(count, 20_000);
    eprintln!("20,000 documents, {} MB, one at a time: peak {} KB", text.len() / MB, peak >> 10);
    assert!(peak < 64 * one.len(), "peak {peak} bytes for documents of {} bytes", one.len());
}
