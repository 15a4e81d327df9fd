//! The best-first loop that the subgoal graph's search, Theta* and Lazy Theta* share: take the
//! best entry off the open list, skip it when stale, count the expansion, let the control stop
//! the search, test for the goal, and expand. What differs between them — how an entry is taken
//! and closed, and what an expansion relaxes and pushes — is the [`BestFirst`] they hand the
//! loop; the loop is generic over it and inlined, so each search compiles to its own loop with
//! nothing called through a pointer.
//!
//! A* and Dijkstra ([`best_first`](crate::search::classic::best_first)) keep their own loop,
//! which drains the open list's buckets in bulk; IDA* searches depth first. Jump point search
//! and JPS+ keep their own copies of this loop: on it they measured a few per cent slower
//! (docs/performance.md).

use crate::control::SearchControl;
use crate::search::frontier::heap::Entry;
use crate::search::request::Stats;

/// What an expansion adds to the search's counts.
pub(crate) struct Tally {
    /// Entries pushed on the open list (the start's among them).
    pub pushed: u64,
    /// The open list's greatest length.
    pub max_open: usize,
}

/// One search's part of the loop.
pub(crate) trait BestFirst {
    /// The next entry to expand, or `None` when the open list is empty.
    fn pop(&mut self) -> Option<Entry>;
    /// Closes the entry's node when the entry is its live one; `false` skips the entry (a
    /// search may push the node again, counting it in `tally`).
    fn close(&mut self, entry: Entry, tally: &mut Tally) -> bool;
    /// Notes the expansion of `entry` in the order of expansion, when the search records one.
    fn record(&mut self, entry: Entry);
    /// Expands the closed node of `entry`: relaxes its successors and pushes them.
    fn expand(&mut self, entry: Entry, tally: &mut Tally);
}

/// Runs `search` from an open list holding the start alone until it closes `goal` (the node
/// of the entries), the open list empties, or `control` stops it; adds the counts to `stats`.
/// Returns whether it closed the goal.
#[inline(always)]
pub(crate) fn best_first_loop(
    search: &mut impl BestFirst,
    goal: usize,
    control: &SearchControl,
    stats: &mut Stats,
) -> bool {
    let mut expanded = 0u64;
    let mut tally = Tally {
        pushed: 1,
        max_open: 1,
    };
    let mut found = false;
    while let Some(entry) = search.pop() {
        if !search.close(entry, &mut tally) {
            continue;
        }
        expanded += 1;
        search.record(entry);
        if control.should_stop(expanded) {
            stats.cancelled = true;
            break;
        }
        if entry.cell() as usize == goal {
            found = true;
            break;
        }
        search.expand(entry, &mut tally);
    }
    stats.expanded += expanded;
    stats.pushed += tally.pushed;
    stats.max_open = stats.max_open.max(tally.max_open as u64);
    found
}
