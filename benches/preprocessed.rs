//! The searches that prepare the map, JPS+, the subgoal graph and the contraction hierarchy,
//! against `astar` and `jps` on every Moving AI scenario set: the time to build their tables,
//! the subgoal graph's size, and the time per query of the five on the same queries, with the
//! fastest of them. Prints a markdown table for docs/performance.md.
//!
//! Each set contributes `QUERIES` queries spread evenly over its scenario file; every answer
//! is checked against the file's optimum first. Each algorithm then runs the whole sample for
//! `MIN_ROUNDS` to `MAX_ROUNDS` rounds (until `BUDGET` is spent) and the fastest round counts.
//! A build time is the fastest of `BUILDS` builds on a fresh graph (of one build when that
//! took over a second).
//!
//! Run with `cargo bench --bench preprocessed`; the data is read from `../shared/movingai`.
//! `PREPROCESSED_SETS=random512,8room` runs the sets whose paths contain one of the words.

use std::hint::black_box;
use std::time::{Duration, Instant};

use gridpath::format::movingai::{self, ScenQuery};
use gridpath::grid::Cell;
use gridpath::search::{
    Algorithm, ContractionHierarchy, Diagonal, SearchGraph, SearchRequest, Searcher,
};

mod common;
#[path = "../tests/common/scenario_sets.rs"]
mod scenario_sets;
use scenario_sets::scenario_sets;

const QUERIES: usize = 60;
const MIN_ROUNDS: usize = 3;
const MAX_ROUNDS: usize = 15;
const BUDGET: Duration = Duration::from_secs(1);
const BUILDS: usize = 7;

/// The fastest of `BUILDS` runs of `build` on a fresh graph, in ms (one run when it takes
/// over a second).
fn build_ms(grid: &gridpath::grid::Grid, build: impl Fn(&SearchGraph)) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..BUILDS {
        let graph = SearchGraph::new(grid, Diagonal::NoCut);
        let t = Instant::now();
        build(&graph);
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
        black_box(&graph);
        if best > 1e3 {
            break;
        }
    }
    best
}

/// The fastest round of `run` over every query, in µs per query.
fn time_per_query<Q>(queries: &[Q], mut run: impl FnMut(&Q) -> f64) -> f64 {
    let started = Instant::now();
    let mut best = f64::INFINITY;
    for round in 0..MAX_ROUNDS {
        if round >= MIN_ROUNDS && started.elapsed() > BUDGET {
            break;
        }
        let t = Instant::now();
        for q in queries {
            black_box(run(q));
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e6 / queries.len() as f64);
    }
    best
}

/// The open maps (see [`common::open_map`]), empty and with pillars, at each side of
/// `OPEN_SIDES` (default 2048 and 8192; `OPEN_SIDES=0` skips them): the subgoal graph's build
/// and time per long query against `astar`, every answer checked against `astar`'s.
fn open_maps() {
    let sides = common::open_sides(&[2048, 8192]);
    let kinds = std::env::var("OPEN_MAPS").unwrap_or_else(|_| "empty,pillars".into());
    println!(
        "| open map | queries | `subgoal` build ms | subgoals | `subgoal` bytes/cell | `astar` ms | `subgoal` ms | `subgoal` × |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for side in sides.into_iter().filter(|&s| s > 0) {
        for pillars in [false, true] {
            let kind = if pillars { "pillars" } else { "empty" };
            if !kinds.split(',').any(|k| k == kind) {
                continue;
            }
            let grid = common::open_map(side, pillars);
            let queries = common::open_queries(side);
            let graph = SearchGraph::new(&grid, Diagonal::NoCut);
            let built = Instant::now();
            let size = graph.prepare_subgoal_graph();
            let build_ms = built.elapsed().as_secs_f64() * 1e3;
            let mut searcher = Searcher::new();
            let mut solve = |&(start, goal): &(Cell, Cell), algorithm: Algorithm| {
                let request = SearchRequest::new(start, goal).with_algorithm(algorithm);
                searcher.search(&graph, &request).expect("valid query").cost
            };
            for q in &queries {
                let (astar, subgoal) = (solve(q, Algorithm::AStar), solve(q, Algorithm::Subgoal));
                assert!(
                    (astar - subgoal).abs() <= 1e-9 * astar,
                    "subgoal {subgoal} against astar {astar} on the open {side}² map, {kind}"
                );
            }
            let [astar, subgoal] = [Algorithm::AStar, Algorithm::Subgoal]
                .map(|a| time_per_query(&queries, |q| solve(q, a)) / 1e3);
            println!(
                "| {side}×{side} {kind} | {} | {build_ms:.1} | {} | {:.2} | {astar:.2} | {subgoal:.3} | {:.1}× |",
                queries.len(),
                size.subgoals,
                size.bytes as f64 / graph.len() as f64,
                astar / subgoal,
            );
        }
    }
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    open_maps();
    let Some(dir) = common::movingai_bench("preprocessed") else {
        return;
    };
    println!(
        "| set | size | queries | `jps-plus` build ms | `subgoal` build ms | subgoals (global) | edges \
         | `subgoal` bytes/cell | `astar` µs | `jps` µs | `jps-plus` µs | `subgoal` µs | `jps` × \
         | `jps-plus` × | `subgoal` × | `ch` build s | `ch` µs | `ch` × | fastest |"
    );
    println!(
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
    );
    // `PREPROCESSED_SETS=random512,8room` runs the sets whose names contain one of the words.
    let only = std::env::var("PREPROCESSED_SETS").unwrap_or_default();
    let wanted = |path: &std::path::Path| {
        let name = path.to_string_lossy();
        only.is_empty() || only.split(',').any(|word| name.contains(word))
    };
    for (map_path, scen_path) in scenario_sets(&dir).into_iter().filter(|(_, s)| wanted(s)) {
        let map = std::fs::read_to_string(&map_path).expect("map file");
        let scen = std::fs::read_to_string(&scen_path).expect("scen file");
        let grid = movingai::parse_map(&map).expect("valid map");
        let all = movingai::parse_scen(&scen).expect("valid scen");
        let step = (all.len() / QUERIES).max(1);
        let queries: Vec<ScenQuery> = all.into_iter().step_by(step).take(QUERIES).collect();
        let table_ms = build_ms(&grid, SearchGraph::prepare_jps_plus);
        let subgoal_ms = build_ms(&grid, |graph| {
            graph.prepare_subgoal_graph();
        });
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        graph.prepare_jps_plus();
        let size = graph.prepare_subgoal_graph();
        let built = Instant::now();
        let mut ch = ContractionHierarchy::from_graph(graph.clone());
        let ch_s = built.elapsed().as_secs_f64();
        let mut ch_cost = |q: &ScenQuery| {
            let request =
                SearchRequest::new(q.start, q.goal).with_algorithm(Algorithm::ContractionHierarchy);
            ch.find_path(&request).expect("valid query").cost
        };
        for q in &queries {
            let cost = ch_cost(q);
            assert!(q.matches(cost), "ch mismatch, line {}", q.line);
        }
        let ch_us = time_per_query(&queries, &mut ch_cost);
        let mut searcher = Searcher::new();
        let mut solve = |q: &ScenQuery, algorithm: Algorithm| {
            let request = SearchRequest::new(q.start, q.goal).with_algorithm(algorithm);
            searcher.search(&graph, &request).expect("valid query").cost
        };
        let algorithms = [
            Algorithm::AStar,
            Algorithm::Jps,
            Algorithm::JpsPlus,
            Algorithm::Subgoal,
        ];
        for q in &queries {
            for algorithm in algorithms {
                let cost = solve(q, algorithm);
                assert!(q.matches(cost), "{algorithm:?} mismatch, line {}", q.line);
            }
        }
        let [astar, jps, plus, subgoal] =
            algorithms.map(|a| time_per_query(&queries, |q| solve(q, a)));
        let name = scen_path
            .file_name()
            .map(|n| {
                n.to_string_lossy()
                    .replace(".map.scen", "")
                    .replace(".scen", "")
            })
            .unwrap_or_default();
        let fastest = [
            ("jps", jps),
            ("jps-plus", plus),
            ("subgoal", subgoal),
            ("ch", ch_us),
        ]
        .into_iter()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(name, us)| format!("`{name}` {:.1}×", astar / us))
        .unwrap_or_default();
        println!(
            "| {name} | {}×{} | {} | {table_ms:.2} | {subgoal_ms:.1} | {} ({}) | {} | {:.1} | {astar:.1} | {jps:.1} | {plus:.1} | {subgoal:.1} | {:.1}× | {:.1}× | {:.1}× | {ch_s:.2} | {ch_us:.1} | {:.1}× | {fastest} |",
            grid.width(),
            grid.height(),
            queries.len(),
            size.subgoals,
            size.global,
            size.edges,
            size.bytes as f64 / graph.len() as f64,
            astar / jps,
            astar / plus,
            astar / subgoal,
            astar / ch_us,
        );
    }
}
