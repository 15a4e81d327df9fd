//! Heuristic evaluation towards one target.

use super::request::Heuristic;

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
#[derive(Clone, Copy, Debug)]
pub(crate) struct Estimate {
    kind: Heuristic,
    tx: i32,
    ty: i32,
    scale: f64,
}

impl Estimate {
    /// An estimate of the cost to `(tx, ty)`, multiplied by `scale`.
    pub fn new(kind: Heuristic, tx: u32, ty: u32, scale: f64) -> Self {
        let kind = if scale == 0.0 { Heuristic::Zero } else { kind };
        Self {
            kind,
            tx: tx as i32,
            ty: ty as i32,
            scale,
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
        };
        raw * self.scale
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_heuristic_measures_as_named() {
        let at = |kind| Estimate::new(kind, 0, 0, 1.0).at(3, 4);
        assert_eq!(at(Heuristic::Manhattan), 7.0);
        assert_eq!(at(Heuristic::Euclidean), 5.0);
        assert_eq!(at(Heuristic::Chebyshev), 4.0);
        assert!((at(Heuristic::Octile) - (1.0 + 3.0 * std::f64::consts::SQRT_2)).abs() < 1e-12);
        assert_eq!(at(Heuristic::Zero), 0.0);
        assert_eq!(Estimate::new(Heuristic::Manhattan, 0, 0, 0.5).at(3, 4), 3.5);
    }
}
