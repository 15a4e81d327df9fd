//! A gridpath map written as a Tiled map (`.tmj` or `.tmx`): one CSV tile layer, an embedded
//! tileset of one tile per terrain, and the start and goal as point objects.
//!
//! The tileset, named and marked `gridpath-terrains`, has no image; each tile carries the
//! terrain's `name`, `symbol`, `color` (a Tiled colour) and either its `cost` or
//! `walkable=false`. Reading the file back gives the same grid and markers: every tile of a
//! tileset marked `gridpath-terrains` becomes a terrain, in order, even when no cell uses it.
//! `format::save::save_map` writes these files atomically, choosing by the extension.
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
//! ```

use std::fmt::Write as _;

use crate::grid::{Map, Terrain};

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
    let centre = |v: u32| (f64::from(v) + 0.5) * f64::from(TILE_SIZE);
    [("start", map.start), ("goal", map.goal)]
        .into_iter()
        .filter_map(|(name, cell)| cell.map(|c| (name, centre(c.x), centre(c.y))))
        .collect()
}

/// The map as Tiled JSON (`.tmj`).
pub fn to_tmj(map: &Map) -> String {
    let grid = &map.grid;
    let q = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned());
    let n = |v: f64| serde_json::to_string(&v).unwrap_or_else(|_| "0".to_owned());
    let mut out = String::with_capacity(grid.len() * 4 + 4096);
    out.push_str(
        "{\n  \"type\": \"map\",\n  \"version\": \"1.10\",\n  \"tiledversion\": \"1.10.2\",\n",
    );
    out.push_str("  \"orientation\": \"orthogonal\",\n  \"renderorder\": \"right-down\",\n  \"infinite\": false,\n");
    let _ = writeln!(
        out,
        "  \"width\": {},\n  \"height\": {},",
        grid.width(),
        grid.height()
    );
    let _ = writeln!(
        out,
        "  \"tilewidth\": {TILE_SIZE},\n  \"tileheight\": {TILE_SIZE},"
    );
    let markers = markers(map);
    let _ = writeln!(
        out,
        "  \"nextlayerid\": 3,\n  \"nextobjectid\": {},",
        markers.len() + 1
    );
    out.push_str("  \"tilesets\": [{\n");
    let _ = writeln!(
        out,
        "    \"firstgid\": 1, \"name\": {}, \"tilewidth\": {TILE_SIZE}, \"tileheight\": {TILE_SIZE}, \"tilecount\": {}, \"columns\": 0,",
        q(TILESET_NAME),
        grid.terrains().len()
    );
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

/// The map as Tiled XML (`.tmx`).
pub fn to_tmx(map: &Map) -> String {
    let grid = &map.grid;
    let markers = markers(map);
    let mut out = String::with_capacity(grid.len() * 4 + 4096);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<map version=\"1.10\" tiledversion=\"1.10.2\" orientation=\"orthogonal\" renderorder=\"right-down\" width=\"{}\" height=\"{}\" tilewidth=\"{TILE_SIZE}\" tileheight=\"{TILE_SIZE}\" infinite=\"0\" nextlayerid=\"3\" nextobjectid=\"{}\">",
        grid.width(),
        grid.height(),
        markers.len() + 1
    );
    let _ = writeln!(
        out,
        " <tileset firstgid=\"1\" name=\"{TILESET_NAME}\" tilewidth=\"{TILE_SIZE}\" tileheight=\"{TILE_SIZE}\" tilecount=\"{}\" columns=\"0\">",
        grid.terrains().len()
    );
    let _ = writeln!(
        out,
        "  <properties>\n   <property name=\"{TILESET_NAME}\" type=\"bool\" value=\"true\"/>\n  </properties>"
    );
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
        for (name, text) in [("level.tmj", to_tmj(map)), ("level.tmx", to_tmx(map))] {
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

    #[test]
    fn the_tileset_lists_every_terrain_with_its_properties() {
        let map = Map::new("yard", Grid::from_ascii(&[".#"]).unwrap());
        let tmj = to_tmj(&map);
        assert!(
            tmj.contains("{\"name\": \"walkable\", \"type\": \"bool\", \"value\": false}"),
            "{tmj}"
        );
        assert!(
            tmj.contains("{\"name\": \"color\", \"type\": \"color\", \"value\": \"#ff6abe30\"}"),
            "{tmj}"
        );
        let tmx = to_tmx(&map);
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
