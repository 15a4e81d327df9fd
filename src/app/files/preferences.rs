//! The editor's preferences, kept between sessions by eframe: the recent files.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// How many files the File → Open recent menu lists.
pub const RECENT_LIMIT: usize = 8;

/// The editor's preferences, kept between sessions by eframe.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Preferences {
    /// The map files opened or saved last, newest first.
    pub recent: Vec<PathBuf>,
}

impl Preferences {
    /// Puts `path` first in the recent files, once.
    pub fn remember(&mut self, path: &Path) {
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        self.recent.retain(|p| p != &path);
        self.recent.insert(0, path);
        self.recent.truncate(RECENT_LIMIT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_files_are_newest_first_without_repeats() {
        let mut preferences = Preferences::default();
        for i in 0..10 {
            preferences.remember(Path::new(&format!("/maps/{i}.json")));
        }
        preferences.remember(Path::new("/maps/5.json"));
        assert_eq!(preferences.recent.len(), RECENT_LIMIT);
        assert_eq!(preferences.recent[0], Path::new("/maps/5.json"));
        assert_eq!(preferences.recent[1], Path::new("/maps/9.json"));
        assert_eq!(
            preferences
                .recent
                .iter()
                .filter(|p| p.ends_with("5.json"))
                .count(),
            1
        );
    }
}
