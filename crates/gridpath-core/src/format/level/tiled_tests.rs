//! The Tiled reader's tests: scanlines of solid objects, markers, chunks and layers.

use super::*;

#[test]
fn the_tile_budget_refuses_a_long_side_and_too_many_tiles_in_all() {
    let mut budget = TileBudget::default();
    let side = u64::from(Grid::MAX_SIDE);
    assert_eq!(budget.take("a", None, 16384, 8192).unwrap(), 1 << 27);
    assert!(budget.take("b", None, 8192, 16384).is_ok());
    let e = budget.take("c", Some((0, 0)), 1, 1).unwrap_err();
    assert!(
        e.to_string()
            .contains("layer \"c\", chunk at (0, 0): the layers hold more than"),
        "{e}"
    );
    let e = TileBudget::default()
        .take("d", None, side + 1, 1)
        .unwrap_err();
    assert!(e.to_string().contains("32769 × 1 tiles"), "{e}");
}

/// Whether the point (px, py) lies in the object, tested directly: into the object's own
/// frame, then the even-odd rule over its polygon or the ellipse's equation.
fn covers(object: &Object, px: f64, py: f64) -> bool {
    let (sin, cos) = object.rotation.to_radians().sin_cos();
    let (dx, dy) = (px - object.x, py - object.y);
    let (lx, ly) = (dx * cos + dy * sin, -dx * sin + dy * cos);
    match &object.shape {
        Shape::Ellipse => {
            let (rx, ry) = (object.width / 2.0, object.height / 2.0);
            rx > 0.0 && ry > 0.0 && ((lx - rx) / rx).powi(2) + ((ly - ry) / ry).powi(2) <= 1.0
        }
        Shape::Rectangle => (0.0..object.width).contains(&lx) && (0.0..object.height).contains(&ly),
        Shape::Polygon(points) => {
            let mut inside = false;
            let mut j = points.len() - 1;
            for (i, &(xi, yi)) in points.iter().enumerate() {
                let (xj, yj) = points[j];
                if (yi > ly) != (yj > ly) && lx < xi + (ly - yi) * (xj - xi) / (yj - yi) {
                    inside = !inside;
                }
                j = i;
            }
            inside
        }
        _ => false,
    }
}

/// An infinite map as Tiled stores it: chunks of 16 × 16 tiles (Tiled's default chunk
/// size) wherever a tile was painted, empty tiles 0. `tile(x, y)` gives each tile.
fn infinite(chunks: &[(i64, i64)], tile: impl Fn(i64, i64) -> u32) -> TiledMap {
    let mut wall = TileInfo::default();
    wall.properties
        .insert("walkable".to_owned(), Value::Bool(false));
    TiledMap {
        orientation: "orthogonal".to_owned(),
        tile_width: 16.0,
        tile_height: 16.0,
        infinite: true,
        tilesets: vec![Tileset {
            first_gid: 1,
            name: "desert".to_owned(),
            tile_count: 2,
            columns: 2,
            tiles: BTreeMap::from([(1, wall)]),
            ..Tileset::default()
        }],
        layers: vec![Layer {
            name: "Ground".to_owned(),
            class: None,
            visible: true,
            content: Content::Tiles(
                chunks
                    .iter()
                    .map(|&(cx, cy)| Chunk {
                        x: cx,
                        y: cy,
                        width: 16,
                        height: 16,
                        gids: (0..256).map(|i| tile(cx + i % 16, cy + i / 16)).collect(),
                    })
                    .collect(),
            ),
        }],
        ..TiledMap::default()
    }
}

#[test]
fn an_infinite_map_is_sized_to_its_tiles_and_never_grows_floor() {
    // A 40 × 40 level saved infinite: nine chunks cover 48 × 48, the padding empty. A wall
    // (tile 2) splits it from top to bottom at x = 20.
    let chunks: Vec<(i64, i64)> = (0..3)
        .flat_map(|y| (0..3).map(move |x| (x * 16, y * 16)))
        .collect();
    let map = infinite(&chunks, |x, y| match (x, y) {
        (0..40, 0..40) if x == 20 => 2,
        (0..40, 0..40) => 1,
        _ => 0,
    });
    let import = map.to_import("desert", &LevelOptions::default()).unwrap();
    let grid = &import.map.grid;
    assert_eq!((grid.width(), grid.height()), (40, 40));
    let request = crate::search::SearchRequest::new(Cell::new(0, 0), Cell::new(39, 0));
    let result = crate::search::solve(grid, &request).unwrap();
    assert!(!result.found, "a path around the wall through the padding");

    // Chunks in an L: the bounding box holds a square with no chunk, which is outside
    // (impassable), while empty tiles inside a chunk are floor as in a finite map.
    let map = infinite(&[(-16, 0), (0, 0), (-16, 16)], |x, y| {
        u32::from(!(x == 5 && y == 5))
    });
    let import = map.to_import("l", &LevelOptions::default()).unwrap();
    let grid = &import.map.grid;
    assert_eq!((grid.width(), grid.height()), (32, 32));
    let at = |x: u32, y: u32| grid.terrain(grid.get(Cell::new(x, y)).unwrap());
    assert_eq!(at(16 + 5, 5).name, "floor");
    assert!(at(16 + 5, 5).is_passable());
    for (x, y) in [(16, 16), (31, 31), (20, 25)] {
        assert_eq!(at(x, y).name, "outside");
        assert!(!at(x, y).is_passable());
    }
    assert!(at(0, 31).is_passable() && at(15, 0).is_passable());
    assert!(import.sources.contains(&TerrainSource::Outside));
}

/// The colours of a map's terrains, read with the XML front end.
#[cfg(feature = "images")]
fn colours_of(dir: &std::path::Path, text: &str) -> Vec<[u8; 3]> {
    let map = super::super::tmx::parse(text, dir).unwrap();
    let import = map.to_import("m", &LevelOptions::default()).unwrap();
    import
        .map
        .grid
        .terrains()
        .iter()
        .map(|t| t.color.0)
        .collect()
}

#[cfg(feature = "images")]
#[test]
fn tileset_colours_follow_trans_and_count_columns_as_tiled_does() {
    // A tileset laid out as Tiled's own sewers example: 24 × 24 tiles, a magenta
    // background keyed out with trans="#ff00ff", no columns or tilecount given (Tiled
    // writes them when it saves the map again). Tile 0: grey on magenta; tile 1 green;
    // tile 2 (the second row of a 2-column image) blue on magenta.
    let dir = tempfile::tempdir().unwrap();
    let image = image::RgbaImage::from_fn(48, 48, |x, y| {
        let inner = (4..20).contains(&(x % 24)) && (4..20).contains(&(y % 24));
        image::Rgba(match (x / 24, y / 24, inner) {
            (_, _, false) if (x / 24, y / 24) != (1, 0) => [255, 0, 255, 255],
            (0, 0, _) => [100, 100, 100, 255],
            (1, 0, _) => [0, 160, 0, 255],
            _ => [0, 0, 200, 255],
        })
    });
    image.save(dir.path().join("sewer_tileset.png")).unwrap();
    let sewers = r##"<map version="1.0" orientation="orthogonal" width="3" height="1" tilewidth="24" tileheight="24">
 <tileset firstgid="1" name="sewer_tileset" tilewidth="24" tileheight="24">
  <image source="sewer_tileset.png" trans="ff00ff"/>
 </tileset>
 <layer name="Bottom" width="3" height="1"><data encoding="csv">1,2,3</data></layer>
</map>"##;
    let colours = colours_of(dir.path(), sewers);
    assert_eq!(colours, [[100, 100, 100], [0, 160, 0], [0, 0, 200]]);
    // As Tiled re-saves it: columns and tilecount written, "#" before the colour.
    let resaved = sewers.replace(
        r#"tileheight="24">
  <image source="sewer_tileset.png" trans="ff00ff"/>"#,
        r##"tileheight="24" tilecount="4" columns="2">
  <image source="sewer_tileset.png" trans="#ff00ff" width="48" height="48"/>"##,
    );
    assert_ne!(resaved, sewers);
    assert_eq!(colours_of(dir.path(), &resaved), colours);

    // Tiled's column count for an image wider than whole tiles, with margin and spacing.
    let set = Tileset {
        tile_width: 16,
        margin: 2,
        spacing: 1,
        ..Tileset::default()
    };
    assert_eq!(columns_for_width(2 + 16 * 4 + 3, &set), 4);
    assert_eq!(columns_for_width(2 + 16 * 5 + 4 - 1, &set), 4);
    assert_eq!(columns_for_width(2 + 16 * 5 + 4, &set), 5);

    // A collection of images: each tile its own image.
    image::RgbaImage::from_pixel(8, 8, image::Rgba([10, 20, 30, 255]))
        .save(dir.path().join("rock.png"))
        .unwrap();
    let collection = r##"<map orientation="orthogonal" width="1" height="1" tilewidth="8" tileheight="8">
 <tileset firstgid="1" name="things" tilewidth="8" tileheight="8" tilecount="1" columns="0">
  <grid orientation="orthogonal" width="1" height="1"/>
  <tile id="0"><image width="8" height="8" source="rock.png"/></tile>
 </tileset>
 <layer name="l" width="1" height="1"><data encoding="csv">1</data></layer>
</map>"##;
    assert_eq!(colours_of(dir.path(), collection), [[10, 20, 30]]);
}

#[cfg(feature = "images")]
#[test]
fn each_tile_terrain_carries_its_picture_with_the_trans_colour_clear() {
    let dir = tempfile::tempdir().unwrap();
    // Two 4 × 4 tiles side by side: a red one with a magenta corner, a blue one.
    let image = image::RgbaImage::from_fn(8, 4, |x, y| {
        image::Rgba(match (x / 4, x % 4 == 0 && y == 0) {
            (0, true) => [255, 0, 255, 255],
            (0, false) => [200, 0, 0, 255],
            _ => [0, 0, 200, 255],
        })
    });
    image.save(dir.path().join("set.png")).unwrap();
    let text = r##"<map orientation="orthogonal" width="3" height="1" tilewidth="4" tileheight="4">
 <tileset firstgid="1" name="set" tilewidth="4" tileheight="4" tilecount="2" columns="2">
  <image source="set.png" trans="ff00ff"/>
 </tileset>
 <layer name="l" width="3" height="1"><data encoding="csv">1,2,0</data></layer>
</map>"##;
    let map = super::super::tmx::parse(text, dir.path()).unwrap();
    let import = map.to_import("m", &LevelOptions::default()).unwrap();
    assert_eq!(import.pictures.len(), import.sources.len());
    for (source, picture) in import.sources.iter().zip(&import.pictures) {
        match source {
            TerrainSource::Tile { id, .. } => {
                let picture = picture.as_ref().expect("a tile's picture");
                assert_eq!((picture.width, picture.height), (4, 4));
                let pixel = |x: usize, y: usize| &picture.rgba[(y * 4 + x) * 4..][..4];
                if *id == 0 {
                    assert_eq!(pixel(0, 0)[3], 0, "the trans colour is clear");
                    assert_eq!(pixel(1, 1), [200, 0, 0, 255]);
                } else {
                    assert_eq!(pixel(0, 0), [0, 0, 200, 255]);
                }
            }
            _ => assert!(picture.is_none(), "{source:?} has no picture"),
        }
    }
    assert_eq!(
        import.pictures.iter().filter(|p| p.is_some()).count(),
        2,
        "both tiles"
    );
}

#[test]
fn merged_row_spans_cover_the_cells_whose_centres_lie_in_a_shape() {
    // A small generator, so the shapes are the same on every run.
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move |low: f64, high: f64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        low + (state >> 11) as f64 / (1u64 << 53) as f64 * (high - low)
    };
    let extent = Extent {
        x: -3,
        y: 2,
        width: 40,
        height: 30,
    };
    let (tw, th) = (16.0, 12.0);
    for round in 0..200 {
        let shape = match round % 3 {
            0 => Shape::Rectangle,
            1 => Shape::Ellipse,
            _ => Shape::Polygon(
                (0..3 + round % 9)
                    .map(|_| (next(-150.0, 150.0), next(-150.0, 150.0)))
                    .collect(),
            ),
        };
        let object = Object {
            x: next(-200.0, 800.0),
            y: next(-100.0, 500.0),
            width: next(0.0, 300.0),
            height: next(0.0, 300.0),
            rotation: if round % 2 == 0 {
                0.0
            } else {
                next(-180.0, 180.0)
            },
            shape,
            ..Object::default()
        };
        let map = TiledMap {
            tile_width: tw,
            tile_height: th,
            ..TiledMap::default()
        };
        let mut spans = RowSpans::new(extent);
        map.rasterise(&object, &mut spans).unwrap();
        let mut walls = vec![false; 40 * 30];
        spans.fill(&mut walls);
        for y in 0..30 {
            for x in 0..40 {
                let (cx, cy) = (((x - 3) as f64 + 0.5) * tw, ((y + 2) as f64 + 0.5) * th);
                // Centres on a shape's very edge may go either way with rounding.
                let near = [(-1e-6, 0.0), (1e-6, 0.0), (0.0, -1e-6), (0.0, 1e-6)]
                    .iter()
                    .map(|&(ex, ey)| covers(&object, cx + ex, cy + ey))
                    .collect::<Vec<_>>();
                let wanted = covers(&object, cx, cy);
                if near.iter().all(|&n| n == wanted) {
                    assert_eq!(
                        walls[(y * 40 + x) as usize],
                        wanted,
                        "round {round}, cell ({x}, {y}): {object:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn overlapping_large_objects_are_merged_and_the_work_is_bounded() {
    let extent = Extent {
        x: 0,
        y: 0,
        width: 300,
        height: 200,
    };
    let map = TiledMap {
        tile_width: 1.0,
        tile_height: 1.0,
        ..TiledMap::default()
    };
    let whole = Object {
        width: 300.0,
        height: 200.0,
        ..Object::default()
    };
    let mut spans = RowSpans::new(extent);
    for _ in 0..1000 {
        map.rasterise(&whole, &mut spans).unwrap();
    }
    let mut walls = vec![false; 300 * 200];
    spans.fill(&mut walls);
    assert!(walls.iter().all(|&w| w));
    // A zigzag whose every edge crosses every row passes the crossing budget.
    let teeth = MAX_CROSSINGS / 200 + 2;
    let zigzag = Object {
        shape: Shape::Polygon(
            (0..teeth)
                .map(|i| (i as f64 * 0.01, if i % 2 == 0 { 0.0 } else { 200.0 }))
                .collect(),
        ),
        ..Object::default()
    };
    let e = map
        .rasterise(&zigzag, &mut RowSpans::new(extent))
        .unwrap_err();
    assert!(
        e.to_string()
            .contains(&format!("more than {MAX_CROSSINGS} times")),
        "{e}"
    );
    let mut budget = ObjectBudget::default();
    budget.take("object 1", MAX_POINTS).unwrap();
    let e = budget.take("object 2", 1).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("object 2: the map's polygons hold more than {MAX_POINTS} points in all")
    );
    let mut budget = ObjectBudget::default();
    for _ in 0..MAX_OBJECTS {
        budget.take("x", 0).unwrap();
    }
    assert!(budget.take("object 9", 0).is_err());
}
