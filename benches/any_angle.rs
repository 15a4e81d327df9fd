//! The any-angle searches against A* on the same queries in one run: A* alone, A* and the
//! smoother's line-of-sight stage (string pulling, the part that gives a polyline), Theta* and
//! Lazy Theta*. Prints a markdown table of the time per query of each and its cost, both as
//! ratios to A*, for docs/performance.md.
//!
//! The sets are Moving AI maps (one cost per cell) and one weighted map: `den520d` with every
//! 16 × 16 block of its open ground turned to grass, road or swamp. Each set contributes
//! `QUERIES` queries spread evenly over its scenario file. Every answer is checked first (A*
//! against the file's optimum on the Moving AI maps; the any-angle costs never above A*'s);
//! then each way runs the whole sample `ROUNDS` times and the fastest round counts.
//!
//! Run with `cargo bench --bench any_angle`; the data is read from `../shared/movingai`.

use gridpath::format::movingai::{self, ScenQuery};
use gridpath::grid::{Grid, Terrain};
use gridpath::search::{Algorithm, Diagonal, SearchGraph, SearchRequest, Searcher};
use gridpath::smooth::{self, SmoothSettings};

mod common;
use common::data_dir;

/// Moving AI maps, and the weighted one (`weighted:` before the map it is made from).
const SETS: &[&str] = &[
    "dao/den520d",
    "dao/brc202d",
    "bg512/AR0011SR",
    "sc1/Aftershock",
    "rooms/8room_000",
    "cities/Berlin_0_256",
    "current_format/maze512-16-0",
    "weighted:dao/den520d",
];
const QUERIES: usize = 40;
const ROUNDS: usize = 5;

/// The map's open ground as grass, road and swamp in 16 × 16 blocks, chosen by a hash of the
/// block: the same map every run.
fn weighted(grid: &Grid) -> Grid {
    let (width, height) = (grid.width(), grid.height());
    let cells = (0..height)
        .flat_map(|y| (0..width).map(move |x| (x, y)))
        .map(|(x, y)| {
            if !grid.is_passable(gridpath::grid::Cell::new(x, y)) {
                return 3; // wall
            }
            let block = u64::from(x / 16) * 7919 + u64::from(y / 16) * 104_729;
            let hash = block.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 61;
            match hash {
                0 | 1 => 1, // road, 0.5
                2 => 2,     // swamp, 3
                _ => 0,     // grass, 1
            }
        })
        .collect();
    Grid::from_cells(width, height, Terrain::default_catalog(), cells).expect("a valid grid")
}

/// Theta*, Lazy Theta* and A* from end to end of a straight corridor of 32,767 cells (a map one
/// row high), where every cell sees the start: one run each, every cost checked against the
/// corridor's length.
fn corridor() {
    const LENGTH: u32 = 32_767;
    let grid = Grid::from_cells(
        LENGTH,
        1,
        Terrain::default_catalog(),
        vec![0; LENGTH as usize],
    )
    .expect("a valid corridor");
    let graph = SearchGraph::new(&grid, Diagonal::NoCut);
    let mut searcher = Searcher::new();
    let request = SearchRequest::new(
        gridpath::grid::Cell::new(0, 0),
        gridpath::grid::Cell::new(LENGTH - 1, 0),
    );
    let mut line = format!("any_angle corridor of {LENGTH} cells:");
    for algorithm in [Algorithm::AStar, Algorithm::Theta, Algorithm::LazyTheta] {
        let started = std::time::Instant::now();
        let result = searcher
            .search(&graph, &request.clone().with_algorithm(algorithm))
            .expect("valid endpoints");
        let ms = started.elapsed().as_secs_f64() * 1e3;
        assert!(
            (result.cost - f64::from(LENGTH - 1)).abs() < 1e-6,
            "{algorithm}"
        );
        line += &format!(
            " {algorithm} {ms:.2} ms ({} expanded);",
            result.stats.expanded
        );
    }
    println!("{line}");
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    corridor();
    let Some(dir) = data_dir() else {
        eprintln!("any_angle bench: ../shared/movingai is absent; nothing to measure");
        return;
    };
    println!(
        "| set | queries | A* µs | A* + line of sight µs (×) | Theta* µs (×) | Lazy Theta* µs (×) \
         | A* + line of sight cost ÷ A* | Theta* cost ÷ A* | Lazy Theta* cost ÷ A* |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for set in SETS {
        let (name, is_weighted) = match set.strip_prefix("weighted:") {
            Some(name) => (name, true),
            None => (*set, false),
        };
        let map = std::fs::read_to_string(dir.join(format!("{name}.map"))).expect("map file");
        let scen = std::fs::read_to_string(dir.join(format!("{name}.map.scen"))).expect("scen");
        let mut grid = movingai::parse_map(&map).expect("valid map");
        if is_weighted {
            grid = weighted(&grid);
        }
        let all = movingai::parse_scen(&scen).expect("valid scen");
        let step = (all.len() / QUERIES).max(1);
        let queries: Vec<ScenQuery> = all
            .into_iter()
            .step_by(step)
            .filter(|q| q.optimal > 0.0)
            .take(QUERIES)
            .collect();
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        let mut searcher = Searcher::new();
        let mut solve = |q: &ScenQuery, algorithm: Algorithm| {
            let request = SearchRequest::new(q.start, q.goal).with_algorithm(algorithm);
            searcher.search(&graph, &request).expect("valid query")
        };
        // Every answer first, with the costs of the table.
        let mut sums = [0.0f64; 3];
        for q in &queries {
            let astar = solve(q, Algorithm::AStar);
            assert!(
                is_weighted || q.matches(astar.cost),
                "A* mismatch on {set} line {}",
                q.line
            );
            let pulled = smooth::smooth_path(&grid, &astar.path, &SmoothSettings::default())
                .expect("smooths");
            sums[0] += pulled.cost / astar.cost;
            for (i, algorithm) in [Algorithm::Theta, Algorithm::LazyTheta]
                .into_iter()
                .enumerate()
            {
                let cost = solve(q, algorithm).cost;
                assert!(
                    cost <= astar.cost * (1.0 + 1e-9),
                    "{algorithm} dearer than A* on {set} line {}",
                    q.line
                );
                sums[i + 1] += cost / astar.cost;
            }
        }
        let astar_us = time_per_query_of(&queries, |q| solve(q, Algorithm::AStar).cost);
        let pulled_us = time_per_query_of(&queries, |q| {
            let result = solve(q, Algorithm::AStar);
            smooth::pull_string(&grid, &result.path).len() as f64
        });
        let theta_us = time_per_query_of(&queries, |q| solve(q, Algorithm::Theta).cost);
        let lazy_us = time_per_query_of(&queries, |q| solve(q, Algorithm::LazyTheta).cost);
        let n = queries.len() as f64;
        println!(
            "| {set} | {} | {astar_us:.0} | {pulled_us:.0} ({:.1}) | {theta_us:.0} ({:.1}) | {lazy_us:.0} ({:.1}) | {:.4} | {:.4} | {:.4} |",
            queries.len(),
            pulled_us / astar_us,
            theta_us / astar_us,
            lazy_us / astar_us,
            sums[0] / n,
            sums[1] / n,
            sums[2] / n,
        );
    }
}

/// [`common::time_per_query`] with this bench's rounds.
fn time_per_query_of(queries: &[ScenQuery], run: impl FnMut(&ScenQuery) -> f64) -> f64 {
    common::time_per_query(queries, ROUNDS, run)
}
