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
//! **Finding the edges.** A query whose goal is reached from the start by the octile path that
//! takes its diagonal steps first, or by the one that takes its straight steps first, returns that
//! path without a search. Otherwise, from a cell, each of the eight octants (a straight direction
//! `c` and the diagonal `d` beside it) is scanned row by row: row `i` holds the cells `i` diagonal
//! steps away, and a cell is reached from the one before it in its row (a step along `c`) or from
//! the one diagonally behind it in the previous row (a step along `d`). A reached subgoal is
//! recorded and not passed through. A cell reached from a subgoal (or from a cell that was) and
//! also from a clean cell has a path through a subgoal, so it is not passed through either:
//! whatever lies behind it is reached through that subgoal's own edges. This prunes each scan to
//! the region bounded by the nearest subgoals. Over open cells (those from which every step is
//! allowed) a row repeats one state, so a scan jumps from one closed cell (a wall's neighbour, a
//! subgoal, the map's edge) to the next, found in a bitset of each row and each column: its time
//! follows the edges of the area it covers, not the area. A scan may keep an edge that a stricter
//! rule would drop, which costs time but never optimality: every edge kept is a real h-reachable
//! pair, and every pair with a subgoal-free path is kept.
//!
//! Like jump point search, this holds for maps whose passable cells all cost the same, under
//! the no-cut rule; other maps are refused. The graph is built on first use and kept with the
//! [`SearchGraph`]; an edit drops it, and the next query builds it again.

use crate::control::SearchControl;
use crate::search::best_first_loop::{BestFirst, Tally, best_first_loop};
use crate::search::frontier::heap::Entry;
use crate::search::graph::SearchGraph;
use crate::search::preprocessed::subgoal_graph::{
    Edge, GLOBAL, LANDMARKS, Moves, NONE, Nodes, Scratch, SubgoalGraph, direct_path, octile_path,
    octile_steps,
};
use crate::search::request::Stats;
use crate::search::space::prefetch;
use crate::search::workspace::{Query, Workspace};

/// How many of the [`LANDMARKS`] a query reads: those whose costs bound the distance between
/// its ends best.
const ACTIVE_LANDMARKS: usize = 8;

/// Appends to `out` the cells after `a` up to `b` of a path from `a` to `b` no longer than
/// their octile distance, which exists for every edge of the graph.
fn refine(moves: &Moves<'_>, a: usize, b: usize, out: &mut Vec<usize>) {
    let found = octile_path(moves, a, b, out);
    debug_assert!(found, "an edge of the subgoal graph has no octile path");
}

/// The subgoal graph's part of the [best-first loop](best_first_loop): a node's edges, the
/// local ones only toward the subgoals the cheapest path may use. `At`, `CellOf` and `H` give
/// a node's place, its cell and its estimate.
struct Search<'a, const RECORD: bool, At, CellOf, H> {
    nodes: &'a mut Nodes,
    order: &'a mut Vec<u32>,
    subgoals: &'a SubgoalGraph,
    joins_goal: &'a [bool],
    down: &'a [bool],
    active: &'a [u8],
    from_start: &'a [Edge],
    goal_edge: [Edge; 1],
    cost: f64,
    at: At,
    cell_of: CellOf,
    h: H,
}

impl<const RECORD: bool, At, CellOf, H> BestFirst for Search<'_, RECORD, At, CellOf, H>
where
    At: Fn(usize) -> [i32; 2],
    CellOf: Fn(usize) -> usize,
    H: Fn(usize, i32, i32) -> f64,
{
    #[inline(always)]
    fn pop(&mut self) -> Option<Entry> {
        self.nodes.heap.pop()
    }

    #[inline(always)]
    fn close(&mut self, entry: Entry, _: &mut Tally) -> bool {
        self.nodes.close(entry.cell() as usize)
    }

    #[inline(always)]
    fn record(&mut self, entry: Entry) {
        if RECORD {
            self.order
                .push((self.cell_of)(entry.cell() as usize) as u32);
        }
    }

    #[inline(always)]
    fn expand(&mut self, entry: Entry, tally: &mut Tally) {
        let (subgoals, nodes) = (self.subgoals, &mut *self.nodes);
        let n = subgoals.len();
        let current = entry.cell() as usize;
        // The next node to expand is most likely the new top of the open list: its edges
        // start loading while this one expands.
        if let Some(top) = nodes.heap.peek() {
            let top = top.cell() as usize;
            if top < n {
                prefetch(&subgoals.edges, subgoals.offsets[top] as usize);
            }
        }
        let g = nodes.states[current].g;
        let here = (self.at)(current);
        let (globals, locals, extra): (&[Edge], &[Edge], &[Edge]) = if current < n {
            let extra: &[Edge] = if self.joins_goal[current] {
                &self.goal_edge
            } else {
                &[]
            };
            let (globals, locals) = subgoals.edges_of(current);
            let may_step_down = subgoals.rank[current] != GLOBAL || self.down[current];
            (globals, if may_step_down { locals } else { &[] }, extra)
        } else {
            (self.from_start, &[], &[])
        };
        for edge in globals {
            prefetch(&nodes.states, edge.to as usize);
        }
        let active = self.active;
        let locals = locals.iter().filter(|e| active[e.to as usize] != 0);
        for edge in globals.iter().chain(locals).chain(extra) {
            let next = edge.to as usize;
            let (x, y) = (i32::from(edge.x), i32::from(edge.y));
            let ng = g + octile_steps(here, [x, y]) * self.cost;
            if !nodes.relax(next, ng, current as u32) {
                continue;
            }
            nodes
                .heap
                .push(Entry::new(ng + (self.h)(next, x, y), ng, next as u32));
            tally.pushed += 1;
            tally.max_open = tally.max_open.max(nodes.heap.len());
        }
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
    let moves = graph.moves();
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
    let cell_of = |node: usize| {
        if node < n {
            subgoals.cells[node] as usize
        } else {
            [start, goal][node - n]
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
        scan.from(&moves, (id, &subgoals.closed), start, Some(goal));
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
        scan.from(&moves, (id, &subgoals.closed), goal, None);
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
    // The ends' costs from the landmarks: their own, or through the subgoals they are joined
    // to (exact: a cheapest path reaches an end from one of them).
    let costs_at = |node: usize, joined: &mut dyn Iterator<Item = u32>, end: [i32; 2]| {
        if node < n {
            return subgoals.landmarks[node];
        }
        let mut costs = [f64::INFINITY; LANDMARKS];
        for s in joined.filter(|&s| (s as usize) < n) {
            let (row, step) = (
                &subgoals.landmarks[s as usize],
                octile_steps(subgoals.at[s as usize], end),
            );
            for (best, &from) in costs.iter_mut().zip(row) {
                *best = best.min(from + step);
            }
        }
        costs
    };
    let goal_costs = costs_at(goal_node, &mut to_goal.iter().copied(), ends[1]);
    let start_costs = costs_at(start_node, &mut from_start.iter().map(|e| e.to), ends[0]);
    // The landmarks that bound the start's cost to the goal best are the ones read.
    let mut ranked: [usize; LANDMARKS] = std::array::from_fn(|k| k);
    let bound = |k: usize| {
        let difference = (start_costs[k] - goal_costs[k]).abs();
        if difference.is_finite() {
            difference
        } else {
            -1.0
        }
    };
    ranked.sort_by(|&a, &b| bound(b).total_cmp(&bound(a)));
    let mut read = [0usize; ACTIVE_LANDMARKS];
    let mut count = 0;
    for &k in &ranked[..ACTIVE_LANDMARKS] {
        if bound(k) >= 0.0 {
            read[count] = k;
            count += 1;
        }
    }
    let read = &read[..count];
    // The larger of the octile and the landmarks' estimates, for a node at `(x, y)`.
    let h = |node: usize, x: i32, y: i32| {
        let octile = octile_steps([x, y], ends[1]) * cost;
        if node >= n {
            return octile;
        }
        let costs = &subgoals.landmarks[node];
        let mut best = 0.0f64;
        for &k in read {
            let difference = (costs[k] - goal_costs[k]).abs();
            if difference.is_finite() {
                best = best.max(difference);
            }
        }
        octile.max(best * cost)
    };
    nodes.relax(start_node, 0.0, start_node as u32);
    let [sx, sy] = ends[0];
    nodes.heap.push(Entry::new(
        octile_steps([sx, sy], ends[1]) * cost,
        0.0,
        start_node as u32,
    ));
    let mut search = Search::<RECORD, _, _, _> {
        nodes: &mut *nodes,
        order,
        subgoals,
        joins_goal: &joins_goal[..],
        down: &down[..],
        active: &active[..],
        from_start: &from_start[..],
        goal_edge: [edge_to(goal_node)],
        cost,
        at,
        cell_of,
        h,
    };
    let found = best_first_loop(&mut search, goal_node, control, stats);
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
    chain.clear();
    if found {
        let mut node = goal_node;
        while node != start_node {
            chain.push(cell_of(node));
            node = nodes.states[node].parent as usize;
        }
        chain.push(start);
    }
    found
}

/// The subgoal graph's run for the [registry](crate::search::algorithms): builds the graph's subgoal
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
    // A goal reached by one of the two plainest octile paths needs no search: no path is
    // shorter than the octile distance.
    let moves = graph.moves();
    let mut path = vec![start];
    if direct_path(&moves, start, goal, &mut path) {
        stats.expanded += 1;
        stats.pushed += 1;
        stats.max_open = stats.max_open.max(1);
        if q.record() {
            ws.order.push(start as u32);
        }
        return Some(path);
    }
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
    for pair in scratch.chain.windows(2).rev() {
        refine(&moves, pair[1], pair[0], &mut path);
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
        let subgoals = SubgoalGraph::build(&graph.moves());
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
        refine(&graph.moves(), a, b, &mut path);
        assert_eq!(path.last(), Some(&b));
        let cells: Vec<_> = path.iter().map(|&i| graph.cell(i)).collect();
        let (cost, _) = graph.path_cost(&cells).expect("legal steps");
        assert!((cost - (2.0 + 2.0 * std::f64::consts::SQRT_2)).abs() < 1e-12);
    }
}
