//! The entry point of every search: checks the request, runs the algorithm its entry in the
//! [registry](super::algorithms) names, builds the result.

use std::time::Instant;

use crate::grid::{Cell, Grid};

use super::algorithms::{Run, TraceFrom};
use super::graph::SearchGraph;
use super::heuristic::Estimate;
use super::outcome::{check, result};
use super::request::{Heuristic, SearchError, SearchRequest, SearchResult, Stats, Trace};
use super::space::NO_PARENT;
use super::workspace::{Query, Workspace};
use crate::control::{SearchControl, UNCONTROLLED};

/// Runs searches, keeping its state arrays between them so that a query allocates nothing
/// once the arrays have grown to the map's size.
#[derive(Debug, Default)]
pub struct Searcher {
    ws: Workspace,
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
        let mut state = (self, graph);
        super::partial::plan(
            &mut state,
            |(_, graph)| graph,
            request,
            control,
            |(searcher, graph), request| searcher.search_once(graph, request, control),
        )
    }

    /// One search for the request as it is (no partial fallback).
    fn search_once(
        &mut self,
        graph: &SearchGraph,
        request: &SearchRequest,
        control: &SearchControl,
    ) -> Result<SearchResult, SearchError> {
        if request.turn_penalty != 0.0 {
            check(graph, request)?;
            return super::classic::turns::search(graph, request, control);
        }
        let run = match request.algorithm.info().run {
            // Builds its own structure first; that time is not in `time_us`.
            Run::Whole(whole) => return whole(graph, request, control),
            Run::Cells(run) | Run::AnyAngle(run) => run,
        };
        check(graph, request)?;
        if control.is_cancelled() {
            return Err(SearchError::Cancelled);
        }
        // The tables kept with the map are built before the clock starts, as HPA* and the
        // contraction hierarchy build theirs: `time_us` is the query's own.
        request.algorithm.info().prepare(graph);
        let started = Instant::now();
        let mut stats = Stats::default();
        self.ws.order.clear();
        let query = Query::new(graph, request);
        let path = run(&mut self.ws, &query, control, &mut stats);
        stats.time_us = started.elapsed().as_micros() as u64;
        if stats.cancelled {
            return Err(SearchError::Cancelled);
        }
        let trace = request.record.then(|| self.trace(graph, request));
        Ok(match request.algorithm.info().run {
            Run::AnyAngle(_) => super::any_angle::result(graph, request, path, stats, trace),
            Run::Cells(_) | Run::Whole(_) => result(graph, request, path, stats, trace),
        })
    }

    fn trace(&self, graph: &SearchGraph, request: &SearchRequest) -> Trace {
        let from = request.algorithm.info().trace;
        let ws = &self.ws;
        let expanded: Vec<Cell> = ws.order.iter().map(|&i| graph.cell(i as usize)).collect();
        let (g, parents) = self.costs_and_parents(graph, from);
        let h = expanded
            .iter()
            .map(|&c| ranking_estimate(graph, request, c) as f32)
            .collect();
        let mut open: Vec<u32> = match from {
            TraceFrom::Queue => ws.queue.iter().copied().collect(),
            TraceFrom::Nothing => Vec::new(),
            TraceFrom::BothEnds => {
                let f = ws
                    .forward
                    .heap
                    .entries()
                    .iter()
                    .filter(|e| !ws.forward.closed(e.cell() as usize));
                let b = ws
                    .backward
                    .heap
                    .entries()
                    .iter()
                    .filter(|e| !ws.backward.closed(e.cell() as usize));
                f.chain(b).map(super::frontier::heap::Entry::cell).collect()
            }
            TraceFrom::Forward | TraceFrom::JumpPoints | TraceFrom::Vertices => ws
                .forward
                .heap
                .entries()
                .iter()
                .chain(ws.forward.buckets.entries())
                .filter(|e| !ws.forward.closed(e.cell() as usize))
                .map(super::frontier::heap::Entry::cell)
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
    fn costs_and_parents(&self, graph: &SearchGraph, from: TraceFrom) -> (Vec<f32>, Vec<Cell>) {
        let ws = &self.ws;
        let mut g = Vec::with_capacity(ws.order.len());
        let mut parents = Vec::with_capacity(ws.order.len());
        for &i in &ws.order {
            let i = i as usize;
            let cell = graph.cell(i);
            let (cost, parent) = match from {
                // They keep their costs elsewhere (or none at all).
                TraceFrom::Nothing => (f64::NAN, cell),
                TraceFrom::Vertices => {
                    let parent = ws.vertex_parents.get(i).map_or(i, |&p| p as usize);
                    (ws.forward.g(i), graph.cell(parent))
                }
                TraceFrom::JumpPoints => {
                    let parent = ws.jump_parents.get(i).map_or(i, |&p| p as usize);
                    (ws.forward.g(i), graph.cell(parent))
                }
                TraceFrom::Forward | TraceFrom::Queue | TraceFrom::BothEnds => {
                    let forward = &ws.forward;
                    let space = if forward.closed(i) {
                        forward
                    } else {
                        &ws.backward
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
    let info = request.algorithm.info();
    if info.guarantee == super::Guarantee::AnyAngle {
        let goal = request.goal;
        return Estimate::new(
            graph.topology(),
            Heuristic::Euclidean,
            goal.x,
            goal.y,
            graph.min_cost(),
        )
        .at(cell.x as i32, cell.y as i32);
    }
    if !info.uses_heuristic {
        return 0.0;
    }
    let weight = if info.uses_weight {
        request.weight
    } else {
        1.0
    };
    let heuristic = request.heuristic_on(graph.topology());
    let estimate = Estimate::new(
        graph.topology(),
        heuristic,
        request.goal.x,
        request.goal.y,
        graph.min_cost() * weight,
    );
    estimate.at(cell.x as i32, cell.y as i32)
}

/// Prepares the grid and runs one search: the simple way in, for one-off queries. For many
/// queries on one map, build a [`SearchGraph`] once and reuse a [`Searcher`].
pub fn solve(grid: &Grid, request: &SearchRequest) -> Result<SearchResult, SearchError> {
    let graph = SearchGraph::new(grid, request.diagonal);
    Searcher::new().search(&graph, request)
}
