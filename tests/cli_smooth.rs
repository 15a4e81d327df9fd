//! The smoothing options of `gridpath solve`, run through the binary.

use std::path::PathBuf;

mod common;
use common::{gridpath, json_of, point};

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
    // Every field of the solve command's smoothed path, and the samples besides.
    let fields = out["smoothed"].as_object().expect("a smoothed path");
    for (key, value) in fields {
        assert_eq!(&doc["smoothed"][key], value, "smoothed.{key}");
    }
    assert!(
        doc["smoothed"]["samples"]
            .as_array()
            .is_some_and(|s| s.len() > 2)
    );
    assert!(doc["world"].is_null(), "a Moving AI map has no world frame");
    assert!(doc["stats"]["expanded"].as_u64() > Some(0));
}

#[test]
fn a_ros_map_path_exports_in_the_world_frame() {
    // A 40 × 30 room with a wall from the top down to row 20, saved as map_saver saves maps;
    // resolution 0.05 m, origin (-1, 2).
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("world_export");
    std::fs::create_dir_all(&dir).expect("a test folder");
    let (w, h) = (40usize, 30usize);
    let mut pgm = format!("P5\n# CREATOR: map_saver.cpp 0.050 m/pix\n{w} {h}\n255\n").into_bytes();
    pgm.extend((0..w * h).map(|i| if i % w == 20 && i / w < 20 { 0u8 } else { 254 }));
    std::fs::write(dir.join("room.pgm"), pgm).expect("write");
    let yaml = dir.join("room.yaml");
    std::fs::write(
        &yaml,
        "image: room.pgm\nresolution: 0.05\norigin: [-1.0, 2.0, 0.0]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\n",
    )
    .expect("write");
    let json = dir.join("room.json");
    let converted = gridpath(&[
        "convert",
        yaml.to_str().expect("utf-8"),
        json.to_str().expect("utf-8"),
    ]);
    assert!(
        converted.status.success(),
        "{}",
        String::from_utf8_lossy(&converted.stderr)
    );

    let export = dir.join("path.json");
    let csv = dir.join("path.csv");
    let spacing = 0.3;
    for file in [&export, &csv] {
        let solved = gridpath(&[
            "solve",
            json.to_str().expect("utf-8"),
            "--from",
            "5,5",
            "--to",
            "35,5",
            "--spacing",
            "0.3",
            "--export",
            file.to_str().expect("utf-8"),
        ]);
        assert!(
            solved.status.success(),
            "{}",
            String::from_utf8_lossy(&solved.stderr)
        );
    }
    let text = std::fs::read_to_string(&export).expect("the export");
    let doc: Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(doc["version"], 3);
    assert!(
        doc["units"]
            .as_str()
            .is_some_and(|u| u.contains("y grows down"))
    );
    assert!(
        // One number a line would take thousands.
        text.lines().count() < 450,
        "compact arrays: {} lines",
        text.lines().count()
    );
    let world = &doc["world"];
    assert_eq!(world["frame"], "map");
    assert_eq!(world["y_axis"], "up");
    assert_eq!(world["resolution"], 0.05);
    assert_eq!(world["origin"], serde_json::json!([-1.0, 2.0, 0.0]));

    let samples = doc["smoothed"]["samples"].as_array().expect("samples");
    let world_samples = world["samples"].as_array().expect("world samples");
    assert_eq!(samples.len(), world_samples.len());
    let number = |v: &Value| v.as_f64().expect("a number");
    let first = &samples[0];
    let last = &samples[samples.len() - 1];
    assert_eq!((number(&first[0]), number(&first[1])), (5.5, 5.5));
    assert_eq!((number(&last[0]), number(&last[1])), (35.5, 5.5));
    for (i, (s, ws)) in samples.iter().zip(world_samples).enumerate() {
        let (x, y, heading, d) = (number(&s[0]), number(&s[1]), number(&s[2]), number(&s[3]));
        // map_server: a point (x, y) of a map H cells high is at
        // (origin.x + x · res, origin.y + (H − y) · res).
        let (wx, wy) = (-1.0 + x * 0.05, 2.0 + (30.0 - y) * 0.05);
        assert!((number(&ws[0]) - wx).abs() < 1e-12, "sample {i}");
        assert!((number(&ws[1]) - wy).abs() < 1e-12, "sample {i}");
        let yaw = number(&ws[2]);
        assert!(
            ((yaw + heading).sin()).abs() < 1e-12 && (yaw + heading).cos() > 0.0,
            "yaw is −heading"
        );
        assert!((number(&ws[3]) - d * 0.05).abs() < 1e-12);
        if i > 0 {
            let p = &samples[i - 1];
            let gap = (x - number(&p[0])).hypot(y - number(&p[1]));
            assert!(gap <= spacing + 1e-9, "samples {gap} apart");
            assert!(d > number(&p[3]), "distance from the start increases");
        }
    }
    // The path goes round the wall's lower end: in the world frame, y up, it dips below the
    // start's height and the headings there point down the map (positive heading).
    let lowest = world_samples
        .iter()
        .map(|s| number(&s[1]))
        .fold(f64::INFINITY, f64::min);
    assert!(
        lowest < 2.0 + (30.0 - 20.0) * 0.05,
        "round the wall's end, below it"
    );

    let rows: Vec<String> = std::fs::read_to_string(&csv)
        .expect("the CSV")
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(rows[0], "x,y,heading,s,wx,wy,yaw,ws");
    assert_eq!(rows.len(), samples.len() + 1);
    let fields: Vec<f64> = rows[1]
        .split(',')
        .map(|f| f.parse().expect("a number"))
        .collect();
    assert_eq!(fields[..2], [5.5, 5.5]);
    assert_eq!(fields[4], number(&world_samples[0][0]));

    // A turning radius in metres: 0.1 m is 2 cells of 0.05 m, held round the wall's end
    // and reported, with the largest heading change between the exported samples.
    let bounded = dir.join("bounded.json");
    let solved = gridpath(&[
        "solve",
        json.to_str().expect("utf-8"),
        "--from",
        "5,5",
        "--to",
        "35,5",
        "--min-turn-radius-m",
        "0.1",
        "--export",
        bounded.to_str().expect("utf-8"),
    ]);
    assert!(
        solved.status.success(),
        "{}",
        String::from_utf8_lossy(&solved.stderr)
    );
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&bounded).expect("the export"))
        .expect("JSON");
    assert_eq!(doc["smoothing"]["min_turn_radius"], 2.0);
    let radius = number(&doc["smoothed"]["min_turn_radius"]);
    assert!(radius >= 1.98, "least radius {radius}");
    let turn = number(&doc["smoothed"]["samples_max_heading_change"]);
    assert!(
        turn <= 0.25 / radius * 1.02,
        "{turn} rad between samples 0.25 apart"
    );
    // A map without a world frame takes the radius in cells only.
    let plain = gridpath(&[
        "solve",
        "maps/default.json",
        "--smooth",
        "--min-turn-radius-m",
        "0.5",
    ]);
    assert!(!plain.status.success());
    assert!(
        String::from_utf8_lossy(&plain.stderr)
            .contains("--min-turn-radius-m needs a map with a world frame"),
        "{}",
        String::from_utf8_lossy(&plain.stderr)
    );
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
    assert_eq!(output.status.code(), Some(64));
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("--tension") && error.contains("expected a number from 0 to 1, got \"1.5\""),
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

#[test]
fn a_hex_map_is_smoothed_in_its_world_frame_and_exported_so() {
    use gridpath::grid::{Cell, Grid, HexLayout, Map, Topology};
    // A wall to go around, on flat-top hexes with the even columns pushed down.
    let layout = HexLayout::EVEN_Q;
    let grid = Grid::from_ascii(&["........", "..####..", "........", "........"])
        .expect("a valid map")
        .with_topology(Topology::Hex(layout));
    let dir = tempfile::tempdir().expect("temp dir");
    let map = dir.path().join("hexes.json");
    std::fs::write(
        &map,
        gridpath::format::json::to_string(&Map::new("hexes", grid)),
    )
    .expect("write the map");
    let export = dir.path().join("path.json");
    let out = json_of(&gridpath(&[
        "solve",
        map.to_str().expect("a UTF-8 path"),
        "--from",
        "0,1",
        "--to",
        "7,1",
        "--smooth",
        "--json",
        "--export",
        export.to_str().expect("a UTF-8 path"),
    ]));
    assert_eq!(out["topology"], "even-q");
    let centre = |x: u32, y: u32| {
        let (cx, cy) = Topology::Hex(layout).centre(Cell::new(x, y));
        [cx, cy]
    };
    let smoothed = &out["smoothed"];
    let waypoints = smoothed["waypoints"].as_array().expect("waypoints");
    assert_eq!(point(&waypoints[0]), centre(0, 1));
    assert_eq!(point(&waypoints[waypoints.len() - 1]), centre(7, 1));
    assert!(waypoints.len() > 2, "the wall is in the way: {waypoints:?}");
    assert!(smoothed["cost"].as_f64() <= out["cost"].as_f64());
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(&export).expect("the export was written"))
            .expect("the export is JSON");
    assert_eq!(doc["map"]["topology"], "even-q");
    assert_eq!(doc["units"], gridpath::format::path_export::UNITS_HEX);
    assert_eq!(doc["smoothed"]["waypoints"], smoothed["waypoints"]);
    let samples = doc["smoothed"]["samples"].as_array().expect("samples");
    assert_eq!(
        point(&Value::from(&samples[0].as_array().expect("a sample")[..2])),
        centre(0, 1)
    );
}

#[test]
fn a_long_hex_row_is_smoothed_and_an_export_past_the_sample_limit_is_refused_before_writing() {
    use gridpath::grid::{Grid, HexLayout, Map, Topology};
    // One row of 10,050 pointy-top hexes: the curve is 10,049 cells, 10,049,001 samples at
    // the smallest spacing.
    let grid = Grid::from_ascii(&[".".repeat(10_050).as_str()])
        .expect("a valid map")
        .with_topology(Topology::Hex(HexLayout::ODD_R));
    let dir = tempfile::tempdir().expect("temp dir");
    let map = dir.path().join("row.json");
    std::fs::write(
        &map,
        gridpath::format::json::to_string(&Map::new("row", grid)),
    )
    .expect("write the map");
    let export = dir.path().join("row.json.csv");
    let args = |spacing: &'static str| {
        gridpath(&[
            "solve",
            map.to_str().expect("a UTF-8 path"),
            "--from",
            "0,0",
            "--to",
            "10049,0",
            "--smooth",
            "--json",
            "--export",
            export.to_str().expect("a UTF-8 path"),
            "--spacing",
            spacing,
        ])
    };
    let refused = args("0.001");
    assert_eq!(refused.status.code(), Some(1));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("the 10049.0-cell curve into 1004900")
            && err.contains("samples (about 965 MB of csv), over the limit of 10000000"),
        "{err}"
    );
    assert!(!export.exists(), "nothing is written");
    // At a spacing within the limit the same row smooths to one straight segment.
    let out = json_of(&args("0.01"));
    let waypoints = out["smoothed"]["waypoints"].as_array().expect("waypoints");
    assert_eq!(waypoints.len(), 2, "{waypoints:?}");
    let text = std::fs::read_to_string(&export).expect("the export was written");
    let rows = text.lines().count() - 1;
    assert!((1_004_900..=1_004_903).contains(&rows), "{rows} samples");
}
