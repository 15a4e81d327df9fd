//! The open list: a 4-ary min-heap of small entries with lazy deletion.
//!
//! An entry is 16 bytes: the priority as the bits of a non-negative `f64` (which order like
//! the float), a tie-break word, and the cell. A cell improved while open is pushed again;
//! the search skips entries of cells already closed. Four children per node halve the depth of
//! a binary heap and keep the children of a node in one cache line.

/// One open-list entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// `f.to_bits()` for a priority `f ≥ 0`.
    key: u64,
    /// Smaller first among equal keys; the searches store `!g_bits` so larger g wins.
    tie: u32,
    /// The cell index.
    pub cell: u32,
}

impl Entry {
    /// An entry of priority `f` (non-negative), preferring larger `g` among equal `f`.
    #[inline]
    pub fn new(f: f64, g: f64, cell: u32) -> Self {
        debug_assert!(f >= 0.0, "priorities are non-negative");
        Self {
            key: f.to_bits(),
            tie: !(g as f32).to_bits(),
            cell,
        }
    }

    /// The priority.
    #[inline]
    pub fn priority(&self) -> f64 {
        f64::from_bits(self.key)
    }

    /// The key and tie-break as one number: smaller pops first.
    #[inline(always)]
    fn rank(&self) -> u128 {
        (u128::from(self.key) << 32) | u128::from(self.tie)
    }

    #[inline(always)]
    fn before(&self, other: &Entry) -> bool {
        self.rank() < other.rank()
    }
}

/// A 4-ary min-heap of [`Entry`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Heap {
    items: Vec<Entry>,
}

impl Heap {
    /// Empties the heap, keeping its memory.
    pub fn clear(&mut self) {
        self.items.clear();
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// The entry that would be popped next.
    pub fn peek(&self) -> Option<&Entry> {
        self.items.first()
    }

    /// The entries in no particular order.
    pub fn entries(&self) -> &[Entry] {
        &self.items
    }

    /// Adds an entry.
    #[inline]
    pub fn push(&mut self, entry: Entry) {
        let items = &mut self.items;
        let mut i = items.len();
        items.push(entry);
        while i > 0 {
            let parent = (i - 1) / 4;
            if !entry.before(&items[parent]) {
                break;
            }
            items[i] = items[parent];
            i = parent;
        }
        items[i] = entry;
    }

    /// Removes and returns the smallest entry.
    ///
    /// The hole left at the root moves down to a leaf, always towards the smallest child
    /// (found without branches), and the last entry then moves up from there: the last entry
    /// is large, so it rarely moves far, and each level costs no unpredictable branch.
    #[inline]
    pub fn pop(&mut self) -> Option<Entry> {
        let items = &mut self.items;
        let last = items.pop()?;
        let Some(&top) = items.first() else {
            return Some(last);
        };
        let len = items.len();
        let mut hole = 0;
        loop {
            let first = 4 * hole + 1;
            let best = if first + 4 <= len {
                let r = |i: usize| items[i].rank();
                let (a, ra) = select(first, r(first), first + 1, r(first + 1));
                let (b, rb) = select(first + 2, r(first + 2), first + 3, r(first + 3));
                select(a, ra, b, rb).0
            } else if first < len {
                (first + 1..len).fold(first, |best, c| {
                    if items[c].before(&items[best]) {
                        c
                    } else {
                        best
                    }
                })
            } else {
                break;
            };
            items[hole] = items[best];
            hole = best;
        }
        // Move the last entry up from the leaf hole to its place.
        while hole > 0 {
            let parent = (hole - 1) / 4;
            if !last.before(&items[parent]) {
                break;
            }
            items[hole] = items[parent];
            hole = parent;
        }
        items[hole] = last;
        Some(top)
    }
}

/// The index and rank of the smaller of two entries, preferring the first on ties.
#[inline(always)]
fn select(a: usize, ra: u128, b: usize, rb: u128) -> (usize, u128) {
    let take_b = rb < ra;
    (if take_b { b } else { a }, if take_b { rb } else { ra })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_priority_order_with_larger_g_first() {
        let mut heap = Heap::default();
        let values = [5.0, 1.0, 3.0, 3.0, 0.0, 9.5, 2.25, 7.0, 3.0, 1.0];
        for (i, &f) in values.iter().enumerate() {
            heap.push(Entry::new(f, i as f64, i as u32));
        }
        let mut popped = Vec::new();
        while let Some(e) = heap.pop() {
            popped.push((e.priority(), e.cell));
        }
        let mut expected: Vec<(f64, u32)> = values
            .iter()
            .enumerate()
            .map(|(i, &f)| (f, i as u32))
            .collect();
        // Equal priorities come out larger g (here: larger index) first.
        expected.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        assert_eq!(popped, expected);
    }

    #[test]
    fn stays_ordered_through_mixed_pushes_and_pops() {
        let mut heap = Heap::default();
        let mut reference = Vec::new();
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as u32
        };
        for round in 0..5000u32 {
            if next() % 3 != 0 || heap.len() == 0 {
                let f = f64::from(next() % 200) / 4.0;
                let g = f64::from(next() % 50);
                heap.push(Entry::new(f, g, round));
                reference.push(Entry::new(f, g, round));
            } else {
                let popped = heap.pop().unwrap();
                let best = reference
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, e)| e.rank())
                    .map(|(i, _)| i)
                    .unwrap();
                let expected = reference.swap_remove(best);
                assert_eq!(popped.rank(), expected.rank());
            }
        }
    }
}
