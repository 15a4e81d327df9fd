//! Reading a map from any file the command line reads, chosen by its extension.

use std::path::Path;

use gridpath_core::format::image_import::{ImageImport, ImportMode};
use gridpath_core::format::level::{LevelFormat, LevelOptions, read_level};
use gridpath_core::format::registry::{self, FileKind};
use gridpath_core::format::ros_map::load_ros_map;
use gridpath_core::format::{MapFormat, load_map};
use gridpath_core::grid::Map;
use pyo3::prelude::*;

use crate::errors;

/// Reads any file the command line reads as a map.
pub fn load_any(
    path: &Path,
    level: Option<String>,
    layer: Option<String>,
    palette: bool,
    threshold: Option<f64>,
    free_threshold: Option<f64>,
    negate: bool,
) -> PyResult<Map> {
    let image_options = palette || threshold.is_some() || free_threshold.is_some() || negate;
    let level_options = level.is_some() || layer.is_some();
    let kind = registry::kind_of(path);
    if level_options && LevelFormat::from_path(path).is_none() {
        return Err(errors::argument(format!(
            "level and layer apply to Tiled maps (.tmx, .tmj) and LDtk projects (.ldtk), not to {}",
            path.display()
        )));
    }
    if image_options && !matches!(kind, Some(FileKind::Image | FileKind::RosMap)) {
        return Err(errors::argument(format!(
            "palette, threshold, free_threshold and negate apply to images and ROS maps (.yaml), not to {}",
            path.display()
        )));
    }
    let adjust = |import: &mut ImageImport| {
        if let ImportMode::Occupancy(o) = &mut import.mode {
            if let Some(t) = threshold {
                o.occupied_thresh = t;
            }
            if let Some(t) = free_threshold {
                o.free_thresh = t;
            }
            o.negate |= negate;
        }
    };
    match kind {
        Some(FileKind::Image) => {
            let occupancy = threshold.is_some() || free_threshold.is_some() || negate;
            let (mut import, _) = ImageImport::for_file(path, palette, occupancy)
                .map_err(|e| errors::import(&e, path))?;
            adjust(&mut import);
            if let ImportMode::Occupancy(o) = &import.mode {
                o.validate().map_err(errors::argument)?;
            }
            import.load(path).map_err(|e| errors::import(&e, path))
        }
        Some(FileKind::RosMap) => {
            if palette {
                return Err(errors::argument(
                    "palette applies to images; a ROS map is read by its occupancy",
                ));
            }
            load_ros_map(path, adjust).map_err(|e| errors::import(&e, path))
        }
        Some(FileKind::Map(MapFormat::Tiled | MapFormat::Ldtk)) => {
            read_level(path, &LevelOptions { level, layer })
                .map(|import| import.map)
                .map_err(|e| errors::load(&e))
        }
        Some(FileKind::Map(_)) => load_map(path).map_err(|e| errors::load(&e)),
        None => Err(errors::raise::<errors::FileError>(
            &format!(
                "{}: unknown file type: expected {}",
                path.display(),
                registry::listed(&registry::extensions_where(|_| true))
            ),
            Some(path),
            None,
        )),
    }
}
