//! Verifying a text of any size read in chunks: memory stays flat whatever the input, and
//! verdicts come out as their records are judged.
//!
//! The text is held from the last point where the reader could start again ([`Resume`]) to the
//! last whole line read. Each window of held text is read with an open end: a record that depends
//! on text beyond the window is not handed on, and the next window, with more text, starts again
//! at the resume point; records handed on before are not handed on twice.
//!
//! A window is read when about [`StreamOptions::chunk`] bytes are held, and also whenever a read
//! returns less than it asked for: the input has nothing more for now (a pipe fed as its writer
//! goes, `tail -f games.log | referee verify -`), so what is complete is judged at once rather
//! than when the next megabyte arrives. At such a pause, a held text that ends with a whole
//! record whose end its notation marks (a common record's result token or final diagram, a
//! published record's final diagram or a blank line after its moves) is read as if the input
//! ended there, so that the last record written is judged too. The records of a window
//! are verified in parallel when asked (rayon). A record whose claims need a search is handed on
//! waiting for it ([`Judged::Waiting`]): searches share a budget (a file's, or a run's over many
//! files), and spending it in input order, as the caller does, keeps the verdicts independent of
//! which thread finished first. [`verify_stream`] spends a budget of the text's own, and its
//! verdicts are the same as [`crate::verify::verify_source`] gives on the whole text, in the same
//! order.
//!
//! A line or record longer than [`StreamOptions::max_held`] cannot be held: it is skipped, from
//! where the reader waits (the record's first line) up to the next blank line, and said
//! ([`Skipped`], in [`Stretch::skipped`]); the records after it are read and verified as any.

use std::fmt;
use std::io::{ErrorKind, Read};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

#[cfg(feature = "parallel")]
use rayon::prelude::*;

use crate::judge::Games;
use crate::record::{self, Found, Resume, TokenKind};
use crate::search::SearchBudget;
use crate::verdict::Verdict;
use crate::verify::{prepare, Prepared, VerifyOptions};

/// How to read a stream.
#[derive(Clone, Copy, Debug)]
pub struct StreamOptions {
    /// Verify the records of a window on all of rayon's threads (without the feature `parallel`,
    /// one after another, with the same verdicts).
    pub parallel: bool,
    /// How much text is read at a time (a window holds about this much, more for a longer record).
    pub chunk: usize,
    /// Read the next window while this one is judged (with `parallel`), for an input whose reads
    /// never wait long, such as a file: a read that waits for a pipe's writer would hold up the
    /// end of a stream whose sink has failed until the writer writes again.
    pub read_ahead: bool,
    /// Most text held at once (about; a read of `chunk` bytes more may pass it): a line or record
    /// longer than this is skipped ([`Skipped`]). [`MAX_HELD`] by default.
    pub max_held: usize,
}

impl Default for StreamOptions {
    fn default() -> Self {
        StreamOptions { parallel: true, chunk: 1 << 20, read_ahead: false, max_held: MAX_HELD }
    }
}

/// Most text held at once by default: a single line or record longer than this cannot be verified,
/// and is skipped.
pub const MAX_HELD: usize = 256 << 20;

/// A window of the text, as reports need it to locate and draw what its verdicts point at (spans
/// are offsets into `text`).
pub struct Stretch<'t> {
    /// The window's text.
    pub text: &'t Arc<String>,
    /// The lines of the whole text before this window.
    pub first_line: usize,
    /// Whether these are the window's first verdicts: the verdicts of a window come a few at a
    /// time ([`VERDICTS_HELD`]), so that a sink may prepare for the window once.
    pub first: bool,
    /// Whether these are the window's last verdicts: a sink lets go of the text then, since the
    /// stream keeps what it still needs of it.
    pub last: bool,
    /// A part of the input skipped here, in file order between the verdicts before and those
    /// after: a line or record too long to hold. The stretch then has no text and no verdicts, and
    /// `first_line` is the lines before the part.
    pub skipped: Option<Skipped>,
}

/// A part of the input that was not verified: a line, or a record, longer than
/// [`StreamOptions::max_held`], skipped from where it starts up to the next blank line (or the
/// end of the input), where reading starts again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The 1-based line where it starts: the record's first line, or the line itself.
    pub line: usize,
    /// The blank line that ends it; `None` when it runs to the end of the input.
    pub blank: Option<usize>,
    /// The most text held at once.
    pub max_held: usize,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let held = match self.max_held {
            n if n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
            n => format!("{n} bytes"),
        };
        write!(f, "line {} starts a line or record longer than {held}, more than referee holds at once: ", self.line)?;
        match self.blank {
            Some(blank) => write!(f, "skipped up to the blank line at line {blank}"),
            None => write!(f, "skipped to the end of the input"),
        }
    }
}

/// Why the text could not be read to its end (the records before were handed on).
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The input failed.
    #[error("cannot read: {0}")]
    Read(#[from] std::io::Error),
    /// The records wholly before the line of the bad byte were verified.
    #[error("not valid UTF-8: byte 0x{byte:02X} at line {line}, column {column}")]
    NotUtf8 {
        /// The byte.
        byte: u8,
        /// Its 1-based line in the text.
        line: usize,
        /// Its 1-based column (in characters) on that line.
        column: usize,
    },
}

/// What stopped a stream: its input, or the sink its verdicts went to.
#[derive(Debug)]
pub enum StreamError<E> {
    /// Reading the input failed, or it is not text.
    Input(InputError),
    /// The sink failed (a closed pipe, a full disk): its own error.
    Sink(E),
}

/// Verifies every record of `input`, handing the verdicts of each window to `sink` in file order;
/// returns how many records there were. The claims that need a search share the text's budget
/// ([`VerifyOptions::file_budget`]), spent in file order.
///
/// The text is held a window at a time: read until it holds `want` bytes of whole lines (or the
/// input pauses or ends), verified, handed on, and dropped but for what a record still open needs.
pub fn verify_stream<S: Games, R: Read + Send, E>(
    input: R,
    options: VerifyOptions<S>,
    stream: StreamOptions,
    mut sink: impl FnMut(&Stretch, Vec<Verdict>) -> Result<(), E>,
) -> Result<usize, StreamError<E>> {
    let mut budget = options.file_budget();
    verify_stream_with(
        input,
        options,
        stream,
        |_| (),
        |(), judged| judged,
        |stretch, judged| sink(stretch, judged.into_iter().map(|j| j.finish(&mut budget)).collect()),
    )
}

/// [`verify_stream`], each record turned into what `sink` takes (a report) by `render` on the
/// thread that judged it, side by side as the records are judged, and let go of there; a record
/// whose claims wait for a search comes to `render` as [`Judged::Waiting`], for the caller to
/// judge in file order with its budget. `window` makes what `render` needs of a window (where its
/// lines start), once, before the window's first verdict.
pub fn verify_stream_with<S: Games, R: Read + Send, W: Sync, T: Send, E>(
    mut input: R,
    options: VerifyOptions<S>,
    stream: StreamOptions,
    mut window: impl FnMut(&Stretch) -> W,
    render: impl Fn(&W, Judged<S>) -> T + Sync,
    mut sink: impl FnMut(&Stretch, Vec<T>) -> Result<(), E>,
) -> Result<usize, StreamError<E>> {
    let chunk_size = stream.chunk.max(1);
    let mut held = Held::new(chunk_size, stream.max_held);
    let mut from = Resume::default();
    let mut handed_on = 0;
    let mut want = chunk_size;
    // The whole lines held when a window was last read: a pause that adds none reads nothing.
    let mut read_upto = 0;
    // The text of the window before, given back once judged: the text read ahead is held in it.
    let mut spare = String::new();
    let mut paused = held.read(&mut input, want).map_err(StreamError::Input)?;
    loop {
        if paused && held.broken.is_none() && held.whole == read_upto {
            paused = held.read(&mut input, want).map_err(StreamError::Input)?;
            continue;
        }
        read_upto = held.whole;
        // A line or record too long to hold: the whole lines before it are read as at a pause,
        // and what the reader still waits at then is skipped, below.
        let overflow = held.overflow.is_some();
        let may_close = (paused || overflow) && held.broken.is_none() && held.whole == held.text.len();
        let text = Arc::new(std::mem::take(&mut held.text));
        let last = held.eof && held.broken.is_none() && !overflow;
        let end = if last { text.len() } else { held.whole };
        // Fresh flags for a read again: the first read may have raised its own.
        let (flags, again) = (open_flags(stream), open_flags(stream));
        let (found, mut resume, mut stopped) = window_records(&text[..end], options, from, last, handed_on, &flags);
        // At a pause, a text that ends with a whole record and its separator is read as closed.
        // Only what the reader waits for more at can be that record: what it waits at is read
        // again as the end of the text, if it is one. (Its records are kept apart from the others:
        // one list grown by the other would briefly hold a window's records twice.)
        let mut more = Vec::new();
        let mut closing = false;
        if may_close && stopped && ends_with_a_record(&text[resume.offset..end], options.game) {
            closing = true;
            let before = found.last().map_or(handed_on, |l| l.record.index());
            (more, resume, stopped) = window_records(&text[..end], options, resume, true, before, &again);
        }
        let records = found.len() + more.len();
        let broken = held.broken.take();
        let done = broken.is_some() || (held.eof && !stopped && !overflow);
        // Start again where the reader could (after a closed window, at its end), with more text;
        // when it could not move on, the window holds one long record: read twice as much before
        // trying again (unless a pause cut the window short).
        let resume = if closing { Resume { offset: end, found: handed_on + records } } else { resume };
        if resume.offset > 0 {
            want = chunk_size;
        } else if !paused {
            want = want.saturating_mul(2);
        }
        read_upto = read_upto.saturating_sub(resume.offset);
        from = Resume { offset: 0, found: resume.found };
        // The next window is read while this one is judged, when the input's reads never wait
        // long and the window moved on (one long record is held in place instead, not twice).
        let ahead = stream.read_ahead && stream.parallel && !done && !overflow && resume.offset > 0;
        let first_line = held.first_line;
        let read_ahead = std::thread::scope(|scope| {
            let reading = ahead.then(|| {
                let (held, input, text, spare) = (&mut held, &mut input, &text, std::mem::take(&mut spare));
                scope.spawn(move || {
                    held.hold_from(text, resume.offset, spare);
                    held.read(input, want)
                })
            });
            // A verdict can hold much more than its record's text (the board, the legal moves):
            // they are handed on a few at a time, not a window's worth at once.
            let batches = records.div_ceil(VERDICTS_HELD);
            let mut records = found.into_iter().chain(more);
            let mut made = None;
            for k in 0..batches {
                let batch: Vec<Located> = records.by_ref().take(VERDICTS_HELD).collect();
                let stretch = Stretch { text: &text, first_line, first: k == 0, last: k + 1 == batches, skipped: None };
                let made = &*made.get_or_insert_with(|| window(&stretch));
                let rendered = judge_records(&text, end, batch, options, stream, |j| render(made, j));
                handed_on += rendered.len();
                sink(&stretch, rendered).map_err(StreamError::Sink)?;
            }
            // A panic while reading ahead is the reader's own: passed on as it was.
            Ok(reading.map(|r| r.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))))
        })?;
        if let Some(e) = broken {
            return Err(StreamError::Input(e));
        }
        if done {
            return Ok(handed_on);
        }
        paused = match read_ahead {
            Some(read) => {
                // Kept for the window after next, unless a sink still holds it or a long record
                // made it large.
                spare = Arc::try_unwrap(text).ok().filter(|t| t.capacity() <= 4 * chunk_size).unwrap_or_default();
                read
            }
            None if overflow => {
                let skipped = held.skip(&mut input, &text, resume.offset).map_err(StreamError::Input)?;
                let nothing = Arc::default();
                let first_line = skipped.line - 1;
                let stretch = Stretch { text: &nothing, first_line, first: true, last: true, skipped: Some(skipped) };
                sink(&stretch, Vec::new()).map_err(StreamError::Sink)?;
                // What follows is new text: every record before it has been handed on.
                (read_upto, want, from) = (0, chunk_size, Resume { offset: 0, found: handed_on });
                match held.broken {
                    Some(_) => Ok(false),
                    None => held.read(&mut input, want),
                }
            }
            None => {
                held.keep_from(Arc::try_unwrap(text).unwrap_or_else(|shared| (*shared).clone()), resume.offset);
                held.read(&mut input, want)
            }
        }
        .map_err(StreamError::Input)?;
    }
}

/// The text held between two windows, and what reading it has met.
struct Held {
    /// The text read and not yet dropped: from line `first_line` of the input on.
    text: String,
    /// How many lines of the input come before `text`.
    first_line: usize,
    /// Bytes read that do not yet make whole characters.
    raw: Vec<u8>,
    /// The buffer each read fills.
    chunk: Vec<u8>,
    /// `whole_lines(&text)`, kept as text comes in: scanning all that is held after every read
    /// would cost the square of a long line's length.
    whole: usize,
    /// Whether the input has ended.
    eof: bool,
    /// Where the input stopped being UTF-8, if it did: the text is held up to the line before.
    broken: Option<InputError>,
    /// Most text held: past it, the text is cut to its whole lines, and the line it was cut in
    /// looked through for the blank line that ends what is skipped ([`Held::skip`]).
    max: usize,
    overflow: Option<BlankLine>,
}

impl Held {
    fn new(chunk_size: usize, max: usize) -> Held {
        Held {
            text: String::new(),
            first_line: 0,
            raw: Vec::new(),
            chunk: vec![0; chunk_size.min(1 << 20)],
            whole: 0,
            eof: false,
            broken: None,
            max,
            overflow: None,
        }
    }

    /// Reads until `want` bytes of whole lines are held, the input ends, or it pauses (a short
    /// read: it holds nothing more for now; a file gives one only at its end, so big files are
    /// still read in big pieces). Returns whether it paused.
    fn read(&mut self, input: &mut impl Read, want: usize) -> Result<bool, InputError> {
        let mut paused = false;
        while !self.eof && !paused && self.whole < want {
            let n = match input.read(&mut self.chunk) {
                Ok(n) => n,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e.into()),
            };
            self.eof = n == 0;
            paused = n > 0 && n < self.chunk.len();
            if !self.decode(n) {
                break;
            }
            if self.text.len() > self.max {
                // The line cut short is dropped, what it held looked through as what follows will be.
                let mut blank = BlankLine::default();
                let cut = [&self.text.as_bytes()[self.whole..], &self.raw].into_iter().find_map(|b| blank.end_in(b));
                debug_assert!(
                    cut.is_none(),
                    "a blank line ends only after a line end, and the text's last one is kept"
                );
                self.text.truncate(self.whole);
                self.raw.clear();
                self.overflow = Some(blank);
                return Ok(false);
            }
        }
        Ok(paused)
    }

    /// Skips what a window could not hold: its text from `from` on (the record or line the reader
    /// waits at), the rest of the line it was cut in, and all that follows up to the end of the
    /// next blank line; reading starts again after it, with that text held. `text` is the window,
    /// judged and let go of.
    fn skip(&mut self, input: &mut impl Read, text: &str, from: usize) -> Result<Skipped, InputError> {
        let line = self.first_line + count_lines(&text[..from]) + 1;
        let mut blank = self.overflow.take().unwrap_or_default();
        self.first_line += count_lines(text);
        (self.text, self.whole) = (String::new(), 0);
        loop {
            let n = match input.read(&mut self.chunk) {
                Ok(n) => n,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e.into()),
            };
            if n == 0 {
                self.eof = true;
                self.first_line += blank.lines;
                let blank = blank.ending.then_some(self.first_line);
                return Ok(Skipped { line, blank, max_held: self.max });
            }
            if let Some(end) = blank.end_in(&self.chunk[..n]) {
                self.first_line += blank.lines;
                self.chunk.copy_within(end..n, 0);
                self.decode(n - end);
                return Ok(Skipped { line, blank: Some(self.first_line), max_held: self.max });
            }
        }
    }

    /// Moves the whole characters of the `n` bytes just read into `chunk` (after those held back
    /// in `raw`) into the text; `false` when the input is not UTF-8, which is then `broken` and
    /// the text cut to the lines before the fault (the records wholly before it are still
    /// verified).
    fn decode(&mut self, n: usize) -> bool {
        // Most reads are whole characters after whole ones: they go straight into the text,
        // checked once, rather than through `raw` (this runs while no other thread has work).
        if self.raw.is_empty() {
            if let Ok(fresh) = std::str::from_utf8(&self.chunk[..n]) {
                let before = self.text.len();
                self.text.push_str(fresh);
                self.whole = whole_lines_since(&self.text, before, self.whole);
                return true;
            }
        }
        self.raw.extend_from_slice(&self.chunk[..n]);
        let good = match std::str::from_utf8(&self.raw) {
            Ok(_) => self.raw.len(),
            // An incomplete character at the end may be completed by the next read.
            Err(e) if e.error_len().is_none() && !self.eof => e.valid_up_to(),
            Err(e) => {
                self.text.push_str(std::str::from_utf8(&self.raw[..e.valid_up_to()]).unwrap_or_default());
                let line_start = whole_lines(&self.text);
                let column = record::without_bom(&self.text[line_start..]).chars().count() + 1;
                let line = self.first_line + count_lines(&self.text[..line_start]) + 1;
                self.broken = Some(InputError::NotUtf8 { byte: self.raw[e.valid_up_to()], line, column });
                self.text.truncate(line_start);
                self.whole = line_start;
                return false;
            }
        };
        let before = self.text.len();
        self.text.push_str(std::str::from_utf8(&self.raw[..good]).unwrap_or_default());
        self.raw.drain(..good);
        self.whole = whole_lines_since(&self.text, before, self.whole);
        true
    }

    /// Holds a copy of `text` from byte `offset` on, in `into`'s room, the lines before it dropped:
    /// `text` is still being judged.
    fn hold_from(&mut self, text: &str, offset: usize, mut into: String) {
        into.clear();
        into.push_str(&text[offset..]);
        self.keep_from(into, 0);
        self.first_line += count_lines(&text[..offset]);
    }

    /// Holds `text` again from byte `offset` on, the lines before it dropped.
    fn keep_from(&mut self, mut text: String, offset: usize) {
        self.first_line += count_lines(&text[..offset]);
        text.drain(..offset);
        self.whole = whole_lines(&text);
        self.text = text;
    }
}

/// Looks for the end of the next blank line (nothing but spaces and tabs) in bytes read piece after
/// piece, from the start of a line, counting the line ends on the way: `\n`, `\r\n` and a lone
/// `\r` each once, as [`count_lines`] does.
#[derive(Default)]
struct BlankLine {
    /// The current line holds more than blanks.
    filled: bool,
    /// The last byte was a `\r`, which a `\n` may complete.
    cr: bool,
    /// That `\r` ended a blank line: it is over once the next byte shows whether a `\n` is its.
    ending: bool,
    /// Line ends met.
    lines: usize,
}

impl BlankLine {
    /// Where in `bytes` (what follows those given before) the blank line ends, past its line end.
    fn end_in(&mut self, bytes: &[u8]) -> Option<usize> {
        let mut i = 0;
        while i < bytes.len() {
            // Of a line that holds more than blanks only its end matters: a long line (what is
            // skipped) is passed over at memchr's pace.
            if self.filled && !self.cr {
                i += memchr::memchr2(b'\n', b'\r', &bytes[i..])?;
            }
            let b = bytes[i];
            i += 1;
            if std::mem::take(&mut self.cr) && b == b'\n' {
                if std::mem::take(&mut self.ending) {
                    return Some(i);
                }
                continue;
            }
            if std::mem::take(&mut self.ending) {
                return Some(i - 1);
            }
            match b {
                b'\n' | b'\r' => {
                    self.lines += 1;
                    let blank = !std::mem::take(&mut self.filled);
                    match b {
                        b'\r' => (self.cr, self.ending) = (true, blank),
                        _ if blank => return Some(i),
                        _ => {}
                    }
                }
                b' ' | b'\t' => {}
                _ => self.filled = true,
            }
        }
        None
    }
}

/// Most verdicts held at once: the records of a window are judged and handed on this many at a
/// time. A verdict on an illegal move of a large board holds some kilobytes (its diagram, the legal
/// moves listed), so that a window of small records judged at once would hold hundreds of
/// megabytes.
pub const VERDICTS_HELD: usize = 256;

/// The records of `window` past the `handed_on` first ones of the text, from where the reader
/// resumes (`from`); `last` when the window ends the text. Also returns where reading can resume,
/// and whether the reader stopped before the window's end.
fn window_records<'w, S: Games>(
    window: &'w str,
    options: VerifyOptions<S>,
    from: Resume,
    last: bool,
    handed_on: usize,
    flags: &'w [AtomicBool],
) -> (Vec<Located<'w>>, Resume, bool) {
    let parts = flags.len() - 1;
    let (mut found, resume, stopped) = find(window, options.game, from, last, parts, flags);
    found.retain(|l| l.record.index() > handed_on);
    (found, resume, stopped)
}

/// A record found in a window, and a point before it where a reader of the window can start again
/// and find it (the reader's [`Resume`] once it had handed the record on), so that a record left
/// waiting can be found again without reading the window from its start.
struct Located<'w> {
    record: Found<'w>,
    from: Resume,
}

/// A record as the stream hands it to be rendered: judged, or waiting for the search of its
/// claims.
pub enum Judged<S = crate::judge::Registry> {
    /// The record's verdict, whole.
    Verdict(Verdict),
    /// The record's claims need a search, which draws on a budget that searches share: the caller
    /// judges it ([`Waiting::finish`]) when its turn comes, in input order.
    Waiting(Waiting<S>),
}

impl<S: Games> Judged<S> {
    /// The verdict, a waiting record's claims judged within `budget`.
    pub fn finish(self, budget: &mut SearchBudget) -> Verdict {
        match self {
            Judged::Verdict(v) => v,
            Judged::Waiting(w) => w.finish(budget),
        }
    }
}

/// A record whose claims wait for a search: the window it stands in (shared with the stream, which
/// copies what it still holds of the window if a waiting record outlives it) and where a reader
/// can find it again. It is found, prepared again and judged when its turn comes: cheaper than
/// keeping every record until then, and such records are few (a claim only a search can judge).
pub struct Waiting<S = crate::judge::Registry> {
    text: Arc<String>,
    /// The end of the window's text the record was read in.
    end: usize,
    /// Where a reader of the window finds the record again.
    from: Resume,
    index: usize,
    span: record::Span,
    options: VerifyOptions<S>,
}

impl<S: Games> Waiting<S> {
    /// The record's number in its text (1-based).
    pub fn index(&self) -> usize {
        self.index
    }

    /// The record's verdict, its claims judged within `budget`.
    pub fn finish(self, budget: &mut SearchBudget) -> Verdict {
        let window = &self.text[..self.end];
        let format = self.options.reading().map(|g| g.format);
        let found = record::read_window(window, format, self.from, None).find(|f| f.index() == self.index);
        match found {
            Some(found) => prepare(window, &found, self.options).finish(budget),
            None => {
                // Never expected: the reader finds the same records from a point where it could
                // start again, whatever came before (see `record::read_window`).
                debug_assert!(false, "record {} not found again from {:?}", self.index, self.from);
                Verdict::new(self.index, self.span, None)
            }
        }
    }
}

/// The flags the readers of a window's pieces raise at its open end: one per piece, and one for a
/// read again (see `find`).
fn open_flags(stream: StreamOptions) -> Vec<AtomicBool> {
    let parts = if stream.parallel { threads() } else { 1 };
    (0..=parts).map(|_| AtomicBool::new(false)).collect()
}

/// The records of `text[..end]`, each judged and `render`ed, side by side when `stream.parallel`;
/// a record whose claims need a search is rendered as [`Judged::Waiting`].
///
/// Each record and its verdict are let go of on the thread that judged it (a record's lists and
/// diagrams freed one after another on one thread took a tenth of its time).
fn judge_records<S: Games, T: Send>(
    text: &Arc<String>,
    end: usize,
    records: Vec<Located>,
    options: VerifyOptions<S>,
    stream: StreamOptions,
    render: impl Fn(Judged<S>) -> T + Sync + Send,
) -> Vec<T> {
    let window = &text[..end];
    map_in_order(records, stream.parallel, |Located { record, from }| {
        let judged = match prepare(window, &record, options) {
            Prepared::Done(v) => Judged::Verdict(v),
            Prepared::Pending { .. } => {
                let (index, span) = (record.index(), record.span());
                Judged::Waiting(Waiting { text: Arc::clone(text), end, from, index, span, options })
            }
        };
        render(judged)
    })
}

/// [`whole_lines`] of `text` when `before` was that of `text[..from]`: only what follows `from` is
/// scanned, and the byte before it, a `\r` that was held back until what follows it was read.
fn whole_lines_since(text: &str, from: usize, before: usize) -> usize {
    let start = from.saturating_sub(1);
    match whole_lines_of(&text.as_bytes()[start..]) {
        0 => before,
        n => start + n,
    }
}

/// Whether `text`, held at a pause and ending at a line end, ends with a whole record followed by
/// what ends it, so that what follows can only be a new record: its last record (read as if the
/// text ended here) is followed by nothing but blank lines, and it has ended by its notation. A
/// common-format record ends at its result token or its final diagram (a blank line does not end
/// it: its movetext may go on after one, and after its tags it has not begun); a published record
/// at its final diagram, or at a blank line after its moves, which ends its movetext. Text after
/// the last record (a title, a header, a start diagram, prose) may still be waiting for moves: then
/// the text is not closed either.
fn ends_with_a_record(text: &str, game: Option<&'static crate::game::About>) -> bool {
    let Some(last) = record::read(text, game).last() else { return false };
    let rest = &text[last.span().end.min(text.len())..];
    if !rest.trim().is_empty() {
        return false;
    }
    match &last {
        Found::Common(r) => {
            r.final_position.is_some() || r.tokens.last().is_some_and(|t| matches!(t.kind, TokenKind::Result { .. }))
        }
        Found::Published(r) => r.final_position.is_some() || count_lines(rest) >= 2,
    }
}

/// The records a reader finds in `window[..end]` from `from` on, numbered from 1, each with where
/// the reader could resume once it was handed on; where it could resume at the end, and whether it
/// stopped at an open end (`last`: the window ends the text).
#[allow(clippy::too_many_arguments)]
fn read_piece<'a>(
    window: &'a str,
    end: usize,
    game: Option<&'static crate::game::About>,
    from: usize,
    last: bool,
    open: &'a AtomicBool,
) -> (Vec<Located<'a>>, Resume, bool) {
    let start = Resume { offset: from, found: 0 };
    let mut reader = record::read_window(&window[..end], game.map(|g| g.format), start, (!last).then_some(open));
    let mut found = Vec::new();
    while let Some(record) = reader.next() {
        found.push(Located { record, from: reader.resume() });
    }
    (found, reader.resume(), reader.needs_more())
}

/// How many threads work side by side: rayon's, or one without the feature `parallel`.
fn threads() -> usize {
    #[cfg(feature = "parallel")]
    return rayon::current_num_threads();
    #[cfg(not(feature = "parallel"))]
    1
}

/// `f` of each item, in the items' order, each item let go of where `f` takes it: on rayon's
/// threads when `parallel` and the feature `parallel` is on, else one after another.
fn map_in_order<T: Send, R: Send>(items: Vec<T>, parallel: bool, f: impl Fn(T) -> R + Sync + Send) -> Vec<R> {
    #[cfg(feature = "parallel")]
    if parallel {
        return items.into_par_iter().map(f).collect();
    }
    let _ = parallel;
    items.into_iter().map(f).collect()
}

/// Pieces smaller than this are not read side by side.
const MIN_PIECE: usize = 64 << 10;

/// The records of a window, where it can resume, and whether it stopped at an open end.
///
/// With `parts` > 1 the window is cut into pieces at blank lines and the pieces are read side by
/// side, each as if nothing were waiting where it starts. That holds when the reader of the piece
/// before stopped with nothing waiting exactly at the cut; where it did not, the rest of the window
/// is read again in one piece from where that reader could resume. Either way the records are
/// those one reader finds in the whole window.
fn find<'a>(
    window: &'a str,
    game: Option<&'static crate::game::About>,
    from: Resume,
    last: bool,
    parts: usize,
    flags: &'a [AtomicBool],
) -> (Vec<Located<'a>>, Resume, bool) {
    let mut starts = vec![from.offset];
    // One flag per piece, the last one kept for a read again.
    let parts = parts.min(flags.len() - 1);
    starts.extend(cuts(window, from.offset, parts).into_iter().take(parts.saturating_sub(1)));
    let ends: Vec<usize> = starts[1..].iter().copied().chain([window.len()]).collect();
    let pieces: Vec<_> = map_in_order((0..starts.len()).collect(), parts > 1, |i| {
        let last_piece = i + 1 == ends.len();
        read_piece(window, ends[i], game, starts[i], last && last_piece, &flags[i])
    });
    let mut found = Vec::new();
    let mut before = from.found;
    let count = pieces.len();
    for (i, (records, resume, stopped)) in pieces.into_iter().enumerate() {
        let numbered = |records: Vec<Located<'a>>, before: usize| {
            records.into_iter().map(move |mut l| {
                l.record.set_index(before + l.record.index());
                l.from.found += before;
                l
            })
        };
        if i + 1 == count {
            found.extend(numbered(records, before));
            return (found, Resume { offset: resume.offset, found: before + resume.found }, stopped);
        }
        if resume.offset == ends[i] {
            let n = records.len();
            found.extend(numbered(records, before));
            before += n;
            continue;
        }
        // Something was still waiting at the cut: read on from where this piece could resume.
        found.extend(numbered(records.into_iter().filter(|l| l.record.index() <= resume.found).collect(), before));
        let at = before + resume.found;
        let again = &flags[flags.len() - 1];
        let (rest, r, stopped) = read_piece(window, window.len(), game, resume.offset, last, again);
        found.extend(numbered(rest, at));
        return (found, Resume { offset: r.offset, found: at + r.found }, stopped);
    }
    unreachable!("there is always a last piece")
}

/// Where to cut `window` from `from` on into about `parts` pieces: the starts of lines that follow
/// a blank line (LF or CRLF), at least [`MIN_PIECE`] apart. A line that opens a record of the
/// common format is preferred: a common record holds blank lines of its own (after its tags,
/// before its final diagram), and a cut there would have the rest of the window read again.
fn cuts(window: &str, from: usize, parts: usize) -> Vec<usize> {
    let b = window.as_bytes();
    let len = b.len().saturating_sub(from);
    if parts < 2 || len < 2 * MIN_PIECE {
        return Vec::new();
    }
    let step = (len / parts).max(MIN_PIECE);
    let after_blank = |p: usize| match (b[p], b[p + 1], b.get(p + 2)) {
        (b'\n', b'\n', _) => Some(p + 2),
        (b'\n', b'\r', Some(b'\n')) => Some(p + 3),
        _ => None,
    };
    let opens_record = |at: usize| {
        let line = &window[at..];
        let line = &line[..memchr::memchr2(b'\n', b'\r', line.as_bytes()).unwrap_or(line.len())];
        crate::record::common::opens_record(line)
    };
    let mut out: Vec<usize> = Vec::new();
    let mut target = from + step;
    while target + MIN_PIECE < b.len() {
        let end = b.len().saturating_sub(2);
        // Look a little way on for a record's first line before taking any blank line.
        let near = (target + step / 4).min(end);
        let blank = (target..near)
            .find_map(|p| after_blank(p).filter(|&c| c < b.len() && opens_record(c)))
            .or_else(|| (target..end).find_map(after_blank));
        match blank {
            Some(cut) if cut < b.len() && out.last().is_none_or(|&l| cut > l) => out.push(cut),
            _ => break,
        }
        target = out.last().map_or(target, |&l| l) + step;
    }
    out
}

/// The length of the whole lines at the start of `text`: up to its last line end (a `\r` at the
/// very end may be the first half of a `\r\n`, so it does not count).
fn whole_lines(text: &str) -> usize {
    whole_lines_of(text.as_bytes())
}

/// [`whole_lines`] of bytes.
fn whole_lines_of(b: &[u8]) -> usize {
    let last_end = |b: &[u8]| memchr::memrchr2(b'\n', b'\r', b);
    match last_end(b) {
        Some(i) if b[i] == b'\r' && i + 1 == b.len() => last_end(&b[..i]).map_or(0, |j| j + 1),
        Some(i) => i + 1,
        None => 0,
    }
}

/// How many line ends `text` holds: `\n`, `\r\n` and a lone `\r` each count once.
fn count_lines(text: &str) -> usize {
    let b = text.as_bytes();
    let lone_cr = memchr::memchr_iter(b'\r', b).filter(|&i| b.get(i + 1) != Some(&b'\n')).count();
    memchr::memchr_iter(b'\n', b).count() + lone_cr
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The records `find` gives, read in pieces, against one reader over the whole text; and each
    /// found again, the same, by a reader that starts where it was located (as a waiting record
    /// is).
    fn same_as_one_reader(text: &str, parts: usize) -> usize {
        let flags: Vec<AtomicBool> = (0..=parts).map(|_| AtomicBool::new(false)).collect();
        let (found, _, stopped) = find(text, None, Resume::default(), true, parts, &flags);
        let whole: Vec<Found> = record::read(text, None).collect();
        assert!(!stopped);
        assert!(found.iter().map(|l| &l.record).eq(whole.iter()));
        for Located { record, from } in &found {
            let again = record::read_window(text, None, *from, None).find(|f| f.index() == record.index());
            assert_eq!(again.as_ref(), Some(record), "record {} from {from:?}", record.index());
        }
        cuts(text, 0, parts).len()
    }

    #[test]
    fn records_read_in_pieces_side_by_side_are_those_of_one_reader() {
        // Published records whose final diagram follows a blank line (a cut there finds a record
        // still open), common records with a diagram after the result, and prose.
        let published = include_str!("../samples/quadraphages/designers-game-2.txt");
        let common = include_str!("../samples/quarod/random-size-8.txt");
        let text = format!("{published}\nSome prose.\n\n{common}\n").repeat(400);
        assert!(same_as_one_reader(&text, 4) > 0, "the text is cut");
        assert!(same_as_one_reader(&text.replace('\n', "\r\n"), 3) > 0, "CRLF text is cut");
        assert_eq!(same_as_one_reader(&text[..1000], 4), 0, "a short text is read in one piece");
    }

    #[test]
    fn common_records_are_cut_where_one_opens_not_at_their_own_blank_lines() {
        // Each Quarod record has blank lines inside it, after its tags and before its final diagram.
        let common = include_str!("../samples/quarod/random-size-8.txt");
        let text = format!("{common}\n").repeat(600);
        let cuts = cuts(&text, 0, 4);
        assert_eq!(cuts.len(), 3);
        assert!(cuts.iter().all(|&c| text[c..].starts_with("[Game")), "cut inside a record");
        assert_eq!(same_as_one_reader(&text, 4), 3);
    }

    /// An input that gives one piece per read, as a pipe does when its writer writes a piece and
    /// then waits: every read is short.
    struct Pieces(std::collections::VecDeque<String>);

    impl Read for Pieces {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let Some(piece) = self.0.front_mut() else { return Ok(0) };
            let n = piece.len().min(buf.len());
            buf[..n].copy_from_slice(&piece.as_bytes()[..n]);
            piece.drain(..n);
            if piece.is_empty() {
                self.0.pop_front();
            }
            Ok(n)
        }
    }

    /// The records verified from `pieces`, each a short read, and how many windows were read.
    fn streamed(pieces: &[String]) -> (Vec<Verdict>, Vec<usize>) {
        let input = Pieces(pieces.iter().cloned().collect());
        let options = VerifyOptions::default();
        let mut verdicts = Vec::new();
        let mut windows = Vec::new();
        let stream = StreamOptions { parallel: false, ..StreamOptions::default() };
        let n = verify_stream(input, options, stream, |_, v| {
            windows.push(v.len());
            verdicts.extend(v);
            Ok::<(), ()>(())
        });
        assert_eq!(n.ok(), Some(verdicts.len()));
        (verdicts, windows)
    }

    #[test]
    fn records_are_judged_at_a_pause_once_their_end_is_read() {
        let published = include_str!("../samples/quadraphages/random-seed-1.txt");
        let moves: String =
            published.lines().take_while(|l| !l.starts_with("Final")).map(|l| format!("{l}\n")).collect();
        let common = include_str!("../samples/quarod/random-size-8.txt");
        let result = common.find(" 1-0").expect("a result") + " 1-0\n".len();
        // Whole records, as a log appender writes them; then records written line by line, as a game
        // is logged while it is played: a published record's moves then a blank line, and a common
        // record's tags, the blank line after them and its moves up to its result.
        let mut pieces = vec![published.to_string(), common.to_string(), "Some prose.\n\n".to_string()];
        pieces.extend(moves.split_inclusive('\n').map(str::to_string));
        pieces.push("\n".into());
        pieces.extend(common[..result].split_inclusive('\n').map(str::to_string));
        pieces.push(common.to_string());
        let (verdicts, windows) = streamed(&pieces);
        let whole = crate::verify::verify_source(&pieces.concat(), VerifyOptions::default());
        let summary = |v: &[Verdict]| v.iter().map(|v| (v.index, v.status, v.moves)).collect::<Vec<_>>();
        assert_eq!(summary(&verdicts), summary(&whole));
        assert_eq!(verdicts.len(), 5);
        // Each record is judged on its own, before the next one is read.
        assert_eq!(windows, [1; 5]);
    }

    #[test]
    fn records_waiting_for_a_search_are_found_again_wherever_their_window_starts() {
        // Published records that stop before the end (one ended by a blank line, one by the next
        // title) and a common one, between prose: each claim needs a search, and the file's budget
        // (4 x 2,000 positions) runs out in the second round.
        let open = include_str!("../samples/quadraphages/claim-before-the-end-open.txt");
        let confirmed = include_str!("../samples/quadraphages/claim-before-the-end-confirmed.txt");
        let refuted = include_str!("../samples/quadraphages/broken/claim-before-the-end-refuted.txt");
        let opening = "[Game \"Quarod\"]\n[Size \"8\"]\n\n1. b6b7 a5a4 1-0\n";
        let round = format!("{open}\nSome prose.\n\n{opening}\n{confirmed}{refuted}\n");
        let options = VerifyOptions { search_limit: 2_000, ..VerifyOptions::default() };
        let summary = |v: &[Verdict]| {
            let claims = |v: &Verdict| v.claims.iter().map(|c| (c.status, c.detail.clone())).collect::<Vec<_>>();
            v.iter().map(|v| (v.index, v.status, claims(v))).collect::<Vec<_>>()
        };
        for text in [round.repeat(4), round.repeat(4).replace('\n', "\r\n")] {
            let whole = summary(&crate::verify::verify_source(&text, options));
            assert_eq!(whole.len(), 16);
            let details: Vec<&str> =
                whole.iter().flat_map(|(_, _, c)| c.iter().map(|(_, detail)| detail.as_str())).collect();
            assert!(details.iter().any(|d| d.ends_with("positions searched)")), "{details:#?}");
            assert!(
                details.iter().any(|d| d.contains("this file's searches have used up their budget")),
                "{details:#?}"
            );
            let mut readings: Vec<(String, Box<dyn Read + Send>, StreamOptions)> = Vec::new();
            for chunk in [64, 333, 1 << 20] {
                for parallel in [false, true] {
                    let stream = StreamOptions { parallel, chunk, read_ahead: parallel, ..StreamOptions::default() };
                    readings.push((format!("chunk {chunk}, parallel {parallel}"), Box::new(text.as_bytes()), stream));
                }
            }
            // A line a read, as a pipe gives records while they are written: windows end at pauses.
            let lines = Pieces(text.split_inclusive('\n').map(str::to_string).collect());
            readings.push(("a line a read".into(), Box::new(lines), StreamOptions::default()));
            for (how, input, stream) in readings {
                let mut verdicts = Vec::new();
                verify_stream(input, options, stream, |_, v| {
                    verdicts.extend(v);
                    Ok::<(), ()>(())
                })
                .expect("the text is UTF-8");
                assert_eq!(summary(&verdicts), whole, "{how}");
            }
        }
    }

    #[test]
    fn characters_cut_between_reads_are_read_whole() {
        // Names and comments of two- to four-byte characters, read 7 bytes at a time: most reads
        // end inside a character, which the next read completes.
        let common = include_str!("../samples/quarod/random-size-8.txt")
            .replacen("[Game", "[White \"Zoë Ω 漢字 🎲\"]\n[Game", 1)
            .replacen("1. ", "1. {é ∑ 🎲} ", 1);
        let text = format!("{common}\n").repeat(3);
        assert!((0..text.len()).step_by(7).any(|at| !text.is_char_boundary(at)), "a character is cut");
        let stream = StreamOptions { parallel: false, chunk: 7, read_ahead: false, ..StreamOptions::default() };
        let mut verdicts = Vec::new();
        verify_stream(text.as_bytes(), VerifyOptions::default(), stream, |_, v| {
            verdicts.extend(v);
            Ok::<(), ()>(())
        })
        .expect("the text is UTF-8");
        let whole = crate::verify::verify_source(&text, VerifyOptions::default());
        // Spans are the window's: the rest is the whole text's.
        let summary = |v: &[Verdict]| {
            v.iter().map(|v| (v.index, v.status, v.moves, v.claims.len(), v.position.clone())).collect::<Vec<_>>()
        };
        assert_eq!(verdicts.len(), 3);
        assert!(verdicts.iter().all(|v| v.status == crate::verdict::Status::Valid && v.claims.len() == 2));
        assert_eq!(summary(&verdicts), summary(&whole));
    }

    #[test]
    fn a_record_is_not_closed_at_a_pause_before_its_end() {
        // Tags and the blank line after them; moves that the next line may continue; a title waiting
        // for its moves: at each of these pauses nothing is judged yet.
        let common = include_str!("../samples/quarod/random-size-8.txt");
        let tags = &common[..common.find("\n\n").expect("tags") + 2];
        assert!(!ends_with_a_record(tags, None));
        assert!(!ends_with_a_record("_xx_ _oo_\n1. .... .... 1 a7a8 i3i2\n", None));
        assert!(!ends_with_a_record("_xx_ _oo_\n1. .... .... 1 a7a8 i3i2\n\nQUADRAPHAGES\n\n", None));
        assert!(ends_with_a_record("_xx_ _oo_\n1. .... .... 1 a7a8 i3i2\n\n", None));
        assert!(ends_with_a_record(common, None));
        let (verdicts, windows) = streamed(&[tags.to_string(), common[tags.len()..].to_string()]);
        assert_eq!((verdicts.len(), windows.len()), (1, 1));
    }

    #[test]
    fn whole_lines_kept_as_text_comes_in_are_those_of_the_whole_text() {
        // Every way of cutting these texts in three reads, CRLF pairs split included.
        for text in ["ab\r\ncd\r\n", "\r\r\n\n", "a\rb\r", "abc", "\n", "x\r\ny"] {
            for i in 0..=text.len() {
                for j in i..=text.len() {
                    let mut whole = whole_lines(&text[..i]);
                    whole = whole_lines_since(&text[..j], i, whole);
                    whole = whole_lines_since(text, j, whole);
                    assert_eq!(whole, whole_lines(text), "{text:?} read as {i}, {j}");
                }
            }
        }
    }

    #[test]
    fn a_blank_line_is_found_wherever_the_reads_cut_the_text() {
        // Where the blank line ends, and the line ends before that point, read in one piece.
        let texts = [
            ("long line\n\nnext", Some(11), 2),
            ("long\r\n \t\r\nnext", Some(10), 2),
            ("long\r\rnext", Some(6), 2),
            ("long\r\r\nnext", Some(7), 2),
            ("\nnext", Some(1), 1),
            ("a\nb\n  c\n", None, 3),
            ("a\r", None, 1),
        ];
        for (text, end, lines) in texts {
            let b = text.as_bytes();
            for i in 0..=b.len() {
                for j in i..=b.len() {
                    let mut blank = BlankLine::default();
                    let found = [(0, &b[..i]), (i, &b[i..j]), (j, &b[j..])]
                        .into_iter()
                        .find_map(|(at, piece)| blank.end_in(piece).map(|e| at + e));
                    // A `\r` that ends a blank line at the very end waits for what follows it.
                    let found = found.or((blank.ending && i == b.len()).then_some(b.len()));
                    assert_eq!((found, blank.lines), (end, lines), "{text:?} read as {i}, {j}");
                }
            }
        }
    }

    #[test]
    fn whole_lines_end_at_a_line_end_and_never_split_a_crlf() {
        assert_eq!(whole_lines("ab\ncd"), 3);
        assert_eq!(whole_lines("ab\r\ncd\r"), 4);
        assert_eq!(whole_lines("ab\rcd\r"), 3);
        assert_eq!(whole_lines("abc"), 0);
        assert_eq!(count_lines("a\r\nb\rc\nd"), 3);
    }
}
