//! Every search answer checked against an independent oracle: the `pathfinding` crate's
//! Dijkstra over the same neighbour rules and cost model, on random weighted maps.

#![allow(clippy::unwrap_used)] // Test helpers fail loudly on broken test data.

use gridpath::grid::{Cell, Grid, HexLayout, Rgb, StaggerAxis, StaggerIndex, Terrain, Topology};
use gridpath::search::{
    ALGORITHMS, Algorithm, Diagonal, Guarantee, Heuristic, Optimality, SearchError, SearchGraph,
    SearchRequest, SearchResult, Searcher,
};
use gridpath::smooth::Segment;
use ordered_float::OrderedFloat;
use proptest::prelude::*;

mod hexes;

const DX: [i32; 8] = [1, -1, 0, 0, 1, -1, 1, -1];
const DY: [i32; 8] = [0, 0, 1, -1, -1, -1, 1, 1];

/// A step of the oracle's graph: the cell reached and the step's cost.
type Step = ((i32, i32), OrderedFloat<f64>);

/// The oracle's own reading of the neighbour rules, written from the definitions rather than
/// from gridpath's masks: the steps from a cell and their costs.
fn oracle_successors(grid: &Grid, diagonal: Diagonal) -> impl Fn(&(i32, i32)) -> Vec<Step> + '_ {
    let cost = |x: i32, y: i32| -> Option<f64> {
        if x < 0 || y < 0 {
            return None;
        }
        grid.cost(Cell::new(x as u32, y as u32))
    };
    move |&(x, y): &(i32, i32)| {
        let here = cost(x, y).unwrap_or(f64::INFINITY);
        let mut out = Vec::new();
        for d in 0..8 {
            let (nx, ny) = (x + DX[d], y + DY[d]);
            let Some(there) = cost(nx, ny) else { continue };
            let length = if d < 4 {
                1.0
            } else {
                let (a, b) = (cost(nx, y).is_some(), cost(x, ny).is_some());
                let allowed = match diagonal {
                    Diagonal::Never => false,
                    Diagonal::Always => true,
                    Diagonal::OneFree => a || b,
                    Diagonal::NoCut => a && b,
                };
                if !allowed {
                    continue;
                }
                std::f64::consts::SQRT_2
            };
            out.push(((nx, ny), OrderedFloat(length * (here + there) / 2.0)));
        }
        out
    }
}

/// The cheapest cost from `start` to `goal`, by the oracle's Dijkstra.
fn oracle_cost(grid: &Grid, diagonal: Diagonal, start: Cell, goal: Cell) -> Option<f64> {
    let goal = (goal.x as i32, goal.y as i32);
    pathfinding::directed::dijkstra::dijkstra(
        &(start.x as i32, start.y as i32),
        oracle_successors(grid, diagonal),
        |&p| p == goal,
    )
    .map(|(_, c)| c.0)
}

fn catalog() -> Vec<Terrain> {
    let mut t = Terrain::default_catalog();
    t.push(Terrain::passable("Mud", 'm', Rgb([90, 60, 30]), 1.7));
    t
}

/// A random map: mostly grass and walls, with road, swamp and mud.
fn arb_map() -> impl Strategy<Value = (Grid, Cell, Cell, Diagonal)> {
    (2u32..24, 2u32..24, any::<u64>(), 0usize..4)
        .prop_flat_map(|(w, h, _, d)| {
            let cells = prop::collection::vec(
                prop::sample::select(vec![0u8, 0, 0, 1, 2, 3, 3, 4]),
                (w * h) as usize,
            );
            (Just(w), Just(h), cells, 0..w, 0..h, 0..w, 0..h, Just(d))
        })
        .prop_map(|(w, h, mut cells, sx, sy, gx, gy, d)| {
            let (start, goal) = (Cell::new(sx, sy), Cell::new(gx, gy));
            // The endpoints stand on passable ground.
            cells[(sy * w + sx) as usize] = 0;
            cells[(gy * w + gx) as usize] = 1;
            let grid = Grid::from_cells(w, h, catalog(), cells).expect("valid grid");
            (grid, start, goal, Diagonal::ALL[d])
        })
}

/// A random map of one cost (grass and walls, as the Moving AI maps), where the searches take
/// their faster loop. The endpoints are never in the bottom-right 2 × 2 corner, which is walled.
fn arb_uniform_map() -> impl Strategy<Value = (Grid, Cell, Cell, Diagonal)> {
    (3u32..28, 3u32..28, 0usize..4, 0u8..60)
        .prop_flat_map(|(w, h, d, walls)| {
            // Walls at 0% to 59%: open fields to mazes of dead ends.
            let cells = prop::collection::vec(
                (0u8..100).prop_map(move |r| if r < walls { WALL } else { GRASS }),
                (w * h) as usize,
            );
            let cell = move || {
                (0..w * h - 1)
                    .prop_filter("off the corner", move |&i| i % w < w - 2 || i / w < h - 2)
            };
            (Just(w), Just(h), cells, cell(), cell(), Just(d))
        })
        .prop_map(|(w, h, mut cells, start, goal, d)| {
            let (start, goal) = (
                Cell::new(start % w, start / w),
                Cell::new(goal % w, goal / w),
            );
            for (x, y) in [
                (w - 2, h - 2),
                (w - 1, h - 2),
                (w - 2, h - 1),
                (w - 1, h - 1),
            ] {
                cells[(y * w + x) as usize] = WALL;
            }
            cells[(start.y * w + start.x) as usize] = GRASS;
            cells[(goal.y * w + goal.x) as usize] = GRASS;
            let grid = Grid::from_cells(w, h, catalog(), cells).expect("valid grid");
            (grid, start, goal, Diagonal::ALL[d])
        })
}

/// How much dearer than the cheapest grid path an any-angle path may come out: rounding only.
/// Theta* and Lazy Theta* always weigh the grid step against the segment, and rank by a
/// straight-line estimate that is consistent for grid steps, so (as A*'s own argument goes) a
/// cell is expanded at no more than its cheapest grid cost.
const ANY_ANGLE_BOUND: f64 = 1.0 + 1e-9;

const GRASS: u8 = 0;
const SWAMP: u8 = 2;
const WALL: u8 = 3;

/// The path is adjacent, passable, obeys the diagonal rule, and its steps sum to its cost (an
/// any-angle path: its segments are clear or single allowed steps, and sum to its cost).
fn assert_valid(grid: &Grid, diagonal: Diagonal, result: &SearchResult) {
    let graph = SearchGraph::new(grid, diagonal);
    assert_eq!(result.path.first(), Some(&result.start));
    assert_eq!(result.path.last(), Some(&result.goal));
    let (steps, _) = graph
        .path_cost(&result.path)
        .expect("every step is allowed");
    let (cost, length) = match &result.waypoints {
        Some(waypoints) => polyline(grid, &graph, waypoints),
        None => graph
            .path_cost(&result.path)
            .expect("every step is allowed"),
    };
    assert!(steps.is_finite());
    assert!(
        (cost - result.cost).abs() <= 1e-9 * cost.max(1.0),
        "steps sum to {cost}, reported {}",
        result.cost
    );
    assert!((length - result.length).abs() <= 1e-9 * length.max(1.0));
}

/// The cost and length of an any-angle path through the centres of `waypoints`, computed afresh:
/// each segment is one allowed grid step or clear (every cell its closed line touches, corners
/// included, passable), and costs the length of its piece inside each cell times that cell's
/// cost.
fn polyline(grid: &Grid, graph: &SearchGraph, waypoints: &[Cell]) -> (f64, f64) {
    let (mut cost, mut length) = (0.0, 0.0);
    for pair in waypoints.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        assert_ne!(a, b, "a segment of no length");
        let step = SearchGraph::direction(a, b).is_some_and(|d| {
            graph.can_step(a.y as usize * grid.width() as usize + a.x as usize, d)
        });
        let (ax, ay) = (f64::from(a.x) + 0.5, f64::from(a.y) + 0.5);
        let (bx, by) = (f64::from(b.x) + 0.5, f64::from(b.y) + 0.5);
        let (dx, dy) = (bx - ax, by - ay);
        // Where the segment crosses the grid lines, as parameters from 0 to 1.
        let mut ts = vec![0.0, 1.0];
        for (from, delta) in [(ax, dx), (ay, dy)] {
            if delta != 0.0 {
                let (low, high) = (from.min(from + delta), from.max(from + delta));
                let mut k = low.ceil();
                while k <= high {
                    ts.push((k - from) / delta);
                    k += 1.0;
                }
            }
        }
        ts.sort_by(f64::total_cmp);
        let cell_cost = |x: f64, y: f64| {
            (x >= 0.0 && y >= 0.0)
                .then(|| grid.cost(Cell::new(x as u32, y as u32)))
                .flatten()
        };
        let segment_length = dx.hypot(dy);
        for pair in ts.windows(2) {
            // Every point where the segment crosses a line: the cells round it (up to four).
            let (x, y) = (ax + dx * pair[0], ay + dy * pair[0]);
            let near = |v: f64| {
                if (v - v.round()).abs() < 1e-9 {
                    vec![v.round() - 1.0, v.round()]
                } else {
                    vec![v.floor()]
                }
            };
            if !step {
                for cx in near(x) {
                    for cy in near(y) {
                        assert!(
                            cell_cost(cx, cy).is_some(),
                            "{a} → {b} touches a wall at ({cx}, {cy})"
                        );
                    }
                }
            }
            if pair[1] - pair[0] < 1e-12 {
                continue;
            }
            let t = (pair[0] + pair[1]) / 2.0;
            let (mx, my) = ((ax + dx * t).floor(), (ay + dy * t).floor());
            let here = cell_cost(mx, my).expect("a segment crosses only passable cells");
            cost += (pair[1] - pair[0]) * segment_length * here;
        }
        length += segment_length;
    }
    (cost, length)
}

fn run(grid: &Grid, request: SearchRequest) -> SearchResult {
    let graph = SearchGraph::new(grid, request.diagonal);
    Searcher::new()
        .search(&graph, &request)
        .expect("valid request")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn optimal_algorithms_match_the_oracle((grid, start, goal, diagonal) in arb_map()) {
        let expected = oracle_cost(&grid, diagonal, start, goal);
        let heuristics = [Heuristic::default_for(diagonal), Heuristic::Euclidean, Heuristic::Chebyshev, Heuristic::Zero];
        for algorithm in [Algorithm::AStar, Algorithm::Dijkstra, Algorithm::Bidirectional] {
            for heuristic in heuristics {
                let request = SearchRequest::new(start, goal)
                    .with_algorithm(algorithm)
                    .with_diagonal(diagonal)
                    .with_heuristic(heuristic);
                let result = run(&grid, request);
                match expected {
                    None => prop_assert!(!result.found, "{algorithm} found a path the oracle did not"),
                    Some(cost) => {
                        prop_assert!(result.found, "{algorithm} found no path; the oracle found {cost}");
                        prop_assert!((result.cost - cost).abs() <= 1e-9 * cost.max(1.0),
                            "{algorithm}/{heuristic}/{diagonal}: {} vs oracle {cost}", result.cost);
                        assert_valid(&grid, diagonal, &result);
                    }
                }
            }
        }
    }

    #[test]
    fn optimal_algorithms_match_the_oracle_on_maps_of_one_cost((grid, start, goal, diagonal) in arb_uniform_map()) {
        let expected = oracle_cost(&grid, diagonal, start, goal);
        for algorithm in [Algorithm::AStar, Algorithm::Dijkstra, Algorithm::Bidirectional] {
            for heuristic in [Heuristic::default_for(diagonal), Heuristic::Euclidean, Heuristic::Zero] {
                let request = SearchRequest::new(start, goal)
                    .with_algorithm(algorithm)
                    .with_diagonal(diagonal)
                    .with_heuristic(heuristic);
                let result = run(&grid, request);
                prop_assert_eq!(result.found, expected.is_some(), "{}/{}/{}", algorithm, heuristic, diagonal);
                if let Some(cost) = expected {
                    prop_assert!((result.cost - cost).abs() <= 1e-9 * cost.max(1.0),
                        "{algorithm}/{heuristic}/{diagonal}: {} vs oracle {cost}", result.cost);
                    assert_valid(&grid, diagonal, &result);
                }
            }
        }
        // The searches that prepare the map first: jump point search and its table, the
        // subgoal graph (both under no-cut only) and the contraction hierarchy.
        for algorithm in [
            Algorithm::Jps,
            Algorithm::JpsPlus,
            Algorithm::Subgoal,
            Algorithm::ContractionHierarchy,
        ] {
            let request = SearchRequest::new(start, goal)
                .with_algorithm(algorithm)
                .with_diagonal(diagonal);
            let result = match Searcher::new().search(&SearchGraph::new(&grid, diagonal), &request) {
                Ok(result) => result,
                Err(SearchError::UnsupportedDiagonal { .. }) if diagonal != Diagonal::NoCut => continue,
                Err(e) => return Err(TestCaseError::fail(format!("{algorithm}/{diagonal}: {e}"))),
            };
            prop_assert_eq!(result.found, expected.is_some(), "{}/{}", algorithm, diagonal);
            if let Some(cost) = expected {
                prop_assert!((result.cost - cost).abs() <= 1e-9 * cost.max(1.0),
                    "{algorithm}/{diagonal}: {} vs oracle {cost}", result.cost);
                assert_valid(&grid, diagonal, &result);
            }
        }
    }

    /// On a map of one cost the best-first searches skip the neighbours a cell's parent already
    /// reached more cheaply. That must save work and change nothing else: the same map with a
    /// walled-off swamp cell in its corner (no longer of one cost, so searched without skipping)
    /// expands the same cells in the same order and returns the same path.
    #[test]
    fn skipping_covered_neighbours_changes_nothing_but_the_work((grid, start, goal, diagonal) in arb_uniform_map(), w in 1.0f64..3.0) {
        let (width, height) = (grid.width(), grid.height());
        let cells: Vec<u8> = (0..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .map(|(x, y)| if (x, y) == (width - 1, height - 1) { SWAMP } else if grid.cost(Cell::new(x, y)).is_some() { GRASS } else { WALL })
            .collect();
        let twin = Grid::from_cells(width, height, catalog(), cells).unwrap();
        prop_assert!(SearchGraph::new(&grid, diagonal).uniform_cost().is_some());
        prop_assert!(SearchGraph::new(&twin, diagonal).uniform_cost().is_none());
        let runs = [(Algorithm::AStar, 1.0), (Algorithm::AStar, w), (Algorithm::Dijkstra, 1.0), (Algorithm::Greedy, 1.0)];
        let heuristics = [Heuristic::default_for(diagonal), Heuristic::Manhattan, Heuristic::Euclidean, Heuristic::Chebyshev];
        for ((algorithm, weight), heuristic) in runs.into_iter().flat_map(|run| heuristics.map(|h| (run, h))) {
            let request = SearchRequest::new(start, goal)
                .with_algorithm(algorithm)
                .with_diagonal(diagonal)
                .with_heuristic(heuristic)
                .with_weight(weight)
                .recording(true);
            let (fast, plain) = (run(&grid, request.clone()), run(&twin, request));
            prop_assert_eq!(&fast.path, &plain.path, "{}", algorithm);
            prop_assert_eq!(fast.cost.to_bits(), plain.cost.to_bits());
            prop_assert_eq!(fast.stats.expanded, plain.stats.expanded);
            let (fast, plain) = (fast.trace.unwrap(), plain.trace.unwrap());
            prop_assert_eq!(fast.expanded, plain.expanded, "{} {} weight {}", algorithm, heuristic, weight);
        }
    }

    #[test]
    fn weighted_astar_stays_within_its_bound((grid, start, goal, diagonal) in arb_map(), weight in 1.0f64..5.0) {
        let request = SearchRequest::new(start, goal).with_diagonal(diagonal).with_weight(weight);
        let result = run(&grid, request);
        if let Some(cost) = oracle_cost(&grid, diagonal, start, goal) {
            prop_assert!(result.found);
            prop_assert!(result.cost <= weight * cost * (1.0 + 1e-9), "{} > {weight} × {cost}", result.cost);
            assert_valid(&grid, diagonal, &result);
        } else {
            prop_assert!(!result.found);
        }
    }

    #[test]
    fn greedy_and_bfs_return_valid_paths((grid, start, goal, diagonal) in arb_map()) {
        let reachable = oracle_cost(&grid, diagonal, start, goal).is_some();
        for algorithm in [Algorithm::Greedy, Algorithm::Bfs] {
            let result = run(&grid, SearchRequest::new(start, goal).with_algorithm(algorithm).with_diagonal(diagonal));
            prop_assert_eq!(result.found, reachable);
            if reachable {
                assert_valid(&grid, diagonal, &result);
            }
        }
    }

    #[test]
    fn bfs_takes_the_fewest_steps((grid, start, goal, diagonal) in arb_map()) {
        // On a copy of the map where every passable terrain costs 1, Dijkstra's 4-connected
        // cost is the step count; with diagonals, count steps with the oracle's own BFS.
        let result = run(&grid, SearchRequest::new(start, goal).with_algorithm(Algorithm::Bfs).with_diagonal(diagonal));
        let graph = SearchGraph::new(&grid, diagonal);
        let steps = pathfinding::directed::bfs::bfs(
            &start,
            |&c: &Cell| (0..8).filter(|&d| graph.can_step(graph.index(c), d))
                .map(|d| Cell::new((c.x as i32 + DX[d]) as u32, (c.y as i32 + DY[d]) as u32))
                .collect::<Vec<_>>(),
            |&c| c == goal,
        ).map(|p| p.len());
        prop_assert_eq!(steps, result.found.then_some(result.path.len()));
    }
}

#[test]
fn recording_is_off_by_default_and_complete_when_on() {
    let grid = Grid::from_ascii(&["......", ".####.", "......"]).unwrap();
    let request = SearchRequest::new(Cell::new(0, 1), Cell::new(5, 1));
    assert!(run(&grid, request.clone()).trace.is_none());
    let result = run(&grid, request.recording(true));
    let trace = result.trace.expect("recorded");
    assert_eq!(trace.expanded.len() as u64, result.stats.expanded);
    assert_eq!(trace.expanded.first(), Some(&Cell::new(0, 1)));
    assert_eq!(trace.expanded.last(), Some(&Cell::new(5, 1)));
    assert!(trace.open.iter().all(|c| !trace.expanded.contains(c)));
}

#[test]
fn no_path_and_blocked_endpoints_say_so() {
    let grid = Grid::from_ascii(&["..#..", "..#..", "..#.."]).unwrap();
    let result = run(&grid, SearchRequest::new(Cell::new(0, 0), Cell::new(4, 2)));
    assert!(!result.found);
    assert!(result.path.is_empty());
    assert_eq!(result.message(), "Path not found between (0, 0) and (4, 2)");
    let graph = SearchGraph::new(&grid, Diagonal::NoCut);
    let blocked = Searcher::new().search(
        &graph,
        &SearchRequest::new(Cell::new(2, 0), Cell::new(4, 2)),
    );
    assert_eq!(
        blocked.unwrap_err().to_string(),
        "the start (2, 0) is on an impassable cell"
    );
    let outside = Searcher::new().search(
        &graph,
        &SearchRequest::new(Cell::new(0, 0), Cell::new(9, 2)),
    );
    assert!(
        outside
            .unwrap_err()
            .to_string()
            .contains("outside the 5 × 3 map")
    );
    let weight = Searcher::new().search(
        &graph,
        &SearchRequest::new(Cell::new(0, 0), Cell::new(1, 2)).with_weight(0.5),
    );
    assert!(weight.is_err());
}

#[test]
fn every_algorithm_refuses_a_weight_that_is_not_a_number_of_at_least_1() {
    let grid = Grid::from_ascii(&["....", "...."]).unwrap();
    let graph = SearchGraph::new(&grid, Diagonal::NoCut);
    for &algorithm in Algorithm::ALL {
        for weight in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.5] {
            let request = SearchRequest::new(Cell::new(0, 0), Cell::new(3, 1))
                .with_algorithm(algorithm)
                .with_weight(weight);
            let outcome = Searcher::new().search(&graph, &request);
            assert!(
                matches!(outcome, Err(SearchError::BadWeight(w)) if w.to_bits() == weight.to_bits()),
                "{algorithm} with weight {weight}: {outcome:?}"
            );
        }
    }
}

#[test]
fn heuristics_are_scaled_by_the_cheapest_terrain() {
    // A road corridor at cost 0.5: an unscaled octile heuristic would overestimate and make
    // A* miss the road.
    let grid = Grid::from_ascii(&["..........", "=========="]).unwrap();
    let (start, goal) = (Cell::new(0, 0), Cell::new(9, 0));
    let expected = oracle_cost(&grid, Diagonal::NoCut, start, goal).unwrap();
    let result = run(&grid, SearchRequest::new(start, goal));
    assert!(
        (result.cost - expected).abs() < 1e-9,
        "{} vs {expected}",
        result.cost
    );
    assert!(result.path.iter().any(|c| c.y == 1), "takes the road");
}

#[test]
fn bidirectional_does_not_stop_at_first_touch() {
    // The frontiers first meet over the swamp, but the cheaper way round is by road.
    let grid = Grid::from_ascii(&[
        "...........",
        ".#########.",
        ".~~~~~~~~~.",
        ".#########.",
        "===========",
    ])
    .unwrap();
    let (start, goal) = (Cell::new(0, 2), Cell::new(10, 2));
    let expected = oracle_cost(&grid, Diagonal::NoCut, start, goal).unwrap();
    let request = SearchRequest::new(start, goal).with_algorithm(Algorithm::Bidirectional);
    let result = run(&grid, request);
    assert!(
        (result.cost - expected).abs() < 1e-9,
        "{} vs {expected}",
        result.cost
    );
}

proptest! {
    // Every algorithm on each map, IDA* among them: fewer maps than the tests above.
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// Every algorithm of the registry, by what its entry promises: an exact one matches the
    /// oracle's cost, the others find a path exactly when the oracle does, and every path is
    /// legal. An algorithm added to the registry is checked here from its first day.
    #[test]
    fn every_registered_algorithm_keeps_its_promise((grid, start, goal, diagonal) in arb_map()) {
        let expected = oracle_cost(&grid, diagonal, start, goal);
        let graph = SearchGraph::new(&grid, diagonal);
        for info in ALGORITHMS {
            let request = SearchRequest::new(start, goal)
                .with_algorithm(info.algorithm)
                .with_diagonal(diagonal);
            let name = info.name;
            let result = match Searcher::new().search(&graph, &request) {
                Ok(result) => result,
                // What the entry says it refuses (jump point search off uniform maps or the no-cut rule).
                Err(SearchError::NonUniformCost { .. } | SearchError::UnsupportedDiagonal { .. })
                    if info.needs_uniform_cost => continue,
                Err(e) => return Err(TestCaseError::fail(format!("{name}: {e}"))),
            };
            if result.stats.budget_exhausted {
                continue;
            }
            prop_assert_eq!(result.found, expected.is_some(), "{}/{}", name, diagonal);
            let Some(cost) = expected else { continue };
            assert_valid(&grid, diagonal, &result);
            match (info.guarantee, request.optimality()) {
                (_, Optimality::Exact) => prop_assert!(
                    (result.cost - cost).abs() <= 1e-9 * cost.max(1.0),
                    "{name}/{diagonal}: {} vs oracle {cost}", result.cost
                ),
                (Guarantee::AnyAngle, Optimality::AnyAngle) => prop_assert!(
                    result.cost <= cost * ANY_ANGLE_BOUND,
                    "{name}/{diagonal}: {} vs the best grid path's {cost}", result.cost
                ),
                (Guarantee::Approximate | Guarantee::NoGuarantee | Guarantee::FewestSteps, _) => {
                    prop_assert!(result.cost >= cost - 1e-9 * cost.max(1.0), "{name} beat the optimum");
                }
                (guarantee, optimality) => {
                    return Err(TestCaseError::fail(format!("{name}: {guarantee:?} gave {optimality}")));
                }
            }
        }
    }
}

/// Checks an any-angle result against A* on the same request: found exactly when A* finds a
/// path; every segment clear or one allowed step; the cost the sum of the segments' integrals,
/// recomputed here; the cells a chain of allowed steps; and no dearer than A*'s grid path.
fn check_any_angle(grid: &Grid, request: &SearchRequest) -> Result<(), TestCaseError> {
    let graph = SearchGraph::new(grid, request.diagonal);
    let astar = Searcher::new()
        .search(&graph, &request.clone().with_algorithm(Algorithm::AStar))
        .unwrap();
    let result = Searcher::new().search(&graph, request).unwrap();
    let name = request.algorithm.name();
    prop_assert_eq!(result.found, astar.found, "{}/{}", name, request.diagonal);
    prop_assert_eq!(result.optimality, Optimality::AnyAngle);
    if !result.found {
        prop_assert!(result.waypoints.is_none() && result.path.is_empty());
        return Ok(());
    }
    let waypoints = result
        .waypoints
        .clone()
        .expect("an any-angle path has waypoints");
    prop_assert_eq!(waypoints.first(), Some(&request.start));
    prop_assert_eq!(waypoints.last(), Some(&request.goal));
    // The segments, the cost and the length, recomputed; the chain of cells.
    assert_valid(grid, request.diagonal, &result);
    // The same cost by the smoother's own integral.
    let integral: f64 = waypoints
        .windows(2)
        .map(|p| {
            Segment::between_centres(p[0], p[1])
                .cost(grid)
                .expect("a segment of the map")
        })
        .sum();
    prop_assert!((integral - result.cost).abs() <= 1e-9 * integral.max(1.0));
    prop_assert!(
        result.cost <= astar.cost * ANY_ANGLE_BOUND,
        "{}/{}: {} against A*'s {}",
        name,
        request.diagonal,
        result.cost,
        astar.cost
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn any_angle_paths_are_clear_and_no_dearer_than_the_grid_path(
        (grid, start, goal, diagonal) in arb_map(),
    ) {
        for algorithm in [Algorithm::Theta, Algorithm::LazyTheta] {
            let request = SearchRequest::new(start, goal).with_algorithm(algorithm).with_diagonal(diagonal);
            check_any_angle(&grid, &request)?;
        }
    }

    #[test]
    fn any_angle_paths_on_maps_of_one_cost((grid, start, goal, diagonal) in arb_uniform_map()) {
        for algorithm in [Algorithm::Theta, Algorithm::LazyTheta] {
            let request = SearchRequest::new(start, goal).with_algorithm(algorithm).with_diagonal(diagonal);
            check_any_angle(&grid, &request)?;
        }
    }
}

#[test]
fn any_angle_searches_refuse_a_turn_penalty_and_record_their_trace() {
    let grid = Grid::from_ascii(&["......", ".####.", "......"]).unwrap();
    let graph = SearchGraph::new(&grid, Diagonal::NoCut);
    for algorithm in [Algorithm::Theta, Algorithm::LazyTheta] {
        let request =
            SearchRequest::new(Cell::new(0, 1), Cell::new(5, 1)).with_algorithm(algorithm);
        let refused = Searcher::new().search(&graph, &request.clone().with_turn_penalty(1.0));
        assert_eq!(
            refused,
            Err(SearchError::TurnPenaltyUnsupported { algorithm })
        );
        let result = Searcher::new()
            .search(&graph, &request.recording(true))
            .unwrap();
        let trace = result.trace.expect("recorded");
        assert_eq!(trace.expanded.len() as u64, result.stats.expanded);
        assert_eq!(trace.expanded.last(), Some(&Cell::new(5, 1)));
        assert!(trace.g.iter().all(|g| g.is_finite()));
        // Each expanded cell's parent is a vertex of its path: in line of sight, not a neighbour.
        assert!(trace.h.iter().zip(&trace.expanded).all(|(&h, c)| {
            let (dx, dy) = (5.0 - f64::from(c.x), 1.0 - f64::from(c.y));
            (f64::from(h) - dx.hypot(dy)).abs() < 1e-5
        }));
    }
}

/// Every cell reachable from `start` and its cheapest cost, by the oracle's own Dijkstra.
fn oracle_costs_from(grid: &Grid, diagonal: Diagonal, start: Cell) -> Vec<(Cell, f64)> {
    let origin = (start.x as i32, start.y as i32);
    let mut all: Vec<(Cell, f64)> =
        pathfinding::directed::dijkstra::dijkstra_all(&origin, oracle_successors(grid, diagonal))
            .into_iter()
            .map(|((x, y), (_, c))| (Cell::new(x as u32, y as u32), c.0))
            .collect();
    all.push((start, 0.0));
    all
}

/// The distance the nearest-reachable rule ranks by: octile with diagonal moves, manhattan
/// without (the default heuristics), written here from their definitions.
fn rank_distance(diagonal: Diagonal, a: Cell, b: Cell) -> f64 {
    let dx = f64::from(a.x.abs_diff(b.x));
    let dy = f64::from(a.y.abs_diff(b.y));
    if diagonal == Diagonal::Never {
        dx + dy
    } else {
        dx.max(dy) + (std::f64::consts::SQRT_2 - 1.0) * dx.min(dy)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// With a partial request, a reachable goal gives the optimal path to it, and an
    /// unreachable one (walled off, or a wall itself) the optimal path to the reachable cell
    /// nearest it: no reachable cell is nearer, and none as near is cheaper.
    #[test]
    fn partial_paths_end_at_the_reachable_cell_nearest_the_goal(
        (grid, start, goal, diagonal) in arb_map(),
        wall_the_goal in any::<bool>(),
    ) {
        let mut grid = grid;
        if wall_the_goal && goal != start {
            grid.set(goal, WALL).unwrap();
        }
        let reachable = oracle_costs_from(&grid, diagonal, start);
        let to_goal = reachable.iter().find(|(c, _)| *c == goal).map(|&(_, c)| c);
        let nearest = reachable
            .iter()
            .map(|&(c, _)| rank_distance(diagonal, c, goal))
            .fold(f64::INFINITY, f64::min);
        let cheapest_nearest = reachable
            .iter()
            .filter(|&&(c, _)| rank_distance(diagonal, c, goal) <= nearest + 1e-12)
            .map(|&(_, cost)| cost)
            .fold(f64::INFINITY, f64::min);
        for algorithm in [Algorithm::AStar, Algorithm::Dijkstra, Algorithm::Bidirectional, Algorithm::DStarLite] {
            let request = SearchRequest::new(start, goal)
                .with_algorithm(algorithm)
                .with_diagonal(diagonal)
                .with_partial(true);
            let result = gridpath::search::solve(&grid, &request).unwrap();
            match to_goal {
                Some(cost) => {
                    prop_assert!(result.found && result.reached.is_none(), "{algorithm}");
                    prop_assert!((result.cost - cost).abs() <= 1e-9 * cost.max(1.0), "{algorithm}");
                }
                None => {
                    prop_assert!(!result.found, "{algorithm}");
                    let reached = result.reached.expect("a partial path");
                    prop_assert_eq!(result.path.first(), Some(&start));
                    prop_assert_eq!(result.path.last(), Some(&reached));
                    prop_assert!((rank_distance(diagonal, reached, goal) - nearest).abs() <= 1e-12, "{algorithm}: {reached} is not the nearest");
                    prop_assert!((result.cost - cheapest_nearest).abs() <= 1e-9 * cheapest_nearest.max(1.0), "{algorithm}: {} against {cheapest_nearest}", result.cost);
                }
            }
        }
    }
}

/// The cheapest cost under a turn penalty, by an independent Dijkstra over (cell, the last
/// step): a turn costs `penalty` per 45° of the angle between two steps, measured here with
/// `atan2`.
fn oracle_cost_with_turns(
    grid: &Grid,
    diagonal: Diagonal,
    start: Cell,
    goal: Cell,
    penalty: f64,
) -> Option<f64> {
    let steps = oracle_successors(grid, diagonal);
    let angle = |(dx, dy): (i32, i32)| f64::from(dy).atan2(f64::from(dx));
    let successors = |&(x, y, last): &(i32, i32, Option<(i32, i32)>)| {
        steps(&(x, y))
            .into_iter()
            .map(move |((nx, ny), cost)| {
                let step = (nx - x, ny - y);
                let turn = last.map_or(0.0, |l| {
                    let mut a = (angle(step) - angle(l)).abs();
                    if a > std::f64::consts::PI {
                        a = 2.0 * std::f64::consts::PI - a;
                    }
                    (a / std::f64::consts::FRAC_PI_4).round()
                });
                ((nx, ny, Some(step)), OrderedFloat(cost.0 + penalty * turn))
            })
            .collect::<Vec<_>>()
    };
    let goal = (goal.x as i32, goal.y as i32);
    pathfinding::directed::dijkstra::dijkstra(
        &(start.x as i32, start.y as i32, None),
        successors,
        |&(x, y, _)| (x, y) == goal,
    )
    .map(|(_, c)| c.0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// With a turn penalty, A* and Dijkstra find the cheapest path of steps plus turns, and the
    /// cost they report is what the path's steps and turns add up to.
    #[test]
    fn turn_penalties_match_the_oracle(
        (grid, start, goal, diagonal) in arb_map(),
        penalty in prop::sample::select(vec![0.25, 1.0, 3.0]),
    ) {
        let expected = oracle_cost_with_turns(&grid, diagonal, start, goal, penalty);
        let graph = SearchGraph::new(&grid, diagonal);
        for algorithm in [Algorithm::AStar, Algorithm::Dijkstra] {
            let request = SearchRequest::new(start, goal)
                .with_algorithm(algorithm)
                .with_diagonal(diagonal)
                .with_turn_penalty(penalty);
            let result = gridpath::search::solve(&grid, &request).unwrap();
            match expected {
                None => prop_assert!(!result.found, "{algorithm}"),
                Some(cost) => {
                    prop_assert!(result.found, "{algorithm}");
                    prop_assert!((result.cost - cost).abs() <= 1e-9 * cost.max(1.0), "{algorithm}: {} against {cost}", result.cost);
                    let walked = gridpath::search::path_cost_with_turns(&graph, &result.path, penalty).unwrap();
                    prop_assert!((walked - result.cost).abs() <= 1e-9 * cost.max(1.0), "{algorithm}: the path costs {walked}");
                }
            }
        }
    }
}

/// Every ordering of `items`.
fn permutations(items: &[Cell]) -> Vec<Vec<Cell>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut tail in permutations(&rest) {
            tail.insert(0, first);
            out.push(tail);
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// A route's legs are optimal, it passes its points in order, and the cheapest order is as
    /// cheap as the best of every ordering by the oracle's costs; a patrol comes back.
    #[test]
    fn routes_through_waypoints_match_the_oracle(
        (grid, start, goal, diagonal) in arb_map(),
        picks in prop::collection::vec(any::<prop::sample::Index>(), 0..4),
        patrol in any::<bool>(),
    ) {
        let passable: Vec<Cell> = (0..grid.len())
            .map(|i| grid.cell_at(i))
            .filter(|&c| grid.is_passable(c))
            .collect();
        let via: Vec<Cell> = picks.iter().map(|p| *p.get(&passable)).collect();
        let graph = SearchGraph::new(&grid, diagonal);
        let request = SearchRequest::new(start, goal).with_diagonal(diagonal);
        let end = if patrol { start } else { goal };
        let leg = |a: Cell, b: Cell| oracle_cost(&grid, diagonal, a, b);
        let total = |middle: &[Cell]| -> Option<f64> {
            let mut points = vec![start];
            points.extend_from_slice(middle);
            points.push(end);
            points.windows(2).map(|w| leg(w[0], w[1])).sum()
        };
        let mut given = via.clone();
        if patrol {
            given.push(goal);
        }
        let route = gridpath::search::route(&graph, &request, &via, gridpath::search::RouteOrder::AsGiven, patrol).unwrap();
        prop_assert_eq!(route.order.first(), Some(&start));
        prop_assert_eq!(route.order.last(), Some(&end));
        match total(&given) {
            None => prop_assert!(!route.result.found),
            Some(cost) => {
                prop_assert!(route.result.found);
                prop_assert!((route.result.cost - cost).abs() <= 1e-9 * cost.max(1.0));
                prop_assert_eq!(route.result.path.first(), Some(&start));
                prop_assert_eq!(route.result.path.last(), Some(&end));
                // The joined path is one walk: every step allowed, and it sums to the cost.
                let (walked, _) = graph.path_cost(&route.result.path).expect("every step is allowed");
                prop_assert!((walked - cost).abs() <= 1e-9 * cost.max(1.0));
            }
        }
        let best = permutations(&given)
            .iter()
            .filter_map(|order| total(order))
            .fold(f64::INFINITY, f64::min);
        let cheapest = gridpath::search::route(&graph, &request, &via, gridpath::search::RouteOrder::Cheapest, patrol).unwrap();
        if best.is_finite() {
            prop_assert!(cheapest.result.found);
            prop_assert!((cheapest.result.cost - best).abs() <= 1e-9 * best.max(1.0), "{} against {best}", cheapest.result.cost);
        } else {
            prop_assert!(!cheapest.result.found);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A unit of N × N cells: every cell of its path leaves the whole footprint on passable
    /// ground, and the cost is optimal against the oracle on a unit map built here by brute
    /// force (the footprint's costliest terrain where it fits, a wall elsewhere).
    #[test]
    fn units_larger_than_a_cell_match_the_oracle(
        (grid, start, goal, diagonal) in arb_map(),
        size in 2u32..4,
    ) {
        let (w, h) = (grid.width(), grid.height());
        let footprint = |c: Cell| -> Option<Vec<Cell>> {
            if c.x + size > w || c.y + size > h {
                return None;
            }
            Some((0..size * size).map(|k| Cell::new(c.x + k % size, c.y + k / size)).collect())
        };
        let mut cells = Vec::new();
        for i in 0..grid.len() {
            let anchor = grid.cell_at(i);
            let id = footprint(anchor)
                .filter(|cells| cells.iter().all(|&c| grid.is_passable(c)))
                .map_or(WALL, |cells| {
                    cells
                        .iter()
                        .map(|&c| grid.get(c).unwrap())
                        .max_by(|&a, &b| grid.terrain(a).cost.unwrap().total_cmp(&grid.terrain(b).cost.unwrap()))
                        .unwrap()
                });
            cells.push(id);
        }
        let brute = Grid::from_cells(w, h, catalog(), cells).unwrap();
        let unit = gridpath::search::grid_for_unit(&grid, size).unwrap();
        prop_assert_eq!(unit.cells(), brute.cells(), "the unit map");
        // Endpoints where the unit fits: the generated ones, else the first and last such cells.
        let fits: Vec<Cell> = (0..brute.len())
            .map(|i| brute.cell_at(i))
            .filter(|&c| brute.is_passable(c))
            .collect();
        let (Some(&first), Some(&last)) = (fits.first(), fits.last()) else {
            prop_assert!(unit.cells().iter().all(|&id| !unit.terrain(id).is_passable()));
            return Ok(());
        };
        let start = if brute.is_passable(start) { start } else { first };
        let goal = if brute.is_passable(goal) { goal } else { last };
        let request = SearchRequest::new(start, goal).with_diagonal(diagonal);
        let result = gridpath::search::solve(&unit, &request).unwrap();
        match oracle_cost(&brute, diagonal, start, goal) {
            None => prop_assert!(!result.found),
            Some(cost) => {
                prop_assert!(result.found);
                prop_assert!((result.cost - cost).abs() <= 1e-9 * cost.max(1.0));
                for &anchor in &result.path {
                    let cells = footprint(anchor).expect("the footprint is on the map");
                    prop_assert!(cells.iter().all(|&c| grid.is_passable(c)), "{anchor}");
                }
            }
        }
    }
}

/// The oracle's steps on a map with heights, written from the definitions: the flat step of
/// [`oracle_successors`], plus `uphill × rise` or `downhill × drop`, and no step that changes
/// height by more than the maximum climb, up or down.
fn oracle_successors_with_heights(
    grid: &Grid,
    diagonal: Diagonal,
) -> impl Fn(&(i32, i32)) -> Vec<Step> + '_ {
    let flat = oracle_successors(grid, diagonal);
    let slope = grid.slope();
    move |&(x, y): &(i32, i32)| {
        let here = grid.height_at(Cell::new(x as u32, y as u32));
        flat(&(x, y))
            .into_iter()
            .filter_map(|((nx, ny), cost)| {
                let rise = grid.height_at(Cell::new(nx as u32, ny as u32)) - here;
                if slope.max_climb.is_some_and(|limit| rise.abs() > limit) {
                    return None;
                }
                let extra = if rise > 0.0 {
                    slope.uphill * rise
                } else {
                    slope.downhill * -rise
                };
                Some(((nx, ny), OrderedFloat(cost.0 + extra)))
            })
            .collect()
    }
}

/// Every cell's cheapest cost *to* `goal` on a map with heights, by a Dijkstra over the
/// reversed steps (built here by asking every cell for its steps).
fn oracle_costs_to_with_heights(grid: &Grid, diagonal: Diagonal, goal: Cell) -> Vec<f64> {
    let steps = oracle_successors_with_heights(grid, diagonal);
    let mut into: Vec<Vec<(usize, f64)>> = vec![Vec::new(); grid.len()];
    for i in 0..grid.len() {
        let c = grid.cell_at(i);
        if !grid.is_passable(c) {
            continue;
        }
        for ((nx, ny), cost) in steps(&(c.x as i32, c.y as i32)) {
            into[grid.index(Cell::new(nx as u32, ny as u32))].push((i, cost.0));
        }
    }
    let target = grid.index(goal);
    pathfinding::directed::dijkstra::dijkstra_all(&target, |&i| {
        into[i]
            .iter()
            .map(|&(j, c)| (j, OrderedFloat(c)))
            .collect::<Vec<_>>()
    })
    .into_iter()
    .fold(
        {
            let mut costs = vec![f64::INFINITY; grid.len()];
            costs[target] = 0.0;
            costs
        },
        |mut costs, (i, (_, c))| {
            costs[i] = c.0;
            costs
        },
    )
}

/// A random map with heights: [`arb_map`]'s terrain, heights of 0 to 4 steps of a random
/// size, and random slope rules (sometimes with a maximum climb that makes cliffs).
fn arb_map_with_heights() -> impl Strategy<Value = (Grid, Cell, Cell, Diagonal)> {
    arb_map().prop_flat_map(|(grid, start, goal, diagonal)| {
        let len = grid.len();
        (
            Just(grid),
            Just(start),
            Just(goal),
            Just(diagonal),
            prop::collection::vec(0u8..5, len),
            prop::sample::select(vec![0.25f32, 0.5, 1.0, 1.5]),
            (0.0f64..3.0, 0.0f64..2.0, prop::option::of(0.5f64..3.0)),
        )
            .prop_map(
                |(mut grid, start, goal, diagonal, levels, step, (up, down, climb))| {
                    let heights = levels.into_iter().map(|l| f32::from(l) * step).collect();
                    grid.set_heights(Some(heights)).unwrap();
                    grid.set_slope(gridpath::grid::Slope {
                        uphill: up,
                        downhill: down,
                        max_climb: climb,
                    })
                    .unwrap();
                    (grid, start, goal, diagonal)
                },
            )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// On maps with heights every registered algorithm keeps its promise against the oracle
    /// (the exact ones match it, whichever end they search from), or refuses the map as its
    /// entry says; the flow field gives every cell its cost to the goal; and A*'s heuristic,
    /// read from its trace, never overestimates the remaining cost.
    #[test]
    fn heights_and_slopes_match_the_oracle((grid, start, goal, diagonal) in arb_map_with_heights()) {
        let to_goal = oracle_costs_to_with_heights(&grid, diagonal, goal);
        let expected = Some(to_goal[grid.index(start)]).filter(|c| c.is_finite());
        let forward = pathfinding::directed::dijkstra::dijkstra(
            &(start.x as i32, start.y as i32),
            oracle_successors_with_heights(&grid, diagonal),
            |&p| p == (goal.x as i32, goal.y as i32),
        )
        .map(|(_, c)| c.0);
        prop_assert_eq!(expected.is_some(), forward.is_some());
        if let (Some(a), Some(b)) = (expected, forward) {
            prop_assert!((a - b).abs() <= 1e-9 * a.max(1.0), "the two oracles differ: {} {}", a, b);
        }
        let graph = SearchGraph::new(&grid, diagonal);
        for info in ALGORITHMS {
            let request = SearchRequest::new(start, goal)
                .with_algorithm(info.algorithm)
                .with_diagonal(diagonal)
                .recording(info.algorithm == Algorithm::AStar);
            let name = info.name;
            let result = match Searcher::new().search(&graph, &request) {
                Ok(result) => result,
                Err(SearchError::HeightsUnsupported { .. } | SearchError::UnsupportedDiagonal { .. })
                    if matches!(
                        info.algorithm,
                        Algorithm::Jps
                            | Algorithm::JpsPlus
                            | Algorithm::Subgoal
                            | Algorithm::Hpa
                            | Algorithm::Theta
                            | Algorithm::LazyTheta
                            | Algorithm::ContractionHierarchy
                    ) => continue,
                Err(e) => return Err(TestCaseError::fail(format!("{name}: {e}"))),
            };
            if result.stats.budget_exhausted {
                continue;
            }
            prop_assert_eq!(result.found, expected.is_some(), "{}/{}", name, diagonal);
            let Some(cost) = expected else { continue };
            // Each step of the path is one of the oracle's, and they sum to the cost.
            let steps = oracle_successors_with_heights(&grid, diagonal);
            let mut sum = 0.0;
            for pair in result.path.windows(2) {
                let (a, b) = ((pair[0].x as i32, pair[0].y as i32), (pair[1].x as i32, pair[1].y as i32));
                let step = steps(&a).into_iter().find(|(n, _)| *n == b);
                prop_assert!(step.is_some(), "{}: {} → {} is not a step", name, pair[0], pair[1]);
                sum += step.map_or(0.0, |(_, c)| c.0);
            }
            prop_assert!((sum - result.cost).abs() <= 1e-9 * sum.max(1.0), "{}: steps {} vs {}", name, sum, result.cost);
            if request.optimality() == Optimality::Exact {
                prop_assert!((result.cost - cost).abs() <= 1e-9 * cost.max(1.0), "{}/{}: {} vs oracle {}", name, diagonal, result.cost, cost);
            } else {
                prop_assert!(result.cost >= cost - 1e-9 * cost.max(1.0), "{} beat the optimum", name);
            }
            if let Some(trace) = &result.trace {
                for (cell, h) in trace.expanded.iter().zip(&trace.h) {
                    let remaining = to_goal[grid.index(*cell)];
                    prop_assert!(f64::from(*h) <= remaining + 1e-4 * remaining.max(1.0), "h({}) = {} > {}", cell, h, remaining);
                }
            }
        }
        let field = gridpath::search::FlowField::new(&graph, goal).unwrap();
        for (i, &cost) in to_goal.iter().enumerate() {
            let got = field.cost(grid.cell_at(i)).unwrap_or(f64::INFINITY);
            prop_assert!(got == cost || (got - cost).abs() <= 1e-9 * cost.max(1.0), "field at {}: {} vs {}", grid.cell_at(i), got, cost);
        }
    }

    /// Height edits reach the replanner's kept state: D* Lite, repaired after raising and
    /// lowering cells, plans what a fresh search of the edited map finds.
    #[test]
    fn replanning_after_height_edits_matches_a_fresh_search(
        (grid, start, goal, diagonal) in arb_map_with_heights(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..5), 1..12),
    ) {
        let mut replanner = gridpath::search::Replanner::new(grid.clone(), diagonal);
        let request = SearchRequest::new(start, goal)
            .with_algorithm(Algorithm::DStarLite)
            .with_diagonal(diagonal);
        let control = gridpath::search::SearchControl::new();
        replanner.plan(&request, &control).unwrap();
        let mut edited = grid;
        let changes: Vec<(Cell, f32)> = edits
            .into_iter()
            .map(|(i, level)| (edited.cell_at(i.index(edited.len())), f32::from(level) * 0.75))
            .collect();
        for &(cell, h) in &changes {
            edited.set_height(cell, h).unwrap();
        }
        replanner.apply_heights(&changes);
        prop_assert_eq!(replanner.grid(), &edited);
        let again = replanner.plan(&request, &control).unwrap();
        let fresh = oracle_costs_to_with_heights(&edited, diagonal, goal)[edited.index(start)];
        prop_assert_eq!(again.found, fresh.is_finite());
        if again.found {
            prop_assert!((again.cost - fresh).abs() <= 1e-9 * fresh.max(1.0), "{} vs {}", again.cost, fresh);
        }
    }
}

#[test]
fn an_any_angle_route_joins_its_legs_waypoints() {
    let grid = Grid::from_ascii(&["........", "...##...", "...##...", "........"]).unwrap();
    let graph = SearchGraph::new(&grid, Diagonal::NoCut);
    let request =
        SearchRequest::new(Cell::new(0, 0), Cell::new(7, 3)).with_algorithm(Algorithm::Theta);
    let via = [Cell::new(7, 0), Cell::new(0, 3)];
    let route = gridpath::search::route(
        &graph,
        &request,
        &via,
        gridpath::search::RouteOrder::AsGiven,
        false,
    )
    .unwrap();
    let waypoints = route.result.waypoints.clone().expect("any-angle legs");
    let legs: usize = route
        .legs
        .iter()
        .map(|leg| leg.waypoints.as_ref().map_or(0, Vec::len) - 1)
        .sum();
    assert_eq!(
        waypoints.len(),
        legs + 1,
        "one shared vertex where two legs meet"
    );
    for point in [request.start, via[0], via[1], request.goal] {
        assert!(waypoints.contains(&point));
    }
    assert_valid(&grid, Diagonal::NoCut, &route.result);
}
