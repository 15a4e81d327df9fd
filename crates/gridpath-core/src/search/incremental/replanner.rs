//! Planning again after edits: one value that owns a map's search state — the grid, its
//! search graph, the HPA* abstraction, the contraction hierarchy and the D* Lite state — takes
//! the edits as the cells they changed, and plans with any algorithm.
//!
//! An edit costs what it changes: [`Replanner::apply`] updates the graph's neighbour masks
//! around each changed cell, JPS+'s jump distances along the lines through them, repairs
//! D* Lite's costs around them and rebuilds only the HPA* clusters they touch; nothing is
//! compared or copied whole. The contraction hierarchy and the subgoal graph are the
//! exceptions: an edit drops them, and the next request for them builds them again whole. The
//! abstraction, the hierarchy and the D* Lite state are built on the first request that needs
//! them and kept while the requests go on needing them (the same goal and heuristic for
//! D* Lite).
//!
//! A replanner told to [build in the background](Replanner::build_in_background) builds what
//! is built whole (the hierarchy, the subgoal graph, HPA*'s first abstraction) on a thread of
//! its own from a copy of the graph, and answers the requests for it with A* meanwhile:
//! exact, at once, and said so by [`Replanner::take_stand_in`]. An edit cancels such a build
//! and the next request starts it again on the edited map, so that painting on a large map
//! never waits for a build.
//!
//! ```
//! use gridpath_core::grid::{Cell, Grid};
//! use gridpath_core::search::{Algorithm, CellChange, Diagonal, Replanner, SearchControl, SearchRequest};
//!
//! let grid = Grid::from_ascii(&[".....", ".....", "....."]).expect("a valid map");
//! let mut replanner = Replanner::new(grid, Diagonal::NoCut);
//! let request = SearchRequest::new(Cell::new(0, 1), Cell::new(4, 1))
//!     .with_algorithm(Algorithm::DStarLite);
//! let control = SearchControl::new();
//! assert_eq!(replanner.plan(&request, &control).expect("plans").path.len(), 5);
//!
//! // A wall across the middle but for the top row: the path goes round it.
//! let wall = 3; // the terrain id of Wall in the default catalog
//! replanner.apply(&[CellChange::new(Cell::new(2, 1), wall), CellChange::new(Cell::new(2, 2), wall)]);
//! let detour = replanner.plan(&request, &control).expect("plans");
//! assert!(detour.found && !detour.path.contains(&Cell::new(2, 1)));
//! ```

use std::sync::Arc;

use crate::grid::{Cell, Grid, TerrainId};

use crate::control::SearchControl;
use crate::search::graph::SearchGraph;
use crate::search::incremental::background::{Background, Ended, OnBuilt};
use crate::search::incremental::dstar_lite::DStarLite;
use crate::search::preprocessed::ch::ContractionHierarchy;
use crate::search::preprocessed::hpa::{DEFAULT_CLUSTER_SIZE, HpaGraph};
use crate::search::preprocessed::subgoal_graph::SubgoalGraph;
use crate::search::request::{
    Algorithm, Diagonal, Heuristic, SearchError, SearchRequest, SearchResult,
};
use crate::search::searcher::Searcher;

/// One cell's new terrain: the shape an edit travels in, from the editor to the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellChange {
    /// The cell.
    pub cell: Cell,
    /// Its new terrain, an index into the map's catalog.
    pub terrain: TerrainId,
}

impl CellChange {
    /// The change of `cell` to `terrain`.
    pub const fn new(cell: Cell, terrain: TerrainId) -> Self {
        Self { cell, terrain }
    }
}

/// A plan answered by A* in place of the algorithm asked for, while the structure that
/// algorithm searches builds in the background (see
/// [`Replanner::build_in_background`]). A*'s answer is exact; so is the cost of the path the
/// algorithm gives once built, which may be another path of the same cost.
#[derive(Clone, Debug)]
pub struct StandIn {
    /// The algorithm asked for, whose structure is building.
    pub building: Algorithm,
    /// The build's control, through which it reports its progress
    /// ([`SearchControl::build_progress`]).
    pub control: Arc<SearchControl>,
}

/// The builds running in the background, each on the map as it was when it started (an edit
/// drops them).
#[derive(Debug, Default)]
struct Builds {
    ch: Option<Background<ContractionHierarchy>>,
    subgoal: Option<Background<SubgoalGraph>>,
    hpa: Option<Background<HpaGraph>>,
}

/// What wakes the owner of a replanner when a background build ends.
#[derive(Clone)]
struct Waker(OnBuilt);

impl std::fmt::Debug for Waker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Waker")
    }
}

/// A map's search state, kept between plans and brought up to date by edits.
#[derive(Debug)]
pub struct Replanner {
    grid: Grid,
    graph: SearchGraph,
    searcher: Searcher,
    hpa: Option<HpaGraph>,
    ch: Option<ContractionHierarchy>,
    dstar: Option<(DStarLite, Heuristic)>,
    /// Set: what is built whole is built in the background, and this is called when a
    /// build ends.
    waker: Option<Waker>,
    builds: Builds,
    /// Whether a plan since the last look was answered by A* in place of its algorithm.
    stand_in: Option<StandIn>,
    /// How long the last build taken from the background took, until looked at.
    built_in_background: Option<std::time::Duration>,
}

impl Replanner {
    /// The search state of `grid` under a diagonal rule (the graph is built now; HPA* and
    /// D* Lite state when a request first needs them).
    pub fn new(grid: Grid, diagonal: Diagonal) -> Self {
        let graph = SearchGraph::new(&grid, diagonal);
        Self {
            grid,
            graph,
            searcher: Searcher::new(),
            hpa: None,
            ch: None,
            dstar: None,
            waker: None,
            builds: Builds::default(),
            stand_in: None,
            built_in_background: None,
        }
    }

    /// From now on builds the contraction hierarchy, the subgoal graph and HPA*'s first
    /// abstraction on a thread of its own, from a copy of the graph, and answers the requests
    /// for them with A* until they are built; `on_built` is called on the build's thread when
    /// a build ends (built or cancelled by an edit), so that its owner can plan again.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex, mpsc};
    /// use gridpath_core::grid::{Cell, Grid};
    /// use gridpath_core::search::{Algorithm, Diagonal, Replanner, SearchControl, SearchRequest};
    ///
    /// let grid = Grid::from_ascii(&["..........", "..~~~~~...", ".........."]).expect("a valid map");
    /// let mut replanner = Replanner::new(grid, Diagonal::NoCut);
    /// let (built, wake) = mpsc::channel();
    /// let built = Mutex::new(built);
    /// replanner.build_in_background(Arc::new(move || {
    ///     let _ = built.lock().map(|tx| tx.send(()));
    /// }));
    /// let request = SearchRequest::new(Cell::new(0, 1), Cell::new(9, 1))
    ///     .with_algorithm(Algorithm::ContractionHierarchy);
    /// let control = SearchControl::new();
    /// // The first answer is A*'s, while the hierarchy builds…
    /// let first = replanner.plan(&request, &control).expect("plans");
    /// let stand_in = replanner.take_stand_in().expect("A* stood in");
    /// assert_eq!(stand_in.building, Algorithm::ContractionHierarchy);
    /// // …and once it is built, the hierarchy answers, at the same cost.
    /// wake.recv().expect("the build ends");
    /// let second = replanner.plan(&request, &control).expect("plans");
    /// assert!(replanner.take_stand_in().is_none());
    /// assert!((first.cost - second.cost).abs() < 1e-9);
    /// ```
    pub fn build_in_background(&mut self, on_built: OnBuilt) {
        self.waker = Some(Waker(on_built));
    }

    /// Whether a plan since the last call was answered by A* while its algorithm's structure
    /// builds in the background, and which build; clears what it returns.
    pub fn take_stand_in(&mut self) -> Option<StandIn> {
        self.stand_in.take()
    }

    /// How long the build took that a plan since the last call took from the background
    /// (its time is not in the plan's, which found it built); clears what it returns.
    pub fn take_background_build_time(&mut self) -> Option<std::time::Duration> {
        self.built_in_background.take()
    }

    /// Whether a build runs in the background.
    pub fn is_building(&self) -> bool {
        let b = &self.builds;
        b.ch.is_some() || b.subgoal.is_some() || b.hpa.is_some()
    }

    /// The map as the replanner sees it.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The search graph of the map as it is now.
    pub fn graph(&self) -> &SearchGraph {
        &self.graph
    }

    /// Sets the terrain of some cells. Changes off the map or to a terrain outside the catalog
    /// are ignored. The work is proportional to the cells changed (and, for a kept HPA*
    /// abstraction, to the clusters they touch); a kept contraction hierarchy is dropped, to be
    /// built again whole by the next request for it.
    pub fn apply(&mut self, changes: &[CellChange]) {
        let mut applied: Vec<(Cell, TerrainId)> = Vec::with_capacity(changes.len());
        for change in changes {
            if let Some(old) = self.grid.set(change.cell, change.terrain)
                && old != change.terrain
            {
                applied.push((change.cell, change.terrain));
            }
        }
        if applied.is_empty() {
            return;
        }
        self.graph.set_cells(&applied);
        self.ch = None;
        // A build of the map before the edit would answer for the wrong map.
        self.builds = Builds::default();
        if let Some(hpa) = &mut self.hpa {
            hpa.set_cells(&applied);
        }
        if let Some((dstar, _)) = &mut self.dstar {
            dstar.update_cells(&applied);
        }
    }

    /// Sets the height of some cells of a map with heights (the map's heights and slope
    /// rules themselves change through [`Replanner::replace`]). Changes off the map, of a
    /// flat map or to an unusable value are ignored.
    pub fn apply_heights(&mut self, changes: &[(Cell, f32)]) {
        let mut applied = Vec::with_capacity(changes.len());
        for &(cell, height) in changes {
            if let Some(old) = self.grid.set_height(cell, height)
                && old != height
            {
                applied.push((cell, height));
            }
        }
        if applied.is_empty() {
            return;
        }
        self.graph.set_heights(&applied);
        self.ch = None;
        self.builds = Builds::default();
        if let Some((dstar, _)) = &mut self.dstar {
            dstar.update_heights(&applied);
        }
    }

    /// Replaces the whole map (a new catalog, a resize): every kept state is built again.
    pub fn replace(&mut self, grid: Grid) {
        let waker = self.waker.take();
        *self = Self::new(grid, self.graph.diagonal());
        self.waker = waker;
    }

    /// Plans on the map as it is now. The diagonal rule of the request may differ from the
    /// last one (the graph is then built again). `control` cancels every search and the
    /// builds of HPA*'s abstraction and of the contraction hierarchy; their queries, short
    /// next to the builds, answer whole. A cancelled build keeps nothing.
    pub fn plan(
        &mut self,
        request: &SearchRequest,
        control: &SearchControl,
    ) -> Result<SearchResult, SearchError> {
        if request.diagonal != self.graph.diagonal() {
            self.graph = SearchGraph::new(&self.grid, request.diagonal);
            self.hpa = None;
            self.ch = None;
            self.dstar = None;
            self.builds = Builds::default();
        }
        crate::search::partial::plan(
            self,
            |replanner| &replanner.graph,
            request,
            control,
            |replanner, request| replanner.plan_exact(request, control),
        )
    }

    /// Plans for the request as it is (no partial fallback).
    fn plan_exact(
        &mut self,
        request: &SearchRequest,
        control: &SearchControl,
    ) -> Result<SearchResult, SearchError> {
        if request.turn_penalty != 0.0 {
            // Over (cell, heading): no kept state applies.
            return self
                .searcher
                .search_controlled(&self.graph, request, control);
        }
        match request.algorithm {
            Algorithm::Hpa => {
                crate::search::outcome::check(&self.graph, request)?;
                if self.hpa.is_none() {
                    let build = |graph, control: &SearchControl| {
                        HpaGraph::from_graph_controlled(graph, DEFAULT_CLUSTER_SIZE, control)
                    };
                    match self.prepared_in_background(|b| &mut b.hpa, build, request, control) {
                        Prepared::Built(hpa) => self.hpa = Some(hpa),
                        Prepared::InPlace => {}
                        Prepared::Answered(answer) => return *answer,
                    }
                }
                let hpa = match &mut self.hpa {
                    Some(hpa) => hpa,
                    slot @ None => slot.insert(HpaGraph::from_graph_controlled(
                        self.graph.clone(),
                        DEFAULT_CLUSTER_SIZE,
                        control,
                    )?),
                };
                hpa.find_path(request)
            }
            Algorithm::ContractionHierarchy => {
                crate::search::outcome::check(&self.graph, request)?;
                if self.ch.is_none() {
                    let build = ContractionHierarchy::from_graph_controlled;
                    match self.prepared_in_background(|b| &mut b.ch, build, request, control) {
                        Prepared::Built(ch) => self.ch = Some(ch),
                        Prepared::InPlace => {}
                        Prepared::Answered(answer) => return *answer,
                    }
                }
                let ch = match &mut self.ch {
                    Some(ch) => ch,
                    slot @ None => slot.insert(ContractionHierarchy::from_graph_controlled(
                        self.graph.clone(),
                        control,
                    )?),
                };
                ch.find_path(request)
            }
            Algorithm::DStarLite => {
                let heuristic = request.heuristic_on(self.graph.topology());
                let keep = self
                    .dstar
                    .as_ref()
                    .is_some_and(|(d, h)| d.goal() == request.goal && *h == heuristic);
                if !keep {
                    let dstar = DStarLite::from_graph(self.graph.clone(), request.goal, heuristic)?;
                    self.dstar = Some((dstar, heuristic));
                }
                let Some((dstar, _)) = &mut self.dstar else {
                    unreachable!("kept or built just above")
                };
                dstar.plan_controlled(request.start, control)
            }
            Algorithm::Subgoal if !self.graph.has_subgoal_graph() && self.waker.is_some() => {
                crate::search::outcome::check(&self.graph, request)?;
                let build = |graph: SearchGraph, control: &SearchControl| {
                    SubgoalGraph::build_controlled(&graph.moves(), control)
                };
                match self.prepared_in_background(|b| &mut b.subgoal, build, request, control) {
                    Prepared::Built(subgoals) => self.graph.keep_subgoal_graph(subgoals),
                    Prepared::InPlace => {}
                    Prepared::Answered(answer) => return *answer,
                }
                self.searcher
                    .search_controlled(&self.graph, request, control)
            }
            _ => self
                .searcher
                .search_controlled(&self.graph, request, control),
        }
    }
}

/// What [`Replanner::prepared_in_background`] makes of a structure that is not built.
enum Prepared<T> {
    /// Its build in the background has ended: here it is.
    Built(T),
    /// It is to be built in place (no builds in the background, or the last one panicked, or
    /// no thread could be started).
    InPlace,
    /// It is building: the request was answered without it.
    Answered(Box<Result<SearchResult, SearchError>>),
}

impl Replanner {
    /// With builds in the background, for a structure not built: takes it from its slot of
    /// [`Builds`] once its build has ended (noting the build's time), or else answers
    /// `request` with A* while it builds, starting the build from a copy of the graph when
    /// none runs or the last was cancelled.
    fn prepared_in_background<T: Send + 'static>(
        &mut self,
        slot: fn(&mut Builds) -> &mut Option<Background<T>>,
        build: fn(SearchGraph, &SearchControl) -> Result<T, SearchError>,
        request: &SearchRequest,
        control: &SearchControl,
    ) -> Prepared<T> {
        let Some(on_built) = self.waker.as_ref().map(|waker| Arc::clone(&waker.0)) else {
            return Prepared::InPlace;
        };
        if control.is_cancelled() {
            return Prepared::Answered(Box::new(Err(SearchError::Cancelled)));
        }
        let ended = match slot(&mut self.builds) {
            Some(build) => match build.take() {
                Some(ended) => Some(ended),
                None => {
                    let running = Arc::clone(build.control());
                    return Prepared::Answered(Box::new(self.stand_in(request, running, control)));
                }
            },
            None => None,
        };
        *slot(&mut self.builds) = None;
        match ended {
            Some(Ended::Built(built, took)) => {
                self.built_in_background = Some(took);
                return Prepared::Built(built);
            }
            Some(Ended::Panicked) => return Prepared::InPlace,
            // None ran, or the last was cancelled (by a stop).
            Some(Ended::Cancelled) | None => {}
        }
        let graph = self.graph.clone();
        let started = Background::start(
            move |control: &SearchControl| build(graph, control),
            Some(on_built),
        );
        let Some(started) = started else {
            return Prepared::InPlace;
        };
        let running = Arc::clone(started.control());
        *slot(&mut self.builds) = Some(started);
        Prepared::Answered(Box::new(self.stand_in(request, running, control)))
    }

    /// Answers `request` with A* (the default heuristic, weight 1: exact) while `build`
    /// builds the structure its algorithm searches, and notes it for
    /// [`Replanner::take_stand_in`].
    fn stand_in(
        &mut self,
        request: &SearchRequest,
        build: Arc<SearchControl>,
        control: &SearchControl,
    ) -> Result<SearchResult, SearchError> {
        let astar = SearchRequest {
            algorithm: Algorithm::AStar,
            heuristic: None,
            weight: 1.0,
            ..request.clone()
        };
        let result = self
            .searcher
            .search_controlled(&self.graph, &astar, control)?;
        self.stand_in = Some(StandIn {
            building: request.algorithm,
            control: build,
        });
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{ALGORITHMS, solve};

    /// A small generator of its own, so the test needs no crate.
    fn next(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 33
    }

    #[test]
    fn plans_after_edits_match_fresh_searches_for_every_algorithm() {
        let mut seed = 7;
        for diagonal in [Diagonal::NoCut, Diagonal::Never] {
            let mut grid = Grid::from_ascii(&["..........................."; 19]).unwrap();
            let mut replanner = Replanner::new(grid.clone(), diagonal);
            let control = SearchControl::new();
            for round in 0..40 {
                // A stroke of a few cells of one terrain (grass, road, swamp or wall).
                let terrain = (next(&mut seed) % 4) as TerrainId;
                let (x, y) = (next(&mut seed) % 27, next(&mut seed) % 19);
                let changes: Vec<CellChange> = (0..1 + next(&mut seed) % 6)
                    .map(|k| CellChange::new(Cell::new(((x + k) % 27) as u32, y as u32), terrain))
                    .collect();
                for c in &changes {
                    grid.set(c.cell, c.terrain);
                }
                replanner.apply(&changes);
                assert_eq!(replanner.grid(), &grid);
                // The goal stays, so D* Lite repairs its state rather than starting again.
                let start = Cell::new(0, (round % 19) as u32);
                let goal = Cell::new(26, 9);
                if !grid.is_passable(start) || !grid.is_passable(goal) {
                    continue;
                }
                for info in ALGORITHMS {
                    if info.needs_uniform_cost || info.algorithm == Algorithm::IdaStar {
                        continue;
                    }
                    let request = SearchRequest::new(start, goal)
                        .with_algorithm(info.algorithm)
                        .with_diagonal(diagonal);
                    let kept = replanner.plan(&request, &control).unwrap();
                    let fresh = solve(&grid, &request).unwrap();
                    assert_eq!(kept.found, fresh.found, "{} round {round}", info.name);
                    assert!(
                        (kept.cost - fresh.cost).abs() <= 1e-9 * fresh.cost.max(1.0),
                        "{} round {round}: {} kept, {} fresh",
                        info.name,
                        kept.cost,
                        fresh.cost
                    );
                }
            }
        }
    }

    #[test]
    fn builds_in_the_background_stand_in_with_a_star_and_follow_edits() {
        use std::sync::{Mutex, mpsc};
        let mut seed = 11;
        let open = Grid::from_ascii(&["........................"; 16]).unwrap();
        let mut grid = open.clone();
        let mut replanner = Replanner::new(grid.clone(), Diagonal::NoCut);
        let (tx, wakes) = mpsc::channel();
        let tx = Mutex::new(tx);
        replanner.build_in_background(Arc::new(move || {
            let _ = tx.lock().unwrap().send(());
        }));
        let control = SearchControl::new();
        let (start, goal) = (Cell::new(0, 0), Cell::new(23, 15));
        for algorithm in [
            Algorithm::ContractionHierarchy,
            Algorithm::Subgoal,
            Algorithm::Hpa,
        ] {
            // Each algorithm on the open map again (the subgoal graph needs one cost).
            grid = open.clone();
            replanner.replace(grid.clone());
            let request = SearchRequest::new(start, goal).with_algorithm(algorithm);
            for round in 0..4 {
                // An edit (walls, or for the hierarchy also swamp) drops what was built: the
                // next plan stands in with A* while the structure is built again.
                let terrain = if algorithm == Algorithm::ContractionHierarchy && round % 2 == 1 {
                    2
                } else {
                    3
                };
                let changes: Vec<CellChange> = (0..5)
                    .map(|_| {
                        let cell = Cell::new(
                            (1 + next(&mut seed) % 22) as u32,
                            (1 + next(&mut seed) % 14) as u32,
                        );
                        CellChange::new(cell, terrain)
                    })
                    .collect();
                for c in &changes {
                    grid.set(c.cell, c.terrain);
                }
                replanner.apply(&changes);
                let fresh =
                    solve(&grid, &request.clone().with_algorithm(Algorithm::AStar)).unwrap();
                let tolerance = if algorithm == Algorithm::Hpa {
                    0.2
                } else {
                    1e-9
                };
                let first = replanner.plan(&request, &control).unwrap();
                assert_eq!(first.found, fresh.found);
                let stand_in = replanner.take_stand_in();
                // HPA*'s abstraction, once built, is repaired cluster by cluster in place.
                let repaired = algorithm == Algorithm::Hpa && round > 0;
                if repaired {
                    assert!(stand_in.is_none() && !replanner.is_building());
                    assert!(first.cost <= fresh.cost * (1.0 + tolerance));
                    continue;
                }
                // A* stood in: the exact cost.
                assert!((first.cost - fresh.cost).abs() <= 1e-9 * fresh.cost.max(1.0));
                assert_eq!(
                    stand_in.as_ref().map(|s| s.building),
                    Some(algorithm),
                    "{algorithm:?} round {round}: A* stands in after an edit"
                );
                assert!(replanner.is_building());
                // Once a build ends (an earlier, cancelled one may wake us first), the
                // algorithm answers itself, for the edited map.
                let built = loop {
                    wakes.recv().unwrap();
                    let result = replanner.plan(&request, &control).unwrap();
                    if replanner.take_stand_in().is_none() {
                        break result;
                    }
                };
                assert!(!replanner.is_building());
                assert_eq!(built.found, fresh.found, "{algorithm:?} round {round}");
                let tolerance = if algorithm == Algorithm::Hpa {
                    0.2
                } else {
                    1e-9
                };
                assert!(
                    built.cost >= fresh.cost - 1e-9 && built.cost <= fresh.cost * (1.0 + tolerance),
                    "{algorithm:?} round {round}: {} built, {} by A*",
                    built.cost,
                    fresh.cost
                );
                assert!(built.path.iter().all(|&c| grid.is_passable(c)));
            }
        }
    }

    #[test]
    fn a_cancelled_abstraction_build_keeps_nothing_and_the_next_plan_builds_it() {
        let grid = Grid::new(200, 150, crate::grid::Terrain::default_catalog(), 0).unwrap();
        let mut replanner = Replanner::new(grid, Diagonal::NoCut);
        let request =
            SearchRequest::new(Cell::new(3, 3), Cell::new(190, 140)).with_algorithm(Algorithm::Hpa);
        let cancelled = SearchControl::new();
        cancelled.cancel();
        assert_eq!(
            replanner.plan(&request, &cancelled),
            Err(SearchError::Cancelled)
        );
        assert!(replanner.hpa.is_none(), "no half-built abstraction is kept");
        let result = replanner.plan(&request, &SearchControl::new()).unwrap();
        assert!(result.found && replanner.hpa.is_some());
    }
}
