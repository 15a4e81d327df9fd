//! gridpath's A* against the `pathfinding` crate's A* on Moving AI benchmark queries.
//!
//! Both run the same queries with the same neighbour rules (8-connected, no corner cutting),
//! the same octile heuristic and `f64` costs; the rival gets its successors from gridpath's
//! precomputed neighbour masks, its best case. Each benchmark iteration runs a fixed sample of
//! the scenario file's queries, so time per iteration / queries = time per query.
//!
//! Run with `cargo bench --bench search`; the data is read from `../shared/movingai`.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use gridpath::format::movingai::{self, ScenQuery};
use gridpath::grid::Grid;
use gridpath::search::{Diagonal, SearchGraph, SearchRequest, Searcher};
use ordered_float::OrderedFloat;

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

fn data_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/movingai");
    dir.is_dir().then_some(dir)
}

fn load(dir: &Path, set: &str) -> (Grid, Vec<ScenQuery>) {
    let map = std::fs::read_to_string(dir.join(format!("{set}.map"))).expect("map file");
    let scen = std::fs::read_to_string(dir.join(format!("{set}.map.scen"))).expect("scen file");
    let grid = movingai::parse_map(&map).expect("valid map");
    let all = movingai::parse_scen(&scen).expect("valid scen");
    let step = (all.len() / QUERIES).max(1);
    (grid, all.into_iter().step_by(step).take(QUERIES).collect())
}

/// The rival: `pathfinding::directed::astar::astar` over the same neighbour masks.
fn rival_cost(graph: &SearchGraph, grid: &Grid, q: &ScenQuery) -> Option<f64> {
    const DIRS: [(i32, i32); 8] = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, -1),
        (-1, -1),
        (1, 1),
        (-1, 1),
    ];
    let goal = (q.goal.x as i32, q.goal.y as i32);
    let width = grid.width() as usize;
    let result = pathfinding::directed::astar::astar(
        &(q.start.x as i32, q.start.y as i32),
        |&(x, y)| {
            let index = y as usize * width + x as usize;
            DIRS.iter()
                .enumerate()
                .filter(move |(d, _)| graph.can_step(index, *d))
                .map(move |(d, (dx, dy))| {
                    let cost = if d < 4 { 1.0 } else { std::f64::consts::SQRT_2 };
                    ((x + dx, y + dy), OrderedFloat(cost))
                })
        },
        |&(x, y)| {
            let (dx, dy) = (f64::from((x - goal.0).abs()), f64::from((y - goal.1).abs()));
            OrderedFloat(dx.max(dy) + (std::f64::consts::SQRT_2 - 1.0) * dx.min(dy))
        },
        |&p| p == goal,
    );
    result.map(|(_, cost)| cost.0)
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
            })
        });
        group.bench_function(format!("pathfinding/{name}"), |b| {
            b.iter(|| {
                for q in &queries {
                    black_box(rival_cost(&graph, &grid, q));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
