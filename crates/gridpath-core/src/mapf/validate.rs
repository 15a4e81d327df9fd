//! The independent check of a plan: every rule of the [model](super::model) written afresh,
//! sharing nothing with the solvers (their neighbour tables, conflict detection or costs),
//! so that a solver's mistake cannot be repeated by the check that judges it.
//!
//! [`validate`] reports the first fault: the plan's shape (how many agents, a start) first,
//! then tick by tick — a cell off the map or impassable, a move that is not one of the rule,
//! two agents on one cell, a swap along an edge, crossing diagonals — and last an agent that
//! does not end on its goal. A valid plan gets its [`PlanSummary`]: every agent's arrival and
//! cost, the sum of costs and the makespan.

use std::collections::HashMap;

use super::model::{Instance, Moves};
use super::plan::Plan;
use crate::grid::Cell;

/// What is wrong with a plan: the first fault found.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PlanError {
    /// The plan has a different number of agents from the instance.
    #[error("the plan has {found} agents, the instance {expected}")]
    AgentCount {
        /// The instance's agents.
        expected: usize,
        /// The plan's.
        found: usize,
    },
    /// An agent's list of cells is empty.
    #[error("agent {agent} has no cells")]
    Empty {
        /// The agent.
        agent: usize,
    },
    /// An agent does not begin on its start.
    #[error("agent {agent} begins on {found}, but its start is {expected}")]
    WrongStart {
        /// The agent.
        agent: usize,
        /// Its start.
        expected: Cell,
        /// Its cell at tick 0.
        found: Cell,
    },
    /// An agent does not end on its goal.
    #[error("agent {agent} ends on {found}, but its goal is {expected}")]
    WrongGoal {
        /// The agent.
        agent: usize,
        /// Its goal.
        expected: Cell,
        /// Its last cell.
        found: Cell,
    },
    /// An agent is outside the map.
    #[error("agent {agent} is outside the map at tick {t}, on {cell}")]
    OffMap {
        /// The agent.
        agent: usize,
        /// The tick.
        t: usize,
        /// The cell.
        cell: Cell,
    },
    /// An agent is on an impassable cell.
    #[error("agent {agent} is on the impassable cell {cell} at tick {t}")]
    Wall {
        /// The agent.
        agent: usize,
        /// The tick.
        t: usize,
        /// The cell.
        cell: Cell,
    },
    /// A move that is not one of the rule: too far, or diagonal under the four-neighbour rule.
    #[error("agent {agent} jumps from {from} to {to} at tick {t}, which is not one move")]
    NotAMove {
        /// The agent.
        agent: usize,
        /// The tick the agent arrives.
        t: usize,
        /// Where it was.
        from: Cell,
        /// Where it is.
        to: Cell,
    },
    /// A diagonal move past an impassable corner.
    #[error("agent {agent} cuts the corner from {from} to {to} at tick {t}")]
    CornerCut {
        /// The agent.
        agent: usize,
        /// The tick the agent arrives.
        t: usize,
        /// Where it was.
        from: Cell,
        /// Where it is.
        to: Cell,
    },
    /// Two agents on one cell at one tick.
    #[error("agents {first} and {second} are both on {cell} at tick {t}")]
    Vertex {
        /// The agent of lower number.
        first: usize,
        /// The other.
        second: usize,
        /// The tick.
        t: usize,
        /// The cell.
        cell: Cell,
    },
    /// Two agents swap cells along one edge.
    #[error("agents {first} and {second} swap {a} and {b} arriving at tick {t}")]
    Swap {
        /// One agent (from `a` to `b`).
        first: usize,
        /// The other (from `b` to `a`).
        second: usize,
        /// The tick they arrive.
        t: usize,
        /// One cell.
        a: Cell,
        /// The other.
        b: Cell,
    },
    /// Two agents cross each other's diagonal within one 2 × 2 block.
    #[error(
        "agents {first} and {second} cross diagonally in the block at {corner} arriving at tick {t}"
    )]
    Crossing {
        /// One agent.
        first: usize,
        /// The other.
        second: usize,
        /// The tick they arrive.
        t: usize,
        /// The top-left cell of the 2 × 2 block.
        corner: Cell,
    },
}

impl PlanError {
    /// The same fault with its agents counted from 1, as an editor's list numbers its units
    /// (the validator and plan files count from 0).
    pub fn numbered_from_one(&self) -> PlanError {
        let mut fault = self.clone();
        match &mut fault {
            PlanError::AgentCount { .. } => {}
            PlanError::Empty { agent }
            | PlanError::WrongStart { agent, .. }
            | PlanError::WrongGoal { agent, .. }
            | PlanError::OffMap { agent, .. }
            | PlanError::Wall { agent, .. }
            | PlanError::NotAMove { agent, .. }
            | PlanError::CornerCut { agent, .. } => *agent += 1,
            PlanError::Vertex { first, second, .. }
            | PlanError::Swap { first, second, .. }
            | PlanError::Crossing { first, second, .. } => {
                *first += 1;
                *second += 1;
            }
        }
        fault
    }
}

/// Every collision between agents in `plan`, tick by tick, up to `limit` of them: two agents
/// on one cell ([`PlanError::Vertex`]), a swap along an edge ([`PlanError::Swap`]) and, under
/// the eight-neighbour rule, crossing diagonals ([`PlanError::Crossing`]). Where [`validate`]
/// stops at the first fault of any kind, this lists the collisions of a plan whose shape is
/// sound, so that a viewer can mark them all; agents with empty lists are left out. Three
/// agents on one cell are two collisions, each with the first agent there.
///
/// ```
/// use gridpath_core::grid::{Cell, Grid};
/// use gridpath_core::mapf::{Agent, Instance, Moves, Plan, PlanError, conflicts};
///
/// let grid = Grid::from_ascii(&["...."]).expect("a valid map");
/// let agents = vec![
///     Agent { start: Cell::new(0, 0), goal: Cell::new(2, 0) },
///     Agent { start: Cell::new(3, 0), goal: Cell::new(1, 0) },
/// ];
/// let instance = Instance::new(grid, agents, Moves::Four).expect("a valid instance");
/// let through = Plan { paths: vec![
///     vec![Cell::new(0, 0), Cell::new(1, 0), Cell::new(2, 0)],
///     vec![Cell::new(3, 0), Cell::new(2, 0), Cell::new(1, 0)],
/// ] };
/// assert_eq!(conflicts(&instance, &through, 10).len(), 1);
/// ```
pub fn conflicts(instance: &Instance, plan: &Plan, limit: usize) -> Vec<PlanError> {
    let agents = plan.paths.len();
    let end = plan.makespan();
    let at = |agent: usize, t: usize| -> Option<Cell> {
        let path = &plan.paths[agent];
        path.get(t).or_else(|| path.last()).copied()
    };
    let mut found = Vec::new();
    let mut occupied: HashMap<Cell, usize> = HashMap::with_capacity(agents * 2);
    let mut moves_made: HashMap<(Cell, Cell), usize> = HashMap::with_capacity(agents * 2);
    let mut diagonals: HashMap<Cell, (usize, bool)> = HashMap::new();
    for t in 0..=end {
        occupied.clear();
        moves_made.clear();
        diagonals.clear();
        for agent in 0..agents {
            let Some(cell) = at(agent, t) else { continue };
            match occupied.get(&cell) {
                Some(&first) => found.push(PlanError::Vertex {
                    first,
                    second: agent,
                    t,
                    cell,
                }),
                None => {
                    occupied.insert(cell, agent);
                }
            }
        }
        if t > 0 {
            for agent in 0..agents {
                let (Some(from), Some(to)) = (at(agent, t - 1), at(agent, t)) else {
                    continue;
                };
                if from == to {
                    continue;
                }
                if let Some(&first) = moves_made.get(&(to, from)) {
                    found.push(PlanError::Swap {
                        first,
                        second: agent,
                        t,
                        a: to,
                        b: from,
                    });
                }
                moves_made.insert((from, to), agent);
                if instance.moves() == Moves::EightNoCut && from.x != to.x && from.y != to.y {
                    let corner = Cell::new(from.x.min(to.x), from.y.min(to.y));
                    let main = (from.x < to.x) == (from.y < to.y);
                    match diagonals.get(&corner) {
                        Some(&(first, first_main)) if first_main != main => {
                            found.push(PlanError::Crossing {
                                first,
                                second: agent,
                                t,
                                corner,
                            });
                        }
                        _ => {
                            diagonals.insert(corner, (agent, main));
                        }
                    }
                }
            }
        }
        if found.len() >= limit {
            found.truncate(limit);
            break;
        }
    }
    found
}

/// What a valid plan achieves.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanSummary {
    /// Each agent's arrival: the tick from which it stays on its goal.
    pub arrivals: Vec<usize>,
    /// Each agent's cost: its moves and waits up to its arrival (see the model's prices).
    pub costs: Vec<f64>,
    /// The sum of the agents' costs.
    pub sum_of_costs: f64,
    /// The last arrival.
    pub makespan: usize,
}

/// Checks `plan` against every rule of `instance`; returns its summary or the first fault.
///
/// ```
/// use gridpath_core::grid::{Cell, Grid};
/// use gridpath_core::mapf::{Agent, Instance, Moves, Plan, PlanError, validate};
///
/// let grid = Grid::from_ascii(&["..."]).expect("a valid map");
/// let agents = vec![
///     Agent { start: Cell::new(0, 0), goal: Cell::new(1, 0) },
///     Agent { start: Cell::new(1, 0), goal: Cell::new(0, 0) },
/// ];
/// let instance = Instance::new(grid, agents, Moves::Four).expect("a valid instance");
/// let swap = Plan { paths: vec![
///     vec![Cell::new(0, 0), Cell::new(1, 0)],
///     vec![Cell::new(1, 0), Cell::new(0, 0)],
/// ] };
/// assert!(matches!(validate(&instance, &swap), Err(PlanError::Swap { t: 1, .. })));
/// ```
pub fn validate(instance: &Instance, plan: &Plan) -> Result<PlanSummary, PlanError> {
    let agents = instance.agents();
    let grid = instance.grid();
    if plan.paths.len() != agents.len() {
        return Err(PlanError::AgentCount {
            expected: agents.len(),
            found: plan.paths.len(),
        });
    }
    for (agent, (path, a)) in plan.paths.iter().zip(agents).enumerate() {
        let Some(&first) = path.first() else {
            return Err(PlanError::Empty { agent });
        };
        if first != a.start {
            return Err(PlanError::WrongStart {
                agent,
                expected: a.start,
                found: first,
            });
        }
    }
    let end = plan.paths.iter().map(Vec::len).max().unwrap_or(1) - 1;
    let at = |agent: usize, t: usize| -> Cell {
        let path = &plan.paths[agent];
        path[t.min(path.len() - 1)]
    };
    let open = |cell: Cell| -> bool {
        (cell.x < grid.width() && cell.y < grid.height()) && grid.cost(cell).is_some()
    };
    let mut occupied: HashMap<Cell, usize> = HashMap::with_capacity(agents.len() * 2);
    let mut moves_made: HashMap<(Cell, Cell), usize> = HashMap::with_capacity(agents.len() * 2);
    let mut diagonals: HashMap<Cell, (usize, bool)> = HashMap::new();
    for t in 0..=end {
        occupied.clear();
        moves_made.clear();
        diagonals.clear();
        for agent in 0..agents.len() {
            let cell = at(agent, t);
            if cell.x >= grid.width() || cell.y >= grid.height() {
                return Err(PlanError::OffMap { agent, t, cell });
            }
            if !open(cell) {
                return Err(PlanError::Wall { agent, t, cell });
            }
            if t > 0 {
                let from = at(agent, t - 1);
                let (dx, dy) = (from.x.abs_diff(cell.x), from.y.abs_diff(cell.y));
                let diagonal = dx == 1 && dy == 1;
                let allowed = dx + dy <= 1 || (diagonal && instance.moves() == Moves::EightNoCut);
                if !allowed {
                    return Err(PlanError::NotAMove {
                        agent,
                        t,
                        from,
                        to: cell,
                    });
                }
                if diagonal && !(open(Cell::new(from.x, cell.y)) && open(Cell::new(cell.x, from.y)))
                {
                    return Err(PlanError::CornerCut {
                        agent,
                        t,
                        from,
                        to: cell,
                    });
                }
            }
        }
        for agent in 0..agents.len() {
            let cell = at(agent, t);
            if let Some(&other) = occupied.get(&cell) {
                return Err(PlanError::Vertex {
                    first: other,
                    second: agent,
                    t,
                    cell,
                });
            }
            occupied.insert(cell, agent);
        }
        if t == 0 {
            continue;
        }
        for agent in 0..agents.len() {
            let (from, to) = (at(agent, t - 1), at(agent, t));
            if from == to {
                continue;
            }
            if let Some(&other) = moves_made.get(&(to, from)) {
                return Err(PlanError::Swap {
                    first: other,
                    second: agent,
                    t,
                    a: to,
                    b: from,
                });
            }
            moves_made.insert((from, to), agent);
            if from.x != to.x && from.y != to.y {
                let corner = Cell::new(from.x.min(to.x), from.y.min(to.y));
                // The main diagonal joins the block's top-left and bottom-right cells.
                let main = (from.x < to.x) == (from.y < to.y);
                match diagonals.get(&corner) {
                    Some(&(other, other_main)) if other_main != main => {
                        return Err(PlanError::Crossing {
                            first: other,
                            second: agent,
                            t,
                            corner,
                        });
                    }
                    _ => {
                        diagonals.insert(corner, (agent, main));
                    }
                }
            }
        }
    }
    let mut arrivals = Vec::with_capacity(agents.len());
    let mut costs = Vec::with_capacity(agents.len());
    for (agent, a) in agents.iter().enumerate() {
        let last = at(agent, end);
        if last != a.goal {
            return Err(PlanError::WrongGoal {
                agent,
                expected: a.goal,
                found: last,
            });
        }
        let mut arrival = end;
        while arrival > 0 && at(agent, arrival - 1) == a.goal {
            arrival -= 1;
        }
        let mut cost = 0.0;
        for t in 1..=arrival {
            let (from, to) = (at(agent, t - 1), at(agent, t));
            let (c_from, c_to) = (grid.cost(from).unwrap_or(0.0), grid.cost(to).unwrap_or(0.0));
            cost += if from == to {
                c_from
            } else if from.x != to.x && from.y != to.y {
                std::f64::consts::SQRT_2 * (c_from + c_to) / 2.0
            } else {
                (c_from + c_to) / 2.0
            };
        }
        arrivals.push(arrival);
        costs.push(cost);
    }
    Ok(PlanSummary {
        makespan: arrivals.iter().copied().max().unwrap_or(0),
        sum_of_costs: costs.iter().sum(),
        arrivals,
        costs,
    })
}
