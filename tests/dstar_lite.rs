//! D* Lite replanning checked against a fresh A* on the edited map, edit after edit.

#![allow(clippy::unwrap_used)] // Test helpers fail loudly on broken test data.

use gridpath::grid::{Cell, Grid, Rgb, Terrain, TerrainId};
use gridpath::search::{
    Algorithm, DStarLite, Diagonal, Optimality, SearchError, SearchGraph, SearchRequest,
    SearchResult, solve,
};
use proptest::prelude::*;

/// Grass, road, swamp, wall, then mud (1.7) and ice (0.3, cheaper than anything at the start,
/// so painting it lowers the map's cheapest cost).
fn catalog() -> Vec<Terrain> {
    let mut t = Terrain::default_catalog();
    t.push(Terrain::passable("Mud", 'm', Rgb([90, 60, 30]), 1.7));
    t.push(Terrain::passable("Ice", 'i', Rgb([200, 220, 255]), 0.3));
    t
}

const WALL: TerrainId = 3;

/// The fresh answer: A* on the grid as it is now.
fn fresh(
    grid: &Grid,
    diagonal: Diagonal,
    start: Cell,
    goal: Cell,
) -> Result<SearchResult, SearchError> {
    solve(
        grid,
        &SearchRequest::new(start, goal).with_diagonal(diagonal),
    )
}

/// Checks a plan against a fresh A*: same outcome, same cost, a legal path.
fn check_plan(
    grid: &Grid,
    diagonal: Diagonal,
    start: Cell,
    goal: Cell,
    planned: &Result<SearchResult, SearchError>,
) -> Result<(), TestCaseError> {
    let expected = fresh(grid, diagonal, start, goal);
    match (&expected, planned) {
        (Err(a), Err(b)) => prop_assert_eq!(a, b),
        (Ok(a), Ok(b)) => {
            prop_assert_eq!(
                a.found,
                b.found,
                "found differs: astar {}, dstar {}",
                a.found,
                b.found
            );
            if a.found {
                let tolerance = 1e-9 * a.cost.max(1.0);
                prop_assert!(
                    (a.cost - b.cost).abs() <= tolerance,
                    "cost {} vs astar {}",
                    b.cost,
                    a.cost
                );
                let graph = SearchGraph::new(grid, diagonal);
                let (cost, length) = graph.path_cost(&b.path).expect("every step is legal");
                prop_assert!((cost - b.cost).abs() <= tolerance);
                prop_assert!((length - b.length).abs() <= 1e-9 * length.max(1.0));
                prop_assert_eq!(b.path.first(), Some(&start));
                prop_assert_eq!(b.path.last(), Some(&goal));
                prop_assert_eq!(b.optimality, Optimality::Exact);
            } else {
                prop_assert!(b.path.is_empty());
            }
        }
        _ => prop_assert!(false, "astar {expected:?} vs dstar {planned:?}"),
    }
    Ok(())
}

/// One edit: a stroke of cells set to terrains, and maybe a new start.
#[derive(Clone, Debug)]
struct Edit {
    cells: Vec<(u32, u32, TerrainId)>,
    move_start: Option<(u32, u32)>,
    via_grid: bool,
}

fn arb_case() -> impl Strategy<Value = (Grid, Cell, Cell, Diagonal, Vec<Edit>)> {
    (2u32..20, 2u32..20, 0usize..4)
        .prop_flat_map(|(w, h, d)| {
            let cells = prop::collection::vec(
                prop::sample::select(vec![0u8, 0, 0, 1, 2, 3, 3, 4]),
                (w * h) as usize,
            );
            let terrain = prop::sample::select(vec![0u8, 0, 1, 2, 3, 3, 3, 4, 5]);
            let edit = (
                prop::collection::vec((0..w, 0..h, terrain), 1..6),
                prop::option::weighted(0.3, (0..w, 0..h)),
                any::<bool>(),
            )
                .prop_map(|(cells, move_start, via_grid)| Edit {
                    cells,
                    move_start,
                    via_grid,
                });
            (
                Just(w),
                Just(h),
                cells,
                0..w,
                0..h,
                0..w,
                0..h,
                Just(d),
                prop::collection::vec(edit, 1..12),
            )
        })
        .prop_map(|(w, h, mut cells, sx, sy, gx, gy, d, edits)| {
            cells[(sy * w + sx) as usize] = 0;
            cells[(gy * w + gx) as usize] = 1;
            let grid = Grid::from_cells(w, h, catalog(), cells).unwrap();
            (
                grid,
                Cell::new(sx, sy),
                Cell::new(gx, gy),
                Diagonal::ALL[d],
                edits,
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_replan_costs_what_a_fresh_astar_costs(
        (mut grid, mut start, goal, diagonal, edits) in arb_case()
    ) {
        let mut planner = DStarLite::new(&grid, diagonal, goal).unwrap();
        check_plan(&grid, diagonal, start, goal, &planner.plan(start))?;
        for edit in edits {
            let mut changed = Vec::new();
            for &(x, y, t) in &edit.cells {
                let cell = Cell::new(x, y);
                grid.set(cell, t);
                changed.push((cell, t));
            }
            if edit.via_grid {
                let cells: Vec<Cell> = changed.iter().map(|&(c, _)| c).collect();
                planner.cells_changed(&grid, &cells);
            } else {
                planner.update_cells(&changed);
            }
            if let Some((x, y)) = edit.move_start {
                start = Cell::new(x, y);
            }
            check_plan(&grid, diagonal, start, goal, &planner.plan(start))?;
        }
    }

    #[test]
    fn a_one_off_dstar_lite_search_is_optimal((grid, start, goal, diagonal, _edits) in arb_case()) {
        let request = SearchRequest::new(start, goal)
            .with_diagonal(diagonal)
            .with_algorithm(Algorithm::DStarLite);
        check_plan(&grid, diagonal, start, goal, &solve(&grid, &request))?;
    }
}

/// A deterministic xorshift generator for the larger scripted test.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u32) -> u32 {
        (self.next() % u64::from(n)) as u32
    }
}

#[test]
fn long_edit_sequences_on_a_larger_map_stay_optimal() {
    for (seed, diagonal) in [
        (7u64, Diagonal::NoCut),
        (11, Diagonal::Always),
        (13, Diagonal::OneFree),
        (17, Diagonal::Never),
    ] {
        let mut rng = XorShift(seed);
        let (w, h) = (64u32, 48u32);
        let cells: Vec<TerrainId> = (0..w * h)
            .map(|_| match rng.below(10) {
                0..=1 => WALL,
                2 => 2,
                3 => 1,
                _ => 0,
            })
            .collect();
        let mut grid = Grid::from_cells(w, h, catalog(), cells).unwrap();
        let goal = Cell::new(w - 2, h - 2);
        let mut start = Cell::new(1, 1);
        grid.set(goal, 0);
        grid.set(start, 0);
        let mut planner = DStarLite::new(&grid, diagonal, goal).unwrap();
        for round in 0..60 {
            // A stroke: a short line of one terrain.
            let terrain = [0u8, 1, 2, WALL, WALL, 4][rng.below(6) as usize];
            let (mut x, mut y) = (rng.below(w), rng.below(h));
            let mut stroke = Vec::new();
            for _ in 0..1 + rng.below(12) {
                let cell = Cell::new(x, y);
                if cell != goal && cell != start {
                    grid.set(cell, terrain);
                    stroke.push(cell);
                }
                x = (x + rng.below(3)).saturating_sub(1).min(w - 1);
                y = (y + rng.below(3)).saturating_sub(1).min(h - 1);
            }
            planner.cells_changed(&grid, &stroke);
            if round % 7 == 0 {
                let candidate = Cell::new(rng.below(w), rng.below(h));
                if grid.is_passable(candidate) {
                    start = candidate;
                }
            }
            let planned = planner.plan(start);
            let expected = fresh(&grid, diagonal, start, goal).unwrap();
            let planned = planned.unwrap();
            assert_eq!(planned.found, expected.found, "{diagonal} round {round}");
            assert!(
                (planned.cost - expected.cost).abs() <= 1e-9 * expected.cost.max(1.0),
                "{diagonal} round {round}: {} vs {}",
                planned.cost,
                expected.cost
            );
        }
    }
}

#[test]
fn a_walled_in_goal_is_unreachable_then_reachable_again() {
    let mut grid = Grid::from_ascii(&[".....", ".....", "....."]).unwrap();
    let goal = Cell::new(4, 1);
    let start = Cell::new(0, 1);
    let mut planner = DStarLite::new(&grid, Diagonal::NoCut, goal).unwrap();
    assert!(planner.plan(start).unwrap().found);
    let ring = [Cell::new(3, 0), Cell::new(3, 1), Cell::new(3, 2)];
    for &c in &ring {
        grid.set(c, WALL);
    }
    planner.cells_changed(&grid, &ring);
    let blocked = planner.plan(start).unwrap();
    assert!(!blocked.found);
    assert!(blocked.path.is_empty());
    grid.set(ring[1], 1);
    planner.cells_changed(&grid, &ring[1..2]);
    let open = planner.plan(start).unwrap();
    assert!(open.found);
    assert_eq!(open.path[3], Cell::new(3, 1));
}

#[test]
fn endpoints_on_walls_or_off_the_map_are_errors() {
    let mut grid = Grid::from_ascii(&["....", "...."]).unwrap();
    assert!(matches!(
        DStarLite::new(&grid, Diagonal::NoCut, Cell::new(9, 0)),
        Err(SearchError::OutOfBounds { .. })
    ));
    let mut planner = DStarLite::new(&grid, Diagonal::NoCut, Cell::new(3, 1)).unwrap();
    assert!(matches!(
        planner.plan(Cell::new(0, 5)),
        Err(SearchError::OutOfBounds { which: "start", .. })
    ));
    grid.set(Cell::new(3, 1), WALL);
    planner.cells_changed(&grid, &[Cell::new(3, 1)]);
    assert!(matches!(
        planner.plan(Cell::new(0, 0)),
        Err(SearchError::Blocked { which: "goal", .. })
    ));
}

#[test]
fn a_terrain_cost_change_rebuilds_the_planner() {
    let mut grid = Grid::from_ascii(&["......", "~~~~~~", "......"]).unwrap();
    let (start, goal) = (Cell::new(0, 0), Cell::new(5, 2));
    let mut planner = DStarLite::new(&grid, Diagonal::NoCut, goal).unwrap();
    let before = planner.plan(start).unwrap();
    let mut swamp = grid.terrain(2).clone();
    swamp.cost = Some(0.1);
    grid.set_terrain(2, swamp).unwrap();
    planner.cells_changed(&grid, &[]);
    let after = planner.plan(start).unwrap();
    let expected = fresh(&grid, Diagonal::NoCut, start, goal).unwrap();
    assert!(after.cost < before.cost);
    assert!((after.cost - expected.cost).abs() < 1e-9);
}

#[test]
fn replanning_after_a_far_edit_expands_few_cells() {
    let mut grid = Grid::new(200, 200, Terrain::default_catalog(), 0).unwrap();
    let (start, goal) = (Cell::new(0, 100), Cell::new(199, 100));
    let mut planner = DStarLite::new(&grid, Diagonal::NoCut, goal).unwrap();
    let first = planner.plan(start).unwrap();
    // A wall far from the straight path.
    let far = [Cell::new(100, 5), Cell::new(101, 5), Cell::new(102, 5)];
    for &c in &far {
        grid.set(c, WALL);
    }
    planner.cells_changed(&grid, &far);
    let second = planner.plan(start).unwrap();
    assert_eq!(first.cost, second.cost);
    assert!(
        second.stats.expanded * 20 < first.stats.expanded,
        "repair expanded {} cells, the first plan {}",
        second.stats.expanded,
        first.stats.expanded
    );
}

#[test]
fn a_first_plan_across_open_ground_expands_about_its_path() {
    // Ten rows of drift over 300 columns: every cell of a 10 × 290 parallelogram lies on a
    // cheapest path. The plan must head for the start rather than sweep them, then still
    // repair exactly after an edit.
    let mut grid = Grid::new(300, 300, Terrain::default_catalog(), 0).unwrap();
    let (start, goal) = (Cell::new(0, 150), Cell::new(299, 140));
    let mut planner = DStarLite::new(&grid, Diagonal::NoCut, goal).unwrap();
    let first = planner.plan(start).unwrap();
    let astar = fresh(&grid, Diagonal::NoCut, start, goal).unwrap();
    assert!((first.cost - astar.cost).abs() <= 1e-9 * astar.cost);
    assert!(
        first.stats.expanded <= 2 * first.path.len() as u64,
        "{} cells expanded for a path of {}",
        first.stats.expanded,
        first.path.len()
    );
    let wall: Vec<Cell> = (100..200).map(|y| Cell::new(150, y)).collect();
    for &c in &wall {
        grid.set(c, WALL);
    }
    planner.cells_changed(&grid, &wall);
    check_plan(&grid, Diagonal::NoCut, start, goal, &planner.plan(start)).unwrap();
}

#[test]
fn a_first_plan_over_a_wide_plateau_expands_each_cell_once() {
    // 299 columns of drift over 511 rows: every cell of a 299 × 212 parallelogram lies on a
    // cheapest path, and their costs, summed in different orders, differ in the last bits. A
    // cell expanded already must not be lowered by such a difference and expanded again (its
    // neighbours then lowered in turn, in waves through the expanded area).
    let grid = Grid::new(512, 512, Terrain::default_catalog(), 0).unwrap();
    let (start, goal) = (Cell::new(85, 0), Cell::new(384, 511));
    let request = SearchRequest::new(start, goal)
        .with_algorithm(Algorithm::DStarLite)
        .recording(true);
    let plan = solve(&grid, &request).unwrap();
    let astar = fresh(&grid, Diagonal::NoCut, start, goal).unwrap();
    assert!((plan.cost - astar.cost).abs() <= 1e-9 * astar.cost);
    let trace = plan.trace.unwrap();
    let mut seen = std::collections::HashSet::new();
    let again = trace
        .expanded
        .iter()
        .filter(|&&cell| !seen.insert(cell))
        .count();
    assert_eq!(
        again,
        0,
        "{again} of {} expansions were of cells expanded before",
        trace.expanded.len()
    );
}

#[test]
fn a_cancelled_plan_loses_nothing() {
    let rows = vec![".".repeat(120); 120];
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let grid = Grid::from_ascii(&rows).unwrap();
    let (start, goal) = (Cell::new(0, 0), Cell::new(119, 119));
    // With no heuristic the plan expands most of the map: many checkpoints.
    let mut planner = DStarLite::with_heuristic(
        &grid,
        Diagonal::NoCut,
        goal,
        gridpath::search::Heuristic::Zero,
    )
    .unwrap();
    let control = gridpath::search::SearchControl::new();
    control.cancel();
    assert!(matches!(
        planner.plan_controlled(start, &control),
        Err(SearchError::Cancelled)
    ));
    // The next plan goes on from where the cancelled one stopped, to the right answer.
    let resumed = planner.plan(start).unwrap();
    let fresh = DStarLite::new(&grid, Diagonal::NoCut, goal)
        .unwrap()
        .plan(start)
        .unwrap();
    assert!(resumed.found);
    assert!((resumed.cost - fresh.cost).abs() < 1e-9);
}
