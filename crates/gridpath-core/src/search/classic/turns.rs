//! Turn penalties: a cost for every 45° a path turns, so that a unit that pays to change
//! direction gets a path with fewer zig-zags. With a penalty the cost of a step depends on the
//! step before it, so the search runs exactly in the state space of (cell, heading): A* (or
//! Dijkstra) over up to nine states per cell — the eight headings and "not moved yet" at the
//! start — with the grid's heuristic, which stays admissible since penalties only add cost.
//!
//! Each state keeps its best cost only (8 bytes), in pages of 8 × 8 cells allocated as the
//! search reaches them, so that memory follows the states reached and no state is hashed;
//! the path is traced back through the costs. The open list is the searches' 16-byte entry
//! heap, with the heading in the entry.
//!
//! On a hex map a turn is a change between the six directions, and the penalty is paid for
//! every 60° turned; the heading is still kept as the graph's direction of the step, whose
//! hex direction depends on the row (or column) it starts from ([`turns_at`]).
//!
//! ```
//! use gridpath_core::grid::{Cell, Grid};
//! use gridpath_core::search::{Diagonal, SearchRequest, solve};
//!
//! // On an open field with 4-connected moves every staircase costs the same: a turn penalty
//! // picks the path with one turn.
//! let grid = Grid::from_ascii(&["......"; 6]).expect("a valid map");
//! let request = SearchRequest::new(Cell::new(0, 0), Cell::new(5, 5))
//!     .with_diagonal(Diagonal::Never)
//!     .with_turn_penalty(0.5);
//! let result = solve(&grid, &request).expect("plans");
//! assert_eq!(result.cost, 10.0 + 2.0 * 0.5, "ten steps and one 90° turn");
//! ```

use std::time::Instant;

use crate::grid::{Cell, Topology};

use crate::control::SearchControl;
use crate::search::frontier::heap::{Entry, Heap};
use crate::search::graph::{DX, DY, SearchGraph};
use crate::search::request::{
    Algorithm, Heuristic, SearchError, SearchRequest, SearchResult, Stats,
};

/// Each direction of the graph (`graph::DX`/`DY` order: E, W, S, N, NE, NW, SE, SW) as a
/// multiple of 45° counted round the compass.
const ANGLE: [u8; 8] = [0, 4, 2, 6, 7, 5, 1, 3];

/// The heading of a state at the start, before any step.
const UNMOVED: u8 = 8;

/// How many 45° turns lie between two headings (0 to 4); none from the start.
pub(crate) fn turns(from: u8, to: u8) -> u32 {
    if from == UNMOVED {
        return 0;
    }
    let a = ANGLE[usize::from(from)];
    let b = ANGLE[usize::from(to)];
    let d = u32::from(a.abs_diff(b));
    d.min(8 - d)
}

/// How many turns lie between the heading `from` a path enters `(x, y)` with and the heading
/// `to` it leaves by: 45° steps on squares ([`turns`]), 60° steps on hexes (0 to 3).
pub(crate) fn turns_at(topology: Topology, x: usize, y: usize, from: u8, to: u8) -> u32 {
    let Some(layout) = topology.hex() else {
        return turns(from, to);
    };
    if from == UNMOVED {
        return 0;
    }
    let (x, y) = (x as i64, y as i64);
    let (f, t) = (usize::from(from), usize::from(to));
    let (fx, fy) = (i64::from(DX[f]), i64::from(DY[f]));
    let (tx, ty) = (i64::from(DX[t]), i64::from(DY[t]));
    let entered = layout.direction_of_step(x - fx, y - fy, fx, fy);
    let leaving = layout.direction_of_step(x, y, tx, ty);
    match (entered, leaving) {
        (Some(a), Some(b)) => {
            let d = a.abs_diff(b) as u32;
            d.min(6 - d)
        }
        _ => 0,
    }
}

/// The side of the square of cells whose states share a page of [`Costs`].
const TILE: usize = 8;

/// States a page of [`Costs`] holds: those of a tile of 8 × 8 cells, 4 KB.
const PAGE: usize = TILE * TILE * 8;

/// The best cost known of each (cell, heading) state with a step behind it: one `f64` a
/// state, in pages of 8 × 8 cells allocated when the search first reaches one of their
/// states, so that memory follows the states reached (an A* across an open map touches the
/// tiles along its way; a Dijkstra search that reaches everything takes 64 bytes a cell), and
/// a cell's neighbours mostly lie in its own page. The start's state before any step costs 0
/// and is not kept.
struct Costs {
    /// Tiles a row of tiles holds.
    tiles_across: usize,
    /// The pages, 8 bytes each in the table (an eighth of a byte a cell), by tile.
    pages: Vec<Option<Box<[f64; PAGE]>>>,
}

impl Costs {
    /// Room for every state of a `width` × `height` map, none reached yet.
    fn new(width: usize, height: usize) -> Self {
        let tiles_across = width.div_ceil(TILE);
        let mut pages = Vec::new();
        pages.resize_with(tiles_across * height.div_ceil(TILE), || None);
        Self {
            tiles_across,
            pages,
        }
    }

    /// The index of the state of cell `(x, y)` entered with `heading`.
    #[inline]
    fn state(&self, x: usize, y: usize, heading: u8) -> usize {
        let tile = (y / TILE) * self.tiles_across + x / TILE;
        tile * PAGE + ((y % TILE) * TILE + x % TILE) * 8 + usize::from(heading)
    }

    /// The best cost known, infinite for a state not reached.
    #[inline]
    fn get(&self, state: usize) -> f64 {
        self.pages[state / PAGE]
            .as_ref()
            .map_or(f64::INFINITY, |page| page[state % PAGE])
    }

    /// Records a better cost.
    #[inline]
    fn set(&mut self, state: usize, cost: f64) {
        let page = self.pages[state / PAGE].get_or_insert_with(|| Box::new([f64::INFINITY; PAGE]));
        page[state % PAGE] = cost;
    }

    /// The bytes its pages take.
    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.pages.iter().flatten().count() * PAGE * 8
    }
}

/// Plans with a turn penalty: A* (weighted when the request says so) or Dijkstra over (cell,
/// heading). The request was checked; its `turn_penalty` is positive.
pub(crate) fn search(
    graph: &SearchGraph,
    request: &SearchRequest,
    control: &SearchControl,
) -> Result<SearchResult, SearchError> {
    if !matches!(request.algorithm, Algorithm::AStar | Algorithm::Dijkstra) {
        return Err(SearchError::TurnPenaltyUnsupported {
            algorithm: request.algorithm,
        });
    }
    let started = Instant::now();
    let mut stats = Stats::default();
    let penalty = request.turn_penalty;
    let goal = graph.index(request.goal);
    let start = graph.index(request.start);
    let (heuristic, weight) = if request.algorithm == Algorithm::AStar {
        (request.heuristic_on(graph.topology()), request.weight)
    } else {
        (Heuristic::Zero, 1.0)
    };
    let scale = graph.min_cost() * weight;
    let h = |x: usize, y: usize| {
        crate::search::partial::distance(
            graph.topology(),
            heuristic,
            Cell::new(x as u32, y as u32),
            request.goal,
        ) * scale
    };
    let width = graph.width() as usize;
    let topology = graph.topology();
    let mut costs = Costs::new(width, graph.height() as usize);
    // The open list: each entry carries its cell, and its heading in the notes. An entry is
    // stale when its state got cheaper since: its priority is then above the state's.
    let mut open = Heap::default();
    open.push(Entry::with_notes(
        h(start % width, start / width),
        0.0,
        start as u32,
        UNMOVED,
    ));
    let mut reached = None;
    while let Some(entry) = open.pop() {
        let (cell, heading) = (entry.cell() as usize, entry.notes());
        let (x, y) = (cell % width, cell / width);
        let cost = if heading == UNMOVED {
            0.0
        } else {
            costs.get(costs.state(x, y, heading))
        };
        if entry.priority() > cost + h(x, y) {
            continue;
        }
        stats.expanded += 1;
        if control.should_stop(stats.expanded) {
            return Err(SearchError::Cancelled);
        }
        if cell == goal {
            reached = Some((cell, heading));
            break;
        }
        let mut mask = graph.mask(cell);
        while mask != 0 {
            let d = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let next_cell = cell.wrapping_add_signed(graph.delta(d));
            let step = graph.step_cost(cell, next_cell, d);
            let turned = turns_at(topology, x, y, heading, d as u8);
            let next_cost = cost + step + penalty * f64::from(turned);
            let (nx, ny) = (
                x.wrapping_add_signed(DX[d] as isize),
                y.wrapping_add_signed(DY[d] as isize),
            );
            let next = costs.state(nx, ny, d as u8);
            if next_cost < costs.get(next) {
                costs.set(next, next_cost);
                open.push(Entry::with_notes(
                    next_cost + h(nx, ny),
                    next_cost,
                    next_cell as u32,
                    d as u8,
                ));
                stats.pushed += 1;
                stats.max_open = stats.max_open.max(open.len() as u64);
            }
        }
    }
    let (path, cost) = match reached {
        Some(end) => {
            let (cells, cost) = trace_back(graph, &costs, start, end, penalty);
            (Some(cells), cost)
        }
        None => (None, 0.0),
    };
    stats.time_us = started.elapsed().as_micros() as u64;
    let mut result = crate::search::outcome::result(graph, request, path, stats, None);
    // The steps' cost plus the turns'.
    result.cost = cost;
    Ok(result)
}

/// The path to state `end` (a cell and the heading it was entered with) from the start, and
/// its cost: from each state, back one step against its heading to the state before it
/// whose cost plus the step and its turns is the least, which is the one that set the
/// state's cost. The cost is summed forwards in the order the search summed it.
fn trace_back(
    graph: &SearchGraph,
    costs: &Costs,
    start: usize,
    (mut cell, mut heading): (usize, u8),
    penalty: f64,
) -> (Vec<usize>, f64) {
    let mut cells = vec![cell];
    let mut headings = Vec::new();
    while heading != UNMOVED {
        let d = usize::from(heading);
        let before = cell.wrapping_add_signed(-graph.delta(d));
        let width = graph.width() as usize;
        let step = graph.step_cost(before, cell, d);
        let (bx, by) = (before % width, before / width);
        let turned = |from: u8| turns_at(graph.topology(), bx, by, from, heading);
        let through = |from: u8, cost: f64| cost + step + penalty * f64::from(turned(from));
        let mut best = (f64::INFINITY, UNMOVED);
        if before == start {
            best = (through(UNMOVED, 0.0), UNMOVED);
        }
        for from in 0..8u8 {
            let cost = costs.get(costs.state(before % width, before / width, from));
            if cost.is_finite() && through(from, cost) < best.0 {
                best = (through(from, cost), from);
            }
        }
        headings.push(heading);
        cells.push(before);
        (cell, heading) = (before, best.1);
    }
    cells.reverse();
    // Forwards, as the search added the costs.
    let mut cost = 0.0;
    let mut from = UNMOVED;
    let width = graph.width() as usize;
    for (pair, &to) in cells.windows(2).zip(headings.iter().rev()) {
        let (x, y) = (pair[0] % width, pair[0] / width);
        cost = cost
            + graph.step_cost(pair[0], pair[1], usize::from(to))
            + penalty * f64::from(turns_at(graph.topology(), x, y, from, to));
        from = to;
    }
    (cells, cost)
}

/// The cost of a path under a turn penalty: its steps, plus the penalty for every 45° turn
/// (every 60° on a hex map).
pub fn path_cost_with_turns(graph: &SearchGraph, path: &[Cell], penalty: f64) -> Option<f64> {
    let (mut cost, _) = graph.path_cost(path)?;
    let mut heading = UNMOVED;
    for pair in path.windows(2) {
        let d = SearchGraph::direction(pair[0], pair[1])? as u8;
        let (x, y) = (pair[0].x as usize, pair[0].y as usize);
        cost += penalty * f64::from(turns_at(graph.topology(), x, y, heading, d));
        heading = d;
    }
    Some(cost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::graph::{DX, DY};

    #[test]
    fn paths_traced_through_the_costs_cost_what_the_search_found() {
        let grid = crate::grid::Grid::from_ascii(&[
            "..~~....#.....",
            ".#~~.##.#.==..",
            ".#....#...#...",
            ".####.#.###.#.",
            "......#.....#.",
        ])
        .unwrap();
        for &diagonal in crate::search::Diagonal::ALL {
            let graph = SearchGraph::new(&grid, diagonal);
            let request = SearchRequest::new(Cell::new(0, 0), Cell::new(13, 4))
                .with_diagonal(diagonal)
                .with_turn_penalty(0.7);
            let control = SearchControl::new();
            let a = search(&graph, &request, &control).unwrap();
            let dijkstra = request.clone().with_algorithm(Algorithm::Dijkstra);
            let b = search(&graph, &dijkstra, &control).unwrap();
            assert!(a.found && b.found, "{diagonal}");
            assert!((a.cost - b.cost).abs() < 1e-9, "{diagonal}");
            for result in [&a, &b] {
                assert_eq!(result.path.first(), Some(&request.start), "{diagonal}");
                assert_eq!(result.path.last(), Some(&request.goal), "{diagonal}");
                let recomputed = path_cost_with_turns(&graph, &result.path, 0.7).unwrap();
                assert!((recomputed - result.cost).abs() < 1e-9, "{diagonal}");
            }
        }
    }

    #[test]
    fn costs_take_pages_only_where_states_are_reached() {
        let mut costs = Costs::new(1000, 700);
        assert_eq!(costs.bytes(), 0);
        let (a, b, c) = (
            costs.state(57, 12, 3),
            costs.state(58, 13, 7),
            costs.state(57, 12, 4),
        );
        assert_eq!(costs.get(a), f64::INFINITY);
        costs.set(a, 2.5);
        costs.set(b, 1.5);
        assert_eq!(
            (costs.get(a), costs.get(b), costs.get(c)),
            (2.5, 1.5, f64::INFINITY)
        );
        assert_eq!(costs.bytes(), PAGE * 8, "two neighbours share a page");
        // Every state of the map has an index of its own.
        let mut seen = vec![false; costs.pages.len() * PAGE];
        for y in 0..700 {
            for x in 0..1000 {
                for heading in 0..8 {
                    let i = costs.state(x, y, heading);
                    assert!(!seen[i], "({x}, {y}) heading {heading}");
                    seen[i] = true;
                }
            }
        }
    }

    #[test]
    fn turns_count_45_degree_steps_round_the_compass() {
        for a in 0..8u8 {
            assert_eq!(turns(a, a), 0);
            assert_eq!(turns(UNMOVED, a), 0);
            for b in 0..8u8 {
                // The angle between the two step vectors, in multiples of 45°.
                let (ax, ay) = (f64::from(DX[usize::from(a)]), f64::from(DY[usize::from(a)]));
                let (bx, by) = (f64::from(DX[usize::from(b)]), f64::from(DY[usize::from(b)]));
                let angle = ((ax * bx + ay * by) / (ax.hypot(ay) * bx.hypot(by)))
                    .clamp(-1.0, 1.0)
                    .acos();
                let expected = (angle / std::f64::consts::FRAC_PI_4).round() as u32;
                assert_eq!(turns(a, b), expected, "{a} → {b}");
            }
        }
    }
}
