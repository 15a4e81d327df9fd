//! Every solver's plans through the independent validator, the validator's own faults, the
//! plan file and the benchmark's instances.

#![allow(clippy::unwrap_used)] // Tests fail loudly on broken test data.

use std::path::PathBuf;

use super::*;
use crate::grid::{Cell, Grid};

/// A start and a goal as `((x, y), (x, y))`.
type Ends = ((u32, u32), (u32, u32));

fn instance(rows: &[&str], agents: &[Ends], moves: Moves) -> Instance {
    let grid = Grid::from_ascii(rows).unwrap();
    let agents = agents
        .iter()
        .map(|&((sx, sy), (gx, gy))| Agent {
            start: Cell::new(sx, sy),
            goal: Cell::new(gx, gy),
        })
        .collect();
    Instance::new(grid, agents, moves).unwrap()
}

fn run(instance: &Instance, algorithm: MapfAlgorithm, settings: &MapfSettings) -> MapfOutcome {
    solve(instance, algorithm, settings, &SearchControl::new()).unwrap()
}

/// A deterministic scatter of walls and agents on an open map.
fn scattered(width: u32, height: u32, agents: usize, seed: u64, moves: Moves) -> Instance {
    let instance = try_scattered(width, height, agents, seed, moves);
    assert!(lower_bound(&instance).is_finite(), "a connected test map");
    instance
}

/// Like [`scattered`], where some agent may be walled off from its goal.
fn try_scattered(width: u32, height: u32, agents: usize, seed: u64, moves: Moves) -> Instance {
    try_scattered_terrain(width, height, agents, seed, moves, false)
}

/// Like [`try_scattered`], with about a fifth of the open cells swamp (`~`) when `swamp`.
fn try_scattered_terrain(
    width: u32,
    height: u32,
    agents: usize,
    seed: u64,
    moves: Moves,
    swamp: bool,
) -> Instance {
    let mut rng = crate::rng::Rng::new(seed);
    let rows: Vec<String> = (0..height)
        .map(|_| {
            (0..width)
                .map(|_| {
                    if rng.below(100) < 15 {
                        '#'
                    } else if swamp && rng.below(100) < 20 {
                        '~'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let grid = Grid::from_ascii(&rows).unwrap();
    let free: Vec<Cell> = (0..grid.len())
        .map(|i| grid.cell_at(i))
        .filter(|&c| grid.is_passable(c))
        .collect();
    let mut starts = free.clone();
    let mut goals = free;
    rng.shuffle(&mut starts);
    rng.shuffle(&mut goals);
    let list = (0..agents)
        .map(|i| Agent {
            start: starts[i],
            goal: goals[i],
        })
        .collect();
    Instance::new(grid, list, moves).unwrap()
}

#[test]
fn the_validator_finds_every_kind_of_fault() {
    let c = |x, y| Cell::new(x, y);
    let line = instance(
        &["...", ".#."],
        &[((0, 0), (2, 0)), ((2, 0), (0, 0))],
        Moves::Four,
    );
    let plan = |paths: Vec<Vec<Cell>>| Plan { paths };
    let check = |p: Plan| validate(&line, &p);
    assert!(matches!(
        check(plan(vec![vec![c(0, 0)]])),
        Err(PlanError::AgentCount {
            expected: 2,
            found: 1
        })
    ));
    assert!(matches!(
        check(plan(vec![vec![], vec![c(2, 0)]])),
        Err(PlanError::Empty { agent: 0 })
    ));
    assert!(matches!(
        check(plan(vec![vec![c(1, 0)], vec![c(2, 0)]])),
        Err(PlanError::WrongStart { agent: 0, .. })
    ));
    assert!(matches!(
        check(plan(vec![vec![c(0, 0), c(1, 0)], vec![c(2, 0)]])),
        Err(PlanError::WrongGoal { agent: 0, .. })
    ));
    assert!(matches!(
        check(plan(vec![vec![c(0, 0), c(1, 1)], vec![c(2, 0)]])),
        Err(PlanError::Wall { agent: 0, t: 1, .. })
    ));
    assert!(matches!(
        check(plan(vec![vec![c(0, 0), c(0, 5)], vec![c(2, 0)]])),
        Err(PlanError::OffMap { agent: 0, t: 1, .. })
    ));
    assert!(matches!(
        check(plan(vec![vec![c(0, 0), c(2, 0)], vec![c(2, 0)]])),
        Err(PlanError::NotAMove { agent: 0, t: 1, .. })
    ));
    assert!(matches!(
        check(plan(vec![vec![c(0, 0), c(1, 0)], vec![c(2, 0), c(1, 0)]])),
        Err(PlanError::Vertex {
            first: 0,
            second: 1,
            t: 1,
            ..
        })
    ));
    // Two agents swapping cells along one edge in one tick.
    let pair = instance(&["..."], &[((0, 0), (1, 0)), ((1, 0), (0, 0))], Moves::Four);
    assert!(matches!(
        validate(
            &pair,
            &plan(vec![vec![c(0, 0), c(1, 0)], vec![c(1, 0), c(0, 0)]])
        ),
        Err(PlanError::Swap {
            first: 0,
            second: 1,
            t: 1,
            ..
        })
    ));
    // Diagonal moves: not a move under the four-neighbour rule, a corner cut past the wall
    // under the eight-neighbour rule.
    assert!(matches!(
        check(plan(vec![vec![c(0, 0), c(1, 0), c(2, 1)], vec![c(2, 0)]])),
        Err(PlanError::NotAMove { agent: 0, t: 2, .. })
    ));
    let eight = instance(&["...", ".#."], &[((1, 0), (2, 1))], Moves::EightNoCut);
    assert!(matches!(
        validate(&eight, &plan(vec![vec![c(1, 0), c(2, 1)]])),
        Err(PlanError::CornerCut { agent: 0, t: 1, .. })
    ));
    // Crossing diagonals in an open 2 × 2 block.
    let open = instance(
        &["..", ".."],
        &[((0, 0), (1, 1)), ((1, 0), (0, 1))],
        Moves::EightNoCut,
    );
    assert!(matches!(
        validate(&open, &plan(vec![vec![c(0, 0), c(1, 1)], vec![c(1, 0), c(0, 1)]])),
        Err(PlanError::Crossing { first: 0, second: 1, t: 1, corner }) if corner == c(0, 0)
    ));
    // The same moves one after the other are fine, and the summary counts them.
    let summary = validate(
        &open,
        &plan(vec![
            vec![c(0, 0), c(1, 1)],
            vec![c(1, 0), c(1, 0), c(0, 1)],
        ]),
    )
    .unwrap();
    assert_eq!(summary.arrivals, vec![1, 2]);
    assert_eq!(summary.makespan, 2);
    let diagonal = std::f64::consts::SQRT_2;
    assert!((summary.costs[0] - diagonal).abs() < 1e-12);
    assert!(
        (summary.costs[1] - (1.0 + diagonal)).abs() < 1e-12,
        "a wait costs the cell's terrain"
    );
}

#[test]
fn an_agent_that_leaves_its_goal_and_returns_pays_for_the_waits_before() {
    let line = instance(&["...."], &[((0, 0), (1, 0))], Moves::Four);
    let c = |x| Cell::new(x, 0);
    let summary = validate(
        &line,
        &Plan {
            paths: vec![vec![c(0), c(1), c(1), c(2), c(1), c(1)]],
        },
    )
    .unwrap();
    assert_eq!(summary.arrivals, vec![4]);
    assert_eq!(summary.sum_of_costs, 4.0);
}

#[test]
fn lacam_proves_a_corridor_swap_impossible() {
    let corridor = instance(&[".."], &[((0, 0), (1, 0)), ((1, 0), (0, 0))], Moves::Four);
    let outcome = run(&corridor, MapfAlgorithm::Lacam, &MapfSettings::default());
    assert_eq!(outcome.proof, Proof::NoSolution);
    assert!(outcome.plan.is_none());
    // A longer corridor, three agents, and the first-plan mode: still no solution.
    let longer = instance(
        &["....#", "#####"],
        &[((0, 0), (3, 0)), ((3, 0), (0, 0)), ((1, 0), (2, 0))],
        Moves::Four,
    );
    let settings = MapfSettings {
        anytime: false,
        ..MapfSettings::default()
    };
    assert_eq!(
        run(&longer, MapfAlgorithm::Lacam, &settings).proof,
        Proof::NoSolution
    );
    // An agent walled off from its goal: no solution, from the distances alone.
    let walled = instance(&[".#."], &[((0, 0), (2, 0))], Moves::Four);
    for algorithm in MapfAlgorithm::all() {
        assert_eq!(
            run(&walled, algorithm, &MapfSettings::default()).proof,
            Proof::NoSolution
        );
    }
}

#[test]
fn pibt_gives_up_on_a_corridor_swap_after_its_ticks() {
    let corridor = instance(&[".."], &[((0, 0), (1, 0)), ((1, 0), (0, 0))], Moves::Four);
    let outcome = run(&corridor, MapfAlgorithm::Pibt, &MapfSettings::default());
    assert_eq!(outcome.proof, Proof::GaveUp);
    assert!(outcome.expanded >= 1024);
}

#[test]
fn lacam_star_proves_a_siding_swap_optimal() {
    // The only way past is the siding: one agent steps into it and out again.
    let siding = instance(
        &["....", "#.##"],
        &[((0, 0), (3, 0)), ((3, 0), (0, 0))],
        Moves::Four,
    );
    let outcome = run(&siding, MapfAlgorithm::Lacam, &MapfSettings::default());
    assert_eq!(outcome.proof, Proof::OptimalLoss);
    let summary = outcome.summary.unwrap();
    // Alone each needs 3; one of them must step aside (into the siding and back out: 2
    // more), the other waits or walks around it for at least 2 more ticks.
    assert_eq!(outcome.lower_bound, 6.0);
    // So the optimum is 8 (the brute force, written apart from LaCAM, agrees), and the plan
    // LaCAM* calls optimal must cost exactly that, not merely at least it.
    assert_eq!(brute_force_optimum(&siding), Some(8));
    assert_eq!(summary.sum_of_costs, 8.0, "{summary:?}");
}

#[test]
fn every_solver_plans_scattered_teams_validly() {
    for moves in [Moves::Four, Moves::EightNoCut] {
        for seed in 0..6 {
            let instance = scattered(12, 10, 6 + seed as usize * 3, seed, moves);
            let lb = lower_bound(&instance);
            // The optimal solvers on the smaller teams only.
            let optimal = |a: MapfAlgorithm| a.info().guarantee == MapfGuarantee::Optimal;
            for algorithm in MapfAlgorithm::all().filter(|&a| seed < 2 || !optimal(a)) {
                let settings = MapfSettings {
                    anytime: false,
                    seed,
                    ..MapfSettings::default()
                };
                let outcome = run(&instance, algorithm, &settings);
                if algorithm == MapfAlgorithm::Lacam {
                    assert_eq!(outcome.proof, Proof::Feasible, "{moves:?} seed {seed}");
                }
                // Every solver, the incomplete ones included, plans these open teams: a
                // solver that answered with no plan would fail here, not pass unseen.
                let Some(summary) = outcome.summary else {
                    panic!(
                        "{algorithm} {moves:?} seed {seed}: no plan ({})",
                        outcome.proof
                    );
                };
                assert!(outcome.proof.has_plan(), "{algorithm} {moves:?} {seed}");
                assert!(
                    summary.sum_of_costs >= lb - 1e-9,
                    "{algorithm} {moves:?} {seed}"
                );
            }
        }
    }
}

#[test]
fn lacam_star_never_does_worse_than_its_first_plan() {
    for seed in 0..4 {
        let instance = scattered(8, 6, 4, seed, Moves::Four);
        let first = MapfSettings {
            anytime: false,
            seed,
            ..MapfSettings::default()
        };
        let a = run(&instance, MapfAlgorithm::Lacam, &first);
        let b = run(
            &instance,
            MapfAlgorithm::Lacam,
            &MapfSettings {
                anytime: true,
                ..first.clone()
            },
        );
        assert_eq!(
            b.proof,
            Proof::OptimalLoss,
            "seed {seed}: a small instance is exhausted"
        );
        let (la, lb) = (
            sum_of_loss(&instance, &a.plan.unwrap()),
            sum_of_loss(&instance, &b.plan.unwrap()),
        );
        assert!(lb <= la + 1e-9, "seed {seed}: loss {la} first, {lb} after");
        assert!(lb >= lower_bound(&instance) - 1e-9);
    }
}

/// LaCAM*'s objective, counted from the plan: every tick's price for every agent not
/// resting on its goal at both ends of it (a move of one cost on these maps).
fn sum_of_loss(instance: &Instance, plan: &Plan) -> f64 {
    let mut loss = 0.0;
    for (i, agent) in instance.agents().iter().enumerate() {
        for t in 1..=plan.makespan() {
            let (a, b) = (
                plan.position(i, t - 1).unwrap(),
                plan.position(i, t).unwrap(),
            );
            if !(a == agent.goal && b == agent.goal) {
                loss += 1.0;
            }
        }
    }
    loss
}

#[test]
fn the_team_keeps_out_of_the_swamp() {
    // Straight through the swamp is 5 moves at cost 3 inside it; round by the grass, 9 moves.
    let rows = [".......", ".~~~~~.", ".~~~~~.", "......."];
    let through = instance(&rows, &[((0, 1), (6, 1)), ((0, 2), (6, 2))], Moves::Four);
    let outcome = run(&through, MapfAlgorithm::Lacam, &MapfSettings::default());
    assert_eq!(outcome.proof, Proof::OptimalLoss);
    let plan = outcome.plan.unwrap();
    let grid = through.grid();
    for path in &plan.paths {
        assert!(
            path.iter().all(|&c| grid.cost(c) == Some(1.0)),
            "an agent entered the swamp: {path:?}"
        );
    }
    let summary = outcome.summary.unwrap();
    assert_eq!(summary.costs, vec![8.0, 8.0]);
    assert_eq!(outcome.lower_bound, 16.0);
}

#[test]
fn a_cancelled_solver_stops_before_it_starts() {
    let instance = scattered(40, 40, 120, 7, Moves::Four);
    let control = SearchControl::new();
    control.cancel();
    let outcome = solve(
        &instance,
        MapfAlgorithm::Lacam,
        &MapfSettings::default(),
        &control,
    )
    .unwrap();
    // Cancelled before the start, it stops before the distance tables, let alone the search.
    assert_eq!(outcome.proof, Proof::Cancelled);
    assert_eq!(control.expanded(), 0, "stopped before the search");
}

#[test]
fn settings_out_of_range_are_refused_before_any_work() {
    let line = instance(&[".."], &[((0, 0), (1, 0))], Moves::Four);
    for settings in [
        MapfSettings {
            weight: 0.9,
            ..MapfSettings::default()
        },
        MapfSettings {
            time_limit: std::time::Duration::ZERO,
            ..MapfSettings::default()
        },
        MapfSettings {
            window: 0,
            ..MapfSettings::default()
        },
    ] {
        let control = SearchControl::new();
        assert!(matches!(
            solve(&line, MapfAlgorithm::Lacam, &settings, &control),
            Err(MapfError::Settings(_))
        ));
        assert_eq!(control.expanded(), 0);
    }
}

#[test]
fn plan_files_round_trip_and_bad_ones_say_where() {
    let instance = scattered(10, 8, 6, 3, Moves::Four);
    let outcome = run(
        &instance,
        MapfAlgorithm::Lacam,
        &MapfSettings {
            anytime: false,
            ..MapfSettings::default()
        },
    );
    let plan = outcome.plan.unwrap();
    let text = write_plan(&plan, &[("agents".into(), "6".into())]);
    let (read, header) = parse_plan(&text).unwrap();
    assert_eq!(read, plan);
    assert_eq!(header, vec![("agents".to_owned(), "6".to_owned())]);
    let e = parse_plan("agents=1\nsolution=\n0:(0,0),\n1:(1,x),\n").unwrap_err();
    assert_eq!(e.line, 4);
    let e = parse_plan("agents=1\nsolution=\n0:(0,0),\n2:(1,0),\n").unwrap_err();
    assert_eq!(e.line, 4);
    let e = parse_plan("agents=2\nsolution=\n0:(0,0),(1,1),\n1:(1,0),\n").unwrap_err();
    assert_eq!(e.line, 4);
    assert!(parse_plan("agents=1\n").is_err());
}

/// The benchmark folder, when present.
fn mapf_folder() -> Option<PathBuf> {
    let folder = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/movingai/mapf");
    folder.is_dir().then_some(folder)
}

#[test]
fn benchmark_instances_are_read_and_solved() {
    let Some(folder) = mapf_folder() else {
        crate::test_data::skip(
            "../shared/movingai/mapf is absent, so the MAPF instances were not read",
        );
        return;
    };
    let map = folder.join("random-32-32-20.map");
    let scen = folder.join("random-32-32-20-random-1.scen");
    let instance = read_instance(&map, &scen, 100, Moves::Four).unwrap();
    assert_eq!(instance.agents().len(), 100);
    let settings = MapfSettings {
        anytime: false,
        ..MapfSettings::default()
    };
    // The solvers for large teams; the optimal ones are checked on small teams below.
    for algorithm in [MapfAlgorithm::Lacam, MapfAlgorithm::Pibt] {
        let outcome = run(&instance, algorithm, &settings);
        assert!(outcome.proof.has_plan(), "{algorithm}: {:?}", outcome.proof);
        let summary = outcome.summary.unwrap();
        assert!(summary.sum_of_costs >= outcome.lower_bound);
    }
    let e = read_instance(&map, &scen, 5000, Moves::Four).unwrap_err();
    assert!(
        matches!(e, ScenarioError::TooFewAgents { available: 409, .. }),
        "{e}"
    );
    let warehouse = folder.join("warehouse-20-40-10-2-2.map");
    let e = read_instance(&warehouse, &scen, 1, Moves::Four).unwrap_err();
    assert!(e.to_string().contains("line 2"), "{e}");
}

#[test]
fn cbs_finds_the_benchmark_optima() {
    let Some(folder) = mapf_folder() else {
        crate::test_data::skip(
            "../shared/movingai/mapf is absent, so the optimal sums of costs were not checked",
        );
        return;
    };
    let map = folder.join("random-32-32-20.map");
    let scen = folder.join("random-32-32-20-random-1.scen");
    // The published optima of the scenario's first 10 and 20 agents (30, 40 and 50 agents:
    // 637, 837 and 1147, in the benchmark).
    for (k, optimum) in [(10, 200.0), (20, 413.0)] {
        let instance = read_instance(&map, &scen, k, Moves::Four).unwrap();
        let outcome = run(&instance, MapfAlgorithm::Cbs, &MapfSettings::default());
        assert_eq!(outcome.proof, Proof::Optimal, "{k} agents");
        assert_eq!(outcome.summary.unwrap().sum_of_costs, optimum, "{k} agents");
    }
}

#[test]
fn cbs_is_never_dearer_than_the_others_and_never_below_the_bound() {
    for moves in [Moves::Four, Moves::EightNoCut] {
        for seed in 0..5 {
            let instance = scattered(10, 8, 6, seed, moves);
            let cbs = run(&instance, MapfAlgorithm::Cbs, &MapfSettings::default());
            assert_eq!(cbs.proof, Proof::Optimal, "{moves:?} seed {seed}");
            let optimum = cbs.summary.unwrap().sum_of_costs;
            assert!(optimum >= cbs.lower_bound - 1e-9);
            for algorithm in [MapfAlgorithm::Lacam, MapfAlgorithm::Pibt] {
                let settings = MapfSettings {
                    anytime: false,
                    seed,
                    ..MapfSettings::default()
                };
                if let Some(s) = run(&instance, algorithm, &settings).summary {
                    assert!(
                        s.sum_of_costs >= optimum - 1e-9,
                        "{algorithm} beat the optimum"
                    );
                }
            }
        }
    }
    // On weighted terrain too: the pair keeps out of the swamp at the single-agent optimum.
    let rows = [".......", ".~~~~~.", ".~~~~~.", "......."];
    let through = instance(&rows, &[((0, 1), (6, 1)), ((0, 2), (6, 2))], Moves::Four);
    let cbs = run(&through, MapfAlgorithm::Cbs, &MapfSettings::default());
    assert_eq!(cbs.proof, Proof::Optimal);
    assert_eq!(cbs.summary.unwrap().sum_of_costs, 16.0);
}

#[test]
fn cbs_times_out_on_a_corridor_swap_without_claiming_anything() {
    let corridor = instance(&[".."], &[((0, 0), (1, 0)), ((1, 0), (0, 0))], Moves::Four);
    // Cancelled once the tables are filled (the lower bound asks once per 16 agents, and
    // once after): the search stops at its first checkpoint.
    let control = SearchControl::new();
    control.cancel_at_poll(3);
    let outcome = solve(
        &corridor,
        MapfAlgorithm::Cbs,
        &MapfSettings::default(),
        &control,
    )
    .unwrap();
    assert_eq!(outcome.proof, Proof::Cancelled);
    assert!(outcome.plan.is_none());
    // What it proved before it stopped: no more than the root's cost, the agents' own.
    assert_eq!(outcome.proved_bound, Some(outcome.lower_bound));
}

#[test]
fn ecbs_stays_within_its_weight_of_the_optimum() {
    for moves in [Moves::Four, Moves::EightNoCut] {
        for seed in 0..4 {
            let instance = scattered(10, 8, 7, seed + 10, moves);
            let cbs = run(&instance, MapfAlgorithm::Cbs, &MapfSettings::default());
            assert_eq!(cbs.proof, Proof::Optimal, "{moves:?} seed {seed}");
            let optimum = cbs.summary.unwrap().sum_of_costs;
            for weight in [1.0, 1.1, 1.5] {
                let settings = MapfSettings {
                    weight,
                    ..MapfSettings::default()
                };
                let ecbs = run(&instance, MapfAlgorithm::Ecbs, &settings);
                assert_eq!(ecbs.proof, Proof::Bounded(weight), "{moves:?} seed {seed}");
                let cost = ecbs.summary.unwrap().sum_of_costs;
                assert!(
                    cost >= optimum - 1e-9 && cost <= weight * optimum + 1e-9,
                    "{moves:?} seed {seed} weight {weight}: {cost} against {optimum}"
                );
                // Its proved bound lies under the optimum, and the plan within w of it.
                let proved = ecbs.proved_bound.unwrap_or(f64::NAN);
                assert!(
                    proved <= optimum + 1e-9 && cost <= weight * proved + 1e-9,
                    "{moves:?} seed {seed} weight {weight}: proved {proved}"
                );
            }
        }
    }
}

#[test]
fn whca_lets_four_agents_through_a_crossroads() {
    // Each agent goes straight across an open square, through the centre.
    let rows = ["#...#", ".....", ".....", ".....", "#...#"];
    let open = instance(
        &rows,
        &[
            ((0, 2), (4, 2)),
            ((4, 2), (0, 2)),
            ((2, 0), (2, 4)),
            ((2, 4), (2, 0)),
        ],
        Moves::Four,
    );
    for window in [2, 4, 16] {
        let settings = MapfSettings {
            window,
            ..MapfSettings::default()
        };
        let outcome = run(&open, MapfAlgorithm::Whca, &settings);
        assert_eq!(outcome.proof, Proof::Feasible, "window {window}");
        assert!(outcome.summary.unwrap().sum_of_costs >= outcome.lower_bound);
    }
}

/// The optimal sum of costs by brute force, for tiny instances on maps of cost 1 under the
/// four-neighbour rule, written apart from every solver: Dijkstra over the configurations
/// with, per agent, whether it has finished (rests on its goal for good). Each tick costs one
/// per unfinished agent; an agent on its goal may finish. `None` when no plan exists.
fn brute_force_optimum(instance: &Instance) -> Option<u64> {
    use std::cmp::Reverse;
    use std::collections::{BinaryHeap, HashMap};
    let grid = instance.grid();
    let agents = instance.agents();
    let n = agents.len();
    let steps = |c: Cell| -> Vec<Cell> {
        let mut out = vec![c];
        for (dx, dy) in [(1i64, 0i64), (-1, 0), (0, 1), (0, -1)] {
            let (x, y) = (i64::from(c.x) + dx, i64::from(c.y) + dy);
            if x >= 0 && y >= 0 && grid.is_passable(Cell::new(x as u32, y as u32)) {
                out.push(Cell::new(x as u32, y as u32));
            }
        }
        out
    };
    type State = (Vec<Cell>, u32);
    let start: State = (agents.iter().map(|a| a.start).collect(), 0);
    let all = (1u32 << n) - 1;
    let mut best: HashMap<State, u64> = HashMap::from([(start.clone(), 0)]);
    let mut open = BinaryHeap::from([Reverse((0u64, start))]);
    while let Some(Reverse((cost, (config, done)))) = open.pop() {
        if best.get(&(config.clone(), done)).is_some_and(|&b| b < cost) {
            continue;
        }
        if done == all {
            return Some(cost);
        }
        // Finishing is free: an agent on its goal may finish now.
        for i in 0..n {
            if done & (1 << i) == 0 && config[i] == agents[i].goal {
                let state = (config.clone(), done | (1 << i));
                if best.get(&state).is_none_or(|&b| b > cost) {
                    best.insert(state.clone(), cost);
                    open.push(Reverse((cost, state)));
                }
            }
        }
        // One tick: every unfinished agent waits or moves.
        let tick = u64::from((!done & all).count_ones());
        let mut next: Vec<Vec<Cell>> = vec![Vec::new()];
        for (i, &cell) in config.iter().enumerate() {
            let options = if done & (1 << i) != 0 {
                vec![cell]
            } else {
                steps(cell)
            };
            next = next
                .into_iter()
                .flat_map(|partial| {
                    options.iter().map(move |&c| {
                        let mut p = partial.clone();
                        p.push(c);
                        p
                    })
                })
                .collect();
        }
        for to in next {
            let vertex = (0..n).any(|i| (0..i).any(|j| to[i] == to[j]));
            let swap = (0..n).any(|i| {
                (0..n).any(|j| i != j && to[i] == config[j] && to[j] == config[i] && to[i] != to[j])
            });
            if vertex || swap {
                continue;
            }
            let state = (to, done);
            let c = cost + tick;
            if best.get(&state).is_none_or(|&b| b > c) {
                best.insert(state.clone(), c);
                open.push(Reverse((c, state)));
            }
        }
    }
    None
}

#[test]
fn cbs_and_ecbs_at_weight_1_match_a_brute_force_optimum() {
    let mut checked = 0;
    for seed in 0..40 {
        let instance = try_scattered(4, 3, 2 + (seed as usize % 2), seed + 100, Moves::Four);
        let Some(optimum) = brute_force_optimum(&instance) else {
            // No plan: LaCAM proves it; the CBS family could only run out of time.
            let outcome = run(&instance, MapfAlgorithm::Lacam, &MapfSettings::default());
            assert_eq!(outcome.proof, Proof::NoSolution, "seed {seed}");
            continue;
        };
        for (algorithm, weight) in [(MapfAlgorithm::Cbs, 1.2), (MapfAlgorithm::Ecbs, 1.0)] {
            let settings = MapfSettings {
                weight,
                ..MapfSettings::default()
            };
            let outcome = run(&instance, algorithm, &settings);
            let cost = outcome.summary.map(|s| s.sum_of_costs);
            assert_eq!(
                cost,
                Some(optimum as f64),
                "{algorithm} seed {seed}: {:?}",
                outcome.proof
            );
        }
        // LaCAM is complete: a plan whenever one exists.
        let lacam = run(&instance, MapfAlgorithm::Lacam, &MapfSettings::default());
        assert!(lacam.proof.has_plan(), "seed {seed}: {:?}", lacam.proof);
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} instances were checked");
}

/// What the editor does: a solver on a worker thread, its progress read and its run stopped
/// from another. CBS on a corridor swap would search until its time limit; it is stopped
/// once it has published progress, and says it was cancelled.
#[test]
fn a_solver_on_another_thread_reports_progress_and_stops_when_cancelled() {
    let corridor = instance(&["..."], &[((0, 0), (2, 0)), ((2, 0), (0, 0))], Moves::Four);
    let control = SearchControl::new();
    let settings = MapfSettings {
        time_limit: MAX_TIME_LIMIT,
        ..MapfSettings::default()
    };
    let outcome = std::thread::scope(|scope| {
        let worker = scope.spawn(|| solve(&corridor, MapfAlgorithm::Cbs, &settings, &control));
        while control.expanded() < 3 && !worker.is_finished() {
            std::thread::yield_now();
        }
        control.cancel();
        worker.join().expect("the solver thread")
    })
    .unwrap();
    assert_eq!(outcome.proof, Proof::Cancelled);
    assert!(outcome.plan.is_none());
}

/// Agents that walk at random, each move one of the rule's, with no care for the others.
fn random_walks(instance: &Instance, ticks: usize, seed: u64) -> Plan {
    let grid = instance.grid();
    let mut rng = crate::rng::Rng::new(seed);
    let steps: &[(i64, i64)] = match instance.moves() {
        Moves::Four => &[(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)],
        Moves::EightNoCut => &[
            (0, 0),
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ],
    };
    let open = |x: i64, y: i64| {
        x >= 0
            && y >= 0
            && x < i64::from(grid.width())
            && y < i64::from(grid.height())
            && grid.is_passable(Cell::new(x as u32, y as u32))
    };
    let paths = instance
        .agents()
        .iter()
        .map(|a| {
            let mut path = vec![a.start];
            for _ in 0..ticks {
                let here = *path.last().unwrap();
                let (x, y) = (i64::from(here.x), i64::from(here.y));
                let (dx, dy) = steps[rng.below(steps.len())];
                let ok = open(x + dx, y + dy) && open(x + dx, y) && open(x, y + dy);
                path.push(if ok {
                    Cell::new((x + dx) as u32, (y + dy) as u32)
                } else {
                    here
                });
            }
            path
        })
        .collect();
    Plan { paths }
}

#[test]
fn conflicts_lists_what_the_validator_finds_first() {
    let mut collided = 0;
    for seed in 0..200 {
        let moves = if seed % 2 == 0 {
            Moves::Four
        } else {
            Moves::EightNoCut
        };
        let instance = try_scattered(6, 5, 6, seed, moves);
        let plan = random_walks(&instance, 12, seed);
        let found = conflicts(&instance, &plan, usize::MAX);
        match validate(&instance, &plan) {
            Err(
                first @ (PlanError::Vertex { .. }
                | PlanError::Swap { .. }
                | PlanError::Crossing { .. }),
            ) => {
                collided += 1;
                assert_eq!(found.first(), Some(&first), "seed {seed}");
            }
            // A plan without collisions may still end off its goals.
            Ok(_) | Err(PlanError::WrongGoal { .. }) => {
                assert!(found.is_empty(), "seed {seed}: {found:?}");
            }
            Err(other) => panic!("seed {seed}: a random walk broke a rule of moving: {other}"),
        }
        assert!(conflicts(&instance, &plan, 1).len() <= 1);
    }
    assert!(collided > 50, "the walks collide often enough to test");
}

#[test]
fn random_instances_are_distinct_reachable_and_repeat() {
    for seed in 0..20 {
        let grid = try_scattered(12, 9, 0, seed, Moves::Four).grid().clone();
        let free = (0..grid.len())
            .filter(|&i| grid.is_passable(grid.cell_at(i)))
            .count();
        let k = free / 3;
        let instance = random_instance(grid.clone(), k, Moves::Four, seed).unwrap();
        assert_eq!(instance.agents().len(), k);
        let mut starts: Vec<Cell> = instance.agents().iter().map(|a| a.start).collect();
        let mut goals: Vec<Cell> = instance.agents().iter().map(|a| a.goal).collect();
        starts.sort_by_key(|c| (c.y, c.x));
        goals.sort_by_key(|c| (c.y, c.x));
        starts.dedup();
        goals.dedup();
        assert_eq!((starts.len(), goals.len()), (k, k), "seed {seed}");
        assert!(
            lower_bound(&instance).is_finite(),
            "seed {seed}: every goal in reach"
        );
        let again = random_instance(grid.clone(), k, Moves::Four, seed).unwrap();
        assert_eq!(again.agents(), instance.agents(), "a seed repeats");
        assert!(random_instance(grid, free + 1, Moves::Four, seed).is_err());
    }
}

#[test]
fn hex_maps_are_refused_with_their_layout() {
    use crate::grid::{HexLayout, Topology};
    let grid = Grid::from_ascii(&["....", "...."])
        .unwrap()
        .with_topology(Topology::Hex(HexLayout::ODD_R));
    let agents = vec![Agent {
        start: Cell::new(0, 0),
        goal: Cell::new(3, 1),
    }];
    let error = Instance::new(grid.clone(), agents, Moves::Four).unwrap_err();
    assert!(matches!(error, InstanceError::Hex(_)), "{error}");
    assert!(error.to_string().contains("hexes"));
    assert!(random_instance(grid, 2, Moves::Four, 1).is_err());
}

/// The weighted dependency graph's estimate at the root never exceeds what the conflicts
/// really cost: the root's cost plus the estimate stays at or below the brute-force optimum.
#[test]
fn cbs_dependency_estimate_never_exceeds_the_optimum() {
    let mut raised = 0;
    for seed in 0..60 {
        let instance = try_scattered(4, 4, 3 + (seed as usize % 2), seed + 300, Moves::Four);
        let Some(optimum) = brute_force_optimum(&instance) else {
            continue;
        };
        let Some((cost, estimate)) = cbs::root_estimate(&instance) else {
            continue;
        };
        assert!(
            cost + estimate <= optimum as f64 + 1e-9,
            "seed {seed}: {cost} + {estimate} > {optimum}"
        );
        if estimate > 0.0 {
            raised += 1;
        }
    }
    assert!(
        raised >= 5,
        "only {raised} instances had a positive estimate"
    );
}

/// The exact cover search against every assignment of small values.
#[test]
fn cbs_cover_search_finds_the_least_weighted_vertex_cover() {
    let mut rng = crate::rng::Rng::new(7);
    for _ in 0..300 {
        let n = 1 + rng.below(5);
        let mut edges = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if rng.below(2) == 0 {
                    edges.push((i, j, 1 + rng.below(3) as u32));
                }
            }
        }
        let brute = (0..4u32.pow(n as u32))
            .filter_map(|code| {
                let x: Vec<u32> = (0..n).map(|k| code / 4u32.pow(k as u32) % 4).collect();
                edges
                    .iter()
                    .all(|&(i, j, w)| x[i] + x[j] >= w)
                    .then(|| x.iter().sum::<u32>())
            })
            .min();
        assert_eq!(dependency::min_cover(n, &edges), brute, "{edges:?}");
    }
}

/// CBS with every reasoning but the rectangles and corridors.
const WITHOUT_SYMMETRY: cbs::Reasoning = cbs::Reasoning {
    symmetry: false,
    ..cbs::Reasoning::ALL
};

/// CBS's outcome with the given reasoning, its plan checked by the validator.
fn cbs_with(instance: &Instance, reasoning: cbs::Reasoning) -> (MapfOutcome, Option<f64>) {
    let outcome = cbs::run_with(
        instance,
        &MapfSettings::default(),
        &SearchControl::new(),
        reasoning,
        graph::Distances::for_goals_of(instance),
    );
    let cost = outcome.plan.as_ref().map(|plan| {
        let summary = validate(instance, plan).unwrap_or_else(|e| panic!("{e}"));
        summary.sum_of_costs
    });
    (outcome, cost)
}

/// CBS with every reasoning and CBS `without` one against the brute-force optimum, written
/// apart from both, on every instance small enough for it: 40 random maps of 5 × 5 and 6 × 6
/// cells with 2 or 3 agents. Returns how many had a plan to compare.
fn both_match_brute_force(without: cbs::Reasoning) -> usize {
    let mut compared = 0;
    for seed in 0..40u64 {
        let side = 5 + (seed as u32 % 2);
        let agents = 2 + (seed as usize % 2);
        let instance = try_scattered(side, side, agents, seed + 7000, Moves::Four);
        let Some(optimum) = brute_force_optimum(&instance) else {
            continue;
        };
        for (what, reasoning) in [("without", without), ("with", cbs::Reasoning::ALL)] {
            let (outcome, cost) = cbs_with(&instance, reasoning);
            assert_eq!(outcome.proof, Proof::Optimal, "seed {seed} {what}");
            assert_eq!(cost, Some(optimum as f64), "seed {seed} {what}");
        }
        compared += 1;
    }
    assert!(compared >= 30, "only {compared} instances had a plan");
    compared
}

/// CBS with and without the symmetry reasoning both reach the brute-force optimum of
/// `instance`, and the reasoning (`what` it adds, for the message) expands fewer nodes; the
/// outcome with it.
fn optimal_in_fewer_nodes_with_symmetry(instance: &Instance, what: &str) -> MapfOutcome {
    let optimum = brute_force_optimum(instance).unwrap() as f64;
    let (plain, plain_cost) = cbs_with(instance, WITHOUT_SYMMETRY);
    let (reasoned, reasoned_cost) = cbs_with(instance, cbs::Reasoning::ALL);
    assert_eq!(plain_cost, Some(optimum));
    assert_eq!(reasoned_cost, Some(optimum));
    assert!(
        reasoned.expanded < plain.expanded,
        "{} nodes with {what}, {} without",
        reasoned.expanded,
        plain.expanded
    );
    reasoned
}

/// Two agents crossing a rectangle, each bound to leave it on the side the other enters
/// through: every pair of cheapest paths meets in it. Barriers settle it in one split, where
/// splitting on the meeting cell tries each cell in turn.
#[test]
fn cbs_splits_a_rectangle_conflict_with_barriers() {
    let rows = [".....", ".....", ".....", ".....", "....."];
    let cross = instance(&rows, &[((0, 1), (4, 3)), ((1, 0), (3, 4))], Moves::Four);
    let barred = optimal_in_fewer_nodes_with_symmetry(&cross, "barriers");
    assert_eq!(barred.proof, Proof::Optimal);
}

/// Two agents meeting head-on in a corridor between two rooms: one must wait for the other
/// to come through. Ranges (the first not at the far end before the other could have come
/// through) settle it at once, where splitting on the meeting cell tries every tick.
#[test]
fn cbs_splits_a_corridor_conflict_with_ranges() {
    let rows = ["...#####...", "...........", "...#####..."];
    let swap = instance(&rows, &[((0, 1), (10, 1)), ((10, 1), (0, 1))], Moves::Four);
    optimal_in_fewer_nodes_with_symmetry(&swap, "ranges");
}

/// Rectangle and corridor reasoning never change the optimum: on random maps of 8 × 8 to
/// 12 × 12 cells with 3 to 8 agents, CBS with and without them find plans of one sum of
/// costs, each valid.
#[test]
fn cbs_with_symmetry_reasoning_keeps_the_optimum_of_plain_cbs() {
    both_match_brute_force(WITHOUT_SYMMETRY);
    let (mut compared, mut changed) = (0, 0);
    for seed in 0..300 {
        let side = 8 + (seed as u32 % 5);
        let agents = 3 + (seed as usize % 6);
        let instance = try_scattered(side, side, agents, seed + 500, Moves::Four);
        if !lower_bound(&instance).is_finite() {
            continue;
        }
        let (plain, plain_cost) = cbs_with(&instance, WITHOUT_SYMMETRY);
        let (barred, barred_cost) = cbs_with(&instance, cbs::Reasoning::ALL);
        assert_eq!(
            plain.proof,
            Proof::Optimal,
            "seed {seed} without rectangles"
        );
        assert_eq!(barred.proof, Proof::Optimal, "seed {seed} with rectangles");
        assert_eq!(barred_cost, plain_cost, "seed {seed}");
        compared += 1;
        if barred.expanded != plain.expanded {
            changed += 1;
        }
    }
    assert!(compared >= 250, "only {compared} instances were compared");
    assert!(
        changed >= 15,
        "symmetry reasoning changed the search on {changed} instances only"
    );
}

/// CBS with every reasoning against CBS `without` one, on `seeds` random maps of 8 × 8 to
/// 12 × 12 cells with 3 to 8 agents (the instance seeds shifted by `offset`), some with swamp
/// and some under the eight-neighbour rule: both optimal, one sum of costs, each plan valid,
/// and the bound proved at the end the optimum itself. Returns how many instances were
/// compared and how many of them the reasoning changed the search on.
fn compare_with_and_without(
    without: cbs::Reasoning,
    seeds: std::ops::Range<u64>,
    offset: u64,
) -> (usize, usize) {
    let (mut compared, mut changed) = (0, 0);
    for seed in seeds {
        let side = 8 + (seed as u32 % 5);
        let agents = 3 + (seed as usize % 6);
        let moves = if seed % 4 == 3 {
            Moves::EightNoCut
        } else {
            Moves::Four
        };
        let swamp = seed % 3 == 2;
        let instance = try_scattered_terrain(side, side, agents, seed + offset, moves, swamp);
        if !lower_bound(&instance).is_finite() {
            continue;
        }
        let (plain, plain_cost) = cbs_with(&instance, without);
        let (reasoned, reasoned_cost) = cbs_with(&instance, cbs::Reasoning::ALL);
        assert_eq!(plain.proof, Proof::Optimal, "seed {seed} without");
        assert_eq!(reasoned.proof, Proof::Optimal, "seed {seed} with");
        let (Some(reasoned_cost), Some(plain_cost)) = (reasoned_cost, plain_cost) else {
            panic!("seed {seed}: an optimal outcome without a plan");
        };
        // Diagonals cost √2: sums of one plan's costs in another order differ in the last bits.
        assert!(
            (reasoned_cost - plain_cost).abs() < 1e-9,
            "seed {seed}: {reasoned_cost} with, {plain_cost} without"
        );
        let proved = reasoned.proved_bound.unwrap_or(f64::NAN);
        assert!(
            (proved - reasoned_cost).abs() < 1e-6,
            "seed {seed}: proved {proved}, cost {reasoned_cost}"
        );
        compared += 1;
        if reasoned.expanded != plain.expanded {
            changed += 1;
        }
    }
    (compared, changed)
}

/// Disjoint splitting of target conflicts never changes the optimum.
#[test]
fn cbs_with_disjoint_target_splitting_keeps_the_optimum_of_plain_cbs() {
    let without = cbs::Reasoning {
        disjoint_targets: false,
        ..cbs::Reasoning::ALL
    };
    both_match_brute_force(without);
    let (compared, changed) = compare_with_and_without(without, 0..800, 900);
    assert!(compared >= 700, "only {compared} instances were compared");
    assert!(
        changed >= 20,
        "disjoint splitting changed the search on {changed} instances only"
    );
}

/// Disjoint splitting of vertex and swap conflicts never changes the optimum (the demands it
/// makes of an agent reach the low level, the decision diagrams and the searches of pairs).
#[test]
fn cbs_with_disjoint_splitting_keeps_the_optimum_of_plain_cbs() {
    let without = cbs::Reasoning {
        disjoint_splits: false,
        ..cbs::Reasoning::ALL
    };
    both_match_brute_force(without);
    let (compared, changed) = compare_with_and_without(without, 0..600, 3100);
    assert!(compared >= 500, "only {compared} instances were compared");
    assert!(
        changed >= 20,
        "disjoint splitting changed the search on {changed} instances only"
    );
}

#[test]
fn eecbs_stays_within_its_weight_of_the_optimum() {
    let mut compared = 0;
    for moves in [Moves::Four, Moves::EightNoCut] {
        for seed in 0..6 {
            let (side, agents) = if seed % 2 == 0 { (10, 7) } else { (8, 8) };
            let instance = scattered(side, 8, agents, seed + 40, moves);
            let cbs = run(&instance, MapfAlgorithm::Cbs, &MapfSettings::default());
            assert_eq!(cbs.proof, Proof::Optimal, "{moves:?} seed {seed}");
            let optimum = cbs.summary.unwrap().sum_of_costs;
            for weight in [1.0, 1.1, 1.3, 2.0] {
                let settings = MapfSettings {
                    weight,
                    ..MapfSettings::default()
                };
                let eecbs = run(&instance, MapfAlgorithm::Eecbs, &settings);
                assert_eq!(eecbs.proof, Proof::Bounded(weight), "{moves:?} seed {seed}");
                let plan = eecbs.plan.as_ref().unwrap();
                let summary = validate(&instance, plan).unwrap_or_else(|e| panic!("{e}"));
                let cost = summary.sum_of_costs;
                assert_eq!(Some(cost), eecbs.summary.map(|s| s.sum_of_costs));
                assert!(
                    cost >= optimum - 1e-9 && cost <= weight * optimum + 1e-9,
                    "{moves:?} seed {seed} weight {weight}: {cost} against {optimum}"
                );
                let proved = eecbs.proved_bound.unwrap_or(f64::NAN);
                assert!(
                    proved <= optimum + 1e-9 && cost <= weight * proved + 1e-9,
                    "{moves:?} seed {seed} weight {weight}: proved {proved}"
                );
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 48);
}

#[test]
fn eecbs_at_weight_1_matches_a_brute_force_optimum() {
    let mut checked = 0;
    for seed in 0..40 {
        let instance = try_scattered(4, 3, 2 + (seed as usize % 2), seed + 100, Moves::Four);
        let Some(optimum) = brute_force_optimum(&instance) else {
            continue;
        };
        let settings = MapfSettings {
            weight: 1.0,
            ..MapfSettings::default()
        };
        let outcome = run(&instance, MapfAlgorithm::Eecbs, &settings);
        assert_eq!(outcome.proof, Proof::Bounded(1.0), "seed {seed}");
        let cost = outcome.summary.map(|s| s.sum_of_costs);
        assert_eq!(cost, Some(optimum as f64), "seed {seed}");
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} instances had a plan");
}

#[test]
fn eecbs_stays_within_its_weight_of_the_benchmark_optima() {
    let Some(folder) = mapf_folder() else {
        crate::test_data::skip(
            "../shared/movingai/mapf is absent, so EECBS was not checked against the optima",
        );
        return;
    };
    let map = folder.join("random-32-32-20.map");
    let scen = folder.join("random-32-32-20-random-1.scen");
    for (k, optimum) in [(10, 200.0), (20, 413.0)] {
        let instance = read_instance(&map, &scen, k, Moves::Four).unwrap();
        for weight in [1.05, 1.2, 1.5] {
            let settings = MapfSettings {
                weight,
                ..MapfSettings::default()
            };
            let outcome = run(&instance, MapfAlgorithm::Eecbs, &settings);
            assert_eq!(
                outcome.proof,
                Proof::Bounded(weight),
                "{k} agents, w {weight}"
            );
            let plan = outcome.plan.as_ref().unwrap();
            let cost = validate(&instance, plan)
                .unwrap_or_else(|e| panic!("{e}"))
                .sum_of_costs;
            assert!(
                cost >= optimum && cost <= weight * optimum + 1e-9,
                "{k} agents, w {weight}: {cost} against {optimum}"
            );
        }
    }
}

#[test]
fn eecbs_stops_when_cancelled() {
    let instance = scattered(10, 8, 7, 40, Moves::Four);
    let control = SearchControl::new();
    control.cancel();
    let outcome = solve(
        &instance,
        MapfAlgorithm::Eecbs,
        &MapfSettings::default(),
        &control,
    )
    .unwrap();
    assert_eq!(outcome.proof, Proof::Cancelled);
    assert!(outcome.plan.is_none());
}

#[test]
fn tables_past_the_memory_budget_are_refused_before_any_work() {
    // 2,048² open cells at two bytes a cell is 8 MiB a table: 520 agents need 4.06 GiB.
    let side = 2048u32;
    let row = ".".repeat(side as usize);
    let rows: Vec<&str> = (0..side).map(|_| row.as_str()).collect();
    let agents: Vec<Ends> = (0..520).map(|i| ((i, 0), (i, side - 1))).collect();
    let big = instance(&rows, &agents, Moves::Four);
    assert_eq!(table_memory(&big), 520 * 2048 * 2048 * 2);
    let control = SearchControl::new();
    let error = solve(
        &big,
        MapfAlgorithm::Pibt,
        &MapfSettings::default(),
        &control,
    )
    .unwrap_err();
    assert!(
        matches!(error, MapfError::TooMuchMemory { agents: 520, .. }),
        "{error}"
    );
    assert!(error.to_string().contains("4.06 GiB"), "{error}");
    // Refused before the search: it expanded nothing.
    assert_eq!(control.expanded(), 0);
    // 500 agents fit (3.91 GiB) and weighted tables take eight bytes and a bit a cell.
    assert!(table_memory(&big.first(500)) <= MAPF_TABLE_BUDGET);
    let diagonal = instance(&rows[..4], &[((0, 0), (3, 3))], Moves::EightNoCut);
    assert_eq!(
        table_memory(&diagonal),
        (4.0 * 2048.0 * 8.125f64).ceil() as u64
    );
}

#[test]
fn a_table_widens_when_a_goal_lies_more_than_65535_moves_away() {
    // A serpentine of 201 corridors of 400 cells joined at alternate ends: the far end is
    // 201 × 400 − 1 + 200 = 80,599 moves from the start, past two bytes.
    let (width, corridors) = (400usize, 201usize);
    let mut rows = Vec::new();
    for k in 0..corridors {
        rows.push(".".repeat(width));
        if k + 1 < corridors {
            let mut wall = vec!['#'; width];
            wall[if k % 2 == 0 { width - 1 } else { 0 }] = '.';
            rows.push(wall.into_iter().collect());
        }
    }
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let last = (rows.len() - 1) as u32;
    let end_x = if (corridors - 1) % 2 == 0 {
        width - 1
    } else {
        0
    } as u32;
    let one = instance(&rows, &[((0, 0), (end_x, last))], Moves::Four);
    let expected = (corridors * width - 1 + (corridors - 1)) as f64;
    assert_eq!(lower_bound(&one), expected);
    let settings = MapfSettings {
        anytime: false,
        ..MapfSettings::default()
    };
    let outcome = run(&one, MapfAlgorithm::Lacam, &settings);
    assert_eq!(outcome.summary.unwrap().sum_of_costs, expected);
}

#[test]
fn lacam_star_counts_what_it_holds_not_everything_it_ever_made() {
    // Constraints tried are dropped: a limit on what the search holds at once must not stop
    // it for what it made and let go, as it did when every entry ever made was counted.
    let instance = scattered(8, 6, 5, 2, Moves::Four);
    // Without the scattered paths, which change the search this test counts.
    let settings = MapfSettings {
        scatter: false,
        ..MapfSettings::default()
    };
    let within = |max_cells: usize| {
        lacam::run_within(
            &instance,
            &settings,
            &SearchControl::new(),
            graph::Distances::for_goals_of(&instance),
            max_cells,
        )
    };
    let (free, kept) = within(LACAM_MAX_CELLS);
    assert_eq!(free.proof, Proof::OptimalLoss);
    assert!(kept.made > 2 * kept.peak, "{kept:?}");
    let cost = free
        .plan
        .as_ref()
        .map(|p| validate(&instance, p).unwrap().sum_of_costs);
    // Held to exactly its peak, it proves the same plan; a little less, and it stops short.
    let (bounded, _) = within(kept.peak);
    assert_eq!(bounded.proof, Proof::OptimalLoss);
    let bounded_cost = bounded
        .plan
        .as_ref()
        .map(|p| validate(&instance, p).unwrap().sum_of_costs);
    assert_eq!(bounded_cost, cost);
    let (short, _) = within(kept.peak - 1);
    assert_ne!(short.proof, Proof::OptimalLoss);
}
