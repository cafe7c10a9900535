//! referee for Python: positions, records and verification of the six games, from the library.
//!
//! The extension module `referee._referee`; the package `referee` (python/referee/) re-exports it
//! and holds the type stubs. Work that takes time (verifying, replaying, counting) runs without
//! the GIL.

mod annotations;
mod batch;
mod errors;
mod feed;
mod position;
mod records;

use pyo3::prelude::*;

use referee::judge::{Games, Registry};

/// The names of the games referee knows, as `Position.start` and `game=` take them.
#[pyfunction]
fn games() -> Vec<&'static str> {
    Registry.abouts().iter().map(|a| a.name).collect()
}

/// Judges records of six abstract board games (Quadraphages, Hexaphages, Quarod, Petrify,
/// Vadrantir, Splinter Quad): positions and their legal moves, records and their verdicts.
#[pymodule]
fn _referee(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<position::Position>()?;
    m.add_class::<position::Moves>()?;
    m.add_class::<records::Record>()?;
    m.add_class::<records::Records>()?;
    m.add_class::<annotations::Move>()?;
    m.add_class::<batch::Verdicts>()?;
    m.add_class::<batch::VerdictObject>()?;
    m.add_function(wrap_pyfunction!(records::read, m)?)?;
    m.add_function(wrap_pyfunction!(records::open, m)?)?;
    m.add_function(wrap_pyfunction!(batch::verify, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add("IllegalMoveError", py.get_type::<errors::IllegalMoveError>())?;
    m.add("CodeError", py.get_type::<errors::CodeError>())?;
    m.add("ReadError", py.get_type::<errors::ReadError>())?;
    m.add("ConvertError", py.get_type::<errors::ConvertError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
