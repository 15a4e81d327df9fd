//! D* Lite (Koenig & Likhachev, 2002, the optimised version): incremental replanning towards a
//! fixed goal.
//!
//! The search runs backwards, from the goal towards the start, and keeps for every cell its
//! cost-to-goal `g` and a one-step lookahead `rhs = min over neighbours (step cost + g)`. When
//! cells change, only the cells whose steps changed get a new `rhs`; the search then repairs
//! the costs that depend on them, working outwards only as far as the current start needs. The
//! start may move between plans: the key modifier `k_m` keeps the priorities of the cells
//! already queued valid lower bounds.
//!
//! Two details keep a plan on a large open map from costing more than the cells it expands:
//!
//! - **Rounding is not a cheaper path.** Many paths of equal cost cross open ground, and their
//!   float sums differ in the last bits. Were every such difference taken as a cheaper path, a
//!   cell already expanded would be lowered by one unit in the last place, expanded again, and
//!   lower its neighbours in turn, in waves through the whole expanded area (on an open
//!   8192² map, more than 200 s where A* took 5 s). A lookahead lower by less than
//!   [`ROUNDING`] of itself is left as it was, as A* leaves a cell it has expanded.
//! - **One queue entry per cell.** The queue is an indexed heap: a cell whose key changes is
//!   moved within it rather than queued again, so it holds the inconsistent cells alone (the
//!   frontier), not every entry ever pushed.

use std::cmp::Ordering;
use std::time::Instant;

use crate::grid::{Cell, Grid, TerrainId};

use crate::control::SearchControl;
use crate::search::graph::SearchGraph;
use crate::search::heuristic::Estimate;
use crate::search::outcome::{check_cell, result};
use crate::search::request::{
    Algorithm, Diagonal, Heuristic, SearchError, SearchRequest, SearchResult, Stats,
};
use crate::search::workspace::{Query, Workspace};

/// A priority: compared by the first component, then the second. The second is
/// `min(g, rhs)`, or its negative while the planner [searches from scratch](Planner::fresh).
type Key = (f64, f64);

/// The fraction of a cost by which a lookahead must drop to count as a cheaper path: 2⁻⁴⁰, some
/// 4,000 units in the last place of an `f64`. Paths of equal cost summed in different orders
/// differ by far less (one or two units on open maps of 8192² cells). Costs that differ by
/// less than this are taken as equal: where two paths' real costs are that close, a plan may
/// keep the dearer, so in the worst case its cost exceeds the optimum by this fraction at each
/// step (never on maps of a few ordinary terrain costs, whose path costs differ by far more).
const ROUNDING: f64 = 1.0 / 1_099_511_627_776.0;

/// Whether key `a` orders strictly before key `b`.
#[inline]
fn less(a: Key, b: Key) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
}

/// A cell's cost-to-goal `g` and lookahead `rhs`, side by side (an expansion reads both of each
/// neighbour), each stored as its bits with those of infinity flipped: memory the allocator
/// hands out zeroed, without writing it, reads as two infinite costs, so that a plan touches
/// only the pages of the cells it reaches (a one-off search on a large map does not first write
/// the whole map's state).
type Costs = [u64; 2];

/// The stored form of a cost (see [`Costs`]).
#[inline]
fn store(cost: f64) -> u64 {
    cost.to_bits() ^ f64::INFINITY.to_bits()
}

/// A cost from its stored form.
#[inline]
fn load(stored: u64) -> f64 {
    f64::from_bits(stored ^ f64::INFINITY.to_bits())
}

/// Two infinite costs.
const UNKNOWN: Costs = [0, 0];

/// One entry of the priority queue.
#[derive(Clone, Copy, Debug)]
struct QueueEntry {
    key: Key,
    cell: u32,
}

impl QueueEntry {
    /// Whether this entry pops before `other`: the smaller key, then the smaller cell.
    #[inline]
    fn before(&self, other: &Self) -> bool {
        self.key
            .0
            .total_cmp(&other.key.0)
            .then(self.key.1.total_cmp(&other.key.1))
            .then(self.cell.cmp(&other.cell))
            == Ordering::Less
    }
}

/// The slot of a cell that is not in the queue; a queued cell's slot is its place plus one,
/// so that a zeroed array (see [`Costs`]) is an empty queue's.
const ABSENT: u32 = 0;

/// The priority queue: an indexed 4-ary heap of [`QueueEntry`], the smallest key at the top,
/// half as deep as a binary heap, a node's children in two cache lines. Each cell is in it at
/// most once; `slot` holds every cell's place in it, or [`ABSENT`].
#[derive(Debug, Default)]
struct Queue {
    items: Vec<QueueEntry>,
    slot: Vec<u32>,
}

impl Queue {
    /// An empty queue for a graph of `cells` cells.
    fn new(cells: usize) -> Self {
        Self {
            items: Vec::new(),
            slot: vec![ABSENT; cells],
        }
    }

    fn len(&self) -> usize {
        self.items.len()
    }

    /// Empties the queue for a graph of `cells` cells.
    fn reset(&mut self, cells: usize) {
        self.items.clear();
        // A new zeroed array rather than a cleared one: its pages are written only when used.
        self.slot = vec![ABSENT; cells];
    }

    fn peek(&self) -> Option<QueueEntry> {
        self.items.first().copied()
    }

    /// Puts `cell` in the queue with `key`, or moves it to `key` when it is there already.
    fn set(&mut self, cell: usize, key: Key) {
        let entry = QueueEntry {
            key,
            cell: cell as u32,
        };
        match self.slot[cell] {
            ABSENT => {
                self.items.push(entry);
                self.sift_up(self.items.len() - 1, entry);
            }
            at => self.replace(at as usize - 1, entry),
        }
    }

    /// Takes `cell` out of the queue, if it is there.
    fn remove(&mut self, cell: usize) {
        let at = self.slot[cell];
        if at == ABSENT {
            return;
        }
        self.slot[cell] = ABSENT;
        let at = at as usize - 1;
        let Some(last) = self.items.pop() else {
            return;
        };
        if at < self.items.len() {
            self.replace(at, last);
        }
    }

    /// Puts `entry` at `at` in place of the entry there, moving it up or down to its place.
    fn replace(&mut self, at: usize, entry: QueueEntry) {
        if at > 0 && entry.before(&self.items[(at - 1) / 4]) {
            self.sift_up(at, entry);
        } else {
            self.sift_down(at, entry);
        }
    }

    /// Puts `entry` at `hole` or above it, moving the later parents down.
    fn sift_up(&mut self, mut hole: usize, entry: QueueEntry) {
        while hole > 0 {
            let parent = (hole - 1) / 4;
            let above = self.items[parent];
            if !entry.before(&above) {
                break;
            }
            self.items[hole] = above;
            self.slot[above.cell as usize] = hole as u32 + 1;
            hole = parent;
        }
        self.items[hole] = entry;
        self.slot[entry.cell as usize] = hole as u32 + 1;
    }

    /// Puts `entry` at `hole` or below it, moving the earlier children up.
    fn sift_down(&mut self, mut hole: usize, entry: QueueEntry) {
        let len = self.items.len();
        loop {
            let first = 4 * hole + 1;
            if first >= len {
                break;
            }
            let mut best = first;
            for child in first + 1..(first + 4).min(len) {
                if self.items[child].before(&self.items[best]) {
                    best = child;
                }
            }
            let below = self.items[best];
            if !below.before(&entry) {
                break;
            }
            self.items[hole] = below;
            self.slot[below.cell as usize] = hole as u32 + 1;
            hole = best;
        }
        self.items[hole] = entry;
        self.slot[entry.cell as usize] = hole as u32 + 1;
    }

    /// Rebuilds the heap after its entries' keys changed, from the last parent up, in time
    /// linear in its size.
    fn rebuild(&mut self, mut change: impl FnMut(&mut QueueEntry)) {
        for entry in &mut self.items {
            change(entry);
        }
        for i in (0..self.items.len() / 4 + 1).rev() {
            if let Some(&entry) = self.items.get(i) {
                self.sift_down(i, entry);
            }
        }
    }
}

/// The D* Lite state over a graph that the caller owns: what [`DStarLite`] and the one-off
/// [`Algorithm::DStarLite`] search share.
#[derive(Debug)]
pub(crate) struct Planner {
    goal: usize,
    heuristic: Heuristic,
    /// The factor on the heuristic: the cheapest terrain cost when the state was initialised.
    scale: f64,
    /// Every cell's `g` and `rhs`.
    costs: Vec<Costs>,
    /// The inconsistent cells (`g ≠ rhs`), by key.
    queue: Queue,
    /// The start the keys were last computed for; `None` until the first plan.
    last_start: Option<usize>,
    /// The key modifier: the heuristic distance the start has moved in total.
    k_m: f64,
    /// The heuristic from the last start.
    estimate: Estimate,
    /// Whether no step got dearer since the costs were last reset, so that every finite `g`
    /// is the cost of a real path, never below the cheapest. Then a plan may stop as soon as
    /// no queued cell's first key is below the start's: a cell whose `g` is still too high
    /// on a cheapest path would have a smaller one (the proof of LPA*'s bound, with `g`
    /// never too low). Among equal first keys the queue then pops the cell farthest from
    /// the goal first, as A* pops the deepest, so that on open ground, where many cells
    /// share the cheapest cost, the search reaches the start without sweeping them all.
    /// The first change of the map turns this off (see [`Planner::cells_changed`]): with
    /// `g` possibly too low, the plan needs the standard order and test.
    fresh: bool,
}

impl Planner {
    /// A planner towards `goal` (a cell index) on a graph of `graph.len()` cells.
    pub fn new(graph: &SearchGraph, goal: usize, heuristic: Heuristic) -> Self {
        let n = graph.len();
        Self {
            goal,
            heuristic,
            scale: graph.min_cost(),
            costs: vec![UNKNOWN; n],
            queue: Queue::new(n),
            last_start: None,
            k_m: 0.0,
            estimate: Estimate::new(graph.topology(), Heuristic::Zero, 0, 0, 0.0),
            fresh: true,
        }
    }

    /// Forgets everything: the next plan searches from scratch.
    fn reset(&mut self, graph: &SearchGraph) {
        let n = graph.len();
        self.scale = graph.min_cost();
        self.costs = vec![UNKNOWN; n];
        self.queue.reset(n);
        self.last_start = None;
        self.k_m = 0.0;
        self.fresh = true;
    }

    /// The cell's `g` and `rhs`.
    #[inline]
    fn costs(&self, cell: usize) -> (f64, f64) {
        let [g, rhs] = self.costs[cell];
        (load(g), load(rhs))
    }

    #[inline]
    fn g(&self, cell: usize) -> f64 {
        load(self.costs[cell][0])
    }

    #[inline]
    fn rhs(&self, cell: usize) -> f64 {
        load(self.costs[cell][1])
    }

    #[inline]
    fn set_g(&mut self, cell: usize, g: f64) {
        self.costs[cell][0] = store(g);
    }

    #[inline]
    fn set_rhs(&mut self, cell: usize, rhs: f64) {
        self.costs[cell][1] = store(rhs);
    }

    fn estimate_from(&self, graph: &SearchGraph, start: usize) -> Estimate {
        let cell = graph.cell(start);
        Estimate::new(graph.topology(), self.heuristic, cell.x, cell.y, self.scale)
    }

    #[inline]
    fn h(&self, graph: &SearchGraph, cell: usize) -> f64 {
        let w = graph.width() as usize;
        self.estimate.at((cell % w) as i32, (cell / w) as i32)
    }

    #[inline]
    fn key(&self, graph: &SearchGraph, cell: usize) -> Key {
        let (g, rhs) = self.costs(cell);
        let m = g.min(rhs);
        (
            m + self.h(graph, cell) + self.k_m,
            if self.fresh { -m } else { m },
        )
    }

    /// Queues the cell with its current key, or moves it there.
    fn push(&mut self, graph: &SearchGraph, cell: usize, stats: &mut Stats) {
        let key = self.key(graph, cell);
        self.queue.set(cell, key);
        stats.pushed += 1;
        stats.max_open = stats.max_open.max(self.queue.len() as u64);
    }

    /// Puts an inconsistent cell in the queue with its current key, or takes a consistent one
    /// out.
    fn update_vertex(&mut self, graph: &SearchGraph, cell: usize, stats: &mut Stats) {
        let (g, rhs) = self.costs(cell);
        if g != rhs {
            self.push(graph, cell, stats);
        } else {
            self.queue.remove(cell);
        }
    }

    /// The cheapest step-plus-cost-to-goal over the cell's neighbours.
    fn lookahead(&self, graph: &SearchGraph, cell: usize) -> f64 {
        let mut best = f64::INFINITY;
        let mut mask = graph.mask(cell);
        while mask != 0 {
            let d = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let next = (cell as isize + graph.delta(d)) as usize;
            best = best.min(graph.step_cost(cell, next, d) + self.g(next));
        }
        best
    }

    /// Applies the effect of changed steps: `affected` holds every cell whose outgoing steps
    /// changed (see [`SearchGraph::set_cells`]); the graph already holds the new terrain.
    pub fn cells_changed(&mut self, graph: &SearchGraph, affected: &[usize]) {
        if graph.len() != self.costs.len() || graph.min_cost() < self.scale {
            // A cheaper terrain makes the old heuristic scale overestimate: start afresh.
            self.reset(graph);
            return;
        }
        if self.last_start.is_none() {
            return;
        }
        if self.fresh {
            // Steps may have got dearer: from now on the queue orders its keys the standard
            // way, the second component being `min(g, rhs)` itself.
            self.fresh = false;
            let mut queue = std::mem::take(&mut self.queue);
            queue.rebuild(|entry| entry.key = self.key(graph, entry.cell as usize));
            self.queue = queue;
        }
        let mut stats = Stats::default();
        for &cell in affected {
            if cell != self.goal {
                self.set_rhs(cell, self.lookahead(graph, cell));
            }
        }
        for &cell in affected {
            self.update_vertex(graph, cell, &mut stats);
        }
    }

    /// Brings the costs up to date for `start` and returns the path from it to the goal as
    /// cell indices, or `None` when the goal cannot be reached.
    pub fn plan(
        &mut self,
        graph: &SearchGraph,
        start: usize,
        stats: &mut Stats,
        order: Option<&mut Vec<u32>>,
        control: &SearchControl,
    ) -> Option<Vec<usize>> {
        if graph.len() != self.costs.len() {
            self.reset(graph);
        }
        let mut order = order;
        for attempt in 0..2 {
            match self.last_start {
                None => {
                    self.last_start = Some(start);
                    self.estimate = self.estimate_from(graph, start);
                    self.k_m = 0.0;
                    self.set_rhs(self.goal, 0.0);
                    self.push(graph, self.goal, stats);
                }
                Some(last) if last != start => {
                    self.k_m += self.estimate.at(
                        (start % graph.width() as usize) as i32,
                        (start / graph.width() as usize) as i32,
                    );
                    self.last_start = Some(start);
                    self.estimate = self.estimate_from(graph, start);
                }
                Some(_) => {}
            }
            self.compute(graph, start, stats, order.as_deref_mut(), control);
            if stats.cancelled {
                return None;
            }
            if self.rhs(start).is_infinite() {
                return None;
            }
            if let Some(path) = self.extract(graph, start) {
                return Some(path);
            }
            // Unreachable when the costs are consistent; searching again from scratch is the
            // safe answer if rounding ever made the descent fail.
            if attempt == 0 {
                self.reset(graph);
            }
        }
        None
    }

    /// `ComputeShortestPath` of the optimised D* Lite.
    fn compute(
        &mut self,
        graph: &SearchGraph,
        start: usize,
        stats: &mut Stats,
        mut order: Option<&mut Vec<u32>>,
        control: &SearchControl,
    ) {
        while let Some(entry) = self.queue.peek() {
            // The queue keeps every inconsistent cell, so a later plan resumes where this stops.
            if control.should_stop(stats.expanded + 1) {
                stats.cancelled = true;
                return;
            }
            let start_key = self.key(graph, start);
            let done = if self.fresh {
                entry.key.0 >= start_key.0
            } else {
                !less(entry.key, start_key)
            };
            let (g_start, rhs_start) = self.costs(start);
            if done && rhs_start <= g_start {
                break;
            }
            let u = entry.cell as usize;
            let new_key = self.key(graph, u);
            if less(entry.key, new_key) {
                self.push(graph, u, stats);
                continue;
            }
            stats.expanded += 1;
            if let Some(order) = order.as_deref_mut() {
                order.push(entry.cell);
            }
            let (g_old, rhs) = self.costs(u);
            if g_old > rhs {
                self.set_g(u, rhs);
                self.queue.remove(u);
                let mut mask = graph.mask(u);
                while mask != 0 {
                    let d = mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    let s = (u as isize + graph.delta(d)) as usize;
                    if s != self.goal {
                        // s is a predecessor of u: s → u is the step it would take. A drop
                        // within rounding is no cheaper path (see `ROUNDING`).
                        let through = graph.step_cost_into(u, s, d) + rhs;
                        if through < self.rhs(s) * (1.0 - ROUNDING) {
                            self.set_rhs(s, through);
                            self.update_vertex(graph, s, stats);
                        }
                        // Otherwise nothing about s changed: if inconsistent, it is queued
                        // already (with a key at most its own, which `compute` raises when
                        // it comes to the top).
                    }
                }
            } else {
                self.set_g(u, f64::INFINITY);
                let mut mask = graph.mask(u);
                while mask != 0 {
                    let d = mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    let s = (u as isize + graph.delta(d)) as usize;
                    if s != self.goal && self.rhs(s) >= graph.step_cost_into(u, s, d) + g_old {
                        self.set_rhs(s, self.lookahead(graph, s));
                    }
                    self.update_vertex(graph, s, stats);
                }
                // rhs(u) does not depend on g(u): only its place in the queue changes.
                self.update_vertex(graph, u, stats);
            }
        }
    }

    /// Follows the cheapest step-plus-cost-to-goal from the start to the goal.
    fn extract(&self, graph: &SearchGraph, start: usize) -> Option<Vec<usize>> {
        let mut path = vec![start];
        let mut cell = start;
        while cell != self.goal {
            if path.len() > graph.len() {
                return None;
            }
            let mut best = (f64::INFINITY, usize::MAX);
            let mut mask = graph.mask(cell);
            while mask != 0 {
                let d = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let next = (cell as isize + graph.delta(d)) as usize;
                let through = graph.step_cost(cell, next, d) + self.g(next);
                if through < best.0 {
                    best = (through, next);
                }
            }
            if best.0.is_infinite() {
                return None;
            }
            cell = best.1;
            path.push(cell);
        }
        Some(path)
    }
}

/// Incremental replanning towards one goal with D* Lite.
///
/// It owns a [`SearchGraph`] of the map and keeps its search state between plans: after
/// [`DStarLite::cells_changed`] or [`DStarLite::update_cells`] only the costs the change
/// affects are repaired, and the start may move freely between calls to
/// [`DStarLite::plan`]. Every plan is optimal under the shared cost model (with an admissible
/// heuristic), like a fresh A* on the changed map.
///
/// ```
/// use gridpath_core::grid::{Cell, Grid};
/// use gridpath_core::search::{DStarLite, Diagonal};
///
/// let mut grid = Grid::from_ascii(&["....", "....", "...."]).unwrap();
/// let mut planner = DStarLite::new(&grid, Diagonal::NoCut, Cell::new(3, 1)).unwrap();
/// let before = planner.plan(Cell::new(0, 1)).unwrap();
/// grid.set(Cell::new(2, 1), 3); // a wall
/// planner.cells_changed(&grid, &[Cell::new(2, 1)]);
/// let after = planner.plan(Cell::new(0, 1)).unwrap();
/// assert!(after.cost > before.cost);
/// ```
#[derive(Debug)]
pub struct DStarLite {
    graph: SearchGraph,
    planner: Planner,
    goal: Cell,
    heuristic: Heuristic,
}

impl DStarLite {
    /// A planner towards `goal` on `grid`, with the default heuristic for the diagonal rule.
    /// Fails when the goal lies off the map.
    pub fn new(grid: &Grid, diagonal: Diagonal, goal: Cell) -> Result<Self, SearchError> {
        Self::with_heuristic(
            grid,
            diagonal,
            goal,
            Heuristic::default_on(grid.topology(), diagonal),
        )
    }

    /// A planner towards `goal` on `grid` with a chosen heuristic. Fails when the goal lies
    /// off the map.
    pub fn with_heuristic(
        grid: &Grid,
        diagonal: Diagonal,
        goal: Cell,
        heuristic: Heuristic,
    ) -> Result<Self, SearchError> {
        Self::from_graph(SearchGraph::new(grid, diagonal), goal, heuristic)
    }

    /// A planner on a prepared graph. Fails when the goal lies off the map.
    pub fn from_graph(
        graph: SearchGraph,
        goal: Cell,
        heuristic: Heuristic,
    ) -> Result<Self, SearchError> {
        if goal.x >= graph.width() || goal.y >= graph.height() {
            return Err(SearchError::OutOfBounds {
                which: "goal",
                cell: goal,
                width: graph.width(),
                height: graph.height(),
            });
        }
        let planner = Planner::new(&graph, graph.index(goal), heuristic);
        Ok(Self {
            graph,
            planner,
            goal,
            heuristic,
        })
    }

    /// The goal every plan leads to.
    pub fn goal(&self) -> Cell {
        self.goal
    }

    /// The graph as the planner currently sees the map.
    pub fn graph(&self) -> &SearchGraph {
        &self.graph
    }

    /// The cheapest path from `start` to the goal on the map as it is now.
    ///
    /// Fails when the start is off the map or either end is impassable. The statistics count
    /// the cells expanded by this call alone (the repair since the last plan), and `time_us`
    /// is the time of this call.
    pub fn plan(&mut self, start: Cell) -> Result<SearchResult, SearchError> {
        self.plan_controlled(start, &crate::control::UNCONTROLLED)
    }

    /// Like [`DStarLite::plan`], watched and cancelled through `control`. A cancelled plan
    /// returns [`SearchError::Cancelled`] and loses nothing: the next plan goes on from where
    /// this one stopped.
    pub fn plan_controlled(
        &mut self,
        start: Cell,
        control: &SearchControl,
    ) -> Result<SearchResult, SearchError> {
        check_cell(&self.graph, "start", start)?;
        check_cell(&self.graph, "goal", self.goal)?;
        let started = Instant::now();
        let mut stats = Stats::default();
        let path = self.planner.plan(
            &self.graph,
            self.graph.index(start),
            &mut stats,
            None,
            control,
        );
        if stats.cancelled {
            return Err(SearchError::Cancelled);
        }
        stats.time_us = started.elapsed().as_micros() as u64;
        let request = SearchRequest::new(start, self.goal)
            .with_algorithm(Algorithm::DStarLite)
            .with_diagonal(self.graph.diagonal())
            .with_heuristic(self.heuristic);
        Ok(result(&self.graph, &request, path, stats, None))
    }

    /// Sets the terrain of some cells and repairs the plan state around them. Cells off the
    /// map are ignored.
    pub fn update_cells(&mut self, changes: &[(Cell, TerrainId)]) {
        let affected = self.graph.set_cells(changes);
        if !affected.is_empty() {
            self.planner.cells_changed(&self.graph, &affected);
        }
    }

    /// Takes over the terrain of `cells` from `grid`, which holds the map after an edit.
    ///
    /// When the grid's size or terrain costs differ from what the planner was built on (a
    /// terrain edited or the map resized), the planner is rebuilt from the grid instead.
    pub fn cells_changed(&mut self, grid: &Grid, cells: &[Cell]) {
        if !self.graph.matches_catalog(grid) {
            self.graph = SearchGraph::new(grid, self.graph.diagonal());
            let goal = if grid.contains_cell(self.goal) {
                self.graph.index(self.goal)
            } else {
                0
            };
            self.planner = Planner::new(&self.graph, goal, self.heuristic);
            return;
        }
        let changes: Vec<(Cell, TerrainId)> = cells
            .iter()
            .filter_map(|&c| grid.get(c).map(|t| (c, t)))
            .collect();
        self.update_cells(&changes);
        if grid.heights().is_some() {
            let heights: Vec<(Cell, f32)> = cells
                .iter()
                .filter(|&&c| grid.contains_cell(c))
                .map(|&c| (c, grid.height_at(c) as f32))
                .collect();
            self.update_heights(&heights);
        }
    }

    /// Sets the height of some cells (on a map with heights) and repairs the plan state
    /// around them. Cells off the map are ignored.
    pub fn update_heights(&mut self, changes: &[(Cell, f32)]) {
        let affected = self.graph.set_heights(changes);
        if !affected.is_empty() {
            self.planner.cells_changed(&self.graph, &affected);
        }
    }
}

/// Runs D* Lite once from scratch: what `solve` and [`crate::search::Searcher`] do for
/// [`Algorithm::DStarLite`].
pub(crate) fn dstar_lite_once(
    graph: &SearchGraph,
    start: usize,
    goal: usize,
    heuristic: Heuristic,
    stats: &mut Stats,
    order: Option<&mut Vec<u32>>,
    control: &SearchControl,
) -> Option<Vec<usize>> {
    let mut planner = Planner::new(graph, goal, heuristic);
    planner.plan(graph, start, stats, order, control)
}

/// D* Lite's run once from scratch for the [registry](crate::search::algorithms).
pub(crate) fn run(
    ws: &mut Workspace,
    q: &Query<'_>,
    control: &SearchControl,
    stats: &mut Stats,
) -> Option<Vec<usize>> {
    let order = q.record().then_some(&mut ws.order);
    dstar_lite_once(q.graph, q.start, q.goal, q.heuristic, stats, order, control)
}
