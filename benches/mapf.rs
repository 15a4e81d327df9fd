//! Multi-agent path finding on the Moving AI MAPF maps in `../shared/movingai/mapf`: for each
//! map and team size k (the scenario's first k agents), every solver's outcome — what it
//! proved, the time to its first plan and in all, the sum of costs and its ratio to the lower
//! bound (the sum of single-agent distances). Every plan is checked by the independent
//! validator before it is counted.
//!
//! `MAPF_BENCH_ALGOS=lacam,pibt` picks solvers, `MAPF_BENCH_K=10,50,409` team sizes on
//! random-32-32-20 (default every 50 and 409), `MAPF_BENCH_WAREHOUSE_K` on
//! warehouse-20-40-10-2-2 (default 100, 500, 1000), `MAPF_BENCH_LARGE_K` on den520d and
//! `Berlin_0_256` with random instances (`mapf::random_instance`, seed 1; default 1000; an empty list skips a map; the
//! benchmark's own scenarios for these maps are not in the data folder), `MAPF_BENCH_ANYTIME=1` lets LaCAM* improve
//! until the time limit (`MAPF_BENCH_LIMIT`, seconds; default 10 on the random map, 30 on the
//! warehouse).

#![allow(clippy::unwrap_used, clippy::expect_used)] // A benchmark fails loudly on broken data.

use std::path::Path;
use std::time::Duration;

use gridpath::mapf::{self, MapfAlgorithm, MapfSettings, Moves, read_instance};
use gridpath::search::SearchControl;

mod common;

fn list<T: std::str::FromStr>(var: &str, default: Vec<T>) -> Vec<T> {
    match std::env::var(var) {
        Ok(text) => text
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().ok().expect("a list of values"))
            .collect(),
        Err(_) => default,
    }
}

/// Where a team comes from: the first k lines of a scenario, or k random agents.
enum Team<'a> {
    Scenario(&'a str),
    Random,
}

fn measure(
    dir: &Path,
    map: &str,
    team: Team<'_>,
    ks: &[usize],
    limit: f64,
    algorithms: &[MapfAlgorithm],
) {
    let anytime = std::env::var("MAPF_BENCH_ANYTIME").is_ok_and(|v| v == "1");
    let limit = std::env::var("MAPF_BENCH_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(limit);
    println!("\n{map} (time limit {limit} s, LaCAM anytime: {anytime})");
    println!(
        "{:>6}  {:<7} {:<13} {:>10} {:>10} {:>9} {:>9} {:>7} {:>9}",
        "agents", "solver", "proof", "first (s)", "total (s)", "soc", "lower", "soc/lb", "expanded"
    );
    for &k in ks {
        let instance = match team {
            Team::Scenario(scen) => {
                read_instance(&dir.join(map), &dir.join(scen), k, Moves::Four).unwrap()
            }
            Team::Random => {
                let grid = gridpath::format::load_map(&dir.join(map)).unwrap().grid;
                mapf::random_instance(grid, k, Moves::Four, 1).unwrap()
            }
        };
        for &algorithm in algorithms {
            let settings = MapfSettings {
                time_limit: Duration::from_secs_f64(limit),
                anytime,
                ..MapfSettings::default()
            };
            let outcome =
                mapf::solve(&instance, algorithm, &settings, &SearchControl::new()).unwrap();
            let (soc, ratio) =
                outcome
                    .summary
                    .as_ref()
                    .map_or(("-".to_owned(), "-".to_owned()), |s| {
                        (
                            format!("{}", s.sum_of_costs),
                            format!("{:.3}", s.sum_of_costs / outcome.lower_bound),
                        )
                    });
            println!(
                "{k:>6}  {:<7} {:<13} {:>10} {:>10.3} {soc:>9} {:>9} {ratio:>7} {:>9}",
                algorithm.name(),
                outcome.proof.name(),
                outcome
                    .first_plan_time
                    .map_or("-".to_owned(), |t| format!("{:.3}", t.as_secs_f64())),
                outcome.time.as_secs_f64(),
                outcome.lower_bound,
                outcome.expanded,
            );
        }
    }
}

fn main() {
    let Some(dir) = common::movingai_bench("mapf") else {
        return;
    };
    let large = list("MAPF_BENCH_LARGE_K", vec![1000]);
    let all = list("MAPF_BENCH_ALGOS", MapfAlgorithm::all().collect::<Vec<_>>());
    // A thousand agents are for the scalable solvers; the others only time out there.
    let scalable = list(
        "MAPF_BENCH_ALGOS",
        vec![MapfAlgorithm::Lacam, MapfAlgorithm::Pibt],
    );
    let mapf_dir = dir.join("mapf");
    let mut random: Vec<usize> = (1..=8).map(|i| i * 50).collect();
    random.insert(0, 10);
    random.push(409);
    measure(
        &mapf_dir,
        "random-32-32-20.map",
        Team::Scenario("random-32-32-20-random-1.scen"),
        &list("MAPF_BENCH_K", random),
        10.0,
        &all,
    );
    measure(
        &mapf_dir,
        "warehouse-20-40-10-2-2.map",
        Team::Scenario("warehouse-20-40-10-2-2-10000agents-1.scen"),
        &list("MAPF_BENCH_WAREHOUSE_K", vec![100, 500, 1000]),
        30.0,
        &all,
    );
    for map in ["dao/den520d.map", "cities/Berlin_0_256.map"] {
        measure(&dir, map, Team::Random, &large, 30.0, &scalable);
    }
}
