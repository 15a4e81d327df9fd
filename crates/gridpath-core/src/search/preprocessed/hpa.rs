//! Hierarchical path-finding A* (HPA*; Botea, Müller & Schaeffer, 2004).
//!
//! The map is cut into square clusters. Where a border between two clusters is crossable, each
//! maximal run of crossing steps becomes an entrance. Transitions are placed by the cost of
//! the step across: a short run gets one at its cheapest crossing (the one nearest the middle
//! of those); a run at least [`LONG_ENTRANCE`] cells long gets one at each end and one in the
//! middle of every stretch of crossings cheaper than the stretches on both its sides, so that
//! a road across a border is a way through it. On a map of one terrain that is the classic
//! placement: the middle of a short run, the ends of a long one. A short run whose cells on
//! both sides belong to the same connected parts of their clusters as an earlier run's, with
//! that run's transition fewer than [`ENTRANCE_SPACING`] cells away and no dearer to cross,
//! shares that transition instead of getting its own: on maps with many short gaps (random
//! walls) this cuts the abstract graph by a third of its nodes and more than half its edges.
//! The cells of the transitions are the nodes of an abstract graph; nodes of one cluster are
//! joined by intra-edges costing the cheapest path inside the cluster (found by a Dijkstra
//! bounded to the cluster, so weighted terrain counts), and the two cells of a transition by
//! an inter-edge.
//!
//! A query connects the start and the goal to the nodes of their clusters, runs A* on the
//! abstract graph and refines its path into cells ([`Refinement`]): on weighted terrain by
//! default with one A* confined to the clusters the abstract path crosses and those around
//! its ends, on maps of one cost the classic way, each abstract edge by a search inside one
//! cluster.
//! Every passable crossing of a border lies on a straight run of passable cells on each side
//! that reaches a transition, or joins two connected parts of the clusters that another run's
//! transition joins too, so the abstract graph is connected wherever the map is: HPA* finds a
//! path exactly when one exists. Its cost is near-optimal, with no bound.
//!
//! The abstract search is A* with the larger of two bounds: the straight-line estimate and
//! ALT bounds from up to sixteen landmark nodes spread around the map's border (the five
//! whose bounds are largest at the start are used), each node's estimate computed once per
//! query.
//!
//! Under the `always` rule a diagonal step can squeeze between two walls across a border (or a
//! cluster corner) with no straight crossing beside it; each such step is a transition of its
//! own.

use std::time::Instant;

use crate::grid::{Cell, Grid, TerrainId};

use crate::control::{SearchControl, UNCONTROLLED};
use crate::search::frontier::heap::{Entry, Heap};
use crate::search::graph::{DX, DY, SearchGraph};
use crate::search::heuristic::Estimate;
use crate::search::request::{
    Algorithm, Diagonal, Heuristic, SearchError, SearchRequest, SearchResult, Stats,
};
use crate::search::space::{NO_PARENT, Space};
use crate::search::workspace::{Query, Workspace};

/// The cluster side [`HpaGraph::build`] is usually given: 32 × 32 cells.
pub const DEFAULT_CLUSTER_SIZE: u32 = 32;

/// A run of crossing steps at least this long gets a transition at each end instead of one
/// in the middle.
pub const LONG_ENTRANCE: u32 = 6;

/// A short run of crossings gets no transition of its own when an earlier run on the same
/// border joins the same connected parts of the two clusters and has a transition fewer than
/// this many cells before its middle: paths through it can cross there instead.
pub const ENTRANCE_SPACING: u32 = 6;

/// How many of the landmarks a query uses: those with the largest bounds at its start.
const ACTIVE_LANDMARKS: usize = 5;

/// Landmarks are placed at the map's corners and `LANDMARKS_PER_SIDE - 1` more points along
/// each side: sixteen in all.
const LANDMARKS_PER_SIDE: i64 = 4;

/// The smallest cluster side; smaller requests are raised to it.
const MIN_CLUSTER_SIZE: u32 = 4;

/// Border kinds: between a cluster and its east, south, south-east and south-west neighbour.
const KINDS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

/// How [`HpaGraph::find_path`] turns the abstract path into cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Refinement {
    /// The default: [`Refinement::Edges`] on a map whose passable cells all cost the same,
    /// [`Refinement::Corridor`] on weighted terrain, decided at each query (an edit can make
    /// a map weighted). On maps of one cost the classic refinement comes within a few percent
    /// of the optimum (1.01 to 1.04 on average on the maps measured) and the corridor costs
    /// more time than it saves; on weighted terrain the entrances miss more of the cheap ways
    /// and the corridor finds them.
    #[default]
    Auto,
    /// Classic HPA*: each abstract edge becomes the cheapest path inside its cluster, and the
    /// pieces are joined. The fastest; on the generated weighted maps of `benches/hpa.rs` its
    /// cost is 2% to 2.5% above the optimum on average, with single queries up to 43% dearer
    /// (an end whose best path runs through a cluster the abstract path avoids).
    Edges,
    /// One A* confined to a corridor: the clusters the abstract path passes through, with all
    /// the clusters around its two ends. The joined pieces of [`Refinement::Edges`] lie in
    /// that corridor, so this path never costs more; it takes the shortcuts across cluster
    /// borders that the entrances miss. On the generated weighted maps of `benches/hpa.rs` it
    /// is within 0.1% of the optimum on average, and its A* takes a good part of the query's
    /// time (about as long as a plain A* on a 256² map, a third of it on a 1024² one).
    Corridor,
}

/// One transition across a border: a step from `inside` (in the border's first cluster) to
/// `outside` (in the other one).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Transition {
    inside: u32,
    outside: u32,
    cost: f64,
}

/// The abstract nodes of one cluster and the edges between and out of them.
#[derive(Clone, Debug, Default, PartialEq)]
struct Cluster {
    /// Cell indices of the nodes, ascending.
    nodes: Vec<u32>,
    /// The intra-edges of node i are `edges[first[i]..first[i + 1]]`: (node j, the cost of
    /// the cheapest path from i to j inside the cluster). An edge whose cost another node
    /// of the cluster matches on the way (`i → k → j` no dearer) is left out: the abstract
    /// distances stay the same with fewer edges to scan.
    first: Vec<u32>,
    edges: Vec<(u32, f64)>,
    /// Per node, the inter-edges leaving it: (cell of the other end, step cost).
    links: Vec<Vec<(u32, f64)>>,
}

/// A rectangle of cells, `x0..x1` × `y0..y1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rect {
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
}

impl Rect {
    fn width(&self) -> usize {
        (self.x1 - self.x0) as usize
    }

    fn contains(&self, x: i32, y: i32) -> bool {
        x >= self.x0 as i32 && y >= self.y0 as i32 && x < self.x1 as i32 && y < self.y1 as i32
    }
}

/// Reusable state of searches bounded to one cluster.
#[derive(Debug, Default)]
struct Local {
    g: Vec<f64>,
    parent: Vec<u8>,
    stamp: Vec<u32>,
    closed: Vec<bool>,
    current: u32,
    heap: Heap,
}

impl Local {
    fn begin(&mut self, cells: usize) {
        if self.g.len() < cells || self.current == u32::MAX {
            self.g = vec![f64::INFINITY; cells];
            self.parent = vec![0; cells];
            self.stamp = vec![0; cells];
            self.closed = vec![false; cells];
            self.current = 0;
        }
        self.current += 1;
        self.heap.clear();
    }

    #[inline]
    fn g(&self, i: usize) -> f64 {
        if self.stamp[i] == self.current {
            self.g[i]
        } else {
            f64::INFINITY
        }
    }
}

/// The state of one abstract node in one query, in one record: offering a node a cost touches
/// one cache line.
#[derive(Clone, Copy, Debug)]
struct AbstractNode {
    g: f64,
    /// The estimate to the goal, computed when the query first touches the node.
    h: f64,
    parent: u32,
    cell: u32,
    /// The query that last touched the node.
    stamp: u32,
    closed: bool,
}

/// Reusable state of the search over the abstract graph, indexed by node id.
#[derive(Debug, Default)]
struct AbstractSpace {
    nodes: Vec<AbstractNode>,
    current: u32,
    heap: Heap,
}

impl AbstractSpace {
    fn begin(&mut self, len: usize) {
        if self.nodes.len() != len || self.current == u32::MAX {
            let fresh = AbstractNode {
                g: f64::INFINITY,
                h: 0.0,
                parent: u32::MAX,
                cell: 0,
                stamp: 0,
                closed: false,
            };
            self.nodes = vec![fresh; len];
            self.current = 0;
        }
        self.current += 1;
        self.heap.clear();
    }

    /// Offers node `id` (at `cell`) the cost `g` through `parent`; `h` estimates the rest
    /// from `cell`, evaluated once per query, when the node is first offered a cost.
    #[inline]
    fn relax(
        &mut self,
        id: usize,
        g: f64,
        parent: u32,
        h: impl Fn(usize, u32) -> f64,
        cell: u32,
        stats: &mut Stats,
    ) {
        let current = self.current;
        let node = &mut self.nodes[id];
        if node.stamp != current {
            *node = AbstractNode {
                g: f64::INFINITY,
                h: h(id, cell),
                parent: u32::MAX,
                cell,
                stamp: current,
                closed: false,
            };
        }
        if node.closed || g >= node.g {
            return;
        }
        node.g = g;
        node.parent = parent;
        let f = g + node.h;
        self.heap.push(Entry::new(f, g, id as u32));
        stats.pushed += 1;
        stats.max_open = stats.max_open.max(self.heap.len() as u64);
    }
}

/// A map prepared for hierarchical queries: clusters, their entrances and the abstract graph.
///
/// Build it once per map ([`HpaGraph::build`]); after an edit, [`HpaGraph::update_cells`]
/// rebuilds only the clusters the edit touches and the borders around them. Queries
/// ([`HpaGraph::find_path`]) return valid paths of near-optimal cost, with no bound on how
/// near.
#[derive(Debug)]
pub struct HpaGraph {
    graph: SearchGraph,
    size: u32,
    cols: u32,
    rows: u32,
    /// Transitions of border `cluster * 4 + kind` (see `KINDS`).
    borders: Vec<Vec<Transition>>,
    clusters: Vec<Cluster>,
    /// `offsets[k]`: the id of cluster `k`'s first node; the last entry is the node count.
    offsets: Vec<u32>,
    /// The cluster of each node id.
    owner: Vec<u32>,
    /// The whole abstract graph in flat arrays for the searches, rebuilt from the clusters
    /// after every change: the edges of node `id` are `adjacency[adjacency_first[id]..
    /// adjacency_first[id + 1]]`, (node id, cost), intra-edges and inter-edges alike.
    adjacency_first: Vec<u32>,
    adjacency: Vec<(u32, f64)>,
    /// The cell of each node id.
    node_cell: Vec<u32>,
    /// The abstract distance from each landmark node to each node, `landmarks[id * count +
    /// l]` for `landmark_count` landmarks: ALT bounds that make the abstract search expand far
    /// fewer nodes than the straight-line estimate alone.
    landmarks: Vec<f64>,
    landmark_count: usize,
    local: Local,
    abs: AbstractSpace,
    refinement: Refinement,
    /// Per cluster, whether it lies in the current query's corridor.
    in_corridor: Vec<bool>,
    /// The cluster column of each x and the index of the first cluster of the row of each y:
    /// the corridor search finds a cell's cluster with two loads instead of two divisions.
    column_of_x: Vec<u32>,
    row_of_y: Vec<u32>,
    /// State of the corridor search, over the whole map.
    space: Space,
}

impl HpaGraph {
    /// Prepares a grid for hierarchical queries under a diagonal rule, with square clusters
    /// of `cluster_size` cells a side (at least 4; smaller values are raised to 4).
    pub fn build(grid: &Grid, diagonal: Diagonal, cluster_size: u32) -> Self {
        Self::from_graph(SearchGraph::new(grid, diagonal), cluster_size)
    }

    /// Prepares a search graph for hierarchical queries, as [`HpaGraph::build`] does.
    pub fn from_graph(graph: SearchGraph, cluster_size: u32) -> Self {
        let Ok(hpa) = Self::from_graph_controlled(graph, cluster_size, &UNCONTROLLED) else {
            unreachable!("a build nobody can cancel runs to the end")
        };
        hpa
    }

    /// Prepares a search graph for hierarchical queries, looking for a cancellation between
    /// clusters: the build of a large map's abstraction takes seconds, and a cancelled build
    /// stops within one cluster's work with [`SearchError::Cancelled`].
    ///
    /// ```
    /// use gridpath_core::grid::{Grid, Terrain};
    /// use gridpath_core::search::{Diagonal, HpaGraph, SearchControl, SearchError, SearchGraph};
    ///
    /// let grid = Grid::new(256, 256, Terrain::default_catalog(), 0).expect("a valid map");
    /// let graph = SearchGraph::new(&grid, Diagonal::NoCut);
    /// let control = SearchControl::new();
    /// control.cancel();
    /// let built = HpaGraph::from_graph_controlled(graph.clone(), 16, &control);
    /// assert!(matches!(built, Err(SearchError::Cancelled)));
    /// let built = HpaGraph::from_graph_controlled(graph, 16, &SearchControl::new());
    /// assert!(built.is_ok_and(|hpa| hpa.node_count() > 0));
    /// ```
    pub fn from_graph_controlled(
        graph: SearchGraph,
        cluster_size: u32,
        control: &SearchControl,
    ) -> Result<Self, SearchError> {
        let size = cluster_size.max(MIN_CLUSTER_SIZE);
        let cols = graph.width().div_ceil(size);
        let rows = graph.height().div_ceil(size);
        let count = (cols * rows) as usize;
        let column_of_x = (0..graph.width()).map(|x| x / size).collect();
        let row_of_y = (0..graph.height()).map(|y| y / size * cols).collect();
        let mut hpa = Self {
            graph,
            size,
            cols,
            rows,
            borders: vec![Vec::new(); count * 4],
            clusters: vec![Cluster::default(); count],
            offsets: Vec::new(),
            owner: Vec::new(),
            adjacency_first: Vec::new(),
            adjacency: Vec::new(),
            node_cell: Vec::new(),
            landmarks: Vec::new(),
            landmark_count: 0,
            local: Local::default(),
            abs: AbstractSpace::default(),
            refinement: Refinement::default(),
            in_corridor: vec![false; count],
            column_of_x,
            row_of_y,
            space: Space::default(),
        };
        // Two passes over the clusters (their borders, then their insides), and the rest.
        let share = |pass: usize, k: usize| (pass as f64 + k as f64 / count as f64) * 0.45;
        for k in 0..count {
            control.report_build(share(0, k));
            if control.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            for kind in 0..4 {
                hpa.borders[k * 4 + kind] = hpa.transitions(k, kind);
            }
        }
        for k in 0..count {
            control.report_build(share(1, k));
            if control.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            hpa.clusters[k] = hpa.cluster(k);
        }
        hpa.number_nodes();
        hpa.refresh_landmarks();
        control.report_build(1.0);
        Ok(hpa)
    }

    /// The node ids joined to node `id` and the edge costs.
    fn for_each_edge(&self, id: usize, mut f: impl FnMut(usize, f64)) {
        let span = self.adjacency_first[id] as usize..self.adjacency_first[id + 1] as usize;
        for &(next, cost) in &self.adjacency[span] {
            f(next as usize, cost);
        }
    }

    /// Picks up to sixteen landmarks, the nodes nearest the corners and evenly spaced points
    /// along the map's sides, and computes their abstract distances to every node.
    fn refresh_landmarks(&mut self) {
        self.landmarks.clear();
        self.landmark_count = 0;
        let total = self.owner.len();
        if total == 0 {
            return;
        }
        let (w, h) = (
            i64::from(self.graph.width() - 1),
            i64::from(self.graph.height() - 1),
        );
        // Points evenly spaced around the border, corners first.
        let per_side = LANDMARKS_PER_SIDE;
        let mut anchors = vec![(0, 0), (w, h), (w, 0), (0, h)];
        for i in 1..per_side {
            let (fx, fy) = (w * i / per_side, h * i / per_side);
            anchors.extend([(fx, 0), (w - fx, h), (0, h - fy), (w, fy)]);
        }
        let mut chosen = Vec::new();
        for (ax, ay) in anchors {
            let nearest = (0..total).min_by_key(|&id| {
                let k = self.owner[id] as usize;
                let cell = self.clusters[k].nodes[id - self.offsets[k] as usize];
                let c = self.graph.cell(cell as usize);
                let (dx, dy) = (i64::from(c.x) - ax, i64::from(c.y) - ay);
                (dx * dx + dy * dy, id)
            });
            if let Some(id) = nearest
                && !chosen.contains(&id)
            {
                chosen.push(id);
            }
        }
        let count = chosen.len();
        self.landmarks = vec![f64::INFINITY; total * count];
        for (l, source) in chosen.into_iter().enumerate() {
            let mut dist = vec![f64::INFINITY; total];
            let mut heap = Heap::default();
            dist[source] = 0.0;
            heap.push(Entry::new(0.0, 0.0, source as u32));
            while let Some(top) = heap.pop() {
                let id = top.cell() as usize;
                let g = dist[id];
                if top.priority() > g {
                    continue;
                }
                self.for_each_edge(id, |next, cost| {
                    let ng = g + cost;
                    if ng < dist[next] {
                        dist[next] = ng;
                        heap.push(Entry::new(ng, ng, next as u32));
                    }
                });
            }
            for (id, d) in dist.into_iter().enumerate() {
                self.landmarks[id * count + l] = d;
            }
        }
        self.landmark_count = count;
    }

    /// Gives every node its id: clusters in order, nodes in order within each.
    fn number_nodes(&mut self) {
        self.offsets.clear();
        self.owner.clear();
        let mut next = 0u32;
        for (k, cluster) in self.clusters.iter().enumerate() {
            self.offsets.push(next);
            next += cluster.nodes.len() as u32;
            self.owner
                .extend(std::iter::repeat_n(k as u32, cluster.nodes.len()));
        }
        self.offsets.push(next);
        self.flatten();
    }

    /// Rebuilds the flat adjacency arrays from the clusters (after `number_nodes`).
    fn flatten(&mut self) {
        let total = self.owner.len();
        let mut first = Vec::with_capacity(total + 1);
        let mut adjacency = Vec::with_capacity(self.adjacency.len());
        let mut node_cell = Vec::with_capacity(total);
        for (k, cluster) in self.clusters.iter().enumerate() {
            let base = self.offsets[k];
            for (i, &cell) in cluster.nodes.iter().enumerate() {
                first.push(adjacency.len() as u32);
                node_cell.push(cell);
                let span = cluster.first[i] as usize..cluster.first[i + 1] as usize;
                adjacency.extend(cluster.edges[span].iter().map(|&(j, d)| (base + j, d)));
                for &(other, cost) in &cluster.links[i] {
                    let ko = self.cluster_of(other as usize);
                    if let Ok(j) = self.clusters[ko].nodes.binary_search(&other) {
                        adjacency.push((self.offsets[ko] + j as u32, cost));
                    }
                }
            }
        }
        first.push(adjacency.len() as u32);
        self.adjacency_first = first;
        self.adjacency = adjacency;
        self.node_cell = node_cell;
    }

    /// The graph the queries run on.
    pub fn graph(&self) -> &SearchGraph {
        &self.graph
    }

    /// How queries turn the abstract path into cells, as set.
    pub fn refinement(&self) -> Refinement {
        self.refinement
    }

    /// How the next query turns the abstract path into cells: the refinement set, with
    /// [`Refinement::Auto`] decided for the map as it is now.
    pub fn effective_refinement(&self) -> Refinement {
        match self.refinement {
            Refinement::Auto if self.graph.uniform_cost().is_some() => Refinement::Edges,
            Refinement::Auto => Refinement::Corridor,
            chosen => chosen,
        }
    }

    /// Chooses how queries turn the abstract path into cells.
    pub fn set_refinement(&mut self, refinement: Refinement) {
        self.refinement = refinement;
    }

    /// The side of a cluster in cells.
    pub fn cluster_size(&self) -> u32 {
        self.size
    }

    /// The number of abstract nodes (transition cells).
    pub fn node_count(&self) -> usize {
        self.clusters.iter().map(|c| c.nodes.len()).sum()
    }

    /// The number of abstract edges, each direction counted: the intra-edges kept (those no
    /// other node of the cluster matches on the way) and the inter-edges.
    pub fn edge_count(&self) -> usize {
        self.clusters
            .iter()
            .map(|c| c.edges.len() + c.links.iter().map(Vec::len).sum::<usize>())
            .sum()
    }

    /// An estimate of the memory the abstraction takes beyond the search graph, in bytes.
    pub fn abstraction_bytes(&self) -> usize {
        let borders: usize = self
            .borders
            .iter()
            .map(|b| size_of::<Vec<Transition>>() + b.capacity() * size_of::<Transition>())
            .sum();
        let clusters: usize = self
            .clusters
            .iter()
            .map(|c| {
                size_of::<Cluster>()
                    + c.nodes.capacity() * 4
                    + c.first.capacity() * 4
                    + c.edges.capacity() * size_of::<(u32, f64)>()
                    + c.links
                        .iter()
                        .map(|l| size_of::<Vec<(u32, f64)>>() + l.capacity() * 16)
                        .sum::<usize>()
            })
            .sum();
        let landmarks = self.landmarks.capacity() * 8;
        let flat = self.adjacency_first.capacity() * 4
            + self.adjacency.capacity() * size_of::<(u32, f64)>()
            + self.node_cell.capacity() * 4;
        borders
            + clusters
            + landmarks
            + flat
            + self.owner.capacity() * 4
            + self.offsets.capacity() * 4
            + (self.column_of_x.capacity() + self.row_of_y.capacity()) * 4
            + self.in_corridor.capacity()
    }

    /// The rectangle of cluster `k`.
    fn rect(&self, k: usize) -> Rect {
        let (cx, cy) = (k as u32 % self.cols, k as u32 / self.cols);
        Rect {
            x0: cx * self.size,
            y0: cy * self.size,
            x1: ((cx + 1) * self.size).min(self.graph.width()),
            y1: ((cy + 1) * self.size).min(self.graph.height()),
        }
    }

    /// The cluster holding a cell index.
    fn cluster_of(&self, cell: usize) -> usize {
        let w = self.graph.width() as usize;
        let (x, y) = ((cell % w) as u32, (cell / w) as u32);
        ((y / self.size) * self.cols + x / self.size) as usize
    }

    /// The neighbour of cluster `k` at offset (dx, dy), if on the map.
    fn neighbour(&self, k: usize, dx: i32, dy: i32) -> Option<usize> {
        let (cx, cy) = ((k as u32 % self.cols) as i32, (k as u32 / self.cols) as i32);
        let (nx, ny) = (cx + dx, cy + dy);
        (nx >= 0 && ny >= 0 && nx < self.cols as i32 && ny < self.rows as i32)
            .then(|| (ny as u32 * self.cols + nx as u32) as usize)
    }

    fn idx(&self, x: u32, y: u32) -> usize {
        y as usize * self.graph.width() as usize + x as usize
    }

    /// The direction index of offset (dx, dy).
    fn dir(dx: i32, dy: i32) -> usize {
        (0..8).find(|&d| DX[d] == dx && DY[d] == dy).unwrap_or(0)
    }

    fn transition(&self, from: usize, d: usize) -> Transition {
        let to = (from as isize + self.graph.delta(d)) as usize;
        Transition {
            inside: from as u32,
            outside: to as u32,
            cost: self.graph.step_cost(from, to, d),
        }
    }

    /// Whether a diagonal step from `from` in direction `d` passes two blocked corners (only
    /// the `always` rule allows it), so that no straight crossing lies beside it.
    fn squeezes(&self, from: usize, d: usize) -> bool {
        if d < 4 || !self.graph.can_step(from, d) {
            return false;
        }
        let a = (from as isize + DX[d] as isize) as usize;
        let b = (from as isize + DY[d] as isize * self.graph.width() as isize) as usize;
        !self.graph.is_passable(a) && !self.graph.is_passable(b)
    }

    /// The connected parts of the cells of `rect`, moving inside it: a label per cell of the
    /// rectangle (row by row), `u32::MAX` for blocked cells.
    fn components(&self, rect: Rect) -> Vec<u32> {
        let (w, rw) = (self.graph.width() as usize, rect.width());
        let mut labels = vec![u32::MAX; rw * (rect.y1 - rect.y0) as usize];
        let mut stack = Vec::new();
        let mut next = 0;
        for y in rect.y0..rect.y1 {
            for x in rect.x0..rect.x1 {
                let cell = self.idx(x, y);
                let li = self.local_index(rect, cell);
                if labels[li] != u32::MAX || !self.graph.is_passable(cell) {
                    continue;
                }
                labels[li] = next;
                stack.push(cell);
                while let Some(c) = stack.pop() {
                    let (cx, cy) = ((c % w) as i32, (c / w) as i32);
                    let mut mask = self.graph.mask(c);
                    while mask != 0 {
                        let d = mask.trailing_zeros() as usize;
                        mask &= mask - 1;
                        if !rect.contains(cx + DX[d], cy + DY[d]) {
                            continue;
                        }
                        let n = (c as isize + self.graph.delta(d)) as usize;
                        let ln = self.local_index(rect, n);
                        if labels[ln] == u32::MAX {
                            labels[ln] = next;
                            stack.push(n);
                        }
                    }
                }
                next += 1;
            }
        }
        labels
    }

    /// The transitions of border `kind` of cluster `k`, from the graph as it is.
    fn transitions(&self, k: usize, kind: usize) -> Vec<Transition> {
        let (kx, ky) = KINDS[kind];
        let mut out = Vec::new();
        if self.neighbour(k, kx, ky).is_none() {
            return out;
        }
        let r = self.rect(k);
        match kind {
            0 | 1 => {
                // Cells of the first cluster along the border, and the straight step across.
                let (len, cell_at): (u32, Box<dyn Fn(u32) -> usize>) = if kind == 0 {
                    (r.y1 - r.y0, Box::new(|i| self.idx(r.x1 - 1, r.y0 + i)))
                } else {
                    (r.x1 - r.x0, Box::new(|i| self.idx(r.x0 + i, r.y1 - 1)))
                };
                let straight = Self::dir(kx, ky);
                // The parts of each cluster connected inside it: a short run may share its
                // transition with an earlier run that joins the same two parts.
                let other = self.neighbour(k, kx, ky).map_or(r, |n| self.rect(n));
                let (mine, theirs) = (self.components(r), self.components(other));
                let part =
                    |cell: usize, rect: Rect, labels: &[u32]| labels[self.local_index(rect, cell)];
                // The cost of the straight step across at position `i` along the border.
                let crossing = |i: u32| {
                    let from = cell_at(i);
                    let to = (from as isize + self.graph.delta(straight)) as usize;
                    self.graph.step_cost(from, to, straight)
                };
                // The parts a run joins, where along the border their last transition is and
                // what crossing there costs.
                let mut last: Vec<((u32, u32), u32, f64)> = Vec::new();
                let mut run_start = None;
                for i in 0..=len {
                    let open = i < len && self.graph.can_step(cell_at(i), straight);
                    match (open, run_start) {
                        (true, None) => run_start = Some(i),
                        (false, Some(s)) => {
                            let e = i - 1;
                            let from = cell_at(s);
                            let to = (from as isize + self.graph.delta(straight)) as usize;
                            let parts = (part(from, r, &mine), part(to, other, &theirs));
                            let previous = last.iter_mut().find(|(p, _, _)| *p == parts);
                            if e - s + 1 >= LONG_ENTRANCE {
                                out.push(self.transition(cell_at(s), straight));
                                out.push(self.transition(cell_at(e), straight));
                                // Each stretch of one crossing cost cheaper than the
                                // stretches on both sides (a road across the border) gets a
                                // transition in its middle too.
                                let mut a = s;
                                while a <= e {
                                    let cost = crossing(a);
                                    let mut b = a;
                                    while b < e && crossing(b + 1) == cost {
                                        b += 1;
                                    }
                                    let cheaper = (a == s || crossing(a - 1) > cost)
                                        && (b == e || crossing(b + 1) > cost);
                                    let mid = (a + b) / 2;
                                    // The whole run alike: its ends are enough.
                                    let whole = a == s && b == e;
                                    if cheaper && !whole && mid != s && mid != e {
                                        out.push(self.transition(cell_at(mid), straight));
                                    }
                                    a = b + 1;
                                }
                                match previous {
                                    Some(entry) => (entry.1, entry.2) = (e, crossing(e)),
                                    None => last.push((parts, e, crossing(e))),
                                }
                            } else {
                                // The cheapest crossing, the one nearest the middle of those.
                                let mid = (s..=e)
                                    .min_by(|&a, &b| {
                                        crossing(a).total_cmp(&crossing(b)).then(
                                            (2 * a).abs_diff(s + e).cmp(&(2 * b).abs_diff(s + e)),
                                        )
                                    })
                                    .unwrap_or(s);
                                let cost = crossing(mid);
                                match previous {
                                    Some(entry)
                                        if mid - entry.1 < ENTRANCE_SPACING && entry.2 <= cost => {}
                                    Some(entry) => {
                                        out.push(self.transition(cell_at(mid), straight));
                                        (entry.1, entry.2) = (mid, cost);
                                    }
                                    None => {
                                        out.push(self.transition(cell_at(mid), straight));
                                        last.push((parts, mid, cost));
                                    }
                                }
                            }
                            run_start = None;
                        }
                        _ => {}
                    }
                }
                if self.graph.diagonal() == Diagonal::Always {
                    // Squeezing diagonals across this border inside the same row/column band.
                    let (sideways, back) = if kind == 0 { (0, 1) } else { (1, 0) };
                    for i in 0..len {
                        let from = cell_at(i);
                        for s in [-1i32, 1] {
                            let j = i as i32 + s;
                            if j < 0 || j >= len as i32 {
                                continue;
                            }
                            let d = Self::dir(kx + sideways * s, ky + back * s);
                            if self.squeezes(from, d) {
                                out.push(self.transition(from, d));
                            }
                        }
                    }
                }
            }
            _ => {
                // A cluster corner: only a squeezing diagonal needs a transition of its own.
                if self.graph.diagonal() == Diagonal::Always {
                    let from = if kind == 2 {
                        self.idx(r.x1 - 1, r.y1 - 1)
                    } else {
                        self.idx(r.x0, r.y1 - 1)
                    };
                    let d = Self::dir(kx, ky);
                    if self.squeezes(from, d) {
                        out.push(self.transition(from, d));
                    }
                }
            }
        }
        out
    }

    /// The borders touching cluster `k`: (border index, whether `k` holds the inside cells).
    fn borders_of(&self, k: usize) -> impl Iterator<Item = (usize, bool)> + '_ {
        (0..4).flat_map(move |kind| {
            let (kx, ky) = KINDS[kind];
            let own = self.neighbour(k, kx, ky).map(|_| (k * 4 + kind, true));
            let theirs = self
                .neighbour(k, -kx, -ky)
                .map(|other| (other * 4 + kind, false));
            own.into_iter().chain(theirs)
        })
    }

    /// The nodes, intra-edges and inter-edges of cluster `k`, from its borders.
    fn cluster(&mut self, k: usize) -> Cluster {
        let mut nodes = Vec::new();
        let mut links_raw = Vec::new();
        let borders: Vec<(usize, bool)> = self.borders_of(k).collect();
        for (b, inside) in borders {
            for t in &self.borders[b] {
                let (mine, other) = if inside {
                    (t.inside, t.outside)
                } else {
                    (t.outside, t.inside)
                };
                nodes.push(mine);
                links_raw.push((mine, other, t.cost));
            }
        }
        nodes.sort_unstable();
        nodes.dedup();
        let n = nodes.len();
        let mut links = vec![Vec::new(); n];
        for (mine, other, cost) in links_raw {
            if let Ok(i) = nodes.binary_search(&mine) {
                links[i].push((other, cost));
            }
        }
        for l in &mut links {
            l.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
            l.dedup();
        }
        let mut dist = vec![f64::INFINITY; n * n];
        let rect = self.rect(k);
        let mut stats = Stats::default();
        for i in 0..n {
            self.dijkstra(rect, nodes[i] as usize, &mut stats);
            for j in 0..n {
                dist[i * n + j] = self.local.g(self.local_index(rect, nodes[j] as usize));
            }
        }
        let mut first = Vec::with_capacity(n + 1);
        let mut edges = Vec::new();
        for i in 0..n {
            first.push(edges.len() as u32);
            for j in 0..n {
                let d = dist[i * n + j];
                if j == i || d.is_infinite() {
                    continue;
                }
                let dominated =
                    (0..n).any(|m| m != i && m != j && dist[i * n + m] + dist[m * n + j] <= d);
                if !dominated {
                    edges.push((j as u32, d));
                }
            }
        }
        first.push(edges.len() as u32);
        Cluster {
            nodes,
            first,
            edges,
            links,
        }
    }

    fn local_index(&self, rect: Rect, cell: usize) -> usize {
        let w = self.graph.width() as usize;
        let (x, y) = (cell % w, cell / w);
        (y - rect.y0 as usize) * rect.width() + (x - rect.x0 as usize)
    }

    /// A best-first search bounded to `rect` from `source`: Dijkstra over the whole rectangle
    /// when `goal` is `None`, A* stopping at the goal otherwise. Leaves costs in `self.local`;
    /// returns whether the goal was reached.
    fn bounded(
        &mut self,
        rect: Rect,
        source: usize,
        goal: Option<(usize, Estimate)>,
        stats: &mut Stats,
    ) -> bool {
        let w = self.graph.width() as usize;
        let rw = rect.width();
        let cells = rw * (rect.y1 - rect.y0) as usize;
        self.local.begin(cells);
        let stamp = self.local.current;
        let h = |x: i32, y: i32| goal.map_or(0.0, |(_, e)| e.at(x, y));
        // The local index of a step in each direction: no division per neighbour.
        let local_delta: [isize; 8] =
            std::array::from_fn(|d| DY[d] as isize * rw as isize + DX[d] as isize);
        let s = self.local_index(rect, source);
        self.local.g[s] = 0.0;
        self.local.stamp[s] = stamp;
        self.local.closed[s] = false;
        self.local.parent[s] = u8::MAX;
        let (sx, sy) = ((source % w) as i32, (source / w) as i32);
        self.local
            .heap
            .push(Entry::new(h(sx, sy), 0.0, source as u32));
        stats.pushed += 1;
        while let Some(entry) = self.local.heap.pop() {
            let cell = entry.cell() as usize;
            let (x, y) = ((cell % w) as i32, (cell / w) as i32);
            let li = (y as usize - rect.y0 as usize) * rw + (x as usize - rect.x0 as usize);
            if self.local.closed[li] {
                continue;
            }
            self.local.closed[li] = true;
            stats.expanded += 1;
            if goal.is_some_and(|(g, _)| g == cell) {
                return true;
            }
            let g = self.local.g[li];
            let mut mask = self.graph.mask(cell);
            while mask != 0 {
                let d = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let (nx, ny) = (x + DX[d], y + DY[d]);
                if !rect.contains(nx, ny) {
                    continue;
                }
                let next = (cell as isize + self.graph.delta(d)) as usize;
                let ng = g + self.graph.step_cost(cell, next, d);
                let ni = li.wrapping_add_signed(local_delta[d]);
                let local = &mut self.local;
                if local.stamp[ni] != stamp {
                    local.stamp[ni] = stamp;
                    local.closed[ni] = false;
                } else if local.closed[ni] || ng >= local.g[ni] {
                    continue;
                }
                local.g[ni] = ng;
                local.parent[ni] = d as u8;
                local.heap.push(Entry::new(ng + h(nx, ny), ng, next as u32));
                stats.pushed += 1;
            }
        }
        false
    }

    fn dijkstra(&mut self, rect: Rect, source: usize, stats: &mut Stats) {
        self.bounded(rect, source, None, stats);
    }

    /// The cheapest path from `from` to `to` inside `rect`, as cell indices from `from`.
    fn local_path(
        &mut self,
        rect: Rect,
        from: usize,
        to: usize,
        heuristic: Heuristic,
        stats: &mut Stats,
    ) -> Option<Vec<usize>> {
        let cell = self.graph.cell(to);
        let estimate = Estimate::new(
            self.graph.topology(),
            heuristic,
            cell.x,
            cell.y,
            self.graph.min_cost(),
        );
        if !self.bounded(rect, from, Some((to, estimate)), stats) {
            return None;
        }
        let mut path = vec![to];
        let mut at = to;
        while at != from {
            let d = usize::from(self.local.parent[self.local_index(rect, at)]);
            if d >= 8 {
                return None;
            }
            at = (at as isize - self.graph.delta(d)) as usize;
            path.push(at);
        }
        path.reverse();
        Some(path)
    }

    /// The cheapest path from `start` to `goal` through the clusters of `waypoints` and the
    /// clusters around the first and the last waypoint.
    fn corridor_path(
        &mut self,
        start: usize,
        goal: usize,
        waypoints: &[usize],
        heuristic: Heuristic,
        stats: &mut Stats,
    ) -> Option<Vec<usize>> {
        let mut marked: Vec<usize> = Vec::new();
        for (i, &cell) in waypoints.iter().enumerate() {
            let k = self.cluster_of(cell);
            marked.push(k);
            if i == 0 || i + 1 == waypoints.len() {
                // Around the ends the best path often leaves the clusters the abstract path
                // takes (a road in the next cluster): their neighbours join the corridor.
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        marked.extend(self.neighbour(k, dx, dy));
                    }
                }
            }
        }
        marked.sort_unstable();
        marked.dedup();
        for &k in &marked {
            self.in_corridor[k] = true;
        }
        let found = self.corridor_search(start, goal, heuristic, stats);
        for &k in &marked {
            self.in_corridor[k] = false;
        }
        if !found {
            return None;
        }
        let mut path = vec![goal];
        let mut at = goal;
        while at != start {
            let d = self.space.parent(at);
            if d == NO_PARENT {
                return None;
            }
            at = (at as isize - self.graph.delta(usize::from(d))) as usize;
            path.push(at);
        }
        path.reverse();
        Some(path)
    }

    /// A* from `start` to `goal` over the cells of the marked clusters.
    fn corridor_search(
        &mut self,
        start: usize,
        goal: usize,
        heuristic: Heuristic,
        stats: &mut Stats,
    ) -> bool {
        let graph = &self.graph;
        let w = graph.width() as usize;
        let gcell = graph.cell(goal);
        let estimate = Estimate::new(
            graph.topology(),
            heuristic,
            gcell.x,
            gcell.y,
            graph.min_cost(),
        );
        let space = &mut self.space;
        space.begin(graph.len());
        space.relax(start, 0.0, NO_PARENT);
        let (sx, sy) = ((start % w) as i32, (start / w) as i32);
        space
            .heap
            .push(Entry::new(estimate.at(sx, sy), 0.0, start as u32));
        stats.pushed += 1;
        while let Some(entry) = space.heap.pop() {
            let current = entry.cell() as usize;
            if !space.close(current) {
                continue;
            }
            let g = space.g[current];
            stats.expanded += 1;
            if current == goal {
                return true;
            }
            let (x, y) = ((current % w) as i32, (current / w) as i32);
            let mut mask = graph.mask(current);
            while mask != 0 {
                let d = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let (nx, ny) = ((x + DX[d]) as usize, (y + DY[d]) as usize);
                if !self.in_corridor[(self.row_of_y[ny] + self.column_of_x[nx]) as usize] {
                    continue;
                }
                let next = (current as isize + graph.delta(d)) as usize;
                let ng = g + graph.step_cost(current, next, d);
                if !space.relax(next, ng, d as u8) {
                    continue;
                }
                let h = estimate.at(nx as i32, ny as i32);
                space.heap.push(Entry::new(ng + h, ng, next as u32));
                stats.pushed += 1;
                stats.max_open = stats.max_open.max(space.heap.len() as u64);
            }
        }
        false
    }

    /// Takes over the terrain of `cells` from `grid`, which holds the map after an edit, and
    /// rebuilds the clusters the edit touches with the borders around them.
    ///
    /// The landmark distances are then computed again over the whole abstract graph (one
    /// Dijkstra per landmark on the abstract nodes, no cells). When the grid's size or
    /// terrain costs differ from what the graph was built on, the whole abstraction is built
    /// again.
    pub fn update_cells(&mut self, grid: &Grid, cells: &[Cell]) {
        if !self.graph.matches_catalog(grid) {
            let refinement = self.refinement;
            *self = Self::build(grid, self.graph.diagonal(), self.size);
            self.refinement = refinement;
            return;
        }
        let changes: Vec<(Cell, TerrainId)> = cells
            .iter()
            .filter_map(|&c| grid.get(c).map(|t| (c, t)))
            .collect();
        self.set_cells(&changes);
    }

    /// Sets the terrain of some cells (of the catalog the graph was built with) and rebuilds
    /// the clusters they touch with the borders around them, as [`HpaGraph::update_cells`]
    /// does. Cells off the map are ignored.
    pub fn set_cells(&mut self, changes: &[(Cell, TerrainId)]) {
        let affected = self.graph.set_cells(changes);
        let mut touched: Vec<usize> = affected.iter().map(|&i| self.cluster_of(i)).collect();
        touched.sort_unstable();
        touched.dedup();
        if touched.is_empty() {
            return;
        }
        let mut borders = Vec::new();
        let mut rebuild = Vec::new();
        for &k in &touched {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if let Some(n) = self.neighbour(k, dx, dy) {
                        rebuild.push(n);
                    }
                }
            }
            borders.extend(self.borders_of(k).map(|(b, _)| b));
        }
        borders.sort_unstable();
        borders.dedup();
        for b in borders {
            self.borders[b] = self.transitions(b / 4, b % 4);
        }
        rebuild.sort_unstable();
        rebuild.dedup();
        for k in rebuild {
            self.clusters[k] = self.cluster(k);
        }
        self.number_nodes();
        self.refresh_landmarks();
    }

    /// A near-optimal path from `start` to `goal`.
    ///
    /// Fails when an end is off the map or impassable, or when the graph was built for another
    /// diagonal rule than the request's. `stats.time_us` is the time of the query alone (the
    /// abstraction is built beforehand); `expanded` counts abstract nodes and the cells of the
    /// bounded searches that connect the ends and refine the abstract path.
    pub fn find_path(&mut self, request: &SearchRequest) -> Result<SearchResult, SearchError> {
        crate::search::outcome::check(&self.graph, request)?;
        let started = Instant::now();
        let mut stats = Stats::default();
        let heuristic = request.effective_heuristic();
        let start = self.graph.index(request.start);
        let goal = self.graph.index(request.goal);
        let mut path = if start == goal {
            Some(vec![start])
        } else {
            self.query(start, goal, heuristic, &mut stats)
        };
        let valid = path.as_ref().is_none_or(|p| {
            let cells: Vec<Cell> = p.iter().map(|&i| self.graph.cell(i)).collect();
            p.first() == Some(&start)
                && p.last() == Some(&goal)
                && self.graph.path_cost(&cells).is_some()
        });
        debug_assert!(valid, "HPA* assembled an invalid path: {path:?}");
        if !valid {
            // Never expected; a full A* is the safe answer rather than an invalid path.
            let astar = request.clone().with_algorithm(Algorithm::AStar);
            let query = Query::new(&self.graph, &astar);
            let mut workspace = Workspace::default();
            path = crate::search::classic::best_first::run_astar(
                &mut workspace,
                &query,
                &UNCONTROLLED,
                &mut stats,
            );
        }
        stats.time_us = started.elapsed().as_micros() as u64;
        Ok(crate::search::outcome::result(
            &self.graph,
            request,
            path,
            stats,
            None,
        ))
    }

    /// Connects the ends, searches the abstract graph and refines its path into cells.
    fn query(
        &mut self,
        start: usize,
        goal: usize,
        heuristic: Heuristic,
        stats: &mut Stats,
    ) -> Option<Vec<usize>> {
        let refinement = self.effective_refinement();
        let (ks, kg) = (self.cluster_of(start), self.cluster_of(goal));
        let (rs, rg) = (self.rect(ks), self.rect(kg));
        // Costs from the start to the nodes of its cluster, and from those of the goal's
        // cluster to the goal (costs are symmetric).
        self.dijkstra(rs, start, stats);
        let from_start: Vec<f64> = self.clusters[ks]
            .nodes
            .iter()
            .map(|&c| self.local.g(self.local_index(rs, c as usize)))
            .collect();
        // When the ends share a cluster or lie in touching ones, a search bounded to the
        // clusters' common rectangle joins the abstract graph as a direct edge: near queries
        // then never pay for the detour through the entrances.
        let near = {
            let (sx, sy) = (ks as u32 % self.cols, ks as u32 / self.cols);
            let (gx, gy) = (kg as u32 % self.cols, kg as u32 / self.cols);
            sx.abs_diff(gx) <= 1 && sy.abs_diff(gy) <= 1
        };
        let direct_path = if near {
            let both = Rect {
                x0: rs.x0.min(rg.x0),
                y0: rs.y0.min(rg.y0),
                x1: rs.x1.max(rg.x1),
                y1: rs.y1.max(rg.y1),
            };
            self.local_path(both, start, goal, heuristic, stats)
                .map(|p| (self.local.g(self.local_index(both, goal)), p))
        } else {
            None
        };
        let direct = direct_path
            .as_ref()
            .map_or(f64::INFINITY, |(cost, _)| *cost);
        self.dijkstra(rg, goal, stats);
        let to_goal: Vec<f64> = self.clusters[kg]
            .nodes
            .iter()
            .map(|&c| self.local.g(self.local_index(rg, c as usize)))
            .collect();

        // A* over the abstract graph: node ids are `offsets[k] + i`; the start and the goal
        // are two extra ids after the nodes.
        let gcell = self.graph.cell(goal);
        let estimate = Estimate::new(
            self.graph.topology(),
            heuristic,
            gcell.x,
            gcell.y,
            self.graph.min_cost(),
        );
        let w = self.graph.width() as usize;
        let total = self.owner.len();
        // Landmark bounds: |d(L, goal) − d(L, n)| on the abstract graph with the goal joined
        // to the nodes of its cluster.
        let base = self.offsets[kg] as usize;
        let count = self.landmark_count;
        let landmarks = &self.landmarks;
        let at = |base: usize, costs: &[f64], l: usize| {
            costs
                .iter()
                .enumerate()
                .map(|(i, &t)| landmarks[(base + i) * count + l] + t)
                .fold(f64::INFINITY, f64::min)
        };
        // The active landmarks: the few whose bounds are largest at the start.
        let start_base = self.offsets[ks] as usize;
        let mut ranked: Vec<(f64, usize, f64)> = (0..count)
            .map(|l| {
                let (g, s) = (at(base, &to_goal, l), at(start_base, &from_start, l));
                let bound = if g.is_finite() && s.is_finite() {
                    (g - s).abs()
                } else {
                    0.0
                };
                (bound, l, g)
            })
            .filter(|&(_, _, g)| g.is_finite())
            .collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        ranked.truncate(ACTIVE_LANDMARKS);
        let h = |id: usize, cell: u32| {
            let mut best = estimate.at((cell as usize % w) as i32, (cell as usize / w) as i32);
            if id < total {
                let here = &landmarks[id * count..(id + 1) * count];
                for &(_, l, goal_d) in &ranked {
                    let d = here[l];
                    if d.is_finite() {
                        best = best.max((goal_d - d).abs());
                    }
                }
            }
            best
        };
        let (sid, gid) = (total, total + 1);
        let (clusters, offsets, abs) = (&self.clusters, &self.offsets, &mut self.abs);
        let (adjacency_first, adjacency, node_cell) =
            (&self.adjacency_first, &self.adjacency, &self.node_cell);
        let goal_base = offsets[kg] as usize;
        abs.begin(total + 2);
        abs.relax(sid, 0.0, u32::MAX, h, start as u32, stats);
        let mut reached = false;
        while let Some(top) = abs.heap.pop() {
            let id = top.cell() as usize;
            if abs.nodes[id].closed {
                continue;
            }
            abs.nodes[id].closed = true;
            stats.expanded += 1;
            if id == gid {
                reached = true;
                break;
            }
            let g = abs.nodes[id].g;
            let parent = id as u32;
            if id == sid {
                let base = offsets[ks] as usize;
                for (i, &node) in clusters[ks].nodes.iter().enumerate() {
                    if from_start[i].is_finite() {
                        abs.relax(base + i, from_start[i], parent, h, node, stats);
                    }
                }
                if direct.is_finite() {
                    abs.relax(gid, direct, parent, |_, _| 0.0, goal as u32, stats);
                }
                continue;
            }
            let span = adjacency_first[id] as usize..adjacency_first[id + 1] as usize;
            for &(next, cost) in &adjacency[span] {
                let next = next as usize;
                abs.relax(next, g + cost, parent, h, node_cell[next], stats);
            }
            let i = id.wrapping_sub(goal_base);
            if i < to_goal.len() && to_goal[i].is_finite() {
                abs.relax(gid, g + to_goal[i], parent, |_, _| 0.0, goal as u32, stats);
            }
        }
        if !reached {
            return None;
        }
        let mut abstract_path = vec![goal];
        let mut id = abs.nodes[gid].parent;
        while id != u32::MAX {
            abstract_path.push(abs.nodes[id as usize].cell as usize);
            id = abs.nodes[id as usize].parent;
        }
        abstract_path.reverse();

        if let ([_, _], Some((_, path))) = (abstract_path.as_slice(), direct_path)
            && refinement == Refinement::Edges
        {
            // The direct edge won; the corridor, wider than the two clusters, may do better.
            return Some(path);
        }
        if refinement == Refinement::Corridor {
            return Some(
                self.corridor_path(start, goal, &abstract_path, heuristic, stats)
                    .unwrap_or_default(),
            );
        }
        // Refinement: an inter-edge is one step; any other edge is a search inside a cluster.
        let mut path = vec![start];
        for pair in abstract_path.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            if a == b {
                continue;
            }
            let (ka, kb) = (self.cluster_of(a), self.cluster_of(b));
            if ka != kb {
                path.push(b);
                continue;
            }
            let rect = self.rect(ka);
            let Some(piece) = self.local_path(rect, a, b, heuristic, stats) else {
                // Cannot happen when the intra-edges are current; the caller falls back.
                return Some(Vec::new());
            };
            path.extend_from_slice(&piece[1..]);
        }
        Some(path)
    }
}

/// Builds the abstraction for one query and answers it: what `solve` and
/// [`crate::search::Searcher`] do for [`Algorithm::Hpa`].
pub(crate) fn hpa_once(
    graph: &SearchGraph,
    request: &SearchRequest,
    control: &SearchControl,
) -> Result<SearchResult, SearchError> {
    debug_assert_eq!(request.algorithm, Algorithm::Hpa);
    crate::search::outcome::check(graph, request)?;
    HpaGraph::from_graph_controlled(graph.clone(), DEFAULT_CLUSTER_SIZE, control)?
        .find_path(request)
}
