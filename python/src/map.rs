//! `gridpath.Map`: a map read from a file or built from a numpy array, with the searches
//! that run on it.
//!
//! A map keeps, per diagonal rule, the search graph it built for the first search under that
//! rule, and a few searchers whose state arrays are already the map's size, so that a search
//! after the first allocates nothing and a short one costs microseconds.

use std::sync::{Mutex, OnceLock, PoisonError};

use gridpath_core::format::registry::{self, FileKind};
use gridpath_core::format::ros_write::{RosImage, write_ros_map};
use gridpath_core::format::{height_image, save};
use gridpath_core::grid::{Cell, GeoReference, MAX_HEIGHT, Map};
use gridpath_core::search::{
    self, Algorithm, ContractionHierarchy, Diagonal, FlowField, RouteOrder, SearchControl,
    SearchGraph, SearchRequest, SearchResult, Searcher,
};
use numpy::ndarray::Array2;
use numpy::{AllowTypeChange, IntoPyArray, PyArray2, PyArrayLike2};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::args::{self, Arg};
use crate::costs::{grid_from_costs, terrain_names};
use crate::errors;
use crate::field::PyFlowField;
use crate::load::load_any;
use crate::options::{self, SearchOptions, SmoothOptions};
use crate::path::{PyPath, Smoothed};
use crate::watch;

/// Searches on maps of at most this many cells run on the calling thread: even a search that
/// expands every cell ends within a few tens of milliseconds, so Ctrl+C is answered as soon
/// as it returns. Larger maps, and the algorithms that build a structure first, run watched.
const INLINE_CELLS: usize = 1 << 18;

/// The most threads a batch asks for, as `gridpath scen --jobs` (more than the machine's cores
/// run on the cores).
pub const MAX_JOBS: u64 = 1024;

/// Reads a list of cells (`what`: "via", "starts" or "goals"), each named by its index in
/// errors.
fn cells(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<Cell>> {
    let expected = "a list of cells (x, y)";
    if value.is_instance_of::<pyo3::types::PyString>() {
        return Err(args::wrong_type(value, what, expected));
    }
    value
        .try_iter()
        .map_err(|_| args::wrong_type(value, what, expected))?
        .enumerate()
        .map(|(i, item)| options::cell(&item?, &format!("{what}[{i}]")))
        .collect()
}

/// A map: a grid of terrains (each with a cost, or impassable), optional heights, a start, a
/// goal, waypoints, and a world frame when it came from a robot's occupancy map.
#[pyclass(frozen, module = "gridpath", name = "Map")]
pub struct PyMap {
    /// The map.
    pub map: Map,
    /// The search graph of each diagonal rule, built on first use.
    graphs: [OnceLock<SearchGraph>; 4],
    /// Searchers whose state arrays have grown to the map's size, for reuse (boxed: a
    /// searcher is a large struct, and a call moves it out of the pool and back).
    #[expect(
        clippy::vec_box,
        reason = "a call takes a searcher out of the pool and puts it back: a box moves as a pointer"
    )]
    searchers: Mutex<Vec<Box<Searcher>>>,
    /// The contraction hierarchy of each diagonal rule, built by the first `find_path` that
    /// asks for one and kept for the next: its build takes seconds on a large map, its
    /// queries microseconds.
    hierarchies: [Mutex<Option<ContractionHierarchy>>; 4],
}

impl PyMap {
    /// Wraps a map.
    pub fn new(map: Map) -> Self {
        Self {
            map,
            graphs: Default::default(),
            searchers: Mutex::new(Vec::new()),
            hierarchies: Default::default(),
        }
    }

    /// The search graph for a diagonal rule, built once (without the GIL).
    pub fn graph(&self, py: Python<'_>, diagonal: Diagonal) -> &SearchGraph {
        let slot = &self.graphs[diagonal_index(diagonal)];
        if let Some(graph) = slot.get() {
            return graph;
        }
        py.detach(|| slot.get_or_init(|| SearchGraph::new(&self.map.grid, diagonal)))
    }

    /// Runs `work` with a searcher of the map's pool, and puts it back.
    fn with_searcher<T>(&self, work: impl FnOnce(&mut Searcher) -> T) -> T {
        let taken = self
            .searchers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        let mut searcher = taken.unwrap_or_default();
        let out = work(&mut searcher);
        self.searchers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(searcher);
        out
    }

    /// One search, on the calling thread for short work, watched for Ctrl+C otherwise.
    fn search_one(
        &self,
        py: Python<'_>,
        graph: &SearchGraph,
        request: &SearchRequest,
    ) -> PyResult<SearchResult> {
        let slow = matches!(
            request.algorithm,
            Algorithm::Hpa | Algorithm::ContractionHierarchy
        );
        let answer = if graph.len() <= INLINE_CELLS && !slow {
            watch::inline(py, || {
                self.with_searcher(|searcher| searcher.search(graph, request))
            })
        } else {
            let control = SearchControl::new();
            watch::watched(py, &control, || {
                self.with_searcher(|searcher| searcher.search_controlled(graph, request, &control))
            })?
        };
        answer.map_err(|e| errors::search(&e))
    }

    /// A query of the contraction hierarchy kept for the request's diagonal rule, built first
    /// when there is none yet, watched for Ctrl+C (a cancelled build keeps nothing). A request
    /// the hierarchy would refuse is refused before any build.
    fn search_hierarchy(
        &self,
        py: Python<'_>,
        graph: &SearchGraph,
        request: &SearchRequest,
    ) -> PyResult<SearchResult> {
        // Refused as the one-off search refuses it, before any build.
        ContractionHierarchy::check_request(graph, request).map_err(|e| errors::search(&e))?;
        let slot = &self.hierarchies[diagonal_index(request.diagonal)];
        let control = SearchControl::new();
        let answer = watch::watched(py, &control, || {
            let mut kept = slot.lock().unwrap_or_else(PoisonError::into_inner);
            let hierarchy = match kept.take() {
                Some(built) => built,
                None => ContractionHierarchy::from_graph_controlled(graph.clone(), &control)?,
            };
            kept.insert(hierarchy).find_path(request)
        })?;
        answer.map_err(|e| errors::search(&e))
    }

    /// The start or goal given, else the map's own.
    fn endpoint(
        &self,
        given: Option<&Bound<'_, PyAny>>,
        own: Option<Cell>,
        what: &str,
    ) -> PyResult<Cell> {
        match given {
            Some(value) if !value.is_none() => options::cell(value, what),
            _ => own.ok_or_else(|| {
                errors::argument(format!("the map has no {what}: give one as (x, y)"))
            }),
        }
    }
}

/// The place of a diagonal rule in [`Diagonal::ALL`].
fn diagonal_index(diagonal: Diagonal) -> usize {
    Diagonal::ALL
        .iter()
        .position(|&d| d == diagonal)
        .unwrap_or_default()
}

#[pymethods]
impl PyMap {
    /// Reads a map from a file of any kind the command line reads, chosen by its extension:
    /// a gridpath map (.json), a Moving AI map (.map), a Tiled map (.tmx, .tmj), an LDtk
    /// project (.ldtk), an image (.png, .jpg, .bmp, .pgm, …) read as an occupancy grid (or by
    /// its colours with ``palette=True``), or a ROS map (.yaml with its image).
    ///
    /// ``level`` and ``layer`` choose the LDtk level and the Tiled or LDtk layer;
    /// ``threshold``, ``free_threshold`` and ``negate`` adjust an occupancy import;
    /// ``heights`` names a grayscale image of the cells' heights (black 0, white
    /// ``max_height``). Raises :class:`FileError` naming the file and the place at fault.
    #[staticmethod]
    #[pyo3(signature = (path, *, level=None, layer=None, palette=Arg::Missing, threshold=None,
                        free_threshold=None, negate=Arg::Missing, heights=None,
                        max_height=Arg::Missing),
           text_signature = "(path, *, level=None, layer=None, palette=False, threshold=None, \
                             free_threshold=None, negate=False, heights=None, max_height=10.0)")]
    #[expect(
        clippy::too_many_arguments,
        reason = "the keyword arguments of the Python signature"
    )]
    fn load(
        py: Python<'_>,
        path: &Bound<'_, PyAny>,
        level: Option<&Bound<'_, PyAny>>,
        layer: Option<&Bound<'_, PyAny>>,
        palette: Arg<'_>,
        threshold: Option<&Bound<'_, PyAny>>,
        free_threshold: Option<&Bound<'_, PyAny>>,
        negate: Arg<'_>,
        heights: Option<&Bound<'_, PyAny>>,
        max_height: Arg<'_>,
    ) -> PyResult<Self> {
        let path = args::path(path, "path")?;
        let level = args::name_or_none(level, "level")?;
        let layer = args::name_or_none(layer, "layer")?;
        let palette = palette.flag(false, "palette")?;
        let negate = negate.flag(false, "negate")?;
        let fraction = |value: Option<&Bound<'_, PyAny>>, what: &str| {
            value
                .filter(|v| !v.is_none())
                .map(|v| args::number_in(v, 0.0, 1.0, what))
                .transpose()
        };
        let threshold = fraction(threshold, "threshold")?;
        let free_threshold = fraction(free_threshold, "free_threshold")?;
        let heights = args::path_or_none(heights, "heights")?;
        let max_height = max_height.number_in(10.0, 0.0, f64::from(MAX_HEIGHT), "max_height")?;
        let mut map = py.detach(|| {
            load_any(
                &path,
                level,
                layer,
                palette,
                threshold,
                free_threshold,
                negate,
            )
        })?;
        if let Some(image) = heights {
            let grid = &mut map.grid;
            let values = py
                .detach(|| {
                    height_image::load_heights(&image, grid.width(), grid.height(), max_height)
                })
                .map_err(|e| errors::import(&e, &image))?;
            grid.set_heights(Some(values))
                .map_err(|e| errors::grid(&e))?;
        }
        Ok(Self::new(map))
    }

    /// Builds a map from a 2-D array of costs, indexed ``costs[y, x]`` (rows, then columns):
    /// each finite value is the cost of crossing that cell (from 1e-6 to 1e6), ``inf`` or
    /// ``nan`` makes it impassable. Each distinct cost becomes a terrain (at most 255);
    /// ``names`` may name them, as a dict from cost to name (``inf`` or ``None`` for the
    /// impassable cells).
    ///
    /// ``heights`` is an array of the same shape giving each cell's height; ``resolution``
    /// (metres per cell) and ``origin`` ``(x, y, yaw)`` give the map a world frame; ``start``
    /// and ``goal`` are the default endpoints of :meth:`find_path`.
    #[staticmethod]
    #[pyo3(signature = (costs, heights=None, names=None, *, name=Arg::Missing, resolution=None,
                        origin=None, start=None, goal=None),
           text_signature = "(costs, heights=None, names=None, *, name='map', resolution=None, \
                             origin=None, start=None, goal=None)")]
    #[expect(
        clippy::too_many_arguments,
        reason = "the keyword arguments of the Python signature"
    )]
    fn from_numpy(
        costs: &Bound<'_, PyAny>,
        heights: Option<&Bound<'_, PyAny>>,
        names: Option<&Bound<'_, PyAny>>,
        name: Arg<'_>,
        resolution: Option<&Bound<'_, PyAny>>,
        origin: Option<&Bound<'_, PyAny>>,
        start: Option<&Bound<'_, PyAny>>,
        goal: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let name = name.name("map", "name")?;
        let resolution = args::number_or_none(resolution, "resolution")?;
        let origin = args::pose_or_none(origin, "origin")?;
        let costs: PyArrayLike2<'_, f64, AllowTypeChange> = costs
            .extract()
            .map_err(|e| errors::map(format!("costs must be a 2-D array of numbers: {e}")))?;
        let names = terrain_names(names)?;
        let grid = grid_from_costs(costs.as_array(), &names)?;
        let mut map = Map::new(&name, grid);
        if let Some(heights) = heights.filter(|h| !h.is_none()) {
            let heights: PyArrayLike2<'_, f32, AllowTypeChange> = heights
                .extract()
                .map_err(|e| errors::map(format!("heights must be a 2-D array of numbers: {e}")))?;
            let view = heights.as_array();
            if view.shape() != costs.as_array().shape() {
                return Err(errors::map(format!(
                    "heights is {:?} but costs is {:?}: they must have the same shape",
                    view.shape(),
                    costs.as_array().shape()
                )));
            }
            map.grid
                .set_heights(Some(view.iter().copied().collect()))
                .map_err(|e| errors::grid(&e))?;
        }
        if resolution.is_some() || origin.is_some() {
            let Some(resolution) = resolution else {
                return Err(errors::argument(
                    "origin needs a resolution (metres per cell) too",
                ));
            };
            let (x, y, yaw) = origin.unwrap_or_default();
            map.metadata =
                Some(GeoReference::new(resolution, [x, y, yaw]).map_err(errors::argument)?);
        }
        for (given, slot, what) in [
            (start, &mut map.start, "start"),
            (goal, &mut map.goal, "goal"),
        ] {
            if let Some(value) = given.filter(|v| !v.is_none()) {
                let cell = options::cell(value, what)?;
                if !map.grid.contains_cell(cell) {
                    return Err(errors::raise::<errors::MapError>(
                        &format!(
                            "the {what} ({}, {}) is outside the {} × {} map",
                            cell.x,
                            cell.y,
                            map.grid.width(),
                            map.grid.height()
                        ),
                        None,
                        Some(what.to_owned()),
                    ));
                }
                *slot = Some(cell);
            }
        }
        Ok(Self::new(map))
    }

    /// The cost of every cell as a float64 array of shape ``(height, width)``, indexed
    /// ``[y, x]``; ``inf`` where the cell is impassable. ``Map.from_numpy(m.to_numpy())``
    /// gives a map with the same costs.
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let grid = &self.map.grid;
        let costs: Vec<f64> = grid
            .terrains()
            .iter()
            .map(|t| t.cost.unwrap_or(f64::INFINITY))
            .collect();
        let values: Vec<f64> = grid
            .cells()
            .iter()
            .map(|&id| costs[usize::from(id)])
            .collect();
        let shape = (grid.height() as usize, grid.width() as usize);
        let array =
            Array2::from_shape_vec(shape, values).map_err(|e| errors::map(e.to_string()))?;
        Ok(array.into_pyarray(py))
    }

    /// The terrain of every cell, as an index into :attr:`terrains`: a uint8 array of shape
    /// ``(height, width)``, indexed ``[y, x]``.
    fn terrain_ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let grid = &self.map.grid;
        let shape = (grid.height() as usize, grid.width() as usize);
        let array = Array2::from_shape_vec(shape, grid.cells().to_vec())
            .map_err(|e| errors::map(e.to_string()))?;
        Ok(array.into_pyarray(py))
    }

    /// Writes the map in the format its extension names: .json (every detail, heights
    /// included), .map (Moving AI), .tmj or .tmx (Tiled, with its tileset image beside it),
    /// .png (one pixel of its terrain's colour per cell), or .yaml (a ROS map with its .pgm
    /// beside it, in the map's world frame or the one ``resolution`` and ``origin`` give).
    /// The previous version of the file is kept as NAME.bak (not for .yaml).
    #[pyo3(signature = (path, *, resolution=None, origin=None))]
    fn save(
        &self,
        py: Python<'_>,
        path: &Bound<'_, PyAny>,
        resolution: Option<&Bound<'_, PyAny>>,
        origin: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let path = args::path(path, "path")?;
        let resolution = args::number_or_none(resolution, "resolution")?;
        let origin = args::pose_or_none(origin, "origin")?;
        let ros = registry::kind_of(&path) == Some(FileKind::RosMap);
        if !ros {
            if resolution.is_some() || origin.is_some() {
                return Err(errors::argument(format!(
                    "resolution and origin apply to a ROS map (.yaml), not to {}",
                    path.display()
                )));
            }
            return py
                .detach(|| save::save_map(&self.map, &path))
                .map_err(|e| errors::save(&e));
        }
        let own = self.map.metadata;
        let resolution = resolution.or(own.map(|g| g.resolution)).ok_or_else(|| {
            errors::argument(
                "the map has no world frame: give resolution (metres per cell) and origin (x, y, yaw)",
            )
        })?;
        let origin = origin
            .map(|(x, y, yaw)| [x, y, yaw])
            .or(own.map(|g| g.origin))
            .unwrap_or([0.0; 3]);
        let geo = GeoReference::new(resolution, origin).map_err(errors::argument)?;
        py.detach(|| write_ros_map(&self.map, &path, &geo, RosImage::Occupancy))
            .map(drop)
            .map_err(|e| errors::save(&e))
    }

    /// The map's name (a file's stem, or the name given to :meth:`from_numpy`).
    #[getter]
    fn name(&self) -> &str {
        &self.map.name
    }

    /// The number of columns.
    #[getter]
    fn width(&self) -> u32 {
        self.map.grid.width()
    }

    /// The number of rows.
    #[getter]
    fn height(&self) -> u32 {
        self.map.grid.height()
    }

    /// ``(height, width)``: the shape of :meth:`to_numpy`'s array.
    #[getter]
    fn shape(&self) -> (u32, u32) {
        (self.map.grid.height(), self.map.grid.width())
    }

    /// The default start ``(x, y)``, or ``None``.
    #[getter]
    fn start(&self) -> Option<(u32, u32)> {
        self.map.start.map(|c| (c.x, c.y))
    }

    /// The default goal ``(x, y)``, or ``None``.
    #[getter]
    fn goal(&self) -> Option<(u32, u32)> {
        self.map.goal.map(|c| (c.x, c.y))
    }

    /// The map's waypoints ``[(x, y), …]``, which :meth:`find_path` visits by default.
    #[getter]
    fn waypoints(&self) -> Vec<(u32, u32)> {
        self.map.waypoints.iter().map(|c| (c.x, c.y)).collect()
    }

    /// Metres per cell in the map's world frame, or ``None`` when it has none.
    #[getter]
    fn resolution(&self) -> Option<f64> {
        self.map.metadata.map(|g| g.resolution)
    }

    /// The pose ``(x, y, yaw)`` of the map's lower-left corner in its world frame (metres,
    /// metres, radians), or ``None`` when it has none.
    #[getter]
    fn origin(&self) -> Option<(f64, f64, f64)> {
        self.map
            .metadata
            .map(|g| (g.origin[0], g.origin[1], g.origin[2]))
    }

    /// The terrains, indexed by :meth:`terrain_ids`: a list of dicts with ``name``,
    /// ``symbol``, ``color`` (``"#rrggbb"``) and ``cost`` (``None`` when impassable).
    #[getter]
    fn terrains<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for t in self.map.grid.terrains() {
            let d = PyDict::new(py);
            d.set_item("name", &t.name)?;
            d.set_item("symbol", t.symbol.to_string())?;
            d.set_item("color", t.color.to_string())?;
            d.set_item("cost", t.cost)?;
            list.append(d)?;
        }
        Ok(list)
    }

    /// Each cell's height as a float32 array of shape ``(height, width)``, or ``None`` for a
    /// flat map.
    #[getter]
    fn heights<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyArray2<f32>>>> {
        let grid = &self.map.grid;
        let Some(values) = grid.heights() else {
            return Ok(None);
        };
        let shape = (grid.height() as usize, grid.width() as usize);
        let array = Array2::from_shape_vec(shape, values.to_vec())
            .map_err(|e| errors::map(e.to_string()))?;
        Ok(Some(array.into_pyarray(py)))
    }

    /// Finds a path from ``start`` to ``goal`` (cells ``(x, y)``; by default the map's own)
    /// and returns a :class:`Path` (``found`` is false when the goal cannot be reached).
    ///
    /// ``algorithm``: one of :data:`ALGORITHMS` (``"astar"``, ``"dijkstra"``, ``"jps"``,
    /// ``"theta"``, …). ``diagonal``: ``"never"``, ``"always"``, ``"one-free"`` or
    /// ``"no-cut"`` (no corner cutting, the Moving AI rule). ``heuristic``: ``"octile"``,
    /// ``"euclidean"``, ``"chebyshev"``, ``"manhattan"`` or ``"zero"`` (default: octile, or
    /// manhattan with ``diagonal="never"``). ``weight`` ≥ 1 weights A*'s heuristic;
    /// ``turn_penalty`` prices every 45° turn; ``unit_size`` plans for a unit of N × N cells.
    /// ``via`` lists waypoints to visit in order (the map's own by default; ``best_order``
    /// visits them in the cheapest order, ``patrol`` returns to the start). ``partial`` plans
    /// to the nearest reachable cell when the goal cannot be reached; ``record`` keeps the
    /// expanded cells (:attr:`Path.explored`). ``smooth`` adds the smoothed curve and its
    /// samples (``tension``, ``clearance``, ``min_turn_radius`` in cells, samples at most
    /// ``spacing`` cells apart).
    ///
    /// Raises :class:`SearchError` when an endpoint is off the map or impassable or the
    /// algorithm refuses the map, :class:`ArgumentError` for a bad option. Ctrl+C stops a
    /// long search with ``KeyboardInterrupt``.
    #[pyo3(signature = (start=None, goal=None, *, algorithm=Arg::Missing,
                        diagonal=Arg::Missing, heuristic=None, weight=Arg::Missing,
                        turn_penalty=Arg::Missing, unit_size=Arg::Missing, via=None,
                        best_order=Arg::Missing, patrol=Arg::Missing, partial=Arg::Missing,
                        record=Arg::Missing, smooth=Arg::Missing, tension=Arg::Missing,
                        clearance=Arg::Missing, min_turn_radius=Arg::Missing,
                        spacing=Arg::Missing),
           text_signature = "($self, start=None, goal=None, *, algorithm='astar', \
                             diagonal='no-cut', heuristic=None, weight=1.0, turn_penalty=0.0, \
                             unit_size=1, via=None, best_order=False, patrol=False, \
                             partial=False, record=False, smooth=False, tension=0.5, \
                             clearance=0.25, min_turn_radius=0.0, spacing=0.25)")]
    #[expect(
        clippy::too_many_arguments,
        reason = "the keyword arguments of the Python signature"
    )]
    fn find_path(
        &self,
        py: Python<'_>,
        start: Option<&Bound<'_, PyAny>>,
        goal: Option<&Bound<'_, PyAny>>,
        algorithm: Arg<'_>,
        diagonal: Arg<'_>,
        heuristic: Option<&Bound<'_, PyAny>>,
        weight: Arg<'_>,
        turn_penalty: Arg<'_>,
        unit_size: Arg<'_>,
        via: Option<&Bound<'_, PyAny>>,
        best_order: Arg<'_>,
        patrol: Arg<'_>,
        partial: Arg<'_>,
        record: Arg<'_>,
        smooth: Arg<'_>,
        tension: Arg<'_>,
        clearance: Arg<'_>,
        min_turn_radius: Arg<'_>,
        spacing: Arg<'_>,
    ) -> PyResult<PyPath> {
        let options = SearchOptions::new(
            &algorithm,
            &diagonal,
            heuristic,
            &weight,
            &turn_penalty,
            partial.flag(false, "partial")?,
            record.flag(false, "record")?,
        )?;
        let unit_size = unit_size.whole_in(1, 1, 64, "unit_size")?;
        let unit_size = u32::try_from(unit_size).unwrap_or(1);
        let best_order = best_order.flag(false, "best_order")?;
        let patrol = patrol.flag(false, "patrol")?;
        // The smoothing settings are checked whether or not the path is smoothed.
        let smoothing = SmoothOptions::new(&tension, &clearance, &min_turn_radius, &spacing)?;
        let smoothing = smooth.flag(false, "smooth")?.then_some(smoothing);
        let start = self.endpoint(start, self.map.start, "start")?;
        let goal = self.endpoint(goal, self.map.goal, "goal")?;
        let via = match via.filter(|v| !v.is_none()) {
            Some(list) => cells(list, "via")?,
            None => self.map.waypoints.clone(),
        };
        let request = options.request(start, goal);
        // A unit larger than a cell plans on the grid of the places its footprint fits.
        let unit_map = if unit_size > 1 {
            let grid = py
                .detach(|| search::grid_for_unit(&self.map.grid, unit_size))
                .map_err(|e| errors::grid(&e))?;
            Some(Map {
                name: self.map.name.clone(),
                grid,
                start: self.map.start,
                goal: self.map.goal,
                waypoints: self.map.waypoints.clone(),
                metadata: self.map.metadata,
            })
        } else {
            None
        };
        let own_graph;
        let graph = match &unit_map {
            Some(map) => {
                own_graph = py.detach(|| SearchGraph::new(&map.grid, options.diagonal));
                &own_graph
            }
            None => self.graph(py, options.diagonal),
        };
        let routed = !via.is_empty() || patrol;
        let (result, order) = if routed {
            let order = if best_order {
                RouteOrder::Cheapest
            } else {
                RouteOrder::AsGiven
            };
            let route = py
                .detach(|| search::route(graph, &request, &via, order, patrol))
                .map_err(|e| errors::search(&e))?;
            (route.result, Some(route.order))
        } else if request.algorithm == Algorithm::ContractionHierarchy
            && unit_map.is_none()
            && request.turn_penalty == 0.0
            && !request.partial
        {
            (self.search_hierarchy(py, graph, &request)?, None)
        } else {
            (self.search_one(py, graph, &request)?, None)
        };
        let map = unit_map.as_ref().unwrap_or(&self.map);
        let smoothed = match smoothing {
            Some(s) if result.found => {
                let stops = order.as_deref().unwrap_or(&[]);
                // Watched as the search is: Ctrl+C stops a long smoothing too.
                let control = SearchControl::new();
                let smoothed = watch::watched(py, &control, || {
                    Smoothed::new(map, &request, &result, stops, s, &control)
                })?;
                Some(smoothed.map_err(|e| errors::smooth(&e))?)
            }
            _ => None,
        };
        PyPath::new(py, request, result, order, smoothed)
    }

    /// Answers many queries at once on ``jobs`` threads (default: every core) with the GIL
    /// released, each thread with its own search state; returns one :class:`Path` per pair,
    /// in order. ``pairs`` is a sequence of ``((sx, sy), (gx, gy))`` or an array of shape
    /// ``(n, 2, 2)`` or ``(n, 4)``. HPA* and the contraction hierarchy build their structure
    /// once for the whole batch. The search options are :meth:`find_path`'s; a query that
    /// cannot run raises :class:`SearchError` naming its index. Ctrl+C stops the batch.
    #[pyo3(signature = (pairs, *, jobs=None, algorithm=Arg::Missing, diagonal=Arg::Missing,
                        heuristic=None, weight=Arg::Missing, turn_penalty=Arg::Missing),
           text_signature = "($self, pairs, *, jobs=None, algorithm='astar', diagonal='no-cut', \
                             heuristic=None, weight=1.0, turn_penalty=0.0)")]
    #[expect(
        clippy::too_many_arguments,
        reason = "the keyword arguments of the Python signature"
    )]
    fn find_paths(
        &self,
        py: Python<'_>,
        pairs: &Bound<'_, PyAny>,
        jobs: Option<&Bound<'_, PyAny>>,
        algorithm: Arg<'_>,
        diagonal: Arg<'_>,
        heuristic: Option<&Bound<'_, PyAny>>,
        weight: Arg<'_>,
        turn_penalty: Arg<'_>,
    ) -> PyResult<Vec<PyPath>> {
        let options = SearchOptions::new(
            &algorithm,
            &diagonal,
            heuristic,
            &weight,
            &turn_penalty,
            false,
            false,
        )?;
        let threads = match args::whole_or_none(jobs, 1, MAX_JOBS, "jobs")? {
            Some(jobs) => usize::try_from(jobs).unwrap_or(1),
            None => std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        };
        let requests = options::pairs(pairs)?
            .into_iter()
            .map(|(start, goal)| options.request(start, goal))
            .collect::<Vec<_>>();
        let graph = self.graph(py, options.diagonal);
        let control = SearchControl::new();
        let answers = watch::watched(py, &control, || {
            search::solve_all(graph, &requests, threads, &control)
        })?;
        answers
            .into_iter()
            .zip(requests)
            .enumerate()
            .map(|(i, (answer, request))| {
                let result = answer.map_err(|e| {
                    let err = errors::search(&e);
                    let message = format!("pair {i}: {}", err.value(py));
                    let place = err
                        .value(py)
                        .getattr("place")
                        .ok()
                        .and_then(|p| p.extract::<Option<String>>().ok())
                        .flatten();
                    errors::raise::<errors::SearchError>(&message, None, place)
                })?;
                PyPath::new(py, request, result, None, None)
            })
            .collect()
    }

    /// Every cell's cheapest cost to ``goal`` (by default the map's goal) and its first step
    /// there, from one Dijkstra: a :class:`FlowField`.
    #[pyo3(signature = (goal=None, *, diagonal=Arg::Missing),
           text_signature = "($self, goal=None, *, diagonal='no-cut')")]
    fn flow_field(
        &self,
        py: Python<'_>,
        goal: Option<&Bound<'_, PyAny>>,
        diagonal: Arg<'_>,
    ) -> PyResult<PyFlowField> {
        let diagonal = options::diagonal(&diagonal)?;
        let goal = self.endpoint(goal, self.map.goal, "goal")?;
        let graph = self.graph(py, diagonal);
        let control = SearchControl::new();
        let field = if graph.len() <= INLINE_CELLS {
            watch::inline(py, || FlowField::new(graph, goal))
        } else {
            watch::watched(py, &control, || {
                FlowField::new_controlled(graph, goal, &control)
            })?
        }
        .map_err(|e| errors::search(&e))?;
        PyFlowField::new(py, &field, diagonal)
    }

    /// Plans many units at once, each from its start to its goal, with none ever on one cell
    /// at one tick or swapping places: the solvers of ``gridpath mapf`` (``algorithm`` one of
    /// ``TEAM_SOLVERS``: ``lacam``, ``pibt``, ``cbs`` optimal, ``ecbs`` and ``eecbs`` within
    /// ``weight`` of the optimum, ``whca``), ``moves`` 4 (the benchmark's rule) or 8 (no
    /// corner cutting), a step costing the terrain's cost. LaCAM answers with its first plan
    /// unless ``anytime`` (then it improves it until ``time_limit``). Every plan is checked
    /// by the independent validator. Ctrl+C stops the solver. A :class:`TeamPlan`.
    #[pyo3(signature = (starts, goals, *, algorithm=Arg::Missing, moves=Arg::Missing,
                        time_limit=Arg::Missing, weight=Arg::Missing, anytime=Arg::Missing),
           text_signature = "($self, starts, goals, *, algorithm='lacam', moves=4, \
                             time_limit=10.0, weight=1.2, anytime=False)")]
    #[expect(
        clippy::too_many_arguments,
        reason = "the keyword arguments of one call"
    )]
    fn solve_team(
        &self,
        py: Python<'_>,
        starts: &Bound<'_, PyAny>,
        goals: &Bound<'_, PyAny>,
        algorithm: Arg<'_>,
        moves: Arg<'_>,
        time_limit: Arg<'_>,
        weight: Arg<'_>,
        anytime: Arg<'_>,
    ) -> PyResult<crate::team::PyTeamPlan> {
        let settings =
            crate::team::TeamSettings::new(py, &algorithm, &moves, &time_limit, &weight, &anytime)?;
        crate::team::solve_team(py, &self.map.grid, starts, goals, &settings)
    }

    /// Moves units as discs from their start cells to their goal cells, continuously, each
    /// along its own route, avoiding each other and the walls, as ``gridpath crowd`` does:
    /// ``radius`` in cells, ``speed`` in cells per second, ``accel`` in cells per second per
    /// second, a step of ``dt`` seconds, until every unit has arrived or ``max_time`` seconds
    /// have passed. Discs never overlap and never enter a wall. Ctrl+C stops the run. A
    /// :class:`CrowdRun` with every position of every step.
    #[pyo3(signature = (starts, goals, *, radius=Arg::Missing, speed=Arg::Missing,
                        accel=Arg::Missing, dt=Arg::Missing, max_time=Arg::Missing),
           text_signature = "($self, starts, goals, *, radius=0.4, speed=1.5, accel=4.0, \
                             dt=0.1, max_time=600.0)")]
    #[expect(
        clippy::too_many_arguments,
        reason = "the keyword arguments of one call"
    )]
    fn crowd(
        &self,
        py: Python<'_>,
        starts: &Bound<'_, PyAny>,
        goals: &Bound<'_, PyAny>,
        radius: Arg<'_>,
        speed: Arg<'_>,
        accel: Arg<'_>,
        dt: Arg<'_>,
        max_time: Arg<'_>,
    ) -> PyResult<crate::crowd::PyCrowdRun> {
        let settings = crate::crowd::CrowdArgs::new(&radius, &speed, &accel, &dt, &max_time)?;
        crate::crowd::run(py, &self.map.grid, starts, goals, &settings)
    }

    /// A path a round robot can drive from ``start`` to ``goal`` (points ``(x, y)`` in cells),
    /// as ``gridpath drive`` plans it: the body of ``robot_radius`` cells keeps that distance
    /// from every wall along its whole sweep and never turns tighter than ``turning_radius``
    /// cells, forward only (``motion="dubins"``) or forward and reverse (``"reeds-shepp"``).
    /// ``start_yaw`` and ``goal_yaw`` are degrees
    /// counter-clockwise as the screen shows them; ``None`` leaves them to the search. A
    /// :class:`Drive`, false when there is none (its ``reason`` says why and ``narrowest``
    /// where the widest way is too narrow). ``inflation_radius`` (cells) keeps the drive off
    /// the walls where there is room, priced as nav2's inflation layer prices them with
    /// ``cost_scaling_factor`` (per cell) and ``cost_penalty``. Ctrl+C stops the search.
    #[pyo3(signature = (start, goal, *, robot_radius=Arg::Missing, turning_radius=Arg::Missing,
                        start_yaw=None, goal_yaw=None, motion=Arg::Missing,
                        inflation_radius=None, cost_scaling_factor=Arg::Missing,
                        cost_penalty=Arg::Missing),
           text_signature = "($self, start, goal, *, robot_radius=0.5, turning_radius=1.0, \
                             start_yaw=None, goal_yaw=None, motion='dubins', \
                             inflation_radius=None, cost_scaling_factor=3.0, cost_penalty=2.0)")]
    #[expect(
        clippy::too_many_arguments,
        reason = "the keyword arguments of one call"
    )]
    fn drive(
        &self,
        py: Python<'_>,
        start: &Bound<'_, PyAny>,
        goal: &Bound<'_, PyAny>,
        robot_radius: Arg<'_>,
        turning_radius: Arg<'_>,
        start_yaw: Option<&Bound<'_, PyAny>>,
        goal_yaw: Option<&Bound<'_, PyAny>>,
        motion: Arg<'_>,
        inflation_radius: Option<&Bound<'_, PyAny>>,
        cost_scaling_factor: Arg<'_>,
        cost_penalty: Arg<'_>,
    ) -> PyResult<crate::drive::PyDrive> {
        crate::drive::run(
            py,
            &self.map.grid,
            start,
            goal,
            &robot_radius,
            &turning_radius,
            start_yaw,
            goal_yaw,
            &motion,
            (inflation_radius, &cost_scaling_factor, &cost_penalty),
        )
    }

    /// The first ``agents`` agents of a Moving AI MAPF scenario file for this map (every one
    /// without ``agents``), as ``(starts, goals)``: two lists of cells for
    /// :meth:`solve_team`. Raises :class:`ScenarioError` naming the line of an agent off the
    /// map, on a wall or sharing a start or goal, or written for a map of another size.
    #[pyo3(signature = (scen, agents=None))]
    fn team_from_scenario(
        &self,
        scen: &Bound<'_, PyAny>,
        agents: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<crate::team::Team> {
        let scen = args::path(scen, "scen")?;
        let agents = args::whole_or_none(agents, 1, crate::team::MAX_AGENTS, "agents")?;
        crate::team::team_from_scenario(&self.map.grid, scen, agents)
    }

    fn __repr__(&self) -> String {
        let grid = &self.map.grid;
        format!(
            "<gridpath.Map {:?}: {} × {} cells, {} terrains{}>",
            self.map.name,
            grid.width(),
            grid.height(),
            grid.terrains().len(),
            if grid.heights().is_some() {
                ", heights"
            } else {
                ""
            }
        )
    }
}
