//! Jump point search and JPS+ over whole Moving AI scenario files: the median time per query,
//! the measure of the published JPS2+ comparisons (Warthog's figures in docs/performance.md).
//!
//! Every query of a set's scenario file is checked against the file's optimum first. Then
//! `ROUNDS` rounds run the whole file, each round alternating which algorithm goes first
//! (interleaved, so that the machine's drift reaches both alike); every query is timed on its
//! own, its time is the median of its rounds, and a set's figure is the median (and the mean) of
//! its queries' times.
//!
//! Run with `cargo bench --bench jps`; `JPS_SETS=den520d,64room` runs the sets whose names
//! contain one of the words. The data is read from `../shared/movingai`.

use std::hint::black_box;
use std::time::Instant;

use gridpath::format::movingai::{self, ScenQuery};
use gridpath::search::{Algorithm, Diagonal, SearchGraph, SearchRequest, Searcher};

mod common;

/// The sets of the published comparison, and two more.
const SETS: [&str; 8] = [
    "bg512/AR0011SR",
    "dao/den520d",
    "rooms/64room_000",
    "cities/Boston_0_512",
    "rooms/8room_000",
    "random/random512-40-0",
    "dao/arena2",
    "random/random512-10-0",
];

const ROUNDS: usize = 7;

/// The median of `values` (sorted in place).
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => values[n / 2],
        _ => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

fn main() {
    let Some(dir) = common::movingai_bench("jps") else {
        return;
    };
    let only = std::env::var("JPS_SETS").unwrap_or_default();
    println!(
        "| set | queries | `jps` median µs | `jps-plus` median µs | `jps` mean µs | `jps-plus` mean µs |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    let algorithms = [Algorithm::Jps, Algorithm::JpsPlus];
    for set in SETS {
        if !(only.is_empty() || only.split(',').any(|word| set.contains(word))) {
            continue;
        }
        let (Ok(map), Ok(scen)) = (
            std::fs::read_to_string(dir.join(format!("{set}.map"))),
            std::fs::read_to_string(dir.join(format!("{set}.map.scen"))),
        ) else {
            eprintln!("skipping {set}: its map or scenario file is absent");
            continue;
        };
        let grid = movingai::parse_map(&map).expect("valid map");
        let queries: Vec<ScenQuery> = movingai::parse_scen(&scen).expect("valid scen");
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        graph.prepare_jps_plus();
        let mut searcher = Searcher::new();
        let mut solve = |q: &ScenQuery, algorithm: Algorithm| {
            let request = SearchRequest::new(q.start, q.goal).with_algorithm(algorithm);
            searcher.search(&graph, &request).expect("valid query").cost
        };
        for q in &queries {
            for algorithm in algorithms {
                let cost = solve(q, algorithm);
                assert!(q.matches(cost), "{algorithm:?} mismatch, line {}", q.line);
            }
        }
        // Per algorithm, per query, the time of each round.
        let mut times = [
            vec![Vec::with_capacity(ROUNDS); queries.len()],
            vec![Vec::with_capacity(ROUNDS); queries.len()],
        ];
        for round in 0..ROUNDS {
            for k in 0..2 {
                let a = (k + round) % 2;
                for (i, q) in queries.iter().enumerate() {
                    let t = Instant::now();
                    black_box(solve(q, algorithms[a]));
                    times[a][i].push(t.elapsed().as_secs_f64() * 1e6);
                }
            }
        }
        let n = queries.len() as f64;
        let per_query = times.map(|rounds| {
            rounds
                .into_iter()
                .map(|mut t| median(&mut t))
                .collect::<Vec<f64>>()
        });
        let means = per_query.each_ref().map(|t| t.iter().sum::<f64>() / n);
        let [jps, plus] = per_query.map(|mut t| median(&mut t));
        println!(
            "| {set} | {} | {jps:.2} | {plus:.2} | {:.2} | {:.2} |",
            queries.len(),
            means[0],
            means[1],
        );
    }
}
