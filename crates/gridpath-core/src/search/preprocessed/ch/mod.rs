//! Contraction hierarchies (Geisberger, Sanders, Schultes & Delling, 2008) over the grid graph,
//! built the customisable way (Dibbelt, Strasser & Wagner, 2016): exact queries on weighted
//! terrain, far faster than A* once the hierarchy is built.
//!
//! The contraction order comes from the shape of the grid alone, by nested dissection (see
//! `order.rs`): the passable cells are cut in two by a separator, a path of cells across
//! their bounding box that bends through walls to take as few passable cells as it can, and
//! the separator's cells come after everything on either side of it, each side being ordered
//! the same way first.
//!
//! Contracting a cell joins every pair of its neighbours that come later in the order (its
//! *upward* neighbours) with a shortcut; there is no witness search. The shortcuts are known
//! before any cost is: an upward neighbour set becomes a clique, and its lowest member, the
//! cell's parent in the *elimination tree*, inherits the rest. The costs come in two passes
//! over each cell's pairs of upward neighbours. Bottom up, an edge takes the cost of the way
//! through the cell below it when cheaper, remembering that cell as its middle: every edge
//! then costs the cheapest path between its ends through cells that come before both. Top down, an
//! edge takes the cost through cells above it too, so that every edge costs the cheapest path
//! between its ends; an edge is left out of the queries when a way round through another
//! upward neighbour of its lower end costs no more than its cost bottom up, both found in
//! the same look at each pair (each of the two edges of that way costs strictly less than
//! the edge, steps costing more than nothing, so by induction on the cost whatever is left
//! out has a replacement among the searched edges; on a map whose costs lie so far apart
//! that a sum may round to one of its terms, only a way strictly cheaper counts). The
//! edges that the searched ones unpack into are kept for unpacking only.
//!
//! A cheapest path always has a form that climbs and then descends the order through the
//! edges searched, and the cells it climbs through from one end are that end's ancestors in
//! the elimination tree. A query therefore walks up the tree from both ends with no priority
//! queue, each side keeping its costs by depth in the tree (one ancestor at each depth), in
//! arrays as long as the tree is high; the common ancestors are where the two sides meet, and
//! the cheapest meeting wins. It relaxes the upward edges of an ancestor only when the cost it was
//! reached at, plus a lower bound on the cost from it to the other end, lies below a limit:
//! the bounds come from the costs to thirty-two landmarks kept with the hierarchy (see
//! `landmarks.rs`), and the limit starts a little above the bound between the two ends, by a
//! ratio the build calibrates to the map (see `limits.rs`), and grows when a walk finds no
//! meeting under it. Where the processor has AVX-512, a rank's
//! edges are relaxed a block of eight depths at a time (see `blocks.rs`). The shortcuts of
//! the path found are unpacked into the cells they stand for, so the answer is a full
//! cell-by-cell path: each edge keeps either its steps themselves (up to fourteen, or
//! thirty-one in two directions) or the indices of its two halves, so that unpacking reads
//! one link an edge and searches no list; the path's cost and length are summed from its
//! steps as they are laid out.
//!
//! The smallest subtrees of the elimination tree, of at most sixteen cells, are left out of the
//! hierarchy as *regions* (see `regions.rs`): a query from a cell of a region searches the
//! region's few cells on the grid and starts its walk at the region's parent, with the costs
//! of the ranks around the region that it reached; a shortcut whose way lies through a region
//! and is too long for its link is unpacked by the same search. They hold some 60% of the
//! cells, which keep no landmarks' row, edges nor links.
//!
//! Where every terrain's cost is a whole number of some power of two (see `costs.rs`), each
//! searched edge's cost is kept as two counts in 32 bits rather than an `f64`. Once built,
//! the tables ask for huge pages (see `huge_pages.rs`): a query's reads are spread over them.
//!
//! Steps cost the same both ways on a flat map, so one set of upward edges serves both
//! searches. Maps with heights, whose steps may cost more one way than the other, are refused.
//! The diagonal rule is part of the graph: a hierarchy serves the rule it was built for.
//!
//! The code is laid out by what a reader looks for: the build, from the order to the
//! calibrated limits, in `build.rs`; the query, the walks up the tree from both ends, in
//! `query.rs`; and unpacking a path's edges into cells in `unpack.rs`. All three share the
//! hierarchy's tables (`hierarchy.rs`), which hold the links that unpack an edge
//! (`links.rs`) and a query's two sides (`side.rs`); `edges.rs` keeps what every part says of
//! ranks and upward edges.
//!
//! ```
//! use gridpath_core::grid::{Cell, Grid};
//! use gridpath_core::search::{Algorithm, ContractionHierarchy, Diagonal, SearchRequest};
//!
//! let grid = Grid::from_ascii(&["....~~....", ".##.~~.##.", "....==...."]).expect("a valid map");
//! let mut ch = ContractionHierarchy::build(&grid, Diagonal::NoCut);
//! let request = SearchRequest::new(Cell::new(0, 0), Cell::new(9, 2))
//!     .with_algorithm(Algorithm::ContractionHierarchy);
//! let result = ch.find_path(&request).expect("a valid request");
//! assert!(result.found);
//! assert_eq!(result.path.first(), Some(&Cell::new(0, 0)));
//! assert_eq!(result.path.last(), Some(&Cell::new(9, 2)));
//! ```

mod blocks;
mod build;
mod costs;
mod customize;
mod edges;
mod hierarchy;
mod landmarks;
mod limits;
mod links;
mod order;
mod query;
mod regions;
mod side;
#[cfg(test)]
mod tests;
mod unpack;

pub use edges::{CH_MAX_CELLS, CH_MAX_EDGES};
pub use hierarchy::ContractionHierarchy;

use crate::control::SearchControl;
use crate::search::graph::SearchGraph;
use crate::search::request::{Algorithm, SearchError, SearchRequest, SearchResult};

/// Builds the hierarchy for one query and answers it: what `solve` and
/// [`crate::search::Searcher`] do for [`Algorithm::ContractionHierarchy`].
pub(crate) fn ch_once(
    graph: &SearchGraph,
    request: &SearchRequest,
    control: &SearchControl,
) -> Result<SearchResult, SearchError> {
    debug_assert_eq!(request.algorithm, Algorithm::ContractionHierarchy);
    ContractionHierarchy::check_request(graph, request)?;
    ContractionHierarchy::from_graph_controlled(graph.clone(), control)?.find_path(request)
}
