//! The crowd checked from its output alone: an independent validator recomputes, from the
//! positions after every step and the map, that no two discs ever come nearer than their
//! radii sum (over the whole straight move between two steps, not just at its ends), that no
//! disc ever enters a wall cell or leaves the map, and that every unit ends on its goal.

use super::*;
use crate::grid::{Cell, Grid, HexLayout, Topology};

/// Positions after each step (the start first), per unit.
type Trace = Vec<Vec<(f64, f64)>>;

fn run(crowd: &mut Crowd, max_time: f64) -> Trace {
    let mut trace = vec![positions(crowd)];
    while !crowd.all_arrived() && crowd.time() < max_time {
        crowd.step();
        trace.push(positions(crowd));
    }
    // A while longer: arrived units must come to rest on their goals and stay put.
    for _ in 0..80 {
        crowd.step();
        trace.push(positions(crowd));
    }
    trace
}

fn positions(crowd: &Crowd) -> Vec<(f64, f64)> {
    crowd
        .units()
        .iter()
        .map(|u| (u.position.x, u.position.y))
        .collect()
}

/// The least distance between two points moving in straight lines over one step, written
/// out again here (not the engine's).
fn least_distance(a0: (f64, f64), a1: (f64, f64), b0: (f64, f64), b1: (f64, f64)) -> f64 {
    let (px, py) = (b0.0 - a0.0, b0.1 - a0.1);
    let (vx, vy) = ((b1.0 - b0.0) - (a1.0 - a0.0), (b1.1 - b0.1) - (a1.1 - a0.1));
    let vv = vx * vx + vy * vy;
    let mut best = px.hypot(py);
    if vv > 0.0 {
        let t = (-(px * vx + py * vy) / vv).clamp(0.0, 1.0);
        best = best.min((px + vx * t).hypot(py + vy * t));
    }
    best
}

/// Distance from a point to the square of cell (x, y).
fn to_square(p: (f64, f64), x: i64, y: i64) -> f64 {
    let dx = (x as f64 - p.0).max(p.0 - (x as f64 + 1.0)).max(0.0);
    let dy = (y as f64 - p.1).max(p.1 - (y as f64 + 1.0)).max(0.0);
    dx.hypot(dy)
}

/// The wall a disc at `p` of radius `r` penetrates deepest, as a fraction of `r` (0: none).
fn wall_penetration(grid: &Grid, p: (f64, f64), r: f64) -> f64 {
    let blocked =
        |x: i64, y: i64| !grid.contains(x, y) || !grid.is_passable(Cell::new(x as u32, y as u32));
    match grid.topology() {
        Topology::Square => {
            let mut nearest = f64::INFINITY;
            let reach = r.ceil() as i64 + 1;
            let (cx, cy) = (p.0.floor() as i64, p.1.floor() as i64);
            for y in cy - reach..=cy + reach {
                for x in cx - reach..=cx + reach {
                    if blocked(x, y) {
                        nearest = nearest.min(to_square(p, x, y));
                    }
                }
            }
            ((r - nearest) / r).max(0.0)
        }
        Topology::Hex(_) => {
            // The disc's rim and inside, sampled: no sample may lie in a blocked hex.
            let mut deepest: f64 = 0.0;
            for ring in 1..=8 {
                let rho = r * f64::from(ring) / 8.0;
                for k in 0..64 {
                    let angle = f64::from(k) * std::f64::consts::TAU / 64.0;
                    let (x, y) = (p.0 + rho * angle.cos(), p.1 + rho * angle.sin());
                    let (hx, hy) = grid.topology().cell_at(x, y);
                    if blocked(hx, hy) {
                        deepest = deepest.max((r - rho) / r + 1.0 / 8.0);
                    }
                }
            }
            deepest
        }
    }
}

struct Verdict {
    least_gap: f64,
    deepest_wall: f64,
    all_on_goal: bool,
    jitter: f64,
}

fn validate(grid: Option<&Grid>, units: &[UnitSpec], trace: &Trace) -> Verdict {
    let mut least_gap = f64::INFINITY;
    let mut deepest_wall: f64 = 0.0;
    for pair in trace.windows(2) {
        let (before, after) = (&pair[0], &pair[1]);
        for i in 0..units.len() {
            for j in i + 1..units.len() {
                let d = least_distance(before[i], after[i], before[j], after[j]);
                least_gap = least_gap.min(d / (units[i].radius + units[j].radius));
            }
            if let Some(grid) = grid {
                // Along the move, every tenth of the way.
                for k in 0..=10 {
                    let t = f64::from(k) / 10.0;
                    let p = (
                        before[i].0 + (after[i].0 - before[i].0) * t,
                        before[i].1 + (after[i].1 - before[i].1) * t,
                    );
                    deepest_wall = deepest_wall.max(wall_penetration(grid, p, units[i].radius));
                }
            }
        }
    }
    let last = trace.last().expect("a trace");
    let all_on_goal = units
        .iter()
        .zip(last)
        .all(|(u, p)| (p.0 - u.goal.x).hypot(p.1 - u.goal.y) <= 0.25 * u.radius + 1e-9);
    // Over the last 20 steps: how far any unit moved.
    let tail = &trace[trace.len() - 21..];
    let jitter = (0..units.len())
        .map(|i| {
            tail.windows(2)
                .map(|w| (w[1][i].0 - w[0][i].0).hypot(w[1][i].1 - w[0][i].1))
                .sum::<f64>()
        })
        .fold(0.0, f64::max);
    Verdict {
        least_gap,
        deepest_wall,
        all_on_goal,
        jitter,
    }
}

fn centre(grid: &Grid, x: u32, y: u32) -> Vec2 {
    let (cx, cy) = grid.topology().centre(Cell::new(x, y));
    Vec2::new(cx, cy)
}

fn assert_sound(grid: Option<&Grid>, units: &[UnitSpec], crowd: &mut Crowd, max_time: f64) {
    let trace = run(crowd, max_time);
    let verdict = validate(grid, units, &trace);
    assert!(
        crowd.all_arrived(),
        "not all arrived by {} s: {:?}",
        crowd.time(),
        crowd
            .units()
            .iter()
            .filter(|u| u.arrived_at.is_none())
            .map(|u| (
                u.position,
                u.spec.goal,
                u.velocity,
                u.route.next,
                u.route.points.len()
            ))
            .collect::<Vec<_>>()
    );
    assert!(
        verdict.least_gap >= 1.0 - 1e-6,
        "discs overlapped: {}",
        verdict.least_gap
    );
    assert!(
        verdict.deepest_wall == 0.0,
        "a disc entered a wall: {}",
        verdict.deepest_wall
    );
    assert!(verdict.all_on_goal, "a unit ended off its goal");
    assert!(
        verdict.jitter < 1e-6,
        "units jitter on their goals: {}",
        verdict.jitter
    );
}

#[test]
fn two_units_swap_round_a_pillar_without_touching_it_or_each_other() {
    let grid = Grid::from_ascii(&[".....", ".###.", "....."]).expect("valid map");
    let units = [
        UnitSpec::new(centre(&grid, 0, 0), centre(&grid, 4, 2)),
        UnitSpec::new(centre(&grid, 4, 2), centre(&grid, 0, 0)),
    ];
    let mut crowd = Crowd::on_map(&grid, &units, CrowdSettings::default()).expect("valid");
    assert_sound(Some(&grid), &units, &mut crowd, 60.0);
}

#[test]
fn a_room_of_units_crossing_each_other_arrives_apart() {
    let rows = [
        "....................",
        "....................",
        "....##........##....",
        "....##........##....",
        "....................",
        "........####........",
        "........####........",
        "....................",
        "....##........##....",
        "....##........##....",
        "....................",
        "....................",
    ];
    let grid = Grid::from_ascii(&rows).expect("valid map");
    // Twelve units down the left side go to the right side, mirrored, and back.
    let mut units = Vec::new();
    for k in 0..6 {
        let y = 1 + 2 * k as u32 - u32::from(k >= 3);
        units.push(UnitSpec::new(
            centre(&grid, 0, y),
            centre(&grid, 19, 11 - y),
        ));
        units.push(UnitSpec::new(
            centre(&grid, 19, y),
            centre(&grid, 0, 11 - y),
        ));
    }
    let mut crowd = Crowd::on_map(&grid, &units, CrowdSettings::default()).expect("valid");
    assert_sound(Some(&grid), &units, &mut crowd, 120.0);
}

#[test]
fn units_on_hexes_avoid_the_hex_walls() {
    let rows = [
        "..........",
        "..........",
        "...##.....",
        "...##..#..",
        ".......#..",
        "..........",
        "..........",
    ];
    for layout in [HexLayout::ODD_R, HexLayout::ODD_Q] {
        let grid = Grid::from_ascii(&rows)
            .expect("valid map")
            .with_topology(Topology::Hex(layout));
        let units = [
            UnitSpec::new(centre(&grid, 0, 0), centre(&grid, 9, 6)),
            UnitSpec::new(centre(&grid, 9, 6), centre(&grid, 0, 0)),
            UnitSpec::new(centre(&grid, 0, 6), centre(&grid, 9, 0)),
            UnitSpec::new(centre(&grid, 9, 0), centre(&grid, 0, 6)),
        ];
        let mut crowd = Crowd::on_map(&grid, &units, CrowdSettings::default()).expect("valid");
        assert_sound(Some(&grid), &units, &mut crowd, 120.0);
    }
}

fn circle(n: usize, radius: f64) -> Vec<UnitSpec> {
    (0..n)
        .map(|i| {
            let angle = i as f64 * std::f64::consts::TAU / n as f64;
            let start = Vec2::new(radius * angle.cos(), radius * angle.sin());
            UnitSpec {
                start,
                goal: -start,
                radius: 0.5,
                max_speed: 1.0,
                max_accel: 4.0,
            }
        })
        .collect()
}

#[test]
fn a_circle_swapping_to_antipodes_never_overlaps_and_all_arrive() {
    let units = circle(40, 12.0);
    let mut crowd = Crowd::open(&units, CrowdSettings::default()).expect("valid");
    // The straight line takes 24 s.
    assert_sound(None, &units, &mut crowd, 24.0 * 4.0);
}

#[test]
fn the_guard_keeps_discs_apart_when_the_avoidance_sees_too_few_neighbours() {
    // Each unit avoids only its single nearest neighbour: the avoidance alone lets discs
    // meet; the guard must not.
    let units = circle(24, 6.0);
    let settings = CrowdSettings {
        max_neighbours: 1,
        ..CrowdSettings::default()
    };
    let mut crowd = Crowd::open(&units, settings).expect("valid");
    let trace = run(&mut crowd, 60.0);
    let verdict = validate(None, &units, &trace);
    assert!(verdict.least_gap >= 1.0 - 1e-6, "{}", verdict.least_gap);
}

#[test]
fn the_same_crowd_moves_the_same_on_one_thread_or_two() {
    let units = circle(300, 60.0);
    let settings = |threads| CrowdSettings {
        threads,
        ..CrowdSettings::default()
    };
    let mut one = Crowd::open(&units, settings(1)).expect("valid");
    let mut two = Crowd::open(&units, settings(2)).expect("valid");
    for _ in 0..50 {
        one.step();
        two.step();
    }
    assert_eq!(positions(&one), positions(&two));
}

#[test]
fn bad_units_are_refused_with_the_unit_and_the_place() {
    let grid = Grid::from_ascii(&["...#.", "...#.", "...#."]).expect("valid map");
    let wall = Crowd::on_map(
        &grid,
        &[UnitSpec::new(centre(&grid, 3, 1), centre(&grid, 0, 0))],
        CrowdSettings::default(),
    );
    assert!(
        matches!(
            wall,
            Err(MotionError::NotOnMap {
                unit: 0,
                what: "start",
                ..
            })
        ),
        "{wall:?}"
    );
    let cut_off = Crowd::on_map(
        &grid,
        &[UnitSpec::new(centre(&grid, 0, 0), centre(&grid, 4, 1))],
        CrowdSettings::default(),
    );
    assert!(
        matches!(cut_off, Err(MotionError::NoRoute { unit: 0, .. })),
        "{cut_off:?}"
    );
    let mut wide = UnitSpec::new(centre(&grid, 0, 1), centre(&grid, 1, 1));
    wide.radius = 0.7;
    let near = Crowd::on_map(&grid, &[wide], CrowdSettings::default());
    let message = near.expect_err("too wide").to_string();
    assert!(message.contains("unit 0's start (0.50, 1.50)"), "{message}");
    let mut slow = wide;
    slow.max_speed = 0.0;
    assert!(matches!(
        Crowd::open(&[slow], CrowdSettings::default()),
        Err(MotionError::Unit { unit: 0, .. })
    ));
}
