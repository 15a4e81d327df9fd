//! `gridpath mapf`: many agents at once on a map, from a Moving AI scenario; and
//! `gridpath mapf check`, which validates a plan file.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use gridpath::format::read::{self, FileLimit};
use gridpath::format::save;
use gridpath::mapf::{
    self, Instance, MAPF_ALGORITHMS, MAX_TIME_LIMIT, MAX_WEIGHT, MAX_WINDOW, MapfAlgorithm,
    MapfOutcome, MapfSettings, Moves, Plan, parse_plan_file, random_instance, read_instance,
    validate, write_plan,
};
use gridpath::search::SearchControl;
use serde_json::json;

use super::EXIT_NEGATIVE;

/// The most agents a command reads from a scenario.
const MAX_AGENTS: u64 = 100_000;

/// Arguments of `gridpath mapf`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct MapfArgs {
    #[command(subcommand)]
    command: Option<MapfCommand>,
    #[command(flatten)]
    solve: MapfSolveArgs,
}

#[derive(clap::Subcommand, Debug)]
enum MapfCommand {
    /// Check a plan file (LaCAM's format) against a map and scenario: exit 0 when valid, 2
    /// with the first conflict otherwise.
    Check(CheckArgs),
}

/// The map and scenario of an instance, and the rule of moving.
#[derive(clap::Args, Debug)]
struct InstanceArgs {
    /// The map (a Moving AI .map, or any map gridpath reads).
    #[arg(required = true)]
    map: Option<PathBuf>,
    /// The Moving AI scenario (.scen): its first K lines are the agents.
    #[arg(required_unless_present = "random")]
    scen: Option<PathBuf>,
    /// Instead of a scenario: K agents with distinct random starts and goals in the map's
    /// largest connected region, drawn from this seed (the benchmark's random scenarios, for
    /// any map).
    #[arg(long, value_name = "SEED", conflicts_with = "scen")]
    random: Option<u64>,
    /// Moves: 4 (orthogonal, the benchmark's rule) or 8 (diagonals too, without cutting
    /// corners; crossing diagonals are conflicts).
    #[arg(long, default_value = "4")]
    moves: Moves,
}

impl InstanceArgs {
    fn paths(&self) -> anyhow::Result<(&Path, &Path)> {
        match (&self.map, &self.scen) {
            (Some(map), Some(scen)) => Ok((map, scen)),
            _ => anyhow::bail!("a map and a scenario file are needed"),
        }
    }

    fn read(&self, agents: usize) -> anyhow::Result<Instance> {
        if let (Some(map), Some(seed)) = (&self.map, self.random) {
            let grid = gridpath::format::load_map(map)?.grid;
            return random_instance(grid, agents, self.moves, seed)
                .with_context(|| format!("{}", map.display()));
        }
        let (map, scen) = self.paths()?;
        let instance = read_instance(map, scen, agents, self.moves)?;
        refuse_hex(&instance)?;
        Ok(instance)
    }
}

/// Arguments of a solve.
#[derive(clap::Args, Debug)]
struct MapfSolveArgs {
    #[command(flatten)]
    instance: InstanceArgs,
    /// The number of agents: the scenario's first K lines (1 to 100000).
    #[arg(long, required = true, value_parser = clap::value_parser!(u64).range(1..=MAX_AGENTS))]
    agents: Option<u64>,
    /// The solver.
    #[arg(long = "algo", default_value = "lacam", value_parser = algorithm_parser())]
    algorithm: MapfAlgorithm,
    /// Stop after this many seconds (above 0, at most 86400) with the best plan found.
    #[arg(long, default_value_t = 10.0, value_parser = parse_time_limit)]
    time_limit: f64,
    /// LaCAM: answer with the first plan instead of improving it until the time limit.
    #[arg(long)]
    first_plan: bool,
    /// The suboptimality bound of the bounded-suboptimal solvers (1 to 100).
    #[arg(long, default_value_t = 1.2, value_parser = parse_weight)]
    weight: f64,
    /// The window of windowed cooperative A*, in ticks (1 to 4096).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_WINDOW)))]
    window: u32,
    /// The seed of the solvers' random choices.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// LaCAM: do not scatter the agents' paths before the search (LaCAM3's space
    /// utilisation, on by default: PIBT tries the next cell of each agent's path first).
    #[arg(long)]
    no_scatter: bool,
    /// Write the plan to this file in LaCAM's text format.
    #[arg(long)]
    plan: Option<PathBuf>,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    json: bool,
}

/// Arguments of `gridpath mapf check`.
#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// The map (a Moving AI .map, or any map gridpath reads).
    map: PathBuf,
    /// The Moving AI scenario (.scen) the plan is for.
    scen: PathBuf,
    /// The plan file (LaCAM's format); its agents are the scenario's first lines.
    plan: PathBuf,
    /// Moves: 4 (orthogonal, the benchmark's rule) or 8 (diagonals too, without cutting
    /// corners; crossing diagonals are conflicts).
    #[arg(long, default_value = "4")]
    moves: Moves,
    /// The number of agents the plan must move (the scenario's first K lines); without it, the
    /// header's `agents=` claim or the plan's own count.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_AGENTS))]
    agents: Option<u64>,
    /// How long to search for the optimum when the header claims `proof=optimal` (or a bound)
    /// and the plan's cost is above the lower bound; past it the claim is reported unchecked.
    #[arg(long, default_value_t = 10.0, value_parser = parse_time_limit)]
    proof_time_limit: f64,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    json: bool,
}

/// The solvers of the registry as the command line's choices.
fn algorithm_parser() -> impl clap::builder::TypedValueParser<Value = MapfAlgorithm> {
    let names = MAPF_ALGORITHMS
        .iter()
        .map(|a| clap::builder::PossibleValue::new(a.name).help(a.about));
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(names).try_map(|name| name.parse::<MapfAlgorithm>())
}

fn parse_time_limit(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(t) if t.is_finite() && t > 0.0 && t <= MAX_TIME_LIMIT.as_secs_f64() => Ok(t),
        _ => Err(format!(
            "expected seconds above 0 and at most {}, got {s:?}",
            MAX_TIME_LIMIT.as_secs()
        )),
    }
}

fn parse_weight(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(w) if w.is_finite() && (1.0..=MAX_WEIGHT).contains(&w) => Ok(w),
        _ => Err(format!(
            "expected a number from 1 to {MAX_WEIGHT}, got {s:?}"
        )),
    }
}

/// Refuses a hex map: the agents' moves (and the validator's) are the square grid's.
fn refuse_hex(instance: &Instance) -> anyhow::Result<()> {
    let topology = instance.grid().topology();
    if !topology.has_square_cells() {
        bail!(
            "the map's cells are {topology} hexes, and multi-agent plans move on square cells: give a square map"
        );
    }
    Ok(())
}

/// Runs `gridpath mapf`.
pub fn run(args: &MapfArgs) -> anyhow::Result<ExitCode> {
    match &args.command {
        Some(MapfCommand::Check(check)) => run_check(check),
        None => run_solve(&args.solve),
    }
}

fn run_solve(args: &MapfSolveArgs) -> anyhow::Result<ExitCode> {
    // The time limit covers reading the instance too.
    let started = Instant::now();
    let agents = args.agents.context("--agents is needed")? as usize;
    if let Some(plan) = &args.plan {
        let mut inputs = Vec::new();
        if let Some(map) = &args.instance.map {
            inputs.push(("the map", map.as_path()));
        }
        if let Some(scen) = &args.instance.scen {
            inputs.push(("the scenario", scen.as_path()));
        }
        save::refuse_input_as_output(plan, &inputs)?;
    }
    let instance = args.instance.read(agents)?;
    let settings = MapfSettings {
        time_limit: Duration::from_secs_f64(args.time_limit),
        anytime: !args.first_plan,
        weight: args.weight,
        window: args.window,
        seed: args.seed,
        scatter: !args.no_scatter,
    };
    let outcome = mapf::solve_since(
        started,
        &instance,
        args.algorithm,
        &settings,
        &SearchControl::new(),
    )?;
    if let Some(path) = &args.plan {
        let text = plan_text(args, &instance, &outcome);
        save::write_atomically(path, text.as_bytes(), save::Backup::Discard)?;
    }
    if args.json {
        out!(
            "{}",
            serde_json::to_string_pretty(&outcome_json(args, &outcome))?
        );
    } else {
        print_summary(args, &outcome)?;
    }
    Ok(if outcome.plan.is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_NEGATIVE)
    })
}

/// The plan file: LaCAM's header lines, the proof, then the solution.
fn plan_text(args: &MapfSolveArgs, instance: &Instance, outcome: &MapfOutcome) -> String {
    let map_file = args
        .instance
        .map
        .as_deref()
        .and_then(Path::file_name)
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let header = mapf::plan_header(
        instance,
        outcome,
        &map_file,
        args.algorithm.name(),
        args.seed,
    );
    let empty = Plan::default();
    write_plan(outcome.plan.as_ref().unwrap_or(&empty), &header)
}

fn outcome_json(args: &MapfSolveArgs, outcome: &MapfOutcome) -> serde_json::Value {
    let summary = outcome.summary.as_ref();
    json!({
        "solver": args.algorithm.name(),
        "agents": args.agents,
        "moves": args.instance.moves.name(),
        "solved": outcome.plan.is_some(),
        "proof": outcome.proof.name(),
        "stopped": outcome.stopped.name(),
        "bound": match outcome.proof {
            mapf::Proof::Bounded(w) => Some(w),
            mapf::Proof::Optimal => Some(1.0),
            _ => None,
        },
        "sum_of_costs": summary.map(|s| s.sum_of_costs),
        "makespan": summary.map(|s| s.makespan),
        "lower_bound": outcome.lower_bound,
        "proved_lower_bound": outcome.proved_bound,
        "time_s": outcome.time.as_secs_f64(),
        "first_plan_time_s": outcome.first_plan_time.map(|t| t.as_secs_f64()),
        "expanded": outcome.expanded,
        "costs": summary.map(|s| &s.costs),
        "arrivals": summary.map(|s| &s.arrivals),
        "plan": outcome.plan.as_ref().map(|p| &p.paths),
    })
}

fn print_summary(args: &MapfSolveArgs, outcome: &MapfOutcome) -> anyhow::Result<()> {
    out!(
        "{} agents, {} ({} moves): {}",
        args.agents.unwrap_or(0),
        args.algorithm.info().title,
        args.instance.moves,
        outcome.proof
    );
    match &outcome.summary {
        Some(s) => {
            out!(
                "sum of costs {} (lower bound {}, ratio {:.3}), makespan {}",
                s.sum_of_costs,
                outcome.lower_bound,
                s.sum_of_costs / outcome.lower_bound.max(f64::MIN_POSITIVE),
                s.makespan
            );
        }
        None if outcome.proof == mapf::Proof::NoSolution => {
            out!("no solution: no plan moves every agent to its goal");
        }
        None => out!("no plan found"),
    }
    if let (None, Some(bound)) = (&outcome.summary, outcome.proved_bound) {
        out!("every plan costs at least {bound} (proved by the search)");
    }
    let first = outcome.first_plan_time.map_or(String::new(), |t| {
        format!(", first plan after {:.3} s", t.as_secs_f64())
    });
    out!(
        "time {:.3} s{first}, {} nodes expanded",
        outcome.time.as_secs_f64(),
        outcome.expanded
    );
    out!(
        "{}",
        outcome
            .stopped
            .describe(Duration::from_secs_f64(args.time_limit), outcome.expanded)
    );
    Ok(())
}

fn run_check(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let text = read::read_text(&args.plan, FileLimit::PLAN)
        .with_context(|| format!("cannot read {}", args.plan.display()))?;
    let (plan, header) =
        parse_plan_file(&text).with_context(|| format!("{}", args.plan.display()))?;
    let claimed = |key: &str| {
        header
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    // The plan's shape first: a plan of no tick or no agent solves nothing, and one that moves
    // fewer agents than it (or the command) says is not the plan it claims to be.
    let listed = plan.as_ref().map_or(0, |p| p.paths.len());
    let shape = match (&plan, claimed("solved")) {
        (None, Some("0")) => Some(
            "the plan solves nothing: its header says solved=0 and its solution lists no tick"
                .to_owned(),
        ),
        (None, _) => Some("the solution lists no tick".to_owned()),
        (Some(_), _) if listed == 0 => Some("the plan lists no agents".to_owned()),
        _ => None,
    }
    .or_else(|| {
        let wanted = args.agents.map(|k| k as usize)?;
        (wanted != listed)
            .then(|| format!("the plan lists {listed} agents, --agents says {wanted}"))
    });
    if let Some(message) = shape {
        return report_invalid(args, listed, &message, &[]);
    }
    let plan = plan.context("a plan")?;
    let instance = read_instance(&args.map, &args.scen, listed, args.moves)?;
    refuse_hex(&instance)?;
    let summary = match validate(&instance, &plan) {
        Ok(summary) => summary,
        Err(e) => return report_invalid(args, listed, &e.to_string(), &[]),
    };
    let proof_time = Duration::from_secs_f64(args.proof_time_limit);
    let claims = mapf::check_claims(
        &header,
        &instance,
        &plan,
        &summary,
        proof_time,
        &SearchControl::new(),
    );
    if let Some(wrong) = mapf::first_false(&claims) {
        return report_invalid(args, listed, &wrong.describe(), &claims);
    }
    let lower_bound = mapf::lower_bound(&instance);
    if args.json {
        let value = json!({
            "valid": true,
            "agents": listed,
            "sum_of_costs": summary.sum_of_costs,
            "makespan": summary.makespan,
            "lower_bound": lower_bound,
            "costs": summary.costs,
            "claims": claims_json(&claims),
        });
        out!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        out!(
            "valid: {} agents, sum of costs {}, makespan {}",
            listed,
            summary.sum_of_costs,
            summary.makespan
        );
        for claim in &claims {
            out!("  {}", claim.describe());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints why a plan is not valid (in text or JSON) and answers exit code 2.
fn report_invalid(
    args: &CheckArgs,
    agents: usize,
    message: &str,
    claims: &[mapf::Claim],
) -> anyhow::Result<ExitCode> {
    if args.json {
        let value = json!({
            "valid": false,
            "agents": agents,
            "error": message,
            "claims": claims_json(claims),
        });
        out!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        out!("invalid: {message}");
    }
    Ok(ExitCode::from(EXIT_NEGATIVE))
}

fn claims_json(claims: &[mapf::Claim]) -> serde_json::Value {
    claims
        .iter()
        .map(|c| {
            let (holds, note) = match &c.verdict {
                mapf::ClaimVerdict::Holds => (Some(true), None),
                mapf::ClaimVerdict::Differs => (Some(false), None),
                mapf::ClaimVerdict::Unchecked(why) => (None, Some(why.as_str())),
            };
            json!({ "key": c.key, "claimed": c.claimed, "found": c.found, "holds": holds, "note": note })
        })
        .collect()
}
