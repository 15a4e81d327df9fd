//! Images to grids: scanned floorplans and robot occupancy maps (occupancy mode), and maps
//! painted in an image editor or exported by gridpath (palette mode, read by exact colours:
//! a PNG's own terrain legend, see [`legend`](super::legend), or the palette given).
//!
//! ```
//! use gridpath_core::format::image_import::ImageImport;
//! use image::{GrayImage, ImageFormat, Luma};
//!
//! // A 3 × 1 image: black, mid-grey, white.
//! let image = GrayImage::from_fn(3, 1, |x, _| Luma([[0, 128, 255][x as usize]]));
//! let mut png = std::io::Cursor::new(Vec::new());
//! image.write_to(&mut png, ImageFormat::Png).expect("encodes");
//!
//! let grid = ImageImport::default().import(png.get_ref()).expect("a valid image");
//! let symbols: String = grid.cells().iter().map(|&id| grid.terrain(id).symbol).collect();
//! assert_eq!(symbols, "#?.");
//! ```

use std::borrow::Cow;
use std::io::Cursor;
use std::path::Path;

use image::error::{LimitErrorKind, UnsupportedErrorKind};
use image::{
    ColorType, DynamicImage, GrayImage, ImageDecoder, ImageError, ImageFormat, ImageReader, Limits,
    RgbImage,
};

use super::ImportError;
use super::colour_profiles::without_colour_profiles;
use super::legend::Legend;
use super::occupancy::{Layout, Occupancy, OccupancyClass, PixelRule, Unknown};
use super::read::{FileLimit, read_file};
use super::thin_walls;
use crate::grid::{Grid, Map, Rgb, Terrain, TerrainId};

/// How pixels become terrains.
#[derive(Clone, Debug, PartialEq)]
pub enum ImportMode {
    /// Brightness as occupancy, with ROS `map_server` semantics (see [`Occupancy`]).
    Occupancy(Occupancy),
    /// Each pixel colour stands for the terrain of the legend with that pixel colour; the
    /// catalog is the legend's terrains, in this order. A colour the legend lacks is an error
    /// ([`ImportError::UnknownColour`]) naming it and its first pixel, never the nearest
    /// terrain. A cell made of several pixels takes the terrain most of them stand for (the
    /// first in the legend of equals). Alpha is ignored. [`ImageImport::import`] reads a PNG
    /// by the legend the PNG carries, when it carries one, instead of this one.
    Palette(Legend),
}

/// How many cells an image becomes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scale {
    /// Cells per pixel along each side: 1 is one cell per pixel, 0.25 one cell per 4 × 4
    /// block of pixels (averaged), 2 four cells per pixel.
    CellsPerPixel(f64),
    /// A grid this many cells wide; the height follows the image's aspect ratio.
    Width(u32),
}

impl Default for Scale {
    fn default() -> Self {
        Scale::CellsPerPixel(1.0)
    }
}

/// How an occupancy import combines the pixels that fall into one cell when it downscales.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reduce {
    /// The cell takes the class of the mean value of its pixels, so dust and speckle fade;
    /// then, where a wall line thinner than a cell keeps two regions of free pixels apart,
    /// the cells it crosses become walls, so that the rooms stay apart behind a connected
    /// line of wall cells (see [`thin_walls`](super::thin_walls)).
    #[default]
    MeanWalls,
    /// The cell takes the class of its most occupied pixel (occupied before unknown before
    /// graded before free), so a wall one pixel thick stays a wall at any scale, and so does
    /// a speck of dust.
    Max,
    /// The cell takes the class of the mean value of its pixels: thin walls fade into grey.
    Mean,
}

impl Reduce {
    /// The name the command line uses.
    pub fn name(self) -> &'static str {
        match self {
            Reduce::MeanWalls => "mean-walls",
            Reduce::Max => "max",
            Reduce::Mean => "mean",
        }
    }
}

/// The settings of an image import, and the import itself.
///
/// Each cell covers a block of pixels; upsampling repeats a pixel. In occupancy mode each
/// pixel gets the value `map_server` publishes for it ([`Occupancy::cell_value`], by nav2's or
/// ROS 1's rules), and a block takes the class of the mean of its pixels with thin walls
/// kept ([`Reduce::MeanWalls`], the default), of its most occupied pixel ([`Reduce::Max`]) or
/// of the mean alone ([`Reduce::Mean`]; in scale mode a block with more transparent pixels
/// than others is unknown). In palette mode a block takes the terrain
/// of most of its pixels.
///
/// A pixel's shade is the plain mean of its channels, as ROS `map_server` reads it, so
/// in occupancy mode a saturated colour is as dark as its mean: pure red (255, 0, 0) has the
/// value 85 and is occupied. Maps painted in colours are read in palette mode.
#[derive(Clone, Debug, PartialEq)]
pub struct ImageImport {
    /// How pixels become terrains.
    pub mode: ImportMode,
    /// How many cells the image becomes.
    pub scale: Scale,
    /// How the pixels of one cell are combined in occupancy mode.
    pub reduce: Reduce,
    /// The largest image width and height accepted, checked against the file's header before
    /// decoding.
    pub max_side: u32,
    /// The most memory, in bytes, the decoded pixels may take: at the file's own depth, plus
    /// the 8-bit copy the import reads when they are not 8-bit; checked from the header.
    pub max_alloc: u64,
}

impl Default for ImageImport {
    fn default() -> Self {
        Self::occupancy(Occupancy::default())
    }
}

impl ImageImport {
    /// The default largest image width and height.
    pub const MAX_SIDE: u32 = 16384;
    /// The default memory limit of the decoder: 1.5 GiB, enough for a 16384 × 16384 RGBA image.
    pub const MAX_ALLOC: u64 = 3 << 29;

    /// An occupancy import at one cell per pixel.
    pub fn occupancy(occupancy: Occupancy) -> Self {
        Self {
            mode: ImportMode::Occupancy(occupancy),
            scale: Scale::default(),
            reduce: Reduce::default(),
            max_side: Self::MAX_SIDE,
            max_alloc: Self::MAX_ALLOC,
        }
    }

    /// A palette import at one cell per pixel: each terrain stands for the pixels of its
    /// colour (see [`ImportMode::Palette`]).
    pub fn palette(terrains: Vec<Terrain>) -> Self {
        Self::legend(Legend::of_palette(terrains))
    }

    /// A palette import by a legend, at one cell per pixel.
    pub fn legend(legend: Legend) -> Self {
        Self {
            mode: ImportMode::Palette(legend),
            ..Self::default()
        }
    }

    /// The import of an image file as a user asks for it: by the terrain legend a PNG
    /// carries, when it carries one and `palette` is asked or no occupancy setting is given
    /// (`occupancy_settings`); else a palette import of the built-in terrains with
    /// `palette`; else the default occupancy import. The flag tells whether the PNG's own
    /// legend is used.
    pub fn for_file(
        path: &Path,
        palette: bool,
        occupancy_settings: bool,
    ) -> Result<(Self, bool), ImportError> {
        if palette || !occupancy_settings {
            let bytes = read_file(path, FileLimit::IMAGE).map_err(|e| ImportError::Io {
                path: path.to_owned(),
                message: e.to_string(),
            })?;
            let legend = Legend::read_png(&bytes).map_err(|e| e.in_file(path))?;
            if let Some(legend) = legend {
                return Ok((Self::legend(legend), true));
            }
        }
        let import = if palette {
            Self::palette(Terrain::default_catalog())
        } else {
            Self::default()
        };
        Ok((import, false))
    }

    /// Reads an image file into a map named after the file.
    pub fn load(&self, path: &Path) -> Result<Map, ImportError> {
        let bytes = read_file(path, FileLimit::IMAGE).map_err(|e| ImportError::Io {
            path: path.to_owned(),
            message: e.to_string(),
        })?;
        let grid = self.import(&bytes).map_err(|e| e.in_file(path))?;
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("image");
        Ok(Map::new(name, grid))
    }

    /// Imports an encoded image (PNG, JPEG, BMP or Netpbm: PGM, PBM, PPM). The size limits and the size of the
    /// resulting grid are checked from the header, before the pixels are decoded. In palette
    /// mode a PNG that carries a terrain legend is read by it.
    pub fn import(&self, bytes: &[u8]) -> Result<Grid, ImportError> {
        self.check()?;
        let (width, height) = self.dimensions(bytes)?;
        self.grid_size(width, height)?;
        if let ImportMode::Palette(_) = self.mode
            && let Some(legend) = Legend::read_png(bytes)?
        {
            let own = Self {
                mode: ImportMode::Palette(legend),
                ..self.clone()
            };
            return own.grid_from_image(&own.decode(bytes)?);
        }
        let image = self.decode(bytes)?;
        self.grid_from_image(&image)
    }

    /// The width and height an encoded image claims, read from its header alone; refuses
    /// images beyond [`ImageImport::max_side`].
    pub fn dimensions(&self, bytes: &[u8]) -> Result<(u32, u32), ImportError> {
        self.checked_dimensions(&without_colour_profiles(bytes))
    }

    /// [`ImageImport::dimensions`] of an image whose colour profiles are already removed.
    fn checked_dimensions(&self, bytes: &[u8]) -> Result<(u32, u32), ImportError> {
        let mut limits = Limits::default();
        limits.max_alloc = Some(self.max_alloc);
        let (width, height) = self
            .reader(bytes, limits)?
            .into_dimensions()
            .map_err(|e| self.image_error(e))?;
        if width > self.max_side || height > self.max_side {
            return Err(ImportError::TooLarge {
                width,
                height,
                max: self.max_side,
            });
        }
        if width == 0 || height == 0 {
            return Err(ImportError::Decode(format!(
                "the image is {width} × {height} pixels: it has no pixels"
            )));
        }
        Ok((width, height))
    }

    /// Decodes an encoded image within the limits, so a preview can convert it many times
    /// with [`ImageImport::grid_from_image`] without decoding it again.
    ///
    /// The memory the pixels need is estimated from the header and checked against
    /// [`ImageImport::max_alloc`] before decoding: the decoded pixels, at the depth the file
    /// stores them (16-bit channels count twice), and the 8-bit copy the import reads when the
    /// file's pixels are not 8-bit. PNG colour profiles (iCCP chunks) are skipped unread, and
    /// image data that ends before the last pixel is an error.
    pub fn decode(&self, bytes: &[u8]) -> Result<DynamicImage, ImportError> {
        let bytes = without_colour_profiles(bytes);
        let (width, height) = self.checked_dimensions(&bytes)?;
        let mut limits = Limits::default();
        limits.max_image_width = Some(self.max_side);
        limits.max_image_height = Some(self.max_side);
        limits.max_alloc = Some(self.max_alloc);
        let reader = self.reader(&bytes, limits.clone())?;
        let format = reader.format();
        let decoder = reader.into_decoder().map_err(|e| self.image_error(e))?;
        let colour = decoder.color_type();
        let pixels = u64::from(width) * u64::from(height);
        let needed = decoder
            .total_bytes()
            .saturating_add(pixels * eight_bit_copy(colour))
            .saturating_add(pixels * self.thin_wall_bytes(width, height));
        if needed > self.max_alloc {
            return Err(ImportError::MemoryLimit {
                limit: self.max_alloc,
            });
        }
        drop(decoder);
        if format == Some(ImageFormat::Bmp) {
            check_bmp_runs(&bytes, width, height)?;
        }
        if format == Some(ImageFormat::Jpeg) {
            return decode_jpeg(&bytes, width, height, colour);
        }
        self.reader(&bytes, limits)?
            .decode()
            .map_err(|e| self.image_error(e))
    }

    /// The grid's width and height for an image of this size.
    pub fn grid_size(&self, width: u32, height: u32) -> Result<(u32, u32), ImportError> {
        let (w, h) = (f64::from(width), f64::from(height));
        let (cells_w, cells_h) = match self.scale {
            Scale::CellsPerPixel(s) => {
                if !(s.is_finite() && s > 0.0) {
                    return Err(ImportError::Settings(format!(
                        "the scale {s} must be a positive number of cells per pixel"
                    )));
                }
                ((w * s).round().max(1.0), (h * s).round().max(1.0))
            }
            Scale::Width(0) => {
                return Err(ImportError::Settings(
                    "the target width must be at least one cell".to_owned(),
                ));
            }
            Scale::Width(cells) => {
                let cells = f64::from(cells);
                (cells, (h * cells / w).round().max(1.0))
            }
        };
        let max = f64::from(Grid::MAX_SIDE);
        if cells_w > max || cells_h > max {
            return Err(ImportError::GridTooLarge {
                width: cells_w.min(u64::MAX as f64) as u64,
                height: cells_h.min(u64::MAX as f64) as u64,
            });
        }
        Ok((cells_w as u32, cells_h as u32))
    }

    /// Converts a decoded image into a grid with these settings.
    pub fn grid_from_image(&self, image: &DynamicImage) -> Result<Grid, ImportError> {
        self.check()?;
        let (cells_w, cells_h) = self.grid_size(image.width(), image.height())?;
        let columns = spans(image.width() as usize, cells_w as usize);
        let rows = spans(image.height() as usize, cells_h as usize);
        match &self.mode {
            ImportMode::Occupancy(occupancy) => {
                let raster = OccupancyRaster::new(image);
                let rule = PixelRule::new(occupancy, raster.layout);
                let table = RankTable::new(occupancy, &rule);
                let downscaled = cells_w < image.width() || cells_h < image.height();
                // One pixel or less a cell: every reduction reads the pixel as it is, but the
                // plain mean keeps its own reading of a lone pixel.
                let reduce = match self.reduce {
                    Reduce::MeanWalls if !downscaled => Reduce::Max,
                    other => other,
                };
                let mut codes = Vec::with_capacity(columns.len() * rows.len());
                for &row in &rows {
                    for &column in &columns {
                        let code = match reduce {
                            Reduce::Mean | Reduce::MeanWalls => {
                                raster.mean_code(column, row, occupancy, &rule)
                            }
                            Reduce::Max => raster.most_occupied(column, row, &rule, &table),
                        };
                        codes.push(code);
                    }
                }
                if reduce == Reduce::MeanWalls {
                    let free = raster.free_pixels(&rule, &table);
                    thin_walls::keep_thin_walls(
                        &free,
                        image.width() as usize,
                        &columns,
                        &rows,
                        &mut codes,
                    );
                }
                occupancy_grid(occupancy, cells_w, cells_h, codes)
            }
            ImportMode::Palette(legend) => {
                let raster = Raster::new(image);
                let lookup = legend.lookup();
                raster.check_colours(legend, &lookup)?;
                let mut counts = vec![0u32; legend.entries().len()];
                let mut cells = Vec::with_capacity(columns.len() * rows.len());
                for &row in &rows {
                    for &column in &columns {
                        cells.push(raster.most_common(column, row, &lookup, &mut counts));
                    }
                }
                Ok(Grid::from_cells(
                    cells_w,
                    cells_h,
                    legend.terrains(),
                    cells,
                )?)
            }
        }
    }

    /// The bytes a pixel takes to keep thin walls: only for a downscaling occupancy import
    /// by [`Reduce::MeanWalls`].
    fn thin_wall_bytes(&self, width: u32, height: u32) -> u64 {
        let downscaled = self
            .grid_size(width, height)
            .is_ok_and(|(w, h)| w < width || h < height);
        match self.mode {
            ImportMode::Occupancy(_) if downscaled && self.reduce == Reduce::MeanWalls => {
                thin_walls::BYTES_PER_PIXEL
            }
            _ => 0,
        }
    }

    fn check(&self) -> Result<(), ImportError> {
        match &self.mode {
            ImportMode::Occupancy(o) => o.validate().map_err(ImportError::Settings),
            ImportMode::Palette(l) if l.entries().is_empty() || l.entries().len() > 256 => {
                Err(ImportError::Settings(format!(
                    "a palette needs between 1 and 256 terrains, got {}",
                    l.entries().len()
                )))
            }
            ImportMode::Palette(_) => Ok(()),
        }
    }

    fn reader<'a>(
        &self,
        bytes: &'a [u8],
        limits: Limits,
    ) -> Result<ImageReader<Cursor<&'a [u8]>>, ImportError> {
        let mut reader = ImageReader::new(Cursor::new(bytes))
            .with_guessed_format()
            .map_err(|e| ImportError::Decode(e.to_string()))?;
        if reader.format().is_none() {
            return Err(ImportError::UnknownImageFormat);
        }
        reader.limits(limits);
        Ok(reader)
    }

    fn image_error(&self, error: ImageError) -> ImportError {
        match error {
            ImageError::Limits(e) => match e.kind() {
                LimitErrorKind::InsufficientMemory => ImportError::MemoryLimit {
                    limit: self.max_alloc,
                },
                _ => ImportError::Decode(format!(
                    "{e} (limits: {max} × {max} pixels, {limit} bytes)",
                    max = self.max_side,
                    limit = self.max_alloc
                )),
            },
            ImageError::Unsupported(e) if matches!(e.kind(), UnsupportedErrorKind::Format(_)) => {
                ImportError::UnknownImageFormat
            }
            other => ImportError::Decode(other.to_string()),
        }
    }
}

/// The bytes per pixel of the 8-bit copy [`Raster`] makes of an image of this colour type:
/// none for 8-bit pixels, which it reads in place.
fn eight_bit_copy(colour: ColorType) -> u64 {
    match colour {
        ColorType::L8 | ColorType::La8 | ColorType::Rgb8 | ColorType::Rgba8 => 0,
        ColorType::L16 => 1,
        ColorType::La16 => 2,
        other if other.has_alpha() => 4,
        _ => 3,
    }
}

/// Refuses a run-length encoded BMP (RLE8 or RLE4) whose data is too short to code every
/// pixel its header claims: a run of two bytes codes at most 255 pixels, and the decoder would
/// leave the pixels past an early end of the data black (walls).
fn check_bmp_runs(bytes: &[u8], width: u32, height: u32) -> Result<(), ImportError> {
    let u32_at = |at: usize| {
        bytes
            .get(at..at + 4)
            .and_then(|b| <[u8; 4]>::try_from(b).ok())
            .map(u32::from_le_bytes)
    };
    let (Some(offset), Some(header), Some(compression)) = (u32_at(10), u32_at(14), u32_at(30))
    else {
        return Ok(());
    };
    // Compression 1 is RLE8 and 2 is RLE4, in every header from BITMAPINFOHEADER (40 bytes) on.
    if header < 40 || !matches!(compression, 1 | 2) {
        return Ok(());
    }
    let data = (bytes.len() as u64).saturating_sub(u64::from(offset));
    let pixels = u64::from(width) * u64::from(height);
    let at_least = (pixels * 2).div_ceil(255);
    if data < at_least {
        return Err(ImportError::Decode(format!(
            "the BMP's run-length data ends early: {data} bytes cannot code the {width} × \
             {height} pixels its header claims (at least {at_least} bytes)"
        )));
    }
    Ok(())
}

/// Decodes a JPEG in strict mode, where scan data that ends before the last pixel is an error
/// (the decoder `image` wraps fills the missing pixels with grey instead). Grey images stay
/// grey; every other colour space becomes RGB, as `image` decodes it (`colour`).
fn decode_jpeg(
    bytes: &[u8],
    width: u32,
    height: u32,
    colour: ColorType,
) -> Result<DynamicImage, ImportError> {
    use zune_core::bytestream::ZCursor;
    use zune_core::colorspace::ColorSpace;
    use zune_core::options::DecoderOptions;

    let out = if colour == ColorType::L8 {
        ColorSpace::Luma
    } else {
        ColorSpace::RGB
    };
    if let Some(blocks) = jpeg_blocks(bytes) {
        // Every block of every component codes at least its DC difference, one bit or more.
        let at_least = blocks.div_ceil(8);
        if (bytes.len() as u64) < at_least {
            return Err(ImportError::Decode(format!(
                "the JPEG image data ends early: a {width} × {height} image holds {blocks} \
                 blocks of 8 × 8 pixels, at least {at_least} bytes, but the file has {}",
                bytes.len()
            )));
        }
    }
    let options = DecoderOptions::default()
        .set_strict_mode(true)
        .set_max_width(width as usize)
        .set_max_height(height as usize)
        .jpeg_set_out_colorspace(out);
    let mut decoder = zune_jpeg::JpegDecoder::new_with_options(ZCursor::new(bytes), options);
    let pixels = decoder.decode().map_err(|e| {
        ImportError::Decode(format!(
            "the JPEG image data ends early or is damaged ({e:?}): \
             a {width} × {height} image cannot be decoded from {} bytes",
            bytes.len()
        ))
    })?;
    let image = if out == ColorSpace::Luma {
        GrayImage::from_raw(width, height, pixels).map(DynamicImage::ImageLuma8)
    } else {
        RgbImage::from_raw(width, height, pixels).map(DynamicImage::ImageRgb8)
    };
    image.ok_or_else(|| {
        ImportError::Decode(format!(
            "the JPEG decoder gave too few pixels for a {width} × {height} image"
        ))
    })
}

/// How many 8 × 8 blocks the frame header (SOF) of a JPEG says its components hold, or `None`
/// when no frame header is found before the image data.
fn jpeg_blocks(bytes: &[u8]) -> Option<u64> {
    let mut at = 2;
    // Segments after the start-of-image marker: 0xFF, the marker, a 16-bit length.
    let frame = loop {
        let &[0xff, marker, high, low] = bytes.get(at..at + 4)? else {
            return None;
        };
        let length = usize::from(u16::from_be_bytes([high, low]));
        let segment = bytes.get(at + 4..at + 2 + length)?;
        // Frame headers are 0xC0 to 0xCF, except 0xC4 (Huffman tables), 0xC8 and 0xCC.
        if (0xc0..=0xcf).contains(&marker) && ![0xc4, 0xc8, 0xcc].contains(&marker) {
            break segment;
        }
        if marker == 0xda {
            return None;
        }
        at += 2 + length;
    };
    // Precision, height, width, the number of components, then three bytes per component.
    let (&[_, h0, h1, w0, w1, count], rest) = frame.split_first_chunk::<6>()?;
    let (height, width) = (
        u64::from(u16::from_be_bytes([h0, h1])),
        u64::from(u16::from_be_bytes([w0, w1])),
    );
    let components: Vec<(u64, u64)> = rest
        .chunks_exact(3)
        .take(usize::from(count))
        .map(|c| (u64::from(c[1] >> 4).max(1), u64::from(c[1] & 15).max(1)))
        .collect();
    let h_max = components.iter().map(|c| c.0).max()?;
    let v_max = components.iter().map(|c| c.1).max()?;
    let blocks = components
        .iter()
        .map(|&(h, v)| {
            (width * h).div_ceil(h_max).div_ceil(8) * (height * v).div_ceil(v_max).div_ceil(8)
        })
        .sum();
    Some(blocks)
}

/// The pixels of a decoded image as 8-bit channels.
struct Raster<'a> {
    bytes: Cow<'a, [u8]>,
    width: usize,
    channels: usize,
}

impl<'a> Raster<'a> {
    fn new(image: &'a DynamicImage) -> Self {
        let (bytes, channels): (Cow<'a, [u8]>, usize) = match image {
            DynamicImage::ImageLuma8(i) => (Cow::Borrowed(i.as_raw()), 1),
            DynamicImage::ImageLumaA8(i) => (Cow::Borrowed(i.as_raw()), 2),
            DynamicImage::ImageRgb8(i) => (Cow::Borrowed(i.as_raw()), 3),
            DynamicImage::ImageRgba8(i) => (Cow::Borrowed(i.as_raw()), 4),
            DynamicImage::ImageLuma16(_) => (Cow::Owned(image.to_luma8().into_raw()), 1),
            DynamicImage::ImageLumaA16(_) => (Cow::Owned(image.to_luma_alpha8().into_raw()), 2),
            other if other.color().has_alpha() => (Cow::Owned(other.to_rgba8().into_raw()), 4),
            other => (Cow::Owned(other.to_rgb8().into_raw()), 3),
        };
        Self {
            bytes,
            width: image.width() as usize,
            channels,
        }
    }

    /// The colours of the pixels of a block, row by row (a grey pixel's value three times;
    /// alpha is left out).
    fn block(
        &self,
        (x0, x1): (usize, usize),
        (y0, y1): (usize, usize),
    ) -> impl Iterator<Item = [u8; 3]> + '_ {
        let c = self.channels;
        (y0..y1)
            .filter_map(move |y| {
                self.bytes
                    .get((y * self.width + x0) * c..(y * self.width + x1) * c)
            })
            .flat_map(move |row| row.chunks_exact(c))
            .map(move |pixel| {
                if c < 3 {
                    [pixel[0]; 3]
                } else {
                    [pixel[0], pixel[1], pixel[2]]
                }
            })
    }

    /// The height in pixels.
    fn height(&self) -> usize {
        self.bytes.len() / self.channels / self.width.max(1)
    }

    /// Refuses the first pixel (by rows from the top left) whose colour stands for no
    /// terrain of the legend.
    fn check_colours(&self, legend: &Legend, lookup: &Lookup) -> Result<(), ImportError> {
        let mut known = None;
        for (i, pixel) in self.block((0, self.width), (0, self.height())).enumerate() {
            if known == Some(pixel) {
                continue;
            }
            if !lookup.contains_key(&pixel) {
                return Err(ImportError::UnknownColour {
                    colour: Rgb(pixel),
                    x: (i % self.width) as u32,
                    y: (i / self.width) as u32,
                    palette: legend.describe(),
                });
            }
            known = Some(pixel);
        }
        Ok(())
    }

    /// The terrain most pixels of a block stand for (the first of equals); `counts` is
    /// scratch space of one count per terrain, left at zero.
    fn most_common(
        &self,
        columns: (usize, usize),
        rows: (usize, usize),
        lookup: &Lookup,
        counts: &mut [u32],
    ) -> TerrainId {
        let mut last: Option<([u8; 3], TerrainId)> = None;
        for pixel in self.block(columns, rows) {
            let id = match last {
                Some((colour, id)) if colour == pixel => id,
                _ => lookup.get(&pixel).copied().unwrap_or(0),
            };
            last = Some((pixel, id));
            if let Some(count) = counts.get_mut(usize::from(id)) {
                *count += 1;
            }
        }
        let mut best = (0, 0);
        for (i, count) in counts.iter_mut().enumerate() {
            if *count > best.0 {
                best = (*count, i);
            }
            *count = 0;
        }
        best.1 as TerrainId
    }
}

/// The terrain each pixel colour of a legend stands for.
type Lookup = std::collections::HashMap<[u8; 3], TerrainId>;

/// The samples of a decoded image as `map_server` reads them: 8-bit or 16-bit, in place where
/// the decoder's buffer has one of the layouts `map_server` knows.
enum Samples<'a> {
    Eight(Cow<'a, [u8]>),
    Sixteen(Cow<'a, [u16]>),
}

/// The pixels of a decoded image for an occupancy import.
struct OccupancyRaster<'a> {
    samples: Samples<'a>,
    width: usize,
    layout: Layout,
}

impl<'a> OccupancyRaster<'a> {
    fn new(image: &'a DynamicImage) -> Self {
        let layout = |grey, alpha, wide| Layout { grey, alpha, wide };
        let (samples, layout) = match image {
            DynamicImage::ImageLuma8(i) => (
                Samples::Eight(Cow::Borrowed(i.as_raw())),
                layout(true, false, false),
            ),
            DynamicImage::ImageLumaA8(i) => (
                Samples::Eight(Cow::Borrowed(i.as_raw())),
                layout(true, true, false),
            ),
            DynamicImage::ImageRgb8(i) => (
                Samples::Eight(Cow::Borrowed(i.as_raw())),
                layout(false, false, false),
            ),
            DynamicImage::ImageRgba8(i) => (
                Samples::Eight(Cow::Borrowed(i.as_raw())),
                layout(false, true, false),
            ),
            DynamicImage::ImageLuma16(i) => (
                Samples::Sixteen(Cow::Borrowed(i.as_raw())),
                layout(true, false, true),
            ),
            DynamicImage::ImageLumaA16(i) => (
                Samples::Sixteen(Cow::Borrowed(i.as_raw())),
                layout(true, true, true),
            ),
            DynamicImage::ImageRgb16(i) => (
                Samples::Sixteen(Cow::Borrowed(i.as_raw())),
                layout(false, false, true),
            ),
            DynamicImage::ImageRgba16(i) => (
                Samples::Sixteen(Cow::Borrowed(i.as_raw())),
                layout(false, true, true),
            ),
            other if other.color().has_alpha() => (
                Samples::Sixteen(Cow::Owned(other.to_rgba16().into_raw())),
                layout(false, true, true),
            ),
            other => (
                Samples::Sixteen(Cow::Owned(other.to_rgb16().into_raw())),
                layout(false, false, true),
            ),
        };
        Self {
            samples,
            width: image.width() as usize,
            layout,
        }
    }

    /// Calls `visit` with the samples of each pixel of a block, row by row.
    fn for_each(
        &self,
        columns: (usize, usize),
        rows: (usize, usize),
        mut visit: impl FnMut(&[u16]),
    ) {
        fn each<T: Copy + Into<u16>>(
            data: &[T],
            width: usize,
            channels: usize,
            (x0, x1): (usize, usize),
            (y0, y1): (usize, usize),
            visit: &mut impl FnMut(&[u16]),
        ) {
            let mut pixel = [0u16; 4];
            for y in y0..y1 {
                let Some(row) = data.get((y * width + x0) * channels..(y * width + x1) * channels)
                else {
                    continue;
                };
                for samples in row.chunks_exact(channels) {
                    for (p, &s) in pixel.iter_mut().zip(samples) {
                        *p = s.into();
                    }
                    visit(&pixel);
                }
            }
        }
        let channels = self.layout.channels();
        match &self.samples {
            Samples::Eight(data) => each(data, self.width, channels, columns, rows, &mut visit),
            Samples::Sixteen(data) => each(data, self.width, channels, columns, rows, &mut visit),
        }
    }

    /// Whether each pixel, row by row, is free.
    fn free_pixels(&self, rule: &PixelRule, table: &RankTable) -> Vec<bool> {
        let height = match &self.samples {
            Samples::Eight(d) => d.len(),
            Samples::Sixteen(d) => d.len(),
        } / self.layout.channels()
            / self.width.max(1);
        let mut free = Vec::with_capacity(self.width * height);
        self.for_each((0, self.width), (0, height), |pixel| {
            let ranks = if rule.transparent(pixel) {
                &table.transparent
            } else {
                &table.opaque
            };
            free.push(ranks[rule.key(pixel) as usize] == 0);
        });
        free
    }

    /// The occupancy code of the most occupied pixel of a block.
    fn most_occupied(
        &self,
        columns: (usize, usize),
        rows: (usize, usize),
        rule: &PixelRule,
        table: &RankTable,
    ) -> u8 {
        let mut worst = 0u8;
        self.for_each(columns, rows, |pixel| {
            let ranks = if rule.transparent(pixel) {
                &table.transparent
            } else {
                &table.opaque
            };
            worst = worst.max(ranks[rule.key(pixel) as usize]);
        });
        RankTable::code(worst)
    }

    /// The occupancy code of the mean of a block's pixels that scale mode does not call
    /// transparent; a block with more transparent pixels than others is unknown.
    fn mean_code(
        &self,
        columns: (usize, usize),
        rows: (usize, usize),
        occupancy: &Occupancy,
        rule: &PixelRule,
    ) -> u8 {
        let (mut sum, mut counted, mut transparent) = (0u64, 0u64, 0u64);
        self.for_each(columns, rows, |pixel| {
            if rule.transparent(pixel) {
                transparent += 1;
            } else {
                sum += u64::from(rule.key(pixel));
                counted += 1;
            }
        });
        if counted == 0 || transparent > counted {
            return 2;
        }
        let value = rule.value(occupancy, sum as f64 / counted as f64, false);
        RankTable::code(RankTable::rank(value))
    }
}

/// The rank of each pixel key, opaque and transparent, ranked by how occupied the value
/// `map_server` gives it is: 0 free, 1 to [`Occupancy::BANDS`] the graded bands, then unknown,
/// then occupied.
struct RankTable {
    opaque: Vec<u8>,
    transparent: Vec<u8>,
}

impl RankTable {
    const UNKNOWN: u8 = Occupancy::BANDS + 1;
    const OCCUPIED: u8 = Occupancy::BANDS + 2;

    fn new(occupancy: &Occupancy, rule: &PixelRule) -> Self {
        let ranks = |transparent| {
            (0..=rule.max_key())
                .map(|key| Self::rank(rule.value(occupancy, f64::from(key), transparent)))
                .collect()
        };
        Self {
            opaque: ranks(false),
            transparent: ranks(true),
        }
    }

    fn rank(value: i16) -> u8 {
        match Occupancy::class_of(value) {
            OccupancyClass::Free => 0,
            OccupancyClass::Band(b) => b,
            OccupancyClass::Unknown => Self::UNKNOWN,
            OccupancyClass::Occupied => Self::OCCUPIED,
        }
    }

    /// The occupancy code (0 free, 1 occupied, 2 unknown, 2 + band) of a rank.
    fn code(rank: u8) -> u8 {
        match rank {
            0 => 0,
            Self::OCCUPIED => 1,
            Self::UNKNOWN => 2,
            band => 2 + band,
        }
    }
}

/// Blocks of `pixels` for each of `cells`: cell `c` covers pixels `[c·P/C, (c+1)·P/C)`, at
/// least one.
fn spans(pixels: usize, cells: usize) -> Vec<(usize, usize)> {
    let (p, n) = (pixels as u64, cells.max(1) as u64);
    (0..n)
        .map(|c| {
            let start = c * p / n;
            let end = ((c + 1) * p / n).max(start + 1).min(p);
            (start as usize, end as usize)
        })
        .collect()
}

/// The grid of an occupancy import: free and wall first, then the unknown terrain (when it is
/// one of its own), then the graded bands in use.
fn occupancy_grid(
    occupancy: &Occupancy,
    width: u32,
    height: u32,
    mut codes: Vec<u8>,
) -> Result<Grid, ImportError> {
    let mut terrains = vec![occupancy.free.clone(), occupancy.wall.clone()];
    let mut remap = [0 as TerrainId; 3 + Occupancy::BANDS as usize];
    remap[1] = 1;
    remap[2] = match &occupancy.unknown {
        Unknown::Free => 0,
        Unknown::Wall => 1,
        Unknown::Terrain(t) => {
            terrains.push(t.clone());
            2
        }
    };
    let mut used = [false; 3 + Occupancy::BANDS as usize];
    for &code in &codes {
        used[usize::from(code)] = true;
    }
    for band in 1..=Occupancy::BANDS {
        let code = usize::from(2 + band);
        if used[code] {
            remap[code] = terrains.len() as TerrainId;
            terrains.push(Occupancy::band_terrain(band));
        }
    }
    for code in &mut codes {
        *code = remap[usize::from(*code)];
    }
    Ok(Grid::from_cells(width, height, terrains, codes)?)
}
