//! How sharply a curve turns: the least radius of curvature along it and the largest change
//! of heading between consecutive samples.

use super::{CubicBezier, CurveSample};

/// Joins whose directions differ by more than this (radians) are corners.
const CORNER: f64 = 1e-6;

/// Samples per piece at which the curvature is evaluated.
const CURVATURE_SAMPLES: usize = 64;

/// The least radius of curvature along a chain of pieces, in cells: `f64::INFINITY` when it
/// never turns, 0 where it turns a corner (two pieces meeting at different directions).
/// Curvature |B′ × B″| / |B′|³ is evaluated at 65 parameters of each curved piece.
pub fn radius_along(curves: &[CubicBezier]) -> f64 {
    let mut least = f64::INFINITY;
    for (i, curve) in curves.iter().enumerate() {
        if let Some(next) = curves.get(i + 1) {
            let turn = angle_between(curve.heading(1.0), next.heading(0.0));
            if turn > CORNER {
                return 0.0;
            }
        }
        if curve.is_straight() {
            continue;
        }
        let [p0, c1, c2, p1] = curve.points;
        for k in 0..=CURVATURE_SAMPLES {
            let t = k as f64 / CURVATURE_SAMPLES as f64;
            let velocity = curve.derivative(t);
            let acceleration =
                (c2 - c1 * 2.0 + p0) * (6.0 * (1.0 - t)) + (p1 - c2 * 2.0 + c1) * (6.0 * t);
            let speed = velocity.norm();
            if speed < 1e-12 {
                continue;
            }
            let cross = (velocity.x * acceleration.y - velocity.y * acceleration.x).abs();
            if cross > 0.0 {
                least = least.min(speed.powi(3) / cross);
            }
        }
    }
    least
}

/// The largest change of heading between two consecutive samples, in radians (0 to π).
pub fn max_heading_change(samples: &[CurveSample]) -> f64 {
    max_heading_change_along(samples.iter().copied())
}

/// [`max_heading_change`] of samples given one at a time (as
/// [`CurveSamples`](super::CurveSamples) gives them), holding none of them.
pub fn max_heading_change_along(samples: impl IntoIterator<Item = CurveSample>) -> f64 {
    let mut samples = samples.into_iter();
    let Some(mut before) = samples.next() else {
        return 0.0;
    };
    let mut largest = 0.0;
    for sample in samples {
        largest = f64::max(largest, angle_between(before.heading, sample.heading));
        before = sample;
    }
    largest
}

/// The angle between two headings, 0 to π.
pub fn angle_between(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(std::f64::consts::TAU);
    d.min(std::f64::consts::TAU - d)
}
