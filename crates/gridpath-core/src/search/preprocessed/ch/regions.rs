//! The smallest subtrees of the elimination tree, left out of the hierarchy: *regions* of a
//! few cells whose ways in and out a query searches on the grid.
//!
//! Nested dissection cuts the map down to pieces of a handful of cells, and a subtree of the
//! elimination tree of at most [`REGION_CELLS`] ranks is such a piece. On the weighted maps
//! they hold some 60% of the ranks and a third of the searched edges, and each of their ranks
//! would keep a landmarks' row, its edges' costs and links, like any other. What a region
//! needs instead is its cells alone:
//!
//! - a region's cells come first in the order, each region's together, so that leaving them
//!   out leaves the hierarchy's tables of the ranks above whole (the filled graph, and so the
//!   hierarchy above, is the same as in the order of the dissection: no two regions touch,
//!   and every neighbour of a region is an ancestor of its cells);
//! - every neighbour of a region's cells outside it is an upward neighbour of the region's
//!   root: an ancestor of its parent, where a walk up from any of its cells goes on. So a
//!   query from a cell of a region searches the region alone, by Dijkstra over its few cells
//!   (no queue: the cheapest is picked from at most [`REGION_CELLS`]), and starts its walk at
//!   the region's parent with the costs of the region's neighbours it reached;
//! - a shortcut between two neighbours of a region whose middle lies in it is unpacked by the
//!   same search from one end, the other end found where the edge's link keeps it (see
//!   `Link::region`): every cell of its way lies in the region (each lies below the middle
//!   in the order), and the cheapest way through the region costs what the edge costs.

use crate::search::graph::SearchGraph;

use super::edges::NONE;

/// The most cells a region holds: a local index fits four bits.
pub(super) const REGION_CELLS: usize = 16;

/// The mark of a cell of a region in the rank of a cell, above the region's number (shifted by
/// [`LOCAL_BITS`]) and the cell's index in it.
pub(super) const IN_REGION: u32 = 1 << 31;

/// The bits of a region cell's index among the region's cells.
const LOCAL_BITS: u32 = 4;

const _: () = assert!(REGION_CELLS <= 1 << LOCAL_BITS);

/// The regions: their cells and where their walks go on.
#[derive(Debug, Default)]
pub(super) struct Regions {
    /// The cells of region `i` are `cells[start[i]..start[i + 1]]`, in the order.
    pub cells: Vec<u32>,
    pub start: Vec<u32>,
    /// The rank (above the regions) that a walk from region `i` goes on from, its root's
    /// parent: [`NONE`] for a region that is a whole part of the map.
    pub up: Vec<u32>,
}

impl Regions {
    /// The cells of region `region`, in the order.
    pub(super) fn cells_of(&self, region: u32) -> &[u32] {
        let region = region as usize;
        &self.cells[self.start[region] as usize..self.start[region + 1] as usize]
    }
}

/// A cell's place, from its entry in the hierarchy's ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    /// A rank of the hierarchy.
    Rank(u32),
    /// A cell of a region: the region's number and the cell's index in it.
    Region(u32, u8),
}

impl Place {
    #[inline(always)]
    pub(super) fn of(rank: u32) -> Self {
        if rank & IN_REGION == 0 {
            Place::Rank(rank)
        } else {
            Place::Region(
                (rank & !IN_REGION) >> LOCAL_BITS,
                (rank & ((1 << LOCAL_BITS) - 1)) as u8,
            )
        }
    }

    /// The entry for cell `local` of region `region`.
    pub(super) fn region_entry(region: u32, local: usize) -> u32 {
        IN_REGION | region << LOCAL_BITS | local as u32
    }
}

/// The order with the regions first: every rank whose subtree in the elimination tree
/// (`parent`) holds at most `most` ranks lies in the region of its highest such ancestor.
/// Returns the new order and where each region's cells start in it (the regions' cells are
/// `order[..start[regions]]`); the ranks keep their order within a region, and the others
/// theirs after them.
pub(super) fn regions_first(order: &[u32], parent: &[u32], most: usize) -> (Vec<u32>, Vec<u32>) {
    let ranks = order.len();
    let mut size = vec![1u32; ranks];
    for r in 0..ranks {
        if parent[r] != NONE {
            size[parent[r] as usize] += size[r];
        }
    }
    let small = |r: usize| size[r] as usize <= most;
    // Each small rank's region, by the rank of its root: parents first, from the top down.
    let mut root = vec![NONE; ranks];
    for r in (0..ranks).rev() {
        if small(r) {
            let p = parent[r];
            root[r] = if p != NONE && small(p as usize) {
                root[p as usize]
            } else {
                r as u32
            };
        }
    }
    // The regions numbered by their roots' ranks; each root is its region's last rank.
    let mut number = vec![NONE; ranks];
    let mut start = vec![0u32];
    for r in 0..ranks {
        if root[r] == r as u32 {
            number[r] = start.len() as u32 - 1;
            let end = start.last().copied().unwrap_or(0) + size[r];
            start.push(end);
        }
    }
    let regions_end = *start.last().unwrap_or(&0) as usize;
    let mut next = start.clone();
    let mut reordered = vec![NONE; ranks];
    let mut above = regions_end;
    for r in 0..ranks {
        if root[r] == NONE {
            reordered[above] = order[r];
            above += 1;
        } else {
            let i = number[root[r] as usize] as usize;
            reordered[next[i] as usize] = order[r];
            next[i] += 1;
        }
    }
    debug_assert!(reordered.iter().all(|&c| c != NONE));
    (reordered, start)
}

/// The directions set in a cell's neighbour mask, lowest first.
#[inline(always)]
fn directions(mask: u8) -> impl Iterator<Item = usize> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let d = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            d
        })
    })
}

/// What a search of one region found: the cost of each of its cells and how it was reached,
/// and the cheapest way to each rank next to it.
#[derive(Debug)]
pub(super) struct Local {
    pub region: u32,
    pub dist: [f64; REGION_CELLS],
    /// The cell each cell was reached from ([`Local::SOURCE`] for the search's start) and the
    /// direction of the step.
    pub from: [(u8, u8); REGION_CELLS],
    /// The ranks next to the region that the search reached: `(rank, cost, cell, direction)`,
    /// the cheapest step into each from a cell of the region.
    pub exits: Vec<(u32, f64, u8, u8)>,
    /// How many cells the search settled.
    pub settled: usize,
}

impl Default for Local {
    fn default() -> Self {
        Self {
            region: NONE,
            dist: [f64::INFINITY; REGION_CELLS],
            from: [(Self::SOURCE, Self::NO_STEP); REGION_CELLS],
            exits: Vec::new(),
            settled: 0,
        }
    }
}

/// Where a search of a region starts.
#[derive(Clone, Copy, Debug)]
pub(super) enum Source {
    /// A cell of the region, by its index in it.
    Inside(u8),
    /// A cell outside the region, next to some of its cells.
    Outside(usize),
}

impl Local {
    /// A cell's way in from outside the region, or the start itself.
    pub const SOURCE: u8 = u8::MAX;

    /// The step into the start of a search from inside the region: none.
    const NO_STEP: u8 = u8::MAX;

    /// Asks the processor to start loading what a search of the region of cell `cell` reads,
    /// if the cell lies in a region: its cells' masks and terrains and the entries of `rank`
    /// around them. The loads of a search follow each other (each cell settled leads to the
    /// next); asked for together, they overlap.
    pub(super) fn prefetch((graph, rank, regions): (&SearchGraph, &[u32], &Regions), cell: usize) {
        let Place::Region(region, _) = Place::of(rank[cell]) else {
            return;
        };
        let width = graph.width() as usize;
        let cells = regions.cells_of(region);
        for &c in cells {
            let c = c as usize;
            graph.prefetch_cell(c);
            crate::search::space::prefetch(rank, c.wrapping_sub(width));
            crate::search::space::prefetch(rank, c);
            crate::search::space::prefetch(rank, c + width);
        }
    }

    /// Searches region `region` of `regions` from `source` by Dijkstra, over its cells alone,
    /// recording the cheapest step out of it into each rank next to it. `rank` is the
    /// hierarchy's entry of each cell; `reach` is told of each rank next to the region as
    /// the search first reaches it.
    pub(super) fn search(
        &mut self,
        (graph, rank, regions): (&SearchGraph, &[u32], &Regions),
        region: u32,
        source: Source,
        mut reach: impl FnMut(u32),
    ) {
        let cells = regions.cells_of(region);
        self.region = region;
        self.dist = [f64::INFINITY; REGION_CELLS];
        self.exits.clear();
        self.settled = 0;
        // The cells reached and not settled, and those settled, a bit each.
        let (mut open, mut done) = (0u32, 0u32);
        match source {
            Source::Inside(i) => {
                self.dist[usize::from(i)] = 0.0;
                self.from[usize::from(i)] = (Self::SOURCE, Self::NO_STEP);
                open = 1 << i;
            }
            Source::Outside(c) => {
                for d in directions(graph.mask(c)) {
                    let q = c.wrapping_add_signed(graph.delta(d));
                    if let Place::Region(r, j) = Place::of(rank[q])
                        && r == region
                    {
                        let j = usize::from(j);
                        let cost = graph.step_cost(c, q, d);
                        if cost < self.dist[j] {
                            self.dist[j] = cost;
                            self.from[j] = (Self::SOURCE, d as u8);
                            open |= 1 << j;
                        }
                    }
                }
            }
        }
        while open != 0 {
            // The cheapest open cell, the lowest index among equals.
            let mut i = open.trailing_zeros() as usize;
            let mut d = self.dist[i];
            let mut rest = open & (open - 1);
            while rest != 0 {
                let k = rest.trailing_zeros() as usize;
                if self.dist[k] < d {
                    (i, d) = (k, self.dist[k]);
                }
                rest &= rest - 1;
            }
            open &= !(1 << i);
            done |= 1 << i;
            self.settled += 1;
            let c = cells[i] as usize;
            for dir in directions(graph.mask(c)) {
                let q = c.wrapping_add_signed(graph.delta(dir));
                let nd = d + graph.step_cost(c, q, dir);
                match Place::of(rank[q]) {
                    Place::Region(r, j) if r == region => {
                        let j = usize::from(j);
                        if done & (1 << j) == 0 && nd < self.dist[j] {
                            self.dist[j] = nd;
                            self.from[j] = (i as u8, dir as u8);
                            open |= 1 << j;
                        }
                    }
                    Place::Rank(u) => match self.exits.iter_mut().find(|e| e.0 == u) {
                        Some(e) if nd < e.1 => *e = (u, nd, i as u8, dir as u8),
                        Some(_) => {}
                        None => {
                            reach(u);
                            self.exits.push((u, nd, i as u8, dir as u8));
                        }
                    },
                    Place::Region(..) => unreachable!("no two regions touch"),
                }
            }
        }
    }

    /// The directions of the steps from the search's source to its cell `i`, in order.
    pub(super) fn steps_to(&self, i: u8, steps: &mut Vec<u8>) {
        let begin = steps.len();
        let mut at = i;
        loop {
            let (from, d) = self.from[usize::from(at)];
            if from == Self::SOURCE {
                // A source outside the region stepped in; the start inside did not.
                if d != Self::NO_STEP {
                    steps.push(d);
                }
                break;
            }
            steps.push(d);
            at = from;
        }
        steps[begin..].reverse();
    }

    /// The exit into rank `u`, if the search reached it.
    pub(super) fn exit(&self, u: u32) -> Option<(f64, u8, u8)> {
        self.exits
            .iter()
            .find(|e| e.0 == u)
            .map(|&(_, cost, i, d)| (cost, i, d))
    }
}
