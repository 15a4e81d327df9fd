//! The smoothing options of `gridpath solve`: `--smooth`, `--tension`, `--clearance`,
//! `--min-turn-radius`, `--export`.

use std::path::PathBuf;

use anyhow::Context as _;
use gridpath::format::{PathExport, PathExportFormat, path_export};
use gridpath::grid::{Cell, GeoReference, Map};
use gridpath::search::{self, Route, SearchRequest, SearchResult};
use gridpath::smooth::{self, SmoothSettings, SmoothedPath};

use super::bounds::number_in;

/// Smoothing options.
#[derive(clap::Args, Debug, Clone)]
pub struct SmoothArgs {
    /// Smooth the path: line-of-sight shortcuts, then Bezier curves that keep clear of walls
    /// (an any-angle path, --algo theta or lazy-theta, is curved through its own waypoints).
    #[arg(long)]
    pub smooth: bool,
    /// How curvy the smoothed path is, from 0 (straight segments) to 1 (Catmull–Rom).
    #[arg(long, default_value_t = SmoothSettings::DEFAULT_TENSION,
          value_parser = number_in(0.0, 1.0))]
    pub tension: f64,
    /// The distance in cells that the path keeps from walls and the map's border: a round
    /// body's radius. Given, the search goes only through cells whose centre is at least this
    /// far from every wall (no path, exit 2, where the body cannot pass), Theta*'s and Lazy
    /// Theta*'s line of sight keeps it, and the curves keep it too [default: 0.25, for the
    /// curves only; range: 0 to the map's longer side].
    #[arg(long, value_name = "CELLS",
          value_parser = number_in(0.0, f64::from(gridpath::grid::Grid::MAX_SIDE)))]
    pub clearance: Option<f64>,
    /// The smallest radius the curve may turn on, in cells: each corner becomes a circular arc
    /// of at least this radius where there is room (the result reports the radius reached).
    #[arg(
        long = "min-turn-radius",
        value_name = "CELLS",
        conflicts_with = "min_turn_radius_m"
    )]
    pub min_turn_radius: Option<f64>,
    /// The smallest turning radius in metres, for a map with a world frame (a ROS map).
    #[arg(long = "min-turn-radius-m", value_name = "METRES")]
    pub min_turn_radius_m: Option<f64>,
    /// Write the path export to FILE, encoded as its extension says: .json for the whole export
    /// (map, settings, grid path, smoothed path and its samples, the world frame, statistics),
    /// .csv for the samples along the curve; any other extension is refused. Smooths the path
    /// even without --smooth.
    #[arg(long, value_name = "FILE")]
    pub export: Option<PathBuf>,
    /// For a map without a world frame (a Moving AI map, a gridpath map drawn by hand): the
    /// side of a cell in metres, so that the export's `world` gives the path in metres, with
    /// the map's lower-left corner at (0, 0) and y up [range: 1e-9 to 1e9].
    #[arg(long = "cell-size", value_name = "METRES",
          value_parser = number_in(GeoReference::MIN_RESOLUTION, GeoReference::MAX_RESOLUTION))]
    pub cell_size: Option<f64>,
    /// The largest distance in cells between two exported samples along the curve [range:
    /// 0.001 to 1000000; at most 10000000 samples].
    #[arg(long, default_value_t = smooth::DEFAULT_SPACING,
          value_parser = number_in(smooth::MIN_SPACING, smooth::MAX_SPACING))]
    pub spacing: f64,
}

impl SmoothArgs {
    /// The clearance the curves keep: the one given, else the default.
    pub fn clearance(&self) -> f64 {
        self.clearance.unwrap_or(SmoothSettings::DEFAULT_CLEARANCE)
    }

    /// The smoothing settings on `map` (whose world frame turns a radius in metres into
    /// cells).
    pub fn settings(&self, map: &Map) -> anyhow::Result<SmoothSettings> {
        let min_turn_radius = match (self.min_turn_radius, self.min_turn_radius_m) {
            (Some(cells), _) => cells,
            (None, Some(metres)) => {
                let geo = map.metadata.with_context(|| {
                    format!(
                        "--min-turn-radius-m needs a map with a world frame (a ROS map); {} has none: give --min-turn-radius in cells",
                        map.name
                    )
                })?;
                metres / geo.resolution
            }
            (None, None) => 0.0,
        };
        Ok(SmoothSettings {
            tension: self.tension,
            clearance: self.clearance(),
            min_turn_radius,
        })
    }

    /// Checks the settings when they will be used, and the export file's extension, so a bad
    /// value fails before the search.
    pub fn validate(&self) -> anyhow::Result<()> {
        if let Some(path) = &self.export {
            PathExportFormat::from_path(path)?;
        }
        if self.smooth || self.export.is_some() {
            SmoothSettings {
                tension: self.tension,
                clearance: self.clearance(),
                min_turn_radius: self
                    .min_turn_radius
                    .or(self.min_turn_radius_m)
                    .unwrap_or(0.0),
            }
            .validate()
            .context("bad --tension, --clearance or --min-turn-radius")?;
        }
        Ok(())
    }

    /// Gives a map without a world frame the one `--cell-size` asks for; refuses it for a map
    /// that has its own.
    pub fn frame(&self, map: &mut Map) -> anyhow::Result<()> {
        let name = map.name.clone();
        frame_of_cell_size(map, self.cell_size, &name)
    }

    /// The smoothed path when smoothing was asked for and a path was found, following the
    /// centre of a unit of `unit_size` (`map` is the unit's map, searched by the unit's
    /// top-left cell).
    pub fn smooth(
        &self,
        map: &Map,
        result: &SearchResult,
        stops: &[Cell],
        unit_size: u32,
    ) -> anyhow::Result<Option<SmoothedPath>> {
        if !(self.smooth || self.export.is_some()) || !result.found {
            return Ok(None);
        }
        let smoothed = result
            .smoothed_through(&map.grid, stops, &self.settings(map)?)
            .context("smoothing the path")?;
        let offset = search::body_offset(map.grid.topology(), unit_size);
        Ok(Some(smoothed.shifted(smooth::Point::new(offset, offset))))
    }

    /// Writes the path export when `--export` was given.
    pub fn export(
        &self,
        map: &Map,
        request: &SearchRequest,
        result: &SearchResult,
        smoothed: Option<&SmoothedPath>,
        route: Option<&Route>,
        unit_size: u32,
    ) -> anyhow::Result<()> {
        let Some(path) = &self.export else {
            return Ok(());
        };
        // The export holds the path and its curve; the samples are computed as they are
        // written, and a count over the limit is refused before any is.
        if let Some(curve) = smoothed {
            path_export::check_sample_budget(
                path,
                curve.curve_length,
                self.spacing,
                map.metadata.is_some(),
            )?;
        }
        let mut export = PathExport::outline(
            map,
            request,
            result,
            self.settings(map)?,
            smoothed.cloned(),
            self.spacing,
        );
        if let Some(route) = route {
            export = export.with_route(route);
        }
        export = export.with_body(map.grid.topology(), unit_size);
        let format = export.write_to(path)?;
        let samples = export.sample_count();
        eprintln!(
            "gridpath: exported the path to {} ({}, {samples} samples along the curve)",
            path.display(),
            match format {
                PathExportFormat::Json => "the whole export as JSON",
                PathExportFormat::Csv => "the samples as CSV",
            }
        );
        Ok(())
    }
}

/// Prints the smoothed path's lengths and costs beside the grid path's.
pub fn print_summary(smoothed: &SmoothedPath) -> std::io::Result<()> {
    out!(
        "smoothed: {} waypoints, length {:.6} (grid {:.6}), cost {:.6} (grid {:.6})",
        smoothed.waypoints.len(),
        smoothed.length,
        smoothed.grid_length,
        smoothed.cost,
        smoothed.grid_cost
    );
    out!(
        "curve: {} Bezier pieces ({} straight), length {:.6}, cost {:.6}",
        smoothed.beziers.len(),
        smoothed.straight_pieces,
        smoothed.curve_length,
        smoothed.curve_cost
    );
    let radius = match smoothed.min_turn_radius {
        Some(r) if r > 0.0 => format!("{r:.3} cells"),
        Some(_) => "0 (a corner)".to_owned(),
        None => "none (straight)".to_owned(),
    };
    out!(
        "turning: least radius {radius}, largest heading change {:.1}° between samples {} cells apart",
        smoothed.max_heading_change.to_degrees(),
        smooth::DEFAULT_SPACING
    );
    Ok(())
}

/// Gives a map without a world frame the one `--cell-size` asks for (its lower-left corner at
/// the origin); refuses it for a map that has its own, naming it as `name`.
pub fn frame_of_cell_size(map: &mut Map, cell_size: Option<f64>, name: &str) -> anyhow::Result<()> {
    let Some(resolution) = cell_size else {
        return Ok(());
    };
    if let Some(geo) = map.metadata {
        anyhow::bail!(
            "--cell-size is for maps without a world frame; {name} has its own ({} m a cell)",
            geo.resolution
        );
    }
    map.metadata = Some(GeoReference {
        resolution,
        origin: [0.0, 0.0, 0.0],
    });
    Ok(())
}
