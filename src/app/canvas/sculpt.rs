//! A stroke of the height brushes (raise, lower, flatten): applied as the pointer moves,
//! undone as one step. Each cell changes once per stroke, so going over a cell again does
//! not pile it higher: a stroke raises what it covers by one step, and another stroke by one
//! more.

use std::collections::HashMap;

use crate::grid::{Cell, Grid, MAX_HEIGHT};

use crate::app::edit::{Edit, HeightEdit};
use crate::app::region::Region;

/// What a height stroke does to each cell it covers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sculpt {
    /// Adds this much.
    Raise(f32),
    /// Takes this much away.
    Lower(f32),
    /// Sets the height of the cell the stroke started on.
    Flatten,
}

/// The cells a height stroke has changed so far, with their heights before it.
#[derive(Clone, Debug)]
pub struct HeightStroke {
    sculpt: Sculpt,
    /// The height Flatten levels to: that of the first cell.
    level: f32,
    before: HashMap<u32, f32>,
    /// Whether the stroke gave a flat map its height layer (undo takes it away again).
    created: bool,
    last: Cell,
}

impl HeightStroke {
    /// Starts a stroke at `cell` (nothing is changed yet).
    pub fn new(sculpt: Sculpt, grid: &Grid, cell: Cell) -> Self {
        Self {
            sculpt,
            level: grid.height_at(cell) as f32,
            before: HashMap::new(),
            created: false,
            last: cell,
        }
    }

    /// The cell the stroke reached last.
    pub fn last(&self) -> Cell {
        self.last
    }

    /// Moves the stroke's end to `cell`.
    pub fn move_to(&mut self, cell: Cell) {
        self.last = cell;
    }

    /// Changes the heights of cells not yet changed by this stroke, giving a flat map its
    /// height layer first; returns the region to redraw (one cell wider, since the shading
    /// of a cell depends on its neighbours), or `None` when the whole map must be.
    pub fn apply(&mut self, grid: &mut Grid, cells: &[Cell]) -> Option<Region> {
        let mut whole = false;
        if grid.heights().is_none() {
            let flat = vec![0.0; grid.len()];
            if grid.set_heights(Some(flat)).is_ok() {
                self.created = true;
                whole = true;
            }
        }
        let mut region = Region::EMPTY;
        for &cell in cells {
            let index = grid.index(cell) as u32;
            if self.before.contains_key(&index) {
                continue;
            }
            let old = grid.height_at(cell) as f32;
            let new = match self.sculpt {
                Sculpt::Raise(step) => old + step,
                Sculpt::Lower(step) => old - step,
                Sculpt::Flatten => self.level,
            }
            .clamp(-MAX_HEIGHT, MAX_HEIGHT);
            if grid.set_height(cell, new).is_some() {
                self.before.insert(index, old);
                region.include(cell);
            }
        }
        (!whole).then(|| region.grown(1, grid.width(), grid.height()))
    }

    /// Ends the stroke: the edit that undoes it, or `None` when it changed nothing.
    pub fn finish(self, grid: &mut Grid) -> Option<Edit> {
        let heights = grid.heights()?;
        let mut cells: Vec<HeightEdit> = self
            .before
            .into_iter()
            .filter_map(|(index, before)| {
                let after = heights.get(index as usize).copied()?;
                (after != before).then_some(HeightEdit {
                    index,
                    before,
                    after,
                })
            })
            .collect();
        cells.sort_unstable_by_key(|c| c.index);
        if cells.is_empty() {
            if self.created {
                // Nothing came of it: the map stays flat.
                let _ = grid.set_heights(None);
            }
            return None;
        }
        Some(Edit::Heights {
            cells,
            created: self.created,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Map;

    #[test]
    fn a_stroke_raises_each_cell_once_and_undo_makes_the_map_flat_again() {
        let mut map = Map::new("t", Grid::from_ascii(&["....", "...."]).unwrap());
        let mut stroke = HeightStroke::new(Sculpt::Raise(1.5), &map.grid, Cell::new(0, 0));
        let cells = [Cell::new(1, 0), Cell::new(2, 0)];
        assert_eq!(stroke.apply(&mut map.grid, &cells), None, "a new layer");
        assert!(stroke.apply(&mut map.grid, &cells).is_some());
        assert_eq!(map.grid.height_at(Cell::new(1, 0)), 1.5);
        let edit = stroke.finish(&mut map.grid).unwrap();
        assert_eq!(edit.stored_cells(), 2);
        edit.revert(&mut map).unwrap();
        assert_eq!(map.grid.heights(), None);
        edit.redo(&mut map).unwrap();
        assert_eq!(map.grid.height_at(Cell::new(2, 0)), 1.5);
    }

    #[test]
    fn flatten_levels_to_the_first_cell() {
        let mut grid = Grid::from_ascii(&["...."]).unwrap();
        grid.set_heights(Some(vec![2.0, 5.0, 0.0, 1.0])).unwrap();
        let mut stroke = HeightStroke::new(Sculpt::Flatten, &grid, Cell::new(0, 0));
        let cells: Vec<Cell> = (0..4).map(|x| Cell::new(x, 0)).collect();
        stroke.apply(&mut grid, &cells);
        assert_eq!(grid.heights(), Some(&[2.0, 2.0, 2.0, 2.0][..]));
        assert_eq!(stroke.finish(&mut grid).unwrap().stored_cells(), 3);
    }
}
