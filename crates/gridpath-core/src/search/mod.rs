//! Searching a grid: one request and result shape for every algorithm.
//!
//! Every algorithm shares the same neighbour rules ([`Diagonal`]), cost model and result type.
//! The cost of a step is its length (1 orthogonal, √2 diagonal) times the mean of the two
//! cells' terrain costs, so a path costs the same both ways, and on a map of one terrain of cost
//! 1 it is exactly the Moving AI convention.

mod algorithms;
mod any_angle;
mod batch;
mod best_first;
mod bfs;
mod bidirectional;
mod ch;
mod control;
mod dstar_lite;
mod flow_field;
mod graph;
mod heap;
mod heuristic;
mod hpa;
mod idastar;
mod jps;
mod jps_plus;
mod jump_lines;
mod jump_table;
mod outcome;
mod partial;
mod replanner;
mod request;
mod route;
mod searcher;
mod sort;
mod space;
mod subgoal;
mod subgoal_graph;
mod theta;
mod turns;
mod unit;
mod workspace;

pub use algorithms::{ALGORITHMS, AlgorithmInfo, Guarantee};
pub(crate) use batch::unless_cancelled;
pub use batch::{solve_all, solve_batch, solve_batch_controlled};
pub use ch::{CH_MAX_CELLS, ContractionHierarchy};
pub use control::SearchControl;
pub use dstar_lite::DStarLite;
pub use flow_field::FlowField;
pub use graph::SearchGraph;
pub use hpa::{DEFAULT_CLUSTER_SIZE, ENTRANCE_SPACING, HpaGraph, LONG_ENTRANCE, Refinement};
pub use idastar::IDASTAR_NODE_BUDGET;
pub use replanner::{CellChange, Replanner};
pub use request::{
    Algorithm, Diagonal, Heuristic, Optimality, SearchError, SearchRequest, SearchResult, Stats,
    Trace,
};
pub use route::{MAX_ORDERED, Route, RouteOrder, route};
pub use searcher::{Searcher, solve};
pub use subgoal_graph::SubgoalSummary;
pub use turns::path_cost_with_turns;
pub use unit::{NO_ROOM, clearance, grid_for_unit};
