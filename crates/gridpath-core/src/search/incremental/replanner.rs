//! Planning again after edits: one value that owns a map's search state — the grid, its
//! search graph, the HPA* abstraction, the contraction hierarchy and the D* Lite state — takes
//! the edits as the cells they changed, and plans with any algorithm.
//!
//! An edit costs what it changes: [`Replanner::apply`] updates the graph's neighbour masks
//! around each changed cell, repairs D* Lite's costs around them and rebuilds only the HPA*
//! clusters they touch; nothing is compared or copied whole. The contraction hierarchy is the
//! exception: an edit drops it, and the next request for it builds it again whole. The
//! abstraction, the hierarchy and the D* Lite state are built on the first request that needs
//! them and kept while the requests go on needing them (the same goal and heuristic for
//! D* Lite).
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

use crate::grid::{Cell, Grid, TerrainId};

use crate::search::control::SearchControl;
use crate::search::graph::SearchGraph;
use crate::search::incremental::dstar_lite::DStarLite;
use crate::search::preprocessed::ch::ContractionHierarchy;
use crate::search::preprocessed::hpa::{DEFAULT_CLUSTER_SIZE, HpaGraph};
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

/// A map's search state, kept between plans and brought up to date by edits.
#[derive(Debug)]
pub struct Replanner {
    grid: Grid,
    graph: SearchGraph,
    searcher: Searcher,
    hpa: Option<HpaGraph>,
    ch: Option<ContractionHierarchy>,
    dstar: Option<(DStarLite, Heuristic)>,
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
        }
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
        if let Some((dstar, _)) = &mut self.dstar {
            dstar.update_heights(&applied);
        }
    }

    /// Replaces the whole map (a new catalog, a resize): every kept state is built again.
    pub fn replace(&mut self, grid: Grid) {
        *self = Self::new(grid, self.graph.diagonal());
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
            _ => self
                .searcher
                .search_controlled(&self.graph, request, control),
        }
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
