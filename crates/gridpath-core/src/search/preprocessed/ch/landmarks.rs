//! Lower bounds from landmarks (Goldberg & Harrelson's ALT, 2005) that prune the walk up the
//! elimination tree.
//!
//! A few cells, far apart, are chosen at build time, and every rank's cost to each of them is
//! kept. By the triangle inequality, `|d(L, x) − d(L, t)|` is no more than the cost from `x` to
//! `t`, for every landmark `L`; the largest over the landmarks is a lower bound. A query guesses
//! a limit a little above the bound between its ends and walks the tree relaxing only the
//! ranks whose cost so far plus the bound to the other end lies below it. A cheapest path
//! under the limit keeps every rank it climbs through (each costs no more than the path), so a
//! meeting below the limit is the cheapest; when none is found, the limit grows and the walk
//! runs again (see `ContractionHierarchy::query`).
//!
//! The costs are kept as 16-bit counts of one unit per hierarchy, rounded down: a row of the
//! thirty-two landmarks takes 64 bytes a rank, one cache line, and the bound is a few vector
//! instructions on integers. The unit is twice the cost of the dearest rank from the top of
//! the largest part, over 65,534: no landmark's cost to a rank it reaches can be more (a way
//! through the top joins them; the landmarks all lie in that part). A cost `d` kept as `q`
//! lies in `[q, q + 1)` units, so two costs kept `m` apart differ by more than `m − 1` units.
//!
//! The costs from each landmark come from the hierarchy itself (Delling et al.'s PHAST): a
//! walk up from the landmark, then one sweep down every rank from the top, each rank taking
//! the cheapest of its upward edges. On two cores the sweep takes the top of the elimination
//! tree first, then the two threads each take subtrees of their own below it, as the cost
//! passes do (a rank's upward edges lead to its ancestors only). The landmarks are chosen
//! farthest first: each is the rank whose cost to the ones before is the largest, starting
//! from the cell farthest from the top of the largest part of the map. The first four are
//! swept one at a time; the rest four to a sweep, which reads each edge once for the four
//! (the sweeps are bound by reading the edges). Within such a batch the costs from the
//! landmarks chosen before it in the batch are not known yet when the next is chosen, and
//! the landmarks' own bound stands in for them.

use std::sync::atomic::{AtomicU64, Ordering};

use super::customize::by_subtrees;
use super::edges::NONE;
use crate::search::preprocessed::huge_pages;

/// How many landmarks a hierarchy keeps.
pub(super) const LANDMARKS: usize = 32;

/// How many landmarks are chosen one at a time, each the farthest from those before by the
/// costs of its own sweep; the rest come [`BATCH`] to a sweep.
const ALONE: usize = 4;

/// How many landmarks one sweep down the ranks serves after the first [`ALONE`]: the sweep
/// reads each edge once for all of them, and the sweeps are bound by reading the edges.
const BATCH: usize = 4;

const _: () = assert!((LANDMARKS - ALONE).is_multiple_of(BATCH) && ALONE >= 1);

/// What a rank a landmark cannot reach keeps. Two ranks that one landmark reaches and the
/// other not have no way between them, which [`Landmarks::between`] tells its caller; two
/// ranks that it reaches neither are bounded by zero on its account.
const UNREACHED: u16 = u16::MAX;

/// The most units a reached rank keeps.
const TOP: u16 = u16::MAX - 1;

/// How much of a unit each bound is lowered by, beyond the unit that the rounding down takes:
/// many times what the rounding of the costs themselves (sums of `f64` edges, about 10⁻¹² of
/// them, and at most 65,534 units) may make them differ from a path's cost found another way.
const SLACK: f64 = 1e-3;

/// The searched upward edges of a hierarchy, by rank, which the landmarks' costs come from.
pub(super) struct Upward<'a> {
    pub parent: &'a [u32],
    /// The searched edges of rank `r` are `head[first[r]..first[r] + (start[r + 1] - start[r])]`
    /// with costs `cost[start[r]..start[r + 1]]`.
    pub first: &'a [u32],
    pub head: &'a [u32],
    pub start: &'a [u32],
    pub cost: &'a [f64],
}

/// Costs by rank, as two threads share them: each writes only the ranks it sweeps.
type Costs = [AtomicU64];

fn get(dist: &Costs, r: usize) -> f64 {
    f64::from_bits(dist[r].load(Ordering::Relaxed))
}

fn set(dist: &Costs, r: usize, d: f64) {
    dist[r].store(d.to_bits(), Ordering::Relaxed);
}

impl Upward<'_> {
    fn edges(&self, r: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        let costs = &self.cost[self.start[r] as usize..self.start[r + 1] as usize];
        let from = self.first[r] as usize;
        self.head[from..from + costs.len()]
            .iter()
            .zip(costs)
            .map(|(&h, &c)| (h as usize, c))
    }

    /// The cost from each rank of `from` to every rank (infinite where there is no way), one
    /// lane of `dist` each (rank `r`'s cost from `from[b]` at `r * N + b`): one sweep down the
    /// ranks reads each edge once for all of them. The ranks go to the threads `owner` gives
    /// them to ([`by_subtrees`]).
    pub(super) fn costs_from<const N: usize>(&self, from: [usize; N], dist: &Costs, owner: &[u8]) {
        for cost in dist {
            cost.store(f64::INFINITY.to_bits(), Ordering::Relaxed);
        }
        for (b, &from) in from.iter().enumerate() {
            set(dist, from * N + b, 0.0);
            let mut x = from as u32;
            while x != NONE {
                let d = get(dist, x as usize * N + b);
                for (y, c) in self.edges(x as usize) {
                    set(dist, y * N + b, get(dist, y * N + b).min(d + c));
                }
                x = self.parent[x as usize];
            }
        }
        // Down from the top: each rank's cost through its upward edges, whose heads are its
        // ancestors, done before it.
        let sweep = |x: usize| {
            let mut d: [f64; N] = std::array::from_fn(|b| get(dist, x * N + b));
            for (y, c) in self.edges(x) {
                // A comparison rather than `f64::min`: no cost is NaN.
                for (b, d) in d.iter_mut().enumerate() {
                    let via = get(dist, y * N + b) + c;
                    if via < *d {
                        *d = via;
                    }
                }
            }
            for (b, d) in d.into_iter().enumerate() {
                set(dist, x * N + b, d);
            }
        };
        let Ok(()) = by_subtrees(owner, dist.len() / N, true, sweep, &mut |_| {
            Ok::<(), std::convert::Infallible>(())
        });
    }
}

/// Keeps the costs of landmarks `first..first + lanes` from `dist` (rank `r`'s cost to
/// landmark `first + b` at `r * lanes + b`) in the rows of `costs` (ranks from `offset` on),
/// and lowers each rank's cost to its nearest landmark.
fn record(
    (first, lanes, unit): (usize, usize, f64),
    dist: &Costs,
    offset: usize,
    costs: &mut [Row],
    nearest: &mut [f64],
) {
    for (r, (Row(row), near)) in costs.iter_mut().zip(nearest).enumerate() {
        for b in 0..lanes {
            let d = get(dist, (offset + r) * lanes + b);
            if d.is_finite() {
                row[first + b] = (d / unit).floor().min(f64::from(TOP)) as u16;
                *near = near.min(d);
            }
        }
    }
}

/// Every rank's cost to each landmark in units of `unit`, rounded down, a row of [`LANDMARKS`]
/// per rank.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Landmarks {
    costs: Vec<Row>,
    unit: f64,
    per_unit: f64,
    /// The rank of each landmark.
    at: Vec<u32>,
}

/// A rank's costs to the landmarks, aligned to a cache line of its own: a bound reads one line
/// per rank, not two.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
struct Row([u16; LANDMARKS]);

const _: () = assert!(size_of::<Row>() == LANDMARKS * size_of::<u16>());

/// The landmarks' costs to a query's two ends, and how many units below the rounded cost each
/// may lie (an end in a region has its costs from those of the ranks around it, within a
/// unit: see [`Landmarks::row_through`]).
pub(super) struct Ends {
    start: [u16; LANDMARKS],
    goal: [u16; LANDMARKS],
    start_loose: f64,
    goal_loose: f64,
}

impl Landmarks {
    /// Chooses the landmarks and computes every rank's cost to them, the downward sweeps
    /// shared between two threads as `owner` gives the ranks out ([`Upward::owners`]; on one
    /// thread when it is empty). `check` is called before each landmark, with the landmark's
    /// number, and may stop the build.
    pub(super) fn build<E>(
        upward: &Upward,
        owner: &[u8],
        mut check: impl FnMut(usize) -> Result<(), E>,
    ) -> Result<Self, E> {
        let ranks = upward.parent.len();
        // A map with no passable cell: no query reaches a row.
        if ranks == 0 {
            return Ok(Self::default());
        }
        // The largest part of the map: the root of the largest subtree of the elimination
        // tree (each part of the map has its own root).
        // Children come before their parents, so a root's size is complete when it is met.
        let mut size = vec![1u32; ranks];
        let (mut root, mut largest) = (0, 0);
        for r in 0..ranks {
            match upward.parent[r] {
                NONE if size[r] > largest => (root, largest) = (r, size[r]),
                NONE => {}
                p => size[p as usize] += size[r],
            }
        }
        drop(size);
        let mut costs = vec![Row([UNREACHED; LANDMARKS]); ranks];
        let mut at = Vec::with_capacity(LANDMARKS);
        let dist: Vec<AtomicU64> = (0..ranks * BATCH).map(|_| AtomicU64::new(0)).collect();
        let one = &dist[..ranks];
        upward.costs_from([root], one, owner);
        // Every landmark lies in the root's part, its costs no more than twice the dearest.
        let dearest = (0..ranks)
            .map(|r| get(one, r))
            .filter(|d| d.is_finite())
            .fold(0.0, f64::max);
        let unit = if dearest > 0.0 {
            2.0 * dearest / f64::from(TOP)
        } else {
            1.0
        };
        let mut nearest = vec![f64::INFINITY; ranks];
        // The rank of the largest finite cost, the lowest among equals.
        let farthest = |cost: &dyn Fn(usize) -> f64| {
            let (mut best, mut at) = (f64::NEG_INFINITY, root);
            for r in 0..ranks {
                let c = cost(r);
                if c > best && c.is_finite() {
                    (best, at) = (c, r);
                }
            }
            at
        };
        // Keeps the costs of landmarks `first..first + lanes`, swept into `dist`.
        let keep = |first: usize, lanes: usize, costs: &mut [Row], nearest: &mut [f64]| {
            let dist = &dist[..ranks * lanes];
            if owner.is_empty() {
                record((first, lanes, unit), dist, 0, costs, nearest);
                return;
            }
            // Each thread keeps the costs of half the ranks.
            let half = ranks / 2;
            let (costs_low, costs_high) = costs.split_at_mut(half);
            let (nearest_low, nearest_high) = nearest.split_at_mut(half);
            std::thread::scope(|scope| {
                scope.spawn(|| record((first, lanes, unit), dist, half, costs_high, nearest_high));
                record((first, lanes, unit), dist, 0, costs_low, nearest_low);
            });
        };
        for l in 0..ALONE {
            check(l)?;
            // The first the farthest from the top, which `one` holds the costs from.
            let next = if l == 0 {
                farthest(&|r| get(one, r))
            } else {
                farthest(&|r| nearest[r])
            };
            at.push(next as u32);
            upward.costs_from([next], one, owner);
            keep(l, 1, &mut costs, &mut nearest);
        }
        let mut near = vec![0.0; ranks];
        for l in (ALONE..LANDMARKS).step_by(BATCH) {
            check(l)?;
            // The batch farthest first, each next one the farthest from the landmarks swept
            // and from those of the batch before it, whose costs are not known yet: the
            // landmarks' bound stands in for them (no more than the cost, so a rank near a
            // landmark of the batch is never taken for a far one).
            near.copy_from_slice(&nearest);
            let mut batch = [root; BATCH];
            for (b, landmark) in batch.iter_mut().enumerate() {
                *landmark = farthest(&|r| near[r]);
                if b + 1 < BATCH {
                    let row = row(&costs, *landmark);
                    closer(&costs, row, unit, &mut near, owner.is_empty());
                }
            }
            at.extend(batch.iter().map(|&r| r as u32));
            upward.costs_from(batch, &dist, owner);
            keep(l, BATCH, &mut costs, &mut nearest);
        }
        Ok(Self {
            costs,
            unit,
            per_unit: 1.0 / unit,
            at,
        })
    }

    /// Leaves out the rows of the first `ranks` ranks, those of the regions (region `i`'s
    /// ranks are `start[i]..start[i + 1]`): the landmarks that lie in regions, as `(region,
    /// landmark, the landmark's cell's index in the region)`, sorted.
    pub(super) fn drop_first(&mut self, ranks: usize, start: &[u32]) -> Vec<(u32, u8, u8)> {
        self.costs.drain(..ranks);
        self.costs.shrink_to_fit();
        let mut inside: Vec<(u32, u8, u8)> = (self.at.iter().enumerate())
            .filter(|&(_, &r)| (r as usize) < ranks)
            .map(|(l, &r)| {
                let region = start.partition_point(|&s| s <= r) - 1;
                (region as u32, l as u8, (r - start[region]) as u8)
            })
            .collect();
        inside.sort_unstable();
        inside
    }

    /// The costs of a cell of a region to the landmarks, from its costs `exits` to the ranks
    /// around the region, `(rank, cost)`, and `inside` to the landmarks in the region,
    /// `(landmark, cost)`: every way from a landmark outside enters the region through one
    /// of the ranks around it. Each is within a unit below the cost rounded down (the
    /// ranks' costs are rounded down before the exits' are added), which [`Ends`] keeps.
    pub(super) fn row_through(
        &self,
        exits: impl Iterator<Item = (u32, f64)>,
        inside: impl Iterator<Item = (usize, f64)>,
    ) -> [u16; LANDMARKS] {
        let mut row = [UNREACHED; LANDMARKS];
        for (r, cost) in exits {
            // `⌊by + x⌋ = by + ⌊x⌋` for a whole `by`: an addition of integers, lane by lane.
            let add = (cost * self.per_unit).floor().min(f64::from(TOP)) as u16;
            for (kept, &by) in row.iter_mut().zip(self.row(r as usize)) {
                let through = by.saturating_add(add).min(TOP);
                *kept = (*kept).min(if by == UNREACHED { UNREACHED } else { through });
            }
        }
        for (l, cost) in inside {
            row[l] = row[l].min((cost * self.per_unit).floor().min(f64::from(TOP)) as u16);
        }
        row
    }

    pub(super) fn bytes(&self) -> usize {
        self.costs.capacity() * size_of::<Row>()
    }

    /// Asks for huge pages under the rows (see [`huge_pages`]).
    pub(super) fn back_with_huge_pages(&self) {
        huge_pages::back(&self.costs);
    }

    fn row(&self, r: usize) -> &[u16; LANDMARKS] {
        row(&self.costs, r)
    }

    /// The costs of ranks `start` and `goal` to the landmarks and the bound between them:
    /// `None` when a landmark reaches one of them and not the other (no way joins them).
    #[cfg(test)]
    pub(super) fn between(&self, start: usize, goal: usize) -> Option<(Ends, f64)> {
        self.between_rows((*self.row(start), false), (*self.row(goal), false))
    }

    /// Asks the processor to start loading rank `r`'s row.
    pub(super) fn prefetch(&self, r: usize) {
        crate::search::space::prefetch(&self.costs, r);
    }

    /// The row of rank `r`.
    pub(super) fn row_of(&self, r: usize) -> [u16; LANDMARKS] {
        *self.row(r)
    }

    /// [`Self::between`] for the rows of two ends, each loose (within a unit below its costs
    /// rounded down) or not.
    pub(super) fn between_rows(
        &self,
        (start, start_loose): ([u16; LANDMARKS], bool),
        (goal, goal_loose): ([u16; LANDMARKS], bool),
    ) -> Option<(Ends, f64)> {
        let ends = Ends {
            start,
            goal,
            start_loose: f64::from(u8::from(start_loose)),
            goal_loose: f64::from(u8::from(goal_loose)),
        };
        let apart = ends
            .start
            .iter()
            .zip(&ends.goal)
            .any(|(&a, &b)| (a == UNREACHED) != (b == UNREACHED));
        if apart {
            return None;
        }
        let loose = ends.start_loose + ends.goal_loose;
        let bound = (self.bound(largest(&ends.start, &ends.goal)) - loose * self.unit).max(0.0);
        Some((ends, bound))
    }

    /// An upper bound on the cost between a query's ends: the cheapest way through one
    /// landmark, `d(s, L) + d(L, t)`, from the rows taken up by the units each may lie below
    /// its cost (one for the rounding down, one more for a loose end); infinite when no
    /// landmark reaches both ends. On open ground of one cost a landmark often lies nearly in
    /// line with the two, and the bound is the cost within a percent (on `AR0011SR`'s
    /// scenarios for 45% of the queries, on `maze512-32-9`'s for 75%).
    pub(super) fn upper(&self, ends: &Ends) -> f64 {
        let through = ends
            .start
            .iter()
            .zip(&ends.goal)
            .filter(|&(&a, &b)| a != UNREACHED && b != UNREACHED)
            .map(|(&a, &b)| u32::from(a) + u32::from(b))
            .min();
        through.map_or(f64::INFINITY, |units| {
            let above = 2.0 + ends.start_loose + ends.goal_loose + SLACK;
            (f64::from(units) + above) * self.unit
        })
    }

    /// The cost that two rows `m` units apart are at least apart by.
    #[inline(always)]
    fn bound(&self, m: u16) -> f64 {
        apart(m, self.unit)
    }

    /// The bound in costs between rank `r` and the query's goal (`to_goal`) or start, which
    /// the tests check [`Self::prunes`] against.
    #[cfg(test)]
    pub(super) fn lower(&self, ends: &Ends, r: usize, to_goal: bool) -> f64 {
        let (other, loose) = if to_goal {
            (&ends.goal, ends.goal_loose)
        } else {
            (&ends.start, ends.start_loose)
        };
        (self.bound(largest(self.row(r), other)) - loose * self.unit).max(0.0)
    }

    /// Whether the landmarks bound the cost between rank `r` and the query's goal
    /// (`to_goal`) or start by `limit − d` or more: whether a rank reached at cost `d` lies on
    /// no path cheaper than `limit` (`d` below `limit`; `r` must be joined to the query's
    /// start, or reached by no landmark).
    ///
    /// It is the test `d + lower ≥ limit`, with `lower` the bound in costs (as `between`
    /// gives it for the ends), put the other way round: `limit − d` in units, taken up a
    /// unit (far more than the rounding of the costs), is a threshold that any landmark's
    /// difference may reach. The threshold is computed while the row loads, and the row is
    /// compared lane by lane, with no largest difference to find and turn back into a cost
    /// (queries 1–2% faster at weighted 512²). It prunes no rank that the bound in costs
    /// would keep, and keeps those within a unit of its limit.
    #[inline(always)]
    pub(super) fn prunes(&self, ends: &Ends, r: usize, to_goal: bool, d: f64, limit: f64) -> bool {
        let (other, loose) = if to_goal {
            (&ends.goal, ends.goal_loose)
        } else {
            (&ends.start, ends.start_loose)
        };
        // `lower` is `(m − 1 − SLACK) × unit` for a largest difference of `m` units (and
        // a unit less for a loose end).
        let units = (limit - d) * self.per_unit + (3.0 + SLACK + loose);
        // An infinite limit, or one beyond any difference, prunes nothing.
        if units.is_nan() || units > f64::from(TOP) {
            return false;
        }
        // Rounded down: with the 3 above, a unit more than the exact threshold at least.
        any_apart(self.row(r), other, units as u16)
    }
}

/// Whether any landmark's `|a − b|` is `units` or more; compiles to a few vector
/// instructions on 16-bit lanes and a mask.
#[inline(always)]
fn any_apart(a: &[u16; LANDMARKS], b: &[u16; LANDMARKS], units: u16) -> bool {
    let mut far = [false; LANDMARKS];
    for l in 0..LANDMARKS {
        far[l] = a[l].abs_diff(b[l]) >= units;
    }
    far.iter().fold(false, |any, &f| any | f)
}

/// Rank `r`'s row of `costs`.
fn row(costs: &[Row], r: usize) -> &[u16; LANDMARKS] {
    &costs[r].0
}

/// The cost that two rows `m` units of `unit` apart are at least apart by.
#[inline(always)]
fn apart(m: u16, unit: f64) -> f64 {
    (f64::from(m) - 1.0 - SLACK).max(0.0) * unit
}

/// Lowers each rank's cost `near` (infinite for ranks no landmark reaches) to its bound from
/// the rank whose row of `costs` is `from`, on two threads unless `alone`.
fn closer(costs: &[Row], from: &[u16; LANDMARKS], unit: f64, near: &mut [f64], alone: bool) {
    let lower = |first: usize, near: &mut [f64]| {
        for (r, near) in (first..).zip(near) {
            if near.is_finite() {
                *near = near.min(apart(largest(from, row(costs, r)), unit));
            }
        }
    };
    if alone {
        lower(0, near);
        return;
    }
    let half = near.len() / 2;
    let (low, high) = near.split_at_mut(half);
    std::thread::scope(|scope| {
        scope.spawn(|| lower(half, high));
        lower(0, low);
    });
}

/// The largest `|a − b|` over the landmarks, in units; the maximum is taken by halves, which
/// compiles to a few vector instructions on 16-bit lanes.
#[inline(always)]
fn largest(a: &[u16; LANDMARKS], b: &[u16; LANDMARKS]) -> u16 {
    let mut v = [0u16; LANDMARKS];
    for l in 0..LANDMARKS {
        v[l] = a[l].abs_diff(b[l]);
    }
    let mut width = LANDMARKS / 2;
    while width > 0 {
        for i in 0..width {
            v[i] = v[i].max(v[i + width]);
        }
        width /= 2;
    }
    v[0]
}
