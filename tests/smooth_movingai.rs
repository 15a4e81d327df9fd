//! Smoothing on Moving AI benchmark maps: every curve stays out of the walls.

mod common;

use std::path::Path;

use gridpath::format::{load_map, movingai};
use gridpath::grid::Cell;
use gridpath::search::{SearchGraph, SearchRequest, Searcher};
use gridpath::smooth::{self, Point, SmoothSettings};

const MAPS: [&str; 4] = [
    "dao/arena.map",
    "rooms/8room_000.map",
    "mazes/maze512-1-0.map",
    "random/random512-40-0.map",
];

#[test]
fn benchmark_paths_smooth_without_touching_walls() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/movingai");
    if !root.is_dir() {
        common::skip(&format!("no Moving AI benchmark at {}", root.display()));
        return;
    }
    let settings = SmoothSettings::default();
    let mut checked = 0;
    for name in MAPS {
        let map_path = root.join(name);
        let map = load_map(&map_path).expect("a benchmark map");
        let scen =
            std::fs::read_to_string(root.join(format!("{name}.scen"))).expect("its scenario");
        let queries = movingai::parse_scen(&scen).expect("a valid scenario");
        let graph = SearchGraph::new(&map.grid, Default::default());
        let mut searcher = Searcher::new();
        // Every 60th query: all lengths of path, short to long.
        for query in queries.iter().step_by(60) {
            let request = SearchRequest::new(query.start, query.goal);
            let result = searcher.search(&graph, &request).expect("valid request");
            assert!(result.found, "{name} line {}", query.line);
            let smoothed =
                smooth::smooth_path(&map.grid, &result.path, &settings).expect("smooths");
            assert!(smoothed.cost <= result.cost * (1.0 + smooth::COST_TOLERANCE));
            assert_eq!(smoothed.beziers[0].start(), Point::centre(query.start));
            assert_eq!(
                smoothed
                    .beziers
                    .last()
                    .map(gridpath::smooth::CubicBezier::end),
                Some(Point::centre(query.goal))
            );
            for curve in &smoothed.beziers {
                for p in curve.samples(0.01) {
                    let (x, y) = p.cell_in_grid();
                    assert!(
                        map.grid.contains(x, y)
                            && map.grid.is_passable(Cell::new(x as u32, y as u32)),
                        "{name} line {}: {p:?} lies in a wall",
                        query.line
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked > 30, "only {checked} queries checked");
}
