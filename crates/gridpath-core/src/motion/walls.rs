//! The map's walls as line segments: every side between a passable cell and a wall (or the
//! map's edge), merged along straight runs, with a bucket index to find those near a point.
//!
//! The sides come from the topology (a cell's corners and the cells across its sides), so
//! squares and hexes are one code path: on squares a wall's outline is horizontal and
//! vertical runs, on hexes a zigzag of short sides along three directions.

use std::collections::HashMap;

use super::vector::{Vec2, closest_on_segment, segment_distance};
use crate::grid::{Cell, Grid};

/// The size of an index bucket, in cell widths.
const BUCKET: f64 = 4.0;

/// A wall's side, from `a` to `b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wall {
    /// One end.
    pub a: Vec2,
    /// The other end.
    pub b: Vec2,
}

/// The walls of a map and an index of them by position.
#[derive(Clone, Debug, Default)]
pub struct Walls {
    walls: Vec<Wall>,
    columns: usize,
    rows: usize,
    /// For each bucket, the range of `entries` that lists the walls meeting it.
    starts: Vec<u32>,
    entries: Vec<u32>,
}

impl Walls {
    /// No walls: the open plane.
    pub fn none() -> Walls {
        Walls::default()
    }

    /// The walls of `grid`: the sides between its passable cells and its impassable ones or the
    /// outside.
    pub fn of_grid(grid: &Grid) -> Walls {
        let topology = grid.topology();
        let passable =
            |x: i64, y: i64| grid.contains(x, y) && grid.is_passable(Cell::new(x as u32, y as u32));
        let mut sides: Vec<Wall> = Vec::new();
        for y in 0..i64::from(grid.height()) {
            for x in 0..i64::from(grid.width()) {
                if !passable(x, y) {
                    continue;
                }
                let mut corners = None;
                for (nx, ny) in topology.side_neighbours(x, y) {
                    if passable(nx, ny) {
                        continue;
                    }
                    let mine = corners.get_or_insert_with(|| topology.corners(x, y));
                    let theirs = topology.corners(nx, ny);
                    let shared: Vec<(f64, f64)> = mine
                        .iter()
                        .copied()
                        .filter(|p| theirs.iter().any(|q| (p.0 - q.0).hypot(p.1 - q.1) < 1e-9))
                        .collect();
                    if let [a, b] = shared[..] {
                        sides.push(Wall {
                            a: Vec2::new(a.0, a.1),
                            b: Vec2::new(b.0, b.1),
                        });
                    }
                }
            }
        }
        let (width, height) = topology.world_size(grid.width(), grid.height());
        Walls::index(merge(sides), width, height)
    }

    fn index(walls: Vec<Wall>, width: f64, height: f64) -> Walls {
        let columns = ((width / BUCKET).ceil() as usize).max(1) + 1;
        let rows = ((height / BUCKET).ceil() as usize).max(1) + 1;
        let bucket_of = |p: f64, n: usize| ((p / BUCKET).floor().max(0.0) as usize).min(n - 1);
        let mut lists: Vec<Vec<u32>> = vec![Vec::new(); columns * rows];
        for (i, wall) in walls.iter().enumerate() {
            let (x0, x1) = (wall.a.x.min(wall.b.x), wall.a.x.max(wall.b.x));
            let (y0, y1) = (wall.a.y.min(wall.b.y), wall.a.y.max(wall.b.y));
            for row in bucket_of(y0, rows)..=bucket_of(y1, rows) {
                for column in bucket_of(x0, columns)..=bucket_of(x1, columns) {
                    lists[row * columns + column].push(i as u32);
                }
            }
        }
        let mut starts = Vec::with_capacity(lists.len() + 1);
        let mut entries = Vec::new();
        for list in lists {
            starts.push(entries.len() as u32);
            entries.extend(list);
        }
        starts.push(entries.len() as u32);
        Walls {
            walls,
            columns,
            rows,
            starts,
            entries,
        }
    }

    /// Every wall.
    pub fn all(&self) -> &[Wall] {
        &self.walls
    }

    /// Calls `visit` once for each wall that may come within `reach` of `p` (and some
    /// beyond); `seen` is scratch space, kept between calls to save allocations.
    pub fn near(&self, p: Vec2, reach: f64, seen: &mut Vec<u32>, mut visit: impl FnMut(&Wall)) {
        if self.walls.is_empty() {
            return;
        }
        let bucket_of = |v: f64, n: usize| ((v / BUCKET).floor().max(0.0) as usize).min(n - 1);
        seen.clear();
        for row in bucket_of(p.y - reach, self.rows)..=bucket_of(p.y + reach, self.rows) {
            for column in
                bucket_of(p.x - reach, self.columns)..=bucket_of(p.x + reach, self.columns)
            {
                let bucket = row * self.columns + column;
                let (from, to) = (
                    self.starts[bucket] as usize,
                    self.starts[bucket + 1] as usize,
                );
                for &i in &self.entries[from..to] {
                    if !seen.contains(&i) {
                        seen.push(i);
                        visit(&self.walls[i as usize]);
                    }
                }
            }
        }
    }

    /// Whether the straight segment from `a` to `b` keeps at least `clearance` from every
    /// wall (measured exactly, segment to segment).
    pub fn segment_keeps(&self, a: Vec2, b: Vec2, clearance: f64) -> bool {
        if self.walls.is_empty() {
            return true;
        }
        let bucket_of = |v: f64, n: usize| ((v / BUCKET).floor().max(0.0) as usize).min(n - 1);
        let (x0, x1) = (a.x.min(b.x) - clearance, a.x.max(b.x) + clearance);
        let (y0, y1) = (a.y.min(b.y) - clearance, a.y.max(b.y) + clearance);
        let direction = (b - a).normalized();
        let normal = Vec2::new(-direction.y, direction.x);
        let reach = clearance + BUCKET * std::f64::consts::SQRT_2;
        for row in bucket_of(y0, self.rows)..=bucket_of(y1, self.rows) {
            for column in bucket_of(x0, self.columns)..=bucket_of(x1, self.columns) {
                // Only the buckets along the segment, not its whole bounding box.
                let centre = Vec2::new((column as f64 + 0.5) * BUCKET, (row as f64 + 0.5) * BUCKET);
                if direction != Vec2::ZERO && normal.dot(centre - a).abs() > reach {
                    continue;
                }
                let bucket = row * self.columns + column;
                let (from, to) = (
                    self.starts[bucket] as usize,
                    self.starts[bucket + 1] as usize,
                );
                for &i in &self.entries[from..to] {
                    let wall = &self.walls[i as usize];
                    if segment_distance(a, b, wall.a, wall.b) < clearance {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// The distance from `p` to the nearest wall within `reach` (or `reach` when none is).
    pub fn distance(&self, p: Vec2, reach: f64, seen: &mut Vec<u32>) -> f64 {
        let mut best = reach;
        self.near(p, reach, seen, |wall| {
            best = best.min(p.distance(closest_on_segment(p, wall.a, wall.b)));
        });
        best
    }
}

/// Joins sides that continue each other along one straight line.
fn merge(sides: Vec<Wall>) -> Vec<Wall> {
    // Lines keyed by their direction (an angle in [0, π)) and their offset from the origin.
    let mut lines: HashMap<(i64, i64), Vec<(f64, f64)>> = HashMap::new();
    let mut keys: Vec<(i64, i64, Vec2)> = Vec::new();
    for side in sides {
        let mut direction = (side.b - side.a).normalized();
        if direction.y < -1e-12 || (direction.y.abs() <= 1e-12 && direction.x < 0.0) {
            direction = -direction;
        }
        let normal = Vec2::new(-direction.y, direction.x);
        let angle = direction.y.atan2(direction.x);
        let offset = normal.dot(side.a);
        let key = ((angle * 1e6).round() as i64, (offset * 1e6).round() as i64);
        let (t0, t1) = (direction.dot(side.a), direction.dot(side.b));
        let entry = lines.entry(key).or_insert_with(|| {
            keys.push((key.0, key.1, direction));
            Vec::new()
        });
        entry.push((t0.min(t1), t0.max(t1)));
    }
    let mut walls = Vec::new();
    // In the order the lines were first met, so the result does not depend on hashing.
    for (k0, k1, direction) in keys {
        let mut spans = lines.remove(&(k0, k1)).unwrap_or_default();
        spans.sort_by(|a, b| a.0.total_cmp(&b.0));
        let normal = Vec2::new(-direction.y, direction.x);
        let offset = k1 as f64 / 1e6;
        let point = |t: f64| direction * t + normal * offset;
        let mut current = spans[0];
        for &(from, to) in &spans[1..] {
            if from <= current.1 + 1e-6 {
                current.1 = current.1.max(to);
            } else {
                walls.push(Wall {
                    a: point(current.0),
                    b: point(current.1),
                });
                current = (from, to);
            }
        }
        walls.push(Wall {
            a: point(current.0),
            b: point(current.1),
        });
    }
    walls
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{HexLayout, Topology};

    #[test]
    fn a_room_is_four_walls_and_a_pillar_four_more() {
        let grid = Grid::from_ascii(&["....", ".#..", "...."]).expect("valid map");
        let walls = Walls::of_grid(&grid);
        assert_eq!(walls.all().len(), 8, "{:?}", walls.all());
        let length: f64 = walls.all().iter().map(|w| w.a.distance(w.b)).sum();
        assert!((length - (2.0 * (4.0 + 3.0) + 4.0)).abs() < 1e-9);
        let mut seen = Vec::new();
        // The pillar (1, 1) is 0.5 from the centre of (2, 1), the outer wall 1.5 from it.
        assert!((walls.distance(Vec2::new(2.5, 1.5), 3.0, &mut seen) - 0.5).abs() < 1e-9);
        assert!((walls.distance(Vec2::new(3.5, 1.5), 3.0, &mut seen) - 0.5).abs() < 1e-9);
    }

    #[test]
    fn a_hex_map_is_outlined_by_hex_sides() {
        let grid = Grid::from_ascii(&["...", "...", "..."])
            .expect("valid map")
            .with_topology(Topology::Hex(HexLayout::ODD_R));
        let walls = Walls::of_grid(&grid);
        let side = 1.0 / 3.0f64.sqrt();
        // Every wall is a whole number of hex sides long.
        for wall in walls.all() {
            let sides = wall.a.distance(wall.b) / side;
            assert!((sides - sides.round()).abs() < 1e-6, "{wall:?}");
        }
        let mut seen = Vec::new();
        let (cx, cy) = grid.topology().centre(Cell::new(1, 1));
        // The middle hex has a ring of six around it; the outline's nearest points are the
        // corners where two of the ring meet the outside, 2/√3 from its centre.
        let expected = 2.0 / 3.0f64.sqrt();
        assert!((walls.distance(Vec2::new(cx, cy), 5.0, &mut seen) - expected).abs() < 1e-6);
        let total: f64 = walls.all().iter().map(|w| w.a.distance(w.b)).sum();
        // 9 hexes have 54 sides; the 16 pairs of neighbours in a 3 × 3 block share 32 of them.
        assert!((total / side - 22.0).abs() < 1e-6, "{}", total / side);
    }
}
