//! Tiled's JSON map format (`.tmj`, also `.json` inside Tiled) and its external tilesets
//! (`.tsj`), read into the shared [`TiledMap`] model. Unknown fields are ignored.

use std::path::Path;

use serde::Deserialize;

use super::data::{self, Compression, Encoding};
use super::tiled::{
    Chunk, Content, Layer, MAX_GROUP_DEPTH, Object, ObjectBudget, Shape, TileBudget, TiledMap,
    Tileset,
};
use super::tsj::{self, RawProperty, RawTileset, json, properties};
use super::{LevelError, external};
use crate::format::FormatError;

#[derive(Deserialize)]
struct RawMap {
    #[serde(default = "orthogonal")]
    orientation: String,
    #[serde(default)]
    width: u64,
    #[serde(default)]
    height: u64,
    tilewidth: f64,
    tileheight: f64,
    #[serde(default)]
    infinite: bool,
    #[serde(default)]
    staggeraxis: Option<String>,
    #[serde(default)]
    staggerindex: Option<String>,
    #[serde(default)]
    hexsidelength: f64,
    #[serde(default)]
    tilesets: Vec<RawTileset>,
    #[serde(default)]
    layers: Vec<RawLayer>,
    #[serde(default)]
    properties: Vec<RawProperty>,
}

fn orthogonal() -> String {
    "orthogonal".to_owned()
}

#[derive(Deserialize)]
struct RawLayer {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    class: Option<String>,
    #[serde(default = "yes")]
    visible: bool,
    #[serde(default)]
    width: u64,
    #[serde(default)]
    height: u64,
    #[serde(default)]
    encoding: Option<String>,
    #[serde(default)]
    compression: Option<String>,
    #[serde(default)]
    data: Option<RawData>,
    #[serde(default)]
    chunks: Vec<RawChunk>,
    #[serde(default)]
    objects: Vec<RawObject>,
    #[serde(default)]
    layers: Vec<RawLayer>,
}

fn yes() -> bool {
    true
}

/// Layer data: an array of ids (CSV) or a base64 string.
#[derive(Deserialize)]
#[serde(untagged)]
enum RawData {
    Ids(Vec<u32>),
    Text(String),
}

#[derive(Deserialize)]
struct RawChunk {
    x: i64,
    y: i64,
    width: u64,
    height: u64,
    data: RawData,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct RawObject {
    name: String,
    #[serde(rename = "type")]
    kind: Option<String>,
    class: Option<String>,
    x: f64,
    y: f64,
    width: f64,
    height: f64,
    rotation: f64,
    point: bool,
    ellipse: bool,
    polygon: Option<Vec<RawPoint>>,
    polyline: Option<serde_json::Value>,
    text: Option<serde_json::Value>,
    gid: Option<u32>,
    properties: Vec<RawProperty>,
}

#[derive(Deserialize)]
struct RawPoint {
    x: f64,
    y: f64,
}

/// Parses a `.tmj` map; external tilesets are read from `folder`.
pub fn parse(text: &str, folder: &Path) -> Result<TiledMap, FormatError> {
    let raw: RawMap = json(text)?;
    let mut map = TiledMap {
        orientation: raw.orientation,
        width: raw.width,
        height: raw.height,
        tile_width: raw.tilewidth,
        tile_height: raw.tileheight,
        infinite: raw.infinite,
        stagger_axis: raw.staggeraxis,
        stagger_index: raw.staggerindex,
        hex_side_length: raw.hexsidelength,
        properties: properties(raw.properties, "map")?,
        ..TiledMap::default()
    };
    let mut read = 0;
    for set in raw.tilesets {
        map.tilesets
            .push(tileset_reference(set, folder, &mut read)?);
    }
    map.tilesets.sort_by_key(|t| t.first_gid);
    let mut budget = TileBudget::default();
    let mut objects = ObjectBudget::default();
    layers(
        raw.layers,
        true,
        0,
        (&mut budget, &mut objects),
        &mut map.layers,
    )?;
    Ok(map)
}

fn tileset_reference(
    raw: RawTileset,
    folder: &Path,
    read: &mut u64,
) -> Result<Tileset, LevelError> {
    let first_gid = raw.firstgid;
    let mut set = match raw.source.clone() {
        None => tsj::tileset(raw, folder)?,
        Some(source) => external::tileset(folder, &source, read)?,
    };
    set.first_gid = first_gid;
    Ok(set)
}

fn layers(
    raw: Vec<RawLayer>,
    visible: bool,
    depth: usize,
    (budget, objects): (&mut TileBudget, &mut ObjectBudget),
    out: &mut Vec<Layer>,
) -> Result<(), LevelError> {
    if depth > MAX_GROUP_DEPTH {
        return Err(LevelError::Field {
            place: "map".to_owned(),
            message: format!("group layers nested more than {MAX_GROUP_DEPTH} deep"),
        });
    }
    for layer in raw {
        let seen = visible && layer.visible;
        let content = match layer.kind.as_str() {
            "tilelayer" => Content::Tiles(tile_data(&layer, budget)?),
            "objectgroup" => Content::Objects(
                layer
                    .objects
                    .into_iter()
                    .map(|o| {
                        let place = format!("layer {:?}, object {:?}", layer.name, o.name);
                        objects.take(&place, o.polygon.as_ref().map_or(0, Vec::len))?;
                        object(o, &layer.name)
                    })
                    .collect::<Result<_, _>>()?,
            ),
            "group" => {
                layers(layer.layers, seen, depth + 1, (budget, objects), out)?;
                continue;
            }
            _ => continue,
        };
        out.push(Layer {
            name: layer.name,
            class: layer.class,
            visible: seen,
            content,
        });
    }
    Ok(())
}

fn tile_data(layer: &RawLayer, budget: &mut TileBudget) -> Result<Vec<Chunk>, LevelError> {
    let name = layer.name.as_str();
    let fail = |chunk, message| LevelError::LayerData {
        layer: name.to_owned(),
        chunk,
        message,
    };
    let encoding = match layer.encoding.as_deref() {
        None => Encoding::Csv,
        Some(e) => Encoding::parse(e).map_err(|m| fail(None, m))?,
    };
    let compression = Compression::parse(layer.compression.as_deref().unwrap_or(""))
        .map_err(|m| fail(None, m))?;
    let decode = |data: &RawData, chunk, count: usize| match (data, encoding) {
        (RawData::Ids(ids), Encoding::Csv) => {
            if ids.len() != count {
                return Err(fail(
                    chunk,
                    format!("{} tiles, expected {count}", ids.len()),
                ));
            }
            Ok(data::clear_flips(ids.clone()))
        }
        (RawData::Text(text), Encoding::Base64) => {
            data::decode(text, encoding, compression, count).map_err(|m| fail(chunk, m))
        }
        _ => Err(fail(
            chunk,
            "the data does not match the encoding (an array for csv, a string for base64)"
                .to_owned(),
        )),
    };
    if let Some(data) = &layer.data {
        let count = budget.take(name, None, layer.width, layer.height)?;
        return Ok(vec![Chunk {
            x: 0,
            y: 0,
            width: layer.width as u32,
            height: layer.height as u32,
            gids: decode(data, None, count)?,
        }]);
    }
    let mut out = Vec::with_capacity(layer.chunks.len());
    for chunk in &layer.chunks {
        let at = Some((chunk.x, chunk.y));
        let count = budget.take(name, at, chunk.width, chunk.height)?;
        out.push(Chunk {
            x: chunk.x,
            y: chunk.y,
            width: chunk.width as u32,
            height: chunk.height as u32,
            gids: decode(&chunk.data, at, count)?,
        });
    }
    Ok(out)
}

fn object(raw: RawObject, layer: &str) -> Result<Object, LevelError> {
    let shape = if raw.point {
        Shape::Point
    } else if raw.ellipse {
        Shape::Ellipse
    } else if let Some(points) = raw.polygon {
        Shape::Polygon(points.into_iter().map(|p| (p.x, p.y)).collect())
    } else if raw.gid.is_some() {
        Shape::Tile
    } else if raw.polyline.is_some() || raw.text.is_some() {
        Shape::Other
    } else {
        Shape::Rectangle
    };
    Ok(Object {
        class: raw.kind.or(raw.class).filter(|c| !c.is_empty()),
        x: raw.x,
        y: raw.y,
        width: raw.width,
        height: raw.height,
        rotation: raw.rotation,
        shape,
        properties: properties(
            raw.properties,
            &format!("layer {layer:?}, object {:?}", raw.name),
        )?,
        name: raw.name,
    })
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::io::Write as _;

    use base64::Engine as _;

    use super::super::{LevelOptions, read_level};
    use crate::grid::Cell;

    #[test]
    fn base64_chunks_an_external_tsj_groups_and_markers() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(
            dir.path().join("set.tsj"),
            r#"{"name": "set", "tilecount": 2, "columns": 2, "tilewidth": 16, "tileheight": 16,
                "tiles": [{"id": 1, "type": "water", "properties": [{"name": "cost", "type": "float", "value": 4.5}]}]}"#,
        )
        .unwrap();
        let zlib = |gids: &[u32]| {
            let bytes: Vec<u8> = gids.iter().flat_map(|g| g.to_le_bytes()).collect();
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(&bytes).unwrap();
            base64::engine::general_purpose::STANDARD.encode(e.finish().unwrap())
        };
        let text = format!(
            r#"{{"type": "map", "orientation": "orthogonal", "infinite": true, "width": 0, "height": 0,
  "tilewidth": 16, "tileheight": 16, "unknown": [1, 2],
  "tilesets": [{{"firstgid": 1, "source": "set.tsj"}}],
  "layers": [
    {{"type": "group", "name": "g", "layers": [
      {{"type": "tilelayer", "name": "ground", "encoding": "base64", "compression": "zlib",
        "chunks": [{{"x": 0, "y": 0, "width": 2, "height": 1, "data": "{}"}},
                   {{"x": 2, "y": 0, "width": 2, "height": 1, "data": "{}"}}]}}]}},
    {{"type": "objectgroup", "name": "o", "objects": [
      {{"name": "start", "point": true, "x": 1, "y": 1}},
      {{"name": "goal", "type": "", "x": 48, "y": 0, "width": 16, "height": 16}},
      {{"name": "rock", "x": 16, "y": 0, "width": 16, "height": 16,
        "properties": [{{"name": "solid", "type": "bool", "value": true}}]}}]}}]}}"#,
            zlib(&[1, 2]),
            zlib(&[0x8000_0002, 1])
        );
        let path = dir.path().join("m.tmj");
        fs::write(&path, text).unwrap();
        let import = read_level(&path, &LevelOptions::default()).unwrap();
        let grid = &import.map.grid;
        let names: Vec<(&str, Option<f64>)> = grid
            .terrains()
            .iter()
            .map(|t| (t.name.as_str(), t.cost))
            .collect();
        assert_eq!(
            names,
            [("set:0", Some(1.0)), ("water", Some(4.5)), ("wall", None)]
        );
        assert_eq!(grid.cells(), [0, 2, 1, 0]);
        assert_eq!(import.map.start, Some(Cell::new(0, 0)));
        assert_eq!(import.map.goal, Some(Cell::new(3, 0)));
    }

    #[test]
    fn broken_json_names_the_place() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.tmj");
        let map = |layer: &str| {
            format!(
                r#"{{"orientation": "orthogonal", "width": 2, "height": 1, "tilewidth": 8, "tileheight": 8,
  "tilesets": [{{"firstgid": 1, "name": "t", "tilecount": 1}}], "layers": [{layer}]}}"#
            )
        };
        let check = |text: String, wanted: &str| {
            fs::write(&path, text).unwrap();
            let e = read_level(&path, &LevelOptions::default()).unwrap_err();
            assert!(e.to_string().contains(wanted), "{e}");
        };
        check(
            map(r#"{"type": "tilelayer", "name": "L", "width": 2, "height": 1, "data": [1]}"#),
            "layer \"L\": 1 tiles, expected 2",
        );
        check(
            map(r#"{"type": "tilelayer", "name": "L", "width": 2, "height": 1, "data": [1, 5]}"#),
            "layer \"L\": tile 5 belongs to no tileset",
        );
        check(
            map(r#"{"type": "tilelayer", "name": "L", "width": 2, "height": 1, "data": "AAAA"}"#),
            "does not match the encoding",
        );
        check(
            map(r#"{"type": "tilelayer", "name": "L", "width": 2, "height": 1, "data": [1, 1],}"#),
            "line 2",
        );
        check(
            map(
                r#"{"type": "tilelayer", "name": "L", "width": 40000, "height": 9000, "data": [1]}"#,
            ),
            "40000 × 9000",
        );
    }
}
