//! Conflict-based search on the first k agents of random-32-32-20's first scenario: what it
//! proved, the sum of costs, the nodes expanded and the time, one run per k.
//!
//! `cargo run --release -p gridpath-core --example cbs_scaling -- [K ...] [--limit S]`
//! (default 30 40 50 55 60, 60 s each). Reads `../shared/movingai/mapf` beside the
//! repository, or the folder in `GRIDPATH_MAPF_DIR`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // An example fails loudly on broken data.

use std::path::PathBuf;
use std::time::Duration;

use gridpath_core::mapf::{self, MapfAlgorithm, MapfSettings, Moves, read_instance};
use gridpath_core::search::SearchControl;

fn main() {
    let dir = std::env::var("GRIDPATH_MAPF_DIR").map_or_else(
        |_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/movingai/mapf"),
        PathBuf::from,
    );
    let map = dir.join("random-32-32-20.map");
    let scen = dir.join("random-32-32-20-random-1.scen");
    if !map.exists() {
        println!("skipped: {} is absent", map.display());
        return;
    }
    let mut ks = Vec::new();
    let mut limit = 60.0;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--limit" {
            limit = args.next().and_then(|s| s.parse().ok()).expect("--limit S");
        } else {
            ks.push(arg.parse::<usize>().expect("a number of agents"));
        }
    }
    if ks.is_empty() {
        ks = vec![30, 40, 50, 55, 60];
    }
    println!("agents  proof         soc  expanded  time (s)");
    for k in ks {
        let instance = read_instance(&map, &scen, k, Moves::Four).unwrap();
        let settings = MapfSettings {
            time_limit: Duration::from_secs_f64(limit),
            ..MapfSettings::default()
        };
        let outcome = mapf::solve(
            &instance,
            MapfAlgorithm::Cbs,
            &settings,
            &SearchControl::new(),
        )
        .unwrap();
        let soc = outcome
            .summary
            .as_ref()
            .map_or("-".to_owned(), |s| format!("{}", s.sum_of_costs));
        println!(
            "{k:>6}  {:<12} {soc:>5} {:>9} {:>9.3}",
            outcome.proof.name(),
            outcome.expanded,
            outcome.time.as_secs_f64()
        );
    }
}
