//! Many agents at once: multi-agent path finding (MAPF) on the grid.
//!
//! An [`Instance`] is a map, agents with starts and goals, and the rule of moving ([`Moves`]:
//! the benchmark's four neighbours, or eight without corner cutting); see [`model`] for the
//! conflicts and for how moves and waits are priced on weighted terrain. A solver answers
//! with a timed [`Plan`] and what it proved ([`Proof`]); [`validate`], written apart from
//! every solver, checks a plan and reports its first fault. The solvers are listed in
//! [`MAPF_ALGORITHMS`] as the single-agent searches are in
//! [`ALGORITHMS`](crate::search::ALGORITHMS); [`solve`] runs one, with a time limit and a
//! [`SearchControl`] another thread may cancel (it also publishes the nodes expanded so far).
//!
//! ```
//! use gridpath_core::grid::{Cell, Grid};
//! use gridpath_core::mapf::{self, Agent, Instance, MapfAlgorithm, MapfSettings, Moves, Proof};
//! use gridpath_core::search::SearchControl;
//!
//! // Two agents swap ends of a corridor with a siding.
//! let grid = Grid::from_ascii(&["....", "#.##"]).expect("a valid map");
//! let agents = vec![
//!     Agent { start: Cell::new(0, 0), goal: Cell::new(3, 0) },
//!     Agent { start: Cell::new(3, 0), goal: Cell::new(0, 0) },
//! ];
//! let instance = Instance::new(grid, agents, Moves::Four).expect("a valid instance");
//! let outcome = mapf::solve(&instance, MapfAlgorithm::Lacam, &MapfSettings::default(),
//!     &SearchControl::new()).expect("valid settings");
//! assert!(outcome.proof.has_plan());
//! let summary = outcome.summary.expect("a checked plan");
//! assert!(summary.sum_of_costs >= outcome.lower_bound);
//! ```

mod agent_rules;
mod algorithms;
mod cbs;
mod claims;
mod conflicts;
mod constraint;
mod dependency;
mod ecbs;
mod eecbs;
mod graph;
mod lacam;
mod mdd;
pub mod model;
mod outcome;
mod pibt;
mod plan;
mod plan_export;
mod plan_file;
mod scatter;
mod scenario;
mod setup;
mod space_time;
#[cfg(test)]
mod stop_tests;
mod symmetry;
#[cfg(test)]
mod tests;
mod validate;
mod whca;

use std::time::{Duration, Instant};

pub use algorithms::{MAPF_ALGORITHMS, MapfAlgorithm, MapfAlgorithmInfo, MapfGuarantee};
pub use cbs::CBS_MAX_CELLS;
pub use claims::{Claim, ClaimVerdict, PROOF_TIME_LIMIT, check_claims, first_false};
pub use lacam::LACAM_MAX_CELLS;
pub use model::{Agent, Instance, InstanceError, Moves};
pub use outcome::{MapfOutcome, MapfSettings, Proof, StopReason};
pub use pibt::{PIBT_MAX_CELLS, PIBT_TICKS_PER_CELL};
pub use plan::Plan;
pub use plan_export::{AgentExport, PlanExport, PlanSource, WorldPlan};
pub use plan_file::{
    Header, PLAN_MAX_CELLS, PlanFileError, parse_plan, parse_plan_file, plan_header, write_plan,
};
pub use scenario::{
    RandomInstanceError, ScenarioError, instance_from_queries, random_instance, read_instance,
};
pub use validate::{PlanError, PlanSummary, conflicts, validate};
pub use whca::{WHCA_MAX_CELLS, WHCA_TICKS_PER_CELL};

use crate::search::SearchControl;
use graph::{Distances, MoveGraph};

/// The longest time limit a solver accepts: one day.
pub const MAX_TIME_LIMIT: Duration = Duration::from_secs(86_400);
/// The largest suboptimality weight accepted.
pub const MAX_WEIGHT: f64 = 100.0;
/// The largest window of windowed cooperative A*.
pub const MAX_WINDOW: u32 = 4096;

/// Why a solver was not run, or what it answered is wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MapfError {
    /// A setting outside its range.
    #[error("{0}")]
    Settings(String),
    /// The solver's plan failed the independent check: a bug in the solver.
    #[error("{solver} returned a plan that breaks the rules: {error}")]
    InvalidPlan {
        /// The solver.
        solver: &'static str,
        /// The first fault.
        error: PlanError,
    },
    /// The agents' distance tables would take more than [`MAPF_TABLE_BUDGET`].
    #[error(
        "{agents} agents on a map of {cells} cells need {} of distance tables (one per agent), \
         more than the {} gridpath allows: use fewer agents or a smaller map",
        gib(*needed),
        gib(MAPF_TABLE_BUDGET)
    )]
    TooMuchMemory {
        /// The agents.
        agents: usize,
        /// The map's cells.
        cells: usize,
        /// The bytes the tables would take.
        needed: u64,
    },
}

/// Bytes as GiB with two decimals.
fn gib(bytes: u64) -> String {
    format!("{:.2} GiB", bytes as f64 / f64::from(1u32 << 30))
}

impl MapfSettings {
    /// Checks every setting against its documented range.
    pub fn check(&self) -> Result<(), MapfError> {
        if self.time_limit.is_zero() || self.time_limit > MAX_TIME_LIMIT {
            return Err(MapfError::Settings(format!(
                "the time limit must be above 0 and at most {} s, got {:?}",
                MAX_TIME_LIMIT.as_secs(),
                self.time_limit
            )));
        }
        if !(self.weight.is_finite() && (1.0..=MAX_WEIGHT).contains(&self.weight)) {
            return Err(MapfError::Settings(format!(
                "the weight must be between 1 and {MAX_WEIGHT}, got {}",
                self.weight
            )));
        }
        if !(1..=MAX_WINDOW).contains(&self.window) {
            return Err(MapfError::Settings(format!(
                "the window must be between 1 and {MAX_WINDOW} ticks, got {}",
                self.window
            )));
        }
        Ok(())
    }
}

/// The sum over agents of each one's cheapest cost to its goal alone, ignoring the others: no
/// plan costs less. Infinite when some agent cannot reach its goal at all.
pub fn lower_bound(instance: &Instance) -> f64 {
    let graph = MoveGraph::new(instance);
    let mut distances = Distances::for_goals_of(instance);
    instance
        .agents()
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let d = distances.get(&graph, i, graph.vertex(a.start));
            distances.forget(i);
            d
        })
        .sum()
}

/// The most bytes the agents' distance tables may take together: 4 GiB. Every solver keeps
/// one table per agent (2 bytes a cell on maps of one price under the four-neighbour rule,
/// 8⅛ otherwise); an instance whose tables would pass this is refused before any work
/// ([`MapfError::TooMuchMemory`]).
pub const MAPF_TABLE_BUDGET: u64 = 4 << 30;

/// The bytes the agents' distance tables of an instance take at most.
pub fn table_memory(instance: &Instance) -> u64 {
    let grid = instance.grid();
    let costs = (0..grid.len()).filter_map(|i| grid.cost(grid.cell_at(i)));
    let per_cell = graph::table_bytes_per_cell(graph::one_price(instance.moves(), costs));
    (instance.agents().len() as f64 * grid.len() as f64 * per_cell).ceil() as u64
}

/// Runs a solver on an instance, checks its plan with [`validate`] and fills in the summary
/// and the lower bound. The time limit counts from the call; see [`solve_since`].
pub fn solve(
    instance: &Instance,
    algorithm: MapfAlgorithm,
    settings: &MapfSettings,
    control: &SearchControl,
) -> Result<MapfOutcome, MapfError> {
    solve_since(Instant::now(), instance, algorithm, settings, control)
}

/// [`solve`] with the time limit counted from `started` (before the instance was read, say),
/// so that reading it, the lower bound and the search together keep to the limit; the
/// independent check of the plan afterwards is not counted. The outcome's time is the time
/// since `started`. An instance whose distance tables would pass [`MAPF_TABLE_BUDGET`] is
/// refused before any work.
pub fn solve_since(
    started: Instant,
    instance: &Instance,
    algorithm: MapfAlgorithm,
    settings: &MapfSettings,
    control: &SearchControl,
) -> Result<MapfOutcome, MapfError> {
    settings.check()?;
    let needed = table_memory(instance);
    if needed > MAPF_TABLE_BUDGET {
        return Err(MapfError::TooMuchMemory {
            agents: instance.agents().len(),
            cells: instance.grid().len(),
            needed,
        });
    }
    let info = algorithm.info();
    // The lower bound fills each agent's table as far as its start; the solver goes on from
    // there instead of searching the same cells again.
    let mut distances = Distances::for_goals_of(instance);
    // Filling the tables can take seconds for thousands of agents: it looks at the clock and
    // the control between agents.
    let stop = || control.is_cancelled() || started.elapsed() >= settings.time_limit;
    let (lower_bound, complete) = distances.sum_from_starts(instance, &stop);
    let remaining = settings.time_limit.saturating_sub(started.elapsed());
    let mut outcome = if control.is_cancelled() {
        MapfOutcome::without_plan(Proof::Cancelled)
    } else if !complete || remaining.is_zero() {
        MapfOutcome::without_plan(Proof::TimedOut)
    } else {
        let settings = MapfSettings {
            time_limit: remaining,
            ..settings.clone()
        };
        (info.run)(instance, &settings, control, distances)
    };
    outcome.lower_bound = lower_bound;
    outcome.time = started.elapsed();
    if let Some(plan) = &outcome.plan {
        let summary = validate(instance, plan).map_err(|error| MapfError::InvalidPlan {
            solver: info.name,
            error,
        })?;
        outcome.summary = Some(summary);
    }
    Ok(outcome)
}
