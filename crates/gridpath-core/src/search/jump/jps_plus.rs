//! JPS+: jump point search over offline jump distances (Harabor & Grastien, "Improving Jump
//! Point Search", 2014; Rabin's GDC 2015 talk).
//!
//! [Jump point search](crate::search::jump::jps) scans the grid at every jump; JPS+ reads the answer of each
//! scan from a [table](crate::search::jump::jump_table) built once per map, which holds for each cell and
//! direction the distance to the next jump point or to the wall. A jump is then one lookup and
//! two checks for the goal:
//!
//! - straight: when the goal lies ahead on the same row or column, no farther than the
//!   distance (to a jump point or to the wall), the jump lands on the goal;
//! - diagonal: when the goal lies in the diagonal's quadrant and the diagonal run reaches the
//!   goal's row or column (whichever comes first), the jump stops there, and the straight jump
//!   from that cell tests for the goal as above.
//!
//! The pruning of directions at each jump point is jump point search's own, so the two expand
//! the same kind of points under the same rules and JPS+ is just as exact: it always ranks by
//! the octile distance, whatever the request's heuristic. The path it returns is the full
//! grid path, filled in between jump points.

use crate::control::SearchControl;
use crate::search::frontier::heap::Entry;
use crate::search::graph::{DX, DY, SearchGraph};
use crate::search::heuristic::Estimate;
use crate::search::jump::jps::{fill_path, successors};
use crate::search::jump::jump_table::JumpTable;
use crate::search::request::{Heuristic, Stats};
use crate::search::space::{NO_PARENT, Space, prefetch};
use crate::search::workspace::{Query, Workspace};

/// The next jump point from cell `from` at `(x, y)` in direction `d`, as the cell and the
/// number of steps to it, given the cell's jump `distances` and the goal's offset
/// `(gx − x, gy − y)`.
#[inline(always)]
fn jump(
    distances: &[i16; 8],
    graph: &SearchGraph,
    from: usize,
    d: usize,
    to_goal: (i32, i32),
) -> Option<(usize, i32)> {
    let dist = i32::from(distances[d]);
    let reach = dist.abs();
    let (gdx, gdy) = to_goal;
    let toward = |offset: i32, step: i32| offset.signum() == step;
    let target = if d < 4 {
        // The goal on this row or column, ahead and within reach.
        let ahead = if DX[d] != 0 {
            (gdy == 0 && toward(gdx, DX[d])).then_some(gdx.abs())
        } else {
            (gdx == 0 && toward(gdy, DY[d])).then_some(gdy.abs())
        };
        ahead.filter(|&k| k <= reach)
    } else {
        // The goal's row or column, whichever the diagonal meets first, within reach.
        (toward(gdx, DX[d]) && toward(gdy, DY[d]))
            .then(|| gdx.abs().min(gdy.abs()))
            .filter(|&k| k <= reach)
    };
    let steps = match target {
        Some(k) => k,
        None if dist > 0 => dist,
        None => return None,
    };
    Some((
        (from as isize + steps as isize * graph.delta(d)) as usize,
        steps,
    ))
}

/// Runs JPS+ from `start` to `goal` (cell indices) with the graph's uniform cell cost `cost`.
/// Returns the full cell path, or `None` when the goal cannot be reached. Jump points'
/// parents are kept in `parents`; expanded jump points are appended to `order` when `RECORD`
/// is set.
#[expect(
    clippy::too_many_arguments,
    reason = "a search takes the graph, its state, the request's parts and the control apart, so that the hot loop borrows each on its own"
)]
fn jps_plus<const RECORD: bool>(
    graph: &SearchGraph,
    table: &JumpTable,
    space: &mut Space,
    parents: &mut Vec<u32>,
    start: usize,
    goal: usize,
    estimate: Estimate,
    cost: f64,
    stats: &mut Stats,
    order: &mut Vec<u32>,
    control: &SearchControl,
) -> Option<Vec<usize>> {
    let width = graph.width() as usize;
    space.begin(graph.len());
    if parents.len() != graph.len() {
        parents.clear();
        parents.resize(graph.len(), u32::MAX);
    }
    space.relax(start, 0.0, NO_PARENT);
    parents[start] = start as u32;
    let at = |i: usize| ((i % width) as i32, (i / width) as i32);
    let (gx, gy) = at(goal);
    let (sx, sy) = at(start);
    space
        .heap
        .push(Entry::new(estimate.octile_at(sx, sy), 0.0, start as u32));
    let (mut expanded, mut pushed, mut max_open) = (0u64, 1u64, 1usize);
    let step_cost = [cost, cost * std::f64::consts::SQRT_2];
    let mut found = false;
    // A landing whose rank equals the expanded point's is expanded next without going
    // through the open list: no open entry ranks lower (the octile estimate is consistent).
    let mut held: Option<Entry> = None;
    // Kept as its own copy of the shared best-first loop (search/best_first_loop.rs) for speed:
    // on the loop JPS+ measured 1.7–5.8 % slower (docs/performance.md).
    while let Some(entry) = held.take().or_else(|| space.heap.pop()) {
        let current = entry.cell() as usize;
        if !space.close(current) {
            continue;
        }
        let (g, arrival) = (space.g[current], space.parent(current));
        expanded += 1;
        if RECORD {
            order.push(entry.cell());
        }
        if control.should_stop(expanded) {
            stats.cancelled = true;
            break;
        }
        if current == goal {
            found = true;
            break;
        }
        // The next cell to expand is most likely the new top of the open list: its distances
        // start loading while this one expands.
        if let Some(top) = space.heap.peek() {
            prefetch(table.cells(), top.cell() as usize);
        }
        let (cx, cy) = at(current);
        let to_goal = (gx - cx, gy - cy);
        let distances = *table.at(current);
        let mut directions = successors(graph, current, arrival);
        // All jumps first, so that the state of every landing cell loads at once.
        let mut landings = [(0usize, 0i32, 0usize); 8];
        let mut count = 0;
        while directions != 0 {
            let d = directions.trailing_zeros() as usize;
            directions &= directions - 1;
            if let Some((next, steps)) = jump(&distances, graph, current, d, to_goal) {
                prefetch(&space.state, next);
                prefetch(&space.g, next);
                landings[count] = (next, steps, d);
                count += 1;
            }
        }
        for &(next, steps, d) in &landings[..count] {
            let ng = g + f64::from(steps) * step_cost[d / 4];
            if !space.relax(next, ng, d as u8) {
                continue;
            }
            parents[next] = current as u32;
            let (nx, ny) = (cx + steps * DX[d], cy + steps * DY[d]);
            let f = ng + estimate.octile_at(nx, ny);
            pushed += 1;
            if held.is_none() && f <= entry.priority() {
                held = Some(Entry::new(f, ng, next as u32));
                continue;
            }
            space.heap.push(Entry::new(f, ng, next as u32));
            max_open = max_open.max(space.heap.len());
        }
    }
    stats.expanded += expanded;
    stats.pushed += pushed;
    stats.max_open = stats.max_open.max(max_open as u64);
    found.then(|| fill_path(graph, space, parents, start, goal))
}

/// JPS+'s run for the [registry](crate::search::algorithms): builds the graph's jump table on first
/// use (kept with the graph), then searches over it.
pub(crate) fn run(
    ws: &mut Workspace,
    q: &Query<'_>,
    control: &SearchControl,
    stats: &mut Stats,
) -> Option<Vec<usize>> {
    let graph = q.graph;
    let estimate = q.estimate_by(Heuristic::Octile, 1.0);
    let table = graph.jump_table();
    let (space, parents, order) = (&mut ws.forward, &mut ws.jump_parents, &mut ws.order);
    let (start, goal) = (q.start, q.goal);
    if q.record() {
        jps_plus::<true>(
            graph, table, space, parents, start, goal, estimate, q.scale, stats, order, control,
        )
    } else {
        jps_plus::<false>(
            graph, table, space, parents, start, goal, estimate, q.scale, stats, order, control,
        )
    }
}
