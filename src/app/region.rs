//! A rectangle of cells that changed and must be redrawn.

use crate::grid::Cell;

/// A rectangle of cells, `x0..x1` × `y0..y1` (ends excluded); empty when `x0 >= x1` or
/// `y0 >= y1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// The leftmost column.
    pub x0: u32,
    /// The top row.
    pub y0: u32,
    /// One past the rightmost column.
    pub x1: u32,
    /// One past the bottom row.
    pub y1: u32,
}

impl Default for Region {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl Region {
    /// The region with no cells.
    pub const EMPTY: Region = Region {
        x0: u32::MAX,
        y0: u32::MAX,
        x1: 0,
        y1: 0,
    };

    /// Every cell of a `width` × `height` map.
    pub fn whole(width: u32, height: u32) -> Self {
        Self {
            x0: 0,
            y0: 0,
            x1: width,
            y1: height,
        }
    }

    /// Whether it holds no cell.
    pub fn is_empty(&self) -> bool {
        self.x0 >= self.x1 || self.y0 >= self.y1
    }

    /// The number of columns (0 when empty).
    pub fn width(&self) -> u32 {
        self.x1.saturating_sub(self.x0)
    }

    /// The number of rows (0 when empty).
    pub fn height(&self) -> u32 {
        self.y1.saturating_sub(self.y0)
    }

    /// Grows the region to hold a cell.
    pub fn include(&mut self, cell: Cell) {
        self.x0 = self.x0.min(cell.x);
        self.y0 = self.y0.min(cell.y);
        self.x1 = self.x1.max(cell.x.saturating_add(1));
        self.y1 = self.y1.max(cell.y.saturating_add(1));
    }

    /// The region grown by `by` cells on every side, within a `width` × `height` map; an
    /// empty region stays empty.
    pub fn grown(self, by: u32, width: u32, height: u32) -> Self {
        if self.is_empty() {
            return self;
        }
        Self {
            x0: self.x0.saturating_sub(by),
            y0: self.y0.saturating_sub(by),
            x1: self.x1.saturating_add(by).min(width),
            y1: self.y1.saturating_add(by).min(height),
        }
    }

    /// Grows the region to hold another.
    pub fn union(&mut self, other: Region) {
        if other.is_empty() {
            return;
        }
        self.x0 = self.x0.min(other.x0);
        self.y0 = self.y0.min(other.y0);
        self.x1 = self.x1.max(other.x1);
        self.y1 = self.y1.max(other.y1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_region_grows_to_hold_its_cells() {
        let mut region = Region::EMPTY;
        assert!(region.is_empty());
        region.include(Cell::new(3, 4));
        region.include(Cell::new(1, 6));
        assert_eq!(
            region,
            Region {
                x0: 1,
                y0: 4,
                x1: 4,
                y1: 7
            }
        );
        assert_eq!((region.width(), region.height()), (3, 3));
        region.union(Region::EMPTY);
        assert_eq!(region.width(), 3);
        region.union(Region::whole(2, 2));
        assert_eq!(
            region,
            Region {
                x0: 0,
                y0: 0,
                x1: 4,
                y1: 7
            }
        );
    }
}
