//! IDA*: iterative deepening under a rising bound on f = g + h, as fringe search.
//!
//! IDA* proper searches depth-first from the start again for every bound, keeping only its
//! current path: on a grid, where many paths reach the same cell, it walks the same cells over
//! and over, and with weighted terrain, whose costs give a new f almost at every step, it
//! deepens once per distinct f. This is the same iterative deepening done as *fringe search*
//! (Björnsson, Enzenberger, Holte and Schaeffer, 2005), which keeps what IDA* throws away:
//!
//! - a cache of the cheapest cost so far (and the step it came by) of every cell reached, the
//!   transposition table, so that a cell is searched again only when reached more cheaply;
//! - the *fringe*, the cells at the edge of the last bound, in a linked list, so that the next
//!   bound goes on from there instead of from the start.
//!
//! Each pass walks the fringe in order: a cell whose f is within the bound is expanded, its
//! children put right after it (so the pass goes depth first), a cell beyond it is left for a
//! later pass. The next bound is the least f left beyond the bound, raised by
//! [`BAND`] (one sixteenth): with real-valued costs, stepping to the least f alone would make
//! a pass per distinct f.
//!
//! A bound above the optimal cost could let a dearer path reach the goal first, so reaching
//! the goal does not end the search: from then on only cells with an f below the goal's cost
//! are expanded, and the pass goes on until no cell in the fringe has one. A cheaper path would have such a cell (an
//! admissible estimate puts an f no higher than the optimum on every cell of an optimal path,
//! and the cheapest-known cost of the first of them not yet expanded is its optimal one), so
//! the path found is optimal with an admissible estimate, as A*'s is.
//!
//! It keeps a state byte, a cost and two list links per cell (A* keeps the first two and an
//! open list), and expands a cell again when it is reached more cheaply after its expansion,
//! which the bands make rare. A budget ([`IDASTAR_NODE_BUDGET`]) still bounds the expansions;
//! when it runs out the result says so (`stats.budget_exhausted`) rather than claiming there
//! is no path.

use crate::control::SearchControl;
use crate::search::frontier::fringe::Fringe;
use crate::search::graph::SearchGraph;
use crate::search::heuristic::Estimate;
use crate::search::outcome::walk_back;
use crate::search::request::Stats;
use crate::search::space::{CLOSED, EVER_CLOSED, NO_PARENT, Space, seen};
use crate::search::workspace::{Query, Workspace};

/// The most expansions one IDA* search may make before it gives up.
pub const IDASTAR_NODE_BUDGET: u64 = 5_000_000;

/// How far beyond the least f left over the next bound reaches, relative to it.
pub(crate) const BAND: f64 = 1.0 / 16.0;

/// Relative slack when comparing f against the bound, so rounding never cuts off the
/// optimal path.
const BOUND_SLACK: f64 = 1e-12;

/// How one search is bounded.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// The most expansions.
    pub budget: u64,
    /// How far the next bound reaches past the least f left over, relative to it (0: IDA*'s
    /// own rule, the least f alone).
    pub band: f64,
}

/// Runs fringe search from `start` to `goal` (cell indices). Returns the path's cells, or
/// `None` when the goal is unreachable or the budget ran out (then `stats.budget_exhausted`
/// is set). Expanded cells are appended to `order` when `RECORD` is set, once per expansion.
#[expect(
    clippy::too_many_arguments,
    reason = "a search takes the graph, its state, the request's parts and the control apart, so that the hot loop borrows each on its own"
)]
pub(crate) fn idastar<const RECORD: bool>(
    graph: &SearchGraph,
    (space, fringe): (&mut Space, &mut Fringe),
    start: usize,
    goal: usize,
    estimate: Estimate,
    limits: Limits,
    stats: &mut Stats,
    order: &mut Vec<u32>,
    control: &SearchControl,
) -> Option<Vec<usize>> {
    let width = graph.width() as usize;
    let h = |cell: usize| estimate.at((cell % width) as i32, (cell / width) as i32);
    let head = graph.len();
    space.begin(graph.len());
    fringe.begin(graph.len());
    space.reach(start, 0.0, NO_PARENT);
    fringe.insert_after(head, start);
    let (mut expanded, mut cells, mut in_fringe, mut largest) = (0u64, 0u64, 1u64, 1u64);
    let mut bound = h(start);
    // The goal's cost once reached; only cells below it can lead to a cheaper path.
    let mut best = f64::INFINITY;
    let found = 'deepening: loop {
        let mut least_beyond = f64::INFINITY;
        let mut cell = fringe.after(head);
        while cell != head {
            let g = space.g[cell];
            let f = g + h(cell);
            if f > bound * (1.0 + BOUND_SLACK) || f >= best {
                least_beyond = least_beyond.min(f);
                cell = fringe.after(cell);
                continue;
            }
            if cell == goal {
                // Found, though perhaps not yet at its cheapest when the bound is above the
                // optimum: the pass goes on with the cells below its cost.
                best = g;
            } else {
                if expanded >= limits.budget {
                    stats.budget_exhausted = true;
                    break 'deepening false;
                }
                expanded += 1;
                if RECORD {
                    order.push(cell as u32);
                }
                if space.state[cell] & EVER_CLOSED == 0 {
                    cells += 1;
                }
                if control.should_stop_counting_cells(expanded, cells) {
                    stats.cancelled = true;
                    break 'deepening false;
                }
                let mut untried = graph.mask(cell);
                while untried != 0 {
                    let d = untried.trailing_zeros() as usize;
                    untried &= untried - 1;
                    let next = (cell as isize + graph.delta(d)) as usize;
                    let ng = g + graph.step_cost(cell, next, d);
                    let state = space.state[next];
                    if state != 0 && ng >= space.g[next] {
                        continue;
                    }
                    if state == 0 {
                        space.reach(next, ng, d as u8);
                        in_fringe += 1;
                    } else {
                        if state & CLOSED == 0 {
                            fringe.remove(next);
                        } else {
                            in_fringe += 1;
                        }
                        space.state[next] = seen(d as u8) | (state & EVER_CLOSED);
                        space.g[next] = ng;
                    }
                    fringe.insert_after(cell, next);
                }
                largest = largest.max(in_fringe);
            }
            let after = fringe.after(cell);
            fringe.remove(cell);
            space.state[cell] |= CLOSED | EVER_CLOSED;
            in_fringe -= 1;
            cell = after;
        }
        if space.closed(goal) {
            break true;
        }
        if least_beyond.is_infinite() {
            break false;
        }
        bound = least_beyond * (1.0 + limits.band);
    };
    stats.expanded += expanded;
    stats.pushed += expanded;
    stats.max_open = stats.max_open.max(largest);
    found.then(|| walk_back(graph, space, goal, start))
}

/// IDA*'s run for the [registry](crate::search::algorithms), with [`IDASTAR_NODE_BUDGET`] and
/// bands of [`BAND`].
pub(crate) fn run(
    ws: &mut Workspace,
    q: &Query<'_>,
    control: &SearchControl,
    stats: &mut Stats,
) -> Option<Vec<usize>> {
    let (graph, estimate) = (q.graph, q.estimate_to_goal(1.0));
    let limits = Limits {
        budget: IDASTAR_NODE_BUDGET,
        band: BAND,
    };
    let state = (&mut ws.forward, &mut ws.fringe);
    if q.record() {
        idastar::<true>(
            graph,
            state,
            q.start,
            q.goal,
            estimate,
            limits,
            stats,
            &mut ws.order,
            control,
        )
    } else {
        idastar::<false>(
            graph,
            state,
            q.start,
            q.goal,
            estimate,
            limits,
            stats,
            &mut ws.order,
            control,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::UNCONTROLLED;
    use crate::grid::{Cell, Grid};
    use crate::search::{Algorithm, SearchRequest, Searcher};

    /// A 120 × 120 map of grass, swamp and road with a wall, `start` at the top left and the
    /// goal at the bottom right.
    fn weighted_map() -> Grid {
        let rows: Vec<String> = (0..120)
            .map(|y| {
                (0..120)
                    .map(|x| match (x * 7 + y * 13) % 11 {
                        _ if x == 60 && y < 100 => '#',
                        0 | 1 => '~',
                        2 => '=',
                        _ => '.',
                    })
                    .collect()
            })
            .collect();
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        Grid::from_ascii(&refs).expect("a valid map")
    }

    fn search(grid: &Grid, limits: Limits, control: &SearchControl) -> (Option<f64>, Stats) {
        let request = SearchRequest::new(Cell::new(0, 0), Cell::new(119, 119));
        let graph = SearchGraph::new(grid, request.diagonal);
        let mut ws = Workspace::default();
        let q = Query::new(&graph, &request);
        let mut stats = Stats::default();
        let path = idastar::<false>(
            &graph,
            (&mut ws.forward, &mut ws.fringe),
            q.start,
            q.goal,
            q.estimate_to_goal(1.0),
            limits,
            &mut stats,
            &mut ws.order,
            control,
        );
        let cost = path.map(|p| graph.index_path_cost(&p).expect("legal steps").0);
        (cost, stats)
    }

    #[test]
    fn bands_change_the_work_not_the_cost() {
        let grid = weighted_map();
        let request = SearchRequest::new(Cell::new(0, 0), Cell::new(119, 119));
        let astar = Searcher::new()
            .search(&SearchGraph::new(&grid, request.diagonal), &request)
            .expect("A* answers");
        for band in [0.0, BAND, 1.0] {
            let limits = Limits {
                budget: IDASTAR_NODE_BUDGET,
                band,
            };
            let (cost, stats) = search(&grid, limits, &UNCONTROLLED);
            let cost = cost.expect("a path");
            assert!(
                (cost - astar.cost).abs() <= 1e-9 * astar.cost,
                "band {band}: {cost} vs A*'s {}",
                astar.cost
            );
            assert!(!stats.budget_exhausted);
        }
    }

    #[test]
    fn a_budget_that_runs_out_says_so() {
        let limits = Limits {
            budget: 500,
            band: BAND,
        };
        let (cost, stats) = search(&weighted_map(), limits, &UNCONTROLLED);
        assert_eq!(cost, None);
        assert!(stats.budget_exhausted);
        assert_eq!(stats.expanded, 500);
    }

    #[test]
    fn its_progress_counts_cells_apart_from_expansions() {
        let grid = weighted_map();
        let control = SearchControl::new();
        assert_eq!(control.cells_expanded(), None);
        let limits = Limits {
            budget: IDASTAR_NODE_BUDGET,
            band: 1.0,
        };
        let (_, stats) = search(&grid, limits, &control);
        assert!(stats.expanded > SearchControl::CHECK_EVERY, "{stats:?}");
        let cells = control.cells_expanded().expect("published at a checkpoint");
        let passable = SearchGraph::new(&grid, Default::default()).passable_count() as u64;
        assert!(cells <= passable && cells <= control.expanded());
        // A wide band re-expands cells: the expansions pass the distinct cells.
        assert!(stats.expanded > cells, "{} vs {cells}", stats.expanded);
        // The registry's entry runs the same search.
        let request = SearchRequest::new(Cell::new(0, 0), Cell::new(119, 119))
            .with_algorithm(Algorithm::IdaStar);
        let graph = SearchGraph::new(&grid, request.diagonal);
        assert!(
            Searcher::new()
                .search(&graph, &request)
                .expect("answers")
                .found
        );
    }
}
