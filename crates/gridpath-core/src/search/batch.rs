//! Many queries on one map, on several threads: each thread keeps one [`Searcher`] (its state
//! arrays are allocated once and reused for every query it takes), and threads take the next
//! query as they finish one, so a few long queries do not hold the others up.
//!
//! Plain scoped threads do the job: the work is a shared counter over a slice, and the answers
//! come back in the order of the requests.
//!
//! ```
//! use gridpath_core::grid::{Cell, Grid};
//! use gridpath_core::search::{Diagonal, SearchGraph, SearchRequest, solve_batch};
//!
//! let grid = Grid::from_ascii(&["......", ".####.", "......"]).expect("a valid map");
//! let graph = SearchGraph::new(&grid, Diagonal::NoCut);
//! let requests: Vec<SearchRequest> = (0..6)
//!     .map(|x| SearchRequest::new(Cell::new(0, 0), Cell::new(x, 2)))
//!     .collect();
//! let answers = solve_batch(&graph, &requests, 2);
//! assert_eq!(answers.len(), 6);
//! assert!(answers.iter().all(|a| a.as_ref().is_ok_and(|r| r.found)));
//! assert_eq!(answers[5].as_ref().map(|r| r.path.last().copied()), Ok(Some(Cell::new(5, 2))));
//! ```

use std::sync::atomic::{AtomicUsize, Ordering};

use super::graph::SearchGraph;
use super::request::{Algorithm, SearchError, SearchRequest, SearchResult};
use super::searcher::Searcher;
use super::{ContractionHierarchy, DEFAULT_CLUSTER_SIZE, HpaGraph};
use crate::control::{SearchControl, UNCONTROLLED};

/// Answers every request on `graph`, on up to `threads` threads (at least one; never more than
/// there are requests, nor than the machine's cores: more threads than cores would only share
/// them). The answers are in the order of the requests. Every request must use
/// the graph's diagonal rule, as with [`Searcher::search`].
pub fn solve_batch(
    graph: &SearchGraph,
    requests: &[SearchRequest],
    threads: usize,
) -> Vec<Result<SearchResult, SearchError>> {
    solve_batch_controlled(graph, requests, threads, &UNCONTROLLED)
}

/// [`solve_batch`] that another thread can cancel through `control`: once it is cancelled,
/// the searches running stop within [`SearchControl::CHECK_EVERY`] expansions and every
/// request not yet answered is answered [`SearchError::Cancelled`] without a search.
pub fn solve_batch_controlled(
    graph: &SearchGraph,
    requests: &[SearchRequest],
    threads: usize,
    control: &SearchControl,
) -> Vec<Result<SearchResult, SearchError>> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let threads = threads.clamp(1, requests.len().max(1).min(cores));
    let answer = |searcher: &mut Searcher, request: &SearchRequest| {
        if control.is_cancelled() {
            Err(SearchError::Cancelled)
        } else {
            searcher.search_controlled(graph, request, control)
        }
    };
    if threads == 1 {
        let mut searcher = Searcher::new();
        return requests
            .iter()
            .map(|request| answer(&mut searcher, request))
            .collect();
    }
    let next = AtomicUsize::new(0);
    let mut answered: Vec<(usize, Result<SearchResult, SearchError>)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut searcher = Searcher::new();
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(request) = requests.get(i) else {
                            break;
                        };
                        mine.push((i, answer(&mut searcher, request)));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| match worker.join() {
                Ok(mine) => mine,
                // A search that panics is a bug: let it surface on the caller's thread.
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    });
    answered.sort_unstable_by_key(|&(i, _)| i);
    answered.into_iter().map(|(_, answer)| answer).collect()
}

/// Answers every request on `graph` the quickest way for its algorithm: HPA* and the
/// contraction hierarchy, when every request names the same one, build their structure once
/// (its time is not in the answers' `time_us`) and answer on one thread; the other algorithms
/// answer through [`solve_batch_controlled`] on up to `threads` threads. Cancelled through
/// `control` like it.
///
/// ```
/// use gridpath_core::grid::{Cell, Grid};
/// use gridpath_core::search::{Algorithm, Diagonal, SearchControl, SearchGraph, SearchRequest, solve_all};
///
/// let grid = Grid::from_ascii(&["........"; 8]).expect("a valid map");
/// let graph = SearchGraph::new(&grid, Diagonal::NoCut);
/// let requests: Vec<SearchRequest> = (0..8)
///     .map(|y| SearchRequest::new(Cell::new(0, 0), Cell::new(7, y)).with_algorithm(Algorithm::Hpa))
///     .collect();
/// let answers = solve_all(&graph, &requests, 2, &SearchControl::new());
/// assert!(answers.iter().all(|a| a.as_ref().is_ok_and(|r| r.found)));
/// ```
pub fn solve_all(
    graph: &SearchGraph,
    requests: &[SearchRequest],
    threads: usize,
    control: &SearchControl,
) -> Vec<Result<SearchResult, SearchError>> {
    let shared = requests.first().map(|r| r.algorithm).filter(|&algorithm| {
        requests.iter().all(|r| r.algorithm == algorithm)
            && matches!(algorithm, Algorithm::Hpa | Algorithm::ContractionHierarchy)
    });
    let every = |error: SearchError| requests.iter().map(|_| Err(error.clone())).collect();
    match shared {
        Some(Algorithm::Hpa) => {
            match HpaGraph::from_graph_controlled(graph.clone(), DEFAULT_CLUSTER_SIZE, control) {
                Ok(mut hpa) => requests
                    .iter()
                    .map(|r| unless_cancelled(control, || hpa.find_path(r)))
                    .collect(),
                Err(error) => every(error),
            }
        }
        Some(_) => {
            let built = ContractionHierarchy::check_size(graph)
                .and_then(|()| ContractionHierarchy::from_graph_controlled(graph.clone(), control));
            match built {
                Ok(mut ch) => requests
                    .iter()
                    .map(|r| unless_cancelled(control, || ch.find_path(r)))
                    .collect(),
                Err(error) => every(error),
            }
        }
        None => solve_batch_controlled(graph, requests, threads, control),
    }
}

/// Runs one query of a batch, or answers [`SearchError::Cancelled`] once `control` is cancelled
/// (the queries of HPA* and the contraction hierarchy look for a cancellation between them).
pub(crate) fn unless_cancelled(
    control: &SearchControl,
    query: impl FnOnce() -> Result<SearchResult, SearchError>,
) -> Result<SearchResult, SearchError> {
    if control.is_cancelled() {
        Err(SearchError::Cancelled)
    } else {
        query()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Cell, Grid, Terrain};
    use crate::search::{Algorithm, Diagonal};

    #[test]
    fn answers_on_many_threads_equal_the_answers_on_one() {
        let mut grid = Grid::new(60, 40, Terrain::default_catalog(), 0).unwrap();
        for y in 0..35 {
            grid.set(Cell::new(30, y), 3).unwrap();
        }
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        let requests: Vec<SearchRequest> = (0..97u32)
            .map(|i| {
                SearchRequest::new(
                    Cell::new(i % 25, i % 40),
                    Cell::new(59 - i % 20, (i * 7) % 40),
                )
                .with_algorithm(Algorithm::ALL[i as usize % 4])
            })
            .collect();
        let one = solve_batch(&graph, &requests, 1);
        for threads in [2, 3, 8] {
            let many = solve_batch(&graph, &requests, threads);
            assert_eq!(many.len(), requests.len());
            for (a, b) in one.iter().zip(&many) {
                let (a, b) = (a.as_ref().unwrap(), b.as_ref().unwrap());
                assert_eq!((a.found, a.cost, &a.path), (b.found, b.cost, &b.path));
            }
        }
        assert!(solve_batch(&graph, &[], 4).is_empty());
    }

    #[test]
    fn a_cancelled_batch_answers_cancelled_without_searching() {
        let grid = Grid::new(30, 30, Terrain::default_catalog(), 0).unwrap();
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        let requests: Vec<SearchRequest> = (0..10u32)
            .map(|i| SearchRequest::new(Cell::new(0, i), Cell::new(29, 29)))
            .collect();
        let control = SearchControl::new();
        control.cancel();
        for threads in [1, 3] {
            let answers = solve_batch_controlled(&graph, &requests, threads, &control);
            assert_eq!(answers.len(), requests.len());
            assert!(answers.iter().all(|a| *a == Err(SearchError::Cancelled)));
            let all = solve_all(&graph, &requests, threads, &control);
            assert!(all.iter().all(|a| *a == Err(SearchError::Cancelled)));
        }
        assert_eq!(control.expanded(), 0, "no search ran");
    }

    #[test]
    fn prepared_algorithms_answer_a_batch_like_astar() {
        let mut grid = Grid::new(40, 30, Terrain::default_catalog(), 0).unwrap();
        for y in 0..25 {
            grid.set(Cell::new(20, y), 3).unwrap();
        }
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        let requests: Vec<SearchRequest> = (0..12u32)
            .map(|i| SearchRequest::new(Cell::new(i, (i * 5) % 30), Cell::new(39 - i, 29 - i)))
            .collect();
        let exact = solve_batch(&graph, &requests, 2);
        let with = |algorithm| -> Vec<SearchRequest> {
            requests
                .iter()
                .map(|r| r.clone().with_algorithm(algorithm))
                .collect()
        };
        let control = SearchControl::new();
        let ch = solve_all(&graph, &with(Algorithm::ContractionHierarchy), 2, &control);
        let hpa = solve_all(&graph, &with(Algorithm::Hpa), 2, &control);
        for ((a, c), h) in exact.iter().zip(&ch).zip(&hpa) {
            let (a, c, h) = (
                a.as_ref().unwrap(),
                c.as_ref().unwrap(),
                h.as_ref().unwrap(),
            );
            assert!((a.cost - c.cost).abs() < 1e-9);
            assert_eq!(c.optimality, crate::search::Optimality::Exact);
            assert!(h.found && h.cost >= a.cost - 1e-9);
        }
    }
}
