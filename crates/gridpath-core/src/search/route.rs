//! Routes through several points: start → waypoints → goal, in the order given or in the
//! cheapest order, and patrols that come back to the start. Each leg is planned with the
//! request's algorithm and settings; the route's result joins the legs.
//!
//! The cheapest order (for up to [`MAX_ORDERED`] waypoints) comes from the exact costs between
//! every pair of points — one Dijkstra from each point over the whole map — and a dynamic
//! program over the subsets of waypoints (Held–Karp), so it is the optimum for those costs
//! (the costs of the cost model: a turn penalty or a weighted search plans each leg as asked
//! but does not change the order).
//!
//! ```
//! use gridpath_core::grid::{Cell, Grid};
//! use gridpath_core::search::{Diagonal, RouteOrder, SearchGraph, SearchRequest, route};
//!
//! let grid = Grid::from_ascii(&["........", "........", "........"]).expect("a valid map");
//! let graph = SearchGraph::new(&grid, Diagonal::NoCut);
//! let request = SearchRequest::new(Cell::new(0, 1), Cell::new(7, 1));
//! // Given in a poor order: the cheapest order visits (2, 0) before (6, 2).
//! let via = [Cell::new(6, 2), Cell::new(2, 0)];
//! let given = route(&graph, &request, &via, RouteOrder::AsGiven, false).expect("plans");
//! let best = route(&graph, &request, &via, RouteOrder::Cheapest, false).expect("plans");
//! assert_eq!(best.order, [Cell::new(0, 1), Cell::new(2, 0), Cell::new(6, 2), Cell::new(7, 1)]);
//! assert!(best.result.cost < given.result.cost);
//! assert_eq!(best.legs.len(), 3);
//! ```

use crate::grid::Cell;

use super::classic::flow_field::FlowField;
use super::graph::SearchGraph;
use super::request::{SearchError, SearchRequest, SearchResult};
use super::searcher::Searcher;
use crate::control::SearchControl;

/// The most waypoints [`RouteOrder::Cheapest`] orders (the dynamic program is exponential in
/// their number).
pub const MAX_ORDERED: usize = 12;

/// In which order a route visits its waypoints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RouteOrder {
    /// In the order given.
    #[default]
    AsGiven,
    /// In the order that makes the route cheapest.
    Cheapest,
}

/// A planned route.
#[derive(Clone, Debug, PartialEq)]
pub struct Route {
    /// The points in the order visited, from the start to the goal (and back to the start for
    /// a patrol).
    pub order: Vec<Cell>,
    /// Each leg's result, in order.
    pub legs: Vec<SearchResult>,
    /// The whole route as one result: the legs' paths joined, their costs, lengths and
    /// counters added; found when every leg was.
    pub result: SearchResult,
}

/// Plans a route from the request's start through `via` to its goal (and back to the start
/// when `patrol` is set), each leg with the request's algorithm and settings. With
/// [`RouteOrder::Cheapest`] and a patrol, the goal is one more point to order.
pub fn route(
    graph: &SearchGraph,
    request: &SearchRequest,
    via: &[Cell],
    order: RouteOrder,
    patrol: bool,
) -> Result<Route, SearchError> {
    for &cell in via {
        super::outcome::check_cell(graph, "waypoint", cell)?;
    }
    let mut middle: Vec<Cell> = via.to_vec();
    let end = if patrol {
        middle.push(request.goal);
        request.start
    } else {
        request.goal
    };
    if order == RouteOrder::Cheapest {
        if middle.len() > MAX_ORDERED {
            return Err(SearchError::TooManyWaypoints {
                given: middle.len(),
                max: MAX_ORDERED,
            });
        }
        middle = cheapest_order(graph, request.start, &middle, end)?;
    }
    let mut points = Vec::with_capacity(middle.len() + 2);
    points.push(request.start);
    points.extend(middle);
    points.push(end);
    let mut searcher = Searcher::new();
    let mut legs = Vec::with_capacity(points.len() - 1);
    for pair in points.windows(2) {
        let mut leg = request.clone();
        leg.start = pair[0];
        leg.goal = pair[1];
        legs.push(searcher.search(graph, &leg)?);
    }
    let result = joined(graph, request, &legs);
    Ok(Route {
        order: points,
        legs,
        result,
    })
}

/// The legs as one result.
fn joined(graph: &SearchGraph, request: &SearchRequest, legs: &[SearchResult]) -> SearchResult {
    let found = legs.iter().all(|l| l.found);
    let mut path: Vec<Cell> = Vec::new();
    let (mut cost, mut length) = (0.0, 0.0);
    let mut stats = super::request::Stats::default();
    for leg in legs {
        let skip = usize::from(!path.is_empty());
        if found {
            path.extend(leg.path.iter().skip(skip));
        }
        cost += leg.cost;
        length += leg.length;
        stats.expanded += leg.stats.expanded;
        stats.pushed += leg.stats.pushed;
        stats.max_open = stats.max_open.max(leg.stats.max_open);
        stats.time_us += leg.stats.time_us;
        stats.budget_exhausted |= leg.stats.budget_exhausted;
    }
    let mut result = super::outcome::result(graph, request, None, stats, None);
    if found {
        // Any-angle legs join their vertices the way grid legs join their cells.
        let waypoints: Option<Vec<Vec<Cell>>> = legs.iter().map(|l| l.waypoints.clone()).collect();
        result.waypoints = waypoints
            .map(|parts| {
                let mut joined: Vec<Cell> = Vec::new();
                for part in parts {
                    let skip = usize::from(!joined.is_empty());
                    joined.extend(part.into_iter().skip(skip));
                }
                joined
            })
            .filter(|joined| !joined.is_empty());
        result.found = true;
        result.path = path;
        result.cost = cost;
        result.length = length;
    }
    result
}

/// The order of `middle` that makes start → middle… → end cheapest, by the exact costs
/// between the points; a pair with no path between them costs infinity.
fn cheapest_order(
    graph: &SearchGraph,
    start: Cell,
    middle: &[Cell],
    end: Cell,
) -> Result<Vec<Cell>, SearchError> {
    let n = middle.len();
    if n <= 1 {
        return Ok(middle.to_vec());
    }
    let control = SearchControl::new();
    // To every waypoint and to the end, one Dijkstra gives every cell's cost there.
    let fields: Vec<FlowField> = middle
        .iter()
        .map(|&c| FlowField::new_controlled(graph, c, &control))
        .collect::<Result<_, _>>()?;
    let to_end = FlowField::new_controlled(graph, end, &control)?;
    let between = |i: usize, cell: Cell| fields[i].cost(cell).unwrap_or(f64::INFINITY);
    let finish = |i: usize| to_end.cost(middle[i]).unwrap_or(f64::INFINITY);
    // best[set][last]: the cheapest start → (the waypoints of set) ending at `last`.
    let full = 1usize << n;
    let mut best = vec![f64::INFINITY; full * n];
    let mut from = vec![usize::MAX; full * n];
    for last in 0..n {
        best[(1 << last) * n + last] = between(last, start);
    }
    for set in 1..full {
        for last in 0..n {
            let here = best[set * n + last];
            if set & (1 << last) == 0 || !here.is_finite() {
                continue;
            }
            for next in 0..n {
                if set & (1 << next) != 0 {
                    continue;
                }
                let to = set | (1 << next);
                let cost = here + between(next, middle[last]);
                if cost < best[to * n + next] {
                    best[to * n + next] = cost;
                    from[to * n + next] = last;
                }
            }
        }
    }
    let all = full - 1;
    let mut last = (0..n)
        .min_by(|&a, &b| {
            let cost = |l: usize| best[all * n + l] + finish(l);
            cost(a).total_cmp(&cost(b))
        })
        .unwrap_or(0);
    let mut order = Vec::with_capacity(n);
    let mut set = all;
    loop {
        order.push(middle[last]);
        let before = from[set * n + last];
        set &= !(1 << last);
        if before == usize::MAX || set == 0 {
            break;
        }
        last = before;
    }
    if order.len() < n {
        // Unreachable waypoints leave the table empty: keep the given order.
        return Ok(middle.to_vec());
    }
    order.reverse();
    Ok(order)
}
