//! An agent's multi-valued decision diagram (the cells of all its cheapest paths, tick by
//! tick, under its constraints), which conflict-based search builds to classify conflicts and
//! the symmetry reasoning reads.

use super::constraint::Constraint;

/// An agent's multi-valued decision diagram: the cells of its cheapest paths, tick by tick.
pub(super) struct Mdd {
    /// Each tick's cells, sorted.
    pub(super) levels: Vec<Vec<u32>>,
}

impl Mdd {
    /// Whether the constraint would raise the agent's cost: it forbids every cheapest path.
    pub(super) fn is_cardinal(&self, constraint: Constraint) -> bool {
        let end = self.levels.len() as u32 - 1;
        match constraint {
            Constraint::ArriveAfter { t } => end <= t,
            Constraint::ArriveBy { t } => end > t,
            Constraint::Vertex { v, t } | Constraint::Barrier { v, t } if t > end => {
                // On the goal after arrival: the agent must arrive later.
                self.levels[end as usize] == [v]
            }
            Constraint::Vertex { v, t } | Constraint::Barrier { v, t } => {
                // A barrier forbids at least what the vertex constraint does.
                self.levels[t as usize] == [v]
            }
            Constraint::Move { u, v, t } => {
                t <= end && self.levels[t as usize - 1] == [u] && self.levels[t as usize] == [v]
            }
        }
    }
}
