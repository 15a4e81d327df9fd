//! Line-of-sight shortcutting (string pulling) over a grid path.

use crate::grid::{Cell, Grid};

use super::Point;
use super::Segment;
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
    let Some(last) = path.len().checked_sub(1) else {
        return Vec::new();
    };
    let mut prefix = Vec::with_capacity(path.len());
    prefix.push(0.0);
    for step in step_costs(grid, path) {
        let total = prefix.last().copied().unwrap_or(0.0) + step;
        prefix.push(total);
    }
    let mut waypoints = vec![0];
    let mut anchor = 0;
    let centre = |i: usize| Point::centre_on(grid.topology(), path[i]);
    for j in 2..=last {
        let keeps = |from: usize, to: usize| {
            clearance <= 0.0 || segment_keeps_clearance(grid, centre(from), centre(to), clearance)
        };
        if !(shortcut_pays(grid, path, &prefix, anchor, j) && keeps(anchor, j)) {
            anchor = j - 1;
            waypoints.push(anchor);
        }
    }
    if last > 0 {
        waypoints.push(last);
    }
    waypoints
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
}
