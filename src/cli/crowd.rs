//! `gridpath crowd`: units with a radius and a speed moving continuously over a map from a
//! Moving AI scenario (or random starts and goals), avoiding each other and the walls.

use std::io::{self, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context as _, bail};
use gridpath::format::save;
use gridpath::grid::Cell;
use gridpath::mapf::{Instance, Moves, random_instance, read_instance};
use gridpath::motion::{Crowd, CrowdSettings, UnitSpec, Vec2};
use serde_json::json;

use super::EXIT_NEGATIVE;

/// The most units a command moves.
const MAX_UNITS: u64 = 100_000;

/// Arguments of `gridpath crowd`.
#[derive(clap::Args, Debug)]
pub struct CrowdArgs {
    /// The map (a Moving AI .map, or any map gridpath reads with square cells).
    map: PathBuf,
    /// The Moving AI scenario (.scen): its first K lines give the units' start and goal cells.
    #[arg(required_unless_present = "random", conflicts_with = "random")]
    scen: Option<PathBuf>,
    /// How many units the scenario gives (its first K lines).
    #[arg(long, value_name = "K", requires = "scen",
          value_parser = clap::value_parser!(u64).range(1..=MAX_UNITS))]
    agents: Option<u64>,
    /// Instead of a scenario: K units with distinct random start and goal cells in the map's
    /// largest connected region.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=MAX_UNITS))]
    random: Option<u64>,
    /// The seed of --random.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Every unit's radius, in cell widths. Units that start or end in neighbouring cells
    /// need at most 0.5.
    #[arg(long, default_value_t = 0.4, value_parser = positive)]
    radius: f64,
    /// Every unit's top speed, in cells per second.
    #[arg(long, default_value_t = 1.5, value_parser = positive)]
    speed: f64,
    /// Every unit's greatest change of velocity, in cells per second per second.
    #[arg(long, default_value_t = 4.0, value_parser = positive)]
    accel: f64,
    /// The time step, in seconds.
    #[arg(long, default_value_t = 0.1, value_parser = positive)]
    dt: f64,
    /// Stop after this much simulated time, in seconds, arrived or not.
    #[arg(long, default_value_t = 600.0, value_parser = positive)]
    max_time: f64,
    /// Threads (0: every core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Write every unit's position after every step to this CSV file: `step,time,agent,x,y`,
    /// x and y in cells (cell (i, j) spans [i, i+1) × [j, j+1)); step 0 is the start.
    #[arg(long, value_name = "FILE")]
    trace: Option<PathBuf>,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    json: bool,
}

fn positive(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 1e6 => Ok(v),
        _ => Err(format!(
            "`{text}` is not a number above 0 (and at most 1000000)"
        )),
    }
}

/// What a run measured.
struct Measures {
    arrived: Vec<Option<f64>>,
    least_gap: f64,
    deepest_wall: f64,
    ms_per_step: f64,
    guarded: usize,
}

pub fn run(args: &CrowdArgs) -> anyhow::Result<ExitCode> {
    if let Some(trace) = &args.trace {
        let mut inputs = vec![("the map", args.map.as_path())];
        if let Some(scen) = &args.scen {
            inputs.push(("the scenario", scen.as_path()));
        }
        save::refuse_input_as_output(trace, &inputs)?;
    }
    let instance = read(args)?;
    let topology = instance.grid().topology();
    let centre = |cell: Cell| {
        let (x, y) = topology.centre(cell);
        Vec2::new(x, y)
    };
    let units: Vec<UnitSpec> = instance
        .agents()
        .iter()
        .map(|agent| UnitSpec {
            start: centre(agent.start),
            goal: centre(agent.goal),
            radius: args.radius,
            max_speed: args.speed,
            max_accel: args.accel,
        })
        .collect();
    let settings = CrowdSettings {
        time_step: args.dt,
        threads: args.threads,
        ..CrowdSettings::default()
    };
    let mut crowd = Crowd::on_map(instance.grid(), &units, settings)
        .with_context(|| format!("{}", args.map.display()))?;
    let measures = match &args.trace {
        Some(path) => {
            let mut measured = None;
            save::write_atomically_with(path, save::Backup::Discard, |out| {
                writeln!(out, "step,time,agent,x,y")?;
                measured = Some(simulate(&mut crowd, args.max_time, Some(out))?);
                Ok(())
            })?;
            measured.context("the simulation did not run")?
        }
        None => simulate(&mut crowd, args.max_time, None)?,
    };
    report(args, &crowd, &measures)?;
    let all = measures.arrived.iter().all(Option::is_some);
    Ok(if all {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_NEGATIVE)
    })
}

fn read(args: &CrowdArgs) -> anyhow::Result<Instance> {
    if let Some(k) = args.random {
        let grid = gridpath::format::load_map(&args.map)?.grid;
        return random_instance(grid, k as usize, Moves::Four, args.seed)
            .with_context(|| format!("{}", args.map.display()));
    }
    let Some(scen) = &args.scen else {
        bail!("a scenario file or --random K is needed");
    };
    let k = args
        .agents
        .context("--agents K is needed with a scenario")?;
    Ok(read_instance(&args.map, scen, k as usize, Moves::Four)?)
}

/// Runs until every unit has arrived or `max_time` has passed, writing the trace if asked.
fn simulate(
    crowd: &mut Crowd,
    max_time: f64,
    mut trace: Option<&mut dyn io::Write>,
) -> io::Result<Measures> {
    let mut least_gap = f64::INFINITY;
    let mut deepest_wall: f64 = 0.0;
    let mut guarded = 0;
    let mut stepping = 0.0;
    let mut seen = Vec::new();
    let mut measure = |crowd: &Crowd, trace: &mut Option<&mut dyn io::Write>| -> io::Result<()> {
        let units = crowd.units();
        if let Some(out) = trace {
            for (i, unit) in units.iter().enumerate() {
                let p = unit.position;
                writeln!(
                    out,
                    "{},{:.3},{i},{:.6},{:.6}",
                    crowd.steps(),
                    crowd.time(),
                    p.x,
                    p.y
                )?;
            }
        }
        for unit in units {
            let r = unit.spec.radius;
            let room = crowd.walls().distance(unit.position, r, &mut seen);
            deepest_wall = deepest_wall.max((r - room) / r);
        }
        least_gap = least_gap.min(crowd.least_separation());
        Ok(())
    };
    measure(crowd, &mut trace)?;
    while !crowd.all_arrived() && crowd.time() < max_time {
        let started = Instant::now();
        guarded += crowd.step().guarded;
        stepping += started.elapsed().as_secs_f64();
        measure(crowd, &mut trace)?;
    }
    Ok(Measures {
        arrived: crowd.units().iter().map(|u| u.arrived_at).collect(),
        least_gap,
        deepest_wall,
        ms_per_step: 1000.0 * stepping / crowd.steps().max(1) as f64,
        guarded,
    })
}

fn report(args: &CrowdArgs, crowd: &Crowd, m: &Measures) -> anyhow::Result<()> {
    let arrived = m.arrived.iter().flatten().count();
    let last = m.arrived.iter().flatten().copied().fold(0.0, f64::max);
    let gap = m.least_gap.is_finite().then_some(m.least_gap);
    if args.json {
        let value = json!({
            "units": m.arrived.len(),
            "arrived": arrived,
            "all_arrived": arrived == m.arrived.len(),
            "time": crowd.time(),
            "steps": crowd.steps(),
            "arrival_times": m.arrived,
            "last_arrival": (arrived > 0).then_some(last),
            "least_centre_distance_over_radii": gap,
            "deepest_wall_penetration": m.deepest_wall.max(0.0),
            "ms_per_step": m.ms_per_step,
            "guarded_moves": m.guarded,
            "radius": args.radius,
            "speed": args.speed,
            "dt": args.dt,
        });
        out!("{}", serde_json::to_string_pretty(&value)?);
        return Ok(());
    }
    out!(
        "{arrived} of {} units arrived in {:.1} s ({} steps of {} s)",
        m.arrived.len(),
        crowd.time(),
        crowd.steps(),
        args.dt
    );
    if arrived > 0 {
        out!("last arrival: {last:.1} s");
    }
    let waiting: Vec<usize> = (0..m.arrived.len())
        .filter(|&i| m.arrived[i].is_none())
        .collect();
    for &i in waiting.iter().take(5) {
        let unit = &crowd.units()[i];
        let (p, g) = (unit.position, unit.spec.goal);
        let t = unit.route.target();
        out!(
            "not arrived: unit {i} at ({:.2}, {:.2}) heading for ({:.2}, {:.2}), {:.2} from \
             its goal ({:.2}, {:.2})",
            p.x,
            p.y,
            t.x,
            t.y,
            p.distance(g),
            g.x,
            g.y
        );
    }
    if waiting.len() > 5 {
        out!("... and {} more not arrived", waiting.len() - 5);
    }
    match gap {
        Some(gap) => out!("least centre distance: {gap:.3} × the radii sum"),
        None => out!("least centre distance: one unit alone"),
    }
    out!(
        "deepest wall penetration: {:.3} × the radius",
        m.deepest_wall.max(0.0)
    );
    out!(
        "{:.3} ms per step; {} moves cut short by the guard",
        m.ms_per_step,
        m.guarded
    );
    if let Some(trace) = &args.trace {
        out!("trace: {}", trace.display());
    }
    Ok(())
}
