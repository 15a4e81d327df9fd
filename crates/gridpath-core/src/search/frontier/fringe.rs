//! IDA*'s fringe: the cells at the edge of the last bound, in the order it walks them.

/// The fringe: a doubly linked list over cell indices, with one more index (the map's size)
/// as the head. Its links are meaningful only for the cells in it: the cells reached and not
/// expanded since (the search's state tells which).
#[derive(Debug, Default)]
pub(crate) struct Fringe {
    next: Vec<u32>,
    prev: Vec<u32>,
}

impl Fringe {
    /// An empty fringe over `len` cells.
    pub fn begin(&mut self, len: usize) {
        if self.next.len() != len + 1 {
            self.next = vec![0; len + 1];
            self.prev = vec![0; len + 1];
        }
        self.next[len] = len as u32;
        self.prev[len] = len as u32;
    }

    /// Puts `cell` right after `at` (a cell in the list, or the head).
    pub fn insert_after(&mut self, at: usize, cell: usize) {
        let after = self.next[at];
        self.next[cell] = after;
        self.prev[cell] = at as u32;
        self.prev[after as usize] = cell as u32;
        self.next[at] = cell as u32;
    }

    /// Takes `cell` out of the list.
    pub fn remove(&mut self, cell: usize) {
        let (before, after) = (self.prev[cell], self.next[cell]);
        self.next[before as usize] = after;
        self.prev[after as usize] = before;
    }

    /// The cell after `cell` (the head after the last).
    pub fn after(&self, cell: usize) -> usize {
        self.next[cell] as usize
    }
}
