use std::ops::{Add, Mul, Sub};

use serde::{Serialize, Serializer};

use crate::grid::{Cell, Topology};

/// A point in continuous map coordinates, the map's world frame: on a square map cell (x, y)
/// covers [x, x + 1) × [y, y + 1), so its centre is (x + 0.5, y + 0.5); on a hex map the
/// centres are [`Topology::centre`]'s, neighbouring ones 1 apart.
///
/// In JSON a point is the array `[x, y]`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Point {
    /// The horizontal coordinate, growing to the right.
    pub x: f64,
    /// The vertical coordinate, growing downwards.
    pub y: f64,
}

impl Point {
    /// The point (x, y).
    pub const fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }

    /// The centre of a cell.
    pub fn centre(cell: Cell) -> Self {
        Self::new(f64::from(cell.x) + 0.5, f64::from(cell.y) + 0.5)
    }

    /// The centre of a cell of a map with this topology, in its world frame
    /// ([`Topology::centre`]): [`Point::centre`] on squares.
    pub fn centre_on(topology: Topology, cell: Cell) -> Self {
        let (x, y) = topology.centre(cell);
        Self::new(x, y)
    }

    /// The cell under the point on a map with this topology, as signed coordinates
    /// ([`Topology::cell_at`]): [`Point::cell_in_grid`] on squares.
    pub fn cell_on(self, topology: Topology) -> (i64, i64) {
        topology.cell_at(self.x, self.y)
    }

    /// The cell whose half-open square holds the point, as signed coordinates (a point past
    /// the left or top edge has a negative coordinate).
    pub fn cell_in_grid(self) -> (i64, i64) {
        (self.x.floor() as i64, self.y.floor() as i64)
    }

    /// The distance from the origin.
    pub fn norm(self) -> f64 {
        self.x.hypot(self.y)
    }

    /// The distance to another point.
    pub fn distance(self, other: Self) -> f64 {
        (other - self).norm()
    }

    /// The point part way to `other`: `self` at `t = 0`, `other` at `t = 1`.
    pub fn lerp(self, other: Self, t: f64) -> Self {
        self + (other - self) * t
    }
}

impl From<Point> for (f64, f64) {
    fn from(point: Point) -> Self {
        (point.x, point.y)
    }
}

impl Add for Point {
    type Output = Point;

    fn add(self, rhs: Point) -> Point {
        Point::new(self.x + rhs.x, self.y + rhs.y)
    }
}

impl Sub for Point {
    type Output = Point;

    fn sub(self, rhs: Point) -> Point {
        Point::new(self.x - rhs.x, self.y - rhs.y)
    }
}

impl Mul<f64> for Point {
    type Output = Point;

    fn mul(self, rhs: f64) -> Point {
        Point::new(self.x * rhs, self.y * rhs)
    }
}

impl Serialize for Point {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        [self.x, self.y].serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_and_cell_agree() {
        let p = Point::centre(Cell::new(3, 7));
        assert_eq!(p, Point::new(3.5, 7.5));
        assert_eq!(p.cell_in_grid(), (3, 7));
        assert_eq!(Point::new(-0.25, 2.0).cell_in_grid(), (-1, 2));
    }

    #[test]
    fn serializes_as_an_array() {
        let json = serde_json::to_string(&Point::new(1.5, 2.0)).unwrap();
        assert_eq!(json, "[1.5,2.0]");
    }
}
