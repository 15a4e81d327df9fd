//! The map model: cells, terrains and the grid that holds them.

mod cell;
#[allow(clippy::module_inception)]
mod grid;
mod map;
mod terrain;

pub use cell::Cell;
pub use grid::{Grid, GridError};
pub use map::Map;
pub use terrain::{Rgb, Terrain, TerrainId};
