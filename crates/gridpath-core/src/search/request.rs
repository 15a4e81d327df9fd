//! The shapes every algorithm shares: what to search for and what came back.

use std::fmt;
use std::str::FromStr;

use super::SearchControl;
use crate::grid::{Cell, Grid, Topology};
use crate::smooth::{self, SmoothError, SmoothSettings, SmoothedPath};

/// Implements `FromStr`, `Display`, `ALL` and `name` for a fieldless enum from a table of
/// (variant, command-line name, description).
macro_rules! named_enum {
    ($ty:ident { $($variant:ident => $name:literal, $about:literal;)+ }) => {
        impl $ty {
            /// Every value, in the order menus list them.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];

            /// The name used on the command line and in files.
            pub fn name(self) -> &'static str {
                match self { $($ty::$variant => $name),+ }
            }

            /// One sentence on what it does, for help texts and tooltips.
            pub fn about(self) -> &'static str {
                match self { $($ty::$variant => $about),+ }
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $ty {
            type Err = String;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Self::ALL.iter().copied().find(|v| v.name() == s).ok_or_else(|| {
                    let names: Vec<&str> = Self::ALL.iter().map(|v| v.name()).collect();
                    format!("unknown {} {s:?}; expected one of: {}", stringify!($ty).to_lowercase(), names.join(", "))
                })
            }
        }
    };
}

/// A search algorithm.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// A*: best-first on g + w·h. Optimal with an admissible heuristic and weight 1.
    #[default]
    AStar,
    /// Dijkstra: best-first on g alone. Always optimal.
    Dijkstra,
    /// Greedy best-first: on h alone. Fast, with no guarantee on cost.
    Greedy,
    /// Breadth-first: fewest steps, ignoring terrain costs.
    Bfs,
    /// Bidirectional A*: from both ends at once, stopping only when no better meeting can exist.
    Bidirectional,
    /// Jump point search: A* over jump points; optimal, for uniform-cost maps under `no-cut`.
    Jps,
    /// JPS+: jump point search over jump distances computed once per map (16 bytes per cell)
    /// and kept with the [`super::SearchGraph`]; exact, for uniform-cost maps under `no-cut`.
    JpsPlus,
    /// Simple subgoal graph: A* over the corners of the obstacles, joined where a straight
    /// octile path runs between them, computed once per map and kept with the
    /// [`super::SearchGraph`]; exact, for uniform-cost maps under `no-cut`.
    Subgoal,
    /// IDA*: iterative-deepening A*; optimal, little memory, many re-expansions, bounded work.
    IdaStar,
    /// D* Lite: a backward search that keeps its state to replan after map edits; optimal.
    /// Run once, it costs about what A* does; [`super::DStarLite`] keeps it between plans.
    DStarLite,
    /// HPA*: hierarchical A* over clusters and their entrances; fast on large maps,
    /// near-optimal with no bound. See [`super::HpaGraph`].
    Hpa,
    /// Theta*: A* whose successors may take the expanded cell's parent as their own when it
    /// is in line of sight, giving any-angle paths ([`SearchResult::waypoints`]), never dearer
    /// than the cheapest grid path.
    ///
    /// ```
    /// use gridpath_core::grid::{Cell, Grid};
    /// use gridpath_core::search::{Algorithm, Optimality, SearchRequest, solve};
    ///
    /// // Across an open field at a knight's-move slope: one straight segment.
    /// let grid = Grid::from_ascii(&["......."; 4]).expect("a valid map");
    /// let request = SearchRequest::new(Cell::new(0, 0), Cell::new(6, 3));
    /// let grid_path = solve(&grid, &request).expect("plans");
    /// let theta = solve(&grid, &request.with_algorithm(Algorithm::Theta)).expect("plans");
    /// assert_eq!(theta.waypoints, Some(vec![Cell::new(0, 0), Cell::new(6, 3)]));
    /// assert!((theta.cost - 45f64.sqrt()).abs() < 1e-9, "the straight line, √(6² + 3²)");
    /// assert!(theta.cost < grid_path.cost);
    /// assert_eq!(theta.optimality, Optimality::AnyAngle);
    /// ```
    Theta,
    /// Lazy Theta*: Theta* that assumes line of sight when it reaches a cell and checks it only
    /// when it expands the cell, so it walks far fewer segments.
    LazyTheta,
    /// Contraction hierarchy: a search upwards from both ends over shortcuts built
    /// beforehand in a nested dissection order; exact, on flat maps. See [`super::ContractionHierarchy`].
    ContractionHierarchy,
}

/// Which diagonal steps are allowed, as PathFinding.js names the rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Diagonal {
    /// 4-connected: no diagonal steps.
    Never,
    /// Any diagonal step between two passable cells, even squeezing between two walls.
    Always,
    /// A diagonal step when at most one of the two orthogonal neighbours it passes is blocked.
    OneFree,
    /// A diagonal step only when both orthogonal neighbours are passable (no corner cutting):
    /// the Moving AI rule.
    #[default]
    NoCut,
}

named_enum!(Diagonal {
    Never => "never", "4-connected: only horizontal and vertical steps.";
    Always => "always", "8-connected: diagonal steps even between two touching walls.";
    OneFree => "one-free", "8-connected: a diagonal step may pass one blocked corner, not two.";
    NoCut => "no-cut", "8-connected: a diagonal step needs both corners it passes free (the Moving AI rule).";
});

/// An estimate of the cost from a cell to the goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Heuristic {
    /// |dx| + |dy|: exact on an open 4-connected grid; overestimates when diagonals are allowed.
    Manhattan,
    /// The straight-line distance: never overestimates, but is weaker than octile.
    Euclidean,
    /// max(|dx|, |dy|): never overestimates, weak since diagonals cost √2.
    Chebyshev,
    /// max + (√2 − 1)·min: exact on an open 8-connected grid.
    Octile,
    /// 0 everywhere: A* becomes Dijkstra.
    Zero,
    /// The number of hex steps: exact on an open hex map, and the only estimate (with zero)
    /// that hex maps accept.
    Hex,
}

named_enum!(Heuristic {
    Manhattan => "manhattan", "|dx| + |dy|: exact on an open 4-connected grid, overestimates (so loses optimality) when diagonals are allowed.";
    Euclidean => "euclidean", "Straight-line distance: never overestimates, weaker than octile.";
    Chebyshev => "chebyshev", "max(|dx|, |dy|): never overestimates, weaker than octile since a diagonal costs √2.";
    Octile => "octile", "max + (√2 − 1)·min: exact on an open 8-connected grid.";
    Zero => "zero", "0 everywhere: A* explores like Dijkstra.";
    Hex => "hex", "Hex distance (the fewest steps between two hexes): exact on an open hex map; for hex maps only.";
});

impl Heuristic {
    /// The default for a diagonal rule: octile when diagonals are allowed, manhattan when not.
    pub fn default_for(diagonal: Diagonal) -> Self {
        if diagonal == Diagonal::Never {
            Heuristic::Manhattan
        } else {
            Heuristic::Octile
        }
    }

    /// The default on a map of this topology: [`Heuristic::default_for`] the diagonal rule on
    /// squares, [`Heuristic::Hex`] on hexes.
    pub fn default_on(topology: Topology, diagonal: Diagonal) -> Self {
        if topology.distance_counts_steps() {
            Heuristic::Hex
        } else {
            Self::default_for(diagonal)
        }
    }

    /// Whether it means anything on a map of this topology: hex distance and zero on hexes,
    /// every other one on squares.
    pub fn fits(self, topology: Topology) -> bool {
        match self {
            Heuristic::Zero => true,
            Heuristic::Hex => topology.distance_counts_steps(),
            _ => !topology.distance_counts_steps(),
        }
    }

    /// Whether it never overestimates the true cost under this diagonal rule (once scaled by
    /// the cheapest terrain cost, as every search does). [`Heuristic::Hex`] counts as
    /// admissible since only hex maps accept it, where it is.
    pub fn is_admissible(self, diagonal: Diagonal) -> bool {
        !(self == Heuristic::Manhattan && diagonal != Diagonal::Never)
    }
}

/// What to search for.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchRequest {
    /// Where the path starts.
    pub start: Cell,
    /// Where the path ends.
    pub goal: Cell,
    /// Which algorithm runs.
    pub algorithm: Algorithm,
    /// Which diagonal steps are allowed.
    pub diagonal: Diagonal,
    /// The heuristic; `None` picks [`Heuristic::default_for`] the diagonal rule.
    pub heuristic: Option<Heuristic>,
    /// The weight on the heuristic for A* (weighted A* above 1); at least 1.
    pub weight: f64,
    /// Whether the result carries the expansion order and the final open set.
    pub record: bool,
    /// When the goal cannot be reached (walled off, or impassable itself), plan to the
    /// reachable cell nearest it instead; the result's [`SearchResult::reached`] says which.
    pub partial: bool,
    /// The cost of every 45° the path turns (0: none). A* and Dijkstra then search exactly
    /// over (cell, heading); the other algorithms refuse a penalty.
    pub turn_penalty: f64,
}

impl SearchRequest {
    /// The largest weight on the heuristic.
    pub const MAX_WEIGHT: f64 = 1.0e6;

    /// The largest turn penalty: like a terrain cost (at most 1e6), so that a path's cost on
    /// the largest map stays finite whatever it turns.
    pub const MAX_TURN_PENALTY: f64 = 1.0e6;

    /// A* from `start` to `goal` with the defaults: no corner cutting, octile heuristic, weight 1.
    pub fn new(start: Cell, goal: Cell) -> Self {
        Self {
            start,
            goal,
            algorithm: Algorithm::AStar,
            diagonal: Diagonal::NoCut,
            heuristic: None,
            weight: 1.0,
            record: false,
            partial: false,
            turn_penalty: 0.0,
        }
    }

    /// The same request with a cost for every 45° the path turns.
    pub fn with_turn_penalty(mut self, penalty: f64) -> Self {
        self.turn_penalty = penalty;
        self
    }

    /// The same request, planning to the reachable cell nearest the goal when the goal itself
    /// cannot be reached.
    pub fn with_partial(mut self, partial: bool) -> Self {
        self.partial = partial;
        self
    }

    /// The same request with another algorithm.
    pub fn with_algorithm(mut self, algorithm: Algorithm) -> Self {
        self.algorithm = algorithm;
        self
    }

    /// The same request with another diagonal rule.
    pub fn with_diagonal(mut self, diagonal: Diagonal) -> Self {
        self.diagonal = diagonal;
        self
    }

    /// The same request with a chosen heuristic.
    pub fn with_heuristic(mut self, heuristic: Heuristic) -> Self {
        self.heuristic = Some(heuristic);
        self
    }

    /// The same request with a weight on the heuristic.
    pub fn with_weight(mut self, weight: f64) -> Self {
        self.weight = weight;
        self
    }

    /// The same request, recording the expansion order and open set.
    pub fn recording(mut self, record: bool) -> Self {
        self.record = record;
        self
    }
}

/// What is guaranteed of a found path's cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Optimality {
    /// The cheapest path.
    Exact,
    /// At most this factor times the cheapest cost (weighted A*).
    WithinFactor(f64),
    /// The fewest steps; cost is not considered (breadth-first).
    FewestSteps,
    /// Any path (greedy, or an overestimating heuristic).
    NoGuarantee,
    /// Near-optimal in practice, with no bound (hierarchical search).
    Approximate,
    /// An any-angle path (straight segments between cell centres in line of sight): never
    /// dearer than the cheapest grid path, usually a few percent cheaper, but with no bound
    /// against the cheapest path of all; not even the cheapest any-angle path is guaranteed
    /// (Theta*).
    AnyAngle,
}

impl fmt::Display for Optimality {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Optimality::Exact => f.write_str("exact"),
            Optimality::WithinFactor(w) => write!(f, "≤ {w} × optimal"),
            Optimality::FewestSteps => f.write_str("fewest steps (costs ignored)"),
            Optimality::NoGuarantee => f.write_str("no guarantee"),
            Optimality::Approximate => f.write_str("near-optimal, no bound"),
            Optimality::AnyAngle => f.write_str("any-angle, ≤ best grid path"),
        }
    }
}

/// Counters of one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Cells taken off the open list and expanded.
    pub expanded: u64,
    /// Entries put on the open list (a cell improved twice counts twice).
    pub pushed: u64,
    /// The largest size of the open list.
    pub max_open: u64,
    /// Wall time of the search in microseconds.
    pub time_us: u64,
    /// The memory of the structure built before the query and kept for the next ones (the
    /// contraction hierarchy), in bytes; 0 for searches that keep none.
    pub prepared_bytes: u64,
    /// Whether the search stopped because its node budget ran out (IDA*), so "not found"
    /// means "not found within the budget", not "no path".
    pub budget_exhausted: bool,
    /// Whether the search was cancelled through its [`SearchControl`](super::SearchControl)
    /// before it finished.
    pub cancelled: bool,
}

/// What a search looked at, for drawing and for following a search by hand: recorded only on
/// request.
///
/// `g`, `h` and `parents` run parallel to `expanded`. `g` is the cost from the search's origin
/// when the cell was expanded (the step count for breadth-first; for bidirectional A*, from
/// whichever end expanded the cell; not a number for IDA*, which keeps no costs). `h` is the
/// estimate towards the goal the search ranked the cell by (already weighted; 0 for Dijkstra
/// and breadth-first). A cell's parent is the cell it was reached from (the previous jump
/// point for jump point search), or the cell itself where its search began.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    /// Expanded cells in the order they were expanded.
    pub expanded: Vec<Cell>,
    /// The cost so far of each expanded cell.
    pub g: Vec<f32>,
    /// The estimate of each expanded cell.
    pub h: Vec<f32>,
    /// The cell each expanded cell was reached from.
    pub parents: Vec<Cell>,
    /// The cells left on the open list when the search stopped.
    pub open: Vec<Cell>,
}

/// What came back from a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// Whether a path was found.
    pub found: bool,
    /// The path from start to goal, both included, one grid step from each cell to the next;
    /// empty when none was found. For an any-angle path, the cells its segments cross, in
    /// order (with a cell added where a segment crosses a corner and the diagonal step is not
    /// allowed), so that it stays a chain of allowed steps.
    pub path: Vec<Cell>,
    /// The any-angle algorithms' path ([`Algorithm::Theta`], [`Algorithm::LazyTheta`]): the
    /// start, the cells where the path turns, and the goal, whose centres the path joins by
    /// straight segments. Each segment is in line of sight (every cell it touches passable,
    /// as [`Segment::is_clear`](crate::smooth::Segment::is_clear) decides) or is one allowed
    /// grid step. `None` for the other algorithms, and when no path was found.
    pub waypoints: Option<Vec<Cell>>,
    /// The path's cost under the cost model; 0 when none was found. For an any-angle path, the
    /// cost of the segments through the [waypoints](SearchResult::waypoints), each the terrain
    /// cost integrated along it ([`Segment::cost`](crate::smooth::Segment::cost)).
    pub cost: f64,
    /// The path's geometric length (1 per orthogonal step, √2 per diagonal one; for an
    /// any-angle path, the length of its segments).
    pub length: f64,
    /// Counters and time.
    pub stats: Stats,
    /// What is guaranteed of the cost.
    pub optimality: Optimality,
    /// The expansion order and open set, when the request asked for them.
    pub trace: Option<Trace>,
    /// The request's start.
    pub start: Cell,
    /// The request's goal.
    pub goal: Cell,
    /// When the request asked for a partial path and the goal could not be reached: the
    /// reachable cell nearest the goal, where the path ends (`found` stays false).
    pub reached: Option<Cell>,
}

impl SearchResult {
    /// Smooths the path: an any-angle path ([`SearchResult::waypoints`]) is curved through its
    /// own waypoints ([`smooth::smooth_waypoints`]), any other first shortcut by line of sight
    /// ([`smooth::smooth_path`]).
    ///
    /// ```
    /// use gridpath_core::grid::{Cell, Grid};
    /// use gridpath_core::search::{self, Algorithm, SearchRequest};
    /// use gridpath_core::smooth::SmoothSettings;
    ///
    /// let grid = Grid::from_ascii(&[".....", ".###.", "....."]).expect("valid map");
    /// let request =
    ///     SearchRequest::new(Cell::new(0, 0), Cell::new(4, 2)).with_algorithm(Algorithm::Theta);
    /// let result = search::solve(&grid, &request).expect("valid request");
    /// let smoothed = result
    ///     .smoothed(&grid, &SmoothSettings::default())
    ///     .expect("a path of the map");
    /// // The curve runs through the any-angle path's own waypoints.
    /// assert_eq!(smoothed.waypoints.len(), result.waypoints.as_ref().map_or(0, Vec::len));
    /// assert!((smoothed.cost - result.cost).abs() < 1e-9);
    /// ```
    pub fn smoothed(
        &self,
        grid: &Grid,
        settings: &SmoothSettings,
    ) -> Result<SmoothedPath, SmoothError> {
        self.smoothed_through(grid, &[], settings)
    }

    /// [`SearchResult::smoothed`] of a route that must pass through `stops` (the points of a
    /// [`super::Route`] in the order visited): a grid path keeps each stop as a waypoint
    /// ([`smooth::smooth_path_through`]); an any-angle route's waypoints hold them already.
    pub fn smoothed_through(
        &self,
        grid: &Grid,
        stops: &[Cell],
        settings: &SmoothSettings,
    ) -> Result<SmoothedPath, SmoothError> {
        self.smoothed_controlled(grid, stops, settings, &SearchControl::new())
    }

    /// [`SearchResult::smoothed_through`] watching `control`, as the search did: it stops
    /// soon after [`SearchControl::cancel`] with [`SmoothError::Cancelled`]
    /// ([`smooth::smooth_path_controlled`]).
    pub fn smoothed_controlled(
        &self,
        grid: &Grid,
        stops: &[Cell],
        settings: &SmoothSettings,
        control: &SearchControl,
    ) -> Result<SmoothedPath, SmoothError> {
        match &self.waypoints {
            Some(waypoints) => {
                smooth::smooth_waypoints_controlled(grid, waypoints, settings, control)
            }
            None => smooth::smooth_path_controlled(grid, &self.path, stops, settings, control),
        }
    }

    /// The vertices of the path as it is walked: the [waypoints](SearchResult::waypoints) of
    /// an any-angle path, or every cell of a grid path.
    pub fn vertices(&self) -> &[Cell] {
        self.waypoints.as_deref().unwrap_or(&self.path)
    }

    /// Whether there is a path to show: to the goal, or to the nearest reachable cell.
    pub fn has_path(&self) -> bool {
        self.found || self.reached.is_some()
    }

    /// A one-line summary: the cost and steps, or why nothing was found.
    pub fn message(&self) -> String {
        if let Some(reached) = self.reached {
            format!(
                "The goal {} cannot be reached: path to the nearest reachable cell {reached}, cost {:.6}, length {:.6}",
                self.goal, self.cost, self.length
            )
        } else if self.found {
            format!(
                "Path found: cost {:.6}, length {:.6}, {} steps",
                self.cost,
                self.length,
                self.path.len().saturating_sub(1)
            )
        } else if self.stats.budget_exhausted {
            format!(
                "Search stopped: node budget exhausted after {} expansions, before a path between {} and {} was found",
                self.stats.expanded, self.start, self.goal
            )
        } else {
            format!("Path not found between {} and {}", self.start, self.goal)
        }
    }
}

/// Why a search could not run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SearchError {
    /// An endpoint lies off the map.
    #[error("the {which} {cell} is outside the {width} × {height} map")]
    OutOfBounds {
        /// "start" or "goal".
        which: &'static str,
        /// The endpoint.
        cell: Cell,
        /// The map's width.
        width: u32,
        /// The map's height.
        height: u32,
    },
    /// An endpoint is on an impassable cell.
    #[error("the {which} {cell} is on an impassable cell")]
    Blocked {
        /// "start" or "goal".
        which: &'static str,
        /// The endpoint.
        cell: Cell,
    },
    /// The graph was prepared for another diagonal rule than the request asks for.
    #[error(
        "the map was prepared for diagonal rule {prepared}, but the request asks for {requested}"
    )]
    DiagonalMismatch {
        /// The graph's rule.
        prepared: Diagonal,
        /// The request's rule.
        requested: Diagonal,
    },
    /// The algorithm needs every passable cell to cost the same, and this map's do not.
    #[error(
        "{algorithm} needs a map where every passable cell costs the same, but this map's passable terrains differ in cost"
    )]
    NonUniformCost {
        /// The algorithm asked for.
        algorithm: Algorithm,
    },
    /// The algorithm does not support the requested diagonal rule.
    #[error(
        "{algorithm} supports only the diagonal rule {supported}, but the request asks for {requested}"
    )]
    UnsupportedDiagonal {
        /// The algorithm asked for.
        algorithm: Algorithm,
        /// The one rule it supports.
        supported: Diagonal,
        /// The request's rule.
        requested: Diagonal,
    },
    /// The weight is below 1 or not a number.
    #[error("the weight must be a number from 1 to {max}, got {0}", max = SearchRequest::MAX_WEIGHT)]
    BadWeight(f64),
    /// The turn penalty is negative or not a number.
    #[error("the turn penalty must be a number from 0 to {max}, got {0}", max = SearchRequest::MAX_TURN_PENALTY)]
    BadTurnPenalty(f64),
    /// More waypoints than the cheapest order can be searched for.
    #[error("the cheapest order is found for at most {max} points, got {given}")]
    TooManyWaypoints {
        /// The points to order.
        given: usize,
        /// The most there may be.
        max: usize,
    },
    /// The algorithm cannot search with a turn penalty.
    #[error("{algorithm} cannot search with a turn penalty: choose A* or Dijkstra")]
    TurnPenaltyUnsupported {
        /// The algorithm asked for.
        algorithm: Algorithm,
    },
    /// The algorithm is defined for square cells and cannot search a hex map.
    #[error(
        "{algorithm} is defined for square cells and cannot search a hex map: choose A*, Dijkstra, greedy, BFS, bidirectional A*, IDA*, D* Lite or the contraction hierarchy"
    )]
    HexUnsupported {
        /// The algorithm asked for.
        algorithm: Algorithm,
    },
    /// The heuristic does not measure distances on this map's cells.
    #[error("the {heuristic} heuristic does not fit a {topology} map: choose {expected} or zero")]
    HeuristicMismatch {
        /// The heuristic asked for.
        heuristic: Heuristic,
        /// The map's topology.
        topology: Topology,
        /// What fits it instead.
        expected: &'static str,
    },
    /// The algorithm cannot search a map with heights.
    #[error(
        "{algorithm} cannot search a map with heights (its steps cost more uphill than down): choose A*, Dijkstra, greedy, BFS, bidirectional A*, IDA* or D* Lite"
    )]
    HeightsUnsupported {
        /// The algorithm asked for.
        algorithm: Algorithm,
    },
    /// The map has more cells than the algorithm's preparation is allowed to cover.
    #[error(
        "{algorithm} prepares maps of at most {max} cells (its tables take hundreds of bytes per cell), and this one has {cells}: choose A*, or JPS+ or the subgoal graph on a map whose cells all cost the same"
    )]
    MapTooLarge {
        /// The algorithm asked for.
        algorithm: Algorithm,
        /// The map's cells.
        cells: usize,
        /// The most it prepares.
        max: usize,
    },
    /// The map's contraction hierarchy would have more edges than a build may hold.
    #[error(
        "this map's contraction hierarchy would have more than {max} edges ({edges} counted when the build stopped, about 19 bytes each at the build's peak): choose A*, HPA*, or JPS+ or the subgoal graph on a map whose cells all cost the same"
    )]
    HierarchyTooLarge {
        /// The edges counted when the build stopped.
        edges: usize,
        /// The most a hierarchy is built with.
        max: usize,
    },
    /// The map's contraction hierarchy would have more ranks on a way up its elimination tree
    /// than its queries index (no map of the hierarchy's size limit comes near).
    #[error(
        "this map's contraction hierarchy would have more than {max} ranks on a way up its elimination tree: choose A*, HPA*, or JPS+ or the subgoal graph on a map whose cells all cost the same"
    )]
    HierarchyTooDeep {
        /// The most ranks on a way up that a hierarchy is built with.
        max: usize,
    },
    /// The search was cancelled before it finished.
    #[error("the search was cancelled")]
    Cancelled,
}
