//! What a plan file's header claims, held against what its plan does.
//!
//! A plan file (LaCAM's format, [`plan_file`](super::plan_file)) says things about itself in
//! its header: how many agents it moves, its sum of costs and makespan, their lower bounds,
//! the agents' starts and goals, and (gridpath's files) what the solver proved. People check
//! other solvers' plans precisely to test these claims, so [`check_claims`] recomputes each
//! one it knows from the plan and the instance alone and says whether it holds.
//!
//! The keys it knows: `agents`, `solved`, `soc`, `soc_lb`, `makespan`, `makespan_lb`,
//! `sum_of_loss`, `sum_of_loss_lb`, `starts`, `goals`, `proof` and `bound`. Others
//! (`map_file`, `solver`, `comp_time`, `stopped`, `seed`, LaCAM's search statistics) describe the run, not
//! the plan, and are not checked. A claim of optimality is checked by comparing the plan's cost
//! with the lower bound and, when they differ, by running conflict-based search (which proves
//! optima) within a time limit: when that search proves nothing in time, the claim is
//! reported as unchecked rather than as holding.

use std::collections::VecDeque;
use std::time::Duration;

use super::algorithms::MapfAlgorithm;
use super::model::{Instance, Moves};
use super::outcome::{MapfSettings, Proof};
use super::plan::Plan;
use super::plan_file::Header;
use super::validate::PlanSummary;
use crate::grid::Cell;
use crate::search::SearchControl;

/// Whether one claim holds.
#[derive(Clone, Debug, PartialEq)]
pub enum ClaimVerdict {
    /// What the plan does agrees with the claim.
    Holds,
    /// It does not.
    Differs,
    /// The claim could not be decided; the reason says why.
    Unchecked(String),
}

/// One claim of a header and what the plan does.
#[derive(Clone, Debug, PartialEq)]
pub struct Claim {
    /// The header's key (`soc`, `makespan`, …).
    pub key: String,
    /// The header's value.
    pub claimed: String,
    /// What the plan does, in the same terms.
    pub found: String,
    /// Whether they agree.
    pub verdict: ClaimVerdict,
}

impl Claim {
    /// The claim in one line: `soc=150 holds`, `the header claims soc=150, but the plan's is
    /// 200`; a long value (the starts of many agents) is cut after 48 characters.
    pub fn describe(&self) -> String {
        let short = |text: &str| match text.char_indices().nth(48) {
            Some((cut, _)) => format!("{}…", &text[..cut]),
            None => text.to_owned(),
        };
        let (key, claimed, found) = (&self.key, short(&self.claimed), short(&self.found));
        let verdict = &self.verdict;
        match verdict {
            ClaimVerdict::Holds => format!("{key}={claimed} holds"),
            ClaimVerdict::Differs if key == "proof" => {
                format!("the header claims {key}={claimed}, but {found}")
            }
            ClaimVerdict::Differs if key == "solved" => {
                format!("the header claims {key}={claimed}, but the plan solves the instance")
            }
            ClaimVerdict::Differs => {
                format!("the header claims {key}={claimed}, but the plan's is {found}")
            }
            ClaimVerdict::Unchecked(why) => format!("{key}={claimed} unchecked: {why}"),
        }
    }
}

/// How long [`check_claims`] may search for an optimum to check a claim of optimality or of a
/// bound, unless told otherwise.
pub const PROOF_TIME_LIMIT: Duration = Duration::from_secs(10);

/// Checks every claim of `header` that it knows against a plan that [`validate`](super::validate)
/// found valid for `instance` (with its `summary`), in the header's order. `proof_time` bounds
/// the search that checks a claim of optimality; `control` can cancel it.
pub fn check_claims(
    header: &Header,
    instance: &Instance,
    plan: &Plan,
    summary: &PlanSummary,
    proof_time: Duration,
    control: &SearchControl,
) -> Vec<Claim> {
    let mut facts = Facts {
        instance,
        plan,
        summary,
        lower_bound: None,
        optimum: None,
        proof_time,
        control,
    };
    let bound = header
        .iter()
        .find(|(k, _)| k == "bound")
        .map(|(_, v)| v.clone());
    header
        .iter()
        .filter_map(|(key, value)| facts.check(key, value, bound.as_deref()))
        .collect()
}

/// The first claim that does not hold, if any.
pub fn first_false(claims: &[Claim]) -> Option<&Claim> {
    claims.iter().find(|c| c.verdict == ClaimVerdict::Differs)
}

/// What the claims are checked against, computed when first needed.
struct Facts<'a> {
    instance: &'a Instance,
    plan: &'a Plan,
    summary: &'a PlanSummary,
    lower_bound: Option<f64>,
    /// The proven optimum, `Err` with the reason when none could be proven.
    optimum: Option<Result<f64, String>>,
    proof_time: Duration,
    control: &'a SearchControl,
}

/// Two costs agree: equal up to the rounding of printing them.
fn same_cost(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

fn number_claim(key: &str, claimed: &str, found: f64) -> Claim {
    let verdict = match claimed.parse::<f64>() {
        Ok(c) if same_cost(c, found) => ClaimVerdict::Holds,
        _ => ClaimVerdict::Differs,
    };
    Claim {
        key: key.to_owned(),
        claimed: claimed.to_owned(),
        found: found.to_string(),
        verdict,
    }
}

fn cells_text(cells: &[Cell]) -> String {
    cells
        .iter()
        .map(|c| format!("({},{}),", c.x, c.y))
        .collect()
}

/// Reads `(x,y),(x,y),...` as LaCAM writes `starts=` and `goals=`.
fn parse_cells(text: &str) -> Option<Vec<Cell>> {
    let mut cells = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let inner = rest.strip_prefix('(')?;
        let (pair, after) = inner.split_once(')')?;
        let (x, y) = pair.split_once(',')?;
        cells.push(Cell::new(x.trim().parse().ok()?, y.trim().parse().ok()?));
        rest = after.trim_start();
        rest = rest.strip_prefix(',').unwrap_or(rest).trim_start();
    }
    Some(cells)
}

impl Facts<'_> {
    fn lower_bound(&mut self) -> f64 {
        *self
            .lower_bound
            .get_or_insert_with(|| super::lower_bound(self.instance))
    }

    /// The least sum of costs of any plan, proven by conflict-based search within the time
    /// limit.
    fn optimum(&mut self) -> Result<f64, String> {
        if let Some(known) = &self.optimum {
            return known.clone();
        }
        let settings = MapfSettings {
            time_limit: self.proof_time,
            anytime: false,
            ..MapfSettings::default()
        };
        let found = match super::solve(self.instance, MapfAlgorithm::Cbs, &settings, self.control) {
            Ok(outcome) if outcome.proof == Proof::Optimal => outcome
                .summary
                .map(|s| s.sum_of_costs)
                .ok_or_else(|| "conflict-based search proved no plan".to_owned()),
            Ok(outcome) => Err(format!(
                "conflict-based search proved no optimum within {} s ({})",
                self.proof_time.as_secs_f64(),
                outcome.proof
            )),
            Err(e) => Err(e.to_string()),
        };
        self.optimum = Some(found.clone());
        found
    }

    fn check(&mut self, key: &str, value: &str, bound: Option<&str>) -> Option<Claim> {
        let summary = self.summary;
        let claim = |found: String, verdict: ClaimVerdict| Claim {
            key: key.to_owned(),
            claimed: value.to_owned(),
            found,
            verdict,
        };
        let holds = |ok: bool| {
            if ok {
                ClaimVerdict::Holds
            } else {
                ClaimVerdict::Differs
            }
        };
        Some(match key {
            "agents" => {
                let found = self.plan.paths.len();
                claim(
                    found.to_string(),
                    holds(value.parse::<usize>() == Ok(found)),
                )
            }
            "solved" => claim("1".into(), holds(value == "1")),
            "soc" => number_claim(key, value, summary.sum_of_costs),
            "soc_lb" | "sum_of_loss_lb" => {
                let lb = self.lower_bound();
                number_claim(key, value, lb)
            }
            "makespan" => number_claim(key, value, summary.makespan as f64),
            "makespan_lb" => number_claim(key, value, fewest_moves(self.instance) as f64),
            "sum_of_loss" => number_claim(key, value, sum_of_loss(self.instance, self.plan)),
            "starts" | "goals" => {
                let agents = self.instance.agents();
                let cells: Vec<Cell> = if key == "starts" {
                    agents.iter().map(|a| a.start).collect()
                } else {
                    agents.iter().map(|a| a.goal).collect()
                };
                claim(
                    cells_text(&cells),
                    holds(parse_cells(value).as_deref() == Some(&cells[..])),
                )
            }
            "proof" => self.check_proof(value, bound),
            _ => return None,
        })
    }

    fn check_proof(&mut self, value: &str, bound: Option<&str>) -> Claim {
        let soc = self.summary.sum_of_costs;
        let claim = |found: String, verdict: ClaimVerdict| Claim {
            key: "proof".to_owned(),
            claimed: value.to_owned(),
            found,
            verdict,
        };
        let factor = match value {
            "optimal" => 1.0,
            "bounded" => match bound.map(str::parse::<f64>) {
                Some(Ok(w)) if w.is_finite() && w >= 1.0 => w,
                _ => {
                    return claim(
                        format!("sum of costs {soc}"),
                        ClaimVerdict::Unchecked("no bound=W line names the factor".into()),
                    );
                }
            },
            "optimal-loss" => {
                let loss = sum_of_loss(self.instance, self.plan);
                let lb = self.lower_bound();
                let verdict = if same_cost(loss, lb) {
                    ClaimVerdict::Holds
                } else {
                    ClaimVerdict::Unchecked(format!(
                        "the sum of loss {loss} is above the lower bound {lb}, and no search here \
                         proves the least sum of loss"
                    ))
                };
                return claim(format!("sum of loss {loss}"), verdict);
            }
            "feasible" => return claim("a valid plan".into(), ClaimVerdict::Holds),
            "no-solution" | "timed-out" | "cancelled" | "gave-up" => {
                return claim(
                    format!("the plan is valid, with sum of costs {soc}"),
                    ClaimVerdict::Differs,
                );
            }
            _ => {
                return claim(
                    format!("sum of costs {soc}"),
                    ClaimVerdict::Unchecked(format!("{value:?} is not a proof gridpath knows")),
                );
            }
        };
        let lb = self.lower_bound();
        if soc <= factor * lb + 1e-9 * soc.max(1.0) {
            return claim(
                format!("sum of costs {soc}, lower bound {lb}"),
                ClaimVerdict::Holds,
            );
        }
        match self.optimum() {
            Ok(best) if soc <= factor * best + 1e-9 * soc.max(1.0) => claim(
                format!("sum of costs {soc}, proven optimum {best}"),
                ClaimVerdict::Holds,
            ),
            Ok(best) => claim(
                format!("the plan costs {soc} and one of {best} exists (proven optimal)"),
                ClaimVerdict::Differs,
            ),
            Err(why) => claim(
                format!("sum of costs {soc}, lower bound {lb}"),
                ClaimVerdict::Unchecked(why),
            ),
        }
    }
}

/// The price of a tick from `from` to `to`: what [`validate`](super::validate) charges, written
/// again here from the model's rule.
fn tick_price(instance: &Instance, from: Cell, to: Cell) -> f64 {
    let grid = instance.grid();
    let (a, b) = (grid.cost(from).unwrap_or(0.0), grid.cost(to).unwrap_or(0.0));
    if from == to {
        a
    } else if from.x != to.x && from.y != to.y {
        std::f64::consts::SQRT_2 * (a + b) / 2.0
    } else {
        (a + b) / 2.0
    }
}

/// LaCAM's sum of loss: every tick's price for every agent not resting on its goal at both
/// ends of it (on maps of one cost, the number of such ticks).
fn sum_of_loss(instance: &Instance, plan: &Plan) -> f64 {
    let mut loss = 0.0;
    for (i, agent) in instance.agents().iter().enumerate() {
        for t in 1..=plan.makespan() {
            let (Some(a), Some(b)) = (plan.position(i, t - 1), plan.position(i, t)) else {
                continue;
            };
            if !(a == agent.goal && b == agent.goal) {
                loss += tick_price(instance, a, b);
            }
        }
    }
    loss
}

/// The most ticks any agent needs alone: the largest of the agents' fewest moves to their
/// goals, by a breadth-first search of the moving rule (no plan's makespan is smaller).
fn fewest_moves(instance: &Instance) -> usize {
    let grid = instance.grid();
    let (w, h) = (grid.width() as usize, grid.height() as usize);
    let open = |x: i64, y: i64| {
        x >= 0
            && y >= 0
            && (x as usize) < w
            && (y as usize) < h
            && grid.cost(Cell::new(x as u32, y as u32)).is_some()
    };
    // A cell's depth counts for the agent whose number it is stamped with, so the search of
    // each agent starts afresh without clearing the map.
    let mut depth = vec![0usize; w * h];
    let mut stamp = vec![usize::MAX; w * h];
    let mut queue = VecDeque::new();
    let mut most = 0;
    for (agent_index, agent) in instance.agents().iter().enumerate() {
        queue.clear();
        let index = |x: i64, y: i64| y as usize * w + x as usize;
        let goal = (i64::from(agent.goal.x), i64::from(agent.goal.y));
        depth[index(goal.0, goal.1)] = 0;
        stamp[index(goal.0, goal.1)] = agent_index;
        queue.push_back(goal);
        let target = index(i64::from(agent.start.x), i64::from(agent.start.y));
        while let Some((x, y)) = queue.pop_front() {
            let d = depth[index(x, y)];
            if index(x, y) == target {
                break;
            }
            for (dx, dy) in [
                (1, 0),
                (-1, 0),
                (0, 1),
                (0, -1),
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
            ] {
                let diagonal = dx != 0 && dy != 0;
                if diagonal
                    && (instance.moves() == Moves::Four || !open(x + dx, y) || !open(x, y + dy))
                {
                    continue;
                }
                let (nx, ny) = (x + dx, y + dy);
                if open(nx, ny) && stamp[index(nx, ny)] != agent_index {
                    stamp[index(nx, ny)] = agent_index;
                    depth[index(nx, ny)] = d + 1;
                    queue.push_back((nx, ny));
                }
            }
        }
        let reached = stamp[target] == agent_index;
        most = most.max(if reached { depth[target] } else { usize::MAX });
    }
    most
}
