//! The plan export: a multi-agent plan as one JSON document, with the world frame when the map
//! has one — what the editor's File → Export agents' plan writes, for a game or a robot fleet
//! to replay.
//!
//! ```json
//! {
//!   "format": "gridpath-mapf-plan",
//!   "version": 1,
//!   "units": "cells: [x, y] integers, column and row from the top-left cell; ...",
//!   "map": { "name": "warehouse", "width": 161, "height": 63 },
//!   "moves": "4",
//!   "algorithm": "lacam",
//!   "proof": "feasible",
//!   "sum_of_costs": 1423.0, "makespan": 87, "lower_bound": 1390.0,
//!   "agents": [
//!     { "start": [3, 4], "goal": [40, 12], "arrival": 44, "cost": 46.0,
//!       "cells": [[3, 4], [4, 4], [4, 4], ...] },
//!     ...
//!   ],
//!   "world": {
//!     "frame": "map", "resolution": 0.05, "origin": [-10.0, -10.0, 0.0], "y_axis": "up",
//!     "tick": "one entry per tick, the cell centre",
//!     "agents": [[[-9.825, -9.775], ...], ...]
//!   }
//! }
//! ```
//!
//! - `cells[t]` is the agent's cell at tick t, from tick 0 (its start) to the plan's last tick:
//!   every agent's list has the same length, `makespan + 1` of the plan as exported, with an
//!   agent that arrived early repeated on its goal. A repeated cell is a wait.
//! - `arrival` is the tick from which the agent stays on its goal, and `cost` what its moves
//!   and waits up to then cost (a step costs the mean of the two cells' terrain costs, times
//!   √2 on a diagonal; a wait costs the cell's cost); `sum_of_costs` adds them up and
//!   `lower_bound` is the sum of the agents' single-agent distances. They are `null` for a plan
//!   that breaks the rules (an imported plan with collisions).
//! - `world` is present (else `null`) when the map has a world frame; its points are the cell
//!   centres in `map_server`'s convention, as in the path export.

use serde::Serialize;

use super::model::{Instance, Moves};
use super::plan::Plan;
use super::validate::PlanSummary;
use crate::format::path_export::{MapSummary, UNITS, world_point, write_compact};
use crate::grid::{Cell, Map};

/// The plan export document (see the [module](self) for its schema).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlanExport {
    /// Always `"gridpath-mapf-plan"`.
    pub format: &'static str,
    /// The schema's version, 1.
    pub version: u32,
    /// How cells and points are written.
    pub units: &'static str,
    /// The map planned on.
    pub map: MapSummary,
    /// The rule of moving: `"4"` or `"8"` (eight, no corner cutting).
    pub moves: &'static str,
    /// The solver's name, as the command line takes it.
    pub algorithm: String,
    /// What the solver proved of the plan (`optimal`, `bounded`, `feasible`).
    pub proof: String,
    /// The sum of the agents' costs; `None` for a plan that breaks the rules.
    pub sum_of_costs: Option<f64>,
    /// The last arrival; `None` for a plan that breaks the rules.
    pub makespan: Option<usize>,
    /// The sum of the agents' single-agent distances.
    pub lower_bound: f64,
    /// Each agent's ends and cells.
    pub agents: Vec<AgentExport>,
    /// The plan in the map's world frame; `None` (`null`) when the map has none.
    pub world: Option<WorldPlan>,
}

/// One agent of the plan.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentExport {
    /// Its start, `[x, y]`.
    pub start: [u32; 2],
    /// Its goal, `[x, y]`.
    pub goal: [u32; 2],
    /// The tick from which it stays on its goal.
    pub arrival: Option<usize>,
    /// What its moves and waits up to its arrival cost.
    pub cost: Option<f64>,
    /// Its cell at every tick.
    pub cells: Vec<[u32; 2]>,
}

/// The plan in a map's world frame (ROS `map` frame: metres, y up).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WorldPlan {
    /// The frame's name, `"map"`.
    pub frame: &'static str,
    /// Metres per cell.
    pub resolution: f64,
    /// The pose of the map's lower-left corner, `[x, y, yaw]`.
    pub origin: [f64; 3],
    /// Always `"up"`.
    pub y_axis: &'static str,
    /// What one entry of an agent's list is.
    pub tick: &'static str,
    /// Each agent's cell centres, tick by tick, `[x, y]` in metres.
    pub agents: Vec<Vec<[f64; 2]>>,
}

/// What the export says of the solver: its name and what it proved.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanSource {
    /// The solver's name, as the command line takes it.
    pub algorithm: String,
    /// What it proved of the plan.
    pub proof: String,
    /// The sum of the agents' single-agent distances.
    pub lower_bound: f64,
}

impl PlanExport {
    /// The export of `plan` for `instance` on `map` (whose name and world frame it takes;
    /// `instance` is planned on `map`'s grid). `summary` is the validator's verdict, `None` for
    /// a plan that breaks the rules.
    ///
    /// ```
    /// use gridpath_core::grid::{Cell, GeoReference, Grid, Map};
    /// use gridpath_core::mapf::{Agent, Instance, Moves, Plan, PlanExport, PlanSource, validate};
    ///
    /// let mut map = Map::new("corridor", Grid::from_ascii(&["..."]).expect("a valid map"));
    /// map.metadata = Some(GeoReference::new(0.5, [0.0, 0.0, 0.0]).expect("a world frame"));
    /// let agents = vec![Agent { start: Cell::new(0, 0), goal: Cell::new(2, 0) }];
    /// let instance = Instance::new(map.grid.clone(), agents, Moves::Four).expect("valid");
    /// let plan = Plan { paths: vec![vec![Cell::new(0, 0), Cell::new(1, 0), Cell::new(2, 0)]] };
    /// let summary = validate(&instance, &plan).ok();
    /// let source = PlanSource { algorithm: "lacam".into(), proof: "feasible".into(), lower_bound: 2.0 };
    /// let export = PlanExport::new(&map, &instance, &plan, summary.as_ref(), &source);
    /// assert_eq!(export.sum_of_costs, Some(2.0));
    /// let world = export.world.expect("the map has a world frame");
    /// assert_eq!(world.agents[0][2], [1.25, 0.25]);
    /// ```
    pub fn new(
        map: &Map,
        instance: &Instance,
        plan: &Plan,
        summary: Option<&PlanSummary>,
        source: &PlanSource,
    ) -> PlanExport {
        let plan = plan.normalised();
        let xy = |c: Cell| [c.x, c.y];
        let agents = instance
            .agents()
            .iter()
            .zip(&plan.paths)
            .enumerate()
            .map(|(i, (agent, path))| AgentExport {
                start: xy(agent.start),
                goal: xy(agent.goal),
                arrival: summary.and_then(|s| s.arrivals.get(i).copied()),
                cost: summary.and_then(|s| s.costs.get(i).copied()),
                cells: path.iter().map(|&c| xy(c)).collect(),
            })
            .collect();
        let height = map.grid.height();
        let world = map.metadata.as_ref().map(|geo| WorldPlan {
            frame: "map",
            resolution: geo.resolution,
            origin: geo.origin,
            y_axis: "up",
            tick: "one entry per tick, the cell centre",
            agents: plan
                .paths
                .iter()
                .map(|path| {
                    path.iter()
                        .map(|c| {
                            world_point(
                                geo,
                                f64::from(height),
                                f64::from(c.x) + 0.5,
                                f64::from(c.y) + 0.5,
                            )
                        })
                        .collect()
                })
                .collect(),
        });
        PlanExport {
            format: "gridpath-mapf-plan",
            version: 1,
            units: UNITS,
            map: MapSummary::of(map),
            moves: match instance.moves() {
                Moves::Four => "4",
                Moves::EightNoCut => "8",
            },
            algorithm: source.algorithm.clone(),
            proof: source.proof.clone(),
            sum_of_costs: summary.map(|s| s.sum_of_costs),
            makespan: summary.map(|s| s.makespan),
            lower_bound: source.lower_bound,
            agents,
            world,
        }
    }

    /// The document as JSON, each array of numbers on one line: a plan of T ticks takes about
    /// T lines per agent.
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        let value = serde_json::to_value(self)?;
        let mut out = Vec::new();
        write_compact(&mut out, &value, 0).map_err(serde_json::Error::io)?;
        Ok(String::from_utf8(out).unwrap_or_default())
    }
}
