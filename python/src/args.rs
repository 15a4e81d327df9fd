//! Reading plain Python arguments — numbers, whole numbers, names, flags, paths — with the
//! checks the command line makes on the same options.
//!
//! The functions take the arguments as Python gave them, so that a bad one is refused here,
//! by an [`ArgumentError`](crate::errors) whose message names the argument and shows the value
//! it got, rather than by the extension's glue with a bare `TypeError` or `OverflowError`. A
//! value of the wrong type (None for a name, a string for a number, a float for a count) is an
//! `ArgumentTypeError`; a value of the right type out of range is an `ArgumentError`.

use std::path::PathBuf;

use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyString};

use crate::errors;

/// An argument with a default: as the call gave it, or [`Arg::Missing`] when the call left it
/// out. Unlike an `Option`, `None` given by the caller is kept, to be refused where the
/// default is not `None`.
pub enum Arg<'py> {
    /// The call left the argument out: its default applies.
    Missing,
    /// The value the call gave.
    Given(Bound<'py, PyAny>),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Arg<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Self::Given(obj.to_owned()))
    }
}

impl<'py> Arg<'py> {
    /// The value given, if any.
    fn given(&self) -> Option<&Bound<'py, PyAny>> {
        match self {
            Self::Missing => None,
            Self::Given(value) => Some(value),
        }
    }

    /// The value given as Python writes it, for an error message (empty when left out).
    pub fn shown(&self) -> String {
        self.given().map(shown).unwrap_or_default()
    }

    /// A number from `min` to `max`, or `default` when left out.
    pub fn number_in(&self, default: f64, min: f64, max: f64, what: &str) -> PyResult<f64> {
        self.given()
            .map_or(Ok(default), |v| number_in(v, min, max, what))
    }

    /// Any finite or infinite number, checked by the caller, or `default` when left out.
    pub fn number(&self, default: f64, what: &str) -> PyResult<f64> {
        self.given().map_or(Ok(default), |v| number(v, what))
    }

    /// A whole number from `min` to `max`, or `default` when left out.
    pub fn whole_in(&self, default: u64, min: u64, max: u64, what: &str) -> PyResult<u64> {
        self.given()
            .map_or(Ok(default), |v| whole_in(v, min, max, what))
    }

    /// `True` or `False`, or `default` when left out.
    pub fn flag(&self, default: bool, what: &str) -> PyResult<bool> {
        self.given().map_or(Ok(default), |v| flag(v, what))
    }

    /// A name (a string), or `default` when left out.
    pub fn name(&self, default: &str, what: &str) -> PyResult<String> {
        self.given()
            .map_or_else(|| Ok(default.to_owned()), |v| name(v, what))
    }
}

/// A short text of a value for an error message: its `repr`, shortened.
pub fn shown(value: &Bound<'_, PyAny>) -> String {
    let text = value
        .repr()
        .map_or_else(|_| "?".to_owned(), |r| r.to_string());
    gridpath_core::format::shorten(&text, 80)
}

/// An `ArgumentTypeError`: `what` must be `expected`, and `value` is not.
pub fn wrong_type(value: &Bound<'_, PyAny>, what: &str, expected: &str) -> PyErr {
    errors::argument_type(format!("{what} must be {expected}, got {}", shown(value)))
}

/// A number (an `int` or a `float`, numpy's too); `what` names the argument. Strings, `None`
/// and other objects are refused, as are booleans.
pub fn number(value: &Bound<'_, PyAny>, what: &str) -> PyResult<f64> {
    if value.is_instance_of::<PyBool>()
        || value.is_instance_of::<PyString>()
        || value.is_instance_of::<PyBytes>()
    {
        return Err(wrong_type(value, what, "a number"));
    }
    value.extract::<f64>().map_err(|e| {
        if e.is_instance_of::<PyOverflowError>(value.py()) {
            // An int too large for a float: a number, far out of any range.
            errors::argument(format!("{what} is out of range, got {}", shown(value)))
        } else {
            wrong_type(value, what, "a number")
        }
    })
}

/// A finite number from `min` to `max`, both included.
pub fn number_in(value: &Bound<'_, PyAny>, min: f64, max: f64, what: &str) -> PyResult<f64> {
    let number = number(value, what)?;
    if number.is_finite() && (min..=max).contains(&number) {
        Ok(number)
    } else {
        Err(errors::argument(format!(
            "{what} must be a number from {min} to {max}, got {}",
            shown(value)
        )))
    }
}

/// A whole number from `min` to `max`: an `int` or a numpy integer (anything with
/// `__index__`); floats, even whole ones, strings and booleans are refused, as Python refuses
/// them for an index.
pub fn whole_in(value: &Bound<'_, PyAny>, min: u64, max: u64, what: &str) -> PyResult<u64> {
    let out_of_range = || {
        errors::argument(format!(
            "{what} must be a whole number from {min} to {max}, got {}",
            shown(value)
        ))
    };
    if value.is_instance_of::<PyBool>() {
        return Err(wrong_type(value, what, "a whole number"));
    }
    let index = value
        .call_method0("__index__")
        .map_err(|_| wrong_type(value, what, "a whole number"))?;
    match index.extract::<i128>() {
        Ok(n) => match u64::try_from(n) {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(out_of_range()),
        },
        Err(e) if e.is_instance_of::<PyOverflowError>(value.py()) => Err(out_of_range()),
        Err(_) => Err(wrong_type(value, what, "a whole number")),
    }
}

/// `True` or `False` (numpy's booleans too); other values, even truthy ones, are refused, as a
/// string such as `"no"` is true.
pub fn flag(value: &Bound<'_, PyAny>, what: &str) -> PyResult<bool> {
    value
        .extract::<bool>()
        .map_err(|_| wrong_type(value, what, "True or False"))
}

/// A name: a `str`.
pub fn name(value: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    value
        .extract::<String>()
        .map_err(|_| wrong_type(value, what, "a name (a str)"))
}

/// An optional name: `None` or a `str`.
pub fn name_or_none(value: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<String>> {
    value
        .filter(|v| !v.is_none())
        .map(|v| name(v, what))
        .transpose()
}

/// A path: a `str` or an `os.PathLike` such as `pathlib.Path`.
pub fn path(value: &Bound<'_, PyAny>, what: &str) -> PyResult<PathBuf> {
    if value.is_none() {
        return Err(wrong_type(value, what, "a path (a str or os.PathLike)"));
    }
    value.extract::<PathBuf>().map_err(|e| {
        if e.is_instance_of::<PyTypeError>(value.py()) {
            wrong_type(value, what, "a path (a str or os.PathLike)")
        } else {
            errors::argument(format!("{what} is no path: {e}"))
        }
    })
}

/// An optional path: `None` or a path.
pub fn path_or_none(value: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<PathBuf>> {
    value
        .filter(|v| !v.is_none())
        .map(|v| path(v, what))
        .transpose()
}

/// An optional number: `None` or a number, checked by the caller.
pub fn number_or_none(value: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<f64>> {
    value
        .filter(|v| !v.is_none())
        .map(|v| number(v, what))
        .transpose()
}

/// An optional whole number from `min` to `max`: `None` or a whole number.
pub fn whole_or_none(
    value: Option<&Bound<'_, PyAny>>,
    min: u64,
    max: u64,
    what: &str,
) -> PyResult<Option<u64>> {
    value
        .filter(|v| !v.is_none())
        .map(|v| whole_in(v, min, max, what))
        .transpose()
}

/// A pose `(x, y, yaw)` of three numbers, or `None`: a map's origin in its world frame, whose
/// ranges [`GeoReference`](gridpath_core::grid::GeoReference) checks.
pub fn pose_or_none(
    value: Option<&Bound<'_, PyAny>>,
    what: &str,
) -> PyResult<Option<(f64, f64, f64)>> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    let expected = "a pose (x, y, yaw) of three numbers";
    if value.is_instance_of::<PyString>() || value.is_instance_of::<PyBytes>() {
        return Err(wrong_type(value, what, expected));
    }
    let items: Vec<Bound<'_, PyAny>> = value
        .try_iter()
        .map_err(|_| wrong_type(value, what, expected))?
        .collect::<PyResult<_>>()
        .map_err(|_| wrong_type(value, what, expected))?;
    let [x, y, yaw] = items.as_slice() else {
        return Err(errors::argument(format!(
            "{what} must be {expected}, got {} ({} values)",
            shown(value),
            items.len()
        )));
    };
    let coordinate = |v: &Bound<'_, PyAny>| -> PyResult<f64> {
        number(v, what).map_err(|_| wrong_type(value, what, expected))
    };
    Ok(Some((coordinate(x)?, coordinate(y)?, coordinate(yaw)?)))
}
