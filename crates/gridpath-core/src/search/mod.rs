//! Searching a grid: one request and result shape for every algorithm.
//!
//! Every algorithm shares the same neighbour rules ([`Diagonal`]), cost model and result type.
//! The cost of a step is its length (1 orthogonal, √2 diagonal) times the mean of the two
//! cells' terrain costs, so a path costs the same both ways, and on a map of one terrain of cost
//! 1 it is exactly the Moving AI convention. On a hex map ([`crate::grid::Topology`]) the graph
//! holds each cell's six neighbours among the same eight directions, every step 1 long; the
//! algorithms whose geometry is the square grid's refuse hex maps through the registry
//! (`docs/hex.md`).
//!
//! The algorithms live by family: `classic` best-first search (A*, Dijkstra, greedy, BFS,
//! bidirectional A*, IDA*, turn penalties, the flow field), `jump` point search, searches over
//! a `preprocessed` structure (contraction hierarchy, HPA*, subgoal graph), `incremental`
//! replanning (D* Lite) and `any_angle` search (Theta*). What they all share — the request, the
//! search graph, the per-cell state, the `frontier`, the registry — sits at this level.

mod algorithms;
mod any_angle;
mod batch;
mod best_first_loop;
#[cfg(test)]
mod cancellation_tests;
mod classic;
mod disc;
mod frontier;
mod graph;
mod heuristic;
mod incremental;
mod jump;
mod outcome;
mod partial;
mod preprocessed;
mod request;
mod route;
mod searcher;
mod space;
mod unit;
mod workspace;

pub use crate::control::SearchControl;
pub use algorithms::{ALGORITHMS, AlgorithmInfo, Guarantee};
pub(crate) use batch::unless_cancelled;
pub use batch::{solve_all, solve_batch, solve_batch_controlled};
pub use classic::flow_field::FlowField;
pub use classic::idastar::IDASTAR_NODE_BUDGET;
pub use classic::turns::path_cost_with_turns;
pub use disc::{
    DiscMisfit, cell_room, check_disc_fits, grid_for_radius, narrowest, place_markers_for_body,
};
pub use graph::SearchGraph;
pub use incremental::background::OnBuilt;
pub use incremental::dstar_lite::DStarLite;
pub use incremental::replanner::{CellChange, Replanner, StandIn};
pub use preprocessed::ch::{CH_MAX_CELLS, CH_MAX_EDGES, ContractionHierarchy};
pub use preprocessed::hpa::{
    DEFAULT_CLUSTER_SIZE, ENTRANCE_SPACING, HpaGraph, LONG_ENTRANCE, Refinement,
};
pub use preprocessed::subgoal_graph::SubgoalSummary;
pub use request::{
    Algorithm, Diagonal, Heuristic, Optimality, SearchError, SearchRequest, SearchResult, Stats,
    Trace,
};
pub use route::{MAX_ORDERED, Route, RouteOrder, route};
pub use searcher::{Searcher, solve};
pub use unit::{
    NO_ROOM, UnitMisfit, body_centre, body_offset, check_unit_fits, clearance, grid_for_unit,
    place_markers_for_unit,
};
