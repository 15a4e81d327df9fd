//! One agent's cheapest timed path among rules that depend on time: A* over (cell, tick),
//! shared by conflict-based search (its constraints), and cooperative A* (its reservation
//! table). Ties between equally cheap states go to the one with fewer conflicts with the
//! other agents' paths (the conflict avoidance table), then to the deeper one.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::graph::{FastMap, MoveGraph, NONE};

/// The most states one low-level search may generate before it gives up.
pub(crate) const MAX_STATES: usize = 4 << 20;

/// What the time-dependent rules of one agent's search are.
pub(crate) trait Rules {
    /// Whether the agent may be on `v` at tick `t`.
    fn allows_vertex(&self, v: u32, t: u32) -> bool;
    /// Whether the agent may move (or wait, `u == v`) from `u` to `v` arriving at tick `t`.
    fn allows_move(&self, u: u32, v: u32, t: u32) -> bool;
    /// How many conflicts with the other agents the move `u` → `v` arriving at `t` makes.
    fn conflicts(&self, _u: u32, _v: u32, _t: u32) -> u32 {
        0
    }
    /// Whether an agent on its goal at tick `t` may end its path there (stay for ever, or to
    /// the end of the window).
    fn may_end(&self, goal: u32, t: u32) -> bool;
    /// Whether an agent on `v` at tick `t` can still meet the rules' demands to be somewhere
    /// later (judged by a lower bound on the moves between).
    fn reachable(&self, _v: u32, _t: u32) -> bool {
        true
    }
    /// A lower bound on the cost still to pay after tick `t` that the rules' demands alone
    /// impose (a consistent estimate, as `t` grows).
    fn least_after(&self, _t: u32) -> f64 {
        0.0
    }
    /// The tick from which no rule depends on time any more: states later than this are
    /// equivalent to their cell at this tick.
    fn horizon(&self) -> u32;
    /// The last tick searched, when the search is windowed: a state at this tick ends the
    /// path, priced with the distance left.
    fn window_end(&self) -> Option<u32> {
        None
    }
}

/// The answer of a low-level search.
#[derive(Debug, PartialEq)]
pub(crate) enum LowLevel {
    /// The cells from tick 0 to the last, and the cost (moves and waits up to the last tick).
    Found(Vec<u32>, f64),
    /// No path honours the rules.
    NoPath,
    /// The search generated [`MAX_STATES`] states without an answer.
    Exhausted,
    /// The solver's time ran out, or it was cancelled, during the search.
    Stopped,
}

/// How often, in expansions, a low-level search asks whether it must stop.
const STOP_CHECK: u32 = 1024;

/// A state in the open list, ordered by one packed key: f (a cost is never negative, so its
/// bits sort as the numbers do), then the conflicts, then the tick reversed (the deeper first),
/// the least first; then the state generated first.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Open {
    key: u128,
    index: u32,
}

impl Open {
    fn new(f: f64, conflicts: u32, t: u32, index: u32) -> Self {
        let key = (u128::from(f.to_bits()) << 64)
            | (u128::from(conflicts) << 32)
            | u128::from(u32::MAX - t);
        Open { key, index }
    }
}

impl Ord for Open {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed for the max-heap.
        other
            .key
            .cmp(&self.key)
            .then_with(|| other.index.cmp(&self.index))
    }
}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

struct State {
    v: u32,
    t: u32,
    g: f64,
    conflicts: u32,
    parent: u32,
}

/// The cheapest path from `start` to `goal` under `rules`, the distances to the goal given by
/// `distance` (a consistent estimate).
pub(crate) fn search(
    graph: &MoveGraph,
    start: u32,
    goal: u32,
    rules: &impl Rules,
    stop: &dyn Fn() -> bool,
    mut distance: impl FnMut(u32) -> f64,
) -> LowLevel {
    let mut expansions = 0u32;
    if !rules.allows_vertex(start, 0) {
        return LowLevel::NoPath;
    }
    let horizon = rules.horizon();
    let window = rules.window_end();
    let mut states = vec![State {
        v: start,
        t: 0,
        g: 0.0,
        conflicts: 0,
        parent: NONE,
    }];
    // Sized for a short search: growing the table costs more than a larger start.
    let mut best: FastMap<(u32, u32), (f64, u32)> =
        FastMap::with_capacity_and_hasher(1024, Default::default());
    best.insert((start, 0), (0.0, 0));
    let mut open = BinaryHeap::with_capacity(1024);
    states.reserve(1024);
    open.push(Open::new(distance(start), 0, 0, 0));
    while let Some(Open { index, .. }) = open.pop() {
        let (v, t, g, conflicts) = {
            let s = &states[index as usize];
            (s.v, s.t, s.g, s.conflicts)
        };
        let key = (v, t.min(horizon));
        if best
            .get(&key)
            .is_some_and(|&(bg, bc)| (bg, bc) < (g, conflicts))
        {
            continue;
        }
        let at_window_end = window.is_some_and(|w| t >= w);
        if (v == goal && rules.may_end(goal, t)) || at_window_end {
            let mut path = Vec::with_capacity(t as usize + 1);
            let mut at = index;
            while at != NONE {
                path.push(states[at as usize].v);
                at = states[at as usize].parent;
            }
            path.reverse();
            return LowLevel::Found(path, g);
        }
        if states.len() >= MAX_STATES {
            return LowLevel::Exhausted;
        }
        expansions = expansions.wrapping_add(1);
        if expansions.is_multiple_of(STOP_CHECK) && stop() {
            return LowLevel::Stopped;
        }
        let next_t = t + 1;
        for &n in graph.neighbours(v).iter().chain(std::iter::once(&v)) {
            if !rules.allows_vertex(n, next_t)
                || !rules.allows_move(v, n, next_t)
                || !rules.reachable(n, next_t)
            {
                continue;
            }
            let h = distance(n).max(rules.least_after(next_t));
            if h.is_infinite() {
                continue;
            }
            let ng = g + graph.step_cost(v, n);
            let nc = conflicts + rules.conflicts(v, n, next_t);
            let key = (n, next_t.min(horizon));
            if let Some(&(bg, bc)) = best.get(&key)
                && (bg, bc) <= (ng, nc)
            {
                continue;
            }
            // After the horizon a wait goes nowhere new.
            if n == v && t >= horizon && window.is_none() {
                continue;
            }
            best.insert(key, (ng, nc));
            let child = states.len() as u32;
            states.push(State {
                v: n,
                t: next_t,
                g: ng,
                conflicts: nc,
                parent: index,
            });
            open.push(Open::new(ng + h, nc, next_t, child));
        }
    }
    LowLevel::NoPath
}

/// A state's place in the focal search's lists: f as its bits (f ≥ 0, so the bits sort as the
/// numbers do), then the state.
type Keyed = (u64, u32);

/// Focal search (Pearl and Kim 1982), the low level of ECBS: among the states whose f is
/// within `weight` × the least f in the open list, the one with the fewest conflicts is
/// expanded first. Returns the path, its cost, and the least f when it was found — a lower
/// bound on the agent's cheapest cost under the rules.
pub(crate) fn focal_search(
    graph: &MoveGraph,
    start: u32,
    goal: u32,
    rules: &impl Rules,
    weight: f64,
    stop: &dyn Fn() -> bool,
    mut distance: impl FnMut(u32) -> f64,
) -> (LowLevel, f64) {
    let mut expansions = 0u32;
    use std::cmp::Reverse;
    use std::collections::BTreeSet;

    let h0 = distance(start);
    if !rules.allows_vertex(start, 0) || h0.is_infinite() {
        return (LowLevel::NoPath, f64::INFINITY);
    }
    let horizon = rules.horizon();
    let mut states = vec![State {
        v: start,
        t: 0,
        g: 0.0,
        conflicts: 0,
        parent: NONE,
    }];
    let mut best: FastMap<(u32, u32), (f64, u32)> = FastMap::default();
    best.insert((start, 0), (0.0, 0));
    let mut open: BTreeSet<Keyed> = BTreeSet::new();
    let mut focal: BinaryHeap<Reverse<(u32, u64, u32)>> = BinaryHeap::new();
    open.insert((h0.to_bits(), 0));
    focal.push(Reverse((0, h0.to_bits(), 0)));
    let mut bound = weight * h0;
    while let Some(&(f_min_bits, _)) = open.first() {
        let f_min = f64::from_bits(f_min_bits);
        if weight * f_min > bound {
            let old = bound;
            bound = weight * f_min;
            for &(fb, i) in open.range((old.to_bits() + 1, 0)..) {
                if f64::from_bits(fb) > bound {
                    break;
                }
                focal.push(Reverse((states[i as usize].conflicts, fb, i)));
            }
        }
        let Some(Reverse((_, fb, index))) = focal.pop() else {
            break;
        };
        if !open.remove(&(fb, index)) {
            continue;
        }
        let (v, t, g, conflicts) = {
            let s = &states[index as usize];
            (s.v, s.t, s.g, s.conflicts)
        };
        if v == goal && rules.may_end(goal, t) {
            let mut path = Vec::with_capacity(t as usize + 1);
            let mut at = index;
            while at != NONE {
                path.push(states[at as usize].v);
                at = states[at as usize].parent;
            }
            path.reverse();
            return (LowLevel::Found(path, g), f_min);
        }
        if states.len() >= MAX_STATES {
            return (LowLevel::Exhausted, f_min);
        }
        expansions = expansions.wrapping_add(1);
        if expansions.is_multiple_of(STOP_CHECK) && stop() {
            return (LowLevel::Stopped, f_min);
        }
        let next_t = t + 1;
        for &n in graph.neighbours(v).iter().chain(std::iter::once(&v)) {
            if !rules.allows_vertex(n, next_t) || !rules.allows_move(v, n, next_t) {
                continue;
            }
            let h = distance(n);
            if h.is_infinite() || (n == v && t >= horizon) {
                continue;
            }
            let ng = g + graph.step_cost(v, n);
            let nc = conflicts + rules.conflicts(v, n, next_t);
            let key = (n, next_t.min(horizon));
            if let Some(&(bg, bc)) = best.get(&key)
                && bg <= ng
                && bc <= nc
            {
                continue;
            }
            best.insert(key, (ng, nc));
            let child = states.len() as u32;
            states.push(State {
                v: n,
                t: next_t,
                g: ng,
                conflicts: nc,
                parent: index,
            });
            let f = ng + h;
            open.insert((f.to_bits(), child));
            if f <= bound {
                focal.push(Reverse((nc, f.to_bits(), child)));
            }
        }
    }
    (LowLevel::NoPath, f64::INFINITY)
}
