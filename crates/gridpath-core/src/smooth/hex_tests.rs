//! The smoother's questions on hex maps: line of sight, segment costs and wall distances,
//! answered by the map's topology in its world frame ([`HexLayout::centre_of`]).

use crate::grid::{Cell, Grid, HexLayout, Topology};

use super::Point;
use super::Segment;
use super::clearance::{segment_keeps_clearance, wall_distance};

fn hex_grid(rows: &[&str], layout: HexLayout) -> Grid {
    Grid::from_ascii(rows)
        .expect("a valid map")
        .with_topology(Topology::Hex(layout))
}

fn centre(layout: HexLayout, x: i64, y: i64) -> Point {
    let (cx, cy) = layout.centre_of(x, y);
    Point::new(cx, cy)
}

/// The segment's cost on `grid`: [`Segment::clear_cost`] when `clear`, else
/// [`Segment::cost`].
fn cost(grid: &Grid, a: Point, b: Point, clear: bool) -> Option<f64> {
    let segment = Segment::new(a, b);
    if clear {
        segment.clear_cost(grid)
    } else {
        segment.cost(grid)
    }
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
            let integral = cost(&grid, centre(layout, 1, 1), centre(layout, x, y), true)
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
    let charge = |a: Point, b: Point, clear| cost(&grid, a, b, clear);
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
    assert!((wall_distance(&grid, beside, 5.0) - 0.5).abs() < 1e-12);
    assert_eq!(wall_distance(&grid, centre(layout, 2, 2), 5.0), 0.0);
    // Row 0's centres are half a cell from the hexes above the map, row 0 being the top.
    let top = centre(layout, 2, 0);
    assert!((wall_distance(&grid, top, 5.0) - 0.5).abs() < 1e-12);
    assert_eq!(wall_distance(&grid, top, 0.2), 0.2);
    assert!((wall_distance(&grid, top, f64::INFINITY) - 0.5).abs() < 1e-12);
}

#[test]
fn a_segment_keeps_its_clearance_exactly_as_far_as_its_points_do() {
    for layout in HexLayout::ALL {
        let grid = hex_grid(&["......", "......", "...#..", "......", "......"], layout);
        for (from, to) in [((1, 1), (4, 1)), ((0, 3), (5, 2)), ((2, 4), (4, 0))] {
            let (a, b) = (centre(layout, from.0, from.1), centre(layout, to.0, to.1));
            if !Segment::new(a, b).is_clear(&grid) {
                continue;
            }
            // Points 0.0015 apart come within 0.00075 of the segment's least distance.
            let sampled = (0..=2000)
                .map(|i| wall_distance(&grid, a.lerp(b, f64::from(i) / 2000.0), 9.0))
                .fold(f64::INFINITY, f64::min);
            let name = layout.name();
            assert!(
                segment_keeps_clearance(&grid, a, b, sampled - 1e-3),
                "{name}"
            );
            assert!(
                !segment_keeps_clearance(&grid, a, b, sampled + 1e-9),
                "{name}"
            );
        }
    }
}
