//! Tiled's XML map format (`.tmx`) and its external tilesets (`.tsx`), read into the shared
//! [`TiledMap`] model.

use std::path::Path;

use super::data::{self, Compression, Encoding};
use super::tiled::{
    Chunk, Content, Layer, MAX_GROUP_DEPTH, Object, ObjectBudget, Shape, TileBudget, TiledMap,
    Tileset,
};
use super::tsx::{self, field, number, properties};
use super::xml::{self, Element};
use super::{LevelError, external};
use crate::format::{FormatError, excerpt};

/// Parses a `.tmx` map; external tilesets are read from `folder`.
pub fn parse(text: &str, folder: &Path) -> Result<TiledMap, FormatError> {
    let root = xml::parse(text)?;
    Ok(map(&root, folder)?)
}

fn map(root: &Element, folder: &Path) -> Result<TiledMap, LevelError> {
    if root.name != "map" {
        return Err(field(
            "file",
            format!("the root element is <{}>, not <map>", root.name),
        ));
    }
    let place = "map";
    let mut map = TiledMap {
        orientation: root
            .attribute("orientation")
            .unwrap_or("orthogonal")
            .to_owned(),
        width: number(root, place, "width")?,
        height: number(root, place, "height")?,
        tile_width: number(root, place, "tilewidth")?,
        tile_height: number(root, place, "tileheight")?,
        infinite: root.attribute("infinite") == Some("1"),
        stagger_axis: root.attribute("staggeraxis").map(str::to_owned),
        stagger_index: root.attribute("staggerindex").map(str::to_owned),
        hex_side_length: match root.attribute("hexsidelength") {
            Some(_) => number(root, place, "hexsidelength")?,
            None => 0.0,
        },
        properties: properties(root)?,
        ..TiledMap::default()
    };
    let mut read = 0;
    for element in root.children("tileset") {
        map.tilesets
            .push(tileset_reference(element, folder, &mut read)?);
    }
    map.tilesets.sort_by_key(|t| t.first_gid);
    let mut budget = TileBudget::default();
    let mut objects = ObjectBudget::default();
    layers(root, true, 0, (&mut budget, &mut objects), &mut map.layers)?;
    Ok(map)
}

/// The layers among an element's children, descending into groups.
fn layers(
    parent: &Element,
    visible: bool,
    depth: usize,
    (budget, objects): (&mut TileBudget, &mut ObjectBudget),
    out: &mut Vec<Layer>,
) -> Result<(), LevelError> {
    if depth > MAX_GROUP_DEPTH {
        return Err(field(
            "map",
            format!("group layers nested more than {MAX_GROUP_DEPTH} deep"),
        ));
    }
    for element in &parent.children {
        let name = element.attribute("name").unwrap_or("").to_owned();
        let seen = visible && element.attribute("visible") != Some("0");
        let class = element
            .attribute("class")
            .or_else(|| element.attribute("type"))
            .map(str::to_owned);
        let content = match element.name.as_str() {
            "layer" => Content::Tiles(tile_data(element, &name, budget)?),
            "objectgroup" => Content::Objects(
                element
                    .children("object")
                    .map(|o| {
                        let place = format!("object {}", o.attribute("id").unwrap_or("?"));
                        let points = o
                            .child("polygon")
                            .and_then(|p| p.attribute("points"))
                            .map_or(0, |p| p.split_whitespace().count());
                        objects.take(&place, points)?;
                        object(o)
                    })
                    .collect::<Result<_, _>>()?,
            ),
            "group" => {
                layers(element, seen, depth + 1, (budget, objects), out)?;
                continue;
            }
            _ => continue,
        };
        out.push(Layer {
            name,
            class,
            visible: seen,
            content,
        });
    }
    Ok(())
}

/// The chunks of a tile layer: one of the layer's size, or the `<chunk>`s of an infinite map.
fn tile_data(
    layer: &Element,
    name: &str,
    budget: &mut TileBudget,
) -> Result<Vec<Chunk>, LevelError> {
    let place = format!("layer {name:?}");
    let Some(data) = layer.child("data") else {
        return Err(field(&place, "has no <data>".to_owned()));
    };
    let encoding = data.attribute("encoding");
    let compression = data.attribute("compression").unwrap_or("");
    let fail = |chunk, message| LevelError::LayerData {
        layer: name.to_owned(),
        chunk,
        message,
    };
    let decode = |element: &Element,
                  chunk: Option<(i64, i64)>,
                  count: usize|
     -> Result<Vec<u32>, LevelError> {
        match encoding {
            None => {
                // The parser keeps `<tile gid>`s as CSV text (see `xml::Element::tiles`);
                // text between them is whitespace.
                let text: String = element.text.split_whitespace().collect();
                data::decode(&text, Encoding::Csv, Compression::None, count)
                    .map_err(|m| fail(chunk, m.replace("CSV data", "<tile>s")))
            }
            Some(encoding) => {
                let encoding = Encoding::parse(encoding).map_err(|m| fail(chunk, m))?;
                let compression = Compression::parse(compression).map_err(|m| fail(chunk, m))?;
                data::decode(&element.text, encoding, compression, count)
                    .map_err(|m| fail(chunk, m))
            }
        }
    };
    let chunks: Vec<&Element> = data.children("chunk").collect();
    if chunks.is_empty() {
        let width: u64 = number(layer, &place, "width")?;
        let height: u64 = number(layer, &place, "height")?;
        let count = budget.take(name, None, width, height)?;
        let gids = decode(data, None, count)?;
        return Ok(vec![Chunk {
            x: 0,
            y: 0,
            width: width as u32,
            height: height as u32,
            gids,
        }]);
    }
    let mut out = Vec::with_capacity(chunks.len());
    for chunk in chunks {
        let x: i64 = number(chunk, &place, "x")?;
        let y: i64 = number(chunk, &place, "y")?;
        let width: u64 = number(chunk, &place, "width")?;
        let height: u64 = number(chunk, &place, "height")?;
        let count = budget.take(name, Some((x, y)), width, height)?;
        out.push(Chunk {
            x,
            y,
            width: width as u32,
            height: height as u32,
            gids: decode(chunk, Some((x, y)), count)?,
        });
    }
    Ok(out)
}

fn object(element: &Element) -> Result<Object, LevelError> {
    let place = format!("object {}", element.attribute("id").unwrap_or("?"));
    let optional = |name: &str| -> Result<f64, LevelError> {
        match element.attribute(name) {
            None => Ok(0.0),
            Some(_) => number(element, &place, name),
        }
    };
    let shape = if element.child("point").is_some() {
        Shape::Point
    } else if element.child("ellipse").is_some() {
        Shape::Ellipse
    } else if let Some(polygon) = element.child("polygon") {
        Shape::Polygon(
            points(polygon.attribute("points").unwrap_or("")).map_err(|m| field(&place, m))?,
        )
    } else if element.attribute("gid").is_some() {
        Shape::Tile
    } else if element.child("polyline").is_some() || element.child("text").is_some() {
        Shape::Other
    } else {
        Shape::Rectangle
    };
    Ok(Object {
        name: element.attribute("name").unwrap_or("").to_owned(),
        class: element
            .attribute("class")
            .or_else(|| element.attribute("type"))
            .map(str::to_owned),
        x: optional("x")?,
        y: optional("y")?,
        width: optional("width")?,
        height: optional("height")?,
        rotation: optional("rotation")?,
        shape,
        properties: properties(element)?,
    })
}

/// `x,y x,y …`.
fn points(text: &str) -> Result<Vec<(f64, f64)>, String> {
    text.split_whitespace()
        .map(|pair| {
            let (x, y) = pair
                .split_once(',')
                .ok_or_else(|| format!("bad polygon point {}", excerpt(pair)))?;
            match (x.parse::<f64>(), y.parse::<f64>()) {
                (Ok(x), Ok(y)) if x.is_finite() && y.is_finite() => Ok((x, y)),
                _ => Err(format!("bad polygon point {}", excerpt(pair))),
            }
        })
        .collect()
}

/// A `<tileset>` of a map: embedded, or a reference to a `.tsx` or `.tsj` file.
fn tileset_reference(
    element: &Element,
    folder: &Path,
    read: &mut u64,
) -> Result<Tileset, LevelError> {
    let first_gid: u32 = number(element, "tileset", "firstgid")?;
    let mut set = match element.attribute("source") {
        None => tsx::tileset(element, folder)?,
        Some(source) => external::tileset(folder, source, read)?,
    };
    set.first_gid = first_gid;
    Ok(set)
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::io::Write as _;

    use base64::Engine as _;

    use super::super::{LevelImport, LevelOptions, TerrainSource, read_level};
    use crate::format::LoadError;
    use crate::grid::Cell;

    /// A 4 × 3 map, its tileset of 4 tiles embedded, with this layer data element.
    fn map_with(data: &str, extra: &str) -> String {
        format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="4" height="3" tilewidth="16" tileheight="16" infinite="0">
 <tileset firstgid="1" name="ground" tilewidth="16" tileheight="16" tilecount="4" columns="2">
  <tile id="1" type="road"><properties><property name="cost" type="float" value="0.5"/></properties></tile>
  <tile id="2" type="road"/>
  <tile id="3"><properties><property name="walkable" type="bool" value="false"/></properties></tile>
 </tileset>
 <layer id="1" name="Ground" width="4" height="3">
  {data}
 </layer>
 {extra}
</map>"#
        )
    }

    fn read(
        dir: &std::path::Path,
        name: &str,
        text: &str,
        options: &LevelOptions,
    ) -> Result<LevelImport, LoadError> {
        let path = dir.join(name);
        fs::write(&path, text).unwrap();
        read_level(&path, options)
    }

    fn rows(import: &LevelImport) -> Vec<String> {
        let grid = &import.map.grid;
        grid.cells()
            .chunks(grid.width() as usize)
            .map(|row| row.iter().map(|&id| grid.terrain(id).symbol).collect())
            .collect()
    }

    const GIDS: [u32; 12] = [1, 1, 2, 3, 4, 4, 0, 1, 1, 2, 2, 1];

    fn le() -> Vec<u8> {
        GIDS.iter().flat_map(|g| g.to_le_bytes()).collect()
    }

    fn b64(bytes: &[u8]) -> String {
        base64::engine::general_purpose::STANDARD.encode(bytes)
    }

    #[test]
    fn every_encoding_reads_the_same_grid() {
        let dir = tempfile::tempdir().unwrap();
        let csv = GIDS.map(|g| g.to_string()).join(",");
        let tiles: String = GIDS
            .iter()
            .map(|g| format!("<tile gid=\"{g}\"/>"))
            .collect();
        let zlib = {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
            e.write_all(&le()).unwrap();
            e.finish().unwrap()
        };
        let gzip = {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            e.write_all(&le()).unwrap();
            e.finish().unwrap()
        };
        let zstd = ruzstd::encoding::compress_to_vec(
            &le()[..],
            ruzstd::encoding::CompressionLevel::Fastest,
        );
        let datas = [
            format!("<data encoding=\"csv\">\n{csv}\n</data>"),
            format!("<data>{tiles}</data>"),
            format!("<data encoding=\"base64\">\n {} \n</data>", b64(&le())),
            format!(
                "<data encoding=\"base64\" compression=\"zlib\">{}</data>",
                b64(&zlib)
            ),
            format!(
                "<data encoding=\"base64\" compression=\"gzip\">{}</data>",
                b64(&gzip)
            ),
            format!(
                "<data encoding=\"base64\" compression=\"zstd\">{}</data>",
                b64(&zstd)
            ),
        ];
        let mut first = None;
        for data in &datas {
            let import = read(
                dir.path(),
                "m.tmx",
                &map_with(data, ""),
                &LevelOptions::default(),
            )
            .unwrap();
            match &first {
                None => first = Some(import),
                Some(f) => assert_eq!(&import, f, "{data}"),
            }
        }
        let import = first.unwrap();
        let grid = &import.map.grid;
        let names: Vec<&str> = grid.terrains().iter().map(|t| t.name.as_str()).collect();
        // The floor of the empty cell, then tiles in the order met; tiles 1 and 2 share a class.
        assert_eq!(names, ["floor", "ground:0", "road", "ground:3"]);
        assert_eq!(grid.terrains()[2].cost, Some(0.5));
        assert_eq!(grid.terrains()[3].cost, None);
        assert_eq!(import.sources[2], TerrainSource::Class("road".to_owned()));
        assert_eq!(rows(&import), ["aabb", "cc.a", "abba"]);
    }

    #[test]
    fn flip_bits_are_cleared() {
        let dir = tempfile::tempdir().unwrap();
        let flipped: Vec<String> = GIDS
            .iter()
            .enumerate()
            .map(|(i, &g)| {
                if g == 0 {
                    "0".to_owned()
                } else {
                    (g | [0x8000_0000, 0x4000_0000, 0x2000_0000, 0x1000_0000][i % 4]).to_string()
                }
            })
            .collect();
        let plain = read(
            dir.path(),
            "a.tmx",
            &map_with(
                &format!(
                    "<data encoding=\"csv\">{}</data>",
                    GIDS.map(|g| g.to_string()).join(",")
                ),
                "",
            ),
            &LevelOptions::default(),
        )
        .unwrap();
        let flips = read(
            dir.path(),
            "b.tmx",
            &map_with(
                &format!("<data encoding=\"csv\">{}</data>", flipped.join(",")),
                "",
            ),
            &LevelOptions::default(),
        )
        .unwrap();
        assert_eq!(plain.map.grid, flips.map.grid);
    }

    #[test]
    fn an_infinite_map_covers_the_bounding_box_of_its_chunks() {
        let dir = tempfile::tempdir().unwrap();
        let text = r#"<map orientation="orthogonal" width="10" height="10" tilewidth="8" tileheight="8" infinite="1">
 <tileset firstgid="1" name="t" tilewidth="8" tileheight="8" tilecount="2" columns="2"/>
 <layer name="A" width="10" height="10"><data encoding="csv">
  <chunk x="-2" y="0" width="2" height="2">1,1,1,1</chunk>
  <chunk x="16" y="16" width="2" height="2">0,0,0,0</chunk>
  <chunk x="2" y="2" width="2" height="2">2,0,0,2</chunk>
 </data></layer>
 <objectgroup name="markers"><object name="Start" x="-12" y="4"><point/></object><object type="goal" x="28" y="28"><point/></object></objectgroup>
</map>"#;
        let import = read(dir.path(), "inf.tmx", text, &LevelOptions::default()).unwrap();
        // x from -2 to 4, y from 0 to 4; the empty chunk far away does not count. Cells in no
        // chunk are outside (`_`), empty cells of a chunk floor.
        assert_eq!(rows(&import), ["aa____", "aa____", "____b.", "____.b"]);
        assert_eq!(import.map.start, Some(Cell::new(0, 0)));
        assert_eq!(import.map.goal, Some(Cell::new(5, 3)));
        // A chunk too big is refused before decoding.
        let huge = text.replace(
            r#"<chunk x="2" y="2" width="2" height="2">"#,
            r#"<chunk x="2" y="2" width="40000" height="2">"#,
        );
        let e = read(dir.path(), "inf2.tmx", &huge, &LevelOptions::default()).unwrap_err();
        assert!(
            e.to_string()
                .contains("layer \"A\", chunk at (2, 2): it is 40000 × 2 tiles"),
            "{e}"
        );
    }

    #[test]
    fn an_external_tileset_is_read_beside_the_map_and_group_layers_are_descended() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("sets")).unwrap();
        fs::write(
            dir.path().join("sets/walls.tsx"),
            r##"<?xml version="1.0"?>
<tileset name="walls" tilewidth="16" tileheight="16" tilecount="2" columns="2">
 <tile id="0" class="stone"><properties><property name="solid" type="bool" value="true"/></properties></tile>
 <tile id="1"><properties><property name="name" value="mud"/><property name="cost" type="int" value="3"/><property name="color" type="color" value="#ff804020"/></properties></tile>
</tileset>"##,
        )
        .unwrap();
        let text = r#"<map orientation="orthogonal" width="3" height="1" tilewidth="16" tileheight="16">
 <tileset firstgid="1" name="floor" tilewidth="16" tileheight="16" tilecount="1" columns="1"/>
 <tileset firstgid="2" source="sets/walls.tsx"/>
 <layer name="base" width="3" height="1"><data encoding="csv">1,1,1</data></layer>
 <group name="upper">
  <group name="deeper"><layer name="mud" width="3" height="1"><data encoding="csv">0,3,0</data></layer></group>
  <group name="hidden" visible="0"><layer name="ghost" width="3" height="1"><data encoding="csv">2,2,2</data></layer></group>
 </group>
 <layer name="top" width="3" height="1"><data encoding="csv">0,0,2</data></layer>
</map>"#;
        let import = read(dir.path(), "m.tmx", text, &LevelOptions::default()).unwrap();
        let grid = &import.map.grid;
        let t: Vec<(&str, Option<f64>)> = grid
            .terrains()
            .iter()
            .map(|t| (t.name.as_str(), t.cost))
            .collect();
        assert_eq!(
            t,
            [("floor:0", Some(1.0)), ("mud", Some(3.0)), ("stone", None)]
        );
        assert_eq!(
            grid.terrains()[1].color,
            crate::grid::Rgb([0x80, 0x40, 0x20])
        );
        assert_eq!(grid.cells(), [0, 1, 2]);
        assert_eq!(import.layers, ["base", "mud", "ghost", "top"]);
        // A layer chosen by name decides alone, hidden or not.
        let ghost = read_level(
            &dir.path().join("m.tmx"),
            &LevelOptions {
                layer: Some("ghost".to_owned()),
                level: None,
            },
        )
        .unwrap();
        assert_eq!(ghost.map.grid.cells(), [0, 0, 0]);
        assert_eq!(ghost.layer.as_deref(), Some("ghost"));
        let e = read_level(
            &dir.path().join("m.tmx"),
            &LevelOptions {
                layer: Some("sky".to_owned()),
                level: None,
            },
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .contains("no layer \"sky\": the layers are \"base\", \"mud\", \"ghost\", \"top\""),
            "{e}"
        );

        // A missing tileset file is named.
        fs::remove_file(dir.path().join("sets/walls.tsx")).unwrap();
        let e = read_level(&dir.path().join("m.tmx"), &LevelOptions::default()).unwrap_err();
        assert!(
            e.to_string().contains("walls.tsx: cannot read the file"),
            "{e}"
        );
        // So is a folder where the tileset should be.
        fs::create_dir(dir.path().join("sets/walls.tsx")).unwrap();
        let e = read_level(&dir.path().join("m.tmx"), &LevelOptions::default()).unwrap_err();
        assert!(
            e.to_string().contains("a folder, not a regular file"),
            "{e}"
        );
    }

    #[test]
    fn a_collision_layer_makes_walls_over_the_visible_layers() {
        let dir = tempfile::tempdir().unwrap();
        let extra = r#"<layer name="Collisions" width="4" height="3" visible="0"><data encoding="csv">0,0,0,0, 0,1,1,0, 0,0,0,0</data></layer>"#;
        let data = "<data encoding=\"csv\">1,1,1,1,1,1,1,1,1,1,1,1</data>";
        let import = read(
            dir.path(),
            "m.tmx",
            &map_with(data, extra),
            &LevelOptions::default(),
        )
        .unwrap();
        assert_eq!(rows(&import), ["aaaa", "a##a", "aaaa"]);
        assert_eq!(import.layer.as_deref(), Some("Collisions"));
        assert_eq!(
            import.sources[1],
            TerrainSource::Wall {
                from: "layer \"Collisions\"".to_owned()
            }
        );
        assert!(!import.map.grid.terrains()[1].is_passable());
        // A Tiled map is one level.
        let options = LevelOptions {
            level: Some("Second".to_owned()),
            layer: None,
        };
        let e = read_level(&dir.path().join("m.tmx"), &options).unwrap_err();
        assert!(
            e.to_string()
                .contains("no level \"Second\": the levels are none"),
            "{e}"
        );
    }

    #[test]
    fn solid_objects_are_rasterised_by_cell_centre() {
        let dir = tempfile::tempdir().unwrap();
        let data = "<data encoding=\"csv\">1,1,1,1,1,1,1,1,1,1,1,1</data>";
        let solid =
            r#"<properties><property name="collides" type="bool" value="true"/></properties>"#;
        let extra = format!(
            r#"<objectgroup name="things">
  <object id="1" x="0" y="0" width="20" height="10">{solid}</object>
  <object id="2" x="64" y="16"><polygon points="0,0 0,32 -32,32"/>{solid}</object>
  <object id="3" x="0" y="0" width="64" height="48"/>
  <object id="4" name="start" x="8" y="40"><point/></object>
 </objectgroup>"#
        );
        let import = read(
            dir.path(),
            "m.tmx",
            &map_with(data, &extra),
            &LevelOptions::default(),
        )
        .unwrap();
        // The rectangle covers the centre (8, 8) only; the triangle the centres below its
        // diagonal; the object without properties nothing.
        assert_eq!(rows(&import), ["#aaa", "aaa#", "aa##"]);
        assert_eq!(import.map.start, Some(Cell::new(0, 2)));
        // A rectangle turned 90° clockwise about its origin.
        let turned = format!(
            r#"<objectgroup><object x="32" y="0" width="48" height="16" rotation="90">{solid}</object></objectgroup>"#
        );
        let import = read(
            dir.path(),
            "t.tmx",
            &map_with(data, &turned),
            &LevelOptions::default(),
        )
        .unwrap();
        assert_eq!(rows(&import), ["a#aa", "a#aa", "a#aa"]);
    }

    #[test]
    fn hostile_and_broken_files_are_clear_errors() {
        let dir = tempfile::tempdir().unwrap();
        let csv = "<data encoding=\"csv\">1,1,1,1,1,1,1,1,1,1,1,1</data>";
        let check = |name: &str, text: String, wanted: &str| {
            let e = read(dir.path(), name, &text, &LevelOptions::default()).unwrap_err();
            assert!(e.to_string().contains(wanted), "{name}: {e}");
            assert!(e.to_string().contains(name), "{e}");
        };
        check(
            "huge.tmx",
            map_with(csv, "").replace(
                "width=\"4\" height=\"3\" tilewidth",
                "width=\"100000\" height=\"3\" tilewidth",
            ),
            "100000 × 3 tiles",
        );
        check(
            "big_layer.tmx",
            map_with("<data encoding=\"csv\">1</data>", "").replace(
                "name=\"Ground\" width=\"4\" height=\"3\"",
                "name=\"Ground\" width=\"8192\" height=\"8192\"",
            ),
            "layer \"Ground\": the CSV data holds 1 tiles, expected 67108864",
        );
        check(
            "gid.tmx",
            map_with(
                "<data encoding=\"csv\">1,1,1,1,1,1,1,1,1,1,1,912</data>",
                "",
            ),
            "layer \"Ground\": tile 912 belongs to no tileset",
        );
        check(
            "iso.tmx",
            map_with(csv, "").replace("orthogonal", "isometric"),
            "orientation is \"isometric\"",
        );
        check(
            "bad.tmx",
            map_with(csv, "").replace("</layer>", ""),
            "malformed XML",
        );
        check(
            "cost.tmx",
            map_with(&csv.replacen('1', "2", 1), "").replace("value=\"0.5\"", "value=\"-1\""),
            "tileset \"ground\", tile 1: cost",
        );
        check(
            "enc.tmx",
            map_with("<data encoding=\"base32\">AAAA</data>", ""),
            "unknown encoding \"base32\"",
        );
        check(
            "nowidth.tmx",
            map_with(csv, "").replace(" tilewidth=\"16\" tileheight=\"16\" infinite", " infinite"),
            "has no \"tilewidth\"",
        );
        check(
            "missing.tmx",
            map_with(csv, "<tileset firstgid=\"9\" source=\"../nowhere.tsx\"/>"),
            "nowhere.tsx",
        );
    }

    #[cfg(feature = "images")]
    #[test]
    fn a_tiles_colour_is_the_mean_of_its_image_region() {
        let dir = tempfile::tempdir().unwrap();
        let mut image = image::RgbaImage::new(9, 4);
        for (x, _, p) in image.enumerate_pixels_mut() {
            *p = match x {
                0..4 => image::Rgba([200, 0, 0, 255]),
                4 => image::Rgba([0, 0, 0, 0]),
                _ => image::Rgba([0, 0, if x % 2 == 0 { 100 } else { 200 }, 255]),
            };
        }
        image.save(dir.path().join("set.png")).unwrap();
        let text = r#"<map orientation="orthogonal" width="2" height="1" tilewidth="4" tileheight="4">
 <tileset firstgid="1" name="s" tilewidth="4" tileheight="4" spacing="1" tilecount="2" columns="2"><image source="set.png" width="9" height="4"/></tileset>
 <layer name="l" width="2" height="1"><data encoding="csv">1,2</data></layer>
</map>"#;
        let import = read(dir.path(), "m.tmx", text, &LevelOptions::default()).unwrap();
        let colors: Vec<[u8; 3]> = import
            .map
            .grid
            .terrains()
            .iter()
            .map(|t| t.color.0)
            .collect();
        assert_eq!(colors, [[200, 0, 0], [0, 0, 150]]);
    }
}
