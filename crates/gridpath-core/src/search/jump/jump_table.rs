//! JPS+'s offline jump distances: for each cell and each of the eight directions, how far the
//! next jump point lies, or how far the wall.
//!
//! The distances follow jump point search's rules under no-cut exactly:
//!
//! - Straight: moving east through a cell `n` from its predecessor `p`, `n` is a jump point
//!   when a side of `n` (north or south) is free where the same side of `p` is blocked.
//! - Diagonal: a cell reached diagonally is a jump point when a straight jump from it along
//!   either component of the diagonal finds one.
//!
//! A positive distance `k` says the next jump point lies `k` steps away; zero or a negative
//! `-k` says `k` free steps lead to the wall (or the map's edge) with no jump point on the
//! way. The query (JPS+, `jps_plus`) adds the goal itself.
//!
//! Each distance is an `i16` (a side is at most [`Grid::MAX_SIDE`](crate::grid::Grid::MAX_SIDE)
//! = 32768 cells, so a distance is at most 32767 steps), eight to a cell: **16 bytes per cell**, one quarter of a cache line, so that
//! an expansion reads all its directions with one load.
//!
//! After an edit the table changes only locally: the straight distances of the rows and
//! columns through and beside the edited cells, and the diagonal distances of the cells whose
//! diagonal runs reach a changed cell, walked back from it until they stop changing.

/// Column offsets of the eight directions, in the order of the search graph's: east, west,
/// south, north, north-east, north-west, south-east, south-west (the graph's tests check that
/// they agree).
pub(crate) const DX: [isize; 8] = [1, -1, 0, 0, 1, -1, 1, -1];
/// Row offsets of the eight directions.
pub(crate) const DY: [isize; 8] = [0, 0, 1, -1, -1, -1, 1, 1];

/// Passability with a blocked border, so that neighbour tests need no bounds checks.
struct Open {
    /// The padded width: the map's plus two.
    stride: usize,
    cells: Vec<bool>,
}

impl Open {
    fn new(w: usize, h: usize, passable: &impl Fn(usize) -> bool) -> Self {
        let stride = w + 2;
        let mut cells = vec![false; stride * (h + 2)];
        for y in 0..h {
            for x in 0..w {
                cells[(y + 1) * stride + x + 1] = passable(y * w + x);
            }
        }
        Self { stride, cells }
    }

    /// Whether `(x, y)` is on the map and passable; one cell off any edge reads as blocked.
    #[inline(always)]
    fn at(&self, x: isize, y: isize) -> bool {
        self.cells[((y + 1) as usize) * self.stride + (x + 1) as usize]
    }
}

/// The signed jump distances of every cell in the eight directions of [`DX`]/[`DY`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct JumpTable {
    width: usize,
    height: usize,
    /// Per cell (row-major), per direction: the jump distance.
    dist: Vec<[i16; 8]>,
}

impl JumpTable {
    /// Builds the table of a `width` × `height` map under the no-cut rule from the passability
    /// of each cell index (row-major).
    pub fn new(width: usize, height: usize, passable: impl Fn(usize) -> bool) -> Self {
        let mut table = Self {
            width,
            height,
            dist: vec![[0; 8]; width * height],
        };
        let padded = Open::new(width, height, &passable);
        let open = |x: isize, y: isize| padded.at(x, y);
        let mut ignored = Vec::new();
        for y in 0..height {
            table.row(&open, y, &mut ignored);
            ignored.clear();
        }
        for x in 0..width {
            table.column(&open, x, &mut ignored);
            ignored.clear();
        }
        for d in 4..8 {
            let delta = DY[d] * width as isize + DX[d];
            let mut refresh = |i: usize| {
                table.diagonal_at(&open, i, d);
            };
            // Each cell reads the cell one step ahead, so that one goes first.
            if delta > 0 {
                (0..width * height).rev().for_each(&mut refresh);
            } else {
                (0..width * height).for_each(&mut refresh);
            }
        }
        table
    }

    /// The eight jump distances of a cell.
    #[inline(always)]
    pub fn at(&self, cell: usize) -> &[i16; 8] {
        &self.dist[cell]
    }

    /// The distances of every cell, row-major.
    #[inline(always)]
    pub fn cells(&self) -> &[[i16; 8]] {
        &self.dist
    }

    /// Brings the table up to date after the passability of the `edited` cells changed, given
    /// the new `passable` test; `around` lists the edited cells and their neighbours, whose
    /// diagonal steps may have changed.
    pub fn update(&mut self, passable: impl Fn(usize) -> bool, edited: &[usize], around: &[usize]) {
        // Read in place, not copied: an edit costs the lines it touches, not the map.
        let (w, h) = (self.width, self.height);
        let open = |x: isize, y: isize| {
            x >= 0
                && y >= 0
                && (x as usize) < w
                && (y as usize) < h
                && passable(y as usize * w + x as usize)
        };
        let mut rows: Vec<usize> = Vec::new();
        let mut columns: Vec<usize> = Vec::new();
        for &i in edited {
            let (x, y) = (i % w, i / w);
            rows.extend((y.saturating_sub(1)..=(y + 1).min(h - 1)).collect::<Vec<_>>());
            columns.extend((x.saturating_sub(1)..=(x + 1).min(w - 1)).collect::<Vec<_>>());
        }
        rows.sort_unstable();
        rows.dedup();
        columns.sort_unstable();
        columns.dedup();
        let mut seeds = around.to_vec();
        for &y in &rows {
            self.row(&open, y, &mut seeds);
        }
        for &x in &columns {
            self.column(&open, x, &mut seeds);
        }
        seeds.sort_unstable();
        seeds.dedup();
        for d in 4..8 {
            let delta = DY[d] * w as isize + DX[d];
            // The cells ahead along the diagonal first, as in the full build.
            let order: Box<dyn Iterator<Item = &usize>> = if delta > 0 {
                Box::new(seeds.iter().rev())
            } else {
                Box::new(seeds.iter())
            };
            for &seed in order {
                // The seed itself (its mask may have changed), then the cells whose diagonal
                // runs pass it, back until one keeps its distance.
                let (mut x, mut y) = ((seed % w) as isize, (seed / w) as isize);
                let mut first = true;
                loop {
                    let i = y as usize * w + x as usize;
                    if !self.diagonal_at(&open, i, d) && !first {
                        break;
                    }
                    first = false;
                    (x, y) = (x - DX[d], y - DY[d]);
                    if x < 0 || y < 0 || x >= w as isize || y >= h as isize {
                        break;
                    }
                }
            }
        }
    }

    /// Recomputes the east and west distances of row `y`, listing the cells that changed.
    fn row(&mut self, open: &impl Fn(isize, isize) -> bool, y: usize, changed: &mut Vec<usize>) {
        for d in [0, 1] {
            self.straight_line(open, d, y, changed);
        }
    }

    /// Recomputes the south and north distances of column `x`, listing the cells that changed.
    fn column(&mut self, open: &impl Fn(isize, isize) -> bool, x: usize, changed: &mut Vec<usize>) {
        for d in [2, 3] {
            self.straight_line(open, d, x, changed);
        }
    }

    /// Recomputes the distances in straight direction `d` along the row (east, west) or column
    /// (south, north) `fixed`, walking against `d` so that each cell reads the one ahead.
    fn straight_line(
        &mut self,
        open: &impl Fn(isize, isize) -> bool,
        d: usize,
        fixed: usize,
        changed: &mut Vec<usize>,
    ) {
        let (dx, dy) = (DX[d], DY[d]);
        // The side offset, across the direction of travel.
        let (sx, sy) = (dy.abs(), dx.abs());
        let len = if dx != 0 { self.width } else { self.height } as isize;
        let w = self.width;
        let mut ahead: i16 = 0;
        for k in (0..len).rev() {
            // The k-th cell in the order of travel.
            let along = if dx + dy > 0 { k } else { len - 1 - k };
            let (x, y) = if dx != 0 {
                (along, fixed as isize)
            } else {
                (fixed as isize, along)
            };
            let (nx, ny) = (x + dx, y + dy);
            let value = if !open(x, y) || !open(nx, ny) {
                0
            } else if (open(nx + sx, ny + sy) && !open(x + sx, y + sy))
                || (open(nx - sx, ny - sy) && !open(x - sx, y - sy))
            {
                1
            } else if ahead > 0 {
                ahead + 1
            } else {
                ahead - 1
            };
            let i = y as usize * w + x as usize;
            if self.dist[i][d] != value {
                self.dist[i][d] = value;
                changed.push(i);
            }
            ahead = value;
        }
    }

    /// Recomputes the distance of cell `i` in diagonal direction `d` from the cell one step
    /// ahead; returns whether it changed. Under no-cut the step needs its target and both
    /// corners it passes free.
    #[inline]
    fn diagonal_at(&mut self, open: &impl Fn(isize, isize) -> bool, i: usize, d: usize) -> bool {
        let (x, y) = ((i % self.width) as isize, (i / self.width) as isize);
        let (dx, dy) = (DX[d], DY[d]);
        let value = if !(open(x, y) && open(x + dx, y + dy) && open(x + dx, y) && open(x, y + dy)) {
            0
        } else {
            let next = &self.dist[(y + dy) as usize * self.width + (x + dx) as usize];
            let (h, v) = (if dx > 0 { 0 } else { 1 }, if dy > 0 { 2 } else { 3 });
            if next[h] > 0 || next[v] > 0 {
                1
            } else if next[d] > 0 {
                next[d] + 1
            } else {
                next[d] - 1
            }
        };
        let old = std::mem::replace(&mut self.dist[i][d], value);
        old != value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Cell, Grid};
    use crate::search::SearchGraph;
    use crate::search::request::Diagonal;

    /// A small deterministic generator (xorshift), for maps and edits.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    #[test]
    fn distances_read_as_documented() {
        let grid = Grid::from_ascii(&["....#", ".....", "#...."]).expect("valid map");
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        let table = JumpTable::new(5, 3, |i| graph.is_passable(i));
        // Row 0 east from (0, 0): three free steps, then the wall.
        assert_eq!(table.at(0)[0], -3);
        // Row 1 east from (0, 1): (1, 1) has a forced neighbour, (1, 2) free below the
        // blocked (0, 2).
        assert_eq!(table.at(5)[0], 1);
        // Row 1 west from (4, 1): (3, 1) has a forced neighbour above, (3, 0) free beside the
        // blocked (4, 0).
        assert_eq!(table.at(9)[1], 1);
        // South-east from (0, 0): two free steps to the map's edge, since neither (1, 1) nor
        // (2, 2) finds a jump point east or south.
        assert_eq!(table.at(0)[6], -2);
        // A wall ahead: zero.
        assert_eq!(table.at(3)[0], 0);
    }

    #[test]
    fn an_edited_table_and_bit_lines_equal_a_fresh_build() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for round in 0..60 {
            let (w, h) = (2 + rng.below(30) as usize, 2 + rng.below(30) as usize);
            let density = rng.below(45);
            let rows: Vec<String> = (0..h)
                .map(|_| {
                    (0..w)
                        .map(|_| if rng.below(100) < density { '#' } else { '.' })
                        .collect()
                })
                .collect();
            let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
            let grid = Grid::from_ascii(&refs).expect("valid map");
            let id = |passable: bool| {
                let found = grid
                    .terrains()
                    .iter()
                    .position(|t| t.cost.is_some() == passable);
                found.expect("a wall and a floor terrain") as u8
            };
            let (wall, floor) = (id(false), id(true));
            let mut graph = SearchGraph::new(&grid, Diagonal::NoCut);
            let _ = graph.jump_table();
            let _ = graph.jump_lines();
            for _ in 0..8 {
                let edits: Vec<(Cell, u8)> = (0..1 + rng.below(4))
                    .map(|_| {
                        let cell =
                            Cell::new(rng.below(w as u64) as u32, rng.below(h as u64) as u32);
                        (cell, if rng.below(2) == 0 { wall } else { floor })
                    })
                    .collect();
                graph.set_cells(&edits);
                let fresh = JumpTable::new(w, h, |i| graph.is_passable(i));
                assert!(
                    graph.jump_table() == &fresh,
                    "round {round}: the edited table differs from a fresh build"
                );
                let lines =
                    crate::search::jump::jump_lines::JumpLines::new(w, h, |i| graph.is_passable(i));
                assert!(
                    graph.jump_lines() == &lines,
                    "round {round}: the edited bit lines differ from a fresh build"
                );
            }
        }
    }
}
