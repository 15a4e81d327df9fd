//! A crowd of units moving at once, a fixed time step at a time.
//!
//! Each step, every unit (on all the cores when there are many):
//!
//! 1. takes its **preferred velocity** from its guidance — towards its route's next waypoint at
//!    its top speed, slowing on the last leg so that it stops on its goal without overshoot;
//! 2. finds its nearest neighbours and the walls within reach and picks the velocity nearest
//!    the preferred one that keeps clear of them over the time horizons (ORCA, [`orca`]);
//!    within its acceleration.
//!
//! Then a **guard** checks every unit's straight move of this step against the walls and every
//! pair's moves against each other, exactly (the least distance over the whole step, not just at
//! its ends): a move that would bring a disc nearer a wall than its radius, or two discs nearer
//! than the sum of their radii (nearer than they already are, if they start closer), is cut
//! short, down to standing still. Standing still is always allowed, so the guard always
//! succeeds, and discs never overlap and never enter a wall — the avoidance makes the motion
//! smooth, the guard makes it safe. Steps are deterministic: the result does not depend on
//! the number of threads.
//!
//! [`orca`]: super::orca

use std::num::NonZero;

use super::MotionError;
use super::guidance::{MapGuide, Route};
use super::neighbours::NeighbourIndex;
use super::orca::{self, Line};
use super::vector::{Vec2, closest_approach, closest_on_segment, segment_distance};
use super::walls::Walls;
use crate::grid::Grid;

/// Below this many units a step runs on one thread.
const PARALLEL_FROM: usize = 256;
/// How many times in a row the guard halves the moves of units that still clash before it
/// stops them.
const GUARD_HALVINGS: usize = 6;
/// The avoidance keeps this fraction of a radius more than the guard demands, so that the
/// guard seldom has to act.
const MARGIN: f64 = 0.01;
/// How slowly a unit's `held` follows how much it is held back (per step).
const HELD_MEMORY: f64 = 0.95;
/// The most a held unit turns its wish to its right, in radians.
const MAX_SIDE_TURN: f64 = 0.6;
/// Every this many steps a unit checks that it still sees its waypoint (staggered by unit).
const SIGHT_EVERY: u64 = 8;

/// One unit: a disc with a top speed and an acceleration, from a start to a goal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UnitSpec {
    /// Where it starts, in the world frame (cell widths).
    pub start: Vec2,
    /// Where it is sent.
    pub goal: Vec2,
    /// Its radius.
    pub radius: f64,
    /// Its top speed, in cell widths per second.
    pub max_speed: f64,
    /// Its greatest change of velocity per second (infinite: it turns and stops at once).
    pub max_accel: f64,
}

impl UnitSpec {
    /// A unit of radius 0.4 at a speed of 1.5 cells per second and an acceleration of 4.
    pub fn new(start: Vec2, goal: Vec2) -> UnitSpec {
        UnitSpec {
            start,
            goal,
            radius: 0.4,
            max_speed: 1.5,
            max_accel: 4.0,
        }
    }
}

/// How a crowd steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrowdSettings {
    /// The time step, in seconds.
    pub time_step: f64,
    /// How far ahead units avoid each other, in seconds.
    pub time_horizon: f64,
    /// How far ahead units avoid walls, in seconds.
    pub wall_horizon: f64,
    /// How far a unit looks for neighbours (0: from the units' speeds and the horizon).
    pub neighbour_distance: f64,
    /// How many of the nearest neighbours a unit avoids.
    pub max_neighbours: usize,
    /// How near its goal a unit counts as arrived, as a fraction of its radius.
    pub arrival: f64,
    /// Threads to use (0: every core).
    pub threads: usize,
}

impl Default for CrowdSettings {
    fn default() -> Self {
        CrowdSettings {
            time_step: 0.1,
            time_horizon: 2.0,
            wall_horizon: 0.5,
            neighbour_distance: 0.0,
            max_neighbours: 10,
            arrival: 0.25,
            threads: 0,
        }
    }
}

/// A unit's state.
#[derive(Clone, Debug, PartialEq)]
pub struct Unit {
    /// What it is.
    pub spec: UnitSpec,
    /// Where it is.
    pub position: Vec2,
    /// How it moves.
    pub velocity: Vec2,
    /// Where it heads.
    pub route: Route,
    /// When it first reached its goal, in seconds.
    pub arrived_at: Option<f64>,
    /// How much it has lately been held back from its preferred velocity, from 0 (not at all)
    /// to 1 (standing): the more, the more it steers to its right to find a way past.
    pub held: f64,
}

/// What one step did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepReport {
    /// Units whose move the guard cut short.
    pub guarded: usize,
    /// Units that arrived in this step.
    pub arrived: usize,
}

/// Units moving together over a map (or the open plane).
#[derive(Clone, Debug)]
pub struct Crowd {
    units: Vec<Unit>,
    settings: CrowdSettings,
    guide: Option<MapGuide>,
    walls: Walls,
    index: NeighbourIndex,
    /// The same positions in buckets of the guard's reach.
    near_index: NeighbourIndex,
    /// The units' positions at the start of the step, as the index holds them.
    positions: Vec<Vec2>,
    neighbour_distance: f64,
    /// The farthest two units can be apart and still meet within a step.
    guard_reach: f64,
    steps: u64,
    threads: usize,
}

impl Crowd {
    /// Units on the open plane, with no walls: each goes straight to its goal.
    pub fn open(specs: &[UnitSpec], settings: CrowdSettings) -> Result<Crowd, MotionError> {
        check_specs(specs, &settings)?;
        let units = specs
            .iter()
            .map(|&spec| Unit {
                spec,
                position: spec.start,
                velocity: Vec2::ZERO,
                route: Route::straight(spec.start, spec.goal),
                arrived_at: None,
                held: 0.0,
            })
            .collect();
        Ok(Crowd::with_units(units, settings, None, Walls::none()))
    }

    /// Units on `grid`: each follows a route found by a grid search, and avoids the walls.
    /// Fails on a unit that starts in a wall or whose goal it cannot reach.
    pub fn on_map(
        grid: &Grid,
        specs: &[UnitSpec],
        settings: CrowdSettings,
    ) -> Result<Crowd, MotionError> {
        check_specs(specs, &settings)?;
        let guide = MapGuide::new(grid);
        let walls = guide.walls().clone();
        let mut seen = Vec::new();
        for (unit, spec) in specs.iter().enumerate() {
            for (what, p) in [("start", spec.start), ("goal", spec.goal)] {
                let inside = guide.cell_of(p).is_some_and(|c| grid.is_passable(c));
                if !inside {
                    return Err(MotionError::NotOnMap {
                        unit,
                        what,
                        at: (p.x, p.y),
                    });
                }
                let room = walls.distance(p, spec.radius, &mut seen);
                if room < spec.radius - 1e-9 {
                    return Err(MotionError::TooNearWall {
                        unit,
                        what,
                        at: (p.x, p.y),
                        room,
                        radius: spec.radius,
                    });
                }
            }
        }
        let starts: Vec<Vec2> = specs.iter().map(|s| s.start).collect();
        let goals: Vec<Vec2> = specs.iter().map(|s| s.goal).collect();
        let radii: Vec<f64> = specs.iter().map(|s| s.radius).collect();
        let threads = thread_count(settings.threads);
        let routes = guide.routes(&starts, &goals, &radii, threads);
        let mut units = Vec::with_capacity(specs.len());
        for (unit, (spec, route)) in specs.iter().zip(routes).enumerate() {
            let Some(route) = route else {
                return Err(MotionError::NoRoute {
                    unit,
                    from: (spec.start.x, spec.start.y),
                    to: (spec.goal.x, spec.goal.y),
                });
            };
            units.push(Unit {
                spec: *spec,
                position: spec.start,
                velocity: Vec2::ZERO,
                route,
                arrived_at: None,
                held: 0.0,
            });
        }
        Ok(Crowd::with_units(units, settings, Some(guide), walls))
    }

    fn with_units(
        units: Vec<Unit>,
        settings: CrowdSettings,
        guide: Option<MapGuide>,
        walls: Walls,
    ) -> Crowd {
        let fastest = units.iter().map(|u| u.spec.max_speed).fold(0.0, f64::max);
        let widest = units.iter().map(|u| u.spec.radius).fold(0.0, f64::max);
        let neighbour_distance = if settings.neighbour_distance > 0.0 {
            settings.neighbour_distance
        } else {
            fastest * settings.time_horizon + 2.0 * widest
        };
        let mut crowd = Crowd {
            units,
            settings,
            guide,
            walls,
            index: NeighbourIndex::default(),
            near_index: NeighbourIndex::default(),
            positions: Vec::new(),
            neighbour_distance,
            guard_reach: 2.0 * (widest + fastest * settings.time_step),
            steps: 0,
            threads: thread_count(settings.threads),
        };
        let now = 0.0;
        for unit in &mut crowd.units {
            mark_arrival(unit, now, settings.arrival);
        }
        crowd
    }

    /// The units.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// The walls the units avoid.
    pub fn walls(&self) -> &Walls {
        &self.walls
    }

    /// The settings.
    pub fn settings(&self) -> &CrowdSettings {
        &self.settings
    }

    /// The time since the start, in seconds.
    pub fn time(&self) -> f64 {
        self.steps as f64 * self.settings.time_step
    }

    /// Steps taken.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Whether every unit has reached its goal.
    pub fn all_arrived(&self) -> bool {
        self.units.iter().all(|u| u.arrived_at.is_some())
    }

    /// The least centre distance of any two units now, over the sum of their radii (1 or
    /// more: no two discs overlap; infinite for fewer than two units), found by a sweep along
    /// x that shares nothing with the guard.
    pub fn least_separation(&self) -> f64 {
        let units = &self.units;
        let mut order: Vec<usize> = (0..units.len()).collect();
        order.sort_by(|&a, &b| units[a].position.x.total_cmp(&units[b].position.x));
        let widest = units.iter().map(|u| u.spec.radius).fold(0.0, f64::max);
        let mut best = f64::INFINITY;
        for (k, &i) in order.iter().enumerate() {
            for &j in &order[k + 1..] {
                let (a, b) = (&units[i], &units[j]);
                // Beyond twice the widest diameter the ratio is above 2: not the least.
                if b.position.x - a.position.x > 4.0 * widest {
                    break;
                }
                let ratio = a.position.distance(b.position) / (a.spec.radius + b.spec.radius);
                best = best.min(ratio);
            }
        }
        best
    }

    /// Moves every unit one time step.
    pub fn step(&mut self) -> StepReport {
        let dt = self.settings.time_step;
        self.positions.clear();
        self.positions.extend(self.units.iter().map(|u| u.position));
        let bucket = self.guard_reach.max(0.5 * self.neighbour_distance);
        self.index.rebuild(&self.positions, bucket);
        self.near_index.rebuild(&self.positions, self.guard_reach);
        self.refresh_routes();
        let mut velocities = vec![Vec2::ZERO; self.units.len()];
        let chunk = self.units.len().div_ceil(self.threads).max(1);
        let this = &*self;
        if self.threads > 1 && self.units.len() >= PARALLEL_FROM {
            std::thread::scope(|scope| {
                for (k, out) in velocities.chunks_mut(chunk).enumerate() {
                    scope.spawn(move || this.avoid_all(k * chunk, out));
                }
            });
        } else {
            this.avoid_all(0, &mut velocities);
        }
        let guarded = self.guard(&mut velocities, dt);
        let now = self.time() + dt;
        let mut arrived = 0;
        for (unit, v) in self.units.iter_mut().zip(velocities) {
            let to = unit.route.target() - unit.position;
            let far = !unit.route.on_last_leg() || to.length() > 3.0 * unit.spec.radius;
            unit.held = if far {
                let progress = v.dot(to.normalized()) / unit.spec.max_speed;
                HELD_MEMORY * unit.held + (1.0 - HELD_MEMORY) * (1.0 - progress).clamp(0.0, 1.0)
            } else {
                unit.held * HELD_MEMORY
            };
            unit.velocity = v;
            unit.position += v * dt;
            if unit.arrived_at.is_none() {
                mark_arrival(unit, now, self.settings.arrival);
                arrived += usize::from(unit.arrived_at.is_some());
            }
        }
        self.steps += 1;
        StepReport { guarded, arrived }
    }

    /// Moves routes on past waypoints reached or in sight, and plans again for units that lost
    /// sight of theirs.
    fn refresh_routes(&mut self) {
        let Some(guide) = &self.guide else {
            return;
        };
        let step = self.steps;
        let mut lost = Vec::new();
        for (i, unit) in self.units.iter_mut().enumerate() {
            let radius = unit.spec.radius;
            let route = &mut unit.route;
            if route.may_pass(unit.position, radius, unit.held)
                && (unit.position.distance(route.target()) <= radius
                    || guide.in_sight(unit.position, route.points[route.next + 1], radius * 0.5))
            {
                route.next += 1;
            }
            if (step + i as u64).is_multiple_of(SIGHT_EVERY) {
                guide.skip_seen(route, unit.position, radius);
                if !guide.in_sight(unit.position, route.target(), radius * 0.5) {
                    lost.push(i);
                }
            }
        }
        if lost.is_empty() {
            return;
        }
        let from: Vec<Vec2> = lost.iter().map(|&i| self.units[i].position).collect();
        let goals: Vec<Vec2> = lost.iter().map(|&i| self.units[i].spec.goal).collect();
        let radii: Vec<f64> = lost.iter().map(|&i| self.units[i].spec.radius).collect();
        let routes = guide.routes(&from, &goals, &radii, self.threads);
        for (&i, route) in lost.iter().zip(routes) {
            if let Some(route) = route {
                self.units[i].route = route;
            }
        }
    }

    /// The avoiding velocities of units `first..first + out.len()`.
    fn avoid_all(&self, first: usize, out: &mut [Vec2]) {
        let mut lines: Vec<Line> = Vec::new();
        let mut near: Vec<(f64, usize)> = Vec::new();
        let mut seen = Vec::new();
        for (k, v) in out.iter_mut().enumerate() {
            *v = self.avoid(first + k, &mut lines, &mut near, &mut seen);
        }
    }

    /// The velocity unit `i` takes this step.
    fn avoid(
        &self,
        i: usize,
        lines: &mut Vec<Line>,
        near: &mut Vec<(f64, usize)>,
        seen: &mut Vec<u32>,
    ) -> Vec2 {
        let unit = &self.units[i];
        let spec = unit.spec;
        let (p, v) = (unit.position, unit.velocity);
        let dt = self.settings.time_step;
        let radius = spec.radius * (1.0 + MARGIN);
        lines.clear();
        // Walls first: they stay hard when the units' lines leave nothing.
        let wall_reach = radius + spec.max_speed * self.settings.wall_horizon.max(dt);
        self.walls.near(p, wall_reach, seen, |wall| {
            let q = closest_on_segment(p, wall.a, wall.b);
            let away = p - q;
            let d = away.length();
            if d >= wall_reach || d == 0.0 {
                return;
            }
            let normal = away / d;
            let horizon = self.settings.wall_horizon.max(dt);
            let offset = if d > radius {
                -(d - radius) / horizon
            } else {
                (radius - d) / dt
            };
            lines.push(Line::at_least(normal, offset));
        });
        let hard = lines.len();
        // The nearest neighbours.
        self.index.nearest(
            p,
            i,
            self.settings.max_neighbours,
            self.neighbour_distance,
            near,
        );
        let resting = unit.arrived_at.is_some();
        for &(_, j) in near.iter() {
            let other = &self.units[j];
            let combined = radius + other.spec.radius * (1.0 + MARGIN);
            // Units on their way have the right of way: a unit that has arrived takes all
            // the avoidance of a unit passing (it steps aside, then comes back), one on its
            // way none of it; units alike share it.
            let share = match (resting, other.arrived_at.is_some()) {
                (true, false) => 0.8,
                (false, true) => 0.2,
                _ => 0.5,
            };
            lines.push(orca::unit_line(
                v,
                other.position - p,
                v - other.velocity,
                combined,
                share,
                self.settings.time_horizon,
                dt,
            ));
        }
        let preferred = self.preferred(unit, i, near, seen);
        let mut chosen = orca::solve(lines, hard, spec.max_speed, preferred);
        if spec.max_accel.is_finite() {
            chosen = v + (chosen - v).clamp_length(spec.max_accel * dt);
        }
        chosen
    }

    /// Where unit `unit` would go with nobody in the way.
    fn preferred(&self, unit: &Unit, i: usize, near: &[(f64, usize)], seen: &mut Vec<u32>) -> Vec2 {
        let spec = unit.spec;
        if unit.arrived_at.is_some()
            && let Some(aside) = self.make_way(unit, near, seen)
        {
            return aside;
        }
        let to = unit.route.target() - unit.position;
        let distance = to.length();
        if distance < 1e-9 {
            return Vec2::ZERO;
        }
        let mut speed = spec.max_speed;
        if unit.route.on_last_leg() {
            let dt = self.settings.time_step;
            // Brake so as to stop on the goal: no faster than the acceleration can stop
            // from, and no farther than the goal in one step.
            if spec.max_accel.is_finite() {
                speed = speed.min((2.0 * spec.max_accel * distance).sqrt());
            }
            speed = speed.min(distance / dt);
        }
        let mut direction = to / distance;
        if distance > 2.0 * spec.radius {
            // Keep right: a unit held back turns its wish to its right, so that units meeting
            // head-on pass on opposite sides and a crowd crossing turns into a roundabout
            // rather than a standstill; a small turn of its own, the same every step, breaks
            // the ties of perfectly symmetric starts.
            let own =
                ((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as f64 / (1u64 << 24) as f64;
            let mut angle = unit.held * MAX_SIDE_TURN + (own - 0.5) * 0.02;
            // The right of a heading (x, y), y downwards, is (−y, x). A unit held back by a
            // neighbour ahead and clearly to one side turns the other way; where a wall
            // stands on the side it would turn to, it turns the other way too.
            let right = Vec2::new(-direction.y, direction.x);
            if unit.held > 0.1 {
                let blocker = near.iter().map(|&(_, j)| &self.units[j]).find(|other| {
                    let to = other.position - unit.position;
                    to.dot(direction) > 0.0 && to.length() < 1.5 * (spec.radius + other.spec.radius)
                });
                if let Some(other) = blocker {
                    let lateral = (other.position - unit.position).dot(right);
                    if lateral > 0.25 * (spec.radius + other.spec.radius) {
                        angle = -angle;
                    }
                }
                let side = if angle >= 0.0 { right } else { -right };
                let probe = unit.position + side * spec.radius;
                if self.walls.distance(probe, spec.radius, seen) < spec.radius {
                    angle = -angle;
                }
            }
            let (sin, cos) = angle.sin_cos();
            direction = direction * cos + right * sin;
        }
        direction * speed
    }

    /// For a unit that has arrived: the way out of the path of a neighbour held back on its
    /// way through (one whose next leg passes within reach of this unit), if there is one —
    /// to the side away from the neighbour's line where the walls leave room, else ahead of
    /// it along its line.
    fn make_way(&self, unit: &Unit, near: &[(f64, usize)], seen: &mut Vec<u32>) -> Option<Vec2> {
        let spec = unit.spec;
        let p = unit.position;
        for &(_, j) in near {
            let other = &self.units[j];
            if other.arrived_at.is_some() || other.held < 0.5 {
                continue;
            }
            let reach = spec.radius + other.spec.radius;
            let q = other.position;
            let along = (other.route.target() - q).normalized();
            let ahead = (p - q).dot(along);
            if !(0.0..=3.0 * reach).contains(&ahead) {
                continue;
            }
            let side = p - (q + along * ahead);
            if side.length() >= reach {
                continue;
            }
            let normal = Vec2::new(-along.y, along.x);
            let away = if side.dot(normal) >= 0.0 {
                normal
            } else {
                -normal
            };
            for direction in [away, -away, along] {
                let probe = p + direction * (2.0 * spec.radius);
                if self.walls.distance(probe, spec.radius, seen) >= spec.radius {
                    return Some(direction * (0.5 * spec.max_speed));
                }
            }
        }
        None
    }

    /// Cuts short the moves that would bring a disc into a wall or into another disc; answers
    /// how many units it cut.
    fn guard(&self, velocities: &mut [Vec2], dt: f64) -> usize {
        let mut cut = vec![false; self.units.len()];
        let (mut seen, mut scratch) = (Vec::new(), Vec::new());
        // Walls: the longest safe part of the move (safety shrinks with the length).
        for (i, unit) in self.units.iter().enumerate() {
            let v = velocities[i];
            if self.walls.all().is_empty() || v == Vec2::ZERO {
                continue;
            }
            let p = unit.position;
            let r = unit.spec.radius;
            let reach = r + v.length() * dt + 1.0;
            let now = self.walls.distance(p, reach, &mut seen);
            let floor = r.min(now) - 1e-9;
            let mut safe = |s: f64| {
                let end = p + v * (s * dt);
                let mut ok = true;
                self.walls.near(p, reach, &mut scratch, |wall| {
                    ok = ok && segment_distance(p, end, wall.a, wall.b) >= floor;
                });
                ok
            };
            if safe(1.0) {
                continue;
            }
            let (mut low, mut high) = (0.0, 1.0);
            for _ in 0..12 {
                let mid = 0.5 * (low + high);
                if safe(mid) {
                    low = mid;
                } else {
                    high = mid;
                }
            }
            velocities[i] = v * low;
            cut[i] = true;
        }
        // Pairs: halve the moves of units that clash, then stop them, until none clash. A
        // unit stopped may make a neighbour's move clash that did not before, so the check
        // runs again; it ends, as every round after the halvings stops one more unit, and
        // units standing still cannot clash.
        let reach = self.guard_reach;
        let mut candidates: Vec<usize> = (0..self.units.len()).collect();
        let mut stamp = vec![u32::MAX; self.units.len()];
        for round in 0u32.. {
            let clashing = self.clashing(velocities, dt, reach, &candidates);
            if clashing.is_empty() {
                break;
            }
            // Only the moves changed, and those of their neighbours, can clash anew.
            candidates.clear();
            for &i in &clashing {
                velocities[i] = if round >= GUARD_HALVINGS as u32 {
                    Vec2::ZERO
                } else {
                    velocities[i] * 0.5
                };
                cut[i] = true;
                self.near_index.around(self.units[i].position, |j| {
                    if stamp[j] != round {
                        stamp[j] = round;
                        candidates.push(j);
                    }
                });
            }
            candidates.sort_unstable();
        }
        cut.iter().filter(|&&c| c).count()
    }

    /// The units whose moves this step would bring them nearer another disc than allowed.
    fn clashing(
        &self,
        velocities: &[Vec2],
        dt: f64,
        reach: f64,
        candidates: &[usize],
    ) -> Vec<usize> {
        let mut clashing = Vec::new();
        let reach_sq = reach * reach;
        for &i in candidates {
            let unit = &self.units[i];
            let (p, end) = (unit.position, unit.position + velocities[i] * dt);
            let mut clash = false;
            self.near_index.around(p, |j| {
                if clash || j == i {
                    return;
                }
                let other = &self.units[j];
                let q = other.position;
                if (q - p).length_sq() > reach_sq {
                    return;
                }
                let allowed = (unit.spec.radius + other.spec.radius).min(p.distance(q)) - 1e-9;
                if closest_approach(p, end, q, q + velocities[j] * dt) < allowed {
                    clash = true;
                }
            });
            if clash {
                clashing.push(i);
            }
        }
        clashing
    }
}

/// Marks a unit arrived if it is near enough its goal.
fn mark_arrival(unit: &mut Unit, now: f64, arrival: f64) {
    if unit.position.distance(unit.spec.goal) <= arrival * unit.spec.radius {
        unit.arrived_at = Some(now);
    }
}

fn thread_count(asked: usize) -> usize {
    if asked > 0 {
        asked
    } else {
        std::thread::available_parallelism().map_or(1, NonZero::get)
    }
}

/// Refuses specs no simulation can run.
fn check_specs(specs: &[UnitSpec], settings: &CrowdSettings) -> Result<(), MotionError> {
    let positive = |x: f64| x.is_finite() && x > 0.0;
    if !positive(settings.time_step)
        || !positive(settings.time_horizon)
        || !positive(settings.wall_horizon)
    {
        return Err(MotionError::Settings(
            "the time step and the horizons must be positive",
        ));
    }
    if !(settings.arrival.is_finite() && settings.arrival >= 0.0) || settings.max_neighbours == 0 {
        return Err(MotionError::Settings(
            "the arrival distance must be at least 0 and the neighbours at least 1",
        ));
    }
    for (unit, spec) in specs.iter().enumerate() {
        let finite = [spec.start.x, spec.start.y, spec.goal.x, spec.goal.y]
            .iter()
            .all(|v| v.is_finite());
        if !finite
            || !positive(spec.radius)
            || !positive(spec.max_speed)
            || spec.max_accel.is_nan()
            || spec.max_accel <= 0.0
        {
            return Err(MotionError::Unit {
                unit,
                why: "needs a finite start and goal and a positive radius, speed and acceleration",
            });
        }
    }
    Ok(())
}
