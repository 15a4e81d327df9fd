//! Turn penalties: a cost for every 45° a path turns, so that a unit that pays to change
//! direction gets a path with fewer zig-zags. With a penalty the cost of a step depends on the
//! step before it, so the search runs exactly in the state space of (cell, heading): A* (or
//! Dijkstra) over up to nine states per cell — the eight headings and "not moved yet" at the
//! start — with the grid's heuristic, which stays admissible since penalties only add cost.
//!
//! On maps of up to [`FLAT_STATES_UP_TO`] cells the states live in flat arrays (9 bytes a
//! state: its cost and the heading it came from); on larger ones in a hash map, so memory
//! follows the states the search reaches rather than nine times the map.
//!
//! ```
//! use gridpath_core::grid::{Cell, Grid};
//! use gridpath_core::search::{Diagonal, SearchRequest, solve};
//!
//! // On an open field with 4-connected moves every staircase costs the same: a turn penalty
//! // picks the path with one turn.
//! let grid = Grid::from_ascii(&["......"; 6]).expect("a valid map");
//! let request = SearchRequest::new(Cell::new(0, 0), Cell::new(5, 5))
//!     .with_diagonal(Diagonal::Never)
//!     .with_turn_penalty(0.5);
//! let result = solve(&grid, &request).expect("plans");
//! assert_eq!(result.cost, 10.0 + 2.0 * 0.5, "ten steps and one 90° turn");
//! ```

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

use crate::grid::Cell;

use super::control::SearchControl;
use super::graph::SearchGraph;
use super::request::{Algorithm, Heuristic, SearchError, SearchRequest, SearchResult, Stats};

/// Each direction of the graph (`graph::DX`/`DY` order: E, W, S, N, NE, NW, SE, SW) as a
/// multiple of 45° counted round the compass.
const ANGLE: [u8; 8] = [0, 4, 2, 6, 7, 5, 1, 3];

/// The heading of a state at the start, before any step.
const UNMOVED: u8 = 8;

/// How many 45° turns lie between two headings (0 to 4); none from the start.
pub(crate) fn turns(from: u8, to: u8) -> u32 {
    if from == UNMOVED {
        return 0;
    }
    let a = ANGLE[usize::from(from)];
    let b = ANGLE[usize::from(to)];
    let d = u32::from(a.abs_diff(b));
    d.min(8 - d)
}

/// An open state: its f, its g and its key.
#[derive(Clone, Copy)]
struct Open {
    f: f64,
    g: f64,
    state: u64,
}

impl PartialEq for Open {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Open {}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Open {
    /// The heap pops the smallest f first, ties to the larger g (deeper first).
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .f
            .total_cmp(&self.f)
            .then_with(|| self.g.total_cmp(&other.g))
    }
}

fn key(cell: usize, heading: u8) -> u64 {
    cell as u64 * 9 + u64::from(heading)
}

fn split(state: u64) -> (usize, u8) {
    ((state / 9) as usize, (state % 9) as u8)
}

/// The largest map (in cells) whose states the search keeps in flat arrays: 9 states a cell
/// at 9 bytes each, so at most about 330 MB.
pub const FLAT_STATES_UP_TO: usize = 1 << 22;

/// No heading recorded: a state not reached yet, or the start.
const NONE: u8 = u8::MAX;

/// Where the search keeps each state's best cost and the heading of the state it came from.
trait States {
    /// The best cost known, infinite for a state not reached.
    fn cost(&self, state: u64) -> f64;
    /// Records a better cost and the heading it came from.
    fn set(&mut self, state: u64, cost: f64, from: u8);
    /// The heading the state came from, [`NONE`] at the start.
    fn from(&self, state: u64) -> u8;
}

/// Flat arrays over every (cell, heading).
struct Flat {
    cost: Vec<f64>,
    from: Vec<u8>,
}

impl States for Flat {
    #[inline]
    fn cost(&self, state: u64) -> f64 {
        self.cost[state as usize]
    }
    #[inline]
    fn set(&mut self, state: u64, cost: f64, from: u8) {
        self.cost[state as usize] = cost;
        self.from[state as usize] = from;
    }
    #[inline]
    fn from(&self, state: u64) -> u8 {
        self.from[state as usize]
    }
}

/// A multiplicative hash of the state key (the keys are dense integers; no attacker
/// chooses them), much faster than the standard library's default.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(26);
    }
}

/// A hash map of the states reached.
type Hashed = HashMap<u64, (f64, u8), BuildHasherDefault<KeyHasher>>;

impl States for Hashed {
    #[inline]
    fn cost(&self, state: u64) -> f64 {
        self.get(&state).map_or(f64::INFINITY, |&(c, _)| c)
    }
    #[inline]
    fn set(&mut self, state: u64, cost: f64, from: u8) {
        self.insert(state, (cost, from));
    }
    #[inline]
    fn from(&self, state: u64) -> u8 {
        self.get(&state).map_or(NONE, |&(_, f)| f)
    }
}

/// Plans with a turn penalty: A* (weighted when the request says so) or Dijkstra over (cell,
/// heading). The request was checked; its `turn_penalty` is positive.
pub(crate) fn search(
    graph: &SearchGraph,
    request: &SearchRequest,
    control: &SearchControl,
) -> Result<SearchResult, SearchError> {
    if !matches!(request.algorithm, Algorithm::AStar | Algorithm::Dijkstra) {
        return Err(SearchError::TurnPenaltyUnsupported {
            algorithm: request.algorithm,
        });
    }
    if graph.len() <= FLAT_STATES_UP_TO {
        let states = Flat {
            cost: vec![f64::INFINITY; graph.len() * 9],
            from: vec![NONE; graph.len() * 9],
        };
        search_in(graph, request, control, states)
    } else {
        search_in(graph, request, control, Hashed::default())
    }
}

fn search_in(
    graph: &SearchGraph,
    request: &SearchRequest,
    control: &SearchControl,
    mut states: impl States,
) -> Result<SearchResult, SearchError> {
    let started = Instant::now();
    let mut stats = Stats::default();
    let penalty = request.turn_penalty;
    let goal = graph.index(request.goal);
    let (heuristic, weight) = if request.algorithm == Algorithm::AStar {
        (request.effective_heuristic(), request.weight)
    } else {
        (Heuristic::Zero, 1.0)
    };
    let scale = graph.min_cost() * weight;
    let h =
        |cell: usize| super::partial::distance(heuristic, graph.cell(cell), request.goal) * scale;
    let start = key(graph.index(request.start), UNMOVED);
    let mut open = BinaryHeap::new();
    states.set(start, 0.0, NONE);
    open.push(Open {
        f: h(graph.index(request.start)),
        g: 0.0,
        state: start,
    });
    let mut reached = None;
    while let Some(Open { g: cost, state, .. }) = open.pop() {
        if cost > states.cost(state) {
            continue;
        }
        let (cell, heading) = split(state);
        stats.expanded += 1;
        if control.should_stop(stats.expanded) {
            return Err(SearchError::Cancelled);
        }
        if cell == goal {
            reached = Some((state, cost));
            break;
        }
        let mut mask = graph.mask(cell);
        while mask != 0 {
            let d = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let next_cell = cell.wrapping_add_signed(graph.delta(d));
            let step = graph.step_cost(cell, next_cell, d);
            let next_cost = cost + step + penalty * f64::from(turns(heading, d as u8));
            let next = key(next_cell, d as u8);
            if next_cost < states.cost(next) {
                states.set(next, next_cost, heading);
                open.push(Open {
                    f: next_cost + h(next_cell),
                    g: next_cost,
                    state: next,
                });
                stats.pushed += 1;
                stats.max_open = stats.max_open.max(open.len() as u64);
            }
        }
    }
    let (path, cost) = match reached {
        Some((mut state, cost)) => {
            let mut cells = vec![split(state).0];
            loop {
                let (cell, heading) = split(state);
                let from = states.from(state);
                if heading == UNMOVED || from == NONE {
                    break;
                }
                // The state before: one step back against `heading`, facing `from`.
                let before = cell.wrapping_add_signed(-graph.delta(usize::from(heading)));
                cells.push(before);
                state = key(before, from);
            }
            cells.reverse();
            (Some(cells), cost)
        }
        None => (None, 0.0),
    };
    stats.time_us = started.elapsed().as_micros() as u64;
    let mut result = super::outcome::result(graph, request, path, stats, None);
    // The steps' cost plus the turns'.
    result.cost = cost;
    Ok(result)
}

/// The cost of a path under a turn penalty: its steps, plus the penalty for every 45° turn.
pub fn path_cost_with_turns(graph: &SearchGraph, path: &[Cell], penalty: f64) -> Option<f64> {
    let (mut cost, _) = graph.path_cost(path)?;
    let mut heading = UNMOVED;
    for pair in path.windows(2) {
        let d = SearchGraph::direction(pair[0], pair[1])? as u8;
        cost += penalty * f64::from(turns(heading, d));
        heading = d;
    }
    Some(cost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::graph::{DX, DY};

    #[test]
    fn flat_arrays_and_the_hash_map_plan_alike() {
        let grid = crate::grid::Grid::from_ascii(&[
            "..~~....#.....",
            ".#~~.##.#.==..",
            ".#....#...#...",
            ".####.#.###.#.",
            "......#.....#.",
        ])
        .unwrap();
        for &diagonal in crate::search::Diagonal::ALL {
            let graph = SearchGraph::new(&grid, diagonal);
            let request = SearchRequest::new(Cell::new(0, 0), Cell::new(13, 4))
                .with_diagonal(diagonal)
                .with_turn_penalty(0.7);
            let control = SearchControl::new();
            let n = graph.len() * 9;
            let flat = Flat {
                cost: vec![f64::INFINITY; n],
                from: vec![NONE; n],
            };
            let a = search_in(&graph, &request, &control, flat).unwrap();
            let b = search_in(&graph, &request, &control, Hashed::default()).unwrap();
            assert!(a.found, "{diagonal}");
            assert_eq!((a.cost, &a.path), (b.cost, &b.path), "{diagonal}");
            let recomputed = path_cost_with_turns(&graph, &a.path, 0.7).unwrap();
            assert!((recomputed - a.cost).abs() < 1e-9, "{diagonal}");
        }
    }

    #[test]
    fn turns_count_45_degree_steps_round_the_compass() {
        for a in 0..8u8 {
            assert_eq!(turns(a, a), 0);
            assert_eq!(turns(UNMOVED, a), 0);
            for b in 0..8u8 {
                // The angle between the two step vectors, in multiples of 45°.
                let (ax, ay) = (f64::from(DX[usize::from(a)]), f64::from(DY[usize::from(a)]));
                let (bx, by) = (f64::from(DX[usize::from(b)]), f64::from(DY[usize::from(b)]));
                let angle = ((ax * bx + ay * by) / (ax.hypot(ay) * bx.hypot(by)))
                    .clamp(-1.0, 1.0)
                    .acos();
                let expected = (angle / std::f64::consts::FRAC_PI_4).round() as u32;
                assert_eq!(turns(a, b), expected, "{a} → {b}");
            }
        }
    }
}
