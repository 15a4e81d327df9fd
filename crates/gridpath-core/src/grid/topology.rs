//! How the cells of a grid touch: squares with eight neighbours, or hexagons with six.
//!
//! A hex map stores its cells row by row like a square one, in *offset* coordinates: every
//! other row (pointy-top hexes) or column (flat-top hexes) is pushed half a cell along, as
//! Tiled stores its hexagonal maps. [`HexLayout`] names which, in Tiled's own terms
//! (`staggeraxis` x or y, `staggerindex` odd or even), so a Tiled map loads without reindexing.
//! For the arithmetic the cells convert to *axial* coordinates ([`Hex`], with the cube
//! coordinate `s = −q − r` implied), as in Red Blob Games' guide to hexagonal grids.
//!
//! In offset coordinates a hex cell's six neighbours are six of the eight king moves of a square
//! grid: two diagonals are dropped, which two depending on the parity of the cell's row (or
//! column). [`Topology::directions`] gives them as a mask over the search graph's eight
//! directions, so every search over that graph runs on hexes unchanged; every hex step has the
//! same centre distance, 1.
//!
//! The *world frame* measures in cell widths: a square cell `(x, y)` spans `[x, x + 1] × [y,
//! y + 1]`; a hex has width 1 across its flats, neighbouring centres lie 1 apart, and the map's
//! bounding box starts at the origin ([`Topology::centre`]).
//!
//! ```
//! use gridpath_core::grid::{Cell, HexLayout, Topology};
//!
//! let layout = HexLayout::ODD_R;
//! // Six steps around, five across: the hex distance counts steps.
//! assert_eq!(layout.distance(Cell::new(0, 0), Cell::new(3, 4)), 5);
//! let line = layout.line(Cell::new(0, 0), Cell::new(3, 4));
//! assert_eq!(line.len(), 6);
//! let mut back = layout.line(Cell::new(3, 4), Cell::new(0, 0));
//! back.reverse();
//! assert_eq!(line, back);
//! // The hex under a point of the world frame.
//! let (x, y) = Topology::Hex(layout).centre(Cell::new(2, 1));
//! assert_eq!(layout.hex_at(x + 0.3, y - 0.2), (2, 1));
//! ```

use std::fmt;
use std::str::FromStr;

use super::Cell;

/// Column offsets of the search graph's eight directions: east, west, south, north, then
/// north-east, north-west, south-east, south-west (y grows downwards).
#[cfg(test)]
const DX: [i64; 8] = [1, -1, 0, 0, 1, -1, 1, -1];
/// Row offsets of the eight directions.
#[cfg(test)]
const DY: [i64; 8] = [0, 0, 1, -1, -1, -1, 1, 1];

/// √3 / 2: the distance between the centre lines of two neighbouring rows of pointy-top hexes
/// (columns of flat-top ones) when neighbouring centres are 1 apart.
const ROW_SPACING: f64 = 0.866_025_403_784_438_6;
/// 1 / √3: a hex's circumradius when neighbouring centres are 1 apart.
const CIRCUMRADIUS: f64 = 0.577_350_269_189_625_8;

/// The shape of a map's cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Topology {
    /// Square cells with eight neighbours, four across a side and four across a corner; the
    /// search request's diagonal rule says which corners may be cut.
    #[default]
    Square,
    /// Hexagonal cells with six neighbours, all across a side; diagonal rules do not apply.
    Hex(HexLayout),
}

/// Which axis of a hex map is staggered: Tiled's `staggeraxis`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StaggerAxis {
    /// Columns are staggered (`staggeraxis="x"`): flat-top hexes.
    X,
    /// Rows are staggered (`staggeraxis="y"`): pointy-top hexes.
    Y,
}

/// Which rows (or columns) of a hex map are pushed half a cell along: Tiled's `staggerindex`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StaggerIndex {
    /// The odd ones (`staggerindex="odd"`, Tiled's default).
    Odd,
    /// The even ones (`staggerindex="even"`).
    Even,
}

/// How the hexes of a map are stored in rows and columns: the stagger axis and index.
///
/// Pointy-top hexes (`StaggerAxis::Y`) stand in rows, and the staggered rows are pushed half a
/// cell to the right; flat-top hexes (`StaggerAxis::X`) stand in columns, and the staggered
/// columns are pushed half a cell down. Red Blob Games calls the four layouts odd-r, even-r,
/// odd-q and even-q.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HexLayout {
    /// The staggered axis.
    pub axis: StaggerAxis,
    /// Which rows or columns are staggered.
    pub index: StaggerIndex,
}

/// A hex in axial coordinates: `q` along the first axis, `r` along the second, and the cube
/// coordinate `s = −q − r`. Neighbouring hexes differ by one of [`Hex::DIRECTIONS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hex {
    /// The first axial coordinate.
    pub q: i64,
    /// The second axial coordinate.
    pub r: i64,
}

impl Hex {
    /// The six steps between neighbours, counter-clockwise (on screen, y down, for pointy-top
    /// hexes from east: east, north-east, north-west, west, south-west, south-east). Two
    /// directions `i` and `j` are `min(|i − j|, 6 − |i − j|)` × 60° apart.
    pub const DIRECTIONS: [Hex; 6] = [
        Hex::new(1, 0),
        Hex::new(1, -1),
        Hex::new(0, -1),
        Hex::new(-1, 0),
        Hex::new(-1, 1),
        Hex::new(0, 1),
    ];

    /// The hex at axial `(q, r)`.
    pub const fn new(q: i64, r: i64) -> Self {
        Self { q, r }
    }

    /// The third cube coordinate, `−q − r`.
    pub const fn s(self) -> i64 {
        -self.q - self.r
    }

    /// The number of steps between two hexes.
    pub fn distance(self, other: Hex) -> u64 {
        let (dq, dr) = (self.q - other.q, self.r - other.r);
        (dq.unsigned_abs() + dr.unsigned_abs() + (dq + dr).unsigned_abs()) / 2
    }

    /// The index in [`Hex::DIRECTIONS`] of the step from `self` to `other`, or `None` when
    /// they are not neighbours.
    pub fn direction_to(self, other: Hex) -> Option<usize> {
        let step = Hex::new(other.q - self.q, other.r - self.r);
        Hex::DIRECTIONS.iter().position(|&d| d == step)
    }

    /// The hex nearest a point given in fractional axial coordinates (cube rounding).
    pub fn round(q: f64, r: f64) -> Hex {
        let s = -q - r;
        let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
        let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
        if dq > dr && dq > ds {
            rq = -rr - rs;
        } else if dr > ds {
            rr = -rq - rs;
        }
        Hex::new(rq as i64, rr as i64)
    }
}

impl HexLayout {
    /// Pointy-top, odd rows pushed right (Tiled: staggeraxis y, staggerindex odd).
    pub const ODD_R: HexLayout = HexLayout::new(StaggerAxis::Y, StaggerIndex::Odd);
    /// Pointy-top, even rows pushed right (Tiled: staggeraxis y, staggerindex even).
    pub const EVEN_R: HexLayout = HexLayout::new(StaggerAxis::Y, StaggerIndex::Even);
    /// Flat-top, odd columns pushed down (Tiled: staggeraxis x, staggerindex odd).
    pub const ODD_Q: HexLayout = HexLayout::new(StaggerAxis::X, StaggerIndex::Odd);
    /// Flat-top, even columns pushed down (Tiled: staggeraxis x, staggerindex even).
    pub const EVEN_Q: HexLayout = HexLayout::new(StaggerAxis::X, StaggerIndex::Even);
    /// The four layouts.
    pub const ALL: [HexLayout; 4] = [Self::ODD_R, Self::EVEN_R, Self::ODD_Q, Self::EVEN_Q];

    /// The layout with this stagger axis and index.
    pub const fn new(axis: StaggerAxis, index: StaggerIndex) -> Self {
        Self { axis, index }
    }

    /// Whether the hexes have a vertex at the top (rows staggered) rather than a flat side.
    pub fn is_pointy_top(self) -> bool {
        self.axis == StaggerAxis::Y
    }

    /// Red Blob Games' name of the layout: `odd-r`, `even-r`, `odd-q` or `even-q`.
    pub fn name(self) -> &'static str {
        match (self.axis, self.index) {
            (StaggerAxis::Y, StaggerIndex::Odd) => "odd-r",
            (StaggerAxis::Y, StaggerIndex::Even) => "even-r",
            (StaggerAxis::X, StaggerIndex::Odd) => "odd-q",
            (StaggerAxis::X, StaggerIndex::Even) => "even-q",
        }
    }

    /// Whether the row (pointy-top) or column (flat-top) numbered `line` is pushed along.
    pub fn is_staggered(self, line: i64) -> bool {
        let odd = line.rem_euclid(2) == 1;
        odd == (self.index == StaggerIndex::Odd)
    }

    /// The (row, column) pair of an offset cell along the stagger axis: (along, across), where
    /// `across` is the staggered coordinate (row for pointy-top, column for flat-top).
    fn split(self, x: i64, y: i64) -> (i64, i64) {
        match self.axis {
            StaggerAxis::Y => (x, y),
            StaggerAxis::X => (y, x),
        }
    }

    /// The inverse of [`HexLayout::split`].
    fn join(self, along: i64, across: i64) -> (i64, i64) {
        match self.axis {
            StaggerAxis::Y => (along, across),
            StaggerAxis::X => (across, along),
        }
    }

    /// The axial coordinates of the cell at offset `(x, y)` (any integers, on the map or not).
    pub fn to_hex(self, x: i64, y: i64) -> Hex {
        let (along, across) = self.split(x, y);
        // The lines pushed along shift the axial coordinate by half their number, rounded
        // down when the odd lines are pushed and up when the even ones are.
        let shift = match self.index {
            StaggerIndex::Odd => across.div_euclid(2),
            StaggerIndex::Even => (across + 1).div_euclid(2),
        };
        let first = along - shift;
        match self.axis {
            StaggerAxis::Y => Hex::new(first, across),
            // Flat-top: q runs along the columns, r down them.
            StaggerAxis::X => Hex::new(across, first),
        }
    }

    /// The offset `(x, y)` of a hex: the inverse of [`HexLayout::to_hex`].
    pub fn to_offset(self, hex: Hex) -> (i64, i64) {
        let (first, across) = match self.axis {
            StaggerAxis::Y => (hex.q, hex.r),
            StaggerAxis::X => (hex.r, hex.q),
        };
        let shift = match self.index {
            StaggerIndex::Odd => across.div_euclid(2),
            StaggerIndex::Even => (across + 1).div_euclid(2),
        };
        self.join(first + shift, across)
    }

    /// The number of hex steps between two cells.
    pub fn distance(self, a: Cell, b: Cell) -> u64 {
        self.to_hex(i64::from(a.x), i64::from(a.y))
            .distance(self.to_hex(i64::from(b.x), i64::from(b.y)))
    }

    /// The six neighbours of the cell at offset `(x, y)`, in the order of [`Hex::DIRECTIONS`]
    /// (some may lie off the map).
    pub fn neighbours(self, x: i64, y: i64) -> [(i64, i64); 6] {
        let hex = self.to_hex(x, y);
        Hex::DIRECTIONS.map(|d| self.to_offset(Hex::new(hex.q + d.q, hex.r + d.r)))
    }

    /// The neighbours of `(x, y)` as a mask over the search graph's eight directions (east,
    /// west, south, north, north-east, north-west, south-east, south-west): all four sides and
    /// the two diagonals the cell's row (or column) parity keeps.
    pub fn directions(self, x: i64, y: i64) -> u8 {
        // Bits of NE, NW, SE, SW: 4, 5, 6, 7.
        let (ne, nw, se, sw) = (1 << 4, 1 << 5, 1 << 6, 1 << 7);
        let sides = 0b1111;
        match self.axis {
            // A row pushed right reaches up and down to the right; another, to the left.
            StaggerAxis::Y if self.is_staggered(y) => sides | ne | se,
            StaggerAxis::Y => sides | nw | sw,
            // A column pushed down reaches left and right downwards; another, upwards.
            StaggerAxis::X if self.is_staggered(x) => sides | se | sw,
            StaggerAxis::X => sides | ne | nw,
        }
    }

    /// The index in [`Hex::DIRECTIONS`] of the step from `(x, y)` to `(x + dx, y + dy)`, or
    /// `None` when that cell is not a hex neighbour.
    pub fn direction_of_step(self, x: i64, y: i64, dx: i64, dy: i64) -> Option<usize> {
        self.to_hex(x, y).direction_to(self.to_hex(x + dx, y + dy))
    }

    /// The world position of axial `(0, 0)`, offset `(0, 0)`'s centre.
    fn origin(self) -> (f64, f64) {
        let pushed = if self.is_staggered(0) { 0.5 } else { 0.0 };
        match self.axis {
            StaggerAxis::Y => (0.5 + pushed, CIRCUMRADIUS),
            StaggerAxis::X => (CIRCUMRADIUS, 0.5 + pushed),
        }
    }

    /// The centre of the cell at offset `(x, y)` in the world frame: for pointy-top hexes
    /// `(x + ½ + ½·[row staggered], 1/√3 + y·√3/2)`, for flat-top ones the same with the axes
    /// swapped. Neighbouring centres are 1 apart; the map's hexes lie in x, y ≥ 0.
    pub fn centre_of(self, x: i64, y: i64) -> (f64, f64) {
        let hex = self.to_hex(x, y);
        let (q, r) = (hex.q as f64, hex.r as f64);
        let (ox, oy) = self.origin();
        match self.axis {
            StaggerAxis::Y => (ox + q + r / 2.0, oy + r * ROW_SPACING),
            StaggerAxis::X => (ox + q * ROW_SPACING, oy + r + q / 2.0),
        }
    }

    /// The offset `(x, y)` of the hex under a point of the world frame (exact up to the
    /// rounding of the point itself; a point on an edge goes to one of the two hexes).
    pub fn hex_at(self, x: f64, y: f64) -> (i64, i64) {
        let (ox, oy) = self.origin();
        let (px, py) = (x - ox, y - oy);
        let (q, r) = match self.axis {
            StaggerAxis::Y => {
                let r = py / ROW_SPACING;
                (px - r / 2.0, r)
            }
            StaggerAxis::X => {
                let q = px / ROW_SPACING;
                (q, py - q / 2.0)
            }
        };
        self.to_offset(Hex::round(q, r))
    }

    /// The hexes a straight line between the centres of `a` and `b` passes, from `a` to `b`
    /// (hex distance + 1 of them, each a neighbour of the one before), as offset coordinates
    /// (a line near the map's edge may pass a hex off the map).
    ///
    /// Where the line runs exactly along an edge between two hexes the tie is broken the same
    /// way whichever end it starts from — the points sampled are computed exactly in integers
    /// and nudged by one fixed vector before rounding — so `line(a, b)` is `line(b, a)`
    /// reversed.
    pub fn line(self, a: Cell, b: Cell) -> Vec<(i64, i64)> {
        let (ha, hb) = (
            self.to_hex(i64::from(a.x), i64::from(a.y)),
            self.to_hex(i64::from(b.x), i64::from(b.y)),
        );
        let n = ha.distance(hb) as i64;
        if n == 0 {
            return vec![self.to_offset(ha)];
        }
        // A nudge far smaller than 1 / (2n), the least distance of a sampled point from a
        // rounding boundary it does not lie on (n ≤ 2¹⁷ on the largest map).
        const NUDGE: (f64, f64) = (1e-7, 2e-7);
        let nf = n as f64;
        (0..=n)
            .map(|i| {
                // Exactly a·(n − i) + b·i: the same integers from either end.
                let q = ha.q * (n - i) + hb.q * i;
                let r = ha.r * (n - i) + hb.r * i;
                let hex = Hex::round(q as f64 / nf + NUDGE.0, r as f64 / nf + NUDGE.1);
                self.to_offset(hex)
            })
            .collect()
    }
}

impl HexLayout {
    /// The corners of the hex at offset `(x, y)` in the world frame, counter-clockwise on
    /// screen: pointy-top hexes have a corner at the top, flat-top ones a flat side.
    pub fn corners(self, x: i64, y: i64) -> [(f64, f64); 6] {
        let (cx, cy) = self.centre_of(x, y);
        let first = if self.is_pointy_top() { 30.0 } else { 0.0 };
        std::array::from_fn(|k| {
            let angle = (first + 60.0 * k as f64).to_radians();
            (
                cx + CIRCUMRADIUS * angle.cos(),
                cy - CIRCUMRADIUS * angle.sin(),
            )
        })
    }

    /// Every hex whose closed area the segment between the centres of `a` and `b` meets —
    /// corners and edges touched included, with a margin of 1e-9 so that rounding never
    /// drops a hex the segment grazes — as offset coordinates, sorted (some may lie off the
    /// map). The conservative rule of line of sight: a segment is clear when every hex it
    /// touches is passable, so it never slips between two walls that meet at a corner or runs
    /// along a wall's edge. The same set whichever end it starts from.
    ///
    /// The candidates are the hexes of [`HexLayout::line`] and their neighbours (a segment
    /// never strays farther from its sampled line); each is tested against the segment by
    /// separating axes (the hex's three edge directions and the segment's normal).
    pub fn supercover(self, a: Cell, b: Cell) -> Vec<(i64, i64)> {
        // One order for both directions, so that the tests run on the same numbers.
        let (a, b) = if (a.y, a.x) <= (b.y, b.x) {
            (a, b)
        } else {
            (b, a)
        };
        self.touching(
            self.centre_of(i64::from(a.x), i64::from(a.y)),
            self.centre_of(i64::from(b.x), i64::from(b.y)),
        )
    }

    /// Every hex whose closed area the segment from `p` to `q` (any two points of the world
    /// frame) meets, within 1e-9, as offset coordinates, sorted: [`HexLayout::supercover`] for
    /// segments that need not join two centres. The work grows with the segment's length.
    pub fn touching(self, p: (f64, f64), q: (f64, f64)) -> Vec<(i64, i64)> {
        let mut hexes = self.hexes_near(p, q, 0.0, EVERYWHERE);
        hexes.retain(|&(x, y)| touches(&self.corners(x, y), p, q));
        hexes.sort_unstable();
        hexes.dedup();
        hexes
    }

    /// The hexes among the offset cells `x0..=x1`, `y0..=y1` (`within`) that may come within
    /// `reach` of the segment from `p` to `q` in the world frame: every one that does, and some
    /// a little farther (callers measure the distance themselves). Row by row (pointy-top) or
    /// column by column (flat-top), only the hexes beside the part of the segment that passes
    /// that row, so the work grows with the segment's length and the reach, not its box.
    pub fn hexes_near(
        self,
        p: (f64, f64),
        q: (f64, f64),
        reach: f64,
        within: (i64, i64, i64, i64),
    ) -> Vec<(i64, i64)> {
        let (x0, y0, x1, y1) = within;
        let ((along_lo, across_lo), (along_hi, across_hi)) =
            (self.split(x0, y0), self.split(x1, y1));
        // (along, across) in the world frame: u along the rows (or columns), v across them.
        let frame = |point: (f64, f64)| match self.axis {
            StaggerAxis::Y => point,
            StaggerAxis::X => (point.1, point.0),
        };
        let ((pu, pv), (qu, qv)) = (frame(p), frame(q));
        let pad = reach.max(0.0) + 1e-6;
        // Line `k` spans v ∈ [k·√3/2, k·√3/2 + 2/√3].
        let first =
            (((pv.min(qv) - pad - 2.0 * CIRCUMRADIUS) / ROW_SPACING).floor() as i64).max(across_lo);
        let last = (((pv.max(qv) + pad) / ROW_SPACING).ceil() as i64).min(across_hi);
        let mut hexes = Vec::new();
        for line in first..=last {
            let low = line as f64 * ROW_SPACING - pad;
            let high = low + 2.0 * CIRCUMRADIUS + 2.0 * pad;
            // The part of the segment within the line's band, as a range of u.
            let (t0, t1) = if qv == pv {
                if pv < low || pv > high {
                    continue;
                }
                (0.0, 1.0)
            } else {
                let (a, b) = ((low - pv) / (qv - pv), (high - pv) / (qv - pv));
                (a.min(b).max(0.0), a.max(b).min(1.0))
            };
            if t0 > t1 {
                continue;
            }
            let (ua, ub) = (pu + (qu - pu) * t0, pu + (qu - pu) * t1);
            // Hex `pos` of the line spans u ∈ [pos + shift − ½, pos + shift + ½].
            let shift = if self.is_staggered(line) { 1.0 } else { 0.5 };
            let from = ((ua.min(ub) - pad - shift - 0.5).floor() as i64).max(along_lo);
            let to = ((ua.max(ub) + pad - shift + 0.5).ceil() as i64).min(along_hi);
            for pos in from..=to {
                hexes.push(self.join(pos, line));
            }
        }
        hexes
    }

    /// The distance from a point of the world frame to the closed area of the hex at offset
    /// `(x, y)`: 0 inside it or on its edge.
    pub fn distance_to(self, x: i64, y: i64, point: (f64, f64)) -> f64 {
        let corners = self.corners(x, y);
        let (cx, cy) = self.centre_of(x, y);
        // Inside when on the centre's side of every edge.
        let inside = (0..6).all(|k| {
            let (u, v) = (corners[k], corners[(k + 1) % 6]);
            let side = |p: (f64, f64)| (v.0 - u.0) * (p.1 - u.1) - (v.1 - u.1) * (p.0 - u.0);
            side(point) * side((cx, cy)) >= 0.0
        });
        if inside {
            return 0.0;
        }
        (0..6)
            .map(|k| point_to_segment(point, corners[k], corners[(k + 1) % 6]))
            .fold(f64::INFINITY, f64::min)
    }

    /// Whether the segment from `p` to `q` meets the closed area of the hex at offset
    /// `(x, y)` (within 1e-9).
    pub fn meets(self, x: i64, y: i64, p: (f64, f64), q: (f64, f64)) -> bool {
        touches(&self.corners(x, y), p, q)
    }

    /// The least distance between the segment from `p` to `q` and the closed area of the hex
    /// at offset `(x, y)`: 0 when they meet, else reached at a corner of the hex or an end of
    /// the segment.
    pub fn segment_distance(self, x: i64, y: i64, p: (f64, f64), q: (f64, f64)) -> f64 {
        let corners = self.corners(x, y);
        if touches(&corners, p, q) {
            return 0.0;
        }
        corners
            .iter()
            .map(|&c| point_to_segment(c, p, q))
            .fold(self.distance_to(x, y, p), f64::min)
            .min(self.distance_to(x, y, q))
    }
}

/// Every offset cell: the `within` of [`HexLayout::hexes_near`] that clips nothing.
const EVERYWHERE: (i64, i64, i64, i64) = (i64::MIN / 4, i64::MIN / 4, i64::MAX / 4, i64::MAX / 4);

/// The distance from `point` to the segment `a`–`b`.
fn point_to_segment(point: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let length2 = dx * dx + dy * dy;
    let t = if length2 > 0.0 {
        (((point.0 - a.0) * dx + (point.1 - a.1) * dy) / length2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (point.0 - (a.0 + dx * t)).hypot(point.1 - (a.1 + dy * t))
}

/// Whether the segment `p`–`q` meets the convex polygon `corners` (within 1e-9): no
/// separating axis among the polygon's edge normals and the segment's normal.
fn touches(corners: &[(f64, f64); 6], p: (f64, f64), q: (f64, f64)) -> bool {
    const MARGIN: f64 = 1e-9;
    let separated = |axis: (f64, f64)| {
        let project = |point: (f64, f64)| point.0 * axis.0 + point.1 * axis.1;
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for &c in corners {
            lo = lo.min(project(c));
            hi = hi.max(project(c));
        }
        let (s, t) = (project(p), project(q));
        s.max(t) < lo - MARGIN || s.min(t) > hi + MARGIN
    };
    let edges = (0..3).map(|k| {
        let (u, v) = (corners[k], corners[k + 1]);
        (v.1 - u.1, u.0 - v.0)
    });
    let segment_normal = (q.1 - p.1, p.0 - q.0);
    !edges.chain(std::iter::once(segment_normal)).any(separated)
}

impl Topology {
    /// The hex layout, or `None` for square cells.
    pub fn hex(self) -> Option<HexLayout> {
        match self {
            Topology::Square => None,
            Topology::Hex(layout) => Some(layout),
        }
    }

    /// Whether the cells are hexagons.
    pub fn is_hex(self) -> bool {
        matches!(self, Topology::Hex(_))
    }

    /// The directions of the search graph (east, west, south, north, north-east, north-west,
    /// south-east, south-west) that lead from `(x, y)` to a neighbour: all eight on squares
    /// (the diagonal rule then prunes them), six on hexes.
    pub fn directions(self, x: i64, y: i64) -> u8 {
        match self {
            Topology::Square => u8::MAX,
            Topology::Hex(layout) => layout.directions(x, y),
        }
    }

    /// Whether one step leads from `a` to `b`: one of the eight king moves on squares (the
    /// diagonal rule aside), one of the six neighbours on hexes.
    pub fn are_neighbours(self, a: Cell, b: Cell) -> bool {
        match self {
            Topology::Square => a != b && a.x.abs_diff(b.x) <= 1 && a.y.abs_diff(b.y) <= 1,
            Topology::Hex(layout) => layout.distance(a, b) == 1,
        }
    }

    /// The distance between the centres of two neighbours in each of the eight directions:
    /// 1 across a side and √2 across a corner on squares, 1 for every step on hexes.
    pub fn step_lengths(self) -> [f64; 8] {
        match self {
            Topology::Square => {
                let d = std::f64::consts::SQRT_2;
                [1.0, 1.0, 1.0, 1.0, d, d, d, d]
            }
            Topology::Hex(_) => [1.0; 8],
        }
    }

    /// The centre of a cell in the world frame: `(x + ½, y + ½)` on squares,
    /// [`HexLayout::centre_of`] on hexes.
    pub fn centre(self, cell: Cell) -> (f64, f64) {
        match self {
            Topology::Square => (f64::from(cell.x) + 0.5, f64::from(cell.y) + 0.5),
            Topology::Hex(layout) => layout.centre_of(i64::from(cell.x), i64::from(cell.y)),
        }
    }

    /// The corners of the cell at `(x, y)` (signed: cells off the map have corners too) in the
    /// world frame, counter-clockwise on screen: four on squares, six on hexes
    /// ([`HexLayout::corners`]).
    pub fn corners(self, x: i64, y: i64) -> Vec<(f64, f64)> {
        match self {
            Topology::Square => {
                let (x0, y0) = (x as f64, y as f64);
                vec![
                    (x0 + 1.0, y0 + 1.0),
                    (x0 + 1.0, y0),
                    (x0, y0),
                    (x0, y0 + 1.0),
                ]
            }
            Topology::Hex(layout) => layout.corners(x, y).to_vec(),
        }
    }

    /// The cells that share a side with the cell at `(x, y)` (not merely a corner): its four
    /// orthogonal neighbours on squares, all six on hexes; signed, so some may lie off the map.
    pub fn side_neighbours(self, x: i64, y: i64) -> Vec<(i64, i64)> {
        match self {
            Topology::Square => vec![(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)],
            Topology::Hex(layout) => layout.neighbours(x, y).to_vec(),
        }
    }

    /// The cell (as signed coordinates, possibly off the map) under a point of the world frame.
    pub fn cell_at(self, x: f64, y: f64) -> (i64, i64) {
        match self {
            Topology::Square => (x.floor() as i64, y.floor() as i64),
            Topology::Hex(layout) => layout.hex_at(x, y),
        }
    }

    /// The size of a `width` × `height` map's bounding box in the world frame.
    pub fn world_size(self, width: u32, height: u32) -> (f64, f64) {
        let (w, h) = (f64::from(width), f64::from(height));
        let Topology::Hex(layout) = self else {
            return (w, h);
        };
        // Half a cell more where some line is pushed along (any map of two lines or more).
        let (along, across) = match layout.axis {
            StaggerAxis::Y => (w, h),
            StaggerAxis::X => (h, w),
        };
        let pushed = if across > 1.0 || layout.is_staggered(0) {
            0.5
        } else {
            0.0
        };
        let long = along + pushed;
        let short = 2.0 * CIRCUMRADIUS + (across - 1.0) * ROW_SPACING;
        match layout.axis {
            StaggerAxis::Y => (long, short),
            StaggerAxis::X => (short, long),
        }
    }

    /// The name in files and on the command line: `square`, or the hex layout's
    /// ([`HexLayout::name`]).
    pub fn name(self) -> &'static str {
        match self {
            Topology::Square => "square",
            Topology::Hex(layout) => layout.name(),
        }
    }

    /// Every topology, square first.
    pub const ALL: [Topology; 5] = [
        Topology::Square,
        Topology::Hex(HexLayout::ODD_R),
        Topology::Hex(HexLayout::EVEN_R),
        Topology::Hex(HexLayout::ODD_Q),
        Topology::Hex(HexLayout::EVEN_Q),
    ];
}

impl fmt::Display for Topology {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Topology {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Topology::ALL
            .iter()
            .copied()
            .find(|t| t.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown topology {s:?}; expected one of: square, odd-r, even-r, odd-q, even-q"
                )
            })
    }
}

/// The offset of each of the eight directions, for the tests below.
#[cfg(test)]
fn step(d: usize) -> (i64, i64) {
    (DX[d], DY[d])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offset_and_axial_convert_both_ways() {
        for layout in HexLayout::ALL {
            for y in -5..6 {
                for x in -5..6 {
                    let hex = layout.to_hex(x, y);
                    assert_eq!(layout.to_offset(hex), (x, y), "{}", layout.name());
                }
            }
        }
    }

    #[test]
    fn the_direction_mask_names_the_six_neighbours() {
        for layout in HexLayout::ALL {
            for y in -3..4 {
                for x in -3..4 {
                    let mask = layout.directions(x, y);
                    assert_eq!(mask.count_ones(), 6);
                    let mut by_mask: Vec<(i64, i64)> = (0..8)
                        .filter(|d| mask >> d & 1 == 1)
                        .map(|d| {
                            let (dx, dy) = step(d);
                            (x + dx, y + dy)
                        })
                        .collect();
                    let mut by_hex = layout.neighbours(x, y).to_vec();
                    by_mask.sort_unstable();
                    by_hex.sort_unstable();
                    assert_eq!(by_mask, by_hex, "{} at ({x}, {y})", layout.name());
                }
            }
        }
    }

    #[test]
    fn neighbouring_centres_are_one_apart_and_round_back() {
        for layout in HexLayout::ALL {
            for y in 0..6 {
                for x in 0..6 {
                    let (cx, cy) = layout.centre_of(x, y);
                    assert!(cx >= 0.5 - 1e-9 && cy >= 0.5 - 1e-9);
                    assert_eq!(layout.hex_at(cx, cy), (x, y));
                    for (nx, ny) in layout.neighbours(x, y) {
                        let (ax, ay) = layout.centre_of(nx, ny);
                        assert!(((ax - cx).hypot(ay - cy) - 1.0).abs() < 1e-12);
                        // Just short of halfway to a neighbour is still this hex.
                        let (mx, my) = (cx + (ax - cx) * 0.49, cy + (ay - cy) * 0.49);
                        assert_eq!(layout.hex_at(mx, my), (x, y));
                    }
                }
            }
        }
    }

    #[test]
    fn the_layouts_stagger_as_tiled_names_them() {
        // Pointy-top, odd rows pushed right: row 1's first hex is right of row 0's.
        let (a, b) = (
            HexLayout::ODD_R.centre_of(0, 0),
            HexLayout::ODD_R.centre_of(0, 1),
        );
        assert!(b.0 > a.0 && b.1 > a.1);
        let (a, b) = (
            HexLayout::EVEN_R.centre_of(0, 0),
            HexLayout::EVEN_R.centre_of(0, 1),
        );
        assert!(b.0 < a.0);
        // Flat-top, odd columns pushed down.
        let (a, b) = (
            HexLayout::ODD_Q.centre_of(0, 0),
            HexLayout::ODD_Q.centre_of(1, 0),
        );
        assert!(b.1 > a.1 && b.0 > a.0);
        let (a, b) = (
            HexLayout::EVEN_Q.centre_of(0, 0),
            HexLayout::EVEN_Q.centre_of(1, 0),
        );
        assert!(b.1 < a.1);
    }

    #[test]
    fn lines_step_from_neighbour_to_neighbour() {
        for layout in HexLayout::ALL {
            let (a, b) = (Cell::new(1, 2), Cell::new(9, 5));
            let line = layout.line(a, b);
            assert_eq!(line.len() as u64, layout.distance(a, b) + 1);
            assert_eq!(line.first(), Some(&(1, 2)));
            assert_eq!(line.last(), Some(&(9, 5)));
            for pair in line.windows(2) {
                let (x, y) = pair[0];
                assert!(layout.neighbours(x, y).contains(&pair[1]));
            }
        }
    }

    #[test]
    fn the_supercover_holds_every_hex_the_segment_passes() {
        for layout in HexLayout::ALL {
            let cells: Vec<Cell> = (0..36).map(|i| Cell::new(i % 6, i / 6)).collect();
            for &a in &cells {
                for &b in &cells {
                    let cover = layout.supercover(a, b);
                    assert_eq!(cover, layout.supercover(b, a));
                    for hex in layout.line(a, b) {
                        assert!(cover.contains(&hex), "{} {a} → {b}", layout.name());
                    }
                    // Points along the segment, and a hair to either side of it: each lies
                    // in a hex of the cover.
                    let (p, q) = (
                        layout.centre_of(i64::from(a.x), i64::from(a.y)),
                        layout.centre_of(i64::from(b.x), i64::from(b.y)),
                    );
                    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
                    let norm = dx.hypot(dy).max(1e-12);
                    let (nx, ny) = (-dy / norm * 1e-10, dx / norm * 1e-10);
                    for i in 0..=400 {
                        let t = f64::from(i) / 400.0;
                        let (x, y) = (p.0 + dx * t, p.1 + dy * t);
                        for side in [-1.0, 0.0, 1.0] {
                            let hex = layout.hex_at(x + side * nx, y + side * ny);
                            assert!(cover.contains(&hex), "{} {a} → {b}: {hex:?}", layout.name());
                        }
                    }
                }
            }
        }
        // Along the edge between two hexes, both count.
        let cover = HexLayout::ODD_R.supercover(Cell::new(0, 0), Cell::new(0, 2));
        assert!(
            cover.contains(&(-1, 1)) && cover.contains(&(0, 1)),
            "{cover:?}"
        );
        // Two neighbours touch only each other (and no corner of a third).
        let cover = HexLayout::ODD_Q.supercover(Cell::new(2, 2), Cell::new(3, 2));
        assert_eq!(cover.len(), 2, "{cover:?}");
    }

    #[test]
    fn hexes_near_a_segment_hold_every_hex_within_reach() {
        let mut seed = 11u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for layout in HexLayout::ALL {
            for _ in 0..300 {
                let p = (next() * 8.0, next() * 8.0);
                let q = if next() < 0.3 {
                    p
                } else {
                    (next() * 8.0, next() * 8.0)
                };
                let reach = next() * 2.0;
                let near = layout.hexes_near(p, q, reach, EVERYWHERE);
                let touching = layout.touching(p, q);
                for y in -4..14 {
                    for x in -4..14 {
                        let d = layout.segment_distance(x, y, p, q);
                        if d <= reach {
                            assert!(
                                near.contains(&(x, y)),
                                "{} ({x}, {y}) at {d}",
                                layout.name()
                            );
                        }
                        // Touching is meeting, and meeting is a distance of 0.
                        assert_eq!(touching.contains(&(x, y)), layout.meets(x, y, p, q));
                        assert_eq!(layout.meets(x, y, p, q), d == 0.0);
                    }
                }
                // The distance to a hex is the least over points sampled on the segment.
                let (x, y) = layout.hex_at(p.0 + 1.3, p.1 - 0.4);
                let sampled = (0..=1000)
                    .map(|i| {
                        let t = f64::from(i) / 1000.0;
                        layout.distance_to(x, y, (p.0 + (q.0 - p.0) * t, p.1 + (q.1 - p.1) * t))
                    })
                    .fold(f64::INFINITY, f64::min);
                let exact = layout.segment_distance(x, y, p, q);
                assert!(
                    exact <= sampled + 1e-12 && sampled - exact < 0.006,
                    "{exact} {sampled}"
                );
            }
        }
        // Inside a hex the distance is 0; half a cell past its centre, across a flat, too.
        let layout = HexLayout::ODD_R;
        let (cx, cy) = layout.centre_of(3, 3);
        assert_eq!(layout.distance_to(3, 3, (cx + 0.2, cy)), 0.0);
        assert!((layout.distance_to(3, 3, (cx + 0.75, cy)) - 0.25).abs() < 1e-12);
    }

    #[test]
    fn world_size_holds_every_centre() {
        for topology in Topology::ALL {
            let (w, h) = topology.world_size(7, 5);
            for y in 0..5 {
                for x in 0..7 {
                    let (cx, cy) = topology.centre(Cell::new(x, y));
                    assert!(cx + 0.5 <= w + 1e-9 && cy + 0.5 <= h + 1e-9, "{topology}");
                }
            }
            assert_eq!(topology.name().parse::<Topology>(), Ok(topology));
        }
    }

    #[test]
    fn a_side_neighbour_shares_two_corners_and_a_corner_neighbour_at_most_one() {
        let topologies = [
            Topology::Square,
            Topology::Hex(HexLayout::ODD_R),
            Topology::Hex(HexLayout::new(StaggerAxis::X, StaggerIndex::Even)),
        ];
        let shared = |a: &[(f64, f64)], b: &[(f64, f64)]| {
            a.iter()
                .filter(|p| b.iter().any(|q| (p.0 - q.0).hypot(p.1 - q.1) < 1e-9))
                .count()
        };
        for topology in topologies {
            for (x, y) in [(0, 0), (3, 4), (-1, 2), (5, -3)] {
                let corners = topology.corners(x, y);
                let sides = topology.side_neighbours(x, y);
                assert_eq!(corners.len(), sides.len(), "{topology:?}");
                for &(nx, ny) in &sides {
                    assert_eq!(
                        shared(&corners, &topology.corners(nx, ny)),
                        2,
                        "{topology:?}"
                    );
                }
                for dx in -2..=2 {
                    for dy in -2..=2 {
                        let other = (x + dx, y + dy);
                        if other != (x, y) && !sides.contains(&other) {
                            let n = shared(&corners, &topology.corners(other.0, other.1));
                            assert!(n <= 1, "{topology:?} {other:?} shares {n}");
                        }
                    }
                }
                // The centre lies inside the polygon: the corners go round it once.
                let n = corners.len() as f64;
                let cx = corners.iter().map(|p| p.0).sum::<f64>() / n;
                let cy = corners.iter().map(|p| p.1).sum::<f64>() / n;
                if let (Ok(cx_cell), Ok(cy_cell)) = (u32::try_from(x), u32::try_from(y)) {
                    let centre = topology.centre(Cell::new(cx_cell, cy_cell));
                    assert!((centre.0 - cx).hypot(centre.1 - cy) < 1e-9, "{topology:?}");
                }
                let turn: f64 = (0..corners.len())
                    .map(|k| {
                        let (a, b) = (corners[k], corners[(k + 1) % corners.len()]);
                        let angle = |p: (f64, f64)| (p.1 - cy).atan2(p.0 - cx);
                        let mut d = angle(b) - angle(a);
                        if d > std::f64::consts::PI {
                            d -= std::f64::consts::TAU;
                        } else if d < -std::f64::consts::PI {
                            d += std::f64::consts::TAU;
                        }
                        d
                    })
                    .sum();
                assert!(
                    (turn.abs() - std::f64::consts::TAU).abs() < 1e-9,
                    "{topology:?}"
                );
            }
        }
    }
}
