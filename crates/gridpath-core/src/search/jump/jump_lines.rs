//! Passability as bit words, for jump point search's straight scans: each row (and,
//! transposed, each column) in both reading directions, so that a run finds its next forced
//! neighbour, wall or goal 63 cells at a time with a few shifts and one `trailing_zeros`.
//!
//! Built from a map's passability alone, once per [`SearchGraph`](crate::search::SearchGraph), which
//! keeps it.

/// Passability as bit words, one row of words per line of cells, read in one direction.
///
/// Line `v` (with one blocked line of padding on either side) holds bit `u` for cell `u` along
/// the line. Cells beyond the line's end read as blocked.
#[derive(Clone, Debug, PartialEq)]
struct BitLines {
    words_per_line: usize,
    words: Vec<u64>,
}

impl BitLines {
    /// Sets the bit of cell `u` of line `v`.
    fn set(&mut self, u: usize, v: usize, open: bool) {
        let word = &mut self.words[(v + 1) * self.words_per_line + u / 64];
        if open {
            *word |= 1 << (u % 64);
        } else {
            *word &= !(1 << (u % 64));
        }
    }

    /// Builds the lines from a passability test on (u, v) coordinates.
    fn new(len_u: usize, len_v: usize, passable: impl Fn(usize, usize) -> bool) -> Self {
        let words_per_line = len_u / 64 + 2;
        let mut words = vec![0u64; words_per_line * (len_v + 2)];
        for v in 0..len_v {
            let line = &mut words[(v + 1) * words_per_line..(v + 2) * words_per_line];
            for u in 0..len_u {
                if passable(u, v) {
                    line[u / 64] |= 1 << (u % 64);
                }
            }
        }
        Self {
            words_per_line,
            words,
        }
    }

    /// 64 cells of line `v` (−1 and `len_v` are the blocked padding) from cell `s` on: bit `i`
    /// is cell `s + i`.
    #[inline(always)]
    fn window(&self, v: isize, s: usize) -> u64 {
        let base = (v + 1) as usize * self.words_per_line + s / 64;
        let offset = s % 64;
        let low = self.words[base] >> offset;
        if offset == 0 {
            low
        } else {
            low | (self.words[base + 1] << (64 - offset))
        }
    }

    /// Scans along line `v` from cell `u` (exclusive) towards larger `u`, returning the first
    /// cell that is a jump point: the target `target_u` (when given) or a cell with a forced
    /// neighbour on line `v − 1` or `v + 1`. `None` when a wall comes first.
    #[inline(always)]
    fn scan(&self, v: usize, u: usize, target_u: Option<usize>) -> Option<usize> {
        let v = v as isize;
        let mut s = u;
        loop {
            let up = self.window(v - 1, s);
            let mid = self.window(v, s);
            let down = self.window(v + 1, s);
            // A side cell free where the one before it is blocked: forced neighbour.
            let forced = (up & !(up << 1)) | (down & !(down << 1));
            let mut stops = (forced | !mid) & !1;
            if let Some(t) = target_u
                && t > s
                && t - s < 64
            {
                stops |= 1 << (t - s);
            }
            if stops != 0 {
                let i = stops.trailing_zeros() as usize;
                return (mid & (1 << i) != 0).then_some(s + i);
            }
            // The last cell of this window is the first of the next, so that bit 1 of the
            // next window can compare with the cell before it.
            s += 63;
        }
    }
}

/// The bit lines of one map in the four reading directions, built once per [`SearchGraph`].
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct JumpLines {
    width: usize,
    height: usize,
    /// Rows read west to east.
    east: BitLines,
    /// Rows read east to west.
    west: BitLines,
    /// Columns read north to south.
    south: BitLines,
    /// Columns read south to north.
    north: BitLines,
}

impl JumpLines {
    /// Builds the four bit-line sets of a `w` × `h` map from the passability of each cell
    /// index (row-major).
    pub fn new(w: usize, h: usize, passable: impl Fn(usize) -> bool) -> Self {
        let open = |x: usize, y: usize| passable(y * w + x);
        Self {
            width: w,
            height: h,
            east: BitLines::new(w, h, open),
            west: BitLines::new(w, h, |u, v| open(w - 1 - u, v)),
            south: BitLines::new(h, w, |u, v| open(v, u)),
            north: BitLines::new(h, w, |u, v| open(v, h - 1 - u)),
        }
    }

    /// Brings the cells `edited` (row-major indices) up to date after an edit: four bits
    /// each, whatever the size of the map.
    pub(crate) fn update(&mut self, passable: impl Fn(usize) -> bool, edited: &[usize]) {
        let (w, h) = (self.width, self.height);
        for &i in edited {
            let (x, y, open) = (i % w, i / w, passable(i));
            self.east.set(x, y, open);
            self.west.set(w - 1 - x, y, open);
            self.south.set(y, x, open);
            self.north.set(h - 1 - y, x, open);
        }
    }

    /// The next jump point from (x, y) in straight direction `d` (0 east, 1 west, 2 south,
    /// 3 north), stopping at `goal`.
    #[inline(always)]
    pub(crate) fn straight(
        &self,
        x: usize,
        y: usize,
        d: usize,
        goal: (usize, usize),
    ) -> Option<(usize, usize)> {
        let (w, h) = (self.width, self.height);
        let (gx, gy) = goal;
        match d {
            0 => self
                .east
                .scan(y, x, (gy == y).then_some(gx))
                .map(|u| (u, y)),
            1 => self
                .west
                .scan(y, w - 1 - x, (gy == y).then_some(w - 1 - gx))
                .map(|u| (w - 1 - u, y)),
            2 => self
                .south
                .scan(x, y, (gx == x).then_some(gy))
                .map(|u| (x, u)),
            _ => self
                .north
                .scan(x, h - 1 - y, (gx == x).then_some(h - 1 - gy))
                .map(|u| (x, h - 1 - u)),
        }
    }
}
