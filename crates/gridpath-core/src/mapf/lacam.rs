//! LaCAM (Okumura 2023): a search over configurations — where every agent is at one tick —
//! that asks PIBT for each next configuration, and LaCAM* (Okumura 2024), its anytime form.
//!
//! Each configuration the search reaches keeps a tree of *constraints*, built lazily and
//! breadth first: the root fixes nothing, a node at depth d fixes the next cells of the first
//! d agents in the configuration's priority order. Every visit of a configuration takes the
//! next node of its tree and asks PIBT for a successor that honours it. A node that fixes
//! every agent names one successor outright, so a configuration whose tree is used up has had
//! every successor tried: when every reached configuration is used up and none was the goal,
//! no plan exists. That is what makes LaCAM complete, and why it proves a corridor swap
//! impossible in milliseconds.
//!
//! LaCAM* goes on after the first plan: every configuration keeps the cheapest known way to
//! it (its cost *g*, the sum over ticks of the prices of the agents not resting on their
//! goals, the *sum of loss*), rewires its successors when a cheaper way appears, and drops
//! the configurations whose cost plus the sum of the agents' distances to their goals cannot
//! beat the best plan. When nothing is left to try, the best plan is optimal in sum of loss.

use std::collections::{HashMap, VecDeque};

use super::graph::{BuildConfigHasher, Distances, MoveGraph, NONE};
use super::model::Instance;
use super::outcome::{MapfOutcome, MapfSettings, Proof};
use super::pibt::{Pibt, check_every, initial_priorities, order_of, update_priorities};
use super::plan::Plan;
use super::{scatter, setup};
use crate::rng::Rng;
use crate::search::SearchControl;

/// The most agent entries LaCAM keeps (configurations and constraints, each agent of each
/// counted once; a configuration's priorities and order count three more): about half a
/// gigabyte. Beyond, it stops with the plan it has, or gives up.
pub const LACAM_MAX_CELLS: usize = 64 << 20;

/// LaCAM* goes back to the start once in this many visits of a known configuration.
const RESTART_EVERY: usize = 1000;

/// A node of a configuration's constraint tree: the fixed next cells of the first agents
/// in the configuration's order.
struct Constraint {
    /// (agent, cell) pairs, in the order's agents.
    fixed: Vec<(u32, u32)>,
}

/// A reached configuration.
struct Node {
    config: Box<[u32]>,
    parent: u32,
    /// The cheapest known cost from the start (sum of loss).
    g: f64,
    /// The sum of the agents' distances to their goals.
    h: f64,
    priorities: Vec<f64>,
    order: Vec<u32>,
    tree: VecDeque<Constraint>,
    /// The configurations reached from this one, with the cost of the tick.
    successors: Vec<(u32, f64)>,
}

/// The price of the tick from `from` to `to`: every agent's move or wait, except an agent
/// that rests on its goal throughout.
fn tick_cost(graph: &MoveGraph, goals: &[u32], from: &[u32], to: &[u32]) -> f64 {
    from.iter()
        .zip(to)
        .zip(goals)
        .filter(|((u, v), g)| !(u == g && v == g))
        .map(|((&u, &v), _)| graph.step_cost(u, v))
        .sum()
}

/// The search's working state.
struct Search<'a> {
    graph: &'a MoveGraph,
    goals: Vec<u32>,
    distances: Distances,
    nodes: Vec<Node>,
    seen: HashMap<Box<[u32]>, u32, BuildConfigHasher>,
    open: Vec<u32>,
    pibt: Pibt,
    rng: Rng,
    goal_node: u32,
}

impl Search<'_> {
    fn heuristic(&mut self, config: &[u32]) -> f64 {
        config
            .iter()
            .enumerate()
            .map(|(i, &v)| self.distances.get(self.graph, i, v))
            .sum()
    }

    fn add_node(&mut self, config: Box<[u32]>, parent: u32, g: f64, priorities: Vec<f64>) -> u32 {
        let h = self.heuristic(&config);
        let order = order_of(&priorities);
        let id = self.nodes.len() as u32;
        let mut tree = VecDeque::new();
        tree.push_back(Constraint { fixed: Vec::new() });
        self.seen.insert(config.clone(), id);
        self.nodes.push(Node {
            config,
            parent,
            g,
            h,
            priorities,
            order,
            tree,
            successors: Vec::new(),
        });
        id
    }

    /// Passes a cheaper cost on from `start` to everything reached from it.
    fn rewire(&mut self, start: u32) {
        let mut queue = VecDeque::from([start]);
        while let Some(a) = queue.pop_front() {
            let g_a = self.nodes[a as usize].g;
            for k in 0..self.nodes[a as usize].successors.len() {
                let (b, cost) = self.nodes[a as usize].successors[k];
                let g = g_a + cost;
                let node = &mut self.nodes[b as usize];
                if g < node.g - 1e-9 {
                    node.g = g;
                    node.parent = a;
                    queue.push_back(b);
                    if self.goal_node != NONE {
                        let best = self.nodes[self.goal_node as usize].g;
                        let node = &self.nodes[b as usize];
                        if node.g + node.h < best - 1e-9 {
                            self.open.push(b);
                        }
                    }
                }
            }
        }
    }

    /// The configurations from the start to `node`.
    fn ticks(&self, node: u32) -> usize {
        let mut ticks = 0;
        let mut at = node;
        while at != NONE {
            ticks += 1;
            at = self.nodes[at as usize].parent;
        }
        ticks
    }

    fn plan(&self) -> Plan {
        let mut configs = Vec::new();
        let mut at = self.goal_node;
        while at != NONE {
            let node = &self.nodes[at as usize];
            configs.push(node.config.iter().map(|&v| self.graph.cell(v)).collect());
            at = node.parent;
        }
        configs.reverse();
        Plan::from_configurations(&configs)
    }
}

/// LaCAM, or LaCAM* when `settings.anytime`.
pub(crate) fn run(
    instance: &Instance,
    settings: &MapfSettings,
    control: &SearchControl,
    distances: Distances,
) -> MapfOutcome {
    run_within(instance, settings, control, distances, LACAM_MAX_CELLS).0
}

/// How many agent entries a run of LaCAM kept: at most at once, and made in all.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Kept {
    /// The most held at one time: what the limit bounds.
    pub(crate) peak: usize,
    /// All that were made, freed ones included.
    pub(crate) made: usize,
}

/// [`run`] holding at most `max_cells` agent entries at once.
pub(crate) fn run_within(
    instance: &Instance,
    settings: &MapfSettings,
    control: &SearchControl,
    distances: Distances,
    max_cells: usize,
) -> (MapfOutcome, Kept) {
    let (budget, graph, (starts, goals)) = setup::begin(instance, settings, control);
    let mut outcome = MapfOutcome::without_plan(Proof::NoSolution);
    let pibt = Pibt::new(graph.len(), goals.clone(), settings.seed);
    let mut search = Search {
        graph: &graph,
        distances,
        goals,
        nodes: Vec::new(),
        seen: HashMap::default(),
        open: Vec::new(),
        pibt,
        rng: Rng::new(settings.seed ^ 0x5eed),
        goal_node: NONE,
    };
    if search.heuristic(&starts).is_infinite() {
        outcome.conclude(&budget);
        return (outcome, Kept::default());
    }
    if settings.scatter && search.goals.len() > 1 {
        // LaCAM3 gives the scatter half the time left.
        let now = budget.elapsed();
        let until = now + budget.limit().saturating_sub(now) / 2;
        search.pibt.scatter = scatter::scatter(
            (&graph, &budget),
            &mut search.distances,
            (&starts, &search.goals),
            settings.seed,
            until,
        );
    }
    let priorities = initial_priorities(&graph, &mut search.distances, &starts);
    let root = search.add_node(starts.into_boxed_slice(), NONE, 0.0, priorities);
    search.open.push(root);
    let agents = search.goals.len();
    let mut candidates: Vec<u32> = Vec::with_capacity(9);
    // The agent entries held now: configurations with their priorities and order, and the
    // constraints not yet tried (a constraint tried is dropped, and its entries with it).
    let mut stored = agents;
    let mut kept = Kept {
        peak: stored,
        made: stored,
    };
    let mut memory_full = false;
    while let Some(&top) = search.open.last() {
        outcome.expanded += 1;
        if outcome.expanded.is_multiple_of(check_every(agents))
            && budget.exhausted(outcome.expanded)
        {
            break;
        }
        kept.peak = kept.peak.max(stored);
        if stored > max_cells {
            memory_full = true;
            budget.memory_full();
            break;
        }
        let node = &search.nodes[top as usize];
        if search.goal_node != NONE {
            let best = search.nodes[search.goal_node as usize].g;
            if top == search.goal_node || node.g + node.h >= best - 1e-9 {
                search.open.pop();
                continue;
            }
        } else if *node.config == *search.goals {
            search.goal_node = top;
            outcome.first_plan_time = Some(budget.elapsed());
            budget.reserve_for_plan(search.ticks(top) * agents);
            if !settings.anytime {
                break;
            }
            search.open.pop();
            continue;
        }
        let Some(constraint) = search.nodes[top as usize].tree.pop_front() else {
            search.open.pop();
            continue;
        };
        // Tried now, and dropped at the end of this round.
        stored -= constraint.fixed.len();
        let node = &search.nodes[top as usize];
        let depth = constraint.fixed.len();
        if depth < agents {
            let i = node.order[depth];
            let here = node.config[i as usize];
            candidates.clear();
            candidates.extend_from_slice(graph.neighbours(here));
            candidates.push(here);
            search.rng.shuffle(&mut candidates);
            let mut children = Vec::with_capacity(candidates.len());
            for &v in &candidates {
                let mut fixed = Vec::with_capacity(depth + 1);
                fixed.extend_from_slice(&constraint.fixed);
                fixed.push((i, v));
                children.push(Constraint { fixed });
            }
            stored += children.len() * (depth + 1);
            kept.made += children.len() * (depth + 1);
            search.nodes[top as usize].tree.extend(children);
        }
        let node = &search.nodes[top as usize];
        let Some(next) = search.pibt.next(
            (&graph, &budget),
            &mut search.distances,
            &node.config,
            &node.order,
            &constraint.fixed,
        ) else {
            if budget.stopped().is_some() {
                break;
            }
            continue;
        };
        let node = &search.nodes[top as usize];
        let cost = tick_cost(&graph, &search.goals, &node.config, &next);
        let g = node.g + cost;
        if let Some(&known) = search.seen.get(next.as_slice()) {
            search.nodes[top as usize].successors.push((known, cost));
            if settings.anytime {
                search.rewire(top);
            }
            let best = if search.goal_node == NONE {
                f64::INFINITY
            } else {
                search.nodes[search.goal_node as usize].g
            };
            // Now and then LaCAM* goes back to the start instead (LaCAM3's restarts): the
            // search then leaves the region where it went deep first.
            let again = if settings.anytime && search.rng.below(RESTART_EVERY) == 0 {
                root
            } else {
                known
            };
            let k = &search.nodes[again as usize];
            if k.g + k.h < best - 1e-9 {
                search.open.push(again);
            }
            continue;
        }
        let mut priorities = node.priorities.clone();
        update_priorities(&mut priorities, &next, &search.goals);
        stored += 4 * agents;
        kept.made += 4 * agents;
        let child = search.add_node(next.into_boxed_slice(), top, g, priorities);
        search.nodes[top as usize].successors.push((child, cost));
        search.open.push(child);
    }
    if search.goal_node != NONE {
        outcome.plan = Some(search.plan());
        outcome.proof = match budget.stopped() {
            None if settings.anytime && !memory_full => Proof::OptimalLoss,
            _ => Proof::Feasible,
        };
    } else if let Some(stopped) = budget.stopped() {
        outcome.proof = stopped;
    } else if memory_full {
        outcome.proof = Proof::GaveUp;
    }
    outcome.conclude(&budget);
    (outcome, kept)
}
