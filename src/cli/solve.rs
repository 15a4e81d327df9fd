//! `gridpath solve`: one search on one map.

use std::io::{BufWriter, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context as _;
use gridpath::format::path_export::optimality_claim;
use gridpath::grid::{Cell, Grid, Topology};
use gridpath::search::{self, Diagonal, SearchRequest, SearchResult};
use serde::ser::{Serialize, SerializeMap as _, Serializer};

use super::heights::HeightArgs;
use super::smooth::SmoothArgs;
use super::{EXIT_NEGATIVE, LevelArgs, SearchArgs, ascii, parse_cell, parse_diagonal, smooth};

/// Arguments of `gridpath solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The map (.json, .map, or a Tiled map .tmx/.tmj or LDtk project .ldtk).
    map: PathBuf,
    #[command(flatten)]
    level: LevelArgs,
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
    heights: HeightArgs,
    #[command(flatten)]
    smoothing: SmoothArgs,
    /// A waypoint the path goes through, as X,Y; repeat for several, visited in the order
    /// given (or the cheapest order with --best-order) [default: the map's waypoints].
    #[arg(long = "via", value_parser = parse_cell)]
    via: Vec<Cell>,
    /// Visit the waypoints in the order that makes the route cheapest (up to 12 points).
    #[arg(long)]
    best_order: bool,
    /// Come back to the start after the goal: a closed patrol loop.
    #[arg(long)]
    patrol: bool,
    /// Plan for a unit of N × N cells, placed by its top-left cell: it goes only where its
    /// whole footprint is passable, and pays for the costliest cell under it [range: 1 to 64].
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    unit_size: u32,
    /// The cost of every 45° the path turns (A* and Dijkstra; 0: none) [range: 0 to 1000000].
    #[arg(long, default_value_t = 0.0,
          value_parser = super::bounds::number_in(0.0, SearchRequest::MAX_TURN_PENALTY))]
    turn_penalty: f64,
    /// When the goal cannot be reached, plan to the reachable cell nearest it (the result
    /// says so: "partial": true and "reached" in the JSON; the exit status stays 2).
    #[arg(long)]
    partial: bool,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    json: bool,
}

/// Runs `gridpath solve`.
pub fn run(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    args.smoothing.validate()?;
    if let Some(export) = &args.smoothing.export {
        let mut inputs = vec![("the map", args.map.as_path())];
        if let Some(heights) = &args.heights.heights {
            inputs.push(("the heights image", heights.as_path()));
        }
        gridpath::format::save::refuse_input_as_output(export, &inputs)?;
    }
    let mut map = args.level.load_map(&args.map)?;
    args.heights.apply(&mut map, &args.map)?;
    args.smoothing.frame(&mut map)?;
    map.start = args.from.or(map.start);
    map.goal = args.to.or(map.goal);
    let missing = match (map.start, map.goal) {
        (None, None) => "no start or goal",
        (None, Some(_)) => "no start",
        _ => "no goal",
    };
    // Where the chosen unit fits, for a unit larger than one cell or keeping a clearance.
    let placed =
        search::place_markers_for_body(&mut map, args.unit_size, args.smoothing.clearance())
            .with_context(|| args.map.display().to_string())?;
    if placed {
        eprintln!(
            "gridpath: {} names {missing}: using {} and {}, {} (choose with --from X,Y and --to X,Y)",
            args.map.display(),
            map.start.map_or_else(String::new, |c| c.to_string()),
            map.goal.map_or_else(String::new, |c| c.to_string()),
            gridpath::grid::marker_region(&map.grid).map_or("", |r| r.describe()),
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
        partial: args.partial,
        turn_penalty: args.turn_penalty,
    };
    if args.unit_size > 1 {
        let unit_grid = search::grid_for_unit(&map.grid, args.unit_size)
            .with_context(|| args.map.display().to_string())?;
        for (which, cell) in [("start", start), ("goal", goal)] {
            search::check_unit_fits(&map.grid, &unit_grid, args.unit_size, which, cell)
                .with_context(|| args.map.display().to_string())?;
        }
        map.grid = unit_grid;
    }
    // The map's own waypoints, unless the command line names others.
    let via = if args.via.is_empty() {
        map.waypoints.clone()
    } else {
        args.via.clone()
    };
    // A body that keeps a clearance (a disc robot of that radius) is searched on the cells
    // where it fits; the smoother measures the same clearance on the map itself.
    let radius = args.smoothing.clearance();
    gridpath::smooth::SmoothSettings {
        clearance: radius,
        ..Default::default()
    }
    .validate_for(&map.grid)
    .with_context(|| args.map.display().to_string())?;
    let ends = [("start", start), ("goal", goal)];
    let stops = via.iter().map(|&c| ("waypoint", c));
    for (which, cell) in ends.into_iter().chain(stops) {
        search::check_disc_fits(&map.grid, radius, which, cell)
            .with_context(|| args.map.display().to_string())?;
    }
    let disc_grid = (radius > 0.5)
        .then(|| search::grid_for_radius(&map.grid, radius))
        .transpose()
        .with_context(|| args.map.display().to_string())?;
    let search_grid = disc_grid.as_ref().unwrap_or(&map.grid);
    let routed = !via.is_empty() || args.patrol;
    // Everything but the query's own time is the build: the move graph and any tables the
    // algorithm makes beforehand (the contraction hierarchy's shortcuts, HPA*'s abstraction).
    let started = Instant::now();
    let mut graph = search::SearchGraph::new(search_grid, request.diagonal);
    if let Some(clearance) = args.smoothing.clearance {
        // Theta*'s segments keep the clearance asked from the walls as drawn.
        graph = graph.with_sight_clearance(&map.grid, clearance);
    }
    let (result, route) = if routed {
        let order = if args.best_order {
            search::RouteOrder::Cheapest
        } else {
            search::RouteOrder::AsGiven
        };
        let route = search::route(&graph, &request, &via, order, args.patrol)
            .with_context(|| args.map.display().to_string())?;
        (route.result.clone(), Some(route))
    } else {
        let result = search::Searcher::new()
            .search(&graph, &request)
            .with_context(|| args.map.display().to_string())?;
        (result, None)
    };
    let narrowest = if disc_grid.is_some() && !result.found && !routed {
        narrowest_place(&map.grid, &request, radius)
    } else {
        None
    };
    if let Some((cell, room)) = narrowest {
        eprintln!(
            "gridpath: {}: no path keeps a clearance of {radius} cells; without it the path is narrowest at {cell}, {room:.3} cells from the nearest wall",
            args.map.display()
        );
    }
    let build_us = (started.elapsed().as_micros() as u64).saturating_sub(result.stats.time_us);
    let stops = route.as_ref().map_or(&[][..], |r| &r.order[..]);
    let smoothed = args
        .smoothing
        .smooth(&map, &result, stops, args.unit_size)?;
    args.smoothing.export(
        &map,
        &request,
        &result,
        smoothed.as_ref(),
        route.as_ref(),
        args.unit_size,
    )?;
    if args.json {
        // Streamed: a long path is never held as a JSON value, only as the result's cells.
        let json = SolveJson {
            topology: map.grid.topology(),
            request: &request,
            result: &result,
            build_us,
            route: route.as_ref(),
            smoothed: args.smoothing.smooth.then_some(&smoothed),
            unit_size: args.unit_size,
            narrowest,
        };
        let mut out = BufWriter::new(std::io::stdout().lock());
        serde_json::to_writer(&mut out, &json).map_err(std::io::Error::from)?;
        out.write_all(b"\n")?;
        out.flush()?;
    } else {
        print_summary(map.grid.topology(), &request, &result, build_us)?;
        if args.unit_size > 1 {
            print_body(map.grid.topology(), args.unit_size, &result)?;
        }
        if let Some(route) = &route {
            let order: Vec<String> = route.order.iter().map(ToString::to_string).collect();
            out!("route {} in {} legs", order.join(" → "), route.legs.len());
        }
        if let Some(smoothed) = &smoothed {
            smooth::print_summary(smoothed)?;
        }
        if map.grid.width() <= 80 {
            out!();
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

/// The JSON object of `solve --json`, written straight from the search result: `found`,
/// `algorithm`, `diagonal` (`null` on a hex map, which names its `topology`), `heuristic`,
/// `weight`, `from`, `to`, `cost` and `length` (`null` when there is no path),
/// `turn_penalty` when one is set, `optimality`, `path` (cells as `[x, y]`), `waypoints` for an
/// any-angle path (the cells whose centres its straight segments join), with `--partial`
/// `partial` (and `reached`, the cell the path ends at, when the goal was unreachable), with
/// `--via` or `--patrol` `order` (the points in the order visited) and `legs` (each leg's
/// `from`, `to`, `found`, `cost` and `length`), `stats`, then `message` when no path was found
/// (with `narrowest`, `{"cell": [x, y], "room": d}`, when a clearance above half a cell kept
/// the body from the path found without it) and `smoothed` with `--smooth`. For a unit larger
/// than a cell, `unit_size`, `placed_by` and `centres` (the body's centre on each cell of
/// `path`) follow `path`.
struct SolveJson<'a, T> {
    topology: Topology,
    request: &'a SearchRequest,
    result: &'a SearchResult,
    /// The time outside the query, in microseconds.
    build_us: u64,
    route: Option<&'a search::Route>,
    smoothed: Option<&'a T>,
    /// The unit's size: above 1, `unit_size` and the body's `centres` are written.
    unit_size: u32,
    /// When no path keeps the clearance: the narrowest place of the path without it.
    narrowest: Option<(Cell, f64)>,
}

impl<T: Serialize> Serialize for SolveJson<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (request, result) = (self.request, self.result);
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("found", &result.found)?;
        map.serialize_entry("algorithm", request.algorithm.name())?;
        // The diagonal rule does not apply on hexes: `topology` names their layout instead.
        let diagonal = self
            .topology
            .has_diagonals()
            .then(|| request.diagonal.name());
        map.serialize_entry("diagonal", &diagonal)?;
        let heuristic = request.heuristic_on(self.topology);
        map.serialize_entry("heuristic", heuristic.name())?;
        if let Some(name) = self.topology.explicit_name() {
            map.serialize_entry("topology", name)?;
        }
        map.serialize_entry("weight", &request.weight)?;
        if request.turn_penalty != 0.0 {
            map.serialize_entry("turn_penalty", &request.turn_penalty)?;
        }
        map.serialize_entry("from", &[request.start.x, request.start.y])?;
        map.serialize_entry("to", &[request.goal.x, request.goal.y])?;
        map.serialize_entry("cost", &measure(result, result.cost))?;
        map.serialize_entry("length", &measure(result, result.length))?;
        map.serialize_entry("optimality", &optimality_claim(result))?;
        map.serialize_entry("path", &Path(&result.path))?;
        if let Some(waypoints) = &result.waypoints {
            map.serialize_entry("waypoints", &Path(waypoints))?;
        }
        if self.unit_size > 1 {
            map.serialize_entry("unit_size", &self.unit_size)?;
            map.serialize_entry("placed_by", self.topology.units_placed_by())?;
            let centres = Centres(self.topology, self.unit_size, &result.path);
            map.serialize_entry("centres", &centres)?;
            if let Some(waypoints) = &result.waypoints {
                let centres = Centres(self.topology, self.unit_size, waypoints);
                map.serialize_entry("waypoint_centres", &centres)?;
            }
        }
        if request.partial {
            map.serialize_entry("partial", &result.reached.is_some())?;
        }
        if let Some(reached) = result.reached {
            map.serialize_entry("reached", &[reached.x, reached.y])?;
        }
        if let Some(route) = self.route {
            map.serialize_entry("order", &Path(&route.order))?;
            let legs: Vec<serde_json::Value> = route
                .legs
                .iter()
                .map(|leg| {
                    serde_json::json!({
                        "from": [leg.start.x, leg.start.y],
                        "to": [leg.goal.x, leg.goal.y],
                        "found": leg.found,
                        "cost": measure(leg, leg.cost),
                        "length": measure(leg, leg.length),
                    })
                })
                .collect();
            map.serialize_entry("legs", &legs)?;
        }
        map.serialize_entry("stats", &Stats(result, self.build_us))?;
        if !result.found {
            map.serialize_entry("message", &result.message())?;
        }
        if let Some((cell, room)) = self.narrowest {
            let place = serde_json::json!({ "cell": [cell.x, cell.y], "room": room });
            map.serialize_entry("narrowest", &place)?;
        }
        if let Some(smoothed) = self.smoothed {
            map.serialize_entry("smoothed", smoothed)?;
        }
        map.end()
    }
}

/// A path's cost or length, `None` (JSON `null`) when the search gave up without a path (no
/// path, or its budget ran out): there is nothing to measure, and 0 would read as a free path.
fn measure(result: &SearchResult, value: f64) -> Option<f64> {
    (!result.path.is_empty()).then_some(value)
}

/// Cells as a JSON array of `[x, y]`.
struct Path<'a>(&'a [Cell]);

impl Serialize for Path<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|c| [c.x, c.y]))
    }
}

/// The centres of a unit of some size on cells, as a JSON array of points `[x, y]`.
struct Centres<'a>(Topology, u32, &'a [Cell]);

impl Serialize for Centres<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Centres(topology, size, cells) = *self;
        serializer.collect_seq(cells.iter().map(|&c| {
            let (x, y) = search::body_centre(topology, size, c);
            [x, y]
        }))
    }
}

/// The search's counters as a JSON object, with the time outside the query.
struct Stats<'a>(&'a SearchResult, u64);

impl Serialize for Stats<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let stats = &self.0.stats;
        let mut map = serializer.serialize_map(Some(7))?;
        map.serialize_entry("expanded", &stats.expanded)?;
        map.serialize_entry("pushed", &stats.pushed)?;
        map.serialize_entry("max_open", &stats.max_open)?;
        map.serialize_entry("time_us", &stats.time_us)?;
        map.serialize_entry("build_us", &self.1)?;
        map.serialize_entry("prepared_bytes", &stats.prepared_bytes)?;
        map.serialize_entry("budget_exhausted", &stats.budget_exhausted)?;
        map.end()
    }
}

/// Where the path found without a clearance comes nearest a wall, when it comes nearer than
/// `radius`: the place a body of that radius cannot pass.
fn narrowest_place(grid: &Grid, request: &SearchRequest, radius: f64) -> Option<(Cell, f64)> {
    let plain = search::solve(grid, request).ok()?;
    search::narrowest(grid, &plain.path, radius)
}

/// Says which body the path is for, and where its centre starts and ends.
fn print_body(topology: Topology, size: u32, result: &SearchResult) -> std::io::Result<()> {
    let footprint = if topology.places_units_by_centre() {
        format!("a unit of size {size} placed by its centre hex")
    } else {
        format!("a unit of {size} × {size} cells placed by its top-left cell")
    };
    let centre = |cell: Option<&Cell>| {
        cell.map_or_else(String::new, |&c| {
            let (x, y) = search::body_centre(topology, size, c);
            format!("({x}, {y})")
        })
    };
    out!(
        "body: {footprint}; its centre goes from {} to {} (points of the smoothed path are its centre)",
        centre(result.path.first()),
        centre(result.path.last())
    );
    Ok(())
}

fn print_summary(
    topology: Topology,
    request: &SearchRequest,
    result: &SearchResult,
    build_us: u64,
) -> std::io::Result<()> {
    out!("{}", result.message());
    // On a hex map the diagonal rule does not apply: the map's layout is named instead.
    let neighbours = if topology.has_diagonals() {
        format!("diagonal {}", request.diagonal)
    } else {
        format!("{topology} {}", topology.cells_name())
    };
    out!(
        "algorithm {}, {neighbours}, heuristic {}, weight {}: {}",
        request.algorithm,
        request.heuristic_on(topology),
        request.weight,
        optimality_claim(result)
    );
    if let Some(waypoints) = &result.waypoints {
        let cells: Vec<String> = waypoints.iter().map(ToString::to_string).collect();
        out!("any-angle waypoints: {}", cells.join(" → "));
    }
    let s = result.stats;
    out!(
        "expanded {}, pushed {}, largest open list {}, time {} µs (query; build {build_us} µs)",
        s.expanded,
        s.pushed,
        s.max_open,
        s.time_us
    );
    if s.prepared_bytes > 0 {
        out!("prepared structure {:.1} MB", s.prepared_bytes as f64 / 1e6);
    }
    Ok(())
}
