//! "Compare all" as a fair race: every algorithm runs cold, on search state built afresh for
//! it from the map (D* Lite from scratch, HPA*'s abstraction and the contraction hierarchy
//! built anew), one after another on the worker, with the time of that build and the time of
//! the query kept apart. The panel follows the race through a [`CompareProgress`]: which
//! algorithm runs, how many remain, and a skip for the one running.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use crate::grid::Grid;
use crate::search::{
    Algorithm, Replanner, SearchControl, SearchError, SearchRequest, SearchResult,
};
use crate::smooth::SmoothSettings;

use super::solver::{Failure, Solver, run_guarded};

/// One row of "compare all": an algorithm and what it gave.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Its result, or why it could not run on this map (skipped: cancelled).
    pub outcome: Result<SearchResult, Failure>,
    /// The time of everything but the query, in microseconds: building the search state
    /// afresh (D* Lite's first costs, HPA*'s abstraction, the contraction hierarchy). The
    /// query's own time is the result's `stats.time_us`.
    pub build_us: u64,
    /// The smoothing of the path it found, with the Path panel's settings; `None` when it
    /// found none or the path could not be smoothed.
    pub smoothed: Option<SmoothedRun>,
}

impl Comparison {
    /// Whether the user skipped this algorithm while it ran.
    pub fn skipped(&self) -> bool {
        matches!(self.outcome, Err(Failure::Search(SearchError::Cancelled)))
    }
}

/// What smoothing one path of "compare all" gave, and what it took.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmoothedRun {
    /// The cost of the line-of-sight path (an any-angle path's own cost: it is curved as it
    /// is).
    pub cost: f64,
    /// The time smoothing took, line of sight and curves, in microseconds.
    pub time_us: u64,
}

/// How far a comparison has got, shared by the worker that runs it and the panel that shows
/// it.
#[derive(Debug)]
pub struct CompareProgress {
    /// The place in [`Algorithm::ALL`] of the algorithm running.
    index: AtomicUsize,
    /// The control of the algorithm running: cancelling it skips that algorithm alone.
    current: Mutex<Arc<SearchControl>>,
}

impl Default for CompareProgress {
    fn default() -> Self {
        Self {
            index: AtomicUsize::new(0),
            current: Mutex::new(Arc::new(SearchControl::new())),
        }
    }
}

impl CompareProgress {
    /// The algorithm running.
    pub fn algorithm(&self) -> Algorithm {
        let index = self.index.load(Ordering::Relaxed);
        Algorithm::ALL[index.min(Algorithm::ALL.len() - 1)]
    }

    /// The algorithm running's place, from 1, and how many algorithms there are in all.
    pub fn position(&self) -> (usize, usize) {
        let total = Algorithm::ALL.len();
        ((self.index.load(Ordering::Relaxed) + 1).min(total), total)
    }

    /// The cells the algorithm running has expanded so far.
    pub fn expanded(&self) -> u64 {
        self.control().expanded()
    }

    /// Stops the algorithm running; the comparison goes on with the next one.
    pub fn skip(&self) {
        self.control().cancel();
    }

    fn control(&self) -> Arc<SearchControl> {
        Arc::clone(&self.current.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Starts the algorithm at `index` with a control of its own.
    fn begin(&self, index: usize) -> Arc<SearchControl> {
        let control = Arc::new(SearchControl::new());
        *self.current.lock().unwrap_or_else(PoisonError::into_inner) = Arc::clone(&control);
        self.index.store(index, Ordering::Relaxed);
        control
    }
}

/// Runs every algorithm on `request` over `grid`, each on search state of its own built
/// afresh, and smooths each path found with `smoothing`. `control` stops the whole race;
/// `progress` says which algorithm runs and skips it.
pub fn run(
    grid: &Grid,
    request: &SearchRequest,
    smoothing: &SmoothSettings,
    solver: &Solver,
    control: &SearchControl,
    progress: &CompareProgress,
) -> Vec<Comparison> {
    let mut rows = Vec::new();
    for (index, &algorithm) in Algorithm::ALL.iter().enumerate() {
        let own = progress.begin(index);
        if control.is_cancelled() {
            break;
        }
        let request = request.clone().with_algorithm(algorithm).recording(false);
        // Cold: nothing kept from the editor's searches or from the other algorithms.
        let mut cold = Replanner::new(grid.clone(), request.diagonal);
        let started = Instant::now();
        let outcome = run_guarded(solver, &mut cold, &request, &own);
        let total_us = started.elapsed().as_micros() as u64;
        let build_us = match &outcome {
            Ok(result) => total_us.saturating_sub(result.stats.time_us),
            Err(_) => 0,
        };
        let smoothed = match &outcome {
            Ok(result) if result.found => {
                let started = Instant::now();
                result
                    .smoothed(cold.grid(), smoothing)
                    .ok()
                    .map(|path| SmoothedRun {
                        cost: path.cost,
                        time_us: started.elapsed().as_micros() as u64,
                    })
            }
            _ => None,
        };
        rows.push(Comparison {
            algorithm,
            outcome,
            build_us,
            smoothed,
        });
    }
    rows
}
