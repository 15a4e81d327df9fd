use serde::{Deserialize, Serialize};

use super::SmoothError;
use crate::grid::Grid;

/// How curvy the smoothed path may be and how far it keeps from walls.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SmoothSettings {
    /// How far the curve swings out at each waypoint, from 0 (straight segments between the
    /// waypoints) to 1 (a full Catmull–Rom spline). Pieces that come too close to a wall are
    /// tightened below this value.
    pub tension: f64,
    /// The distance in cells that the curve keeps from walls and from the map's border (see
    /// [`super`] for where the grid path itself comes nearer).
    pub clearance: f64,
    /// The smallest radius, in cells, the curve may turn on; 0 for no bound. With a bound the
    /// curve turns each corner on a circular arc of at least this radius where the corner's
    /// segments leave room and the arc keeps the clearance (the tension is then not used), and
    /// [`SmoothedPath::min_turn_radius`](super::SmoothedPath::min_turn_radius) reports the
    /// radius it reached.
    #[serde(default)]
    pub min_turn_radius: f64,
}

impl SmoothSettings {
    /// The default tension.
    pub const DEFAULT_TENSION: f64 = 0.5;
    /// The default clearance: a quarter of a cell.
    pub const DEFAULT_CLEARANCE: f64 = 0.25;

    /// Checks that the tension lies in [0, 1], and that the clearance and the minimum turning
    /// radius are finite numbers ≥ 0.
    pub fn validate(&self) -> Result<(), SmoothError> {
        if !(0.0..=1.0).contains(&self.tension) {
            return Err(SmoothError::BadTension(self.tension));
        }
        if !(self.clearance.is_finite() && self.clearance >= 0.0) {
            return Err(SmoothError::BadClearance(self.clearance));
        }
        if !(self.min_turn_radius.is_finite() && self.min_turn_radius >= 0.0) {
            return Err(SmoothError::BadTurnRadius(self.min_turn_radius));
        }
        Ok(())
    }
}

impl SmoothSettings {
    /// [`validate`](Self::validate), and the clearance is at most the map's longer side.
    pub fn validate_for(&self, grid: &Grid) -> Result<(), SmoothError> {
        self.validate()?;
        let (width, height) = (grid.width(), grid.height());
        if self.clearance > f64::from(width.max(height)) {
            return Err(SmoothError::ClearanceTooLarge {
                clearance: self.clearance,
                width,
                height,
            });
        }
        Ok(())
    }
}

impl Default for SmoothSettings {
    fn default() -> Self {
        Self {
            tension: Self::DEFAULT_TENSION,
            clearance: Self::DEFAULT_CLEARANCE,
            min_turn_radius: 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_settings_are_refused() {
        assert!(SmoothSettings::default().validate().is_ok());
        let bad = |tension, clearance| {
            SmoothSettings {
                tension,
                clearance,
                min_turn_radius: 0.0,
            }
            .validate()
        };
        assert_eq!(bad(1.5, 0.0), Err(SmoothError::BadTension(1.5)));
        assert!(matches!(
            bad(f64::NAN, 0.0),
            Err(SmoothError::BadTension(_))
        ));
        assert_eq!(bad(0.5, -0.1), Err(SmoothError::BadClearance(-0.1)));
        assert!(matches!(
            bad(0.5, f64::INFINITY),
            Err(SmoothError::BadClearance(_))
        ));
        assert!(bad(0.0, 0.0).is_ok());
        assert!(bad(1.0, 2.0).is_ok());
        let radius = |min_turn_radius| {
            SmoothSettings {
                min_turn_radius,
                ..SmoothSettings::default()
            }
            .validate()
        };
        assert_eq!(radius(-1.0), Err(SmoothError::BadTurnRadius(-1.0)));
        assert!(radius(f64::NAN).is_err());
        assert!(radius(2.5).is_ok());
    }
}
