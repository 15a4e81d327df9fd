//! `Map.crowd`: units as discs moving continuously, through the engine's
//! [`gridpath_core::motion`] — the simulation of `gridpath crowd`.

use gridpath_core::grid::Grid;
use gridpath_core::motion::{Crowd, CrowdSettings, UnitSpec, Vec2};
use gridpath_core::search::SearchControl;
use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray3};
use pyo3::prelude::*;

use crate::args::Arg;
use crate::errors;
use crate::watch;

/// The most positions (units × steps) one run keeps: 8 bytes × 2 each, 1.6 GB at most.
const MAX_POSITIONS: f64 = 1e8;

/// A crowd's run: every unit's position after every step, and when each arrived.
#[pyclass(frozen, module = "gridpath", name = "CrowdRun")]
pub struct PyCrowdRun {
    positions: Vec<f64>,
    units: usize,
    arrival_times: Vec<Option<f64>>,
    time: f64,
    least_separation: Option<f64>,
}

#[pymethods]
impl PyCrowdRun {
    /// Every unit's position after every step, a float64 array of shape (steps + 1, units, 2),
    /// the start first; in cells (cell (x, y) spans [x, x + 1) × [y, y + 1)).
    #[getter]
    fn positions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray3<f64>> {
        let steps = self.positions.len() / (2 * self.units.max(1));
        Array3::from_shape_vec((steps, self.units, 2), self.positions.clone())
            .unwrap_or_else(|_| Array3::zeros((0, self.units, 2)))
            .into_pyarray(py)
    }

    /// When each unit first reached its goal, in seconds (``None`` for a unit that did not).
    #[getter]
    fn arrival_times(&self) -> Vec<Option<f64>> {
        self.arrival_times.clone()
    }

    /// Whether every unit arrived.
    #[getter]
    fn all_arrived(&self) -> bool {
        self.arrival_times.iter().all(Option::is_some)
    }

    /// The simulated time the run lasted, in seconds.
    #[getter]
    fn time(&self) -> f64 {
        self.time
    }

    /// The least centre distance of two units after any step, over their radii sum (at least
    /// 1: discs never overlap); ``None`` for a single unit.
    #[getter]
    fn least_separation(&self) -> Option<f64> {
        self.least_separation
    }

    fn __repr__(&self) -> String {
        let arrived = self.arrival_times.iter().flatten().count();
        format!(
            "<gridpath.CrowdRun: {arrived} of {} units arrived in {:.1} s>",
            self.units, self.time
        )
    }
}

/// The settings of a crowd's run, read from keyword arguments.
pub struct CrowdArgs {
    radius: f64,
    speed: f64,
    accel: f64,
    dt: f64,
    max_time: f64,
}

impl CrowdArgs {
    /// Reads and checks the settings; each left out takes `gridpath crowd`'s default.
    pub fn new(
        radius: &Arg<'_>,
        speed: &Arg<'_>,
        accel: &Arg<'_>,
        dt: &Arg<'_>,
        max_time: &Arg<'_>,
    ) -> PyResult<Self> {
        let positive = |arg: &Arg<'_>, default: f64, what: &str| {
            let value = arg.number_in(default, 0.0, 1e6, what)?;
            if value > 0.0 {
                Ok(value)
            } else {
                Err(errors::argument(format!(
                    "{what} must be above 0, got {}",
                    arg.shown()
                )))
            }
        };
        Ok(CrowdArgs {
            radius: positive(radius, 0.4, "radius")?,
            speed: positive(speed, 1.5, "speed")?,
            accel: positive(accel, 4.0, "accel")?,
            dt: positive(dt, 0.1, "dt")?,
            max_time: positive(max_time, 600.0, "max_time")?,
        })
    }
}

/// Moves units from `starts` to `goals` (cells) over the grid until every one has arrived or
/// `max_time` has passed (see `Map.crowd`).
pub fn run(
    py: Python<'_>,
    grid: &Grid,
    starts: &Bound<'_, PyAny>,
    goals: &Bound<'_, PyAny>,
    settings: &CrowdArgs,
) -> PyResult<PyCrowdRun> {
    let (starts, goals) = crate::team::start_and_goal_cells(starts, goals)?;
    let topology = grid.topology();
    let centre = |cell| {
        let (x, y) = topology.centre(cell);
        Vec2::new(x, y)
    };
    let units: Vec<UnitSpec> = starts
        .iter()
        .zip(&goals)
        .map(|(&s, &g)| UnitSpec {
            start: centre(s),
            goal: centre(g),
            radius: settings.radius,
            max_speed: settings.speed,
            max_accel: settings.accel,
        })
        .collect();
    let steps = (settings.max_time / settings.dt).ceil() + 1.0;
    if steps * units.len() as f64 > MAX_POSITIONS {
        return Err(errors::argument(format!(
            "{} units over {steps} steps are more positions than one run keeps ({MAX_POSITIONS}): \
             give fewer units, a shorter max_time or a longer dt",
            units.len()
        )));
    }
    let crowd_settings = CrowdSettings {
        time_step: settings.dt,
        ..CrowdSettings::default()
    };
    let mut crowd =
        Crowd::on_map(grid, &units, crowd_settings).map_err(|e| errors::argument(e.to_string()))?;
    let control = SearchControl::new();
    let max_time = settings.max_time;
    let watch = &control;
    // Ctrl+C cancels the control: the run stops within a step and the interrupt is raised.
    let (positions, least, crowd) = watch::watched(py, &control, move || {
        let mut positions = Vec::new();
        let mut least = f64::INFINITY;
        let mut keep = |crowd: &Crowd, positions: &mut Vec<f64>| {
            positions.extend(
                crowd
                    .units()
                    .iter()
                    .flat_map(|u| [u.position.x, u.position.y]),
            );
            least = least.min(crowd.least_separation());
        };
        keep(&crowd, &mut positions);
        while !crowd.all_arrived() && crowd.time() < max_time && !watch.is_cancelled() {
            crowd.step();
            keep(&crowd, &mut positions);
        }
        (positions, least, crowd)
    })?;
    Ok(PyCrowdRun {
        positions,
        units: units.len(),
        arrival_times: crowd.units().iter().map(|u| u.arrived_at).collect(),
        time: crowd.time(),
        least_separation: least.is_finite().then_some(least),
    })
}
