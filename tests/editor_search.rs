#![cfg(feature = "editor")]
//! The editor's background search, driven through its widgets in a headless `egui_kittest`
//! harness: the statistics panel, cancelling, "compare all", the replay, the inspector, and
//! frames that keep coming while a search runs.

use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use gridpath::app::EditorApp;
use gridpath::app::search::panel::algorithm_name;
use gridpath::app::search::planner::Solver;
use gridpath::grid::{Cell, Grid, Map, Terrain};
use gridpath::search::{self, Algorithm, SearchControl, SearchError, SearchRequest, SearchResult};
use gridpath::smooth::Segment;

/// A 40 × 24 meadow with a wall across the middle, open at the bottom.
fn meadow() -> Map {
    let mut rows = vec![".".repeat(40); 24];
    for row in rows.iter_mut().take(20) {
        row.replace_range(20..21, "#");
    }
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut map = Map::new("meadow", Grid::from_ascii(&rows).expect("a valid meadow"));
    map.start = Some(Cell::new(3, 5));
    map.goal = Some(Cell::new(36, 5));
    map
}

fn editor(map: Map) -> Harness<'static, EditorApp> {
    let mut harness = Harness::builder()
        .with_size([1300.0, 1000.0])
        .with_max_steps(16)
        .build_eframe(move |_cc| EditorApp::with_map(map));
    harness.run();
    harness
}

/// Types a value into the number field of the Path panel labelled `label`, as a user does.
fn set_number(h: &mut Harness<'_, EditorApp>, label: &str, value: &str) {
    h.get_by_role_and_label(Role::SpinButton, label).click();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by_role_and_label(Role::SpinButton, label)
        .type_text(value);
    h.key_press(egui::Key::Enter);
    h.run();
}

/// The editor on the built-in level (48 × 32 cells of weighted terrain).
fn editor_on_the_built_in_map() -> Harness<'static, EditorApp> {
    let mut harness = Harness::builder()
        .with_size([1300.0, 1000.0])
        .with_max_steps(16)
        .build_eframe(|_cc| EditorApp::new(None).expect("the built-in map"));
    harness.run();
    harness
}

/// Waits for the worker, then lets a frame show its answer.
fn settle(h: &mut Harness<'_, EditorApp>) {
    assert!(
        h.state_mut().wait_for_search(Duration::from_secs(60)),
        "the search answers"
    );
    h.run();
}

/// A solver that holds every search until the test opens the gate, or the search is cancelled.
fn gated() -> (Solver, Arc<Mutex<bool>>) {
    let open = Arc::new(Mutex::new(false));
    let gate = Arc::clone(&open);
    let solver: Solver = Arc::new(move |replanner, request, control| {
        loop {
            if control.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            if *gate.lock().expect("the gate") {
                return replanner.plan(request, control);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    });
    (solver, open)
}

fn expected(map: &Map, algorithm: Algorithm) -> SearchResult {
    let request = SearchRequest::new(map.start.expect("a start"), map.goal.expect("a goal"))
        .with_algorithm(algorithm);
    search::solve(&map.grid, &request).expect("a valid request")
}

#[test]
fn choosing_an_algorithm_shows_its_statistics() {
    let map = meadow();
    let mut h = editor(map.clone());
    settle(&mut h);
    h.get_by_role_and_label(Role::ComboBox, "Algorithm").click();
    h.run();
    h.get_by_label("Dijkstra").click();
    h.run();
    settle(&mut h);

    let dijkstra = expected(&map, Algorithm::Dijkstra);
    let shown = h.state().search_result().expect("a result").clone();
    assert_eq!(shown.stats.expanded, dijkstra.stats.expanded);
    assert!((shown.cost - dijkstra.cost).abs() < 1e-9);
    // The statistics panel says so in so many words.
    h.get_by_label(&format!(
        "{} ({} pushed)",
        dijkstra.stats.expanded, dijkstra.stats.pushed
    ));
    assert!(
        h.query_all_by_label(&format!("{:.3}", dijkstra.cost))
            .next()
            .is_some()
    );
    h.get_by_label("exact (optimal)");

    let astar = expected(&map, Algorithm::AStar);
    assert!(
        astar.stats.expanded < dijkstra.stats.expanded,
        "the heuristic saves work: {} < {}",
        astar.stats.expanded,
        dijkstra.stats.expanded
    );
}

#[test]
fn a_long_search_shows_progress_and_can_be_cancelled_leaving_the_old_path_stale() {
    let mut h = editor(meadow());
    settle(&mut h);
    let before = h.state().search_result().expect("a first path").clone();
    let (solver, _gate) = gated();
    h.state_mut().set_solver(solver);
    h.run();
    assert!(h.state().is_searching());
    h.get_by_label("Searching…");
    h.get_by_label("Stop").click();
    h.run();
    assert!(!h.state().is_searching());
    assert!(h.state().search_is_stale());
    assert_eq!(h.state().search_result(), Some(&before));
    h.get_by_label("Stale: this result is from before the latest change.");
}

#[test]
fn frames_keep_coming_while_the_worker_is_busy() {
    let mut h = editor(meadow());
    settle(&mut h);
    let (solver, gate) = gated();
    h.state_mut().set_solver(solver);
    // The search cannot finish until the gate opens: every frame below is produced while the
    // worker is busy, so none of them waited for it.
    for _ in 0..30 {
        h.step();
        assert!(h.state().is_searching());
    }
    h.get_by_label("Searching…");
    *gate.lock().expect("the gate") = true;
    settle(&mut h);
    assert!(!h.state().is_searching());
    assert!(!h.state().search_is_stale());
}

/// What the worker's search did once the user had cancelled it.
struct Stopped {
    algorithm: Algorithm,
    outcome: Result<SearchResult, SearchError>,
    /// Cells expanded when the search returned.
    expanded: u64,
    /// From the moment the worker saw the cancellation to the search's return.
    after_cancel: Duration,
}

#[test]
fn a_real_search_over_millions_of_cells_is_cancelled_promptly() {
    let grid = Grid::new(2500, 2500, Terrain::default_catalog(), 0).expect("a big meadow");
    let mut map = Map::new("big", grid);
    map.start = Some(Cell::new(0, 0));
    map.goal = Some(Cell::new(2499, 2499));
    let mut h = editor(map);
    // Dijkstra's search and HPA*'s build are held until the user has cancelled them, then
    // run for real with the cancelled control on the worker's thread, which reports how far
    // each got: the Cancel button cannot race a search that has already finished, however
    // loaded the machine, and the bound is in work done after the cancel, not in seconds.
    let (started, starts) = mpsc::channel::<Algorithm>();
    let (stopped, stops) = mpsc::channel::<Stopped>();
    let (started, stopped) = (Mutex::new(started), Mutex::new(stopped));
    let solver: Solver = Arc::new(move |replanner, request, control| {
        let held = matches!(request.algorithm, Algorithm::Dijkstra | Algorithm::Hpa);
        if !held {
            return replanner.plan(request, control);
        }
        let _ = started
            .lock()
            .expect("the start channel")
            .send(request.algorithm);
        while !control.is_cancelled() {
            std::thread::sleep(Duration::from_millis(1));
        }
        let seen = Instant::now();
        let outcome = replanner.plan(request, control);
        let report = Stopped {
            algorithm: request.algorithm,
            outcome: outcome.clone(),
            expanded: control.expanded(),
            after_cancel: seen.elapsed(),
        };
        let _ = stopped.lock().expect("the report channel").send(report);
        outcome
    });
    h.state_mut().set_solver(solver);
    for (algorithm, label) in [(Algorithm::Dijkstra, "Dijkstra"), (Algorithm::Hpa, "HPA*")] {
        h.get_by_role_and_label(Role::ComboBox, "Algorithm").click();
        h.run();
        h.get_by_label(label).click();
        h.run();
        // The worker has taken the job (a job cancelled while it waits never runs).
        let running = starts
            .recv_timeout(Duration::from_secs(120))
            .expect("the worker starts the search");
        assert_eq!(running, algorithm);
        h.get_by_label("Stop").click();
        h.run();
        assert!(!h.state().is_searching());
        // Waits for the worker's own report: the event, not a clock, ends the wait (the
        // limit only keeps a broken worker from hanging the test run).
        let report = stops
            .recv_timeout(Duration::from_secs(120))
            .expect("the worker's search returns after the cancel");
        assert_eq!(report.algorithm, algorithm);
        assert_eq!(report.outcome, Err(SearchError::Cancelled), "{label}");
        assert!(
            report.expanded <= SearchControl::CHECK_EVERY,
            "{label} expanded {} cells after the cancel",
            report.expanded
        );
        println!(
            "{label} on 2500 × 2500 stopped {:?} after the worker saw the cancel, {} cells in",
            report.after_cancel, report.expanded
        );
    }
    // The map is larger than the harness's largest texture (2048 a side): the map and the
    // explored cells are drawn in tiles. A* crosses the open map along the diagonal.
    h.get_by_role_and_label(Role::ComboBox, "Algorithm").click();
    h.run();
    h.get_by_label("A*").click();
    h.run();
    settle(&mut h);
    let result = h.state().search_result().expect("a path");
    assert!(result.found);
    assert_eq!(result.path.len(), 2500);
}

#[test]
fn compare_all_shows_one_row_per_algorithm() {
    let map = meadow();
    let mut h = editor(map.clone());
    settle(&mut h);
    h.state_mut().set_compare_lanes(2);
    h.get_by_label("Compare all").click();
    h.run();
    settle(&mut h);
    let rows = h.state().comparison().expect("a comparison").to_vec();
    assert_eq!(rows.len(), Algorithm::ALL.len());
    let dijkstra = expected(&map, Algorithm::Dijkstra);
    for row in &rows {
        let result = row
            .outcome
            .as_ref()
            .expect("every algorithm runs on the meadow");
        assert!(
            result.found,
            "{:?} finds the way round the wall: {:?}",
            row.algorithm, result.stats
        );
        if result.found && result.optimality == search::Optimality::Exact {
            assert!(
                (result.cost - dijkstra.cost).abs() < 1e-9,
                "{:?}",
                row.algorithm
            );
        }
    }
    h.get_by_label("Compare algorithms");
    h.get_by_label("Jump point search");
    h.get_by_label("Query time (ms)");
}

#[test]
fn the_replay_steps_through_the_expansions_and_the_inspector_reads_them() {
    let mut h = editor(meadow());
    settle(&mut h);
    let result = h.state().search_result().expect("a path").clone();
    h.get_by_label("Replay").click();
    h.run();
    h.get_by_label("Play").click();
    for _ in 0..5 {
        h.step();
    }
    h.get_by_label("Pause").click();
    h.run();
    h.get_by_label("End").click();
    h.run();
    assert!(result.found);
    // The start was the first cell expanded: g = 0, and h is the octile distance to the goal,
    // 33 columns away on the same row.
    let start = h.state().screen_from_cell(Cell::new(3, 5));
    h.hover_at(start);
    h.run();
    let text = "expanded #1 · g 0.00 · h 33.00 · f 33.00 · parent (3, 5)";
    assert!(
        h.query_by_label(text).is_some(),
        "the status bar shows {text:?}"
    );
}

#[test]
fn with_live_planning_off_a_marker_move_leaves_the_path_stale_until_asked() {
    let mut h = editor(meadow());
    settle(&mut h);
    h.get_by_label("Live").click();
    h.run();
    assert!(!h.state().is_live());
    let from = h.state().screen_from_cell(Cell::new(3, 5));
    let to = h.state().screen_from_cell(Cell::new(3, 22));
    h.hover_at(from);
    h.drag_at(from);
    h.hover_at(to);
    h.drop_at(to);
    h.run();
    assert_eq!(h.state().map().start, Some(Cell::new(3, 22)));
    assert!(h.state().search_is_stale());
    h.get_by_label("Find path").click();
    h.run();
    settle(&mut h);
    assert!(!h.state().search_is_stale());
    let result = h.state().search_result().expect("a path");
    assert_eq!(result.path.first(), Some(&Cell::new(3, 22)));
}

#[test]
fn the_flow_field_layer_gives_every_cell_its_cost_to_the_goal() {
    let map = meadow();
    let mut h = editor(map.clone());
    settle(&mut h);
    assert!(h.state().flow_field().is_none(), "off until asked for");
    h.get_by_label("Flow field").click();
    h.run();
    settle(&mut h);
    let result = h.state().search_result().expect("a path").clone();
    let field = h.state().flow_field().expect("the field was computed");
    assert_eq!(field.goal(), map.goal.expect("a goal"));
    let from_start = field.cost(map.start.expect("a start")).expect("reachable");
    assert!((from_start - result.cost).abs() < 1e-9);
    // Following the arrows from the start walks an optimal path.
    let walked = field
        .path_from(map.start.expect("a start"))
        .expect("a path");
    let request = SearchRequest::new(map.start.expect("a start"), map.goal.expect("a goal"));
    let graph = search::SearchGraph::new(&map.grid, request.diagonal);
    let (cost, _) = graph.path_cost(&walked).expect("legal steps");
    assert!((cost - result.cost).abs() < 1e-9);
}

/// The map canvas's width on screen.
fn canvas_width(h: &Harness<'_, EditorApp>) -> f32 {
    h.get_by_label("Map canvas").rect().width()
}

#[test]
fn the_panels_keep_their_width_whatever_they_show() {
    let mut h = editor(meadow());
    settle(&mut h);
    let width = canvas_width(&h);
    for label in [
        "Breadth-first",
        "HPA*",
        "IDA* (small maps)",
        "D* Lite",
        "A*",
    ] {
        h.get_by_role_and_label(Role::ComboBox, "Algorithm").click();
        h.run();
        h.get_by_label(label).click();
        h.run();
        settle(&mut h);
        assert_eq!(canvas_width(&h), width, "with {label} chosen");
    }
    h.get_by_label_contains("History (").click();
    h.run();
    assert_eq!(canvas_width(&h), width, "with History open");
}

#[test]
fn idastar_lives_up_to_its_label_on_the_built_in_level() {
    let mut h = editor_on_the_built_in_map();
    settle(&mut h);
    let astar = h.state().search_result().expect("A* ran").clone();
    h.get_by_role_and_label(Role::ComboBox, "Algorithm").click();
    h.run();
    h.get_by_label("IDA* (small maps)").click();
    h.run();
    settle(&mut h);
    let result = h.state().search_result().expect("IDA* ran");
    assert!(result.found && !result.stats.budget_exhausted);
    assert_eq!(result.cost.to_bits(), astar.cost.to_bits());
    assert!(h.query_by_label("exact (optimal)").is_some());
    // Its tooltip says for which maps it is meant, and no longer that this one is beyond it.
    let about = gridpath::app::search::panel::algorithm_about(Algorithm::IdaStar);
    assert!(about.contains("small maps"), "{about}");
    assert!(!about.contains("built-in one it re-expands"), "{about}");
}

#[test]
fn a_search_that_fails_says_why_and_keeps_the_last_path_faded() {
    let mut h = editor_on_the_built_in_map();
    settle(&mut h);
    let good: Vec<Cell> = h.state().search_result().expect("A* ran").path.clone();
    assert!(!good.is_empty());
    // A search that gives up on its node budget, as IDA* does on a map of millions of cells:
    // here IDA*'s answer, made to stop at the budget.
    let solver: Solver = Arc::new(|replanner, request, control| {
        let mut result = replanner.plan(request, control)?;
        if request.algorithm == Algorithm::IdaStar {
            result.found = false;
            result.path.clear();
            result.cost = 0.0;
            result.length = 0.0;
            result.stats.budget_exhausted = true;
            result.stats.expanded = search::IDASTAR_NODE_BUDGET;
        }
        Ok(result)
    });
    h.state_mut().set_solver(solver);
    h.get_by_role_and_label(Role::ComboBox, "Algorithm").click();
    h.run();
    h.get_by_label("IDA* (small maps)").click();
    h.run();
    settle(&mut h);
    let result = h.state().search_result().expect("IDA* ran");
    assert!(!result.found && result.stats.budget_exhausted);
    assert!(
        h.query_all_by_label_contains("Search stopped: node budget exhausted")
            .next()
            .is_some()
    );
    // The statistics say why it stopped, never "exact".
    let claim = format!(
        "– (stopped: node budget exhausted after {} expansions)",
        search::IDASTAR_NODE_BUDGET
    );
    assert!(h.query_by_label(&claim).is_some(), "{claim}");
    assert!(h.query_by_label("– (no path)").is_none());
    assert!(
        h.query_by_label("exact (optimal)").is_none(),
        "no claim of optimality"
    );
    let (drawn, older) = h.state().drawn_path().expect("a path on the map");
    assert!(older, "the last good path, faded");
    assert_eq!(drawn, good.as_slice());
}

#[test]
fn algorithms_without_a_heuristic_or_a_trace_say_so() {
    let mut h = editor(meadow());
    settle(&mut h);
    h.get_by_role_and_label(Role::ComboBox, "Algorithm").click();
    h.run();
    h.get_by_label("Dijkstra").click();
    h.run();
    settle(&mut h);
    let heuristic = h.get_by_role_and_label(Role::ComboBox, "Heuristic");
    assert!(
        heuristic.accesskit_node().is_disabled(),
        "Dijkstra reads no heuristic"
    );
    assert!(h.query_by_label_contains("no heuristic").is_some());
    h.get_by_role_and_label(Role::ComboBox, "Algorithm").click();
    h.run();
    h.get_by_label("D* Lite").click();
    h.run();
    settle(&mut h);
    h.get_by_label("Replay (nothing recorded)").click();
    h.run();
    assert!(
        h.query_by_label_contains("records no expansion order")
            .is_some()
    );
}

#[test]
fn compare_all_charts_leave_failed_runs_out_and_draw_every_other_bar() {
    let mut h = editor_on_the_built_in_map();
    settle(&mut h);
    h.get_by_label("Compare all").click();
    h.run();
    settle(&mut h);
    let rows = h.state().comparison().expect("the comparison").to_vec();
    let failed: Vec<Algorithm> = rows
        .iter()
        .filter(|r| !r.outcome.as_ref().is_ok_and(|res| res.found))
        .map(|r| r.algorithm)
        .collect();
    assert!(
        failed.contains(&Algorithm::Jps) && !failed.contains(&Algorithm::IdaStar),
        "jump point search refuses weighted terrain; IDA* solves the level: {failed:?}"
    );
    let charts = h.state().comparison_charts().expect("charts");
    for chart in &charts {
        let shown: Vec<Algorithm> = chart.bars.iter().map(|&(a, _)| a).collect();
        assert_eq!(shown.len(), rows.len() - failed.len(), "{}", chart.title);
        assert!(failed.iter().all(|a| !shown.contains(a)), "{}", chart.title);
        let lengths = chart.lengths();
        assert!(
            lengths.iter().all(|&l| l > 0.0),
            "{}: {lengths:?}",
            chart.title
        );
        assert!(
            chart.bars.windows(2).all(|w| w[0].1 <= w[1].1),
            "{} is sorted",
            chart.title
        );
    }
    // The shortest run is drawn at least a tenth as long as the longest on the log scale.
    let time = &charts[0];
    let lengths = time.lengths();
    let longest = lengths.iter().copied().fold(0.0, f64::max);
    assert!(lengths.iter().all(|&l| l >= longest / 10.0), "{lengths:?}");
}

#[test]
fn compare_all_charts_name_every_bar_and_their_log_axes_start_and_step_at_decades() {
    let mut h = editor(meadow());
    settle(&mut h);
    h.get_by_label("Compare all").click();
    h.run();
    settle(&mut h);
    let rows = h.state().comparison().expect("the comparison").to_vec();
    let found = rows
        .iter()
        .filter(|r| r.outcome.as_ref().is_ok_and(|res| res.found))
        .count();
    assert!(
        found >= 10,
        "one cost: nearly every algorithm finds the path"
    );
    for chart in h.state().comparison_charts().expect("charts") {
        // Every bar names its algorithm, and its value with the chart's unit.
        let labels = chart.bar_labels();
        assert_eq!(labels.len(), found, "{}", chart.title);
        for (label, &(algorithm, _)) in labels.iter().zip(&chart.bars) {
            let name = gridpath::app::search::panel::algorithm_name(algorithm);
            assert!(label.starts_with(&format!("{name}: ")), "{label}");
            assert!(label.ends_with(chart.unit), "{label}");
        }
        if !chart.log {
            continue;
        }
        // The value axis starts at a round decade and has a labelled mark at every decade up
        // past the longest bar.
        let ticks = chart.ticks();
        assert!(ticks.len() >= 2, "{}: {ticks:?}", chart.title);
        assert_eq!(ticks[0].at, 0.0);
        for (i, tick) in ticks.iter().enumerate() {
            let shown: f64 = tick.label.parse().expect("a number");
            assert!(shown > 0.0, "{}: {ticks:?}", chart.title);
            assert!((shown - tick.value).abs() <= tick.value * 1e-9, "{tick:?}");
            assert!((tick.value.log10() - tick.value.log10().round()).abs() < 1e-9);
            if i > 0 {
                assert!((tick.value / ticks[i - 1].value - 10.0).abs() < 1e-9);
            }
        }
        let lengths = chart.lengths();
        let last = ticks.last().expect("ticks").at;
        assert!(lengths.iter().all(|&l| l > 0.0 && l <= last), "{lengths:?}");
        // Each bar is as long as its value is far above the axis' start.
        for (&(_, value), &length) in chart.bars.iter().zip(&lengths) {
            let at = ticks[0].value * 10f64.powf(length);
            assert!(
                (at - value.max(1e-3)).abs() <= value.max(1e-3) * 1e-9,
                "{value}"
            );
        }
    }
}

#[test]
fn compare_all_runs_every_algorithm_cold_and_times_build_and_query_apart() {
    let map = meadow();
    let mut h = editor(map.clone());
    settle(&mut h);
    // D* Lite has planned once: its search state for this goal is warm in the worker.
    h.get_by_role_and_label(Role::ComboBox, "Algorithm").click();
    h.run();
    h.get_by_label("D* Lite").click();
    h.run();
    settle(&mut h);
    let warm = h.state().search_result().expect("D* Lite ran").clone();
    h.get_by_label("Compare all").click();
    h.run();
    settle(&mut h);
    let rows = h.state().comparison().expect("the comparison").to_vec();
    for row in &rows {
        let cold = expected(&map, row.algorithm);
        let result = row
            .outcome
            .as_ref()
            .expect("every algorithm runs on the meadow");
        // From scratch, as a search of its own on the map: the same work.
        assert_eq!(
            result.stats.expanded, cold.stats.expanded,
            "{:?}",
            row.algorithm
        );
        assert_eq!(result.found, cold.found, "{:?}", row.algorithm);
    }
    let dstar = rows
        .iter()
        .find(|r| r.algorithm == Algorithm::DStarLite)
        .expect("a D* Lite row");
    let dstar = dstar.outcome.as_ref().expect("D* Lite ran");
    assert!(dstar.stats.expanded > 0, "computed afresh, not reused");
    assert!(warm.stats.expanded > 0);
    // The table shows the build and the query in columns of their own.
    h.get_by_label("Build");
    h.get_by_label("Query");
}

/// A solver that says which algorithm it was asked to run, then holds it until the gate
/// opens or it is cancelled.
fn gated_reporting() -> (Solver, Arc<Mutex<bool>>, mpsc::Receiver<Algorithm>) {
    let (gated, gate) = gated();
    let (tell, told) = mpsc::channel();
    let tell = Mutex::new(tell);
    let solver: Solver = Arc::new(move |replanner, request, control| {
        let _ = tell.lock().expect("the channel").send(request.algorithm);
        gated(replanner, request, control)
    });
    (solver, gate, told)
}

#[test]
fn compare_all_runs_on_every_lane_says_what_runs_and_remains_and_skips_one() {
    let mut h = editor(meadow());
    settle(&mut h);
    let (solver, gate, told) = gated_reporting();
    h.state_mut().set_solver(solver);
    // Two lanes, whatever this machine's cores: two algorithms run at once.
    h.state_mut().set_compare_lanes(2);
    *gate.lock().expect("the gate") = true;
    settle(&mut h);
    *gate.lock().expect("the gate") = false;
    while told.try_recv().is_ok() {}
    h.get_by_label("Compare all").click();
    h.step();
    let total = Algorithm::ALL.len();
    let mut started: Vec<Algorithm> = (0..2)
        .map(|_| {
            told.recv_timeout(Duration::from_secs(60))
                .expect("both lanes start")
        })
        .collect();
    started.sort_by_key(|a| Algorithm::ALL.iter().position(|b| b == a));
    assert_eq!(started, Algorithm::ALL[..2]);
    h.step();
    let name = |i: usize| algorithm_name(Algorithm::ALL[i]);
    h.get_by_label(&format!(
        "Comparing: {}, {} (0 of {total} done, {} to start)",
        name(0),
        name(1),
        total - 2
    ));
    // Skipping the first: its lane goes on with the third while the second still runs.
    h.get_by_label(&format!("Skip {}", name(0))).click();
    h.step();
    let third = told
        .recv_timeout(Duration::from_secs(60))
        .expect("the next algorithm");
    assert_eq!(third, Algorithm::ALL[2]);
    h.step();
    h.get_by_label(&format!(
        "Comparing: {}, {} (1 of {total} done, {} to start)",
        name(1),
        name(2),
        total - 3
    ));
    assert!(h.query_by_label(&format!("Skip {}", name(0))).is_none());
    *gate.lock().expect("the gate") = true;
    settle(&mut h);
    let rows = h.state().comparison().expect("the comparison").to_vec();
    assert_eq!(rows.len(), total);
    assert_eq!(
        rows.iter().map(|r| r.algorithm).collect::<Vec<_>>(),
        Algorithm::ALL,
        "rows in the registry's order, whatever lane ran them"
    );
    assert!(rows[0].skipped(), "A* was skipped");
    assert!(rows[1..].iter().all(|r| !r.skipped()));
    assert!(rows[1].outcome.as_ref().is_ok_and(|r| r.found));
    h.get_by_label("skipped");
}

#[test]
fn a_preprocessing_algorithm_says_it_is_building_and_shows_its_build_time_apart() {
    let mut h = editor(meadow());
    settle(&mut h);
    let (solver, gate, told) = gated_reporting();
    h.state_mut().set_solver(solver);
    *gate.lock().expect("the gate") = true;
    settle(&mut h);
    *gate.lock().expect("the gate") = false;
    while told.try_recv().is_ok() {}
    h.get_by_role_and_label(Role::ComboBox, "Algorithm").click();
    h.run();
    h.get_by_label("Contraction hierarchy").click();
    h.step();
    let asked = told
        .recv_timeout(Duration::from_secs(60))
        .expect("the search starts");
    assert_eq!(asked, Algorithm::ContractionHierarchy);
    h.step();
    // Held before its first expansion: it is building, and says so with its own time.
    h.get_by_label("Building for Contraction hierarchy…");
    assert!(h.query_by_label("Searching…").is_none());
    h.get_by_label_contains("building · ");
    *gate.lock().expect("the gate") = true;
    settle(&mut h);
    assert!(h.state().search_result().is_some_and(|r| r.found));
    // The statistics keep the build and the query apart, and say what the hierarchy holds.
    h.get_by_label("Query time");
    h.get_by_label("Build time");
    h.get_by_label("Memory");
    h.get_by_label_contains(" MB kept");
}

#[test]
fn a_build_shows_how_far_it_has_got_and_the_time_left() {
    let mut h = editor(meadow());
    settle(&mut h);
    let (gated, gate) = gated();
    let (tell, told) = mpsc::channel();
    let tell = Mutex::new(tell);
    // A build that has got 40% of the way, then waits for the gate.
    let solver: Solver = Arc::new(move |replanner, request, control| {
        if request.algorithm == Algorithm::ContractionHierarchy {
            control.report_build(0.4);
            let _ = tell.lock().expect("the channel").send(());
        }
        gated(replanner, request, control)
    });
    h.state_mut().set_solver(solver);
    *gate.lock().expect("the gate") = true;
    settle(&mut h);
    *gate.lock().expect("the gate") = false;
    h.get_by_role_and_label(Role::ComboBox, "Algorithm").click();
    h.run();
    h.get_by_label("Contraction hierarchy").click();
    h.step();
    told.recv_timeout(Duration::from_secs(60))
        .expect("the build reports");
    h.step();
    h.get_by_label("Building for Contraction hierarchy… 40%");
    h.get_by_label_contains("building · 40% · ");
    h.get_by_label_contains(" left");
    *gate.lock().expect("the gate") = true;
    settle(&mut h);
    assert!(h.state().search_result().is_some_and(|r| r.found));
}

#[test]
fn choosing_the_hierarchy_on_a_large_map_says_up_front_that_its_build_is_long() {
    let side = 800;
    let grid = Grid::new(side, side, Terrain::default_catalog(), 0).expect("a valid map");
    let mut map = Map::new("plain", grid);
    map.start = Some(Cell::new(1, 1));
    map.goal = Some(Cell::new(2, 1));
    let mut h = editor(map);
    settle(&mut h);
    assert!(
        h.query_by_label_contains("Building the hierarchy")
            .is_none()
    );
    h.get_by_role_and_label(Role::ComboBox, "Algorithm").click();
    h.run();
    h.get_by_label("Contraction hierarchy").click();
    h.step();
    let estimate = search::ContractionHierarchy::build_estimate((side * side) as usize);
    // Long enough to be told (2 s or more), short enough to be told in seconds.
    assert!(
        (2.0..90.0).contains(&estimate.as_secs_f64()),
        "{estimate:?}"
    );
    h.get_by_label_contains(&format!(
        "Building the hierarchy for this map takes roughly {:.0} s",
        estimate.as_secs_f64()
    ));
}

#[test]
fn a_unit_too_wide_for_every_way_is_told_why_there_is_no_path() {
    // A wall across the map with a gap two cells wide at the bottom.
    let mut rows = vec![".".repeat(30); 12];
    for row in rows.iter_mut().take(10) {
        row.replace_range(15..16, "#");
    }
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut map = Map::new("gap", Grid::from_ascii(&rows).expect("a valid map"));
    map.start = Some(Cell::new(2, 2));
    map.goal = Some(Cell::new(25, 2));
    let mut h = editor(map);
    settle(&mut h);
    assert!(h.state().search_result().is_some_and(|r| r.found));
    set_number(&mut h, "Unit size", "3");
    settle(&mut h);
    assert!(!h.state().search_result().expect("a result").found);
    h.get_by_label_contains("no way is wide enough for a unit of 3 × 3 cells");
    // Two cells wide gets through: no such reason.
    set_number(&mut h, "Unit size", "2");
    settle(&mut h);
    assert!(h.state().search_result().expect("a result").found);
    assert!(h.query_by_label_contains("no way is wide enough").is_none());
    // The curve is smoothed for one cell: the statistics say why there is none for the unit.
    h.get_by_label("one-cell units only: a larger unit keeps its grid path");
}

#[test]
fn a_unit_that_does_not_fit_at_its_start_is_told_so() {
    // The built-in level's start (6, 17) has room for a unit of 4 × 4 cells, not 5 × 5.
    let mut h = editor_on_the_built_in_map();
    settle(&mut h);
    set_number(&mut h, "Unit size", "5");
    settle(&mut h);
    let failure = h
        .state()
        .search_failure()
        .expect("no search for it")
        .to_string();
    assert_eq!(
        failure,
        "a unit of 5 × 5 cells does not fit at the start (6, 17): the cell is passable, but \
         its footprint, placed by its top-left cell, meets a wall or the map's edge; the \
         largest unit that fits there is 4 × 4"
    );
    assert!(
        h.query_by_label_contains("does not fit at the start (6, 17)")
            .is_some()
    );
    assert!(
        h.query_all_by_label_contains("is on an impassable cell")
            .next()
            .is_none()
    );
}

#[test]
fn a_map_opened_without_markers_gets_them_where_the_unit_fits() {
    // A room of 8 × 8 cells and a corridor one cell wide leading off it.
    let mut rows = vec!["#".repeat(24); 10];
    for row in rows.iter_mut().take(9).skip(1) {
        row.replace_range(1..9, &".".repeat(8));
    }
    rows[4].replace_range(9..23, &".".repeat(14));
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let map = Map::new("room", Grid::from_ascii(&rows).expect("a valid map"));
    let mut h = editor(meadow());
    settle(&mut h);
    set_number(&mut h, "Unit size", "3");
    settle(&mut h);
    h.state_mut().open_map(map);
    h.run();
    settle(&mut h);
    let (start, goal) = (h.state().map().start, h.state().map().goal);
    for cell in [start, goal] {
        let cell = cell.expect("placed");
        assert!(
            (1..=6).contains(&cell.x) && (1..=6).contains(&cell.y),
            "{cell} has room for a 3 × 3 unit"
        );
    }
    assert!(h.state().search_failure().is_none());
    assert!(h.state().search_result().expect("a search").found);
}

#[test]
fn nearest_if_unreachable_plans_to_the_closest_reachable_cell() {
    let mut map = meadow();
    // A walled ring around the goal.
    for x in 34..=38 {
        for y in 3..=7 {
            if x == 34 || x == 38 || y == 3 || y == 7 {
                map.grid.set(Cell::new(x, y), 3).expect("on the map");
            }
        }
    }
    let mut h = editor(map);
    settle(&mut h);
    assert!(!h.state().search_result().expect("a search").found);
    h.get_by_label("Nearest if unreachable").click();
    h.run();
    settle(&mut h);
    let result = h.state().search_result().expect("a search").clone();
    assert!(!result.found);
    assert_eq!(
        result.reached,
        Some(Cell::new(33, 5)),
        "just outside the ring"
    );
    assert!(h.query_by_label("Reached instead").is_some());
    let (drawn, older) = h.state().drawn_path().expect("a path on the map");
    assert!(!older, "the partial path is the one drawn");
    assert_eq!(drawn.last(), Some(&Cell::new(33, 5)));
}

#[test]
fn a_turn_penalty_straightens_the_path() {
    let mut h = editor(meadow());
    settle(&mut h);
    let plain = h.state().search_result().expect("a path").clone();
    set_number(&mut h, "Turn penalty", "4");
    settle(&mut h);
    let request = h.state().search_request().expect("a request").clone();
    assert_eq!(request.turn_penalty, 4.0);
    let turned = h.state().search_result().expect("a path").clone();
    let turns = |path: &[Cell]| {
        path.windows(3)
            .filter(|w| {
                (w[1].x as i64 - w[0].x as i64, w[1].y as i64 - w[0].y as i64)
                    != (w[2].x as i64 - w[1].x as i64, w[2].y as i64 - w[1].y as i64)
            })
            .count()
    };
    assert!(
        turns(&turned.path) <= turns(&plain.path),
        "fewer turns with the penalty"
    );
    let fresh = search::solve(&h.state().map().grid, &request).expect("a fresh search");
    assert!((turned.cost - fresh.cost).abs() < 1e-9);
}

#[test]
fn a_larger_unit_keeps_its_whole_footprint_on_passable_ground() {
    // The meadow's wall at x = 20 leaves rows 20 to 23 open: a 2 × 2 unit fits there too, but a
    // one-cell gap in a second wall lets only the small unit through.
    let mut map = meadow();
    for y in 0..24 {
        if y != 10 {
            map.grid.set(Cell::new(28, y), 3).expect("on the map");
        }
    }
    let mut h = editor(map.clone());
    settle(&mut h);
    assert!(
        h.state()
            .search_result()
            .expect("a path")
            .path
            .contains(&Cell::new(28, 10))
    );
    set_number(&mut h, "Unit size", "2");
    settle(&mut h);
    assert!(
        h.state().search_failure().is_none(),
        "{:?}",
        h.state().search_failure()
    );
    let result = h.state().search_result().expect("a search").clone();
    assert!(
        !result.found,
        "the one-cell gap is too narrow for a 2 × 2 unit"
    );
    // With the second wall's gap widened to two cells, the unit passes, footprint clear.
    let mut wide = map;
    wide.grid.set(Cell::new(28, 11), 0).expect("on the map");
    h.state_mut().open_map(wide.clone());
    h.run();
    settle(&mut h);
    let result = h.state().search_result().expect("a search").clone();
    assert!(result.found);
    for cell in &result.path {
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let c = Cell::new(cell.x + dx, cell.y + dy);
            assert!(wide.grid.is_passable(c), "{c} under the unit at {cell}");
        }
    }
}

#[test]
fn theta_star_draws_an_any_angle_path_no_dearer_than_a_star_and_compares_with_smoothing() {
    let mut h = editor_on_the_built_in_map();
    settle(&mut h);
    h.get_by_role_and_label(Role::ComboBox, "Algorithm").click();
    h.run();
    h.get_by_label("Theta* (any-angle)").click();
    h.run();
    settle(&mut h);

    let map = h.state().map().clone();
    let request = h.state().search_request().expect("a request").clone();
    assert_eq!(request.algorithm, Algorithm::Theta);
    let theta = h.state().search_result().expect("a result").clone();
    assert!(theta.found, "{}", theta.message());
    let waypoints = theta.waypoints.clone().expect("an any-angle path");
    // The canvas draws the polyline through the waypoints, each segment in line of sight.
    let drawn = h
        .state()
        .drawn_vertices()
        .expect("a path on the map")
        .to_vec();
    assert_eq!(drawn, waypoints);
    assert!(waypoints.len() >= 2);
    assert!(
        waypoints.len() < theta.path.len(),
        "fewer vertices than cells"
    );
    let graph = search::SearchGraph::new(&map.grid, request.diagonal);
    let mut cost = 0.0;
    for pair in waypoints.windows(2) {
        let segment = Segment::between_centres(pair[0], pair[1]);
        let step = search::SearchGraph::direction(pair[0], pair[1])
            .is_some_and(|d| graph.can_step(graph.index(pair[0]), d));
        assert!(
            step || segment.is_clear(&map.grid),
            "{} → {}",
            pair[0],
            pair[1]
        );
        cost += segment.cost(&map.grid).expect("a segment of the map");
    }
    assert!((cost - theta.cost).abs() <= 1e-9 * cost);
    let astar = search::solve(&map.grid, &request.clone().with_algorithm(Algorithm::AStar))
        .expect("a valid request");
    assert!(
        theta.cost <= astar.cost * (1.0 + 1e-9),
        "{} against A*'s {}",
        theta.cost,
        astar.cost
    );
    // The statistics say what kind of path it is, and what it saves on the grid path.
    h.get_by_label("any-angle, ≤ best grid path");
    h.get_by_label("Best grid (A*)");
    h.get_by_label(&format!("{:.3}", astar.cost));

    // Compare all: Theta*, Lazy Theta* and A*, each with its smoothed cost and time.
    h.get_by_label("Compare all").click();
    h.run();
    settle(&mut h);
    let rows = h.state().comparison().expect("a comparison").to_vec();
    let row = |algorithm: Algorithm| {
        rows.iter()
            .find(|r| r.algorithm == algorithm)
            .expect("a row per algorithm")
    };
    let astar_row = row(Algorithm::AStar);
    let astar_smoothed = astar_row.smoothed.expect("A*'s path smoothed");
    for algorithm in [Algorithm::Theta, Algorithm::LazyTheta] {
        let any_angle = row(algorithm);
        let result = any_angle
            .outcome
            .as_ref()
            .expect("runs on the built-in map");
        assert!(result.waypoints.is_some());
        assert!(result.cost <= astar.cost * (1.0 + 1e-9));
        let smoothed = any_angle.smoothed.expect("curved through its waypoints");
        assert!((smoothed.cost - result.cost).abs() <= 1e-9 * result.cost);
    }
    assert!(astar_smoothed.cost <= astar.cost * (1.0 + 1e-9));
    h.get_by_label("Smoothed");
    h.get_by_label("+ smoothing");
    h.get_by_label("Lazy Theta* (any-angle)");
}
