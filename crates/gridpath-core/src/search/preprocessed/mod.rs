//! Searches over a structure built from the map before the queries: the contraction hierarchy,
//! HPA*'s cluster abstraction and the simple subgoal graph.

pub(super) mod ch;
pub(super) mod hpa;
mod huge_pages;
pub(super) mod subgoal;
pub(super) mod subgoal_graph;
