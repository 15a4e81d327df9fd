//! Recovery files: the open map written aside while it has unsaved changes, so that work
//! survives a crash.
//!
//! The caller chooses where the file lives (the editor uses the user's data folder). The map is
//! written atomically in the JSON format, and the path of the document it belongs to, when it
//! has one, beside it in `NAME.source`.

use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::read::{self, FileLimit};
use super::save::{self, Backup, SaveError};
use super::{FormatError, LoadError, json};
use crate::grid::Map;

/// A map found in a recovery file.
#[derive(Clone, Debug, PartialEq)]
pub struct RecoveredMap {
    /// The map as it was last written.
    pub map: Map,
    /// The file the map was opened from or last saved to, if it had one.
    pub source: Option<PathBuf>,
    /// When the recovery file was written.
    pub written: Option<SystemTime>,
}

/// A recovery file at a path the caller chooses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recovery {
    path: PathBuf,
}

impl Recovery {
    /// A recovery file at `path`.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self { path: path.into() }
    }

    /// The recovery file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file beside the recovery file that names the map's document.
    pub fn source_path(&self) -> PathBuf {
        let mut name = self.path.as_os_str().to_owned();
        name.push(".source");
        PathBuf::from(name)
    }

    /// Writes the map to the recovery file, atomically; `source` is the document it belongs to.
    pub fn write(&self, map: &Map, source: Option<&Path>) -> Result<(), SaveError> {
        if let Some(parent) = self.path.parent()
            && !parent.as_os_str().is_empty()
        {
            std::fs::create_dir_all(parent).map_err(|e| SaveError {
                path: self.path.clone(),
                step: save::SaveStep::CreateTemporary(parent.to_owned()),
                source: e,
            })?;
        }
        let source_file = self.source_path();
        match source {
            Some(s) => save::write_atomically(
                &source_file,
                s.to_string_lossy().as_bytes(),
                Backup::Discard,
            )?,
            None => remove_if_present(&source_file).map_err(|e| SaveError {
                path: source_file.clone(),
                step: save::SaveStep::Replace(source_file.clone()),
                source: e,
            })?,
        }
        let text = json::encode(map).map_err(|e| SaveError {
            path: self.path.clone(),
            step: save::SaveStep::Encode,
            source: io::Error::new(io::ErrorKind::InvalidData, e),
        })?;
        save::write_atomically(&self.path, text.as_bytes(), Backup::Discard)
    }

    /// The map in the recovery file, or `None` when there is none.
    pub fn find(&self) -> Result<Option<RecoveredMap>, LoadError> {
        if !self.path.is_file() {
            return Ok(None);
        }
        let wrap = |error| LoadError {
            path: self.path.clone(),
            error,
        };
        let text =
            read::read_text(&self.path, FileLimit::MAP).map_err(|e| wrap(FormatError::from(e)))?;
        let map = json::parse(&text).map_err(wrap)?;
        let source = read::read_text(&self.source_path(), FileLimit::NOTE)
            .ok()
            .map(|s| PathBuf::from(s.trim_end_matches('\n')))
            .filter(|p| !p.as_os_str().is_empty());
        let written = std::fs::metadata(&self.path)
            .and_then(|m| m.modified())
            .ok();
        Ok(Some(RecoveredMap {
            map,
            source,
            written,
        }))
    }

    /// Removes the recovery file (after a save, or when the user declines to restore it).
    pub fn discard(&self) -> io::Result<()> {
        remove_if_present(&self.source_path())?;
        remove_if_present(&self.path)
    }
}

fn remove_if_present(path: &Path) -> io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    #[test]
    fn a_written_map_is_found_until_discarded() {
        let dir = tempfile::tempdir().unwrap();
        let recovery = Recovery::new(dir.path().join("recovery/autosave.json"));
        assert_eq!(recovery.find().unwrap(), None);

        let map = Map::new("plan", Grid::from_ascii(&[".#.", "~=."]).unwrap());
        let document = dir.path().join("plan.json");
        recovery.write(&map, Some(&document)).unwrap();
        let found = recovery.find().unwrap().expect("a recovery file");
        assert_eq!(found.map, map);
        assert_eq!(found.source, Some(document));
        assert!(found.written.is_some());

        recovery.write(&map, None).unwrap();
        assert_eq!(recovery.find().unwrap().expect("still there").source, None);

        recovery.discard().unwrap();
        assert_eq!(recovery.find().unwrap(), None);
        recovery.discard().unwrap();
    }
}
