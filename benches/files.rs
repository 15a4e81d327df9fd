//! Files at scale: load and save of a 4096 × 4096 JSON map, and the import of a 4096 × 4096
//! PNG floorplan. Target: each under one second in release.
//!
//! `cargo bench --bench files`

use std::hint::black_box;
use std::io::Cursor;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use gridpath::format::image_import::{ImageImport, Reduce, Scale};
use gridpath::format::{json, load_map, save};
use gridpath::grid::{Grid, Map, Terrain, TerrainId};
use image::{GrayImage, ImageFormat, Luma};

const SIDE: u32 = 4096;

/// A seeded pseudo-random value.
fn noise(i: u64) -> u64 {
    let mut x = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x2545_f491_4f6c_dd1d;
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^ (x >> 33)
}

/// A map of rooms: walls every 64 cells with doors, terrain patches inside.
fn big_map() -> Map {
    let catalog = Terrain::default_catalog();
    let cells: Vec<TerrainId> = (0..u64::from(SIDE) * u64::from(SIDE))
        .map(|i| {
            let (x, y) = (i % u64::from(SIDE), i / u64::from(SIDE));
            let wall = (x % 64 == 0 && y % 64 > 4) || (y % 64 == 0 && x % 64 > 4);
            if wall {
                3
            } else {
                (noise(x / 8 + y / 8 * 1000) % 3) as TerrainId
            }
        })
        .collect();
    let grid = Grid::from_cells(SIDE, SIDE, catalog, cells).expect("a valid grid");
    Map::new("bench", grid)
}

/// A grey floorplan: dark walls on a light, noisy floor.
fn big_png() -> Vec<u8> {
    let image = GrayImage::from_fn(SIDE, SIDE, |x, y| {
        let wall = (x % 64 < 2 && y % 64 > 6) || (y % 64 < 2 && x % 64 > 6);
        let jitter = (noise(u64::from(y) * 4096 + u64::from(x)) % 24) as u8;
        Luma([if wall { 30 + jitter } else { 220 + jitter }])
    });
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, ImageFormat::Png).expect("encodes");
    out.into_inner()
}

fn files(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("big.json");
    let map = big_map();
    save::save_map(&map, &path).expect("saves");
    let png = big_png();

    let mut group = c.benchmark_group("files 4096x4096");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("save JSON (atomic, with backup)", |b| {
        b.iter(|| save::save_map(black_box(&map), &path).expect("saves"));
    });
    group.bench_function("load JSON", |b| {
        b.iter(|| load_map(black_box(&path)).expect("loads"));
    });
    group.bench_function("encode JSON text", |b| {
        b.iter(|| json::to_string(black_box(&map)));
    });
    group.bench_function("import PNG", |b| {
        b.iter(|| {
            ImageImport::default()
                .import(black_box(&png))
                .expect("imports")
        });
    });
    for reduce in [Reduce::MeanWalls, Reduce::Mean, Reduce::Max] {
        let import = ImageImport {
            scale: Scale::CellsPerPixel(0.125),
            reduce,
            ..ImageImport::default()
        };
        group.bench_function(
            format!("import PNG at 1/8, reduce {}", reduce.name()),
            |b| {
                b.iter(|| import.import(black_box(&png)).expect("imports"));
            },
        );
    }
    group.finish();
    eprintln!(
        "JSON file {} bytes, PNG {} bytes",
        std::fs::metadata(&path).map_or(0, |m| m.len()),
        png.len()
    );
}

criterion_group!(benches, files);
criterion_main!(benches);
