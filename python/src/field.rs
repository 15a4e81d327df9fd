//! `gridpath.FlowField`: every cell's cost to one goal and its next step there.

use gridpath_core::grid::Cell;
use gridpath_core::search::{Diagonal, FlowField};
use numpy::ndarray::{Array2, Array3};
use numpy::{IntoPyArray, PyArray2, PyArray3};
use pyo3::prelude::*;

use crate::errors;
use crate::options;
use crate::path;

/// Every cell's cheapest cost to one goal and its first step there, from one Dijkstra from
/// the goal: many units heading for one target follow the steps instead of searching.
///
/// ``cost`` is a float64 array of shape ``(height, width)``, indexed ``[y, x]``, ``inf``
/// where the goal cannot be reached; ``next`` an int32 array of shape ``(height, width, 2)``
/// holding each cell's step ``(dx, dy)``, ``(0, 0)`` at the goal and where the goal cannot
/// be reached.
#[pyclass(frozen, module = "gridpath", name = "FlowField")]
pub struct PyFlowField {
    field: FlowField,
    diagonal: Diagonal,
    cost: Py<PyArray2<f64>>,
    next: Py<PyArray3<i32>>,
}

impl PyFlowField {
    /// Wraps a field, building its arrays.
    pub fn new(py: Python<'_>, field: &FlowField, diagonal: Diagonal) -> PyResult<Self> {
        let (w, h) = (field.width(), field.height());
        let shape = (h as usize, w as usize);
        let mut cost = Vec::with_capacity(shape.0 * shape.1);
        let mut next = Vec::with_capacity(shape.0 * shape.1 * 2);
        for y in 0..h {
            for x in 0..w {
                let cell = Cell::new(x, y);
                cost.push(field.cost(cell).unwrap_or(f64::INFINITY));
                next.extend(field.direction(cell).unwrap_or([0, 0]));
            }
        }
        let bad = |e: numpy::ndarray::ShapeError| errors::map(e.to_string());
        let cost = Array2::from_shape_vec(shape, cost).map_err(bad)?;
        let next = Array3::from_shape_vec((shape.0, shape.1, 2), next).map_err(bad)?;
        Ok(Self {
            field: field.clone(),
            diagonal,
            cost: cost.into_pyarray(py).unbind(),
            next: next.into_pyarray(py).unbind(),
        })
    }
}

#[pymethods]
impl PyFlowField {
    /// The cheapest cost from each cell to the goal, ``(height, width)``, ``inf`` where the
    /// goal cannot be reached.
    #[getter]
    fn cost(&self, py: Python<'_>) -> Py<PyArray2<f64>> {
        self.cost.clone_ref(py)
    }

    /// Each cell's first step ``(dx, dy)`` towards the goal, ``(height, width, 2)``; ``(0,
    /// 0)`` at the goal and where it cannot be reached.
    #[getter]
    fn next(&self, py: Python<'_>) -> Py<PyArray3<i32>> {
        self.next.clone_ref(py)
    }

    /// The goal ``(x, y)``.
    #[getter]
    fn goal(&self) -> (u32, u32) {
        let g = self.field.goal();
        (g.x, g.y)
    }

    /// The diagonal rule the field was computed under.
    #[getter]
    fn diagonal(&self) -> &'static str {
        self.diagonal.name()
    }

    /// How many cells can reach the goal, the goal included.
    #[getter]
    fn reachable(&self) -> usize {
        self.field.reachable_count()
    }

    /// The path from ``cell`` to the goal by following the steps, an ``(n, 2)`` array of
    /// ``(x, y)``; ``None`` when the goal cannot be reached from ``cell``.
    fn path_from<'py>(
        &self,
        py: Python<'py>,
        cell: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyArray2<i64>>>> {
        let cell = options::cell(cell, "cell")?;
        self.field
            .path_from(cell)
            .map(|p| path::cells(py, &p))
            .transpose()
    }

    fn __repr__(&self) -> String {
        let g = self.field.goal();
        format!(
            "<gridpath.FlowField to ({}, {}): {} cells reach it, largest cost {:.6}>",
            g.x,
            g.y,
            self.field.reachable_count(),
            self.field.max_cost()
        )
    }
}
