//! Tiled's hexagonal maps in pixels: where a hex of a map with `orientation="hexagonal"`
//! stands, for the objects (start, goal) the reader places and the writer writes.
//!
//! Tiled draws a hex map from its tile size and `hexsidelength` (the length of the sides
//! along the stagger axis): with rows staggered (`staggeraxis="y"`, pointy-top) a row is
//! `(tileheight − hexsidelength) / 2 + hexsidelength` pixels below the one before and a
//! staggered row `tilewidth / 2` pixels to the right; with columns staggered the same with the
//! axes swapped. A hex's bounding box is one tile; the map's starts at the origin.

use crate::grid::{HexLayout, StaggerAxis};

/// The pixel geometry of a Tiled hex map.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct HexPixels {
    /// The stagger axis and index.
    pub layout: HexLayout,
    /// A tile's width in pixels.
    pub tile_width: f64,
    /// A tile's height in pixels.
    pub tile_height: f64,
    /// `hexsidelength`.
    pub side: f64,
}

impl HexPixels {
    /// How far the next hex along the stagger axis lies (a row's height for pointy-top hexes,
    /// a column's width for flat-top ones), and how far a staggered line is pushed along.
    fn steps(&self) -> (f64, f64) {
        match self.layout.axis {
            StaggerAxis::Y => (
                (self.tile_height - self.side) / 2.0 + self.side,
                self.tile_width / 2.0,
            ),
            StaggerAxis::X => (
                (self.tile_width - self.side) / 2.0 + self.side,
                self.tile_height / 2.0,
            ),
        }
    }

    /// The centre of hex `(x, y)` in pixels.
    pub fn centre(&self, x: i64, y: i64) -> (f64, f64) {
        let (across, push) = self.steps();
        let (fx, fy) = (x as f64, y as f64);
        let (left, top) = match self.layout.axis {
            StaggerAxis::Y => {
                let pushed = if self.layout.is_staggered(y) {
                    push
                } else {
                    0.0
                };
                (fx * self.tile_width + pushed, fy * across)
            }
            StaggerAxis::X => {
                let pushed = if self.layout.is_staggered(x) {
                    push
                } else {
                    0.0
                };
                (fx * across, fy * self.tile_height + pushed)
            }
        };
        (left + self.tile_width / 2.0, top + self.tile_height / 2.0)
    }

    /// The hex whose centre is nearest a point in pixels (the hex under it, for regular
    /// hexes), or `None` for a point that is not a finite number.
    pub fn hex_at(&self, px: f64, py: f64) -> Option<(i64, i64)> {
        let (across, _) = self.steps();
        if !(px.is_finite() && py.is_finite() && across > 0.0) {
            return None;
        }
        // The nearest centre lies within a line or a column of the first guess.
        let (gx, gy) = match self.layout.axis {
            StaggerAxis::Y => ((px / self.tile_width).floor(), (py / across).floor()),
            StaggerAxis::X => ((px / across).floor(), (py / self.tile_height).floor()),
        };
        let limit = 1e15;
        if gx.abs() > limit || gy.abs() > limit {
            return None;
        }
        let (gx, gy) = (gx as i64, gy as i64);
        let mut best: Option<(f64, (i64, i64))> = None;
        for y in gy - 1..=gy + 1 {
            for x in gx - 1..=gx + 1 {
                let (cx, cy) = self.centre(x, y);
                let d = (cx - px).hypot(cy - py);
                if best.is_none_or(|(b, _)| d < b) {
                    best = Some((d, (x, y)));
                }
            }
        }
        best.map(|(_, cell)| cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_centre_is_its_own_hex_in_every_layout() {
        for layout in HexLayout::ALL {
            let pixels = HexPixels {
                layout,
                tile_width: 14.0,
                tile_height: 12.0,
                side: 6.0,
            };
            for y in 0..6 {
                for x in 0..6 {
                    let (cx, cy) = pixels.centre(x, y);
                    assert_eq!(pixels.hex_at(cx + 0.5, cy - 0.5), Some((x, y)));
                }
            }
        }
        // Tiled's hexagonal-mini: tiles of 14 × 12, sides of 6, odd rows pushed 7 right and
        // rows 9 apart.
        let mini = HexPixels {
            layout: HexLayout::ODD_R,
            tile_width: 14.0,
            tile_height: 12.0,
            side: 6.0,
        };
        assert_eq!(mini.centre(0, 0), (7.0, 6.0));
        assert_eq!(mini.centre(0, 1), (14.0, 15.0));
    }
}
