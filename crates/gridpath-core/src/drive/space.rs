//! Where a disc may be: the free space of a round body of some radius among the map's walls,
//! checked exactly — for a pose, for the straight segment between two poses and for a curve
//! over its whole sweep, not only at its samples.
//!
//! The walls are the map's sides between passable and impassable cells (and the map's edge) as
//! segments ([`Walls`], asked of the topology, so hexes are the same code). A point is free when
//! its cell is passable and no wall side comes nearer than the radius: a wall that reached
//! into the disc would cross its rim, so its side would be nearer. A lattice of points one cell
//! apart keeps its own distance to the walls, computed the first time the search comes near it;
//! a point near a lattice point far from every wall is free without looking at a wall, and only
//! points near the walls are measured segment by segment.

use super::pose::{Curve, Pose, Steer};
use crate::grid::{Cell, Grid, Topology};
use crate::motion::Vec2;
use crate::motion::walls::Walls;

/// The greatest distance from a point to its nearest lattice point: half a diagonal.
const LATTICE_REACH: f64 = std::f64::consts::FRAC_1_SQRT_2 + 1e-9;

/// The free space of a disc on a map.
pub struct Space<'a> {
    grid: &'a Grid,
    topology: Topology,
    walls: Walls,
    /// The disc's radius, in cell widths.
    radius: f64,
    /// How far the lattice measures: beyond it a lattice point reads as "at least this far".
    reach: f64,
    columns: usize,
    rows: usize,
    /// Each lattice point's distance to the walls, `NAN` until measured.
    lattice: Vec<f32>,
    scratch: Vec<u32>,
}

impl<'a> Space<'a> {
    /// The free space of a disc of `radius` cell widths on `grid`.
    pub fn new(grid: &'a Grid, radius: f64) -> Space<'a> {
        Space::reaching(grid, radius, 0.0)
    }

    /// The free space of a disc whose lattice also measures distances to the walls out to
    /// `reach` (for [`Space::near_clearance`]).
    pub fn reaching(grid: &'a Grid, radius: f64, reach: f64) -> Space<'a> {
        let topology = grid.topology();
        let (width, height) = topology.world_size(grid.width(), grid.height());
        let columns = width.ceil() as usize + 2;
        let rows = height.ceil() as usize + 2;
        Space {
            grid,
            topology,
            walls: Walls::of_grid(grid),
            radius,
            reach: (radius + 3.0).max(reach),
            columns,
            rows,
            lattice: vec![f32::NAN; columns * rows],
            scratch: Vec::new(),
        }
    }

    /// The disc's radius.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// The map.
    pub fn grid(&self) -> &'a Grid {
        self.grid
    }

    /// The cell under a point, if it is on the map.
    pub fn cell_at(&self, x: f64, y: f64) -> Option<Cell> {
        let (cx, cy) = self.topology.cell_at(x, y);
        self.grid
            .contains(cx, cy)
            .then(|| Cell::new(cx as u32, cy as u32))
    }

    /// Whether the point lies on a passable cell.
    fn on_floor(&self, x: f64, y: f64) -> bool {
        self.cell_at(x, y).is_some_and(|c| self.grid.is_passable(c))
    }

    /// A lower bound of the distance from `(x, y)` to the walls, from the nearest lattice point.
    fn lower_bound(&mut self, x: f64, y: f64) -> f64 {
        let (cx, cy) = (x.round(), y.round());
        if cx < 0.0 || cy < 0.0 || cx as usize >= self.columns || cy as usize >= self.rows {
            return 0.0;
        }
        let i = cy as usize * self.columns + cx as usize;
        let mut d = self.lattice[i];
        if d.is_nan() {
            let exact = self
                .walls
                .distance(Vec2::new(cx, cy), self.reach, &mut self.scratch);
            // Rounded down, so that the f32 never claims more room than there is.
            d = (exact as f32).next_down().max(0.0);
            self.lattice[i] = d;
        }
        f64::from(d) - LATTICE_REACH
    }

    /// The distance to the walls of the lattice point nearest `(x, y)` (within half a cell's
    /// diagonal of the point's own), up to the space's reach: cheap, for costs, not for fit.
    pub fn near_clearance(&mut self, x: f64, y: f64) -> f64 {
        (self.lower_bound(x, y) + LATTICE_REACH).max(0.0)
    }

    /// The distance from a point to the nearest wall, looking no farther than `limit` (0 off
    /// the floor).
    pub fn clearance(&mut self, x: f64, y: f64, limit: f64) -> f64 {
        if !self.on_floor(x, y) {
            return 0.0;
        }
        self.walls
            .distance(Vec2::new(x, y), limit, &mut self.scratch)
    }

    /// Whether the disc fits at `(x, y)`.
    pub fn fits(&mut self, x: f64, y: f64) -> bool {
        self.keeps(x, y, self.radius)
    }

    /// Whether the point is on the floor and at least `clearance` from every wall.
    fn keeps(&mut self, x: f64, y: f64, clearance: f64) -> bool {
        if !self.on_floor(x, y) {
            return false;
        }
        if self.lower_bound(x, y) >= clearance {
            return true;
        }
        self.walls
            .distance(Vec2::new(x, y), clearance, &mut self.scratch)
            >= clearance
    }

    /// Whether every point of the segment from `a` to `b` keeps `clearance` from the walls
    /// (exactly: the segment against every wall side near it).
    pub fn segment_keeps(&mut self, a: (f64, f64), b: (f64, f64), clearance: f64) -> bool {
        let clearance = clearance.max(1e-9);
        if !self.on_floor(a.0, a.1) || !self.on_floor(b.0, b.1) {
            return false;
        }
        let half = 0.5 * (a.0 - b.0).hypot(a.1 - b.1);
        if self.lower_bound(a.0, a.1) >= clearance + half
            && self.lower_bound(b.0, b.1) >= clearance + half
        {
            return true;
        }
        self.walls
            .segment_keeps(Vec2::new(a.0, a.1), Vec2::new(b.0, b.1), clearance)
    }

    /// Whether the disc, swept along the whole of `curve`, stays clear of the walls: each arc
    /// is cut into chords no longer than half a cell, and each chord must keep the radius plus
    /// the arc's greatest distance from it.
    pub fn curve_fits(&mut self, curve: &Curve) -> bool {
        let mut pose = curve.start;
        for piece in &curve.pieces {
            if !self.piece_fits(pose, piece.steer, piece.gear, curve.radius, piece.length) {
                return false;
            }
            pose = pose.drive(piece.steer, piece.gear, curve.radius, piece.length);
        }
        true
    }

    /// Whether the disc fits along one piece driven from `pose`.
    pub fn piece_fits(
        &mut self,
        pose: Pose,
        steer: Steer,
        gear: super::pose::Gear,
        radius: f64,
        length: f64,
    ) -> bool {
        const CHORD: f64 = 0.5;
        let n = (length / CHORD).ceil().max(1.0) as usize;
        let step = length / n as f64;
        // How far the arc between two chord ends strays from the chord (its sagitta).
        let sag = if steer == Steer::Straight {
            0.0
        } else {
            radius * (1.0 - (0.5 * step / radius).cos())
        };
        let mut from = pose;
        for i in 1..=n {
            let to = pose.drive(steer, gear, radius, step * i as f64);
            if !self.segment_keeps((from.x, from.y), (to.x, to.y), self.radius + sag) {
                return false;
            }
            from = to;
        }
        true
    }

    /// Whether the disc fits at `pose` itself (a disc is the same at every heading).
    pub fn pose_fits(&mut self, pose: Pose) -> bool {
        self.fits(pose.x, pose.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drive::pose::Gear;

    /// The exact distance from a point to the nearest wall square (or the outside), by looking
    /// at every cell: the oracle.
    fn brute_clearance(grid: &Grid, x: f64, y: f64) -> f64 {
        let mut best = f64::INFINITY;
        for cy in -1..=i64::from(grid.height()) {
            for cx in -1..=i64::from(grid.width()) {
                let wall =
                    !grid.contains(cx, cy) || !grid.is_passable(Cell::new(cx as u32, cy as u32));
                if wall {
                    let dx = (cx as f64 - x).max(0.0).max(x - (cx as f64 + 1.0));
                    let dy = (cy as f64 - y).max(0.0).max(y - (cy as f64 + 1.0));
                    best = best.min(dx.hypot(dy));
                }
            }
        }
        best
    }

    fn room() -> Grid {
        Grid::from_ascii(&[
            "............",
            "....#.......",
            "....#...##..",
            "............",
            "..#.........",
            "............",
        ])
        .unwrap()
    }

    #[test]
    fn a_disc_fits_where_the_oracle_says_it_does() {
        let grid = room();
        let mut rng = crate::rng::Rng::new(3);
        for radius in [0.3, 0.5, 0.9, 1.4] {
            let mut space = Space::new(&grid, radius);
            for _ in 0..4000 {
                let x = rng.below(12_000) as f64 / 1000.0;
                let y = rng.below(6_000) as f64 / 1000.0;
                let truth = brute_clearance(&grid, x, y);
                let on_floor = grid.is_passable(Cell::new(x as u32, y as u32));
                if (truth - radius).abs() < 1e-9 {
                    continue;
                }
                assert_eq!(
                    space.fits(x, y),
                    on_floor && truth > radius,
                    "radius {radius} at ({x}, {y}): clearance {truth}"
                );
            }
        }
    }

    #[test]
    fn a_curve_that_grazes_a_wall_between_its_samples_is_refused() {
        // A straight drive whose middle passes a pillar: the ends are far from it.
        let grid = Grid::from_ascii(&["........", "........", "........", "...#....", "........"])
            .unwrap();
        let start = Pose::new(1.0, 2.5, 0.0);
        let piece = |length| {
            Curve::new(
                start,
                2.0,
                vec![super::super::pose::Piece {
                    steer: Steer::Straight,
                    gear: Gear::Forward,
                    length,
                }],
            )
        };
        let mut space = Space::new(&grid, 0.6);
        assert!(
            space.fits(1.0, 2.5) && space.fits(6.0, 2.5),
            "both ends are 2 from the pillar"
        );
        assert!(
            !space.curve_fits(&piece(5.0)),
            "the straight line passes 0.5 from the pillar"
        );
        let mut thin = Space::new(&grid, 0.4);
        assert!(thin.curve_fits(&piece(5.0)));
    }
}
