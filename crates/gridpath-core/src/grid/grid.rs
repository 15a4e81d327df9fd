use super::heights::check_heights;
use super::{Cell, Slope, Terrain, TerrainId, Topology};

/// Why a grid could not be built or changed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GridError {
    /// A side is zero or larger than [`Grid::MAX_SIDE`].
    #[error("a map is {width} × {height} cells; each side must be between 1 and {max}", max = Grid::MAX_SIDE)]
    BadSize {
        /// The requested width.
        width: u64,
        /// The requested height.
        height: u64,
    },
    /// The cell buffer does not hold width × height cells.
    #[error("expected {expected} cells (width × height), got {found}")]
    CellCount {
        /// width × height.
        expected: usize,
        /// What was given.
        found: usize,
    },
    /// The catalog is empty or has more than 256 terrains.
    #[error("a map needs between 1 and 256 terrains, got {0}")]
    TerrainCount(usize),
    /// A terrain failed [`Terrain::validate`].
    #[error("terrain {index} ({name:?}): {message}")]
    BadTerrain {
        /// Its index in the catalog.
        index: usize,
        /// Its name.
        name: String,
        /// What is wrong with it.
        message: String,
    },
    /// Two terrains share a symbol.
    #[error("terrains {first} and {second} both use the symbol {symbol:?}")]
    DuplicateSymbol {
        /// The earlier terrain's index.
        first: usize,
        /// The later terrain's index.
        second: usize,
        /// The shared symbol.
        symbol: char,
    },
    /// A cell names a terrain the catalog does not have.
    #[error("cell {cell} holds terrain {id}, but the map has only {count} terrains")]
    UnknownTerrain {
        /// The cell.
        cell: Cell,
        /// The terrain id it holds.
        id: TerrainId,
        /// How many terrains there are.
        count: usize,
    },
    /// A terrain still in use was to be removed without a replacement.
    #[error("terrain {0} is still in use")]
    InUse(TerrainId),
    /// A height layer of the wrong size or with a value that is not a usable number.
    #[error("heights: {0}")]
    BadHeights(String),
    /// Slope rules with a negative or non-finite weight or limit.
    #[error("slope: {0}")]
    BadSlope(String),
}

/// A width × height grid of cells, each holding a terrain id, with the terrain catalog and,
/// optionally, a height per cell with the [`Slope`] rules that price height changes.
///
/// Cells are stored row by row; [`Grid::index`] maps a [`Cell`] to its place in [`Grid::cells`].
/// The [`Topology`] says whether they are squares or hexes (stored in offset rows).
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    width: u32,
    height: u32,
    cells: Vec<TerrainId>,
    terrains: Vec<Terrain>,
    heights: Option<Vec<f32>>,
    slope: Slope,
    topology: Topology,
}

impl Grid {
    /// The largest width and height a grid may have: 32768, so a cell's coordinate and the
    /// distance between two cells of a row fit 16 bits (the jump tables and subgoal edges
    /// store them so).
    pub const MAX_SIDE: u32 = 32768;

    /// The most cells a grid may have: 2³⁰, a 32768² map (a 50 m building at 1.5 mm, a city
    /// of 32 km at 1 m). Its terrain takes 1 GiB, one byte a cell; what each search needs on
    /// top is in `docs/performance.md`.
    pub const MAX_CELLS: u64 = 1 << 30;

    /// A grid filled with one terrain.
    pub fn new(
        width: u32,
        height: u32,
        terrains: Vec<Terrain>,
        fill: TerrainId,
    ) -> Result<Self, GridError> {
        check_size(u64::from(width), u64::from(height))?;
        let count = width as usize * height as usize;
        Self::from_cells(width, height, terrains, vec![fill; count])
    }

    /// A grid from its cells, row by row.
    pub fn from_cells(
        width: u32,
        height: u32,
        terrains: Vec<Terrain>,
        cells: Vec<TerrainId>,
    ) -> Result<Self, GridError> {
        check_size(u64::from(width), u64::from(height))?;
        validate_catalog(&terrains)?;
        let expected = width as usize * height as usize;
        if cells.len() != expected {
            return Err(GridError::CellCount {
                expected,
                found: cells.len(),
            });
        }
        if let Some(i) = cells
            .iter()
            .position(|&id| usize::from(id) >= terrains.len())
        {
            let cell = Cell::new((i % width as usize) as u32, (i / width as usize) as u32);
            return Err(GridError::UnknownTerrain {
                cell,
                id: cells[i],
                count: terrains.len(),
            });
        }
        Ok(Self {
            width,
            height,
            cells,
            terrains,
            heights: None,
            slope: Slope::DEFAULT,
            topology: Topology::Square,
        })
    }

    /// A grid in the default catalog from rows of its symbols (`.` grass, `=` road, `~` swamp,
    /// `#` wall). Handy in tests and examples.
    pub fn from_ascii(rows: &[&str]) -> Result<Self, String> {
        let terrains = Terrain::default_catalog();
        let height = rows.len();
        let width = rows.first().map_or(0, |r| r.chars().count());
        let mut cells = Vec::with_capacity(width * height);
        for (y, row) in rows.iter().enumerate() {
            if row.chars().count() != width {
                return Err(format!("row {y} is not {width} cells wide"));
            }
            for (x, symbol) in row.chars().enumerate() {
                let id = terrains
                    .iter()
                    .position(|t| t.symbol == symbol)
                    .ok_or_else(|| format!("unknown symbol {symbol:?} at x = {x}, y = {y}"))?;
                cells.push(id as TerrainId);
            }
        }
        let (w, h) = (u32::try_from(width), u32::try_from(height));
        let (Ok(w), Ok(h)) = (w, h) else {
            return Err("map too large".to_owned());
        };
        Self::from_cells(w, h, terrains, cells).map_err(|e| e.to_string())
    }

    /// The shape of the cells: square (the default) or hexagonal.
    pub fn topology(&self) -> Topology {
        self.topology
    }

    /// Changes the shape of the cells; the cells keep their places in the rows and columns.
    pub fn set_topology(&mut self, topology: Topology) {
        self.topology = topology;
    }

    /// The same grid with cells of another shape.
    pub fn with_topology(mut self, topology: Topology) -> Self {
        self.topology = topology;
        self
    }

    /// The number of columns.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The number of rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// width × height.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Always false: a grid has at least one cell.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The terrain catalog; a cell's terrain id indexes it.
    pub fn terrains(&self) -> &[Terrain] {
        &self.terrains
    }

    /// The terrain with this id.
    ///
    /// # Panics
    /// When the id is not in the catalog (a grid never holds such an id).
    pub fn terrain(&self, id: TerrainId) -> &Terrain {
        &self.terrains[usize::from(id)]
    }

    /// The cells, row by row.
    pub fn cells(&self) -> &[TerrainId] {
        &self.cells
    }

    /// Whether `(x, y)` lies on the grid; takes signed coordinates so callers can ask about
    /// neighbours past an edge.
    pub fn contains(&self, x: i64, y: i64) -> bool {
        x >= 0 && y >= 0 && x < i64::from(self.width) && y < i64::from(self.height)
    }

    /// Whether the cell lies on the grid.
    pub fn contains_cell(&self, cell: Cell) -> bool {
        cell.x < self.width && cell.y < self.height
    }

    /// The position of a cell in [`Grid::cells`].
    pub fn index(&self, cell: Cell) -> usize {
        cell.y as usize * self.width as usize + cell.x as usize
    }

    /// The cell at a position of [`Grid::cells`].
    pub fn cell_at(&self, index: usize) -> Cell {
        let w = self.width as usize;
        Cell::new((index % w) as u32, (index / w) as u32)
    }

    /// The terrain id of a cell, or `None` off the grid.
    pub fn get(&self, cell: Cell) -> Option<TerrainId> {
        self.contains_cell(cell)
            .then(|| self.cells[self.index(cell)])
    }

    /// Sets a cell's terrain; returns the terrain it had, or `None` (and changes nothing) when
    /// the cell is off the grid or the terrain id is not in the catalog.
    pub fn set(&mut self, cell: Cell, id: TerrainId) -> Option<TerrainId> {
        if !self.contains_cell(cell) || usize::from(id) >= self.terrains.len() {
            return None;
        }
        let i = self.index(cell);
        Some(std::mem::replace(&mut self.cells[i], id))
    }

    /// The movement cost of a cell's terrain: `None` for impassable cells and cells off the grid.
    pub fn cost(&self, cell: Cell) -> Option<f64> {
        self.get(cell).and_then(|id| self.terrain(id).cost)
    }

    /// Whether a cell is on the grid and passable.
    pub fn is_passable(&self, cell: Cell) -> bool {
        self.cost(cell).is_some()
    }

    /// Replaces a terrain of the catalog (a rename, recolour or change of cost).
    pub fn set_terrain(&mut self, id: TerrainId, terrain: Terrain) -> Result<Terrain, GridError> {
        let index = usize::from(id);
        if index >= self.terrains.len() {
            return Err(GridError::TerrainCount(index + 1));
        }
        let mut catalog = self.terrains.clone();
        let old = std::mem::replace(&mut catalog[index], terrain);
        validate_catalog(&catalog)?;
        self.terrains = catalog;
        Ok(old)
    }

    /// Adds a terrain to the catalog and returns its id.
    pub fn add_terrain(&mut self, terrain: Terrain) -> Result<TerrainId, GridError> {
        let mut catalog = self.terrains.clone();
        catalog.push(terrain);
        validate_catalog(&catalog)?;
        self.terrains = catalog;
        Ok((self.terrains.len() - 1) as TerrainId)
    }

    /// Removes a terrain; cells that hold it become `replacement` (an id of the catalog as it
    /// is before the removal). Without a replacement, removing a terrain in use fails.
    pub fn remove_terrain(
        &mut self,
        id: TerrainId,
        replacement: Option<TerrainId>,
    ) -> Result<Terrain, GridError> {
        let count = self.terrains.len();
        if usize::from(id) >= count || count == 1 {
            return Err(GridError::TerrainCount(count));
        }
        let in_use = self.cells.contains(&id);
        let replacement = match replacement {
            Some(r) if r != id && usize::from(r) < count => r,
            _ if in_use => return Err(GridError::InUse(id)),
            _ => 0,
        };
        let shift = |t: TerrainId| if t > id { t - 1 } else { t };
        let new_id = shift(replacement);
        for cell in &mut self.cells {
            *cell = if *cell == id { new_id } else { shift(*cell) };
        }
        Ok(self.terrains.remove(usize::from(id)))
    }

    /// The height layer, row by row like [`Grid::cells`], or `None` for a flat map.
    pub fn heights(&self) -> Option<&[f32]> {
        self.heights.as_deref()
    }

    /// The height of a cell: 0 on a flat map and off the grid.
    pub fn height_at(&self, cell: Cell) -> f64 {
        match &self.heights {
            Some(h) if self.contains_cell(cell) => f64::from(h[self.index(cell)]),
            _ => 0.0,
        }
    }

    /// Gives the map a height layer (one value per cell, row by row) or, with `None`, makes it
    /// flat. Values must be finite and within ±[`super::MAX_HEIGHT`].
    pub fn set_heights(&mut self, heights: Option<Vec<f32>>) -> Result<(), GridError> {
        if let Some(values) = &heights {
            check_heights(values, self.cells.len()).map_err(GridError::BadHeights)?;
        }
        self.heights = heights;
        Ok(())
    }

    /// Sets one cell's height; returns the height it had, or `None` (and changes nothing) when
    /// the map has no height layer, the cell is off the grid or the value is not usable.
    pub fn set_height(&mut self, cell: Cell, height: f32) -> Option<f32> {
        if !self.contains_cell(cell) || !height.is_finite() || height.abs() > super::MAX_HEIGHT {
            return None;
        }
        let i = self.index(cell);
        let heights = self.heights.as_mut()?;
        Some(std::mem::replace(&mut heights[i], height))
    }

    /// The rules that price height changes (they matter only when the map has heights).
    pub fn slope(&self) -> Slope {
        self.slope
    }

    /// Changes the slope rules.
    pub fn set_slope(&mut self, slope: Slope) -> Result<(), GridError> {
        slope.validate().map_err(GridError::BadSlope)?;
        self.slope = slope;
        Ok(())
    }

    /// The extra cost of a step between two cells from their heights, or `None` when the
    /// step changes height by more than the map allows; always `Some(0.0)` on a flat map.
    pub fn slope_extra(&self, from: Cell, to: Cell) -> Option<f64> {
        if self.heights.is_none() {
            return Some(0.0);
        }
        self.slope.extra(self.height_at(from), self.height_at(to))
    }

    /// The cheapest cost among the passable terrains that some cell holds, or `None` when no
    /// cell is passable.
    pub fn cheapest_cost(&self) -> Option<f64> {
        let mut used = [false; 256];
        for &id in &self.cells {
            used[usize::from(id)] = true;
        }
        self.terrains
            .iter()
            .enumerate()
            .filter(|(i, _)| used[*i])
            .filter_map(|(_, t)| t.cost)
            .reduce(f64::min)
    }
}

fn check_size(width: u64, height: u64) -> Result<(), GridError> {
    let max = u64::from(Grid::MAX_SIDE);
    if width == 0 || height == 0 || width > max || height > max || width * height > Grid::MAX_CELLS
    {
        return Err(GridError::BadSize { width, height });
    }
    Ok(())
}

fn validate_catalog(terrains: &[Terrain]) -> Result<(), GridError> {
    if terrains.is_empty() || terrains.len() > 256 {
        return Err(GridError::TerrainCount(terrains.len()));
    }
    for (index, terrain) in terrains.iter().enumerate() {
        terrain
            .validate()
            .map_err(|message| GridError::BadTerrain {
                index,
                name: terrain.name.clone(),
                message,
            })?;
        if let Some(first) = terrains[..index]
            .iter()
            .position(|t| t.symbol == terrain.symbol)
        {
            return Err(GridError::DuplicateSymbol {
                first,
                second: index,
                symbol: terrain.symbol,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Rgb;

    #[test]
    fn ascii_grid_has_its_terrains() {
        let grid = Grid::from_ascii(&[".=~#", "...."]).unwrap();
        assert_eq!((grid.width(), grid.height()), (4, 2));
        assert_eq!(grid.cost(Cell::new(1, 0)), Some(0.5));
        assert_eq!(grid.cost(Cell::new(2, 0)), Some(3.0));
        assert_eq!(grid.cost(Cell::new(3, 0)), None);
        assert_eq!(grid.cost(Cell::new(4, 0)), None);
        assert_eq!(grid.cheapest_cost(), Some(0.5));
    }

    #[test]
    fn sizes_outside_the_limit_are_refused() {
        let t = Terrain::default_catalog();
        assert!(Grid::new(0, 5, t.clone(), 0).is_err());
        assert!(Grid::new(32769, 5, t.clone(), 0).is_err());
        assert!(Grid::new(32768, 1, t, 0).is_ok());
    }

    #[test]
    fn catalog_rules_hold() {
        let mut grid = Grid::from_ascii(&["..##"]).unwrap();
        let dup = Terrain::passable("Dup", '.', Rgb([0, 0, 0]), 1.0);
        assert!(matches!(
            grid.add_terrain(dup),
            Err(GridError::DuplicateSymbol { .. })
        ));
        let bad = Terrain::passable("Free", 'f', Rgb([0, 0, 0]), 0.0);
        assert!(matches!(
            grid.add_terrain(bad),
            Err(GridError::BadTerrain { .. })
        ));
        let sand = grid
            .add_terrain(Terrain::passable("Sand", 's', Rgb([1, 2, 3]), 2.0))
            .unwrap();
        assert_eq!(sand, 4);
        assert_eq!(grid.remove_terrain(3, None), Err(GridError::InUse(3)));
        grid.set(Cell::new(0, 0), sand);
        grid.remove_terrain(3, Some(0)).unwrap();
        assert_eq!(grid.terrains().len(), 4);
        // Sand moved from id 4 to 3; the walls became grass.
        assert_eq!(grid.cells(), &[3, 0, 0, 0]);
    }
}
