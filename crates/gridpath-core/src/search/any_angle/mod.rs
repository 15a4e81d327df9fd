//! What the any-angle searches share: line of sight and segment costs read from the prepared
//! graph, and the result built from a path of vertices.
//!
//! A segment joins two cell centres. It is in line of sight when every cell it touches is
//! passable ([`Segment::is_clear`]: all four cells at an exact corner crossing, so it never
//! squeezes between two walls), and it costs the terrain cost integrated along it
//! ([`Segment::cost`]). Both are the smoother's own walk over the segment, reading the graph's
//! terrain instead of the grid's, so the searches and the smoother agree to the last bit.

pub(super) mod theta;

use crate::grid::Cell;
use crate::smooth::Segment;

use crate::search::graph::SearchGraph;
use crate::search::request::{SearchRequest, SearchResult, Stats, Trace};

/// The cost of the segment between the centres of two cells (indices) when it is in line of
/// sight; `None` when it touches a wall or leaves the map.
///
/// Line of sight is decided by [`in_sight`], in integers; on a map of one cost the segment
/// then costs its length times that cost, and otherwise its integral by the smoother's walk
/// ([`Segment::cost`]). Either way it is the smoother's answer up to rounding.
#[cfg(test)]
pub(crate) fn sight_cost(graph: &SearchGraph, from: usize, to: usize) -> Option<f64> {
    let (a, b) = (graph.cell(from), graph.cell(to));
    sight_cost_between(graph, a, b, Segment::between_centres(a, b).length())
}

/// The distance between the centres of two cells, as [`Segment::length`] gives it.
#[inline]
pub(crate) fn centre_distance(a: Cell, b: Cell) -> f64 {
    Segment::between_centres(a, b).length()
}

/// [`sight_cost`] between two cells whose distance, `length`, the caller already knows.
#[inline]
pub(crate) fn sight_cost_between(
    graph: &SearchGraph,
    a: Cell,
    b: Cell,
    length: f64,
) -> Option<f64> {
    if !in_sight(graph, a, b) {
        return None;
    }
    clear_cost(graph, a, b, length)
}

/// The cost of the segment between the centres of `a` and `b`, `length` apart, known to be in
/// line of sight: its length times the cost on a map of one cost, else its integral.
#[inline]
pub(crate) fn clear_cost(graph: &SearchGraph, a: Cell, b: Cell, length: f64) -> Option<f64> {
    match graph.uniform_cost() {
        Some(cost) => Some(length * cost),
        None => Segment::between_centres(a, b).cost_by(|x, y| graph.cost_at(x, y)),
    }
}

/// Whether every cell the segment between the centres of `a` and `b` touches is on the map
/// and passable: [`Segment::is_clear`], computed exactly in integers; and, when the graph
/// asks for one ([`SearchGraph::with_sight_clearance`]), whether it keeps the clearance.
///
/// The walk goes along the longer axis one column (or row) at a time. Within column `c` the
/// segment spans the rows between its heights at the column's two sides (or at its ends), and a
/// row's closed square meets it when the row lies between those heights rounded outwards. The
/// heights are fractions over `2·dx`, so floor and ceiling are exact: a segment through a
/// corner touches all four cells round it, as in the smoother's walk.
pub(crate) fn in_sight(graph: &SearchGraph, a: Cell, b: Cell) -> bool {
    let (ax, ay) = (i64::from(a.x), i64::from(a.y));
    let (bx, by) = (i64::from(b.x), i64::from(b.y));
    let open = |x: i64, y: i64| graph.cost_at(x, y).is_some();
    let clear = if (bx - ax).abs() >= (by - ay).abs() {
        clear_along(ax, ay, bx, by, open)
    } else {
        clear_along(ay, ax, by, bx, |c, r| open(r, c))
    };
    clear && graph.sight_keeps_clearance(a, b)
}

/// [`in_sight`] along the major axis: from cell (x0, y0) to (x1, y1) with |x1 − x0| ≥
/// |y1 − y0|, asking `open(column, row)`.
#[inline]
fn clear_along(x0: i64, y0: i64, x1: i64, y1: i64, open: impl Fn(i64, i64) -> bool) -> bool {
    // The same cells either way: walk left to right.
    let (x0, y0, x1, y1) = if x1 < x0 {
        (x1, y1, x0, y0)
    } else {
        (x0, y0, x1, y1)
    };
    let (dx, dy) = (x1 - x0, y1 - y0);
    if dx == 0 {
        return open(x0, y0);
    }
    // Heights in units of 1 / (2·dx): the centre of row y0 is (2·y0 + 1)·dx.
    let denominator = 2 * dx;
    let base = (2 * y0 + 1) * dx;
    let floor = |n: i64| n.div_euclid(denominator);
    let ceil = |n: i64| (n + denominator - 1).div_euclid(denominator);
    for column in x0..=x1 {
        let left = if column == x0 {
            base
        } else {
            base + (2 * (column - x0) - 1) * dy
        };
        let right = if column == x1 {
            (2 * y1 + 1) * dx
        } else {
            base + (2 * (column - x0) + 1) * dy
        };
        let (low, high) = (left.min(right), left.max(right));
        for row in ceil(low) - 1..=floor(high) {
            if !open(column, row) {
                return false;
            }
        }
    }
    true
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
    let mut result = crate::search::outcome::result(graph, request, None, stats, trace);
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
    fn line_of_sight_in_integers_is_the_smoothers_line_of_sight() {
        let mut seed = 11u64;
        let mut next = |range: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % range
        };
        for _ in 0..60 {
            let (w, h) = (1 + next(12) as u32, 1 + next(12) as u32);
            let walls = next(40);
            let rows: Vec<String> = (0..h)
                .map(|_| {
                    (0..w)
                        .map(|_| {
                            if next(100) < walls {
                                '#'
                            } else {
                                "=.~"[next(3) as usize..][..1].chars().next().unwrap_or('.')
                            }
                        })
                        .collect()
                })
                .collect();
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let grid = Grid::from_ascii(&rows).unwrap();
            let graph = SearchGraph::new(&grid, Diagonal::NoCut);
            for i in 0..graph.len() {
                for j in 0..graph.len() {
                    let (a, b) = (graph.cell(i), graph.cell(j));
                    let segment = Segment::between_centres(a, b);
                    assert_eq!(
                        in_sight(&graph, a, b),
                        segment.is_clear(&grid),
                        "{a} → {b} on {rows:?}"
                    );
                    let expected = segment.clear_cost(&grid);
                    let cost = sight_cost(&graph, i, j);
                    assert_eq!(cost.is_some(), expected.is_some());
                    if let (Some(c), Some(e)) = (cost, expected) {
                        assert!((c - e).abs() <= 1e-12 * e.max(1.0), "{a} → {b}: {c} vs {e}");
                    }
                }
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
