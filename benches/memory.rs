//! What every algorithm costs in memory and preparation, measured by a counting allocator
//! (`tests/common/counting.rs`), not estimated from the sizes of types.
//!
//! For each map (open, 20% random walls and generated weighted terrain, at 512², 1024² and
//! 2048², under the no-cut rule) and each registered algorithm that accepts it, on a fresh
//! search graph:
//!
//! - **build**: the time and the peak bytes allocated while the algorithm's tables are built
//!   (`AlgorithmInfo::prepare`, or the `HpaGraph` and `ContractionHierarchy` structures), and
//!   the bytes they keep once built, all beyond the search graph;
//! - **search**: the peak bytes allocated by one long query (from the passable cell nearest
//!   one corner to the one nearest the opposite corner) with a fresh searcher, whose state
//!   arrays grow to the map on its first query, or on the built structure.
//!
//! Bytes are per cell of the map. The contraction hierarchy is built up to its size limit
//! (`CH_MAX_CELLS`, 2048²), where its builds take minutes and, on open ground, some 5 GB at
//! their peak (`MEMORY_BENCH_MAPS` leaves them out). Prints a markdown table for
//! docs/performance.md.
//!
//! `MEMORY_BENCH_MAPS=open-512,walls` runs the maps whose names start with one of the words,
//! `MEMORY_BENCH_ALGOS=ch,hpa` the algorithms so named (`graph` for the search graph itself).

#![allow(clippy::unwrap_used, clippy::expect_used)] // A benchmark fails loudly on broken data.

use std::hint::black_box;
use std::time::Instant;

use gridpath::grid::{Cell, Grid, Terrain};
use gridpath::search::{
    ALGORITHMS, Algorithm, CH_MAX_CELLS, ContractionHierarchy, DEFAULT_CLUSTER_SIZE, Diagonal,
    HpaGraph, SearchGraph, SearchRequest, Searcher,
};

#[path = "../tests/common/counting.rs"]
mod counting;
#[path = "../tests/common/weighted_map.rs"]
mod weighted_map;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

/// What one measurement found: time in seconds, bytes.
struct Measured {
    seconds: f64,
    peak: usize,
    kept: usize,
}

/// Runs `f`, timing it and counting the most bytes held at once and the bytes still held
/// after (by what it returns or by what it filled), beyond what was held before.
fn measure<T>(f: impl FnOnce() -> T) -> (T, Measured) {
    let before = counting::held();
    let t = Instant::now();
    let (value, peak) = counting::peak_of(f);
    let seconds = t.elapsed().as_secs_f64();
    let kept = counting::held().saturating_sub(before);
    (
        value,
        Measured {
            seconds,
            peak,
            kept,
        },
    )
}

/// A map of one terrain (grass, cost 1) with `percent`% of its cells walls at random.
fn walled_map(side: u32, percent: u32, seed: u64) -> Grid {
    let mut rng = weighted_map::XorShift(seed.max(1));
    let cells = (0..side * side)
        .map(|_| {
            if rng.below(100) < percent {
                weighted_map::WALL
            } else {
                weighted_map::GRASS
            }
        })
        .collect();
    Grid::from_cells(side, side, Terrain::default_catalog(), cells).expect("a valid map")
}

/// The passable cell nearest `(x, y)` along growing squares around it.
fn passable_near(grid: &Grid, x: u32, y: u32) -> Cell {
    for r in 0..grid.width().max(grid.height()) {
        for dy in 0..=r {
            for dx in 0..=r {
                let cx = if x == 0 { dx } else { x.saturating_sub(dx) };
                let cy = if y == 0 { dy } else { y.saturating_sub(dy) };
                let c = Cell::new(cx, cy);
                if cx < grid.width() && cy < grid.height() && grid.is_passable(c) {
                    return c;
                }
            }
        }
    }
    panic!("a map with a passable cell")
}

fn per_cell(bytes: usize, cells: usize) -> f64 {
    bytes as f64 / cells as f64
}

fn row(map: &str, name: &str, build: Option<&Measured>, search: &Measured, cells: usize) {
    let (seconds, peak, kept) = build.map_or(
        ("—".to_owned(), "—".to_owned(), "—".to_owned()),
        |b| {
            (
                format!("{:.3}", b.seconds),
                format!("{:.1}", per_cell(b.peak, cells)),
                format!("{:.1}", per_cell(b.kept, cells)),
            )
        },
    );
    println!(
        "| {map} | `{name}` | {seconds} | {peak} | {kept} | {:.1} |",
        per_cell(search.peak, cells)
    );
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let words = |var: &str| -> Vec<String> {
        std::env::var(var)
            .map(|s| s.split(',').map(str::to_owned).collect())
            .unwrap_or_default()
    };
    let (maps_wanted, algos_wanted) = (words("MEMORY_BENCH_MAPS"), words("MEMORY_BENCH_ALGOS"));
    let wanted_algo =
        |name: &str| algos_wanted.is_empty() || algos_wanted.iter().any(|w| w == name);
    println!(
        "| map | algorithm | build s | build peak B/cell | kept B/cell | search peak B/cell |"
    );
    println!("| --- | --- | ---: | ---: | ---: | ---: |");
    for side in [512u32, 1024, 2048] {
        for kind in ["open", "walls", "weighted"] {
            let name = format!("{kind}-{side}");
            if !maps_wanted.is_empty() && !maps_wanted.iter().any(|w| name.starts_with(w.as_str()))
            {
                continue;
            }
            let grid = match kind {
                "open" => Grid::new(side, side, Terrain::default_catalog(), 0).expect("a map"),
                "walls" => walled_map(side, 20, u64::from(side)),
                _ => weighted_map::weighted_map(side, 1),
            };
            let cells = grid.width() as usize * grid.height() as usize;
            let start = passable_near(&grid, 0, 0);
            let goal = passable_near(&grid, side - 1, side - 1);
            let (pristine, graph_cost) = measure(|| SearchGraph::new(&grid, Diagonal::NoCut));
            if wanted_algo("graph") {
                // The search graph itself: what every algorithm searches.
                println!(
                    "| {name} | search graph | {:.3} | {:.1} | {:.1} | — |",
                    graph_cost.seconds,
                    per_cell(graph_cost.peak, cells),
                    per_cell(graph_cost.kept, cells)
                );
            }
            for info in &ALGORITHMS {
                if !wanted_algo(info.name) {
                    continue;
                }
                let request = SearchRequest::new(start, goal).with_algorithm(info.algorithm);
                let graph = pristine.clone();
                match info.algorithm {
                    Algorithm::Hpa => {
                        let (mut hpa, build) =
                            measure(|| HpaGraph::from_graph(graph, DEFAULT_CLUSTER_SIZE));
                        let (result, search) = measure(|| hpa.find_path(&request));
                        if result.is_err() {
                            continue;
                        }
                        drop(result);
                        row(&name, info.name, Some(&build), &search, cells);
                    }
                    Algorithm::ContractionHierarchy => {
                        if cells > CH_MAX_CELLS || graph.has_heights() {
                            continue;
                        }
                        let (mut ch, build) = measure(|| ContractionHierarchy::from_graph(graph));
                        let (result, search) = measure(|| ch.find_path(&request));
                        black_box(result.expect("a valid request"));
                        row(&name, info.name, Some(&build), &search, cells);
                    }
                    _ => {
                        let (kept, build) = measure(|| info.prepare(&graph));
                        let mut searcher = Searcher::new();
                        let (result, search) = measure(|| searcher.search(&graph, &request));
                        // An algorithm that refuses the map has no row.
                        if result.is_err() {
                            continue;
                        }
                        black_box(&searcher);
                        row(&name, info.name, kept.then_some(&build), &search, cells);
                    }
                }
            }
        }
    }
}
