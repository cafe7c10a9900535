//! `referee.read`, `referee.open` and `referee.Record`: the records found in a text, each with its
//! verdict, and what can be had of it on demand (its moves, positions, annotations, document,
//! canonical layout, repairs, replay page).
//!
//! Records are found and judged by the library's stream (`referee::stream`), a window of text at a
//! time: `open` walks a file of any size in the memory of a window and the records waiting to be
//! taken, on a thread of its own. Each record keeps its own lines only (and the number of lines
//! before them, so that every place it gives is the file's); what is asked of it later is read
//! again from them.

use std::collections::HashMap;
use std::io::Read;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyAny, PyDict, PyList};

use referee::convert::{self, ConvertError as Unconverted, GameDocument};
use referee::files::Unreadable;
use referee::judge::Registry;
use referee::moves::RecordMoves;
use referee::record::{self, Found, Resume, Span};
use referee::render::svg::SvgOptions;
use referee::report::{self, Source};
use referee::stream::{verify_stream_with, InputError, Judged, StreamError, StreamOptions, Waiting};
use referee::verdict::Status;
use referee::verify::{prepare, VerifyOptions};

use crate::annotations::{self, Move};
use crate::errors::{convert_error, read_error};
use crate::feed::Feed;
use crate::position::{from_code, game_named, Position};

/// A verdict's JSON line as a dict: `json.loads`, so that it is exactly what the command line
/// prints, read as Python reads JSON.
pub fn json_object<'py>(py: Python<'py>, line: &str) -> PyResult<Bound<'py, PyAny>> {
    static LOADS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    LOADS.import(py, "json", "loads")?.call1((line,))
}

/// The options records are read with: the registry's games, `game` forcing one of them.
pub fn options(game: Option<&str>) -> PyResult<VerifyOptions> {
    Ok(VerifyOptions { game: game.map(game_named).transpose()?, ..VerifyOptions::default() })
}

/// The options of `read` and `open`: `game` as `--game`, `search_limit` as `--search-limit`,
/// `lenient` as `--lenient`.
fn read_options(game: Option<&str>, search_limit: Option<usize>, lenient: bool) -> PyResult<VerifyOptions> {
    let defaults = options(game)?;
    Ok(VerifyOptions { lenient, search_limit: search_limit.unwrap_or(defaults.search_limit), ..defaults })
}

/// What a record keeps of the text it was found in: the stretch it is read from alone as it was
/// read there ([`Extents`]), and its verdict, made where it was judged.
struct Kept {
    text: Arc<str>,
    /// How many records `text` holds before this one.
    nth: usize,
    /// Where the record is in `text`.
    span: Span,
    /// The lines of the file before `text`.
    lines_before: usize,
    index: usize,
    game: Option<&'static str>,
    status: &'static str,
    line: String,
}

impl Kept {
    /// The record a verdict of `window` (a stretch of the file, `source` the same) is on.
    fn of(window: &str, extents: &Extents, source: &Source, v: &referee::Verdict) -> Kept {
        let span = floor_boundary(window, v.span.start)..floor_boundary(window, v.span.end);
        // Every record of the window has its extent. Were one missing, the record would be read
        // from its first line to the window's end.
        let line_start = window[..span.start].rfind(['\n', '\r']).map_or(0, |i| i + 1);
        let (from, to, nth) = extents.get(&(span.start, span.end)).copied().unwrap_or((line_start, window.len(), 0));
        Kept {
            text: window[from..to].into(),
            nth,
            span: span.start.clamp(from, to) - from..span.end.clamp(from, to) - from,
            lines_before: source.line_col(from).0 - 1,
            index: v.index,
            game: v.game.map(|g| g.name),
            status: report::status_name(v.status),
            line: report::json_line(source, v),
        }
    }
}

/// Where each record of a window is read from alone, by its span: from where reading could start
/// again before it (`record::Resume`), to the first line start after it where the reader was
/// between records, and how many records that stretch holds before it. A record read from that
/// stretch is the record read in the window (a record's problems may lie outside its lines, as a
/// diagram before it or after it that cannot be read), and the stretch is about as long as the
/// record, whatever the window's length.
type Extents = HashMap<(usize, usize), (usize, usize, usize)>;

/// The extents of the records of a window, read once more, as the stream read it: from its start,
/// a point where reading can start again.
fn extents(window: &str, options: VerifyOptions) -> Extents {
    let mut reader = record::read_window(window, options.reading().map(|g| g.format), Resume::default(), None);
    let mut extents = Extents::new();
    // The records whose end is not known yet: their spans, where they are read from, and how many
    // records come before them from there.
    let mut open: Vec<(Span, usize, usize)> = Vec::new();
    loop {
        let before = reader.resume();
        match reader.next() {
            Some(found) => {
                let span = found.span();
                open.push((span, before.offset, found.index() - before.found - 1));
            }
            None if reader.paused() => {
                let at = reader.resume().offset;
                open.retain(|(span, from, nth)| {
                    let done = span.end <= at;
                    if done {
                        extents.insert((span.start, span.end), (*from, at, *nth));
                    }
                    !done
                });
            }
            None => break,
        }
        if let Some(end) = open.iter().map(|(span, ..)| span.end).min() {
            reader.pause_at(end);
        }
    }
    for (span, from, nth) in open {
        extents.insert((span.start, span.end), (from, window.len(), nth));
    }
    extents
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// What a stream of records gives, in order.
enum Item {
    Record(Kept),
    /// A part of the input skipped: a line or record too long to hold, in words.
    Skipped(String),
    /// The input could not be read to its end (the records before it came first).
    Failed(Unreadable),
}

/// The receiver went away (the iterator was dropped or closed): the stream stops.
struct Closed;

/// Finds and judges every record of `input` (named `name` in the verdicts), as `referee verify
/// FILE` does: the claims' searches share the budget of one run of the command line, spent in file
/// order, so that a verdict is the line it prints even for a claim past the budget. Each record,
/// and what stops the input, goes to `emit` in order.
fn judge_stream<R: Read + Send>(
    input: R,
    name: &str,
    options: VerifyOptions,
    read_ahead: bool,
    emit: &mut dyn FnMut(Item) -> Result<(), Closed>,
) {
    /// A window's text, where its records are read from, and its lines.
    struct Window {
        text: Arc<String>,
        extents: Extents,
        source: Source,
    }
    enum Made {
        Ready(Kept),
        Waiting(Waiting<Registry>, Arc<Window>),
    }
    let mut budget = options.run_budget();
    let stream = StreamOptions { read_ahead, ..StreamOptions::default() };
    let result = verify_stream_with(
        input,
        options,
        stream,
        |stretch| {
            let text = Arc::clone(stretch.text);
            let extents = extents(&text, options);
            let source = Source::window(name.to_string(), Arc::clone(&text), stretch.first_line);
            Arc::new(Window { text, extents, source })
        },
        |window, judged| match judged {
            Judged::Verdict(v) => Made::Ready(Kept::of(&window.text, &window.extents, &window.source, &v)),
            Judged::Waiting(w) => Made::Waiting(w, Arc::clone(window)),
        },
        |stretch, made| {
            if let Some(skipped) = stretch.skipped {
                emit(Item::Skipped(format!("{name}: {skipped}")))?;
            }
            for m in made {
                let kept = match m {
                    Made::Ready(kept) => kept,
                    Made::Waiting(w, window) => {
                        Kept::of(&window.text, &window.extents, &window.source, &w.finish(&mut budget))
                    }
                };
                emit(Item::Record(kept))?;
            }
            Ok(())
        },
    );
    let failed = match result {
        Ok(_) | Err(StreamError::Sink(Closed)) => return,
        Err(StreamError::Input(InputError::Read(e))) => {
            Unreadable::System(format!("cannot read: {e}"), e.raw_os_error())
        }
        Err(StreamError::Input(InputError::NotUtf8 { byte, line, column })) => {
            Unreadable::NotUtf8 { byte, line, column }
        }
    };
    let _ = emit(Item::Failed(failed));
}

/// A record of the stream, or the exception or warning it stands for.
fn taken(py: Python<'_>, item: Item, name: &Arc<str>, options: VerifyOptions) -> PyResult<Option<Record>> {
    match item {
        Item::Record(kept) => Ok(Some(Record::new(kept, Arc::clone(name), options))),
        Item::Skipped(words) => {
            py.import("warnings")?.call_method1("warn", (words,))?;
            Ok(None)
        }
        Item::Failed(why) => Err(read_error(py, name, &why)),
    }
}

/// The records found in `text`, in order, each with its verdict (verified as `referee verify`
/// verifies a file; `name` is the file the verdicts name). `game` reads every record as that game,
/// as `--game` does; `search_limit` is `--search-limit` (the most positions searched to judge a
/// result claimed before the game is over; 250,000 when None), `lenient` is `--lenient` (replay
/// past illegal moves that can still be played as written, listing every one).
#[pyfunction]
#[pyo3(signature = (text, *, name="<string>", game=None, search_limit=None, lenient=false))]
pub fn read(
    py: Python<'_>,
    text: String,
    name: &str,
    game: Option<&str>,
    search_limit: Option<usize>,
    lenient: bool,
) -> PyResult<Vec<Record>> {
    let options = read_options(game, search_limit, lenient)?;
    let mut items = Vec::new();
    py.detach(|| {
        judge_stream(text.as_bytes(), name, options, false, &mut |item| {
            items.push(item);
            Ok(())
        })
    });
    let name: Arc<str> = name.into();
    let mut records = Vec::with_capacity(items.len());
    for item in items {
        records.extend(taken(py, item, &name, options)?);
    }
    Ok(records)
}

/// Records found and judged, waiting to be taken: enough to keep the threads busy while Python
/// works on the ones taken, few enough to hold little.
const WAITING: usize = 256;

/// The records of the file at `path`, as `read` finds them in its text (with the same options),
/// one at a time as they are found and judged, on a thread of its own: a file of any size is walked
/// in bounded memory, each record keeping only its own lines. `list(referee.open(path))` is every
/// record of the file. Raises ReadError at once when the file cannot be opened; when it cannot be
/// read to its end, or is not UTF-8, the records before come first, then ReadError (with the line
/// and column of the first bad byte).
#[pyfunction]
#[pyo3(signature = (path, *, game=None, search_limit=None, lenient=false))]
pub fn open(
    py: Python<'_>,
    path: std::path::PathBuf,
    game: Option<&str>,
    search_limit: Option<usize>,
    lenient: bool,
) -> PyResult<Records> {
    let options = read_options(game, search_limit, lenient)?;
    let name = path.display().to_string();
    // Opened without the GIL: opening a named pipe waits for its writer, who may be Python.
    let file = py
        .detach(|| std::fs::File::open(&path))
        .map_err(|e| read_error(py, &name, &Unreadable::System(format!("cannot open: {e}"), e.raw_os_error())))?;
    let (send, items): (SyncSender<Item>, Receiver<Item>) = sync_channel(WAITING);
    let thread_name = name.clone();
    let thread = std::thread::Builder::new()
        .name("referee-open".into())
        .spawn(move || {
            // A file's reads never wait long: the next window is read while this one is judged.
            let read_ahead = file.metadata().is_ok_and(|m| m.is_file());
            judge_stream(file, &thread_name, options, read_ahead, &mut |item| send.send(item).map_err(|_| Closed));
        })
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    Ok(Records { items: Feed::new(items, thread), name: name.into(), options })
}

/// The records of a file, as `open` finds and judges them, one at a time: an iterator, and a
/// context manager that closes it (`with referee.open(path) as records: ...`).
#[pyclass(module = "referee", name = "Records", frozen)]
pub struct Records {
    /// What the thread that reads and judges finds.
    items: Feed<Item>,
    name: Arc<str>,
    options: VerifyOptions,
}

#[pymethods]
impl Records {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Record>> {
        loop {
            let item = self.items.next(py);
            let Some(item) = item else {
                self.close(py);
                return Ok(None);
            };
            let failed = matches!(item, Item::Failed(_));
            let record = taken(py, item, &self.name, self.options);
            if failed {
                self.close(py);
            }
            if let Some(record) = record? {
                return Ok(Some(record));
            }
        }
    }

    /// Stops reading: the thread ends once the records in hand are judged. The records already
    /// taken stay as they are.
    fn close(&self, py: Python<'_>) {
        self.items.close(py);
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_exc))]
    fn __exit__(&self, py: Python<'_>, _exc: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        self.close(py);
        false
    }

    fn __repr__(&self) -> String {
        format!("<Records of {:?}>", &*self.name)
    }
}

/// A conversion refused, kept to be raised again: its words and its place in the file.
type Refusal = (String, Option<(usize, usize)>);

/// A record found in a text, with its verdict.
///
/// `verdict` is the JSON object `referee verify --format json` prints for the record, as a dict;
/// the moves, positions, annotations, document, canonical layout, repairs and replay page are made
/// when first asked for, from the record's own lines, which it keeps (with their place in the
/// file: every line and column it gives is the file's).
#[pyclass(module = "referee", name = "Record", frozen)]
pub struct Record {
    kept: Kept,
    name: Arc<str>,
    options: VerifyOptions,
    replayed: OnceLock<Result<RecordMoves, (Span, String)>>,
    document: OnceLock<Result<GameDocument, Refusal>>,
}

impl Record {
    fn new(kept: Kept, name: Arc<str>, options: VerifyOptions) -> Record {
        Record { kept, name, options, replayed: OnceLock::new(), document: OnceLock::new() }
    }

    /// The record found again in its lines.
    fn found<T>(&self, work: impl FnOnce(&Found) -> T) -> Option<T> {
        let found = record::read(&self.kept.text, self.options.reading()).nth(self.kept.nth)?;
        Some(work(&found))
    }

    /// The line and column in the file of a byte offset of the record's lines.
    fn place(&self, offset: usize) -> (usize, usize) {
        let (line, column) = report::line_col(&self.kept.text, offset);
        (line + self.kept.lines_before, column)
    }

    /// The record replayed up to its first illegal move.
    fn replayed(&self, py: Python<'_>) -> &Result<RecordMoves, (Span, String)> {
        if let Some(r) = self.replayed.get() {
            return r;
        }
        // Replayed without the GIL, and outside the cell: a thread waiting for the cell must not
        // hold the GIL this one needs back.
        let r = py.detach(|| {
            self.found(|found| referee::moves::found_moves(&self.kept.text, found, self.options))
                .unwrap_or_else(|| Err((0..0, "the record is not in its text".to_string())))
        });
        self.replayed.get_or_init(|| r)
    }

    /// The record's game document (made once), or why there is none, raised as ConvertError.
    fn document(&self, py: Python<'_>) -> PyResult<&GameDocument> {
        let doc = match self.document.get() {
            Some(doc) => doc,
            None => {
                let options = self.options;
                let (text, index) = (&self.kept.text, self.kept.nth + 1);
                let made = py.detach(|| convert::document(text, index, options));
                let doc = made.map_err(|e| (e.to_string(), self.located(&e)));
                self.document.get_or_init(|| doc)
            }
        };
        doc.as_ref().map_err(|(words, at)| convert_error(py, words, *at))
    }

    /// Where in the file the problem that stops a conversion is, if it has a place.
    fn located(&self, e: &Unconverted) -> Option<(usize, usize)> {
        match e {
            Unconverted::NotReplayed(v) => v
                .problems
                .iter()
                .find(|p| p.kind != referee::verdict::ProblemKind::Claim)
                .map(|p| self.place(p.span.start)),
            _ => None,
        }
    }

    /// The position of `code`, reached after `ply` moves.
    fn position_at(&self, py: Python<'_>, code: &str, ply: usize) -> PyResult<Position> {
        match from_code(code) {
            Ok(pos) => Ok(Position::with_ply(pos, ply)),
            Err(e) => Err(crate::errors::code_error(py, code, &e)),
        }
    }

    fn unstarted(&self, py: Python<'_>, span: &Span, why: &str) -> PyErr {
        let at = (span.end > span.start).then(|| self.place(span.start));
        convert_error(py, why, at)
    }

    /// The record's lines as reports need them: named as the file, its lines numbered as there.
    fn source(&self) -> Source {
        Source::window(self.name.to_string(), Arc::new(self.kept.text.to_string()), self.kept.lines_before)
    }
}

#[pymethods]
impl Record {
    /// The record's game (quarod, quadraphages, ...); None when it names none referee knows.
    #[getter]
    fn game(&self) -> Option<&'static str> {
        self.kept.game
    }

    /// Its place among the text's records, from 1.
    #[getter]
    fn index(&self) -> usize {
        self.kept.index
    }

    /// The name of the file (or text) it was found in, as its verdict gives it.
    #[getter]
    fn file(&self) -> &str {
        &self.name
    }

    /// valid, illegal, refuted, syntax_error or undecided.
    #[getter]
    fn status(&self) -> &'static str {
        self.kept.status
    }

    /// The verdict: the JSON object `referee verify --format json` prints for this record, as a
    /// dict (the fields of the README's table: status, moves, game_over, winner, score, position,
    /// errors with their line, column, message, rule, legal moves and alternatives, claims, notes).
    /// A new dict each time, read from the JSON line.
    #[getter]
    fn verdict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_object(py, &self.kept.line)
    }

    /// The verdict as the JSON line `referee verify --format json` prints.
    fn verdict_json(&self) -> &str {
        &self.kept.line
    }

    /// The record's own text, as found.
    #[getter]
    fn text(&self) -> &str {
        self.kept.text.get(self.kept.span.clone()).unwrap_or_default()
    }

    /// The moves played, as the notation writes them, up to the first illegal one (none when the
    /// record cannot be replayed at all): each one `Position.play` takes.
    #[getter]
    fn moves(&self, py: Python<'_>) -> Vec<String> {
        match self.replayed(py) {
            Ok(r) => r.moves.iter().map(|m| m.written.clone()).collect(),
            Err(_) => Vec::new(),
        }
    }

    /// The position after `ply` moves (0: the start; None: the last one reached, before an illegal
    /// move if there is one). Raises ConvertError when the record has no start to replay from,
    /// IndexError past the moves played.
    #[pyo3(signature = (ply=None))]
    fn position(&self, py: Python<'_>, ply: Option<usize>) -> PyResult<Position> {
        let replayed = self.replayed(py).as_ref().map_err(|(span, why)| self.unstarted(py, span, why))?;
        let code = match ply {
            None => replayed.moves.last().map_or(&replayed.start_code, |m| &m.code),
            Some(0) => &replayed.start_code,
            Some(n) => match replayed.moves.get(n - 1) {
                Some(m) => &m.code,
                None => {
                    return Err(pyo3::exceptions::PyIndexError::new_err(format!(
                        "ply {n}: the record replays {} moves",
                        replayed.moves.len()
                    )))
                }
            },
        };
        self.position_at(py, code, ply.unwrap_or(replayed.moves.len()))
    }

    /// Every position of the replay, the start first.
    fn positions(&self, py: Python<'_>) -> PyResult<Vec<Position>> {
        let replayed = self.replayed(py).as_ref().map_err(|(span, why)| self.unstarted(py, span, why))?;
        let codes = std::iter::once(&replayed.start_code).chain(replayed.moves.iter().map(|m| &m.code));
        codes.enumerate().map(|(ply, code)| self.position_at(py, code, ply)).collect()
    }

    /// The record's tags, in the record's order, as a dict of str to str. The common format: its
    /// tag pairs as written (`Game`, `Size`, `Event`, ...; a name given twice keeps its first
    /// value). The published notation has no tags: its title line as written (`Title`:
    /// `QUADRAPHAGES`) and its column header's two tags (`Header`: `_xx_ _oo_`), when it has them.
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let pairs = self.found(|found| found.tags(&self.kept.text)).unwrap_or_default();
        let dict = PyDict::new(py);
        for (name, value) in pairs {
            if !dict.contains(&name)? {
                dict.set_item(name, value)?;
            }
        }
        Ok(dict)
    }

    /// The moves of the main line, each a `Move` with its glyphs, comments and variations, as the
    /// record's game document holds them (`to_json()`). Raises ConvertError when the record does
    /// not replay to its end.
    fn mainline(&self, py: Python<'_>) -> PyResult<Vec<Py<Move>>> {
        let doc = self.document(py)?;
        let lines = self.found(annotations::published_turns).flatten();
        annotations::mainline(py, doc, lines.as_deref())
    }

    /// The comments written before the first move, as written (without their braces, or the `;`
    /// of a comment to the line's end). Raises ConvertError as `mainline()` does.
    fn comments_before(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        Ok(annotations::texts(&self.document(py)?.before))
    }

    /// The comments written after the result. Raises ConvertError as `mainline()` does.
    fn comments_after(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        Ok(annotations::texts(&self.document(py)?.after_result))
    }

    /// The record as a JSON game document, as `referee convert --to json` writes it (docs/json.md).
    /// Raises ConvertError when the record does not replay to its end.
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        Ok(convert::to_json(self.document(py)?))
    }

    /// The record in its notation's canonical layout, as `referee convert --to canonical` writes it.
    /// Raises ConvertError when the record does not replay to its end.
    fn canonical(&self, py: Python<'_>) -> PyResult<String> {
        let doc = self.document(py)?;
        py.detach(|| convert::canonical_in(doc, Registry)).map_err(|e| convert_error(py, &e.to_string(), None))
    }

    /// The best repairs of a record with an illegal move, as `referee repair --format json` finds
    /// them (`limit` is `--candidates`, `max_edits` `--max-edits`, `time_limit` `--time-limit` in
    /// seconds): a list, best first, of the dicts of its `candidates` (edits with their line,
    /// column, from, to, kind; replays_to_end, violations_remaining, first_violation,
    /// final_cells_differing, claims), each with two more keys: `text`, the record's text with the
    /// repair made (what `repair --write` would write in its place), and `verifies`, whether that
    /// text verifies as valid. Empty when nothing is searched: the record has no illegal move, or
    /// cannot be judged. Searched without the GIL.
    #[pyo3(signature = (limit=3, *, max_edits=12, time_limit=10.0))]
    fn repair<'py>(
        &self,
        py: Python<'py>,
        limit: usize,
        max_edits: usize,
        time_limit: f64,
    ) -> PyResult<Bound<'py, PyList>> {
        if limit == 0 || max_edits == 0 {
            return Err(pyo3::exceptions::PyValueError::new_err("limit and max_edits are at least 1"));
        }
        if !(time_limit > 0.0 && time_limit.is_finite()) {
            return Err(pyo3::exceptions::PyValueError::new_err("time_limit is a positive number of seconds"));
        }
        let options = self.options;
        let repair = referee::repair::RepairOptions {
            max_edits,
            shown: limit,
            time_limit: Some(Duration::from_secs_f64(time_limit)),
            ..Default::default()
        };
        let text = &self.kept.text;
        let index = self.kept.index;
        let source = self.source();
        let searched = py.detach(|| {
            self.found(|found| {
                let mut budget = options.run_budget();
                let mut r = referee::repair::repair_record(text, found, options, repair, &mut budget);
                r.verdict.index = index;
                let line = report::repair_json(&source, &r);
                let made: Vec<(String, bool)> = r
                    .search
                    .iter()
                    .flat_map(|s| &s.candidates)
                    .map(|c| {
                        let repaired = referee::repair::repaired_text(text, &r.verdict.span, &c.changes);
                        let verifies = verifies(&repaired, options);
                        (repaired, verifies)
                    })
                    .collect();
                (line, made)
            })
        });
        let list = PyList::empty(py);
        let Some((line, made)) = searched else { return Ok(list) };
        let object = json_object(py, &line)?;
        let candidates = object.get_item("candidates")?;
        for (candidate, (repaired, verifies)) in candidates.try_iter()?.zip(made) {
            let candidate = candidate?;
            candidate.set_item("text", repaired)?;
            candidate.set_item("verifies", verifies)?;
            list.append(candidate)?;
        }
        Ok(list)
    }

    /// The replay page of the record, as `referee render --format html` writes it (default look):
    /// one self-contained HTML document, a picture of every position with steps through them, the
    /// record's text, its comments and variations, and its verdict. A record that cannot be drawn
    /// (a syntax error, no known start) gives a short page that says why.
    fn html(&self, py: Python<'_>) -> String {
        let options = self.options;
        py.detach(|| self.found(|found| self.page(found, options)).unwrap_or_else(|| self.undrawn(None)))
    }

    /// What a notebook shows: the replay page (`html()`) in an `<iframe>` of its own, so that its
    /// style and script stay in it.
    fn _repr_html_(&self, py: Python<'_>) -> String {
        let page = self.html(py);
        let mut escaped = String::with_capacity(page.len() + page.len() / 8);
        for c in page.chars() {
            match c {
                '&' => escaped.push_str("&amp;"),
                '"' => escaped.push_str("&quot;"),
                '<' => escaped.push_str("&lt;"),
                '>' => escaped.push_str("&gt;"),
                c => escaped.push(c),
            }
        }
        format!(
            "<iframe srcdoc=\"{escaped}\" title=\"{}\" style=\"width: 100%; height: {FRAME_HEIGHT}px; border: 0;\" \
             loading=\"lazy\"></iframe>",
            html_escape(&format!("{}, record {}", self.name, self.kept.index))
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "<Record {} of {:?}: {}, {}>",
            self.kept.index,
            &*self.name,
            self.kept.game.unwrap_or("no game"),
            self.kept.status
        )
    }
}

/// The height of a record's replay page in a notebook, in pixels: the board and the controls
/// under it, at the page's widths (the board takes at most two thirds of it).
const FRAME_HEIGHT: usize = 720;

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Whether a record's text, once repaired, reads as one record whose verdict is valid.
fn verifies(text: &str, options: VerifyOptions) -> bool {
    let mut budget = options.file_budget();
    let mut found = record::read(text, options.reading());
    let (Some(one), None) = (found.next(), found.next()) else { return false };
    prepare(text, &one, options).finish(&mut budget).status == Status::Valid
}

impl Record {
    /// The replay page of the record found again in its lines, as `referee render --format html`
    /// makes it.
    fn page(&self, found: &Found, options: VerifyOptions) -> String {
        let text = &self.kept.text;
        let mut verdict = prepare(text, found, options).finish(&mut options.file_budget());
        if matches!(verdict.status, Status::SyntaxError | Status::Undecided) {
            return self.undrawn(verdict.problems.first().map(|p| p.message.as_str()));
        }
        match referee::picture::pictures(text, self.kept.nth + 1, options) {
            Ok(pictures) => {
                verdict.index = self.kept.index;
                let scenes: Vec<_> = pictures.scenes.iter().collect();
                referee::picture::replay_page(&self.name, text, &pictures, &scenes, &verdict, &SvgOptions::default())
            }
            Err((_, why)) => self.undrawn(Some(&why)),
        }
    }

    /// A page for a record that cannot be drawn: its status, and why.
    fn undrawn(&self, why: Option<&str>) -> String {
        let status = self.kept.status.replace('_', " ");
        let title = format!("{}, record {}", self.name, self.kept.index);
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n</head>\n\
             <body>\n<p><strong>{status}</strong>: {}</p>\n<pre>{}</pre>\n</body>\n</html>\n",
            html_escape(&title),
            html_escape(why.unwrap_or("nothing to draw")),
            html_escape(self.text()),
        )
    }
}
