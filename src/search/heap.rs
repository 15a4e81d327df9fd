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

    #[inline]
    fn before(&self, other: &Entry) -> bool {
        (self.key, self.tie) < (other.key, other.tie)
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
    #[inline]
    pub fn pop(&mut self) -> Option<Entry> {
        let items = &mut self.items;
        let last = items.pop()?;
        if items.is_empty() {
            return Some(last);
        }
        let top = items[0];
        let len = items.len();
        let mut i = 0;
        loop {
            let first = 4 * i + 1;
            if first >= len {
                break;
            }
            let end = (first + 4).min(len);
            let mut best = first;
            for c in first + 1..end {
                if items[c].before(&items[best]) {
                    best = c;
                }
            }
            if !items[best].before(&last) {
                break;
            }
            items[i] = items[best];
            i = best;
        }
        items[i] = last;
        Some(top)
    }
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
}
