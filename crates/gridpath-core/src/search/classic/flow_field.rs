//! A flow field: every cell's cost to one goal and its next step there, from one Dijkstra.
//!
//! Many units heading for one target need no search each: one Dijkstra from the goal over
//! the whole map gives every cell its cheapest cost to the goal and the direction of its first
//! step, and a unit anywhere follows the steps. The cost model is the searches' own, under the
//! field's diagonal rule; on a map with heights a step may cost more one way than the other,
//! so the Dijkstra from the goal prices each step in the direction a unit walks it.
//!
//! # JSON shape
//!
//! [`FlowField::to_json`] gives one object, and [`FlowField::write_json`] writes it as text
//! without building it in memory:
//!
//! ```text
//! {
//!   "width": 4, "height": 3,          // the map's size
//!   "goal": [3, 1],                   // the goal cell [x, y]
//!   "diagonal": "no-cut",             // the diagonal rule
//!   "costs": [4.24, 3.41, ...],       // width × height, row-major (index y · width + x):
//!                                     //   the cost to the goal, null when unreachable
//!   "next": [[1, 1], [1, 0], ...]     // the same order: the next step as [dx, dy],
//!                                     //   null at the goal and where unreachable
//! }
//! ```
//!
//! ```
//! use gridpath_core::grid::{Cell, Grid};
//! use gridpath_core::search::{Diagonal, FlowField, SearchGraph};
//!
//! let grid = Grid::from_ascii(&["....", ".##.", "...."]).expect("valid map");
//! let graph = SearchGraph::new(&grid, Diagonal::NoCut);
//! let field = FlowField::new(&graph, Cell::new(3, 1)).expect("goal on the map");
//! assert_eq!(field.cost(Cell::new(3, 0)), Some(1.0));
//! assert_eq!(field.next_step(Cell::new(3, 0)), Some(Cell::new(3, 1)));
//! let path = field.path_from(Cell::new(0, 1)).expect("reachable");
//! assert_eq!(path.last(), Some(&Cell::new(3, 1)));
//! ```

use std::io;

use serde::ser::{Serialize, SerializeStruct as _, Serializer};
use serde_json::Value;

use crate::grid::Cell;

use crate::search::frontier::heap::{Entry, Heap};
use crate::search::graph::{DX, DY, SearchGraph};
use crate::search::request::{Diagonal, SearchError};

/// The direction back along a step in direction `d`.
const OPPOSITE: [u8; 8] = [1, 0, 3, 2, 7, 6, 5, 4];
/// No next step: the goal itself, or a cell that cannot reach it.
const NO_STEP: u8 = u8::MAX;

/// Every cell's cost to one goal and its next step towards it.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowField {
    width: u32,
    height: u32,
    goal: Cell,
    diagonal: Diagonal,
    /// Cost to the goal per cell, row-major; infinite where unreachable.
    costs: Vec<f64>,
    /// Direction of the next step per cell, or [`NO_STEP`].
    next: Vec<u8>,
}

impl FlowField {
    /// Runs one Dijkstra from `goal` over the whole graph.
    ///
    /// Fails when the goal is off the map or on an impassable cell.
    pub fn new(graph: &SearchGraph, goal: Cell) -> Result<Self, SearchError> {
        Self::new_controlled(graph, goal, &crate::control::UNCONTROLLED)
    }

    /// Like [`FlowField::new`], watched and cancelled through `control`: a cancelled field
    /// returns [`SearchError::Cancelled`].
    pub fn new_controlled(
        graph: &SearchGraph,
        goal: Cell,
        control: &crate::search::SearchControl,
    ) -> Result<Self, SearchError> {
        Self::run(graph, goal, control, false)
    }

    /// Every cell's cost *from* `origin` (not to it), for questions like "what can the start
    /// reach, and at what cost"; the steps point back towards the origin. On a flat map this
    /// is [`FlowField::new_controlled`], since steps cost the same both ways.
    pub fn from_origin_controlled(
        graph: &SearchGraph,
        origin: Cell,
        control: &crate::search::SearchControl,
    ) -> Result<Self, SearchError> {
        Self::run(graph, origin, control, true)
    }

    /// One Dijkstra from `goal`; `outward` prices steps away from it, otherwise towards it.
    fn run(
        graph: &SearchGraph,
        goal: Cell,
        control: &crate::search::SearchControl,
        outward: bool,
    ) -> Result<Self, SearchError> {
        crate::search::outcome::check_cell(graph, "goal", goal)?;
        let target = graph.index(goal);
        let mut costs = vec![f64::INFINITY; graph.len()];
        let mut next = vec![NO_STEP; graph.len()];
        let mut closed = vec![false; graph.len()];
        let mut heap = Heap::default();
        costs[target] = 0.0;
        heap.push(Entry::new(0.0, 0.0, target as u32));
        let mut expanded = 0u64;
        while let Some(entry) = heap.pop() {
            let current = entry.cell() as usize;
            if closed[current] {
                continue;
            }
            closed[current] = true;
            expanded += 1;
            if control.should_stop(expanded) {
                return Err(SearchError::Cancelled);
            }
            let g = costs[current];
            let mut mask = graph.mask(current);
            while mask != 0 {
                let d = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let neighbour = (current as isize + graph.delta(d)) as usize;
                if closed[neighbour] {
                    continue;
                }
                let step = if outward {
                    graph.step_cost(current, neighbour, d)
                } else {
                    graph.step_cost_into(current, neighbour, d)
                };
                let ng = g + step;
                if ng < costs[neighbour] {
                    costs[neighbour] = ng;
                    next[neighbour] = OPPOSITE[d];
                    heap.push(Entry::new(ng, ng, neighbour as u32));
                }
            }
        }
        Ok(Self {
            width: graph.width(),
            height: graph.height(),
            goal,
            diagonal: graph.diagonal(),
            costs,
            next,
        })
    }

    /// The number of columns.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The number of rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The goal every step leads to.
    pub fn goal(&self) -> Cell {
        self.goal
    }

    /// The cheapest cost from `cell` to the goal; `None` when off the map or unreachable.
    pub fn cost(&self, cell: Cell) -> Option<f64> {
        let cost = self.costs[self.index(cell)?];
        cost.is_finite().then_some(cost)
    }

    /// The direction `[dx, dy]` of the first step from `cell`; `None` at the goal, off the
    /// map and where the goal cannot be reached.
    pub fn direction(&self, cell: Cell) -> Option<[i32; 2]> {
        let d = self.next[self.index(cell)?];
        (d != NO_STEP).then(|| [DX[usize::from(d)], DY[usize::from(d)]])
    }

    /// The cell the first step from `cell` leads to.
    pub fn next_step(&self, cell: Cell) -> Option<Cell> {
        let [dx, dy] = self.direction(cell)?;
        Some(Cell::new(
            cell.x.checked_add_signed(dx)?,
            cell.y.checked_add_signed(dy)?,
        ))
    }

    /// The path from `cell` to the goal, both included, by following the steps; `None` when
    /// the goal cannot be reached from `cell`.
    pub fn path_from(&self, cell: Cell) -> Option<Vec<Cell>> {
        self.cost(cell)?;
        let mut path = vec![cell];
        let mut here = cell;
        while here != self.goal {
            here = self.next_step(here)?;
            path.push(here);
        }
        Some(path)
    }

    /// The number of cells that can reach the goal, the goal included.
    pub fn reachable_count(&self) -> usize {
        self.costs.iter().filter(|c| c.is_finite()).count()
    }

    /// The largest finite cost to the goal.
    pub fn max_cost(&self) -> f64 {
        self.costs
            .iter()
            .copied()
            .filter(|c| c.is_finite())
            .fold(0.0, f64::max)
    }

    /// The field as JSON, in the shape the module documentation describes. For a large map,
    /// [`write_json`](Self::write_json) writes the same text without building it in memory.
    pub fn to_json(&self) -> Value {
        // Cannot fail: the shape has no map with keys other than strings.
        serde_json::to_value(FieldJson(self)).unwrap_or(Value::Null)
    }

    /// Writes the field as compact JSON to `out`, cell by cell, in the shape the module
    /// documentation describes: memory stays that of the field itself, whatever the map's
    /// size. Give it a buffered writer.
    pub fn write_json<W: io::Write>(&self, out: W) -> io::Result<()> {
        serde_json::to_writer(out, &FieldJson(self)).map_err(io::Error::from)
    }

    fn index(&self, cell: Cell) -> Option<usize> {
        (cell.x < self.width && cell.y < self.height)
            .then(|| cell.y as usize * self.width as usize + cell.x as usize)
    }
}

/// The JSON shape of a field, serialized straight from its arrays.
struct FieldJson<'a>(&'a FlowField);

impl Serialize for FieldJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let field = self.0;
        let mut object = serializer.serialize_struct("FlowField", 6)?;
        object.serialize_field("width", &field.width)?;
        object.serialize_field("height", &field.height)?;
        object.serialize_field("goal", &[field.goal.x, field.goal.y])?;
        object.serialize_field("diagonal", field.diagonal.name())?;
        object.serialize_field("costs", &Costs(&field.costs))?;
        object.serialize_field("next", &Steps(&field.next))?;
        object.end()
    }
}

/// Costs as a JSON array: `null` where unreachable.
struct Costs<'a>(&'a [f64]);

impl Serialize for Costs<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|&c| c.is_finite().then_some(c)))
    }
}

/// Next steps as a JSON array of `[dx, dy]`: `null` at the goal and where unreachable.
struct Steps<'a>(&'a [u8]);

impl Serialize for Steps<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(
            self.0
                .iter()
                .map(|&d| (d != NO_STEP).then(|| [DX[usize::from(d)], DY[usize::from(d)]])),
        )
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::grid::Grid;

    #[test]
    fn the_streamed_json_is_the_documented_object_in_the_documented_order() {
        let grid = Grid::from_ascii(&["..#.", "...."]).expect("valid map");
        let graph = SearchGraph::new(&grid, Diagonal::Never);
        let field = FlowField::new(&graph, Cell::new(0, 0)).expect("valid goal");
        let mut text = Vec::new();
        field.write_json(&mut text).expect("writes to memory");
        let text = String::from_utf8(text).expect("UTF-8");
        assert_eq!(
            text,
            r#"{"width":4,"height":2,"goal":[0,0],"diagonal":"never","costs":[0.0,1.0,null,5.0,1.0,2.0,3.0,4.0],"next":[null,[-1,0],null,[0,1],[0,-1],[0,-1],[-1,0],[-1,0]]}"#
        );
        let parsed: Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(parsed, field.to_json());
    }

    /// A writer that refuses after `room` bytes, as a pipe whose reader has gone.
    struct Closing {
        room: usize,
    }

    impl io::Write for Closing {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.room == 0 {
                return Err(io::ErrorKind::BrokenPipe.into());
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_writer_that_fails_stops_the_stream_with_its_own_error() {
        let grid = Grid::from_ascii(&["...."; 64]).expect("valid map");
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        let field = FlowField::new(&graph, Cell::new(0, 0)).expect("valid goal");
        let e = field.write_json(Closing { room: 100 }).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::BrokenPipe);
    }

    #[test]
    fn walls_make_cells_unreachable_and_json_says_null() {
        let grid = Grid::from_ascii(&["..#.", "..#."]).expect("valid map");
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        let field = FlowField::new(&graph, Cell::new(0, 0)).expect("valid goal");
        assert_eq!(field.cost(Cell::new(3, 0)), None);
        assert_eq!(field.path_from(Cell::new(3, 1)), None);
        assert_eq!(field.reachable_count(), 4);
        assert!(
            (field.cost(Cell::new(1, 1)).expect("reachable") - std::f64::consts::SQRT_2).abs()
                < 1e-12
        );
        let json = field.to_json();
        assert_eq!(json["costs"].as_array().map(Vec::len), Some(8));
        assert!(json["costs"][3].is_null());
        assert!(json["next"][0].is_null());
        assert_eq!(json["next"][1], json!([-1, 0]));
        assert_eq!(json["goal"], json!([0, 0]));
    }

    #[test]
    fn a_blocked_goal_is_refused() {
        let grid = Grid::from_ascii(&[".#"]).expect("valid map");
        let graph = SearchGraph::new(&grid, Diagonal::NoCut);
        assert!(matches!(
            FlowField::new(&graph, Cell::new(1, 0)),
            Err(SearchError::Blocked { .. })
        ));
        assert!(matches!(
            FlowField::new(&graph, Cell::new(5, 0)),
            Err(SearchError::OutOfBounds { .. })
        ));
    }
}
