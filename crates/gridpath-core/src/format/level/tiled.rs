//! The model of a Tiled map that both front ends (`tmx`, `tmj`) fill, and its conversion to a gridpath map: which layer decides a cell, which tile becomes
//! which terrain, which objects are walls and where the start and goal are.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use super::catalog::{self, TerrainSpec};
use super::hexagonal::HexPixels;
use super::{LevelError, LevelImport, LevelOptions, TerrainSource, TilePicture};
use crate::grid::{
    Cell, GeoReference, Grid, HexLayout, Map, Rgb, StaggerAxis, StaggerIndex, TerrainId, Topology,
};

/// The most tiles all layers of one file may hold together once decoded (256 Mi, 1 GiB of
/// ids): one layer of a 16384² map, or four of an 8192² one.
pub const MAX_TOTAL_TILES: usize = 1 << 28;

/// The most objects a map's object layers may hold in all.
pub const MAX_OBJECTS: usize = 1_000_000;

/// The most polygon points a map's objects may hold in all.
pub const MAX_POINTS: usize = 4_000_000;

/// The most row crossings (a polygon edge meeting the line through a row's cell centres) and
/// row spans the solid objects may make on the grid, which bounds the work and memory of
/// turning them into walls.
pub const MAX_CROSSINGS: usize = 1 << 24;

/// Deeper nesting of group layers than this is refused.
pub const MAX_GROUP_DEPTH: usize = 64;

/// A property value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `bool`.
    Bool(bool),
    /// `int` or `float`.
    Number(f64),
    /// Any other type, as text (`string`, `color`, `file`, …).
    Text(String),
}

/// Custom properties by name.
pub type Properties = BTreeMap<String, Value>;

/// A Tiled map, with group layers flattened and every tile layer decoded.
#[derive(Clone, Debug, Default)]
pub struct TiledMap {
    /// `orthogonal`, `isometric`, `staggered` or `hexagonal`.
    pub orientation: String,
    /// The declared width in tiles (finite maps).
    pub width: u64,
    /// The declared height in tiles (finite maps).
    pub height: u64,
    /// The width of a tile in pixels.
    pub tile_width: f64,
    /// The height of a tile in pixels.
    pub tile_height: f64,
    /// Whether the layers are stored in chunks.
    pub infinite: bool,
    /// Hexagonal maps: `staggeraxis` (`x` or `y`; Tiled's default `y`).
    pub stagger_axis: Option<String>,
    /// Hexagonal maps: `staggerindex` (`odd` or `even`; Tiled's default `odd`).
    pub stagger_index: Option<String>,
    /// Hexagonal maps: `hexsidelength` in pixels (0 when absent).
    pub hex_side_length: f64,
    /// The tilesets, by first global id.
    pub tilesets: Vec<Tileset>,
    /// The layers in drawing order (bottom first).
    pub layers: Vec<Layer>,
    /// The map's own properties.
    pub properties: Properties,
}

/// A tileset, embedded or read from its own file.
#[derive(Clone, Debug, Default)]
#[cfg_attr(
    not(feature = "images"),
    expect(
        dead_code,
        reason = "the image and its layout only colour terrains, with images"
    )
)]
pub struct Tileset {
    /// The global id of its first tile.
    pub first_gid: u32,
    /// Its name.
    pub name: String,
    /// The number of tiles.
    pub tile_count: u32,
    /// Tiles per row of the image.
    pub columns: u32,
    /// A tile's width in the image, in pixels.
    pub tile_width: u32,
    /// A tile's height in the image, in pixels.
    pub tile_height: u32,
    /// Pixels around the tiles in the image.
    pub margin: u32,
    /// Pixels between the tiles in the image.
    pub spacing: u32,
    /// The tileset's image, resolved beside the file that names it.
    pub image: Option<PathBuf>,
    /// The colour of the tileset's image that stands for transparent (`trans`,
    /// `transparentcolor`).
    pub trans: Option<Rgb>,
    /// The tileset's own properties.
    pub properties: Properties,
    /// The tiles that have a class, properties or an image of their own, by local id.
    pub tiles: BTreeMap<u32, TileInfo>,
}

/// What a tileset says about one tile.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TileInfo {
    /// Its class (`type` in older files).
    pub class: Option<String>,
    /// Its properties.
    pub properties: Properties,
    /// Its own image, in a collection of images, resolved beside the file that names it.
    pub image: Option<PathBuf>,
}

/// A layer: tiles or objects.
#[derive(Clone, Debug)]
pub struct Layer {
    /// Its name.
    pub name: String,
    /// Its class.
    pub class: Option<String>,
    /// Whether it and every group holding it are visible.
    pub visible: bool,
    /// What it holds.
    pub content: Content,
}

/// What a layer holds.
#[derive(Clone, Debug)]
pub enum Content {
    /// Tiles: one chunk at (0, 0) of the map's size for a finite map.
    Tiles(Vec<Chunk>),
    /// Objects.
    Objects(Vec<Object>),
}

/// A rectangle of tiles.
#[derive(Clone, Debug, PartialEq)]
pub struct Chunk {
    /// Its left column.
    pub x: i64,
    /// Its top row.
    pub y: i64,
    /// Its width.
    pub width: u32,
    /// Its height.
    pub height: u32,
    /// Global tile ids, row by row, flip bits cleared; 0 is empty.
    pub gids: Vec<u32>,
}

/// An object of an object layer, in pixels.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Object {
    /// Its name.
    pub name: String,
    /// Its class.
    pub class: Option<String>,
    /// Its left (its origin).
    pub x: f64,
    /// Its top (its origin).
    pub y: f64,
    /// Its width.
    pub width: f64,
    /// Its height.
    pub height: f64,
    /// Clockwise rotation about its origin, in degrees.
    pub rotation: f64,
    /// Its shape.
    pub shape: Shape,
    /// Its properties.
    pub properties: Properties,
}

/// The shape of an object.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Shape {
    /// A rectangle from (x, y), width × height.
    #[default]
    Rectangle,
    /// An ellipse in that rectangle.
    Ellipse,
    /// A point at (x, y).
    Point,
    /// A closed polygon, its points relative to (x, y).
    Polygon(Vec<(f64, f64)>),
    /// A tile object: Tiled draws its tile with the object's bottom-left corner at (x, y),
    /// so it covers y − height to y. Never a wall.
    Tile,
    /// A polyline or text object: never a wall.
    Other,
}

/// Whether a layer's or object group's name or class marks it as the collision layer.
pub fn is_collision_name(name: &str) -> bool {
    ["collision", "collisions", "walls"]
        .iter()
        .any(|n| name.eq_ignore_ascii_case(n))
}

/// Whether properties make a tile or object impassable: `walkable=false`, `collides=true` or
/// `solid=true`.
pub fn is_solid(properties: &Properties) -> bool {
    let flag = |name: &str| match properties.get(name) {
        Some(Value::Bool(b)) => Some(*b),
        Some(Value::Text(t)) => t.parse::<bool>().ok(),
        _ => None,
    };
    flag("walkable") == Some(false) || flag("collides") == Some(true) || flag("solid") == Some(true)
}

impl Layer {
    fn is_collision(&self) -> bool {
        is_collision_name(&self.name) || self.class.as_deref().is_some_and(is_collision_name)
    }
}

/// The rectangle of tiles the grid covers.
#[derive(Clone, Copy, Debug)]
struct Extent {
    x: i64,
    y: i64,
    width: u32,
    height: u32,
}

impl Extent {
    /// The index in the grid of the tile at (x, y), when inside.
    fn index(&self, x: i64, y: i64) -> Option<usize> {
        let (dx, dy) = (x - self.x, y - self.y);
        let inside =
            (0..i64::from(self.width)).contains(&dx) && (0..i64::from(self.height)).contains(&dy);
        inside.then(|| dy as usize * self.width as usize + dx as usize)
    }
}

/// Where a tile's terrain comes from: tiles of one class share a terrain.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Key {
    Class(String),
    Tile { tileset: usize, id: u32 },
}

impl TiledMap {
    /// The tileset holding a global id, and the tile's local id.
    fn tile(&self, gid: u32) -> Option<(usize, u32)> {
        let index = self.tilesets.iter().rposition(|t| t.first_gid <= gid)?;
        let set = &self.tilesets[index];
        let id = gid - set.first_gid;
        // Old files do not give the count: then every id past the first belongs.
        let known = set.tile_count == 0 || id < set.tile_count || set.tiles.contains_key(&id);
        known.then_some((index, id))
    }

    fn key(&self, tileset: usize, id: u32) -> Key {
        let info = self.tilesets[tileset].tiles.get(&id);
        match info.and_then(|i| i.class.clone()).filter(|c| !c.is_empty()) {
            Some(class) => Key::Class(class),
            None => Key::Tile { tileset, id },
        }
    }

    /// The grid's extent: the declared size of a finite map; in an infinite one the bounding
    /// box of the tiles present (of the chunks, when no chunk holds a tile). Tiled stores an
    /// infinite map in chunks of 16 × 16 tiles, so the chunks' empty padding lies outside.
    fn extent(&self) -> Result<Extent, LevelError> {
        if !self.infinite {
            check_size(self.width, self.height)?;
            return Ok(Extent {
                x: 0,
                y: 0,
                width: self.width as u32,
                height: self.height as u32,
            });
        }
        let chunks: Vec<&Chunk> = self.chunks().collect();
        // Rectangles [x0, x1) × [y0, y1): each non-empty tile, else each chunk.
        let mut tiles = chunks.iter().flat_map(|c| {
            c.gids
                .iter()
                .enumerate()
                .filter(|(_, g)| **g != 0)
                .map(|(i, _)| {
                    let x = c.x + (i % c.width as usize) as i64;
                    let y = c.y + (i / c.width as usize) as i64;
                    (x, y, x + 1, y + 1)
                })
        });
        let first = tiles.next();
        let rectangles: Box<dyn Iterator<Item = (i64, i64, i64, i64)>> = match first {
            Some(tile) => Box::new(std::iter::once(tile).chain(tiles)),
            None => Box::new(chunks.iter().map(|c| {
                (
                    c.x,
                    c.y,
                    c.x + i64::from(c.width),
                    c.y + i64::from(c.height),
                )
            })),
        };
        let bounds = rectangles.fold(None, |acc: Option<(i64, i64, i64, i64)>, r| {
            Some(match acc {
                None => r,
                Some(a) => (a.0.min(r.0), a.1.min(r.1), a.2.max(r.2), a.3.max(r.3)),
            })
        });
        let Some((x0, y0, x1, y1)) = bounds else {
            return Err(LevelError::Empty(
                "the infinite map has no chunks of tiles".to_owned(),
            ));
        };
        let (width, height) = ((x1 - x0) as u64, (y1 - y0) as u64);
        check_size(width, height)?;
        Ok(Extent {
            x: x0,
            y: y0,
            width: width as u32,
            height: height as u32,
        })
    }

    /// The chunks of every tile layer.
    fn chunks(&self) -> impl Iterator<Item = &Chunk> {
        self.layers
            .iter()
            .filter_map(|l| match &l.content {
                Content::Tiles(chunks) => Some(chunks),
                Content::Objects(_) => None,
            })
            .flatten()
    }

    /// For an infinite map, which cells of the extent lie in no chunk of any tile layer:
    /// outside the map, never floor. `None` for a finite map.
    fn outside(&self, extent: Extent) -> Option<Vec<bool>> {
        if !self.infinite {
            return None;
        }
        let mut outside = vec![true; extent.width as usize * extent.height as usize];
        for chunk in self.chunks() {
            let x0 = chunk.x.max(extent.x);
            let x1 = (chunk.x + i64::from(chunk.width)).min(extent.x + i64::from(extent.width));
            for y in chunk.y.max(extent.y)
                ..(chunk.y + i64::from(chunk.height)).min(extent.y + i64::from(extent.height))
            {
                for x in x0..x1 {
                    if let Some(at) = extent.index(x, y) {
                        outside[at] = false;
                    }
                }
            }
        }
        outside.iter().any(|&o| o).then_some(outside)
    }

    /// Paints a layer's non-empty tiles over `cells`; checks each id belongs to a tileset.
    fn paint(&self, layer: &Layer, extent: Extent, cells: &mut [u32]) -> Result<(), LevelError> {
        let Content::Tiles(chunks) = &layer.content else {
            return Ok(());
        };
        for chunk in chunks {
            for (i, &gid) in chunk.gids.iter().enumerate() {
                if gid == 0 {
                    continue;
                }
                if self.tile(gid).is_none() {
                    return Err(LevelError::UnknownTile {
                        layer: layer.name.clone(),
                        gid,
                    });
                }
                let x = chunk.x + (i % chunk.width as usize) as i64;
                let y = chunk.y + (i / chunk.width as usize) as i64;
                if let Some(at) = extent.index(x, y) {
                    cells[at] = gid;
                }
            }
        }
        Ok(())
    }

    /// The terrain a key stands for.
    fn spec(
        &self,
        key: &Key,
        tileset: usize,
        id: u32,
        colors: &mut TileColors,
    ) -> Result<TerrainSpec, LevelError> {
        let set = &self.tilesets[tileset];
        let info = set.tiles.get(&id).cloned().unwrap_or_default();
        let fail = |message: String| LevelError::Tile {
            tileset: set.name.clone(),
            id,
            message,
        };
        let props = &info.properties;
        let text = |name: &str| match props.get(name) {
            Some(Value::Text(t)) => Some(t.clone()),
            _ => None,
        };
        let (default_name, source) = match key {
            Key::Class(class) => (class.clone(), TerrainSource::Class(class.clone())),
            Key::Tile { .. } => (
                format!("{}:{id}", set.name),
                TerrainSource::Tile {
                    tileset: set.name.clone(),
                    id,
                },
            ),
        };
        let cost = if is_solid(props) {
            None
        } else {
            match props.get("cost") {
                None => Some(1.0),
                Some(Value::Number(c)) => {
                    crate::grid::Terrain::check_cost(*c).map_err(fail)?;
                    Some(*c)
                }
                Some(other) => {
                    return Err(fail(format!(
                        "property \"cost\" is {other:?}, not a number"
                    )));
                }
            }
        };
        let color = match text("color") {
            Some(c) => Some(
                catalog::parse_color(&c)
                    .ok_or_else(|| fail(format!("property \"color\" {c:?} is not a colour")))?,
            ),
            None => colors.mean(set, id),
        };
        let symbol = text("symbol").and_then(|s| {
            let mut chars = s.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Some(c),
                _ => None,
            }
        });
        Ok(TerrainSpec {
            name: text("name").unwrap_or(default_name),
            cost,
            color,
            symbol,
            source,
        })
    }

    /// Converts the map by the conventions of `docs/levels.md`: the layer asked for, or the
    /// topmost visible tile with the collision layer over it; solid objects as walls; start and
    /// goal from objects of those names.
    pub fn to_import(&self, name: &str, options: &LevelOptions) -> Result<LevelImport, LevelError> {
        let positive = |v: f64| v > 0.0 && v.is_finite();
        let layout = match self.orientation.as_str() {
            "orthogonal" => None,
            "hexagonal" => Some(self.hex_layout()?),
            _ => return Err(LevelError::NotOrthogonal(self.orientation.clone())),
        };
        if !(positive(self.tile_width) && positive(self.tile_height)) {
            return Err(LevelError::Field {
                place: "map".to_owned(),
                message: "the tile width and height must be positive".to_owned(),
            });
        }
        let tile_layers: Vec<&Layer> = self
            .layers
            .iter()
            .filter(|l| matches!(l.content, Content::Tiles(_)))
            .collect();
        let layer_names: Vec<String> = tile_layers.iter().map(|l| l.name.clone()).collect();
        let extent = self.extent()?;
        let count = extent.width as usize * extent.height as usize;
        let mut cells = vec![0_u32; count];
        let mut walls = vec![false; count];
        let mut wall_from = None;
        let chosen = match &options.layer {
            Some(wanted) => {
                let layer = tile_layers
                    .iter()
                    .find(|l| &l.name == wanted)
                    .or_else(|| {
                        tile_layers
                            .iter()
                            .find(|l| l.name.eq_ignore_ascii_case(wanted))
                    })
                    .ok_or_else(|| LevelError::NoSuchLayer {
                        wanted: wanted.clone(),
                        available: layer_names.clone(),
                    })?;
                self.paint(layer, extent, &mut cells)?;
                Some(layer.name.clone())
            }
            None => {
                let collision = tile_layers.iter().find(|l| l.is_collision());
                for layer in tile_layers
                    .iter()
                    .filter(|l| l.visible && !l.is_collision())
                {
                    self.paint(layer, extent, &mut cells)?;
                }
                if let Some(layer) = collision {
                    let mut solid = vec![0_u32; count];
                    self.paint(layer, extent, &mut solid)?;
                    for (wall, gid) in walls.iter_mut().zip(solid) {
                        *wall |= gid != 0;
                    }
                    wall_from = Some(format!("layer {:?}", layer.name));
                }
                collision.map(|l| l.name.clone())
            }
        };
        let solid_objects = match layout {
            None => self.rasterise_objects(extent, &mut walls)?,
            Some(_) if self.has_solid_objects() => {
                return Err(LevelError::Field {
                    place: "map".to_owned(),
                    message: "solid objects on a hexagonal map are not read: draw the walls in a collision tile layer".to_owned(),
                });
            }
            Some(_) => false,
        };
        if wall_from.is_none() && solid_objects {
            wall_from = Some("solid objects".to_owned());
        }
        if !walls.iter().any(|&w| w) {
            wall_from = None;
        }

        // The terrains: the floor when a cell is empty, every tile of a tileset marked
        // `gridpath-terrains` (in the order of its ids), then one per key in the order the
        // cells first use it, then the wall.
        let outside = self.outside(extent);
        let is_outside = |i: usize| outside.as_ref().is_some_and(|o| o[i]);
        let mut specs = Vec::new();
        if cells
            .iter()
            .zip(&walls)
            .enumerate()
            .any(|(i, (&gid, &wall))| gid == 0 && !wall && !is_outside(i))
        {
            specs.push(TerrainSpec::floor());
        }
        let mut found = Terrains::default();
        for set in &self.tilesets {
            if matches!(
                set.properties.get("gridpath-terrains"),
                Some(Value::Bool(true))
            ) {
                for &id in set.tiles.keys() {
                    found.add(self, set.first_gid.saturating_add(id), &mut specs)?;
                }
            }
        }
        for (&gid, &wall) in cells.iter().zip(&walls) {
            if gid != 0 && !wall {
                found.add(self, gid, &mut specs)?;
            }
        }
        let wall_id = match wall_from {
            Some(from) => {
                specs.push(TerrainSpec::wall(from));
                Some(specs.len() - 1)
            }
            None => None,
        };
        let outside_id = outside.as_ref().map(|_| {
            specs.push(TerrainSpec::outside());
            specs.len() - 1
        });
        let (terrains, sources) = catalog::terrains(specs)?;
        let ids: Vec<TerrainId> = cells
            .iter()
            .zip(&walls)
            .enumerate()
            .map(|(i, (gid, &wall))| match (wall, wall_id, outside_id) {
                (_, _, Some(o)) if is_outside(i) => o as TerrainId,
                (true, Some(w), _) => w as TerrainId,
                _ => found.of_gid.get(gid).copied().unwrap_or(0),
            })
            .collect();
        let mut grid = Grid::from_cells(extent.width, extent.height, terrains, ids)
            .map_err(|e| LevelError::Empty(e.to_string()))?;
        if let Some(layout) = layout {
            grid.set_topology(Topology::Hex(shifted(layout, extent)));
        }
        let mut map = Map::new(name, grid);
        map.start = self.marker("start", extent, layout);
        map.goal = self.marker("goal", extent, layout);
        map.metadata = self.world_frame()?;
        let pictures = sources
            .iter()
            .map(|source| match source {
                TerrainSource::Tile { tileset, id } => {
                    let set = self.tilesets.iter().find(|s| s.name == *tileset)?;
                    found.colors.picture(set, *id)
                }
                _ => None,
            })
            .collect();
        Ok(LevelImport {
            map,
            levels: Vec::new(),
            level: None,
            layers: layer_names,
            layer: chosen,
            sources,
            pictures,
        })
    }

    /// The world frame of the map's properties `resolution` (metres per cell), `origin_x`,
    /// `origin_y` and `origin_yaw` (0 when absent), as gridpath's export writes them.
    fn world_frame(&self) -> Result<Option<GeoReference>, LevelError> {
        let number = |name: &str| match self.properties.get(name) {
            None => Ok(None),
            Some(Value::Number(v)) => Ok(Some(*v)),
            Some(other) => Err(LevelError::Field {
                place: "map".to_owned(),
                message: format!("property {name:?} is {other:?}, not a number"),
            }),
        };
        let Some(resolution) = number("resolution")? else {
            return Ok(None);
        };
        let geo = GeoReference {
            resolution,
            origin: [
                number("origin_x")?.unwrap_or(0.0),
                number("origin_y")?.unwrap_or(0.0),
                number("origin_yaw")?.unwrap_or(0.0),
            ],
        };
        geo.validate().map_err(|message| LevelError::Field {
            place: "map properties".to_owned(),
            message,
        })?;
        Ok(Some(geo))
    }

    /// Marks as walls the cells whose centre lies in a solid object (or in any object of an
    /// object layer named like a collision layer); whether there was any such object.
    ///
    /// Each shape gives the spans of cells it covers on each row of the grid (a polygon by a
    /// scanline over its edges, each edge visiting only the rows it crosses; an ellipse by
    /// solving its equation per row); the spans of every object are merged row by row before
    /// a cell is written. The work is the crossings plus the map's cells, however many large
    /// objects overlap, and it is bounded by [`MAX_CROSSINGS`].
    fn rasterise_objects(&self, extent: Extent, walls: &mut [bool]) -> Result<bool, LevelError> {
        let mut spans = RowSpans::new(extent);
        let mut any = false;
        for layer in &self.layers {
            let Content::Objects(objects) = &layer.content else {
                continue;
            };
            let all = layer.is_collision();
            for object in objects.iter().filter(|o| all || is_solid(&o.properties)) {
                any |= self.rasterise(object, &mut spans)?;
            }
        }
        spans.fill(walls);
        Ok(any)
    }

    fn rasterise(&self, object: &Object, spans: &mut RowSpans) -> Result<bool, LevelError> {
        let (tw, th) = (self.tile_width, self.tile_height);
        let polygon: Vec<(f64, f64)> = match &object.shape {
            Shape::Rectangle | Shape::Ellipse => vec![
                (0.0, 0.0),
                (object.width, 0.0),
                (object.width, object.height),
                (0.0, object.height),
            ],
            Shape::Polygon(points) if points.len() >= 3 => points.clone(),
            _ => return Ok(false),
        };
        let (sin, cos) = object.rotation.to_radians().sin_cos();
        let world: Vec<(f64, f64)> = polygon
            .iter()
            .map(|&(px, py)| {
                (
                    object.x + px * cos - py * sin,
                    object.y + px * sin + py * cos,
                )
            })
            .collect();
        if world.iter().any(|p| !(p.0.is_finite() && p.1.is_finite())) {
            return Ok(false);
        }
        if let Shape::Ellipse = object.shape {
            let min_y = world.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
            let max_y = world.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
            let (rx, ry) = (object.width / 2.0, object.height / 2.0);
            if !(rx > 0.0 && ry > 0.0) {
                return Ok(true);
            }
            for ty in spans.rows_between(min_y / th - 0.5, max_y / th - 0.5) {
                spans.charge(1)?;
                let cy = (ty as f64 + 0.5) * th;
                // The centres (cx, cy) with u² + v² ≤ 1, where (u, v) is the centre in the
                // ellipse's own frame (unrotated about the object's origin, scaled to the unit
                // circle): a quadratic in dx = cx − x.
                let dy = cy - object.y;
                let (a1, b1) = (cos / rx, (dy * sin - rx) / rx);
                let (a2, b2) = (-sin / ry, (dy * cos - ry) / ry);
                let a = a1 * a1 + a2 * a2;
                let b = 2.0 * (a1 * b1 + a2 * b2);
                let c = b1 * b1 + b2 * b2 - 1.0;
                let discriminant = b * b - 4.0 * a * c;
                if discriminant < 0.0 {
                    continue;
                }
                let root = discriminant.sqrt();
                let (lo, hi) = ((-b - root) / (2.0 * a), (-b + root) / (2.0 * a));
                // Centres (tx + 0.5) · tw in [x + lo, x + hi].
                let from = ((object.x + lo) / tw - 0.5).ceil();
                let to = ((object.x + hi) / tw - 0.5).floor() + 1.0;
                spans.add(ty, from, to)?;
            }
            return Ok(true);
        }
        // One scanline through each row's centres: the cells between pairs of crossings
        // (even-odd rule). An edge holds its lower end and not its upper one, so a vertex on a
        // row's line counts once.
        let mut crossings: Vec<(i64, f64)> = Vec::new();
        let mut j = world.len() - 1;
        for (i, &(xi, yi)) in world.iter().enumerate() {
            let (xj, yj) = world[j];
            j = i;
            // Rows whose centre cy satisfies min(yi, yj) ≤ cy < max(yi, yj).
            let (low, high) = (yi.min(yj), yi.max(yj));
            for ty in spans.rows_from(low / th - 0.5, high / th - 0.5) {
                let cy = (ty as f64 + 0.5) * th;
                spans.charge(1)?;
                crossings.push((ty, xi + (cy - yi) * (xj - xi) / (yj - yi)));
            }
        }
        crossings.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        for row in crossings.chunk_by(|a, b| a.0 == b.0) {
            for pair in row.chunks_exact(2) {
                // Centres (tx + 0.5) · tw in [pair[0], pair[1]).
                let from = (pair[0].1 / tw - 0.5).ceil();
                let to = (pair[1].1 / tw - 0.5).ceil();
                spans.add(pair[0].0, from, to)?;
            }
        }
        Ok(true)
    }

    /// The stagger axis and index of a hexagonal map, checking `hexsidelength` too.
    fn hex_layout(&self) -> Result<HexLayout, LevelError> {
        let bad = |message: String| LevelError::Field {
            place: "map".to_owned(),
            message,
        };
        let axis = match self.stagger_axis.as_deref() {
            Some("y") | None => StaggerAxis::Y,
            Some("x") => StaggerAxis::X,
            Some(other) => return Err(bad(format!("staggeraxis is {other:?}, not x or y"))),
        };
        let index = match self.stagger_index.as_deref() {
            Some("odd") | None => StaggerIndex::Odd,
            Some("even") => StaggerIndex::Even,
            Some(other) => return Err(bad(format!("staggerindex is {other:?}, not odd or even"))),
        };
        let side = self.hex_side_length;
        let along = match axis {
            StaggerAxis::Y => self.tile_height,
            StaggerAxis::X => self.tile_width,
        };
        if !(side.is_finite() && side >= 0.0 && side <= along) {
            return Err(bad(format!(
                "hexsidelength is {side}; it must lie between 0 and the tile's {along} pixels"
            )));
        }
        Ok(HexLayout::new(axis, index))
    }

    /// Whether some object would be a wall (solid, or in a collision object layer).
    fn has_solid_objects(&self) -> bool {
        self.layers.iter().any(|layer| match &layer.content {
            Content::Objects(objects) => {
                layer.is_collision() || objects.iter().any(|o| is_solid(&o.properties))
            }
            Content::Tiles(_) => false,
        })
    }

    /// The cell of the first object named or classed `which` (start or goal), when inside the
    /// grid: a point's position, another shape's centre; on a hex map the hex whose centre is
    /// nearest.
    fn marker(&self, which: &str, extent: Extent, layout: Option<HexLayout>) -> Option<Cell> {
        let object = self.layers.iter().find_map(|l| match &l.content {
            Content::Objects(objects) => objects.iter().find(|o| {
                o.name.eq_ignore_ascii_case(which)
                    || o.class
                        .as_deref()
                        .is_some_and(|c| c.eq_ignore_ascii_case(which))
            }),
            Content::Tiles(_) => None,
        })?;
        let (px, py) = match object.shape {
            Shape::Point => (object.x, object.y),
            Shape::Tile => {
                // An object without a size takes its tile's, which is the map's here.
                let or_tile = |size: f64, tile: f64| if size > 0.0 { size } else { tile };
                (
                    object.x + or_tile(object.width, self.tile_width) / 2.0,
                    object.y - or_tile(object.height, self.tile_height) / 2.0,
                )
            }
            _ => (
                object.x + object.width / 2.0,
                object.y + object.height / 2.0,
            ),
        };
        let (tx, ty) = match layout {
            None => (
                (px / self.tile_width).floor(),
                (py / self.tile_height).floor(),
            ),
            Some(layout) => {
                let pixels = HexPixels {
                    layout,
                    tile_width: self.tile_width,
                    tile_height: self.tile_height,
                    side: self.hex_side_length,
                };
                let (x, y) = pixels.hex_at(px, py)?;
                (x as f64, y as f64)
            }
        };
        if !(tx.is_finite() && ty.is_finite()) {
            return None;
        }
        let (x, y) = (tx as i64 - extent.x, ty as i64 - extent.y);
        let inside =
            (0..i64::from(extent.width)).contains(&x) && (0..i64::from(extent.height)).contains(&y);
        inside.then(|| Cell::new(x as u32, y as u32))
    }
}

/// The layout of the grid cut from a hex map at `extent`: cutting from an odd row (or
/// column) along the stagger axis swaps which lines are staggered.
fn shifted(layout: HexLayout, extent: Extent) -> HexLayout {
    let first = match layout.axis {
        StaggerAxis::Y => extent.y,
        StaggerAxis::X => extent.x,
    };
    if first.rem_euclid(2) == 0 {
        return layout;
    }
    let index = match layout.index {
        StaggerIndex::Odd => StaggerIndex::Even,
        StaggerIndex::Even => StaggerIndex::Odd,
    };
    HexLayout::new(layout.axis, index)
}

/// The terrain of each global id met so far, tiles of one key sharing one.
#[derive(Default)]
struct Terrains {
    of_gid: HashMap<u32, TerrainId>,
    of_key: HashMap<Key, TerrainId>,
    colors: TileColors,
}

impl Terrains {
    /// Gives `gid` its terrain, adding one to `specs` for a key not met before.
    fn add(
        &mut self,
        map: &TiledMap,
        gid: u32,
        specs: &mut Vec<TerrainSpec>,
    ) -> Result<(), LevelError> {
        if self.of_gid.contains_key(&gid) {
            return Ok(());
        }
        let Some((tileset, id)) = map.tile(gid) else {
            return Ok(());
        };
        let key = map.key(tileset, id);
        let terrain = match self.of_key.get(&key) {
            Some(&t) => t,
            None => {
                if specs.len() >= catalog::MAX_TERRAINS {
                    return Err(LevelError::TooManyTerrains(specs.len() + 1));
                }
                specs.push(map.spec(&key, tileset, id, &mut self.colors)?);
                let t = (specs.len() - 1) as TerrainId;
                self.of_key.insert(key, t);
                t
            }
        };
        self.of_gid.insert(gid, terrain);
        Ok(())
    }
}

/// The spans of object cells on each row of the grid, merged and written once all objects
/// are known.
struct RowSpans {
    extent: Extent,
    /// Per row of the grid, spans of columns relative to the extent, end exclusive.
    rows: Vec<Vec<(u32, u32)>>,
    /// Crossings and spans made so far, against [`MAX_CROSSINGS`].
    work: usize,
}

impl RowSpans {
    fn new(extent: Extent) -> Self {
        Self {
            extent,
            rows: vec![Vec::new(); extent.height as usize],
            work: 0,
        }
    }

    /// Counts `n` more crossings or spans against [`MAX_CROSSINGS`].
    fn charge(&mut self, n: usize) -> Result<(), LevelError> {
        self.work += n;
        if self.work > MAX_CROSSINGS {
            return Err(LevelError::Field {
                place: "objects".to_owned(),
                message: format!(
                    "the solid objects cross the grid's rows more than {MAX_CROSSINGS} times \
                     (too many or too detailed shapes)"
                ),
            });
        }
        Ok(())
    }

    /// The grid's rows (in map tiles) from `ceil(low)` up to `ceil(high)`, excluded.
    fn rows_from(&self, low: f64, high: f64) -> std::ops::Range<i64> {
        let (top, bottom) = (self.extent.y, self.extent.y + i64::from(self.extent.height));
        let clamp = |v: f64| (v.ceil().clamp(top as f64, bottom as f64)) as i64;
        clamp(low)..clamp(high)
    }

    /// The grid's rows (in map tiles) from `ceil(low)` to `floor(high)`, both included.
    fn rows_between(&self, low: f64, high: f64) -> std::ops::Range<i64> {
        let (top, bottom) = (self.extent.y, self.extent.y + i64::from(self.extent.height));
        let clamp = |v: f64| (v.clamp(top as f64, bottom as f64)) as i64;
        clamp(low.ceil())..clamp(high.floor() + 1.0)
    }

    /// The columns (in map tiles) from `from` up to `to`, excluded, on row `ty`, where they
    /// fall on the grid.
    fn add(&mut self, ty: i64, from: f64, to: f64) -> Result<(), LevelError> {
        let (left, right) = (self.extent.x, self.extent.x + i64::from(self.extent.width));
        let clamp = |v: f64| (v.clamp(left as f64, right as f64)) as i64 - left;
        let (from, to) = (clamp(from), clamp(to));
        let row = ty - self.extent.y;
        if from >= to || !(0..i64::from(self.extent.height)).contains(&row) {
            return Ok(());
        }
        self.charge(1)?;
        self.rows[row as usize].push((from as u32, to as u32));
        Ok(())
    }

    /// Sets every cell of every span.
    fn fill(mut self, walls: &mut [bool]) {
        let width = self.extent.width as usize;
        for (y, spans) in self.rows.iter_mut().enumerate() {
            spans.sort_unstable();
            let row = &mut walls[y * width..(y + 1) * width];
            // Merged, so a cell covered by many objects is written once.
            let mut filled = 0;
            for &(from, to) in spans.iter() {
                let from = (from as usize).max(filled);
                let to = to as usize;
                if from < to {
                    row[from..to].fill(true);
                    filled = to;
                }
            }
        }
    }
}

/// Checks a size in tiles against the grid's limits.
pub fn check_size(width: u64, height: u64) -> Result<(), LevelError> {
    let max = u64::from(Grid::MAX_SIDE);
    if width == 0 || height == 0 || width > max || height > max {
        return Err(LevelError::Field {
            place: "map".to_owned(),
            message: format!(
                "it is {width} × {height} tiles; each side must be between 1 and {max}"
            ),
        });
    }
    Ok(())
}

/// A region's top-left pixel.
#[cfg(feature = "images")]
type Corner = (u32, u32);

/// A region's width and height.
#[cfg(feature = "images")]
type Size = (u32, u32);

/// The mean colours and pictures of tiles, from their tilesets' images, each image decoded
/// once.
#[derive(Default)]
struct TileColors {
    #[cfg(feature = "images")]
    images: HashMap<PathBuf, Option<image::RgbaImage>>,
}

impl TileColors {
    /// The mean colour of the opaque pixels of a tile's image, as Tiled draws it: its own
    /// image in a collection of images, else its region of the tileset's image (the columns
    /// counted from the image's width when the file gives none, as Tiled counts them), without
    /// pixels of the tileset's transparent colour; `None` when no image can be read.
    #[cfg(feature = "images")]
    fn mean(&mut self, set: &Tileset, id: u32) -> Option<Rgb> {
        let (image, origin, size) = self.region(set, id)?;
        mean_of(image, origin, size, set.trans)
    }

    /// The tile's picture as Tiled draws it (the tileset's transparent colour clear), for
    /// showing the user which tile a terrain is; `None` when no image can be read or the tile
    /// is larger than [`TilePicture::MAX_SIDE`] a side.
    #[cfg(feature = "images")]
    fn picture(&mut self, set: &Tileset, id: u32) -> Option<TilePicture> {
        let (image, (left, top), (width, height)) = self.region(set, id)?;
        let right = left.saturating_add(width).min(image.width());
        let bottom = top.saturating_add(height).min(image.height());
        let (width, height) = (right.checked_sub(left)?, bottom.checked_sub(top)?);
        if width == 0 || height == 0 || width.max(height) > TilePicture::MAX_SIDE {
            return None;
        }
        let mut rgba = Vec::with_capacity((width * height * 4) as usize);
        for y in top..bottom {
            for x in left..right {
                let mut p = image.get_pixel(x, y).0;
                if set.trans.is_some_and(|t| t.0 == [p[0], p[1], p[2]]) {
                    p[3] = 0;
                }
                rgba.extend_from_slice(&p);
            }
        }
        Some(TilePicture {
            width,
            height,
            rgba,
        })
    }

    /// A tile's image and its region in it: its own image whole in a collection of images,
    /// else its place in the tileset's image.
    #[cfg(feature = "images")]
    fn region(&mut self, set: &Tileset, id: u32) -> Option<(&image::RgbaImage, Corner, Size)> {
        if let Some(own) = set.tiles.get(&id).and_then(|t| t.image.as_ref()) {
            let image = self.image(own)?;
            let (w, h) = (image.width(), image.height());
            return Some((image, (0, 0), (w, h)));
        }
        let path = set.image.as_ref()?;
        let image = self.image(path)?;
        if set.tile_width == 0 || set.tile_height == 0 {
            return None;
        }
        let columns = if set.columns > 0 {
            set.columns
        } else {
            columns_for_width(image.width(), set)
        };
        if columns == 0 {
            return None;
        }
        let left = u64::from(set.margin)
            + u64::from(id % columns) * u64::from(set.tile_width + set.spacing);
        let top = u64::from(set.margin)
            + u64::from(id / columns) * u64::from(set.tile_height + set.spacing);
        let (Ok(left), Ok(top)) = (u32::try_from(left), u32::try_from(top)) else {
            return None;
        };
        Some((image, (left, top), (set.tile_width, set.tile_height)))
    }

    /// An image, decoded once.
    #[cfg(feature = "images")]
    fn image(&mut self, path: &std::path::Path) -> Option<&image::RgbaImage> {
        self.images
            .entry(path.to_path_buf())
            .or_insert_with(|| {
                let bytes =
                    crate::format::read::read_file(path, crate::format::read::FileLimit::IMAGE)
                        .ok()?;
                let mut reader = image::ImageReader::new(std::io::Cursor::new(bytes))
                    .with_guessed_format()
                    .ok()?;
                let mut limits = image::Limits::default();
                limits.max_alloc = Some(256 << 20);
                reader.limits(limits);
                reader.decode().ok().map(|i| i.to_rgba8())
            })
            .as_ref()
    }

    #[cfg(not(feature = "images"))]
    fn mean(&mut self, _set: &Tileset, _id: u32) -> Option<Rgb> {
        None
    }

    #[cfg(not(feature = "images"))]
    fn picture(&mut self, _set: &Tileset, _id: u32) -> Option<TilePicture> {
        None
    }
}

/// The objects and polygon points read so far from one file, against [`MAX_OBJECTS`] and
/// [`MAX_POINTS`].
#[derive(Debug, Default)]
pub struct ObjectBudget {
    objects: usize,
    points: usize,
}

impl ObjectBudget {
    /// Counts one more object of `points` polygon points, read at `place`.
    pub fn take(&mut self, place: &str, points: usize) -> Result<(), LevelError> {
        self.objects += 1;
        self.points += points;
        let message = if self.objects > MAX_OBJECTS {
            format!("the map holds more than {MAX_OBJECTS} objects")
        } else if self.points > MAX_POINTS {
            format!("the map's polygons hold more than {MAX_POINTS} points in all")
        } else {
            return Ok(());
        };
        Err(LevelError::Field {
            place: place.to_owned(),
            message,
        })
    }
}

/// The number of tile columns in a tileset image `width` pixels wide, as Tiled counts them
/// (`Tileset::columnCountForWidth`): (width − margin + spacing) / (tile width + spacing).
#[cfg(feature = "images")]
pub fn columns_for_width(width: u32, set: &Tileset) -> u32 {
    let step = set.tile_width.saturating_add(set.spacing);
    if step == 0 {
        return 0;
    }
    (width.saturating_sub(set.margin).saturating_add(set.spacing)) / step
}

/// The mean colour of the pixels of a rectangle of an image that are opaque (alpha 128 or
/// more) and not of the transparent colour.
#[cfg(feature = "images")]
fn mean_of(
    image: &image::RgbaImage,
    (left, top): (u32, u32),
    (width, height): (u32, u32),
    trans: Option<Rgb>,
) -> Option<Rgb> {
    let (mut sum, mut n) = ([0_u64; 3], 0_u64);
    let right = left.saturating_add(width).min(image.width());
    let bottom = top.saturating_add(height).min(image.height());
    for y in top..bottom {
        for x in left..right {
            let p = image.get_pixel(x, y).0;
            if p[3] < 128 || trans.is_some_and(|t| t.0 == [p[0], p[1], p[2]]) {
                continue;
            }
            for c in 0..3 {
                sum[c] += u64::from(p[c]);
            }
            n += 1;
        }
    }
    (n > 0).then(|| Rgb(sum.map(|s| (s / n) as u8)))
}

/// The tiles decoded so far from one file, against [`MAX_TOTAL_TILES`].
#[derive(Debug, Default)]
pub struct TileBudget {
    used: usize,
}

impl TileBudget {
    /// Takes `width × height` tiles of a layer or chunk from the budget, after checking each
    /// side against [`Grid::MAX_SIDE`]; the count.
    pub fn take(
        &mut self,
        layer: &str,
        chunk: Option<(i64, i64)>,
        width: u64,
        height: u64,
    ) -> Result<usize, LevelError> {
        let fail = |message: String| LevelError::LayerData {
            layer: layer.to_owned(),
            chunk,
            message,
        };
        let max = u64::from(Grid::MAX_SIDE);
        if width > max || height > max {
            return Err(fail(format!(
                "it is {width} × {height} tiles; each side must be at most {max}"
            )));
        }
        let count = (width * height) as usize;
        self.used += count;
        if self.used > MAX_TOTAL_TILES {
            return Err(fail(format!(
                "the layers hold more than {MAX_TOTAL_TILES} tiles in all"
            )));
        }
        Ok(count)
    }
}

#[cfg(test)]
#[path = "tiled_tests.rs"]
mod tests;
