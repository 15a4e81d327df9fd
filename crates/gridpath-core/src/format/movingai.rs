//! The Moving AI benchmark formats (Sturtevant 2012): `.map` grids and `.scen` query lists.
//!
//! A `.map` read into gridpath keeps each character as its own terrain, so it can be written
//! back unchanged: `.` `G` `S` passable at cost 1 (the benchmark's costs, not gridpath's
//! default Swamp), `@` `O` `T` `W` impassable.

use std::fmt::Write as _;

use super::{FormatError, excerpt};
use crate::grid::{Cell, Grid, Rgb, Terrain, TerrainId};

/// The characters of the format with their terrains, in catalog order.
fn benchmark_terrains() -> [Terrain; 7] {
    [
        Terrain::passable("Ground", '.', Rgb([0xd8, 0xd2, 0xc0]), 1.0),
        Terrain::passable("Ground (G)", 'G', Rgb([0xc8, 0xc8, 0xa8]), 1.0),
        Terrain::passable("Swamp (passable)", 'S', Rgb([0x8f, 0xa8, 0x6e]), 1.0),
        Terrain::impassable("Out of bounds", '@', Rgb([0x10, 0x10, 0x10])),
        Terrain::impassable("Out of bounds (O)", 'O', Rgb([0x30, 0x30, 0x30])),
        Terrain::impassable("Trees", 'T', Rgb([0x1f, 0x4d, 0x1f])),
        Terrain::impassable("Water", 'W', Rgb([0x2a, 0x52, 0x9e])),
    ]
}

/// Parses a `.map` file's text. Accepts CRLF line ends and the header lines in any order.
pub fn parse_map(text: &str) -> Result<Grid, FormatError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')));
    let (mut width, mut height) = (None, None);
    loop {
        let Some((line, content)) = lines.next() else {
            return Err(FormatError::Header {
                line: 1,
                message: "no \"map\" line: this is not a Moving AI map".into(),
            });
        };
        let mut words = content.split_whitespace();
        let key = words.next().unwrap_or("");
        let value = words.next();
        let number = |value: Option<&str>| -> Result<u64, FormatError> {
            value
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| FormatError::Header {
                    line,
                    message: format!(
                        "{} needs a whole number, got {}",
                        excerpt(key),
                        excerpt(content)
                    ),
                })
        };
        match key {
            "type" => {}
            "height" => height = Some(number(value)?),
            "width" => width = Some(number(value)?),
            "map" => break,
            "" => {}
            _ => {
                return Err(FormatError::Header {
                    line,
                    message: format!(
                        "unexpected header line {} (expected type, height, width or map)",
                        excerpt(content)
                    ),
                });
            }
        }
    }
    let (Some(width), Some(height)) = (width, height) else {
        return Err(FormatError::Header {
            line: 1,
            message: "the header must give both height and width".into(),
        });
    };
    let max = u64::from(Grid::MAX_SIDE);
    if width == 0 || height == 0 || width > max || height > max {
        return Err(FormatError::Size { width, height });
    }
    let (w, h) = (width as usize, height as usize);
    let all = benchmark_terrains();
    let mut table = [None::<usize>; 128];
    for (i, t) in all.iter().enumerate() {
        table[t.symbol as usize] = Some(i);
    }
    let mut raw = Vec::with_capacity(w * h);
    let mut used = [false; 7];
    let mut rows = 0;
    for (line, content) in lines {
        if rows == h {
            if content.trim().is_empty() {
                continue;
            }
            return Err(FormatError::RowCount {
                expected: h,
                found: rows + 1,
            });
        }
        let found = content.chars().count();
        if found != w {
            return Err(FormatError::RowLength {
                row: rows,
                line: Some(line),
                expected: w,
                found,
            });
        }
        for (x, c) in content.chars().enumerate() {
            let Some(t) = table.get(c as usize).copied().flatten() else {
                return Err(FormatError::UnknownSymbol {
                    symbol: c,
                    row: rows,
                    column: x,
                    line: Some(line),
                });
            };
            used[t] = true;
            raw.push(t as u8);
        }
        rows += 1;
    }
    if rows != h {
        return Err(FormatError::RowCount {
            expected: h,
            found: rows,
        });
    }
    // Keep only the terrains the map uses, in the fixed order.
    let mut remap = [0u8; 7];
    let mut terrains = Vec::new();
    for (i, t) in all.into_iter().enumerate() {
        if used[i] {
            remap[i] = terrains.len() as TerrainId;
            terrains.push(t);
        }
    }
    for cell in &mut raw {
        *cell = remap[usize::from(*cell)];
    }
    Ok(Grid::from_cells(w as u32, h as u32, terrains, raw)?)
}

/// Writes a grid as a `.map` file. A terrain whose symbol is a Moving AI character of the same
/// passability keeps it; other passable terrains become `.`, impassable ones `@`.
pub fn write_map(grid: &Grid) -> String {
    let passable = ['.', 'G', 'S'];
    let blocked = ['@', 'O', 'T', 'W'];
    let symbols: Vec<char> = grid
        .terrains()
        .iter()
        .map(|t| match (t.is_passable(), t.symbol) {
            (true, s) if passable.contains(&s) => s,
            (false, s) if blocked.contains(&s) => s,
            (true, _) => '.',
            (false, _) => '@',
        })
        .collect();
    let mut out = String::with_capacity(grid.len() + grid.height() as usize + 64);
    let _ = write!(
        out,
        "type octile\nheight {}\nwidth {}\nmap\n",
        grid.height(),
        grid.width()
    );
    for row in grid.cells().chunks(grid.width() as usize) {
        out.extend(row.iter().map(|&id| symbols[usize::from(id)]));
        out.push('\n');
    }
    out
}

/// One query of a scenario file.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenQuery {
    /// The bucket (a difficulty class: optimal length / 4 in most sets).
    pub bucket: u32,
    /// The map file the query is for, as the file writes it.
    pub map: String,
    /// The map width the query expects.
    pub map_width: u32,
    /// The map height the query expects.
    pub map_height: u32,
    /// The start cell.
    pub start: Cell,
    /// The goal cell.
    pub goal: Cell,
    /// The optimal path length the file gives.
    pub optimal: f64,
    /// How many decimals the file printed the optimal length with.
    pub decimals: u32,
    /// The 1-based line of the query in the file.
    pub line: usize,
}

impl ScenQuery {
    /// How far a computed cost may stray from the printed optimum: half a unit of the last
    /// printed decimal, plus 1e-7 × optimal for the rounding of √2 in the generator.
    pub fn tolerance(&self) -> f64 {
        0.5 * 10f64.powi(-(self.decimals as i32)) + 1e-7 * self.optimal
    }

    /// Whether `cost` matches the optimum within [`ScenQuery::tolerance`].
    pub fn matches(&self, cost: f64) -> bool {
        (cost - self.optimal).abs() <= self.tolerance()
    }
}

/// Parses a `.scen` file's text: a `version` line, then one query per line.
pub fn parse_scen(text: &str) -> Result<Vec<ScenQuery>, FormatError> {
    let mut queries = Vec::new();
    for (i, content) in text.lines().enumerate() {
        let line = i + 1;
        let content = content.trim();
        if content.is_empty() || (i == 0 && content.starts_with("version")) {
            continue;
        }
        let fields: Vec<&str> = content.split_whitespace().collect();
        let bad = |message: String| FormatError::Header { line, message };
        let [bucket, map, mw, mh, sx, sy, gx, gy, optimal] = fields[..] else {
            return Err(bad(format!(
                "a query has 9 fields, this line has {}",
                fields.len()
            )));
        };
        let int = |name: &str, v: &str| -> Result<u32, FormatError> {
            v.parse()
                .map_err(|_| bad(format!("{name} must be a whole number, got {}", excerpt(v))))
        };
        let length: f64 = optimal
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite() && *v >= 0.0)
            .ok_or_else(|| {
                bad(format!(
                    "the optimal length must be a number, got {}",
                    excerpt(optimal)
                ))
            })?;
        let decimals = optimal
            .split_once('.')
            .map_or(0, |(_, frac)| frac.len() as u32);
        queries.push(ScenQuery {
            bucket: int("the bucket", bucket)?,
            map: map.to_owned(),
            map_width: int("the map width", mw)?,
            map_height: int("the map height", mh)?,
            start: Cell::new(int("start x", sx)?, int("start y", sy)?),
            goal: Cell::new(int("goal x", gx)?, int("goal y", gy)?),
            optimal: length,
            decimals,
            line,
        });
    }
    Ok(queries)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAP: &str = "type octile\r\nheight 3\r\nwidth 4\r\nmap\r\n.G@T\r\nS..W\r\n....\r\n";

    #[test]
    fn a_map_round_trips_byte_for_byte() {
        let grid = parse_map(MAP).unwrap();
        assert_eq!((grid.width(), grid.height()), (4, 3));
        assert!(
            grid.is_passable(Cell::new(0, 1)),
            "S is passable in the benchmark"
        );
        assert!(!grid.is_passable(Cell::new(3, 1)));
        assert_eq!(grid.terrains().len(), 6, "only the characters used");
        assert_eq!(write_map(&grid), MAP.replace("\r\n", "\n"));
    }

    #[test]
    fn bad_maps_say_where() {
        let e = parse_map("type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n").unwrap_err();
        assert_eq!(
            e,
            FormatError::UnknownSymbol {
                symbol: 'x',
                row: 1,
                column: 1,
                line: Some(6)
            }
        );
        let e = parse_map("type octile\nheight 2\nwidth 3\nmap\n...\n..\n").unwrap_err();
        assert_eq!(
            e,
            FormatError::RowLength {
                row: 1,
                line: Some(6),
                expected: 3,
                found: 2
            }
        );
        let e = parse_map("type octile\nheight 3\nwidth 3\nmap\n...\n").unwrap_err();
        assert_eq!(
            e,
            FormatError::RowCount {
                expected: 3,
                found: 1
            }
        );
        let e = parse_map("type octile\nheight 99999\nwidth 3\nmap\n").unwrap_err();
        assert_eq!(
            e,
            FormatError::Size {
                width: 3,
                height: 99999
            }
        );
        assert!(matches!(
            parse_map("height x\n").unwrap_err(),
            FormatError::Header { line: 1, .. }
        ));
        assert!(matches!(
            parse_map("").unwrap_err(),
            FormatError::Header { .. }
        ));
    }

    #[test]
    fn scenario_lines_parse_with_their_precision() {
        let text =
            "version 1\n0\tmaps/a.map\t4\t3\t0\t0\t3\t2\t3.82842712\n2 a.map 4 3 1 1 2 2 244.95\n";
        let q = parse_scen(text).unwrap();
        assert_eq!(q.len(), 2);
        assert_eq!(q[0].goal, Cell::new(3, 2));
        assert_eq!(q[0].decimals, 8);
        assert_eq!(q[1].decimals, 2);
        assert!(q[1].matches(244.954));
        assert!(!q[1].matches(244.956));
        assert_eq!(q[1].line, 3);
        assert!(parse_scen("version 1\n0 a.map 4 3 0 0 3\n").is_err());
    }
}
