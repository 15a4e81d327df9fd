//! `gridpath.run_scenario`: a Moving AI scenario run through the engine's
//! [`gridpath_core::scenario`], the checks and figures of `gridpath scen`.

use std::path::PathBuf;

use gridpath_core::scenario::{self, ScenarioError, ScenarioOptions, ScenarioOutcome};
use gridpath_core::search::{SearchControl, SearchError};
use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args::{self, Arg};
use crate::errors;
use crate::map::PyMap;
use crate::options;
use crate::watch;

/// The figures of a scenario run, as ``gridpath scen --json`` prints them: ``queries``,
/// ``mismatches`` (costs that are not the file's optima), ``unchecked`` (queries the file
/// gives no optimum for), ``total_ms`` (the searches' own time), ``expanded``, ``mean_ratio`` and ``max_ratio`` (cost / optimal), ``jobs``,
/// ``wall_ms``, ``queries_per_second`` and ``preprocess_ms`` (``None`` for the algorithms
/// that build nothing first); with ``costs``, each query's cost (``inf`` where no path was
/// found), and ``mismatched``, a dict per mismatch.
#[pyclass(frozen, module = "gridpath", name = "ScenarioReport")]
pub struct PyScenarioReport {
    outcome: ScenarioOutcome,
    algorithm: &'static str,
}

#[pymethods]
impl PyScenarioReport {
    /// The number of queries run.
    #[getter]
    fn queries(&self) -> usize {
        self.outcome.queries
    }

    /// How many costs do not match the file's optima.
    #[getter]
    fn mismatches(&self) -> usize {
        self.outcome.mismatches
    }

    /// How many queries the file gives no optimum for (0 between two different cells, as in
    /// the MAPF benchmark's warehouse scenarios): answered, not checked.
    #[getter]
    fn unchecked(&self) -> usize {
        self.outcome.unchecked
    }

    /// Each mismatch: a dict of ``line``, ``start``, ``goal``, ``cost``, ``optimal`` and
    /// ``tolerance``.
    #[getter]
    fn mismatched<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.outcome
            .mismatched
            .iter()
            .map(|m| {
                let d = PyDict::new(py);
                d.set_item("line", m.line)?;
                d.set_item("start", (m.start.x, m.start.y))?;
                d.set_item("goal", (m.goal.x, m.goal.y))?;
                d.set_item("cost", m.cost)?;
                d.set_item("optimal", m.optimal)?;
                d.set_item("tolerance", m.tolerance)?;
                Ok(d)
            })
            .collect()
    }

    /// Each query's cost, in the file's order, a float64 array (``inf`` where no path was
    /// found).
    #[getter]
    fn costs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.outcome.costs.clone().into_pyarray(py)
    }

    /// The searches' own time added up, in milliseconds.
    #[getter]
    fn total_ms(&self) -> f64 {
        self.outcome.total_ms
    }

    /// The cells expanded by all the searches.
    #[getter]
    fn expanded(&self) -> u64 {
        self.outcome.expanded
    }

    /// The mean of cost / optimal.
    #[getter]
    fn mean_ratio(&self) -> f64 {
        self.outcome.mean_ratio
    }

    /// The largest cost / optimal.
    #[getter]
    fn max_ratio(&self) -> f64 {
        self.outcome.max_ratio
    }

    /// The threads asked for.
    #[getter]
    fn jobs(&self) -> usize {
        self.outcome.jobs
    }

    /// The wall time of answering every query, in milliseconds.
    #[getter]
    fn wall_ms(&self) -> f64 {
        self.outcome.wall_ms
    }

    /// Queries answered per second of wall time.
    #[getter]
    fn queries_per_second(&self) -> f64 {
        self.outcome.queries_per_second
    }

    /// The time of building the algorithm's structure or tables, in milliseconds; ``None``
    /// for the algorithms that build none.
    #[getter]
    fn preprocess_ms(&self) -> Option<f64> {
        self.outcome.preprocess_ms
    }

    /// The algorithm that ran.
    #[getter]
    fn algorithm(&self) -> &'static str {
        self.algorithm
    }

    /// Whether every cost matched its optimum.
    fn __bool__(&self) -> bool {
        self.outcome.mismatches == 0
    }

    fn __repr__(&self) -> String {
        let o = &self.outcome;
        format!(
            "<gridpath.ScenarioReport {}: {} queries, {} mismatches, {:.1} ms searching, {} cells expanded>",
            self.algorithm, o.queries, o.mismatches, o.total_ms, o.expanded
        )
    }
}

/// The exception of a scenario that cannot run.
fn scenario_error(error: &ScenarioError) -> PyErr {
    match error {
        ScenarioError::Load(e) => errors::load(e),
        ScenarioError::Empty { scen } => {
            errors::raise::<errors::ScenarioError>(&error.to_string(), Some(scen), None)
        }
        ScenarioError::WrongMap { scen, line, .. } | ScenarioError::Search { scen, line, .. } => {
            errors::raise::<errors::ScenarioError>(
                &error.to_string(),
                Some(scen),
                Some(format!("line {line}")),
            )
        }
        ScenarioError::Refused { map, .. } => {
            errors::raise::<errors::SearchError>(&error.to_string(), Some(map), None)
        }
    }
}

/// Runs every query of a Moving AI scenario file (``.scen``) on ``map`` (a :class:`Map`, or
/// the path of its ``.map`` file), 8-connected without corner cutting, and checks each cost
/// against the optimum the file gives, as ``gridpath scen`` does: returns a
/// :class:`ScenarioReport` (true when every cost matched).
///
/// ``algorithm``, ``heuristic`` and ``weight`` are :meth:`Map.find_path`'s; ``limit`` runs
/// only the first queries; ``jobs`` answers on that many threads (HPA* and the contraction
/// hierarchy on one). Raises :class:`ScenarioError` for a scenario that does not fit the map.
#[pyfunction]
#[pyo3(signature = (map, scen, *, algorithm=Arg::Missing, heuristic=None, weight=Arg::Missing,
                    limit=None, jobs=Arg::Missing),
       text_signature = "(map, scen, *, algorithm='astar', heuristic=None, weight=1.0, \
                         limit=None, jobs=1)")]
#[expect(
    clippy::too_many_arguments,
    reason = "the keyword arguments of the Python signature"
)]
pub fn run_scenario(
    py: Python<'_>,
    map: &Bound<'_, PyAny>,
    scen: &Bound<'_, PyAny>,
    algorithm: Arg<'_>,
    heuristic: Option<&Bound<'_, PyAny>>,
    weight: Arg<'_>,
    limit: Option<&Bound<'_, PyAny>>,
    jobs: Arg<'_>,
) -> PyResult<PyScenarioReport> {
    let scen = args::path(scen, "scen")?;
    let algorithm = options::algorithm(&algorithm)?;
    let heuristic = options::heuristic(heuristic)?;
    let weight = options::weight(&weight)?;
    let limit = args::whole_or_none(limit, 0, u64::MAX, "limit")?;
    let jobs = jobs.whole_in(1, 1, crate::map::MAX_JOBS, "jobs")?;
    let jobs = usize::try_from(jobs).unwrap_or(1);
    let loaded;
    let (map, map_path) = if !map.is_instance_of::<PyMap>() {
        let path = args::path(map, "map").map_err(|_| {
            args::wrong_type(map, "map", "a gridpath.Map or the path of a Moving AI map")
        })?;
        let read = py
            .detach(|| gridpath_core::format::load_map(&path))
            .map_err(|e| errors::load(&e))?;
        loaded = PyMap::new(read);
        (&loaded, path)
    } else {
        let map = map.cast::<PyMap>()?;
        let path = PathBuf::from(format!("{}.map", map.get().map.name));
        (map.get(), path)
    };
    let mut queries = py
        .detach(|| scenario::read_queries(&scen))
        .map_err(|e| errors::load(&e))?;
    if let Some(limit) = limit {
        queries.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    }
    let options = ScenarioOptions {
        algorithm,
        heuristic,
        weight,
        jobs,
    };
    let control = SearchControl::new();
    let outcome = watch::watched(py, &control, || {
        scenario::run(
            &map.map.grid,
            (&map_path, &scen),
            &queries,
            &options,
            &control,
        )
    })?;
    match outcome {
        Ok(outcome) => Ok(PyScenarioReport {
            outcome,
            algorithm: algorithm.name(),
        }),
        Err(ScenarioError::Search {
            error: SearchError::Cancelled,
            ..
        }) => Err(errors::raise::<errors::Error>(
            "the scenario run was cancelled",
            Some(&scen),
            None,
        )),
        Err(error) => Err(scenario_error(&error)),
    }
}
