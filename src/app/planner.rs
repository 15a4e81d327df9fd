//! Where the editor's searches run: a [`SearchRequest`] goes in, a [`SearchResult`] comes out.
//!
//! The search runs at once, on the calling thread; the rest of the editor only submits
//! requests and reads the latest outcome, so moving the work to a worker thread changes
//! this file alone.

use crate::grid::Grid;
use crate::search::{self, SearchError, SearchRequest, SearchResult};

/// The latest search and its outcome.
#[derive(Debug, Default)]
pub struct Planner {
    request: Option<SearchRequest>,
    outcome: Option<Result<SearchResult, SearchError>>,
}

impl Planner {
    /// A planner with nothing searched yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Searches the grid for a request; the outcome replaces the previous one.
    pub fn submit(&mut self, grid: &Grid, request: SearchRequest) {
        self.outcome = Some(search::solve(grid, &request));
        self.request = Some(request);
    }

    /// Forgets the last outcome (the markers are missing, or the map was replaced).
    pub fn clear(&mut self) {
        self.request = None;
        self.outcome = None;
    }

    /// The request of the latest outcome.
    pub fn request(&self) -> Option<&SearchRequest> {
        self.request.as_ref()
    }

    /// The latest outcome: a result, or why the search could not run.
    pub fn outcome(&self) -> Option<&Result<SearchResult, SearchError>> {
        self.outcome.as_ref()
    }

    /// The latest result, when the search ran.
    pub fn result(&self) -> Option<&SearchResult> {
        self.outcome.as_ref().and_then(|o| o.as_ref().ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Cell;

    #[test]
    fn a_submitted_request_yields_its_result() {
        let grid = Grid::from_ascii(&["....", ".##.", "...."]).unwrap();
        let mut planner = Planner::new();
        planner.submit(&grid, SearchRequest::new(Cell::new(0, 1), Cell::new(3, 1)));
        let result = planner.result().unwrap();
        assert!(result.found);
        assert_eq!(result.path.last(), Some(&Cell::new(3, 1)));
        planner.submit(&grid, SearchRequest::new(Cell::new(1, 1), Cell::new(3, 1)));
        assert!(matches!(
            planner.outcome(),
            Some(Err(SearchError::Blocked { .. }))
        ));
        planner.clear();
        assert!(planner.outcome().is_none());
    }
}
