//! Heuristic evaluation towards one target.

use super::request::Heuristic;
use crate::grid::{Cell, StepsTo, Topology};

const SQRT2_MINUS_1: f64 = std::f64::consts::SQRT_2 - 1.0;

/// A heuristic aimed at one target cell, scaled so that it never overestimates when the
/// heuristic itself is admissible: `scale` is the cheapest terrain cost times the weight.
///
/// It stays admissible and consistent on a map with heights. Proof: a step's cost is its
/// flat cost plus a slope term `uphill × rise` or `downhill × drop`, both weights ≥ 0, so
/// every step, and every path, costs at least what it costs on the same map flattened; and
/// cliffs only remove steps. An estimate that never exceeds the flat cost of the remaining
/// path therefore never exceeds its cost with heights, and `h(n) ≤ c_flat(n, m) + h(m) ≤
/// c(n, m) + h(m)` keeps consistency. The oracle test `heights_and_slopes_match_the_oracle`
/// checks `h ≤` the true remaining cost at every cell A* expands.
///
/// On a hex map the estimate is the hex distance times the cheapest terrain cost: every hex
/// step has centre distance 1 and costs at least the cheapest terrain's cost (the mean of two
/// costs, each at least the cheapest), and the hex distance falls by at most 1 a step, so the
/// estimate is admissible and consistent, with terrain costs below 1 too.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Estimate {
    kind: Heuristic,
    tx: i32,
    ty: i32,
    scale: f64,
    /// The count of steps to the target, for [`Heuristic::Hex`].
    steps: Option<StepsTo>,
}

impl Estimate {
    /// An estimate of the cost to `(tx, ty)` on a map of this topology, multiplied by `scale`.
    /// On a hex map every heuristic but zero measures hex distance (the square ones mean
    /// nothing there, and requests naming them are refused); on a square map
    /// [`Heuristic::Hex`] measures nothing and counts as zero.
    pub fn new(topology: Topology, kind: Heuristic, tx: u32, ty: u32, scale: f64) -> Self {
        let kind = match kind {
            _ if scale == 0.0 => Heuristic::Zero,
            Heuristic::Zero => Heuristic::Zero,
            _ if topology.distance_counts_steps() => Heuristic::Hex,
            Heuristic::Hex => Heuristic::Zero,
            kind => kind,
        };
        let steps = topology.steps_to(Cell::new(tx, ty));
        Self {
            kind,
            tx: tx as i32,
            ty: ty as i32,
            scale,
            steps,
        }
    }

    /// The factor the raw heuristic is multiplied by.
    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// Whether this is the octile estimate, which [`Estimate::octile_at`] computes directly.
    pub fn is_octile(&self) -> bool {
        self.kind == Heuristic::Octile
    }

    /// The octile estimate from `(x, y)`, whatever the kind.
    #[inline(always)]
    pub fn octile_at(&self, x: i32, y: i32) -> f64 {
        let dx = f64::from((x - self.tx).abs());
        let dy = f64::from((y - self.ty).abs());
        (dx.max(dy) + SQRT2_MINUS_1 * dx.min(dy)) * self.scale
    }

    /// The estimate from `(x, y)`.
    #[inline]
    pub fn at(&self, x: i32, y: i32) -> f64 {
        let dx = f64::from((x - self.tx).abs());
        let dy = f64::from((y - self.ty).abs());
        let raw = match self.kind {
            Heuristic::Zero => return 0.0,
            Heuristic::Octile => return self.octile_at(x, y),
            Heuristic::Manhattan => dx + dy,
            Heuristic::Chebyshev => dx.max(dy),
            Heuristic::Euclidean => (dx * dx + dy * dy).sqrt(),
            Heuristic::Hex => match self.steps {
                Some(steps) => steps.from(i64::from(x), i64::from(y)) as f64,
                None => 0.0,
            },
        };
        raw * self.scale
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::HexLayout;

    #[test]
    fn each_heuristic_measures_as_named() {
        let at = |kind| Estimate::new(Topology::Square, kind, 0, 0, 1.0).at(3, 4);
        assert_eq!(at(Heuristic::Manhattan), 7.0);
        assert_eq!(at(Heuristic::Euclidean), 5.0);
        assert_eq!(at(Heuristic::Chebyshev), 4.0);
        assert!((at(Heuristic::Octile) - (1.0 + 3.0 * std::f64::consts::SQRT_2)).abs() < 1e-12);
        assert_eq!(at(Heuristic::Zero), 0.0);
        assert_eq!(
            Estimate::new(Topology::Square, Heuristic::Manhattan, 0, 0, 0.5).at(3, 4),
            3.5
        );
        assert_eq!(at(Heuristic::Hex), 0.0);
        // Hex distance on hexes, whatever square heuristic is named.
        let hex = Topology::Hex(HexLayout::ODD_R);
        for kind in [Heuristic::Hex, Heuristic::Octile] {
            assert_eq!(Estimate::new(hex, kind, 0, 0, 0.5).at(3, 4), 2.5);
        }
    }
}
