//! "Go as close as you can": when the goal cannot be reached — walled off, or on an impassable
//! cell — a request with [`SearchRequest::partial`] plans to the reachable cell nearest the
//! goal instead, and the result says so ([`SearchResult::reached`]).
//!
//! The nearest reachable cell is the one closest to the goal by the request's heuristic
//! distance (octile or manhattan by the diagonal rule when the request uses none; hex distance
//! on a hex map), then the
//! cheapest to reach, then the first in row order. One Dijkstra from the start finds it; the
//! requested algorithm then plans to it, so a greedy search stays greedy.
//!
//! ```
//! use gridpath_core::grid::{Cell, Grid};
//! use gridpath_core::search::{SearchRequest, solve};
//!
//! // The goal sits in a walled room: the path ends above the room, two cells from the goal.
//! let grid = Grid::from_ascii(&["......", "...###", "...#..", "...###"]).expect("a valid map");
//! let request = SearchRequest::new(Cell::new(0, 0), Cell::new(5, 2)).with_partial(true);
//! let result = solve(&grid, &request).expect("plans");
//! assert!(!result.found);
//! assert_eq!(result.reached, Some(Cell::new(5, 0)));
//! assert_eq!(result.path.last(), Some(&Cell::new(5, 0)));
//! ```

use crate::grid::{Cell, Topology};

use super::classic::flow_field::FlowField;
use super::graph::SearchGraph;
use super::request::{Heuristic, SearchError, SearchRequest, SearchResult};
use crate::control::SearchControl;

/// Runs `search` on `state` for the request; when it asks for a partial path and the goal
/// cannot be reached, finds the nearest reachable cell on `state`'s graph and runs `search`
/// again towards it.
pub(crate) fn plan<S>(
    state: &mut S,
    graph_of: impl Fn(&S) -> &SearchGraph,
    request: &SearchRequest,
    control: &SearchControl,
    mut search: impl FnMut(&mut S, &SearchRequest) -> Result<SearchResult, SearchError>,
) -> Result<SearchResult, SearchError> {
    if !request.partial {
        return search(state, request);
    }
    let graph = graph_of(state);
    let mut exact = request.clone();
    exact.partial = false;
    super::outcome::check_cell(graph, "start", request.start)?;
    let goal_open = match super::outcome::check_cell(graph, "goal", request.goal) {
        Ok(()) => true,
        Err(SearchError::Blocked { .. }) => false,
        Err(other) => return Err(other),
    };
    let mut first = None;
    if goal_open {
        let result = search(state, &exact)?;
        if result.found || result.stats.budget_exhausted {
            return Ok(result);
        }
        first = Some(result);
    }
    let Some(nearest) = nearest_reachable(graph_of(state), request, control)? else {
        return first.map_or_else(|| search(state, &exact), Ok);
    };
    let mut towards = exact;
    towards.goal = nearest;
    let mut result = search(state, &towards)?;
    if let Some(first) = first {
        result.stats.expanded += first.stats.expanded;
        result.stats.pushed += first.stats.pushed;
        result.stats.time_us += first.stats.time_us;
    }
    if result.found {
        result.found = false;
        result.reached = Some(nearest);
    }
    result.goal = request.goal;
    Ok(result)
}

/// The reachable cell nearest the goal (see the module's rule), or `None` when the start is
/// not on a passable cell.
fn nearest_reachable(
    graph: &SearchGraph,
    request: &SearchRequest,
    control: &SearchControl,
) -> Result<Option<Cell>, SearchError> {
    let field = FlowField::from_origin_controlled(graph, request.start, control)?;
    let topology = graph.topology();
    let heuristic = match request.heuristic_on(topology) {
        Heuristic::Zero => Heuristic::default_on(topology, request.diagonal),
        h => h,
    };
    let goal = request.goal;
    let mut best: Option<(f64, f64, Cell)> = None;
    for index in 0..graph.len() {
        let cell = graph.cell(index);
        let Some(cost) = field.cost(cell) else {
            continue;
        };
        let distance = distance(topology, heuristic, cell, goal);
        let better = best.is_none_or(|(d, c, _)| (distance, cost) < (d, c));
        if better {
            best = Some((distance, cost, cell));
        }
    }
    Ok(best.map(|(_, _, cell)| cell))
}

/// The heuristic distance between two cells, unscaled by terrain cost. On a hex map every
/// heuristic but zero is the hex distance.
pub(crate) fn distance(topology: Topology, heuristic: Heuristic, a: Cell, b: Cell) -> f64 {
    if topology.distance_counts_steps() {
        return match heuristic {
            Heuristic::Zero => 0.0,
            _ => topology.step_count(a, b) as f64,
        };
    }
    let dx = f64::from(a.x.abs_diff(b.x));
    let dy = f64::from(a.y.abs_diff(b.y));
    match heuristic {
        Heuristic::Manhattan => dx + dy,
        Heuristic::Euclidean => dx.hypot(dy),
        Heuristic::Chebyshev => dx.max(dy),
        Heuristic::Octile => dx.max(dy) + (std::f64::consts::SQRT_2 - 1.0) * dx.min(dy),
        Heuristic::Zero | Heuristic::Hex => 0.0,
    }
}
