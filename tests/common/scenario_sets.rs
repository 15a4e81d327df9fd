//! The Moving AI scenario files under a folder, each with its map: shared by the tests and the
//! benchmarks that run every set.

use std::path::{Path, PathBuf};

/// Every scenario set with its map, outside the stale ones.
pub fn scenario_sets(root: &Path) -> Vec<(PathBuf, PathBuf)> {
    let mut sets = Vec::new();
    let Ok(folders) = std::fs::read_dir(root) else {
        return sets;
    };
    for folder in folders.flatten() {
        let Ok(files) = std::fs::read_dir(folder.path()) else {
            continue;
        };
        for file in files.flatten() {
            let scen = file.path();
            let name = scen.to_string_lossy().into_owned();
            let Some(map_name) = name.strip_suffix(".scen") else {
                continue;
            };
            let map = if map_name.ends_with(".map") {
                PathBuf::from(map_name)
            } else {
                // MAPF names its scenarios after the map plus a suffix.
                folder.path().join("random-32-32-20.map")
            };
            sets.push((map, scen));
        }
    }
    sets.sort();
    sets
}
