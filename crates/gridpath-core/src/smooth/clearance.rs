//! How far a point is from the nearest wall.
//!
//! A wall is an impassable cell's closed square, and everything past the map's edges counts as
//! wall too: a unit may not leave the map, so it keeps its clearance from the border as well.
//! On a hex map a wall is an impassable hex's closed area and every hex off the map, measured
//! in the map's world frame (the `hex` module).

use std::ops::RangeInclusive;

use crate::grid::{Grid, Topology};

use super::Point;
use super::hex;
use super::segment::is_passable;

/// The distance from `point` to the nearest wall, looking no farther than `limit`: `limit`
/// itself when no wall is nearer, 0 when the point lies in a wall.
///
/// The work is bounded by the map, whatever the limit: the border is a wall at a known
/// distance, so only the map's own cells within reach are examined.
pub fn wall_distance(grid: &Grid, point: Point, limit: f64) -> f64 {
    if let Topology::Hex(layout) = grid.topology() {
        return hex::wall_distance(grid, layout, point, limit);
    }
    let (cx, cy) = point.cell_in_grid();
    if !is_passable(grid, cx, cy) {
        return 0.0;
    }
    // Everything past the edges is wall: the nearest of it is the nearest edge.
    let (width, height) = (f64::from(grid.width()), f64::from(grid.height()));
    let border = point
        .x
        .min(point.y)
        .min(width - point.x)
        .min(height - point.y)
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
            let d = gap(point.x, x).hypot(gap(point.y, y));
            nearest = nearest.min(d);
        }
    }
    nearest
}

/// The columns and rows of the map's cells whose square may lie within `reach` of `point`
/// (x ≤ p.x + reach and x + 1 ≥ p.x − reach), clipped to the map.
fn scan_window(
    grid: &Grid,
    point: Point,
    reach: f64,
) -> (RangeInclusive<i64>, RangeInclusive<i64>) {
    let span = |v: f64, side: u32| {
        let low = ((v - reach - 1.0).ceil() as i64).max(0);
        let high = ((v + reach).floor() as i64).min(i64::from(side) - 1);
        low..=high
    };
    (span(point.x, grid.width()), span(point.y, grid.height()))
}

/// Whether `point` lies in a passable cell and no wall comes nearer than `clearance`.
pub fn keeps_clearance(grid: &Grid, point: Point, clearance: f64) -> bool {
    let (cx, cy) = point.cell_on(grid.topology());
    is_passable(grid, cx, cy) && wall_distance(grid, point, clearance) >= clearance
}

/// Whether the straight segment from `a` to `b` keeps at least `clearance` from every wall
/// and from the map's border, measured exactly: for each wall square near the segment, the
/// least distance between the two (reached at a segment end or a square corner, as the
/// segment enters no wall). The segment must lie in passable cells.
pub fn segment_keeps_clearance(grid: &Grid, a: Point, b: Point, clearance: f64) -> bool {
    if let Topology::Hex(layout) = grid.topology() {
        return hex::segment_keeps_clearance(grid, layout, a, b, clearance);
    }
    let (width, height) = (f64::from(grid.width()), f64::from(grid.height()));
    let border = |p: Point| p.x.min(p.y).min(width - p.x).min(height - p.y);
    if border(a) < clearance || border(b) < clearance {
        return false;
    }
    let reach = clearance.ceil() as i64 + 1;
    let (x0, x1) = (a.x.min(b.x).floor() as i64, a.x.max(b.x).floor() as i64);
    let (y0, y1) = (a.y.min(b.y).floor() as i64, a.y.max(b.y).floor() as i64);
    let length = a.distance(b);
    let direction = if length > 0.0 {
        (b - a) * (1.0 / length)
    } else {
        Point::default()
    };
    let to_segment = |p: Point| {
        let t = ((p - a).x * direction.x + (p - a).y * direction.y).clamp(0.0, length);
        p.distance(a + direction * t)
    };
    // The cells within reach of the segment's bounding box, row by row, kept to those near the
    // segment's own line so a long diagonal does not scan its whole box.
    for y in (y0 - reach).max(0)..=(y1 + reach).min(i64::from(grid.height()) - 1) {
        for x in (x0 - reach).max(0)..=(x1 + reach).min(i64::from(grid.width()) - 1) {
            if is_passable(grid, x, y) {
                continue;
            }
            let centre = Point::new(x as f64 + 0.5, y as f64 + 0.5);
            if to_segment(centre) > clearance + 1.0 {
                continue;
            }
            let (left, top) = (x as f64, y as f64);
            let gap = |p: Point| {
                let dx = (left - p.x).max(p.x - (left + 1.0)).max(0.0);
                let dy = (top - p.y).max(p.y - (top + 1.0)).max(0.0);
                dx.hypot(dy)
            };
            let corners = [
                Point::new(left, top),
                Point::new(left + 1.0, top),
                Point::new(left, top + 1.0),
                Point::new(left + 1.0, top + 1.0),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_segment_past_a_corner_is_measured_exactly() {
        let grid = Grid::from_ascii(&[".....", ".....", "..#..", ".....", "....."]).unwrap();
        // Along row 1's centre line: 0.5 above the wall's top side.
        let (a, b) = (Point::new(0.5, 1.5), Point::new(4.5, 1.5));
        assert!(segment_keeps_clearance(&grid, a, b, 0.5));
        assert!(!segment_keeps_clearance(&grid, a, b, 0.51));
        // A slanted segment passing the wall's corner (2, 2): against dense sampling.
        let (a, b) = (Point::new(0.5, 0.5), Point::new(4.5, 1.9));
        let sampled = (0..=10_000)
            .map(|k| wall_distance(&grid, a.lerp(b, f64::from(k) / 10_000.0), 3.0))
            .fold(f64::INFINITY, f64::min);
        assert!(segment_keeps_clearance(&grid, a, b, sampled - 1e-6));
        assert!(!segment_keeps_clearance(&grid, a, b, sampled + 1e-4));
        // The border counts as a wall.
        assert!(!segment_keeps_clearance(
            &grid,
            Point::new(0.2, 0.5),
            Point::new(0.5, 0.5),
            0.25
        ));
    }

    #[test]
    fn distance_to_a_wall_beside_and_at_a_corner() {
        let grid = Grid::from_ascii(&[".....", ".....", "..#..", ".....", "....."]).unwrap();
        assert_eq!(wall_distance(&grid, Point::new(1.5, 2.5), 2.0), 0.5);
        let corner = wall_distance(&grid, Point::new(1.5, 1.5), 2.0);
        assert!((corner - 0.5f64.hypot(0.5)).abs() < 1e-12);
        assert_eq!(wall_distance(&grid, Point::new(2.5, 2.5), 2.0), 0.0);
        assert!(keeps_clearance(&grid, Point::new(1.5, 2.5), 0.5));
        assert!(!keeps_clearance(&grid, Point::new(1.6, 2.5), 0.5));
    }

    /// The scan before it was clipped to the map: every cell within `limit`, off the map too.
    fn unclipped_wall_distance(grid: &Grid, point: Point, limit: f64) -> f64 {
        let (cx, cy) = point.cell_in_grid();
        if !is_passable(grid, cx, cy) {
            return 0.0;
        }
        let mut nearest = limit;
        let span = |v: f64| ((v - limit - 1.0).ceil() as i64, (v + limit).floor() as i64);
        let (x0, x1) = span(point.x);
        let (y0, y1) = span(point.y);
        for y in y0..=y1 {
            for x in x0..=x1 {
                if !is_passable(grid, x, y) {
                    let gap = |v: f64, low: i64| {
                        let low = low as f64;
                        (low - v).max(v - (low + 1.0)).max(0.0)
                    };
                    nearest = nearest.min(gap(point.x, x).hypot(gap(point.y, y)));
                }
            }
        }
        nearest
    }

    #[test]
    fn the_clipped_scan_gives_the_distances_of_the_full_one() {
        let grid = Grid::from_ascii(&["......#", ".#.....", "...#...", "......."]).unwrap();
        for i in 0..=28 {
            for j in 0..=16 {
                let point = Point::new(f64::from(i) * 0.25, f64::from(j) * 0.25);
                for limit in [0.0, 0.3, 1.0, 2.5, 7.0, 12.0] {
                    assert_eq!(
                        wall_distance(&grid, point, limit),
                        unclipped_wall_distance(&grid, point, limit),
                        "{point:?} within {limit}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_huge_limit_scans_no_cell_off_the_map() {
        let grid = Grid::from_ascii(&["...", "...", "..."]).unwrap();
        let point = Point::new(1.5, 1.25);
        let (xs, ys) = scan_window(&grid, point, 1e12);
        assert_eq!((xs, ys), (0..=2, 0..=2));
        assert_eq!(wall_distance(&grid, point, 1e300), 1.25);
        assert_eq!(wall_distance(&grid, point, f64::INFINITY), 1.25);
    }

    #[test]
    fn the_map_border_counts_as_a_wall() {
        let grid = Grid::from_ascii(&["...", "...", "..."]).unwrap();
        assert!((wall_distance(&grid, Point::new(1.5, 0.25), 2.0) - 0.25).abs() < 1e-12);
        assert_eq!(wall_distance(&grid, Point::new(1.5, 1.5), 2.0), 1.5);
        assert_eq!(wall_distance(&grid, Point::new(1.5, 1.5), 1.0), 1.0);
        assert!(!keeps_clearance(&grid, Point::new(3.5, 1.5), 0.0));
        assert!(keeps_clearance(&grid, Point::new(2.9, 1.5), 0.0));
    }
}
