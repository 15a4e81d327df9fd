//! Dubins curves: the shortest path of a car that drives forward only, turning no tighter than
//! a radius, from one pose to another (Dubins 1957). It is one of six words of at most three
//! pieces — a left arc, a right arc or a straight line — and each word's lengths have a closed
//! form (Shkel and Lumelsky 2001); the shortest word is the answer.
//!
//! Coordinates are the map's: x to the right, y down the rows, so that a heading θ points at
//! (cos θ, sin θ) and a *left* turn ([`Steer::Left`]) increases θ. The names follow the
//! mathematics, not the screen: on the screen, with y down, a "left" arc bends clockwise.
//!
//! ```
//! use gridpath_core::drive::{Pose, dubins};
//!
//! let from = Pose::new(0.0, 0.0, 0.0);
//! // Straight ahead: the straight line.
//! let ahead = dubins::shortest(from, Pose::new(5.0, 0.0, 0.0), 1.0).expect("a curve");
//! assert!((ahead.length() - 5.0).abs() < 1e-9);
//! // Turned round on the spot is impossible: half a circle each way and a bit.
//! let back = dubins::shortest(from, Pose::new(0.0, 0.0, std::f64::consts::PI), 1.0).unwrap();
//! assert!(back.length() > std::f64::consts::PI);
//! ```

use std::f64::consts::TAU;

use super::pose::{Curve, Gear, Piece, Pose, Steer, wrap};

/// The six Dubins words, by the steering of their three pieces.
const WORDS: [[Steer; 3]; 6] = [
    [Steer::Left, Steer::Straight, Steer::Left],
    [Steer::Right, Steer::Straight, Steer::Right],
    [Steer::Left, Steer::Straight, Steer::Right],
    [Steer::Right, Steer::Straight, Steer::Left],
    [Steer::Right, Steer::Left, Steer::Right],
    [Steer::Left, Steer::Right, Steer::Left],
];

/// The normalised lengths `(t, p, q)` of one word from the standard local frame: the start at
/// the origin with heading `alpha`, the goal at `(d, 0)` with heading `beta`, radius 1.
fn word(index: usize, alpha: f64, beta: f64, d: f64) -> Option<(f64, f64, f64)> {
    let (t, p, q) = raw_word(index, alpha, beta, d)?;
    // An arc a rounding error short of a full circle is no arc: the pose it returns to is
    // the same, and a full circle would be driven for nothing.
    let turn = |v: f64| if TAU - v < 1e-9 { 0.0 } else { v };
    let (t, q) = (turn(t), turn(q));
    let p = if index >= 4 { turn(p) } else { p };
    // When the straight piece of LSL or RSR vanishes, the two arcs are one circle and its
    // split between them is arbitrary (an angle of a vector of length 0): one arc turns it all.
    if p < 1e-6 && index < 2 {
        let all = if index == 0 {
            wrap(beta - alpha)
        } else {
            wrap(alpha - beta)
        };
        return Some((turn(all), 0.0, 0.0));
    }
    Some((t, p, q))
}

/// The closed forms, as they come.
fn raw_word(index: usize, alpha: f64, beta: f64, d: f64) -> Option<(f64, f64, f64)> {
    let (sa, ca) = alpha.sin_cos();
    let (sb, cb) = beta.sin_cos();
    let cab = (alpha - beta).cos();
    match index {
        0 => {
            // LSL
            let p2 = 2.0 + d * d - 2.0 * cab + 2.0 * d * (sa - sb);
            if p2 < -1e-9 {
                return None;
            }
            let p2 = p2.max(0.0);
            let tmp = (cb - ca).atan2(d + sa - sb);
            Some((wrap(tmp - alpha), p2.sqrt(), wrap(beta - tmp)))
        }
        1 => {
            // RSR
            let p2 = 2.0 + d * d - 2.0 * cab + 2.0 * d * (sb - sa);
            if p2 < -1e-9 {
                return None;
            }
            let p2 = p2.max(0.0);
            let tmp = (ca - cb).atan2(d - sa + sb);
            Some((wrap(alpha - tmp), p2.sqrt(), wrap(tmp - beta)))
        }
        2 => {
            // LSR
            let p2 = -2.0 + d * d + 2.0 * cab + 2.0 * d * (sa + sb);
            if p2 < -1e-9 {
                return None;
            }
            let p2 = p2.max(0.0);
            let p = p2.sqrt();
            let tmp = (-ca - cb).atan2(d + sa + sb) - (-2.0f64).atan2(p);
            Some((wrap(tmp - alpha), p, wrap(tmp - beta)))
        }
        3 => {
            // RSL
            let p2 = -2.0 + d * d + 2.0 * cab - 2.0 * d * (sa + sb);
            if p2 < -1e-9 {
                return None;
            }
            let p2 = p2.max(0.0);
            let p = p2.sqrt();
            let tmp = (ca + cb).atan2(d - sa - sb) - 2.0f64.atan2(p);
            Some((wrap(alpha - tmp), p, wrap(beta - tmp)))
        }
        4 => {
            // RLR
            let c = (6.0 - d * d + 2.0 * cab + 2.0 * d * (sa - sb)) / 8.0;
            if c.abs() > 1.0 {
                return None;
            }
            let p = wrap(TAU - c.acos());
            let t = wrap(alpha - (ca - cb).atan2(d - sa + sb) + p / 2.0);
            Some((t, p, wrap(alpha - beta - t + p)))
        }
        _ => {
            // LRL
            let c = (6.0 - d * d + 2.0 * cab + 2.0 * d * (sb - sa)) / 8.0;
            if c.abs() > 1.0 {
                return None;
            }
            let p = wrap(TAU - c.acos());
            let t = wrap(-alpha - (ca - cb).atan2(d + sa - sb) + p / 2.0);
            Some((t, p, wrap(beta - alpha - t + p)))
        }
    }
}

/// The standard local frame of a pair of poses: the start's and goal's headings measured from
/// the line between them, and their distance in radii.
fn local(from: Pose, to: Pose, radius: f64) -> (f64, f64, f64) {
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    let d = dx.hypot(dy) / radius;
    let theta = if d > 0.0 { dy.atan2(dx) } else { 0.0 };
    (wrap(from.theta - theta), wrap(to.theta - theta), d)
}

/// Every Dubins word that joins `from` to `to` with turning radius `radius`, shortest first.
pub fn all(from: Pose, to: Pose, radius: f64) -> Vec<Curve> {
    let (alpha, beta, d) = local(from, to, radius);
    let mut curves: Vec<Curve> = (0..WORDS.len())
        .filter_map(|i| {
            let (t, p, q) = word(i, alpha, beta, d)?;
            let pieces = WORDS[i]
                .iter()
                .zip([t, p, q])
                .filter(|(_, length)| *length > 1e-12)
                .map(|(&steer, length)| Piece {
                    steer,
                    gear: Gear::Forward,
                    length: length * radius,
                })
                .collect();
            Some(Curve::new(from, radius, pieces))
        })
        .collect();
    curves.sort_by(|a, b| a.length().total_cmp(&b.length()));
    curves
}

/// The shortest Dubins curve from `from` to `to` with turning radius `radius` (`None` only for
/// poses that are not finite or a radius that is not positive).
pub fn shortest(from: Pose, to: Pose, radius: f64) -> Option<Curve> {
    if !(radius > 0.0 && radius.is_finite() && from.is_finite() && to.is_finite()) {
        return None;
    }
    all(from, to, radius).into_iter().next()
}

/// The length of the shortest Dubins curve, without building it.
pub fn distance(from: Pose, to: Pose, radius: f64) -> f64 {
    let (alpha, beta, d) = local(from, to, radius);
    (0..WORDS.len())
        .filter_map(|i| word(i, alpha, beta, d).map(|(t, p, q)| t + p + q))
        .fold(f64::INFINITY, f64::min)
        * radius
}

#[cfg(test)]
mod tests {
    use super::super::pose::random_pose;
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn every_word_ends_on_the_goal_pose() {
        let mut rng = Rng::new(7);
        for _ in 0..500 {
            let (from, to) = (random_pose(&mut rng), random_pose(&mut rng));
            let radius = 0.5 + rng.below(300) as f64 / 100.0;
            let curves = all(from, to, radius);
            assert!(!curves.is_empty(), "a CSC word always exists");
            for curve in curves {
                let end = curve.end();
                assert!(
                    end.distance(to) < 1e-7
                        && super::super::pose::angle_between(end.theta, to.theta) < 1e-7,
                    "{from:?} -> {to:?} r {radius}: ended at {end:?}"
                );
            }
        }
    }

    #[test]
    fn the_shortest_is_the_least_word_and_never_shorter_than_the_straight_line() {
        let mut rng = Rng::new(11);
        for _ in 0..100 {
            let (from, to) = (random_pose(&mut rng), random_pose(&mut rng));
            let best = distance(from, to, 1.0);
            assert!(
                best >= from.distance(to) - 1e-9,
                "never shorter than the straight line"
            );
            let curve = shortest(from, to, 1.0).unwrap();
            assert!((curve.length() - best).abs() < 1e-9);
        }
    }

    #[test]
    fn known_lengths() {
        let from = Pose::new(0.0, 0.0, 0.0);
        // A quarter turn to the left: a quarter circle.
        let quarter = distance(from, Pose::new(1.0, 1.0, std::f64::consts::FRAC_PI_2), 1.0);

        assert!((quarter - std::f64::consts::FRAC_PI_2).abs() < 1e-9);
        // Sideways by two radii, facing back: half a circle.
        let half = distance(from, Pose::new(0.0, 2.0, std::f64::consts::PI), 1.0);
        assert!((half - std::f64::consts::PI).abs() < 1e-9);
    }
}
