//! Watching a running search, smoothing or build from another thread, and stopping it: the
//! token the searches, the smoother and the multi-agent solvers all take, kept apart from each
//! of them so that none looks up at another for it (re-exported as
//! `search::SearchControl`).

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

/// How often, in expansions, a search reports its progress and looks for a cancellation.
/// A power of two, so the check in the inner loop is one mask and one predictable branch.
pub(crate) const CHECK_EVERY: u64 = 1024;

/// Shared between a running search and whoever waits for it: the search publishes how many
/// cells it has expanded, and stops soon after [`SearchControl::cancel`] is called (within
/// [`CHECK_EVERY`] expansions), returning its error for a cancellation (the searches'
/// `SearchError::Cancelled`).
///
/// ```
/// use gridpath_core::grid::{Cell, Grid};
/// use gridpath_core::search::{SearchControl, SearchError, SearchGraph, SearchRequest, Searcher};
///
/// let grid = Grid::from_ascii(&["....", "....", "...."]).expect("valid map");
/// let request = SearchRequest::new(Cell::new(0, 0), Cell::new(3, 2));
/// let graph = SearchGraph::new(&grid, request.diagonal);
/// let control = SearchControl::new();
/// control.cancel();
/// let outcome = Searcher::new().search_controlled(&graph, &request, &control);
/// assert_eq!(outcome, Err(SearchError::Cancelled));
/// ```
#[derive(Debug, Default)]
pub struct SearchControl {
    cancelled: AtomicBool,
    expanded: AtomicU64,
    /// The distinct cells expanded, plus one, for a search that expands a cell more than once
    /// (0: none published).
    cells: AtomicU64,
    /// How far a build has got, in parts of [`BUILD_PARTS`], plus one (0: no build reported).
    build: AtomicU32,
    /// Called at every checkpoint, before the search looks for a cancellation: lets a test
    /// hold the search at a known point instead of racing it.
    #[cfg(test)]
    on_checkpoint: hook::Hook,
    /// How often [`is_cancelled`](Self::is_cancelled) was asked, and after how many asks it
    /// cancels the control itself (0: never): lets a test stop a loop at a known poll.
    #[cfg(test)]
    polls: (AtomicU64, AtomicU64),
}

impl SearchControl {
    /// How many expansions a search may still make after a cancellation before it stops
    /// (it looks for one this often); builds of a whole structure (HPA*'s abstraction) look
    /// between pieces of their own.
    pub const CHECK_EVERY: u64 = CHECK_EVERY;

    /// A control that has not been cancelled.
    pub const fn new() -> Self {
        Self {
            cancelled: AtomicBool::new(false),
            expanded: AtomicU64::new(0),
            cells: AtomicU64::new(0),
            build: AtomicU32::new(0),
            #[cfg(test)]
            on_checkpoint: hook::Hook::new(),
            #[cfg(test)]
            polls: (AtomicU64::new(0), AtomicU64::new(0)),
        }
    }

    /// Sets the function run at each checkpoint, before the search looks for a cancellation;
    /// false when one was set already.
    #[cfg(test)]
    pub(crate) fn on_checkpoint(&self, hook: Box<dyn Fn(u64) + Send + Sync>) -> bool {
        self.on_checkpoint.0.set(hook).is_ok()
    }

    /// Cancels the control at the `n`th time a search asks whether it is cancelled.
    #[cfg(test)]
    pub(crate) fn cancel_at_poll(&self, n: u64) {
        self.polls.1.store(n, Ordering::Relaxed);
    }

    /// How many times a search asked whether the control is cancelled.
    #[cfg(test)]
    pub(crate) fn polls(&self) -> u64 {
        self.polls.0.load(Ordering::Relaxed)
    }

    /// Asks the search to stop.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// Whether the search was asked to stop.
    pub fn is_cancelled(&self) -> bool {
        #[cfg(test)]
        {
            let asked = self.polls.0.fetch_add(1, Ordering::Relaxed) + 1;
            if asked == self.polls.1.load(Ordering::Relaxed) {
                self.cancel();
            }
        }
        self.cancelled.load(Ordering::Relaxed)
    }

    /// The cells expanded so far, as last published by the search.
    pub fn expanded(&self) -> u64 {
        self.expanded.load(Ordering::Relaxed)
    }

    /// How many distinct cells the search has expanded so far, as last published by a search
    /// that may expand a cell more than once (IDA*), where [`expanded`](Self::expanded) counts
    /// every expansion and so may pass the map's size; `None` for the searches that expand a
    /// cell once at most, whose `expanded` is that number.
    pub fn cells_expanded(&self) -> Option<u64> {
        self.cells.load(Ordering::Relaxed).checked_sub(1)
    }

    /// How far the build of a preprocessed structure (the contraction hierarchy, HPA*'s
    /// abstraction) has got, from 0 to 1, as last published by it; `None` before a build
    /// reports (or when the algorithm builds nothing).
    ///
    /// ```
    /// use gridpath_core::grid::Grid;
    /// use gridpath_core::search::{ContractionHierarchy, Diagonal, SearchControl, SearchGraph};
    ///
    /// let grid = Grid::from_ascii(&["....", "....", "...."]).expect("valid map");
    /// let control = SearchControl::new();
    /// assert_eq!(control.build_progress(), None);
    /// let graph = SearchGraph::new(&grid, Diagonal::default());
    /// ContractionHierarchy::from_graph_controlled(graph, &control).expect("built");
    /// assert_eq!(control.build_progress(), Some(1.0));
    /// ```
    pub fn build_progress(&self) -> Option<f32> {
        match self.build.load(Ordering::Relaxed) {
            0 => None,
            parts => Some((parts - 1) as f32 / BUILD_PARTS as f32),
        }
    }

    /// Publishes how far a build has got (`fraction` from 0 to 1; what is shown never goes
    /// back). The library's builds call it; a search of one's own may too.
    pub fn report_build(&self, fraction: f64) {
        let parts = (fraction.clamp(0.0, 1.0) * f64::from(BUILD_PARTS)) as u32 + 1;
        self.build.fetch_max(parts, Ordering::Relaxed);
    }

    /// Publishes progress; returns whether the search may go on.
    #[cold]
    pub(crate) fn checkpoint(&self, expanded: u64) -> bool {
        self.expanded.store(expanded, Ordering::Relaxed);
        #[cfg(test)]
        self.on_checkpoint.call(expanded);
        !self.is_cancelled()
    }

    /// Publishes progress every [`CHECK_EVERY`] expansions; returns whether the search must stop.
    #[inline(always)]
    pub(crate) fn should_stop(&self, expanded: u64) -> bool {
        expanded.is_multiple_of(CHECK_EVERY) && !self.checkpoint(expanded)
    }

    /// [`should_stop`](Self::should_stop) for a search that may expand a cell more than once:
    /// publishes the distinct cells it has expanded too.
    #[inline(always)]
    pub(crate) fn should_stop_counting_cells(&self, expanded: u64, cells: u64) -> bool {
        if !expanded.is_multiple_of(CHECK_EVERY) {
            return false;
        }
        self.cells.store(cells + 1, Ordering::Relaxed);
        !self.checkpoint(expanded)
    }
}

/// The resolution of [`SearchControl::build_progress`].
const BUILD_PARTS: u32 = 10_000;

/// A control nobody cancels, for searches run to the end.
pub(crate) static UNCONTROLLED: SearchControl = SearchControl::new();

#[cfg(test)]
mod hook {
    use std::fmt;
    use std::sync::OnceLock;

    /// A function a test sets to run at each checkpoint.
    #[derive(Default)]
    pub(super) struct Hook(pub(super) OnceLock<Box<dyn Fn(u64) + Send + Sync>>);

    impl Hook {
        pub(super) const fn new() -> Self {
            Self(OnceLock::new())
        }

        pub(super) fn call(&self, expanded: u64) {
            if let Some(hook) = self.0.get() {
                hook(expanded);
            }
        }
    }

    impl fmt::Debug for Hook {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("Hook")
        }
    }
}
