//! `gridpath field`: every cell's cost to one goal and its next step, from one Dijkstra.

use std::io::{BufWriter, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context as _;
use gridpath::format::load_map;
use gridpath::grid::Cell;
use gridpath::search::{Diagonal, FlowField, SearchGraph};

use super::{parse_cell, parse_diagonal};

/// Arguments of `gridpath field`.
#[derive(clap::Args, Debug)]
pub struct FieldArgs {
    /// The map (.json or .map).
    map: PathBuf,
    /// Goal cell as X,Y [default: the map's goal].
    #[arg(long, value_parser = parse_cell)]
    to: Option<Cell>,
    /// Diagonal rule: never, always, one-free, no-cut.
    #[arg(long, default_value = "no-cut", value_parser = parse_diagonal)]
    diagonal: Diagonal,
    /// Print the whole field as one JSON object (width, height, goal, diagonal, costs and next
    /// steps row-major, null where the goal cannot be reached).
    #[arg(long)]
    json: bool,
}

/// Runs `gridpath field`.
pub fn run(args: &FieldArgs) -> anyhow::Result<ExitCode> {
    let map = load_map(&args.map)?;
    let goal = args
        .to
        .or(map.goal)
        .context("the map has no goal: give one with --to X,Y")?;
    let graph = SearchGraph::new(&map.grid, args.diagonal);
    let started = Instant::now();
    let field = FlowField::new(&graph, goal).with_context(|| args.map.display().to_string())?;
    let elapsed = started.elapsed();
    if args.json {
        // Streamed: a 4096 × 4096 field is gigabytes as a JSON value, a few hundred
        // megabytes as text, and only its own arrays this way.
        let mut out = BufWriter::new(std::io::stdout().lock());
        field.write_json(&mut out)?;
        out.write_all(b"\n")?;
        out.flush()?;
    } else {
        out!(
            "Flow field to {goal}: {} of {} passable cells reach the goal, largest cost {:.6}, {:.1} ms",
            field.reachable_count(),
            graph.passable_count(),
            field.max_cost(),
            elapsed.as_secs_f64() * 1000.0
        );
    }
    Ok(ExitCode::SUCCESS)
}
