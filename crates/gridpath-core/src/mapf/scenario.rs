//! Instances from files: a map (any map gridpath reads: the benchmark's `.map`, gridpath's
//! JSON, …) and a Moving AI scenario, whose first k lines are the k agents' starts and goals
//! (the MAPF benchmark's convention).

use std::path::{Path, PathBuf};

use super::model::{Agent, Instance, InstanceError, Moves};
use crate::format::movingai::{self, ScenQuery};
use crate::format::read::{self, FileLimit};
use crate::format::{FormatError, LoadError, load_map};
use crate::grid::Grid;

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
        };
        ScenarioError::Agent {
            path: path.to_owned(),
            line: queries[agent].line,
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
