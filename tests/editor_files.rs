#![cfg(feature = "editor")]
//! The editor's files, driven headlessly with `egui_kittest`: dropped files, the image import
//! dialog, autosave and recovery, and the exports.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

mod common;
use common::{png, root};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use gridpath::app::EditorApp;
use gridpath::app::resize::Anchor;
use gridpath::format::image_import::ImageImport;
use gridpath::format::ros_map::load_ros_map;
use gridpath::format::{json, load_map, movingai};
use gridpath::grid::{Cell, Grid, Map};
use image::{DynamicImage, GrayImage, ImageFormat};

/// A 40 × 24 meadow with a wall across the middle, open at the bottom.
fn meadow() -> Map {
    let mut rows = vec![".".repeat(40); 24];
    for row in rows.iter_mut().take(18) {
        row.replace_range(20..21, "#");
    }
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut map = Map::new("meadow", Grid::from_ascii(&rows).expect("a valid meadow"));
    map.start = Some(Cell::new(3, 5));
    map.goal = Some(Cell::new(36, 5));
    map
}

/// A small map of its own, to tell apart from the meadow.
fn pond() -> Map {
    let grid = Grid::from_ascii(&["~~~~", "~==~", "~~~~"]).expect("a valid pond");
    Map::new("pond", grid)
}

fn editor(app: EditorApp) -> Harness<'static, EditorApp> {
    // A few more frames than the default to settle: a dialog fades out while the background
    // search wakes the window with its answer.
    let mut harness = Harness::builder()
        .with_size([1200.0, 800.0])
        .with_max_steps(16)
        .build_eframe(move |_cc| app);
    harness.run();
    harness
}

/// A file dropped on the window, as the platform integration hands it over.
#[derive(Debug)]
struct DroppedPath(PathBuf);

impl egui::DroppedFile for DroppedPath {
    fn path(&self) -> &Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

fn drop_file(h: &mut Harness<'_, EditorApp>, path: &Path) {
    h.input_mut()
        .dropped_files
        .push(Arc::new(DroppedPath(path.to_owned())));
    h.run();
}

/// Makes the map dirty with one undoable edit.
fn make_dirty(h: &mut Harness<'_, EditorApp>) {
    let grid = &h.state().map().grid;
    let (w, hgt) = (grid.width(), grid.height());
    h.state_mut().resize_map(w + 1, hgt, Anchor::TopLeft);
    h.run();
    assert!(h.state().is_dirty());
}

/// The smallest autosave interval that still lets a frame settle (an interval of zero asks
/// for a repaint at once, every frame, while the map is dirty).
const AUTOSAVE_INTERVAL: Duration = Duration::from_millis(1);

/// Steps the harness until `done`, at most `steps` times, pausing one autosave interval
/// between steps: each pause lets one interval pass, so what is checked is the number of
/// frames, never how long they took.
fn step_until(
    h: &mut Harness<'_, EditorApp>,
    steps: usize,
    mut done: impl FnMut(&EditorApp) -> bool,
) -> bool {
    for _ in 0..steps {
        h.step();
        if done(h.state()) {
            return true;
        }
        std::thread::sleep(AUTOSAVE_INTERVAL);
    }
    false
}

#[test]
fn a_dropped_map_file_opens_and_is_remembered() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("meadow.json");
    std::fs::write(&file, json::to_string(&meadow())).unwrap();
    let mut h = editor(EditorApp::with_map(pond()));
    drop_file(&mut h, &file);
    assert!(!h.state().has_dialog(), "a clean map is replaced at once");
    assert_eq!(h.state().map(), &meadow());
    assert!(h.state().notice().unwrap().contains("meadow.json"));
    assert_eq!(h.state().recent_files().first(), Some(&file));
}

#[test]
fn a_dropped_map_asks_about_unsaved_changes_first() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("meadow.json");
    std::fs::write(&file, json::to_string(&meadow())).unwrap();
    let mut h = editor(EditorApp::with_map(pond()));
    make_dirty(&mut h);
    let edited = h.state().map().clone();

    drop_file(&mut h, &file);
    assert!(h.state().has_dialog(), "unsaved changes: the editor asks");
    h.get_by_label("Cancel").click();
    h.run();
    assert_eq!(h.state().map(), &edited, "Cancel keeps the edited map");
    assert!(h.state().is_dirty(), "…and its unsaved state");

    drop_file(&mut h, &file);
    h.get_by_label("Discard").click();
    h.run();
    assert_eq!(h.state().map(), &meadow());
    assert!(!h.state().is_dirty());
}

#[test]
fn a_bad_file_keeps_the_map_and_shows_the_error() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = editor(EditorApp::with_map(pond()));
    make_dirty(&mut h);
    let edited = h.state().map().clone();

    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{ \"format\": \"gridpath-map\", ").unwrap();
    drop_file(&mut h, &broken);
    assert!(h.state().has_dialog());
    h.get_by_label_contains("broken.json");
    h.get_by_label("OK").click();
    h.run();

    let not_an_image = dir.path().join("photo.png");
    std::fs::write(&not_an_image, "plain text, not a PNG").unwrap();
    drop_file(&mut h, &not_an_image);
    assert!(!h.state().is_importing());
    h.get_by_label_contains("photo.png");
    h.get_by_label("OK").click();
    h.run();

    // A BMP whose header claims 20000 × 20000 pixels is refused before decoding.
    let mut bmp = std::io::Cursor::new(Vec::new());
    DynamicImage::ImageRgb8(image::RgbImage::new(2, 2))
        .write_to(&mut bmp, ImageFormat::Bmp)
        .unwrap();
    let mut bmp = bmp.into_inner();
    bmp[18..22].copy_from_slice(&20_000i32.to_le_bytes());
    bmp[22..26].copy_from_slice(&20_000i32.to_le_bytes());
    let huge = dir.path().join("huge.bmp");
    std::fs::write(&huge, bmp).unwrap();
    h.state_mut().start_import(&huge);
    h.run();
    assert!(!h.state().is_importing());
    // The message names the file and the limit (these panic when nothing matches).
    h.get_by_label_contains("huge.bmp");
    h.get_by_label_contains("16384 × 16384");
    h.get_by_label("OK").click();
    h.run();

    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "hello").unwrap();
    drop_file(&mut h, &notes);
    h.get_by_label_contains("unknown file type");
    h.get_by_label("OK").click();
    h.run();

    assert_eq!(h.state().map(), &edited, "every failure keeps the map");
    assert!(h.state().is_dirty(), "…and its unsaved state");
}

#[test]
fn the_threshold_slider_changes_the_preview_and_import_replaces_the_map() {
    let dir = tempfile::tempdir().unwrap();
    // Grey levels 0 and 80 are walls, 120 unknown, 200 and 255 free at the ROS defaults.
    let strip = GrayImage::from_raw(5, 1, vec![0, 80, 120, 200, 255]).unwrap();
    let file = dir.path().join("strip.png");
    std::fs::write(&file, png(strip)).unwrap();
    let mut h = editor(EditorApp::with_map(pond()));
    drop_file(&mut h, &file);
    assert!(
        h.state().is_importing(),
        "a dropped image opens the import dialog"
    );
    let summary = h.state().import_summary().expect("a preview");
    assert_eq!((summary.width, summary.height), (5, 1));
    assert_eq!(summary.impassable, 3, "two walls and one unknown cell");

    h.get_by_role_and_label(egui::accesskit::Role::Slider, "Occupied threshold")
        .set_value_accesskit(0.1);
    h.run();
    let summary = h.state().import_summary().expect("a preview");
    assert_eq!(
        summary.impassable, 4,
        "at 0.1 everything but white is a wall"
    );
    assert_eq!(h.state().map(), &pond(), "the preview leaves the map alone");

    h.get_by_label("Import").click();
    h.run();
    assert!(!h.state().is_importing());
    let map = h.state().map();
    assert_eq!(map.name, "strip");
    assert_eq!(map.grid.cells(), &[1, 1, 1, 1, 0]);
    assert_eq!(map.grid.terrain(1).name, "Wall");
    assert_eq!(map.grid.terrain(0).name, "Floor");
}

#[test]
fn a_png_export_imports_back_by_its_legend() {
    let dir = tempfile::tempdir().unwrap();
    let marsh = load_map(&root().join("maps/default.json")).unwrap();
    let file = dir.path().join("marsh.png");
    gridpath::format::save::save_map(&marsh, &file).unwrap();
    let mut h = editor(EditorApp::with_map(pond()));
    drop_file(&mut h, &file);
    assert!(h.state().is_importing());
    let summary = h.state().import_summary().expect("a preview");
    let impassable = marsh
        .grid
        .cells()
        .iter()
        .filter(|&&id| !marsh.grid.terrain(id).is_passable())
        .count();
    assert_eq!(summary.impassable, impassable, "water stays impassable");
    h.get_by_label("Import").click();
    h.run();
    assert!(!h.state().is_importing());
    assert_eq!(h.state().map().grid, marsh.grid);
}

#[test]
fn return_presses_import() {
    let dir = tempfile::tempdir().unwrap();
    let strip = GrayImage::from_raw(5, 1, vec![0, 80, 120, 200, 255]).unwrap();
    let file = dir.path().join("strip.png");
    std::fs::write(&file, png(strip)).unwrap();
    let mut h = editor(EditorApp::with_map(pond()));
    drop_file(&mut h, &file);
    assert!(h.state().is_importing());
    // Return that ends typing a width only sets the width.
    h.get_by_label("Width in cells").click();
    h.run();
    h.get_by_label("Width").click();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_label("Width").type_text("3");
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    assert!(h.state().is_importing(), "still in the dialog");
    assert_eq!(h.state().import_summary().map(|s| s.width), Some(3));
    h.key_press(egui::Key::Enter);
    h.run();
    assert!(!h.state().is_importing(), "Return imported");
    assert_eq!(h.state().map().name, "strip");
    assert_eq!(h.state().map().grid.width(), 3);
}

#[test]
fn the_floorplan_imports_to_its_design_at_a_target_width() {
    let mut expected = load_map(&root().join("tests/data/floorplan.json")).unwrap();
    // An imported map gets the default start and goal.
    assert!(expected.place_default_markers());
    let mut h = editor(EditorApp::with_map(pond()));
    h.state_mut()
        .start_import(&root().join("assets/floorplan.png"));
    h.run();
    h.get_by_label("Width in cells").click();
    h.run();
    h.get_by_label("Width").set_value_accesskit(48.0);
    h.run();
    // The floorplan is a noisy scan: averaging filters its dust.
    h.get_by_label("Mean").click();
    h.run();
    let summary = h.state().import_summary().expect("a preview");
    assert_eq!((summary.width, summary.height), (48, 36));
    h.get_by_label("Import").click();
    h.run();
    assert_eq!(h.state().map(), &expected);
    // The closed dialog fades out over a few frames; the next one opens after it.
    for _ in 0..100 {
        if h.query_by_label("Cancel").is_none() {
            break;
        }
        h.step();
    }

    // Cancel leaves the map as it is.
    h.state_mut()
        .start_import(&root().join("assets/floorplan.png"));
    h.run();
    h.get_by_label("Cancel").click();
    h.run();
    assert!(!h.state().is_importing());
    assert_eq!(h.state().map(), &expected);
}

#[test]
fn autosave_writes_a_recovery_file_that_a_restart_restores() {
    let dir = tempfile::tempdir().unwrap();
    let interval = AUTOSAVE_INTERVAL;
    let mut h = editor(EditorApp::with_map(pond()).with_autosave(dir.path(), interval));
    let file = h.state().recovery_file().unwrap().to_owned();
    h.step();
    assert!(!file.exists(), "nothing is written while the map is clean");
    make_dirty(&mut h);
    let edited = h.state().map().clone();
    assert!(
        step_until(&mut h, 10, |_| file.exists()),
        "the recovery file is written once the interval has passed"
    );
    let written = json::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written, edited);
    drop(h); // as if the editor crashed

    let mut app = EditorApp::with_map(meadow()).with_autosave(dir.path(), interval);
    app.offer_recovery();
    let mut h = editor(app);
    assert!(h.state().has_dialog());
    h.get_by_label_contains("Restore unsaved work from");
    h.get_by_label("Restore").click();
    h.run();
    // The pond has no markers: it opens with the default ones.
    let mut expected = edited.clone();
    assert!(expected.place_default_markers());
    assert_eq!(h.state().map(), &expected);
    assert!(h.state().is_dirty(), "restored work is still unsaved");

    let saved = dir.path().join("pond.json");
    assert!(h.state_mut().save_to(&saved));
    h.run();
    assert!(!file.exists(), "a clean save removes the recovery file");
}

#[test]
fn discarding_the_recovered_work_removes_it() {
    let dir = tempfile::tempdir().unwrap();
    let interval = AUTOSAVE_INTERVAL;
    let mut h = editor(EditorApp::with_map(pond()).with_autosave(dir.path(), interval));
    let file = h.state().recovery_file().unwrap().to_owned();
    make_dirty(&mut h);
    assert!(step_until(&mut h, 10, |_| file.exists()));
    drop(h);

    let mut app = EditorApp::with_map(meadow()).with_autosave(dir.path(), interval);
    app.offer_recovery();
    let mut h = editor(app);
    h.get_by_label("Discard").click();
    h.run();
    assert!(!file.exists());
    assert_eq!(h.state().map(), &meadow());
    assert!(!h.state().has_dialog());
}

#[test]
fn the_path_export_is_a_gridpath_path_document() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = editor(EditorApp::with_map(meadow()));
    h.step();
    assert!(h.state_mut().wait_for_search(Duration::from_secs(60)));
    h.step();
    assert!(h.state().search_result().is_some());
    let file = dir.path().join("route.json");
    assert!(h.state_mut().export_path_to(&file));
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(value["format"], "gridpath-path");
    assert_eq!(value["version"], 3);
    assert!(value["world"].is_null(), "the meadow has no world frame");
    let samples = value["smoothed"]["samples"].as_array().unwrap();
    assert_eq!(samples[0][0], 3.5);
    assert_eq!(samples[0][1], 5.5);
    assert_eq!(value["smoothed"]["spacing"], 0.25);
    assert_eq!(value["map"]["name"], "meadow");
    assert_eq!(value["map"]["width"], 40);
    assert_eq!(value["map"]["height"], 24);
    assert_eq!(value["start"], serde_json::json!([3, 5]));
    assert_eq!(value["goal"], serde_json::json!([36, 5]));
    assert_eq!(value["found"], true);
    assert_eq!(value["search"]["algorithm"], "astar");
    assert_eq!(value["smoothing"]["tension"], 0.5);
    let cells = value["grid_path"]["cells"].as_array().unwrap();
    assert_eq!(cells.first(), Some(&serde_json::json!([3, 5])));
    assert_eq!(cells.last(), Some(&serde_json::json!([36, 5])));
    let waypoints = value["smoothed"]["waypoints"].as_array().unwrap();
    assert_eq!(waypoints.first(), Some(&serde_json::json!([3.5, 5.5])));
    assert_eq!(waypoints.last(), Some(&serde_json::json!([36.5, 5.5])));
    assert!(waypoints.len() >= 3, "the path goes round the wall");
    assert!(value["smoothed"]["cost"].as_f64() <= value["grid_path"]["cost"].as_f64());
}

#[test]
fn png_and_moving_ai_exports_load_back_equal() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = editor(EditorApp::with_map(meadow()));
    let image = dir.path().join("meadow.png");
    assert!(h.state_mut().export_map_to(&image));
    let grid = &h.state().map().grid;
    let back = ImageImport::palette(grid.terrains().to_vec())
        .import(&std::fs::read(&image).unwrap())
        .unwrap();
    assert_eq!(&back, grid);
    assert_eq!(
        h.state().map().name,
        "meadow",
        "an export leaves the document alone"
    );

    let text = "type octile\nheight 3\nwidth 5\nmap\n..@T.\nG.W..\n.S...\n";
    let benchmark = Map::new("bench", movingai::parse_map(text).unwrap());
    let mut h = editor(EditorApp::with_map(benchmark.clone()));
    let file = dir.path().join("bench.map");
    assert!(h.state_mut().export_map_to(&file));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    assert_eq!(load_map(&file).unwrap(), benchmark);
}

#[test]
fn the_file_menu_lists_the_file_actions() {
    let mut h = editor(EditorApp::with_map(meadow()));
    h.get_by_label("File").click();
    h.run();
    for label in [
        "New…",
        "Open…",
        "Open recent",
        "Save",
        "Save as…",
        "Import image…",
        "Import Moving AI map…",
        "Export Moving AI map…",
        "Export PNG…",
        "Export path…",
        "Quit",
    ] {
        // Entries with a shortcut carry it in their label too.
        assert!(
            h.get_all_by_label_contains(label).next().is_some(),
            "the File menu has {label}"
        );
    }
}

#[test]
fn a_ros_map_yaml_imports_as_the_command_line_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("assets/floorplan.png"),
        dir.path().join("floor.png"),
    )
    .unwrap();
    let yaml = dir.path().join("site.yaml");
    std::fs::write(
        &yaml,
        "image: floor.png\nresolution: 0.05\norigin: [-4.8, -3.6, 0.0]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.25\n",
    )
    .unwrap();
    let mut expected = load_ros_map(&yaml, |_| {}).unwrap();
    assert!(expected.place_default_markers());
    let mut h = editor(EditorApp::with_map(pond()));
    drop_file(&mut h, &yaml);
    assert!(h.state().is_importing());
    h.get_by_label("Import").click();
    h.run();
    assert_eq!(h.state().map(), &expected);
    assert_eq!(h.state().map().name, "site");
    assert!(h.state().map().metadata.is_some());
}

#[test]
fn an_image_with_its_map_yaml_beside_it_is_read_through_the_yaml() {
    let dir = tempfile::tempdir().unwrap();
    let image = dir.path().join("floor.png");
    std::fs::copy(root().join("assets/floorplan.png"), &image).unwrap();
    let yaml = dir.path().join("floor.yaml");
    std::fs::write(
        &yaml,
        "image: floor.png\nresolution: 0.05\norigin: [-4.8, -3.6, 0.0]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.25\n",
    )
    .unwrap();
    let mut expected = load_ros_map(&yaml, |_| {}).unwrap();
    assert!(expected.place_default_markers());
    let mut h = editor(EditorApp::with_map(pond()));
    h.state_mut().start_import(&image);
    h.run();
    assert!(h.state().is_importing());
    assert!(
        h.state().notice().is_some_and(|n| n.contains("floor.yaml")),
        "{:?}",
        h.state().notice()
    );
    h.get_by_label("Import").click();
    h.run();
    assert_eq!(h.state().map(), &expected);
    assert!(h.state().map().metadata.is_some(), "the yaml's world frame");
}

/// Imports a `map.yaml` through the editor's dialog with the settings it shows, and checks the
/// map against the command line's reading, cell by cell.
fn import_ros_map_both_ways(yaml: &Path) {
    let mut expected = load_ros_map(yaml, |_| {}).expect("the command line reads it");
    expected.place_default_markers();
    let mut h = editor(EditorApp::with_map(pond()));
    drop_file(&mut h, yaml);
    assert!(h.state().is_importing());
    h.get_by_label("Import").click();
    h.run();
    let map = h.state().map();
    assert_eq!(map.grid.width(), expected.grid.width());
    for (i, (a, b)) in map
        .grid
        .cells()
        .iter()
        .zip(expected.grid.cells())
        .enumerate()
    {
        assert_eq!(
            map.grid.terrain(*a),
            expected.grid.terrain(*b),
            "cell {i} of {}",
            yaml.display()
        );
    }
    assert_eq!(map, &expected);
}

#[test]
fn a_map_saver_map_imports_in_the_editor_as_on_the_command_line() {
    // map_saver's free threshold 0.196 sits just below the occupancy of its unknown grey 205
    // (0.19608): rounded to 0.20, the unknown space would become free floor.
    let dir = tempfile::tempdir().unwrap();
    let mut pgm = b"P5\n# CREATOR: map_saver.cpp 0.050 m/pix\n16 16\n255\n".to_vec();
    pgm.extend(0..=255u8);
    std::fs::write(dir.path().join("map.pgm"), &pgm).unwrap();
    let yaml = dir.path().join("map.yaml");
    std::fs::write(
        &yaml,
        "image: map.pgm\nresolution: 0.050000\norigin: [-10.000000, -10.000000, 0.000000]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\n",
    )
    .unwrap();
    let mut h = editor(EditorApp::with_map(pond()));
    drop_file(&mut h, &yaml);
    assert!(
        h.query_by_value("0.196").is_some(),
        "the dialog shows the threshold to three decimals"
    );
    import_ros_map_both_ways(&yaml);

    let turtlebot = root().join("../shared/samples/ros-turtlebot3/map.yaml");
    if turtlebot.is_file() {
        import_ros_map_both_ways(&turtlebot);
    } else {
        common::skip(&format!("{} is absent", turtlebot.display()));
    }
}

#[test]
fn a_large_image_is_previewed_reduced_and_imported_whole() {
    let dir = tempfile::tempdir().unwrap();
    let pixels = (0..2000 * 20)
        .map(|i| if (i % 2000) < 1000 { 0 } else { 255 })
        .collect();
    let wide = GrayImage::from_raw(2000, 20, pixels).unwrap();
    let file = dir.path().join("wide.png");
    std::fs::write(&file, png(wide)).unwrap();
    let mut h = editor(EditorApp::with_map(pond()));
    h.state_mut().start_import(&file);
    h.run();
    let summary = h.state().import_summary().expect("a preview");
    assert_eq!((summary.width, summary.height), (2000, 20));
    assert!(
        summary.preview_cells < 2000 * 20,
        "the preview is converted from a reduced copy: {} cells",
        summary.preview_cells
    );
    h.get_by_label("Import").click();
    h.run();
    let grid = &h.state().map().grid;
    assert_eq!((grid.width(), grid.height()), (2000, 20));
    let walls = grid.cells().iter().filter(|&&id| id == 1).count();
    assert_eq!(walls, 1000 * 20, "the left half is wall");
}

/// Storage in memory, standing in for eframe's file.
#[derive(Default)]
struct MemoryStorage(std::collections::HashMap<String, String>);

impl eframe::Storage for MemoryStorage {
    fn get_string(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }

    fn set_string(&mut self, key: &str, value: String) {
        self.0.insert(key.to_owned(), value);
    }

    fn remove_string(&mut self, key: &str) {
        self.0.remove(key);
    }

    fn flush(&mut self) {}
}

#[test]
fn recent_files_are_kept_between_sessions() {
    use eframe::App as _;
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first.json");
    let second = dir.path().join("second.json");
    let mut h = editor(EditorApp::with_map(meadow()));
    assert!(h.state_mut().save_to(&first));
    assert!(h.state_mut().save_to(&second));
    let mut storage = MemoryStorage::default();
    h.state_mut().save(&mut storage);

    let mut next = EditorApp::new(Some(&first)).unwrap();
    next.load_preferences(&storage);
    assert_eq!(
        next.recent_files(),
        &[first.clone(), second.clone()],
        "the file opened now comes first, then the earlier list"
    );
}

/// Checks that the open map has a start and a goal on passable cells and that the background
/// search joins them.
fn assert_planned(h: &mut Harness<'_, EditorApp>, what: &str) {
    let map = h.state().map();
    let (Some(start), Some(goal)) = (map.start, map.goal) else {
        panic!("{what}: no start or goal");
    };
    assert!(
        map.grid.is_passable(start) && map.grid.is_passable(goal),
        "{what}"
    );
    assert_ne!(start, goal, "{what}");
    assert!(
        h.state_mut().wait_for_search(Duration::from_secs(60)),
        "{what}: the search answers"
    );
    h.run();
    let result = h.state().search_result().expect("a search result");
    assert!(result.found, "{what}: a path between the default markers");
    assert_eq!((result.start, result.goal), (start, goal), "{what}");
    assert!(
        h.state().notice().unwrap_or("").contains("farthest apart"),
        "{what}: the status bar says where the markers came from"
    );
}

#[test]
fn a_depot_map_gets_its_start_and_goal_inside_the_building() {
    // A map_saver map of a depot, as nav2's: a free strip between the map's edge and the
    // outer wall (larger than the hall), the hall inside with shelves, unknown beyond.
    let (w, h) = (60, 40);
    let value = |x: usize, y: usize| -> u8 {
        let ring = |d: usize| {
            (x == d || x == w - 1 - d) && (d..h - d).contains(&y)
                || (y == d || y == h - 1 - d) && (d..w - d).contains(&x)
        };
        let shelf = (14..46).contains(&x) && (12..29).contains(&y) && y.is_multiple_of(6);
        if ring(0) {
            205
        } else if ring(9) || shelf {
            0
        } else {
            254
        }
    };
    let mut pgm = format!("P5\n# CREATOR: map_saver.cpp 0.050 m/pix\n{w} {h}\n255\n").into_bytes();
    pgm.extend((0..w * h).map(|i| value(i % w, i / w)));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("depot.pgm"), &pgm).unwrap();
    let yaml = dir.path().join("depot.yaml");
    std::fs::write(
        &yaml,
        "image: depot.pgm\nresolution: 0.05\norigin: [0.0, 0.0, 0.0]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\n",
    )
    .unwrap();
    let mut h = editor(EditorApp::with_map(pond()));
    drop_file(&mut h, &yaml);
    h.get_by_label("Import").click();
    h.run();
    let map = h.state().map();
    let grid = &map.grid;
    let strip = (0..grid.len())
        .map(|i| grid.cell_at(i))
        .filter(|c| grid.is_passable(*c) && (c.x < 9 || c.y < 9 || c.x > 50 || c.y > 30))
        .count();
    let hall = (0..grid.len())
        .map(|i| grid.cell_at(i))
        .filter(|c| grid.is_passable(*c) && (10..50).contains(&c.x) && (10..30).contains(&c.y))
        .count();
    assert!(
        strip > hall,
        "the strip ({strip}) is the larger region ({hall})"
    );
    for cell in [map.start, map.goal] {
        let cell = cell.expect("placed");
        assert!(
            (10..50).contains(&cell.x) && (10..30).contains(&cell.y),
            "{cell} is outside the building"
        );
    }
    let notice = h.state().notice().unwrap_or("");
    assert!(notice.contains("inside the outer walls"), "{notice}");
    assert_planned(&mut h, "a depot");
}

#[test]
fn imported_maps_get_a_start_and_goal_and_a_path_at_once() {
    let dir = tempfile::tempdir().unwrap();
    // An image: a white room with a black wall, open at the bottom.
    let room = GrayImage::from_fn(30, 20, |x, y| {
        image::Luma([if x == 15 && y < 15 { 0 } else { 255 }])
    });
    let image = dir.path().join("room.png");
    std::fs::write(&image, png(room)).unwrap();
    let mut h = editor(EditorApp::with_map(pond()));
    drop_file(&mut h, &image);
    h.get_by_label("Import").click();
    h.run();
    assert_planned(&mut h, "an imported image");

    // A ROS map: the same room as a map_saver PGM.
    let mut pgm = b"P5\n# CREATOR: map_saver.cpp 0.050 m/pix\n30 20\n255\n".to_vec();
    pgm.extend((0..600).map(|i| {
        if i % 30 == 15 && i / 30 < 15 {
            0u8
        } else {
            254
        }
    }));
    std::fs::write(dir.path().join("room.pgm"), &pgm).unwrap();
    let yaml = dir.path().join("room.yaml");
    std::fs::write(
        &yaml,
        "image: room.pgm\nresolution: 0.05\norigin: [0.0, 0.0, 0.0]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\n",
    )
    .unwrap();
    drop_file(&mut h, &yaml);
    h.get_by_label("Import").click();
    h.run();
    assert_eq!(h.state().map().name, "room");
    assert!(h.state().map().metadata.is_some());
    assert_planned(&mut h, "a ROS map");

    // A Moving AI map.
    let file = dir.path().join("arena.map");
    std::fs::write(
        &file,
        "type octile\nheight 3\nwidth 9\nmap\n....@....\n....@....\n.........\n",
    )
    .unwrap();
    drop_file(&mut h, &file);
    assert_eq!(h.state().map().grid.width(), 9);
    assert_planned(&mut h, "a Moving AI map");
}

/// Clicks the button of this label in the in-window file dialog.
fn click_button(h: &mut Harness<'_, EditorApp>, label: &str) {
    h.get_all_by_label(label)
        .find(|n| n.accesskit_node().role() == egui::accesskit::Role::Button)
        .unwrap_or_else(|| panic!("no {label} button"))
        .click();
    h.run();
}

/// The editor with the in-window file dialogs, starting in `folder`. `egui_file`'s path and
/// file name fields carry no accessible name, so the harness's accessibility check is off.
fn editor_without_portal(map: Map, folder: &Path) -> Harness<'static, EditorApp> {
    let app = EditorApp::with_map(map).with_in_window_file_dialogs("no portal here", folder);
    let mut harness = Harness::builder()
        .with_size([1200.0, 800.0])
        .with_max_steps(16)
        .with_accessibility_check(false)
        .build_eframe(move |_cc| app);
    harness.run();
    harness
}

#[test]
fn save_as_works_without_a_desktop_portal() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = editor_without_portal(meadow(), dir.path());
    h.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::S,
    );
    h.run();
    assert!(h.state().is_picking_file(), "the in-window dialog opens");
    let notice = h.state().notice().expect("a notice").to_owned();
    assert!(
        notice.contains("no portal here"),
        "the status bar says why: {notice}"
    );
    assert!(!notice.contains("no file chosen"), "{notice}");
    click_button(&mut h, "Save");
    assert!(!h.state().is_picking_file());
    let file = dir.path().join("meadow.json");
    assert_eq!(load_map(&file).unwrap(), meadow());
    assert!(h.state().notice().unwrap().contains("Saved"));

    // Cancel says so.
    h.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::S,
    );
    h.run();
    click_button(&mut h, "Cancel");
    assert!(!h.state().is_picking_file());
    assert_eq!(h.state().notice(), Some("Not saved: no file chosen."));
}

#[test]
fn saving_before_a_new_map_goes_on_after_the_in_window_dialog() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = editor_without_portal(pond(), dir.path());
    make_dirty(&mut h);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::N);
    h.run();
    click_button(&mut h, "Save");
    assert!(
        h.state().is_picking_file(),
        "an unnamed map asks where to save"
    );
    click_button(&mut h, "Save");
    assert!(dir.path().join("pond.json").is_file());
    assert!(!h.state().is_dirty());
    assert!(
        h.state().has_dialog(),
        "the new-map dialog follows the save"
    );
}

/// A meadow with a swamp strip across the wall's gap, saved as a Tiled map.
fn tiled_meadow(dir: &Path) -> (PathBuf, Map) {
    let mut map = meadow();
    for y in 18..24 {
        map.grid.set(Cell::new(20, y), 2).expect("on the map");
    }
    let file = dir.join("meadow.tmj");
    gridpath::format::save::save_map(&map, &file).expect("writes the Tiled map");
    (file, map)
}

#[test]
fn return_opens_the_level_after_a_terrain_is_changed_in_the_dialog() {
    let dir = tempfile::tempdir().unwrap();
    let (file, original) = tiled_meadow(dir.path());
    let mut h = editor(EditorApp::with_map(pond()));
    drop_file(&mut h, &file);
    assert!(h.state().level_dialog().is_some());
    let walkable: Vec<_> = h.get_all_by_label("Walkable").collect();
    walkable[2].click();
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    assert!(
        h.state().level_dialog().is_none(),
        "Return opened the level"
    );
    assert_eq!(h.state().map().grid.cells(), original.grid.cells());
}

#[test]
fn hovering_a_terrain_in_the_level_dialog_picks_out_its_cells_in_the_preview() {
    let dir = tempfile::tempdir().unwrap();
    let (file, original) = tiled_meadow(dir.path());
    let mut h = editor(EditorApp::with_map(pond()));
    drop_file(&mut h, &file);
    assert_eq!(h.state().level_dialog().expect("open").picked_out(), None);
    let swamp = original.grid.terrain(2).name.clone();
    let row = original
        .grid
        .terrains()
        .iter()
        .position(|t| t.name == swamp)
        .expect("the swamp terrain");
    h.get_by_label(&swamp).hover();
    h.run();
    assert_eq!(
        h.state().level_dialog().expect("open").picked_out(),
        Some(row)
    );
    // Away from the rows, the preview shows every terrain again.
    h.get_by_label("Cancel").hover();
    h.run();
    assert_eq!(h.state().level_dialog().expect("open").picked_out(), None);
}

#[test]
fn a_dropped_tiled_map_opens_through_the_level_dialog_with_costs_set_there() {
    let dir = tempfile::tempdir().unwrap();
    let (file, original) = tiled_meadow(dir.path());
    let mut h = editor(EditorApp::with_map(pond()));
    drop_file(&mut h, &file);
    let dialog = h.state().level_dialog().expect("the level dialog is open");
    assert_eq!(dialog.map().grid.cells(), original.grid.cells());
    // The swamp strip is the only way round the wall: make it a wall too in the dialog.
    let swamp = original.grid.terrain(2).name.clone();
    let row = original
        .grid
        .terrains()
        .iter()
        .position(|t| t.name == swamp)
        .expect("the swamp terrain");
    let walkable: Vec<_> = h.get_all_by_label("Walkable").collect();
    assert_eq!(walkable.len(), original.grid.terrains().len());
    walkable[row].click();
    h.run();
    h.get_by_label("Open").click();
    h.run();
    assert!(h.state().level_dialog().is_none());
    let map = h.state().map().clone();
    assert_eq!(
        map.grid.cells(),
        original.grid.cells(),
        "the cells as drawn"
    );
    assert_eq!((map.start, map.goal), (original.start, original.goal));
    assert!(
        !map.grid.terrain(2).is_passable(),
        "the cost set in the dialog"
    );
    assert!(h.state().is_dirty(), "the costs differ from the file's");
    assert!(
        h.state()
            .notice()
            .unwrap_or_default()
            .contains("meadow.tmj")
    );
    assert!(h.state_mut().wait_for_search(Duration::from_secs(60)));
    h.run();
    assert!(!h.state().search_result().expect("a search ran").found);

    // Export writes the Tiled format back; Save would ask for a gridpath JSON file.
    let out = dir.path().join("out.tmx");
    assert!(h.state_mut().export_map_to(&out));
    let back = load_map(&out).expect("reads the export");
    assert_eq!(back.grid.cells(), map.grid.cells());
    assert_eq!(back.grid.terrains(), map.grid.terrains());
}

#[test]
fn an_ldtk_project_opens_on_its_level_and_plans() {
    let sample = root().join("../shared/samples/ldtk/AutoLayers_1_basic.ldtk");
    if !sample.is_file() {
        common::skip("../shared/samples/ldtk is absent, so the LDtk project was not opened");
        return;
    }
    let mut h = editor(EditorApp::with_map(pond()));
    h.state_mut().start_level_import(&sample);
    h.run();
    let dialog = h.state().level_dialog().expect("the level dialog is open");
    assert_eq!(dialog.levels().1, Some("AutoLayer"));
    assert_eq!(dialog.layers().1, Some("IntGrid_layer"));
    h.get_by_label("Open").click();
    h.run();
    let map = h.state().map().clone();
    assert_eq!((map.grid.width(), map.grid.height()), (37, 26));
    assert!(map.start.is_some() && map.goal.is_some(), "default markers");
    assert!(h.state_mut().wait_for_search(Duration::from_secs(60)));
    h.run();
    assert!(h.state().search_result().expect("a search ran").found);
}

#[test]
fn a_broken_level_is_reported_and_the_map_stays() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("broken.tmx");
    std::fs::write(&file, "<map orientation=\"orthogonal\" width=\"3\"").unwrap();
    let mut h = editor(EditorApp::with_map(pond()));
    drop_file(&mut h, &file);
    assert!(h.state().level_dialog().is_none());
    assert!(h.state().has_dialog(), "the error is shown");
    assert_eq!(h.state().map(), &pond());
}

#[test]
fn heights_come_in_from_a_grayscale_image_undo_and_save_with_the_map() {
    let dir = tempfile::tempdir().unwrap();
    // Half as wide and high as the meadow: resampled to it. Black on the left, white right.
    let mut gray = GrayImage::new(20, 12);
    for (x, _, pixel) in gray.enumerate_pixels_mut() {
        pixel.0 = [if x < 10 { 0 } else { 255 }];
    }
    let image = dir.path().join("relief.png");
    std::fs::write(&image, png(gray)).unwrap();
    let mut h = editor(EditorApp::with_map(meadow()));
    assert!(h.state_mut().import_heights_from(&image));
    h.run();
    let grid = &h.state().map().grid;
    assert_eq!(grid.height_at(Cell::new(0, 0)), 0.0);
    assert_eq!(grid.height_at(Cell::new(39, 23)), 10.0);
    let notice = h.state().notice().unwrap_or_default().to_owned();
    assert!(notice.contains("relief.png"), "{notice}");
    // Saved as map format version 2 and read back with its heights.
    let file = dir.path().join("hilly.json");
    assert!(h.state_mut().save_to(&file));
    let saved = load_map(&file).unwrap();
    assert_eq!(saved.grid.heights(), h.state().map().grid.heights());
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .contains("\"version\": 2")
    );
    // Formats without heights say so.
    assert!(h.state_mut().export_map_to(&dir.path().join("hilly.map")));
    let notice = h.state().notice().unwrap_or_default().to_owned();
    assert!(notice.contains("without the heights"), "{notice}");
    // The Heights panel sets the height of white for the next import.
    h.get_by_role_and_label(egui::accesskit::Role::SpinButton, "Import white")
        .click();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_role_and_label(egui::accesskit::Role::SpinButton, "Import white")
        .type_text("4");
    h.key_press(egui::Key::Enter);
    h.run();
    assert!(h.state_mut().import_heights_from(&image));
    assert_eq!(h.state().map().grid.height_at(Cell::new(39, 23)), 4.0);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    // One undo makes the map flat again; a file that is no image leaves the map alone.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert_eq!(h.state().map().grid.heights(), None);
    let bad = dir.path().join("broken.png");
    std::fs::write(&bad, b"not a png").unwrap();
    assert!(!h.state_mut().import_heights_from(&bad));
    h.run();
    assert_eq!(h.state().map().grid.heights(), None);
    assert!(h.state().has_dialog(), "the error is shown");
}

#[test]
fn a_file_name_typed_in_the_in_window_dialog_is_opened_by_open() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = "version 1\n0\tpond.map\t4\t3\t0\t0\t3\t2\t0\n";
    std::fs::write(dir.path().join("pond.scen"), scenario).unwrap();
    let mut h = editor_without_portal(pond(), dir.path());
    h.key_press(egui::Key::A);
    h.run();
    click_button(&mut h, "Load scenario…");
    assert!(h.state().is_picking_file());
    // The name typed in the name field, no file of the list clicked.
    let field = h
        .get_all_by_role(egui::accesskit::Role::TextInput)
        .last()
        .expect("the file name field");
    field.focus();
    h.run();
    h.get_all_by_role(egui::accesskit::Role::TextInput)
        .last()
        .expect("the file name field")
        .type_text("pond.scen");
    h.run();
    click_button(&mut h, "Open");
    assert!(!h.state().is_picking_file(), "Open closes the dialog");
    assert_eq!(h.state().agents().team.len(), 1, "the scenario's unit");
}
