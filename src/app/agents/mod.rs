//! The Agents panel: many units at once (multi-agent path finding) in the editor.
//!
//! [`Agents`] holds the team (each unit's start and goal, added by dragging with the Agents
//! tool or loaded from a Moving AI scenario), solves it in the background with the solver
//! chosen ([`worker::TeamWorker`]), re-plans as the map changes, and keeps the latest plan
//! with its independent check: the validator's summary, or every collision of a plan loaded
//! from a file. [`playback`] runs the plan's timeline, [`paint`] draws the units on the
//! canvas and [`panel`] is the panel itself.

pub mod actions;
pub mod paint;
pub mod panel;
pub mod playback;
pub mod worker;

use std::time::Duration;

use crate::grid::{Cell, Grid};
use crate::mapf::{
    self, Agent, Instance, MapfAlgorithm, MapfOutcome, MapfSettings, Moves, Plan, PlanError,
    PlanSummary, Proof,
};

use playback::Playback;
use worker::TeamWorker;

/// The most collisions of a loaded plan that are listed and marked.
pub const MAX_SHOWN_CONFLICTS: usize = 10_000;

/// Where a plan came from.
#[derive(Clone, Debug, PartialEq)]
pub enum PlanOrigin {
    /// A solver of the panel, with what it answered.
    Solver(MapfAlgorithm),
    /// A plan file, by its name.
    File(String),
}

/// The latest plan of the team, checked.
pub struct Solved {
    /// The instance planned: the map as it was and the team.
    pub instance: Instance,
    /// Where the plan came from.
    pub origin: PlanOrigin,
    /// The solver's outcome (for a loaded plan: its plan, proving nothing).
    pub outcome: MapfOutcome,
    /// The independent validator's summary, when the plan keeps every rule.
    pub summary: Option<PlanSummary>,
    /// What the validator found wrong, when it does not.
    pub fault: Option<PlanError>,
    /// Every collision of the plan (none for a solver's, which are checked).
    pub conflicts: Vec<PlanError>,
}

impl Solved {
    /// The plan, when there is one.
    pub fn plan(&self) -> Option<&Plan> {
        self.outcome.plan.as_ref()
    }

    /// The plan's last tick (0 without a plan).
    pub fn makespan(&self) -> usize {
        self.plan().map_or(0, Plan::makespan)
    }
}

/// The team and its plan.
pub struct Agents {
    /// The units: start and goal each.
    pub team: Vec<Agent>,
    /// The rule of moving.
    pub moves: Moves,
    /// The solver.
    pub algorithm: MapfAlgorithm,
    /// The solver's time limit, in seconds.
    pub time_limit: f64,
    /// The suboptimality weight of the bounded solvers.
    pub weight: f64,
    /// Whether the team is solved again after every change of the map or the team.
    pub live: bool,
    /// Whether LaCAM's first plan, once shown, is improved (LaCAM*) until the time limit or
    /// a proof of the least sum of loss.
    pub improve: bool,
    /// Whether the solve under way improves a plan already shown.
    pub improving: bool,
    /// How many units a scenario loads (its first lines).
    pub load_count: usize,
    /// The latest plan.
    pub solved: Option<Solved>,
    /// Whether the map, the team or the solver changed since the plan was made.
    pub stale: bool,
    /// What changed since the plan was made, as the panel says it ("The solver changed").
    pub stale_because: &'static str,
    /// The latest solver error, or the reason no plan was made.
    pub message: Option<String>,
    /// The timeline.
    pub playback: Playback,
    /// The unit whose path is shown in full.
    pub selected: Option<usize>,
    worker: TeamWorker,
}

impl Default for Agents {
    fn default() -> Self {
        Self {
            team: Vec::new(),
            moves: Moves::Four,
            algorithm: MapfAlgorithm::Lacam,
            time_limit: 10.0,
            weight: 1.2,
            live: true,
            improve: true,
            improving: false,
            load_count: 50,
            solved: None,
            stale: false,
            stale_because: MAP_OR_TEAM_CHANGED,
            message: None,
            playback: Playback::default(),
            selected: None,
            worker: TeamWorker::default(),
        }
    }
}

impl Agents {
    /// Adds a unit from `start` to `goal`; says why not when a cell is impassable or taken.
    pub fn add(&mut self, grid: &Grid, start: Cell, goal: Cell) -> Result<String, String> {
        for (what, cell) in [("start", start), ("goal", goal)] {
            if !grid.is_passable(cell) {
                return Err(format!(
                    "A unit's {what} cannot go on {cell}: it is impassable."
                ));
            }
        }
        if let Some(i) = self.team.iter().position(|a| a.start == start) {
            return Err(format!("Unit {} already starts on {start}.", i + 1));
        }
        if let Some(i) = self.team.iter().position(|a| a.goal == goal) {
            return Err(format!("Unit {} already ends on {goal}.", i + 1));
        }
        self.team.push(Agent { start, goal });
        self.team_changed(grid);
        Ok(format!(
            "Unit {} goes from {start} to {goal}.",
            self.team.len()
        ))
    }

    /// Removes unit `i`.
    pub fn remove(&mut self, grid: &Grid, i: usize) {
        if i < self.team.len() {
            self.team.remove(i);
            self.selected = None;
            self.team_changed(grid);
        }
    }

    /// Removes every unit and the plan.
    pub fn clear(&mut self) {
        self.worker.cancel();
        self.team.clear();
        self.solved = None;
        self.selected = None;
        self.stale = false;
        self.message = None;
        self.playback = Playback::default();
    }

    /// Takes the units of `instance` in place of the team.
    pub fn load(&mut self, grid: &Grid, instance: &Instance) {
        self.clear();
        self.team = instance.agents().to_vec();
        self.moves = instance.moves();
        self.team_changed(grid);
    }

    /// The team as an instance on `grid`, or why it is not one.
    pub fn instance(&self, grid: &Grid) -> Result<Instance, String> {
        Instance::new(grid.clone(), self.team.clone(), self.moves)
            .map_err(|e| unit_words(&e.numbered_from_one().to_string()))
    }

    /// The solver's settings: the first plan alone (the editor shows it, then improves it).
    pub fn settings(&self) -> MapfSettings {
        MapfSettings {
            anytime: false,
            time_limit: Duration::from_secs_f64(
                self.time_limit
                    .clamp(0.01, mapf::MAX_TIME_LIMIT.as_secs_f64()),
            ),
            weight: self.weight.clamp(1.0, mapf::MAX_WEIGHT),
            ..MapfSettings::default()
        }
    }

    /// Solves the team on `grid` in the background (cancelling a solve under way).
    pub fn solve(&mut self, grid: &Grid) {
        if self.team.is_empty() {
            self.worker.cancel();
            self.solved = None;
            self.message = None;
            return;
        }
        match self.instance(grid) {
            Ok(instance) => {
                self.message = None;
                self.improving = false;
                self.worker.start(instance, self.algorithm, self.settings());
            }
            Err(error) => {
                self.worker.cancel();
                self.message = Some(format!("The team cannot be planned: {error}."));
                self.stale = true;
            }
        }
    }

    /// Stops the solve under way.
    pub fn stop(&mut self) {
        self.worker.stop();
    }

    /// After a change of the team: plans again in live mode, else marks the plan stale.
    fn team_changed(&mut self, grid: &Grid) {
        self.stale = self.solved.is_some();
        self.stale_because = MAP_OR_TEAM_CHANGED;
        if self.live {
            self.solve(grid);
        }
    }

    /// After an edit of the map: plans again in live mode, else marks the plan stale.
    pub fn map_edited(&mut self, grid: &Grid) {
        if self.team.is_empty() {
            return;
        }
        self.team_changed(grid);
    }

    /// After another map was opened: the team belongs to the old one, so it goes.
    pub fn map_replaced(&mut self) {
        self.clear();
    }

    /// Takes the newest answer of the background solver; returns what the status bar should
    /// say of it.
    pub fn poll(&mut self, ctx: &egui::Context) -> Option<(String, bool)> {
        self.worker.set_context(ctx);
        let answer = self.worker.poll()?;
        Some(self.take(answer))
    }

    /// Waits up to `timeout` for the background solver (for tests and scripts); returns what
    /// the status bar should say.
    pub fn wait(&mut self, timeout: Duration) -> Option<(String, bool)> {
        let answer = self.worker.wait(timeout)?;
        Some(self.take(answer))
    }

    fn take(&mut self, answer: worker::Answer) -> (String, bool) {
        self.improving = false;
        let outcome = match answer.outcome {
            Ok(outcome) => outcome,
            Err(error) => {
                self.message = Some(error.clone());
                return (format!("The team was not planned: {error}"), true);
            }
        };
        let name = answer.algorithm.info().title;
        let said = match outcome.proof {
            proof if proof.has_plan() => {
                let soc = outcome.summary.as_ref().map_or(0.0, |s| s.sum_of_costs);
                (
                    format!(
                        "{name} planned {} units: sum of costs {soc:.1} ({}) in {:.2} s.",
                        answer.instance.agents().len(),
                        proof_text(proof),
                        outcome.time.as_secs_f64()
                    ),
                    false,
                )
            }
            proof => match outcome.proved_bound {
                Some(bound) => (
                    format!(
                        "{name}: {}; every plan costs at least {bound:.1}.",
                        proof_text(proof)
                    ),
                    true,
                ),
                None => (format!("{name}: {}.", proof_text(proof)), true),
            },
        };
        if !outcome.proof.has_plan() {
            if answer.anytime {
                // Improving was stopped before it bettered the plan shown: that plan stands.
                return (format!("{name}: the plan shown stands."), false);
            }
            self.message = Some(said.0.clone());
            // A stopped or failed solve keeps the plan shown before, marked stale.
            self.stale = self.solved.is_some();
            return said;
        }
        self.message = None;
        let summary = outcome.summary.clone();
        let restart = self
            .solved
            .as_ref()
            .is_none_or(|s| s.makespan() < self.playback.whole_tick());
        let improve = self.improve
            && !answer.anytime
            && answer.algorithm == MapfAlgorithm::Lacam
            && outcome.proof != Proof::Optimal;
        if improve {
            let settings = MapfSettings {
                anytime: true,
                ..self.settings()
            };
            self.worker
                .start(answer.instance.clone(), answer.algorithm, settings);
            self.improving = true;
        }
        self.solved = Some(Solved {
            instance: answer.instance,
            origin: PlanOrigin::Solver(answer.algorithm),
            outcome,
            summary,
            fault: None,
            conflicts: Vec::new(),
        });
        self.stale = false;
        if restart {
            self.playback.tick = 0.0;
        }
        if self.selected.is_some_and(|i| i >= self.team.len()) {
            self.selected = None;
        }
        said
    }

    /// Shows a plan read from a file, for the team (or, when the team has another number of
    /// units, for the units the plan itself starts and ends with), checked by the validator and with every collision
    /// listed. Returns what the status bar should say.
    pub fn show_plan(&mut self, grid: &Grid, plan: Plan, name: &str) -> Result<String, String> {
        if plan.paths.iter().any(Vec::is_empty) {
            return Err(format!("{name}: a unit of the plan has no cells."));
        }
        let team = if self.team.len() == plan.paths.len() {
            self.team.clone()
        } else {
            plan.paths
                .iter()
                .map(|p| Agent {
                    start: p[0],
                    goal: p[p.len() - 1],
                })
                .collect()
        };
        // The team and the plan shown change only once the plan fits the map.
        // A plan with diagonal steps was made under the eight-neighbour rule.
        let diagonal = plan
            .paths
            .iter()
            .any(|p| p.windows(2).any(|w| w[0].x != w[1].x && w[0].y != w[1].y));
        if diagonal {
            self.moves = Moves::EightNoCut;
        }
        let instance = Instance::new(grid.clone(), team, self.moves).map_err(|e| {
            let e = unit_words(&e.numbered_from_one().to_string());
            format!("{name} does not fit this map: {e}.")
        })?;
        self.worker.cancel();
        self.team = instance.agents().to_vec();
        let (summary, fault) = match mapf::validate(&instance, &plan) {
            Ok(summary) => (Some(summary), None),
            Err(fault) => (None, Some(fault)),
        };
        let conflicts = mapf::conflicts(&instance, &plan, MAX_SHOWN_CONFLICTS);
        let said = match (&summary, &fault) {
            (Some(s), _) => format!(
                "Loaded the plan of {} units from {name}: valid, sum of costs {:.1}, makespan {}.",
                instance.agents().len(),
                s.sum_of_costs,
                s.makespan
            ),
            (None, Some(fault)) => format!(
                "Loaded the plan from {name}: it breaks the rules ({} collisions): {}.",
                conflicts.len(),
                fault_text(fault)
            ),
            (None, None) => format!("Loaded the plan from {name}."),
        };
        let mut outcome = empty_outcome();
        outcome.lower_bound = mapf::lower_bound(&instance);
        outcome.summary = summary.clone();
        outcome.plan = Some(plan);
        self.solved = Some(Solved {
            instance,
            origin: PlanOrigin::File(name.to_owned()),
            outcome,
            summary,
            fault,
            conflicts,
        });
        self.stale = false;
        self.live = false;
        self.playback = Playback::default();
        self.selected = None;
        Ok(said)
    }

    /// Whether a solve is under way, with the nodes expanded and the time so far.
    pub fn progress(&self) -> Option<(u64, Duration)> {
        self.worker.progress()
    }

    /// Moves the timeline on by `dt` seconds; returns whether it wants another frame.
    pub fn advance(&mut self, dt: f32) -> bool {
        let makespan = self.solved.as_ref().map_or(0, Solved::makespan);
        self.playback.advance(dt, makespan)
    }

    /// The unit drawn on `cell` at the tick shown, or else the one starting or ending there.
    pub fn unit_at(&self, cell: Cell) -> Option<usize> {
        let t = self.playback.whole_tick();
        let shown = self.solved.as_ref().and_then(|s| {
            let plan = s.plan()?;
            (0..plan.paths.len()).find(|&i| playback::cell_at(&plan.paths[i], t) == Some(cell))
        });
        shown.or_else(|| {
            self.team
                .iter()
                .position(|a| a.start == cell || a.goal == cell)
        })
    }
}

/// Why a plan is stale after an edit of the map or the team.
pub const MAP_OR_TEAM_CHANGED: &str = "The map or the team changed";
/// Why a plan is stale after another solver was chosen.
pub const SOLVER_CHANGED: &str = "The solver changed";
/// Why a plan is stale after a change of the solver's settings.
pub const SETTINGS_CHANGED: &str = "The solver's settings changed";

/// A validator's fault as the editor says it: of units counted from 1, as its list numbers
/// them (the validator and plan files count agents from 0).
pub fn fault_text(fault: &PlanError) -> String {
    unit_words(&fault.numbered_from_one().to_string())
}

/// A core message about agents, in the editor's words: units.
fn unit_words(text: &str) -> String {
    text.replace("agent", "unit")
}

/// What a proof means, in words.
pub fn proof_text(proof: Proof) -> String {
    match proof {
        Proof::Optimal => "proven optimal".to_owned(),
        Proof::OptimalLoss => "optimal in sum of loss".to_owned(),
        Proof::Bounded(w) => format!("within {w} × optimal"),
        Proof::Feasible => "valid plan (no bound on its cost)".to_owned(),
        Proof::NoSolution => "no solution: proven unsolvable".to_owned(),
        Proof::TimedOut => "the time limit passed before a plan was found".to_owned(),
        Proof::Cancelled => "stopped before a plan was found".to_owned(),
        Proof::GaveUp => "gave up without a plan (the solver is not complete)".to_owned(),
    }
}

/// An outcome with nothing in it yet.
fn empty_outcome() -> MapfOutcome {
    MapfOutcome {
        plan: None,
        proof: Proof::Feasible,
        stopped: crate::mapf::StopReason::PlanFound,
        summary: None,
        lower_bound: 0.0,
        proved_bound: None,
        time: Duration::ZERO,
        first_plan_time: None,
        expanded: 0,
    }
}
