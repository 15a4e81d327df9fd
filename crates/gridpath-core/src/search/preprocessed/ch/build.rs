//! The build of a contraction hierarchy: the contraction order and the upward sets (the
//! shortcuts, known before any cost), the two passes over them that give every edge its cost
//! (see `customize.rs`), the choice of the edges the queries search and of those kept to
//! unpack them, the packing of short edges' steps into their links, the landmarks, the
//! regions left out, and the limits calibrated to the map.
//!
//! What it guarantees the query and unpacking: every searched edge costs the cheapest path
//! between its ends, every edge a searched one unpacks into is kept, every head lies above its
//! tail in the elimination tree (asserted before the tables are handed over, for the
//! queries' unchecked relaxations), and the tables do not change once built.

use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, Ordering};

use super::edges::{CH_MAX_CELLS, CH_MAX_EDGES, Kept, NEEDED, NONE, SEARCHED};
use super::hierarchy::ContractionHierarchy;
use super::landmarks::{self, Landmarks};
use super::limits::{self, Limits};
use super::links::{Link, Links, Packed, find_edge};
use super::regions::{self, Place, REGION_CELLS, Regions};
use super::side::Side;
use super::{blocks, costs, customize, order};

use crate::control::{SearchControl, UNCONTROLLED};
use crate::grid::Grid;
use crate::rng::Rng;
use crate::search::graph::SearchGraph;
use crate::search::preprocessed::huge_pages;
use crate::search::request::{Algorithm, Diagonal, SearchError, SearchRequest, Stats};

/// The seed of the sample queries that calibrate a hierarchy's limits: the same map always
/// gets the same limits.
const SEED: u64 = 0x9e37_79b9_7f4a_7c15;

/// The share of a build's time that each of its stages takes, for its progress: the order and
/// the upward sets, the pass bottom up, the pass top down, the marking of what unpacking
/// needs, the landmarks and the rest. Measured from the reported progress on two cores:
/// 0.88 (the order 0.38 of it), 1.91, 1.74, 0.42 and 1.37 s on the generated weighted 1024²
/// map (0.23, 0.45, 0.37, 0.10 and 0.30 s at 512²).
pub(super) const STAGE_SHARES: [f64; 5] = [0.14, 0.30, 0.27, 0.07, 0.22];

/// How many cells pass between two looks at the control for a cancellation.
const CANCEL_CHECK_EVERY: usize = 1024;

/// The index of `target` in the sorted list `head[list]`, which holds it: found by a binary
/// search, for lists that may be long (those of the upper separators).
pub(super) fn position(head: &[u32], list: std::ops::Range<usize>, target: u32) -> usize {
    let k = list.start + head[list.clone()].partition_point(|&h| h < target);
    debug_assert_eq!(head[k], target, "the list holds the rank sought");
    k
}

/// The upward neighbour sets of every rank, found before any cost: the elimination tree and
/// the sets in one flat array.
pub(super) struct Upward {
    pub(super) parent: Vec<u32>,
    /// The upward neighbours of rank `r`, sorted, are `head[first[r]..first[r + 1]]`.
    pub(super) first: Vec<u32>,
    pub(super) head: Vec<u32>,
}

/// An edge offset as stored (32-bit), once the edges so far are within `max_edges`: a map
/// whose hierarchy would have more is refused as soon as its upward sets pass the budget,
/// before any cost is computed.
pub(super) fn offset(edges: usize, max_edges: usize) -> Result<u32, SearchError> {
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
pub(super) fn upward_sets(
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
pub(super) const MAX_HEIGHT: usize = 1 << 16;

/// The depth of each rank in the elimination tree whose parents are `parent` (each parent
/// comes after its child, a root having [`NONE`]), and the height of the tree: the most
/// ranks on a way up. A tree higher than [`MAX_HEIGHT`] is refused.
pub(super) fn depths(parent: &[u32]) -> Result<(Vec<u16>, usize), SearchError> {
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

/// The contraction order of the passable cells (the cell of each rank) by nested dissection,
/// and the rank of each cell ([`NONE`] for walls).
pub(super) fn contraction_order(graph: &SearchGraph) -> (Vec<u32>, Vec<u32>) {
    let order = order::nested_dissection(graph);
    let mut rank = vec![NONE; graph.len()];
    for (r, &c) in order.iter().enumerate() {
        rank[c as usize] = r as u32;
    }
    (order, rank)
}

/// The cost of each upward edge that is a step of the grid, infinite for the others: the costs
/// the passes over the pairs start from.
pub(super) fn step_weights(
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

/// Writes the steps of every edge of at most [`super::links::PACKED_STEPS`] steps into its
/// [`Link`] (see [`Packed`]), and links every other edge to its two halves, lowest rank first, so that the
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
    pub(super) fn build_with(
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
    pub(super) fn back_with_huge_pages(&self) {
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
}
