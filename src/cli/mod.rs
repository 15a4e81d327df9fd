//! Argument parsing and dispatch. Each command lives in its own file and only wires the
//! library together.

/// `println!` that returns the error instead of panicking: when the reader of standard output
/// has gone (`gridpath field map.json --json | head`), the command ends quietly.
macro_rules! out {
    () => {
        out!("")
    };
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)?
    }};
}

mod ascii;
mod bounds;
mod convert;
mod crowd;
mod drive;
mod field;
mod heights;
mod mapf;
mod scen;
mod smooth;
mod solve;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use gridpath::format::level::{LevelFormat, LevelImport, LevelOptions, read_level};
use gridpath::format::load_map;
use gridpath::format::registry::{self, FileKind};
use gridpath::grid::{Cell, Map};
use gridpath::search::{Algorithm, Diagonal, Heuristic};

/// Exit code of a bad input: unreadable file, malformed map, impossible request.
pub const EXIT_BAD_INPUT: u8 = 1;
/// Exit code of a well-formed request with a negative answer (no path, or mismatches).
pub const EXIT_NEGATIVE: u8 = 2;
/// Exit code of a command line that cannot be parsed: an unknown command or option, a bad
/// value (`--algo`, `--from`, `--weight`). `EX_USAGE` of BSD's sysexits, apart from
/// [`EXIT_NEGATIVE`] (clap's own code for usage errors is 2).
pub const EXIT_USAGE: u8 = 64;

#[derive(Parser, Debug)]
#[command(name = "gridpath", version, about = "A grid map editor and pathfinding engine.", long_about = None)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Find a path on a map and print it.
    Solve(solve::SolveArgs),
    /// Run every query of a Moving AI scenario file and check the costs against it.
    Scen(scen::ScenArgs),
    /// Compute every cell's cost to one goal and its next step there (a flow field).
    Field(field::FieldArgs),
    /// Plan for many agents at once (multi-agent path finding) from a Moving AI scenario, or
    /// check a plan with `mapf check`.
    Mapf(mapf::MapfArgs),
    /// Move units with a radius and a speed continuously over a map, from a Moving AI scenario
    /// or at random, avoiding each other and the walls.
    Crowd(crowd::CrowdArgs),
    /// Plan a path a robot can drive: a round body that keeps its radius from the walls and
    /// turns no tighter than its turning radius (a search over poses).
    Drive(drive::DriveArgs),
    /// Convert between map files, or import an image or a ROS map.yaml.
    Convert(convert::ConvertArgs),
    /// Open a map in the editor (.json, .map, .tmx, .tmj, .ldtk), or import an image or ROS
    /// map.yaml.
    Edit {
        /// The map to open (.json, .map, or a Tiled map or LDtk project, opened in the level
        /// dialog), or an image (.png, .jpg, .bmp, .pgm) or map.yaml to import.
        map: PathBuf,
        #[command(flatten)]
        level: LevelArgs,
        /// A Moving AI scenario (.scen) of the map: its first lines become the units of the
        /// Agents panel, solved at once.
        #[arg(long, value_name = "SCEN")]
        agents: Option<PathBuf>,
        /// How many units --agents loads: the scenario's first K lines (1 to 100000).
        #[arg(long, value_name = "K", default_value_t = 50, requires = "agents",
              value_parser = clap::value_parser!(u64).range(1..=100_000))]
        agents_count: u64,
    },
}

/// Which part of a Tiled map or LDtk project to read, for the commands that read a map.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct LevelArgs {
    /// For an LDtk project (.ldtk): the level to read, by identifier [default: the first].
    #[arg(long)]
    pub level: Option<String>,
    /// For a Tiled map or LDtk project: the tile or IntGrid layer that decides the cells, by
    /// name [default: a layer named collision or walls, over the visible tile layers (Tiled);
    /// the collision IntGrid layer, else the first (LDtk)].
    #[arg(long)]
    pub layer: Option<String>,
}

impl LevelArgs {
    pub fn options(&self) -> LevelOptions {
        LevelOptions {
            level: self.level.clone(),
            layer: self.layer.clone(),
        }
    }

    /// Reads a level file with these options.
    pub fn read(&self, path: &Path) -> anyhow::Result<LevelImport> {
        Ok(read_level(path, &self.options())?)
    }

    /// Reads a map: a level file with these options, any other map with `load_map` (and no
    /// options given).
    pub fn load_map(&self, path: &Path) -> anyhow::Result<Map> {
        if LevelFormat::from_path(path).is_some() {
            return Ok(self.read(path)?.map);
        }
        self.refuse(path)?;
        if let Some(hint) = convert_hint(path) {
            anyhow::bail!("{hint}");
        }
        Ok(load_map(path)?)
    }

    /// Fails when options were given for a file that is not a level file.
    pub fn refuse(&self, path: &Path) -> anyhow::Result<()> {
        let given = self.level.is_some() || self.layer.is_some();
        if given && LevelFormat::from_path(path).is_none() {
            anyhow::bail!(
                "--level and --layer apply to Tiled maps (.tmx, .tmj) and LDtk projects (.ldtk), not to {}",
                path.display()
            );
        }
        Ok(())
    }
}

/// What to say of a file that is not a map but can be made one with `gridpath convert` (an
/// image or a ROS `map.yaml`): the command to run.
fn convert_hint(path: &Path) -> Option<String> {
    let what = match registry::kind_of(path)? {
        FileKind::Image => "an image",
        FileKind::RosMap => "a ROS map",
        FileKind::Map(_) => return None,
    };
    let json = path.with_extension("json");
    Some(format!(
        "{} is {what}, not a map: convert it first with `gridpath convert {} {}` (see \
         `gridpath convert --help` for the size and the occupancy thresholds), or open it in \
         the editor with `gridpath edit {}`",
        path.display(),
        path.display(),
        json.display(),
        path.display()
    ))
}

/// Search settings shared by the commands.
#[derive(clap::Args, Debug, Clone)]
pub struct SearchArgs {
    /// The search algorithm.
    #[arg(long = "algo", default_value = "astar", value_parser = algorithm_parser())]
    pub algorithm: Algorithm,
    /// Heuristic: manhattan, euclidean, chebyshev, octile, zero [default: octile, or manhattan
    /// when --diagonal never].
    #[arg(long)]
    pub heuristic: Option<Heuristic>,
    /// Weight on the heuristic for A* (weighted A* above 1; the cost stays within weight ×
    /// optimal) [range: 1 to 1000000].
    #[arg(long, default_value_t = 1.0,
          value_parser = bounds::number_in(1.0, gridpath::search::SearchRequest::MAX_WEIGHT))]
    pub weight: f64,
}

/// The algorithms of the registry as the command line's choices, each with its description.
fn algorithm_parser() -> impl clap::builder::TypedValueParser<Value = Algorithm> {
    let names = gridpath::search::ALGORITHMS
        .iter()
        .map(|a| clap::builder::PossibleValue::new(a.name).help(a.about));
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(names).try_map(|name| name.parse::<Algorithm>())
}

/// Parses `X,Y` into a cell.
pub fn parse_cell(s: &str) -> Result<Cell, String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("expected X,Y (e.g. 3,4), got {s:?}"))?;
    let coordinate = |v: &str| {
        v.trim()
            .parse::<u32>()
            .map_err(|_| format!("{v:?} in {s:?} is not a cell coordinate (a whole number ≥ 0)"))
    };
    Ok(Cell::new(coordinate(x)?, coordinate(y)?))
}

/// Parses a diagonal rule.
pub fn parse_diagonal(s: &str) -> Result<Diagonal, String> {
    s.parse()
}

/// Parses the command line and runs the command.
pub fn run() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(e) => {
            // --help and --version print to standard output and succeed.
            let code = if e.use_stderr() { EXIT_USAGE } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let outcome = match args.command {
        Some(Command::Solve(a)) => solve::run(&a),
        Some(Command::Scen(a)) => scen::run(&a),
        Some(Command::Field(a)) => field::run(&a),
        Some(Command::Mapf(a)) => mapf::run(&a),
        Some(Command::Crowd(a)) => crowd::run(&a),
        Some(Command::Drive(a)) => drive::run(&a),
        Some(Command::Convert(a)) => convert::run(&a),
        Some(Command::Edit {
            map,
            level,
            agents,
            agents_count,
        }) => {
            let team = agents.as_deref().map(|scen| (scen, agents_count as usize));
            level
                .refuse(&map)
                .and_then(|()| open_editor(Some(&map), level.options(), team))
        }
        None => open_editor(None, LevelOptions::default(), None),
    };
    match outcome {
        Ok(code) => code,
        // The reader stopped reading: nothing is wrong with the request.
        Err(error) if reader_gone(&error) => ExitCode::SUCCESS,
        Err(error) => {
            // A message that quotes a whole field of a hostile file is cut to its ends.
            eprintln!(
                "gridpath: {}",
                gridpath::format::shorten(&error_text(&error), gridpath::format::MAX_MESSAGE)
            );
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

/// An error and its causes in one line, `outer: inner: …`, leaving out a cause whose words the
/// line already holds (an error that repeats its source in its own message).
fn error_text(error: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in error.chain() {
        let said = cause.to_string();
        if text.contains(&said) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&said);
    }
    text
}

/// Whether an error is standard output's reader having closed the pipe.
fn reader_gone(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(feature = "editor")]
fn open_editor(
    map: Option<&Path>,
    level: LevelOptions,
    team: Option<(&Path, usize)>,
) -> anyhow::Result<ExitCode> {
    gridpath::app::run(map, level, team)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "editor"))]
fn open_editor(
    _map: Option<&Path>,
    _level: LevelOptions,
    _team: Option<(&Path, usize)>,
) -> anyhow::Result<ExitCode> {
    anyhow::bail!(
        "this gridpath was built without the editor (feature \"editor\"); see gridpath --help for the commands"
    )
}

#[cfg(test)]
mod level_args_tests {
    use super::*;

    #[test]
    fn level_options_are_refused_only_for_files_that_are_not_levels() {
        let args = LevelArgs {
            level: Some("Attic".to_owned()),
            layer: None,
        };
        assert!(args.refuse(Path::new("world.ldtk")).is_ok());
        assert!(args.refuse(Path::new("room.tmx")).is_ok());
        assert!(args.refuse(Path::new("map.json")).is_err());
        assert!(LevelArgs::default().refuse(Path::new("map.json")).is_ok());
    }
}
