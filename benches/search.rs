//! gridpath's A* against the `pathfinding` crate's A* on Moving AI benchmark queries.
//!
//! Both run the same queries with the same neighbour rules (8-connected, no corner cutting),
//! the same octile heuristic and `f64` costs; the rival gets its successors from gridpath's
//! precomputed neighbour masks, its best case. Each benchmark iteration runs a fixed sample of
//! the scenario file's queries, so time per iteration / queries = time per query.
//!
//! Run with `cargo bench --bench search`; the data is read from `../shared/movingai`.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use gridpath::format::movingai::{self, ScenQuery};
use gridpath::grid::Grid;
use gridpath::search::{Diagonal, SearchGraph, SearchRequest, Searcher};

mod common;
use common::{data_dir, rival_cost};

/// The map families of the benchmark, one map each.
const SETS: &[&str] = &[
    "dao/den520d",
    "bg512/AR0011SR",
    "sc1/Aftershock",
    "rooms/8room_000",
    "cities/Berlin_0_256",
    "mazes/maze512-32-0",
    "random/random512-40-0",
];
/// Queries per set: spread evenly over the file, so every bucket of difficulty is in.
const QUERIES: usize = 40;

fn load(dir: &Path, set: &str) -> (Grid, Vec<ScenQuery>) {
    let map = std::fs::read_to_string(dir.join(format!("{set}.map"))).expect("map file");
    let scen = std::fs::read_to_string(dir.join(format!("{set}.map.scen"))).expect("scen file");
    let grid = movingai::parse_map(&map).expect("valid map");
    let all = movingai::parse_scen(&scen).expect("valid scen");
    let step = (all.len() / QUERIES).max(1);
    (grid, all.into_iter().step_by(step).take(QUERIES).collect())
}

fn bench(c: &mut Criterion) {
    let Some(dir) = data_dir() else {
        eprintln!("search bench: ../shared/movingai is absent; nothing to measure");
        return;
    };
    let mut group = c.benchmark_group("moving_ai_astar");
    group.sample_size(10);
    for set in SETS {
        let (grid, queries) = load(&dir, set);
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        let mut searcher = Searcher::new();
        // Both must agree with the benchmark before their speed means anything.
        for q in &queries {
            let ours = searcher
                .search(&graph, &SearchRequest::new(q.start, q.goal))
                .expect("valid query");
            assert!(
                q.matches(ours.cost),
                "gridpath astar mismatch on {set} line {}",
                q.line
            );
            let theirs = rival_cost(&graph, &grid, q).expect("path");
            assert!(
                q.matches(theirs),
                "pathfinding astar mismatch on {set} line {}",
                q.line
            );
        }
        let name = set.rsplit('/').next().unwrap_or(set);
        group.bench_function(format!("gridpath/{name}"), |b| {
            b.iter(|| {
                for q in &queries {
                    let request = SearchRequest::new(q.start, q.goal);
                    black_box(searcher.search(&graph, &request).expect("valid query").cost);
                }
            });
        });
        group.bench_function(format!("pathfinding/{name}"), |b| {
            b.iter(|| {
                for q in &queries {
                    black_box(rival_cost(&graph, &grid, q));
                }
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
