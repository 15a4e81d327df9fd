//! Units in motion: RVO2's Circle example — N units on a circle of radius 200·N/250 (radius
//! 1.5, top speed 2, neighbour distance 15, 10 neighbours, time horizon 10, step 0.25 s), each
//! sent to the antipodal point — with the reference library's own program run beside it when it
//! is there (`../shared/anchors/rvo2-circle`, or `RVO2_CIRCLE`).
//!
//! For each N: milliseconds of wall time per step (mean over the run), the time until every
//! unit has arrived (within its radius of its goal, RVO2's rule) over the straight-line time
//! (diameter ÷ top speed), and the smallest centre distance over the radii sum, recomputed
//! from the positions after every step. `MOTION_BENCH_N=250,1000` picks the sizes (default
//! 250, 1000, 5000, 10000).
//!
//! Then the warehouse: the first `MOTION_BENCH_WAREHOUSE` (default 500) agents of
//! warehouse-20-40-10-2-2's scenario in `../shared/movingai/mapf` as units of radius 0.4 cells
//! and top speed 1.5 cells/s: how many arrive and when, the least gap, the deepest a disc
//! reaches into a wall, and the CPU time per step on one thread.

#![allow(clippy::unwrap_used, clippy::expect_used)] // A benchmark fails loudly.

use std::f64::consts::TAU;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use gridpath::mapf::{Moves, read_instance};
use gridpath::motion::{Crowd, CrowdSettings, UnitSpec, Vec2};

/// RVO2's Circle units and settings for `n` units.
pub fn circle(n: usize) -> (Vec<UnitSpec>, CrowdSettings, f64) {
    let radius = 200.0 * n as f64 / 250.0;
    let units = (0..n)
        .map(|i| {
            let angle = i as f64 * TAU / n as f64;
            let start = Vec2::new(radius * angle.cos(), radius * angle.sin());
            UnitSpec {
                start,
                goal: -start,
                radius: 1.5,
                max_speed: 2.0,
                max_accel: f64::INFINITY,
            }
        })
        .collect();
    let settings = CrowdSettings {
        time_step: 0.25,
        time_horizon: 10.0,
        wall_horizon: 10.0,
        neighbour_distance: 15.0,
        max_neighbours: 10,
        arrival: 1.0,
        threads: 0,
    };
    (units, settings, 2.0 * radius / 2.0)
}

/// This thread's CPU time, in seconds: what a step costs on one core, whatever else the
/// machine runs.
fn thread_cpu() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given and nothing else.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

fn anchor() -> Option<PathBuf> {
    let path = std::env::var_os("RVO2_CIRCLE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("../shared/anchors/rvo2-circle"));
    path.is_file().then_some(path)
}

fn main() {
    let sizes: Vec<usize> = std::env::var("MOTION_BENCH_N")
        .ok()
        .map(|v| v.split(',').filter_map(|s| s.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![250, 1000, 5000, 10000]);
    let anchor = anchor();
    println!(
        "Circle (RVO2's example): one thread (CPU time per step), then every core (wall time)"
    );
    println!(
        "{:>6}  {:>12} {:>12} {:>10} {:>9} {:>8}",
        "units", "cpu ms/step", "wall ms/step", "arrival×", "min gap", "guarded"
    );
    for n in sizes {
        let (units, settings, ideal) = circle(n);
        let mut one = Crowd::open(
            &units,
            CrowdSettings {
                threads: 1,
                ..settings
            },
        )
        .expect("valid");
        let mut cpu = 0.0;
        while !one.all_arrived() && one.time() < 20.0 * ideal {
            let t = thread_cpu();
            one.step();
            cpu += thread_cpu() - t;
        }
        let cpu_ms = 1000.0 * cpu / one.steps() as f64;
        let mut crowd = Crowd::open(&units, settings).expect("valid units");
        let mut gap = f64::INFINITY;
        let mut guarded = 0usize;
        let mut stepping = 0.0;
        while !crowd.all_arrived() && crowd.time() < 20.0 * ideal {
            let t = Instant::now();
            guarded += crowd.step().guarded;
            stepping += t.elapsed().as_secs_f64();
            gap = gap.min(crowd.least_separation());
        }
        assert_eq!(
            one.units()[n - 1].position,
            crowd.units()[n - 1].position,
            "one thread and every core moved the units the same"
        );
        let ms = 1000.0 * stepping / crowd.steps() as f64;
        let arrival = if crowd.all_arrived() {
            format!("{:.2}", crowd.time() / ideal)
        } else {
            format!(">{:.0}", crowd.time() / ideal)
        };
        println!("{n:>6}  {cpu_ms:>12.3} {ms:>12.3} {arrival:>10} {gap:>9.4} {guarded:>8}");
        if let Some(anchor) = &anchor {
            let output = Command::new(anchor).arg(n.to_string()).output();
            match output {
                Ok(out) => {
                    let text = String::from_utf8_lossy(&out.stdout);
                    for line in text.lines().take(2) {
                        println!("        RVO2: {}", line.trim());
                    }
                }
                Err(e) => println!("        RVO2: could not run {}: {e}", anchor.display()),
            }
        }
    }
    warehouse();
    doorway();
}

/// Two rooms of 20 × 20 cells joined by a door one cell wide in the wall between them; 100
/// units in each room go to the mirror of their place in the other room.
fn doorway() {
    let (side, units_per_side) = (20usize, 100usize);
    let width = 2 * side + 1;
    let mut rows: Vec<String> = Vec::new();
    for y in 0..side {
        let mut row = String::new();
        for x in 0..width {
            row.push(if x == side && y != side / 2 { '#' } else { '.' });
        }
        rows.push(row);
    }
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let grid = gridpath::grid::Grid::from_ascii(&refs).expect("a valid map");
    let mut units = Vec::new();
    for k in 0..units_per_side {
        let (x, y) = (2 + (k % 10) as u32, 5 + (k / 10) as u32);
        let left = Vec2::new(f64::from(x) + 0.5, f64::from(y) + 0.5);
        let right = Vec2::new((width as u32 - 1 - x) as f64 + 0.5, f64::from(y) + 0.5);
        units.push(UnitSpec::new(left, right));
        units.push(UnitSpec::new(right, left));
    }
    let settings = CrowdSettings {
        threads: 1,
        ..CrowdSettings::default()
    };
    let mut crowd = Crowd::on_map(&grid, &units, settings).expect("valid units");
    // The door passes one unit at a time, one diameter apart: 200 units need at least
    // 200 · 2r / v, and the farthest unit its own way.
    let speed = units[0].max_speed;
    let through = units.len() as f64 * 2.0 * units[0].radius / speed;
    let farthest = units
        .iter()
        .map(|u| u.start.distance(u.goal) / speed)
        .fold(0.0, f64::max);
    let bound = through.max(farthest);
    let mut gap = f64::INFINITY;
    while !crowd.all_arrived() && crowd.time() < 20.0 * bound {
        crowd.step();
        gap = gap.min(crowd.least_separation());
    }
    let arrived = crowd
        .units()
        .iter()
        .filter(|u| u.arrived_at.is_some())
        .count();
    let last = crowd
        .units()
        .iter()
        .filter_map(|u| u.arrived_at)
        .fold(0.0, f64::max);
    println!(
        "\ndoorway one cell wide, {} units each way: {arrived} of {} arrived, the last after \
         {last:.1} s ({:.2}× the lower bound of {bound:.1} s); least gap {gap:.4}",
        units_per_side,
        units.len(),
        last / bound
    );
}

fn warehouse() {
    let dir = PathBuf::from("../shared/movingai/mapf");
    let (map, scen) = (
        dir.join("warehouse-20-40-10-2-2.map"),
        dir.join("warehouse-20-40-10-2-2-10000agents-1.scen"),
    );
    if !map.is_file() || !scen.is_file() {
        println!("\nwarehouse: skipped, {} is not there", map.display());
        return;
    }
    let k: usize = std::env::var("MOTION_BENCH_WAREHOUSE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500);
    let instance = read_instance(&map, &scen, k, Moves::Four).expect("the benchmark's instance");
    let topology = instance.grid().topology();
    let centre = |c| {
        let (x, y) = topology.centre(c);
        Vec2::new(x, y)
    };
    let units: Vec<UnitSpec> = instance
        .agents()
        .iter()
        .map(|a| UnitSpec::new(centre(a.start), centre(a.goal)))
        .collect();
    let settings = CrowdSettings {
        threads: 1,
        ..CrowdSettings::default()
    };
    let mut crowd = Crowd::on_map(instance.grid(), &units, settings).expect("valid units");
    let (mut cpu, mut gap, mut deepest) = (0.0, f64::INFINITY, 0.0f64);
    let mut seen = Vec::new();
    while !crowd.all_arrived() && crowd.time() < 2000.0 {
        let t = thread_cpu();
        crowd.step();
        cpu += thread_cpu() - t;
        gap = gap.min(crowd.least_separation());
        for unit in crowd.units() {
            let r = unit.spec.radius;
            let room = crowd.walls().distance(unit.position, r, &mut seen);
            deepest = deepest.max((r - room) / r);
        }
    }
    let arrived = crowd
        .units()
        .iter()
        .filter(|u| u.arrived_at.is_some())
        .count();
    println!(
        "\nwarehouse-20-40-10-2-2, {k} units of radius 0.4: {arrived} arrived, the last after \
         {:.1} s; least gap {gap:.4}; deepest into a wall {deepest:.4}; {:.3} ms/step (CPU, one \
         thread)",
        crowd.time(),
        1000.0 * cpu / crowd.steps() as f64
    );
}
