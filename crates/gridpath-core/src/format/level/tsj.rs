//! Tiled's JSON tilesets (embedded in a `.tmj` or alone in a `.tsj`) and the property and
//! error readers the JSON front end shares.

use std::path::Path;

use serde::Deserialize;

use super::LevelError;
use super::tiled::{Properties, TileInfo, Tileset, Value};
use crate::format::FormatError;

#[derive(Deserialize, Default)]
#[serde(default)]
pub(super) struct RawTileset {
    pub(super) firstgid: u32,
    pub(super) source: Option<String>,
    pub(super) name: String,
    pub(super) tilecount: u32,
    pub(super) columns: u32,
    pub(super) tilewidth: u32,
    pub(super) tileheight: u32,
    pub(super) margin: u32,
    pub(super) spacing: u32,
    pub(super) image: Option<String>,
    pub(super) transparentcolor: Option<String>,
    pub(super) tiles: Vec<RawTile>,
    pub(super) properties: Vec<RawProperty>,
}

#[derive(Deserialize)]
pub(super) struct RawTile {
    id: u32,
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    class: Option<String>,
    #[serde(default)]
    properties: Vec<RawProperty>,
    #[serde(default)]
    image: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct RawProperty {
    name: String,
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    value: serde_json::Value,
}

/// Parses an external `.tsj` tileset; its image is resolved beside `folder`.
pub(super) fn tileset_file(text: &str, folder: &Path) -> Result<Tileset, FormatError> {
    let raw: RawTileset = json(text)?;
    Ok(tileset(raw, folder)?)
}

pub(super) fn json<T: for<'de> Deserialize<'de>>(text: &str) -> Result<T, FormatError> {
    serde_json::from_str(text).map_err(|e| {
        let message = e.to_string();
        let message = match message.rfind(" at line ") {
            Some(i) => message[..i].to_owned(),
            None => message,
        };
        FormatError::Json {
            line: e.line(),
            column: e.column(),
            message: crate::format::shorten(&message, crate::format::MAX_PARSER_MESSAGE),
        }
    })
}

pub(super) fn tileset(raw: RawTileset, folder: &Path) -> Result<Tileset, LevelError> {
    let place = format!("tileset {:?}", raw.name);
    let trans = match &raw.transparentcolor {
        None => None,
        Some(t) => Some(
            super::catalog::parse_color(t).ok_or_else(|| LevelError::Field {
                place: place.clone(),
                message: format!("transparentcolor {t:?} is not a colour"),
            })?,
        ),
    };
    let mut set = Tileset {
        first_gid: raw.firstgid,
        tile_count: raw.tilecount,
        columns: raw.columns,
        tile_width: raw.tilewidth,
        tile_height: raw.tileheight,
        margin: raw.margin,
        spacing: raw.spacing,
        image: raw.image.map(|s| folder.join(s)),
        trans,
        properties: properties(raw.properties, &place)?,
        name: raw.name,
        ..Tileset::default()
    };
    for tile in raw.tiles {
        let class = tile.kind.or(tile.class).filter(|c| !c.is_empty());
        let properties = properties(tile.properties, &place)?;
        let image = tile.image.map(|s| folder.join(s));
        set.tiles.insert(
            tile.id,
            TileInfo {
                class,
                properties,
                image,
            },
        );
    }
    Ok(set)
}

pub(super) fn properties(raw: Vec<RawProperty>, place: &str) -> Result<Properties, LevelError> {
    let mut out = Properties::new();
    for property in raw {
        let value = match (property.kind.as_deref(), property.value) {
            (_, serde_json::Value::Bool(b)) => Value::Bool(b),
            (_, serde_json::Value::Number(n)) => Value::Number(n.as_f64().unwrap_or(f64::NAN)),
            (Some("int" | "float"), other) => {
                return Err(LevelError::Field {
                    place: place.to_owned(),
                    message: format!("property {:?} is {other}, not a number", property.name),
                });
            }
            (_, serde_json::Value::String(s)) => Value::Text(s),
            (_, other) => Value::Text(other.to_string()),
        };
        out.insert(property.name, value);
    }
    Ok(out)
}
