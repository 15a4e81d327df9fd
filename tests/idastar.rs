//! IDA* against A* on small maps, and its node budget.

use gridpath::grid::{Cell, Grid};
use gridpath::search::{
    Algorithm, Diagonal, IDASTAR_NODE_BUDGET, Optimality, SearchGraph, SearchRequest, Searcher,
};
use proptest::prelude::*;

/// A small random map of walls and weighted terrains with two free endpoints.
fn small_map() -> impl Strategy<Value = (Grid, Cell, Cell)> {
    (2u32..9, 2u32..9).prop_flat_map(|(w, h)| {
        let symbols = proptest::sample::select(vec!['.', '.', '#', '~', '=']);
        let cells = proptest::collection::vec(symbols, (w * h) as usize);
        (cells, 0..w, 0..h, 0..w, 0..h).prop_map(move |(symbols, sx, sy, gx, gy)| {
            let mut rows: Vec<String> = symbols
                .chunks(w as usize)
                .map(|row| row.iter().collect())
                .collect();
            for (x, y) in [(sx as usize, sy as usize), (gx as usize, gy as usize)] {
                rows[y].replace_range(x..x + 1, ".");
            }
            let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
            let grid = Grid::from_ascii(&refs).expect("valid map");
            (grid, Cell::new(sx, sy), Cell::new(gx, gy))
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn idastar_costs_what_astar_costs(
        (grid, start, goal) in small_map(),
        diagonal in proptest::sample::select(Diagonal::ALL.to_vec()),
    ) {
        let graph = SearchGraph::new(&grid, diagonal);
        let mut searcher = Searcher::new();
        let request = SearchRequest::new(start, goal).with_diagonal(diagonal);
        let astar = searcher.search(&graph, &request).expect("valid request");
        let ida = searcher
            .search(&graph, &request.clone().with_algorithm(Algorithm::IdaStar))
            .expect("valid request");
        prop_assert_eq!(ida.optimality, Optimality::Exact);
        if ida.stats.budget_exhausted {
            // Weighted terrain gives many distinct f-values, and IDA* deepens once per value:
            // even a small map can use up the budget. It must then say so, not claim a path.
            prop_assert!(!ida.found);
            prop_assert!(ida.message().contains("node budget exhausted"));
            prop_assert_eq!(ida.stats.expanded, IDASTAR_NODE_BUDGET);
            return Ok(());
        }
        prop_assert_eq!(ida.found, astar.found);
        if astar.found {
            prop_assert!((ida.cost - astar.cost).abs() <= 1e-9 * astar.cost.max(1.0), "idastar {} vs astar {}", ida.cost, astar.cost);
            let checked = graph.path_cost(&ida.path);
            prop_assert!(checked.is_some(), "illegal step");
        }
    }
}

#[test]
fn idastar_re_expands_where_astar_does_not() {
    let grid = Grid::from_ascii(&["......", "......", "......", "......"]).expect("valid map");
    let request = SearchRequest::new(Cell::new(0, 0), Cell::new(5, 3));
    let astar = gridpath::search::solve(&grid, &request).expect("valid request");
    let ida = gridpath::search::solve(&grid, &request.clone().with_algorithm(Algorithm::IdaStar))
        .expect("valid request");
    assert!(ida.found);
    assert!((ida.cost - astar.cost).abs() < 1e-9);
    assert!(ida.stats.expanded >= astar.stats.expanded);
}

#[test]
fn an_unreachable_goal_exhausts_the_budget_instead_of_hanging() {
    // An open room sealed off from the goal: every simple path in it is tried.
    let mut rows = vec!["....................#.".to_string(); 20];
    rows.push("######################".to_string());
    rows.push("......................".to_string());
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let grid = Grid::from_ascii(&refs).expect("valid map");
    let request =
        SearchRequest::new(Cell::new(0, 0), Cell::new(21, 21)).with_algorithm(Algorithm::IdaStar);
    let result = gridpath::search::solve(&grid, &request).expect("valid request");
    assert!(!result.found);
    assert!(result.stats.budget_exhausted);
    assert_eq!(result.stats.expanded, IDASTAR_NODE_BUDGET);
    assert!(
        result.message().contains("budget exhausted"),
        "{}",
        result.message()
    );
}
