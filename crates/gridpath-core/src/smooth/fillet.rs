//! Corners turned on circular arcs of a bounded radius: the curve a vehicle with a minimum
//! turning radius can follow.
//!
//! At each interior waypoint the polyline turns by an angle θ. A circular arc of radius r
//! tangent to both segments meets them r · tan(θ / 2) before and after the waypoint; the arc
//! (as cubic Bezier pieces of at most a quarter turn each, handles 4/3 · tan(φ / 4) · r long
//! for a piece turning φ) replaces the corner, and straight pieces along the segments join the
//! arcs. The radius is the bound asked for, shrunk where the segments are too short to hold the
//! arc (each corner may use up to half of a segment it shares with another corner, and all of
//! the first and last segments) or where the arc would come nearer than the clearance to a
//! wall; an arc that keeps the clearance at no radius leaves the corner as it is. Where the
//! radius had to shrink, the corner is first moved outwards along its bisector, a quarter of a
//! cell at a time, to the first place where both its segments keep the clearance and the arc
//! has the whole radius (a wide turn, as a vehicle takes a tight corner); the corner stays
//! where it was when there is no such place.

use crate::grid::Grid;

use super::clearance::segment_keeps_clearance;
use super::curve::is_safe;
use super::{CubicBezier, Point};

/// The radii tried in turn, as fractions of the largest that fits, before a corner is left
/// sharp.
const SHRINK: [f64; 6] = [1.0, 0.7, 0.5, 0.35, 0.25, 0.125];

/// Turns below this angle (radians) are left as they are: the segments are in line.
const STRAIGHT: f64 = 1e-9;

/// A chain of straight pieces and arcs through `waypoints`, turning each corner on an arc of
/// radius `radius` where it fits (see the module's description).
pub fn fit_fillets(
    grid: &Grid,
    waypoints: &[Point],
    radius: f64,
    clearance: f64,
) -> Vec<CubicBezier> {
    let n = waypoints.len();
    if n < 2 {
        return Vec::new();
    }
    let mut points = waypoints.to_vec();
    let mut curves = Vec::new();
    // Where the path stands after the last arc.
    let mut at = points[0];
    for i in 1..n - 1 {
        let ends = (i == 1, i == n - 2);
        let (before, corner, after) = (points[i - 1], points[i], points[i + 1]);
        let mut turned = corner_arc(grid, [before, corner, after], at, ends, radius, clearance);
        if turned
            .as_ref()
            .is_some_and(|(_, r)| *r < radius * (1.0 - 1e-9))
        {
            // Too tight where it is: turn wide, the corner moved outwards along its bisector
            // as far as both its segments keep the clearance, when the arc then has the
            // whole radius.
            let wide = wide_corner(grid, [before, corner, after], at, ends, radius, clearance);
            if let Some((moved, pieces)) = wide {
                points[i] = moved;
                turned = Some((pieces, radius));
            }
        }
        match turned {
            Some((pieces, _)) if !pieces.is_empty() => {
                let enter = pieces[0].start();
                if enter != at {
                    curves.push(CubicBezier::straight(at, enter));
                }
                at = pieces[pieces.len() - 1].end();
                curves.extend(pieces);
            }
            Some(_) => {}
            None => {
                curves.push(CubicBezier::straight(at, corner));
                at = corner;
            }
        }
    }
    let end = waypoints[n - 1];
    if at != end || curves.is_empty() {
        curves.push(CubicBezier::straight(at, end));
    }
    curves
}

/// The arc at `corner` between the segments from `before` and to `after`, the path standing
/// at `at`, `ends` saying whether the corner is the first or the last one: the pieces and the
/// radius reached; no pieces when the segments are in line (or one is empty); `None` when no
/// radius keeps the clearance.
fn corner_arc(
    grid: &Grid,
    [before, corner, after]: [Point; 3],
    at: Point,
    (first, last): (bool, bool),
    radius: f64,
    clearance: f64,
) -> Option<(Vec<CubicBezier>, f64)> {
    let (len_in, len_out) = (before.distance(corner), corner.distance(after));
    if len_in == 0.0 || len_out == 0.0 {
        return Some((Vec::new(), f64::INFINITY));
    }
    let u_in = (corner - before) * (1.0 / len_in);
    let u_out = (after - corner) * (1.0 / len_out);
    let cross = u_in.x * u_out.y - u_in.y * u_out.x;
    let dot = u_in.x * u_out.x + u_in.y * u_out.y;
    let turn = cross.atan2(dot);
    if turn.abs() < STRAIGHT {
        return Some((Vec::new(), f64::INFINITY));
    }
    let half_tan = (turn.abs() / 2.0).tan();
    // The room on each side: half a segment shared with another corner, else all of it,
    // and never behind where the path already stands.
    let room_in = if first { len_in } else { len_in / 2.0 }.min(at.distance(corner));
    let room_out = if last { len_out } else { len_out / 2.0 };
    let largest = (radius * half_tan).min(room_in).min(room_out) / half_tan;
    SHRINK.iter().filter(|_| largest > 1e-9).find_map(|&f| {
        let r = largest * f;
        let pieces = arc(corner, u_in, u_out, turn, r);
        pieces
            .iter()
            .all(|p| is_safe(grid, p, clearance))
            .then_some((pieces, r))
    })
}

/// The steps, in cells, by which [`wide_corner`] moves a corner outwards, and how many.
const WIDE_STEP: f64 = 0.25;
const WIDE_STEPS: usize = 64;

/// The corner moved outwards (away from the side the path turns to, along the bisector) by
/// the least multiple of [`WIDE_STEP`] at which both its segments keep the clearance and its
/// arc has the whole radius, with that arc; `None` when no such place is found.
fn wide_corner(
    grid: &Grid,
    [before, corner, after]: [Point; 3],
    at: Point,
    ends: (bool, bool),
    radius: f64,
    clearance: f64,
) -> Option<(Point, Vec<CubicBezier>)> {
    let u_in = corner - before;
    let u_out = after - corner;
    let (l_in, l_out) = (u_in.norm(), u_out.norm());
    if l_in == 0.0 || l_out == 0.0 {
        return None;
    }
    let outwards = u_in * (1.0 / l_in) - u_out * (1.0 / l_out);
    let length = outwards.norm();
    if length < 1e-12 {
        return None;
    }
    let outwards = outwards * (1.0 / length);
    (1..=WIDE_STEPS).find_map(|k| {
        let moved = corner + outwards * (WIDE_STEP * k as f64);
        let keeps = |a: Point, b: Point| segment_keeps_clearance(grid, a, b, clearance);
        if !(keeps(at, moved) && keeps(moved, after)) {
            return None;
        }
        let (pieces, r) = corner_arc(grid, [before, moved, after], at, ends, radius, clearance)?;
        (r >= radius * (1.0 - 1e-9) && !pieces.is_empty()).then_some((moved, pieces))
    })
}

/// The arc of radius `r` turning by `turn` (signed, radians) at `corner` from direction `u_in`
/// to `u_out`, as cubic pieces of at most a quarter turn each.
fn arc(corner: Point, u_in: Point, u_out: Point, turn: f64, r: f64) -> Vec<CubicBezier> {
    let d = r * (turn.abs() / 2.0).tan();
    let start = corner - u_in * d;
    // The centre lies r to the side the path turns to.
    let side = if turn > 0.0 { 1.0 } else { -1.0 };
    let normal = Point::new(-u_in.y, u_in.x) * side;
    let centre = start + normal * r;
    let parts = (turn.abs() / std::f64::consts::FRAC_PI_2).ceil().max(1.0) as usize;
    let step = turn / parts as f64;
    let handle = 4.0 / 3.0 * (step.abs() / 4.0).tan() * r;
    let heading0 = u_in.y.atan2(u_in.x);
    let mut pieces = Vec::with_capacity(parts);
    let point_at = |k: usize| {
        // The radius vector from the centre, rotated with the heading.
        let angle = heading0 + step * k as f64;
        let (s, c) = angle.sin_cos();
        let radial = Point::new(s, -c) * (side * r);
        (centre + radial, Point::new(c, s))
    };
    for k in 0..parts {
        let (p0, t0) = point_at(k);
        let (p1, t1) = point_at(k + 1);
        let p0 = if k == 0 { start } else { p0 };
        let p1 = if k + 1 == parts {
            corner + u_out * d
        } else {
            p1
        };
        pieces.push(CubicBezier::new(p0, p0 + t0 * handle, p1 - t1 * handle, p1));
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Cell;
    use crate::smooth::turning::radius_along;

    #[test]
    fn an_open_corner_turns_on_the_radius_asked_for() {
        let grid = Grid::from_ascii(&["........"; 8]).unwrap();
        let points: Vec<Point> = [(0, 1), (6, 1), (6, 7)]
            .into_iter()
            .map(|(x, y)| Point::centre(Cell::new(x, y)))
            .collect();
        for radius in [0.5, 1.0, 2.0] {
            let curves = fit_fillets(&grid, &points, radius, 0.25);
            assert_eq!(curves.first().map(CubicBezier::start), Some(points[0]));
            assert_eq!(curves.last().map(CubicBezier::end), Some(points[2]));
            for pair in curves.windows(2) {
                assert_eq!(pair[0].end(), pair[1].start());
            }
            let least = radius_along(&curves);
            assert!(
                (least - radius).abs() < 0.01 * radius,
                "radius {radius}: reached {least}"
            );
        }
    }

    #[test]
    fn a_corner_without_room_is_turned_tighter_or_left_sharp() {
        // A one-cell corridor bending twice: an arc of radius 3 has no room.
        let grid = Grid::from_ascii(&["#####", "...##", "##...", "#####"]).unwrap();
        let points: Vec<Point> = [(0, 1), (2, 1), (2, 2), (4, 2)]
            .into_iter()
            .map(|(x, y)| Point::centre(Cell::new(x, y)))
            .collect();
        let curves = fit_fillets(&grid, &points, 3.0, 0.1);
        let least = radius_along(&curves);
        assert!(least < 3.0, "{least}");
        for curve in &curves {
            assert!(curve.is_straight() || is_safe(&grid, curve, 0.1));
        }
    }
}
