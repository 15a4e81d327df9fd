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
use super::request::{SearchError, SearchRequest, SearchResult};
use super::searcher::Searcher;

/// Answers every request on `graph`, on up to `threads` threads (at least one; never more than
/// there are requests, nor than the machine's cores: more threads than cores would only share
/// them). The answers are in the order of the requests. Every request must use
/// the graph's diagonal rule, as with [`Searcher::search`].
pub fn solve_batch(
    graph: &SearchGraph,
    requests: &[SearchRequest],
    threads: usize,
) -> Vec<Result<SearchResult, SearchError>> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let threads = threads.clamp(1, requests.len().max(1).min(cores));
    if threads == 1 {
        let mut searcher = Searcher::new();
        return requests
            .iter()
            .map(|request| searcher.search(graph, request))
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
                        mine.push((i, searcher.search(graph, request)));
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
}
