use crate::grid::Cell;

/// Why a path could not be smoothed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SmoothError {
    /// The path has no cells.
    #[error("the path is empty: there is nothing to smooth")]
    EmptyPath,
    /// A cell of the path lies off the map.
    #[error("cell {index} of the path, {cell}, is outside the {width} × {height} map")]
    OffMap {
        /// Its place in the path, from 0.
        index: usize,
        /// The cell.
        cell: Cell,
        /// The map's width.
        width: u32,
        /// The map's height.
        height: u32,
    },
    /// A cell of the path is impassable.
    #[error("cell {index} of the path, {cell}, is impassable")]
    Blocked {
        /// Its place in the path, from 0.
        index: usize,
        /// The cell.
        cell: Cell,
    },
    /// Two consecutive cells of the path are not neighbours.
    #[error("cells {index} and {next} of the path, {from} and {to}, are not neighbours", next = index + 1)]
    NotAdjacent {
        /// The place of the first of the two, from 0.
        index: usize,
        /// The first cell.
        from: Cell,
        /// The cell after it.
        to: Cell,
    },
    /// Two consecutive waypoints of an any-angle path are neither neighbours nor in line of
    /// sight.
    #[error("waypoints {index} and {next}, {from} and {to}, are not in line of sight", next = index + 1)]
    NotInSight {
        /// The place of the first of the two, from 0.
        index: usize,
        /// The first waypoint.
        from: Cell,
        /// The waypoint after it.
        to: Cell,
    },
    /// The tension is outside [0, 1].
    #[error("the tension must be a number from 0 to 1, got {0}")]
    BadTension(f64),
    /// The clearance is negative or not a finite number.
    #[error("the clearance must be a number of at least 0 cells, got {0}")]
    BadClearance(f64),
    /// The minimum turning radius is negative or not a finite number.
    #[error("the minimum turning radius must be a number of at least 0 cells, got {0}")]
    BadTurnRadius(f64),
    /// The clearance is larger than the map: no point of it could keep that far from its
    /// border.
    #[error(
        "the clearance {clearance} cells is larger than the {width} × {height} map: at most {max} cells",
        max = (*width).max(*height)
    )]
    ClearanceTooLarge {
        /// The clearance asked for.
        clearance: f64,
        /// The map's width.
        width: u32,
        /// The map's height.
        height: u32,
    },
    /// The smoothing was stopped through its [`SearchControl`](crate::control::SearchControl)
    /// before it finished.
    #[error("smoothing was cancelled before it finished")]
    Cancelled,
}
