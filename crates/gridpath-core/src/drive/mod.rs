//! Paths a robot can drive: a round body of some radius that turns no tighter than a turning
//! radius, planned by a search over poses ([Hybrid A*](hybrid)) so that the path the search
//! returns already keeps the radius from every wall along its whole sweep and never turns
//! tighter than the car can. The grid searches plan for points and the smoother bends their
//! corners afterwards; here the body and the turning circle are the search's own.
//!
//! Lengths are in cell widths and headings in radians, in the map's frame (x across, y down the
//! rows); a front end converts metres and degrees. A drive is the Dubins car's (forward only) or
//! the Reeds–Shepp car's (forward and reverse).
//!
//! ```
//! use gridpath_core::drive::{DriveRequest, Pose, plan};
//! use gridpath_core::grid::Grid;
//!
//! // A room with a wall across most of it: the car drives round its end.
//! let grid = Grid::from_ascii(&[
//!     "..................",
//!     "..................",
//!     "..................",
//!     "#############.....",
//!     "..................",
//!     "..................",
//!     "..................",
//! ]).expect("a valid map");
//! let request = DriveRequest::new(Pose::new(2.0, 1.5, 0.0), Pose::new(2.0, 5.5, std::f64::consts::PI))
//!     .with_body_radius(0.4)
//!     .with_turning_radius(1.5);
//! let drive = plan(&grid, &request, None).expect("a drive");
//! assert!(drive.least_clearance >= 0.4);
//! assert!(drive.curve.length() > 20.0, "round the wall's end");
//! ```

pub mod dubins;
mod gap;
mod hybrid;
pub mod pose;
pub mod reeds_shepp;
mod space;

#[cfg(test)]
mod tests;

use std::fmt;

pub use gap::widest_gap;
pub use pose::{Curve, Gear, Piece, Pose, Sample, Steer};
pub use space::Space;

use crate::grid::Grid;
use crate::search::SearchControl;

/// How a car may move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motion {
    /// Forward only, turning no tighter than the radius (Dubins).
    Dubins,
    /// Forward and reverse, turning no tighter than the radius (Reeds–Shepp).
    ReedsShepp,
}

impl Motion {
    /// The motion's name as the command line and exports spell it.
    pub fn name(self) -> &'static str {
        match self {
            Motion::Dubins => "dubins",
            Motion::ReedsShepp => "reeds-shepp",
        }
    }

    /// The length of the shortest curve of this motion between two poses, through no walls.
    pub fn distance(self, from: Pose, to: Pose, radius: f64) -> f64 {
        match self {
            Motion::Dubins => dubins::distance(from, to, radius),
            Motion::ReedsShepp => reeds_shepp::distance(from, to, radius),
        }
    }

    /// The shortest curve of this motion between two poses, through no walls.
    pub fn shortest(self, from: Pose, to: Pose, radius: f64) -> Option<Curve> {
        match self {
            Motion::Dubins => dubins::shortest(from, to, radius),
            Motion::ReedsShepp => reeds_shepp::shortest(from, to, radius),
        }
    }
}

/// What to plan: the start and goal poses and the body.
#[derive(Clone, Debug)]
pub struct DriveRequest {
    /// Where the body starts.
    pub start: Pose,
    /// Where it ends.
    pub goal: Pose,
    /// Whether the start heading is the search's to choose.
    pub start_heading_free: bool,
    /// Whether the goal heading is the search's to choose.
    pub goal_heading_free: bool,
    /// The body's radius, in cell widths.
    pub body_radius: f64,
    /// The tightest turn, in cell widths.
    pub turning_radius: f64,
    /// How the car moves.
    pub motion: Motion,
    /// The most nodes the search expands before it gives up.
    pub max_expansions: usize,
    /// Keep away from walls where there is room, as nav2's inflation layer asks (`None`: the
    /// shortest drive, however near the walls it passes).
    pub inflation: Option<Inflation>,
}

/// nav2's inflation cost, in cells: 253 inside the body's radius, `252 · e^(−k (d − r))` from
/// the radius `r` out to the inflation radius, 0 beyond; a drive pays for each length driven
/// `1 + penalty · cost / 252` times its length (Smac's cost penalty), so that it keeps away
/// from walls where it can and passes near them only where it must.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inflation {
    /// How far from a wall the cost reaches, in cell widths.
    pub radius: f64,
    /// How fast the cost falls with the distance beyond the body's radius, per cell width.
    pub scaling: f64,
    /// How much a length driven at the body's radius from a wall costs over one far from
    /// every wall (Smac's `cost_penalty`).
    pub penalty: f64,
}

impl Inflation {
    /// The factor a length driven at `clearance` from the nearest wall costs, for a body of
    /// `body` radius: from 1 (beyond the inflation radius) to `1 + penalty`.
    pub fn factor(&self, clearance: f64, body: f64) -> f64 {
        if clearance >= self.radius {
            return 1.0;
        }
        let cost = 252.0 * (-self.scaling * (clearance - body).max(0.0)).exp();
        1.0 + self.penalty * cost / 252.0
    }
}

/// The most cells a map may have for a drive: the search's estimate keeps a table of every
/// cell (about 10 bytes each), and its wall distances a lattice of the same size (4 bytes).
pub const DRIVE_MAX_CELLS: usize = 1 << 24;

impl DriveRequest {
    /// The default budget of expanded nodes.
    pub const MAX_EXPANSIONS: usize = 2_000_000;

    /// A drive from `start` to `goal`: a body of radius 0.5, a turning radius of 1.
    pub fn new(start: Pose, goal: Pose) -> DriveRequest {
        DriveRequest {
            start,
            goal,
            start_heading_free: false,
            goal_heading_free: false,
            body_radius: 0.5,
            turning_radius: 1.0,
            motion: Motion::Dubins,
            max_expansions: Self::MAX_EXPANSIONS,
            inflation: None,
        }
    }

    /// With a body of `radius` cell widths.
    pub fn with_body_radius(mut self, radius: f64) -> Self {
        self.body_radius = radius;
        self
    }

    /// With a turning radius of `radius` cell widths.
    pub fn with_turning_radius(mut self, radius: f64) -> Self {
        self.turning_radius = radius;
        self
    }

    /// With the start heading (`false`) or the goal heading (`true`) left to the search.
    pub fn with_free_heading(mut self, start: bool, goal: bool) -> Self {
        self.start_heading_free = start;
        self.goal_heading_free = goal;
        self
    }

    fn validate(&self) -> Result<(), DriveError> {
        let bad = |what: &str| Err(DriveError::BadRequest(what.to_owned()));
        if !(self.body_radius >= 0.0 && self.body_radius.is_finite()) {
            return bad("the body's radius must be a finite number, 0 or more");
        }
        if !(self.turning_radius > 0.0 && self.turning_radius.is_finite()) {
            return bad("the turning radius must be a finite number above 0");
        }
        if !self.start.is_finite() || !self.goal.is_finite() {
            return bad("the start and goal poses must be finite");
        }
        if let Some(i) = self.inflation {
            let ok = |v: f64| v >= 0.0 && v.is_finite();
            if !(ok(i.radius) && ok(i.scaling) && ok(i.penalty)) {
                return bad(
                    "the inflation radius, scaling factor and penalty must be finite numbers, 0 or more",
                );
            }
        }
        Ok(())
    }
}

/// Why no drive was planned.
#[derive(Clone, Debug, PartialEq)]
pub enum DriveError {
    /// The request itself is unusable.
    BadRequest(String),
    /// The start (`"start"`) or goal is off the map.
    OffMap(&'static str),
    /// The body does not fit at the start or the goal: it is `clearance` from a wall there.
    Blocked {
        /// "start" or "goal".
        which: &'static str,
        /// The distance to the nearest wall, in cell widths.
        clearance: f64,
    },
    /// No drive exists for this body (or none the search's headings can find).
    NoWay,
    /// The search expanded its budget of nodes without reaching the goal.
    Budget(usize),
    /// Stopped through its control.
    Cancelled,
}

impl fmt::Display for DriveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DriveError::BadRequest(why) => write!(f, "{why}"),
            DriveError::OffMap(which) => write!(f, "the {which} is off the map"),
            DriveError::Blocked { which, clearance } => write!(
                f,
                "the body does not fit at the {which}: a wall is {clearance:.3} cells from it"
            ),
            DriveError::NoWay => write!(f, "no drive for this body reaches the goal"),
            DriveError::Budget(n) => {
                write!(f, "no drive found within {n} expanded poses")
            }
            DriveError::Cancelled => write!(f, "cancelled"),
        }
    }
}

impl std::error::Error for DriveError {}

/// A planned drive.
#[derive(Clone, Debug)]
pub struct Drive {
    /// What the drive costs: its length, or with an inflation its length weighted by how near
    /// the walls each part of it passes (sampled every tenth of a cell).
    pub cost: f64,
    /// The path: arcs of the turning radius and straight pieces from the start pose.
    pub curve: Curve,
    /// The least distance from the path's centre line to a wall, sampled every tenth of a cell
    /// along it (the search checked the whole sweep; this figure is for the report).
    pub least_clearance: f64,
    /// Poses the search expanded.
    pub expanded: usize,
}

impl Drive {
    /// The tightest turn the path makes: the turning radius if it has an arc, else infinite.
    pub fn least_turning_radius(&self) -> f64 {
        if self.curve.pieces.iter().any(|p| p.steer != Steer::Straight) {
            self.curve.radius
        } else {
            f64::INFINITY
        }
    }
}

/// Plans a drive for `request` on `grid` (see the module); `control` may cancel it.
pub fn plan(
    grid: &Grid,
    request: &DriveRequest,
    control: Option<&SearchControl>,
) -> Result<Drive, DriveError> {
    request.validate()?;
    if grid.len() > DRIVE_MAX_CELLS {
        return Err(DriveError::BadRequest(format!(
            "the map has {} cells; a drive plans on maps of at most {DRIVE_MAX_CELLS} (4096 × 4096)",
            grid.len()
        )));
    }
    let reach = request.inflation.map_or(0.0, |i| i.radius);
    let mut space = Space::reaching(grid, request.body_radius, reach);
    let found = hybrid::search(grid, &mut space, request, control)?;
    let limit = request.body_radius + 10.0;
    let least_clearance = found
        .curve
        .samples(0.1)
        .iter()
        .map(|s| space.clearance(s.pose.x, s.pose.y, limit))
        .fold(f64::INFINITY, f64::min);
    let cost = hybrid::curve_cost(&mut space, request, &found.curve);
    Ok(Drive {
        cost,
        curve: found.curve,
        least_clearance,
        expanded: found.expanded,
    })
}
