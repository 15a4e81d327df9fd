use serde::Serialize;

use super::{CubicBezier, Point};

/// A grid path after smoothing: the line-of-sight waypoints and the curve through them.
///
/// Serialized (as in the solve command's `"smoothed"` object and the path export) it is
/// `{"waypoints": [[x, y], …], "beziers": [[[x0, y0], [c1x, c1y], [c2x, c2y], [x1, y1]], …],
/// "length": L, "cost": C, "curve_length": L, "curve_cost": C, "straight_pieces": N}`; the grid
/// path's own length and cost are left to the surrounding object.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SmoothedPath {
    /// The line-of-sight path: cell centres from the start's to the goal's, joined by straight
    /// segments that touch no wall.
    pub waypoints: Vec<Point>,
    /// The curve through the waypoints, piece by piece; each piece ends where the next starts.
    /// Empty when the path is a single cell.
    pub beziers: Vec<CubicBezier>,
    /// The length of the line-of-sight path.
    pub length: f64,
    /// The cost of the line-of-sight path: the terrain cost integrated along its segments. It
    /// is never more than [`SmoothedPath::grid_cost`] (up to a relative rounding of 1e-9).
    pub cost: f64,
    /// The length of the curve, measured by sampling it at most 0.01 cells apart.
    pub curve_length: f64,
    /// The terrain cost integrated along the curve, measured on the same samples. Unlike
    /// [`SmoothedPath::cost`] it may exceed the grid path's cost on weighted terrain.
    pub curve_cost: f64,
    /// How many pieces of the curve are straight segments (tension 0, or curves that could not
    /// keep the clearance).
    pub straight_pieces: usize,
    /// The least radius of curvature along the curve, in cells ([`radius_along`]): 0 where it
    /// turns a corner, `None` (`null`) when it never turns. With
    /// [`SmoothSettings::min_turn_radius`](super::SmoothSettings::min_turn_radius) set, it
    /// says whether the bound was held.
    ///
    /// [`radius_along`]: super::radius_along
    pub min_turn_radius: Option<f64>,
    /// The largest change of heading between consecutive samples of the curve taken
    /// [`DEFAULT_SPACING`](super::DEFAULT_SPACING) apart ([`sample_curve`](super::sample_curve)),
    /// in radians.
    pub max_heading_change: f64,
    /// The grid path's length (1 per orthogonal step, √2 per diagonal one); for an any-angle
    /// path, the length of its segments.
    #[serde(skip)]
    pub grid_length: f64,
    /// The grid path's cost under the search's step model; for an any-angle path, the cost of
    /// its segments.
    #[serde(skip)]
    pub grid_cost: f64,
}

impl SmoothedPath {
    /// The same path moved by `offset`: every waypoint and every control point of the curve.
    /// Lengths, costs and turning are those of the path as smoothed.
    ///
    /// A unit of N × N cells is searched by its top-left cell, whose centre is
    /// (x + 0.5, y + 0.5); moved by ((N − 1) / 2, (N − 1) / 2) the path follows the body's
    /// centre (x + N / 2, y + N / 2) instead.
    ///
    /// ```
    /// use gridpath_core::smooth::{CubicBezier, Point, SmoothedPath};
    ///
    /// let path = SmoothedPath {
    ///     waypoints: vec![Point::new(0.5, 0.5), Point::new(4.5, 0.5)],
    ///     beziers: vec![CubicBezier::straight(Point::new(0.5, 0.5), Point::new(4.5, 0.5))],
    ///     ..SmoothedPath::default()
    /// };
    /// let moved = path.shifted(Point::new(1.0, 1.0));
    /// assert_eq!(moved.waypoints, [Point::new(1.5, 1.5), Point::new(5.5, 1.5)]);
    /// assert_eq!(moved.beziers[0].end(), Point::new(5.5, 1.5));
    /// ```
    #[must_use]
    pub fn shifted(mut self, offset: super::Point) -> Self {
        for point in &mut self.waypoints {
            *point = *point + offset;
        }
        for curve in &mut self.beziers {
            for point in &mut curve.points {
                *point = *point + offset;
            }
        }
        self
    }
}
