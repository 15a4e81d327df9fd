//! What conflict-based search forbids one agent: a cell at a tick, a move, a cell from a tick
//! on, or a last arrival too early or too late. CBS, ECBS and the symmetry reasoning share it.

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
}
