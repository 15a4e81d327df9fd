//! Image and ROS map imports: the committed floorplan against its expected grid, and the ROS
//! `map_server` semantics on hand-made pixels at and around each threshold.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use gridpath::format::ImportError;
use gridpath::format::image_import::{ImageImport, Scale};
use gridpath::format::occupancy::{Interpretation, Occupancy, Unknown};
use gridpath::format::ros_map::load_ros_map;
use gridpath::format::{json, load_map};
use gridpath::grid::{GeoReference, Grid};
use image::{DynamicImage, GrayImage, ImageFormat, LumaA, Rgb, RgbImage, Rgba, RgbaImage};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn png(image: impl Into<DynamicImage>) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    image
        .into()
        .write_to(&mut out, ImageFormat::Png)
        .expect("encodes");
    out.into_inner()
}

/// The symbols of a grid's cells, row by row.
fn symbols(grid: &Grid) -> Vec<String> {
    grid.cells()
        .chunks(grid.width() as usize)
        .map(|row| row.iter().map(|&id| grid.terrain(id).symbol).collect())
        .collect()
}

fn import_row(values: &[u8], import: &ImageImport) -> String {
    let image = GrayImage::from_fn(values.len() as u32, 1, |x, _| {
        image::Luma([values[x as usize]])
    });
    let grid = import.import(&png(image)).expect("imports");
    symbols(&grid).concat()
}

#[test]
fn the_floorplan_imports_to_its_design() {
    let expected = load_map(&root().join("tests/data/floorplan.json")).expect("expected grid");
    let import = ImageImport {
        scale: Scale::CellsPerPixel(0.25),
        ..ImageImport::default()
    };
    let map = import
        .load(&root().join("assets/floorplan.png"))
        .expect("the floorplan imports");
    assert_eq!(
        symbols(&map.grid),
        symbols(&expected.grid),
        "cells differ from the design"
    );
    assert_eq!(map, expected);

    let by_width = ImageImport {
        scale: Scale::Width(48),
        ..ImageImport::default()
    };
    let map = by_width
        .load(&root().join("assets/floorplan.png"))
        .expect("imports");
    assert_eq!(map, expected);
}

#[test]
fn the_floorplan_at_one_cell_per_pixel_keeps_walls_and_rooms() {
    let map = ImageImport::default()
        .load(&root().join("assets/floorplan.png"))
        .expect("imports");
    let design = load_map(&root().join("tests/data/floorplan.json")).expect("design");
    assert_eq!((map.grid.width(), map.grid.height()), (192, 144));
    // Every pixel of a design wall is a wall or, on an anti-aliased edge, unknown; the
    // pixels of design floor are floor but for the anti-aliased fringe beside walls (unknown)
    // and a few dark dust specks.
    let (mut floor_pixels, mut floor_as_floor, mut floor_as_wall) = (0, 0, 0);
    for (i, &id) in map.grid.cells().iter().enumerate() {
        let (x, y) = (i % 192 / 4, i / 192 / 4);
        let designed = design.grid.terrain(design.grid.cells()[y * 48 + x]).symbol;
        let got = map.grid.terrain(id).symbol;
        match designed {
            '#' => assert!(got == '#' || got == '?', "pixel {i}: wall became {got:?}"),
            '.' => {
                floor_pixels += 1;
                floor_as_floor += usize::from(got == '.');
                floor_as_wall += usize::from(got == '#');
            }
            _ => assert_eq!(got, '?', "pixel {i}: an unscanned area"),
        }
    }
    assert!(
        floor_as_floor * 100 >= floor_pixels * 90,
        "{floor_as_floor} of {floor_pixels} floor pixels are floor"
    );
    assert!(
        floor_as_wall * 100 < floor_pixels,
        "{floor_as_wall} of {floor_pixels} floor pixels are walls"
    );
}

#[test]
fn a_ros_map_keeps_its_resolution_and_origin() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join("images")).expect("mkdir");
    std::fs::copy(
        root().join("assets/floorplan.png"),
        dir.path().join("images/floor.png"),
    )
    .expect("copy");
    let yaml = dir.path().join("site.yaml");
    std::fs::write(
        &yaml,
        "image: images/floor.png\nresolution: 0.05\norigin: [-4.8, -3.6, 0.0]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.25\n",
    )
    .expect("write");

    let map = load_ros_map(&yaml, |_| {}).expect("imports");
    assert_eq!(map.name, "site");
    assert_eq!((map.grid.width(), map.grid.height()), (192, 144));
    assert_eq!(
        map.metadata,
        Some(GeoReference {
            resolution: 0.05,
            origin: [-4.8, -3.6, 0.0]
        })
    );

    let coarse = load_ros_map(&yaml, |i| i.scale = Scale::CellsPerPixel(0.25)).expect("imports");
    let design = load_map(&root().join("tests/data/floorplan.json")).expect("design");
    assert_eq!(coarse.grid, design.grid);
    let geo = coarse.metadata.expect("metadata");
    assert!((geo.resolution - 0.2).abs() < 1e-12, "{}", geo.resolution);

    // The metadata survives the JSON format.
    let back = json::parse(&json::to_string(&coarse)).expect("parses");
    assert_eq!(back, coarse);

    std::fs::write(
        &yaml,
        "image: images/missing.png\nresolution: 0.05\norigin: [0, 0, 0]\n",
    )
    .expect("write");
    let e = load_ros_map(&yaml, |_| {}).unwrap_err();
    assert!(
        matches!(&e, ImportError::Io { path, .. } if path.ends_with("images/missing.png")),
        "{e}"
    );
}

#[test]
fn grey_pixels_at_and_around_the_default_thresholds() {
    let import = ImageImport::default();
    // occupancy = (255 − v) / 255: 89 → 0.651 (wall), 90 → 0.647, 191 → 0.251, 192 → 0.247 (free).
    assert_eq!(import_row(&[0, 88, 89, 90, 91], &import), "###??");
    assert_eq!(import_row(&[190, 191, 192, 193, 255], &import), "??...");
}

#[test]
fn a_pixel_exactly_at_a_threshold_is_unknown() {
    let import = ImageImport::occupancy(Occupancy {
        occupied_thresh: (255.0 - 100.0) / 255.0,
        free_thresh: (255.0 - 200.0) / 255.0,
        ..Occupancy::default()
    });
    assert_eq!(
        import_row(&[99, 100, 101, 199, 200, 201], &import),
        "#????."
    );
}

#[test]
fn negate_flips_the_scale() {
    let import = ImageImport::occupancy(Occupancy {
        negate: true,
        ..Occupancy::default()
    });
    // Negated, v reads as 255 − v: 166 → 89 (wall), 165 → 90, 64 → 191, 63 → 192 (free).
    assert_eq!(
        import_row(&[255, 167, 166, 165, 64, 63, 0], &import),
        "###??.."
    );
}

#[test]
fn colour_pixels_use_the_plain_mean_of_their_channels() {
    // (0, 0, 255) has mean 85: occupied, though its blue channel alone is white.
    // (100, 80, 87) has mean 89, (100, 80, 90) mean 90; (192, 192, 192) and (255, 63, 255)
    // have means 192 and 191.
    let pixels = [
        [0, 0, 255],
        [100, 80, 87],
        [100, 80, 90],
        [192, 192, 192],
        [255, 63, 255],
    ];
    let image = RgbImage::from_fn(5, 1, |x, _| Rgb(pixels[x as usize]));
    let grid = ImageImport::default().import(&png(image)).expect("imports");
    assert_eq!(symbols(&grid).concat(), "##?.?");
}

#[test]
fn transparent_pixels_are_unknown() {
    let pixels = [
        [0, 0, 0, 0],
        [255, 255, 255, 0],
        [0, 0, 0, 255],
        [255, 255, 255, 1],
    ];
    let image = RgbaImage::from_fn(4, 1, |x, _| Rgba(pixels[x as usize]));
    let grid = ImageImport::default()
        .import(&png(image.clone()))
        .expect("imports");
    assert_eq!(symbols(&grid).concat(), "??#.");

    let grey = image::ImageBuffer::from_fn(2, 1, |x, _| {
        LumaA([[255u8, 0][x as usize], [0u8, 255][x as usize]])
    });
    let grid = ImageImport::default()
        .import(&png(DynamicImage::ImageLumaA8(grey)))
        .expect("imports");
    assert_eq!(symbols(&grid).concat(), "?#");

    // The unknown choice: walls, free, or a terrain of its own.
    for (unknown, expected) in [(Unknown::Wall, "###."), (Unknown::Free, "..#.")] {
        let import = ImageImport::occupancy(Occupancy {
            unknown,
            ..Occupancy::default()
        });
        let grid = import.import(&png(image.clone())).expect("imports");
        assert_eq!(symbols(&grid).concat(), expected);
        assert_eq!(
            grid.terrains().len(),
            2,
            "no unknown terrain in the catalog"
        );
    }
}

#[test]
fn downsampling_averages_blocks_and_upsampling_repeats() {
    // 4 × 2 pixels; the left 2 × 2 block averages (0 + 255 · 3) / 4 = 191.25, whose occupancy
    // is exactly 0.25: not below the free threshold, so unknown. The right block is white
    // with one pixel of 8: mean 193.25, free.
    let values = [[0, 255, 255, 255], [255, 255, 8, 255]];
    let image = GrayImage::from_fn(4, 2, |x, y| image::Luma([values[y as usize][x as usize]]));
    let half = ImageImport {
        scale: Scale::CellsPerPixel(0.5),
        ..ImageImport::default()
    };
    let grid = half.import(&png(image.clone())).expect("imports");
    assert_eq!(symbols(&grid), vec!["?."]);
    let by_width = ImageImport {
        scale: Scale::Width(2),
        ..ImageImport::default()
    };
    assert_eq!(by_width.import(&png(image.clone())).expect("imports"), grid);

    let double = ImageImport {
        scale: Scale::CellsPerPixel(2.0),
        ..ImageImport::default()
    };
    let grid = double.import(&png(image)).expect("imports");
    assert_eq!(
        symbols(&grid),
        vec!["##......", "##......", "....##..", "....##.."]
    );
}

#[test]
fn scale_mode_grades_the_middle_into_costs() {
    let import = ImageImport::occupancy(Occupancy {
        interpretation: Interpretation::Scale,
        ..Occupancy::default()
    });
    let image = GrayImage::from_fn(4, 1, |x, _| image::Luma([[0, 90, 140, 191][x as usize]]));
    let grid = import.import(&png(image)).expect("imports");
    assert_eq!(symbols(&grid).concat(), "#951");
    let costs: Vec<Option<f64>> = grid
        .cells()
        .iter()
        .map(|&id| grid.terrain(id).cost)
        .collect();
    assert_eq!(costs, vec![None, Some(10.0), Some(6.0), Some(2.0)]);
}

#[test]
fn the_palette_picks_the_nearest_colour() {
    let catalog = gridpath::grid::Terrain::default_catalog();
    // Near grass (#6abe30), near road (#c8b58c), near swamp (#4b6b3a), near wall (#222222).
    let pixels = [
        [0x70, 0xc0, 0x30],
        [0xd0, 0xb0, 0x90],
        [0x40, 0x70, 0x40],
        [0, 0, 0],
    ];
    let image = RgbImage::from_fn(4, 1, |x, _| Rgb(pixels[x as usize]));
    let grid = ImageImport::palette(catalog.clone())
        .import(&png(image))
        .expect("imports");
    assert_eq!(symbols(&grid).concat(), ".=~#");
    assert_eq!(grid.terrains(), &catalog[..]);
}

#[test]
fn a_grid_larger_than_allowed_is_refused_before_decoding() {
    let image = GrayImage::new(100, 10);
    let import = ImageImport {
        scale: Scale::CellsPerPixel(100.0),
        ..ImageImport::default()
    };
    assert_eq!(
        import.import(&png(image)),
        Err(ImportError::GridTooLarge {
            width: 10_000,
            height: 1000
        })
    );
}

#[test]
fn the_memory_limit_is_enforced() {
    let image = GrayImage::new(200, 200);
    let import = ImageImport {
        max_alloc: 10_000,
        ..ImageImport::default()
    };
    let e = import.import(&png(image)).unwrap_err();
    assert_eq!(e, ImportError::MemoryLimit { limit: 10_000 }, "{e}");
    assert!(e.to_string().contains("10000 bytes"), "{e}");
}

#[test]
fn a_missing_image_file_names_it() {
    let path = Path::new("no/such/floorplan.png");
    let e = ImageImport::default().load(path).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("no/such/floorplan.png: cannot read"),
        "{e}"
    );
}
