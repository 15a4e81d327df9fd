//! gridpath's JSON map format, version 1: human-readable, one string per row, one character
//! per cell.
//!
//! ```json
//! {
//!   "format": "gridpath-map", "version": 1,
//!   "name": "demo", "width": 4, "height": 3,
//!   "terrains": [
//!     {"symbol": ".", "name": "Grass", "cost": 1.0, "color": "#6abe30"},
//!     {"symbol": "#", "name": "Wall", "cost": null, "color": "#222222"}
//!   ],
//!   "rows": ["..#.", "....", "#..."],
//!   "start": [0, 0], "goal": [3, 2]
//! }
//! ```
//! `cost: null` is impassable; `name`, `start` and `goal` are optional; unknown fields are
//! ignored. A map imported from a robot's occupancy map also carries
//! `"metadata": {"resolution": 0.05, "origin": [x, y, yaw]}` (metres per cell, and the pose of
//! the lower-left corner), which older readers ignore. Coordinates are `[x, y]`, x the column, y the row, (0, 0) the top-left cell.

use std::collections::HashMap;
use std::fmt::Write as _;

use serde::{Deserialize, Deserializer};

use super::FormatError;
use crate::grid::{Cell, GeoReference, Grid, Map, Rgb, Terrain, TerrainId};

/// The value of the `format` field.
pub const FORMAT_NAME: &str = "gridpath-map";
/// The format version this build writes and reads.
pub const VERSION: u64 = 1;

#[derive(Deserialize)]
struct RawMap {
    format: String,
    version: u64,
    #[serde(default)]
    name: Option<String>,
    width: u64,
    height: u64,
    terrains: Vec<RawTerrain>,
    rows: Vec<String>,
    #[serde(default)]
    start: Option<[i64; 2]>,
    #[serde(default)]
    goal: Option<[i64; 2]>,
    #[serde(default)]
    metadata: Option<RawMetadata>,
}

#[derive(Deserialize)]
struct RawMetadata {
    resolution: f64,
    origin: [f64; 3],
}

#[derive(Deserialize)]
struct RawTerrain {
    symbol: String,
    name: String,
    /// Missing: `None`; `null`: `Some(None)`, impassable.
    #[serde(default, deserialize_with = "present")]
    cost: Option<Option<f64>>,
    #[serde(default)]
    color: Option<String>,
}

fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<f64>>, D::Error> {
    Option::<f64>::deserialize(d).map(Some)
}

/// Parses a map from JSON text.
pub fn parse(text: &str) -> Result<Map, FormatError> {
    let raw: RawMap = serde_json::from_str(text).map_err(|e| FormatError::Json {
        line: e.line(),
        column: e.column(),
        message: strip_position(&e.to_string()),
    })?;
    if raw.format != FORMAT_NAME {
        return Err(FormatError::NotAMap(raw.format));
    }
    if raw.version != VERSION {
        return Err(FormatError::Version(raw.version));
    }
    let max = u64::from(Grid::MAX_SIDE);
    if raw.width == 0 || raw.height == 0 || raw.width > max || raw.height > max {
        return Err(FormatError::Size {
            width: raw.width,
            height: raw.height,
        });
    }
    let (width, height) = (raw.width as usize, raw.height as usize);
    let terrains = raw
        .terrains
        .iter()
        .enumerate()
        .map(|(index, t)| terrain(index, t))
        .collect::<Result<Vec<_>, _>>()?;
    if terrains.is_empty() || terrains.len() > 256 {
        return Err(FormatError::Terrain {
            index: terrains.len(),
            message: format!(
                "a map needs between 1 and 256 terrains, got {}",
                terrains.len()
            ),
        });
    }
    let symbols = SymbolTable::new(&terrains);
    if raw.rows.len() != height {
        return Err(FormatError::RowCount {
            expected: height,
            found: raw.rows.len(),
        });
    }
    let mut cells = Vec::with_capacity(width * height);
    for (y, row) in raw.rows.iter().enumerate() {
        let before = cells.len();
        for (x, symbol) in row.chars().enumerate() {
            if x >= width {
                break;
            }
            let Some(id) = symbols.get(symbol) else {
                let line = row_line(text, &raw.rows, y);
                return Err(FormatError::UnknownSymbol {
                    symbol,
                    row: y,
                    column: x,
                    line,
                });
            };
            cells.push(id);
        }
        let found = row.chars().count();
        if found != width || cells.len() - before != width {
            let line = row_line(text, &raw.rows, y);
            return Err(FormatError::RowLength {
                row: y,
                line,
                expected: width,
                found,
            });
        }
    }
    let grid = Grid::from_cells(width as u32, height as u32, terrains, cells)?;
    let endpoint = |which, point: Option<[i64; 2]>| -> Result<Option<Cell>, FormatError> {
        let Some([x, y]) = point else { return Ok(None) };
        if !grid.contains(x, y) {
            return Err(FormatError::OutOfBounds {
                which,
                x,
                y,
                width: grid.width(),
                height: grid.height(),
            });
        }
        Ok(Some(Cell::new(x as u32, y as u32)))
    };
    let start = endpoint("start", raw.start)?;
    let goal = endpoint("goal", raw.goal)?;
    let metadata = match raw.metadata {
        Some(m) => Some(GeoReference::new(m.resolution, m.origin).map_err(FormatError::Metadata)?),
        None => None,
    };
    Ok(Map {
        name: raw.name.unwrap_or_default(),
        grid,
        start,
        goal,
        metadata,
    })
}

fn terrain(index: usize, raw: &RawTerrain) -> Result<Terrain, FormatError> {
    let err = |message: String| FormatError::Terrain {
        index,
        message: format!("({:?}) {message}", raw.name),
    };
    let mut chars = raw.symbol.chars();
    let (Some(symbol), None) = (chars.next(), chars.next()) else {
        return Err(err(format!(
            "symbol {:?} must be exactly one character",
            raw.symbol
        )));
    };
    let Some(cost) = raw.cost else {
        return Err(err(
            "has no \"cost\": give a positive number, or null for impassable".to_owned(),
        ));
    };
    if let Some(c) = cost {
        Terrain::check_cost(c).map_err(|e| err(format!("terrains[{index}].cost: {e}")))?;
    }
    let color = match &raw.color {
        Some(c) => c.parse::<Rgb>().map_err(err)?,
        None => Rgb([0x80, 0x80, 0x80]),
    };
    let terrain = Terrain {
        name: raw.name.clone(),
        symbol,
        color,
        cost,
    };
    terrain.validate().map_err(err)?;
    Ok(terrain)
}

/// Terrain ids by symbol, with a flat table for ASCII.
struct SymbolTable {
    ascii: [Option<TerrainId>; 128],
    other: HashMap<char, TerrainId>,
}

impl SymbolTable {
    fn new(terrains: &[Terrain]) -> Self {
        let mut table = Self {
            ascii: [None; 128],
            other: HashMap::new(),
        };
        for (i, t) in terrains.iter().enumerate() {
            let id = i as TerrainId;
            match usize::try_from(u32::from(t.symbol)) {
                Ok(c) if c < 128 => table.ascii[c].get_or_insert(id),
                _ => table.other.entry(t.symbol).or_insert(id),
            };
        }
        table
    }

    fn get(&self, symbol: char) -> Option<TerrainId> {
        match u32::from(symbol) {
            c if c < 128 => self.ascii[c as usize],
            _ => self.other.get(&symbol).copied(),
        }
    }
}

/// The 1-based line on which row `y` stands, found by searching for each row's text in turn.
fn row_line(text: &str, rows: &[String], y: usize) -> Option<usize> {
    let mut from = text.find("\"rows\"")?;
    for (i, row) in rows.iter().enumerate().take(y + 1) {
        let quoted = serde_json::to_string(row).ok()?;
        let at = from + text[from..].find(&quoted)?;
        if i == y {
            return Some(text[..at].matches('\n').count() + 1);
        }
        from = at + quoted.len();
    }
    None
}

/// `serde_json` appends " at line L column C" to its messages; we report the place ourselves.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_owned(),
        None => message.to_owned(),
    }
}

/// Writes a map as JSON text, one row per line, after checking that the text will load: the
/// metadata must be in [`GeoReference::new`]'s ranges (the terrains are checked whenever a
/// grid's catalog changes).
pub fn encode(map: &Map) -> Result<String, FormatError> {
    if let Some(geo) = &map.metadata {
        geo.validate().map_err(FormatError::Metadata)?;
    }
    Ok(to_string(map))
}

/// Writes a map as JSON text, one row per line, unchecked: metadata out of range is written as
/// it is, and the file will not load. Saves go through [`encode`].
pub fn to_string(map: &Map) -> String {
    let grid = &map.grid;
    let q = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned());
    let mut out = String::with_capacity(grid.len() + grid.height() as usize * 8 + 512);
    out.push_str("{\n");
    let _ = writeln!(out, "  \"format\": {},", q(FORMAT_NAME));
    let _ = writeln!(out, "  \"version\": {VERSION},");
    let _ = writeln!(out, "  \"name\": {},", q(&map.name));
    let _ = writeln!(out, "  \"width\": {},", grid.width());
    let _ = writeln!(out, "  \"height\": {},", grid.height());
    out.push_str("  \"terrains\": [\n");
    for (i, t) in grid.terrains().iter().enumerate() {
        let cost = match t.cost {
            Some(c) => serde_json::to_string(&c).unwrap_or_else(|_| "null".to_owned()),
            None => "null".to_owned(),
        };
        let comma = if i + 1 < grid.terrains().len() {
            ","
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "    {{\"symbol\": {}, \"name\": {}, \"cost\": {cost}, \"color\": \"{}\"}}{comma}",
            q(&t.symbol.to_string()),
            q(&t.name),
            t.color
        );
    }
    out.push_str("  ],\n  \"rows\": [\n");
    let symbols: Vec<char> = grid.terrains().iter().map(|t| t.symbol).collect();
    let mut row = String::with_capacity(grid.width() as usize);
    for (y, cells) in grid.cells().chunks(grid.width() as usize).enumerate() {
        row.clear();
        row.extend(cells.iter().map(|&id| symbols[usize::from(id)]));
        let comma = if y + 1 < grid.height() as usize {
            ","
        } else {
            ""
        };
        let _ = writeln!(out, "    {}{comma}", q(&row));
    }
    out.push_str("  ]");
    for (key, cell) in [("start", map.start), ("goal", map.goal)] {
        if let Some(c) = cell {
            let _ = write!(out, ",\n  \"{key}\": [{}, {}]", c.x, c.y);
        }
    }
    if let Some(geo) = &map.metadata {
        let n = |v: f64| serde_json::to_string(&v).unwrap_or_else(|_| "0".to_owned());
        let [x, y, yaw] = geo.origin;
        let _ = write!(
            out,
            ",\n  \"metadata\": {{\"resolution\": {}, \"origin\": [{}, {}, {}]}}",
            n(geo.resolution),
            n(x),
            n(y),
            n(yaw)
        );
    }
    out.push_str("\n}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEMO: &str = r##"{
  "format": "gridpath-map", "version": 1,
  "name": "demo", "width": 4, "height": 3,
  "terrains": [
    {"symbol": ".", "name": "Grass", "cost": 1.0, "color": "#6abe30"},
    {"symbol": "=", "name": "Road",  "cost": 0.5, "color": "#c8b58c"},
    {"symbol": "~", "name": "Swamp", "cost": 3.0, "color": "#4b6b3a"},
    {"symbol": "#", "name": "Wall",  "cost": null, "color": "#222222"}
  ],
  "rows": ["..=#", "~~=.", "...."],
  "start": [0, 0], "goal": [3, 2],
  "extra": {"ignored": true}
}"##;

    #[test]
    fn the_documented_example_loads() {
        let map = parse(DEMO).unwrap();
        assert_eq!(map.name, "demo");
        assert_eq!((map.grid.width(), map.grid.height()), (4, 3));
        assert_eq!(map.grid.cost(Cell::new(2, 0)), Some(0.5));
        assert_eq!(map.grid.cost(Cell::new(3, 0)), None);
        assert_eq!(map.start, Some(Cell::new(0, 0)));
        assert_eq!(map.goal, Some(Cell::new(3, 2)));
    }

    #[test]
    fn writing_and_reading_gives_the_same_map() {
        let map = parse(DEMO).unwrap();
        let text = to_string(&map);
        assert_eq!(parse(&text).unwrap(), map);
        assert!(
            text.contains("\n    \"~~=.\",\n"),
            "one row per line:\n{text}"
        );
    }

    #[test]
    fn errors_name_their_place() {
        let bad_symbol = DEMO.replace("\"~~=.\"", "\"~~x.\"");
        let e = parse(&bad_symbol).unwrap_err();
        assert_eq!(
            e,
            FormatError::UnknownSymbol {
                symbol: 'x',
                row: 1,
                column: 2,
                line: Some(10)
            }
        );
        assert!(e.to_string().contains("row 1, column 2 (line 10)"), "{e}");

        let short_row = DEMO.replace("\"....\"", "\"...\"");
        let e = parse(&short_row).unwrap_err();
        assert_eq!(
            e,
            FormatError::RowLength {
                row: 2,
                line: Some(10),
                expected: 4,
                found: 3
            }
        );

        let e = parse("{\n  \"format\": \"gridpath-map\",\n  \"version\": 1,\n  \"width\": -4")
            .unwrap_err();
        assert!(matches!(e, FormatError::Json { line: 4, .. }), "{e}");

        let giant = DEMO.replace("\"width\": 4", "\"width\": 100000");
        assert_eq!(
            parse(&giant).unwrap_err(),
            FormatError::Size {
                width: 100_000,
                height: 3
            }
        );

        let outside = DEMO.replace("\"goal\": [3, 2]", "\"goal\": [4, 2]");
        assert!(matches!(
            parse(&outside).unwrap_err(),
            FormatError::OutOfBounds { which: "goal", .. }
        ));

        let no_cost = DEMO.replace("\"cost\": 3.0, ", "");
        assert!(matches!(
            parse(&no_cost).unwrap_err(),
            FormatError::Terrain { index: 2, .. }
        ));

        let negative = DEMO.replace("\"cost\": 3.0", "\"cost\": -3.0");
        assert!(matches!(
            parse(&negative).unwrap_err(),
            FormatError::Terrain { index: 2, .. }
        ));

        // Costs near the limits of floating point: a path's sum would overflow to infinity
        // or underflow to zero.
        for (cost, shown) in [("1e308", "1e308"), ("5e-324", "5e-324"), ("1e-7", "1e-7")] {
            let extreme = DEMO.replace("\"cost\": 3.0", &format!("\"cost\": {cost}"));
            let e = parse(&extreme).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "terrain 2: (\"Swamp\") terrains[2].cost: cost {shown} is outside the range \
                     1e-6 to 1e6 (null for impassable)"
                )
            );
        }
        for cost in ["1e6", "1e-6"] {
            let edge = DEMO.replace("\"cost\": 3.0", &format!("\"cost\": {cost}"));
            assert!(parse(&edge).is_ok(), "{cost}");
        }

        assert!(matches!(parse("").unwrap_err(), FormatError::Json { .. }));
        let other = DEMO.replace("gridpath-map", "tiled");
        assert_eq!(
            parse(&other).unwrap_err(),
            FormatError::NotAMap("tiled".into())
        );
    }
}
