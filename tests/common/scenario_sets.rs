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
                // MAPF names its scenarios after the map plus a suffix: the map whose name
                // begins the scenario's.
                let stem = scen.file_name().map(|n| n.to_string_lossy().into_owned());
                let Some(map) = std::fs::read_dir(folder.path()).ok().and_then(|maps| {
                    maps.flatten().map(|m| m.path()).find(|m| {
                        m.extension().is_some_and(|e| e == "map")
                            && m.file_stem().is_some_and(|s| {
                                stem.as_deref()
                                    .is_some_and(|n| n.starts_with(&*s.to_string_lossy()))
                            })
                    })
                }) else {
                    continue;
                };
                map
            };
            // Agent lists give no single-agent optima (their last column is 0): not a set.
            let optima = std::fs::read_to_string(&scen).is_ok_and(|text| {
                text.lines().nth(1).is_some_and(|line| {
                    line.split_whitespace()
                        .last()
                        .and_then(|v| v.parse::<f64>().ok())
                        .is_some_and(|v| v > 0.0)
                })
            });
            if optima {
                sets.push((map, scen));
            }
        }
    }
    sets.sort();
    sets
}
