//! `gridpath scen`: every query of a Moving AI scenario file, checked against its optima.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context as _, bail};
use gridpath::format::read::{self, FileLimit};
use gridpath::format::{FormatError, LoadError, load_map, movingai};
use gridpath::search::{
    self, Algorithm, ContractionHierarchy, DEFAULT_CLUSTER_SIZE, Diagonal, HpaGraph, SearchGraph,
    SearchRequest,
};
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
    let wrap = |error: FormatError| LoadError {
        path: args.scen.clone(),
        error,
    };
    let text = read::read_text(&args.scen, FileLimit::SCENARIO).map_err(|e| wrap(e.into()))?;
    let mut queries = movingai::parse_scen(&text).map_err(wrap)?;
    if queries.is_empty() {
        bail!(
            "{}: the scenario file has no queries: nothing to check",
            args.scen.display()
        );
    }
    if let Some(limit) = args.limit {
        queries.truncate(limit);
    }
    let grid = &map.grid;
    for q in &queries {
        if (q.map_width, q.map_height) != (grid.width(), grid.height()) {
            bail!(
                "{}: line {}: the query is for a {} × {} map, but {} is {} × {}",
                args.scen.display(),
                q.line,
                q.map_width,
                q.map_height,
                args.map.display(),
                grid.width(),
                grid.height()
            );
        }
    }
    let graph = SearchGraph::new(grid, Diagonal::NoCut);
    let requests: Vec<SearchRequest> = queries
        .iter()
        .map(|q| SearchRequest {
            algorithm: args.search.algorithm,
            heuristic: args.search.heuristic,
            weight: args.search.weight,
            ..SearchRequest::new(q.start, q.goal)
        })
        .collect();
    // HPA*, the contraction hierarchy, JPS+ and the subgoal graph build their structure once
    // for all the queries; that time is reported apart.
    let algorithm = args.search.algorithm;
    if algorithm == Algorithm::ContractionHierarchy {
        ContractionHierarchy::check_size(&graph).with_context(|| args.map.display().to_string())?;
    }
    let jobs = super::bounds::threads(usize::from(args.jobs));
    let preprocess = Instant::now();
    let mut hpa = (args.search.algorithm == Algorithm::Hpa)
        .then(|| HpaGraph::from_graph(graph.clone(), DEFAULT_CLUSTER_SIZE));
    let mut ch = (args.search.algorithm == Algorithm::ContractionHierarchy)
        .then(|| ContractionHierarchy::from_graph(graph.clone()));
    let tables = algorithm.info().prepare(&graph);
    let prepared = hpa.is_some() || ch.is_some() || tables;
    let preprocess_ms = preprocess.elapsed().as_secs_f64() * 1000.0;
    let wall = Instant::now();
    let answers = match (hpa.as_mut(), ch.as_mut()) {
        (Some(hpa), _) => requests.iter().map(|r| hpa.find_path(r)).collect(),
        (_, Some(ch)) => requests.iter().map(|r| ch.find_path(r)).collect(),
        _ => search::solve_batch(&graph, &requests, jobs),
    };
    let wall_ms = wall.elapsed().as_secs_f64() * 1000.0;
    let any_angle = args.search.algorithm.info().guarantee == gridpath::search::Guarantee::AnyAngle;
    let (mut mismatches, mut expanded, mut search_us) = (0usize, 0u64, 0u64);
    let (mut ratio_sum, mut ratio_count, mut max_ratio) = (0.0f64, 0usize, 1.0f64);
    let mut reports = Vec::new();
    for (q, answer) in queries.iter().zip(answers) {
        let result = answer.with_context(|| format!("{}: line {}", args.scen.display(), q.line))?;
        search_us += result.stats.time_us;
        expanded += result.stats.expanded;
        let cost = if result.found {
            result.cost
        } else {
            f64::INFINITY
        };
        if q.optimal > 0.0 && cost.is_finite() {
            let ratio = cost / q.optimal;
            ratio_sum += ratio;
            ratio_count += 1;
            max_ratio = max_ratio.max(ratio);
        }
        // An any-angle path promises no more than the best grid path: cheaper is right.
        let right = if any_angle {
            cost <= q.optimal + q.tolerance()
        } else {
            q.matches(cost)
        };
        if !right {
            mismatches += 1;
            if reports.len() < 10 {
                reports.push(format!(
                    "line {}: {} → {}: cost {cost}, expected {} (± {:.1e})",
                    q.line,
                    q.start,
                    q.goal,
                    q.optimal,
                    q.tolerance()
                ));
            }
        }
    }
    let total_ms = search_us as f64 / 1000.0;
    let per_second = queries.len() as f64 / (wall_ms / 1000.0).max(1e-9);
    let mean_ratio = if ratio_count > 0 {
        ratio_sum / ratio_count as f64
    } else {
        1.0
    };
    if args.json {
        let mut value = json!({
            "queries": queries.len(),
            "mismatches": mismatches,
            "total_ms": total_ms,
            "expanded": expanded,
            "algorithm": args.search.algorithm.name(),
            "mean_ratio": mean_ratio,
            "max_ratio": max_ratio,
            "jobs": jobs,
            "wall_ms": wall_ms,
            "queries_per_second": per_second,
        });
        if prepared {
            value["preprocess_ms"] = json!(preprocess_ms);
        }
        out!("{value}");
    } else {
        out!(
            "{}: {} queries, {mismatches} mismatches, {total_ms:.1} ms searching, {expanded} cells expanded ({})",
            args.scen.display(),
            queries.len(),
            args.search.algorithm
        );
        out!("  cost / optimal: mean {mean_ratio:.6}, max {max_ratio:.6}");
        out!(
            "  {wall_ms:.1} ms wall time on {} thread{}: {per_second:.0} queries per second",
            jobs,
            if jobs == 1 { "" } else { "s" }
        );
        if prepared {
            out!("  preprocessing took {preprocess_ms:.1} ms (not in the search time)");
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
