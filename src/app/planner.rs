//! Where the editor's searches run: on a worker thread, so that no frame ever waits for one.
//!
//! The editor submits a job (a search, or "compare all") with a snapshot of the grid. Every job
//! carries a generation number: a newer job cancels the one that is running (through its
//! [`SearchControl`]) and the worker skips straight to the newest one waiting, so dragging a
//! marker re-plans as fast as the searches allow without queueing stale work. An answer whose
//! generation is not the newest is dropped. A search that panics is caught and reported; the
//! worker goes on with a fresh searcher.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::{Arc, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use crate::grid::Grid;
use crate::search::{
    Algorithm, DEFAULT_CLUSTER_SIZE, DStarLite, Diagonal, FlowField, Heuristic, HpaGraph,
    SearchControl, SearchError, SearchGraph, SearchRequest, SearchResult, Searcher,
};
use crate::smooth::{self, SmoothSettings, SmoothedPath};

use super::exploration::Exploration;

/// Runs one search: the worker's kept state and graph, the request and the control to watch.
/// Tests put their own in to make searches slow or panic on purpose.
pub type Solver = Arc<
    dyn Fn(&mut Workspace, &SearchGraph, &SearchRequest, &SearchControl) -> SearchOutcome
        + Send
        + Sync,
>;

/// What the worker keeps between searches: the searcher's arrays, and the state of the
/// incremental algorithms — HPA*'s abstraction and D* Lite's search towards its goal — which
/// an edit repairs in the clusters and cells it touched instead of building them again.
#[derive(Default)]
pub struct Workspace {
    /// The searcher of the one-shot algorithms.
    pub searcher: Searcher,
    /// The grid of the job being run.
    grid: Option<Arc<Grid>>,
    hpa: Option<(Arc<Grid>, HpaGraph)>,
    dstar: Option<(Arc<Grid>, Heuristic, DStarLite)>,
}

impl Workspace {
    /// Runs the library's search for `request`; HPA* and D* Lite go through their kept state.
    pub fn search(
        &mut self,
        graph: &SearchGraph,
        request: &SearchRequest,
        control: &SearchControl,
    ) -> SearchOutcome {
        let grid = match (&self.grid, request.algorithm) {
            (Some(grid), Algorithm::Hpa | Algorithm::DStarLite) => Arc::clone(grid),
            _ => return self.searcher.search_controlled(graph, request, control),
        };
        if request.algorithm == Algorithm::Hpa {
            self.hpa_for(&grid, graph).find_path(request)
        } else {
            self.dstar_for(&grid, request)?
                .plan_controlled(request.start, control)
        }
    }

    /// HPA*'s abstraction of `grid`: kept, repaired where cells changed, or built.
    fn hpa_for(&mut self, grid: &Arc<Grid>, graph: &SearchGraph) -> &mut HpaGraph {
        let keep = self.hpa.as_ref().is_some_and(|(cached, hpa)| {
            hpa.graph().diagonal() == graph.diagonal() && same_layout(cached, grid)
        });
        if !keep {
            self.hpa = None;
        }
        let (cached, hpa) = self.hpa.get_or_insert_with(|| {
            (
                Arc::clone(grid),
                HpaGraph::from_graph(graph.clone(), DEFAULT_CLUSTER_SIZE),
            )
        });
        if !Arc::ptr_eq(cached, grid) {
            hpa.update_cells(grid, &changed_cells(cached, grid));
            *cached = Arc::clone(grid);
        }
        hpa
    }

    /// D* Lite towards the request's goal: kept and repaired when only cells changed.
    fn dstar_for(
        &mut self,
        grid: &Arc<Grid>,
        request: &SearchRequest,
    ) -> Result<&mut DStarLite, SearchError> {
        let heuristic = request.effective_heuristic();
        let keep = self.dstar.as_ref().is_some_and(|(cached, h, dstar)| {
            dstar.goal() == request.goal
                && dstar.graph().diagonal() == request.diagonal
                && *h == heuristic
                && cached.width() == grid.width()
                && cached.height() == grid.height()
        });
        if !keep {
            self.dstar = None;
        }
        let (cached, _, dstar) = match &mut self.dstar {
            Some(kept) => kept,
            slot @ None => {
                let dstar =
                    DStarLite::with_heuristic(grid, request.diagonal, request.goal, heuristic)?;
                slot.insert((Arc::clone(grid), heuristic, dstar))
            }
        };
        if !Arc::ptr_eq(cached, grid) {
            dstar.cells_changed(grid, &changed_cells(cached, grid));
            *cached = Arc::clone(grid);
        }
        Ok(dstar)
    }
}

/// Whether two grids have the same size and terrain catalog (only cells may differ).
fn same_layout(a: &Grid, b: &Grid) -> bool {
    a.width() == b.width() && a.height() == b.height() && a.terrains() == b.terrains()
}

/// The cells whose terrain differs between two grids of the same size.
fn changed_cells(before: &Grid, after: &Grid) -> Vec<crate::grid::Cell> {
    before
        .cells()
        .iter()
        .zip(after.cells())
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .map(|(i, _)| after.cell_at(i))
        .collect()
}

/// What one search gave: a result, or why it could not run.
pub type SearchOutcome = Result<SearchResult, SearchError>;

/// The solver the editor uses: the library's search, watched by the control.
pub fn library_solver() -> Solver {
    Arc::new(Workspace::search)
}

/// Why a job gave no result.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// The search could not run (blocked marker, unsuitable map) or was cancelled.
    Search(SearchError),
    /// The search panicked: a bug, reported instead of taking the editor down.
    Panicked(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Search(error) => write!(f, "{error}"),
            Failure::Panicked(message) => write!(f, "the search failed unexpectedly: {message}"),
        }
    }
}

/// A finished search with what the editor draws of it.
#[derive(Debug)]
pub struct Plan {
    /// What was searched for.
    pub request: SearchRequest,
    /// What came back.
    pub result: SearchResult,
    /// The smoothed path, when a path was found and could be smoothed.
    pub smoothed: Option<SmoothedPath>,
    /// The smoothing settings used.
    pub smoothing: SmoothSettings,
    /// The explored cells, per cell, for drawing and the inspector.
    pub exploration: Option<Exploration>,
    /// Every cell's cost to the goal and next step, when the flow field layer asked for it.
    pub field: Option<FlowField>,
    /// The optimal cost, for algorithms that are only near-optimal (HPA*).
    pub optimal_cost: Option<f64>,
}

/// One row of "compare all": an algorithm and what it gave.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Its result, or why it could not run on this map.
    pub outcome: Result<SearchResult, Failure>,
}

/// The work one job asks for.
#[derive(Clone, Debug)]
enum Work {
    Plan {
        request: SearchRequest,
        smoothing: SmoothSettings,
        field: bool,
    },
    Compare {
        request: SearchRequest,
    },
}

struct Job {
    generation: u64,
    grid: Arc<Grid>,
    work: Work,
    control: Arc<SearchControl>,
}

enum Answer {
    Plan(Result<Box<Plan>, Failure>),
    Compare(Vec<Comparison>),
}

struct Reply {
    generation: u64,
    answer: Answer,
}

/// A job that is running or waiting.
struct Running {
    generation: u64,
    control: Arc<SearchControl>,
    started: Instant,
    /// Passable cells of the map searched, for the progress bar.
    passable: u64,
    comparing: bool,
}

/// The grid as the worker shares it, with what the panels need to know of it.
struct Snapshot {
    grid: Arc<Grid>,
    /// Passable cells, for the progress bar.
    passable: u64,
    /// Whether every passable cell costs the same (jump point search needs it).
    uniform: bool,
}

/// The editor's side of the worker: submits jobs and keeps the latest answers.
pub struct Planner {
    solver: Solver,
    jobs: Option<Sender<Job>>,
    replies: Option<Receiver<Reply>>,
    /// The context the worker wakes when it answers, known from the first frame on.
    repaint: Arc<OnceLock<egui::Context>>,
    generation: u64,
    running: Option<Running>,
    grid: Option<Snapshot>,
    last: Option<Plan>,
    failure: Option<Failure>,
    stale: bool,
    comparison: Option<Vec<Comparison>>,
    finished: u64,
    plans: u64,
}

impl Default for Planner {
    fn default() -> Self {
        Self::new()
    }
}

impl Planner {
    /// A planner running the library's searches.
    pub fn new() -> Self {
        Self::with_solver(library_solver())
    }

    /// A planner running searches through `solver`.
    pub fn with_solver(solver: Solver) -> Self {
        Self {
            solver,
            jobs: None,
            replies: None,
            repaint: Arc::new(OnceLock::new()),
            generation: 0,
            running: None,
            grid: None,
            last: None,
            failure: None,
            stale: false,
            comparison: None,
            finished: 0,
            plans: 0,
        }
    }

    /// Replaces the solver (the worker restarts with it).
    pub fn set_solver(&mut self, solver: Solver) {
        self.cancel();
        self.solver = solver;
        self.jobs = None;
        self.replies = None;
    }

    /// The context to wake when an answer arrives.
    pub fn set_context(&mut self, ctx: &egui::Context) {
        if self.repaint.get().is_none() {
            // Only this thread sets it, so a failed set means it was set already.
            let _ = self.repaint.set(ctx.clone());
        }
    }

    /// Plans a path on `grid` for `request`, and the flow field to its goal when `field` is
    /// set; cancels whatever runs now.
    pub fn submit(
        &mut self,
        grid: &Grid,
        request: SearchRequest,
        smoothing: SmoothSettings,
        field: bool,
    ) {
        self.start(
            grid,
            Work::Plan {
                request,
                smoothing,
                field,
            },
        );
    }

    /// Runs every algorithm on the same request, for the comparison table.
    pub fn compare(&mut self, grid: &Grid, request: SearchRequest) {
        self.start(grid, Work::Compare { request });
    }

    fn start(&mut self, grid: &Grid, work: Work) {
        self.cancel_running();
        let grid = self.snapshot(grid);
        let passable = self.grid.as_ref().map_or(0, |s| s.passable);
        self.generation += 1;
        let control = Arc::new(SearchControl::new());
        let comparing = matches!(work, Work::Compare { .. });
        let job = Job {
            generation: self.generation,
            grid,
            work,
            control: Arc::clone(&control),
        };
        self.running = Some(Running {
            generation: self.generation,
            control,
            started: Instant::now(),
            passable,
            comparing,
        });
        if let Err(job) = self.send(job) {
            // The worker is gone (its loop catches panics, but its thread could fail to
            // start): try once more on a new one, else report it.
            self.jobs = None;
            self.replies = None;
            if self.send(job).is_err() {
                self.running = None;
                self.failure = Some(Failure::Panicked(
                    "the search worker could not be started".to_owned(),
                ));
            }
        }
    }

    /// Sends a job to the worker, starting it first if needed; gives the job back on failure.
    fn send(&mut self, job: Job) -> Result<(), Job> {
        if self.jobs.is_none() {
            let (jobs, job_rx) = mpsc::channel::<Job>();
            let (reply_tx, replies) = mpsc::channel::<Reply>();
            let solver = Arc::clone(&self.solver);
            let repaint = Arc::clone(&self.repaint);
            let spawned = thread::Builder::new()
                .name("gridpath-search".to_owned())
                .spawn(move || work_loop(&job_rx, &reply_tx, &solver, &repaint));
            if spawned.is_err() {
                return Err(job);
            }
            self.jobs = Some(jobs);
            self.replies = Some(replies);
        }
        let Some(jobs) = &self.jobs else {
            return Err(job);
        };
        jobs.send(job).map_err(|failed| failed.0)
    }

    /// The grid as the worker shares it: the same snapshot while the grid is unchanged, so the
    /// worker reuses its prepared graph when only the markers or settings moved.
    fn snapshot(&mut self, grid: &Grid) -> Arc<Grid> {
        if let Some(snapshot) = &self.grid
            && *snapshot.grid == *grid
        {
            return Arc::clone(&snapshot.grid);
        }
        let mut used = [false; 256];
        for &t in grid.cells() {
            used[usize::from(t)] = true;
        }
        let mut passable = 0u64;
        let mut costs = (f64::INFINITY, f64::NEG_INFINITY);
        for (id, terrain) in grid.terrains().iter().enumerate() {
            if let (true, Some(cost)) = (used[id], terrain.cost) {
                costs = (costs.0.min(cost), costs.1.max(cost));
            }
        }
        for &t in grid.cells() {
            passable += u64::from(grid.terrain(t).is_passable());
        }
        let shared = Arc::new(grid.clone());
        self.grid = Some(Snapshot {
            grid: Arc::clone(&shared),
            passable,
            uniform: costs.0 >= costs.1,
        });
        shared
    }

    /// Whether every passable cell of the map last submitted costs the same; `true` before
    /// any map was submitted.
    pub fn map_is_uniform(&self) -> bool {
        self.grid.as_ref().is_none_or(|s| s.uniform)
    }

    fn cancel_running(&mut self) {
        if let Some(running) = self.running.take() {
            running.control.cancel();
        }
    }

    /// Cancels the running job; the last result stays on screen, marked stale.
    pub fn cancel(&mut self) {
        if self.running.is_some() {
            self.cancel_running();
            self.stale = self.last.is_some();
        }
    }

    /// Marks the result on screen as older than the map (live planning is off).
    pub fn mark_stale(&mut self) {
        self.stale = self.last.is_some();
    }

    /// Forgets the results (the markers are missing, or the map was replaced).
    pub fn clear(&mut self) {
        self.cancel_running();
        self.last = None;
        self.failure = None;
        self.stale = false;
    }

    /// Takes the answers that arrived; returns whether something new is to be shown.
    pub fn poll(&mut self) -> bool {
        let mut changed = false;
        loop {
            match self.replies.as_ref().map(Receiver::try_recv) {
                Some(Ok(reply)) => changed |= self.take(reply),
                Some(Err(TryRecvError::Empty)) | None => break,
                Some(Err(TryRecvError::Disconnected)) => {
                    self.worker_stopped();
                    break;
                }
            }
        }
        changed
    }

    /// Takes one answer of the worker; returns whether it is the running job's.
    fn take(&mut self, reply: Reply) -> bool {
        if self.running.as_ref().map(|r| r.generation) != Some(reply.generation) {
            return false;
        }
        self.running = None;
        self.finished += 1;
        match reply.answer {
            Answer::Plan(Ok(plan)) => {
                self.last = Some(*plan);
                self.plans += 1;
                self.failure = None;
                self.stale = false;
            }
            Answer::Plan(Err(Failure::Search(SearchError::Cancelled))) => {
                self.stale = self.last.is_some();
            }
            Answer::Plan(Err(failure)) => {
                self.failure = Some(failure);
                self.stale = self.last.is_some();
            }
            Answer::Compare(rows) => self.comparison = Some(rows),
        }
        true
    }

    /// The worker has gone (it panicked): the running job fails, and the next one starts a
    /// new worker.
    fn worker_stopped(&mut self) {
        self.jobs = None;
        self.replies = None;
        if self.running.take().is_some() {
            self.failure = Some(Failure::Panicked("the search worker stopped".to_owned()));
        }
    }

    /// Whether a job is running or waiting.
    pub fn is_busy(&self) -> bool {
        self.running.is_some()
    }

    /// Whether the running job is "compare all".
    pub fn is_comparing(&self) -> bool {
        self.running.as_ref().is_some_and(|r| r.comparing)
    }

    /// The running job's progress: cells expanded so far, the map's passable cells, and how
    /// long it has run.
    pub fn progress(&self) -> Option<(u64, u64, Duration)> {
        self.running
            .as_ref()
            .map(|r| (r.control.expanded(), r.passable, r.started.elapsed()))
    }

    /// Blocks until the worker has answered the latest job, then takes the answers. It sleeps
    /// on the worker's reply channel, so it returns as soon as the answer arrives; `timeout`
    /// only bounds a worker that never answers. For tests and scripts; the editor itself never
    /// waits.
    pub fn wait(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        self.poll();
        while self.is_busy() {
            let Some(replies) = self.replies.as_ref() else {
                break;
            };
            match replies.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(reply) => {
                    self.take(reply);
                }
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => self.worker_stopped(),
            }
        }
        self.poll();
        !self.is_busy()
    }

    /// The latest finished plan (possibly stale).
    pub fn plan(&self) -> Option<&Plan> {
        self.last.as_ref()
    }

    /// The request of the latest plan.
    pub fn request(&self) -> Option<&SearchRequest> {
        self.last.as_ref().map(|p| &p.request)
    }

    /// The latest result.
    pub fn result(&self) -> Option<&SearchResult> {
        self.last.as_ref().map(|p| &p.result)
    }

    /// Why the latest job gave no result, if it failed.
    pub fn failure(&self) -> Option<&Failure> {
        self.failure.as_ref()
    }

    /// Whether the result on screen belongs to an older map, markers or settings (a newer
    /// search was cancelled or failed, or is still running).
    pub fn is_stale(&self) -> bool {
        self.stale || (self.is_busy() && !self.is_comparing() && self.last.is_some())
    }

    /// The latest "compare all" table.
    pub fn comparison(&self) -> Option<&[Comparison]> {
        self.comparison.as_deref()
    }

    /// Counts the plans received: changes whenever [`Planner::plan`] is a new one.
    pub fn plan_serial(&self) -> u64 {
        self.plans
    }

    /// How many jobs have been answered (not counting dropped stale answers).
    pub fn finished(&self) -> u64 {
        self.finished
    }
}

impl Drop for Planner {
    fn drop(&mut self) {
        self.cancel_running();
    }
}

/// The worker: takes the newest job waiting, runs it, sends the answer, and wakes the UI.
fn work_loop(
    jobs: &Receiver<Job>,
    replies: &Sender<Reply>,
    solver: &Solver,
    repaint: &OnceLock<egui::Context>,
) {
    let mut workspace = Workspace::default();
    let mut graph: Option<(Arc<Grid>, SearchGraph)> = None;
    while let Ok(mut job) = jobs.recv() {
        // Only the newest job matters: the ones before it were cancelled when it was sent.
        while let Ok(newer) = jobs.try_recv() {
            job = newer;
        }
        if job.control.is_cancelled() {
            let answer = match job.work {
                Work::Plan { .. } => Answer::Plan(Err(Failure::Search(SearchError::Cancelled))),
                Work::Compare { .. } => Answer::Compare(Vec::new()),
            };
            if replies
                .send(Reply {
                    generation: job.generation,
                    answer,
                })
                .is_err()
            {
                return;
            }
            continue;
        }
        workspace.grid = Some(Arc::clone(&job.grid));
        let answer = match &job.work {
            Work::Plan {
                request,
                smoothing,
                field,
            } => {
                let diagonal = request.diagonal;
                let graph = prepared(&mut graph, &job.grid, diagonal);
                let outcome = run_guarded(solver, &mut workspace, graph, request, &job.control);
                let field = (*field && !job.control.is_cancelled())
                    .then(|| FlowField::new_controlled(graph, request.goal, &job.control).ok())
                    .flatten();
                // HPA* is near-optimal only: say how near, against an exact A*.
                let optimal = match &outcome {
                    Ok(result) if result.found && request.algorithm == Algorithm::Hpa => {
                        let exact = request
                            .clone()
                            .with_algorithm(Algorithm::AStar)
                            .recording(false);
                        workspace
                            .searcher
                            .search_controlled(graph, &exact, &job.control)
                            .ok()
                            .map(|r| r.cost)
                    }
                    _ => None,
                };
                Answer::Plan(outcome.map(|result| {
                    let mut plan = plan_of(&job.grid, request, *smoothing, result, field);
                    plan.optimal_cost = optimal;
                    Box::new(plan)
                }))
            }
            Work::Compare { request } => {
                let graph = prepared(&mut graph, &job.grid, request.diagonal);
                let mut rows = Vec::new();
                for &algorithm in Algorithm::ALL {
                    if job.control.is_cancelled() {
                        break;
                    }
                    let request = request.clone().with_algorithm(algorithm).recording(false);
                    let outcome =
                        run_guarded(solver, &mut workspace, graph, &request, &job.control);
                    rows.push(Comparison { algorithm, outcome });
                }
                Answer::Compare(rows)
            }
        };
        let reply = Reply {
            generation: job.generation,
            answer,
        };
        if replies.send(reply).is_err() {
            return;
        }
        if let Some(ctx) = repaint.get() {
            ctx.request_repaint();
        }
    }
}

/// The graph of `grid` under `diagonal`, prepared again only when either changed.
fn prepared<'g>(
    cache: &'g mut Option<(Arc<Grid>, SearchGraph)>,
    grid: &Arc<Grid>,
    diagonal: Diagonal,
) -> &'g SearchGraph {
    let outdated = match cache {
        Some((cached, graph)) => !Arc::ptr_eq(cached, grid) || graph.diagonal() != diagonal,
        None => true,
    };
    if outdated {
        *cache = None;
    }
    &cache
        .get_or_insert_with(|| (Arc::clone(grid), SearchGraph::new(grid, diagonal)))
        .1
}

/// Runs the solver, turning a panic into a [`Failure`] and the searcher into a fresh one.
fn run_guarded(
    solver: &Solver,
    workspace: &mut Workspace,
    graph: &SearchGraph,
    request: &SearchRequest,
    control: &SearchControl,
) -> Result<SearchResult, Failure> {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        solver(workspace, graph, request, control)
    }));
    match outcome {
        Ok(result) => result.map_err(Failure::Search),
        Err(panic) => {
            *workspace = Workspace::default();
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".to_owned());
            Err(Failure::Panicked(message))
        }
    }
}

/// Smooths the path and lays out the explored cells: everything the UI draws, prepared here.
fn plan_of(
    grid: &Grid,
    request: &SearchRequest,
    smoothing: SmoothSettings,
    mut result: SearchResult,
    field: Option<FlowField>,
) -> Plan {
    let smoothed = result
        .found
        .then(|| smooth::smooth_path(grid, &result.path, &smoothing).ok())
        .flatten();
    let exploration = result
        .trace
        .take()
        .map(|trace| Exploration::new(grid.width(), grid.height(), trace));
    Plan {
        request: request.clone(),
        result,
        smoothed,
        smoothing,
        exploration,
        field,
        optimal_cost: None,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::grid::Cell;

    fn settle(planner: &mut Planner) {
        assert!(planner.wait(Duration::from_secs(20)), "the worker answers");
    }

    #[test]
    fn a_submitted_request_yields_its_result_in_the_background() {
        let grid = Grid::from_ascii(&["....", ".##.", "...."]).unwrap();
        let mut planner = Planner::new();
        let request = SearchRequest::new(Cell::new(0, 1), Cell::new(3, 1)).recording(true);
        planner.submit(&grid, request, SmoothSettings::default(), false);
        settle(&mut planner);
        let plan = planner.plan().unwrap();
        assert!(plan.result.found);
        assert_eq!(plan.result.path.last(), Some(&Cell::new(3, 1)));
        assert!(plan.smoothed.is_some());
        let exploration = plan.exploration.as_ref().unwrap();
        assert_eq!(exploration.expanded(), plan.result.stats.expanded as usize);

        planner.submit(
            &grid,
            SearchRequest::new(Cell::new(1, 1), Cell::new(3, 1)),
            SmoothSettings::default(),
            false,
        );
        settle(&mut planner);
        assert!(matches!(
            planner.failure(),
            Some(Failure::Search(SearchError::Blocked { .. }))
        ));
        assert!(planner.is_stale(), "the old path stays, marked stale");
        planner.clear();
        assert!(planner.plan().is_none());
    }

    /// A solver that waits until the test lets it go (or the search is cancelled).
    fn gated() -> (Solver, Arc<Mutex<bool>>) {
        let open = Arc::new(Mutex::new(false));
        let gate = Arc::clone(&open);
        let solver: Solver = Arc::new(move |workspace, graph, request, control| {
            loop {
                if control.is_cancelled() {
                    return Err(SearchError::Cancelled);
                }
                if *gate.lock().unwrap() {
                    return workspace.search(graph, request, control);
                }
                thread::sleep(Duration::from_millis(1));
            }
        });
        (solver, open)
    }

    #[test]
    fn a_newer_request_cancels_the_older_and_only_the_newest_answer_counts() {
        let grid = Grid::from_ascii(&["......", "......"]).unwrap();
        let (solver, open) = gated();
        let mut planner = Planner::with_solver(solver);
        let first = SearchRequest::new(Cell::new(0, 0), Cell::new(5, 0));
        let second = SearchRequest::new(Cell::new(0, 1), Cell::new(5, 1));
        planner.submit(&grid, first, SmoothSettings::default(), false);
        planner.submit(&grid, second.clone(), SmoothSettings::default(), false);
        assert!(planner.is_busy());
        *open.lock().unwrap() = true;
        settle(&mut planner);
        assert_eq!(planner.request(), Some(&second));
        assert_eq!(planner.finished(), 1, "the first answer was dropped");
    }

    #[test]
    fn a_cancelled_search_keeps_the_last_result_marked_stale() {
        let grid = Grid::from_ascii(&["......", "......"]).unwrap();
        let (solver, open) = gated();
        let mut planner = Planner::with_solver(solver);
        *open.lock().unwrap() = true;
        let request = SearchRequest::new(Cell::new(0, 0), Cell::new(5, 0));
        planner.submit(&grid, request.clone(), SmoothSettings::default(), false);
        settle(&mut planner);
        assert!(!planner.is_stale());
        *open.lock().unwrap() = false;
        planner.submit(
            &grid,
            SearchRequest::new(Cell::new(0, 1), Cell::new(5, 1)),
            SmoothSettings::default(),
            false,
        );
        assert!(planner.progress().is_some());
        planner.cancel();
        assert!(!planner.is_busy());
        assert!(planner.is_stale());
        assert_eq!(planner.request(), Some(&request));
    }

    #[test]
    fn a_panicking_search_is_reported_and_the_worker_goes_on() {
        let grid = Grid::from_ascii(&["....", "...."]).unwrap();
        let solver: Solver = Arc::new(|workspace, graph, request, control| {
            if request.goal == Cell::new(3, 0) {
                panic!("a deliberate failure");
            }
            workspace.search(graph, request, control)
        });
        let mut planner = Planner::with_solver(solver);
        planner.submit(
            &grid,
            SearchRequest::new(Cell::new(0, 0), Cell::new(3, 0)),
            SmoothSettings::default(),
            false,
        );
        settle(&mut planner);
        assert_eq!(
            planner.failure(),
            Some(&Failure::Panicked("a deliberate failure".to_owned()))
        );
        planner.submit(
            &grid,
            SearchRequest::new(Cell::new(0, 0), Cell::new(3, 1)),
            SmoothSettings::default(),
            false,
        );
        settle(&mut planner);
        assert!(planner.failure().is_none());
        assert!(planner.result().unwrap().found);
    }

    #[test]
    fn compare_all_gives_one_row_per_algorithm() {
        let grid = Grid::from_ascii(&["......", ".####.", "......"]).unwrap();
        let mut planner = Planner::new();
        planner.compare(&grid, SearchRequest::new(Cell::new(0, 0), Cell::new(5, 2)));
        settle(&mut planner);
        let rows = planner.comparison().unwrap();
        assert_eq!(rows.len(), Algorithm::ALL.len());
        let optimal = rows
            .iter()
            .find(|r| r.algorithm == Algorithm::Dijkstra)
            .and_then(|r| r.outcome.as_ref().ok())
            .map(|r| r.cost)
            .unwrap();
        for row in rows {
            if let Ok(result) = &row.outcome
                && result.optimality == crate::search::Optimality::Exact
            {
                assert!((result.cost - optimal).abs() < 1e-9, "{:?}", row.algorithm);
            }
        }
    }

    #[test]
    fn d_star_lite_is_repaired_after_an_edit_not_run_again() {
        let mut rows = vec!["........................................"; 30];
        rows[15] = "..................####..................";
        let before = Grid::from_ascii(&rows).unwrap();
        let mut after = before.clone();
        after.set(Cell::new(1, 28), 3).unwrap();
        let (before, after) = (Arc::new(before), Arc::new(after));
        let request = SearchRequest::new(Cell::new(2, 2), Cell::new(37, 27))
            .with_algorithm(Algorithm::DStarLite);
        let mut workspace = Workspace::default();
        let control = SearchControl::new();
        let mut run = |grid: &Arc<Grid>| {
            workspace.grid = Some(Arc::clone(grid));
            let graph = SearchGraph::new(grid, request.diagonal);
            workspace.search(&graph, &request, &control).unwrap()
        };
        let first = run(&before);
        let repaired = run(&after);
        let fresh = crate::search::solve(&after, &request.clone().with_algorithm(Algorithm::AStar))
            .unwrap();
        assert!((repaired.cost - fresh.cost).abs() < 1e-9);
        assert!(
            repaired.stats.expanded < first.stats.expanded / 4,
            "a far edit is repaired cheaply: {} after {}",
            repaired.stats.expanded,
            first.stats.expanded
        );
    }

    #[test]
    fn hpa_plans_say_how_near_optimal_they_are() {
        let mut rows = vec![".".repeat(100); 80];
        for (y, row) in rows.iter_mut().enumerate() {
            if y % 20 == 10 {
                row.replace_range(5..95, &"#".repeat(90));
            }
        }
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let grid = Grid::from_ascii(&rows).unwrap();
        let mut planner = Planner::new();
        let request =
            SearchRequest::new(Cell::new(50, 2), Cell::new(50, 77)).with_algorithm(Algorithm::Hpa);
        planner.submit(&grid, request, SmoothSettings::default(), false);
        settle(&mut planner);
        let plan = planner.plan().unwrap();
        assert!(plan.result.found);
        let optimal = plan.optimal_cost.unwrap();
        let exact = crate::search::solve(
            &grid,
            &SearchRequest::new(Cell::new(50, 2), Cell::new(50, 77)),
        )
        .unwrap();
        assert!((optimal - exact.cost).abs() < 1e-9);
        assert!(plan.result.cost >= optimal - 1e-9);
    }
}
