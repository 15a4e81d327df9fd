//! IDA*: iterative-deepening A*, the memory-light variant.
//!
//! Depth-first searches bounded by f = g + h, each with the bound raised to the smallest f
//! the previous one cut off, until one reaches the goal. It keeps only the current path in
//! memory, no open or closed list — and pays for it: on a grid, where many paths reach the
//! same cell, it expands cells again and again (the statistics count every expansion), so on
//! open maps it is far slower than A*. It is here to teach that trade-off. A node budget
//! ([`IDASTAR_NODE_BUDGET`]) bounds the work, so it always stops: when the budget runs out the
//! result says so (`stats.budget_exhausted`) instead of claiming there is no path.

use crate::search::control::SearchControl;
use crate::search::graph::SearchGraph;
use crate::search::heuristic::Estimate;
use crate::search::request::Stats;
use crate::search::workspace::{Query, Workspace};

/// The most expansions one IDA* search may make before it gives up.
pub const IDASTAR_NODE_BUDGET: u64 = 5_000_000;

/// Relative slack when comparing f against the bound, so rounding never cuts off the
/// optimal path.
const BOUND_SLACK: f64 = 1e-12;

/// One cell of the current depth-first path.
#[derive(Clone, Copy, Debug)]
struct Frame {
    cell: usize,
    g: f64,
    /// The directions not yet tried from this cell.
    untried: u8,
}

/// Runs IDA* from `start` to `goal` (cell indices) with at most `budget` expansions. Returns
/// the path's cells, or `None` when the goal is unreachable or the budget ran out (then
/// `stats.budget_exhausted` is set). `on_path` is scratch memory. Expanded cells are appended
/// to `order` when `RECORD` is set.
#[expect(
    clippy::too_many_arguments,
    reason = "a search takes the graph, its state, the request's parts and the control apart, so that the hot loop borrows each on its own"
)]
pub(crate) fn idastar<const RECORD: bool>(
    graph: &SearchGraph,
    on_path: &mut Vec<bool>,
    start: usize,
    goal: usize,
    estimate: Estimate,
    budget: u64,
    stats: &mut Stats,
    order: &mut Vec<u32>,
    control: &SearchControl,
) -> Option<Vec<usize>> {
    let width = graph.width() as usize;
    let h = |cell: usize| estimate.at((cell % width) as i32, (cell / width) as i32);
    on_path.clear();
    on_path.resize(graph.len(), false);
    let mut stack: Vec<Frame> = Vec::new();
    let mut bound = h(start);
    let mut expanded = 0u64;
    let outcome = 'deepening: loop {
        let mut next_bound = f64::INFINITY;
        stack.clear();
        if expanded >= budget {
            stats.budget_exhausted = true;
            break None;
        }
        stack.push(Frame {
            cell: start,
            g: 0.0,
            untried: graph.mask(start),
        });
        on_path[start] = true;
        expanded += 1;
        if RECORD {
            order.push(start as u32);
        }
        while let Some(top) = stack.last_mut() {
            let current = top.cell;
            if current == goal {
                break 'deepening Some(stack.iter().map(|f| f.cell).collect());
            }
            if top.untried == 0 {
                on_path[current] = false;
                stack.pop();
                continue;
            }
            let d = top.untried.trailing_zeros() as usize;
            top.untried &= top.untried - 1;
            let g = top.g;
            let next = (current as isize + graph.delta(d)) as usize;
            if on_path[next] {
                continue;
            }
            let ng = g + graph.step_cost(current, next, d);
            let f = ng + h(next);
            if f > bound * (1.0 + BOUND_SLACK) {
                next_bound = next_bound.min(f);
                continue;
            }
            if expanded >= budget {
                stats.budget_exhausted = true;
                break 'deepening None;
            }
            expanded += 1;
            if RECORD {
                order.push(next as u32);
            }
            if control.should_stop(expanded) {
                stats.cancelled = true;
                break 'deepening None;
            }
            on_path[next] = true;
            stack.push(Frame {
                cell: next,
                g: ng,
                untried: graph.mask(next),
            });
        }
        if next_bound.is_infinite() {
            break None;
        }
        bound = next_bound;
    };
    for frame in &stack {
        on_path[frame.cell] = false;
    }
    stats.expanded += expanded;
    stats.pushed += expanded;
    stats.max_open = stats.max_open.max(stack.len() as u64);
    outcome
}

/// IDA*'s run for the [registry](crate::search::algorithms), with [`IDASTAR_NODE_BUDGET`].
pub(crate) fn run(
    ws: &mut Workspace,
    q: &Query<'_>,
    control: &SearchControl,
    stats: &mut Stats,
) -> Option<Vec<usize>> {
    let (graph, estimate, budget) = (q.graph, q.estimate_to_goal(1.0), IDASTAR_NODE_BUDGET);
    let (on_path, order) = (&mut ws.on_path, &mut ws.order);
    if q.record() {
        idastar::<true>(
            graph, on_path, q.start, q.goal, estimate, budget, stats, order, control,
        )
    } else {
        idastar::<false>(
            graph, on_path, q.start, q.goal, estimate, budget, stats, order, control,
        )
    }
}
