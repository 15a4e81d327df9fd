//! Conflict-based search (Sharon et al. 2015) for plans of the least sum of costs, with the
//! improvements of ICBS, CBSH and CBSH2-RTC (Boyarski et al. 2015, Felner et al. 2018, Li et
//! al. 2019–2021):
//!
//! - The high level is a best-first search over sets of constraints. Each node holds one
//!   cheapest path per agent under its constraints; the first node whose paths do not
//!   conflict is optimal.
//! - **Prioritised conflicts.** Under uniform costs (the benchmark's rule) each agent's
//!   multi-valued decision diagram (the cells on some cheapest path at each tick, under the
//!   node's constraints) tells whether a conflict is *cardinal* (splitting it raises both
//!   agents' costs), *semi-cardinal* or neither; cardinal conflicts are split first.
//! - **Weighted dependency heuristic.** Each pair of agents in conflict is solved alone under
//!   the node's constraints (a small search, cached by the pair's constraints; when cut short,
//!   the least cost in its open list bounds the pair); the least weighted vertex cover of those
//!   extra costs ([`dependency_bound`](super::dependency::dependency_bound), in
//!   `dependency.rs`) is an admissible estimate added to a node's cost when it is first
//!   taken from the open list, never below the bound the node was queued at (path-max), and
//!   inherited by its children.
//!   Under uniform costs a pair whose decision diagrams hold two paths that miss each other
//!   (the test of CBSH's dependency graph) needs nothing extra and is not searched.
//! - **Target reasoning**, split disjointly (Li et al. 2019). When one agent rests on its goal
//!   and another passes it, either the first arrives for the last time later, or it has arrived
//!   for good by then and every other agent is barred from the goal from that tick on (each
//!   agent whose path goes there is planned again). No plan lives in both children.
//! - **Disjoint splitting of vertex and swap conflicts** (Li et al. 2019). One child keeps
//!   one agent off the cell (or the move); the other demands it of that agent, which is
//!   there already, and keeps every other agent off it. No plan lives in both children, so
//!   the tree holds fewer nodes of one cost: 50 agents of random-32-32-20 take 55,156 nodes
//!   where the plain split took 132,454. The low level prunes states that cannot reach a
//!   demanded cell in time and adds the cost still owed up to it to its estimate.
//! - **Conflict order.** Cardinal first, then semi-cardinal, then the rest; within a class
//!   target conflicts, then rectangles and corridors, then the others, each by tick (the order
//!   of CBSH2-RTC). Taking target conflicts first made 50 agents of random-32-32-20 reachable.
//! - **Symmetry reasoning** (in [`symmetry`](super::symmetry)). A vertex conflict of two agents crossing a
//!   rectangle on shortest paths is split by *barriers* (a side of the rectangle each, cell by
//!   cell at the tick it would be reached); a head-on conflict in a corridor by *ranges* (each
//!   agent kept off the far end of the corridor until the other could have come through).
//!   Each side is a list of vertex constraints added at once; the split takes the place of
//!   the plain one when it is at least as cardinal, and among conflicts of one class these
//!   go next after the target conflicts.
//! - **Bypass.** When a child's new path costs no more and leaves fewer conflicts, the parent
//!   takes the path instead of being split.
//! - Low-level ties go to the path with the fewest conflicts with the other agents' paths.
//!
//! On weighted terrain or under the eight-neighbour rule the search stays optimal, without
//! the decision diagrams or the symmetry reasoning (target conflicts are split first, the
//! rest by tick, with a greedy matching for the estimate).

use std::collections::BinaryHeap;
use std::rc::Rc;

use super::agent_rules::{AgentRules, Avoidance};
use super::conflicts::{Conflict, ConflictTables};
use super::constraint::Constraint;
use super::dependency::{dependency_bound, matching_bound};
use super::graph::{Distances, FastMap, FastSet, MoveGraph, NONE};
use super::mdd::Mdd;
use super::model::Instance;
use super::outcome::{MapfOutcome, MapfSettings, Proof};
use super::plan::Plan;
use super::setup;
use super::space_time::{self, LowLevel, Rules};
use super::symmetry::{self, SymmetrySplit};
use crate::search::SearchControl;

/// A node of the constraint tree (its fields are CBS's own).
pub(super) struct Node {
    parent: u32,
    /// The constraints the node adds for one agent (one, or a rectangle's barrier).
    constraint: Option<(u32, Vec<Constraint>)>,
    /// A demand on one agent (`Constraint::ArriveBy`, `At` or `Through`), and what it implies
    /// kept from every other agent (the side of a disjoint split that fixes the agent).
    forced: Option<(u32, Constraint)>,
    paths: Vec<Rc<Vec<u32>>>,
    costs: Vec<f64>,
    cost: f64,
    /// The heuristic estimate added to the cost, once computed (`None` before).
    h: Option<f64>,
    conflicts: Vec<Conflict>,
    mdds: Vec<MddSlot>,
    /// The extra cost of each pair of agents in conflict (see `Cbs::prioritise`).
    /// (a sorted list: a node holds a few, and the open nodes are many).
    deltas: Vec<((u32, u32), f64)>,
    /// The barriers or ranges that split the first conflict, when it is in a rectangle or a
    /// corridor (set with the estimate).
    rectangle: Option<SymmetrySplit>,
}

/// An agent's decision diagram in a node.
#[derive(Clone)]
enum MddSlot {
    /// Not built yet.
    Empty,
    /// Built for the node.
    Built(Rc<Mdd>),
    /// A diagram of the same length under fewer constraints (the agent's cost is unchanged):
    /// it holds every cheapest path under the node's, which are found by filtering it.
    Wider(Rc<Mdd>),
}

impl MddSlot {
    /// The slot once constraints are added and the agent's cost stays.
    fn widened(&self) -> MddSlot {
        match self {
            MddSlot::Built(m) | MddSlot::Wider(m) => MddSlot::Wider(Rc::clone(m)),
            MddSlot::Empty => MddSlot::Empty,
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
struct Queued {
    f: f64,
    conflicts: usize,
    id: u32,
}

impl Eq for Queued {}

impl Ord for Queued {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other
            .f
            .total_cmp(&self.f)
            .then_with(|| other.conflicts.cmp(&self.conflicts))
            .then_with(|| self.id.cmp(&other.id))
    }
}

impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The search's working state (shared with ECBS).
pub(super) struct Cbs<'a> {
    pub(super) graph: &'a MoveGraph,
    pub(super) starts: Vec<u32>,
    pub(super) goals: Vec<u32>,
    pub(super) distances: Distances,
    pub(super) nodes: Vec<Node>,
    /// Whether prices are uniform and moves orthogonal: decision diagrams apply.
    pub(super) uniform: bool,
    /// The price of one tick under uniform costs.
    pub(super) tick: f64,
    pub(super) low_level_exhausted: bool,
    /// Asked by the low-level searches whether the solver must stop.
    pub(super) stop: &'a dyn Fn() -> bool,
    /// Whether a low-level search was stopped by it.
    pub(super) interrupted: bool,
    /// The extra cost of each pair of agents under each pair of constraint sets met so far
    /// (see [`Cbs::pair_delta`]).
    pub(super) pair_cache: FastMap<PairKey, Option<f64>>,
    /// Whether vertex conflicts in rectangles are split by barriers (uniform costs only).
    pub(super) symmetry: bool,
    /// Whether target conflicts are split disjointly (see [`Reasoning`]).
    pub(super) disjoint_targets: bool,
    /// Whether vertex and swap conflicts are split disjointly (see [`Reasoning`]).
    pub(super) disjoint_splits: bool,
    /// The tables [`ConflictTables::find`] works in.
    pub(super) tables: ConflictTables,
    /// A mark per cell for building decision diagrams, all 0 between builds.
    pub(super) marks: Vec<u32>,
}

/// The optional reasoning of conflict-based search, each kept apart for the tests that check
/// it against the search without it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Reasoning {
    /// Rectangle and corridor reasoning (uniform costs and four neighbours only).
    pub(super) symmetry: bool,
    /// Disjoint splitting of target conflicts (Li et al. 2019): the side that keeps an agent
    /// off another's goal also fixes that agent's last arrival by the tick and keeps every
    /// agent off the goal from then on, so no plan lives in both children.
    pub(super) disjoint_targets: bool,
    /// Disjoint splitting of vertex and swap conflicts (Li et al. 2019): one side keeps an
    /// agent off the cell (or the move), the other demands it of the agent and keeps every
    /// other agent off it.
    pub(super) disjoint_splits: bool,
}

impl Reasoning {
    /// Every reasoning on.
    pub(super) const ALL: Reasoning = Reasoning {
        symmetry: true,
        disjoint_targets: true,
        disjoint_splits: true,
    };
}

/// Two agents and their constraints, each set sorted.
pub(super) type PairKey = (u32, u32, [Vec<Constraint>; 2]);

impl<'a> Cbs<'a> {
    /// The search of the agents from `starts` to `goals` on `graph`, with no nodes yet.
    fn new(
        graph: &'a MoveGraph,
        starts: Vec<u32>,
        goals: Vec<u32>,
        stop: &'a dyn Fn() -> bool,
        reasoning: Reasoning,
        distances: Distances,
    ) -> Self {
        let tick = (0..graph.len() as u32)
            .find(|&v| !graph.neighbours(v).is_empty())
            .map_or(1.0, |v| graph.step_cost(v, v));
        Cbs {
            graph,
            distances,
            starts,
            goals,
            nodes: Vec::new(),
            uniform: graph.uniform,
            tick,
            low_level_exhausted: false,
            stop,
            interrupted: false,
            pair_cache: FastMap::default(),
            symmetry: reasoning.symmetry && graph.uniform,
            disjoint_targets: reasoning.disjoint_targets,
            disjoint_splits: reasoning.disjoint_splits,
            tables: ConflictTables::default(),
            marks: Vec::new(),
        }
    }

    /// Adds the root: every agent's cheapest path, each avoiding the ones planned before it
    /// where that costs nothing. `false` when some agent has no path (or the search stopped).
    fn push_root(&mut self) -> bool {
        let agents = self.starts.len();
        let mut paths: Vec<Rc<Vec<u32>>> = Vec::with_capacity(agents);
        let mut costs = Vec::with_capacity(agents);
        for i in 0..agents as u32 {
            let Some((path, cost)) = self.plan(i, &[], &paths) else {
                return false;
            };
            paths.push(Rc::new(path));
            costs.push(cost);
        }
        let conflicts = self.tables.find(self.graph, &paths);
        self.nodes.push(Node {
            parent: NONE,
            constraint: None,
            forced: None,
            cost: costs.iter().sum(),
            paths,
            costs,
            h: None,
            conflicts,
            mdds: vec![MddSlot::Empty; agents],
            deltas: Vec::new(),
            rectangle: None,
        });
        true
    }
}

impl<'a> Cbs<'a> {
    fn constraints_of(&self, node: u32, agent: u32) -> Vec<Constraint> {
        let mut out = Vec::new();
        let mut at = node;
        while at != NONE {
            let n = &self.nodes[at as usize];
            if let Some((a, c)) = &n.constraint
                && *a == agent
            {
                out.extend_from_slice(c);
            }
            if let Some((j, c)) = n.forced {
                if j == agent {
                    out.push(c);
                } else {
                    out.extend(c.implied(self.goals[j as usize]));
                }
            }
            at = n.parent;
        }
        out
    }

    fn rules(
        &self,
        agent: u32,
        constraints: &[Constraint],
        paths: &[Rc<Vec<u32>>],
    ) -> AgentRules<'a> {
        let goal = self.goals[agent as usize];
        let mut rules = AgentRules {
            vertex: FastSet::with_capacity_and_hasher(constraints.len(), Default::default()),
            barriers: Vec::new(),
            moves: FastSet::default(),
            goal_after: 0,
            arrive_by: u32::MAX,
            demands: Vec::new(),
            graph: self.graph,
            goal,
            horizon: 0,
            avoid: Avoidance::new(self.graph.len(), agent, paths),
        };
        let mut last = 0;
        for &c in constraints {
            match c {
                Constraint::Vertex { v, t } => {
                    rules.vertex.insert((v, t));
                    if v == goal {
                        rules.goal_after = rules.goal_after.max(t + 1);
                    }
                    last = last.max(t);
                }
                Constraint::Move { u, v, t } => {
                    rules.moves.insert((u, v, t));
                    last = last.max(t);
                }
                Constraint::Barrier { v, t } => {
                    rules.barriers.push((v, t));
                    last = last.max(t);
                }
                Constraint::ArriveAfter { t } => {
                    rules.goal_after = rules.goal_after.max(t + 1);
                    last = last.max(t);
                }
                Constraint::ArriveBy { t } => {
                    rules.arrive_by = rules.arrive_by.min(t);
                    last = last.max(t);
                }
                Constraint::At { v, t } => {
                    rules.demands.push((t, v, 0.0));
                    if v != goal {
                        // Not resting on the goal before it has been there.
                        rules.goal_after = rules.goal_after.max(t + 1);
                    }
                    last = last.max(t);
                }
                Constraint::Through { u, v, t } => {
                    rules.demands.push((t - 1, u, 0.0));
                    rules.demands.push((t, v, 0.0));
                    // A move at `t`: not resting anywhere before.
                    rules.goal_after = rules.goal_after.max(t + 1);
                    last = last.max(t);
                }
            }
        }
        for (i, path) in paths.iter().enumerate() {
            if i as u32 != agent {
                last = last.max(path.len() as u32);
            }
        }
        rules.horizon = last + 1;
        rules.demands.sort_unstable_by_key(|d| (d.0, d.1));
        rules.demands.dedup_by_key(|d| (d.0, d.1));
        rules
    }

    /// The rules of `agent` for a low-level search: [`Cbs::rules`] with the cost on from each
    /// demanded cell.
    fn search_rules(
        &mut self,
        agent: u32,
        constraints: &[Constraint],
        paths: &[Rc<Vec<u32>>],
    ) -> AgentRules<'a> {
        let mut rules = self.rules(agent, constraints, paths);
        for d in &mut rules.demands {
            d.2 = self.distances.get(self.graph, agent as usize, d.1);
        }
        rules
    }

    /// Plans one agent under its constraints by focal search within `weight`: the path, its
    /// cost and a lower bound on the agent's cheapest cost; `None` when it cannot.
    pub(super) fn plan_within(
        &mut self,
        agent: u32,
        constraints: &[Constraint],
        paths: &[Rc<Vec<u32>>],
        weight: f64,
    ) -> Option<(Vec<u32>, f64, f64)> {
        let rules = self.search_rules(agent, constraints, paths);
        let graph = self.graph;
        let distances = &mut self.distances;
        let (found, lower) = space_time::focal_search(
            graph,
            self.starts[agent as usize],
            self.goals[agent as usize],
            &rules,
            weight,
            self.stop,
            |v| distances.get(graph, agent as usize, v),
        );
        match found {
            LowLevel::Found(path, cost) => Some((path, cost, lower)),
            LowLevel::NoPath => None,
            LowLevel::Stopped => {
                self.interrupted = true;
                None
            }
            LowLevel::Exhausted => {
                self.low_level_exhausted = true;
                None
            }
        }
    }

    /// Plans one agent under its constraints; `None` when it cannot.
    fn plan(
        &mut self,
        agent: u32,
        constraints: &[Constraint],
        paths: &[Rc<Vec<u32>>],
    ) -> Option<(Vec<u32>, f64)> {
        let rules = self.search_rules(agent, constraints, paths);
        let graph = self.graph;
        let distances = &mut self.distances;
        let found = space_time::search(
            graph,
            self.starts[agent as usize],
            self.goals[agent as usize],
            &rules,
            self.stop,
            |v| distances.get(graph, agent as usize, v),
        );
        match found {
            LowLevel::Found(path, cost) => Some((path, cost)),
            LowLevel::NoPath => None,
            LowLevel::Stopped => {
                self.interrupted = true;
                None
            }
            LowLevel::Exhausted => {
                self.low_level_exhausted = true;
                None
            }
        }
    }

    /// The child of `node` that adds `added` for `agent` (and, with `forced`, demands of
    /// another agent what it already does — its last arrival, a cell or a move — and keeps
    /// every other agent off it), every agent whose path breaks the new constraints planned
    /// again; `None` when one of them has no path (or the search stopped).
    fn split_child(
        &mut self,
        node: u32,
        agent: u32,
        added: Vec<Constraint>,
        forced: Option<(u32, Constraint)>,
    ) -> Option<Node> {
        let parent = &self.nodes[node as usize];
        let mut paths = parent.paths.clone();
        let mut costs = parent.costs.clone();
        let mut mdds = parent.mdds.clone();
        let mut deltas = parent.deltas.clone();
        let mut replanned = vec![agent];
        let mut implied = Vec::new();
        if let Some((j, demand)) = forced {
            implied = demand.implied(self.goals[j as usize]);
            for (k, path) in paths.iter().enumerate() {
                let k = k as u32;
                if k == agent || k == j {
                    continue;
                }
                if implied.iter().any(|c| c.broken_by(path)) {
                    replanned.push(k);
                } else if let MddSlot::Built(m) = &mdds[k as usize]
                    && implied.iter().any(|&c| m.may_break(c))
                {
                    // The diagram loses cheapest paths: filtered on demand.
                    mdds[k as usize] = mdds[k as usize].widened();
                }
            }
            // The agent's path meets the demand already (its cost stands), but its diagram
            // may hold cheapest paths that do not.
            if !matches!(demand, Constraint::ArriveBy { .. }) {
                mdds[j as usize] = mdds[j as usize].widened();
            }
        }
        for &k in &replanned {
            let mut constraints = self.constraints_of(node, k);
            if k == agent {
                constraints.extend_from_slice(&added);
            }
            constraints.extend_from_slice(&implied);
            let (path, cost) = self.plan(k, &constraints, &paths)?;
            paths[k as usize] = Rc::new(path);
            mdds[k as usize] = if (cost - costs[k as usize]).abs() < 1e-9 {
                mdds[k as usize].widened()
            } else {
                MddSlot::Empty
            };
            costs[k as usize] = cost;
            deltas.retain(|&((x, y), _)| x != k && y != k);
        }
        let parent = &self.nodes[node as usize];
        let cost = parent.cost
            + replanned
                .iter()
                .map(|&k| costs[k as usize] - parent.costs[k as usize])
                .sum::<f64>();
        let conflicts = self.tables.find(self.graph, &paths);
        Some(Node {
            parent: node,
            constraint: Some((agent, added)),
            forced,
            paths,
            costs,
            cost,
            h: None,
            conflicts,
            mdds,
            deltas,
            rectangle: None,
        })
    }

    /// The decision diagram of an agent's cheapest paths of `path`'s length under its
    /// constraints (uniform costs only); from `wider`, a diagram of that length under fewer
    /// constraints, when there is one.
    fn mdd(
        &mut self,
        agent: u32,
        constraints: &[Constraint],
        path: &[u32],
        wider: Option<&Mdd>,
    ) -> Mdd {
        let graph = self.graph;
        let end = path.len() - 1;
        let rules = self.rules(agent, constraints, &[]);
        let goal = self.goals[agent as usize];
        let per_tick = 1.0 / self.tick;
        // Whole ticks (distances are whole multiples of the tick under uniform costs).
        let hops = |d: f64| (d * per_tick + 0.5) as usize;
        let mut forward: Vec<Vec<u32>> = vec![vec![self.starts[agent as usize]]];
        if let Some(wider) = wider.filter(|w| w.ticks() == path.len()) {
            // The wider diagram's cells the constraints allow and a cell kept before reaches.
            for t in 1..=end {
                let before = &forward[t - 1];
                let level: Vec<u32> = wider
                    .at(t)
                    .iter()
                    .copied()
                    .filter(|&v| {
                        rules.allows_vertex(v, t as u32)
                            && graph
                                .neighbours(v)
                                .iter()
                                .chain(std::iter::once(&v))
                                .any(|&u| {
                                    before.binary_search(&u).is_ok()
                                        && rules.allows_move(u, v, t as u32)
                                })
                    })
                    .collect();
                forward.push(level);
            }
        }
        // Cells taken into the level being built, marked with its tick (plus one); cleared
        // again below, so that the table serves the next diagram.
        let mut taken = std::mem::take(&mut self.marks);
        taken.resize(graph.len(), 0);
        for t in forward.len()..=end {
            let mut level = Vec::new();
            let mark = t as u32 + 1;
            for &u in &forward[t - 1] {
                for &v in graph.neighbours(u).iter().chain(std::iter::once(&u)) {
                    if taken[v as usize] == mark {
                        continue;
                    }
                    let d = self.distances.get(graph, agent as usize, v);
                    if !d.is_finite() || hops(d) > end - t {
                        continue;
                    }
                    if rules.allows_vertex(v, t as u32) && rules.allows_move(u, v, t as u32) {
                        taken[v as usize] = mark;
                        level.push(v);
                    }
                }
            }
            level.sort_unstable();
            forward.push(level);
        }
        for &v in forward.iter().flatten() {
            taken[v as usize] = 0;
        }
        self.marks = taken;
        let mut levels = vec![Vec::new(); end + 1];
        levels[end] = vec![goal];
        for t in (0..end).rev() {
            // Each level is sorted: the forward ones by construction, the filtered ones too.
            let next = &levels[t + 1];
            let kept: Vec<u32> = forward[t]
                .iter()
                .copied()
                .filter(|&u| {
                    graph
                        .neighbours(u)
                        .iter()
                        .chain(std::iter::once(&u))
                        .any(|&v| {
                            next.binary_search(&v).is_ok() && rules.allows_move(u, v, t as u32 + 1)
                        })
                })
                .collect();
            levels[t] = kept;
        }
        Mdd::from_levels(&levels)
    }

    fn mdd_of(&mut self, node: u32, agent: u32) -> Rc<Mdd> {
        let wider = match &self.nodes[node as usize].mdds[agent as usize] {
            MddSlot::Built(m) => return Rc::clone(m),
            MddSlot::Wider(m) => Some(Rc::clone(m)),
            MddSlot::Empty => None,
        };
        let constraints = self.constraints_of(node, agent);
        let path = Rc::clone(&self.nodes[node as usize].paths[agent as usize]);
        let m = Rc::new(self.mdd(agent, &constraints, &path, wider.as_deref()));
        self.nodes[node as usize].mdds[agent as usize] = MddSlot::Built(Rc::clone(&m));
        m
    }

    /// Sorts the node's conflicts cardinal first, then semi-cardinal, then the rest (each by
    /// tick; under uniform costs only), and returns the estimate of the weighted dependency
    /// graph: for each pair of agents in conflict, the extra cost the two need to get past
    /// each other alone (a search of the pair under the node's constraints, or one tick for
    /// a cardinal conflict when that search is cut short), bounded by [`dependency_bound`]
    /// (or, on weighted terrain, [`matching_bound`]).
    fn prioritise(&mut self, node: u32) -> f64 {
        let conflicts = self.nodes[node as usize].conflicts.clone();
        let mut ranked = Vec::with_capacity(conflicts.len());
        let mut cardinal_pairs = FastSet::default();
        for c in conflicts {
            let (class, rectangle) = if self.uniform {
                let ma = self.mdd_of(node, c.a);
                let mb = self.mdd_of(node, c.b);
                let class = u8::from(ma.is_cardinal(c.on_a)) + u8::from(mb.is_cardinal(c.on_b));
                let n = &self.nodes[node as usize];
                let paths = [&n.paths[c.a as usize][..], &n.paths[c.b as usize][..]];
                let corridor = if self.symmetry {
                    symmetry::corridor(self.graph, c.on_a, c.on_b, paths, [&ma, &mb])
                } else {
                    None
                };
                let rectangle = match (self.symmetry, corridor, c.on_a, c.on_b) {
                    (_, Some(split), _, _) => Some(split),
                    (true, None, Constraint::Vertex { v, t }, Constraint::Vertex { .. }) => {
                        symmetry::rectangle(self.graph, v, t, paths, [&ma, &mb])
                    }
                    _ => None,
                }
                .filter(|r| r.class >= class);
                (rectangle.as_ref().map_or(class, |r| r.class), rectangle)
            } else {
                (0, None)
            };
            if class == 2 {
                cardinal_pairs.insert((c.a.min(c.b), c.a.max(c.b)));
            }
            // Among conflicts of one class, target conflicts first, then rectangles and
            // corridors (as CBSH2-RTC orders them): their splits settle more.
            let target = matches!(c.on_a, Constraint::ArriveAfter { .. })
                || matches!(c.on_b, Constraint::ArriveAfter { .. });
            let kind = if target {
                0
            } else if rectangle.is_some() {
                1
            } else {
                2
            };
            ranked.push((std::cmp::Reverse(class), kind, c.t, c, rectangle));
        }
        ranked.sort_by_key(|&(class, kind, t, _, _)| (class, kind, t));
        let mut pairs: Vec<(u32, u32)> = ranked
            .iter()
            .map(|&(_, _, _, c, _)| (c.a.min(c.b), c.a.max(c.b)))
            .collect();
        let n = &mut self.nodes[node as usize];
        n.rectangle = ranked.first_mut().and_then(|r| r.4.take());
        n.conflicts = ranked.into_iter().map(|(_, _, _, c, _)| c).collect();
        pairs.sort_unstable();
        pairs.dedup();
        let mut edges = Vec::with_capacity(pairs.len());
        for (a, b) in pairs {
            let deltas = &self.nodes[node as usize].deltas;
            let known = deltas
                .binary_search_by_key(&(a, b), |e| e.0)
                .ok()
                .map(|i| deltas[i].1);
            let delta = match known {
                Some(d) => d,
                None => {
                    // A cardinal conflict alone costs the pair a tick.
                    let least = if cardinal_pairs.contains(&(a, b)) {
                        self.tick
                    } else {
                        0.0
                    };
                    // Two agents with cheapest paths that miss each other need nothing extra
                    // (the test of CBSH's dependency graph, before any search of the pair).
                    let free = self.uniform && least == 0.0 && {
                        let (ma, mb) = (self.mdd_of(node, a), self.mdd_of(node, b));
                        ma.compatible(&mb, self.graph)
                    };
                    let d = if free {
                        0.0
                    } else {
                        self.pair_delta(node, a, b).map_or(least, |d| d.max(least))
                    };
                    if self.interrupted {
                        return 0.0;
                    }
                    let deltas = &mut self.nodes[node as usize].deltas;
                    if let Err(i) = deltas.binary_search_by_key(&(a, b), |e| e.0) {
                        deltas.insert(i, ((a, b), d));
                    }
                    d
                }
            };
            if delta > 1e-9 {
                edges.push((delta, a, b));
            }
        }
        if self.uniform {
            dependency_bound(&edges, self.tick)
        } else {
            matching_bound(&edges)
        }
    }

    /// The extra cost agents `a` and `b` need to get past each other alone under the node's
    /// constraints: the least cost of the pair (by conflict-based search of the two) minus
    /// their costs in the node — or, when that search needs more than [`PAIR_NODES`] nodes, the
    /// least cost in its open list minus theirs, a lower bound; `None` when it stops without
    /// one (the pair cannot pass at all, or a low-level search gave up).
    fn pair_delta(&mut self, node: u32, a: u32, b: u32) -> Option<f64> {
        let mut base_constraints = [self.constraints_of(node, a), self.constraints_of(node, b)];
        for side in &mut base_constraints {
            side.sort_unstable();
            side.dedup();
        }
        // The answer depends on the pair's constraints alone (each agent's cost in the node is
        // its least under them): other nodes with the same constraints ask it again.
        let key = (a, b, base_constraints.clone());
        if let Some(&known) = self.pair_cache.get(&key) {
            return known;
        }
        let found = self.search_pair(node, a, b, &base_constraints);
        if !self.interrupted {
            self.pair_cache.insert(key, found);
        }
        found
    }

    /// The conflict-based search of the pair for [`Cbs::pair_delta`].
    fn search_pair(
        &mut self,
        node: u32,
        a: u32,
        b: u32,
        base_constraints: &[Vec<Constraint>; 2],
    ) -> Option<f64> {
        let agents = [a, b];
        let n = &self.nodes[node as usize];
        let base = n.costs[a as usize] + n.costs[b as usize];
        let empty = Rc::new(Vec::new());
        struct PairNode {
            extra: [Vec<Constraint>; 2],
            paths: [Rc<Vec<u32>>; 2],
            cost: f64,
        }
        let mut pair_nodes = vec![PairNode {
            extra: [Vec::new(), Vec::new()],
            paths: [
                Rc::clone(&n.paths[a as usize]),
                Rc::clone(&n.paths[b as usize]),
            ],
            cost: base,
        }];
        let mut open = BinaryHeap::new();
        open.push(Queued {
            f: base,
            conflicts: 0,
            id: 0,
        });
        let mut expanded = 0;
        while let Some(Queued { id, f, .. }) = open.pop() {
            expanded += 1;
            if expanded > PAIR_NODES {
                // Cut short: the least cost in the open list still bounds the pair's optimum.
                return Some(f - base);
            }
            let (paths, cost) = {
                let p = &pair_nodes[id as usize];
                (p.paths.clone(), p.cost)
            };
            let conflicts = self.tables.find(self.graph, &paths);
            let Some(c) = conflicts.first().copied() else {
                return Some(cost - base);
            };
            for side in 0..2 {
                let constraint = if side == 0 { c.on_a } else { c.on_b };
                let mut constraints = base_constraints[side].clone();
                constraints.extend_from_slice(&pair_nodes[id as usize].extra[side]);
                constraints.push(constraint);
                let mut others = vec![Rc::clone(&empty); self.starts.len()];
                others[agents[1 - side] as usize] = Rc::clone(&paths[1 - side]);
                let Some((path, path_cost)) = self.plan(agents[side], &constraints, &others) else {
                    if self.low_level_exhausted {
                        // Only this estimate is given up, not the search.
                        self.low_level_exhausted = false;
                        return None;
                    }
                    if self.interrupted {
                        return None;
                    }
                    continue;
                };
                let parent = &pair_nodes[id as usize];
                let mut extra = parent.extra.clone();
                extra[side].push(constraint);
                if let (Constraint::Barrier { t, .. }, true) = (constraint, self.disjoint_targets) {
                    // The disjoint side of a target conflict: the other rests on its goal
                    // from `t` on (its path does already).
                    extra[1 - side].push(Constraint::ArriveBy { t });
                }
                let mut child_paths = paths.clone();
                let old = if side == 0 {
                    path_cost_of(self.graph, &paths[0])
                } else {
                    path_cost_of(self.graph, &paths[1])
                };
                child_paths[side] = Rc::new(path);
                let child_cost = cost - old + path_cost;
                let child = pair_nodes.len() as u32;
                pair_nodes.push(PairNode {
                    extra,
                    paths: child_paths,
                    cost: child_cost,
                });
                open.push(Queued {
                    f: child_cost,
                    conflicts: 0,
                    id: child,
                });
            }
        }
        // Every branch is impossible: the pair cannot get past each other at all.
        None
    }
}

/// The most agent entries the constraint tree of CBS or ECBS may hold (nodes × agents; CBS
/// counts the nodes not yet expanded, and one entry for each expanded one, whose paths it
/// lets go): a few hundred megabytes. Beyond, the search gives up.
pub const CBS_MAX_CELLS: usize = 16 << 20;

/// The most nodes the search of a pair of agents may expand for the dependency graph.
const PAIR_NODES: u32 = 32;

/// What an agent's path costs: its moves and waits to its end.
fn path_cost_of(graph: &MoveGraph, path: &[u32]) -> f64 {
    path.windows(2).map(|w| graph.step_cost(w[0], w[1])).sum()
}

/// The demand of a disjoint split of a plain vertex or swap conflict, on the agent of the
/// lower number (the same agent of a pair is held each time the two meet; taking turns, or
/// the other agent, took 22 % and 42 % more nodes for 50 agents of random-32-32-20): to be on
/// the cell, or to make its move. `None` for other conflicts.
fn disjoint_demand(conflict: &Conflict) -> Option<(u32, Constraint)> {
    let (agent, own, others) = if conflict.a < conflict.b {
        (conflict.a, conflict.on_a, conflict.on_b)
    } else {
        (conflict.b, conflict.on_b, conflict.on_a)
    };
    match (own, others) {
        (Constraint::Vertex { v, t }, Constraint::Vertex { .. }) => {
            Some((agent, Constraint::At { v, t }))
        }
        (Constraint::Move { u, v, t }, Constraint::Move { u: ou, v: ov, .. })
            if (ou, ov) == (v, u) =>
        {
            Some((agent, Constraint::Through { u, v, t }))
        }
        _ => None,
    }
}

/// Conflict-based search.
pub(crate) fn run(
    instance: &Instance,
    settings: &MapfSettings,
    control: &SearchControl,
    distances: Distances,
) -> MapfOutcome {
    run_with(instance, settings, control, Reasoning::ALL, distances)
}

/// Conflict-based search with the given optional `reasoning`.
pub(super) fn run_with(
    instance: &Instance,
    settings: &MapfSettings,
    control: &SearchControl,
    reasoning: Reasoning,
    distances: Distances,
) -> MapfOutcome {
    let (budget, graph, (starts, goals)) = setup::begin(instance, settings, control);
    let stop = || budget.interrupted();
    let mut outcome = MapfOutcome::without_plan(Proof::NoSolution);
    let agents = starts.len();
    let mut cbs = Cbs::new(&graph, starts, goals, &stop, reasoning, distances);
    if !cbs.push_root() {
        if cbs.low_level_exhausted {
            outcome.proof = Proof::GaveUp;
        }
        if let Some(stopped) = budget.stopped() {
            outcome.proof = stopped;
        }
        outcome.conclude(&budget);
        return outcome;
    }
    // Expanded nodes whose paths are let go.
    let mut released = 0;
    let mut proved = f64::NEG_INFINITY;
    let mut open = BinaryHeap::new();
    open.push(Queued {
        f: cbs.nodes[0].cost,
        conflicts: cbs.nodes[0].conflicts.len(),
        id: 0,
    });
    while let Some(Queued {
        id,
        f: popped_f,
        conflicts: open_conflicts,
    }) = open.pop()
    {
        outcome.expanded += 1;
        // The least cost in the open list bounds every plan (the estimate never overestimates).
        proved = proved.max(popped_f);
        if budget.exhausted(outcome.expanded) {
            break;
        }
        if (cbs.nodes.len() - released) * agents + released > CBS_MAX_CELLS {
            outcome.proof = Proof::GaveUp;
            budget.memory_full();
            break;
        }
        if cbs.nodes[id as usize].conflicts.is_empty() && open_conflicts > 0 {
            // An open node keeps the number of its conflicts only: found again when expanded.
            let found = cbs.tables.find(&graph, &cbs.nodes[id as usize].paths);
            cbs.nodes[id as usize].conflicts = found;
        }
        if cbs.nodes[id as usize].conflicts.is_empty() {
            let node = &cbs.nodes[id as usize];
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
            outcome.proof = Proof::Optimal;
            outcome.first_plan_time = Some(budget.elapsed());
            break;
        }
        if cbs.nodes[id as usize].h.is_none() {
            let h = cbs.prioritise(id);
            if cbs.interrupted {
                break;
            }
            let node = &mut cbs.nodes[id as usize];
            // The node was queued at a bound its ancestors proved (path-max): its children
            // inherit the greater of the two.
            let h = h.max(popped_f - node.cost);
            node.h = Some(h);
            if node.cost + h > popped_f + 1e-9 {
                open.push(Queued {
                    f: node.cost + h,
                    conflicts: node.conflicts.len(),
                    id,
                });
                continue;
            }
        }
        let conflict = cbs.nodes[id as usize].conflicts[0];
        let (on_a, on_b, demand) = match cbs.nodes[id as usize].rectangle.take() {
            Some(r) => (r.on_a, r.on_b, None),
            None => (
                vec![conflict.on_a],
                vec![conflict.on_b],
                cbs.disjoint_splits
                    .then(|| disjoint_demand(&conflict))
                    .flatten(),
            ),
        };
        let mut children = Vec::with_capacity(2);
        let mut bypassed = false;
        for (agent, other, added) in [
            (conflict.a, conflict.b, on_a),
            (conflict.b, conflict.a, on_b),
        ] {
            // The barrier side of a target conflict: with disjoint splitting the agent on its
            // goal has arrived for good there, and every agent is kept off it. The side of a
            // vertex or swap conflict that keeps one agent off: with disjoint splitting, the
            // other is held to its cell or move and every agent kept off it.
            let forced = match added[..] {
                [Constraint::Barrier { t, .. }] if cbs.disjoint_targets => {
                    Some((other, Constraint::ArriveBy { t }))
                }
                _ => demand.filter(|&(j, _)| j == other),
            };
            let Some(child) = cbs.split_child(id, agent, added, forced) else {
                if cbs.low_level_exhausted || cbs.interrupted {
                    break;
                }
                continue;
            };
            let parent = &cbs.nodes[id as usize];
            if child.cost <= parent.cost + 1e-9 && child.conflicts.len() < parent.conflicts.len() {
                // Bypass: the parent takes the paths, and is queued again unsplit. Each new
                // path is among its agent's cheapest under the parent's constraints too.
                let parent = &mut cbs.nodes[id as usize];
                parent.paths = child.paths;
                parent.costs = child.costs;
                parent.conflicts = child.conflicts;
                parent.mdds = child.mdds;
                parent.deltas = child.deltas;
                parent.h = None;
                open.push(Queued {
                    f: popped_f,
                    conflicts: parent.conflicts.len(),
                    id,
                });
                bypassed = true;
                break;
            }
            children.push(child);
        }
        if cbs.interrupted {
            break;
        }
        if cbs.low_level_exhausted {
            outcome.proof = Proof::GaveUp;
            break;
        }
        if bypassed {
            continue;
        }
        let parent_h = cbs.nodes[id as usize].h.unwrap_or(0.0);
        for mut child in children {
            let child_id = cbs.nodes.len() as u32;
            // A child's cost is at least its parent's estimate (the estimate is admissible
            // and a child only adds constraints).
            let f = child.cost.max(cbs.nodes[id as usize].cost + parent_h);
            open.push(Queued {
                f,
                conflicts: child.conflicts.len(),
                id: child_id,
            });
            child.conflicts = Vec::new();
            cbs.nodes.push(child);
        }
        // Only the constraints of an expanded node are asked for again (by its descendants).
        let node = &mut cbs.nodes[id as usize];
        node.paths = Vec::new();
        node.costs = Vec::new();
        node.mdds = Vec::new();
        node.conflicts = Vec::new();
        node.deltas = Vec::new();
        released += 1;
    }
    if outcome.plan.is_none()
        && let Some(stopped) = budget.stopped()
    {
        outcome.proof = stopped;
    }
    if proved.is_finite() {
        outcome.proved_bound = Some(proved);
    }
    outcome.conclude(&budget);
    outcome
}

/// The root's cost and the estimate conflict-based search adds to it, for the tests; `None`
/// when some agent has no path.
#[cfg(test)]
pub(super) fn root_estimate(instance: &Instance) -> Option<(f64, f64)> {
    let graph = MoveGraph::new(instance);
    let (starts, goals) = graph.ends(instance);
    let stop = || false;
    let distances = Distances::new(goals.clone());
    let mut cbs = Cbs::new(&graph, starts, goals, &stop, Reasoning::ALL, distances);
    if !cbs.push_root() {
        return None;
    }
    let h = cbs.prioritise(0);
    Some((cbs.nodes[0].cost, h))
}
