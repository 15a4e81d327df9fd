//! How far a point is from the nearest wall.
//!
//! A wall is an impassable cell's closed square, and everything past the map's edges counts as
//! wall too: a unit may not leave the map, so it keeps its clearance from the border as well.
//! On a hex map a wall is an impassable hex's closed area and every hex off the map, measured
//! in the map's world frame. The map answers for either shape ([`Grid::wall_distance`],
//! [`Grid::segment_keeps_clearance`]).

use crate::grid::Grid;

use super::Point;
use super::segment::is_passable;

/// The distance from `point` to the nearest wall, looking no farther than `limit`: `limit`
/// itself when no wall is nearer, 0 when the point lies in a wall.
///
/// The work is bounded by the map, whatever the limit: the border is a wall at a known
/// distance, so only the map's own cells within reach are examined.
pub fn wall_distance(grid: &Grid, point: Point, limit: f64) -> f64 {
    grid.wall_distance(point.into(), limit)
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
    grid.segment_keeps_clearance(a.into(), b.into(), clearance)
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
    fn the_map_border_counts_as_a_wall() {
        let grid = Grid::from_ascii(&["...", "...", "..."]).unwrap();
        assert!((wall_distance(&grid, Point::new(1.5, 0.25), 2.0) - 0.25).abs() < 1e-12);
        assert_eq!(wall_distance(&grid, Point::new(1.5, 1.5), 2.0), 1.5);
        assert_eq!(wall_distance(&grid, Point::new(1.5, 1.5), 1.0), 1.0);
        assert!(!keeps_clearance(&grid, Point::new(3.5, 1.5), 0.0));
        assert!(keeps_clearance(&grid, Point::new(2.9, 1.5), 0.0));
    }
}
