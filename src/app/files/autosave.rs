//! Autosave: while the map has unsaved changes, it is written to a recovery file in the
//! user's data folder at a fixed interval, so work survives a crash. The next start offers to
//! restore it.
//!
//! The file is removed once the map is clean again (saved, or its changes discarded). A
//! recovery file left by an earlier session is never overwritten before the user has chosen
//! to restore or discard it.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash as _, Hasher as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use crate::format::LoadError;
use crate::format::recovery::{RecoveredMap, Recovery};
use crate::grid::Map;

use crate::app::document::Document;

/// How often the map is written aside while it has unsaved changes.
pub const AUTOSAVE_INTERVAL: Duration = Duration::from_secs(60);

/// The environment variable that chooses the recovery folder instead of the user's data
/// folder.
pub const RECOVERY_DIR_VAR: &str = "GRIDPATH_RECOVERY_DIR";

/// The recovery file's name inside the recovery folder.
pub const RECOVERY_FILE: &str = "autosave.json";

/// The folder the editor keeps its recovery file in: `$GRIDPATH_RECOVERY_DIR` when set, else
/// `recovery` in the user's data folder (on Linux `~/.local/share/gridpath/recovery`).
pub fn default_recovery_dir() -> Option<PathBuf> {
    match std::env::var_os(RECOVERY_DIR_VAR) {
        Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir)),
        _ => eframe::storage_dir("gridpath").map(|dir| dir.join("recovery")),
    }
}

/// The autosave timer and the recovery file it writes.
#[derive(Debug, Default)]
pub struct Autosave {
    /// The recovery file; `None` when autosave is off (as in tests that do not ask for it).
    recovery: Option<Recovery>,
    /// Time between writes.
    interval: Duration,
    /// When the next write is due, while the map has unsaved changes.
    due: Option<Instant>,
    /// The fingerprint of the map this session last wrote; `Some` while the recovery file
    /// holds this session's work.
    written: Option<u64>,
    /// Work of an earlier session, until the user restores or drops it.
    found: Option<RecoveredMap>,
}

impl Autosave {
    /// Autosave into `dir`, every `interval`.
    pub fn new(dir: &Path, interval: Duration) -> Self {
        Self {
            recovery: Some(Recovery::new(dir.join(RECOVERY_FILE))),
            interval,
            ..Self::default()
        }
    }

    /// The recovery file, when autosave is on.
    pub fn recovery_path(&self) -> Option<&Path> {
        self.recovery.as_ref().map(Recovery::path)
    }

    /// Looks for work left by an earlier session; returns whether there is some to offer.
    pub fn look(&mut self) -> Result<bool, LoadError> {
        let Some(recovery) = &self.recovery else {
            return Ok(false);
        };
        self.found = recovery.find()?;
        Ok(self.found.is_some())
    }

    /// When the work found from an earlier session was written, for the restore question.
    pub fn offer(&self) -> Option<String> {
        let found = self.found.as_ref()?;
        Some(found.written.map_or_else(
            || "an earlier session".to_owned(),
            |time| describe_time(time, SystemTime::now()),
        ))
    }

    /// The earlier session's work, as a document with unsaved changes. The recovery file stays
    /// and now belongs to this session: it is removed once the map is saved or discarded.
    pub fn restore(&mut self) -> Option<Document> {
        let found = self.found.take()?;
        let document = Document {
            map: found.map,
            path: found.source,
            dirty: true,
        };
        self.written = Some(fingerprint(&document.map, document.path.as_deref()));
        Some(document)
    }

    /// Deletes the earlier session's work.
    pub fn drop_found(&mut self) -> std::io::Result<()> {
        self.found = None;
        self.written = None;
        match &self.recovery {
            Some(recovery) => recovery.discard(),
            None => Ok(()),
        }
    }

    /// Writes the document aside when a write is due, or removes the recovery file once the
    /// document is clean. Returns how long until the next check is needed (for a repaint),
    /// or the error of a failed write or removal.
    pub fn tick(&mut self, document: &Document, now: Instant) -> Result<Option<Duration>, String> {
        let Some(recovery) = &self.recovery else {
            return Ok(None);
        };
        if self.found.is_some() {
            return Ok(None);
        }
        if !document.dirty {
            self.due = None;
            if self.written.take().is_some() {
                recovery.discard().map_err(|e| {
                    format!(
                        "Could not remove the recovery file {}: {e}",
                        recovery.path().display()
                    )
                })?;
            }
            return Ok(None);
        }
        let due = *self.due.get_or_insert(now + self.interval);
        if now < due {
            return Ok(Some(due - now));
        }
        self.due = Some(now + self.interval);
        let path = document.path.as_deref();
        let print = fingerprint(&document.map, path);
        if self.written != Some(print) {
            recovery
                .write(&document.map, path)
                .map_err(|e| format!("Autosave failed: {e}"))?;
            self.written = Some(print);
        }
        Ok(Some(self.interval))
    }
}

/// A hash of everything a recovery file holds, to skip writing the same map twice.
fn fingerprint(map: &Map, source: Option<&Path>) -> u64 {
    let mut hasher = DefaultHasher::new();
    map.grid.cells().hash(&mut hasher);
    (map.grid.width(), map.grid.height()).hash(&mut hasher);
    format!(
        "{:?}{:?}{:?}{:?}{}",
        map.grid.terrains(),
        map.start,
        map.goal,
        map.metadata,
        map.name
    )
    .hash(&mut hasher);
    source.hash(&mut hasher);
    hasher.finish()
}

/// A time as `2025-03-14 09:26 UTC (5 minutes ago)`.
fn describe_time(time: SystemTime, now: SystemTime) -> String {
    let Ok(since_epoch) = time.duration_since(SystemTime::UNIX_EPOCH) else {
        return "an earlier session".to_owned();
    };
    let seconds = since_epoch.as_secs();
    let (year, month, day) = civil_from_days((seconds / 86_400) as i64);
    let minute_of_day = seconds % 86_400 / 60;
    let ago = match now.duration_since(time) {
        Ok(age) if age.as_secs() < 60 => " (less than a minute ago)".to_owned(),
        Ok(age) if age.as_secs() < 3600 => format!(" ({} minutes ago)", age.as_secs() / 60),
        Ok(age) if age.as_secs() < 2 * 86_400 => format!(" ({} hours ago)", age.as_secs() / 3600),
        Ok(age) => format!(" ({} days ago)", age.as_secs() / 86_400),
        Err(_) => String::new(),
    };
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC{ago}",
        minute_of_day / 60,
        minute_of_day % 60
    )
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    #[test]
    fn dates_are_read_from_the_epoch() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_797), (2024, 3, 15));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        let time =
            SystemTime::UNIX_EPOCH + Duration::from_secs(19_797 * 86_400 + 9 * 3600 + 26 * 60);
        let later = time + Duration::from_secs(5 * 60 + 7);
        assert_eq!(
            describe_time(time, later),
            "2024-03-15 09:26 UTC (5 minutes ago)"
        );
    }

    #[test]
    fn a_dirty_document_is_written_when_due_and_removed_once_clean() {
        let dir = tempfile::tempdir().unwrap();
        let mut autosave = Autosave::new(dir.path(), Duration::from_secs(60));
        let map = Map::new("plan", Grid::from_ascii(&[".#", "~."]).unwrap());
        let mut document = Document::new(map);
        let start = Instant::now();
        assert_eq!(autosave.tick(&document, start), Ok(None));
        document.dirty = true;
        let wait = autosave.tick(&document, start).unwrap();
        assert_eq!(wait, Some(Duration::from_secs(60)));
        let file = autosave.recovery_path().unwrap().to_owned();
        assert!(!file.exists(), "nothing is written before the interval");
        autosave
            .tick(&document, start + Duration::from_secs(61))
            .unwrap();
        assert!(file.is_file());

        let mut next = Autosave::new(dir.path(), Duration::from_secs(60));
        assert!(next.look().unwrap());
        assert!(next.offer().unwrap().contains("UTC"));
        let restored = next.restore().unwrap();
        assert_eq!(restored.map, document.map);
        assert!(restored.dirty);

        document.dirty = false;
        autosave
            .tick(&document, start + Duration::from_secs(62))
            .unwrap();
        assert!(!file.exists(), "a clean document leaves no recovery file");
    }
}
