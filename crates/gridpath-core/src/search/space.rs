//! Per-cell search state in flat arrays, reused between searches.
//!
//! The state of a cell is one byte (seen, closed and the direction of its parent) and its cost
//! so far is an `f64` in a second array, read only for cells already seen. The byte array is
//! what every neighbour test reads, and at one byte per cell it stays in the processor's
//! caches on maps of a million cells. A new search clears only the bytes the last one touched,
//! so starting costs nothing like the size of the map.

use super::frontier::heap::{Buckets, Heap};

/// No parent: the cell is where its search began.
pub(crate) const NO_PARENT: u8 = u8::MAX;

/// The cell was reached in the current search; the low four bits hold its parent direction.
pub(crate) const SEEN: u8 = 0x10;
/// The cell has been expanded.
pub(crate) const CLOSED: u8 = 0x20;
/// The cell has been expanded at least once in the current search, though it may have been
/// reached more cheaply and opened again since (IDA*, which counts the distinct cells it
/// expands with it).
pub(crate) const EVER_CLOSED: u8 = 0x40;
/// The parent bits of a state byte; all ones for [`NO_PARENT`].
const PARENT_BITS: u8 = 0x0F;

/// The state byte of a cell just reached through direction `parent`.
#[inline(always)]
pub(crate) fn seen(parent: u8) -> u8 {
    debug_assert!(parent < 8 || parent == NO_PARENT);
    SEEN | (parent & PARENT_BITS)
}

/// The state arrays and open list of one search direction.
#[derive(Debug, Default)]
pub(crate) struct Space {
    /// One byte per cell: 0 when not reached in the current search, else [`SEEN`], maybe
    /// [`CLOSED`], and the parent direction.
    pub state: Vec<u8>,
    /// The best cost found so far; meaningful only where `state` is not 0.
    pub g: Vec<f64>,
    /// The cells reached in the current search, to clear at the next; complete up to
    /// [`Space::touch_limit`] of them.
    pub touched: Vec<u32>,
    pub heap: Heap,
    /// The later priority bands of the open list, for the searches that use them.
    pub buckets: Buckets,
}

impl Space {
    /// Starts a new search over `len` cells.
    pub fn begin(&mut self, len: usize) {
        if self.state.len() != len {
            // New zeroed arrays rather than filled ones: the allocator hands large zeroed blocks
            // out without writing them, so a search on a large map touches only the pages of
            // the cells it reaches (`g` is read only where `state` is not 0).
            self.state = Vec::new();
            self.g = Vec::new();
            self.state = vec![0; len];
            self.g = vec![0.0; len];
        } else if self.touched.len() > Self::touch_limit(len) {
            self.state.fill(0);
        } else {
            for &i in &self.touched {
                self.state[i as usize] = 0;
            }
        }
        self.touched.clear();
        self.heap.clear();
        self.buckets.reset(1.0, 0.0, 0.0);
    }

    /// Past this many cells reached, a new search clears the whole state array rather than
    /// cell by cell, and the searches may stop listing the cells they reach.
    #[inline]
    pub fn touch_limit(len: usize) -> usize {
        len / 16
    }

    /// Whether the cell was reached in the current search.
    #[inline]
    pub fn reached(&self, i: usize) -> bool {
        self.state[i] != 0
    }

    /// Whether the cell has been expanded in the current search.
    #[inline]
    pub fn closed(&self, i: usize) -> bool {
        self.state[i] & CLOSED != 0
    }

    /// Marks a reached cell expanded; false when it already was.
    #[inline(always)]
    pub fn close(&mut self, i: usize) -> bool {
        let state = &mut self.state[i];
        let open = *state & CLOSED == 0;
        *state |= CLOSED;
        open
    }

    /// The cell's cost so far, infinite when not reached.
    #[inline]
    pub fn g(&self, i: usize) -> f64 {
        if self.state[i] != 0 {
            self.g[i]
        } else {
            f64::INFINITY
        }
    }

    /// The direction of the step that reached the cell, or [`NO_PARENT`].
    #[inline]
    pub fn parent(&self, i: usize) -> u8 {
        match self.state[i] & PARENT_BITS {
            PARENT_BITS => NO_PARENT,
            d => d,
        }
    }

    /// Records a cell reached for the first time.
    #[inline(always)]
    pub fn reach(&mut self, i: usize, g: f64, parent: u8) {
        self.state[i] = seen(parent);
        self.g[i] = g;
        self.touched.push(i as u32);
    }

    /// Records a cost and parent for a cell; returns whether it improved on what was known and
    /// the cell is still open.
    #[inline]
    pub fn relax(&mut self, i: usize, g: f64, parent: u8) -> bool {
        let state = self.state[i];
        if state == 0 {
            self.reach(i, g, parent);
            true
        } else if state & CLOSED == 0 && g < self.g[i] {
            self.state[i] = seen(parent);
            self.g[i] = g;
            true
        } else {
            false
        }
    }
}

/// Asks the processor to start loading `slice[i]` into its caches; an index out of bounds is
/// harmless.
#[inline(always)]
pub(crate) fn prefetch<T>(slice: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // Out of bounds (past either end of the map) the hint loads an unrelated line or
        // nothing.
        let address = slice.as_ptr().wrapping_add(i);
        // SAFETY: a prefetch is a hint: it reads nothing the program sees and cannot fault,
        // whatever the address, so the pointer is never dereferenced.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(address.cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slice, i);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_search_forgets_the_last() {
        let mut space = Space::default();
        space.begin(100);
        assert!(space.relax(5, 2.0, 3));
        assert!(space.relax(6, 1.0, NO_PARENT));
        assert!(!space.relax(5, 2.5, 1));
        assert!(space.relax(5, 1.5, 1));
        assert_eq!((space.g(5), space.parent(5)), (1.5, 1));
        assert_eq!(space.parent(6), NO_PARENT);
        assert!(space.close(5));
        assert!(!space.close(5));
        assert!(!space.relax(5, 0.5, 2), "a closed cell is never reopened");
        space.begin(100);
        assert!(!space.reached(5) && !space.reached(6));
        assert_eq!(space.g(5), f64::INFINITY);
        assert!(space.relax(5, 9.0, 7));
        assert!(!space.closed(5));
        // Many cells touched: the next start clears the whole array.
        for i in 0..100 {
            space.relax(i, 1.0, 0);
        }
        space.begin(100);
        assert!((0..100).all(|i| !space.reached(i)));
    }
}
