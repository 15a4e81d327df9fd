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

    for algo in ["astar", "dstar-lite", "ch"] {
        let out = gridpath(&["scen", m, s, "--algo", algo, "--json"]);
        assert_eq!(out.status.code(), Some(0), "{algo}");
        let v = json(&out);
        assert_eq!(v["queries"], count);
        assert_eq!(v["mismatches"], 0);
        assert!((v["mean_ratio"].as_f64().unwrap() - 1.0).abs() < 1e-7);
        assert!((v["max_ratio"].as_f64().unwrap() - 1.0).abs() < 1e-7);
        // Only the hierarchy keeps a structure whose memory is reported.
        assert_eq!(v["prepared_bytes"].is_u64(), algo == "ch", "{algo}: {v}");
    }

    // Any-angle paths are cheaper than the grid optimum, never dearer: no mismatch.
    for algo in ["theta", "lazy-theta"] {
        let out = gridpath(&["scen", m, s, "--algo", algo, "--json"]);
        assert_eq!(out.status.code(), Some(0), "{algo}");
        let v = json(&out);
        assert_eq!(v["mismatches"], 0);
        assert!(v["mean_ratio"].as_f64().unwrap() < 1.0, "{algo}: {v}");
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

/// A hill in the middle of a flat 12 × 5 map, as a PGM heightmap.
fn hill_pgm() -> Vec<u8> {
    let (w, h) = (12usize, 5usize);
    let mut pgm = format!("P5 {w} {h} 255\n").into_bytes();
    for y in 0..h {
        for x in 0..w {
            let d = (x as f64 - 6.0).powi(2) + (y as f64 - 2.0).powi(2);
            pgm.push((255.0 * (-d / 4.0).exp()) as u8);
        }
    }
    pgm
}

#[test]
fn heights_from_an_image_and_slope_options_change_the_path_and_are_saved() {
    let flat = temp_file(
        "flat.json",
        &DEMO
            .replace("\"width\": 6, \"height\": 4", "\"width\": 12, \"height\": 5")
            .replace(
                r#"["..#...", "..#...", "..#...", "======"]"#,
                r#"["............", "............", "............", "............", "............"]"#,
            )
            .replace("\"goal\": [5, 0]", "\"goal\": [11, 2]")
            .replace("\"start\": [0, 0]", "\"start\": [0, 2]"),
    );
    let image = flat.with_file_name("hill.pgm");
    std::fs::write(&image, hill_pgm()).unwrap();
    let (flat_s, image_s) = (flat.to_str().unwrap(), image.to_str().unwrap());
    let straight = json(&gridpath(&["solve", flat_s, "--json"]));
    assert_eq!(straight["cost"].as_f64(), Some(11.0));
    // Climbing costs 3 per unit: the path walks round the hill and pays less than over it.
    let args = [
        "solve",
        flat_s,
        "--heights",
        image_s,
        "--uphill",
        "3",
        "--json",
    ];
    let round = json(&gridpath(&args));
    let path: Vec<[u32; 2]> = serde_json::from_value(round["path"].clone()).unwrap();
    assert!(
        !path.contains(&[6, 2]),
        "the path crosses the top: {path:?}"
    );
    let mut over_the_top = load_map(&flat).unwrap();
    over_the_top
        .grid
        .set_heights(Some(
            gridpath::format::height_image::heights_from_image(&hill_pgm(), 12, 5, 10.0).unwrap(),
        ))
        .unwrap();
    over_the_top
        .grid
        .set_slope(gridpath::grid::Slope {
            uphill: 3.0,
            ..gridpath::grid::Slope::DEFAULT
        })
        .unwrap();
    let straight_cells: Vec<Cell> = (0..12).map(|x| Cell::new(x, 2)).collect();
    let graph =
        gridpath::search::SearchGraph::new(&over_the_top.grid, gridpath::search::Diagonal::NoCut);
    let (over, _) = graph.path_cost(&straight_cells).unwrap();
    assert!(round["cost"].as_f64().unwrap() < over, "{round} vs {over}");
    // Saved with its heights and rules: solving the saved map gives the same answer.
    let saved = flat.with_file_name("hill.json");
    let out = gridpath(&[
        "convert",
        flat_s,
        saved.to_str().unwrap(),
        "--heights",
        image_s,
        "--uphill",
        "3",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let again = json(&gridpath(&["solve", saved.to_str().unwrap(), "--json"]));
    assert_eq!(again["cost"], round["cost"]);
    // A cliff limit the hill's sides exceed keeps the path off the hill entirely.
    let args = [
        "solve",
        saved.to_str().unwrap(),
        "--max-climb",
        "0.5",
        "--json",
    ];
    let cliff = json(&gridpath(&args));
    let path: Vec<[u32; 2]> = serde_json::from_value(cliff["path"].clone()).unwrap();
    assert!(
        path.iter()
            .all(|&[x, y]| (x as i32 - 6).abs() + (y as i32 - 2).abs() > 1)
    );
    // Slope options without heights, and algorithms that cannot search heights, are errors.
    let out = gridpath(&["solve", flat_s, "--uphill", "2"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("has no heights"));
    let out = gridpath(&["solve", saved.to_str().unwrap(), "--algo", "jps"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot search a map with heights"));
}

#[test]
fn numeric_options_outside_their_ranges_are_refused_before_any_work() {
    let map = temp_file("ranges.json", DEMO);
    let m = map.to_str().unwrap();
    for (option, value, range) in [
        ("--uphill", "1e308", "from 0 to 1000000"),
        ("--downhill", "-1", "from 0 to 1000000"),
        ("--max-climb", "nan", "from 0 to 2000000"),
        ("--turn-penalty", "1e308", "from 0 to 1000000"),
        ("--weight", "1e300", "from 1 to 1000000"),
        ("--spacing", "1e-6", "from 0.001 to 1000000"),
        ("--tension", "2", "from 0 to 1"),
        ("--clearance", "inf", "from 0 to 32768"),
    ] {
        let out = gridpath(&["solve", m, &format!("{option}={value}")]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(64), "{option} {value}: {err}");
        assert!(
            err.contains(option) && err.contains(range),
            "{option}: {err}"
        );
    }
    for (option, value, range) in [
        ("--threshold", "2", "from 0 to 1"),
        ("--scale", "0", "above 0 and at most 64"),
        ("--resolution", "0", "from 0.000000001 to 1000000000"),
    ] {
        let out = gridpath(&["convert", m, "x.json", &format!("{option}={value}")]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(64), "{option} {value}: {err}");
        assert!(
            err.contains(option) && err.contains(range),
            "{option}: {err}"
        );
    }
    // `--help` shows the ranges.
    let help = String::from_utf8(gridpath(&["solve", "--help"]).stdout).unwrap();
    assert!(help.contains("[range: 0 to 1000000]"), "{help}");
    // A thread count past the range is refused; one past the cores runs on the cores.
    let dir = map.with_file_name("jobs");
    std::fs::create_dir_all(&dir).unwrap();
    let (mf, sf) = (dir.join("m.map"), dir.join("m.scen"));
    std::fs::write(&mf, movingai_map()).unwrap();
    std::fs::write(
        &sf,
        "version 1\n0\tm.map\t90\t70\t0\t0\t89\t69\t0\n0\tm.map\t90\t70\t1\t0\t2\t0\t1\n",
    )
    .unwrap();
    let (mf, sf) = (mf.to_str().unwrap(), sf.to_str().unwrap());
    let out = gridpath(&["scen", mf, sf, "--jobs", "65535"]);
    assert_eq!(out.status.code(), Some(64));
    assert!(String::from_utf8_lossy(&out.stderr).contains("1..=1024"));
    let out = gridpath(&["scen", mf, sf, "--jobs", "1024", "--json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("note: --jobs 1024 is more than the"), "{err}");
    let cores = std::thread::available_parallelism().unwrap().get();
    assert_eq!(json(&out)["jobs"].as_u64(), Some(cores as u64));
}

#[test]
fn the_largest_slope_and_turn_weights_give_finite_costs_that_agree() {
    let flat = temp_file(
        "steep.json",
        &DEMO
            .replace("\"width\": 6, \"height\": 4", "\"width\": 12, \"height\": 5")
            .replace(
                r#"["..#...", "..#...", "..#...", "======"]"#,
                r#"["............", ".....#......", ".....#......", ".....#......", "............"]"#,
            )
            .replace("\"goal\": [5, 0]", "\"goal\": [11, 2]")
            .replace("\"start\": [0, 0]", "\"start\": [0, 2]"),
    );
    let image = flat.with_file_name("steep.pgm");
    std::fs::write(&image, hill_pgm()).unwrap();
    let (f, i) = (flat.to_str().unwrap(), image.to_str().unwrap());
    let mut costs = Vec::new();
    for algo in ["astar", "dijkstra"] {
        let args = [
            "solve",
            f,
            "--heights",
            i,
            "--max-height",
            "1000000",
            "--uphill",
            "1000000",
            "--downhill",
            "1000000",
            "--turn-penalty",
            "1000000",
            "--algo",
            algo,
            "--json",
        ];
        let out = gridpath(&args);
        assert_eq!(out.status.code(), Some(0), "{algo}");
        let answer = json(&out);
        let cost = answer["cost"]
            .as_f64()
            .expect("a found path has a number as its cost");
        assert!(cost.is_finite() && cost > 1e6, "{algo}: {answer}");
        costs.push(cost);
    }
    assert!((costs[0] - costs[1]).abs() <= 1e-9 * costs[0], "{costs:?}");
}

#[test]
fn an_output_that_is_an_input_is_refused_and_the_input_kept() {
    let map = temp_file("keep.json", DEMO);
    let m = map.to_str().unwrap();
    let link = map.with_file_name("keep-link.json");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&map, &link).unwrap();
    let hard = map.with_file_name("keep-hard.json");
    let _ = std::fs::remove_file(&hard);
    std::fs::hard_link(&map, &hard).unwrap();
    let dotted = map.parent().unwrap().join(".").join("keep.json");
    for output in [map.clone(), link.clone(), hard.clone(), dotted] {
        let o = output.to_str().unwrap();
        let out = gridpath(&["solve", m, "--export", o]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{o}: {err}");
        assert!(err.contains("it is the map being read"), "{err}");
        let out = gridpath(&["convert", m, o]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{o}: {err}");
        assert!(err.contains("it is the input being read"), "{err}");
        assert_eq!(std::fs::read_to_string(&map).unwrap(), DEMO);
    }
    // A ROS map written over the image a ROS input reads.
    let dir = map.with_file_name("ros-keep");
    std::fs::create_dir_all(&dir).unwrap();
    let pgm = b"P5 3 2 255\n\xfe\xfe\x00\xfe\xfe\xfe".to_vec();
    std::fs::write(dir.join("floor.pgm"), &pgm).unwrap();
    std::fs::write(
        dir.join("in.yaml"),
        "image: floor.pgm\nresolution: 0.05\norigin: [0, 0, 0]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\n",
    )
    .unwrap();
    let out = gridpath(&[
        "convert",
        dir.join("in.yaml").to_str().unwrap(),
        dir.join("floor.yaml").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("the image the input names"), "{err}");
    assert_eq!(std::fs::read(dir.join("floor.pgm")).unwrap(), pgm);
    // Another file is written as before.
    let out = gridpath(&[
        "solve",
        m,
        "--export",
        hard.with_file_name("keep-path.json").to_str().unwrap(),
    ]);
    assert!(out.status.success());
}

/// An open 8 × 6 Moving AI map with a wall in the middle, and a scenario of six agents
/// crossing it; `tag` keeps each test's files apart.
fn mapf_files(tag: &str) -> (PathBuf, PathBuf) {
    let map = temp_file(
        &format!("mapf-open-{tag}.map"),
        "type octile\nheight 6\nwidth 8\nmap\n........\n........\n...@@...\n...@@...\n........\n........\n",
    );
    let mut scen = String::from("version 1\n");
    for (sx, sy, gx, gy) in [
        (0, 0, 7, 5),
        (7, 5, 0, 0),
        (0, 5, 7, 0),
        (7, 0, 0, 5),
        (1, 2, 6, 3),
        (6, 3, 1, 2),
    ] {
        writeln!(scen, "0\tmapf-open.map\t8\t6\t{sx}\t{sy}\t{gx}\t{gy}\t0").unwrap();
    }
    (map, temp_file(&format!("mapf-open-{tag}.scen"), &scen))
}

#[test]
fn mapf_plans_writes_lacam_files_and_checks_them() {
    let (map, scen) = mapf_files("plans");
    let (map, scen) = (map.to_str().unwrap(), scen.to_str().unwrap());
    let plan = temp_file("mapf-open.plan", "");
    for algo in ["lacam", "pibt", "cbs", "ecbs", "eecbs", "whca"] {
        let out = gridpath(&[
            "mapf",
            map,
            scen,
            "--agents",
            "6",
            "--algo",
            algo,
            "--first-plan",
            "--json",
            "--plan",
            plan.to_str().unwrap(),
        ]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{algo}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let value = json(&out);
        assert_eq!(value["solved"], true, "{algo}");
        // With --first-plan LaCAM stops at its first plan, as PIBT and WHCA* do; the others
        // stop at their proof.
        let stopped = match algo {
            "cbs" => "proved-optimal",
            "ecbs" | "eecbs" => "proved-bound",
            _ => "plan-found",
        };
        assert_eq!(value["stopped"], stopped, "{algo}");
        let soc = value["sum_of_costs"].as_f64().unwrap();
        assert!(soc >= value["lower_bound"].as_f64().unwrap(), "{algo}");
        // Conflict-based search proves its plan's cost a bound, ECBS and EECBS a bound within
        // their weight (1.2) of it; the others prove none.
        let proved = &value["proved_lower_bound"];
        match algo {
            "cbs" => assert_eq!(proved.as_f64(), Some(soc)),
            "ecbs" | "eecbs" => {
                let proved = proved.as_f64().unwrap();
                assert!(
                    proved <= soc && soc <= 1.2 * proved + 1e-9,
                    "{algo}: {proved}"
                );
            }
            _ => assert!(proved.is_null(), "{algo}: {proved}"),
        }
        assert_eq!(value["plan"].as_array().unwrap().len(), 6);
        assert_eq!(value["costs"].as_array().unwrap().len(), 6);
        let text = std::fs::read_to_string(&plan).unwrap();
        assert!(
            text.starts_with("agents=6\nmap_file=mapf-open-plans.map\n"),
            "{text}"
        );
        assert!(
            text.contains(&format!("\nsolver={algo}\nsolved=1\nsoc={soc}\n")),
            "{text}"
        );
        // Why it stopped is in the header too, and `mapf check` takes it as the run's own.
        assert!(text.contains(&format!("\nstopped={stopped}\n")), "{text}");
        let check = gridpath(&["mapf", "check", map, scen, plan.to_str().unwrap(), "--json"]);
        assert_eq!(
            check.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&check.stdout)
        );
        assert_eq!(json(&check)["sum_of_costs"].as_f64(), Some(soc));
    }
    // Six agents with these options, the plan written.
    let six = |options: &[&str]| {
        let mut args = vec!["mapf", map, scen, "--agents", "6"];
        args.extend_from_slice(options);
        args.extend(["--plan", plan.to_str().unwrap()]);
        gridpath(&args)
    };
    // Without the scattered paths LaCAM* still plans validly.
    let out = six(&["--no-scatter"]);
    assert_eq!(out.status.code(), Some(0));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.lines().last().unwrap().starts_with("stopped: "),
        "{said}"
    );
    let check = gridpath(&["mapf", "check", map, scen, plan.to_str().unwrap()]);
    assert_eq!(check.status.code(), Some(0));
    // Diagonal moves: the plan is checked under the same rule.
    let out = six(&["--moves", "8", "--first-plan", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let value = json(&out);
    assert_eq!(value["moves"], "8");
    let check = gridpath(&[
        "mapf",
        "check",
        map,
        scen,
        plan.to_str().unwrap(),
        "--moves",
        "8",
    ]);
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    let diagonal = value["plan"].as_array().unwrap().iter().any(|path| {
        path.as_array()
            .unwrap()
            .windows(2)
            .any(|w| w[0][0] != w[1][0] && w[0][1] != w[1][1])
    });
    let under_four = gridpath(&["mapf", "check", map, scen, plan.to_str().unwrap()]);
    assert_eq!(under_four.status.code(), Some(if diagonal { 2 } else { 0 }));
    // Tick 1 with agent 0 moved onto agent 2's start: a conflict or a jump, found and named.
    let text = std::fs::read_to_string(&plan).unwrap();
    let broken: String = text
        .lines()
        .map(|l| match l.strip_prefix("1:(") {
            Some(rest) => format!("1:(0,5),{}", rest.split_once("),").unwrap().1),
            None => l.to_owned(),
        })
        .map(|l| l + "\n")
        .collect();
    let broken_plan = temp_file("mapf-broken.plan", &broken);
    let check = gridpath(&["mapf", "check", map, scen, broken_plan.to_str().unwrap()]);
    assert_eq!(check.status.code(), Some(2));
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(said.starts_with("invalid: agent"), "{said}");
}

#[test]
fn mapf_proves_a_corridor_swap_impossible_and_exits_2() {
    let map = temp_file(
        "mapf-corridor.map",
        "type octile\nheight 1\nwidth 2\nmap\n..\n",
    );
    let scen = temp_file(
        "mapf-corridor.scen",
        "version 1\n0\tmapf-corridor.map\t2\t1\t0\t0\t1\t0\t1\n0\tmapf-corridor.map\t2\t1\t1\t0\t0\t0\t1\n",
    );
    let out = gridpath(&[
        "mapf",
        map.to_str().unwrap(),
        scen.to_str().unwrap(),
        "--agents",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("no solution"), "{said}");
    assert!(
        said.contains("stopped: searched everything, no plan exists"),
        "{said}"
    );
    let out = gridpath(&[
        "mapf",
        map.to_str().unwrap(),
        scen.to_str().unwrap(),
        "--agents",
        "2",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(json(&out)["proof"], "no-solution");
    assert_eq!(json(&out)["stopped"], "searched-everything");
}

#[test]
fn mapf_refuses_bad_options_and_bad_scenarios() {
    let (map, scen) = mapf_files("refuses");
    let (map, scen) = (map.to_str().unwrap(), scen.to_str().unwrap());
    for bad in [
        vec!["--agents", "0"],
        vec!["--agents", "2", "--time-limit", "0"],
        vec!["--agents", "2", "--time-limit", "100000"],
        vec!["--agents", "2", "--weight", "0.5"],
        vec!["--agents", "2", "--window", "0"],
        vec!["--agents", "2", "--moves", "6"],
        vec!["--agents", "2", "--algo", "nope"],
    ] {
        let mut args = vec!["mapf", map, scen];
        args.extend(&bad);
        let out = gridpath(&args);
        assert_eq!(out.status.code(), Some(64), "{bad:?}");
    }
    let out = gridpath(&["mapf", map, scen, "--agents", "7"]);
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("mapf-open-refuses.scen") && said.contains("7 agents"),
        "{said}"
    );
    let blocked = temp_file(
        "mapf-blocked.scen",
        "version 1\n0\tmapf-open.map\t8\t6\t0\t0\t7\t5\t0\n0\tmapf-open.map\t8\t6\t3\t2\t0\t0\t0\n",
    );
    let out = gridpath(&["mapf", map, blocked.to_str().unwrap(), "--agents", "2"]);
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("mapf-blocked.scen: line 3") && said.contains("impassable"),
        "{said}"
    );
}

#[test]
fn mapf_plans_random_teams_that_repeat_and_refuses_too_many() {
    let (map, _) = mapf_files("random");
    let map = map.to_str().unwrap();
    let run = |seed: &str, agents: &str| {
        gridpath(&[
            "mapf",
            map,
            "--random",
            seed,
            "--agents",
            agents,
            "--first-plan",
            "--json",
        ])
    };
    let first = run("7", "5");
    assert_eq!(
        first.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let value = json(&first);
    assert_eq!(value["agents"].as_u64(), Some(5));
    assert_eq!(
        value["plan"],
        json(&run("7", "5"))["plan"],
        "a seed repeats"
    );
    let too_many = run("7", "100000");
    assert_eq!(too_many.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&too_many.stderr).contains("largest connected region"));
    // A scenario and --random together are one source too many.
    let both = gridpath(&["mapf", map, map, "--random", "1", "--agents", "2"]);
    assert_eq!(both.status.code(), Some(64), "a usage error");
}

/// The corridor swap of two agents that cannot pass: no plan exists.
fn corridor_files(tag: &str) -> (PathBuf, PathBuf) {
    let map = temp_file(
        &format!("corridor-{tag}.map"),
        "type octile\nheight 1\nwidth 2\nmap\n..\n",
    );
    let scen = temp_file(
        &format!("corridor-{tag}.scen"),
        "version 1\n0\tc.map\t2\t1\t0\t0\t1\t0\t1\n0\tc.map\t2\t1\t1\t0\t0\t0\t1\n",
    );
    (map, scen)
}

#[test]
fn an_unsolved_plan_is_written_as_lacam_writes_one_and_checked_invalid() {
    let (map, scen) = corridor_files("unsolved");
    let (map, scen) = (map.to_str().unwrap(), scen.to_str().unwrap());
    let plan = temp_file("corridor-unsolved.plan", "");
    let plan = plan.to_str().unwrap();
    let out = gridpath(&["mapf", map, scen, "--agents", "2", "--plan", plan]);
    assert_eq!(out.status.code(), Some(2));
    let text = std::fs::read_to_string(plan).unwrap();
    for line in ["solved=0\n", "soc=0\n", "soc_lb=2\n", "makespan=0\n"] {
        assert!(text.contains(line), "{line:?} missing from {text}");
    }
    assert!(text.ends_with("solution=\n"), "no tick line: {text}");
    let check = gridpath(&["mapf", "check", map, scen, plan]);
    assert_eq!(check.status.code(), Some(2));
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(
        said.starts_with("invalid: the plan solves nothing"),
        "{said}"
    );
    let check = gridpath(&["mapf", "check", map, scen, plan, "--json"]);
    assert_eq!(check.status.code(), Some(2));
    assert_eq!(json(&check)["valid"], false);
    // A tick that lists nobody is no plan either.
    let empty = temp_file("corridor-empty.plan", "agents=0\nsolution=\n0:\n");
    let check = gridpath(&["mapf", "check", map, scen, empty.to_str().unwrap()]);
    assert_eq!(check.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&check.stdout).contains("lists no agents"));
}

#[test]
fn mapf_check_tests_every_claim_of_the_header() {
    let (map, scen) = mapf_files("claims");
    let (map, scen) = (map.to_str().unwrap(), scen.to_str().unwrap());
    let plan = temp_file("claims.plan", "");
    let plan = plan.to_str().unwrap();
    let out = gridpath(&[
        "mapf", map, scen, "--agents", "4", "--algo", "cbs", "--plan", plan, "--json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let soc = json(&out)["sum_of_costs"].as_f64().unwrap();
    let text = std::fs::read_to_string(plan).unwrap();
    assert!(text.contains("\nproof=optimal\n"), "{text}");
    let check = gridpath(&["mapf", "check", map, scen, plan, "--json"]);
    assert_eq!(check.status.code(), Some(0));
    let claims = json(&check)["claims"].as_array().unwrap().clone();
    let keys: Vec<&str> = claims.iter().map(|c| c["key"].as_str().unwrap()).collect();
    for key in [
        "agents", "solved", "soc", "soc_lb", "makespan", "proof", "starts", "goals",
    ] {
        assert!(keys.contains(&key), "{key} not checked: {keys:?}");
    }
    assert!(claims.iter().all(|c| c["holds"] == true), "{claims:?}");
    // Each false claim alone makes the plan invalid, and is the one named.
    let set = |key: &str, value: &str| -> String {
        text.lines()
            .map(|l| match l.split_once('=') {
                Some((k, _)) if k == key => format!("{key}={value}\n"),
                _ => format!("{l}\n"),
            })
            .collect()
    };
    let cases = [
        set("soc", &(soc - 1.0).to_string()),
        set("makespan", "3"),
        set("agents", "3"),
        set("soc_lb", "1"),
        set("solved", "0"),
        set("starts", "(0,0),(7,5),(0,5),(6,0),"),
        set("goals", "(7,5),(0,0),(7,0),"),
        set("proof", "no-solution"),
    ];
    for (i, case) in cases.iter().enumerate() {
        let wrong = temp_file(&format!("claims-{i}.plan"), case);
        let check = gridpath(&["mapf", "check", map, scen, wrong.to_str().unwrap()]);
        assert_eq!(check.status.code(), Some(2), "case {i}");
        let said = String::from_utf8_lossy(&check.stdout);
        assert!(
            said.starts_with("invalid: the header claims"),
            "case {i}: {said}"
        );
        let check = gridpath(&[
            "mapf",
            "check",
            map,
            scen,
            wrong.to_str().unwrap(),
            "--json",
        ]);
        let value = json(&check);
        assert_eq!(value["valid"], false, "case {i}");
        assert!(
            value["claims"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["holds"] == false),
            "case {i}: {value}"
        );
    }
    // PIBT's plan called optimal: conflict-based search proves a cheaper one exists.
    let pibt = temp_file("claims-pibt.plan", "");
    let pibt = pibt.to_str().unwrap();
    let out = gridpath(&[
        "mapf", map, scen, "--agents", "4", "--algo", "pibt", "--plan", pibt, "--json",
    ]);
    let pibt_soc = json(&out)["sum_of_costs"].as_f64().unwrap();
    assert!(
        pibt_soc > soc,
        "the instance must make PIBT pay more: {pibt_soc}"
    );
    let text = std::fs::read_to_string(pibt)
        .unwrap()
        .replace("proof=feasible", "proof=optimal");
    let claimed = temp_file("claims-pibt-optimal.plan", &text);
    let check = gridpath(&["mapf", "check", map, scen, claimed.to_str().unwrap()]);
    assert_eq!(check.status.code(), Some(2));
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(
        said.contains("proof=optimal") && said.contains(&format!("one of {soc} exists")),
        "{said}"
    );
    // Fewer agents than the command asks for.
    let check = gridpath(&["mapf", "check", map, scen, plan, "--agents", "5"]);
    assert_eq!(check.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&check.stdout).contains("lists 4 agents, --agents says 5"));
}

#[test]
fn mapf_never_writes_its_plan_over_its_inputs() {
    let (map, scen) = mapf_files("inputs");
    let before = (std::fs::read(&map).unwrap(), std::fs::read(&scen).unwrap());
    for target in [&map, &scen] {
        let out = gridpath(&[
            "mapf",
            map.to_str().unwrap(),
            scen.to_str().unwrap(),
            "--agents",
            "2",
            "--plan",
            target.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(1));
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains("being read"), "{said}");
        assert_eq!(
            said.matches("choose another output file").count(),
            1,
            "{said}"
        );
    }
    assert_eq!(
        (std::fs::read(&map).unwrap(), std::fs::read(&scen).unwrap()),
        before
    );
}

#[test]
fn a_plan_file_error_quotes_at_most_eighty_characters() {
    let (map, scen) = mapf_files("nul");
    let line = "\0".repeat(5000);
    let plan = temp_file(
        "nul.plan",
        &format!("agents=1\nsolution=\n0:(0,0),\n{line}\n"),
    );
    let check = gridpath(&[
        "mapf",
        "check",
        map.to_str().unwrap(),
        scen.to_str().unwrap(),
        plan.to_str().unwrap(),
    ]);
    assert_eq!(check.status.code(), Some(1));
    let said = String::from_utf8_lossy(&check.stderr);
    // Eighty NULs escaped as \0 take 160 bytes; the rest of the message is short.
    assert!(said.len() < 400, "{} bytes: {said}", said.len());
    assert!(said.contains("5000 bytes in all"), "{said}");
}

/// A 24 × 16 Moving AI map: a room with pillars and a wall with two doors two cells wide.
fn crowd_map(tag: &str) -> PathBuf {
    let mut rows: Vec<Vec<u8>> = vec![vec![b'.'; 24]; 16];
    for (y, row) in rows.iter_mut().enumerate() {
        if !(3..5).contains(&y) && !(11..13).contains(&y) {
            row[12] = b'@';
        }
    }
    for (x, y) in [(4, 4), (5, 4), (4, 5), (18, 10), (19, 10), (7, 12), (20, 3)] {
        rows[y][x] = b'@';
    }
    let mut text = String::from("type octile\nheight 16\nwidth 24\nmap\n");
    for row in rows {
        text.push_str(std::str::from_utf8(&row).unwrap());
        text.push('\n');
    }
    temp_file(&format!("crowd-{tag}.map"), &text)
}

#[test]
fn crowd_moves_units_apart_and_out_of_walls_as_its_trace_shows() {
    let map = crowd_map("trace");
    let trace = map.with_file_name("crowd-trace.csv");
    let output = gridpath(&[
        "crowd".as_ref(),
        map.as_os_str(),
        "--random".as_ref(),
        "30".as_ref(),
        "--seed".as_ref(),
        "4".as_ref(),
        "--trace".as_ref(),
        trace.as_os_str(),
        "--json".as_ref(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report = json(&output);
    assert_eq!(report["units"], 30);
    assert_eq!(report["all_arrived"], true);
    // The trace alone, checked here: every pair of discs apart at every step and over the
    // straight move between steps, every disc clear of every wall cell and of the map's edge.
    let map_grid = load_map(&map).unwrap().grid;
    let text = std::fs::read_to_string(&trace).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("step,time,agent,x,y"));
    let mut steps: Vec<Vec<(f64, f64)>> = Vec::new();
    for line in lines {
        let fields: Vec<&str> = line.split(',').collect();
        let (step, agent): (usize, usize) =
            (fields[0].parse().unwrap(), fields[2].parse().unwrap());
        let (x, y): (f64, f64) = (fields[3].parse().unwrap(), fields[4].parse().unwrap());
        if step == steps.len() {
            steps.push(Vec::new());
        }
        assert_eq!(steps[step].len(), agent, "rows in step and agent order");
        steps[step].push((x, y));
    }
    assert!(steps.len() > 10 && steps.iter().all(|s| s.len() == 30));
    let radius = 0.4;
    let blocked = |x: i64, y: i64| {
        x < 0 || y < 0 || x >= 24 || y >= 16 || !map_grid.is_passable(Cell::new(x as u32, y as u32))
    };
    let mut least = f64::INFINITY;
    for pair in steps.windows(2) {
        for i in 0..30 {
            let (a0, a1) = (pair[0][i], pair[1][i]);
            for (&b0, &b1) in pair[0].iter().zip(&pair[1]).skip(i + 1) {
                for k in 0..=20 {
                    let t = f64::from(k) / 20.0;
                    let dx = (b0.0 + (b1.0 - b0.0) * t) - (a0.0 + (a1.0 - a0.0) * t);
                    let dy = (b0.1 + (b1.1 - b0.1) * t) - (a0.1 + (a1.1 - a0.1) * t);
                    least = least.min(dx.hypot(dy) / (2.0 * radius));
                }
            }
            let (x, y) = a1;
            for cy in (y.floor() as i64 - 1)..=(y.floor() as i64 + 1) {
                for cx in (x.floor() as i64 - 1)..=(x.floor() as i64 + 1) {
                    if blocked(cx, cy) {
                        let dx = (cx as f64 - x).max(x - (cx as f64 + 1.0)).max(0.0);
                        let dy = (cy as f64 - y).max(y - (cy as f64 + 1.0)).max(0.0);
                        assert!(
                            dx.hypot(dy) >= radius - 1e-5,
                            "unit {i} at ({x}, {y}) is inside wall cell ({cx}, {cy})"
                        );
                    }
                }
            }
        }
    }
    // Positions are written to 6 decimals.
    assert!(
        least >= 1.0 - 1e-5,
        "discs came within {least} of the radii sum"
    );
    let reported = report["least_centre_distance_over_radii"].as_f64().unwrap();
    assert!(reported >= 1.0 - 1e-9 && reported <= least + 1e-4);
}

#[test]
fn crowd_refuses_to_write_its_trace_over_the_map_and_names_bad_units() {
    let map = crowd_map("refuse");
    let before = std::fs::read(&map).unwrap();
    let output = gridpath(&[
        "crowd".as_ref(),
        map.as_os_str(),
        "--random".as_ref(),
        "3".as_ref(),
        "--trace".as_ref(),
        map.as_os_str(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(std::fs::read(&map).unwrap(), before);
    let too_wide = gridpath(&[
        "crowd".as_ref(),
        map.as_os_str(),
        "--random".as_ref(),
        "3".as_ref(),
        "--radius".as_ref(),
        "0.8".as_ref(),
    ]);
    assert_eq!(too_wide.status.code(), Some(1));
    let message = String::from_utf8_lossy(&too_wide.stderr);
    assert!(
        message.contains("crowd-refuse.map") && message.contains("too near for its radius"),
        "{message}"
    );
}
