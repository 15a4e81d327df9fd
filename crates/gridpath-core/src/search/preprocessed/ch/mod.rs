//! Contraction hierarchies (Geisberger, Sanders, Schultes & Delling, 2008) over the grid graph:
//! exact queries on weighted terrain, far faster than A* once the hierarchy is built.
//!
//! The build ([`contraction`]) takes the passable cells out of the graph one by one, in an order
//! found by simulating each contraction: a cell whose removal adds few shortcuts for the edges
//! it removes, at a low level of the hierarchy and with few neighbours gone, comes first.
//! Removing a cell joins two of its remaining neighbours by a *shortcut* of the cost through
//! it unless a *witness search*, a small Dijkstra that avoids the cell, finds a way between
//! them that costs no more; the search is bounded in cost, steps and cells settled, and a
//! witness it misses only adds a shortcut that is not needed. A cell's edges when it is taken
//! out are its *upward* edges: to cells that come later, each either a step of the grid or a
//! shortcut that remembers the cell it passes through.
//!
//! Every cheapest path then has a form that climbs the order through upward edges and descends
//! it again (a cell of the path below both its neighbours on it was taken out, and a shortcut
//! or a witness of no greater cost stands for the way through it). A query runs Dijkstra's
//! algorithm from both ends over upward edges only, each side stopping once its queue holds
//! nothing cheaper than the best meeting found, with *stall-on-demand*: a cell that one of its
//! upward neighbours reaches more cheaply than the search did is not expanded, since no cheapest
//! path climbs through it. The shortcuts of the cheapest meeting are unpacked through their
//! middle cells, so the answer is a full cell-by-cell path.
//!
//! The searched graph is compact: cells renumbered by rank (their place in the order), each
//! rank's upward edges in flat arrays indexed by 32-bit offsets, the heads, costs and middles
//! in separate arrays so that a query reads only heads and costs. Steps cost the same both ways
//! on a flat map, so one set of upward edges serves both searches. Maps with heights, whose
//! steps may cost more one way than the other, are refused. The diagonal rule is part of the
//! graph: a hierarchy serves the rule it was built for.
//!
//! ```
//! use gridpath_core::grid::{Cell, Grid};
//! use gridpath_core::search::{Algorithm, ContractionHierarchy, Diagonal, SearchRequest};
//!
//! let grid = Grid::from_ascii(&["....~~....", ".##.~~.##.", "....==...."]).expect("a valid map");
//! let mut ch = ContractionHierarchy::build(&grid, Diagonal::NoCut);
//! let request = SearchRequest::new(Cell::new(0, 0), Cell::new(9, 2))
//!     .with_algorithm(Algorithm::ContractionHierarchy);
//! let result = ch.find_path(&request).expect("a valid request");
//! assert!(result.found);
//! assert_eq!(result.path.first(), Some(&Cell::new(0, 0)));
//! assert_eq!(result.path.last(), Some(&Cell::new(9, 2)));
//! ```

mod contraction;

use std::time::Instant;

use crate::grid::Grid;

use crate::search::control::{SearchControl, UNCONTROLLED};
use crate::search::frontier::heap::{Entry, Heap};
use crate::search::graph::SearchGraph;
use crate::search::request::{
    Algorithm, Diagonal, SearchError, SearchRequest, SearchResult, Stats,
};

/// No cell, no rank: an edge that is a step of the grid has no middle cell.
const NONE: u32 = u32::MAX;

/// An edge offset as stored: the offsets are 32-bit. A map whose edges would not fit is
/// refused as too large.
fn offset(edges: usize, cells: usize) -> Result<u32, SearchError> {
    u32::try_from(edges).map_err(|_| SearchError::MapTooLarge {
        algorithm: Algorithm::ContractionHierarchy,
        cells,
        max: CH_MAX_CELLS,
    })
}

/// A map prepared for exact queries by contraction: every passable cell's upward edges.
///
/// Build it once per map and diagonal rule ([`ContractionHierarchy::build`]); queries
/// ([`ContractionHierarchy::find_path`]) return a cheapest path. An edit to the map calls for
/// a new build (a [`crate::search::Replanner`] drops its hierarchy on an edit and builds it again on
/// the next request that needs it).
///
/// Cells are numbered by *rank*, their place in the contraction order, in every array below
/// but `rank`. The upward edges of rank `r` are `first[r]..first[r + 1]` in `head` and
/// `middle`: first the `start[r + 1] - start[r]` that the queries search, sorted by head, whose
/// costs are `cost[start[r]..start[r + 1]]`, then those kept to unpack shortcuts only, sorted.
#[derive(Debug)]
pub struct ContractionHierarchy {
    graph: SearchGraph,
    /// The cell of each rank.
    order: Vec<u32>,
    /// The rank of each cell ([`NONE`] for walls).
    rank: Vec<u32>,
    first: Vec<u32>,
    start: Vec<u32>,
    /// The upper end of each edge, a rank.
    head: Vec<u32>,
    /// The cost of each searched edge.
    cost: Vec<f64>,
    /// The rank each shortcut passes through, [`NONE`] for a step: what unpacks it.
    middle: Vec<u32>,
    /// The number of searched edges that are shortcuts.
    shortcuts: usize,
    /// The query state, allocated by the first query.
    forward: Side,
    backward: Side,
}

/// One direction of a query: costs and parents by rank (infinite and [`NONE`] between
/// queries), the queue, and the ranks reached, to reset.
#[derive(Debug, Default)]
struct Side {
    dist: Vec<f64>,
    parent: Vec<u32>,
    queue: Heap,
    reached: Vec<u32>,
    /// Whether this side's queue holds nothing cheaper than the best meeting.
    finished: bool,
}

impl Side {
    fn new(ranks: usize) -> Self {
        Self {
            dist: vec![f64::INFINITY; ranks],
            parent: vec![NONE; ranks],
            ..Self::default()
        }
    }

    /// Starts the side at rank `from`.
    fn start(&mut self, from: u32) {
        self.dist[from as usize] = 0.0;
        self.reached.push(from);
        self.queue.push(Entry::new(0.0, 0.0, from));
        self.finished = false;
    }

    /// The cost of the cheapest queued rank, infinite when the queue is empty.
    fn next_key(&self) -> f64 {
        self.queue.peek().map_or(f64::INFINITY, Entry::priority)
    }

    /// Back to infinite costs on every rank reached.
    fn reset(&mut self) {
        for &r in &self.reached {
            self.dist[r as usize] = f64::INFINITY;
            self.parent[r as usize] = NONE;
        }
        self.reached.clear();
        self.queue.clear();
    }
}

impl ContractionHierarchy {
    /// A rough estimate of the build's time in a release build, from the map's passable
    /// cells, for telling a user up front that a build will be long. The time grows about as
    /// the cells: measured TODO in `cargo bench --bench preprocessed`; maps with large open
    /// areas build slower than this. A debug build takes longer.
    ///
    /// ```
    /// use gridpath_core::search::ContractionHierarchy;
    ///
    /// let small = ContractionHierarchy::build_estimate(10_000);
    /// let large = ContractionHierarchy::build_estimate(795_765);
    /// assert!(small.as_secs_f64() < 0.2 && (1.0..20.0).contains(&large.as_secs_f64()));
    /// ```
    pub fn build_estimate(passable: usize) -> std::time::Duration {
        let scale = passable as f64 / 795_765.0;
        std::time::Duration::from_secs_f64(5.0 * scale)
    }

    /// Prepares a grid for exact queries under a diagonal rule. Panics on nothing; a map with
    /// heights gets a hierarchy whose queries are refused.
    pub fn build(grid: &Grid, diagonal: Diagonal) -> Self {
        Self::from_graph(SearchGraph::new(grid, diagonal))
    }

    /// Refuses a graph of more than [`CH_MAX_CELLS`] cells, before any build.
    pub fn check_size(graph: &SearchGraph) -> Result<(), SearchError> {
        if graph.len() > CH_MAX_CELLS {
            return Err(SearchError::MapTooLarge {
                algorithm: Algorithm::ContractionHierarchy,
                cells: graph.len(),
                max: CH_MAX_CELLS,
            });
        }
        Ok(())
    }

    /// Prepares a search graph for exact queries, as [`ContractionHierarchy::build`] does.
    pub fn from_graph(graph: SearchGraph) -> Self {
        let Ok(ch) = Self::from_graph_controlled(graph, &UNCONTROLLED) else {
            unreachable!("a build nobody can cancel runs to the end")
        };
        ch
    }

    /// Prepares a search graph for exact queries, looking for a cancellation every thousand
    /// or so cells: the build of a large map takes seconds, and a cancelled build stops with
    /// [`SearchError::Cancelled`].
    ///
    /// ```
    /// use gridpath_core::grid::{Grid, Terrain};
    /// use gridpath_core::search::{ContractionHierarchy, Diagonal, SearchControl, SearchError, SearchGraph};
    ///
    /// let grid = Grid::new(64, 64, Terrain::default_catalog(), 0).expect("a valid map");
    /// let graph = SearchGraph::new(&grid, Diagonal::NoCut);
    /// let control = SearchControl::new();
    /// control.cancel();
    /// let built = ContractionHierarchy::from_graph_controlled(graph.clone(), &control);
    /// assert!(matches!(built, Err(SearchError::Cancelled)));
    /// let built = ContractionHierarchy::from_graph_controlled(graph, &SearchControl::new());
    /// assert!(built.is_ok_and(|ch| ch.edge_count() > 0));
    /// ```
    pub fn from_graph_controlled(
        graph: SearchGraph,
        control: &SearchControl,
    ) -> Result<Self, SearchError> {
        let passable = graph.passable_count().max(1) as f64;
        let mut check = |contracted: usize| {
            control.report_build(contracted as f64 / passable);
            if control.is_cancelled() {
                Err(SearchError::Cancelled)
            } else {
                Ok(())
            }
        };
        let mut built = contraction::contract(&graph, &mut check)?;
        let order = std::mem::take(&mut built.order);
        let mut rank = vec![NONE; graph.len()];
        for (r, &c) in order.iter().enumerate() {
            rank[c as usize] = r as u32;
        }
        let Compact {
            first,
            start,
            head,
            middle,
            cost,
            shortcuts,
        } = compact(built, &rank)?;
        control.report_build(1.0);
        Ok(Self {
            graph,
            order,
            rank,
            first,
            start,
            head,
            cost,
            middle,
            shortcuts,
            forward: Side::default(),
            backward: Side::default(),
        })
    }

    /// The graph the queries run on.
    pub fn graph(&self) -> &SearchGraph {
        &self.graph
    }

    /// The number of upward edges the queries search: steps of the grid and shortcuts.
    pub fn edge_count(&self) -> usize {
        self.cost.len()
    }

    /// The number of shortcuts among the upward edges the queries search.
    pub fn shortcut_count(&self) -> usize {
        self.shortcuts
    }

    /// The number of upward edges kept to unpack shortcuts, those searched included.
    pub fn unpacking_edge_count(&self) -> usize {
        self.head.len()
    }

    /// The memory the hierarchy takes beyond the search graph, in bytes (the query state
    /// included once a query has allocated it).
    pub fn hierarchy_bytes(&self) -> usize {
        fn bytes<T>(v: &Vec<T>) -> usize {
            v.capacity() * size_of::<T>()
        }
        let side = |s: &Side| {
            bytes(&s.dist)
                + bytes(&s.parent)
                + s.queue.capacity() * size_of::<Entry>()
                + bytes(&s.reached)
        };
        bytes(&self.order)
            + bytes(&self.rank)
            + bytes(&self.first)
            + bytes(&self.start)
            + bytes(&self.head)
            + bytes(&self.cost)
            + bytes(&self.middle)
            + side(&self.forward)
            + side(&self.backward)
    }

    /// A cheapest path from the request's start to its goal.
    ///
    /// Fails when an end is off the map or impassable, when the map has heights, or when the
    /// hierarchy was built for another diagonal rule than the request's. `stats.time_us` is
    /// the time of the query alone; `expanded` counts the ranks both searches expanded.
    pub fn find_path(&mut self, request: &SearchRequest) -> Result<SearchResult, SearchError> {
        crate::search::outcome::check(&self.graph, request)?;
        if self.graph.has_heights() {
            return Err(SearchError::HeightsUnsupported {
                algorithm: request.algorithm,
            });
        }
        let started = Instant::now();
        let mut stats = Stats::default();
        let start = self.rank[self.graph.index(request.start)];
        let goal = self.rank[self.graph.index(request.goal)];
        let path = self.query(start, goal, &mut stats);
        stats.time_us = started.elapsed().as_micros() as u64;
        stats.prepared_bytes = self.hierarchy_bytes() as u64;
        Ok(crate::search::outcome::result(
            &self.graph,
            request,
            path,
            stats,
            None,
        ))
    }

    /// Settles the cheapest rank of `side`'s queue: unless a neighbour above reaches it more
    /// cheaply (it is *stalled* then), records a meeting with `other` and relaxes its upward
    /// edges. Marks the side finished once its queue holds nothing cheaper than `best`.
    #[inline]
    fn settle(&self, side: &mut Side, other: &Side, best: &mut (f64, u32), stats: &mut Stats) {
        let Some(entry) = side.queue.pop() else {
            side.finished = true;
            return;
        };
        let (d, x) = (entry.priority(), entry.cell());
        let xi = x as usize;
        if d > side.dist[xi] {
            return;
        }
        if d >= best.0 {
            side.finished = true;
            return;
        }
        let costs = &self.cost[self.start[xi] as usize..self.start[xi + 1] as usize];
        let from = self.first[xi] as usize;
        let heads = &self.head[from..from + costs.len()];
        if heads
            .iter()
            .zip(costs)
            .any(|(&y, &c)| side.dist[y as usize] + c < d)
        {
            return;
        }
        stats.expanded += 1;
        let through = d + other.dist[xi];
        if through < best.0 {
            *best = (through, x);
        }
        for (&y, &c) in heads.iter().zip(costs) {
            let yi = y as usize;
            let nd = d + c;
            if nd < side.dist[yi] {
                if side.dist[yi].is_infinite() {
                    side.reached.push(y);
                }
                side.dist[yi] = nd;
                side.parent[yi] = x;
                side.queue.push(Entry::new(nd, nd, y));
                stats.pushed += 1;
            }
        }
    }

    /// Searches up from both ends, the cheaper queue first, and unpacks the cheapest meeting
    /// into cells.
    fn query(&mut self, start: u32, goal: u32, stats: &mut Stats) -> Option<Vec<usize>> {
        if start == goal {
            return Some(vec![self.order[start as usize] as usize]);
        }
        let ranks = self.order.len();
        let mut forward = std::mem::take(&mut self.forward);
        let mut backward = std::mem::take(&mut self.backward);
        if forward.dist.len() != ranks {
            forward = Side::new(ranks);
            backward = Side::new(ranks);
        }
        forward.start(start);
        backward.start(goal);
        let mut best = (f64::INFINITY, NONE);
        while !(forward.finished && backward.finished) {
            let forward_next = !forward.finished
                && (backward.finished || forward.next_key() <= backward.next_key());
            if forward_next {
                self.settle(&mut forward, &backward, &mut best, stats);
            } else {
                self.settle(&mut backward, &forward, &mut best, stats);
            }
        }
        let meeting = best.1;
        let path = (meeting != NONE).then(|| {
            let meeting = meeting as usize;
            // Start → meeting along the forward parents, then meeting → goal.
            let mut climb = vec![meeting];
            while let Some(&top) = climb.last()
                && forward.parent[top] != NONE
            {
                climb.push(forward.parent[top] as usize);
            }
            climb.reverse();
            let mut descent = vec![meeting];
            while let Some(&top) = descent.last()
                && backward.parent[top] != NONE
            {
                descent.push(backward.parent[top] as usize);
            }
            let mut path = vec![self.order[start as usize] as usize];
            for pair in climb.windows(2).chain(descent.windows(2)) {
                self.unpack(pair[0], pair[1], &mut path);
            }
            path
        });
        forward.reset();
        backward.reset();
        self.forward = forward;
        self.backward = backward;
        path
    }

    /// The middle rank of the edge between two ranks, [`NONE`] for a step of the grid: the
    /// edge is among the searched edges of the lower rank or among those it keeps for
    /// unpacking, each list sorted.
    fn middle_of(&self, a: usize, b: usize) -> u32 {
        let (low, high) = if a < b { (a, b) } else { (b, a) };
        let from = self.first[low] as usize;
        let split = from + (self.start[low + 1] - self.start[low]) as usize;
        let to = self.first[low + 1] as usize;
        let find = |edges: std::ops::Range<usize>| {
            let k =
                edges.start + self.head[edges.clone()].partition_point(|&h| (h as usize) < high);
            (k < edges.end && self.head[k] as usize == high).then_some(k)
        };
        let k = find(from..split).or_else(|| find(split..to));
        debug_assert!(k.is_some(), "an edge of the hierarchy");
        k.map_or(NONE, |k| self.middle[k])
    }

    /// Appends the cells of the edge from rank `from` to rank `to` (`to` included, `from`
    /// not).
    fn unpack(&self, from: usize, to: usize, path: &mut Vec<usize>) {
        let mut pending = vec![(from, to)];
        while let Some((a, b)) = pending.pop() {
            match self.middle_of(a, b) {
                NONE => path.push(self.order[b] as usize),
                m => {
                    let m = m as usize;
                    pending.push((m, b));
                    pending.push((a, m));
                }
            }
        }
    }
}

/// The searched graph and what unpacks it, by rank.
struct Compact {
    first: Vec<u32>,
    start: Vec<u32>,
    head: Vec<u32>,
    middle: Vec<u32>,
    cost: Vec<f64>,
    shortcuts: usize,
}

/// Turns the build's upward edges into the arrays the queries read: cells become ranks, each
/// rank's edges are sorted by head, and an edge is searched only when no way round through
/// its lower end's other upward edges costs as little. Such a way from `x` to `z` takes an
/// edge to a rank `y` below `z` and `y`'s edge to `z`, each costing strictly less than the
/// edge `x`–`z` (steps cost more than nothing): by induction on the cost, every edge left out
/// has a way of upward searched edges that costs no more, and the queries stay exact. The
/// edges left out stay for unpacking.
fn compact(built: contraction::Contracted, rank: &[u32]) -> Result<Compact, SearchError> {
    let contraction::Contracted {
        first: cell_first,
        head: cell_head,
        middle: cell_middle,
        cost: cell_cost,
        ..
    } = built;
    let ranks = cell_first.len().saturating_sub(1);
    let edges = cell_head.len();
    // Every rank's edges sorted by head, as ranks.
    let mut head = Vec::with_capacity(edges);
    let mut middle = Vec::with_capacity(edges);
    let mut cost = Vec::with_capacity(edges);
    let mut sorted: Vec<usize> = Vec::new();
    for r in 0..ranks {
        sorted.clear();
        sorted.extend(cell_first[r] as usize..cell_first[r + 1] as usize);
        sorted.sort_unstable_by_key(|&k| rank[cell_head[k] as usize]);
        for &k in &sorted {
            head.push(rank[cell_head[k] as usize]);
            cost.push(cell_cost[k]);
            let m = cell_middle[k];
            middle.push(if m == NONE { NONE } else { rank[m as usize] });
        }
    }
    drop((cell_head, cell_middle, cell_cost));
    let first = cell_first;
    let span = |r: usize| first[r] as usize..first[r + 1] as usize;

    // An edge x–z is left out when x–y and y–z cost no more for some upward neighbour y < z.
    let mut searched = vec![true; edges];
    let mut via = vec![f64::INFINITY; ranks];
    for x in 0..ranks {
        let arcs = span(x);
        for i in arcs.clone() {
            let y = head[i] as usize;
            for k in span(y) {
                via[head[k] as usize] = cost[k];
            }
            for j in i + 1..arcs.end {
                let z = head[j] as usize;
                if cost[i] < cost[j] && cost[i] + via[z] <= cost[j] {
                    searched[j] = false;
                }
            }
            for k in span(y) {
                via[head[k] as usize] = f64::INFINITY;
            }
        }
    }
    drop(via);

    // Each rank's searched edges first, then those for unpacking alone, in place: nothing
    // moves up, so nothing unread is overwritten.
    let mut first = first;
    let mut start = Vec::with_capacity(ranks + 1);
    let (mut kept, mut found, mut shortcuts) = (0, 0, 0);
    let mut unpacking: Vec<(u32, u32)> = Vec::new();
    for r in 0..ranks {
        let arcs = first[r] as usize..first[r + 1] as usize;
        first[r] = offset(kept, rank.len())?;
        start.push(offset(found, rank.len())?);
        for k in arcs {
            if searched[k] {
                head[kept] = head[k];
                middle[kept] = middle[k];
                cost[found] = cost[k];
                shortcuts += usize::from(middle[k] != NONE);
                kept += 1;
                found += 1;
            } else {
                unpacking.push((head[k], middle[k]));
            }
        }
        for (h, m) in unpacking.drain(..) {
            head[kept] = h;
            middle[kept] = m;
            kept += 1;
        }
    }
    if let Some(last) = first.last_mut() {
        *last = offset(kept, rank.len())?;
    }
    start.push(offset(found, rank.len())?);
    head.truncate(kept);
    head.shrink_to_fit();
    middle.truncate(kept);
    middle.shrink_to_fit();
    cost.truncate(found);
    cost.shrink_to_fit();
    Ok(Compact {
        first,
        start,
        head,
        middle,
        cost,
        shortcuts,
    })
}

/// The most cells a contraction hierarchy is built for: 1024 × 1024.
pub const CH_MAX_CELLS: usize = 1 << 20;

/// Builds the hierarchy for one query and answers it: what `solve` and
/// [`crate::search::Searcher`] do for [`Algorithm::ContractionHierarchy`].
pub(crate) fn ch_once(
    graph: &SearchGraph,
    request: &SearchRequest,
    control: &SearchControl,
) -> Result<SearchResult, SearchError> {
    debug_assert_eq!(request.algorithm, Algorithm::ContractionHierarchy);
    crate::search::outcome::check(graph, request)?;
    ContractionHierarchy::from_graph_controlled(graph.clone(), control)?.find_path(request)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Cell;
    use crate::search::solve;

    #[test]
    fn matches_dijkstra_on_a_small_weighted_map() {
        let rows = [
            "..~~..==..#.",
            ".#~~.#==.#..",
            "..~~..==..~.",
            "#.##..##.#~.",
            "..==..~~....",
        ];
        let grid = Grid::from_ascii(&rows).unwrap();
        for diagonal in Diagonal::ALL.iter().copied() {
            let mut ch = ContractionHierarchy::build(&grid, diagonal);
            let cells: Vec<Cell> = (0..grid.height())
                .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
                .filter(|&c| grid.is_passable(c))
                .collect();
            for &a in &cells {
                for &b in &cells {
                    let request = SearchRequest::new(a, b)
                        .with_diagonal(diagonal)
                        .with_algorithm(Algorithm::Dijkstra);
                    let expected = solve(&grid, &request).unwrap();
                    let got = ch
                        .find_path(&request.with_algorithm(Algorithm::ContractionHierarchy))
                        .unwrap();
                    assert_eq!(got.found, expected.found, "{a} → {b} {diagonal}");
                    assert!(
                        (got.cost - expected.cost).abs() <= 1e-9 * expected.cost.max(1.0),
                        "{a} → {b} {diagonal}: {} vs {}",
                        got.cost,
                        expected.cost
                    );
                }
            }
        }
    }
}
