//! gridpath-core: a weighted-terrain grid and the searches that run over it.
//!
//! The whole pathfinding engine of gridpath — the map model ([`grid`]), the search algorithms
//! ([`search`]), path smoothing ([`smooth`]), the file formats ([`format`]) and Moving AI
//! scenario runs ([`scenario`]) — as a library a
//! game or a robot can depend on without the editor: it depends on no user interface, no
//! argument parser and no application error crate. Image import and export sit behind the
//! default feature `images` (the `image` crate).
//!
//! ```
//! use gridpath_core::grid::{Cell, Grid};
//! use gridpath_core::search::{self, Algorithm, SearchRequest};
//!
//! let grid = Grid::from_ascii(&["....", ".##.", "...."]).expect("valid map");
//! let request = SearchRequest::new(Cell::new(0, 1), Cell::new(3, 1));
//! let result = search::solve(&grid, &request).expect("valid request");
//! assert!(result.found);
//! assert_eq!(result.path.first(), Some(&Cell::new(0, 1)));
//! assert_eq!(result.path.last(), Some(&Cell::new(3, 1)));
//! assert_eq!(request.algorithm, Algorithm::AStar);
//! ```

mod control;
pub mod drive;
mod fast_hash;
pub mod format;
pub mod grid;
pub mod mapf;
pub mod motion;
mod rng;
pub mod scenario;
pub mod search;
pub mod smooth;
#[cfg(test)]
pub(crate) mod test_data;
