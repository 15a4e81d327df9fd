//! What more than one benchmark needs: the Moving AI data and the `pathfinding` crate's A*
//! as the rival.

#![allow(
    dead_code,
    reason = "each benchmark uses some of these helpers, not all"
)]

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

use gridpath::format::movingai::ScenQuery;
use gridpath::grid::Grid;
use gridpath::search::SearchGraph;
use ordered_float::OrderedFloat;

/// `../shared/movingai`, when it is there.
pub fn data_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/movingai");
    dir.is_dir().then_some(dir)
}

/// The data a benchmark over the Moving AI sets reads: `None` when cargo only lists the
/// benchmarks (`--list`) or when the data is absent (said on standard error).
pub fn movingai_bench(name: &str) -> Option<PathBuf> {
    if std::env::args().any(|a| a == "--list") {
        return None;
    }
    let dir = data_dir();
    if dir.is_none() {
        eprintln!("{name} bench: ../shared/movingai is absent; nothing to measure");
    }
    dir
}

/// A Moving AI set (`"dao/den520d"`) under `dir`: its map, and `count` of its queries spread
/// evenly over its scenario file.
pub fn load_set(dir: &Path, set: &str, count: usize) -> (Grid, Vec<ScenQuery>) {
    let map = std::fs::read_to_string(dir.join(format!("{set}.map"))).expect("map file");
    let scen = std::fs::read_to_string(dir.join(format!("{set}.map.scen"))).expect("scen");
    let grid = gridpath::format::movingai::parse_map(&map).expect("valid map");
    let all = gridpath::format::movingai::parse_scen(&scen).expect("valid scen");
    let step = (all.len() / count).max(1);
    (grid, all.into_iter().step_by(step).take(count).collect())
}

/// The shortest time of `rounds` runs of `run`.
pub fn fastest(rounds: usize, mut run: impl FnMut()) -> std::time::Duration {
    (0..rounds)
        .map(|_| {
            let t = Instant::now();
            run();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// The fastest of `rounds` runs of `run` over every query, in µs per query: the fastest round
/// keeps the noise of a shared machine out of the ratios measured in one run.
pub fn time_per_query(
    queries: &[ScenQuery],
    rounds: usize,
    mut run: impl FnMut(&ScenQuery) -> f64,
) -> f64 {
    (0..rounds)
        .map(|_| {
            let t = Instant::now();
            for q in queries {
                black_box(run(q));
            }
            t.elapsed().as_secs_f64() * 1e6 / queries.len() as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// The rival: `pathfinding::directed::astar::astar` over the same neighbour masks.
pub fn rival_cost(graph: &SearchGraph, grid: &Grid, q: &ScenQuery) -> Option<f64> {
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

/// An open `side` × `side` map of one cost: empty, or with square pillars of 16 × 16 cells
/// every 512 cells (offset by 200) that the long queries of [`open_queries`] run into.
pub fn open_map(side: u32, pillars: bool) -> Grid {
    use gridpath::grid::Terrain;
    const WALL: u8 = 3;
    let cells = (0..side * side)
        .map(|i| {
            let (x, y) = (i % side, i / side);
            let pillar = |v: u32| v % 512 >= 200 && v % 512 < 216;
            if pillars && pillar(x) && pillar(y) {
                WALL
            } else {
                0
            }
        })
        .collect();
    Grid::from_cells(side, side, Terrain::default_catalog(), cells).expect("a valid open map")
}

/// A few long queries across an open `side` × `side` map: corner to corner, edge to edge and
/// two steep ones, none of them along a line of a single direction.
pub fn open_queries(side: u32) -> Vec<(gridpath::grid::Cell, gridpath::grid::Cell)> {
    use gridpath::grid::Cell;
    let (s, m) = (side - 1, side / 2);
    vec![
        (Cell::new(1, 2), Cell::new(s - 2, s - 1)),
        (Cell::new(s, 3), Cell::new(5, s - 7)),
        (Cell::new(0, m + 9), Cell::new(s, m - 31)),
        (Cell::new(m / 3, 0), Cell::new(m + m / 2, s)),
        (Cell::new(7, s - 100), Cell::new(s - 300, 11)),
    ]
}

/// The sides of the open maps a benchmark measures: `OPEN_SIDES=2048,8192`, or `default`.
pub fn open_sides(default: &[u32]) -> Vec<u32> {
    std::env::var("OPEN_SIDES")
        .ok()
        .map(|v| v.split(',').filter_map(|s| s.trim().parse().ok()).collect())
        .unwrap_or_else(|| default.to_vec())
}
