//! The clearance heat layer: for every passable cell, the side of the largest square of
//! passable cells with that cell at its top-left ([`crate::search::clearance`]), which says
//! where a unit of N × N cells fits. Tight places show warm, open ground cool.
//!
//! The layer follows the map's edits: after each change it computes the clearance again
//! (one pass over the map) and uploads only the rectangle whose values changed.

use egui::{Color32, ColorImage, Painter};

use crate::grid::{Cell, Grid};

use super::exploration::ramp;
use crate::app::canvas::canvas::Canvas;
use crate::app::canvas::tiled_texture::TiledTexture;
use crate::app::region::Region;

/// The clearance from which the heat map shows its coolest colour.
pub const OPEN: u32 = 16;

/// The clearance values shown and their texture.
pub struct ClearanceLayer {
    texture: TiledTexture,
    values: Vec<u32>,
    size: (u32, u32),
    /// The canvas's change count the values are of.
    seen: Option<u64>,
}

impl Default for ClearanceLayer {
    fn default() -> Self {
        Self {
            texture: TiledTexture::new("clearance"),
            values: Vec::new(),
            size: (0, 0),
            seen: None,
        }
    }
}

impl ClearanceLayer {
    /// Brings the layer up to date with `grid` and draws it with the given tint.
    pub fn paint(
        &mut self,
        ctx: &egui::Context,
        painter: &Painter,
        canvas: &Canvas,
        grid: &Grid,
        tint: Color32,
    ) {
        if self.seen != Some(canvas.changes()) || self.size != (grid.width(), grid.height()) {
            self.update(ctx, grid);
            self.seen = Some(canvas.changes());
        }
        let visible = canvas.visible_cells(grid);
        let (values, width) = (&self.values, self.size.0);
        self.texture
            .refresh(ctx, visible, |region| image(values, width, region));
        canvas.paint_overlay(painter, &self.texture, visible, tint);
    }

    /// The clearance the layer shows at a cell, once it has been drawn.
    pub fn value(&self, cell: Cell) -> Option<u32> {
        let (w, h) = self.size;
        (cell.x < w && cell.y < h)
            .then(|| self.values[cell.y as usize * w as usize + cell.x as usize])
    }

    fn update(&mut self, ctx: &egui::Context, grid: &Grid) {
        let fresh = crate::search::clearance(grid);
        let size = (grid.width(), grid.height());
        if self.size != size || self.texture.size() != size {
            self.values = fresh;
            self.size = size;
            let values = &self.values;
            self.texture
                .set_whole(ctx, size, |region| image(values, size.0, region));
            return;
        }
        let mut changed = Region::EMPTY;
        for (i, (old, new)) in self.values.iter().zip(&fresh).enumerate() {
            if old != new {
                changed.include(grid.cell_at(i));
            }
        }
        self.values = fresh;
        if !changed.is_empty() {
            let values = &self.values;
            self.texture
                .set_region(changed, |region| image(values, size.0, region));
        }
    }
}

/// The colour of a clearance on the heat map (not for 0, a wall, which is not drawn).
pub fn colour(clearance: u32) -> Color32 {
    let t = (clearance.clamp(1, OPEN) - 1) as f32 / (OPEN - 1) as f32;
    ramp(1.0 - t)
}

/// The heat map of a region: nothing on walls, warm where the clearance is 1, cool from
/// [`OPEN`] on.
fn image(values: &[u32], width: u32, region: Region) -> ColorImage {
    let mut pixels = Vec::with_capacity((region.width() * region.height()) as usize);
    for y in region.y0..region.y1 {
        for x in region.x0..region.x1 {
            let c = values[y as usize * width as usize + x as usize];
            pixels.push(if c == 0 {
                Color32::TRANSPARENT
            } else {
                colour(c)
            });
        }
    }
    ColorImage::new([region.width() as usize, region.height() as usize], pixels)
}
