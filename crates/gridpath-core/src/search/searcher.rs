//! The entry point of every search: checks the request, runs the algorithm, builds the result.

use std::collections::VecDeque;
use std::time::Instant;

use crate::grid::{Cell, Grid};

use super::best_first::{Ranking, best_first};
use super::bfs::bfs;
use super::bidirectional::bidirectional;
use super::control::{SearchControl, UNCONTROLLED};
use super::dstar_lite::dstar_lite_once;
use super::graph::SearchGraph;
use super::heuristic::Estimate;
use super::hpa::hpa_once;
use super::idastar::{IDASTAR_NODE_BUDGET, idastar};
use super::jps::jps;
use super::request::{Algorithm, Diagonal, SearchError, SearchRequest, SearchResult, Stats, Trace};
use super::space::{NO_PARENT, Space};

/// Runs searches, keeping its state arrays between them so that a query allocates nothing
/// once the arrays have grown to the map's size.
#[derive(Debug, Default)]
pub struct Searcher {
    forward: Space,
    backward: Space,
    queue: VecDeque<u32>,
    order: Vec<u32>,
    /// Jump point search: the jump point each reached jump point was reached from.
    jump_parents: Vec<u32>,
    /// IDA*: which cells are on the current depth-first path.
    on_path: Vec<bool>,
}

impl Searcher {
    /// A searcher with no memory yet; it grows to the first map it searches.
    pub fn new() -> Self {
        Self::default()
    }

    /// Runs one search on a prepared graph.
    pub fn search(
        &mut self,
        graph: &SearchGraph,
        request: &SearchRequest,
    ) -> Result<SearchResult, SearchError> {
        self.search_controlled(graph, request, &UNCONTROLLED)
    }

    /// Runs one search that another thread can watch and cancel through `control`; a
    /// cancelled search returns [`SearchError::Cancelled`].
    pub fn search_controlled(
        &mut self,
        graph: &SearchGraph,
        request: &SearchRequest,
        control: &SearchControl,
    ) -> Result<SearchResult, SearchError> {
        if request.algorithm == Algorithm::Hpa {
            // Builds the abstraction first; its time is not in `time_us`.
            return hpa_once(graph, request);
        }
        check(graph, request)?;
        if control.is_cancelled() {
            return Err(SearchError::Cancelled);
        }
        let started = Instant::now();
        let start = graph.index(request.start);
        let goal = graph.index(request.goal);
        let mut stats = Stats::default();
        self.order.clear();
        let heuristic = request.effective_heuristic();
        let (sx, sy) = (request.start.x, request.start.y);
        let (gx, gy) = (request.goal.x, request.goal.y);
        let scale = graph.min_cost();
        let record = request.record;
        let path_indices = match request.algorithm {
            Algorithm::AStar | Algorithm::Dijkstra | Algorithm::Greedy => {
                let (heuristic, weight, g_weight) = match request.algorithm {
                    Algorithm::AStar => (heuristic, request.weight, 1.0),
                    Algorithm::Dijkstra => (super::Heuristic::Zero, 1.0, 1.0),
                    _ => (heuristic, 1.0, 0.0),
                };
                let ranking = Ranking {
                    estimate: Estimate::new(heuristic, gx, gy, scale * weight),
                    g_weight,
                };
                let space = &mut self.forward;
                let found = if record {
                    best_first::<true>(
                        graph,
                        space,
                        start,
                        goal,
                        ranking,
                        &mut stats,
                        &mut self.order,
                        control,
                    )
                } else {
                    best_first::<false>(
                        graph,
                        space,
                        start,
                        goal,
                        ranking,
                        &mut stats,
                        &mut self.order,
                        control,
                    )
                };
                found.then(|| walk_back(graph, &self.forward, goal, start))
            }
            Algorithm::Bfs => {
                let found = if record {
                    bfs::<true>(
                        graph,
                        &mut self.forward,
                        &mut self.queue,
                        start,
                        goal,
                        &mut stats,
                        &mut self.order,
                        control,
                    )
                } else {
                    bfs::<false>(
                        graph,
                        &mut self.forward,
                        &mut self.queue,
                        start,
                        goal,
                        &mut stats,
                        &mut self.order,
                        control,
                    )
                };
                found.then(|| walk_back(graph, &self.forward, goal, start))
            }
            Algorithm::Bidirectional => {
                let to_goal = Estimate::new(heuristic, gx, gy, scale);
                let to_start = Estimate::new(heuristic, sx, sy, scale);
                let (f, b) = (&mut self.forward, &mut self.backward);
                let meeting = if record {
                    bidirectional::<true>(
                        graph,
                        f,
                        b,
                        start,
                        goal,
                        to_goal,
                        to_start,
                        &mut stats,
                        &mut self.order,
                        control,
                    )
                } else {
                    bidirectional::<false>(
                        graph,
                        f,
                        b,
                        start,
                        goal,
                        to_goal,
                        to_start,
                        &mut stats,
                        &mut self.order,
                        control,
                    )
                };
                meeting.cell.map(|meet| {
                    let mut path = walk_back(graph, &self.forward, meet, start);
                    let mut rest = walk_back(graph, &self.backward, meet, goal);
                    rest.reverse();
                    path.extend(rest.into_iter().skip(1));
                    path
                })
            }
            Algorithm::Jps => {
                let estimate = Estimate::new(heuristic, gx, gy, scale);
                let lines = graph.jump_lines();
                let (space, parents) = (&mut self.forward, &mut self.jump_parents);
                if record {
                    jps::<true>(
                        graph,
                        lines,
                        space,
                        parents,
                        start,
                        goal,
                        estimate,
                        scale,
                        &mut stats,
                        &mut self.order,
                        control,
                    )
                } else {
                    jps::<false>(
                        graph,
                        lines,
                        space,
                        parents,
                        start,
                        goal,
                        estimate,
                        scale,
                        &mut stats,
                        &mut self.order,
                        control,
                    )
                }
            }
            // Answered before the timer started.
            Algorithm::Hpa => None,
            Algorithm::DStarLite => {
                let order = record.then_some(&mut self.order);
                dstar_lite_once(graph, start, goal, heuristic, &mut stats, order)
            }
            Algorithm::IdaStar => {
                let estimate = Estimate::new(heuristic, gx, gy, scale);
                let on_path = &mut self.on_path;
                let budget = IDASTAR_NODE_BUDGET;
                if record {
                    idastar::<true>(
                        graph,
                        on_path,
                        start,
                        goal,
                        estimate,
                        budget,
                        &mut stats,
                        &mut self.order,
                        control,
                    )
                } else {
                    idastar::<false>(
                        graph,
                        on_path,
                        start,
                        goal,
                        estimate,
                        budget,
                        &mut stats,
                        &mut self.order,
                        control,
                    )
                }
            }
        };
        stats.time_us = started.elapsed().as_micros() as u64;
        if stats.cancelled {
            return Err(SearchError::Cancelled);
        }
        let trace = record.then(|| self.trace(graph, request));
        Ok(result(graph, request, path_indices, stats, trace))
    }

    fn trace(&self, graph: &SearchGraph, request: &SearchRequest) -> Trace {
        let algorithm = request.algorithm;
        let expanded: Vec<Cell> = self.order.iter().map(|&i| graph.cell(i as usize)).collect();
        let (g, parents) = self.costs_and_parents(graph, algorithm);
        let h = expanded
            .iter()
            .map(|&c| ranking_estimate(graph, request, c) as f32)
            .collect();
        let mut open: Vec<u32> = match algorithm {
            Algorithm::Bfs => self.queue.iter().copied().collect(),
            // None of these keeps an open list of its own in `forward`.
            Algorithm::IdaStar | Algorithm::DStarLite | Algorithm::Hpa => Vec::new(),
            Algorithm::Bidirectional => {
                let f = self
                    .forward
                    .heap
                    .entries()
                    .iter()
                    .filter(|e| !self.forward.closed(e.cell() as usize));
                let b = self
                    .backward
                    .heap
                    .entries()
                    .iter()
                    .filter(|e| !self.backward.closed(e.cell() as usize));
                f.chain(b).map(|e| e.cell()).collect()
            }
            _ => self
                .forward
                .heap
                .entries()
                .iter()
                .chain(self.forward.buckets.entries())
                .filter(|e| !self.forward.closed(e.cell() as usize))
                .map(|e| e.cell())
                .collect(),
        };
        open.sort_unstable();
        open.dedup();
        Trace {
            expanded,
            g,
            h,
            parents,
            open: open.into_iter().map(|i| graph.cell(i as usize)).collect(),
        }
    }

    /// The cost so far and the parent of every expanded cell, read from the state arrays the
    /// search left behind.
    fn costs_and_parents(
        &self,
        graph: &SearchGraph,
        algorithm: Algorithm,
    ) -> (Vec<f32>, Vec<Cell>) {
        let mut g = Vec::with_capacity(self.order.len());
        let mut parents = Vec::with_capacity(self.order.len());
        for &i in &self.order {
            let i = i as usize;
            let cell = graph.cell(i);
            let (cost, parent) = match algorithm {
                // They keep their costs elsewhere (or none at all).
                Algorithm::IdaStar | Algorithm::DStarLite | Algorithm::Hpa => (f64::NAN, cell),
                Algorithm::Jps => {
                    let parent = self.jump_parents.get(i).map_or(i, |&p| p as usize);
                    (self.forward.g(i), graph.cell(parent))
                }
                _ => {
                    let forward = &self.forward;
                    let space = if forward.closed(i) {
                        forward
                    } else {
                        &self.backward
                    };
                    let parent = match space.parent(i) {
                        NO_PARENT => cell,
                        d => graph.cell((i as isize - graph.delta(usize::from(d))) as usize),
                    };
                    (space.g(i), parent)
                }
            };
            g.push(cost as f32);
            parents.push(parent);
        }
        (g, parents)
    }
}

/// The estimate a search ranked `cell` by: the request's heuristic towards the goal, scaled by
/// the cheapest terrain cost and, for A*, weighted; 0 for the searches that use none.
fn ranking_estimate(graph: &SearchGraph, request: &SearchRequest, cell: Cell) -> f64 {
    let (heuristic, weight) = match request.algorithm {
        Algorithm::Dijkstra | Algorithm::Bfs => return 0.0,
        Algorithm::AStar => (request.effective_heuristic(), request.weight),
        _ => (request.effective_heuristic(), 1.0),
    };
    let estimate = Estimate::new(
        heuristic,
        request.goal.x,
        request.goal.y,
        graph.min_cost() * weight,
    );
    estimate.at(cell.x as i32, cell.y as i32)
}

/// Follows parent links from `from` back to `origin`; returns the cells from `origin` to `from`.
fn walk_back(graph: &SearchGraph, space: &Space, from: usize, origin: usize) -> Vec<usize> {
    let mut path = vec![from];
    let mut cell = from;
    while cell != origin {
        let parent = space.parent(cell);
        if parent == NO_PARENT {
            break;
        }
        cell = (cell as isize - graph.delta(usize::from(parent))) as usize;
        path.push(cell);
    }
    path.reverse();
    path
}

/// Builds the shared result shape from a path of cell indices.
pub(crate) fn result(
    graph: &SearchGraph,
    request: &SearchRequest,
    path: Option<Vec<usize>>,
    stats: Stats,
    trace: Option<Trace>,
) -> SearchResult {
    let path: Vec<Cell> = path
        .unwrap_or_default()
        .into_iter()
        .map(|i| graph.cell(i))
        .collect();
    let found = !path.is_empty();
    let (cost, length) = if found {
        graph.path_cost(&path).unwrap_or((f64::NAN, f64::NAN))
    } else {
        (0.0, 0.0)
    };
    SearchResult {
        found,
        path,
        cost,
        length,
        stats,
        optimality: request.optimality(),
        trace,
        start: request.start,
        goal: request.goal,
    }
}

/// Checks that an endpoint (`which`: "start" or "goal") lies on the graph and is passable.
pub(crate) fn check_cell(
    graph: &SearchGraph,
    which: &'static str,
    cell: Cell,
) -> Result<(), SearchError> {
    if cell.x >= graph.width() || cell.y >= graph.height() {
        return Err(SearchError::OutOfBounds {
            which,
            cell,
            width: graph.width(),
            height: graph.height(),
        });
    }
    if !graph.is_passable(graph.index(cell)) {
        return Err(SearchError::Blocked { which, cell });
    }
    Ok(())
}

pub(crate) fn check(graph: &SearchGraph, request: &SearchRequest) -> Result<(), SearchError> {
    if graph.diagonal() != request.diagonal {
        return Err(SearchError::DiagonalMismatch {
            prepared: graph.diagonal(),
            requested: request.diagonal,
        });
    }
    check_cell(graph, "start", request.start)?;
    check_cell(graph, "goal", request.goal)?;
    if request.algorithm == Algorithm::Jps {
        if request.diagonal != Diagonal::NoCut {
            return Err(SearchError::UnsupportedDiagonal {
                algorithm: request.algorithm,
                supported: Diagonal::NoCut,
                requested: request.diagonal,
            });
        }
        if graph.uniform_cost().is_none() {
            return Err(SearchError::NonUniformCost {
                algorithm: request.algorithm,
            });
        }
    }
    // Checked for every algorithm, though only A* uses the weight: a request with a weight
    // that means nothing is a mistake, whichever algorithm it names.
    if !(request.weight.is_finite() && request.weight >= 1.0) {
        return Err(SearchError::BadWeight(request.weight));
    }
    Ok(())
}

/// Prepares the grid and runs one search: the simple way in, for one-off queries. For many
/// queries on one map, build a [`SearchGraph`] once and reuse a [`Searcher`].
pub fn solve(grid: &Grid, request: &SearchRequest) -> Result<SearchResult, SearchError> {
    let graph = SearchGraph::new(grid, request.diagonal);
    Searcher::new().search(&graph, request)
}
