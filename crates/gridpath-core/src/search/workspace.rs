//! The state arrays a [`Searcher`](super::Searcher) keeps between searches, lent to each
//! algorithm's run.

use std::collections::VecDeque;

use super::graph::SearchGraph;
use super::heuristic::Estimate;
use super::request::{Heuristic, SearchRequest};
use super::space::Space;

/// The state arrays of the searches over cells. They grow to the largest map searched and are
/// reused, so a query allocates nothing once they have.
#[derive(Debug, Default)]
pub(crate) struct Workspace {
    /// The costs, parents and open list of a search from the start (and of A*, Dijkstra,
    /// greedy, jump point search).
    pub forward: Space,
    /// The same for the search from the goal (bidirectional A*).
    pub backward: Space,
    /// Breadth-first search's queue.
    pub queue: VecDeque<u32>,
    /// The cells expanded, in order, when the request records.
    pub order: Vec<u32>,
    /// Jump point search: the jump point each reached jump point was reached from.
    pub jump_parents: Vec<u32>,
    /// IDA*: the cells at the edge of the last bound, in the order it walks them.
    pub fringe: super::frontier::fringe::Fringe,
    /// Theta* and Lazy Theta*: the vertex each reached cell's segment starts from (any cell,
    /// not only a neighbour); meaningful only where the forward state says the cell was reached.
    pub vertex_parents: Vec<u32>,
    /// Lazy Theta*: whether the segment from a reached cell's vertex parent has been checked
    /// for line of sight; written whenever the parent is.
    pub checked: Vec<bool>,
    /// Subgoal graph queries: the scans that join the ends to the graph, and the path found.
    pub subgoals: super::preprocessed::subgoal_graph::Scratch,
}

/// One request, read once for the algorithm's run: the ends as cell indices and the estimate
/// ingredients.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Query<'a> {
    /// The prepared map.
    pub graph: &'a SearchGraph,
    /// The request as given.
    pub request: &'a SearchRequest,
    /// The start's cell index.
    pub start: usize,
    /// The goal's cell index.
    pub goal: usize,
    /// The heuristic in effect.
    pub heuristic: Heuristic,
    /// The cheapest passable terrain cost, which scales every estimate.
    pub scale: f64,
}

impl<'a> Query<'a> {
    /// The query of a checked request.
    pub fn new(graph: &'a SearchGraph, request: &'a SearchRequest) -> Self {
        Self {
            graph,
            request,
            start: graph.index(request.start),
            goal: graph.index(request.goal),
            heuristic: request.heuristic_on(graph.topology()),
            scale: graph.min_cost(),
        }
    }

    /// The estimate towards the goal, multiplied by `weight`.
    pub fn estimate_to_goal(&self, weight: f64) -> Estimate {
        self.estimate_by(self.heuristic, weight)
    }

    /// The estimate of kind `kind` towards the goal, whatever the request's, multiplied by
    /// `weight`.
    pub fn estimate_by(&self, kind: Heuristic, weight: f64) -> Estimate {
        let goal = self.request.goal;
        Estimate::new(
            self.graph.topology(),
            kind,
            goal.x,
            goal.y,
            self.scale * weight,
        )
    }

    /// The estimate towards the start.
    pub fn estimate_to_start(&self) -> Estimate {
        let start = self.request.start;
        Estimate::new(
            self.graph.topology(),
            self.heuristic,
            start.x,
            start.y,
            self.scale,
        )
    }

    /// Whether the request asks for the expansion order.
    pub fn record(&self) -> bool {
        self.request.record
    }
}
