//! Simple subgoal graphs (Uras, Felner & Koenig, "Subgoal Graphs for Optimal Pathfinding in
//! Eight-Neighbor Grids", ICAPS 2013): A* over the corners of the obstacles instead of the
//! cells.
//!
//! A *subgoal* is a passable cell at the convex corner of an obstacle: a diagonal neighbour is
//! blocked while the two cells beside that diagonal are free. A shortest path that is pulled
//! taut only turns at such corners, so every shortest path can be cut at subgoals into pieces
//! that are each *h-reachable*: joined by a grid path no longer than the octile distance, that
//! is, by a path made of one diagonal direction and one of its two straight directions only.
//!
//! The graph joins two subgoals when one is h-reachable from the other along such a path with
//! no subgoal in between. A query joins the start and the goal to the subgoals h-reachable from
//! them in the same way (and to each other when one is h-reachable from the other), runs A*
//! with the octile estimate over that graph, whose edges cost the octile distance, and turns
//! each edge back into grid steps. Cutting an optimal path at its subgoals gives edges of this
//! graph, and every edge stands for a path of its cost, so the answer is optimal.
//!
//! **Finding the edges.** From a cell, each of the eight octants (a straight direction `c` and
//! the diagonal `d` beside it) is scanned row by row: row `i` holds the cells `i` diagonal steps
//! away, and a cell is reached from the one before it in its row (a step along `c`) or from
//! the one diagonally behind it in the previous row (a step along `d`). A reached subgoal is
//! recorded and not passed through. A cell reached from a subgoal (or from a cell that was) and
//! also from a clean cell has a path through a subgoal, so it is not passed through either:
//! whatever lies behind it is reached through that subgoal's own edges. This prunes each scan
//! to the region bounded by the nearest subgoals. A scan may keep an edge that a stricter rule
//! would drop, which costs time but never optimality: every edge kept is a real h-reachable
//! pair, and every pair with a subgoal-free path is kept.
//!
//! Like jump point search, this holds for maps whose passable cells all cost the same, under
//! the no-cut rule; other maps are refused. The graph is built on first use and kept with the
//! [`SearchGraph`]; an edit drops it, and the next query builds it again.

use super::control::SearchControl;
use super::graph::{DX, DY, SearchGraph};
use super::heap::Entry;
use super::heap::Heap;
use super::heuristic::Estimate;
use super::request::{Heuristic, Stats};
use super::space::prefetch;
use super::workspace::{Query, Workspace};

/// Not a subgoal, or no cell.
const NONE: u32 = u32::MAX;

/// √2 − 1: an octile distance is `max + (√2 − 1) · min` of the two offsets.
const SQRT2_MINUS_1: f64 = std::f64::consts::SQRT_2 - 1.0;

/// The eight octants, each as its straight direction `c`, the other straight direction `e` and
/// the diagonal `d = c + e` (indices of [`DX`]/[`DY`]).
const OCTANTS: [(usize, usize, usize); 8] = [
    (0, 3, 4),
    (0, 2, 6),
    (1, 3, 5),
    (1, 2, 7),
    (2, 0, 6),
    (2, 1, 7),
    (3, 0, 4),
    (3, 1, 5),
];

/// The diagonals with their two straight components.
const CORNERS: [(usize, usize, usize); 4] = [(4, 0, 3), (5, 1, 3), (6, 0, 2), (7, 1, 2)];

/// Scan state of a cell: reached along a path free of subgoals, and passed through.
const CLEAN: u8 = 1;
/// Scan state of a cell: reached, but not passed through (a subgoal, or a cell also reached
/// through one).
const STOP: u8 = 2;

/// Whether a cell with neighbour mask `mask` (no-cut rule) is a subgoal: some diagonal step is
/// missing while both straight steps beside it are there, so the diagonal cell is blocked.
#[inline]
fn is_corner(mask: u8) -> bool {
    CORNERS.iter().any(|&(d, a, b)| {
        let sides = (1u8 << a) | (1u8 << b);
        mask & sides == sides && mask & (1u8 << d) == 0
    })
}

/// Sizes of a subgoal graph, for reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubgoalSummary {
    /// The number of subgoals (corner cells).
    pub subgoals: usize,
    /// How many of them are global: searched by every query, where the local ones are
    /// searched only near the query's ends.
    pub global: usize,
    /// The number of directed edges between them.
    pub edges: usize,
    /// The memory the graph takes, in bytes.
    pub bytes: usize,
}

/// A simple subgoal graph of a map: its subgoals and the edges between them.
#[derive(Clone, Debug)]
pub(crate) struct SubgoalGraph {
    /// Each cell's subgoal number, or [`NONE`].
    id: Vec<u32>,
    /// Each subgoal's cell index.
    cells: Vec<u32>,
    /// Each subgoal's column and row.
    at: Vec<[i32; 2]>,
    /// Each subgoal's level: [`GLOBAL`], or the order in which it was made local.
    rank: Vec<u32>,
    /// Where each subgoal's edges begin in `edges`, plus the end.
    offsets: Vec<u32>,
    /// Where each subgoal's edges to local subgoals begin in `edges`.
    locals: Vec<u32>,
    /// The subgoals joined to each subgoal, grouped by subgoal, the global ones of each group
    /// first.
    edges: Vec<Edge>,
}

/// An edge of the subgoal graph: the subgoal it leads to, and that subgoal's column and row,
/// so that a search reads the step's cost and the estimate beyond it from the edge list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Edge {
    to: u32,
    x: u16,
    y: u16,
}

impl Edge {
    /// The edge to node `to` at `(x, y)`; a side is at most [`crate::grid::Grid::MAX_SIDE`].
    fn new(to: u32, x: i32, y: i32) -> Self {
        Self {
            to,
            x: x as u16,
            y: y as u16,
        }
    }
}

/// The level of a global subgoal, above every local one.
const GLOBAL: u32 = u32::MAX;

/// A subgoal with more neighbours than this (among the subgoals still global) stays global.
const MAX_LOCAL_DEGREE: usize = 16;

/// Two path costs, in steps, that differ by less than this are equal.
const EPS: f64 = 1e-9;

/// The octile distance between two subgoals' positions, in steps.
#[inline]
fn octile_steps([ax, ay]: [i32; 2], [bx, by]: [i32; 2]) -> f64 {
    let (dx, dy) = (f64::from((ax - bx).abs()), f64::from((ay - by).abs()));
    dx.max(dy) + SQRT2_MINUS_1 * dx.min(dy)
}

/// Makes local every subgoal that the others can do without, least connected first, and
/// returns each subgoal's level.
///
/// A subgoal `s` goes local when, for every pair `p`, `q` of its neighbours still global,
/// a path `p`–`q` no dearer than through `s` avoids it: an edge `p`–`q`, two edges through
/// another global subgoal, or an octile path from `p` to `q` (when `s` lies on one), which
/// becomes a new edge. Otherwise `s` stays global. (A bounded Dijkstra search for longer
/// detours, as a contraction hierarchy does, made fewer than a tenth more subgoals local on
/// random maps and slowed the build more than it sped the queries.) The edges of `s` all stay in the graph.
///
/// As in a contraction hierarchy, some cheapest path between any two subgoals then climbs
/// the levels and comes down again, never passing a subgoal below both its neighbours on the
/// path (such a subgoal was made local while both were still global, so a detour no dearer
/// existed or was added). A query therefore searches the global subgoals, plus the local
/// ones reached by climbing from either end.
fn two_levels(
    graph: &SearchGraph,
    cells: &[usize],
    at: &[[i32; 2]],
    adjacent: &mut [Vec<u32>],
) -> Vec<u32> {
    let n = adjacent.len();
    let mut rank = vec![GLOBAL; n];
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.sort_by_key(|&i| adjacent[i as usize].len());
    let distance = |a: u32, b: u32| octile_steps(at[a as usize], at[b as usize]);
    let (mut neighbours, mut shortcuts, mut path) = (Vec::new(), Vec::new(), Vec::new());
    let mut level = 0;
    for s in order {
        neighbours.clear();
        neighbours.extend(
            adjacent[s as usize]
                .iter()
                .copied()
                .filter(|&v| rank[v as usize] == GLOBAL),
        );
        if neighbours.len() > MAX_LOCAL_DEGREE {
            continue;
        }
        shortcuts.clear();
        let joined = |a: u32, b: u32| adjacent[a as usize].binary_search(&b).is_ok();
        let mut removable = true;
        'pairs: for (k, &p) in neighbours.iter().enumerate() {
            for &q in &neighbours[k + 1..] {
                let through = distance(p, s) + distance(s, q);
                let detour = joined(p, q)
                    || adjacent[p as usize].iter().any(|&r| {
                        r != s
                            && rank[r as usize] == GLOBAL
                            && distance(p, r) + distance(r, q) <= through + EPS
                            && joined(r, q)
                    });
                if detour {
                    continue;
                }
                path.clear();
                if (distance(p, q) - through).abs() <= EPS
                    && octile_path(graph, cells[p as usize], cells[q as usize], &mut path)
                {
                    shortcuts.push((p, q));
                    continue;
                }
                removable = false;
                break 'pairs;
            }
        }
        if !removable {
            continue;
        }
        rank[s as usize] = level;
        level += 1;
        for &(p, q) in &shortcuts {
            for (a, b) in [(p, q), (q, p)] {
                let list = &mut adjacent[a as usize];
                if let Err(k) = list.binary_search(&b) {
                    list.insert(k, b);
                }
            }
        }
    }
    rank
}

impl SubgoalGraph {
    /// Finds the subgoals of a no-cut graph and the edges between them.
    pub fn build(graph: &SearchGraph) -> Self {
        let masks = graph.masks();
        let mut id = vec![NONE; masks.len()];
        let mut cells = Vec::new();
        for (i, &mask) in masks.iter().enumerate() {
            if is_corner(mask) {
                id[i] = cells.len() as u32;
                cells.push(i);
            }
        }
        let width = graph.width() as usize;
        let at: Vec<[i32; 2]> = cells
            .iter()
            .map(|&c| [(c % width) as i32, (c / width) as i32])
            .collect();
        // The simple subgoal graph, both ways.
        let mut adjacent = vec![Vec::new(); cells.len()];
        let mut scan = Scan::default();
        for (i, &cell) in cells.iter().enumerate() {
            scan.from(graph, &id, cell, None);
            for &c in &scan.found {
                let j = id[c as usize];
                adjacent[i].push(j);
                adjacent[j as usize].push(i as u32);
            }
        }
        for list in &mut adjacent {
            list.sort_unstable();
            list.dedup();
        }
        let rank = two_levels(graph, &cells, &at, &mut adjacent);
        // Each subgoal's global neighbours first, then its local ones.
        let mut offsets = Vec::with_capacity(cells.len() + 1);
        let mut locals = Vec::with_capacity(cells.len());
        let mut edges = Vec::with_capacity(adjacent.iter().map(Vec::len).sum());
        offsets.push(0u32);
        let edge = |&v: &u32| {
            let [x, y] = at[v as usize];
            Edge::new(v, x, y)
        };
        for list in &adjacent {
            edges.extend(
                list.iter()
                    .filter(|&&v| rank[v as usize] == GLOBAL)
                    .map(edge),
            );
            locals.push(edges.len() as u32);
            edges.extend(
                list.iter()
                    .filter(|&&v| rank[v as usize] != GLOBAL)
                    .map(edge),
            );
            offsets.push(edges.len() as u32);
        }
        Self {
            at,
            cells: cells.into_iter().map(|c| c as u32).collect(),
            id,
            rank,
            offsets,
            locals,
            edges,
        }
    }

    /// Whether a cell is a subgoal.
    #[inline]
    #[cfg(test)]
    fn is_subgoal(&self, cell: usize) -> bool {
        self.id[cell] != NONE
    }

    /// The number of subgoals.
    #[inline]
    fn len(&self) -> usize {
        self.cells.len()
    }

    /// The subgoals joined to subgoal `id`: the global ones, then the local ones.
    #[inline]
    fn edges_of(&self, id: usize) -> (&[Edge], &[Edge]) {
        let (start, split, end) = (
            self.offsets[id] as usize,
            self.locals[id] as usize,
            self.offsets[id + 1] as usize,
        );
        (&self.edges[start..split], &self.edges[split..end])
    }

    /// Marks with `side` (a bit of `active`) the local subgoals among `seeds` and those
    /// reached from them by edges that climb the levels, listing those newly active in
    /// `marked`. With `down`, also marks the global subgoals such a climb reaches, listing them
    /// in `downs`.
    fn climb(
        &self,
        seeds: &[u32],
        side: u8,
        (active, marked): (&mut [u8], &mut Vec<u32>),
        stack: &mut Vec<u32>,
        mut down: Option<(&mut [bool], &mut Vec<u32>)>,
    ) {
        stack.clear();
        let mut visit = |v: u32, active: &mut [u8], stack: &mut Vec<u32>| {
            let flags = &mut active[v as usize];
            if *flags & side == 0 {
                if *flags == 0 {
                    marked.push(v);
                }
                *flags |= side;
                stack.push(v);
            }
        };
        for &seed in seeds {
            if self.rank[seed as usize] != GLOBAL {
                visit(seed, active, stack);
            }
        }
        while let Some(u) = stack.pop() {
            let u = u as usize;
            let (globals, locals) = self.edges_of(u);
            if let Some((down, downs)) = down.as_mut() {
                for e in globals {
                    if !down[e.to as usize] {
                        down[e.to as usize] = true;
                        downs.push(e.to);
                    }
                }
            }
            for e in locals {
                if self.rank[e.to as usize] > self.rank[u] {
                    visit(e.to, active, stack);
                }
            }
        }
    }

    /// Its sizes.
    pub fn summary(&self) -> SubgoalSummary {
        SubgoalSummary {
            subgoals: self.cells.len(),
            global: self.rank.iter().filter(|&&r| r == GLOBAL).count(),
            edges: self.edges.len(),
            bytes: 4
                * (self.id.len()
                    + self.cells.len()
                    + self.rank.len()
                    + self.offsets.len()
                    + self.locals.len())
                + 8 * (self.at.len() + self.edges.len()),
        }
    }
}

/// The scratch of the scans that find the subgoals h-reachable from a cell.
#[derive(Debug, Default)]
pub(crate) struct Scan {
    /// The states of the previous row of the octant being scanned, by distance along `c`.
    prev: Vec<u8>,
    /// The states of the row being scanned.
    cur: Vec<u8>,
    /// The cells found by the last scan, sorted, without duplicates.
    found: Vec<u32>,
}

impl Scan {
    /// Scans the eight octants from `source` and leaves in `found` the subgoals reached along
    /// paths free of other subgoals, and `target` too when it is reached so.
    fn from(&mut self, graph: &SearchGraph, id: &[u32], source: usize, target: Option<usize>) {
        let len = graph.width().max(graph.height()) as usize + 2;
        if self.cur.len() < len {
            self.prev.resize(len, 0);
            self.cur.resize(len, 0);
        }
        self.found.clear();
        for octant in OCTANTS {
            self.octant(graph, id, source, target.unwrap_or(usize::MAX), octant);
        }
        self.found.sort_unstable();
        self.found.dedup();
    }

    /// Scans one octant from `source`; see the module documentation.
    fn octant(
        &mut self,
        graph: &SearchGraph,
        id: &[u32],
        source: usize,
        target: usize,
        (c, e, d): (usize, usize, usize),
    ) {
        let masks = graph.masks();
        let (dc, de) = (graph.delta(c), graph.delta(e));
        let (c_bit, d_bit) = (1u8 << c, 1u8 << d);
        // Row `i`, distance `k` along `c`: `k` straight steps along `c` and `i` along `e`.
        let at =
            |i: usize, k: usize| (source as isize + k as isize * dc + i as isize * de) as usize;
        let Self { prev, cur, found } = self;
        // A cell reached along clean paths only: record it if it is a subgoal (and stop
        // there) or the target.
        let mut clean = |cell: usize| {
            if id[cell] != NONE {
                found.push(cell as u32);
                STOP
            } else {
                if cell == target {
                    found.push(cell as u32);
                }
                CLEAN
            }
        };
        // Row 0: the straight run along `c`.
        cur[0] = CLEAN;
        let mut k = 0;
        while cur[k] == CLEAN && masks[at(0, k)] & c_bit != 0 {
            k += 1;
            cur[k] = clean(at(0, k));
        }
        let (mut lo, mut hi) = (0, k);
        for i in 1.. {
            std::mem::swap(prev, cur);
            let start = lo + 1;
            let (mut first, mut last) = (usize::MAX, 0);
            let mut k = start;
            loop {
                let from_diagonal =
                    if k - 1 <= hi && prev[k - 1] != 0 && masks[at(i - 1, k - 1)] & d_bit != 0 {
                        prev[k - 1]
                    } else {
                        0
                    };
                let from_straight =
                    if k > start && cur[k - 1] != 0 && masks[at(i, k - 1)] & c_bit != 0 {
                        cur[k - 1]
                    } else {
                        0
                    };
                let state = match (from_diagonal, from_straight) {
                    (0, 0) => 0,
                    (CLEAN, 0) | (0, CLEAN) | (CLEAN, CLEAN) => clean(at(i, k)),
                    (CLEAN, STOP) | (STOP, CLEAN) => STOP,
                    // Reached through stops only: left to the stops' own scans.
                    _ => 0,
                };
                cur[k] = state;
                if state != 0 {
                    first = first.min(k);
                    last = k;
                }
                if k > hi && state != CLEAN {
                    break;
                }
                k += 1;
            }
            if first == usize::MAX {
                return;
            }
            (lo, hi) = (first, last);
        }
    }
}

/// The per-searcher state of subgoal graph queries.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    scan: Scan,
    /// The edges to the nodes (subgoals, maybe the goal) joined to a start that is not a
    /// subgoal.
    from_start: Vec<Edge>,
    /// The subgoals joined to a goal that is not a subgoal.
    to_goal: Vec<u32>,
    /// Whether each subgoal is joined to the goal (set for `to_goal` during a search only).
    joins_goal: Vec<bool>,
    /// The local subgoals the search may enter: bit 1 when climbed to from the start, bit 2
    /// from the goal (set for `marked` during a search only).
    active: Vec<u8>,
    /// The subgoals set in `active`.
    marked: Vec<u32>,
    /// The global subgoals from which the search may step down to local ones (set for
    /// `downs` during a search only).
    down: Vec<bool>,
    /// The subgoals set in `down`.
    downs: Vec<u32>,
    /// The subgoals a climb starts from.
    seeds: Vec<u32>,
    /// The subgoals a climb has yet to leave.
    stack: Vec<u32>,
    /// The state of each node.
    nodes: Nodes,
    /// The cells of the path's nodes, goal first.
    chain: Vec<usize>,
}

/// The direction index of the step `(dx, dy)`, each −1, 0 or 1, not both 0.
fn direction(dx: i32, dy: i32) -> usize {
    (0..8)
        .find(|&d| DX[d] == dx && DY[d] == dy)
        .unwrap_or_default()
}

/// Appends to `out` the cells after `a` up to `b` of a path from `a` to `b` no longer than
/// their octile distance, which exists for every edge of the graph.
fn refine(graph: &SearchGraph, a: usize, b: usize, out: &mut Vec<usize>) {
    let found = octile_path(graph, a, b, out);
    debug_assert!(found, "an edge of the subgoal graph has no octile path");
}

/// Appends to `out` the cells after `a` up to `b` of a path from `a` to `b` no longer than
/// their octile distance, and returns true; returns false, leaving `out` as it was, when there
/// is none. Tries the diagonal steps first, then the straight ones first, then any order.
fn octile_path(graph: &SearchGraph, a: usize, b: usize, out: &mut Vec<usize>) -> bool {
    let width = graph.width() as usize;
    let (ax, ay) = ((a % width) as i32, (a / width) as i32);
    let (bx, by) = ((b % width) as i32, (b / width) as i32);
    let (dx, dy) = (bx - ax, by - ay);
    let diagonals = dx.abs().min(dy.abs()) as usize;
    let straights = dx.abs().max(dy.abs()) as usize - diagonals;
    let d = direction(dx.signum(), dy.signum());
    let c = if dx.abs() >= dy.abs() {
        direction(dx.signum(), 0)
    } else {
        direction(0, dy.signum())
    };
    let masks = graph.masks();
    let walk = |first: (usize, usize), second: (usize, usize), out: &mut Vec<usize>| {
        let mark = out.len();
        let mut cell = a;
        for (dir, count) in [first, second] {
            for _ in 0..count {
                if masks[cell] & (1u8 << dir) == 0 {
                    out.truncate(mark);
                    return false;
                }
                cell = (cell as isize + graph.delta(dir)) as usize;
                out.push(cell);
            }
        }
        true
    };
    if walk((d, diagonals), (c, straights), out) || walk((c, straights), (d, diagonals), out) {
        return true;
    }
    // Some other interleaving: which (diagonal, straight) counts still lead to `b`, from the
    // end back, then a walk forward through them.
    let at = |p: usize, q: usize| {
        (a as isize + p as isize * graph.delta(d) + q as isize * graph.delta(c)) as usize
    };
    let columns = straights + 1;
    let mut leads = vec![false; (diagonals + 1) * columns];
    for p in (0..=diagonals).rev() {
        for q in (0..=straights).rev() {
            leads[p * columns + q] = (p == diagonals && q == straights)
                || (p < diagonals
                    && masks[at(p, q)] & (1u8 << d) != 0
                    && leads[(p + 1) * columns + q])
                || (q < straights
                    && masks[at(p, q)] & (1u8 << c) != 0
                    && leads[p * columns + q + 1]);
        }
    }
    if !leads[0] {
        return false;
    }
    let (mut p, mut q) = (0, 0);
    while p < diagonals || q < straights {
        if p < diagonals && masks[at(p, q)] & (1u8 << d) != 0 && leads[(p + 1) * columns + q] {
            p += 1;
        } else {
            q += 1;
        }
        out.push(at(p, q));
    }
    true
}

/// The state of a node in a search over a subgoal graph.
#[derive(Clone, Copy, Debug, Default)]
struct NodeState {
    /// The cost so far; meaningful when `seen` is the search's generation or the next.
    g: f64,
    /// The generation of the last search that reached the node: the current search's when
    /// open, one more when expanded.
    seen: u32,
    /// The node it was reached from.
    parent: u32,
}

/// The node states of the searches over a subgoal graph, in one array (a node's cost, state
/// and parent share a cache line), started anew by a generation count rather than cleared.
#[derive(Debug, Default)]
pub(crate) struct Nodes {
    states: Vec<NodeState>,
    generation: u32,
    heap: Heap,
}

impl Nodes {
    /// Starts a search over `len` nodes.
    fn begin(&mut self, len: usize) {
        if self.states.len() != len || self.generation >= u32::MAX - 2 {
            self.states.clear();
            self.states.resize(len, NodeState::default());
            self.generation = 0;
        }
        self.generation += 2;
        self.heap.clear();
    }

    /// Records a cost and parent for a node; returns whether it improved on what was known
    /// and the node is still open.
    #[inline(always)]
    fn relax(&mut self, i: usize, g: f64, parent: u32) -> bool {
        let generation = self.generation;
        let state = &mut self.states[i];
        if state.seen < generation || (state.seen == generation && g < state.g) {
            *state = NodeState {
                g,
                seen: generation,
                parent,
            };
            true
        } else {
            false
        }
    }

    /// Marks a node expanded; false when it already was.
    #[inline(always)]
    fn close(&mut self, i: usize) -> bool {
        let state = &mut self.states[i];
        let open = state.seen == self.generation;
        state.seen = self.generation + 1;
        open
    }
}

/// A* over the subgoal graph from `start` to `goal` (cell indices, distinct): the nodes are
/// the subgoals by number, then the start and the goal when they are not subgoals. Leaves the
/// cells of the path found (goal first) in `scratch.chain`; returns whether it found one.
fn search<const RECORD: bool>(
    graph: &SearchGraph,
    subgoals: &SubgoalGraph,
    scratch: &mut Scratch,
    (start, goal): (usize, usize),
    cost: f64,
    (stats, order, control): (&mut Stats, &mut Vec<u32>, &SearchControl),
) -> bool {
    let width = graph.width() as usize;
    let n = subgoals.len();
    let id = &subgoals.id;
    let node_of = |cell: usize, own: usize| match id[cell] {
        NONE => own,
        i => i as usize,
    };
    let (start_node, goal_node) = (node_of(start, n), node_of(goal, n + 1));
    let ends = [
        [(start % width) as i32, (start / width) as i32],
        [(goal % width) as i32, (goal / width) as i32],
    ];
    let at = |node: usize| {
        if node < n {
            subgoals.at[node]
        } else {
            ends[node - n]
        }
    };
    let edge_to = |node: usize| {
        let [x, y] = at(node);
        Edge::new(node as u32, x, y)
    };
    let Scratch {
        scan,
        from_start,
        to_goal,
        joins_goal,
        active,
        marked,
        down,
        downs,
        seeds,
        stack,
        nodes,
        chain,
    } = scratch;
    // The ends: joined to the graph by scans of their own, unless they are in it.
    from_start.clear();
    if start_node == n {
        scan.from(graph, id, start, Some(goal));
        from_start.extend(
            scan.found
                .iter()
                .map(|&c| edge_to(node_of(c as usize, n + 1))),
        );
    }
    to_goal.clear();
    for flags in [&mut *joins_goal, &mut *down] {
        if flags.len() != n {
            flags.clear();
            flags.resize(n, false);
        }
    }
    if active.len() != n {
        active.clear();
        active.resize(n, 0);
    }
    if goal_node == n + 1 {
        scan.from(graph, id, goal, None);
        to_goal.extend(scan.found.iter().map(|&c| id[c as usize]));
        for &s in to_goal.iter() {
            joins_goal[s as usize] = true;
        }
    }
    // The local subgoals the cheapest path may use: those reached by climbing from either
    // end, and the global subgoals from which it may come down to the goal.
    seeds.clear();
    if start_node < n {
        seeds.push(start_node as u32);
    } else {
        seeds.extend(
            from_start
                .iter()
                .map(|e| e.to)
                .filter(|&s| (s as usize) < n),
        );
    }
    subgoals.climb(seeds, 1, (active, marked), stack, None);
    seeds.clear();
    if goal_node < n {
        seeds.push(goal_node as u32);
    } else {
        seeds.extend_from_slice(to_goal);
    }
    subgoals.climb(seeds, 2, (active, marked), stack, Some((down, downs)));
    nodes.begin(n + 2);
    let [gx, gy] = ends[1];
    let estimate = Estimate::new(Heuristic::Octile, gx as u32, gy as u32, cost);
    let octile = |[ax, ay]: [i32; 2], bx: i32, by: i32| {
        let (dx, dy) = (f64::from((ax - bx).abs()), f64::from((ay - by).abs()));
        (dx.max(dy) + SQRT2_MINUS_1 * dx.min(dy)) * cost
    };
    nodes.relax(start_node, 0.0, start_node as u32);
    let [sx, sy] = ends[0];
    nodes.heap.push(Entry::new(
        estimate.octile_at(sx, sy),
        0.0,
        start_node as u32,
    ));
    let (mut expanded, mut pushed, mut max_open) = (0u64, 1u64, 1usize);
    let mut found = false;
    let goal_edge = [edge_to(goal_node)];
    while let Some(entry) = nodes.heap.pop() {
        let current = entry.cell() as usize;
        if !nodes.close(current) {
            continue;
        }
        expanded += 1;
        if RECORD {
            let cell = if current < n {
                subgoals.cells[current]
            } else {
                [start, goal][current - n] as u32
            };
            order.push(cell);
        }
        if control.should_stop(expanded) {
            stats.cancelled = true;
            break;
        }
        if current == goal_node {
            found = true;
            break;
        }
        // The next node to expand is most likely the new top of the open list: its edges
        // start loading while this one expands.
        if let Some(top) = nodes.heap.peek() {
            let top = top.cell() as usize;
            if top < n {
                prefetch(&subgoals.edges, subgoals.offsets[top] as usize);
            }
        }
        let g = nodes.states[current].g;
        let here = at(current);
        let (globals, locals, extra): (&[Edge], &[Edge], &[Edge]) = if current < n {
            let extra: &[Edge] = if joins_goal[current] { &goal_edge } else { &[] };
            let (globals, locals) = subgoals.edges_of(current);
            let may_step_down = subgoals.rank[current] != GLOBAL || down[current];
            (globals, if may_step_down { locals } else { &[] }, extra)
        } else {
            (&from_start[..], &[], &[])
        };
        for edge in globals {
            prefetch(&nodes.states, edge.to as usize);
        }
        let locals = locals.iter().filter(|e| active[e.to as usize] != 0);
        for edge in globals.iter().chain(locals).chain(extra) {
            let next = edge.to as usize;
            let (x, y) = (i32::from(edge.x), i32::from(edge.y));
            let ng = g + octile(here, x, y);
            if !nodes.relax(next, ng, current as u32) {
                continue;
            }
            nodes
                .heap
                .push(Entry::new(ng + estimate.octile_at(x, y), ng, next as u32));
            pushed += 1;
            max_open = max_open.max(nodes.heap.len());
        }
    }
    for &s in to_goal.iter() {
        joins_goal[s as usize] = false;
    }
    for &s in marked.iter() {
        active[s as usize] = 0;
    }
    for &s in downs.iter() {
        down[s as usize] = false;
    }
    marked.clear();
    downs.clear();
    stats.expanded += expanded;
    stats.pushed += pushed;
    stats.max_open = stats.max_open.max(max_open as u64);
    chain.clear();
    if found {
        let cell_of = |node: usize| {
            if node < n {
                subgoals.cells[node] as usize
            } else {
                [start, goal][node - n]
            }
        };
        let mut node = goal_node;
        while node != start_node {
            chain.push(cell_of(node));
            node = nodes.states[node].parent as usize;
        }
        chain.push(start);
    }
    found
}

/// The subgoal graph's run for the [registry](super::algorithms): builds the graph's subgoal
/// graph on first use (kept with the graph), then searches over it and refines the answer into
/// grid steps.
pub(crate) fn run(
    ws: &mut Workspace,
    q: &Query<'_>,
    control: &SearchControl,
    stats: &mut Stats,
) -> Option<Vec<usize>> {
    let graph = q.graph;
    let (start, goal) = (q.start, q.goal);
    if start == goal {
        return Some(vec![start]);
    }
    let subgoals = graph.subgoal_graph();
    let (order, scratch) = (&mut ws.order, &mut ws.subgoals);
    let ends = (start, goal);
    let found = if q.record() {
        search::<true>(
            graph,
            subgoals,
            scratch,
            ends,
            q.scale,
            (stats, order, control),
        )
    } else {
        search::<false>(
            graph,
            subgoals,
            scratch,
            ends,
            q.scale,
            (stats, order, control),
        )
    };
    if !found {
        return None;
    }
    let mut path = vec![start];
    for pair in scratch.chain.windows(2).rev() {
        refine(graph, pair[1], pair[0], &mut path);
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::search::Diagonal;

    #[test]
    fn subgoals_are_the_free_cells_at_obstacle_corners() {
        let grid =
            Grid::from_ascii(&[".....", ".....", "..#..", ".....", "....."]).expect("a valid map");
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        let subgoals = SubgoalGraph::build(&graph);
        let corners: Vec<(usize, usize)> = (0..graph.len())
            .filter(|&i| subgoals.is_subgoal(i))
            .map(|i| (i % 5, i / 5))
            .collect();
        assert_eq!(corners, [(1, 1), (3, 1), (1, 3), (3, 3)]);
        // Each corner sees the two beside it; the one across sees past the block only through
        // them.
        let top_left = subgoals.id[graph.index(crate::grid::Cell::new(1, 1))] as usize;
        let (globals, locals) = subgoals.edges_of(top_left);
        let mut joined: Vec<usize> = globals
            .iter()
            .chain(locals)
            .map(|e| subgoals.cells[e.to as usize] as usize)
            .collect();
        joined.sort_unstable();
        assert_eq!(joined, [3 + 5, 1 + 15]);
    }

    #[test]
    fn refinement_finds_an_octile_path_around_blocks() {
        // From the top left to the bottom right: neither the diagonal steps first nor the
        // straight steps first get through, a mix does.
        let grid = Grid::from_ascii(&["..#..", ".....", "..#.."]).expect("a valid map");
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        let (a, b) = (0, graph.len() - 1);
        let mut path = vec![a];
        refine(&graph, a, b, &mut path);
        assert_eq!(path.last(), Some(&b));
        let cells: Vec<_> = path.iter().map(|&i| graph.cell(i)).collect();
        let (cost, _) = graph.path_cost(&cells).expect("legal steps");
        assert!((cost - (2.0 + 2.0 * std::f64::consts::SQRT_2)).abs() < 1e-12);
    }
}
