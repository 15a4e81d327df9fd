use crate::grid::{Cell, Grid, Topology, square_integral, square_stops};

use super::Point;

/// A straight segment between two continuous points.
///
/// [`Segment::supercover`] walks every square cell the segment touches; [`Segment::is_clear`]
/// and [`Segment::cost`] answer the two questions string pulling asks of a shortcut: may a unit
/// walk it, and what does it cost. Those two, and [`Segment::touched`], read the map's
/// topology: on a hex map the segment lies in its world frame and they measure hexes
/// ([`Topology::touching`], [`Topology::integral`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// Where the segment starts.
    pub from: Point,
    /// Where the segment ends.
    pub to: Point,
}

impl Segment {
    /// The segment from `from` to `to`.
    pub const fn new(from: Point, to: Point) -> Self {
        Self { from, to }
    }

    /// The segment between two cell centres.
    pub fn between_centres(from: Cell, to: Cell) -> Self {
        Self::new(Point::centre(from), Point::centre(to))
    }

    /// The segment between two cell centres of a map with this topology, in its world frame.
    pub fn between_centres_on(topology: Topology, from: Cell, to: Cell) -> Self {
        Self::new(
            Point::centre_on(topology, from),
            Point::centre_on(topology, to),
        )
    }

    /// Every cell of the map the segment touches, as signed coordinates: the
    /// [supercover](Segment::supercover) on squares, [`HexLayout::touching`] on hexes.
    ///
    /// [`HexLayout::touching`]: crate::grid::HexLayout::touching
    pub fn touched(&self, grid: &Grid) -> Vec<(i64, i64)> {
        grid.topology().touching(self.from.into(), self.to.into())
    }

    /// The segment's length.
    pub fn length(&self) -> f64 {
        self.from.distance(self.to)
    }

    /// The point at parameter `t`: `from` at 0, `to` at 1.
    pub fn at(&self, t: f64) -> Point {
        self.from.lerp(self.to, t)
    }

    /// Every cell the segment touches, in the order the segment reaches them, as signed
    /// coordinates (cells past the map's edges included).
    ///
    /// A cell is touched when its closed square [x, x + 1] × [y, y + 1] meets the segment. So
    /// a segment crossing a cell corner exactly touches all four cells around that corner, and
    /// one running along a grid line touches the cells on both sides: a walk that needs every
    /// touched cell passable never squeezes between two diagonally touching walls.
    ///
    /// ```
    /// use gridpath_core::smooth::{Point, Segment};
    ///
    /// // The diagonal step from the centre of (0, 0) to the centre of (1, 1) passes the corner
    /// // point (1, 1), which all four cells share.
    /// let step = Segment::new(Point::new(0.5, 0.5), Point::new(1.5, 1.5));
    /// let mut cells = step.supercover();
    /// cells.sort();
    /// assert_eq!(cells, vec![(0, 0), (0, 1), (1, 0), (1, 1)]);
    /// ```
    pub fn supercover(&self) -> Vec<(i64, i64)> {
        Topology::Square.touching(self.from.into(), self.to.into())
    }

    /// Whether every cell the segment touches ([`Segment::touched`]) is on the grid and
    /// passable.
    pub fn is_clear(&self, grid: &Grid) -> bool {
        self.touched(grid)
            .into_iter()
            .all(|(x, y)| is_passable(grid, x, y))
    }

    /// The integral of the terrain cost along the segment: the length of the segment inside
    /// each cell times that cell's cost, summed. `None` when any part of positive length lies
    /// in an impassable cell or off the grid.
    ///
    /// Where the segment runs exactly along a grid line it is charged the dearer of the two
    /// cells beside it. Between two neighbouring cell centres this is exactly the search's
    /// step cost, length × (cost(from) + cost(to)) / 2, so the two are comparable.
    pub fn cost(&self, grid: &Grid) -> Option<f64> {
        let (from, to) = (self.from.into(), self.to.into());
        grid.topology()
            .integral(from, to, false, |x, y| cell_cost(grid, x, y))
    }

    /// The cost of a segment that is clear: [`Segment::cost`] when [`Segment::is_clear`] holds,
    /// `None` when it does not. One walk answers both, stopping at the first wall.
    ///
    /// ```
    /// use gridpath_core::grid::{Cell, Grid};
    /// use gridpath_core::smooth::Segment;
    ///
    /// let grid = Grid::from_ascii(&["...", ".#.", "..."]).expect("a valid map");
    /// let across = Segment::between_centres(Cell::new(0, 0), Cell::new(2, 2));
    /// assert_eq!(across.clear_cost(&grid), None, "through the wall");
    /// let along = Segment::between_centres(Cell::new(0, 0), Cell::new(2, 0));
    /// assert_eq!(along.clear_cost(&grid), Some(2.0));
    /// ```
    pub fn clear_cost(&self, grid: &Grid) -> Option<f64> {
        let (from, to) = (self.from.into(), self.to.into());
        grid.topology()
            .integral(from, to, true, |x, y| cell_cost(grid, x, y))
    }

    /// [`Segment::cost`] with the cost of each cell (at signed coordinates, `None` for walls
    /// and off the map) read from `cell_cost`.
    #[inline]
    pub(crate) fn cost_by(&self, cell_cost: impl Fn(i64, i64) -> Option<f64>) -> Option<f64> {
        square_integral::<false>(self.from.into(), self.to.into(), cell_cost)
    }

    /// The cells that hold a piece of the segment of positive length, in the order the
    /// segment crosses them, as signed coordinates. A segment crossing a corner exactly goes
    /// from one cell to the diagonal one; a segment along a grid line gets the cell below or
    /// to the right of it.
    pub(crate) fn cells_crossed(&self) -> Vec<(i64, i64)> {
        let mut cells: Vec<(i64, i64)> = Vec::new();
        let mut before: Option<f64> = None;
        self.for_each_stop(|t, _| {
            if let Some(t0) = before.replace(t)
                && t > t0
            {
                let cell = self.at((t0 + t) / 2.0).cell_in_grid();
                if cells.last() != Some(&cell) {
                    cells.push(cell);
                }
            }
            true
        });
        cells
    }

    /// The parameters (with their points) where the segment starts, crosses a grid line and
    /// ends, in order. Points on a vertical line get that line's exact x, and likewise for y.
    #[cfg(test)]
    fn stops(&self) -> Vec<(f64, Point)> {
        let mut stops = Vec::new();
        self.for_each_stop(|t, point| {
            stops.push((t, point));
            true
        });
        stops
    }

    /// Calls `visit` with the stops of [`Segment::stops`] in order, without gathering them,
    /// until it returns false; returns whether every stop was visited
    /// ([`crate::grid::square_stops`]).
    #[inline]
    fn for_each_stop(&self, mut visit: impl FnMut(f64, Point) -> bool) -> bool {
        square_stops(self.from.into(), self.to.into(), |t, (x, y)| {
            visit(t, Point::new(x, y))
        })
    }
}

/// The cost of the cell at signed coordinates: `None` off the grid or impassable.
pub(crate) fn cell_cost(grid: &Grid, x: i64, y: i64) -> Option<f64> {
    if !grid.contains(x, y) {
        return None;
    }
    grid.cost(Cell::new(x as u32, y as u32))
}

/// Whether the cell at signed coordinates is on the grid and passable.
pub(crate) fn is_passable(grid: &Grid, x: i64, y: i64) -> bool {
    cell_cost(grid, x, y).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(mut cells: Vec<(i64, i64)>) -> Vec<(i64, i64)> {
        cells.sort();
        cells
    }

    fn segment(x0: f64, y0: f64, x1: f64, y1: f64) -> Segment {
        Segment::new(Point::new(x0, y0), Point::new(x1, y1))
    }

    /// The stops as first written: every crossing gathered, then sorted.
    fn sorted_stops(segment: &Segment) -> Vec<(f64, Point)> {
        let (a, b) = (segment.from, segment.to);
        let mut stops = vec![(0.0, a), (1.0, b)];
        let mut crossings = |start: f64, end: f64, on_line: &dyn Fn(f64, f64) -> Point| {
            if start == end {
                return;
            }
            let (low, high) = (start.min(end), start.max(end));
            let mut k = low.floor() + 1.0;
            while k < high {
                let t = (k - start) / (end - start);
                stops.push((t, on_line(t, k)));
                k += 1.0;
            }
        };
        crossings(a.x, b.x, &|t, k| Point::new(k, a.y + (b.y - a.y) * t));
        crossings(a.y, b.y, &|t, k| Point::new(a.x + (b.x - a.x) * t, k));
        stops.sort_by(|p, q| p.0.total_cmp(&q.0));
        stops
    }

    #[test]
    fn the_merged_walk_meets_the_stops_of_the_sorted_one() {
        let mut seed = 7u64;
        let mut next = |range: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % range
        };
        for _ in 0..5000 {
            // Cell centres mostly, and sometimes points on grid lines.
            let mut coordinate = || next(40) as f64 * 0.5 + 0.5 * (next(2) as f64);
            let segment = segment(coordinate(), coordinate(), coordinate(), coordinate());
            let merged = segment.stops();
            let sorted = sorted_stops(&segment);
            let ts = |stops: &[(f64, Point)]| stops.iter().map(|s| s.0).collect::<Vec<_>>();
            assert_eq!(ts(&merged), ts(&sorted), "{segment:?}");
            let mut a: Vec<(f64, f64, f64)> = merged.iter().map(|s| (s.0, s.1.x, s.1.y)).collect();
            let mut b: Vec<(f64, f64, f64)> = sorted.iter().map(|s| (s.0, s.1.x, s.1.y)).collect();
            a.sort_by(|p, q| p.partial_cmp(q).unwrap());
            b.sort_by(|p, q| p.partial_cmp(q).unwrap());
            assert_eq!(a, b, "{segment:?}");
        }
    }

    #[test]
    fn clear_cost_is_the_cost_of_clear_segments_only() {
        let grid = Grid::from_ascii(&["=~..#", "..~#.", "~...=", "#..~."]).unwrap();
        let cells: Vec<Cell> = (0..4)
            .flat_map(|y| (0..5).map(move |x| Cell::new(x, y)))
            .collect();
        for &a in &cells {
            for &b in &cells {
                let segment = Segment::between_centres(a, b);
                let expected = if segment.is_clear(&grid) {
                    segment.cost(&grid)
                } else {
                    None
                };
                assert_eq!(segment.clear_cost(&grid), expected, "{a} → {b}");
            }
        }
    }

    #[test]
    fn horizontal_and_vertical_walks_stay_in_their_row_and_column() {
        let row = segment(0.5, 2.5, 4.5, 2.5).supercover();
        assert_eq!(row, vec![(0, 2), (1, 2), (2, 2), (3, 2), (4, 2)]);
        let column = segment(1.5, 3.5, 1.5, 0.5).supercover();
        assert_eq!(column, vec![(1, 3), (1, 2), (1, 1), (1, 0)]);
    }

    #[test]
    fn exact_corner_crossings_touch_all_four_cells_in_both_diagonal_directions() {
        // Down-right: through the corners (1, 1) and (2, 2).
        let down = segment(0.5, 0.5, 2.5, 2.5).supercover();
        assert_eq!(down.len(), 7, "{down:?}");
        for cell in [(0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (1, 2), (2, 2)] {
            assert!(down.contains(&cell), "{cell:?} missing from {down:?}");
        }
        // Up-right, the other diagonal: through the corner (1, 1) from (0, 1) to (1, 0).
        let up = sorted(segment(0.5, 1.5, 1.5, 0.5).supercover());
        assert_eq!(up, vec![(0, 0), (0, 1), (1, 0), (1, 1)]);
        // Right to left and bottom to top walk the same cells.
        let back = sorted(segment(2.5, 2.5, 0.5, 0.5).supercover());
        assert_eq!(back, sorted(down));
    }

    #[test]
    fn a_corner_crossing_found_by_rounding_still_touches_four_cells() {
        // From (0, 0) to (3, 3) in steps of a third: (1 - 0.5) / 3 is not exact in binary.
        let cells = sorted(segment(0.5, 0.5, 3.5, 3.5).supercover());
        assert_eq!(cells.len(), 10);
        // A slope-1/3 line from the centre of (0, 0) crosses the corner (2, 1) exactly.
        let shallow = segment(0.5, 0.5, 3.5, 1.5).supercover();
        for cell in [(1, 0), (2, 0), (1, 1), (2, 1)] {
            assert!(shallow.contains(&cell), "{cell:?} missing from {shallow:?}");
        }
    }

    #[test]
    fn a_shallow_line_touches_only_the_cells_it_enters() {
        let cells = segment(0.5, 0.5, 4.5, 1.5).supercover();
        // y crosses 1 at x = 2.5, inside column 2: no corner, no extra cell.
        assert_eq!(cells, vec![(0, 0), (1, 0), (2, 0), (2, 1), (3, 1), (4, 1)]);
    }

    #[test]
    fn a_segment_along_a_grid_line_touches_both_sides() {
        let cells = sorted(segment(0.5, 1.0, 2.5, 1.0).supercover());
        assert_eq!(cells, vec![(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]);
    }

    #[test]
    fn map_edges_count_as_walls() {
        let grid = Grid::from_ascii(&["...", "...", "..."]).unwrap();
        // Inside: clear.
        assert!(segment(0.5, 0.5, 2.5, 2.5).is_clear(&grid));
        // Along the top edge: the row above the map is touched.
        let top = segment(0.5, 0.0, 2.5, 0.0);
        assert!(top.supercover().contains(&(1, -1)));
        assert!(!top.is_clear(&grid));
        // Leaving through the right edge.
        assert!(!segment(1.5, 1.5, 3.5, 1.5).is_clear(&grid));
        // Ending exactly on the bottom-right corner touches the cell past it.
        let corner = segment(1.5, 1.5, 3.0, 3.0);
        assert!(corner.supercover().contains(&(3, 3)));
        assert!(!corner.is_clear(&grid));
    }

    #[test]
    fn a_diagonal_between_two_touching_walls_is_not_clear() {
        let grid = Grid::from_ascii(&[".#", "#."]).unwrap();
        assert!(!Segment::between_centres(Cell::new(0, 0), Cell::new(1, 1)).is_clear(&grid));
        let grid = Grid::from_ascii(&["#.", ".#"]).unwrap();
        assert!(!Segment::between_centres(Cell::new(1, 0), Cell::new(0, 1)).is_clear(&grid));
        let grid = Grid::from_ascii(&["..", ".."]).unwrap();
        assert!(Segment::between_centres(Cell::new(1, 0), Cell::new(0, 1)).is_clear(&grid));
    }

    #[test]
    fn a_single_point_touches_its_cell() {
        assert_eq!(segment(1.5, 1.5, 1.5, 1.5).supercover(), vec![(1, 1)]);
        assert_eq!(sorted(segment(1.0, 1.0, 1.0, 1.0).supercover()).len(), 4);
    }

    #[test]
    fn the_integral_of_a_step_between_centres_equals_the_step_cost() {
        // Road 0.5, swamp 3: every neighbour pair of the 3 × 3 block.
        let grid = Grid::from_ascii(&["=~.", "~=~", ".~="]).unwrap();
        let centre = Cell::new(1, 1);
        for y in 0..3 {
            for x in 0..3 {
                let to = Cell::new(x, y);
                if to == centre {
                    continue;
                }
                let (Some(a), Some(b)) = (grid.cost(centre), grid.cost(to)) else {
                    panic!("all cells are passable");
                };
                let length = if x != 1 && y != 1 {
                    std::f64::consts::SQRT_2
                } else {
                    1.0
                };
                let step = length * (a + b) / 2.0;
                let integral = Segment::between_centres(centre, to).cost(&grid).unwrap();
                assert!(
                    (integral - step).abs() < 1e-12,
                    "{to}: {integral} vs {step}"
                );
            }
        }
    }

    #[test]
    fn the_integral_weighs_each_cell_by_the_length_inside_it() {
        let grid = Grid::from_ascii(&[".~=#"]).unwrap();
        let cost = Segment::new(Point::new(0.5, 0.5), Point::new(2.75, 0.5))
            .cost(&grid)
            .unwrap();
        assert!((cost - (0.5 * 1.0 + 1.0 * 3.0 + 0.75 * 0.5)).abs() < 1e-12);
        // Into the wall.
        let into_wall = Segment::new(Point::new(0.5, 0.5), Point::new(3.5, 0.5));
        assert_eq!(into_wall.cost(&grid), None);
        // Touching the wall only at its edge costs nothing there.
        let to_edge = Segment::new(Point::new(0.5, 0.5), Point::new(3.0, 0.5));
        assert!(to_edge.cost(&grid).is_some());
    }
}
