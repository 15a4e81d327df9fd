//! One undoable change to a map, stored as what it changed rather than as a copy of the map.

use crate::grid::{Cell, Grid, GridError, Map, Slope, Terrain, TerrainId};

use super::region::Region;
use super::resize::{Anchor, moved, resize};

/// One cell's terrain before and after an edit: what undo needs. The search is told of it as
/// the library's [`CellChange`](crate::search::CellChange) of the direction taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellEdit {
    /// The cell's index in [`Grid::cells`].
    pub index: u32,
    /// Its terrain before.
    pub before: TerrainId,
    /// Its terrain after.
    pub after: TerrainId,
}

/// One cell's height before and after an edit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeightEdit {
    /// The cell's index in [`Grid::cells`].
    pub index: u32,
    /// Its height before.
    pub before: f32,
    /// Its height after.
    pub after: f32,
}

/// A map's height layer and slope rules, as a change of them stores them.
#[derive(Clone, Debug, PartialEq)]
pub struct Relief {
    /// The heights, or `None` for a flat map.
    pub heights: Option<Vec<f32>>,
    /// The slope rules.
    pub slope: Slope,
}

impl Relief {
    /// The relief of a grid.
    pub fn of(grid: &Grid) -> Self {
        Self {
            heights: grid.heights().map(<[f32]>::to_vec),
            slope: grid.slope(),
        }
    }

    /// Gives `grid` this relief.
    pub fn apply_to(&self, grid: &mut Grid) -> Result<(), GridError> {
        grid.set_heights(self.heights.clone())?;
        grid.set_slope(self.slope)
    }
}

/// A map's grid and markers, as a resize changes them all.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The whole grid.
    pub grid: Grid,
    /// The start marker.
    pub start: Option<Cell>,
    /// The goal marker.
    pub goal: Option<Cell>,
    /// The waypoints.
    pub waypoints: Vec<Cell>,
}

/// An undoable edit.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// A stroke or shape: the cells it repainted.
    Cells(Vec<CellEdit>),
    /// A change of the terrain catalog (add, rename, recolour, cost, remove), with the cells it
    /// renumbered or replaced.
    Catalog {
        /// The catalog before.
        before: Vec<Terrain>,
        /// The catalog after.
        after: Vec<Terrain>,
        /// The cells whose terrain id changed with it.
        cells: Vec<CellEdit>,
    },
    /// A stroke of the height brushes: the heights it changed.
    Heights {
        /// The cells and their heights before and after.
        cells: Vec<HeightEdit>,
        /// Whether the stroke gave a flat map its height layer (undo removes it).
        created: bool,
    },
    /// A change of the height layer as a whole or of the slope rules (heights added or
    /// removed, a rule changed).
    Relief {
        /// The relief before.
        before: Box<Relief>,
        /// The relief after.
        after: Box<Relief>,
    },
    /// A change of the slope rules alone.
    Slope {
        /// The rules before.
        before: Slope,
        /// The rules after.
        after: Slope,
    },
    /// A change of the map's size: every cell moves, so both grids are kept.
    Resize {
        /// The map before.
        before: Box<Layout>,
        /// The map after.
        after: Box<Layout>,
    },
}

/// What must be redrawn after an edit was applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Redraw {
    /// Only these cells changed.
    Cells(Region),
    /// Colours or the size changed: everything.
    All,
}

impl Edit {
    /// The map resized to `width` × `height` cells, keeping `anchor` in place; the markers
    /// and waypoints that fall off it are dropped.
    pub fn resize(map: &Map, width: u32, height: u32, anchor: Anchor) -> Result<Edit, GridError> {
        let grid = resize(&map.grid, width, height, anchor, 0)?;
        let offset = anchor.offset((map.grid.width(), map.grid.height()), (width, height));
        let keep = |cell: Option<Cell>| cell.and_then(|c| moved(c, offset, &grid));
        let after = Layout {
            start: keep(map.start),
            goal: keep(map.goal),
            waypoints: map
                .waypoints
                .iter()
                .filter_map(|&w| keep(Some(w)))
                .collect(),
            grid,
        };
        let before = Layout {
            grid: map.grid.clone(),
            start: map.start,
            goal: map.goal,
            waypoints: map.waypoints.clone(),
        };
        Ok(Edit::Resize {
            before: Box::new(before),
            after: Box::new(after),
        })
    }

    /// Gives the grid `heights` (none: flat), keeping its slope rules.
    pub fn heights(grid: &Grid, heights: Option<Vec<f32>>) -> Edit {
        let before = Relief::of(grid);
        let after = Relief {
            heights,
            slope: before.slope,
        };
        Edit::Relief {
            before: Box::new(before),
            after: Box::new(after),
        }
    }

    /// Paints `cells` (indices of [`Grid::cells`]) with `terrain` and returns the edit, or
    /// `None` when no cell changed.
    pub fn paint(grid: &mut Grid, cells: &[u32], terrain: TerrainId) -> Option<Edit> {
        let mut changes = Vec::new();
        for &index in cells {
            let cell = grid.cell_at(index as usize);
            match grid.set(cell, terrain) {
                Some(before) if before != terrain => changes.push(CellEdit {
                    index,
                    before,
                    after: terrain,
                }),
                _ => {}
            }
        }
        (!changes.is_empty()).then_some(Edit::Cells(changes))
    }

    /// The catalog edit that turns `before` into the grid's present state: `before` is a copy
    /// of the grid taken before a catalog change (only its catalog and cells are read).
    pub fn catalog_change(before: &Grid, after: &Grid) -> Edit {
        let cells = before
            .cells()
            .iter()
            .zip(after.cells())
            .enumerate()
            .filter(|(_, (b, a))| b != a)
            .map(|(i, (&before, &after))| CellEdit {
                index: i as u32,
                before,
                after,
            })
            .collect();
        Edit::Catalog {
            before: before.terrains().to_vec(),
            after: after.terrains().to_vec(),
            cells,
        }
    }

    /// Undoes the edit on the map it was made on.
    pub fn revert(&self, map: &mut Map) -> Result<Redraw, GridError> {
        self.apply(map, false)
    }

    /// Makes the edit again after it was undone.
    pub fn redo(&self, map: &mut Map) -> Result<Redraw, GridError> {
        self.apply(map, true)
    }

    /// The terrain whose colour alone the edit changes, if that is all it does.
    pub fn recolours(&self) -> Option<TerrainId> {
        let Edit::Catalog {
            before,
            after,
            cells,
        } = self
        else {
            return None;
        };
        if !cells.is_empty() || before.len() != after.len() {
            return None;
        }
        let mut changed = before
            .iter()
            .zip(after)
            .enumerate()
            .filter(|(_, (b, a))| b != a);
        let (index, (b, a)) = changed.next()?;
        let only_colour = b.name == a.name && b.symbol == a.symbol && b.cost == a.cost;
        (only_colour && changed.next().is_none()).then_some(index as TerrainId)
    }

    /// The number of cells the edit stores, a measure of its memory.
    pub fn stored_cells(&self) -> usize {
        match self {
            Edit::Cells(cells) | Edit::Catalog { cells, .. } => cells.len(),
            Edit::Heights { cells, .. } => cells.len(),
            Edit::Slope { .. } => 0,
            Edit::Relief { before, after } => {
                before.heights.as_ref().map_or(0, Vec::len)
                    + after.heights.as_ref().map_or(0, Vec::len)
            }
            Edit::Resize { before, after } => before.grid.len() + after.grid.len(),
        }
    }

    fn apply(&self, map: &mut Map, forward: bool) -> Result<Redraw, GridError> {
        let pick = |c: &CellEdit| if forward { c.after } else { c.before };
        match self {
            Edit::Cells(changes) => {
                let mut region = Region::EMPTY;
                for change in changes {
                    let cell = map.grid.cell_at(change.index as usize);
                    map.grid.set(cell, pick(change));
                    region.include(cell);
                }
                Ok(Redraw::Cells(region))
            }
            Edit::Catalog {
                before,
                after,
                cells,
            } => {
                let catalog = if forward { after } else { before };
                let mut ids = map.grid.cells().to_vec();
                for change in cells {
                    if let Some(id) = ids.get_mut(change.index as usize) {
                        *id = pick(change);
                    }
                }
                let (w, h) = (map.grid.width(), map.grid.height());
                let relief = Relief::of(&map.grid);
                map.grid = Grid::from_cells(w, h, catalog.clone(), ids)?;
                relief.apply_to(&mut map.grid)?;
                Ok(Redraw::All)
            }
            Edit::Heights { cells, created } => {
                if forward && *created && map.grid.heights().is_none() {
                    map.grid.set_heights(Some(vec![0.0; map.grid.len()]))?;
                }
                let mut region = Region::EMPTY;
                for change in cells {
                    let cell = map.grid.cell_at(change.index as usize);
                    let height = if forward { change.after } else { change.before };
                    map.grid.set_height(cell, height);
                    region.include(cell);
                }
                if !forward && *created {
                    map.grid.set_heights(None)?;
                }
                if *created {
                    return Ok(Redraw::All);
                }
                Ok(Redraw::Cells(region.grown(
                    1,
                    map.grid.width(),
                    map.grid.height(),
                )))
            }
            Edit::Relief { before, after } => {
                let relief = if forward { after } else { before };
                relief.apply_to(&mut map.grid)?;
                Ok(Redraw::All)
            }
            Edit::Slope { before, after } => {
                map.grid.set_slope(if forward { *after } else { *before })?;
                Ok(Redraw::Cells(Region::EMPTY))
            }
            Edit::Resize { before, after } => {
                let layout = if forward { after } else { before };
                map.grid = layout.grid.clone();
                map.start = layout.start;
                map.goal = layout.goal;
                map.waypoints.clone_from(&layout.waypoints);
                Ok(Redraw::All)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn painting_records_only_real_changes() {
        let mut grid = Grid::from_ascii(&["..==", "...."]).unwrap();
        let edit = Edit::paint(&mut grid, &[0, 1, 2, 3], 1).unwrap();
        assert_eq!(edit.stored_cells(), 2, "the road cells were road already");
        assert!(Edit::paint(&mut grid, &[0, 1], 1).is_none());
    }

    #[test]
    fn a_catalog_change_undoes_and_redoes() {
        let grid = Grid::from_ascii(&[".=~#", "#..="]).unwrap();
        let mut map = Map::new("t", grid.clone());
        map.grid.remove_terrain(1, Some(2)).unwrap();
        let edit = Edit::catalog_change(&grid, &map.grid);
        let after = map.grid.clone();
        assert_eq!(edit.revert(&mut map), Ok(Redraw::All));
        assert_eq!(map.grid, grid);
        edit.redo(&mut map).unwrap();
        assert_eq!(map.grid, after);
    }
}
