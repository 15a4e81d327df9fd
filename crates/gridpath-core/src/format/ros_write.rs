//! Writing ROS maps: a `map.yaml` and its binary PGM image that `map_server` (ROS 1 and nav2)
//! loads, and nav2 costmap filter masks made from a map's terrain costs.
//!
//! - **Occupancy** ([`RosImage::Occupancy`]): the values `map_saver` writes, in trinary mode:
//!   impassable cells 0 (occupied), passable cells 254 (free), and cells of an impassable
//!   terrain with the symbol `?` (the unknown terrain of an occupancy import) 205 (unknown).
//!   The yaml's `free_thresh` is 0.196, as `map_saver` writes it, so 205 reads back unknown.
//! - **Keepout mask** ([`RosImage::Keepout`]), for nav2's `KeepoutFilter`: `mode: raw`, pixel
//!   value 100 (keep out) on impassable cells and cells whose terrain costs more than 1, 0
//!   elsewhere.
//! - **Speed mask** ([`RosImage::Speed`]), for nav2's `SpeedFilter` with `type: 1` (speed limit
//!   in percent), `base: 100.0` and `multiplier: -1.0`: `mode: raw`, pixel value
//!   100 − 100 / cost on terrains that cost more than 1 (a terrain of cost 2 limits the speed
//!   to 50 %), 0 (no limit) on terrains of cost 1 or less, and 100 (speed 0) on impassable
//!   cells.
//!
//! The image is written beside the yaml, named after it (`site.yaml` → `site.pgm`); both
//! files are saved atomically.

use std::io;
use std::path::{Path, PathBuf};

use super::save::{Backup, SaveError, SaveStep, write_atomically};
use crate::grid::{GeoReference, Map};

/// What the image of a written ROS map holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RosImage {
    /// Occupied, free and unknown, as `map_saver` writes a map.
    #[default]
    Occupancy,
    /// A nav2 keepout mask.
    Keepout,
    /// A nav2 speed mask.
    Speed,
}

/// The image file a yaml at `yaml` names: the same name with the extension `.pgm`.
pub fn image_path_for(yaml: &Path) -> PathBuf {
    yaml.with_extension("pgm")
}

/// The PGM pixel value of each cell of `map` for an image of this kind.
pub fn pixel_values(map: &Map, kind: RosImage) -> Vec<u8> {
    let grid = &map.grid;
    let value: Vec<u8> = grid
        .terrains()
        .iter()
        .map(|t| match (kind, t.cost) {
            (RosImage::Occupancy, None) if t.symbol == '?' => 205,
            (RosImage::Occupancy, None) => 0,
            (RosImage::Occupancy, Some(_)) => 254,
            (RosImage::Keepout | RosImage::Speed, None) => 100,
            (RosImage::Keepout, Some(c)) => {
                if c > 1.0 {
                    100
                } else {
                    0
                }
            }
            (RosImage::Speed, Some(c)) => {
                if c > 1.0 {
                    (100.0 - 100.0 / c).round().clamp(1.0, 99.0) as u8
                } else {
                    0
                }
            }
        })
        .collect();
    grid.cells()
        .iter()
        .map(|&id| value[usize::from(id)])
        .collect()
}

/// The binary PGM (P5) of a map's cells.
pub fn to_pgm(map: &Map, kind: RosImage) -> Vec<u8> {
    let grid = &map.grid;
    let mut bytes = format!(
        "P5\n# CREATOR: gridpath {} m/pix\n{} {}\n255\n",
        map.metadata.map_or(0.0, |g| g.resolution),
        grid.width(),
        grid.height()
    )
    .into_bytes();
    bytes.extend(pixel_values(map, kind));
    bytes
}

/// The text of the yaml that names `image` with this world frame.
pub fn to_yaml(image: &str, geo: &GeoReference, kind: RosImage) -> String {
    let (mode, free) = match kind {
        RosImage::Occupancy => ("trinary", 0.196),
        RosImage::Keepout | RosImage::Speed => ("raw", 0.25),
    };
    let [x, y, yaw] = geo.origin;
    format!(
        "image: {image}\nmode: {mode}\nresolution: {}\norigin: [{x:?}, {y:?}, {yaw:?}]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: {free}\n",
        geo.resolution
    )
}

/// Writes `map` as a ROS map: the yaml at `yaml` and its PGM beside it, with the world frame
/// `geo`. The image is saved first, so the yaml never names a missing image.
pub fn write_ros_map(
    map: &Map,
    yaml: &Path,
    geo: &GeoReference,
    kind: RosImage,
) -> Result<(), SaveError> {
    geo.validate().map_err(|message| SaveError {
        path: yaml.to_owned(),
        step: SaveStep::Encode,
        source: io::Error::new(io::ErrorKind::InvalidInput, message),
    })?;
    let image = image_path_for(yaml);
    let name = image
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    write_atomically(&image, &to_pgm(map, kind), Backup::Discard)?;
    write_atomically(yaml, to_yaml(&name, geo, kind).as_bytes(), Backup::Discard)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    #[test]
    fn masks_grade_the_costs() {
        let mut grid = Grid::from_ascii(&[".=~#"]).unwrap();
        let mut swamp = grid.terrain(2).clone();
        swamp.cost = Some(4.0);
        grid.set_terrain(2, swamp).unwrap();
        let map = Map::new("m", grid);
        // Grass 1, road 0.5, swamp 4, wall.
        assert_eq!(pixel_values(&map, RosImage::Occupancy), [254, 254, 254, 0]);
        assert_eq!(pixel_values(&map, RosImage::Keepout), [0, 0, 100, 100]);
        assert_eq!(pixel_values(&map, RosImage::Speed), [0, 0, 75, 100]);
        let yaml = to_yaml(
            "m.pgm",
            &GeoReference {
                resolution: 0.05,
                origin: [-10.0, 2.5, 0.0],
            },
            RosImage::Speed,
        );
        assert!(
            yaml.contains("mode: raw\n") && yaml.contains("origin: [-10.0, 2.5, 0.0]\n"),
            "{yaml}"
        );
    }
}
