//! `referee.verify`: every record of files and folders verified as `referee verify --format json`
//! verifies them, on a pool of threads of its own, without the GIL; the verdicts come to Python
//! one at a time, in input order, through a bounded channel.
//!
//! The inputs and the run are the command line's (`referee::files::collect` and
//! `referee::files::run`: folders walked the same way, each file once, small files verified side by
//! side and large ones as parallel streams, the claims' searches sharing one budget spent in input
//! order), so that every line is the one the command line prints.

use std::path::PathBuf;
use std::sync::mpsc::{sync_channel, SyncSender};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyString};

use referee::files::run::{verify_inputs, Sink};
use referee::files::{collect, Input, Unreadable};
use referee::report::{self, FileProblem, FileStatus, Source};
use referee::verdict::{Status, Verdict};

use crate::errors::read_error;
use crate::feed::Feed;
use crate::records::{json_object, options};

/// Verdict lines waiting for Python to take them: enough to keep the threads busy while Python
/// reads, few enough to hold little.
const WAITING: usize = 4096;

/// The receiver went away (the iterator was dropped): the run stops.
struct Closed;

/// A verdict as the run hands it to Python: its JSON line, and the fields every user reads, taken
/// from the verdict where it was judged rather than read back from the line under the GIL.
struct Line {
    json: String,
    status: &'static str,
    file: String,
    index: Option<usize>,
    game: Option<&'static str>,
}

impl Line {
    fn of_record(source: &Source, v: &Verdict) -> Line {
        Line {
            json: report::json_line(source, v),
            status: report::status_name(v.status),
            file: source.name().to_string(),
            index: Some(v.index),
            game: v.game.map(|g| g.name),
        }
    }
}

/// Where a run's verdicts go: to Python, through a bounded channel.
struct Lines(SyncSender<Line>);

impl Sink<Line> for Lines {
    type Stop = Closed;

    fn record(&mut self, _status: Status, line: Line) -> Result<(), Closed> {
        self.0.send(line).map_err(|_| Closed)
    }

    fn problem(&mut self, p: FileProblem) -> Result<(), Closed> {
        let line =
            Line { json: report::file_json_line(&p), status: p.status.name(), file: p.file, index: None, game: None };
        self.0.send(line).map_err(|_| Closed)
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

/// One verdict of `referee.verify`: the JSON object `referee verify --format json` prints for a
/// record (or for an input that could not be read or holds no record), read as a mapping.
///
/// The fields every run reads (status, file, index, game) come with it; the whole object is read
/// from its JSON line the first time any other key is asked for. Reading every line into a dict as
/// it came cost the thread that runs Python more than verifying the record cost a core.
#[pyclass(module = "referee", name = "Verdict", frozen)]
pub struct VerdictObject {
    json: String,
    status: String,
    file: String,
    index: Option<usize>,
    game: Option<String>,
    object: PyOnceLock<Py<PyDict>>,
}

impl VerdictObject {
    fn of(line: Line) -> VerdictObject {
        VerdictObject {
            json: line.json,
            status: line.status.to_string(),
            file: line.file,
            index: line.index,
            game: line.game.map(str::to_string),
            object: PyOnceLock::new(),
        }
    }

    /// The whole object, read from the JSON line once.
    fn object<'py>(&self, py: Python<'py>) -> PyResult<&Bound<'py, PyDict>> {
        let object = self.object.get_or_try_init(py, || -> PyResult<Py<PyDict>> {
            Ok(json_object(py, &self.json)?.cast_into::<PyDict>()?.unbind())
        })?;
        Ok(object.bind(py))
    }
}

#[pymethods]
impl VerdictObject {
    /// A verdict from its JSON line, as `referee verify --format json` prints it.
    #[new]
    fn new(py: Python<'_>, json: String) -> PyResult<VerdictObject> {
        let object = json_object(py, &json)?.cast_into::<PyDict>()?;
        let text = |key: &str| -> PyResult<Option<String>> {
            object.get_item(key)?.filter(|v| !v.is_none()).map(|v| v.extract()).transpose()
        };
        let status = text("status")?.ok_or_else(|| PyValueError::new_err("a verdict's JSON object has a status"))?;
        let file = text("file")?.unwrap_or_default();
        let game = text("game")?;
        let index = object.get_item("index")?.filter(|v| !v.is_none()).map(|v| v.extract()).transpose()?;
        let verdict = VerdictObject { json, status, file, index, game, object: PyOnceLock::new() };
        let _ = verdict.object.set(py, object.unbind());
        Ok(verdict)
    }

    /// `valid`, `illegal`, `refuted`, `syntax_error`, `undecided`; for a whole input,
    /// `unreadable` or `no_record`.
    #[getter]
    fn status(&self) -> &str {
        &self.status
    }

    /// The file's name, as the command line prints it.
    #[getter]
    fn file(&self) -> &str {
        &self.file
    }

    /// The record's number in its file, from 1; None for a whole input's problem.
    #[getter]
    fn index(&self) -> Option<usize> {
        self.index
    }

    /// The record's game (`quarod`, …), None when it could not be told.
    #[getter]
    fn game(&self) -> Option<&str> {
        self.game.as_deref()
    }

    /// The JSON line itself, without its line end.
    #[getter]
    fn json(&self) -> &str {
        &self.json
    }

    /// The whole object as a new dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.object(py)?.copy()
    }

    fn __getitem__<'py>(&self, py: Python<'py>, key: &str) -> PyResult<Bound<'py, PyAny>> {
        match key {
            "status" => Ok(PyString::new(py, &self.status).into_any()),
            "file" => Ok(PyString::new(py, &self.file).into_any()),
            _ => self.object(py)?.as_any().get_item(key),
        }
    }

    #[pyo3(signature = (key, default=None, /))]
    fn get<'py>(&self, py: Python<'py>, key: &str, default: Option<Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyAny>> {
        match self.object(py)?.get_item(key)? {
            Some(value) => Ok(value),
            None => Ok(default.unwrap_or_else(|| py.None().into_bound(py))),
        }
    }

    fn __contains__(&self, py: Python<'_>, key: &str) -> PyResult<bool> {
        self.object(py)?.contains(key)
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.object(py)?.len())
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.object(py)?.as_any().try_iter()?.into_any())
    }

    fn keys<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.object(py)?.as_any().call_method0("keys")
    }

    fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.object(py)?.as_any().call_method0("values")
    }

    fn items<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.object(py)?.as_any().call_method0("items")
    }

    /// Equal to another verdict of the same JSON object, or to a dict holding that object.
    fn __eq__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        if let Ok(other) = other.cast::<VerdictObject>() {
            let same = other.get().json == self.json || self.object(py)?.eq(other.get().object(py)?)?;
            return Ok(PyBool::new(py, same).to_owned().into_any());
        }
        if other.is_instance_of::<PyDict>() {
            return Ok(PyBool::new(py, self.object(py)?.eq(other)?).to_owned().into_any());
        }
        Ok(py.NotImplemented().into_bound(py))
    }

    fn __repr__(&self) -> String {
        let index = self.index.map_or_else(|| "None".to_string(), |i| i.to_string());
        format!("Verdict(file={:?}, index={index}, status={:?})", self.file, self.status)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().into_any(), (slf.get().json.clone(),)))
    }
}

/// The verdicts of a run, as they come: each a [`VerdictObject`] (`referee.Verdict`), or with
/// `as_json` the JSON line itself.
#[pyclass(module = "referee", name = "Verdicts")]
pub struct Verdicts {
    /// The run's verdicts, from its thread.
    lines: Feed<Line>,
    /// Whether the lines are given as they are, not read into dicts.
    as_json: bool,
}

#[pymethods]
impl Verdicts {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let line = self.lines.next(py);
        match line {
            Some(line) if self.as_json => Ok(Some(PyString::new(py, &line.json).into_any().unbind())),
            Some(line) => Ok(Some(Py::new(py, VerdictObject::of(line))?.into_any())),
            None => {
                self.close(py);
                Ok(None)
            }
        }
    }

    /// Stops the run: the threads end once their records in hand are judged.
    fn close(&self, py: Python<'_>) {
        self.lines.close(py);
    }
}

/// The verdicts on every record of the files and folders `paths`, as `referee verify --format
/// json -j JOBS` prints them (one `Verdict` per line, in the same order), verified on `jobs`
/// threads (all cores when None or 0) without the GIL. A `Verdict` reads as the line's JSON object
/// (`v["problems"]`, `dict(v)`, `v == json.loads(line)`), with `status`, `file`, `index` and `game`
/// as attributes. Folders are walked for the files with one of the extensions `ext`; `game` reads
/// every record as that game. Raises ReadError at once when a path named does not exist; an input
/// that cannot be read later, or holds no record, gives the command line's object for it (status
/// unreadable or no_record). With `as_json`, each verdict comes as the JSON line itself (a str,
/// without its line end).
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
                let _ = verify_inputs(&inputs, options, Line::of_record, &mut Lines(send));
            })
        })
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    Ok(Verdicts { lines: Feed::new(lines, thread), as_json })
}
