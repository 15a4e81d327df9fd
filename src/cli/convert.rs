//! `gridpath convert`: between map files, and from images and ROS occupancy maps.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use gridpath::format::image_import::{ImageImport, ImportMode, Reduce, Scale};
use gridpath::format::occupancy::{MapServer, Occupancy, Unknown};
use gridpath::format::registry::{self, FileKind};
use gridpath::format::ros_map::{RosMap, load_ros_map};
use gridpath::format::ros_write::{RosImage, image_path_for, write_ros_map};
use gridpath::format::{MapFormat, load_map, save};
use gridpath::grid::{GeoReference, Grid, Map, Topology};

use super::LevelArgs;
use super::bounds::{number_above, number_in};
use super::heights::HeightArgs;

/// Arguments of `gridpath convert`.
#[derive(clap::Args, Debug)]
pub struct ConvertArgs {
    /// The input: an image (.png, .jpg, .bmp, .pgm), a ROS map (.yaml), a map (.json, .map), a
    /// Tiled map (.tmx, .tmj) or an LDtk project (.ldtk).
    input: PathBuf,
    /// The output: a map (.json, .map), a Tiled map (.tmj, .tmx), an image of the terrain
    /// colours (.png), or a ROS map (.yaml, written with its .pgm beside it).
    output: PathBuf,
    #[command(flatten)]
    level: LevelArgs,
    #[command(flatten)]
    heights: HeightArgs,
    /// Occupancy above which a pixel becomes a wall [default: 0.65, or the yaml's] [range: 0
    /// to 1].
    #[arg(long, value_parser = number_in(0.0, 1.0))]
    threshold: Option<f64>,
    /// Occupancy below which a pixel becomes free [default: 0.25, or the yaml's] [range: 0 to
    /// 1].
    #[arg(long = "free-threshold", value_parser = number_in(0.0, 1.0))]
    free_threshold: Option<f64>,
    /// Read dark pixels as free and light ones as occupied.
    #[arg(long)]
    negate: bool,
    /// Cells per pixel: 0.25 makes one cell of each 4 × 4 block of pixels (combined as
    /// --reduce says) [range: above 0, at most 64; the grid at most 32768 a side].
    #[arg(long, conflicts_with = "width", value_parser = number_above(0.0, 64.0))]
    scale: Option<f64>,
    /// The grid's width in cells; the height follows the image's aspect ratio [range: 1 to
    /// 32768].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(Grid::MAX_SIDE)))]
    width: Option<u32>,
    /// How the pixels that fall into one cell are combined when the image is downscaled.
    /// mean-walls: the class of the pixels' mean value (dust and speckle fade), then every
    /// cell that a wall line thinner than a cell crosses between two free regions of the
    /// image becomes a wall, so rooms the image keeps apart stay apart; max: the class of
    /// the most occupied pixel (every thin wall stays, and so does every speck of dust);
    /// mean: the class of the mean alone (thin walls fade into grey).
    #[arg(
        long,
        value_enum,
        default_value = "mean-walls",
        conflicts_with = "palette"
    )]
    reduce: ReduceChoice,
    /// What cells of unknown occupancy become.
    #[arg(long, value_enum, default_value = "unknown")]
    unknown: UnknownChoice,
    /// Whose `map_server`'s reading of the image to follow: nav2's (ROS 2) or ROS 1's; they
    /// differ on alpha in scale mode, 16-bit samples, rounding, and negate in raw mode.
    #[arg(
        long = "map-server",
        value_enum,
        default_value = "nav2",
        conflicts_with = "palette"
    )]
    map_server: MapServerChoice,
    /// For a .yaml output: metres per cell [default: the map's own, from a ROS import]
    /// [range: 1e-9 to 1e9].
    #[arg(long, value_parser = number_in(GeoReference::MIN_RESOLUTION, GeoReference::MAX_RESOLUTION))]
    resolution: Option<f64>,
    /// For a .yaml output: the pose of the map's lower-left corner, X,Y,YAW in metres and
    /// radians [default: the map's own, or 0,0,0].
    #[arg(long, value_parser = parse_origin, allow_hyphen_values = true)]
    origin: Option<[f64; 3]>,
    /// For a .yaml output: write a nav2 costmap filter mask of the terrain costs instead of
    /// the occupancy map (keepout: impassable and costlier-than-1 cells; speed: a speed limit
    /// of 100 / cost percent, 1 % on impassable cells, with a keepout mask of them in
    /// NAME-keepout.yaml).
    #[arg(long, value_enum)]
    mask: Option<MaskChoice>,
    /// Read each pixel's exact colour as a terrain instead of its brightness as occupancy:
    /// by the terrain legend a PNG written by gridpath carries, else by the built-in terrains
    /// (Grass #6abe30, Road #c8b58c, Swamp #4b6b3a, Wall #222222); any other colour is an
    /// error that names it and its first pixel. A PNG that carries a legend is read by it
    /// even without --palette, unless --threshold, --free-threshold or --negate is given.
    #[arg(long, conflicts_with_all = ["threshold", "free_threshold", "negate"])]
    palette: bool,
    /// Give the cells this shape, each keeping its row and column: square, or hexes in one of
    /// Tiled's layouts (odd-r, even-r: pointy-top, odd or even rows pushed right; odd-q,
    /// even-q: flat-top, odd or even columns pushed down) [default: the input's].
    #[arg(long)]
    topology: Option<Topology>,
}

/// Which nav2 mask to write.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum MaskChoice {
    /// Keep out of impassable and costly cells.
    Keepout,
    /// Slow down on costly cells.
    Speed,
}

/// Parses `X,Y,YAW`.
fn parse_origin(s: &str) -> Result<[f64; 3], String> {
    let values: Vec<f64> = s
        .split(',')
        .map(|v| v.trim().parse::<f64>().ok().filter(|v| v.is_finite()))
        .collect::<Option<_>>()
        .ok_or_else(|| format!("expected X,Y,YAW (three numbers), got {s:?}"))?;
    match values[..] {
        [x, y, yaw] => Ok([x, y, yaw]),
        [x, y] => Ok([x, y, 0.0]),
        _ => Err(format!("expected X,Y,YAW (three numbers), got {s:?}")),
    }
}

/// How the pixels of one cell are combined.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum ReduceChoice {
    /// The mean, and the cells thin walls between free regions cross.
    MeanWalls,
    /// The most occupied pixel.
    Max,
    /// The mean of the pixels.
    Mean,
}

/// Whose `map_server` to follow.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum MapServerChoice {
    /// nav2's `map_server` (ROS 2).
    Nav2,
    /// ROS 1's `map_server`.
    Ros1,
}

/// What unknown cells become.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum UnknownChoice {
    /// Walls.
    Wall,
    /// Free floor.
    Free,
    /// A terrain of their own ("?", impassable).
    Unknown,
}

/// Runs `gridpath convert`.
pub fn run(args: &ConvertArgs) -> anyhow::Result<ExitCode> {
    let ros_output = registry::kind_of(&args.output) == Some(FileKind::RosMap);
    if !ros_output && (args.resolution.is_some() || args.origin.is_some() || args.mask.is_some()) {
        bail!(
            "--resolution, --origin and --mask apply to a ROS map output (.yaml), not to {}",
            args.output.display()
        );
    }
    let mut map = read(args)?;
    args.heights.apply(&mut map, &args.input)?;
    if let Some(topology) = args.topology {
        map.grid.set_topology(topology);
    }
    refuse_inputs_as_outputs(args)?;
    if ros_output && !map.grid.topology().has_square_cells() {
        bail!(
            "a ROS map has square cells: write the hex map {} as .json, .tmj or .tmx",
            args.input.display()
        );
    }
    let json_output = registry::kind_of(&args.output) == Some(FileKind::Map(MapFormat::Json));
    if map.grid.heights().is_some() && !json_output {
        eprintln!(
            "gridpath: {} keeps no heights: only a gridpath map (.json) holds them",
            args.output.display()
        );
    }
    if ros_output {
        write_ros(args, &map)?;
    } else {
        save::save_map(&map, &args.output)?;
    }
    let grid = &map.grid;
    let walls = grid
        .cells()
        .iter()
        .filter(|&&id| !grid.terrain(id).is_passable())
        .count();
    let topology = grid.topology();
    let shape = topology.explicit_name().map_or_else(String::new, |name| {
        format!(" ({name} {})", topology.cells_name())
    });
    out!(
        "{} → {}: {} × {} cells{shape}, {walls} impassable",
        args.input.display(),
        args.output.display(),
        grid.width(),
        grid.height()
    );
    Ok(ExitCode::SUCCESS)
}

/// Refuses an output (the file itself, and for a ROS map the image beside it) that is one of
/// the files read: the input, the image a ROS input names, the heights image.
fn refuse_inputs_as_outputs(args: &ConvertArgs) -> anyhow::Result<()> {
    let ros_image = (registry::kind_of(&args.input) == Some(FileKind::RosMap))
        .then(|| RosMap::read(&args.input).ok())
        .flatten()
        .map(|ros| ros.image_path(&args.input));
    let mut inputs = vec![("the input", args.input.as_path())];
    if let Some(image) = &ros_image {
        inputs.push(("the image the input names", image.as_path()));
    }
    if let Some(heights) = &args.heights.heights {
        inputs.push(("the heights image", heights.as_path()));
    }
    save::refuse_input_as_output(&args.output, &inputs)?;
    if registry::kind_of(&args.output) == Some(FileKind::RosMap) {
        save::refuse_input_as_output(&image_path_for(&args.output), &inputs)?;
    }
    Ok(())
}

/// Writes the map as a ROS map.yaml and PGM (or a nav2 mask) with its world frame.
fn write_ros(args: &ConvertArgs, map: &Map) -> anyhow::Result<()> {
    let own = map.metadata;
    let resolution = args.resolution.or(own.map(|g| g.resolution)).with_context(|| {
        format!(
            "{} has no world frame: give --resolution (metres per cell) and, if it is not at 0,0, --origin X,Y,YAW",
            args.input.display()
        )
    })?;
    let geo = GeoReference {
        resolution,
        origin: args.origin.or(own.map(|g| g.origin)).unwrap_or([0.0; 3]),
    };
    geo.validate()
        .map_err(|e| anyhow::anyhow!("bad --resolution or --origin: {e}"))?;
    let kind = match args.mask {
        None => RosImage::Occupancy,
        Some(MaskChoice::Keepout) => RosImage::Keepout,
        Some(MaskChoice::Speed) => RosImage::Speed,
    };
    let written = write_ros_map(map, &args.output, &geo, kind)?;
    for companion in written.iter().skip(1) {
        eprintln!(
            "gridpath: nav2's speed filter cannot stop a robot (a limit of 0 means no limit): impassable cells are written as 1 % of full speed, and as a keepout mask in {}",
            companion.display()
        );
    }
    Ok(())
}

fn read(args: &ConvertArgs) -> anyhow::Result<Map> {
    match registry::kind_of(&args.input) {
        Some(FileKind::Image) => {
            let occupancy =
                args.threshold.is_some() || args.free_threshold.is_some() || args.negate;
            let (mut import, by_legend) =
                ImageImport::for_file(&args.input, args.palette, occupancy)?;
            if let (true, ImportMode::Palette(legend)) = (by_legend, &import.mode) {
                eprintln!(
                    "gridpath: {} carries a terrain legend: read by it ({})",
                    args.input.display(),
                    legend.describe()
                );
            }
            adjust(args, &mut import);
            Ok(import.load(&args.input)?)
        }
        Some(FileKind::RosMap) => Ok(load_ros_map(&args.input, |import| adjust(args, import))?),
        Some(FileKind::Map(MapFormat::Tiled | MapFormat::Ldtk)) => {
            Ok(args.level.read(&args.input)?.map)
        }
        Some(FileKind::Map(_)) => {
            args.level.refuse(&args.input)?;
            let image_only = args.threshold.is_some()
                || args.free_threshold.is_some()
                || args.negate
                || args.scale.is_some()
                || args.width.is_some()
                || args.palette;
            if image_only {
                bail!(
                    "--threshold, --free-threshold, --negate, --scale, --width and --palette apply to image and .yaml inputs, not to {}",
                    args.input.display()
                );
            }
            Ok(load_map(&args.input)?)
        }
        None => bail!(
            "{}: unknown input type: expected {}",
            args.input.display(),
            registry::listed(&registry::extensions_where(|_| true))
        ),
    }
}

/// Applies the command line's settings over the defaults (or the yaml file's).
fn adjust(args: &ConvertArgs, import: &mut ImageImport) {
    if let Some(s) = args.scale {
        import.scale = Scale::CellsPerPixel(s);
    }
    if let Some(w) = args.width {
        import.scale = Scale::Width(w);
    }
    import.reduce = match args.reduce {
        ReduceChoice::MeanWalls => Reduce::MeanWalls,
        ReduceChoice::Max => Reduce::Max,
        ReduceChoice::Mean => Reduce::Mean,
    };
    if let ImportMode::Occupancy(o) = &mut import.mode {
        if let Some(t) = args.threshold {
            o.occupied_thresh = t;
        }
        if let Some(t) = args.free_threshold {
            o.free_thresh = t;
        }
        o.negate |= args.negate;
        o.map_server = match args.map_server {
            MapServerChoice::Nav2 => MapServer::Nav2,
            MapServerChoice::Ros1 => MapServer::Ros1,
        };
        o.unknown = match args.unknown {
            UnknownChoice::Wall => Unknown::Wall,
            UnknownChoice::Free => Unknown::Free,
            UnknownChoice::Unknown => Occupancy::default().unknown,
        };
    }
}
