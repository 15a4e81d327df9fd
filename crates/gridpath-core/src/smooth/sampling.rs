//! Points along a smoothed curve at an even spacing, with the direction of travel and the
//! distance from the start: what a robot's controller or a game's unit follows.
//!
//! The curve's length is measured piece by piece on a fine polyline of its own points; the
//! samples lie on the curve itself (each is the point of its piece at a parameter found from
//! that measure), so the headings are the curve's exact tangent directions there.

use super::{CubicBezier, Point};

/// The spacing, in cells, of the samples of [`sample_curve`] when nothing else is chosen.
pub const DEFAULT_SPACING: f64 = 0.25;

/// The smallest spacing of samples a caller should ask for, in cells.
pub const MIN_SPACING: f64 = 1.0e-3;

/// The largest spacing of samples a caller should ask for, in cells (wider than any map).
pub const MAX_SPACING: f64 = 1.0e6;

/// The most samples a curve should be cut into: at [`MIN_SPACING`] a curve 10,000 cells
/// long. Callers compare the curve's length over the spacing with it before sampling.
pub const MAX_SAMPLES: usize = 10_000_000;

/// One point along the curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CurveSample {
    /// Where it is, in continuous cell coordinates.
    pub point: Point,
    /// The direction of travel there, in radians from +x towards +y (y down the map).
    pub heading: f64,
    /// The distance along the curve from the start, in cells.
    pub distance: f64,
}

/// Points along a chain of Bezier pieces, evenly spread at most `spacing` apart along the
/// curve: the first is the chain's start, the last its end, and their distances from the
/// start increase. An empty chain gives no samples.
///
/// The samples of [`CurveSamples`], gathered; to write them somewhere, walk that instead,
/// which holds one sample at a time.
///
/// # Panics
/// Never; a `spacing` that is not a positive finite number is taken as [`DEFAULT_SPACING`].
pub fn sample_curve(beziers: &[CubicBezier], spacing: f64) -> Vec<CurveSample> {
    CurveSamples::new(beziers, spacing).collect()
}

/// The samples of [`sample_curve`], computed one at a time: the memory held does not grow
/// with their number.
///
/// The curve is measured on a fine polyline of its own points, at most `spacing / 8` (and
/// 0.01) cells apart: once in [`CurveSamples::new`] for the length, and once more as the
/// samples are produced, each found between the two rows of that polyline around its
/// distance.
///
/// ```
/// use gridpath_core::smooth::{CubicBezier, CurveSamples, Point, sample_curve};
///
/// let line = [CubicBezier::straight(Point::new(0.5, 0.5), Point::new(4.5, 0.5))];
/// let samples = CurveSamples::new(&line, 0.5);
/// assert_eq!(samples.len(), 9);
/// assert!((samples.length() - 4.0).abs() < 1e-12);
/// assert_eq!(samples.collect::<Vec<_>>(), sample_curve(&line, 0.5));
/// ```
#[derive(Clone, Debug)]
pub struct CurveSamples<'a> {
    beziers: &'a [CubicBezier],
    /// The fine polyline's rows still to come, after `b`.
    rows: std::iter::Peekable<FineRows<'a>>,
    /// The two rows around the last target: (piece, parameter, distance from the start).
    a: (usize, f64, f64),
    b: (usize, f64, f64),
    /// The curve's length, as the fine polyline measures it.
    total: f64,
    /// How many intervals the samples cut the curve into.
    intervals: usize,
    /// The index of the next sample, from 0; past `intervals` when all are given.
    next: usize,
}

impl<'a> CurveSamples<'a> {
    /// The samples of `beziers` at most `spacing` apart (see [`sample_curve`]).
    pub fn new(beziers: &'a [CubicBezier], spacing: f64) -> Self {
        let fine = (valid(spacing) / 8.0).min(0.01);
        let total = FineRows::new(beziers, fine).last().map_or(0.0, |row| row.2);
        Self::of_length(beziers, spacing, total)
    }

    /// [`CurveSamples::new`] of a chain whose [`length`](CurveSamples::length) at this
    /// spacing is known already (from an earlier walk of the same chain and spacing): the
    /// same samples, without measuring the curve again.
    pub(crate) fn of_length(beziers: &'a [CubicBezier], spacing: f64, total: f64) -> Self {
        let spacing = valid(spacing);
        let fine = (spacing / 8.0).min(0.01);
        let mut rows = FineRows::new(beziers, fine).peekable();
        let a = rows.next().unwrap_or((0, 0.0, 0.0));
        let b = rows.next().unwrap_or(a);
        let intervals = (total / spacing).ceil().max(1.0) as usize;
        Self {
            beziers,
            rows,
            a,
            b,
            total,
            intervals,
            // An empty chain has no samples.
            next: if beziers.is_empty() { intervals + 1 } else { 0 },
        }
    }

    /// The curve's length, as the samples measure it: the last sample's distance.
    pub fn length(&self) -> f64 {
        self.total
    }
}

impl Iterator for CurveSamples<'_> {
    type Item = CurveSample;

    fn next(&mut self) -> Option<CurveSample> {
        let k = self.next;
        if k > self.intervals {
            return None;
        }
        self.next += 1;
        let beziers = self.beziers;
        if k == 0 {
            let first = beziers.first()?;
            return Some(CurveSample {
                point: first.start(),
                heading: first.heading(0.0),
                distance: 0.0,
            });
        }
        let intervals = self.intervals;
        let target = if k == intervals {
            self.total
        } else {
            self.total * k as f64 / intervals as f64
        };
        while self.b.2 < target {
            let Some(row) = self.rows.next() else {
                break;
            };
            self.a = std::mem::replace(&mut self.b, row);
        }
        let (a, b) = (self.a, self.b);
        // The rows' piece and parameter: a row that ends a piece starts the next at 0.
        let (piece, t) = if k == intervals {
            (beziers.len() - 1, 1.0)
        } else {
            let t0 = if a.0 == b.0 { a.1 } else { 0.0 };
            let span = b.2 - a.2;
            let f = if span > 0.0 {
                ((target - a.2) / span).clamp(0.0, 1.0)
            } else {
                0.0
            };
            (b.0, t0 + (b.1 - t0) * f)
        };
        let curve = &beziers[piece];
        let point = match t {
            1.0 => curve.end(),
            0.0 => curve.start(),
            t => curve.at(t),
        };
        Some(CurveSample {
            point,
            heading: curve.heading(t),
            distance: target,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.intervals + 1).saturating_sub(self.next);
        (left, Some(left))
    }
}

impl ExactSizeIterator for CurveSamples<'_> {}

/// `spacing` when it is a positive finite number, else [`DEFAULT_SPACING`].
fn valid(spacing: f64) -> f64 {
    if spacing.is_finite() && spacing > 0.0 {
        spacing
    } else {
        DEFAULT_SPACING
    }
}

/// The fine polyline along a chain of pieces, as rows of (piece, parameter, distance from
/// the start): the chain's start, then `sample_count(fine)` points of each piece.
#[derive(Clone, Debug)]
struct FineRows<'a> {
    beziers: &'a [CubicBezier],
    fine: f64,
    /// The piece of the next row, its point count, and the index of the next row in it
    /// (0: the chain's start, not yet given).
    piece: usize,
    count: usize,
    k: usize,
    previous: Point,
    travelled: f64,
    started: bool,
}

impl<'a> FineRows<'a> {
    fn new(beziers: &'a [CubicBezier], fine: f64) -> Self {
        let (count, previous) = beziers
            .first()
            .map_or((0, Point::default()), |b| (b.sample_count(fine), b.start()));
        Self {
            beziers,
            fine,
            piece: 0,
            count,
            k: 1,
            previous,
            travelled: 0.0,
            started: false,
        }
    }
}

impl Iterator for FineRows<'_> {
    type Item = (usize, f64, f64);

    fn next(&mut self) -> Option<(usize, f64, f64)> {
        if !self.started {
            self.started = true;
            return Some((0, 0.0, 0.0));
        }
        while self.k > self.count {
            self.piece += 1;
            let piece = self.beziers.get(self.piece)?;
            self.count = piece.sample_count(self.fine);
            self.k = 1;
            self.previous = piece.start();
        }
        let piece = self.beziers.get(self.piece)?;
        let (k, n) = (self.k, self.count);
        let t = k as f64 / n as f64;
        let point = if k == n { piece.end() } else { piece.at(t) };
        self.travelled += self.previous.distance(point);
        self.previous = point;
        self.k += 1;
        Some((self.piece, t, self.travelled))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parameter of the point of `curve` nearest to `p`, to about 1e-12.
    fn nearest_parameter(curve: &CubicBezier, p: Point) -> (f64, f64) {
        let steps = 4000;
        let mut best = (f64::INFINITY, 0.0);
        for k in 0..=steps {
            let t = k as f64 / steps as f64;
            let d = curve.at(t).distance(p);
            if d < best.0 {
                best = (d, t);
            }
        }
        let (mut lo, mut hi) = (
            (best.1 - 1.0 / steps as f64).max(0.0),
            (best.1 + 1.0 / steps as f64).min(1.0),
        );
        for _ in 0..200 {
            let m1 = lo + (hi - lo) / 3.0;
            let m2 = hi - (hi - lo) / 3.0;
            if curve.at(m1).distance(p) < curve.at(m2).distance(p) {
                hi = m2;
            } else {
                lo = m1;
            }
        }
        let t = (lo + hi) / 2.0;
        (curve.at(t).distance(p), t)
    }

    /// The direction of travel along `curve` at `t` by finite differences of its points alone.
    fn numeric_heading(curve: &CubicBezier, t: f64) -> f64 {
        let h = 1e-6;
        let (a, b) = if t < h {
            (curve.at(0.0), curve.at(h))
        } else if t > 1.0 - h {
            (curve.at(1.0 - h), curve.at(1.0))
        } else {
            (curve.at(t - h), curve.at(t + h))
        };
        (b.y - a.y).atan2(b.x - a.x)
    }

    fn angle_between(a: f64, b: f64) -> f64 {
        let d = (a - b).rem_euclid(std::f64::consts::TAU);
        d.min(std::f64::consts::TAU - d)
    }

    #[test]
    fn samples_follow_the_curve_at_the_spacing() {
        let curves = vec![
            CubicBezier::new(
                Point::new(0.5, 0.5),
                Point::new(2.0, 0.5),
                Point::new(3.0, 2.0),
                Point::new(4.5, 3.5),
            ),
            CubicBezier::new(
                Point::new(4.5, 3.5),
                Point::new(6.0, 5.0),
                Point::new(8.0, 5.5),
                Point::new(9.5, 4.5),
            ),
            // A straight piece: its velocity vanishes at both ends.
            CubicBezier::straight(Point::new(9.5, 4.5), Point::new(9.5, 9.5)),
        ];
        for spacing in [0.25, 0.1, 1.0, 3.0] {
            let samples = sample_curve(&curves, spacing);
            assert_eq!(samples[0].point, Point::new(0.5, 0.5));
            assert_eq!(samples.last().expect("samples").point, Point::new(9.5, 9.5));
            for pair in samples.windows(2) {
                assert!(pair[1].distance > pair[0].distance);
                let gap = pair[0].point.distance(pair[1].point);
                assert!(gap <= spacing + 1e-9, "{gap} apart at spacing {spacing}");
            }
            for sample in &samples {
                let (distance, curve, t) = curves
                    .iter()
                    .map(|c| {
                        let (d, t) = nearest_parameter(c, sample.point);
                        (d, c, t)
                    })
                    .min_by(|a, b| a.0.total_cmp(&b.0))
                    .expect("pieces");
                assert!(
                    distance < 1e-9,
                    "{:?} is {distance} off the curve",
                    sample.point
                );
                let expected = numeric_heading(curve, t);
                assert!(
                    angle_between(sample.heading, expected) < 1e-6,
                    "heading {} against {expected} at {:?}",
                    sample.heading,
                    sample.point
                );
            }
            // The last distance is the curve's length, measured independently.
            let length: f64 = curves
                .iter()
                .map(|c| {
                    let n = 20_000;
                    (0..n)
                        .map(|k| {
                            c.at(k as f64 / n as f64)
                                .distance(c.at((k + 1) as f64 / n as f64))
                        })
                        .sum::<f64>()
                })
                .sum();
            let last = samples.last().expect("samples").distance;
            assert!(
                (last - length).abs() < 1e-4 * length,
                "{last} against {length}"
            );
        }
    }

    #[test]
    fn the_straight_piece_heads_along_itself_at_both_ends() {
        let piece = CubicBezier::straight(Point::new(1.0, 1.0), Point::new(1.0, 5.0));
        let down = std::f64::consts::FRAC_PI_2;
        for t in [0.0, 0.5, 1.0] {
            assert!(angle_between(piece.heading(t), down) < 1e-12, "t = {t}");
        }
        assert!(sample_curve(&[], 0.25).is_empty());
    }
}
