//! Reading Python arguments into the engine's types: cells as `(x, y)`, and the search
//! settings by the names the command line uses.

use gridpath_core::grid::Cell;
use gridpath_core::search::{Algorithm, Diagonal, Heuristic, SearchRequest};
use gridpath_core::smooth::{self, SmoothSettings};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString};

use crate::errors;

/// Reads a cell given as `(x, y)` (any pair of whole numbers ≥ 0: a tuple, a list or a numpy
/// row); `what` names it in errors.
pub fn cell(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Cell> {
    let bad = || {
        errors::argument(format!(
            "the {what} must be a cell (x, y) of two whole numbers ≥ 0, got {}",
            short_repr(value)
        ))
    };
    let (x, y): (Bound<'_, PyAny>, Bound<'_, PyAny>) = match value.extract() {
        Ok(pair) => pair,
        // A list or a numpy row of two numbers (a string is a sequence too, but no cell).
        Err(_) if !value.is_instance_of::<PyString>() && value.len().ok() == Some(2) => (
            value.get_item(0).map_err(|_| bad())?,
            value.get_item(1).map_err(|_| bad())?,
        ),
        Err(_) => return Err(bad()),
    };
    let coordinate = |v: &Bound<'_, PyAny>| -> PyResult<u32> {
        // A plain int, the common case, is read as it is.
        if v.is_exact_instance_of::<PyInt>() {
            return v.extract::<u32>().map_err(|_| bad());
        }
        // numpy integers and Python ints alike; floats, negatives and huge values are refused.
        let index = v.call_method0("__index__").map_err(|_| bad())?;
        index.extract::<u32>().map_err(|_| bad())
    };
    Ok(Cell::new(coordinate(&x)?, coordinate(&y)?))
}

/// A short text of a value for an error message.
pub fn short_repr(value: &Bound<'_, PyAny>) -> String {
    let text = value
        .repr()
        .map_or_else(|_| "?".to_owned(), |r| r.to_string());
    gridpath_core::format::shorten(&text, 80)
}

/// Parses an algorithm name (`"astar"`, `"jps"`, …).
pub fn algorithm(name: &str) -> PyResult<Algorithm> {
    name.parse().map_err(errors::argument)
}

/// Parses a diagonal rule (`"never"`, `"always"`, `"one-free"`, `"no-cut"`).
pub fn diagonal(name: &str) -> PyResult<Diagonal> {
    name.parse().map_err(errors::argument)
}

/// Parses a heuristic name, `None` for the default of the diagonal rule.
pub fn heuristic(name: Option<&str>) -> PyResult<Option<Heuristic>> {
    name.map(str::parse).transpose().map_err(errors::argument)
}

/// Checks a number against a range, naming the option.
pub fn number_in(value: f64, min: f64, max: f64, what: &str) -> PyResult<f64> {
    if value.is_finite() && (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(errors::argument(format!(
            "{what} must be a number from {min} to {max}, got {value}"
        )))
    }
}

/// The settings of one search, read from keyword arguments.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// The algorithm, diagonal rule, heuristic, weight and turn penalty, for a request.
    pub algorithm: Algorithm,
    /// Which diagonal steps are allowed.
    pub diagonal: Diagonal,
    /// The heuristic, or the diagonal rule's default.
    pub heuristic: Option<Heuristic>,
    /// The weight on the heuristic.
    pub weight: f64,
    /// The cost of every 45° turn.
    pub turn_penalty: f64,
    /// Plan to the nearest reachable cell when the goal cannot be reached.
    pub partial: bool,
    /// Keep the expanded cells and the open list.
    pub record: bool,
}

impl SearchOptions {
    /// Reads and checks the settings.
    pub fn new(
        algorithm: &str,
        diagonal: &str,
        heuristic: Option<&str>,
        weight: f64,
        turn_penalty: f64,
        partial: bool,
        record: bool,
    ) -> PyResult<Self> {
        Ok(Self {
            algorithm: self::algorithm(algorithm)?,
            diagonal: self::diagonal(diagonal)?,
            heuristic: self::heuristic(heuristic)?,
            weight: number_in(weight, 1.0, SearchRequest::MAX_WEIGHT, "weight")?,
            turn_penalty: number_in(
                turn_penalty,
                0.0,
                SearchRequest::MAX_TURN_PENALTY,
                "turn_penalty",
            )?,
            partial,
            record,
        })
    }

    /// The request from `start` to `goal` with these settings.
    pub fn request(&self, start: Cell, goal: Cell) -> SearchRequest {
        SearchRequest {
            start,
            goal,
            algorithm: self.algorithm,
            diagonal: self.diagonal,
            heuristic: self.heuristic,
            weight: self.weight,
            record: self.record,
            partial: self.partial,
            turn_penalty: self.turn_penalty,
        }
    }
}

/// The smoothing settings, read from keyword arguments.
#[derive(Clone, Copy, Debug)]
pub struct SmoothOptions {
    /// Tension, clearance and turning radius.
    pub settings: SmoothSettings,
    /// The largest distance in cells between two samples along the curve.
    pub spacing: f64,
}

impl SmoothOptions {
    /// Reads and checks the settings.
    pub fn new(tension: f64, clearance: f64, min_turn_radius: f64, spacing: f64) -> PyResult<Self> {
        let settings = SmoothSettings {
            tension,
            clearance,
            min_turn_radius,
        };
        settings.validate().map_err(|e| errors::smooth(&e))?;
        let spacing = number_in(spacing, smooth::MIN_SPACING, smooth::MAX_SPACING, "spacing")?;
        Ok(Self { settings, spacing })
    }
}
