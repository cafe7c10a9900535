//! `referee.read`, `referee.open` and `referee.Record`: the records found in a text, each with its
//! verdict, and what can be had of it on demand (its moves, positions, document, canonical
//! layout).

use std::sync::{Arc, OnceLock};

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyAny;

use referee::convert::{self, ConvertError as Unconverted};
use referee::judge::Registry;
use referee::moves::RecordMoves;
use referee::record::{self, Found, Resume, Span};
use referee::report::{self, Source};
use referee::verify::{prepare, VerifyOptions};

use crate::errors::{convert_error, read_error};
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

/// What one record keeps, found and judged without the GIL.
struct Judged {
    index: usize,
    resume: Resume,
    span: Span,
    game: Option<&'static str>,
    status: &'static str,
    line: String,
}

/// Every record of `text`, judged in file order; `name` is the file reports name. The claims'
/// searches share the budget of a run of the command line, as `referee verify FILE` spends it, so
/// that a verdict is the line it prints even for a claim past the budget (which names the run's
/// searches, where `referee::verify_source` names the file's).
fn judge_all(text: &Arc<String>, name: &str, options: VerifyOptions) -> Vec<Judged> {
    let source = Source::new(name, Arc::clone(text));
    let mut budget = options.run_budget();
    let mut reader = record::read(text, options.reading());
    let mut judged = Vec::new();
    loop {
        // Where reading can start again to find this record: it is found again from there, rather
        // than from the start of the text, when its moves or its document are asked for.
        let resume = reader.resume();
        let Some(found) = reader.next() else { break };
        let v = prepare(text, &found, options).finish(&mut budget);
        judged.push(Judged {
            index: found.index(),
            resume,
            span: found.span(),
            game: v.game.map(|g| g.name),
            status: report::status_name(v.status),
            line: report::json_line(&source, &v),
        });
    }
    judged
}

fn records(py: Python<'_>, text: String, name: String, options: VerifyOptions) -> Vec<Record> {
    let text = Arc::new(text);
    let judged = py.detach(|| judge_all(&text, &name, options));
    let name: Arc<str> = name.into();
    judged
        .into_iter()
        .map(|j| Record {
            text: Arc::clone(&text),
            name: Arc::clone(&name),
            options,
            judged: j,
            replayed: OnceLock::new(),
        })
        .collect()
}

/// The records found in `text`, in order, each with its verdict (verified as `referee verify`
/// verifies a file; `name` is the file the verdicts name). `game` reads every record as that game,
/// as `--game` does.
#[pyfunction]
#[pyo3(signature = (text, *, name="<string>", game=None))]
pub fn read(py: Python<'_>, text: String, name: &str, game: Option<&str>) -> PyResult<Vec<Record>> {
    let options = options(game)?;
    Ok(records(py, text, name.to_string(), options))
}

/// The records of the file at `path`, as `read` finds them in its text. Raises ReadError when the
/// file cannot be read, or is not UTF-8 (with the line and column of the first bad byte).
#[pyfunction]
#[pyo3(signature = (path, *, game=None))]
pub fn open(py: Python<'_>, path: std::path::PathBuf, game: Option<&str>) -> PyResult<Vec<Record>> {
    let options = options(game)?;
    let name = path.display().to_string();
    let text = py.detach(|| referee::files::read_text(&path)).map_err(|why| read_error(py, &name, &why))?;
    Ok(records(py, text, name, options))
}

/// A record found in a text, with its verdict.
///
/// `verdict` is the JSON object `referee verify --format json` prints for the record, as a dict;
/// the moves, positions, document and canonical layout are made when asked for.
#[pyclass(module = "referee", name = "Record", frozen)]
pub struct Record {
    /// The whole text the record was found in (shared by its records).
    text: Arc<String>,
    name: Arc<str>,
    options: VerifyOptions,
    judged: Judged,
    replayed: OnceLock<Result<RecordMoves, (Span, String)>>,
}

impl Record {
    /// The record found again in the text, from where reading could start before it.
    fn found<T>(&self, work: impl FnOnce(&Found) -> T) -> Option<T> {
        let untagged = self.options.reading().map(|g| g.format);
        let index = self.judged.index;
        let found = record::read_window(&self.text, untagged, self.judged.resume, None).find(|f| f.index() == index)?;
        Some(work(&found))
    }

    /// The record replayed up to its first illegal move.
    fn replayed(&self, py: Python<'_>) -> &Result<RecordMoves, (Span, String)> {
        if let Some(r) = self.replayed.get() {
            return r;
        }
        // Replayed without the GIL, and outside the cell: a thread waiting for the cell must not
        // hold the GIL this one needs back.
        let r = py.detach(|| {
            self.found(|found| referee::moves::found_moves(&self.text, found, self.options))
                .unwrap_or_else(|| Err((0..0, "the record is not in its text".to_string())))
        });
        self.replayed.get_or_init(|| r)
    }

    /// The record's game document, read from where reading could start before it: a text that
    /// starts there reads as the whole text does from there, its records numbered from 1.
    fn document(&self, py: Python<'_>) -> PyResult<convert::GameDocument> {
        let Resume { offset, found } = self.judged.resume;
        let rest = &self.text[offset..];
        let index = self.judged.index - found;
        let options = self.options;
        py.detach(|| convert::document(rest, index, options)).map_err(|e| self.unconverted(py, e, offset))
    }

    /// A conversion refused, located in the whole text (the document was read from `offset`).
    fn unconverted(&self, py: Python<'_>, e: Unconverted, offset: usize) -> PyErr {
        let at = match &e {
            Unconverted::NotReplayed(v) => v
                .problems
                .iter()
                .find(|p| p.kind != referee::verdict::ProblemKind::Claim)
                .map(|p| report::line_col(&self.text, offset + p.span.start)),
            _ => None,
        };
        convert_error(py, &e.to_string(), at)
    }

    /// The position of `code`, reached after `ply` moves.
    fn position_at(&self, py: Python<'_>, code: &str, ply: usize) -> PyResult<Position> {
        match from_code(code) {
            Ok(pos) => Ok(Position::with_ply(pos, ply)),
            Err(e) => Err(crate::errors::code_error(py, code, &e)),
        }
    }
}

#[pymethods]
impl Record {
    /// The record's game (quarod, quadraphages, ...); None when it names none referee knows.
    #[getter]
    fn game(&self) -> Option<&'static str> {
        self.judged.game
    }

    /// Its place among the text's records, from 1.
    #[getter]
    fn index(&self) -> usize {
        self.judged.index
    }

    /// The name of the file (or text) it was found in, as its verdict gives it.
    #[getter]
    fn file(&self) -> &str {
        &self.name
    }

    /// valid, illegal, refuted, syntax_error or undecided.
    #[getter]
    fn status(&self) -> &'static str {
        self.judged.status
    }

    /// The verdict: the JSON object `referee verify --format json` prints for this record, as a
    /// dict (the fields of the README's table: status, moves, game_over, winner, score, position,
    /// errors with their line, column, message, rule, legal moves and alternatives, claims, notes).
    /// A new dict each time, read from the JSON line.
    #[getter]
    fn verdict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_object(py, &self.judged.line)
    }

    /// The verdict as the JSON line `referee verify --format json` prints.
    fn verdict_json(&self) -> &str {
        &self.judged.line
    }

    /// The record's own text, as found.
    #[getter]
    fn text(&self) -> &str {
        self.text.get(self.judged.span.clone()).unwrap_or_default()
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

    /// The record as a JSON game document, as `referee convert --to json` writes it (docs/json.md).
    /// Raises ConvertError when the record does not replay to its end.
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        Ok(convert::to_json(&self.document(py)?))
    }

    /// The record in its notation's canonical layout, as `referee convert --to canonical` writes it.
    /// Raises ConvertError when the record does not replay to its end.
    fn canonical(&self, py: Python<'_>) -> PyResult<String> {
        let doc = self.document(py)?;
        py.detach(|| convert::canonical_in(&doc, Registry)).map_err(|e| self.unconverted(py, e, 0))
    }

    fn __repr__(&self) -> String {
        format!(
            "<Record {} of {:?}: {}, {}>",
            self.judged.index,
            &*self.name,
            self.judged.game.unwrap_or("no game"),
            self.judged.status
        )
    }
}

impl Record {
    fn unstarted(&self, py: Python<'_>, span: &Span, why: &str) -> PyErr {
        let at = (span.end > span.start).then(|| report::line_col(&self.text, span.start));
        convert_error(py, why, at)
    }
}
