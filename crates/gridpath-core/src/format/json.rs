//! gridpath's JSON map format, versions 1 to 3: human-readable, one string per row, one
//! character per cell. Version 2 adds a height per cell and the slope rules, version 3 hex
//! cells; a file is written with the oldest version that holds the map (a square map without
//! heights as version 1), so older readers still load it.
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
//! `cost: null` is impassable; `name`, `start` and `goal` are optional, and so is
//! `"waypoints": [[x, y], ...]`, the cells a route visits between them; unknown fields are
//! ignored. A map imported from a robot's occupancy map also carries
//! `"metadata": {"resolution": 0.05, "origin": [x, y, yaw]}` (metres per cell, and the pose of
//! the lower-left corner), which older readers ignore. Coordinates are `[x, y]`, x the column, y the row, (0, 0) the top-left cell.
//!
//! A version 2 map may carry heights, one number per cell (row by row, each multiplied by
//! `scale`, 1 when left out), and the rules that price them ([`crate::grid::Slope`]; each key
//! optional, defaults uphill 1, downhill 0, no maximum climb):
//!
//! ```json
//! "heights": {"scale": 0.5, "rows": [[0, 0, 1, 2], [0, 1, 2, 4], [0, 0, 1, 2]]},
//! "slope": {"uphill": 1.0, "downhill": 0.25, "max_climb": 1.5}
//! ```
//!
//! A version 3 map may have hexagonal cells, stored in offset rows as Tiled stores them
//! ([`crate::grid::HexLayout`]), named in Tiled's terms; without `topology` the cells are
//! square:
//!
//! ```json
//! "topology": {"shape": "hex", "staggeraxis": "y", "staggerindex": "odd"}
//! ```

use std::collections::HashMap;
use std::fmt::Write as _;

use serde::{Deserialize, Deserializer};

use super::{FormatError, MAX_PARSER_MESSAGE, excerpt, shorten};
use crate::grid::{Cell, GeoReference, Grid, Map, Rgb, Slope, Terrain, TerrainId, Topology};

/// The value of the `format` field.
pub const FORMAT_NAME: &str = "gridpath-map";
/// The newest format version this build writes and reads (it reads every older one too).
pub const VERSION: u64 = 3;
/// The version of square maps with heights.
pub const HEIGHTS_VERSION: u64 = 2;
/// The version of maps without heights, written so that older readers load them.
pub const FLAT_VERSION: u64 = 1;

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
    waypoints: Vec<[i64; 2]>,
    #[serde(default)]
    metadata: Option<RawMetadata>,
    #[serde(default)]
    heights: Option<RawHeights>,
    #[serde(default)]
    slope: Option<RawSlope>,
    #[serde(default)]
    topology: Option<RawTopology>,
}

#[derive(Deserialize)]
struct RawTopology {
    shape: String,
    #[serde(default)]
    staggeraxis: Option<String>,
    #[serde(default)]
    staggerindex: Option<String>,
}

/// The topology a version 3 file names.
fn topology(raw: &RawTopology) -> Result<Topology, FormatError> {
    Topology::from_file_names(
        &raw.shape,
        raw.staggeraxis.as_deref(),
        raw.staggerindex.as_deref(),
    )
    .map_err(FormatError::Topology)
}

#[derive(Deserialize)]
struct RawHeights {
    #[serde(default)]
    scale: Option<f64>,
    rows: Vec<Vec<f64>>,
}

#[derive(Deserialize)]
struct RawSlope {
    #[serde(default)]
    uphill: Option<f64>,
    #[serde(default)]
    downhill: Option<f64>,
    #[serde(default)]
    max_climb: Option<f64>,
}

#[derive(Deserialize)]
struct RawMetadata {
    resolution: f64,
    origin: [f64; 3],
}

/// A terrain as the file writes it, before its checks.
#[derive(Deserialize)]
pub(crate) struct RawTerrain {
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
        message: shorten(&strip_position(&e.to_string()), MAX_PARSER_MESSAGE),
    })?;
    if raw.format != FORMAT_NAME {
        return Err(FormatError::NotAMap(raw.format));
    }
    if raw.version == 0 || raw.version > VERSION {
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
    let mut grid = Grid::from_cells(width as u32, height as u32, terrains, cells)?;
    if raw.version >= 2 {
        read_heights(&mut grid, raw.heights, raw.slope)?;
    }
    if raw.version >= 3
        && let Some(raw_topology) = &raw.topology
    {
        grid.set_topology(topology(raw_topology)?);
    }
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
    let waypoints = raw
        .waypoints
        .iter()
        .map(|&point| endpoint("waypoint", Some(point)).map(Option::unwrap_or_default))
        .collect::<Result<Vec<_>, _>>()?;
    let metadata = match raw.metadata {
        Some(m) => Some(GeoReference::new(m.resolution, m.origin).map_err(FormatError::Metadata)?),
        None => None,
    };
    Ok(Map {
        name: raw.name.unwrap_or_default(),
        grid,
        start,
        goal,
        waypoints,
        metadata,
    })
}

/// Gives the grid the file's heights and slope rules, checking each row.
fn read_heights(
    grid: &mut Grid,
    heights: Option<RawHeights>,
    slope: Option<RawSlope>,
) -> Result<(), FormatError> {
    let err = |row: Option<usize>, message: String| FormatError::Heights { row, message };
    let Some(heights) = heights else {
        if slope.is_some() {
            return Err(err(
                None,
                "\"slope\" is given but the map has no \"heights\"".into(),
            ));
        }
        return Ok(());
    };
    let scale = heights.scale.unwrap_or(1.0);
    if !(scale.is_finite() && scale > 0.0) {
        return Err(err(
            None,
            format!("heights: the scale must be above 0, got {scale}"),
        ));
    }
    let (width, height) = (grid.width() as usize, grid.height() as usize);
    if heights.rows.len() != height {
        return Err(err(
            None,
            format!(
                "heights: expected {height} rows (the map's height), got {}",
                heights.rows.len()
            ),
        ));
    }
    let mut values = Vec::with_capacity(width * height);
    for (y, row) in heights.rows.iter().enumerate() {
        if row.len() != width {
            return Err(err(
                Some(y),
                format!(
                    "expected {width} numbers (the map's width), got {}",
                    row.len()
                ),
            ));
        }
        for (x, &v) in row.iter().enumerate() {
            let h = v * scale;
            if !(h.is_finite() && h.abs() <= f64::from(crate::grid::MAX_HEIGHT)) {
                return Err(err(
                    Some(y),
                    format!(
                        "column {x}: height {h} is outside ±{}",
                        crate::grid::MAX_HEIGHT
                    ),
                ));
            }
            values.push(h as f32);
        }
    }
    grid.set_heights(Some(values))
        .map_err(|e| err(None, e.to_string()))?;
    let defaults = Slope::DEFAULT;
    let rules = slope.map_or(defaults, |s| Slope {
        uphill: s.uphill.unwrap_or(defaults.uphill),
        downhill: s.downhill.unwrap_or(defaults.downhill),
        max_climb: s.max_climb.or(defaults.max_climb),
    });
    grid.set_slope(rules).map_err(|e| err(None, e.to_string()))
}

/// The terrain at `index` of a `terrains` list, checked.
pub(crate) fn terrain(index: usize, raw: &RawTerrain) -> Result<Terrain, FormatError> {
    let err = |message: String| FormatError::Terrain {
        index,
        message: format!("({}) {message}", excerpt(&raw.name)),
    };
    let mut chars = raw.symbol.chars();
    let (Some(symbol), None) = (chars.next(), chars.next()) else {
        return Err(err(format!(
            "symbol {} must be exactly one character",
            excerpt(&raw.symbol)
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
    let version = if grid.topology().explicit_name().is_some() {
        VERSION
    } else if grid.heights().is_some() {
        HEIGHTS_VERSION
    } else {
        FLAT_VERSION
    };
    let _ = writeln!(out, "  \"version\": {version},");
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
    if !map.waypoints.is_empty() {
        let points: Vec<String> = map
            .waypoints
            .iter()
            .map(|c| format!("[{}, {}]", c.x, c.y))
            .collect();
        let _ = write!(out, ",\n  \"waypoints\": [{}]", points.join(", "));
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
    if let Some(heights) = grid.heights() {
        write_heights(&mut out, grid, heights);
    }
    if let (shape, Some((axis, index))) = grid.topology().file_names() {
        let _ = write!(
            out,
            ",\n  \"topology\": {{\"shape\": \"{shape}\", \"staggeraxis\": \"{axis}\", \"staggerindex\": \"{index}\"}}"
        );
    }
    out.push_str("\n}\n");
    out
}

/// Writes the `heights` (one row a line, each value as short as round-trips) and `slope`.
fn write_heights(out: &mut String, grid: &Grid, heights: &[f32]) {
    out.push_str(",\n  \"heights\": {\"scale\": 1, \"rows\": [\n");
    let rows = heights.chunks(grid.width() as usize);
    let last = grid.height() as usize - 1;
    for (y, row) in rows.enumerate() {
        out.push_str("    [");
        for (x, h) in row.iter().enumerate() {
            if x > 0 {
                out.push_str(", ");
            }
            // f32's Display is its shortest round-tripping form; `-0` is written as 0.
            let _ = write!(out, "{}", if *h == 0.0 { 0.0 } else { *h });
        }
        out.push_str(if y == last { "]\n" } else { "],\n" });
    }
    out.push_str("  ]}");
    let slope = grid.slope();
    let n = |v: f64| serde_json::to_string(&v).unwrap_or_else(|_| "0".to_owned());
    let _ = write!(
        out,
        ",\n  \"slope\": {{\"uphill\": {}, \"downhill\": {}",
        n(slope.uphill),
        n(slope.downhill)
    );
    if let Some(limit) = slope.max_climb {
        let _ = write!(out, ", \"max_climb\": {}", n(limit));
    }
    out.push('}');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::HexLayout;

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
    fn heights_and_slope_round_trip_and_a_flat_map_stays_version_1() {
        let mut map = parse(DEMO).unwrap();
        assert!(to_string(&map).contains("\"version\": 1,"));
        let heights = (0..12).map(|i| i as f32 * 0.37 - 1.5).collect();
        map.grid.set_heights(Some(heights)).unwrap();
        map.grid
            .set_slope(Slope {
                uphill: 2.5,
                downhill: 0.0,
                max_climb: Some(1.25),
            })
            .unwrap();
        let text = to_string(&map);
        assert!(text.contains("\"version\": 2,"));
        assert_eq!(parse(&text).unwrap(), map);
    }

    #[test]
    fn waypoints_round_trip_and_must_lie_on_the_map() {
        let mut map = parse(DEMO).unwrap();
        map.waypoints = vec![Cell::new(1, 1), Cell::new(3, 0)];
        let text = to_string(&map);
        assert!(
            text.contains("\"version\": 1,"),
            "waypoints need no new version"
        );
        assert_eq!(parse(&text).unwrap(), map);
        let e = parse(&text.replace("[3, 0]]", "[9, 0]]"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("waypoint") && e.contains('9'), "{e}");
    }

    #[test]
    fn heights_are_scaled_checked_and_their_errors_name_the_row() {
        let with = |heights: &str| {
            DEMO.replacen("\"version\": 1", "\"version\": 2", 1)
                .replacen("\"start\"", &format!("{heights}, \"start\""), 1)
        };
        let map = parse(&with(
            r#""heights": {"scale": 0.5, "rows": [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]}"#,
        ))
        .unwrap();
        assert_eq!(map.grid.height_at(Cell::new(3, 2)), 5.5);
        assert_eq!(map.grid.slope(), Slope::DEFAULT);
        let e = parse(&with(
            r#""heights": {"rows": [[0, 1, 2, 3], [4, 5, 6], [8, 9, 10, 11]]}"#,
        ))
        .unwrap_err()
        .to_string();
        assert!(e.contains("row 1") && e.contains("expected 4"), "{e}");
        let e = parse(&with(
            r#""heights": {"rows": [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 1e9, 11]]}"#,
        ))
        .unwrap_err()
        .to_string();
        assert!(e.contains("row 2") && e.contains("column 2"), "{e}");
        let e = parse(&with(
            r#""heights": {"rows": [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]}, "slope": {"uphill": -1}"#,
        ))
        .unwrap_err()
        .to_string();
        assert!(e.contains("uphill"), "{e}");
        let e = parse(&DEMO.replacen("\"version\": 1", "\"version\": 4", 1))
            .unwrap_err()
            .to_string();
        assert!(e.contains("versions 1 to 3"), "{e}");
    }

    #[test]
    fn hex_maps_are_version_3_and_round_trip_in_every_layout() {
        let square = parse(DEMO).unwrap();
        assert_eq!(square.grid.topology(), Topology::Square);
        for layout in HexLayout::ALL {
            let mut map = square.clone();
            map.grid.set_topology(Topology::Hex(layout));
            let text = to_string(&map);
            assert!(text.contains("\"version\": 3,"), "{text}");
            assert_eq!(parse(&text).unwrap(), map);
        }
        // A topology in an older version is not read; a wrong one in version 3 is named.
        let old = DEMO.replacen(
            "\"rows\"",
            "\"topology\": {\"shape\": \"hex\"}, \"rows\"",
            1,
        );
        assert_eq!(parse(&old).unwrap().grid.topology(), Topology::Square);
        let three = old.replacen("\"version\": 1", "\"version\": 3", 1);
        assert_eq!(
            parse(&three).unwrap().grid.topology(),
            Topology::Hex(HexLayout::ODD_R)
        );
        let e = parse(&three.replacen("\"hex\"", "\"triangle\"", 1))
            .unwrap_err()
            .to_string();
        assert!(e.contains("triangle") && e.contains("topology"), "{e}");
    }

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
