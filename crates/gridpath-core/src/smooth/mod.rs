//! Smoothing grid paths into lines and curves a unit can follow without touching a wall.
//!
//! Smoothing runs in two stages over a path of cells from a search:
//!
//! 1. **Line of sight** ([`pull_string`]): runs of grid steps are replaced by straight
//!    segments between cell centres when every cell the segment touches is passable — the
//!    supercover walk of [`Segment::supercover`], which counts all four cells at an exact
//!    corner crossing, so a segment never squeezes between two diagonally touching walls —
//!    and, on weighted terrain, when the terrain cost integrated along the segment is not
//!    higher than the grid steps it replaces. The line-of-sight path never costs more than
//!    the grid path.
//! 2. **Curves** ([`fit_curves`]): a Catmull–Rom spline through the waypoints (or, with a
//!    minimum turning radius, straight segments and circular arcs, [`fit_fillets`]), converted to
//!    cubic Bezier pieces with a tension parameter, continuous in tangent at the joins. Every
//!    piece is sampled at most [`SAMPLE_SPACING`] apart; one that comes nearer than the
//!    clearance to a wall is tightened (shorter handles, then split in two), falling back to
//!    the straight segment between its ends.
//!
//! An any-angle search result (Theta*, Lazy Theta*) already is a line-of-sight path: it skips
//! the first stage and the curves run through its own waypoints ([`smooth_waypoints`];
//! `SearchResult::smoothed` picks the right one of the two for a result).
//!
//! # What is guaranteed
//!
//! Continuous coordinates put cell (x, y) on [x, x + 1) × [y, y + 1); a wall is an impassable
//! cell's closed square, and everything past the map's edges counts as wall. On a hex map the
//! coordinates are its world frame ([`Topology::centre`](crate::grid::Topology::centre):
//! neighbouring centres 1 apart), a wall is an impassable hex's closed area and every hex off
//! the map is one; the same stages run unchanged, asking the map's topology for centres, line
//! of sight, segment costs and wall distances ([`Segment::is_clear`], [`Segment::cost`],
//! [`clearance`]), which the map answers for either shape (`grid/geometry.rs`,
//! `grid/integral.rs`, `grid/walls.rs`).
//!
//! - The curve starts exactly at the start cell's centre and ends exactly at the goal's.
//! - A curved piece keeps more than `clearance` from every wall at every point (its samples
//!   keep `clearance + SAMPLE_SPACING`, and no point of the curve is farther than half a
//!   spacing from a sample).
//! - The curve runs through the waypoints and, where a line-of-sight segment comes nearer than
//!   `clearance` to a wall, through the grid path's cells there, pulled only as far as the
//!   clearance allows ([`pull_string_keeping`]). So a straight piece lies on a segment that
//!   keeps `clearance` from every wall, or on a single grid step (which keeps half a cell under
//!   the `no-cut` and `never` rules: less than `clearance` only in a corridor narrower than
//!   twice it). Where a piece had to fall back to straight, its control points sit on its ends
//!   and its tangent vanishes there: the path may turn a corner at such a join. An any-angle
//!   path's waypoints are kept as they are: its straight pieces touch no wall but may come
//!   nearer than `clearance`.
//! - With [`SmoothSettings::min_turn_radius`] the corners are circular arcs of that radius
//!   where they fit ([`fit_fillets`]); [`SmoothedPath::min_turn_radius`] and
//!   [`SmoothedPath::max_heading_change`] report how sharply the curve turns, with or without
//!   the bound.
//! - On hexes the same hold, but a single grid step passes 1/(2√3) ≈ 0.289 cells from the
//!   corners of the two hexes beside both its ends: a straight piece on a single step keeps
//!   that much, less than `clearance` where the clearance asked for is larger.
//! - These hold for grid paths whose every step is itself clear: paths under the `no-cut`
//!   and `never` diagonal rules. A diagonal step that squeezes past a wall's corner (allowed by
//!   `always` and `one-free`) is kept as it is, and so is its corner.
//!
//! ```
//! use gridpath_core::grid::{Cell, Grid};
//! use gridpath_core::search::{self, SearchRequest};
//! use gridpath_core::smooth::{self, Point, SmoothSettings};
//!
//! let grid = Grid::from_ascii(&[".....", ".###.", "....."]).expect("valid map");
//! let result = search::solve(&grid, &SearchRequest::new(Cell::new(0, 0), Cell::new(4, 2)))
//!     .expect("valid request");
//! let smoothed = smooth::smooth_path(&grid, &result.path, &SmoothSettings::default())
//!     .expect("a path of the map");
//! assert_eq!(smoothed.waypoints.len(), 3);
//! assert_eq!(smoothed.beziers[0].start(), Point::new(0.5, 0.5));
//! assert!(smoothed.cost <= smoothed.grid_cost);
//! ```

mod bezier;
pub mod clearance;
mod curve;
mod error;
mod fillet;
#[cfg(test)]
mod hex_tests;
mod line_of_sight;
mod point;
mod sampling;
mod segment;
mod settings;
mod smoothed_path;
mod turning;

pub use bezier::CubicBezier;
pub use curve::{SAMPLE_SPACING, fit_curves, is_safe, measure};
pub use error::SmoothError;
pub use fillet::fit_fillets;
pub use line_of_sight::{COST_TOLERANCE, pull_string, pull_string_keeping, step_costs};
pub use point::Point;
pub use sampling::{
    CurveSample, CurveSamples, DEFAULT_SPACING, MAX_SAMPLES, MAX_SPACING, MIN_SPACING, sample_curve,
};
pub use segment::Segment;
pub use settings::SmoothSettings;
pub use smoothed_path::SmoothedPath;
pub use turning::{angle_between, max_heading_change, max_heading_change_along, radius_along};

use crate::control::SearchControl;
use crate::grid::{Cell, Grid};
use line_of_sight::Pull;

/// Smooths a grid path (start and goal included, as in a search result) in both stages: the
/// line-of-sight waypoints and the safe curve through them, with both paths' lengths and costs.
///
/// Fails when the settings are out of range (a clearance above the map's longer side too) or the
/// path is empty, leaves the map, crosses an
/// impassable cell or jumps between cells that are not neighbours.
pub fn smooth_path(
    grid: &Grid,
    path: &[Cell],
    settings: &SmoothSettings,
) -> Result<SmoothedPath, SmoothError> {
    smooth_path_through(grid, path, &[], settings)
}

/// [`smooth_path`] of a route that must pass through `stops` (its waypoints, in the order
/// visited): each stop stays a line-of-sight waypoint, so no shortcut skips it, and the curve
/// passes through it. A stop the path does not reach in that order is ignored.
///
/// ```
/// use gridpath_core::grid::{Cell, Grid};
/// use gridpath_core::smooth::{SmoothSettings, Point, smooth_path, smooth_path_through};
///
/// let grid = Grid::from_ascii(&["....."; 3]).unwrap();
/// // Out along the top row to (2, 0) and back: a straight shortcut would skip the stop.
/// let path = [Cell::new(0, 1), Cell::new(1, 0), Cell::new(2, 0), Cell::new(3, 1), Cell::new(4, 1)];
/// let settings = SmoothSettings::default();
/// let through = smooth_path_through(&grid, &path, &[Cell::new(2, 0)], &settings).unwrap();
/// assert!(through.waypoints.contains(&Point::centre(Cell::new(2, 0))));
/// ```
pub fn smooth_path_through(
    grid: &Grid,
    path: &[Cell],
    stops: &[Cell],
    settings: &SmoothSettings,
) -> Result<SmoothedPath, SmoothError> {
    smooth_path_controlled(grid, path, stops, settings, &SearchControl::new())
}

/// [`smooth_path_through`] watching `control`, as a search does: it stops soon after
/// [`SearchControl::cancel`] (between two line-of-sight questions, each one segment walk,
/// and between the stages) with [`SmoothError::Cancelled`].
///
/// The work grows with the path's length and the length of its line-of-sight shortcuts: a
/// run of equal steps (a straight row or diagonal) costs a few segment walks over it, not one
/// per cell.
///
/// ```
/// use gridpath_core::grid::{Cell, Grid};
/// use gridpath_core::search::SearchControl;
/// use gridpath_core::smooth::{SmoothError, SmoothSettings, smooth_path_controlled};
///
/// let grid = Grid::from_ascii(&["....."; 3]).expect("valid map");
/// let path: Vec<Cell> = (0..5).map(|x| Cell::new(x, 1)).collect();
/// let control = SearchControl::new();
/// control.cancel();
/// let outcome = smooth_path_controlled(&grid, &path, &[], &SmoothSettings::default(), &control);
/// assert_eq!(outcome, Err(SmoothError::Cancelled));
/// ```
pub fn smooth_path_controlled(
    grid: &Grid,
    path: &[Cell],
    stops: &[Cell],
    settings: &SmoothSettings,
    control: &SearchControl,
) -> Result<SmoothedPath, SmoothError> {
    if control.is_cancelled() {
        return Err(SmoothError::Cancelled);
    }
    settings.validate_for(grid)?;
    check_path(grid, path)?;
    let topology = grid.topology();
    let centre = |cell: Cell| Point::centre_on(topology, cell);
    let steps = step_costs(grid, path);
    let grid_length: f64 = path
        .windows(2)
        .map(|pair| Segment::between_centres_on(topology, pair[0], pair[1]).length())
        .sum();
    let grid_cost: f64 = steps.iter().sum();

    // The stops' places along the path, in order, each after the one before.
    let mut bounds = vec![0];
    let mut from = 0;
    for stop in stops {
        if let Some(i) = path[from..].iter().position(|c| c == stop) {
            from += i;
            bounds.push(from);
        }
    }
    bounds.push(path.len() - 1);
    bounds.dedup();
    let mut kept: Vec<usize> = Vec::with_capacity(path.len());
    for leg in bounds.windows(2) {
        let (a, b) = (leg[0], leg[1]);
        let pulled = Pull::new(grid, &path[a..=b], 0.0, control).run()?;
        let skip = usize::from(!kept.is_empty());
        kept.extend(pulled.into_iter().skip(skip).map(|i| i + a));
    }
    if kept.is_empty() {
        kept.push(0);
    }
    let waypoints: Vec<Point> = kept.iter().map(|&i| centre(path[i])).collect();
    let (mut length, mut cost) = (0.0, 0.0);
    for pair in kept.windows(2) {
        let (from, to) = (pair[0], pair[1]);
        let segment = Segment::between_centres_on(topology, path[from], path[to]);
        let replaced: f64 = steps[from..to].iter().sum();
        length += segment.length();
        // A single grid step is charged exactly its step cost (which its integral equals);
        // a longer shortcut was only taken because its integral is defined and no dearer.
        cost += if to - from == 1 {
            replaced
        } else {
            segment.cost(grid).unwrap_or(replaced)
        };
    }

    // The curve runs through the waypoints, and where a shortcut comes nearer than the
    // clearance to a wall, through the grid path's own turns there, pulled only as far as
    // the clearance allows: every straight piece then keeps the clearance too.
    let mut curve_points = vec![centre(path[kept[0]])];
    for pair in kept.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let (pa, pb) = (centre(path[a]), centre(path[b]));
        if b - a > 1 && !clearance::segment_keeps_clearance(grid, pa, pb, settings.clearance) {
            let sub = Pull::new(grid, &path[a..=b], settings.clearance, control).run()?;
            curve_points.extend(sub.iter().skip(1).map(|&i| centre(path[a + i])));
        } else {
            curve_points.push(pb);
        }
    }
    if control.is_cancelled() {
        return Err(SmoothError::Cancelled);
    }
    let beziers = fit(grid, &curve_points, settings);
    Ok(finish(
        grid,
        waypoints,
        beziers,
        (length, cost),
        (grid_length, grid_cost),
    ))
}

/// The curve through `points` with these settings: corners on arcs of the minimum turning
/// radius when there is one ([`fit_fillets`]), else the Catmull–Rom spline ([`fit_curves`]).
fn fit(grid: &Grid, points: &[Point], settings: &SmoothSettings) -> Vec<CubicBezier> {
    if settings.min_turn_radius > 0.0 {
        fit_fillets(grid, points, settings.min_turn_radius, settings.clearance)
    } else {
        fit_curves(grid, points, settings.tension, settings.clearance)
    }
}

/// The smoothed path with its curve measured: length, cost, straight pieces, the least turning
/// radius and the largest heading change between samples [`DEFAULT_SPACING`] apart.
fn finish(
    grid: &Grid,
    waypoints: Vec<Point>,
    beziers: Vec<CubicBezier>,
    (length, cost): (f64, f64),
    (grid_length, grid_cost): (f64, f64),
) -> SmoothedPath {
    let (curve_length, curve_cost) = measure(grid, &beziers);
    let straight_pieces = beziers.iter().filter(|b| b.is_straight()).count();
    let radius = radius_along(&beziers);
    let max_heading_change = max_heading_change_along(CurveSamples::new(&beziers, DEFAULT_SPACING));
    SmoothedPath {
        waypoints,
        beziers,
        length,
        cost,
        curve_length,
        curve_cost,
        straight_pieces,
        min_turn_radius: radius.is_finite().then_some(radius),
        max_heading_change,
        grid_length,
        grid_cost,
    }
}

/// Fits the safe curve through the waypoints of an any-angle path (start and goal included):
/// no string pulling, the waypoints are kept as they are. The line-of-sight path and the
/// "grid" path of the result are then both the polyline through the waypoints, each segment
/// charged its integral ([`Segment::cost`]).
///
/// Fails as [`smooth_path`] does, and when two consecutive waypoints are neither neighbours
/// nor in line of sight ([`Segment::is_clear`]).
pub fn smooth_waypoints(
    grid: &Grid,
    waypoints: &[Cell],
    settings: &SmoothSettings,
) -> Result<SmoothedPath, SmoothError> {
    smooth_waypoints_controlled(grid, waypoints, settings, &SearchControl::new())
}

/// [`smooth_waypoints`] watching `control`: [`SmoothError::Cancelled`] soon after
/// [`SearchControl::cancel`], as [`smooth_path_controlled`].
pub fn smooth_waypoints_controlled(
    grid: &Grid,
    waypoints: &[Cell],
    settings: &SmoothSettings,
    control: &SearchControl,
) -> Result<SmoothedPath, SmoothError> {
    if control.is_cancelled() {
        return Err(SmoothError::Cancelled);
    }
    settings.validate_for(grid)?;
    check_cells(grid, waypoints)?;
    let topology = grid.topology();
    let (mut length, mut cost) = (0.0, 0.0);
    for (index, pair) in waypoints.windows(2).enumerate() {
        if control.is_cancelled() {
            return Err(SmoothError::Cancelled);
        }
        let (from, to) = (pair[0], pair[1]);
        let segment = Segment::between_centres_on(topology, from, to);
        let neighbours = topology.are_neighbours(from, to);
        let piece = if neighbours {
            segment.cost(grid)
        } else {
            segment.clear_cost(grid)
        };
        let Some(piece) = piece else {
            return Err(SmoothError::NotInSight { index, from, to });
        };
        length += segment.length();
        cost += piece;
    }
    let points: Vec<Point> = waypoints
        .iter()
        .map(|&c| Point::centre_on(topology, c))
        .collect();
    if control.is_cancelled() {
        return Err(SmoothError::Cancelled);
    }
    let beziers = fit(grid, &points, settings);
    Ok(finish(
        grid,
        points,
        beziers,
        (length, cost),
        (length, cost),
    ))
}

/// Checks that the path is non-empty, on the map, passable and made of neighbour steps.
fn check_path(grid: &Grid, path: &[Cell]) -> Result<(), SmoothError> {
    check_cells(grid, path)?;
    for (index, pair) in path.windows(2).enumerate() {
        let (from, to) = (pair[0], pair[1]);
        if !grid.topology().are_neighbours(from, to) {
            return Err(SmoothError::NotAdjacent { index, from, to });
        }
    }
    Ok(())
}

/// Checks that the cells are not none, and all on the map and passable.
fn check_cells(grid: &Grid, path: &[Cell]) -> Result<(), SmoothError> {
    if path.is_empty() {
        return Err(SmoothError::EmptyPath);
    }
    for (index, &cell) in path.iter().enumerate() {
        if !grid.contains_cell(cell) {
            return Err(SmoothError::OffMap {
                index,
                cell,
                width: grid.width(),
                height: grid.height(),
            });
        }
        if !grid.is_passable(cell) {
            return Err(SmoothError::Blocked { index, cell });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_paths_are_refused_with_their_place() {
        let grid = Grid::from_ascii(&["..#", "..."]).unwrap();
        let s = SmoothSettings::default();
        assert_eq!(smooth_path(&grid, &[], &s), Err(SmoothError::EmptyPath));
        let off = [Cell::new(1, 1), Cell::new(1, 2)];
        assert!(matches!(
            smooth_path(&grid, &off, &s),
            Err(SmoothError::OffMap { index: 1, .. })
        ));
        let wall = [Cell::new(1, 0), Cell::new(2, 0)];
        assert!(matches!(
            smooth_path(&grid, &wall, &s),
            Err(SmoothError::Blocked { index: 1, .. })
        ));
        let jump = [Cell::new(0, 0), Cell::new(0, 1), Cell::new(2, 1)];
        let error = smooth_path(&grid, &jump, &s).unwrap_err();
        assert_eq!(
            error.to_string(),
            "cells 1 and 2 of the path, (0, 1) and (2, 1), are not neighbours"
        );
        let bad = SmoothSettings {
            tension: 2.0,
            ..SmoothSettings::default()
        };
        assert_eq!(
            smooth_path(&grid, &off[..1], &bad),
            Err(SmoothError::BadTension(2.0))
        );
    }

    #[test]
    fn a_clearance_larger_than_the_map_is_refused() {
        let grid = Grid::from_ascii(&["..#", "..."]).unwrap();
        let path = [Cell::new(0, 0), Cell::new(1, 1)];
        let with = |clearance| SmoothSettings {
            clearance,
            ..SmoothSettings::default()
        };
        assert!(smooth_path(&grid, &path, &with(3.0)).is_ok());
        let error = smooth_path(&grid, &path, &with(3.5)).unwrap_err();
        assert_eq!(
            error,
            SmoothError::ClearanceTooLarge {
                clearance: 3.5,
                width: 3,
                height: 2
            }
        );
        assert_eq!(
            error.to_string(),
            "the clearance 3.5 cells is larger than the 3 × 2 map: at most 3 cells"
        );
        assert!(smooth_path(&grid, &path, &with(1e300)).is_err());
    }

    #[test]
    fn a_single_cell_is_one_waypoint_and_no_curve() {
        let grid = Grid::from_ascii(&["..."]).unwrap();
        let smoothed = smooth_path(&grid, &[Cell::new(1, 0)], &SmoothSettings::default()).unwrap();
        assert_eq!(smoothed.waypoints, vec![Point::new(1.5, 0.5)]);
        assert!(smoothed.beziers.is_empty());
        assert_eq!((smoothed.length, smoothed.cost), (0.0, 0.0));
    }

    #[test]
    fn straight_pieces_keep_the_clearance_where_the_shortcut_grazes_a_wall() {
        // The shortcut over this path passes 0.09 above the corner of the wall at (3, 2).
        let grid = Grid::from_ascii(&["......", "......", "...#.."]).unwrap();
        let path: Vec<Cell> = [(0, 0), (1, 0), (2, 0), (3, 0), (4, 1), (5, 2)]
            .into_iter()
            .map(|(x, y)| Cell::new(x, y))
            .collect();
        for min_turn_radius in [0.0, 0.5] {
            let settings = SmoothSettings {
                tension: 0.0,
                clearance: 0.25,
                min_turn_radius,
            };
            let smoothed = smooth_path(&grid, &path, &settings).unwrap();
            // A segment of the line-of-sight path grazes the wall; the curve keeps off it.
            assert!(
                smoothed
                    .waypoints
                    .windows(2)
                    .any(|w| !clearance::segment_keeps_clearance(&grid, w[0], w[1], 0.25)),
                "{:?}",
                smoothed.waypoints
            );
            for piece in &smoothed.beziers {
                for p in piece.samples(0.005) {
                    let d = clearance::wall_distance(&grid, p, 1.0);
                    assert!(d >= 0.25 - 1e-9, "{p:?} is {d} from the wall");
                }
            }
        }
    }

    #[test]
    fn a_turning_radius_bounds_the_heading_change_at_an_s_bend() {
        // Around the end of one wall and back around the end of the next: an S.
        let rows = [
            "............",
            "............",
            "#######.....",
            "............",
            "............",
            "....########",
            "............",
            "............",
        ];
        let grid = Grid::from_ascii(&rows).unwrap();
        let request = crate::search::SearchRequest::new(Cell::new(0, 0), Cell::new(0, 7));
        let result = crate::search::solve(&grid, &request).unwrap();
        let loose = smooth_path(&grid, &result.path, &SmoothSettings::default()).unwrap();
        let bounded = SmoothSettings {
            min_turn_radius: 1.0,
            ..SmoothSettings::default()
        };
        let smoothed = smooth_path(&grid, &result.path, &bounded).unwrap();
        let radius = smoothed.min_turn_radius.expect("the path turns");
        assert!(radius >= 0.99, "least radius {radius}");
        // An arc of radius r turns spacing / r between samples `spacing` apart.
        assert!(
            smoothed.max_heading_change <= DEFAULT_SPACING / radius * 1.02,
            "{}° between samples",
            smoothed.max_heading_change.to_degrees()
        );
        assert!(
            smoothed.max_heading_change < loose.max_heading_change,
            "{} against {} without the bound",
            smoothed.max_heading_change.to_degrees(),
            loose.max_heading_change.to_degrees()
        );
    }

    #[test]
    fn both_lengths_and_costs_are_reported() {
        let grid = Grid::from_ascii(&["....", "....", "...."]).unwrap();
        let path: Vec<Cell> = [(0, 0), (1, 0), (2, 0), (3, 1), (3, 2)]
            .into_iter()
            .map(|(x, y)| Cell::new(x, y))
            .collect();
        let smoothed = smooth_path(&grid, &path, &SmoothSettings::default()).unwrap();
        let expected_grid = 3.0 + std::f64::consts::SQRT_2;
        assert!((smoothed.grid_length - expected_grid).abs() < 1e-12);
        assert!((smoothed.grid_cost - expected_grid).abs() < 1e-12);
        assert_eq!(smoothed.waypoints.len(), 2);
        assert!((smoothed.length - 3.0f64.hypot(2.0)).abs() < 1e-12);
        assert!((smoothed.cost - smoothed.length).abs() < 1e-9);
        assert!((smoothed.curve_length - smoothed.length).abs() < 1e-6);
    }
}
