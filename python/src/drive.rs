//! `Map.drive`: a path a robot can drive, through the engine's [`gridpath_core::drive`] — the
//! search of `gridpath drive`, in cells and degrees.

use gridpath_core::drive::{self, DriveError, DriveRequest, Pose};
use gridpath_core::grid::Grid;
use gridpath_core::search::SearchControl;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2};
use pyo3::prelude::*;

use crate::args::{self, Arg};
use crate::errors;
use crate::watch;

/// A planned drive, or why there is none.
#[pyclass(frozen, module = "gridpath", name = "Drive")]
pub struct PyDrive {
    found: bool,
    reason: Option<String>,
    samples: Vec<f64>,
    length: f64,
    cost: f64,
    least_clearance: Option<f64>,
    least_turning_radius: Option<f64>,
    pieces: Vec<(String, String, f64)>,
    narrowest: Option<((u32, u32), f64)>,
    expanded: usize,
}

#[pymethods]
impl PyDrive {
    /// Whether a drive was found.
    #[getter]
    fn found(&self) -> bool {
        self.found
    }

    /// Why there is no drive (``None`` when there is one).
    #[getter]
    fn reason(&self) -> Option<String> {
        self.reason.clone()
    }

    /// Poses along the drive no more than a quarter cell apart, a float64 array of shape
    /// (n, 3): x, y in cells (cell (x, y) spans [x, x + 1) × [y, y + 1)) and the heading in
    /// radians, clockwise on the screen (y down the rows). Empty when none was found.
    #[getter]
    fn samples<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        let n = self.samples.len() / 3;
        Array2::from_shape_vec((n, 3), self.samples.clone())
            .unwrap_or_else(|_| Array2::zeros((0, 3)))
            .into_pyarray(py)
    }

    /// What the drive costs: its length, or with an inflation its length weighted by how near
    /// the walls it passes (0 when none was found).
    #[getter]
    fn cost(&self) -> f64 {
        self.cost
    }

    /// The length driven, in cells (0 when none was found).
    #[getter]
    fn length(&self) -> f64 {
        self.length
    }

    /// The least distance from the drive to a wall, in cells.
    #[getter]
    fn least_clearance(&self) -> Option<f64> {
        self.least_clearance
    }

    /// The tightest turn, in cells (``None`` for a straight drive or none).
    #[getter]
    fn least_turning_radius(&self) -> Option<f64> {
        self.least_turning_radius
    }

    /// The pieces: ``(steer, gear, length)``, steer ``"left"``, ``"straight"`` or ``"right"``.
    #[getter]
    fn pieces(&self) -> Vec<(String, String, f64)> {
        self.pieces.clone()
    }

    /// Where the widest way from start to goal is narrowest, ``((x, y), clearance)``, when a
    /// body found no drive because of it.
    #[getter]
    fn narrowest(&self) -> Option<((u32, u32), f64)> {
        self.narrowest
    }

    /// Poses the search expanded.
    #[getter]
    fn expanded(&self) -> usize {
        self.expanded
    }

    fn __bool__(&self) -> bool {
        self.found
    }

    fn __repr__(&self) -> String {
        if self.found {
            format!(
                "<gridpath.Drive: {:.3} cells in {} pieces>",
                self.length,
                self.pieces.len()
            )
        } else {
            format!(
                "<gridpath.Drive: none ({})>",
                self.reason.as_deref().unwrap_or("")
            )
        }
    }
}

/// A point `(x, y)` of two finite numbers, in cells.
fn point(value: &Bound<'_, PyAny>, what: &str) -> PyResult<(f64, f64)> {
    let items: Vec<Bound<'_, PyAny>> = value
        .try_iter()
        .map_err(|_| args::wrong_type(value, what, "a point (x, y) of two numbers"))?
        .collect::<PyResult<_>>()?;
    let [x, y] = items.as_slice() else {
        return Err(errors::argument(format!(
            "{what} must be a point (x, y) of two numbers, got {}",
            args::shown(value)
        )));
    };
    Ok((args::number(x, what)?, args::number(y, what)?))
}

/// Plans a drive (see `Map.drive`).
#[expect(
    clippy::too_many_arguments,
    reason = "the keyword arguments of one call"
)]
pub fn run(
    py: Python<'_>,
    grid: &Grid,
    start: &Bound<'_, PyAny>,
    goal: &Bound<'_, PyAny>,
    robot_radius: &Arg<'_>,
    turning_radius: &Arg<'_>,
    start_yaw: Option<&Bound<'_, PyAny>>,
    goal_yaw: Option<&Bound<'_, PyAny>>,
    motion: &Arg<'_>,
    inflation: (Option<&Bound<'_, PyAny>>, &Arg<'_>, &Arg<'_>),
) -> PyResult<PyDrive> {
    let (inflation_radius, scaling, penalty) = inflation;
    let inflation = match args::number_or_none(inflation_radius, "inflation_radius")? {
        None => None,
        Some(radius) if radius >= 0.0 => Some(drive::Inflation {
            radius,
            scaling: scaling.number_in(3.0, 0.0, 1e9, "cost_scaling_factor")?,
            penalty: penalty.number_in(2.0, 0.0, 1e6, "cost_penalty")?,
        }),
        Some(_) => return Err(errors::argument("inflation_radius must be 0 or more")),
    };
    let motion = match motion.name("dubins", "motion")?.as_str() {
        "dubins" => drive::Motion::Dubins,
        "reeds-shepp" => drive::Motion::ReedsShepp,
        other => {
            return Err(errors::argument(format!(
                "unknown motion {other:?}: expected \"dubins\" or \"reeds-shepp\""
            )));
        }
    };
    let (sx, sy) = point(start, "start")?;
    let (gx, gy) = point(goal, "goal")?;
    let body = robot_radius.number_in(0.5, 0.0, 1e6, "robot_radius")?;
    let turn = turning_radius.number_in(1.0, 0.0, 1e6, "turning_radius")?;
    if turn <= 0.0 {
        return Err(errors::argument("turning_radius must be above 0"));
    }
    let start_yaw = args::number_or_none(start_yaw, "start_yaw")?;
    let goal_yaw = args::number_or_none(goal_yaw, "goal_yaw")?;
    // Degrees counter-clockwise as the screen shows them are radians clockwise with y down.
    let heading = |yaw: Option<f64>| yaw.map_or(0.0, |d| -d.to_radians());
    let request = DriveRequest {
        start: Pose::new(sx, sy, heading(start_yaw)),
        goal: Pose::new(gx, gy, heading(goal_yaw)),
        start_heading_free: start_yaw.is_none(),
        goal_heading_free: goal_yaw.is_none(),
        body_radius: body,
        turning_radius: turn,
        motion,
        max_expansions: DriveRequest::MAX_EXPANSIONS,
        inflation,
    };
    let control = SearchControl::new();
    let watch = &control;
    let planned = watch::watched(py, &control, move || {
        drive::plan(grid, &request, Some(watch))
    })?;
    let none = |reason: String, narrowest| PyDrive {
        found: false,
        reason: Some(reason),
        samples: Vec::new(),
        length: 0.0,
        cost: 0.0,
        least_clearance: None,
        least_turning_radius: None,
        pieces: Vec::new(),
        narrowest,
        expanded: 0,
    };
    match planned {
        Ok(found) => Ok(PyDrive {
            found: true,
            reason: None,
            samples: found
                .curve
                .samples(0.25)
                .iter()
                .flat_map(|s| [s.pose.x, s.pose.y, s.pose.theta])
                .collect(),
            length: found.curve.length(),
            cost: found.cost,
            least_clearance: Some(found.least_clearance),
            least_turning_radius: Some(found.least_turning_radius()).filter(|r| r.is_finite()),
            pieces: found
                .curve
                .pieces
                .iter()
                .map(|p| {
                    (
                        p.steer.name().to_owned(),
                        p.gear.name().to_owned(),
                        p.length,
                    )
                })
                .collect(),
            narrowest: None,
            expanded: found.expanded,
        }),
        Err(DriveError::NoWay) => {
            let gap = drive::widest_gap(grid, (sx, sy), (gx, gy), body + 1.0)
                .filter(|&(_, room)| room < body)
                .map(|(cell, room)| ((cell.x, cell.y), room));
            Ok(none(DriveError::NoWay.to_string(), gap))
        }
        Err(e @ (DriveError::Blocked { .. } | DriveError::Budget(_))) => {
            Ok(none(e.to_string(), None))
        }
        Err(e @ (DriveError::BadRequest(_) | DriveError::OffMap(_))) => {
            Err(errors::argument(e.to_string()))
        }
        Err(DriveError::Cancelled) => Err(errors::argument("cancelled")),
    }
}
