//! The team of units in the editor: adding, planning and playing back, plan files and
//! scenarios, and the path export's encodings.

use super::*;

/// Drags from the centre of one cell to another's (a click when they are the same).
fn drag_cells(h: &mut Harness<'_, EditorApp>, from: (u32, u32), to: (u32, u32), steps: usize) {
    let (a, b) = (at(h, from.0, from.1), at(h, to.0, to.1));
    drag(h, a, b, steps);
}

/// Waits for the team's background solve and lets a frame show it.
fn agents_settled(h: &mut Harness<'_, EditorApp>) {
    assert!(
        h.state_mut().wait_for_agents(Duration::from_secs(60)),
        "the team's solve answers"
    );
    h.run();
}

/// The team of the editor as an instance on its map, and its plan checked by the independent
/// validator.
fn checked_team_plan(h: &Harness<'_, EditorApp>) -> gridpath::mapf::PlanSummary {
    use gridpath::mapf::{Instance, validate};
    let app = h.state();
    let agents = app.agents();
    let solved = agents.solved.as_ref().expect("a plan");
    let instance = Instance::new(app.map().grid.clone(), agents.team.clone(), agents.moves)
        .expect("the team fits the map");
    validate(&instance, solved.plan().expect("a plan")).expect("the plan keeps every rule")
}

#[test]
fn the_agents_tool_adds_units_that_are_planned_together_and_played_back() {
    let mut h = editor(meadow());
    // The first plans alone: improving them runs to the time limit on a map this open.
    h.state_mut().agents_mut().improve = false;
    press(&mut h, Modifiers::NONE, Key::A);
    assert_eq!(h.state().tool(), Tool::Agents);
    // Two units swap ends along row 16, a third crosses them.
    let pairs = [
        ((2, 16), (30, 16)),
        ((30, 16), (2, 16)),
        ((15, 12), (15, 20)),
    ];
    for ((sx, sy), (gx, gy)) in pairs {
        drag_cells(&mut h, (sx, sy), (gx, gy), 6);
        agents_settled(&mut h);
    }
    assert_eq!(h.state().agents().team.len(), 3);
    let summary = checked_team_plan(&h);
    let solved = h.state().agents().solved.as_ref().expect("a plan");
    assert!(summary.sum_of_costs >= solved.outcome.lower_bound);
    assert!(
        summary.makespan >= 28,
        "the swap takes at least the corridor's length"
    );
    // The panel shows the plan's statistics and a timeline.
    h.get_by_label("Sum of costs");
    h.get_by_label("Play plan").click();
    h.step();
    assert!(h.state().agents().playback.playing);
    for _ in 0..5 {
        h.step();
    }
    assert!(
        h.state().agents().playback.tick > 0.0,
        "time runs while playing"
    );
    h.get_by_label("Pause plan").click();
    h.run();
    assert!(!h.state().agents().playback.playing);
    // A click on a unit picks it; a click on an empty cell picks nothing.
    h.state_mut().agents_mut().playback.tick = 0.0;
    drag_cells(&mut h, (15, 12), (15, 12), 1);
    assert_eq!(h.state().agents().selected, Some(2));
    drag_cells(&mut h, (10, 2), (10, 2), 1);
    assert_eq!(h.state().agents().selected, None);
    // A wall across row 16 makes the team plan again, around it, still valid.
    press(&mut h, Modifiers::NONE, Key::L);
    select_terrain(&mut h, "Wall");
    drag_cells(&mut h, (10, 13), (10, 19), 6);
    agents_settled(&mut h);
    let after = checked_team_plan(&h);
    assert!(
        after.sum_of_costs > summary.sum_of_costs,
        "the wall costs a detour"
    );
    assert!(!h.state().agents().stale);
}

#[test]
fn units_on_walls_or_taken_cells_are_refused_and_a_corridor_swap_is_proven_impossible() {
    let map = Map::new(
        "corridor",
        Grid::from_ascii(&["#######", "#.....#", "#######"]).expect("a valid corridor"),
    );
    let mut h = editor(map);
    press(&mut h, Modifiers::NONE, Key::A);
    drag_cells(&mut h, (0, 1), (3, 1), 4);
    assert!(
        h.state().agents().team.is_empty(),
        "a start on a wall is refused"
    );
    assert!(h.state().notice().is_some_and(|n| n.contains("impassable")));
    drag_cells(&mut h, (1, 1), (5, 1), 4);
    agents_settled(&mut h);
    drag_cells(&mut h, (1, 1), (4, 1), 4);
    assert_eq!(h.state().agents().team.len(), 1, "a taken start is refused");
    drag_cells(&mut h, (5, 1), (1, 1), 4);
    agents_settled(&mut h);
    let agents = h.state().agents();
    assert_eq!(agents.team.len(), 2);
    let solved = agents.solved.as_ref();
    assert!(
        solved.is_none_or(|s| s.instance.agents().len() == 1),
        "no plan for the swap"
    );
    let message = agents.message.as_deref().unwrap_or_default();
    assert!(message.contains("no solution"), "{message}");
}

#[test]
fn a_plan_file_with_collisions_is_loaded_checked_and_marked() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut h = editor(meadow());
    // Two units walk through each other on row 2.
    let plan = gridpath::mapf::Plan {
        paths: vec![
            (3..=8).map(|x| Cell::new(x, 2)).collect(),
            (3..=8).rev().map(|x| Cell::new(x, 2)).collect(),
        ],
    };
    let file = dir.path().join("through.txt");
    std::fs::write(&file, gridpath::mapf::write_plan(&plan, &[])).expect("written");
    assert!(h.state_mut().load_plan_from(&file));
    h.run();
    let agents = h.state().agents();
    assert_eq!(agents.team.len(), 2);
    let solved = agents.solved.as_ref().expect("the plan is shown");
    assert!(solved.fault.is_some(), "the validator rejects it");
    assert!(!solved.conflicts.is_empty(), "its collisions are listed");
    h.get_by_label("Collisions");
    // A plan that does not fit the map is refused, and the plan shown stays.
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "solution=\n0:(900,900),\n").expect("written");
    assert!(!h.state_mut().load_plan_from(&bad));
    assert!(h.state().has_dialog());
    assert_eq!(h.state().agents().team.len(), 2);
}

#[test]
fn a_scenario_loads_and_the_plan_exports_with_its_world_frame() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut map = meadow();
    map.metadata =
        Some(gridpath::grid::GeoReference::new(0.5, [-2.0, 1.0, 0.0]).expect("a world frame"));
    let mut h = editor(map);
    let mut scen = String::from("version 1\n");
    for (i, (s, g)) in [((1, 1), (38, 22)), ((38, 22), (1, 1)), ((1, 22), (38, 1))]
        .into_iter()
        .enumerate()
    {
        scen.push_str(&format!(
            "{i}\tmeadow.map\t40\t24\t{}\t{}\t{}\t{}\t0\n",
            s.0, s.1, g.0, g.1
        ));
    }
    let file = dir.path().join("meadow.scen");
    std::fs::write(&file, scen).expect("written");
    h.state_mut().agents_mut().load_count = 2;
    h.state_mut().agents_mut().improve = false;
    assert!(h.state_mut().load_scenario_from(&file));
    agents_settled(&mut h);
    assert_eq!(h.state().agents().team.len(), 2, "the first two lines");
    let summary = checked_team_plan(&h);
    let json = dir.path().join("plan.json");
    assert!(h.state_mut().export_plan_to(&json));
    let text = std::fs::read_to_string(&json).expect("the export");
    let value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(value["format"], "gridpath-mapf-plan");
    assert_eq!(value["agents"].as_array().map(Vec::len), Some(2));
    let soc = value["sum_of_costs"].as_f64().expect("a sum of costs");
    assert!((soc - summary.sum_of_costs).abs() < 1e-9);
    // The first unit's first world point is its start's centre, (1.5, 1.5) in cells.
    let first = &value["world"]["agents"][0][0];
    assert_eq!(first[0].as_f64(), Some(-2.0 + 1.5 * 0.5));
    assert_eq!(first[1].as_f64(), Some(1.0 + (24.0 - 1.5) * 0.5));
    // The LaCAM text export reads back as the same plan.
    let txt = dir.path().join("plan.txt");
    assert!(h.state_mut().export_plan_to(&txt));
    let (plan, header) = gridpath::mapf::parse_plan(&std::fs::read_to_string(&txt).expect("read"))
        .expect("a plan file");
    let shown = h
        .state()
        .agents()
        .solved
        .as_ref()
        .and_then(|s| s.plan().cloned());
    assert_eq!(Some(plan.normalised()), shown.map(|p| p.normalised()));
    assert!(header.iter().any(|(k, _)| k == "soc"));
    // A scenario of another map's size is refused with its line.
    let other = dir.path().join("other.scen");
    std::fs::write(&other, "version 1\n0\tx.map\t10\t10\t1\t1\t2\t2\t0\n").expect("written");
    assert!(!h.state_mut().load_scenario_from(&other));
    assert_eq!(h.state().agents().team.len(), 2, "the team stays");
}

#[test]
fn the_first_plan_shows_at_once_and_is_then_improved_to_a_proof() {
    // Two units swap ends of a corridor with a siding: LaCAM's first plan, then LaCAM*'s
    // proof of the least sum of loss.
    let map = Map::new(
        "siding",
        Grid::from_ascii(&[".....", "#.###"]).expect("a valid map"),
    );
    let mut h = editor(map);
    press(&mut h, Modifiers::NONE, Key::A);
    drag_cells(&mut h, (0, 0), (4, 0), 4);
    agents_settled(&mut h);
    drag_cells(&mut h, (4, 0), (0, 0), 4);
    agents_settled(&mut h);
    let agents = h.state().agents();
    assert!(!agents.improving);
    let solved = agents.solved.as_ref().expect("a plan");
    assert_eq!(solved.outcome.proof, gridpath::mapf::Proof::OptimalLoss);
    checked_team_plan(&h);
}

#[test]
fn the_path_export_is_encoded_as_its_extension_says_and_an_unknown_one_is_refused() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut h = editor(meadow());
    let export = h.state().path_export().expect("a path to export");
    let samples = export
        .smoothed
        .as_ref()
        .expect("the meadow's path is smoothed")
        .samples
        .clone();
    // .csv writes the curve's samples, one a row, as the command line does.
    let csv = dir.path().join("route.CSV");
    assert!(h.state_mut().export_path_to(&csv));
    h.run();
    let text = std::fs::read_to_string(&csv).expect("the CSV was written");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("x,y,heading,s"));
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|v| v.parse().expect("a number")).collect())
        .collect();
    assert_eq!(rows.len(), samples.len());
    assert_eq!(rows[0], samples[0].to_vec());
    assert_eq!(text, export.to_csv());
    assert!(h.state().notice().is_some_and(|n| n.contains("CSV")));
    // .json writes the whole document.
    let json = dir.path().join("route.json");
    assert!(h.state_mut().export_path_to(&json));
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("written")).expect("JSON");
    assert_eq!(value["format"], "gridpath-path");
    // Any other extension writes nothing and says which ones there are.
    let text_file = dir.path().join("route.txt");
    assert!(!h.state_mut().export_path_to(&text_file));
    h.run();
    assert!(!text_file.exists());
    assert!(h.state().has_dialog());
    h.get_by_label_contains(".json or .csv");
}
