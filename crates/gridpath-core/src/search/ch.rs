//! Contraction hierarchies (Geisberger, Sanders, Schultes & Delling, 2008) over the grid graph:
//! exact queries on weighted terrain, far faster than A* once the hierarchy is built.
//!
//! The build contracts the passable cells one by one, least important first. Contracting a
//! cell removes it from the graph; for each pair of its remaining neighbours whose cheapest
//! connection ran through it, a *shortcut* edge of the same cost joins them, remembering the
//! contracted cell in the middle. A bounded Dijkstra search (the *witness* search, at most
//! [`WITNESS_SETTLE_LIMIT`] cells settled) looks for another path no dearer first; when it
//! finds one no shortcut is needed, and when it gives up one is added anyway, which costs
//! memory but never exactness. A cell's importance is its *edge difference* (the shortcuts its
//! contraction would add less the edges it removes) plus the number of its neighbours already
//! contracted, which spreads the contractions evenly over the map; priorities are brought up
//! to date lazily, when a cell reaches the front of the queue.
//!
//! Every cell keeps the edges it had when it was contracted: they all lead to cells contracted
//! later, *upwards*. A cheapest path always has a form that climbs and then descends the
//! order, so a query runs Dijkstra upwards from both ends at once and meets at the top; it
//! stops when neither side's next cell can beat the best meeting. A cell that the search
//! reached by a path dearer than one through a cell above it is *stalled* (not expanded):
//! it cannot lie on the cheapest path. The shortcuts of the path found are unpacked into the
//! cells they stand for, so the answer is a full cell-by-cell path.
//!
//! Steps cost the same both ways on a flat map, so one set of upward edges serves both
//! searches. Maps with heights, whose steps may cost more one way than the other, are refused.
//! The diagonal rule is part of the graph: a hierarchy serves the rule it was built for.
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

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

use crate::grid::Grid;

use super::control::{SearchControl, UNCONTROLLED};
use super::graph::SearchGraph;
use super::request::{Algorithm, Diagonal, SearchError, SearchRequest, SearchResult, Stats};

/// The most cells a witness search settles before it gives up (and a shortcut is added).
pub const WITNESS_SETTLE_LIMIT: usize = 64;

/// The witness search limit while only estimating a cell's priority: fewer cells settled,
/// a rougher count, a quicker build.
const ESTIMATE_SETTLE_LIMIT: usize = 24;

/// No cell: an edge that is a step of the grid has no middle cell.
const NONE: u32 = u32::MAX;

/// A contracted cell with at most this many edges has its neighbours' priorities updated
/// at once.
const NEIGHBOUR_UPDATE_DEGREE: usize = 40;

/// A cell with more edges than this is in the dense top of the hierarchy: its witness search
/// looks at the direct edges between its neighbours alone, which costs the square of the
/// degree instead of a Dijkstra search from each neighbour.
const DENSE_DEGREE: usize = 40;

/// How many contractions pass between two looks at the control for a cancellation.
const CANCEL_CHECK_EVERY: usize = 1024;

/// An edge of the graph being contracted, or an upward edge of the hierarchy.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Arc {
    /// The cell at the other end.
    to: u32,
    /// The cost of the cheapest path it stands for.
    cost: f64,
    /// The contracted cell the shortcut passes through, or [`NONE`] for a step of the grid.
    middle: u32,
}

/// A min-heap of (cost, cell) on the bit patterns of non-negative costs, which order as the
/// costs do.
type CostHeap = BinaryHeap<Reverse<(u64, u32)>>;

/// Costs of one search direction, reset in O(1) between searches by stamps.
#[derive(Debug, Default)]
struct Side {
    dist: Vec<f64>,
    parent: Vec<u32>,
    stamp: Vec<u32>,
    current: u32,
    heap: CostHeap,
}

impl Side {
    fn begin(&mut self, cells: usize) {
        if self.dist.len() != cells || self.current == u32::MAX {
            self.dist = vec![f64::INFINITY; cells];
            self.parent = vec![NONE; cells];
            self.stamp = vec![0; cells];
            self.current = 0;
        }
        self.current += 1;
        self.heap.clear();
    }

    #[inline]
    fn dist(&self, i: usize) -> f64 {
        if self.stamp[i] == self.current {
            self.dist[i]
        } else {
            f64::INFINITY
        }
    }

    #[inline]
    fn set(&mut self, i: usize, d: f64, parent: u32) {
        self.stamp[i] = self.current;
        self.dist[i] = d;
        self.parent[i] = parent;
        self.heap.push(Reverse((d.to_bits(), i as u32)));
    }

    /// The cost at the front of the queue, infinite when it is empty.
    fn front(&self) -> f64 {
        self.heap
            .peek()
            .map_or(f64::INFINITY, |Reverse((bits, _))| f64::from_bits(*bits))
    }
}

/// The graph while it is being contracted.
struct Contraction<'g> {
    graph: &'g SearchGraph,
    /// The remaining edges of each cell (to cells not yet contracted), both ways.
    adjacency: Vec<Vec<Arc>>,
    contracted: Vec<bool>,
    /// How many neighbours of each cell are contracted.
    deleted: Vec<u32>,
    /// One more than the highest level among the contracted neighbours of each cell: how
    /// deep the hierarchy below it is.
    level: Vec<u32>,
    witness: Side,
    /// The shortcuts the contraction being simulated or done needs: (u, w, cost).
    needed: Vec<(u32, u32, f64)>,
    /// Per cell, the index of its edge in the list being updated, valid when the stamp is
    /// the current one.
    place: Vec<(u32, u32)>,
    stamp: u32,
}

impl Contraction<'_> {
    /// Finds the shortcuts that contracting `v` needs into `self.needed`, each witness search
    /// settling at most `limit` cells.
    fn shortcuts_for(&mut self, v: usize, limit: usize) {
        self.needed.clear();
        let arcs = std::mem::take(&mut self.adjacency[v]);
        let cells = self.adjacency.len();
        if arcs.len() > DENSE_DEGREE {
            // The dense top of the hierarchy: only the direct edges are witnesses.
            for (i, a) in arcs.iter().enumerate() {
                self.stamp += 1;
                let from = &self.adjacency[a.to as usize];
                for (k, arc) in from.iter().enumerate() {
                    self.place[arc.to as usize] = (self.stamp, k as u32);
                }
                for b in &arcs[i + 1..] {
                    let via = a.cost + b.cost;
                    let (stamp, k) = self.place[b.to as usize];
                    if stamp != self.stamp || from[k as usize].cost > via {
                        self.needed.push((a.to, b.to, via));
                    }
                }
            }
            self.adjacency[v] = arcs;
            return;
        }
        for (i, a) in arcs.iter().enumerate() {
            let rest = &arcs[i + 1..];
            let Some(far) = rest.iter().map(|b| b.cost).reduce(f64::max) else {
                continue;
            };
            let bound = a.cost + far;
            // Dijkstra from `a.to` without `v`, up to `bound` or `limit` settled cells.
            self.witness.begin(cells);
            self.witness.set(a.to as usize, 0.0, NONE);
            let mut settled = 0;
            while let Some(Reverse((bits, u))) = self.witness.heap.pop() {
                let d = f64::from_bits(bits);
                let u = u as usize;
                if d > self.witness.dist(u) {
                    continue;
                }
                if d > bound || settled >= limit {
                    break;
                }
                settled += 1;
                for e in &self.adjacency[u] {
                    let next = e.to as usize;
                    if next == v {
                        continue;
                    }
                    let nd = d + e.cost;
                    if nd < self.witness.dist(next) {
                        self.witness.set(next, nd, NONE);
                    }
                }
            }
            for b in rest {
                let via = a.cost + b.cost;
                if self.witness.dist(b.to as usize) > via {
                    self.needed.push((a.to, b.to, via));
                }
            }
        }
        self.adjacency[v] = arcs;
    }

    /// The priority of `v`: the edge difference of its contraction plus its contracted
    /// neighbours.
    fn priority(&mut self, v: usize) -> i64 {
        self.shortcuts_for(v, ESTIMATE_SETTLE_LIMIT);
        self.needed.len() as i64 - self.adjacency[v].len() as i64
            + i64::from(self.deleted[v])
            + i64::from(self.level[v])
    }

    /// Contracts `v`: adds the shortcuts it needs and removes it from its neighbours' edges.
    /// Returns its upward edges.
    fn contract(&mut self, v: usize) -> Vec<Arc> {
        self.shortcuts_for(v, WITNESS_SETTLE_LIMIT);
        // Each shortcut both ways, grouped by the cell it leaves: one pass over that cell's
        // edges finds the ones already there, so the dense top of the hierarchy (hundreds of
        // shortcuts per contraction) does not scan a cell's edges once per shortcut.
        let mut needed = std::mem::take(&mut self.needed);
        let count = needed.len();
        for i in 0..count {
            let (u, w, cost) = needed[i];
            needed.push((w, u, cost));
        }
        needed.sort_unstable_by_key(|&(u, w, _)| (u, w));
        for group in needed.chunk_by(|a, b| a.0 == b.0) {
            let from = group[0].0 as usize;
            self.stamp += 1;
            for (i, arc) in self.adjacency[from].iter().enumerate() {
                self.place[arc.to as usize] = (self.stamp, i as u32);
            }
            for &(_, to, cost) in group {
                let arcs = &mut self.adjacency[from];
                let (stamp, i) = self.place[to as usize];
                if stamp == self.stamp {
                    let arc = &mut arcs[i as usize];
                    if cost < arc.cost {
                        arc.cost = cost;
                        arc.middle = v as u32;
                    }
                } else {
                    self.place[to as usize] = (self.stamp, arcs.len() as u32);
                    arcs.push(Arc {
                        to,
                        cost,
                        middle: v as u32,
                    });
                }
            }
        }
        self.needed = needed;
        let arcs = std::mem::take(&mut self.adjacency[v]);
        for a in &arcs {
            let n = a.to as usize;
            self.adjacency[n].retain(|b| b.to as usize != v);
            self.deleted[n] += 1;
            self.level[n] = self.level[n].max(self.level[v] + 1);
        }
        self.contracted[v] = true;
        arcs
    }
}

/// A map prepared for exact queries by contraction: every passable cell's upward edges.
///
/// Build it once per map and diagonal rule ([`ContractionHierarchy::build`]); queries
/// ([`ContractionHierarchy::find_path`]) return a cheapest path. An edit to the map calls for
/// a new build (a [`super::Replanner`] drops its hierarchy on an edit and builds it again on
/// the next request that needs it).
#[derive(Debug)]
pub struct ContractionHierarchy {
    graph: SearchGraph,
    /// The upward edges of cell `i` are `up[first[i]..first[i + 1]]`.
    first: Vec<u32>,
    up: Vec<Arc>,
    /// Each cell's place in the contraction order (walls: 0, they have no edges).
    rank: Vec<u32>,
    /// The number of upward edges that are shortcuts.
    shortcuts: usize,
    forward: Side,
    backward: Side,
}

impl ContractionHierarchy {
    /// Prepares a grid for exact queries under a diagonal rule. Panics on nothing; a map with
    /// heights gets a hierarchy whose queries are refused.
    pub fn build(grid: &Grid, diagonal: Diagonal) -> Self {
        Self::from_graph(SearchGraph::new(grid, diagonal))
    }

    /// Prepares a search graph for exact queries, as [`ContractionHierarchy::build`] does.
    pub fn from_graph(graph: SearchGraph) -> Self {
        let Ok(ch) = Self::from_graph_controlled(graph, &UNCONTROLLED) else {
            unreachable!("a build nobody can cancel runs to the end")
        };
        ch
    }

    /// Prepares a search graph for exact queries, looking for a cancellation every thousand
    /// or so contractions: the build of a large map takes seconds, and a cancelled build stops
    /// with [`SearchError::Cancelled`].
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
        if control.is_cancelled() {
            return Err(SearchError::Cancelled);
        }
        let cells = graph.len();
        let mut adjacency = vec![Vec::new(); cells];
        for (i, arcs) in adjacency.iter_mut().enumerate() {
            for d in 0..8 {
                if graph.can_step(i, d) {
                    let to = (i as isize + graph.delta(d)) as usize;
                    arcs.push(Arc {
                        to: to as u32,
                        cost: graph.step_cost(i, to, d),
                        middle: NONE,
                    });
                }
            }
        }
        let mut work = Contraction {
            graph: &graph,
            adjacency,
            contracted: vec![false; cells],
            deleted: vec![0; cells],
            level: vec![0; cells],
            witness: Side::default(),
            needed: Vec::new(),
            place: vec![(0, 0); cells],
            stamp: 0,
        };
        let mut queue: BinaryHeap<Reverse<(i64, u32)>> = BinaryHeap::new();
        for i in 0..cells {
            if work.graph.is_passable(i) {
                let p = work.priority(i);
                queue.push(Reverse((p, i as u32)));
            }
        }
        let mut upward: Vec<Vec<Arc>> = vec![Vec::new(); cells];
        let mut rank = vec![0u32; cells];
        let mut next_rank = 0u32;
        while let Some(Reverse((p, v))) = queue.pop() {
            let v = v as usize;
            if work.contracted[v] {
                continue;
            }
            // Lazy update: a priority that rose since it was queued goes back in line.
            let now = work.priority(v);
            if now > p
                && let Some(Reverse((front, _))) = queue.peek()
                && now > *front
            {
                queue.push(Reverse((now, v as u32)));
                continue;
            }
            if (next_rank as usize).is_multiple_of(CANCEL_CHECK_EVERY) && control.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            upward[v] = work.contract(v);
            rank[v] = next_rank;
            next_rank += 1;
            // The neighbours' priorities changed most: bring them up to date now, but for
            // in the dense top of the hierarchy, where that would cost the cube of the
            // degree and the lazy updates are enough.
            let neighbours = if upward[v].len() <= NEIGHBOUR_UPDATE_DEGREE {
                upward[v].as_slice()
            } else {
                &[]
            };
            for a in neighbours {
                let n = a.to as usize;
                let p = work.priority(n);
                queue.push(Reverse((p, n as u32)));
            }
        }
        let mut first = Vec::with_capacity(cells + 1);
        let mut up = Vec::with_capacity(upward.iter().map(Vec::len).sum());
        for arcs in &upward {
            first.push(up.len() as u32);
            up.extend_from_slice(arcs);
        }
        first.push(up.len() as u32);
        let shortcuts = up.iter().filter(|a| a.middle != NONE).count();
        drop(work);
        Ok(Self {
            graph,
            first,
            up,
            rank,
            shortcuts,
            forward: Side::default(),
            backward: Side::default(),
        })
    }

    /// The graph the queries run on.
    pub fn graph(&self) -> &SearchGraph {
        &self.graph
    }

    /// The number of upward edges: the grid's steps (each counted once) and the shortcuts.
    pub fn edge_count(&self) -> usize {
        self.up.len()
    }

    /// The number of shortcuts among the upward edges.
    pub fn shortcut_count(&self) -> usize {
        self.shortcuts
    }

    /// The memory the hierarchy takes beyond the search graph, in bytes (the query state
    /// included).
    pub fn hierarchy_bytes(&self) -> usize {
        let side =
            |s: &Side| s.dist.capacity() * 8 + s.parent.capacity() * 4 + s.stamp.capacity() * 4;
        self.first.capacity() * 4
            + self.up.capacity() * size_of::<Arc>()
            + self.rank.capacity() * 4
            + side(&self.forward)
            + side(&self.backward)
    }

    /// The upward edges of cell `i`.
    #[inline]
    fn upward(&self, i: usize) -> &[Arc] {
        &self.up[self.first[i] as usize..self.first[i + 1] as usize]
    }

    /// A cheapest path from the request's start to its goal.
    ///
    /// Fails when an end is off the map or impassable, when the map has heights, or when the
    /// hierarchy was built for another diagonal rule than the request's. `stats.time_us` is
    /// the time of the query alone; `expanded` counts the cells both searches expanded.
    pub fn find_path(&mut self, request: &SearchRequest) -> Result<SearchResult, SearchError> {
        super::outcome::check(&self.graph, request)?;
        if self.graph.has_heights() {
            return Err(SearchError::HeightsUnsupported {
                algorithm: request.algorithm,
            });
        }
        let started = Instant::now();
        let mut stats = Stats::default();
        let start = self.graph.index(request.start);
        let goal = self.graph.index(request.goal);
        let path = self.query(start, goal, &mut stats);
        stats.time_us = started.elapsed().as_micros() as u64;
        Ok(super::outcome::result(
            &self.graph,
            request,
            path,
            stats,
            None,
        ))
    }

    /// Searches upwards from both ends and unpacks the cheapest meeting into cells.
    fn query(&mut self, start: usize, goal: usize, stats: &mut Stats) -> Option<Vec<usize>> {
        if start == goal {
            return Some(vec![start]);
        }
        let cells = self.graph.len();
        let mut forward = std::mem::take(&mut self.forward);
        let mut backward = std::mem::take(&mut self.backward);
        forward.begin(cells);
        backward.begin(cells);
        forward.set(start, 0.0, NONE);
        backward.set(goal, 0.0, NONE);
        let (mut best, mut meeting) = (f64::INFINITY, NONE);
        loop {
            let (f, b) = (forward.front(), backward.front());
            if f.min(b) >= best {
                break;
            }
            let (side, other) = if f <= b {
                (&mut forward, &backward)
            } else {
                (&mut backward, &forward)
            };
            let Some(Reverse((bits, v))) = side.heap.pop() else {
                break;
            };
            let (d, v) = (f64::from_bits(bits), v as usize);
            if d > side.dist(v) {
                continue;
            }
            let arcs = self.upward(v);
            // Stall on demand: a cell above reaches `v` more cheaply, so `v` is not on the
            // cheapest path at this cost.
            if arcs.iter().any(|a| side.dist(a.to as usize) + a.cost < d) {
                continue;
            }
            stats.expanded += 1;
            let there = other.dist(v);
            if d + there < best {
                best = d + there;
                meeting = v as u32;
            }
            for a in arcs {
                let next = a.to as usize;
                let nd = d + a.cost;
                if nd < side.dist(next) {
                    side.set(next, nd, v as u32);
                }
            }
        }
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
            let mut path = vec![start];
            for pair in climb.windows(2).chain(descent.windows(2)) {
                self.unpack(pair[0], pair[1], &mut path);
            }
            path
        });
        self.forward = forward;
        self.backward = backward;
        path
    }

    /// The edge between two cells joined in the hierarchy, kept by the one contracted first.
    fn edge(&self, a: usize, b: usize) -> Option<&Arc> {
        let (low, high) = if self.rank[a] < self.rank[b] {
            (a, b)
        } else {
            (b, a)
        };
        self.upward(low).iter().find(|arc| arc.to as usize == high)
    }

    /// Appends the cells of the edge from `from` to `to` (`to` included, `from` not).
    fn unpack(&self, from: usize, to: usize, path: &mut Vec<usize>) {
        let mut pending = vec![(from, to)];
        while let Some((a, b)) = pending.pop() {
            match self.edge(a, b) {
                Some(arc) if arc.middle != NONE => {
                    let m = arc.middle as usize;
                    pending.push((m, b));
                    pending.push((a, m));
                }
                _ => path.push(b),
            }
        }
    }
}

/// Builds the hierarchy for one query and answers it: what `solve` and
/// [`super::Searcher`] do for [`Algorithm::ContractionHierarchy`].
pub(crate) fn ch_once(
    graph: &SearchGraph,
    request: &SearchRequest,
    control: &SearchControl,
) -> Result<SearchResult, SearchError> {
    debug_assert_eq!(request.algorithm, Algorithm::ContractionHierarchy);
    super::outcome::check(graph, request)?;
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
