//! What an edit costs before the search starts, on a 4096 × 4096 map with 22% random walls:
//! one cell changed through `Replanner::apply` (the graph's masks around it and a kept D* Lite
//! state repaired), against building the search graph again from the grid, which is what a
//! planner without deltas does for every edit.
//!
//! Then (`stroke` in the filter, or no filter) a table: on a 1024 × 1024 map of rooms, how
//! long after a brush stroke (a 5 × 5 square painted with wall, then painted back) each
//! preprocessed algorithm gives its next answer — its tables updated in place (JPS+, HPA*),
//! built again whole in place (the subgoal graph, the contraction hierarchy), or built in the
//! background while A* answers (`Replanner::build_in_background`) — with the time the
//! background build itself takes.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group};
use gridpath::grid::{Cell, Grid, Terrain, TerrainId};
use gridpath::search::{
    Algorithm, CellChange, Diagonal, Replanner, SearchControl, SearchGraph, SearchRequest,
};

const SIDE: u32 = 4096;
const FLOOR: TerrainId = 0;
const WALL: TerrainId = 3;

fn map() -> Grid {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let cells: Vec<TerrainId> = (0..SIDE * SIDE)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if state % 100 < 22 { WALL } else { FLOOR }
        })
        .collect();
    let mut grid = Grid::from_cells(SIDE, SIDE, Terrain::default_catalog(), cells)
        .expect("a valid generated map");
    for c in [
        Cell::new(1, 1),
        Cell::new(SIDE - 2, SIDE - 2),
        Cell::new(SIDE / 2, SIDE / 2),
    ] {
        grid.set(c, FLOOR);
    }
    grid
}

fn edits(c: &mut Criterion) {
    let grid = map();
    let mut group = c.benchmark_group("edit_4096");
    group.sample_size(10);

    let mut replanner = Replanner::new(grid.clone(), Diagonal::NoCut);
    let mut toggle = false;
    let cell = Cell::new(SIDE / 2, SIDE / 2);
    group.bench_function("apply one cell", |b| {
        b.iter(|| {
            toggle = !toggle;
            let terrain = if toggle { WALL } else { FLOOR };
            replanner.apply(black_box(&[CellChange::new(cell, terrain)]));
        });
    });

    // With D* Lite's state kept: the repair of the costs around the cell is in the apply.
    let request = SearchRequest::new(Cell::new(1, 1), Cell::new(SIDE - 2, SIDE - 2))
        .with_algorithm(Algorithm::DStarLite);
    replanner.apply(&[CellChange::new(cell, FLOOR)]);
    replanner
        .plan(&request, &SearchControl::new())
        .expect("plans");
    let near = Cell::new(SIDE / 3, SIDE / 3);
    group.bench_function("apply one cell, D* Lite kept", |b| {
        b.iter(|| {
            toggle = !toggle;
            let terrain = if toggle { WALL } else { FLOOR };
            replanner.apply(black_box(&[CellChange::new(near, terrain)]));
        });
    });

    group.bench_function("rebuild the graph", |b| {
        b.iter(|| black_box(SearchGraph::new(black_box(&grid), Diagonal::NoCut)));
    });
    group.finish();
}

/// The map of the stroke table: rooms of 64 × 64 cells whose walls have a doorway of four
/// cells in each side, and one cell in 40 a pillar.
fn rooms() -> Grid {
    const ROOMS_SIDE: u32 = 1024;
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let cells: Vec<TerrainId> = (0..ROOMS_SIDE * ROOMS_SIDE)
        .map(|i| {
            let (x, y) = (i % ROOMS_SIDE, i / ROOMS_SIDE);
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let door = |along: u32| (28..32).contains(&(along % 64));
            let wall = (x % 64 == 0 && !door(y)) || (y % 64 == 0 && !door(x));
            if wall || state.is_multiple_of(40) {
                WALL
            } else {
                FLOOR
            }
        })
        .collect();
    Grid::from_cells(ROOMS_SIDE, ROOMS_SIDE, Terrain::default_catalog(), cells)
        .expect("a valid generated map")
}

/// A 5 × 5 square of `terrain` at (`x`, `y`).
fn stroke(x: u32, y: u32, terrain: TerrainId) -> Vec<CellChange> {
    (0..25)
        .map(|k| CellChange::new(Cell::new(x + k % 5, y + k / 5), terrain))
        .collect()
}

/// Milliseconds since `t`.
fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// The stroke table (see the module documentation).
fn strokes() {
    let grid = rooms();
    let (start, goal) = (Cell::new(3, 3), Cell::new(1019, 1018));
    let control = SearchControl::new();
    println!(
        "\nAfter a 5 × 5 stroke on a 1024² map of rooms: the next answer (fastest of the rounds)\n"
    );
    println!("| algorithm | how it keeps up | next answer ms | background build ms | rounds |");
    println!("| --- | --- | ---: | ---: | ---: |");
    {
        let mut replanner = Replanner::new(grid.clone(), Diagonal::NoCut);
        let request = SearchRequest::new(start, goal);
        let mut best = f64::INFINITY;
        for round in 0..5 {
            let t = Instant::now();
            replanner.apply(&stroke(500, 500, if round % 2 == 0 { WALL } else { FLOOR }));
            replanner.plan(&request, &control).expect("plans");
            best = best.min(ms(t));
        }
        println!("| `astar` | nothing kept | {best:.1} | — | 5 |");
    }
    for (algorithm, name, rounds) in [
        (Algorithm::JpsPlus, "jps-plus", 5),
        (Algorithm::Jps, "jps", 5),
        (Algorithm::Hpa, "hpa", 5),
        (Algorithm::Subgoal, "subgoal", 3),
        (Algorithm::ContractionHierarchy, "ch", 1),
    ] {
        let request = SearchRequest::new(start, goal).with_algorithm(algorithm);
        // In place: the next plan after the stroke updates or builds what it needs.
        let mut replanner = Replanner::new(grid.clone(), Diagonal::NoCut);
        replanner.plan(&request, &control).expect("plans");
        let mut best = f64::INFINITY;
        for round in 0..rounds {
            let t = Instant::now();
            replanner.apply(&stroke(500, 500, if round % 2 == 0 { WALL } else { FLOOR }));
            black_box(replanner.plan(&request, &control).expect("plans"));
            best = best.min(ms(t));
        }
        let how = match algorithm {
            Algorithm::JpsPlus => "jump distances updated along the stroke's lines",
            Algorithm::Jps => "bit lines updated at the stroke's cells",
            Algorithm::Hpa => "the clusters touched built again",
            _ => "built again whole",
        };
        println!("| `{name}` | {how} | {best:.1} | — | {rounds} |");
        if !matches!(
            algorithm,
            Algorithm::Subgoal | Algorithm::ContractionHierarchy
        ) {
            continue;
        }
        // In the background: A* answers at once; the build's own time is measured to the
        // plan that finds it built.
        let mut replanner = Replanner::new(grid.clone(), Diagonal::NoCut);
        let (tx, wakes) = std::sync::mpsc::channel();
        let tx = std::sync::Mutex::new(tx);
        replanner.build_in_background(std::sync::Arc::new(move || {
            let _ = tx.lock().map(|tx| tx.send(()));
        }));
        let (mut answer, mut build) = (f64::INFINITY, f64::INFINITY);
        for round in 0..rounds {
            let t = Instant::now();
            replanner.apply(&stroke(500, 500, if round % 2 == 0 { WALL } else { FLOOR }));
            black_box(replanner.plan(&request, &control).expect("plans"));
            answer = answer.min(ms(t));
            assert!(replanner.take_stand_in().is_some(), "A* stands in");
            loop {
                wakes.recv().expect("the build ends");
                replanner.plan(&request, &control).expect("plans");
                if replanner.take_stand_in().is_none() {
                    break;
                }
            }
            if let Some(took) = replanner.take_background_build_time() {
                build = build.min(took.as_secs_f64() * 1e3);
            }
        }
        println!(
            "| `{name}` | built again in the background, A* answers | {answer:.1} | {build:.1} | {rounds} |"
        );
    }
}

criterion_group!(benches, edits);

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if std::env::args().any(|a| a == "--list") {
        benches();
        return;
    }
    if filter.is_empty() || filter.iter().any(|f| "edit_4096".contains(f.as_str())) {
        benches();
        Criterion::default().configure_from_args().final_summary();
    }
    if filter.is_empty() || filter.iter().any(|f| f.contains("stroke")) {
        strokes();
    }
}
