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
//!
//! Records are far apart in some texts (a long page of prose, or blank lines): so that an edit
//! there does not read the text from the last record on, the reader also pauses every
//! [`CHECKPOINT_BYTES`] of text where it is between records ([`record::Reader::pause_at`]) to
//! leave a checkpoint, and reading starts again, and stops, at checkpoints as at records.
//!
//! A claim that needs a search of every continuation (a record that stops before the game is over)
//! is not searched while the text is judged: the record waits, with its claim not yet judged,
//! until its search is run ([`JudgedText::next_search`], on any thread, with the text as it stood)
//! and its verdict put in ([`JudgedText::settle`]), if the record is still as it was. The searches
//! of a text share one budget ([`VerifyOptions::file_budget`]), spent in text order as `verify`
//! spends a run's: a record judged again gives back what its search spent.

use std::sync::Arc;

use crate::judge::{Games, Registry};
use crate::moves::{found_moves, RecordMoves};
use crate::record::{self, Found, Resume, Span};
use crate::search::{SearchBudget, Stop};
use crate::verdict::Verdict;
use crate::verify::{prepare, Prepared, VerifyOptions};

/// Most bytes read between two checkpoints, where reading can start again and stop.
pub const CHECKPOINT_BYTES: usize = 1 << 16;

/// A text and the verdicts on its records.
#[derive(Clone, Debug)]
pub struct JudgedText<S = Registry> {
    /// Shared with the searches running on it ([`Search`]): an edit while one runs copies it.
    text: Arc<String>,
    options: VerifyOptions<S>,
    records: Vec<JudgedRecord>,
    /// Points between records, in text order, one at least every [`CHECKPOINT_BYTES`] read.
    checkpoints: Vec<Resume>,
    /// The stamp of the next record judged.
    next_stamp: u64,
}

/// A record's verdict, and where the reader of the text can start again to find it.
#[derive(Clone, Debug, PartialEq)]
pub struct JudgedRecord {
    /// The verdict on the record: without the claims it waits to search, if it waits.
    pub verdict: Verdict,
    /// A line before the record where the reader was between records: reading from there finds
    /// the records numbered from `from.found + 1`, this one among them.
    from: Resume,
    /// Which judging of the record this is: kept while edits elsewhere only move the record, new
    /// when it is judged again.
    stamp: u64,
    /// Whether its claims wait for a search.
    waits: bool,
    /// The positions its claims' search solved, out of the text's budget.
    spent: usize,
}

/// A record of the text as the text stood when it was taken, to work on in another thread (the
/// text is shared, not copied: an edit meanwhile copies it).
#[derive(Clone, Debug)]
pub struct RecordCopy<S = Registry> {
    text: Arc<String>,
    options: VerifyOptions<S>,
    index: usize,
    from: Resume,
}

impl<S: Games> RecordCopy<S> {
    /// The whole text the record stands in.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The options the record is judged with.
    pub fn options(&self) -> VerifyOptions<S> {
        self.options
    }

    /// The record's number (1-based).
    pub fn index(&self) -> usize {
        self.index
    }

    /// The record as the reader finds it, read from the line before it.
    pub fn found(&self) -> Option<Found<'_>> {
        record::read_window(&self.text, untagged(self.options), self.from, None).find(|f| f.index() == self.index)
    }
}

/// The search a record's claims wait for, with what it needs to run on any thread: the record in
/// the text as it was when the search was given out, and what is left of the text's budget.
#[derive(Clone, Debug)]
pub struct Search<S = Registry> {
    record: RecordCopy<S>,
    stamp: u64,
    start: usize,
    budget: SearchBudget,
}

/// A search run: the verdict on its record with its claims judged, and what the search spent.
#[derive(Clone, Debug)]
pub struct Searched {
    stamp: u64,
    index: usize,
    start: usize,
    verdict: Verdict,
    spent: usize,
}

impl<S: Games> Search<S> {
    /// The number of the record whose claims wait (1-based).
    pub fn index(&self) -> usize {
        self.record.index
    }

    /// The signal that stops this search (see [`Stop`]), as a clone.
    pub fn stop(&self) -> Stop {
        self.budget.stop.clone()
    }

    /// Runs the search: finds the record again in the text and judges it, its claims within the
    /// budget.
    pub fn run(mut self) -> Searched {
        let (record, index) = (&self.record, self.record.index);
        let left = self.budget.left;
        let verdict = match record.found() {
            Some(found) => prepare(record.text(), &found, record.options).finish(&mut self.budget),
            // Never expected: the record was found at this point of this text before.
            None => Verdict::new(index, self.start..self.start, None),
        };
        Searched { stamp: self.stamp, index, start: self.start, verdict, spent: left - self.budget.left }
    }
}

impl Searched {
    /// The verdict, as it stands in the text the search was run on.
    pub fn verdict(&self) -> &Verdict {
        &self.verdict
    }
}

impl<S: Games> JudgedText<S> {
    /// Reads and judges every record of `text`, but for the claims that wait for a search.
    pub fn new(text: String, options: VerifyOptions<S>) -> JudgedText<S> {
        let mut judged =
            JudgedText { text: Arc::new(text), options, records: Vec::new(), checkpoints: Vec::new(), next_stamp: 0 };
        let read = judged.read_from(Resume::default(), &Earlier::none());
        judged.records = read.records;
        judged.checkpoints = read.checkpoints;
        judged
    }

    /// Reads and judges every record of `text`, the claims that need a search too, in text order
    /// within the text's budget: the verdicts `verify` gives.
    pub fn searched(text: String, options: VerifyOptions<S>) -> JudgedText<S> {
        let mut judged = JudgedText::new(text, options);
        while let Some(search) = judged.next_search() {
            judged.settle(search.run());
        }
        judged
    }

    /// The text as it stands.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The options the records are judged with.
    pub fn options(&self) -> VerifyOptions<S> {
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

    /// Whether record `index` (1-based) waits for the search of its claims.
    pub fn waits(&self, index: usize) -> bool {
        index.checked_sub(1).and_then(|k| self.records.get(k)).is_some_and(|r| r.waits)
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
    pub fn set_options(&mut self, options: VerifyOptions<S>) {
        *self = JudgedText::new(std::mem::take(Arc::make_mut(&mut self.text)), options);
    }

    /// The search the first record that waits needs, in text order, with what is left of the
    /// text's budget and a new signal to stop it; `None` when no record waits.
    pub fn next_search(&self) -> Option<Search<S>> {
        let r = self.records.iter().find(|r| r.waits)?;
        let spent: usize = self.records.iter().map(|r| r.spent).sum();
        let mut budget = self.options.file_budget();
        budget.left = budget.left.saturating_sub(spent);
        budget.stop = Stop::new();
        let record =
            RecordCopy { text: Arc::clone(&self.text), options: self.options, index: r.verdict.index, from: r.from };
        Some(Search { record, stamp: r.stamp, start: r.verdict.span.start, budget })
    }

    /// Record `index` (1-based) in the text as it stands, to work on in another thread.
    pub fn copy_of(&self, index: usize) -> Option<RecordCopy<S>> {
        let from = self.records.get(index.checked_sub(1)?)?.from;
        Some(RecordCopy { text: Arc::clone(&self.text), options: self.options, index, from })
    }

    /// The text as it stands, shared (an edit while it is held copies it).
    pub fn shared_text(&self) -> Arc<String> {
        Arc::clone(&self.text)
    }

    /// Whether the record `search` was given out for is still as it was then (edits elsewhere may
    /// have moved it): whether its verdict is still wanted.
    pub fn wants(&self, search: &Search<S>) -> bool {
        self.records.iter().any(|r| r.stamp == search.stamp && r.waits)
    }

    /// Puts in the verdict of a search, moved to where its record now is, if the record is still
    /// as it was when the search was given out; `false` (and nothing changes) when it is not.
    pub fn settle(&mut self, searched: Searched) -> bool {
        let Some(r) = self.records.iter_mut().find(|r| r.stamp == searched.stamp && r.waits) else { return false };
        let mut verdict = searched.verdict;
        verdict.move_by(
            r.verdict.span.start as isize - searched.start as isize,
            r.verdict.index as isize - searched.index as isize,
        );
        r.verdict = verdict;
        r.waits = false;
        r.spent = searched.spent;
        true
    }

    /// Replaces bytes `range` of the text by `with` (both ends taken to the nearest character
    /// boundary at or before them, within the text), and judges again the records that touched.
    pub fn replace(&mut self, range: Span, with: &str) -> Rejudged {
        let start = floor_boundary(&self.text, range.start);
        let end = floor_boundary(&self.text, range.end).max(start);
        Arc::make_mut(&mut self.text).replace_range(start..end, with);
        self.rejudge(start, start + with.len(), with.len() as isize - (end - start) as isize)
    }

    /// Puts `text` in place of the text, and judges again the records the difference touches.
    pub fn set_text(&mut self, text: String) -> Rejudged {
        let old = std::mem::replace(&mut self.text, Arc::new(text));
        let (first, new_end) = differing(old.as_bytes(), self.text.as_bytes());
        if first == old.len() && first == self.text.len() {
            return Rejudged { kept: self.records.len(), ..Rejudged::default() };
        }
        self.rejudge(first, new_end, self.text.len() as isize - old.len() as isize)
    }

    /// Judges again the records an edit touched: the text now differs from the text the records
    /// were read in from byte `first` to byte `new_end` (of the text now), which is `grew` bytes
    /// longer. Reading starts again at the last point before `first` where the reader was between
    /// records (before a record, or at a checkpoint), and stops at the first such point after
    /// `new_end`.
    fn rejudge(&mut self, first: usize, new_end: usize, grew: isize) -> Rejudged {
        // The last point strictly before the change: the line break before it is unchanged too, so
        // that lines start where they did (a `\r` the change follows with a `\n` is one break).
        let before = self.records.partition_point(|r| r.from.offset < first);
        let by_record = before.checked_sub(1).map_or_else(Resume::default, |k| self.records[k].from);
        let checked = self.checkpoints.partition_point(|c| c.offset < first);
        let by_checkpoint = checked.checked_sub(1).map_or_else(Resume::default, |k| self.checkpoints[k]);
        let from = if by_checkpoint.offset > by_record.offset { by_checkpoint } else { by_record };
        let old = std::mem::take(&mut self.records);
        let old_checkpoints = std::mem::take(&mut self.checkpoints);
        let earlier = Earlier { records: &old, checkpoints: &old_checkpoints, new_end, grew };
        let read = self.read_from(from, &earlier);
        let mut records = old;
        let mut checkpoints = old_checkpoints;
        let (tail, tail_checkpoints): (Vec<JudgedRecord>, Vec<Resume>) = match read.rejoined {
            Some((at, old_found)) => {
                let renumbered = at.found as isize - old_found as isize;
                let old_at = at.offset.saturating_add_signed(-grew);
                let moved_point = |mut p: Resume| {
                    p.offset = p.offset.saturating_add_signed(grew);
                    p.found = p.found.saturating_add_signed(renumbered);
                    p
                };
                let moved = |mut r: JudgedRecord| {
                    r.verdict.move_by(grew, renumbered);
                    r.from = moved_point(r.from);
                    r
                };
                let later = checkpoints.partition_point(|c| c.offset < old_at);
                (
                    records.drain(old_found.min(records.len())..).map(moved).collect(),
                    checkpoints.drain(later..).map(moved_point).collect(),
                )
            }
            None => (Vec::new(), Vec::new()),
        };
        records.truncate(from.found);
        checkpoints.truncate(checkpoints.partition_point(|c| c.offset <= from.offset));
        let read_to = read.rejoined.map_or(self.text.len(), |(at, _)| at.offset);
        let cost = Rejudged {
            judged: read.records.len(),
            kept: records.len(),
            moved: tail.len(),
            read: read_to.saturating_sub(from.offset),
        };
        records.extend(read.records);
        records.extend(tail);
        checkpoints.extend(read.checkpoints);
        checkpoints.extend(tail_checkpoints);
        self.records = records;
        self.checkpoints = checkpoints;
        cost
    }

    /// Reads and judges the records of the text from `from` on, until the reader is between records
    /// at a point where the `earlier` reading was too: then the records read from that point on
    /// are left out, and the point is given with the earlier reading's count of records there.
    /// The reader pauses every [`CHECKPOINT_BYTES`] or so, where it is between records, to leave a
    /// checkpoint there; past the change, it pauses at each point of the earlier reading too.
    fn read_from(&mut self, from: Resume, earlier: &Earlier) -> Reading {
        let text = Arc::clone(&self.text);
        let mut read = Reading::default();
        let mut reader = record::read_window(&text, untagged(self.options), from, None);
        let pause_after = |at: usize| {
            let checkpoint = at.saturating_add(CHECKPOINT_BYTES);
            earlier.point_after(at).map_or(checkpoint, |p| p.min(checkpoint))
        };
        reader.pause_at(pause_after(from.offset));
        loop {
            let found = reader.next();
            let at = reader.resume();
            if let Some(old_found) = earlier.found_at(at) {
                // A record found while a published one was open is handed on after it: both come
                // from points at or after `at`.
                read.records.retain(|r| r.verdict.index <= at.found);
                read.rejoined = Some((at, old_found));
                return read;
            }
            match found {
                Some(found) => {
                    let record = self.judge(&text, &found, at);
                    read.records.push(record);
                }
                None if reader.paused() => {
                    read.checkpoints.push(at);
                    reader.pause_at(pause_after(at.offset));
                }
                None => return read,
            }
        }
    }

    /// Judges a record found at `from`, but for the claims that need a search.
    fn judge(&mut self, text: &str, found: &Found, from: Resume) -> JudgedRecord {
        let stamp = self.next_stamp;
        self.next_stamp += 1;
        let (verdict, waits) = match prepare(text, found, self.options) {
            Prepared::Done(verdict) => (verdict, false),
            Prepared::Pending { verdict, .. } => (verdict, true),
        };
        JudgedRecord { verdict, from, stamp, waits, spent: 0 }
    }
}

/// The points where an earlier reading of the text was between records (before its records, and
/// at its checkpoints), and the change since: the text now differs from it up to byte `new_end`,
/// and is `grew` bytes longer.
struct Earlier<'a> {
    records: &'a [JudgedRecord],
    checkpoints: &'a [Resume],
    new_end: usize,
    grew: isize,
}

impl Earlier<'_> {
    /// No earlier reading: the text is read to its end.
    fn none() -> Earlier<'static> {
        Earlier { records: &[], checkpoints: &[], new_end: usize::MAX, grew: 0 }
    }

    /// The earlier reading's count of records found at `at` (of the text now), if it was between
    /// records there, past the change.
    fn found_at(&self, at: Resume) -> Option<usize> {
        if at.offset <= self.new_end {
            return None;
        }
        let old_at = at.offset.checked_add_signed(-self.grew)?;
        let k = self.records.partition_point(|r| r.from.offset < old_at);
        let by_record = self.records.get(k).filter(|r| r.from.offset == old_at).map(|r| r.from.found);
        let c = self.checkpoints.partition_point(|c| c.offset < old_at);
        by_record.or_else(|| self.checkpoints.get(c).filter(|c| c.offset == old_at).map(|c| c.found))
    }

    /// The first point of the earlier reading past the change and past byte `after` (of the text
    /// now), as a byte of the text now: a line start where a window may end.
    fn point_after(&self, after: usize) -> Option<usize> {
        let past = after.max(self.new_end);
        let old_past = past.checked_add_signed(-self.grew)?;
        let k = self.records.partition_point(|r| r.from.offset <= old_past);
        let c = self.checkpoints.partition_point(|c| c.offset <= old_past);
        let first = match (self.records.get(k), self.checkpoints.get(c)) {
            (Some(r), Some(c)) => r.from.offset.min(c.offset),
            (Some(r), None) => r.from.offset,
            (None, Some(c)) => c.offset,
            (None, None) => return None,
        };
        first.checked_add_signed(self.grew)
    }
}

/// What a reading of the text from a point found.
#[derive(Default)]
struct Reading {
    records: Vec<JudgedRecord>,
    checkpoints: Vec<Resume>,
    /// The point where it met an earlier reading, and that reading's count of records there.
    rejoined: Option<(Resume, usize)>,
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
    /// Bytes of the text read again.
    pub read: usize,
}

/// The format of the records a numbered move line outside any record opens: the forced game's.
fn untagged<S: Games>(options: VerifyOptions<S>) -> Option<crate::game::Format> {
    options.reading().map(|g| g.format)
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
