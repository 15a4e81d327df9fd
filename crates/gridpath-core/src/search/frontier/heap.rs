//! The open list: a 4-ary min-heap of small entries with lazy deletion, and the buckets that
//! A*, Dijkstra and greedy search put in front of it.
//!
//! An entry is 16 bytes: the priority as the bits of a non-negative `f64` (which order like
//! the float), a tie-break, the cell and a byte of notes for the search, in one 128-bit
//! number. A cell improved while open is pushed again; the search skips entries of cells
//! already closed. Four children per node halve the depth of a binary heap and keep the
//! children of a node in one cache line.

/// One open-list entry: from the most significant bits down, the priority (64 bits), the
/// tie-break (24), the cell (32) and the notes (8), so that entries order as one 128-bit number
/// (and stay in registers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry(u128);

impl Entry {
    /// No entry: ranks after every real one (its priority bits are a NaN's).
    pub const NONE: Entry = Entry(u128::MAX);

    /// An entry of priority `f` (non-negative), preferring larger `g` among equal `f`, then
    /// the smaller cell index.
    #[inline]
    pub fn new(f: f64, g: f64, cell: u32) -> Self {
        Self::with_notes(f, g, cell, 0)
    }

    /// An entry that also carries a byte for the search that pushed it (which ranks last).
    #[inline(always)]
    pub fn with_notes(f: f64, g: f64, cell: u32, notes: u8) -> Self {
        debug_assert!(f >= 0.0, "priorities are non-negative");
        // `f.to_bits()` orders like `f` for `f ≥ 0`. The tie-break is `g` as an `f32` without
        // its sign (always 0) or its lowest 7 bits, 16 bits of mantissa in all, inverted so
        // that larger g comes first.
        let tie = !((g as f32).to_bits() >> 7) & 0xFF_FFFF;
        Self(
            (u128::from(f.to_bits()) << 64)
                | (u128::from(tie) << 40)
                | (u128::from(cell) << 8)
                | u128::from(notes),
        )
    }

    /// Whether this is [`Entry::NONE`] (the only entry with these priority bits).
    #[inline(always)]
    pub fn is_none(&self) -> bool {
        (self.0 >> 64) as u64 == u64::MAX
    }

    /// The cell index.
    #[inline(always)]
    pub fn cell(&self) -> u32 {
        (self.0 >> 8) as u32
    }

    /// The tie-break bits (24 of them; smaller for larger g).
    #[inline(always)]
    pub fn tie(&self) -> u32 {
        (self.0 >> 40) as u32 & 0xFF_FFFF
    }

    /// The byte the pushing search left.
    #[inline(always)]
    pub fn notes(&self) -> u8 {
        self.0 as u8
    }

    /// The priority.
    #[inline]
    pub fn priority(&self) -> f64 {
        f64::from_bits((self.0 >> 64) as u64)
    }

    /// The entry as one number: smaller pops first.
    #[inline(always)]
    fn rank(&self) -> u128 {
        self.0
    }

    /// Whether this entry pops before `other`.
    #[inline(always)]
    pub fn before(&self, other: &Entry) -> bool {
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

/// Open-list entries grouped by quantised priority: a sorted band and a [`Heap`] for the
/// lowest bucket, plain lists for the later ones.
///
/// Bucket `b` holds the entries whose priority `f` has `round(f / width) = b`. Every entry of
/// bucket `current` or below is either in the band, sorted when it moved there from its list,
/// or in the heap, where entries pushed into the current bucket (or below it, in a search whose
/// priorities can fall) go. Later buckets are plain lists. Quantising is monotone in `f`, so the
/// band and the heap rank before every later bucket, and popping the smaller of the band's and
/// the heap's first entry, refilling the band from the next non-empty list when both run dry,
/// pops in the order of one heap over all entries (priority, then larger g), but for the order
/// inside a band described below. When a list becomes the band, the entries the search's
/// `live` rejects (those of cells expanded since) are dropped instead of sorted.
///
/// A band is ordered by sorting one 64-bit key per entry rather than the 128-bit entries
/// (about twice as fast on the bands of a search with the standard library's sort, as the
/// keys move and compare in one register each, and faster again in vector registers, see
/// [`sort_keys`](crate::search::frontier::sort::sort_keys)): the priority's place inside the bucket in 32 bits,
/// the 22 highest bits of the tie-break and the entry's index in the band. Two priorities of
/// one band closer than 2^-32 of the bucket width (a quarter of the cheapest step, so 2^-34 of
/// it; in buckets past 2^20 widths, about a unit in the last place of the priority) may
/// therefore pop in either order, as may entries that agree in both priority and tie-break. A goal popped that
/// way costs at most that much more than the optimum, less than a float sum of steps rounds
/// off. A band of more than [`KEYED_UP_TO`] entries, or the last bucket (which holds every
/// priority past it), is sorted as whole entries instead, exactly.
///
/// The lists form a ring over the buckets just after `current`, as many as one step of the
/// search can reach ahead, so the same few lists (warm in the cache) are reused all through a
/// search and from one search to the next. An entry further ahead than the ring waits in an
/// overflow list and moves into the ring once the ring reaches its bucket.
#[derive(Clone, Debug, Default)]
pub(crate) struct Buckets {
    /// The entries of bucket `current` that came from a list, in the order they came.
    band: Vec<Entry>,
    /// The band's entries still to pop, as sort keys whose complement's low bits
    /// (`index_mask`) are the entry's index in `band`; the next to pop is last.
    keys: Vec<u64>,
    /// The bits of a complemented key that index `band`.
    index_mask: u64,
    /// Bucket `b` in `current < b < current + ring_len` lives in `ring[b % ring_len]`. Lists
    /// past `ring_len` are empty but keep their memory, so that a later search with a longer
    /// ring does not allocate them anew.
    ring: Vec<Vec<Entry>>,
    /// The lists of `ring` in use: a power of two.
    ring_len: usize,
    /// Entries of buckets at `current + ring_len` or beyond.
    overflow: Vec<Entry>,
    /// The smallest bucket in `overflow`, `usize::MAX` when it is empty.
    overflow_min: usize,
    /// Buckets up to this one live in the heap.
    current: usize,
    /// Entries in the ring.
    count: usize,
    /// Buckets per unit of priority.
    per_unit: f64,
}

/// The fewest and most lists in the ring.
const RING_MIN: usize = 16;
const RING_MAX: usize = 1 << 12;

/// Bits of a band key for the entry's index, and so the largest band sorted by keys.
const INDEX_BITS: u32 = 10;
const KEYED_UP_TO: usize = 1 << INDEX_BITS;
/// Bits of a band key for the tie-break (the highest of the entry's 24).
const TIE_BITS: u32 = 32 - INDEX_BITS;
/// 2^52: adding it to a float in [0, 2^51] leaves the float rounded to an integer in its
/// lowest bits, cheaper than a conversion.
const TWO_52: f64 = (1u64 << 52) as f64;

impl Buckets {
    /// Empties the lists (keeping their memory) and sets the bucket width. `first` is the
    /// priority of the first entry; `span` is how far past the lowest priority in the open list
    /// a new entry's priority can usually be, which sizes the ring (entries beyond it stay
    /// exact, only slower).
    pub fn reset(&mut self, width: f64, first: f64, span: f64) {
        self.band.clear();
        self.keys.clear();
        if self.count > 0 {
            for list in &mut self.ring[..self.ring_len] {
                list.clear();
            }
        }
        self.count = 0;
        self.overflow.clear();
        self.overflow_min = usize::MAX;
        self.per_unit = if width > 0.0 { 1.0 / width } else { 1.0 };
        let wanted = (span * self.per_unit).min(RING_MAX as f64) as usize + 2;
        let len = wanted.next_power_of_two().clamp(RING_MIN, RING_MAX);
        if self.ring.len() < len {
            self.ring.resize_with(len, Vec::new);
        }
        self.ring_len = len;
        self.current = self.bucket(first);
    }

    /// Entries in the lists, not counting the heap.
    #[inline]
    pub fn len(&self) -> usize {
        self.keys.len() + self.count + self.overflow.len()
    }

    /// The entries in the lists in no particular order.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.keys
            .iter()
            .map(|&key| &self.band[self.index(key)])
            .chain(self.ring[..self.ring_len].iter().flatten())
            .chain(&self.overflow)
    }

    #[inline(always)]
    fn bucket(&self, priority: f64) -> usize {
        // Rounded to the nearest integer by adding 2^52, where a float's units are its lowest
        // bits: monotone in the priority, as the buckets need, and cheaper than a conversion.
        // Huge priorities share the last bucket (priorities are never below 0).
        (((priority * self.per_unit).min(TWO_52 / 2.0) + TWO_52).to_bits() - TWO_52.to_bits())
            as usize
    }

    #[inline(always)]
    fn slot(&self, b: usize) -> usize {
        b & (self.ring_len - 1)
    }

    /// The index in `band` of the entry of a key.
    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        (!key & self.index_mask) as usize
    }

    /// The band's next entry.
    #[inline(always)]
    fn band_head(&self) -> Option<&Entry> {
        self.keys.last().map(|&key| &self.band[self.index(key)])
    }

    /// Takes the band's next entry.
    #[inline(always)]
    fn pop_band(&mut self) -> Option<Entry> {
        let key = self.keys.pop()?;
        Some(self.band[self.index(key)])
    }

    /// The cell the band would give next, when the band has one.
    #[inline(always)]
    pub fn next_in_band(&self) -> Option<u32> {
        self.band_head().map(Entry::cell)
    }

    /// Adds an entry, to `heap` when it belongs to the heap's band.
    #[inline(always)]
    pub fn push(&mut self, heap: &mut Heap, entry: Entry) {
        let b = self.bucket(entry.priority());
        if b <= self.current {
            heap.push(entry);
        } else if b - self.current < self.ring_len {
            let slot = self.slot(b);
            self.ring[slot].push(entry);
            self.count += 1;
        } else {
            self.push_overflow(b, entry);
        }
    }

    #[cold]
    #[inline(never)]
    fn push_overflow(&mut self, b: usize, entry: Entry) {
        self.overflow.push(entry);
        self.overflow_min = self.overflow_min.min(b);
    }

    /// Removes and returns the smallest entry of the heap and the lists together, among the
    /// entries that `live` keeps: entries it rejects may be dropped when they move from a list
    /// to the heap, or returned as usual.
    #[cfg(test)]
    pub fn pop(&mut self, heap: &mut Heap, live: impl Fn(&Entry) -> bool) -> Option<Entry> {
        loop {
            if let Some(entry) = self.pop_ready(heap) {
                return Some(entry);
            }
            if !self.refill(&live) {
                return None;
            }
        }
    }

    /// Removes and returns the smallest entry when the band or the heap has one: [`Buckets::pop`]
    /// without moving the next bucket in, for a search that calls [`Buckets::refill`] itself
    /// when this finds nothing.
    #[inline(always)]
    pub fn pop_ready(&mut self, heap: &mut Heap) -> Option<Entry> {
        match (self.band_head(), heap.peek()) {
            (Some(banded), Some(heaped)) => {
                if heaped.before(banded) {
                    heap.pop()
                } else {
                    self.pop_band()
                }
            }
            (Some(_), None) => self.pop_band(),
            (None, Some(_)) => heap.pop(),
            (None, None) => None,
        }
    }

    /// Moves the live entries of the next non-empty bucket into the (empty) band, sorted; false
    /// when the lists are empty.
    #[inline(never)]
    pub fn refill(&mut self, live: &impl Fn(&Entry) -> bool) -> bool {
        loop {
            if self.count == 0 {
                if self.overflow.is_empty() {
                    return false;
                }
                // Nothing before the overflow's first bucket: jump there.
                self.current = self.current.max(self.overflow_min - 1);
            }
            self.current += 1;
            if self.overflow_min - self.current < self.ring_len {
                self.take_overflow();
            }
            let slot = self.slot(self.current);
            let list = &mut self.ring[slot];
            if !list.is_empty() {
                self.count -= list.len();
                // The band's entries have all been popped (their keys are gone).
                self.band.clear();
                std::mem::swap(list, &mut self.band);
                self.order_band(live);
                return true;
            }
        }
    }

    /// Orders the live entries of the band just taken from a list: [`Buckets`] says how.
    fn order_band(&mut self, live: &impl Fn(&Entry) -> bool) {
        self.keys.clear();
        let len = self.band.len();
        // The last bucket holds every priority past it: their places would all clamp to one.
        let saturated = self.current as f64 >= TWO_52 / 2.0;
        if len > KEYED_UP_TO || saturated {
            // Whole entries, descending, and keys that list them from the first to the last.
            self.band.retain(live);
            let len = self.band.len();
            self.band
                .sort_unstable_by_key(|e| std::cmp::Reverse(e.rank()));
            self.index_mask = u64::MAX;
            self.keys.extend((0..len as u64).map(|i| !i));
            return;
        }
        self.index_mask = (1 << INDEX_BITS) - 1;
        // The bucket's priorities, in units of its width, run from `current - 0.5` to
        // `current + 0.5` up to rounding, which the clamp absorbs.
        let (per_unit, base) = (self.per_unit, self.current as f64 - 0.5);
        let top = f64::from(u32::MAX);
        // The dead entries get no key: they stay in the band unseen until the next refill.
        let entries = self.band.iter().enumerate().filter(|(_, e)| live(e));
        self.keys.extend(entries.map(|(i, e)| {
            let place = ((e.priority() * per_unit - base) * 4_294_967_296.0)
                .max(0.0)
                .min(top);
            let place = (place + TWO_52).to_bits() - TWO_52.to_bits();
            let tie = e.tie() >> (24 - TIE_BITS);
            // Complemented, so that an ascending sort puts the next to pop last.
            !(place << 32 | u64::from(tie) << INDEX_BITS | i as u64)
        }));
        crate::search::frontier::sort::sort_keys(&mut self.keys);
    }

    /// Moves the overflow entries that now fall within the ring into it.
    #[cold]
    fn take_overflow(&mut self) {
        let mut rest = std::mem::take(&mut self.overflow);
        self.overflow_min = usize::MAX;
        rest.retain(|&entry| {
            let b = self.bucket(entry.priority());
            if b - self.current < self.ring_len {
                let slot = self.slot(b);
                self.ring[slot].push(entry);
                self.count += 1;
                false
            } else {
                self.overflow_min = self.overflow_min.min(b);
                true
            }
        });
        self.overflow = rest;
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
            popped.push((e.priority(), e.cell()));
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

    #[test]
    fn buckets_pop_in_the_order_of_one_heap() {
        // The order of one heap up to entries that tie in priority and tie-break: the same
        // sequence of those two, and every entry popped once.
        let order = |e: &Entry| (e.priority().to_bits(), e.tie());
        // The last width puts the priorities past the largest bucket, where they share one.
        for width in [0.25, 1.0, 3.0, 1e-9, 1e-14] {
            let (mut popped_cells, mut pushed) = (Vec::new(), 0);
            let mut heap = Heap::default();
            let mut buckets = Buckets::default();
            let mut reference = Heap::default();
            let mut seed = 99u64;
            let mut next = || {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (seed >> 33) as u32
            };
            buckets.reset(width, 10.0, 2.0);
            let mut floor = 10.0;
            for round in 0..20000u32 {
                if next() % 3 != 0 || reference.len() == 0 {
                    // Mostly non-decreasing priorities, sometimes lower ones.
                    let f = if next() % 10 == 0 {
                        f64::from(next() % 400) / 8.0
                    } else {
                        floor + f64::from(next() % 40) / 8.0
                    };
                    let g = f64::from(next() % 50);
                    buckets.push(&mut heap, Entry::new(f, g, round));
                    reference.push(Entry::new(f, g, round));
                    pushed += 1;
                } else {
                    let popped = buckets.pop(&mut heap, |_| true).unwrap();
                    let expected = reference.pop().unwrap();
                    assert_eq!(order(&popped), order(&expected), "width {width}");
                    popped_cells.push(popped.cell());
                    floor = popped.priority();
                }
                assert_eq!(heap.len() + buckets.len(), reference.len());
            }
            while let Some(expected) = reference.pop() {
                let popped = buckets.pop(&mut heap, |_| true).unwrap();
                assert_eq!(order(&popped), order(&expected), "width {width}");
                popped_cells.push(popped.cell());
            }
            assert!(buckets.pop(&mut heap, |_| true).is_none());
            popped_cells.sort_unstable();
            assert_eq!(popped_cells.len(), pushed);
            assert!(
                popped_cells.windows(2).all(|w| w[0] < w[1]),
                "every entry pops once"
            );
        }
    }

    #[test]
    fn a_band_orders_priorities_far_closer_than_its_width() {
        // Priorities 1e-9 apart inside one band of width 0.25 (2^-32 of it is 6e-11), a few
        // of them tied, and every tie with its own g; the band is laid out in reverse.
        let mut heap = Heap::default();
        let mut buckets = Buckets::default();
        buckets.reset(0.25, 100.0, 1.0);
        let mut expected = Vec::new();
        for k in (0..300u32).rev() {
            let f = 100.3 + f64::from(k / 3) * 1e-9;
            let g = 50.0 + f64::from(k % 3);
            let entry = Entry::new(f, g, k);
            expected.push(entry);
            // Pushed past the first bucket, so that they pop through a band.
            buckets.push(&mut heap, entry);
        }
        assert_eq!(heap.len(), 0, "the entries wait in a later bucket");
        expected.sort_unstable_by_key(super::Entry::rank);
        let popped: Vec<Entry> = std::iter::from_fn(|| buckets.pop(&mut heap, |_| true)).collect();
        assert_eq!(popped, expected);
    }

    #[test]
    fn a_band_larger_than_its_keys_can_index_is_sorted_whole() {
        let mut heap = Heap::default();
        let mut buckets = Buckets::default();
        buckets.reset(0.25, 10.0, 1.0);
        let count = KEYED_UP_TO as u32 + 500;
        let mut expected = Vec::new();
        for k in 0..count {
            // One band of 97 priorities and 5 values of g, so many entries tie in both,
            // pushed in a scrambled order.
            let k = k.wrapping_mul(2_654_435_761) % count;
            let entry = Entry::new(10.3 + f64::from(k % 97) * 1e-6, f64::from(k % 5), k);
            expected.push(entry);
            buckets.push(&mut heap, entry);
        }
        expected.sort_unstable_by_key(super::Entry::rank);
        let popped: Vec<Entry> = std::iter::from_fn(|| buckets.pop(&mut heap, |_| true)).collect();
        assert_eq!(popped, expected);
    }

    #[test]
    fn a_reset_forgets_the_entries_left_in_a_longer_or_shorter_ring() {
        // Searches end with entries still open: the next reset must drop them from every
        // list, also from the lists a shorter ring leaves unused and a longer one takes back.
        let mut heap = Heap::default();
        let mut buckets = Buckets::default();
        for (round, span) in [(0u32, 100.0), (1, 0.0), (2, 100.0), (3, 15.0), (4, 100.0)] {
            heap.clear();
            buckets.reset(0.25, 1.0, span);
            let mut expected = Vec::new();
            for k in 0..200u32 {
                // Priorities spread over 20 widths past the first bucket.
                let entry = Entry::new(
                    1.0 + f64::from(k % 80) * 0.25,
                    f64::from(k),
                    round * 1000 + k,
                );
                buckets.push(&mut heap, entry);
                expected.push(entry);
            }
            expected.sort_unstable_by_key(super::Entry::rank);
            // Pop half, leaving the rest behind for the next reset.
            for want in &expected[..100] {
                assert_eq!(
                    buckets.pop(&mut heap, |_| true),
                    Some(*want),
                    "round {round}"
                );
            }
            assert_eq!(heap.len() + buckets.len(), 100);
        }
        heap.clear();
        buckets.reset(0.25, 1.0, 0.0);
        assert_eq!(buckets.len(), 0);
        assert_eq!(buckets.entries().count(), 0);
        assert!(buckets.pop(&mut heap, |_| true).is_none());
    }
}
