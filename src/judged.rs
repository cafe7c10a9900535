//! A text's verdicts kept current as it is edited, as an editor needs them (`referee lsp`): after
//! an edit, only the records the edit touched are read and judged again, so that a keystroke in a
//! record of a long collection costs that record, not the collection.
//!
//! The reader of records ([`record::read_window`]) can start again at any line where it was
//! between records (a [`Resume`]): its state there is the same whatever came before, but for how
//! many records it had found. So after an edit, reading starts again at the last such point before
//! the edit, and stops as soon as it is between records at a point past the edit where the reading
//! before the edit was too: from there on it would find the same records, each moved by the length
//! the edit added and renumbered by the records it added, and their verdicts are moved likewise
//! ([`Verdict::move_by`]) rather than judged again.

use crate::games::GameKind;
use crate::moves::{found_moves, RecordMoves};
use crate::record::{self, Found, Resume, Span};
use crate::verdict::Verdict;
use crate::verify::{prepare, VerifyOptions};

/// A text and the verdicts on its records.
///
/// Each record is judged with a search budget of its own ([`VerifyOptions::file_budget`]), where
/// `verify` shares one among the records of a file: so that a record's verdict does not depend on
/// the claims of the records before it, which an edit elsewhere may change. The two differ only
/// for a file whose claims need more searching in all than the file's budget allows.
#[derive(Clone, Debug)]
pub struct JudgedText {
    text: String,
    options: VerifyOptions,
    records: Vec<JudgedRecord>,
}

/// A record's verdict, and where the reader of the text can start again to find it.
#[derive(Clone, Debug, PartialEq)]
pub struct JudgedRecord {
    /// The verdict on the record.
    pub verdict: Verdict,
    /// A line before the record where the reader was between records: reading from there finds
    /// the records numbered from `from.found + 1`, this one among them.
    from: Resume,
}

impl JudgedText {
    /// Reads and judges every record of `text`.
    pub fn new(text: String, options: VerifyOptions) -> JudgedText {
        let records = read_from(&text, options, Resume::default(), |_| None).0;
        JudgedText { text, options, records }
    }

    /// The text as it stands.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The options the records are judged with.
    pub fn options(&self) -> VerifyOptions {
        self.options
    }

    /// The verdicts, one per record, in text order.
    pub fn verdicts(&self) -> impl ExactSizeIterator<Item = &Verdict> {
        self.records.iter().map(|r| &r.verdict)
    }

    /// The record whose span holds byte `at` (its last byte's end included).
    pub fn record_at(&self, at: usize) -> Option<&Verdict> {
        self.last_record_from(at).filter(|r| at <= r.span.end)
    }

    /// The last record that starts at or before byte `at`, whether or not it reaches it.
    pub fn last_record_from(&self, at: usize) -> Option<&Verdict> {
        let after = self.records.partition_point(|r| r.verdict.span.start <= at);
        Some(&self.records[..after].last()?.verdict)
    }

    /// Record `index` (1-based) as the reader finds it, read from the line before it where reading
    /// can start, not from the start of the text.
    pub fn found(&self, index: usize) -> Option<Found<'_>> {
        let from = self.records.get(index.checked_sub(1)?)?.from;
        record::read_window(&self.text, untagged(self.options), from, None).find(|f| f.index() == index)
    }

    /// Record `index` (1-based) replayed move by move: see [`crate::record_moves`].
    pub fn moves(&self, index: usize) -> Result<RecordMoves, (Span, String)> {
        let Some(found) = self.found(index) else {
            return Err((0..0, format!("there is no record {index} (the text has {})", self.records.len())));
        };
        found_moves(&self.text, &found, self.options)
    }

    /// Judges every record again with other options.
    pub fn set_options(&mut self, options: VerifyOptions) {
        *self = JudgedText::new(std::mem::take(&mut self.text), options);
    }

    /// Replaces bytes `range` of the text by `with` (both ends taken to the nearest character
    /// boundary at or before them, within the text), and judges again the records that touched.
    pub fn replace(&mut self, range: Span, with: &str) -> Rejudged {
        let start = floor_boundary(&self.text, range.start);
        let end = floor_boundary(&self.text, range.end).max(start);
        self.text.replace_range(start..end, with);
        self.rejudge(start, start + with.len(), with.len() as isize - (end - start) as isize)
    }

    /// Puts `text` in place of the text, and judges again the records the difference touches.
    pub fn set_text(&mut self, text: String) -> Rejudged {
        let old = std::mem::replace(&mut self.text, text);
        let (first, new_end) = differing(old.as_bytes(), self.text.as_bytes());
        if first == old.len() && first == self.text.len() {
            return Rejudged { kept: self.records.len(), ..Rejudged::default() };
        }
        self.rejudge(first, new_end, self.text.len() as isize - old.len() as isize)
    }

    /// Judges again the records an edit touched: the text now differs from the text the records
    /// were read in from byte `first` to byte `new_end` (of the text now), which is `grew` bytes
    /// longer. Reading starts again at the last point before `first` where the reader was between
    /// records, and stops at the first such point after `new_end`.
    fn rejudge(&mut self, first: usize, new_end: usize, grew: isize) -> Rejudged {
        // The last point strictly before the change: the line break before it is unchanged too, so
        // that lines start where they did (a `\r` the change follows with a `\n` is one break).
        let before = self.records.partition_point(|r| r.from.offset < first);
        let from = before.checked_sub(1).map_or_else(Resume::default, |k| self.records[k].from);
        let old = std::mem::take(&mut self.records);
        // Where the new reading is between records, past the change, at a point where the old one
        // was: the old reading's count of records found there.
        let same_point = |at: Resume| {
            if at.offset <= new_end {
                return None;
            }
            let old_at = at.offset.checked_add_signed(-grew)?;
            let k = old.partition_point(|r| r.from.offset < old_at);
            old.get(k).filter(|r| r.from.offset == old_at).map(|r| r.from.found)
        };
        let (fresh, rejoined) = read_from(&self.text, self.options, from, same_point);
        let mut records = old;
        let tail: Vec<JudgedRecord> = match rejoined {
            Some((at, old_found)) => {
                let renumbered = at.found as isize - old_found as isize;
                let moved = |mut r: JudgedRecord| {
                    r.verdict.move_by(grew, renumbered);
                    r.from.offset = r.from.offset.saturating_add_signed(grew);
                    r.from.found = r.from.found.saturating_add_signed(renumbered);
                    r
                };
                records.drain(old_found.min(records.len())..).map(moved).collect()
            }
            None => Vec::new(),
        };
        records.truncate(from.found);
        let cost = Rejudged { judged: fresh.len(), kept: records.len(), moved: tail.len() };
        records.extend(fresh);
        records.extend(tail);
        self.records = records;
        cost
    }
}

/// What an edit cost: how many records were judged again, and how many were kept as they were or
/// moved along the text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rejudged {
    /// Records read and judged again.
    pub judged: usize,
    /// Records before the edit, kept as they were.
    pub kept: usize,
    /// Records after the edit, whose verdicts were moved along the text.
    pub moved: usize,
}

/// The format of the records a numbered move line outside any record opens: the forced game's.
fn untagged(options: VerifyOptions) -> Option<crate::game::Format> {
    options.game.map(|g| GameKind::about(g).format)
}

/// Reads and judges the records of `text` from `from` on, until `rejoin` finds the reader between
/// records at a point where it gives the count of records an earlier reading had found there: then
/// the records read from that point on are left out, and the point is given with that count.
fn read_from(
    text: &str,
    options: VerifyOptions,
    from: Resume,
    rejoin: impl Fn(Resume) -> Option<usize>,
) -> (Vec<JudgedRecord>, Option<(Resume, usize)>) {
    let mut reader = record::read_window(text, untagged(options), from, None);
    let mut records = Vec::new();
    while let Some(found) = reader.next() {
        let at = reader.resume();
        if let Some(old_found) = rejoin(at) {
            // A record found while a published one was open is handed on after it: both come
            // from points at or after `at`.
            records.retain(|r: &JudgedRecord| r.verdict.index <= at.found);
            return (records, Some((at, old_found)));
        }
        let verdict = prepare(text, &found, options).finish(&mut options.file_budget());
        records.push(JudgedRecord { verdict, from: at });
    }
    (records, None)
}

/// The first byte where `old` and `new` differ, and where the differing stretch ends in `new`: the
/// rest is the same in both.
fn differing(old: &[u8], new: &[u8]) -> (usize, usize) {
    let first = same_run(old.iter(), new.iter(), old.chunks(64).zip(new.chunks(64)));
    let most = old.len().min(new.len()) - first;
    let last = same_run(old.iter().rev(), new.iter().rev(), old.rchunks(64).zip(new.rchunks(64))).min(most);
    (first, new.len() - last)
}

/// How many bytes two sequences share from their start: whole chunks compared at once, then byte
/// by byte.
fn same_run<'a>(
    a: impl Iterator<Item = &'a u8>,
    b: impl Iterator<Item = &'a u8>,
    chunks: impl Iterator<Item = (&'a [u8], &'a [u8])>,
) -> usize {
    let mut whole = 0;
    for (x, y) in chunks {
        if x.len() != y.len() || x != y {
            break;
        }
        whole += x.len();
    }
    whole + a.skip(whole).zip(b.skip(whole)).take_while(|(x, y)| x == y).count()
}

/// The character boundary of `text` at or before byte `at` (the end of the text past it).
pub fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}
