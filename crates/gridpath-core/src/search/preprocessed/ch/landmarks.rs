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
//! from the cell farthest from the top of the largest part of the map.

use std::sync::atomic::{AtomicU64, Ordering};

use super::NONE;
use super::customize::{by_subtrees, tree_owners};

/// How many landmarks a hierarchy keeps.
pub(super) const LANDMARKS: usize = 32;

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

    /// Which of two threads sweeps each rank down ([`tree_owners`], by each rank's searched
    /// edges), or nothing when one thread sweeps them all.
    pub(super) fn owners(&self) -> Vec<u8> {
        tree_owners(self.parent, self.cost.len(), |x| {
            u64::from(self.start[x + 1] - self.start[x]) + 1
        })
    }

    /// The cost from rank `from` to every rank (infinite where there is no way), on the
    /// threads `owner` gives the ranks to ([`by_subtrees`]).
    fn costs_from(&self, from: usize, dist: &Costs, owner: &[u8]) {
        for r in 0..dist.len() {
            set(dist, r, f64::INFINITY);
        }
        set(dist, from, 0.0);
        let mut x = from as u32;
        while x != NONE {
            let d = get(dist, x as usize);
            for (y, c) in self.edges(x as usize) {
                set(dist, y, get(dist, y).min(d + c));
            }
            x = self.parent[x as usize];
        }
        // Down from the top: each rank's cost through its upward edges, whose heads are its
        // ancestors, done before it.
        let sweep = |x: usize| {
            let mut d = get(dist, x);
            for (y, c) in self.edges(x) {
                d = d.min(get(dist, y) + c);
            }
            set(dist, x, d);
        };
        let Ok(()) = by_subtrees(owner, dist.len(), true, sweep, &mut |_| {
            Ok::<(), std::convert::Infallible>(())
        });
    }
}

/// Keeps landmark `l`'s costs `dist` in the rows of `costs` (ranks from `offset` on), and
/// lowers each rank's cost to its nearest landmark.
fn record(
    (l, unit): (usize, f64),
    dist: &Costs,
    offset: usize,
    costs: &mut [u16],
    nearest: &mut [f64],
) {
    for (r, (row, near)) in costs.chunks_exact_mut(LANDMARKS).zip(nearest).enumerate() {
        let d = get(dist, offset + r);
        if d.is_finite() {
            row[l] = (d / unit).floor().min(f64::from(TOP)) as u16;
            *near = near.min(d);
        }
    }
}

/// Every rank's cost to each landmark in units of `unit`, rounded down, a row of [`LANDMARKS`]
/// per rank.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Landmarks {
    costs: Vec<u16>,
    unit: f64,
}

/// The landmarks' costs to a query's two ends.
pub(super) struct Ends {
    start: [u16; LANDMARKS],
    goal: [u16; LANDMARKS],
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
        let mut costs = vec![UNREACHED; ranks * LANDMARKS];
        let dist: Vec<AtomicU64> = (0..ranks).map(|_| AtomicU64::new(0)).collect();
        upward.costs_from(root, &dist, owner);
        // Every landmark lies in the root's part, its costs no more than twice the dearest.
        let dearest = (0..ranks)
            .map(|r| get(&dist, r))
            .filter(|d| d.is_finite())
            .fold(0.0, f64::max);
        let unit = if dearest > 0.0 {
            2.0 * dearest / f64::from(TOP)
        } else {
            1.0
        };
        let mut nearest = vec![f64::INFINITY; ranks];
        let farthest = |cost: &dyn Fn(usize) -> f64| {
            (0..ranks)
                .filter(|&r| cost(r).is_finite())
                .max_by(|&a, &b| cost(a).total_cmp(&cost(b)).then(b.cmp(&a)))
                .unwrap_or(root)
        };
        let mut next = farthest(&|r| get(&dist, r));
        for l in 0..LANDMARKS {
            check(l)?;
            upward.costs_from(next, &dist, owner);
            if owner.is_empty() {
                record((l, unit), &dist, 0, &mut costs, &mut nearest);
            } else {
                // Each thread keeps the costs of half the ranks.
                let half = ranks / 2;
                let (costs_low, costs_high) = costs.split_at_mut(half * LANDMARKS);
                let (nearest_low, nearest_high) = nearest.split_at_mut(half);
                std::thread::scope(|scope| {
                    scope.spawn(|| record((l, unit), &dist, half, costs_high, nearest_high));
                    record((l, unit), &dist, 0, costs_low, nearest_low);
                });
            }
            next = farthest(&|r| nearest[r]);
        }
        Ok(Self { costs, unit })
    }

    pub(super) fn bytes(&self) -> usize {
        self.costs.capacity() * size_of::<u16>()
    }

    fn row(&self, r: usize) -> &[u16; LANDMARKS] {
        self.costs[r * LANDMARKS..(r + 1) * LANDMARKS]
            .try_into()
            .expect("a row of every landmark per rank")
    }

    /// The costs of ranks `start` and `goal` to the landmarks and the bound between them:
    /// `None` when a landmark reaches one of them and not the other (no way joins them).
    pub(super) fn between(&self, start: usize, goal: usize) -> Option<(Ends, f64)> {
        let ends = Ends {
            start: *self.row(start),
            goal: *self.row(goal),
        };
        let apart = ends
            .start
            .iter()
            .zip(&ends.goal)
            .any(|(&a, &b)| (a == UNREACHED) != (b == UNREACHED));
        if apart {
            return None;
        }
        let bound = self.bound(largest(&ends.start, &ends.goal));
        Some((ends, bound))
    }

    /// The cost that two rows `m` units apart are at least apart by.
    #[inline(always)]
    fn bound(&self, m: u16) -> f64 {
        (f64::from(m) - 1.0 - SLACK).max(0.0) * self.unit
    }

    /// A lower bound on the cost between rank `r` and the query's goal (`to_goal`) or start:
    /// `r` must be joined to its start, or reached by no landmark.
    #[inline(always)]
    pub(super) fn lower(&self, ends: &Ends, r: usize, to_goal: bool) -> f64 {
        let other = if to_goal { &ends.goal } else { &ends.start };
        self.bound(largest(self.row(r), other))
    }
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
