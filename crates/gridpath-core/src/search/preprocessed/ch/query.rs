//! A query of a contraction hierarchy: from both ends up the elimination tree, each side
//! keeping its costs by depth, with no priority queue; the landmarks' bounds prune the ranks
//! that cannot lie on a path cheaper than the walk's limit, and the limit grows until a walk
//! meets under it. An end in a region enters the hierarchy through a search of the region.
//!
//! What it keeps: the query state (see [`Side`]), allocated by the first query and left
//! infinite between queries. What it guarantees: the meeting it returns is a cheapest path's
//! top, whose edges `unpack.rs` turns into cells.

use std::time::Instant;

use super::edges::NONE;
use super::hierarchy::ContractionHierarchy;
use super::landmarks;
use super::limits::Limits;
use super::regions::{Local, Place, Source};
use super::side::{RELAXED, Side};
use super::unpack::Unpacked;
use super::{blocks, costs};

use crate::grid::Cell;
use crate::search::graph::OPPOSITE;
use crate::search::heuristic::Estimate;
use crate::search::request::{Heuristic, SearchError, SearchRequest, SearchResult, Stats};

/// How many walks a query makes with a limit; the next has none.
const MAX_WALKS: u32 = 6;

/// A query's path: its cells, with its cost and length summed from them.
type Walked = (Vec<Cell>, (f64, f64));

/// Where a query's walk from one end starts: the rank and its depth ([`NONE`] for an end in a
/// region that is a whole part of the map), the end's costs to the landmarks (loose for an
/// end in a region: see [`landmarks::Ends`]), and the end's region.
pub(super) struct Entry {
    pub(super) rank: u32,
    pub(super) depth: usize,
    pub(super) row: ([u16; landmarks::LANDMARKS], bool),
    pub(super) region: Option<u32>,
}

/// Which end a side's ranks are bounded towards, with the landmarks the query uses.
#[derive(Clone, Copy)]
pub(super) struct End<'a> {
    ends: &'a landmarks::Ends,
    goal: bool,
}

impl ContractionHierarchy {
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
    pub(super) fn query(
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
    pub(super) fn enter(
        &self,
        cell: usize,
        side: &mut Side,
        near: &mut Local,
        stats: &mut Stats,
    ) -> Entry {
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

    /// The costs and links of both sides, unreached, once: the first query allocates them.
    pub(super) fn allocate_query_state(&mut self) {
        if self.forward.dist.len() != blocks::padded(self.height) {
            self.forward = Side::new(self.height);
            self.backward = Side::new(self.height);
        }
    }
}
