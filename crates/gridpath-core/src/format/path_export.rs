//! The path export: one search's answer, grid path and smoothed path, as one JSON document.
//!
//! The editor's File → Export path and `gridpath solve --export FILE` write the same document
//! (version 3; every field of versions 1 and 2 is still there):
//!
//! ```json
//! {
//!   "format": "gridpath-path",
//!   "version": 3,
//!   "units": "cells: [x, y] integers, column and row from the top-left cell; points: ...",
//!   "map": { "name": "arena", "width": 49, "height": 49 },
//!   "start": [1, 11],
//!   "goal": [40, 37],
//!   "search": {
//!     "algorithm": "astar", "diagonal": "no-cut", "heuristic": "octile",
//!     "weight": 1.0, "optimality": "exact"
//!   },
//!   "smoothing": { "tension": 0.5, "clearance": 0.25 },
//!   "found": true,
//!   "grid_path": { "cells": [[1, 11], [2, 12], ...], "length": 54.6, "cost": 54.6 },
//!   "smoothed": {
//!     "waypoints": [[1.5, 11.5], [12.5, 20.5], ..., [40.5, 37.5]],
//!     "beziers": [[[1.5, 11.5], [3.2, 12.9], [10.1, 18.8], [12.5, 20.5]], ...],
//!     "length": 48.9, "cost": 48.9, "curve_length": 49.2, "curve_cost": 49.2,
//!     "straight_pieces": 0,
//!     "spacing": 0.25,
//!     "samples": [[1.5, 11.5, 0.69, 0.0], [1.69, 11.66, 0.70, 0.25], ...]
//!   },
//!   "world": {
//!     "frame": "map", "resolution": 0.05, "origin": [-10.0, -10.0, 0.0], "y_axis": "up",
//!     "waypoints": [[-9.925, -7.575], ...],
//!     "samples": [[-9.925, -7.575, -0.69, 0.0], ...]
//!   },
//!   "stats": { "expanded": 1022, "pushed": 1510, "max_open": 130, "time_us": 412 }
//! }
//! ```
//!
//! - Cells are `[x, y]` (column, row, from the top-left cell); points are continuous
//!   `[x, y]`, where cell (x, y) covers [x, x + 1) × [y, y + 1) and its centre is
//!   (x + 0.5, y + 0.5); y grows down the map. `units` says so in the file. On a hex map
//!   (`map.topology` names its layout: `"odd-r"`, `"even-r"`, `"odd-q"` or `"even-q"`) cells
//!   are offset coordinates and points lie in the hex world frame of
//!   [`Topology::centre`] — neighbouring centres 1 apart, each hex 1 across its flats — and
//!   `units` is [`UNITS_HEX`]; with a ROS frame, `H` below is the frame's height
//!   ([`Topology::world_size`]).
//! - `grid_path.cost` follows the search's step model (step length × mean of the two cells'
//!   costs); `smoothed.cost` integrates the terrain cost along the line-of-sight segments and
//!   is never higher. `curve_length` and `curve_cost` are measured on the Bezier curve by
//!   sampling it at most 0.01 cells apart.
//! - Each Bezier piece is `[[x0, y0], [c1x, c1y], [c2x, c2y], [x1, y1]]`; each ends where the
//!   next starts, the first starts at the start cell's centre and the last ends at the goal's.
//! - `smoothed.samples` are points on the drawn curve, evenly spread at most `spacing` cells
//!   apart, each `[x, y, heading, s]`: the direction of travel in radians from +x towards +y
//!   (clockwise on screen, as y grows down) and the distance along the curve from the start.
//!   The first is the start cell's centre, the last the goal's.
//! - `world` is present (else `null`) when the map has a world frame (a map imported from a
//!   ROS `map.yaml`). It uses `map_server`'s convention: a point (x, y) of a map H cells high is
//!   at (origin.x + x · resolution, origin.y + (H − y) · resolution) metres, y pointing up;
//!   `yaw` is counter-clockwise from +x, so it is −heading. The origin's own yaw is reported
//!   but, as in `map_server` and nav2, not applied. `waypoints` are the line-of-sight
//!   waypoints and `samples` the curve's samples as `[x, y, yaw, s]`, with s in metres.
//! - `grid_path.waypoints` is there only for an any-angle search (Theta*, Lazy Theta*): the
//!   cells whose centres its straight segments join, start and goal included. Then
//!   `grid_path.cells` are the cells those segments cross (a chain of grid steps), and
//!   `grid_path.length` and `grid_path.cost` are the segments' (the cost integrated along
//!   them); `smoothed` curves through these waypoints. New in version 3.
//! - `body` is there when the path was planned for a unit ([`PathExport::with_body`]):
//!   `unit_size`, `placed_by` (`"top-left"`: a unit of N × N cells on cell (x, y) covers
//!   x..x + N × y..y + N; `"centre"` on hexes) and `centres`, the body's centre
//!   (x + N / 2, y + N / 2) on each of `grid_path.cells`. Every point of `smoothed` and
//!   `world` is then the body's centre, not the cell's.
//! - `smoothed` is `null` when no path was found; `stats.time_us` is the search's wall time.
//! - Arrays of numbers are written on one line each, so a path of N cells takes N lines.
//!
//! [`PathExport::write_to`] chooses the encoding by the file's extension ([`PathExportFormat`]):
//! this document for `.json`, the curve's samples for `.csv`; any other extension is an error.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::save::{self, Backup, SaveError};
use crate::grid::{Cell, GeoReference, Map, Topology};
use crate::search::{Route, SearchRequest, SearchResult};
use crate::smooth::{self, CurveSample, SmoothSettings, SmoothedPath};

/// The statement of the cell frame that every export of a hex map carries in `units`.
pub const UNITS_HEX: &str = "cells: [x, y] integers in offset coordinates, column and row from the top-left hex, every other row (pointy-top hexes) or column (flat-top) pushed half a cell along as map.topology names it (Tiled's staggeraxis and staggerindex); points: continuous [x, y] in the hex map's world frame, neighbouring hex centres 1 apart and each hex 1 across its flats, the hexes in x, y >= 0; y grows down; headings in radians from +x towards +y; distances in cells";

/// The `units` statement for a map of this topology: [`UNITS`] or [`UNITS_HEX`].
pub fn units_of(topology: Topology) -> &'static str {
    if topology.has_square_cells() {
        UNITS
    } else {
        UNITS_HEX
    }
}

/// The statement of the cell frame that every export of a square map carries in `units`.
pub const UNITS: &str = "cells: [x, y] integers, column and row from the top-left cell; points: continuous [x, y] in cells, cell (x, y) covers [x, x+1) x [y, y+1) and its centre is (x+0.5, y+0.5); y grows down; headings in radians from +x towards +y; distances in cells";

/// The path export document (see the [module](self) for its schema).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PathExport {
    /// Always `"gridpath-path"`.
    pub format: &'static str,
    /// The schema version, 3.
    pub version: u32,
    /// The cell frame, in words ([`UNITS`], or [`UNITS_HEX`] for a hex map).
    pub units: &'static str,
    /// Which map was searched.
    pub map: MapSummary,
    /// The start cell.
    pub start: Cell,
    /// The goal cell.
    pub goal: Cell,
    /// How the search ran.
    pub search: SearchSummary,
    /// How the path was smoothed.
    pub smoothing: SmoothSettings,
    /// Whether a path was found.
    pub found: bool,
    /// The grid path with its length and cost.
    pub grid_path: GridPath,
    /// The smoothed path and its samples; `None` (`null`) when no path was found.
    pub smoothed: Option<SmoothedExport>,
    /// The path in the map's world frame; `None` (`null`) when the map has none.
    pub world: Option<WorldPath>,
    /// The search's counters.
    pub stats: StatsSummary,
    /// For a route through waypoints: its stops and each leg; left out otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub route: Option<RouteExport>,
    /// The body the path is for ([`PathExport::with_body`]); left out otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<BodyExport>,
}

/// The body a path is planned for: a unit of `unit_size` × `unit_size` cells, placed by its
/// top-left cell (on hexes, a hex of radius `unit_size` − 1 by its centre hex).
/// `grid_path.cells` are the cells it is placed by; every point of the export (`smoothed`,
/// `world`) and `centres` are the body's centre.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BodyExport {
    /// The unit's side in cells (1: one cell).
    pub unit_size: u32,
    /// Which cell `grid_path.cells` name: `"top-left"` of the footprint, or `"centre"`.
    pub placed_by: &'static str,
    /// The body's centre on each cell of `grid_path.cells`, as points.
    pub centres: Vec<[f64; 2]>,
}

/// A route through waypoints: the points in the order visited and each leg between two.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RouteExport {
    /// The start, the waypoints in the order visited, the goal (and the start again for a
    /// patrol).
    pub stops: Vec<Cell>,
    /// One leg between each two stops, in order.
    pub legs: Vec<LegExport>,
}

/// One leg of a route.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LegExport {
    /// Where it starts.
    pub from: Cell,
    /// Where it ends.
    pub to: Cell,
    /// Whether it was found.
    pub found: bool,
    /// Its cost.
    pub cost: f64,
    /// Its length.
    pub length: f64,
    /// The indices in `grid_path.cells` of its first and last cell (two legs share the cell
    /// where they meet).
    pub cells: [usize; 2],
}

/// The smoothed path with points sampled along its curve.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SmoothedExport {
    /// The waypoints, curve, lengths and costs.
    #[serde(flatten)]
    pub path: SmoothedPath,
    /// The largest distance between two samples along the curve, in cells.
    pub spacing: f64,
    /// The largest change of heading between two consecutive samples, in radians.
    pub samples_max_heading_change: f64,
    /// Points on the curve, `[x, y, heading, distance from the start]`.
    pub samples: Vec<[f64; 4]>,
    /// How many samples the curve is cut into at `spacing` (as many as `samples` holds, when
    /// it holds them); not written.
    #[serde(skip)]
    pub sample_count: usize,
    /// The curve's length as the samples measure it (the last one's distance); not written.
    #[serde(skip)]
    pub sampled_length: f64,
}

/// The path in a map's world frame (ROS `map` frame: metres, y up).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WorldPath {
    /// The frame's name, `"map"`.
    pub frame: &'static str,
    /// Metres per cell.
    pub resolution: f64,
    /// The pose of the map's lower-left corner, `[x, y, yaw]`.
    pub origin: [f64; 3],
    /// Always `"up"`.
    pub y_axis: &'static str,
    /// The line-of-sight waypoints, `[x, y]` in metres.
    pub waypoints: Vec<[f64; 2]>,
    /// The curve's samples, `[x, y, yaw, distance from the start in metres]`.
    pub samples: Vec<[f64; 4]>,
    /// The map's height in continuous coordinates ([`Topology::world_size`]), which places
    /// points in the frame ([`world_point`]); not written.
    #[serde(skip)]
    pub height: f64,
}

/// Where a continuous point of a map `height` cells high (in continuous coordinates: a hex
/// map's [`Topology::world_size`]) lies in its world frame.
pub fn world_point(geo: &GeoReference, height: f64, x: f64, y: f64) -> [f64; 2] {
    [
        geo.origin[0] + x * geo.resolution,
        geo.origin[1] + (height - y) * geo.resolution,
    ]
}

/// A heading in cell coordinates (y down) as a yaw in a y-up frame, in (−π, π].
pub fn yaw_of_heading(heading: f64) -> f64 {
    let yaw = -heading;
    if yaw <= -std::f64::consts::PI {
        yaw + std::f64::consts::TAU
    } else {
        yaw
    }
}

/// The map's name and size.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MapSummary {
    /// The map's name.
    pub name: String,
    /// Its number of columns.
    pub width: u32,
    /// Its number of rows.
    pub height: u32,
    /// The hex layout (`"odd-r"`, `"even-r"`, `"odd-q"`, `"even-q"`) of a hex map; left out
    /// for a square one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub topology: Option<&'static str>,
}

impl MapSummary {
    /// The summary of `map`.
    pub fn of(map: &Map) -> Self {
        let topology = map.grid.topology();
        Self {
            name: map.name.clone(),
            width: map.grid.width(),
            height: map.grid.height(),
            topology: topology.explicit_name(),
        }
    }
}

/// The search settings, by their command-line names.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SearchSummary {
    /// The algorithm, e.g. `"astar"`.
    pub algorithm: &'static str,
    /// The diagonal rule, e.g. `"no-cut"`; `None` (`null`) on hex maps, whose six neighbours
    /// know no diagonal.
    pub diagonal: Option<&'static str>,
    /// The heuristic the search used, e.g. `"octile"`.
    pub heuristic: &'static str,
    /// The weight on the heuristic.
    pub weight: f64,
    /// What is guaranteed of the cost, e.g. `"exact"`.
    pub optimality: String,
}

/// The grid path: its cells, start and goal included.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GridPath {
    /// The cells from start to goal; empty when no path was found.
    pub cells: Vec<Cell>,
    /// An any-angle path's waypoints ([`SearchResult::waypoints`]); left out of the JSON for
    /// the other searches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waypoints: Option<Vec<Cell>>,
    /// Its length (1 per orthogonal step, √2 per diagonal one; an any-angle path's segments').
    pub length: f64,
    /// Its cost under the step model (an any-angle path's segments').
    pub cost: f64,
}

/// The search's counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct StatsSummary {
    /// Cells expanded.
    pub expanded: u64,
    /// Entries pushed on the open list.
    pub pushed: u64,
    /// The largest size of the open list.
    pub max_open: u64,
    /// The search's wall time in microseconds.
    pub time_us: u64,
}

impl PathExport {
    /// The export of one search on `map` and its smoothing (`None` when nothing was found),
    /// with the curve sampled at most `spacing` cells apart.
    ///
    /// ```
    /// use gridpath_core::format::PathExport;
    /// use gridpath_core::grid::{Cell, GeoReference, Grid, Map};
    /// use gridpath_core::search::{self, SearchRequest};
    /// use gridpath_core::smooth::{self, SmoothSettings};
    ///
    /// let mut map = Map::new("yard", Grid::from_ascii(&["....", "....", "...."]).expect("valid"));
    /// map.metadata = Some(GeoReference::new(0.05, [-1.0, 2.0, 0.0]).expect("a world frame"));
    /// let request = SearchRequest::new(Cell::new(0, 0), Cell::new(3, 2));
    /// let result = search::solve(&map.grid, &request).expect("searches");
    /// let settings = SmoothSettings::default();
    /// let smoothed = smooth::smooth_path(&map.grid, &result.path, &settings).expect("smooths");
    /// let export = PathExport::new(&map, &request, &result, settings, Some(smoothed), 0.25);
    /// let world = export.world.as_ref().expect("the map has a world frame");
    /// // The start cell's centre (0.5, 0.5) of a map 3 cells high, in metres with y up.
    /// let [x, y, _, _] = world.samples[0];
    /// assert!((x - (-1.0 + 0.5 * 0.05)).abs() < 1e-12 && (y - (2.0 + 2.5 * 0.05)).abs() < 1e-12);
    /// assert!(export.to_json().expect("encodes").contains("\"version\": 3"));
    /// ```
    pub fn new(
        map: &Map,
        request: &SearchRequest,
        result: &SearchResult,
        smoothing: SmoothSettings,
        smoothed: Option<SmoothedPath>,
        spacing: f64,
    ) -> Self {
        Self::build(map, request, result, smoothing, smoothed, spacing, true)
    }

    /// [`PathExport::new`] without the samples: `smoothed.samples` and `world.samples` are
    /// left empty (`samples_max_heading_change` is measured all the same, one sample at a
    /// time, unless the samples are more than [`MAX_SAMPLES`](smooth::MAX_SAMPLES), which
    /// [`PathExport::write_to`] refuses). It holds the path and its curve but nothing that grows with the spacing;
    /// [`PathExport::write_to`] writes the same file from it, computing the samples as it
    /// writes them.
    ///
    /// ```
    /// use gridpath_core::format::PathExport;
    /// use gridpath_core::grid::{Cell, Grid, Map};
    /// use gridpath_core::search::{self, SearchRequest};
    /// use gridpath_core::smooth::{self, SmoothSettings};
    ///
    /// let map = Map::new("yard", Grid::from_ascii(&["....", "....", "...."]).expect("valid"));
    /// let request = SearchRequest::new(Cell::new(0, 0), Cell::new(3, 2));
    /// let result = search::solve(&map.grid, &request).expect("searches");
    /// let settings = SmoothSettings::default();
    /// let smoothed = smooth::smooth_path(&map.grid, &result.path, &settings).expect("smooths");
    /// let outline =
    ///     PathExport::outline(&map, &request, &result, settings, Some(smoothed.clone()), 0.001);
    /// assert!(outline.smoothed.as_ref().expect("found").samples.is_empty());
    /// assert_eq!(outline.sample_count(), 3607);
    /// ```
    pub fn outline(
        map: &Map,
        request: &SearchRequest,
        result: &SearchResult,
        smoothing: SmoothSettings,
        smoothed: Option<SmoothedPath>,
        spacing: f64,
    ) -> Self {
        Self::build(map, request, result, smoothing, smoothed, spacing, false)
    }

    /// [`PathExport::new`], holding the samples or not.
    fn build(
        map: &Map,
        request: &SearchRequest,
        result: &SearchResult,
        smoothing: SmoothSettings,
        smoothed: Option<SmoothedPath>,
        spacing: f64,
        hold_samples: bool,
    ) -> Self {
        let stats = result.stats;
        let topology = map.grid.topology();
        let (_, height) = topology.world_size(map.grid.width(), map.grid.height());
        // The curve measured once: the samples' count and length, kept for writing them.
        let measured = smoothed.as_ref().map(|path| measure_samples(path, spacing));
        let samples = smoothed
            .as_ref()
            .zip(measured)
            .filter(|_| hold_samples)
            .map(|(path, (_, length))| curve_samples(path, spacing, length).collect::<Vec<_>>());
        let world = map
            .metadata
            .as_ref()
            .zip(smoothed.as_ref())
            .map(|(geo, path)| WorldPath {
                frame: "map",
                resolution: geo.resolution,
                origin: geo.origin,
                y_axis: "up",
                waypoints: path
                    .waypoints
                    .iter()
                    .map(|p| world_point(geo, height, p.x, p.y))
                    .collect(),
                samples: samples
                    .iter()
                    .flatten()
                    .map(|s| world_sample(geo, height, s))
                    .collect(),
                height,
            });
        let smoothed = smoothed.zip(measured).map(|(path, (count, length))| {
            let (samples_max_heading_change, samples) = match &samples {
                Some(samples) => (
                    smooth::max_heading_change(samples),
                    samples.iter().map(sample_row).collect(),
                ),
                // Not measured over the limit: such an outline cannot be written.
                None if count > smooth::MAX_SAMPLES => (0.0, Vec::new()),
                None => (
                    smooth::max_heading_change_along(curve_samples(&path, spacing, length)),
                    Vec::new(),
                ),
            };
            SmoothedExport {
                path,
                spacing,
                samples_max_heading_change,
                samples,
                sample_count: count,
                sampled_length: length,
            }
        });
        Self {
            format: "gridpath-path",
            version: 3,
            units: units_of(topology),
            map: MapSummary::of(map),
            start: request.start,
            goal: request.goal,
            search: SearchSummary {
                algorithm: request.algorithm.name(),
                diagonal: topology.has_diagonals().then(|| request.diagonal.name()),
                heuristic: request.heuristic_on(topology).name(),
                weight: request.weight,
                optimality: optimality_claim(result),
            },
            smoothing,
            found: result.found,
            grid_path: GridPath {
                cells: result.path.clone(),
                waypoints: result.waypoints.clone(),
                length: result.length,
                cost: result.cost,
            },
            smoothed,
            world,
            stats: StatsSummary {
                expanded: stats.expanded,
                pushed: stats.pushed,
                max_open: stats.max_open,
                time_us: stats.time_us,
            },
            route: None,
            body: None,
        }
    }

    /// The export of a path planned for a unit of `size` (`body` in the JSON): which unit,
    /// and its centre on every cell of the grid path. The smoothed path must already follow
    /// the body's centre ([`SmoothedPath::shifted`](crate::smooth::SmoothedPath::shifted) by
    /// [`body_offset`](crate::search::body_offset)).
    ///
    /// ```
    /// use gridpath_core::format::PathExport;
    /// use gridpath_core::grid::{Cell, Grid, Map, Topology};
    /// use gridpath_core::search::{self, SearchRequest};
    /// use gridpath_core::smooth::SmoothSettings;
    ///
    /// let map = Map::new("yard", Grid::from_ascii(&["....."; 3]).expect("valid"));
    /// let request = SearchRequest::new(Cell::new(0, 0), Cell::new(3, 0));
    /// let result = search::solve(&map.grid, &request).expect("searches");
    /// let export = PathExport::new(&map, &request, &result, SmoothSettings::default(), None, 0.25)
    ///     .with_body(Topology::Square, 2);
    /// let body = export.body.as_ref().expect("a body");
    /// assert_eq!(body.centres.first(), Some(&[1.0, 1.0]));
    /// assert_eq!(body.centres.last(), Some(&[4.0, 1.0]));
    /// ```
    pub fn with_body(mut self, topology: Topology, size: u32) -> Self {
        let centres = self
            .grid_path
            .cells
            .iter()
            .map(|&cell| {
                let (x, y) = crate::search::body_centre(topology, size, cell);
                [x, y]
            })
            .collect();
        self.body = Some(BodyExport {
            unit_size: size,
            placed_by: topology.units_placed_by(),
            centres,
        });
        self
    }

    /// The export of a route: adds its stops and legs (`route` in the JSON), each leg with
    /// the range of `grid_path.cells` it covers.
    ///
    /// ```
    /// use gridpath_core::format::PathExport;
    /// use gridpath_core::grid::{Cell, Grid, Map};
    /// use gridpath_core::search::{RouteOrder, SearchGraph, SearchRequest, route};
    /// use gridpath_core::smooth::SmoothSettings;
    ///
    /// let map = Map::new("yard", Grid::from_ascii(&["....."; 3]).expect("valid"));
    /// let request = SearchRequest::new(Cell::new(0, 0), Cell::new(4, 0));
    /// let graph = SearchGraph::new(&map.grid, request.diagonal);
    /// let planned = route(&graph, &request, &[Cell::new(2, 2)], RouteOrder::AsGiven, false)
    ///     .expect("plans");
    /// let export = PathExport::new(&map, &request, &planned.result, SmoothSettings::default(), None, 0.25)
    ///     .with_route(&planned);
    /// let legs = &export.route.as_ref().expect("a route").legs;
    /// assert_eq!(legs.len(), 2);
    /// assert_eq!(export.grid_path.cells[legs[1].cells[0]], Cell::new(2, 2));
    /// assert_eq!(legs[1].cells[1], export.grid_path.cells.len() - 1);
    /// ```
    pub fn with_route(mut self, route: &Route) -> Self {
        let mut first = 0;
        let legs = route
            .legs
            .iter()
            .map(|leg| {
                let last = first + leg.path.len().saturating_sub(1);
                let export = LegExport {
                    from: leg.start,
                    to: leg.goal,
                    found: leg.found,
                    cost: leg.cost,
                    length: leg.length,
                    cells: [first, last],
                };
                first = last;
                export
            })
            .collect();
        self.route = Some(RouteExport {
            stops: route.order.clone(),
            legs,
        });
        self
    }

    /// The document as indented JSON, each array of numbers on one line.
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        let value = serde_json::to_value(self)?;
        let mut out = Vec::new();
        write_compact(&mut out, &value, 0).map_err(serde_json::Error::io)?;
        Ok(String::from_utf8(out).unwrap_or_default())
    }

    /// The curve's samples as CSV: `x,y,heading,s`, and with a world frame
    /// `x,y,heading,s,wx,wy,yaw,ws`. Empty but for the header when no path was found.
    pub fn to_csv(&self) -> String {
        let mut text = String::from("x,y,heading,s");
        if self.world.is_some() {
            text.push_str(",wx,wy,yaw,ws");
        }
        text.push('\n');
        let samples = self.smoothed.as_ref().map_or(&[][..], |s| &s.samples[..]);
        let world = self.world.as_ref().map(|w| &w.samples);
        for (i, [x, y, heading, s]) in samples.iter().enumerate() {
            text.push_str(&format!("{x},{y},{heading},{s}"));
            if let Some([wx, wy, yaw, ws]) = world.and_then(|w| w.get(i)) {
                text.push_str(&format!(",{wx},{wy},{yaw},{ws}"));
            }
            text.push('\n');
        }
        text
    }
}

/// Why a search's result claims no optimality: `None` when it found a path to its goal, else
/// why it stopped without one (the node budget ran out, the goal cannot be reached, or there
/// is no path).
///
/// ```
/// use gridpath_core::format::path_export::why_no_optimality;
/// use gridpath_core::grid::{Cell, Grid};
/// use gridpath_core::search::{SearchRequest, solve};
///
/// let grid = Grid::from_ascii(&[".#.", ".#."]).expect("a valid map");
/// let result = solve(&grid, &SearchRequest::new(Cell::new(0, 0), Cell::new(2, 0))).expect("runs");
/// assert_eq!(why_no_optimality(&result).as_deref(), Some("no path"));
/// ```
pub fn why_no_optimality(result: &SearchResult) -> Option<String> {
    if result.reached.is_some() {
        Some("goal unreachable: a path to the nearest reachable cell".to_owned())
    } else if result.found {
        None
    } else if result.stats.budget_exhausted {
        Some(format!(
            "stopped: node budget exhausted after {} expansions",
            result.stats.expanded
        ))
    } else {
        Some("no path".to_owned())
    }
}

/// What a result claims of its cost, as the path export and `gridpath solve` write it: the
/// algorithm's guarantee (`"exact"`, …) for a path found to the goal, else `"none"` and why
/// (see [`why_no_optimality`]). A failed search never claims `"exact"`.
pub fn optimality_claim(result: &SearchResult) -> String {
    match why_no_optimality(result) {
        Some(why) => format!("none ({why})"),
        None => result.optimality.to_string(),
    }
}

/// The encodings of a path export, chosen by the file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathExportFormat {
    /// The whole document as JSON (`.json`, see the [module](self)).
    Json,
    /// The curve's samples as CSV (`.csv`, see [`PathExport::to_csv`]).
    Csv,
}

impl PathExportFormat {
    /// The extensions a path export may have, one a format, in the order of [`Self::ALL`].
    pub const EXTENSIONS: [&'static str; 2] = ["json", "csv"];

    /// Every format, JSON first.
    pub const ALL: [Self; 2] = [Self::Json, Self::Csv];

    /// The format `path`'s extension names (in any case), or an error naming the file and the
    /// extensions known.
    ///
    /// ```
    /// use std::path::Path;
    /// use gridpath_core::format::path_export::PathExportFormat;
    ///
    /// assert_eq!(PathExportFormat::from_path(Path::new("a.CSV")).ok(), Some(PathExportFormat::Csv));
    /// let error = PathExportFormat::from_path(Path::new("a.txt")).unwrap_err();
    /// assert!(error.to_string().contains(".json or .csv"));
    /// ```
    pub fn from_path(path: &Path) -> Result<Self, PathExportError> {
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        match extension.as_deref() {
            Some("json") => Ok(Self::Json),
            Some("csv") => Ok(Self::Csv),
            _ => Err(PathExportError::UnknownExtension {
                path: path.to_owned(),
            }),
        }
    }

    /// The extension of this format's files, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Json => "json",
            Self::Csv => "csv",
        }
    }
}

/// Why a path export was not written.
#[derive(Debug, thiserror::Error)]
pub enum PathExportError {
    /// The file's extension names no path export format.
    #[error(
        "cannot export the path to {}: unknown file type; give a file ending in .json or .csv \
         (.json writes the whole export, .csv the samples along the curve)",
        path.display()
    )]
    UnknownExtension {
        /// The file asked for.
        path: PathBuf,
    },
    /// The document could not be encoded as JSON.
    #[error("cannot export the path to {}: encoding the JSON failed: {source}", path.display())]
    Encode {
        /// The file asked for.
        path: PathBuf,
        /// The encoder's error.
        #[source]
        source: serde_json::Error,
    },
    /// The samples asked for are more than [`MAX_SAMPLES`](smooth::MAX_SAMPLES): refused
    /// before a byte is written.
    #[error(
        "cannot export the path to {}: a spacing of {spacing} cells cuts the {length:.1}-cell \
         curve into {samples} samples (about {size_mb:.0} MB of {format}), over the limit of \
         {limit} samples: give a larger spacing",
        path.display(),
        size_mb = *bytes as f64 / 1e6,
        format = format.extension(),
        limit = smooth::MAX_SAMPLES
    )]
    TooManySamples {
        /// The file asked for.
        path: PathBuf,
        /// The samples the curve would be cut into.
        samples: usize,
        /// The estimated size of the file, in bytes.
        bytes: u64,
        /// The spacing asked for, in cells.
        spacing: f64,
        /// The curve's length, in cells.
        length: f64,
        /// The encoding asked for.
        format: PathExportFormat,
    },
    /// Writing the file failed.
    #[error(transparent)]
    Save(#[from] SaveError),
}

/// About how many bytes one sample takes in a file: four numbers of up to 20 characters and
/// their separators (and as many again for the world frame's).
pub const SAMPLE_BYTES: u64 = 96;

/// Refuses, before any sample is computed, an export of a curve `curve_length` cells long
/// cut `spacing` apart into more than [`MAX_SAMPLES`](smooth::MAX_SAMPLES) samples (the
/// estimate is the length over the spacing: the count [`PathExport::sample_count`] gives is
/// within a few of it). The error names the count and the file's estimated size, about
/// [`SAMPLE_BYTES`] a sample (twice that with a world frame).
///
/// ```
/// use std::path::Path;
/// use gridpath_core::format::path_export::check_sample_budget;
///
/// assert!(check_sample_budget(Path::new("out.json"), 9000.0, 0.001, false).is_ok());
/// let error = check_sample_budget(Path::new("out.json"), 20000.0, 0.001, false).unwrap_err();
/// assert!(error.to_string().contains("samples (about 1920 MB of json)"), "{error}");
/// ```
pub fn check_sample_budget(
    path: &Path,
    curve_length: f64,
    spacing: f64,
    world: bool,
) -> Result<(), PathExportError> {
    let estimate = (curve_length / spacing).ceil() + 1.0;
    if estimate > smooth::MAX_SAMPLES as f64 {
        let samples = if estimate < usize::MAX as f64 {
            estimate as usize
        } else {
            usize::MAX
        };
        return Err(too_many_samples(
            path,
            samples,
            curve_length,
            spacing,
            world,
        ));
    }
    Ok(())
}

/// The error of an export of `samples` samples, over the limit.
fn too_many_samples(
    path: &Path,
    samples: usize,
    length: f64,
    spacing: f64,
    world: bool,
) -> PathExportError {
    let frames = if world { 2 } else { 1 };
    PathExportError::TooManySamples {
        path: path.to_owned(),
        samples,
        bytes: (samples as u64).saturating_mul(SAMPLE_BYTES * frames),
        spacing,
        length,
        format: PathExportFormat::from_path(path).unwrap_or(PathExportFormat::Json),
    }
}

impl PathExport {
    /// The export encoded as `format`: [`Self::to_json`] with a final newline, or
    /// [`Self::to_csv`].
    pub fn encode(&self, format: PathExportFormat) -> Result<String, serde_json::Error> {
        Ok(match format {
            PathExportFormat::Json => self.to_json()? + "\n",
            PathExportFormat::Csv => self.to_csv(),
        })
    }

    /// How many samples the export writes: those of the curve at its spacing (one for a path
    /// of one cell, none when nothing was found), as [`SmoothedExport::sample_count`] keeps.
    pub fn sample_count(&self) -> usize {
        self.smoothed.as_ref().map_or(0, |s| s.sample_count)
    }

    /// Writes the export to `path` atomically, encoded as its extension says
    /// ([`PathExportFormat::from_path`]), and returns the format written. An unknown extension
    /// writes nothing.
    ///
    /// The file is written as it is encoded, through a buffer, to a temporary file renamed
    /// over `path` at the end: the samples are computed from the curve one at a time as they
    /// are written (the same as [`PathExport::new`] holds), so the memory used does not grow
    /// with their number and an export made by [`PathExport::outline`] writes the same file.
    /// More than [`MAX_SAMPLES`](smooth::MAX_SAMPLES) samples are refused before anything is
    /// written ([`PathExportError::TooManySamples`], naming the count and the size).
    pub fn write_to(&self, path: &Path) -> Result<PathExportFormat, PathExportError> {
        let format = PathExportFormat::from_path(path)?;
        if let Some(smoothed) = &self.smoothed {
            check_sample_budget(
                path,
                smoothed.path.curve_length,
                smoothed.spacing,
                self.world.is_some(),
            )?;
            let samples = self.sample_count();
            if samples > smooth::MAX_SAMPLES {
                return Err(too_many_samples(
                    path,
                    samples,
                    smoothed.sampled_length,
                    smoothed.spacing,
                    self.world.is_some(),
                ));
            }
        }
        match format {
            PathExportFormat::Json => {
                // Everything but the samples, as a value: the path and its curve, no more.
                let value = serde_json::to_value(self.without_samples()).map_err(|source| {
                    PathExportError::Encode {
                        path: path.to_owned(),
                        source,
                    }
                })?;
                save::write_atomically_with(path, Backup::Discard, |out| {
                    self.write_json(out, &value)
                })?;
            }
            PathExportFormat::Csv => {
                save::write_atomically_with(path, Backup::Discard, |out| self.write_csv(out))?;
            }
        }
        Ok(format)
    }

    /// A copy of the export without its samples (the rest is the path and its curve).
    fn without_samples(&self) -> Self {
        Self {
            format: self.format,
            version: self.version,
            units: self.units,
            map: self.map.clone(),
            start: self.start,
            goal: self.goal,
            search: self.search.clone(),
            smoothing: self.smoothing,
            found: self.found,
            grid_path: self.grid_path.clone(),
            smoothed: self.smoothed.as_ref().map(|s| SmoothedExport {
                path: s.path.clone(),
                spacing: s.spacing,
                samples_max_heading_change: s.samples_max_heading_change,
                samples: Vec::new(),
                sample_count: s.sample_count,
                sampled_length: s.sampled_length,
            }),
            world: self.world.as_ref().map(|w| WorldPath {
                frame: w.frame,
                resolution: w.resolution,
                origin: w.origin,
                y_axis: w.y_axis,
                waypoints: w.waypoints.clone(),
                samples: Vec::new(),
                height: w.height,
            }),
            stats: self.stats,
            route: self.route.clone(),
            body: self.body.clone(),
        }
    }

    /// The samples as rows of the file: in cells, or in the world frame.
    fn sample_rows(&self, world: bool) -> impl Iterator<Item = [f64; 4]> + '_ {
        let geo = self.world.as_ref().filter(|_| world).map(|w| {
            let geo = GeoReference {
                resolution: w.resolution,
                origin: w.origin,
            };
            (geo, w.height)
        });
        let smoothed = self.smoothed.as_ref().filter(|_| !world || geo.is_some());
        smoothed
            .into_iter()
            .flat_map(|s| curve_samples(&s.path, s.spacing, s.sampled_length))
            .map(move |sample| match &geo {
                Some((geo, height)) => world_sample(geo, *height, &sample),
                None => sample_row(&sample),
            })
    }

    /// Writes the document of [`PathExport::to_json`] (with its final newline) from `value`,
    /// this export's [`without_samples`](Self::without_samples), the samples computed as
    /// they are written.
    fn write_json(&self, out: &mut dyn Write, value: &serde_json::Value) -> io::Result<()> {
        let mut fill = |within: &str, key: &str, out: &mut dyn Write, depth: usize| {
            let world = match (within, key) {
                ("smoothed", "samples") => false,
                ("world", "samples") => true,
                _ => return Ok(false),
            };
            let rows = self
                .sample_rows(world)
                .map(|row| serde_json::Value::from(row.to_vec()));
            write_array_streamed(out, rows, depth)?;
            Ok(true)
        };
        write_compact_with(out, value, 0, "", &mut fill)?;
        out.write_all(b"\n")
    }

    /// Writes the CSV of [`PathExport::to_csv`], the samples computed as they are written.
    fn write_csv(&self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(b"x,y,heading,s")?;
        if self.world.is_some() {
            out.write_all(b",wx,wy,yaw,ws")?;
        }
        out.write_all(b"\n")?;
        let mut world = self.world.is_some().then(|| self.sample_rows(true));
        for [x, y, heading, s] in self.sample_rows(false) {
            write!(out, "{x},{y},{heading},{s}")?;
            if let Some([wx, wy, yaw, ws]) = world.as_mut().and_then(Iterator::next) {
                write!(out, ",{wx},{wy},{yaw},{ws}")?;
            }
            out.write_all(b"\n")?;
        }
        Ok(())
    }
}

/// The number of samples of a smoothed path's curve at `spacing`, and the curve's length as
/// they measure it: one walk along the curve. Over [`MAX_SAMPLES`](smooth::MAX_SAMPLES) by
/// the curve's own measure, the estimate of [`check_sample_budget`], without the walk.
fn measure_samples(path: &SmoothedPath, spacing: f64) -> (usize, f64) {
    if path.beziers.is_empty() {
        return (usize::from(!path.waypoints.is_empty()), 0.0);
    }
    let estimate = (path.curve_length / spacing).ceil() + 1.0;
    if estimate > smooth::MAX_SAMPLES as f64 {
        return (estimate.min(usize::MAX as f64) as usize, path.curve_length);
    }
    let samples = smooth::CurveSamples::new(&path.beziers, spacing);
    (samples.len(), samples.length())
}

/// The samples of a smoothed path's curve, one at a time, the curve `length` long as
/// [`measure_samples`] gives it; a path of one cell is its one waypoint.
fn curve_samples(
    path: &SmoothedPath,
    spacing: f64,
    length: f64,
) -> impl Iterator<Item = CurveSample> + '_ {
    let single = match path.waypoints[..] {
        [only] if path.beziers.is_empty() => Some(CurveSample {
            point: only,
            heading: 0.0,
            distance: 0.0,
        }),
        _ => None,
    };
    single.into_iter().chain(smooth::CurveSamples::of_length(
        &path.beziers,
        spacing,
        length,
    ))
}

/// A sample as the export writes it, `[x, y, heading, s]`.
fn sample_row(s: &CurveSample) -> [f64; 4] {
    [s.point.x, s.point.y, s.heading, s.distance]
}

/// A sample in a map's world frame, `[x, y, yaw, s]` in metres, the map `height` cells high.
fn world_sample(geo: &GeoReference, height: f64, s: &CurveSample) -> [f64; 4] {
    let [x, y] = world_point(geo, height, s.point.x, s.point.y);
    [x, y, yaw_of_heading(s.heading), s.distance * geo.resolution]
}

/// The longest line an array of numbers (or of short arrays of numbers) is kept on.
const INLINE_WIDTH: usize = 100;

/// Writes JSON indented by two spaces a level, with each array that holds only numbers, or
/// only arrays of numbers that fit on one line together, written on one line.
pub(crate) fn write_compact(
    out: &mut (impl Write + ?Sized),
    value: &serde_json::Value,
    depth: usize,
) -> io::Result<()> {
    let mut out = out;
    write_compact_with(&mut out, value, depth, "", &mut |_, _, _, _| Ok(false))
}

/// What [`write_compact_with`] asks before writing an object's field: given the key of the
/// object (`""` at the top), the field's key, the output and the field's depth, whether it
/// wrote the field's value itself.
type Fill<'a> = dyn FnMut(&str, &str, &mut dyn Write, usize) -> io::Result<bool> + 'a;

/// [`write_compact`] of `value`, the object named `within`, asking `fill` before each field
/// of an object whether it writes the value itself.
fn write_compact_with(
    out: &mut dyn Write,
    value: &serde_json::Value,
    depth: usize,
    within: &str,
    fill: &mut Fill<'_>,
) -> io::Result<()> {
    use serde_json::Value;
    let indent = |n: usize| "  ".repeat(n);
    match value {
        Value::Array(items) if items.is_empty() => write!(out, "[]"),
        Value::Object(fields) if fields.is_empty() => write!(out, "{{}}"),
        Value::Array(items) => {
            if let Some(line) = inline(value).filter(|l| l.len() <= INLINE_WIDTH) {
                return write!(out, "{line}");
            }
            writeln!(out, "[")?;
            for (i, item) in items.iter().enumerate() {
                write!(out, "{}", indent(depth + 1))?;
                write_compact_with(out, item, depth + 1, within, fill)?;
                writeln!(out, "{}", if i + 1 < items.len() { "," } else { "" })?;
            }
            write!(out, "{}]", indent(depth))
        }
        Value::Object(fields) => {
            writeln!(out, "{{")?;
            for (i, (key, item)) in fields.iter().enumerate() {
                write!(out, "{}{}: ", indent(depth + 1), Value::String(key.clone()))?;
                if !fill(within, key, out, depth + 1)? {
                    write_compact_with(out, item, depth + 1, key, fill)?;
                }
                writeln!(out, "{}", if i + 1 < fields.len() { "," } else { "" })?;
            }
            write!(out, "{}}}", indent(depth))
        }
        scalar => write!(out, "{scalar}"),
    }
}

/// Writes the array of `items` (arrays of numbers) as [`write_compact`] writes it at `depth`,
/// taking the items one at a time: on one line when the whole fits [`INLINE_WIDTH`], else
/// one item a line. Only the items of a line that may still fit are held.
fn write_array_streamed(
    out: &mut dyn Write,
    items: impl Iterator<Item = serde_json::Value>,
    depth: usize,
) -> io::Result<()> {
    let mut items = items.peekable();
    let mut head: Vec<String> = Vec::new();
    let mut width = 2;
    while let Some(item) = items.peek() {
        let Some(line) = inline(item) else {
            break;
        };
        let wider = width + line.len() + if head.is_empty() { 0 } else { 2 };
        if wider > INLINE_WIDTH {
            break;
        }
        width = wider;
        head.push(line);
        items.next();
    }
    if items.peek().is_none() {
        return write!(out, "[{}]", head.join(", "));
    }
    writeln!(out, "[")?;
    let indent = "  ".repeat(depth + 1);
    let mut rest = head.into_iter().map(Ok).chain(items.map(Err)).peekable();
    while let Some(item) = rest.next() {
        write!(out, "{indent}")?;
        match item {
            Ok(line) => write!(out, "{line}")?,
            Err(value) => write_compact(out, &value, depth + 1)?,
        }
        writeln!(out, "{}", if rest.peek().is_some() { "," } else { "" })?;
    }
    write!(out, "{}]", "  ".repeat(depth))
}

/// An array of scalars, or of arrays of scalars, on one line; `None` for anything deeper.
fn inline(value: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    let Value::Array(items) = value else {
        return (!value.is_object()).then(|| value.to_string());
    };
    let parts: Vec<String> = items
        .iter()
        .map(|item| match item {
            Value::Array(inner) if inner.iter().all(|v| !v.is_array() && !v.is_object()) => {
                inline(item)
            }
            Value::Array(_) | Value::Object(_) => None,
            scalar => Some(scalar.to_string()),
        })
        .collect::<Option<_>>()?;
    Some(format!("[{}]", parts.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::search;
    use crate::smooth;

    #[test]
    fn the_document_holds_every_part_of_the_schema() {
        let grid = Grid::from_ascii(&[".....", ".###.", "....."]).unwrap();
        let map = Map::new("ring", grid);
        let request = SearchRequest::new(Cell::new(0, 0), Cell::new(4, 2));
        let result = search::solve(&map.grid, &request).unwrap();
        let settings = SmoothSettings::default();
        let smoothed = smooth::smooth_path(&map.grid, &result.path, &settings).unwrap();
        let export = PathExport::new(&map, &request, &result, settings, Some(smoothed), 0.25);
        let text = export.to_json().unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["version"], 3);
        assert!(value["grid_path"].get("waypoints").is_none(), "A* has none");
        assert_eq!(value["units"], UNITS);
        assert!(
            value["world"].is_null(),
            "a map drawn by hand has no world frame"
        );
        assert!(
            text.contains("\"start\": [0, 0],") && text.contains("[0.5, 0.5]"),
            "arrays of numbers sit on one line:\n{text}"
        );
        let samples = value["smoothed"]["samples"].as_array().unwrap();
        assert_eq!(samples[0], serde_json::json!([0.5, 0.5, 0.0, 0.0]));
        assert_eq!(value["smoothed"]["spacing"], 0.25);
        assert_eq!(value["format"], "gridpath-path");
        assert_eq!(value["map"]["name"], "ring");
        assert_eq!(value["map"]["width"], 5);
        assert_eq!(value["start"], serde_json::json!([0, 0]));
        assert_eq!(value["search"]["diagonal"], "no-cut");
        assert_eq!(value["smoothing"]["tension"], 0.5);
        assert_eq!(value["grid_path"]["cells"][0], serde_json::json!([0, 0]));
        assert_eq!(
            value["smoothed"]["waypoints"][0],
            serde_json::json!([0.5, 0.5])
        );
        let first = &value["smoothed"]["beziers"][0];
        assert_eq!(first.as_array().map(Vec::len), Some(4));
        assert!(value["smoothed"]["cost"].as_f64() <= value["grid_path"]["cost"].as_f64());
        assert!(value["stats"]["expanded"].as_u64() > Some(0));
    }

    #[test]
    fn a_hex_map_exports_its_layout_and_points_in_its_world_frame() {
        use crate::grid::HexLayout;
        let hexes = Topology::Hex(HexLayout::EVEN_Q);
        let grid = Grid::from_ascii(&["......", "..##..", "......"])
            .unwrap()
            .with_topology(hexes);
        let map = Map::new("hexes", grid);
        let request = SearchRequest::new(Cell::new(0, 1), Cell::new(5, 1));
        let result = search::solve(&map.grid, &request).unwrap();
        let settings = SmoothSettings::default();
        let smoothed = smooth::smooth_path(&map.grid, &result.path, &settings).unwrap();
        let export = PathExport::new(&map, &request, &result, settings, Some(smoothed), 0.25);
        let value: serde_json::Value = serde_json::from_str(&export.to_json().unwrap()).unwrap();
        assert_eq!(value["units"], UNITS_HEX);
        assert_eq!(value["map"]["topology"], "even-q");
        assert_eq!(value["search"]["heuristic"], "hex");
        // Six neighbours know no diagonal rule.
        assert!(value["search"]["diagonal"].is_null(), "{}", value["search"]);
        let (x, y) = hexes.centre(Cell::new(0, 1));
        assert_eq!(value["smoothed"]["samples"][0][0], x);
        assert_eq!(value["smoothed"]["samples"][0][1], y);
        let (x, y) = hexes.centre(Cell::new(5, 1));
        assert_eq!(
            value["smoothed"]["waypoints"]
                .as_array()
                .and_then(|w| w.last()),
            Some(&serde_json::json!([x, y]))
        );
        // A square map's summary has no topology.
        let square = Map::new("squares", Grid::from_ascii(&["..."]).unwrap());
        assert!(
            serde_json::to_value(MapSummary::of(&square))
                .unwrap()
                .get("topology")
                .is_none()
        );
    }

    #[test]
    fn an_any_angle_path_exports_its_waypoints_and_curves_through_them() {
        let grid = Grid::from_ascii(&[".....", ".###.", "....."]).unwrap();
        let map = Map::new("ring", grid);
        let request = SearchRequest::new(Cell::new(0, 0), Cell::new(4, 2))
            .with_algorithm(search::Algorithm::LazyTheta);
        let result = search::solve(&map.grid, &request).unwrap();
        let settings = SmoothSettings::default();
        let smoothed = result.smoothed(&map.grid, &settings).unwrap();
        let export = PathExport::new(&map, &request, &result, settings, Some(smoothed), 0.25);
        let value: serde_json::Value = serde_json::from_str(&export.to_json().unwrap()).unwrap();
        let waypoints = result.waypoints.as_ref().unwrap();
        let written = value["grid_path"]["waypoints"].as_array().unwrap();
        assert_eq!(written.len(), waypoints.len());
        assert_eq!(written[0], serde_json::json!([0, 0]));
        assert_eq!(value["grid_path"]["cost"], result.cost);
        assert_eq!(
            value["smoothed"]["waypoints"].as_array().map(Vec::len),
            Some(waypoints.len())
        );
        assert_eq!(value["search"]["algorithm"], "lazy-theta");
    }

    #[test]
    fn a_written_export_is_the_document_held_in_memory_byte_for_byte() {
        let dir = tempfile::tempdir().unwrap();
        let rows = ["........", ".###....", "........", "....##.."];
        let cases = [
            // (goal, spacing, world frame): a curve around walls, one with few enough
            // samples to sit on one line, and a path of one cell.
            (Cell::new(7, 3), 0.05, false),
            (Cell::new(7, 3), 0.3, true),
            (Cell::new(2, 0), 5.0, false),
            (Cell::new(0, 0), 0.25, true),
        ];
        for (goal, spacing, world) in cases {
            let mut map = Map::new("yard", Grid::from_ascii(&rows).unwrap());
            if world {
                map.metadata = Some(GeoReference::new(0.05, [-1.0, 2.0, 0.3]).unwrap());
            }
            let request = SearchRequest::new(Cell::new(0, 0), goal);
            let result = search::solve(&map.grid, &request).unwrap();
            let settings = SmoothSettings::default();
            let smoothed = smooth::smooth_path(&map.grid, &result.path, &settings).unwrap();
            let held = PathExport::new(
                &map,
                &request,
                &result,
                settings,
                Some(smoothed.clone()),
                spacing,
            );
            let outline =
                PathExport::outline(&map, &request, &result, settings, Some(smoothed), spacing);
            let samples = held.smoothed.as_ref().unwrap().samples.len();
            assert_eq!(outline.sample_count(), samples);
            assert_eq!(
                outline
                    .smoothed
                    .as_ref()
                    .unwrap()
                    .samples_max_heading_change,
                held.smoothed.as_ref().unwrap().samples_max_heading_change
            );
            for export in [&held, &outline] {
                let json = dir.path().join("path.json");
                export.write_to(&json).unwrap();
                let text = std::fs::read_to_string(&json).unwrap();
                assert_eq!(text, held.to_json().unwrap() + "\n", "{goal} at {spacing}");
                let csv = dir.path().join("path.csv");
                export.write_to(&csv).unwrap();
                assert_eq!(std::fs::read_to_string(&csv).unwrap(), held.to_csv());
            }
            if samples <= 3 {
                let text = held.to_json().unwrap();
                assert!(text.contains("\"samples\": [["), "one line:\n{text}");
            }
        }
    }

    #[test]
    fn an_export_over_the_sample_limit_is_refused_before_it_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let map = Map::new("row", Grid::from_ascii(&[".".repeat(40).as_str()]).unwrap());
        let request = SearchRequest::new(Cell::new(0, 0), Cell::new(39, 0));
        let result = search::solve(&map.grid, &request).unwrap();
        let settings = SmoothSettings::default();
        let smoothed = smooth::smooth_path(&map.grid, &result.path, &settings).unwrap();
        // 39 cells at a spacing the command line would not take: 39 billion samples.
        let export = PathExport::outline(&map, &request, &result, settings, Some(smoothed), 1e-9);
        let file = dir.path().join("row.csv");
        let error = export.write_to(&file).unwrap_err();
        let text = error.to_string();
        assert!(
            text.contains("3900000000")
                && text.contains("samples (about 37440")
                && text.contains("MB of csv)")
                && text.contains("the 39.0-cell curve")
                && text.contains(&file.display().to_string()),
            "{text}"
        );
        assert!(!file.exists());
    }
}
