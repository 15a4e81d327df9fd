//! Jump point search (Harabor & Grastien) under the no-corner-cutting rule, with block-based
//! jumping.
//!
//! On a grid where every passable cell costs the same, most optimal paths are symmetric
//! copies of each other. Jump point search breaks the symmetry: it expands only "jump points"
//! — cells where an optimal path may have to turn — and skips over everything in between.
//! Under the no-cut rule a diagonal step never has forced neighbours (both corners it passes
//! are free), so only straight runs stop at forced neighbours: moving east through `n`, the
//! cell north of `n` is forced when the cell north of `n`'s predecessor is blocked.
//!
//! Straight runs are scanned 63 cells at a time: each row (and, transposed, each column) is
//! kept as bit words of passability, in both reading directions, so a run finds its next
//! forced neighbour, wall or goal with a few shifts and one `trailing_zeros`.
//!
//! The search is optimal; the path it returns is the full grid path, every step between
//! adjacent cells, with the segments between jump points filled in.

use crate::control::SearchControl;
use crate::search::frontier::heap::Entry;
use crate::search::graph::{DX, DY, SearchGraph};
use crate::search::heuristic::Estimate;
use crate::search::jump::jump_lines::JumpLines;
use crate::search::request::{Diagonal, SearchError, SearchRequest, Stats};
use crate::search::space::{NO_PARENT, Space};
use crate::search::workspace::{Query, Workspace};

/// The straight direction with offsets (dx, 0) or (0, dy).
#[inline(always)]
fn straight_of(dx: i32, dy: i32) -> usize {
    match (dx, dy) {
        (1, _) => 0,
        (-1, _) => 1,
        (_, 1) => 2,
        _ => 3,
    }
}

/// The direction with offsets (dx, dy).
#[inline(always)]
fn direction_of(dx: i32, dy: i32) -> usize {
    match (dx, dy) {
        (1, 0) => 0,
        (-1, 0) => 1,
        (0, 1) => 2,
        (0, -1) => 3,
        (1, -1) => 4,
        (-1, -1) => 5,
        (1, 1) => 6,
        _ => 7,
    }
}

/// The search of one query, over the graph and its jump lines.
struct Jumper<'a> {
    graph: &'a SearchGraph,
    lines: &'a JumpLines,
    width: usize,
    goal: usize,
    goal_xy: (usize, usize),
}

impl Jumper<'_> {
    /// The next jump point from `from` in direction `d`, if any.
    #[inline(always)]
    fn jump(&self, from: usize, d: usize) -> Option<usize> {
        let w = self.width;
        if d < 4 {
            let (x, y) = (from % w, from / w);
            return self
                .lines
                .straight(x, y, d, self.goal_xy)
                .map(|(x, y)| y * w + x);
        }
        let (h_dir, v_dir) = (straight_of(DX[d], 0), straight_of(0, DY[d]));
        let delta = self.graph.delta(d);
        let mut cell = from;
        loop {
            // The mask holds the no-cut rule: both corners and the target must be free.
            if !self.graph.can_step(cell, d) {
                return None;
            }
            cell = (cell as isize + delta) as usize;
            if cell == self.goal {
                return Some(cell);
            }
            let (x, y) = (cell % w, cell / w);
            if self.lines.straight(x, y, h_dir, self.goal_xy).is_some()
                || self.lines.straight(x, y, v_dir, self.goal_xy).is_some()
            {
                return Some(cell);
            }
        }
    }
}

/// The directions worth jumping in from `cell`, reached by a step in direction `arrival`
/// (or [`NO_PARENT`] at the start), as a bit mask over the eight directions: the natural
/// neighbours of the arrival direction and the forced ones, among the steps allowed.
///
/// Arriving straight from the predecessor `p`, a side of `cell` is forced when it is free and
/// the same side of `p` is blocked. On a flat map a straight step needs only a free target, so
/// both tests read the neighbour masks: the side's bit set in `cell`'s mask and clear in `p`'s.
#[inline(always)]
pub(crate) fn successors(graph: &SearchGraph, cell: usize, arrival: u8) -> u8 {
    let mask = graph.mask(cell);
    if arrival == NO_PARENT {
        return mask;
    }
    let d = usize::from(arrival);
    let (dx, dy) = (DX[d], DY[d]);
    let wanted = if d >= 4 {
        (1u8 << d) | (1 << straight_of(dx, 0)) | (1 << straight_of(0, dy))
    } else {
        // The two sides across the direction of travel: north and south of a row, east and
        // west of a column.
        let sides: u8 = if d < 2 { 0b1100 } else { 0b0011 };
        let before = graph.mask((cell as isize - graph.delta(d)) as usize);
        let forced = mask & !before & sides;
        let mut wanted = (1u8 << d) | forced;
        let mut rest = forced;
        while rest != 0 {
            let s = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            wanted |= 1 << direction_of(dx + DX[s], dy + DY[s]);
        }
        wanted
    };
    mask & wanted
}

/// Runs jump point search from `start` to `goal` (cell indices) with the graph's uniform cell
/// cost `cost`. Returns the full cell path from start to goal, or `None` when the goal cannot
/// be reached. Jump points' parents are kept in `parents`; expanded jump points are appended
/// to `order` when `RECORD` is set.
#[expect(
    clippy::too_many_arguments,
    reason = "a search takes the graph, its state, the request's parts and the control apart, so that the hot loop borrows each on its own"
)]
pub(crate) fn jps<const RECORD: bool>(
    graph: &SearchGraph,
    lines: &JumpLines,
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
    let jumper = Jumper {
        graph,
        lines,
        width,
        goal,
        goal_xy: (goal % width, goal / width),
    };
    space.begin(graph.len());
    if parents.len() != graph.len() {
        parents.clear();
        parents.resize(graph.len(), u32::MAX);
    }
    space.relax(start, 0.0, NO_PARENT);
    parents[start] = start as u32;
    let at = |i: usize| ((i % width) as i32, (i / width) as i32);
    let (sx, sy) = at(start);
    space
        .heap
        .push(Entry::new(estimate.at(sx, sy), 0.0, start as u32));
    let (mut expanded, mut pushed, mut max_open) = (0u64, 1u64, 1usize);
    let (straight, diagonal) = (cost, cost * std::f64::consts::SQRT_2);
    let mut found = false;
    // The landing of lowest rank, when no higher than the expanded point's, is expanded next
    // without going through the open list: no open entry and no other landing ranks lower.
    let mut held: Option<Entry> = None;
    // Kept as its own copy of the shared best-first loop (search/best_first_loop.rs) for speed:
    // on the loop jump point search measured 0.2–4.8 % slower (docs/performance.md).
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
        let (cx, cy) = at(current);
        let mut directions = successors(graph, current, arrival);
        while directions != 0 {
            let d = directions.trailing_zeros() as usize;
            directions &= directions - 1;
            let Some(next) = jumper.jump(current, d) else {
                continue;
            };
            let (nx, ny) = at(next);
            let steps = f64::from((nx - cx).abs().max((ny - cy).abs()));
            let ng = g + steps * if d < 4 { straight } else { diagonal };
            if !space.relax(next, ng, d as u8) {
                continue;
            }
            parents[next] = current as u32;
            let landing = Entry::new(ng + estimate.at(nx, ny), ng, next as u32);
            pushed += 1;
            if landing.priority() <= entry.priority()
                && held.is_none_or(|h| landing.priority() < h.priority())
            {
                if let Some(previous) = held.replace(landing) {
                    space.heap.push(previous);
                }
                continue;
            }
            space.heap.push(landing);
            max_open = max_open.max(space.heap.len());
        }
    }
    stats.expanded += expanded;
    stats.pushed += pushed;
    stats.max_open = stats.max_open.max(max_open as u64);
    found.then(|| fill_path(graph, space, parents, start, goal))
}

/// The full cell path from `start` to `goal`: each jump point's segment from its parent,
/// walked step by step in the direction that reached it.
pub(crate) fn fill_path(
    graph: &SearchGraph,
    space: &Space,
    parents: &[u32],
    start: usize,
    goal: usize,
) -> Vec<usize> {
    // The length first, from the jump points alone, so that the path is allocated once and
    // filled from its end.
    let width = graph.width() as usize;
    let mut steps = 0;
    let mut cell = goal;
    while cell != start {
        let parent = parents[cell] as usize;
        steps += (cell % width)
            .abs_diff(parent % width)
            .max((cell / width).abs_diff(parent / width));
        cell = parent;
    }
    let mut path = vec![start; steps + 1];
    let mut cell = goal;
    let mut at = steps;
    while cell != start {
        let parent = parents[cell] as usize;
        let back = graph.delta(usize::from(space.parent(cell)));
        while cell != parent {
            path[at] = cell;
            at -= 1;
            cell = (cell as isize - back) as usize;
        }
    }
    path
}

/// Jump point search's run for the [registry](crate::search::algorithms).
pub(crate) fn run(
    ws: &mut Workspace,
    q: &Query<'_>,
    control: &SearchControl,
    stats: &mut Stats,
) -> Option<Vec<usize>> {
    let (graph, estimate, scale) = (q.graph, q.estimate_to_goal(1.0), q.scale);
    let lines = graph.jump_lines();
    let (space, parents, order) = (&mut ws.forward, &mut ws.jump_parents, &mut ws.order);
    let (start, goal) = (q.start, q.goal);
    if q.record() {
        jps::<true>(
            graph, lines, space, parents, start, goal, estimate, scale, stats, order, control,
        )
    } else {
        jps::<false>(
            graph, lines, space, parents, start, goal, estimate, scale, stats, order, control,
        )
    }
}

/// What jump point search accepts: the no-cut rule on a map whose passable cells all cost the
/// same; it refuses others rather than answer wrongly.
pub(crate) fn accepts(graph: &SearchGraph, request: &SearchRequest) -> Result<(), SearchError> {
    crate::search::outcome::square_map(graph, request)?;
    if request.diagonal != Diagonal::NoCut {
        return Err(SearchError::UnsupportedDiagonal {
            algorithm: request.algorithm,
            supported: Diagonal::NoCut,
            requested: request.diagonal,
        });
    }
    if graph.has_heights() {
        return Err(SearchError::HeightsUnsupported {
            algorithm: request.algorithm,
        });
    }
    if graph.uniform_cost().is_none() {
        return Err(SearchError::NonUniformCost {
            algorithm: request.algorithm,
        });
    }
    Ok(())
}
