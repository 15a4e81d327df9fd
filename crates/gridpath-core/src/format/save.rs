//! Saving without losing work.
//!
//! A save writes a new temporary file beside the target (`.gridpath-XXXXXX.tmp`, created
//! exclusively under a random name), flushes it to disk, and only then renames it over the
//! target, so the target is at every moment either the old file or the
//! new one, whole. The previous version is kept as `NAME.bak` (for `map.json`,
//! `map.json.bak`). A failed save leaves the old file as it was and says which step failed.

use std::ffi::OsStr;
use std::fmt;
use std::fs::{self, File};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use tempfile::NamedTempFile;

#[cfg(feature = "images")]
use super::image_export;
use super::level::{LevelFormat, tiled_write};
use super::{MapFormat, json, movingai, read};
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
    /// Checking the target is none of the files being read.
    Check,
    /// Encoding the map in the target's format.
    Encode,
    /// Finding the file to replace: following symbolic links, checking it is a regular file.
    Inspect(PathBuf),
    /// Creating the temporary file in the folder.
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
            SaveStep::Check => write!(f, "checking it is not an input"),
            SaveStep::Encode => write!(f, "encoding the map"),
            SaveStep::Inspect(p) => write!(f, "examining {}", p.display()),
            SaveStep::CreateTemporary(p) => {
                write!(f, "creating a temporary file in {}", p.display())
            }
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

/// Whether `a` and `b` name one existing file: the same path, or two reaching it through links,
/// `..` or hard links. A path that does not exist is no file, so it is nobody's twin.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
            (Ok(x), Ok(y)) => x == y,
            _ => false,
        }
    }
}

/// Refuses to write `output` when it is one of the files the command reads (`inputs`, each
/// with what it is: "the map", "the heights image"), so that an export never replaces what
/// it was made from.
pub fn refuse_input_as_output(output: &Path, inputs: &[(&str, &Path)]) -> Result<(), SaveError> {
    match inputs.iter().find(|(_, input)| same_file(output, input)) {
        None => Ok(()),
        Some((what, input)) => Err(SaveError {
            path: output.to_owned(),
            step: SaveStep::Check,
            source: io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!(
                    "it is {what} being read ({}); writing it would destroy it: choose another \
                     output file",
                    input.display()
                ),
            ),
        }),
    }
}

/// Saves a map, choosing the format by the extension: `.json`, `.map`, `.tmj` or `.tmx` (a
/// Tiled map, see [`tiled_write`]) or `.png` (an image of the terrain colours). Keeps the previous version as `NAME.bak`.
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
        #[cfg(feature = "images")]
        Some(ext) if ext == "png" => {
            image_export::to_png(&map.grid).map_err(|e| fail(io::Error::other(e)))?
        }
        _ => match MapFormat::from_path(path) {
            Some(MapFormat::Json) => json::encode(map)
                .map_err(|e| fail(io::Error::new(io::ErrorKind::InvalidData, e)))?
                .into_bytes(),
            Some(MapFormat::MovingAi) if !map.grid.topology().has_square_cells() => {
                return Err(fail(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "a Moving AI map has square cells: save a hex map as .json, .tmj or .tmx",
                )));
            }
            Some(MapFormat::MovingAi) => movingai::write_map(&map.grid).into_bytes(),
            Some(MapFormat::Tiled) => {
                let image = tileset_image(map, path)?;
                match LevelFormat::from_path(path) {
                    Some(LevelFormat::Tmx) => tiled_write::to_tmx(map, image.as_deref()),
                    _ => tiled_write::to_tmj(map, image.as_deref()),
                }
                .into_bytes()
            }
            Some(MapFormat::Ldtk) => {
                return Err(fail(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "LDtk projects are read, not written: save as .tmj, .tmx or .json",
                )));
            }
            None => {
                return Err(fail(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "unknown file type: expected a .json, .map, .tmj, .tmx or .png file name",
                )));
            }
        },
    };
    write_atomically(path, &bytes, Backup::Keep)
}

/// Writes the tileset image of a Tiled map about to be saved at `path` beside it, atomically,
/// and returns its name for the map to refer to.
#[cfg(feature = "images")]
fn tileset_image(map: &Map, path: &Path) -> Result<Option<String>, SaveError> {
    let name = tiled_write::image_name_for(path);
    let image = path.with_file_name(&name);
    let png = tiled_write::tileset_png(&map.grid).map_err(|e| SaveError {
        path: image.clone(),
        step: SaveStep::Encode,
        source: io::Error::other(e),
    })?;
    write_atomically(&image, &png, Backup::Discard)?;
    Ok(Some(name))
}

/// Without image support the tileset has no image.
#[cfg(not(feature = "images"))]
fn tileset_image(_map: &Map, _path: &Path) -> Result<Option<String>, SaveError> {
    Ok(None)
}

/// The start of the name of every temporary file a save writes: `.gridpath-XXXXXX.tmp`, six
/// random letters or digits between the prefix and [`TEMPORARY_SUFFIX`]. The name does not
/// depend on the target's, so a target whose name has the longest length the file system
/// allows still saves.
pub const TEMPORARY_PREFIX: &str = ".gridpath-";

/// The end of the name of every temporary file a save writes.
pub const TEMPORARY_SUFFIX: &str = ".tmp";

/// How many random letters or digits a temporary file's name has.
const TEMPORARY_RANDOM: usize = 6;

/// How old a temporary file left by an interrupted save must be before a later save into the
/// same folder removes it. A save in progress is far younger.
pub const STALE_TEMPORARY_AGE: Duration = Duration::from_secs(60 * 60);

/// The longest file name most file systems allow, in bytes.
const NAME_MAX: usize = 255;

/// Whether `name` is the name of a temporary file a save writes.
pub fn is_temporary_name(name: &OsStr) -> bool {
    let Some(name) = name.to_str() else {
        return false;
    };
    name.strip_prefix(TEMPORARY_PREFIX)
        .and_then(|rest| rest.strip_suffix(TEMPORARY_SUFFIX))
        .is_some_and(|random| {
            random.len() == TEMPORARY_RANDOM && random.bytes().all(|b| b.is_ascii_alphanumeric())
        })
}

/// Where a save of `path` keeps the previous version: `NAME.bak` beside it. A name too long to
/// take the suffix is shortened first, so that the backup can still be written.
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path
        .file_name()
        .map_or_else(|| "unnamed".into(), |n| n.to_string_lossy().into_owned());
    let suffix = ".bak";
    if name.len() + suffix.len() > NAME_MAX {
        let mut end = NAME_MAX - suffix.len();
        while !name.is_char_boundary(end) {
            end -= 1;
        }
        name.truncate(end);
    }
    path.with_file_name(format!("{name}{suffix}"))
}

/// Writes `bytes` to `path` atomically: to a new temporary file beside the target, flushed,
/// then renamed over the target. On failure the temporary file is removed and the target is
/// untouched.
///
/// When `path` is a symbolic link, the file it points to is replaced and the link kept. The
/// new file keeps the replaced file's permissions (and its owner and group, where the system
/// allows). A target that exists but is not a regular file (a folder, a FIFO, a device) is
/// refused. Temporary files of interrupted saves older than [`STALE_TEMPORARY_AGE`] in the
/// target's folder are removed.
pub fn write_atomically(path: &Path, bytes: &[u8], backup: Backup) -> Result<(), SaveError> {
    write_atomically_with(path, backup, |out| out.write_all(bytes))
}

/// [`write_atomically`] of what `write` writes, through a buffer, as it writes it: the data
/// need not be held in memory whole. An error `write` returns fails the save at its write
/// step, and the target is untouched.
///
/// ```
/// use std::io::Write as _;
/// use gridpath_core::format::save::{Backup, write_atomically_with};
///
/// let dir = tempfile::tempdir().expect("a temporary folder");
/// let path = dir.path().join("numbers.txt");
/// write_atomically_with(&path, Backup::Discard, |out| {
///     (1..=3).try_for_each(|n| writeln!(out, "{n}"))
/// })
/// .expect("saved");
/// assert_eq!(std::fs::read_to_string(&path).expect("read back"), "1\n2\n3\n");
/// ```
pub fn write_atomically_with(
    path: &Path,
    backup: Backup,
    write: impl FnOnce(&mut dyn io::Write) -> io::Result<()>,
) -> Result<(), SaveError> {
    let fail = |step: SaveStep, source: io::Error| SaveError {
        path: path.to_owned(),
        step,
        source,
    };
    let target = resolve_links(path).map_err(|e| fail(SaveStep::Inspect(path.to_owned()), e))?;
    let existing = match fs::metadata(&target) {
        Ok(metadata) if metadata.is_file() => Some(metadata),
        Ok(metadata) => {
            return Err(fail(
                SaveStep::Inspect(target.clone()),
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "it is {}, not a regular file",
                        read::describe(&metadata.file_type())
                    ),
                ),
            ));
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(fail(SaveStep::Inspect(target.clone()), e)),
    };
    let directory = folder_of(&target);
    remove_stale_temporaries(directory, SystemTime::now());
    let temporary = write_temporary(path, &target, write, existing.as_ref())?;
    let temporary_name = temporary.path().to_owned();
    if backup == Backup::Keep && existing.is_some() {
        let bak = backup_path(&target);
        keep_backup(&target, &bak).map_err(|e| fail(SaveStep::KeepBackup(bak.clone()), e))?;
    }
    temporary
        .persist(&target)
        .map_err(|e| fail(SaveStep::Replace(temporary_name), e.error))?;
    sync_directory(directory);
    Ok(())
}

/// The file a path names once symbolic links are followed; the path itself when it is not a
/// link. The file need not exist: a link to a missing file resolves to the missing file.
fn resolve_links(path: &Path) -> io::Result<PathBuf> {
    /// Links followed before giving up, as the system does (`ELOOP`).
    const MAX_LINKS: usize = 40;
    let mut current = path.to_owned();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = fs::read_link(&current)?;
                current = folder_of(&current).join(link);
            }
            Ok(_) => return Ok(current),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(current),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS} symbolic links in a row"
    )))
}

/// The folder a file is in; `.` for a bare file name.
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Removes the temporary files of interrupted saves in `directory`: regular files whose name
/// has the pattern of [`is_temporary_name`], last written more than [`STALE_TEMPORARY_AGE`]
/// before `now`. Anything else is left alone, and a failure only leaves a file behind.
pub fn remove_stale_temporaries(directory: &Path, now: SystemTime) {
    let Ok(entries) = fs::read_dir(directory) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        if !is_temporary_name(&entry.file_name()) {
            continue;
        }
        // The entry's own type: a link with the pattern's name is not followed.
        let Ok(metadata) = entry.metadata() else {
            continue;
        };
        let stale = metadata.is_file()
            && metadata
                .modified()
                .ok()
                .and_then(|written| now.duration_since(written).ok())
                .is_some_and(|age| age > STALE_TEMPORARY_AGE);
        if stale {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// The first half of a save: the data written to a new temporary file beside `target`, with the
/// replaced file's permissions and owner, and flushed to disk. Until the rename, the target is
/// untouched. The file is created exclusively under a random name, so nothing planted at a
/// predictable name (a link, a FIFO) is ever opened.
fn write_temporary(
    path: &Path,
    target: &Path,
    write: impl FnOnce(&mut dyn io::Write) -> io::Result<()>,
    existing: Option<&fs::Metadata>,
) -> Result<NamedTempFile, SaveError> {
    let directory = folder_of(target);
    let fail = |step: SaveStep, source: io::Error| SaveError {
        path: path.to_owned(),
        step,
        source,
    };
    let mut builder = tempfile::Builder::new();
    builder
        .prefix(TEMPORARY_PREFIX)
        .suffix(TEMPORARY_SUFFIX)
        .rand_bytes(TEMPORARY_RANDOM);
    // A new file gets the permissions any new file gets (the umask applies); a replaced one
    // gets its own below, once its owner is set.
    #[cfg(unix)]
    if existing.is_none() {
        use std::os::unix::fs::PermissionsExt as _;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let mut file = builder
        .tempfile_in(directory)
        .map_err(|e| fail(SaveStep::CreateTemporary(directory.to_owned()), e))?;
    // Dropping `file` on an early return removes it.
    let temporary = file.path().to_owned();
    {
        let mut out = io::BufWriter::new(file.as_file_mut());
        write(&mut out)
            .and_then(|()| out.flush())
            .map_err(|e| fail(SaveStep::Write(temporary.clone()), e))?;
    }
    if let Some(metadata) = existing {
        keep_permissions(file.as_file(), metadata)
            .map_err(|e| fail(SaveStep::Write(temporary.clone()), e))?;
    }
    file.as_file()
        .sync_all()
        .map_err(|e| fail(SaveStep::Sync(temporary.clone()), e))?;
    Ok(file)
}

/// Gives `file` the permissions of the file it replaces, and its owner and group where the
/// system allows (changing the owner needs privileges; without them the saving user owns the
/// new file, as with any editor that saves by renaming).
fn keep_permissions(file: &File, replaced: &fs::Metadata) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        let own = file.metadata()?;
        if (own.uid(), own.gid()) != (replaced.uid(), replaced.gid()) {
            // Try owner and group together, then the group alone (a member may set it).
            if std::os::unix::fs::fchown(file, Some(replaced.uid()), Some(replaced.gid())).is_err()
            {
                let _ = std::os::unix::fs::fchown(file, None, Some(replaced.gid()));
            }
        }
    }
    // After the owner: changing the owner clears the set-user-ID bit.
    file.set_permissions(replaced.permissions())
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
fn sync_directory(directory: &Path) {
    #[cfg(unix)]
    if let Ok(d) = File::open(directory) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = directory;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    fn map(name: &str, row: &str) -> Map {
        Map::new(name, Grid::from_ascii(&[row]).unwrap())
    }

    /// The names in a folder, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_save_interrupted_before_the_rename_leaves_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("house.json");
        let old = map("old", "..#");
        save_map(&old, &path).unwrap();

        let new = map("new", "##.");
        // The first half of a save, then a crash: no rename, and the temporary file stays.
        let bytes = json::to_string(&new);
        let (_, temporary) =
            write_temporary(&path, &path, |out| out.write_all(bytes.as_bytes()), None)
                .unwrap()
                .keep()
                .unwrap();
        assert!(is_temporary_name(temporary.file_name().unwrap()));
        assert_eq!(crate::format::load_map(&path).unwrap(), old);

        // The next save completes beside it.
        save_map(&new, &path).unwrap();
        assert_eq!(crate::format::load_map(&path).unwrap(), new);
    }

    #[test]
    fn temporary_files_of_old_interrupted_saves_are_removed_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let now = SystemTime::now();
        let long_ago = now - STALE_TEMPORARY_AGE - Duration::from_secs(60);
        let plant = |name: &str, written: SystemTime| {
            let file = File::create(dir.path().join(name)).unwrap();
            file.set_modified(written).unwrap();
        };
        plant(".gridpath-a1B2c3.tmp", long_ago); // stale: removed
        plant(".gridpath-d4E5f6.tmp", now); // a save in progress: kept
        plant(".gridpath-too-long.tmp", long_ago); // not the pattern: kept
        plant(".plan.json.tmp", long_ago); // not ours: kept
        plant("notes.tmp", long_ago); // not ours: kept
        fs::create_dir(dir.path().join(".gridpath-g7H8i9.tmp")).unwrap(); // a folder: kept
        #[cfg(unix)]
        {
            // A link with the pattern's name is not followed, nor removed.
            let victim = dir.path().join("victim");
            plant("victim", long_ago);
            std::os::unix::fs::symlink(&victim, dir.path().join(".gridpath-j0K1l2.tmp")).unwrap();
        }

        save_map(&map("plan", ".#"), &dir.path().join("plan.json")).unwrap();

        let mut expected = vec![
            ".gridpath-d4E5f6.tmp",
            ".gridpath-g7H8i9.tmp",
            ".gridpath-too-long.tmp",
            ".plan.json.tmp",
            "notes.tmp",
            "plan.json",
        ];
        if cfg!(unix) {
            expected.extend([".gridpath-j0K1l2.tmp", "victim"]);
        }
        expected.sort_unstable();
        assert_eq!(names(dir.path()), expected);
    }

    #[test]
    fn a_file_name_of_255_bytes_saves_twice() {
        let dir = tempfile::tempdir().unwrap();
        let name = format!("{}.json", "m".repeat(NAME_MAX - ".json".len()));
        assert_eq!(name.len(), NAME_MAX);
        let path = dir.path().join(&name);
        save_map(&map("first", ".#"), &path).unwrap();
        save_map(&map("second", "#."), &path).unwrap();
        assert_eq!(crate::format::load_map(&path).unwrap(), map("second", "#."));
        let bak = backup_path(&path);
        assert!(bak.file_name().unwrap().len() <= NAME_MAX);
        let backup = fs::read_to_string(&bak).unwrap();
        assert_eq!(json::parse(&backup).unwrap(), map("first", ".#"));
    }

    #[cfg(unix)]
    #[test]
    fn a_link_planted_at_a_predictable_temporary_name_is_never_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("plan.json");
        let victim = dir.path().join("victim.txt");
        fs::write(&victim, "precious").unwrap();
        // A link at the predictable name saves once wrote through.
        std::os::unix::fs::symlink(&victim, dir.path().join(".plan.json.tmp")).unwrap();

        save_map(&map("plan", ".#"), &path).unwrap();
        save_map(&map("plan", "#."), &path).unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
        assert_eq!(crate::format::load_map(&path).unwrap(), map("plan", "#."));
    }

    #[cfg(unix)]
    #[test]
    fn a_save_keeps_the_permissions_and_owner_of_the_file_it_replaces() {
        use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("secret.json");
        save_map(&map("one", ".#"), &path).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
        // Another owner, where this user may give files away (root may).
        let other = std::os::unix::fs::chown(&path, Some(4242), Some(4343)).is_ok();

        save_map(&map("two", "#."), &path).unwrap();
        let metadata = fs::metadata(&path).unwrap();
        assert_eq!(metadata.permissions().mode() & 0o7777, 0o600);
        if other {
            assert_eq!((metadata.uid(), metadata.gid()), (4242, 4343));
        }
        assert_eq!(crate::format::load_map(&path).unwrap(), map("two", "#."));

        // A new file gets the permissions any newly created file gets.
        let fresh = dir.path().join("fresh.json");
        save_map(&map("one", ".#"), &fresh).unwrap();
        let reference = dir.path().join("reference");
        File::create(&reference).unwrap();
        assert_eq!(
            fs::metadata(&fresh).unwrap().permissions().mode(),
            fs::metadata(&reference).unwrap().permissions().mode()
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_save_through_a_link_replaces_the_file_it_points_to_and_keeps_the_link() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("maps")).unwrap();
        let real = dir.path().join("maps/real.json");
        save_map(&map("one", ".#"), &real).unwrap();
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink("maps/real.json", &link).unwrap();

        save_map(&map("two", "#."), &link).unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(crate::format::load_map(&real).unwrap(), map("two", "#."));
        assert!(dir.path().join("maps/real.json.bak").is_file());
        assert_eq!(names(dir.path()), ["link.json", "maps"]);

        // A link to a file not yet there creates it.
        let dangling = dir.path().join("new.json");
        std::os::unix::fs::symlink("maps/new.json", &dangling).unwrap();
        save_map(&map("three", ".."), &dangling).unwrap();
        assert_eq!(
            crate::format::load_map(&dir.path().join("maps/new.json")).unwrap(),
            map("three", "..")
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_save_over_a_fifo_or_folder_is_refused_and_names_it() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe.json");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(status.success());
        let e = save_map(&map("plan", ".#"), &fifo).unwrap_err();
        assert_eq!(e.step, SaveStep::Inspect(fifo.clone()));
        assert!(e.to_string().contains("a FIFO, not a regular file"), "{e}");
        assert!(e.to_string().contains("pipe.json"), "{e}");

        let folder = dir.path().join("folder.json");
        fs::create_dir(&folder).unwrap();
        let e = save_map(&map("plan", ".#"), &folder).unwrap_err();
        assert!(
            e.to_string().contains("a folder, not a regular file"),
            "{e}"
        );
    }
}
