/// Where a map lies in the world: the scale and placement of a map imported from a robot's
/// occupancy map (a ROS `map.yaml`), kept so the map can be exported back in the same frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GeoReference {
    /// The side of one cell in metres.
    pub resolution: f64,
    /// The pose of the map's lower-left corner in the world, `[x, y, yaw]` (metres, metres,
    /// radians), as ROS gives it.
    pub origin: [f64; 3],
}

impl GeoReference {
    /// Checks that the resolution is a positive finite number and the origin is finite.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.resolution.is_finite() && self.resolution > 0.0) {
            return Err(format!(
                "resolution {} must be a positive number of metres per cell",
                self.resolution
            ));
        }
        if let Some(v) = self.origin.iter().find(|v| !v.is_finite()) {
            return Err(format!("origin value {v} must be a finite number"));
        }
        Ok(())
    }
}
