//! A gridpath map written as a Tiled map (`.tmj` or `.tmx`): one CSV tile layer, an embedded
//! tileset of one tile per terrain, the start and goal as point objects, and the world frame
//! (`metadata`) as the map's properties `resolution`, `origin_x`, `origin_y`, `origin_yaw`.
//!
//! The tileset, named and marked `gridpath-terrains`, has an image beside the map
//! ([`image_name_for`]: `level.tmx` → `level-terrains.png`), one solid tile of each terrain's
//! colour, up to 16 a row ([`tileset_png`]), so that Tiled, `tmxrasterizer` and other readers
//! draw the terrains in their colours. Each tile carries the terrain's `name`, `symbol`,
//! `color` (a Tiled colour) and either its `cost` or `walkable=false`. Reading the file back
//! gives the same grid, markers and world frame: every tile of a tileset marked
//! `gridpath-terrains` becomes a terrain, in order, even when no cell uses it.
//! `format::save::save_map` writes the image and the map atomically, choosing by the
//! extension.
//!
//! ```
//! use gridpath_core::format::{load_map, save};
//! use gridpath_core::grid::{Cell, Grid, Map};
//!
//! let dir = tempfile::tempdir().expect("a temporary folder");
//! let mut map = Map::new("yard", Grid::from_ascii(&[".#", "=~"]).expect("a valid map"));
//! map.start = Some(Cell::new(0, 0));
//! for name in ["yard.tmj", "yard.tmx"] {
//!     let path = dir.path().join(name);
//!     save::save_map(&map, &path).expect("saves");
//!     let back = load_map(&path).expect("loads");
//!     assert_eq!((back.grid, back.start, back.goal), (map.grid.clone(), map.start, map.goal));
//! }
//! assert!(dir.path().join("yard-terrains.png").is_file());
//! ```

use std::fmt::Write as _;
use std::path::Path;

use super::hexagonal::HexPixels;
use crate::grid::{Grid, HexLayout, Map, StaggerAxis, StaggerIndex, Terrain};

/// The most tiles in one row of the written tileset image.
pub const TILESET_COLUMNS: u32 = 16;

/// The name of the tileset image written beside a Tiled map at `map`:
/// `level.tmx` → `level-terrains.png`.
pub fn image_name_for(map: &Path) -> String {
    let stem = map
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!("{stem}-terrains.png")
}

/// The columns and rows of tiles in the tileset image of a grid's terrains.
pub fn tileset_layout(grid: &Grid) -> (u32, u32) {
    let count = grid.terrains().len().max(1) as u32;
    let columns = count.min(TILESET_COLUMNS);
    (columns, count.div_ceil(columns))
}

/// The tileset image: tile `i` (column `i % columns`, row `i / columns`, no margin or
/// spacing) a solid square of terrain `i`'s colour, [`TILE_SIZE`] pixels a side; on a hex
/// map a solid hexagon in a tile of the map's hex size, transparent outside it.
#[cfg(feature = "images")]
pub fn tileset_png(grid: &Grid) -> Result<Vec<u8>, image::ImageError> {
    let (columns, rows) = tileset_layout(grid);
    let terrains = grid.terrains();
    let shape = TileShape::of(grid);
    let (tw, th) = (shape.width, shape.height);
    let image = image::RgbaImage::from_fn(columns * tw, rows * th, |x, y| {
        let id = (y / th * columns + x / tw) as usize;
        match terrains.get(id) {
            Some(t) if shape.covers(x % tw, y % th) => {
                image::Rgba([t.color.0[0], t.color.0[1], t.color.0[2], 255])
            }
            _ => image::Rgba([0, 0, 0, 0]),
        }
    });
    let mut out = std::io::Cursor::new(Vec::new());
    image.write_to(&mut out, image::ImageFormat::Png)?;
    Ok(out.into_inner())
}

/// The map's own properties: its world frame, when it has one.
fn map_properties(map: &Map) -> Vec<(&'static str, f64)> {
    match map.metadata {
        Some(geo) => vec![
            ("resolution", geo.resolution),
            ("origin_x", geo.origin[0]),
            ("origin_y", geo.origin[1]),
            ("origin_yaw", geo.origin[2]),
        ],
        None => Vec::new(),
    }
}

/// The size of a tile in the written map, in pixels.
pub const TILE_SIZE: u32 = 16;

/// The name of the written tileset, and of its property marking every tile a terrain.
pub const TILESET_NAME: &str = "gridpath-terrains";

/// A property of a written tile.
enum Property {
    Text(&'static str, String),
    Number(&'static str, f64),
    Bool(&'static str, bool),
    Color(&'static str, String),
}

fn properties(terrain: &Terrain) -> Vec<Property> {
    let mut out = vec![
        Property::Text("name", terrain.name.clone()),
        Property::Text("symbol", terrain.symbol.to_string()),
        Property::Color("color", format!("#ff{}", &terrain.color.to_string()[1..])),
    ];
    match terrain.cost {
        Some(cost) => out.push(Property::Number("cost", cost)),
        None => out.push(Property::Bool("walkable", false)),
    }
    out
}

/// The start and goal as (name, x, y) in pixels: the centre of their cell.
fn markers(map: &Map) -> Vec<(&'static str, f64, f64)> {
    let shape = TileShape::of(&map.grid);
    [("start", map.start), ("goal", map.goal)]
        .into_iter()
        .filter_map(|(name, cell)| {
            cell.map(|c| {
                let (x, y) = shape.centre(c.x, c.y);
                (name, x, y)
            })
        })
        .collect()
}

/// The length of a hex's sides along the stagger axis in a written hex map, in pixels.
pub const HEX_SIDE: u32 = 8;

/// A written hex tile's width across its flats: √3 / 2 of [`TILE_SIZE`], rounded.
const HEX_FLATS: u32 = 14;

/// The tiles of a written map: [`TILE_SIZE`] squares, or on a hex map hexes whose sides along
/// the stagger axis are [`HEX_SIDE`] long, [`TILE_SIZE`] from point to point and
/// [`HEX_FLATS`] across the flats (regular to within a pixel), in the grid's stagger layout.
#[derive(Clone, Copy, Debug)]
struct TileShape {
    width: u32,
    height: u32,
    hex: Option<HexLayout>,
}

impl TileShape {
    fn of(grid: &Grid) -> Self {
        match grid.topology().hex() {
            None => Self {
                width: TILE_SIZE,
                height: TILE_SIZE,
                hex: None,
            },
            Some(layout) => {
                let (width, height) = match layout.axis {
                    StaggerAxis::Y => (HEX_FLATS, TILE_SIZE),
                    StaggerAxis::X => (TILE_SIZE, HEX_FLATS),
                };
                Self {
                    width,
                    height,
                    hex: Some(layout),
                }
            }
        }
    }

    /// The centre of cell `(x, y)` in pixels.
    fn centre(&self, x: u32, y: u32) -> (f64, f64) {
        match self.hex {
            Some(layout) => HexPixels {
                layout,
                tile_width: f64::from(self.width),
                tile_height: f64::from(self.height),
                side: f64::from(HEX_SIDE),
            }
            .centre(i64::from(x), i64::from(y)),
            None => (
                (f64::from(x) + 0.5) * f64::from(self.width),
                (f64::from(y) + 0.5) * f64::from(self.height),
            ),
        }
    }

    /// The map's orientation and, on a hex map, its hex attributes as (name, value).
    fn attributes(&self) -> (&'static str, Vec<(&'static str, &'static str)>) {
        let Some(layout) = self.hex else {
            return ("orthogonal", Vec::new());
        };
        let axis = match layout.axis {
            StaggerAxis::X => "x",
            StaggerAxis::Y => "y",
        };
        let index = match layout.index {
            StaggerIndex::Odd => "odd",
            StaggerIndex::Even => "even",
        };
        (
            "hexagonal",
            vec![("staggeraxis", axis), ("staggerindex", index)],
        )
    }

    /// Whether pixel `(x, y)` of a tile image lies inside the tile's shape: all of a square,
    /// the hexagon within its box.
    #[cfg(feature = "images")]
    fn covers(&self, x: u32, y: u32) -> bool {
        let Some(layout) = self.hex else {
            return true;
        };
        let (w, h) = (f64::from(self.width), f64::from(self.height));
        let (px, py) = (f64::from(x) + 0.5 - w / 2.0, f64::from(y) + 0.5 - h / 2.0);
        // In the hex's own frame: `along` the axis through its points, `across` the flats.
        let (along, across, long, short) = match layout.axis {
            StaggerAxis::Y => (py.abs(), px.abs(), h, w),
            StaggerAxis::X => (px.abs(), py.abs(), w, h),
        };
        // Within the flats, and below the slanted sides that run from a point (at long / 2)
        // to the ends of the sides along the axis (at HEX_SIDE / 2, the flats' half width).
        let side = f64::from(HEX_SIDE) / 2.0;
        let rise = (long / 2.0 - side) / (short / 2.0);
        across <= short / 2.0 && along <= long / 2.0 - rise * across
    }
}

/// The map as Tiled JSON (`.tmj`), its tileset drawn from the image `image` beside it (see
/// [`image_name_for`]); without one the tileset has no image.
pub fn to_tmj(map: &Map, image: Option<&str>) -> String {
    let grid = &map.grid;
    let q = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned());
    let n = |v: f64| serde_json::to_string(&v).unwrap_or_else(|_| "0".to_owned());
    let mut out = String::with_capacity(grid.len() * 4 + 4096);
    out.push_str(
        "{\n  \"type\": \"map\",\n  \"version\": \"1.10\",\n  \"tiledversion\": \"1.10.2\",\n",
    );
    let shape = TileShape::of(grid);
    let (tw, th) = (shape.width, shape.height);
    let (orientation, hex) = shape.attributes();
    let _ = writeln!(
        out,
        "  \"orientation\": \"{orientation}\",\n  \"renderorder\": \"right-down\",\n  \"infinite\": false,"
    );
    if !hex.is_empty() {
        let _ = writeln!(out, "  \"hexsidelength\": {HEX_SIDE},");
    }
    for (name, value) in &hex {
        let _ = writeln!(out, "  \"{name}\": \"{value}\",");
    }
    let _ = writeln!(
        out,
        "  \"width\": {},\n  \"height\": {},",
        grid.width(),
        grid.height()
    );
    let _ = writeln!(out, "  \"tilewidth\": {tw},\n  \"tileheight\": {th},");
    let markers = markers(map);
    let _ = writeln!(
        out,
        "  \"nextlayerid\": 3,\n  \"nextobjectid\": {},",
        markers.len() + 1
    );
    let properties_of_map: Vec<String> = map_properties(map)
        .into_iter()
        .map(|(k, v)| {
            format!(
                "{{\"name\": {}, \"type\": \"float\", \"value\": {}}}",
                q(k),
                n(v)
            )
        })
        .collect();
    if !properties_of_map.is_empty() {
        let _ = writeln!(out, "  \"properties\": [{}],", properties_of_map.join(", "));
    }
    out.push_str("  \"tilesets\": [{\n");
    let (columns, rows) = tileset_layout(grid);
    let _ = writeln!(
        out,
        "    \"firstgid\": 1, \"name\": {}, \"tilewidth\": {tw}, \"tileheight\": {th}, \"tilecount\": {}, \"columns\": {}, \"margin\": 0, \"spacing\": 0,",
        q(TILESET_NAME),
        grid.terrains().len(),
        if image.is_some() { columns } else { 0 }
    );
    if let Some(image) = image {
        let _ = writeln!(
            out,
            "    \"image\": {}, \"imagewidth\": {}, \"imageheight\": {},",
            q(image),
            columns * tw,
            rows * th
        );
    }
    let _ = writeln!(
        out,
        "    \"properties\": [{{\"name\": {}, \"type\": \"bool\", \"value\": true}}],",
        q(TILESET_NAME)
    );
    out.push_str("    \"tiles\": [\n");
    for (id, terrain) in grid.terrains().iter().enumerate() {
        let listed: Vec<String> = properties(terrain)
            .into_iter()
            .map(|p| match p {
                Property::Text(k, v) => format!(
                    "{{\"name\": {}, \"type\": \"string\", \"value\": {}}}",
                    q(k),
                    q(&v)
                ),
                Property::Number(k, v) => format!(
                    "{{\"name\": {}, \"type\": \"float\", \"value\": {}}}",
                    q(k),
                    n(v)
                ),
                Property::Bool(k, v) => {
                    format!("{{\"name\": {}, \"type\": \"bool\", \"value\": {v}}}", q(k))
                }
                Property::Color(k, v) => format!(
                    "{{\"name\": {}, \"type\": \"color\", \"value\": {}}}",
                    q(k),
                    q(&v)
                ),
            })
            .collect();
        let comma = if id + 1 < grid.terrains().len() {
            ","
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "      {{\"id\": {id}, \"properties\": [{}]}}{comma}",
            listed.join(", ")
        );
    }
    out.push_str("    ]\n  }],\n  \"layers\": [\n");
    let _ = write!(
        out,
        "    {{\"id\": 1, \"type\": \"tilelayer\", \"name\": \"terrain\", \"x\": 0, \"y\": 0, \"width\": {}, \"height\": {}, \"opacity\": 1, \"visible\": true,\n     \"data\": [",
        grid.width(),
        grid.height()
    );
    for (i, &id) in grid.cells().iter().enumerate() {
        if i > 0 {
            out.push_str(if i % grid.width() as usize == 0 {
                ",\n      "
            } else {
                ", "
            });
        }
        let _ = write!(out, "{}", u32::from(id) + 1);
    }
    out.push_str("]},\n");
    out.push_str("    {\"id\": 2, \"type\": \"objectgroup\", \"name\": \"markers\", \"x\": 0, \"y\": 0, \"opacity\": 1, \"visible\": true, \"draworder\": \"topdown\", \"objects\": [");
    for (i, (name, x, y)) in markers.iter().enumerate() {
        let comma = if i > 0 { "," } else { "" };
        let _ = write!(
            out,
            "{comma}\n      {{\"id\": {}, \"name\": {}, \"type\": \"\", \"point\": true, \"x\": {}, \"y\": {}, \"width\": 0, \"height\": 0, \"rotation\": 0, \"visible\": true}}",
            i + 1,
            q(name),
            n(*x),
            n(*y)
        );
    }
    out.push_str("]}\n  ]\n}\n");
    out
}

/// Escapes text for an XML attribute, keeping line breaks and tabs as character references.
fn attribute(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' | '\r' | '\t' => {
                let _ = write!(out, "&#{};", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

/// The map as Tiled XML (`.tmx`), its tileset drawn from the image `image` beside it (see
/// [`image_name_for`]); without one the tileset has no image.
pub fn to_tmx(map: &Map, image: Option<&str>) -> String {
    let grid = &map.grid;
    let markers = markers(map);
    let mut out = String::with_capacity(grid.len() * 4 + 4096);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let shape = TileShape::of(grid);
    let (tw, th) = (shape.width, shape.height);
    let (orientation, hex) = shape.attributes();
    let mut hex: String = hex
        .iter()
        .map(|(name, value)| format!(" {name}=\"{value}\""))
        .collect();
    if !hex.is_empty() {
        hex.insert_str(0, &format!(" hexsidelength=\"{HEX_SIDE}\""));
    }
    let _ = writeln!(
        out,
        "<map version=\"1.10\" tiledversion=\"1.10.2\" orientation=\"{orientation}\" renderorder=\"right-down\" width=\"{}\" height=\"{}\" tilewidth=\"{tw}\" tileheight=\"{th}\"{hex} infinite=\"0\" nextlayerid=\"3\" nextobjectid=\"{}\">",
        grid.width(),
        grid.height(),
        markers.len() + 1
    );
    let properties_of_map = map_properties(map);
    if !properties_of_map.is_empty() {
        out.push_str(" <properties>\n");
        for (name, value) in properties_of_map {
            let _ = writeln!(
                out,
                "  <property name=\"{name}\" type=\"float\" value=\"{value:?}\"/>"
            );
        }
        out.push_str(" </properties>\n");
    }
    let (columns, rows) = tileset_layout(grid);
    let _ = writeln!(
        out,
        " <tileset firstgid=\"1\" name=\"{TILESET_NAME}\" tilewidth=\"{tw}\" tileheight=\"{th}\" tilecount=\"{}\" columns=\"{}\">",
        grid.terrains().len(),
        if image.is_some() { columns } else { 0 }
    );
    let _ = writeln!(
        out,
        "  <properties>\n   <property name=\"{TILESET_NAME}\" type=\"bool\" value=\"true\"/>\n  </properties>"
    );
    if let Some(image) = image {
        let _ = writeln!(
            out,
            "  <image source=\"{}\" width=\"{}\" height=\"{}\"/>",
            attribute(image),
            columns * tw,
            rows * th
        );
    }
    for (id, terrain) in grid.terrains().iter().enumerate() {
        let _ = writeln!(out, "  <tile id=\"{id}\">\n   <properties>");
        for p in properties(terrain) {
            let (name, kind, value) = match p {
                Property::Text(k, v) => (k, "string", v),
                Property::Number(k, v) => (k, "float", v.to_string()),
                Property::Bool(k, v) => (k, "bool", v.to_string()),
                Property::Color(k, v) => (k, "color", v),
            };
            let _ = writeln!(
                out,
                "    <property name=\"{name}\" type=\"{kind}\" value=\"{}\"/>",
                attribute(&value)
            );
        }
        out.push_str("   </properties>\n  </tile>\n");
    }
    out.push_str(" </tileset>\n");
    let _ = writeln!(
        out,
        " <layer id=\"1\" name=\"terrain\" width=\"{}\" height=\"{}\">\n  <data encoding=\"csv\">",
        grid.width(),
        grid.height()
    );
    let rows = grid.cells().chunks(grid.width() as usize);
    let last = grid.height() as usize - 1;
    for (y, row) in rows.enumerate() {
        let cells: Vec<String> = row
            .iter()
            .map(|&id| (u32::from(id) + 1).to_string())
            .collect();
        let comma = if y < last { "," } else { "" };
        let _ = writeln!(out, "{}{comma}", cells.join(","));
    }
    out.push_str("</data>\n </layer>\n <objectgroup id=\"2\" name=\"markers\">\n");
    for (i, (name, x, y)) in markers.iter().enumerate() {
        let _ = writeln!(
            out,
            "  <object id=\"{}\" name=\"{name}\" x=\"{x}\" y=\"{y}\">\n   <point/>\n  </object>",
            i + 1
        );
    }
    out.push_str(" </objectgroup>\n</map>\n");
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::super::{LevelOptions, read_level};
    use super::*;
    use crate::grid::{Cell, Grid, Rgb};

    /// Writes as `.tmj` and `.tmx` and reads each back: the same grid and markers. (Saving
    /// through `save_map` is checked by the module's example and the command line's tests.)
    fn round_trip(map: &Map, dir: &Path) {
        for (name, text) in [
            ("level.tmj", to_tmj(map, None)),
            ("level.tmx", to_tmx(map, Some("level-terrains.png"))),
        ] {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            let back = read_level(&path, &LevelOptions::default()).unwrap().map;
            assert_eq!(back.grid, map.grid, "{name}");
            assert_eq!((back.start, back.goal), (map.start, map.goal), "{name}");
        }
    }

    /// A small deterministic generator (a linear congruential one).
    struct Numbers(u64);

    impl Numbers {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 33) % n
        }
    }

    #[test]
    fn the_built_in_map_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps/default.json");
        let text = std::fs::read_to_string(path).unwrap();
        let map = crate::format::json::parse(&text).unwrap();
        round_trip(&map, dir.path());
    }

    #[test]
    fn random_maps_with_awkward_terrains_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let names = [
            "Grass",
            "a \"quoted\" <name> & more",
            "line\nbreak\ttab",
            "Straße ✓",
            "",
            "wall",
        ];
        let costs = [
            Some(1.0),
            Some(0.1 + 0.2),
            Some(Terrain::MIN_COST),
            Some(Terrain::MAX_COST),
            None,
            Some(2.5),
        ];
        let symbols = ['.', '<', '&', 'é', '#', '\''];
        let mut numbers = Numbers(7);
        for round in 0..24 {
            let count = 1 + numbers.below(6) as usize;
            let terrains: Vec<Terrain> = (0..count)
                .map(|i| Terrain {
                    name: names[(i + round) % names.len()].to_owned(),
                    symbol: symbols[i],
                    color: Rgb([
                        numbers.below(256) as u8,
                        numbers.below(256) as u8,
                        numbers.below(256) as u8,
                    ]),
                    cost: costs[(i + round / 2) % costs.len()],
                })
                .collect();
            let (width, height) = (1 + numbers.below(7) as u32, 1 + numbers.below(5) as u32);
            // Not every terrain need be used: the last is left out of every other map.
            let used = if round % 2 == 0 && count > 1 {
                count - 1
            } else {
                count
            } as u64;
            let cells = (0..width * height)
                .map(|_| numbers.below(used) as u8)
                .collect();
            let mut map = Map::new(
                "random",
                Grid::from_cells(width, height, terrains, cells).unwrap(),
            );
            if round % 3 != 0 {
                map.start = Some(Cell::new(
                    numbers.below(u64::from(width)) as u32,
                    numbers.below(u64::from(height)) as u32,
                ));
            }
            if round % 4 != 0 {
                map.goal = Some(Cell::new(width - 1, height - 1));
            }
            round_trip(&map, dir.path());
        }
    }

    /// Reads a saved `.tmj` as Tiled and pytmx do: the tileset's image beside the map, its
    /// columns counted from the image's width (Tiled's `Tileset::columnCountForWidth`), and
    /// each tile's region of it; returns each tile's colour in the image and its `color`
    /// property.
    #[cfg(feature = "images")]
    fn tiles_as_tiled_draws_them(map_file: &Path) -> Vec<([u8; 3], [u8; 3])> {
        let doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(map_file).unwrap()).unwrap();
        let set = &doc["tilesets"][0];
        let source = set["image"].as_str().expect("the tileset names an image");
        let image = image::open(map_file.with_file_name(source))
            .expect("the image is beside the map")
            .to_rgba8();
        assert_eq!(
            u64::from(image.width()),
            set["imagewidth"].as_u64().unwrap()
        );
        assert_eq!(
            u64::from(image.height()),
            set["imageheight"].as_u64().unwrap()
        );
        let (tw, th) = (
            set["tilewidth"].as_u64().unwrap() as u32,
            set["tileheight"].as_u64().unwrap() as u32,
        );
        let (margin, spacing) = (
            set["margin"].as_u64().unwrap() as u32,
            set["spacing"].as_u64().unwrap() as u32,
        );
        let columns = (image.width() - margin + spacing) / (tw + spacing);
        assert_eq!(u64::from(columns), set["columns"].as_u64().unwrap());
        let rows = (image.height() - margin + spacing) / (th + spacing);
        let count = set["tilecount"].as_u64().unwrap() as u32;
        assert!(
            count <= columns * rows,
            "{count} tiles in {columns} × {rows}"
        );
        (0..count)
            .map(|id| {
                let (left, top) = (
                    margin + id % columns * (tw + spacing),
                    margin + id / columns * (th + spacing),
                );
                let first = image.get_pixel(left, top).0;
                for y in top..top + th {
                    for x in left..left + tw {
                        assert_eq!(image.get_pixel(x, y).0, first, "tile {id} is one colour");
                    }
                }
                assert_eq!(first[3], 255, "tile {id} is opaque");
                let tile = set["tiles"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|t| t["id"] == id)
                    .unwrap();
                let color = tile["properties"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|p| p["name"] == "color")
                    .unwrap()["value"]
                    .as_str()
                    .unwrap();
                // A Tiled colour: #AARRGGBB.
                let hex = color.trim_start_matches('#');
                let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap();
                let rgb = [channel(2), channel(4), channel(6)];
                ([first[0], first[1], first[2]], rgb)
            })
            .collect()
    }

    #[cfg(feature = "images")]
    #[test]
    fn the_export_draws_each_terrain_in_its_colour_and_keeps_the_world_frame() {
        let dir = tempfile::tempdir().unwrap();
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps/default.json");
        let mut map = crate::format::json::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        map.metadata = Some(crate::grid::GeoReference {
            resolution: 0.05,
            origin: [-10.0, -7.5, 0.25],
        });
        // More than one row of tiles.
        let mut terrains = map.grid.terrains().to_vec();
        while terrains.len() < 20 {
            let n = terrains.len() as u8;
            let symbol = char::from_u32(0x100 + u32::from(n)).unwrap();
            terrains.push(Terrain::passable(
                &format!("t{n}"),
                symbol,
                Rgb([n * 10, 255 - n, n]),
                2.0,
            ));
        }
        let cells = map.grid.cells().to_vec();
        map.grid = Grid::from_cells(map.grid.width(), map.grid.height(), terrains, cells).unwrap();
        for name in ["site.tmj", "site.tmx"] {
            let file = dir.path().join(name);
            crate::format::save::save_map(&map, &file).unwrap();
            let back = crate::format::load_map(&file).unwrap();
            assert_eq!(back.grid, map.grid, "{name}");
            assert_eq!(back.metadata, map.metadata, "{name}");
        }
        let tiles = tiles_as_tiled_draws_them(&dir.path().join("site.tmj"));
        assert_eq!(tiles.len(), 20);
        for (id, ((drawn, property), terrain)) in tiles.iter().zip(map.grid.terrains()).enumerate()
        {
            assert_eq!(drawn, property, "tile {id}");
            assert_eq!(*drawn, terrain.color.0, "tile {id}");
        }
        // The XML names the same image, with its size, as Tiled writes `<image>`.
        let tmx = std::fs::read_to_string(dir.path().join("site.tmx")).unwrap();
        assert!(
            tmx.contains(r#"<image source="site-terrains.png" width="256" height="32"/>"#),
            "{tmx}"
        );
        assert!(tmx.contains(r#"columns="16""#), "{tmx}");
        assert!(
            tmx.contains(r#"<property name="resolution" type="float" value="0.05"/>"#),
            "{tmx}"
        );
    }

    #[test]
    fn the_tileset_lists_every_terrain_with_its_properties() {
        let map = Map::new("yard", Grid::from_ascii(&[".#"]).unwrap());
        let tmj = to_tmj(&map, None);
        assert!(
            tmj.contains("{\"name\": \"walkable\", \"type\": \"bool\", \"value\": false}"),
            "{tmj}"
        );
        assert!(
            tmj.contains("{\"name\": \"color\", \"type\": \"color\", \"value\": \"#ff6abe30\"}"),
            "{tmj}"
        );
        let tmx = to_tmx(&map, None);
        assert!(
            tmx.contains("<property name=\"cost\" type=\"float\" value=\"1\"/>"),
            "{tmx}"
        );
        assert!(
            tmx.contains("<data encoding=\"csv\">\n1,4\n</data>"),
            "{tmx}"
        );
    }
}
