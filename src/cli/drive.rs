//! `gridpath drive`: a path a robot can drive — a round body that keeps its radius from every
//! wall and turns no tighter than its turning radius — planned by a search over poses.
//!
//! On a map with a world frame (a ROS map, or `--cell-size`) the radii are in metres and the
//! positions may be given in metres; headings are degrees counter-clockwise from +x with y up,
//! as the map frame and the screen both show them.

use std::io::{self, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context as _, bail};
use gridpath::drive::{self, Drive, DriveError, DriveRequest, Inflation, Motion, Pose};
use gridpath::format::path_export::world_point;
use gridpath::format::registry::{self, FileKind};
use gridpath::format::ros_map::load_ros_map;
use gridpath::format::save;
use gridpath::grid::{Cell, GeoReference, Map};
use serde_json::{Value, json};

use super::bounds::number_in;
use super::smooth::frame_of_cell_size;
use super::{EXIT_NEGATIVE, LevelArgs, parse_cell};

/// Arguments of `gridpath drive`.
#[derive(clap::Args, Debug)]
pub struct DriveArgs {
    /// The map (any map gridpath reads; a ROS map.yaml gives metres).
    map: PathBuf,
    #[command(flatten)]
    level: LevelArgs,
    /// The start cell X,Y (the body starts at its centre) [default: the map's start].
    #[arg(long, value_parser = parse_cell, conflicts_with = "from_m")]
    from: Option<Cell>,
    /// The goal cell X,Y [default: the map's goal].
    #[arg(long, value_parser = parse_cell, conflicts_with = "to_m")]
    to: Option<Cell>,
    /// The start position X,Y in metres in the map frame (a map with a world frame).
    #[arg(long = "from-m", value_name = "X,Y", value_parser = parse_point, allow_hyphen_values = true)]
    from_m: Option<(f64, f64)>,
    /// The goal position X,Y in metres in the map frame.
    #[arg(long = "to-m", value_name = "X,Y", value_parser = parse_point, allow_hyphen_values = true)]
    to_m: Option<(f64, f64)>,
    /// The heading at the start, degrees counter-clockwise from +x [default: the search's
    /// choice].
    #[arg(long = "start-yaw", value_name = "DEG", value_parser = number_in(-3600.0, 3600.0),
          allow_hyphen_values = true)]
    start_yaw: Option<f64>,
    /// The heading at the goal, degrees counter-clockwise from +x [default: the search's
    /// choice].
    #[arg(long = "goal-yaw", value_name = "DEG", value_parser = number_in(-3600.0, 3600.0),
          allow_hyphen_values = true)]
    goal_yaw: Option<f64>,
    /// The body's radius: metres on a map with a world frame, else cells.
    #[arg(long = "robot-radius", value_name = "R", value_parser = number_in(0.0, 1e9))]
    robot_radius: f64,
    /// The tightest turn the robot makes: metres on a map with a world frame, else cells.
    #[arg(long = "turning-radius", value_name = "R", value_parser = number_in(1e-9, 1e9))]
    turning_radius: f64,
    /// How the robot moves: `dubins` (forward only) or `reeds-shepp` (forward and reverse).
    #[arg(long, default_value = "dubins", value_parser = parse_motion)]
    motion: Motion,
    /// For a map without a world frame: the side of a cell in metres, so that radii and
    /// positions are in metres and the export has a world frame.
    #[arg(long = "cell-size", value_name = "METRES",
          value_parser = number_in(GeoReference::MIN_RESOLUTION, GeoReference::MAX_RESOLUTION))]
    cell_size: Option<f64>,
    /// Keep away from walls where there is room, as nav2's inflation layer asks: the cost
    /// reaches this far from a wall (metres on a map with a world frame, else cells) and falls
    /// as e^(−k (d − robot radius)) with k the --cost-scaling-factor.
    #[arg(long = "inflation-radius", value_name = "R", value_parser = number_in(0.0, 1e9))]
    inflation_radius: Option<f64>,
    /// nav2's `cost_scaling_factor`: per metre on a map with a world frame, else per cell.
    #[arg(long = "cost-scaling-factor", value_name = "K", default_value_t = 3.0,
          value_parser = number_in(0.0, 1e9), requires = "inflation_radius")]
    cost_scaling_factor: f64,
    /// How much more a length driven next to a wall costs than one far from walls (Smac's
    /// `cost_penalty`).
    #[arg(long = "cost-penalty", value_name = "W", default_value_t = 2.0,
          value_parser = number_in(0.0, 1e6), requires = "inflation_radius")]
    cost_penalty: f64,
    /// The most poses the search expands before it gives up.
    #[arg(long, default_value_t = DriveRequest::MAX_EXPANSIONS as u64,
          value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    max_expansions: u64,
    /// Write the drive to FILE (.json): the body, the motion, the pieces, samples in cells and
    /// (with a world frame) in metres, the least clearance and turning radius.
    #[arg(long, value_name = "FILE")]
    export: Option<PathBuf>,
    /// The largest distance in cells between two exported samples.
    #[arg(long, default_value_t = 0.25, value_parser = number_in(0.001, 1e6))]
    spacing: f64,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    json: bool,
}

fn parse_point(s: &str) -> Result<(f64, f64), String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("expected X,Y in metres (e.g. 1.5,-2), got {s:?}"))?;
    let number = |v: &str| match v.trim().parse::<f64>() {
        Ok(n) if n.is_finite() => Ok(n),
        _ => Err(format!("{v:?} in {s:?} is not a number")),
    };
    Ok((number(x)?, number(y)?))
}

fn parse_motion(s: &str) -> Result<Motion, String> {
    match s {
        "dubins" => Ok(Motion::Dubins),
        "reeds-shepp" => Ok(Motion::ReedsShepp),
        _ => Err(format!(
            "unknown motion {s:?}: expected dubins or reeds-shepp"
        )),
    }
}

/// The map's units: cells, or metres with its world frame.
struct Units {
    geo: Option<GeoReference>,
    height: f64,
}

impl Units {
    /// A length in the map's units, in cells.
    fn to_cells(&self, length: f64) -> f64 {
        self.geo.map_or(length, |g| length / g.resolution)
    }

    fn name(&self) -> &'static str {
        if self.geo.is_some() { "m" } else { "cells" }
    }

    /// A length in cells, in the map's units.
    fn shown(&self, cells: f64) -> f64 {
        self.geo.map_or(cells, |g| cells * g.resolution)
    }
}

pub fn run(args: &DriveArgs) -> anyhow::Result<ExitCode> {
    if let Some(export) = &args.export {
        if export.extension().and_then(|e| e.to_str()) != Some("json") {
            bail!("--export {}: a drive is written as .json", export.display());
        }
        save::refuse_input_as_output(export, &[("the map", args.map.as_path())])?;
    }
    // A robot's map.yaml is read as it is, without converting it first.
    let mut map = match registry::kind_of(&args.map) {
        Some(FileKind::RosMap) => load_ros_map(&args.map, |_| {})?,
        _ => args.level.load_map(&args.map)?,
    };
    frame_of_cell_size(&mut map, args.cell_size, &args.map.display().to_string())?;
    let units = Units {
        geo: map.metadata,
        height: f64::from(map.grid.height()),
    };
    let start = position(&map, &units, args.from, args.from_m, map.start, "start")?;
    let goal = position(&map, &units, args.to, args.to_m, map.goal, "goal")?;
    // Degrees counter-clockwise with y up are radians clockwise with the rows' y down.
    let heading = |yaw: Option<f64>| yaw.map_or(0.0, |d| -d.to_radians());
    let request = DriveRequest {
        start: Pose::new(start.0, start.1, heading(args.start_yaw)),
        goal: Pose::new(goal.0, goal.1, heading(args.goal_yaw)),
        start_heading_free: args.start_yaw.is_none(),
        goal_heading_free: args.goal_yaw.is_none(),
        body_radius: units.to_cells(args.robot_radius),
        turning_radius: units.to_cells(args.turning_radius),
        motion: args.motion,
        max_expansions: args.max_expansions as usize,
        inflation: args.inflation_radius.map(|radius| Inflation {
            radius: units.to_cells(radius),
            // A factor per metre is one per cell times the cells a metre holds.
            scaling: units.geo.map_or(args.cost_scaling_factor, |g| {
                args.cost_scaling_factor * g.resolution
            }),
            penalty: args.cost_penalty,
        }),
    };
    let began = Instant::now();
    let planned = drive::plan(&map.grid, &request, None);
    let ms = began.elapsed().as_secs_f64() * 1e3;
    let drive = match planned {
        Ok(drive) => drive,
        Err(DriveError::NoWay) => {
            let why = narrowest_place(&map, &request, &units);
            if args.json {
                let out = json!({"found": false, "why": "no drive for this body", "narrowest": why.1, "ms": ms});
                println!("{out}");
            } else {
                println!("{}{}", DriveError::NoWay, why.0);
            }
            return Ok(ExitCode::from(EXIT_NEGATIVE));
        }
        Err(DriveError::Blocked { which, clearance }) => {
            let message = format!(
                "no drive: the body ({} {}) does not fit at the {which}: a wall is {:.3} {} from it",
                args.robot_radius,
                units.name(),
                units.shown(clearance),
                units.name()
            );
            if args.json {
                println!("{}", json!({"found": false, "why": message, "ms": ms}));
            } else {
                println!("{message}");
            }
            return Ok(ExitCode::from(EXIT_NEGATIVE));
        }
        Err(e @ DriveError::Budget(_)) => {
            println!("no drive: {e}");
            return Ok(ExitCode::from(EXIT_NEGATIVE));
        }
        Err(e) => return Err(e).with_context(|| args.map.display().to_string()),
    };
    let export = export_json(&map, &request, &drive, &units, args.spacing);
    if let Some(path) = &args.export {
        save::write_atomically_with(path, save::Backup::Discard, |out| {
            serde_json::to_writer(&mut *out, &export)?;
            writeln!(out)
        })?;
    }
    let mut out = io::stdout().lock();
    if args.json {
        let mut summary = export.clone();
        if let Some(o) = summary.as_object_mut() {
            o.remove("samples");
            o.remove("world");
            o.insert("ms".into(), json!(ms));
            o.insert("expanded".into(), json!(drive.expanded));
        }
        writeln!(out, "{summary}")?;
    } else {
        let u = units.name();
        writeln!(
            out,
            "drive ({}): length {:.3} {u}, {} pieces; least clearance {:.3} {u} (body {} {u}); tightest turn {} (limit {} {u})",
            args.motion.name(),
            units.shown(drive.curve.length()),
            drive.curve.pieces.len(),
            units.shown(drive.least_clearance),
            args.robot_radius,
            radius_text(units.shown(drive.least_turning_radius()), u),
            args.turning_radius,
        )?;
        writeln!(out, "expanded {} poses in {ms:.1} ms", drive.expanded)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn radius_text(r: f64, unit: &str) -> String {
    if r.is_finite() {
        format!("{r:.3} {unit}")
    } else {
        "none (straight)".to_owned()
    }
}

/// A position in cells: a cell's centre, or a point in metres in the map frame.
fn position(
    map: &Map,
    units: &Units,
    cell: Option<Cell>,
    metres: Option<(f64, f64)>,
    marker: Option<Cell>,
    which: &str,
) -> anyhow::Result<(f64, f64)> {
    if let Some((x, y)) = metres {
        let geo = units.geo.with_context(|| {
            format!(
                "--{}-m needs a map with a world frame (a ROS map, or --cell-size); {} has none",
                if which == "start" { "from" } else { "to" },
                map.name
            )
        })?;
        let cx = (x - geo.origin[0]) / geo.resolution;
        let cy = units.height - (y - geo.origin[1]) / geo.resolution;
        return Ok((cx, cy));
    }
    let cell = cell.or(marker).with_context(|| {
        format!(
            "{} has no {which}: give --{} X,Y",
            map.name,
            if which == "start" { "from" } else { "to" }
        )
    })?;
    if !map.grid.contains_cell(cell) {
        bail!(
            "the {which} {cell} is off the map ({}×{})",
            map.grid.width(),
            map.grid.height()
        );
    }
    Ok(map.grid.topology().centre(cell))
}

/// Where the widest way from start to goal is narrowest, as text and JSON.
fn narrowest_place(map: &Map, request: &DriveRequest, units: &Units) -> (String, Value) {
    let at = |p: Pose| (p.x, p.y);
    let limit = request.body_radius + 1.0;
    let gap = drive::widest_gap(&map.grid, at(request.start), at(request.goal), limit);
    match gap {
        Some((cell, room)) if room < request.body_radius => (
            format!(
                "; the widest way narrows to {:.3} {} from the walls at cell {cell} (the body needs {:.3})",
                units.shown(room),
                units.name(),
                units.shown(request.body_radius)
            ),
            json!({"cell": [cell.x, cell.y], "clearance": units.shown(room)}),
        ),
        Some(_) => (
            "; there is room for the body all the way: its turns are too tight for the way"
                .to_owned(),
            Value::Null,
        ),
        None => (String::new(), Value::Null),
    }
}

/// The export: the body, the motion, the figures, the pieces and the samples.
fn export_json(
    map: &Map,
    request: &DriveRequest,
    drive: &Drive,
    units: &Units,
    spacing: f64,
) -> Value {
    let samples = drive.curve.samples(spacing);
    let both = |cells: f64| -> Value {
        let cells = if cells.is_finite() {
            json!(cells)
        } else {
            Value::Null
        };
        match units.geo {
            Some(g) => json!({"cells": cells, "m": cells.as_f64().map(|c| c * g.resolution)}),
            None => json!({"cells": cells}),
        }
    };
    let mut export = json!({
        "format": "gridpath-drive",
        "version": 1,
        "map": map.name,
        "motion": request.motion.name(),
        "body": {"shape": "disc", "radius": both(request.body_radius)},
        "turning_radius": both(request.turning_radius),
        "length": both(drive.curve.length()),
        "least_clearance": both(drive.least_clearance),
        "least_turning_radius": both(drive.least_turning_radius()),
        "inflation": request.inflation.map(|i| json!({
            "radius": both(i.radius),
            "cost_scaling_factor_per_cell": i.scaling,
            "cost_penalty": i.penalty,
        })),
        "cost": both(drive.cost),
        "pieces": drive.curve.pieces.iter().map(|p| json!({
            "steer": p.steer.name(),
            "gear": p.gear.name(),
            "length": p.length,
        })).collect::<Vec<_>>(),
        "samples_axes": "x, y in cells (y down the rows), heading in radians (clockwise on the screen), gear",
        "samples": samples.iter().map(|s| json!([s.pose.x, s.pose.y, s.pose.theta, s.gear.name()])).collect::<Vec<_>>(),
    });
    if let (Some(geo), Some(o)) = (units.geo, export.as_object_mut()) {
        o.insert(
            "world".into(),
            json!({
                "frame": "map",
                "resolution": geo.resolution,
                "origin": geo.origin,
                "axes": "x, y in metres (y up), yaw in radians counter-clockwise from +x, gear",
                "samples": samples.iter().map(|s| {
                    let [x, y] = world_point(&geo, units.height, s.pose.x, s.pose.y);
                    json!([x, y, pose_yaw(s.pose.theta), s.gear.name()])
                }).collect::<Vec<_>>(),
            }),
        );
    }
    export
}

/// A heading (clockwise, y down) as a yaw in (−π, π] (counter-clockwise, y up).
fn pose_yaw(theta: f64) -> f64 {
    let yaw = -theta;
    let wrapped =
        (yaw + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU) - std::f64::consts::PI;
    if wrapped <= -std::f64::consts::PI {
        std::f64::consts::PI
    } else {
        wrapped
    }
}
