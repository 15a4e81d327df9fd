//! What each way of moving costs against plain A* on the same Moving AI queries, in one run:
//! heights and slopes, a cliff limit, a turn penalty, a unit of 2 × 2 cells, the nearest
//! reachable cell when the goal is walled in, routes through waypoints (in the order given,
//! and in the cheapest order), and the same map read as hexes (each cell kept in its row and
//! column, odd rows pushed right: Tiled's staggeraxis y, staggerindex odd) with the same
//! queries, where a query's goal may lie farther or out of reach. Prints a markdown table of the time per query of each
//! and its ratio to A* on the same queries.
//!
//! Each set contributes `QUERIES` queries spread evenly over its scenario file; each variant
//! runs the whole sample `ROUNDS` times and the fastest round counts. The heights are a
//! smooth synthetic relief (sums of sines, 0 to 12 units), the same for every set.
//!
//! Run with `cargo bench --bench features`; the data is read from `../shared/movingai`.

use gridpath::format::movingai::ScenQuery;
use gridpath::grid::{Cell, Grid, HexLayout, Slope, Topology};
use gridpath::search::{
    Diagonal, RouteOrder, SearchGraph, SearchRequest, Searcher, grid_for_unit, route,
};

mod common;

const SETS: &[&str] = &["dao/den520d", "bg512/AR0011SR", "rooms/64room_000"];
const QUERIES: usize = 40;
const ROUNDS: usize = 3;

/// The grid with a smooth relief of hills and valleys and the given rules.
fn with_heights(grid: &Grid, slope: Slope) -> Grid {
    let mut hilly = grid.clone();
    let heights = (0..grid.len())
        .map(|i| {
            let c = grid.cell_at(i);
            let (x, y) = (f64::from(c.x), f64::from(c.y));
            (6.0 + 3.0 * (x / 23.0).sin() + 3.0 * (y / 31.0).cos() + 1.5 * ((x + y) / 11.0).sin())
                .max(0.0) as f32
        })
        .collect();
    hilly.set_heights(Some(heights)).expect("heights in range");
    hilly.set_slope(slope).expect("valid rules");
    hilly
}

/// A cell's passable neighbours walled off, so that the cell cannot be reached.
fn walled_in(grid: &Grid, goal: Cell) -> Grid {
    let wall = grid
        .terrains()
        .iter()
        .position(|t| !t.is_passable())
        .expect("a wall terrain") as u8;
    let mut walled = grid.clone();
    for dy in -1i64..=1 {
        for dx in -1i64..=1 {
            let (x, y) = (i64::from(goal.x) + dx, i64::from(goal.y) + dy);
            if (dx, dy) != (0, 0) && grid.contains(x, y) {
                walled.set(Cell::new(x as u32, y as u32), wall);
            }
        }
    }
    walled
}

/// A turn penalty of 1 with A* and with Dijkstra against plain A* on the empty open maps
/// (see [`common::open_map`]) of each side of `OPEN_SIDES` (default 2048 and 4096): one run
/// of each of two long queries, with the states expanded.
fn open_maps() {
    use gridpath::search::Algorithm;
    println!(
        "| open map | queries | `astar` ms | turn penalty 1, A* ms (expanded) | turn penalty 1, Dijkstra ms (expanded) |"
    );
    println!("| --- | ---: | ---: | ---: | ---: |");
    for side in common::open_sides(&[2048, 4096]) {
        let grid = common::open_map(side, false);
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        let mut searcher = Searcher::new();
        // Two queries: Dijkstra reaches much of the map whichever they are.
        let queries: Vec<_> = common::open_queries(side).into_iter().take(2).collect();
        let mut run = |request: SearchRequest| {
            let t = std::time::Instant::now();
            let result = searcher.search(&graph, &request).expect("valid query");
            assert!(result.found, "the open map is connected");
            (
                t.elapsed().as_secs_f64() * 1e3,
                result.stats.expanded as f64,
            )
        };
        let mut sums = [(0.0, 0.0); 3];
        for &(start, goal) in &queries {
            let request = SearchRequest::new(start, goal);
            let turning = request.clone().with_turn_penalty(1.0);
            for (sum, request) in sums.iter_mut().zip([
                request,
                turning.clone(),
                turning.with_algorithm(Algorithm::Dijkstra),
            ]) {
                let (ms, expanded) = run(request);
                sum.0 += ms;
                sum.1 += expanded;
            }
        }
        let n = queries.len() as f64;
        println!(
            "| {side}×{side} | {} | {:.1} | {:.1} ({:.0}) | {:.1} ({:.0}) |",
            queries.len(),
            sums[0].0 / n,
            sums[1].0 / n,
            sums[1].1 / n,
            sums[2].0 / n,
            sums[2].1 / n,
        );
    }
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    open_maps();
    let Some(dir) = common::movingai_bench("features") else {
        return;
    };
    let variants = [
        "heights",
        "heights, max climb 1",
        "turn penalty 1",
        "unit 2 × 2",
        "nearest reachable",
        "via 2 waypoints",
        "best order of 4",
        "hex (odd-r)",
    ];
    print!("| set | `astar` µs |");
    for v in variants {
        print!(" {v} µs (×) |");
    }
    println!();
    println!("|---|---:|{}", "---:|".repeat(variants.len()));
    for set in SETS {
        let (grid, queries) = common::load_set(&dir, set, QUERIES);
        let request = |q: &ScenQuery| SearchRequest::new(q.start, q.goal);
        let mut searcher = Searcher::new();
        let mut plain = |graph: &SearchGraph, r: SearchRequest| {
            searcher.search(graph, &r).map_or(f64::NAN, |r| r.cost)
        };
        let flat = SearchGraph::new(&grid, Diagonal::NoCut);
        let base = time_per_query_of(&queries, |q| plain(&flat, request(q)));
        let slope = Slope {
            uphill: 1.0,
            downhill: 0.5,
            max_climb: None,
        };
        let hills = SearchGraph::new(&with_heights(&grid, slope), Diagonal::NoCut);
        let cliffs = SearchGraph::new(
            &with_heights(
                &grid,
                Slope {
                    max_climb: Some(1.0),
                    ..slope
                },
            ),
            Diagonal::NoCut,
        );
        let unit = grid_for_unit(&grid, 2).expect("a unit map");
        let unit_graph = SearchGraph::new(&unit, Diagonal::NoCut);
        let mut times: Vec<f64> = vec![
            time_per_query_of(&queries, |q| plain(&hills, request(q))),
            time_per_query_of(&queries, |q| plain(&cliffs, request(q))),
            time_per_query_of(&queries, |q| {
                plain(&flat, request(q).with_turn_penalty(1.0))
            }),
        ];
        let mut ratios: Vec<f64> = times.iter().map(|t| t / base).collect();
        // The unit's queries: those whose ends it fits on.
        let fitting: Vec<ScenQuery> = queries
            .iter()
            .filter(|q| unit.is_passable(q.start) && unit.is_passable(q.goal))
            .cloned()
            .collect();
        let unit_base = time_per_query_of(&fitting, |q| plain(&flat, request(q)));
        let unit_time = time_per_query_of(&fitting, |q| plain(&unit_graph, request(q)));
        times.push(unit_time);
        ratios.push(unit_time / unit_base);
        // Nearest reachable: each goal walled in on a map of its own.
        let walled: Vec<SearchGraph> = queries
            .iter()
            .map(|q| SearchGraph::new(&walled_in(&grid, q.goal), Diagonal::NoCut))
            .collect();
        times.push(time_per_query_of(&queries, |q| {
            let index = queries.iter().position(|p| p == q).unwrap_or(0);
            plain(&walled[index], request(q).with_partial(true))
        }));
        // Waypoints: two queries' starts in between.
        let points: Vec<Cell> = queries.iter().map(|q| q.start).collect();
        let via = |i: usize, n: usize| -> Vec<Cell> {
            (1..=n)
                .map(|j| points[(i + 7 * j) % points.len()])
                .collect()
        };
        times.push(time_per_query_of(&queries, |q| {
            let i = queries.iter().position(|p| p == q).unwrap_or(0);
            route(&flat, &request(q), &via(i, 2), RouteOrder::AsGiven, false)
                .map_or(f64::NAN, |r| r.result.cost)
        }));
        times.push(time_per_query_of(&queries, |q| {
            let i = queries.iter().position(|p| p == q).unwrap_or(0);
            route(&flat, &request(q), &via(i, 4), RouteOrder::Cheapest, false)
                .map_or(f64::NAN, |r| r.result.cost)
        }));
        let hexes = SearchGraph::new(
            &grid.clone().with_topology(Topology::Hex(HexLayout::ODD_R)),
            Diagonal::NoCut,
        );
        times.push(time_per_query_of(&queries, |q| plain(&hexes, request(q))));
        for t in &times[ratios.len()..] {
            ratios.push(t / base);
        }
        print!("| {set} | {base:.0} |");
        for (t, r) in times.iter().zip(&ratios) {
            print!(" {t:.0} ({r:.1}×) |");
        }
        println!();
        println!(
            "<!-- {set}: {} queries; unit 2 × 2 on the {} whose ends it fits -->",
            queries.len(),
            fitting.len()
        );
    }
}

/// [`common::time_per_query`] with this bench's rounds.
fn time_per_query_of(queries: &[ScenQuery], run: impl FnMut(&ScenQuery) -> f64) -> f64 {
    common::time_per_query(queries, ROUNDS, run)
}
