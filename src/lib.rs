//! gridpath: a weighted-terrain grid and the searches that run over it.
//!
//! The library is the whole pathfinding engine — the map model ([`grid`]), the search
//! algorithms ([`search`]), path smoothing ([`smooth`]) and the file formats ([`format`]). It
//! never touches a user interface: the desktop editor and the command line are thin layers over it.
//!
//! ```
//! use gridpath::grid::{Cell, Grid};
//! use gridpath::search::{self, Algorithm, SearchRequest};
//!
//! let grid = Grid::from_ascii(&["....", ".##.", "...."]).expect("valid map");
//! let request = SearchRequest::new(Cell::new(0, 1), Cell::new(3, 1));
//! let result = search::solve(&grid, &request).expect("valid request");
//! assert!(result.found);
//! assert_eq!(result.path.first(), Some(&Cell::new(0, 1)));
//! assert_eq!(result.path.last(), Some(&Cell::new(3, 1)));
//! assert_eq!(request.algorithm, Algorithm::AStar);
//! ```

pub mod format;
pub mod grid;
pub mod search;
pub mod smooth;

#[cfg(feature = "editor")]
pub mod app;
