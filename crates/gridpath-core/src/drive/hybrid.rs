//! The search for a body: Hybrid A* over poses (Dolgov et al. 2008; the planner of nav2's
//! Smac). Each node is a continuous pose; the closed set buckets poses by cell and heading
//! (72 headings of 5°), so that two poses in one bucket count as one. A node grows by arcs of
//! the turning radius to the left and right and by a straight piece, each as long as it takes
//! to leave the cell, and a growth is kept only if the disc fits along the whole of its sweep.
//!
//! The estimate of the length still to drive is the greater of two that each ignore half the
//! problem: the shortest Dubins curve to the goal, which ignores the walls, and the distance of
//! the goal through the map for a disc without a turning radius (one Dijkstra from the goal on
//! the map where the disc fits, relaxed by the half-diagonal of a cell). Every few nodes — every
//! node once the goal is near — the search tries the shortest Dubins curve to the goal itself,
//! and the first that fits ends it. The path found is then shortened: any two of its poses
//! whose Dubins curve is shorter than the path between them and fits are joined by it.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::f64::consts::TAU;

use super::pose::{Curve, Gear, Piece, Pose, Steer};
use super::space::Space;
use super::{DriveError, DriveRequest, Motion};
use crate::fast_hash::FastMap;
use crate::grid::{Cell, Grid, Rgb, Terrain};
use crate::search::{Diagonal, FlowField, SearchControl, SearchGraph, cell_room};

/// Headings the closed set tells apart.
const HEADINGS: usize = 72;

/// How many candidate goal headings a free goal heading tries.
const FREE_HEADINGS: usize = 36;

/// The most Dubins curves a shortening pass checks against the walls.
const SHORTCUT_CHECKS: usize = 600;

/// An open node: its estimate and index, smallest estimate first.
#[derive(Clone, Copy, PartialEq)]
struct Open {
    f: f64,
    g: f64,
    node: u32,
}

impl Eq for Open {}

impl Ord for Open {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .f
            .total_cmp(&self.f)
            .then_with(|| self.g.total_cmp(&other.g))
            .then_with(|| other.node.cmp(&self.node))
    }
}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A reached pose: how far it was driven to and how.
#[derive(Clone, Copy)]
struct Node {
    pose: Pose,
    g: f64,
    /// The node it grew from (`u32::MAX` at a start).
    parent: u32,
    /// The piece driven from the parent.
    piece: Piece,
}

/// What a search found: the curve, how many nodes it expanded.
pub(super) struct Found {
    pub curve: Curve,
    pub expanded: usize,
}

/// The distance of every cell from the goal for a disc without a turning radius.
struct Through {
    field: FlowField,
}

impl Through {
    fn new(grid: &Grid, radius: f64, goal: Cell) -> Result<Through, DriveError> {
        // A cell counts when some point of it might hold the disc: its centre within the
        // radius plus the half-diagonal of the walls.
        let relaxed = (radius - std::f64::consts::FRAC_1_SQRT_2).max(0.0);
        let terrains = vec![
            Terrain::passable("Floor", '.', Rgb([255, 255, 255]), 1.0),
            Terrain::impassable("Wall", '#', Rgb([0, 0, 0])),
        ];
        let cells = grid
            .cells()
            .iter()
            .enumerate()
            .map(|(i, &t)| {
                let cell = grid.cell_at(i);
                let open = grid.terrain(t).is_passable()
                    && (relaxed <= 0.5 || cell_room(grid, cell, relaxed) >= relaxed);
                u8::from(!open)
            })
            .collect();
        let binary = Grid::from_cells(grid.width(), grid.height(), terrains, cells)
            .map_err(|e| DriveError::BadRequest(e.to_string()))?
            .with_topology(grid.topology());
        let graph = SearchGraph::new(&binary, Diagonal::Always);
        let field =
            FlowField::new(&graph, goal).map_err(|e| DriveError::BadRequest(e.to_string()))?;
        Ok(Through { field })
    }

    /// The distance from the cell at `(x, y)` to the goal, less the two cells' half-diagonals.
    fn estimate(&self, space: &Space, x: f64, y: f64) -> Option<f64> {
        let cell = space.cell_at(x, y)?;
        let cost = self.field.cost(cell)?;
        Some((cost - std::f64::consts::SQRT_2).max(0.0))
    }
}

/// Plans the drive of `request` in `space`, the body's free space on `grid` (see the module).
pub(super) fn search(
    grid: &Grid,
    space: &mut Space,
    request: &DriveRequest,
    control: Option<&SearchControl>,
) -> Result<Found, DriveError> {
    let radius = request.turning_radius;
    let motion = request.motion;
    let gears: &[Gear] = match motion {
        Motion::Dubins => &[Gear::Forward],
        Motion::ReedsShepp => &[Gear::Forward, Gear::Reverse],
    };
    let start_cell = space
        .cell_at(request.start.x, request.start.y)
        .ok_or(DriveError::OffMap("start"))?;
    let goal_cell = space
        .cell_at(request.goal.x, request.goal.y)
        .ok_or(DriveError::OffMap("goal"))?;
    for (which, pose) in [("start", request.start), ("goal", request.goal)] {
        if !space.pose_fits(pose) {
            let clearance = space.clearance(pose.x, pose.y, request.body_radius + 1.0);
            return Err(DriveError::Blocked { which, clearance });
        }
    }
    let through = Through::new(grid, request.body_radius, goal_cell)?;
    if through.field.cost(start_cell).is_none() {
        return Err(DriveError::NoWay);
    }
    let goals = headings(request.goal, request.goal_heading_free, FREE_HEADINGS);
    let estimate = |space: &Space, pose: Pose| -> Option<f64> {
        let far = through.estimate(space, pose.x, pose.y)?;
        let near = if request.goal_heading_free {
            pose.distance(request.goal)
        } else {
            motion.distance(pose, request.goal, radius)
        };
        Some(far.max(near))
    };

    // Poses are told apart by squares of a quarter of the turning radius (at least a cell),
    // and each growth drives far enough to leave its square and to turn at least one heading.
    let square = (radius / 4.0).max(1.0);
    let step = (1.5 * square).max(radius * TAU / HEADINGS as f64);
    let bucket = |pose: Pose| -> u64 {
        let x = (pose.x / square).floor().max(0.0) as u64;
        let y = (pose.y / square).floor().max(0.0) as u64;
        let h = ((pose.theta / TAU * HEADINGS as f64) as u64).min(HEADINGS as u64 - 1);
        ((y << 24 | x) << 8) | h
    };

    let mut nodes: Vec<Node> = Vec::new();
    // Each bucket's best distance driven, and whether it was expanded.
    let mut seen: FastMap<u64, (f64, bool)> = FastMap::default();
    let mut open = BinaryHeap::new();
    let starts = headings(request.start, request.start_heading_free, HEADINGS);
    let none = Piece {
        steer: Steer::Straight,
        gear: Gear::Forward,
        length: 0.0,
    };
    for pose in starts {
        let Some(h) = estimate(space, pose) else {
            continue;
        };
        nodes.push(Node {
            pose,
            g: 0.0,
            parent: u32::MAX,
            piece: none,
        });
        open.push(Open {
            f: h,
            g: 0.0,
            node: nodes.len() as u32 - 1,
        });
    }

    let mut expanded = 0usize;
    while let Some(Open { node, .. }) = open.pop() {
        let current = nodes[node as usize];
        let entry = seen
            .entry(bucket(current.pose))
            .or_insert((current.g, false));
        if entry.1 {
            continue;
        }
        entry.1 = true;
        expanded += 1;
        if expanded.is_multiple_of(256) && control.is_some_and(SearchControl::is_cancelled) {
            return Err(DriveError::Cancelled);
        }
        if expanded > request.max_expansions {
            return Err(DriveError::Budget(request.max_expansions));
        }
        // The shot to the goal: every node near it, every few farther off. Keeping away from
        // walls, a shot from afar is taken only if it keeps away from them too.
        let away = current.pose.distance(request.goal);
        let every = ((away / (4.0 * radius)) as usize).clamp(1, 8);
        if expanded.is_multiple_of(every)
            && let Some(shot) = shoot(space, motion, current.pose, &goals, radius)
            && (request.inflation.is_none()
                || away < 2.0 * radius
                || curve_cost(space, request, &shot) <= 1.05 * shot.length())
        {
            let mut pieces = chain(&nodes, node);
            pieces.extend(shot.pieces);
            let start = root(&nodes, node);
            let curve = Curve::new(start, radius, pieces);
            return Ok(Found {
                curve: shorten(space, request, curve),
                expanded,
            });
        }
        for (&gear, steer) in gears
            .iter()
            .flat_map(|g| [Steer::Left, Steer::Straight, Steer::Right].map(|s| (g, s)))
        {
            let pose = current.pose.drive(steer, gear, radius, step);
            let key = bucket(pose);
            let g = current.g + step * factor_at(space, request, pose);
            if seen
                .get(&key)
                .is_some_and(|&(best, done)| done || best <= g)
            {
                continue;
            }
            if !space.piece_fits(current.pose, steer, gear, radius, step) {
                continue;
            }
            let Some(h) = estimate(space, pose) else {
                continue;
            };
            seen.insert(key, (g, false));
            nodes.push(Node {
                pose,
                g,
                parent: node,
                piece: Piece {
                    steer,
                    gear,
                    length: step,
                },
            });
            open.push(Open {
                f: g + h,
                g,
                node: nodes.len() as u32 - 1,
            });
        }
    }
    Err(DriveError::NoWay)
}

/// `pose` itself, or — when its heading is free — its position at `count` headings round the
/// circle.
fn headings(pose: Pose, free: bool, count: usize) -> Vec<Pose> {
    if !free {
        return vec![pose];
    }
    (0..count)
        .map(|i| Pose::new(pose.x, pose.y, TAU * i as f64 / count as f64))
        .collect()
}

/// The shortest curve of the motion from `pose` to one of `goals` that fits, trying the few
/// shortest.
fn shoot(
    space: &mut Space,
    motion: Motion,
    pose: Pose,
    goals: &[Pose],
    radius: f64,
) -> Option<Curve> {
    let mut lengths: Vec<(f64, Pose)> = goals
        .iter()
        .map(|&g| (motion.distance(pose, g, radius), g))
        .collect();
    lengths.sort_by(|a, b| a.0.total_cmp(&b.0));
    for &(_, goal) in lengths.iter().take(4) {
        let curve = motion.shortest(pose, goal, radius)?;
        if space.curve_fits(&curve) {
            return Some(curve);
        }
    }
    None
}

/// The pieces driven from the start to `node`, in order.
fn chain(nodes: &[Node], mut node: u32) -> Vec<Piece> {
    let mut pieces = Vec::new();
    while nodes[node as usize].parent != u32::MAX {
        pieces.push(nodes[node as usize].piece);
        node = nodes[node as usize].parent;
    }
    pieces.reverse();
    pieces
}

/// The start pose of the chain that ends at `node`.
fn root(nodes: &[Node], mut node: u32) -> Pose {
    while nodes[node as usize].parent != u32::MAX {
        node = nodes[node as usize].parent;
    }
    nodes[node as usize].pose
}

/// Shortens `curve`: the poses where its pieces meet are joined, far ones first, by Dubins
/// curves that are shorter than the way between them and fit.
pub(super) fn shorten(space: &mut Space, request: &DriveRequest, curve: Curve) -> Curve {
    let radius = curve.radius;
    let motion = request.motion;
    // Legs: the poses where pieces meet, and the pieces from each to the next.
    let mut poses = vec![curve.start];
    let mut legs: Vec<Vec<Piece>> = Vec::new();
    for piece in &curve.pieces {
        let last = *poses.last().expect("the start");
        poses.push(last.drive(piece.steer, piece.gear, radius, piece.length));
        legs.push(vec![*piece]);
    }
    let mut checks = 0usize;
    for _pass in 0..3 {
        let mut improved = false;
        let mut i = 0;
        while i + 1 < poses.len() {
            let mut j = poses.len() - 1;
            while j > i + 1 && checks < SHORTCUT_CHECKS {
                let between: f64 = legs[i..j].iter().flatten().map(|p| p.length).sum();
                if motion.distance(poses[i], poses[j], radius) < between - 1e-6 {
                    checks += 1;
                    if let Some(shortcut) = motion.shortest(poses[i], poses[j], radius)
                        && space.curve_fits(&shortcut)
                        && (request.inflation.is_none() || {
                            let old = Curve::new(poses[i], radius, legs[i..j].concat());
                            curve_cost(space, request, &shortcut)
                                < curve_cost(space, request, &old) - 1e-9
                        })
                    {
                        legs.splice(i..j, [shortcut.pieces]);
                        poses.drain(i + 1..j);
                        improved = true;
                        break;
                    }
                }
                j -= 1;
            }
            i += 1;
        }
        if !improved {
            break;
        }
    }
    let mut pieces: Vec<Piece> = Vec::new();
    for piece in legs.into_iter().flatten() {
        match pieces.last_mut() {
            Some(last) if last.steer == piece.steer && last.gear == piece.gear => {
                last.length += piece.length;
            }
            _ => pieces.push(piece),
        }
    }
    Curve::new(curve.start, radius, pieces)
}

/// What driving at `pose` costs a length: 1, or the inflation's factor there.
fn factor_at(space: &mut Space, request: &DriveRequest, pose: Pose) -> f64 {
    match request.inflation {
        None => 1.0,
        Some(inflation) => {
            // The lattice's distance: a cost needs no exact distance, and the lattice keeps it.
            let clearance = space.near_clearance(pose.x, pose.y).min(inflation.radius);
            inflation.factor(clearance, request.body_radius)
        }
    }
}

/// What `curve` costs: its length, or with an inflation the sum of each tenth of a cell's
/// length times the factor at its middle.
pub(super) fn curve_cost(space: &mut Space, request: &DriveRequest, curve: &Curve) -> f64 {
    if request.inflation.is_none() {
        return curve.length();
    }
    let samples = curve.samples(0.1);
    samples
        .windows(2)
        .map(|w| {
            let (a, b) = (w[0].pose, w[1].pose);
            let middle = Pose::new(0.5 * (a.x + b.x), 0.5 * (a.y + b.y), a.theta);
            a.distance(b) * factor_at(space, request, middle)
        })
        .sum()
}
