//! Flow fields against A*: following the next steps from any cell is an optimal path.

use gridpath::grid::{Cell, Grid};
use gridpath::search::{Diagonal, FlowField, SearchGraph, SearchRequest, Searcher};
use proptest::prelude::*;

/// A random map of walls and weighted terrains, a goal and some cells to start from.
fn weighted_map() -> impl Strategy<Value = (Grid, Cell, Vec<Cell>)> {
    (2u32..30, 2u32..30).prop_flat_map(|(w, h)| {
        let symbols = proptest::sample::select(vec!['.', '.', '.', '#', '~', '=']);
        let cells = proptest::collection::vec(symbols, (w * h) as usize);
        let cell = move || (0..w, 0..h).prop_map(|(x, y)| Cell::new(x, y));
        (cells, cell(), proptest::collection::vec(cell(), 1..8)).prop_map(
            move |(symbols, goal, starts)| {
                let mut rows: Vec<String> = symbols
                    .chunks(w as usize)
                    .map(|row| row.iter().collect())
                    .collect();
                let (x, y) = (goal.x as usize, goal.y as usize);
                rows[y].replace_range(x..x + 1, ".");
                let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
                (Grid::from_ascii(&refs).expect("valid map"), goal, starts)
            },
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn following_the_field_costs_what_astar_costs(
        (grid, goal, starts) in weighted_map(),
        diagonal in proptest::sample::select(Diagonal::ALL.to_vec()),
    ) {
        let graph = SearchGraph::new(&grid, diagonal);
        let field = FlowField::new(&graph, goal).expect("goal is passable");
        let mut searcher = Searcher::new();
        for start in starts {
            if !grid.is_passable(start) {
                prop_assert_eq!(field.cost(start), None);
                continue;
            }
            let request = SearchRequest::new(start, goal).with_diagonal(diagonal);
            let astar = searcher.search(&graph, &request).expect("valid request");
            let path = field.path_from(start);
            prop_assert_eq!(path.is_some(), astar.found);
            let Some(path) = path else { continue };
            prop_assert_eq!(path.first(), Some(&start));
            prop_assert_eq!(path.last(), Some(&goal));
            let walked = graph.path_cost(&path);
            prop_assert!(walked.is_some(), "the field steps through a wall or corner");
            let (cost, _) = walked.expect("checked above");
            let tolerance = 1e-9 * astar.cost.max(1.0);
            prop_assert!((cost - astar.cost).abs() <= tolerance, "field {} vs astar {}", cost, astar.cost);
            let stored = field.cost(start).expect("reachable");
            prop_assert!((stored - astar.cost).abs() <= tolerance);
        }
    }
}

#[test]
fn a_cancelled_field_stops_and_says_so() {
    let rows = vec![".".repeat(100); 100];
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let grid = Grid::from_ascii(&rows).unwrap();
    let graph = SearchGraph::new(&grid, Diagonal::NoCut);
    let control = gridpath::search::SearchControl::new();
    control.cancel();
    let outcome = FlowField::new_controlled(&graph, Cell::new(50, 50), &control);
    assert!(matches!(
        outcome,
        Err(gridpath::search::SearchError::Cancelled)
    ));
    assert!(
        control.expanded() < 10_000,
        "stopped at {}",
        control.expanded()
    );
    let field = FlowField::new_controlled(
        &graph,
        Cell::new(50, 50),
        &gridpath::search::SearchControl::new(),
    )
    .unwrap();
    assert_eq!(field.reachable_count(), 10_000);
}
