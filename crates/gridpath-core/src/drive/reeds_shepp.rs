//! Reeds–Shepp curves: the shortest path of a car that drives forward and in reverse, turning
//! no tighter than a radius (Reeds and Shepp 1990). It is one of 48 words of at most five
//! pieces; each family has a closed form, used as it is and under the symmetries of time-flip
//! (every piece driven the other way) and reflection (left and right swapped), and — for the
//! words read backwards — from the goal to the start. The formulas are the paper's 8.1–8.11
//! in the form OMPL evaluates them, with the paper's typos fixed.
//!
//! ```
//! use gridpath_core::drive::{Pose, dubins, reeds_shepp};
//!
//! let from = Pose::new(0.0, 0.0, 0.0);
//! // Three cells straight behind: back up.
//! let back = reeds_shepp::shortest(from, Pose::new(-3.0, 0.0, 0.0), 1.0).expect("a curve");
//! assert!((back.length() - 3.0).abs() < 1e-9);
//! // Never longer than driving forward only.
//! let to = Pose::new(1.0, 2.0, 2.0);
//! assert!(reeds_shepp::distance(from, to, 1.0) <= dubins::distance(from, to, 1.0) + 1e-9);
//! ```

use std::f64::consts::{FRAC_PI_2, PI, TAU};

use super::pose::{Curve, Gear, Piece, Pose, Steer};

/// Lengths nearer zero than this count as zero (the closed forms round).
const ZERO: f64 = 1e-10;

use Steer::{Left as L, Right as R, Straight as S};

/// The word shapes, by index (OMPL's order).
const SHAPES: [&[Steer]; 18] = [
    &[L, R, L],
    &[R, L, R],
    &[L, R, L, R],
    &[R, L, R, L],
    &[L, R, S, L],
    &[R, L, S, R],
    &[L, S, R, L],
    &[R, S, L, R],
    &[L, R, S, R],
    &[R, L, S, L],
    &[R, S, R, L],
    &[L, S, L, R],
    &[L, S, R],
    &[R, S, L],
    &[L, S, L],
    &[R, S, R],
    &[L, R, S, L, R],
    &[R, L, S, R, L],
];

/// An angle brought into (−π, π].
fn mod2pi(x: f64) -> f64 {
    let mut v = x % TAU;
    if v < -PI {
        v += TAU;
    } else if v > PI {
        v -= TAU;
    }
    v
}

/// Polar coordinates `(r, θ)` of `(x, y)`.
fn polar(x: f64, y: f64) -> (f64, f64) {
    (x.hypot(y), y.atan2(x))
}

fn tau_omega(u: f64, v: f64, xi: f64, eta: f64, phi: f64) -> (f64, f64) {
    let delta = mod2pi(u - v);
    let a = u.sin() - delta.sin();
    let b = u.cos() - delta.cos() - 1.0;
    let t1 = (eta * a - xi * b).atan2(xi * a + eta * b);
    let t2 = 2.0 * (delta.cos() - v.cos() - u.cos()) + 3.0;
    let tau = if t2 < 0.0 {
        mod2pi(t1 + PI)
    } else {
        mod2pi(t1)
    };
    let omega = mod2pi(tau - u + v - phi);
    (tau, omega)
}

type Lengths = (f64, f64, f64);

// 8.1
fn lp_sp_lp(x: f64, y: f64, phi: f64) -> Option<Lengths> {
    let (u, t) = polar(x - phi.sin(), y - 1.0 + phi.cos());
    if t >= -ZERO {
        let v = mod2pi(phi - t);
        if v >= -ZERO {
            return Some((t, u, v));
        }
    }
    None
}

// 8.2
fn lp_sp_rp(x: f64, y: f64, phi: f64) -> Option<Lengths> {
    let (u1, t1) = polar(x + phi.sin(), y - 1.0 - phi.cos());
    let u1 = u1 * u1;
    if u1 >= 4.0 {
        let u = (u1 - 4.0).sqrt();
        let theta = 2.0f64.atan2(u);
        let t = mod2pi(t1 + theta);
        let v = mod2pi(t - phi);
        if t >= -ZERO && v >= -ZERO {
            return Some((t, u, v));
        }
    }
    None
}

// 8.3
fn lp_rm_l(x: f64, y: f64, phi: f64) -> Option<Lengths> {
    let (u1, theta) = polar(x - phi.sin(), y - 1.0 + phi.cos());
    if u1 <= 4.0 {
        let u = -2.0 * (0.25 * u1).asin();
        let t = mod2pi(theta + 0.5 * u + PI);
        let v = mod2pi(phi - t + u);
        if t >= -ZERO && u <= ZERO {
            return Some((t, u, v));
        }
    }
    None
}

// 8.7
fn lp_rup_lum_rm(x: f64, y: f64, phi: f64) -> Option<Lengths> {
    let (xi, eta) = (x + phi.sin(), y - 1.0 - phi.cos());
    let rho = 0.25 * (2.0 + xi.hypot(eta));
    if rho <= 1.0 {
        let u = rho.acos();
        let (t, v) = tau_omega(u, -u, xi, eta, phi);
        if t >= -ZERO && v <= ZERO {
            return Some((t, u, v));
        }
    }
    None
}

// 8.8
fn lp_rum_lum_rp(x: f64, y: f64, phi: f64) -> Option<Lengths> {
    let (xi, eta) = (x + phi.sin(), y - 1.0 - phi.cos());
    let rho = (20.0 - xi * xi - eta * eta) / 16.0;
    if (0.0..=1.0).contains(&rho) {
        let u = -rho.acos();
        if u >= -FRAC_PI_2 {
            let (t, v) = tau_omega(u, u, xi, eta, phi);
            if t >= -ZERO && v >= -ZERO {
                return Some((t, u, v));
            }
        }
    }
    None
}

// 8.9
fn lp_rm_sm_lm(x: f64, y: f64, phi: f64) -> Option<Lengths> {
    let (rho, theta) = polar(x - phi.sin(), y - 1.0 + phi.cos());
    if rho >= 2.0 {
        let r = (rho * rho - 4.0).sqrt();
        let u = 2.0 - r;
        let t = mod2pi(theta + r.atan2(-2.0));
        let v = mod2pi(phi - FRAC_PI_2 - t);
        if t >= -ZERO && u <= ZERO && v <= ZERO {
            return Some((t, u, v));
        }
    }
    None
}

// 8.10
fn lp_rm_sm_rm(x: f64, y: f64, phi: f64) -> Option<Lengths> {
    let (xi, eta) = (x + phi.sin(), y - 1.0 - phi.cos());
    let (rho, theta) = polar(-eta, xi);
    if rho >= 2.0 {
        let t = theta;
        let u = 2.0 - rho;
        let v = mod2pi(t + FRAC_PI_2 - phi);
        if t >= -ZERO && u <= ZERO && v <= ZERO {
            return Some((t, u, v));
        }
    }
    None
}

// 8.11
fn lp_rm_s_lm_rp(x: f64, y: f64, phi: f64) -> Option<Lengths> {
    let (xi, eta) = (x + phi.sin(), y - 1.0 - phi.cos());
    let (rho, _) = polar(xi, eta);
    if rho >= 2.0 {
        let u = 4.0 - (rho * rho - 4.0).sqrt();
        if u <= ZERO {
            let t = mod2pi(((4.0 - u) * xi - 2.0 * eta).atan2(-2.0 * xi + (u - 4.0) * eta));
            let v = mod2pi(t - phi);
            if t >= -ZERO && v >= -ZERO {
                return Some((t, u, v));
            }
        }
    }
    None
}

/// Every candidate word for the local goal `(x, y, phi)` (radius 1): its shape and signed
/// lengths (negative: reverse).
fn candidates(x: f64, y: f64, phi: f64) -> Vec<(usize, Vec<f64>)> {
    let mut out: Vec<(usize, Vec<f64>)> = Vec::new();
    let mut add = |shape: usize, lengths: &[f64]| out.push((shape, lengths.to_vec()));
    // The four symmetric uses of one formula: as is, time-flipped, reflected, both.
    let uses = [
        (x, y, phi, 1.0, false),
        (-x, y, -phi, -1.0, false),
        (x, -y, -phi, 1.0, true),
        (-x, -y, phi, -1.0, true),
    ];
    let (xb, yb) = (x * phi.cos() + y * phi.sin(), x * phi.sin() - y * phi.cos());
    let back = [
        (xb, yb, phi, 1.0, false),
        (-xb, yb, -phi, -1.0, false),
        (xb, -yb, -phi, 1.0, true),
        (-xb, -yb, phi, -1.0, true),
    ];
    for &(x, y, phi, s, reflect) in &uses {
        let pick = |a: usize, b: usize| if reflect { b } else { a };
        // CSC
        if let Some((t, u, v)) = lp_sp_lp(x, y, phi) {
            add(pick(14, 15), &[s * t, s * u, s * v]);
        }
        if let Some((t, u, v)) = lp_sp_rp(x, y, phi) {
            add(pick(12, 13), &[s * t, s * u, s * v]);
        }
        // CCC
        if let Some((t, u, v)) = lp_rm_l(x, y, phi) {
            add(pick(0, 1), &[s * t, s * u, s * v]);
        }
        // CCCC
        if let Some((t, u, v)) = lp_rup_lum_rm(x, y, phi) {
            add(pick(2, 3), &[s * t, s * u, -s * u, s * v]);
        }
        if let Some((t, u, v)) = lp_rum_lum_rp(x, y, phi) {
            add(pick(2, 3), &[s * t, s * u, s * u, s * v]);
        }
        // CCSC
        if let Some((t, u, v)) = lp_rm_sm_lm(x, y, phi) {
            add(pick(4, 5), &[s * t, -s * FRAC_PI_2, s * u, s * v]);
        }
        if let Some((t, u, v)) = lp_rm_sm_rm(x, y, phi) {
            add(pick(8, 9), &[s * t, -s * FRAC_PI_2, s * u, s * v]);
        }
        // CCSCC
        if let Some((t, u, v)) = lp_rm_s_lm_rp(x, y, phi) {
            add(
                pick(16, 17),
                &[s * t, -s * FRAC_PI_2, s * u, -s * FRAC_PI_2, s * v],
            );
        }
    }
    for &(x, y, phi, s, reflect) in &back {
        let pick = |a: usize, b: usize| if reflect { b } else { a };
        if let Some((t, u, v)) = lp_rm_l(x, y, phi) {
            add(pick(0, 1), &[s * v, s * u, s * t]);
        }
        if let Some((t, u, v)) = lp_rm_sm_lm(x, y, phi) {
            add(pick(6, 7), &[s * v, s * u, -s * FRAC_PI_2, s * t]);
        }
        if let Some((t, u, v)) = lp_rm_sm_rm(x, y, phi) {
            add(pick(10, 11), &[s * v, s * u, -s * FRAC_PI_2, s * t]);
        }
    }
    out
}

/// The word `(shape, lengths)` as a curve from `from` with `radius`.
fn curve(from: Pose, radius: f64, shape: usize, lengths: &[f64]) -> Curve {
    let pieces = SHAPES[shape]
        .iter()
        .zip(lengths)
        .filter(|(_, l)| l.abs() > 1e-12)
        .map(|(&steer, &l)| Piece {
            steer,
            gear: if l < 0.0 {
                Gear::Reverse
            } else {
                Gear::Forward
            },
            length: l.abs() * radius,
        })
        .collect();
    Curve::new(from, radius, pieces)
}

/// The goal in the start's frame, in radii.
fn local(from: Pose, to: Pose, radius: f64) -> (f64, f64, f64) {
    let (dx, dy) = ((to.x - from.x) / radius, (to.y - from.y) / radius);
    let (s, c) = from.theta.sin_cos();
    (c * dx + s * dy, -s * dx + c * dy, to.theta - from.theta)
}

/// Every Reeds–Shepp word that joins `from` to `to`, shortest first.
pub fn all(from: Pose, to: Pose, radius: f64) -> Vec<Curve> {
    let (x, y, phi) = local(from, to, radius);
    let mut words: Vec<(f64, Curve)> = candidates(x, y, phi)
        .into_iter()
        .map(|(shape, lengths)| {
            let total: f64 = lengths.iter().map(|l| l.abs()).sum();
            (total, curve(from, radius, shape, &lengths))
        })
        .collect();
    words.sort_by(|a, b| a.0.total_cmp(&b.0));
    words.into_iter().map(|(_, c)| c).collect()
}

/// The shortest Reeds–Shepp curve (`None` only for inputs that are not finite or a radius that
/// is not positive).
pub fn shortest(from: Pose, to: Pose, radius: f64) -> Option<Curve> {
    if !(radius > 0.0 && radius.is_finite() && from.is_finite() && to.is_finite()) {
        return None;
    }
    let (x, y, phi) = local(from, to, radius);
    candidates(x, y, phi)
        .into_iter()
        .min_by(|a, b| {
            let la: f64 = a.1.iter().map(|l| l.abs()).sum();
            let lb: f64 = b.1.iter().map(|l| l.abs()).sum();
            la.total_cmp(&lb)
        })
        .map(|(shape, lengths)| curve(from, radius, shape, &lengths))
}

/// The length of the shortest Reeds–Shepp curve.
pub fn distance(from: Pose, to: Pose, radius: f64) -> f64 {
    let (x, y, phi) = local(from, to, radius);
    candidates(x, y, phi)
        .iter()
        .map(|(_, lengths)| lengths.iter().map(|l| l.abs()).sum::<f64>())
        .fold(f64::INFINITY, f64::min)
        * radius
}

#[cfg(test)]
mod tests {
    use super::super::dubins;
    use super::super::pose::angle_between;
    use super::super::pose::random_pose;
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn every_word_ends_on_the_goal_pose() {
        let mut rng = Rng::new(5);
        let mut words = 0;
        for _ in 0..2000 {
            let (from, to) = (random_pose(&mut rng), random_pose(&mut rng));
            let radius = 0.5 + rng.below(300) as f64 / 100.0;
            for curve in all(from, to, radius) {
                let end = curve.end();
                assert!(
                    end.distance(to) < 1e-6 && angle_between(end.theta, to.theta) < 1e-6,
                    "{from:?} -> {to:?} r {radius}: {:?} ended at {end:?}",
                    curve.pieces
                );
                words += 1;
            }
        }
        assert!(words > 10_000, "only {words} words");
    }

    #[test]
    fn the_shortest_is_symmetric_and_never_longer_than_forward_only() {
        let mut rng = Rng::new(9);
        for _ in 0..2000 {
            let (from, to) = (random_pose(&mut rng), random_pose(&mut rng));
            let there = distance(from, to, 1.0);
            // Driving the reverse of a path backwards: the distance is a metric.
            let back = distance(to, from, 1.0);
            assert!((there - back).abs() < 1e-6, "{there} there, {back} back");
            assert!(there <= dubins::distance(from, to, 1.0) + 1e-9);
            assert!(there >= from.distance(to) - 1e-9);
        }
    }
}
