//! Where a body gets stuck: the widest way between two places and the place where it is
//! narrowest — the door that is too narrow, when a body cannot pass.
//!
//! The way runs over a lattice of points half a cell apart (cell centres, side middles and
//! corners, in the map's world frame), so that the middle of a door two cells wide is one of
//! its points. A point's room is its exact distance to the nearest wall; a way's width is the
//! least room of its points; the widest way comes from a best-first flood that always grows
//! the widest way found so far (a maximin Dijkstra), so its narrowest point is the gap every
//! way from start to goal must pass.

use std::collections::BinaryHeap;

use crate::grid::{Cell, Grid};

/// The spacing of the lattice, in cell widths.
const SPACING: f64 = 0.5;

/// The most lattice points a search keeps (24 bytes each): maps up to 2048 × 2048.
const MAX_POINTS: usize = 1 << 24;

/// The narrowest place of the widest way from `start` to `goal` (points in the map's world
/// frame; the lattice points nearest them are left out): the cell it lies in and its room
/// (measured up to `limit`), or `None` when no way joins them, they are a step apart or the
/// map is larger than 2048 × 2048 cells (the lattice would take more than 400 MB).
///
/// ```
/// use gridpath_core::drive::widest_gap;
/// use gridpath_core::grid::{Cell, Grid};
///
/// // Two doors in a wall: one cell wide and four wide. The widest way takes the wide door,
/// // 2 cells from its sides at its middle, and keeps 1.5 from the map's border on the way.
/// let mut rows = vec!["..........."; 7];
/// rows[3] = "#.#####....";
/// let grid = Grid::from_ascii(&rows).expect("a valid map");
/// let (_, room) = widest_gap(&grid, (5.5, 1.5), (5.5, 5.5), 5.0).expect("joined");
/// assert_eq!(room, 1.5);
/// // Narrow the wide door to two cells: every way passes a door, 1 from its sides.
/// rows[3] = "#.######..#";
/// let grid = Grid::from_ascii(&rows).expect("a valid map");
/// let (cell, room) = widest_gap(&grid, (5.5, 1.5), (5.5, 5.5), 5.0).expect("joined");
/// assert_eq!((room, cell.y), (1.0, 3));
/// ```
pub fn widest_gap(
    grid: &Grid,
    start: (f64, f64),
    goal: (f64, f64),
    limit: f64,
) -> Option<(Cell, f64)> {
    let topology = grid.topology();
    let (width, height) = topology.world_size(grid.width(), grid.height());
    let columns = (width / SPACING).floor() as usize + 1;
    let rows = (height / SPACING).floor() as usize + 1;
    if columns.saturating_mul(rows) > MAX_POINTS {
        return None;
    }
    let point = |i: usize| {
        (
            (i % columns) as f64 * SPACING,
            (i / columns) as f64 * SPACING,
        )
    };
    let nearest = |(x, y): (f64, f64)| -> Option<usize> {
        let (i, j) = ((x / SPACING).round(), (y / SPACING).round());
        (i >= 0.0 && j >= 0.0 && (i as usize) < columns && (j as usize) < rows)
            .then(|| j as usize * columns + i as usize)
    };
    let (from, to) = (nearest(start)?, nearest(goal)?);
    let mut room = vec![f64::NAN; columns * rows];
    let mut room_of = |i: usize| -> f64 {
        if room[i].is_nan() {
            room[i] = grid.wall_distance(point(i), limit);
        }
        room[i]
    };
    // For each point: the width of the widest way reached, and that way's narrowest point.
    let mut best: Vec<Option<(f64, usize)>> = vec![None; columns * rows];
    let mut open = BinaryHeap::new();
    best[from] = Some((f64::INFINITY, from));
    open.push((Width(f64::INFINITY), from, from));
    while let Some((Width(w), at, narrowest)) = open.pop() {
        if best[at].is_some_and(|(old, _)| old > w) {
            continue;
        }
        if at == to {
            let (x, y) = point(narrowest);
            let (cx, cy) = topology.cell_at(x, y);
            let cell = Cell::new(cx.max(0) as u32, cy.max(0) as u32);
            return w.is_finite().then_some((cell, w));
        }
        let (i, j) = ((at % columns) as i64, (at / columns) as i64);
        for (di, dj) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let (ni, nj) = (i + di, j + dj);
            if ni < 0 || nj < 0 || ni as usize >= columns || nj as usize >= rows {
                continue;
            }
            let next = nj as usize * columns + ni as usize;
            let r = if next == to {
                f64::INFINITY
            } else {
                room_of(next)
            };
            if r <= 0.0 {
                continue;
            }
            let (width, narrow) = if r < w { (r, next) } else { (w, narrowest) };
            if best[next].is_none_or(|(old, _)| width > old) {
                best[next] = Some((width, narrow));
                open.push((Width(width), next, narrow));
            }
        }
    }
    None
}

/// A width ordered for the heap (widths are finite and not NaN).
#[derive(Clone, Copy, PartialEq)]
struct Width(f64);

impl Eq for Width {}

impl PartialOrd for Width {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Width {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}
