//! The limits of a query's walks, calibrated to the map by the build.
//!
//! A walk relaxes a rank only when the cost it was reached at plus the landmarks' bound to the
//! other end lies below the walk's limit (see `ContractionHierarchy::meet`). The limits are
//! ratios over the bound between the query's ends: the larger of the landmarks' and the
//! grid's (the octile distance at the cheapest terrain's cost, on squares with diagonal
//! steps). A limit just above the query's cost prunes the most: at weighted 512², a first
//! limit of the cost itself (known from an earlier query) answers in 21 µs where one of 1.05
//! times the landmarks' bound takes 29 µs. A limit below the cost prunes a rank of the
//! cheapest path, the walk finds no meeting under it, and the next walk, with a larger limit,
//! does what is left.
//!
//! How far above its bound a query's cost lies depends on the map. On maps of one cost the
//! bound is most often the cost itself, within a thousandth, and on weighted terrain a few
//! hundredths below it (200 queries of each set's scenarios, 912 random pairs at weighted
//! 512²; the landmarks' bound alone, then the larger of it and the grid's):
//!
//! | map | cost over bound: median | 75th percentile | 90th |
//! | --- | ---: | ---: | ---: |
//! | `AR0011SR` | 1.0003, 1.0001 | 1.0087, 1.0009 | 1.045, 1.0188 |
//! | `maze512-32-9` | 1.0004, 1.0003 | 1.0039, 1.0032 | 1.0127, 1.0098 |
//! | `Boston_0_512` | 1.0053, 1.0023 | 1.0245, 1.0167 | 1.0578, 1.0397 |
//! | `AcrosstheCape` | 1.0028, 1.0003 | 1.0167, 1.0138 | 1.0377, 1.0318 |
//! | weighted 512² | 1.03, 1.03 | 1.085, 1.085 | 1.175, 1.175 |
//!
//! So the build asks the hierarchy for the costs of [`SAMPLES`] pairs of cells drawn at
//! random (with a fixed seed: the same map gets the same limits) and keeps the ratios of
//! cost to bound at three shares of the pairs, [`SHARES`]: the first limit is the bound times
//! the first ratio, so that some two thirds of the queries meet under it, and the next two
//! walks have the next ratios; any later walk grows the limit by [`GROWTH`].
//!
//! - **No ratio above the default's** ([`FIRST`], then growing by [`GROWTH`]), which were
//!   tuned on weighted terrain. There the costs spread wide over their bounds, and the ratios
//!   at the shares (a first of 1.069 at 512²) measured no faster than the default ones, so
//!   weighted terrain keeps them; on maps of one cost the first falls to a few thousandths
//!   above the bound.
//! - **No limit above the landmarks' upper bound**, the cheapest way through one landmark
//!   (see `Landmarks::upper`): a walk under it meets. On open ground of one cost it is often
//!   the cost within a percent.
//!
//! Together they make queries on maps of one cost up to 28% faster (see docs/performance.md).
//! The limits change how much a query relaxes, never what it answers: a walk that meets
//! under its limit has found the cheapest path, and the last walk has none.

/// How many pairs of cells the build asks the costs of.
pub(super) const SAMPLES: usize = 256;

/// The shares of the sampled queries whose costs lie under the first, second and third
/// limits.
const SHARES: [f64; CALIBRATED] = [0.65, 0.9, 0.98];

/// How many walks have a calibrated limit.
const CALIBRATED: usize = 3;

/// The fewest sampled queries the limits are calibrated from; with fewer, a map keeps
/// [`Limits::default`].
const FEWEST: usize = 16;

/// The first limit over the bound of a map with too few sampled queries, and of the sampling
/// queries themselves.
const FIRST: f64 = 1.05;

/// How much the limit grows for each walk after the calibrated ones, and for each walk after
/// the first of the default limits.
const GROWTH: f64 = 1.1;

/// The least a limit grows from one walk to the next, so that each walk relaxes more.
const LEAST_GROWTH: f64 = 1.0001;

/// How far above a sampled ratio a limit lies: a query whose cost is the sample's lies under
/// it, whatever the rounding.
const ABOVE: f64 = 1.0 + 1e-6;

/// The limits of a query's walks, over the landmarks' bound between its ends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Limits {
    ratios: [f64; CALIBRATED],
}

impl Default for Limits {
    /// A first limit of [`FIRST`] times the bound, growing by [`GROWTH`].
    fn default() -> Self {
        Self::growing_from(FIRST)
    }
}

impl Limits {
    /// A first limit of `first` times the bound, growing by [`GROWTH`] for each later walk.
    pub(super) fn growing_from(first: f64) -> Self {
        Self {
            ratios: [first, first * GROWTH, first * GROWTH * GROWTH],
        }
    }

    /// The limits for a map whose sampled queries cost `ratios` times the bounds between
    /// their ends (the order does not matter); [`Self::default`] for fewer than [`FEWEST`].
    pub(super) fn calibrated(mut ratios: Vec<f64>) -> Self {
        ratios.retain(|r| r.is_finite());
        if ratios.len() < FEWEST {
            return Self::default();
        }
        ratios.sort_by(f64::total_cmp);
        let at = |share: f64| {
            let i = ((ratios.len() - 1) as f64 * share) as usize;
            // A cost is never under its bound; a sample below 1 is the bound's rounding.
            ratios[i].max(1.0) * ABOVE
        };
        let mut limits = Self {
            ratios: SHARES.map(at),
        };
        // No higher than the default limits, tuned on weighted terrain, where the costs spread
        // wide over their bounds: limits at the shares measured there no faster (from 2%
        // faster to 5% slower, run to run).
        let defaults = Self::default();
        for (ratio, most) in limits.ratios.iter_mut().zip(defaults.ratios) {
            *ratio = ratio.min(most);
        }
        for k in 1..CALIBRATED {
            limits.ratios[k] = limits.ratios[k].max(limits.ratios[k - 1] * LEAST_GROWTH);
        }
        limits
    }

    /// The first walk's limit for a query whose ends are at least `bound` apart.
    pub(super) fn first(&self, bound: f64) -> f64 {
        bound * self.ratios[0]
    }

    /// The limit of the walk after `walks` walks, the last with limit `limit`, for a query
    /// whose ends are at least `bound` apart: larger than `limit`.
    pub(super) fn after(&self, limit: f64, bound: f64, walks: u32) -> f64 {
        let grown = match self.ratios.get(walks as usize) {
            Some(&ratio) => bound * ratio,
            None => limit * GROWTH,
        };
        grown.max(limit * LEAST_GROWTH)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limits_lie_at_the_shares_of_the_sampled_ratios() {
        // 1.0000, 1.0001, …, 1.0099 in a shuffled order.
        let ratios: Vec<f64> = (0..100)
            .map(|i| 1.0 + f64::from((i * 37) % 100) / 1e4)
            .collect();
        let limits = Limits::calibrated(ratios);
        let want = [1.0064, 1.0089, 1.0097];
        for (got, want) in limits.ratios.iter().zip(want) {
            assert!((got - want).abs() < 1e-5, "{:?}", limits.ratios);
        }
        // Under the first limit, 65 of the 100 sampled costs: those at most 1.0064 times the
        // bound.
        assert!((limits.first(200.0) - 200.0 * 1.0064).abs() < 1e-3);
        assert_eq!(limits.after(1.0, 200.0, 1), 200.0 * limits.ratios[1]);
        assert_eq!(limits.after(1.0, 200.0, 2), 200.0 * limits.ratios[2]);
        assert_eq!(limits.after(500.0, 200.0, 3), 500.0 * GROWTH);
    }

    #[test]
    fn limits_at_shares_above_the_default_ones_keep_the_default_ones() {
        // Costs spread from the bound to twice it: the default limits, the lower.
        let ratios: Vec<f64> = (0..100).map(|i| 1.0 + f64::from(i) / 100.0).collect();
        assert_eq!(Limits::calibrated(ratios), Limits::default());
        // Half the costs at their bound, half far above it: a first limit just above the
        // bound, then the default ones.
        let ratios: Vec<f64> = (0..100).map(|i| if i < 70 { 1.0 } else { 3.0 }).collect();
        let limits = Limits::calibrated(ratios);
        assert_eq!(limits.ratios[0], ABOVE);
        assert_eq!(limits.ratios[1..], Limits::default().ratios[1..]);
    }

    #[test]
    fn limits_grow_from_walk_to_walk_and_stay_above_the_bound() {
        // Every sampled cost at its bound, or below it by rounding: limits just above the
        // bound, each walk's a little larger than the last.
        let limits = Limits::calibrated(vec![1.0 - 1e-9; 40]);
        assert!(limits.first(100.0) > 100.0);
        let mut limit = limits.first(100.0);
        for walks in 1..6 {
            let next = limits.after(limit, 100.0, walks);
            assert!(next > limit, "walk {walks}: {next} after {limit}");
            limit = next;
        }
    }

    #[test]
    fn too_few_samples_keep_the_default_limits() {
        assert_eq!(Limits::calibrated(vec![1.5; FEWEST - 1]), Limits::default());
        let unreached = vec![f64::INFINITY; 2 * FEWEST];
        assert_eq!(Limits::calibrated(unreached), Limits::default());
        assert_ne!(Limits::calibrated(vec![1.01; FEWEST]), Limits::default());
        assert_eq!(Limits::default().first(10.0), 10.0 * FIRST);
    }
}
