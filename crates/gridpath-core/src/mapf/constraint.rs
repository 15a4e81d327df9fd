//! What conflict-based search forbids one agent: a cell at a tick, a move, a cell from a tick
//! on, or a last arrival too early or too late; and what it demands of one (disjoint
//! splitting): a cell at a tick, or a move. CBS, ECBS and the symmetry reasoning share it.

/// A constraint on one agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum Constraint {
    /// Not on `v` at tick `t`.
    Vertex { v: u32, t: u32 },
    /// Not from `u` to `v` arriving at tick `t`.
    Move { u: u32, v: u32, t: u32 },
    /// Not on `v` at tick `t` or any later tick (target reasoning: `v` is the goal of an
    /// agent resting there from `t` on).
    Barrier { v: u32, t: u32 },
    /// The agent's last arrival at its goal comes after tick `t` (it may be there at `t` if it
    /// leaves and comes back): the other side of a barrier.
    ArriveAfter { t: u32 },
    /// The agent's last arrival at its goal is at tick `t` or before: from `t` on it is on its
    /// goal (the other side of `ArriveAfter`, with a barrier for every other agent).
    ArriveBy { t: u32 },
    /// On `v` at tick `t` (disjoint splitting: every other agent is kept off it).
    At { v: u32, t: u32 },
    /// From `u` to `v` arriving at tick `t` (disjoint splitting: every other agent is kept
    /// off `u` at `t - 1`, off `v` at `t` and from the move back).
    Through { u: u32, v: u32, t: u32 },
}

impl Constraint {
    /// What a demand on one agent forbids every other agent (the agent's own cells and the
    /// move that would swap with it); `goal` is the agent's goal. Empty for a prohibition.
    pub(super) fn implied(self, goal: u32) -> Vec<Constraint> {
        match self {
            Constraint::ArriveBy { t } => vec![Constraint::Barrier { v: goal, t }],
            Constraint::At { v, t } => vec![Constraint::Vertex { v, t }],
            Constraint::Through { u, v, t } => vec![
                Constraint::Vertex { v: u, t: t - 1 },
                Constraint::Vertex { v, t },
                Constraint::Move { u: v, v: u, t },
            ],
            _ => Vec::new(),
        }
    }

    /// Whether `path` (resting on its last cell for ever) breaks this prohibition.
    pub(super) fn broken_by(self, path: &[u32]) -> bool {
        let at = |t: u32| path[(t as usize).min(path.len() - 1)];
        match self {
            Constraint::Vertex { v, t } => at(t) == v,
            Constraint::Barrier { v, t } => {
                path.iter().skip(t as usize).any(|&c| c == v) || at(t) == v
            }
            Constraint::Move { u, v, t } => t > 0 && at(t - 1) == u && at(t) == v,
            _ => false,
        }
    }
}
