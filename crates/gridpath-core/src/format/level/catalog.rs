//! The terrain catalog of an imported level: one terrain per distinct tile, class or value,
//! each given a unique symbol and a colour.

use super::{LevelError, TerrainSource};
use crate::grid::{Rgb, Terrain};

/// A terrain found in a level, before it has a symbol.
#[derive(Clone, Debug, PartialEq)]
pub struct TerrainSpec {
    /// The terrain's name.
    pub name: String,
    /// Its cost; `None` is impassable.
    pub cost: Option<f64>,
    /// Its colour, when the level gives one; otherwise one is derived from the name.
    pub color: Option<Rgb>,
    /// The symbol the level asks for, when it is free.
    pub symbol: Option<char>,
    /// Where it came from.
    pub source: TerrainSource,
}

impl TerrainSpec {
    /// The floor of empty cells: passable at cost 1.
    pub fn floor() -> Self {
        Self {
            name: "floor".to_owned(),
            cost: Some(1.0),
            color: Some(Rgb([0xd8, 0xd8, 0xd0])),
            symbol: Some('.'),
            source: TerrainSource::Empty,
        }
    }

    /// The wall of a collision layer or of solid objects: impassable.
    pub fn wall(from: String) -> Self {
        Self {
            name: "wall".to_owned(),
            cost: None,
            color: Some(Rgb([0x22, 0x22, 0x22])),
            symbol: Some('#'),
            source: TerrainSource::Wall { from },
        }
    }
}

impl TerrainSpec {
    /// The cells of an infinite map that lie in no chunk: impassable.
    pub fn outside() -> Self {
        Self {
            name: "outside".to_owned(),
            cost: None,
            color: Some(Rgb([0x10, 0x10, 0x18])),
            symbol: Some('_'),
            source: TerrainSource::Outside,
        }
    }
}

/// The most terrains a grid holds.
pub const MAX_TERRAINS: usize = 256;

/// The terrains of the specs, in order, each with a unique symbol (its own when free) and a
/// colour (its own, or one derived from its name).
pub fn terrains(specs: Vec<TerrainSpec>) -> Result<(Vec<Terrain>, Vec<TerrainSource>), LevelError> {
    if specs.len() > MAX_TERRAINS {
        return Err(LevelError::TooManyTerrains(specs.len()));
    }
    let mut taken: Vec<char> = Vec::with_capacity(specs.len());
    let mut wanted = Vec::with_capacity(specs.len());
    // Symbols asked for go to the first terrain asking, so that the others keep theirs.
    for spec in &specs {
        let free = spec.symbol.filter(|&c| usable(c) && !taken.contains(&c));
        if let Some(c) = free {
            taken.push(c);
        }
        wanted.push(free);
    }
    let mut pool = symbol_pool().filter(|c| !taken.contains(c));
    let mut terrains = Vec::with_capacity(specs.len());
    let mut sources = Vec::with_capacity(specs.len());
    for (spec, symbol) in specs.into_iter().zip(wanted) {
        let Some(symbol) = symbol.or_else(|| pool.next()) else {
            return Err(LevelError::TooManyTerrains(terrains.len() + 1));
        };
        terrains.push(Terrain {
            color: spec.color.unwrap_or_else(|| color_of_name(&spec.name)),
            name: spec.name,
            symbol,
            cost: spec.cost,
        });
        sources.push(spec.source);
    }
    Ok((terrains, sources))
}

/// Whether a character can stand for a terrain in a map row.
fn usable(c: char) -> bool {
    !c.is_control() && !c.is_whitespace() && c != '"' && c != '\\'
}

/// Symbols to hand out: printable ASCII, then Latin-1 and Latin Extended letters — more than
/// [`MAX_TERRAINS`] of them.
fn symbol_pool() -> impl Iterator<Item = char> {
    let alphanumeric = |c: &char| c.is_ascii_alphanumeric();
    ('a'..='z')
        .chain('A'..='Z')
        .chain('0'..='9')
        .chain(('!'..='~').filter(move |c| !alphanumeric(c)))
        .chain('\u{a1}'..='\u{24f}')
        .filter(|&c| usable(c))
}

/// A stable, fairly saturated colour derived from a name (FNV-1a hash to a hue).
pub fn color_of_name(name: &str) -> Rgb {
    let mut hash: u32 = 0x811c_9dc5;
    for b in name.bytes() {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    let hue = f64::from(hash % 360);
    let (s, v) = (0.55, 0.8);
    let c = v * s;
    let x = c * (1.0 - ((hue / 60.0) % 2.0 - 1.0).abs());
    let (r, g, b) = match (hue / 60.0) as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = v - c;
    let channel = |k: f64| ((k + m) * 255.0).round() as u8;
    Rgb([channel(r), channel(g), channel(b)])
}

/// Parses a Tiled colour: `#rrggbb` or `#aarrggbb` (the alpha is dropped).
pub fn parse_color(text: &str) -> Option<Rgb> {
    let hex = text.strip_prefix('#').unwrap_or(text);
    let hex = match hex.len() {
        8 => &hex[2..],
        6 => hex,
        _ => return None,
    };
    hex.parse::<Rgb>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str, symbol: Option<char>) -> TerrainSpec {
        TerrainSpec {
            name: name.to_owned(),
            cost: Some(1.0),
            color: None,
            symbol,
            source: TerrainSource::Empty,
        }
    }

    #[test]
    fn symbols_are_unique_and_asked_for_ones_kept() {
        let (terrains, _) = terrains(vec![
            spec("a", None),
            spec("b", Some('a')),
            spec("c", Some('a')),
            spec("d", Some('"')),
        ])
        .unwrap();
        let symbols: Vec<char> = terrains.iter().map(|t| t.symbol).collect();
        assert_eq!(symbols, ['b', 'a', 'c', 'd']);
        assert_eq!(terrains[0].color, color_of_name("a"));
    }

    #[test]
    fn up_to_256_terrains_get_symbols_and_more_are_refused() {
        let specs: Vec<_> = (0..256).map(|i| spec(&format!("t{i}"), None)).collect();
        let (terrains, _) = terrains(specs.clone()).unwrap();
        crate::grid::Grid::new(1, 1, terrains, 0).unwrap();
        let mut more = specs;
        more.push(spec("one more", None));
        assert_eq!(
            super::terrains(more).unwrap_err(),
            LevelError::TooManyTerrains(257)
        );
    }

    #[test]
    fn tiled_colours_parse_with_or_without_alpha() {
        assert_eq!(parse_color("#ff102030"), Some(Rgb([0x10, 0x20, 0x30])));
        assert_eq!(parse_color("#102030"), Some(Rgb([0x10, 0x20, 0x30])));
        assert_eq!(parse_color("red"), None);
    }
}
