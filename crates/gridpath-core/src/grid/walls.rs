//! How far a point or a segment of the world frame stays from the map's walls.
//!
//! A wall is an impassable cell's closed area (a square, or a hex), and everything past the
//! map's edges counts as wall too: a unit may not leave the map, so it keeps its clearance from
//! the border as well. Distances are exact: to the nearest corner or side of the nearest wall.
//!
//! On hexes only the ring of hexes around the map needs looking at for the border: every
//! neighbour of a hex of the map is a hex of the map or of that ring, so any way out of the
//! map crosses the ring first.

use std::ops::RangeInclusive;

use super::cell::Cell;
use super::grid::Grid;
use super::topology::{HexLayout, Topology};

/// Whether the cell at signed coordinates is on the map and passable.
fn is_passable(grid: &Grid, x: i64, y: i64) -> bool {
    grid.contains(x, y) && grid.cost(Cell::new(x as u32, y as u32)).is_some()
}

impl Grid {
    /// The distance from `point` (in the world frame) to the nearest wall, looking no farther
    /// than `limit`: `limit` itself when no wall is nearer, 0 when the point lies in a wall.
    ///
    /// The work is bounded by the map, whatever the limit: the border is a wall at a known
    /// distance, so only the map's own cells within reach are examined.
    pub fn wall_distance(&self, point: (f64, f64), limit: f64) -> f64 {
        match self.topology().hex() {
            Some(layout) => hex_wall_distance(self, layout, point, limit),
            None => square_wall_distance(self, point, limit),
        }
    }

    /// Whether the straight segment from `a` to `b` keeps at least `clearance` from every
    /// wall and from the map's border, measured exactly. The segment must lie in passable
    /// cells.
    pub fn segment_keeps_clearance(&self, a: (f64, f64), b: (f64, f64), clearance: f64) -> bool {
        match self.topology().hex() {
            Some(layout) => hex_segment_keeps_clearance(self, layout, a, b, clearance),
            None => square_segment_keeps_clearance(self, a, b, clearance),
        }
    }
}

/// [`Grid::wall_distance`] on squares.
fn square_wall_distance(grid: &Grid, point: (f64, f64), limit: f64) -> f64 {
    let (cx, cy) = (point.0.floor() as i64, point.1.floor() as i64);
    if !is_passable(grid, cx, cy) {
        return 0.0;
    }
    // Everything past the edges is wall: the nearest of it is the nearest edge.
    let (width, height) = (f64::from(grid.width()), f64::from(grid.height()));
    let border = point
        .0
        .min(point.1)
        .min(width - point.0)
        .min(height - point.1)
        .max(0.0);
    let mut nearest = limit.min(border);
    let (xs, ys) = scan_window(grid, point, nearest);
    for y in ys {
        for x in xs.clone() {
            if is_passable(grid, x, y) {
                continue;
            }
            let gap = |v: f64, low: i64| {
                let low = low as f64;
                (low - v).max(v - (low + 1.0)).max(0.0)
            };
            let d = gap(point.0, x).hypot(gap(point.1, y));
            nearest = nearest.min(d);
        }
    }
    nearest
}

/// The columns and rows of the map's cells whose square may lie within `reach` of `point`
/// (x ≤ p.x + reach and x + 1 ≥ p.x − reach), clipped to the map.
fn scan_window(
    grid: &Grid,
    point: (f64, f64),
    reach: f64,
) -> (RangeInclusive<i64>, RangeInclusive<i64>) {
    let span = |v: f64, side: u32| {
        let low = ((v - reach - 1.0).ceil() as i64).max(0);
        let high = ((v + reach).floor() as i64).min(i64::from(side) - 1);
        low..=high
    };
    (span(point.0, grid.width()), span(point.1, grid.height()))
}

/// [`Grid::segment_keeps_clearance`] on squares: for each wall square near the segment, the
/// least distance between the two (reached at a segment end or a square corner, as the
/// segment enters no wall).
fn square_segment_keeps_clearance(
    grid: &Grid,
    a: (f64, f64),
    b: (f64, f64),
    clearance: f64,
) -> bool {
    let (width, height) = (f64::from(grid.width()), f64::from(grid.height()));
    let border = |p: (f64, f64)| p.0.min(p.1).min(width - p.0).min(height - p.1);
    if border(a) < clearance || border(b) < clearance {
        return false;
    }
    let reach = clearance.ceil() as i64 + 1;
    let (x0, x1) = (a.0.min(b.0).floor() as i64, a.0.max(b.0).floor() as i64);
    let (y0, y1) = (a.1.min(b.1).floor() as i64, a.1.max(b.1).floor() as i64);
    let length = (b.0 - a.0).hypot(b.1 - a.1);
    let direction = if length > 0.0 {
        ((b.0 - a.0) * (1.0 / length), (b.1 - a.1) * (1.0 / length))
    } else {
        (0.0, 0.0)
    };
    let to_segment = |p: (f64, f64)| {
        let t = ((p.0 - a.0) * direction.0 + (p.1 - a.1) * direction.1).clamp(0.0, length);
        let foot = (a.0 + direction.0 * t, a.1 + direction.1 * t);
        (foot.0 - p.0).hypot(foot.1 - p.1)
    };
    // The cells within reach of the segment's bounding box, row by row, kept to those near the
    // segment's own line so a long diagonal does not scan its whole box.
    for y in (y0 - reach).max(0)..=(y1 + reach).min(i64::from(grid.height()) - 1) {
        for x in (x0 - reach).max(0)..=(x1 + reach).min(i64::from(grid.width()) - 1) {
            if is_passable(grid, x, y) {
                continue;
            }
            let centre = (x as f64 + 0.5, y as f64 + 0.5);
            if to_segment(centre) > clearance + 1.0 {
                continue;
            }
            let (left, top) = (x as f64, y as f64);
            let gap = |p: (f64, f64)| {
                let dx = (left - p.0).max(p.0 - (left + 1.0)).max(0.0);
                let dy = (top - p.1).max(p.1 - (top + 1.0)).max(0.0);
                dx.hypot(dy)
            };
            let corners = [
                (left, top),
                (left + 1.0, top),
                (left, top + 1.0),
                (left + 1.0, top + 1.0),
            ];
            let nearest = corners
                .into_iter()
                .map(to_segment)
                .fold(gap(a).min(gap(b)), f64::min);
            if nearest < clearance {
                return false;
            }
        }
    }
    true
}

/// The offset cells of the map and the ring of hexes around it.
fn map_and_ring(grid: &Grid) -> (i64, i64, i64, i64) {
    (-1, -1, i64::from(grid.width()), i64::from(grid.height()))
}

/// [`Grid::wall_distance`] on hexes: to the nearest wall hex (off the map included).
fn hex_wall_distance(grid: &Grid, layout: HexLayout, point: (f64, f64), limit: f64) -> f64 {
    let (x, y) = layout.hex_at(point.0, point.1);
    if !is_passable(grid, x, y) {
        return 0.0;
    }
    // A point of the map's box side lies within a cell of a hex off the map, so the nearest
    // wall is no farther than the nearest side and one cell: the scan stays within the map.
    let (width, height) = Topology::Hex(layout).world_size(grid.width(), grid.height());
    let side = point
        .0
        .min(point.1)
        .min(width - point.0)
        .min(height - point.1)
        .max(0.0);
    let mut nearest = limit.min(side + 1.0);
    for (hx, hy) in layout.hexes_near(point, point, nearest, map_and_ring(grid)) {
        if !is_passable(grid, hx, hy) {
            nearest = nearest.min(layout.distance_to(hx, hy, point));
        }
    }
    nearest
}

/// [`Grid::segment_keeps_clearance`] on hexes: from every wall hex and every hex off the map.
fn hex_segment_keeps_clearance(
    grid: &Grid,
    layout: HexLayout,
    p: (f64, f64),
    q: (f64, f64),
    clearance: f64,
) -> bool {
    layout
        .hexes_near(p, q, clearance, map_and_ring(grid))
        .into_iter()
        .filter(|&(x, y)| !is_passable(grid, x, y))
        .all(|(x, y)| layout.segment_distance(x, y, p, q) >= clearance)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_limit_scans_no_cell_off_the_map() {
        let grid = Grid::from_ascii(&["...", "...", "..."]).unwrap();
        let point = (1.5, 1.25);
        let (xs, ys) = scan_window(&grid, point, 1e12);
        assert_eq!((xs, ys), (0..=2, 0..=2));
        assert_eq!(grid.wall_distance(point, 1e300), 1.25);
        assert_eq!(grid.wall_distance(point, f64::INFINITY), 1.25);
    }
}
