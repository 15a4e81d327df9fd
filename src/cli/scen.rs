//! `gridpath scen`: every query of a Moving AI scenario file, checked against its optima
//! ([`gridpath::scenario`]).

use std::path::PathBuf;
use std::process::ExitCode;

use gridpath::format::load_map;
use gridpath::scenario::{self, ScenarioOptions, ScenarioOutcome};
use gridpath::search::SearchControl;
use serde_json::json;

use super::{EXIT_NEGATIVE, SearchArgs};

/// Arguments of `gridpath scen`.
#[derive(clap::Args, Debug)]
pub struct ScenArgs {
    /// The Moving AI map (.map).
    map: PathBuf,
    /// The scenario file (.scen).
    scen: PathBuf,
    #[command(flatten)]
    search: SearchArgs,
    /// Run only the first N queries.
    #[arg(long)]
    limit: Option<usize>,
    /// Answer the queries on N threads, each with its own search state (HPA* answers on one:
    /// its abstraction is built once) [range: 1 to 1024; more than the machine's
    /// cores runs on the cores, with a note].
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    jobs: u16,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    json: bool,
}

/// Runs `gridpath scen`.
pub fn run(args: &ScenArgs) -> anyhow::Result<ExitCode> {
    let map = load_map(&args.map)?;
    if !map.grid.topology().has_square_cells() {
        anyhow::bail!(
            "{}: the map's cells are {} hexes, and a Moving AI scenario's optima are for square cells",
            args.map.display(),
            map.grid.topology()
        );
    }
    let mut queries = scenario::read_queries(&args.scen)?;
    if let Some(limit) = args.limit {
        queries.truncate(limit);
    }
    let options = ScenarioOptions {
        algorithm: args.search.algorithm,
        heuristic: args.search.heuristic,
        weight: args.search.weight,
        jobs: super::bounds::threads(usize::from(args.jobs)),
    };
    let files = (args.map.as_path(), args.scen.as_path());
    let outcome = scenario::run(&map.grid, files, &queries, &options, &SearchControl::new())?;
    let reports: Vec<String> = outcome
        .mismatched
        .iter()
        .take(10)
        .map(|m| {
            format!(
                "line {}: {} → {}: cost {}, expected {} (± {:.1e})",
                m.line, m.start, m.goal, m.cost, m.optimal, m.tolerance
            )
        })
        .collect();
    let ScenarioOutcome {
        queries,
        mismatches,
        unchecked,
        total_ms,
        expanded,
        mean_ratio,
        max_ratio,
        jobs,
        wall_ms,
        queries_per_second: per_second,
        preprocess_ms,
        prepared_bytes,
        ..
    } = outcome;
    if args.json {
        let mut value = json!({
            "queries": queries,
            "mismatches": mismatches,
            "unchecked": unchecked,
            "total_ms": total_ms,
            "expanded": expanded,
            "algorithm": args.search.algorithm.name(),
            "mean_ratio": mean_ratio,
            "max_ratio": max_ratio,
            "jobs": jobs,
            "wall_ms": wall_ms,
            "queries_per_second": per_second,
        });
        if let Some(preprocess_ms) = preprocess_ms {
            value["preprocess_ms"] = json!(preprocess_ms);
        }
        if let Some(bytes) = prepared_bytes {
            value["prepared_bytes"] = json!(bytes);
        }
        out!("{value}");
    } else {
        out!(
            "{}: {queries} queries, {mismatches} mismatches, {total_ms:.1} ms searching, {expanded} cells expanded ({})",
            args.scen.display(),
            args.search.algorithm
        );
        if unchecked > 0 {
            out!(
                "  {unchecked} of the queries have no optimum in the file (it prints 0): answered, not checked"
            );
        }
        if unchecked < queries {
            out!("  cost / optimal: mean {mean_ratio:.6}, max {max_ratio:.6}");
        }
        out!(
            "  {wall_ms:.1} ms wall time on {} thread{}: {per_second:.0} queries per second",
            jobs,
            if jobs == 1 { "" } else { "s" }
        );
        if let Some(preprocess_ms) = preprocess_ms {
            out!("  preprocessing took {preprocess_ms:.1} ms (not in the search time)");
        }
        if let Some(bytes) = prepared_bytes {
            out!("  the hierarchy takes {:.1} MB", bytes as f64 / 1e6);
        }
        for line in &reports {
            out!("  {line}");
        }
        if mismatches > reports.len() {
            out!("  … and {} more", mismatches - reports.len());
        }
    }
    Ok(if mismatches == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_NEGATIVE)
    })
}
