//! Why a solver stopped ([`StopReason`]) and whether it stops when told to inside its long
//! loops: the distance tables, PIBT's pass over the agents and LaCAM's node generation.

#![allow(clippy::unwrap_used)] // Tests fail loudly on broken test data.

use std::time::Duration;

use super::*;
use crate::grid::{Cell, Grid};

/// A start and a goal as `((x, y), (x, y))`.
type Ends = ((u32, u32), (u32, u32));

fn instance(rows: &[&str], ends: &[Ends]) -> Instance {
    let grid = Grid::from_ascii(rows).unwrap();
    let agents = ends
        .iter()
        .map(|&((sx, sy), (gx, gy))| Agent {
            start: Cell::new(sx, sy),
            goal: Cell::new(gx, gy),
        })
        .collect();
    Instance::new(grid, agents, Moves::Four).unwrap()
}

/// An open map of `side` × `side` cells with `agents` agents, each going to the mirror cell
/// of its start: a crowd that crosses in the middle.
pub(super) fn crossing(side: u32, agents: u32) -> Instance {
    let row = ".".repeat(side as usize);
    let rows: Vec<&str> = (0..side).map(|_| row.as_str()).collect();
    let grid = Grid::from_ascii(&rows).unwrap();
    let team = (0..agents)
        .map(|i| {
            let (x, y) = (i % side, i / side);
            Agent {
                start: Cell::new(x, y),
                goal: Cell::new(side - 1 - x, side - 1 - y),
            }
        })
        .collect();
    Instance::new(grid, team, Moves::Four).unwrap()
}

#[test]
fn a_tiny_instance_lacam_star_proves_says_proved_optimal() {
    let siding = instance(&["....", "#.##"], &[((0, 0), (3, 0)), ((3, 0), (0, 0))]);
    let outcome = solve(
        &siding,
        MapfAlgorithm::Lacam,
        &MapfSettings::default(),
        &SearchControl::new(),
    )
    .unwrap();
    assert_eq!(outcome.proof, Proof::OptimalLoss);
    assert_eq!(outcome.stopped, StopReason::ProvedOptimal);
    assert_eq!(
        outcome
            .stopped
            .describe(Duration::from_secs(10), outcome.expanded),
        "stopped: proved optimal"
    );
}

#[test]
fn an_impossible_instance_says_it_searched_everything() {
    let corridor = instance(&["...."], &[((0, 0), (3, 0)), ((3, 0), (0, 0))]);
    let outcome = solve(
        &corridor,
        MapfAlgorithm::Lacam,
        &MapfSettings::default(),
        &SearchControl::new(),
    )
    .unwrap();
    assert_eq!(outcome.proof, Proof::NoSolution);
    assert_eq!(outcome.stopped, StopReason::SearchedEverything);
    assert_eq!(outcome.stopped.name(), "searched-everything");
    // PIBT cannot prove it: it gives up.
    let pibt = solve(
        &corridor,
        MapfAlgorithm::Pibt,
        &MapfSettings::default(),
        &SearchControl::new(),
    )
    .unwrap();
    assert_eq!(pibt.stopped, StopReason::GaveUp);
}

#[test]
fn a_tiny_time_limit_says_time_limit() {
    // LaCAM* cannot prove this crowd's plan optimal in a millisecond, nor CBS find one.
    let crowd = crossing(12, 60);
    let settings = MapfSettings {
        time_limit: Duration::from_millis(1),
        ..MapfSettings::default()
    };
    for algorithm in [MapfAlgorithm::Lacam, MapfAlgorithm::Cbs] {
        let outcome = solve(&crowd, algorithm, &settings, &SearchControl::new()).unwrap();
        assert_eq!(outcome.stopped, StopReason::TimeLimit, "{algorithm}");
        assert!(
            matches!(outcome.proof, Proof::Feasible | Proof::TimedOut),
            "{algorithm}: {:?}",
            outcome.proof
        );
        assert_eq!(
            outcome.stopped.describe(Duration::from_secs(10), 0),
            "stopped: time limit 10 s reached"
        );
    }
}

#[test]
fn lacam_at_its_memory_limit_says_memory_limit() {
    let crowd = crossing(10, 40);
    let (outcome, _) = lacam::run_within(
        &crowd,
        &MapfSettings::default(),
        &SearchControl::new(),
        graph::Distances::for_goals_of(&crowd),
        2_000,
    );
    assert_eq!(outcome.stopped, StopReason::MemoryLimit);
    assert!(
        outcome
            .stopped
            .describe(Duration::from_secs(10), outcome.expanded)
            .starts_with("stopped: memory limit reached after "),
    );
}

#[test]
fn a_cancelled_solver_says_cancelled() {
    let crowd = crossing(10, 40);
    let control = SearchControl::new();
    control.cancel();
    for algorithm in MapfAlgorithm::all() {
        let outcome = solve(&crowd, algorithm, &MapfSettings::default(), &control).unwrap();
        assert_eq!(outcome.stopped, StopReason::Cancelled, "{algorithm}");
    }
}

#[test]
fn the_lower_bound_stops_between_agents_when_cancelled() {
    // 400 agents, each table filled from scratch: the control is asked before every 16
    // agents, and cancelled at the second ask, so the solver never starts.
    let crowd = crossing(40, 400);
    let control = SearchControl::new();
    control.cancel_at_poll(2);
    let outcome = solve(
        &crowd,
        MapfAlgorithm::Lacam,
        &MapfSettings::default(),
        &control,
    )
    .unwrap();
    assert_eq!(outcome.proof, Proof::Cancelled);
    assert_eq!(outcome.stopped, StopReason::Cancelled);
    assert_eq!(control.expanded(), 0, "the search never began");
    assert_eq!(control.polls(), 3, "two asks in the loop, one after it");
    // What it summed before stopping is still a bound: the first 16 agents' distances.
    assert!(outcome.lower_bound > 0.0 && outcome.lower_bound < lower_bound(&crowd));
}

#[test]
fn a_pibt_tick_stops_partway_through_the_agents_when_cancelled() {
    let crowd = crossing(40, 400);
    let graph = graph::MoveGraph::new(&crowd);
    let (starts, goals) = graph.ends(&crowd);
    let order: Vec<u32> = (0..400).collect();
    let tick = |control: &SearchControl| {
        let budget = outcome::Budget::new(MAX_TIME_LIMIT, control);
        let mut distances = graph::Distances::for_goals_of(&crowd);
        let mut pibt = pibt::Pibt::new(graph.len(), goals.clone(), 0);
        let next = pibt.next((&graph, &budget), &mut distances, &starts, &order, &[]);
        (next, budget.stopped())
    };
    // Left alone, it asks after every 16 agents and moves them all.
    let free = SearchControl::new();
    let (next, stopped) = tick(&free);
    assert!(next.is_some() && stopped.is_none());
    assert_eq!(free.polls(), 399 / 16);
    // Cancelled at the third ask, it stops there: after 48 of the 400 agents.
    let control = SearchControl::new();
    control.cancel_at_poll(3);
    let (next, stopped) = tick(&control);
    assert_eq!(next, None);
    assert_eq!(stopped, Some(Proof::Cancelled));
    assert_eq!(control.polls(), 3);
}

#[test]
fn lacam_stops_inside_its_first_node_generation_when_cancelled() {
    // 400 agents: LaCAM looks at the clock every 10 configurations, and PIBT every 16 agents
    // within each; cancelled at PIBT's first ask, LaCAM stops at its first configuration
    // rather than at its first checkpoint.
    let crowd = crossing(40, 400);
    let control = SearchControl::new();
    control.cancel_at_poll(1);
    let (outcome, _) = lacam::run_within(
        &crowd,
        &MapfSettings::default(),
        &control,
        graph::Distances::for_goals_of(&crowd),
        LACAM_MAX_CELLS,
    );
    assert_eq!(outcome.proof, Proof::Cancelled);
    assert_eq!(outcome.stopped, StopReason::Cancelled);
    assert_eq!(outcome.expanded, 1);
    assert_eq!(pibt::check_every(400), 10);
    assert_eq!(pibt::check_every(10), 64);
}
