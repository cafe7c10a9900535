//! Hostile inputs are refused in memory bounded by the text itself: a record of millions of tokens
//! on one line, a `Startup:` diagram with rows of millions of cells, and many small records whose
//! verdicts are much larger than their text, as `verify` reads them (streamed). This test counts its own heap (a global allocator that keeps the peak), so it has a
//! file of its own, and one test, so that nothing else allocates while it measures.

use referee::record::MAX_TOKENS;
use referee::stream::{verify_stream, StreamOptions};
use referee::verdict::{Status, Verdict};
use referee::verify::VerifyOptions;

#[path = "support/heap.rs"]
mod heap;

#[global_allocator]
static ALLOCATOR: heap::Counting = heap::Counting;

/// The verdicts of `text` read as a stream, as `verify` reads a file, and the peak of the heap
/// while reading it (the text itself not counted).
fn verify_measured(text: &[u8]) -> (Vec<Verdict>, usize) {
    let options = StreamOptions { parallel: false, ..StreamOptions::default() };
    heap::peak(|| {
        let mut verdicts = Vec::new();
        verify_stream(text, VerifyOptions::default(), options, |_, v| {
            verdicts.extend(v);
            Ok::<(), ()>(())
        })
        .unwrap();
        verdicts
    })
}

const MB: usize = 1 << 20;

#[test]
fn a_record_of_millions_of_tokens_and_a_diagram_of_millions_of_cells_are_refused_in_bounded_memory() {
    // A legal start, then six million stays on the same line: 30 MB, which took about 600 MB
    // when every token was held (the same record of 50 MB peaked at 971 MB, of 200 MB failed to
    // allocate 1.9 GB).
    let stays = 6_000_000;
    let mut long_record = b"_xx_ _oo_\n1. .... .... 8 a7i7 i3a3 c1c9 g9g1 6 c9c3 g1a1 ".to_vec();
    long_record.extend(b"---- ".repeat(stays));
    long_record.push(b'\n');
    let (verdicts, peak) = verify_measured(&long_record);
    assert_eq!(verdicts.len(), 1);
    assert_eq!(verdicts[0].status, Status::SyntaxError);
    assert!(verdicts[0].problems[0].message.contains(&format!("reads at most {MAX_TOKENS} tokens")));
    // The stream holds the text of the record (a string that grows by doubling), and the first
    // tokens; never the rest of them.
    let text = long_record.len();
    eprintln!("a record of {} MB: peak {} MB", text / MB, peak / MB);
    assert!(peak < 3 * text + 32 * MB, "peak {peak} bytes for a record of {text} bytes");

    // Two rows of eight million cells: 32 MB, which took about 530 MB when every cell was held
    // (rows of 25 million took 1.6 GB).
    let cells = 8_000_000;
    let mut long_rows = b"QUADRAPHAGES\nStartup:\n".to_vec();
    for row in 1..=2 {
        long_rows.extend(b". ".repeat(cells));
        long_rows.extend(format!("{row}\n").bytes());
    }
    long_rows.extend(b"_xx_ _oo_\n1. .... .... 3 a7a8\n");
    let (verdicts, peak) = verify_measured(&long_rows);
    assert_eq!(verdicts.len(), 1);
    assert_eq!(verdicts[0].status, Status::SyntaxError);
    assert_eq!(
        verdicts[0].problems[0].message,
        format!("row 1 of this diagram has {cells} cells: no board has more than 26 in a row")
    );
    let text = long_rows.len();
    eprintln!("a diagram of {} MB: peak {} MB", text / MB, peak / MB);
    assert!(peak < 3 * text + 32 * MB, "peak {peak} bytes for a diagram of {text} bytes");

    // 30,000 small records with an illegal move on a 26x26 board: 1.3 MB of text, whose verdicts
    // (each with its board, its legal moves listed, its alternatives) held all at once took 227 MB.
    // They are handed on a few at a time, and here dropped as they come.
    let illegal = b"[Game \"Quarod\"] [Size \"26\"]\n1. a1b1 a1b1 *\n\n".repeat(30_000);
    let options = StreamOptions { parallel: false, ..StreamOptions::default() };
    let ((handed, illegal_found), peak) = heap::peak(|| {
        let (mut handed, mut illegal_found) = (0, 0);
        verify_stream(&illegal[..], VerifyOptions::default(), options, |_, v| {
            handed += v.len();
            illegal_found += v.iter().filter(|v| v.status == Status::Illegal).count();
            Ok::<(), ()>(())
        })
        .unwrap();
        (handed, illegal_found)
    });
    assert_eq!((handed, illegal_found), (30_000, 30_000));
    let text = illegal.len();
    eprintln!("30,000 illegal records, {} MB: peak {} MB", text / MB, peak / MB);
    assert!(peak < 3 * text + 32 * MB, "peak {peak} bytes for {text} bytes of illegal records");
}
