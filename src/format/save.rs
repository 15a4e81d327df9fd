//! Saving without losing work.
//!
//! A save writes a temporary file beside the target, flushes it to disk, and only then
//! renames it over the target, so the target is at every moment either the old file or the
//! new one, whole. The previous version is kept as `NAME.bak` (for `map.json`,
//! `map.json.bak`). A failed save leaves the old file as it was and says which step failed.

use std::fmt;
use std::fs::{self, File};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use super::{MapFormat, image_export, json, movingai};
use crate::grid::Map;

/// Whether a save keeps the previous version of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backup {
    /// Keep the previous version as `NAME.bak`.
    Keep,
    /// Replace the file without keeping its previous version.
    Discard,
}

/// The step of a save that failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveStep {
    /// Encoding the map in the target's format.
    Encode,
    /// Creating the temporary file.
    CreateTemporary(PathBuf),
    /// Writing the data to the temporary file.
    Write(PathBuf),
    /// Flushing the temporary file to disk.
    Sync(PathBuf),
    /// Keeping the previous version.
    KeepBackup(PathBuf),
    /// Renaming the temporary file over the target.
    Replace(PathBuf),
}

impl fmt::Display for SaveStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SaveStep::Encode => write!(f, "encoding the map"),
            SaveStep::CreateTemporary(p) => write!(f, "creating {}", p.display()),
            SaveStep::Write(p) => write!(f, "writing {}", p.display()),
            SaveStep::Sync(p) => write!(f, "flushing {} to disk", p.display()),
            SaveStep::KeepBackup(p) => write!(f, "keeping the previous version as {}", p.display()),
            SaveStep::Replace(p) => write!(f, "renaming {} over the file", p.display()),
        }
    }
}

/// Why a save failed. The target file, if it existed, is unchanged.
#[derive(Debug, thiserror::Error)]
#[error("cannot save {}: {step} failed: {source}; the file on disk is unchanged", path.display())]
pub struct SaveError {
    /// The file being saved.
    pub path: PathBuf,
    /// The step that failed.
    pub step: SaveStep,
    /// The system's error.
    #[source]
    pub source: io::Error,
}

/// Saves a map, choosing the format by the extension: `.json`, `.map` or `.png` (an image of
/// the terrain colours). Keeps the previous version as `NAME.bak`.
pub fn save_map(map: &Map, path: &Path) -> Result<(), SaveError> {
    let fail = |source: io::Error| SaveError {
        path: path.to_owned(),
        step: SaveStep::Encode,
        source,
    };
    let bytes = match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
    {
        Some(ext) if ext == "png" => {
            image_export::to_png(&map.grid).map_err(|e| fail(io::Error::other(e)))?
        }
        _ => match MapFormat::from_path(path) {
            Some(MapFormat::Json) => json::to_string(map).into_bytes(),
            Some(MapFormat::MovingAi) => movingai::write_map(&map.grid).into_bytes(),
            None => {
                return Err(fail(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "unknown file type: expected a .json, .map or .png file name",
                )));
            }
        },
    };
    write_atomically(path, &bytes, Backup::Keep)
}

/// The temporary file a save of `path` writes before renaming it over `path`: a hidden file
/// beside it, `.NAME.tmp`.
pub fn temporary_path(path: &Path) -> PathBuf {
    sibling(path, ".", ".tmp")
}

/// Where a save of `path` keeps the previous version: `NAME.bak` beside it.
pub fn backup_path(path: &Path) -> PathBuf {
    sibling(path, "", ".bak")
}

fn sibling(path: &Path, prefix: &str, suffix: &str) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "unnamed".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!("{prefix}{name}{suffix}"))
}

/// Writes `bytes` to `path` atomically: to the temporary file, flushed, then renamed over the
/// target. On failure the temporary file is removed and the target is untouched.
pub fn write_atomically(path: &Path, bytes: &[u8], backup: Backup) -> Result<(), SaveError> {
    let temporary = write_temporary(path, bytes)?;
    let fail = |step: SaveStep, source: io::Error| {
        let _ = fs::remove_file(&temporary);
        SaveError {
            path: path.to_owned(),
            step,
            source,
        }
    };
    if backup == Backup::Keep && path.is_file() {
        let bak = backup_path(path);
        keep_backup(path, &bak).map_err(|e| fail(SaveStep::KeepBackup(bak.clone()), e))?;
    }
    fs::rename(&temporary, path).map_err(|e| fail(SaveStep::Replace(temporary.clone()), e))?;
    sync_directory(path);
    Ok(())
}

/// The first half of a save: the data written to the temporary file and flushed to disk.
/// Until the rename, the target is untouched.
fn write_temporary(path: &Path, bytes: &[u8]) -> Result<PathBuf, SaveError> {
    let temporary = temporary_path(path);
    let fail = |step: SaveStep, source: io::Error, created: bool| {
        if created {
            let _ = fs::remove_file(&temporary);
        }
        SaveError {
            path: path.to_owned(),
            step,
            source,
        }
    };
    let mut file = File::create(&temporary)
        .map_err(|e| fail(SaveStep::CreateTemporary(temporary.clone()), e, false))?;
    file.write_all(bytes)
        .and_then(|()| file.flush())
        .map_err(|e| fail(SaveStep::Write(temporary.clone()), e, true))?;
    file.sync_all()
        .map_err(|e| fail(SaveStep::Sync(temporary.clone()), e, true))?;
    Ok(temporary)
}

/// Makes `bak` the current version of `path`: a hard link where the file system has them
/// (the rename then leaves the old data under `bak` alone), a copy elsewhere.
fn keep_backup(path: &Path, bak: &Path) -> io::Result<()> {
    match fs::remove_file(bak) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    if fs::hard_link(path, bak).is_err() {
        fs::copy(path, bak)?;
    }
    Ok(())
}

/// Flushes the directory entry of the rename where the platform allows it; a failure here
/// loses nothing that the rename did not already make visible.
fn sync_directory(path: &Path) {
    #[cfg(unix)]
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_save_interrupted_before_the_rename_leaves_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("house.json");
        let old = Map::new("old", crate::grid::Grid::from_ascii(&["..#"]).unwrap());
        save_map(&old, &path).unwrap();

        let new = Map::new("new", crate::grid::Grid::from_ascii(&["##."]).unwrap());
        // The first half of a save, then a crash: no rename.
        let temporary = write_temporary(&path, json::to_string(&new).as_bytes()).unwrap();
        assert!(temporary.is_file());
        assert_eq!(crate::format::load_map(&path).unwrap(), old);

        // The next save replaces the stale temporary file and completes.
        save_map(&new, &path).unwrap();
        assert!(!temporary.exists());
        assert_eq!(crate::format::load_map(&path).unwrap(), new);
    }
}
