//! The contraction hierarchy's build time on generated maps, one build each, in the order
//! given: `cargo bench --bench ch_build -- weighted-512 open-512` (names `weighted-N` for
//! the weighted map of `tests/common/weighted_map.rs` of side N, seed 1, `speckled-N` for the
//! speckled one, seed 5, `open-N` for a map of one cost without walls, or the path of a
//! Moving AI `.map` file; the weighted and open maps at 256, 512 and 1024 when none is
//! named). Prints the build's time, its edges and its bytes per passable cell.

#![allow(clippy::unwrap_used, clippy::expect_used)] // A benchmark fails loudly on broken data.

use std::time::Instant;

use gridpath::grid::{Grid, Terrain};
use gridpath::search::{ContractionHierarchy, Diagonal};

#[path = "../tests/common/weighted_map.rs"]
mod weighted_map;

fn main() {
    let mut names: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if names.is_empty() {
        for kind in ["weighted", "open"] {
            for side in [256, 512, 1024] {
                names.push(format!("{kind}-{side}"));
            }
        }
    }
    for name in names {
        if name.ends_with(".map") {
            let map = gridpath::format::load_map(std::path::Path::new(&name)).unwrap();
            build(&name, &map.grid);
            continue;
        }
        let (kind, side) = name.split_once('-').expect("a name such as weighted-512");
        let side: u32 = side.parse().expect("a side such as 512");
        let grid = match kind {
            "weighted" => weighted_map::weighted_map(side, 1),
            "speckled" => weighted_map::speckled_map(side, 5),
            "open" => Grid::new(side, side, Terrain::default_catalog(), 0).unwrap(),
            _ => panic!("unknown map kind {kind}: weighted, speckled or open"),
        };
        build(&name, &grid);
    }
}

/// Builds the hierarchy of `grid` and prints what it took.
fn build(name: &str, grid: &Grid) {
    let passable = (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| gridpath::grid::Cell::new(x, y)))
        .filter(|&c| grid.is_passable(c))
        .count();
    let started = Instant::now();
    let ch = ContractionHierarchy::build(grid, Diagonal::NoCut);
    let took = started.elapsed();
    println!(
        "{name}: build {:.2} s, {} edges searched, {:.1} bytes per passable cell",
        took.as_secs_f64(),
        ch.edge_count(),
        ch.hierarchy_bytes() as f64 / passable.max(1) as f64
    );
}
