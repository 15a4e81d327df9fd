//! Heights from a grayscale image (a heightmap): black is 0, white is the highest.
//!
//! The image is decoded within [`ImageImport`]'s limits, read as 16-bit luminance (so 16-bit
//! PNG and PGM heightmaps keep their precision) and, when its size differs from the map's,
//! resampled to one value per cell with a triangle filter.
//!
//! ```
//! use gridpath_core::format::height_image::heights_from_image;
//!
//! // A 2 × 1 PGM: black, then white.
//! let pgm = b"P5 2 1 255\n\x00\xff";
//! let heights = heights_from_image(pgm, 2, 1, 10.0).unwrap();
//! assert_eq!(heights, vec![0.0, 10.0]);
//! ```

use std::path::Path;

use image::imageops::{self, FilterType};

use super::ImportError;
use super::image_import::ImageImport;
use super::read::{FileLimit, read_file};
use crate::grid::MAX_HEIGHT;

/// The heights of a `width` × `height` map from an encoded grayscale image: each cell's
/// luminance (colour images are converted) from 0 (black) to `max_height` (white).
pub fn heights_from_image(
    bytes: &[u8],
    width: u32,
    height: u32,
    max_height: f64,
) -> Result<Vec<f32>, ImportError> {
    if !(max_height.is_finite() && max_height > 0.0 && max_height <= f64::from(MAX_HEIGHT)) {
        return Err(ImportError::Settings(format!(
            "the height of white must be above 0 and at most {MAX_HEIGHT}, got {max_height}"
        )));
    }
    let image = ImageImport::default().decode(bytes)?.into_luma16();
    let image = if image.dimensions() == (width, height) {
        image
    } else {
        imageops::resize(&image, width, height, FilterType::Triangle)
    };
    let scale = max_height / f64::from(u16::MAX);
    Ok(image
        .pixels()
        .map(|p| (f64::from(p.0[0]) * scale) as f32)
        .collect())
}

/// [`heights_from_image`] of an image file; errors name the file.
pub fn load_heights(
    path: &Path,
    width: u32,
    height: u32,
    max_height: f64,
) -> Result<Vec<f32>, ImportError> {
    let bytes = read_file(path, FileLimit::IMAGE).map_err(|e| ImportError::Io {
        path: path.to_owned(),
        message: e.to_string(),
    })?;
    heights_from_image(&bytes, width, height, max_height).map_err(|e| e.in_file(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_image_of_another_size_is_resampled_and_bad_settings_refused() {
        let pgm = b"P5 4 2 255\n\x00\x00\xff\xff\x00\x00\xff\xff";
        let heights = heights_from_image(pgm, 2, 1, 4.0).unwrap();
        assert_eq!(heights.len(), 2);
        assert!(heights[0] < 1.0 && heights[1] > 3.0, "{heights:?}");
        assert!(heights_from_image(pgm, 2, 1, -1.0).is_err());
        assert!(heights_from_image(b"not an image", 2, 1, 1.0).is_err());
    }
}
