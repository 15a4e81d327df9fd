//! Where each unit wants to go next: its guidance. On the open plane that is straight to its
//! goal; on a map it is a route of waypoints — a grid search from the unit's cell, its
//! string pulled so that every straight piece keeps the unit's radius from the walls — that
//! the unit follows one waypoint after the other, planning again when it has been pushed
//! where it can no longer see the next one.

use super::vector::Vec2;
use super::walls::Walls;
use crate::grid::{Cell, Grid};
use crate::search::{Diagonal, SearchGraph, SearchRequest, solve_batch};
use crate::smooth::pull_string_keeping;

/// A unit's route: the points it heads for, one after the other, the last its goal.
#[derive(Clone, Debug, PartialEq)]
pub struct Route {
    /// The waypoints, the goal last.
    pub points: Vec<Vec2>,
    /// The index of the waypoint the unit heads for.
    pub next: usize,
    /// Where the route starts (the point before the first waypoint).
    pub from: Vec2,
}

impl Route {
    /// Straight from `from` to the goal.
    pub fn straight(from: Vec2, goal: Vec2) -> Route {
        Route {
            points: vec![goal],
            next: 0,
            from,
        }
    }

    /// Whether the unit at `p` (of radius `radius`) may go on to the next waypoint: it has
    /// reached the target, or come up level with it (within `radius` of the line through it
    /// across the leg, and not far to the side), or, having long been `held` back (0 to 1),
    /// is near it. The caller checks that the waypoint after is in sight: a unit kept off a
    /// waypoint (by a unit resting on it, say) so goes on instead of pressing towards it.
    pub fn may_pass(&self, p: Vec2, radius: f64, held: f64) -> bool {
        if self.on_last_leg() {
            return false;
        }
        let target = self.target();
        let before = if self.next == 0 {
            self.from
        } else {
            self.points[self.next - 1]
        };
        let along = (target - before).normalized();
        let offset = p - target;
        let distance = offset.length();
        distance <= radius
            || (offset.dot(along) >= -radius && distance < 1.5)
            || (held > 0.7 && distance < 2.0)
    }

    /// The point the unit heads for.
    pub fn target(&self) -> Vec2 {
        self.points[self.next.min(self.points.len() - 1)]
    }

    /// Whether the target is the goal.
    pub fn on_last_leg(&self) -> bool {
        self.next + 1 >= self.points.len()
    }
}

/// What the map holds for guidance: the grid, its search graph and its walls.
#[derive(Clone, Debug)]
pub struct MapGuide {
    grid: Grid,
    graph: SearchGraph,
    walls: Walls,
}

impl MapGuide {
    /// Guidance over `grid`, whose diagonal steps never cut a wall's corner.
    pub fn new(grid: &Grid) -> MapGuide {
        MapGuide {
            grid: grid.clone(),
            graph: SearchGraph::new(grid, Diagonal::NoCut),
            walls: Walls::of_grid(grid),
        }
    }

    /// The walls.
    pub fn walls(&self) -> &Walls {
        &self.walls
    }

    /// The grid.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The cell under a point, if it is on the map.
    pub fn cell_of(&self, p: Vec2) -> Option<Cell> {
        let (x, y) = self.grid.topology().cell_at(p.x, p.y);
        (self.grid.contains(x, y)).then(|| Cell::new(x as u32, y as u32))
    }

    /// Routes for units at `from` to `goals`, each keeping `radius` from the walls on its
    /// straight pieces where the corridor allows; `None` for a unit whose goal cannot be
    /// reached from its cell. Searched on up to `threads` threads.
    pub fn routes(
        &self,
        from: &[Vec2],
        goals: &[Vec2],
        radii: &[f64],
        threads: usize,
    ) -> Vec<Option<Route>> {
        let cells: Vec<Option<(Cell, Cell)>> = from
            .iter()
            .zip(goals)
            .map(|(&a, &b)| Some((self.cell_of(a)?, self.cell_of(b)?)))
            .collect();
        let requests: Vec<SearchRequest> = cells
            .iter()
            .map(|pair| {
                let (a, b) = pair.unwrap_or((Cell::new(0, 0), Cell::new(0, 0)));
                SearchRequest::new(a, b)
            })
            .collect();
        let answers = solve_batch(&self.graph, &requests, threads);
        answers
            .into_iter()
            .zip(cells)
            .enumerate()
            .map(|(unit, (answer, pair))| {
                pair?;
                let result = answer.ok().filter(|r| r.found)?;
                Some(self.route_along(&result.path, from[unit], goals[unit], radii[unit]))
            })
            .collect()
    }

    /// The route along a grid path: its string pulled keeping `radius` from the walls, the
    /// exact goal last.
    fn route_along(&self, path: &[Cell], from: Vec2, goal: Vec2, radius: f64) -> Route {
        let topology = self.grid.topology();
        let keep = pull_string_keeping(&self.grid, path, radius);
        let mut points: Vec<Vec2> = keep
            .iter()
            .skip(1)
            .map(|&i| {
                let (x, y) = topology.centre(path[i]);
                Vec2::new(x, y)
            })
            .collect();
        match points.last_mut() {
            Some(last) => *last = goal,
            None => points.push(goal),
        }
        let mut route = Route {
            points,
            next: 0,
            from,
        };
        self.skip_seen(&mut route, from, radius);
        route
    }

    /// Moves the route on past waypoints the unit at `p` can skip: while the one after the
    /// target is in sight keeping `radius` from the walls.
    pub fn skip_seen(&self, route: &mut Route, p: Vec2, radius: f64) {
        while route.next + 1 < route.points.len()
            && self.in_sight(p, route.points[route.next + 1], radius)
        {
            route.next += 1;
        }
    }

    /// Whether the straight line from `a` to `b` keeps `radius` from every wall.
    pub fn in_sight(&self, a: Vec2, b: Vec2, radius: f64) -> bool {
        self.walls.segment_keeps(a, b, radius)
    }
}
