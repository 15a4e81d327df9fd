//! The map on screen: one texel per cell in a texture, and the view's pan and zoom.
//!
//! Two coordinate spaces meet here: screen points (egui's) and the map's world frame
//! ([`Topology`]'s, measured in cell widths): a square cell (x, y) covers [x, x + 1) × [y, y + 1),
//! a hex lies around [`Topology::centre`]. Functions are named after the space they map from
//! and to (`cell_from_screen`, `screen_from_cell`). Every cell's centre, and the cell under a
//! point, come from the map's topology here, so the overlays drawn through these functions
//! land on hexes as on squares.

use egui::{Color32, ColorImage, Painter, Pos2, Rect, Stroke, Vec2};

use crate::grid::{Cell, Grid, Outline, StaggerAxis, Topology};

use super::tiled_texture::{Strips, TiledTexture};
use crate::app::edit::Redraw;
use crate::app::region::Region;

/// The smallest zoom, in screen points per cell.
pub const MIN_ZOOM: f32 = 1.0 / 32.0;
/// The largest zoom, in screen points per cell.
pub const MAX_ZOOM: f32 = 128.0;
/// The longer side of the minimap, in screen points.
pub const MINIMAP_SIDE: f32 = 160.0;
/// From this zoom on, grid lines are drawn between cells.
pub const GRID_LINES_FROM: f32 = 8.0;

/// From this zoom on (points per cell), cliffs are drawn: the edges no step may cross
/// because the heights on either side differ by more than the map's max climb.
pub const CLIFFS_FROM: f32 = 4.0;

/// The colour cliffs are drawn in.
const CLIFF_COLOUR: Color32 = Color32::from_rgb(150, 40, 25);
/// From this zoom on, a hex map's visible cells are drawn as hexagons (a mesh); below it,
/// as its texture laid row by row (or column by column), each pushed along by its stagger.
pub const HEX_MESH_FROM: f32 = 5.0;

/// The texture of the map and the view onto it.
///
/// Zoomed out so far that several cells fall in one screen pixel, the canvas draws an
/// overview instead of the full texture: one texel per block of `factor` × `factor` cells,
/// holding the block's most significant terrain (walls first, then the costliest), so that a
/// one-cell wall stays visible at any zoom where a sampled texture would skip it.
pub struct Canvas {
    texture: TiledTexture,
    pending: Option<Redraw>,
    overview: BlockTexture,
    minimap: BlockTexture,
    /// Screen points per cell.
    zoom: f32,
    /// The screen position of the map's top-left corner.
    origin: Pos2,
    /// Where the canvas was laid out in the last frame.
    rect: Rect,
    /// Fit the map into the view at the next frame (the view's size is not known before).
    fit_pending: bool,
    /// How many times the map was reported changed: layers drawn from the map compare it.
    changes: u64,
    /// The shape of the map's cells, as of the last frame laid out.
    topology: Topology,
}

impl Default for Canvas {
    fn default() -> Self {
        Self::new()
    }
}

impl Canvas {
    /// A canvas that fits the map into the view at the first frame.
    pub fn new() -> Self {
        Self {
            texture: TiledTexture::new("map"),
            pending: Some(Redraw::All),
            overview: BlockTexture::new("map-overview"),
            minimap: BlockTexture::new("map-minimap"),
            zoom: 1.0,
            origin: Pos2::ZERO,
            rect: Rect::ZERO,
            fit_pending: true,
            changes: 0,
            topology: Topology::Square,
        }
    }

    /// Screen points per cell.
    pub fn zoom(&self) -> f32 {
        self.zoom
    }

    /// The screen rectangle the canvas covers.
    pub fn rect(&self) -> Rect {
        self.rect
    }

    /// Lays the canvas out in `rect` for this frame, and fits the map in when asked to.
    pub fn set_rect(&mut self, rect: Rect, grid: &Grid) {
        let moved = rect.min - self.rect.min;
        self.rect = rect;
        self.topology = grid.topology();
        self.origin += moved;
        if self.fit_pending {
            self.fit_pending = false;
            self.fit(grid);
        }
    }

    /// Fits the map into the view at the next frame.
    pub fn request_fit(&mut self) {
        self.fit_pending = true;
    }

    /// Zooms so that the whole map shows, centred.
    pub fn fit(&mut self, grid: &Grid) {
        self.topology = grid.topology();
        let size = self.rect.size();
        let (w, h) = world_size(grid);
        if size.x <= 0.0 || size.y <= 0.0 {
            self.fit_pending = true;
            return;
        }
        let zoom = (size.x / w).min(size.y / h) * 0.96;
        self.zoom = zoom.clamp(MIN_ZOOM, MAX_ZOOM);
        let map_size = Vec2::new(w, h) * self.zoom;
        self.origin = self.rect.center() - map_size / 2.0;
    }

    /// Zooms so that the map's box from `min` to `max` (in cells) fills the view, centred.
    pub fn zoom_to_cells(&mut self, min: Pos2, max: Pos2) {
        let size = (max - min).max(Vec2::splat(1.0));
        let zoom = (self.rect.width() / size.x).min(self.rect.height() / size.y) * 0.96;
        self.zoom = zoom.clamp(MIN_ZOOM, MAX_ZOOM);
        self.center_on(min + (max - min) / 2.0);
    }

    /// Sets the zoom, keeping the map point under `anchor` (a screen position) in place.
    pub fn zoom_to(&mut self, zoom: f32, anchor: Pos2) {
        let zoom = zoom.clamp(MIN_ZOOM, MAX_ZOOM);
        let point = self.cell_from_screen(anchor);
        self.zoom = zoom;
        self.origin = anchor - point.to_vec2() * zoom;
    }

    /// Multiplies the zoom by `factor` around a screen position.
    pub fn zoom_by(&mut self, factor: f32, anchor: Pos2) {
        self.zoom_to(self.zoom * factor, anchor);
    }

    /// Shows one cell per screen point, keeping the view's centre in place.
    pub fn one_to_one(&mut self) {
        self.zoom_to(1.0, self.rect.center());
    }

    /// Moves the map by a screen distance.
    pub fn pan(&mut self, delta: Vec2) {
        self.origin += delta;
    }

    /// The shape of the map's cells, as of the last frame laid out.
    pub fn topology(&self) -> Topology {
        self.topology
    }

    /// The map point (in the world frame) at a screen position.
    pub fn cell_from_screen(&self, pos: Pos2) -> Pos2 {
        ((pos - self.origin) / self.zoom).to_pos2()
    }

    /// The screen position of a map point (in the world frame).
    pub fn screen_from_cell(&self, point: Pos2) -> Pos2 {
        self.origin + point.to_vec2() * self.zoom
    }

    /// The screen position of a cell's centre.
    pub fn screen_from_cell_center(&self, cell: Cell) -> Pos2 {
        let (x, y) = self.topology.centre(cell);
        self.screen_from_cell(Pos2::new(x as f32, y as f32))
    }

    /// The screen position of the middle of a unit of size `unit` placed at `cell`: the
    /// middle of its `unit` × `unit` square with `cell` top-left on squares, `cell`'s centre
    /// on hexes (a unit there is the hex of radius `unit − 1` around it).
    pub fn screen_from_unit_centre(&self, cell: Cell, unit: u32) -> Pos2 {
        let (x, y) = self.topology.unit_outline(cell, unit).centre();
        self.screen_from_cell(Pos2::new(x as f32, y as f32))
    }

    /// Fills the cells a unit of size `unit` at `cell` covers: its square, or on hexes the
    /// disc the hex of radius `unit − 1` around `cell` fills.
    pub fn paint_footprint(&self, painter: &Painter, cell: Cell, unit: u32, fill: Color32) {
        self.paint_footprint_shape(painter, cell, unit, fill, Stroke::NONE);
    }

    /// The outline of a unit's footprint at `cell` (its top-left cell on squares, its centre
    /// on hexes).
    pub fn paint_footprint_outline(
        &self,
        painter: &Painter,
        cell: Cell,
        unit: u32,
        stroke: Stroke,
    ) {
        self.paint_footprint_shape(painter, cell, unit, Color32::TRANSPARENT, stroke);
    }

    /// A unit's footprint at `cell`, filled and outlined.
    fn paint_footprint_shape(
        &self,
        painter: &Painter,
        cell: Cell,
        unit: u32,
        fill: Color32,
        stroke: Stroke,
    ) {
        self.paint_outline(
            painter,
            self.topology.unit_outline(cell, unit),
            fill,
            stroke,
        );
    }

    /// Paints a shape of the world frame: a rectangle (its stroke inside) or a disc.
    pub fn paint_outline(
        &self,
        painter: &Painter,
        outline: Outline,
        fill: Color32,
        stroke: Stroke,
    ) {
        let at = |(x, y): (f64, f64)| self.screen_from_cell(Pos2::new(x as f32, y as f32));
        match outline {
            Outline::Rect { min, max } => {
                let rect = Rect::from_min_max(at(min), at(max));
                painter.rect(rect, 0.0, fill, stroke, egui::StrokeKind::Inside);
            }
            Outline::Disc { centre, radius } => {
                painter.circle(at(centre), radius as f32 * self.zoom, fill, stroke);
            }
        }
    }

    /// The cell (signed, possibly off the map) under a screen position: the square it falls
    /// in, or the hex by cube rounding.
    fn cell_under(&self, pos: Pos2) -> (i64, i64) {
        // The world point in f64 from the screen one, so that rounding on a hex's edge is the
        // topology's, not lost in f32 twice.
        let x = (f64::from(pos.x) - f64::from(self.origin.x)) / f64::from(self.zoom);
        let y = (f64::from(pos.y) - f64::from(self.origin.y)) / f64::from(self.zoom);
        self.topology.cell_at(x, y)
    }

    /// The cell at a screen position, or `None` off the map.
    pub fn grid_cell_at(&self, pos: Pos2, grid: &Grid) -> Option<Cell> {
        let (x, y) = self.cell_under(pos);
        (x >= 0 && y >= 0 && x < i64::from(grid.width()) && y < i64::from(grid.height()))
            .then(|| Cell::new(x as u32, y as u32))
    }

    /// The cell at a screen position, or the nearest cell on the map's edge when off it.
    pub fn clamped_cell_at(&self, pos: Pos2, grid: &Grid) -> Cell {
        let (x, y) = self.cell_under(pos);
        let clamp = |v: i64, side: u32| v.clamp(0, i64::from(side.saturating_sub(1))) as u32;
        Cell::new(clamp(x, grid.width()), clamp(y, grid.height()))
    }

    /// The screen rectangle of the whole map (its bounding box, for hexes).
    pub fn map_rect(&self, grid: &Grid) -> Rect {
        let (w, h) = world_size(grid);
        Rect::from_min_size(self.origin, Vec2::new(w, h) * self.zoom)
    }

    /// Marks cells to be sent to the texture at the next frame.
    pub fn redraw(&mut self, redraw: Redraw) {
        self.changes += 1;
        self.pending = merged(self.pending, redraw);
        self.overview.pending = merged(self.overview.pending, redraw);
        self.minimap.pending = merged(self.minimap.pending, redraw);
    }

    /// How many times the map was reported changed ([`Canvas::redraw`]) so far.
    pub fn changes(&self) -> u64 {
        self.changes
    }

    /// The side of the blocks the overview draws as one texel at this zoom: the smallest
    /// power of two at which a texel covers a screen pixel or more; 1 when cells do.
    pub fn overview_factor(&self, pixels_per_point: f32) -> u32 {
        let cells_per_pixel = 1.0 / (self.zoom * pixels_per_point);
        if cells_per_pixel <= 1.0 {
            return 1;
        }
        let factor = cells_per_pixel.log2().ceil().exp2() as u32;
        factor.clamp(1, 1 << 13)
    }

    /// The colour drawn for `cell` at this zoom: its terrain's, or, zoomed out, that of the
    /// most significant terrain of its overview block.
    pub fn shown_colour(&self, grid: &Grid, cell: Cell, pixels_per_point: f32) -> Color32 {
        let factor = self.overview_factor(pixels_per_point);
        let block = Region {
            x0: cell.x / factor,
            y0: cell.y / factor,
            x1: cell.x / factor + 1,
            y1: cell.y / factor + 1,
        };
        overview_image(grid, factor, block).pixels[0]
    }

    /// Sends the changed cells to the texture: the whole map after a new map, a resize or a
    /// change of colours, else only the rectangle that changed (`set_partial`).
    pub fn sync_texture(&mut self, ctx: &egui::Context, grid: &Grid) {
        let size = (grid.width(), grid.height());
        let whole = self.texture.size() != size || self.pending == Some(Redraw::All);
        if whole {
            self.texture
                .set_whole(ctx, size, |region| image_of(grid, region));
        } else if let Some(Redraw::Cells(region)) = self.pending
            && !region.is_empty()
        {
            let region = Region {
                x1: region.x1.min(grid.width()),
                y1: region.y1.min(grid.height()),
                ..region
            };
            self.texture.set_region(region, |part| image_of(grid, part));
        }
        self.pending = None;
        let factor = self.overview_factor(ctx.pixels_per_point());
        if factor > 1 {
            self.overview.sync(ctx, grid, factor);
        } else {
            // A map too large to upload whole gets the tiles in view.
            let visible = self.visible_cells(grid);
            self.texture
                .refresh(ctx, visible, |region| image_of(grid, region));
        }
        if self.minimap_rect(grid).is_some() {
            self.minimap.sync(ctx, grid, minimap_factor(grid));
        }
    }

    /// Draws the map, and grid lines over the visible cells when they are big enough.
    pub fn paint(&self, painter: &Painter, grid: &Grid, grid_lines: bool) {
        let map_rect = self.map_rect(grid);
        painter.rect_filled(self.rect, 0.0, Color32::from_gray(28));
        let visible = self.visible_cells(grid);
        let factor = self.overview_factor(painter.ctx().pixels_per_point());
        let to_screen = |p: Pos2| self.screen_from_cell(p);
        if !self.topology.sides_line_up() && self.zoom >= HEX_MESH_FROM {
            self.paint_hexes(painter, grid, grid_lines && self.zoom >= GRID_LINES_FROM);
        } else if factor > 1 && factor == self.overview.factor {
            self.overview
                .paint(painter, visible, self.topology, to_screen);
        } else {
            paint_cell_texture(
                painter,
                &self.texture,
                visible,
                (self.topology, 1),
                to_screen,
                Color32::WHITE,
            );
        }
        if grid_lines && self.zoom >= GRID_LINES_FROM && self.topology.sides_line_up() {
            self.paint_grid_lines(painter, grid);
        }
        let cliff = Stroke::new((self.zoom * 0.12).clamp(1.5, 4.0), CLIFF_COLOUR);
        for (a, b) in self.cliffs(grid) {
            painter.line_segment([self.screen_from_cell(a), self.screen_from_cell(b)], cliff);
        }
        painter.rect_stroke(
            map_rect,
            0.0,
            Stroke::new(1.0, Color32::from_gray(90)),
            egui::StrokeKind::Outside,
        );
    }

    /// Where the minimap shows, at the canvas's bottom-right corner: `None` while the whole
    /// map is in view.
    pub fn minimap_rect(&self, grid: &Grid) -> Option<Rect> {
        let map = self.map_rect(grid);
        if self.rect.contains_rect(map) || self.rect.width() < 200.0 || self.rect.height() < 200.0 {
            return None;
        }
        let (w, h) = world_size(grid);
        let scale = (MINIMAP_SIDE / w).min(MINIMAP_SIDE / h);
        let size = Vec2::new(w, h) * scale;
        let max = self.rect.max - Vec2::splat(10.0);
        Some(Rect::from_min_size(max - size, size))
    }

    /// The map point (in the world frame) under a position on the minimap.
    pub fn cell_from_minimap(&self, grid: &Grid, pos: Pos2) -> Option<Pos2> {
        let rect = self.minimap_rect(grid)?;
        let (w, h) = world_size(grid);
        let t = (pos - rect.min) / rect.size();
        Some(Pos2::new(t.x.clamp(0.0, 1.0) * w, t.y.clamp(0.0, 1.0) * h))
    }

    /// Moves the view so that a map point (in the world frame) is at the canvas's centre.
    pub fn center_on(&mut self, point: Pos2) {
        self.origin = self.rect.center() - point.to_vec2() * self.zoom;
    }

    /// Draws the minimap: the whole map small, and the part in view as a rectangle.
    pub fn paint_minimap(&self, painter: &Painter, grid: &Grid) {
        let Some(rect) = self.minimap_rect(grid) else {
            return;
        };
        painter.rect_filled(rect.expand(3.0), 3.0, Color32::from_black_alpha(200));
        let (w, h) = world_size(grid);
        let scale = rect.width() / w;
        let whole = Region::whole(grid.width(), grid.height());
        let to_minimap = |p: Pos2| rect.min + p.to_vec2() * scale;
        if self.minimap.factor == minimap_factor(grid) {
            self.minimap
                .paint(painter, whole, self.topology, to_minimap);
        }
        let a = self.cell_from_screen(self.rect.min);
        let b = self.cell_from_screen(self.rect.max);
        let view = Rect::from_min_max(
            to_minimap(Pos2::new(a.x.clamp(0.0, w), a.y.clamp(0.0, h))),
            to_minimap(Pos2::new(b.x.clamp(0.0, w), b.y.clamp(0.0, h))),
        );
        painter.rect_stroke(
            view,
            0.0,
            Stroke::new(1.5, Color32::WHITE),
            egui::StrokeKind::Middle,
        );
    }

    /// The cells in view, as a region of the map (rows and columns of the stored cells; on
    /// hexes one more on every side, as a hex's row or column drifts by half a cell).
    pub fn visible_cells(&self, grid: &Grid) -> Region {
        let a = self.cell_from_screen(self.rect.min);
        let b = self.cell_from_screen(self.rect.max);
        let clamp = |v: f64, side: u32| v.clamp(0.0, f64::from(side)) as u32;
        // The first and one-past-the-last row and column, in f64.
        let ((x0, y0), (x1, y1)) = self.topology.cells_over(
            (f64::from(a.x), f64::from(a.y)),
            (f64::from(b.x), f64::from(b.y)),
        );
        Region {
            x0: clamp(x0, grid.width()),
            y0: clamp(y0, grid.height()),
            x1: clamp(x1, grid.width()),
            y1: clamp(y1, grid.height()),
        }
    }

    /// Draws a texture of one texel per cell of the map (an overlay), laid as the map's cells.
    pub fn paint_overlay(
        &self,
        painter: &Painter,
        texture: &TiledTexture,
        visible: Region,
        tint: Color32,
    ) {
        let to_screen = |p: Pos2| self.screen_from_cell(p);
        paint_cell_texture(
            painter,
            texture,
            visible,
            (self.topology, 1),
            to_screen,
            tint,
        );
    }

    /// The cliffs among the visible cells, as segments in cell coordinates: every edge
    /// between two neighbouring cells whose heights differ by more than the map's max climb
    /// (no step crosses it). None when the map has no heights or no max climb, or when cells
    /// are smaller than [`CLIFFS_FROM`] points.
    pub fn cliffs(&self, grid: &Grid) -> Vec<(Pos2, Pos2)> {
        let mut cliffs = Vec::new();
        let Some(limit) = grid.slope().max_climb else {
            return cliffs;
        };
        if grid.heights().is_none() || self.zoom < CLIFFS_FROM {
            return cliffs;
        }
        let visible = self.visible_cells(grid);
        let (width, height) = (i64::from(grid.width()), i64::from(grid.height()));
        for y in visible.y0..visible.y1 {
            for x in visible.x0..visible.x1 {
                let cell = Cell::new(x, y);
                let here = grid.height_at(cell);
                let (x, y) = (i64::from(x), i64::from(y));
                // Each edge once: from the cell to its neighbours later in row order.
                let later = self
                    .topology
                    .side_neighbours(x, y)
                    .into_iter()
                    .filter(|&(nx, ny)| (ny, nx) > (y, x));
                for (nx, ny) in later {
                    if !(0..width).contains(&nx) || !(0..height).contains(&ny) {
                        continue;
                    }
                    let other = Cell::new(nx as u32, ny as u32);
                    if (grid.height_at(other) - here).abs() > limit
                        && let Some(edge) = self.shared_edge(cell, other)
                    {
                        cliffs.push(edge);
                    }
                }
            }
        }
        cliffs
    }

    /// The edge two neighbouring cells share, in cell coordinates.
    fn shared_edge(&self, a: Cell, b: Cell) -> Option<(Pos2, Pos2)> {
        let theirs = self.cell_corners(b);
        let shared: Vec<Pos2> = self
            .cell_corners(a)
            .into_iter()
            .filter(|&(x, y)| {
                theirs
                    .iter()
                    .any(|&(u, v)| (u - x).abs() < 1e-6 && (v - y).abs() < 1e-6)
            })
            .map(|(x, y)| Pos2::new(x as f32, y as f32))
            .collect();
        match shared[..] {
            [p, q] => Some((p, q)),
            _ => None,
        }
    }

    /// A cell's corners in cell coordinates: its square's or its hexagon's.
    fn cell_corners(&self, cell: Cell) -> Vec<(f64, f64)> {
        self.topology.corners(i64::from(cell.x), i64::from(cell.y))
    }

    /// The screen outline of a cell: its square's or its hexagon's corners.
    pub fn cell_outline(&self, cell: Cell) -> Vec<Pos2> {
        self.cell_corners(cell)
            .into_iter()
            .map(|(x, y)| self.screen_from_cell(Pos2::new(x as f32, y as f32)))
            .collect()
    }

    /// The visible hexes as one mesh of filled hexagons in their terrains' colours (shaded
    /// by the relief on a map with heights), and their outlines when `outlines`.
    fn paint_hexes(&self, painter: &Painter, grid: &Grid, outlines: bool) {
        let visible = self.visible_cells(grid);
        if visible.is_empty() {
            return;
        }
        let image = image_of(grid, visible);
        let mut mesh = egui::Mesh::default();
        let mut edges = Vec::new();
        let stroke = Stroke::new(1.0, Color32::from_black_alpha(70));
        let mut i = 0;
        for y in visible.y0..visible.y1 {
            for x in visible.x0..visible.x1 {
                let colour = image.pixels[i];
                i += 1;
                let cell = Cell::new(x, y);
                let corners = self.cell_outline(cell);
                let base = mesh.vertices.len() as u32;
                mesh.colored_vertex(self.screen_from_cell_center(cell), colour);
                for &corner in &corners {
                    mesh.colored_vertex(corner, colour);
                }
                let n = corners.len() as u32;
                for k in 0..n {
                    mesh.add_triangle(base, base + 1 + k, base + 1 + (k + 1) % n);
                }
                if outlines {
                    edges.push(egui::Shape::closed_line(corners, stroke));
                }
            }
        }
        painter.add(mesh);
        painter.extend(edges);
    }

    fn paint_grid_lines(&self, painter: &Painter, grid: &Grid) {
        let visible = self.visible_cells(grid);
        if visible.is_empty() {
            return;
        }
        let alpha = ((self.zoom - GRID_LINES_FROM) * 8.0).clamp(0.0, 60.0) as u8 + 20;
        let stroke = Stroke::new(1.0, Color32::from_black_alpha(alpha));
        let top = self.screen_from_cell(Pos2::new(0.0, visible.y0 as f32)).y;
        let bottom = self.screen_from_cell(Pos2::new(0.0, visible.y1 as f32)).y;
        for x in visible.x0..=visible.x1 {
            let sx = self.screen_from_cell(Pos2::new(x as f32, 0.0)).x;
            painter.line_segment([Pos2::new(sx, top), Pos2::new(sx, bottom)], stroke);
        }
        let left = self.screen_from_cell(Pos2::new(visible.x0 as f32, 0.0)).x;
        let right = self.screen_from_cell(Pos2::new(visible.x1 as f32, 0.0)).x;
        for y in visible.y0..=visible.y1 {
            let sy = self.screen_from_cell(Pos2::new(0.0, y as f32)).y;
            painter.line_segment([Pos2::new(left, sy), Pos2::new(right, sy)], stroke);
        }
    }
}

/// The size of the map's bounding box in the world frame.
fn world_size(grid: &Grid) -> (f32, f32) {
    let (w, h) = grid.topology().world_size(grid.width(), grid.height());
    (w as f32, h as f32)
}

/// What the canvas says on a map nobody has touched yet: how to start.
pub const HINT: &str =
    "Drag to paint · drag S and G to move the path's ends · right-click for more · F1: keys";

/// The hint at the top of the canvas, over a dark band so it reads on any terrain.
pub fn paint_hint(painter: &egui::Painter, rect: egui::Rect) {
    let font = egui::FontId::proportional(13.0);
    let galley = painter.layout_no_wrap(HINT.to_owned(), font, egui::Color32::from_gray(235));
    let at = egui::pos2(rect.center().x - galley.size().x / 2.0, rect.top() + 8.0);
    let band = egui::Rect::from_min_size(at, galley.size()).expand2(egui::vec2(8.0, 4.0));
    painter.rect_filled(band, 4.0, egui::Color32::from_black_alpha(170));
    painter.galley(at, galley, egui::Color32::from_gray(235));
}

/// The colour egui paints a terrain with.
pub fn color_of(rgb: crate::grid::Rgb) -> Color32 {
    let [r, g, b] = rgb.0;
    Color32::from_rgb(r, g, b)
}

/// A picture of the map with one texel per block of `factor` × `factor` cells, each of the
/// block's most significant terrain ([`overview_image`]), kept up to date by the redraws.
struct BlockTexture {
    texture: TiledTexture,
    /// The block side uploaded; 1 before the first upload.
    factor: u32,
    pending: Option<Redraw>,
}

impl BlockTexture {
    fn new(name: &'static str) -> Self {
        Self {
            texture: TiledTexture::new(name),
            factor: 1,
            pending: Some(Redraw::All),
        }
    }

    /// Uploads what changed since the last upload, or everything at another block side.
    fn sync(&mut self, ctx: &egui::Context, grid: &Grid, factor: u32) {
        let blocks = (
            grid.width().div_ceil(factor),
            grid.height().div_ceil(factor),
        );
        let whole = self.factor != factor
            || self.texture.size() != blocks
            || self.pending == Some(Redraw::All);
        if whole {
            self.texture
                .set_whole(ctx, blocks, |region| overview_image(grid, factor, region));
        } else if let Some(Redraw::Cells(region)) = self.pending
            && !region.is_empty()
        {
            let region = Region {
                x0: region.x0 / factor,
                y0: region.y0 / factor,
                x1: region.x1.min(grid.width()).div_ceil(factor),
                y1: region.y1.min(grid.height()).div_ceil(factor),
            };
            self.texture
                .set_region(region, |part| overview_image(grid, factor, part));
        }
        self.factor = factor;
        self.pending = None;
    }

    /// Draws the blocks over the cells of `cells`, laid as `topology`'s cells, placing world
    /// point `p` at `to_screen(p)`.
    fn paint(
        &self,
        painter: &Painter,
        cells: Region,
        topology: Topology,
        to_screen: impl Fn(Pos2) -> Pos2,
    ) {
        let f = self.factor;
        let blocks = Region {
            x0: cells.x0 / f,
            y0: cells.y0 / f,
            x1: cells.x1.div_ceil(f),
            y1: cells.y1.div_ceil(f),
        };
        paint_cell_texture(
            painter,
            &self.texture,
            blocks,
            (topology, f),
            to_screen,
            Color32::WHITE,
        );
    }
}

/// Draws a texture of one texel per block of `factor` × `factor` cells (`shape` is the map's
/// topology and that factor), its texels `parts` of it, placing world point `p` at
/// `to_screen(p)`. Squares lie as they are stored; on hexes each row (pointy-top) or column
/// (flat-top) of single cells is a strip pushed half a cell along where staggered — a brick
/// wall, each brick touching the six bricks its hex touches — and blocks of cells lie a
/// quarter of a cell along, the mean push.
fn paint_cell_texture(
    painter: &Painter,
    texture: &TiledTexture,
    parts: Region,
    shape: (Topology, u32),
    to_screen: impl Fn(Pos2) -> Pos2,
    tint: Color32,
) {
    let (topology, factor) = shape;
    let strips = match topology.staggered_axis() {
        None => Strips::Whole,
        Some(_) if factor > 1 => Strips::Whole,
        Some(StaggerAxis::Y) => Strips::Rows,
        Some(StaggerAxis::X) => Strips::Columns,
    };
    let place = |part: Region| {
        let (min, max) = world_rect(topology, factor, part);
        Rect::from_min_max(to_screen(min), to_screen(max))
    };
    texture.paint_placed(painter, parts, strips, place, tint);
}

/// The world rectangle a texture's `part` covers (texels of `factor` × `factor` cells), as
/// [`paint_cell_texture`] lays it.
fn world_rect(topology: Topology, factor: u32, part: Region) -> (Pos2, Pos2) {
    let corners = topology.block_rect(factor, (part.x0, part.y0, part.x1, part.y1));
    let ((ax, ay), (bx, by)) = corners;
    (
        Pos2::new(ax as f32, ay as f32),
        Pos2::new(bx as f32, by as f32),
    )
}

/// The block side of the minimap's picture: the smallest power of two that brings the map's
/// longer side within the minimap's, so that every texel covers a point or more and thin walls
/// show.
fn minimap_factor(grid: &Grid) -> u32 {
    let side = grid.width().max(grid.height()) as f32;
    let wanted = side / MINIMAP_SIDE;
    if wanted <= 1.0 {
        1
    } else {
        wanted.log2().ceil().exp2() as u32
    }
}

/// Two pending redraws as one.
fn merged(pending: Option<Redraw>, redraw: Redraw) -> Option<Redraw> {
    match (pending, redraw) {
        (Some(Redraw::All), _) | (_, Redraw::All) => Some(Redraw::All),
        (Some(Redraw::Cells(mut a)), Redraw::Cells(b)) => {
            a.union(b);
            Some(Redraw::Cells(a))
        }
        (None, cells) => Some(cells),
    }
}

/// How much each terrain stands out when cells are merged: walls most, then by cost (the
/// costliest first); a block shows its most significant terrain.
fn significance(grid: &Grid) -> [u16; 256] {
    let mut rank = [0u16; 256];
    let mut passable: Vec<(f64, usize)> = grid
        .terrains()
        .iter()
        .enumerate()
        .filter_map(|(i, t)| t.cost.map(|c| (c, i)))
        .collect();
    passable.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (order, &(_, i)) in passable.iter().enumerate() {
        rank[i] = order as u16;
    }
    for (i, terrain) in grid.terrains().iter().enumerate() {
        if !terrain.is_passable() {
            rank[i] = u16::MAX;
        }
    }
    rank
}

/// The overview image of a region of blocks of `factor` × `factor` cells: one pixel per
/// block, of the block's most significant terrain.
fn overview_image(grid: &Grid, factor: u32, blocks: Region) -> ColorImage {
    let rank = significance(grid);
    let mut lut = [Color32::MAGENTA; 256];
    for (i, terrain) in grid.terrains().iter().enumerate() {
        lut[i] = color_of(terrain.color);
    }
    let (w, h) = (grid.width() as usize, grid.height() as usize);
    let f = factor as usize;
    let cells = grid.cells();
    let mut pixels = Vec::with_capacity(blocks.width() as usize * blocks.height() as usize);
    for by in blocks.y0 as usize..blocks.y1 as usize {
        let rows = (by * f).min(h)..((by + 1) * f).min(h);
        for bx in blocks.x0 as usize..blocks.x1 as usize {
            let columns = (bx * f).min(w)..((bx + 1) * f).min(w);
            let mut best: Option<u8> = None;
            for y in rows.clone() {
                for &id in &cells[y * w + columns.start..y * w + columns.end] {
                    if best.is_none_or(|b| rank[usize::from(id)] > rank[usize::from(b)]) {
                        best = Some(id);
                    }
                }
            }
            pixels.push(best.map_or(Color32::TRANSPARENT, |id| lut[usize::from(id)]));
        }
    }
    ColorImage::new([blocks.width() as usize, blocks.height() as usize], pixels)
}

/// The image of a region of the grid, one pixel per cell.
fn image_of(grid: &Grid, region: Region) -> ColorImage {
    let mut lut = [Color32::MAGENTA; 256];
    for (i, terrain) in grid.terrains().iter().enumerate() {
        lut[i] = color_of(terrain.color);
    }
    let (w, h) = (region.width() as usize, region.height() as usize);
    let stride = grid.width() as usize;
    let cells = grid.cells();
    let mut pixels = Vec::with_capacity(w * h);
    for y in region.y0 as usize..region.y1 as usize {
        let row = &cells[y * stride + region.x0 as usize..y * stride + region.x1 as usize];
        pixels.extend(row.iter().map(|&id| lut[usize::from(id)]));
    }
    if let Some(heights) = grid.heights() {
        let mut i = 0;
        for y in region.y0..region.y1 {
            for x in region.x0..region.x1 {
                pixels[i] = shaded(
                    pixels[i],
                    hillshade(heights, grid.width(), grid.height(), x, y),
                );
                i += 1;
            }
        }
    }
    ColorImage::new([w, h], pixels)
}

/// The light a cell of a map with heights gets from a lamp in the north-west, 45° up, with
/// heights exaggerated by [`RELIEF`]: 1 on level ground, more on slopes facing the lamp,
/// less on those facing away (the cartographer's hillshade).
fn hillshade(heights: &[f32], width: u32, height: u32, x: u32, y: u32) -> f32 {
    let at = |x: u32, y: u32| heights[y as usize * width as usize + x as usize];
    let (left, right) = (x.saturating_sub(1), (x + 1).min(width - 1));
    let (up, down) = (y.saturating_sub(1), (y + 1).min(height - 1));
    let dx = (at(right, y) - at(left, y)) / (right - left).max(1) as f32 * RELIEF;
    let dy = (at(x, down) - at(x, up)) / (down - up).max(1) as f32 * RELIEF;
    // Normal (-dx, -dy, 1); the lamp at (-1, -1, √2) / 2.
    let lit = (dx + dy + std::f32::consts::SQRT_2) / (2.0 * (dx * dx + dy * dy + 1.0).sqrt());
    lit / std::f32::consts::FRAC_1_SQRT_2
}

/// How much the hillshade exaggerates heights, so that a rise of one unit per cell shows.
const RELIEF: f32 = 1.5;

/// A colour darkened or lightened by a hillshade factor.
fn shaded(colour: Color32, light: f32) -> Color32 {
    let light = light.clamp(0.3, 1.4);
    let channel = |c: u8| (f32::from(c) * light).round().clamp(0.0, 255.0) as u8;
    Color32::from_rgb(
        channel(colour.r()),
        channel(colour.g()),
        channel(colour.b()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canvas_on(grid: &Grid) -> Canvas {
        let mut canvas = Canvas::new();
        let rect = Rect::from_min_size(Pos2::new(100.0, 50.0), Vec2::new(400.0, 300.0));
        canvas.set_rect(rect, grid);
        canvas
    }

    /// The brightness of a pixel, the sum of its channels.
    fn brightness(image: &ColorImage, x: usize, y: usize) -> u32 {
        let c = image.pixels[y * image.size[0] + x];
        u32::from(c.r()) + u32::from(c.g()) + u32::from(c.b())
    }

    #[test]
    fn the_hillshade_lights_a_ridge_from_the_lamp_side_and_a_trench_the_other_way() {
        // Pale ground (the lit side must show where colours are near white), a ridge along
        // x = 4 and a trench along x = 12, lamp in the north-west.
        let mut grid = Grid::from_ascii(&[".".repeat(17).as_str(); 5]).unwrap();
        let mut heights = vec![0.0_f32; 17 * 5];
        for y in 0..5 {
            heights[y * 17 + 4] = 2.0;
            heights[y * 17 + 12] = -2.0;
        }
        grid.set_heights(Some(heights)).unwrap();
        let mut ground = grid.terrains()[0].clone();
        ground.color = gridpath_core::grid::Rgb([235, 235, 235]);
        grid.set_terrain(0, ground).unwrap();
        let image = image_of(&grid, Region::whole(17, 5));
        let flat = brightness(&image, 0, 2);
        // The ridge: lit before it (west), dark after it (east); the ground between stays.
        assert!(brightness(&image, 3, 2) > flat + 30, "the lit side shows");
        assert!(brightness(&image, 5, 2) + 30 < flat, "the far side is dark");
        // The trench: the other way round.
        assert!(brightness(&image, 11, 2) + 30 < flat);
        assert!(brightness(&image, 13, 2) > flat + 30);
        assert_eq!(brightness(&image, 8, 2), flat, "level ground between them");
    }

    #[test]
    fn cliffs_are_the_edges_whose_height_step_exceeds_the_max_climb() {
        // Heights rising by 1 a column, then a step of 3 between x = 3 and x = 4.
        let mut grid = Grid::from_ascii(&["......", "......", "......"]).unwrap();
        let row = [0.0_f32, 1.0, 2.0, 3.0, 6.0, 7.0];
        grid.set_heights(Some(row.repeat(3))).unwrap();
        let canvas = canvas_on(&grid);
        assert!(canvas.zoom() >= CLIFFS_FROM);
        // No max climb: no cliff.
        assert!(canvas.cliffs(&grid).is_empty());
        let mut slope = grid.slope();
        slope.max_climb = Some(1.5);
        grid.set_slope(slope).unwrap();
        let mut cliffs = canvas.cliffs(&grid);
        cliffs.sort_by(|a, b| a.0.y.total_cmp(&b.0.y));
        let expected: Vec<(Pos2, Pos2)> = (0..3)
            .map(|y| (Pos2::new(4.0, y as f32), Pos2::new(4.0, y as f32 + 1.0)))
            .collect();
        let normalised: Vec<(Pos2, Pos2)> = cliffs
            .iter()
            .map(|&(p, q)| if p.y <= q.y { (p, q) } else { (q, p) })
            .collect();
        assert_eq!(
            normalised, expected,
            "the vertical edge at x = 4 in each row"
        );
        // Every cliff is an edge no step crosses.
        for y in 0..3 {
            let (a, b) = (Cell::new(3, y), Cell::new(4, y));
            assert_eq!(grid.slope_extra(a, b), None);
        }
    }

    #[test]
    fn cliffs_on_hexes_are_the_shared_sides() {
        let mut grid = Grid::from_ascii(&["....", "....", "...."])
            .unwrap()
            .with_topology(Topology::Hex(crate::grid::HexLayout::EVEN_Q));
        let mut heights = vec![0.0_f32; 12];
        heights[5] = 5.0; // (1, 1) stands high above its six neighbours.
        grid.set_heights(Some(heights)).unwrap();
        let mut slope = grid.slope();
        slope.max_climb = Some(1.0);
        grid.set_slope(slope).unwrap();
        let canvas = canvas_on(&grid);
        let cliffs = canvas.cliffs(&grid);
        assert_eq!(cliffs.len(), 6, "the raised hex's six sides: {cliffs:?}");
        for (p, q) in cliffs {
            let length = (p - q).length();
            assert!((length - cliffs_side(&grid)).abs() < 1e-3, "{length}");
        }
    }

    /// The side of a hex of `grid`, in cell coordinates.
    fn cliffs_side(grid: &Grid) -> f32 {
        let c = grid.topology().corners(0, 0);
        ((c[0].0 - c[1].0).hypot(c[0].1 - c[1].1)) as f32
    }

    #[test]
    fn fitting_shows_the_whole_map_centred() {
        let grid = Grid::from_ascii(&["....", "...."]).unwrap();
        let canvas = canvas_on(&grid);
        let map = canvas.map_rect(&grid);
        assert!(canvas.rect().contains_rect(map));
        assert!((map.center() - canvas.rect().center()).length() < 0.01);
        assert!((canvas.zoom() - 96.0).abs() < 0.01, "400 / 4 × 0.96");
    }

    #[test]
    fn screen_and_cell_coordinates_are_inverse() {
        let grid = Grid::from_ascii(&["....", "...."]).unwrap();
        let mut canvas = canvas_on(&grid);
        canvas.zoom_to(10.0, Pos2::new(130.0, 70.0));
        let point = Pos2::new(1.25, 0.75);
        let back = canvas.cell_from_screen(canvas.screen_from_cell(point));
        assert!((back - point).length() < 1e-4);
        let centre = canvas.screen_from_cell_center(Cell::new(3, 1));
        assert_eq!(canvas.grid_cell_at(centre, &grid), Some(Cell::new(3, 1)));
        let outside = canvas.screen_from_cell(Pos2::new(-3.0, 9.0));
        assert_eq!(canvas.grid_cell_at(outside, &grid), None);
        assert_eq!(canvas.clamped_cell_at(outside, &grid), Cell::new(0, 1));
    }

    /// Screen points inside `cell`'s hex: its centre, and points a hair inside each corner
    /// and each edge's middle.
    fn inside_points(canvas: &Canvas, layout: crate::grid::HexLayout, cell: Cell) -> Vec<Pos2> {
        let (x, y) = (i64::from(cell.x), i64::from(cell.y));
        let (cx, cy) = layout.centre_of(x, y);
        let corners = layout.corners(x, y);
        let toward = |(px, py): (f64, f64), t: f64| {
            let world = Pos2::new((cx + (px - cx) * t) as f32, (cy + (py - cy) * t) as f32);
            canvas.screen_from_cell(world)
        };
        let mut points = vec![canvas.screen_from_cell_center(cell)];
        for k in 0..6 {
            let (a, b) = (corners[k], corners[(k + 1) % 6]);
            points.push(toward(a, 0.97));
            points.push(toward(((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0), 0.97));
        }
        points
    }

    #[test]
    fn a_hex_is_picked_at_its_centre_and_near_its_edges_in_every_layout() {
        for layout in crate::grid::HexLayout::ALL {
            let grid = Grid::from_ascii(&["......"; 5])
                .unwrap()
                .with_topology(Topology::Hex(layout));
            let mut canvas = canvas_on(&grid);
            canvas.zoom_to(37.0, Pos2::new(222.0, 111.0));
            for y in 0..5 {
                for x in 0..6 {
                    let cell = Cell::new(x, y);
                    for point in inside_points(&canvas, layout, cell) {
                        assert_eq!(
                            canvas.grid_cell_at(point, &grid),
                            Some(cell),
                            "{layout:?} {cell} at {point:?}"
                        );
                    }
                }
            }
            // The map's box holds every hex, and fitting shows it all, centred.
            canvas.fit(&grid);
            let map = canvas.map_rect(&grid);
            assert!(canvas.rect().contains_rect(map), "{layout:?}");
            for y in 0..5 {
                for x in 0..6 {
                    for point in inside_points(&canvas, layout, Cell::new(x, y)) {
                        assert!(map.expand(0.01).contains(point), "{layout:?} {x},{y}");
                    }
                }
            }
            let outside = canvas.screen_from_cell(Pos2::new(-3.0, 1.0));
            assert_eq!(canvas.grid_cell_at(outside, &grid), None);
            assert_eq!(canvas.clamped_cell_at(outside, &grid).x, 0);
        }
    }

    #[test]
    fn the_visible_hexes_cover_the_view() {
        let grid = Grid::new(400, 300, crate::grid::Terrain::default_catalog(), 0)
            .unwrap()
            .with_topology(Topology::Hex(crate::grid::HexLayout::EVEN_Q));
        let mut canvas = canvas_on(&grid);
        canvas.zoom_to(20.0, canvas.rect().center());
        let visible = canvas.visible_cells(&grid);
        assert!(
            visible.width() <= 28 && visible.height() <= 20,
            "{visible:?}"
        );
        let rect = canvas.rect();
        for i in 0..=20 {
            for j in 0..=20 {
                let t = Vec2::new(i as f32 / 20.0, j as f32 / 20.0);
                let point = rect.min + rect.size() * t;
                let cell = canvas.grid_cell_at(point, &grid).unwrap();
                assert!(
                    (visible.x0..visible.x1).contains(&cell.x)
                        && (visible.y0..visible.y1).contains(&cell.y),
                    "{cell} under {point:?} is outside {visible:?}"
                );
            }
        }
    }

    #[test]
    fn zooming_keeps_the_point_under_the_cursor() {
        let grid = Grid::from_ascii(&["....", "...."]).unwrap();
        let mut canvas = canvas_on(&grid);
        let cursor = Pos2::new(321.0, 123.0);
        let before = canvas.cell_from_screen(cursor);
        canvas.zoom_by(2.5, cursor);
        assert!((canvas.cell_from_screen(cursor) - before).length() < 1e-4);
        canvas.zoom_by(1e9, cursor);
        assert_eq!(canvas.zoom(), MAX_ZOOM);
    }

    #[test]
    fn only_visible_cells_are_in_view() {
        let grid = Grid::new(1000, 1000, crate::grid::Terrain::default_catalog(), 0).unwrap();
        let mut canvas = canvas_on(&grid);
        canvas.zoom_to(20.0, canvas.rect().center());
        let visible = canvas.visible_cells(&grid);
        assert!(
            visible.width() <= 21 && visible.height() <= 16,
            "{visible:?}"
        );
    }

    #[test]
    fn an_overview_block_shows_its_wall_else_its_costliest_terrain() {
        let mut rows = vec![".".repeat(64); 64];
        rows[10].replace_range(37..38, "#");
        rows[40].replace_range(5..6, "~");
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let grid = Grid::from_ascii(&rows).unwrap();
        let all = Region {
            x0: 0,
            y0: 0,
            x1: 16,
            y1: 16,
        };
        let image = overview_image(&grid, 4, all);
        assert_eq!(image.size, [16, 16]);
        let at = |x: usize, y: usize| image.pixels[y * 16 + x];
        assert_eq!(
            at(9, 2),
            color_of(grid.terrain(3).color),
            "the one-cell wall"
        );
        assert_eq!(
            at(1, 10),
            color_of(grid.terrain(2).color),
            "the swamp over grass"
        );
        assert_eq!(at(0, 0), color_of(grid.terrain(0).color));
    }

    #[test]
    fn the_overview_starts_where_a_cell_gets_smaller_than_a_pixel() {
        let grid = Grid::new(2048, 2048, crate::grid::Terrain::default_catalog(), 0).unwrap();
        let mut canvas = canvas_on(&grid);
        assert_eq!(
            canvas.overview_factor(1.0),
            8,
            "400 points for 2048 cells: 5.3 a pixel"
        );
        assert_eq!(canvas.overview_factor(2.0), 4, "twice the pixels");
        canvas.zoom_to(1.0, canvas.rect().center());
        assert_eq!(canvas.overview_factor(1.0), 1);
    }

    #[test]
    fn a_region_image_has_one_pixel_per_cell() {
        let grid = Grid::from_ascii(&[".#", "=~"]).unwrap();
        let image = image_of(
            &grid,
            Region {
                x0: 1,
                y0: 0,
                x1: 2,
                y1: 2,
            },
        );
        assert_eq!(image.size, [1, 2]);
        assert_eq!(image.pixels[0], color_of(grid.terrain(3).color));
        assert_eq!(image.pixels[1], color_of(grid.terrain(2).color));
    }
}
