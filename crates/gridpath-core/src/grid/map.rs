use super::{Cell, GeoReference, Grid};

/// A map document: a named grid with an optional start and goal.
#[derive(Clone, Debug, PartialEq)]
pub struct Map {
    /// The map's name, shown in the editor's title.
    pub name: String,
    /// The terrain grid.
    pub grid: Grid,
    /// Where searches start by default.
    pub start: Option<Cell>,
    /// Where searches end by default.
    pub goal: Option<Cell>,
    /// Cells a route visits between the start and the goal, in the order given.
    pub waypoints: Vec<Cell>,
    /// The map's scale and placement in the world, for maps imported from robot occupancy
    /// maps; `None` for maps drawn by hand.
    pub metadata: Option<GeoReference>,
}

impl Map {
    /// A map with no start or goal.
    pub fn new(name: impl Into<String>, grid: Grid) -> Self {
        Self {
            name: name.into(),
            grid,
            start: None,
            goal: None,
            waypoints: Vec::new(),
            metadata: None,
        }
    }
}
