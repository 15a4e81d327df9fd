//! Optimal reciprocal collision avoidance: the velocity a unit may take so that it and each of
//! its neighbours, taking half the effort each, stay apart for a time horizon.
//!
//! Each neighbour (and each nearby wall) makes a half-plane of allowed velocities, a
//! [`Line`]: the feasible side lies to the left of its direction. The new velocity is the one
//! nearest the preferred velocity inside every half-plane and the disc of the top speed,
//! found by a randomised-incremental 2-D linear program. When the half-planes leave nothing,
//! the walls' half-planes stay hard and the velocity that least violates the units' is taken
//! (a 3-D program projected on the plane). This is the method of van den Berg, Guy, Lin and
//! Manocha, "Reciprocal n-body collision avoidance" (2011), in the form of their reference
//! library RVO2.

use super::vector::{Vec2, det};

/// Below this a denominator counts as zero.
const EPSILON: f64 = 1e-9;

/// A half-plane of velocities: those `v` with `det(direction, point − v) ≤ 0`, the left side
/// of the directed line through `point`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Line {
    /// A point on the boundary.
    pub point: Vec2,
    /// The boundary's unit direction; the allowed side is to its left.
    pub direction: Vec2,
}

impl Line {
    /// The half-plane `{v : v · normal ≥ offset}` for a unit `normal`.
    pub fn at_least(normal: Vec2, offset: f64) -> Line {
        Line {
            point: normal * offset,
            direction: Vec2::new(normal.y, -normal.x),
        }
    }

    /// Whether `v` lies outside by more than rounding.
    fn violated_by(&self, v: Vec2) -> bool {
        det(self.direction, self.point - v) > EPSILON
    }
}

/// The half-plane a neighbour makes: the unit at relative position `rel_pos` (the
/// neighbour's position minus ours) moving with relative velocity `rel_vel` (our velocity
/// minus the neighbour's), `radius` the sum of both radii, `share` the part of the avoidance
/// this unit takes (½ when both avoid; 1 when the neighbour will not move aside). Two discs
/// that already overlap are pushed apart within one `time_step`.
pub fn unit_line(
    velocity: Vec2,
    rel_pos: Vec2,
    rel_vel: Vec2,
    radius: f64,
    share: f64,
    horizon: f64,
    time_step: f64,
) -> Line {
    let dist_sq = rel_pos.length_sq();
    let radius_sq = radius * radius;
    let (direction, u);
    if dist_sq > radius_sq {
        let inv_horizon = 1.0 / horizon;
        // The vector from the cut-off centre to the relative velocity.
        let w = rel_vel - rel_pos * inv_horizon;
        let w_len_sq = w.length_sq();
        let dot1 = w.dot(rel_pos);
        if dot1 < 0.0 && dot1 * dot1 > radius_sq * w_len_sq {
            // Nearest the cut-off circle.
            let w_len = w_len_sq.sqrt();
            let unit_w = w / w_len;
            direction = Vec2::new(unit_w.y, -unit_w.x);
            u = unit_w * (radius * inv_horizon - w_len);
        } else {
            // Nearest one of the legs.
            let leg = (dist_sq - radius_sq).sqrt();
            direction = if det(rel_pos, w) > 0.0 {
                Vec2::new(
                    rel_pos.x * leg - rel_pos.y * radius,
                    rel_pos.x * radius + rel_pos.y * leg,
                ) / dist_sq
            } else {
                -Vec2::new(
                    rel_pos.x * leg + rel_pos.y * radius,
                    -rel_pos.x * radius + rel_pos.y * leg,
                ) / dist_sq
            };
            u = direction * rel_vel.dot(direction) - rel_vel;
        }
    } else {
        // Already touching: get apart within this step.
        let inv_step = 1.0 / time_step;
        let w = rel_vel - rel_pos * inv_step;
        let w_len = w.length();
        let unit_w = if w_len > EPSILON {
            w / w_len
        } else {
            // Exactly on top of each other with no relative motion: any way apart.
            Vec2::new(1.0, 0.0)
        };
        direction = Vec2::new(unit_w.y, -unit_w.x);
        u = unit_w * (radius * inv_step - w_len);
    }
    Line {
        point: velocity + u * share,
        direction,
    }
}

/// The velocity nearest `preferred` inside the disc of `max_speed` and every line; the
/// first `hard` lines (walls) are never given up, the others are relaxed together as little
/// as possible when nothing meets them all.
pub fn solve(lines: &[Line], hard: usize, max_speed: f64, preferred: Vec2) -> Vec2 {
    let mut result = Vec2::ZERO;
    let failed = program_2d(lines, max_speed, preferred, false, &mut result);
    if failed < lines.len() {
        program_3d(lines, hard, failed, max_speed, &mut result);
    }
    result
}

/// The optimum on line `i` subject to lines `0..i` and the speed disc; `false` when the
/// line misses the feasible region.
fn program_1d(
    lines: &[Line],
    i: usize,
    max_speed: f64,
    preferred: Vec2,
    direction_opt: bool,
    result: &mut Vec2,
) -> bool {
    let line = lines[i];
    let dot = line.point.dot(line.direction);
    let discriminant = dot * dot + max_speed * max_speed - line.point.length_sq();
    if discriminant < 0.0 {
        return false;
    }
    let root = discriminant.sqrt();
    let mut t_left = -dot - root;
    let mut t_right = -dot + root;
    for other in &lines[..i] {
        let denominator = det(line.direction, other.direction);
        let numerator = det(other.direction, line.point - other.point);
        if denominator.abs() <= EPSILON {
            // Parallel lines.
            if numerator < 0.0 {
                return false;
            }
            continue;
        }
        let t = numerator / denominator;
        if denominator >= 0.0 {
            t_right = t_right.min(t);
        } else {
            t_left = t_left.max(t);
        }
        if t_left > t_right {
            return false;
        }
    }
    let t = if direction_opt {
        if preferred.dot(line.direction) > 0.0 {
            t_right
        } else {
            t_left
        }
    } else {
        line.direction
            .dot(preferred - line.point)
            .clamp(t_left, t_right)
    };
    *result = line.point + line.direction * t;
    true
}

/// The velocity nearest `preferred` (or, with `direction_opt`, furthest along it) within the
/// speed disc and every line; answers the index of the first line that could not be met, or
/// `lines.len()` when all were.
fn program_2d(
    lines: &[Line],
    max_speed: f64,
    preferred: Vec2,
    direction_opt: bool,
    result: &mut Vec2,
) -> usize {
    *result = if direction_opt {
        preferred * max_speed
    } else if preferred.length_sq() > max_speed * max_speed {
        preferred.normalized() * max_speed
    } else {
        preferred
    };
    for i in 0..lines.len() {
        if lines[i].violated_by(*result) {
            let kept = *result;
            if !program_1d(lines, i, max_speed, preferred, direction_opt, result) {
                *result = kept;
                return i;
            }
        }
    }
    lines.len()
}

/// When lines `first_failed..` could not all be met: the velocity that minimises the largest
/// violation of the soft lines while meeting the first `hard` ones.
fn program_3d(lines: &[Line], hard: usize, first_failed: usize, max_speed: f64, result: &mut Vec2) {
    let mut distance = 0.0;
    let mut projected: Vec<Line> = Vec::with_capacity(lines.len());
    for i in first_failed..lines.len() {
        if det(lines[i].direction, lines[i].point - *result) <= distance {
            continue;
        }
        projected.clear();
        projected.extend_from_slice(&lines[..hard]);
        for j in hard..i {
            let denominator = det(lines[i].direction, lines[j].direction);
            let point = if denominator.abs() <= EPSILON {
                if lines[i].direction.dot(lines[j].direction) > 0.0 {
                    // Parallel and pointing the same way.
                    continue;
                }
                (lines[i].point + lines[j].point) * 0.5
            } else {
                lines[i].point
                    + lines[i].direction
                        * (det(lines[j].direction, lines[i].point - lines[j].point) / denominator)
            };
            let direction = (lines[j].direction - lines[i].direction).normalized();
            projected.push(Line { point, direction });
        }
        let kept = *result;
        let towards = Vec2::new(-lines[i].direction.y, lines[i].direction.x);
        if program_2d(&projected, max_speed, towards, true, result) < projected.len() {
            // Rounding only: keep the last result.
            *result = kept;
        }
        distance = det(lines[i].direction, lines[i].point - *result);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_no_lines_the_preferred_velocity_is_kept_within_the_top_speed() {
        assert_eq!(solve(&[], 0, 2.0, Vec2::new(1.0, 0.5)), Vec2::new(1.0, 0.5));
        let fast = solve(&[], 0, 2.0, Vec2::new(3.0, 4.0));
        assert!((fast.length() - 2.0).abs() < 1e-12);
    }

    #[test]
    fn a_wall_half_plane_is_never_crossed() {
        // v · (−1, 0) ≥ 0: no motion to the right.
        let wall = Line::at_least(Vec2::new(-1.0, 0.0), 0.0);
        let v = solve(&[wall], 1, 2.0, Vec2::new(2.0, 0.5));
        assert!(v.x <= 1e-12 && (v.y - 0.5).abs() < 1e-12, "{v:?}");
    }

    #[test]
    fn two_units_head_on_each_take_half_and_pass() {
        // Two units 4 apart, radii sum 1, closing at 2 each: both turn aside, opposite ways.
        let (a, b) = (Vec2::new(0.0, 0.0), Vec2::new(4.0, 0.0));
        let (va, vb) = (Vec2::new(1.0, 0.0), Vec2::new(-1.0, 0.0));
        let la = unit_line(va, b - a, va - vb, 1.0, 0.5, 10.0, 0.1);
        let lb = unit_line(vb, a - b, vb - va, 1.0, 0.5, 10.0, 0.1);
        let na = solve(&[la], 0, 1.0, va);
        let nb = solve(&[lb], 0, 1.0, vb);
        // Their relative motion now misses: the closest approach over the horizon is at
        // least the radii sum.
        let (p, v) = (b - a, nb - na);
        let t = (-p.dot(v) / v.length_sq()).clamp(0.0, 10.0);
        assert!((p + v * t).length() >= 1.0 - 1e-9, "{na:?} {nb:?}");
    }

    #[test]
    fn when_nothing_is_feasible_the_walls_hold_and_the_rest_give() {
        let wall = Line::at_least(Vec2::new(0.0, 1.0), 0.0); // v.y ≥ 0
        let push = Line::at_least(Vec2::new(0.0, -1.0), 1.0); // v.y ≤ −1, against the wall
        let v = solve(&[wall, push], 1, 2.0, Vec2::new(0.0, -1.0));
        assert!(v.y >= -1e-9, "{v:?}");
    }
}
