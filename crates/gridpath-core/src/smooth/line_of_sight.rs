//! Line-of-sight shortcutting (string pulling) over a grid path.

use crate::control::SearchControl;
use crate::grid::{Cell, Grid};

use super::Point;
use super::Segment;
use super::SmoothError;
use super::clearance::segment_keeps_clearance;

/// The relative slack allowed when comparing a shortcut's integrated cost with the grid steps
/// it replaces, so that a shortcut costing the same in exact arithmetic is not lost to
/// rounding.
pub const COST_TOLERANCE: f64 = 1e-9;

/// The cost of each step of a grid path under the search's step model: step length ×
/// (cost(from) + cost(to)) / 2, plus the slope term on a map with heights. A step onto a
/// cell without a cost (or over a cliff) counts as 0 there; callers pass paths the searches
/// found.
pub fn step_costs(grid: &Grid, path: &[Cell]) -> Vec<f64> {
    path.windows(2)
        .map(|pair| {
            let length = Segment::between_centres_on(grid.topology(), pair[0], pair[1]).length();
            let a = grid.cost(pair[0]).unwrap_or(0.0);
            let b = grid.cost(pair[1]).unwrap_or(0.0);
            length * (a + b) / 2.0 + grid.slope_extra(pair[0], pair[1]).unwrap_or(0.0)
        })
        .collect()
}

/// The indices of the path cells kept as waypoints when runs of grid steps are replaced by
/// straight segments between cell centres.
///
/// Walking from the first cell, the current segment is stretched one cell further while the
/// segment from the last waypoint is clear ([`Segment::is_clear`]) and its integrated cost
/// ([`Segment::cost`]) is not higher than the grid steps it replaces (within
/// [`COST_TOLERANCE`]); when it cannot be stretched, the cell before becomes a waypoint. A
/// single grid step is always kept as it is. So every segment costs at most the steps it
/// replaces, and the whole line-of-sight path at most the grid path.
///
/// The first and last cells are always waypoints; an empty path gives no waypoints.
pub fn pull_string(grid: &Grid, path: &[Cell]) -> Vec<usize> {
    pull_string_keeping(grid, path, 0.0)
}

/// [`pull_string`] where a shortcut (a segment over more than one grid step) must also keep
/// `clearance` from every wall and the map's border
/// ([`segment_keeps_clearance`](super::clearance::segment_keeps_clearance)). A single grid
/// step is still always kept: where the grid path itself comes nearer, so does the result.
pub fn pull_string_keeping(grid: &Grid, path: &[Cell], clearance: f64) -> Vec<usize> {
    let control = SearchControl::new();
    Pull::new(grid, path, clearance, &control)
        .run()
        .unwrap_or_default()
}

/// One string pulling over a path: the greedy walk of [`pull_string_keeping`], watching a
/// [`SearchControl`] and counting its work.
///
/// Asked one shortcut at a time, the greedy walk costs the square of a long shortcut's
/// length: along a straight row of n cells every cell is asked from the first, each over a
/// segment as long as the way to it. Along a run of equal steps, though, every cell of the
/// run lies on the segment from the run's first cell to its last, and a part of a segment
/// touches no cell the whole does not; its cost is its steps' costs, which a shortcut must
/// not exceed anyway. So within a run the answer goes from yes to no once, and the last
/// yes is found by galloping and halving: the same waypoints, in a number of segment walks
/// that grows with the logarithm of a run's length, not with its length.
pub(crate) struct Pull<'a> {
    grid: &'a Grid,
    path: &'a [Cell],
    clearance: f64,
    control: &'a SearchControl,
    /// The costs of the grid path up to each cell.
    prefix: Vec<f64>,
    /// How many grid steps the shortcuts asked about spanned in all: the cells their walks
    /// visit, give or take a constant factor.
    pub(crate) work: u64,
}

impl<'a> Pull<'a> {
    /// A string pulling over `path` on `grid`, shortcuts keeping `clearance` (none at 0).
    pub(crate) fn new(
        grid: &'a Grid,
        path: &'a [Cell],
        clearance: f64,
        control: &'a SearchControl,
    ) -> Self {
        let mut prefix = Vec::with_capacity(path.len());
        prefix.push(0.0);
        for step in step_costs(grid, path) {
            let total = prefix.last().copied().unwrap_or(0.0) + step;
            prefix.push(total);
        }
        Self {
            grid,
            path,
            clearance,
            control,
            prefix,
            work: 0,
        }
    }

    /// The indices of the cells kept as waypoints, as [`pull_string_keeping`] gives them;
    /// [`SmoothError::Cancelled`] when the control is cancelled on the way.
    pub(crate) fn run(&mut self) -> Result<Vec<usize>, SmoothError> {
        let Some(last) = self.path.len().checked_sub(1) else {
            return Ok(Vec::new());
        };
        let mut waypoints = vec![0];
        let mut anchor = 0;
        let mut run_end = self.run_end(anchor);
        let mut j = 2;
        while j <= last {
            if waypoints.last() != Some(&anchor) {
                waypoints.push(anchor);
                run_end = self.run_end(anchor);
            }
            if j <= run_end {
                // Every cell of anchor..=run_end lies on one segment: the last that may be
                // reached from the anchor, and the cell after it (if any) is not.
                let reached = self.last_in_sight(anchor, j, run_end)?;
                if reached < run_end {
                    anchor = reached;
                    j = reached + 2;
                } else {
                    j = run_end + 1;
                }
                continue;
            }
            if !self.pays(anchor, j)? {
                anchor = j - 1;
            }
            j += 1;
        }
        if waypoints.last() != Some(&anchor) {
            waypoints.push(anchor);
        }
        if last > 0 {
            waypoints.push(last);
        }
        Ok(waypoints)
    }

    /// The last cell of the run of equal steps that starts at `from`.
    fn run_end(&self, from: usize) -> usize {
        let topology = self.grid.topology();
        let centre = |i: usize| Point::centre_on(topology, self.path[i]);
        let Some(&next) = self.path.get(from + 1) else {
            return from;
        };
        let step = Point::centre_on(topology, next) - centre(from);
        let mut end = from + 1;
        // Neighbouring centres differ by vectors at least 45° apart: a rounding error
        // cannot make two different steps look equal.
        while end + 1 < self.path.len() {
            let turn = centre(end + 1) - centre(end) - step;
            if turn.x.hypot(turn.y) >= 1e-6 {
                break;
            }
            end += 1;
        }
        end
    }

    /// The last cell in `first - 1..=last` (all on one straight run from `anchor`) that a
    /// shortcut from `anchor` reaches, given that the one before `first` does (or is the
    /// anchor's neighbour): `last` itself, or the cell before the first that cannot be.
    ///
    /// Galloping out from `first` (1, 2, 4, … cells on) and then halving, so a run cut
    /// short near its start costs little, and one reached whole a few walks over it.
    fn last_in_sight(
        &mut self,
        anchor: usize,
        first: usize,
        last: usize,
    ) -> Result<usize, SmoothError> {
        // `low` is reached; `high`, when there is one, is not.
        let mut low = first - 1;
        let mut stride = 1;
        let mut high = loop {
            let probe = (low + stride).min(last);
            if !self.pays(anchor, probe)? {
                break probe;
            }
            if probe == last {
                return Ok(last);
            }
            low = probe;
            stride *= 2;
        };
        while high - low > 1 {
            let middle = low + (high - low) / 2;
            if self.pays(anchor, middle)? {
                low = middle;
            } else {
                high = middle;
            }
        }
        Ok(low)
    }

    /// Whether the shortcut from `path[from]` to `path[to]` is clear, costs no more than the
    /// grid steps it replaces and keeps the clearance.
    fn pays(&mut self, from: usize, to: usize) -> Result<bool, SmoothError> {
        if self.control.is_cancelled() {
            return Err(SmoothError::Cancelled);
        }
        self.work += (to - from) as u64;
        let (grid, path) = (self.grid, self.path);
        let keeps = || {
            let centre = |i: usize| Point::centre_on(grid.topology(), path[i]);
            self.clearance <= 0.0
                || segment_keeps_clearance(grid, centre(from), centre(to), self.clearance)
        };
        Ok(shortcut_pays(grid, path, &self.prefix, from, to) && keeps())
    }
}

/// Whether the straight segment from `path[from]` to `path[to]` is clear and costs no more
/// than the grid steps between them. On a map with heights a shortcut must also stay on
/// level ground (every cell it touches as high as where it starts), where slopes add
/// nothing to its integral and no cliff can lie across it.
fn shortcut_pays(grid: &Grid, path: &[Cell], prefix: &[f64], from: usize, to: usize) -> bool {
    let segment = Segment::between_centres_on(grid.topology(), path[from], path[to]);
    if !segment.is_clear(grid) {
        return false;
    }
    if grid.heights().is_some() {
        let level = grid.height_at(path[from]);
        let flat = segment
            .touched(grid)
            .into_iter()
            .all(|(x, y)| grid.height_at(Cell::new(x as u32, y as u32)) == level);
        if !flat {
            return false;
        }
    }
    let replaced = prefix[to] - prefix[from];
    segment
        .cost(grid)
        .is_some_and(|cost| cost <= replaced + COST_TOLERANCE * replaced.max(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{HexLayout, Topology};
    use crate::search::{self, SearchRequest};

    fn waypoints(rows: &[&str], from: Cell, to: Cell) -> (Vec<Cell>, Vec<Cell>) {
        let grid = Grid::from_ascii(rows).unwrap();
        let result = search::solve(&grid, &SearchRequest::new(from, to)).unwrap();
        assert!(result.found);
        let kept = pull_string(&grid, &result.path);
        let cells = kept.iter().map(|&i| result.path[i]).collect();
        (result.path, cells)
    }

    #[test]
    fn an_open_map_pulls_to_one_segment() {
        let (_, kept) = waypoints(
            &["......", "......", "......", "......"],
            Cell::new(0, 0),
            Cell::new(5, 2),
        );
        assert_eq!(kept, vec![Cell::new(0, 0), Cell::new(5, 2)]);
    }

    #[test]
    fn a_wall_keeps_a_waypoint_at_its_corner() {
        let (_, kept) = waypoints(
            &[".....", ".###.", ".###.", "....."],
            Cell::new(0, 0),
            Cell::new(4, 3),
        );
        assert_eq!(kept.len(), 3, "{kept:?}");
        let corner = kept[1];
        assert!(
            corner == Cell::new(4, 0) || corner == Cell::new(0, 3),
            "{kept:?}"
        );
    }

    #[test]
    fn a_shortcut_through_swamp_is_not_taken() {
        // The road runs around the swamp; the straight line would cross it.
        let rows = ["=====", "=~~~=", "=~~~=", "====="];
        let grid = Grid::from_ascii(&rows).unwrap();
        let path: Vec<Cell> = [
            (0, 0),
            (0, 1),
            (0, 2),
            (0, 3),
            (1, 3),
            (2, 3),
            (3, 3),
            (4, 3),
        ]
        .into_iter()
        .map(|(x, y)| Cell::new(x, y))
        .collect();
        let kept: Vec<Cell> = pull_string(&grid, &path).iter().map(|&i| path[i]).collect();
        assert_eq!(
            kept,
            vec![Cell::new(0, 0), Cell::new(0, 3), Cell::new(4, 3)]
        );
    }

    #[test]
    fn short_paths_keep_their_ends() {
        let grid = Grid::from_ascii(&["..."]).unwrap();
        assert!(pull_string(&grid, &[]).is_empty());
        assert_eq!(pull_string(&grid, &[Cell::new(1, 0)]), vec![0]);
        assert_eq!(
            pull_string(&grid, &[Cell::new(1, 0), Cell::new(2, 0)]),
            vec![0, 1]
        );
    }

    /// The greedy walk as first written: every cell asked about from the anchor, one at a time.
    fn one_at_a_time(grid: &Grid, path: &[Cell], clearance: f64) -> Vec<usize> {
        let Some(last) = path.len().checked_sub(1) else {
            return Vec::new();
        };
        let mut prefix = vec![0.0];
        for step in step_costs(grid, path) {
            prefix.push(prefix[prefix.len() - 1] + step);
        }
        let centre = |i: usize| Point::centre_on(grid.topology(), path[i]);
        let mut waypoints = vec![0];
        let mut anchor = 0;
        for j in 2..=last {
            let keeps = clearance <= 0.0
                || segment_keeps_clearance(grid, centre(anchor), centre(j), clearance);
            if !(shortcut_pays(grid, path, &prefix, anchor, j) && keeps) {
                anchor = j - 1;
                waypoints.push(anchor);
            }
        }
        if last > 0 {
            waypoints.push(last);
        }
        waypoints
    }

    /// Every topology the smoother knows: squares, pointy-top and flat-top hexes.
    fn topologies() -> [Topology; 3] {
        [
            Topology::Square,
            Topology::Hex(HexLayout::ODD_R),
            Topology::Hex(HexLayout::EVEN_Q),
        ]
    }

    #[test]
    fn runs_of_equal_steps_give_the_waypoints_of_the_one_at_a_time_walk() {
        let mut rng = crate::rng::Rng::new(11);
        let mut next = |range: u64| rng.below(range as usize) as u64;
        let (width, height) = (18u32, 13u32);
        let mut compared = 0;
        for round in 0..240 {
            let rows: Vec<String> = (0..height)
                .map(|_| {
                    (0..width)
                        .map(|_| match next(20) {
                            0..=2 => '#',
                            3 => '~',
                            4 => '=',
                            _ => '.',
                        })
                        .collect()
                })
                .collect();
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let topology = topologies()[round % 3];
            let mut grid = Grid::from_ascii(&rows).unwrap().with_topology(topology);
            if round % 4 == 3 {
                // Raised blocks: shortcuts must stay on level ground.
                let heights = (0..width * height)
                    .map(|i| if (i / 5) % 3 == 0 { 1.0 } else { 0.0 })
                    .collect();
                grid.set_heights(Some(heights)).unwrap();
            }
            let mut cell = || {
                Cell::new(
                    next(u64::from(width)) as u32,
                    next(u64::from(height)) as u32,
                )
            };
            let (from, to) = (cell(), cell());
            let Ok(result) = search::solve(&grid, &SearchRequest::new(from, to)) else {
                continue;
            };
            if !result.found {
                continue;
            }
            for clearance in [0.0, 0.3] {
                let control = SearchControl::new();
                let pulled = Pull::new(&grid, &result.path, clearance, &control).run();
                let expected = one_at_a_time(&grid, &result.path, clearance);
                assert_eq!(pulled, Ok(expected), "{topology:?} {rows:?} {from} → {to}");
            }
            compared += 1;
        }
        assert!(compared > 100, "only {compared} paths found");
    }

    /// A straight path of `n` cells across an open map of this topology: along a row of
    /// squares or pointy-top hexes, down a column of flat-top hexes, or the squares' diagonal.
    fn straight(topology: Topology, n: u32, diagonal: bool) -> (Grid, Vec<Cell>) {
        let (width, height) = match (topology, diagonal) {
            (_, true) => (n, n),
            (Topology::Hex(layout), _) if layout == HexLayout::EVEN_Q => (3, n),
            _ => (n, 3),
        };
        let rows = vec![".".repeat(width as usize); height as usize];
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let grid = Grid::from_ascii(&rows).unwrap().with_topology(topology);
        let path = (0..n)
            .map(|i| match (width, diagonal) {
                (_, true) => Cell::new(i, i),
                (3, _) => Cell::new(1, i),
                _ => Cell::new(i, 1),
            })
            .collect();
        (grid, path)
    }

    #[test]
    fn the_work_along_a_straight_path_grows_with_its_length_not_its_square() {
        let mut cases: Vec<(Topology, bool)> =
            topologies().into_iter().map(|t| (t, false)).collect();
        cases.push((Topology::Square, true));
        for (topology, diagonal) in cases {
            let work = |n: u32| {
                let (grid, path) = straight(topology, n, diagonal);
                let control = SearchControl::new();
                let mut pull = Pull::new(&grid, &path, 0.0, &control);
                let kept = pull.run().unwrap();
                assert_eq!(kept, vec![0, path.len() - 1], "{topology:?}");
                pull.work
            };
            let (short, long) = (work(256), work(1024));
            // One at a time, the walk spans n²/2 steps: 16 times as many for 4 times the path.
            assert!(
                long <= short * 5,
                "{topology:?} diagonal {diagonal}: {short} steps walked for 256 cells, {long} for 1024"
            );
            assert!(
                long < 1024 * 8,
                "{topology:?}: {long} steps walked for 1024 cells"
            );
        }
    }

    #[test]
    fn a_cancelled_control_stops_the_walk() {
        let (grid, path) = straight(Topology::Hex(HexLayout::ODD_R), 64, false);
        let control = SearchControl::new();
        control.cancel();
        let mut pull = Pull::new(&grid, &path, 0.0, &control);
        assert_eq!(pull.run(), Err(SmoothError::Cancelled));
        assert_eq!(pull.work, 0);
    }
}
