//! The exceptions of the module: one base, [`Error`], with a class for each kind of failure,
//! each carrying `file` and `place` attributes (`None` where unknown) besides its message.

use std::path::Path;

use gridpath_core::format::level::LevelError;
use gridpath_core::format::save::SaveError;
use gridpath_core::format::{FormatError, ImportError, LoadError, MAX_MESSAGE, shorten};
use gridpath_core::grid::GridError;
use gridpath_core::search::SearchError as CoreSearchError;
use gridpath_core::smooth::SmoothError;
use pyo3::exceptions::{PyException, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

pyo3::create_exception!(
    gridpath,
    Error,
    PyException,
    "The base of every gridpath error. `file` names the file at fault and `place` the place \
     in it (a line and column, a row, a cell), each `None` where unknown."
);
pyo3::create_exception!(
    gridpath,
    FileError,
    Error,
    "A map, scenario or image file that cannot be read or written: missing, too large, \
     malformed (with the line, row or column in `place`), or of an unknown type."
);
pyo3::create_exception!(
    gridpath,
    MapError,
    Error,
    "A map that cannot be built: an array of the wrong shape, a cost or height out of range, \
     too many distinct costs."
);
pyo3::create_exception!(
    gridpath,
    SearchError,
    Error,
    "A search that cannot run: an endpoint off the map or on an impassable cell, or an \
     algorithm that refuses the map or the request (`place` names the cell at fault)."
);
pyo3::create_exception!(
    gridpath,
    ScenarioError,
    FileError,
    "A Moving AI scenario that cannot be run: no queries, or queries for a map of another \
     size (`place` names the line)."
);

/// The docstring of [`argument_error`].
const ARGUMENT_ERROR_DOC: &str = "An argument with a bad value: an unknown algorithm, diagonal \
    rule or heuristic, a weight or penalty out of range, a negative count, a cell off the \
    numbers (negative, fractional, NaN). Also a ValueError, as Python's own functions raise \
    for such values; the message names the argument and the value it got.";

/// The docstring of [`argument_type_error`].
const ARGUMENT_TYPE_ERROR_DOC: &str = "An argument of the wrong type: None or a number where \
    a name is needed, a string where a number is, a float where a whole number or a cell is. \
    An ArgumentError, and also a TypeError, as Python's own functions raise for such values.";

/// `ArgumentError`, made once per interpreter.
static ARGUMENT_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `ArgumentTypeError`, made once per interpreter.
static ARGUMENT_TYPE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// A class of the module `gridpath` with several bases, made as Python's `class` statement
/// makes it (`create_exception!` takes one base only).
fn class_with_bases<'py>(
    py: Python<'py>,
    name: &str,
    doc: &str,
    bases: &[Bound<'py, PyType>],
) -> PyResult<Py<PyType>> {
    let namespace = PyDict::new(py);
    namespace.set_item("__module__", "gridpath")?;
    namespace.set_item("__doc__", doc)?;
    let bases = PyTuple::new(py, bases)?;
    let class = py.get_type::<PyType>().call1((name, bases, namespace))?;
    Ok(class.cast_into::<PyType>()?.unbind())
}

/// `gridpath.ArgumentError`: an [`Error`] and a `ValueError`, as numpy's `AxisError` is both
/// its own error and Python's.
pub fn argument_error(py: Python<'_>) -> PyResult<Bound<'_, PyType>> {
    ARGUMENT_ERROR
        .get_or_try_init(py, || {
            class_with_bases(
                py,
                "ArgumentError",
                ARGUMENT_ERROR_DOC,
                &[py.get_type::<Error>(), py.get_type::<PyValueError>()],
            )
        })
        .map(|class| class.bind(py).clone())
}

/// `gridpath.ArgumentTypeError`: an [`argument_error`] and a `TypeError`.
pub fn argument_type_error(py: Python<'_>) -> PyResult<Bound<'_, PyType>> {
    ARGUMENT_TYPE_ERROR
        .get_or_try_init(py, || {
            class_with_bases(
                py,
                "ArgumentTypeError",
                ARGUMENT_TYPE_ERROR_DOC,
                &[argument_error(py)?, py.get_type::<PyTypeError>()],
            )
        })
        .map(|class| class.bind(py).clone())
}

/// Builds an exception of class `T` with its `file` and `place` attributes.
pub fn raise<T: pyo3::PyTypeInfo>(
    message: &str,
    file: Option<&Path>,
    place: Option<String>,
) -> PyErr {
    let err = PyErr::new::<T, _>(shorten(message, MAX_MESSAGE));
    with_attributes(err, file, place)
}

/// Sets an exception's `file` and `place` attributes.
fn with_attributes(err: PyErr, file: Option<&Path>, place: Option<String>) -> PyErr {
    Python::attach(|py| {
        let value = err.value(py);
        let file = file.map(|f| f.display().to_string());
        // Setting an attribute on a fresh exception instance cannot fail; were it to, the
        // message still says everything.
        let _ = value.setattr("file", file);
        let _ = value.setattr("place", place);
    });
    err
}

/// An exception of one of the argument classes, with no file and no place; the class is
/// made on first use, and were that to fail, the failure is raised instead.
fn of_class(class: fn(Python<'_>) -> PyResult<Bound<'_, PyType>>, message: &str) -> PyErr {
    let message = shorten(message, MAX_MESSAGE);
    let err = Python::attach(|py| match class(py) {
        Ok(class) => PyErr::from_type(class, message),
        Err(failed) => failed,
    });
    with_attributes(err, None, None)
}

/// An `ArgumentError` (a value out of range), naming the argument and the value.
pub fn argument(message: impl AsRef<str>) -> PyErr {
    of_class(argument_error, message.as_ref())
}

/// An `ArgumentTypeError` (a value of the wrong type), naming the argument and the value.
pub fn argument_type(message: impl AsRef<str>) -> PyErr {
    of_class(argument_type_error, message.as_ref())
}

/// A [`MapError`] with no file.
pub fn map(message: impl AsRef<str>) -> PyErr {
    raise::<MapError>(message.as_ref(), None, None)
}

/// The place in a file that a format error names, when it names one.
fn format_place(error: &FormatError) -> Option<String> {
    match error {
        FormatError::Json { line, column, .. } => Some(format!("line {line}, column {column}")),
        FormatError::RowLength {
            row,
            line: Some(line),
            ..
        } => Some(format!("row {row} (line {line})")),
        FormatError::RowLength { row, .. } => Some(format!("row {row}")),
        FormatError::UnknownSymbol {
            row,
            column,
            line: Some(line),
            ..
        } => Some(format!("row {row}, column {column} (line {line})")),
        FormatError::UnknownSymbol { row, column, .. } => {
            Some(format!("row {row}, column {column}"))
        }
        FormatError::Terrain { index, .. } => Some(format!("terrain {index}")),
        FormatError::OutOfBounds { which, .. } => Some((*which).to_owned()),
        FormatError::Heights { row: Some(row), .. } => Some(format!("heights, row {row}")),
        FormatError::Header { line, .. } => Some(format!("line {line}")),
        FormatError::Level(LevelError::Xml { line, .. }) => Some(format!("line {line}")),
        FormatError::Level(LevelError::Field { place, .. }) => Some(place.clone()),
        _ => None,
    }
}

/// A map file that could not be read.
pub fn load(error: &LoadError) -> PyErr {
    raise::<FileError>(
        &error.to_string(),
        Some(&error.path),
        format_place(&error.error),
    )
}

/// An image or ROS map that could not be imported.
pub fn import(error: &ImportError, fallback: &Path) -> PyErr {
    // The innermost file named is the one at fault (a yaml's image).
    let mut file = fallback.to_path_buf();
    let mut inner = error;
    let mut place = None;
    loop {
        match inner {
            ImportError::InFile { path, error } => {
                file = path.clone();
                inner = error;
            }
            ImportError::Io { path, .. } => {
                file = path.clone();
                break;
            }
            ImportError::Yaml { line, .. } => {
                place = Some(format!("line {line}"));
                break;
            }
            _ => break,
        }
    }
    let message = error.to_string();
    let message = if message.starts_with(&*file.to_string_lossy()) {
        message
    } else {
        format!("{}: {message}", file.display())
    };
    raise::<FileError>(&message, Some(&file), place)
}

/// A save that failed (the file on disk is unchanged).
pub fn save(error: &SaveError) -> PyErr {
    raise::<FileError>(&error.to_string(), Some(&error.path), None)
}

/// A grid that could not be built.
pub fn grid(error: &GridError) -> PyErr {
    let place = match error {
        GridError::UnknownTerrain { cell, .. } => Some(format!("cell ({}, {})", cell.x, cell.y)),
        _ => None,
    };
    raise::<MapError>(&error.to_string(), None, place)
}

/// A search that could not run.
pub fn search(error: &CoreSearchError) -> PyErr {
    let place = match error {
        CoreSearchError::OutOfBounds { which, cell, .. }
        | CoreSearchError::Blocked { which, cell } => {
            Some(format!("{which} ({}, {})", cell.x, cell.y))
        }
        _ => None,
    };
    match error {
        CoreSearchError::BadWeight(_) | CoreSearchError::BadTurnPenalty(_) => {
            argument(error.to_string())
        }
        _ => raise::<SearchError>(&error.to_string(), None, place),
    }
}

/// A path that could not be smoothed, or smoothing settings out of range.
pub fn smooth(error: &SmoothError) -> PyErr {
    argument(format!("smoothing: {error}"))
}
