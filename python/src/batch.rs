//! `referee.verify`: every record of files and folders verified as `referee verify --format json`
//! verifies them, on a pool of threads of its own, without the GIL; the verdicts come to Python
//! one at a time, in input order, through a bounded channel.
//!
//! The inputs and the run are the command line's (`referee::files::collect` and
//! `referee::files::run`: folders walked the same way, each file once, small files verified side by
//! side and large ones as parallel streams, the claims' searches sharing one budget spent in input
//! order), so that every line is the one the command line prints.

use std::path::PathBuf;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Mutex;

use pyo3::prelude::*;

use referee::files::run::{verify_inputs, Sink};
use referee::files::{collect, Input, Unreadable};
use referee::report::{self, FileProblem, FileStatus, Source};
use referee::verdict::{Status, Verdict};

use crate::errors::read_error;
use crate::records::{json_object, options};

/// Verdict lines waiting for Python to take them: enough to keep the threads busy while Python
/// reads, few enough to hold little.
const WAITING: usize = 4096;

/// The receiver went away (the iterator was dropped): the run stops.
struct Closed;

/// Where a run's JSON lines go: to Python, through a bounded channel.
struct Lines(SyncSender<String>);

impl Sink<String> for Lines {
    type Stop = Closed;

    fn record(&mut self, _status: Status, line: String) -> Result<(), Closed> {
        self.0.send(line).map_err(|_| Closed)
    }

    fn problem(&mut self, p: FileProblem) -> Result<(), Closed> {
        self.0.send(report::file_json_line(&p)).map_err(|_| Closed)
    }
}

/// `-` names no file here: Python's own standard input is `referee.read(sys.stdin.read())`. What
/// the command line says on standard error (a link to nothing, a loop, a named pipe passed over)
/// is no verdict.
fn python_inputs(inputs: Vec<Input>) -> Vec<Input> {
    inputs
        .into_iter()
        .filter(|i| !matches!(i, Input::Note(_)))
        .map(|i| match i {
            Input::Stdin => Input::Problem(FileProblem {
                file: "<stdin>".into(),
                status: FileStatus::Unreadable,
                message:
                    "referee.verify reads files and folders: read standard input with referee.read(sys.stdin.read())"
                        .into(),
                at: None,
            }),
            other => other,
        })
        .collect()
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
                let inputs = python_inputs(collect(&paths, &extensions));
                let line = |source: &Source, v: &Verdict| report::json_line(source, v);
                let _ = verify_inputs(&inputs, options, line, &mut Lines(send));
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
