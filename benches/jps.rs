//! Jump point search against A* on the Moving AI families: one group per family, both
//! algorithms on the same queries, so the per-query ratio reads straight off the report.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use gridpath::format::{load_map, movingai};
use gridpath::search::{Algorithm, Diagonal, SearchGraph, SearchRequest, Searcher};

/// One map per family the speed target names.
const SETS: [&str; 5] = [
    "dao/arena2",
    "bg512/AR0011SR",
    "sc1/Aftershock",
    "rooms/64room_000",
    "cities/Berlin_0_256",
];

fn jps_vs_astar(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/movingai");
    if !root.is_dir() {
        eprintln!(
            "skipping: no Moving AI benchmark data at {}",
            root.display()
        );
        return;
    }
    for set in SETS {
        let map_path = root.join(format!("{set}.map"));
        let scen_path = root.join(format!("{set}.map.scen"));
        let (Ok(map), Ok(text)) = (load_map(&map_path), std::fs::read_to_string(&scen_path)) else {
            eprintln!("skipping {set}: cannot read {}", map_path.display());
            continue;
        };
        let Ok(queries) = movingai::parse_scen(&text) else {
            eprintln!("skipping {set}: {} does not parse", scen_path.display());
            continue;
        };
        // Every 10th query: all buckets, from short to the longest.
        let sample: Vec<_> = queries.iter().step_by(10).collect();
        let graph = SearchGraph::new(&map.grid, Diagonal::NoCut);
        let mut group = c.benchmark_group(format!("jps_vs_astar/{set}"));
        group.sample_size(10);
        for algorithm in [Algorithm::AStar, Algorithm::Jps] {
            let mut searcher = Searcher::new();
            group.bench_function(algorithm.name(), |b| {
                b.iter(|| {
                    for q in &sample {
                        let request = SearchRequest::new(q.start, q.goal).with_algorithm(algorithm);
                        let result = searcher.search(&graph, &request);
                        black_box(result.map(|r| r.cost).unwrap_or(f64::NAN));
                    }
                });
            });
        }
        group.finish();
    }
}

criterion_group!(benches, jps_vs_astar);
criterion_main!(benches);
