//! How far a point is from the nearest wall.
//!
//! A wall is an impassable cell's closed square, and everything past the map's edges counts as
//! wall too: a unit may not leave the map, so it keeps its clearance from the border as well.

use crate::grid::Grid;

use super::Point;
use super::segment::is_passable;

/// The distance from `point` to the nearest wall, looking no farther than `limit`: `limit`
/// itself when no wall is nearer, 0 when the point lies in a wall.
pub fn wall_distance(grid: &Grid, point: Point, limit: f64) -> f64 {
    let (cx, cy) = point.cell_in_grid();
    if !is_passable(grid, cx, cy) {
        return 0.0;
    }
    let mut nearest = limit;
    // Cells whose square may lie within `limit`: x ≤ p.x + limit and x + 1 ≥ p.x − limit.
    let span = |v: f64| ((v - limit - 1.0).ceil() as i64, (v + limit).floor() as i64);
    let (x0, x1) = span(point.x);
    let (y0, y1) = span(point.y);
    for y in y0..=y1 {
        for x in x0..=x1 {
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

/// Whether `point` lies in a passable cell and no wall comes nearer than `clearance`.
pub fn keeps_clearance(grid: &Grid, point: Point, clearance: f64) -> bool {
    let (cx, cy) = point.cell_in_grid();
    is_passable(grid, cx, cy) && wall_distance(grid, point, clearance) >= clearance
}

#[cfg(test)]
mod tests {
    use super::*;

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
