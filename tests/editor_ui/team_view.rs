//! What the canvas and the Agents panel show of a team: the units above everything of the
//! single path, their numbers above the flags, discs that never seem to touch on legal moves,
//! and a panel that keeps its layout while the solver works.

use super::*;
use egui::epaint::{CircleShape, Shape};

/// Every shape the last frame painted, in the order painted, nested lists flattened.
fn painted(h: &Harness<'_, EditorApp>) -> Vec<Shape> {
    fn flatten(shape: &Shape, out: &mut Vec<Shape>) {
        match shape {
            Shape::Vec(shapes) => shapes.iter().for_each(|s| flatten(s, out)),
            other => out.push(other.clone()),
        }
    }
    let mut out = Vec::new();
    for clipped in &h.output().shapes {
        flatten(&clipped.shape, &mut out);
    }
    out
}

/// The texts painted, with their place in the painting order.
fn texts(shapes: &[Shape]) -> Vec<(usize, String)> {
    shapes
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match s {
            Shape::Text(t) => Some((i, t.galley.text().to_owned())),
            _ => None,
        })
        .collect()
}

/// A 10 × 6 open yard, zoomed in enough for the units' numbers, its markers at (0,0) and
/// (9,5).
fn yard() -> Map {
    let rows = vec![".".repeat(10); 6];
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut map = Map::new("yard", Grid::from_ascii(&rows).expect("a valid yard"));
    map.start = Some(Cell::new(9, 5));
    map.goal = Some(Cell::new(0, 0));
    map
}

/// Loads `paths` as a plan file into the editor.
fn load_paths(h: &mut Harness<'_, EditorApp>, paths: &[&[(u32, u32)]]) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let plan = gridpath::mapf::Plan {
        paths: paths
            .iter()
            .map(|p| p.iter().map(|&(x, y)| Cell::new(x, y)).collect())
            .collect(),
    };
    let file = dir.path().join("plan.txt");
    std::fs::write(&file, gridpath::mapf::write_plan(&plan, &[])).expect("written");
    assert!(h.state_mut().load_plan_from(&file));
    h.run();
}

#[test]
fn a_team_hides_the_single_paths_markers_path_and_inspector() {
    let mut h = editor(yard());
    // Without a team, the single path's markers are drawn, and the status bar tells the
    // search's numbers of a cell on its path.
    h.hover_at(at(&h, 9, 5));
    h.run();
    let before = texts(&painted(&h));
    assert!(before.iter().any(|(_, t)| t == "G"), "{before:?}");
    assert!(before.iter().any(|(_, t)| t.contains("drag S and G")));
    h.get_by_label_contains("expanded #");
    // A unit standing on the goal marker's cell, (0,0).
    load_paths(&mut h, &[&[(0, 0), (0, 0)], &[(5, 3), (6, 3)]]);
    assert!(h.state().team_shown());
    let after = texts(&painted(&h));
    assert!(
        !after
            .iter()
            .any(|(_, t)| t == "G" || t == "S" || t.contains("drag S and G")),
        "no marker over the team, nor the hint that speaks of them: {after:?}"
    );
    assert!(after.iter().any(|(_, t)| t == "1"), "unit 1 is numbered");
    // Nor does the status bar tell the single search's g, h and f.
    h.hover_at(at(&h, 9, 5));
    h.run();
    assert!(h.query_by_label_contains("expanded #").is_none());
}

#[test]
fn unit_numbers_are_drawn_above_every_goal_flag() {
    let mut h = editor(yard());
    // Unit 1 waits on unit 2's goal, unit 2 on unit 1's.
    load_paths(&mut h, &[&[(3, 2), (3, 2)], &[(6, 2), (6, 2)]]);
    h.state_mut().agents_mut().playback.tick = 0.0;
    h.run();
    let shapes = painted(&h);
    // The flags' pennants: closed triangles.
    let last_flag = shapes
        .iter()
        .rposition(|s| matches!(s, Shape::Path(p) if p.closed && p.points.len() == 3))
        .expect("goal flags are drawn");
    let units = [at(&h, 3, 2), at(&h, 6, 2)];
    let numbers: Vec<usize> = shapes
        .iter()
        .enumerate()
        .filter(|(_, s)| match s {
            Shape::Text(t) => {
                let rect = t.visual_bounding_rect();
                units.iter().any(|&u| rect.contains(u))
            }
            _ => false,
        })
        .map(|(i, _)| i)
        .collect();
    assert_eq!(numbers.len(), 2, "both units are numbered");
    assert!(
        numbers.iter().all(|&n| n > last_flag),
        "numbers at {numbers:?}, a flag at {last_flag}"
    );
}

#[test]
fn units_turning_on_neighbouring_cells_never_seem_to_overlap() {
    let mut h = editor(yard());
    // Unit 1 moves right into (4,2) as unit 2 leaves it downwards: legal, and halfway their
    // centres are √½ of a cell apart.
    load_paths(&mut h, &[&[(3, 2), (4, 2)], &[(4, 2), (4, 3)]]);
    assert!(
        h.state()
            .agents()
            .solved
            .as_ref()
            .is_some_and(|s| s.fault.is_none()),
        "the plan is legal"
    );
    h.state_mut().agents_mut().playback.tick = 0.5;
    h.run();
    let mid = |a: Pos2, b: Pos2| a + (b - a) / 2.0;
    let first = mid(at(&h, 3, 2), at(&h, 4, 2));
    let second = mid(at(&h, 4, 2), at(&h, 4, 3));
    let shapes = painted(&h);
    // How far the circles drawn around a point reach, strokes included.
    let reach = |p: Pos2| {
        shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Circle(CircleShape {
                    center,
                    radius,
                    stroke,
                    ..
                }) if center.distance(p) < 0.5 => Some(radius + stroke.width / 2.0),
                _ => None,
            })
            .fold(0.0_f32, f32::max)
    };
    let (ra, rb) = (reach(first), reach(second));
    assert!(ra > 0.0 && rb > 0.0, "both units are drawn");
    assert!(
        ra + rb <= first.distance(second),
        "discs of {ra} and {rb} px reach each other {} px apart",
        first.distance(second)
    );
}

#[test]
fn the_panel_keeps_its_layout_when_the_improvement_ends() {
    let mut h = editor(meadow());
    h.state_mut().agents_mut().live = false;
    h.state_mut().agents_mut().time_limit = 600.0;
    // Sixteen units swap the ends of eight rows: LaCAM* improves the first plan until
    // stopped.
    let grid = h.state().map().grid.clone();
    for y in 12..20 {
        for (s, g) in [(2, 37), (37, 2)] {
            h.state_mut()
                .agents_mut()
                .add(&grid, Cell::new(s, y), Cell::new(g, y))
                .expect("a unit");
        }
    }
    let grid = h.state().map().grid.clone();
    h.state_mut().agents_mut().solve(&grid);
    assert!(
        h.state_mut()
            .agents_mut()
            .wait(Duration::from_secs(60))
            .is_some(),
        "the first plan"
    );
    h.step();
    h.step();
    assert!(
        h.state().agents().improving,
        "the first plan is being improved"
    );
    let during = h.get_by_label("Play plan").rect();
    h.get_by_label("Stop").click();
    h.step();
    assert!(
        h.state_mut().wait_for_agents(Duration::from_secs(60)),
        "the improvement stops"
    );
    h.run();
    assert!(!h.state().agents().improving);
    let after = h.get_by_label("Play plan").rect();
    assert_eq!(during, after, "Play plan stays where it was");
}

#[test]
fn the_panel_says_what_a_plan_guarantees_and_that_the_solver_changed() {
    let mut h = two_units_planned_without_improving();
    assert_eq!(
        h.state().agents().solved.as_ref().map(|s| s.outcome.proof),
        Some(gridpath::mapf::Proof::Feasible)
    );
    h.get_by_label("valid plan (no bound on its cost)");
    // Another solver, not planned at once: the panel says the solver changed.
    h.get_by_label("Plan again on every change").click();
    h.run();
    h.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Solver")
        .click();
    h.run();
    h.get_by_label("CBS").click();
    h.run();
    assert!(h.state().agents().stale);
    h.get_by_label("The solver changed since: Solve to plan again.");
}

#[test]
fn a_plans_faults_name_units_as_the_list_numbers_them() {
    let mut h = editor(yard());
    // The list's units 1 and 2 walk through each other on row 2.
    load_paths(
        &mut h,
        &[&[(3, 2), (4, 2), (5, 2)], &[(5, 2), (4, 2), (3, 2)]],
    );
    h.get_by_label("• 1");
    h.get_by_label("• 2");
    let notice = h.state().notice().unwrap_or_default().to_owned();
    assert!(notice.contains("units 1 and 2"), "{notice}");
    assert!(!notice.contains("agent"), "{notice}");
    h.get_by_label_contains("breaks the rules: units 1 and 2");
}

#[test]
fn the_exported_plan_has_the_command_lines_header() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut h = two_units_planned_without_improving();
    let txt = dir.path().join("plan.txt");
    assert!(h.state_mut().export_plan_to(&txt));
    let (_, header) = gridpath::mapf::parse_plan(&std::fs::read_to_string(&txt).expect("read"))
        .expect("a plan file");
    let keys: Vec<&str> = header.iter().map(|(k, _)| k.as_str()).collect();
    // The keys `gridpath mapf solve` writes, in its order.
    assert_eq!(
        keys,
        [
            "agents",
            "map_file",
            "solver",
            "solved",
            "soc",
            "soc_lb",
            "makespan",
            "comp_time",
            "proof",
            "stopped",
            "seed",
            "starts",
            "goals"
        ]
    );
    let value = |key: &str| {
        header
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    assert_eq!(value("map_file"), "meadow");
    assert_eq!(value("solver"), "lacam");
    assert_eq!(value("proof"), "feasible");
    assert_eq!(value("starts"), "(2,16),(30,16),");
}

/// The meadow with two units swapping ends of row 16, planned by LaCAM alone (not improved).
fn two_units_planned_without_improving() -> Harness<'static, EditorApp> {
    let mut h = editor(meadow());
    h.state_mut().agents_mut().improve = false;
    let grid = h.state().map().grid.clone();
    for (s, g) in [((2, 16), (30, 16)), ((30, 16), (2, 16))] {
        h.state_mut()
            .agents_mut()
            .add(&grid, Cell::new(s.0, s.1), Cell::new(g.0, g.1))
            .expect("a unit");
    }
    assert!(h.state_mut().wait_for_agents(Duration::from_secs(60)));
    h.run();
    h
}
