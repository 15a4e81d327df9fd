use std::fmt;
use std::str::FromStr;

/// The index of a terrain in a grid's catalog. A grid holds at most 256 terrains.
pub type TerrainId = u8;

/// An sRGB colour, written `#rrggbb` in files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgb(pub [u8; 3]);

impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [r, g, b] = self.0;
        write!(f, "#{r:02x}{g:02x}{b:02x}")
    }
}

impl FromStr for Rgb {
    type Err = String;

    /// Parses `#rrggbb` (the `#` is optional).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let hex = s.strip_prefix('#').unwrap_or(s);
        let bad = || format!("colour {s:?} is not of the form \"#rrggbb\"");
        if hex.len() != 6 || !hex.is_ascii() {
            return Err(bad());
        }
        let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|_| bad());
        Ok(Self([channel(0)?, channel(2)?, channel(4)?]))
    }
}

/// A kind of ground: how it looks and what it costs to cross.
#[derive(Clone, Debug, PartialEq)]
pub struct Terrain {
    /// The name shown to the user, e.g. "Swamp".
    pub name: String,
    /// The character that stands for this terrain in map files.
    pub symbol: char,
    /// The colour the editor paints it with.
    pub color: Rgb,
    /// The movement cost of one unit of distance on this terrain; `None` is impassable.
    pub cost: Option<f64>,
}

impl Terrain {
    /// A passable terrain with the given cost.
    pub fn passable(name: &str, symbol: char, color: Rgb, cost: f64) -> Self {
        Self {
            name: name.to_owned(),
            symbol,
            color,
            cost: Some(cost),
        }
    }

    /// An impassable terrain.
    pub fn impassable(name: &str, symbol: char, color: Rgb) -> Self {
        Self {
            name: name.to_owned(),
            symbol,
            color,
            cost: None,
        }
    }

    /// Whether units may stand on and cross this terrain.
    pub fn is_passable(&self) -> bool {
        self.cost.is_some()
    }

    /// The default catalog: Grass 1.0 (`.`), Road 0.5 (`=`), Swamp 3.0 (`~`), Wall impassable (`#`).
    pub fn default_catalog() -> Vec<Terrain> {
        vec![
            Terrain::passable("Grass", '.', Rgb([0x6a, 0xbe, 0x30]), 1.0),
            Terrain::passable("Road", '=', Rgb([0xc8, 0xb5, 0x8c]), 0.5),
            Terrain::passable("Swamp", '~', Rgb([0x4b, 0x6b, 0x3a]), 3.0),
            Terrain::impassable("Wall", '#', Rgb([0x22, 0x22, 0x22])),
        ]
    }

    /// The cheapest cost a passable terrain may have.
    pub const MIN_COST: f64 = 1e-6;
    /// The dearest cost a passable terrain may have.
    ///
    /// With costs in [`MIN_COST`](Self::MIN_COST)`..=`[`MAX_COST`](Self::MAX_COST), no sum of
    /// step costs can overflow or underflow: the longest path on the largest map allowed
    /// ([`Grid::MAX_CELLS`](super::Grid::MAX_CELLS) = 2³⁰ cells, each step at most √2 long)
    /// costs at most about 1.5e15, and the cheapest step 1e-6, both far inside the normal
    /// range of `f64`, and the ratio of the two (1e12 · 2³⁰ < 2⁵³ · 1e6) keeps a path's
    /// rounding error below a millionth of its cost.
    pub const MAX_COST: f64 = 1e6;

    /// Checks a passable terrain's cost: a number from [`MIN_COST`](Self::MIN_COST) to
    /// [`MAX_COST`](Self::MAX_COST).
    pub fn check_cost(cost: f64) -> Result<(), String> {
        if (Self::MIN_COST..=Self::MAX_COST).contains(&cost) {
            return Ok(());
        }
        Err(format!(
            "cost {cost:e} is outside the range {:e} to {:e} (null for impassable)",
            Self::MIN_COST,
            Self::MAX_COST
        ))
    }

    /// Checks that the terrain can be used: a cost, when present, is within
    /// [`check_cost`](Self::check_cost)'s range, and the symbol is a printable character that
    /// a map row can hold.
    pub fn validate(&self) -> Result<(), String> {
        if let Some(cost) = self.cost {
            Self::check_cost(cost)?;
        }
        if self.symbol.is_control() || self.symbol == '"' || self.symbol == '\\' {
            return Err(format!(
                "symbol {:?} cannot stand in a map row",
                self.symbol
            ));
        }
        Ok(())
    }
}
