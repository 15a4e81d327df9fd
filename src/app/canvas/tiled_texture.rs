//! A picture of the map, one texel per cell, split into textures no larger than the GPU allows.
//!
//! A map of up to 8192 cells a side fits one texture on most desktop GPUs, but not on all of
//! them (nor in the headless test harness, which allows 2048): the picture is cut into square
//! tiles of at most the renderer's largest texture side, each uploaded and updated on its own.
//!
//! A larger map (past [`EAGER_CELLS`], up to 32768² cells: 4 GiB of texels) is never uploaded
//! whole: its tiles, at most [`LAZY_SIDE`] a side, are uploaded when they come into view
//! ([`TiledTexture::refresh`]) and dropped again when more than [`MAX_RESIDENT`] are held, so
//! the picture costs what the screen shows, not what the map holds. Zoomed out over such a map
//! the canvas shows its overview instead; an overlay whose view would need more tiles than that
//! is not drawn until the view is closer.

use egui::{Color32, ColorImage, Painter, Pos2, Rect, TextureHandle, TextureOptions};

use crate::app::region::Region;

const OPTIONS: TextureOptions = TextureOptions::NEAREST;

/// The most cells a picture uploads whole: an 8192² map.
pub const EAGER_CELLS: u64 = 1 << 26;

/// The side of the tiles of a larger picture, uploaded as they come into view.
pub const LAZY_SIDE: u32 = 2048;

/// The most tiles of a larger picture held at once (256 MiB of texels).
pub const MAX_RESIDENT: usize = 16;

/// One tile: the cells it covers and its texture, when uploaded and up to date.
struct Tile {
    region: Region,
    texture: Option<TextureHandle>,
}

/// A picture of a `width` × `height` map in tiles.
pub struct TiledTexture {
    name: &'static str,
    size: (u32, u32),
    tiles: Vec<Tile>,
    /// Whether tiles are uploaded only as they come into view.
    lazy: bool,
}

impl TiledTexture {
    /// An empty picture; `name` names its textures for debugging.
    pub fn new(name: &'static str) -> Self {
        Self {
            name,
            size: (0, 0),
            tiles: Vec::new(),
            lazy: false,
        }
    }

    /// The size in cells of the picture uploaded, (0, 0) before the first upload.
    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// Uploads the whole picture of a `width` × `height` map; `image_of` draws any region. A
    /// map past [`EAGER_CELLS`] only lays out its tiles: [`TiledTexture::refresh`] uploads the
    /// ones in view.
    pub fn set_whole(
        &mut self,
        ctx: &egui::Context,
        (width, height): (u32, u32),
        image_of: impl Fn(Region) -> ColorImage,
    ) {
        let max_side = ctx.input(|i| i.max_texture_side).max(64) as u32;
        let lazy = u64::from(width) * u64::from(height) > EAGER_CELLS;
        let side = if lazy {
            max_side.min(LAZY_SIDE)
        } else {
            max_side
        };
        let layout: Vec<Region> = tiles_of(width, height, side);
        let reuse = self.size == (width, height)
            && self.lazy == lazy
            && self.tiles.len() == layout.len()
            && self.tiles.iter().zip(&layout).all(|(t, r)| t.region == *r);
        if lazy {
            if !reuse {
                self.tiles = layout
                    .into_iter()
                    .map(|region| Tile {
                        region,
                        texture: None,
                    })
                    .collect();
            }
            // Out of date everywhere: dropped, and drawn again as they come into view.
            for tile in &mut self.tiles {
                tile.texture = None;
            }
        } else if reuse {
            for tile in &mut self.tiles {
                match &mut tile.texture {
                    Some(texture) => texture.set(image_of(tile.region), OPTIONS),
                    None => {
                        tile.texture =
                            Some(ctx.load_texture(self.name, image_of(tile.region), OPTIONS));
                    }
                }
            }
        } else {
            self.tiles = layout
                .into_iter()
                .enumerate()
                .map(|(i, region)| Tile {
                    region,
                    texture: Some(ctx.load_texture(
                        format!("{}-{i}", self.name),
                        image_of(region),
                        OPTIONS,
                    )),
                })
                .collect();
        }
        self.lazy = lazy;
        self.size = (width, height);
    }

    /// Uploads the cells of `region` again, in every tile it touches that is uploaded (the
    /// others are drawn afresh when they come into view).
    pub fn set_region(&mut self, region: Region, image_of: impl Fn(Region) -> ColorImage) {
        for tile in &mut self.tiles {
            let part = intersection(tile.region, region);
            let Some(texture) = &mut tile.texture else {
                continue;
            };
            if part.is_empty() {
                continue;
            }
            let at = [
                (part.x0 - tile.region.x0) as usize,
                (part.y0 - tile.region.y0) as usize,
            ];
            texture.set_partial(at, image_of(part), OPTIONS);
        }
    }

    /// For a picture uploaded as it comes into view: uploads the tiles that `visible` touches
    /// and are not uploaded yet, when no more than [`MAX_RESIDENT`] of them are in view, and
    /// drops tiles out of view while more than that are held. Does nothing to a picture
    /// uploaded whole.
    pub fn refresh(
        &mut self,
        ctx: &egui::Context,
        visible: Region,
        image_of: impl Fn(Region) -> ColorImage,
    ) {
        if !self.lazy {
            return;
        }
        let in_view = |t: &Tile| !intersection(t.region, visible).is_empty();
        if self.tiles.iter().filter(|t| in_view(t)).count() > MAX_RESIDENT {
            return;
        }
        for (i, tile) in self.tiles.iter_mut().enumerate() {
            if tile.texture.is_none() && in_view(tile) {
                tile.texture = Some(ctx.load_texture(
                    format!("{}-{i}", self.name),
                    image_of(tile.region),
                    OPTIONS,
                ));
            }
        }
        let mut held = self.resident();
        for tile in &mut self.tiles {
            if held <= MAX_RESIDENT {
                break;
            }
            if tile.texture.is_some() && intersection(tile.region, visible).is_empty() {
                tile.texture = None;
                held -= 1;
            }
        }
    }

    /// How many tiles are uploaded.
    pub fn resident(&self) -> usize {
        self.tiles.iter().filter(|t| t.texture.is_some()).count()
    }

    /// Draws the cells of `visible`, placing map point `p` (in cells) at `screen_from_cell(p)`.
    pub fn paint(
        &self,
        painter: &Painter,
        visible: Region,
        screen_from_cell: impl Fn(Pos2) -> Pos2,
        tint: Color32,
    ) {
        let place = |part: Region| {
            Rect::from_min_max(
                screen_from_cell(Pos2::new(part.x0 as f32, part.y0 as f32)),
                screen_from_cell(Pos2::new(part.x1 as f32, part.y1 as f32)),
            )
        };
        self.paint_placed(painter, visible, Strips::Whole, place, tint);
    }

    /// Draws the cells of `visible` cut into `strips`, each part on the screen rectangle
    /// `place(part)` gives (hex maps draw each row, or column, pushed along by its stagger).
    pub fn paint_placed(
        &self,
        painter: &Painter,
        visible: Region,
        strips: Strips,
        place: impl Fn(Region) -> Rect,
        tint: Color32,
    ) {
        for tile in &self.tiles {
            // Only the part in view, so that deep zooms do not stretch one huge quad.
            let part = intersection(tile.region, visible);
            let Some(texture) = &tile.texture else {
                continue;
            };
            if part.is_empty() {
                continue;
            }
            let (w, h) = (tile.region.width() as f32, tile.region.height() as f32);
            let (tx, ty) = (tile.region.x0 as f32, tile.region.y0 as f32);
            let draw = |piece: Region| {
                let uv = Rect::from_min_max(
                    Pos2::new((piece.x0 as f32 - tx) / w, (piece.y0 as f32 - ty) / h),
                    Pos2::new((piece.x1 as f32 - tx) / w, (piece.y1 as f32 - ty) / h),
                );
                painter.image(texture.id(), place(piece), uv, tint);
            };
            match strips {
                Strips::Whole => draw(part),
                Strips::Rows => (part.y0..part.y1).for_each(|y| {
                    draw(Region {
                        y0: y,
                        y1: y + 1,
                        ..part
                    });
                }),
                Strips::Columns => (part.x0..part.x1).for_each(|x| {
                    draw(Region {
                        x0: x,
                        x1: x + 1,
                        ..part
                    });
                }),
            }
        }
    }
}

/// How a texture is cut to be drawn: whole, or one quad per row or per column of texels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strips {
    /// One quad per tile.
    Whole,
    /// One quad per row of texels.
    Rows,
    /// One quad per column of texels.
    Columns,
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
    fn a_picture_past_the_eager_limit_uploads_only_the_tiles_in_view() {
        let ctx = egui::Context::default();
        let drawn = std::cell::Cell::new(0u64);
        let image_of = |r: Region| {
            drawn.set(drawn.get() + u64::from(r.width()) * u64::from(r.height()));
            ColorImage::filled([r.width() as usize, r.height() as usize], Color32::RED)
        };
        let mut picture = TiledTexture::new("test");
        // 10000 × 8000 cells: past the eager limit, nothing is drawn until a view asks.
        picture.set_whole(&ctx, (10_000, 8000), image_of);
        assert_eq!((picture.resident(), drawn.get()), (0, 0));
        let side = LAZY_SIDE.min(ctx.input(|i| i.max_texture_side) as u32);
        let view = Region {
            x0: 100,
            y0: 100,
            x1: 100 + side,
            y1: 200,
        };
        picture.refresh(&ctx, view, image_of);
        // The view spans two tiles: those two, and no cell more.
        assert_eq!(picture.resident(), 2);
        assert_eq!(drawn.get(), 2 * u64::from(side) * u64::from(side));
        // Edits reach only uploaded tiles; a second refresh of the same view draws nothing.
        picture.set_region(Region::whole(10_000, 8000), image_of);
        let after_edit = drawn.get();
        assert_eq!(after_edit, 4 * u64::from(side) * u64::from(side));
        picture.refresh(&ctx, view, image_of);
        assert_eq!(drawn.get(), after_edit);
        // A view of the whole map (zoomed out) uploads nothing; walking the map keeps at most
        // MAX_RESIDENT tiles.
        picture.refresh(&ctx, Region::whole(10_000, 8000), image_of);
        assert_eq!(drawn.get(), after_edit);
        for y in (0..8000).step_by(side as usize) {
            for x in (0..10_000).step_by(side as usize) {
                let view = Region {
                    x0: x,
                    y0: y,
                    x1: x + 1,
                    y1: y + 1,
                };
                picture.refresh(&ctx, view, image_of);
                assert!(picture.resident() <= MAX_RESIDENT);
            }
        }
        // A map within the limit is uploaded whole at once, as before.
        let mut small = TiledTexture::new("small");
        drawn.set(0);
        small.set_whole(&ctx, (300, 200), image_of);
        assert_eq!((small.resident(), drawn.get()), (1, 300 * 200));
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
