use serde::{Serialize, Serializer};

use super::Point;

/// A cubic Bezier curve: it starts at `points[0]`, leaves towards `points[1]`, arrives from
/// `points[2]` and ends at `points[3]`.
///
/// In JSON it is `[[x0, y0], [c1x, c1y], [c2x, c2y], [x1, y1]]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubicBezier {
    /// Start, first control point, second control point, end.
    pub points: [Point; 4],
}

impl CubicBezier {
    /// The curve with these four points.
    pub const fn new(start: Point, control1: Point, control2: Point, end: Point) -> Self {
        Self {
            points: [start, control1, control2, end],
        }
    }

    /// The straight segment from `start` to `end`, with both control points on its ends.
    ///
    /// Its tangent vanishes at both ends: a unit following the curve's parameter slows to a
    /// stop there, which is what makes a corner between two straight pieces followable.
    pub const fn straight(start: Point, end: Point) -> Self {
        Self::new(start, start, end, end)
    }

    /// Where the curve starts.
    pub fn start(&self) -> Point {
        self.points[0]
    }

    /// Where the curve ends.
    pub fn end(&self) -> Point {
        self.points[3]
    }

    /// Whether both control points sit on the curve's ends (a straight segment from
    /// [`CubicBezier::straight`]).
    pub fn is_straight(&self) -> bool {
        let [p0, c1, c2, p1] = self.points;
        c1 == p0 && c2 == p1
    }

    /// The point at parameter `t` in [0, 1].
    pub fn at(&self, t: f64) -> Point {
        let [p0, c1, c2, p1] = self.points;
        let s = 1.0 - t;
        p0 * (s * s * s) + c1 * (3.0 * s * s * t) + c2 * (3.0 * s * t * t) + p1 * (t * t * t)
    }

    /// The velocity B′(t) at parameter `t`.
    pub fn derivative(&self, t: f64) -> Point {
        let [p0, c1, c2, p1] = self.points;
        let s = 1.0 - t;
        (c1 - p0) * (3.0 * s * s) + (c2 - c1) * (6.0 * s * t) + (p1 - c2) * (3.0 * t * t)
    }

    /// The direction of travel at parameter `t`, in radians from +x towards +y (in cell
    /// coordinates, where y grows down the map). Where the velocity vanishes — the ends of a
    /// straight piece, whose control points sit on its ends — it is the limit of the direction
    /// from either side: the second derivative's, reversed past the middle.
    pub fn heading(&self, t: f64) -> f64 {
        let [p0, c1, c2, p1] = self.points;
        let velocity = self.derivative(t);
        let scale = self.speed_bound().max(f64::MIN_POSITIVE);
        let direction = if velocity.norm() > 1e-9 * scale {
            velocity
        } else {
            let acceleration =
                (c2 - c1 * 2.0 + p0) * (6.0 * (1.0 - t)) + (p1 - c2 * 2.0 + c1) * (6.0 * t);
            let sign = if t < 0.5 { 1.0 } else { -1.0 };
            if acceleration.norm() > 1e-9 * scale {
                acceleration * sign
            } else {
                p1 - p0
            }
        };
        direction.y.atan2(direction.x)
    }

    /// An upper bound on the curve's speed |B′(t)|: three times the longest leg of the control
    /// polygon. Samples `1 / n` apart in `t` lie at most `speed_bound / n` apart along the curve.
    pub fn speed_bound(&self) -> f64 {
        let [p0, c1, c2, p1] = self.points;
        3.0 * p0.distance(c1).max(c1.distance(c2)).max(c2.distance(p1))
    }

    /// `n + 1` points at parameters `0, 1/n, …, 1`, where `n` is the least count that keeps
    /// consecutive points at most `spacing` apart along the curve. The first and last points
    /// are exactly the curve's ends.
    pub fn samples(&self, spacing: f64) -> impl Iterator<Item = Point> + '_ {
        let n = self.sample_count(spacing);
        (0..=n).map(move |i| match i {
            0 => self.start(),
            i if i == n => self.end(),
            i => self.at(i as f64 / n as f64),
        })
    }

    /// The number of intervals [`CubicBezier::samples`] divides the curve into.
    pub fn sample_count(&self, spacing: f64) -> usize {
        let n = (self.speed_bound() / spacing).ceil();
        if n.is_finite() && n >= 1.0 {
            n as usize
        } else {
            1
        }
    }
}

impl Serialize for CubicBezier {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.points.serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_runs_from_its_start_to_its_end() {
        let curve = CubicBezier::new(
            Point::new(0.0, 0.0),
            Point::new(1.0, 2.0),
            Point::new(3.0, 2.0),
            Point::new(4.0, 0.0),
        );
        assert_eq!(curve.at(0.0), curve.start());
        assert_eq!(curve.at(1.0), curve.end());
        assert_eq!(curve.at(0.5), Point::new(2.0, 1.5));
    }

    #[test]
    fn samples_are_no_farther_apart_than_asked() {
        let curve = CubicBezier::new(
            Point::new(0.0, 0.0),
            Point::new(5.0, 9.0),
            Point::new(-3.0, 4.0),
            Point::new(8.0, 1.0),
        );
        let points: Vec<Point> = curve.samples(0.05).collect();
        assert_eq!(points.first(), Some(&curve.start()));
        assert_eq!(points.last(), Some(&curve.end()));
        for pair in points.windows(2) {
            assert!(pair[0].distance(pair[1]) <= 0.05);
        }
    }

    #[test]
    fn a_straight_piece_stays_on_its_chord() {
        let (a, b) = (Point::new(1.5, 0.5), Point::new(4.5, 2.5));
        let line = CubicBezier::straight(a, b);
        assert!(line.is_straight());
        for p in line.samples(0.1) {
            let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
            assert!(cross.abs() < 1e-12);
        }
    }

    #[test]
    fn serializes_as_four_points() {
        let line = CubicBezier::straight(Point::new(0.5, 0.5), Point::new(1.5, 0.5));
        assert_eq!(
            serde_json::to_string(&line).unwrap(),
            "[[0.5,0.5],[0.5,0.5],[1.5,0.5],[1.5,0.5]]"
        );
    }
}
