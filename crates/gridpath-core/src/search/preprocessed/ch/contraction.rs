//! The build of a contraction hierarchy: the order of the cells by simulated contraction,
//! with witness searches that decide which shortcuts a contraction needs.
//!
//! The cells still in the graph are kept as adjacency lists, each edge in the lists of both
//! its ends. Contracting a cell takes it out of the graph; for every pair of its neighbours
//! a *witness search*, a small Dijkstra from one of them that avoids the cell, looks for a
//! way between them that costs no more than the way through the cell. Where none is found,
//! a shortcut of the cost through the cell joins the pair. The search is bounded by the
//! dearest pair's cost through the cell, by [`WITNESS_HOPS`] steps and by
//! [`WITNESS_SETTLED`] settled cells, and stops once every pair has a witness: a witness
//! missed only adds a shortcut that is not needed, never a wrong cost. Ways of equal cost
//! count as witnesses, since a grid has ties everywhere.
//!
//! The cell contracted next is the one of least priority, a sum of four terms: how many edges
//! its contraction would add for each it removes, the same counted in the steps of the grid the
//! edges stand for, its *level* (one more than the highest level among its contracted
//! neighbours, which spreads the contractions evenly over the map) and how many of its
//! neighbours are contracted already. Priorities are kept up to date lazily: a contraction
//! raises the level and deleted-neighbour terms of the cells around it, and the cell taken from
//! the queue is simulated afresh and put back when its priority has grown past the next one's.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::search::frontier::heap::{Entry, Heap};
use crate::search::graph::SearchGraph;
use crate::search::request::SearchError;

use super::NONE;

/// The most steps a witness search follows from its source.
pub(super) const WITNESS_HOPS: u8 = 12;

/// The most cells a witness search settles.
pub(super) const WITNESS_SETTLED: u32 = 500;

/// The weight of the level in a priority: a cell one level up waits behind any difference
/// of edges.
const LEVEL_WEIGHT: u64 = 1000;

/// The weight of each contracted neighbour in a priority.
const DELETED_WEIGHT: u64 = 100;

/// The weight of the ratio of edges added to edges removed (and of steps added to steps
/// removed) in a priority, in thousandths.
const RATIO_WEIGHT: u64 = 1000;

/// An edge of the graph being contracted, in the list of one of its ends.
#[derive(Clone, Copy, Debug)]
struct Arc {
    /// The other end.
    to: u32,
    /// The cell the edge passes through when it is a shortcut, [`NONE`] for a step.
    middle: u32,
    /// How many steps of the grid the edge stands for.
    hops: u32,
    cost: f64,
}

/// A shortcut a contraction adds: both ends, its cost and its steps.
#[derive(Clone, Copy, Debug)]
struct Shortcut {
    from: u32,
    to: u32,
    cost: f64,
    hops: u32,
}

/// The upward edges of every cell in the order of contraction, as the build leaves them:
/// cells are still cell indices.
pub(super) struct Contracted {
    /// The cell of each rank, in the order of contraction.
    pub order: Vec<u32>,
    /// The upward edges of rank `r` are `head[first[r]..first[r + 1]]` (cells).
    pub first: Vec<u32>,
    /// The upper end of each edge, as a cell.
    pub head: Vec<u32>,
    /// The middle cell of each shortcut, [`NONE`] for a step.
    pub middle: Vec<u32>,
    /// The cost of each edge.
    pub cost: Vec<f64>,
}

/// The state of the witness searches, reused from one to the next.
struct Witness {
    dist: Vec<f64>,
    hops: Vec<u8>,
    /// The search that last reached each cell; its `dist` is stale otherwise.
    seen: Vec<u32>,
    /// The search for which each cell is a target, and its place among the targets.
    target: Vec<u32>,
    place: Vec<u32>,
    round: u32,
    heap: Heap,
    /// The cost through the contracted cell of each target, and whether it has a witness.
    need: Vec<f64>,
    found: Vec<bool>,
}

impl Witness {
    fn new(cells: usize) -> Self {
        Self {
            dist: vec![f64::INFINITY; cells],
            hops: vec![0; cells],
            seen: vec![0; cells],
            target: vec![0; cells],
            place: vec![0; cells],
            round: 0,
            heap: Heap::default(),
            need: Vec::new(),
            found: Vec::new(),
        }
    }

    /// The shortcuts that contracting `v` needs, into `out`: one for every pair of its
    /// neighbours that no witness search joins as cheaply without `v`.
    fn shortcuts(&mut self, adj: &[Vec<Arc>], v: u32, out: &mut Vec<Shortcut>) {
        out.clear();
        let around = &adj[v as usize];
        for (i, a) in around.iter().enumerate() {
            let later = &around[i + 1..];
            if later.is_empty() {
                break;
            }
            self.round = self.round.wrapping_add(1);
            if self.round == 0 {
                self.seen.fill(0);
                self.target.fill(0);
                self.round = 1;
            }
            let round = self.round;
            self.need.clear();
            self.found.clear();
            let mut bound = 0.0f64;
            for (j, b) in later.iter().enumerate() {
                let w = b.to as usize;
                self.target[w] = round;
                self.place[w] = j as u32;
                let need = a.cost + b.cost;
                self.need.push(need);
                self.found.push(false);
                bound = bound.max(need);
            }
            let left = self.two_hops(adj, v, a.to, later);
            if left > 0 {
                self.search(adj, v, a.to, bound, left);
            }
            for (j, b) in later.iter().enumerate() {
                if !self.found[j] {
                    out.push(Shortcut {
                        from: a.to,
                        to: b.to,
                        cost: self.need[j],
                        hops: a.hops + b.hops,
                    });
                }
            }
        }
    }

    /// Looks for witnesses of one or two steps from `source` to the targets `later` (marked
    /// for this round), and returns how many targets are left without one.
    fn two_hops(&mut self, adj: &[Vec<Arc>], v: u32, source: u32, later: &[Arc]) -> usize {
        let round = self.round;
        // The first step: the cost from `source` to each of its neighbours.
        for arc in &adj[source as usize] {
            let y = arc.to as usize;
            self.seen[y] = round;
            self.dist[y] = arc.cost;
        }
        let mut left = later.len();
        for (j, b) in later.iter().enumerate() {
            let w = b.to as usize;
            let need = self.need[j];
            let found = (self.seen[w] == round && self.dist[w] <= need)
                || adj[w].iter().any(|arc| {
                    let x = arc.to as usize;
                    arc.to != v && self.seen[x] == round && self.dist[x] + arc.cost <= need
                });
            if found {
                self.found[j] = true;
                left -= 1;
            }
        }
        // The Dijkstra that may follow starts afresh.
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            self.seen.fill(0);
            self.target.fill(0);
            self.round = 1;
        }
        for b in later {
            self.target[b.to as usize] = self.round;
        }
        left
    }

    /// A Dijkstra from `source` that avoids `v`, until every one of the `targets` targets is
    /// reached within its need, or a bound is hit.
    fn search(&mut self, adj: &[Vec<Arc>], v: u32, source: u32, bound: f64, targets: usize) {
        let round = self.round;
        let mut left = targets;
        self.heap.clear();
        let s = source as usize;
        self.dist[s] = 0.0;
        self.hops[s] = 0;
        self.seen[s] = round;
        self.heap.push(Entry::new(0.0, 0.0, source));
        let mut settled = 0;
        while let Some(entry) = self.heap.pop() {
            let x = entry.cell() as usize;
            let d = entry.priority();
            if d > self.dist[x] {
                continue;
            }
            settled += 1;
            if settled > WITNESS_SETTLED {
                return;
            }
            let hops = self.hops[x];
            if hops >= WITNESS_HOPS {
                continue;
            }
            for arc in &adj[x] {
                if arc.to == v {
                    continue;
                }
                let y = arc.to as usize;
                let nd = d + arc.cost;
                if nd > bound || (self.seen[y] == round && nd >= self.dist[y]) {
                    continue;
                }
                self.seen[y] = round;
                self.dist[y] = nd;
                self.hops[y] = hops + 1;
                if self.target[y] == round {
                    let j = self.place[y] as usize;
                    if !self.found[j] && nd <= self.need[j] {
                        self.found[j] = true;
                        left -= 1;
                        if left == 0 {
                            return;
                        }
                    }
                }
                self.heap.push(Entry::new(nd, nd, arc.to));
            }
        }
    }
}

/// The part of a priority that a simulation gives: edges and steps added for each removed.
fn edge_term(adj: &[Vec<Arc>], v: u32, shortcuts: &[Shortcut]) -> u64 {
    let around = &adj[v as usize];
    let removed = around.len() as u64;
    if removed == 0 {
        return 0;
    }
    let removed_hops: u64 = around.iter().map(|a| u64::from(a.hops)).sum();
    let added = shortcuts.len() as u64;
    let added_hops: u64 = shortcuts.iter().map(|s| u64::from(s.hops)).sum();
    RATIO_WEIGHT * added / removed + RATIO_WEIGHT * added_hops / removed_hops.max(1)
}

/// Orders the passable cells of `graph` by simulated contraction and returns every cell's
/// upward edges, calling `check` with the share of cells contracted every so often (an error
/// from it stops the build).
pub(super) fn contract(
    graph: &SearchGraph,
    check: &mut impl FnMut(usize) -> Result<(), SearchError>,
) -> Result<Contracted, SearchError> {
    let cells = graph.len();
    let mut adj: Vec<Vec<Arc>> = vec![Vec::new(); cells];
    for (c, arcs) in adj.iter_mut().enumerate() {
        if !graph.is_passable(c) {
            continue;
        }
        for d in 0..8 {
            if graph.can_step(c, d) {
                let to = (c as isize + graph.delta(d)) as usize;
                // Flat maps cost the same both ways; with heights (whose queries are
                // refused) the cheaper way stands for both.
                let cost = graph
                    .step_cost(c, to, d)
                    .min(graph.step_cost_into(c, to, d));
                arcs.push(Arc {
                    to: to as u32,
                    middle: NONE,
                    hops: 1,
                    cost,
                });
            }
        }
    }
    let passable = graph.passable_count();
    let mut witness = Witness::new(cells);
    let mut level = vec![0u32; cells];
    let mut deleted = vec![0u32; cells];
    let mut term = vec![0u64; cells];
    let mut key = vec![0u64; cells];
    let mut done = vec![false; cells];
    let priority = |term: u64, level: u32, deleted: u32| {
        term + LEVEL_WEIGHT * u64::from(level) + DELETED_WEIGHT * u64::from(deleted)
    };
    let mut shortcuts = Vec::new();
    let mut heap = BinaryHeap::with_capacity(passable);
    for c in 0..cells {
        if c % 4096 == 0 {
            check(0)?;
        }
        if !graph.is_passable(c) {
            continue;
        }
        witness.shortcuts(&adj, c as u32, &mut shortcuts);
        term[c] = edge_term(&adj, c as u32, &shortcuts);
        key[c] = priority(term[c], 0, 0);
        heap.push(Reverse((key[c], c as u32)));
    }

    let mut out = Contracted {
        order: Vec::with_capacity(passable),
        first: Vec::with_capacity(passable + 1),
        head: Vec::new(),
        middle: Vec::new(),
        cost: Vec::new(),
    };
    while let Some(Reverse((k, v))) = heap.pop() {
        let vi = v as usize;
        if done[vi] || k != key[vi] {
            continue;
        }
        if out.order.len() % 1024 == 0 {
            check(out.order.len())?;
        }
        witness.shortcuts(&adj, v, &mut shortcuts);
        term[vi] = edge_term(&adj, v, &shortcuts);
        let fresh = priority(term[vi], level[vi], deleted[vi]);
        if fresh > k
            && let Some(&Reverse((next, _))) = heap.peek()
            && fresh > next
        {
            key[vi] = fresh;
            heap.push(Reverse((fresh, v)));
            continue;
        }
        // Contract `v`: its remaining edges are its upward edges.
        done[vi] = true;
        out.order.push(v);
        out.first.push(super::offset(out.head.len(), cells)?);
        let around = std::mem::take(&mut adj[vi]);
        for a in &around {
            out.head.push(a.to);
            out.middle.push(a.middle);
            out.cost.push(a.cost);
            let list = &mut adj[a.to as usize];
            if let Some(p) = list.iter().position(|b| b.to == v) {
                list.swap_remove(p);
            }
        }
        for s in &shortcuts {
            add_shortcut(&mut adj, s, v);
        }
        for a in &around {
            let u = a.to as usize;
            level[u] = level[u].max(level[vi] + 1);
            deleted[u] += 1;
            let raised = priority(term[u], level[u], deleted[u]);
            if raised != key[u] {
                key[u] = raised;
                heap.push(Reverse((raised, a.to)));
            }
        }
    }
    out.first.push(super::offset(out.head.len(), cells)?);
    check(passable)?;
    Ok(out)
}

/// Joins the ends of a shortcut through `v` in both their lists, or lowers the cost of the
/// edge between them when it costs more.
fn add_shortcut(adj: &mut [Vec<Arc>], s: &Shortcut, v: u32) {
    for (a, b) in [(s.from, s.to), (s.to, s.from)] {
        let list = &mut adj[a as usize];
        match list.iter_mut().find(|arc| arc.to == b) {
            Some(arc) => {
                if s.cost < arc.cost {
                    *arc = Arc {
                        to: b,
                        middle: v,
                        hops: s.hops,
                        cost: s.cost,
                    };
                }
            }
            None => list.push(Arc {
                to: b,
                middle: v,
                hops: s.hops,
                cost: s.cost,
            }),
        }
    }
}
