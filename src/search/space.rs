//! Per-cell search state in flat arrays, reused between searches.
//!
//! A generation stamp per cell says whether its state belongs to the current search, so a new
//! search costs O(1) to start instead of clearing arrays the size of the map.

use super::heap::{Buckets, Heap};

/// No parent: the cell is where its search began.
pub(crate) const NO_PARENT: u8 = u8::MAX;

/// The state of one cell in one search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    /// Best cost found so far from the search's origin.
    pub g: f64,
    /// The search that last touched this cell.
    pub stamp: u32,
    /// The direction of the step that reached this cell, or [`NO_PARENT`].
    pub parent: u8,
    /// Whether the cell has been expanded.
    pub closed: bool,
}

/// The state arrays and open list of one search direction.
#[derive(Debug, Default)]
pub(crate) struct Space {
    pub nodes: Vec<Node>,
    pub stamp: u32,
    pub heap: Heap,
    /// The later priority bands of the open list, for the searches that use them.
    pub buckets: Buckets,
}

impl Space {
    /// Starts a new search over `len` cells.
    pub fn begin(&mut self, len: usize) {
        if self.nodes.len() != len || self.stamp == u32::MAX {
            self.nodes.clear();
            self.nodes.resize(
                len,
                Node {
                    g: f64::INFINITY,
                    stamp: 0,
                    parent: NO_PARENT,
                    closed: false,
                },
            );
            self.stamp = 0;
        }
        self.stamp += 1;
        self.heap.clear();
        self.buckets.reset(1.0, 0.0);
    }

    /// Whether the cell was reached in the current search.
    #[inline]
    pub fn reached(&self, i: usize) -> bool {
        self.nodes[i].stamp == self.stamp
    }

    /// The cell's cost so far, infinite when not reached.
    #[inline]
    pub fn g(&self, i: usize) -> f64 {
        let node = &self.nodes[i];
        if node.stamp == self.stamp {
            node.g
        } else {
            f64::INFINITY
        }
    }

    /// Records a cost and parent for a cell; returns whether it improved on what was known and
    /// the cell is still open.
    #[inline]
    pub fn relax(&mut self, i: usize, g: f64, parent: u8) -> bool {
        let stamp = self.stamp;
        let node = &mut self.nodes[i];
        if node.stamp != stamp {
            *node = Node {
                g,
                stamp,
                parent,
                closed: false,
            };
            true
        } else if !node.closed && g < node.g {
            node.g = g;
            node.parent = parent;
            true
        } else {
            false
        }
    }
}
