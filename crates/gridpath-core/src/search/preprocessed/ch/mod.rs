//! Contraction hierarchies (Geisberger, Sanders, Schultes & Delling, 2008) over the grid graph,
//! built the customisable way (Dibbelt, Strasser & Wagner, 2016): exact queries on weighted
//! terrain, far faster than A* once the hierarchy is built.
//!
//! The contraction order comes from the shape of the grid alone, by nested dissection (see
//! `order.rs`): the passable cells are cut in two by a separator, a path of cells across
//! their bounding box that bends through walls to take as few passable cells as it can, and
//! the separator's cells come after everything on either side of it, each side being ordered
//! the same way first.
//!
//! Contracting a cell joins every pair of its neighbours that come later in the order (its
//! *upward* neighbours) with a shortcut; there is no witness search. The shortcuts are known
//! before any cost is: an upward neighbour set becomes a clique, and its lowest member, the
//! cell's parent in the *elimination tree*, inherits the rest. The costs come in two passes
//! over each cell's pairs of upward neighbours. Bottom up, an edge takes the cost of the way
//! through the cell below it when cheaper, remembering that cell as its middle: every edge
//! then costs the cheapest path between its ends through cells that come before both. Top down, an
//! edge takes the cost through cells above it too, so that every edge costs the cheapest path
//! between its ends; an edge is left out of the queries when a way round through another
//! upward neighbour of its lower end costs no more than its cost bottom up, both found in
//! the same look at each pair (each of the two edges of that way costs strictly less than
//! the edge, steps costing more than nothing, so by induction on the cost whatever is left
//! out has a replacement among the searched edges; on a map whose costs lie so far apart
//! that a sum may round to one of its terms, only a way strictly cheaper counts). The
//! edges that the searched ones unpack into are kept for unpacking only.
//!
//! A cheapest path always has a form that climbs and then descends the order through the
//! edges searched, and the cells it climbs through from one end are that end's ancestors in
//! the elimination tree. A query therefore walks up the tree from both ends with no priority
//! queue, each side keeping its costs by depth in the tree (one ancestor at each depth), in
//! arrays as long as the tree is high; the common ancestors are where the two sides meet, and
//! the cheapest meeting wins. It relaxes the upward edges of an ancestor only when the cost it was
//! reached at, plus a lower bound on the cost from it to the other end, lies below a limit:
//! the bounds come from the costs to thirty-two landmarks kept with the hierarchy (see
//! `landmarks.rs`), and the limit starts a little above the bound between the two ends, by a
//! ratio the build calibrates to the map (see `limits.rs`), and grows when a walk finds no
//! meeting under it. Where the processor has AVX-512, a rank's
//! edges are relaxed a block of eight depths at a time (see `blocks.rs`). The shortcuts of
//! the path found are unpacked into the cells they stand for, so the answer is a full
//! cell-by-cell path: each edge keeps either its steps themselves (up to fourteen, or
//! thirty-one in two directions) or the indices of its two halves, so that unpacking reads
//! one link an edge and searches no list; the path's cost and length are summed from its
//! steps as they are laid out.
//!
//! The smallest subtrees of the elimination tree, of at most sixteen cells, are left out of the
//! hierarchy as *regions* (see `regions.rs`): a query from a cell of a region searches the
//! region's few cells on the grid and starts its walk at the region's parent, with the costs
//! of the ranks around the region that it reached; a shortcut whose way lies through a region
//! and is too long for its link is unpacked by the same search. They hold some 60% of the
//! cells, which keep no landmarks' row, edges nor links.
//!
//! Where every terrain's cost is a whole number of some power of two (see `costs.rs`), each
//! searched edge's cost is kept as two counts in 32 bits rather than an `f64`. Once built,
//! the tables ask for huge pages (see `huge_pages.rs`): a query's reads are spread over them.
//!
//! Steps cost the same both ways on a flat map, so one set of upward edges serves both
//! searches. Maps with heights, whose steps may cost more one way than the other, are refused.
//! The diagonal rule is part of the graph: a hierarchy serves the rule it was built for.
//!
//! ```
//! use gridpath_core::grid::{Cell, Grid};
//! use gridpath_core::search::{Algorithm, ContractionHierarchy, Diagonal, SearchRequest};
//!
//! let grid = Grid::from_ascii(&["....~~....", ".##.~~.##.", "....==...."]).expect("a valid map");
//! let mut ch = ContractionHierarchy::build(&grid, Diagonal::NoCut);
//! let request = SearchRequest::new(Cell::new(0, 0), Cell::new(9, 2))
//!     .with_algorithm(Algorithm::ContractionHierarchy);
//! let result = ch.find_path(&request).expect("a valid request");
//! assert!(result.found);
//! assert_eq!(result.path.first(), Some(&Cell::new(0, 0)));
//! assert_eq!(result.path.last(), Some(&Cell::new(9, 2)));
//! ```

mod blocks;
mod costs;
mod customize;
mod landmarks;
mod limits;
mod order;
mod regions;

use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, Ordering};
use std::time::Instant;

use landmarks::Landmarks;
use limits::Limits;
use regions::{Local, Place, REGION_CELLS, Regions, Source};

use crate::grid::{Cell, Grid};
use crate::rng::Rng;

use crate::search::control::{SearchControl, UNCONTROLLED};
use crate::search::graph::{DX, DY, OPPOSITE, SearchGraph};
use crate::search::heuristic::Estimate;
use crate::search::preprocessed::huge_pages;
use crate::search::request::{
    Algorithm, Diagonal, Heuristic, SearchError, SearchRequest, SearchResult, Stats,
};

/// The seed of the sample queries that calibrate a hierarchy's limits: the same map always
/// gets the same limits.
const SEED: u64 = 0x9e37_79b9_7f4a_7c15;

/// No cell, no rank: an edge that is a step of the grid has no middle cell, and the top of
/// the elimination tree has no parent.
const NONE: u32 = u32::MAX;

/// The share of a build's time that each of its stages takes, for its progress: the order and
/// the upward sets, the pass bottom up, the pass top down, the marking of what unpacking
/// needs, the landmarks and the rest. Measured from the reported progress on two cores:
/// 0.88 (the order 0.38 of it), 1.91, 1.74, 0.42 and 1.37 s on the generated weighted 1024²
/// map (0.23, 0.45, 0.37, 0.10 and 0.30 s at 512²).
const STAGE_SHARES: [f64; 5] = [0.14, 0.30, 0.27, 0.07, 0.22];

/// How many walks a query makes with a limit; the next has none.
const MAX_WALKS: u32 = 6;

/// How many cells pass between two looks at the control for a cancellation.
const CANCEL_CHECK_EVERY: usize = 1024;

/// Moves `k` forward in `head` to the entry `target`, which the sorted list from `k` holds.
#[inline]
fn seek(head: &[u32], mut k: usize, target: u32) -> usize {
    while head[k] < target {
        k += 1;
    }
    debug_assert_eq!(
        head[k], target,
        "the upward neighbours of a cell form a clique"
    );
    k
}

/// The index of `target` in the sorted list `head[list]`, which holds it: found by a binary
/// search, for lists that may be long (those of the upper separators).
fn position(head: &[u32], list: std::ops::Range<usize>, target: u32) -> usize {
    let k = list.start + head[list.clone()].partition_point(|&h| h < target);
    debug_assert_eq!(head[k], target, "the list holds the rank sought");
    k
}

/// A map prepared for exact queries by contraction: every passable cell's upward edges.
///
/// Build it once per map and diagonal rule ([`ContractionHierarchy::build`]); queries
/// ([`ContractionHierarchy::find_path`]) return a cheapest path. An edit to the map calls for
/// a new build (a [`crate::search::Replanner`] drops its hierarchy on an edit and builds it again on
/// the next request that needs it).
///
/// Cells are numbered by *rank*, their place in the contraction order, in every array below
/// but `rank`. The edges are kept as flat arrays indexed by 32-bit offsets: a rank's upward
/// edges that the queries search, then those kept to unpack shortcuts only.
#[derive(Debug)]
pub struct ContractionHierarchy {
    graph: SearchGraph,
    /// The cell of each rank.
    order: Vec<u32>,
    /// The rank of each cell ([`NONE`] for walls).
    rank: Vec<u32>,
    /// The parent of each rank in the elimination tree: its lowest upward neighbour.
    parent: Vec<u32>,
    /// The depth of each rank in the elimination tree, a root's 0: one less than its parent's.
    depth: Vec<u16>,
    /// The most ranks on a way up the elimination tree, the deepest rank's depth and one.
    height: usize,
    /// The upward edges of rank `r` that are kept are `head[first[r]..first[r + 1]]`: the
    /// `start[r + 1] - start[r]` that the queries search first, then those that only unpack
    /// shortcuts, each list sorted by rank. A head is kept as its depth: every upward
    /// neighbour of a rank is one of its ancestors in the elimination tree, the one at that
    /// depth, so that a query, which walks the ancestors of its ends, keeps its costs by
    /// depth (see [`Side`]). `links` holds what unpacks each edge (see [`Link`]): its steps
    /// themselves for an edge of at most [`PACKED_STEPS`] steps, or of [`TWO_WAY_STEPS`] in
    /// two directions, or where its two halves are. Where the searched edges
    /// are kept by blocks (`blocks`), `head` holds the heads of the others alone (see
    /// [`Self::unpacking_heads`]).
    first: Vec<u32>,
    head: Vec<u16>,
    links: Links,
    /// The costs of the searched edges of rank `r`, in the order of their heads:
    /// `costs.row(start[r]..start[r + 1])`, in 32-bit words where the map allows it (see
    /// `costs.rs`).
    start: Vec<u32>,
    costs: costs::Costs,
    /// The number of searched edges that are shortcuts.
    shortcuts: usize,
    /// Every rank's cost to a few landmarks, whose lower bounds prune the queries.
    landmarks: Landmarks,
    /// The searched edges by blocks of eight depths, where the processor can relax them so.
    blocks: Option<blocks::Blocks>,
    /// The smallest subtrees of the elimination tree, left out of the above (see
    /// `regions.rs`).
    regions: Regions,
    /// The landmarks that lie in regions: `(region, landmark, its cell's index in the
    /// region)`, sorted.
    inside: Vec<(u32, u8, u8)>,
    /// The query state, allocated by the first query.
    forward: Side,
    backward: Side,
    /// The searches of the regions of a query's ends.
    local: [Local; 2],
    /// The limits of a query's walks, calibrated to the map (see `limits.rs`).
    limits: Limits,
}

/// A query's path: its cells, with its cost and length summed from them.
type Walked = (Vec<Cell>, (f64, f64));

/// Where a query's walk from one end starts: the rank and its depth ([`NONE`] for an end in a
/// region that is a whole part of the map), the end's costs to the landmarks (loose for an
/// end in a region: see [`landmarks::Ends`]), and the end's region.
struct Entry {
    rank: u32,
    depth: usize,
    row: ([u16; landmarks::LANDMARKS], bool),
    region: Option<u32>,
}

/// Which end a side's ranks are bounded towards, with the landmarks the query uses.
#[derive(Clone, Copy)]
struct End<'a> {
    ends: &'a landmarks::Ends,
    goal: bool,
}

/// The costs of one query direction along the ancestors of its end, indexed by depth in the
/// elimination tree (the ranks a side reaches are all ancestors of its end, one at each
/// depth), infinite between queries: a few kilobytes that stay in the cache, where arrays
/// indexed by rank would take 12 bytes a rank.
#[derive(Debug, Default)]
struct Side {
    dist: Vec<f64>,
    /// The depth each depth's rank was reached from ([`NO_LINK`] for none), and in the top bit
    /// ([`RELAXED`]) whether its edges were relaxed at its present cost: a walk that follows a
    /// failed one passes over such ranks. Reaching a rank at a lower cost clears the bit.
    link: Vec<u32>,
    /// The rank at each depth on the way up from the side's end, as the walk found it.
    chain: Vec<u32>,
}

/// No rank reached this one (the end itself, or an unreached rank).
const NO_LINK: u32 = !RELAXED;

/// The mark of a rank whose edges were relaxed at its present cost.
const RELAXED: u32 = 1 << 31;

impl Side {
    fn new(height: usize) -> Self {
        Self {
            dist: vec![f64::INFINITY; blocks::padded(height)],
            link: vec![NO_LINK; blocks::padded(height)],
            chain: vec![NONE; height],
        }
    }

    /// The depth that depth `d` was reached from.
    fn parent(&self, d: usize) -> Option<usize> {
        let p = self.link[d] & !RELAXED;
        (p != NO_LINK).then_some(p as usize)
    }

    /// Back to infinite costs at every depth from the end's (`end`) up.
    fn clear(&mut self, end: usize) {
        self.dist[..=end].fill(f64::INFINITY);
        self.link[..=end].fill(NO_LINK);
    }
}

/// The upward neighbour sets of every rank, found before any cost: the elimination tree and
/// the sets in one flat array.
struct Upward {
    parent: Vec<u32>,
    /// The upward neighbours of rank `r`, sorted, are `head[first[r]..first[r + 1]]`.
    first: Vec<u32>,
    head: Vec<u32>,
}

/// An edge the queries search.
const SEARCHED: u8 = 1;
/// An edge that unpacking needs (every searched edge, and what they unpack into).
const NEEDED: u8 = 2;

/// An edge offset as stored (32-bit), once the edges so far are within `max_edges`: a map
/// whose hierarchy would have more is refused as soon as its upward sets pass the budget,
/// before any cost is computed.
fn offset(edges: usize, max_edges: usize) -> Result<u32, SearchError> {
    let too_large = || SearchError::HierarchyTooLarge {
        edges,
        max: max_edges,
    };
    if edges > max_edges {
        return Err(too_large());
    }
    u32::try_from(edges).map_err(|_| too_large())
}

/// The upward neighbours of each rank once the ranks below are contracted: its neighbours on
/// the grid above it, and those of its children in the elimination tree but itself (the
/// upward neighbours of a contracted rank become a clique, and its lowest one, its parent,
/// holds the rest). Each set is gathered from the finished sets of the children, with a mark
/// per rank against repeats, so that nothing but the sets themselves is stored. More than
/// `max_edges` edges in all is refused ([`SearchError::HierarchyTooLarge`]).
fn upward_sets(
    graph: &SearchGraph,
    order: &[u32],
    rank: &[u32],
    max_edges: usize,
    check: &impl Fn(u32, usize) -> Result<(), SearchError>,
) -> Result<Upward, SearchError> {
    let ranks = order.len();
    let mut parent = vec![NONE; ranks];
    // The children of each rank as lists: the first child, then each child's next sibling.
    let mut child = vec![NONE; ranks];
    let mut sibling = vec![NONE; ranks];
    // The last rank whose set took each rank.
    let mut mark = vec![NONE; ranks];
    let mut first: Vec<u32> = Vec::with_capacity(ranks + 1);
    let mut head: Vec<u32> = Vec::new();
    for r in 0..ranks {
        check(0, r)?;
        let begin = head.len();
        first.push(offset(begin, max_edges)?);
        let id = r as u32;
        mark[r] = id;
        let c = order[r] as usize;
        for d in 0..8 {
            if graph.can_step(c, d) {
                let q = rank[(c as isize + graph.delta(d)) as usize];
                if q > id && mark[q as usize] != id {
                    mark[q as usize] = id;
                    head.push(q);
                }
            }
        }
        let mut kid = child[r];
        while kid != NONE {
            let k = kid as usize;
            for i in first[k] as usize..first[k + 1] as usize {
                let q = head[i];
                if mark[q as usize] != id {
                    mark[q as usize] = id;
                    head.push(q);
                }
            }
            kid = sibling[k];
        }
        head[begin..].sort_unstable();
        if let Some(&p) = head.get(begin) {
            parent[r] = p;
            sibling[r] = child[p as usize];
            child[p as usize] = id;
        }
    }
    first.push(offset(head.len(), max_edges)?);
    head.shrink_to_fit();
    Ok(Upward {
        parent,
        first,
        head,
    })
}

/// The most ranks on a way up the elimination tree that a hierarchy is built for: a head is
/// kept as its depth in 16 bits. The maps the hierarchy takes stay below it: a way up
/// passes through one separator of each region the dissection cuts, which takes no more
/// cells than a straight line across the region would (one of the paths it is the cheapest
/// of), so no more than the side of the map (2048 cells at [`CH_MAX_CELLS`]) nor than the
/// region's cells; and each side of a cut holds at most three quarters of the region's
/// cells, so a way up meets at most 27 regions of more than 2048 cells (4 × 2048 ranks
/// beyond them at most): some 63,500 ranks in the worst case, and a few thousand on real
/// maps. A higher tree would be refused ([`SearchError::HierarchyTooDeep`]).
const MAX_HEIGHT: usize = 1 << 16;

/// The depth of each rank in the elimination tree whose parents are `parent` (each parent
/// comes after its child, a root having [`NONE`]), and the height of the tree: the most
/// ranks on a way up. A tree higher than [`MAX_HEIGHT`] is refused.
fn depths(parent: &[u32]) -> Result<(Vec<u16>, usize), SearchError> {
    let mut depth = vec![0u16; parent.len()];
    let mut height = 0;
    for r in (0..parent.len()).rev() {
        let p = parent[r];
        if p != NONE {
            debug_assert!(p as usize > r, "a parent comes after its child");
            let d = usize::from(depth[p as usize]) + 1;
            depth[r] =
                u16::try_from(d).map_err(|_| SearchError::HierarchyTooDeep { max: MAX_HEIGHT })?;
        }
        height = height.max(usize::from(depth[r]) + 1);
    }
    Ok((depth, height))
}

/// The index of the edge from rank `low` up to the rank that `heads` keeps as `key`: among
/// the searched edges of `low` (`start` counts them) or among those it keeps for unpacking,
/// each list sorted so that `before(h)` holds of the entries before `key`'s.
fn find_edge<T: Copy + PartialEq>(
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

/// The contraction order of the passable cells (the cell of each rank) by nested dissection,
/// and the rank of each cell ([`NONE`] for walls).
fn contraction_order(graph: &SearchGraph) -> (Vec<u32>, Vec<u32>) {
    let order = order::nested_dissection(graph);
    let mut rank = vec![NONE; graph.len()];
    for (r, &c) in order.iter().enumerate() {
        rank[c as usize] = r as u32;
    }
    (order, rank)
}

/// The cost of each upward edge that is a step of the grid, infinite for the others: the costs
/// the passes over the pairs start from.
fn step_weights(
    graph: &SearchGraph,
    order: &[u32],
    rank: &[u32],
    head: &[u32],
    first: &[u32],
) -> Vec<f64> {
    let mut weight = vec![f64::INFINITY; head.len()];
    for (r, &c) in order.iter().enumerate() {
        let c = c as usize;
        let list = first[r] as usize..first[r + 1] as usize;
        for d in 0..8 {
            if graph.can_step(c, d) {
                let to = (c as isize + graph.delta(d)) as usize;
                let q = rank[to];
                if q as usize > r {
                    let k = position(head, list.clone(), q);
                    weight[k] = weight[k].min(graph.step_cost(c, to, d));
                }
            }
        }
    }
    weight
}

/// The kept edges as the build leaves them, heads as ranks: what the short edges are packed
/// from.
struct Kept<'a> {
    graph: &'a SearchGraph,
    order: &'a [u32],
    first: &'a [u32],
    start: &'a [u32],
    head: &'a [u32],
}

/// What unpacks a kept edge: its steps packed (see [`Packed`]), or, for an edge of more
/// steps, `middle` holds the index of its first half (the edge between its middle rank and
/// its lower end) and `across` the index of its second half (between the middle rank and its
/// higher end) less that of the first. Both halves belong to the middle rank, so the
/// difference is less than its kept edges; one too large for 16 bits is [`Links::FAR`], and
/// found in the list of such edges. Six bytes, which one look at memory reads.
#[derive(Clone, Copy, Debug)]
#[repr(C, packed(2))]
struct Link {
    middle: u32,
    across: i16,
}

impl Link {
    /// The top bit of `middle`: set for an edge whose steps are packed, clear for one whose
    /// first half's index (below [`CH_MAX_EDGES`]) `middle` holds.
    const PACKED: u32 = 1 << 31;

    /// The link of an edge whose steps are `packed`.
    fn packed(packed: u64) -> Self {
        Self {
            middle: Self::PACKED | (packed as u32 & !Self::PACKED),
            across: (packed >> 31) as u16 as i16,
        }
    }

    /// The link of an edge whose halves are the edges `first` and `second`, if they lie near
    /// enough for `across`.
    fn halves(first: usize, second: usize) -> Option<Self> {
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
    fn steps(self) -> Option<u64> {
        self.packed_bits()
            .filter(|&packed| Packed::code(packed) != Packed::REGION)
    }

    /// The link of an edge whose way lies through region `region` (see `regions.rs`), its
    /// higher end `(dx, dy)` from its lower one.
    fn region(region: u32, (dx, dy): (i32, i32)) -> Self {
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
    fn through_region(self) -> Option<(u32, (i32, i32))> {
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
    fn store(self, slot: &[AtomicU16; 3]) {
        let (middle, across) = (self.middle, self.across);
        for (word, value) in slot
            .iter()
            .zip([middle as u16, (middle >> 16) as u16, across as u16])
        {
            word.store(value, Ordering::Relaxed);
        }
    }

    fn load(slot: &[AtomicU16; 3]) -> Self {
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
struct Links {
    links: Vec<Link>,
    /// The edges whose halves lie too far apart for `across`, sorted: each with the index of
    /// its second half.
    far: Vec<(u32, u32)>,
}

impl Links {
    const FAR: i16 = i16::MIN;

    /// The index of the second half of edge `k`, whose link is `link` (not packed).
    #[inline]
    fn second(&self, k: usize, link: Link) -> usize {
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

    fn len(&self) -> usize {
        self.links.len()
    }

    /// The links without those of the first `edges` edges, which no other edge's link
    /// names: every index lowered by `edges`.
    fn without_first(self, edges: usize) -> Self {
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

    fn bytes(&self) -> usize {
        self.links.capacity() * size_of::<Link>() + self.far.capacity() * size_of::<(u32, u32)>()
    }
}

/// Writes the steps of every edge of at most [`PACKED_STEPS`] steps into its [`Link`] (see
/// [`Packed`]), and links every other edge to its two halves, lowest rank first, so that the
/// two halves of an edge, which belong to its lower middle rank (a descendant in the
/// elimination tree), are linked before it: on the threads `owner` gives the ranks to
/// ([`customize::by_subtrees`]). Every step of the grid is packed, so unpacking needs neither
/// the middle ranks nor the ends' cells: the steps run from the cell it has reached. Where
/// the map's costs have a unit and `count` asks for it, counts each edge's cost too (see
/// `costs.rs`): the counts, and the unit. `middle` holds each edge's middle rank, [`NONE`]
/// for a step of the grid.
fn pack_short_edges(
    kept: &Kept,
    middle: &[u32],
    owner: &[u8],
    (count, region_start): (bool, &[u32]),
) -> (Links, Option<(Vec<u32>, f64)>) {
    let within = *region_start.last().expect("a start for the first region");
    // Each edge's link once its rank is visited (see `Link::store`), as many bytes as the
    // links they turn into in place.
    let links: Vec<[AtomicU16; 3]> = middle.iter().map(|_| Default::default()).collect();
    let counter = costs::Counter::new(kept.graph).filter(|_| count);
    let counts: Vec<AtomicU32> = match counter {
        Some(_) => middle
            .iter()
            .map(|_| AtomicU32::new(costs::UNCOUNTED))
            .collect(),
        None => Vec::new(),
    };
    let count_of = |k: usize| counts[k].load(Ordering::Relaxed);
    let far = std::sync::Mutex::new(Vec::new());
    let Kept {
        graph,
        order,
        first,
        start,
        head,
    } = *kept;
    // Plain loads and stores: a rank writes its own edges, and reads those of ranks below
    // it, which no other thread writes.
    let steps_of = |k: usize| Link::load(&links[k]).steps();
    let edge_index = |a: usize, b: usize| {
        let (low, high) = if a < b { (a, b) } else { (b, a) };
        find_edge((first, start), head, low, high as u32, |h| {
            (h as usize) < high
        })
    };
    let pack = |r: usize| {
        let cell = order[r] as usize;
        let edges = first[r] as usize..first[r + 1] as usize;
        for (k, &h) in edges.clone().zip(&head[edges]) {
            let h = h as usize;
            let link = match middle[k] {
                NONE => {
                    let to = order[h] as usize;
                    let d = (0..8).find(|&d| {
                        graph.can_step(cell, d) && cell as isize + graph.delta(d) == to as isize
                    });
                    let d = d.expect("an edge of no middle is a step");
                    if let Some(counter) = counter {
                        counts[k].store(counter.step(graph, (cell, to), d), Ordering::Relaxed);
                    }
                    Link::packed(Packed::step(d as u32))
                }
                m => {
                    let m = m as usize;
                    let down = edge_index(m, r).expect("the middle keeps the first half");
                    let up = edge_index(m, h).expect("the middle keeps the second half");
                    if counter.is_some() {
                        let count = costs::Counter::join(count_of(down), count_of(up));
                        counts[k].store(count, Ordering::Relaxed);
                    }
                    // From `r` down to the middle (the first half backwards), then up.
                    let joined = match (steps_of(down), steps_of(up)) {
                        (Some(a), Some(b)) => Packed::join(a, b),
                        _ => None,
                    };
                    match joined {
                        Some(steps) => Link::packed(steps),
                        // A way through a region, from above it: unpacked by a search of the
                        // region, from one end to the other.
                        None if m < within as usize && r >= within as usize => {
                            let region = region_start.partition_point(|&s| s as usize <= m) - 1;
                            let (a, b) = (graph.cell(cell), graph.cell(order[h] as usize));
                            let (dx, dy) = (b.x as i32 - a.x as i32, b.y as i32 - a.y as i32);
                            Link::region(region as u32, (dx, dy))
                        }
                        None => Link::halves(down, up).unwrap_or_else(|| {
                            far.lock()
                                .expect("no thread panics holding it")
                                .push((k as u32, up as u32));
                            Link {
                                middle: down as u32,
                                across: Links::FAR,
                            }
                        }),
                    }
                }
            };
            link.store(&links[k]);
        }
    };
    let Ok(()) = customize::by_subtrees(owner, order.len(), false, pack, &mut |_| {
        Ok::<(), std::convert::Infallible>(())
    });
    let mut far = far.into_inner().expect("no thread panics holding it");
    far.sort_unstable();
    let links = Links {
        links: links.into_iter().map(|slot| Link::load(&slot)).collect(),
        far,
    };
    let counts = counter.map(|counter| {
        let counts = counts.into_iter().map(AtomicU32::into_inner).collect();
        (counts, counter.unit())
    });
    (links, counts)
}

impl ContractionHierarchy {
    /// A rough estimate of the build's time in a release build, from the map's passable
    /// cells, for telling a user up front that a build will be long. The time grows about as
    /// the cells to the power 1.7: measured 1.0 s for `random512-20-0` (209,281 cells) and
    /// 10.3–11.2 s for `Milan_1_1024` (795,765 cells) with `gridpath scen --algo ch`, on two
    /// cores (the build shares its passes between two threads; on one core it takes 1.3 to
    /// 1.7 times as long). Open ground takes longer than this (an empty 512 × 512 map 3.7 s,
    /// 2.2 times the estimate; 1024 × 1024, 25 s), its separators being whole lines of
    /// passable cells; the generated weighted maps take less (1024 × 1024 in 5.6 to 7.0 s,
    /// under half the estimate). At 2048 × 2048, open ground took 180 s (the estimate: 186
    /// s). A debug build takes longer.
    ///
    /// ```
    /// use gridpath_core::search::ContractionHierarchy;
    ///
    /// let small = ContractionHierarchy::build_estimate(10_000);
    /// let large = ContractionHierarchy::build_estimate(795_765);
    /// assert!(small.as_secs_f64() < 0.2 && (10.0..20.0).contains(&large.as_secs_f64()));
    /// ```
    pub fn build_estimate(passable: usize) -> std::time::Duration {
        let scale = passable as f64 / 795_765.0;
        std::time::Duration::from_secs_f64(11.0 * scale.powf(1.7))
    }

    /// Prepares a grid for exact queries under a diagonal rule. A map with heights gets a
    /// hierarchy whose queries are refused.
    ///
    /// # Panics
    ///
    /// When the hierarchy would have more than [`CH_MAX_EDGES`] edges (open ground of
    /// [`CH_MAX_CELLS`] cells has 258 million);
    /// [`ContractionHierarchy::from_graph_controlled`] returns that as an error.
    pub fn build(grid: &Grid, diagonal: Diagonal) -> Self {
        Self::from_graph(SearchGraph::new(grid, diagonal))
    }

    /// Refuses a graph of more than [`CH_MAX_CELLS`] cells, before any build.
    pub fn check_size(graph: &SearchGraph) -> Result<(), SearchError> {
        if graph.len() > CH_MAX_CELLS {
            return Err(SearchError::MapTooLarge {
                algorithm: Algorithm::ContractionHierarchy,
                cells: graph.len(),
                max: CH_MAX_CELLS,
            });
        }
        Ok(())
    }

    /// Refuses, before any build, a request that a hierarchy of `graph` would refuse: an end
    /// off the map or on a wall, another diagonal rule, a map with heights or one of more than
    /// [`CH_MAX_CELLS`] cells, options that mean nothing.
    pub fn check_request(graph: &SearchGraph, request: &SearchRequest) -> Result<(), SearchError> {
        crate::search::outcome::check(graph, request)
    }

    /// Prepares a search graph for exact queries, as [`ContractionHierarchy::build`] does.
    ///
    /// # Panics
    ///
    /// As [`ContractionHierarchy::build`] does, on a hierarchy of more than [`CH_MAX_EDGES`]
    /// edges: a build nobody can cancel fails on nothing else.
    pub fn from_graph(graph: SearchGraph) -> Self {
        match Self::from_graph_controlled(graph, &UNCONTROLLED) {
            Ok(ch) => ch,
            Err(error) => panic!("{error}"),
        }
    }

    /// Prepares a search graph for exact queries, looking for a cancellation every thousand
    /// or so cells: the build of a large map takes seconds, and a cancelled build stops with
    /// [`SearchError::Cancelled`].
    ///
    /// ```
    /// use gridpath_core::grid::{Grid, Terrain};
    /// use gridpath_core::search::{ContractionHierarchy, Diagonal, SearchControl, SearchError, SearchGraph};
    ///
    /// let grid = Grid::new(64, 64, Terrain::default_catalog(), 0).expect("a valid map");
    /// let graph = SearchGraph::new(&grid, Diagonal::NoCut);
    /// let control = SearchControl::new();
    /// control.cancel();
    /// let built = ContractionHierarchy::from_graph_controlled(graph.clone(), &control);
    /// assert!(matches!(built, Err(SearchError::Cancelled)));
    /// let built = ContractionHierarchy::from_graph_controlled(graph, &SearchControl::new());
    /// assert!(built.is_ok_and(|ch| ch.edge_count() > 0));
    /// ```
    pub fn from_graph_controlled(
        graph: SearchGraph,
        control: &SearchControl,
    ) -> Result<Self, SearchError> {
        Self::build_with(graph, control, (true, REGION_CELLS))
    }

    /// [`Self::from_graph_controlled`], keeping the costs in words where the map allows it
    /// if `words` (see `costs.rs`), in `f64`s otherwise, and leaving the subtrees of at most
    /// `most` ranks out of the hierarchy as regions (see `regions.rs`; none for 0).
    fn build_with(
        graph: SearchGraph,
        control: &SearchControl,
        (words, most): (bool, usize),
    ) -> Result<Self, SearchError> {
        // The build makes four passes over the ranks, then computes the landmarks' costs; each
        // of the five reports its progress (`stage + done`), which counts for its share of
        // the build's time.
        let passable = graph.passable_count().max(1) as f64;
        let report = |progress: f64| {
            let stage = (progress as usize).min(STAGE_SHARES.len() - 1);
            let before: f64 = STAGE_SHARES[..stage].iter().sum();
            control.report_build(before + STAGE_SHARES[stage] * (progress - stage as f64));
            if control.is_cancelled() {
                Err(SearchError::Cancelled)
            } else {
                Ok(())
            }
        };
        let check = |pass: u32, r: usize| {
            if !r.is_multiple_of(CANCEL_CHECK_EVERY) {
                return Ok(());
            }
            report(f64::from(pass) + r as f64 / passable)
        };
        check(0, 0)?;
        let (order, rank) = contraction_order(&graph);
        let ranks = order.len();
        let mut upward = upward_sets(&graph, &order, &rank, CH_MAX_EDGES, &check)?;
        // The regions first in the order, and the sets again in it: the same sets by the
        // same ranks, the regions' ranks numbered first (see `regions.rs`).
        let (mut order, mut rank, region_start) = if most > 0 {
            let (order, start) = regions::regions_first(&order, &upward.parent, most);
            let mut rank = vec![NONE; graph.len()];
            for (r, &c) in order.iter().enumerate() {
                rank[c as usize] = r as u32;
            }
            upward = upward_sets(&graph, &order, &rank, CH_MAX_EDGES, &check)?;
            (order, rank, start)
        } else {
            (order, rank, vec![0])
        };
        let Upward {
            mut parent,
            mut first,
            mut head,
        } = upward;
        // The regions' ranks, all below the others.
        let within = *region_start.last().expect("a start for the first region") as usize;
        let (mut depth, _) = depths(&parent)?;
        let span = |first: &[u32], r: usize| first[r] as usize..first[r + 1] as usize;

        let weight = step_weights(&graph, &order, &rank, &head, &first);

        // Bottom up, each rank joins every pair of its upward neighbours at the cost of the
        // way through it: each edge then costs the cheapest path through lower ranks. Top
        // down, each edge takes the cost of the cheapest path (through any rank, those above
        // included: the edges above are exact already), and is searched only when no way
        // round through a higher rank is as cheap (see `customize.rs`).
        let customize::Customized {
            mut weight,
            mut middle,
            flags,
        } = customize::customize(
            &head,
            &first,
            weight,
            customize::lanes(&first),
            &|pass, done| report(f64::from(pass) + done),
        )?;

        // Unpacking needs the searched edges and, through their middles, the edges they
        // stand for, each of which is kept by a lower rank than the edge it unpacks: a
        // descendant in the elimination tree, so that the subtrees can go to two threads, the
        // top of the tree first.
        let flags: Vec<AtomicU8> = flags.into_iter().map(AtomicU8::new).collect();
        // Plain loads and stores: no other thread writes this rank's edges.
        let mark = |k: usize| {
            let f = flags[k].load(Ordering::Relaxed);
            flags[k].store(f | NEEDED, Ordering::Relaxed);
        };
        let needed = |x: usize| {
            for k in span(&first, x) {
                let mut f = flags[k].load(Ordering::Relaxed);
                if f & SEARCHED != 0 {
                    f |= NEEDED;
                    flags[k].store(f, Ordering::Relaxed);
                }
                let m = middle[k];
                if f & NEEDED != 0 && m != NONE {
                    // The middle's list is sorted and holds both ends.
                    let list = span(&first, m as usize);
                    let low = position(&head, list.clone(), x as u32);
                    mark(low);
                    mark(position(&head, low..list.end, head[k]));
                }
            }
        };
        let owner = customize::tree_owners(&parent, head.len(), |x| span(&first, x).len() as u64);
        customize::by_subtrees(&owner, ranks, true, needed, &mut |done| report(3.0 + done))?;
        let flags: Vec<u8> = flags.into_iter().map(AtomicU8::into_inner).collect();

        // What the queries keep, in place: each rank's searched edges (heads, middles, and
        // costs in the front of `weight`), then its edges for unpacking alone, which wait in
        // `unpacking` while the searched ones are moved down. Nothing moves up, so nothing
        // unread is overwritten.
        let mut start = Vec::with_capacity(ranks + 1);
        let (mut kept, mut searched, mut shortcuts) = (0, 0, 0);
        let mut unpacking: Vec<(u32, u32)> = Vec::new();
        for r in 0..ranks {
            let edges = span(&first, r);
            first[r] = kept as u32;
            start.push(searched as u32);
            for k in edges {
                if flags[k] & SEARCHED != 0 {
                    head[kept] = head[k];
                    middle[kept] = middle[k];
                    weight[searched] = weight[k];
                    // Counted above the regions, which keep no edges.
                    shortcuts += usize::from(r >= within && middle[k] != NONE);
                    kept += 1;
                    searched += 1;
                } else if flags[k] & NEEDED != 0 {
                    unpacking.push((head[k], middle[k]));
                }
            }
            for (h, m) in unpacking.drain(..) {
                head[kept] = h;
                middle[kept] = m;
                kept += 1;
            }
        }
        first[ranks] = kept as u32;
        start.push(searched as u32);
        drop(flags);
        drop(unpacking);
        head.truncate(kept);
        head.shrink_to_fit();
        middle.truncate(kept);
        middle.shrink_to_fit();
        weight.truncate(searched);
        weight.shrink_to_fit();
        // The threads that pack the short edges and sweep the landmarks' costs.
        let owner = customize::tree_owners(&parent, weight.len(), |x| {
            u64::from(start[x + 1] - start[x]) + 1
        });
        let kept = Kept {
            graph: &graph,
            order: &order,
            first: &first,
            start: &start,
            head: &head,
        };
        let (links, counts) = pack_short_edges(&kept, &middle, &owner, (words, &region_start));
        drop(middle);
        let mut costs = costs::Costs::new(weight, &kept, counts);
        // The landmarks' costs from the edges' costs as the queries read them.
        let cost = costs.wide();
        let upward = landmarks::Upward {
            parent: &parent,
            first: &first,
            head: &head,
            start: &start,
            cost: &cost,
        };
        let mut landmarks = Landmarks::build(&upward, &owner, |l| {
            report(4.0 + l as f64 / landmarks::LANDMARKS as f64)
        })?;
        drop(cost);
        // The heads as depths.
        let mut head: Vec<u16> = head.iter().map(|&h| depth[h as usize]).collect();
        // The regions' ranks left out: their cells, and every table of the ranks above from
        // them on, with the edges' indices in the links lowered to match.
        let (edges_within, searched_within) = (first[within], start[within]);
        let region_up: Vec<u32> = region_start
            .windows(2)
            .map(|w| match parent[w[1] as usize - 1] {
                NONE => NONE,
                p => p - within as u32,
            })
            .collect();
        for (i, w) in region_start.windows(2).enumerate() {
            for (local, &c) in order[w[0] as usize..w[1] as usize].iter().enumerate() {
                rank[c as usize] = Place::region_entry(i as u32, local);
            }
        }
        for &c in &order[within..] {
            rank[c as usize] -= within as u32;
        }
        let regions = Regions {
            cells: order.drain(..within).collect(),
            start: region_start,
            up: region_up,
        };
        parent.drain(..within);
        for p in &mut parent {
            if *p != NONE {
                *p -= within as u32;
            }
        }
        depth.drain(..within);
        first.drain(..within);
        for f in &mut first {
            *f -= edges_within;
        }
        start.drain(..within);
        for s in &mut start {
            *s -= searched_within;
        }
        head.drain(..edges_within as usize);
        let links = links.without_first(edges_within as usize);
        costs.drop_first(searched_within as usize);
        let inside = landmarks.drop_first(within, &regions.start);
        for table in [&mut parent, &mut first, &mut start] {
            table.shrink_to_fit();
        }
        depth.shrink_to_fit();
        order.shrink_to_fit();
        head.shrink_to_fit();
        costs.shrink_to_fit();
        let ranks = ranks - within;
        let height = depth.iter().map(|&d| usize::from(d) + 1).max().unwrap_or(0);
        // What the queries' relaxations rely on to index the costs by head unchecked: every
        // head lies above its tail, so below the height (the arrays are not changed after the
        // build).
        assert!(
            (0..ranks).all(|r| head[span(&first, r)].iter().all(|&h| h < depth[r])),
            "every head lies above its tail in the elimination tree"
        );
        let blocks = blocks::Blocks::build(&first, &start, &head, height);
        if let Some(blocks) = &blocks {
            blocks.runs(&start, |run| costs.reverse(run));
        }
        // The words stand for the searched edges' heads: keep the others' alone.
        let head = match blocks {
            Some(_) => (0..ranks)
                .flat_map(|r| {
                    let searched = (start[r + 1] - start[r]) as usize;
                    &head[first[r] as usize + searched..first[r + 1] as usize]
                })
                .copied()
                .collect(),
            None => head,
        };
        let mut ch = Self {
            blocks,
            regions,
            inside,
            local: Default::default(),
            graph,
            order,
            rank,
            parent,
            depth,
            height,
            first,
            head,
            links,
            start,
            costs,
            shortcuts,
            landmarks,
            forward: Side::default(),
            backward: Side::default(),
            limits: Limits::default(),
        };
        ch.limits = ch.calibrate();
        ch.back_with_huge_pages();
        control.report_build(1.0);
        Ok(ch)
    }

    /// Asks for huge pages under the tables the queries read (see [`huge_pages`]): a query
    /// reads a few hundred ranks' rows, edges and links spread over them.
    fn back_with_huge_pages(&self) {
        huge_pages::back(&self.order);
        huge_pages::back(&self.rank);
        huge_pages::back(&self.parent);
        huge_pages::back(&self.depth);
        huge_pages::back(&self.first);
        huge_pages::back(&self.head);
        huge_pages::back(&self.links.links);
        huge_pages::back(&self.start);
        self.costs.back_with_huge_pages();
        self.landmarks.back_with_huge_pages();
        if let Some(blocks) = &self.blocks {
            blocks.back_with_huge_pages();
        }
    }

    /// The graph the queries run on.
    pub fn graph(&self) -> &SearchGraph {
        &self.graph
    }

    /// The number of upward edges the queries search: steps of the grid and shortcuts.
    pub fn edge_count(&self) -> usize {
        self.costs.len()
    }

    /// The number of shortcuts among the upward edges the queries search.
    pub fn shortcut_count(&self) -> usize {
        self.shortcuts
    }

    /// The number of upward edges kept to unpack shortcuts, those searched included.
    pub fn unpacking_edge_count(&self) -> usize {
        self.links.len()
    }

    /// The most ranks on a way up the elimination tree: how many ranks a query's walk from
    /// one end may pass, and how many entries each side of the query state has.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The memory the hierarchy takes beyond the search graph, in bytes (the query state
    /// included once a query has allocated it).
    pub fn hierarchy_bytes(&self) -> usize {
        fn bytes<T>(v: &Vec<T>) -> usize {
            v.capacity() * size_of::<T>()
        }
        let side = |s: &Side| bytes(&s.dist) + bytes(&s.link) + bytes(&s.chain);
        bytes(&self.order)
            + bytes(&self.rank)
            + bytes(&self.parent)
            + bytes(&self.depth)
            + bytes(&self.first)
            + bytes(&self.head)
            + self.links.bytes()
            + bytes(&self.start)
            + self.costs.bytes()
            + self.landmarks.bytes()
            + self.blocks.as_ref().map_or(0, blocks::Blocks::bytes)
            + bytes(&self.regions.cells)
            + bytes(&self.regions.start)
            + bytes(&self.regions.up)
            + bytes(&self.inside)
            + side(&self.forward)
            + side(&self.backward)
    }

    /// A cheapest path from the request's start to its goal.
    ///
    /// Fails when an end is off the map or impassable, when the map has heights, or when the
    /// hierarchy was built for another diagonal rule than the request's. `stats.time_us` is
    /// the time of the query alone, not of the first query's allocation of the query state
    /// (32 bytes for each depth of the elimination tree, [`Self::height`]); `expanded` counts
    /// the cells both searches expanded.
    pub fn find_path(&mut self, request: &SearchRequest) -> Result<SearchResult, SearchError> {
        crate::search::outcome::check(&self.graph, request)?;
        if self.graph.has_heights() {
            return Err(SearchError::HeightsUnsupported {
                algorithm: request.algorithm,
            });
        }
        self.allocate_query_state();
        let started = Instant::now();
        let mut stats = Stats::default();
        let start = self.graph.index(request.start);
        let goal = self.graph.index(request.goal);
        let limits = self.limits;
        let (path, _) = self.query((start, goal), &limits, &mut stats);
        stats.time_us = started.elapsed().as_micros() as u64;
        stats.prepared_bytes = self.hierarchy_bytes() as u64;
        Ok(crate::search::outcome::result_of_cells(
            request, path, stats, None,
        ))
    }

    /// Relaxes the searched upward edges of rank `x`, at depth `dx`, on one side, unless the
    /// rank's cost so far plus the landmarks' bound to the other end reaches `limit`. The
    /// first checks are inlined into the walk, which passes over most ranks unreached.
    #[inline(always)]
    fn relax(
        &self,
        side: &mut Side,
        (x, dx): (u32, usize),
        limit: f64,
        to: End,
        stats: &mut Stats,
    ) {
        let d = side.dist[dx];
        // Nothing dearer than the limit can lead to a cheaper meeting (steps cost more than
        // nothing); an unreached rank has an infinite cost, and its link is not read.
        if d >= limit || side.link[dx] & RELAXED != 0 {
            return;
        }
        self.relax_bounded(side, (x as usize, dx), d, limit, to, stats);
    }

    /// The rest of [`Self::relax`]: the bound, then the edges.
    #[inline(never)]
    fn relax_bounded(
        &self,
        side: &mut Side,
        (x, dx): (usize, usize),
        d: f64,
        limit: f64,
        to: End,
        stats: &mut Stats,
    ) {
        if self.landmarks.prunes(to.ends, x, to.goal, d, limit) {
            return;
        }
        side.link[dx] |= RELAXED;
        stats.expanded += 1;
        let row = self
            .costs
            .row(self.start[x] as usize..self.start[x + 1] as usize);
        let (dist, link) = (&mut side.dist[..], &mut side.link[..]);
        if let Some(blocks) = &self.blocks {
            blocks.relax(x, (d, dx as u32), row, dist, link);
            return;
        }
        let from = self.first[x] as usize;
        let heads = &self.head[from..from + row.len()];
        match row {
            costs::Row::Wide(costs) => {
                self.relax_edges(heads, costs.iter().copied(), (d, dx), dist, link);
            }
            costs::Row::Counted(words, scale) => {
                let costs = words.iter().map(|&w| scale.cost(w));
                self.relax_edges(heads, costs, (d, dx), dist, link);
            }
        }
    }

    /// Relaxes the edges to the depths `heads`, of costs `costs`, from the rank at depth `dx`
    /// reached at cost `d`, one at a time: each head's cost and link fall to `d +` the edge's
    /// cost and `dx` where that is cheaper.
    #[inline(always)]
    fn relax_edges(
        &self,
        heads: &[u16],
        costs: impl Iterator<Item = f64>,
        (d, dx): (f64, usize),
        dist: &mut [f64],
        link: &mut [u32],
    ) {
        assert!(dist.len() == blocks::padded(self.height) && link.len() == dist.len());
        for (&y, c) in heads.iter().zip(costs) {
            let y = usize::from(y);
            debug_assert!(y < dx);
            let nd = d + c;
            // SAFETY: every head lies above its tail in the elimination tree (asserted at the
            // end of the build, and the heads never change after it), so its depth is below
            // the height, within both arrays (the height in whole blocks). Written whether or
            // not the cost falls, without a branch: which way it goes is hard to predict.
            unsafe {
                let old = *dist.get_unchecked(y);
                let better = nd < old;
                *dist.get_unchecked_mut(y) = std::hint::select_unpredictable(better, nd, old);
                let l = *link.get_unchecked(y);
                *link.get_unchecked_mut(y) = std::hint::select_unpredictable(better, dx as u32, l);
            }
        }
    }

    /// One walk up the elimination tree from both ends, relaxing the ranks that may lie on a
    /// path cheaper than `limit` and were not relaxed at their present cost by an earlier
    /// walk: the cheapest meeting, `(cost, depth)`, improves on `found`. The common ancestors
    /// are where the two sides meet; below them each side walks its own ranks, and the order
    /// between the two sides does not matter there.
    fn walk(
        &self,
        (from, to): (&Entry, &Entry),
        limit: f64,
        found: (f64, u32),
        ends: &landmarks::Ends,
        (forward, backward): (&mut Side, &mut Side),
        stats: &mut Stats,
    ) -> (f64, u32) {
        let (mut x, mut y) = (from.rank, to.rank);
        let (mut dx, mut dy) = (from.depth, to.depth);
        let to_goal = End { ends, goal: true };
        let to_start = End { ends, goal: false };
        let (mut best, mut meeting) = found;
        let below = best.min(limit);
        // A rank at depth 1 or more has a parent.
        while dx > dy {
            forward.chain[dx] = x;
            self.relax(forward, (x, dx), below, to_goal, stats);
            x = self.parent[x as usize];
            dx -= 1;
        }
        while dy > dx {
            backward.chain[dy] = y;
            self.relax(backward, (y, dy), below, to_start, stats);
            y = self.parent[y as usize];
            dy -= 1;
        }
        // The same depth on both sides from here; two roots step up to no rank together.
        while x != y {
            forward.chain[dx] = x;
            backward.chain[dx] = y;
            self.relax(forward, (x, dx), below, to_goal, stats);
            self.relax(backward, (y, dx), below, to_start, stats);
            x = self.parent[x as usize];
            y = self.parent[y as usize];
            dx = dx.wrapping_sub(1);
        }
        while x != NONE {
            forward.chain[dx] = x;
            backward.chain[dx] = x;
            let through = forward.dist[dx] + backward.dist[dx];
            if through < best {
                best = through;
                meeting = dx as u32;
            }
            self.relax(forward, (x, dx), best.min(limit), to_goal, stats);
            self.relax(backward, (x, dx), best.min(limit), to_start, stats);
            x = self.parent[x as usize];
            dx = dx.wrapping_sub(1);
        }
        (best, meeting)
    }

    /// Walks the elimination tree up from both ends and unpacks the cheapest meeting into
    /// cells, with the path's cost and length summed from them. Every rank of a cheapest path
    /// that climbs and descends the order is an ancestor of one end or the other, and its top
    /// one of both.
    ///
    /// The walks' limits are `limits` over the bound between the ends (the larger of the
    /// landmarks' and the grid's, see [`Self::grid_bound`]). A walk
    /// that meets below its limit has found the cheapest path; otherwise the limit grows (to
    /// the cheapest meeting found, when that is lower) and the walk runs again, with no limit
    /// after [`MAX_WALKS`] tries. A walk keeps what the walks before it found. Also returns
    /// the bound (0 where there is none, as between two cells of one region).
    fn query(
        &mut self,
        (start, goal): (usize, usize),
        limits: &Limits,
        stats: &mut Stats,
    ) -> (Option<Walked>, f64) {
        if start == goal {
            return (Some((vec![self.graph.cell(start)], (0.0, 0.0))), 0.0);
        }
        self.allocate_query_state();
        let mut forward = std::mem::take(&mut self.forward);
        let mut backward = std::mem::take(&mut self.backward);
        let [mut near_start, mut near_goal] = std::mem::take(&mut self.local);
        for end in [start, goal] {
            Local::prefetch((&self.graph, &self.rank, &self.regions), end);
        }
        let from = self.enter(start, &mut forward, &mut near_start, stats);
        let to = self.enter(goal, &mut backward, &mut near_goal, stats);
        let path = self.meet(
            (start, goal),
            (&from, &to),
            limits,
            (&mut forward, &mut backward),
            (&near_start, &near_goal),
            stats,
        );
        if from.rank != NONE {
            forward.clear(from.depth);
        }
        if to.rank != NONE {
            backward.clear(to.depth);
        }
        self.forward = forward;
        self.backward = backward;
        self.local = [near_start, near_goal];
        path
    }

    /// Where a walk from cell `cell` starts, with its costs there: the cell's own rank at no
    /// cost, or, for a cell of a region, the region's parent with the costs of the region's
    /// neighbours found by a search of the region (`near`).
    fn enter(&self, cell: usize, side: &mut Side, near: &mut Local, stats: &mut Stats) -> Entry {
        match Place::of(self.rank[cell]) {
            Place::Rank(u) => {
                let depth = usize::from(self.depth[u as usize]);
                side.dist[depth] = 0.0;
                Entry {
                    rank: u,
                    depth,
                    row: (self.landmarks.row_of(u as usize), false),
                    region: None,
                }
            }
            Place::Region(region, local) => {
                near.search(
                    (&self.graph, &self.rank, &self.regions),
                    region,
                    Source::Inside(local),
                    // The ranks around the region are read next: their depths and rows.
                    |u| {
                        crate::search::space::prefetch(&self.depth, u as usize);
                        self.landmarks.prefetch(u as usize);
                    },
                );
                stats.expanded += near.settled as u64;
                let up = self.regions.up[region as usize];
                for &(u, cost, ..) in &near.exits {
                    side.dist[usize::from(self.depth[u as usize])] = cost;
                }
                let first = self.inside.partition_point(|&(r, ..)| r < region);
                let inside = self.inside[first..]
                    .iter()
                    .take_while(|&&(r, ..)| r == region)
                    .map(|&(_, l, j)| (usize::from(l), near.dist[usize::from(j)]));
                let exits = near.exits.iter().map(|&(u, cost, ..)| (u, cost));
                Entry {
                    rank: up,
                    depth: if up == NONE {
                        0
                    } else {
                        usize::from(self.depth[up as usize])
                    },
                    row: (self.landmarks.row_through(exits, inside), true),
                    region: Some(region),
                }
            }
        }
    }

    /// The walks between two ends (see [`Self::query`]) and the cheapest path's cells, with
    /// the bound between the ends the limits were taken over.
    fn meet(
        &self,
        (start, goal): (usize, usize),
        (from, to): (&Entry, &Entry),
        limits: &Limits,
        (forward, backward): (&mut Side, &mut Side),
        (near_start, near_goal): (&Local, &Local),
        stats: &mut Stats,
    ) -> (Option<Walked>, f64) {
        // Two cells of one region: the cheapest way within it, unless a walk finds better.
        let mut found = (f64::INFINITY, NONE);
        let goal_place = Place::of(self.rank[goal]);
        if let (Some(a), Place::Region(b, j)) = (from.region, goal_place)
            && a == b
        {
            found.0 = near_start.dist[usize::from(j)];
        }
        let within = |found: (f64, u32)| {
            found.0.is_finite().then(|| {
                let Place::Region(_, j) = goal_place else {
                    unreachable!("the goal lies in the region");
                };
                let mut steps = Vec::new();
                near_start.steps_to(j, &mut steps);
                self.unpack(steps.into_iter().map(Unpacked::step).collect(), start)
            })
        };
        if from.rank == NONE || to.rank == NONE {
            return (within(found), 0.0);
        }
        // A landmark that reaches one end and not the other: no way joins them.
        let Some((bounds, bound)) = self.landmarks.between_rows(from.row, to.row) else {
            return (within(found), 0.0);
        };
        // The limits start from the larger of the landmarks' bound and the grid's: on open
        // ground of one cost the grid's is often the larger, and often the cost itself.
        let bound = bound.max(self.grid_bound(start, goal));
        // No limit above the cost of a way through one landmark: a walk under it meets.
        let upper = self.landmarks.upper(&bounds);
        let mut limit = if bound > 0.0 {
            limits.first(bound)
        } else {
            f64::INFINITY
        }
        .min(upper);
        let mut walks = 1;
        let meeting = loop {
            found = self.walk(
                (from, to),
                limit,
                found,
                &bounds,
                (forward, backward),
                stats,
            );
            let (best, meeting) = found;
            // No cheapest path is dearer than the limit here: it would have been kept whole.
            if best < limit || limit == f64::INFINITY {
                break meeting;
            }
            // The next walk starts from the costs this one found: they are costs of real
            // paths, and it relaxes again only the ranks it prunes no longer or whose costs
            // have fallen.
            limit = if walks == MAX_WALKS {
                f64::INFINITY
            } else {
                let next = limits.after(limit, bound, walks);
                // A walk under the landmarks' upper bound that met nowhere: rounding beyond
                // what the bound allows for, which the next limits pass.
                let next = if limit < upper { next.min(upper) } else { next };
                next.min(best.next_up())
            };
            walks += 1;
        };
        if meeting == NONE {
            return (within(found), bound);
        }
        // Start → meeting along the forward links, then meeting → goal, depth by depth, the
        // ranks from each side's chain.
        let ranks = |side: &Side| {
            let mut depths = vec![meeting as usize];
            while let Some(p) = depths.last().and_then(|&top| side.parent(top)) {
                depths.push(p);
            }
            depths
                .into_iter()
                .map(|d| side.chain[d] as usize)
                .collect::<Vec<_>>()
        };
        let mut climb = ranks(forward);
        climb.reverse();
        let descent = ranks(backward);
        let mut edges = Vec::new();
        // Into the first rank from the start's region, and from the last into the goal's.
        let mut steps = Vec::new();
        if from.region.is_some() {
            let (_, i, d) = near_start
                .exit(climb[0] as u32)
                .expect("a way out of the region");
            near_start.steps_to(i, &mut steps);
            steps.push(d);
            edges.extend(steps.drain(..).map(Unpacked::step));
        }
        edges.extend(climb.windows(2).chain(descent.windows(2)).map(|pair| {
            let k = self.edge_index(pair[0], pair[1]);
            Unpacked::Halves(k.expect("an edge of the hierarchy"), pair[0] < pair[1])
        }));
        if to.region.is_some() {
            let last = *descent.last().expect("the meeting at least") as u32;
            let (_, i, d) = near_goal.exit(last).expect("a way out of the region");
            near_goal.steps_to(i, &mut steps);
            steps.push(d);
            let back = steps.iter().rev().map(|&d| OPPOSITE[usize::from(d)] as u8);
            edges.extend(back.map(Unpacked::step));
        }
        (Some(self.unpack(edges, start)), bound)
    }

    /// The least a way between cells `a` and `b` costs by the grid alone: the distance of
    /// the graph's rule (octile on squares with diagonal steps) at the cheapest terrain's
    /// cost, lowered by far more than its rounding. Only the walks' limits read it, which
    /// change how much a query relaxes, never what it answers.
    fn grid_bound(&self, a: usize, b: usize) -> f64 {
        let (a, b) = (self.graph.cell(a), self.graph.cell(b));
        let topology = self.graph.topology();
        let kind = Heuristic::default_on(topology, self.graph.diagonal());
        let estimate = Estimate::new(topology, kind, b.x, b.y, self.graph.min_cost());
        estimate.at(a.x as i32, a.y as i32) * (1.0 - 1e-9)
    }

    /// The limits of the queries on this hierarchy, from the costs of [`limits::SAMPLES`]
    /// queries between cells drawn at random (the same on every build of a map), over the
    /// bounds between their ends (see `limits.rs`).
    fn calibrate(&mut self) -> Limits {
        let cells = self.graph.len();
        let mut rng = Rng::new(SEED);
        let defaults = Limits::default();
        let mut ratios = Vec::with_capacity(limits::SAMPLES);
        // Bounded draws, however few passable cells or ways between them the map has.
        for _ in 0..20 * limits::SAMPLES {
            if ratios.len() == limits::SAMPLES {
                break;
            }
            let (a, b) = (rng.below(cells), rng.below(cells));
            if a == b || !self.graph.is_passable(a) || !self.graph.is_passable(b) {
                continue;
            }
            if let (Some((_, (cost, _))), bound) =
                self.query((a, b), &defaults, &mut Stats::default())
                && bound > 0.0
            {
                ratios.push(cost / bound);
            }
        }
        // The queries' state goes as it came: the first query allocates it.
        self.forward = Side::default();
        self.backward = Side::default();
        self.local = Default::default();
        Limits::calibrated(ratios)
    }

    /// The costs and links of both sides, unreached, once: the first query allocates them.
    fn allocate_query_state(&mut self) {
        if self.forward.dist.len() != blocks::padded(self.height) {
            self.forward = Side::new(self.height);
            self.backward = Side::new(self.height);
        }
    }

    /// The index of the edge between two ranks: among the searched edges of the lower rank or
    /// among those it keeps for unpacking, each list sorted by rank, so by depth downwards.
    fn edge_index(&self, a: usize, b: usize) -> Option<usize> {
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
    fn unpacking_heads(&self, r: usize) -> std::ops::Range<usize> {
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
    fn unpack(&self, mut edges: Vec<Unpacked>, from: usize) -> (Vec<Cell>, (f64, f64)) {
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
enum Unpacked {
    Halves(usize, bool),
    Steps(u64, bool),
}

impl Unpacked {
    /// One step in direction `d`, taken as it runs.
    fn step(d: u8) -> Self {
        Unpacked::Steps(Packed::step(d.into()), true)
    }
}

/// The most steps an edge's [`Link`] can hold in place of its halves, in any directions.
const PACKED_STEPS: u64 = 14;

/// The most steps an edge's [`Link`] can hold when they take two directions at most.
const TWO_WAY_STEPS: u64 = 31;

/// An edge's steps packed into the 47 bits of a [`Link`] beside its flag, from the edge's
/// lower rank to its higher, with a code in the top five bits. A code of 1 to
/// [`PACKED_STEPS`] is the number of steps, three bits each below it, the first step in the
/// lowest bits. The code [`Packed::TWO_WAY`] holds up to [`TWO_WAY_STEPS`] steps in two
/// directions (the cheapest paths of a few steps mostly keep to two neighbouring ones): the
/// first direction in the lowest three bits, the second in the next three, the number of
/// steps in the next five, then a bit a step, set for the second direction.
struct Packed;

/// An edge's steps, unpacked: the directions, and how many there are.
type Steps = ([u8; TWO_WAY_STEPS as usize], usize);

impl Packed {
    const BITS: u32 = 47;
    const TWO_WAY: u64 = 31;
    /// The code of an edge whose way lies through a region: no steps, the region's number
    /// and where its higher end lies (see [`Link::region`]).
    const REGION: u64 = PACKED_STEPS + 1;

    fn code(packed: u64) -> u64 {
        packed >> (Self::BITS - 5)
    }

    fn len(packed: u64) -> u64 {
        match Self::code(packed) {
            Self::TWO_WAY => (packed >> 6) & 0x1f,
            n => n,
        }
    }

    fn step(d: u32) -> u64 {
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
    fn pack(steps: &[u8]) -> Option<u64> {
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
    fn join(down: u64, up: u64) -> Option<u64> {
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
    fn steps(packed: u64) -> impl Iterator<Item = usize> {
        let (steps, len) = Self::unpacked(packed);
        (0..len).map(move |i| usize::from(steps[i]))
    }

    /// The steps, the last first.
    #[cfg(test)]
    fn steps_backwards(packed: u64) -> impl Iterator<Item = usize> {
        let (steps, len) = Self::unpacked(packed);
        (0..len).rev().map(move |i| usize::from(steps[i]))
    }
}

/// The most cells a contraction hierarchy is built for: 2048 × 2048. Its build takes minutes
/// there and grows faster than the map (about 1 minute for the generated weighted terrain of
/// `benches/weighted.rs` at 2048², 3.5 minutes for open ground, on two cores).
pub const CH_MAX_CELLS: usize = 1 << 22;

/// The most upward edges a contraction hierarchy is built with, shortcuts included, counted
/// before any cost: the build holds about 19 bytes an edge at its peak (counted by
/// `benches/memory.rs`: 2.8 GB for the 148 million edges of the generated weighted terrain of
/// `benches/weighted.rs` at 2048², 4.9 GB for the 258 million of open ground there), so this
/// keeps it within about 6 GB. The edges grow with the passable cells of the separators: open
/// ground has the most.
pub const CH_MAX_EDGES: usize = 300_000_000;

/// Builds the hierarchy for one query and answers it: what `solve` and
/// [`crate::search::Searcher`] do for [`Algorithm::ContractionHierarchy`].
pub(crate) fn ch_once(
    graph: &SearchGraph,
    request: &SearchRequest,
    control: &SearchControl,
) -> Result<SearchResult, SearchError> {
    debug_assert_eq!(request.algorithm, Algorithm::ContractionHierarchy);
    ContractionHierarchy::check_request(graph, request)?;
    ContractionHierarchy::from_graph_controlled(graph.clone(), control)?.find_path(request)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    use crate::grid::{Cell, Terrain, TerrainId};
    use crate::search::{FlowField, solve};

    /// Rows of a map with walls that make long detours, a closed room and single-cell pockets.
    const DETOURS: [&str; 9] = [
        "..........#.....~~..",
        ".########.#.###.~~#.",
        ".#......#.#...#.==#.",
        ".#.####.#.###.#.==#.",
        ".#.#..#.#.....#...#.",
        ".#.#..#.#######.###.",
        ".#.####.........#.#.",
        ".#..............#.#.",
        ".################...",
    ];

    /// Every passable cell of a grid.
    fn passable(grid: &Grid) -> Vec<Cell> {
        (0..grid.height())
            .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
            .filter(|&c| grid.is_passable(c))
            .collect()
    }

    /// A hierarchy with no regions: every cell a rank.
    fn whole(grid: &Grid, diagonal: Diagonal) -> ContractionHierarchy {
        let graph = SearchGraph::new(grid, diagonal);
        ContractionHierarchy::build_with(graph, &UNCONTROLLED, (true, 0)).unwrap()
    }

    #[test]
    fn the_landmarks_bounds_never_exceed_the_cost_and_tell_apart_parts_with_no_way_between() {
        let grid = Grid::from_ascii(&DETOURS).unwrap();
        let ch = whole(&grid, Diagonal::NoCut);
        let cells = passable(&grid);
        let (mut tight, mut tight_above, mut pruned) = (0, 0, 0);
        for &a in &cells {
            let field = FlowField::new(&ch.graph, a).unwrap();
            let ra = ch.rank[ch.graph.index(a)] as usize;
            for &b in &cells {
                let rb = ch.rank[ch.graph.index(b)] as usize;
                let between = ch.landmarks.between(ra, rb);
                match field.cost(b) {
                    None => assert!(between.is_none(), "{a} → {b} has no way"),
                    Some(cost) => {
                        let (ends, bound) = between.expect("a way joins them");
                        let to_goal = ch.landmarks.lower(&ends, ra, true);
                        let to_start = ch.landmarks.lower(&ends, rb, false);
                        for lower in [bound, to_goal, to_start] {
                            assert!(lower <= cost * (1.0 + 1e-12), "{a} → {b}: {lower} > {cost}");
                        }
                        let upper = ch.landmarks.upper(&ends);
                        assert!(upper >= cost * (1.0 - 1e-12), "{a} → {b}: {upper} < {cost}");
                        tight += usize::from(bound >= 0.999 * cost && cost > 0.0);
                        tight_above += usize::from(upper <= 1.001 * cost + 0.01);
                        // The test by units: never a rank whose way costs less than the limit,
                        // nor one that the bound in costs keeps.
                        let above = cost * (1.0 + 1e-9) + 1e-9;
                        assert!(
                            !ch.landmarks.prunes(&ends, ra, true, 0.0, above),
                            "{a} → {b}"
                        );
                        assert!(
                            !ch.landmarks.prunes(&ends, rb, false, 0.0, above),
                            "{a} → {b}"
                        );
                        for limit in [0.25 * cost, 0.5 * cost, 0.9 * cost, cost] {
                            for d in [0.0, 0.1 * limit] {
                                if ch.landmarks.prunes(&ends, ra, true, d, limit) {
                                    assert!(d + to_goal >= limit, "{a} → {b}: {d} {limit}");
                                    pruned += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        // Not a bound of zero everywhere: many pairs are bounded to their cost, from below
        // and from above.
        assert!(tight > cells.len(), "{tight} tight bounds");
        assert!(
            tight_above > cells.len(),
            "{tight_above} tight upper bounds"
        );
        assert!(pruned > cells.len(), "{pruned} limits pruned by units");
    }

    #[test]
    fn the_landmarks_bounds_from_cells_of_regions_never_exceed_the_cost() {
        let grid = Grid::from_ascii(&DETOURS).unwrap();
        let mut ch = ContractionHierarchy::build(&grid, Diagonal::NoCut);
        ch.allocate_query_state();
        let cells = passable(&grid);
        let in_region = |ch: &ContractionHierarchy, c: Cell| {
            matches!(Place::of(ch.rank[ch.graph.index(c)]), Place::Region(..))
        };
        let regions = cells.iter().filter(|&&c| in_region(&ch, c)).count();
        assert!(regions > cells.len() / 2, "{regions} cells in regions");
        let (mut tight, mut checked) = (0, 0);
        for &a in &cells {
            let field = FlowField::new(&ch.graph, a).unwrap();
            let (mut sides, mut near) =
                (Side::new(ch.height), [Local::default(), Local::default()]);
            let from = ch.enter(
                ch.graph.index(a),
                &mut sides,
                &mut near[0],
                &mut Stats::default(),
            );
            for &b in &cells {
                let to = ch.enter(
                    ch.graph.index(b),
                    &mut sides,
                    &mut near[1],
                    &mut Stats::default(),
                );
                let (Some(cost), Some((ends, bound))) =
                    (field.cost(b), ch.landmarks.between_rows(from.row, to.row))
                else {
                    continue;
                };
                checked += 1;
                assert!(bound <= cost * (1.0 + 1e-12), "{a} → {b}: {bound} > {cost}");
                let upper = ch.landmarks.upper(&ends);
                assert!(upper >= cost * (1.0 - 1e-12), "{a} → {b}: {upper} < {cost}");
                tight += usize::from(bound >= 0.9 * cost && cost > 0.0);
                // Never a rank on a cheapest way pruned: the rank the walk from `a` starts
                // at, reached at its cost from `a`, towards `b`.
                if from.rank != NONE && to.rank != NONE {
                    let via = FlowField::new(
                        &ch.graph,
                        ch.graph.cell(ch.order[from.rank as usize] as usize),
                    )
                    .unwrap();
                    let reached = field
                        .cost(ch.graph.cell(ch.order[from.rank as usize] as usize))
                        .unwrap();
                    let through = reached + via.cost(b).unwrap();
                    let above = through * (1.0 + 1e-9) + 1e-9;
                    assert!(
                        !ch.landmarks
                            .prunes(&ends, from.rank as usize, true, reached, above),
                        "{a} → {b}"
                    );
                }
            }
        }
        assert!(checked > cells.len() * cells.len() / 2, "{checked} pairs");
        assert!(tight > cells.len(), "{tight} bounds within a tenth");
    }

    #[test]
    fn regions_first_in_the_order_leave_every_cells_upward_set_as_it_was() {
        let grid = noise_map(60);
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        let unchecked = |_: u32, _: usize| Ok(());
        let sets = |order: &[u32]| {
            let mut rank = vec![NONE; graph.len()];
            for (r, &c) in order.iter().enumerate() {
                rank[c as usize] = r as u32;
            }
            let up = upward_sets(&graph, order, &rank, CH_MAX_EDGES, &unchecked).unwrap();
            // Each cell's upward neighbours, as cells, sorted.
            let mut by_cell = vec![Vec::new(); graph.len()];
            for (r, &c) in order.iter().enumerate() {
                let mut set: Vec<u32> = up.head[up.first[r] as usize..up.first[r + 1] as usize]
                    .iter()
                    .map(|&h| order[h as usize])
                    .collect();
                set.sort_unstable();
                by_cell[c as usize] = set;
            }
            (by_cell, up.parent)
        };
        let (order, _) = contraction_order(&graph);
        let (before, parent) = sets(&order);
        for most in [1, 4, REGION_CELLS] {
            let (reordered, start) = regions::regions_first(&order, &parent, most);
            let mut sorted = reordered.clone();
            sorted.sort_unstable();
            let mut cells = order.clone();
            cells.sort_unstable();
            assert_eq!(sorted, cells, "the same cells");
            let (after, new_parent) = sets(&reordered);
            assert_eq!(before, after, "regions of at most {most}");
            // Each region a whole subtree of at most `most` ranks, whose root's parent lies
            // above every region.
            let within = *start.last().unwrap();
            assert!(within > 0 && (within as usize) < order.len());
            for w in start.windows(2) {
                assert!((1..=most as u32).contains(&(w[1] - w[0])));
                for r in w[0]..w[1] - 1 {
                    let p = new_parent[r as usize];
                    assert!(p > r && p < w[1], "a region's parents lie in it");
                }
                let p = new_parent[w[1] as usize - 1];
                assert!(p == NONE || p >= within, "the root's parent lies above");
            }
        }
    }

    /// A corridor that winds east, south, west and south again down `rows` rows of `width`.
    fn serpentine(width: usize, rows: usize) -> Grid {
        let rows: Vec<String> = (0..rows)
            .map(|y| match y % 4 {
                0 | 2 => ".".repeat(width),
                1 => format!("{}.", "#".repeat(width - 1)),
                _ => format!(".{}", "#".repeat(width - 1)),
            })
            .collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        Grid::from_ascii(&rows).unwrap()
    }

    #[test]
    fn ways_through_regions_are_unpacked_by_a_search_of_the_region() {
        // Winding corridors: the ways through their regions take three directions, and
        // some more steps than a link holds.
        let mut unpacked = 0;
        for (width, rows) in [(5, 31), (6, 41), (7, 25), (4, 61), (8, 33), (3, 45)] {
            let grid = serpentine(width, rows);
            let mut ch = ContractionHierarchy::build(&grid, Diagonal::NoCut);
            // Each edge through a region, unpacked from either end, is a way of its cost
            // between its ends, the cheapest.
            for r in 0..ch.order.len() {
                let searched = (ch.start[r + 1] - ch.start[r]) as usize;
                for k in ch.first[r] as usize..ch.first[r] as usize + searched {
                    if ch.links.links[k].through_region().is_none() {
                        continue;
                    }
                    let from = ch.order[r] as usize;
                    let (path, (cost, _)) = ch.unpack(vec![Unpacked::Halves(k, true)], from);
                    assert_eq!(ch.graph.path_cost(&path).map(|c| c.0), Some(cost));
                    let end = ch.graph.index(*path.last().unwrap());
                    let Place::Rank(h) = Place::of(ch.rank[end]) else {
                        panic!("an edge ends at a rank");
                    };
                    assert!(ch.depth[h as usize] < ch.depth[r], "its higher end");
                    let (back, (again, _)) = ch.unpack(vec![Unpacked::Halves(k, false)], end);
                    assert_eq!(back.last(), path.first());
                    assert!((again - cost).abs() <= 1e-9 * cost);
                    let dijkstra = FlowField::new(&ch.graph, ch.graph.cell(from)).unwrap();
                    let want = dijkstra.cost(*path.last().unwrap()).unwrap();
                    assert!((cost - want).abs() <= 1e-9 * want, "the cheapest way");
                    unpacked += 1;
                }
            }
            check_against_dijkstra(&grid, &mut ch, (1, 1));
        }
        assert!(unpacked > 0, "{unpacked} searched edges through regions");
    }

    #[test]
    fn queries_whose_first_limits_fall_short_walk_again_and_find_the_cheapest_path() {
        let grid = Grid::from_ascii(&DETOURS).unwrap();
        let builds = Diagonal::ALL.iter().flat_map(|&diagonal| {
            let graph = SearchGraph::new(&grid, diagonal);
            [0, 4, REGION_CELLS].map(|most| {
                ContractionHierarchy::build_with(graph.clone(), &UNCONTROLLED, (true, most))
                    .unwrap()
            })
        });
        for mut ch in builds {
            let diagonal = ch.graph.diagonal();
            let cells = passable(&grid);
            for &a in &cells {
                let field = FlowField::new(&ch.graph, a).unwrap();
                for &b in cells.iter().step_by(3) {
                    let ends = (ch.graph.index(a), ch.graph.index(b));
                    // A limit of the bound itself, one far below it (every limited walk fails
                    // and the last has none), the limit of the queries, and one far above.
                    for first in [1.0, 1e-6, 1.05, 10.0] {
                        let limits = Limits::growing_from(first);
                        let (path, _) = ch.query(ends, &limits, &mut Stats::default());
                        let cost = path.map(|(p, summed)| {
                            // Summed as the path was laid out, the cost and length of its cells.
                            assert_eq!(ch.graph.path_cost(&p), Some(summed), "{a} → {b}");
                            summed.0
                        });
                        match (field.cost(b), cost) {
                            (None, None) => {}
                            (Some(want), Some(got)) => assert!(
                                (got - want).abs() <= 1e-9 * want.max(1.0),
                                "{a} → {b} {diagonal} (first limit {first}): {got} vs {want}"
                            ),
                            (want, got) => panic!("{a} → {b} {diagonal}: {got:?} vs {want:?}"),
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_build_calibrates_the_first_limit_to_the_map() {
        // Open ground of one cost, with a few walls: the landmarks' bound is most often the
        // cost itself, and the first limit lies just above it.
        let rows: Vec<String> = (0..48)
            .map(|y| {
                (0..48)
                    .map(|x| if x % 12 == 6 && y % 16 < 10 { '#' } else { '.' })
                    .collect()
            })
            .collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let open = ContractionHierarchy::build(&Grid::from_ascii(&rows).unwrap(), Diagonal::NoCut);
        let first = |ch: &ContractionHierarchy| ch.limits.first(1.0);
        assert!(
            1.0 < first(&open) && first(&open) < 1.01,
            "{}",
            first(&open)
        );
        // Its queries leave no query state behind: the first query allocates it.
        assert!(open.forward.dist.is_empty() && open.backward.dist.is_empty());
        // Terrains of several costs: the costs lie further above their bounds.
        let noisy = ContractionHierarchy::build(&noise_map(48), Diagonal::NoCut);
        assert!(first(&noisy) > first(&open), "{}", first(&noisy));
        assert!(first(&noisy) <= Limits::default().first(1.0));
    }

    /// A `side` × `side` map of grass, swamp, road and one wall in ten, from a fixed hash.
    fn noise_map(side: u32) -> Grid {
        let rows: Vec<String> = (0..side)
            .map(|y| {
                (0..side)
                    .map(|x| match ((x * 7919 + y * 104_729) ^ (x * y * 31)) % 20 {
                        0..=1 => '#',
                        2..=5 => '~',
                        6..=8 => '=',
                        _ => '.',
                    })
                    .collect()
            })
            .collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        Grid::from_ascii(&rows).unwrap()
    }

    #[test]
    fn the_stages_shares_of_a_build_make_the_whole() {
        assert!((STAGE_SHARES.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(STAGE_SHARES.iter().all(|&share| share > 0.0));
    }

    #[test]
    fn upward_sets_past_the_edge_budget_are_refused() {
        let grid = noise_map(60);
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        let (order, rank) = contraction_order(&graph);
        let unchecked = |_: u32, _: usize| Ok(());
        let edges = upward_sets(&graph, &order, &rank, CH_MAX_EDGES, &unchecked)
            .unwrap()
            .head
            .len();
        // Exactly the edges it needs is enough; one fewer is refused, naming the budget.
        assert!(upward_sets(&graph, &order, &rank, edges, &unchecked).is_ok());
        match upward_sets(&graph, &order, &rank, edges - 1, &unchecked) {
            Err(
                error @ SearchError::HierarchyTooLarge {
                    edges: counted,
                    max,
                },
            ) => {
                assert_eq!(max, edges - 1);
                assert!(counted > max, "{counted} counted");
                let message = error.to_string();
                assert!(
                    message.contains(&format!("more than {max} edges")),
                    "{message}"
                );
            }
            other => panic!(
                "refused as too large, not {:?}",
                other.map(|u| u.head.len())
            ),
        }
    }

    #[test]
    fn two_threads_find_the_same_costs_middles_and_searched_edges_as_one() {
        let grid = noise_map(120);
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        let (order, rank) = contraction_order(&graph);
        let unchecked = |_: u32, _: usize| Ok(());
        let uncancelled = |_: u32, _: f64| Ok(());
        let up = upward_sets(&graph, &order, &rank, CH_MAX_EDGES, &unchecked).unwrap();
        let widest = up.first.windows(2).map(|w| (w[1] - w[0]) as usize).max();
        assert!(
            widest >= Some(customize::shared_edges()),
            "some rank's pairs are shared: {widest:?} upward edges at most"
        );
        let weight = step_weights(&graph, &order, &rank, &up.head, &up.first);
        let one = customize::customize(&up.head, &up.first, weight.clone(), 1, &uncancelled);
        let two = customize::customize(&up.head, &up.first, weight, 2, &uncancelled);
        let (one, two) = (one.unwrap(), two.unwrap());
        let bits = |costs: &[f64]| costs.iter().map(|c| c.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&one.weight), bits(&two.weight));
        assert_eq!(one.middle, two.middle);
        assert_eq!(one.flags, two.flags);
        assert!(
            one.flags.iter().any(|&f| f & SEARCHED == 0),
            "some edges have a way round"
        );
        // A cancellation in the middle of either pass (top down, while the threads share
        // the large ranks and while each takes its subtrees) ends both threads.
        for (pass, at) in [(1, 0.5), (2, 0.25), (2, 0.75)] {
            let weight = step_weights(&graph, &order, &rank, &up.head, &up.first);
            let cancel = |p: u32, done: f64| {
                if p == pass && done >= at {
                    Err(SearchError::Cancelled)
                } else {
                    Ok(())
                }
            };
            let cancelled = customize::customize(&up.head, &up.first, weight, 2, &cancel);
            assert!(
                matches!(cancelled, Err(SearchError::Cancelled)),
                "pass {pass}"
            );
        }
    }

    /// The heads of `ch`'s kept edges as ranks: each the ancestor of its tail at the depth
    /// kept.
    fn rank_heads(ch: &ContractionHierarchy) -> Vec<u32> {
        let mut heads = Vec::with_capacity(ch.links.len());
        for r in 0..ch.order.len() {
            for h in kept_heads(ch, r) {
                let mut a = r as u32;
                while ch.depth[a as usize] > h {
                    a = ch.parent[a as usize];
                }
                heads.push(a);
            }
        }
        heads
    }

    /// The depths of rank `r`'s kept edges' heads, searched first, whether the searched ones
    /// are kept by blocks or not.
    fn kept_heads(ch: &ContractionHierarchy, r: usize) -> Vec<u16> {
        match &ch.blocks {
            None => ch.head[ch.first[r] as usize..ch.first[r + 1] as usize].to_vec(),
            Some(blocks) => {
                let mut heads = blocks.heads(r);
                heads.extend_from_slice(&ch.head[ch.unpacking_heads(r)]);
                heads
            }
        }
    }

    #[test]
    fn depths_count_down_from_the_roots_and_refuse_a_tree_too_high() {
        // Two trees: 2 over 0 and 1, and 3 alone.
        let (depth, height) = depths(&[2, 2, NONE, NONE]).unwrap();
        assert_eq!((depth, height), (vec![1, 1, 0, 0], 2));
        // A path of ranks, each the parent of the one before: as high as it has ranks.
        let path = |ranks: u32| -> Vec<u32> {
            (1..=ranks)
                .map(|p| if p == ranks { NONE } else { p })
                .collect()
        };
        let (depth, height) = depths(&path(MAX_HEIGHT as u32)).unwrap();
        assert_eq!((depth[0], height), (u16::MAX, MAX_HEIGHT));
        match depths(&path(MAX_HEIGHT as u32 + 1)) {
            Err(error @ SearchError::HierarchyTooDeep { max: MAX_HEIGHT }) => {
                assert!(
                    error.to_string().contains("more than 65536 ranks"),
                    "{error}"
                );
            }
            other => panic!("refused as too deep, not {:?}", other.map(|d| d.1)),
        }
    }

    #[test]
    fn every_kept_head_is_an_upward_neighbour_of_its_tail_and_the_lists_stay_sorted() {
        let grid = noise_map(60);
        let ch = whole(&grid, Diagonal::NoCut);
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        let (order, rank) = contraction_order(&graph);
        let unchecked = |_: u32, _: usize| Ok(());
        let up = upward_sets(&graph, &order, &rank, CH_MAX_EDGES, &unchecked).unwrap();
        let heads = rank_heads(&ch);
        for r in 0..order.len() {
            let sets = &up.head[up.first[r] as usize..up.first[r + 1] as usize];
            let split = ch.first[r] as usize + (ch.start[r + 1] - ch.start[r]) as usize;
            for list in [
                &heads[ch.first[r] as usize..split],
                &heads[split..ch.first[r + 1] as usize],
            ] {
                assert!(list.windows(2).all(|w| w[0] < w[1]), "rank {r}: {list:?}");
                assert!(list.iter().all(|h| sets.contains(h)), "rank {r}: {list:?}");
            }
        }
    }

    /// The costs of `ch`'s searched edges, in the order of their heads (the relaxations by
    /// blocks read each block's costs turned round).
    fn searched_costs(ch: &ContractionHierarchy) -> Vec<f64> {
        let mut cost = ch.costs.wide().into_owned();
        if let Some(blocks) = &ch.blocks {
            blocks.runs(&ch.start, |run| cost[run].reverse());
        }
        cost
    }

    /// The searched upward edges of `ch` (`heads`, from [`rank_heads`]), and the ranks given
    /// out to two threads by them, whatever the machine's cores and the map's size.
    fn upward_on_two_threads<'a>(
        ch: &'a ContractionHierarchy,
        heads: &'a [u32],
        cost: &'a [f64],
    ) -> (landmarks::Upward<'a>, Vec<u8>) {
        let upward = landmarks::Upward {
            parent: &ch.parent,
            first: &ch.first,
            head: heads,
            start: &ch.start,
            cost,
        };
        let owner = customize::share_subtrees(
            ch.parent.len(),
            |x| (ch.parent[x] != NONE).then_some(ch.parent[x] as usize),
            |x| u64::from(ch.start[x + 1] - ch.start[x]) + 1,
        );
        (upward, owner)
    }

    #[test]
    fn landmarks_swept_on_two_threads_keep_the_same_costs_as_on_one() {
        let ch = whole(&noise_map(120), Diagonal::NoCut);
        let heads = rank_heads(&ch);
        let cost = searched_costs(&ch);
        let (upward, owner) = upward_on_two_threads(&ch, &heads, &cost);
        let lanes = |lane: u8| owner.iter().filter(|&&o| o == lane).count();
        assert!(
            lanes(0) > 0 && lanes(1) > 0 && lanes(customize::BOTH) > 0,
            "both threads sweep ranks of their own after the top"
        );
        let build =
            |owner: &[u8]| Landmarks::build(&upward, owner, |_| Ok::<_, SearchError>(())).unwrap();
        let one = build(&[]);
        assert_eq!(one, build(&owner));
        assert_eq!(one, ch.landmarks, "what the build keeps");
    }

    #[test]
    fn one_sweep_for_four_landmarks_gives_each_the_costs_dijkstra_gives_it() {
        let ch = whole(&noise_map(90), Diagonal::NoCut);
        let heads = rank_heads(&ch);
        let cost = searched_costs(&ch);
        let (upward, owner) = upward_on_two_threads(&ch, &heads, &cost);
        let ranks = ch.parent.len();
        let from = [0, ranks / 3, ranks / 2, ranks - 1];
        let dist = |n: usize| {
            (0..ranks * n)
                .map(|_| AtomicU64::new(0))
                .collect::<Vec<_>>()
        };
        let cost = |dist: &[AtomicU64], k: usize| f64::from_bits(dist[k].load(Ordering::Relaxed));
        let four = dist(4);
        upward.costs_from(from, &four, &owner);
        for (b, &l) in from.iter().enumerate() {
            let one = dist(1);
            upward.costs_from([l], &one, &[]);
            let cell = ch.graph.cell(ch.order[l] as usize);
            let field = FlowField::new(&ch.graph, cell).unwrap();
            for r in 0..ranks {
                let got = cost(&four, r * 4 + b);
                assert_eq!(got.to_bits(), cost(&one, r).to_bits(), "lane {b}, rank {r}");
                let want = field.cost(ch.graph.cell(ch.order[r] as usize));
                match want {
                    Some(want) => assert!(
                        (got - want).abs() <= 1e-9 * want.max(1.0),
                        "from rank {l} to rank {r}: {got} against {want}"
                    ),
                    None => assert!(got.is_infinite(), "rank {r} unreachable from {l}"),
                }
            }
        }
    }

    /// The hierarchy's answers between every `every.0`-th and every `every.1`-th passable cell
    /// of `grid`, against Dijkstra's costs.
    fn check_against_dijkstra(grid: &Grid, ch: &mut ContractionHierarchy, every: (usize, usize)) {
        let cells = passable(grid);
        for &a in cells.iter().step_by(every.0) {
            let field = FlowField::new(&ch.graph, a).unwrap();
            for &b in cells.iter().step_by(every.1) {
                let request =
                    SearchRequest::new(a, b).with_algorithm(Algorithm::ContractionHierarchy);
                let got = ch.find_path(&request).unwrap();
                match field.cost(b) {
                    Some(want) => assert!(
                        got.found && (got.cost - want).abs() <= 1e-9 * want.max(1.0),
                        "{a} → {b}: {} vs {want}",
                        got.cost
                    ),
                    None => assert!(!got.found, "{a} → {b}"),
                }
                if got.found {
                    // The cost and length as the path's steps sum them, to the last bit.
                    let (cost, length) = ch.graph.path_cost(&got.path).expect("a path");
                    assert_eq!(
                        (got.cost.to_bits(), got.length.to_bits()),
                        (cost.to_bits(), length.to_bits()),
                        "{a} → {b}: {} and {} as laid out, {cost} and {length} summed",
                        got.cost,
                        got.length
                    );
                }
            }
        }
    }

    #[test]
    fn relaxing_by_blocks_finds_what_one_edge_at_a_time_finds() {
        let grid = noise_map(120);
        // The costs as the build computed them, and in words.
        for words in [false, true] {
            let build = || {
                let graph = SearchGraph::new(&grid, Diagonal::NoCut);
                ContractionHierarchy::build_with(graph, &UNCONTROLLED, (words, REGION_CELLS))
                    .unwrap()
            };
            let mut by_blocks = build();
            if by_blocks.blocks.is_none() {
                eprintln!("skipped: this processor cannot relax by blocks (no AVX-512)");
                return;
            }
            assert_eq!(by_blocks.costs.counted(), words);
            let mut one_at_a_time = build();
            // The heads of every kept edge back in place of the words, as a processor without
            // AVX-512 keeps them.
            let head = (0..one_at_a_time.order.len())
                .flat_map(|r| kept_heads(&one_at_a_time, r))
                .collect();
            one_at_a_time.head = head;
            // And the costs in the order of the heads.
            if let Some(blocks) = one_at_a_time.blocks.take() {
                blocks.runs(&one_at_a_time.start, |run| one_at_a_time.costs.reverse(run));
            }
            let cells = passable(&grid);
            let mut found = 0;
            for &a in cells.iter().step_by(401) {
                for &b in cells.iter().step_by(37) {
                    let request =
                        SearchRequest::new(a, b).with_algorithm(Algorithm::ContractionHierarchy);
                    let got = by_blocks.find_path(&request).unwrap();
                    let want = one_at_a_time.find_path(&request).unwrap();
                    assert_eq!(got.cost.to_bits(), want.cost.to_bits(), "{a} → {b}");
                    assert_eq!(got.path, want.path, "{a} → {b}");
                    assert_eq!(got.stats.expanded, want.stats.expanded, "{a} → {b}");
                    found += usize::from(got.found);
                }
            }
            assert!(found > 1000, "{found} paths found");
        }
    }

    #[test]
    fn a_hierarchy_built_on_two_threads_matches_dijkstra() {
        let grid = noise_map(120);
        let mut ch = ContractionHierarchy::build(&grid, Diagonal::NoCut);
        check_against_dijkstra(&grid, &mut ch, (1499, 97));
    }

    #[test]
    fn costs_are_kept_in_words_where_the_terrains_have_a_unit() {
        // Grass 1, road 0.5, swamp 3 (and walls): every step a whole number of quarters, times
        // its length. The words stand for the costs the build computed, and the answers are
        // Dijkstra's.
        let grid = noise_map(90);
        let mut ch = ContractionHierarchy::build(&grid, Diagonal::NoCut);
        assert!(ch.costs.counted(), "the default terrains have a unit");
        check_against_dijkstra(&grid, &mut ch, (307, 41));
        // A swamp of cost 3.1 has no unit that grass shares: the costs stay as they are.
        let mut odd = grid.clone();
        for id in 0..odd.terrains().len() as TerrainId {
            let terrain = odd.terrain(id).clone();
            if terrain.symbol == '~' {
                odd.set_terrain(
                    id,
                    Terrain {
                        cost: Some(3.1),
                        ..terrain
                    },
                )
                .unwrap();
            }
        }
        let mut ch = ContractionHierarchy::build(&odd, Diagonal::NoCut);
        assert!(
            !ch.costs.counted(),
            "3.1 is no whole number of any power of two"
        );
        check_against_dijkstra(&odd, &mut ch, (307, 41));
        // Costs so far apart that the counts pass 32 bits: the costs stay as they are too.
        let mut far = grid.clone();
        for id in 0..far.terrains().len() as TerrainId {
            let terrain = far.terrain(id).clone();
            let cost = match terrain.symbol {
                '~' => Some(65536.0),
                '=' => Some(2f64.powi(-19)),
                _ => terrain.cost,
            };
            far.set_terrain(id, Terrain { cost, ..terrain }).unwrap();
        }
        let mut ch = ContractionHierarchy::build(&far, Diagonal::NoCut);
        assert!(!ch.costs.counted(), "counts of 2⁻²⁰ units pass 32 bits");
        check_against_dijkstra(&far, &mut ch, (307, 41));
    }

    #[test]
    fn costs_too_far_apart_to_add_leave_out_only_edges_with_a_cheaper_way_round() {
        // Swamp a million and roads a millionth: a sum of two edges' costs may round to the
        // dearer one, so a way round as cheap cannot tell that both its edges cost less.
        let mut grid = noise_map(60);
        for id in 0..grid.terrains().len() as TerrainId {
            let terrain = grid.terrain(id).clone();
            let cost = match terrain.symbol {
                '~' => Some(Terrain::MAX_COST),
                '=' => Some(Terrain::MIN_COST),
                _ => terrain.cost,
            };
            grid.set_terrain(id, Terrain { cost, ..terrain }).unwrap();
        }
        let ties_prune = |grid: &Grid| {
            let graph = SearchGraph::new(grid, Diagonal::NoCut);
            let (order, rank) = contraction_order(&graph);
            let unchecked = |_: u32, _: usize| Ok(());
            let up = upward_sets(&graph, &order, &rank, CH_MAX_EDGES, &unchecked).unwrap();
            let weight = step_weights(&graph, &order, &rank, &up.head, &up.first);
            customize::ties_prune(&weight, up.first.len())
        };
        assert!(!ties_prune(&grid) && ties_prune(&noise_map(60)));
        let mut ch = ContractionHierarchy::build(&grid, Diagonal::NoCut);
        assert!(ch.edge_count() < ch.unpacking_edge_count(), "a way round");
        check_against_dijkstra(&grid, &mut ch, (211, 13));
    }

    #[test]
    fn halves_too_far_apart_for_sixteen_bits_are_found_in_the_list() {
        // Both halves belong to one middle rank; 16 bits hold how far apart they lie, up to
        // 32,767 either way.
        assert!(Link::halves(10, 10 + 32_767).is_some());
        assert!(Link::halves(32_777, 10).is_some());
        assert!(Link::halves(10, 10 + 32_768).is_none());
        assert!(Link::halves(32_778, 10).is_none(), "the mark of a far edge");
        let near = Link::halves(100, 90).unwrap();
        let far = Link {
            middle: 5,
            across: Links::FAR,
        };
        let links = Links {
            links: vec![near, far, near],
            far: vec![(1, 70_005)],
        };
        assert_eq!(links.second(0, near), 90);
        assert_eq!(links.second(1, far), 70_005);
        assert_eq!(links.len(), 3);
        assert_eq!(links.bytes(), 3 * 6 + 8);
    }

    #[test]
    fn short_edges_keep_their_steps_in_order_both_ways() {
        // `join(down, up)` runs `down` (from a middle to the lower end) backwards, each step
        // reversed, then `up` (from the middle to the higher end).
        let (east, south_east, north) = (0u32, 6, 3);
        let packed = |steps: u64| Link::packed(steps).steps() == Some(steps);
        let down = Packed::join(Packed::step(east), Packed::step(south_east)).unwrap();
        assert_eq!(
            Packed::steps(down).collect::<Vec<_>>(),
            vec![OPPOSITE[0], 6]
        );
        let joined = Packed::join(down, Packed::step(north)).unwrap();
        assert!(packed(joined), "a link keeps the steps");
        assert_eq!(
            Link::halves(7, 9).and_then(Link::steps),
            None,
            "halves, not steps"
        );
        assert_eq!(
            Packed::steps(joined).collect::<Vec<_>>(),
            vec![OPPOSITE[6], 0, 3]
        );
        // Fourteen steps fit in any directions; up to thirty-one in two.
        let mut long = Packed::step(east);
        for _ in 1..PACKED_STEPS {
            long = Packed::join(Packed::step(east), long).unwrap();
        }
        assert_eq!(Packed::len(long), PACKED_STEPS);
        // Fifteen steps in three directions do not fit; in two they do, up to thirty-one.
        let east9 = Packed::pack(&[0; PACKED_STEPS as usize]).unwrap();
        let three = Packed::pack(&[6, 3]).unwrap();
        assert!(
            Packed::join(three, east9).is_none(),
            "fifteen steps in three directions"
        );
        let mut long = Packed::join(Packed::step(south_east), east9).unwrap();
        let mut want = vec![OPPOSITE[6]];
        want.extend([0; PACKED_STEPS as usize]);
        assert_eq!(Packed::steps(long).collect::<Vec<_>>(), want);
        for i in 0..TWO_WAY_STEPS - PACKED_STEPS - 1 {
            // A step down, run backwards: east, or the way back from the south-east.
            let d = if i % 2 == 0 { OPPOSITE[0] } else { 6 };
            long = Packed::join(Packed::step(d as u32), long).unwrap();
            want.insert(0, OPPOSITE[d]);
            assert_eq!(Packed::steps(long).collect::<Vec<_>>(), want);
            let mut back = want.clone();
            back.reverse();
            assert_eq!(Packed::steps_backwards(long).collect::<Vec<_>>(), back);
            assert!(packed(long), "a link keeps the steps");
        }
        assert_eq!(Packed::len(long), TWO_WAY_STEPS);
        assert!(
            Packed::join(Packed::step(1), long).is_none(),
            "thirty-two steps"
        );
    }

    #[test]
    fn matches_dijkstra_on_a_small_weighted_map() {
        let rows = [
            "..~~..==..#.",
            ".#~~.#==.#..",
            "..~~..==..~.",
            "#.##..##.#~.",
            "..==..~~....",
        ];
        let grid = Grid::from_ascii(&rows).unwrap();
        for diagonal in Diagonal::ALL.iter().copied() {
            let mut ch = ContractionHierarchy::build(&grid, diagonal);
            let cells: Vec<Cell> = (0..grid.height())
                .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
                .filter(|&c| grid.is_passable(c))
                .collect();
            for &a in &cells {
                for &b in &cells {
                    let request = SearchRequest::new(a, b)
                        .with_diagonal(diagonal)
                        .with_algorithm(Algorithm::Dijkstra);
                    let expected = solve(&grid, &request).unwrap();
                    let got = ch
                        .find_path(&request.with_algorithm(Algorithm::ContractionHierarchy))
                        .unwrap();
                    assert_eq!(got.found, expected.found, "{a} → {b} {diagonal}");
                    assert!(
                        (got.cost - expected.cost).abs() <= 1e-9 * expected.cost.max(1.0),
                        "{a} → {b} {diagonal}: {} vs {}",
                        got.cost,
                        expected.cost
                    );
                }
            }
        }
    }
}
