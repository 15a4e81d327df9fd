//! Image and ROS map imports: the committed floorplan against its expected grid, and the ROS
//! `map_server` semantics on hand-made pixels at and around each threshold.

use std::path::{Path, PathBuf};

mod common;
use common::{png, root};

use gridpath::format::ImportError;
use gridpath::format::image_import::{ImageImport, Reduce, Scale};
use gridpath::format::occupancy::{Interpretation, Layout, MapServer, Occupancy, Unknown};
use gridpath::format::ros_map::load_ros_map;
use gridpath::format::ros_write::{self, RosImage};
use gridpath::format::{json, load_map};
use gridpath::grid::{Cell, GeoReference, Grid, farthest_apart};
use gridpath::search::{Algorithm, Diagonal, SearchRequest, solve};
use image::{DynamicImage, GrayImage, LumaA, Rgb, RgbImage, Rgba, RgbaImage};

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
    // The floorplan is a noisy scan: averaging its 4 × 4 blocks filters the dust.
    let import = ImageImport {
        scale: Scale::CellsPerPixel(0.25),
        reduce: Reduce::Mean,
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
        reduce: Reduce::Mean,
        ..ImageImport::default()
    };
    let map = by_width
        .load(&root().join("assets/floorplan.png"))
        .expect("imports");
    assert_eq!(map, expected);
}

/// The sizes of the connected regions of cells where `keep` holds, largest first: through
/// sides, or through sides and corners with `corners`.
fn region_sizes(grid: &Grid, keep: impl Fn(&str) -> bool, corners: bool) -> Vec<usize> {
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    let kept: Vec<bool> = grid
        .cells()
        .iter()
        .map(|&id| keep(&grid.terrain(id).name))
        .collect();
    let mut seen = vec![false; kept.len()];
    let mut sizes = Vec::new();
    for start in 0..kept.len() {
        if seen[start] || !kept[start] {
            continue;
        }
        seen[start] = true;
        let (mut stack, mut size) = (vec![start], 0);
        while let Some(i) = stack.pop() {
            size += 1;
            let (x, y) = (i as i64 % w, i as i64 / w);
            for (dx, dy) in [
                (1, 0),
                (-1, 0),
                (0, 1),
                (0, -1),
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
            ] {
                let (nx, ny) = (x + dx, y + dy);
                if (dx != 0 && dy != 0 && !corners) || nx < 0 || ny < 0 || nx >= w || ny >= h {
                    continue;
                }
                let j = (ny * w + nx) as usize;
                if kept[j] && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        sizes.push(size);
    }
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    sizes
}

/// Checks a downscaled import against the image at one cell per pixel: as many free regions
/// (through sides) and as many shapes of walls and unknown cells (through sides and corners)
/// as the image has of at least one cell's block of pixels (`block`); smaller ones (dust,
/// speckle) cannot hold a cell.
fn assert_same_shapes(full: &Grid, reduced: &Grid, block: usize) {
    let big = |sizes: Vec<usize>| sizes.into_iter().filter(|&n| n >= block).count();
    let floor = |name: &str| name == "Floor";
    let wall = |name: &str| name != "Floor";
    let (source_rooms, rooms) = (
        big(region_sizes(full, floor, false)),
        region_sizes(reduced, floor, false).len(),
    );
    assert_eq!(
        rooms,
        source_rooms,
        "free regions: {:?}",
        region_sizes(reduced, floor, false)
    );
    let (source_walls, walls) = (
        big(region_sizes(full, wall, true)),
        region_sizes(reduced, wall, true).len(),
    );
    assert_eq!(
        walls,
        source_walls,
        "walls: {:?}",
        region_sizes(reduced, wall, true)
    );
}

#[test]
fn the_default_reduction_gives_the_floorplan_clean() {
    let path = root().join("assets/floorplan.png");
    let full = ImageImport::default().load(&path).expect("imports").grid;
    let quarter = ImageImport {
        scale: Scale::CellsPerPixel(0.25),
        ..ImageImport::default()
    };
    let map = quarter.load(&path).expect("imports");
    assert_same_shapes(&full, &map.grid, 16);
    // No dust: the cells of the design, drawn from the same image by hand.
    let design = load_map(&root().join("tests/data/floorplan.json")).expect("design");
    assert_eq!(symbols(&map.grid), symbols(&design.grid));
    let (start, goal) = farthest_apart(&map.grid).expect("free cells");
    let steps = start.x.abs_diff(goal.x) + start.y.abs_diff(goal.y);
    assert!(
        steps >= 40,
        "start {start:?} and goal {goal:?} are {steps} steps apart"
    );
}

#[test]
fn a_wall_thinner_than_a_cell_stays_a_connected_wall() {
    // 64 × 48 pixels in 8 × 8 blocks: a border two pixels thick, a one-pixel wall down
    // x = 31 (the last column of the fourth cell column) with a door at y = 5 to 15, and a
    // two-pixel wall across the left half at y = 27 and 28; dust in the rooms.
    let image = GrayImage::from_fn(64, 48, |x, y| {
        let border = x < 2 || y < 2 || x >= 62 || y >= 46;
        let down = x == 31 && !(5..16).contains(&y);
        let across = (27..29).contains(&y) && x < 31;
        let dust = (x * 7 + y * 13) % 61 == 0;
        image::Luma([if border || down || across || dust {
            0
        } else {
            255
        }])
    });
    let bytes = png(image);
    let full = ImageImport::default().import(&bytes).expect("imports");
    let import = |reduce| {
        let import = ImageImport {
            scale: Scale::CellsPerPixel(0.125),
            reduce,
            ..ImageImport::default()
        };
        import.import(&bytes).expect("imports")
    };
    let grid = import(Reduce::default());
    assert_same_shapes(&full, &grid, 64);
    assert_eq!(region_sizes(&grid, |n| n == "Floor", false).len(), 2);
    // The mean alone lets the rooms run together; the most occupied pixel keeps the dust.
    let mean = import(Reduce::Mean);
    assert_eq!(region_sizes(&mean, |n| n == "Floor", false).len(), 1);
    let max = import(Reduce::Max);
    let floor = |g: &Grid| {
        region_sizes(g, |n| n == "Floor", false)
            .iter()
            .sum::<usize>()
    };
    assert!(
        floor(&max) * 2 < floor(&grid),
        "dust walls: {} of {} floor cells left",
        floor(&max),
        floor(&grid)
    );
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

    let coarse = load_ros_map(&yaml, |i| {
        i.scale = Scale::CellsPerPixel(0.25);
        i.reduce = Reduce::Mean;
    })
    .expect("imports");
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
    // nav2 compares 1 − shade with the thresholds.
    let import = ImageImport::occupancy(Occupancy {
        occupied_thresh: 1.0 - 100.0 / 255.0,
        free_thresh: 1.0 - 200.0 / 255.0,
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
fn alpha_is_read_as_map_server_reads_it() {
    // Trinary mode averages alpha in with the colour channels (nav2's map_io.cpp and ROS 1's
    // image_loader.cpp alike): transparent black is (0 + 0) / 4, occupied; transparent white
    // 765 / 4 = 191.25, occupancy 0.25, unknown; white at alpha 1 is 191.5, free.
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
    assert_eq!(symbols(&grid).concat(), "#?#.");

    let grey = image::ImageBuffer::from_fn(2, 1, |x, _| {
        LumaA([[255u8, 0][x as usize], [0u8, 255][x as usize]])
    });
    let grid = ImageImport::default()
        .import(&png(DynamicImage::ImageLumaA8(grey)))
        .expect("imports");
    assert_eq!(symbols(&grid).concat(), "?#");

    // Scale mode leaves alpha out of the mean, and nav2 makes every pixel that is not fully
    // opaque unknown; ROS 1 only fully transparent ones between the thresholds.
    let scale = ImageImport::occupancy(Occupancy {
        interpretation: Interpretation::Scale,
        ..Occupancy::default()
    });
    let grid = scale.import(&png(image.clone())).expect("imports");
    assert_eq!(symbols(&grid).concat(), "??#?");
    let ros1 = ImageImport::occupancy(Occupancy {
        interpretation: Interpretation::Scale,
        map_server: MapServer::Ros1,
        ..Occupancy::default()
    });
    let grid = ros1.import(&png(image.clone())).expect("imports");
    assert_eq!(symbols(&grid).concat(), "#.#.");

    // The unknown choice: walls, free, or a terrain of its own.
    for (unknown, expected) in [(Unknown::Wall, "###."), (Unknown::Free, "#.#.")] {
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
fn downsampling_by_mean_averages_blocks_and_upsampling_repeats() {
    // 4 × 2 pixels; the left 2 × 2 block averages (0 + 255 · 3) / 4 = 191.25, whose occupancy
    // is exactly 0.25: not below the free threshold, so unknown. The right block is white
    // with one pixel of 8: mean 193.25, free.
    let values = [[0, 255, 255, 255], [255, 255, 8, 255]];
    let image = GrayImage::from_fn(4, 2, |x, y| image::Luma([values[y as usize][x as usize]]));
    let half = ImageImport {
        scale: Scale::CellsPerPixel(0.5),
        reduce: Reduce::Mean,
        ..ImageImport::default()
    };
    let grid = half.import(&png(image.clone())).expect("imports");
    assert_eq!(symbols(&grid), vec!["?."]);
    let by_width = ImageImport {
        scale: Scale::Width(2),
        reduce: Reduce::Mean,
        ..ImageImport::default()
    };
    assert_eq!(by_width.import(&png(image.clone())).expect("imports"), grid);
    // By default a block takes the class of its mean too (no thin wall runs between them).
    let default = ImageImport {
        scale: Scale::CellsPerPixel(0.5),
        ..ImageImport::default()
    };
    assert_eq!(default.import(&png(image.clone())).expect("imports"), grid);
    // By the most occupied pixel, both hold a wall pixel.
    let most = ImageImport {
        scale: Scale::CellsPerPixel(0.5),
        reduce: Reduce::Max,
        ..ImageImport::default()
    };
    assert_eq!(
        symbols(&most.import(&png(image.clone())).expect("imports")),
        vec!["##"]
    );

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
    // nav2 publishes rint(ratio · 100): 90 → 99, 140 → 50, 191 → 0 (the band's free end).
    let image = GrayImage::from_fn(4, 1, |x, _| image::Luma([[0, 90, 140, 191][x as usize]]));
    let grid = import.import(&png(image.clone())).expect("imports");
    assert_eq!(symbols(&grid).concat(), "#95.");
    let costs: Vec<Option<f64>> = grid
        .cells()
        .iter()
        .map(|&id| grid.terrain(id).cost)
        .collect();
    assert_eq!(costs, vec![None, Some(10.0), Some(6.0), Some(1.0)]);
    // ROS 1 publishes 1 + 98 · ratio, truncated: 191 → 1.
    let ros1 = ImageImport::occupancy(Occupancy {
        interpretation: Interpretation::Scale,
        map_server: MapServer::Ros1,
        ..Occupancy::default()
    });
    assert_eq!(
        symbols(&ros1.import(&png(image)).expect("imports")).concat(),
        "#951"
    );
}

#[test]
fn a_colour_outside_the_palette_is_an_error_naming_it_and_its_first_pixel() {
    let catalog = gridpath::grid::Terrain::default_catalog();
    let [grass, road, swamp, wall] = [0, 1, 2, 3].map(|i| catalog[i].color.0);
    let exact = RgbImage::from_fn(4, 1, |x, _| Rgb([grass, road, swamp, wall][x as usize]));
    let grid = ImageImport::palette(catalog.clone())
        .import(&png(exact))
        .expect("imports");
    assert_eq!(symbols(&grid).concat(), ".=~#");
    assert_eq!(grid.terrains(), &catalog[..]);

    // Water-blue is no built-in terrain: it is refused, never read as the nearest one.
    let water = [0x3b, 0x78, 0xc4];
    let image = RgbImage::from_fn(3, 2, |x, y| {
        Rgb(if (x, y) == (2, 0) { water } else { grass })
    });
    let err = ImageImport::palette(catalog.clone())
        .import(&png(image))
        .expect_err("an unknown colour");
    assert!(
        matches!(err, ImportError::UnknownColour { x: 2, y: 0, .. }),
        "{err:?}"
    );
    let message = err.to_string();
    assert!(
        message.contains("#3b78c4") && message.contains("pixel 2, 0"),
        "{message}"
    );
    assert!(
        message.contains("#4b6b3a \"Swamp\""),
        "lists the palette: {message}"
    );
}

#[test]
fn a_downscaled_palette_cell_takes_the_terrain_of_most_of_its_pixels() {
    let catalog = gridpath::grid::Terrain::default_catalog();
    let [grass, road, _, wall] = [0, 1, 2, 3].map(|i| catalog[i].color.0);
    // Two 2 × 2 blocks: three road pixels and a wall; two grass and two wall (a tie: the
    // first terrain of the palette).
    let pixels = [[road, road, grass, wall], [road, wall, wall, grass]];
    let image = RgbImage::from_fn(4, 2, |x, y| Rgb(pixels[y as usize][x as usize]));
    let import = ImageImport {
        scale: Scale::CellsPerPixel(0.5),
        ..ImageImport::palette(catalog)
    };
    assert_eq!(
        symbols(&import.import(&png(image)).expect("imports")).concat(),
        "=."
    );
}

#[test]
fn a_grid_larger_than_allowed_is_refused_before_decoding() {
    let image = GrayImage::new(100, 10);
    let import = ImageImport {
        scale: Scale::CellsPerPixel(400.0),
        ..ImageImport::default()
    };
    assert_eq!(
        import.import(&png(image)),
        Err(ImportError::GridTooLarge {
            width: 40_000,
            height: 4000
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

/// The trinary rule of ROS `map_server`, written afresh from its documentation: a pixel's
/// occupancy is (255 − value) / 255; above the occupied threshold a wall, below the free
/// threshold free, otherwise unknown.
fn map_server_symbol(value: u8, occupied_thresh: f64, free_thresh: f64) -> char {
    let occupancy = (255.0 - f64::from(value)) / 255.0;
    if occupancy > occupied_thresh {
        '#'
    } else if occupancy < free_thresh {
        '.'
    } else {
        '?'
    }
}

/// The width, height, maximum value and samples of a binary PGM, read by hand: the header's
/// four tokens with `#` comments to the end of a line anywhere between them.
fn read_pgm(bytes: &[u8]) -> (usize, usize, u32, Vec<u32>) {
    let mut tokens = Vec::new();
    let mut i = 0;
    while tokens.len() < 4 {
        match bytes[i] {
            b'#' => {
                while bytes[i] != b'\n' {
                    i += 1;
                }
            }
            c if c.is_ascii_whitespace() => {}
            _ => {
                let start = i;
                while !bytes[i].is_ascii_whitespace() {
                    i += 1;
                }
                tokens.push(
                    std::str::from_utf8(&bytes[start..i])
                        .expect("ascii")
                        .to_owned(),
                );
                continue;
            }
        }
        i += 1;
    }
    assert_eq!(tokens[0], "P5");
    let number = |t: &str| t.parse::<usize>().expect("a number");
    let (w, h, max) = (number(&tokens[1]), number(&tokens[2]), number(&tokens[3]));
    let data = &bytes[i + 1..];
    let samples = if max < 256 {
        data[..w * h].iter().map(|&b| u32::from(b)).collect()
    } else {
        data[..2 * w * h]
            .chunks_exact(2)
            .map(|p| u32::from(p[0]) << 8 | u32::from(p[1]))
            .collect()
    };
    (w, h, max as u32, samples)
}

/// Checks that `grid` holds, cell for cell, what `map_server`'s trinary rule (occupied 0.65, free
/// 0.196) makes of the 8-bit binary PGM `pgm`; returns the expected symbols.
fn assert_trinary(grid: &Grid, pgm: &[u8]) -> String {
    let (w, h, _, samples) = read_pgm(pgm);
    assert_eq!((grid.width() as usize, grid.height() as usize), (w, h));
    let expected: String = samples
        .iter()
        .map(|&v| map_server_symbol(v as u8, 0.65, 0.196))
        .collect();
    assert_eq!(symbols(grid).concat(), expected);
    expected
}

/// A yaml beside a PGM, as `map_saver` writes them.
fn write_ros_map(dir: &Path, pgm: &[u8], free_thresh: f64) -> PathBuf {
    std::fs::write(dir.join("map.pgm"), pgm).expect("write");
    let yaml = dir.join("map.yaml");
    std::fs::write(
        &yaml,
        format!("image: map.pgm\nresolution: 0.050000\norigin: [-10.000000, -10.000000, 0.000000]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: {free_thresh}\n\n"),
    )
    .expect("write");
    yaml
}

#[test]
fn map_saver_pgm_files_convert_by_the_trinary_rule() {
    // Every grey level, as map_saver writes them (0, 205 and 254) and all the others, in a
    // binary PGM with comments where the format allows them.
    let values: Vec<u8> = (0..=255).collect();
    let mut pgm =
        b"P5\n# CREATOR: map_saver.cpp 0.050 m/pix\n16 # width\n16\n# max\n255\n".to_vec();
    pgm.extend(&values);
    let dir = tempfile::tempdir().expect("temp dir");
    let yaml = write_ros_map(dir.path(), &pgm, 0.196);
    let map = load_ros_map(&yaml, |_| {}).expect("a map_saver map converts");
    let expected = assert_trinary(&map.grid, &pgm);
    // 205, map_saver's unknown, is unknown at free_thresh 0.196 (its occupancy is 0.19608).
    assert_eq!(expected.as_bytes()[205], b'?');
    assert_eq!(expected.as_bytes()[254], b'.');

    // The same pixels as ASCII (P2) and as 16-bit samples (each value v as v · 257).
    let ascii = format!(
        "P2\n# an ASCII grey map\n16 16\n255\n{}\n",
        values
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    );
    let mut wide = b"P5\n16 16\n65535\n".to_vec();
    for &v in &values {
        wide.extend((u16::from(v) * 257).to_be_bytes());
    }
    for other in [ascii.into_bytes(), wide] {
        let grid = ImageImport::occupancy(Occupancy {
            free_thresh: 0.196,
            ..Occupancy::default()
        })
        .import(&other)
        .expect("imports");
        assert_eq!(symbols(&grid).concat(), expected);
    }
}

#[test]
fn the_turtlebot3_map_converts_by_the_trinary_rule() {
    let folder = root().join("../shared/samples/ros-turtlebot3");
    if !folder.is_dir() {
        common::skip(&format!("{} is absent", folder.display()));
        return;
    }
    let map = load_ros_map(&folder.join("map.yaml"), |_| {}).expect("the turtlebot3 map");
    let pgm = std::fs::read(folder.join("map.pgm")).expect("the pgm");
    assert_eq!(read_pgm(&pgm).2, 255);
    let expected = assert_trinary(&map.grid, &pgm);
    let unknown = expected.bytes().filter(|&b| b == b'?').count();
    assert!(unknown > 100_000, "{unknown} unknown cells");
    assert_eq!(
        map.metadata,
        Some(GeoReference {
            resolution: 0.05,
            origin: [-10.0, -10.0, 0.0]
        })
    );
}

#[test]
fn walls_survive_downscaling() {
    // A 400 × 300 floorplan: black walls on white, one pixel thick (the vertical one at
    // x = 137, floor to ceiling) and four pixels thick (y = 201 to 204, across the left part).
    let (width, height) = (400u32, 300u32);
    let thin = |x: u32, _y: u32| x == 137;
    let thick = |x: u32, y: u32| x < 137 && (201..205).contains(&y);
    let image = GrayImage::from_fn(width, height, |x, y| {
        image::Luma([if thin(x, y) || thick(x, y) { 0 } else { 255 }])
    });
    let bytes = png(image);
    for scale in [1.0, 0.5, 0.25, 0.1, 0.05] {
        let import = ImageImport {
            scale: Scale::CellsPerPixel(scale),
            ..ImageImport::default()
        };
        let grid = import.import(&bytes).expect("imports");
        let (cw, ch) = (grid.width(), grid.height());
        // The cell whose block of pixels holds pixel p along a side of `pixels` in `cells`.
        let cell_of = |p: u32, pixels: u32, cells: u32| {
            (0..cells)
                .find(|&c| u64::from(p) < (u64::from(c) + 1) * u64::from(pixels) / u64::from(cells))
                .expect("a cell")
        };
        for y in 0..height {
            for x in 0..width {
                if thin(x, y) || thick(x, y) {
                    let cell = Cell::new(cell_of(x, width, cw), cell_of(y, height, ch));
                    assert!(
                        !grid
                            .terrain(grid.get(cell).expect("in the grid"))
                            .is_passable(),
                        "scale {scale}: wall pixel ({x}, {y}) fell into passable cell {cell}"
                    );
                }
            }
        }
        // No path crosses a wall: left of the thin wall from right of it, and the two rooms
        // left of it from each other.
        let left_top = Cell::new(0, 0);
        let right = Cell::new(cw - 1, 0);
        let left_bottom = Cell::new(0, ch - 1);
        for goal in [right, left_bottom] {
            let request = SearchRequest::new(left_top, goal)
                .with_algorithm(Algorithm::Bfs)
                .with_diagonal(Diagonal::Always);
            let result = solve(&grid, &request).expect("searches");
            assert!(
                !result.found,
                "scale {scale}: a path from {left_top} to {goal}"
            );
        }
    }
}

#[test]
fn a_ros_map_written_and_read_back_has_the_same_cells() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Free, occupied and unknown as map_saver writes them, in a pattern.
    let mut pgm = b"P5\n# CREATOR: map_saver.cpp 0.050 m/pix\n12 7\n255\n".to_vec();
    pgm.extend((0..84u32).map(|i| [254u8, 0, 205][(i * 7 % 5 % 3) as usize]));
    let yaml = write_ros_map(dir.path(), &pgm, 0.196);
    let original = load_ros_map(&yaml, |_| {}).expect("imports");

    // json → yaml + pgm → json.
    let json_file = dir.path().join("site.json");
    std::fs::write(&json_file, json::to_string(&original)).expect("write");
    let map = load_map(&json_file).expect("loads");
    let out = dir.path().join("out/site.yaml");
    std::fs::create_dir(dir.path().join("out")).expect("mkdir");
    let geo = map.metadata.expect("a world frame");
    ros_write::write_ros_map(&map, &out, &geo, RosImage::Occupancy).expect("writes");
    let written = std::fs::read(dir.path().join("out/site.pgm")).expect("the pgm beside it");
    assert_eq!(
        read_pgm(&written).3,
        read_pgm(&pgm).3,
        "map_saver's pixel values"
    );
    let back = load_ros_map(&out, |_| {}).expect("reads back");
    assert_eq!(back.grid, map.grid);
    assert_eq!(back.metadata, map.metadata);

    // A drawn map of several terrains comes back with the same passable cells.
    let drawn = load_map(&root().join("maps/default.json")).expect("the default map");
    let geo = GeoReference {
        resolution: 0.5,
        origin: [-3.0, 4.0, 0.0],
    };
    let out = dir.path().join("out/drawn.yaml");
    ros_write::write_ros_map(&drawn, &out, &geo, RosImage::Occupancy).expect("writes");
    let back = load_ros_map(&out, |_| {}).expect("reads back");
    assert_eq!(back.metadata, Some(geo));
    for (i, (&a, &b)) in drawn.grid.cells().iter().zip(back.grid.cells()).enumerate() {
        assert_eq!(
            drawn.grid.terrain(a).is_passable(),
            back.grid.terrain(b).is_passable(),
            "cell {i}"
        );
    }
}

/// What nav2's `SpeedFilter` (`nav2_costmap_2d/plugins/costmap_filters/speed_filter.cpp`) makes
/// of one mask value with the filter info `type: 1` (percent), `base`, `multiplier`: the speed
/// limit in percent, where 0.0 is `NO_SPEED_LIMIT`; `None` for an unknown cell (-1), where the
/// filter keeps the limit it had.
fn nav2_speed_limit(mask: i8, base: f64, multiplier: f64) -> Option<f64> {
    const NO_SPEED_LIMIT: f64 = 0.0;
    match mask {
        -1 => None,
        0 => Some(NO_SPEED_LIMIT),
        v => {
            let limit = f64::from(v) * multiplier + base;
            Some(if (0.0..=100.0).contains(&limit) {
                limit
            } else {
                NO_SPEED_LIMIT
            })
        }
    }
}

/// The `OccupancyGrid` values nav2's `map_server` (`nav2_map_server/src/map_io.cpp`) publishes for
/// an 8-bit grey image in `mode: raw`: the grey level itself when it lies in 0–100, else -1
/// (unknown); `negate` is not read in raw mode.
fn nav2_raw_values(pgm: &[u8]) -> Vec<i8> {
    let (_, _, max, samples) = read_pgm(pgm);
    samples
        .iter()
        .map(|&v| {
            let shade = f64::from(v) / f64::from(max);
            let percent = (shade * 255.0).round();
            if (0.0..=100.0).contains(&percent) {
                percent as i8
            } else {
                -1
            }
        })
        .collect()
}

#[test]
fn a_speed_mask_slows_to_the_slowest_on_impassable_cells_and_keeps_out_of_them() {
    let map = load_map(&root().join("maps/default.json")).expect("the default map");
    let grid = &map.grid;
    assert!(
        grid.cells()
            .iter()
            .any(|&id| !grid.terrain(id).is_passable()),
        "the default map has walls"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("speed.yaml");
    let geo = GeoReference {
        resolution: 0.05,
        origin: [0.0, 0.0, 0.0],
    };
    let written = ros_write::write_ros_map(&map, &out, &geo, RosImage::Speed).expect("writes");
    let keepout = dir.path().join("speed-keepout.yaml");
    assert_eq!(written, [out.clone(), keepout.clone()]);
    for yaml in &written {
        let text = std::fs::read_to_string(yaml).expect("the yaml");
        assert!(text.contains("mode: raw\n"), "{text}");
    }

    // The filter info of nav2's speed-filter tutorial, as docs/ros-maps.md gives it.
    let speed = nav2_raw_values(&std::fs::read(dir.path().join("speed.pgm")).expect("pgm"));
    let walls = nav2_raw_values(&std::fs::read(dir.path().join("speed-keepout.pgm")).expect("pgm"));
    let limits: Vec<f64> = speed
        .iter()
        .map(|&v| nav2_speed_limit(v, 100.0, -1.0).expect("no unknown cells in a speed mask"))
        .collect();
    let slowest_passable = grid
        .cells()
        .iter()
        .zip(&limits)
        .filter(|&(&id, &l)| grid.terrain(id).is_passable() && l > 0.0)
        .map(|(_, &l)| l)
        .fold(100.0, f64::min);
    for (i, &id) in grid.cells().iter().enumerate() {
        let terrain = grid.terrain(id);
        match terrain.cost {
            None => {
                // Never "no limit", slower than any passable cell, and a lethal keepout cell
                // (nav2 turns the value 100 into LETHAL_OBSTACLE).
                assert!(limits[i] > 0.0, "cell {i}: impassable at full speed");
                assert!(limits[i] < slowest_passable, "cell {i}: {}", limits[i]);
                assert_eq!(walls[i], 100, "cell {i}: not kept out");
            }
            Some(cost) => {
                assert_eq!(walls[i], 0, "cell {i}: a passable cell kept out");
                if cost <= 1.0 {
                    assert_eq!(limits[i], 0.0, "cell {i}: {} limited", terrain.name);
                } else {
                    let expected = 100.0 / cost;
                    assert!(
                        (limits[i] - expected).abs() <= 1.0,
                        "cell {i}: {} at {}%, expected about {expected}%",
                        terrain.name,
                        limits[i]
                    );
                }
            }
        }
    }

    // A map without walls is one mask.
    let open = gridpath::grid::Map::new("open", Grid::from_ascii(&["..~", ".~."]).expect("grid"));
    let written =
        ros_write::write_ros_map(&open, &dir.path().join("open.yaml"), &geo, RosImage::Speed)
            .expect("writes");
    assert_eq!(written.len(), 1);
}

/// One pixel as a `map_server` reads it: its samples in file order, 0–255 or 0–65535.
struct Pixels {
    grey: bool,
    alpha: bool,
    wide: bool,
    samples: Vec<Vec<u32>>,
}

/// The value nav2's `map_server` publishes for a pixel, written from
/// `nav2_map_server/src/map_io.cpp` (`loadMapFromFile`) over `GraphicsMagick` with 16-bit quanta:
/// an 8-bit sample v is the quantum v · 257.
fn nav2_map_io(
    p: &Pixels,
    s: &[u32],
    mode: Interpretation,
    negate: bool,
    occ: f64,
    free: f64,
) -> i16 {
    let quantum = |v: u32| f64::from(if p.wide { v } else { v * 257 });
    let (r, g, b) = if p.grey {
        (s[0], s[0], s[0])
    } else {
        (s[0], s[1], s[2])
    };
    let alpha = if p.alpha {
        quantum(*s.last().expect("alpha"))
    } else {
        65535.0
    };
    let mut channels = vec![quantum(r), quantum(g), quantum(b)];
    if mode == Interpretation::Trinary && p.alpha {
        // MaxRGB − opacity, where GraphicsMagick's opacity is 65535 − alpha.
        channels.push(alpha);
    }
    let sum: f64 = channels.iter().sum();
    let shade = sum / channels.len() as f64 / 65535.0;
    let o = if negate { shade } else { 1.0 - shade };
    match mode {
        Interpretation::Trinary => {
            if occ < o {
                100
            } else if o < free {
                0
            } else {
                -1
            }
        }
        Interpretation::Scale => {
            if alpha != 65535.0 {
                -1
            } else if occ < o {
                100
            } else if o < free {
                0
            } else {
                ((o - free) / (occ - free) * 100.0).round_ties_even() as i16
            }
        }
        Interpretation::Raw => {
            let percent = (shade * 255.0).round();
            if (0.0..=100.0).contains(&percent) {
                percent as i16
            } else {
                -1
            }
        }
    }
}

/// The value ROS 1's `map_server` publishes for a pixel, written from
/// `map_server/src/image_loader.cpp` over the bytes `SDL_image` hands it: one byte for grey,
/// grey with alpha expanded to RGBA, 16-bit samples by their high byte. Raw values above 100
/// (published as they are, or wrapped below 0) are no occupancy: -1 here.
fn ros1_image_loader(
    p: &Pixels,
    s: &[u32],
    mode: Interpretation,
    negate: bool,
    occ: f64,
    free: f64,
) -> i16 {
    let byte = |v: u32| if p.wide { v >> 8 } else { v };
    let bytes: Vec<u32> = match (p.grey, p.alpha) {
        (true, false) => vec![byte(s[0])],
        (true, true) => vec![byte(s[0]), byte(s[0]), byte(s[0]), byte(s[1])],
        _ => s.iter().map(|&v| byte(v)).collect(),
    };
    let n = bytes.len();
    let has_amask = p.alpha;
    let avg_channels = if mode == Interpretation::Trinary || !has_amask {
        n
    } else {
        n - 1
    };
    let color_sum: u32 = bytes[..avg_channels].iter().sum();
    let mut color_avg = f64::from(color_sum) / avg_channels as f64;
    let alpha = if n == 1 { 1 } else { bytes[n - 1] };
    if negate {
        color_avg = 255.0 - color_avg;
    }
    if mode == Interpretation::Raw {
        let value = color_avg as u8;
        return if value <= 100 { i16::from(value) } else { -1 };
    }
    let o = (255.0 - color_avg) / 255.0;
    if o > occ {
        100
    } else if o < free {
        0
    } else if mode == Interpretation::Trinary || alpha < 1 {
        -1
    } else {
        i16::from((1.0 + 98.0 * (o - free) / (occ - free)) as u8)
    }
}

/// The symbol gridpath gives a published value: `.` free, `#` occupied, `?` unknown, `1`–`9`
/// the graded bands (values 1–11, 12–22, …, 89–99).
fn symbol_of_value(value: i16) -> char {
    match value {
        0 => '.',
        100 => '#',
        1..=99 => char::from(b'1' + ((value - 1) * 9 / 99) as u8),
        _ => '?',
    }
}

/// Every grey level (8-bit) or a spread of 16-bit samples, with alphas and colours mixed in.
fn pixels(grey: bool, alpha: bool, wide: bool) -> Pixels {
    let mut samples = Vec::new();
    for v in 0..=255u32 {
        for (k, a) in [0u32, 1, 127, 254, 255].into_iter().enumerate() {
            if !alpha && k > 0 {
                continue;
            }
            let k = k as u32;
            let wide_of = |x: u32| {
                if wide {
                    x * 256 + (k * 61 + x) % 256
                } else {
                    x
                }
            };
            let mut pixel = if grey {
                vec![wide_of(v)]
            } else {
                vec![
                    wide_of(v),
                    wide_of((v * 7 + k) % 256),
                    wide_of((v * 13 + 5) % 256),
                ]
            };
            if alpha {
                pixel.push(if wide { a * 257 } else { a });
            }
            samples.push(pixel);
        }
    }
    Pixels {
        grey,
        alpha,
        wide,
        samples,
    }
}

/// The pixels as a PNG of one row.
fn pixels_png(p: &Pixels) -> Vec<u8> {
    let width = p.samples.len() as u32;
    let flat8 = || {
        p.samples
            .iter()
            .flatten()
            .map(|&v| v as u8)
            .collect::<Vec<u8>>()
    };
    let flat16 = || {
        p.samples
            .iter()
            .flatten()
            .map(|&v| v as u16)
            .collect::<Vec<u16>>()
    };
    let image = match (p.grey, p.alpha, p.wide) {
        (true, false, false) => {
            DynamicImage::ImageLuma8(image::ImageBuffer::from_raw(width, 1, flat8()).expect("size"))
        }
        (true, true, false) => DynamicImage::ImageLumaA8(
            image::ImageBuffer::from_raw(width, 1, flat8()).expect("size"),
        ),
        (false, false, false) => {
            DynamicImage::ImageRgb8(image::ImageBuffer::from_raw(width, 1, flat8()).expect("size"))
        }
        (false, true, false) => {
            DynamicImage::ImageRgba8(image::ImageBuffer::from_raw(width, 1, flat8()).expect("size"))
        }
        (true, false, true) => DynamicImage::ImageLuma16(
            image::ImageBuffer::from_raw(width, 1, flat16()).expect("size"),
        ),
        (true, true, true) => DynamicImage::ImageLumaA16(
            image::ImageBuffer::from_raw(width, 1, flat16()).expect("size"),
        ),
        (false, false, true) => DynamicImage::ImageRgb16(
            image::ImageBuffer::from_raw(width, 1, flat16()).expect("size"),
        ),
        (false, true, true) => DynamicImage::ImageRgba16(
            image::ImageBuffer::from_raw(width, 1, flat16()).expect("size"),
        ),
    };
    png(image)
}

#[test]
fn every_mode_and_channel_layout_reads_as_map_server_reads_it() {
    let mut checked = 0;
    for (grey, alpha, wide) in (0..8).map(|i| (i & 1 == 0, i & 2 != 0, i & 4 != 0)) {
        let p = pixels(grey, alpha, wide);
        let bytes = pixels_png(&p);
        for mode in [
            Interpretation::Trinary,
            Interpretation::Scale,
            Interpretation::Raw,
        ] {
            for (occ, free) in [(0.65, 0.196), (0.65, 0.25), (1.0, 0.0)] {
                for negate in [false, true] {
                    for (server, reader) in [
                        (
                            MapServer::Nav2,
                            nav2_map_io
                                as fn(&Pixels, &[u32], Interpretation, bool, f64, f64) -> i16,
                        ),
                        (MapServer::Ros1, ros1_image_loader),
                    ] {
                        let occupancy = Occupancy {
                            negate,
                            occupied_thresh: occ,
                            free_thresh: free,
                            interpretation: mode,
                            map_server: server,
                            ..Occupancy::default()
                        };
                        let grid = ImageImport::occupancy(occupancy.clone())
                            .import(&bytes)
                            .expect("imports");
                        let expected: String = p
                            .samples
                            .iter()
                            .map(|s| symbol_of_value(reader(&p, s, mode, negate, occ, free)))
                            .collect();
                        let got = symbols(&grid).concat();
                        let layout = Layout { grey, alpha, wide };
                        if got != expected {
                            let first = got
                                .chars()
                                .zip(expected.chars())
                                .position(|(a, b)| a != b)
                                .unwrap_or(0);
                            panic!(
                                "{server:?} {mode:?} {layout:?} negate {negate} thresholds {occ}/{free}: pixel {:?} reads {:?}, map_server {:?}",
                                p.samples[first],
                                got.chars().nth(first),
                                expected.chars().nth(first)
                            );
                        }
                        // The library's own per-pixel answer agrees with the import.
                        let value = occupancy.cell_value(
                            layout,
                            &p.samples[first_u16(&p)]
                                .iter()
                                .map(|&v| v as u16)
                                .collect::<Vec<_>>(),
                        );
                        assert_eq!(
                            symbol_of_value(value),
                            expected.chars().nth(first_u16(&p)).expect("a cell")
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert_eq!(checked, 8 * 3 * 3 * 2 * 2);
}

/// A pixel in the middle of the row.
fn first_u16(p: &Pixels) -> usize {
    p.samples.len() / 2
}

#[test]
fn an_opaque_rgba_turtlebot3_map_is_free_where_map_server_reads_it_free() {
    let folder = root().join("../shared/samples/ros-turtlebot3");
    if !folder.is_dir() {
        common::skip(&format!("{} is absent", folder.display()));
        return;
    }
    let pgm = std::fs::read(folder.join("map.pgm")).expect("the pgm");
    let (w, h, _, samples) = read_pgm(&pgm);
    let rgba = RgbaImage::from_fn(w as u32, h as u32, |x, y| {
        let v = samples[y as usize * w + x as usize] as u8;
        Rgba([v, v, v, 255])
    });
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("map.png"), png(rgba)).expect("write");
    let yaml = std::fs::read_to_string(folder.join("map.yaml"))
        .expect("the yaml")
        .replace("map.pgm", "map.png");
    std::fs::write(dir.path().join("map.yaml"), &yaml).expect("write");
    let map = load_ros_map(&dir.path().join("map.yaml"), |_| {}).expect("converts");
    let p = Pixels {
        grey: false,
        alpha: true,
        wide: false,
        samples: Vec::new(),
    };
    let expected: String = samples
        .iter()
        .map(|&v| {
            symbol_of_value(nav2_map_io(
                &p,
                &[v, v, v, 255],
                Interpretation::Trinary,
                false,
                0.65,
                0.196,
            ))
        })
        .collect();
    assert_eq!(symbols(&map.grid).concat(), expected);
    // map_saver's unknown grey 205, opaque: (3 · 205 + 255) / 4, occupancy 0.147 — free.
    let unknown = expected.bytes().filter(|&b| b == b'?').count();
    assert_eq!(unknown, 0, "{unknown} unknown cells");
}
