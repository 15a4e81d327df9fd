//! What a topology answers of the shapes on its map, so that the editor and the tools ask it
//! rather than tell squares from hexes themselves: the cells a brush covers, the line of cells
//! between two cells, the steps between them, what a brush or a unit covers drawn as one
//! shape, the rows and columns a rectangle of the world frame spans, and where a block of
//! cells is drawn.
//!
//! The world frame is [`Topology::centre`]'s: a square cell `(x, y)` spans `[x, x + 1] ×
//! [y, y + 1]`, neighbouring hex centres lie 1 apart.

use super::cell::Cell;
use super::topology::{Hex, StaggerAxis, Topology};

/// A shape of the world frame that stands for a set of cells: a rectangle of squares, or the
/// disc a set of hexes fills.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Outline {
    /// An axis-aligned rectangle, from its least corner to its greatest.
    Rect {
        /// The least corner.
        min: (f64, f64),
        /// The greatest corner.
        max: (f64, f64),
    },
    /// A disc.
    Disc {
        /// The centre.
        centre: (f64, f64),
        /// The radius.
        radius: f64,
    },
}

impl Outline {
    /// The shape's middle.
    pub fn centre(&self) -> (f64, f64) {
        match *self {
            Outline::Rect { min, max } => ((min.0 + max.0) / 2.0, (min.1 + max.1) / 2.0),
            Outline::Disc { centre, .. } => centre,
        }
    }
}

impl Topology {
    /// Whether a cell has neighbours across its corners as well as across its sides
    /// (squares): a diagonal rule then applies, and a straight line's length is more than a
    /// count of steps. On hexes every neighbour shares a side and every step is one long.
    pub fn has_diagonals(self) -> bool {
        self.hex().is_none()
    }

    /// Whether the cells' sides line up into straight lines across the map (squares), so that
    /// one texel a cell and straight grid lines draw them exactly.
    pub fn sides_line_up(self) -> bool {
        self.hex().is_none()
    }

    /// The lines of cells that are pushed half a cell along: rows of pointy-top hexes
    /// ([`StaggerAxis::Y`]), columns of flat-top ones; none on squares.
    pub fn staggered_axis(self) -> Option<StaggerAxis> {
        self.hex().map(|layout| layout.axis)
    }

    /// The cells (signed, possibly off the map) a brush of `size` covers around `centre`: on
    /// squares the `size` × `size` block around it (the cells of the disc inscribed in it
    /// when `round`), on hexes the hexes within `size − 1` steps (round or not). `size` is at
    /// least 1.
    pub fn brush(self, centre: Cell, size: u32, round: bool) -> Vec<(i64, i64)> {
        let size = size.max(1);
        let (cx, cy) = (i64::from(centre.x), i64::from(centre.y));
        let Some(layout) = self.hex() else {
            let lo = -(i64::from(size - 1) / 2);
            let hi = lo + i64::from(size) - 1;
            // The block's centre, relative to the centre cell's top-left corner.
            let mid = (lo + hi + 1) as f64 / 2.0;
            let radius = f64::from(size) / 2.0 - 0.25;
            let mut cells = Vec::with_capacity((size * size) as usize);
            for dy in lo..=hi {
                for dx in lo..=hi {
                    if round {
                        let (ox, oy) = (dx as f64 + 0.5 - mid, dy as f64 + 0.5 - mid);
                        if ox * ox + oy * oy > radius * radius {
                            continue;
                        }
                    }
                    cells.push((cx + dx, cy + dy));
                }
            }
            return cells;
        };
        let hex = layout.to_hex(cx, cy);
        let r = i64::from(size - 1);
        let mut cells = Vec::new();
        for dq in -r..=r {
            for dr in (-r).max(-dq - r)..=r.min(-dq + r) {
                cells.push(layout.to_offset(Hex::new(hex.q + dq, hex.r + dr)));
            }
        }
        cells
    }

    /// The cells of the straight line from `a` to `b`, both included, each a neighbour of the
    /// one before: Bresenham's line on squares, [`super::HexLayout::line`] on hexes.
    pub fn line(self, a: Cell, b: Cell) -> Vec<(i64, i64)> {
        if let Some(layout) = self.hex() {
            return layout.line(a, b);
        }
        let (mut x, mut y) = (i64::from(a.x), i64::from(a.y));
        let (x1, y1) = (i64::from(b.x), i64::from(b.y));
        let (dx, dy) = ((x1 - x).abs(), -(y1 - y).abs());
        let (sx, sy) = (if x < x1 { 1 } else { -1 }, if y < y1 { 1 } else { -1 });
        let mut err = dx + dy;
        let mut cells = Vec::with_capacity((dx.max(-dy) + 1) as usize);
        loop {
            cells.push((x, y));
            if x == x1 && y == y1 {
                return cells;
            }
            let e2 = 2 * err;
            if e2 >= dy {
                err += dy;
                x += sx;
            }
            if e2 <= dx {
                err += dx;
                y += sy;
            }
        }
    }

    /// Every cell (signed, possibly off the map) whose closed area the segment of the world
    /// frame from `p` to `q` meets, corners and edges touched included: the supercover of
    /// squares, in the order the segment reaches them, or [`super::HexLayout::touching`].
    pub fn touching(self, p: (f64, f64), q: (f64, f64)) -> Vec<(i64, i64)> {
        match self.hex() {
            Some(layout) => layout.touching(p, q),
            None => super::crossings::supercover(p, q),
        }
    }

    /// The fewest steps from `a` to `b`, walls aside: king moves on squares, the hex
    /// distance on hexes.
    pub fn step_count(self, a: Cell, b: Cell) -> u64 {
        match self.hex() {
            Some(layout) => layout.distance(a, b),
            None => u64::from(a.x.abs_diff(b.x).max(a.y.abs_diff(b.y))),
        }
    }

    /// What a brush of `size` centred on `cell` covers ([`Topology::brush`]), as one shape:
    /// the block around it on squares, the disc its hexes fill on hexes.
    pub fn brush_outline(self, cell: Cell, size: u32) -> Outline {
        if self.hex().is_some() {
            return self.disc(cell, size);
        }
        let lo = -(f64::from(size.max(1) - 1) / 2.0).floor();
        let min = (f64::from(cell.x) + lo, f64::from(cell.y) + lo);
        let side = f64::from(size);
        Outline::Rect {
            min,
            max: (min.0 + side, min.1 + side),
        }
    }

    /// What a unit of size `unit` placed at `cell` covers: its `unit` × `unit` square with
    /// `cell` top-left on squares, the disc of the hexes within `unit − 1` steps around
    /// `cell` on hexes.
    pub fn unit_outline(self, cell: Cell, unit: u32) -> Outline {
        if self.hex().is_some() {
            return self.disc(cell, unit);
        }
        let min = (f64::from(cell.x), f64::from(cell.y));
        let side = f64::from(unit);
        Outline::Rect {
            min,
            max: (min.0 + side, min.1 + side),
        }
    }

    /// The disc the hexes within `size − 1` steps of `cell` fill.
    fn disc(self, cell: Cell, size: u32) -> Outline {
        Outline::Disc {
            centre: self.centre(cell),
            radius: f64::from(size) - 0.5,
        }
    }

    /// The first and one-past-the-last column and row of the cells a rectangle of the world
    /// frame, from `min` to `max`, shows (unclamped): on hexes one more on every side, as a
    /// hex's row or column drifts by half a cell.
    pub fn cells_over(self, min: (f64, f64), max: (f64, f64)) -> ((f64, f64), (f64, f64)) {
        if self.hex().is_none() {
            return ((min.0.floor(), min.1.floor()), (max.0.ceil(), max.1.ceil()));
        }
        let (ax, ay) = self.cell_at(min.0, min.1);
        let (bx, by) = self.cell_at(max.0, max.1);
        (
            (ax as f64 - 1.0, ay as f64 - 1.0),
            (bx as f64 + 2.0, by as f64 + 2.0),
        )
    }

    /// The rectangle of the world frame where the block of cells from `(x0, y0)` to one
    /// before `(x1, y1)` is drawn as a picture of one texel a cell (`factor` 1) or a cell of
    /// `factor` × `factor` cells: the block itself on squares. On hexes the rectangle spans
    /// its lines' centres across them, and along them lies pushed by half a cell for a single
    /// pushed line, by a quarter (the mean push) for more.
    pub fn block_rect(self, factor: u32, block: (u32, u32, u32, u32)) -> ((f64, f64), (f64, f64)) {
        let f = f64::from(factor);
        let (x0, y0, x1, y1) = (
            f64::from(block.0) * f,
            f64::from(block.1) * f,
            f64::from(block.2) * f,
            f64::from(block.3) * f,
        );
        let Some(layout) = self.hex() else {
            return ((x0, y0), (x1, y1));
        };
        // Along the rows (pointy-top) or columns (flat-top), and across them.
        let pointy = layout.is_pointy_top();
        let (along0, along1, across0, across1) = if pointy {
            (x0, x1, y0, y1)
        } else {
            (y0, y1, x0, x1)
        };
        let single = factor == 1 && across1 - across0 == 1.0;
        let push = if !single {
            0.25
        } else if layout.is_staggered(across0 as i64) {
            0.5
        } else {
            0.0
        };
        // The first line's centre across, and the spacing of lines.
        let across_of = |line: i64| {
            let (x, y) = if pointy {
                layout.centre_of(0, line)
            } else {
                layout.centre_of(line, 0)
            };
            if pointy { y } else { x }
        };
        let (first, spacing) = (across_of(0), across_of(2) / 2.0 - across_of(0) / 2.0);
        let a0 = first + (across0 - 0.5) * spacing;
        let a1 = first + (across1 - 0.5) * spacing;
        let (b0, b1) = (along0 + push, along1 + push);
        if pointy {
            ((b0, a0), (b1, a1))
        } else {
            ((a0, b0), (a1, b1))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::HexLayout;

    #[test]
    fn a_brush_covers_a_block_on_squares_and_a_disc_of_hexes() {
        let square = Topology::Square.brush(Cell::new(10, 10), 3, false);
        assert_eq!(square.len(), 9);
        assert!(square.contains(&(9, 9)) && square.contains(&(11, 11)));
        assert!(Topology::Square.brush(Cell::new(10, 10), 4, true).len() < 16);
        for layout in HexLayout::ALL {
            let topology = Topology::Hex(layout);
            let centre = Cell::new(10, 9);
            for size in 1..5_u32 {
                let r = u64::from(size - 1);
                let cells = topology.brush(centre, size, false);
                assert_eq!(cells.len() as u64, 3 * r * (r + 1) + 1, "{layout:?}");
                for (x, y) in cells {
                    let cell = Cell::new(x as u32, y as u32);
                    assert!(topology.step_count(centre, cell) <= r, "{layout:?} {cell}");
                }
            }
        }
    }

    #[test]
    fn a_line_steps_from_neighbour_to_neighbour() {
        let (a, b) = (Cell::new(1, 2), Cell::new(9, 6));
        for topology in Topology::ALL {
            let cells = topology.line(a, b);
            assert_eq!(cells.first(), Some(&(1, 2)));
            assert_eq!(cells.last(), Some(&(9, 6)));
            assert_eq!(
                cells.len() as u64,
                topology.step_count(a, b) + 1,
                "{topology}"
            );
            for pair in cells.windows(2) {
                let (p, q) = (pair[0], pair[1]);
                let (p, q) = (
                    Cell::new(p.0 as u32, p.1 as u32),
                    Cell::new(q.0 as u32, q.1 as u32),
                );
                assert!(topology.are_neighbours(p, q), "{topology}: {p} {q}");
            }
        }
    }

    #[test]
    fn outlines_stand_where_their_cells_are() {
        let cell = Cell::new(4, 6);
        assert_eq!(Topology::Square.unit_outline(cell, 2).centre(), (5.0, 7.0));
        assert_eq!(
            Topology::Square.brush_outline(cell, 3),
            Outline::Rect {
                min: (3.0, 5.0),
                max: (6.0, 8.0)
            }
        );
        let hex = Topology::Hex(HexLayout::ODD_R);
        assert_eq!(hex.unit_outline(cell, 2).centre(), hex.centre(cell));
        assert!(!hex.has_diagonals() && Topology::Square.has_diagonals());
    }
}
