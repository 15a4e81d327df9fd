//! Poses and the curves between them: a car's position and heading, and a path of arcs of one
//! radius and straight pieces, each driven forward or in reverse.

use std::f64::consts::TAU;

/// An angle brought into `[0, 2π)`.
pub fn wrap(angle: f64) -> f64 {
    let a = angle.rem_euclid(TAU);
    if a >= TAU { 0.0 } else { a }
}

/// The unsigned difference of two headings, from 0 to π.
pub fn angle_between(a: f64, b: f64) -> f64 {
    let d = wrap(a - b);
    d.min(TAU - d)
}

/// A position and a heading, in the map's units (cell widths) and radians; the heading points
/// at `(cos θ, sin θ)` with y down the rows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// Across the map.
    pub x: f64,
    /// Down the map.
    pub y: f64,
    /// The heading, in `[0, 2π)` once normalised.
    pub theta: f64,
}

impl Pose {
    /// A pose; the heading is normalised into `[0, 2π)`.
    pub fn new(x: f64, y: f64, theta: f64) -> Pose {
        Pose {
            x,
            y,
            theta: wrap(theta),
        }
    }

    /// Whether every coordinate is finite.
    pub fn is_finite(&self) -> bool {
        self.x.is_finite() && self.y.is_finite() && self.theta.is_finite()
    }

    /// The straight-line distance between the positions.
    pub fn distance(&self, other: Pose) -> f64 {
        (self.x - other.x).hypot(self.y - other.y)
    }

    /// Where driving `length` with `steer` (arcs of `radius`) in `gear` takes this pose.
    pub fn drive(self, steer: Steer, gear: Gear, radius: f64, length: f64) -> Pose {
        let s = match gear {
            Gear::Forward => length,
            Gear::Reverse => -length,
        };
        let (sin, cos) = self.theta.sin_cos();
        match steer {
            Steer::Straight => Pose::new(self.x + s * cos, self.y + s * sin, self.theta),
            Steer::Left | Steer::Right => {
                let turn = if steer == Steer::Left { 1.0 } else { -1.0 };
                let phi = turn * s / radius;
                let (sin2, cos2) = (self.theta + phi).sin_cos();
                Pose::new(
                    self.x + turn * radius * (sin2 - sin),
                    self.y - turn * radius * (cos2 - cos),
                    self.theta + phi,
                )
            }
        }
    }
}

/// Which way the wheels turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Steer {
    /// Heading increases.
    Left,
    /// Straight ahead.
    Straight,
    /// Heading decreases.
    Right,
}

impl Steer {
    /// `"left"`, `"straight"` or `"right"`, as exports name it.
    pub fn name(self) -> &'static str {
        match self {
            Steer::Left => "left",
            Steer::Straight => "straight",
            Steer::Right => "right",
        }
    }
}

/// Forward or reverse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gear {
    /// Driving forward.
    Forward,
    /// Backing up.
    Reverse,
}

impl Gear {
    /// `"forward"` or `"reverse"`, as exports name it.
    pub fn name(self) -> &'static str {
        match self {
            Gear::Forward => "forward",
            Gear::Reverse => "reverse",
        }
    }
}

/// One piece of a curve: an arc of the curve's radius or a straight line, driven `length`
/// (always positive) in one gear.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Piece {
    /// Arc left, arc right or straight.
    pub steer: Steer,
    /// Forward or reverse.
    pub gear: Gear,
    /// How far it drives, in cell widths.
    pub length: f64,
}

/// A sampled pose of a curve, with the gear it is driven in there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Where the car is.
    pub pose: Pose,
    /// The gear it drives in from here.
    pub gear: Gear,
}

/// A path of pieces from a start pose, all arcs of one radius.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    /// Where it starts.
    pub start: Pose,
    /// The turning radius of its arcs.
    pub radius: f64,
    /// Its pieces in order.
    pub pieces: Vec<Piece>,
}

impl Curve {
    /// A curve of `pieces` from `start`.
    pub fn new(start: Pose, radius: f64, pieces: Vec<Piece>) -> Curve {
        Curve {
            start,
            radius,
            pieces,
        }
    }

    /// The distance driven, forward and reverse alike.
    pub fn length(&self) -> f64 {
        self.pieces.iter().map(|p| p.length).sum()
    }

    /// The pose at the end.
    pub fn end(&self) -> Pose {
        self.pieces.iter().fold(self.start, |pose, piece| {
            pose.drive(piece.steer, piece.gear, self.radius, piece.length)
        })
    }

    /// Poses along the curve no farther apart than `step`, the start and the end included, and
    /// every join of two pieces (so that a change of gear is a sample of its own).
    pub fn samples(&self, step: f64) -> Vec<Sample> {
        let mut out = Vec::new();
        let mut pose = self.start;
        for piece in &self.pieces {
            let n = (piece.length / step).ceil().max(1.0) as usize;
            for i in 0..n {
                let at = pose.drive(
                    piece.steer,
                    piece.gear,
                    self.radius,
                    piece.length * i as f64 / n as f64,
                );
                out.push(Sample {
                    pose: at,
                    gear: piece.gear,
                });
            }
            pose = pose.drive(piece.steer, piece.gear, self.radius, piece.length);
        }
        let gear = self.pieces.last().map_or(Gear::Forward, |p| p.gear);
        out.push(Sample { pose, gear });
        out
    }
}

/// A pose in the square of side 20 round the origin, at any heading: the curves' tests draw
/// their pairs so.
#[cfg(test)]
pub(super) fn random_pose(rng: &mut crate::rng::Rng) -> Pose {
    Pose::new(
        rng.below(2000) as f64 / 100.0 - 10.0,
        rng.below(2000) as f64 / 100.0 - 10.0,
        rng.below(6283) as f64 / 1000.0,
    )
}
