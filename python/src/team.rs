//! `Map.solve_team`: many units at once, through the engine's [`gridpath_core::mapf`] — the
//! solvers of `gridpath mapf`, their plans checked by its independent validator.

use std::time::Duration;

use gridpath_core::mapf::{self, Agent, Instance, MapfAlgorithm, MapfOutcome, MapfSettings, Moves};
use gridpath_core::search::SearchControl;
use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray1, PyArray3};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use std::path::PathBuf;

use gridpath_core::format::movingai;
use gridpath_core::format::read::{FileLimit, read_text};
use gridpath_core::grid::Grid;
use gridpath_core::mapf::ScenarioError;

use crate::args::{self, Arg};
use crate::errors;
use crate::options;
use crate::watch;

/// The most agents one call plans (as `gridpath mapf --agents`).
pub const MAX_AGENTS: u64 = 100_000;

/// The settings of a team's solve, read from keyword arguments with the ranges of
/// `gridpath mapf`.
pub struct TeamSettings {
    /// The solver.
    solver: MapfAlgorithm,
    /// The moves: 4 or 8 (no corner cutting).
    moves: Moves,
    /// The solver's settings: time limit, weight, anytime.
    settings: MapfSettings,
}

impl TeamSettings {
    /// Reads and checks the settings; each left out takes the command line's default.
    pub fn new(
        py: Python<'_>,
        algorithm: &Arg<'_>,
        moves: &Arg<'_>,
        time_limit: &Arg<'_>,
        weight: &Arg<'_>,
        anytime: &Arg<'_>,
    ) -> PyResult<Self> {
        let solver: MapfAlgorithm = algorithm
            .name("lacam", "algorithm")?
            .parse()
            .map_err(errors::argument)?;
        let four_or_eight =
            || errors::argument(format!("moves must be 4 or 8, got {}", moves.shown()));
        let moves = match moves.whole_in(4, 0, u64::MAX, "moves") {
            Ok(4) => Moves::Four,
            Ok(8) => Moves::EightNoCut,
            Err(e) if e.is_instance_of::<PyTypeError>(py) => return Err(e),
            Ok(_) | Err(_) => return Err(four_or_eight()),
        };
        let max_seconds = mapf::MAX_TIME_LIMIT.as_secs_f64();
        let seconds = time_limit.number(10.0, "time_limit")?;
        if !(seconds.is_finite() && seconds > 0.0 && seconds <= max_seconds) {
            return Err(errors::argument(format!(
                "time_limit must be a number of seconds above 0 and at most {max_seconds}, got {}",
                time_limit.shown()
            )));
        }
        let weight = weight.number_in(1.2, 1.0, mapf::MAX_WEIGHT, "weight")?;
        let settings = MapfSettings {
            time_limit: Duration::from_secs_f64(seconds),
            anytime: anytime.flag(false, "anytime")?,
            weight,
            ..MapfSettings::default()
        };
        Ok(Self {
            solver,
            moves,
            settings,
        })
    }
}

/// A team's plan, as ``gridpath mapf --json`` reports it: ``solved``, ``proof``, ``stopped``, ``bound``,
/// ``sum_of_costs``, ``makespan``, ``lower_bound``, ``proved_lower_bound``, ``time``,
/// ``first_plan_time``, ``expanded``, ``costs`` and ``arrivals`` per agent, and the plan as
/// ``positions``, an int64 array of shape (makespan + 1, agents, 2): each agent's cell
/// (x, y) at each tick.
#[pyclass(frozen, module = "gridpath", name = "TeamPlan")]
pub struct PyTeamPlan {
    outcome: MapfOutcome,
    algorithm: &'static str,
    agents: usize,
}

#[pymethods]
impl PyTeamPlan {
    /// Whether a plan was found.
    #[getter]
    fn solved(&self) -> bool {
        self.outcome.plan.is_some()
    }

    /// What the solver proved: ``optimal``, ``optimal-loss``, ``bounded``, ``feasible``,
    /// ``no-solution``, ``timed-out``, ``cancelled`` or ``gave-up``.
    #[getter]
    fn proof(&self) -> &'static str {
        self.outcome.proof.name()
    }

    /// Why the solver stopped: ``time-limit``, ``memory-limit``, ``proved-optimal``,
    /// ``proved-bound``, ``plan-found``, ``searched-everything``, ``cancelled`` or ``gave-up``.
    #[getter]
    fn stopped(&self) -> &'static str {
        self.outcome.stopped.name()
    }

    /// The factor of the optimum the plan is proved within: w for ``bounded``, 1 for
    /// ``optimal``, else ``None``.
    #[getter]
    fn bound(&self) -> Option<f64> {
        match self.outcome.proof {
            mapf::Proof::Bounded(w) => Some(w),
            mapf::Proof::Optimal => Some(1.0),
            _ => None,
        }
    }

    /// The plan's sum of costs (``None`` without a plan).
    #[getter]
    fn sum_of_costs(&self) -> Option<f64> {
        self.outcome.summary.as_ref().map(|s| s.sum_of_costs)
    }

    /// The plan's last arrival, in ticks (``None`` without a plan).
    #[getter]
    fn makespan(&self) -> Option<usize> {
        self.outcome.summary.as_ref().map(|s| s.makespan)
    }

    /// The sum of each agent's cheapest cost alone: no plan costs less.
    #[getter]
    fn lower_bound(&self) -> f64 {
        self.outcome.lower_bound
    }

    /// The least sum of costs the solver proved every plan needs when it stopped (CBS, ECBS
    /// and EECBS; ``None`` for the others).
    #[getter]
    fn proved_lower_bound(&self) -> Option<f64> {
        self.outcome.proved_bound
    }

    /// The solver's time, in seconds.
    #[getter]
    fn time(&self) -> f64 {
        self.outcome.time.as_secs_f64()
    }

    /// When the first plan was found, in seconds from the start (``None`` without one).
    #[getter]
    fn first_plan_time(&self) -> Option<f64> {
        self.outcome.first_plan_time.map(|t| t.as_secs_f64())
    }

    /// The nodes the solver expanded (configurations, constraint-tree nodes or ticks).
    #[getter]
    fn expanded(&self) -> u64 {
        self.outcome.expanded
    }

    /// Each agent's cost, a float64 array (empty without a plan).
    #[getter]
    fn costs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        let costs = self.outcome.summary.as_ref().map(|s| s.costs.clone());
        costs.unwrap_or_default().into_pyarray(py)
    }

    /// Each agent's arrival: the tick from which it stays on its goal, an int64 array (empty
    /// without a plan).
    #[getter]
    fn arrivals<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let arrivals: Vec<i64> = self
            .outcome
            .summary
            .as_ref()
            .map(|s| s.arrivals.iter().map(|&a| a as i64).collect())
            .unwrap_or_default();
        arrivals.into_pyarray(py)
    }

    /// Each agent's cell at each tick, an int64 array of shape (makespan + 1, agents, 2); an
    /// agent stays on its goal after it arrives. Shape (0, agents, 2) without a plan.
    #[getter]
    fn positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<i64>>> {
        let agents = self.agents;
        let Some(plan) = &self.outcome.plan else {
            return Ok(Array3::<i64>::zeros((0, agents, 2)).into_pyarray(py));
        };
        let ticks = plan.makespan() + 1;
        let mut cells = Array3::<i64>::zeros((ticks, agents, 2));
        for t in 0..ticks {
            for i in 0..agents {
                if let Some(c) = plan.position(i, t) {
                    cells[[t, i, 0]] = i64::from(c.x);
                    cells[[t, i, 1]] = i64::from(c.y);
                }
            }
        }
        Ok(cells.into_pyarray(py))
    }

    /// The solver's name, as ``algorithm`` takes it.
    #[getter]
    fn algorithm(&self) -> &'static str {
        self.algorithm
    }

    /// Whether a plan was found.
    fn __bool__(&self) -> bool {
        self.solved()
    }

    fn __repr__(&self) -> String {
        match &self.outcome.summary {
            Some(s) => format!(
                "<gridpath.TeamPlan {}: {} agents, {}, sum of costs {}, makespan {}>",
                self.algorithm,
                self.agents,
                self.outcome.proof.name(),
                s.sum_of_costs,
                s.makespan
            ),
            None => format!(
                "<gridpath.TeamPlan {}: {} agents, {}>",
                self.algorithm,
                self.agents,
                self.outcome.proof.name()
            ),
        }
    }
}

/// Reads a list of cells (`what`: "starts" or "goals").
fn cells(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<gridpath_core::grid::Cell>> {
    let most = usize::try_from(MAX_AGENTS).unwrap_or(usize::MAX);
    if value.is_instance_of::<PyString>() {
        return Err(args::wrong_type(value, what, "a list of cells (x, y)"));
    }
    let items: Vec<Bound<'_, PyAny>> = value
        .try_iter()
        .map_err(|_| args::wrong_type(value, what, "a list of cells (x, y)"))?
        .take(most + 1)
        .collect::<PyResult<_>>()?;
    if items.len() > most {
        return Err(errors::argument(format!(
            "at most {MAX_AGENTS} agents, got more {what}"
        )));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| options::cell(item, &format!("{what}[{i}]")))
        .collect()
}

/// The cells of `starts` and `goals`: as many of each, at least one, at most `MAX_AGENTS`.
pub fn start_and_goal_cells(
    starts: &Bound<'_, PyAny>,
    goals: &Bound<'_, PyAny>,
) -> PyResult<(
    Vec<gridpath_core::grid::Cell>,
    Vec<gridpath_core::grid::Cell>,
)> {
    let starts = cells(starts, "starts")?;
    let goals = cells(goals, "goals")?;
    if starts.is_empty() {
        // As `gridpath mapf --agents` takes 1 to 100000: a plan for no one proves nothing.
        return Err(errors::argument(format!(
            "a team needs at least one unit: starts and goals are empty (give 1 to {MAX_AGENTS})"
        )));
    }
    if starts.len() != goals.len() {
        return Err(errors::argument(format!(
            "{} starts and {} goals: give one goal per start",
            starts.len(),
            goals.len()
        )));
    }
    Ok((starts, goals))
}

/// Plans the agents from `starts` to `goals` on the map's grid (see `Map.solve_team`).
pub fn solve_team(
    py: Python<'_>,
    grid: &Grid,
    starts: &Bound<'_, PyAny>,
    goals: &Bound<'_, PyAny>,
    team: &TeamSettings,
) -> PyResult<PyTeamPlan> {
    let (starts, goals) = start_and_goal_cells(starts, goals)?;
    let agents = starts
        .into_iter()
        .zip(goals)
        .map(|(start, goal)| Agent { start, goal })
        .collect::<Vec<_>>();
    let count = agents.len();
    let instance = Instance::new(grid.clone(), agents, team.moves)
        .map_err(|e| errors::argument(e.to_string()))?;
    let control = SearchControl::new();
    let outcome = watch::watched(py, &control, || {
        mapf::solve(&instance, team.solver, &team.settings, &control)
    })?
    .map_err(|e| errors::argument(e.to_string()))?;
    Ok(PyTeamPlan {
        outcome,
        algorithm: team.solver.name(),
        agents: count,
    })
}

/// A team as Python gets it: the starts and the goals, each a list of cells `(x, y)`.
pub type Team = (Vec<(u32, u32)>, Vec<(u32, u32)>);

/// The first `agents` agents of a Moving AI scenario file for the map (all of them without
/// `agents`), as `(starts, goals)`, each a list of cells (see `Map.team_from_scenario`).
pub fn team_from_scenario(grid: &Grid, scen: PathBuf, agents: Option<u64>) -> PyResult<Team> {
    let fault = |message: String, place: Option<String>| {
        errors::raise::<errors::ScenarioError>(&message, Some(&scen), place)
    };
    let text = read_text(&scen, FileLimit::SCENARIO).map_err(|e| {
        // The reader's message may not name the file (a missing one says only "No such file
        // or directory").
        let message = e.to_string();
        let named = scen.display().to_string();
        let message = if message.contains(&named) {
            message
        } else {
            format!("{named}: {message}")
        };
        errors::raise::<errors::FileError>(&message, Some(&scen), None)
    })?;
    let queries = movingai::parse_scen(&text).map_err(|e| fault(e.to_string(), None))?;
    let k = agents.map_or(queries.len(), |k| usize::try_from(k).unwrap_or(usize::MAX));
    let instance = mapf::instance_from_queries(grid.clone(), &queries, k, Moves::Four, &scen)
        .map_err(|e| {
            let place = match &e {
                ScenarioError::MapSize { line, .. } | ScenarioError::Agent { line, .. } => {
                    Some(format!("line {line}"))
                }
                _ => None,
            };
            fault(e.to_string(), place)
        })?;
    let (starts, goals) = instance
        .agents()
        .iter()
        .map(|a| ((a.start.x, a.start.y), (a.goal.x, a.goal.y)))
        .unzip();
    Ok((starts, goals))
}
