//! The path export: one search's answer, grid path and smoothed path, as one JSON document.
//!
//! The editor's File → Export path and `gridpath solve --export FILE` write the same document:
//!
//! ```json
//! {
//!   "format": "gridpath-path",
//!   "version": 1,
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
//!     "straight_pieces": 0
//!   },
//!   "stats": { "expanded": 1022, "pushed": 1510, "max_open": 130, "time_us": 412 }
//! }
//! ```
//!
//! - Cells are `[x, y]` (column, row, from the top-left cell); points are continuous
//!   `[x, y]`, where cell (x, y) covers [x, x + 1) × [y, y + 1) and its centre is
//!   (x + 0.5, y + 0.5).
//! - `grid_path.cost` follows the search's step model (step length × mean of the two cells'
//!   costs); `smoothed.cost` integrates the terrain cost along the line-of-sight segments and
//!   is never higher. `curve_length` and `curve_cost` are measured on the Bezier curve by
//!   sampling it at most 0.01 cells apart.
//! - Each Bezier piece is `[[x0, y0], [c1x, c1y], [c2x, c2y], [x1, y1]]`; each ends where the
//!   next starts, the first starts at the start cell's centre and the last ends at the goal's.
//! - `smoothed` is `null` when no path was found; `stats.time_us` is the search's wall time.

use serde::Serialize;

use crate::grid::{Cell, Map};
use crate::search::{SearchRequest, SearchResult};
use crate::smooth::{SmoothSettings, SmoothedPath};

/// The path export document (see the [module](self) for its schema).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PathExport {
    /// Always `"gridpath-path"`.
    pub format: &'static str,
    /// The schema version, 1.
    pub version: u32,
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
    /// The smoothed path; `None` (`null`) when no path was found.
    pub smoothed: Option<SmoothedPath>,
    /// The search's counters.
    pub stats: StatsSummary,
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
}

/// The search settings, by their command-line names.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SearchSummary {
    /// The algorithm, e.g. `"astar"`.
    pub algorithm: &'static str,
    /// The diagonal rule, e.g. `"no-cut"`.
    pub diagonal: &'static str,
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
    /// Its length (1 per orthogonal step, √2 per diagonal one).
    pub length: f64,
    /// Its cost under the step model.
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
    /// The export of one search on `map` and its smoothing (`None` when nothing was found).
    pub fn new(
        map: &Map,
        request: &SearchRequest,
        result: &SearchResult,
        smoothing: SmoothSettings,
        smoothed: Option<SmoothedPath>,
    ) -> Self {
        let stats = result.stats;
        Self {
            format: "gridpath-path",
            version: 1,
            map: MapSummary {
                name: map.name.clone(),
                width: map.grid.width(),
                height: map.grid.height(),
            },
            start: request.start,
            goal: request.goal,
            search: SearchSummary {
                algorithm: request.algorithm.name(),
                diagonal: request.diagonal.name(),
                heuristic: request.effective_heuristic().name(),
                weight: request.weight,
                optimality: result.optimality.to_string(),
            },
            smoothing,
            found: result.found,
            grid_path: GridPath {
                cells: result.path.clone(),
                length: result.length,
                cost: result.cost,
            },
            smoothed,
            stats: StatsSummary {
                expanded: stats.expanded,
                pushed: stats.pushed,
                max_open: stats.max_open,
                time_us: stats.time_us,
            },
        }
    }

    /// The document as indented JSON.
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string_pretty(self)
    }
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
        let export = PathExport::new(&map, &request, &result, settings, Some(smoothed));
        let value: serde_json::Value = serde_json::from_str(&export.to_json().unwrap()).unwrap();
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
}
