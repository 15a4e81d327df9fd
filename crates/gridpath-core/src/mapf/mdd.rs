//! An agent's multi-valued decision diagram (the cells of all its cheapest paths, tick by
//! tick, under its constraints), which conflict-based search builds to classify conflicts and
//! the symmetry reasoning reads.

use super::constraint::Constraint;
use super::graph::MoveGraph;

/// An agent's multi-valued decision diagram: the cells of its cheapest paths, tick by tick,
/// in one array (a search holds many diagrams at once).
pub(super) struct Mdd {
    /// Each tick's cells, sorted, tick after tick.
    cells: Vec<u32>,
    /// Where each tick's cells begin in `cells`, and their end after the last.
    begins: Vec<u32>,
}

impl Mdd {
    /// The diagram of these levels (each sorted; at least one).
    pub(super) fn from_levels(levels: &[Vec<u32>]) -> Self {
        let mut cells = Vec::with_capacity(levels.iter().map(Vec::len).sum());
        let mut begins = Vec::with_capacity(levels.len() + 1);
        for level in levels {
            begins.push(cells.len() as u32);
            cells.extend_from_slice(level);
        }
        begins.push(cells.len() as u32);
        Self { cells, begins }
    }

    /// The number of ticks, the last one's included.
    pub(super) fn ticks(&self) -> usize {
        self.begins.len() - 1
    }

    /// The cells of tick `t` (`t` below [`Mdd::ticks`]), sorted.
    pub(super) fn at(&self, t: usize) -> &[u32] {
        &self.cells[self.begins[t] as usize..self.begins[t + 1] as usize]
    }

    /// Whether the constraint would raise the agent's cost: it forbids every cheapest path.
    pub(super) fn is_cardinal(&self, constraint: Constraint) -> bool {
        let end = self.ticks() as u32 - 1;
        match constraint {
            Constraint::ArriveAfter { t } => end <= t,
            Constraint::ArriveBy { t } => end > t,
            Constraint::Vertex { v, t } | Constraint::Barrier { v, t } if t > end => {
                // On the goal after arrival: the agent must arrive later.
                self.at(end as usize) == [v]
            }
            Constraint::Vertex { v, t } | Constraint::Barrier { v, t } => {
                // A barrier forbids at least what the vertex constraint does.
                self.at(t as usize) == [v]
            }
            Constraint::Move { u, v, t } => {
                t <= end && self.at(t as usize - 1) == [u] && self.at(t as usize) == [v]
            }
            // A demand is cardinal when no cheapest path meets it.
            Constraint::At { v, t } => !self.has(v, t),
            Constraint::Through { u, v, t } => !(self.has(u, t - 1) && self.has(v, t)),
        }
    }

    /// Whether the two agents of these diagrams have cheapest paths that do not collide (no
    /// cell shared at a tick, no swapped move; an agent rests on its goal after its end):
    /// then they need no extra cost to get past each other. Moves between neighbouring cells
    /// of two levels are all taken as allowed (a diagram keeps its cells only), so a pair may
    /// be called compatible where a constraint on a move would part them, never the other way
    /// round: an estimate built on the answer stays a lower bound.
    pub(super) fn compatible(&self, other: &Mdd, graph: &MoveGraph) -> bool {
        let (Some(&a), Some(&b)) = (self.at(0).first(), other.at(0).first()) else {
            return false;
        };
        if a == b {
            return false;
        }
        let end = self.ticks().max(other.ticks()) - 1;
        // A depth-first search of the pairs of cells, each pair of a tick visited once (its
        // place in the product of the two levels).
        let mut offsets = Vec::with_capacity(end + 1);
        let mut total = 0;
        for t in 0..=end {
            offsets.push(total);
            total += self.level(t).len() * other.level(t).len();
        }
        let mut seen = vec![false; total];
        let mut stack = vec![(0, a, b)];
        while let Some((t, x, y)) = stack.pop() {
            if t == end {
                return true;
            }
            let (la, lb) = (self.level(t + 1), other.level(t + 1));
            for &x2 in graph.neighbours(x).iter().chain(std::iter::once(&x)) {
                let Ok(i) = la.binary_search(&x2) else {
                    continue;
                };
                for &y2 in graph.neighbours(y).iter().chain(std::iter::once(&y)) {
                    if y2 == x2 || (x2, y2) == (y, x) {
                        continue;
                    }
                    if let Ok(j) = lb.binary_search(&y2) {
                        let k = offsets[t + 1] + i * lb.len() + j;
                        if !seen[k] {
                            seen[k] = true;
                            stack.push((t + 1, x2, y2));
                        }
                    }
                }
            }
        }
        false
    }

    /// The cells of tick `t` (the goal after the end).
    fn level(&self, t: usize) -> &[u32] {
        self.at(t.min(self.ticks() - 1))
    }

    /// Whether some cheapest path breaks the prohibition `constraint`.
    pub(super) fn may_break(&self, constraint: Constraint) -> bool {
        match constraint {
            Constraint::Vertex { v, t } => self.has(v, t),
            Constraint::Barrier { v, t } => ((t as usize).min(self.ticks() - 1)..self.ticks())
                .any(|tick| self.at(tick).binary_search(&v).is_ok()),
            Constraint::Move { u, v, t } => t > 0 && self.has(u, t - 1) && self.has(v, t),
            _ => false,
        }
    }

    /// Whether some cheapest path is on `v` at tick `t` (on its goal for ever after the end).
    fn has(&self, v: u32, t: u32) -> bool {
        self.level(t as usize).binary_search(&v).is_ok()
    }
}
