//! Renders a map as a scanned floorplan: 4 × 4 pixels per cell, walls dark with anti-aliased
//! edges, floor light with scanner noise and dust specks, unscanned areas hatched mid-grey.
//!
//! `cargo run --example floorplan_image -- tests/data/floorplan.json assets/floorplan.png`
//! made the floorplan of the import tests. The noise is seeded, so the output is the same on
//! every run.

use std::path::PathBuf;

use anyhow::{Context as _, bail};
use gridpath::format::load_map;
use gridpath::grid::{Cell, Grid};
use image::{GrayImage, Luma};

/// Pixels per cell along each side.
const BLOCK: u32 = 4;

/// A small seeded generator (xorshift64*), so the image is reproducible.
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A value in `centre ± spread`.
    fn around(&mut self, centre: i32, spread: i32) -> u8 {
        let offset = (self.next() % (2 * spread as u64 + 1)) as i32 - spread;
        (centre + offset).clamp(0, 255) as u8
    }

    fn chance(&mut self, per_thousand: u64) -> bool {
        self.next() % 1000 < per_thousand
    }
}

fn symbol(grid: &Grid, x: i64, y: i64) -> Option<char> {
    if !grid.contains(x, y) {
        return None;
    }
    let cell = Cell::new(x as u32, y as u32);
    grid.get(cell).map(|id| grid.terrain(id).symbol)
}

fn render(grid: &Grid) -> GrayImage {
    let mut noise = Noise(0x9e37_79b9_7f4a_7c15);
    GrayImage::from_fn(grid.width() * BLOCK, grid.height() * BLOCK, |px, py| {
        let (x, y) = (i64::from(px / BLOCK), i64::from(py / BLOCK));
        let (sx, sy) = (px % BLOCK, py % BLOCK);
        let here = symbol(grid, x, y);
        // The neighbour across the block edge this pixel lies on, if any.
        let across: Vec<Option<char>> = [
            (sx == 0, -1, 0),
            (sx == BLOCK - 1, 1, 0),
            (sy == 0, 0, -1),
            (sy == BLOCK - 1, 0, 1),
        ]
        .into_iter()
        .filter(|(on_edge, _, _)| *on_edge)
        .map(|(_, dx, dy)| symbol(grid, x + dx, y + dy))
        .collect();
        let value = match here {
            Some('#') if across.contains(&Some('.')) => noise.around(90, 6),
            Some('#') => noise.around(40, 8),
            Some('?') if (px + py) % 6 == 0 => noise.around(105, 6),
            Some('?') => noise.around(128, 18),
            _ if across.contains(&Some('#')) => noise.around(190, 6),
            _ if noise.chance(15) => noise.around(100, 40),
            _ => noise.around(240, 12),
        };
        Luma([value])
    })
}

fn main() -> anyhow::Result<()> {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let [map_path, image_path] = &args[..] else {
        bail!("usage: floorplan_image MAP.json OUT.png");
    };
    let map = load_map(map_path)?;
    render(&map.grid)
        .save(image_path)
        .with_context(|| format!("cannot write {}", image_path.display()))?;
    println!(
        "{}: {} × {} pixels",
        image_path.display(),
        map.grid.width() * BLOCK,
        map.grid.height() * BLOCK
    );
    Ok(())
}
