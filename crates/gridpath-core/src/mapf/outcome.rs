//! What a solver is asked (settings, a time limit, a control to stop it) and what it answers:
//! a plan if it found one, and what it proved about it.

use std::cell::Cell;
use std::fmt;
use std::time::{Duration, Instant};

use super::plan::Plan;
use super::validate::PlanSummary;
use crate::search::SearchControl;

/// The settings every solver reads (each reads the ones that concern it).
#[derive(Clone, Debug, PartialEq)]
pub struct MapfSettings {
    /// The time after which a solver stops and answers with what it has.
    pub time_limit: Duration,
    /// Whether LaCAM goes on improving its plan after the first one (LaCAM*) until it proves
    /// it optimal or runs out of time; without it, LaCAM answers with its first plan.
    pub anytime: bool,
    /// The suboptimality bound of the bounded-suboptimal solvers, at least 1.
    pub weight: f64,
    /// The window of windowed cooperative A*, in ticks (at least 1).
    pub window: u32,
    /// The seed of the solvers' random choices (ties, orders), so a run repeats.
    pub seed: u64,
    /// Whether LaCAM scatters the agents' paths before its search (LaCAM3's space
    /// utilisation: PIBT tries the next cell of each agent's scattered path first).
    pub scatter: bool,
}

impl Default for MapfSettings {
    fn default() -> Self {
        Self {
            time_limit: Duration::from_secs(10),
            anytime: true,
            weight: 1.2,
            window: 16,
            seed: 0,
            scatter: true,
        }
    }
}

/// What a solver proved when it stopped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Proof {
    /// The plan has the least sum of costs of all plans.
    Optimal,
    /// The plan has the least *sum of loss* (LaCAM*'s objective: every tick an agent is not
    /// resting on its goal costs its price, so an agent's waits on its goal before it leaves
    /// again are free); its sum of costs can exceed the optimum by those waits.
    OptimalLoss,
    /// The plan's sum of costs is at most this factor times the optimum.
    Bounded(f64),
    /// A valid plan, with no bound on its cost.
    Feasible,
    /// No plan exists: the solver searched every possibility.
    NoSolution,
    /// The time limit passed before a plan was found.
    TimedOut,
    /// The control was cancelled before a plan was found.
    Cancelled,
    /// An incomplete solver stopped without a plan, proving nothing (PIBT, cooperative A*).
    GaveUp,
}

impl Proof {
    /// Whether the answer comes with a plan.
    pub fn has_plan(self) -> bool {
        matches!(
            self,
            Proof::Optimal | Proof::OptimalLoss | Proof::Bounded(_) | Proof::Feasible
        )
    }

    /// The name in files and JSON: `optimal`, `optimal-loss`, `bounded`, `feasible`,
    /// `no-solution`, `timed-out`, `cancelled`, `gave-up`.
    pub fn name(self) -> &'static str {
        match self {
            Proof::Optimal => "optimal",
            Proof::OptimalLoss => "optimal-loss",
            Proof::Bounded(_) => "bounded",
            Proof::Feasible => "feasible",
            Proof::NoSolution => "no-solution",
            Proof::TimedOut => "timed-out",
            Proof::Cancelled => "cancelled",
            Proof::GaveUp => "gave-up",
        }
    }
}

impl fmt::Display for Proof {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Proof::Optimal => f.write_str("optimal sum of costs"),
            Proof::OptimalLoss => f.write_str("optimal sum of loss"),
            Proof::Bounded(w) => write!(f, "within {w} × the optimal sum of costs"),
            Proof::Feasible => f.write_str("feasible, no bound on the cost"),
            Proof::NoSolution => f.write_str("no solution exists"),
            Proof::TimedOut => f.write_str("timed out before a plan was found"),
            Proof::Cancelled => f.write_str("cancelled before a plan was found"),
            Proof::GaveUp => f.write_str("gave up without a plan (the solver is incomplete)"),
        }
    }
}

/// Why a solver stopped: beside [`Proof`] (what it proved), what ended the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The time limit passed (with or without a plan).
    TimeLimit,
    /// The solver's memory limit was reached: LaCAM's [`LACAM_MAX_CELLS`](super::LACAM_MAX_CELLS)
    /// agent entries, or the conflict-based searches' [`CBS_MAX_CELLS`](super::CBS_MAX_CELLS).
    MemoryLimit,
    /// The plan was proved optimal (in sum of costs, or LaCAM*'s sum of loss).
    ProvedOptimal,
    /// The plan was proved within the solver's weight of the optimum.
    ProvedBound,
    /// A solver that answers with its first plan found one (PIBT, WHCA*, LaCAM without
    /// anytime).
    PlanFound,
    /// Everything was searched and no plan exists.
    SearchedEverything,
    /// The control was cancelled.
    Cancelled,
    /// An incomplete solver gave up (its ticks ran out, or it could not go on).
    GaveUp,
}

impl StopReason {
    /// The stable name in files and JSON: `time-limit`, `memory-limit`, `proved-optimal`,
    /// `proved-bound`, `plan-found`, `searched-everything`, `cancelled`, `gave-up`.
    pub fn name(self) -> &'static str {
        match self {
            StopReason::TimeLimit => "time-limit",
            StopReason::MemoryLimit => "memory-limit",
            StopReason::ProvedOptimal => "proved-optimal",
            StopReason::ProvedBound => "proved-bound",
            StopReason::PlanFound => "plan-found",
            StopReason::SearchedEverything => "searched-everything",
            StopReason::Cancelled => "cancelled",
            StopReason::GaveUp => "gave-up",
        }
    }

    /// The reason that goes with a proof when nothing else ended the run.
    pub(crate) fn of_proof(proof: Proof) -> Self {
        match proof {
            Proof::Optimal | Proof::OptimalLoss => StopReason::ProvedOptimal,
            Proof::Bounded(_) => StopReason::ProvedBound,
            Proof::Feasible => StopReason::PlanFound,
            Proof::NoSolution => StopReason::SearchedEverything,
            Proof::TimedOut => StopReason::TimeLimit,
            Proof::Cancelled => StopReason::Cancelled,
            Proof::GaveUp => StopReason::GaveUp,
        }
    }

    /// One line for people, with the run's time limit and nodes expanded: `stopped: time
    /// limit 10 s reached`, `stopped: memory limit reached after 1234 nodes`, `stopped:
    /// proved optimal`.
    pub fn describe(self, time_limit: Duration, expanded: u64) -> String {
        let what = match self {
            StopReason::TimeLimit => {
                format!("time limit {} s reached", time_limit.as_secs_f64())
            }
            StopReason::MemoryLimit => format!("memory limit reached after {expanded} nodes"),
            StopReason::ProvedOptimal => "proved optimal".to_owned(),
            StopReason::ProvedBound => "proved within the bound".to_owned(),
            StopReason::PlanFound => "plan found".to_owned(),
            StopReason::SearchedEverything => "searched everything, no plan exists".to_owned(),
            StopReason::Cancelled => "cancelled".to_owned(),
            StopReason::GaveUp => "gave up (the solver is incomplete)".to_owned(),
        };
        format!("stopped: {what}")
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a solver answers.
#[derive(Clone, Debug, PartialEq)]
pub struct MapfOutcome {
    /// The plan, when one was found (the best one, for an anytime solver).
    pub plan: Option<Plan>,
    /// What the solver proved.
    pub proof: Proof,
    /// Why the solver stopped.
    pub stopped: StopReason,
    /// The plan's summary from the independent validator (filled in by [`solve`](super::solve)).
    pub summary: Option<PlanSummary>,
    /// The sum over agents of each one's cheapest cost alone: a lower bound on any plan's.
    pub lower_bound: f64,
    /// The least sum of costs the solver proved every plan needs when it stopped, where it
    /// proves more than `lower_bound` (conflict-based search: the least cost in its open
    /// list, the plan's own once optimal; ECBS and EECBS: the least lower bound in their open
    /// lists, so a bounded plan is within `sum_of_costs / proved_bound` of the optimum);
    /// `None` for the others.
    pub proved_bound: Option<f64>,
    /// How long the solver ran.
    pub time: Duration,
    /// When the first plan was found, from the start.
    pub first_plan_time: Option<Duration>,
    /// The nodes the solver expanded (configurations, constraint tree nodes, or ticks).
    pub expanded: u64,
}

impl MapfOutcome {
    /// An outcome with no plan yet, saying `proof` until the solver learns more.
    pub(crate) fn without_plan(proof: Proof) -> Self {
        Self {
            plan: None,
            proof,
            stopped: StopReason::of_proof(proof),
            summary: None,
            lower_bound: 0.0,
            proved_bound: None,
            time: Duration::default(),
            first_plan_time: None,
            expanded: 0,
        }
    }

    /// Ends a run: the time taken, and why it stopped — the budget's cancellation or time
    /// limit, else the memory limit when the solver reported it, else what its proof says.
    pub(crate) fn conclude(&mut self, budget: &Budget<'_>) {
        self.time = budget.elapsed();
        self.stopped = match budget.stopped() {
            Some(Proof::Cancelled) => StopReason::Cancelled,
            Some(_) => StopReason::TimeLimit,
            None if budget.memory_full.get() => StopReason::MemoryLimit,
            None => StopReason::of_proof(self.proof),
        };
    }
}

/// The time the work after a solver takes per agent-tick of its plan (checking it, writing
/// it, letting the memory go), measured on 1,000–2,000 agents: 150–400 ns.
pub(crate) const RESERVE_PER_CELL: Duration = Duration::from_nanos(250);

/// A solver's clock and stop conditions.
pub(crate) struct Budget<'a> {
    started: Instant,
    limit: Duration,
    control: &'a SearchControl,
    /// Why it stopped, once it has.
    stopped: Cell<Option<Proof>>,
    /// Whether the solver stopped at its memory limit.
    memory_full: Cell<bool>,
    /// The time kept back from the limit for the work after the solver: checking and
    /// writing its plan.
    reserve: Cell<Duration>,
}

impl<'a> Budget<'a> {
    /// A budget starting now.
    pub(crate) fn new(limit: Duration, control: &'a SearchControl) -> Self {
        Self {
            started: Instant::now(),
            limit,
            control,
            stopped: Cell::new(None),
            memory_full: Cell::new(false),
            reserve: Cell::new(Duration::ZERO),
        }
    }

    /// The time limit, counted from the start.
    pub(crate) fn limit(&self) -> Duration {
        self.limit
    }

    /// The time since the start.
    pub(crate) fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Publishes the progress and returns whether the solver must stop (cancelled or out of
    /// time); remembers which.
    pub(crate) fn exhausted(&self, expanded: u64) -> bool {
        if self.stopped.get().is_some() {
            return true;
        }
        if !self.control.checkpoint(expanded) {
            self.stopped.set(Some(Proof::Cancelled));
        }
        self.interrupted()
    }

    /// Whether the solver must stop (cancelled or out of time), without publishing progress:
    /// for the inner searches of a solver. Remembers which.
    pub(crate) fn interrupted(&self) -> bool {
        if self.stopped.get().is_none() {
            if self.control.is_cancelled() {
                self.stopped.set(Some(Proof::Cancelled));
            } else if self.started.elapsed() + self.reserve.get() >= self.limit {
                self.stopped.set(Some(Proof::TimedOut));
            }
        }
        self.stopped.get().is_some()
    }

    /// Keeps back the time the work after the solver takes on a plan of `cells` agent-ticks
    /// (the independent check, the plan file, letting the memory go): [`RESERVE_PER_CELL`]
    /// each, at most a fifth of the limit. An anytime solver calls it when it has a plan, so
    /// that the whole command keeps to the limit.
    pub(crate) fn reserve_for_plan(&self, cells: usize) {
        let reserve = RESERVE_PER_CELL.saturating_mul(cells.min(u32::MAX as usize) as u32);
        self.reserve.set(reserve.min(self.limit / 5));
    }

    /// Records that the solver stopped at its memory limit.
    pub(crate) fn memory_full(&self) {
        self.memory_full.set(true);
    }

    /// Why the solver stopped, if it did.
    pub(crate) fn stopped(&self) -> Option<Proof> {
        self.stopped.get()
    }
}
