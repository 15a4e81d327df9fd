//! What the solvers share: the passable cells as numbered vertices with their moves and
//! prices, each agent's distance table to its goal (filled lazily) and a hasher for
//! configurations. The [validator](super::validate) uses none of
//! it.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

use super::model::{Instance, Moves};
use crate::grid::Cell;

/// No vertex, no agent.
pub(crate) const NONE: u32 = u32::MAX;

/// The loops over agents that may fill distance tables (the lower bound, PIBT's tick) read
/// the clock once per this many agents: a table filled from scratch takes up to a sweep of
/// the map, so a few of them, not thousands, pass between two looks.
pub(crate) const STOP_EVERY_AGENTS: usize = 16;

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
        let uniform = one_price(instance.moves(), cost.iter().flatten().copied());
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
///
/// On a map of one price (breadth-first search) a cell keeps its number of moves from the goal
/// in two bytes, four once some cell lies 65,535 moves away, and its cost is read from the
/// costs of k moves that [`Distances`] shares between the agents; on weighted maps (Dijkstra)
/// a cell keeps its cost in eight bytes and whether it is settled in a bit.
#[derive(Clone, Debug)]
pub(crate) struct DistanceTable {
    store: Store,
    queue: VecDeque<u32>,
    heap: BinaryHeap<EntryBox>,
}

/// A table's distances.
#[derive(Clone, Debug)]
enum Store {
    /// Moves from the goal, [`u16::MAX`] while unknown.
    Short(Vec<u16>),
    /// Moves from the goal, [`u32::MAX`] while unknown.
    Long(Vec<u32>),
    /// Costs from the goal (infinite while unknown) and one bit a cell for settled.
    Costs { dist: Vec<f64>, settled: Vec<u64> },
}

/// Whether moves all cost one price: the four-neighbour rule over passable cells (`costs`) of
/// one terrain cost. Then a distance is a number of moves (breadth-first search).
pub(crate) fn one_price(moves: Moves, mut costs: impl Iterator<Item = f64>) -> bool {
    let first = costs.next();
    moves == Moves::Four && costs.all(|c| Some(c) == first)
}

/// The bytes a distance table takes for each cell of a map, by whether the map has one price:
/// what [`Distances`] reserves before a solver starts.
pub(crate) fn table_bytes_per_cell(uniform: bool) -> f64 {
    if uniform { 2.0 } else { 8.0 + 1.0 / 8.0 }
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
    fn new(graph: &MoveGraph, goal: u32) -> Self {
        let mut table = Self {
            store: Store::Short(Vec::new()),
            queue: VecDeque::new(),
            heap: BinaryHeap::new(),
        };
        if graph.uniform {
            let mut steps = vec![u16::MAX; graph.len()];
            steps[goal as usize] = 0;
            table.store = Store::Short(steps);
            table.queue.push_back(goal);
        } else {
            let mut dist = vec![f64::INFINITY; graph.len()];
            dist[goal as usize] = 0.0;
            table.store = Store::Costs {
                dist,
                settled: vec![0; graph.len().div_ceil(64)],
            };
            table.heap.push(EntryBox(Entry {
                cost: 0.0,
                vertex: goal,
            }));
        }
        table
    }

    /// The moves from the goal to `v`, `None` while unknown (breadth-first tables only).
    fn moves(&self, v: u32) -> Option<u32> {
        match &self.store {
            Store::Short(steps) => {
                let s = steps[v as usize];
                (s != u16::MAX).then_some(u32::from(s))
            }
            Store::Long(steps) => {
                let s = steps[v as usize];
                (s != u32::MAX).then_some(s)
            }
            Store::Costs { .. } => None,
        }
    }

    /// Records `moves` for `v`, widening the table when the moves do not fit two bytes.
    fn set_moves(&mut self, v: u32, moves: u32) {
        if let Store::Short(steps) = &self.store
            && moves >= u32::from(u16::MAX)
        {
            let wide = steps
                .iter()
                .map(|&s| {
                    if s == u16::MAX {
                        u32::MAX
                    } else {
                        u32::from(s)
                    }
                })
                .collect();
            self.store = Store::Long(wide);
        }
        match &mut self.store {
            Store::Short(steps) => steps[v as usize] = moves as u16,
            Store::Long(steps) => steps[v as usize] = moves,
            Store::Costs { .. } => {}
        }
    }

    /// The cheapest cost from `v` to the goal; infinite when the goal cannot be reached.
    /// `prefix[k]` is the cost of k moves on a map of one price, extended as needed.
    fn get(&mut self, graph: &MoveGraph, v: u32, prefix: &mut Vec<f64>) -> f64 {
        if graph.uniform {
            let moves = loop {
                if let Some(moves) = self.moves(v) {
                    break moves as usize;
                }
                let Some(u) = self.queue.pop_front() else {
                    return f64::INFINITY;
                };
                let next = self.moves(u).unwrap_or(0) + 1;
                for &n in graph.neighbours(u) {
                    if self.moves(n).is_none() {
                        self.set_moves(n, next);
                        self.queue.push_back(n);
                    }
                }
            };
            // The cost of k moves is added up move by move, as the search from the goal did
            // before the tables kept moves, so costs stay the same to the last bit.
            while prefix.len() <= moves {
                let last = prefix[prefix.len() - 1];
                prefix.push(last + graph.step_cost(v, v));
            }
            return prefix[moves];
        }
        let Store::Costs { dist, settled } = &mut self.store else {
            return f64::INFINITY;
        };
        let is_settled = |settled: &[u64], u: u32| settled[u as usize / 64] >> (u % 64) & 1 == 1;
        while !is_settled(settled, v) {
            let Some(EntryBox(Entry { cost, vertex: u })) = self.heap.pop() else {
                break;
            };
            if is_settled(settled, u) {
                continue;
            }
            settled[u as usize / 64] |= 1 << (u % 64);
            for &n in graph.neighbours(u) {
                let c = cost + graph.step_cost(u, n);
                if c < dist[n as usize] {
                    dist[n as usize] = c;
                    self.heap.push(EntryBox(Entry { cost: c, vertex: n }));
                }
            }
        }
        dist[v as usize]
    }
}

/// Every agent's distance table, built when first asked for.
#[derive(Clone, Debug)]
pub(crate) struct Distances {
    goals: Vec<u32>,
    tables: Vec<Option<DistanceTable>>,
    /// The cost of k moves on a map of one price, shared by the tables; never empty.
    prefix: Vec<f64>,
}

impl Distances {
    /// Tables for these goals, none built yet.
    pub(crate) fn new(goals: Vec<u32>) -> Self {
        let tables = vec![None; goals.len()];
        Self {
            goals,
            tables,
            prefix: vec![0.0],
        }
    }

    /// Tables for the goals of an instance's agents, none built yet.
    pub(crate) fn for_goals_of(instance: &Instance) -> Self {
        let width = instance.grid().width();
        Self::new(
            instance
                .agents()
                .iter()
                .map(|a| a.goal.y * width + a.goal.x)
                .collect(),
        )
    }

    /// The sum over agents of each one's cheapest cost from its start to its goal: the lower
    /// bound of every plan. Keeps the tables it fills. Asks `stop` before every
    /// [`STOP_EVERY_AGENTS`] agents' tables, and when it says so, stops with the sum of the
    /// agents done so far (a weaker bound) and `false`.
    pub(crate) fn sum_from_starts(
        &mut self,
        instance: &Instance,
        stop: &dyn Fn() -> bool,
    ) -> (f64, bool) {
        let graph = MoveGraph::new(instance);
        let mut sum = 0.0;
        for (i, a) in instance.agents().iter().enumerate() {
            if i % STOP_EVERY_AGENTS == 0 && stop() {
                return (sum, false);
            }
            sum += self.get(&graph, i, graph.vertex(a.start));
        }
        (sum, true)
    }

    /// The cheapest cost from `v` to agent `agent`'s goal.
    pub(crate) fn get(&mut self, graph: &MoveGraph, agent: usize, v: u32) -> f64 {
        let goal = self.goals[agent];
        self.tables[agent]
            .get_or_insert_with(|| DistanceTable::new(graph, goal))
            .get(graph, v, &mut self.prefix)
    }

    /// Drops agent `agent`'s table (it is built again if asked for).
    pub(crate) fn forget(&mut self, agent: usize) {
        self.tables[agent] = None;
    }
}

pub(crate) use crate::fast_hash::{BuildConfigHasher, FastMap};

/// A hash set with the fast hasher.
pub(crate) type FastSet<K> = std::collections::HashSet<K, BuildConfigHasher>;
