//! Every search algorithm in one table: its names, what it guarantees, which maps it accepts,
//! which settings it reads, and how it runs and is traced. The command line, the editor's
//! menus, *Compare all* and the searcher read this list; nothing else matches on
//! [`Algorithm`] to learn how an algorithm behaves.
//!
//! Adding an algorithm is one module with its `run` function and one entry here (and its
//! variant of [`Algorithm`]): the test below fails while an algorithm has no entry, or one out
//! of place.
//!
//! ```
//! use gridpath_core::search::{Algorithm, Guarantee};
//!
//! let astar = Algorithm::AStar.info();
//! assert_eq!(astar.name, "astar");
//! assert_eq!(astar.title, "A*");
//! assert!(astar.uses_heuristic && astar.uses_weight);
//! assert_eq!(Algorithm::Dijkstra.info().guarantee, Guarantee::Exact);
//! assert_eq!("jps".parse::<Algorithm>(), Ok(Algorithm::Jps));
//! ```

use std::fmt;
use std::str::FromStr;

use super::any_angle::theta;
use super::classic::{best_first, bfs, bidirectional, idastar};
use super::graph::SearchGraph;
use super::incremental::dstar_lite;
use super::jump::{jps, jps_plus};
use super::outcome::{flat_map, square_map};
use super::preprocessed::{ch, hpa, subgoal};
use super::request::{
    Algorithm, Heuristic, Optimality, SearchError, SearchRequest, SearchResult, Stats,
};
use super::workspace::{Query, Workspace};
use crate::control::SearchControl;
use crate::grid::Topology;

/// What an algorithm guarantees of the cost it finds, before the request's heuristic and
/// weight are known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guarantee {
    /// The cheapest path, whatever the heuristic (it uses none).
    Exact,
    /// The cheapest path with an admissible heuristic; none with another.
    ExactIfAdmissible,
    /// Like [`Guarantee::ExactIfAdmissible`] at weight 1, within weight × optimal above it.
    WithinWeight,
    /// The fewest steps; costs ignored.
    FewestSteps,
    /// Any path.
    NoGuarantee,
    /// Near-optimal in practice, with no bound.
    Approximate,
    /// An any-angle path (Theta*): never dearer than the cheapest grid path, not always the
    /// cheapest any-angle path.
    AnyAngle,
}

/// How an algorithm runs.
#[derive(Clone, Copy)]
pub(crate) enum Run {
    /// Over the cells with the searcher's state arrays: returns the path's cell indices (start
    /// first), or `None` when the goal cannot be reached; counts into the stats and checks the
    /// control for cancellation.
    Cells(fn(&mut Workspace, &Query<'_>, &SearchControl, &mut Stats) -> Option<Vec<usize>>),
    /// Builds a structure of its own first (whose time is not the query's; the build checks
    /// the control for cancellation) and answers whole.
    Whole(fn(&SearchGraph, &SearchRequest, &SearchControl) -> Result<SearchResult, SearchError>),
    /// Like [`Run::Cells`], but returns the vertices of an any-angle path (start first), joined
    /// by straight segments in line of sight or by single grid steps.
    AnyAngle(fn(&mut Workspace, &Query<'_>, &SearchControl, &mut Stats) -> Option<Vec<usize>>),
}

/// Where a recorded search leaves its open list and its costs, for the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TraceFrom {
    /// The forward state arrays: heap, buckets, costs and parent links.
    Forward,
    /// Both ends' state arrays (bidirectional search).
    BothEnds,
    /// Breadth-first search's queue and the forward parent links.
    Queue,
    /// The forward costs and the jump point parents.
    JumpPoints,
    /// The forward costs and open list, with the any-angle vertex parents.
    Vertices,
    /// Nothing kept in the state arrays: no open list, no costs.
    Nothing,
}

/// Everything gridpath knows of one algorithm.
#[derive(Clone, Copy)]
pub struct AlgorithmInfo {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Its name on the command line and in files, e.g. `"astar"`.
    pub name: &'static str,
    /// Its name in menus and tables, e.g. `"A*"`.
    pub title: &'static str,
    /// One sentence on what it does, for help texts and tooltips.
    pub about: &'static str,
    /// What it guarantees of the cost.
    pub guarantee: Guarantee,
    /// Whether it reads the request's heuristic.
    pub uses_heuristic: bool,
    /// Whether it reads the request's weight.
    pub uses_weight: bool,
    /// Whether it needs a map whose passable cells all cost the same (and the no-cut rule).
    pub needs_uniform_cost: bool,
    /// Refuses what the algorithm cannot search (beyond the checks of every request).
    pub(crate) accepts: fn(&SearchGraph, &SearchRequest) -> Result<(), SearchError>,
    /// Builds the tables it keeps with the graph (once; later calls find them built), or
    /// `None` when it keeps none.
    pub(crate) prepare: Option<fn(&SearchGraph)>,
    /// How it runs.
    pub(crate) run: Run,
    /// Where its trace comes from.
    pub(crate) trace: TraceFrom,
}

impl AlgorithmInfo {
    /// Builds the tables the algorithm keeps with the graph (JPS's bit lines, JPS+'s jump
    /// distances, the subgoal graph), which its first query would otherwise build; returns
    /// whether it keeps any. A search builds them before its clock starts, so its `time_us`
    /// is the query's own.
    pub fn prepare(&self, graph: &SearchGraph) -> bool {
        self.prepare.inspect(|prepare| prepare(graph)).is_some()
    }
}

impl fmt::Debug for AlgorithmInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AlgorithmInfo")
            .field("algorithm", &self.algorithm)
            .field("name", &self.name)
            .field("guarantee", &self.guarantee)
            .finish_non_exhaustive()
    }
}

/// Accepts every map.
fn any_map(_: &SearchGraph, _: &SearchRequest) -> Result<(), SearchError> {
    Ok(())
}

/// Accepts flat square maps: [`square_map`] and [`flat_map`].
fn flat_square_map(graph: &SearchGraph, request: &SearchRequest) -> Result<(), SearchError> {
    square_map(graph, request)?;
    flat_map(graph, request)
}

/// What the contraction hierarchy accepts: a flat map of at most
/// [`CH_MAX_CELLS`](super::CH_MAX_CELLS) cells.
fn ch_map(graph: &SearchGraph, request: &SearchRequest) -> Result<(), SearchError> {
    flat_map(graph, request)?;
    ch::ContractionHierarchy::check_size(graph)
}

/// Every algorithm, in the order of [`Algorithm`]'s variants, which is the order menus list them.
pub const ALGORITHMS: [AlgorithmInfo; 14] = [
    AlgorithmInfo {
        algorithm: Algorithm::AStar,
        name: "astar",
        title: "A*",
        about: "A*: expands cells in order of cost so far plus estimated cost to go; optimal with an admissible heuristic at weight 1, within weight × optimal above it.",
        guarantee: Guarantee::WithinWeight,
        uses_heuristic: true,
        uses_weight: true,
        needs_uniform_cost: false,
        accepts: any_map,
        prepare: None,
        run: Run::Cells(best_first::run_astar),
        trace: TraceFrom::Forward,
    },
    AlgorithmInfo {
        algorithm: Algorithm::Dijkstra,
        name: "dijkstra",
        title: "Dijkstra",
        about: "Dijkstra: expands cells in order of cost so far, ignoring the heuristic; always optimal.",
        guarantee: Guarantee::Exact,
        uses_heuristic: false,
        uses_weight: false,
        needs_uniform_cost: false,
        accepts: any_map,
        prepare: None,
        run: Run::Cells(best_first::run_dijkstra),
        trace: TraceFrom::Forward,
    },
    AlgorithmInfo {
        algorithm: Algorithm::Greedy,
        name: "greedy",
        title: "Greedy best-first",
        about: "Greedy best-first: expands the cell that looks closest to the goal; fast, but no guarantee on cost.",
        guarantee: Guarantee::NoGuarantee,
        uses_heuristic: true,
        uses_weight: false,
        needs_uniform_cost: false,
        accepts: any_map,
        prepare: None,
        run: Run::Cells(best_first::run_greedy),
        trace: TraceFrom::Forward,
    },
    AlgorithmInfo {
        algorithm: Algorithm::Bfs,
        name: "bfs",
        title: "Breadth-first",
        about: "Breadth-first: finds the path with the fewest steps, ignoring terrain costs.",
        guarantee: Guarantee::FewestSteps,
        uses_heuristic: false,
        uses_weight: false,
        needs_uniform_cost: false,
        accepts: any_map,
        prepare: None,
        run: Run::Cells(bfs::run),
        trace: TraceFrom::Queue,
    },
    AlgorithmInfo {
        algorithm: Algorithm::Bidirectional,
        name: "bidirectional",
        title: "Bidirectional A*",
        about: "Bidirectional A*: searches from both ends and stops when no better meeting point can exist; optimal.",
        guarantee: Guarantee::ExactIfAdmissible,
        uses_heuristic: true,
        uses_weight: false,
        needs_uniform_cost: false,
        accepts: any_map,
        prepare: None,
        run: Run::Cells(bidirectional::run),
        trace: TraceFrom::BothEnds,
    },
    AlgorithmInfo {
        algorithm: Algorithm::Jps,
        name: "jps",
        title: "Jump point search",
        about: "Jump point search: A* that skips symmetric paths, expanding only cells where a path may turn; optimal, on maps where every passable cell costs the same, under the no-cut rule.",
        guarantee: Guarantee::ExactIfAdmissible,
        uses_heuristic: true,
        uses_weight: false,
        needs_uniform_cost: true,
        accepts: jps::accepts,
        prepare: Some(|graph| {
            graph.jump_lines();
        }),
        run: Run::Cells(jps::run),
        trace: TraceFrom::JumpPoints,
    },
    AlgorithmInfo {
        algorithm: Algorithm::JpsPlus,
        name: "jps-plus",
        title: "JPS+",
        about: "JPS+: jump point search reading each jump from distances computed once per map (16 bytes per cell, kept with the map and updated locally after edits); optimal, on maps where every passable cell costs the same, under the no-cut rule.",
        guarantee: Guarantee::Exact,
        uses_heuristic: false,
        uses_weight: false,
        needs_uniform_cost: true,
        accepts: jps::accepts,
        prepare: Some(SearchGraph::prepare_jps_plus),
        run: Run::Cells(jps_plus::run),
        trace: TraceFrom::JumpPoints,
    },
    AlgorithmInfo {
        algorithm: Algorithm::Subgoal,
        name: "subgoal",
        title: "Subgoal graph",
        about: "Simple subgoal graph: A* over the corners of the obstacles, joined where an octile path runs between them, computed once per map (rebuilt after edits) and kept with it; optimal, on maps where every passable cell costs the same, under the no-cut rule.",
        guarantee: Guarantee::Exact,
        uses_heuristic: false,
        uses_weight: false,
        needs_uniform_cost: true,
        accepts: jps::accepts,
        prepare: Some(|graph| {
            graph.prepare_subgoal_graph();
        }),
        run: Run::Cells(subgoal::run),
        trace: TraceFrom::JumpPoints,
    },
    AlgorithmInfo {
        algorithm: Algorithm::IdaStar,
        name: "idastar",
        title: "IDA* (small maps)",
        about: "IDA*: depth-first passes under a rising bound on cost plus estimate, as fringe search (each pass goes on from the edge of the last, with every cell's cheapest cost kept); optimal with an admissible heuristic, and stops when its node budget runs out.",
        guarantee: Guarantee::ExactIfAdmissible,
        uses_heuristic: true,
        uses_weight: false,
        needs_uniform_cost: false,
        accepts: any_map,
        prepare: None,
        run: Run::Cells(idastar::run),
        trace: TraceFrom::Nothing,
    },
    AlgorithmInfo {
        algorithm: Algorithm::DStarLite,
        name: "dstar-lite",
        title: "D* Lite",
        about: "D* Lite: searches backwards from the goal and keeps its costs, so that after an edit it repairs only what changed; optimal with an admissible heuristic.",
        guarantee: Guarantee::ExactIfAdmissible,
        uses_heuristic: true,
        uses_weight: false,
        needs_uniform_cost: false,
        accepts: any_map,
        prepare: None,
        run: Run::Cells(dstar_lite::run),
        trace: TraceFrom::Nothing,
    },
    AlgorithmInfo {
        algorithm: Algorithm::Hpa,
        name: "hpa",
        title: "HPA*",
        about: "HPA*: plans over 32 × 32 clusters and the entrances between them, then refines the plan into cells; much faster than A* on large maps, near-optimal but with no bound.",
        guarantee: Guarantee::Approximate,
        uses_heuristic: true,
        uses_weight: false,
        needs_uniform_cost: false,
        accepts: flat_square_map,
        prepare: None,
        run: Run::Whole(hpa::hpa_once),
        trace: TraceFrom::Nothing,
    },
    AlgorithmInfo {
        algorithm: Algorithm::Theta,
        name: "theta",
        title: "Theta* (any-angle)",
        about: "Theta*: A* whose path may run straight to any cell in line of sight, not only to a neighbour; any-angle paths, usually cheaper than the best grid path, with no bound. Uses the straight-line estimate whatever the heuristic chosen.",
        guarantee: Guarantee::AnyAngle,
        uses_heuristic: false,
        uses_weight: false,
        needs_uniform_cost: false,
        accepts: flat_square_map,
        prepare: None,
        run: Run::AnyAngle(theta::run_theta),
        trace: TraceFrom::Vertices,
    },
    AlgorithmInfo {
        algorithm: Algorithm::LazyTheta,
        name: "lazy-theta",
        title: "Lazy Theta* (any-angle)",
        about: "Lazy Theta*: Theta* that checks line of sight only when it expands a cell, not for every neighbour; paths like Theta*'s, with far fewer checks. Uses the straight-line estimate whatever the heuristic chosen.",
        guarantee: Guarantee::AnyAngle,
        uses_heuristic: false,
        uses_weight: false,
        needs_uniform_cost: false,
        accepts: flat_square_map,
        prepare: None,
        run: Run::AnyAngle(theta::run_lazy_theta),
        trace: TraceFrom::Vertices,
    },
    AlgorithmInfo {
        algorithm: Algorithm::ContractionHierarchy,
        name: "ch",
        title: "Contraction hierarchy",
        about: "Contraction hierarchy: orders the cells by cutting the map in halves again and again and adds shortcuts beforehand (seconds at 512 × 512), then answers by relaxing the upward edges of both ends' ancestors; optimal, on flat maps, and far faster than A* once built.",
        guarantee: Guarantee::Exact,
        uses_heuristic: false,
        uses_weight: false,
        needs_uniform_cost: false,
        accepts: ch_map,
        prepare: None,
        run: Run::Whole(ch::ch_once),
        trace: TraceFrom::Nothing,
    },
];

/// Every algorithm, in menu order.
const ALL: [Algorithm; ALGORITHMS.len()] = {
    let mut all = [Algorithm::AStar; ALGORITHMS.len()];
    let mut i = 0;
    while i < ALGORITHMS.len() {
        all[i] = ALGORITHMS[i].algorithm;
        i += 1;
    }
    all
};

impl Algorithm {
    /// Every algorithm, in the order menus list them.
    pub const ALL: &'static [Algorithm] = &ALL;

    /// Everything known of this algorithm: its entry in [`ALGORITHMS`].
    pub fn info(self) -> &'static AlgorithmInfo {
        &ALGORITHMS[self as usize]
    }

    /// The name used on the command line and in files.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// One sentence on what it does, for help texts and tooltips.
    pub fn about(self) -> &'static str {
        self.info().about
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ALGORITHMS
            .iter()
            .find(|a| a.name == s)
            .map(|a| a.algorithm)
            .ok_or_else(|| {
                let names: Vec<&str> = ALGORITHMS.iter().map(|a| a.name).collect();
                format!(
                    "unknown algorithm {s:?}; expected one of: {}",
                    names.join(", ")
                )
            })
    }
}

impl SearchRequest {
    /// The heuristic the search will use on a square map: the one chosen, or
    /// [`Heuristic::default_for`] the diagonal rule; always the straight-line distance for the
    /// any-angle searches, which no other estimate keeps admissible. See
    /// [`SearchRequest::heuristic_on`] for a map of any topology.
    pub fn effective_heuristic(&self) -> Heuristic {
        self.heuristic_on(Topology::Square)
    }

    /// The heuristic the search will use on a map of this topology: the one chosen, or
    /// [`Heuristic::default_on`] the topology (hex distance on hexes); always the
    /// straight-line distance for the any-angle searches.
    pub fn heuristic_on(&self, topology: Topology) -> Heuristic {
        if self.algorithm.info().guarantee == Guarantee::AnyAngle {
            return Heuristic::Euclidean;
        }
        self.heuristic
            .unwrap_or(Heuristic::default_on(topology, self.diagonal))
    }

    /// What the answer is guaranteed to be, given the algorithm, heuristic and weight.
    pub fn optimality(&self) -> Optimality {
        let admissible = self.effective_heuristic().is_admissible(self.diagonal);
        match self.algorithm.info().guarantee {
            Guarantee::Exact => Optimality::Exact,
            Guarantee::FewestSteps => Optimality::FewestSteps,
            Guarantee::NoGuarantee => Optimality::NoGuarantee,
            Guarantee::Approximate => Optimality::Approximate,
            Guarantee::AnyAngle => Optimality::AnyAngle,
            Guarantee::ExactIfAdmissible | Guarantee::WithinWeight if !admissible => {
                Optimality::NoGuarantee
            }
            Guarantee::WithinWeight if self.weight > 1.0 => Optimality::WithinFactor(self.weight),
            Guarantee::ExactIfAdmissible | Guarantee::WithinWeight => Optimality::Exact,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_algorithm_has_its_entry_in_place() {
        // An exhaustive match: a new variant does not compile until it is listed here, and the
        // loop fails until it has an entry at its own index.
        let every = |a: Algorithm| match a {
            Algorithm::AStar
            | Algorithm::Dijkstra
            | Algorithm::Greedy
            | Algorithm::Bfs
            | Algorithm::Bidirectional
            | Algorithm::Jps
            | Algorithm::JpsPlus
            | Algorithm::Subgoal
            | Algorithm::IdaStar
            | Algorithm::DStarLite
            | Algorithm::Hpa
            | Algorithm::Theta
            | Algorithm::LazyTheta
            | Algorithm::ContractionHierarchy => a,
        };
        for (i, info) in ALGORITHMS.iter().enumerate() {
            assert_eq!(info.algorithm as usize, i, "{} is out of place", info.name);
            assert_eq!(every(info.algorithm).info().name, info.name);
            assert_eq!(info.name.parse::<Algorithm>(), Ok(info.algorithm));
            assert!(
                !ALGORITHMS[..i]
                    .iter()
                    .any(|o| o.name == info.name || o.title == info.title)
            );
        }
        assert_eq!(
            ALGORITHMS.len(),
            Algorithm::ContractionHierarchy as usize + 1
        );
    }
}
