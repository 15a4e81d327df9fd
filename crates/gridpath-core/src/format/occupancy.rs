//! Occupancy-map semantics (those of ROS `map_server`): how a pixel's brightness becomes a free
//! cell, a wall, or an unknown cell.

use crate::grid::{Rgb, Terrain};

/// How the pixel values of an occupancy image are read (the `mode` of a ROS `map.yaml`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Interpretation {
    /// Free, wall or unknown, nothing in between (`trinary`, the default).
    #[default]
    Trinary,
    /// Like trinary, but occupancies between the thresholds become graded passable terrains
    /// whose cost rises with the occupancy (`scale`).
    Scale,
    /// The pixel value is the occupancy in percent: 0 free, 100 occupied, above 100 unknown;
    /// the thresholds apply to value / 100, and values between them become graded terrains as
    /// in [`Interpretation::Scale`] (`raw`).
    Raw,
}

impl Interpretation {
    /// The name a `map.yaml` uses.
    pub fn name(self) -> &'static str {
        match self {
            Interpretation::Trinary => "trinary",
            Interpretation::Scale => "scale",
            Interpretation::Raw => "raw",
        }
    }
}

impl std::str::FromStr for Interpretation {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "trinary" => Ok(Interpretation::Trinary),
            "scale" => Ok(Interpretation::Scale),
            "raw" => Ok(Interpretation::Raw),
            _ => Err(format!(
                "mode {s:?} is not one of \"trinary\", \"scale\" or \"raw\""
            )),
        }
    }
}

/// What cells of unknown occupancy become: occupancies between the thresholds (in trinary
/// mode) and transparent pixels.
#[derive(Clone, Debug, PartialEq)]
pub enum Unknown {
    /// A wall: a planner does not enter space it knows nothing about.
    Wall,
    /// The free terrain.
    Free,
    /// A terrain of its own, so the designer sees and repaints it.
    Terrain(Terrain),
}

/// The class of one sample of an occupancy image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OccupancyClass {
    /// Occupancy below the free threshold.
    Free,
    /// Occupancy above the occupied threshold.
    Occupied,
    /// Unknown: between the thresholds in trinary mode, transparent, or a raw value above 100.
    Unknown,
    /// Between the thresholds in scale or raw mode: band 1 (nearly free) to
    /// [`Occupancy::BANDS`] (nearly occupied).
    Band(u8),
}

/// The settings of an occupancy import, with ROS `map_server` semantics.
///
/// A pixel's value is the plain mean of its colour channels (0–255); `negate` flips it to
/// 255 − value; its occupancy is (255 − value) / 255. Occupancy above `occupied_thresh` is a
/// wall, below `free_thresh` free, in between unknown. A transparent pixel is unknown.
#[derive(Clone, Debug, PartialEq)]
pub struct Occupancy {
    /// Treat dark pixels as free and light ones as occupied.
    pub negate: bool,
    /// Occupancy above which a cell is a wall (0–1).
    pub occupied_thresh: f64,
    /// Occupancy below which a cell is free (0–1).
    pub free_thresh: f64,
    /// How values are read.
    pub interpretation: Interpretation,
    /// The terrain of free cells.
    pub free: Terrain,
    /// The terrain of occupied cells.
    pub wall: Terrain,
    /// What unknown cells become.
    pub unknown: Unknown,
}

impl Default for Occupancy {
    fn default() -> Self {
        Self {
            negate: false,
            occupied_thresh: Self::OCCUPIED_THRESH,
            free_thresh: Self::FREE_THRESH,
            interpretation: Interpretation::Trinary,
            free: Terrain::passable("Floor", '.', Rgb([0xf4, 0xf1, 0xea]), 1.0),
            wall: Terrain::impassable("Wall", '#', Rgb([0x22, 0x22, 0x22])),
            unknown: Unknown::Terrain(Terrain::impassable("Unknown", '?', Rgb([0x9a, 0x9a, 0xa8]))),
        }
    }
}

impl Occupancy {
    /// The default occupied threshold.
    pub const OCCUPIED_THRESH: f64 = 0.65;
    /// The default free threshold.
    pub const FREE_THRESH: f64 = 0.25;
    /// The number of graded terrains between free and occupied in scale and raw modes.
    pub const BANDS: u8 = 9;

    /// Checks the thresholds: numbers in [0, 1] with `free_thresh` ≤ `occupied_thresh`.
    pub fn validate(&self) -> Result<(), String> {
        for (name, t) in [
            ("the occupied threshold", self.occupied_thresh),
            ("the free threshold", self.free_thresh),
        ] {
            if !(0.0..=1.0).contains(&t) {
                return Err(format!("{name} {t} must be between 0 and 1"));
            }
        }
        if self.free_thresh > self.occupied_thresh {
            return Err(format!(
                "the free threshold {} must not exceed the occupied threshold {}",
                self.free_thresh, self.occupied_thresh
            ));
        }
        Ok(())
    }

    /// The class of a sample whose value (mean of its colour channels, 0–255) is `value`.
    pub fn classify(&self, value: f64) -> OccupancyClass {
        let value = if self.negate { 255.0 - value } else { value };
        let occupancy = match self.interpretation {
            Interpretation::Trinary | Interpretation::Scale => (255.0 - value) / 255.0,
            Interpretation::Raw => {
                let percent = value.round();
                if percent > 100.0 {
                    return OccupancyClass::Unknown;
                }
                percent / 100.0
            }
        };
        if occupancy > self.occupied_thresh {
            OccupancyClass::Occupied
        } else if occupancy < self.free_thresh {
            OccupancyClass::Free
        } else if self.interpretation == Interpretation::Trinary {
            OccupancyClass::Unknown
        } else {
            let span = self.occupied_thresh - self.free_thresh;
            let ratio = if span > 0.0 {
                (occupancy - self.free_thresh) / span
            } else {
                1.0
            };
            let band = (ratio * f64::from(Self::BANDS)).floor() as u8 + 1;
            OccupancyClass::Band(band.clamp(1, Self::BANDS))
        }
    }

    /// The graded terrain of a band (1 to [`Occupancy::BANDS`]): symbol `1`–`9`, cost 1 + band.
    pub fn band_terrain(band: u8) -> Terrain {
        let band = band.clamp(1, Self::BANDS);
        let shade = 0xe8 - band * 0x14;
        Terrain::passable(
            &format!("Partly occupied {band}/{}", Self::BANDS),
            char::from(b'0' + band),
            Rgb([shade, shade, shade.saturating_add(0x10)]),
            1.0 + f64::from(band),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_thresholds_fall_between_whole_pixel_values() {
        let o = Occupancy::default();
        // occupancy(89) = 166/255 = 0.651 > 0.65; occupancy(90) = 0.647.
        assert_eq!(o.classify(89.0), OccupancyClass::Occupied);
        assert_eq!(o.classify(90.0), OccupancyClass::Unknown);
        // occupancy(191) = 0.251; occupancy(192) = 0.247 < 0.25.
        assert_eq!(o.classify(191.0), OccupancyClass::Unknown);
        assert_eq!(o.classify(192.0), OccupancyClass::Free);
        assert_eq!(o.classify(0.0), OccupancyClass::Occupied);
        assert_eq!(o.classify(255.0), OccupancyClass::Free);
    }

    #[test]
    fn a_value_exactly_at_a_threshold_is_unknown() {
        let o = Occupancy {
            occupied_thresh: (255.0 - 100.0) / 255.0,
            free_thresh: (255.0 - 200.0) / 255.0,
            ..Occupancy::default()
        };
        assert_eq!(o.classify(99.0), OccupancyClass::Occupied);
        assert_eq!(o.classify(100.0), OccupancyClass::Unknown);
        assert_eq!(o.classify(200.0), OccupancyClass::Unknown);
        assert_eq!(o.classify(201.0), OccupancyClass::Free);
    }

    #[test]
    fn negate_flips_the_value() {
        let o = Occupancy {
            negate: true,
            ..Occupancy::default()
        };
        assert_eq!(o.classify(0.0), OccupancyClass::Free);
        assert_eq!(o.classify(255.0), OccupancyClass::Occupied);
        // 255 − 166 = 89 is occupied, 255 − 165 = 90 is not.
        assert_eq!(o.classify(166.0), OccupancyClass::Occupied);
        assert_eq!(o.classify(165.0), OccupancyClass::Unknown);
        assert_eq!(o.classify(63.0), OccupancyClass::Free);
        assert_eq!(o.classify(64.0), OccupancyClass::Unknown);
    }

    #[test]
    fn scale_mode_grades_the_middle() {
        let o = Occupancy {
            interpretation: Interpretation::Scale,
            ..Occupancy::default()
        };
        assert_eq!(o.classify(89.0), OccupancyClass::Occupied);
        assert_eq!(o.classify(192.0), OccupancyClass::Free);
        assert_eq!(o.classify(191.0), OccupancyClass::Band(1));
        assert_eq!(o.classify(90.0), OccupancyClass::Band(9));
        let OccupancyClass::Band(middle) = o.classify(140.0) else {
            panic!("140 lies between the thresholds");
        };
        assert!((4..=6).contains(&middle), "band {middle}");
    }

    #[test]
    fn raw_mode_reads_percentages() {
        let o = Occupancy {
            interpretation: Interpretation::Raw,
            ..Occupancy::default()
        };
        assert_eq!(o.classify(0.0), OccupancyClass::Free);
        assert_eq!(o.classify(24.0), OccupancyClass::Free);
        assert_eq!(o.classify(100.0), OccupancyClass::Occupied);
        assert_eq!(o.classify(66.0), OccupancyClass::Occupied);
        assert_eq!(o.classify(65.0), OccupancyClass::Band(9));
        assert_eq!(o.classify(101.0), OccupancyClass::Unknown);
        assert_eq!(o.classify(255.0), OccupancyClass::Unknown);
    }

    #[test]
    fn thresholds_are_checked() {
        let inverted = Occupancy {
            free_thresh: 0.7,
            ..Occupancy::default()
        };
        assert!(inverted.validate().is_err());
        let outside = Occupancy {
            occupied_thresh: 1.5,
            ..Occupancy::default()
        };
        assert!(outside.validate().is_err());
        let nan = Occupancy {
            free_thresh: f64::NAN,
            ..Occupancy::default()
        };
        assert!(nan.validate().is_err());
        assert!(Occupancy::default().validate().is_ok());
    }
}
