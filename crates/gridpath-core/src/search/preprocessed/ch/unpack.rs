//! Unpacking a query's edges into the cells of a full path: what each kept edge holds to be
//! unpacked (its steps packed, its region, or its two halves: see [`Link`] and [`Packed`]),
//! how an edge is found between two ranks, and the layout of the cells with the path's cost
//! and length summed from its steps.
//!
//! What it guarantees: a path from one end to the other, cell by cell, each step one the
//! graph allows, its cost summed a step at a time as `SearchGraph::index_path_cost` sums it.

use std::sync::atomic::{AtomicU16, Ordering};

use super::regions::{Local, Place, Source};
use super::{CH_MAX_EDGES, ContractionHierarchy};

use crate::grid::Cell;
use crate::search::graph::{DX, DY, OPPOSITE, SearchGraph};

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
    fn packed_bits(self) -> Option<u64> {
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

/// The path from cell `from` along `directions`: its cells, and its cost and length summed a
/// step at a time from the start as `SearchGraph::index_path_cost` sums them. On a map of one
/// cost each direction's step costs the same everywhere, so the layout of a long path reads no
/// terrain (2–7% off a query on the Moving AI maps at 512²).
fn lay_out(graph: &SearchGraph, from: usize, directions: &[u8]) -> (Vec<Cell>, (f64, f64)) {
    match graph.uniform_step_costs() {
        Some(costs) => lay_out_by(graph, from, directions, |d| costs[d]),
        None => {
            let mut cell = from;
            lay_out_by(graph, from, directions, |d| {
                let next = cell.wrapping_add_signed(graph.delta(d));
                let cost = graph.step_cost(cell, next, d);
                cell = next;
                cost
            })
        }
    }
}

/// [`lay_out`] with each step's cost from `step_cost`, asked with the step's direction in the
/// path's order. The loop calls nothing: the path's room is taken first, so the running cost
/// and length stay in registers rather than waiting on the stack.
#[inline(always)]
fn lay_out_by(
    graph: &SearchGraph,
    from: usize,
    directions: &[u8],
    mut step_cost: impl FnMut(usize) -> f64,
) -> (Vec<Cell>, (f64, f64)) {
    let mut at = graph.cell(from);
    let mut path = vec![at; directions.len() + 1];
    let (mut cost, mut length) = (0.0, 0.0);
    let lengths = graph.step_lengths();
    for (place, &d) in path[1..].iter_mut().zip(directions) {
        let d = usize::from(d & 7);
        cost += step_cost(d);
        length += lengths[d];
        at = Cell::new(
            at.x.wrapping_add_signed(DX[d]),
            at.y.wrapping_add_signed(DY[d]),
        );
        *place = at;
    }
    (path, (cost, length))
}

/// An edge of a path on its way to cells: its index and whether it is taken up (from its
/// lower rank to its higher), or its packed steps and the same.
#[derive(Clone, Copy)]
pub(super) enum Unpacked {
    Halves(usize, bool),
    Steps(u64, bool),
}

impl Unpacked {
    /// One step in direction `d`, taken as it runs.
    pub(super) fn step(d: u8) -> Self {
        Unpacked::Steps(Packed::step(d.into()), true)
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
    fn write(packed: u64, directions: &mut Vec<u8>) {
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

impl ContractionHierarchy {
    /// The index of the edge between two ranks: among the searched edges of the lower rank or
    /// among those it keeps for unpacking, each list sorted by rank, so by depth downwards.
    pub(super) fn edge_index(&self, a: usize, b: usize) -> Option<usize> {
        let (low, high) = if a < b { (a, b) } else { (b, a) };
        let key = self.depth[high];
        let Some(blocks) = &self.blocks else {
            return find_edge((&self.first, &self.start), &self.head, low, key, |h| {
                h > key
            });
        };
        let first = self.first[low] as usize;
        if let Some(j) = blocks.position(low, key) {
            return Some(first + j);
        }
        let searched = (self.start[low + 1] - self.start[low]) as usize;
        let others = &self.head[self.unpacking_heads(low)];
        let j = others.partition_point(|&h| h > key);
        (others.get(j) == Some(&key)).then_some(first + searched + j)
    }

    /// Where the searched edges are kept by blocks: where `head` holds the heads of rank
    /// `r`'s edges kept to unpack shortcuts alone (the kept edges of the ranks before it that
    /// are not searched come first).
    pub(super) fn unpacking_heads(&self, r: usize) -> std::ops::Range<usize> {
        (self.first[r] - self.start[r]) as usize..(self.first[r + 1] - self.start[r + 1]) as usize
    }

    /// The cells of a path from cell `from` along `edges`, each taken up from its lower rank
    /// to its higher or down, and its cost and length.
    ///
    /// Each round replaces every edge whose link holds its halves by the two, in the path's
    /// order, until every edge holds its steps: the links of a round are asked for as the
    /// round before finds them, so that their loads overlap, where taking the edges depth
    /// first would wait for each load in turn (a query's path at weighted 512² holds some 20
    /// links, mostly far apart in memory). The edges before the first one still to halve are
    /// set aside as they are, so that a round goes over no more than what it may halve.
    ///
    /// The steps are then written out as directions, and the cells laid out from them in a
    /// loop of their own that calls nothing, so that the running cost and length stay in
    /// registers (see [`lay_out`]).
    pub(super) fn unpack(&self, mut edges: Vec<Unpacked>, from: usize) -> (Vec<Cell>, (f64, f64)) {
        let links = &self.links.links;
        for edge in &edges {
            if let Unpacked::Halves(k, _) = *edge {
                crate::search::space::prefetch(links, k);
            }
        }
        let mut done = Vec::with_capacity(2 * edges.len());
        let mut next = Vec::with_capacity(2 * edges.len());
        while !edges.is_empty() {
            for &edge in &edges {
                let edge = match edge {
                    Unpacked::Halves(k, up) => {
                        let link = links[k];
                        match link.packed_bits() {
                            Some(steps) => Unpacked::Steps(steps, up),
                            None => {
                                // Up: from the lower end down its first half to the middle,
                                // then up the second half; down: the other way round.
                                let (first, second) =
                                    (link.middle as usize, self.links.second(k, link));
                                crate::search::space::prefetch(links, first);
                                crate::search::space::prefetch(links, second);
                                next.extend(if up {
                                    [
                                        Unpacked::Halves(first, false),
                                        Unpacked::Halves(second, true),
                                    ]
                                } else {
                                    [
                                        Unpacked::Halves(second, false),
                                        Unpacked::Halves(first, true),
                                    ]
                                });
                                continue;
                            }
                        }
                    }
                    steps => steps,
                };
                if next.is_empty() {
                    done.push(edge);
                } else {
                    next.push(edge);
                }
            }
            std::mem::swap(&mut edges, &mut next);
            next.clear();
        }
        lay_out(&self.graph, from, &self.directions(&done, from))
    }

    /// The directions of the steps of `edges`, each packed (see [`Unpacked`]), from cell
    /// `from`. A way through a region is searched from where the path stands.
    fn directions(&self, edges: &[Unpacked], from: usize) -> Vec<u8> {
        let steps = |edge: &Unpacked| match *edge {
            Unpacked::Steps(steps, _) => Packed::len(steps) as usize,
            Unpacked::Halves(..) => unreachable!("every edge is unpacked into steps"),
        };
        let mut directions: Vec<u8> = Vec::with_capacity(edges.iter().map(steps).sum::<usize>());
        // Where the path stood after the first `known.1` directions: the cell an edge through
        // a region starts from, found when one comes.
        let mut known = (from, 0);
        let mut near = None;
        let mut through = Vec::new();
        for &edge in edges {
            let Unpacked::Steps(steps, up) = edge else {
                unreachable!("every edge is unpacked into steps");
            };
            if let Some((region, (dx, dy))) = Link::packed(steps).through_region() {
                // A way through a region: searched from where the path stands to the other
                // end, which the link keeps.
                let cell = directions[known.1..].iter().fold(known.0, |cell, &d| {
                    cell.wrapping_add_signed(self.graph.delta(usize::from(d)))
                });
                known = (cell, directions.len());
                let at = self.graph.cell(cell);
                let (dx, dy) = if up { (dx, dy) } else { (-dx, -dy) };
                let to = Cell::new(at.x.wrapping_add_signed(dx), at.y.wrapping_add_signed(dy));
                let Place::Rank(u) = Place::of(self.rank[self.graph.index(to)]) else {
                    unreachable!("a region's way ends outside it");
                };
                let near: &mut Local = near.get_or_insert_with(Local::default);
                let tables = (&self.graph, &self.rank[..], &self.regions);
                near.search(tables, region, Source::Outside(cell), |_| {});
                let (_, i, d) = near.exit(u).expect("the region joins the edge's ends");
                near.steps_to(i, &mut through);
                through.push(d);
                directions.append(&mut through);
                continue;
            }
            // The steps run from the lower rank to the higher.
            if up {
                Packed::write(steps, &mut directions);
            } else {
                let at = directions.len();
                Packed::write(steps, &mut directions);
                directions[at..].reverse();
                for d in &mut directions[at..] {
                    *d = OPPOSITE[usize::from(*d)] as u8;
                }
            }
        }
        directions
    }
}
