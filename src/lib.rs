//! gridpath: the desktop map editor and the command line over [`gridpath_core`], the
//! pathfinding engine.
//!
//! The engine's modules are re-exported here, so `gridpath::grid`, `gridpath::search`,
//! `gridpath::smooth` and `gridpath::format` are the core crate's. A program that needs the
//! engine alone depends on `gridpath-core`, which builds without egui, clap or anyhow.
//!
//! ```
//! use gridpath::grid::{Cell, Grid};
//! use gridpath::search::{self, SearchRequest};
//!
//! let grid = Grid::from_ascii(&["....", ".##.", "...."]).expect("valid map");
//! let result = search::solve(&grid, &SearchRequest::new(Cell::new(0, 1), Cell::new(3, 1)))
//!     .expect("valid request");
//! assert!(result.found);
//! ```

pub use gridpath_core::{drive, format, grid, mapf, motion, scenario, search, smooth};

#[cfg(feature = "editor")]
pub mod app;
