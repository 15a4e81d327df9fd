//! Files written and read back: JSON maps through the atomic save, every Moving AI benchmark
//! map through JSON and back to its own bytes, PNG exports, and the `convert` command.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::root;

use gridpath::format::image_import::ImageImport;
use gridpath::format::save::{self, SaveStep};
use gridpath::format::{image_export, json, load_map, movingai};
use gridpath::grid::{Cell, GeoReference, Grid, Map, Rgb, Terrain};

fn sample_map() -> Map {
    let mut grid = Grid::from_ascii(&["..=~#", "#~=..", "....."]).expect("valid rows");
    grid.add_terrain(Terrain::passable(
        "Sand — dune",
        'ß',
        Rgb([0xee, 0xdd, 0x99]),
        1.75,
    ))
    .expect("valid terrain");
    grid.set(Cell::new(4, 2), 4);
    Map {
        name: "Ground floor \"east\"".to_owned(),
        grid,
        start: Some(Cell::new(0, 0)),
        goal: Some(Cell::new(4, 1)),
        waypoints: vec![Cell::new(3, 2), Cell::new(1, 0)],
        metadata: Some(GeoReference {
            resolution: 0.05,
            origin: [-12.5, 3.0e-3, std::f64::consts::FRAC_PI_2],
        }),
    }
}

#[test]
fn a_saved_map_loads_identical() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("east.json");
    let map = sample_map();
    save::save_map(&map, &path).expect("saves");
    assert_eq!(load_map(&path).expect("loads"), map);
    assert!(
        !save::backup_path(&path).exists(),
        "nothing to back up on the first save"
    );
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .expect("read dir")
        .map(|e| e.expect("entry").file_name())
        .filter(|name| save::is_temporary_name(name))
        .collect();
    assert!(
        leftovers.is_empty(),
        "temporary files left behind: {leftovers:?}"
    );

    let plain = Map::new("plain", Grid::from_ascii(&["#."]).expect("valid rows"));
    save::save_map(&plain, &path).expect("saves");
    assert_eq!(load_map(&path).expect("loads"), plain);
    let bak = save::backup_path(&path);
    assert_eq!(bak, dir.path().join("east.json.bak"));
    let bak_text = std::fs::read_to_string(&bak).expect("the backup is readable");
    assert_eq!(json::parse(&bak_text).expect("the backup parses"), map);
}

#[test]
fn a_crash_before_the_rename_leaves_the_old_file_readable() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("plan.json");
    let map = sample_map();
    save::save_map(&map, &path).expect("saves");
    // A save that died while writing its temporary file: half the new text, no rename.
    let new_text = json::to_string(&Map::new("new", Grid::from_ascii(&["##"]).expect("rows")));
    std::fs::write(
        dir.path().join(".gridpath-x1y2z3.tmp"),
        &new_text.as_bytes()[..new_text.len() / 2],
    )
    .expect("write");
    assert_eq!(load_map(&path).expect("the old file loads"), map);
}

#[test]
fn a_failed_save_leaves_the_old_file_and_says_why() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("plan.json");
    let map = sample_map();
    save::save_map(&map, &path).expect("saves");
    // A folder where the file should be: the save cannot replace it.
    let folder = dir.path().join("folder.json");
    std::fs::create_dir(&folder).expect("mkdir");
    let e = save::save_map(&map, &folder).unwrap_err();
    assert_eq!(e.step, SaveStep::Inspect(folder.clone()), "{e}");
    let message = e.to_string();
    assert!(
        message.contains("folder.json") && message.contains("unchanged"),
        "{message}"
    );
    assert_eq!(load_map(&path).expect("the old file loads"), map);

    // No folder to write the temporary file in: the save cannot even start writing.
    let missing = dir.path().join("no/such/folder/plan.json");
    let e = save::save_map(&map, &missing).unwrap_err();
    assert!(matches!(e.step, SaveStep::CreateTemporary(_)), "{e}");
    let unknown = save::save_map(&map, &dir.path().join("plan.txt")).unwrap_err();
    assert_eq!(unknown.step, SaveStep::Encode);
}

/// Every `.map` file under `dir`, recursively.
fn maps_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            maps_under(&path, out);
        } else if path.extension().is_some_and(|e| e == "map") {
            out.push(path);
        }
    }
}

#[test]
fn every_benchmark_map_survives_json_byte_for_byte() {
    let dir = root().join("../shared/movingai");
    if !dir.is_dir() {
        common::skip(&format!("no Moving AI benchmark at {}", dir.display()));
        return;
    }
    let mut maps = Vec::new();
    maps_under(&dir, &mut maps);
    assert!(!maps.is_empty(), "no .map files under {}", dir.display());
    for path in &maps {
        let original = std::fs::read_to_string(path).expect("readable");
        let normalised = format!(
            "{}\n",
            original.replace("\r\n", "\n").trim_end_matches('\n')
        );
        let grid =
            movingai::parse_map(&original).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let via_json = json::parse(&json::to_string(&Map::new("m", grid))).expect("parses");
        let written = movingai::write_map(&via_json.grid);
        assert!(
            written == normalised,
            "{} differs after .map → JSON → .map",
            path.display()
        );
    }
    eprintln!("{} benchmark maps round-tripped", maps.len());
}

#[test]
fn a_png_export_has_one_pixel_per_cell_in_the_terrain_colour() {
    let map = sample_map();
    let png = image_export::to_png(&map.grid).expect("encodes");
    let image = image::load_from_memory(&png).expect("decodes").to_rgb8();
    assert_eq!(image.dimensions(), (5, 3));
    for (i, &id) in map.grid.cells().iter().enumerate() {
        let cell = map.grid.cell_at(i);
        assert_eq!(
            image.get_pixel(cell.x, cell.y).0,
            map.grid.terrain(id).color.0
        );
    }
    let back = ImageImport::palette(map.grid.terrains().to_vec())
        .import(&png)
        .expect("imports");
    assert_eq!(back, map.grid);
}

#[test]
fn the_default_map_comes_back_from_png_with_every_terrain() {
    let map = load_map(&root().join("maps/default.json")).expect("the default map");
    let grid = &map.grid;
    let count = |g: &Grid, name: &str| {
        g.cells()
            .iter()
            .filter(|&&id| g.terrain(id).name == name)
            .count()
    };
    let (water, forest) = (count(grid, "Water"), count(grid, "Forest"));
    assert!(
        water > 0 && forest > 0,
        "the default map has water and forest"
    );

    // Through the library: the PNG's legend wins over the built-in palette.
    let png = image_export::to_png(grid).expect("encodes");
    let back = ImageImport::palette(Terrain::default_catalog())
        .import(&png)
        .expect("imports");
    assert_eq!(&back, grid);

    // Through the command line, with --palette and without.
    let dir = tempfile::tempdir().expect("temp dir");
    let image = dir.path().join("marsh.png");
    assert!(
        gridpath(&[&root().join("maps/default.json"), &image])
            .status
            .success()
    );
    for flags in [&["--palette"][..], &[]] {
        let json_out = dir.path().join("marsh.json");
        let out = Command::new(env!("CARGO_BIN_EXE_gridpath"))
            .arg("convert")
            .args([&image, &json_out])
            .args(flags)
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert!(stderr.contains("carries a terrain legend"), "{stderr}");
        let back = load_map(&json_out).expect("loads");
        assert_eq!(&back.grid, grid, "{flags:?}");
        assert_eq!(count(&back.grid, "Water"), water);
        assert_eq!(count(&back.grid, "Forest"), forest);
    }
}

fn gridpath(args: &[&Path]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gridpath"))
        .arg("convert")
        .args(args)
        .output()
        .expect("runs")
}

#[test]
fn convert_moves_between_the_formats() {
    let dir = tempfile::tempdir().expect("temp dir");
    let floorplan = root().join("assets/floorplan.png");
    let design = load_map(&root().join("tests/data/floorplan.json")).expect("design");

    let json_out = dir.path().join("floorplan.json");
    let out = Command::new(env!("CARGO_BIN_EXE_gridpath"))
        .arg("convert")
        .arg(&floorplan)
        .arg(&json_out)
        .args(["--scale", "0.25", "--reduce", "mean"])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("48 × 36 cells"));
    assert_eq!(load_map(&json_out).expect("loads"), design);

    let map_out = dir.path().join("floorplan.map");
    assert!(gridpath(&[&json_out, &map_out]).status.success());
    let back = dir.path().join("back.json");
    assert!(gridpath(&[&map_out, &back]).status.success());
    let reread = load_map(&back).expect("loads");
    let passable =
        |g: &Grid| -> Vec<bool> { (0..g.len()).map(|i| g.is_passable(g.cell_at(i))).collect() };
    assert_eq!(passable(&reread.grid), passable(&design.grid));

    let png_out = dir.path().join("floorplan-colours.png");
    assert!(gridpath(&[&json_out, &png_out]).status.success());
    let image = image::open(&png_out).expect("a png").to_rgb8();
    assert_eq!(image.dimensions(), (48, 36));

    let yaml = dir.path().join("site.yaml");
    std::fs::write(
        &yaml,
        format!(
            "image: {}\nresolution: 0.05\norigin: [1.0, 2.0, 0.0]\n",
            floorplan.display()
        ),
    )
    .expect("write");
    let from_yaml = dir.path().join("site.json");
    let out = Command::new(env!("CARGO_BIN_EXE_gridpath"))
        .arg("convert")
        .arg(&yaml)
        .arg(&from_yaml)
        .args(["--width", "48", "--unknown", "wall"])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let site = load_map(&from_yaml).expect("loads");
    assert_eq!(site.grid.terrains().len(), 2, "unknown cells became walls");
    let geo = site.metadata.expect("metadata");
    assert!((geo.resolution - 0.2).abs() < 1e-12);
    assert_eq!(geo.origin, [1.0, 2.0, 0.0]);
}

#[test]
fn convert_reports_bad_input_with_its_place() {
    let dir = tempfile::tempdir().expect("temp dir");
    let broken = dir.path().join("broken.map");
    std::fs::write(&broken, "type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n").expect("write");
    let out = gridpath(&[&broken, &dir.path().join("out.json")]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("broken.map") && stderr.contains("line 6"),
        "{stderr}"
    );
    assert!(!dir.path().join("out.json").exists());

    let out = Command::new(env!("CARGO_BIN_EXE_gridpath"))
        .arg("convert")
        .arg(root().join("assets/floorplan.png"))
        .arg(dir.path().join("out.json"))
        .args(["--threshold", "0.2"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("free threshold"), "{stderr}");
}

#[test]
fn convert_never_writes_a_map_that_will_not_load() {
    let dir = tempfile::tempdir().expect("temp dir");
    let floorplan = root().join("assets/floorplan.png");
    let yaml = dir.path().join("site.yaml");
    // Fine as the yaml gives them, out of range once scaled to cells of four pixels, or of a
    // quarter of one.
    for (resolution, scale) in [("1e308", "0.25"), ("1e-323", "4")] {
        std::fs::write(
            &yaml,
            format!(
                "image: {}\nresolution: {resolution}\norigin: [1.0, 2.0, 0.0]\n",
                floorplan.display()
            ),
        )
        .expect("write");
        let output = dir.path().join("site.json");
        let out = Command::new(env!("CARGO_BIN_EXE_gridpath"))
            .arg("convert")
            .arg(&yaml)
            .arg(&output)
            .args(["--scale", scale])
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{resolution}: {stderr}");
        // Refused on the way in, naming the image whose cells would have that resolution.
        assert!(
            stderr.contains("floorplan.png") && stderr.contains("resolution"),
            "{stderr}"
        );
        assert!(!output.exists(), "{resolution}: nothing written");
    }
}

#[test]
fn a_save_refuses_metadata_out_of_range_and_the_loader_too() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("geo.json");
    let mut map = sample_map();
    for (resolution, origin) in [
        (f64::INFINITY, [0.0; 3]),
        (0.0, [0.0; 3]),
        (-1.0, [0.0; 3]),
        (0.05, [f64::NAN, 0.0, 0.0]),
        (0.05, [0.0, 1e13, 0.0]),
    ] {
        map.metadata = Some(GeoReference { resolution, origin });
        let e = save::save_map(&map, &path).unwrap_err();
        assert_eq!(e.step, SaveStep::Encode, "{e}");
        assert!(e.to_string().contains("metadata: "), "{e}");
        assert!(!path.exists());
        // Written unchecked, the loader refuses it.
        assert!(json::parse(&json::to_string(&map)).is_err());
    }
}
