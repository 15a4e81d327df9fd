//! Priority inheritance with backtracking (PIBT, Okumura et al. 2019/2022): one tick for all
//! agents at once. Agents choose in order of priority, each its free neighbour (or its own
//! cell) closest to its goal; an agent that wants a cell another agent stands on lends that
//! agent its priority, and the other must move away first — or, if it cannot, the first
//! tries its next choice. Priorities grow by one each tick an agent is away from its goal and
//! drop back below one when it arrives, so no agent waits for ever behind others. With
//! LaCAM3's swap (Okumura 2023), an agent that would push another back down a corridor the
//! other must come through steps back first and pulls it along, which dense teams need.
//!
//! [`Pibt::next`] is also LaCAM's successor generator, with some agents' next cells fixed by
//! its constraints. As a solver on its own ([`run`]), PIBT repeats ticks until everyone rests
//! on their goals: fast, with no guarantee on the cost, and incomplete — it can cycle for
//! ever on a solvable instance, so it gives up after a bounded number of ticks.

use super::graph::{Distances, MoveGraph, NONE, STOP_EVERY_AGENTS};
use super::model::Instance;
use super::outcome::{Budget, MapfOutcome, MapfSettings, Proof};
use super::plan::Plan;
use super::scatter::Scatter;
use super::setup;
use crate::rng::Rng;
use crate::search::SearchControl;

/// The most cells a plan of standalone PIBT may hold (agents × ticks): beyond, it gives up.
pub const PIBT_MAX_CELLS: usize = 64 << 20;

/// The most ticks standalone PIBT tries per cell of the map (and at least 1024 ticks),
/// within [`PIBT_MAX_CELLS`]: beyond, it gives up.
pub const PIBT_TICKS_PER_CELL: usize = 16;

/// The state of one tick's choices, kept between ticks so that nothing is allocated per tick.
#[derive(Clone, Debug)]
pub(crate) struct Pibt {
    /// The agent on each cell now, or [`NONE`].
    occupied_now: Vec<u32>,
    /// The agent that will be on each cell next, or [`NONE`].
    occupied_next: Vec<u32>,
    /// Each agent's next cell, or [`NONE`] while undecided.
    next: Vec<u32>,
    /// Each agent's goal.
    goals: Vec<u32>,
    rng: Rng,
    /// The agents' scattered paths, whose next cell each agent tries first.
    pub(crate) scatter: Scatter,
}

impl Pibt {
    /// Empty state for `cells` cells and agents with these goals.
    pub(crate) fn new(cells: usize, goals: Vec<u32>, seed: u64) -> Self {
        Self {
            occupied_now: vec![NONE; cells],
            occupied_next: vec![NONE; cells],
            next: vec![NONE; goals.len()],
            goals,
            rng: Rng::new(seed),
            scatter: Scatter::default(),
        }
    }

    /// The configuration after one tick from `from`: agents choose in `order`, and the agents
    /// of `fixed` go to the cells given there (each a move or a wait of the rule). `None` when
    /// the fixed moves conflict or some agent finds no cell, or when the budget ran out
    /// partway ([`Budget::interrupted`], asked every [`STOP_EVERY_AGENTS`] agents: a tick of
    /// thousands of agents may fill as many distance tables).
    pub(crate) fn next(
        &mut self,
        (graph, budget): (&MoveGraph, &Budget<'_>),
        distances: &mut Distances,
        from: &[u32],
        order: &[u32],
        fixed: &[(u32, u32)],
    ) -> Option<Vec<u32>> {
        for (i, &v) in from.iter().enumerate() {
            self.occupied_now[v as usize] = i as u32;
        }
        let long = order.len() > STOP_EVERY_AGENTS;
        let ok = self.fix(graph, from, fixed)
            && order.iter().enumerate().all(|(k, &i)| {
                if long && k % STOP_EVERY_AGENTS == 0 && k > 0 && budget.interrupted() {
                    return false;
                }
                self.next[i as usize] != NONE || self.choose(graph, distances, from, i as usize)
            });
        let answer = ok.then(|| self.next.clone());
        for (i, &v) in from.iter().enumerate() {
            self.occupied_now[v as usize] = NONE;
            let n = self.next[i];
            if n != NONE {
                self.occupied_next[n as usize] = NONE;
                self.next[i] = NONE;
            }
        }
        answer
    }

    /// Whether moving `i` from `from[i]` to `to` meets a decided agent: someone already going
    /// to `to`, someone coming the other way, or someone crossing the diagonal.
    fn blocked(&self, graph: &MoveGraph, from: &[u32], i: usize, to: u32) -> bool {
        if self.occupied_next[to as usize] != NONE {
            return true;
        }
        let here = from[i];
        let there = self.occupied_now[to as usize];
        if there != NONE && there as usize != i && self.next[there as usize] == here {
            return true;
        }
        if let Some((a, b)) = graph.diagonal_sides(here, to) {
            for (side, other) in [(a, b), (b, a)] {
                let k = self.occupied_now[side as usize];
                if k != NONE && self.next[k as usize] == other {
                    return true;
                }
            }
        }
        false
    }

    /// Applies the fixed moves; false when they conflict.
    fn fix(&mut self, graph: &MoveGraph, from: &[u32], fixed: &[(u32, u32)]) -> bool {
        for &(i, v) in fixed {
            if self.blocked(graph, from, i as usize, v) {
                return false;
            }
            self.occupied_next[v as usize] = i;
            self.next[i as usize] = v;
        }
        true
    }

    /// PIBT's choice for agent `i`, lending its priority to whoever stands on the cell it
    /// takes; false when it had to stay and could not.
    fn choose(
        &mut self,
        graph: &MoveGraph,
        distances: &mut Distances,
        from: &[u32],
        i: usize,
    ) -> bool {
        let here = from[i];
        let mut candidates = [(0.0f64, 0u64, NONE); 9];
        let mut n = 0;
        for &v in graph.neighbours(here).iter().chain(std::iter::once(&here)) {
            candidates[n] = (distances.get(graph, i, v), self.rng.next_u64(), v);
            n += 1;
        }
        let candidates = &mut candidates[..n];
        candidates.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        // The next cell of the agent's scattered path, if it is on it, goes first.
        if let Some(preferred) = self.scatter.preferred(i, here)
            && let Some(k) = candidates.iter().position(|c| c.2 == preferred)
        {
            candidates[..=k].rotate_right(1);
        }
        // LaCAM3's swap: when the agent ahead must come this way through a corridor, this
        // agent steps back first and pulls it along.
        let swap = self.swap_partner(graph, distances, from, i, candidates[0].2);
        if swap.is_some() {
            candidates.reverse();
        }
        for (k, &(_, _, v)) in candidates.iter().enumerate() {
            if self.blocked(graph, from, i, v) {
                continue;
            }
            self.occupied_next[v as usize] = i as u32;
            self.next[i] = v;
            let k_agent = self.occupied_now[v as usize];
            if k_agent != NONE
                && k_agent as usize != i
                && self.next[k_agent as usize] == NONE
                && !self.choose(graph, distances, from, k_agent as usize)
            {
                continue;
            }
            if k == 0
                && let Some(s) = swap
                && self.next[s] == NONE
                && !self.blocked(graph, from, s, here)
            {
                self.next[s] = here;
                self.occupied_next[here as usize] = s as u32;
            }
            return true;
        }
        self.occupied_next[here as usize] = i as u32;
        self.next[i] = here;
        false
    }

    /// The agent `i` should swap with, when its best cell `best` is across a narrow passage
    /// from an agent that must pass it (LaCAM3's cases: the agent on `best`, or a neighbour
    /// that `i` would otherwise push back down the corridor).
    fn swap_partner(
        &self,
        graph: &MoveGraph,
        distances: &mut Distances,
        from: &[u32],
        i: usize,
        best: u32,
    ) -> Option<usize> {
        let here = from[i];
        if best == here {
            return None;
        }
        let j = self.occupied_now[best as usize];
        if j != NONE
            && self.next[j as usize] == NONE
            && self.swap_required(graph, distances, i, j as usize, here, best)
            && self.swap_possible(graph, best, here)
        {
            return Some(j as usize);
        }
        for &u in graph.neighbours(here) {
            let k = self.occupied_now[u as usize];
            if k == NONE || best == u {
                continue;
            }
            if self.swap_required(graph, distances, k as usize, i, here, best)
                && self.swap_possible(graph, best, here)
            {
                return Some(k as usize);
            }
        }
        None
    }

    /// The neighbours of `at` that count for passing: all but `back` and the dead ends held
    /// by an agent resting on its goal; returns how many and the last one.
    fn open_ways(&self, graph: &MoveGraph, at: u32, back: u32) -> (usize, u32) {
        let mut count = 0;
        let mut last = NONE;
        for &u in graph.neighbours(at) {
            let a = self.occupied_now[u as usize];
            let resting_dead_end =
                graph.neighbours(u).len() == 1 && a != NONE && self.goals[a as usize] == u;
            if u != back && !resting_dead_end {
                count += 1;
                last = u;
            }
        }
        (count, last)
    }

    /// Whether `pusher` and `puller` must pass each other down the corridor ahead: walking
    /// it brings the pusher closer, there is no room to step aside, and the puller wants to
    /// go back the way the pusher comes.
    fn swap_required(
        &self,
        graph: &MoveGraph,
        distances: &mut Distances,
        pusher: usize,
        puller: usize,
        pusher_at: u32,
        puller_at: u32,
    ) -> bool {
        let (mut v_pusher, mut v_puller) = (pusher_at, puller_at);
        let mut steps = 0;
        while distances.get(graph, pusher, v_puller) < distances.get(graph, pusher, v_pusher) {
            let (count, next) = self.open_ways(graph, v_puller, v_pusher);
            if count >= 2 {
                return false;
            }
            if count == 0 {
                break;
            }
            v_pusher = v_puller;
            v_puller = next;
            steps += 1;
            if steps > graph.len() {
                return false;
            }
        }
        distances.get(graph, puller, v_pusher) < distances.get(graph, puller, v_puller)
            && (distances.get(graph, pusher, v_pusher) == 0.0
                || distances.get(graph, pusher, v_puller) < distances.get(graph, pusher, v_pusher))
    }

    /// Whether there is room to swap: walking the corridor from `pusher_at` through
    /// `puller_at` reaches a cell with two ways on before a dead end.
    fn swap_possible(&self, graph: &MoveGraph, pusher_at: u32, puller_at: u32) -> bool {
        let (mut v_pusher, mut v_puller) = (pusher_at, puller_at);
        let mut steps = 0;
        while v_puller != pusher_at && steps <= graph.len() {
            let (count, next) = self.open_ways(graph, v_puller, v_pusher);
            if count >= 2 {
                return true;
            }
            if count == 0 {
                return false;
            }
            v_pusher = v_puller;
            v_puller = next;
            steps += 1;
        }
        false
    }
}

/// The priorities after a tick: one more for every agent away from its goal, the fraction
/// alone for an agent on it.
pub(crate) fn update_priorities(priorities: &mut [f64], config: &[u32], goals: &[u32]) {
    for ((p, &v), &g) in priorities.iter_mut().zip(config).zip(goals) {
        if v == g {
            *p -= p.floor();
        } else {
            *p += 1.0;
        }
    }
}

/// The agents from the highest priority to the lowest.
pub(crate) fn order_of(priorities: &[f64]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..priorities.len() as u32).collect();
    order.sort_by(|&a, &b| priorities[b as usize].total_cmp(&priorities[a as usize]));
    order
}

/// The starting priorities: each agent's distance to its goal over the number of cells, so
/// that ties at the start go to the agents with farther to go.
pub(crate) fn initial_priorities(
    graph: &MoveGraph,
    distances: &mut Distances,
    starts: &[u32],
) -> Vec<f64> {
    let scale = graph.len() as f64 * 1e3;
    starts
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            let d = distances.get(graph, i, s);
            if d.is_finite() { d / scale } else { 0.0 }
        })
        .collect()
}

/// How many ticks or configurations pass between two looks at the clock for a team of
/// `agents`: 64 for a few agents, down to every one from 64 agents up, so that the time
/// between looks stays about that of 4,096 agent moves.
pub(crate) fn check_every(agents: usize) -> u64 {
    (4096 / agents.max(1)).clamp(1, 64) as u64
}

/// PIBT as a solver: ticks until every agent rests on its goal, or it gives up.
pub(crate) fn run(
    instance: &Instance,
    settings: &MapfSettings,
    control: &SearchControl,
    distances: Distances,
) -> MapfOutcome {
    let (budget, graph, (starts, goals)) = setup::begin(instance, settings, control);
    let mut distances = distances;
    if let Some(outcome) = setup::unreachable((&budget, &graph), &starts, &mut distances) {
        return outcome;
    }
    let mut outcome = MapfOutcome::without_plan(Proof::GaveUp);
    let mut pibt = Pibt::new(graph.len(), goals.clone(), settings.seed);
    let mut priorities = initial_priorities(&graph, &mut distances, &starts);
    let mut configs = vec![starts];
    let max_ticks =
        (PIBT_MAX_CELLS / goals.len().max(1)).min((PIBT_TICKS_PER_CELL * graph.len()).max(1024));
    while let Some(now) = configs.last() {
        if *now == goals {
            outcome.proof = Proof::Feasible;
            outcome.first_plan_time = Some(budget.elapsed());
            let cells: Vec<Vec<_>> = configs
                .iter()
                .map(|c| c.iter().map(|&v| graph.cell(v)).collect())
                .collect();
            outcome.plan = Some(Plan::from_configurations(&cells));
            break;
        }
        if configs.len() > max_ticks {
            break;
        }
        outcome.expanded += 1;
        if outcome.expanded.is_multiple_of(check_every(goals.len()))
            && budget.exhausted(outcome.expanded)
        {
            outcome.proof = budget.stopped().unwrap_or(Proof::TimedOut);
            break;
        }
        let order = order_of(&priorities);
        let Some(next) = pibt.next((&graph, &budget), &mut distances, now, &order, &[]) else {
            if let Some(stopped) = budget.stopped() {
                outcome.proof = stopped;
            }
            break;
        };
        update_priorities(&mut priorities, &next, &goals);
        configs.push(next);
    }
    outcome.conclude(&budget);
    outcome
}
