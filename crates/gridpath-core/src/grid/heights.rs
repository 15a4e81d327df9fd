//! Ground height per cell and the slope rules that turn height changes into step costs.
//!
//! A map may carry a height layer: one number per cell, in height units (metres, storeys,
//! whatever the map means). With it every step pays, besides its terrain cost, a slope term
//! from the rise or drop between the two cells, and a step that climbs or descends more than
//! the map allows is forbidden:
//!
//! ```
//! use gridpath_core::grid::{Grid, Slope};
//!
//! let slope = Slope { uphill: 2.0, downhill: 0.5, max_climb: Some(3.0) };
//! assert_eq!(slope.extra(1.0, 2.5), Some(3.0)); // 1.5 up, 2 per unit
//! assert_eq!(slope.extra(2.5, 1.0), Some(0.75)); // 1.5 down, 0.5 per unit
//! assert_eq!(slope.extra(0.0, 4.0), None); // a cliff: more than 3 up
//!
//! let mut grid = Grid::from_ascii(&["...", "..."]).unwrap();
//! grid.set_heights(Some(vec![0.0, 1.0, 2.0, 0.0, 1.0, 2.0])).unwrap();
//! grid.set_slope(slope).unwrap();
//! assert_eq!(grid.height_at(gridpath_core::grid::Cell::new(2, 1)), 2.0);
//! ```

use std::fmt;

/// How height changes cost: `uphill × rise` for a step that climbs, `downhill × drop` for one
/// that descends, and no step at all that changes height by more than `max_climb`, up or down
/// (a unit can neither scale nor jump down a cliff).
///
/// Both weights are at least 0, so a slope never makes a step cheaper than its terrain cost:
/// every heuristic that is admissible on the flat map stays admissible with heights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slope {
    /// Extra cost per height unit climbed.
    pub uphill: f64,
    /// Extra cost per height unit descended.
    pub downhill: f64,
    /// The largest height change of one step, or `None` for no limit.
    pub max_climb: Option<f64>,
}

impl Default for Slope {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl fmt::Display for Slope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "uphill {} · downhill {}", self.uphill, self.downhill)?;
        match self.max_climb {
            Some(h) => write!(f, " · max climb {h}"),
            None => f.write_str(" · no max climb"),
        }
    }
}

impl Slope {
    /// The rules of a map that has heights but names none: climbing costs 1 per height unit,
    /// descending is free, and there is no cliff.
    pub const DEFAULT: Slope = Slope {
        uphill: 1.0,
        downhill: 0.0,
        max_climb: None,
    };

    /// The largest uphill or downhill weight: with heights within ±[`MAX_HEIGHT`] a step's
    /// slope term stays below 2e12, so a path's cost on the largest map stays finite.
    pub const MAX_WEIGHT: f64 = 1.0e6;

    /// Checks the weights are from 0 to [`Slope::MAX_WEIGHT`] and the limit, if any, is a
    /// finite number of at least 0.
    pub fn validate(&self) -> Result<(), String> {
        let weight = |v: f64| v.is_finite() && (0.0..=Self::MAX_WEIGHT).contains(&v);
        if !weight(self.uphill) {
            return Err(format!(
                "the uphill weight must be from 0 to {}, got {}",
                Self::MAX_WEIGHT,
                self.uphill
            ));
        }
        if !weight(self.downhill) {
            return Err(format!(
                "the downhill weight must be from 0 to {}, got {}",
                Self::MAX_WEIGHT,
                self.downhill
            ));
        }
        if let Some(h) = self.max_climb
            && !(h.is_finite() && h >= 0.0)
        {
            return Err(format!("the maximum climb must be ≥ 0, got {h}"));
        }
        Ok(())
    }

    /// The slope term of a step from height `from` to height `to`, or `None` when the step
    /// changes height by more than [`Slope::max_climb`].
    #[inline]
    pub fn extra(&self, from: f64, to: f64) -> Option<f64> {
        let rise = to - from;
        if self.max_climb.is_some_and(|limit| rise.abs() > limit) {
            return None;
        }
        Some(if rise > 0.0 {
            self.uphill * rise
        } else {
            -self.downhill * rise
        })
    }
}

/// The largest magnitude a height may have, so that slope terms stay far from overflow and
/// rounding stays below the costs' own.
pub const MAX_HEIGHT: f32 = 1.0e6;

/// Checks heights for a grid of `len` cells: the right count, each finite and within
/// ±[`MAX_HEIGHT`]. The error names the first bad cell's index.
pub(crate) fn check_heights(values: &[f32], len: usize) -> Result<(), String> {
    if values.len() != len {
        return Err(format!(
            "expected {len} heights (width × height), got {}",
            values.len()
        ));
    }
    if let Some(i) = values
        .iter()
        .position(|h| !h.is_finite() || h.abs() > MAX_HEIGHT)
    {
        return Err(format!(
            "height {} at cell index {i} is not a number within ±{MAX_HEIGHT}",
            values[i]
        ));
    }
    Ok(())
}
