//! Generated maps of weighted terrain, for the HPA* tests and benchmark: patches of grass,
//! forest and swamp from value noise, lakes, scattered walls and fences, and a few roads
//! drawn across the map that bridge whatever lies in their way.
//!
//! Both `tests/hpa.rs` and `benches/hpa.rs` include this file by path, so that the test checks
//! on small maps what the benchmark measures on large ones.

#![allow(dead_code)] // Each includer uses some of the helpers.

use gridpath::grid::{Cell, Grid, Rgb, Terrain, TerrainId};

/// Grass, cost 1.
pub const GRASS: TerrainId = 0;
/// Road, cost 0.5.
pub const ROAD: TerrainId = 1;
/// Swamp, cost 3.
pub const SWAMP: TerrainId = 2;
/// Wall, impassable.
pub const WALL: TerrainId = 3;
/// Forest, cost 2.
pub const FOREST: TerrainId = 4;

/// The default catalog (grass 1, road 0.5, swamp 3, wall) with forest (2) added.
pub fn catalog() -> Vec<Terrain> {
    let mut terrains = Terrain::default_catalog();
    terrains.push(Terrain::passable(
        "Forest",
        'f',
        Rgb([0x2e, 0x7d, 0x32]),
        2.0,
    ));
    terrains
}

/// A small deterministic xorshift generator.
pub struct XorShift(pub u64);

impl XorShift {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u32) -> u32 {
        (self.next() % u64::from(n)) as u32
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Smooth value noise in `[0, 1]` over a `w` × `h` map: random values on lattices of 24 and 9
/// cells, interpolated and mixed, so that patches are some ten to forty cells across.
fn value_noise(w: u32, h: u32, rng: &mut XorShift) -> Vec<f64> {
    let mut out = vec![0.0; (w * h) as usize];
    for (spacing, weight) in [(24u32, 0.7), (9, 0.3)] {
        let (lw, lh) = (w / spacing + 2, h / spacing + 2);
        let lattice: Vec<f64> = (0..lw * lh).map(|_| rng.unit()).collect();
        let at = |x: u32, y: u32| lattice[(y * lw + x) as usize];
        let smooth = |t: f64| t * t * (3.0 - 2.0 * t);
        for y in 0..h {
            for x in 0..w {
                let (gx, gy) = (x / spacing, y / spacing);
                let tx = smooth(f64::from(x % spacing) / f64::from(spacing));
                let ty = smooth(f64::from(y % spacing) / f64::from(spacing));
                let top = at(gx, gy) * (1.0 - tx) + at(gx + 1, gy) * tx;
                let bottom = at(gx, gy + 1) * (1.0 - tx) + at(gx + 1, gy + 1) * tx;
                out[(y * w + x) as usize] += weight * (top * (1.0 - ty) + bottom * ty);
            }
        }
    }
    out
}

/// A `side` × `side` map of weighted terrain (see the module documentation), the same for the
/// same seed.
pub fn weighted_map(side: u32, seed: u64) -> Grid {
    let mut rng = XorShift(seed.max(1));
    let (w, h) = (side, side);
    let wet = value_noise(w, h, &mut rng);
    let wood = value_noise(w, h, &mut rng);
    let mut cells: Vec<TerrainId> = wet
        .iter()
        .zip(&wood)
        .map(|(&wet, &wood)| {
            if wet > 0.78 {
                WALL
            } else if wet > 0.6 {
                SWAMP
            } else if wood > 0.56 {
                FOREST
            } else {
                GRASS
            }
        })
        .collect();
    let set = |cells: &mut Vec<TerrainId>, x: i64, y: i64, t: TerrainId| {
        if x >= 0 && y >= 0 && x < i64::from(w) && y < i64::from(h) {
            cells[(y * i64::from(w) + x) as usize] = t;
        }
    };
    // Scattered short walls, and a few long fences.
    let short = side * side / 300;
    let fences = side / 12;
    for i in 0..short + fences {
        let length = if i < short {
            2 + rng.below(9)
        } else {
            20 + rng.below(side / 4)
        };
        let (x, y) = (i64::from(rng.below(w)), i64::from(rng.below(h)));
        let across = rng.below(2) == 0;
        for s in 0..i64::from(length) {
            let (cx, cy) = if across { (x + s, y) } else { (x, y + s) };
            set(&mut cells, cx, cy, WALL);
        }
    }
    // Roads two cells wide, from one side of the map to the other through a few random
    // points, in straight steps (so that every diagonal rule can follow them).
    let roads = 2 + side / 128;
    for r in 0..roads {
        let mut points = Vec::new();
        let horizontal = r % 2 == 0;
        let turns = 3 + rng.below(3);
        for t in 0..=turns + 1 {
            let along = i64::from(side) * i64::from(t) / i64::from(turns + 1);
            let across = i64::from(rng.below(side));
            points.push(if horizontal {
                (along.min(i64::from(side) - 1), across)
            } else {
                (across, along.min(i64::from(side) - 1))
            });
        }
        for pair in points.windows(2) {
            let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
            let (dx, dy) = ((x1 - x0).abs(), (y1 - y0).abs());
            let steps = dx + dy;
            let (mut x, mut y) = (x0, y0);
            // Each straight step moves along the axis that lags behind the line most.
            for _ in 0..=steps {
                for (ox, oy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    set(&mut cells, x + ox, y + oy, ROAD);
                }
                let ahead_x = (x - x0).abs() * dy;
                let ahead_y = (y - y0).abs() * dx;
                if ahead_x <= ahead_y && x != x1 {
                    x += (x1 - x0).signum();
                } else if y != y1 {
                    y += (y1 - y0).signum();
                } else {
                    x += (x1 - x).signum();
                }
            }
        }
    }
    Grid::from_cells(w, h, catalog(), cells).expect("a valid map")
}

/// A `side` × `side` map whose every cell is drawn at random: grass half the time, then
/// forest, swamp, wall and road. No patches: every border run is full of cost changes.
pub fn speckled_map(side: u32, seed: u64) -> Grid {
    let mut rng = XorShift(seed.max(1));
    let cells: Vec<TerrainId> = (0..side * side)
        .map(|_| match rng.below(100) {
            0..50 => GRASS,
            50..70 => FOREST,
            70..82 => SWAMP,
            82..92 => WALL,
            _ => ROAD,
        })
        .collect();
    Grid::from_cells(side, side, catalog(), cells).expect("a valid map")
}

/// `count` pairs of passable cells at random, the same for the same seed.
pub fn query_pairs(grid: &Grid, seed: u64, count: usize) -> Vec<(Cell, Cell)> {
    let mut rng = XorShift(seed.max(1));
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let a = Cell::new(rng.below(grid.width()), rng.below(grid.height()));
        let b = Cell::new(rng.below(grid.width()), rng.below(grid.height()));
        if a != b && grid.is_passable(a) && grid.is_passable(b) {
            out.push((a, b));
        }
    }
    out
}
