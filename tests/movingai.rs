//! gridpath against the optimal lengths of the Moving AI benchmark in `../shared/movingai`.
//!
//! Debug builds run an even sample of every scenario file (every query of the small ones);
//! optimised builds (`cargo test --release`) run every query. `gridpath scen` runs whole files
//! from the command line.

#![expect(
    clippy::unwrap_used,
    reason = "test helpers fail loudly on broken test data"
)]

mod common;

use std::path::{Path, PathBuf};

use gridpath::format::movingai;
use gridpath::search::{Algorithm, Diagonal, SearchGraph, SearchRequest, Searcher};

/// Queries per file in a debug build.
const DEBUG_SAMPLE: usize = 60;

fn data_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/movingai");
    dir.is_dir().then_some(dir)
}

/// Every scenario file outside `stale_scen`, with the map it names.
fn scenario_sets(dir: &Path) -> Vec<(PathBuf, PathBuf)> {
    let mut sets = Vec::new();
    let mut folders: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    folders.sort();
    for folder in folders.into_iter().filter(|p| p.is_dir()) {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for scen in files
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "scen"))
        {
            let text = std::fs::read_to_string(&scen).unwrap();
            let first = movingai::parse_scen(&text)
                .unwrap()
                .into_iter()
                .next()
                .expect("a query");
            // A multi-agent list (`mapf/`) without single-agent optima is no benchmark set.
            if first.optimal == 0.0 {
                continue;
            }
            let map_name = Path::new(&first.map).file_name().unwrap().to_owned();
            sets.push((folder.join(map_name), scen));
        }
    }
    sets
}

fn check_all(algorithm: Algorithm) {
    let Some(dir) = data_dir() else {
        common::skip("../shared/movingai is absent, so the Moving AI benchmark check did not run");
        return;
    };
    let sets = scenario_sets(&dir);
    assert!(
        sets.len() >= 25,
        "expected the 25 scenario sets, found {}",
        sets.len()
    );
    let mut searcher = Searcher::new();
    let (mut total, mut mismatches) = (0, Vec::new());
    for (map_path, scen_path) in &sets {
        let grid = movingai::parse_map(&std::fs::read_to_string(map_path).unwrap()).unwrap();
        let queries = movingai::parse_scen(&std::fs::read_to_string(scen_path).unwrap()).unwrap();
        let step = if cfg!(debug_assertions) {
            (queries.len() / DEBUG_SAMPLE).max(1)
        } else {
            1
        };
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        for q in queries.iter().step_by(step) {
            assert_eq!((q.map_width, q.map_height), (grid.width(), grid.height()));
            let request = SearchRequest::new(q.start, q.goal).with_algorithm(algorithm);
            let result = searcher.search(&graph, &request).unwrap();
            total += 1;
            if !result.found || !q.matches(result.cost) {
                mismatches.push(format!(
                    "{} line {}: {} vs {}",
                    scen_path.display(),
                    q.line,
                    result.cost,
                    q.optimal
                ));
            }
        }
    }
    eprintln!(
        "{algorithm}: {total} Moving AI queries over {} sets, {} mismatches",
        sets.len(),
        mismatches.len()
    );
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

#[test]
fn astar_matches_every_scenario_set() {
    check_all(Algorithm::AStar);
}

#[test]
fn bidirectional_matches_every_scenario_set() {
    check_all(Algorithm::Bidirectional);
}

/// Queries per file for the any-angle check in a debug build.
const ANY_ANGLE_SAMPLE: usize = 12;

/// Runs an any-angle search on a sample of every scenario set: never longer than the octile
/// optimum (within the rounding of the printed optimum; a grid path is one of the paths it
/// weighs), and by how much shorter on average.
fn check_any_angle(algorithm: Algorithm) {
    let Some(dir) = data_dir() else {
        common::skip("../shared/movingai is absent, so the Moving AI any-angle check did not run");
        return;
    };
    let sets = scenario_sets(&dir);
    let mut searcher = Searcher::new();
    let (mut total, mut ratios, mut worst) = (0usize, 0.0, 0.0f64);
    let mut longer = Vec::new();
    for (map_path, scen_path) in &sets {
        let grid = movingai::parse_map(&std::fs::read_to_string(map_path).unwrap()).unwrap();
        let queries = movingai::parse_scen(&std::fs::read_to_string(scen_path).unwrap()).unwrap();
        let sample = if cfg!(debug_assertions) {
            ANY_ANGLE_SAMPLE
        } else {
            10 * ANY_ANGLE_SAMPLE
        };
        let step = (queries.len() / sample).max(1);
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        for q in queries.iter().step_by(step).filter(|q| q.optimal > 0.0) {
            let request = SearchRequest::new(q.start, q.goal).with_algorithm(algorithm);
            let result = searcher.search(&graph, &request).unwrap();
            assert!(result.found, "{} line {}", scen_path.display(), q.line);
            total += 1;
            let ratio = result.cost / q.optimal;
            ratios += ratio;
            worst = worst.max(ratio);
            if result.cost > q.optimal + q.tolerance().max(1e-6) {
                longer.push(format!(
                    "{} line {}: {} vs octile {}",
                    scen_path.display(),
                    q.line,
                    result.cost,
                    q.optimal
                ));
            }
        }
    }
    eprintln!(
        "{algorithm}: {total} Moving AI queries over {} sets, cost / octile optimum: mean {:.4}, max {worst:.4}",
        sets.len(),
        ratios / total.max(1) as f64
    );
    assert!(
        longer.is_empty(),
        "{} paths longer than the octile optimum:\n{}",
        longer.len(),
        longer.join("\n")
    );
}

#[test]
fn theta_is_never_longer_than_the_octile_optimum() {
    check_any_angle(Algorithm::Theta);
}

#[test]
fn lazy_theta_is_never_longer_than_the_octile_optimum() {
    check_any_angle(Algorithm::LazyTheta);
}

#[test]
fn dijkstra_matches_a_sample() {
    let Some(dir) = data_dir() else {
        common::skip("../shared/movingai is absent");
        return;
    };
    let (map, scen) = (dir.join("dao/arena.map"), dir.join("dao/arena.map.scen"));
    let grid = movingai::parse_map(&std::fs::read_to_string(map).unwrap()).unwrap();
    let queries = movingai::parse_scen(&std::fs::read_to_string(scen).unwrap()).unwrap();
    let graph = SearchGraph::new(&grid, Diagonal::NoCut);
    let mut searcher = Searcher::new();
    for q in &queries {
        let request = SearchRequest::new(q.start, q.goal).with_algorithm(Algorithm::Dijkstra);
        assert!(
            q.matches(searcher.search(&graph, &request).unwrap().cost),
            "line {}",
            q.line
        );
    }
}

#[test]
fn stale_scenarios_are_not_trusted() {
    // The files kept in stale_scen disagree with their maps; this documents why they are left
    // out above rather than silently passing over them.
    let Some(dir) = data_dir() else {
        common::skip("../shared/movingai is absent");
        return;
    };
    let stale = dir.join("wc3maps512/stale_scen");
    assert!(
        stale.is_dir()
            && scenario_sets(&dir)
                .iter()
                .all(|(_, s)| !s.starts_with(&stale))
    );
}
