//! The terrain legend of an image map: which pixel colour stands for which terrain.
//!
//! A PNG export carries its legend in an iTXt chunk with the keyword [`KEYWORD`], so that a
//! palette import reads the terrains back exactly: names, symbols, costs, passability and
//! colours, in their order. Each terrain has a pixel colour of its own: its display colour,
//! or, when an earlier terrain has the same one, the nearest colour no other terrain uses.
//!
//! ```
//! use gridpath_core::format::image_export::to_png;
//! use gridpath_core::format::image_import::ImageImport;
//! use gridpath_core::format::legend::Legend;
//! use gridpath_core::grid::{Grid, Rgb, Terrain};
//!
//! let terrains = vec![
//!     Terrain::passable("Grass", '.', Rgb([0x6a, 0xbe, 0x30]), 1.0),
//!     Terrain::impassable("Water", 'w', Rgb([0x3b, 0x78, 0xc4])),
//! ];
//! let grid = Grid::from_cells(2, 1, terrains, vec![0, 1]).expect("a valid grid");
//! let png = to_png(&grid).expect("encodes");
//! let legend = Legend::read_png(&png).expect("reads").expect("carries a legend");
//! assert_eq!(legend.terrains(), grid.terrains());
//! // A palette import of the built-in terrains reads the PNG by its own legend.
//! let back = ImageImport::palette(Terrain::default_catalog()).import(&png).expect("imports");
//! assert_eq!(back, grid);
//! ```

use std::collections::HashMap;
use std::io::Cursor;

use serde::{Deserialize, Serialize};

use super::colour_profiles::without_colour_profiles;
use super::json::{RawTerrain, terrain};
use super::{ImportError, excerpt};
use crate::grid::{Rgb, Terrain, TerrainId};

/// The keyword of the PNG text chunk that holds the legend.
pub const KEYWORD: &str = "gridpath-legend";
/// The value of the legend's `format` field.
const FORMAT_NAME: &str = "gridpath-legend";
/// The legend format this build writes and reads.
const VERSION: u64 = 1;
/// The most bytes of legend text read from a compressed chunk.
const MAX_TEXT: usize = 1 << 20;

/// One terrain of a legend and the pixel colour that stands for it.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendEntry {
    /// The colour of the pixels of this terrain.
    pub pixel: Rgb,
    /// The terrain.
    pub terrain: Terrain,
}

/// Terrains and the pixel colours that stand for them, in the catalog's order.
#[derive(Clone, Debug, PartialEq)]
pub struct Legend {
    entries: Vec<LegendEntry>,
}

impl Legend {
    /// The legend an export writes: each terrain's pixel is its colour, or, for a terrain
    /// whose colour an earlier one already has, the nearest unused colour (a channel moved
    /// by the least), so that every pixel names one terrain.
    pub fn for_export(terrains: &[Terrain]) -> Self {
        let mut used: Vec<Rgb> = Vec::with_capacity(terrains.len());
        let entries = terrains
            .iter()
            .map(|t| {
                let pixel = unused_near(t.color, &used);
                used.push(pixel);
                LegendEntry {
                    pixel,
                    terrain: t.clone(),
                }
            })
            .collect();
        Self { entries }
    }

    /// The legend of a palette of terrains, each standing for its own colour; of terrains
    /// with one colour, the first is read.
    pub fn of_palette(terrains: Vec<Terrain>) -> Self {
        let entries = terrains
            .into_iter()
            .map(|terrain| LegendEntry {
                pixel: terrain.color,
                terrain,
            })
            .collect();
        Self { entries }
    }

    /// The entries, in the catalog's order.
    pub fn entries(&self) -> &[LegendEntry] {
        &self.entries
    }

    /// The terrains, in the catalog's order.
    pub fn terrains(&self) -> Vec<Terrain> {
        self.entries.iter().map(|e| e.terrain.clone()).collect()
    }

    /// The terrain each pixel colour stands for (the first entry of a colour).
    pub fn lookup(&self) -> HashMap<[u8; 3], TerrainId> {
        let mut map = HashMap::with_capacity(self.entries.len());
        for (i, e) in self.entries.iter().enumerate() {
            map.entry(e.pixel.0).or_insert(i as TerrainId);
        }
        map
    }

    /// The colours and names, for messages: `#6abe30 Grass, #c8b58c Road`; past twelve,
    /// how many more.
    pub fn describe(&self) -> String {
        const SHOWN: usize = 12;
        let mut listed: Vec<String> = self
            .entries
            .iter()
            .take(SHOWN)
            .map(|e| format!("{} {}", e.pixel, excerpt(&e.terrain.name)))
            .collect();
        if self.entries.len() > SHOWN {
            listed.push(format!("and {} more", self.entries.len() - SHOWN));
        }
        listed.join(", ")
    }

    /// The legend as the JSON text of its chunk.
    pub fn to_json(&self) -> String {
        let terrains = self
            .entries
            .iter()
            .map(|e| WrittenEntry {
                pixel: e.pixel.to_string(),
                symbol: e.terrain.symbol.to_string(),
                name: &e.terrain.name,
                cost: e.terrain.cost,
                color: e.terrain.color.to_string(),
            })
            .collect();
        let written = WrittenLegend {
            format: FORMAT_NAME,
            version: VERSION,
            terrains,
        };
        serde_json::to_string(&written).unwrap_or_default()
    }

    /// Parses the JSON text of a legend chunk, checking each terrain as a map file's.
    pub fn parse(text: &str) -> Result<Self, ImportError> {
        let bad = |message: String| ImportError::Legend(message);
        let raw: RawLegend =
            serde_json::from_str(text).map_err(|e| bad(format!("not a legend: {e}")))?;
        if raw.format != FORMAT_NAME || raw.version == 0 || raw.version > VERSION {
            return Err(bad(format!(
                "format {:?} version {} is not a legend this build reads ({FORMAT_NAME} {VERSION})",
                raw.format, raw.version
            )));
        }
        if raw.terrains.is_empty() || raw.terrains.len() > 256 {
            return Err(bad(format!(
                "a legend needs between 1 and 256 terrains, got {}",
                raw.terrains.len()
            )));
        }
        let mut entries = Vec::with_capacity(raw.terrains.len());
        let mut seen: HashMap<[u8; 3], usize> = HashMap::new();
        for (i, raw) in raw.terrains.iter().enumerate() {
            let terrain = terrain(i, &raw.terrain).map_err(|e| bad(e.to_string()))?;
            let pixel: Rgb = raw
                .pixel
                .parse()
                .map_err(|e| bad(format!("terrains[{i}].pixel: {e}")))?;
            if let Some(first) = seen.insert(pixel.0, i) {
                return Err(bad(format!(
                    "terrains[{first}] and terrains[{i}] have the same pixel colour {pixel}"
                )));
            }
            entries.push(LegendEntry { pixel, terrain });
        }
        Ok(Self { entries })
    }

    /// The legend a PNG carries, if any: `None` for other images and for PNGs without one;
    /// an error for a legend chunk that cannot be read. Colour profiles are skipped unread,
    /// as the import skips them.
    pub fn read_png(bytes: &[u8]) -> Result<Option<Self>, ImportError> {
        if !bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
            return Ok(None);
        }
        let bytes = without_colour_profiles(bytes);
        // Text chunks before the image data are read with the header; no pixel is decoded.
        let limits = png::Limits { bytes: 1 << 26 };
        let decoder = png::Decoder::new_with_limits(Cursor::new(&bytes[..]), limits);
        let reader = decoder
            .read_info()
            .map_err(|e| ImportError::Decode(e.to_string()))?;
        let info = reader.info();
        let Some(chunk) = info.utf8_text.iter().find(|c| c.keyword == KEYWORD) else {
            return Ok(None);
        };
        let mut chunk = chunk.clone();
        chunk
            .decompress_text_with_limit(MAX_TEXT)
            .map_err(|e| ImportError::Legend(format!("cannot decompress the chunk: {e}")))?;
        let text = chunk
            .get_text()
            .map_err(|e| ImportError::Legend(format!("cannot read the chunk: {e}")))?;
        Self::parse(&text).map(Some)
    }
}

/// The colour nearest `colour` (by the sum of channel differences, then red, green, blue
/// first) that is not in `used`.
fn unused_near(colour: Rgb, used: &[Rgb]) -> Rgb {
    let free = |c: [u8; 3]| !used.iter().any(|u| u.0 == c);
    if free(colour.0) {
        return colour;
    }
    // At most 256 colours are used, so a step of 86 in one channel finds a free one.
    for step in 1..=255i16 {
        for channel in 0..3 {
            for sign in [1i16, -1] {
                let mut c = colour.0;
                let moved = i16::from(c[channel]) + sign * step;
                let Ok(value) = u8::try_from(moved) else {
                    continue;
                };
                c[channel] = value;
                if free(c) {
                    return Rgb(c);
                }
            }
        }
    }
    colour
}

#[derive(Serialize)]
struct WrittenLegend<'a> {
    format: &'static str,
    version: u64,
    terrains: Vec<WrittenEntry<'a>>,
}

#[derive(Serialize)]
struct WrittenEntry<'a> {
    pixel: String,
    symbol: String,
    name: &'a str,
    cost: Option<f64>,
    color: String,
}

#[derive(Deserialize)]
struct RawLegend {
    format: String,
    version: u64,
    terrains: Vec<RawEntry>,
}

#[derive(Deserialize)]
struct RawEntry {
    pixel: String,
    #[serde(flatten)]
    terrain: RawTerrain,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog() -> Vec<Terrain> {
        let mut terrains = Terrain::default_catalog();
        terrains.push(Terrain::impassable("Wáter", 'w', Rgb([0x3b, 0x78, 0xc4])));
        terrains
    }

    #[test]
    fn a_legend_round_trips_through_its_json() {
        let legend = Legend::for_export(&catalog());
        let back = Legend::parse(&legend.to_json()).expect("parses");
        assert_eq!(back, legend);
        assert_eq!(back.terrains(), catalog());
        assert_eq!(back.entries()[4].terrain.cost, None);
    }

    #[test]
    fn terrains_of_one_colour_get_pixels_of_their_own() {
        let mut terrains = catalog();
        let grass = terrains[0].color;
        terrains.push(Terrain::passable("Meadow", 'm', grass, 2.0));
        terrains.push(Terrain::passable("Lawn", 'l', grass, 4.0));
        let legend = Legend::for_export(&terrains);
        let pixels: Vec<Rgb> = legend.entries().iter().map(|e| e.pixel).collect();
        assert_eq!(pixels[0], grass);
        assert_eq!(pixels[5], Rgb([0x6b, 0xbe, 0x30]));
        assert_eq!(pixels[6], Rgb([0x69, 0xbe, 0x30]));
        assert_eq!(legend.lookup().len(), terrains.len());
        assert_eq!(
            legend.entries()[6].terrain.color,
            grass,
            "display colour kept"
        );
    }

    #[test]
    fn bad_legends_are_errors_that_say_why() {
        let json = Legend::for_export(&catalog()).to_json();
        let same_pixel = json.replace("\"pixel\":\"#c8b58c\"", "\"pixel\":\"#6abe30\"");
        let err = Legend::parse(&same_pixel).expect_err("two terrains, one pixel");
        assert!(
            err.to_string().contains("same pixel colour #6abe30"),
            "{err}"
        );
        let bad_cost = json.replace("\"cost\":3.0", "\"cost\":-3.0");
        let err = Legend::parse(&bad_cost).expect_err("a negative cost");
        assert!(err.to_string().contains("cost"), "{err}");
        let err = Legend::parse("{\"format\":\"gridpath-map\",\"version\":1,\"terrains\":[]}")
            .expect_err("not a legend");
        assert!(err.to_string().contains("gridpath-map"), "{err}");
        assert!(Legend::parse("[").is_err());
    }

    #[test]
    fn a_png_with_a_broken_legend_chunk_is_an_error_and_one_without_has_none() {
        let png = |text: Option<&str>| {
            let mut out = Vec::new();
            let mut encoder = png::Encoder::new(&mut out, 1, 1);
            encoder.set_color(png::ColorType::Grayscale);
            if let Some(text) = text {
                encoder
                    .add_itxt_chunk(KEYWORD.to_owned(), text.to_owned())
                    .expect("a chunk");
            }
            let mut writer = encoder.write_header().expect("a header");
            writer.write_image_data(&[0]).expect("pixels");
            writer.finish().expect("written");
            out
        };
        let err = Legend::read_png(&png(Some("{\"format\": 1"))).expect_err("broken");
        assert!(matches!(err, ImportError::Legend(_)), "{err:?}");
        assert!(
            err.to_string()
                .starts_with("the terrain legend the PNG carries"),
            "{err}"
        );
        assert_eq!(Legend::read_png(&png(None)), Ok(None));
        assert_eq!(Legend::read_png(b"P5\n1 1\n255\n\0"), Ok(None));
    }
}
