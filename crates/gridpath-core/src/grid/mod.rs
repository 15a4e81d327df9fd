//! The map model: cells, terrains, the grid that holds them and the shape of its cells
//! ([`Topology`]: squares or hexes).

mod capabilities;
mod cell;
mod crossings;
mod endpoints;
mod geo_reference;
mod geometry;
#[expect(
    clippy::module_inception,
    reason = "the grid is the module's main type, named after it"
)]
mod grid;
mod heights;
mod integral;
mod map;
mod terrain;
mod topology;
mod walls;

pub use capabilities::StepsTo;
pub use cell::Cell;
pub(crate) use crossings::square_stops;
pub use endpoints::{MarkerRegion, farthest_apart, farthest_from, marker_region};
pub use geo_reference::GeoReference;
pub use geometry::Outline;
pub use grid::{Grid, GridError};
pub use heights::{MAX_HEIGHT, Slope};
pub(crate) use integral::square_integral;
pub use map::Map;
pub use terrain::{Rgb, Terrain, TerrainId};
pub use topology::{Hex, HexLayout, StaggerAxis, StaggerIndex, Topology};
