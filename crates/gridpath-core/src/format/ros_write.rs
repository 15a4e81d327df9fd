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
//!   to 50 %), at most 98, 0 (no limit) on terrains of cost 1 or less, and
//!   [`SPEED_MASK_IMPASSABLE`] (99: 1 % of full speed, the slowest) on impassable cells. The
//!   filter cannot stop a robot: its limit 0 means *no limit* (nav2's `NO_SPEED_LIMIT`), so
//!   the value 100 would let a robot cross a wall at full speed. [`write_ros_map`] therefore
//!   writes a speed mask of a map with impassable cells together with a keepout mask of those
//!   cells ([`RosImage::Walls`], at [`keepout_path_for`]).
//! - **Walls** ([`RosImage::Walls`]): a keepout mask of the impassable cells alone.
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
    /// A nav2 keepout mask of the impassable cells alone, the companion of a speed mask.
    Walls,
}

/// The speed mask's value on impassable cells: with the filter info `type: 1`, `base: 100`,
/// `multiplier: -1` nav2 reads it as 1 % of full speed, the slowest limit it can express
/// (the value 100 gives 0 %, which nav2 reads as no limit at all).
pub const SPEED_MASK_IMPASSABLE: u8 = 99;

/// The keepout mask written beside a speed mask at `yaml`: `site.yaml` → `site-keepout.yaml`.
pub fn keepout_path_for(yaml: &Path) -> PathBuf {
    let stem = yaml
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    yaml.with_file_name(format!("{stem}-keepout.yaml"))
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
            (RosImage::Keepout | RosImage::Walls, None) => 100,
            (RosImage::Walls, Some(_)) => 0,
            (RosImage::Speed, None) => SPEED_MASK_IMPASSABLE,
            (RosImage::Keepout, Some(c)) => {
                if c > 1.0 {
                    100
                } else {
                    0
                }
            }
            (RosImage::Speed, Some(c)) => {
                if c > 1.0 {
                    (100.0 - 100.0 / c)
                        .round()
                        .clamp(1.0, f64::from(SPEED_MASK_IMPASSABLE - 1)) as u8
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
        RosImage::Keepout | RosImage::Speed | RosImage::Walls => ("raw", 0.25),
    };
    let [x, y, yaw] = geo.origin;
    format!(
        "image: {image}\nmode: {mode}\nresolution: {}\norigin: [{x:?}, {y:?}, {yaw:?}]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: {free}\n",
        geo.resolution
    )
}

/// Writes `map` as a ROS map: the yaml at `yaml` and its PGM beside it, with the world frame
/// `geo`. The image is saved first, so the yaml never names a missing image. A speed mask of
/// a map with impassable cells comes with a keepout mask of them at [`keepout_path_for`].
/// Returns the yaml files written.
pub fn write_ros_map(
    map: &Map,
    yaml: &Path,
    geo: &GeoReference,
    kind: RosImage,
) -> Result<Vec<PathBuf>, SaveError> {
    write_one(map, yaml, geo, kind)?;
    let mut written = vec![yaml.to_owned()];
    let grid = &map.grid;
    let walls = grid
        .cells()
        .iter()
        .any(|&id| !grid.terrain(id).is_passable());
    if kind == RosImage::Speed && walls {
        let keepout = keepout_path_for(yaml);
        write_one(map, &keepout, geo, RosImage::Walls)?;
        written.push(keepout);
    }
    Ok(written)
}

/// Writes one yaml and its image.
fn write_one(map: &Map, yaml: &Path, geo: &GeoReference, kind: RosImage) -> Result<(), SaveError> {
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
        assert_eq!(pixel_values(&map, RosImage::Speed), [0, 0, 75, 99]);
        assert_eq!(pixel_values(&map, RosImage::Walls), [0, 0, 0, 100]);
        assert_eq!(
            keepout_path_for(Path::new("/m/site.yaml")),
            Path::new("/m/site-keepout.yaml")
        );
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
