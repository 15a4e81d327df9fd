//! HPA* against A* on generated 4096 × 4096 maps: a random map (22% of the cells walls), a map
//! of 64 × 64 rooms joined by doors, and a scaled-up random map (a 512 × 512 map with 20%
//! walls, each cell an 8 × 8 block). Prints the preprocessing time, the size of the
//! abstraction, the per-query times (the fastest of three rounds over all the queries) and the
//! cost ratios to the optimum, then runs criterion on a few of the queries for both.
//! `HPA_BENCH_MAPS=random` (or `rooms`, `random-scaled`) runs one map alone.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use gridpath::grid::{Cell, Grid, Terrain, TerrainId};
use gridpath::search::{
    Algorithm, DEFAULT_CLUSTER_SIZE, Diagonal, HpaGraph, Refinement, SearchGraph, SearchRequest,
    Searcher,
};

const SIDE: u32 = 4096;
const FLOOR: TerrainId = 0;
const WALL: TerrainId = 3;
/// Queries per map in the printed summary.
const QUERIES: usize = 12;

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
fn fastest(mut run: impl FnMut()) -> Duration {
    (0..ROUNDS)
        .map(|_| {
            let t = Instant::now();
            run();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn summary(name: &str, grid: &Grid, pairs: &[(Cell, Cell)]) {
    let graph = SearchGraph::new(grid, Diagonal::NoCut);
    let t = Instant::now();
    let mut hpa = HpaGraph::from_graph(graph.clone(), DEFAULT_CLUSTER_SIZE);
    let build = t.elapsed();
    println!(
        "hpa summary {name}: preprocessing {:.0} ms, {} nodes, {} edges, abstraction ≈ {:.1} MB \
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
    for refinement in [Refinement::Corridor, Refinement::Edges] {
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
        println!(
            "hpa summary {name} ({refinement:?}): {} queries, A* {:.1} ms/query, HPA* {:.2} ms/query, \
             speed-up {:.1}×, cost/optimal mean {:.4}, worst {:.4}, {} found/not-found disagreements",
            pairs.len(),
            astar_time.as_secs_f64() * 1e3 / q,
            time.as_secs_f64() * 1e3 / q,
            astar_time.as_secs_f64() / time.as_secs_f64(),
            ratio_sum / n.max(1) as f64,
            worst,
            disagree
        );
    }
}

fn hpa_vs_astar(c: &mut Criterion) {
    let mut rng = XorShift(0x4b1d_2024);
    let mut maps = vec![
        ("random", random_map(&mut rng)),
        ("rooms", rooms_map(&mut rng)),
    ];
    // Its own generator, so that the other maps' queries stay what they were.
    maps.push((
        "random-scaled",
        scaled_random_map(&mut XorShift(0x5ca1_ed20)),
    ));
    let only = std::env::var("HPA_BENCH_MAPS").ok();
    for (name, grid) in &maps {
        if only.as_deref().is_some_and(|o| o != *name) {
            continue;
        }
        let pairs = queries(grid, &mut rng, QUERIES);
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
