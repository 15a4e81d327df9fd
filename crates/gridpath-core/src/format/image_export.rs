//! Grids to images: one pixel per cell, in the terrain's colour. A PNG carries its terrain
//! legend ([`legend`](super::legend)), so that it imports back exactly.

use image::RgbImage;

use super::legend::{KEYWORD, Legend};
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

/// The grid as PNG bytes, one pixel per cell in its terrain's pixel colour, with the terrain
/// legend in an iTXt chunk before the pixels: each terrain's name, symbol, cost (or
/// impassable), colour and the pixel colour that stands for it ([`Legend::for_export`]; the
/// terrain's own colour unless an earlier terrain has it).
pub fn to_png(grid: &Grid) -> Result<Vec<u8>, ExportError> {
    let legend = Legend::for_export(grid.terrains());
    let pixels: Vec<[u8; 3]> = legend.entries().iter().map(|e| e.pixel.0).collect();
    let mut raw = Vec::with_capacity(grid.len() * 3);
    for &id in grid.cells() {
        raw.extend_from_slice(&pixels[usize::from(id)]);
    }
    let fail = |e: png::EncodingError| ExportError(e.to_string());
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, grid.width(), grid.height());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder
        .add_itxt_chunk(KEYWORD.to_owned(), legend.to_json())
        .map_err(fail)?;
    let mut writer = encoder.write_header().map_err(fail)?;
    writer.write_image_data(&raw).map_err(fail)?;
    writer.finish().map_err(fail)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::image_import::ImageImport;
    use crate::grid::{Rgb, Terrain};

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

    #[test]
    fn terrains_of_one_colour_come_back_apart() {
        let mut terrains = Terrain::default_catalog();
        let wall = terrains[3].color;
        terrains.push(Terrain::passable("Door", 'd', wall, 2.0));
        let grid = Grid::from_cells(3, 1, terrains, vec![3, 4, 0]).expect("a valid grid");
        let png = to_png(&grid).expect("encodes");
        let pixels = image::load_from_memory(&png).expect("decodes").to_rgb8();
        assert_eq!(pixels.get_pixel(0, 0).0, wall.0);
        assert_ne!(
            pixels.get_pixel(1, 0).0,
            wall.0,
            "the door has a pixel of its own"
        );
        let back = ImageImport::palette(vec![Terrain::passable("X", 'x', Rgb([0; 3]), 1.0)])
            .import(&png)
            .expect("decodes");
        assert_eq!(back, grid);
    }
}
