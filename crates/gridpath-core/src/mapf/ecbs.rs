//! Enhanced CBS (Barer et al. 2014): conflict-based search made bounded-suboptimal by
//! focal search at both levels. The low level returns, for each agent, a path within
//! `weight` × its cheapest under the constraints with the fewest conflicts, and that cheapest
//! cost's lower bound; the high level expands, among the nodes whose cost is within
//! `weight` × the least lower bound, the one with the fewest conflicts. The first node
//! without conflicts costs at most `weight` × the optimal sum of costs. It shares the
//! constraints, conflict detection and target reasoning of [CBS](super::cbs).

use std::collections::BinaryHeap;
use std::rc::Rc;

use super::cbs::{CBS_MAX_CELLS, Cbs};
use super::conflicts::{Conflict, ConflictTables};
use super::constraint::Constraint;
use super::graph::{Distances, MoveGraph, NONE};
use super::model::Instance;
use super::outcome::{Budget, MapfOutcome, MapfSettings, Proof};
use super::plan::Plan;
use super::setup;
use crate::search::SearchControl;

/// A node of the bounded search: its paths, their costs and the agents' lower bounds.
pub(super) struct FocalNode {
    /// The node it was split from; `NONE` at the root.
    pub(super) parent: u32,
    /// The agent and the constraint the split added.
    pub(super) constraint: Option<(u32, Constraint)>,
    /// Each agent's path, a cell index a tick.
    pub(super) paths: Vec<Rc<Vec<u32>>>,
    /// Each agent's path cost.
    pub(super) costs: Vec<f64>,
    /// A lower bound on each agent's cheapest cost under its constraints.
    pub(super) lower: Vec<f64>,
    /// How many conflicts the paths have.
    pub(super) conflicts: usize,
    /// The conflict to split on; `None` when the paths have none.
    pub(super) first: Option<Conflict>,
}

impl FocalNode {
    /// The sum of the paths' costs.
    pub(super) fn cost(&self) -> f64 {
        self.costs.iter().sum()
    }

    /// The sum of the agents' lower bounds: at most the optimal sum of costs under the
    /// node's constraints.
    pub(super) fn lower_bound(&self) -> f64 {
        self.lower.iter().sum()
    }

    /// The node's paths as a plan, each agent resting on its goal after its last move.
    pub(super) fn plan(&self, graph: &MoveGraph) -> Plan {
        let end = self.paths.iter().map(|p| p.len()).max().unwrap_or(1);
        let configs: Vec<Vec<_>> = (0..end)
            .map(|t| {
                self.paths
                    .iter()
                    .map(|p| graph.cell(p[t.min(p.len() - 1)]))
                    .collect()
            })
            .collect();
        Plan::from_configurations(&configs)
    }
}

/// The low level of the bounded searches: CBS's constraints and conflict detection with a
/// focal search per agent.
pub(super) fn low_level<'a>(
    graph: &'a MoveGraph,
    (starts, goals): (Vec<u32>, Vec<u32>),
    stop: &'a dyn Fn() -> bool,
    distances: Distances,
) -> Cbs<'a> {
    Cbs {
        graph,
        distances,
        starts,
        goals,
        nodes: Vec::new(),
        uniform: false,
        tick: 1.0,
        low_level_exhausted: false,
        stop,
        interrupted: false,
        pair_cache: Default::default(),
        symmetry: false,
        disjoint_targets: false,
        disjoint_splits: false,
        tables: ConflictTables::default(),
        marks: Vec::new(),
    }
}

/// The constraints on `agent` along the branch from the root to `node`.
pub(super) fn constraints_of(nodes: &[FocalNode], node: u32, agent: u32) -> Vec<Constraint> {
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
}

/// The root: each agent's path within `weight` of its cheapest, planned in turn with the
/// fewest conflicts with the paths before it; `None` when some agent has none (or the low
/// level stopped).
pub(super) fn root(cbs: &mut Cbs<'_>, agents: usize, weight: f64) -> Option<FocalNode> {
    let mut paths: Vec<Rc<Vec<u32>>> = Vec::with_capacity(agents);
    let (mut costs, mut lower) = (Vec::new(), Vec::new());
    for i in 0..agents as u32 {
        let (path, cost, lb) = cbs.plan_within(i, &[], &paths, weight)?;
        paths.push(Rc::new(path));
        costs.push(cost);
        lower.push(lb);
    }
    let conflicts = cbs.tables.find(cbs.graph, &paths);
    Some(FocalNode {
        parent: NONE,
        constraint: None,
        conflicts: conflicts.len(),
        first: conflicts.first().copied(),
        paths,
        costs,
        lower,
    })
}

/// The child of node `id` that adds `constraint` on `agent`, with the agent's path planned
/// again within `weight`; `None` when the agent has none (or the low level stopped).
pub(super) fn child(
    cbs: &mut Cbs<'_>,
    nodes: &[FocalNode],
    id: u32,
    agent: u32,
    constraint: Constraint,
    weight: f64,
) -> Option<FocalNode> {
    let mut constraints = constraints_of(nodes, id, agent);
    constraints.push(constraint);
    let parent = &nodes[id as usize];
    let mut paths = parent.paths.clone();
    let (path, cost, lb) = cbs.plan_within(agent, &constraints, &paths, weight)?;
    paths[agent as usize] = Rc::new(path);
    let mut costs = parent.costs.clone();
    costs[agent as usize] = cost;
    let mut lower = parent.lower.clone();
    lower[agent as usize] = lb.max(parent.lower[agent as usize]);
    let conflicts = cbs.tables.find(cbs.graph, &paths);
    Some(FocalNode {
        parent: id,
        constraint: Some((agent, constraint)),
        conflicts: conflicts.len(),
        first: conflicts.first().copied(),
        paths,
        costs,
        lower,
    })
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
    distances: Distances,
) -> MapfOutcome {
    use std::cmp::Reverse;
    use std::collections::BTreeSet;

    let weight = settings.weight;
    let (budget, graph, (starts, goals)) = setup::begin(instance, settings, control);
    let stop = || budget.interrupted();
    let mut outcome = MapfOutcome::without_plan(Proof::NoSolution);
    let agents = instance.agents().len();
    let mut cbs = low_level(&graph, (starts, goals), &stop, distances);
    let Some(root) = root(&mut cbs, agents, weight) else {
        return without_root(outcome, &cbs, &budget);
    };
    let mut nodes: Vec<FocalNode> = vec![root];
    let mut open: BTreeSet<(u64, u32)> = BTreeSet::new();
    let mut focal: BinaryHeap<Reverse<(usize, u64, u32)>> = BinaryHeap::new();
    let root_lb = nodes[0].lower_bound();
    open.insert((root_lb.to_bits(), 0));
    focal.push(Reverse((nodes[0].conflicts, nodes[0].cost().to_bits(), 0)));
    let mut bound = weight * root_lb;
    let mut proved = f64::NEG_INFINITY;
    while let Some(&(lb_bits, _)) = open.first() {
        outcome.expanded += 1;
        if budget.exhausted(outcome.expanded) {
            break;
        }
        if nodes.len() * agents > CBS_MAX_CELLS {
            outcome.proof = Proof::GaveUp;
            budget.memory_full();
            break;
        }
        let lb_min = f64::from_bits(lb_bits);
        // The least lower bound in the open list bounds every plan.
        proved = proved.max(lb_min);
        if weight * lb_min > bound {
            let old = bound;
            bound = weight * lb_min;
            for &(_, id) in &open {
                let cost = nodes[id as usize].cost();
                if cost > old && cost <= bound {
                    focal.push(Reverse((nodes[id as usize].conflicts, cost.to_bits(), id)));
                }
            }
        }
        let Some(Reverse((_, _, id))) = focal.pop() else {
            break;
        };
        let node_lb = nodes[id as usize].lower_bound();
        if !open.remove(&(node_lb.to_bits(), id)) {
            continue;
        }
        let Some(conflict) = nodes[id as usize].first else {
            outcome.plan = Some(nodes[id as usize].plan(&graph));
            outcome.proof = Proof::Bounded(weight);
            outcome.first_plan_time = Some(budget.elapsed());
            break;
        };
        for (agent, constraint) in [(conflict.a, conflict.on_a), (conflict.b, conflict.on_b)] {
            let Some(node) = child(&mut cbs, &nodes, id, agent, constraint, weight) else {
                if cbs.low_level_exhausted || cbs.interrupted {
                    break;
                }
                continue;
            };
            let child = nodes.len() as u32;
            let (child_lb, child_cost) = (node.lower_bound(), node.cost());
            open.insert((child_lb.to_bits(), child));
            if child_cost <= bound {
                focal.push(Reverse((node.conflicts, child_cost.to_bits(), child)));
            }
            nodes.push(node);
        }
        if cbs.interrupted {
            break;
        }
        if cbs.low_level_exhausted {
            outcome.proof = Proof::GaveUp;
            break;
        }
    }
    finish(outcome, &budget, proved)
}

/// The outcome when the root has no paths: the low level gave up, was stopped, or some
/// agent cannot reach its goal at all.
pub(super) fn without_root(
    mut outcome: MapfOutcome,
    cbs: &Cbs<'_>,
    budget: &Budget<'_>,
) -> MapfOutcome {
    if cbs.low_level_exhausted {
        outcome.proof = Proof::GaveUp;
    }
    if let Some(stopped) = budget.stopped() {
        outcome.proof = stopped;
    }
    outcome.conclude(budget);
    outcome
}

/// The outcome at the end of a search: stopped or cancelled when it has no plan and the
/// budget ran out, the bound `proved` (the greatest least lower bound of the open list; none
/// when nothing was expanded), and the time taken.
pub(super) fn finish(mut outcome: MapfOutcome, budget: &Budget<'_>, proved: f64) -> MapfOutcome {
    if proved.is_finite() {
        outcome.proved_bound = Some(proved);
    }
    if outcome.plan.is_none()
        && let Some(stopped) = budget.stopped()
    {
        outcome.proof = stopped;
    }
    outcome.conclude(budget);
    outcome
}
