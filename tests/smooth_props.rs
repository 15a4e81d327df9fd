//! Property tests of path smoothing on random maps with walls and weighted terrain, square and
//! hex (all four layouts).

use gridpath::grid::{Cell, Grid, HexLayout, StaggerAxis, StaggerIndex, Terrain, Topology};
use gridpath::search::{self, Algorithm, Diagonal, SearchRequest};
use gridpath::smooth::clearance::wall_distance;
use gridpath::smooth::{self, CubicBezier, Point, Segment, SmoothSettings, SmoothedPath};
use proptest::prelude::*;

/// Samples the tests check curves at: four times denser than the smoother's own check.
const TEST_SPACING: f64 = 0.005;

/// A map: width, height and the terrain ids (grass, road, swamp, wall) row by row.
fn map_strategy() -> impl Strategy<Value = Grid> {
    (3u32..20, 3u32..20).prop_flat_map(|(w, h)| {
        let terrain = prop_oneof![5 => Just(0u8), 2 => Just(1u8), 2 => Just(2u8), 3 => Just(3u8)];
        prop::collection::vec(terrain, (w * h) as usize).prop_map(move |cells| {
            Grid::from_cells(w, h, Terrain::default_catalog(), cells).expect("valid cells")
        })
    })
}

fn settings_strategy() -> impl Strategy<Value = SmoothSettings> {
    let radius = prop_oneof![3 => Just(0.0), 1 => 0.3f64..3.0];
    (0.0f64..=1.0, 0.0f64..0.45, radius).prop_map(|(tension, clearance, min_turn_radius)| {
        SmoothSettings {
            tension,
            clearance,
            min_turn_radius,
        }
    })
}

fn passable_cells(grid: &Grid) -> Vec<Cell> {
    (0..grid.len())
        .map(|i| grid.cell_at(i))
        .filter(|&c| grid.is_passable(c))
        .collect()
}

fn in_passable_cell(grid: &Grid, p: Point) -> bool {
    let (x, y) = p.cell_in_grid();
    grid.contains(x, y) && grid.is_passable(Cell::new(x as u32, y as u32))
}

/// The direction of `v`, or `None` when it is (nearly) zero.
fn direction(v: Point) -> Option<Point> {
    let n = v.norm();
    (n > 1e-9).then(|| v * (1.0 / n))
}

/// On any topology: the line-of-sight path costs no more than the grid path and is no longer,
/// and the curve's pieces join end to end, tangent-continuous where neither tangent vanishes.
fn check_cost_and_joins(grid_cost: f64, smoothed: &SmoothedPath) -> Result<(), TestCaseError> {
    prop_assert!(
        smoothed.cost <= grid_cost + smooth::COST_TOLERANCE * grid_cost.max(1.0),
        "line of sight {} > grid {}",
        smoothed.cost,
        grid_cost
    );
    prop_assert!(smoothed.length <= smoothed.grid_length + 1e-9);
    for (i, pair) in smoothed.beziers.windows(2).enumerate() {
        let (curve, next) = (&pair[0], &pair[1]);
        prop_assert_eq!(curve.end(), next.start());
        let into = curve.points[3] - curve.points[2];
        let out = next.points[1] - next.points[0];
        if let (Some(a), Some(b)) = (direction(into), direction(out)) {
            prop_assert!(
                (a.x - b.x).abs() <= 1e-9 && (a.y - b.y).abs() <= 1e-9,
                "join {}: {:?} vs {:?}",
                i,
                a,
                b
            );
        }
    }
    Ok(())
}

/// Every property the smoothed path promises, checked against the grid and the search result.
fn check_smoothed(
    grid: &Grid,
    path: &[Cell],
    grid_cost: f64,
    settings: &SmoothSettings,
    smoothed: &SmoothedPath,
) -> Result<(), TestCaseError> {
    let (Some(&start), Some(&goal)) = (path.first(), path.last()) else {
        return Err(TestCaseError::fail("empty path"));
    };
    // Endpoints are exact.
    prop_assert_eq!(smoothed.waypoints.first(), Some(&Point::centre(start)));
    prop_assert_eq!(smoothed.waypoints.last(), Some(&Point::centre(goal)));
    if path.len() > 1 {
        prop_assert_eq!(
            smoothed.beziers.first().map(CubicBezier::start),
            Some(Point::centre(start))
        );
        prop_assert_eq!(
            smoothed.beziers.last().map(CubicBezier::end),
            Some(Point::centre(goal))
        );
    } else {
        prop_assert!(smoothed.beziers.is_empty());
    }
    // The step model of the smoother is the search's.
    prop_assert!((smoothed.grid_cost - grid_cost).abs() <= 1e-9 * grid_cost.max(1.0));
    // The line-of-sight path is clear and never costs more than the grid path.
    for pair in smoothed.waypoints.windows(2) {
        prop_assert!(Segment::new(pair[0], pair[1]).is_clear(grid), "{:?}", pair);
    }
    check_cost_and_joins(grid_cost, smoothed)?;
    for (i, curve) in smoothed.beziers.iter().enumerate() {
        // No sample in a wall; curved pieces keep the clearance.
        for p in curve.samples(TEST_SPACING) {
            prop_assert!(
                in_passable_cell(grid, p),
                "piece {} has {:?} in a wall",
                i,
                p
            );
            // Straight pieces too: the paths here step only between cells whose steps keep
            // half a cell from walls, more than any clearance tried.
            let d = wall_distance(grid, p, settings.clearance + 1.0);
            prop_assert!(
                d >= settings.clearance - 1e-9,
                "piece {} ({}): {:?} is {} from a wall",
                i,
                if curve.is_straight() {
                    "straight"
                } else {
                    "curved"
                },
                p,
                d
            );
        }
    }
    // The reports: the least radius is the curve's own, and between samples DEFAULT_SPACING
    // apart an arc of radius r turns at most DEFAULT_SPACING / r.
    let radius = smooth::radius_along(&smoothed.beziers);
    prop_assert_eq!(
        smoothed.min_turn_radius,
        radius.is_finite().then_some(radius)
    );
    let samples = smooth::sample_curve(&smoothed.beziers, smooth::DEFAULT_SPACING);
    let steepest = samples
        .windows(2)
        .map(|pair| smooth::angle_between(pair[0].heading, pair[1].heading))
        .fold(0.0, f64::max);
    prop_assert_eq!(smoothed.max_heading_change, steepest);
    if settings.min_turn_radius > 0.0
        && let Some(r) = smoothed.min_turn_radius.filter(|&r| r > 0.0)
    {
        prop_assert!(
            steepest <= smooth::DEFAULT_SPACING / r * 1.05 + 1e-9,
            "{} rad between samples on a least radius of {}",
            steepest,
            r
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn smoothed_paths_are_safe_and_no_dearer(
        grid in map_strategy(),
        ends in (any::<prop::sample::Index>(), any::<prop::sample::Index>()),
        settings in settings_strategy(),
        four_connected in any::<bool>(),
    ) {
        let open = passable_cells(&grid);
        prop_assume!(!open.is_empty());
        let (start, goal) = (ends.0.get(&open), ends.1.get(&open));
        let diagonal = if four_connected { Diagonal::Never } else { Diagonal::NoCut };
        let request = SearchRequest::new(*start, *goal)
            .with_algorithm(Algorithm::Dijkstra)
            .with_diagonal(diagonal);
        let result = search::solve(&grid, &request).expect("valid request");
        prop_assume!(result.found);
        let smoothed = smooth::smooth_path(&grid, &result.path, &settings).expect("a valid path");
        check_smoothed(&grid, &result.path, result.cost, &settings, &smoothed)?;
    }

    #[test]
    fn a_straight_corridor_gives_a_straight_line(
        terrain in prop::collection::vec(0u8..3, 2..30),
        vertical in any::<bool>(),
        settings in settings_strategy(),
    ) {
        // A corridor one cell wide between walls, of mixed passable terrain.
        let length = terrain.len() as u32;
        let (w, h) = if vertical { (3, length) } else { (length, 3) };
        let mut grid = Grid::new(w, h, Terrain::default_catalog(), 3).expect("valid size");
        let along = |i: u32| if vertical { Cell::new(1, i) } else { Cell::new(i, 1) };
        for (i, &t) in terrain.iter().enumerate() {
            grid.set(along(i as u32), t);
        }
        let path: Vec<Cell> = (0..length).map(along).collect();
        let grid_cost: f64 = smooth::step_costs(&grid, &path).iter().sum();
        let smoothed = smooth::smooth_path(&grid, &path, &settings).expect("a valid path");
        check_smoothed(&grid, &path, grid_cost, &settings, &smoothed)?;
        let ends = vec![Point::centre(path[0]), Point::centre(along(length - 1))];
        prop_assert_eq!(&smoothed.waypoints, &ends);
        for curve in &smoothed.beziers {
            for p in curve.points {
                if vertical {
                    prop_assert_eq!(p.x, 1.5);
                } else {
                    prop_assert_eq!(p.y, 1.5);
                }
            }
        }
    }

    #[test]
    fn an_open_map_gives_one_straight_segment(
        (w, h) in (2u32..30, 2u32..30),
        ends in (any::<prop::sample::Index>(), any::<prop::sample::Index>()),
        settings in settings_strategy(),
    ) {
        let grid = Grid::new(w, h, Terrain::default_catalog(), 0).expect("valid size");
        let cells = passable_cells(&grid);
        let (start, goal) = (*ends.0.get(&cells), *ends.1.get(&cells));
        prop_assume!(start != goal);
        let result = search::solve(&grid, &SearchRequest::new(start, goal)).expect("valid request");
        let smoothed = smooth::smooth_path(&grid, &result.path, &settings).expect("a valid path");
        check_smoothed(&grid, &result.path, result.cost, &settings, &smoothed)?;
        let (a, b) = (Point::centre(start), Point::centre(goal));
        prop_assert_eq!(&smoothed.waypoints, &vec![a, b]);
        prop_assert!((smoothed.cost - a.distance(b)).abs() < 1e-9);
        // Every control point lies on the line from start to goal.
        for curve in &smoothed.beziers {
            for p in curve.points {
                let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
                prop_assert!(cross.abs() < 1e-9, "{:?} is off the line", p);
            }
        }
    }
}

// Hex maps. The geometry below is written afresh from docs/hex.md, not taken from the core:
// hex centres from the layout's formula, the hex holding a point as the one with the nearest
// centre (the hexes are the cells of the centres' Voronoi diagram), and the distance to a hex
// by a regular hexagon's distance function.

/// √3.
const SQRT_3: f64 = 1.732_050_807_568_877_2;

/// A hex map: a random map of [`map_strategy`] read in one of the four layouts.
fn hex_map_strategy() -> impl Strategy<Value = Grid> {
    (map_strategy(), 0usize..4)
        .prop_map(|(grid, layout)| grid.with_topology(Topology::Hex(HexLayout::ALL[layout])))
}

fn layout_of(grid: &Grid) -> HexLayout {
    grid.topology().hex().expect("a hex map")
}

/// The centre of hex `(x, y)`: pointy-top `(x + ½ + ½·[row pushed], 1/√3 + y·√3/2)`, flat-top
/// the same with the axes swapped.
fn hex_centre(layout: HexLayout, x: i64, y: i64) -> Point {
    let pushed = |line: i64| {
        let odd = line.rem_euclid(2) == 1;
        if odd == (layout.index == StaggerIndex::Odd) {
            0.5
        } else {
            0.0
        }
    };
    let across = |line: i64| 1.0 / SQRT_3 + line as f64 * SQRT_3 / 2.0;
    match layout.axis {
        StaggerAxis::Y => Point::new(x as f64 + 0.5 + pushed(y), across(y)),
        StaggerAxis::X => Point::new(across(x), y as f64 + 0.5 + pushed(x)),
    }
}

/// The hexes of the map and the ring around it, with whether each is passable.
fn hexes_and_ring(grid: &Grid) -> Vec<((i64, i64), bool)> {
    let (w, h) = (i64::from(grid.width()), i64::from(grid.height()));
    (-1..=h)
        .flat_map(|y| (-1..=w).map(move |x| (x, y)))
        .map(|(x, y)| {
            let open = grid.contains(x, y) && grid.is_passable(Cell::new(x as u32, y as u32));
            ((x, y), open)
        })
        .collect()
}

/// The distance from `p` to a regular hexagon 1 across its flats centred at `c` (0 inside):
/// Inigo Quilez's hexagon distance function, for flat-top hexes, and for pointy-top ones with
/// the axes swapped.
fn hexagon_distance(pointy: bool, c: Point, p: Point) -> f64 {
    let (mut u, mut v) = ((p.x - c.x).abs(), (p.y - c.y).abs());
    if pointy {
        (u, v) = (v, u);
    }
    let (kx, ky, kz) = (-SQRT_3 / 2.0, 0.5, 1.0 / SQRT_3);
    let fold = 2.0 * (kx * u + ky * v).min(0.0);
    u -= fold * kx;
    v -= fold * ky;
    u -= u.clamp(-kz * 0.5, kz * 0.5);
    v -= 0.5;
    if v > 0.0 { u.hypot(v) } else { 0.0 }
}

/// Whether the hex with the nearest centre to `p` is on the map and passable.
fn in_passable_hex(layout: HexLayout, hexes: &[((i64, i64), bool)], p: Point) -> bool {
    hexes
        .iter()
        .min_by(|a, b| {
            let d = |h: &((i64, i64), bool)| hex_centre(layout, h.0.0, h.0.1).distance(p);
            d(a).total_cmp(&d(b))
        })
        .is_some_and(|h| h.1)
}

/// The distance from `p` to the nearest wall hex or hex off the map.
fn hex_wall_distance(layout: HexLayout, hexes: &[((i64, i64), bool)], p: Point) -> f64 {
    hexes
        .iter()
        .filter(|h| !h.1)
        .map(|h| hexagon_distance(layout.is_pointy_top(), hex_centre(layout, h.0.0, h.0.1), p))
        .fold(f64::INFINITY, f64::min)
}

/// Every property of [`check_smoothed`] on a hex map, with the hex geometry written afresh:
/// the ends on the centres, every sample of the curve and every point of the line-of-sight
/// segments in a passable hex, curved pieces keeping the clearance and straight ones (which
/// may lie on a single step between neighbours, passing the corners of the two hexes beside
/// both at 1/(2√3)) keeping the smaller of the clearance and that.
fn check_smoothed_on_hexes(
    grid: &Grid,
    path: &[Cell],
    grid_cost: f64,
    settings: &SmoothSettings,
    smoothed: &SmoothedPath,
) -> Result<(), TestCaseError> {
    let layout = layout_of(grid);
    let hexes = hexes_and_ring(grid);
    let (Some(&start), Some(&goal)) = (path.first(), path.last()) else {
        return Err(TestCaseError::fail("empty path"));
    };
    let centre = |cell: Cell| hex_centre(layout, i64::from(cell.x), i64::from(cell.y));
    let near = |a: Option<&Point>, b: Point| a.is_some_and(|a| a.distance(b) < 1e-12);
    prop_assert!(near(smoothed.waypoints.first(), centre(start)));
    prop_assert!(near(smoothed.waypoints.last(), centre(goal)));
    if path.len() > 1 {
        let first = smoothed.beziers.first().map(CubicBezier::start);
        let last = smoothed.beziers.last().map(CubicBezier::end);
        prop_assert!(near(first.as_ref(), centre(start)));
        prop_assert!(near(last.as_ref(), centre(goal)));
    } else {
        prop_assert!(smoothed.beziers.is_empty());
    }
    prop_assert!((smoothed.grid_cost - grid_cost).abs() <= 1e-9 * grid_cost.max(1.0));
    for pair in smoothed.waypoints.windows(2) {
        prop_assert!(Segment::new(pair[0], pair[1]).is_clear(grid), "{:?}", pair);
        let n = (pair[0].distance(pair[1]) / TEST_SPACING).ceil().max(1.0) as usize;
        for i in 0..=n {
            let p = pair[0].lerp(pair[1], i as f64 / n as f64);
            prop_assert!(in_passable_hex(layout, &hexes, p), "{:?} on {:?}", p, pair);
        }
    }
    check_cost_and_joins(grid_cost, smoothed)?;
    let step_clearance = 1.0 / (2.0 * SQRT_3);
    for (i, curve) in smoothed.beziers.iter().enumerate() {
        let keep = if curve.is_straight() {
            settings.clearance.min(step_clearance)
        } else {
            settings.clearance
        };
        for p in curve.samples(TEST_SPACING) {
            prop_assert!(
                in_passable_hex(layout, &hexes, p),
                "piece {} has {:?} in a wall",
                i,
                p
            );
            let d = hex_wall_distance(layout, &hexes, p);
            prop_assert!(
                d >= keep - 1e-9,
                "piece {} (straight: {}): {:?} is {} from a wall",
                i,
                curve.is_straight(),
                p,
                d
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

    #[test]
    fn smoothed_paths_on_hexes_are_safe_and_no_dearer(
        grid in hex_map_strategy(),
        ends in (any::<prop::sample::Index>(), any::<prop::sample::Index>()),
        settings in settings_strategy(),
    ) {
        let open = passable_cells(&grid);
        prop_assume!(!open.is_empty());
        let (start, goal) = (ends.0.get(&open), ends.1.get(&open));
        let request = SearchRequest::new(*start, *goal).with_algorithm(Algorithm::Dijkstra);
        let result = search::solve(&grid, &request).expect("valid request");
        prop_assume!(result.found);
        let smoothed = smooth::smooth_path(&grid, &result.path, &settings).expect("a valid path");
        check_smoothed_on_hexes(&grid, &result.path, result.cost, &settings, &smoothed)?;
    }

    #[test]
    fn a_straight_hex_corridor_gives_a_straight_line(
        terrain in prop::collection::vec(0u8..3, 2..30),
        layout in 0usize..4,
        settings in settings_strategy(),
    ) {
        // A corridor one hex wide along a row of pointy-top hexes (a column of flat-top
        // ones), between walls: its centres lie on one line.
        let layout = HexLayout::ALL[layout];
        let length = terrain.len() as u32;
        let pointy = layout.is_pointy_top();
        let (w, h) = if pointy { (length, 3) } else { (3, length) };
        let mut grid = Grid::new(w, h, Terrain::default_catalog(), 3)
            .expect("valid size")
            .with_topology(Topology::Hex(layout));
        let along = |i: u32| if pointy { Cell::new(i, 1) } else { Cell::new(1, i) };
        for (i, &t) in terrain.iter().enumerate() {
            grid.set(along(i as u32), t);
        }
        let path: Vec<Cell> = (0..length).map(along).collect();
        let grid_cost: f64 = smooth::step_costs(&grid, &path).iter().sum();
        let smoothed = smooth::smooth_path(&grid, &path, &settings).expect("a valid path");
        check_smoothed_on_hexes(&grid, &path, grid_cost, &settings, &smoothed)?;
        prop_assert_eq!(smoothed.waypoints.len(), 2);
        let line = hex_centre(layout, 1, 1);
        for curve in &smoothed.beziers {
            for p in curve.points {
                let off = if pointy { p.y - line.y } else { p.x - line.x };
                prop_assert!(off.abs() < 1e-12, "{:?} is off the corridor's line", p);
            }
        }
    }
}

#[test]
fn the_hex_centres_written_here_are_the_cores() {
    for layout in HexLayout::ALL {
        for y in 0..8u32 {
            for x in 0..8u32 {
                let core = Point::centre_on(Topology::Hex(layout), Cell::new(x, y));
                let here = hex_centre(layout, i64::from(x), i64::from(y));
                assert!(core.distance(here) < 1e-12, "{} ({x}, {y})", layout.name());
            }
        }
    }
}
