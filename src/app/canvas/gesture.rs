//! What a drag on the canvas is doing, from the press to the release.

use crate::grid::{Cell, TerrainId};

use super::sculpt::HeightStroke;
use super::stroke::Stroke as BrushStroke;

/// A marker of the map that the user drags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    /// Where the path starts.
    Start,
    /// Where the path ends.
    Goal,
    /// A waypoint the route visits, by its place in the map's list.
    Waypoint(usize),
}

/// What a drag on the canvas is doing.
pub enum Gesture {
    /// Freehand painting with the brush or eraser.
    Paint(BrushStroke),
    /// Freehand raising, lowering or flattening of the ground.
    Sculpt(HeightStroke),
    /// A straight line from where the drag started (Line tool, or Shift with the brush).
    Line {
        /// The first cell.
        from: Cell,
        /// The cell under the pointer.
        to: Cell,
        /// The terrain it paints.
        terrain: TerrainId,
    },
    /// A rectangle between the drag's corners.
    Rectangle {
        /// The first corner.
        from: Cell,
        /// The corner under the pointer.
        to: Cell,
    },
    /// Moving a marker.
    Marker(Marker),
    /// Measuring from the first cell to the one under the pointer.
    Measure {
        /// Where the drag started.
        from: Cell,
        /// The cell under the pointer.
        to: Cell,
    },
    /// Adding a unit: from its start to the cell under the pointer, its goal.
    Agent {
        /// Where the drag started: the unit's start.
        from: Cell,
        /// The cell under the pointer.
        to: Cell,
    },
    /// Moving the view by dragging on the minimap.
    Minimap,
    /// A box dragged with the right button, to zoom into (screen positions).
    ZoomBox {
        /// Where the drag started.
        from: egui::Pos2,
        /// Where the pointer is.
        to: egui::Pos2,
    },
    /// Moving the view.
    Pan,
}
