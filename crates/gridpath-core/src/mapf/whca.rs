//! Windowed hierarchical cooperative A* (Silver 2005), the method game tutorials teach:
//! agents plan one after another through a reservation table of (cell, tick) pairs, each
//! avoiding the cells and moves reserved by the agents before it, but only for the next
//! *window* ticks; beyond the window the true distance to the goal (the "hierarchical"
//! estimate) prices what is left. The team follows half of each window, then plans again
//! with the order rotated, so every agent gets its turn to go first.
//!
//! Fast and simple, but incomplete and without a bound on the cost: an agent boxed in by
//! the reservations before it gets the first turn and the window is planned again; when that
//! fails too, or the team has not arrived after a bounded number of ticks, it gives up.

use super::graph::{Distances, FastSet, MoveGraph};
use super::model::Instance;
use super::outcome::{MapfOutcome, MapfSettings, Proof};
use super::plan::Plan;
use super::setup;
use super::space_time::{self, LowLevel, Rules};
use crate::search::SearchControl;

/// The most cells a plan of WHCA* may hold (agents × ticks): beyond, it gives up.
pub const WHCA_MAX_CELLS: usize = 64 << 20;

/// The most ticks WHCA* plans per cell of the map (and at least 1024 ticks), within
/// [`WHCA_MAX_CELLS`]: beyond, it gives up.
pub const WHCA_TICKS_PER_CELL: usize = 16;

/// The reservations of one window, ticks counted from its start.
#[derive(Default)]
struct Reservations {
    cells: FastSet<(u32, u32)>,
    moves: FastSet<(u32, u32, u32)>,
}

/// One agent's view of the reservations.
struct WindowRules<'a> {
    graph: &'a MoveGraph,
    reserved: &'a Reservations,
    window: u32,
}

impl Rules for WindowRules<'_> {
    fn allows_vertex(&self, v: u32, t: u32) -> bool {
        !self.reserved.cells.contains(&(v, t))
    }

    fn allows_move(&self, u: u32, v: u32, t: u32) -> bool {
        if u == v {
            return true;
        }
        if self.reserved.moves.contains(&(v, u, t)) {
            return false;
        }
        match self.graph.diagonal_sides(u, v) {
            Some((a, b)) => {
                !(self.reserved.moves.contains(&(a, b, t))
                    || self.reserved.moves.contains(&(b, a, t)))
            }
            None => true,
        }
    }

    fn may_end(&self, goal: u32, t: u32) -> bool {
        (t..=self.window).all(|s| !self.reserved.cells.contains(&(goal, s)))
    }

    fn horizon(&self) -> u32 {
        self.window
    }

    fn window_end(&self) -> Option<u32> {
        Some(self.window)
    }
}

/// Windowed cooperative A*.
pub(crate) fn run(
    instance: &Instance,
    settings: &MapfSettings,
    control: &SearchControl,
    distances: Distances,
) -> MapfOutcome {
    let (budget, graph, (starts, goals)) = setup::begin(instance, settings, control);
    let mut distances = distances;
    if let Some(outcome) = setup::unreachable((&budget, &graph), &starts, &mut distances) {
        return outcome;
    }
    let mut outcome = MapfOutcome::without_plan(Proof::GaveUp);
    let agents = starts.len();
    let window = settings.window;
    let step = window.div_ceil(2) as usize;
    let max_ticks =
        (WHCA_MAX_CELLS / agents.max(1)).min((WHCA_TICKS_PER_CELL * graph.len()).max(1024));
    // Farthest from its goal first.
    let mut order: Vec<usize> = (0..agents).collect();
    order.sort_by(|&a, &b| {
        distances
            .get(&graph, b, starts[b])
            .total_cmp(&distances.get(&graph, a, starts[a]))
    });
    let mut configs = vec![starts];
    'rounds: while let Some(now) = configs.last().cloned() {
        if now == goals {
            let cells: Vec<Vec<_>> = configs
                .iter()
                .map(|c| c.iter().map(|&v| graph.cell(v)).collect())
                .collect();
            outcome.plan = Some(Plan::from_configurations(&cells).normalised());
            outcome.proof = Proof::Feasible;
            outcome.first_plan_time = Some(budget.elapsed());
            break;
        }
        if configs.len() > max_ticks {
            break;
        }
        let mut retries = 0;
        let paths = loop {
            outcome.expanded += 1;
            if budget.exhausted(outcome.expanded) {
                outcome.proof = budget.stopped().unwrap_or(Proof::TimedOut);
                break 'rounds;
            }
            let mut reserved = Reservations::default();
            let mut paths: Vec<Vec<u32>> = vec![Vec::new(); agents];
            let mut stuck = None;
            for &i in &order {
                let rules = WindowRules {
                    graph: &graph,
                    reserved: &reserved,
                    window,
                };
                let stop = || budget.interrupted();
                let found = space_time::search(&graph, now[i], goals[i], &rules, &stop, |v| {
                    distances.get(&graph, i, v)
                });
                if found == LowLevel::Stopped {
                    outcome.proof = budget.stopped().unwrap_or(Proof::TimedOut);
                    break 'rounds;
                }
                let LowLevel::Found(mut path, _) = found else {
                    stuck = Some(i);
                    break;
                };
                let last = path.last().copied().unwrap_or(now[i]);
                path.resize(window as usize + 1, last);
                for (t, &v) in path.iter().enumerate() {
                    reserved.cells.insert((v, t as u32));
                    if t > 0 && path[t - 1] != v {
                        reserved.moves.insert((path[t - 1], v, t as u32));
                    }
                }
                paths[i] = path;
            }
            match stuck {
                None => break paths,
                Some(i) if retries < agents.min(64) => {
                    retries += 1;
                    order.retain(|&a| a != i);
                    order.insert(0, i);
                }
                Some(_) => break 'rounds,
            }
        };
        for t in 1..=step {
            configs.push(paths.iter().map(|p| p[t]).collect());
        }
        order.rotate_left(1);
    }
    outcome.conclude(&budget);
    outcome
}
