//! Best-first search on `g_weight · g + h`: A*, weighted A*, Dijkstra (h = 0) and greedy
//! best-first (g_weight = 0) are this one loop with other weights.

use super::control::SearchControl;
use super::graph::{DX, DY, SearchGraph};
use super::heap::Entry;
use super::heuristic::Estimate;
use super::request::Stats;
use super::space::{NO_PARENT, Space};

/// How one best-first search ranks cells.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ranking {
    /// The heuristic towards the goal, already multiplied by the weight.
    pub estimate: Estimate,
    /// 1 for A* and Dijkstra, 0 for greedy best-first.
    pub g_weight: f64,
}

/// Runs a best-first search from `start` to `goal` (cell indices) in `space`. Returns whether
/// the goal was reached; the path is left in the parent links of `space`. Expanded cells are
/// appended to `order` when `RECORD` is set.
#[allow(clippy::too_many_arguments)]
pub(crate) fn best_first<const RECORD: bool>(
    graph: &SearchGraph,
    space: &mut Space,
    start: usize,
    goal: usize,
    ranking: Ranking,
    stats: &mut Stats,
    order: &mut Vec<u32>,
    control: &SearchControl,
) -> bool {
    match graph.uniform_cost() {
        Some(cost) => run::<RECORD, _>(
            graph,
            space,
            start,
            goal,
            ranking,
            stats,
            order,
            control,
            |_, _, d| super::graph::STEP_LENGTH[d] * cost,
        ),
        None => run::<RECORD, _>(
            graph,
            space,
            start,
            goal,
            ranking,
            stats,
            order,
            control,
            |from, to, d| graph.step_cost(from, to, d),
        ),
    }
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn run<const RECORD: bool, C: Fn(usize, usize, usize) -> f64>(
    graph: &SearchGraph,
    space: &mut Space,
    start: usize,
    goal: usize,
    ranking: Ranking,
    stats: &mut Stats,
    order: &mut Vec<u32>,
    control: &SearchControl,
    step_cost: C,
) -> bool {
    let width = graph.width() as usize;
    let Ranking { estimate, g_weight } = ranking;
    space.begin(graph.len());
    space.relax(start, 0.0, NO_PARENT);
    let (sx, sy) = ((start % width) as i32, (start / width) as i32);
    space
        .heap
        .push(Entry::new(estimate.at(sx, sy), 0.0, start as u32));
    let (mut expanded, mut pushed, mut max_open) = (0u64, 1u64, 1usize);
    let stamp = space.stamp;
    let mut found = false;
    while let Some(entry) = space.heap.pop() {
        let current = entry.cell as usize;
        let node = &mut space.nodes[current];
        if node.closed {
            continue;
        }
        node.closed = true;
        let g = node.g;
        expanded += 1;
        if RECORD {
            order.push(entry.cell);
        }
        if control.should_stop(expanded) {
            stats.cancelled = true;
            break;
        }
        if current == goal {
            found = true;
            break;
        }
        let (x, y) = ((current % width) as i32, (current / width) as i32);
        let mut mask = graph.mask(current);
        while mask != 0 {
            let d = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let next = (current as isize + graph.delta(d)) as usize;
            let ng = g + step_cost(current, next, d);
            let node = &mut space.nodes[next];
            let fresh = node.stamp != stamp;
            if fresh {
                *node = super::space::Node {
                    g: ng,
                    stamp,
                    parent: d as u8,
                    closed: false,
                };
            } else if !node.closed && ng < node.g {
                node.g = ng;
                node.parent = d as u8;
                if g_weight == 0.0 {
                    // Greedy ranks by h alone: the cell's place in the open list is unchanged.
                    continue;
                }
            } else {
                continue;
            }
            let h = estimate.at(x + DX[d], y + DY[d]);
            space
                .heap
                .push(Entry::new(g_weight * ng + h, ng, next as u32));
            pushed += 1;
            max_open = max_open.max(space.heap.len());
        }
    }
    stats.expanded += expanded;
    stats.pushed += pushed;
    stats.max_open = stats.max_open.max(max_open as u64);
    found
}
