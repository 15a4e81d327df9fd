//! D* Lite replanning against a fresh A* after each edit, on a 1024 × 1024 map with about
//! 22% random walls. An edit is a brush stroke of up to 25 cells (walls drawn or erased) at a
//! random place; both planners see the same strokes in the same order.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use gridpath::grid::{Cell, Grid, Terrain, TerrainId};
mod common;

use gridpath::search::{Algorithm, DStarLite, Diagonal, SearchGraph, SearchRequest, Searcher};

const SIDE: u32 = 1024;
const FLOOR: TerrainId = 0;
const WALL: TerrainId = 3;

/// A small deterministic xorshift generator.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u32) -> u32 {
        (self.next() % u64::from(n)) as u32
    }
}

fn start() -> Cell {
    Cell::new(2, 2)
}

fn goal() -> Cell {
    Cell::new(SIDE - 3, SIDE - 3)
}

/// The map: 22% walls, with the corners around start and goal kept open.
fn map(rng: &mut XorShift) -> Grid {
    let cells: Vec<TerrainId> = (0..SIDE * SIDE)
        .map(|_| if rng.below(100) < 22 { WALL } else { FLOOR })
        .collect();
    let mut grid = Grid::from_cells(SIDE, SIDE, Terrain::default_catalog(), cells)
        .expect("a valid generated map");
    for c in [start(), goal()] {
        for dy in 0..3 {
            for dx in 0..3 {
                grid.set(Cell::new(c.x - 1 + dx, c.y - 1 + dy), FLOOR);
            }
        }
    }
    grid
}

/// A stroke: a random walk of up to 25 cells, all walls or all floor, sparing the endpoints.
fn stroke(rng: &mut XorShift) -> Vec<(Cell, TerrainId)> {
    let terrain = if rng.below(2) == 0 { WALL } else { FLOOR };
    let (mut x, mut y) = (rng.below(SIDE), rng.below(SIDE));
    let mut cells = Vec::new();
    for _ in 0..1 + rng.below(25) {
        let cell = Cell::new(x, y);
        if cell != start() && cell != goal() {
            cells.push((cell, terrain));
        }
        x = (x + rng.below(3)).saturating_sub(1).min(SIDE - 1);
        y = (y + rng.below(3)).saturating_sub(1).min(SIDE - 1);
    }
    cells
}

fn strokes(count: usize) -> Vec<Vec<(Cell, TerrainId)>> {
    let mut rng = XorShift(0x5eed_d5a7);
    (0..count).map(|_| stroke(&mut rng)).collect()
}

/// Applies the strokes to both planners in turn and prints the mean times and their ratio.
fn summary() {
    let grid = map(&mut XorShift(0x0dd_ba11));
    let mut dstar = DStarLite::new(&grid, Diagonal::NoCut, goal()).expect("goal on the map");
    let first = dstar.plan(start()).expect("valid endpoints");
    let mut graph = SearchGraph::new(&grid, Diagonal::NoCut);
    let mut searcher = Searcher::new();
    let request = SearchRequest::new(start(), goal());
    let (mut repair, mut fresh) = (Duration::ZERO, Duration::ZERO);
    let (mut repair_expanded, mut fresh_expanded, mut disagreements) = (0u64, 0u64, 0usize);
    let all = strokes(200);
    for s in &all {
        let t = Instant::now();
        dstar.update_cells(s);
        let planned = dstar.plan(start()).expect("valid endpoints");
        repair += t.elapsed();
        let t = Instant::now();
        graph.set_cells(s);
        let astar = searcher.search(&graph, &request).expect("valid endpoints");
        fresh += t.elapsed();
        repair_expanded += planned.stats.expanded;
        fresh_expanded += astar.stats.expanded;
        if planned.found != astar.found || (planned.cost - astar.cost).abs() > 1e-9 * astar.cost {
            disagreements += 1;
        }
    }
    let n = all.len() as f64;
    println!(
        "dstar_lite summary: first plan {} cells expanded, cost {:.3}; over {} strokes: \
         D* Lite repair+plan {:.3} ms ({:.0} expanded), fresh A* {:.3} ms ({:.0} expanded), \
         speed-up {:.1}×, {} cost disagreements",
        first.stats.expanded,
        first.cost,
        all.len(),
        repair.as_secs_f64() * 1e3 / n,
        repair_expanded as f64 / n,
        fresh.as_secs_f64() * 1e3 / n,
        fresh_expanded as f64 / n,
        fresh.as_secs_f64() / repair.as_secs_f64(),
        disagreements
    );
}

/// A first plan of D* Lite against A* on the empty open maps (see [`common::open_map`]) of
/// each side of `OPEN_SIDES` (default 2048 and 8192): one run of each query, one after the
/// other, with the cells each expanded, then the means; every D* Lite cost checked against
/// A*'s.
fn open_maps() {
    for side in common::open_sides(&[2048, 8192]) {
        let grid = common::open_map(side, false);
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        let mut searcher = Searcher::new();
        let (mut dstar_time, mut astar_time) = (Duration::ZERO, Duration::ZERO);
        let (mut dstar_expanded, mut astar_expanded) = (0u64, 0u64);
        let queries = common::open_queries(side);
        for &(start, goal) in &queries {
            // The one-off search on the prepared graph, as `solve --algo dstar-lite` runs it:
            // a first plan, with no copy of the graph in the time.
            let before = (dstar_time, astar_time);
            let t = Instant::now();
            let planned = searcher
                .search(
                    &graph,
                    &SearchRequest::new(start, goal).with_algorithm(Algorithm::DStarLite),
                )
                .expect("valid endpoints");
            dstar_time += t.elapsed();
            let t = Instant::now();
            let astar = searcher
                .search(&graph, &SearchRequest::new(start, goal))
                .expect("valid endpoints");
            astar_time += t.elapsed();
            assert!(
                (planned.cost - astar.cost).abs() <= 1e-9 * astar.cost,
                "D* Lite {} against A* {} on the open {side}² map",
                planned.cost,
                astar.cost
            );
            dstar_expanded += planned.stats.expanded;
            astar_expanded += astar.stats.expanded;
            let (dstar_ms, astar_ms) = (
                (dstar_time - before.0).as_secs_f64() * 1e3,
                (astar_time - before.1).as_secs_f64() * 1e3,
            );
            println!(
                "dstar_lite open {side}×{side}, {start} → {goal}: first plan {dstar_ms:.1} ms \
                 ({} expanded), A* {astar_ms:.1} ms ({} expanded), D* Lite ÷ A* {:.2}",
                planned.stats.expanded,
                astar.stats.expanded,
                dstar_ms / astar_ms
            );
            black_box(&planned);
        }
        let n = queries.len() as f64;
        println!(
            "dstar_lite open {side}×{side}: first plan {:.1} ms ({:.0} expanded) against A* \
             {:.1} ms ({:.0} expanded) a query, over {} queries",
            dstar_time.as_secs_f64() * 1e3 / n,
            dstar_expanded as f64 / n,
            astar_time.as_secs_f64() * 1e3 / n,
            astar_expanded as f64 / n,
            queries.len()
        );
    }
}

fn replanning(c: &mut Criterion) {
    open_maps();
    summary();
    let grid = map(&mut XorShift(0x0dd_ba11));
    let all = strokes(1000);
    let mut group = c.benchmark_group("dstar_lite_1024");
    group.sample_size(10);

    let mut dstar = DStarLite::new(&grid, Diagonal::NoCut, goal()).expect("goal on the map");
    let _ = dstar.plan(start());
    let mut next = 0usize;
    group.bench_function("dstar_lite_repair_and_plan", |b| {
        b.iter(|| {
            dstar.update_cells(&all[next % all.len()]);
            next += 1;
            black_box(dstar.plan(start()).map(|r| r.cost).unwrap_or(f64::NAN));
        });
    });

    let mut graph = SearchGraph::new(&grid, Diagonal::NoCut);
    let mut searcher = Searcher::new();
    let request = SearchRequest::new(start(), goal());
    let mut next = 0usize;
    group.bench_function("astar_fresh", |b| {
        b.iter(|| {
            graph.set_cells(&all[next % all.len()]);
            next += 1;
            black_box(
                searcher
                    .search(&graph, &request)
                    .map(|r| r.cost)
                    .unwrap_or(f64::NAN),
            );
        });
    });
    group.finish();
}

criterion_group!(benches, replanning);
criterion_main!(benches);
