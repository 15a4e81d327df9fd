//! ROS occupancy maps: a `map.yaml` that names an image and says how to read it.
//!
//! ```yaml
//! image: floor2.png          # relative to the yaml file
//! resolution: 0.05           # metres per pixel
//! origin: [-10.0, -7.5, 0.0] # pose of the lower-left pixel: x, y, yaw
//! negate: 0
//! occupied_thresh: 0.65
//! free_thresh: 0.25
//! mode: trinary              # or scale, raw
//! ```
//! `image`, `resolution` and `origin` are required; the others default as shown; other keys
//! are ignored. The file is the flat `key: value` subset of YAML that `map_server` writes,
//! read here with errors that name their line.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::image_import::{ImageImport, ImportMode};
use super::occupancy::{Interpretation, Occupancy};
use super::read::{FileLimit, read_file, read_text};
use super::{ImportError, excerpt};
use crate::grid::{GeoReference, Grid, Map};

/// The contents of a ROS `map.yaml`.
#[derive(Clone, Debug, PartialEq)]
pub struct RosMap {
    /// The image, as the file names it.
    pub image: PathBuf,
    /// Metres per pixel.
    pub resolution: f64,
    /// The pose of the image's lower-left pixel, `[x, y, yaw]`.
    pub origin: [f64; 3],
    /// Whether dark pixels are free.
    pub negate: bool,
    /// Occupancy above which a pixel is occupied.
    pub occupied_thresh: f64,
    /// Occupancy below which a pixel is free.
    pub free_thresh: f64,
    /// How pixel values are read.
    pub mode: Interpretation,
}

/// One `key: value` line.
struct Entry<'a> {
    line: usize,
    value: &'a str,
}

impl RosMap {
    /// Parses the text of a `map.yaml`.
    pub fn parse(text: &str) -> Result<Self, ImportError> {
        let mut entries: HashMap<&str, Entry<'_>> = HashMap::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let content = strip_comment(raw).trim();
            if content.is_empty() || content == "---" || content == "..." {
                continue;
            }
            let Some((key, value)) = content.split_once(':') else {
                return Err(yaml(
                    line,
                    format!("expected \"key: value\", got {content:?}"),
                ));
            };
            let key = key.trim();
            if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(yaml(line, format!("{key:?} is not a key of a map.yaml")));
            }
            if let Some(first) = entries.get(key) {
                return Err(yaml(
                    line,
                    format!("{key:?} is given twice (first on line {})", first.line),
                ));
            }
            entries.insert(
                key,
                Entry {
                    line,
                    value: value.trim(),
                },
            );
        }
        let last_line = text.lines().count().max(1);
        let required = |key: &str| {
            entries
                .get(key)
                .ok_or_else(|| yaml(last_line, format!("the required key {key:?} is missing")))
        };

        let image = required("image")?;
        let image_name = unquote(image.value);
        if image_name.is_empty() {
            return Err(yaml(image.line, "\"image\" names no file".to_owned()));
        }

        let resolution = required("resolution")?;
        let resolution_value = number(resolution, "resolution")?;
        if resolution_value <= 0.0 {
            return Err(yaml(
                resolution.line,
                format!(
                    "resolution {resolution_value} must be a positive number of metres per pixel"
                ),
            ));
        }

        let origin = required("origin")?;
        let origin_value = triple(origin)?;

        let negate = match entries.get("negate") {
            None => false,
            Some(e) => match unquote(e.value).to_ascii_lowercase().as_str() {
                "0" | "false" | "no" => false,
                "1" | "true" | "yes" => true,
                other => {
                    return Err(yaml(
                        e.line,
                        format!("negate must be 0 or 1, got {other:?}"),
                    ));
                }
            },
        };

        let threshold = |key: &str, default: f64| -> Result<(f64, usize), ImportError> {
            let Some(e) = entries.get(key) else {
                return Ok((default, last_line));
            };
            let v = number(e, key)?;
            if !(0.0..=1.0).contains(&v) {
                return Err(yaml(e.line, format!("{key} {v} must be between 0 and 1")));
            }
            Ok((v, e.line))
        };
        let (occupied_thresh, _) = threshold("occupied_thresh", Occupancy::OCCUPIED_THRESH)?;
        let (free_thresh, free_line) = threshold("free_thresh", Occupancy::FREE_THRESH)?;
        if free_thresh > occupied_thresh {
            return Err(yaml(
                free_line,
                format!(
                    "free_thresh {free_thresh} must not exceed occupied_thresh {occupied_thresh}"
                ),
            ));
        }

        let mode = match entries.get("mode") {
            None => Interpretation::Trinary,
            Some(e) => unquote(e.value).parse().map_err(|m| yaml(e.line, m))?,
        };

        Ok(Self {
            image: PathBuf::from(image_name),
            resolution: resolution_value,
            origin: origin_value,
            negate,
            occupied_thresh,
            free_thresh,
            mode,
        })
    }

    /// The image's path: relative names are taken from the folder of the yaml file.
    pub fn image_path(&self, yaml_path: &Path) -> PathBuf {
        if self.image.is_absolute() {
            return self.image.clone();
        }
        yaml_path
            .parent()
            .map_or_else(|| self.image.clone(), |dir| dir.join(&self.image))
    }

    /// An occupancy import with this file's settings, at one cell per pixel.
    pub fn image_import(&self) -> ImageImport {
        ImageImport::occupancy(Occupancy {
            negate: self.negate,
            occupied_thresh: self.occupied_thresh,
            free_thresh: self.free_thresh,
            interpretation: self.mode,
            ..Occupancy::default()
        })
    }

    /// Reads and parses a `map.yaml`; errors name the file and the line.
    pub fn read(path: &Path) -> Result<Self, ImportError> {
        let text = read_text(path, FileLimit::YAML).map_err(|e| ImportError::Io {
            path: path.to_owned(),
            message: e.to_string(),
        })?;
        Self::parse(&text).map_err(|e| e.in_file(path))
    }

    /// Imports the image's bytes into a map that keeps the resolution (per cell, so scaled
    /// with the import) and the origin.
    pub fn to_map(
        &self,
        name: &str,
        image: &[u8],
        import: &ImageImport,
    ) -> Result<Map, ImportError> {
        let (pixels_wide, _) = import.dimensions(image)?;
        let grid = import.import(image)?;
        self.map_from_grid(name, grid, pixels_wide)
    }

    /// The map of a grid imported from this file's image, `pixels_wide` pixels wide: the
    /// resolution is per cell, so it grows as the import downscales; the origin is kept.
    /// Fails when the resolution per cell or the origin is out of the range a map may hold.
    pub fn map_from_grid(
        &self,
        name: &str,
        grid: Grid,
        pixels_wide: u32,
    ) -> Result<Map, ImportError> {
        let resolution = self.resolution * (f64::from(pixels_wide) / f64::from(grid.width()));
        let geo = GeoReference::new(resolution, self.origin).map_err(ImportError::Settings)?;
        let mut map = Map::new(name, grid);
        map.metadata = Some(geo);
        Ok(map)
    }
}

/// Reads a `map.yaml` and its image into a map named after the yaml file. `adjust` may change
/// the import settings the file gives (the scale, thresholds or terrains) before the import.
///
/// The editor's import dialog reads a yaml through the same [`RosMap::read`],
/// [`RosMap::image_import`] and [`RosMap::map_from_grid`], so both give the same cells.
pub fn load_ros_map(
    path: &Path,
    adjust: impl FnOnce(&mut ImageImport),
) -> Result<Map, ImportError> {
    let ros = RosMap::read(path)?;
    let mut import = ros.image_import();
    adjust(&mut import);
    if let ImportMode::Occupancy(o) = &import.mode {
        o.validate().map_err(ImportError::Settings)?;
    }
    let image_path = ros.image_path(path);
    let bytes = read_file(&image_path, FileLimit::IMAGE).map_err(|e| ImportError::Io {
        path: image_path.clone(),
        message: e.to_string(),
    })?;
    ros.to_map(map_name(path), &bytes, &import)
        .map_err(|e| e.in_file(image_path))
}

/// The name of a map read from a file: the file's stem.
pub fn map_name(path: &Path) -> &str {
    path.file_stem().and_then(|s| s.to_str()).unwrap_or("map")
}

fn yaml(line: usize, message: String) -> ImportError {
    ImportError::Yaml { line, message }
}

/// The line without its comment (a `#` outside quotes).
fn strip_comment(line: &str) -> &str {
    let mut quote = None;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '#') => return &line[..i],
            _ => {}
        }
    }
    line
}

/// A scalar without its surrounding quotes.
fn unquote(value: &str) -> &str {
    let v = value.trim();
    for q in ['"', '\''] {
        if let Some(inner) = v.strip_prefix(q).and_then(|v| v.strip_suffix(q)) {
            return inner;
        }
    }
    v
}

fn number(entry: &Entry<'_>, key: &str) -> Result<f64, ImportError> {
    unquote(entry.value)
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| {
            yaml(
                entry.line,
                format!("{key} must be a number, got {}", excerpt(entry.value)),
            )
        })
}

fn triple(entry: &Entry<'_>) -> Result<[f64; 3], ImportError> {
    let bad = || {
        yaml(
            entry.line,
            format!(
                "origin must be a list of three numbers on one line, [x, y, yaw], got {}",
                excerpt(entry.value)
            ),
        )
    };
    let inner = entry
        .value
        .strip_prefix('[')
        .and_then(|v| v.strip_suffix(']'))
        .ok_or_else(bad)?;
    let values: Vec<f64> = inner
        .split(',')
        .map(|v| unquote(v).parse::<f64>().ok().filter(|v| v.is_finite()))
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    let [x, y, yaw] = values[..] else {
        return Err(bad());
    };
    Ok([x, y, yaw])
}

#[cfg(test)]
mod tests {
    use super::*;

    const YAML: &str = "image: maps/floor2.png\nresolution: 0.050000\norigin: [-10.0, -7.5, 0.0]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196 # as map_saver writes\n";

    #[test]
    fn a_map_saver_file_parses() {
        let ros = RosMap::parse(YAML).unwrap();
        assert_eq!(ros.image, PathBuf::from("maps/floor2.png"));
        assert_eq!(ros.resolution, 0.05);
        assert_eq!(ros.origin, [-10.0, -7.5, 0.0]);
        assert!(!ros.negate);
        assert_eq!(ros.free_thresh, 0.196);
        assert_eq!(ros.mode, Interpretation::Trinary);
        assert_eq!(
            ros.image_path(Path::new("/robots/site/map.yaml")),
            PathBuf::from("/robots/site/maps/floor2.png")
        );
        let quoted = RosMap::parse(&YAML.replace("maps/floor2.png", "\"a # b.png\"")).unwrap();
        assert_eq!(quoted.image, PathBuf::from("a # b.png"));
        let scale = RosMap::parse(&format!("{YAML}mode: scale\n")).unwrap();
        assert_eq!(scale.mode, Interpretation::Scale);
    }

    #[test]
    fn errors_name_their_line() {
        let cases = [
            (YAML.replace("0.050000", "fast"), 2),
            (YAML.replace("[-10.0, -7.5, 0.0]", "[-10.0, -7.5]"), 3),
            (YAML.replace("negate: 0", "negate: maybe"), 4),
            (YAML.replace("0.65", "1.65"), 5),
            (YAML.replace("0.196", "0.9"), 6),
            (YAML.replace("negate: 0", "negate 0"), 4),
            (format!("{YAML}mode: fuzzy\n"), 7),
            (format!("{YAML}resolution: 1\n"), 7),
            (YAML.replace("0.050000", "-0.05"), 2),
        ];
        for (text, line) in cases {
            match RosMap::parse(&text) {
                Err(ImportError::Yaml { line: l, .. }) => assert_eq!(l, line, "{text}"),
                other => panic!("expected an error on line {line}, got {other:?}"),
            }
        }
        let missing = RosMap::parse("image: a.png\norigin: [0, 0, 0]\n").unwrap_err();
        assert!(missing.to_string().contains("\"resolution\""), "{missing}");
    }
}
