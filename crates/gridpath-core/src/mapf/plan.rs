//! Timed plans: where each agent is at each tick.

use crate::grid::Cell;

/// Every agent's cells tick by tick, from tick 0 (its start). An agent whose list ends before
/// another's stays on its last cell; the solvers give every agent a list of the same length,
/// [`Plan::makespan`] + 1.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// One list of cells per agent, in the instance's order of agents.
    pub paths: Vec<Vec<Cell>>,
}

impl Plan {
    /// A plan from its configurations: the cells of all agents at tick 0, tick 1, and so on.
    pub fn from_configurations(configurations: &[Vec<Cell>]) -> Plan {
        let agents = configurations.first().map_or(0, Vec::len);
        let paths = (0..agents)
            .map(|i| configurations.iter().map(|c| c[i]).collect())
            .collect();
        Plan { paths }
    }

    /// The last tick of the plan (0 for a plan where nobody moves, or no agents).
    pub fn makespan(&self) -> usize {
        self.paths
            .iter()
            .map(|p| p.len().saturating_sub(1))
            .max()
            .unwrap_or(0)
    }

    /// Where agent `agent` is at tick `t`: its last cell after its list ends; `None` for an
    /// agent that is not in the plan or has an empty list.
    pub fn position(&self, agent: usize, t: usize) -> Option<Cell> {
        let path = self.paths.get(agent)?;
        path.get(t).or_else(|| path.last()).copied()
    }

    /// The cells of all agents at tick `t`.
    pub fn configuration(&self, t: usize) -> Vec<Cell> {
        (0..self.paths.len())
            .filter_map(|i| self.position(i, t))
            .collect()
    }

    /// Every agent's list padded with its last cell to the same length, and trailing ticks
    /// where nobody moves removed (keeping tick 0).
    pub fn normalised(&self) -> Plan {
        let mut end = self.makespan();
        while end > 0
            && (0..self.paths.len()).all(|i| self.position(i, end) == self.position(i, end - 1))
        {
            end -= 1;
        }
        Plan {
            paths: (0..self.paths.len())
                .map(|i| (0..=end).filter_map(|t| self.position(i, t)).collect())
                .collect(),
        }
    }
}
