use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A cell position: `x` is the column, `y` the row, `(0, 0)` the top-left cell.
///
/// In JSON a cell is the array `[x, y]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// The column, counted from the left edge.
    pub x: u32,
    /// The row, counted from the top edge.
    pub y: u32,
}

impl Cell {
    /// The cell at column `x`, row `y`.
    pub const fn new(x: u32, y: u32) -> Self {
        Self { x, y }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

impl Serialize for Cell {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        [self.x, self.y].serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let [x, y] = <[u32; 2]>::deserialize(deserializer)?;
        Ok(Self { x, y })
    }
}
