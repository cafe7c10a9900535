//! `referee.verify`: every record of files and folders verified as `referee verify --format json`
//! verifies them, on a pool of threads of its own, without the GIL; the verdicts come to Python
//! one at a time, in input order, through a bounded channel.
//!
//! The inputs are the command line's (`referee::files::collect`: folders walked the same way, each
//! file once). The run is shaped as the command line's (`src/cli/verify.rs`): small files verified
//! side by side and large ones as parallel streams, the claims' searches sharing one budget spent
//! in input order, so that every line is the one the command line prints. (That run is written
//! twice, here and there, until it moves into the library with its sinks.)

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use rayon::prelude::*;

use referee::files::{collect, Input, Unreadable};
use referee::judge::Registry;
use referee::report::{self, FileProblem, FileStatus, Source};
use referee::search::SearchBudget;
use referee::stream::{verify_stream_with, InputError, Judged, StreamError, StreamOptions, Waiting};
use referee::verify::VerifyOptions;

use crate::errors::read_error;
use crate::records::{json_object, options};

/// Files at most this large are verified side by side, one per thread; larger ones one at a time,
/// their records side by side (as the command line does).
const SMALL: u64 = 1 << 20;

/// Verdict lines waiting for Python to take them: enough to keep the threads busy while Python
/// reads, few enough to hold little.
const WAITING: usize = 4096;

/// The receiver went away (the iterator was dropped): the run stops.
struct Closed;

/// What verifying an input gives, in order.
enum Piece {
    /// A record's JSON line.
    Line(String),
    /// A record whose claims wait for the run's budget, and the window it is reported from.
    Waiting(Waiting<Registry>, Arc<Source>),
    /// A problem with the whole input.
    Problem(FileProblem),
}

/// Verifies one file as a stream, handing what it gives to `emit` in order. The claims that need a
/// search are judged within `budget`; without one, their records are handed on waiting.
fn verify_input(
    path: &Path,
    options: VerifyOptions,
    mut stream: StreamOptions,
    mut budget: Option<&mut SearchBudget>,
    emit: &mut dyn FnMut(Piece) -> Result<(), Closed>,
) -> Result<(), Closed> {
    let name = path.display().to_string();
    let problem = |message: String, at: Option<(usize, usize)>| {
        Piece::Problem(FileProblem { file: name.clone(), status: FileStatus::Unreadable, message, at })
    };
    let input = match File::open(path) {
        Ok(f) => {
            stream.read_ahead = f.metadata().is_ok_and(|m| m.is_file());
            f
        }
        Err(e) => return emit(problem(format!("cannot open: {e}"), None)),
    };
    enum Written {
        Line(String),
        Waiting(Waiting<Registry>, Arc<Source>),
    }
    let result = verify_stream_with(
        input,
        options,
        stream,
        |stretch| Arc::new(Source::window(name.clone(), stretch.text.clone(), stretch.first_line)),
        |source, judged| match judged {
            Judged::Verdict(v) => Written::Line(report::json_line(source, &v)),
            Judged::Waiting(w) => Written::Waiting(w, Arc::clone(source)),
        },
        |stretch, written| {
            if let Some(skipped) = stretch.skipped {
                emit(problem(skipped.to_string(), Some((skipped.line, 1))))?;
            }
            for w in written {
                match (w, budget.as_deref_mut()) {
                    (Written::Line(line), _) => emit(Piece::Line(line))?,
                    (Written::Waiting(waiting, source), Some(budget)) => {
                        let v = waiting.finish(budget);
                        emit(Piece::Line(report::json_line(&source, &v)))?;
                    }
                    (Written::Waiting(waiting, source), None) => emit(Piece::Waiting(waiting, source))?,
                }
            }
            Ok(())
        },
    );
    match result {
        Ok(0) => emit(Piece::Problem(FileProblem {
            file: name.clone(),
            status: FileStatus::NoRecord,
            message: "no game record found: a record is a run of numbered move lines like \
                      `1. .... .... 1 a7a8 i3i2`, or PGN-style tags such as [Game \"Quarod\"] followed by \
                      numbered moves"
                .into(),
            at: None,
        })),
        Ok(_) => Ok(()),
        Err(StreamError::Sink(closed)) => Err(closed),
        Err(StreamError::Input(e)) => {
            let at = match e {
                InputError::NotUtf8 { line, column, .. } => Some((line, column)),
                _ => None,
            };
            emit(problem(e.to_string(), at))
        }
    }
}

/// A run: its options, the budget its searches share, where its lines go.
struct Run {
    options: VerifyOptions,
    parallel: bool,
    budget: SearchBudget,
    send: SyncSender<String>,
}

impl Run {
    fn send(&self, line: String) -> Result<(), Closed> {
        self.send.send(line).map_err(|_| Closed)
    }

    /// Sends one piece of an input's verification, in input order.
    fn apply(&mut self, piece: Piece) -> Result<(), Closed> {
        match piece {
            Piece::Line(line) => self.send(line),
            Piece::Waiting(waiting, source) => {
                let v = waiting.finish(&mut self.budget);
                self.send(report::json_line(&source, &v))
            }
            Piece::Problem(p) => self.send(report::file_json_line(&p)),
        }
    }

    /// Verifies the inputs in order: runs of small files side by side, the rest one at a time.
    fn all(&mut self, inputs: &[Input]) -> Result<(), Closed> {
        let small = |i: &Input| match i {
            Input::File(p) => std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.len() <= SMALL),
            _ => false,
        };
        let batch = if self.parallel { 4 * rayon::current_num_threads() } else { 1 };
        let mut rest = inputs;
        while let Some(first) = rest.first() {
            let run = if small(first) { rest.iter().take(batch).take_while(|i| small(i)).count() } else { 1 };
            let (now, later) = rest.split_at(run.max(1));
            rest = later;
            if let [one] = now {
                self.step(one)?;
                continue;
            }
            let options = self.options;
            let stream = StreamOptions { parallel: false, ..StreamOptions::default() };
            // Files verified side by side cannot spend the run's budget in input order: their
            // records whose claims need a search wait, to be judged here in turn.
            let spent = (self.budget.left == 0).then(|| self.budget.clone());
            let outcomes: Vec<Vec<Piece>> = now
                .par_iter()
                .map(|input| {
                    let mut pieces = Vec::new();
                    let mut spent = spent.clone();
                    if let Input::File(path) = input {
                        let _ = verify_input(path, options, stream, spent.as_mut(), &mut |p| {
                            pieces.push(p);
                            Ok(())
                        });
                    }
                    pieces
                })
                .collect();
            for pieces in outcomes {
                for p in pieces {
                    self.apply(p)?;
                }
            }
        }
        Ok(())
    }

    fn step(&mut self, input: &Input) -> Result<(), Closed> {
        match input {
            Input::Problem(p) => self.apply(Piece::Problem(p.clone())),
            Input::File(path) => {
                let stream = StreamOptions { parallel: self.parallel, ..StreamOptions::default() };
                let options = self.options;
                let mut budget = self.budget.clone();
                let send = self.send.clone();
                let done = verify_input(path, options, stream, Some(&mut budget), &mut |p| match p {
                    Piece::Line(line) => send.send(line).map_err(|_| Closed),
                    Piece::Problem(p) => send.send(report::file_json_line(&p)).map_err(|_| Closed),
                    // With the budget lent, no record waits.
                    Piece::Waiting(..) => Ok(()),
                });
                self.budget = budget;
                done
            }
            // `-` names no file here: Python's own standard input is `referee.read(sys.stdin.read())`.
            Input::Stdin => self.apply(Piece::Problem(FileProblem {
                file: "<stdin>".into(),
                status: FileStatus::Unreadable,
                message:
                    "referee.verify reads files and folders: read standard input with referee.read(sys.stdin.read())"
                        .into(),
                at: None,
            })),
            // What the command line says on standard error (a link to nothing, a loop, a named pipe
            // passed over) is no verdict.
            Input::Note(_) => Ok(()),
        }
    }
}

/// The verdicts of a run, as they come: each the JSON object `referee verify --format json` prints
/// for a record (or for an input that could not be read or holds no record), as a dict.
#[pyclass(module = "referee", name = "Verdicts")]
pub struct Verdicts {
    lines: Mutex<Option<Receiver<String>>>,
    /// Whether the lines are given as they are, not read into dicts.
    as_json: bool,
    /// The run's thread, joined once it has sent everything.
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
}

#[pymethods]
impl Verdicts {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let lines = &self.lines;
        // A line already waiting is taken without letting the GIL go and taking it back; the lock
        // is only tried, since a thread that holds it may be waiting for a line without the GIL,
        // and needs the GIL back to go on.
        let ready = match lines.try_lock() {
            Ok(guard) => guard.as_ref().and_then(|r| r.try_recv().ok()),
            Err(_) => None,
        };
        let line = ready.or_else(|| {
            py.detach(|| {
                let guard = lines.lock().unwrap_or_else(|e| e.into_inner());
                guard.as_ref().and_then(|r| r.recv().ok())
            })
        });
        match line {
            Some(line) if self.as_json => Ok(Some(pyo3::types::PyString::new(py, &line).into_any().unbind())),
            Some(line) => Ok(Some(json_object(py, &line)?.unbind())),
            None => {
                self.close(py);
                Ok(None)
            }
        }
    }

    /// Stops the run: the threads end once their records in hand are judged.
    fn close(&self, py: Python<'_>) {
        let receiver = self.lines.lock().unwrap_or_else(|e| e.into_inner()).take();
        drop(receiver);
        let thread = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(thread) = thread {
            py.detach(|| {
                let _ = thread.join();
            });
        }
    }
}

/// The verdicts on every record of the files and folders `paths`, as `referee verify --format
/// json -j JOBS` prints them (one dict per line, in the same order), verified on `jobs` threads
/// (all cores when None or 0) without the GIL. Folders are walked for the files with one of the
/// extensions `ext`; `game` reads every record as that game. Raises ReadError at once when a path
/// named does not exist; an input that cannot be read later, or holds no record, gives the
/// command line's object for it (status unreadable or no_record). With `as_json`, each verdict
/// comes as the JSON line itself (a str, without its line end), not read into a dict.
#[pyfunction]
#[pyo3(signature = (paths, jobs=None, *, game=None, ext=None, as_json=false))]
pub fn verify(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    jobs: Option<usize>,
    game: Option<&str>,
    ext: Option<Vec<String>>,
    as_json: bool,
) -> PyResult<Verdicts> {
    let paths: Vec<PathBuf> = match paths.extract::<PathBuf>() {
        Ok(one) => vec![one],
        Err(_) => paths.extract()?,
    };
    for path in &paths {
        if let Err(e) = std::fs::metadata(path) {
            let name = path.display().to_string();
            let why = Unreadable::System(format!("cannot open: {e}"), e.raw_os_error());
            return Err(read_error(py, &name, &why));
        }
    }
    let options = options(game)?;
    let extensions: Vec<String> = ext
        .unwrap_or_else(|| vec!["txt".into(), "pgn".into()])
        .iter()
        .map(|e| e.trim().trim_start_matches('.').to_ascii_lowercase())
        .filter(|e| !e.is_empty())
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .thread_name(|i| format!("referee-verify-{i}"))
        .build()
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    let (send, lines) = sync_channel(WAITING);
    let thread = std::thread::Builder::new()
        .name("referee-verify".into())
        .spawn(move || {
            pool.install(|| {
                let inputs = collect(&paths, &extensions);
                let mut run =
                    Run { options, parallel: rayon::current_num_threads() > 1, budget: options.run_budget(), send };
                let _ = run.all(&inputs);
            })
        })
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    Ok(Verdicts { lines: Mutex::new(Some(lines)), as_json, thread: Mutex::new(Some(thread)) })
}

impl Drop for Verdicts {
    fn drop(&mut self) {
        // The receiver goes first: the run sees it gone at its next line and ends; its thread is
        // left to end on its own, so that dropping an iterator never waits.
        if let Ok(mut lines) = self.lines.lock() {
            lines.take();
        }
    }
}
