//! Reading Python arguments into the engine's types: cells as `(x, y)`, and the search
//! settings by the names the command line uses.

use gridpath_core::grid::Cell;
use gridpath_core::search::{Algorithm, Diagonal, Heuristic, SearchRequest};
use gridpath_core::smooth::{self, SmoothSettings};
use numpy::PyReadonlyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString};

use crate::args::{self, Arg};
use crate::errors;

/// Reads a cell given as `(x, y)` (any pair of whole numbers ≥ 0: a tuple, a list or a numpy
/// row); `what` names it in errors. Anything but a pair of integers is an `ArgumentTypeError`
/// (a float is no index, as in Python), a pair off the numbers an `ArgumentError`.
pub fn cell(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Cell> {
    let message = || {
        format!(
            "{what} must be a cell (x, y) of two whole numbers ≥ 0, got {}",
            args::shown(value)
        )
    };
    let wrong_type = || errors::argument_type(message());
    let (x, y): (Bound<'_, PyAny>, Bound<'_, PyAny>) = match value.extract() {
        Ok(pair) => pair,
        // A list or a numpy row of two numbers (a string is a sequence too, but no cell).
        Err(_) if !value.is_instance_of::<PyString>() && value.len().ok() == Some(2) => (
            value.get_item(0).map_err(|_| wrong_type())?,
            value.get_item(1).map_err(|_| wrong_type())?,
        ),
        Err(_) => return Err(wrong_type()),
    };
    let coordinate = |v: &Bound<'_, PyAny>| -> PyResult<u32> {
        // A plain int, the common case, is read as it is.
        if v.is_exact_instance_of::<PyInt>() {
            return v.extract::<u32>().map_err(|_| errors::argument(message()));
        }
        // numpy integers and Python ints alike; floats and booleans are refused.
        if v.is_instance_of::<PyBool>() {
            return Err(wrong_type());
        }
        let index = v.call_method0("__index__").map_err(|_| wrong_type())?;
        index
            .extract::<u32>()
            .map_err(|_| errors::argument(message()))
    };
    Ok(Cell::new(coordinate(&x)?, coordinate(&y)?))
}

/// Reads an algorithm name (`"astar"`, `"jps"`, …), `"astar"` when left out.
pub fn algorithm(value: &Arg<'_>) -> PyResult<Algorithm> {
    let name = value.name("astar", "algorithm")?;
    name.parse().map_err(errors::argument)
}

/// Reads a diagonal rule (`"never"`, `"always"`, `"one-free"`, `"no-cut"`), `"no-cut"` when
/// left out.
pub fn diagonal(value: &Arg<'_>) -> PyResult<Diagonal> {
    let name = value.name("no-cut", "diagonal")?;
    name.parse().map_err(errors::argument)
}

/// Reads a heuristic name, `None` for the default of the diagonal rule.
pub fn heuristic(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Heuristic>> {
    args::name_or_none(value, "heuristic")?
        .map(|name| name.parse())
        .transpose()
        .map_err(errors::argument)
}

/// Reads a search's weight on the heuristic, from 1 (1 when left out).
pub fn weight(value: &Arg<'_>) -> PyResult<f64> {
    value.number_in(1.0, 1.0, SearchRequest::MAX_WEIGHT, "weight")
}

/// The largest distance between two samples of a smoothed path, in cells, when not given.
const DEFAULT_SPACING: f64 = 0.25;

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
        algorithm: &Arg<'_>,
        diagonal: &Arg<'_>,
        heuristic: Option<&Bound<'_, PyAny>>,
        weight: &Arg<'_>,
        turn_penalty: &Arg<'_>,
        partial: bool,
        record: bool,
    ) -> PyResult<Self> {
        Ok(Self {
            algorithm: self::algorithm(algorithm)?,
            diagonal: self::diagonal(diagonal)?,
            heuristic: self::heuristic(heuristic)?,
            weight: self::weight(weight)?,
            turn_penalty: turn_penalty.number_in(
                0.0,
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
    /// Reads and checks the settings (the defaults are `SmoothSettings`'s, with samples a
    /// quarter of a cell apart).
    pub fn new(
        tension: &Arg<'_>,
        clearance: &Arg<'_>,
        min_turn_radius: &Arg<'_>,
        spacing: &Arg<'_>,
    ) -> PyResult<Self> {
        let defaults = SmoothSettings::default();
        let at_least_zero = |value: &Arg<'_>, default: f64, what: &str| -> PyResult<f64> {
            let number = value.number(default, what)?;
            if number.is_finite() && number >= 0.0 {
                Ok(number)
            } else {
                Err(errors::argument(format!(
                    "{what} must be a finite number of at least 0 cells, got {}",
                    value.shown()
                )))
            }
        };
        let settings = SmoothSettings {
            tension: tension.number_in(defaults.tension, 0.0, 1.0, "tension")?,
            clearance: at_least_zero(clearance, defaults.clearance, "clearance")?,
            min_turn_radius: at_least_zero(
                min_turn_radius,
                defaults.min_turn_radius,
                "min_turn_radius",
            )?,
        };
        settings.validate().map_err(|e| errors::smooth(&e))?;
        let spacing = spacing.number_in(
            DEFAULT_SPACING,
            smooth::MIN_SPACING,
            smooth::MAX_SPACING,
            "spacing",
        )?;
        Ok(Self { settings, spacing })
    }
}

/// One coordinate of a batch's pairs, as given: an integer exactly, a float as it was, or the
/// text of something that is no number.
enum Coordinate {
    /// An integer, of any size.
    Int(i128),
    /// A float.
    Float(f64),
    /// No number: its `repr`.
    Other(String),
}

impl Coordinate {
    /// Reads one element of an array of Python objects.
    fn of_object(value: &Bound<'_, PyAny>) -> Self {
        if value.is_instance_of::<PyBool>() || value.is_instance_of::<PyString>() {
            return Self::Other(args::shown(value));
        }
        // Python's and numpy's integers (through `__index__`), then floats.
        if let Ok(n) = value.extract::<i128>() {
            Self::Int(n)
        } else if let Ok(v) = value.extract::<f64>() {
            Self::Float(v)
        } else {
            Self::Other(args::shown(value))
        }
    }

    /// The coordinate of a cell it gives: a whole number from 0 to `u32::MAX`.
    fn whole(&self) -> Option<u32> {
        match *self {
            Self::Int(n) => u32::try_from(n).ok(),
            Self::Float(v) if v.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&v) => {
                // Whole and in range: the conversion is exact.
                Some(v as u32)
            }
            Self::Float(_) | Self::Other(_) => None,
        }
    }

    /// The coordinate as given, for an error message: a whole float as an integer, another
    /// as Python writes it.
    fn text(&self, py: Python<'_>) -> String {
        match self {
            Self::Int(n) => n.to_string(),
            Self::Float(v) if v.fract() == 0.0 && v.abs() < 9.0e15 => format!("{v:.0}"),
            Self::Float(v) => PyFloat::new(py, *v)
                .repr()
                .map_or_else(|_| v.to_string(), |r| r.to_string()),
            Self::Other(text) => text.clone(),
        }
    }
}

/// What `find_paths` takes as its pairs.
const PAIRS: &str = "((sx, sy), (gx, gy)) pairs or an array of shape (n, 2, 2) or (n, 4)";

/// Reads the queries of a batch: a sequence of `((sx, sy), (gx, gy))` pairs or an array of
/// shape `(n, 2, 2)` or `(n, 4)`, of integers or of whole floats. A coordinate that is
/// negative, fractional, NaN, infinite or past `u32::MAX` is refused, naming its pair and
/// showing it as given, as `find_path` refuses it.
pub fn pairs(value: &Bound<'_, PyAny>) -> PyResult<Vec<(Cell, Cell)>> {
    let py = value.py();
    if value.is_none() || value.is_instance_of::<PyString>() {
        return Err(args::wrong_type(value, "pairs", PAIRS));
    }
    let array = py
        .import("numpy")?
        .call_method1("asarray", (value,))
        .map_err(|e| errors::argument(format!("pairs must be {PAIRS}: {e}")))?;
    let shape: Vec<usize> = array.getattr("shape")?.extract()?;
    let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
    let n = match shape[..] {
        [n, 2, 2] | [n, 4] => n,
        [0] => 0,
        _ if !matches!(kind.as_str(), "i" | "u" | "f" | "O") => {
            return Err(args::wrong_type(value, "pairs", PAIRS));
        }
        _ => {
            return Err(errors::argument(format!(
                "pairs must have the shape (n, 2, 2) or (n, 4), got {shape:?}"
            )));
        }
    };
    let flat = array.call_method1("reshape", (-1,))?;
    // Read through numpy's buffers, not element by element: a batch may hold millions.
    let as_type = |dtype: &str| flat.call_method1("astype", (dtype,));
    let coordinates: Vec<Coordinate> = match kind.as_str() {
        "i" => as_type("int64")?
            .extract::<PyReadonlyArray1<'_, i64>>()?
            .as_array()
            .iter()
            .map(|&v| Coordinate::Int(i128::from(v)))
            .collect(),
        "u" => as_type("uint64")?
            .extract::<PyReadonlyArray1<'_, u64>>()?
            .as_array()
            .iter()
            .map(|&v| Coordinate::Int(i128::from(v)))
            .collect(),
        "f" => as_type("float64")?
            .extract::<PyReadonlyArray1<'_, f64>>()?
            .as_array()
            .iter()
            .map(|&v| Coordinate::Float(v))
            .collect(),
        "O" => flat
            .try_iter()?
            .map(|item| item.map(|v| Coordinate::of_object(&v)))
            .collect::<PyResult<_>>()?,
        _ if n == 0 => Vec::new(),
        _ => return Err(args::wrong_type(value, "pairs", PAIRS)),
    };
    let mut out = Vec::with_capacity(n);
    for (i, q) in coordinates.chunks_exact(4).enumerate() {
        let cell = |x: &Coordinate, y: &Coordinate, what: &str| -> PyResult<Cell> {
            if let (Some(cx), Some(cy)) = (x.whole(), y.whole()) {
                return Ok(Cell::new(cx, cy));
            }
            let message = format!(
                "pairs: pair {i}: the {what} ({}, {}) is not a cell of two whole numbers ≥ 0",
                x.text(py),
                y.text(py)
            );
            if matches!(x, Coordinate::Other(_)) || matches!(y, Coordinate::Other(_)) {
                Err(errors::argument_type(message))
            } else {
                Err(errors::argument(message))
            }
        };
        out.push((cell(&q[0], &q[1], "start")?, cell(&q[2], &q[3], "goal")?));
    }
    Ok(out)
}
