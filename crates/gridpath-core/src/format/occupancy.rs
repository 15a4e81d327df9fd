//! Occupancy-map semantics (those of ROS `map_server`): how a pixel's brightness becomes a free
//! cell, a wall, or an unknown cell.
//!
//! A pixel first becomes the value `map_server` publishes in its `OccupancyGrid` (−1 unknown,
//! 0 free, 100 occupied, 1–99 in between), computed as nav2's `map_io.cpp` or ROS 1's
//! `image_loader.cpp` computes it ([`MapServer`]); gridpath then reads that value: 0 free,
//! 100 a wall, −1 (and any value outside 0–100) unknown, 1–99 one of [`Occupancy::BANDS`]
//! graded passable terrains.

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
    /// The pixel value is the cell's value: 0 free, 100 occupied, 1–99 graded terrains as in
    /// [`Interpretation::Scale`], above 100 unknown; the thresholds are not read, nor (in
    /// nav2) `negate` (`raw`).
    Raw,
}

/// Whose reading of an image an occupancy import follows: the two `map_server`s agree on
/// grey images in trinary mode and differ in the details below.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MapServer {
    /// nav2's `map_server` (ROS 2, `nav2_map_server/src/map_io.cpp`, through `GraphicsMagick` with
    /// 16-bit quanta): a pixel's shade is the mean of its red, green and blue quanta, with the
    /// alpha quantum averaged in when the image has alpha and the mode is trinary; 16-bit
    /// samples are read whole. Scale mode: a pixel that is not fully opaque is unknown, values
    /// between the thresholds are `rint(ratio · 100)` and the band's ends 0 (free) and 100
    /// (occupied). Raw mode: the value is `round(shade · 255)`, `negate` ignored.
    #[default]
    Nav2,
    /// ROS 1's `map_server` (`map_server/src/image_loader.cpp`, through `SDL_image` at 8 bits a
    /// channel): the mean of the bytes of a pixel (16-bit samples by their high byte), alpha
    /// left out in scale and raw modes; `negate` applies in every mode. Scale mode: a pixel
    /// whose last byte is 0 is unknown (for an RGB image without alpha that byte is blue),
    /// values between the thresholds are `1 + 98 · ratio`, truncated. Raw mode: the mean,
    /// truncated.
    Ros1,
}

impl MapServer {
    /// The name the command line uses.
    pub fn name(self) -> &'static str {
        match self {
            MapServer::Nav2 => "nav2",
            MapServer::Ros1 => "ros1",
        }
    }
}

/// How an image stores its pixels, as far as `map_server`'s reading depends on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// One grey channel rather than red, green and blue.
    pub grey: bool,
    /// Whether a pixel has alpha, after its colour channels.
    pub alpha: bool,
    /// 16-bit samples (0–65535) rather than 8-bit (0–255).
    pub wide: bool,
}

impl Layout {
    /// An 8-bit grey image without alpha, as `map_saver` writes.
    pub const GREY8: Layout = Layout {
        grey: true,
        alpha: false,
        wide: false,
    };

    /// The number of samples of one pixel.
    pub fn channels(self) -> usize {
        (if self.grey { 1 } else { 3 }) + usize::from(self.alpha)
    }
}

/// What one pixel contributes to a cell, computed once per image layout: the sum of the
/// channels `map_server` averages (a grey channel counted three times), in the units of
/// [`PixelRule::max_key`], and whether scale mode calls the pixel transparent.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PixelRule {
    map_server: MapServer,
    layout: Layout,
    /// Whether the alpha sample is averaged in.
    alpha_counted: bool,
    /// The number of channels averaged: 3, or 4 with alpha.
    divisor: u32,
    /// Bits dropped from each sample before it is read (8 for ROS 1 on 16-bit samples).
    shift: u32,
    /// The largest sample after the shift.
    max: u32,
    /// Whether scale mode's transparency rule applies.
    scale_alpha: bool,
}

impl PixelRule {
    pub(crate) fn new(occupancy: &Occupancy, layout: Layout) -> Self {
        let shift = if layout.wide && occupancy.map_server == MapServer::Ros1 {
            8
        } else {
            0
        };
        let max = if layout.wide && shift == 0 {
            65535
        } else {
            255
        };
        let alpha_counted = layout.alpha && occupancy.interpretation == Interpretation::Trinary;
        Self {
            map_server: occupancy.map_server,
            layout,
            alpha_counted,
            divisor: 3 + u32::from(alpha_counted),
            shift,
            max,
            scale_alpha: occupancy.interpretation == Interpretation::Scale,
        }
    }

    /// The largest key a pixel can have.
    #[cfg(feature = "images")]
    pub(crate) fn max_key(&self) -> u32 {
        self.divisor * self.max
    }

    /// The key of a pixel's samples (at least [`Layout::channels`] of them).
    #[inline]
    pub(crate) fn key(&self, pixel: &[u16]) -> u32 {
        let sample = |i: usize| u32::from(pixel[i]) >> self.shift;
        let colour = if self.layout.grey {
            3 * sample(0)
        } else {
            sample(0) + sample(1) + sample(2)
        };
        if self.alpha_counted {
            colour + sample(self.layout.channels() - 1)
        } else {
            colour
        }
    }

    /// Whether scale mode makes the pixel unknown for its transparency.
    #[inline]
    pub(crate) fn transparent(&self, pixel: &[u16]) -> bool {
        if !self.scale_alpha {
            return false;
        }
        let last = u32::from(pixel[self.layout.channels() - 1]) >> self.shift;
        match self.map_server {
            MapServer::Nav2 => self.layout.alpha && last != self.max,
            // SDL hands over grey images one byte a pixel, and ROS 1 reads the alpha of those
            // as 1; of any other pixel it reads the last byte.
            MapServer::Ros1 => (self.layout.alpha || !self.layout.grey) && last == 0,
        }
    }

    /// The value `map_server` publishes for a pixel of this key (a mean key for a mean of
    /// pixels), transparent or not by [`PixelRule::transparent`].
    pub(crate) fn value(&self, occupancy: &Occupancy, key: f64, transparent: bool) -> i16 {
        let (occ_t, free_t) = (occupancy.occupied_thresh, occupancy.free_thresh);
        let divisor = f64::from(self.divisor);
        match self.map_server {
            MapServer::Nav2 => {
                // GraphicsMagick's quanta: an 8-bit sample v is v · 257 of 65535.
                let unit = if self.max == 255 { 257.0 } else { 1.0 };
                let shade = key * unit / divisor / 65535.0;
                if occupancy.interpretation == Interpretation::Raw {
                    let percent = (shade * 255.0).round();
                    return if (0.0..=100.0).contains(&percent) {
                        percent as i16
                    } else {
                        -1
                    };
                }
                let occ = if occupancy.negate { shade } else { 1.0 - shade };
                if transparent {
                    -1
                } else if occ_t < occ {
                    100
                } else if occ < free_t {
                    0
                } else if occupancy.interpretation == Interpretation::Trinary {
                    -1
                } else if occ_t > free_t {
                    ((occ - free_t) / (occ_t - free_t) * 100.0).round_ties_even() as i16
                } else {
                    100
                }
            }
            MapServer::Ros1 => {
                let mut mean = key / divisor;
                if occupancy.negate {
                    mean = 255.0 - mean;
                }
                if occupancy.interpretation == Interpretation::Raw {
                    // The mean as a byte, published as is: above 100 it is no occupancy.
                    let byte = mean as u8;
                    return if byte <= 100 { i16::from(byte) } else { -1 };
                }
                let occ = (255.0 - mean) / 255.0;
                if occ > occ_t {
                    100
                } else if occ < free_t {
                    0
                } else if occupancy.interpretation == Interpretation::Trinary || transparent {
                    -1
                } else if occ_t > free_t {
                    i16::from((1.0 + 98.0 * (occ - free_t) / (occ_t - free_t)) as u8)
                } else {
                    99
                }
            }
        }
    }
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
/// A pixel's shade is the mean of its channels (with alpha averaged in, in trinary mode);
/// `negate` flips it; its occupancy is 1 − shade. Occupancy above `occupied_thresh` is a
/// wall, below `free_thresh` free, in between unknown (trinary) or graded (scale). The
/// details of each `map_server` are those of [`MapServer`].
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
    /// Whose `map_server`'s reading to follow.
    pub map_server: MapServer,
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
            map_server: MapServer::Nav2,
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

    /// The value `map_server` publishes for one pixel of an image of this layout: −1 unknown,
    /// 0 free, 100 occupied, between them graded. `pixel` holds its samples in the file's
    /// order (grey or red, green, blue, then alpha), 0–255 or, for 16-bit images, 0–65535.
    ///
    /// ```
    /// use gridpath_core::format::occupancy::{Layout, Occupancy};
    ///
    /// let o = Occupancy { free_thresh: 0.196, ..Occupancy::default() };
    /// assert_eq!(o.cell_value(Layout::GREY8, &[0]), 100);
    /// assert_eq!(o.cell_value(Layout::GREY8, &[205]), -1);
    /// assert_eq!(o.cell_value(Layout::GREY8, &[254]), 0);
    /// // Opaque grey 205 with alpha: nav2 averages the alpha in, and the pixel is free.
    /// let grey_alpha = Layout { alpha: true, ..Layout::GREY8 };
    /// assert_eq!(o.cell_value(grey_alpha, &[205, 255]), 0);
    /// ```
    pub fn cell_value(&self, layout: Layout, pixel: &[u16]) -> i16 {
        let rule = PixelRule::new(self, layout);
        if pixel.len() < layout.channels() {
            return -1;
        }
        rule.value(self, f64::from(rule.key(pixel)), rule.transparent(pixel))
    }

    /// How gridpath reads a published value: 0 free, 100 occupied, 1–99 the graded bands
    /// (1–11 band 1, …, 89–99 band 9), anything else unknown.
    pub fn class_of(value: i16) -> OccupancyClass {
        match value {
            0 => OccupancyClass::Free,
            100 => OccupancyClass::Occupied,
            1..=99 => OccupancyClass::Band(1 + ((value - 1) * i16::from(Self::BANDS) / 99) as u8),
            _ => OccupancyClass::Unknown,
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

    fn nav2(o: &Occupancy, grey: u16) -> i16 {
        o.cell_value(Layout::GREY8, &[grey])
    }

    fn ros1(o: &Occupancy, grey: u16) -> i16 {
        let o = Occupancy {
            map_server: MapServer::Ros1,
            ..o.clone()
        };
        o.cell_value(Layout::GREY8, &[grey])
    }

    const RGBA8: Layout = Layout {
        grey: false,
        alpha: true,
        wide: false,
    };
    const RGB8: Layout = Layout {
        grey: false,
        alpha: false,
        wide: false,
    };

    #[test]
    fn default_thresholds_fall_between_whole_pixel_values() {
        let o = Occupancy::default();
        for read in [nav2, ros1] {
            // occupancy(89) = 166/255 = 0.651 > 0.65; occupancy(90) = 0.647.
            assert_eq!(read(&o, 89), 100);
            assert_eq!(read(&o, 90), -1);
            // occupancy(191) = 0.251; occupancy(192) = 0.247 < 0.25.
            assert_eq!(read(&o, 191), -1);
            assert_eq!(read(&o, 192), 0);
            assert_eq!(read(&o, 0), 100);
            assert_eq!(read(&o, 255), 0);
        }
    }

    #[test]
    fn a_value_exactly_at_a_threshold_is_unknown() {
        // nav2 computes 1 − shade, ROS 1 (255 − mean) / 255: thresholds exactly there.
        let nav2_at = |v: f64| 1.0 - v / 255.0;
        let o = Occupancy {
            occupied_thresh: nav2_at(100.0),
            free_thresh: nav2_at(200.0),
            ..Occupancy::default()
        };
        assert_eq!(nav2(&o, 99), 100);
        assert_eq!(nav2(&o, 100), -1);
        assert_eq!(nav2(&o, 200), -1);
        assert_eq!(nav2(&o, 201), 0);
        let ros1_at = |v: f64| (255.0 - v) / 255.0;
        let o = Occupancy {
            occupied_thresh: ros1_at(100.0),
            free_thresh: ros1_at(200.0),
            ..Occupancy::default()
        };
        assert_eq!(ros1(&o, 100), -1);
        assert_eq!(ros1(&o, 200), -1);
    }

    #[test]
    fn negate_flips_the_value() {
        let o = Occupancy {
            negate: true,
            ..Occupancy::default()
        };
        for read in [nav2, ros1] {
            assert_eq!(read(&o, 0), 0);
            assert_eq!(read(&o, 255), 100);
            // 255 − 166 = 89 is occupied, 255 − 165 = 90 is not.
            assert_eq!(read(&o, 166), 100);
            assert_eq!(read(&o, 165), -1);
            assert_eq!(read(&o, 63), 0);
            assert_eq!(read(&o, 64), -1);
        }
    }

    #[test]
    fn scale_mode_rounds_in_nav2_and_truncates_in_ros1() {
        let o = Occupancy {
            interpretation: Interpretation::Scale,
            ..Occupancy::default()
        };
        assert_eq!(nav2(&o, 89), 100);
        assert_eq!(nav2(&o, 192), 0);
        // occupancy 0.25098: rint(0.245) = 0, the band's free end; ROS 1: 1 + 0.24 → 1.
        assert_eq!(nav2(&o, 191), 0);
        assert_eq!(ros1(&o, 191), 1);
        // occupancy 0.647: rint(99.3) = 99; ROS 1: 1 + 97.3 → 98.
        assert_eq!(nav2(&o, 90), 99);
        assert_eq!(ros1(&o, 90), 98);
        // occupancy 0.451: rint(50.2) = 50.
        assert_eq!(nav2(&o, 140), 50);
        assert_eq!(Occupancy::class_of(50), OccupancyClass::Band(5));

        // nav2's speed-mask tutorial thresholds: the band is all of 0–1 and its ends count.
        let tutorial = Occupancy {
            free_thresh: 0.0,
            occupied_thresh: 1.0,
            ..o
        };
        assert_eq!(nav2(&tutorial, 0), 100);
        assert_eq!(
            Occupancy::class_of(nav2(&tutorial, 0)),
            OccupancyClass::Occupied
        );
        assert_eq!(nav2(&tutorial, 255), 0);
        assert_eq!(nav2(&tutorial, 128), 50);
    }

    #[test]
    fn raw_mode_reads_the_value_and_nav2_ignores_negate() {
        let o = Occupancy {
            interpretation: Interpretation::Raw,
            ..Occupancy::default()
        };
        for read in [nav2, ros1] {
            assert_eq!(read(&o, 0), 0);
            assert_eq!(read(&o, 24), 24);
            assert_eq!(read(&o, 66), 66);
            assert_eq!(read(&o, 100), 100);
            assert_eq!(read(&o, 101), -1);
            assert_eq!(read(&o, 255), -1);
        }
        let negated = Occupancy {
            negate: true,
            ..o.clone()
        };
        assert_eq!(nav2(&negated, 0), 0);
        assert_eq!(nav2(&negated, 255), -1);
        assert_eq!(ros1(&negated, 0), -1);
        assert_eq!(ros1(&negated, 255), 0);
        // The mean of (1, 2, 2) is 1.67: nav2 rounds, ROS 1 truncates.
        assert_eq!(o.cell_value(RGB8, &[1, 2, 2]), 2);
        let o1 = Occupancy {
            map_server: MapServer::Ros1,
            ..o
        };
        assert_eq!(o1.cell_value(RGB8, &[1, 2, 2]), 1);
        assert_eq!(Occupancy::class_of(66), OccupancyClass::Band(6));
        assert_eq!(Occupancy::class_of(1), OccupancyClass::Band(1));
        assert_eq!(Occupancy::class_of(99), OccupancyClass::Band(9));
    }

    #[test]
    fn alpha_is_averaged_in_trinary_and_makes_scale_unknown() {
        let o = Occupancy {
            free_thresh: 0.196,
            ..Occupancy::default()
        };
        let o1 = Occupancy {
            map_server: MapServer::Ros1,
            ..o.clone()
        };
        // Opaque unknown grey: (3 · 205 + 255) / 4 = 217.5, occupancy 0.147: free to both.
        assert_eq!(o.cell_value(RGBA8, &[205, 205, 205, 255]), 0);
        assert_eq!(o1.cell_value(RGBA8, &[205, 205, 205, 255]), 0);
        // Transparent black: (0 + 0) / 4, occupied.
        assert_eq!(o.cell_value(RGBA8, &[0, 0, 0, 0]), 100);
        let scale = Occupancy {
            interpretation: Interpretation::Scale,
            ..o
        };
        let scale1 = Occupancy {
            map_server: MapServer::Ros1,
            ..scale.clone()
        };
        // Scale mode leaves alpha out of the mean; nav2 makes any pixel not fully opaque
        // unknown, ROS 1 only a fully transparent one between the thresholds.
        // Occupancy 0.451 of the band 0.196–0.65: rint(56.1) = 56.
        assert_eq!(scale.cell_value(RGBA8, &[140, 140, 140, 255]), 56);
        assert_eq!(scale.cell_value(RGBA8, &[140, 140, 140, 254]), -1);
        assert_eq!(scale.cell_value(RGBA8, &[0, 0, 0, 254]), -1);
        assert!((1..=99).contains(&scale1.cell_value(RGBA8, &[140, 140, 140, 254])));
        assert_eq!(scale1.cell_value(RGBA8, &[140, 140, 140, 0]), -1);
        assert_eq!(scale1.cell_value(RGBA8, &[0, 0, 0, 0]), 100);
        // ROS 1 reads an RGB pixel's blue byte as its alpha.
        assert_eq!(scale1.cell_value(RGB8, &[210, 210, 0]), -1);
        assert!((1..=99).contains(&scale.cell_value(RGB8, &[210, 210, 0])));
    }

    #[test]
    fn sixteen_bit_samples_are_whole_to_nav2_and_their_high_byte_to_ros1() {
        let o = Occupancy::default();
        let o1 = Occupancy {
            map_server: MapServer::Ros1,
            ..o.clone()
        };
        let wide = Layout {
            wide: true,
            ..Layout::GREY8
        };
        // 0x59FF: shade 0.35155, occupancy 0.6484, unknown to nav2; high byte 0x59 = 89,
        // occupied to ROS 1.
        assert_eq!(o.cell_value(wide, &[0x59ff]), -1);
        assert_eq!(o1.cell_value(wide, &[0x59ff]), 100);
        assert_eq!(o.cell_value(wide, &[89 * 257]), 100);
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
