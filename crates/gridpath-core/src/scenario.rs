//! Running a Moving AI scenario: every query of a `.scen` file on its map, each cost checked
//! against the optimum the file gives, with the figures of the run. The command line's
//! `gridpath scen` and the Python package's `run_scenario` both run scenarios through here, so
//! they check alike.
//!
//! ```
//! use std::path::Path;
//! use gridpath_core::format::movingai::parse_scen;
//! use gridpath_core::grid::Grid;
//! use gridpath_core::scenario::{ScenarioOptions, run};
//! use gridpath_core::search::SearchControl;
//!
//! let grid = Grid::from_ascii(&["....", "....", "...."]).expect("a valid map");
//! let text = "version 1\n0\tm.map\t4\t3\t0\t0\t3\t2\t3.82842712\n";
//! let queries = parse_scen(text).expect("a valid scenario");
//! let files = (Path::new("m.map"), Path::new("m.map.scen"));
//! let outcome = run(&grid, files, &queries, &ScenarioOptions::default(), &SearchControl::new())
//!     .expect("runs");
//! assert_eq!((outcome.queries, outcome.mismatches), (1, 0));
//! assert!((outcome.costs[0] - (1.0 + 2.0 * 2f64.sqrt())).abs() < 1e-9);
//! ```

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::format::movingai::{self, ScenQuery};
use crate::format::read::{self, FileLimit};
use crate::format::{FormatError, LoadError};
use crate::grid::{Cell, Grid};
use crate::search::unless_cancelled;
use crate::search::{
    Algorithm, ContractionHierarchy, DEFAULT_CLUSTER_SIZE, Diagonal, Guarantee, Heuristic,
    HpaGraph, SearchControl, SearchError, SearchGraph, SearchRequest, solve_batch_controlled,
};

/// How to run a scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioOptions {
    /// The search algorithm.
    pub algorithm: Algorithm,
    /// The heuristic; `None` for the default (octile).
    pub heuristic: Option<Heuristic>,
    /// The weight on A*'s heuristic.
    pub weight: f64,
    /// The threads to answer on (HPA* and the contraction hierarchy answer on one).
    pub jobs: usize,
}

impl Default for ScenarioOptions {
    fn default() -> Self {
        Self {
            algorithm: Algorithm::AStar,
            heuristic: None,
            weight: 1.0,
            jobs: 1,
        }
    }
}

/// Why a scenario could not be run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ScenarioError {
    /// The scenario file could not be read or parsed.
    #[error("{0}")]
    Load(#[from] LoadError),
    /// The scenario file holds no query.
    #[error("{}: the scenario file has no queries: nothing to check", scen.display())]
    Empty {
        /// The scenario file.
        scen: PathBuf,
    },
    /// A query is for a map of another size.
    #[error(
        "{}: line {line}: the query is for a {} × {} map, but {} is {} × {}",
        scen.display(), expected.0, expected.1, map.display(), found.0, found.1
    )]
    WrongMap {
        /// The scenario file.
        scen: PathBuf,
        /// The query's line.
        line: usize,
        /// The size the query expects.
        expected: (u32, u32),
        /// The map file.
        map: PathBuf,
        /// The map's size.
        found: (u32, u32),
    },
    /// The algorithm refuses the map (a contraction hierarchy of a map too large), or its
    /// preparation was cancelled.
    #[error("{}: {error}", map.display())]
    Refused {
        /// The map file.
        map: PathBuf,
        /// Why.
        error: SearchError,
    },
    /// A query could not be searched (or the algorithm refuses the map).
    #[error("{}: line {line}: {error}", scen.display())]
    Search {
        /// The scenario file.
        scen: PathBuf,
        /// The query's line.
        line: usize,
        /// Why.
        error: SearchError,
    },
}

/// A query whose cost is not the optimum the file gives.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// The query's 1-based line in the file.
    pub line: usize,
    /// Its start.
    pub start: Cell,
    /// Its goal.
    pub goal: Cell,
    /// The cost found (infinite when no path was found).
    pub cost: f64,
    /// The optimum the file gives.
    pub optimal: f64,
    /// How far the cost may stray from it.
    pub tolerance: f64,
}

/// The figures of a scenario run.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioOutcome {
    /// The queries run.
    pub queries: usize,
    /// How many costs do not match the file's optima (an any-angle search's may be cheaper).
    pub mismatches: usize,
    /// How many queries the file gives no optimum for (it prints 0 between two different
    /// cells, as the MAPF benchmark's warehouse scenarios do): answered, not checked.
    pub unchecked: usize,
    /// Every mismatch, in the file's order.
    pub mismatched: Vec<Mismatch>,
    /// Each query's cost, in order; infinite where no path was found.
    pub costs: Vec<f64>,
    /// The searches' own time added up, in milliseconds.
    pub total_ms: f64,
    /// The cells expanded by all the searches.
    pub expanded: u64,
    /// The mean of cost / optimal over the queries with a path and a positive optimum.
    pub mean_ratio: f64,
    /// The largest cost / optimal.
    pub max_ratio: f64,
    /// The threads asked for (HPA* and the contraction hierarchy answer on one).
    pub jobs: usize,
    /// The wall time of answering all queries, in milliseconds.
    pub wall_ms: f64,
    /// Queries answered per second of wall time.
    pub queries_per_second: f64,
    /// The time of building HPA*'s abstraction, the contraction hierarchy or the tables of
    /// JPS, JPS+ and the subgoal graph, in milliseconds; `None` for the algorithms without.
    pub preprocess_ms: Option<f64>,
    /// The memory of the contraction hierarchy once the queries are answered, in bytes;
    /// `None` for the other algorithms.
    pub prepared_bytes: Option<usize>,
}

/// Reads a scenario file's queries.
pub fn read_queries(scen: &Path) -> Result<Vec<ScenQuery>, LoadError> {
    let wrap = |error: FormatError| LoadError {
        path: scen.to_path_buf(),
        error,
    };
    let text = read::read_text(scen, FileLimit::SCENARIO).map_err(|e| wrap(e.into()))?;
    movingai::parse_scen(&text).map_err(wrap)
}

/// Runs `queries` (read from the file `files.1`) on `grid` (read from `files.0`), 8-connected
/// without corner cutting as the benchmark's optima are, and checks every cost against its
/// optimum. Cancelled through `control`, it fails with [`SearchError::Cancelled`].
pub fn run(
    grid: &Grid,
    files: (&Path, &Path),
    queries: &[ScenQuery],
    options: &ScenarioOptions,
    control: &SearchControl,
) -> Result<ScenarioOutcome, ScenarioError> {
    let (map_path, scen) = files;
    if queries.is_empty() {
        return Err(ScenarioError::Empty {
            scen: scen.to_path_buf(),
        });
    }
    for q in queries {
        if (q.map_width, q.map_height) != (grid.width(), grid.height()) {
            return Err(ScenarioError::WrongMap {
                scen: scen.to_path_buf(),
                line: q.line,
                expected: (q.map_width, q.map_height),
                map: map_path.to_path_buf(),
                found: (grid.width(), grid.height()),
            });
        }
    }
    let search_error = |line: usize, error: SearchError| ScenarioError::Search {
        scen: scen.to_path_buf(),
        line,
        error,
    };
    let graph = SearchGraph::new(grid, Diagonal::NoCut);
    let requests: Vec<SearchRequest> = queries
        .iter()
        .map(|q| SearchRequest {
            algorithm: options.algorithm,
            heuristic: options.heuristic,
            weight: options.weight,
            ..SearchRequest::new(q.start, q.goal)
        })
        .collect();
    // HPA*, the contraction hierarchy, JPS+ and the subgoal graph build their structure once
    // for all the queries; that time is reported apart.
    let algorithm = options.algorithm;
    let refused = |error: SearchError| ScenarioError::Refused {
        map: map_path.to_path_buf(),
        error,
    };
    if algorithm == Algorithm::ContractionHierarchy {
        ContractionHierarchy::check_size(&graph).map_err(refused)?;
    }
    let preprocess = Instant::now();
    let mut hpa = match algorithm {
        Algorithm::Hpa => Some(
            HpaGraph::from_graph_controlled(graph.clone(), DEFAULT_CLUSTER_SIZE, control)
                .map_err(refused)?,
        ),
        _ => None,
    };
    let mut ch = match algorithm {
        Algorithm::ContractionHierarchy => Some(
            ContractionHierarchy::from_graph_controlled(graph.clone(), control).map_err(refused)?,
        ),
        _ => None,
    };
    let tables = algorithm.info().prepare(&graph);
    let prepared = hpa.is_some() || ch.is_some() || tables;
    let preprocess_ms = preprocess.elapsed().as_secs_f64() * 1000.0;
    let wall = Instant::now();
    let answers = match (hpa.as_mut(), ch.as_mut()) {
        (Some(hpa), _) => requests
            .iter()
            .map(|r| unless_cancelled(control, || hpa.find_path(r)))
            .collect(),
        (_, Some(ch)) => requests
            .iter()
            .map(|r| unless_cancelled(control, || ch.find_path(r)))
            .collect(),
        _ => solve_batch_controlled(&graph, &requests, options.jobs, control),
    };
    let wall_ms = wall.elapsed().as_secs_f64() * 1000.0;
    let any_angle = algorithm.info().guarantee == Guarantee::AnyAngle;
    let (mut expanded, mut search_us) = (0u64, 0u64);
    let (mut ratio_sum, mut ratio_count, mut max_ratio) = (0.0f64, 0usize, 1.0f64);
    let mut mismatched = Vec::new();
    let mut unchecked = 0;
    let mut costs = Vec::with_capacity(queries.len());
    for (q, answer) in queries.iter().zip(answers) {
        let result = answer.map_err(|e| search_error(q.line, e))?;
        search_us += result.stats.time_us;
        expanded += result.stats.expanded;
        let cost = if result.found {
            result.cost
        } else {
            f64::INFINITY
        };
        costs.push(cost);
        if q.optimal > 0.0 && cost.is_finite() {
            let ratio = cost / q.optimal;
            ratio_sum += ratio;
            ratio_count += 1;
            max_ratio = max_ratio.max(ratio);
        }
        // An optimum of 0 between two different cells is no optimum: the file has none.
        if q.optimal == 0.0 && q.start != q.goal {
            unchecked += 1;
            continue;
        }
        // An any-angle path promises no more than the best grid path: cheaper is right.
        let right = if any_angle {
            cost <= q.optimal + q.tolerance()
        } else {
            q.matches(cost)
        };
        if !right {
            mismatched.push(Mismatch {
                line: q.line,
                start: q.start,
                goal: q.goal,
                cost,
                optimal: q.optimal,
                tolerance: q.tolerance(),
            });
        }
    }
    Ok(ScenarioOutcome {
        queries: queries.len(),
        mismatches: mismatched.len(),
        unchecked,
        mismatched,
        costs,
        total_ms: search_us as f64 / 1000.0,
        expanded,
        mean_ratio: if ratio_count > 0 {
            ratio_sum / ratio_count as f64
        } else {
            1.0
        },
        max_ratio,
        jobs: options.jobs,
        wall_ms,
        queries_per_second: queries.len() as f64 / (wall_ms / 1000.0).max(1e-9),
        preprocess_ms: prepared.then_some(preprocess_ms),
        prepared_bytes: ch.as_ref().map(ContractionHierarchy::hierarchy_bytes),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queries(text: &str) -> Vec<ScenQuery> {
        movingai::parse_scen(text).unwrap()
    }

    #[test]
    fn scenarios_that_do_not_fit_are_refused_naming_the_line() {
        let grid = Grid::from_ascii(&["....", "....", "...."]).unwrap();
        let files = (Path::new("m.map"), Path::new("m.scen"));
        let run = |q: &[ScenQuery]| {
            run(
                &grid,
                files,
                q,
                &ScenarioOptions::default(),
                &SearchControl::new(),
            )
        };
        assert!(matches!(run(&[]), Err(ScenarioError::Empty { .. })));
        let wrong =
            queries("version 1\n0\tm.map\t4\t3\t0\t0\t1\t0\t1\n0\tm.map\t5\t3\t0\t0\t1\t0\t1\n");
        let error = run(&wrong).unwrap_err();
        assert!(
            matches!(error, ScenarioError::WrongMap { line: 3, .. }),
            "{error}"
        );
        assert!(
            error
                .to_string()
                .starts_with("m.scen: line 3: the query is for a 5 × 3 map")
        );
        let blocked = Grid::from_ascii(&["#...", "....", "...."]).unwrap();
        let off = queries("version 1\n0\tm.map\t4\t3\t0\t0\t3\t2\t3.82842712\n");
        let error = super::run(
            &blocked,
            files,
            &off,
            &ScenarioOptions::default(),
            &SearchControl::new(),
        )
        .unwrap_err();
        assert!(
            matches!(error, ScenarioError::Search { line: 2, .. }),
            "{error}"
        );
    }

    #[test]
    fn a_query_the_file_gives_no_optimum_for_is_answered_not_checked() {
        let grid = Grid::from_ascii(&["....", "....", "...."]).unwrap();
        let files = (Path::new("m.map"), Path::new("m.scen"));
        // 0 between different cells: no optimum (the MAPF benchmark's warehouse files); 0
        // from a cell to itself is the true optimum, and a wrong one still a mismatch.
        let q = queries(
            "version 1\n0\tm.map\t4\t3\t0\t0\t3\t2\t0\n0\tm.map\t4\t3\t1\t1\t1\t1\t0\n0\tm.map\t4\t3\t0\t0\t3\t0\t4\n",
        );
        let outcome = run(
            &grid,
            files,
            &q,
            &ScenarioOptions::default(),
            &SearchControl::new(),
        )
        .unwrap();
        assert_eq!(
            (outcome.queries, outcome.unchecked, outcome.mismatches),
            (3, 1, 1)
        );
        assert_eq!(outcome.mismatched[0].line, 4);
        assert!(
            outcome.costs[0].is_finite(),
            "the unchecked query is answered"
        );
    }

    #[test]
    fn a_wrong_optimum_is_a_mismatch_with_its_figures() {
        let grid = Grid::from_ascii(&["....", "....", "...."]).unwrap();
        let files = (Path::new("m.map"), Path::new("m.scen"));
        // The second optimum is wrong: the straight path costs 3.
        let q = queries(
            "version 1\n0\tm.map\t4\t3\t0\t0\t3\t2\t3.82842712\n0\tm.map\t4\t3\t0\t0\t3\t0\t4\n",
        );
        for algorithm in [Algorithm::AStar, Algorithm::Hpa, Algorithm::Jps] {
            let options = ScenarioOptions {
                algorithm,
                jobs: 2,
                ..ScenarioOptions::default()
            };
            let outcome = run(&grid, files, &q, &options, &SearchControl::new()).unwrap();
            assert_eq!((outcome.queries, outcome.mismatches), (2, 1), "{algorithm}");
            let m = &outcome.mismatched[0];
            assert_eq!((m.line, m.cost, m.optimal), (3, 3.0, 4.0));
            assert!((outcome.max_ratio - 1.0).abs() < 1e-6);
            assert!((outcome.mean_ratio - (1.0 + 0.75) / 2.0).abs() < 1e-6);
            assert_eq!(
                outcome.preprocess_ms.is_some(),
                algorithm != Algorithm::AStar
            );
        }
    }
}
