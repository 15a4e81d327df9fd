//! What each kept edge of a contraction hierarchy holds to be unpacked: its steps packed, its
//! region, or its two halves (see [`Link`] and [`Packed`]), and how an edge is found between
//! two ranks in the sorted lists of upward neighbours.

use std::sync::atomic::{AtomicU16, Ordering};

use super::edges::CH_MAX_EDGES;

use crate::search::graph::OPPOSITE;

/// The index of the edge from rank `low` up to the rank that `heads` keeps as `key`: among
/// the searched edges of `low` (`start` counts them) or among those it keeps for unpacking,
/// each list sorted so that `before(h)` holds of the entries before `key`'s.
pub(super) fn find_edge<T: Copy + PartialEq>(
    (first, start): (&[u32], &[u32]),
    heads: &[T],
    low: usize,
    key: T,
    before: impl Fn(T) -> bool,
) -> Option<usize> {
    let from = first[low] as usize;
    let split = from + (start[low + 1] - start[low]) as usize;
    let to = first[low + 1] as usize;
    let find = |edges: std::ops::Range<usize>| {
        let k = edges.start + heads[edges.clone()].partition_point(|&h| before(h));
        (k < edges.end && heads[k] == key).then_some(k)
    };
    find(from..split).or_else(|| find(split..to))
}

/// What unpacks a kept edge: its steps packed (see [`Packed`]), or, for an edge of more
/// steps, `middle` holds the index of its first half (the edge between its middle rank and
/// its lower end) and `across` the index of its second half (between the middle rank and its
/// higher end) less that of the first. Both halves belong to the middle rank, so the
/// difference is less than its kept edges; one too large for 16 bits is [`Links::FAR`], and
/// found in the list of such edges. Six bytes, which one look at memory reads.
#[derive(Clone, Copy, Debug)]
#[repr(C, packed(2))]
pub(super) struct Link {
    pub(super) middle: u32,
    pub(super) across: i16,
}

impl Link {
    /// The top bit of `middle`: set for an edge whose steps are packed, clear for one whose
    /// first half's index (below [`CH_MAX_EDGES`]) `middle` holds.
    const PACKED: u32 = 1 << 31;

    /// The link of an edge whose steps are `packed`.
    pub(super) fn packed(packed: u64) -> Self {
        Self {
            middle: Self::PACKED | (packed as u32 & !Self::PACKED),
            across: (packed >> 31) as u16 as i16,
        }
    }

    /// The link of an edge whose halves are the edges `first` and `second`, if they lie near
    /// enough for `across`.
    pub(super) fn halves(first: usize, second: usize) -> Option<Self> {
        let across = i16::try_from(second as isize - first as isize).ok()?;
        (across != Links::FAR).then_some(Self {
            middle: first as u32,
            across,
        })
    }

    /// The edge's packed bits, if they are packed: its steps or its region.
    pub(super) fn packed_bits(self) -> Option<u64> {
        let middle = self.middle;
        (middle & Self::PACKED != 0)
            .then(|| u64::from(middle & !Self::PACKED) | u64::from(self.across as u16) << 31)
    }

    /// The edge's steps, if they are packed.
    pub(super) fn steps(self) -> Option<u64> {
        self.packed_bits()
            .filter(|&packed| Packed::code(packed) != Packed::REGION)
    }

    /// The link of an edge whose way lies through region `region` (see `regions.rs`), its
    /// higher end `(dx, dy)` from its lower one.
    pub(super) fn region(region: u32, (dx, dy): (i32, i32)) -> Self {
        debug_assert!(region < 1 << 22 && dx.abs() < 32 && dy.abs() < 32);
        let offset = |v: i32| u64::from((v & 0x3f) as u32);
        Self::packed(
            Packed::REGION << (Packed::BITS - 5)
                | u64::from(region)
                | offset(dx) << 22
                | offset(dy) << 28,
        )
    }

    /// The region of an edge whose way lies through one, and its higher end from its lower.
    pub(super) fn through_region(self) -> Option<(u32, (i32, i32))> {
        let packed = self
            .packed_bits()
            .filter(|&packed| Packed::code(packed) == Packed::REGION)?;
        let offset = |v: u64| ((v as i32 & 0x3f) << 26) >> 26;
        Some((
            (packed & ((1 << 22) - 1)) as u32,
            (offset(packed >> 22), offset(packed >> 28)),
        ))
    }

    /// The link as three 16-bit words, and back: for the atomics of the build, which take
    /// the six bytes of a link each.
    pub(super) fn store(self, slot: &[AtomicU16; 3]) {
        let (middle, across) = (self.middle, self.across);
        for (word, value) in slot
            .iter()
            .zip([middle as u16, (middle >> 16) as u16, across as u16])
        {
            word.store(value, Ordering::Relaxed);
        }
    }

    pub(super) fn load(slot: &[AtomicU16; 3]) -> Self {
        let [low, high, across] = slot.each_ref().map(|w| w.load(Ordering::Relaxed));
        Self {
            middle: u32::from(low) | u32::from(high) << 16,
            across: across as i16,
        }
    }
}

const _: () = assert!(CH_MAX_EDGES < Link::PACKED as usize);

/// Every kept edge's [`Link`], by the edge's index.
#[derive(Debug)]
pub(super) struct Links {
    pub(super) links: Vec<Link>,
    /// The edges whose halves lie too far apart for `across`, sorted: each with the index of
    /// its second half.
    pub(super) far: Vec<(u32, u32)>,
}

impl Links {
    pub(super) const FAR: i16 = i16::MIN;

    /// The index of the second half of edge `k`, whose link is `link` (not packed).
    #[inline]
    pub(super) fn second(&self, k: usize, link: Link) -> usize {
        match link.across {
            Self::FAR => {
                let i = self
                    .far
                    .binary_search_by_key(&(k as u32), |&(edge, _)| edge)
                    .expect("an edge whose halves lie far apart is listed");
                self.far[i].1 as usize
            }
            d => {
                let first = link.middle;
                (first as usize).wrapping_add_signed(isize::from(d))
            }
        }
    }

    pub(super) fn len(&self) -> usize {
        self.links.len()
    }

    /// The links without those of the first `edges` edges, which no other edge's link
    /// names: every index lowered by `edges`.
    pub(super) fn without_first(self, edges: usize) -> Self {
        let Self { mut links, far } = self;
        links.drain(..edges);
        links.shrink_to_fit();
        for link in &mut links {
            if link.packed_bits().is_none() {
                link.middle -= edges as u32;
            }
        }
        let far = far
            .into_iter()
            .filter(|&(k, _)| k as usize >= edges)
            .map(|(k, second)| (k - edges as u32, second - edges as u32))
            .collect();
        Self { links, far }
    }

    pub(super) fn bytes(&self) -> usize {
        self.links.capacity() * size_of::<Link>() + self.far.capacity() * size_of::<(u32, u32)>()
    }
}

/// The most steps an edge's [`Link`] can hold in place of its halves, in any directions.
pub(super) const PACKED_STEPS: u64 = 14;

/// The most steps an edge's [`Link`] can hold when they take two directions at most.
pub(super) const TWO_WAY_STEPS: u64 = 31;

/// An edge's steps packed into the 47 bits of a [`Link`] beside its flag, from the edge's
/// lower rank to its higher, with a code in the top five bits. A code of 1 to
/// [`PACKED_STEPS`] is the number of steps, three bits each below it, the first step in the
/// lowest bits. The code [`Packed::TWO_WAY`] holds up to [`TWO_WAY_STEPS`] steps in two
/// directions (the cheapest paths of a few steps mostly keep to two neighbouring ones): the
/// first direction in the lowest three bits, the second in the next three, the number of
/// steps in the next five, then a bit a step, set for the second direction.
pub(super) struct Packed;

/// An edge's steps, unpacked: the directions, and how many there are.
pub(super) type Steps = ([u8; TWO_WAY_STEPS as usize], usize);

impl Packed {
    const BITS: u32 = 47;
    const TWO_WAY: u64 = 31;
    /// The code of an edge whose way lies through a region: no steps, the region's number
    /// and where its higher end lies (see [`Link::region`]).
    const REGION: u64 = PACKED_STEPS + 1;

    fn code(packed: u64) -> u64 {
        packed >> (Self::BITS - 5)
    }

    pub(super) fn len(packed: u64) -> u64 {
        match Self::code(packed) {
            Self::TWO_WAY => (packed >> 6) & 0x1f,
            n => n,
        }
    }

    pub(super) fn step(d: u32) -> u64 {
        1 << (Self::BITS - 5) | u64::from(d)
    }

    /// The steps of a packed edge.
    fn unpacked(packed: u64) -> Steps {
        let mut steps = [0u8; TWO_WAY_STEPS as usize];
        let len = Self::len(packed) as usize;
        let two_way = Self::code(packed) == Self::TWO_WAY;
        for (i, step) in steps[..len].iter_mut().enumerate() {
            *step = Self::step_of(packed, two_way, i);
        }
        (steps, len)
    }

    /// Step `i` of a packed edge: three bits a step, or a bit a step choosing between the
    /// first two triples.
    #[inline(always)]
    fn step_of(packed: u64, two_way: bool, i: usize) -> u8 {
        let at = if two_way {
            3 * ((packed >> (11 + i)) & 1)
        } else {
            3 * i as u64
        };
        (packed >> at) as u8 & 7
    }

    /// Appends the steps of a packed edge to `directions`, in order.
    #[inline]
    pub(super) fn write(packed: u64, directions: &mut Vec<u8>) {
        let len = Self::len(packed) as usize;
        // One loop for each kind, each with its kind known.
        if Self::code(packed) == Self::TWO_WAY {
            directions.extend((0..len).map(|i| Self::step_of(packed, true, i)));
        } else {
            directions.extend((0..len).map(|i| Self::step_of(packed, false, i)));
        }
    }

    /// Packs `steps`, if they fit.
    pub(super) fn pack(steps: &[u8]) -> Option<u64> {
        let len = steps.len() as u64;
        let code = |code: u64| code << (Self::BITS - 5);
        if len <= PACKED_STEPS {
            let bits = steps
                .iter()
                .enumerate()
                .fold(0, |bits, (i, &d)| bits | u64::from(d) << (3 * i));
            return Some(code(len) | bits);
        }
        let first = steps[0];
        let second = steps.iter().copied().find(|&d| d != first).unwrap_or(first);
        if len > TWO_WAY_STEPS || steps.iter().any(|&d| d != first && d != second) {
            return None;
        }
        let choices = steps
            .iter()
            .enumerate()
            .fold(0, |bits, (i, &d)| bits | u64::from(d != first) << (11 + i));
        Some(
            code(Self::TWO_WAY)
                | choices
                | (len << 6)
                | (u64::from(second) << 3)
                | u64::from(first),
        )
    }

    /// The steps of `down` backwards (it runs from the middle up to the lower end) then those
    /// of `up`, if they fit.
    pub(super) fn join(down: u64, up: u64) -> Option<u64> {
        let ((down, a), (up, b)) = (Self::unpacked(down), Self::unpacked(up));
        if a + b > TWO_WAY_STEPS as usize {
            return None;
        }
        let mut steps = [0u8; TWO_WAY_STEPS as usize];
        for (step, &d) in steps.iter_mut().zip(down[..a].iter().rev()) {
            *step = OPPOSITE[usize::from(d)] as u8;
        }
        steps[a..a + b].copy_from_slice(&up[..b]);
        Self::pack(&steps[..a + b])
    }

    #[cfg(test)]
    pub(super) fn steps(packed: u64) -> impl Iterator<Item = usize> {
        let (steps, len) = Self::unpacked(packed);
        (0..len).map(move |i| usize::from(steps[i]))
    }

    /// The steps, the last first.
    #[cfg(test)]
    pub(super) fn steps_backwards(packed: u64) -> impl Iterator<Item = usize> {
        let (steps, len) = Self::unpacked(packed);
        (0..len).rev().map(move |i| usize::from(steps[i]))
    }
}
