//! Explicit Estimation CBS (Li, Ruml & Koenig 2021): ECBS's focal low level under a high level
//! that runs explicit estimation search (Thayer & Ruml 2011). Each node has three numbers:
//! its lower bound LB (the sum of the agents' lower bounds), its cost, and its conflicts. The
//! search learns online, from each expansion's best child, the average one-step errors of the
//! cost and of the conflicts; from them it estimates a node's distance to go
//! `d̂ = conflicts / (1 − ε̄_d)` and its cost to go `ĥ = d̂ · ε̄_c`. It keeps three orderings
//! of the open nodes — CLEANUP by LB, OPEN by `f̂ = cost + ĥ`, and FOCAL, the nodes of OPEN
//! with f̂ ≤ `weight` × the least f̂, by d̂ (at any moment one learnt factor times the
//! conflicts for every node, so FOCAL sorts by the conflicts) — and expands FOCAL's best if it costs at most `weight`
//! × the least LB, else OPEN's best if it does, else CLEANUP's best. Every node costs at
//! most `weight` × its own LB, so the node it expands always costs at most `weight` × the
//! least LB, and the first node without conflicts at most `weight` × the optimal sum of costs.
//! It bypasses a split when a child costs within that bound and has fewer conflicts: the node
//! takes the child's path and stays open. ECBS's nodes, root and children are shared with
//! [ECBS](super::ecbs).

use std::collections::BTreeSet;
use std::ops::Bound::{Excluded, Included};

use super::cbs::CBS_MAX_CELLS;
use super::ecbs::{FocalNode, child, finish, low_level, root, without_root};
use super::graph::Distances;
use super::model::Instance;
use super::outcome::{MapfOutcome, MapfSettings, Proof};
use super::setup;
use crate::search::SearchControl;

/// A node's place in the three orderings, fixed when it is opened.
#[derive(Clone, Copy)]
struct Keys {
    /// The sum of the agents' lower bounds.
    lower: f64,
    /// The sum of the paths' costs.
    cost: f64,
    /// The estimated sum of costs of the nearest node without conflicts below it.
    f_hat: f64,
    /// The paths' conflicts: FOCAL's order, the same as by the estimated distance to go d̂
    /// (at any moment one learnt factor times the conflicts for every node).
    conflicts: usize,
}

/// The average one-step errors of the cost and of the conflicts, learnt from the best child
/// of every expansion.
#[derive(Default)]
struct Errors {
    cost: f64,
    distance: f64,
    steps: u32,
}

impl Errors {
    /// Learns from one expansion: the best child's cost rose by `cost_step` and its conflicts
    /// changed from `parent` to `child` (a perfect estimate would drop them by one).
    fn learn(&mut self, cost_step: f64, parent: usize, child: usize) {
        self.cost += cost_step;
        self.distance += child as f64 + 1.0 - parent as f64;
        self.steps += 1;
    }

    /// The estimated cost to go `ĥ = d̂ · ε̄_c` of a node with `conflicts` conflicts, where
    /// `d̂ = conflicts / (1 − ε̄_d)` (infinite when the conflicts do not fall on average).
    fn cost_to_go(&self, conflicts: usize) -> f64 {
        let d = conflicts as f64;
        if self.steps == 0 || conflicts == 0 {
            return 0.0;
        }
        let steps = f64::from(self.steps);
        let (cost, distance) = (self.cost / steps, self.distance / steps);
        let d_hat = if distance < 1.0 {
            d / (1.0 - distance)
        } else {
            f64::INFINITY
        };
        if cost > 0.0 { d_hat * cost } else { 0.0 }
    }
}

/// A key of a non-negative number that sorts as the number does.
fn bits(x: f64) -> u64 {
    x.max(0.0).to_bits()
}

/// The open nodes in EES's three orderings.
struct Lists {
    /// By the lower bound.
    cleanup: BTreeSet<(u64, u32)>,
    /// By f̂, then conflicts.
    open: BTreeSet<(u64, usize, u32)>,
    /// The nodes of `open` with f̂ at most the weight × `threshold`, by d̂, then f̂.
    focal: BTreeSet<(usize, u64, u32)>,
    /// The least f̂ that `focal` was built for.
    threshold: f64,
    weight: f64,
}

impl Lists {
    fn new(weight: f64) -> Self {
        Lists {
            cleanup: BTreeSet::new(),
            open: BTreeSet::new(),
            focal: BTreeSet::new(),
            threshold: 0.0,
            weight,
        }
    }

    fn focal_key(keys: &Keys, id: u32) -> (usize, u64, u32) {
        (keys.conflicts, bits(keys.f_hat), id)
    }

    fn insert(&mut self, keys: &Keys, conflicts: usize, id: u32) {
        if self.open.is_empty() {
            self.threshold = keys.f_hat;
        }
        self.cleanup.insert((bits(keys.lower), id));
        self.open.insert((bits(keys.f_hat), conflicts, id));
        if keys.f_hat <= self.weight * self.threshold {
            self.focal.insert(Self::focal_key(keys, id));
        }
    }

    fn remove(&mut self, keys: &Keys, conflicts: usize, id: u32) {
        self.cleanup.remove(&(bits(keys.lower), id));
        self.open.remove(&(bits(keys.f_hat), conflicts, id));
        self.focal.remove(&Self::focal_key(keys, id));
    }

    /// Moves the focal threshold to the least f̂ in `open`: the nodes between the old and the
    /// new bound join or leave `focal`.
    fn update_focal(&mut self, keys: &[Keys]) {
        let Some(&(least, _, _)) = self.open.first() else {
            return;
        };
        let least = f64::from_bits(least);
        let (old, new) = (
            bits(self.weight * self.threshold),
            bits(self.weight * least),
        );
        self.threshold = least;
        let (lo, hi, join) = match old.cmp(&new) {
            std::cmp::Ordering::Less => (old, new, true),
            std::cmp::Ordering::Greater => (new, old, false),
            std::cmp::Ordering::Equal => return,
        };
        let range = (
            Excluded((lo, usize::MAX, u32::MAX)),
            Included((hi, usize::MAX, u32::MAX)),
        );
        for &(_, _, id) in self.open.range(range) {
            let key = Self::focal_key(&keys[id as usize], id);
            if join {
                self.focal.insert(key);
            } else {
                self.focal.remove(&key);
            }
        }
    }

    /// EES's choice: FOCAL's best if it costs at most the weight × the least lower bound,
    /// else OPEN's best if it does, else CLEANUP's best; with that least lower bound.
    fn select(&mut self, keys: &[Keys]) -> Option<(u32, f64)> {
        self.update_focal(keys);
        let &(lower, cleanup_best) = self.cleanup.first()?;
        let lower = f64::from_bits(lower);
        let bound = self.weight * lower;
        let within = |id: u32| keys[id as usize].cost <= bound;
        if let Some(&(_, _, id)) = self.focal.first()
            && within(id)
        {
            return Some((id, lower));
        }
        if let Some(&(_, _, id)) = self.open.first()
            && within(id)
        {
            return Some((id, lower));
        }
        Some((cleanup_best, lower))
    }
}

/// Explicit Estimation CBS: ECBS's focal low level under explicit estimation search at the
/// high level, with online learning of the estimates and bypass. The first node without
/// conflicts costs at most `weight` × the optimal sum of costs.
pub(crate) fn run(
    instance: &Instance,
    settings: &MapfSettings,
    control: &SearchControl,
    distances: Distances,
) -> MapfOutcome {
    let weight = settings.weight;
    let (budget, graph, (starts, goals)) = setup::begin(instance, settings, control);
    let stop = || budget.interrupted();
    let mut outcome = MapfOutcome::without_plan(Proof::NoSolution);
    let agents = instance.agents().len();
    let mut cbs = low_level(&graph, (starts, goals), &stop, distances);
    let Some(root) = root(&mut cbs, agents, weight) else {
        return without_root(outcome, &cbs, &budget);
    };
    let mut errors = Errors::default();
    let keys_of = |node: &FocalNode, errors: &Errors| -> Keys {
        let cost = node.cost();
        Keys {
            lower: node.lower_bound(),
            cost,
            f_hat: cost + errors.cost_to_go(node.conflicts),
            conflicts: node.conflicts,
        }
    };
    let mut lists = Lists::new(weight);
    let mut keys = vec![keys_of(&root, &errors)];
    lists.insert(&keys[0], root.conflicts, 0);
    let mut nodes = vec![root];
    let mut proved = f64::NEG_INFINITY;
    while let Some((id, lower)) = lists.select(&keys) {
        outcome.expanded += 1;
        // The least lower bound in CLEANUP bounds every plan.
        proved = proved.max(lower);
        if budget.exhausted(outcome.expanded) {
            break;
        }
        if nodes.len() * agents > CBS_MAX_CELLS {
            outcome.proof = Proof::GaveUp;
            budget.memory_full();
            break;
        }
        let at = id as usize;
        lists.remove(&keys[at], nodes[at].conflicts, id);
        let Some(conflict) = nodes[at].first else {
            outcome.plan = Some(nodes[at].plan(&graph));
            outcome.proof = Proof::Bounded(weight);
            outcome.first_plan_time = Some(budget.elapsed());
            break;
        };
        let mut children = Vec::with_capacity(2);
        for (agent, constraint) in [(conflict.a, conflict.on_a), (conflict.b, conflict.on_b)] {
            let Some(node) = child(&mut cbs, &nodes, id, agent, constraint, weight) else {
                if cbs.low_level_exhausted || cbs.interrupted {
                    break;
                }
                continue;
            };
            children.push((agent, node));
        }
        if cbs.interrupted {
            break;
        }
        if cbs.low_level_exhausted {
            outcome.proof = Proof::GaveUp;
            break;
        }
        // Bypass: a child within the bound with fewer conflicts lends the node its path; the
        // node keeps its own constraints and lower bounds, which the path also meets.
        let parent_conflicts = nodes[at].conflicts;
        let bypass = children
            .iter()
            .filter(|(_, c)| c.conflicts < parent_conflicts && c.cost() <= weight * lower)
            .min_by_key(|(_, c)| c.conflicts);
        if let Some((agent, by)) = bypass {
            let a = *agent as usize;
            let node = &mut nodes[at];
            node.paths[a] = by.paths[a].clone();
            node.costs[a] = by.costs[a];
            node.conflicts = by.conflicts;
            node.first = by.first;
            keys[at] = keys_of(node, &errors);
            lists.insert(&keys[at], node.conflicts, id);
            continue;
        }
        if let Some((_, best)) = children.iter().min_by(|(_, a), (_, b)| {
            a.conflicts
                .cmp(&b.conflicts)
                .then(a.cost().total_cmp(&b.cost()))
        }) {
            errors.learn(
                best.cost() - nodes[at].cost(),
                parent_conflicts,
                best.conflicts,
            );
        }
        for (_, node) in children {
            let child_id = nodes.len() as u32;
            keys.push(keys_of(&node, &errors));
            lists.insert(&keys[child_id as usize], node.conflicts, child_id);
            nodes.push(node);
        }
    }
    finish(outcome, &budget, proved)
}
