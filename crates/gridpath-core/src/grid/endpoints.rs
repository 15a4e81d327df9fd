//! Where a search starts and ends on a map that names neither: the two passable cells of the
//! largest connected region that lie farthest apart.
//!
//! The region is the largest one that does not touch the map's edge (directly, or through
//! unknown space: an impassable terrain named "Unknown", as ROS map imports make), when there is one at
//! least a quarter the size of the largest region of all ([`MarkerRegion::Enclosed`]): on a
//! scanned building the free strip between the outer wall and the edge of the map is often
//! the largest region, and the rooms inside are what a user means; a quarter keeps a closet
//! from winning over a hall open to the edge. Otherwise it is the largest region of all
//! ([`MarkerRegion::Largest`]).
//!
//! Regions are 4-connected sets of passable cells (what a search with any diagonal rule can
//! cross), and "farthest apart" is counted in orthogonal steps through the region. The pair is
//! found by a double sweep: a breadth-first search from the region's first cell finds the cell
//! farthest from it, and a second one from there finds the cell farthest from that. On a
//! corridor or a tree of corridors the pair is the region's true diameter; on open ground it
//! is within a small factor of it, which is all a default needs. Time and memory are linear
//! in the map's size.
//!
//! ```
//! use gridpath_core::grid::{Cell, Grid, farthest_apart};
//!
//! let grid = Grid::from_ascii(&["..#....", "..#.##.", ".....#."]).expect("a valid grid");
//! // One region; its far ends, 12 steps apart, are the corners (0, 0) and (6, 2).
//! assert_eq!(farthest_apart(&grid), Some((Cell::new(6, 2), Cell::new(0, 0))));
//! ```

use std::collections::VecDeque;

use super::{Cell, Grid, Map};

/// Which region the default start and goal lie in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkerRegion {
    /// The largest region that does not touch the map's edge (inside the outer walls).
    Enclosed,
    /// The largest region of all: none away from the edge is a quarter its size.
    Largest,
}

impl MarkerRegion {
    /// How the cells were chosen, for the user.
    pub fn describe(self) -> &'static str {
        match self {
            MarkerRegion::Enclosed => "the two cells farthest apart inside the outer walls",
            MarkerRegion::Largest => "the two cells farthest apart in the largest region",
        }
    }
}

/// The region [`farthest_apart`] places the start and goal in; `None` on a map without a
/// passable cell.
pub fn marker_region(grid: &Grid) -> Option<MarkerRegion> {
    chosen_region(grid).map(|(_, region)| region)
}

/// The two passable cells of the region [`marker_region`] chooses (4-connected) found
/// farthest apart by a double sweep; `None` on a map without a passable cell. A region of one
/// cell gives that cell twice.
pub fn farthest_apart(grid: &Grid) -> Option<(Cell, Cell)> {
    let (seed, _) = chosen_region(grid)?;
    let mut sweep = Sweep::new(grid);
    let a = sweep.farthest_from(grid, seed);
    let b = sweep.farthest_from(grid, a);
    Some((grid.cell_at(a as usize), grid.cell_at(b as usize)))
}

/// The passable cell farthest (in orthogonal steps) from `from` in its region; `None` when
/// `from` is off the map or impassable.
pub fn farthest_from(grid: &Grid, from: Cell) -> Option<Cell> {
    if !grid.is_passable(from) {
        return None;
    }
    let far = Sweep::new(grid).farthest_from(grid, grid.index(from) as u32);
    Some(grid.cell_at(far as usize))
}

impl Map {
    /// Gives a map without a start or goal the default ones: both missing, the two cells of
    /// [`farthest_apart`]; one missing, the cell farthest from the other. Returns whether a
    /// marker was placed. A marker that is already there stays, wherever it is.
    pub fn place_default_markers(&mut self) -> bool {
        let (start, goal) = match (self.start, self.goal) {
            (Some(_), Some(_)) => return false,
            (None, None) => match farthest_apart(&self.grid) {
                Some(pair) => pair,
                None => return false,
            },
            (Some(start), None) => match farthest_from(&self.grid, start) {
                Some(goal) => (start, goal),
                None => return false,
            },
            (None, Some(goal)) => match farthest_from(&self.grid, goal) {
                Some(start) => (start, goal),
                None => return false,
            },
        };
        self.start = Some(start);
        self.goal = Some(goal);
        true
    }
}

/// The first cell (in row order) of the region the markers go in, and which kind it is.
fn chosen_region(grid: &Grid) -> Option<(u32, MarkerRegion)> {
    let outside = outside(grid);
    let mut seen = vec![false; grid.len()];
    let mut queue = VecDeque::new();
    // The largest region of all, and the largest away from the edge: (size, first cell).
    let mut largest: Option<(usize, u32)> = None;
    let mut enclosed: Option<(usize, u32)> = None;
    for start in 0..grid.len() {
        if seen[start] || !passable(grid, start) {
            continue;
        }
        seen[start] = true;
        queue.push_back(start as u32);
        let (mut size, mut touches) = (0, false);
        while let Some(i) = queue.pop_front() {
            size += 1;
            touches |= outside[i as usize];
            for n in neighbours(grid, i) {
                if !seen[n as usize] && passable(grid, n as usize) {
                    seen[n as usize] = true;
                    queue.push_back(n);
                }
            }
        }
        if largest.is_none_or(|(s, _)| size > s) {
            largest = Some((size, start as u32));
        }
        if !touches && enclosed.is_none_or(|(s, _)| size > s) {
            enclosed = Some((size, start as u32));
        }
    }
    let (largest_size, largest_cell) = largest?;
    match enclosed {
        Some((size, cell)) if size * 4 >= largest_size => Some((cell, MarkerRegion::Enclosed)),
        _ => Some((largest_cell, MarkerRegion::Largest)),
    }
}

/// Breadth-first search state, kept between the two sweeps.
struct Sweep {
    stamp: Vec<u32>,
    round: u32,
    queue: VecDeque<u32>,
}

impl Sweep {
    fn new(grid: &Grid) -> Self {
        Self {
            stamp: vec![0; grid.len()],
            round: 0,
            queue: VecDeque::new(),
        }
    }

    /// The last cell a breadth-first search from `from` reaches: one of the farthest.
    fn farthest_from(&mut self, grid: &Grid, from: u32) -> u32 {
        self.round += 1;
        self.stamp[from as usize] = self.round;
        self.queue.push_back(from);
        let mut last = from;
        while let Some(i) = self.queue.pop_front() {
            last = i;
            for n in neighbours(grid, i) {
                if self.stamp[n as usize] != self.round && passable(grid, n as usize) {
                    self.stamp[n as usize] = self.round;
                    self.queue.push_back(n);
                }
            }
        }
        last
    }
}

/// The cells reachable from the map's edge through passable cells and unknown space (an
/// impassable terrain named "Unknown", as ROS map and image imports make it): what lies
/// outside the outer walls.
fn outside(grid: &Grid) -> Vec<bool> {
    let (w, h) = (grid.width(), grid.height());
    let open = |i: usize| {
        let terrain = grid.terrain(grid.cells()[i]);
        terrain.is_passable() || terrain.name == "Unknown"
    };
    let mut outside = vec![false; grid.len()];
    let mut queue = VecDeque::new();
    for i in 0..grid.len() as u32 {
        let (x, y) = (i % w, i / w);
        let edge = x == 0 || y == 0 || x + 1 == w || y + 1 == h;
        if edge && open(i as usize) {
            outside[i as usize] = true;
            queue.push_back(i);
        }
    }
    while let Some(i) = queue.pop_front() {
        for n in neighbours(grid, i) {
            if !outside[n as usize] && open(n as usize) {
                outside[n as usize] = true;
                queue.push_back(n);
            }
        }
    }
    outside
}

fn passable(grid: &Grid, index: usize) -> bool {
    grid.terrain(grid.cells()[index]).is_passable()
}

/// The orthogonal neighbours of a cell on the map, by index.
fn neighbours(grid: &Grid, index: u32) -> impl Iterator<Item = u32> {
    let (w, h) = (grid.width(), grid.height());
    let (x, y) = (index % w, index / w);
    [
        (y > 0).then(|| index - w),
        (x > 0).then(|| index - 1),
        (x + 1 < w).then(|| index + 1),
        (y + 1 < h).then(|| index + w),
    ]
    .into_iter()
    .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pair_lies_in_the_largest_region() {
        // A small room on the left, a long corridor on the right.
        let grid = Grid::from_ascii(&["..#......", "..#.####.", "###......"]).unwrap();
        let (a, b) = farthest_apart(&grid).unwrap();
        for c in [a, b] {
            assert!(c.x >= 3, "{c} is in the small room");
        }
        // The corridor is a ring of 14 cells: its far ends are 7 steps apart, opposite corners.
        let steps = |p: Cell, q: Cell| p.x.abs_diff(q.x) + p.y.abs_diff(q.y);
        assert_eq!(steps(a, b), 7, "{a} and {b}");
    }

    #[test]
    fn the_pair_lies_inside_the_outer_walls_not_in_the_strip_along_the_edge() {
        // A depot: a free strip along the map's edge (the largest region), the outer wall,
        // and a hall inside; then a closet too small to be chosen over the strip.
        let depot = [
            "............",
            ".##########.",
            ".#........#.",
            ".#..#.....#.",
            ".#........#.",
            ".##########.",
            "............",
        ];
        let grid = Grid::from_ascii(&depot).unwrap();
        assert_eq!(marker_region(&grid), Some(MarkerRegion::Enclosed));
        let (a, b) = farthest_apart(&grid).unwrap();
        for c in [a, b] {
            assert!(
                (2..10).contains(&c.x) && (2..5).contains(&c.y),
                "{c} is outside"
            );
        }
        let closet = [
            "............",
            ".####.......",
            ".#..#.......",
            ".####.......",
            "............",
        ];
        let grid = Grid::from_ascii(&closet).unwrap();
        assert_eq!(marker_region(&grid), Some(MarkerRegion::Largest));
        let (a, _) = farthest_apart(&grid).unwrap();
        assert!(!(2..4).contains(&a.x) || a.y != 2, "{a} is in the closet");
    }

    #[test]
    fn a_map_without_passable_cells_has_no_pair() {
        let grid = Grid::from_ascii(&["##", "##"]).unwrap();
        assert_eq!(farthest_apart(&grid), None);
        let mut map = Map::new("walls", grid);
        assert!(!map.place_default_markers());
        assert_eq!((map.start, map.goal), (None, None));
    }

    #[test]
    fn a_lone_start_gets_the_farthest_goal() {
        let grid = Grid::from_ascii(&["....#", "###.#", "....."]).unwrap();
        let mut map = Map::new("snake", grid);
        map.start = Some(Cell::new(0, 0));
        assert!(map.place_default_markers());
        assert_eq!(map.goal, Some(Cell::new(0, 2)));
        assert!(!map.place_default_markers(), "both markers are there now");
    }
}
