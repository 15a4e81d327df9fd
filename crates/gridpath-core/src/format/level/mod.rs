//! Level designers' files: Tiled maps (`.tmx`, `.tmj`) and LDtk projects (`.ldtk`) read as
//! gridpath maps, and gridpath maps written as Tiled maps.
//!
//! [`read_level`] reads a file with [`LevelOptions`] (which LDtk level, which layer) and
//! returns a [`LevelImport`]: the map, and what a dialog needs to offer the other choices.
//! [`format::load_map`](crate::format::load_map) reads the same files with the default
//! options. [`tiled_write`] writes `.tmj` and `.tmx`. The conventions (which property makes a
//! tile a wall, which layer is the collision layer) are listed in `docs/levels.md`.
//!
//! Both Tiled front ends (`tmx` over `quick-xml` events, `tmj` over `serde_json`) fill one
//! small model (`tiled`) rather than use the `tiled` crate: that crate reads files
//! (tilesets, images) through its own loader without size limits, allocates the declared map
//! size before looking at the data, decompresses without a bound, and reads no `.tmj`; here
//! every file goes through [`read::read_file`](crate::format::read::read_file), sizes are
//! checked against [`Grid::MAX_SIDE`](crate::grid::Grid::MAX_SIDE) before allocating, and
//! decompression stops one byte past what a layer can hold (`data`). One file per idea: the
//! XML tree (`xml`), tilesets (`tsx`, `tsj`, `external`), layer data (`data`), the terrain
//! catalog (`catalog`), LDtk (`ldtk`) and the export ([`tiled_write`]).
//!
//! ```
//! use gridpath_core::format::level::{LevelOptions, read_level};
//!
//! let dir = tempfile::tempdir().expect("a temporary folder");
//! let path = dir.path().join("room.tmj");
//! std::fs::write(&path, r#"{
//!   "type": "map", "orientation": "orthogonal", "infinite": false,
//!   "width": 3, "height": 2, "tilewidth": 16, "tileheight": 16,
//!   "tilesets": [{"firstgid": 1, "name": "terrain", "tilecount": 2, "columns": 2,
//!                 "tilewidth": 16, "tileheight": 16,
//!                 "tiles": [{"id": 1, "properties": [
//!                     {"name": "walkable", "type": "bool", "value": false}]}]}],
//!   "layers": [{"type": "tilelayer", "name": "Ground", "width": 3, "height": 2,
//!               "data": [1, 2, 1, 0, 1, 1]}]
//! }"#).expect("written");
//! let import = read_level(&path, &LevelOptions::default()).expect("reads");
//! let grid = &import.map.grid;
//! assert_eq!((grid.width(), grid.height()), (3, 2));
//! // The floor of the empty cell, then one terrain per tile in the order they are met.
//! let names: Vec<&str> = grid.terrains().iter().map(|t| t.name.as_str()).collect();
//! assert_eq!(names, ["floor", "terrain:0", "terrain:1"]);
//! assert!(!grid.terrain(2).is_passable());
//! assert_eq!(import.layers, ["Ground"]);
//! ```

mod catalog;
mod data;
mod error;
mod external;
mod hexagonal;
mod ldtk;
mod tiled;
pub mod tiled_write;
mod tmj;
mod tmx;
mod tsj;
mod tsx;
mod xml;

use std::path::Path;

pub use error::LevelError;

use super::read::{self, FileLimit};
use super::{FormatError, LoadError};
use crate::grid::Map;

/// Which part of a level file to read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LevelOptions {
    /// The LDtk level, by identifier; `None` for the first. A Tiled map is one level: naming
    /// one is an error.
    pub level: Option<String>,
    /// The layer that decides the cells, by name; `None` for the default: the collision
    /// layer over the visible tile layers (Tiled), or the collision IntGrid layer, else the
    /// first IntGrid layer (LDtk).
    pub layer: Option<String>,
}

/// A level read as a map, with the choices the file offers.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelImport {
    /// The map.
    pub map: Map,
    /// The LDtk project's levels, in order; empty for a Tiled map.
    pub levels: Vec<String>,
    /// The level read (LDtk).
    pub level: Option<String>,
    /// The layers that [`LevelOptions::layer`] may name: tile layers (Tiled) or IntGrid
    /// layers (LDtk).
    pub layers: Vec<String>,
    /// The layer that decided the cells or the walls; `None` when the visible tile layers
    /// decided together.
    pub layer: Option<String>,
    /// Where each terrain came from, in the order of the grid's terrains.
    pub sources: Vec<TerrainSource>,
    /// The picture of each terrain that is one tile (Tiled), in the order of the grid's
    /// terrains; `None` for the others and where the tileset's image cannot be read.
    pub pictures: Vec<Option<TilePicture>>,
}

/// A tile's picture as Tiled draws it: RGBA pixels, row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TilePicture {
    /// Its width in pixels.
    pub width: u32,
    /// Its height in pixels.
    pub height: u32,
    /// Four bytes a pixel (red, green, blue, alpha), rows from the top.
    pub rgba: Vec<u8>,
}

impl TilePicture {
    /// The largest side of a tile kept as a picture, in pixels.
    pub const MAX_SIDE: u32 = 128;
}

/// Where a terrain of an imported level came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TerrainSource {
    /// The floor of empty cells.
    Empty,
    /// One tile of a tileset, by local id.
    Tile {
        /// The tileset's name.
        tileset: String,
        /// The tile's id in the tileset.
        id: u32,
    },
    /// Every tile of one class (type).
    Class(String),
    /// The cells of an infinite map that lie in no chunk of any tile layer: impassable.
    Outside,
    /// The wall of a collision layer or of solid objects, as described.
    Wall {
        /// What made the walls: `layer "Collision"` or `solid objects`.
        from: String,
    },
    /// One value of an LDtk IntGrid layer.
    IntGrid {
        /// The layer's identifier.
        layer: String,
        /// The value.
        value: i64,
    },
}

/// The kinds of level file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelFormat {
    /// A Tiled map in XML (`.tmx`).
    Tmx,
    /// A Tiled map in JSON (`.tmj`).
    Tmj,
    /// An LDtk project (`.ldtk`).
    Ldtk,
}

impl LevelFormat {
    /// The format of a file by its extension.
    pub fn from_path(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "tmx" => Some(Self::Tmx),
            "tmj" => Some(Self::Tmj),
            "ldtk" => Some(Self::Ldtk),
            _ => None,
        }
    }
}

/// Reads a Tiled map or an LDtk project as a map, choosing the format by the extension.
/// Tilesets and level files it names are read beside it. The error names the file.
pub fn read_level(path: &Path, options: &LevelOptions) -> Result<LevelImport, LoadError> {
    let wrap = |error| LoadError {
        path: path.to_owned(),
        error,
    };
    let format = LevelFormat::from_path(path).ok_or_else(|| wrap(FormatError::UnknownExtension))?;
    if let (Some(wanted), LevelFormat::Tmx | LevelFormat::Tmj) = (&options.level, format) {
        // A Tiled map is one level: naming one is a mistake worth saying.
        return Err(wrap(
            LevelError::NoSuchLevel {
                wanted: wanted.clone(),
                available: Vec::new(),
            }
            .into(),
        ));
    }
    let text = read::read_text(path, FileLimit::MAP).map_err(|e| wrap(e.into()))?;
    let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("level");
    let folder = path.parent().unwrap_or(Path::new(""));
    match format {
        LevelFormat::Tmx => tmx::parse(&text, folder).and_then(|m| Ok(m.to_import(name, options)?)),
        LevelFormat::Tmj => tmj::parse(&text, folder).and_then(|m| Ok(m.to_import(name, options)?)),
        LevelFormat::Ldtk => ldtk::read(&text, folder, name, options),
    }
    .map_err(wrap)
}

/// What a JSON file says it is, from the fields that tell the formats apart.
#[derive(serde::Deserialize)]
struct JsonKind {
    /// gridpath's maps: `"format": "gridpath-map"`.
    #[serde(default)]
    format: Option<serde_json::Value>,
    /// Tiled's maps: `"type": "map"` (since Tiled 1.0).
    #[serde(default, rename = "type")]
    kind: Option<serde_json::Value>,
    /// Tiled's maps: the version of Tiled that saved the file.
    #[serde(default)]
    tiledversion: Option<serde_json::Value>,
    /// LDtk's projects.
    #[serde(default, rename = "jsonVersion")]
    json_version: Option<serde_json::Value>,
}

/// Reads a `.json` file that is not a gridpath map by its content: a Tiled map (`"type":
/// "map"` or a `tiledversion`: `.json` was Tiled's default extension before `.tmj`) or an LDtk
/// project (`jsonVersion`), with the default options. A file that says it is a gridpath map,
/// or is not JSON at all, gets `gridpath`, the error of reading it as one; a file of JSON that
/// is none of the three gets an error naming the formats tried.
pub(crate) fn read_other_json(
    text: &str,
    folder: &Path,
    name: &str,
    gridpath: FormatError,
) -> Result<Map, FormatError> {
    let Ok(kind) = serde_json::from_str::<JsonKind>(text) else {
        return Err(gridpath);
    };
    if kind.format.is_some() {
        return Err(gridpath);
    }
    let options = LevelOptions::default();
    if kind.kind.as_ref().and_then(|v| v.as_str()) == Some("map") || kind.tiledversion.is_some() {
        return Ok(tmj::parse(text, folder)?.to_import(name, &options)?.map);
    }
    if kind.json_version.is_some() {
        return ldtk::read(text, folder, name, &options).map(|import| import.map);
    }
    Err(FormatError::UnknownJson(gridpath.to_string()))
}

/// Reads a level file with the default options.
pub(crate) fn load(path: &Path) -> Result<Map, LoadError> {
    read_level(path, &LevelOptions::default()).map(|import| import.map)
}

/// A file named in a level file, resolved beside it and read as text with the limit of a
/// map file; the error names the file.
pub(crate) fn read_beside(
    folder: &Path,
    name: &str,
) -> Result<(std::path::PathBuf, String), LevelError> {
    let path = folder.join(name);
    match read::read_text(&path, FileLimit::MAP) {
        Ok(text) => Ok((path, text)),
        Err(e) => Err(LevelError::External {
            path,
            message: format!("cannot read the file: {e}"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use crate::format::load_map;

    /// A map as Tiled 1.8 saves it in JSON (fields as the *JSON Map Format* reference lists
    /// them: `version` a string since 1.6, `tiledversion`, `"type": "map"`), named `.json`.
    const TILED_18: &str = r#"{ "compressionlevel":-1,
 "height":2,
 "infinite":false,
 "layers":[
        {
         "data":[1, 2, 2, 1, 0, 1],
         "height":2,
         "id":1,
         "name":"Ground",
         "opacity":1,
         "type":"tilelayer",
         "visible":true,
         "width":3,
         "x":0,
         "y":0
        }],
 "nextlayerid":2,
 "nextobjectid":1,
 "orientation":"orthogonal",
 "renderorder":"right-down",
 "tiledversion":"1.8.2",
 "tileheight":16,
 "tilesets":[
        {
         "columns":2,
         "firstgid":1,
         "imageheight":16,
         "imagewidth":32,
         "margin":0,
         "name":"terrain",
         "spacing":0,
         "tilecount":2,
         "tileheight":16,
         "tiles":[
                {
                 "id":1,
                 "properties":[
                        {
                         "name":"walkable",
                         "type":"bool",
                         "value":false
                        }]
                }],
         "tilewidth":16
        }],
 "tilewidth":16,
 "type":"map",
 "version":"1.8",
 "width":3
}"#;

    #[test]
    fn a_tiled_map_named_json_is_read_by_its_content() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("level.json");
        std::fs::write(&path, TILED_18).expect("written");
        let map = load_map(&path).expect("a Tiled map named .json reads");
        let grid = &map.grid;
        assert_eq!((grid.width(), grid.height()), (3, 2));
        let passable: Vec<bool> = grid
            .cells()
            .iter()
            .map(|&id| grid.terrain(id).is_passable())
            .collect();
        assert_eq!(passable, [true, false, false, true, true, true]);

        // Without "type", the Tiled version alone tells it.
        std::fs::write(&path, TILED_18.replace(r#" "type":"map","#, "")).expect("written");
        assert_eq!(load_map(&path).expect("reads").grid, map.grid);
    }

    #[test]
    fn an_unknown_json_names_the_formats_tried() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("data.json");
        std::fs::write(&path, r#"{"name": "not a map", "version": "2"}"#).expect("written");
        let message = load_map(&path).unwrap_err().to_string();
        for part in ["data.json", "gridpath map", "Tiled map", "LDtk project"] {
            assert!(message.contains(part), "{message}");
        }
        // A gridpath map with a mistake keeps its own error, and so does broken JSON.
        std::fs::write(&path, r#"{"format": "gridpath-map", "version": 9}"#).expect("written");
        let message = load_map(&path).unwrap_err().to_string();
        assert!(!message.contains("Tiled"), "{message}");
        std::fs::write(&path, "{\"type\": \"map\",").expect("written");
        let message = load_map(&path).unwrap_err().to_string();
        assert!(message.contains("line 1"), "{message}");
    }
}
