//! HPA* against A* on generated maps. Prints, per map, the preprocessing time, the size of
//! the abstraction, the per-query times (the fastest of three rounds over all the queries) and
//! the cost ratios to the optimum for each refinement.
//!
//! - Weighted terrain at 256², 512² and 1024² (`weighted-256`, `weighted-512`,
//!   `weighted-1024`): patches of grass, forest and swamp, lakes, scattered walls and fences,
//!   roads across (`tests/common/weighted_map.rs`); random query pairs. Summary only.
//! - A 256² map whose every cell's terrain is drawn at random (`speckled-256`), the worst
//!   case for entrances placed by cost. Summary only.
//! - Uniform 4096² maps, far-apart queries: a random map (22% of the cells walls, `random`), a
//!   map of 64 × 64 rooms joined by doors (`rooms`), and a scaled-up random map (a 512 × 512
//!   map with 20% walls, each cell an 8 × 8 block, `random-scaled`). After the summary,
//!   criterion times a few of their queries for both.
//!
//! `HPA_BENCH_MAPS=weighted-256,rooms` (names separated by commas, or a prefix such as
//! `weighted`) runs some maps alone.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use gridpath::grid::{Cell, Grid, Terrain, TerrainId};
use gridpath::search::{
    Algorithm, DEFAULT_CLUSTER_SIZE, Diagonal, HpaGraph, Refinement, SearchGraph, SearchRequest,
    Searcher,
};

mod common;
#[path = "../tests/common/weighted_map.rs"]
mod weighted_map;

use weighted_map::XorShift;

const SIDE: u32 = 4096;
const FLOOR: TerrainId = 0;
const WALL: TerrainId = 3;
/// Queries per uniform 4096² map in the printed summary.
const QUERIES: usize = 12;

fn random_map(rng: &mut XorShift) -> Grid {
    let cells: Vec<TerrainId> = (0..SIDE * SIDE)
        .map(|_| if rng.below(100) < 22 { WALL } else { FLOOR })
        .collect();
    Grid::from_cells(SIDE, SIDE, Terrain::default_catalog(), cells).expect("a valid map")
}

/// A scaled-up random map: a 512 × 512 map with 20% of its cells walls (like the Moving AI
/// `random512-20` maps), each cell drawn as an 8 × 8 block.
fn scaled_random_map(rng: &mut XorShift) -> Grid {
    const SMALL: u32 = 512;
    let scale = SIDE / SMALL;
    let small: Vec<bool> = (0..SMALL * SMALL).map(|_| rng.below(100) < 20).collect();
    let cells: Vec<TerrainId> = (0..SIDE * SIDE)
        .map(|i| {
            let (x, y) = (i % SIDE / scale, i / SIDE / scale);
            if small[(y * SMALL + x) as usize] {
                WALL
            } else {
                FLOOR
            }
        })
        .collect();
    Grid::from_cells(SIDE, SIDE, Terrain::default_catalog(), cells).expect("a valid map")
}

/// Rooms of 64 × 64 cells; each wall between two rooms has one or two doors of 1 to 8 cells
/// at random places, and one room in ten is missing a wall.
fn rooms_map(rng: &mut XorShift) -> Grid {
    const ROOM: u32 = 64;
    let mut cells = vec![FLOOR; (SIDE * SIDE) as usize];
    let at = |x: u32, y: u32| (y * SIDE + x) as usize;
    for y in 0..SIDE {
        for x in 0..SIDE {
            if x % ROOM == 0 || y % ROOM == 0 {
                cells[at(x, y)] = WALL;
            }
        }
    }
    let rooms = SIDE / ROOM;
    for ry in 0..rooms {
        for rx in 0..rooms {
            let (x0, y0) = (rx * ROOM, ry * ROOM);
            for vertical in [true, false] {
                let open_all = rng.below(10) == 0;
                let doors = 1 + rng.below(2);
                for _ in 0..doors {
                    let width = 1 + rng.below(8);
                    let offset = 1 + rng.below(ROOM - 1 - width);
                    for i in 0..ROOM {
                        let door = open_all || (offset..offset + width).contains(&i);
                        if !door || (vertical && x0 == 0) || (!vertical && y0 == 0) {
                            continue;
                        }
                        let (x, y) = if vertical { (x0, y0 + i) } else { (x0 + i, y0) };
                        if i > 0 {
                            cells[at(x, y)] = FLOOR;
                        }
                    }
                }
            }
        }
    }
    Grid::from_cells(SIDE, SIDE, Terrain::default_catalog(), cells).expect("a valid map")
}

/// Query pairs far apart on passable cells.
fn queries(grid: &Grid, rng: &mut XorShift, count: usize) -> Vec<(Cell, Cell)> {
    let mut out = Vec::new();
    while out.len() < count {
        let a = Cell::new(rng.below(SIDE), rng.below(SIDE));
        let b = Cell::new(rng.below(SIDE), rng.below(SIDE));
        let far = a.x.abs_diff(b.x) + a.y.abs_diff(b.y) > SIDE / 2;
        if far && grid.is_passable(a) && grid.is_passable(b) {
            out.push((a, b));
        }
    }
    out
}

/// Rounds of every query in the printed summary; the fastest counts.
const ROUNDS: usize = 3;

/// The shortest time of `ROUNDS` runs of `run`.
fn fastest(run: impl FnMut()) -> Duration {
    common::fastest(ROUNDS, run)
}

/// The refinements a summary measures; the default picks one of them.
const REFINEMENTS: [Refinement; 2] = [Refinement::Corridor, Refinement::Edges];

fn summary(name: &str, grid: &Grid, pairs: &[(Cell, Cell)]) {
    let graph = SearchGraph::new(grid, Diagonal::NoCut);
    let t = Instant::now();
    let mut hpa = HpaGraph::from_graph(graph.clone(), DEFAULT_CLUSTER_SIZE);
    let build = t.elapsed();
    println!(
        "hpa summary {name}: preprocessing {:.1} ms, {} nodes, {} edges, abstraction ≈ {:.2} MB \
         (the search graph itself ≈ {:.1} MB)",
        build.as_secs_f64() * 1e3,
        hpa.node_count(),
        hpa.edge_count(),
        hpa.abstraction_bytes() as f64 / 1e6,
        graph.len() as f64 * 2.0 / 1e6,
    );
    let mut searcher = Searcher::new();
    let optimal: Vec<_> = pairs
        .iter()
        .map(|&(a, b)| {
            searcher
                .search(&graph, &SearchRequest::new(a, b))
                .expect("valid query")
        })
        .collect();
    // The fastest of a few rounds over all the queries: the machine is shared and noisy.
    let astar_time = fastest(|| {
        for &(a, b) in pairs {
            let r = searcher.search(&graph, &SearchRequest::new(a, b));
            black_box(r.map(|r| r.cost).unwrap_or(f64::NAN));
        }
    });
    let default = hpa.refinement();
    let chosen = hpa.effective_refinement();
    for refinement in REFINEMENTS {
        hpa.set_refinement(refinement);
        let time = fastest(|| {
            for &(a, b) in pairs {
                let request = SearchRequest::new(a, b).with_algorithm(Algorithm::Hpa);
                black_box(hpa.find_path(&request).map(|r| r.cost).unwrap_or(f64::NAN));
            }
        });
        let (mut ratio_sum, mut worst, mut n, mut disagree) = (0.0, 1.0f64, 0usize, 0usize);
        for (&(a, b), best) in pairs.iter().zip(&optimal) {
            let request = SearchRequest::new(a, b).with_algorithm(Algorithm::Hpa);
            let r = hpa.find_path(&request).expect("valid query");
            if r.found != best.found {
                disagree += 1;
            }
            if r.found && best.found && best.cost > 0.0 {
                let ratio = r.cost / best.cost;
                ratio_sum += ratio;
                worst = worst.max(ratio);
                n += 1;
            }
        }
        let q = pairs.len() as f64;
        let marker = if refinement == chosen {
            ", default"
        } else {
            ""
        };
        println!(
            "hpa summary {name} ({refinement:?}{marker}): {} queries ({n} with a path), A* {:.3} ms/query, \
             HPA* {:.3} ms/query, speed-up {:.1}×, cost/optimal mean {:.4}, worst {:.4}, \
             {} found/not-found disagreements",
            pairs.len(),
            astar_time.as_secs_f64() * 1e3 / q,
            time.as_secs_f64() * 1e3 / q,
            astar_time.as_secs_f64() / time.as_secs_f64(),
            ratio_sum / n.max(1) as f64,
            worst,
            disagree
        );
    }
    hpa.set_refinement(default);
}

/// Whether `HPA_BENCH_MAPS` asks for map `name` (every map when it is not set).
fn wanted(name: &str) -> bool {
    std::env::var("HPA_BENCH_MAPS").map_or(true, |list| {
        list.split(',')
            .map(str::trim)
            .any(|w| !w.is_empty() && name.starts_with(w))
    })
}

/// The weighted maps and their query counts: fewer queries on larger maps, where each A*
/// takes longer.
const WEIGHTED: [(u32, usize); 3] = [(256, 400), (512, 200), (1024, 100)];

fn weighted_maps() {
    for (side, count) in WEIGHTED {
        let name = format!("weighted-{side}");
        if !wanted(&name) {
            continue;
        }
        let grid = weighted_map::weighted_map(side, 0x7e11_a000 + u64::from(side));
        let pairs = weighted_map::query_pairs(&grid, 0x9e3_7790 + u64::from(side), count);
        summary(&name, &grid, &pairs);
    }
    if wanted("speckled-256") {
        let grid = weighted_map::speckled_map(256, 0x5bec_1ed0);
        let pairs = weighted_map::query_pairs(&grid, 0x9e3_7791, 400);
        summary("speckled-256", &grid, &pairs);
    }
}

fn hpa_vs_astar(c: &mut Criterion) {
    weighted_maps();
    let mut rng = XorShift(0x4b1d_2024);
    let uniform = ["random", "rooms", "random-scaled"];
    if !uniform.iter().any(|name| wanted(name)) {
        return;
    }
    let mut maps = vec![
        ("random", random_map(&mut rng)),
        ("rooms", rooms_map(&mut rng)),
    ];
    // Its own generator, so that the other maps' queries stay what they were.
    maps.push((
        "random-scaled",
        scaled_random_map(&mut XorShift(0x5ca1_ed20)),
    ));
    for (name, grid) in &maps {
        // Drawn for every map, so that each map's queries stay the same when others are
        // left out.
        let pairs = queries(grid, &mut rng, QUERIES);
        if !wanted(name) {
            continue;
        }
        summary(name, grid, &pairs);
        let graph = SearchGraph::new(grid, Diagonal::NoCut);
        let mut hpa = HpaGraph::from_graph(graph.clone(), DEFAULT_CLUSTER_SIZE);
        let few = &pairs[..3];
        let mut group = c.benchmark_group(format!("hpa_vs_astar_4096/{name}"));
        group.sample_size(10);
        group.measurement_time(Duration::from_secs(10));
        let mut searcher = Searcher::new();
        group.bench_function("astar", |b| {
            b.iter(|| {
                for &(a, g) in few {
                    let r = searcher.search(&graph, &SearchRequest::new(a, g));
                    black_box(r.map(|r| r.cost).unwrap_or(f64::NAN));
                }
            });
        });
        group.bench_function("hpa", |b| {
            b.iter(|| {
                for &(a, g) in few {
                    let request = SearchRequest::new(a, g).with_algorithm(Algorithm::Hpa);
                    black_box(hpa.find_path(&request).map(|r| r.cost).unwrap_or(f64::NAN));
                }
            });
        });
        group.finish();
    }
}

criterion_group!(benches, hpa_vs_astar);
criterion_main!(benches);
