#![cfg(feature = "editor")]
//! The editor driven as a user would: through its widgets, keys and pointer, in a headless
//! `egui_kittest` harness.

use egui::{Key, Modifiers, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use gridpath::app::EditorApp;
use gridpath::app::canvas::tools::Tool;
use gridpath::grid::{Cell, Grid, HexLayout, Map, TerrainId, Topology};
use gridpath::search::SearchResult;
use std::time::Duration;

mod hexes_and_layout;
mod team_view;
mod teams;

const GRASS: TerrainId = 0;
const ROAD: TerrainId = 1;
const SWAMP: TerrainId = 2;
const WALL: TerrainId = 3;

/// A 40 × 24 meadow with a walled pen at (20..=26, 4..=10), start and goal on row 16.
fn meadow() -> Map {
    let mut rows = vec![".".repeat(40); 24];
    for (y, row) in rows.iter_mut().enumerate().take(11).skip(4) {
        let mut cells: Vec<char> = row.chars().collect();
        for (x, c) in cells.iter_mut().enumerate().take(27).skip(20) {
            if y == 4 || y == 10 || x == 20 || x == 26 {
                *c = '#';
            }
        }
        *row = cells.into_iter().collect();
    }
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut map = Map::new("meadow", Grid::from_ascii(&rows).expect("a valid meadow"));
    map.start = Some(Cell::new(3, 16));
    map.goal = Some(Cell::new(36, 16));
    map
}

fn editor(map: Map) -> Harness<'static, EditorApp> {
    let mut harness = Harness::builder()
        .with_size([1200.0, 800.0])
        .with_max_steps(16)
        .build_eframe(move |_cc| EditorApp::with_map(map));
    harness.run();
    // The first search's answer changes what the panels show: let it arrive before the
    // test reads screen positions, so that the layout it reads is the one it clicks on.
    assert!(
        harness.state_mut().wait_for_search(Duration::from_secs(60)),
        "the first search answers"
    );
    harness.run();
    harness
}

fn terrain_at(h: &Harness<'_, EditorApp>, x: u32, y: u32) -> TerrainId {
    h.state()
        .map()
        .grid
        .get(Cell::new(x, y))
        .expect("a cell on the map")
}

fn at(h: &Harness<'_, EditorApp>, x: u32, y: u32) -> Pos2 {
    h.state().screen_from_cell(Cell::new(x, y))
}

/// Presses at `from`, moves through `steps` points to `to`, and releases there.
fn drag(h: &mut Harness<'_, EditorApp>, from: Pos2, to: Pos2, steps: usize) {
    h.hover_at(from);
    h.drag_at(from);
    for i in 1..=steps {
        h.hover_at(from.lerp(to, i as f32 / steps as f32));
    }
    h.drop_at(to);
    h.run();
}

/// Waits for the background search to answer, lets a frame show it, and returns its result.
fn settled(h: &mut Harness<'_, EditorApp>) -> SearchResult {
    assert!(
        h.state_mut().wait_for_search(Duration::from_secs(60)),
        "the search answers"
    );
    h.run();
    h.state()
        .search_result()
        .expect("the markers allow a search")
        .clone()
}

fn click_at(h: &mut Harness<'_, EditorApp>, pos: Pos2) {
    drag(h, pos, pos, 1);
}

/// Clicks the palette button of a terrain, found by its accessible label.
fn select_terrain(h: &mut Harness<'_, EditorApp>, name: &str) {
    let button = h
        .get_all_by_label_contains(name)
        .find(|n| n.accesskit_node().role() == egui::accesskit::Role::Button)
        .unwrap_or_else(|| panic!("no palette button for {name}"));
    button.click();
    h.run();
}

/// The cost field of the terrain editor (the search panel also shows a "Cost" label).
fn cost_field<'h>(h: &'h Harness<'_, EditorApp>) -> egui_kittest::Node<'h> {
    h.get_by_role_and_label(egui::accesskit::Role::TextInput, "Cost")
}

fn press(h: &mut Harness<'_, EditorApp>, modifiers: Modifiers, key: Key) {
    h.key_press_modifiers(modifiers, key);
    h.run();
}

#[test]
fn the_default_level_opens_with_a_path() {
    let mut h = Harness::builder()
        .with_size([1200.0, 800.0])
        .with_max_steps(16)
        .build_eframe(|_cc| EditorApp::new(None).unwrap());
    h.run();
    let result = settled(&mut h);
    let app = h.state();
    assert!(
        result.found,
        "the built-in level's markers are joined by a path"
    );
    assert!(app.notice().unwrap().contains("maps/default.json"));
    assert!(!app.title().contains('*'));
    // The map is fitted into the view: more than one screen point per cell.
    assert!(app.zoom() > 5.0, "zoom {}", app.zoom());
}

#[test]
fn a_brush_stroke_paints_and_undoes_and_redoes() {
    let mut h = editor(meadow());
    select_terrain(&mut h, "Swamp");
    assert_eq!(h.state().active_terrain(), SWAMP);
    assert_eq!(h.state().tool(), Tool::Brush);
    let (from, to) = (at(&h, 2, 20), at(&h, 14, 20));
    drag(&mut h, from, to, 6);
    for x in 2..=14 {
        assert_eq!(terrain_at(&h, x, 20), SWAMP, "cell ({x}, 20)");
    }
    assert_eq!(terrain_at(&h, 1, 20), GRASS);
    assert_eq!(
        terrain_at(&h, 8, 19),
        GRASS,
        "a size-1 brush paints one row"
    );
    assert!(h.state().is_dirty() && h.state().title().contains('*'));
    assert_eq!(h.state().undo_steps(), 1, "one stroke is one step");

    press(&mut h, Modifiers::COMMAND, Key::Z);
    for x in 2..=14 {
        assert_eq!(terrain_at(&h, x, 20), GRASS, "undone at ({x}, 20)");
    }
    press(&mut h, Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    assert_eq!(terrain_at(&h, 8, 20), SWAMP, "Ctrl+Shift+Z redoes");
    press(&mut h, Modifiers::COMMAND, Key::Z);
    assert_eq!(terrain_at(&h, 8, 20), GRASS);
    press(&mut h, Modifiers::COMMAND, Key::Y);
    assert_eq!(terrain_at(&h, 8, 20), SWAMP, "Ctrl+Y redoes too");
}

/// The result on screen is the one a fresh search of the editor's map gives: the worker,
/// which is sent each edit's cells rather than the map, holds the map the user sees.
fn plans_on_the_editors_map(h: &mut Harness<'_, EditorApp>, step: &str) {
    let result = settled(h);
    let app = h.state();
    assert!(
        app.search_failure().is_none(),
        "{step}: {:?}",
        app.search_failure()
    );
    let request = app.search_request().expect("a request").clone();
    let fresh = gridpath::search::solve(&app.map().grid, &request).expect("a fresh search");
    assert_eq!(result.found, fresh.found, "{step}");
    assert!(
        (result.cost - fresh.cost).abs() < 1e-9,
        "{step}: {} != {}",
        result.cost,
        fresh.cost
    );
}

#[test]
fn the_search_follows_every_kind_of_edit() {
    let mut h = editor(meadow());
    plans_on_the_editors_map(&mut h, "opened");
    // A wall stroke across the straight path, then a swamp rectangle, a road fill.
    select_terrain(&mut h, "Wall");
    let (from, to) = (at(&h, 18, 12), at(&h, 18, 22));
    drag(&mut h, from, to, 5);
    plans_on_the_editors_map(&mut h, "stroke");
    select_terrain(&mut h, "Swamp");
    press(&mut h, Modifiers::NONE, Key::R);
    let (a, b) = (at(&h, 5, 14), at(&h, 12, 23));
    drag(&mut h, a, b, 3);
    plans_on_the_editors_map(&mut h, "rectangle");
    press(&mut h, Modifiers::COMMAND, Key::Z);
    plans_on_the_editors_map(&mut h, "rectangle undone");
    press(&mut h, Modifiers::COMMAND, Key::Y);
    plans_on_the_editors_map(&mut h, "rectangle redone");
    // A terrain's cost (the catalog), then a resize, each undone.
    select_terrain(&mut h, "Swamp");
    cost_field(&h).click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    cost_field(&h).type_text("0.5");
    h.key_press(Key::Enter);
    h.run();
    plans_on_the_editors_map(&mut h, "cost");
    h.state_mut()
        .resize_map(44, 26, gridpath::app::resize::Anchor::Center);
    h.run();
    plans_on_the_editors_map(&mut h, "resize");
    for step in 0..4 {
        press(&mut h, Modifiers::COMMAND, Key::Z);
        plans_on_the_editors_map(&mut h, &format!("undo {step}"));
    }
    press(&mut h, Modifiers::COMMAND, Key::Y);
    plans_on_the_editors_map(&mut h, "redo");
}

#[test]
fn undo_and_redo_from_the_edit_menu() {
    let mut h = editor(meadow());
    let p = at(&h, 5, 5);
    click_at(&mut h, p);
    assert_eq!(
        terrain_at(&h, 5, 5),
        ROAD,
        "the first passable terrain after the base is active"
    );
    h.get_by_label("Edit").click();
    h.run();
    h.get_by_label_contains("Undo").click();
    h.run();
    assert_eq!(terrain_at(&h, 5, 5), GRASS);
    h.get_by_label("Edit").click();
    h.run();
    h.get_by_label_contains("Redo").click();
    h.run();
    assert_eq!(terrain_at(&h, 5, 5), ROAD);
}

#[test]
fn brush_size_keys_widen_the_stroke() {
    let mut h = editor(meadow());
    for _ in 0..2 {
        press(&mut h, Modifiers::NONE, Key::CloseBracket);
    }
    assert_eq!(h.state().brush_size(), 3);
    press(&mut h, Modifiers::NONE, Key::OpenBracket);
    press(&mut h, Modifiers::NONE, Key::CloseBracket);
    h.get_by_label("Square").click();
    h.run();
    let p = at(&h, 10, 18);
    click_at(&mut h, p);
    let painted = (9..=11)
        .flat_map(|x| (17..=19).map(move |y| (x, y)))
        .filter(|&(x, y)| terrain_at(&h, x, y) == ROAD)
        .count();
    assert_eq!(painted, 9, "a 3 × 3 square brush");
    assert_eq!(terrain_at(&h, 12, 18), GRASS);
}

#[test]
fn a_rectangle_filled_and_outlined() {
    let mut h = editor(meadow());
    press(&mut h, Modifiers::NONE, Key::R);
    assert_eq!(h.state().tool(), Tool::Rectangle);
    select_terrain(&mut h, "Wall");
    let (a, b) = (at(&h, 2, 2), at(&h, 7, 5));
    drag(&mut h, a, b, 4);
    for (x, y) in (2..=7).flat_map(|x| (2..=5).map(move |y| (x, y))) {
        assert_eq!(terrain_at(&h, x, y), WALL, "filled at ({x}, {y})");
    }
    assert_eq!(terrain_at(&h, 8, 5), GRASS);
    assert_eq!(h.state().undo_steps(), 1);

    h.get_by_label("Filled").click();
    h.run();
    let (a, b) = (at(&h, 30, 14), at(&h, 34, 18));
    drag(&mut h, a, b, 3);
    assert_eq!(terrain_at(&h, 30, 14), WALL);
    assert_eq!(terrain_at(&h, 34, 18), WALL);
    assert_eq!(
        terrain_at(&h, 32, 16),
        GRASS,
        "an outline leaves the inside"
    );
}

#[test]
fn a_fill_repaints_one_region() {
    let mut h = editor(meadow());
    press(&mut h, Modifiers::NONE, Key::F);
    select_terrain(&mut h, "Swamp");
    let inside = at(&h, 23, 7);
    click_at(&mut h, inside);
    for (x, y) in (21..=25).flat_map(|x| (5..=9).map(move |y| (x, y))) {
        assert_eq!(terrain_at(&h, x, y), SWAMP, "inside the pen at ({x}, {y})");
    }
    assert_eq!(terrain_at(&h, 20, 7), WALL, "the pen's wall stays");
    assert_eq!(terrain_at(&h, 10, 10), GRASS, "outside the pen stays");
    press(&mut h, Modifiers::COMMAND, Key::Z);
    assert_eq!(terrain_at(&h, 23, 7), GRASS);
}

#[test]
fn the_line_tool_and_shift_drag_paint_straight_lines() {
    let mut h = editor(meadow());
    press(&mut h, Modifiers::NONE, Key::L);
    let (a, b) = (at(&h, 2, 2), at(&h, 12, 2));
    // A wobbly drag: only its ends count.
    h.hover_at(a);
    h.drag_at(a);
    h.hover_at(at(&h, 6, 8));
    h.drop_at(b);
    h.run();
    for x in 2..=12 {
        assert_eq!(terrain_at(&h, x, 2), ROAD, "line at ({x}, 2)");
    }
    assert_eq!(terrain_at(&h, 6, 8), GRASS);

    press(&mut h, Modifiers::NONE, Key::B);
    let (a, b) = (at(&h, 2, 21), at(&h, 12, 21));
    h.hover_at(a);
    h.event(egui::Event::ModifiersChanged(Modifiers::SHIFT));
    h.event(egui::Event::PointerButton {
        pos: a,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::SHIFT,
    });
    h.hover_at(at(&h, 7, 23));
    h.hover_at(b);
    h.event(egui::Event::PointerButton {
        pos: b,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::SHIFT,
    });
    h.event(egui::Event::ModifiersChanged(Modifiers::NONE));
    h.run();
    for x in 2..=12 {
        assert_eq!(terrain_at(&h, x, 21), ROAD, "shift-line at ({x}, 21)");
    }
    assert_eq!(terrain_at(&h, 7, 23), GRASS, "the detour is not painted");
}

#[test]
fn the_eraser_paints_the_base_terrain_and_alt_click_picks() {
    let mut h = editor(meadow());
    let wall = at(&h, 20, 6);
    h.hover_at(wall);
    h.event_modifiers(
        egui::Event::PointerButton {
            pos: wall,
            button: egui::PointerButton::Primary,
            pressed: true,
            modifiers: Modifiers::ALT,
        },
        Modifiers::ALT,
    );
    h.drop_at(wall);
    h.run();
    assert_eq!(h.state().active_terrain(), WALL, "Alt+click picks the wall");
    assert_eq!(terrain_at(&h, 20, 6), WALL, "and paints nothing");
    press(&mut h, Modifiers::NONE, Key::E);
    click_at(&mut h, wall);
    assert_eq!(terrain_at(&h, 20, 6), GRASS);
}

#[test]
fn number_keys_select_terrains() {
    let mut h = editor(meadow());
    press(&mut h, Modifiers::NONE, Key::Num3);
    assert_eq!(h.state().active_terrain(), SWAMP);
    press(&mut h, Modifiers::NONE, Key::Num1);
    assert_eq!(h.state().active_terrain(), GRASS);
    press(&mut h, Modifiers::NONE, Key::Num9);
    assert_eq!(
        h.state().active_terrain(),
        GRASS,
        "there is no ninth terrain"
    );
}

#[test]
fn dragging_the_start_marker_replans() {
    let mut h = editor(meadow());
    let before = settled(&mut h);
    assert!(before.found);
    let (from, to) = (at(&h, 3, 16), at(&h, 10, 21));
    drag(&mut h, from, to, 5);
    assert_eq!(h.state().map().start, Some(Cell::new(10, 21)));
    assert_eq!(
        terrain_at(&h, 10, 21),
        GRASS,
        "dragging a marker paints nothing"
    );
    let result = settled(&mut h);
    assert_eq!(result.path.first(), Some(&Cell::new(10, 21)));
    assert_eq!(result.path.last(), Some(&Cell::new(36, 16)));
    assert!(
        result.cost < before.cost,
        "the new start is closer to the goal"
    );
}

#[test]
fn a_marker_does_not_stop_on_a_wall() {
    let mut h = editor(meadow());
    let (from, to) = (at(&h, 36, 16), at(&h, 26, 7));
    drag(&mut h, from, to, 4);
    let goal = h.state().map().goal.unwrap();
    assert!(
        h.state().map().grid.is_passable(goal),
        "goal {goal} is passable"
    );
}

#[test]
fn changing_a_terrain_cost_is_undoable() {
    let mut h = editor(meadow());
    // Cover the straight path with swamp, so the cost of swamp matters.
    select_terrain(&mut h, "Swamp");
    press(&mut h, Modifiers::NONE, Key::R);
    let (a, b) = (at(&h, 0, 12), at(&h, 39, 20));
    drag(&mut h, a, b, 4);
    let expensive = settled(&mut h).cost;

    let field = cost_field(&h);
    field.click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    cost_field(&h).type_text("0.25");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(h.state().map().grid.terrain(SWAMP).cost, Some(0.25));
    let cheap = settled(&mut h).cost;
    assert!(
        cheap < expensive,
        "the path got cheaper: {cheap} < {expensive}"
    );

    press(&mut h, Modifiers::COMMAND, Key::Z);
    assert_eq!(h.state().map().grid.terrain(SWAMP).cost, Some(3.0));
    assert!((settled(&mut h).cost - expensive).abs() < 1e-9);
}

#[test]
fn a_bad_cost_is_refused_with_a_message() {
    let mut h = editor(meadow());
    select_terrain(&mut h, "Swamp");
    cost_field(&h).click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    cost_field(&h).type_text("cheap");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(h.state().map().grid.terrain(SWAMP).cost, Some(3.0));
    assert!(h.state().notice().unwrap().contains("positive number"));
}

#[test]
fn making_a_terrain_impassable_blocks_the_path() {
    let mut h = editor(meadow());
    select_terrain(&mut h, "Road");
    press(&mut h, Modifiers::NONE, Key::R);
    let (a, b) = (at(&h, 15, 0), at(&h, 16, 23));
    drag(&mut h, a, b, 3);
    assert!(settled(&mut h).found);
    h.get_by_label("Impassable").click();
    h.run();
    assert_eq!(h.state().map().grid.terrain(ROAD).cost, None);
    assert!(!settled(&mut h).found, "a road wall now splits the map");
}

#[test]
fn deleting_a_terrain_in_use_asks_for_a_replacement() {
    let mut h = editor(meadow());
    select_terrain(&mut h, "Wall");
    h.get_by_label("Delete terrain").click();
    h.run();
    assert!(h.state().has_dialog());
    assert_eq!(
        h.state().map().grid.terrains().len(),
        4,
        "nothing is deleted yet"
    );
    h.get_by_label("Delete").click();
    h.run();
    let grid = &h.state().map().grid;
    assert_eq!(grid.terrains().len(), 3);
    assert!(grid.terrains().iter().all(|t| t.name != "Wall"));
    assert_eq!(
        grid.get(Cell::new(20, 6)),
        Some(GRASS),
        "walls became grass"
    );
    press(&mut h, Modifiers::COMMAND, Key::Z);
    assert_eq!(h.state().map().grid.terrains().len(), 4);
    assert_eq!(terrain_at(&h, 20, 6), WALL);
}

#[test]
fn adding_and_renaming_a_terrain() {
    let mut h = editor(meadow());
    h.get_by_label("Add terrain").click();
    h.run();
    let grid = &h.state().map().grid;
    assert_eq!(grid.terrains().len(), 5);
    assert_eq!(h.state().active_terrain(), 4);
    h.get_by_label("Name").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("Name").type_text("Sand");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(h.state().map().grid.terrain(4).name, "Sand");
    let p = at(&h, 5, 5);
    click_at(&mut h, p);
    assert_eq!(terrain_at(&h, 5, 5), 4);
    assert_eq!(
        h.state().undo_steps(),
        3,
        "add, rename and paint are three steps"
    );
}

#[test]
fn resizing_keeps_the_anchor_and_undoes() {
    let mut h = editor(meadow());
    h.state_mut()
        .resize_map(50, 30, gridpath::app::resize::Anchor::Center);
    h.run();
    let grid = &h.state().map().grid;
    assert_eq!((grid.width(), grid.height()), (50, 30));
    // The pen moved by (5, 3).
    assert_eq!(grid.get(Cell::new(25, 7)), Some(WALL));
    assert_eq!(h.state().map().start, Some(Cell::new(8, 19)));
    press(&mut h, Modifiers::COMMAND, Key::Z);
    let grid = &h.state().map().grid;
    assert_eq!((grid.width(), grid.height()), (40, 24));
    assert_eq!(h.state().map().start, Some(Cell::new(3, 16)));
}

#[test]
fn a_new_map_with_unsaved_changes_asks_first() {
    let mut h = editor(meadow());
    let p = at(&h, 5, 5);
    click_at(&mut h, p);
    press(&mut h, Modifiers::COMMAND, Key::N);
    assert!(h.state().has_dialog(), "unsaved changes: the editor asks");
    h.get_by_label("Cancel").click();
    h.run();
    assert!(!h.state().has_dialog());
    assert_eq!(h.state().map().grid.width(), 40, "cancel keeps the map");

    press(&mut h, Modifiers::COMMAND, Key::N);
    h.get_by_label("Discard").click();
    h.run();
    h.get_by_label("Create").click();
    h.run();
    let app = h.state();
    assert!(!app.is_dirty());
    assert_eq!(app.undo_steps(), 0);
    assert_eq!(app.map().name, "untitled");
    assert!(app.map().grid.cells().iter().all(|&c| c == GRASS));
}

#[test]
fn a_failed_open_keeps_the_map_and_says_why() {
    let folder = std::env::temp_dir().join(format!("gridpath-ui-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let bad = folder.join("broken.json");
    std::fs::write(&bad, "{ \"format\": \"gridpath-map\", ").unwrap();
    let mut h = editor(meadow());
    let before = h.state().map().clone();
    h.state_mut().open_path(&bad);
    h.run();
    assert!(h.state().has_dialog());
    // The dialog names the file (get_by_label_contains panics when nothing matches).
    h.get_by_label_contains("broken.json");
    assert_eq!(h.state().map(), &before);
    h.get_by_label("OK").click();
    h.run();
    assert!(!h.state().has_dialog());

    let good = folder.join("saved.json");
    let p = at(&h, 1, 1);
    click_at(&mut h, p);
    assert!(h.state_mut().save_to(&good));
    assert!(!h.state().is_dirty());
    let saved = h.state().map().clone();
    let mut other = editor(meadow());
    other.state_mut().open_path(&good);
    assert_eq!(other.state().map(), &saved);
    std::fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn zooming_with_the_wheel_keeps_the_cell_under_the_cursor() {
    let mut h = editor(meadow());
    let p = at(&h, 30, 5);
    let zoom = h.state().zoom();
    h.hover_at(p);
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, 120.0),
        phase: egui::TouchPhase::Move,
        modifiers: Modifiers::NONE,
        source: egui::MouseWheelSource::Wheel,
    });
    for _ in 0..60 {
        h.step();
    }
    h.run();
    assert!(
        h.state().zoom() > zoom * 1.2,
        "{} > {zoom}",
        h.state().zoom()
    );
    let back = h.state().screen_from_cell(Cell::new(30, 5));
    assert!(
        back.distance(p) < h.state().zoom(),
        "the cell stays under the cursor"
    );
    h.get_by_label("View").click();
    h.run();
    h.get_by_label_contains("Fit map").click();
    h.run();
    assert!((h.state().zoom() - zoom).abs() < 1e-3);
}

/// Asks the window to close, as the window manager's close button does.
fn request_close(h: &mut Harness<'_, EditorApp>) -> bool {
    h.input_mut()
        .viewports
        .entry(egui::ViewportId::ROOT)
        .or_default()
        .events
        .push(egui::ViewportEvent::Close);
    h.step();
    h.output()
        .viewport_output
        .get(&egui::ViewportId::ROOT)
        .is_some_and(|v| v.commands.contains(&egui::ViewportCommand::CancelClose))
}

#[test]
fn closing_with_unsaved_changes_asks_first() {
    let mut h = editor(meadow());
    assert!(!request_close(&mut h), "a saved map closes at once");
    assert!(!h.state().has_dialog());

    let p = at(&h, 5, 5);
    click_at(&mut h, p);
    assert!(request_close(&mut h), "the close is held back");
    h.run();
    assert!(h.state().has_dialog());
    h.get_by_label("Cancel").click();
    h.run();
    assert!(!h.state().has_dialog() && h.state().is_dirty());

    assert!(request_close(&mut h));
    h.run();
    h.get_by_label("Discard").click();
    h.run();
    assert!(!h.state().has_dialog());
    assert!(!request_close(&mut h), "after Discard the window may close");
}

fn right_click_at(h: &mut Harness<'_, EditorApp>, pos: Pos2) {
    h.hover_at(pos);
    for pressed in [true, false] {
        h.input_mut().events.push(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Secondary,
            pressed,
            modifiers: Modifiers::NONE,
        });
        h.step();
    }
    h.run();
}

#[test]
fn the_start_and_goal_tools_place_the_markers_on_passable_cells() {
    let mut h = editor(meadow());
    press(&mut h, Modifiers::NONE, Key::S);
    assert_eq!(h.state().tool(), Tool::Start);
    let pos = at(&h, 10, 20);
    click_at(&mut h, pos);
    assert_eq!(h.state().map().start, Some(Cell::new(10, 20)));
    let result = settled(&mut h);
    assert_eq!(
        result.start,
        Cell::new(10, 20),
        "the path is planned again at once"
    );

    press(&mut h, Modifiers::NONE, Key::G);
    assert_eq!(h.state().tool(), Tool::Goal);
    let pos = at(&h, 23, 7);
    click_at(&mut h, pos);
    assert_eq!(
        h.state().map().goal,
        Some(Cell::new(23, 7)),
        "inside the pen"
    );
    let result = settled(&mut h);
    assert!(!result.found, "the pen is walled in");

    // A wall is refused, with a message, and the goal stays.
    let pos = at(&h, 20, 6);
    click_at(&mut h, pos);
    assert_eq!(h.state().map().goal, Some(Cell::new(23, 7)));
    let notice = h.state().notice().expect("a message");
    assert!(notice.contains("impassable"), "{notice}");
}

#[test]
fn a_right_click_sets_the_start_or_the_goal_there() {
    let mut h = editor(meadow());
    let pos = at(&h, 30, 2);
    right_click_at(&mut h, pos);
    h.get_by_label("Set goal here").click();
    h.run();
    assert_eq!(h.state().map().goal, Some(Cell::new(30, 2)));
    assert_eq!(h.state().tool(), Tool::Brush, "the tool stays");
    let result = settled(&mut h);
    assert_eq!(result.goal, Cell::new(30, 2));

    let pos = at(&h, 5, 5);
    right_click_at(&mut h, pos);
    h.get_by_label("Set start here").click();
    h.run();
    assert_eq!(h.state().map().start, Some(Cell::new(5, 5)));

    // On a wall the menu's choice is refused.
    let pos = at(&h, 26, 8);
    right_click_at(&mut h, pos);
    h.get_by_label("Set start here").click();
    h.run();
    assert_eq!(h.state().map().start, Some(Cell::new(5, 5)));
    assert!(h.state().notice().unwrap_or("").contains("impassable"));
}

#[test]
fn f1_names_keys_by_their_symbols_lists_undo_first_and_escape_closes_it() {
    let mut h = editor(meadow());
    press(&mut h, Modifiers::NONE, Key::F1);
    // Keys by what is printed on them, not by egui's names.
    h.get_by_label("F1, ?");
    h.get_by_label("[");
    h.get_by_label("]");
    for name in ["Questionmark", "OpenBracket", "CloseBracket"] {
        assert!(h.query_by_label_contains(name).is_none(), "{name}");
    }
    // Undo before Redo, Save before Save as.
    let y = |h: &Harness<'_, EditorApp>, name: &str| h.get_by_label(name).rect().min.y;
    assert!(y(&h, "Undo") < y(&h, "Redo"));
    assert!(y(&h, "Save") < y(&h, "Save as…"));
    press(&mut h, Modifiers::NONE, Key::Escape);
    assert_eq!(
        h.query_all_by_label("Keyboard shortcuts").count(),
        0,
        "Escape closes it"
    );
    assert!(h.query_by_label("F1, ?").is_none());
}

#[test]
fn f1_lists_every_shortcut_from_the_table_the_keys_use() {
    let mut h = editor(meadow());
    let names: Vec<&str> = gridpath::app::commands::BINDINGS
        .iter()
        .map(|b| b.name)
        .collect();
    let count = |h: &Harness<'_, EditorApp>, name: &str| h.query_all_by_label(name).count();
    let before: Vec<usize> = names.iter().map(|n| count(&h, n)).collect();
    press(&mut h, Modifiers::NONE, Key::F1);
    for (name, before) in names.iter().zip(&before) {
        assert!(count(&h, name) > *before, "the window lists {name}");
    }
    press(&mut h, Modifiers::NONE, Key::F1);
    assert_eq!(count(&h, "Choose terrain 1–9"), 0, "F1 closes it");
}

#[test]
fn brush_keys_step_through_sizes_that_grow() {
    let mut h = editor(meadow());
    let mut sizes = vec![h.state().brush_size()];
    for _ in 0..6 {
        press(&mut h, Modifiers::NONE, Key::CloseBracket);
        sizes.push(h.state().brush_size());
    }
    assert_eq!(sizes, [1, 2, 3, 4, 6, 8, 12]);
    press(&mut h, Modifiers::NONE, Key::OpenBracket);
    assert_eq!(h.state().brush_size(), 8);
}

#[test]
fn undoing_back_to_the_saved_map_leaves_no_unsaved_changes() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut h = editor(meadow());
    let unsaved = |h: &Harness<'_, EditorApp>| {
        assert_eq!(
            h.query_by_label_contains("Unsaved changes").is_some(),
            h.state().is_dirty()
        );
        h.state().is_dirty()
    };
    let p = at(&h, 5, 5);
    click_at(&mut h, p);
    assert!(unsaved(&h));
    assert!(h.state_mut().save_to(&dir.path().join("meadow.json")));
    h.run();
    assert!(!unsaved(&h));
    let p = at(&h, 8, 8);
    click_at(&mut h, p);
    assert!(unsaved(&h));
    // Undo back to the map as saved: nothing unsaved.
    press(&mut h, Modifiers::COMMAND, Key::Z);
    assert!(!unsaved(&h), "back at the saved map");
    // One more undo goes behind the save; redo comes back to it.
    press(&mut h, Modifiers::COMMAND, Key::Z);
    assert!(unsaved(&h));
    press(&mut h, Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    assert!(!unsaved(&h));
    // A change the history does not hold (the start moved) stays unsaved whatever is undone.
    click_at(&mut h, p);
    h.get_by_label("Start").click();
    h.run();
    let q = at(&h, 2, 2);
    click_at(&mut h, q);
    assert_eq!(h.state().map().start, Some(Cell::new(2, 2)));
    press(&mut h, Modifiers::COMMAND, Key::Z);
    assert!(unsaved(&h), "the start is not where it was saved");
}

#[test]
fn the_status_bar_says_when_there_are_unsaved_changes() {
    let mut h = editor(meadow());
    assert!(h.query_by_label_contains("Unsaved changes").is_none());
    let p = at(&h, 5, 5);
    click_at(&mut h, p);
    assert!(h.query_by_label_contains("Unsaved changes").is_some());
}

#[test]
fn a_one_cell_wall_on_a_big_map_is_drawn_at_fit_zoom() {
    let grid = Grid::new(
        2048,
        2048,
        gridpath::grid::Terrain::default_catalog(),
        GRASS,
    )
    .expect("a big meadow");
    let mut map = Map::new("big", grid);
    map.start = Some(Cell::new(10, 10));
    map.goal = Some(Cell::new(2000, 2000));
    let mut h = editor(map);
    let ppp = h.ctx.pixels_per_point();
    assert!(
        h.state().zoom() * ppp < 0.5,
        "fitted, cells are smaller than pixels"
    );
    // A thin wall drawn with the Line tool across the middle.
    select_terrain(&mut h, "Wall");
    press(&mut h, Modifiers::NONE, Key::L);
    let (a, b) = (at(&h, 300, 1000), at(&h, 1700, 1000));
    drag(&mut h, a, b, 8);
    let walls: Vec<Cell> = (0..2048)
        .map(|x| Cell::new(x, 1000))
        .filter(|&c| h.state().map().grid.get(c) == Some(WALL))
        .collect();
    assert!(walls.len() > 1000, "the line painted {} walls", walls.len());
    let wall = h.state().map().grid.terrain(WALL).color;
    let wall = egui::Color32::from_rgb(wall.0[0], wall.0[1], wall.0[2]);
    for cell in walls {
        assert_eq!(
            h.state().shown_colour(cell, ppp),
            wall,
            "{cell} is drawn as a wall"
        );
    }
    // The grass beside it stays grass where no wall shares its pixel.
    assert_ne!(h.state().shown_colour(Cell::new(5, 5), ppp), wall);
}

/// Drags like a hand does: a frame at every step, the search answering along the way.
fn slow_drag(h: &mut Harness<'_, EditorApp>, from: Pos2, to: Pos2, steps: usize) {
    h.hover_at(from);
    h.drag_at(from);
    h.run();
    for i in 1..=steps {
        h.hover_at(from.lerp(to, i as f32 / steps as f32));
        h.run();
        assert!(h.state_mut().wait_for_search(Duration::from_secs(60)));
        h.run();
    }
    h.drop_at(to);
    h.run();
}

#[test]
fn one_marker_drag_is_one_history_row() {
    // Tall enough that the history table shows below the panel's other sections.
    let mut h = Harness::builder()
        .with_size([1200.0, 1600.0])
        .with_max_steps(16)
        .build_eframe(|_cc| EditorApp::with_map(meadow()));
    h.run();
    settled(&mut h);
    let rows = h.state().history_rows();
    let (from, to) = (at(&h, 3, 16), at(&h, 9, 20));
    slow_drag(&mut h, from, to, 6);
    settled(&mut h);
    assert_eq!(h.state().map().start, Some(Cell::new(9, 20)));
    assert_eq!(h.state().history_rows(), rows + 1, "the first drag");
    let (from, to) = (at(&h, 36, 16), at(&h, 30, 12));
    slow_drag(&mut h, from, to, 5);
    settled(&mut h);
    assert_eq!(h.state().history_rows(), rows + 2, "the second drag");
    // The history's header sorts both ways with a glyph every font here has.
    h.get_by_label_contains("History (").click();
    h.run();
    for _ in 0..2 {
        h.query_all_by_label_contains("Cost")
            .find(|n| n.accesskit_node().role() == egui::accesskit::Role::Button)
            .expect("the Cost column's button")
            .click();
        h.run();
    }
}

#[test]
fn the_ruler_measures_the_straight_line_and_the_cheapest_path() {
    let mut h = editor(meadow());
    press(&mut h, Modifiers::NONE, Key::M);
    assert_eq!(h.state().tool(), Tool::Measure);
    let (a, b) = (at(&h, 3, 14), at(&h, 13, 14));
    drag(&mut h, a, b, 4);
    let measured = h.state().measurement().expect("a measurement").clone();
    assert_eq!(
        (measured.from, measured.to),
        (Cell::new(3, 14), Cell::new(13, 14))
    );
    let straight = measured.straight_text(h.state().map());
    assert!(
        straight.contains("10.00 cells") && straight.contains("cost 10.00"),
        "{straight}"
    );
    let path = measured.path.expect("the path was searched");
    assert!(path.contains("cost 10.00"), "{path}");
    // Across the walled pen: the straight line crosses a wall, the path goes round.
    let (a, b) = (at(&h, 18, 7), at(&h, 28, 7));
    drag(&mut h, a, b, 4);
    let measured = h.state().measurement().expect("a measurement").clone();
    assert!(
        measured
            .straight_text(h.state().map())
            .contains("crosses a wall")
    );
    let path = measured.path.expect("the path was searched");
    assert!(path.starts_with("Path"), "{path}");
    assert_eq!(terrain_at(&h, 18, 7), GRASS, "measuring paints nothing");
    assert!(!h.state().is_dirty());
}

#[test]
fn the_minimap_shows_when_zoomed_in_and_a_click_there_moves_the_view() {
    let grid =
        Grid::new(200, 120, gridpath::grid::Terrain::default_catalog(), GRASS).expect("a meadow");
    let mut map = Map::new("wide", grid);
    map.start = Some(Cell::new(5, 5));
    map.goal = Some(Cell::new(20, 5));
    let mut h = editor(map);
    assert!(
        h.state().minimap_rect().is_none(),
        "the whole map is in view"
    );
    h.state_mut().set_zoom(12.0);
    h.run();
    let minimap = h
        .state()
        .minimap_rect()
        .expect("zoomed in, the minimap shows");
    let canvas = h.get_by_label("Map canvas").rect();
    let far = Cell::new(190, 110);
    assert!(
        !canvas.contains(h.state().screen_from_cell(far)),
        "out of view"
    );
    // A click near the minimap's bottom-right corner brings that corner of the map in view.
    let corner = minimap.lerp_inside(egui::vec2(0.95, 0.92));
    click_at(&mut h, corner);
    assert!(
        canvas.contains(h.state().screen_from_cell(far)),
        "in view after the click"
    );
    assert_eq!(terrain_at(&h, 190, 110), GRASS, "the click painted nothing");
}

/// A drag with the right button, a frame at each step.
fn right_drag(h: &mut Harness<'_, EditorApp>, from: Pos2, to: Pos2) {
    let button = |pos, pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Secondary,
        pressed,
        modifiers: Modifiers::NONE,
    };
    h.hover_at(from);
    h.event(button(from, true));
    h.run();
    for i in 1..=4 {
        h.hover_at(from.lerp(to, i as f32 / 4.0));
        h.run();
    }
    h.event(button(to, false));
    h.run();
}

#[test]
fn a_right_drag_zooms_into_its_box() {
    let mut h = editor(meadow());
    let zoom = h.state().zoom();
    let (a, b) = (at(&h, 20, 4), at(&h, 27, 11));
    right_drag(&mut h, a, b);
    assert!(
        h.state().zoom() > zoom * 3.0,
        "{} after {zoom}",
        h.state().zoom()
    );
    let canvas = h.get_by_label("Map canvas").rect();
    let centre = h.state().screen_from_cell(Cell::new(23, 7));
    assert!(
        canvas.center().distance(centre) < h.state().zoom(),
        "the box is centred"
    );
    assert_eq!(terrain_at(&h, 23, 7), GRASS, "zooming painted nothing");
}

/// Types a value into a number field (a drag value) found by its label.
fn set_number(h: &mut Harness<'_, EditorApp>, label: &str, value: &str) {
    use egui::accesskit::Role;
    h.get_by_role_and_label(Role::SpinButton, label).click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_role_and_label(Role::SpinButton, label)
        .type_text(value);
    h.key_press(Key::Enter);
    h.run();
}

fn height_at(h: &Harness<'_, EditorApp>, x: u32, y: u32) -> f64 {
    h.state().map().grid.height_at(Cell::new(x, y))
}

#[test]
fn sculpted_ground_is_searched_as_the_user_sees_it_and_undoes_to_a_flat_map() {
    let mut h = editor(meadow());
    let flat = settled(&mut h).cost;
    // U takes the Raise tool; a ridge across the straight path gives the map heights.
    press(&mut h, Modifiers::NONE, Key::U);
    assert_eq!(h.state().tool(), Tool::Raise);
    set_number(&mut h, "Brush step", "2");
    let (from, to) = (at(&h, 18, 12), at(&h, 18, 22));
    drag(&mut h, from, to, 5);
    assert_eq!(height_at(&h, 18, 16), 2.0);
    assert_eq!(height_at(&h, 10, 16), 0.0);
    plans_on_the_editors_map(&mut h, "ridge");
    let over = settled(&mut h).cost;
    assert!(over > flat, "climbing costs: {over} > {flat}");
    // A second stroke beside it travels to the search as the heights it changed.
    let (from, to) = (at(&h, 19, 12), at(&h, 19, 22));
    drag(&mut h, from, to, 5);
    assert_eq!(height_at(&h, 19, 16), 2.0);
    plans_on_the_editors_map(&mut h, "second ridge");
    // Flatten from a low cell levels part of the ridge again.
    press(&mut h, Modifiers::NONE, Key::H);
    let (from, to) = (at(&h, 17, 16), at(&h, 19, 16));
    drag(&mut h, from, to, 3);
    assert_eq!(height_at(&h, 18, 16), 0.0);
    plans_on_the_editors_map(&mut h, "flattened");
    // The slope rules: a cliff limit below the ridge's step closes the gap's sides...
    h.get_by_role_and_label(egui::accesskit::Role::CheckBox, "Max climb")
        .click();
    h.run();
    set_number(&mut h, "Max climb", "1");
    assert_eq!(h.state().map().grid.slope().max_climb, Some(1.0));
    plans_on_the_editors_map(&mut h, "max climb");
    // ...and no uphill cost makes the climb free where it is allowed.
    set_number(&mut h, "Uphill cost", "0");
    assert_eq!(h.state().map().grid.slope().uphill, 0.0);
    plans_on_the_editors_map(&mut h, "free climbing");
    // Undo takes back the rules, the flattening, both strokes, and the map is flat again.
    for step in 0..5 {
        assert!(h.state().map().grid.heights().is_some(), "undo {step}");
        press(&mut h, Modifiers::COMMAND, Key::Z);
        plans_on_the_editors_map(&mut h, &format!("undo {step}"));
    }
    assert_eq!(h.state().map().grid.heights(), None);
    assert_eq!(h.state().map().grid.slope(), gridpath::grid::Slope::DEFAULT);
    assert!((settled(&mut h).cost - flat).abs() < 1e-9);
}

/// Every cell the clearance layer shows, against the library's clearance of the editor's map.
fn clearance_shown_matches(h: &Harness<'_, EditorApp>, step: &str) {
    let grid = &h.state().map().grid;
    let expected = gridpath::search::clearance(grid);
    for (i, &value) in expected.iter().enumerate() {
        let cell = grid.cell_at(i);
        assert_eq!(
            h.state().shown_clearance(cell),
            Some(value),
            "{step}: {cell}"
        );
    }
}

#[test]
fn the_clearance_layer_shows_where_a_unit_fits_and_follows_edits() {
    let mut h = editor(meadow());
    assert_eq!(h.state().shown_clearance(Cell::new(0, 0)), None);
    // The Layers section lies below the fold of the Path panel: scroll to it as a user would.
    h.get_by_role_and_label(egui::accesskit::Role::CheckBox, "Clearance")
        .scroll_to_me();
    h.run();
    h.get_by_role_and_label(egui::accesskit::Role::CheckBox, "Clearance")
        .click();
    h.run();
    clearance_shown_matches(&h, "shown");
    // Open meadow below the pen: a square of 13 fits from (0, 11) to the bottom edge.
    assert_eq!(h.state().shown_clearance(Cell::new(0, 11)), Some(13));
    select_terrain(&mut h, "Wall");
    let (from, to) = (at(&h, 6, 12), at(&h, 6, 20));
    drag(&mut h, from, to, 4);
    clearance_shown_matches(&h, "after a wall");
    assert_eq!(h.state().shown_clearance(Cell::new(6, 15)), Some(0));
    press(&mut h, Modifiers::COMMAND, Key::Z);
    clearance_shown_matches(&h, "undone");
    // A legend, and the value under the cursor in the status bar.
    h.get_by_label_contains("under the cursor in the status bar");
    h.hover_at(at(&h, 0, 11));
    h.run();
    h.get_by_label_contains("clearance 13 (a unit of up to 13 × 13 fits)");
}

/// The route the library plans on the editor's map through its waypoints.
fn library_route(
    h: &Harness<'_, EditorApp>,
    order: gridpath::search::RouteOrder,
    patrol: bool,
) -> gridpath::search::Route {
    let app = h.state();
    let request = app.search_request().expect("a request").clone();
    let graph = gridpath::search::SearchGraph::new(&app.map().grid, request.diagonal);
    gridpath::search::route(&graph, &request, &app.map().waypoints, order, patrol).expect("a route")
}

#[test]
fn waypoints_are_added_dragged_reordered_and_removed_from_the_map() {
    use gridpath::search::RouteOrder;
    let mut h = editor(meadow());
    let pos = at(&h, 10, 2);
    right_click_at(&mut h, pos);
    h.get_by_label("Add waypoint here").click();
    h.run();
    assert_eq!(h.state().map().waypoints, [Cell::new(10, 2)]);
    let result = settled(&mut h);
    assert!(
        result.path.contains(&Cell::new(10, 2)),
        "through the waypoint"
    );
    let expected = library_route(&h, RouteOrder::AsGiven, false);
    assert!((result.cost - expected.result.cost).abs() < 1e-9);
    assert_eq!(
        h.state().route_order(),
        Some(&[Cell::new(3, 16), Cell::new(10, 2), Cell::new(36, 16)][..])
    );
    // Dragged like the start and goal: the route follows.
    let (from, to) = (at(&h, 10, 2), at(&h, 30, 20));
    drag(&mut h, from, to, 6);
    assert_eq!(h.state().map().waypoints, [Cell::new(30, 20)]);
    assert!(settled(&mut h).path.contains(&Cell::new(30, 20)));
    // A second waypoint near the start, visited last as given, first in the best order.
    let pos = at(&h, 5, 20);
    right_click_at(&mut h, pos);
    h.get_by_label("Add waypoint here").click();
    h.run();
    let given = settled(&mut h).cost;
    assert_eq!(h.state().waypoint_labels(), ["1", "2"], "numbered as given");
    h.get_by_role_and_label(egui::accesskit::Role::CheckBox, "Best order")
        .click();
    h.run();
    let best = settled(&mut h);
    let expected = library_route(&h, RouteOrder::Cheapest, false);
    assert!((best.cost - expected.result.cost).abs() < 1e-9);
    assert!(best.cost < given, "{} < {given}", best.cost);
    assert_eq!(
        h.state().route_order().map(|o| o[1]),
        Some(Cell::new(5, 20))
    );
    // The markers are numbered in the order visited: the second waypoint now comes first.
    assert_eq!(
        h.state().map().waypoints,
        [Cell::new(30, 20), Cell::new(5, 20)]
    );
    assert_eq!(h.state().waypoint_labels(), ["2", "1"]);
    // The path export writes every leg, each with the stretch of the path it covers.
    let export = h.state().path_export().expect("a path to export");
    let route = export.route.as_ref().expect("the route's legs");
    assert_eq!(route.legs.len(), route.stops.len() - 1);
    for (leg, stops) in route.legs.iter().zip(route.stops.windows(2)) {
        assert_eq!((leg.from, leg.to), (stops[0], stops[1]));
        let [first, last] = leg.cells;
        assert_eq!(export.grid_path.cells[first], leg.from);
        assert_eq!(export.grid_path.cells[last], leg.to);
    }
    let legs: f64 = route.legs.iter().map(|l| l.cost).sum();
    assert!((legs - best.cost).abs() < 1e-9);
    // A patrol comes back to the start.
    h.get_by_role_and_label(egui::accesskit::Role::CheckBox, "Patrol")
        .click();
    h.run();
    let patrol = settled(&mut h);
    assert_eq!(patrol.path.last(), Some(&Cell::new(3, 16)));
    // Removed from the menu of a waypoint, which names it by the number on its marker; then
    // all cleared.
    let number = h.state().waypoint_labels()[0].clone();
    let pos = at(&h, 30, 20);
    right_click_at(&mut h, pos);
    h.get_by_label(&format!("Remove waypoint {number}")).click();
    h.run();
    assert_eq!(h.state().map().waypoints, [Cell::new(5, 20)]);
    let pos = at(&h, 20, 20);
    right_click_at(&mut h, pos);
    h.get_by_label("Clear waypoints").click();
    h.run();
    assert!(h.state().map().waypoints.is_empty());
}
