//! Walls thinner than a cell, kept when an occupancy image is downscaled by the mean
//! ([`Reduce::MeanWalls`](super::image_import::Reduce::MeanWalls)).
//!
//! The mean of a block of pixels drops dust and speckle, but also a wall line thinner than
//! the block, and rooms on either side of it would run into each other. So for every two
//! free cells side by side, the free pixels of the one are flooded (through pixel sides)
//! within the two cells' blocks: when the flood from the larger free part of the one cell's
//! block does not reach the larger free part of the other's, a wall line crosses between
//! them, and the cell with more pixels that are not free (the one the line crosses) becomes
//! a wall. A wall line thinner than a cell thus stays a line of wall cells, connected where
//! the image's is, while dust (which never cuts a block's free pixels apart) adds no wall.
//! Memory: one byte a pixel, counted in the import's limit, and stamps for two blocks;
//! time: a few passes over the pixels.

/// The bytes a pixel of the image needs here: a free flag.
pub(crate) const BYTES_PER_PIXEL: u64 = 1;

/// The occupancy code of a free cell and of a wall (as [`image_import`](super::image_import)
/// codes them).
const FREE: u8 = 0;
const WALL: u8 = 1;

/// A rectangle of pixels: columns `x0..x1`, rows `y0..y1`.
#[derive(Clone, Copy)]
struct Window {
    x0: usize,
    x1: usize,
    y0: usize,
    y1: usize,
}

/// Flood fills over the free pixels of the image, within a window.
struct Flood<'a> {
    free: &'a [bool],
    width: usize,
    /// The round in which each pixel of the last window was last reached, row by row
    /// within the window.
    stamp: Vec<u32>,
    round: u32,
    stack: Vec<usize>,
    /// The window of the last fill.
    window: Window,
}

impl Flood<'_> {
    /// Where a pixel of the image lies in the stamps of the current window.
    fn local(&self, pixel: usize) -> usize {
        let w = self.window;
        (pixel / self.width - w.y0) * (w.x1 - w.x0) + (pixel % self.width - w.x0)
    }

    /// Floods from `seed` through free pixels inside `window`; returns how many it reached.
    /// [`Flood::reached`] tells afterwards whether a pixel was.
    fn fill(&mut self, seed: usize, window: Window) -> usize {
        self.window = window;
        let area = (window.x1 - window.x0) * (window.y1 - window.y0);
        if self.stamp.len() < area {
            self.stamp.resize(area, 0);
        }
        self.round += 1;
        let round = self.round;
        let width = self.width;
        let at = self.local(seed);
        self.stamp[at] = round;
        self.stack.clear();
        self.stack.push(seed);
        let mut count = 0;
        while let Some(i) = self.stack.pop() {
            count += 1;
            let (x, y) = (i % width, i / width);
            let mut next = [None; 4];
            if x > window.x0 {
                next[0] = Some(i - 1);
            }
            if x + 1 < window.x1 {
                next[1] = Some(i + 1);
            }
            if y > window.y0 {
                next[2] = Some(i - width);
            }
            if y + 1 < window.y1 {
                next[3] = Some(i + width);
            }
            for j in next.into_iter().flatten() {
                let at = self.local(j);
                if self.free[j] && self.stamp[at] != round {
                    self.stamp[at] = round;
                    self.stack.push(j);
                }
            }
        }
        count
    }

    /// Whether the last fill reached a pixel of its window.
    fn reached(&self, pixel: usize) -> bool {
        self.stamp[self.local(pixel)] == self.round
    }

    /// A pixel of the largest 4-connected part of the free pixels of a block (the first
    /// found of equals), how many pixels of the block are not free, and whether its free
    /// pixels are all one part.
    fn largest_part(&mut self, block: Window) -> Part {
        let width = self.width;
        let first = block.y0 * width + block.x0;
        let mut blocked = 0;
        for y in block.y0..block.y1 {
            blocked += self.free[y * width + block.x0..y * width + block.x1]
                .iter()
                .filter(|&&f| !f)
                .count();
        }
        if blocked == 0 {
            return Part {
                seed: Some(first),
                blocked,
                whole: true,
            };
        }
        // Every stamp is at most `before`; pixels a fill of this block reaches get more.
        let before = self.round;
        self.window = block;
        let area = (block.x1 - block.x0) * (block.y1 - block.y0);
        if self.stamp.len() < area {
            self.stamp.resize(area, 0);
        }
        let mut best: Option<(usize, usize)> = None;
        let mut count = 0;
        for y in block.y0..block.y1 {
            for x in block.x0..block.x1 {
                let i = y * width + x;
                if !self.free[i] || self.stamp[self.local(i)] > before {
                    continue;
                }
                let size = self.fill(i, block);
                count += 1;
                if best.is_none_or(|(_, s)| size > s) {
                    best = Some((i, size));
                }
            }
        }
        Part {
            seed: best.map(|(i, _)| i),
            blocked,
            whole: count == 1,
        }
    }

    /// Whether a free pixel of block `a` lies beside a free one of block `b`, across the
    /// side they share (`b` right of or below `a`).
    fn touch(&self, a: Window, b: Window) -> bool {
        let free = |x: usize, y: usize| self.free[y * self.width + x];
        if b.x0 == a.x1 {
            (a.y0..a.y1).any(|y| free(a.x1 - 1, y) && free(b.x0, y))
        } else {
            (a.x0..a.x1).any(|x| free(x, a.y1 - 1) && free(x, b.y0))
        }
    }
}

/// The free pixels of a cell's block.
#[derive(Clone, Copy)]
struct Part {
    /// A pixel of the largest 4-connected part, if any pixel is free.
    seed: Option<usize>,
    /// How many pixels are not free.
    blocked: usize,
    /// Whether the free pixels are one part.
    whole: bool,
}

/// Turns free cells into walls where a wall line thinner than a cell runs between two free
/// cells side by side (see the module's documentation). `free` holds a flag for each pixel,
/// row by row; `columns` and `rows` are the blocks of pixels of each cell column and row;
/// `codes` the cells' occupancy codes, row by row. Returns how many cells became walls.
pub(crate) fn keep_thin_walls(
    free: &[bool],
    width: usize,
    columns: &[(usize, usize)],
    rows: &[(usize, usize)],
    codes: &mut [u8],
) -> usize {
    let single = |spans: &[(usize, usize)]| spans.iter().all(|s| s.1 - s.0 <= 1);
    if single(columns) && single(rows) {
        return 0;
    }
    let mut flood = Flood {
        free,
        width,
        stamp: Vec::new(),
        round: 0,
        stack: Vec::new(),
        window: Window {
            x0: 0,
            x1: 0,
            y0: 0,
            y1: 0,
        },
    };
    let cells_w = columns.len();
    let block = |cell: usize| {
        let (x0, x1) = columns[cell % cells_w];
        let (y0, y1) = rows[cell / cells_w];
        Window { x0, x1, y0, y1 }
    };
    // Each free cell's seed pixel and count of pixels that are not free.
    let parts: Vec<Part> = (0..codes.len())
        .map(|cell| match codes[cell] {
            FREE => flood.largest_part(block(cell)),
            _ => Part {
                seed: None,
                blocked: 0,
                whole: false,
            },
        })
        .collect();
    let mut walled = 0;
    for a in 0..codes.len() {
        // The cell to the right and the one below.
        let right = (a % cells_w + 1 < cells_w).then_some(a + 1);
        let below = (a + cells_w < codes.len()).then_some(a + cells_w);
        for b in [right, below].into_iter().flatten() {
            if codes[a] != FREE || codes[b] != FREE {
                continue;
            }
            let (pa, pb) = (parts[a], parts[b]);
            let (Some(seed_a), Some(seed_b)) = (pa.seed, pb.seed) else {
                continue;
            };
            let (wa, wb) = (block(a), block(b));
            // Two blocks, each free in one part, that touch across their side are joined.
            if pa.whole && pb.whole && flood.touch(wa, wb) {
                continue;
            }
            let window = Window {
                x0: wa.x0.min(wb.x0),
                x1: wa.x1.max(wb.x1),
                y0: wa.y0.min(wb.y0),
                y1: wa.y1.max(wb.y1),
            };
            flood.fill(seed_a, window);
            if !flood.reached(seed_b) {
                codes[if pa.blocked > pb.blocked { a } else { b }] = WALL;
                walled += 1;
            }
        }
    }
    walled
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(pixels: usize, size: usize) -> Vec<(usize, usize)> {
        (0..pixels / size)
            .map(|c| (c * size, (c + 1) * size))
            .collect()
    }

    #[test]
    fn a_line_between_cells_stays_a_line_of_walls() {
        // 16 × 8 pixels, 4 × 4 a cell: a one-pixel wall at x = 7, the last column of the
        // second cell column, which the mean calls free.
        let (w, h) = (16, 8);
        let free: Vec<bool> = (0..w * h).map(|i| i % w != 7).collect();
        let mut codes = vec![FREE; 8];
        let walled = keep_thin_walls(&free, w, &spans(w, 4), &spans(h, 4), &mut codes);
        assert_eq!(walled, 2);
        assert_eq!(codes, [0, 1, 0, 0, 0, 1, 0, 0]);
    }

    #[test]
    fn a_line_through_the_middle_of_cells_walls_the_cells_it_crosses() {
        // A one-pixel wall at y = 5, inside the second cell row; free pixels above and below
        // it in those cells: the larger part (below) is cut off from the row above.
        let (w, h) = (8, 12);
        let free: Vec<bool> = (0..w * h).map(|i| i / w != 5).collect();
        let mut codes = vec![FREE; 6];
        keep_thin_walls(&free, w, &spans(w, 4), &spans(h, 4), &mut codes);
        assert_eq!(codes, [0, 0, 1, 1, 0, 0]);
    }

    #[test]
    fn dust_adds_no_wall() {
        let (w, h) = (16, 8);
        // Single blocked pixels, and a free pixel shut in by some of them.
        let blocked = [17, 40, 41, 42, 56, 58, 72, 73, 74];
        let free: Vec<bool> = (0..w * h).map(|i| !blocked.contains(&i)).collect();
        let mut codes = vec![FREE; 8];
        assert_eq!(
            keep_thin_walls(&free, w, &spans(w, 4), &spans(h, 4), &mut codes),
            0
        );
        assert_eq!(codes, [FREE; 8]);
    }
}
