//! The contraction hierarchy against A* on generated weighted maps (`tests/common/
//! weighted_map.rs`: patches of grass, forest and swamp, lakes, scattered walls and fences,
//! roads across) under the no-cut rule. Prints, per map, the preprocessing time, the size of
//! the hierarchy (shortcuts, bytes per cell) and the mean query time of both (the fastest of
//! five rounds over the same 200 random queries), after checking every answer of the
//! hierarchy against A*'s cost.
//!
//! The builds take under a second at 256², about two at 512² and ten to twelve at 1024² on
//! two cores, and the whole run a few minutes; `WEIGHTED_BENCH_MAPS=weighted-512` (names
//! separated by commas, or a prefix such as `weighted-1024`) runs some maps alone.

#![allow(clippy::unwrap_used, clippy::expect_used)] // A benchmark fails loudly on broken data.

use std::time::{Duration, Instant};

use gridpath::grid::{Cell, Grid};
use gridpath::search::{
    Algorithm, ContractionHierarchy, Diagonal, SearchGraph, SearchRequest, Searcher,
};

mod common;
#[path = "../tests/common/weighted_map.rs"]
mod weighted_map;

/// Queries per map.
const QUERIES: usize = 200;
/// Rounds over the queries; the fastest counts.
const ROUNDS: usize = 5;

/// The shortest time of `ROUNDS` runs of `run`.
fn fastest(run: impl FnMut()) -> Duration {
    common::fastest(ROUNDS, run)
}

fn measure(name: &str, grid: &Grid, pairs: &[(Cell, Cell)]) {
    let graph = SearchGraph::new(grid, Diagonal::NoCut);
    let t = Instant::now();
    let mut ch = ContractionHierarchy::from_graph(graph.clone());
    let build = t.elapsed();
    let requests: Vec<SearchRequest> = pairs
        .iter()
        .map(|&(a, b)| SearchRequest::new(a, b))
        .collect();
    let mut searcher = Searcher::new();
    let exact: Vec<f64> = requests
        .iter()
        .map(|r| searcher.search(&graph, r).expect("a valid request").cost)
        .collect();
    let by_ch: Vec<SearchRequest> = requests
        .iter()
        .map(|r| r.clone().with_algorithm(Algorithm::ContractionHierarchy))
        .collect();
    for (request, cost) in by_ch.iter().zip(&exact) {
        let result = ch.find_path(request).expect("a valid request");
        assert!(
            (result.cost - cost).abs() <= 1e-9 * cost.max(1.0),
            "{name}: {} → {}: {} by the hierarchy, {cost} by A*",
            request.start,
            request.goal,
            result.cost
        );
    }
    let astar = fastest(|| {
        for r in &requests {
            std::hint::black_box(searcher.search(&graph, r).expect("a valid request"));
        }
    });
    let hierarchy = fastest(|| {
        for r in &by_ch {
            std::hint::black_box(ch.find_path(r).expect("a valid request"));
        }
    });
    let per = |d: Duration| d.as_secs_f64() * 1e6 / pairs.len() as f64;
    println!(
        "ch summary {name}: preprocessing {:.2} s, {} upward edges searched ({} shortcuts), {} kept to \
         unpack them, {:.1} bytes per cell; query {:.1} µs vs A* {:.1} µs: {:.1}× faster ({} queries, all of A*'s cost)",
        build.as_secs_f64(),
        ch.edge_count(),
        ch.shortcut_count(),
        ch.unpacking_edge_count(),
        ch.hierarchy_bytes() as f64 / graph.len() as f64,
        per(hierarchy),
        per(astar),
        astar.as_secs_f64() / hierarchy.as_secs_f64().max(1e-12),
        pairs.len(),
    );
}

fn main() {
    let wanted: Vec<String> = std::env::var("WEIGHTED_BENCH_MAPS")
        .map(|s| s.split(',').map(str::to_owned).collect())
        .unwrap_or_default();
    let maps: [(&str, u32, u64); 6] = [
        ("weighted-256-s1", 256, 1),
        ("weighted-512-s1", 512, 1),
        ("weighted-512-s2", 512, 2),
        ("weighted-512-s3", 512, 3),
        ("weighted-1024-s1", 1024, 1),
        ("speckled-256", 256, 5),
    ];
    for (name, side, seed) in maps {
        if !wanted.is_empty() && !wanted.iter().any(|w| name.starts_with(w.as_str())) {
            continue;
        }
        let grid = if name.starts_with("speckled") {
            weighted_map::speckled_map(side, seed)
        } else {
            weighted_map::weighted_map(side, seed)
        };
        let pairs = weighted_map::query_pairs(&grid, seed + 100, QUERIES);
        measure(name, &grid, &pairs);
    }
}
