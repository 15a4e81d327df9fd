//! Where a straight segment of the world frame crosses the lines of the square grid, and the
//! square cells it touches: the squares' counterpart of [`super::HexLayout::touching`].

/// How close (in cells) a point must come to a grid line to count as lying on it.
///
/// Crossing points are computed in floating point, so a segment that passes exactly through a
/// cell corner may come out a rounding error beside it; within this distance the walk counts the
/// corner as touched, which can only add cells, never lose one.
pub(super) const ON_LINE: f64 = 1e-9;

/// Every square cell whose closed square [x, x + 1] × [y, y + 1] the segment from `a` to `b`
/// meets, in the order the segment reaches them, as signed coordinates: a segment crossing a
/// cell corner exactly touches all four cells around it, one running along a grid line the
/// cells on both sides.
pub(super) fn supercover(a: (f64, f64), b: (f64, f64)) -> Vec<(i64, i64)> {
    let mut cells = Vec::new();
    let mut push = |cell: (i64, i64)| {
        // A cell touched again is touched right after its last visit or at a shared
        // corner, so looking back a few entries keeps the list free of repeats.
        if !cells.iter().rev().take(8).any(|&c| c == cell) {
            cells.push(cell);
        }
    };
    let mut stops = Vec::new();
    square_stops(a, b, |t, point| {
        stops.push((t, point));
        true
    });
    for (i, &(t, point)) in stops.iter().enumerate() {
        if i > 0 {
            let (before, _) = stops[i - 1];
            let middle = (before + t) / 2.0;
            let at = (a.0 + (b.0 - a.0) * middle, a.1 + (b.1 - a.1) * middle);
            squares_touching(at, &mut push);
        }
        squares_touching(point, &mut push);
    }
    cells
}

/// Calls `visit` with the parameters (with their points) where the segment from `a` to `b`
/// starts, crosses a line of the square grid and ends, in order, until it returns false;
/// returns whether every stop was visited. Points on a vertical line get that line's exact x,
/// and likewise for y. Where a vertical and a horizontal line are crossed at the same
/// parameter, the vertical one comes first.
#[inline]
pub(crate) fn square_stops(
    a: (f64, f64),
    b: (f64, f64),
    mut visit: impl FnMut(f64, (f64, f64)) -> bool,
) -> bool {
    if !visit(0.0, a) {
        return false;
    }
    let mut xs = Crossings::new(a.0, b.0);
    let mut ys = Crossings::new(a.1, b.1);
    loop {
        let (tx, ty) = (xs.peek(), ys.peek());
        let stop = match (tx, ty) {
            (None, None) => break,
            (Some((t, k)), None) => {
                xs.advance();
                (t, (k, a.1 + (b.1 - a.1) * t))
            }
            (Some((t, k)), Some((u, _))) if t <= u => {
                xs.advance();
                (t, (k, a.1 + (b.1 - a.1) * t))
            }
            (_, Some((u, k))) => {
                ys.advance();
                (u, (a.0 + (b.0 - a.0) * u, k))
            }
        };
        if !visit(stop.0, stop.1) {
            return false;
        }
    }
    visit(1.0, b)
}

/// The integer lines one coordinate crosses strictly between `start` and `end`, in the order a
/// walk from `start` meets them, each with its parameter `(k - start) / (end - start)`.
#[derive(Clone, Copy, Debug)]
struct Crossings {
    start: f64,
    end: f64,
    /// The next line, while it lies strictly between the two.
    next: f64,
    /// +1 walking up, −1 walking down.
    step: f64,
}

impl Crossings {
    #[inline]
    fn new(start: f64, end: f64) -> Self {
        let (next, step) = if end > start {
            (start.floor() + 1.0, 1.0)
        } else {
            (start.ceil() - 1.0, -1.0)
        };
        Self {
            start,
            end,
            next,
            step,
        }
    }

    /// The next crossing's parameter and line.
    #[inline]
    fn peek(&self) -> Option<(f64, f64)> {
        let inside = if self.step > 0.0 {
            self.next < self.end
        } else {
            self.next > self.end
        };
        (inside && self.start != self.end).then(|| {
            (
                (self.next - self.start) / (self.end - self.start),
                self.next,
            )
        })
    }

    #[inline]
    fn advance(&mut self) {
        self.next += self.step;
    }
}

/// Calls `visit` with every square cell whose closed square holds `point` (within [`ON_LINE`]): one
/// inside a cell, two on an edge, four at a corner.
pub(crate) fn squares_touching(point: (f64, f64), visit: &mut impl FnMut((i64, i64))) {
    let range = |v: f64| {
        (
            (v - 1.0 - ON_LINE).ceil() as i64,
            (v + ON_LINE).floor() as i64,
        )
    };
    let (x0, x1) = range(point.0);
    let (y0, y1) = range(point.1);
    for y in y0..=y1 {
        for x in x0..=x1 {
            visit((x, y));
        }
    }
}
