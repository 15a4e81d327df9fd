//! Symmetry reasoning for conflict-based search (Li et al., "Pairwise symmetry reasoning for
//! multi-agent path finding search", AIJ 2021), on maps of uniform cost under the
//! four-neighbour rule: rectangles and corridors, where splitting on the conflict's cell or
//! move alone only moves the conflict, and the search wades through every equally cheap
//! variant. Both splits give each agent a list of vertex constraints, added at once, and
//! each is checked to forbid the agent's current path; when a list also forbids every
//! cheapest path (read from the agent's decision diagram) that child costs more.
//!
//! **Rectangles.** Two agents that both move towards one corner of a rectangle, each on a
//! shortest (Manhattan) path through it, one entering on a side and the other on the next
//! side, meet in it however they go. The split forbids each agent a whole *barrier*: the
//! cells of the side of the rectangle it leaves through, each at the tick it would reach it
//! without waiting.
//!
//! **Corridors** ([`corridor`]). Two agents meeting head-on in a chain of cells with two
//! neighbours each cannot pass there: one crosses first. The split keeps each agent off the
//! far end of the corridor until the other could have come through it.
//!
//! **Why no rectangle split loses a plan.** Write the rectangle with its corner of entry `Rs` at the origin
//! and its far corner `Rg` up and right of it (the coordinates reflected as needed); the
//! conflict is on cell `k` at tick `t`, and time on a cell `c` of the rectangle is
//! `T(c) = t + (c - k)` summed over both axes. The horizontal agent `H` is on its *entry* `s`
//! at tick `T(s)`, on the bottom row of the rectangle left of it (or at its corner); the
//! vertical agent `V` on its entry below the rectangle on its left column. Every cheapest path
//! of each agent under the node's constraints passes its entry at that tick (the decision
//! diagram has that one cell there). `H`'s barrier is the right column of the rectangle, `V`'s
//! the top row, each cell at its tick `T`, kept only where the agent's decision diagram has
//! it. Take any two paths, valid under the node's constraints, with `H` on a cell `b` of its
//! barrier at `T(b)` and `V` on a cell of its own at its tick. `H`'s path up to `b`, followed
//! by a cheapest path onward from `b` (the diagram has one), is a cheapest path, so it passes
//! `s` at `T(s)`; from there it reaches `b` in exactly the Manhattan distance, moving right
//! and up only, and so crosses the rectangle from its left column to its right column inside
//! it. Likewise `V` crosses it from the bottom row to the top row. Two such lattice paths share
//! a cell `c` (the grid is planar and their ends alternate around the rectangle's border), and
//! each agent is on `c` at `T(c)`: a conflict. So every plan without conflicts keeps out of one
//! of the two barriers, and lives on in one of the two children. Each barrier holds the
//! agent's current path (it is checked), so both children differ from the node.

use super::constraint::Constraint;
use super::graph::{FastSet, MoveGraph};
use super::mdd::Mdd;
use crate::grid::Cell;

/// A split by barriers or ranges: the vertex constraints each agent of the pair is given in
/// its child.
#[derive(Clone, Debug)]
pub(super) struct SymmetrySplit {
    /// The barrier of the conflict's first agent.
    pub(super) on_a: Vec<Constraint>,
    /// The barrier of its second agent.
    pub(super) on_b: Vec<Constraint>,
    /// How many of the two barriers cross every cheapest path of their agent: 2 when both
    /// children cost more (cardinal), 1 semi-cardinal, 0 neither.
    pub(super) class: u8,
}

/// The most entries, and exits, of one agent tried for one conflict (evenly spread when it
/// has more): the combinations tried are at most this to the fourth power.
const CANDIDATES: usize = 8;

/// The most ticks of one corridor range.
const RANGE: u32 = 256;

/// A cell's coordinates, reflected so that the pair moves right and up.
type Point = (i64, i64);

/// A rectangle's rank (the cardinal sides its shape promises, then its area) and its two
/// barriers.
type Ranked = ((u8, i64), [Vec<Constraint>; 2]);

/// The best rectangle split of the vertex conflict of two agents on cell `k` at tick `t`,
/// given their paths and decision diagrams (of those paths' lengths, under the node's
/// constraints): the one with the most cardinal barriers, then the largest; `None` when the
/// conflict is not in a rectangle of more than one cell.
pub(super) fn rectangle(
    graph: &MoveGraph,
    k: u32,
    t: u32,
    paths: [&[u32]; 2],
    mdds: [&Mdd; 2],
) -> Option<SymmetrySplit> {
    let t = t as usize;
    if paths.iter().any(|p| p.len() <= t + 1) {
        return None;
    }
    let point = |v: u32| -> Point {
        let c = graph.cell(v);
        (i64::from(c.x), i64::from(c.y))
    };
    let kp = point(k);
    let manhattan = |v: u32| -> usize {
        let p = point(v);
        ((p.0 - kp.0).abs() + (p.1 - kp.1).abs()) as usize
    };
    // Entries: ticks up to `t` from which the path is a shortest one to `k`, where every
    // cheapest path is on the same cell. Exits: ticks from `t` on up to which it is one.
    let entries = |i: usize| -> Vec<usize> {
        let found: Vec<usize> = (0..=t)
            .rev()
            .take_while(|&s| manhattan(paths[i][s]) == t - s)
            .filter(|&s| s < mdds[i].ticks() && mdds[i].at(s).len() == 1)
            .collect();
        spread(found)
    };
    let exits = |i: usize| -> Vec<usize> {
        let found: Vec<usize> = (t..paths[i].len())
            .take_while(|&g| manhattan(paths[i][g]) == g - t)
            .collect();
        spread(found)
    };
    let (entries, exits) = ([entries(0), entries(1)], [exits(0), exits(1)]);
    let mut best: Option<Ranked> = None;
    for &s0 in &entries[0] {
        for &s1 in &entries[1] {
            let s = [point(paths[0][s0]), point(paths[1][s1])];
            if s[0] == s[1] {
                continue;
            }
            for &g0 in &exits[0] {
                for &g1 in &exits[1] {
                    let g = [point(paths[0][g0]), point(paths[1][g1])];
                    let beat = best.as_ref().map(|(rank, _)| *rank);
                    if let Some(found) = barriers(graph, kp, t, s, g, paths, mdds, beat) {
                        best = Some(found);
                    }
                }
            }
        }
    }
    let ((_, _), [on_a, on_b]) = best?;
    let class = u8::from(blocks(graph, mdds[0], &on_a)) + u8::from(blocks(graph, mdds[1], &on_b));
    Some(SymmetrySplit { on_a, on_b, class })
}

/// At most [`CANDIDATES`] of the ticks, evenly spread, the first and the last kept.
fn spread(ticks: Vec<usize>) -> Vec<usize> {
    if ticks.len() <= CANDIDATES {
        return ticks;
    }
    let last = ticks.len() - 1;
    (0..CANDIDATES)
        .map(|i| ticks[i * last / (CANDIDATES - 1)])
        .collect()
}

/// The two barriers of the rectangle of entries `s` and exits `g` (unreflected
/// coordinates) around the conflict on `kp` at tick `t`, with its rank (the cardinal sides
/// its shape promises, then its area); `None` when the four cells make no rectangle, when its
/// rank is no better than `beat`, or when a barrier misses its agent's path.
#[expect(
    clippy::too_many_arguments,
    reason = "the rectangle's parts, each needed"
)]
fn barriers(
    graph: &MoveGraph,
    kp: Point,
    t: usize,
    s: [Point; 2],
    g: [Point; 2],
    paths: [&[u32]; 2],
    mdds: [&Mdd; 2],
    beat: Option<(u8, i64)>,
) -> Option<Ranked> {
    // Both agents move the same way along each axis, or not at all.
    let sign = |axis: fn(Point) -> i64| -> Option<i64> {
        let steps = [
            axis(kp) - axis(s[0]),
            axis(kp) - axis(s[1]),
            axis(g[0]) - axis(kp),
            axis(g[1]) - axis(kp),
        ];
        let up = steps.iter().any(|&d| d > 0);
        let down = steps.iter().any(|&d| d < 0);
        match (up, down) {
            (true, true) => None,
            (false, true) => Some(-1),
            _ => Some(1),
        }
    };
    let (sx, sy) = (sign(|p| p.0)?, sign(|p| p.1)?);
    // Reflection is its own inverse.
    let flip = |p: Point| -> Point { (sx * p.0, sy * p.1) };
    let (k, s, g) = (flip(kp), [flip(s[0]), flip(s[1])], [flip(g[0]), flip(g[1])]);
    let rs = (s[0].0.max(s[1].0), s[0].1.max(s[1].1));
    let rg = (g[0].0.min(g[1].0), g[0].1.min(g[1].1));
    // The horizontal agent enters on the bottom row, the vertical one on the left column.
    let h = if s[0].1 == rs.1 && s[1].0 == rs.0 {
        0
    } else if s[1].1 == rs.1 && s[0].0 == rs.0 {
        1
    } else {
        return None;
    };
    let v = 1 - h;
    let area = (rg.0 - rs.0 + 1) * (rg.1 - rs.1 + 1);
    if area <= 1 {
        return None;
    }
    let shape = u8::from(g[h].1 == rg.1) + u8::from(g[v].0 == rg.0);
    if beat.is_some_and(|b| (shape, area) <= b) {
        return None;
    }
    // The cells of a side, each at the tick a shortest path reaches it, where the agent's
    // decision diagram has it.
    let side = |agent: usize, cells: &mut dyn Iterator<Item = Point>| -> Vec<Constraint> {
        let mut out = Vec::new();
        for c in cells {
            let tick = t as i64 + (c.0 - k.0) + (c.1 - k.1);
            let (x, y) = flip(c);
            let (Ok(x), Ok(y), Ok(tick)) =
                (u32::try_from(x), u32::try_from(y), usize::try_from(tick))
            else {
                continue;
            };
            let vertex = graph.vertex(Cell::new(x, y));
            let on_mdd =
                tick < mdds[agent].ticks() && mdds[agent].at(tick).binary_search(&vertex).is_ok();
            if on_mdd {
                out.push(Constraint::Vertex {
                    v: vertex,
                    t: tick as u32,
                });
            }
        }
        out
    };
    let on_h = side(h, &mut (rs.1..=rg.1).map(|w| (rg.0, w)));
    let on_v = side(v, &mut (rs.0..=rg.0).map(|u| (u, rg.1)));
    let crosses = |agent: usize, barrier: &[Constraint]| {
        barrier.iter().any(|c| match *c {
            Constraint::Vertex { v, t } => paths[agent].get(t as usize) == Some(&v),
            _ => false,
        })
    };
    if !crosses(h, &on_h) || !crosses(v, &on_v) {
        return None;
    }
    let pair = if h == 0 { [on_h, on_v] } else { [on_v, on_h] };
    Some(((shape, area), pair))
}

/// Whether the vertex constraints leave no path through the decision diagram from its start
/// to its end (moves between its levels are taken as allowed, so a diagram is at worst
/// called open when it is blocked).
fn blocks(graph: &MoveGraph, mdd: &Mdd, barrier: &[Constraint]) -> bool {
    let barred_cells: FastSet<(u32, u32)> = barrier
        .iter()
        .filter_map(|c| match *c {
            Constraint::Vertex { v, t } => Some((v, t)),
            _ => None,
        })
        .collect();
    let barred = |v: u32, tick: usize| barred_cells.contains(&(v, tick as u32));
    let mut reached: Vec<u32> = mdd
        .at(0)
        .iter()
        .copied()
        .filter(|&v| !barred(v, 0))
        .collect();
    for tick in 1..mdd.ticks() {
        reached = mdd
            .at(tick)
            .iter()
            .copied()
            .filter(|&v| {
                !barred(v, tick)
                    && (reached.binary_search(&v).is_ok()
                        || graph
                            .neighbours(v)
                            .iter()
                            .any(|u| reached.binary_search(u).is_ok()))
            })
            .collect();
        if reached.is_empty() {
            return true;
        }
    }
    reached.is_empty()
}

/// The corridor split (Li et al. 2020) of a head-on conflict of two agents inside a corridor
/// (a chain of cells with two neighbours each), given the conflict's constraints, the two
/// paths and decision diagrams; `None` when the conflict is not one.
///
/// The corridor runs from `e1` to `e2`, `len` moves long; the first agent goes towards `e2`,
/// the second towards `e1`, and neither starts inside it. The first agent may not be on
/// `e2` up to tick `min(d2(e1) + len, o1(e2) - 1)`, the second on `e1` up to
/// `min(d1(e2) + len, o2(e1) - 1)`, where `d` is the distance from the agent's start and
/// `o` the distance that keeps out of the corridor (each range written from the agent's
/// distance to that end on, as it cannot be there sooner). **Why no plan is lost.** Suppose both
/// are broken: the first agent is first on `e2` at `τ1`, the second first on `e1` at `τ2`.
/// Since `τ1 < o1(e2)`, the first came through the corridor: a detour into it and back out
/// through `e1` could be cut, leaving a path out of the corridor arriving no later. So it
/// went from `e1` to `e2` inside the corridor during some `[σ1, τ1]`, and the second from
/// `e2` to `e1` during `[σ2, τ2]`, `σ2 ≤ τ2 - len`. Two agents crossing one chain in
/// opposite directions at overlapping times meet on a cell or swap on an edge, so one
/// crossing ends before the other starts: `τ2 > τ1 + len` or `τ1 > τ2 + len`. The first is
/// ruled out by `τ2 ≤ d1(e2) + len ≤ τ1 + len`, the second by `τ1 ≤ d2(e1) + len ≤ τ2 +
/// len`. Distances without constraints are lower bounds of the real arrivals under them,
/// so the ranges are only shorter than they could be.
pub(super) fn corridor(
    graph: &MoveGraph,
    on_a: Constraint,
    on_b: Constraint,
    paths: [&[u32]; 2],
    mdds: [&Mdd; 2],
) -> Option<SymmetrySplit> {
    // The corridor's ends behind the first agent (`e1`) and ahead of it (`e2`), its moves
    // from end to end, and its cells.
    let (e1, e2, len, mut chain) = match (on_a, on_b) {
        (Constraint::Vertex { v, t }, Constraint::Vertex { .. }) if t > 0 => {
            let before = |i: usize| paths[i].get(t as usize - 1).copied();
            let (pa, pb) = (before(0)?, before(1)?);
            if graph.neighbours(v).len() != 2 || pa == pb || pa == v || pb == v {
                return None;
            }
            // Walks from the meeting cell towards each agent's origin.
            let (e1, d1, mut cells) = walk(graph, v, pa)?;
            let (e2, d2, more) = walk(graph, v, pb)?;
            cells.extend(more);
            cells.push(v);
            (e1, e2, d1 + d2, cells)
        }
        // The first agent moves `ua` → `va`, the second back along the same edge.
        (Constraint::Move { u: ua, v: va, .. }, Constraint::Move { u, v, .. })
            if (u, v) == (va, ua) =>
        {
            if graph.neighbours(ua).len() != 2 && graph.neighbours(va).len() != 2 {
                return None;
            }
            let (e2, d2, mut cells) = walk(graph, ua, va)?;
            let (e1, d1, more) = walk(graph, va, ua)?;
            cells.extend(more);
            (e1, e2, d1 + d2 - 1, cells)
        }
        _ => return None,
    };
    chain.retain(|&c| c != e1 && c != e2);
    chain.sort_unstable();
    chain.dedup();
    if e1 == e2 || chain.is_empty() {
        return None;
    }
    let (sa, sb) = (paths[0][0], paths[1][0]);
    if chain.binary_search(&sa).is_ok() || chain.binary_search(&sb).is_ok() {
        return None;
    }
    let reach = |from: u32, to: u32| bfs(graph, from, to, &[]);
    let around = |from: u32, to: u32| bfs(graph, from, to, &chain);
    let until = |other: Option<u32>, outside: Option<u32>| -> Option<u32> {
        let through = other? + len;
        match outside {
            Some(0) => None,
            Some(o) => Some(through.min(o - 1)),
            None => Some(through),
        }
    };
    let (a_to_e2, b_to_e1) = (reach(sa, e2), reach(sb, e1));
    let ta = until(b_to_e1, around(sa, e2))?;
    let tb = until(a_to_e2, around(sb, e1))?;
    // No agent is on a cell before its distance from its start: the range begins there. It
    // holds at most `RANGE` ticks (a shorter range forbids less, so no plan is lost).
    let range = |cell: u32, first: Option<u32>, last: u32| -> Vec<Constraint> {
        let first = first.unwrap_or(0);
        (first..=last.min(first.saturating_add(RANGE - 1)))
            .map(|t| Constraint::Vertex { v: cell, t })
            .collect()
    };
    let (on_a, on_b) = (range(e2, a_to_e2, ta), range(e1, b_to_e1, tb));
    let visits = |path: &[u32], range: &[Constraint]| {
        range.iter().any(|c| match *c {
            Constraint::Vertex { v, t } => path.get(t as usize) == Some(&v),
            _ => false,
        })
    };
    if !visits(paths[0], &on_a) || !visits(paths[1], &on_b) {
        return None;
    }
    let class = u8::from(blocks(graph, mdds[0], &on_a)) + u8::from(blocks(graph, mdds[1], &on_b));
    Some(SymmetrySplit { on_a, on_b, class })
}

/// Follows the chain from `from` through `next` while cells have two neighbours: the first
/// cell with another number of neighbours, the moves to it, and the cells passed (the end
/// included); `None` when the chain closes on itself.
fn walk(graph: &MoveGraph, from: u32, next: u32) -> Option<(u32, u32, Vec<u32>)> {
    let (mut prev, mut at, mut moves) = (from, next, 1);
    let mut cells = vec![next];
    while let [x, y] = *graph.neighbours(at) {
        let onward = if x == prev { y } else { x };
        (prev, at) = (at, onward);
        if at == from {
            return None;
        }
        moves += 1;
        cells.push(at);
    }
    Some((at, moves, cells))
}

/// The fewest moves from `from` to `to` keeping off the cells of `avoid` (sorted); `None`
/// when there is no way.
fn bfs(graph: &MoveGraph, from: u32, to: u32, avoid: &[u32]) -> Option<u32> {
    use std::collections::VecDeque;
    let mut seen = vec![false; graph.len()];
    let mut queue = VecDeque::from([(from, 0u32)]);
    seen[from as usize] = true;
    while let Some((v, d)) = queue.pop_front() {
        if v == to {
            return Some(d);
        }
        for &n in graph.neighbours(v) {
            if !seen[n as usize] && avoid.binary_search(&n).is_err() {
                seen[n as usize] = true;
                queue.push_back((n, d + 1));
            }
        }
    }
    None
}
