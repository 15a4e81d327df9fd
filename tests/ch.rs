//! The contraction hierarchy against Dijkstra on random weighted maps under every diagonal
//! rule: the same cost, a valid cell-by-cell path whose steps sum to the reported cost, and a
//! path found exactly when one exists.

#![allow(clippy::unwrap_used)] // Test helpers fail loudly on broken test data.

use gridpath::grid::{Cell, Grid};
use gridpath::search::{
    Algorithm, ContractionHierarchy, Diagonal, SearchError, SearchGraph, SearchRequest,
    SearchResult, Searcher,
};
use proptest::prelude::*;

#[path = "common/weighted_map.rs"]
mod weighted_map;

/// The hierarchy's answer agrees with Dijkstra's and its path is a valid one of its cost.
fn assert_agrees(graph: &SearchGraph, ch: &SearchResult, dijkstra: &SearchResult) {
    let what = format!("{} → {} {}", ch.start, ch.goal, graph.diagonal());
    assert_eq!(ch.found, dijkstra.found, "{what}");
    if !ch.found {
        return;
    }
    let expected = dijkstra.cost;
    assert!(
        (ch.cost - expected).abs() <= 1e-9 * expected.max(1.0),
        "{what}: {} vs Dijkstra's {expected}",
        ch.cost
    );
    assert_eq!(ch.path.first(), Some(&ch.start), "{what}");
    assert_eq!(ch.path.last(), Some(&ch.goal), "{what}");
    let (cost, _) = graph.path_cost(&ch.path).expect("every step is allowed");
    assert!(
        (cost - ch.cost).abs() <= 1e-9 * cost.max(1.0),
        "{what}: steps sum to {cost}, reported {}",
        ch.cost
    );
}

/// A random map of grass, road, swamp, forest and walls, with two cells on it.
fn arb_map() -> impl Strategy<Value = (Grid, Vec<(Cell, Cell)>)> {
    (2u32..20, 2u32..20)
        .prop_flat_map(|(w, h)| {
            let cells = prop::collection::vec(
                prop::sample::select(vec![0u8, 0, 0, 1, 2, 3, 3, 4]),
                (w * h) as usize,
            );
            let pairs = prop::collection::vec((0..w, 0..h, 0..w, 0..h), 1..6);
            (Just(w), Just(h), cells, pairs)
        })
        .prop_map(|(w, h, mut cells, pairs)| {
            let pairs: Vec<(Cell, Cell)> = pairs
                .into_iter()
                .map(|(sx, sy, gx, gy)| (Cell::new(sx, sy), Cell::new(gx, gy)))
                .collect();
            // The endpoints stand on passable ground.
            for &(a, b) in &pairs {
                cells[(a.y * w + a.x) as usize] = weighted_map::GRASS;
                cells[(b.y * w + b.x) as usize] = weighted_map::ROAD;
            }
            let grid = Grid::from_cells(w, h, weighted_map::catalog(), cells).unwrap();
            (grid, pairs)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_hierarchy_matches_dijkstra_under_every_diagonal_rule((grid, pairs) in arb_map()) {
        for &diagonal in Diagonal::ALL {
            let graph = SearchGraph::new(&grid, diagonal);
            let mut ch = ContractionHierarchy::from_graph(graph.clone());
            let mut searcher = Searcher::new();
            for &(a, b) in &pairs {
                let request = SearchRequest::new(a, b).with_diagonal(diagonal);
                let dijkstra = searcher.search(&graph, &request.clone().with_algorithm(Algorithm::Dijkstra)).unwrap();
                let answer = ch.find_path(&request.with_algorithm(Algorithm::ContractionHierarchy)).unwrap();
                assert_agrees(&graph, &answer, &dijkstra);
            }
        }
    }
}

/// One hierarchy of `grid` under `diagonal` answers every pair as Dijkstra does.
fn assert_pairs_agree(grid: &Grid, diagonal: Diagonal, pairs: &[(Cell, Cell)]) {
    let graph = SearchGraph::new(grid, diagonal);
    let mut ch = ContractionHierarchy::from_graph(graph.clone());
    let mut searcher = Searcher::new();
    for &(a, b) in pairs {
        let request = SearchRequest::new(a, b).with_diagonal(diagonal);
        let dijkstra = searcher
            .search(&graph, &request.clone().with_algorithm(Algorithm::Dijkstra))
            .unwrap();
        let answer = ch
            .find_path(&request.with_algorithm(Algorithm::ContractionHierarchy))
            .unwrap();
        assert_agrees(&graph, &answer, &dijkstra);
    }
}

#[test]
fn one_hierarchy_answers_many_queries_on_a_generated_map_under_every_rule() {
    let grid = weighted_map::weighted_map(40, 9);
    let pairs = weighted_map::query_pairs(&grid, 3, 60);
    for &diagonal in Diagonal::ALL {
        assert_pairs_agree(&grid, diagonal, &pairs);
    }
}

#[test]
fn the_searched_edges_are_kept_for_unpacking_and_the_query_state_comes_with_the_first_query() {
    let grid = weighted_map::weighted_map(40, 9);
    let mut ch = ContractionHierarchy::build(&grid, Diagonal::NoCut);
    assert!(0 < ch.shortcut_count() && ch.shortcut_count() < ch.edge_count());
    assert!(ch.edge_count() < ch.unpacking_edge_count());
    let built = ch.hierarchy_bytes();
    let ranks = ch.graph().passable_count();
    assert!(
        ch.height() < ranks / 4,
        "{} ranks high of {ranks}",
        ch.height()
    );
    for (a, b) in weighted_map::query_pairs(&grid, 5, 3) {
        let request = SearchRequest::new(a, b).with_algorithm(Algorithm::ContractionHierarchy);
        ch.find_path(&request).unwrap();
        // Two sides of an `f64` cost and a `u32` link (a depth and a mark) per depth of the
        // elimination tree, rounded up to whole blocks of eight depths, and a `u32` rank per
        // depth, allocated once.
        let blocks = ch.height().next_multiple_of(8);
        assert_eq!(ch.hierarchy_bytes() - built, blocks * 24 + ch.height() * 8);
    }
}

#[test]
fn a_speckled_map_cut_into_pieces_finds_paths_exactly_when_they_exist() {
    let grid = weighted_map::speckled_map(30, 4);
    let pairs = weighted_map::query_pairs(&grid, 8, 80);
    assert_pairs_agree(&grid, Diagonal::NoCut, &pairs);
}

#[test]
fn the_wrong_diagonal_rule_and_blocked_ends_are_refused() {
    let grid = weighted_map::weighted_map(24, 2);
    let mut ch = ContractionHierarchy::build(&grid, Diagonal::NoCut);
    let pairs = weighted_map::query_pairs(&grid, 1, 1);
    let (a, b) = pairs[0];
    let request = SearchRequest::new(a, b)
        .with_algorithm(Algorithm::ContractionHierarchy)
        .with_diagonal(Diagonal::Never);
    assert!(matches!(
        ch.find_path(&request),
        Err(SearchError::DiagonalMismatch { .. })
    ));
    // A start or goal on a wall, or off the map, is refused by name, whichever end it is.
    let wall = (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
        .find(|&c| grid.cost(c).is_none())
        .expect("the weighted map has walls");
    let outside = Cell::new(grid.width(), 0);
    for (from, to, which) in [(wall, b, "start"), (a, wall, "goal")] {
        let request = SearchRequest::new(from, to).with_algorithm(Algorithm::ContractionHierarchy);
        let error = ch.find_path(&request).unwrap_err();
        assert!(
            matches!(error, SearchError::Blocked { which: w, cell, .. } if w == which && cell == wall),
            "{which}: {error}"
        );
    }
    for (from, to, which) in [(outside, b, "start"), (a, outside, "goal")] {
        let request = SearchRequest::new(from, to).with_algorithm(Algorithm::ContractionHierarchy);
        let error = ch.find_path(&request).unwrap_err();
        assert!(
            matches!(error, SearchError::OutOfBounds { which: w, .. } if w == which),
            "{which}: {error}"
        );
    }
    // The hierarchy still answers after the refusals.
    let request = SearchRequest::new(a, b).with_algorithm(Algorithm::ContractionHierarchy);
    assert!(ch.find_path(&request).is_ok());
}

#[test]
fn maps_beyond_the_size_limit_are_refused_before_any_build() {
    // One row more than 2048 × 2048: refused at once, with the limit in the message.
    let small = Grid::from_ascii(&[".."]).unwrap();
    let floor = small.cells()[0];
    let grid = Grid::new(2048, 2049, small.terrains().to_vec(), floor).unwrap();
    let request = SearchRequest::new(Cell::new(0, 0), Cell::new(2047, 2048))
        .with_algorithm(Algorithm::ContractionHierarchy);
    let error = gridpath::search::solve(&grid, &request).unwrap_err();
    assert!(
        matches!(
            error,
            SearchError::MapTooLarge { cells: 4_196_352, max, .. } if max == gridpath::search::CH_MAX_CELLS
        ),
        "{error}"
    );
    assert!(error.to_string().contains("4194304"), "{error}");
}
