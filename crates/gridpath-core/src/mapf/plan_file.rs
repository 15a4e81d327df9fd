//! LaCAM's plan text format, which the community's MAPF visualisers read: `key=value` header
//! lines (`agents=`, `map_file=`, `solver=`, `solved=`, `soc=`, `makespan=`, `comp_time=`, …)
//! and, after `solution=`, one line per tick, `t:(x,y),(x,y),...,` with every agent's cell.

use std::fmt::Write as _;

use super::model::{Agent, Instance};
use super::outcome::{MapfOutcome, Proof};
use super::plan::Plan;
use crate::format::excerpt;
use crate::grid::Cell;

/// What is wrong with a plan file, and on which line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct PlanFileError {
    /// The 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// The header of a plan file: `(key, value)` pairs written before `solution=`.
pub type Header = Vec<(String, String)>;

/// The header lines of a solver's plan file, as `gridpath mapf solve` and the editor write
/// them: the agents, the map file's name, the solver's name, whether it solved the instance,
/// the costs, the time, the proof and why the run stopped, the seed, and every start and goal.
/// An unsolved instance has costs of 0, as LaCAM writes one.
pub fn plan_header(
    instance: &Instance,
    outcome: &MapfOutcome,
    map_file: &str,
    solver: &str,
    seed: u64,
) -> Header {
    let mut header = vec![
        ("agents".to_owned(), instance.agents().len().to_string()),
        ("map_file".to_owned(), map_file.to_owned()),
        ("solver".to_owned(), solver.to_owned()),
        (
            "solved".to_owned(),
            u8::from(outcome.plan.is_some()).to_string(),
        ),
    ];
    let (soc, makespan) = outcome
        .summary
        .as_ref()
        .map_or((0.0, 0), |s| (s.sum_of_costs, s.makespan));
    header.push(("soc".to_owned(), soc.to_string()));
    header.push(("soc_lb".to_owned(), outcome.lower_bound.to_string()));
    header.push(("makespan".to_owned(), makespan.to_string()));
    header.push(("comp_time".to_owned(), outcome.time.as_millis().to_string()));
    header.push(("proof".to_owned(), outcome.proof.name().to_owned()));
    if let Proof::Bounded(w) = outcome.proof {
        header.push(("bound".to_owned(), w.to_string()));
    }
    // Beside `proof=`: why the run stopped. Readers of LaCAM's format skip keys they do not
    // know, and `mapf check` lists it as the run's own, unchecked.
    header.push(("stopped".to_owned(), outcome.stopped.name().to_owned()));
    header.push(("seed".to_owned(), seed.to_string()));
    let cells = |f: fn(&Agent) -> Cell| -> String {
        instance
            .agents()
            .iter()
            .map(|a| {
                let c = f(a);
                format!("({},{}),", c.x, c.y)
            })
            .collect()
    };
    header.push(("starts".to_owned(), cells(|a| a.start)));
    header.push(("goals".to_owned(), cells(|a| a.goal)));
    header
}

/// Writes a plan with its header lines (padded so that every tick lists every agent). A plan
/// of no agents (an unsolved instance) is written as LaCAM writes one: the header and
/// `solution=` with no tick after it.
///
/// ```
/// use gridpath_core::grid::Cell;
/// use gridpath_core::mapf::{Plan, parse_plan, write_plan};
///
/// let plan = Plan { paths: vec![vec![Cell::new(0, 0), Cell::new(1, 0)]] };
/// let text = write_plan(&plan, &[("agents".into(), "1".into())]);
/// assert!(text.contains("solution=\n0:(0,0),\n1:(1,0),\n"));
/// assert_eq!(parse_plan(&text).expect("reads back").0, plan);
/// ```
pub fn write_plan(plan: &Plan, header: &[(String, String)]) -> String {
    let mut out = String::new();
    for (key, value) in header {
        let _ = writeln!(out, "{key}={value}");
    }
    out.push_str("solution=\n");
    let agents = plan.paths.len();
    if agents == 0 {
        return out;
    }
    for t in 0..=plan.makespan() {
        let _ = write!(out, "{t}:");
        for i in 0..agents {
            if let Some(c) = plan.position(i, t) {
                let _ = write!(out, "({},{}),", c.x, c.y);
            }
        }
        out.push('\n');
    }
    out
}

/// The most ticks × agents a plan file may list: 64 Mi cells.
pub const PLAN_MAX_CELLS: usize = 64 << 20;

/// Reads a plan file: its header lines and its plan. A file whose solution lists no tick (an
/// unsolved instance, as LaCAM writes one) is an error here; [`parse_plan_file`] reads it.
pub fn parse_plan(text: &str) -> Result<(Plan, Header), PlanFileError> {
    let (plan, header) = parse_plan_file(text)?;
    match plan {
        Some(plan) => Ok((plan, header)),
        None => Err(PlanFileError {
            line: text.lines().count().max(1),
            message: "the solution lists no ticks".into(),
        }),
    }
}

/// Reads a plan file: its header lines and its plan, `None` when the solution lists no tick.
pub fn parse_plan_file(text: &str) -> Result<(Option<Plan>, Header), PlanFileError> {
    let mut header = Vec::new();
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    let bad = |line: usize, message: String| PlanFileError { line, message };
    loop {
        let Some((line, content)) = lines.next() else {
            return Err(bad(
                text.lines().count().max(1),
                "no \"solution=\" line: this is not a plan file".into(),
            ));
        };
        if content.is_empty() {
            continue;
        }
        if content == "solution=" {
            break;
        }
        let Some((key, value)) = content.split_once('=') else {
            return Err(bad(
                line,
                format!("expected key=value, got {}", excerpt(content)),
            ));
        };
        header.push((key.trim().to_owned(), value.trim().to_owned()));
    }
    let mut configs: Vec<Vec<Cell>> = Vec::new();
    let mut cells = 0usize;
    for (line, content) in lines {
        if content.is_empty() {
            continue;
        }
        let Some((tick, rest)) = content.split_once(':') else {
            return Err(bad(
                line,
                format!("expected t:(x,y),..., got {}", excerpt(content)),
            ));
        };
        let t: usize = tick.trim().parse().map_err(|_| {
            bad(
                line,
                format!("the tick {} is not a whole number", excerpt(tick)),
            )
        })?;
        if t != configs.len() {
            return Err(bad(
                line,
                format!("expected tick {}, got tick {t}", configs.len()),
            ));
        }
        let mut config = Vec::new();
        let mut rest = rest.trim();
        while !rest.is_empty() {
            let Some(inner) = rest.strip_prefix('(') else {
                return Err(bad(line, format!("expected (x,y) at {}", excerpt(rest))));
            };
            let Some((pair, after)) = inner.split_once(')') else {
                return Err(bad(line, format!("unclosed ( at {}", excerpt(rest))));
            };
            let Some((x, y)) = pair.split_once(',') else {
                return Err(bad(line, format!("expected x,y inside {}", excerpt(pair))));
            };
            let number = |v: &str| {
                v.trim().parse::<u32>().map_err(|_| {
                    bad(
                        line,
                        format!(
                            "{} in {} is not a cell coordinate",
                            excerpt(v),
                            excerpt(pair)
                        ),
                    )
                })
            };
            config.push(Cell::new(number(x)?, number(y)?));
            cells += 1;
            if cells > PLAN_MAX_CELLS {
                return Err(bad(
                    line,
                    format!("the plan lists more than {PLAN_MAX_CELLS} cells"),
                ));
            }
            rest = after
                .trim_start()
                .strip_prefix(',')
                .unwrap_or(after)
                .trim_start();
        }
        if let Some(first) = configs.first()
            && first.len() != config.len()
        {
            return Err(bad(
                line,
                format!(
                    "tick {t} lists {} agents, tick 0 lists {}",
                    config.len(),
                    first.len()
                ),
            ));
        }
        configs.push(config);
    }
    if configs.is_empty() {
        return Ok((None, header));
    }
    Ok((Some(Plan::from_configurations(&configs)), header))
}
