//! Two-dimensional vectors of the world frame, and the distances between moving discs and
//! segments that the motion's guarantees are checked with.

use std::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};

/// A point or a velocity of the world frame (cell widths, y downwards).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vec2 {
    /// Along the rows, to the right.
    pub x: f64,
    /// Along the columns, downwards.
    pub y: f64,
}

impl Vec2 {
    /// The origin, or no velocity.
    pub const ZERO: Vec2 = Vec2 { x: 0.0, y: 0.0 };

    /// The vector `(x, y)`.
    pub const fn new(x: f64, y: f64) -> Vec2 {
        Vec2 { x, y }
    }

    /// The dot product.
    pub fn dot(self, other: Vec2) -> f64 {
        self.x * other.x + self.y * other.y
    }

    /// The squared length.
    pub fn length_sq(self) -> f64 {
        self.dot(self)
    }

    /// The length.
    pub fn length(self) -> f64 {
        self.length_sq().sqrt()
    }

    /// The vector of length 1 the same way, or zero for zero.
    pub fn normalized(self) -> Vec2 {
        let length = self.length();
        if length > 0.0 {
            self / length
        } else {
            Vec2::ZERO
        }
    }

    /// The same vector, shortened to at most `max` long.
    pub fn clamp_length(self, max: f64) -> Vec2 {
        let length_sq = self.length_sq();
        if length_sq > max * max {
            self * (max / length_sq.sqrt())
        } else {
            self
        }
    }

    /// The distance to another point.
    pub fn distance(self, other: Vec2) -> f64 {
        (self - other).length()
    }
}

/// The determinant of the 2 × 2 matrix of two columns: positive when `b` lies
/// counter-clockwise of `a` in a y-up frame.
pub fn det(a: Vec2, b: Vec2) -> f64 {
    a.x * b.y - a.y * b.x
}

impl Add for Vec2 {
    type Output = Vec2;
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}

impl AddAssign for Vec2 {
    fn add_assign(&mut self, o: Vec2) {
        *self = *self + o;
    }
}

impl Sub for Vec2 {
    type Output = Vec2;
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}

impl SubAssign for Vec2 {
    fn sub_assign(&mut self, o: Vec2) {
        *self = *self - o;
    }
}

impl Mul<f64> for Vec2 {
    type Output = Vec2;
    fn mul(self, s: f64) -> Vec2 {
        Vec2::new(self.x * s, self.y * s)
    }
}

impl Div<f64> for Vec2 {
    type Output = Vec2;
    fn div(self, s: f64) -> Vec2 {
        Vec2::new(self.x / s, self.y / s)
    }
}

impl Neg for Vec2 {
    type Output = Vec2;
    fn neg(self) -> Vec2 {
        Vec2::new(-self.x, -self.y)
    }
}

/// The point of segment `a`–`b` nearest `p`.
pub fn closest_on_segment(p: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    let ab = b - a;
    let length_sq = ab.length_sq();
    if length_sq == 0.0 {
        return a;
    }
    let t = ((p - a).dot(ab) / length_sq).clamp(0.0, 1.0);
    a + ab * t
}

/// The least distance between the segments `p0`–`p1` and `q0`–`q1`: for a point moving
/// from `p0` to `p1` in a straight line, how near it comes to the wall `q0`–`q1` on the way.
pub fn segment_distance(p0: Vec2, p1: Vec2, q0: Vec2, q1: Vec2) -> f64 {
    if segments_cross(p0, p1, q0, q1) {
        return 0.0;
    }
    let candidates = [
        p0.distance(closest_on_segment(p0, q0, q1)),
        p1.distance(closest_on_segment(p1, q0, q1)),
        q0.distance(closest_on_segment(q0, p0, p1)),
        q1.distance(closest_on_segment(q1, p0, p1)),
    ];
    candidates.into_iter().fold(f64::INFINITY, f64::min)
}

/// Whether two segments meet at a point inside both (touching ends count).
fn segments_cross(p0: Vec2, p1: Vec2, q0: Vec2, q1: Vec2) -> bool {
    let d1 = det(p1 - p0, q0 - p0);
    let d2 = det(p1 - p0, q1 - p0);
    let d3 = det(q1 - q0, p0 - q0);
    let d4 = det(q1 - q0, p1 - q0);
    (d1 > 0.0) != (d2 > 0.0) && (d3 > 0.0) != (d4 > 0.0) && d1 != 0.0 && d3 != 0.0
}

/// The least distance between two points moving in straight lines over the same interval:
/// from `a0` to `a1` and from `b0` to `b1`.
pub fn closest_approach(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2) -> f64 {
    let p = b0 - a0;
    let v = (b1 - b0) - (a1 - a0);
    let v_sq = v.length_sq();
    let t = if v_sq > 0.0 {
        (-p.dot(v) / v_sq).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p + v * t).length()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_passing_a_wall_comes_nearest_in_the_middle() {
        let d = segment_distance(
            Vec2::new(0.0, 0.0),
            Vec2::new(4.0, 0.0),
            Vec2::new(2.0, 1.0),
            Vec2::new(2.0, 3.0),
        );
        assert!((d - 1.0).abs() < 1e-12);
        let crossing = segment_distance(
            Vec2::new(0.0, 2.0),
            Vec2::new(4.0, 2.0),
            Vec2::new(2.0, 1.0),
            Vec2::new(2.0, 3.0),
        );
        assert_eq!(crossing, 0.0);
    }

    #[test]
    fn two_points_crossing_paths_at_different_times_keep_apart() {
        // One goes right, the other down, through the same point half a step apart.
        let d = closest_approach(
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(1.0, -0.5),
            Vec2::new(1.0, 1.5),
        );
        // Relative position (1 − 2t, 2t − 0.5): nearest at t = 3/8, distance √(1/8).
        assert!((d - (1.0f64 / 8.0).sqrt()).abs() < 1e-12, "{d}");
    }
}
