//! The options that give a map heights and set its slope rules, shared by `solve` and
//! `convert`.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use gridpath::format::height_image::load_heights;
use gridpath::grid::{MAX_HEIGHT, Map, Slope};

use super::bounds::{number_above, number_in};

/// Heights and slope rules, over those the map file holds.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct HeightArgs {
    /// A grayscale image (PNG, PGM, JPEG, BMP) giving each cell's height: black 0, white
    /// --max-height; resampled when its size differs from the map's. Replaces the map's
    /// heights.
    #[arg(long, value_name = "IMAGE")]
    pub heights: Option<PathBuf>,
    /// The height of white in the --heights image [range: above 0, at most 1000000].
    #[arg(long, default_value_t = 10.0, value_name = "H", requires = "heights",
          value_parser = number_above(0.0, f64::from(MAX_HEIGHT)))]
    pub max_height: f64,
    /// Extra cost per height unit climbed [default: the map's, else 1] [range: 0 to 1000000].
    #[arg(long, value_name = "K", value_parser = number_in(0.0, Slope::MAX_WEIGHT))]
    pub uphill: Option<f64>,
    /// Extra cost per height unit descended [default: the map's, else 0] [range: 0 to
    /// 1000000].
    #[arg(long, value_name = "K", value_parser = number_in(0.0, Slope::MAX_WEIGHT))]
    pub downhill: Option<f64>,
    /// The largest height change of one step, up or down; steeper steps are cliffs, never
    /// taken [default: the map's, else none] [range: 0 to 2000000].
    #[arg(long, value_name = "H", value_parser = number_in(0.0, 2.0 * f64::from(MAX_HEIGHT)))]
    pub max_climb: Option<f64>,
}

impl HeightArgs {
    /// Whether any option was given.
    fn given(&self) -> bool {
        self.heights.is_some()
            || self.uphill.is_some()
            || self.downhill.is_some()
            || self.max_climb.is_some()
    }

    /// Gives `map` (read from `path`) the heights image and the slope rules asked for.
    pub fn apply(&self, map: &mut Map, path: &Path) -> anyhow::Result<()> {
        if !self.given() {
            return Ok(());
        }
        let grid = &mut map.grid;
        if let Some(image) = &self.heights {
            let heights = load_heights(image, grid.width(), grid.height(), self.max_height)?;
            grid.set_heights(Some(heights))?;
        }
        if grid.heights().is_none() {
            bail!(
                "{} has no heights: --uphill, --downhill and --max-climb need a map with heights (give one with --heights IMAGE)",
                path.display()
            );
        }
        let own = grid.slope();
        let slope = Slope {
            uphill: self.uphill.unwrap_or(own.uphill),
            downhill: self.downhill.unwrap_or(own.downhill),
            max_climb: self.max_climb.or(own.max_climb),
        };
        grid.set_slope(slope).context("the slope options")?;
        Ok(())
    }
}
