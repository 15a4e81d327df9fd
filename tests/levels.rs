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
        common::skip("../shared/samples/ldtk is absent, so the LDtk conversion did not run");
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

/// The first two rows of global tile ids in Tiled's hexagonal-mini example, read from its
/// zlib layer with another decoder: the cells gridpath reads must follow them.
const HEX_MINI_ROWS: [[u32; 20]; 2] = [
    [
        15, 15, 15, 5, 16, 17, 17, 13, 8, 14, 14, 14, 14, 5, 13, 13, 13, 13, 14, 14,
    ],
    [
        15, 8, 5, 14, 16, 17, 13, 8, 14, 14, 14, 14, 14, 5, 5, 5, 13, 14, 14, 14,
    ],
];

/// Tiled's own hex example (see `tests/data/tiled-hex/NOTICE`) loads as a pointy-top map with
/// odd rows staggered and the right cells; it converts to JSON, `.tmx` and `.tmj` and back
/// unchanged, and `solve` plans on it with hex steps.
#[test]
fn tiled_hex_example_loads_converts_and_solves() {
    use gridpath::format::level::{LevelOptions, TerrainSource, read_level};
    use gridpath::grid::{HexLayout, Topology};
    let source = root().join("tests/data/tiled-hex/hexagonal-mini.tmx");
    let import = read_level(&source, &LevelOptions::default()).unwrap();
    let grid = &import.map.grid;
    assert_eq!((grid.width(), grid.height()), (20, 20));
    assert_eq!(grid.topology(), Topology::Hex(HexLayout::ODD_R));
    for (y, row) in HEX_MINI_ROWS.iter().enumerate() {
        for (x, &gid) in row.iter().enumerate() {
            let id = grid.cells()[y * 20 + x];
            assert_eq!(
                import.sources[usize::from(id)],
                TerrainSource::Tile {
                    tileset: "hex mini".to_owned(),
                    id: gid - 1
                },
                "({x}, {y})"
            );
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("mini.json");
    ok(&gridpath(&["convert", arg(&source), arg(&json)]));
    let map = load_map(&json).unwrap();
    assert_eq!(&map.grid, grid);
    for ext in ["tmx", "tmj"] {
        let level = dir.path().join(format!("mini.{ext}"));
        ok(&gridpath(&["convert", arg(&json), arg(&level)]));
        let text = std::fs::read_to_string(&level).unwrap();
        assert!(
            text.contains("hexagonal") && text.contains("staggerindex"),
            "{text}"
        );
        assert_eq!(load_map(&level).unwrap().grid, map.grid, "{ext}");
    }
    let out = ok(&gridpath(&[
        "solve",
        arg(&json),
        "--from",
        "0,0",
        "--to",
        "19,19",
        "--json",
    ]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["found"], true);
    assert_eq!(
        (&v["heuristic"], &v["topology"]),
        (&serde_json::json!("hex"), &serde_json::json!("odd-r"))
    );
    // A square map made hex by `convert --topology`, and a square heuristic refused on it.
    let made = dir.path().join("made.json");
    let text = ok(&gridpath(&[
        "convert",
        arg(&root().join("maps/default.json")),
        arg(&made),
        "--topology",
        "even-q",
    ]));
    assert!(text.contains("even-q hexes"), "{text}");
    assert_eq!(
        load_map(&made).unwrap().grid.topology(),
        Topology::Hex(HexLayout::EVEN_Q)
    );
    let refused = gridpath(&["solve", arg(&made), "--heuristic", "octile"]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("choose hex or zero"));
    let path: Vec<(u32, u32)> = v["path"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c[0].as_u64().unwrap() as u32, c[1].as_u64().unwrap() as u32))
        .collect();
    // Every step goes to one of the six hex neighbours.
    for pair in path.windows(2) {
        let neighbours = HexLayout::ODD_R.neighbours(i64::from(pair[0].0), i64::from(pair[0].1));
        assert!(neighbours.contains(&(i64::from(pair[1].0), i64::from(pair[1].1))));
    }
    assert_eq!(
        path.len() as u64,
        HexLayout::ODD_R.distance(
            gridpath::grid::Cell::new(0, 0),
            gridpath::grid::Cell::new(19, 19)
        ) + 1,
        "every cell of the example is passable: the path is a hex line's length"
    );
}

/// A hex map of each layout, with a start and goal, through `.tmx` and `.tmj` and back: the
/// same grid, layout and markers; the written file names Tiled's hex attributes.
#[test]
fn hex_maps_round_trip_through_tiled_in_every_layout() {
    use gridpath::format::save::save_map;
    use gridpath::grid::{Cell, Grid, HexLayout, Map, StaggerAxis, StaggerIndex, Topology};
    let dir = tempfile::tempdir().unwrap();
    let grid = Grid::from_ascii(&["..#~..", ".=#...", "...#~.", "#....."]).unwrap();
    for layout in HexLayout::ALL {
        let mut map = Map::new("hexes", grid.clone().with_topology(Topology::Hex(layout)));
        map.start = Some(Cell::new(0, 1));
        map.goal = Some(Cell::new(5, 3));
        let axis = match layout.axis {
            StaggerAxis::X => "x",
            StaggerAxis::Y => "y",
        };
        let index = match layout.index {
            StaggerIndex::Odd => "odd",
            StaggerIndex::Even => "even",
        };
        for ext in ["tmx", "tmj"] {
            let path = dir.path().join(format!("hexes-{}.{ext}", layout.name()));
            save_map(&map, &path).unwrap();
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(text.contains("hexagonal"), "{text}");
            assert!(text.contains(axis) && text.contains(index), "{text}");
            let back = load_map(&path).unwrap();
            assert_eq!(back.grid, map.grid, "{} {ext}", layout.name());
            assert_eq!(
                (back.start, back.goal),
                (map.start, map.goal),
                "{} {ext}",
                layout.name()
            );
        }
    }
}

#[test]
fn tile_objects_are_placed_where_tiled_draws_them() {
    // Tiled anchors a tile object at its bottom-left corner: a start drawn over cell (1, 1)
    // of 16-pixel tiles has x = 16, y = 32 (the cell's bottom edge), and one without a size
    // takes its tile's. The goal has no size and is drawn over cell (4, 2).
    let level = ROOM
        .replace(
            r#"<object id="1" name="start" x="8" y="8"><point/></object>"#,
            r#"<object id="1" name="start" gid="1" x="16" y="32" width="16" height="16"/>"#,
        )
        .replace(
            r#"<object id="2" name="goal" x="72" y="8"><point/></object>"#,
            r#"<object id="2" name="goal" gid="1" x="64" y="48"/>"#,
        );
    let dir = tempfile::tempdir().unwrap();
    for (ext, text) in [("tmx", level.clone()), ("tmj", String::new())] {
        let path = dir.path().join(format!("tiles.{ext}"));
        if ext == "tmx" {
            std::fs::write(&path, &text).unwrap();
        } else {
            // The same map through Tiled's JSON, written by gridpath's own converter from the
            // .tmx and then given tile objects by hand.
            let tmx = dir.path().join("tiles.tmx");
            ok(&gridpath(&["convert", arg(&tmx), arg(&path)]));
            let mut value: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let layers = value["layers"].as_array_mut().unwrap();
            let markers = layers
                .iter_mut()
                .find(|l| l["type"] == "objectgroup")
                .unwrap();
            markers["objects"] = serde_json::json!([
                {"id": 1, "name": "start", "gid": 1, "x": 16, "y": 32, "width": 16, "height": 16},
                {"id": 2, "name": "goal", "gid": 1, "x": 64, "y": 48, "width": 0, "height": 0},
            ]);
            std::fs::write(&path, value.to_string()).unwrap();
        }
        let map = load_map(&path).unwrap();
        assert_eq!(
            (map.start, map.goal),
            (
                Some(gridpath::grid::Cell::new(1, 1)),
                Some(gridpath::grid::Cell::new(4, 2))
            ),
            ".{ext}"
        );
    }
}

#[test]
fn a_level_naming_a_start_but_no_goal_says_which_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("half.tmx");
    std::fs::write(
        &level,
        ROOM.replace(
            r#"<object id="2" name="goal" x="72" y="8"><point/></object>"#,
            "",
        ),
    )
    .unwrap();
    let out = gridpath(&["solve", arg(&level)]);
    ok(&out);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("names no goal: using (0, 0)"), "{said}");
}
