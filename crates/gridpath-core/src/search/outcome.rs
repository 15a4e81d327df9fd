//! What every search shares before and after it runs: the checks of a request and the result
//! built from a path of cell indices.

use crate::grid::Cell;

use super::graph::SearchGraph;
use super::request::{SearchError, SearchRequest, SearchResult, Stats, Trace};
use super::space::{NO_PARENT, Space};

/// Follows parent links from `from` back to `origin`; returns the cells from `origin` to `from`.
pub(crate) fn walk_back(
    graph: &SearchGraph,
    space: &Space,
    from: usize,
    origin: usize,
) -> Vec<usize> {
    let mut path = vec![from];
    let mut cell = from;
    while cell != origin {
        let parent = space.parent(cell);
        if parent == NO_PARENT {
            break;
        }
        cell = (cell as isize - graph.delta(usize::from(parent))) as usize;
        path.push(cell);
    }
    path.reverse();
    path
}

/// Builds the shared result shape from a path of cell indices.
pub(crate) fn result(
    graph: &SearchGraph,
    request: &SearchRequest,
    path: Option<Vec<usize>>,
    stats: Stats,
    trace: Option<Trace>,
) -> SearchResult {
    let path = path.map(|indices| {
        let cost = graph
            .index_path_cost(&indices)
            .unwrap_or((f64::NAN, f64::NAN));
        (graph.index_path_cells(&indices), cost)
    });
    result_of_cells(request, path, stats, trace)
}

/// [`result`] for a path of cells whose cost and length the search summed as it laid the path
/// out, a step at a time from its start, as [`SearchGraph::index_path_cost`] sums them.
pub(crate) fn result_of_cells(
    request: &SearchRequest,
    path: Option<(Vec<Cell>, (f64, f64))>,
    stats: Stats,
    trace: Option<Trace>,
) -> SearchResult {
    let (path, (cost, length)) = path.unwrap_or_default();
    let found = !path.is_empty();
    let (cost, length) = if found { (cost, length) } else { (0.0, 0.0) };
    SearchResult {
        found,
        path,
        cost,
        length,
        stats,
        optimality: request.optimality(),
        trace,
        waypoints: None,
        start: request.start,
        goal: request.goal,
        reached: None,
    }
}

/// Checks that an endpoint (`which`: "start" or "goal") lies on the graph and is passable.
pub(crate) fn check_cell(
    graph: &SearchGraph,
    which: &'static str,
    cell: Cell,
) -> Result<(), SearchError> {
    if cell.x >= graph.width() || cell.y >= graph.height() {
        return Err(SearchError::OutOfBounds {
            which,
            cell,
            width: graph.width(),
            height: graph.height(),
        });
    }
    if !graph.is_passable(graph.index(cell)) {
        return Err(SearchError::Blocked { which, cell });
    }
    Ok(())
}

/// Accepts flat maps: refuses a map with heights, whose steps may cost more one way than
/// the other (HPA*'s abstract edges and the contraction hierarchy's shortcuts are priced one
/// way) and whose slopes and cliffs the any-angle searches' straight segments do not see.
pub(crate) fn flat_map(graph: &SearchGraph, request: &SearchRequest) -> Result<(), SearchError> {
    if graph.has_heights() {
        return Err(SearchError::HeightsUnsupported {
            algorithm: request.algorithm,
        });
    }
    Ok(())
}

/// Accepts square maps: refuses a hex map, whose cells the algorithm's geometry (jump
/// points, straight segments, cluster entrances) does not describe.
pub(crate) fn square_map(graph: &SearchGraph, request: &SearchRequest) -> Result<(), SearchError> {
    if !graph.topology().has_square_cells() {
        return Err(SearchError::HexUnsupported {
            algorithm: request.algorithm,
        });
    }
    Ok(())
}

/// Checks that a heuristic the request names (and the algorithm reads) fits the map's cells.
pub(crate) fn check_heuristic(
    graph: &SearchGraph,
    request: &SearchRequest,
) -> Result<(), SearchError> {
    let topology = graph.topology();
    match request.heuristic {
        Some(heuristic) if request.algorithm.info().uses_heuristic && !heuristic.fits(topology) => {
            Err(SearchError::HeuristicMismatch {
                heuristic,
                topology,
                expected: if topology.distance_counts_steps() {
                    "hex"
                } else {
                    "manhattan, euclidean, chebyshev, octile"
                },
            })
        }
        _ => Ok(()),
    }
}

/// Checks a request against a prepared graph: the diagonal rule it was built for, both ends
/// on passable cells, a weight of at least 1, and what the algorithm accepts.
pub(crate) fn check(graph: &SearchGraph, request: &SearchRequest) -> Result<(), SearchError> {
    if graph.diagonal() != request.diagonal {
        return Err(SearchError::DiagonalMismatch {
            prepared: graph.diagonal(),
            requested: request.diagonal,
        });
    }
    check_cell(graph, "start", request.start)?;
    check_cell(graph, "goal", request.goal)?;
    (request.algorithm.info().accepts)(graph, request)?;
    check_heuristic(graph, request)?;
    // Checked for every algorithm, though only A* uses the weight: a request with a weight
    // that means nothing is a mistake, whichever algorithm it names.
    if !(request.weight.is_finite() && (1.0..=SearchRequest::MAX_WEIGHT).contains(&request.weight))
    {
        return Err(SearchError::BadWeight(request.weight));
    }
    if !(request.turn_penalty.is_finite()
        && (0.0..=SearchRequest::MAX_TURN_PENALTY).contains(&request.turn_penalty))
    {
        return Err(SearchError::BadTurnPenalty(request.turn_penalty));
    }
    Ok(())
}
