//! Units in motion: discs with a radius, a top speed and an acceleration that move
//! continuously over a map (or the open plane), each along its own guidance, avoiding each
//! other and the walls.
//!
//! Where [`search`](crate::search) plans one path and [`mapf`](crate::mapf) plans a team on a
//! tick grid, this module moves bodies in continuous time, a fixed step at a time
//! ([`Crowd::step`]):
//!
//! - **guidance** ([`guidance`]): straight to the goal on the open plane; on a map, a route
//!   of waypoints from a grid search, pulled straight where the unit's radius clears the walls,
//!   planned again when the unit is pushed out of sight of its next waypoint;
//! - **avoidance** ([`orca`]): optimal reciprocal collision avoidance against the nearest
//!   neighbours ([`neighbours`]) and the map's walls as segments ([`walls`], squares and hexes
//!   alike, asked of the topology);
//! - **a guard** that checks every move of the step exactly and cuts short those that would
//!   make discs overlap or enter a wall, so that neither ever happens.
//!
//! Positions are in the map's world frame: on squares cell `(x, y)` spans `[x, x + 1) × [y,
//! y + 1)`; on hexes neighbouring centres are 1 apart
//! ([`Topology::centre`](crate::grid::Topology::centre)).
//!
//! ```
//! use gridpath_core::grid::Grid;
//! use gridpath_core::motion::{Crowd, CrowdSettings, UnitSpec, Vec2};
//!
//! let grid = Grid::from_ascii(&[".....", ".###.", "....."]).expect("valid map");
//! let units = [
//!     UnitSpec::new(Vec2::new(0.5, 0.5), Vec2::new(4.5, 2.5)),
//!     UnitSpec::new(Vec2::new(4.5, 2.5), Vec2::new(0.5, 0.5)),
//! ];
//! let mut crowd = Crowd::on_map(&grid, &units, CrowdSettings::default()).expect("valid units");
//! while !crowd.all_arrived() && crowd.time() < 60.0 {
//!     crowd.step();
//! }
//! assert!(crowd.all_arrived());
//! let [a, b] = crowd.units() else { unreachable!() };
//! assert!(a.position.distance(Vec2::new(4.5, 2.5)) < 0.1);
//! assert!(b.position.distance(Vec2::new(0.5, 0.5)) < 0.1);
//! ```

mod crowd;
pub mod guidance;
pub mod neighbours;
pub mod orca;
mod vector;
pub mod walls;

#[cfg(test)]
mod tests;

pub use crowd::{Crowd, CrowdSettings, StepReport, Unit, UnitSpec};
pub use vector::{Vec2, closest_approach, closest_on_segment, segment_distance};

/// Why a crowd cannot be set up.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MotionError {
    /// A setting out of range.
    #[error("invalid motion settings: {0}")]
    Settings(&'static str),
    /// A unit's numbers out of range.
    #[error("unit {unit} {why}")]
    Unit {
        /// The unit's index.
        unit: usize,
        /// What is wrong.
        why: &'static str,
    },
    /// A start or goal off the map or in a wall.
    #[error("unit {unit}'s {what} ({:.2}, {:.2}) is not in a passable cell of the map", at.0, at.1)]
    NotOnMap {
        /// The unit's index.
        unit: usize,
        /// "start" or "goal".
        what: &'static str,
        /// The point.
        at: (f64, f64),
    },
    /// A start or goal too near a wall for the unit's radius.
    #[error(
        "unit {unit}'s {what} ({:.2}, {:.2}) is {room:.2} from a wall: too near for its radius {radius}",
        at.0, at.1
    )]
    TooNearWall {
        /// The unit's index.
        unit: usize,
        /// "start" or "goal".
        what: &'static str,
        /// The point.
        at: (f64, f64),
        /// The distance to the nearest wall.
        room: f64,
        /// The unit's radius.
        radius: f64,
    },
    /// No route leads from a unit's start to its goal.
    #[error("unit {unit} has no route from ({:.2}, {:.2}) to ({:.2}, {:.2})", from.0, from.1, to.0, to.1)]
    NoRoute {
        /// The unit's index.
        unit: usize,
        /// Its start.
        from: (f64, f64),
        /// Its goal.
        to: (f64, f64),
    },
}
