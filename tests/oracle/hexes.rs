//! Hex maps against the oracle.

use super::*;

// Hex maps. The oracle's neighbours are Red Blob Games' offset tables, written out here for
// each of the four layouts rather than read from gridpath's masks: a plain Dijkstra over six
// explicit neighbours a hex.

/// Red Blob Games' offset neighbours: `[parity][i]` the `(dx, dy)` of the `i`-th neighbour of a
/// hex in an even (0) or odd (1) row, for pointy-top "odd-r" (odd rows shoved right).
const ODD_R: HexTable = [
    [(1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)],
    [(1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)],
];
/// "even-r": even rows shoved right.
const EVEN_R: HexTable = [
    [(1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1)],
    [(1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1)],
];
/// "odd-q": flat-top, odd columns shoved down; by the parity of the column.
const ODD_Q: HexTable = [
    [(1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (0, 1)],
    [(1, 1), (1, 0), (0, -1), (-1, 0), (-1, 1), (0, 1)],
];
/// "even-q": even columns shoved down.
const EVEN_Q: HexTable = [
    [(1, 1), (1, 0), (0, -1), (-1, 0), (-1, 1), (0, 1)],
    [(1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (0, 1)],
];

/// A neighbour table: `[parity][i]` the offset of the `i`-th neighbour.
type HexTable = [[(i32, i32); 6]; 2];

/// The four layouts with the oracle's neighbour table of each, in Tiled's terms.
fn hex_layouts() -> [(HexLayout, HexTable); 4] {
    [
        (HexLayout::new(StaggerAxis::Y, StaggerIndex::Odd), ODD_R),
        (HexLayout::new(StaggerAxis::Y, StaggerIndex::Even), EVEN_R),
        (HexLayout::new(StaggerAxis::X, StaggerIndex::Odd), ODD_Q),
        (HexLayout::new(StaggerAxis::X, StaggerIndex::Even), EVEN_Q),
    ]
}

/// The six neighbours of `(x, y)` by the oracle's tables (some off the map).
fn hex_neighbours(layout: HexLayout, table: &HexTable, x: i32, y: i32) -> [(i32, i32); 6] {
    let parity = if layout.axis == StaggerAxis::Y { y } else { x }.rem_euclid(2) as usize;
    table[parity].map(|(dx, dy)| (x + dx, y + dy))
}

/// The centre of an offset hex by Red Blob Games' formulas (size 1), for measuring turns.
fn hex_centre(layout: HexLayout, x: i32, y: i32) -> (f64, f64) {
    let sqrt3 = 3f64.sqrt();
    let odd = |v: i32| f64::from(v.rem_euclid(2));
    let shove = |v: i32| match layout.index {
        StaggerIndex::Odd => 0.5 * odd(v),
        StaggerIndex::Even => 0.5 * (1.0 - odd(v)),
    };
    match layout.axis {
        StaggerAxis::Y => (sqrt3 * (f64::from(x) + shove(y)), 1.5 * f64::from(y)),
        StaggerAxis::X => (1.5 * f64::from(x), sqrt3 * (f64::from(y) + shove(x))),
    }
}

/// The oracle's steps on a hex map: the six neighbours on the map and passable, each costing
/// the mean of the two cells' terrain costs (centre distance 1).
fn hex_successors<'a>(
    grid: &'a Grid,
    layout: HexLayout,
    table: &'a HexTable,
) -> impl Fn(&(i32, i32)) -> Vec<Step> + 'a {
    let cost = |x: i32, y: i32| -> Option<f64> {
        if x < 0 || y < 0 {
            return None;
        }
        grid.cost(Cell::new(x as u32, y as u32))
    };
    move |&(x, y): &(i32, i32)| {
        let here = cost(x, y).unwrap_or(f64::INFINITY);
        hex_neighbours(layout, table, x, y)
            .into_iter()
            .filter_map(|(nx, ny)| {
                let there = cost(nx, ny)?;
                Some(((nx, ny), OrderedFloat((here + there) / 2.0)))
            })
            .collect()
    }
}

/// The cheapest cost on a hex map by the oracle's Dijkstra.
fn hex_oracle_cost(
    grid: &Grid,
    layout: HexLayout,
    table: &HexTable,
    start: Cell,
    goal: Cell,
) -> Option<f64> {
    let goal = (goal.x as i32, goal.y as i32);
    pathfinding::directed::dijkstra::dijkstra(
        &(start.x as i32, start.y as i32),
        hex_successors(grid, layout, table),
        |&p| p == goal,
    )
    .map(|(_, c)| c.0)
}

/// A random weighted hex map in one of the four layouts (its index into [`hex_layouts`]).
fn arb_hex_map() -> impl Strategy<Value = (Grid, Cell, Cell, usize)> {
    (arb_map(), 0usize..4).prop_map(|((grid, start, goal, _), layout)| {
        let grid = grid.with_topology(Topology::Hex(hex_layouts()[layout].0));
        (grid, start, goal, layout)
    })
}

/// The path steps from hex to neighbouring hex (by the oracle's tables) over passable cells,
/// from the start to the goal, and its steps sum to the reported cost.
fn assert_valid_hex(
    grid: &Grid,
    layout: usize,
    result: &SearchResult,
) -> Result<(), TestCaseError> {
    let (layout, table) = hex_layouts()[layout];
    prop_assert_eq!(result.path.first(), Some(&result.start));
    prop_assert_eq!(result.path.last(), Some(&result.goal));
    let mut cost = 0.0;
    for pair in result.path.windows(2) {
        let (a, b) = (
            (pair[0].x as i32, pair[0].y as i32),
            (pair[1].x as i32, pair[1].y as i32),
        );
        prop_assert!(
            hex_neighbours(layout, &table, a.0, a.1).contains(&b),
            "{a:?} → {b:?}"
        );
        let (ca, cb) = (grid.cost(pair[0]), grid.cost(pair[1]));
        prop_assert!(ca.is_some() && cb.is_some());
        cost += (ca.unwrap() + cb.unwrap()) / 2.0;
    }
    prop_assert!(
        (cost - result.cost).abs() <= 1e-9 * cost.max(1.0),
        "steps {cost}, reported {}",
        result.cost
    );
    prop_assert!((result.length - (result.path.len() - 1) as f64).abs() < 1e-9);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Every algorithm of the registry on random weighted hex maps of all four layouts: each
    /// either refuses the hex map by name or keeps its promise against the hex oracle.
    #[test]
    fn every_algorithm_keeps_its_promise_on_hex_maps((grid, start, goal, layout) in arb_hex_map()) {
        let (hex, table) = hex_layouts()[layout];
        let expected = hex_oracle_cost(&grid, hex, &table, start, goal);
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        for info in ALGORITHMS {
            let request = SearchRequest::new(start, goal).with_algorithm(info.algorithm);
            let name = info.name;
            let result = match Searcher::new().search(&graph, &request) {
                Ok(result) => result,
                Err(SearchError::HexUnsupported { .. }) => {
                    prop_assert!(HEX_REFUSED.contains(&info.algorithm), "{name} refused a hex map");
                    continue;
                }
                Err(e) => return Err(TestCaseError::fail(format!("{name}: {e}"))),
            };
            prop_assert!(!HEX_REFUSED.contains(&info.algorithm), "{name} searched a hex map");
            if result.stats.budget_exhausted {
                continue;
            }
            prop_assert_eq!(result.found, expected.is_some(), "{}/{}", name, hex.name());
            let Some(cost) = expected else { continue };
            assert_valid_hex(&grid, layout, &result)?;
            match request.optimality() {
                Optimality::Exact => prop_assert!(
                    (result.cost - cost).abs() <= 1e-9 * cost.max(1.0),
                    "{name}/{}: {} vs oracle {cost}", hex.name(), result.cost
                ),
                _ => prop_assert!(result.cost >= cost - 1e-9 * cost.max(1.0), "{name} beat the optimum"),
            }
        }
        // The heuristics that fit a hex map, named, and weighted A* within its bound.
        for heuristic in [Heuristic::Hex, Heuristic::Zero] {
            for algorithm in [Algorithm::AStar, Algorithm::Bidirectional, Algorithm::IdaStar, Algorithm::DStarLite] {
                let request = SearchRequest::new(start, goal).with_algorithm(algorithm).with_heuristic(heuristic);
                let result = Searcher::new().search(&graph, &request).unwrap();
                if result.stats.budget_exhausted {
                    continue;
                }
                prop_assert_eq!(result.found, expected.is_some());
                if let Some(cost) = expected {
                    prop_assert!((result.cost - cost).abs() <= 1e-9 * cost.max(1.0), "{algorithm}/{heuristic}");
                }
            }
        }
        let weighted = Searcher::new()
            .search(&graph, &SearchRequest::new(start, goal).with_weight(2.0))
            .unwrap();
        if let Some(cost) = expected {
            prop_assert!(weighted.cost <= 2.0 * cost + 1e-9);
        }
        // The flow field's cost to every cell is the oracle's.
        let field = gridpath::search::FlowField::new(&graph, goal).unwrap();
        prop_assert_eq!(field.cost(start).is_some(), expected.is_some());
        if let (Some(got), Some(cost)) = (field.cost(start), expected) {
            prop_assert!((got - cost).abs() <= 1e-9 * cost.max(1.0), "flow field {got} vs {cost}");
        }
        // A square heuristic means nothing on hexes: refused by name.
        let square = SearchRequest::new(start, goal).with_heuristic(Heuristic::Octile);
        prop_assert!(
            matches!(Searcher::new().search(&graph, &square), Err(SearchError::HeuristicMismatch { .. })),
            "octile on a hex map"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// On hex maps of one cost the best-first searches take their faster loop (skipping the
    /// neighbours a parent covers): A*, Dijkstra, bidirectional A* and the contraction
    /// hierarchy still match the hex oracle, in every layout.
    #[test]
    fn hex_maps_of_one_cost_match_the_oracle((grid, start, goal, _) in arb_uniform_map(), layout in 0usize..4) {
        let (hex, table) = hex_layouts()[layout];
        let grid = grid.with_topology(Topology::Hex(hex));
        let expected = hex_oracle_cost(&grid, hex, &table, start, goal);
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        prop_assert!(graph.uniform_cost().is_some());
        for algorithm in [Algorithm::AStar, Algorithm::Dijkstra, Algorithm::Bidirectional, Algorithm::ContractionHierarchy] {
            let result = Searcher::new()
                .search(&graph, &SearchRequest::new(start, goal).with_algorithm(algorithm))
                .unwrap();
            prop_assert_eq!(result.found, expected.is_some(), "{}/{}", algorithm, hex.name());
            if let Some(cost) = expected {
                prop_assert!((result.cost - cost).abs() <= 1e-9 * cost.max(1.0),
                    "{algorithm}/{}: {} vs oracle {cost}", hex.name(), result.cost);
                assert_valid_hex(&grid, layout, &result)?;
            }
        }
    }
}

/// The algorithms whose geometry is the square grid's, which refuse hex maps.
const HEX_REFUSED: [Algorithm; 6] = [
    Algorithm::Jps,
    Algorithm::JpsPlus,
    Algorithm::Subgoal,
    Algorithm::Hpa,
    Algorithm::Theta,
    Algorithm::LazyTheta,
];

/// With terrain cheaper than 1 (a step may cost 0.2) the hex estimate, scaled by the cheapest
/// terrain, stays admissible: A* returns the oracle's cost, never a dearer path, on mazes of
/// cheap roads through dear ground.
#[test]
fn the_hex_estimate_stays_admissible_below_cost_one() {
    let mut catalog = Terrain::default_catalog();
    catalog.push(Terrain::passable("Rail", 'r', Rgb([0, 0, 0]), 0.2));
    let rail = (catalog.len() - 1) as u8;
    let (w, h) = (16u32, 12u32);
    for (hex, table) in hex_layouts() {
        for seed in 0..40u32 {
            // Rails on a pseudo-random set of cells, grass and swamp elsewhere.
            let cells: Vec<u8> = (0..w * h)
                .map(
                    |i| match (i.wrapping_mul(2_654_435_761).wrapping_add(seed * 97)) >> 7 & 3 {
                        0 | 1 => rail,
                        2 => 0,
                        _ => 2,
                    },
                )
                .collect();
            let grid = Grid::from_cells(w, h, catalog.clone(), cells)
                .unwrap()
                .with_topology(Topology::Hex(hex));
            let (start, goal) = (Cell::new(seed % w, 0), Cell::new(w - 1 - seed % 5, h - 1));
            let expected = hex_oracle_cost(&grid, hex, &table, start, goal).unwrap();
            for algorithm in [
                Algorithm::AStar,
                Algorithm::Bidirectional,
                Algorithm::DStarLite,
            ] {
                let request = SearchRequest::new(start, goal).with_algorithm(algorithm);
                let got = gridpath::search::solve(&grid, &request).unwrap();
                assert!(
                    (got.cost - expected).abs() <= 1e-9 * expected,
                    "{algorithm}/{}: {} against the oracle's {expected}",
                    hex.name(),
                    got.cost
                );
            }
        }
    }
}

/// The hex distance is the number of steps a breadth-first search over the oracle's
/// neighbours takes, for every pair of an open 20 × 20 map, in each layout.
#[test]
fn hex_distance_is_the_fewest_steps_on_an_open_map() {
    let n = 20i32;
    for (hex, table) in hex_layouts() {
        for sy in 0..n {
            for sx in 0..n {
                let mut steps = vec![u32::MAX; (n * n) as usize];
                steps[(sy * n + sx) as usize] = 0;
                let mut queue = std::collections::VecDeque::from([(sx, sy)]);
                while let Some((x, y)) = queue.pop_front() {
                    let next = steps[(y * n + x) as usize] + 1;
                    for (nx, ny) in hex_neighbours(hex, &table, x, y) {
                        if (0..n).contains(&nx)
                            && (0..n).contains(&ny)
                            && steps[(ny * n + nx) as usize] > next
                        {
                            steps[(ny * n + nx) as usize] = next;
                            queue.push_back((nx, ny));
                        }
                    }
                }
                let from = Cell::new(sx as u32, sy as u32);
                for (i, &bfs) in steps.iter().enumerate() {
                    let to = Cell::new(i as u32 % n as u32, i as u32 / n as u32);
                    assert_eq!(
                        hex.distance(from, to),
                        u64::from(bfs),
                        "{} {from} → {to}",
                        hex.name()
                    );
                }
            }
        }
    }
}

/// A hex line from a to b is the line from b to a reversed, for every pair of a 20 × 20 map,
/// and it steps from neighbour to neighbour (by the oracle's tables), hex distance + 1 hexes.
#[test]
fn hex_lines_are_the_same_both_ways() {
    let n = 20u32;
    let cells: Vec<Cell> = (0..n * n).map(|i| Cell::new(i % n, i / n)).collect();
    for (hex, table) in hex_layouts() {
        for &a in &cells {
            for &b in &cells {
                let line = hex.line(a, b);
                let mut back = hex.line(b, a);
                back.reverse();
                assert_eq!(line, back, "{} {a} → {b}", hex.name());
                assert_eq!(line.len() as u64, hex.distance(a, b) + 1);
                for pair in line.windows(2) {
                    let (x, y) = (pair[0].0 as i32, pair[0].1 as i32);
                    let next = (pair[1].0 as i32, pair[1].1 as i32);
                    assert!(hex_neighbours(hex, &table, x, y).contains(&next));
                }
            }
        }
    }
}

/// The cheapest cost with a turn penalty on a hex map, by a Dijkstra over (hex, the hex
/// before it): a turn costs `penalty` per 60° between the two steps, the angle measured
/// between the hexes' centres with `atan2`.
fn hex_oracle_cost_with_turns(
    grid: &Grid,
    layout: usize,
    start: Cell,
    goal: Cell,
    penalty: f64,
) -> Option<f64> {
    let (hex, table) = hex_layouts()[layout];
    let steps = hex_successors(grid, hex, &table);
    let angle = |(x, y): (i32, i32), (nx, ny): (i32, i32)| {
        let (a, b) = (hex_centre(hex, x, y), hex_centre(hex, nx, ny));
        (b.1 - a.1).atan2(b.0 - a.0)
    };
    let successors = |&(x, y, before): &(i32, i32, Option<(i32, i32)>)| {
        steps(&(x, y))
            .into_iter()
            .map(|((nx, ny), cost)| {
                let turn = before.map_or(0.0, |b| {
                    let mut a = (angle((x, y), (nx, ny)) - angle(b, (x, y))).abs();
                    if a > std::f64::consts::PI {
                        a = 2.0 * std::f64::consts::PI - a;
                    }
                    (a / std::f64::consts::FRAC_PI_3).round()
                });
                (
                    (nx, ny, Some((x, y))),
                    OrderedFloat(cost.0 + penalty * turn),
                )
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
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// With a turn penalty on a hex map (per 60° turned) A* and Dijkstra match the oracle, and
    /// the path's steps and turns add up to the cost reported.
    #[test]
    fn hex_turn_penalties_match_the_oracle(
        (grid, start, goal, layout) in arb_hex_map(),
        penalty in prop::sample::select(vec![0.25, 1.0, 3.0]),
    ) {
        let expected = hex_oracle_cost_with_turns(&grid, layout, start, goal, penalty);
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        for algorithm in [Algorithm::AStar, Algorithm::Dijkstra] {
            let request = SearchRequest::new(start, goal).with_algorithm(algorithm).with_turn_penalty(penalty);
            let result = gridpath::search::solve(&grid, &request).unwrap();
            prop_assert_eq!(result.found, expected.is_some(), "{}", algorithm);
            if let Some(cost) = expected {
                prop_assert!((result.cost - cost).abs() <= 1e-9 * cost.max(1.0), "{algorithm}: {} against {cost}", result.cost);
                let walked = gridpath::search::path_cost_with_turns(&graph, &result.path, penalty).unwrap();
                prop_assert!((walked - result.cost).abs() <= 1e-9 * cost.max(1.0), "{algorithm}: the path costs {walked}");
            }
        }
    }

    /// A partial plan on a hex map ends at the reachable hex nearest the goal by hex distance,
    /// and routes through waypoints cost the sum of their legs' oracle costs.
    #[test]
    fn partial_plans_and_routes_on_hex_maps((grid, start, goal, layout) in arb_hex_map(), via in (0u32..24, 0u32..24)) {
        let (hex, table) = hex_layouts()[layout];
        let request = SearchRequest::new(start, goal).with_partial(true);
        let result = gridpath::search::solve(&grid, &request).unwrap();
        let reached = result.reached.unwrap_or(goal);
        let nearest = (0..grid.height())
            .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
            .filter(|&c| hex_oracle_cost(&grid, hex, &table, start, c).is_some())
            .map(|c| hex.distance(c, goal))
            .min()
            .unwrap();
        prop_assert_eq!(hex.distance(reached, goal), nearest);
        let via = Cell::new(via.0 % grid.width(), via.1 % grid.height());
        if grid.is_passable(via) {
            let legs = hex_oracle_cost(&grid, hex, &table, start, via)
                .zip(hex_oracle_cost(&grid, hex, &table, via, goal))
                .map(|(a, b)| a + b);
            let graph = SearchGraph::new(&grid, Diagonal::NoCut);
            let route = gridpath::search::route(
                &graph,
                &SearchRequest::new(start, goal),
                &[via],
                gridpath::search::RouteOrder::AsGiven,
                false,
            );
            match (route, legs) {
                (Ok(route), Some(cost)) => prop_assert!((route.result.cost - cost).abs() <= 1e-9 * cost.max(1.0)),
                (Ok(route), None) => prop_assert!(!route.result.found),
                (Err(e), _) => return Err(TestCaseError::fail(format!("route: {e}"))),
            }
        }
    }
}
