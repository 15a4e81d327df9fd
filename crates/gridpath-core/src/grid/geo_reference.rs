/// Where a map lies in the world: the scale and placement of a map imported from a robot's
/// occupancy map (a ROS `map.yaml`), kept so the map can be exported back in the same frame.
///
/// Build one with [`GeoReference::new`], which refuses values that a map file could not hold
/// or that no real map has; the fields stay public for reading.
///
/// ```
/// use gridpath_core::grid::GeoReference;
///
/// let geo = GeoReference::new(0.05, [-10.0, -7.5, 0.0]).unwrap();
/// assert_eq!(geo.resolution, 0.05);
/// assert!(GeoReference::new(f64::INFINITY, [0.0; 3]).is_err());
/// assert!(GeoReference::new(0.0, [0.0; 3]).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GeoReference {
    /// The side of one cell in metres.
    pub resolution: f64,
    /// The pose of the map's lower-left corner in the world, `[x, y, yaw]` (metres, metres,
    /// radians), as ROS gives it.
    pub origin: [f64; 3],
}

impl GeoReference {
    /// The smallest cell side, in metres: a nanometre.
    pub const MIN_RESOLUTION: f64 = 1e-9;
    /// The largest cell side, in metres: a million kilometres.
    pub const MAX_RESOLUTION: f64 = 1e9;
    /// The largest magnitude of each origin value (metres, and radians for the yaw). A
    /// map's extent, [`Grid::MAX_SIDE`](super::Grid::MAX_SIDE) ×
    /// [`MAX_RESOLUTION`](Self::MAX_RESOLUTION), stays far below `f64`'s range from any origin.
    pub const MAX_ORIGIN: f64 = 1e12;

    /// A geo-reference with a resolution from [`MIN_RESOLUTION`](Self::MIN_RESOLUTION) to
    /// [`MAX_RESOLUTION`](Self::MAX_RESOLUTION) metres per cell and origin values of at most
    /// [`MAX_ORIGIN`](Self::MAX_ORIGIN) in magnitude; anything else (infinite, not a number,
    /// zero, negative, out of range) is refused with a message naming the value.
    pub fn new(resolution: f64, origin: [f64; 3]) -> Result<Self, String> {
        let geo = Self { resolution, origin };
        geo.validate()?;
        Ok(geo)
    }

    /// Checks the ranges [`GeoReference::new`] enforces, for a value built field by field.
    pub fn validate(&self) -> Result<(), String> {
        if !(Self::MIN_RESOLUTION..=Self::MAX_RESOLUTION).contains(&self.resolution) {
            return Err(format!(
                "resolution {:e} must be a number of metres per cell from {:e} to {:e}",
                self.resolution,
                Self::MIN_RESOLUTION,
                Self::MAX_RESOLUTION
            ));
        }
        for (name, v) in ["x", "y", "yaw"].into_iter().zip(self.origin) {
            if !(-Self::MAX_ORIGIN..=Self::MAX_ORIGIN).contains(&v) {
                return Err(format!(
                    "origin {name} {v:e} must be a number from -{max:e} to {max:e}",
                    max = Self::MAX_ORIGIN
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_values_are_refused_naming_them() {
        let bad = |resolution, origin| GeoReference::new(resolution, origin).unwrap_err();
        assert_eq!(
            bad(1e308 * 10.0, [0.0; 3]),
            "resolution inf must be a number of metres per cell from 1e-9 to 1e9"
        );
        assert!(bad(f64::NAN, [0.0; 3]).starts_with("resolution NaN"));
        assert!(bad(0.0, [0.0; 3]).starts_with("resolution 0e0"));
        assert!(bad(-0.05, [0.0; 3]).starts_with("resolution -5e-2"));
        assert!(bad(5e-324, [0.0; 3]).starts_with("resolution 5e-324"));
        assert!(bad(1e10, [0.0; 3]).starts_with("resolution 1e10"));
        assert_eq!(
            bad(0.05, [0.0, f64::NEG_INFINITY, 0.0]),
            "origin y -inf must be a number from -1e12 to 1e12"
        );
        assert!(bad(0.05, [0.0, 0.0, f64::NAN]).starts_with("origin yaw NaN"));
        assert!(GeoReference::new(1e-9, [-1e12, 1e12, 3.0]).is_ok());
        assert!(GeoReference::new(1e9, [0.0; 3]).is_ok());
    }
}
