//! The search the editor's worker runs, and what comes of it: a [`Solver`] (the library's
//! replanner, or a test's own), its [`Failure`]s, and [`run_guarded`], which turns a panic into
//! a failure instead of taking the editor down.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use crate::search::{Replanner, SearchControl, SearchError, SearchRequest, SearchResult};

/// Runs one search on the worker's search state, for the request, watching the control.
/// Tests put their own in to make searches slow or panic on purpose.
pub type Solver =
    Arc<dyn Fn(&mut Replanner, &SearchRequest, &SearchControl) -> SearchOutcome + Send + Sync>;

/// What one search gave: a result, or why it could not run.
pub type SearchOutcome = Result<SearchResult, SearchError>;

/// The solver the editor uses: the library's replanner, watched by the control.
pub fn library_solver() -> Solver {
    Arc::new(Replanner::plan)
}

/// Why a job gave no result.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// The search could not run (blocked marker, unsuitable map) or was cancelled.
    Search(SearchError),
    /// The search panicked: a bug, reported instead of taking the editor down.
    Panicked(String),
    /// The map could not be prepared for the unit's size.
    Unit(String),
    /// The unit does not fit at the start or the goal.
    Misfit(crate::search::UnitMisfit),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Search(error) => write!(f, "{error}"),
            Failure::Panicked(message) => write!(f, "the search failed unexpectedly: {message}"),
            Failure::Unit(message) => {
                write!(f, "the map cannot be prepared for the unit: {message}")
            }
            Failure::Misfit(misfit) => write!(f, "{misfit}"),
        }
    }
}

/// Runs the solver, turning a panic into a [`Failure`] and the search state into a fresh one.
pub fn run_guarded(
    solver: &Solver,
    replanner: &mut Replanner,
    request: &SearchRequest,
    control: &SearchControl,
) -> Result<SearchResult, Failure> {
    let outcome = catch_unwind(AssertUnwindSafe(|| solver(replanner, request, control)));
    match outcome {
        Ok(result) => result.map_err(Failure::Search),
        Err(panic) => {
            let grid = replanner.grid().clone();
            replanner.replace(grid);
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".to_owned());
            Err(Failure::Panicked(message))
        }
    }
}
