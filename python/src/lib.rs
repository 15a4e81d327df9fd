//! gridpath for Python: the extension module `gridpath._core`, which the pure-Python package
//! `gridpath` re-exports.
//!
//! A thin layer over [`gridpath_core`]: it reads Python arguments into the engine's types
//! ([`args`], [`options`], cost arrays in [`costs`], files in [`load`]), runs the engine with the GIL
//! released ([`watch`], where Ctrl+C cancels a long search), and hands answers back as numpy
//! arrays ([`map`], [`path`], [`field`], [`scenario`], [`team`]). Every error becomes an exception of
//! [`errors`]; nothing panics on bad input.

mod args;
mod costs;
mod crowd;
mod drive;
mod errors;
mod field;
mod load;
mod map;
mod options;
mod path;
mod scenario;
mod team;
mod watch;

use pyo3::prelude::*;

/// The names of the search algorithms, as `find_path`'s `algorithm` takes them.
fn algorithm_names() -> Vec<&'static str> {
    gridpath_core::search::ALGORITHMS
        .iter()
        .map(|a| a.name)
        .collect()
}

/// The extension module.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<map::PyMap>()?;
    m.add_class::<path::PyPath>()?;
    m.add_class::<field::PyFlowField>()?;
    m.add_class::<scenario::PyScenarioReport>()?;
    m.add_class::<team::PyTeamPlan>()?;
    m.add_class::<crowd::PyCrowdRun>()?;
    m.add_class::<drive::PyDrive>()?;
    m.add_function(wrap_pyfunction!(scenario::run_scenario, m)?)?;
    m.add("Error", py.get_type::<errors::Error>())?;
    m.add("FileError", py.get_type::<errors::FileError>())?;
    m.add("MapError", py.get_type::<errors::MapError>())?;
    m.add("SearchError", py.get_type::<errors::SearchError>())?;
    m.add("ArgumentError", errors::argument_error(py)?)?;
    m.add("ArgumentTypeError", errors::argument_type_error(py)?)?;
    m.add("ScenarioError", py.get_type::<errors::ScenarioError>())?;
    m.add("ALGORITHMS", algorithm_names())?;
    let diagonals: Vec<&str> = gridpath_core::search::Diagonal::ALL
        .iter()
        .map(|d| d.name())
        .collect();
    m.add("DIAGONALS", diagonals)?;
    let heuristics: Vec<&str> = gridpath_core::search::Heuristic::ALL
        .iter()
        .map(|h| h.name())
        .collect();
    m.add("HEURISTICS", heuristics)?;
    let solvers: Vec<&str> = gridpath_core::mapf::MapfAlgorithm::all()
        .map(gridpath_core::mapf::MapfAlgorithm::name)
        .collect();
    m.add("TEAM_SOLVERS", solvers)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
