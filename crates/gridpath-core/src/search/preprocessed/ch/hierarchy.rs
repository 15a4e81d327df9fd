//! The tables of a contraction hierarchy, which its build fills and its query and unpacking
//! read: the order, the elimination tree, the upward edges with their costs and links, the
//! landmarks, the regions and the query state.

use super::blocks;
use super::costs;
use super::landmarks::Landmarks;
use super::limits::Limits;
use super::links::Links;
use super::regions::{Local, Regions};
use super::side::Side;

use crate::search::graph::SearchGraph;

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
    pub(super) graph: SearchGraph,
    /// The cell of each rank.
    pub(super) order: Vec<u32>,
    /// The rank of each cell ([`NONE`] for walls).
    pub(super) rank: Vec<u32>,
    /// The parent of each rank in the elimination tree: its lowest upward neighbour.
    pub(super) parent: Vec<u32>,
    /// The depth of each rank in the elimination tree, a root's 0: one less than its parent's.
    pub(super) depth: Vec<u16>,
    /// The most ranks on a way up the elimination tree, the deepest rank's depth and one.
    pub(super) height: usize,
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
    pub(super) first: Vec<u32>,
    pub(super) head: Vec<u16>,
    pub(super) links: Links,
    /// The costs of the searched edges of rank `r`, in the order of their heads:
    /// `costs.row(start[r]..start[r + 1])`, in 32-bit words where the map allows it (see
    /// `costs.rs`).
    pub(super) start: Vec<u32>,
    pub(super) costs: costs::Costs,
    /// The number of searched edges that are shortcuts.
    pub(super) shortcuts: usize,
    /// Every rank's cost to a few landmarks, whose lower bounds prune the queries.
    pub(super) landmarks: Landmarks,
    /// The searched edges by blocks of eight depths, where the processor can relax them so.
    pub(super) blocks: Option<blocks::Blocks>,
    /// The smallest subtrees of the elimination tree, left out of the above (see
    /// `regions.rs`).
    pub(super) regions: Regions,
    /// The landmarks that lie in regions: `(region, landmark, its cell's index in the
    /// region)`, sorted.
    pub(super) inside: Vec<(u32, u8, u8)>,
    /// The query state, allocated by the first query.
    pub(super) forward: Side,
    pub(super) backward: Side,
    /// The searches of the regions of a query's ends.
    pub(super) local: [Local; 2],
    /// The limits of a query's walks, calibrated to the map (see `limits.rs`).
    pub(super) limits: Limits,
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
