//! The grid as the searches see it: per-cell neighbour masks and step costs.

use crate::grid::{Cell, Grid, Slope, TerrainId, Topology};

use super::request::Diagonal;

/// Column offsets of the eight directions: east, west, south, north, then the diagonals.
pub(crate) const DX: [i32; 8] = [1, -1, 0, 0, 1, -1, 1, -1];
/// Row offsets of the eight directions.
pub(crate) const DY: [i32; 8] = [0, 0, 1, -1, -1, -1, 1, 1];
/// The direction opposite each direction.
pub(crate) const OPPOSITE: [usize; 8] = [1, 0, 3, 2, 7, 6, 5, 4];
/// Geometric length of a step in each direction on a square grid.
#[cfg(test)]
pub(crate) const STEP_LENGTH: [f64; 8] = [
    1.0,
    1.0,
    1.0,
    1.0,
    std::f64::consts::SQRT_2,
    std::f64::consts::SQRT_2,
    std::f64::consts::SQRT_2,
    std::f64::consts::SQRT_2,
];

/// A grid prepared for searching under one diagonal rule.
///
/// For each cell it holds a bit mask of the directions a unit may step in (bit `d` for
/// direction `d` of [`DX`]/[`DY`]), so the searches never test bounds, walls or corners in
/// their inner loop. Building one is O(cells); reuse it for every query on the same map.
///
/// A hex map is the same graph with other masks: its cells are stored in offset rows, so a
/// hex's six neighbours are six of the eight directions ([`Topology::directions`]), each step
/// of length 1; the diagonal rule does not apply there.
#[derive(Clone, Debug)]
pub struct SearchGraph {
    width: u32,
    height: u32,
    diagonal: Diagonal,
    /// The shape of the cells, which says which directions lead to a neighbour.
    topology: Topology,
    /// The centre distance of a step in each direction.
    step_length: [f64; 8],
    masks: Vec<u8>,
    terrain: Vec<u8>,
    /// Half the movement cost of each terrain id (infinite for impassable ones).
    half_cost: [f64; 256],
    /// The dearest passable cost in the catalog (used or not), fixed with `half_cost`.
    max_cost: f64,
    /// The cheapest cost among the passable terrains used, 0 when none is used.
    min_cost: f64,
    /// `Some(cost)` when every passable cell has the same cost.
    uniform: Option<f64>,
    /// `delta[d]`: the change of cell index of a step in direction `d`.
    delta: [isize; 8],
    /// How many cells hold each terrain id, to keep `min_cost` and `uniform` current on edits.
    counts: Box<[u32; 256]>,
    /// Passability as bit words for jump point search, built on first use and updated in
    /// place on edits.
    jump_lines: std::sync::OnceLock<super::jump::jump_lines::JumpLines>,
    /// JPS+'s jump distances, built on first use and updated locally on edits.
    jump_table: std::sync::OnceLock<super::jump::jump_table::JumpTable>,
    /// The simple subgoal graph, built on first use and dropped on edits.
    subgoals: std::sync::OnceLock<super::preprocessed::subgoal_graph::SubgoalGraph>,
    /// The height of each cell, empty on a flat map.
    heights: Vec<f32>,
    /// The slope rules, `None` on a flat map.
    slope: Option<Slope>,
    /// The walls and the clearance the any-angle searches' line of sight keeps from them
    /// ([`SearchGraph::with_sight_clearance`]); `None`: line of sight is passability alone.
    sight: Option<std::sync::Arc<(Grid, f64)>>,
}

impl SearchGraph {
    /// Prepares a grid for searches under a diagonal rule.
    pub fn new(grid: &Grid, diagonal: Diagonal) -> Self {
        let (w, h) = (grid.width() as usize, grid.height() as usize);
        let mut half_cost = [f64::INFINITY; 256];
        for (i, terrain) in grid.terrains().iter().enumerate() {
            if let Some(cost) = terrain.cost {
                half_cost[i] = cost / 2.0;
            }
        }
        let max_cost = 2.0
            * half_cost
                .iter()
                .copied()
                .filter(|c| c.is_finite())
                .fold(0.0, f64::max);
        let terrain = grid.cells().to_vec();
        let heights = grid.heights().map(<[f32]>::to_vec).unwrap_or_default();
        let slope = grid.heights().map(|_| grid.slope());
        let mut masks = vec![0u8; w * h];
        let mut counts = Box::new([0u32; 256]);
        for &t in &terrain {
            counts[usize::from(t)] += 1;
        }
        let wi = w as isize;
        let delta = std::array::from_fn(|d| DY[d] as isize * wi + DX[d] as isize);
        let mut graph = Self {
            width: w as u32,
            height: h as u32,
            diagonal,
            topology: grid.topology(),
            step_length: grid.topology().step_lengths(),
            masks: Vec::new(),
            terrain,
            half_cost,
            max_cost,
            min_cost: 0.0,
            uniform: None,
            delta,
            counts,
            jump_lines: std::sync::OnceLock::new(),
            jump_table: std::sync::OnceLock::new(),
            subgoals: std::sync::OnceLock::new(),
            heights,
            slope,
            sight: None,
        };
        for y in 0..h {
            for x in 0..w {
                masks[y * w + x] = graph.compute_mask(x as i64, y as i64);
            }
        }
        graph.masks = masks;
        graph.refresh_costs();
        graph
    }

    /// Whether `(x, y)` lies on the grid and is passable.
    #[inline]
    fn open_at(&self, x: i64, y: i64) -> bool {
        x >= 0
            && y >= 0
            && x < i64::from(self.width)
            && y < i64::from(self.height)
            && self.is_passable(y as usize * self.width as usize + x as usize)
    }

    /// The neighbour mask of the cell at `(x, y)` from the current terrain.
    fn compute_mask(&self, x: i64, y: i64) -> u8 {
        if !self.open_at(x, y) {
            return 0;
        }
        let mut mask = 0u8;
        let neighbours = self.topology.directions(x, y);
        for d in 0..8 {
            let (dx, dy) = (i64::from(DX[d]), i64::from(DY[d]));
            if neighbours >> d & 1 == 0
                || !self.open_at(x + dx, y + dy)
                || !self.climbable(x, y, x + dx, y + dy)
            {
                continue;
            }
            // A hex's neighbours all lie across a side: no corner to cut.
            let allowed = if d < 4 || !self.topology.has_diagonals() {
                true
            } else {
                let (a, b) = (self.open_at(x + dx, y), self.open_at(x, y + dy));
                match self.diagonal {
                    Diagonal::Never => false,
                    Diagonal::Always => true,
                    Diagonal::OneFree => a || b,
                    Diagonal::NoCut => a && b,
                }
            };
            if allowed {
                mask |= 1 << d;
            }
        }
        mask
    }

    /// Whether the height change between two cells on the grid is within the slope rules.
    fn climbable(&self, x: i64, y: i64, nx: i64, ny: i64) -> bool {
        let Some(Slope {
            max_climb: Some(limit),
            ..
        }) = self.slope
        else {
            return true;
        };
        let w = self.width as usize;
        let a = self.heights[y as usize * w + x as usize];
        let b = self.heights[ny as usize * w + nx as usize];
        f64::from(b - a).abs() <= limit
    }

    /// Recomputes the cheapest and the uniform cost from the terrain counts.
    fn refresh_costs(&mut self) {
        let costs: Vec<f64> = (0..256)
            .filter(|&i| self.counts[i] > 0 && self.half_cost[i].is_finite())
            .map(|i| self.half_cost[i] * 2.0)
            .collect();
        self.min_cost = costs.iter().copied().reduce(f64::min).unwrap_or(0.0);
        // Several terrains of one cost (Moving AI's `.` and `S`) still make a uniform map; a
        // map with heights never does, since slopes and cliffs change its steps.
        self.uniform = match costs.as_slice() {
            _ if self.slope.is_some() => None,
            [first, rest @ ..] if rest.iter().all(|c| c == first) => Some(*first),
            _ => None,
        };
    }

    /// Whether the graph was built from a grid with this size and these terrain costs, so that
    /// [`SearchGraph::set_cells`] can bring it up to date with that grid's edits.
    pub fn matches_catalog(&self, grid: &Grid) -> bool {
        if (grid.width(), grid.height()) != (self.width, self.height)
            || grid.topology() != self.topology
        {
            return false;
        }
        if grid.heights().map(|_| grid.slope()) != self.slope {
            return false;
        }
        let terrains = grid.terrains();
        (0..256).all(|i| {
            let cost = terrains.get(i).and_then(|t| t.cost);
            match cost {
                Some(c) => self.half_cost[i] == c / 2.0,
                None => self.half_cost[i].is_infinite(),
            }
        })
    }

    /// Changes the terrain of some cells and updates the neighbour masks around them.
    ///
    /// Returns the indices of every cell whose outgoing steps may have changed (in mask or in
    /// cost): the changed cells and their eight neighbours, without duplicates. Cells off the
    /// grid are ignored.
    pub fn set_cells(&mut self, changes: &[(Cell, TerrainId)]) -> Vec<usize> {
        let mut touched = Vec::new();
        for &(cell, id) in changes {
            if cell.x >= self.width || cell.y >= self.height {
                continue;
            }
            let i = self.index(cell);
            let old = self.terrain[i];
            if old == id {
                continue;
            }
            self.counts[usize::from(old)] -= 1;
            self.counts[usize::from(id)] += 1;
            self.terrain[i] = id;
            touched.push(i);
        }
        if touched.is_empty() {
            return touched;
        }
        let affected = self.refresh_around(&touched);
        self.refresh_costs();
        affected
    }

    /// Changes the height of some cells and updates the neighbour masks around them; returns
    /// the cells whose outgoing steps may have changed, like [`SearchGraph::set_cells`]. Does
    /// nothing on a graph built from a flat map (give the map heights and build anew).
    pub fn set_heights(&mut self, changes: &[(Cell, f32)]) -> Vec<usize> {
        if self.slope.is_none() {
            return Vec::new();
        }
        let mut touched = Vec::new();
        for &(cell, height) in changes {
            if cell.x >= self.width || cell.y >= self.height {
                continue;
            }
            let i = self.index(cell);
            if self.heights[i] != height {
                self.heights[i] = height;
                touched.push(i);
            }
        }
        if touched.is_empty() {
            return touched;
        }
        self.refresh_around(&touched)
    }

    /// Recomputes the masks of the given cells and their neighbours; returns those cells,
    /// sorted and without duplicates.
    fn refresh_around(&mut self, touched: &[usize]) -> Vec<usize> {
        let w = self.width as usize;
        let mut affected = Vec::with_capacity(touched.len() * 9);
        for &i in touched {
            let (x, y) = ((i % w) as i64, (i / w) as i64);
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let (nx, ny) = (x + dx, y + dy);
                    if nx >= 0
                        && ny >= 0
                        && nx < i64::from(self.width)
                        && ny < i64::from(self.height)
                    {
                        affected.push(ny as usize * w + nx as usize);
                    }
                }
            }
        }
        affected.sort_unstable();
        affected.dedup();
        for &i in &affected {
            self.masks[i] = self.compute_mask((i % w) as i64, (i / w) as i64);
        }
        self.subgoals = std::sync::OnceLock::new();
        // The bit lines and the jump distances are updated where the edit reaches, once they
        // exist.
        if let Some(mut lines) = self.jump_lines.take() {
            lines.update(|i| self.is_passable(i), touched);
            self.jump_lines = std::sync::OnceLock::from(lines);
        }
        if let Some(mut table) = self.jump_table.take() {
            table.update(|i| self.is_passable(i), touched, &affected);
            self.jump_table = std::sync::OnceLock::from(table);
        }
        affected
    }

    /// The terrain id of a cell.
    #[inline]
    pub fn terrain_at(&self, index: usize) -> TerrainId {
        self.terrain[index]
    }

    /// The bit-word passability lines jump point search scans, built on first use.
    pub(crate) fn jump_lines(&self) -> &super::jump::jump_lines::JumpLines {
        self.jump_lines.get_or_init(|| {
            let (w, h) = (self.width() as usize, self.height() as usize);
            super::jump::jump_lines::JumpLines::new(w, h, |i| self.is_passable(i))
        })
    }

    /// Builds JPS+'s jump distances now rather than at the first JPS+ query, which otherwise
    /// pays for them (a few milliseconds on a map of a million cells); does nothing once they
    /// are built. They take 16 bytes per cell and follow the graph's edits locally.
    pub fn prepare_jps_plus(&self) {
        self.jump_table();
    }

    /// JPS+'s jump distances, built on first use (a no-cut graph's only).
    pub(crate) fn jump_table(&self) -> &super::jump::jump_table::JumpTable {
        self.jump_table.get_or_init(|| {
            let (w, h) = (self.width() as usize, self.height() as usize);
            super::jump::jump_table::JumpTable::new(w, h, |i| self.is_passable(i))
        })
    }

    /// Builds the subgoal graph now rather than at the first subgoal query, and reports its
    /// size; builds nothing once it is built. An edit drops it, and the next subgoal query (or
    /// call) builds it again.
    pub fn prepare_subgoal_graph(&self) -> super::SubgoalSummary {
        self.subgoal_graph().summary()
    }

    /// The simple subgoal graph, built on first use (a no-cut graph's only).
    pub(crate) fn subgoal_graph(&self) -> &super::preprocessed::subgoal_graph::SubgoalGraph {
        self.subgoals
            .get_or_init(|| super::preprocessed::subgoal_graph::SubgoalGraph::build(&self.moves()))
    }

    /// Whether the subgoal graph is built (an edit drops it).
    pub(crate) fn has_subgoal_graph(&self) -> bool {
        self.subgoals.get().is_some()
    }

    /// Keeps a subgoal graph built from a copy of this graph as it is now (on another
    /// thread); does nothing when one is kept already.
    pub(crate) fn keep_subgoal_graph(
        &mut self,
        built: super::preprocessed::subgoal_graph::SubgoalGraph,
    ) {
        let _ = self.subgoals.set(built);
    }

    /// The steps allowed from each cell, as the subgoal graph reads them.
    pub(crate) fn moves(&self) -> super::preprocessed::subgoal_graph::Moves<'_> {
        super::preprocessed::subgoal_graph::Moves::new(
            self.width,
            self.height,
            &self.masks,
            self.delta,
        )
    }

    /// The number of columns.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The number of rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The diagonal rule the graph was built for (which hex maps do not read).
    pub fn diagonal(&self) -> Diagonal {
        self.diagonal
    }

    /// The shape of the cells.
    pub fn topology(&self) -> Topology {
        self.topology
    }

    /// Whether the graph is a square grid under the no-cut rule, where the searches that
    /// rely on its geometry (jump points, the pruning of cells beyond a diagonal) are exact.
    pub(crate) fn is_square_no_cut(&self) -> bool {
        self.topology.has_square_cells() && self.diagonal == Diagonal::NoCut
    }

    /// The centre distance of a step in each direction: 1 and √2 on squares, 1 on hexes.
    #[inline]
    pub(crate) fn step_lengths(&self) -> [f64; 8] {
        self.step_length
    }

    /// The number of cells.
    pub fn len(&self) -> usize {
        self.masks.len()
    }

    /// Always false: a grid has at least one cell.
    pub fn is_empty(&self) -> bool {
        self.masks.is_empty()
    }

    /// The cheapest passable terrain cost in use: the factor that keeps heuristics admissible.
    pub fn min_cost(&self) -> f64 {
        self.min_cost
    }

    /// The dearest passable terrain cost in the catalog.
    pub(crate) fn max_cost(&self) -> f64 {
        self.max_cost
    }

    /// `Some(cost)` when all passable cells cost the same.
    pub fn uniform_cost(&self) -> Option<f64> {
        self.uniform
    }

    /// On a map of one cost, each direction's step cost as [`Self::step_cost`] gives it, to
    /// the last bit (the step's length times the sum of two equal half costs, which is the
    /// cost), with no terrain to read.
    pub(crate) fn uniform_step_costs(&self) -> Option<[f64; 8]> {
        self.uniform
            .map(|cost| self.step_length.map(|length| length * cost))
    }

    /// The number of passable cells.
    pub fn passable_count(&self) -> usize {
        self.terrain
            .iter()
            .filter(|&&t| self.half_cost[usize::from(t)].is_finite())
            .count()
    }

    /// The index of a cell.
    #[inline]
    pub fn index(&self, cell: Cell) -> usize {
        cell.y as usize * self.width as usize + cell.x as usize
    }

    /// The cell at an index.
    #[inline]
    pub fn cell(&self, index: usize) -> Cell {
        let w = self.width as usize;
        Cell::new((index % w) as u32, (index / w) as u32)
    }

    /// Whether a cell (on the grid) is passable.
    #[inline]
    pub fn is_passable(&self, index: usize) -> bool {
        self.half_cost[usize::from(self.terrain[index])].is_finite()
    }

    /// The neighbour mask of a cell.
    #[inline]
    pub(crate) fn mask(&self, index: usize) -> u8 {
        self.masks[index]
    }

    /// Asks the processor to start loading what a step from or into cell `index` reads: its
    /// neighbour mask and its terrain.
    #[inline(always)]
    pub(crate) fn prefetch_cell(&self, index: usize) {
        crate::search::space::prefetch(&self.masks, index);
        crate::search::space::prefetch(&self.terrain, index);
    }

    /// The neighbour masks of all cells.
    #[inline]
    pub(crate) fn masks(&self) -> &[u8] {
        &self.masks
    }

    /// The index change of a step in direction `d`.
    #[inline]
    pub(crate) fn delta(&self, d: usize) -> isize {
        self.delta[d]
    }

    /// The cost of a step in direction `d` from cell `from` to cell `to`:
    /// step length × (cost(from) + cost(to)) / 2, plus the slope term of the height change
    /// on a map with heights. The step length is the centre distance: 1 or √2 on squares,
    /// 1 on hexes. Only asked of allowed steps, so a cliff never reaches it.
    #[inline]
    pub(crate) fn step_cost(&self, from: usize, to: usize, d: usize) -> f64 {
        let flat = self.step_length[d]
            * (self.half_cost[usize::from(self.terrain[from])]
                + self.half_cost[usize::from(self.terrain[to])]);
        match &self.slope {
            None => flat,
            Some(slope) => {
                let (a, b) = (self.heights[from], self.heights[to]);
                flat + slope
                    .extra(f64::from(a), f64::from(b))
                    .unwrap_or(f64::INFINITY)
            }
        }
    }

    /// The largest power of two, from 2⁻³⁰ to 2³⁰, of which every passable terrain's half
    /// cost is a whole multiple, if there is one: every step of a flat map then costs a whole
    /// number of such units times its length (see [`Self::step_units`]).
    pub(crate) fn half_cost_unit(&self) -> Option<f64> {
        let mut unit = 2f64.powi(30);
        for &half in self.half_cost.iter().filter(|h| h.is_finite()) {
            // Dividing by a power of two is exact, so the test is too.
            while (half / unit).fract() != 0.0 {
                unit /= 2.0;
                if unit < 2f64.powi(-30) {
                    return None;
                }
            }
        }
        Some(unit)
    }

    /// The cost of a step in direction `d` from `from` to `to` as whole numbers of `unit`s
    /// (see [`Self::half_cost_unit`]): `(n, 0)` for a step of length 1, `(0, n)` for one of
    /// length √2, costing `n × unit` times its length. `None` on a map with heights, for a
    /// step of another length, or for a cost that is not a whole number of units.
    pub(crate) fn step_units(
        &self,
        from: usize,
        to: usize,
        d: usize,
        unit: f64,
    ) -> Option<(u64, u64)> {
        if self.slope.is_some() {
            return None;
        }
        let n = (self.half_cost[usize::from(self.terrain[from])]
            + self.half_cost[usize::from(self.terrain[to])])
            / unit;
        if !(n >= 0.0 && n < 2f64.powi(52) && n.fract() == 0.0) {
            return None;
        }
        let length = self.step_length[d];
        if length == 1.0 {
            Some((n as u64, 0))
        } else if length == std::f64::consts::SQRT_2 {
            Some((0, n as u64))
        } else {
            None
        }
    }

    /// The cost of the step *into* `cell` from its neighbour `next` in direction `d` of
    /// `cell`: what backward searches (from the goal) pay, since with heights a step may
    /// cost more one way than the other. Steps are allowed both ways or neither (the climb
    /// limit holds up and down), so `cell`'s mask lists its predecessors too.
    #[inline]
    pub(crate) fn step_cost_into(&self, cell: usize, next: usize, d: usize) -> f64 {
        self.step_cost(next, cell, OPPOSITE[d])
    }

    /// Whether the map has heights, so that a step may cost more one way than the other.
    pub fn has_heights(&self) -> bool {
        self.slope.is_some()
    }

    /// The terrain cost of the cell at signed coordinates: `None` off the grid or impassable.
    #[inline(always)]
    /// The same graph, whose line of sight for Theta* and Lazy Theta* also keeps `clearance`
    /// from every wall of `walls` and from its border, measured exactly
    /// ([`segment_keeps_clearance`](crate::smooth::clearance::segment_keeps_clearance)):
    /// a segment between two cell centres is taken only when a round body of that radius
    /// can follow it. `walls` is the map as drawn (the graph may be built from a map with
    /// fewer passable cells, such as [`grid_for_radius`](super::grid_for_radius)'s), of the
    /// graph's size. A clearance of 0 leaves line of sight as it was.
    ///
    /// ```
    /// use gridpath_core::grid::{Cell, Grid};
    /// use gridpath_core::search::{Algorithm, SearchGraph, SearchRequest, Searcher};
    ///
    /// // Around a pillar's corner: without a clearance a segment passes 0.14 from it.
    /// let grid = Grid::from_ascii(&["........", "........", "...##...", "...##...", "........"])
    ///     .expect("valid");
    /// let request = SearchRequest::new(Cell::new(0, 3), Cell::new(7, 1))
    ///     .with_algorithm(Algorithm::Theta);
    /// let plain = SearchGraph::new(&grid, request.diagonal);
    /// let kept = SearchGraph::new(&grid, request.diagonal).with_sight_clearance(&grid, 0.45);
    /// let near = Searcher::new().search(&plain, &request).expect("plans");
    /// let clear = Searcher::new().search(&kept, &request).expect("plans");
    /// assert!(clear.length > near.length);
    /// ```
    #[must_use]
    pub fn with_sight_clearance(mut self, walls: &Grid, clearance: f64) -> Self {
        self.sight = (clearance > 0.0).then(|| std::sync::Arc::new((walls.clone(), clearance)));
        self
    }

    /// Whether the segment between the centres of `a` and `b` keeps the clearance of
    /// [`SearchGraph::with_sight_clearance`] (always, without one).
    pub(crate) fn sight_keeps_clearance(&self, a: Cell, b: Cell) -> bool {
        self.sight.as_deref().is_none_or(|(walls, clearance)| {
            crate::smooth::clearance::segment_keeps_clearance(
                walls,
                crate::smooth::Point::centre(a),
                crate::smooth::Point::centre(b),
                *clearance,
            )
        })
    }

    pub(crate) fn cost_at(&self, x: i64, y: i64) -> Option<f64> {
        if x < 0 || y < 0 || x >= i64::from(self.width) || y >= i64::from(self.height) {
            return None;
        }
        let index = y as usize * self.width as usize + x as usize;
        let half = self.half_cost[usize::from(self.terrain[index])];
        half.is_finite().then_some(half * 2.0)
    }

    /// Whether a step from `from` in direction `d` is allowed.
    #[inline]
    pub fn can_step(&self, from: usize, d: usize) -> bool {
        self.masks[from] & (1 << d) != 0
    }

    /// The direction of a step between two adjacent cells, if they are adjacent.
    pub fn direction(a: Cell, b: Cell) -> Option<usize> {
        // The direction of each offset, by (dy + 1) · 3 + (dx + 1).
        const BY_OFFSET: [Option<usize>; 9] = [
            Some(5),
            Some(3),
            Some(4),
            Some(1),
            None,
            Some(0),
            Some(7),
            Some(2),
            Some(6),
        ];
        let dx = i64::from(b.x) - i64::from(a.x);
        let dy = i64::from(b.y) - i64::from(a.y);
        if dx.abs() > 1 || dy.abs() > 1 {
            return None;
        }
        BY_OFFSET[((dy + 1) * 3 + dx + 1) as usize]
    }

    /// The cost and geometric length of a path, checking each step against the rules;
    /// `None` when a step is not allowed.
    pub fn path_cost(&self, path: &[Cell]) -> Option<(f64, f64)> {
        let (mut cost, mut length) = (0.0, 0.0);
        for pair in path.windows(2) {
            let d = Self::direction(pair[0], pair[1])?;
            let from = self.index(pair[0]);
            if pair[0].x >= self.width || pair[0].y >= self.height || !self.can_step(from, d) {
                return None;
            }
            cost += self.step_cost(from, self.index(pair[1]), d);
            length += self.step_length[d];
        }
        Some((cost, length))
    }

    /// What [`SearchGraph::path_cost`] gives for the same cells, given as indices: the same
    /// steps summed in the same order, without turning indices into cells first.
    pub(crate) fn index_path_cost(&self, path: &[usize]) -> Option<(f64, f64)> {
        if self.width < 3 {
            // Narrower, two directions could share an index offset.
            let cells: Vec<Cell> = path.iter().map(|&i| self.cell(i)).collect();
            return self.path_cost(&cells);
        }
        let (mut cost, mut length) = (0.0, 0.0);
        // Paths run straight for long stretches: the last step's direction is tried first.
        let mut d = 0;
        for pair in path.windows(2) {
            let (from, to) = (pair[0], pair[1]);
            let offset = to as isize - from as isize;
            if self.delta[d] != offset {
                d = (0..8).find(|&d| self.delta[d] == offset)?;
            }
            // The mask knows the map's edges: an offset that wraps round a row has no bit.
            if from >= self.masks.len() || !self.can_step(from, d) {
                return None;
            }
            cost += self.step_cost(from, to, d);
            length += self.step_length[d];
        }
        Some((cost, length))
    }

    /// The cells of a path of indices, as [`SearchGraph::cell`] gives them one by one: a step
    /// to a neighbour moves the last cell's coordinates, without a division.
    pub(crate) fn index_path_cells(&self, path: &[usize]) -> Vec<Cell> {
        let w = self.width as usize;
        let mut cells = Vec::with_capacity(path.len());
        let mut last: Option<(usize, Cell)> = None;
        for &i in path {
            let cell = match last {
                Some((p, c)) if w >= 3 => {
                    let offset = i as isize - p as isize;
                    let dy: isize = if offset > 1 {
                        1
                    } else if offset < -1 {
                        -1
                    } else {
                        0
                    };
                    let dx = offset - dy * w as isize;
                    let x = i64::from(c.x) + dx as i64;
                    let y = i64::from(c.y) + dy as i64;
                    if dx.abs() <= 1 && (0..i64::from(self.width)).contains(&x) && y >= 0 {
                        Cell::new(x as u32, y as u32)
                    } else {
                        self.cell(i)
                    }
                }
                _ => self.cell(i),
            };
            cells.push(cell);
            last = Some((i, cell));
        }
        cells
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_of_indices_has_the_cells_of_each_index() {
        let grid = Grid::from_ascii(&["....", "....", "...."]).expect("a valid map");
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        // Steps every way, across a row's end (3 to 4, 4 to 3), back to the same cell,
        // and jumps that are no step at all.
        let path = [0, 1, 6, 7, 3, 4, 3, 2, 5, 9, 10, 10, 11, 0, 8, 4, 1];
        let one_by_one: Vec<Cell> = path.iter().map(|&i| graph.cell(i)).collect();
        assert_eq!(graph.index_path_cells(&path), one_by_one);
        assert_eq!(graph.index_path_cells(&[]), Vec::<Cell>::new());
    }

    #[test]
    fn a_path_of_indices_costs_what_the_same_cells_cost() {
        let grid = Grid::from_ascii(&["..~..", ".#~..", "....."]).expect("a valid map");
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        let cells =
            |xy: &[(u32, u32)]| -> Vec<Cell> { xy.iter().map(|&(x, y)| Cell::new(x, y)).collect() };
        let indices =
            |path: &[Cell]| -> Vec<usize> { path.iter().map(|&c| graph.index(c)).collect() };
        let legal = cells(&[(0, 0), (1, 0), (2, 0), (3, 1), (4, 2), (3, 2)]);
        let expected = graph.path_cost(&legal).expect("legal steps");
        assert_eq!(graph.index_path_cost(&indices(&legal)), Some(expected));
        // From the end of a row to the start of the next: one index apart, but no step.
        assert_eq!(graph.index_path_cost(&[4, 5]), None);
        // Into a wall, and across its corner.
        assert_eq!(
            graph.index_path_cost(&indices(&cells(&[(0, 1), (1, 1)]))),
            None
        );
        assert_eq!(
            graph.index_path_cost(&indices(&cells(&[(0, 0), (1, 1)]))),
            None
        );
        // Two columns: offsets alone are ambiguous, so the cells decide.
        let narrow = Grid::from_ascii(&["..", "..", ".."]).expect("a valid map");
        let graph = SearchGraph::new(&narrow, Diagonal::Always);
        let path = cells(&[(1, 0), (0, 1), (0, 2)]);
        let by_index: Vec<usize> = path.iter().map(|&c| graph.index(c)).collect();
        assert_eq!(graph.index_path_cost(&by_index), graph.path_cost(&path));
        assert!(graph.index_path_cost(&by_index).is_some());
    }

    #[test]
    fn the_jump_table_reads_the_directions_in_this_order() {
        use crate::search::jump::jump_table;
        for d in 0..8 {
            assert_eq!(jump_table::DX[d], DX[d] as isize);
            assert_eq!(jump_table::DY[d], DY[d] as isize);
            assert_eq!(crate::search::preprocessed::subgoal_graph::DX[d], DX[d]);
            assert_eq!(crate::search::preprocessed::subgoal_graph::DY[d], DY[d]);
        }
    }

    #[test]
    fn corner_rules_differ_as_named() {
        // The diagonal from (0,0) to (1,1) passes (1,0), a wall, and (0,1), free.
        let grid = Grid::from_ascii(&[".#", ".."]).unwrap();
        let se = 6;
        let allowed = |diagonal| SearchGraph::new(&grid, diagonal).can_step(0, se);
        assert!(!allowed(Diagonal::Never));
        assert!(allowed(Diagonal::Always));
        assert!(allowed(Diagonal::OneFree));
        assert!(!allowed(Diagonal::NoCut));
        // Two walls: only `always` squeezes through.
        let grid = Grid::from_ascii(&[".#", "#."]).unwrap();
        let allowed = |diagonal| SearchGraph::new(&grid, diagonal).can_step(0, se);
        assert!(allowed(Diagonal::Always));
        assert!(!allowed(Diagonal::OneFree));
    }

    #[test]
    fn step_cost_averages_the_two_cells() {
        let grid = Grid::from_ascii(&[".~", "=."]).unwrap();
        let graph = SearchGraph::new(&grid, Diagonal::Always);
        assert_eq!(graph.step_cost(0, 1, 0), 2.0);
        assert!((graph.step_cost(1, 2, 7) - std::f64::consts::SQRT_2 * 1.75).abs() < 1e-12);
        assert_eq!(graph.min_cost(), 0.5);
        assert_eq!(graph.uniform_cost(), None);
    }

    #[test]
    fn a_map_of_one_cost_steps_at_the_same_costs_without_its_terrain() {
        for rows in [["...", "..."], ["~~~", "~~~"], ["===", "==="]] {
            let grid = Grid::from_ascii(&rows).unwrap();
            for &diagonal in Diagonal::ALL {
                let graph = SearchGraph::new(&grid, diagonal);
                let costs = graph.uniform_step_costs().expect("one cost");
                for from in 0..graph.len() {
                    for d in (0..8).filter(|&d| graph.can_step(from, d)) {
                        let to = from.wrapping_add_signed(graph.delta(d));
                        let cost = graph.step_cost(from, to, d);
                        assert_eq!(costs[d].to_bits(), cost.to_bits(), "{rows:?} {from} {d}");
                    }
                }
            }
        }
        let grid = Grid::from_ascii(&[".~", "=."]).unwrap();
        let graph = SearchGraph::new(&grid, Diagonal::Always);
        assert_eq!(graph.uniform_step_costs(), None);
    }

    #[test]
    fn steps_count_whole_units_where_the_half_costs_share_a_power_of_two() {
        // Grass 1, swamp 3, road 0.5: half costs of 0.5, 1.5 and 0.25, all whole quarters.
        let grid = Grid::from_ascii(&[".~", "=."]).unwrap();
        let graph = SearchGraph::new(&grid, Diagonal::Always);
        let unit = graph.half_cost_unit();
        assert_eq!(unit, Some(0.25));
        // Grass to swamp straight: (0.5 + 1.5) / 0.25 = 8 units; swamp to road diagonally:
        // (1.5 + 0.25) / 0.25 = 7 units of √2.
        assert_eq!(graph.step_units(0, 1, 0, 0.25), Some((8, 0)));
        assert_eq!(graph.step_units(1, 2, 7, 0.25), Some((0, 7)));
        // A cost of 1.1 is no whole number of any power of two down to 2⁻³⁰.
        let mut odd = grid.clone();
        let terrain = odd.terrain(0).clone();
        odd.set_terrain(
            0,
            crate::grid::Terrain {
                cost: Some(1.1),
                ..terrain
            },
        )
        .unwrap();
        assert_eq!(
            SearchGraph::new(&odd, Diagonal::Always).half_cost_unit(),
            None
        );
        // Nor does a map with heights count its steps.
        let mut hills = grid;
        hills.set_heights(Some(vec![0.0, 2.0, 0.0, 0.0])).unwrap();
        let graph = SearchGraph::new(&hills, Diagonal::Always);
        assert_eq!(graph.step_units(0, 1, 0, 0.25), None);
    }
}
