//! The command line with `--algo dstar-lite` and `--algo hpa`: solve and scen.

#![allow(clippy::unwrap_used)] // Test helpers fail loudly on broken test data.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Output;

mod common;
use common::gridpath;

use gridpath::format::load_map;
use gridpath::grid::Cell;
use gridpath::search::{SearchRequest, solve};

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gridpath-cli-beyond-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).expect("stdout is one JSON object")
}

const DEMO: &str = r##"{
  "format": "gridpath-map", "version": 1, "name": "demo", "width": 6, "height": 4,
  "terrains": [
    {"symbol": ".", "name": "Grass", "cost": 1.0, "color": "#6abe30"},
    {"symbol": "=", "name": "Road", "cost": 0.5, "color": "#c8b58c"},
    {"symbol": "#", "name": "Wall", "cost": null, "color": "#222222"}
  ],
  "rows": ["..#...", "..#...", "..#...", "======"],
  "start": [0, 0], "goal": [5, 0]
}"##;

/// A 90 × 70 Moving AI map with walls in a regular pattern, spanning several clusters.
fn movingai_map() -> String {
    let (w, h) = (90, 70);
    let mut text = format!("type octile\nheight {h}\nwidth {w}\nmap\n");
    for y in 0..h {
        for x in 0..w {
            let wall = (x % 17 == 8 && y % 23 != 4) || (y % 13 == 6 && x % 29 > 20);
            text.push(if wall { '@' } else { '.' });
        }
        text.push('\n');
    }
    text
}

#[test]
fn solve_runs_dstar_lite_and_hpa() {
    let map = temp_file("demo.json", DEMO);
    let astar = json(&gridpath(&["solve", map.to_str().unwrap(), "--json"]));
    for algo in ["dstar-lite", "hpa"] {
        let out = gridpath(&["solve", map.to_str().unwrap(), "--algo", algo, "--json"]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{algo}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v = json(&out);
        assert_eq!(v["found"], true);
        assert_eq!(v["algorithm"], algo);
        let path = v["path"].as_array().unwrap();
        assert_eq!(path.first().unwrap(), &serde_json::json!([0, 0]));
        assert_eq!(path.last().unwrap(), &serde_json::json!([5, 0]));
        let cost = v["cost"].as_f64().unwrap();
        let optimal = astar["cost"].as_f64().unwrap();
        assert!(cost >= optimal - 1e-9, "{algo}: {cost} < {optimal}");
        if algo == "dstar-lite" {
            assert!((cost - optimal).abs() < 1e-9);
            assert_eq!(v["optimality"], "exact");
        } else {
            assert_eq!(v["optimality"], "near-optimal, no bound");
        }
    }
    let out = gridpath(&["solve", map.to_str().unwrap(), "--algo", "hpa"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Path found: cost"), "{text}");
}

#[test]
fn no_path_exits_2_for_both() {
    let walled = DEMO.replace("\"======\"", "\"..#...\"");
    let map = temp_file("walled.json", &walled);
    for algo in ["dstar-lite", "hpa"] {
        let out = gridpath(&["solve", map.to_str().unwrap(), "--algo", algo, "--json"]);
        assert_eq!(out.status.code(), Some(2), "{algo}");
        assert_eq!(json(&out)["found"], false);
    }
}

#[test]
fn scen_reports_cost_ratios_for_every_algorithm() {
    let text = movingai_map();
    let map_path = temp_file("pattern.map", &text);
    let map = load_map(&map_path).unwrap();
    let grid = &map.grid;
    let mut scen = String::from("version 1\n");
    let mut count = 0;
    for i in 0..40u32 {
        let a = Cell::new((i * 37 + 1) % 90, (i * 11 + 2) % 70);
        let b = Cell::new((i * 53 + 80) % 90, (i * 29 + 60) % 70);
        if !grid.is_passable(a) || !grid.is_passable(b) || a == b {
            continue;
        }
        let optimal = solve(grid, &SearchRequest::new(a, b)).unwrap();
        if !optimal.found {
            continue;
        }
        writeln!(
            scen,
            "0\tpattern.map\t90\t70\t{}\t{}\t{}\t{}\t{:.8}",
            a.x, a.y, b.x, b.y, optimal.cost
        )
        .unwrap();
        count += 1;
    }
    assert!(count > 20);
    let scen_path = temp_file("pattern.map.scen", &scen);
    let (m, s) = (map_path.to_str().unwrap(), scen_path.to_str().unwrap());

    for algo in ["astar", "dstar-lite"] {
        let out = gridpath(&["scen", m, s, "--algo", algo, "--json"]);
        assert_eq!(out.status.code(), Some(0), "{algo}");
        let v = json(&out);
        assert_eq!(v["queries"], count);
        assert_eq!(v["mismatches"], 0);
        assert!((v["mean_ratio"].as_f64().unwrap() - 1.0).abs() < 1e-7);
        assert!((v["max_ratio"].as_f64().unwrap() - 1.0).abs() < 1e-7);
    }

    let out = gridpath(&["scen", m, s, "--algo", "hpa", "--json"]);
    assert!(matches!(out.status.code(), Some(0 | 2)));
    let v = json(&out);
    assert_eq!(v["queries"], count);
    assert_eq!(v["algorithm"], "hpa");
    let (mean, max) = (
        v["mean_ratio"].as_f64().unwrap(),
        v["max_ratio"].as_f64().unwrap(),
    );
    assert!((1.0 - 1e-7..1.2).contains(&mean), "mean ratio {mean}");
    assert!(max >= mean && max < 2.0, "max ratio {max}");
    assert!(v["preprocess_ms"].is_f64());
    let mismatches = v["mismatches"].as_u64().unwrap();
    assert_eq!(out.status.code(), Some(if mismatches == 0 { 0 } else { 2 }));

    let out = gridpath(&["scen", m, s, "--algo", "hpa"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("cost / optimal: mean"), "{text}");
}
