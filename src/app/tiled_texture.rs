//! A picture of the map, one texel per cell, split into textures no larger than the GPU allows.
//!
//! A map of up to 8192 cells a side fits one texture on most desktop GPUs, but not on all of
//! them (nor in the headless test harness, which allows 2048): the picture is cut into square
//! tiles of at most the renderer's largest texture side, each uploaded and updated on its own.

use egui::{Color32, ColorImage, Painter, Pos2, Rect, TextureHandle, TextureOptions};

use super::region::Region;

const OPTIONS: TextureOptions = TextureOptions::NEAREST;

/// One tile: the cells it covers and its texture.
struct Tile {
    region: Region,
    texture: TextureHandle,
}

/// A picture of a `width` × `height` map in tiles.
pub struct TiledTexture {
    name: &'static str,
    size: (u32, u32),
    tiles: Vec<Tile>,
}

impl TiledTexture {
    /// An empty picture; `name` names its textures for debugging.
    pub fn new(name: &'static str) -> Self {
        Self {
            name,
            size: (0, 0),
            tiles: Vec::new(),
        }
    }

    /// The size in cells of the picture uploaded, (0, 0) before the first upload.
    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// Uploads the whole picture of a `width` × `height` map; `image_of` draws any region.
    pub fn set_whole(
        &mut self,
        ctx: &egui::Context,
        (width, height): (u32, u32),
        image_of: impl Fn(Region) -> ColorImage,
    ) {
        let side = ctx.input(|i| i.max_texture_side).max(64) as u32;
        let layout: Vec<Region> = tiles_of(width, height, side);
        let reuse = self.size == (width, height)
            && self.tiles.len() == layout.len()
            && self.tiles.iter().zip(&layout).all(|(t, r)| t.region == *r);
        if reuse {
            for tile in &mut self.tiles {
                tile.texture.set(image_of(tile.region), OPTIONS);
            }
        } else {
            self.tiles = layout
                .into_iter()
                .enumerate()
                .map(|(i, region)| Tile {
                    region,
                    texture: ctx.load_texture(
                        format!("{}-{i}", self.name),
                        image_of(region),
                        OPTIONS,
                    ),
                })
                .collect();
        }
        self.size = (width, height);
    }

    /// Uploads the cells of `region` again, in every tile it touches.
    pub fn set_region(&mut self, region: Region, image_of: impl Fn(Region) -> ColorImage) {
        for tile in &mut self.tiles {
            let part = intersection(tile.region, region);
            if part.is_empty() {
                continue;
            }
            let at = [
                (part.x0 - tile.region.x0) as usize,
                (part.y0 - tile.region.y0) as usize,
            ];
            tile.texture.set_partial(at, image_of(part), OPTIONS);
        }
    }

    /// Draws the cells of `visible`, placing map point `p` (in cells) at `screen_from_cell(p)`.
    pub fn paint(
        &self,
        painter: &Painter,
        visible: Region,
        screen_from_cell: impl Fn(Pos2) -> Pos2,
        tint: Color32,
    ) {
        for tile in &self.tiles {
            // Only the part in view, so that deep zooms do not stretch one huge quad.
            let part = intersection(tile.region, visible);
            if part.is_empty() {
                continue;
            }
            let (w, h) = (tile.region.width() as f32, tile.region.height() as f32);
            let (tx, ty) = (tile.region.x0 as f32, tile.region.y0 as f32);
            let (x0, y0, x1, y1) = (
                part.x0 as f32,
                part.y0 as f32,
                part.x1 as f32,
                part.y1 as f32,
            );
            let uv = Rect::from_min_max(
                Pos2::new((x0 - tx) / w, (y0 - ty) / h),
                Pos2::new((x1 - tx) / w, (y1 - ty) / h),
            );
            let screen = Rect::from_min_max(
                screen_from_cell(Pos2::new(x0, y0)),
                screen_from_cell(Pos2::new(x1, y1)),
            );
            painter.image(tile.texture.id(), screen, uv, tint);
        }
    }
}

/// Square tiles of at most `side` cells covering a `width` × `height` map, row by row.
fn tiles_of(width: u32, height: u32, side: u32) -> Vec<Region> {
    let mut tiles = Vec::new();
    for y0 in (0..height).step_by(side as usize) {
        for x0 in (0..width).step_by(side as usize) {
            tiles.push(Region {
                x0,
                y0,
                x1: (x0 + side).min(width),
                y1: (y0 + side).min(height),
            });
        }
    }
    tiles
}

fn intersection(a: Region, b: Region) -> Region {
    Region {
        x0: a.x0.max(b.x0),
        y0: a.y0.max(b.y0),
        x1: a.x1.min(b.x1),
        y1: a.y1.min(b.y1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_cover_the_map_once_and_stay_within_the_side() {
        let tiles = tiles_of(5000, 2100, 2048);
        assert_eq!(tiles.len(), 3 * 2);
        let cells: u64 = tiles
            .iter()
            .map(|t| u64::from(t.width()) * u64::from(t.height()))
            .sum();
        assert_eq!(cells, 5000 * 2100);
        assert!(
            tiles
                .iter()
                .all(|t| t.width() <= 2048 && t.height() <= 2048)
        );
        assert_eq!(tiles_of(40, 30, 2048).len(), 1);
    }

    #[test]
    fn a_region_is_cut_along_tile_borders() {
        let part = intersection(
            Region::whole(2048, 2048),
            Region {
                x0: 2000,
                y0: 10,
                x1: 2100,
                y1: 20,
            },
        );
        assert_eq!((part.x0, part.x1, part.y0, part.y1), (2000, 2048, 10, 20));
        assert!(
            intersection(
                Region::whole(10, 10),
                Region {
                    x0: 20,
                    y0: 0,
                    x1: 30,
                    y1: 5
                }
            )
            .is_empty()
        );
    }
}
