//! One side of a contraction hierarchy's query: the costs of one direction along the
//! ancestors of its end in the elimination tree, kept by depth.

use super::blocks;
use super::edges::NONE;

/// The costs of one query direction along the ancestors of its end, indexed by depth in the
/// elimination tree (the ranks a side reaches are all ancestors of its end, one at each
/// depth), infinite between queries: a few kilobytes that stay in the cache, where arrays
/// indexed by rank would take 12 bytes a rank.
#[derive(Debug, Default)]
pub(super) struct Side {
    pub(super) dist: Vec<f64>,
    /// The depth each depth's rank was reached from ([`NO_LINK`] for none), and in the top bit
    /// ([`RELAXED`]) whether its edges were relaxed at its present cost: a walk that follows a
    /// failed one passes over such ranks. Reaching a rank at a lower cost clears the bit.
    pub(super) link: Vec<u32>,
    /// The rank at each depth on the way up from the side's end, as the walk found it.
    pub(super) chain: Vec<u32>,
}

/// No rank reached this one (the end itself, or an unreached rank).
pub(super) const NO_LINK: u32 = !RELAXED;

/// The mark of a rank whose edges were relaxed at its present cost.
pub(super) const RELAXED: u32 = 1 << 31;

impl Side {
    pub(super) fn new(height: usize) -> Self {
        Self {
            dist: vec![f64::INFINITY; blocks::padded(height)],
            link: vec![NO_LINK; blocks::padded(height)],
            chain: vec![NONE; height],
        }
    }

    /// The depth that depth `d` was reached from.
    pub(super) fn parent(&self, d: usize) -> Option<usize> {
        let p = self.link[d] & !RELAXED;
        (p != NO_LINK).then_some(p as usize)
    }

    /// Back to infinite costs at every depth from the end's (`end`) up.
    pub(super) fn clear(&mut self, end: usize) {
        self.dist[..=end].fill(f64::INFINITY);
        self.link[..=end].fill(NO_LINK);
    }
}
