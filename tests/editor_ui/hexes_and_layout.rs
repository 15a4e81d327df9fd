//! The editor on hex maps, and the first screen's layout at the default window size.

use super::*;

/// Asserts that `rect`, the rectangle of the widget `what`, lies inside `within`.
fn assert_inside(what: &str, rect: egui::Rect, within: egui::Rect) {
    assert!(
        within.expand(0.5).contains_rect(rect),
        "{what} at {rect:?} is not inside {within:?}"
    );
}

#[test]
fn the_first_screen_fits_the_default_window() {
    let mut h = Harness::builder()
        .with_size([1200.0, 780.0])
        .with_max_steps(16)
        .build_eframe(|_cc| EditorApp::new(None).expect("the built-in level"));
    h.run();
    assert!(h.state_mut().wait_for_search(Duration::from_secs(60)));
    h.run();
    let window = egui::Rect::from_min_size(Pos2::ZERO, egui::vec2(1200.0, 780.0));
    // Above the status bar.
    let status = h.get_by_label_contains("Zoom ").rect();
    let screen = egui::Rect::from_min_max(Pos2::ZERO, egui::pos2(1200.0, status.min.y));
    // The toolbar: every tool and the brush's settings on one row.
    let brush = h.get_by_label("Brush").rect();
    for tool in Tool::ALL {
        let rect = h.get_by_label(tool.name()).rect();
        assert_inside(tool.name(), rect, window);
        assert!(
            (rect.center().y - brush.center().y).abs() < 1.0,
            "{tool:?} on the toolbar's row"
        );
    }
    for name in ["Round", "Square", "Filled"] {
        let rect = h.get_by_label(name).rect();
        assert_inside(name, rect, window);
        assert!(
            (rect.center().y - brush.center().y).abs() < 1.0,
            "{name} on the toolbar's row"
        );
    }
    // The Path panel, its statistics and the Layers section, whole.
    for name in [
        "Algorithm",
        "Optimality",
        "Compare all",
        "Explored",
        "Frontier",
        "Grid path",
        "Smoothed path",
        "Flow field",
        "Clearance",
        "g/h/f numbers",
    ] {
        for node in h.query_all_by_label(name) {
            assert_inside(name, node.rect(), screen);
        }
    }
    for value in ["no-cut, octile", "exact (optimal)"] {
        assert_inside(value, h.get_by_label(value).rect(), screen);
    }
    for name in ["Explored opacity", "Field opacity"] {
        let rect = h
            .get_by_role_and_label(egui::accesskit::Role::SpinButton, name)
            .rect();
        assert_inside(name, rect, screen);
    }
    // The history, opened, shows every column inside the window.
    h.get_by_label_contains("History (").click();
    h.run();
    assert_inside(
        "History",
        h.get_by_label_contains("History (").rect(),
        screen,
    );
    for column in ["#", "Algorithm", "Cost", "Expanded", "Time"] {
        let button = h
            .query_all_by_label_contains(column)
            .find(|n| {
                n.accesskit_node().role() == egui::accesskit::Role::Button
                    && n.accesskit_node()
                        .label()
                        .is_some_and(|l| l.starts_with(column))
            })
            .unwrap_or_else(|| panic!("the {column} column"));
        assert_inside(column, button.rect(), screen);
    }
    // No text is cut at the window's right edge, with the longest results an algorithm gives.
    let no_text_cut = |h: &Harness<'_, EditorApp>, when: &str| {
        let by = egui_kittest::kittest::by()
            .role(egui::accesskit::Role::Label)
            .include_labels();
        for node in h.query_all(by) {
            assert!(
                node.rect().max.x <= 1200.5,
                "{when}: {:?} at {:?} is cut off",
                node.accesskit_node().value(),
                node.rect()
            );
        }
    };
    no_text_cut(&h, "A*");
    h.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Algorithm")
        .click();
    h.run();
    h.get_by_label("Lazy Theta* (any-angle)").click();
    h.run();
    assert!(h.state_mut().wait_for_search(Duration::from_secs(60)));
    h.run();
    assert!(h.state().search_result().is_some_and(|r| r.found));
    no_text_cut(&h, "Lazy Theta*");
}

/// The meadow with pointy-top hexes, odd rows pushed right.
fn hex_meadow() -> Map {
    let mut map = meadow();
    map.grid = map.grid.with_topology(Topology::Hex(HexLayout::ODD_R));
    map
}

/// A screen point inside `cell`'s hex, `t` of the way (under ½) towards the centre of its
/// neighbour `(nx, ny)`: near the edge they share.
fn towards(h: &Harness<'_, EditorApp>, cell: Cell, (nx, ny): (i64, i64), t: f32) -> Pos2 {
    let centre = at(h, cell.x, cell.y);
    // The neighbour may lie off the map: its centre is one step from this one all the same.
    let layout = HexLayout::ODD_R;
    let (cx, cy) = layout.centre_of(i64::from(cell.x), i64::from(cell.y));
    let (ox, oy) = layout.centre_of(nx, ny);
    let zoom = h.state().zoom();
    centre + egui::Vec2::new((ox - cx) as f32, (oy - cy) as f32) * zoom * t
}

#[test]
fn on_a_hex_map_a_click_picks_the_hex_under_the_pointer_and_markers_sit_there() {
    let mut h = editor(hex_meadow());
    press(&mut h, Modifiers::NONE, Key::S);
    let layout = HexLayout::ODD_R;
    for cell in [Cell::new(10, 20), Cell::new(11, 19)] {
        let centre = at(&h, cell.x, cell.y);
        click_at(&mut h, centre);
        assert_eq!(h.state().map().start, Some(cell), "at the centre");
        // Near each of the six edges, and near each corner (between two edges).
        let around = layout.neighbours(i64::from(cell.x), i64::from(cell.y));
        for (k, &n) in around.iter().enumerate() {
            h.state_mut().open_map(hex_meadow());
            h.run();
            let near_edge = towards(&h, cell, n, 0.46);
            click_at(&mut h, near_edge);
            assert_eq!(
                h.state().map().start,
                Some(cell),
                "near the edge towards {n:?}"
            );
            let next = around[(k + 1) % 6];
            // Between the two edges' points, pushed out to 93 % of the way to the corner.
            let centre = at(&h, cell.x, cell.y);
            let between = (near_edge + towards(&h, cell, next, 0.46).to_vec2()) / 2.0;
            let corner = centre + (between - centre) * 1.35;
            click_at(&mut h, corner);
            assert_eq!(
                h.state().map().start,
                Some(cell),
                "between {n:?} and {next:?}"
            );
        }
    }
    // The search runs on hexes: each step of the path joins neighbouring hexes.
    let result = settled(&mut h);
    assert!(result.found);
    for pair in result.path.windows(2) {
        assert_eq!(layout.distance(pair[0], pair[1]), 1, "{pair:?}");
    }
    // The path is drawn through the hexes' centres.
    let screen: Vec<Pos2> = result.path.iter().map(|c| at(&h, c.x, c.y)).collect();
    let (first, second) = (screen[0], screen[1]);
    let zoom = h.state().zoom();
    assert!(
        ((second - first).length() - zoom).abs() < 0.01,
        "centres one cell apart"
    );
    // The path is smoothed in the hex world frame: the curve runs from the start hex's
    // centre to the goal's, and every point of it lies in a passable hex.
    assert!(h.state().search_failure().is_none());
    let export = h.state().path_export().expect("a path to export");
    assert_eq!(export.map.topology, Some("odd-r"));
    let smoothed = export.smoothed.as_ref().expect("the hex path is smoothed");
    let grid = &h.state().map().grid;
    let centre = |c: Cell| layout.centre_of(i64::from(c.x), i64::from(c.y));
    let ends = (result.path[0], result.path[result.path.len() - 1]);
    let (first, last) = (
        smoothed.samples[0],
        smoothed.samples[smoothed.samples.len() - 1],
    );
    assert_eq!((first[0], first[1]), centre(ends.0));
    assert_eq!((last[0], last[1]), centre(ends.1));
    for [x, y, _, _] in &smoothed.samples {
        let (hx, hy) = layout.hex_at(*x, *y);
        assert!(
            grid.contains(hx, hy) && grid.is_passable(Cell::new(hx as u32, hy as u32)),
            "({x}, {y}) lies in the hex ({hx}, {hy})"
        );
    }
    // The search panel names the six neighbours instead of offering diagonal rules.
    h.get_by_label(gridpath::app::search::panel::HEX_NEIGHBOURS);
    assert!(h.query_by_label("Diagonal moves").is_none());
    h.get_by_label("6 neighbours, hex");
    h.state_mut().open_map(meadow());
    h.run();
    assert!(
        h.query_by_label(gridpath::app::search::panel::HEX_NEIGHBOURS)
            .is_none()
    );
    assert!(h.query_by_label("Diagonal moves").is_some());
}

#[test]
fn every_tool_works_on_a_hex_map() {
    let layout = HexLayout::ODD_R;
    let mut h = editor(hex_meadow());
    // Brush: one hex at size 1, the hex and its six neighbours at size 2.
    press(&mut h, Modifiers::NONE, Key::B);
    select_terrain(&mut h, "Wall");
    let p = at(&h, 5, 5);
    click_at(&mut h, p);
    assert_eq!(terrain_at(&h, 5, 5), WALL);
    for (x, y) in layout.neighbours(5, 5) {
        assert_eq!(terrain_at(&h, x as u32, y as u32), GRASS, "({x}, {y})");
    }
    press(&mut h, Modifiers::NONE, Key::CloseBracket);
    assert_eq!(h.state().brush_size(), 2);
    let p = at(&h, 12, 13);
    click_at(&mut h, p);
    for y in 10..17 {
        for x in 8..17 {
            let near = layout.distance(Cell::new(12, 13), Cell::new(x, y)) <= 1;
            assert_eq!(terrain_at(&h, x, y) == WALL, near, "({x}, {y})");
        }
    }
    press(&mut h, Modifiers::NONE, Key::OpenBracket);
    // Line: the hexes of the hex line.
    press(&mut h, Modifiers::NONE, Key::L);
    let (a, b) = (Cell::new(2, 22), Cell::new(9, 17));
    let (pa, pb) = (at(&h, a.x, a.y), at(&h, b.x, b.y));
    drag(&mut h, pa, pb, 5);
    let line = layout.line(a, b);
    assert_eq!(line.len() as u64, layout.distance(a, b) + 1);
    for &(x, y) in &line {
        assert_eq!(
            terrain_at(&h, x as u32, y as u32),
            WALL,
            "({x}, {y}) on the line"
        );
    }
    assert_eq!(terrain_at(&h, 9, 22), GRASS);
    // Rectangle: the rows and columns of the offset rectangle.
    press(&mut h, Modifiers::NONE, Key::R);
    let (a, b) = (at(&h, 30, 14), at(&h, 34, 18));
    drag(&mut h, a, b, 4);
    for (x, y) in (30..=34).flat_map(|x| (14..=18).map(move |y| (x, y))) {
        assert_eq!(terrain_at(&h, x, y), WALL, "filled at ({x}, {y})");
    }
    assert_eq!(terrain_at(&h, 35, 16), GRASS);
    // Fill: inside the pen, through six neighbours, stopped by its walls.
    press(&mut h, Modifiers::NONE, Key::F);
    select_terrain(&mut h, "Swamp");
    let inside = at(&h, 23, 7);
    click_at(&mut h, inside);
    for (x, y) in (21..=25).flat_map(|x| (5..=9).map(move |y| (x, y))) {
        assert_eq!(terrain_at(&h, x, y), SWAMP, "inside the pen at ({x}, {y})");
    }
    assert_eq!(terrain_at(&h, 10, 3), GRASS, "outside the pen stays");
    // Eyedropper: picks the hex's terrain.
    select_terrain(&mut h, "Road");
    press(&mut h, Modifiers::NONE, Key::I);
    let wall = at(&h, 20, 6);
    click_at(&mut h, wall);
    assert_eq!(h.state().active_terrain(), WALL);
    // Eraser: the base terrain on one hex.
    press(&mut h, Modifiers::NONE, Key::E);
    click_at(&mut h, wall);
    assert_eq!(terrain_at(&h, 20, 6), GRASS);
    // Start and goal.
    press(&mut h, Modifiers::NONE, Key::S);
    let p = at(&h, 3, 3);
    click_at(&mut h, p);
    press(&mut h, Modifiers::NONE, Key::G);
    let p = at(&h, 38, 22);
    click_at(&mut h, p);
    assert_eq!(h.state().map().start, Some(Cell::new(3, 3)));
    assert_eq!(h.state().map().goal, Some(Cell::new(38, 22)));
    let result = settled(&mut h);
    assert!(result.found);
    assert!(result.cost >= layout.distance(Cell::new(3, 3), Cell::new(38, 22)) as f64);
    // A waypoint on a hex: the route passes it.
    let pos = at(&h, 36, 2);
    right_click_at(&mut h, pos);
    h.get_by_label("Add waypoint here").click();
    h.run();
    assert_eq!(h.state().map().waypoints, [Cell::new(36, 2)]);
    assert!(settled(&mut h).path.contains(&Cell::new(36, 2)));
    // Measure: the straight line in hex steps.
    press(&mut h, Modifiers::NONE, Key::M);
    let (a, b) = (at(&h, 3, 19), at(&h, 13, 23));
    drag(&mut h, a, b, 4);
    let measured = h.state().measurement().expect("a measurement").clone();
    let steps = layout.distance(Cell::new(3, 19), Cell::new(13, 23));
    let straight = measured.straight_text(h.state().map());
    assert!(
        straight.contains(&format!("{steps} hex steps")),
        "{straight}"
    );
    // The path speaks the same unit: hex steps, never cells.
    let path = measured.path.expect("the path was searched");
    assert!(
        path.starts_with("Path") && path.contains(" hex steps, cost "),
        "{path}"
    );
    assert!(!path.contains("cells"), "{path}");
}

#[test]
fn file_new_makes_a_hex_map_in_the_layout_chosen() {
    let mut h = editor(meadow());
    press(&mut h, Modifiers::COMMAND, Key::N);
    h.get_by_label("Cells").click();
    h.run();
    h.get_by_label("Hexes (flat-top, columns, even-q)").click();
    h.run();
    h.get_by_label("Create").click();
    h.run();
    let grid = &h.state().map().grid;
    assert_eq!(grid.topology(), Topology::Hex(HexLayout::EVEN_Q));
    assert_eq!((grid.width(), grid.height()), (40, 24));
    let result = settled(&mut h);
    for pair in result.path.windows(2) {
        assert_eq!(HexLayout::EVEN_Q.distance(pair[0], pair[1]), 1);
    }
}

#[test]
fn forty_terrains_scroll_in_their_own_list_and_leave_the_fields_and_heights_on_screen() {
    let mut map = meadow();
    for i in 0..38 {
        let terrain = gridpath::grid::Terrain::passable(
            &format!("Desert {i}"),
            char::from_u32(0x100 + i).expect("a symbol"),
            gridpath::grid::Rgb([200, 180, 120 + i as u8]),
            1.0 + f64::from(i),
        );
        map.grid.add_terrain(terrain).expect("room for a terrain");
    }
    assert!(map.grid.terrains().len() >= 40);
    let mut h = Harness::builder()
        .with_size([1200.0, 780.0])
        .with_max_steps(16)
        .build_eframe(move |_cc| EditorApp::with_map(map));
    h.run();
    assert!(h.state_mut().wait_for_search(Duration::from_secs(60)));
    h.run();
    let status = h.get_by_label_contains("Zoom ").rect();
    let screen = egui::Rect::from_min_max(Pos2::ZERO, egui::pos2(1200.0, status.min.y));
    // The active terrain's fields and the Heights section stay on screen.
    for name in ["Add terrain", "Delete terrain", "Heights", "Brush step"] {
        let node = h
            .query_all_by_label_contains(name)
            .next()
            .unwrap_or_else(|| panic!("{name} is shown"));
        assert_inside(name, node.rect(), screen);
    }
    // The list scrolls: its last terrain lies below what the list shows.
    let first = h.get_by_label_contains("Desert 0").rect();
    assert_inside("the first of the new terrains", first, screen);
    let last = h.get_by_label_contains("Desert 37").rect();
    let heights = h.get_by_label("Heights").rect();
    assert!(
        last.min.y > heights.min.y,
        "the list's end is scrolled out of view, below the Heights heading: {last:?}"
    );
}
