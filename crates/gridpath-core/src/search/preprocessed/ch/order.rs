//! The contraction order by nested dissection, with separators that bend through walls.
//!
//! A region of passable cells (at first all of them) is cut in two by a *separator*: a path of
//! cells from one side of its bounding box to the opposite one, that moves down a row or
//! sideways within one, never back up (or the same with rows and columns swapped). The
//! region's cells on either side are ordered first, each side the same way, and the
//! separator's cells last. The path takes the cells it enters, an interval of each row, and
//! two rows' intervals share a column where the path moves down, so no step of the grid,
//! straight or diagonal, joins the two sides. It is the path with the fewest cells of the
//! region (a shortest path by dynamic programming, a row at a time): walls and the cells of
//! other regions, already cut off, cost nothing, so it bends through lakes, rooms' walls and
//! the gaps between buildings where a straight line would cross open ground. It keeps within
//! the columns that hold the middle half of the region's cells, so the two sides are about
//! even. Both ways are tried, down the rows and along the columns, and the one with the
//! fewer separator cells for each cell of its smaller side is kept. A region of at most four
//! cells is taken row by row.

use crate::search::graph::SearchGraph;

/// Regions of at most this many cells are not cut further: their cells come row by row.
const LEAF_CELLS: usize = 4;

/// The separator keeps within the columns (or rows) where the region's cells before it number
/// between `1/2 − 1/WINDOW` and `1/2 + 1/WINDOW` of its cells: the middle half of them.
/// (The middle quarter, `WINDOW` 8, made more edges and relaxed more ranks on every map
/// tried; the middle two thirds, 3, about as many at 512² and more on den520d.)
const WINDOW: usize = 4;

/// How the separator's path entered a cell: from the row before, or from the cell before or
/// after it in its row.
const ABOVE: u8 = 0;
const LEFT: u8 = 1;
const RIGHT: u8 = 2;

/// What is left to do: a region to cut, or a separator's cells to append.
enum Task {
    Cut(Vec<u32>),
    Append(Vec<u32>),
}

/// The passable cells of the graph in nested dissection order.
pub(super) fn nested_dissection(graph: &SearchGraph) -> Vec<u32> {
    let cells: Vec<u32> = (0..graph.len() as u32)
        .filter(|&c| graph.is_passable(c as usize))
        .collect();
    let mut order = Vec::with_capacity(cells.len());
    // The region each cell belongs to while it is being cut: its stamp.
    let mut region = vec![0u32; graph.len()];
    let mut stamp = 0u32;
    let mut tasks = vec![Task::Cut(cells)];
    while let Some(task) = tasks.pop() {
        match task {
            Task::Append(cells) => order.extend(cells),
            Task::Cut(cells) if cells.len() <= LEAF_CELLS => order.extend(cells),
            Task::Cut(cells) => {
                stamp += 1;
                for &c in &cells {
                    region[c as usize] = stamp;
                }
                let n = cells.len();
                match cut(graph.width() as usize, &cells, |c| region[c] == stamp) {
                    // Each side smaller than the region: cut them in turn, then the separator.
                    Some((a, b, s)) if a.len() < n && b.len() < n => {
                        tasks.push(Task::Append(s));
                        tasks.push(Task::Cut(b));
                        tasks.push(Task::Cut(a));
                    }
                    // No cut that makes progress (never met on real maps): row by row.
                    _ => order.extend(cells),
                }
            }
        }
    }
    order
}

/// Cuts the region `cells` (sorted, of a map `width` cells wide; `inside` tells its cells) into
/// its two sides and the separator between them, each sorted.
fn cut(width: usize, cells: &[u32], inside: impl Fn(usize) -> bool) -> Option<Cut> {
    // Across the columns and across the rows, the one with the fewest cells in its
    // separator for each cell of its smaller side; across the box's longer side among equals.
    let bounds = cells_box(width, cells)?;
    let (x0, y0, x1, y1) = bounds;
    let taller = y1 - y0 > x1 - x0;
    let score = |(a, b, s): &Cut| s.len() as f64 / (a.len().min(b.len()) + 1) as f64;
    let first = cut_across(width, cells, &inside, bounds, taller);
    let second = cut_across(width, cells, &inside, bounds, !taller);
    match (first, second) {
        (Some(first), Some(second)) if score(&second) < score(&first) => Some(second),
        (first, second) => first.or(second),
    }
}

/// The two sides of a cut and its separator.
type Cut = (Vec<u32>, Vec<u32>, Vec<u32>);

/// The bounding box `x0..x1` × `y0..y1` of `cells`, none for none.
fn cells_box(width: usize, cells: &[u32]) -> Option<(usize, usize, usize, usize)> {
    if cells.is_empty() {
        return None;
    }
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for &c in cells {
        let (x, y) = (c as usize % width, c as usize / width);
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x + 1), y1.max(y + 1));
    }
    Some((x0, y0, x1, y1))
}

/// A cut of the region `cells`, whose bounding box is `(x0, y0, x1, y1)`, by a path down the
/// rows, a column in each (or along the columns, a row in each, when `transposed`).
fn cut_across(
    width: usize,
    cells: &[u32],
    inside: &impl Fn(usize) -> bool,
    (x0, y0, x1, y1): (usize, usize, usize, usize),
    transposed: bool,
) -> Option<Cut> {
    // `along` rows (or columns), a place `across` in each.
    let (along, across) = if transposed {
        (x1 - x0, y1 - y0)
    } else {
        (y1 - y0, x1 - x0)
    };
    let at = |row: usize, place: usize| {
        let (x, y) = if transposed {
            (x0 + row, y0 + place)
        } else {
            (x0 + place, y0 + row)
        };
        y * width + x
    };
    // A cell's row and place, the other way round.
    let row_place = |c: u32| {
        let (x, y) = (c as usize % width - x0, c as usize / width - y0);
        if transposed { (x, y) } else { (y, x) }
    };
    let weight = |row: usize, place: usize| u32::from(inside(at(row, place)));
    // The window: where the cells before the place number about half of the region's.
    let mut before = vec![0usize; across + 1];
    for &c in cells {
        before[row_place(c).1 + 1] += 1;
    }
    for p in 1..=across {
        before[p] += before[p - 1];
    }
    let n = cells.len();
    let (low, high) = (n / 2 - n / WINDOW, n / 2 + n / WINDOW);
    let lo = (0..across).find(|&p| before[p] >= low)?;
    let hi = (lo..across)
        .take_while(|&p| before[p + 1] <= high)
        .last()
        .unwrap_or(lo);
    let span = hi - lo + 1;
    // The path moves down a row or sideways within one, never up, and takes every cell it
    // enters: the cells it takes in a row are an interval, and the intervals of two rows in
    // a row share a place, so that no step of the grid joins the two sides. `cost` holds
    // the fewest cells of the region on a path from the first row to each place of the
    // present row, and `from` how each cell was entered.
    let mut cost = vec![0u32; span];
    let mut from = vec![ABOVE; along * span];
    for row in 0..along {
        let here = &mut from[row * span..(row + 1) * span];
        for (i, c) in cost.iter_mut().enumerate() {
            *c += weight(row, lo + i);
        }
        for i in 1..span {
            let through = cost[i - 1] + weight(row, lo + i);
            if through < cost[i] {
                (cost[i], here[i]) = (through, LEFT);
            }
        }
        for i in (0..span - 1).rev() {
            let through = cost[i + 1] + weight(row, lo + i);
            if through < cost[i] {
                (cost[i], here[i]) = (through, RIGHT);
            }
        }
    }
    // The cheapest end, the nearest the window's middle among equals; then back up the path,
    // each row's interval [first, last].
    let middle = span / 2;
    let mut i = (0..span)
        .min_by_key(|&i| (cost[i], i.abs_diff(middle)))
        .unwrap_or(0);
    let mut taken = vec![(usize::MAX, 0usize); along];
    let mut row = along - 1;
    loop {
        let (first, last) = &mut taken[row];
        (*first, *last) = ((*first).min(lo + i), (*last).max(lo + i));
        match from[row * span + i] {
            LEFT => i -= 1,
            RIGHT => i += 1,
            _ if row == 0 => break,
            _ => row -= 1,
        }
    }
    let (mut a, mut b, mut s) = (Vec::new(), Vec::new(), Vec::new());
    for &c in cells {
        let (row, place) = row_place(c);
        let (first, last) = taken[row];
        if place < first {
            a.push(c);
        } else if place > last {
            b.push(c);
        } else {
            s.push(c);
        }
    }
    Some((a, b, s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::search::request::Diagonal;

    /// A few bits at a time from a fixed seed.
    struct Bits(u64);

    impl Bits {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 33) % n
        }
    }

    /// The cells of a `width` × `height` box with walls at random, a share `walls` in 100.
    fn random_region(bits: &mut Bits, width: usize, height: usize, walls: u64) -> Vec<u32> {
        (0..width * height)
            .filter(|_| bits.below(100) >= walls)
            .map(|c| c as u32)
            .collect()
    }

    /// Whether a step of the grid, straight or diagonal, joins a cell of `a` to one of `b`.
    fn joined(width: usize, a: &[u32], b: &[u32]) -> bool {
        let b: std::collections::HashSet<u32> = b.iter().copied().collect();
        a.iter().any(|&c| {
            let (x, y) = ((c as usize % width) as i64, (c as usize / width) as i64);
            (-1..=1).any(|dy| {
                (-1..=1).any(|dx| {
                    let (nx, ny) = (x + dx, y + dy);
                    nx >= 0
                        && ny >= 0
                        && (nx as usize) < width
                        && b.contains(&((ny as usize * width + nx as usize) as u32))
                })
            })
        })
    }

    #[test]
    fn no_step_joins_the_two_sides_of_a_cut_and_both_are_smaller() {
        let mut bits = Bits(7);
        for round in 0..300 {
            let (width, height) = (1 + bits.below(40) as usize, 1 + bits.below(40) as usize);
            let walls = [0, 10, 30, 60][round % 4];
            let cells = random_region(&mut bits, width, height, walls);
            if cells.len() <= LEAF_CELLS {
                continue;
            }
            let set: std::collections::HashSet<u32> = cells.iter().copied().collect();
            let (a, b, s) = cut(width, &cells, |c| set.contains(&(c as u32))).expect("a cut");
            assert!(
                !joined(width, &a, &b),
                "round {round}: a step joins the sides"
            );
            assert!(
                a.len() < cells.len() && b.len() < cells.len(),
                "round {round}"
            );
            let mut all: Vec<u32> = a.iter().chain(&b).chain(&s).copied().collect();
            all.sort_unstable();
            assert_eq!(
                all, cells,
                "round {round}: every cell on one side or the separator"
            );
        }
    }

    #[test]
    fn the_separator_bends_through_a_slanted_wall_to_its_one_gap() {
        // A wall two cells thick, slanting one column every two rows, open in one row.
        let (width, height) = (40, 20);
        let wall = |x: usize, y: usize| {
            let c = 15 + y / 2;
            (x == c || x == c + 1) && y != 10
        };
        let cells: Vec<u32> = (0..width * height)
            .filter(|&c| !wall(c % width, c / width))
            .map(|c| c as u32)
            .collect();
        let set: std::collections::HashSet<u32> = cells.iter().copied().collect();
        let (a, b, s) = cut(width, &cells, |c| set.contains(&(c as u32))).expect("a cut");
        assert_eq!(s.len(), 1, "the gap alone: {s:?}");
        assert!(!joined(width, &a, &b));
        // A straight column crosses the wall in four rows at most: sixteen open cells.
        let fewest = (0..width)
            .map(|x| (0..height).filter(|&y| !wall(x, y)).count())
            .min();
        assert_eq!(fewest, Some(16));
    }

    #[test]
    fn every_passable_cell_comes_once() {
        let mut bits = Bits(11);
        for walls in [0, 20, 45] {
            let rows: Vec<String> = (0..70)
                .map(|_| {
                    (0..90)
                        .map(|_| if bits.below(100) < walls { '#' } else { '.' })
                        .collect()
                })
                .collect();
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let grid = Grid::from_ascii(&rows).expect("a valid map");
            let graph = SearchGraph::new(&grid, Diagonal::NoCut);
            let mut order = nested_dissection(&graph);
            assert_eq!(order.len(), graph.passable_count());
            order.sort_unstable();
            order.dedup();
            assert_eq!(order.len(), graph.passable_count(), "no cell twice");
            assert!(order.iter().all(|&c| graph.is_passable(c as usize)));
        }
    }
}
