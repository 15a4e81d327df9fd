//! Units larger than one cell: a unit of N × N cells, placed by its top-left cell, may stand
//! where all N² cells of its footprint are passable. [`clearance`] gives every cell the side of
//! the largest passable square with its top-left there (one pass from the bottom-right corner,
//! as in Harabor's annotated A*); [`grid_for_unit`] turns a map into the map of the unit's
//! top-left cell, on which any search plans for the unit.
//!
//! On that map a cell where the footprint fits holds the costliest terrain under the footprint
//! (a unit half in the swamp pays for the swamp), and every other cell is impassable. Diagonal
//! steps follow the map's diagonal rule on the unit's map: with `no-cut` a diagonal step needs
//! both orthogonal neighbours free, so the footprint never sweeps over a wall's corner.
//!
//! ```
//! use gridpath_core::grid::{Cell, Grid};
//! use gridpath_core::search::{SearchRequest, grid_for_unit, solve};
//!
//! // A one-cell gap in the wall: a 1 × 1 unit passes it, a 2 × 2 unit cannot.
//! let grid = Grid::from_ascii(&[
//!     ".......",
//!     ".......",
//!     "###.###",
//!     ".......",
//!     ".......",
//! ]).expect("a valid map");
//! let across = SearchRequest::new(Cell::new(0, 0), Cell::new(0, 3));
//! assert!(solve(&grid, &across).expect("plans").path.contains(&Cell::new(3, 2)));
//! let big = grid_for_unit(&grid, 2).expect("a unit map");
//! assert!(!solve(&big, &across).expect("plans").found, "the gap is too narrow for it");
//! let along = SearchRequest::new(Cell::new(0, 0), Cell::new(5, 0));
//! assert!(solve(&big, &along).expect("plans").found);
//! ```

use crate::grid::{Grid, GridError, Rgb, Terrain, TerrainId};

/// The name of the terrain of cells where the unit does not fit, when the map has no
/// impassable terrain of its own.
pub const NO_ROOM: &str = "No room for the unit";

/// For every cell, the side of the largest square of passable cells with its top-left corner
/// there (0 on an impassable cell), row by row.
pub fn clearance(grid: &Grid) -> Vec<u32> {
    let (w, h) = (grid.width() as usize, grid.height() as usize);
    let cells = grid.cells();
    let mut side = vec![0u32; w * h];
    for y in (0..h).rev() {
        for x in (0..w).rev() {
            let i = y * w + x;
            if grid.terrain(cells[i]).cost.is_none() {
                continue;
            }
            let right = if x + 1 < w { side[i + 1] } else { 0 };
            let below = if y + 1 < h { side[i + w] } else { 0 };
            let diagonal = if x + 1 < w && y + 1 < h {
                side[i + w + 1]
            } else {
                0
            };
            side[i] = 1 + right.min(below).min(diagonal);
        }
    }
    side
}

/// The map of a unit of `size` × `size` cells, by its top-left cell (see the module). A size of
/// 1 gives the map back as it is.
pub fn grid_for_unit(grid: &Grid, size: u32) -> Result<Grid, GridError> {
    let size = size.max(1);
    if size == 1 {
        return Ok(grid.clone());
    }
    let (w, h) = (grid.width() as usize, grid.height() as usize);
    let n = size as usize;
    let terrains = grid.terrains();
    // Rank terrains by cost, so a window's costliest is the highest rank.
    let rank = |id: TerrainId| grid.terrain(id).cost.unwrap_or(f64::INFINITY);
    let costliest = |a: TerrainId, b: TerrainId| if rank(b) > rank(a) { b } else { a };
    // The costliest terrain of each run of n cells to the right, then of n rows down.
    let cells = grid.cells();
    let mut across = vec![0 as TerrainId; w * h];
    for y in 0..h {
        for x in 0..w {
            let row = &cells[y * w + x..y * w + (x + n).min(w)];
            across[y * w + x] = row.iter().copied().fold(row[0], costliest);
        }
    }
    let mut catalog = terrains.to_vec();
    let wall = match terrains.iter().position(|t| !t.is_passable()) {
        Some(id) => id as TerrainId,
        None => {
            let mut blocked = Grid::from_cells(1, 1, catalog.clone(), vec![0])?;
            let symbol = ['#', '@', 'X', '%', '&']
                .into_iter()
                .find(|s| terrains.iter().all(|t| t.symbol != *s))
                .unwrap_or('\u{2588}');
            let id =
                blocked.add_terrain(Terrain::impassable(NO_ROOM, symbol, Rgb([40, 40, 48])))?;
            catalog = blocked.terrains().to_vec();
            id
        }
    };
    let fits = clearance(grid);
    let mut unit = vec![wall; w * h];
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if fits[i] < size {
                continue;
            }
            let column = (y..y + n).map(|yy| across[yy * w + x]);
            unit[i] = column.fold(across[i], costliest);
        }
    }
    let mut planned = Grid::from_cells(grid.width(), grid.height(), catalog, unit)?;
    // Heights stay those of the cell the unit is anchored on (its top-left).
    planned.set_heights(grid.heights().map(<[f32]>::to_vec))?;
    planned.set_slope(grid.slope())?;
    Ok(planned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clearance_is_the_largest_free_square_from_each_cell() {
        let grid = Grid::from_ascii(&["....", "..#.", "...."]).unwrap();
        let side = clearance(&grid);
        assert_eq!(&side[0..4], &[2, 1, 1, 1]);
        assert_eq!(&side[4..8], &[2, 1, 0, 1]);
        assert_eq!(&side[8..12], &[1, 1, 1, 1]);
    }

    #[test]
    fn the_unit_pays_for_the_costliest_cell_under_it_and_gets_a_wall_terrain_if_none() {
        let grid = Grid::from_ascii(&["..~", "...", "..."]).unwrap();
        let unit = grid_for_unit(&grid, 2).unwrap();
        let swamp = grid.get(crate::grid::Cell::new(2, 0)).unwrap();
        assert_eq!(unit.get(crate::grid::Cell::new(1, 0)), Some(swamp));
        assert_eq!(
            unit.get(crate::grid::Cell::new(0, 0)),
            grid.get(crate::grid::Cell::new(0, 0))
        );
        assert!(
            !unit.is_passable(crate::grid::Cell::new(2, 0)),
            "the footprint leaves the map"
        );
        // A catalog with no wall gets one.
        let open = Grid::new(
            3,
            3,
            vec![Terrain::passable("Grass", '.', Rgb([0, 200, 0]), 1.0)],
            0,
        )
        .unwrap();
        let unit = grid_for_unit(&open, 2).unwrap();
        assert_eq!(
            unit.terrains().last().map(|t| t.name.as_str()),
            Some(NO_ROOM)
        );
        assert!(!unit.is_passable(crate::grid::Cell::new(2, 2)));
    }
}
