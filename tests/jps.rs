//! Jump point search against the Moving AI optima and against A*.

use std::path::{Path, PathBuf};

use gridpath::format::{load_map, movingai};
use gridpath::grid::{Cell, Grid};
use gridpath::search::{Algorithm, Diagonal, SearchError, SearchGraph, SearchRequest, Searcher};
use proptest::prelude::*;

mod common;
#[path = "common/scenario_sets.rs"]
mod scenario_sets;
use scenario_sets::scenario_sets;

/// The Moving AI benchmark data beside the project, or `None` with a note that the tests
/// reading it are skipped.
fn movingai_root() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/movingai");
    if root.is_dir() {
        return Some(root);
    }
    common::skip(&format!(
        "no Moving AI benchmark data at {}",
        root.display()
    ));
    None
}

#[test]
fn jps_matches_every_scenario_set_on_a_sample() {
    let Some(root) = movingai_root() else {
        return;
    };
    let sets = scenario_sets(&root);
    assert!(
        sets.len() >= 25,
        "expected 25 scenario sets, found {}",
        sets.len()
    );
    let mut searcher = Searcher::new();
    for (map_path, scen_path) in &sets {
        let map = load_map(map_path).expect("benchmark map loads");
        let text = std::fs::read_to_string(scen_path).expect("scenario file reads");
        let queries = movingai::parse_scen(&text).expect("scenario file parses");
        let graph = SearchGraph::new(&map.grid, Diagonal::NoCut);
        // Every 25th query: all buckets, short and long, in a test-sized run.
        for q in queries.iter().step_by(25) {
            let request = SearchRequest::new(q.start, q.goal).with_algorithm(Algorithm::Jps);
            let result = searcher.search(&graph, &request).expect("valid query");
            assert!(
                result.found,
                "{}: line {}: no path",
                scen_path.display(),
                q.line
            );
            assert!(
                q.matches(result.cost),
                "{}: line {}: cost {}, expected {}",
                scen_path.display(),
                q.line,
                result.cost,
                q.optimal
            );
            let (cost, _) = graph.path_cost(&result.path).expect("every step is legal");
            assert_eq!(cost, result.cost);
        }
    }
}

#[test]
fn jps_refuses_weighted_terrain_and_other_diagonal_rules() {
    let grid = Grid::from_ascii(&["..~.", "....", "...."]).expect("valid map");
    let request =
        SearchRequest::new(Cell::new(0, 0), Cell::new(3, 2)).with_algorithm(Algorithm::Jps);
    let error = gridpath::search::solve(&grid, &request).expect_err("weighted map refused");
    assert!(
        matches!(error, SearchError::NonUniformCost { .. }),
        "{error}"
    );
    assert!(error.to_string().contains("costs the same"), "{error}");

    let grid = Grid::from_ascii(&["....", "....", "...."]).expect("valid map");
    let request = request.with_diagonal(Diagonal::Always);
    let error = gridpath::search::solve(&grid, &request).expect_err("rule refused");
    assert!(
        matches!(error, SearchError::UnsupportedDiagonal { .. }),
        "{error}"
    );
}

#[test]
fn jps_records_its_jump_points_and_returns_a_full_path() {
    let grid = Grid::from_ascii(&[
        "..........",
        "....#.....",
        "....#.....",
        "....#.....",
        "..........",
    ])
    .expect("valid map");
    let request = SearchRequest::new(Cell::new(0, 2), Cell::new(9, 2))
        .with_algorithm(Algorithm::Jps)
        .recording(true);
    let result = gridpath::search::solve(&grid, &request).expect("valid request");
    let astar = gridpath::search::solve(&grid, &request.clone().with_algorithm(Algorithm::AStar))
        .expect("valid request");
    assert!((result.cost - astar.cost).abs() < 1e-9);
    for pair in result.path.windows(2) {
        let (dx, dy) = (pair[0].x.abs_diff(pair[1].x), pair[0].y.abs_diff(pair[1].y));
        assert!(
            dx <= 1 && dy <= 1 && dx + dy > 0,
            "{} → {} is not a step",
            pair[0],
            pair[1]
        );
    }
    let trace = result.trace.expect("recorded");
    assert!(!trace.expanded.is_empty());
    assert!(trace.expanded.len() < astar.trace.expect("recorded").expanded.len());
    assert_eq!(result.stats.expanded as usize, trace.expanded.len());
}

/// A random map of one passable terrain, with about `density` of its cells walls.
fn uniform_map() -> impl Strategy<Value = (Grid, Cell, Cell)> {
    (2u32..40, 2u32..40, 0.0f64..0.45).prop_flat_map(|(w, h, density)| {
        let cells = proptest::collection::vec(proptest::bool::weighted(density), (w * h) as usize);
        (cells, 0..w, 0..h, 0..w, 0..h).prop_map(move |(walls, sx, sy, gx, gy)| {
            let mut rows: Vec<String> = walls
                .chunks(w as usize)
                .map(|row| {
                    row.iter()
                        .map(|&wall| if wall { '#' } else { '.' })
                        .collect()
                })
                .collect();
            for (x, y) in [(sx, sy), (gx, gy)] {
                rows[y as usize].replace_range(x as usize..x as usize + 1, ".");
            }
            let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
            let grid = Grid::from_ascii(&refs).expect("valid map");
            (grid, Cell::new(sx, sy), Cell::new(gx, gy))
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn jps_costs_what_astar_costs((grid, start, goal) in uniform_map()) {
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        let mut searcher = Searcher::new();
        let request = SearchRequest::new(start, goal);
        let astar = searcher.search(&graph, &request).expect("valid request");
        let jps = searcher
            .search(&graph, &request.clone().with_algorithm(Algorithm::Jps))
            .expect("valid request");
        prop_assert_eq!(jps.found, astar.found);
        if astar.found {
            let tolerance = 1e-9 * astar.cost.max(1.0);
            prop_assert!((jps.cost - astar.cost).abs() <= tolerance, "jps {} vs astar {}", jps.cost, astar.cost);
            let checked = graph.path_cost(&jps.path);
            prop_assert!(checked.is_some(), "jps path has an illegal step");
            let (cost, _) = checked.expect("checked above");
            prop_assert!((cost - jps.cost).abs() <= tolerance);
            prop_assert_eq!(jps.path.first(), Some(&start));
            prop_assert_eq!(jps.path.last(), Some(&goal));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// JPS+ over its jump distances, and the subgoal graph, cost what A* does, with a full,
    /// legal path, also after edits (which update JPS+'s distances in place and drop the
    /// subgoal graph for a new one).
    #[test]
    fn preprocessed_searches_cost_what_astar_costs(
        (grid, start, goal) in uniform_map(),
        edits in proptest::collection::vec((0u32..40, 0u32..40, proptest::bool::ANY), 0..6),
    ) {
        let mut graph = SearchGraph::new(&grid, Diagonal::NoCut);
        let mut searcher = Searcher::new();
        let request = SearchRequest::new(start, goal);
        let wall = grid.terrains().iter().position(|t| t.cost.is_none()).expect("a wall") as u8;
        let floor = grid.terrains().iter().position(|t| t.cost.is_some()).expect("a floor") as u8;
        for round in 0..2 {
            let astar = searcher.search(&graph, &request).expect("valid request");
            for algorithm in [Algorithm::JpsPlus, Algorithm::Subgoal] {
                let result = searcher
                    .search(&graph, &request.clone().with_algorithm(algorithm))
                    .expect("valid request");
                prop_assert_eq!(result.found, astar.found, "{} round {}", algorithm, round);
                if !astar.found {
                    continue;
                }
                let tolerance = 1e-9 * astar.cost.max(1.0);
                prop_assert!(
                    (result.cost - astar.cost).abs() <= tolerance,
                    "{} round {}: {} vs astar {}", algorithm, round, result.cost, astar.cost
                );
                let checked = graph.path_cost(&result.path);
                prop_assert!(checked.is_some(), "{}: the path has an illegal step", algorithm);
                let (cost, _) = checked.expect("checked above");
                prop_assert!((cost - result.cost).abs() <= tolerance);
                prop_assert_eq!(result.path.first(), Some(&start));
                prop_assert_eq!(result.path.last(), Some(&goal));
            }
            // Walls and floors set around the map, never on the two ends.
            let changes: Vec<(Cell, u8)> = edits
                .iter()
                .map(|&(x, y, blocked)| (Cell::new(x % grid.width(), y % grid.height()), blocked))
                .filter(|&(cell, _)| cell != start && cell != goal)
                .map(|(cell, blocked)| (cell, if blocked { wall } else { floor }))
                .collect();
            graph.set_cells(&changes);
        }
    }
}

/// A larger map of rooms: walls every `room` cells with a door in each wall segment, and
/// scattered blocks; with four queries between random passable cells.
fn rooms_map() -> impl Strategy<Value = (Grid, Vec<(Cell, Cell)>)> {
    (20u32..72, 20u32..72, 3u32..12, 0.0f64..0.3, any::<u64>()).prop_map(
        |(w, h, room, density, seed)| {
            let mut state = seed | 1;
            let mut next = move || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            let mut walls = vec![false; (w * h) as usize];
            for y in 0..h {
                for x in 0..w {
                    let on_wall = x % room == room - 1 || y % room == room - 1;
                    let block = (next() % 1000) as f64 / 1000.0 < density * 0.4;
                    walls[(y * w + x) as usize] = on_wall || block;
                }
            }
            // A door of one or two cells in every wall segment.
            for y in 0..h {
                for x in 0..w {
                    let vertical = x % room == room - 1 && y % room == room / 2;
                    let horizontal = y % room == room - 1 && x % room == room / 2;
                    if vertical || horizontal {
                        walls[(y * w + x) as usize] = false;
                        if next() % 2 == 0 {
                            let (dx, dy) = if vertical { (0, 1) } else { (1, 0) };
                            if x + dx < w && y + dy < h {
                                walls[((y + dy) * w + x + dx) as usize] = false;
                            }
                        }
                    }
                }
            }
            let rows: Vec<String> = walls
                .chunks(w as usize)
                .map(|row| row.iter().map(|&b| if b { '#' } else { '.' }).collect())
                .collect();
            let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
            let grid = Grid::from_ascii(&refs).expect("valid map");
            let open: Vec<Cell> = (0..h)
                .flat_map(|y| (0..w).map(move |x| Cell::new(x, y)))
                .filter(|&c| grid.is_passable(c))
                .collect();
            let mut pick = || open[(next() % open.len().max(1) as u64) as usize];
            let pairs = if open.is_empty() {
                Vec::new()
            } else {
                (0..4).map(|_| (pick(), pick())).collect()
            };
            (grid, pairs)
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// The subgoal graph on maps of rooms, doors and blocks, large enough for both of its
    /// levels and for long edges: the cost A* finds, along a legal path.
    #[test]
    fn subgoal_graph_costs_what_astar_costs_among_rooms((grid, pairs) in rooms_map()) {
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        let mut searcher = Searcher::new();
        for (start, goal) in pairs {
            let request = SearchRequest::new(start, goal);
            let astar = searcher.search(&graph, &request).expect("valid request");
            let subgoal = searcher
                .search(&graph, &request.clone().with_algorithm(Algorithm::Subgoal))
                .expect("valid request");
            prop_assert_eq!(subgoal.found, astar.found, "{} → {}", start, goal);
            if astar.found {
                let tolerance = 1e-9 * astar.cost.max(1.0);
                prop_assert!(
                    (subgoal.cost - astar.cost).abs() <= tolerance,
                    "{} → {}: {} vs astar {}", start, goal, subgoal.cost, astar.cost
                );
                let (cost, _) = graph.path_cost(&subgoal.path).expect("legal steps");
                prop_assert!((cost - subgoal.cost).abs() <= tolerance);
            }
        }
    }
}

/// JPS+ and the subgoal graph on every 25th query of every set, against the optima.
#[test]
fn preprocessed_searches_match_every_scenario_set_on_a_sample() {
    let Some(root) = movingai_root() else {
        return;
    };
    let mut searcher = Searcher::new();
    for (map_path, scen_path) in &scenario_sets(&root) {
        let map = load_map(map_path).expect("benchmark map loads");
        let text = std::fs::read_to_string(scen_path).expect("scenario file reads");
        let queries = movingai::parse_scen(&text).expect("scenario file parses");
        let graph = SearchGraph::new(&map.grid, Diagonal::NoCut);
        for q in queries.iter().step_by(25) {
            for algorithm in [Algorithm::JpsPlus, Algorithm::Subgoal] {
                let request = SearchRequest::new(q.start, q.goal).with_algorithm(algorithm);
                let result = searcher.search(&graph, &request).expect("valid query");
                assert!(
                    result.found && q.matches(result.cost),
                    "{algorithm}: {}: line {}: cost {}, expected {}",
                    scen_path.display(),
                    q.line,
                    result.cost,
                    q.optimal
                );
                let (cost, _) = graph.path_cost(&result.path).expect("every step is legal");
                assert_eq!(cost, result.cost);
            }
        }
    }
}

/// A map far wider than the old limit of 8192 cells a side: every algorithm answers, the
/// optimal ones with the cost A* finds, so the tables that keep coordinates and distances in
/// 16 bits (JPS+, the subgoal graph) hold at the largest side.
#[test]
fn every_algorithm_answers_on_a_map_of_the_largest_side() {
    let side = Grid::MAX_SIDE;
    let mut text = format!("type octile\nheight 3\nwidth {side}\nmap\n");
    text.extend(std::iter::repeat_n('.', side as usize));
    text.push('\n');
    text.extend((0..side).map(|x| if x % 4000 == 2000 { '.' } else { '@' }));
    text.push('\n');
    text.extend(std::iter::repeat_n('.', side as usize));
    text.push('\n');
    let grid = movingai::parse_map(&text).expect("a map of the largest side loads");
    let graph = SearchGraph::new(&grid, Diagonal::NoCut);
    let mut searcher = Searcher::new();
    // Through the gap at x = 30000, among coordinates past 2¹⁴ (any-angle searches check a line
    // of sight per expansion, so the route is kept a few thousand cells long).
    let (start, goal) = (Cell::new(side - 3000, 0), Cell::new(side - 1, 2));
    let optimal = searcher
        .search(&graph, &SearchRequest::new(start, goal))
        .expect("A* answers")
        .cost;
    for info in gridpath::search::ALGORITHMS {
        // IDA* is meant for small maps: it re-walks the map for every threshold it tries.
        if info.algorithm == Algorithm::IdaStar {
            continue;
        }
        let request = SearchRequest::new(start, goal).with_algorithm(info.algorithm);
        let result = searcher
            .search(&graph, &request)
            .unwrap_or_else(|e| panic!("{}: {e}", info.name));
        assert!(result.found, "{}", info.name);
        if !result.path.is_empty() && info.guarantee != gridpath::search::Guarantee::AnyAngle {
            let (cost, _) = graph.path_cost(&result.path).expect("every step is legal");
            assert!((cost - result.cost).abs() <= 1e-6 * cost, "{}", info.name);
        }
        if matches!(
            info.guarantee,
            gridpath::search::Guarantee::Exact | gridpath::search::Guarantee::ExactIfAdmissible
        ) {
            assert!(
                (result.cost - optimal).abs() <= 1e-9 * optimal,
                "{}: {} against {optimal}",
                info.name,
                result.cost
            );
        }
    }
}
