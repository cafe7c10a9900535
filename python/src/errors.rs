//! The package's exceptions, each with where it went wrong as attributes.

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::IntoPyObjectExt;

use referee::files::Unreadable;
use referee::game::code::CodeError as Fault;

pyo3::create_exception!(
    referee,
    IllegalMoveError,
    PyValueError,
    "A move that is not legal in the position: `move`, `legal` (the legal moves), `code`."
);
pyo3::create_exception!(
    referee,
    CodeError,
    PyValueError,
    "A position code that describes no position: `code`, `offset` (0-based, in characters) and \
     `column` (1-based) of the fault."
);
pyo3::create_exception!(
    referee,
    ReadError,
    PyOSError,
    "A file that could not be read as text, as an OSError: `filename`, `errno` (the system's, or \
     EILSEQ when the file is not UTF-8, EFBIG when it is too large), `strerror`; `line` and \
     `column` of a byte that is not UTF-8 (else None)."
);
pyo3::create_exception!(
    referee,
    ConvertError,
    PyValueError,
    "A record that cannot be converted (it does not replay to its end): `line` and `column` of the \
     problem that stops it (None when it has no place)."
);

/// Most legal moves an IllegalMoveError's message lists (its `legal` holds them all).
const LISTED: usize = 32;

/// Sets the attributes `attrs` on the exception `err` raises.
fn with_attrs<'py>(py: Python<'py>, err: PyErr, attrs: &[(&str, Bound<'py, PyAny>)]) -> PyErr {
    let value = err.value(py);
    for (name, v) in attrs {
        // Setting an attribute of a fresh exception instance cannot fail.
        let _ = value.setattr(*name, v);
    }
    err
}

fn any<'py, T: IntoPyObjectExt<'py>>(py: Python<'py>, v: T) -> Bound<'py, PyAny> {
    v.into_bound_py_any(py).unwrap_or_else(|_| py.None().into_bound(py))
}

/// `written` is not legal in the position `code`, whose legal moves are `legal`.
pub fn illegal_move(py: Python<'_>, written: &str, why: &str, legal: Vec<String>, code: &str) -> PyErr {
    let listed = if legal.is_empty() {
        "none: the game is over".to_string()
    } else if legal.len() > LISTED {
        format!("{} … ({} in all)", legal[..LISTED].join(" "), legal.len())
    } else {
        legal.join(" ")
    };
    let err = IllegalMoveError::new_err(format!("{why}; the legal moves: {listed}"));
    with_attrs(py, err, &[("move", any(py, written)), ("legal", any(py, legal)), ("code", any(py, code))])
}

/// `code` describes no position: `fault` says where.
pub fn code_error(py: Python<'_>, code: &str, fault: &Fault) -> PyErr {
    let at = fault.at.min(code.len());
    // The fault's byte offset as characters: a code is ASCII, but the text given may not be.
    let offset = code.get(..at).map_or(at, |s| s.chars().count());
    // The fault's Display says where, as the command line prints it.
    let err = CodeError::new_err(format!("not a position code: {fault}"));
    with_attrs(py, err, &[("code", any(py, code)), ("offset", any(py, offset)), ("column", any(py, offset + 1))])
}

/// `path` could not be read (`why`, as the library's `referee::files::read_text` says it), raised
/// as Python's own OSError is (`[Errno 2] cannot open: No such file or directory: 'games.txt'`),
/// with `errno` (the system's, else `EILSEQ` for a byte that is not UTF-8 and `EFBIG` for a file
/// too large), `strerror`, `filename`, and the `line` and `column` of a byte that is not UTF-8.
pub fn read_error(py: Python<'_>, path: &str, why: &Unreadable) -> PyErr {
    let message = why.to_string();
    let errno = match why {
        Unreadable::System(_, errno) => *errno,
        Unreadable::NotUtf8 { .. } => python_errno(py, "EILSEQ"),
        Unreadable::TooLarge => python_errno(py, "EFBIG"),
    };
    let strerror = match why {
        Unreadable::System(_, Some(errno)) => message.strip_suffix(&format!(" (os error {errno})")).unwrap_or(&message),
        _ => &message,
    };
    let err = ReadError::new_err((errno, strerror.to_string(), path.to_string()));
    let (line, column) = match why {
        Unreadable::NotUtf8 { line, column, .. } => (Some(*line), Some(*column)),
        _ => (None, None),
    };
    with_attrs(py, err, &[("line", any(py, line)), ("column", any(py, column))])
}

/// The platform's number of a POSIX error, as Python's `errno` module gives it.
fn python_errno(py: Python<'_>, name: &str) -> Option<i32> {
    py.import("errno").and_then(|m| m.getattr(name)).and_then(|n| n.extract()).ok()
}

/// A record that cannot be converted, `at` the line and column of what stops it.
pub fn convert_error(py: Python<'_>, message: &str, at: Option<(usize, usize)>) -> PyErr {
    let (line, column) = at.unzip();
    let text = match at {
        Some((l, c)) => format!("{message} (line {l}, column {c})"),
        None => message.to_string(),
    };
    with_attrs(py, ConvertError::new_err(text), &[("line", any(py, line)), ("column", any(py, column))])
}
