//! Breadth-first search: the path with the fewest steps, whatever the terrain costs.

use std::collections::VecDeque;

use crate::control::SearchControl;
use crate::search::graph::SearchGraph;
use crate::search::outcome::walk_back;
use crate::search::request::Stats;
use crate::search::space::{NO_PARENT, Space};
use crate::search::workspace::{Query, Workspace};

/// Runs a breadth-first search from `start` to `goal` (cell indices). Returns whether the goal
/// was reached; the path is left in the parent links of `space`, `g` holds step counts.
#[expect(
    clippy::too_many_arguments,
    reason = "a search takes the graph, its state, the request's parts and the control apart, so that the hot loop borrows each on its own"
)]
pub(crate) fn bfs<const RECORD: bool>(
    graph: &SearchGraph,
    space: &mut Space,
    queue: &mut VecDeque<u32>,
    start: usize,
    goal: usize,
    stats: &mut Stats,
    order: &mut Vec<u32>,
    control: &SearchControl,
) -> bool {
    space.begin(graph.len());
    queue.clear();
    space.relax(start, 0.0, NO_PARENT);
    queue.push_back(start as u32);
    let (mut expanded, mut pushed, mut max_open) = (0u64, 1u64, 1usize);
    let mut found = false;
    while let Some(cell) = queue.pop_front() {
        let current = cell as usize;
        space.close(current);
        expanded += 1;
        if RECORD {
            order.push(cell);
        }
        if control.should_stop(expanded) {
            stats.cancelled = true;
            break;
        }
        if current == goal {
            found = true;
            break;
        }
        let steps = space.g[current] + 1.0;
        let mut mask = graph.mask(current);
        while mask != 0 {
            let d = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let next = (current as isize + graph.delta(d)) as usize;
            if !space.reached(next) {
                space.relax(next, steps, d as u8);
                queue.push_back(next as u32);
                pushed += 1;
                max_open = max_open.max(queue.len());
            }
        }
    }
    stats.expanded += expanded;
    stats.pushed += pushed;
    stats.max_open = stats.max_open.max(max_open as u64);
    found
}

/// Breadth-first search's run for the [registry](crate::search::algorithms).
pub(crate) fn run(
    ws: &mut Workspace,
    q: &Query<'_>,
    control: &SearchControl,
    stats: &mut Stats,
) -> Option<Vec<usize>> {
    let (graph, space, queue, order) = (q.graph, &mut ws.forward, &mut ws.queue, &mut ws.order);
    let found = if q.record() {
        bfs::<true>(graph, space, queue, q.start, q.goal, stats, order, control)
    } else {
        bfs::<false>(graph, space, queue, q.start, q.goal, stats, order, control)
    };
    found.then(|| walk_back(graph, &ws.forward, q.goal, q.start))
}
