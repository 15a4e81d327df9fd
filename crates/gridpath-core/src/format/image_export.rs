//! Grids to images: one pixel per cell, in the terrain's colour.

use std::io::Cursor;

use image::{ImageFormat, RgbImage};

use crate::grid::Grid;

/// Why a grid could not be encoded as an image.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("cannot encode the PNG image: {0}")]
pub struct ExportError(String);

/// The grid as an image, one pixel per cell in its terrain's colour.
pub fn to_image(grid: &Grid) -> RgbImage {
    let colours: Vec<[u8; 3]> = grid.terrains().iter().map(|t| t.color.0).collect();
    let mut raw = Vec::with_capacity(grid.len() * 3);
    for &id in grid.cells() {
        raw.extend_from_slice(&colours[usize::from(id)]);
    }
    RgbImage::from_raw(grid.width(), grid.height(), raw)
        .unwrap_or_else(|| RgbImage::new(grid.width(), grid.height()))
}

/// The grid as PNG bytes, one pixel per cell in its terrain's colour.
pub fn to_png(grid: &Grid) -> Result<Vec<u8>, ExportError> {
    let mut out = Cursor::new(Vec::new());
    to_image(grid)
        .write_to(&mut out, ImageFormat::Png)
        .map_err(|e| ExportError(e.to_string()))?;
    Ok(out.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::image_import::ImageImport;
    use crate::grid::Terrain;

    #[test]
    fn a_png_export_imports_back_through_the_palette() {
        let grid = Grid::from_ascii(&[".=~#", "#~=."]).expect("valid rows");
        let png = to_png(&grid).expect("encodes");
        let back = ImageImport::palette(Terrain::default_catalog())
            .import(&png)
            .expect("decodes");
        assert_eq!(back, grid);
        let image = to_image(&grid);
        assert_eq!(image.get_pixel(3, 0).0, grid.terrains()[3].color.0);
    }
}
