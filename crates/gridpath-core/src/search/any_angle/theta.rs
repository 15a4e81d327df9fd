//! Theta* and Lazy Theta* (Nash, Daniel, Koenig and Felner): A* over cell centres whose
//! paths are not bound to the grid's eight directions.
//!
//! Theta* is A* with one change: when it expands a cell `s` and relaxes a neighbour `n`, it
//! also tries to reach `n` straight from `s`'s own parent, when the segment between the two
//! centres is in line of sight. The path is then the chain of parents, each joined to the next
//! by a straight segment. On weighted terrain a segment costs the terrain cost integrated along
//! it ([`Segment::cost`](crate::smooth::Segment::cost), as the smoother charges its shortcuts),
//! and the search keeps the cheaper of the grid step and the segment; on a map of one cost the
//! segment is never dearer, as in the original.
//!
//! Lazy Theta* assumes line of sight when it reaches a cell and charges the segment its lower
//! bound (its length times the cheapest terrain, exact on a map of one cost), and checks it only
//! when it takes the cell off the open list. When the segment is blocked, the cell takes the
//! cheapest of its expanded neighbours as its parent instead; when it turns out dearer than
//! assumed (on weighted terrain), the cell goes back on the open list with its true cost. It
//! walks one segment per expansion instead of one per relaxed neighbour.
//!
//! Both rank cells by cost so far plus the straight-line distance to the goal times the
//! cheapest terrain cost, which never overestimates any path, straight or not (the octile
//! distance would, on a segment at an angle).
//!
//! # What is guaranteed
//!
//! - Never dearer than the cheapest grid path (up to rounding): every relaxation weighs the
//!   grid step itself, and the estimate never drops by more than a grid step costs, so, as in
//!   A*'s own argument, a cell is expanded at no more than its cheapest grid cost. (Lazy Theta*
//!   keeps this by checking a cell before it expands it, and by putting a cell whose check
//!   raised its cost back on the list rather than expanding it early.)
//! - Not the cheapest any-angle path: a cell keeps the parent it had when it was expanded,
//!   even if a later cell could have given it a straighter one, and a segment starts only at a
//!   cell centre. In practice the paths are a few percent cheaper than the best grid path and
//!   close to the shortest path of all.
//!
//! ```
//! use gridpath_core::grid::{Cell, Grid};
//! use gridpath_core::search::{Algorithm, SearchRequest, solve};
//!
//! // Around a wall: the grid path zig-zags, the any-angle path takes two straight segments.
//! let grid = Grid::from_ascii(&["........", "...##...", "...##...", "........"])
//!     .expect("a valid map");
//! let request = SearchRequest::new(Cell::new(0, 3), Cell::new(7, 0));
//! let grid_path = solve(&grid, &request).expect("plans");
//! let theta = solve(&grid, &request.clone().with_algorithm(Algorithm::Theta)).expect("plans");
//! assert!(theta.cost < grid_path.cost);
//! let waypoints = theta.waypoints.expect("an any-angle path");
//! assert_eq!(waypoints.first(), Some(&Cell::new(0, 3)));
//! assert_eq!(waypoints.last(), Some(&Cell::new(7, 0)));
//! assert!(waypoints.len() <= 4);
//! // The cells the segments cross stay a chain of grid steps.
//! assert_eq!(theta.path.first(), Some(&Cell::new(0, 3)));
//! assert_eq!(theta.path.last(), Some(&Cell::new(7, 0)));
//! ```

use crate::grid::Cell;

use crate::control::SearchControl;
use crate::search::any_angle::{
    centre_distance, clear_cost, in_sight, sight_cost_between, walk_back,
};
use crate::search::best_first_loop::{BestFirst, Tally, best_first_loop};
use crate::search::frontier::heap::Entry;
use crate::search::graph::{DX, DY, SearchGraph};
use crate::search::heuristic::Estimate;
use crate::search::request::{Heuristic, Stats};
use crate::search::space::{NO_PARENT, Space};
use crate::search::workspace::{Query, Workspace};

/// Costs within this factor of each other count as equal: a segment and the grid steps along
/// it, or a segment's lower bound and its integral, differ by rounding only.
const TIE: f64 = 1.0 + 1e-12;

/// Theta*'s run for the [registry](crate::search::algorithms): returns the path's vertices (cell
/// indices, start first).
pub(crate) fn run_theta(
    ws: &mut Workspace,
    q: &Query<'_>,
    control: &SearchControl,
    stats: &mut Stats,
) -> Option<Vec<usize>> {
    search::<false>(ws, q, control, stats)
}

/// Lazy Theta*'s run for the [registry](crate::search::algorithms).
pub(crate) fn run_lazy_theta(
    ws: &mut Workspace,
    q: &Query<'_>,
    control: &SearchControl,
    stats: &mut Stats,
) -> Option<Vec<usize>> {
    search::<true>(ws, q, control, stats)
}

/// Theta*'s part of the [best-first loop](best_first_loop), Lazy Theta*'s when `LAZY`: the
/// check of an assumed segment before a cell closes, and the segments from the parent.
struct Search<'a, const LAZY: bool> {
    graph: &'a SearchGraph,
    space: &'a mut Space,
    parents: &'a mut [u32],
    checked: &'a mut [bool],
    order: &'a mut Vec<u32>,
    record: bool,
    estimate: Estimate,
    scale: f64,
}

impl<const LAZY: bool> Search<'_, LAZY> {
    /// The estimate at cell `i`.
    #[inline(always)]
    fn h(&self, i: usize) -> f64 {
        let cell = self.graph.cell(i);
        self.estimate.at(cell.x as i32, cell.y as i32)
    }
}

impl<const LAZY: bool> BestFirst for Search<'_, LAZY> {
    #[inline(always)]
    fn pop(&mut self) -> Option<Entry> {
        self.space.heap.pop()
    }

    #[inline(always)]
    fn close(&mut self, entry: Entry, tally: &mut Tally) -> bool {
        let (graph, current) = (self.graph, entry.cell() as usize);
        if self.space.closed(current) {
            return false;
        }
        // A check can raise a cell's cost, and then an entry pushed before it ranks too early:
        // the entry of its true cost is still on the list.
        if LAZY && entry.priority() < self.space.g[current] + self.h(current) {
            return false;
        }
        if LAZY && !self.checked[current] {
            let (space, parents) = (&mut *self.space, &mut *self.parents);
            // The segment from the parent was assumed clear and charged its lower bound:
            // check it, and take the cheapest expanded neighbour when it is blocked.
            self.checked[current] = true;
            let assumed = space.g[current];
            let parent = parents[current] as usize;
            let (from, to) = (graph.cell(parent), graph.cell(current));
            let length = centre_distance(from, to);
            let (mut best, mut best_parent) =
                match sight_cost_from(graph, space, parents, parent, from, to, length) {
                    Some(cost) => (space.g[parent] + cost, parent),
                    None => (f64::INFINITY, parent),
                };
            let mut mask = graph.mask(current);
            while mask != 0 {
                let d = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let next = current.wrapping_add_signed(graph.delta(d));
                if space.closed(next) {
                    let through = space.g[next] + graph.step_cost(current, next, d);
                    if through < best {
                        (best, best_parent) = (through, next);
                    }
                }
            }
            space.g[current] = best;
            parents[current] = best_parent as u32;
            if best > assumed * TIE {
                // Dearer than it was ranked: back on the open list at its true cost.
                let f = best + self.h(current);
                self.space.heap.push(Entry::new(f, best, current as u32));
                tally.pushed += 1;
                return false;
            }
        }
        self.space.close(current);
        true
    }

    #[inline(always)]
    fn record(&mut self, entry: Entry) {
        if self.record {
            self.order.push(entry.cell());
        }
    }

    #[inline(always)]
    fn expand(&mut self, entry: Entry, tally: &mut Tally) {
        let (graph, space, parents) = (self.graph, &mut *self.space, &mut *self.parents);
        let current = entry.cell() as usize;
        let g = space.g[current];
        let parent = parents[current] as usize;
        let parent_g = space.g[parent];
        // Coordinates once per expansion: the neighbours' follow by their direction.
        let here = graph.cell(current);
        let (x, y) = (here.x as i32, here.y as i32);
        let from = graph.cell(parent);
        let (px, py) = (from.x as i32, from.y as i32);
        let mut mask = graph.mask(current);
        while mask != 0 {
            let d = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let next = current.wrapping_add_signed(graph.delta(d));
            if space.closed(next) {
                continue;
            }
            let old = space.g(next);
            // The grid step from the cell itself.
            let (mut best, mut best_parent, mut sure) =
                (g + graph.step_cost(current, next, d), current, true);
            // Straight from the cell's parent, when that could be as cheap: on a tie (a
            // straight line on, rounding aside) the segment wins, saving a vertex.
            if parent != current {
                let (nx, ny) = (x + DX[d], y + DY[d]);
                let (dx, dy) = (f64::from(nx - px), f64::from(ny - py));
                let length = (dx * dx + dy * dy).sqrt();
                // No segment costs less than its length times the cheapest terrain.
                let bound = parent_g + length * self.scale;
                // Only a strictly cheaper cost changes the cell: a cell already reached from
                // this parent is not checked again.
                if bound <= best * TIE && bound < old {
                    if LAZY {
                        (best, best_parent, sure) = (bound, parent, false);
                    } else if let Some(cost) = sight_cost_from(
                        graph,
                        space,
                        parents,
                        parent,
                        from,
                        Cell::new(nx as u32, ny as u32),
                        length,
                    ) && parent_g + cost <= best * TIE
                    {
                        (best, best_parent) = (parent_g + cost, parent);
                    }
                }
            }
            if best < old {
                space.relax(next, best, NO_PARENT);
                parents[next] = best_parent as u32;
                self.checked[next] = sure;
                space.heap.push(Entry::new(
                    best + self.estimate.at(x + DX[d], y + DY[d]),
                    best,
                    next as u32,
                ));
                tally.pushed += 1;
            }
        }
        tally.max_open = tally.max_open.max(space.heap.len());
    }
}

/// The search, Lazy Theta* when `LAZY`.
fn search<const LAZY: bool>(
    ws: &mut Workspace,
    q: &Query<'_>,
    control: &SearchControl,
    stats: &mut Stats,
) -> Option<Vec<usize>> {
    let graph = q.graph;
    let n = graph.len();
    let (start, goal) = (q.start, q.goal);
    let Workspace {
        forward: space,
        order,
        vertex_parents: parents,
        checked,
        ..
    } = ws;
    space.begin(n);
    if parents.len() != n {
        parents.clear();
        parents.resize(n, 0);
        checked.clear();
        checked.resize(n, true);
    }
    let estimate = q.estimate_by(Heuristic::Euclidean, 1.0);
    let mut search = Search::<LAZY> {
        graph,
        space,
        parents,
        checked,
        order,
        record: q.record(),
        estimate,
        scale: q.scale,
    };
    search.space.relax(start, 0.0, NO_PARENT);
    search.parents[start] = start as u32;
    search.checked[start] = true;
    let h = search.h(start);
    search.space.heap.push(Entry::new(h, 0.0, start as u32));
    let found = best_first_loop(&mut search, goal, control, stats);
    found.then(|| walk_back(search.parents, goal, start))
}

/// The cost of the segment from the centre of `from`, the cell of vertex `parent`, to the
/// centre of `to`, `length` apart, when it is in line of sight: [`sight_cost_between`]'s
/// answer, with the walk shortened along a straight run.
///
/// When `to` lies three or more steps from `from` in one of the eight directions, and the
/// cell one step before `to` has been expanded with `parent` as its vertex parent, the segment
/// to that cell is in line of sight: a vertex parent that is not a neighbour is taken only
/// through a check (Theta*) or checked before its cell is expanded (Lazy Theta*). That segment
/// and the step on to `to` make up the segment from `from`, so the cells it touches are theirs
/// together, and only the last step needs walking. A search along a straight corridor then
/// checks each cell in constant time rather than in the corridor's length. On weighted
/// terrain the cost is still the integral along the whole segment, walked cell by cell.
fn sight_cost_from(
    graph: &SearchGraph,
    space: &Space,
    parents: &[u32],
    parent: usize,
    from: Cell,
    to: Cell,
    length: f64,
) -> Option<f64> {
    let (dx, dy) = (
        i64::from(to.x) - i64::from(from.x),
        i64::from(to.y) - i64::from(from.y),
    );
    let straight = dx == 0 || dy == 0 || dx.abs() == dy.abs();
    if straight && dx.abs().max(dy.abs()) >= 3 {
        // Both ends are on the map, so the cell between them is too.
        let before = Cell::new(
            (i64::from(to.x) - dx.signum()) as u32,
            (i64::from(to.y) - dy.signum()) as u32,
        );
        let b = graph.index(before);
        if space.closed(b) && parents[b] as usize == parent {
            return if in_sight(graph, before, to) {
                clear_cost(graph, from, to, length)
            } else {
                None
            };
        }
    }
    sight_cost_between(graph, from, to, length)
}
