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
//! The costs from each landmark come from the hierarchy itself (Delling et al.'s PHAST): a
//! walk up from the landmark, then one sweep down every rank from the top, each rank taking
//! the cheapest of its upward edges. The landmarks are chosen farthest first: each is the rank
//! whose cost to the ones before is the largest, starting from the cell farthest from the top
//! of the largest part of the map.

use super::NONE;

/// How many landmarks a hierarchy keeps.
pub(super) const LANDMARKS: usize = 16;

/// The cost kept for a rank a landmark cannot reach: far above any cost of a path, so that the
/// bound between a rank that one landmark reaches and one it does not (parts of the map with
/// no way between them) is as good as infinite, and between two it reaches neither, zero.
const UNREACHED: f32 = 1e30;

/// The bounds are computed in `f32` from costs rounded to `f32`: each is lowered by this much
/// of the two costs it comes from, several times the rounding errors, so that they never lift
/// it above the true cost.
const SLACK: f32 = 1e-6;

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

impl Upward<'_> {
    fn edges(&self, r: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        let costs = &self.cost[self.start[r] as usize..self.start[r + 1] as usize];
        let from = self.first[r] as usize;
        self.head[from..from + costs.len()]
            .iter()
            .zip(costs)
            .map(|(&h, &c)| (h as usize, c))
    }

    /// The cost from rank `from` to every rank (infinite where there is no way).
    fn costs_from(&self, from: usize, dist: &mut [f64]) {
        dist.fill(f64::INFINITY);
        dist[from] = 0.0;
        let mut x = from as u32;
        while x != NONE {
            let d = dist[x as usize];
            for (y, c) in self.edges(x as usize) {
                dist[y] = dist[y].min(d + c);
            }
            x = self.parent[x as usize];
        }
        for x in (0..dist.len()).rev() {
            let mut d = dist[x];
            for (y, c) in self.edges(x) {
                d = d.min(dist[y] + c);
            }
            dist[x] = d;
        }
    }
}

/// Every rank's cost to each landmark, rounded to `f32`, a row of [`LANDMARKS`] per rank.
#[derive(Debug, Default)]
pub(super) struct Landmarks {
    costs: Vec<f32>,
}

/// The landmarks' costs to a query's two ends.
pub(super) struct Ends {
    start: [f32; LANDMARKS],
    goal: [f32; LANDMARKS],
}

impl Landmarks {
    /// Chooses the landmarks and computes every rank's cost to them. `check` is called
    /// before each landmark, with the landmark's number, and may stop the build.
    pub(super) fn build<E>(
        upward: &Upward,
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
        let mut dist = vec![f64::INFINITY; ranks];
        upward.costs_from(root, &mut dist);
        let mut nearest = vec![f64::INFINITY; ranks];
        let farthest = |dist: &[f64]| {
            (0..ranks)
                .filter(|&r| dist[r].is_finite())
                .max_by(|&a, &b| dist[a].total_cmp(&dist[b]).then(b.cmp(&a)))
                .unwrap_or(root)
        };
        let mut next = farthest(&dist);
        for l in 0..LANDMARKS {
            check(l)?;
            upward.costs_from(next, &mut dist);
            for (r, &d) in dist.iter().enumerate() {
                if d.is_finite() {
                    costs[r * LANDMARKS + l] = d as f32;
                    nearest[r] = nearest[r].min(d);
                }
            }
            next = farthest(&nearest);
        }
        Ok(Self { costs })
    }

    pub(super) fn bytes(&self) -> usize {
        self.costs.capacity() * size_of::<f32>()
    }

    fn row(&self, r: usize) -> &[f32; LANDMARKS] {
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
        let bound = largest(&ends.start, &ends.goal);
        if bound >= UNREACHED / 2.0 {
            return None;
        }
        Some((ends, f64::from(bound.max(0.0))))
    }

    /// A lower bound on the cost between rank `r` and the query's goal (`to_goal`) or start.
    #[inline]
    pub(super) fn lower(&self, ends: &Ends, r: usize, to_goal: bool) -> f64 {
        let other = if to_goal { &ends.goal } else { &ends.start };
        f64::from(largest(self.row(r), other))
    }
}

/// The largest bound `|a − b|` over the landmarks, each lowered by the rounding slack; the
/// maximum is taken by halves, which compiles to a few vector instructions.
#[inline]
fn largest(a: &[f32; LANDMARKS], b: &[f32; LANDMARKS]) -> f32 {
    let mut v = [0.0f32; LANDMARKS];
    for l in 0..LANDMARKS {
        v[l] = (a[l] - b[l]).abs() - SLACK * (a[l] + b[l]);
    }
    let mut width = LANDMARKS / 2;
    while width > 0 {
        for i in 0..width {
            v[i] = if v[i + width] > v[i] {
                v[i + width]
            } else {
                v[i]
            };
        }
        width /= 2;
    }
    v[0]
}
