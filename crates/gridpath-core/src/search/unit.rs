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
//! On a hex map a unit of size N is a hex of radius N − 1 (size 1 one hex, size 2 a hex and
//! its six neighbours), placed by its centre: it may stand where every hex within N − 1 steps
//! lies on the map and is passable, and it pays the costliest terrain among them. A step needs
//! both footprints free, as one-hex units do (hexes have no corners to cut between
//! neighbours).
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

use crate::grid::{Cell, Grid, GridError, Map, Rgb, Terrain, TerrainId};

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
    if grid.topology().places_units_by_centre() {
        return centred_grid_for_unit(grid, size - 1);
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
    let (catalog, wall) = with_wall(terrains)?;
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
    finish(grid, catalog, unit)
}

/// How far the body's centre lies from the centre of the cell the unit is placed by, along x
/// and along y: a unit of N × N cells on cell (x, y) covers x..x + N and y..y + N, so its
/// centre (x + N / 2, y + N / 2) is (N − 1) / 2 past the cell's centre. A hex unit is placed
/// by its centre hex: 0.
///
/// ```
/// use gridpath_core::grid::{Cell, Topology};
/// use gridpath_core::search::{body_centre, body_offset};
///
/// assert_eq!(body_offset(Topology::Square, 1), 0.0);
/// assert_eq!(body_offset(Topology::Square, 4), 1.5);
/// assert_eq!(body_centre(Topology::Square, 3, Cell::new(2, 5)), (3.5, 6.5));
/// ```
pub fn body_offset(topology: crate::grid::Topology, size: u32) -> f64 {
    topology.body_offset(size)
}

/// The centre of a unit of `size` placed on `cell`, in the map's continuous frame
/// ([`body_offset`] past the cell's centre).
pub fn body_centre(topology: crate::grid::Topology, size: u32, cell: Cell) -> (f64, f64) {
    let (x, y) = topology.centre(cell);
    let offset = body_offset(topology, size);
    (x + offset, y + offset)
}

/// An endpoint on a passable cell where a unit larger than one cell does not fit: its
/// footprint there meets a wall or the map's edge.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error(
    "a unit of {} does not fit at the {which} {cell}: the cell is passable, but {}{}",
    footprint(*.by_centre, *.size),
    if *.by_centre { "the hexes within its radius meet a wall or the map's edge" } else { "its footprint, placed by its top-left cell, meets a wall or the map's edge" },
    largest_text(*.by_centre, *.largest)
)]
pub struct UnitMisfit {
    /// "start" or "goal".
    pub which: &'static str,
    /// The endpoint.
    pub cell: Cell,
    /// The unit's size.
    pub size: u32,
    /// Whether the unit is placed by its centre cell ([`Topology::places_units_by_centre`]:
    /// on hexes, a hex of radius `size` − 1).
    ///
    /// [`Topology::places_units_by_centre`]: crate::grid::Topology::places_units_by_centre
    pub by_centre: bool,
    /// On squares, the side of the largest unit that fits there.
    pub largest: Option<u32>,
}

/// The unit's footprint in words.
fn footprint(by_centre: bool, size: u32) -> String {
    if by_centre {
        format!("size {size} (the hexes within {} steps)", size - 1)
    } else {
        format!("{size} × {size} cells")
    }
}

/// The largest unit that fits, in words, when known.
fn largest_text(by_centre: bool, largest: Option<u32>) -> String {
    match largest {
        Some(side) if !by_centre => {
            format!("; the largest unit that fits there is {side} × {side}")
        }
        _ => String::new(),
    }
}

/// Checks that a unit of `size` fits at `cell` (the endpoint `which`), on the map as drawn.
/// An endpoint off the map or on an impassable cell passes here: the search's own checks
/// say so in their words.
pub fn check_unit_fits(
    grid: &Grid,
    unit_grid: &Grid,
    size: u32,
    which: &'static str,
    cell: Cell,
) -> Result<(), UnitMisfit> {
    if size <= 1 || !grid.is_passable(cell) || unit_grid.is_passable(cell) {
        return Ok(());
    }
    let by_centre = grid.topology().places_units_by_centre();
    let largest = (!by_centre).then(|| clearance(grid)[(cell.y * grid.width() + cell.x) as usize]);
    Err(UnitMisfit {
        which,
        cell,
        size,
        by_centre,
        largest,
    })
}

/// Places the start and goal a map does not name ([`Map::place_default_markers`]) where a
/// unit of `size` fits: chosen on the unit's map, whose passable cells are those. Returns
/// whether it placed any.
pub fn place_markers_for_unit(map: &mut Map, size: u32) -> Result<bool, GridError> {
    if size <= 1 || (map.start.is_some() && map.goal.is_some()) {
        return Ok(map.place_default_markers());
    }
    let unit = grid_for_unit(&map.grid, size)?;
    Ok(place_markers_on(map, unit))
}

/// Places the start and goal `map` does not name as [`Map::place_default_markers`] would on
/// `grid` (a map of the cells where a body fits, of the same size). Returns whether it placed
/// any.
pub(super) fn place_markers_on(map: &mut Map, grid: Grid) -> bool {
    let mut probe = Map::new(map.name.clone(), grid);
    probe.start = map.start;
    probe.goal = map.goal;
    let placed = probe.place_default_markers();
    map.start = probe.start;
    map.goal = probe.goal;
    placed
}

/// The catalog with an impassable terrain (the map's first, or [`NO_ROOM`] added) and its id.
pub(super) fn with_wall(terrains: &[Terrain]) -> Result<(Vec<Terrain>, TerrainId), GridError> {
    if let Some(id) = terrains.iter().position(|t| !t.is_passable()) {
        return Ok((terrains.to_vec(), id as TerrainId));
    }
    let mut blocked = Grid::from_cells(1, 1, terrains.to_vec(), vec![0])?;
    let symbol = ['#', '@', 'X', '%', '&']
        .into_iter()
        .find(|s| terrains.iter().all(|t| t.symbol != *s))
        .unwrap_or('\u{2588}');
    let id = blocked.add_terrain(Terrain::impassable(NO_ROOM, symbol, Rgb([40, 40, 48])))?;
    Ok((blocked.terrains().to_vec(), id))
}

/// The unit's map from its cells: the grid's size, topology, heights and slope rules.
pub(super) fn finish(
    grid: &Grid,
    catalog: Vec<Terrain>,
    unit: Vec<TerrainId>,
) -> Result<Grid, GridError> {
    let mut planned = Grid::from_cells(grid.width(), grid.height(), catalog, unit)?
        .with_topology(grid.topology());
    // Heights stay those of the cell the unit is anchored on (its top-left, or centre).
    planned.set_heights(grid.heights().map(<[f32]>::to_vec))?;
    planned.set_slope(grid.slope())?;
    Ok(planned)
}

/// The map of a unit of `radius` (at least 1) placed by its centre cell, a hex unit (see the
/// module): a breadth-first pass from the walls and the map's edge gives every cell its
/// distance in steps to the nearest blocked or missing cell, and `radius` rounds of taking the
/// costliest of each cell and its neighbours give the costliest terrain under each footprint.
/// O(cells × radius).
fn centred_grid_for_unit(grid: &Grid, radius: u32) -> Result<Grid, GridError> {
    let topology = grid.topology();
    let (w, h) = (i64::from(grid.width()), i64::from(grid.height()));
    let cells = grid.cells();
    let index = |x: i64, y: i64| (y * w + x) as usize;
    let on_map = |x: i64, y: i64| x >= 0 && y >= 0 && x < w && y < h;
    let passable = |i: usize| grid.terrain(cells[i]).cost.is_some();
    // Steps to the nearest blocked or missing hex: 1 next to one, u32::MAX when none.
    let mut room = vec![u32::MAX; cells.len()];
    let mut queue = std::collections::VecDeque::new();
    for y in 0..h {
        for x in 0..w {
            let i = index(x, y);
            if !passable(i) {
                room[i] = 0;
                continue;
            }
            let edge = topology
                .side_neighbours(x, y)
                .iter()
                .any(|&(nx, ny)| !on_map(nx, ny) || !passable(index(nx, ny)));
            if edge {
                room[i] = 1;
                queue.push_back((x, y));
            }
        }
    }
    while let Some((x, y)) = queue.pop_front() {
        let next = room[index(x, y)] + 1;
        for (nx, ny) in topology.side_neighbours(x, y) {
            if on_map(nx, ny) && room[index(nx, ny)] > next {
                room[index(nx, ny)] = next;
                queue.push_back((nx, ny));
            }
        }
    }
    let rank = |id: TerrainId| grid.terrain(id).cost.unwrap_or(f64::INFINITY);
    let mut costliest = cells.to_vec();
    for _ in 0..radius {
        let previous = costliest.clone();
        for y in 0..h {
            for x in 0..w {
                let i = index(x, y);
                for (nx, ny) in topology.side_neighbours(x, y) {
                    if on_map(nx, ny) && rank(previous[index(nx, ny)]) > rank(costliest[i]) {
                        costliest[i] = previous[index(nx, ny)];
                    }
                }
            }
        }
    }
    let (catalog, wall) = with_wall(grid.terrains())?;
    let unit = (0..cells.len())
        .map(|i| if room[i] > radius { costliest[i] } else { wall })
        .collect();
    finish(grid, catalog, unit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::HexLayout;

    /// A room of 10 × 10 cells behind a corridor one cell wide.
    fn room_and_corridor() -> Map {
        let mut rows = vec!["#".repeat(24); 12];
        for row in rows.iter_mut().take(11).skip(1) {
            row.replace_range(1..11, &".".repeat(10));
        }
        rows[5].replace_range(11..23, &".".repeat(12));
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        Map::new("room", Grid::from_ascii(&rows).unwrap())
    }

    #[test]
    fn a_unit_that_does_not_fit_is_told_so_and_how_large_a_unit_would() {
        let map = room_and_corridor();
        let unit = grid_for_unit(&map.grid, 3).unwrap();
        let corridor = Cell::new(15, 5);
        let e = check_unit_fits(&map.grid, &unit, 3, "start", corridor).unwrap_err();
        assert_eq!(e.largest, Some(1));
        assert_eq!(
            e.to_string(),
            "a unit of 3 × 3 cells does not fit at the start (15, 5): the cell is passable, \
             but its footprint, placed by its top-left cell, meets a wall or the map's edge; \
             the largest unit that fits there is 1 × 1"
        );
        assert!(check_unit_fits(&map.grid, &unit, 3, "goal", Cell::new(2, 2)).is_ok());
        // A wall is the search's to report.
        assert!(check_unit_fits(&map.grid, &unit, 3, "goal", Cell::new(0, 0)).is_ok());
    }

    #[test]
    fn automatic_markers_go_where_the_unit_fits() {
        let mut map = room_and_corridor();
        assert!(place_markers_for_unit(&mut map, 3).unwrap());
        let unit = grid_for_unit(&map.grid, 3).unwrap();
        for marker in [map.start, map.goal] {
            let cell = marker.expect("placed");
            assert!(unit.is_passable(cell), "{cell} fits a 3 × 3 unit");
        }
        // One cell: the usual placement, which may use the corridor.
        let mut single = room_and_corridor();
        assert!(place_markers_for_unit(&mut single, 1).unwrap());
        let mut plain = room_and_corridor();
        plain.place_default_markers();
        assert_eq!((single.start, single.goal), (plain.start, plain.goal));
    }

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

    #[test]
    fn a_hex_unit_stands_where_its_whole_disc_is_free() {
        use crate::grid::{Cell, Topology};
        let mut grid = Grid::from_ascii(&["........"; 8]).unwrap();
        grid.set(Cell::new(5, 4), 3);
        grid.set(Cell::new(2, 2), 2);
        for layout in HexLayout::ALL {
            let grid = grid.clone().with_topology(Topology::Hex(layout));
            let unit = grid_for_unit(&grid, 2).unwrap();
            assert_eq!(unit.topology(), grid.topology());
            for y in 0..8 {
                for x in 0..8 {
                    let cell = Cell::new(x, y);
                    // The disc of radius 1, by distance: independent of the breadth-first pass.
                    let disc: Vec<Cell> = (0..8)
                        .flat_map(|yy| (0..8).map(move |xx| Cell::new(xx, yy)))
                        .filter(|&c| layout.distance(c, cell) <= 1)
                        .collect();
                    let inside = x > 0 && y > 0 && x < 7 && y < 7;
                    let fits = inside && disc.iter().all(|&c| grid.is_passable(c));
                    assert_eq!(unit.is_passable(cell), fits, "{} at {cell}", layout.name());
                    if fits {
                        let dearest = disc
                            .iter()
                            .filter_map(|&c| grid.cost(c))
                            .fold(0.0, f64::max);
                        assert_eq!(unit.cost(cell), Some(dearest));
                    }
                }
            }
        }
    }
}
