//! The rules one agent's low-level search keeps in conflict-based search (CBS, ECBS and
//! EECBS alike): its constraints as the tables that [`space_time`](super::space_time) asks
//! about a vertex or a move at a tick, its demands, and the other agents' paths, which break
//! ties towards the path with the fewest conflicts.

use std::rc::Rc;

use super::graph::{FastMap, FastSet, MoveGraph};
use super::space_time::Rules;

/// One agent's constraints with the other agents' paths to avoid where it costs nothing.
pub(super) struct AgentRules<'g> {
    pub(super) vertex: FastSet<(u32, u32)>,
    /// Cells barred from a tick on.
    pub(super) barriers: Vec<(u32, u32)>,
    pub(super) moves: FastSet<(u32, u32, u32)>,
    /// The first tick from which the agent may rest on its goal.
    pub(super) goal_after: u32,
    /// The tick from which the agent must be on its goal (`u32::MAX`: none).
    pub(super) arrive_by: u32,
    /// The cells the agent must be on at some ticks (disjoint splitting's demands), as
    /// (tick, cell, the cost from the cell to the goal), by tick.
    pub(super) demands: Vec<(u32, u32, f64)>,
    /// The graph's geometry for the fewest moves between two cells.
    pub(super) graph: &'g MoveGraph,
    pub(super) goal: u32,
    pub(super) horizon: u32,
    /// The other agents' paths, to break ties.
    pub(super) avoid: Avoidance,
}

/// The most entries (cells × ticks) of a dense [`Avoidance`] table.
const DENSE_AVOIDANCE: usize = 1 << 20;

/// The other agents' paths as the low level asks about them to break ties: how many are on a
/// cell at a tick, how many make a move the other way, and from which tick one rests on a
/// cell.
pub(super) enum Avoidance {
    /// Tables of cells by ticks: the number of agents on each, one of them (its number plus
    /// one, for the moves), and each cell's first tick of rest (`u32::MAX`: none).
    Dense {
        cells: usize,
        ticks: u32,
        occupied: Vec<u8>,
        first: Vec<u16>,
        resting: Vec<u32>,
    },
    /// The same in hash maps, for large maps and long paths.
    Sparse {
        occupied: FastMap<(u32, u32), u32>,
        moving: FastMap<(u32, u32, u32), u32>,
        resting: FastMap<u32, u32>,
    },
}

impl Avoidance {
    /// The table of `paths` but `agent`'s, on a map of `cells` cells.
    pub(super) fn new(cells: usize, agent: u32, paths: &[Rc<Vec<u32>>]) -> Self {
        let ticks = paths.iter().map(|p| p.len()).max().unwrap_or(0);
        let others = paths
            .iter()
            .enumerate()
            .filter(move |&(i, _)| i as u32 != agent);
        if cells.saturating_mul(ticks) <= DENSE_AVOIDANCE && paths.len() < usize::from(u16::MAX) {
            let mut occupied = vec![0u8; cells * ticks];
            let mut first = vec![0u16; cells * ticks];
            let mut resting = vec![u32::MAX; if paths.is_empty() { 0 } else { cells }];
            for (i, path) in others {
                for (t, &v) in path.iter().enumerate() {
                    let k = t * cells + v as usize;
                    occupied[k] = occupied[k].saturating_add(1);
                    first[k] = i as u16 + 1;
                }
                if let Some(&end) = path.last() {
                    resting[end as usize] = path.len() as u32;
                }
            }
            return Avoidance::Dense {
                cells,
                ticks: ticks as u32,
                occupied,
                first,
                resting,
            };
        }
        let entries: usize = paths.iter().map(|p| p.len()).sum();
        let mut occupied = FastMap::with_capacity_and_hasher(entries, Default::default());
        let mut moving = FastMap::with_capacity_and_hasher(entries, Default::default());
        let mut resting = FastMap::with_capacity_and_hasher(paths.len(), Default::default());
        for (_, path) in others {
            for (t, &v) in path.iter().enumerate() {
                *occupied.entry((v, t as u32)).or_insert(0) += 1;
                // Only moves are asked about, never waits.
                if t > 0 && path[t - 1] != v {
                    *moving.entry((path[t - 1], v, t as u32)).or_insert(0) += 1;
                }
            }
            if let Some(&end) = path.last() {
                resting.insert(end, path.len() as u32);
            }
        }
        Avoidance::Sparse {
            occupied,
            moving,
            resting,
        }
    }

    /// How many other agents the move `u` → `v` arriving at `t` meets.
    fn conflicts(&self, u: u32, v: u32, t: u32) -> u32 {
        match self {
            Avoidance::Dense {
                cells,
                ticks,
                occupied,
                first,
                resting,
            } => {
                let Some(&from) = resting.get(v as usize) else {
                    return 0; // No other agent.
                };
                let mut n = u32::from(from <= t);
                if t < *ticks {
                    let k = t as usize * cells + v as usize;
                    n += u32::from(occupied[k]);
                    // A move the other way: one agent on `v` before and on `u` now.
                    if u != v && t > 0 {
                        let back = (t as usize - 1) * cells + v as usize;
                        let here = t as usize * cells + u as usize;
                        n += u32::from(first[back] != 0 && first[back] == first[here]);
                    }
                }
                n
            }
            Avoidance::Sparse {
                occupied,
                moving,
                resting,
            } => {
                let mut n = occupied.get(&(v, t)).copied().unwrap_or(0);
                if resting.get(&v).is_some_and(|&from| from <= t) {
                    n += 1;
                }
                if u != v {
                    n += moving.get(&(v, u, t)).copied().unwrap_or(0);
                }
                n
            }
        }
    }
}

impl Rules for AgentRules<'_> {
    fn allows_vertex(&self, v: u32, t: u32) -> bool {
        !self.vertex.contains(&(v, t))
            && (t < self.arrive_by || v == self.goal)
            && !self.barriers.iter().any(|&(b, from)| b == v && t >= from)
            && self.demands.iter().all(|&(dt, dv, _)| dt != t || dv == v)
    }

    fn allows_move(&self, u: u32, v: u32, t: u32) -> bool {
        !self.moves.contains(&(u, v, t))
    }

    fn conflicts(&self, u: u32, v: u32, t: u32) -> u32 {
        self.avoid.conflicts(u, v, t)
    }

    fn may_end(&self, goal: u32, t: u32) -> bool {
        goal == self.goal && t >= self.goal_after
    }

    fn reachable(&self, v: u32, t: u32) -> bool {
        self.demands
            .iter()
            .all(|&(dt, dv, _)| dt <= t || self.graph.least_moves(v, dv) <= dt - t)
    }

    fn least_after(&self, t: u32) -> f64 {
        // Up to a demand on a cell other than the goal the agent has not arrived: every tick
        // costs at least the least step, and the way on from the cell follows.
        self.demands
            .iter()
            .filter(|&&(dt, dv, _)| dt > t && dv != self.goal)
            .map(|&(dt, _, rest)| f64::from(dt - t) * self.graph.least_step + rest)
            .fold(0.0, f64::max)
    }

    fn horizon(&self) -> u32 {
        self.horizon
    }
}
