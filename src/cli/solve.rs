//! `gridpath solve`: one search on one map.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use gridpath::format::load_map;
use gridpath::grid::Cell;
use gridpath::search::{self, Diagonal, SearchRequest, SearchResult};
use serde_json::json;

use super::smooth::SmoothArgs;
use super::{EXIT_NEGATIVE, SearchArgs, ascii, parse_cell, parse_diagonal, smooth};

/// Arguments of `gridpath solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The map (.json or .map).
    map: PathBuf,
    /// Start cell as X,Y [default: the map's start].
    #[arg(long, value_parser = parse_cell)]
    from: Option<Cell>,
    /// Goal cell as X,Y [default: the map's goal].
    #[arg(long, value_parser = parse_cell)]
    to: Option<Cell>,
    /// Diagonal rule: never, always, one-free, no-cut.
    #[arg(long, default_value = "no-cut", value_parser = parse_diagonal)]
    diagonal: Diagonal,
    #[command(flatten)]
    search: SearchArgs,
    #[command(flatten)]
    smoothing: SmoothArgs,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    json: bool,
}

/// Runs `gridpath solve`.
pub fn run(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    let mut map = load_map(&args.map)?;
    map.start = args.from.or(map.start);
    map.goal = args.to.or(map.goal);
    if map.place_default_markers() {
        eprintln!(
            "gridpath: {} names no start or goal: using {} and {}, the cells of its largest region farthest apart (choose with --from X,Y and --to X,Y)",
            args.map.display(),
            map.start.map_or_else(String::new, |c| c.to_string()),
            map.goal.map_or_else(String::new, |c| c.to_string()),
        );
    }
    let start = map
        .start
        .context("the map has no passable cell to start from: give one with --from X,Y")?;
    let goal = map
        .goal
        .context("the map has no passable cell to go to: give one with --to X,Y")?;
    let request = SearchRequest {
        start,
        goal,
        algorithm: args.search.algorithm,
        diagonal: args.diagonal,
        heuristic: args.search.heuristic,
        weight: args.search.weight,
        record: false,
    };
    args.smoothing.validate()?;
    let result =
        search::solve(&map.grid, &request).with_context(|| args.map.display().to_string())?;
    let smoothed = args.smoothing.smooth(&map, &result)?;
    args.smoothing
        .export(&map, &request, &result, smoothed.as_ref())?;
    if args.json {
        let mut value = to_json(&request, &result);
        if args.smoothing.smooth {
            value["smoothed"] = serde_json::to_value(&smoothed)?;
        }
        out!("{value}");
    } else {
        print_summary(&request, &result)?;
        if let Some(smoothed) = &smoothed {
            smooth::print_summary(smoothed)?;
        }
        if map.grid.width() <= 80 {
            out!();
            use std::io::Write as _;
            write!(
                std::io::stdout().lock(),
                "{}",
                ascii::render(&map.grid, &result)
            )?;
        }
    }
    Ok(if result.found {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_NEGATIVE)
    })
}

fn to_json(request: &SearchRequest, result: &SearchResult) -> serde_json::Value {
    let path: Vec<[u32; 2]> = result.path.iter().map(|c| [c.x, c.y]).collect();
    let mut value = json!({
        "found": result.found,
        "algorithm": request.algorithm.name(),
        "diagonal": request.diagonal.name(),
        "heuristic": request.effective_heuristic().name(),
        "weight": request.weight,
        "from": [request.start.x, request.start.y],
        "to": [request.goal.x, request.goal.y],
        "cost": result.cost,
        "length": result.length,
        "optimality": result.optimality.to_string(),
        "path": path,
        "stats": {
            "expanded": result.stats.expanded,
            "pushed": result.stats.pushed,
            "max_open": result.stats.max_open,
            "time_us": result.stats.time_us,
            "budget_exhausted": result.stats.budget_exhausted,
        },
    });
    if !result.found {
        value["message"] = json!(result.message());
    }
    value
}

fn print_summary(request: &SearchRequest, result: &SearchResult) -> std::io::Result<()> {
    out!("{}", result.message());
    out!(
        "algorithm {}, diagonal {}, heuristic {}, weight {}: {}",
        request.algorithm,
        request.diagonal,
        request.effective_heuristic(),
        request.weight,
        result.optimality
    );
    let s = result.stats;
    out!(
        "expanded {}, pushed {}, largest open list {}, time {} µs",
        s.expanded,
        s.pushed,
        s.max_open,
        s.time_us
    );
    Ok(())
}
