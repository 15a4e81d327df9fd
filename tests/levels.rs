//! Level designers' files on the command line: `convert` to and from Tiled maps, LDtk
//! projects read with `--level` and `--layer`, and `solve` on a Tiled map.

#![allow(clippy::unwrap_used)] // Test helpers fail loudly on broken test data.

use std::path::Path;
use std::process::Output;

use gridpath::format::load_map;

mod common;
use common::{gridpath, root};

fn ok(out: &Output) -> String {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn convert_to_tiled_and_back_keeps_cells_costs_and_markers() {
    let dir = tempfile::tempdir().unwrap();
    for source in [
        root().join("maps/default.json"),
        root().join("tests/data/floorplan.json"),
    ] {
        let original = load_map(&source).unwrap();
        for ext in ["tmj", "tmx"] {
            let level = dir.path().join(format!("level.{ext}"));
            let back = dir.path().join(format!("back-{ext}.json"));
            ok(&gridpath(&["convert", arg(&source), arg(&level)]));
            ok(&gridpath(&["convert", arg(&level), arg(&back)]));
            let back = load_map(&back).unwrap();
            assert_eq!(back.grid, original.grid, "{} via .{ext}", source.display());
            assert_eq!((back.start, back.goal), (original.start, original.goal));
        }
    }
}

/// A 5 × 3 Tiled map: a wall of solid tiles with a gap, and start and goal points.
const ROOM: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="5" height="3" tilewidth="16" tileheight="16" infinite="0">
 <tileset firstgid="1" name="room" tilewidth="16" tileheight="16" tilecount="2" columns="2">
  <tile id="1" type="wall"><properties><property name="solid" type="bool" value="true"/></properties></tile>
 </tileset>
 <layer id="1" name="Ground" width="5" height="3">
  <data encoding="csv">
1,1,2,1,1,
1,1,2,1,1,
1,1,1,1,1
</data>
 </layer>
 <objectgroup id="2" name="markers">
  <object id="1" name="start" x="8" y="8"><point/></object>
  <object id="2" name="goal" x="72" y="8"><point/></object>
 </objectgroup>
</map>
"#;

#[test]
fn solve_plans_on_a_tiled_map_directly() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("room.tmx");
    std::fs::write(&level, ROOM).unwrap();
    let out = gridpath(&["solve", arg(&level), "--json"]);
    let text = ok(&out);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["found"], true);
    let path = v["path"].as_array().unwrap();
    assert_eq!(path.first().unwrap(), &serde_json::json!([0, 0]));
    assert_eq!(path.last().unwrap(), &serde_json::json!([4, 0]));
    assert!(
        path.iter().any(|c| c[1] == 2),
        "the path goes round the wall"
    );
    // Explicit cells too.
    let out = gridpath(&["solve", arg(&level), "--from", "0,2", "--to", "4,2"]);
    assert!(ok(&out).contains("Path found"));
}

#[test]
fn an_ldtk_project_converts_with_its_level_and_layer() {
    let sample = root().join("../shared/samples/ldtk/AutoLayers_1_basic.ldtk");
    if !sample.is_file() {
        eprintln!("SKIPPED: ../shared/samples/ldtk is absent, so the LDtk conversion did not run");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("level.json");
    let out = gridpath(&[
        "convert",
        arg(&sample),
        arg(&out_path),
        "--level",
        "AutoLayer",
        "--layer",
        "IntGrid_layer",
    ]);
    assert!(ok(&out).contains("37 × 26 cells, 484 impassable"));
    let out = gridpath(&[
        "convert",
        arg(&sample),
        arg(&out_path),
        "--level",
        "Nowhere",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no level \"Nowhere\": the levels are \"AutoLayer\""),
        "{err}"
    );
}

#[test]
fn level_options_on_other_maps_are_refused() {
    let map = root().join("maps/default.json");
    let dir = tempfile::tempdir().unwrap();
    let out = gridpath(&[
        "convert",
        arg(&map),
        arg(&dir.path().join("x.json")),
        "--layer",
        "L",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--level and --layer apply to"));
    let out = gridpath(&["solve", arg(&map), "--level", "L"]);
    assert_eq!(out.status.code(), Some(1));
    // The editor is not opened on a map the options do not apply to.
    let out = gridpath(&["edit", arg(&map), "--level", "L"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--level and --layer apply to"));
}

/// Real files from another Tiled reader's test assets (see `tests/data/tiled/LICENSE`): a
/// zstd-compressed layer with shapes that are not walls, and group layers over an external
/// tileset.
#[test]
fn real_tiled_files_convert_and_their_exports_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let data = root().join("tests/data/tiled");
    for (name, size, terrains, first_row) in [
        ("tiled_base64_zstandard.tmx", (100, 100), 8, "aaaaabbbbbb."),
        ("tiled_group_layers.tmx", (8, 8), 19, "abcdef.."),
    ] {
        let out_path = dir.path().join("out.json");
        let text = ok(&gridpath(&[
            "convert",
            arg(&data.join(name)),
            arg(&out_path),
        ]));
        assert!(
            text.contains(&format!("{} × {} cells, 0 impassable", size.0, size.1)),
            "{text}"
        );
        let map = load_map(&out_path).unwrap();
        assert_eq!(map.grid.terrains().len(), terrains, "{name}");
        assert_eq!(map.grid.terrains()[0].name, "floor");
        let row: String = map.grid.cells()[..first_row.len()]
            .iter()
            .map(|&id| map.grid.terrain(id).symbol)
            .collect();
        assert_eq!(row, first_row, "{name}");
        // Through Tiled JSON and back.
        let tmj = dir.path().join("again.tmj");
        ok(&gridpath(&["convert", arg(&out_path), arg(&tmj)]));
        assert_eq!(load_map(&tmj).unwrap().grid, map.grid, "{name}");
    }
}
