//! A search stopped through its [`SearchControl`] from another thread.

use std::sync::mpsc;

use crate::control::CHECK_EVERY;
use crate::grid::{Cell, Grid, Terrain};
use crate::search::{
    Algorithm, Heuristic, SearchControl, SearchError, SearchGraph, SearchRequest, Searcher,
};

/// The search is held at its first checkpoint until this thread has cancelled it: no race
/// between the search finishing and the cancellation, however loaded the machine.
#[test]
fn a_search_cancelled_from_another_thread_stops_early() {
    let grid = Grid::new(1000, 1000, Terrain::default_catalog(), 0).unwrap();
    for algorithm in [
        Algorithm::Dijkstra,
        Algorithm::Bfs,
        Algorithm::Bidirectional,
    ] {
        let request = SearchRequest::new(Cell::new(0, 0), Cell::new(999, 999))
            .with_algorithm(algorithm)
            .with_heuristic(Heuristic::Zero);
        let graph = SearchGraph::new(&grid, request.diagonal);
        let control = SearchControl::new();
        let (reached, reached_rx) = mpsc::channel();
        let (resume, resume_rx) = mpsc::channel::<()>();
        let resume_rx = std::sync::Mutex::new(resume_rx);
        let hook: Box<dyn Fn(u64) + Send + Sync> = Box::new(move |expanded| {
            // Only the first checkpoint waits; later ones find the sender gone.
            if reached.send(expanded).is_ok() {
                let _ = resume_rx.lock().expect("the resume channel").recv();
            }
        });
        assert!(control.on_checkpoint(hook));
        std::thread::scope(|scope| {
            let search =
                scope.spawn(|| Searcher::new().search_controlled(&graph, &request, &control));
            let first = reached_rx.recv().expect("the search reaches a checkpoint");
            assert_eq!(first, CHECK_EVERY, "{algorithm}");
            drop(reached_rx);
            control.cancel();
            resume.send(()).expect("the search waits to resume");
            let outcome = search.join().expect("the search thread");
            assert_eq!(outcome, Err(SearchError::Cancelled), "{algorithm}");
        });
        assert_eq!(
            control.expanded(),
            CHECK_EVERY,
            "{algorithm} stopped at the checkpoint after the cancellation"
        );
    }
}
