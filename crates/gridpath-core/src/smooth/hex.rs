//! Wall distances among hexes: the smoother's clearance questions answered on a hex map, in
//! the world frame of [`HexLayout::centre_of`]. Which hexes a segment touches, and its cost,
//! the topology answers ([`crate::grid::Topology::touching`], [`crate::grid::Topology::integral`]).
//!
//! The rules are the squares' own. A wall is an impassable hex's closed area, and every hex
//! off the map is a wall. A segment is clear when every hex whose closed area it meets
//! ([`HexLayout::touching`]: corners and edges touched included) is on the map and passable,
//! so it never slips between two walls that meet at a corner or runs along a wall's edge. A
//! segment's cost is the terrain cost integrated along it, the dearer hex charged where it
//! runs along an edge; between two neighbouring centres (half in each hex) it is exactly the
//! search's step cost. Distances to walls are exact: to the nearest corner or edge of the
//! nearest wall hex.
//!
//! Only the ring of hexes around the map needs looking at for the border: every neighbour of
//! a hex of the map is a hex of the map or of that ring, so any way out of the map crosses
//! the ring first.

use crate::grid::{Cell, Grid, HexLayout};

use super::Point;

/// The cost of the hex at signed offset coordinates: `None` off the map or impassable.
pub(crate) fn cell_cost(grid: &Grid, x: i64, y: i64) -> Option<f64> {
    if !grid.contains(x, y) {
        return None;
    }
    grid.cost(Cell::new(x as u32, y as u32))
}

/// Whether the hex at signed offset coordinates is on the map and passable.
fn is_passable(grid: &Grid, x: i64, y: i64) -> bool {
    cell_cost(grid, x, y).is_some()
}

/// The offset cells of the map and the ring of hexes around it.
fn map_and_ring(grid: &Grid) -> (i64, i64, i64, i64) {
    (-1, -1, i64::from(grid.width()), i64::from(grid.height()))
}

/// Whether every hex the segment touches is on the map and passable (what
/// [`super::Segment::is_clear`] answers on a hex map).
#[cfg(test)]
fn is_clear(grid: &Grid, layout: HexLayout, a: Point, b: Point) -> bool {
    layout
        .touching(a.into(), b.into())
        .into_iter()
        .all(|(x, y)| is_passable(grid, x, y))
}

/// The integral of the terrain cost along the segment from `a` to `b` on a hex map
/// ([`crate::grid::Topology::integral`]), each hex's cost read from `cell_cost`.
#[cfg(test)]
fn cost(
    layout: HexLayout,
    a: Point,
    b: Point,
    clear: bool,
    cell_cost: impl Fn(i64, i64) -> Option<f64>,
) -> Option<f64> {
    crate::grid::Topology::Hex(layout).integral(a.into(), b.into(), clear, cell_cost)
}

/// The distance from `point` to the nearest wall hex (off the map included), looking no
/// farther than `limit`; 0 when the point lies in a wall.
pub(crate) fn wall_distance(grid: &Grid, layout: HexLayout, point: Point, limit: f64) -> f64 {
    let (x, y) = layout.hex_at(point.x, point.y);
    if !is_passable(grid, x, y) {
        return 0.0;
    }
    // A point of the map's box side lies within a cell of a hex off the map, so the nearest
    // wall is no farther than the nearest side and one cell: the scan stays within the map.
    let (width, height) =
        crate::grid::Topology::Hex(layout).world_size(grid.width(), grid.height());
    let side = point
        .x
        .min(point.y)
        .min(width - point.x)
        .min(height - point.y)
        .max(0.0);
    let mut nearest = limit.min(side + 1.0);
    let p = (point.x, point.y);
    for (hx, hy) in layout.hexes_near(p, p, nearest, map_and_ring(grid)) {
        if !is_passable(grid, hx, hy) {
            nearest = nearest.min(layout.distance_to(hx, hy, p));
        }
    }
    nearest
}

/// Whether the segment from `a` to `b` keeps at least `clearance` from every wall hex and
/// every hex off the map, measured exactly.
pub(crate) fn segment_keeps_clearance(
    grid: &Grid,
    layout: HexLayout,
    a: Point,
    b: Point,
    clearance: f64,
) -> bool {
    let (p, q) = ((a.x, a.y), (b.x, b.y));
    layout
        .hexes_near(p, q, clearance, map_and_ring(grid))
        .into_iter()
        .filter(|&(x, y)| !is_passable(grid, x, y))
        .all(|(x, y)| layout.segment_distance(x, y, p, q) >= clearance)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Topology;

    fn hex_grid(rows: &[&str], layout: HexLayout) -> Grid {
        Grid::from_ascii(rows)
            .expect("a valid map")
            .with_topology(Topology::Hex(layout))
    }

    fn centre(layout: HexLayout, x: i64, y: i64) -> Point {
        let (cx, cy) = layout.centre_of(x, y);
        Point::new(cx, cy)
    }

    #[test]
    fn a_step_between_neighbours_costs_the_mean_of_their_costs() {
        // Road 0.5, swamp 3, grass 1.
        for layout in HexLayout::ALL {
            let grid = hex_grid(&["=~.", "~=~", ".~="], layout);
            let from = Cell::new(1, 1);
            for (x, y) in layout.neighbours(1, 1) {
                let to = Cell::new(x as u32, y as u32);
                let (Some(a), Some(b)) = (grid.cost(from), grid.cost(to)) else {
                    panic!("all cells are passable");
                };
                let integral = cost(
                    layout,
                    centre(layout, 1, 1),
                    centre(layout, x, y),
                    true,
                    |x, y| cell_cost(&grid, x, y),
                )
                .expect("a clear step");
                assert!(
                    (integral - (a + b) / 2.0).abs() < 1e-12,
                    "{}",
                    layout.name()
                );
            }
        }
    }

    #[test]
    fn the_integral_weighs_each_hex_by_the_length_inside_it() {
        // Along a pointy-top row the centre line crosses each hex over exactly 1 cell.
        let layout = HexLayout::ODD_R;
        let grid = hex_grid(&[".~=#"], layout);
        let charge =
            |a: Point, b: Point, clear| cost(layout, a, b, clear, |x, y| cell_cost(&grid, x, y));
        let (a, b) = (centre(layout, 0, 0), centre(layout, 2, 0));
        let along = charge(a, b, false).expect("no wall on the way");
        assert!((along - (0.5 + 3.0 + 0.5 * 0.5)).abs() < 1e-12, "{along}");
        let into = charge(a, centre(layout, 3, 0), false);
        assert_eq!(into, None, "into the wall");
        // To the wall's edge: touched, so not clear, but no length inside it.
        let edge = Point::new(b.x + 0.5, b.y);
        assert!(charge(a, edge, false).is_some());
        assert_eq!(charge(a, edge, true), None);
    }

    #[test]
    fn wall_distances_are_measured_to_the_hexes_edges_and_the_border() {
        let layout = HexLayout::ODD_R;
        let grid = hex_grid(&[".....", ".....", "..#..", ".....", "....."], layout);
        // The wall's neighbour: half a cell from the shared edge.
        let beside = centre(layout, 1, 2);
        assert!((wall_distance(&grid, layout, beside, 5.0) - 0.5).abs() < 1e-12);
        assert_eq!(wall_distance(&grid, layout, centre(layout, 2, 2), 5.0), 0.0);
        // Row 0's centres are half a cell from the hexes above the map, row 0 being the top.
        let top = centre(layout, 2, 0);
        assert!((wall_distance(&grid, layout, top, 5.0) - 0.5).abs() < 1e-12);
        assert_eq!(wall_distance(&grid, layout, top, 0.2), 0.2);
        assert!((wall_distance(&grid, layout, top, f64::INFINITY) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn a_segment_keeps_its_clearance_exactly_as_far_as_its_points_do() {
        for layout in HexLayout::ALL {
            let grid = hex_grid(&["......", "......", "...#..", "......", "......"], layout);
            for (from, to) in [((1, 1), (4, 1)), ((0, 3), (5, 2)), ((2, 4), (4, 0))] {
                let (a, b) = (centre(layout, from.0, from.1), centre(layout, to.0, to.1));
                if !is_clear(&grid, layout, a, b) {
                    continue;
                }
                // Points 0.0015 apart come within 0.00075 of the segment's least distance.
                let sampled = (0..=2000)
                    .map(|i| wall_distance(&grid, layout, a.lerp(b, f64::from(i) / 2000.0), 9.0))
                    .fold(f64::INFINITY, f64::min);
                let name = layout.name();
                assert!(
                    segment_keeps_clearance(&grid, layout, a, b, sampled - 1e-3),
                    "{name}"
                );
                assert!(
                    !segment_keeps_clearance(&grid, layout, a, b, sampled + 1e-9),
                    "{name}"
                );
            }
        }
    }
}
