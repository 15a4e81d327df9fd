//! A disc-shaped body (a round robot) of some radius: it may stand on a cell when the cell's
//! centre is at least the radius from every wall and from the map's border, measured exactly
//! ([`wall_distance`]: a wall is an impassable cell's closed square, or hex). [`grid_for_radius`]
//! turns a map into the map of the cells where the disc fits, on which any search plans for it:
//! a disc too wide for a gap between two pillars finds no way through, rather than a path the
//! smoother can only bring near the walls.
//!
//! ```
//! use gridpath_core::grid::{Cell, Grid};
//! use gridpath_core::search::{SearchRequest, grid_for_radius, solve};
//!
//! // Two pillars with a gap of one cell between them: the cell (3, 2) between them is
//! // 0.5 from each.
//! let grid = Grid::from_ascii(&[
//!     ".......",
//!     ".......",
//!     "..#.#..",
//!     ".......",
//!     ".......",
//! ]).expect("a valid map");
//! let across = SearchRequest::new(Cell::new(3, 0), Cell::new(3, 4));
//! let narrow = grid_for_radius(&grid, 0.5).expect("a disc map");
//! assert!(solve(&narrow, &across).expect("plans").path.contains(&Cell::new(3, 2)));
//! let wide = grid_for_radius(&grid, 0.6).expect("a disc map");
//! assert!(!wide.is_passable(Cell::new(3, 2)), "the gap is too narrow for it");
//! ```

use crate::grid::{Cell, Grid, GridError, Map, TerrainId};
use crate::smooth::Point;
use crate::smooth::clearance::wall_distance;

use super::unit::{finish, grid_for_unit, place_markers_for_unit, place_markers_on, with_wall};

/// Whether a disc of `radius` needs a map of its own on this topology: on squares and hexes
/// every passable cell's centre is at least half a cell from every wall.
fn needs_map(radius: f64) -> bool {
    radius > 0.5
}

/// How far the centre of `cell` is from the nearest wall, looking no farther than `limit`.
pub fn cell_room(grid: &Grid, cell: Cell, limit: f64) -> f64 {
    wall_distance(grid, Point::centre_on(grid.topology(), cell), limit)
}

/// The map of a disc of `radius` cells (see the module): every passable cell whose centre is
/// nearer than `radius` to a wall or the map's border becomes impassable. A radius of at most
/// half a cell gives the map back as it is. The work is the cells times the radius squared.
pub fn grid_for_radius(grid: &Grid, radius: f64) -> Result<Grid, GridError> {
    if !needs_map(radius) {
        return Ok(grid.clone());
    }
    let (catalog, wall) = with_wall(grid.terrains())?;
    let w = grid.width();
    let cells: Vec<TerrainId> = grid
        .cells()
        .iter()
        .enumerate()
        .map(|(i, &terrain)| {
            let cell = Cell::new(i as u32 % w, i as u32 / w);
            if grid.terrain(terrain).is_passable() && cell_room(grid, cell, radius) >= radius {
                terrain
            } else {
                wall
            }
        })
        .collect();
    finish(grid, catalog, cells)
}

/// Places the start and goal a map does not name ([`Map::place_default_markers`]) where a
/// unit of `size` fits and keeps `radius` from every wall (on the unit's map, as
/// [`grid_for_radius`] makes it). Returns whether it placed any.
pub fn place_markers_for_body(map: &mut Map, size: u32, radius: f64) -> Result<bool, GridError> {
    if !needs_map(radius) || (map.start.is_some() && map.goal.is_some()) {
        return place_markers_for_unit(map, size);
    }
    let unit = grid_for_unit(&map.grid, size)?;
    Ok(place_markers_on(map, grid_for_radius(&unit, radius)?))
}

/// An endpoint where a disc does not fit: the cell is passable, but its centre is nearer a
/// wall than the disc's radius.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error(
    "a body of radius {radius} cells does not fit at the {which} {cell}: the cell is passable, but its centre is only {room:.3} cells from the nearest wall or the map's edge"
)]
pub struct DiscMisfit {
    /// "start", "goal" or "waypoint".
    pub which: &'static str,
    /// The endpoint.
    pub cell: Cell,
    /// The disc's radius in cells.
    pub radius: f64,
    /// How far the cell's centre is from the nearest wall.
    pub room: f64,
}

/// Checks that a disc of `radius` fits at `cell` (the endpoint `which`). A cell off the map
/// or impassable passes here: the search's own checks say so in their words.
pub fn check_disc_fits(
    grid: &Grid,
    radius: f64,
    which: &'static str,
    cell: Cell,
) -> Result<(), DiscMisfit> {
    if !needs_map(radius) || !grid.contains_cell(cell) || !grid.is_passable(cell) {
        return Ok(());
    }
    let room = cell_room(grid, cell, radius);
    if room >= radius {
        return Ok(());
    }
    Err(DiscMisfit {
        which,
        cell,
        radius,
        room,
    })
}

/// The narrowest place of `path` for a disc of `radius`: its cell whose centre is nearest a
/// wall, with that distance, when it is nearer than `radius` (the first such cell on a tie).
///
/// ```
/// use gridpath_core::grid::{Cell, Grid};
/// use gridpath_core::search::narrowest;
///
/// let grid = Grid::from_ascii(&["...", "#.#", "..."]).expect("a valid map");
/// let path = [Cell::new(1, 0), Cell::new(1, 1), Cell::new(1, 2)];
/// assert_eq!(narrowest(&grid, &path, 1.0), Some((Cell::new(1, 0), 0.5)));
/// assert_eq!(narrowest(&grid, &path, 0.5), None);
/// ```
pub fn narrowest(grid: &Grid, path: &[Cell], radius: f64) -> Option<(Cell, f64)> {
    let mut best: Option<(Cell, f64)> = None;
    for &cell in path {
        let room = cell_room(grid, cell, radius);
        if room < radius && best.is_none_or(|(_, least)| room < least) {
            best = Some((cell, room));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_border_counts_as_a_wall() {
        let grid = Grid::from_ascii(&["....."; 5]).expect("valid");
        let disc = grid_for_radius(&grid, 1.5).expect("a disc map");
        let passable: Vec<Cell> = (0..25)
            .map(|i| Cell::new(i % 5, i / 5))
            .filter(|&c| disc.is_passable(c))
            .collect();
        assert_eq!(
            passable,
            [
                Cell::new(1, 1),
                Cell::new(2, 1),
                Cell::new(3, 1),
                Cell::new(1, 2),
                Cell::new(2, 2),
                Cell::new(3, 2),
                Cell::new(1, 3),
                Cell::new(2, 3),
                Cell::new(3, 3)
            ]
        );
    }

    #[test]
    fn a_wall_corner_is_measured_exactly() {
        // The centre of (2, 2) is √2 / 2 from the corner of the wall at (1, 1).
        let grid = Grid::from_ascii(&[".....", ".#...", ".....", ".....", "....."]).expect("valid");
        let fits = |r: f64| {
            grid_for_radius(&grid, r)
                .expect("a disc map")
                .is_passable(Cell::new(2, 2))
        };
        assert!(fits(std::f64::consts::FRAC_1_SQRT_2));
        assert!(!fits(std::f64::consts::FRAC_1_SQRT_2 + 1e-9));
        let misfit = check_disc_fits(&grid, 0.8, "start", Cell::new(2, 2)).unwrap_err();
        assert!((misfit.room - std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-12);
    }
}
