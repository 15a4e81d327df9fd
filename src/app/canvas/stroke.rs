//! A freehand brush stroke in progress: painted as the pointer moves, undone as one step.

use std::collections::HashMap;

use crate::grid::{Cell, Grid, TerrainId};

use crate::app::edit::{CellEdit, Edit};
use crate::app::region::Region;

/// The cells a stroke has painted so far, with the terrain each had before the stroke.
#[derive(Clone, Debug)]
pub struct Stroke {
    terrain: TerrainId,
    before: HashMap<u32, TerrainId>,
    /// The cell the pointer was on at the last paint, where the next segment starts.
    last: Cell,
}

impl Stroke {
    /// Starts a stroke of `terrain` at `cell` (nothing is painted yet).
    pub fn new(terrain: TerrainId, cell: Cell) -> Self {
        Self {
            terrain,
            before: HashMap::new(),
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

    /// Paints cells of the grid; returns the region that changed.
    pub fn paint(&mut self, grid: &mut Grid, cells: &[Cell]) -> Region {
        let mut region = Region::EMPTY;
        for &cell in cells {
            let index = grid.index(cell) as u32;
            match grid.set(cell, self.terrain) {
                Some(old) if old != self.terrain => {
                    self.before.entry(index).or_insert(old);
                    region.include(cell);
                }
                _ => {}
            }
        }
        region
    }

    /// Ends the stroke: the edit that undoes it, or `None` when it changed nothing.
    pub fn finish(self, grid: &Grid) -> Option<Edit> {
        let mut changes: Vec<CellEdit> = self
            .before
            .into_iter()
            .filter_map(|(index, before)| {
                let after = grid.cells().get(index as usize).copied()?;
                (after != before).then_some(CellEdit {
                    index,
                    before,
                    after,
                })
            })
            .collect();
        changes.sort_unstable_by_key(|c| c.index);
        (!changes.is_empty()).then_some(Edit::Cells(changes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Map;

    #[test]
    fn a_stroke_over_itself_undoes_to_the_first_terrain() {
        let mut map = Map::new("t", Grid::from_ascii(&["..~~"]).unwrap());
        let mut stroke = Stroke::new(3, Cell::new(0, 0));
        let cells = [Cell::new(1, 0), Cell::new(2, 0)];
        let region = stroke.paint(&mut map.grid, &cells);
        assert_eq!((region.x0, region.x1), (1, 3));
        stroke.paint(&mut map.grid, &cells);
        let edit = stroke.finish(&map.grid).unwrap();
        assert_eq!(edit.stored_cells(), 2);
        edit.revert(&mut map).unwrap();
        assert_eq!(map.grid.cells(), &[0, 0, 2, 2]);
    }
}
