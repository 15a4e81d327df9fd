//! What an edit costs before the search starts, on a 4096 × 4096 map with 22% random walls:
//! one cell changed through `Replanner::apply` (the graph's masks around it and a kept D* Lite
//! state repaired), against building the search graph again from the grid, which is what a
//! planner without deltas does for every edit.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
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

criterion_group!(benches, edits);
criterion_main!(benches);
