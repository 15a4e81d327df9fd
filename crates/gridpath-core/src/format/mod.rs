//! Map files: gridpath's JSON format, the Moving AI benchmark formats, and level designers'
//! Tiled and LDtk files ([`level`]).
//! [`path_export`] writes a search and its smoothed path as JSON.
//!
//! Every loader returns a [`FormatError`] that names the place of the problem (JSON line and
//! column, the row and column of a bad cell, the limit passed); [`load_map`] adds the file.
//! Files are read through [`read::read_file`], which refuses anything but a regular file and
//! files over the size limit of their kind.

#[cfg(feature = "images")]
mod colour_profiles;
mod error;
#[cfg(feature = "images")]
pub mod height_image;
#[cfg(feature = "images")]
pub mod image_export;
#[cfg(feature = "images")]
pub mod image_import;
mod import_error;
pub mod json;
#[cfg(feature = "images")]
pub mod legend;
pub mod level;
pub mod movingai;
pub mod occupancy;
pub mod path_export;
pub mod read;
pub mod recovery;
pub mod registry;
#[cfg(feature = "images")]
pub mod ros_map;
pub mod ros_write;
pub mod save;
#[cfg(feature = "images")]
pub mod thin_walls;

use std::path::{Path, PathBuf};

pub use error::{
    EXCERPT_CHARS, FormatError, LoadError, MAX_MESSAGE, MAX_PARSER_MESSAGE, excerpt, shorten,
};
pub use import_error::ImportError;
pub use path_export::{PathExport, PathExportError, PathExportFormat};

use crate::grid::Map;

/// The map formats gridpath reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapFormat {
    /// gridpath's JSON map format (`.json`).
    Json,
    /// A Moving AI benchmark map (`.map`).
    MovingAi,
    /// A Tiled map (`.tmx`, `.tmj`), read and written through [`level`].
    Tiled,
    /// An LDtk project (`.ldtk`), read through [`level`].
    Ldtk,
}

impl MapFormat {
    /// The format a file name's extension stands for (see [`registry`]).
    pub fn from_path(path: &Path) -> Option<Self> {
        match registry::kind_of(path)? {
            registry::FileKind::Map(format) => Some(format),
            _ => None,
        }
    }
}

/// Reads a map file, choosing the format by its extension (`.json`, `.map`, or a level
/// designer's `.tmx`, `.tmj` or `.ldtk`, read with [`level::LevelOptions`]' defaults). The file
/// must be a regular file of at most [`read::FileLimit::MAP`].
///
/// ```
/// use gridpath_core::format::{load_map, save};
/// use gridpath_core::grid::{Cell, Grid, Map};
///
/// let dir = tempfile::tempdir().expect("a temporary folder");
/// let path = dir.path().join("level.json");
/// let mut map = Map::new("level", Grid::from_ascii(&["..#", "..."]).expect("a valid map"));
/// map.start = Some(Cell::new(0, 0));
/// save::save_map(&map, &path).expect("saves");
/// assert_eq!(load_map(&path).expect("loads"), map);
/// let missing = load_map(&dir.path().join("missing.json")).unwrap_err();
/// assert!(missing.to_string().contains("missing.json"));
/// ```
pub fn load_map(path: &Path) -> Result<Map, LoadError> {
    let wrap = |error| LoadError {
        path: PathBuf::from(path),
        error,
    };
    let format = MapFormat::from_path(path).ok_or_else(|| wrap(FormatError::UnknownExtension))?;
    if matches!(format, MapFormat::Tiled | MapFormat::Ldtk) {
        return level::load(path);
    }
    let text = read::read_file(path, read::FileLimit::MAP).map_err(|e| wrap(e.into()))?;
    let text = String::from_utf8(text).map_err(|e| {
        wrap(FormatError::NotUtf8 {
            offset: e.utf8_error().valid_up_to(),
        })
    })?;
    let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("map");
    match format {
        MapFormat::Json => json::parse(&text).or_else(|gridpath| {
            let folder = path.parent().unwrap_or(Path::new(""));
            level::read_other_json(&text, folder, name, gridpath)
        }),
        MapFormat::MovingAi => movingai::parse_map(&text).map(|grid| Map::new(name, grid)),
        MapFormat::Tiled | MapFormat::Ldtk => Err(FormatError::UnknownExtension),
    }
    .map_err(wrap)
}
