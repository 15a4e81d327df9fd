//! Paths for a robot's body through `gridpath solve`: a unit larger than a cell follows its
//! centre, and a clearance asked for the body keeps it off walls in the search itself.

use std::path::PathBuf;

mod common;
use common::{gridpath, json_of, point};

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

/// A wall across a room 11 × 9 cells with a gap `gap` cells wide in its middle, from column 4.
fn pillars(gap: usize) -> Vec<String> {
    let mut rows = vec![".".repeat(11); 9];
    rows[4] = format!(
        "{}{}{}",
        "@".repeat(4),
        ".".repeat(gap),
        "@".repeat(7 - gap)
    );
    rows
}

/// The distance from (x, y) to the nearest wall square or the map's border, measured here
/// on its own: the test's check of the tool's clearance.
fn distance_to_walls(rows: &[String], x: f64, y: f64) -> f64 {
    let passable = |cx: i64, cy: i64| {
        usize::try_from(cy)
            .ok()
            .and_then(|cy| rows.get(cy))
            .zip(usize::try_from(cx).ok())
            .and_then(|(line, cx)| line.as_bytes().get(cx))
            .is_some_and(|&c| c != b'@')
    };
    wall_distance(&passable, x, y, (rows.len() + rows[0].len()) as f64)
}

#[test]
fn a_round_body_too_wide_for_the_gap_gets_no_path() {
    let rows = pillars(2);
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let map = map_file("pillars-narrow", &rows);
    let map = map.to_str().expect("a UTF-8 path");
    let ask = |clearance: &str| {
        gridpath(&[
            "solve",
            map,
            "--from",
            "2,1",
            "--to",
            "8,7",
            "--smooth",
            "--clearance",
            clearance,
            "--json",
        ])
    };
    // A body of radius 0.5 passes the gap two cells wide; one of radius 1.2 does not.
    assert_eq!(json_of(&ask("0.5"))["found"], true);
    let out = ask("1.2");
    assert_eq!(
        out.status.code(),
        Some(2),
        "no way through for a body 2.4 cells wide"
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["found"], false);
    assert_eq!(v["smoothed"], Value::Null);
    // The place it cannot pass: a cell of the gap, its centre half a cell from a pillar.
    let cell = &v["narrowest"]["cell"];
    assert_eq!(cell[1], 4, "{v}");
    assert!(cell[0] == 5 || cell[0] == 6, "{v}");
    assert!((v["narrowest"]["room"].as_f64().expect("room") - 0.5).abs() < 1e-9);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no path keeps a clearance of 1.2 cells") && err.contains("narrowest at ("),
        "{err}"
    );
}

#[test]
fn a_round_body_that_fits_keeps_its_radius_from_the_walls() {
    let rows = pillars(3);
    let strs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let map = map_file("pillars-wide", &strs);
    let out = json_of(&gridpath(&[
        "solve",
        map.to_str().expect("a UTF-8 path"),
        "--from",
        "2,1",
        "--to",
        "8,7",
        "--smooth",
        "--clearance",
        "1.2",
        "--json",
    ]));
    for cell in out["path"].as_array().expect("a path") {
        let (x, y) = (cell[0].as_f64().expect("x"), cell[1].as_f64().expect("y"));
        let room = distance_to_walls(&rows, x + 0.5, y + 0.5);
        assert!(
            room >= 1.2,
            "the path's cell ({x}, {y}) is {room} from a wall"
        );
    }
    // Every point of the curve, sampled densely, keeps the radius.
    let mut least = f64::INFINITY;
    for piece in out["smoothed"]["beziers"].as_array().expect("beziers") {
        let p: Vec<[f64; 2]> = piece
            .as_array()
            .expect("4 points")
            .iter()
            .map(point)
            .collect();
        for i in 0..=200 {
            let t = f64::from(i) / 200.0;
            let u = 1.0 - t;
            let at = |k: usize| {
                u * u * u * p[0][k]
                    + 3.0 * u * u * t * p[1][k]
                    + 3.0 * u * t * t * p[2][k]
                    + t * t * t * p[3][k]
            };
            least = least.min(distance_to_walls(&rows, at(0), at(1)));
        }
    }
    assert!(least >= 1.2 - 1e-9, "the curve comes {least} from a wall");
}

#[test]
fn theta_star_keeps_the_clearance_asked_along_its_segments() {
    // Round a pillar's corner: Theta*'s segment from (0, 3) to (3, 1) passes 0.139 cells
    // from the corner at (3, 3).
    let rows: Vec<String> = ["........", "........", "...@@...", "...@@...", "........"]
        .iter()
        .map(|r| (*r).to_owned())
        .collect();
    let strs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let map = map_file("theta-corner", &strs);
    let map = map.to_str().expect("a UTF-8 path");
    for algo in ["theta", "lazy-theta"] {
        let least_along = |clearance: Option<&str>| {
            let mut args = vec![
                "solve", map, "--from", "0,3", "--to", "7,1", "--algo", algo, "--json",
            ];
            if let Some(c) = clearance {
                args.extend(["--clearance", c]);
            }
            let out = json_of(&gridpath(&args));
            let waypoints: Vec<[f64; 2]> = out["waypoints"]
                .as_array()
                .expect("any-angle waypoints")
                .iter()
                .map(|c| point(c).map(|v| v + 0.5))
                .collect();
            let mut least = f64::INFINITY;
            for pair in waypoints.windows(2) {
                for i in 0..=1000 {
                    let t = f64::from(i) / 1000.0;
                    let x = pair[0][0] + (pair[1][0] - pair[0][0]) * t;
                    let y = pair[0][1] + (pair[1][1] - pair[0][1]) * t;
                    least = least.min(distance_to_walls(&rows, x, y));
                }
            }
            least
        };
        assert!(
            least_along(None) < 0.2,
            "{algo}: without a clearance it hugs the corner"
        );
        let least = least_along(Some("0.45"));
        assert!(
            least >= 0.45 - 1e-9,
            "{algo}: a segment comes {least} from a wall"
        );
    }
}

/// An L-shaped corridor 8 cells wide in a map 32 × 32: along rows 2 to 9, then down
/// columns 22 to 29.
fn l_corridor() -> Vec<String> {
    (0..32)
        .map(|y| {
            (0..32)
                .map(|x| {
                    let along = (2..=9).contains(&y) && (2..=29).contains(&x);
                    let down = (22..=29).contains(&x) && (2..=29).contains(&y);
                    if along || down { '.' } else { '@' }
                })
                .collect()
        })
        .collect()
}

#[test]
fn a_tight_corner_turns_wide_to_keep_the_turning_radius() {
    let rows = l_corridor();
    let strs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let map = map_file("l-corridor", &strs);
    let export = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("robot-l-corridor.json");
    let out = gridpath(&[
        "solve",
        map.to_str().expect("a UTF-8 path"),
        "--from",
        "5,5",
        "--to",
        "25,26",
        "--clearance",
        "0.5",
        "--min-turn-radius",
        "6",
        "--spacing",
        "0.05",
        "--export",
        export.to_str().expect("a UTF-8 path"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let file: Value =
        serde_json::from_str(&std::fs::read_to_string(&export).expect("the export was written"))
            .expect("the export is JSON");
    let samples: Vec<[f64; 2]> = file["smoothed"]["samples"]
        .as_array()
        .expect("samples")
        .iter()
        .map(|s| [s[0].as_f64().expect("x"), s[1].as_f64().expect("y")])
        .collect();
    // Measured here: the distance of every sample to the walls, and the radius of the circle
    // through each three consecutive samples.
    let least_room = samples
        .iter()
        .map(|&[x, y]| distance_to_walls(&rows, x, y))
        .fold(f64::INFINITY, f64::min);
    assert!(
        least_room >= 0.5 - 1e-9,
        "a sample is {least_room} from a wall"
    );
    let mut least_radius = f64::INFINITY;
    for w in samples.windows(3) {
        let (a, b, c) = (w[0], w[1], w[2]);
        let cross = ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])).abs();
        if cross > 1e-12 {
            let side = |p: [f64; 2], q: [f64; 2]| (p[0] - q[0]).hypot(p[1] - q[1]);
            least_radius = least_radius.min(side(a, b) * side(b, c) * side(c, a) / (2.0 * cross));
        }
    }
    assert!(
        least_radius >= 6.0 * 0.99,
        "the curve turns on a radius of {least_radius}"
    );
}

/// The exact distance from a point to the nearest impassable cell's square or the map's
/// outside, by looking at every cell near it (the tests' own oracle).
fn wall_distance(passable: &dyn Fn(i64, i64) -> bool, x: f64, y: f64, reach: f64) -> f64 {
    let mut best = reach;
    for cy in (y - reach).floor() as i64..=(y + reach).ceil() as i64 {
        for cx in (x - reach).floor() as i64..=(x + reach).ceil() as i64 {
            if !passable(cx, cy) {
                let dx = (cx as f64 - x).max(0.0).max(x - (cx as f64 + 1.0));
                let dy = (cy as f64 - y).max(0.0).max(y - (cy as f64 + 1.0));
                best = best.min(dx.hypot(dy));
            }
        }
    }
    best
}

/// Checks a drive export from its samples alone: every sample and the middle of every chord
/// keeps `radius` cells from the walls, and every three samples turn no tighter than `turn`
/// cells. Returns the least clearance and the tightest turn.
fn check_drive(
    passable: &dyn Fn(i64, i64) -> bool,
    export: &Value,
    radius: f64,
    turn: f64,
) -> (f64, f64) {
    let samples: Vec<[f64; 2]> = export["samples"]
        .as_array()
        .expect("samples")
        .iter()
        .map(|s| {
            [
                s[0].as_f64().expect("present"),
                s[1].as_f64().expect("present"),
            ]
        })
        .collect();
    assert!(samples.len() > 10);
    let mut least = f64::INFINITY;
    for pair in samples.windows(2) {
        for t in [0.0, 0.25, 0.5, 0.75] {
            let x = pair[0][0] + (pair[1][0] - pair[0][0]) * t;
            let y = pair[0][1] + (pair[1][1] - pair[0][1]) * t;
            least = least.min(wall_distance(passable, x, y, radius + 2.0));
        }
    }
    // Chords of a quarter cell stray at most 0.25² / (8 · turn) from their arc.
    let sag = 0.25 * 0.25 / (8.0 * turn);
    assert!(
        least >= radius - sag - 1e-9,
        "the body comes {least} from a wall (radius {radius})"
    );
    let mut tightest = f64::INFINITY;
    for w in samples.windows(3) {
        let (a, b, c) = (w[0], w[1], w[2]);
        let ab = (a[0] - b[0]).hypot(a[1] - b[1]);
        let bc = (b[0] - c[0]).hypot(b[1] - c[1]);
        let ca = (c[0] - a[0]).hypot(c[1] - a[1]);
        let cross = ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])).abs();
        if ab > 1e-6 && bc > 1e-6 && cross > 1e-12 {
            tightest = tightest.min(ab * bc * ca / (2.0 * cross));
        }
    }
    assert!(
        tightest >= turn * (1.0 - 1e-6),
        "a turn of radius {tightest} (limit {turn})"
    );
    (least, tightest)
}

#[test]
fn a_drive_keeps_the_body_and_the_turning_circle_on_every_sample() {
    let rows: Vec<String> =
        std::fs::read_to_string(common::root().join("tests/data/floorplan.json"))
            .map(|text| serde_json::from_str::<Value>(&text).expect("json"))
            .expect("the fixture")["rows"]
            .as_array()
            .expect("present")
            .iter()
            .map(|r| r.as_str().expect("present").to_owned())
            .collect();
    let passable = |x: i64, y: i64| {
        y >= 0
            && (y as usize) < rows.len()
            && x >= 0
            && (x as usize) < rows[0].len()
            && rows[y as usize].as_bytes()[x as usize] == b'.'
    };
    let out = std::env::temp_dir().join(format!("gridpath-drive-{}.json", std::process::id()));
    let map = common::root().join("tests/data/floorplan.json");
    let run = || {
        gridpath(&[
            "drive".as_ref(),
            map.as_os_str(),
            "--from=3,3".as_ref(),
            "--to=28,31".as_ref(),
            "--start-yaw=0".as_ref(),
            "--goal-yaw=0".as_ref(),
            "--robot-radius=0.6".as_ref(),
            "--turning-radius=1.5".as_ref(),
            "--export".as_ref(),
            out.as_os_str(),
        ])
    };
    let first = run();
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let bytes = std::fs::read(&out).expect("the export");
    let export: Value = serde_json::from_slice(&bytes).expect("json");
    let (least, tightest) = check_drive(&passable, &export, 0.6, 1.5);
    assert!(
        (export["least_clearance"]["cells"]
            .as_f64()
            .expect("present")
            - least)
            .abs()
            < 0.05
    );
    assert!(tightest < 1.6, "the drive turns at its radius somewhere");
    assert_eq!(export["motion"], "dubins");
    assert_eq!(export["body"]["radius"]["cells"], 0.6);
    let last = export["samples"]
        .as_array()
        .expect("present")
        .last()
        .expect("present")
        .clone();
    assert!(
        (last[0].as_f64().expect("present") - 28.5).abs() < 1e-6
            && (last[1].as_f64().expect("present") - 31.5).abs() < 1e-6
    );
    // Facing +x: a heading of 0 (or a rounding error short of a full turn).
    let heading = last[2].as_f64().expect("present");
    assert!(
        heading.min(std::f64::consts::TAU - heading) < 1e-6,
        "heading {heading}"
    );
    assert!(run().status.success());
    assert_eq!(
        std::fs::read(&out).expect("present"),
        bytes,
        "the same input gives the same bytes"
    );
    // The export never replaces the map it reads.
    let refused = gridpath(&[
        "drive".as_ref(),
        map.as_os_str(),
        "--from=3,3".as_ref(),
        "--to=28,31".as_ref(),
        "--robot-radius=0.4".as_ref(),
        "--turning-radius=1".as_ref(),
        "--export".as_ref(),
        map.as_os_str(),
    ]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("being read"));
    let _ = std::fs::remove_file(&out);
}

#[test]
fn a_body_too_wide_for_every_door_is_told_where_the_way_narrows() {
    let map = common::root().join("tests/data/floorplan.json");
    // The rooms' doors are two cells wide: a body of radius 1.2 passes none.
    let out = gridpath(&[
        "drive".as_ref(),
        map.as_os_str(),
        "--from=6,10".as_ref(),
        "--to=8,26".as_ref(),
        "--robot-radius=1.2".as_ref(),
        "--turning-radius=1".as_ref(),
        "--json".as_ref(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(json["found"], false);
    let room = json["narrowest"]["clearance"]
        .as_f64()
        .expect("the narrowest place");
    assert!(
        (room - 1.0).abs() < 1e-9,
        "a door two cells wide: its cells are 1 from the walls"
    );
    let (x, y) = (
        json["narrowest"]["cell"][0].as_u64().expect("present"),
        json["narrowest"]["cell"][1].as_u64().expect("present"),
    );
    // The doors are in the walls of rows 15 and 20 and of columns 14 and 30.
    assert!(
        y == 15 || y == 20 || x == 14 || x == 30,
        "({x}, {y}) is in no door"
    );
    let text = gridpath(&[
        "drive".as_ref(),
        map.as_os_str(),
        "--from=6,10".as_ref(),
        "--to=8,26".as_ref(),
        "--robot-radius=1.2".as_ref(),
        "--turning-radius=1".as_ref(),
    ]);
    assert!(
        String::from_utf8_lossy(&text.stdout).contains("the widest way narrows to 1.000 cells")
    );
    let unknown = gridpath(&[
        "drive".as_ref(),
        map.as_os_str(),
        "--robot-radius=1".as_ref(),
        "--turning-radius=1".as_ref(),
        "--from=6,10".as_ref(),
        "--to=8,26".as_ref(),
        "--motion=tank".as_ref(),
    ]);
    assert_eq!(unknown.status.code(), Some(64));
}

#[test]
fn a_drive_on_the_turtlebot3_map_is_in_metres_in_the_map_frame() {
    let yaml = common::root().join("../shared/samples/ros-turtlebot3/map.yaml");
    if !yaml.exists() {
        common::skip("the turtlebot3 map is not beside the project");
        return;
    }
    let out = gridpath(&[
        "drive".as_ref(),
        yaml.as_os_str(),
        "--from-m=-1.9,-0.5".as_ref(),
        "--to-m=1.9,0.6".as_ref(),
        "--start-yaw=90".as_ref(),
        "--goal-yaw=90".as_ref(),
        "--robot-radius=0.15".as_ref(),
        "--turning-radius=0.3".as_ref(),
        "--json".as_ref(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let json = json_of(&out);
    assert_eq!(json["body"]["radius"]["m"], 0.15);
    let length = json["length"]["m"].as_f64().expect("present");
    assert!((3.8..6.0).contains(&length), "length {length} m");
    assert!(json["least_clearance"]["m"].as_f64().expect("present") >= 0.15 - 1e-9);
}

#[test]
fn a_car_that_may_reverse_backs_out_and_says_so_in_the_export() {
    let map = map_file(
        "dead-end",
        &["@@@@@@@@@@@@@", "............@", "@@@@@@@@@@@@@"],
    );
    let drive = |motion: &str| {
        gridpath(&[
            "drive".as_ref(),
            map.as_os_str(),
            "--from=9,1".as_ref(),
            "--to=2,1".as_ref(),
            "--start-yaw=0".as_ref(),
            "--goal-yaw=0".as_ref(),
            "--robot-radius=0.3".as_ref(),
            "--turning-radius=1".as_ref(),
            format!("--motion={motion}").as_ref(),
            "--json".as_ref(),
        ])
    };
    assert_eq!(
        drive("dubins").status.code(),
        Some(2),
        "forward only, it cannot turn round"
    );
    let json = json_of(&drive("reeds-shepp"));
    assert_eq!(json["motion"], "reeds-shepp");
    assert!((json["length"]["cells"].as_f64().expect("a length") - 7.0).abs() < 1e-6);
    assert!(
        json["pieces"]
            .as_array()
            .expect("pieces")
            .iter()
            .all(|p| p["gear"] == "reverse")
    );
}

#[test]
fn an_inflation_keeps_the_drive_off_the_walls_where_there_is_room() {
    let map = map_file("hall", &["..............................."; 9]);
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("robot-hall-drive.json");
    let drive = |extra: &[&str]| -> Value {
        let mut args = vec![
            "drive".to_owned(),
            map.display().to_string(),
            "--from=2,1".to_owned(),
            "--to=28,1".to_owned(),
            "--start-yaw=0".to_owned(),
            "--goal-yaw=0".to_owned(),
            "--robot-radius=0.5".to_owned(),
            "--turning-radius=2".to_owned(),
            format!("--export={}", out.display()),
        ];
        args.extend(extra.iter().map(|s| (*s).to_owned()));
        let run = gridpath(&args);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        serde_json::from_slice(&std::fs::read(&out).expect("the export")).expect("json")
    };
    // How far the drive's middle sample is from the top wall.
    let middle = |j: &Value| {
        let samples = j["samples"].as_array().expect("samples");
        samples[samples.len() / 2][1].as_f64().expect("a y")
    };
    let plain = drive(&[]);
    assert!(
        (middle(&plain) - 1.5).abs() < 1e-6,
        "straight along the row"
    );
    let kept = drive(&["--inflation-radius=4", "--cost-scaling-factor=1"]);
    assert!(
        middle(&kept) > 3.0,
        "the middle is {} from the wall",
        middle(&kept)
    );
    assert_eq!(kept["inflation"]["radius"]["cells"], 4.0);
    let cost = kept["cost"]["cells"].as_f64().expect("a cost");
    assert!(cost >= kept["length"]["cells"].as_f64().expect("a length"));
}
