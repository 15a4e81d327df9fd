//! Bezier curves through the line-of-sight waypoints, tightened until they are safe.

use crate::grid::Grid;

use super::clearance::keeps_clearance;
use super::segment::cell_cost;
use super::{CubicBezier, Point};

/// The largest distance, along the curve, between two samples the safety check looks at.
///
/// Each sample must keep `clearance + SAMPLE_SPACING` from every wall. Every point of the curve
/// lies within half a spacing (along the curve) of a sample, so the whole curve — not just the
/// samples — keeps more than `clearance`.
pub const SAMPLE_SPACING: f64 = 0.02;

/// The spacing of the samples that measure a curve's length and cost.
const MEASURE_SPACING: f64 = 0.01;

/// The factors a piece's handles are scaled by, in turn, before it is split.
const TIGHTENING: [f64; 3] = [1.0, 0.5, 0.25];

/// How many times a piece may be halved before it falls back to a straight segment.
const MAX_SPLITS: u32 = 3;

/// A chain of cubic Bezier pieces through `waypoints`, from a Catmull–Rom spline.
///
/// The tangent at waypoint `i` is `tension × (P[i+1] − P[i−1]) / 2` (one-sided at the ends),
/// and a piece's control points lie a third of the tangent from its ends — the Catmull–Rom to
/// Bezier conversion — with each handle shortened to at most half the piece's chord so short
/// pieces next to long ones do not loop. Both pieces at a waypoint use the same tangent
/// direction, so the chain is continuous in tangent there.
///
/// Each piece is checked by sampling ([`SAMPLE_SPACING`]); one that comes nearer than
/// `clearance` to a wall has its handles shortened, then is split at the middle of its chord
/// (with the chord's direction as tangent there) and each half is fitted the same way, and
/// finally falls back to the straight segment between its ends.
pub fn fit_curves(
    grid: &Grid,
    waypoints: &[Point],
    tension: f64,
    clearance: f64,
) -> Vec<CubicBezier> {
    let n = waypoints.len();
    if n < 2 {
        return Vec::new();
    }
    let tangent = |i: usize| {
        let before = waypoints[i.saturating_sub(1)];
        let after = waypoints[(i + 1).min(n - 1)];
        let span = if i == 0 || i == n - 1 { 1.0 } else { 0.5 };
        (after - before) * (span * tension)
    };
    let mut curves = Vec::new();
    for i in 0..n - 1 {
        let (a, b) = (waypoints[i], waypoints[i + 1]);
        let cap = a.distance(b) / 2.0;
        let handle_a = capped(tangent(i) * (1.0 / 3.0), cap);
        let handle_b = capped(tangent(i + 1) * (1.0 / 3.0), cap);
        fit_piece(
            grid,
            [a, handle_a, handle_b, b],
            clearance,
            MAX_SPLITS,
            &mut curves,
        );
    }
    curves
}

/// Fits the piece from `a` to `b` leaving along `handle_a` and arriving along `handle_b`.
fn fit_piece(
    grid: &Grid,
    [a, handle_a, handle_b, b]: [Point; 4],
    clearance: f64,
    splits_left: u32,
    out: &mut Vec<CubicBezier>,
) {
    if handle_a == Point::default() && handle_b == Point::default() {
        out.push(CubicBezier::straight(a, b));
        return;
    }
    for scale in TIGHTENING {
        let curve = CubicBezier::new(a, a + handle_a * scale, b - handle_b * scale, b);
        if is_safe(grid, &curve, clearance) {
            out.push(curve);
            return;
        }
    }
    if splits_left == 0 {
        out.push(CubicBezier::straight(a, b));
        return;
    }
    let middle = a.lerp(b, 0.5);
    let along_chord = (b - a) * (1.0 / 6.0);
    let half = |h: Point| h * 0.5;
    fit_piece(
        grid,
        [a, half(handle_a), along_chord, middle],
        clearance,
        splits_left - 1,
        out,
    );
    fit_piece(
        grid,
        [middle, along_chord, half(handle_b), b],
        clearance,
        splits_left - 1,
        out,
    );
}

/// The handle `h`, shortened to at most `cap` long.
fn capped(h: Point, cap: f64) -> Point {
    let length = h.norm();
    if length > cap { h * (cap / length) } else { h }
}

/// Whether every sample of the curve, at most [`SAMPLE_SPACING`] apart, keeps
/// `clearance + SAMPLE_SPACING` from every wall.
pub fn is_safe(grid: &Grid, curve: &CubicBezier, clearance: f64) -> bool {
    curve
        .samples(SAMPLE_SPACING)
        .all(|p| keeps_clearance(grid, p, clearance + SAMPLE_SPACING))
}

/// The length and the integrated terrain cost of a chain of curves, measured on samples at
/// most 0.01 cells apart: each chord between two samples is charged the cost of the cell
/// holding its middle.
pub fn measure(grid: &Grid, curves: &[CubicBezier]) -> (f64, f64) {
    let (mut length, mut cost) = (0.0, 0.0);
    for curve in curves {
        let mut previous: Option<Point> = None;
        for p in curve.samples(MEASURE_SPACING) {
            if let Some(q) = previous {
                let chord = q.distance(p);
                let (x, y) = q.lerp(p, 0.5).cell_on(grid.topology());
                let (qx, qy) = q.cell_on(grid.topology());
                // A chord's middle lies in a wall only where a straight piece passes a corner
                // exactly; the cell it comes from is charged then.
                let here = cell_cost(grid, x, y).or_else(|| cell_cost(grid, qx, qy));
                length += chord;
                cost += chord * here.unwrap_or(0.0);
            }
            previous = Some(p);
        }
    }
    (length, cost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Cell;

    fn centres(cells: &[(u32, u32)]) -> Vec<Point> {
        cells
            .iter()
            .map(|&(x, y)| Point::centre(Cell::new(x, y)))
            .collect()
    }

    #[test]
    fn zero_tension_gives_straight_pieces() {
        let grid = Grid::from_ascii(&["....", "....", "...."]).unwrap();
        let points = centres(&[(0, 0), (3, 0), (3, 2)]);
        let curves = fit_curves(&grid, &points, 0.0, 0.0);
        assert_eq!(curves.len(), 2);
        assert!(curves.iter().all(CubicBezier::is_straight));
    }

    #[test]
    fn an_open_corner_is_rounded_and_tangent_continuous() {
        let grid = Grid::from_ascii(&["......", "......", "......", "......", "......"]).unwrap();
        let points = centres(&[(0, 2), (3, 2), (3, 4)]);
        let curves = fit_curves(&grid, &points, 1.0, 0.0);
        assert_eq!(curves.len(), 2, "{curves:?}");
        assert!(!curves[0].is_straight());
        let into = curves[0].points[3] - curves[0].points[2];
        let out = curves[1].points[1] - curves[1].points[0];
        let cross = into.x * out.y - into.y * out.x;
        assert!(cross.abs() < 1e-12 && into.x * out.x + into.y * out.y > 0.0);
    }

    #[test]
    fn a_curve_that_would_clip_a_wall_is_tightened() {
        // A one-cell corridor turning a corner: the full spline swings into the wall.
        let grid = Grid::from_ascii(&["#####", "....#", "###.#", "###.#"]).unwrap();
        let points = centres(&[(0, 1), (3, 1), (3, 3)]);
        // The untightened second piece: handles (P2 − P0) / 6 at P1 and (P2 − P1) / 3 at P2.
        let loose = CubicBezier::new(
            points[1],
            points[1] + (points[2] - points[0]) * (1.0 / 6.0),
            points[2] - (points[2] - points[1]) * (1.0 / 3.0),
            points[2],
        );
        assert!(!is_safe(&grid, &loose, 0.3));
        let curves = fit_curves(&grid, &points, 1.0, 0.3);
        for curve in &curves {
            assert!(curve.is_straight() || is_safe(&grid, curve, 0.3));
            for p in curve.samples(0.005) {
                let (x, y) = p.cell_in_grid();
                assert!(cell_cost(&grid, x, y).is_some(), "{p:?} is in a wall");
            }
        }
        assert_eq!(curves.first().map(CubicBezier::start), Some(points[0]));
        assert_eq!(curves.last().map(CubicBezier::end), Some(points[2]));
    }

    #[test]
    fn a_straight_line_measures_its_length_and_cost() {
        let grid = Grid::from_ascii(&[".~=."]).unwrap();
        let line = CubicBezier::straight(Point::new(0.5, 0.5), Point::new(3.5, 0.5));
        let (length, cost) = measure(&grid, &[line]);
        assert!((length - 3.0).abs() < 1e-9);
        assert!((cost - (0.5 + 3.0 + 0.5 + 0.5)).abs() < 0.02, "{cost}");
    }
}
