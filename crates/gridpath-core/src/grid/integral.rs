//! The integral of a value of each cell (a terrain's cost) along a straight segment of the
//! world frame: the length of the segment in each cell times that cell's value, summed, the
//! dearer cell charged where the segment runs along an edge between two. Squares are walked
//! by the grid lines the segment crosses ([`super::square_stops`]); hexes by clipping the
//! segment against each hex it touches ([`super::HexLayout::touching`]).

use super::crossings::{square_stops, squares_touching};
use super::topology::{HexLayout, Topology};

/// Pieces of a segment shorter than this (in cells) are left out of a hex map's integral: the
/// slivers where it only grazes a hex's corner.
const SLIVER: f64 = 1e-9;

/// The point at parameter `t` of the segment from `a` to `b`.
#[inline]
fn at(a: (f64, f64), b: (f64, f64), t: f64) -> (f64, f64) {
    (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
}

/// The segment's length.
#[inline]
fn length(a: (f64, f64), b: (f64, f64)) -> f64 {
    (b.0 - a.0).hypot(b.1 - a.1)
}

impl Topology {
    /// The integral of `value` (read at a cell's signed coordinates; `None` for a wall or off
    /// the map) along the segment from `p` to `q`: `None` when a piece of positive length
    /// lies in a wall, and, with `clear`, when the segment touches a wall at all.
    #[inline]
    pub fn integral(
        self,
        p: (f64, f64),
        q: (f64, f64),
        clear: bool,
        value: impl Fn(i64, i64) -> Option<f64>,
    ) -> Option<f64> {
        match (self.hex(), clear) {
            (Some(layout), _) => hex_integral(layout, p, q, clear, value),
            (None, true) => square_integral::<true>(p, q, value),
            (None, false) => square_integral::<false>(p, q, value),
        }
    }
}

/// [`Topology::integral`] on squares; with `CLEAR`, `None` also when any cell touched at a
/// stop is a wall (every cell of the supercover, for line of sight).
#[inline]
pub(crate) fn square_integral<const CLEAR: bool>(
    a: (f64, f64),
    b: (f64, f64),
    value: impl Fn(i64, i64) -> Option<f64>,
) -> Option<f64> {
    let length = length(a, b);
    let mut total = 0.0;
    let mut before: Option<f64> = None;
    let complete = square_stops(a, b, |t, point| {
        if CLEAR && dearest_at(point, &value).is_none() {
            return false;
        }
        let Some(t0) = before.replace(t) else {
            return true;
        };
        if t <= t0 {
            return true;
        }
        let Some(dearest) = dearest_at(at(a, b, (t0 + t) / 2.0), &value) else {
            return false;
        };
        total += (t - t0) * length * dearest;
        true
    });
    complete.then_some(total)
}

/// The dearest value among the square cells whose closed squares hold `point`; `None` when
/// one of them is a wall or off the map.
#[inline]
fn dearest_at(point: (f64, f64), value: &impl Fn(i64, i64) -> Option<f64>) -> Option<f64> {
    let mut dearest = Some(0.0f64);
    squares_touching(point, &mut |(x, y)| {
        dearest = match (dearest, value(x, y)) {
            (Some(a), Some(b)) => Some(a.max(b)),
            _ => None,
        };
    });
    dearest
}

/// [`Topology::integral`] on hexes.
fn hex_integral(
    layout: HexLayout,
    a: (f64, f64),
    b: (f64, f64),
    clear: bool,
    cell_cost: impl Fn(i64, i64) -> Option<f64>,
) -> Option<f64> {
    let hexes = layout.touching(a, b);
    if clear && hexes.iter().any(|&(x, y)| cell_cost(x, y).is_none()) {
        return None;
    }
    let length = length(a, b);
    if length == 0.0 {
        return Some(0.0);
    }
    // Where the segment enters and leaves each hex, as parameters from 0 to 1, in the order
    // the segment enters them.
    let mut spans: Vec<((i64, i64), f64, f64)> = hexes
        .iter()
        .filter_map(|&(x, y)| clip(layout, x, y, a, b).map(|(t0, t1)| ((x, y), t0, t1)))
        .collect();
    spans.sort_unstable_by(|p, q| p.1.total_cmp(&q.1));
    let mut stops: Vec<f64> = spans.iter().flat_map(|&(_, t0, t1)| [t0, t1]).collect();
    stops.extend([0.0, 1.0]);
    stops.sort_unstable_by(f64::total_cmp);
    stops.dedup();
    let mut total = 0.0;
    // The spans that may hold the piece's middle: entered at or before it, in entry order.
    // Middles only grow, so a span is added once and dropped once it ends before one: the
    // sweep looks at each span a bounded number of times, not once per piece.
    let mut entered = 0;
    let mut open: Vec<((i64, i64), f64, f64)> = Vec::new();
    for pair in stops.windows(2) {
        let (s, e) = (pair[0], pair[1]);
        if (e - s) * length < SLIVER {
            continue;
        }
        let middle = (s + e) / 2.0;
        while let Some(&span) = spans.get(entered).filter(|span| span.1 <= middle) {
            open.push(span);
            entered += 1;
        }
        open.retain(|&(_, _, t1)| middle <= t1);
        let mut dearest: Option<f64> = None;
        for &((x, y), _, _) in &open {
            let here = cell_cost(x, y)?;
            dearest = Some(dearest.map_or(here, |d: f64| d.max(here)));
        }
        // A piece no hex claims (rounding between two spans) is charged the hex under it.
        let dearest = match dearest {
            Some(d) => d,
            None => {
                let p = at(a, b, middle);
                let (x, y) = layout.hex_at(p.0, p.1);
                cell_cost(x, y)?
            }
        };
        total += (e - s) * length * dearest;
    }
    Some(total)
}

/// The parameters (0 to 1) between which the segment from `a` to `b` lies in the closed area
/// of the hex at `(x, y)`, by clipping it against the hex's six edges; `None` when it misses.
fn clip(layout: HexLayout, x: i64, y: i64, a: (f64, f64), b: (f64, f64)) -> Option<(f64, f64)> {
    let corners = layout.corners(x, y);
    let (cx, cy) = layout.centre_of(x, y);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    for k in 0..6 {
        let (u, v) = (corners[k], corners[(k + 1) % 6]);
        // The outward normal of the edge, and the signed distance of a point beyond it.
        let (mut nx, mut ny) = (v.1 - u.1, u.0 - v.0);
        if nx * (cx - u.0) + ny * (cy - u.1) > 0.0 {
            (nx, ny) = (-nx, -ny);
        }
        let beyond = nx * (a.0 - u.0) + ny * (a.1 - u.1);
        let rate = nx * dx + ny * dy;
        if rate == 0.0 {
            if beyond > 0.0 {
                return None;
            }
        } else {
            let t = -beyond / rate;
            if rate > 0.0 {
                t1 = t1.min(t);
            } else {
                t0 = t0.max(t);
            }
        }
    }
    (t0 <= t1).then_some((t0, t1))
}
