//! `gridpath.Path`: the answer of one search, with numpy arrays of its cells and samples.

use gridpath_core::format::PathExport;
use gridpath_core::grid::{Cell, Map};
use gridpath_core::search::{SearchControl, SearchRequest, SearchResult};
use gridpath_core::smooth::SmoothError;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors;
use crate::options::SmoothOptions;

/// A smoothed path: its curve's samples in cells and, for a map with a world frame, in
/// metres.
#[derive(Clone, Debug)]
pub struct Smoothed {
    /// The line-of-sight waypoints, `[x, y]` in cells.
    waypoints: Vec<[f64; 2]>,
    /// Samples along the curve, `[x, y, heading, s]` in cells.
    samples: Vec<[f64; 4]>,
    /// The same samples in the world frame, `[x, y, yaw, s]` in metres.
    world: Option<Vec<[f64; 4]>>,
    /// Length and cost of the waypoints' polyline and of the curve, and the turning figures.
    figures: [(&'static str, Option<f64>); 6],
    /// How many of the curve's pieces are straight.
    straight_pieces: usize,
}

impl Smoothed {
    /// Smooths a found path on `map` through the route's `stops` and samples its curve,
    /// stopping with [`SmoothError::Cancelled`] once `control` is cancelled.
    pub fn new(
        map: &Map,
        request: &SearchRequest,
        result: &SearchResult,
        stops: &[Cell],
        options: SmoothOptions,
        control: &SearchControl,
    ) -> Result<Self, SmoothError> {
        options.settings.validate_for(&map.grid)?;
        let path = result.smoothed_controlled(&map.grid, stops, &options.settings, control)?;
        let figures = [
            ("length", Some(path.length)),
            ("cost", Some(path.cost)),
            ("curve_length", Some(path.curve_length)),
            ("curve_cost", Some(path.curve_cost)),
            ("min_turn_radius", path.min_turn_radius),
            ("max_heading_change", Some(path.max_heading_change)),
        ];
        let straight_pieces = path.straight_pieces;
        let waypoints = path.waypoints.iter().map(|p| [p.x, p.y]).collect();
        let export = PathExport::new(
            map,
            request,
            result,
            options.settings,
            Some(path),
            options.spacing,
        );
        Ok(Self {
            waypoints,
            samples: export.smoothed.map(|s| s.samples).unwrap_or_default(),
            world: export.world.map(|w| w.samples),
            figures,
            straight_pieces,
        })
    }
}

/// Rows of numbers as a 2-D array.
fn rows<'py, T: numpy::Element + Copy, const N: usize>(
    py: Python<'py>,
    values: &[[T; N]],
) -> PyResult<Bound<'py, PyArray2<T>>> {
    let flat: Vec<T> = values.iter().flatten().copied().collect();
    let array = Array2::from_shape_vec((values.len(), N), flat)
        .map_err(|e| errors::argument(e.to_string()))?;
    Ok(array.into_pyarray(py))
}

/// Cells as an `(n, 2)` array of `(x, y)`.
pub fn cells<'py>(py: Python<'py>, cells: &[Cell]) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let pairs: Vec<[i64; 2]> = cells
        .iter()
        .map(|c| [i64::from(c.x), i64::from(c.y)])
        .collect();
    rows(py, &pairs)
}

/// The answer of one search. ``cells`` is the path as an ``(n, 2)`` int64 array of
/// ``(x, y)``, start and goal included (empty when ``found`` is false); ``cost`` and
/// ``length`` are its cost under the map's costs and its geometric length (1 per straight
/// step, √2 per diagonal one); ``optimality`` says what is guaranteed of the cost.
#[pyclass(frozen, module = "gridpath", name = "Path")]
pub struct PyPath {
    request: SearchRequest,
    result: SearchResult,
    cells: Py<PyArray2<i64>>,
    order: Option<Vec<Cell>>,
    smoothed: Option<Smoothed>,
}

impl PyPath {
    /// Wraps a search's answer.
    pub fn new(
        py: Python<'_>,
        request: SearchRequest,
        result: SearchResult,
        order: Option<Vec<Cell>>,
        smoothed: Option<Smoothed>,
    ) -> PyResult<Self> {
        let cells = cells(py, &result.path)?.unbind();
        Ok(Self {
            request,
            result,
            cells,
            order,
            smoothed,
        })
    }
}

#[pymethods]
impl PyPath {
    /// Whether a path to the goal was found.
    #[getter]
    fn found(&self) -> bool {
        self.result.found
    }

    /// The path's cells as an ``(n, 2)`` int64 array of ``(x, y)``, start and goal included;
    /// for an any-angle path, every cell its segments cross.
    #[getter]
    fn cells(&self, py: Python<'_>) -> Py<PyArray2<i64>> {
        self.cells.clone_ref(py)
    }

    /// The path's cost; ``None`` when the search returned no path, as ``gridpath solve --json``
    /// says ``null``.
    #[getter]
    fn cost(&self) -> Option<f64> {
        (!self.result.path.is_empty()).then_some(self.result.cost)
    }

    /// The path's geometric length: 1 per orthogonal step, √2 per diagonal one; ``None`` when
    /// the search returned no path.
    #[getter]
    fn length(&self) -> Option<f64> {
        (!self.result.path.is_empty()).then_some(self.result.length)
    }

    /// What is guaranteed of the cost, as ``gridpath solve`` says it: for a path found,
    /// ``"exact"``, ``"≤ 1.5 × optimal"``, ``"no guarantee"``, ``"fewest steps (costs
    /// ignored)"``, ``"near-optimal, no bound"`` or ``"any-angle, ≤ best grid path"``; for a
    /// failed search ``"none"`` and why (``"none (no path)"``, ``"none (stopped: …)"``).
    #[getter]
    fn optimality(&self) -> String {
        gridpath_core::format::path_export::optimality_claim(&self.result)
    }

    /// Whether a path was found and its cost is guaranteed to be the cheapest.
    #[getter]
    fn exact(&self) -> bool {
        gridpath_core::format::path_export::why_no_optimality(&self.result).is_none()
            && self.result.optimality == gridpath_core::search::Optimality::Exact
    }

    /// The algorithm that ran, by its name (``"astar"``, ``"jps"``, …).
    #[getter]
    fn algorithm(&self) -> &'static str {
        self.request.algorithm.name()
    }

    /// The heuristic the search used, by its name.
    #[getter]
    fn heuristic(&self) -> &'static str {
        self.request.effective_heuristic().name()
    }

    /// The start ``(x, y)``.
    #[getter]
    fn start(&self) -> (u32, u32) {
        (self.request.start.x, self.request.start.y)
    }

    /// The goal ``(x, y)``.
    #[getter]
    fn goal(&self) -> (u32, u32) {
        (self.request.goal.x, self.request.goal.y)
    }

    /// The search's counters: ``expanded``, ``pushed``, ``max_open``, ``time_us`` (the
    /// search's own wall time in microseconds), ``budget_exhausted`` (IDA* ran out of
    /// nodes: "not found" then means "not found within the budget") and ``prepared_bytes``
    /// (the memory of the contraction hierarchy the query ran on, 0 for other searches).
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.result.stats;
        let d = PyDict::new(py);
        d.set_item("expanded", s.expanded)?;
        d.set_item("pushed", s.pushed)?;
        d.set_item("max_open", s.max_open)?;
        d.set_item("time_us", s.time_us)?;
        d.set_item("budget_exhausted", s.budget_exhausted)?;
        d.set_item("prepared_bytes", s.prepared_bytes)?;
        Ok(d)
    }

    /// An any-angle path's waypoints (``algorithm="theta"`` or ``"lazy-theta"``), whose
    /// centres its straight segments join, as an ``(m, 2)`` array; ``None`` otherwise.
    #[getter]
    fn waypoints<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyArray2<i64>>>> {
        self.result
            .waypoints
            .as_deref()
            .map(|w| cells(py, w))
            .transpose()
    }

    /// With ``partial=True``, when the goal could not be reached: the reachable cell nearest
    /// it, where the path ends; else ``None``.
    #[getter]
    fn reached(&self) -> Option<(u32, u32)> {
        self.result.reached.map(|c| (c.x, c.y))
    }

    /// For a route through waypoints: the points in the order visited (start, waypoints,
    /// goal, and the start again for a patrol); else ``None``.
    #[getter]
    fn order(&self) -> Option<Vec<(u32, u32)>> {
        self.order
            .as_ref()
            .map(|o| o.iter().map(|c| (c.x, c.y)).collect())
    }

    /// With ``record=True``: the expanded cells in the order expanded, an ``(k, 2)`` array;
    /// else ``None``.
    #[getter]
    fn explored<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyArray2<i64>>>> {
        self.result
            .trace
            .as_ref()
            .map(|t| cells(py, &t.expanded))
            .transpose()
    }

    /// With ``record=True``: the cells left on the open list, an ``(k, 2)`` array; else
    /// ``None``.
    #[getter]
    fn frontier<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyArray2<i64>>>> {
        self.result
            .trace
            .as_ref()
            .map(|t| cells(py, &t.open))
            .transpose()
    }

    /// With ``smooth=True``: points along the smoothed curve, at most ``spacing`` cells
    /// apart, as an ``(m, 4)`` array of ``(x, y, heading, s)``: continuous cell coordinates
    /// (cell ``(x, y)``'s centre is ``(x + 0.5, y + 0.5)``, y grows down), the heading in
    /// radians from +x towards +y, and the distance along the curve; else ``None``.
    #[getter]
    fn samples<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyArray2<f64>>>> {
        self.smoothed
            .as_ref()
            .map(|s| rows(py, &s.samples))
            .transpose()
    }

    /// With ``smooth=True`` on a map with a world frame: :attr:`samples` in the world frame,
    /// ``(x, y, yaw, s)`` in metres and radians with y up (ROS's ``map`` frame); else
    /// ``None``.
    #[getter]
    fn world_samples<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyArray2<f64>>>> {
        self.smoothed
            .as_ref()
            .and_then(|s| s.world.as_deref())
            .map(|w| rows(py, w))
            .transpose()
    }

    /// With ``smooth=True``: the line-of-sight waypoints the curve runs through, an
    /// ``(m, 2)`` float array of continuous cell coordinates; else ``None``.
    #[getter]
    fn smooth_waypoints<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<Bound<'py, PyArray2<f64>>>> {
        self.smoothed
            .as_ref()
            .map(|s| rows(py, &s.waypoints))
            .transpose()
    }

    /// With ``smooth=True``: the smoothed path's figures, a dict of ``length`` and ``cost``
    /// (of the waypoints' polyline), ``curve_length`` and ``curve_cost`` (of the curve),
    /// ``min_turn_radius`` (``None`` for a straight curve), ``max_heading_change`` and
    /// ``straight_pieces``; else ``None``.
    #[getter]
    fn smoothed<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(s) = &self.smoothed else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        for (key, value) in s.figures {
            d.set_item(key, value)?;
        }
        d.set_item("straight_pieces", s.straight_pieces)?;
        Ok(Some(d))
    }

    /// A one-line summary: the cost and steps, or why nothing was found.
    #[getter]
    fn message(&self) -> String {
        self.result.message()
    }

    /// The number of cells of the path.
    fn __len__(&self) -> usize {
        self.result.path.len()
    }

    /// Whether a path was found.
    fn __bool__(&self) -> bool {
        self.result.found
    }

    fn __repr__(&self) -> String {
        let (s, g) = (self.request.start, self.request.goal);
        if self.result.found {
            format!(
                "<gridpath.Path {} ({}, {}) → ({}, {}): {} cells, cost {:.6}, {}>",
                self.request.algorithm,
                s.x,
                s.y,
                g.x,
                g.y,
                self.result.path.len(),
                self.result.cost,
                self.result.optimality
            )
        } else {
            format!(
                "<gridpath.Path {} ({}, {}) → ({}, {}): not found>",
                self.request.algorithm, s.x, s.y, g.x, g.y
            )
        }
    }
}
