//! Every fast algorithm on the same Moving AI queries in one run: gridpath's `astar`, `jps`,
//! `jps-plus`, `hpa` and `dstar-lite`, and the `pathfinding` crate's `astar`. Prints a markdown
//! table of the time per query of each (and `hpa`'s cost against the optimum), for the README.
//!
//! Each set contributes `QUERIES` queries spread evenly over its scenario file. Every answer is
//! checked against the file's optimal length first (`hpa` is near-optimal only: its ratio is
//! reported instead); then each algorithm runs the whole sample `ROUNDS` times and the fastest
//! round counts, which keeps the noise of a shared machine out of the ratios. `hpa` builds its
//! abstraction once per map and `jps-plus` its jump distances (both build times are printed
//! too, outside the query times); `dstar-lite` plans from scratch
//! for every query, as `gridpath solve --algo dstar-lite` does (its strength, replanning after
//! edits, is measured by `benches/dstar_lite.rs`).
//!
//! Run with `cargo bench --bench compare`; the data is read from `../shared/movingai`.

use std::time::Instant;

use gridpath::format::movingai::ScenQuery;
use gridpath::search::{
    Algorithm, DEFAULT_CLUSTER_SIZE, Diagonal, HpaGraph, SearchGraph, SearchRequest, Searcher,
};

mod common;
use common::rival_cost;

/// The dao, bg512, sc1, rooms and cities sets of the one-run table.
const SETS: &[&str] = &[
    "dao/den520d",
    "dao/arena2",
    "dao/brc202d",
    "bg512/AR0011SR",
    "bg512/AR0500SR",
    "sc1/Aftershock",
    "sc1/AcrosstheCape",
    "rooms/8room_000",
    "rooms/64room_000",
    "cities/Berlin_0_256",
    "cities/Boston_0_512",
];
const QUERIES: usize = 60;
const ROUNDS: usize = 3;

fn main() {
    let Some(dir) = common::movingai_bench("compare") else {
        return;
    };
    println!(
        "| set | queries | `astar` µs | `jps` µs | `jps-plus` µs | `hpa` µs | `dstar-lite` µs \
         | `pathfinding` µs | `jps` × | `jps-plus` × | `hpa` × | `pathfinding` ÷ `astar` \
         | `jps-plus` build ms | `hpa` build ms | `hpa` cost / optimal, mean (worst) |"
    );
    println!(
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    for set in SETS {
        let (grid, queries) = common::load_set(&dir, set, QUERIES);
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        let built = Instant::now();
        let mut hpa = HpaGraph::from_graph(graph.clone(), DEFAULT_CLUSTER_SIZE);
        let build_ms = built.elapsed().as_secs_f64() * 1e3;
        let built = Instant::now();
        graph.prepare_jps_plus();
        let table_ms = built.elapsed().as_secs_f64() * 1e3;
        let mut searcher = Searcher::new();
        let mut solve = |q: &ScenQuery, algorithm: Algorithm| {
            let request = SearchRequest::new(q.start, q.goal).with_algorithm(algorithm);
            searcher.search(&graph, &request).expect("valid query").cost
        };
        // Every answer first: the times mean nothing for a wrong one.
        let (mut ratio_sum, mut worst) = (0.0, 1.0f64);
        for q in &queries {
            for algorithm in [
                Algorithm::AStar,
                Algorithm::Jps,
                Algorithm::JpsPlus,
                Algorithm::DStarLite,
            ] {
                let cost = solve(q, algorithm);
                assert!(
                    q.matches(cost),
                    "{algorithm:?} mismatch on {set} line {}",
                    q.line
                );
            }
            let theirs = rival_cost(&graph, &grid, q).expect("a path");
            assert!(
                q.matches(theirs),
                "pathfinding mismatch on {set} line {}",
                q.line
            );
            let request = SearchRequest::new(q.start, q.goal).with_algorithm(Algorithm::Hpa);
            let cost = hpa.find_path(&request).expect("valid query").cost;
            assert!(
                cost >= q.optimal - q.tolerance(),
                "hpa below the optimum on {set}"
            );
            let ratio = if q.optimal > 0.0 {
                cost / q.optimal
            } else {
                1.0
            };
            ratio_sum += ratio;
            worst = worst.max(ratio);
        }
        let astar = time_per_query_of(&queries, |q| solve(q, Algorithm::AStar));
        let jps = time_per_query_of(&queries, |q| solve(q, Algorithm::Jps));
        let plus = time_per_query_of(&queries, |q| solve(q, Algorithm::JpsPlus));
        let dstar = time_per_query_of(&queries, |q| solve(q, Algorithm::DStarLite));
        let hpa_us = time_per_query_of(&queries, |q| {
            let request = SearchRequest::new(q.start, q.goal).with_algorithm(Algorithm::Hpa);
            hpa.find_path(&request).expect("valid query").cost
        });
        let rival = time_per_query_of(&queries, |q| rival_cost(&graph, &grid, q).unwrap_or(0.0));
        let name = set.rsplit('/').next().unwrap_or(set);
        println!(
            "| {name} | {} | {astar:.0} | {jps:.1} | {plus:.1} | {hpa_us:.0} | {dstar:.0} | {rival:.0} | {:.1}× | {:.1}× | {:.1}× | {:.1}× | {table_ms:.1} | {build_ms:.0} | {:.4} ({worst:.3}) |",
            queries.len(),
            astar / jps,
            astar / plus,
            astar / hpa_us,
            rival / astar,
            ratio_sum / queries.len() as f64,
        );
    }
}

/// [`common::time_per_query`] with this bench's rounds.
fn time_per_query_of(queries: &[ScenQuery], run: impl FnMut(&ScenQuery) -> f64) -> f64 {
    common::time_per_query(queries, ROUNDS, run)
}
