//! Instances from files: a map (any map gridpath reads: the benchmark's `.map`, gridpath's
//! JSON, …) and a Moving AI scenario, whose first k lines are the k agents' starts and goals
//! (the MAPF benchmark's convention).

use std::path::{Path, PathBuf};

use super::model::{Agent, Instance, InstanceError, Moves};
use crate::format::movingai::{self, ScenQuery};
use crate::format::read::{self, FileLimit};
use crate::format::{FormatError, LoadError, load_map};
use crate::grid::{Cell, Grid};

/// Why an instance could not be read, naming the file and the line.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ScenarioError {
    /// The map could not be read.
    #[error(transparent)]
    Map(#[from] LoadError),
    /// The scenario could not be read or parsed.
    #[error("{}: {error}", path.display())]
    Scenario {
        /// The scenario file.
        path: PathBuf,
        /// What is wrong.
        error: FormatError,
    },
    /// More agents were asked for than the scenario has.
    #[error("{}: {asked} agents asked for, but the scenario has {available}", path.display())]
    TooFewAgents {
        /// The scenario file.
        path: PathBuf,
        /// How many were asked for.
        asked: usize,
        /// How many lines it has.
        available: usize,
    },
    /// A scenario line is for a map of another size.
    #[error("{}: line {line}: the agent is for a {width} × {height} map, but the map is {map_width} × {map_height}", path.display())]
    MapSize {
        /// The scenario file.
        path: PathBuf,
        /// The line.
        line: usize,
        /// The width the line expects.
        width: u32,
        /// The height the line expects.
        height: u32,
        /// The map's width.
        map_width: u32,
        /// The map's height.
        map_height: u32,
    },
    /// An agent's start or goal is off the map, on a wall, or shared with another agent.
    #[error("{}: line {line}: {error}", path.display())]
    Agent {
        /// The scenario file.
        path: PathBuf,
        /// The line of the agent at fault.
        line: usize,
        /// What is wrong.
        error: InstanceError,
    },
}

/// The instance of the first `agents` lines of a scenario on a map.
pub fn instance_from_queries(
    grid: Grid,
    queries: &[ScenQuery],
    agents: usize,
    moves: Moves,
    path: &Path,
) -> Result<Instance, ScenarioError> {
    if agents > queries.len() {
        return Err(ScenarioError::TooFewAgents {
            path: path.to_owned(),
            asked: agents,
            available: queries.len(),
        });
    }
    let queries = &queries[..agents];
    for q in queries {
        if (q.map_width, q.map_height) != (grid.width(), grid.height()) {
            return Err(ScenarioError::MapSize {
                path: path.to_owned(),
                line: q.line,
                width: q.map_width,
                height: q.map_height,
                map_width: grid.width(),
                map_height: grid.height(),
            });
        }
    }
    let list = queries
        .iter()
        .map(|q| Agent {
            start: q.start,
            goal: q.goal,
        })
        .collect();
    Instance::new(grid, list, moves).map_err(|error| {
        let agent = match error {
            InstanceError::OutOfBounds { agent, .. } | InstanceError::Blocked { agent, .. } => {
                agent
            }
            InstanceError::Shared { second, .. } => second,
            InstanceError::Hex(_) => 0,
        };
        ScenarioError::Agent {
            path: path.to_owned(),
            line: queries.get(agent).map_or(0, |q| q.line),
            error,
        }
    })
}

/// Reads a map and the first `agents` agents of a scenario file into an instance.
pub fn read_instance(
    map: &Path,
    scen: &Path,
    agents: usize,
    moves: Moves,
) -> Result<Instance, ScenarioError> {
    let grid = load_map(map)?.grid;
    let wrap = |error: FormatError| ScenarioError::Scenario {
        path: scen.to_owned(),
        error,
    };
    let text = read::read_text(scen, FileLimit::SCENARIO).map_err(|e| wrap(e.into()))?;
    let queries = movingai::parse_scen(&text).map_err(wrap)?;
    instance_from_queries(grid, &queries, agents, moves, scen)
}

/// Why a random instance could not be drawn.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RandomInstanceError {
    /// The largest connected region has fewer cells than agents.
    #[error(
        "{agents} agents asked for, but the largest connected region of the map has {cells} cells"
    )]
    TooFewCells {
        /// How many agents were asked for.
        agents: usize,
        /// The cells of the largest region.
        cells: usize,
    },
    /// The map does not take agents (its cells are hexes).
    #[error(transparent)]
    Instance(#[from] InstanceError),
}

/// `agents` agents with distinct random starts and distinct random goals, all in the map's
/// largest region of cells joined by orthogonal moves (where every agent can reach every goal
/// under both rules of moving), drawn from `seed` so that a run repeats: the instances of the
/// MAPF benchmark's random scenarios, for any map.
///
/// ```
/// use gridpath_core::grid::Grid;
/// use gridpath_core::mapf::{Moves, random_instance};
///
/// let grid = Grid::from_ascii(&["....#..", "....#.."]).expect("a valid map");
/// let instance = random_instance(grid.clone(), 5, Moves::Four, 7).expect("room for five");
/// assert!(instance.agents().iter().all(|a| a.start.x < 4 && a.goal.x < 4));
/// assert!(random_instance(grid, 9, Moves::Four, 7).is_err());
/// ```
pub fn random_instance(
    grid: Grid,
    agents: usize,
    moves: Moves,
    seed: u64,
) -> Result<Instance, RandomInstanceError> {
    let region = largest_region(&grid);
    if region.len() < agents {
        return Err(RandomInstanceError::TooFewCells {
            agents,
            cells: region.len(),
        });
    }
    let mut rng = crate::rng::Rng::new(seed);
    let mut starts = region.clone();
    let mut goals = region;
    rng.shuffle(&mut starts);
    rng.shuffle(&mut goals);
    let list = starts
        .into_iter()
        .zip(goals)
        .take(agents)
        .map(|(start, goal)| Agent { start, goal })
        .collect();
    // Distinct passable starts and goals on the map: `new` refuses only a hex map.
    Ok(Instance::new(grid, list, moves)?)
}

/// The cells of the largest region joined by orthogonal moves, in reading order.
fn largest_region(grid: &Grid) -> Vec<Cell> {
    let (w, h) = (grid.width() as usize, grid.height() as usize);
    let mut label = vec![u32::MAX; w * h];
    let (mut best, mut best_size) = (u32::MAX, 0usize);
    let mut stack = Vec::new();
    let mut next = 0u32;
    for i in 0..w * h {
        if label[i] != u32::MAX || !grid.is_passable(grid.cell_at(i)) {
            continue;
        }
        let (id, mut size) = (next, 0usize);
        next += 1;
        label[i] = id;
        stack.push(i);
        while let Some(j) = stack.pop() {
            size += 1;
            let (x, y) = (j % w, j / w);
            let around = [
                (x > 0).then(|| j - 1),
                (x + 1 < w).then(|| j + 1),
                (y > 0).then(|| j - w),
                (y + 1 < h).then(|| j + w),
            ];
            for k in around.into_iter().flatten() {
                if label[k] == u32::MAX && grid.is_passable(grid.cell_at(k)) {
                    label[k] = id;
                    stack.push(k);
                }
            }
        }
        if size > best_size {
            (best, best_size) = (id, size);
        }
    }
    (0..w * h)
        .filter(|&i| label[i] == best)
        .map(|i| grid.cell_at(i))
        .collect()
}
