//! The command line's contract: output shapes and exit codes that scripts rely on.

#![allow(clippy::unwrap_used)] // Test helpers fail loudly on broken test data.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::gridpath;

fn temp_map(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gridpath-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
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

fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).expect("stdout is one JSON object")
}

#[test]
fn solve_json_has_the_documented_shape() {
    let map = temp_map("demo.json", DEMO);
    let out = gridpath(&["solve", map.to_str().unwrap(), "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    assert_eq!(v["found"], true);
    assert_eq!(v["algorithm"], "astar");
    let path = v["path"].as_array().unwrap();
    assert_eq!(path.first().unwrap(), &serde_json::json!([0, 0]));
    assert_eq!(path.last().unwrap(), &serde_json::json!([5, 0]));
    assert!(
        path.iter().any(|c| c[1] == 3),
        "the path takes the road round the wall"
    );
    assert!(v["cost"].as_f64().unwrap() > 0.0 && v["length"].as_f64().unwrap() > 0.0);
    for key in [
        "expanded",
        "pushed",
        "max_open",
        "time_us",
        "build_us",
        "prepared_bytes",
    ] {
        assert!(v["stats"][key].is_u64(), "stats.{key}");
    }
}

/// The text of `solve --json` with the query's and the build's times, which vary, set to 0.
fn solve_json_text(map: &Path, extra: &[&str]) -> String {
    let mut args = vec!["solve", map.to_str().unwrap(), "--json"];
    args.extend_from_slice(extra);
    let mut text = String::from_utf8(gridpath(&args).stdout).unwrap();
    for key in ["\"time_us\":", "\"build_us\":"] {
        let at = text.find(key).unwrap() + key.len();
        let end = at + text[at..].find(',').unwrap();
        text = format!("{}0{}", &text[..at], &text[end..]);
    }
    text
}

#[test]
fn solve_json_keeps_its_text_and_key_order() {
    let map = temp_map("order.json", DEMO);
    assert_eq!(
        solve_json_text(&map, &[]),
        concat!(
            r#"{"found":true,"algorithm":"astar","diagonal":"no-cut","heuristic":"octile","#,
            r#""weight":1.0,"from":[0,0],"to":[5,0],"cost":7.535533905932737,"#,
            r#""length":9.242640687119286,"optimality":"exact","#,
            r#""path":[[0,0],[0,1],[0,2],[1,3],[2,3],[3,3],[4,2],[4,1],[5,0]],"#,
            r#""stats":{"expanded":19,"pushed":26,"max_open":7,"time_us":0,"build_us":0,"#,
            r#""prepared_bytes":0,"budget_exhausted":false}}"#,
            "\n"
        )
    );
    let smoothed = solve_json_text(&map, &["--smooth"]);
    assert!(
        smoothed.contains(r#""budget_exhausted":false},"smoothed":{"waypoints":[[0.5,0.5],"#),
        "{smoothed}"
    );
    let walled = temp_map(
        "order-walled.json",
        &DEMO.replace("\"======\"", "\"..#...\""),
    );
    assert_eq!(
        solve_json_text(&walled, &[]),
        concat!(
            r#"{"found":false,"algorithm":"astar","diagonal":"no-cut","heuristic":"octile","#,
            r#""weight":1.0,"from":[0,0],"to":[5,0],"cost":null,"length":null,"#,
            r#""optimality":"none (no path)","path":[],"#,
            r#""stats":{"expanded":8,"pushed":9,"max_open":3,"time_us":0,"build_us":0,"#,
            r#""prepared_bytes":0,"budget_exhausted":false},"message":"Path not found between (0, 0) and (5, 0)"}"#,
            "\n"
        )
    );
}

#[test]
fn solve_without_json_draws_the_map() {
    let map = temp_map("draw.json", DEMO);
    let out = gridpath(&["solve", map.to_str().unwrap(), "--algo", "dijkstra"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Path found: cost"), "{text}");
    assert!(text.contains("\nS.#..E\n"), "{text}");
    assert!(text.contains('*'));
}

#[test]
fn no_path_exits_2_with_json_still_printed() {
    let walled = DEMO.replace("\"======\"", "\"..#...\"");
    let map = temp_map("walled.json", &walled);
    let out = gridpath(&["solve", map.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(2));
    let v = json(&out);
    assert_eq!(v["found"], false);
    assert_eq!(v["message"], "Path not found between (0, 0) and (5, 0)");
}

#[test]
fn partial_plans_to_the_nearest_reachable_cell_and_says_so() {
    let walled = DEMO.replace("\"======\"", "\"..#...\"");
    let map = temp_map("walled-partial.json", &walled);
    let out = gridpath(&["solve", map.to_str().unwrap(), "--json", "--partial"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "the goal itself is still not reached"
    );
    let v = json(&out);
    assert_eq!(v["found"], false);
    assert_eq!(v["partial"], true);
    assert_eq!(
        v["reached"],
        serde_json::json!([1, 0]),
        "beside the wall, nearest the goal"
    );
    assert_eq!(
        v["path"].as_array().unwrap().last(),
        Some(&serde_json::json!([1, 0]))
    );
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("nearest reachable cell (1, 0)")
    );
    // A goal on a wall is reached as near as can be, not refused.
    let out = gridpath(&[
        "solve",
        map.to_str().unwrap(),
        "--to",
        "2,0",
        "--partial",
        "--json",
    ]);
    assert_eq!(json(&out)["reached"], serde_json::json!([1, 0]));
    // Without --partial nothing changes: no path, and no partial keys.
    let out = gridpath(&["solve", map.to_str().unwrap(), "--json"]);
    assert!(json(&out).get("partial").is_none());
}

#[test]
fn a_turn_penalty_is_paid_per_45_degrees_and_refused_where_it_cannot_apply() {
    let map = temp_map("turns.json", DEMO);
    let plain = json(&gridpath(&["solve", map.to_str().unwrap(), "--json"]));
    let out = gridpath(&[
        "solve",
        map.to_str().unwrap(),
        "--json",
        "--turn-penalty",
        "0.5",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    assert_eq!(v["turn_penalty"], 0.5);
    assert!(v["cost"].as_f64().unwrap() > plain["cost"].as_f64().unwrap());
    assert!(
        plain.get("turn_penalty").is_none(),
        "no key without the option"
    );
    let out = gridpath(&[
        "solve",
        map.to_str().unwrap(),
        "--algo",
        "bfs",
        "--turn-penalty",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot search with a turn penalty"));
    let out = gridpath(&["solve", map.to_str().unwrap(), "--turn-penalty", "-1"]);
    assert_ne!(out.status.code(), Some(0));
}

#[test]
fn routes_go_through_waypoints_in_order_or_the_cheapest_order_and_patrols_come_back() {
    let map = temp_map("route.json", DEMO);
    let m = map.to_str().unwrap();
    let route = |extra: &[&str]| {
        let mut args = vec!["solve", m, "--json"];
        args.extend_from_slice(extra);
        let out = gridpath(&args);
        assert_eq!(out.status.code(), Some(0), "{extra:?}");
        json(&out)
    };
    let given = route(&["--via", "5,3", "--via", "0,3"]);
    assert_eq!(
        given["order"],
        serde_json::json!([[0, 0], [5, 3], [0, 3], [5, 0]])
    );
    assert_eq!(given["legs"].as_array().unwrap().len(), 3);
    let legs: f64 = given["legs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["cost"].as_f64().unwrap())
        .sum();
    assert!((legs - given["cost"].as_f64().unwrap()).abs() < 1e-9);
    let best = route(&["--via", "5,3", "--via", "0,3", "--best-order"]);
    assert_eq!(
        best["order"],
        serde_json::json!([[0, 0], [0, 3], [5, 3], [5, 0]])
    );
    assert!(best["cost"].as_f64().unwrap() < given["cost"].as_f64().unwrap());
    let patrol = route(&["--patrol"]);
    let path = patrol["path"].as_array().unwrap();
    assert_eq!(path.first(), path.last(), "back at the start");
    assert_eq!(patrol["legs"].as_array().unwrap().len(), 2);
}

#[test]
fn bad_input_exits_1_with_a_message_that_says_where() {
    let broken = DEMO.replace(
        "\"..#...\", \"..#...\", \"..#...\"",
        "\"..#...\", \"..x...\", \"..#...\"",
    );
    let map = temp_map("broken.json", &broken);
    let out = gridpath(&["solve", map.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("broken.json") && err.contains("unknown symbol 'x' at row 1, column 2"),
        "{err}"
    );

    let map = temp_map("ok.json", DEMO);
    let out = gridpath(&["solve", map.to_str().unwrap(), "--to", "2,0"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("impassable"));

    let out = gridpath(&["solve", "/nonexistent/map.json"]);
    assert_eq!(out.status.code(), Some(1));
    let out = gridpath(&["solve", map.to_str().unwrap(), "--from", "1;2"]);
    assert_ne!(out.status.code(), Some(0));
}

#[test]
fn a_scenario_file_over_its_size_limit_is_refused_naming_the_file_and_limit() {
    let map = temp_map("small.map", "type octile\nheight 1\nwidth 2\nmap\n..\n");
    let scen = temp_map("huge.scen", "");
    // Sparse: nothing written, no disk used.
    std::fs::File::options()
        .write(true)
        .open(&scen)
        .unwrap()
        .set_len((64 << 20) + 1)
        .unwrap();
    let out = gridpath(&["scen", map.to_str().unwrap(), scen.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("huge.scen") && err.contains("64 MiB") && err.contains("scenario file"),
        "{err}"
    );
}

#[test]
fn usage_errors_exit_64_apart_from_no_path() {
    let map = temp_map("usage.json", DEMO);
    let map = map.to_str().unwrap();
    for args in [
        &["solve", map, "--algo", "nope"][..],
        &["solve", map, "--from", "1;2"],
        &["solve", map, "--weight", "NaN", "--algo", "dijkstra"],
        &["solve", map, "--weight", "inf", "--algo", "bfs"],
        &["field", map, "--to", "x"],
        &["scen", map, map, "--weight", "0.5"],
        &["solve", map, "--no-such-option"],
        &["no-such-command"],
    ] {
        let out = gridpath(args);
        assert_eq!(out.status.code(), Some(64), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?} says what is wrong");
    }
    let out = gridpath(&["solve", map, "--weight", "nan"]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("--weight") && err.contains("from 1 to 1000000"),
        "{err}"
    );
    for args in [&["--help"][..], &["--version"], &["solve", "--help"]] {
        let out = gridpath(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(!out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_scenario_file_with_no_queries_is_an_error_naming_it() {
    let map = temp_map(
        "empty_scen.map",
        "type octile\nheight 1\nwidth 2\nmap\n..\n",
    );
    let scen = temp_map("empty.scen", "version 1\n");
    let out = gridpath(&["scen", map.to_str().unwrap(), scen.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("empty.scen") && err.contains("no queries"),
        "{err}"
    );
}

#[test]
fn a_goal_on_a_wall_is_an_error_naming_the_map_file() {
    let map = temp_map("walled.json", DEMO);
    for args in [["field", "--to", "2,0"], ["solve", "--from", "2,0"]] {
        let out = gridpath(&[args[0], map.to_str().unwrap(), args[1], args[2]]);
        assert_eq!(out.status.code(), Some(1), "{}", args[0]);
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains("walled.json") && err.contains("(2, 0)"),
            "{}: {err}",
            args[0]
        );
    }
}

#[test]
fn terrain_costs_outside_the_range_are_refused_and_the_range_ends_give_exact_costs() {
    let with_swamp = |cost: &str| {
        DEMO.replace(
            "\"=\", \"name\": \"Road\", \"cost\": 0.5",
            &format!("\"=\", \"name\": \"Road\", \"cost\": {cost}"),
        )
    };
    for cost in ["1e308", "5e-324"] {
        let map = temp_map("extreme_cost.json", &with_swamp(cost));
        let out = gridpath(&["solve", map.to_str().unwrap(), "--json"]);
        assert_eq!(out.status.code(), Some(1), "{cost}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains("extreme_cost.json")
                && err.contains("\"Road\"")
                && err.contains("terrains[1].cost")
                && err.contains("1e-6 to 1e6"),
            "{err}"
        );
    }
    // At both ends of the range the path's cost is a number, and the one expected. The wall
    // leaves one way round, through the road cell below it: a dear road is crossed in three
    // cells and seven grass steps, a cheap one followed all along with four grass steps.
    for (cost, expected) in [(1e6, 3e6 + 8.0), (1e-6, 5.0 + 6e-6)] {
        let map = temp_map("edge_cost.json", &with_swamp(&cost.to_string()));
        let out = gridpath(&[
            "solve",
            map.to_str().unwrap(),
            "--json",
            "--diagonal",
            "never",
        ]);
        assert_eq!(out.status.code(), Some(0), "{cost}");
        let v = json(&out);
        let found = v["cost"].as_f64().expect("the cost is a number");
        assert!(
            (found - expected).abs() <= 1e-12 * expected,
            "{found} vs {expected}"
        );
    }
}

#[test]
fn scen_reports_zero_mismatches_on_a_benchmark_file() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/movingai/dao");
    if !dir.is_dir() {
        common::skip("../shared/movingai is absent");
        return;
    }
    let (map, scen) = (dir.join("arena.map"), dir.join("arena.map.scen"));
    for algo in ["astar", "bidirectional"] {
        let mut expanded = Vec::new();
        // On one thread and on three: the same answers, so the same cells expanded.
        for jobs in ["1", "3"] {
            let out = gridpath(&[
                "scen",
                map.to_str().unwrap(),
                scen.to_str().unwrap(),
                "--algo",
                algo,
                "--jobs",
                jobs,
                "--json",
            ]);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&out.stdout)
            );
            let v = json(&out);
            assert_eq!(v["queries"], 160);
            assert_eq!(v["mismatches"], 0);
            // More threads than cores run on the cores.
            let cores = std::thread::available_parallelism().unwrap().get();
            let asked: usize = jobs.parse().unwrap();
            assert_eq!(v["jobs"].as_u64(), Some(asked.min(cores) as u64));
            assert!(v["total_ms"].is_f64() && v["expanded"].as_u64().unwrap() > 0);
            expanded.push(v["expanded"].clone());
        }
        assert_eq!(expanded[0], expanded[1], "{algo}");
    }
    // Greedy is not optimal: it must be caught mismatching, with exit 2.
    let out = gridpath(&[
        "scen",
        map.to_str().unwrap(),
        scen.to_str().unwrap(),
        "--algo",
        "greedy",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(json(&out)["mismatches"].as_u64().unwrap() > 0);
    let out = gridpath(&[
        "scen",
        map.to_str().unwrap(),
        scen.to_str().unwrap(),
        "--limit",
        "5",
        "--json",
    ]);
    assert_eq!(json(&out)["queries"], 5);
}

#[test]
fn movingai_maps_solve_too() {
    let map = temp_map(
        "tiny.map",
        "type octile\nheight 3\nwidth 3\nmap\n...\n.@.\n...\n",
    );
    let out = gridpath(&[
        "solve",
        map.to_str().unwrap(),
        "--from",
        "0,0",
        "--to",
        "2,2",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let cost = json(&out)["cost"].as_f64().unwrap();
    // The wall at the centre blocks every diagonal past it: four orthogonal steps.
    assert!((cost - 4.0).abs() < 1e-12, "no corner cutting: {cost}");
}

/// `gridpath … | head`: when the reader closes the pipe early the command ends quietly, with
/// no panic message, instead of failing on the next write.
#[test]
fn a_reader_that_stops_early_ends_the_command_quietly() {
    use std::io::Read as _;
    use std::process::Stdio;
    // A 400 × 400 field prints megabytes of JSON: far more than a pipe buffers.
    let rows: Vec<String> = (0..400).map(|_| ".".repeat(400)).collect();
    let map = serde_json::json!({
        "format": "gridpath-map", "version": 1, "width": 400, "height": 400,
        "terrains": [{"symbol": ".", "name": "Grass", "cost": 1.0, "color": "#6abe30"}],
        "rows": rows,
    });
    let path = temp_map("big.json", &map.to_string());
    let mut child = Command::new(env!("CARGO_BIN_EXE_gridpath"))
        .args(["field", path.to_str().unwrap(), "--to", "0,0", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
    assert!(
        output.status.success(),
        "status {:?}, stderr: {stderr}",
        output.status
    );
}

#[test]
fn a_unit_of_two_by_two_cannot_pass_a_gap_one_cell_wide() {
    let map = temp_map(
        "unit.json",
        &DEMO
            .replace(
                r##""rows": ["..#...", "..#...", "..#...", "======"]"##,
                r####""rows": ["......", "......", "###.##", "......", "......"]"####,
            )
            .replace(r#""height": 4"#, r#""height": 5"#)
            .replace(r#""goal": [5, 0]"#, r#""goal": [0, 3]"#),
    );
    let one = json(&gridpath(&["solve", map.to_str().unwrap(), "--json"]));
    assert_eq!(one["found"], true);
    let out = gridpath(&["solve", map.to_str().unwrap(), "--json", "--unit-size", "2"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "no way through for a 2 × 2 unit"
    );
    assert_eq!(json(&out)["found"], false);
}

#[test]
fn a_unit_that_does_not_fit_is_told_so_not_that_its_cell_is_impassable() {
    let level = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/default.json");
    let out = gridpath(&["solve", level.to_str().unwrap(), "--unit-size", "30"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains("impassable cell"), "{err}");
    assert!(
        err.contains("default.json")
            && err.contains("a unit of 30 × 30 cells does not fit at the start (6, 17)")
            && err.contains("the largest unit that fits there is"),
        "{err}"
    );
}

#[test]
fn automatic_markers_go_where_the_unit_fits() {
    // A room of 8 × 8 cells and a corridor one cell wide, with no start or goal: the markers
    // a 3 × 3 unit gets are in the room, where it fits.
    let mut rows = vec!["#".repeat(24); 10];
    for row in rows.iter_mut().take(9).skip(1) {
        row.replace_range(1..9, &".".repeat(8));
    }
    rows[4].replace_range(9..23, &".".repeat(14));
    let rows: Vec<String> = rows.iter().map(|r| format!("\"{r}\"")).collect();
    let map = DEMO
        .replace(r#""width": 6, "height": 4"#, r#""width": 24, "height": 10"#)
        .replace(
            r##""rows": ["..#...", "..#...", "..#...", "======"]"##,
            &format!("\"rows\": [{}]", rows.join(", ")),
        )
        .replace(r#","start": [0, 0], "goal": [5, 0]"#, "")
        .replace("\n  \"start\": [0, 0], \"goal\": [5, 0]", "");
    let map = temp_map("room-and-corridor.json", &map.replace(",\n}", "\n}"));
    let out = gridpath(&["solve", map.to_str().unwrap(), "--json", "--unit-size", "3"]);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(err.contains("names no start or goal"), "{err}");
    let v = json(&out);
    assert_eq!(v["found"], true, "{err}");
    for end in ["from", "to"] {
        let (x, y) = (v[end][0].as_u64().unwrap(), v[end][1].as_u64().unwrap());
        assert!(
            (1..=6).contains(&x) && (1..=6).contains(&y),
            "the {end} ({x}, {y}) has room for a 3 × 3 unit"
        );
    }
}

#[test]
fn any_angle_algorithms_write_their_waypoints_and_smooth_through_them() {
    let map = temp_map("any-angle.json", DEMO);
    let astar = json(&gridpath(&["solve", map.to_str().unwrap(), "--json"]));
    assert!(astar.get("waypoints").is_none(), "a grid path has none");
    for algo in ["theta", "lazy-theta"] {
        let out = gridpath(&[
            "solve",
            map.to_str().unwrap(),
            "--json",
            "--algo",
            algo,
            "--smooth",
        ]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v = json(&out);
        assert_eq!(v["algorithm"], algo);
        assert_eq!(v["optimality"], "any-angle, ≤ best grid path");
        assert_eq!(v["heuristic"], "euclidean", "the estimate it ranks by");
        let waypoints = v["waypoints"].as_array().unwrap();
        assert_eq!(waypoints.first().unwrap(), &serde_json::json!([0, 0]));
        assert_eq!(waypoints.last().unwrap(), &serde_json::json!([5, 0]));
        assert!(waypoints.len() < v["path"].as_array().unwrap().len());
        assert!(v["cost"].as_f64().unwrap() <= astar["cost"].as_f64().unwrap());
        // The curve runs through the search's own waypoints.
        let smoothed = v["smoothed"]["waypoints"].as_array().unwrap();
        assert_eq!(smoothed.len(), waypoints.len());
        assert_eq!(v["smoothed"]["cost"], v["cost"]);
    }
    let text = gridpath(&["solve", map.to_str().unwrap(), "--algo", "theta"]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("any-angle waypoints: (0, 0) → "));
}

#[test]
fn the_export_is_encoded_as_its_extension_says_confirmed_and_an_unknown_one_refused() {
    let map = temp_map("export.json", DEMO);
    let map = map.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("path.csv");
    let out = gridpath(&["solve", map, "--export", csv.to_str().unwrap(), "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    json(&out); // stdout stays one JSON object: the confirmation goes to stderr.
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("exported the path to") && err.contains("path.csv") && err.contains("CSV"),
        "{err}"
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.starts_with("x,y,heading,s\n"), "{text}");
    assert!(text.lines().count() > 2, "{text}");
    // An unknown extension is refused before the search, and nothing is written.
    let other = dir.path().join("path.txt");
    let out = gridpath(&["solve", map, "--export", other.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("path.txt") && err.contains(".json or .csv"),
        "{err}"
    );
    assert!(!other.exists());
}

#[test]
fn idastar_solves_the_built_in_level_at_a_stars_cost() {
    let level = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps/default.json");
    let level = level.to_str().unwrap();
    let astar = json(&gridpath(&["solve", level, "--json"]));
    let out = gridpath(&["solve", level, "--algo", "idastar", "--json"]);
    assert_eq!(out.status.code(), Some(0), "a path is exit status 0");
    let v = json(&out);
    assert_eq!(v["found"], true);
    assert_eq!(v["optimality"], "exact");
    assert_eq!(v["stats"]["budget_exhausted"], false);
    assert_eq!(v["cost"].as_f64().unwrap(), astar["cost"].as_f64().unwrap());
    assert!(v["stats"]["expanded"].as_u64().unwrap() < 10_000);
}

#[test]
fn a_search_that_stops_on_its_budget_claims_no_optimality_and_no_cost() {
    // 2,300 × 2,300 open cells with the goal walled off: more cells than IDA*'s budget of
    // expansions.
    let side = 2300;
    let mut text = format!("type octile\nheight {side}\nwidth {side}\nmap\n");
    for y in 0..side {
        let row = match y {
            _ if y == side - 2 => "@".repeat(side),
            _ => ".".repeat(side),
        };
        text.push_str(&row);
        text.push('\n');
    }
    let map = temp_map("budget.map", &text);
    let map = map.to_str().unwrap();
    let to = format!("0,{}", side - 1);
    let args = [
        "solve", map, "--algo", "idastar", "--from", "0,0", "--to", &to,
    ];
    let out = gridpath(&[&args[..], &["--json"]].concat());
    assert_eq!(out.status.code(), Some(2), "no path is exit status 2");
    let v = json(&out);
    assert_eq!(v["found"], false);
    assert_eq!(v["stats"]["budget_exhausted"], true);
    assert!(
        v["cost"].is_null() && v["length"].is_null(),
        "{}",
        v["cost"]
    );
    let claim = v["optimality"].as_str().unwrap();
    assert!(
        claim.starts_with("none (stopped: node budget exhausted after"),
        "{claim}"
    );
    let out = gridpath(&args);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("exact"), "{text}");
    assert!(
        text.contains("none (stopped: node budget exhausted"),
        "{text}"
    );
}

#[test]
fn solve_json_on_hexes_names_the_layout_and_no_diagonal_rule() {
    let hex = DEMO
        .replace("\"version\": 1", "\"version\": 3")
        .replace(
            "\"rows\"",
            "\"topology\": {\"shape\": \"hex\", \"staggeraxis\": \"y\", \"staggerindex\": \"odd\"}, \"rows\"",
        );
    let map = temp_map("hexes.json", &hex);
    let v = json(&gridpath(&["solve", map.to_str().unwrap(), "--json"]));
    assert_eq!(v["found"], true);
    assert!(v["diagonal"].is_null(), "{}", v["diagonal"]);
    assert_eq!(v["topology"], "odd-r", "{}", v["topology"]);
    // On squares the rule is named.
    let square = temp_map("squares.json", DEMO);
    let v = json(&gridpath(&["solve", square.to_str().unwrap(), "--json"]));
    assert_eq!(v["diagonal"], "no-cut");
}

#[test]
fn a_preprocessed_search_reports_its_build_apart_from_its_query() {
    // A 60 × 40 open map with a wall: the contraction hierarchy is built before the query.
    let mut rows = vec![".".repeat(60); 40];
    rows[20] = format!("{}{}", "#".repeat(50), ".".repeat(10));
    let rows: Vec<String> = rows.iter().map(|r| format!("\"{r}\"")).collect();
    let map = temp_map(
        "build.json",
        &format!(
            r##"{{"format": "gridpath-map", "version": 1, "name": "build", "width": 60, "height": 40,
  "terrains": [{{"symbol": ".", "name": "Grass", "cost": 1.0, "color": "#6abe30"}},
               {{"symbol": "#", "name": "Wall", "cost": null, "color": "#222222"}}],
  "rows": [{}], "start": [0, 0], "goal": [0, 39]}}"##,
            rows.join(", ")
        ),
    );
    let map = map.to_str().unwrap();
    let out = gridpath(&["solve", map, "--algo", "ch", "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    // The build (contracting all 2410 cells) and the query are two numbers; how they compare
    // is for the benchmarks to say.
    assert!(v["stats"]["build_us"].is_u64(), "{v}");
    assert!(v["stats"]["time_us"].is_u64(), "{v}");
    // The hierarchy's memory, query state included: several bytes for each of its cells.
    let bytes = v["stats"]["prepared_bytes"].as_u64().unwrap();
    assert!(bytes > 2410 * 8, "{v}");
    assert_eq!(v["found"], true);
    let out = gridpath(&["solve", map, "--algo", "ch"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("µs (query; build "), "{text}");
    assert!(text.contains("prepared structure "), "{text}");
}

#[test]
fn solving_an_image_or_a_ros_map_says_how_to_convert_it() {
    for name in ["plan.png", "map.yaml"] {
        let file = temp_map(name, "");
        let out = gridpath(&["solve", file.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        let err = String::from_utf8(out.stderr).unwrap();
        let json = file.with_extension("json");
        let command = format!("gridpath convert {} {}", file.display(), json.display());
        assert!(err.contains(&command), "{name}: {err}");
        assert!(!err.contains("unknown map file type"), "{name}: {err}");
    }
}

#[test]
fn every_option_shows_its_default_once() {
    for command in ["solve", "scen", "field", "mapf", "convert", "edit"] {
        let out = gridpath(&[command, "--help"]);
        let help = String::from_utf8(out.stdout).unwrap();
        // One paragraph an option: from its flag to the next flag.
        let mut paragraphs: Vec<String> = Vec::new();
        for line in help.lines() {
            if line.trim_start().starts_with('-') {
                paragraphs.push(String::new());
            }
            if let Some(last) = paragraphs.last_mut() {
                last.push_str(line);
                last.push('\n');
            }
        }
        assert!(!paragraphs.is_empty(), "{command}: {help}");
        for paragraph in paragraphs {
            assert!(
                paragraph.matches("[default:").count() <= 1,
                "{command}: {paragraph}"
            );
        }
    }
}

#[test]
fn a_cell_size_gives_a_map_without_a_world_frame_one_for_the_export() {
    let map = temp_map(
        "framed.map",
        "type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n",
    );
    let map = map.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let export = dir.path().join("path.json");
    let export = export.to_str().unwrap();
    let read = |args: &[&str]| {
        let out = gridpath(args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(export).unwrap())
            .unwrap()
    };
    let plain = read(&[
        "solve", map, "--from", "0,0", "--to", "3,2", "--export", export,
    ]);
    assert!(plain["world"].is_null());
    let framed = read(&[
        "solve",
        map,
        "--from",
        "0,0",
        "--to",
        "3,2",
        "--export",
        export,
        "--cell-size",
        "0.5",
    ]);
    assert_eq!(framed["world"]["resolution"], 0.5);
    // The start cell's centre (0.5, 0.5) of a map 3 cells high is 1.25 m up from the corner.
    let first = &framed["world"]["samples"][0];
    assert_eq!(
        (first[0].as_f64(), first[1].as_f64()),
        (Some(0.25), Some(1.25))
    );
}
