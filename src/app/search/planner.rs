//! Where the editor's searches run: on a worker thread, so that no frame ever waits for one.
//!
//! The worker owns the map's search state, a library [`Replanner`]. The editor tells the
//! planner what each edit changed ([`Planner::cells_changed`]) or that the map was replaced
//! ([`Planner::map_replaced`]); the next job carries those changes, not the grid, and the
//! worker applies them before it searches, so a one-cell edit costs one cell's work however
//! large the map. The whole grid travels only when the map was replaced or a worker starts.
//!
//! Structures built whole (the contraction hierarchy, the subgoal graph, HPA*'s first
//! abstraction) build on a thread of their own while A* answers: the job gets A*'s path at
//! once, marked as standing in, and stays running until the build ends; the build wakes the
//! worker, which answers the job again with the algorithm itself. Edits restart the build on
//! the edited map; moving the markers does not.
//!
//! Every job carries a generation number: a newer job cancels the one that is running (through
//! its [`SearchControl`]) and the worker skips straight to the newest one waiting (applying the
//! changes of those it skips), so dragging a marker re-plans as fast as the searches allow
//! without queueing stale work. An answer whose generation is not the newest is dropped. A
//! search that panics is caught and reported; the worker goes on with fresh search state.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use crate::grid::{Cell, Grid, TerrainId};
use crate::search::{
    Algorithm, CellChange, FlowField, Guarantee, OnBuilt, Replanner, RouteOrder, SearchControl,
    SearchError, SearchRequest, SearchResult, StandIn,
};
use crate::smooth::{SmoothError, SmoothSettings, SmoothedPath};

use super::comparison;
use super::exploration::Exploration;
use super::solver::run_guarded;
use crate::app::edit::{CellEdit, Edit};

pub use super::solver::{Failure, SearchOutcome, Solver, library_solver};

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
    /// The optimal grid path's cost, for algorithms that are only near-optimal (HPA*) and the
    /// any-angle ones (Theta*, Lazy Theta*), by A*.
    pub optimal_cost: Option<f64>,
    /// The side of the unit the path is for, placed by its top-left cell (1: one cell).
    pub unit: u32,
    /// For a route through waypoints: its stops in the order visited and its legs.
    pub route: Option<crate::search::Route>,
    /// The time outside the query, in microseconds: building what the algorithm keeps (the
    /// contraction hierarchy, HPA*'s abstraction, D* Lite's first costs, jump tables), or next
    /// to nothing when it was kept from an earlier search.
    pub build_us: u64,
    /// Why no path was found, when more can be said than "no path": a unit larger than one
    /// cell that finds no way where one cell does.
    pub no_path_reason: Option<String>,
    /// Set when A* answered in place of the algorithm, whose structure is building in the
    /// background; the algorithm's own answer follows when it is built.
    pub stand_in: Option<StandIn>,
}

/// Whether `algorithm` builds something before its query that later searches keep: the panel
/// shows its build time, and says "Building" while it has expanded nothing.
pub fn builds_first(algorithm: Algorithm) -> bool {
    matches!(
        algorithm,
        Algorithm::ContractionHierarchy
            | Algorithm::Hpa
            | Algorithm::DStarLite
            | Algorithm::JpsPlus
            | Algorithm::Subgoal
    )
}

pub use super::comparison::{CompareProgress, Comparison, SmoothedRun};

/// The work one job asks for.
#[derive(Clone, Debug)]
enum Work {
    Plan {
        request: SearchRequest,
        smoothing: SmoothSettings,
        field: bool,
        /// The side of the unit the path is for (1: one cell).
        unit: u32,
        /// The waypoints to route through, their order and whether to come back.
        route: Route,
    },
    Compare {
        request: SearchRequest,
        smoothing: SmoothSettings,
        /// How many algorithms run at once.
        lanes: usize,
    },
}

/// How the worker's map is brought up to the editor's before a job runs.
enum MapUpdate {
    /// The whole map: the first job of a worker, or after the map was replaced.
    Replace(Grid),
    /// The cells edited since the last job (none when only markers or settings moved): their
    /// terrain, and their heights.
    Apply(Vec<CellChange>, Vec<(Cell, f32)>),
}

/// What the worker's queue carries.
enum ToWorker {
    /// A job to run.
    Job(Box<Job>),
    /// A build in the background has ended: the job A* answered meanwhile runs again.
    Built,
    /// The planner has gone.
    Stop,
}

struct Job {
    generation: u64,
    update: MapUpdate,
    /// In debug builds, the editor's grid fingerprint: the worker checks that the changes
    /// it was sent give it the same map (an edit the editor forgot to report shows here).
    fingerprint: Option<u64>,
    work: Work,
    control: Arc<SearchControl>,
    /// How far "compare all" has got (unused by a plan).
    progress: Arc<CompareProgress>,
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
    /// For "compare all": how far it has got.
    comparing: Option<Arc<CompareProgress>>,
    /// For a plan: the algorithm it runs.
    algorithm: Option<Algorithm>,
    /// Set once A* has answered in place of the algorithm: the build it waits for.
    stood_in: Option<StandIn>,
}

/// What the panels need to know of the map, kept up to date by the edits: how many cells
/// hold each terrain, and each terrain's cost.
struct MapCounts {
    cells: Box<[u64; 256]>,
    costs: Vec<Option<f64>>,
}

impl MapCounts {
    fn of(grid: &Grid) -> Self {
        let mut cells = Box::new([0u64; 256]);
        for &t in grid.cells() {
            cells[usize::from(t)] += 1;
        }
        let costs = grid.terrains().iter().map(|t| t.cost).collect();
        Self { cells, costs }
    }

    fn change(&mut self, before: TerrainId, after: TerrainId) {
        let before = &mut self.cells[usize::from(before)];
        *before = before.saturating_sub(1);
        self.cells[usize::from(after)] += 1;
    }

    /// The costs of the passable terrains some cell holds.
    fn used_costs(&self) -> impl Iterator<Item = f64> + '_ {
        self.costs
            .iter()
            .zip(self.cells.iter())
            .filter_map(|(cost, &n)| cost.filter(|_| n > 0))
    }

    fn passable(&self) -> u64 {
        self.costs
            .iter()
            .zip(self.cells.iter())
            .filter(|(cost, _)| cost.is_some())
            .map(|(_, &n)| n)
            .sum()
    }

    /// Whether every passable cell costs the same (jump point search needs it).
    fn uniform(&self) -> bool {
        let mut costs = self.used_costs();
        let Some(first) = costs.next() else {
            return true;
        };
        costs.all(|c| c == first)
    }
}

/// The editor's side of the worker: submits jobs and keeps the latest answers.
pub struct Planner {
    solver: Solver,
    jobs: Option<Sender<ToWorker>>,
    replies: Option<Receiver<Reply>>,
    /// The context the worker wakes when it answers, known from the first frame on.
    repaint: Arc<OnceLock<egui::Context>>,
    generation: u64,
    running: Option<Running>,
    /// Whether the worker holds the map as the editor last reported it (with `pending`).
    worker_has_map: bool,
    /// Edits the worker has not been sent yet.
    pending: Vec<CellChange>,
    /// Height edits the worker has not been sent yet.
    pending_heights: Vec<(Cell, f32)>,
    counts: Option<MapCounts>,
    last: Option<Plan>,
    /// The last plan that found a path, kept on screen (stale) while the latest found none.
    last_good: Option<Plan>,
    failure: Option<Failure>,
    stale: bool,
    comparison: Option<Vec<Comparison>>,
    finished: u64,
    plans: u64,
    unit_size: u32,
    route: Route,
    /// How many algorithms "compare all" runs at once.
    compare_lanes: usize,
}

impl Default for Planner {
    fn default() -> Self {
        Self::new()
    }
}

/// How far a running search has got.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Expansions so far; a search that expands a cell more than once (IDA*) counts each.
    pub expanded: u64,
    /// The distinct cells expanded so far, when the search counts them apart from its
    /// expansions (IDA*); otherwise `expanded` is that number.
    pub cells: Option<u64>,
    /// The passable cells of the map searched.
    pub passable: u64,
    /// How long the search has run.
    pub elapsed: Duration,
}

impl Progress {
    /// The share of the map's passable cells expanded, from 0 to 1.
    pub fn fraction(&self) -> f32 {
        let cells = self.cells.unwrap_or(self.expanded);
        if self.passable == 0 {
            0.0
        } else {
            (cells as f32 / self.passable as f32).min(1.0)
        }
    }

    /// The bar's text: cells of the map's cells, with the expansions apart when they differ.
    pub fn text(&self) -> String {
        let seconds = self.elapsed.as_secs_f32();
        match self.cells {
            Some(cells) => format!(
                "{cells} of {} cells · {} expansions · {seconds:.1} s",
                self.passable, self.expanded
            ),
            None => format!(
                "{} of {} cells · {seconds:.1} s",
                self.expanded, self.passable
            ),
        }
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
            worker_has_map: false,
            pending: Vec::new(),
            pending_heights: Vec::new(),
            counts: None,
            last: None,
            last_good: None,
            failure: None,
            stale: false,
            comparison: None,
            finished: 0,
            plans: 0,
            unit_size: 1,
            route: Route::default(),
            compare_lanes: comparison::default_lanes(),
        }
    }

    /// Replaces the solver (the worker restarts with it).
    pub fn set_solver(&mut self, solver: Solver) {
        self.cancel();
        self.solver = solver;
        self.stop_worker();
        self.worker_has_map = false;
    }

    /// Plans from now on through these waypoints, in this order, back to the start when
    /// `patrol` is set (no waypoints and no patrol: straight from start to goal).
    pub fn set_route(&mut self, via: Vec<Cell>, order: RouteOrder, patrol: bool) {
        self.route = Route { via, order, patrol };
    }

    /// Plans from now on for a unit of `size` × `size` cells (1: one cell).
    pub fn set_unit_size(&mut self, size: u32) {
        self.unit_size = size.max(1);
    }

    /// The context to wake when an answer arrives.
    pub fn set_context(&mut self, ctx: &egui::Context) {
        if self.repaint.get().is_none() {
            // Only this thread sets it, so a failed set means it was set already.
            let _ = self.repaint.set(ctx.clone());
        }
    }

    /// The map was replaced as a whole (opened, imported, resized, or its terrain catalog
    /// changed): the next job sends it whole.
    pub fn map_replaced(&mut self) {
        self.worker_has_map = false;
        self.pending.clear();
        self.pending_heights.clear();
        self.counts = None;
    }

    /// Some cells were repainted: the next job sends the changes. `forward` is whether the
    /// edits were made (or redone) rather than undone.
    pub fn cells_changed(&mut self, edits: &[CellEdit], forward: bool, grid: &Grid) {
        for edit in edits {
            let (before, after) = if forward {
                (edit.before, edit.after)
            } else {
                (edit.after, edit.before)
            };
            if let Some(counts) = &mut self.counts {
                counts.change(before, after);
            }
            // Without the map, the worker is sent it whole with the next job.
            if self.worker_has_map {
                let cell = grid.cell_at(edit.index as usize);
                self.pending.push(CellChange::new(cell, after));
            }
        }
    }

    /// Reports an edit that was just made (`forward`) or undone to the worker's map.
    pub fn edited(&mut self, edit: &Edit, forward: bool, grid: &Grid) {
        match edit {
            Edit::Cells(cells) => self.cells_changed(cells, forward, grid),
            Edit::Heights {
                cells,
                created: false,
            } => {
                if self.worker_has_map {
                    for change in cells {
                        let height = if forward { change.after } else { change.before };
                        let cell = grid.cell_at(change.index as usize);
                        self.pending_heights.push((cell, height));
                    }
                }
            }
            Edit::Heights { created: true, .. }
            | Edit::Relief { .. }
            | Edit::Slope { .. }
            | Edit::Catalog { .. }
            | Edit::Resize { .. } => self.map_replaced(),
        }
    }

    /// Plans a path on `grid` for `request`, and the flow field to its goal when `field` is
    /// set; cancels whatever runs now. `grid` is the editor's map, with every edit since the
    /// last job reported; only those edits travel to the worker.
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
                unit: self.unit_size,
                route: self.route.clone(),
            },
        );
    }

    /// Runs every algorithm on the same request, for the comparison table, and smooths each
    /// path found with `smoothing`.
    pub fn compare(&mut self, grid: &Grid, request: SearchRequest, smoothing: SmoothSettings) {
        let lanes = self.compare_lanes;
        self.start(
            grid,
            Work::Compare {
                request,
                smoothing,
                lanes,
            },
        );
    }

    /// Sets how many algorithms "compare all" runs at once (at least one; by default one a
    /// core).
    pub fn set_compare_lanes(&mut self, lanes: usize) {
        self.compare_lanes = lanes.max(1);
    }

    fn start(&mut self, grid: &Grid, work: Work) {
        self.cancel_running();
        let counts = self.counts.get_or_insert_with(|| MapCounts::of(grid));
        let passable = counts.passable();
        self.generation += 1;
        let control = Arc::new(SearchControl::new());
        let progress = Arc::new(CompareProgress::default());
        let comparing = matches!(work, Work::Compare { .. }).then(|| Arc::clone(&progress));
        let algorithm = match &work {
            Work::Plan { request, .. } => Some(request.algorithm),
            Work::Compare { .. } => None,
        };
        let mut job = Box::new(Job {
            generation: self.generation,
            update: self.update(grid),
            fingerprint: cfg!(debug_assertions).then(|| fingerprint(grid)),
            work,
            control: Arc::clone(&control),
            progress,
        });
        self.running = Some(Running {
            generation: self.generation,
            control,
            started: Instant::now(),
            passable,
            comparing,
            algorithm,
            stood_in: None,
        });
        for _ in 0..2 {
            match self.send(job) {
                Ok(()) => {
                    self.worker_has_map = true;
                    return;
                }
                Err(returned) => {
                    // The worker is gone (its loop catches panics, but its thread could fail
                    // to start): try once more on a new one, which needs the whole map.
                    self.stop_worker();
                    job = returned;
                    job.update = MapUpdate::Replace(grid.clone());
                }
            }
        }
        self.running = None;
        self.worker_has_map = false;
        self.failure = Some(Failure::Panicked(
            "the search worker could not be started".to_owned(),
        ));
    }

    /// What the next job must carry for the worker's map to be the editor's.
    fn update(&mut self, grid: &Grid) -> MapUpdate {
        if self.worker_has_map && self.jobs.is_some() {
            MapUpdate::Apply(
                std::mem::take(&mut self.pending),
                std::mem::take(&mut self.pending_heights),
            )
        } else {
            self.pending.clear();
            self.pending_heights.clear();
            MapUpdate::Replace(grid.clone())
        }
    }

    /// Sends a job to the worker, starting it first if needed; gives the job back on failure.
    fn send(&mut self, job: Box<Job>) -> Result<(), Box<Job>> {
        if self.jobs.is_none() {
            if !matches!(job.update, MapUpdate::Replace(_)) {
                return Err(job);
            }
            let (jobs, job_rx) = mpsc::channel::<ToWorker>();
            let (reply_tx, replies) = mpsc::channel::<Reply>();
            let solver = Arc::clone(&self.solver);
            let repaint = Arc::clone(&self.repaint);
            // A build ending in the background wakes the worker through its own queue.
            let wake = Mutex::new(jobs.clone());
            let on_built: OnBuilt = Arc::new(move || {
                let _ = wake.lock().map(|wake| wake.send(ToWorker::Built));
            });
            let spawned = thread::Builder::new()
                .name("gridpath-search".to_owned())
                .spawn(move || work_loop(&job_rx, &reply_tx, &solver, &repaint, &on_built));
            if spawned.is_err() {
                return Err(job);
            }
            self.jobs = Some(jobs);
            self.replies = Some(replies);
        }
        let Some(jobs) = &self.jobs else {
            return Err(job);
        };
        jobs.send(ToWorker::Job(job))
            .map_err(|failed| match failed.0 {
                ToWorker::Job(job) => job,
                ToWorker::Built | ToWorker::Stop => unreachable!("a job was sent"),
            })
    }

    /// Lets the worker go: it holds a way to wake itself, so it would not see the queue
    /// close; it is told to stop instead.
    fn stop_worker(&mut self) {
        if let Some(jobs) = self.jobs.take() {
            let _ = jobs.send(ToWorker::Stop);
        }
        self.replies = None;
    }

    /// Whether every passable cell of the map last submitted costs the same; `true` before
    /// any map was submitted.
    pub fn map_is_uniform(&self) -> bool {
        self.counts.as_ref().is_none_or(MapCounts::uniform)
    }

    fn cancel_running(&mut self) {
        if let Some(running) = self.running.take() {
            running.control.cancel();
            if let Some(stand_in) = &running.stood_in {
                // Stopped while building: the build stops too (the next plan starts it again).
                stand_in.control.cancel();
            }
            if let Some(progress) = running.comparing {
                progress.skip_running();
            }
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
        self.last_good = None;
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
        let stood_in = match &reply.answer {
            Answer::Plan(Ok(plan)) => plan.stand_in.clone(),
            _ => None,
        };
        match (stood_in, self.running.as_mut()) {
            // A* answered; the job runs on until the build ends.
            (Some(stand_in), Some(running)) => running.stood_in = Some(stand_in),
            _ => {
                self.running = None;
                self.finished += 1;
            }
        }
        match reply.answer {
            Answer::Plan(Ok(plan)) => {
                if plan.result.has_path() {
                    self.last_good = None;
                } else if self.last.as_ref().is_some_and(|p| p.result.has_path()) {
                    self.last_good = self.last.take();
                }
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
        self.running.as_ref().is_some_and(|r| r.comparing.is_some())
    }

    /// The algorithm of the running plan (not of "compare all").
    pub fn running_algorithm(&self) -> Option<Algorithm> {
        self.running.as_ref()?.algorithm
    }

    /// How far the running search's build (the contraction hierarchy, HPA*'s abstraction)
    /// has got, from 0 to 1; `None` while nothing builds or before the build reports.
    pub fn build_progress(&self) -> Option<f32> {
        let running = self.running.as_ref()?;
        match &running.stood_in {
            Some(stand_in) => stand_in.control.build_progress(),
            None => running.control.build_progress(),
        }
    }

    /// Whether the running plan was answered by A* while its algorithm's structure builds in
    /// the background (the path on screen is A*'s, exact and current).
    pub fn is_standing_in(&self) -> bool {
        self.running.as_ref().is_some_and(|r| r.stood_in.is_some())
    }

    /// The passable cells of the map last submitted, once one was.
    pub fn passable_cells(&self) -> Option<u64> {
        self.counts.as_ref().map(MapCounts::passable)
    }

    /// How far the running "compare all" has got.
    pub fn compare_progress(&self) -> Option<&CompareProgress> {
        self.running.as_ref()?.comparing.as_deref()
    }

    /// The running job's progress, as last published by its search.
    pub fn progress(&self) -> Option<Progress> {
        self.running.as_ref().map(|r| Progress {
            expanded: r.control.expanded(),
            cells: r.control.cells_expanded(),
            passable: r.passable,
            elapsed: r.started.elapsed(),
        })
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

    /// The plan whose path the canvas draws: the latest, or, when the latest found no path,
    /// the last one that did, with whether it is that older one (drawn as stale).
    pub fn drawn(&self) -> Option<(&Plan, bool)> {
        match (&self.last, &self.last_good) {
            (Some(last), _) if last.result.has_path() => Some((last, false)),
            (_, Some(good)) => Some((good, true)),
            (Some(last), None) => Some((last, false)),
            (None, None) => None,
        }
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
        self.stale
            || (self.is_busy()
                && !self.is_comparing()
                && !self.is_standing_in()
                && self.last.is_some())
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
        self.stop_worker();
    }
}

/// The worker: takes the newest job waiting (applying the map changes of every job it
/// skips), runs it, sends the answer, and wakes the UI.
fn work_loop(
    jobs: &Receiver<ToWorker>,
    replies: &Sender<Reply>,
    solver: &Solver,
    repaint: &OnceLock<egui::Context>,
    on_built: &OnBuilt,
) {
    let mut replanner: Option<Replanner> = None;
    // The job A* answered while a build runs: answered again when a build ends.
    let mut waiting: Option<Box<Job>> = None;
    while let Ok(message) = jobs.recv() {
        let mut job = match message {
            ToWorker::Stop => return,
            ToWorker::Job(job) => job,
            ToWorker::Built => match waiting.take() {
                Some(job) if !job.control.is_cancelled() => job,
                _ => continue,
            },
        };
        bring_up_to_date(&mut replanner, &mut job.update, on_built);
        // Only the newest job matters: the ones before it were cancelled when it was sent.
        while let Ok(message) = jobs.try_recv() {
            match message {
                ToWorker::Stop => return,
                ToWorker::Job(mut newer) => {
                    bring_up_to_date(&mut replanner, &mut newer.update, on_built);
                    job = newer;
                }
                // The job about to run plans with whatever is built by now.
                ToWorker::Built => {}
            }
        }
        waiting = None;
        let answer = match &mut replanner {
            _ if job.control.is_cancelled() => cancelled(&job.work),
            None => Answer::Plan(Err(Failure::Panicked(
                "the search worker was sent edits before the map".to_owned(),
            ))),
            Some(replanner) => match job.fingerprint {
                Some(expected) if expected != fingerprint(replanner.grid()) => {
                    Answer::Plan(Err(Failure::Panicked(
                        "the search worker's map differs from the editor's: an edit was not \
                         reported"
                            .to_owned(),
                    )))
                }
                _ => run_job(replanner, &job, solver),
            },
        };
        let generation = job.generation;
        if matches!(&answer, Answer::Plan(Ok(plan)) if plan.stand_in.is_some()) {
            // Its map changes were applied; it waits for the build with none.
            job.update = MapUpdate::Apply(Vec::new(), Vec::new());
            waiting = Some(job);
        }
        if replies.send(Reply { generation, answer }).is_err() {
            return;
        }
        if let Some(ctx) = repaint.get() {
            ctx.request_repaint();
        }
    }
}

/// Applies a job's map update to the worker's search state.
fn bring_up_to_date(replanner: &mut Option<Replanner>, update: &mut MapUpdate, on_built: &OnBuilt) {
    match update {
        MapUpdate::Replace(grid) => {
            let grid = std::mem::replace(grid, placeholder_grid());
            match replanner {
                Some(replanner) => replanner.replace(grid),
                None => {
                    let mut fresh = Replanner::new(grid, Default::default());
                    fresh.build_in_background(Arc::clone(on_built));
                    *replanner = Some(fresh);
                }
            }
        }
        MapUpdate::Apply(changes, heights) => {
            if let Some(replanner) = replanner {
                replanner.apply(changes);
                replanner.apply_heights(heights);
            }
        }
    }
}

/// A one-cell grid, left in a job whose map was moved into the search state.
fn placeholder_grid() -> Grid {
    Grid::from_cells(1, 1, crate::grid::Terrain::default_catalog(), vec![0])
        .unwrap_or_else(|_| unreachable!("the default catalog holds terrain 0"))
}

/// The answer to a job cancelled before it ran.
fn cancelled(work: &Work) -> Answer {
    match work {
        Work::Plan { .. } => Answer::Plan(Err(Failure::Search(SearchError::Cancelled))),
        Work::Compare { .. } => Answer::Compare(Vec::new()),
    }
}

/// Runs one job on the worker's search state.
fn run_job(replanner: &mut Replanner, job: &Job, solver: &Solver) -> Answer {
    let control = &job.control;
    match &job.work {
        Work::Plan {
            request,
            smoothing,
            field,
            unit,
            route,
        } => {
            let routed = !route.via.is_empty() || route.patrol;
            let mut planned = None;
            replanner.take_stand_in();
            replanner.take_background_build_time();
            let started = Instant::now();
            let outcome = if routed {
                plan_route(replanner, request, *unit, route, control).map(|r| {
                    let result = r.result.clone();
                    planned = Some(r);
                    result
                })
            } else if *unit > 1 {
                plan_for_unit(replanner.grid(), request, *unit, control)
            } else {
                run_guarded(solver, replanner, request, control)
            };
            let wall_us = started.elapsed().as_micros() as u64;
            let no_path_reason = match &outcome {
                Ok(result) if *unit > 1 && !result.has_path() && !control.is_cancelled() => {
                    // Would one cell get through? Then the unit's size is why.
                    let one_cell = request.clone().recording(false);
                    let found = if routed {
                        plan_route(replanner, &one_cell, 1, route, control)
                            .is_ok_and(|r| r.result.found)
                    } else {
                        run_guarded(solver, replanner, &one_cell, control).is_ok_and(|r| r.found)
                    };
                    found.then(|| {
                        format!(
                            "One cell gets through, but no way is wide enough for a unit of {unit} × {unit} cells: the Clearance layer shows where it fits."
                        )
                    })
                }
                _ => None,
            };
            let field = (*field && !control.is_cancelled())
                .then(|| FlowField::new_controlled(replanner.graph(), request.goal, control).ok())
                .flatten();
            // HPA* is near-optimal only: say how near, against an exact A*; and how much an
            // any-angle path saves on the best grid path.
            let against_astar = !routed
                && (request.algorithm == Algorithm::Hpa
                    || request.algorithm.info().guarantee == Guarantee::AnyAngle);
            let optimal = match &outcome {
                Ok(result) if result.found && against_astar => {
                    let exact = request
                        .clone()
                        .with_algorithm(Algorithm::AStar)
                        .recording(false);
                    replanner.plan(&exact, control).ok().map(|r| r.cost)
                }
                _ => None,
            };
            Answer::Plan(outcome.and_then(|result| {
                let stops = planned.as_ref().map_or(&[][..], |r| &r.order[..]);
                let mut plan = plan_of(
                    replanner.grid(),
                    request,
                    (*smoothing, *unit),
                    result,
                    field,
                    stops,
                    control,
                )?;
                plan.optimal_cost = optimal;
                plan.build_us = match replanner.take_background_build_time() {
                    // Built on its own thread, found built by this plan.
                    Some(took) => took.as_micros() as u64,
                    None => wall_us.saturating_sub(plan.result.stats.time_us),
                };
                plan.no_path_reason = no_path_reason;
                plan.route = planned;
                plan.stand_in = replanner.take_stand_in();
                Ok(Box::new(plan))
            }))
        }
        Work::Compare {
            request,
            smoothing,
            lanes,
        } => Answer::Compare(comparison::run(
            replanner.grid(),
            request,
            smoothing,
            solver,
            control,
            &job.progress,
            *lanes,
        )),
    }
}

/// Where a plan goes between its start and goal.
#[derive(Clone, Debug, Default)]
struct Route {
    via: Vec<Cell>,
    order: RouteOrder,
    patrol: bool,
}

/// Plans a route through waypoints (for a unit of `unit` × `unit` cells on its map).
fn plan_route(
    replanner: &Replanner,
    request: &SearchRequest,
    unit: u32,
    route: &Route,
    control: &SearchControl,
) -> Result<crate::search::Route, Failure> {
    if control.is_cancelled() {
        return Err(Failure::Search(SearchError::Cancelled));
    }
    let plain = request.clone().recording(false);
    let routed = |graph: &crate::search::SearchGraph| {
        crate::search::route(graph, &plain, &route.via, route.order, route.patrol)
            .map_err(Failure::Search)
    };
    if unit > 1 {
        let unit_grid = crate::search::grid_for_unit(replanner.grid(), unit)
            .map_err(|e| Failure::Unit(e.to_string()))?;
        for (which, cell) in [("start", request.start), ("goal", request.goal)] {
            crate::search::check_unit_fits(replanner.grid(), &unit_grid, unit, which, cell)
                .map_err(Failure::Misfit)?;
        }
        routed(&crate::search::SearchGraph::new(
            &unit_grid,
            request.diagonal,
        ))
    } else {
        routed(replanner.graph())
    }
}

/// Plans for a unit larger than one cell, on the unit's map (see
/// [`crate::search::grid_for_unit`]), built afresh from the worker's map for this plan.
fn plan_for_unit(
    grid: &Grid,
    request: &SearchRequest,
    unit: u32,
    control: &SearchControl,
) -> Result<SearchResult, Failure> {
    let unit_grid =
        crate::search::grid_for_unit(grid, unit).map_err(|e| Failure::Unit(e.to_string()))?;
    for (which, cell) in [("start", request.start), ("goal", request.goal)] {
        crate::search::check_unit_fits(grid, &unit_grid, unit, which, cell)
            .map_err(Failure::Misfit)?;
    }
    let graph = crate::search::SearchGraph::new(&unit_grid, request.diagonal);
    crate::search::Searcher::new()
        .search_controlled(&graph, request, control)
        .map_err(Failure::Search)
}

/// A hash of a grid's cells and terrain costs, to check in debug builds that the worker's map
/// is the editor's.
fn fingerprint(grid: &Grid) -> u64 {
    let mut hash =
        0xcbf2_9ce4_8422_2325_u64 ^ u64::from(grid.width()) << 32 ^ u64::from(grid.height());
    let mut mix = |word: u64| hash = (hash ^ word).wrapping_mul(0x0100_0000_01b3).rotate_left(29);
    for chunk in grid.cells().chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        mix(u64::from_le_bytes(word));
    }
    for terrain in grid.terrains() {
        mix(terrain.cost.map_or(u64::MAX, f64::to_bits));
    }
    if let Some(heights) = grid.heights() {
        let slope = grid.slope();
        mix(slope.uphill.to_bits());
        mix(slope.downhill.to_bits());
        mix(slope.max_climb.map_or(u64::MAX, f64::to_bits));
        for &h in heights {
            mix(u64::from(h.to_bits()));
        }
    }
    hash
}

/// Smooths the path and lays out the explored cells: everything the UI draws, prepared here.
/// The smoothing watches the search's `control`: a cancel stops it too, and the plan is
/// given up as the search would be.
fn plan_of(
    grid: &Grid,
    request: &SearchRequest,
    (smoothing, unit): (SmoothSettings, u32),
    mut result: SearchResult,
    field: Option<FlowField>,
    stops: &[Cell],
    control: &SearchControl,
) -> Result<Plan, Failure> {
    // The curve is smoothed for one cell: a larger unit keeps its grid path.
    let smoothed = if result.has_path() && unit == 1 {
        match result.smoothed_controlled(grid, stops, &smoothing, control) {
            Ok(path) => Some(path),
            Err(SmoothError::Cancelled) => return Err(Failure::Search(SearchError::Cancelled)),
            Err(_) => None,
        }
    } else {
        None
    };
    let exploration = result
        .trace
        .take()
        .map(|trace| Exploration::new(grid.width(), grid.height(), trace));
    Ok(Plan {
        request: request.clone(),
        result,
        smoothed,
        smoothing,
        exploration,
        field,
        optimal_cost: None,
        unit,
        route: None,
        build_us: 0,
        no_path_reason: None,
        stand_in: None,
    })
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
    fn progress_counts_cells_against_cells() {
        // IDA* on a weighted hex map: millions of expansions, but cells against cells.
        let ida = Progress {
            expanded: 4_626_432,
            cells: Some(1_200),
            passable: 1_242,
            elapsed: Duration::from_secs(2),
        };
        assert_eq!(
            ida.text(),
            "1200 of 1242 cells · 4626432 expansions · 2.0 s"
        );
        assert!((ida.fraction() - 1_200.0 / 1_242.0).abs() < 1e-6);
        // A search that expands each cell once: its expansions are its cells.
        let astar = Progress {
            cells: None,
            expanded: 621,
            ..ida
        };
        assert_eq!(astar.text(), "621 of 1242 cells · 2.0 s");
        assert!((astar.fraction() - 0.5).abs() < 1e-6);
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
        let solver: Solver = Arc::new(move |replanner, request, control| {
            loop {
                if control.is_cancelled() {
                    return Err(SearchError::Cancelled);
                }
                if *gate.lock().unwrap() {
                    return replanner.plan(request, control);
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
    fn a_cancel_after_the_search_also_stops_its_smoothing() {
        let grid = Grid::from_ascii(&["......", "......"]).unwrap();
        // The search finishes; the cancel comes while the path is being smoothed.
        let solver: Solver = Arc::new(|replanner, request, control| {
            let outcome = replanner.plan(request, control);
            control.cancel();
            outcome
        });
        let mut planner = Planner::with_solver(solver);
        let request = SearchRequest::new(Cell::new(0, 0), Cell::new(5, 1));
        planner.submit(&grid, request, SmoothSettings::default(), false);
        settle(&mut planner);
        assert_eq!(planner.finished(), 1, "the worker answered");
        assert!(
            planner.plan().is_none(),
            "no plan is kept from a cancelled smoothing"
        );
        assert!(planner.failure().is_none(), "a cancel is no failure");
    }

    #[test]
    fn a_panicking_search_is_reported_and_the_worker_goes_on() {
        let grid = Grid::from_ascii(&["....", "...."]).unwrap();
        let solver: Solver = Arc::new(|replanner, request, control| {
            if request.goal == Cell::new(3, 0) {
                panic!("a deliberate failure");
            }
            replanner.plan(request, control)
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
        planner.compare(
            &grid,
            SearchRequest::new(Cell::new(0, 0), Cell::new(5, 2)),
            SmoothSettings::default(),
        );
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
        let mut grid = Grid::from_ascii(&rows).unwrap();
        let request = SearchRequest::new(Cell::new(2, 2), Cell::new(37, 27))
            .with_algorithm(Algorithm::DStarLite);
        let mut planner = Planner::new();
        planner.submit(&grid, request.clone(), SmoothSettings::default(), false);
        settle(&mut planner);
        let first = planner.result().unwrap().clone();

        // A wall far from the path: the worker is sent this one cell.
        let cell = Cell::new(1, 28);
        let index = grid.index(cell) as u32;
        let edit = Edit::paint(&mut grid, &[index], 3).unwrap();
        planner.edited(&edit, true, &grid);
        assert_eq!(planner.pending, [CellChange::new(cell, 3)]);
        planner.submit(&grid, request.clone(), SmoothSettings::default(), false);
        settle(&mut planner);
        assert!(planner.failure().is_none(), "{:?}", planner.failure());
        let repaired = planner.result().unwrap();
        let fresh =
            crate::search::solve(&grid, &request.clone().with_algorithm(Algorithm::AStar)).unwrap();
        assert!((repaired.cost - fresh.cost).abs() < 1e-9);
        assert!(
            repaired.stats.expanded < first.stats.expanded / 4,
            "a far edit is repaired cheaply: {} after {}",
            repaired.stats.expanded,
            first.stats.expanded
        );

        // Undone, the cell travels back; the worker's map is the editor's again.
        let Edit::Cells(cells) = &edit else {
            unreachable!("a paint edit")
        };
        grid.set(cell, cells[0].before).unwrap();
        planner.edited(&edit, false, &grid);
        assert_eq!(planner.pending, [CellChange::new(cell, cells[0].before)]);
        planner.submit(&grid, request, SmoothSettings::default(), false);
        settle(&mut planner);
        assert!(planner.failure().is_none(), "{:?}", planner.failure());
    }

    #[test]
    fn an_edit_the_worker_was_not_told_of_is_caught_in_debug_builds() {
        let mut grid = Grid::from_ascii(&["......", "......"]).unwrap();
        let request = SearchRequest::new(Cell::new(0, 0), Cell::new(5, 0));
        let mut planner = Planner::new();
        planner.submit(&grid, request.clone(), SmoothSettings::default(), false);
        settle(&mut planner);
        grid.set(Cell::new(2, 1), 3).unwrap();
        planner.submit(&grid, request.clone(), SmoothSettings::default(), false);
        settle(&mut planner);
        if cfg!(debug_assertions) {
            let failure = planner
                .failure()
                .map(ToString::to_string)
                .unwrap_or_default();
            assert!(failure.contains("not reported"), "{failure}");
        }
        // Told the map was replaced, the worker is sent it whole and agrees again.
        planner.map_replaced();
        planner.submit(&grid, request, SmoothSettings::default(), false);
        settle(&mut planner);
        assert!(planner.failure().is_none(), "{:?}", planner.failure());
    }

    #[test]
    fn a_hierarchy_builds_in_the_background_while_a_star_answers() {
        let mut rows = vec!["........................................"; 30];
        rows[15] = "......................~~~~~~~~~~~~~~~~..";
        let mut grid = Grid::from_ascii(&rows).unwrap();
        let request = SearchRequest::new(Cell::new(2, 2), Cell::new(37, 27))
            .with_algorithm(Algorithm::ContractionHierarchy);
        let exact = |grid: &Grid| {
            crate::search::solve(grid, &request.clone().with_algorithm(Algorithm::AStar))
                .unwrap()
                .cost
        };
        let mut planner = Planner::new();
        planner.submit(&grid, request.clone(), SmoothSettings::default(), false);
        settle(&mut planner);
        // Two answers to one job: A*'s at once, then the hierarchy's once built.
        assert_eq!(planner.plan_serial(), 2);
        assert_eq!(planner.finished(), 1);
        let plan = planner.plan().unwrap();
        assert!(
            plan.stand_in.is_none(),
            "the last answer is the hierarchy's"
        );
        assert!(plan.build_us > 0, "the build's own time, not the query's");
        assert!((plan.result.cost - exact(&grid)).abs() < 1e-9);
        assert!(!planner.is_stale());

        // Markers moved, the map unchanged: the hierarchy answers at once.
        let moved = SearchRequest::new(Cell::new(3, 2), Cell::new(37, 27))
            .with_algorithm(Algorithm::ContractionHierarchy);
        planner.submit(&grid, moved, SmoothSettings::default(), false);
        settle(&mut planner);
        assert_eq!(planner.plan_serial(), 3);
        assert!(planner.plan().unwrap().stand_in.is_none());

        // An edit drops the hierarchy: A* answers for the edited map while it builds again.
        let index = grid.index(Cell::new(30, 15)) as u32;
        let edit = Edit::paint(&mut grid, &[index], 3).unwrap();
        planner.edited(&edit, true, &grid);
        planner.submit(&grid, request.clone(), SmoothSettings::default(), false);
        settle(&mut planner);
        assert_eq!(planner.plan_serial(), 5);
        let plan = planner.plan().unwrap();
        assert!(plan.stand_in.is_none());
        assert!((plan.result.cost - exact(&grid)).abs() < 1e-9);
        assert!(!plan.result.path.contains(&Cell::new(30, 15)));
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
