//! The map open in the editor: where it lives on disk and whether it has unsaved changes.

use std::path::{Path, PathBuf};

use crate::format::save::{self, Backup, SaveError, SaveStep};
use crate::format::{self, FormatError, LoadError, json};
use crate::grid::Map;

/// The built-in level the editor opens when no map is given.
pub const DEFAULT_MAP: &str = include_str!("../../maps/default.json");

/// Where the default map comes from, shown when the editor starts on it.
pub const DEFAULT_MAP_PATH: &str = "maps/default.json";

/// An open map.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// The map itself.
    pub map: Map,
    /// The file it was loaded from or last saved to; `None` for a new map.
    pub path: Option<PathBuf>,
    /// Whether it changed since it was loaded or saved.
    pub dirty: bool,
}

impl Document {
    /// A document of a map that has no file yet.
    pub fn new(map: Map) -> Self {
        Self {
            map,
            path: None,
            dirty: false,
        }
    }

    /// The built-in default level.
    pub fn default_level() -> Result<Self, FormatError> {
        json::parse(DEFAULT_MAP).map(Self::new)
    }

    /// Loads a `.json` or `.map` file.
    pub fn open(path: &Path) -> Result<Self, LoadError> {
        let mut map = format::load_map(path)?;
        if map.name.is_empty() {
            map.name = file_stem(path);
        }
        Ok(Self {
            map,
            path: Some(path.to_path_buf()),
            dirty: false,
        })
    }

    /// The map's name, or "untitled".
    pub fn name(&self) -> &str {
        if self.map.name.is_empty() {
            "untitled"
        } else {
            &self.map.name
        }
    }

    /// The window title: the name, with `*` while there are unsaved changes.
    pub fn title(&self) -> String {
        let star = if self.dirty { "*" } else { "" };
        format!("{}{star} — gridpath", self.name())
    }

    /// Saves the map as JSON to `path` and makes it the document's file.
    ///
    /// The text goes to a temporary file beside the target, which is flushed to disk and then
    /// renamed over the target, so a failure at any point leaves the old file whole; the
    /// previous version is kept as `NAME.bak`.
    pub fn save_as(&mut self, path: &Path) -> Result<(), SaveError> {
        let text = json::encode(&self.map).map_err(|e| SaveError {
            path: path.to_owned(),
            step: SaveStep::Encode,
            source: std::io::Error::new(std::io::ErrorKind::InvalidInput, e.to_string()),
        })?;
        save::write_atomically(path, text.as_bytes(), Backup::Keep)?;
        self.path = Some(path.to_path_buf());
        self.dirty = false;
        Ok(())
    }
}

fn file_stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A map loaded and ready to take the open map's place once unsaved changes are dealt with.
#[derive(Clone, Debug, PartialEq)]
pub struct Replacement {
    /// The new document.
    pub document: Document,
    /// What the status bar says once it is open.
    pub notice: String,
}

/// What the status bar adds when the start and goal were placed on opening a map: how they
/// were chosen, and how to move them.
pub fn markers_note(placed: bool, grid: &crate::grid::Grid) -> String {
    match crate::grid::marker_region(grid) {
        Some(region) if placed => format!(
            " Start and goal placed at {}: move them with the Start (S) and Goal (G) tools or by right-clicking the map.",
            region.describe()
        ),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    #[test]
    fn the_default_level_loads_with_its_markers() {
        let document = Document::default_level().unwrap();
        let map = &document.map;
        assert!(map.start.is_some() && map.goal.is_some());
        assert!(map.grid.terrains().len() >= 4);
        assert!(!document.dirty);
        assert_eq!(document.title(), format!("{} — gridpath", map.name));
    }

    #[test]
    fn saving_writes_json_that_loads_back() {
        let folder = std::env::temp_dir().join(format!("gridpath-doc-{}", std::process::id()));
        fs::create_dir_all(&folder).unwrap();
        let path = folder.join("level.json");
        let mut document = Document::default_level().unwrap();
        document.dirty = true;
        document.save_as(&path).unwrap();
        assert!(!document.dirty);
        let loaded = Document::open(&path).unwrap();
        assert_eq!(loaded.map, document.map);
        let leftovers = fs::read_dir(&folder).unwrap().count();
        assert_eq!(leftovers, 1, "no temporary file is left behind");
        document.map.name = "second".to_owned();
        document.save_as(&path).unwrap();
        let previous = fs::read_to_string(folder.join("level.json.bak")).unwrap();
        assert_eq!(
            json::parse(&previous).unwrap(),
            loaded.map,
            "the previous version is kept"
        );
        fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn a_save_into_a_missing_folder_fails_and_says_where() {
        let mut document = Document::default_level().unwrap();
        let path = std::env::temp_dir().join("gridpath-no-such-folder/x/level.json");
        let error = document.save_as(&path).unwrap_err();
        assert!(error.to_string().contains("level.json"), "{error}");
        assert!(document.path.is_none());
    }
}
