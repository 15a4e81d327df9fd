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
//! `query.rs`; and unpacking a path's edges into cells, with the links that make it possible,
//! in `unpack.rs`. This file keeps the hierarchy's tables, which all three share.
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
mod landmarks;
mod limits;
mod order;
mod query;
mod regions;
#[cfg(test)]
mod tests;
mod unpack;

use landmarks::Landmarks;
use limits::Limits;
use query::Side;
use regions::{Local, Regions};
use unpack::Links;

use crate::search::control::SearchControl;
use crate::search::graph::SearchGraph;
use crate::search::request::{Algorithm, SearchError, SearchRequest, SearchResult};

/// No cell, no rank: an edge that is a step of the grid has no middle cell, and the top of
/// the elimination tree has no parent.
const NONE: u32 = u32::MAX;

/// Moves `k` forward in `head` to the entry `target`, which the sorted list from `k` holds.
#[inline]
fn seek(head: &[u32], mut k: usize, target: u32) -> usize {
    while head[k] < target {
        k += 1;
    }
    debug_assert_eq!(
        head[k], target,
        "the upward neighbours of a cell form a clique"
    );
    k
}

/// A map prepared for exact queries by contraction: every passable cell's upward edges.
///
/// Build it once per map and diagonal rule ([`ContractionHierarchy::build`]); queries
/// ([`ContractionHierarchy::find_path`]) return a cheapest path. An edit to the map calls for
/// a new build (a [`crate::search::Replanner`] drops its hierarchy on an edit and builds it again on
/// the next request that needs it).
///
/// Cells are numbered by *rank*, their place in the contraction order, in every array below
/// but `rank`. The edges are kept as flat arrays indexed by 32-bit offsets: a rank's upward
/// edges that the queries search, then those kept to unpack shortcuts only.
#[derive(Debug)]
pub struct ContractionHierarchy {
    graph: SearchGraph,
    /// The cell of each rank.
    order: Vec<u32>,
    /// The rank of each cell ([`NONE`] for walls).
    rank: Vec<u32>,
    /// The parent of each rank in the elimination tree: its lowest upward neighbour.
    parent: Vec<u32>,
    /// The depth of each rank in the elimination tree, a root's 0: one less than its parent's.
    depth: Vec<u16>,
    /// The most ranks on a way up the elimination tree, the deepest rank's depth and one.
    height: usize,
    /// The upward edges of rank `r` that are kept are `head[first[r]..first[r + 1]]`: the
    /// `start[r + 1] - start[r]` that the queries search first, then those that only unpack
    /// shortcuts, each list sorted by rank. A head is kept as its depth: every upward
    /// neighbour of a rank is one of its ancestors in the elimination tree, the one at that
    /// depth, so that a query, which walks the ancestors of its ends, keeps its costs by
    /// depth (see [`Side`]). `links` holds what unpacks each edge (see [`unpack::Link`]):
    /// its steps themselves for an edge of at most [`unpack::PACKED_STEPS`] steps, or of
    /// [`unpack::TWO_WAY_STEPS`] in two directions, or where its two halves are. Where the
    /// searched edges are kept by blocks (`blocks`), `head` holds the heads of the others
    /// alone (see [`Self::unpacking_heads`]).
    first: Vec<u32>,
    head: Vec<u16>,
    links: Links,
    /// The costs of the searched edges of rank `r`, in the order of their heads:
    /// `costs.row(start[r]..start[r + 1])`, in 32-bit words where the map allows it (see
    /// `costs.rs`).
    start: Vec<u32>,
    costs: costs::Costs,
    /// The number of searched edges that are shortcuts.
    shortcuts: usize,
    /// Every rank's cost to a few landmarks, whose lower bounds prune the queries.
    landmarks: Landmarks,
    /// The searched edges by blocks of eight depths, where the processor can relax them so.
    blocks: Option<blocks::Blocks>,
    /// The smallest subtrees of the elimination tree, left out of the above (see
    /// `regions.rs`).
    regions: Regions,
    /// The landmarks that lie in regions: `(region, landmark, its cell's index in the
    /// region)`, sorted.
    inside: Vec<(u32, u8, u8)>,
    /// The query state, allocated by the first query.
    forward: Side,
    backward: Side,
    /// The searches of the regions of a query's ends.
    local: [Local; 2],
    /// The limits of a query's walks, calibrated to the map (see `limits.rs`).
    limits: Limits,
}

/// An edge the queries search.
const SEARCHED: u8 = 1;

/// An edge that unpacking needs (every searched edge, and what they unpack into).
const NEEDED: u8 = 2;

/// The kept edges as the build leaves them, heads as ranks: what the short edges are packed
/// from.
struct Kept<'a> {
    graph: &'a SearchGraph,
    order: &'a [u32],
    first: &'a [u32],
    start: &'a [u32],
    head: &'a [u32],
}

/// The most cells a contraction hierarchy is built for: 2048 × 2048. Its build takes minutes
/// there and grows faster than the map (about 1 minute for the generated weighted terrain of
/// `benches/weighted.rs` at 2048², 3.5 minutes for open ground, on two cores).
pub const CH_MAX_CELLS: usize = 1 << 22;

/// The most upward edges a contraction hierarchy is built with, shortcuts included, counted
/// before any cost: the build holds about 19 bytes an edge at its peak (counted by
/// `benches/memory.rs`: 2.8 GB for the 148 million edges of the generated weighted terrain of
/// `benches/weighted.rs` at 2048², 4.9 GB for the 258 million of open ground there), so this
/// keeps it within about 6 GB. The edges grow with the passable cells of the separators: open
/// ground has the most.
pub const CH_MAX_EDGES: usize = 300_000_000;

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

impl ContractionHierarchy {
    /// The graph the queries run on.
    pub fn graph(&self) -> &SearchGraph {
        &self.graph
    }

    /// The number of upward edges the queries search: steps of the grid and shortcuts.
    pub fn edge_count(&self) -> usize {
        self.costs.len()
    }

    /// The number of shortcuts among the upward edges the queries search.
    pub fn shortcut_count(&self) -> usize {
        self.shortcuts
    }

    /// The number of upward edges kept to unpack shortcuts, those searched included.
    pub fn unpacking_edge_count(&self) -> usize {
        self.links.len()
    }

    /// The most ranks on a way up the elimination tree: how many ranks a query's walk from
    /// one end may pass, and how many entries each side of the query state has.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The memory the hierarchy takes beyond the search graph, in bytes (the query state
    /// included once a query has allocated it).
    pub fn hierarchy_bytes(&self) -> usize {
        fn bytes<T>(v: &Vec<T>) -> usize {
            v.capacity() * size_of::<T>()
        }
        let side = |s: &Side| bytes(&s.dist) + bytes(&s.link) + bytes(&s.chain);
        bytes(&self.order)
            + bytes(&self.rank)
            + bytes(&self.parent)
            + bytes(&self.depth)
            + bytes(&self.first)
            + bytes(&self.head)
            + self.links.bytes()
            + bytes(&self.start)
            + self.costs.bytes()
            + self.landmarks.bytes()
            + self.blocks.as_ref().map_or(0, blocks::Blocks::bytes)
            + bytes(&self.regions.cells)
            + bytes(&self.regions.start)
            + bytes(&self.regions.up)
            + bytes(&self.inside)
            + side(&self.forward)
            + side(&self.backward)
    }
}
