//! Space utilisation before the search (LaCAM3's *scatter*, after Han & Yu 2022): each agent
//! gets a path at most a few steps dearer than its cheapest that meets the other agents'
//! paths as little as it can, and PIBT tries the next cell of that path first.
//!
//! The paths are found in sweeps. In a sweep every agent, in a random order, takes its path
//! out of the shared table of who is where when, and plans again with an A* over cells (a
//! cell is closed once, so a path never comes back on itself) that prefers, before cost, the
//! fewest *collisions* with the paths in the table: another agent on the cell at that tick,
//! one coming the other way along the move, or one already resting on the cell for good. A
//! path may cost at most the agent's cheapest plus the margin. The sweeps go on while they
//! lower the collisions (at least two), until none are left, or until their share of the
//! time has passed. Nothing here decides a move: the paths only order PIBT's choices, so a
//! plan stays as valid, and LaCAM as complete, as without them.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::graph::{Distances, FastMap, MoveGraph, NONE, STOP_EVERY_AGENTS};
use super::outcome::Budget;
use crate::rng::Rng;

/// How many of the least step's price a scattered path may cost above the agent's cheapest
/// (LaCAM3's default margin: 10 moves).
pub(crate) const SCATTER_MARGIN: f64 = 10.0;

/// The most sweeps over the agents.
const MAX_SWEEPS: usize = 16;

/// Each agent's preferred next cell from the cells of its scattered path.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scatter {
    next: Vec<FastMap<u32, u32>>,
    /// The collisions left between the paths (read by the tests).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) collisions: u64,
}

impl Scatter {
    /// The next cell of agent `agent`'s path from `at`, if its path goes through `at`.
    pub(crate) fn preferred(&self, agent: usize, at: u32) -> Option<u32> {
        self.next.get(agent)?.get(&at).copied()
    }
}

/// Who is where when: the agents on each cell at each tick, and the ticks from which agents
/// rest on each cell for good (their paths' ends).
struct Table {
    /// For each cell, the agents on it at each tick (empty lists for ticks of none).
    body: Vec<Vec<Vec<u32>>>,
    /// For each cell, the ticks at which paths end there.
    last: Vec<Vec<u32>>,
    /// The collisions between the paths entered.
    collisions: u64,
}

impl Table {
    fn new(cells: usize) -> Self {
        Self {
            body: vec![Vec::new(); cells],
            last: vec![Vec::new(); cells],
            collisions: 0,
        }
    }

    fn at(&self, v: u32, t: usize) -> &[u32] {
        self.body[v as usize].get(t).map_or(&[], Vec::as_slice)
    }

    /// The collisions of a move from `from` at tick `t` to `to` at `t + 1` with the paths
    /// in the table.
    fn cost(&self, from: u32, to: u32, t: usize) -> u64 {
        let mut n = self.at(to, t + 1).len() as u64;
        if from != to {
            let coming = self.at(from, t + 1);
            n += self.at(to, t).iter().filter(|j| coming.contains(j)).count() as u64;
        }
        n + self.last[to as usize]
            .iter()
            .filter(|&&end| (t + 1) as u32 > end)
            .count() as u64
    }

    fn enter(&mut self, agent: u32, path: &[u32]) {
        let Some(&end) = path.last() else { return };
        for (t, &v) in path.iter().enumerate() {
            if t > 0 {
                self.collisions += self.cost(path[t - 1], v, t - 1);
            }
            let ticks = &mut self.body[v as usize];
            if ticks.len() <= t {
                ticks.resize_with(t + 1, Vec::new);
            }
            ticks[t].push(agent);
        }
        let arrival = path.len() - 1;
        self.last[end as usize].push(arrival as u32);
        let later: usize = self.body[end as usize]
            .iter()
            .skip(arrival + 1)
            .map(Vec::len)
            .sum();
        self.collisions += later as u64;
    }

    fn remove(&mut self, agent: u32, path: &[u32]) {
        let Some(&end) = path.last() else { return };
        for (t, &v) in path.iter().enumerate() {
            let list = &mut self.body[v as usize][t];
            if let Some(k) = list.iter().position(|&j| j == agent) {
                list.swap_remove(k);
            }
            if t > 0 {
                self.collisions -= self.cost(path[t - 1], v, t - 1);
            }
        }
        let arrival = (path.len() - 1) as u32;
        let ends = &mut self.last[end as usize];
        if let Some(k) = ends.iter().position(|&e| e == arrival) {
            ends.swap_remove(k);
        }
        let later: usize = self.body[end as usize]
            .iter()
            .skip(arrival as usize + 1)
            .map(Vec::len)
            .sum();
        self.collisions -= later as u64;
    }
}

/// An A* entry: fewest collisions first, then the least cost plus estimate, then the cell.
type Entry = Reverse<(u64, u64, u32)>;

/// The paths' search state, kept between agents.
struct Finder {
    /// Each cell's parent once closed ([`NONE`] while open; the start is its own parent).
    parent: Vec<u32>,
    /// The cells closed, to reopen them for the next agent.
    used: Vec<u32>,
    /// The open entries.
    heap: BinaryHeap<Entry>,
    /// The entries' (cell, parent, cost, tick), indexed by the entry's last field.
    entries: Vec<(u32, u32, f64, u32)>,
}

impl Finder {
    /// A finder for a map of `cells` cells.
    fn new(cells: usize) -> Self {
        Self {
            parent: vec![NONE; cells],
            used: Vec::new(),
            heap: BinaryHeap::new(),
            entries: Vec::new(),
        }
    }

    /// Agent `i`'s path from `start` to `goal` of cost at most `bound` with the fewest
    /// collisions with `table`; `None` when none is found.
    fn path(
        &mut self,
        graph: &MoveGraph,
        distances: &mut Distances,
        table: &Table,
        i: usize,
        (start, goal): (u32, u32),
        bound: f64,
    ) -> Option<Vec<u32>> {
        // Costs as integers in millionths of the least step, so that the heap orders exactly.
        let unit = graph.least_step.max(f64::MIN_POSITIVE) * 1e-6;
        let key = |c: f64| (c / unit).round() as u64;
        self.heap.clear();
        self.entries.clear();
        let h = distances.get(graph, i, start);
        self.entries.push((start, start, 0.0, 0));
        self.heap.push(Reverse((0, key(h), 0)));
        let mut found = false;
        while let Some(Reverse((collisions, _, e))) = self.heap.pop() {
            let (v, from, g, t) = self.entries[e as usize];
            if self.parent[v as usize] != NONE {
                continue;
            }
            self.parent[v as usize] = from;
            self.used.push(v);
            if v == goal {
                found = true;
                break;
            }
            for &u in graph.neighbours(v) {
                if u == start || self.parent[u as usize] != NONE {
                    continue;
                }
                let g_u = g + graph.step_cost(v, u);
                let h_u = distances.get(graph, i, u);
                if g_u + h_u > bound + 1e-9 {
                    continue;
                }
                let c = collisions + table.cost(v, u, t as usize);
                let id = self.entries.len() as u32;
                self.entries.push((u, v, g_u, t + 1));
                self.heap.push(Reverse((c, key(g_u + h_u), id)));
            }
        }
        let path = found.then(|| {
            let mut path = vec![goal];
            let mut at = goal;
            while at != start {
                at = self.parent[at as usize];
                path.push(at);
            }
            path.reverse();
            path
        });
        for &v in &self.used {
            self.parent[v as usize] = NONE;
        }
        self.used.clear();
        path
    }
}

/// Scatters the agents' paths (see the module), within `budget` and until `share_until`
/// has passed of it (LaCAM3 gives it half the time left).
pub(crate) fn scatter(
    (graph, budget): (&MoveGraph, &Budget<'_>),
    distances: &mut Distances,
    (starts, goals): (&[u32], &[u32]),
    seed: u64,
    share_until: std::time::Duration,
) -> Scatter {
    let agents = starts.len();
    let mut rng = Rng::new(seed ^ 0x5ca7);
    let mut table = Table::new(graph.len());
    let mut finder = Finder::new(graph.len());
    let mut paths: Vec<Vec<u32>> = vec![Vec::new(); agents];
    let mut best = paths.clone();
    let mut last = u64::MAX;
    let mut order: Vec<usize> = (0..agents).collect();
    let mut sweeps = 0;
    let out_of_time = |budget: &Budget<'_>| budget.interrupted() || budget.elapsed() >= share_until;
    'sweeps: while sweeps < MAX_SWEEPS && (sweeps < 2 || table.collisions < last) {
        last = table.collisions;
        rng.shuffle(&mut order);
        for (k, &i) in order.iter().enumerate() {
            if k % STOP_EVERY_AGENTS == 0 && out_of_time(budget) {
                break 'sweeps;
            }
            let bound = distances.get(graph, i, starts[i]) + SCATTER_MARGIN * graph.least_step;
            table.remove(i as u32, &paths[i]);
            if let Some(path) =
                finder.path(graph, distances, &table, i, (starts[i], goals[i]), bound)
            {
                paths[i] = path;
            }
            table.enter(i as u32, &paths[i]);
        }
        sweeps += 1;
        best.clone_from(&paths);
        if table.collisions == 0 {
            break;
        }
    }
    let next = best
        .iter()
        .map(|path| path.windows(2).map(|w| (w[0], w[1])).collect())
        .collect();
    Scatter {
        next,
        collisions: table.collisions,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::mapf::stop_tests::crossing;
    use crate::search::SearchControl;

    #[test]
    fn scattered_paths_are_walks_to_the_goals_within_the_margin_and_collide_less() {
        let crowd = crossing(16, 48);
        let graph = MoveGraph::new(&crowd);
        let (starts, goals) = graph.ends(&crowd);
        let control = SearchControl::new();
        let budget = Budget::new(crate::mapf::MAX_TIME_LIMIT, &control);
        let mut distances = Distances::for_goals_of(&crowd);
        let scatter = scatter(
            (&graph, &budget),
            &mut distances,
            (&starts, &goals),
            7,
            crate::mapf::MAX_TIME_LIMIT,
        );
        // Each agent's preferred cells lead from its start to its goal by moves, at most the
        // margin dearer than its cheapest.
        for i in 0..starts.len() {
            let (mut at, mut cost) = (starts[i], 0.0);
            while let Some(next) = scatter.preferred(i, at) {
                assert!(graph.neighbours(at).contains(&next), "agent {i}");
                cost += graph.step_cost(at, next);
                at = next;
                assert!(cost < 1e4, "agent {i} goes round in circles");
            }
            assert_eq!(at, goals[i], "agent {i}");
            let cheapest = distances.get(&graph, i, starts[i]);
            assert!(
                cost <= cheapest + SCATTER_MARGIN + 1e-9,
                "agent {i}: {cost}"
            );
        }
        // The same agents on cheapest paths, each planned without regard for the others.
        let mut alone = Table::new(graph.len());
        let empty = Table::new(graph.len());
        let mut finder = Finder::new(graph.len());
        for i in 0..starts.len() {
            let cheapest = distances.get(&graph, i, starts[i]);
            let path = finder
                .path(
                    &graph,
                    &mut distances,
                    &empty,
                    i,
                    (starts[i], goals[i]),
                    cheapest,
                )
                .unwrap();
            alone.enter(i as u32, &path);
        }
        assert!(
            scatter.collisions < alone.collisions,
            "{} against {}",
            scatter.collisions,
            alone.collisions
        );
    }

    #[test]
    fn the_collision_count_comes_back_to_zero_when_every_path_is_taken_out() {
        let crowd = crossing(8, 16);
        let graph = MoveGraph::new(&crowd);
        let (starts, goals) = graph.ends(&crowd);
        let mut distances = Distances::for_goals_of(&crowd);
        let mut table = Table::new(graph.len());
        let mut finder = Finder::new(graph.len());
        let mut paths = Vec::new();
        for i in 0..starts.len() {
            let bound = distances.get(&graph, i, starts[i]) + 4.0;
            let path = finder
                .path(
                    &graph,
                    &mut distances,
                    &table,
                    i,
                    (starts[i], goals[i]),
                    bound,
                )
                .unwrap();
            table.enter(i as u32, &path);
            paths.push(path);
        }
        for (i, path) in paths.iter().enumerate().rev() {
            table.remove(i as u32, path);
        }
        assert_eq!(table.collisions, 0);
    }
}
