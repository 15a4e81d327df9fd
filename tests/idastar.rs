//! IDA* against A* on small maps and on the built-in level, square and hex.

use gridpath::grid::{Cell, Grid, HexLayout, Topology};
use gridpath::search::{Algorithm, Diagonal, Optimality, SearchGraph, SearchRequest, Searcher};
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
        // Weighted terrain gives many distinct f-values; its bands and its fringe keep the
        // work near A*'s, far from the budget.
        prop_assert!(!ida.stats.budget_exhausted, "{:?}", ida.stats);
        prop_assert_eq!(ida.found, astar.found);
        if astar.found {
            prop_assert!((ida.cost - astar.cost).abs() <= 1e-9 * astar.cost.max(1.0), "idastar {} vs astar {}", ida.cost, astar.cost);
            let checked = graph.path_cost(&ida.path);
            prop_assert!(checked.is_some(), "illegal step");
        }
    }
}

/// The built-in level (48 × 32 cells of grass, road, swamp, forest, water and walls), as it
/// is and on hexes.
fn built_in_level(hex: bool) -> Grid {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/default.json");
    let mut map = gridpath::format::load_map(&path).expect("the built-in level loads");
    if hex {
        map.grid.set_topology(Topology::Hex(HexLayout::ODD_R));
    }
    map.grid
}

#[test]
fn idastar_solves_the_built_in_level_exactly_on_squares_and_hexes() {
    for hex in [false, true] {
        let grid = built_in_level(hex);
        let request = SearchRequest::new(Cell::new(6, 17), Cell::new(41, 17));
        let astar = gridpath::search::solve(&grid, &request).expect("valid request");
        let ida =
            gridpath::search::solve(&grid, &request.clone().with_algorithm(Algorithm::IdaStar))
                .expect("valid request");
        assert!(
            ida.found && !ida.stats.budget_exhausted,
            "hex {hex}: {:?}",
            ida.stats
        );
        assert_eq!(ida.optimality, Optimality::Exact);
        assert_eq!(
            ida.cost.to_bits(),
            astar.cost.to_bits(),
            "hex {hex}: {} vs {}",
            ida.cost,
            astar.cost
        );
        let graph = SearchGraph::new(&grid, request.diagonal);
        assert!(graph.path_cost(&ida.path).is_some(), "every step is legal");
        // Well within the budget: a few expansions per passable cell at most.
        let passable = graph.passable_count() as u64;
        assert!(
            ida.stats.expanded <= 4 * passable,
            "hex {hex}: {} expansions",
            ida.stats.expanded
        );
    }
}

#[test]
fn an_unreachable_goal_is_answered_not_given_up_on() {
    // An open room sealed off from the goal: the cost cache expands each of its cells again
    // only when it is reached more cheaply, so the search ends with "no path".
    let mut rows = vec!["....................#.".to_string(); 20];
    rows.push("######################".to_string());
    rows.push("......................".to_string());
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let grid = Grid::from_ascii(&refs).expect("valid map");
    let request =
        SearchRequest::new(Cell::new(0, 0), Cell::new(21, 21)).with_algorithm(Algorithm::IdaStar);
    let result = gridpath::search::solve(&grid, &request).expect("valid request");
    assert!(!result.found);
    assert!(!result.stats.budget_exhausted);
    let expanded = result.stats.expanded;
    assert!(
        (400..=800).contains(&expanded),
        "the room's 400 cells, {expanded} expansions"
    );
    assert!(
        result.message().contains("not found"),
        "{}",
        result.message()
    );
}
