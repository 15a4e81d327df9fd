//! What the any-angle searches share: line of sight and segment costs read from the prepared
//! graph, and the result built from a path of vertices.
//!
//! A segment joins two cell centres. It is in line of sight when every cell it touches is
//! passable ([`Segment::is_clear`]: all four cells at an exact corner crossing, so it never
//! squeezes between two walls), and it costs the terrain cost integrated along it
//! ([`Segment::cost`]). Both are the smoother's own walk over the segment, reading the graph's
//! terrain instead of the grid's, so the searches and the smoother agree to the last bit.

use crate::grid::Cell;
use crate::smooth::Segment;

use super::graph::SearchGraph;
use super::request::{SearchRequest, SearchResult, Stats, Trace};

/// The cost of the segment between the centres of two cells (indices) when it is in line of
/// sight; `None` when it touches a wall or leaves the map.
#[inline]
pub(crate) fn sight_cost(graph: &SearchGraph, from: usize, to: usize) -> Option<f64> {
    Segment::between_centres(graph.cell(from), graph.cell(to))
        .clear_cost_by(|x, y| graph.cost_at(x, y))
}

/// The terrain cost integrated along the segment between two cell centres
/// ([`Segment::cost`]), whether or not it is in line of sight; `None` when a piece of it lies
/// in a wall.
pub(crate) fn segment_cost(graph: &SearchGraph, from: Cell, to: Cell) -> Option<f64> {
    Segment::between_centres(from, to).cost_by(|x, y| graph.cost_at(x, y))
}

/// The cost and length of the polyline through the centres of `vertices`.
pub(crate) fn polyline_cost(graph: &SearchGraph, vertices: &[Cell]) -> (f64, f64) {
    vertices
        .windows(2)
        .fold((0.0, 0.0), |(cost, length), pair| {
            let segment = Segment::between_centres(pair[0], pair[1]);
            let piece = segment_cost(graph, pair[0], pair[1]).unwrap_or(f64::NAN);
            (cost + piece, length + segment.length())
        })
}

/// The chain of cells a polyline through the centres of `vertices` crosses, one allowed grid
/// step from each to the next: where a segment crosses a corner and the diagonal step is not
/// allowed (4-connected grids), the cell beside the corner is added between the two. The
/// segments are those of an any-angle search: one allowed grid step, or in line of sight (so
/// that the cells round a corner it crosses are all passable).
pub(crate) fn cells_along(graph: &SearchGraph, vertices: &[Cell]) -> Vec<Cell> {
    let Some(&first) = vertices.first() else {
        return Vec::new();
    };
    let mut cells = vec![first];
    for pair in vertices.windows(2) {
        let (from, to) = (pair[0], pair[1]);
        for (x, y) in Segment::between_centres(from, to).cells_crossed() {
            // A segment in line of sight crosses only cells on the map.
            let next = Cell::new(x as u32, y as u32);
            let Some(&last) = cells.last() else {
                continue;
            };
            if next == last {
                continue;
            }
            let diagonal = last.x != next.x && last.y != next.y;
            let allowed = SearchGraph::direction(last, next)
                .is_some_and(|d| graph.can_step(graph.index(last), d));
            if diagonal && !allowed {
                // All four cells round the corner are passable: the segment touches them.
                cells.push(Cell::new(next.x, last.y));
            }
            cells.push(next);
        }
    }
    cells
}

/// Follows the vertex parents from `goal` back to `start`; returns the vertices from `start`.
pub(crate) fn walk_back(parents: &[u32], goal: usize, start: usize) -> Vec<usize> {
    let mut vertices = vec![goal];
    let mut vertex = goal;
    while vertex != start {
        let parent = parents[vertex] as usize;
        if parent == vertex {
            break;
        }
        vertex = parent;
        vertices.push(vertex);
    }
    vertices.reverse();
    vertices
}

/// Builds the result of an any-angle search from its vertices (cell indices, start first).
pub(crate) fn result(
    graph: &SearchGraph,
    request: &SearchRequest,
    vertices: Option<Vec<usize>>,
    stats: Stats,
    trace: Option<Trace>,
) -> SearchResult {
    let mut result = super::outcome::result(graph, request, None, stats, trace);
    let Some(vertices) = vertices else {
        return result;
    };
    let waypoints: Vec<Cell> = vertices.into_iter().map(|i| graph.cell(i)).collect();
    if waypoints.is_empty() {
        return result;
    }
    let (cost, length) = polyline_cost(graph, &waypoints);
    result.found = true;
    result.path = cells_along(graph, &waypoints);
    result.cost = cost;
    result.length = length;
    result.waypoints = Some(waypoints);
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::search::Diagonal;

    #[test]
    fn the_chain_of_a_segment_is_a_chain_of_allowed_steps() {
        let grid = Grid::from_ascii(&["......", "......", "......", "......"]).unwrap();
        for diagonal in [Diagonal::Never, Diagonal::NoCut, Diagonal::Always] {
            let graph = SearchGraph::new(&grid, diagonal);
            let vertices = [
                Cell::new(0, 0),
                Cell::new(3, 3),
                Cell::new(5, 0),
                Cell::new(4, 0),
            ];
            let cells = cells_along(&graph, &vertices);
            assert_eq!(cells.first(), Some(&Cell::new(0, 0)));
            assert_eq!(cells.last(), Some(&Cell::new(4, 0)));
            assert!(graph.path_cost(&cells).is_some(), "{diagonal}: {cells:?}");
            for v in vertices {
                assert!(cells.contains(&v));
            }
        }
    }

    #[test]
    fn the_polyline_costs_the_integral_of_its_segments() {
        let grid = Grid::from_ascii(&[".~..", "...."]).unwrap();
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        let vertices = [Cell::new(0, 0), Cell::new(3, 1)];
        let (cost, length) = polyline_cost(&graph, &vertices);
        let segment = Segment::between_centres(vertices[0], vertices[1]);
        assert_eq!(Some(cost), segment.cost(&grid));
        assert_eq!(length, segment.length());
        assert_eq!(sight_cost(&graph, 0, 7), segment.clear_cost(&grid));
    }
}
