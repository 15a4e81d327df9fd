//! What the solvers share: the passable cells as numbered vertices with their moves and
//! prices, each agent's distance table to its goal (filled lazily) and a hasher for
//! configurations. The [validator](super::validate) uses none of
//! it.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

use super::model::{Instance, Moves};
use crate::grid::Cell;

/// No vertex, no agent.
pub(crate) const NONE: u32 = u32::MAX;

/// The map's cells as vertices (a cell's vertex is its index in the grid) with the moves of
/// the instance's rule, each with its price.
#[derive(Clone, Debug)]
pub(crate) struct MoveGraph {
    width: u32,
    /// Each cell's terrain cost; `None` for an impassable cell.
    cost: Vec<Option<f64>>,
    /// Where each cell's moves begin in `targets` (one more entry than cells).
    offsets: Vec<u32>,
    /// The cells each cell's moves lead to, without the wait.
    targets: Vec<u32>,
    /// Whether every passable cell costs the same and moves are orthogonal: distances are
    /// then counted by breadth-first search.
    pub(crate) uniform: bool,
    /// Whether diagonal moves are allowed.
    diagonal: bool,
    /// The least price of a tick: a wait, or a move (the least terrain cost).
    pub(crate) least_step: f64,
}

impl MoveGraph {
    /// The graph of an instance's map under its rule of moving.
    pub(crate) fn new(instance: &Instance) -> Self {
        let grid = instance.grid();
        let (w, h) = (grid.width(), grid.height());
        let cost: Vec<Option<f64>> = (0..grid.len())
            .map(|i| grid.cost(grid.cell_at(i)))
            .collect();
        let open = |x: i64, y: i64| -> bool {
            x >= 0
                && y >= 0
                && x < i64::from(w)
                && y < i64::from(h)
                && cost[(y as usize) * w as usize + x as usize].is_some()
        };
        let mut offsets = Vec::with_capacity(grid.len() + 1);
        let mut targets = Vec::with_capacity(grid.len() * 4);
        offsets.push(0);
        let diagonal = instance.moves() == Moves::EightNoCut;
        for (i, c) in cost.iter().enumerate() {
            let (x, y) = ((i % w as usize) as i64, (i / w as usize) as i64);
            if c.is_some() {
                for (dx, dy) in [(0, -1), (1, 0), (0, 1), (-1, 0)] {
                    if open(x + dx, y + dy) {
                        targets.push(((y + dy) * i64::from(w) + x + dx) as u32);
                    }
                }
                if diagonal {
                    for (dx, dy) in [(1, -1), (1, 1), (-1, 1), (-1, -1)] {
                        if open(x + dx, y + dy) && open(x + dx, y) && open(x, y + dy) {
                            targets.push(((y + dy) * i64::from(w) + x + dx) as u32);
                        }
                    }
                }
            }
            offsets.push(targets.len() as u32);
        }
        let mut costs = cost.iter().flatten();
        let first = costs.next().copied();
        let uniform = !diagonal && costs.all(|&c| Some(c) == first);
        let least_step = cost.iter().flatten().copied().fold(f64::INFINITY, f64::min);
        Self {
            width: w,
            cost,
            offsets,
            targets,
            uniform,
            diagonal,
            least_step: if least_step.is_finite() {
                least_step
            } else {
                0.0
            },
        }
    }

    /// The fewest moves from `u` to `v` on an open map: a lower bound on the ticks between
    /// them.
    pub(crate) fn least_moves(&self, u: u32, v: u32) -> u32 {
        let (a, b) = (self.cell(u), self.cell(v));
        let (dx, dy) = (a.x.abs_diff(b.x), a.y.abs_diff(b.y));
        if self.diagonal { dx.max(dy) } else { dx + dy }
    }

    /// The number of cells.
    pub(crate) fn len(&self) -> usize {
        self.cost.len()
    }

    /// The vertices of the agents' starts and of their goals, in the agents' order.
    pub(crate) fn ends(&self, instance: &Instance) -> (Vec<u32>, Vec<u32>) {
        let agents = instance.agents();
        (
            agents.iter().map(|a| self.vertex(a.start)).collect(),
            agents.iter().map(|a| self.vertex(a.goal)).collect(),
        )
    }

    /// The vertex of a cell.
    pub(crate) fn vertex(&self, cell: Cell) -> u32 {
        cell.y * self.width + cell.x
    }

    /// The cell of a vertex.
    pub(crate) fn cell(&self, v: u32) -> Cell {
        Cell::new(v % self.width, v / self.width)
    }

    /// The cells one move from `v` (not `v` itself).
    pub(crate) fn neighbours(&self, v: u32) -> &[u32] {
        let (a, b) = (
            self.offsets[v as usize] as usize,
            self.offsets[v as usize + 1] as usize,
        );
        &self.targets[a..b]
    }

    /// What a tick from `u` to `v` costs (a wait when they are the same): see the model.
    pub(crate) fn step_cost(&self, u: u32, v: u32) -> f64 {
        let cu = self.cost[u as usize].unwrap_or(0.0);
        if u == v {
            return cu;
        }
        let mean = 0.5 * (cu + self.cost[v as usize].unwrap_or(0.0));
        if u % self.width != v % self.width && u / self.width != v / self.width {
            std::f64::consts::SQRT_2 * mean
        } else {
            mean
        }
    }

    /// The two cells beside the diagonal move `u` → `v`, or `None` for another move.
    pub(crate) fn diagonal_sides(&self, u: u32, v: u32) -> Option<(u32, u32)> {
        let (ux, uy, vx, vy) = (
            u % self.width,
            u / self.width,
            v % self.width,
            v / self.width,
        );
        (ux != vx && uy != vy).then(|| (uy * self.width + vx, vy * self.width + ux))
    }
}

/// A distance known or still to be settled.
#[derive(Clone, Copy, PartialEq)]
struct Entry {
    cost: f64,
    vertex: u32,
}

impl Eq for Entry {}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed: the binary heap pops the cheapest first.
        other
            .cost
            .total_cmp(&self.cost)
            .then_with(|| other.vertex.cmp(&self.vertex))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The cheapest cost from every cell to one goal, found as it is asked for: the search from
/// the goal runs on only until the cell asked about is settled, and resumes from there on the
/// next question. Prices are symmetric, so the costs from the goal are the costs to it.
#[derive(Clone, Debug)]
pub(crate) struct DistanceTable {
    dist: Vec<f64>,
    /// Settled cells (Dijkstra only; breadth-first search settles a cell when it reaches it).
    settled: Vec<bool>,
    queue: VecDeque<u32>,
    heap: BinaryHeap<EntryBox>,
}

/// [`Entry`] with `Debug`, for the table's derive.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct EntryBox(Entry);

impl std::fmt::Debug for EntryBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.0.vertex, self.0.cost)
    }
}

impl DistanceTable {
    /// A table for `goal`, with nothing settled but the goal.
    pub(crate) fn new(graph: &MoveGraph, goal: u32) -> Self {
        let mut dist = vec![f64::INFINITY; graph.len()];
        dist[goal as usize] = 0.0;
        let mut table = Self {
            dist,
            settled: Vec::new(),
            queue: VecDeque::new(),
            heap: BinaryHeap::new(),
        };
        if graph.uniform {
            table.queue.push_back(goal);
        } else {
            table.settled = vec![false; graph.len()];
            table.heap.push(EntryBox(Entry {
                cost: 0.0,
                vertex: goal,
            }));
        }
        table
    }

    /// The cheapest cost from `v` to the goal; infinite when the goal cannot be reached.
    pub(crate) fn get(&mut self, graph: &MoveGraph, v: u32) -> f64 {
        if graph.uniform {
            while self.dist[v as usize].is_infinite() {
                let Some(u) = self.queue.pop_front() else {
                    break;
                };
                let next = self.dist[u as usize] + graph.step_cost(u, u);
                for &n in graph.neighbours(u) {
                    if self.dist[n as usize].is_infinite() {
                        self.dist[n as usize] = next;
                        self.queue.push_back(n);
                    }
                }
            }
        } else {
            while !self.settled[v as usize] {
                let Some(EntryBox(Entry { cost, vertex: u })) = self.heap.pop() else {
                    break;
                };
                if self.settled[u as usize] {
                    continue;
                }
                self.settled[u as usize] = true;
                for &n in graph.neighbours(u) {
                    let c = cost + graph.step_cost(u, n);
                    if c < self.dist[n as usize] {
                        self.dist[n as usize] = c;
                        self.heap.push(EntryBox(Entry { cost: c, vertex: n }));
                    }
                }
            }
        }
        self.dist[v as usize]
    }
}

/// Every agent's distance table, built when first asked for.
#[derive(Clone, Debug)]
pub(crate) struct Distances {
    goals: Vec<u32>,
    tables: Vec<Option<DistanceTable>>,
}

impl Distances {
    /// Tables for these goals, none built yet.
    pub(crate) fn new(goals: Vec<u32>) -> Self {
        let tables = vec![None; goals.len()];
        Self { goals, tables }
    }

    /// The cheapest cost from `v` to agent `agent`'s goal.
    pub(crate) fn get(&mut self, graph: &MoveGraph, agent: usize, v: u32) -> f64 {
        let goal = self.goals[agent];
        self.tables[agent]
            .get_or_insert_with(|| DistanceTable::new(graph, goal))
            .get(graph, v)
    }

    /// Drops agent `agent`'s table (it is built again if asked for).
    pub(crate) fn forget(&mut self, agent: usize) {
        self.tables[agent] = None;
    }
}

/// A multiply-rotate hasher for configurations (lists of vertices) and the solvers' (cell,
/// tick) keys: much faster than the standard hasher, and the keys are not chosen by an
/// adversary.
#[derive(Default, Clone, Copy)]
pub(crate) struct ConfigHasher(u64);

impl Hasher for ConfigHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
        for &b in chunks.remainder() {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }

    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }

    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
}

/// The hasher's builder, for `HashMap`.
pub(crate) type BuildConfigHasher = BuildHasherDefault<ConfigHasher>;

/// A hash map with the fast hasher.
pub(crate) type FastMap<K, V> = std::collections::HashMap<K, V, BuildConfigHasher>;

/// A hash set with the fast hasher.
pub(crate) type FastSet<K> = std::collections::HashSet<K, BuildConfigHasher>;
