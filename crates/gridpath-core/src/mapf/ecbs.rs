//! Enhanced CBS (Barer et al. 2014): conflict-based search made bounded-suboptimal by
//! focal search at both levels. The low level returns, for each agent, a path within
//! `weight` × its cheapest under the constraints with the fewest conflicts, and that cheapest
//! cost's lower bound; the high level expands, among the nodes whose cost is within
//! `weight` × the least lower bound, the one with the fewest conflicts. The first node
//! without conflicts costs at most `weight` × the optimal sum of costs. It shares the
//! constraints, conflict detection and target reasoning of [CBS](super::cbs).

use std::collections::BinaryHeap;
use std::rc::Rc;

use super::cbs::{CBS_MAX_CELLS, Cbs, Conflict, find_conflicts};
use super::constraint::Constraint;
use super::graph::{Distances, MoveGraph, NONE};
use super::model::Instance;
use super::outcome::{Budget, MapfOutcome, MapfSettings, Proof};
use super::plan::Plan;
use crate::search::SearchControl;

/// A node of the bounded search: its paths, their costs and the agents' lower bounds.
struct FocalNode {
    parent: u32,
    constraint: Option<(u32, Constraint)>,
    paths: Vec<Rc<Vec<u32>>>,
    costs: Vec<f64>,
    lower: Vec<f64>,
    conflicts: usize,
    first: Option<Conflict>,
}

/// Enhanced CBS (Barer et al. 2014): focal search at both levels. The low level returns, for
/// each agent, a path within `weight` × its cheapest under the constraints with the fewest
/// conflicts, and that cheapest cost's lower bound; the high level expands, among the nodes
/// whose cost is within `weight` × the least lower bound, the one with the fewest conflicts.
/// The first node without conflicts costs at most `weight` × the optimal sum of costs.
pub(crate) fn run(
    instance: &Instance,
    settings: &MapfSettings,
    control: &SearchControl,
) -> MapfOutcome {
    use std::cmp::Reverse;
    use std::collections::BTreeSet;

    let weight = settings.weight;
    let budget = Budget::new(settings.time_limit, control);
    let stop = || budget.interrupted();
    let graph = MoveGraph::new(instance);
    let (starts, goals) = graph.ends(instance);
    let mut outcome = MapfOutcome::without_plan(Proof::NoSolution);
    let agents = starts.len();
    let mut cbs = Cbs {
        graph: &graph,
        distances: Distances::new(goals.clone()),
        starts,
        goals,
        nodes: Vec::new(),
        uniform: false,
        tick: 1.0,
        low_level_exhausted: false,
        stop: &stop,
        interrupted: false,
        pair_cache: Default::default(),
        symmetry: false,
        disjoint_targets: false,
    };
    let mut nodes: Vec<FocalNode> = Vec::new();
    let constraints_of = |nodes: &[FocalNode], node: u32, agent: u32| -> Vec<Constraint> {
        let mut out = Vec::new();
        let mut at = node;
        while at != NONE {
            let n = &nodes[at as usize];
            if let Some((a, c)) = n.constraint
                && a == agent
            {
                out.push(c);
            }
            at = n.parent;
        }
        out
    };
    let mut paths: Vec<Rc<Vec<u32>>> = Vec::with_capacity(agents);
    let (mut costs, mut lower) = (Vec::new(), Vec::new());
    for i in 0..agents as u32 {
        let Some((path, cost, lb)) = cbs.plan_within(i, &[], &paths, weight) else {
            if cbs.low_level_exhausted {
                outcome.proof = Proof::GaveUp;
            }
            if let Some(stopped) = budget.stopped() {
                outcome.proof = stopped;
            }
            outcome.time = budget.elapsed();
            return outcome;
        };
        paths.push(Rc::new(path));
        costs.push(cost);
        lower.push(lb);
    }
    let conflicts = find_conflicts(&graph, &paths);
    nodes.push(FocalNode {
        parent: NONE,
        constraint: None,
        conflicts: conflicts.len(),
        first: conflicts.first().copied(),
        paths,
        costs,
        lower,
    });
    let sum = |v: &[f64]| -> f64 { v.iter().sum() };
    let mut open: BTreeSet<(u64, u32)> = BTreeSet::new();
    let mut focal: BinaryHeap<Reverse<(usize, u64, u32)>> = BinaryHeap::new();
    let root_lb = sum(&nodes[0].lower);
    open.insert((root_lb.to_bits(), 0));
    focal.push(Reverse((
        nodes[0].conflicts,
        sum(&nodes[0].costs).to_bits(),
        0,
    )));
    let mut bound = weight * root_lb;
    while let Some(&(lb_bits, _)) = open.first() {
        outcome.expanded += 1;
        if budget.exhausted(outcome.expanded) {
            break;
        }
        if nodes.len() * agents > CBS_MAX_CELLS {
            outcome.proof = Proof::GaveUp;
            break;
        }
        let lb_min = f64::from_bits(lb_bits);
        if weight * lb_min > bound {
            let old = bound;
            bound = weight * lb_min;
            for &(_, id) in &open {
                let cost = sum(&nodes[id as usize].costs);
                if cost > old && cost <= bound {
                    focal.push(Reverse((nodes[id as usize].conflicts, cost.to_bits(), id)));
                }
            }
        }
        let Some(Reverse((_, _, id))) = focal.pop() else {
            break;
        };
        let node_lb = sum(&nodes[id as usize].lower);
        if !open.remove(&(node_lb.to_bits(), id)) {
            continue;
        }
        let Some(conflict) = nodes[id as usize].first else {
            let node = &nodes[id as usize];
            let end = node.paths.iter().map(|p| p.len()).max().unwrap_or(1);
            let configs: Vec<Vec<_>> = (0..end)
                .map(|t| {
                    node.paths
                        .iter()
                        .map(|p| graph.cell(p[t.min(p.len() - 1)]))
                        .collect()
                })
                .collect();
            outcome.plan = Some(Plan::from_configurations(&configs));
            outcome.proof = Proof::Bounded(weight);
            outcome.first_plan_time = Some(budget.elapsed());
            break;
        };
        for (agent, constraint) in [(conflict.a, conflict.on_a), (conflict.b, conflict.on_b)] {
            let mut constraints = constraints_of(&nodes, id, agent);
            constraints.push(constraint);
            let parent = &nodes[id as usize];
            let paths = parent.paths.clone();
            let Some((path, cost, lb)) = cbs.plan_within(agent, &constraints, &paths, weight)
            else {
                if cbs.low_level_exhausted || cbs.interrupted {
                    break;
                }
                continue;
            };
            let parent = &nodes[id as usize];
            let mut paths = paths;
            paths[agent as usize] = Rc::new(path);
            let mut costs = parent.costs.clone();
            costs[agent as usize] = cost;
            let mut lower = parent.lower.clone();
            lower[agent as usize] = lb.max(parent.lower[agent as usize]);
            let conflicts = find_conflicts(&graph, &paths);
            let child = nodes.len() as u32;
            let (child_lb, child_cost) = (sum(&lower), sum(&costs));
            open.insert((child_lb.to_bits(), child));
            if child_cost <= bound {
                focal.push(Reverse((conflicts.len(), child_cost.to_bits(), child)));
            }
            nodes.push(FocalNode {
                parent: id,
                constraint: Some((agent, constraint)),
                conflicts: conflicts.len(),
                first: conflicts.first().copied(),
                paths,
                costs,
                lower,
            });
        }
        if cbs.interrupted {
            break;
        }
        if cbs.low_level_exhausted {
            outcome.proof = Proof::GaveUp;
            break;
        }
    }
    if outcome.plan.is_none()
        && let Some(stopped) = budget.stopped()
    {
        outcome.proof = stopped;
    }
    outcome.time = budget.elapsed();
    outcome
}
