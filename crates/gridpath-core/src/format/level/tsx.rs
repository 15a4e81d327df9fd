//! Tiled's XML tilesets (`<tileset>`, embedded in a `.tmx` or alone in a `.tsx`) and the
//! attribute and property readers the XML front end shares.

use std::path::Path;

use super::tiled::{Properties, TileInfo, Tileset, Value};
use super::xml::Element;
use super::{LevelError, catalog};
use crate::format::excerpt;

/// The tiles of a `<tileset>` element; its image resolved beside `folder`.
pub(super) fn tileset(element: &Element, folder: &Path) -> Result<Tileset, LevelError> {
    let name = element.attribute("name").unwrap_or("").to_owned();
    let place = format!("tileset {name:?}");
    let optional = |attribute: &str| -> Result<u32, LevelError> {
        match element.attribute(attribute) {
            None => Ok(0),
            Some(_) => number(element, &place, attribute),
        }
    };
    let image = element.child("image");
    let trans = match image.and_then(|i| i.attribute("trans")) {
        None => None,
        Some(t) => Some(
            catalog::parse_color(t)
                .ok_or_else(|| field(&place, format!("<image> trans={t:?} is not a colour")))?,
        ),
    };
    let mut set = Tileset {
        tile_count: optional("tilecount")?,
        columns: optional("columns")?,
        tile_width: optional("tilewidth")?,
        tile_height: optional("tileheight")?,
        margin: optional("margin")?,
        spacing: optional("spacing")?,
        image: image
            .and_then(|i| i.attribute("source"))
            .map(|s| folder.join(s)),
        trans,
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
                image: tile
                    .child("image")
                    .and_then(|i| i.attribute("source"))
                    .map(|s| folder.join(s)),
            },
        );
    }
    Ok(set)
}

/// The `<properties>` of an element.
pub(super) fn properties(element: &Element) -> Result<Properties, LevelError> {
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
                    &format!("property {}", excerpt(name)),
                    format!("{} is not a number", excerpt(raw)),
                )
            })?),
            _ => Value::Text(raw.to_owned()),
        };
        out.insert(name.to_owned(), value);
    }
    Ok(out)
}

/// A required numeric attribute.
pub(super) fn number<T: std::str::FromStr>(
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
                    "<{}> (line {}): {attribute}={} is not a valid number",
                    element.name,
                    element.line,
                    excerpt(text)
                ),
            )
        })
}

pub(super) fn field(place: &str, message: String) -> LevelError {
    LevelError::Field {
        place: place.to_owned(),
        message,
    }
}
