//! The problem: a map, the agents on it with their starts and goals, and the rules of moving.
//!
//! Time advances in ticks. At each tick every agent either waits where it is or moves to a
//! neighbouring passable cell; [`Moves::Four`] (the benchmark's rule) allows the four
//! orthogonal neighbours, [`Moves::EightNoCut`] also the diagonal ones whose two orthogonal
//! corners are passable. Two agents may not be on one cell at one tick (a vertex conflict),
//! swap cells along one edge in one tick (an edge conflict), or, under the eight-neighbour
//! rule, cross each other's diagonal in one tick (a crossing). An agent that has reached its
//! goal stays there, and still occupies it.
//!
//! **Costs on weighted terrain.** A move still takes one tick whatever the terrain, but costs
//! what the single-agent searches charge for it: its length (1 orthogonal, √2 diagonal) times
//! the mean of the two cells' terrain costs. A wait costs the terrain cost of the cell waited
//! on (one tick spent on it, as an orthogonal step within the cell would be). An agent's cost
//! is the sum of its moves and waits up to its last arrival at its goal; waiting on the goal
//! after that is free. On a benchmark map every passable cell costs 1, so a move and a wait
//! cost 1 each and an agent's cost is its arrival time: the benchmark's sum of costs.

use std::fmt;

use crate::grid::{Cell, Grid};

/// Which moves an agent may make in one tick (besides waiting).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Moves {
    /// The four orthogonal neighbours: the Moving AI MAPF benchmark's rule.
    #[default]
    Four,
    /// The eight neighbours, a diagonal one only where both orthogonal cells beside the
    /// diagonal are passable (no corner cutting); crossing diagonals are conflicts.
    EightNoCut,
}

impl Moves {
    /// The rule's name on the command line and in files: `4` or `8`.
    pub fn name(self) -> &'static str {
        match self {
            Moves::Four => "4",
            Moves::EightNoCut => "8",
        }
    }
}

impl fmt::Display for Moves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Moves {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "4" | "four" => Ok(Moves::Four),
            "8" | "eight" => Ok(Moves::EightNoCut),
            _ => Err(format!(
                "expected 4 (orthogonal moves) or 8 (diagonal moves too, no corner cutting), got {s:?}"
            )),
        }
    }
}

/// One agent: where it starts and where it must end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Agent {
    /// The cell it is on at tick 0.
    pub start: Cell,
    /// The cell it must reach and stay on.
    pub goal: Cell,
}

/// Why a set of agents does not make an instance on a map.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InstanceError {
    /// A start or goal is outside the map.
    #[error("agent {agent}: its {which} {cell} is outside the {width} × {height} map")]
    OutOfBounds {
        /// The agent, counted from 0.
        agent: usize,
        /// `"start"` or `"goal"`.
        which: &'static str,
        /// The cell.
        cell: Cell,
        /// The map's width.
        width: u32,
        /// The map's height.
        height: u32,
    },
    /// A start or goal is on a cell no agent may enter.
    #[error("agent {agent}: its {which} {cell} is on an impassable cell")]
    Blocked {
        /// The agent, counted from 0.
        agent: usize,
        /// `"start"` or `"goal"`.
        which: &'static str,
        /// The cell.
        cell: Cell,
    },
    /// Two agents share a start or a goal.
    #[error("agents {first} and {second} have the same {which}, {cell}")]
    Shared {
        /// The first agent with it.
        first: usize,
        /// The second agent with it.
        second: usize,
        /// `"start"` or `"goal"`.
        which: &'static str,
        /// The cell.
        cell: Cell,
    },
    /// The map's cells are hexes: the moves, conflicts and the validator are those of square
    /// cells.
    #[error("the map's cells are {0} hexes; multi-agent planning moves on square cells")]
    Hex(String),
}

impl InstanceError {
    /// The same error with its agents counted from 1, as an editor's list numbers its units.
    pub fn numbered_from_one(&self) -> InstanceError {
        let mut error = self.clone();
        match &mut error {
            InstanceError::OutOfBounds { agent, .. } | InstanceError::Blocked { agent, .. } => {
                *agent += 1;
            }
            InstanceError::Shared { first, second, .. } => {
                *first += 1;
                *second += 1;
            }
            _ => {}
        }
        error
    }
}

/// A map with agents on it and the rule of moving: what every solver takes and every plan is
/// checked against.
#[derive(Clone, Debug, PartialEq)]
pub struct Instance {
    grid: Grid,
    agents: Vec<Agent>,
    moves: Moves,
}

impl Instance {
    /// An instance, after checking that the map has square cells, that every start and goal
    /// is a passable cell of it and that no two agents share a start or a goal.
    ///
    /// ```
    /// use gridpath_core::grid::{Cell, Grid};
    /// use gridpath_core::mapf::{Agent, Instance, Moves};
    ///
    /// let grid = Grid::from_ascii(&["...", ".#."]).expect("a valid map");
    /// let a = Agent { start: Cell::new(0, 0), goal: Cell::new(2, 1) };
    /// assert!(Instance::new(grid.clone(), vec![a], Moves::Four).is_ok());
    /// let on_wall = Agent { start: Cell::new(1, 1), goal: Cell::new(0, 0) };
    /// assert!(Instance::new(grid, vec![on_wall], Moves::Four).is_err());
    /// ```
    pub fn new(grid: Grid, agents: Vec<Agent>, moves: Moves) -> Result<Self, InstanceError> {
        if !grid.topology().has_square_cells() {
            return Err(InstanceError::Hex(grid.topology().to_string()));
        }
        let mut starts = std::collections::HashMap::new();
        let mut goals = std::collections::HashMap::new();
        for (i, a) in agents.iter().enumerate() {
            for (which, cell, seen) in [
                ("start", a.start, &mut starts),
                ("goal", a.goal, &mut goals),
            ] {
                if !grid.contains_cell(cell) {
                    return Err(InstanceError::OutOfBounds {
                        agent: i,
                        which,
                        cell,
                        width: grid.width(),
                        height: grid.height(),
                    });
                }
                if !grid.is_passable(cell) {
                    return Err(InstanceError::Blocked {
                        agent: i,
                        which,
                        cell,
                    });
                }
                if let Some(&first) = seen.get(&cell) {
                    return Err(InstanceError::Shared {
                        first,
                        second: i,
                        which,
                        cell,
                    });
                }
                seen.insert(cell, i);
            }
        }
        Ok(Self {
            grid,
            agents,
            moves,
        })
    }

    /// The map.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The agents, in their order (the order of a plan's paths).
    pub fn agents(&self) -> &[Agent] {
        &self.agents
    }

    /// The rule of moving.
    pub fn moves(&self) -> Moves {
        self.moves
    }

    /// The first `k` agents alone (all of them when `k` is larger).
    pub fn first(&self, k: usize) -> Instance {
        Instance {
            grid: self.grid.clone(),
            agents: self.agents[..k.min(self.agents.len())].to_vec(),
            moves: self.moves,
        }
    }

    /// What one tick from `from` to `to` costs, `None` when it is not a move of the rule (or
    /// leaves the passable cells). See the [module](self) for the prices.
    pub fn step_cost(&self, from: Cell, to: Cell) -> Option<f64> {
        let c_from = self.grid.cost(from)?;
        let c_to = self.grid.cost(to)?;
        let dx = from.x.abs_diff(to.x);
        let dy = from.y.abs_diff(to.y);
        match (dx, dy) {
            (0, 0) => Some(c_from),
            (1, 0) | (0, 1) => Some(0.5 * (c_from + c_to)),
            (1, 1) if self.moves == Moves::EightNoCut => {
                let side_a = Cell::new(to.x, from.y);
                let side_b = Cell::new(from.x, to.y);
                (self.grid.is_passable(side_a) && self.grid.is_passable(side_b))
                    .then_some(std::f64::consts::SQRT_2 * 0.5 * (c_from + c_to))
            }
            _ => None,
        }
    }
}
