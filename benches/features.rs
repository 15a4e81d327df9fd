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
//! Run with `cargo bench --bench features`; the data is read from `../shared/movingai`. A word
//! after `--` measures only the columns whose names hold it (and the open maps only when it is
//! part of "open map"): `cargo bench --bench features -- hex` runs plain A* and the hex column.
//! Where the hex maps are measured, a second table gives each set's hex queries: how many
//! were found, and the expansions against the square map's.

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

/// A turn penalty of 1 with A* and with Dijkstra against plain A* and plain Dijkstra on the
/// empty open maps (see [`common::open_map`]) of each side of `OPEN_SIDES` (default 2048 and
/// 4096): one run of each of two long queries, with the states expanded, and the turn
/// penalty's Dijkstra as a multiple of plain Dijkstra's time.
fn open_maps() {
    use gridpath::search::Algorithm;
    println!(
        "| open map | queries | `astar` ms | turn penalty 1, A* ms (expanded) | `dijkstra` ms (expanded) | turn penalty 1, Dijkstra ms (expanded) | × `dijkstra` |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
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
        let mut sums = [(0.0, 0.0); 4];
        for &(start, goal) in &queries {
            let request = SearchRequest::new(start, goal);
            let turning = request.clone().with_turn_penalty(1.0);
            for (sum, request) in sums.iter_mut().zip([
                request.clone(),
                turning.clone(),
                request.with_algorithm(Algorithm::Dijkstra),
                turning.with_algorithm(Algorithm::Dijkstra),
            ]) {
                let (ms, expanded) = run(request);
                sum.0 += ms;
                sum.1 += expanded;
            }
        }
        let n = queries.len() as f64;
        println!(
            "| {side}×{side} | {} | {:.1} | {:.1} ({:.0}) | {:.1} ({:.0}) | {:.1} ({:.0}) | {:.1}× |",
            queries.len(),
            sums[0].0 / n,
            sums[1].0 / n,
            sums[1].1 / n,
            sums[2].0 / n,
            sums[2].1 / n,
            sums[3].0 / n,
            sums[3].1 / n,
            sums[3].0 / sums[2].0,
        );
    }
}

/// The word after `--` that picks the columns to measure, if any.
fn filter() -> Option<String> {
    std::env::args().skip(1).find(|a| !a.starts_with('-'))
}

/// Whether the column (or table) `name` is measured under the filter.
fn wanted(name: &str) -> bool {
    filter().is_none_or(|f| name.contains(&f))
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    if wanted("open map") {
        open_maps();
    }
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
    let variants: Vec<&str> = variants.into_iter().filter(|v| wanted(v)).collect();
    print!("| set | `astar` µs |");
    for v in &variants {
        print!(" {v} µs (×) |");
    }
    println!();
    println!("|---|---:|{}", "---:|".repeat(variants.len()));
    let mut hex_rows = Vec::new();
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
        // Each column: its time per query and its ratio to A* on the same queries.
        let mut columns: Vec<(f64, f64)> = Vec::new();
        let mut unit_note = String::new();
        for &variant in &variants {
            let (time, ratio) = match variant {
                "heights" => {
                    let hills = SearchGraph::new(&with_heights(&grid, slope), Diagonal::NoCut);
                    let t = time_per_query_of(&queries, |q| plain(&hills, request(q)));
                    (t, t / base)
                }
                "heights, max climb 1" => {
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
                    let t = time_per_query_of(&queries, |q| plain(&cliffs, request(q)));
                    (t, t / base)
                }
                "turn penalty 1" => {
                    let t = time_per_query_of(&queries, |q| {
                        plain(&flat, request(q).with_turn_penalty(1.0))
                    });
                    (t, t / base)
                }
                "unit 2 × 2" => {
                    let unit = grid_for_unit(&grid, 2).expect("a unit map");
                    let unit_graph = SearchGraph::new(&unit, Diagonal::NoCut);
                    // The unit's queries: those whose ends it fits on.
                    let fitting: Vec<ScenQuery> = queries
                        .iter()
                        .filter(|q| unit.is_passable(q.start) && unit.is_passable(q.goal))
                        .cloned()
                        .collect();
                    let unit_base = time_per_query_of(&fitting, |q| plain(&flat, request(q)));
                    let t = time_per_query_of(&fitting, |q| plain(&unit_graph, request(q)));
                    unit_note = format!("; unit 2 × 2 on the {} whose ends it fits", fitting.len());
                    (t, t / unit_base)
                }
                "nearest reachable" => {
                    // Each goal walled in on a map of its own.
                    let walled: Vec<SearchGraph> = queries
                        .iter()
                        .map(|q| SearchGraph::new(&walled_in(&grid, q.goal), Diagonal::NoCut))
                        .collect();
                    let t = time_per_query_of(&queries, |q| {
                        let index = queries.iter().position(|p| p == q).unwrap_or(0);
                        plain(&walled[index], request(q).with_partial(true))
                    });
                    (t, t / base)
                }
                "via 2 waypoints" | "best order of 4" => {
                    // Other queries' starts in between.
                    let (n, order) = if variant == "via 2 waypoints" {
                        (2, RouteOrder::AsGiven)
                    } else {
                        (4, RouteOrder::Cheapest)
                    };
                    let points: Vec<Cell> = queries.iter().map(|q| q.start).collect();
                    let via = |i: usize| -> Vec<Cell> {
                        (1..=n)
                            .map(|j| points[(i + 7 * j) % points.len()])
                            .collect()
                    };
                    let t = time_per_query_of(&queries, |q| {
                        let i = queries.iter().position(|p| p == q).unwrap_or(0);
                        route(&flat, &request(q), &via(i), order, false)
                            .map_or(f64::NAN, |r| r.result.cost)
                    });
                    (t, t / base)
                }
                // The last column: the same cells read as hexes.
                _ => {
                    let hex_grid = grid.clone().with_topology(Topology::Hex(HexLayout::ODD_R));
                    let hexes = SearchGraph::new(&hex_grid, Diagonal::NoCut);
                    let t = time_per_query_of(&queries, |q| plain(&hexes, request(q)));
                    hex_rows.push(hex_counts(set, &flat, &hexes, &queries));
                    (t, t / base)
                }
            };
            columns.push((time, ratio));
        }
        print!("| {set} | {base:.0} |");
        for (t, r) in &columns {
            print!(" {t:.0} ({r:.1}×) |");
        }
        println!();
        println!("<!-- {set}: {} queries{unit_note} -->", queries.len());
    }
    if !hex_rows.is_empty() {
        println!();
        println!(
            "| set | queries | found on squares | found on hexes | expanded per query, squares | expanded per query, hexes |"
        );
        println!("|---|---:|---:|---:|---:|---:|");
        for row in hex_rows {
            println!("{row}");
        }
    }
}

/// One row of the hex table: how many of the queries A* finds on the square map and on the
/// same cells read as hexes, and the mean cells it expands per query on each.
fn hex_counts(
    set: &str,
    squares: &SearchGraph,
    hexes: &SearchGraph,
    queries: &[ScenQuery],
) -> String {
    let mut searcher = Searcher::new();
    let mut count = |graph: &SearchGraph| {
        let (mut found, mut expanded) = (0, 0u64);
        for q in queries {
            if let Ok(result) = searcher.search(graph, &SearchRequest::new(q.start, q.goal)) {
                found += usize::from(result.found);
                expanded += result.stats.expanded;
            }
        }
        (found, expanded as f64 / queries.len().max(1) as f64)
    };
    let (square_found, square_expanded) = count(squares);
    let (hex_found, hex_expanded) = count(hexes);
    format!(
        "| {set} | {} | {square_found} | {hex_found} | {square_expanded:.0} | {hex_expanded:.0} |",
        queries.len()
    )
}

/// [`common::time_per_query`] with this bench's rounds.
fn time_per_query_of(queries: &[ScenQuery], run: impl FnMut(&ScenQuery) -> f64) -> f64 {
    common::time_per_query(queries, ROUNDS, run)
}
