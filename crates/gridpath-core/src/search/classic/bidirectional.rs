//! Bidirectional A*: one A* from the start towards the goal and one from the goal towards the
//! start, each expanding in turn (the one with the smaller open list first).
//!
//! Every time a cell gets a cost in one direction while the other has reached it, the two
//! costs add up to a path; `best` keeps the cheapest. The search stops only when no path
//! through the remaining frontiers can beat `best`: when the smallest f of either open list is
//! at least `best` (Pohl's rule — with a consistent heuristic, the smallest f of either open
//! list bounds every path not yet found from below). Stopping when the frontiers first touch,
//! as some libraries do, returns paths that can be far from optimal.

use crate::control::SearchControl;
use crate::search::frontier::heap::Entry;
use crate::search::graph::{DX, DY, SearchGraph};
use crate::search::heuristic::Estimate;
use crate::search::outcome::walk_back;
use crate::search::request::Stats;
use crate::search::space::{NO_PARENT, Space};
use crate::search::workspace::{Query, Workspace};

/// The outcome: the meeting cell when a path was found.
pub(crate) struct Meeting {
    pub cell: Option<usize>,
}

/// Runs bidirectional A* between `start` and `goal` (cell indices). The forward parent links
/// lead from the meeting cell back to the start, the backward ones from it to the goal.
#[expect(
    clippy::too_many_arguments,
    reason = "a search takes the graph, its state, the request's parts and the control apart, so that the hot loop borrows each on its own"
)]
pub(crate) fn bidirectional<const RECORD: bool>(
    graph: &SearchGraph,
    forward: &mut Space,
    backward: &mut Space,
    start: usize,
    goal: usize,
    to_goal: Estimate,
    to_start: Estimate,
    stats: &mut Stats,
    order: &mut Vec<u32>,
    control: &SearchControl,
) -> Meeting {
    let width = graph.width() as usize;
    let xy = |i: usize| ((i % width) as i32, (i / width) as i32);
    forward.begin(graph.len());
    backward.begin(graph.len());
    forward.relax(start, 0.0, NO_PARENT);
    backward.relax(goal, 0.0, NO_PARENT);
    let (sx, sy) = xy(start);
    let (gx, gy) = xy(goal);
    forward
        .heap
        .push(Entry::new(to_goal.at(sx, sy), 0.0, start as u32));
    backward
        .heap
        .push(Entry::new(to_start.at(gx, gy), 0.0, goal as u32));
    let mut best = if start == goal { 0.0 } else { f64::INFINITY };
    let mut meeting = (start == goal).then_some(start);
    let (mut expanded, mut pushed, mut max_open) = (0u64, 2u64, 2usize);
    loop {
        skip_closed(forward);
        skip_closed(backward);
        let (Some(top_f), Some(top_b)) = (forward.heap.peek(), backward.heap.peek()) else {
            break;
        };
        if top_f.priority().max(top_b.priority()) >= best {
            break;
        }
        let go_forward = forward.heap.len() <= backward.heap.len();
        let (this, other, estimate) = if go_forward {
            (&mut *forward, &*backward, to_goal)
        } else {
            (&mut *backward, &*forward, to_start)
        };
        let Some(entry) = this.heap.pop() else { break };
        let current = entry.cell() as usize;
        this.close(current);
        let g = this.g[current];
        expanded += 1;
        if RECORD {
            order.push(entry.cell());
        }
        if control.should_stop(expanded) {
            stats.cancelled = true;
            meeting = None;
            break;
        }
        let (x, y) = xy(current);
        let mut mask = graph.mask(current);
        while mask != 0 {
            let d = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let next = (current as isize + graph.delta(d)) as usize;
            // The backward search walks steps against their direction: it pays next → current.
            let step = if go_forward {
                graph.step_cost(current, next, d)
            } else {
                graph.step_cost_into(current, next, d)
            };
            let ng = g + step;
            if !this.relax(next, ng, d as u8) {
                continue;
            }
            let through = ng + other.g(next);
            if through < best {
                best = through;
                meeting = Some(next);
            }
            let h = estimate.at(x + DX[d], y + DY[d]);
            this.heap.push(Entry::new(ng + h, ng, next as u32));
            pushed += 1;
            max_open = max_open.max(forward_len_plus(this, other));
        }
    }
    stats.expanded += expanded;
    stats.pushed += pushed;
    stats.max_open = stats.max_open.max(max_open as u64);
    Meeting { cell: meeting }
}

fn forward_len_plus(a: &Space, b: &Space) -> usize {
    a.heap.len() + b.heap.len()
}

/// Drops entries of closed cells from the top of a space's open list.
fn skip_closed(space: &mut Space) {
    while let Some(top) = space.heap.peek() {
        if !space.closed(top.cell() as usize) {
            break;
        }
        space.heap.pop();
    }
}

/// Bidirectional A*'s run for the [registry](crate::search::algorithms).
pub(crate) fn run(
    ws: &mut Workspace,
    q: &Query<'_>,
    control: &SearchControl,
    stats: &mut Stats,
) -> Option<Vec<usize>> {
    let graph = q.graph;
    let (to_goal, to_start) = (q.estimate_to_goal(1.0), q.estimate_to_start());
    let (f, b, order) = (&mut ws.forward, &mut ws.backward, &mut ws.order);
    let (start, goal) = (q.start, q.goal);
    let meeting = if q.record() {
        bidirectional::<true>(
            graph, f, b, start, goal, to_goal, to_start, stats, order, control,
        )
    } else {
        bidirectional::<false>(
            graph, f, b, start, goal, to_goal, to_start, stats, order, control,
        )
    };
    meeting.cell.map(|meet| {
        let mut path = walk_back(graph, &ws.forward, meet, start);
        let mut rest = walk_back(graph, &ws.backward, meet, goal);
        rest.reverse();
        path.extend(rest.into_iter().skip(1));
        path
    })
}
