//! What every part of a contraction hierarchy says of ranks and upward edges: the mark of no
//! cell or rank, the edges' flags, the seek along a sorted list of upward neighbours, the kept
//! edges as the build leaves them, and the most cells and edges a hierarchy is built for.

use crate::search::graph::SearchGraph;

/// No cell, no rank: an edge that is a step of the grid has no middle cell, and the top of
/// the elimination tree has no parent.
pub(super) const NONE: u32 = u32::MAX;

/// Moves `k` forward in `head` to the entry `target`, which the sorted list from `k` holds.
#[inline]
pub(super) fn seek(head: &[u32], mut k: usize, target: u32) -> usize {
    while head[k] < target {
        k += 1;
    }
    debug_assert_eq!(
        head[k], target,
        "the upward neighbours of a cell form a clique"
    );
    k
}

/// An edge the queries search.
pub(super) const SEARCHED: u8 = 1;

/// An edge that unpacking needs (every searched edge, and what they unpack into).
pub(super) const NEEDED: u8 = 2;

/// The kept edges as the build leaves them, heads as ranks: what the short edges are packed
/// from.
pub(super) struct Kept<'a> {
    pub(super) graph: &'a SearchGraph,
    pub(super) order: &'a [u32],
    pub(super) first: &'a [u32],
    pub(super) start: &'a [u32],
    pub(super) head: &'a [u32],
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
