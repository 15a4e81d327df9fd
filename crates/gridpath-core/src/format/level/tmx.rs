//! Tiled's XML map format (`.tmx`) and its external tilesets (`.tsx`), read into the shared
//! [`TiledMap`] model.

use std::path::Path;

use super::data::{self, Compression, Encoding};
use super::tiled::{
    Chunk, Content, Layer, MAX_GROUP_DEPTH, Object, Properties, Shape, TileBudget, TileInfo,
    TiledMap, Tileset, Value,
};
use super::xml::{self, Element};
use super::{LevelError, read_beside, tmj};
use crate::format::FormatError;

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
        ..TiledMap::default()
    };
    for element in root.children("tileset") {
        map.tilesets.push(tileset_reference(element, folder)?);
    }
    map.tilesets.sort_by_key(|t| t.first_gid);
    let mut budget = TileBudget::default();
    layers(root, true, 0, &mut budget, &mut map.layers)?;
    Ok(map)
}

/// The layers among an element's children, descending into groups.
fn layers(
    parent: &Element,
    visible: bool,
    depth: usize,
    budget: &mut TileBudget,
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
                    .map(object)
                    .collect::<Result<_, _>>()?,
            ),
            "group" => {
                layers(element, seen, depth + 1, budget, out)?;
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
                let gids: Vec<u32> = element
                    .children("tile")
                    .map(|t| t.attribute("gid").map_or(Ok(0), str::parse::<u32>))
                    .collect::<Result<_, _>>()
                    .map_err(|e| fail(chunk, format!("bad <tile gid>: {e}")))?;
                if gids.len() != count {
                    return Err(fail(
                        chunk,
                        format!("{} <tile>s, expected {count}", gids.len()),
                    ));
                }
                Ok(data::clear_flips(gids))
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
    } else if element.child("polyline").is_some()
        || element.child("text").is_some()
        || element.attribute("gid").is_some()
    {
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
                .ok_or_else(|| format!("bad polygon point {pair:?}"))?;
            match (x.parse::<f64>(), y.parse::<f64>()) {
                (Ok(x), Ok(y)) if x.is_finite() && y.is_finite() => Ok((x, y)),
                _ => Err(format!("bad polygon point {pair:?}")),
            }
        })
        .collect()
}

/// A `<tileset>` of a map: embedded, or a reference to a `.tsx` or `.tsj` file.
fn tileset_reference(element: &Element, folder: &Path) -> Result<Tileset, LevelError> {
    let first_gid: u32 = number(element, "tileset", "firstgid")?;
    let Some(source) = element.attribute("source") else {
        let mut set = tileset(element, folder)?;
        set.first_gid = first_gid;
        return Ok(set);
    };
    let (path, text) = read_beside(folder, source)?;
    let beside = path.parent().unwrap_or(Path::new("")).to_owned();
    let external = |message: String| LevelError::External {
        path: path.clone(),
        message,
    };
    let is_json = Path::new(source)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("tsj") || e.eq_ignore_ascii_case("json"));
    let mut set = if is_json {
        tmj::tileset_file(&text, &beside).map_err(|e| external(e.to_string()))?
    } else {
        let root = xml::parse(&text).map_err(|e| external(e.to_string()))?;
        tileset(&root, &beside).map_err(|e| external(e.to_string()))?
    };
    set.first_gid = first_gid;
    Ok(set)
}

/// The tiles of a `<tileset>` element; its image resolved beside `folder`.
pub fn tileset(element: &Element, folder: &Path) -> Result<Tileset, LevelError> {
    let name = element.attribute("name").unwrap_or("").to_owned();
    let place = format!("tileset {name:?}");
    let optional = |attribute: &str| -> Result<u32, LevelError> {
        match element.attribute(attribute) {
            None => Ok(0),
            Some(_) => number(element, &place, attribute),
        }
    };
    let mut set = Tileset {
        tile_count: optional("tilecount")?,
        columns: optional("columns")?,
        tile_width: optional("tilewidth")?,
        tile_height: optional("tileheight")?,
        margin: optional("margin")?,
        spacing: optional("spacing")?,
        image: element
            .child("image")
            .and_then(|i| i.attribute("source"))
            .map(|s| folder.join(s)),
        properties: properties(element)?,
        name,
        ..Tileset::default()
    };
    for tile in element.children("tile") {
        let id: u32 = number(tile, &place, "id")?;
        let class = tile
            .attribute("type")
            .or_else(|| tile.attribute("class"))
            .filter(|c| !c.is_empty())
            .map(str::to_owned);
        set.tiles.insert(
            id,
            TileInfo {
                class,
                properties: properties(tile)?,
            },
        );
    }
    Ok(set)
}

/// The `<properties>` of an element.
fn properties(element: &Element) -> Result<Properties, LevelError> {
    let mut out = Properties::new();
    let Some(list) = element.child("properties") else {
        return Ok(out);
    };
    for property in list.children("property") {
        let Some(name) = property.attribute("name") else {
            continue;
        };
        let raw = property
            .attribute("value")
            .unwrap_or(property.text.as_str());
        let value = match property.attribute("type").unwrap_or("string") {
            "bool" => Value::Bool(raw == "true"),
            "int" | "float" => Value::Number(raw.trim().parse::<f64>().map_err(|_| {
                field(
                    &format!("property {name:?}"),
                    format!("{raw:?} is not a number"),
                )
            })?),
            _ => Value::Text(raw.to_owned()),
        };
        out.insert(name.to_owned(), value);
    }
    Ok(out)
}

/// A required numeric attribute.
fn number<T: std::str::FromStr>(
    element: &Element,
    place: &str,
    attribute: &str,
) -> Result<T, LevelError> {
    let Some(text) = element.attribute(attribute) else {
        return Err(field(
            place,
            format!(
                "<{}> (line {}) has no {attribute:?}",
                element.name, element.line
            ),
        ));
    };
    // Tiled writes whole numbers; older files may hold "16.0" for a size.
    text.parse::<T>()
        .or_else(|_| match text.strip_suffix(".0") {
            Some(whole) => whole.parse::<T>().map_err(|_| ()),
            None => Err(()),
        })
        .map_err(|()| {
            field(
                place,
                format!(
                    "<{}> (line {}): {attribute}={text:?} is not a valid number",
                    element.name, element.line
                ),
            )
        })
}

fn field(place: &str, message: String) -> LevelError {
    LevelError::Field {
        place: place.to_owned(),
        message,
    }
}
