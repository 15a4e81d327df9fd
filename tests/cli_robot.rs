//! Paths for a robot's body through `gridpath solve`: a unit larger than a cell follows its
//! centre, and a clearance asked for the body keeps it off walls in the search itself.

use std::path::PathBuf;
use std::process::Output;

mod common;
use common::gridpath;

use serde_json::Value;

/// Writes a Moving AI map of these rows to a file of its own and returns its path.
fn map_file(name: &str, rows: &[&str]) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("robot-{name}.map"));
    let text = format!(
        "type octile\nheight {}\nwidth {}\nmap\n{}\n",
        rows.len(),
        rows[0].len(),
        rows.join("\n")
    );
    std::fs::write(&path, text).expect("the test directory is writable");
    path
}

fn json_of(output: &Output) -> Value {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("stdout is one JSON object")
}

fn point(value: &Value) -> [f64; 2] {
    let xy = value.as_array().expect("a point is an array");
    [xy[0].as_f64().expect("x"), xy[1].as_f64().expect("y")]
}

fn close(a: [f64; 2], b: [f64; 2]) -> bool {
    (a[0] - b[0]).abs() < 1e-9 && (a[1] - b[1]).abs() < 1e-9
}

/// A room 10 × 8 cells with a pillar in the middle.
const ROOM: [&str; 8] = [
    "..........",
    "..........",
    "..........",
    "....@@....",
    "....@@....",
    "..........",
    "..........",
    "..........",
];

#[test]
fn a_unit_larger_than_a_cell_is_exported_by_its_centre() {
    let map = map_file("unit-centre", &ROOM);
    let map = map.to_str().expect("a UTF-8 path");
    let export = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("robot-unit-centre.json");
    let out = json_of(&gridpath(&[
        "solve",
        map,
        "--from",
        "0,0",
        "--to",
        "7,5",
        "--unit-size",
        "3",
        "--smooth",
        "--cell-size",
        "0.5",
        "--json",
        "--export",
        export.to_str().expect("a UTF-8 path"),
    ]));
    // A 3 × 3 body on cell (0, 0) covers 0..3 × 0..3: its centre is (1.5, 1.5).
    let (start, goal) = ([1.5, 1.5], [8.5, 6.5]);
    assert_eq!(out["unit_size"], 3);
    assert_eq!(out["placed_by"], "top-left");
    let centres = out["centres"].as_array().expect("the body's centres");
    assert_eq!(centres.len(), out["path"].as_array().expect("a path").len());
    assert!(close(point(&centres[0]), start), "{}", centres[0]);
    assert!(close(point(centres.last().expect("a goal")), goal));
    let waypoints = out["smoothed"]["waypoints"].as_array().expect("waypoints");
    assert!(close(point(&waypoints[0]), start), "{}", waypoints[0]);
    assert!(close(point(waypoints.last().expect("a goal")), goal));

    let file: Value =
        serde_json::from_str(&std::fs::read_to_string(&export).expect("the export was written"))
            .expect("the export is JSON");
    assert_eq!(file["body"]["unit_size"], 3);
    assert_eq!(file["body"]["placed_by"], "top-left");
    assert!(close(point(&file["body"]["centres"][0]), start));
    let samples = file["smoothed"]["samples"].as_array().expect("samples");
    let first = samples[0].as_array().expect("a sample");
    let last = samples.last().and_then(Value::as_array).expect("a sample");
    let xy = |s: &Vec<Value>| [s[0].as_f64().expect("x"), s[1].as_f64().expect("y")];
    assert!(close(xy(first), start), "{first:?}");
    assert!(close(xy(last), goal), "{last:?}");
    // In the world frame (0.5 m a cell, 8 cells high, y up) the body's centre is at
    // (1.5 × 0.5, (8 − 1.5) × 0.5).
    let world = file["world"]["samples"][0]
        .as_array()
        .expect("a world sample");
    assert!(close(xy(world), [0.75, 3.25]), "{world:?}");
}

#[test]
fn the_summary_names_the_body_and_its_centre() {
    let map = map_file("unit-summary", &ROOM);
    let out = gridpath(&[
        "solve",
        map.to_str().expect("a UTF-8 path"),
        "--from",
        "0,0",
        "--to",
        "7,4",
        "--unit-size",
        "2",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("body: a unit of 2 × 2 cells placed by its top-left cell; its centre goes from (1, 1) to (8, 5)"),
        "{text}"
    );
}
