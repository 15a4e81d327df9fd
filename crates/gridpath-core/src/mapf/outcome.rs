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
}

impl Default for MapfSettings {
    fn default() -> Self {
        Self {
            time_limit: Duration::from_secs(10),
            anytime: true,
            weight: 1.2,
            window: 16,
            seed: 0,
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

/// What a solver answers.
#[derive(Clone, Debug, PartialEq)]
pub struct MapfOutcome {
    /// The plan, when one was found (the best one, for an anytime solver).
    pub plan: Option<Plan>,
    /// What the solver proved.
    pub proof: Proof,
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
            summary: None,
            lower_bound: 0.0,
            proved_bound: None,
            time: Duration::default(),
            first_plan_time: None,
            expanded: 0,
        }
    }
}

/// A solver's clock and stop conditions.
pub(crate) struct Budget<'a> {
    started: Instant,
    limit: Duration,
    control: &'a SearchControl,
    /// Why it stopped, once it has.
    stopped: Cell<Option<Proof>>,
}

impl<'a> Budget<'a> {
    /// A budget starting now.
    pub(crate) fn new(limit: Duration, control: &'a SearchControl) -> Self {
        Self {
            started: Instant::now(),
            limit,
            control,
            stopped: Cell::new(None),
        }
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
            } else if self.started.elapsed() >= self.limit {
                self.stopped.set(Some(Proof::TimedOut));
            }
        }
        self.stopped.get().is_some()
    }

    /// Why the solver stopped, if it did.
    pub(crate) fn stopped(&self) -> Option<Proof> {
        self.stopped.get()
    }
}
