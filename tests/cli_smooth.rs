//! The smoothing options of `gridpath solve`, run through the binary.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

const MAP: &str = "type octile
height 5
width 8
map
........
.@@@@@..
......@.
.@@@..@.
........
";

/// Writes the test map to a file of its own and returns its path.
fn map_file(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}.map"));
    std::fs::write(&path, MAP).expect("the test directory is writable");
    path
}

fn gridpath(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gridpath"))
        .args(args)
        .output()
        .expect("the binary runs")
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
    assert_eq!(xy.len(), 2, "{value}");
    [xy[0].as_f64().expect("x"), xy[1].as_f64().expect("y")]
}

#[test]
fn smooth_json_adds_the_smoothed_path() {
    let map = map_file("smooth_json");
    let map = map.to_str().expect("a UTF-8 path");
    let out = json_of(&gridpath(&[
        "solve",
        map,
        "--from",
        "0,0",
        "--to",
        "7,4",
        "--smooth",
        "--tension",
        "0.8",
        "--clearance",
        "0.2",
        "--json",
    ]));
    let smoothed = &out["smoothed"];
    let waypoints = smoothed["waypoints"].as_array().expect("waypoints");
    assert!(waypoints.len() >= 2);
    assert_eq!(point(&waypoints[0]), [0.5, 0.5]);
    assert_eq!(point(&waypoints[waypoints.len() - 1]), [7.5, 4.5]);
    let beziers = smoothed["beziers"].as_array().expect("beziers");
    assert!(beziers.len() >= waypoints.len() - 1);
    for piece in beziers {
        let points = piece.as_array().expect("a piece is an array");
        assert_eq!(points.len(), 4, "{piece}");
        for p in points {
            point(p);
        }
    }
    assert_eq!(point(&beziers[0][0]), [0.5, 0.5]);
    assert_eq!(point(&beziers[beziers.len() - 1][3]), [7.5, 4.5]);
    let (grid_cost, cost) = (out["cost"].as_f64(), smoothed["cost"].as_f64());
    assert!(
        cost.is_some() && cost <= grid_cost,
        "{cost:?} vs {grid_cost:?}"
    );
    assert!(smoothed["length"].as_f64() <= out["length"].as_f64());
    // Without --smooth there is no smoothed path.
    let plain = json_of(&gridpath(&[
        "solve", map, "--from", "0,0", "--to", "7,4", "--json",
    ]));
    assert!(plain.get("smoothed").is_none());
}

#[test]
fn the_export_holds_the_same_curves_as_the_json_output() {
    let map = map_file("smooth_export");
    let export = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("smooth_export.json");
    let _ = std::fs::remove_file(&export);
    let out = json_of(&gridpath(&[
        "solve",
        map.to_str().expect("a UTF-8 path"),
        "--from",
        "0,4",
        "--to",
        "7,0",
        "--smooth",
        "--json",
        "--export",
        export.to_str().expect("a UTF-8 path"),
    ]));
    let text = std::fs::read_to_string(&export).expect("the export was written");
    let doc: Value = serde_json::from_str(&text).expect("the export is JSON");
    assert_eq!(doc["format"], "gridpath-path");
    assert_eq!(doc["map"]["name"], "smooth_export");
    assert_eq!(
        (doc["map"]["width"].as_u64(), doc["map"]["height"].as_u64()),
        (Some(8), Some(5))
    );
    assert_eq!(point(&doc["start"]), [0.0, 4.0]);
    assert_eq!(point(&doc["goal"]), [7.0, 0.0]);
    assert_eq!(doc["search"]["algorithm"], "astar");
    assert_eq!(doc["smoothing"]["tension"], 0.5);
    assert_eq!(doc["found"], true);
    assert_eq!(doc["grid_path"]["cells"], out["path"]);
    assert_eq!(doc["grid_path"]["cost"], out["cost"]);
    assert_eq!(doc["smoothed"], out["smoothed"]);
    assert!(doc["stats"]["expanded"].as_u64() > Some(0));
}

#[test]
fn an_export_replaces_its_file_whole_and_keeps_its_permissions() {
    let map = map_file("smooth_export_atomic");
    let dir = tempfile::tempdir().expect("temp dir");
    let export = dir.path().join("path.json");
    std::fs::write(&export, "old export").expect("write");
    // A second name for the old file: an atomic save replaces the file and leaves the old data
    // under this name, where writing into the file in place would change both.
    let old = dir.path().join("old.json");
    std::fs::hard_link(&export, &old).expect("hard link");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&export, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    }
    let output = gridpath(&[
        "solve",
        map.to_str().expect("a UTF-8 path"),
        "--from",
        "0,4",
        "--to",
        "7,0",
        "--export",
        export.to_str().expect("a UTF-8 path"),
    ]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(std::fs::read_to_string(&old).expect("read"), "old export");
    let text = std::fs::read_to_string(&export).expect("the export was written");
    let doc: Value = serde_json::from_str(&text).expect("the export is JSON");
    assert_eq!(doc["format"], "gridpath-path");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&export)
            .expect("stat")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}

#[test]
fn a_clearance_larger_than_the_map_is_refused() {
    let map = map_file("smooth_clearance");
    let output = gridpath(&[
        "solve",
        map.to_str().expect("a UTF-8 path"),
        "--from",
        "0,4",
        "--to",
        "7,0",
        "--smooth",
        "--clearance",
        "9",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("clearance 9 cells is larger than the 8 × 5 map"),
        "{err}"
    );
}

#[test]
fn the_summary_reports_smoothed_length_and_cost() {
    let map = map_file("smooth_summary");
    let output = gridpath(&[
        "solve",
        map.to_str().expect("a UTF-8 path"),
        "--from",
        "0,0",
        "--to",
        "7,4",
        "--smooth",
    ]);
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("smoothed: "), "{text}");
    assert!(text.contains("(grid "), "{text}");
    assert!(text.contains("Bezier pieces"), "{text}");
}

#[test]
fn a_bad_tension_is_refused() {
    let map = map_file("smooth_bad");
    let output = gridpath(&[
        "solve",
        map.to_str().expect("a UTF-8 path"),
        "--from",
        "0,0",
        "--to",
        "7,4",
        "--smooth",
        "--tension",
        "1.5",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("tension must be a number from 0 to 1, got 1.5"),
        "{error}"
    );
}

#[test]
fn no_path_gives_a_null_smoothed_path() {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("smooth_walled.map");
    std::fs::write(&path, "type octile\nheight 1\nwidth 3\nmap\n.@.\n").expect("writable");
    let output = gridpath(&[
        "solve",
        path.to_str().expect("a UTF-8 path"),
        "--from",
        "0,0",
        "--to",
        "2,0",
        "--smooth",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let out: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(out["found"], false);
    assert!(out["smoothed"].is_null());
}
