//! "Compare all" as a fair race: every algorithm runs cold, on search state built afresh for
//! it from the map (D* Lite from scratch, HPA*'s abstraction and the contraction hierarchy
//! built anew), with the time of that build and the time of the query kept apart. The
//! algorithms are independent, so they run on all cores, one a lane (each lane's times are its
//! own; on a loaded machine they read a little higher than alone). The panel follows the race
//! through a [`CompareProgress`]: which algorithms run, how many remain, and a skip for each.

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

/// How far a comparison has got, shared by the workers that run it and the panel that shows
/// it: which algorithms run (one a lane), how many are done, and a skip for each.
#[derive(Debug)]
pub struct CompareProgress {
    total: usize,
    /// The place in [`Algorithm::ALL`] of the next algorithm to hand out.
    next: AtomicUsize,
    /// How many algorithms have finished (or were skipped).
    done: AtomicUsize,
    /// The algorithms running, by their place in [`Algorithm::ALL`], each with its control:
    /// cancelling one skips that algorithm alone.
    running: Mutex<Vec<(usize, Arc<SearchControl>)>>,
}

impl Default for CompareProgress {
    fn default() -> Self {
        Self {
            total: Algorithm::ALL.len(),
            next: AtomicUsize::new(0),
            done: AtomicUsize::new(0),
            running: Mutex::new(Vec::new()),
        }
    }
}

impl CompareProgress {
    /// The algorithms running, in the order of [`Algorithm::ALL`].
    pub fn running(&self) -> Vec<Algorithm> {
        let mut places: Vec<usize> = self.lanes().iter().map(|(i, _)| *i).collect();
        places.sort_unstable();
        places.into_iter().map(|i| Algorithm::ALL[i]).collect()
    }

    /// How many algorithms have finished or were skipped, and how many there are in all.
    pub fn done(&self) -> (usize, usize) {
        (
            self.done.load(Ordering::Relaxed).min(self.total),
            self.total,
        )
    }

    /// How many algorithms have not started yet.
    pub fn waiting(&self) -> usize {
        self.total
            .saturating_sub(self.next.load(Ordering::Relaxed).min(self.total))
    }

    /// The cells the algorithms running have expanded so far.
    pub fn expanded(&self) -> u64 {
        self.lanes().iter().map(|(_, c)| c.expanded()).sum()
    }

    /// Stops `algorithm` if it is running; the comparison goes on with the others.
    pub fn skip(&self, algorithm: Algorithm) {
        for (i, control) in self.lanes().iter() {
            if Algorithm::ALL[*i] == algorithm {
                control.cancel();
            }
        }
    }

    /// Stops every algorithm running.
    pub fn skip_running(&self) {
        for (_, control) in self.lanes().iter() {
            control.cancel();
        }
    }

    fn lanes(&self) -> std::sync::MutexGuard<'_, Vec<(usize, Arc<SearchControl>)>> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Hands out the next algorithm to run, with a control of its own; `None` when every
    /// algorithm has been handed out.
    fn begin(&self) -> Option<(usize, Arc<SearchControl>)> {
        let mut lanes = self.lanes();
        let index = self.next.fetch_add(1, Ordering::Relaxed);
        if index >= self.total {
            return None;
        }
        let control = Arc::new(SearchControl::new());
        lanes.push((index, Arc::clone(&control)));
        Some((index, control))
    }

    /// Marks the algorithm at `index` done.
    fn finish(&self, index: usize) {
        self.lanes().retain(|(i, _)| *i != index);
        self.done.fetch_add(1, Ordering::Relaxed);
    }
}

/// How many algorithms a comparison runs at once by default: one a core.
pub fn default_lanes() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// Runs every algorithm on `request` over `grid`, each on search state of its own built
/// afresh, and smooths each path found with `smoothing`: `lanes` algorithms at once, each on
/// a thread of its own, the rows in the order of [`Algorithm::ALL`]. `control` stops the whole
/// race; `progress` says which algorithms run and skips one.
pub fn run(
    grid: &Grid,
    request: &SearchRequest,
    smoothing: &SmoothSettings,
    solver: &Solver,
    control: &SearchControl,
    progress: &CompareProgress,
    lanes: usize,
) -> Vec<Comparison> {
    let rows: Mutex<Vec<Option<Comparison>>> = Mutex::new(vec![None; Algorithm::ALL.len()]);
    let lane = || {
        while !control.is_cancelled() {
            let Some((index, own)) = progress.begin() else {
                break;
            };
            let row = run_one(
                grid,
                request,
                smoothing,
                solver,
                Algorithm::ALL[index],
                &own,
            );
            rows.lock().unwrap_or_else(PoisonError::into_inner)[index] = Some(row);
            progress.finish(index);
        }
    };
    let lanes = lanes.clamp(1, Algorithm::ALL.len());
    std::thread::scope(|scope| {
        for _ in 1..lanes {
            scope.spawn(lane);
        }
        lane();
    });
    rows.into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .into_iter()
        .flatten()
        .collect()
}

/// Runs one algorithm of a comparison cold, watched by its own control.
fn run_one(
    grid: &Grid,
    request: &SearchRequest,
    smoothing: &SmoothSettings,
    solver: &Solver,
    algorithm: Algorithm,
    own: &SearchControl,
) -> Comparison {
    let request = request.clone().with_algorithm(algorithm).recording(false);
    // Cold: nothing kept from the editor's searches or from the other algorithms.
    let mut cold = Replanner::new(grid.clone(), request.diagonal);
    let started = Instant::now();
    let outcome = run_guarded(solver, &mut cold, &request, own);
    let total_us = started.elapsed().as_micros() as u64;
    let build_us = match &outcome {
        Ok(result) => total_us.saturating_sub(result.stats.time_us),
        Err(_) => 0,
    };
    let smoothed = match &outcome {
        Ok(result) if result.found => {
            let started = Instant::now();
            result
                .smoothed_controlled(cold.grid(), &[], smoothing, own)
                .ok()
                .map(|path| SmoothedRun {
                    cost: path.cost,
                    time_us: started.elapsed().as_micros() as u64,
                })
        }
        _ => None,
    };
    Comparison {
        algorithm,
        outcome,
        build_us,
        smoothed,
    }
}
