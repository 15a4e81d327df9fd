//! Changing a map's size: which edge or corner stays put, and where the old cells land.

use crate::grid::{Cell, Grid, GridError, TerrainId};

/// The part of the map that stays in place when it is resized.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Anchor {
    /// The top-left corner.
    #[default]
    TopLeft,
    /// The middle of the top edge.
    Top,
    /// The top-right corner.
    TopRight,
    /// The middle of the left edge.
    Left,
    /// The centre.
    Center,
    /// The middle of the right edge.
    Right,
    /// The bottom-left corner.
    BottomLeft,
    /// The middle of the bottom edge.
    Bottom,
    /// The bottom-right corner.
    BottomRight,
}

impl Anchor {
    /// Every anchor, row by row as a 3 × 3 picker shows them.
    pub const ALL: [Anchor; 9] = [
        Anchor::TopLeft,
        Anchor::Top,
        Anchor::TopRight,
        Anchor::Left,
        Anchor::Center,
        Anchor::Right,
        Anchor::BottomLeft,
        Anchor::Bottom,
        Anchor::BottomRight,
    ];

    /// Its name, for the picker's buttons.
    pub fn name(self) -> &'static str {
        match self {
            Anchor::TopLeft => "Top left",
            Anchor::Top => "Top",
            Anchor::TopRight => "Top right",
            Anchor::Left => "Left",
            Anchor::Center => "Centre",
            Anchor::Right => "Right",
            Anchor::BottomLeft => "Bottom left",
            Anchor::Bottom => "Bottom",
            Anchor::BottomRight => "Bottom right",
        }
    }

    /// The horizontal and vertical place: 0 start, 1 middle, 2 end.
    fn parts(self) -> (i64, i64) {
        let i = Anchor::ALL.iter().position(|&a| a == self).unwrap_or(0) as i64;
        (i % 3, i / 3)
    }

    /// Where the old map's top-left cell lands in the new one (may be negative: cropped).
    pub fn offset(self, old: (u32, u32), new: (u32, u32)) -> (i64, i64) {
        let (h, v) = self.parts();
        let shift = |part: i64, old: u32, new: u32| part * (i64::from(new) - i64::from(old)) / 2;
        (shift(h, old.0, new.0), shift(v, old.1, new.1))
    }
}

/// The grid resized to `width` × `height`, keeping `anchor` in place; new cells hold `fill`.
pub fn resize(
    grid: &Grid,
    width: u32,
    height: u32,
    anchor: Anchor,
    fill: TerrainId,
) -> Result<Grid, GridError> {
    let mut resized = Grid::new(width, height, grid.terrains().to_vec(), fill)?;
    if grid.heights().is_some() {
        // New cells are at height 0; kept ones keep theirs.
        resized.set_heights(Some(vec![0.0; resized.len()]))?;
        resized.set_slope(grid.slope())?;
    }
    let (ox, oy) = anchor.offset((grid.width(), grid.height()), (width, height));
    for y in 0..grid.height() {
        let ny = i64::from(y) + oy;
        if ny < 0 || ny >= i64::from(height) {
            continue;
        }
        for x in 0..grid.width() {
            if let Some(cell) = moved(Cell::new(x, y), (ox, oy), &resized)
                && let Some(id) = grid.get(Cell::new(x, y))
            {
                resized.set(cell, id);
                resized.set_height(cell, grid.height_at(Cell::new(x, y)) as f32);
            }
        }
    }
    Ok(resized)
}

/// Where a cell of the old map lands in the resized one, `None` when it was cropped.
pub fn moved(cell: Cell, offset: (i64, i64), resized: &Grid) -> Option<Cell> {
    let (x, y) = (i64::from(cell.x) + offset.0, i64::from(cell.y) + offset.1);
    resized
        .contains(x, y)
        .then(|| Cell::new(x as u32, y as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growing_from_the_top_left_keeps_cells_in_place() {
        let grid = Grid::from_ascii(&["#.", ".="]).unwrap();
        let grown = resize(&grid, 3, 3, Anchor::TopLeft, 2).unwrap();
        assert_eq!(grown.cells(), &[3, 0, 2, 0, 1, 2, 2, 2, 2]);
    }

    #[test]
    fn growing_about_the_centre_pads_all_sides() {
        let grid = Grid::from_ascii(&["#"]).unwrap();
        let grown = resize(&grid, 3, 3, Anchor::Center, 0).unwrap();
        assert_eq!(grown.get(Cell::new(1, 1)), Some(3));
        assert_eq!(grown.cells().iter().filter(|&&c| c == 3).count(), 1);
    }

    #[test]
    fn shrinking_from_the_bottom_right_crops_the_top_left() {
        let grid = Grid::from_ascii(&["#..", "..=", ".=~"]).unwrap();
        let small = resize(&grid, 2, 2, Anchor::BottomRight, 0).unwrap();
        assert_eq!(small.cells(), &[0, 1, 1, 2]);
        assert_eq!(Anchor::BottomRight.offset((3, 3), (2, 2)), (-1, -1));
        assert_eq!(moved(Cell::new(0, 0), (-1, -1), &small), None);
    }

    #[test]
    fn a_bad_size_is_refused() {
        let grid = Grid::from_ascii(&["#"]).unwrap();
        assert!(resize(&grid, 0, 3, Anchor::Center, 0).is_err());
    }
}
