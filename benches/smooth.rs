//! Smoothing speed on Moving AI benchmark maps: the line-of-sight stage alone and both stages,
//! on the longest paths of each map's scenario.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use gridpath::format::{load_map, movingai};
use gridpath::grid::{Cell, Grid};
use gridpath::search::{SearchGraph, SearchRequest, Searcher};
use gridpath::smooth::{self, SmoothSettings};

const MAPS: [&str; 3] = [
    "dao/arena.map",
    "random/random512-40-0.map",
    "rooms/8room_000.map",
];

/// The map and the grid paths of its ten longest scenario queries.
fn longest_paths(root: &Path, name: &str) -> Option<(Grid, Vec<Vec<Cell>>)> {
    let map = load_map(&root.join(name)).ok()?;
    let scen = std::fs::read_to_string(root.join(format!("{name}.scen"))).ok()?;
    let mut queries = movingai::parse_scen(&scen).ok()?;
    queries.sort_by(|a, b| b.optimal.total_cmp(&a.optimal));
    let graph = SearchGraph::new(&map.grid, Default::default());
    let mut searcher = Searcher::new();
    let paths = queries
        .iter()
        .take(10)
        .filter_map(|q| {
            searcher
                .search(&graph, &SearchRequest::new(q.start, q.goal))
                .ok()
        })
        .map(|r| r.path)
        .collect();
    Some((map.grid, paths))
}

fn smoothing(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/movingai");
    if !root.is_dir() {
        eprintln!("skipped: no Moving AI benchmark at {}", root.display());
        return;
    }
    let settings = SmoothSettings::default();
    for name in MAPS {
        let Some((grid, paths)) = longest_paths(&root, name) else {
            eprintln!("skipped {name}: cannot read it or its scenario");
            continue;
        };
        c.bench_function(&format!("line of sight, 10 longest paths, {name}"), |b| {
            b.iter(|| {
                for path in &paths {
                    black_box(smooth::pull_string(&grid, path));
                }
            });
        });
        c.bench_function(&format!("smooth_path, 10 longest paths, {name}"), |b| {
            b.iter(|| {
                for path in &paths {
                    black_box(smooth::smooth_path(&grid, path, &settings).ok());
                }
            });
        });
    }
}

criterion_group!(benches, smoothing);
criterion_main!(benches);
