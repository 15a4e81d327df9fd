//! Paths a robot can drive: the search over poses on the turtlebot3 map of `map_saver`
//! (`../shared/samples/ros-turtlebot3`, 5 cm cells) and the floorplan fixture
//! (`tests/data/floorplan.json`, taken as 1 m cells), a disc robot of 0.15 m and 0.25 m with a
//! turning radius of 0.3 m, five poses each.
//!
//! For each query and motion (Dubins, Reeds–Shepp): the length, the lower bound of the
//! motion's shortest curve through no walls, the least
//! clearance and the tightest turn (recomputed from samples every centimetre), poses expanded
//! and the milliseconds of the fastest of five runs.

#![allow(clippy::unwrap_used, clippy::expect_used)] // A benchmark fails loudly.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use gridpath::drive::{DriveError, DriveRequest, Motion, Pose, plan};
use gridpath::format::load_map;
use gridpath::format::ros_map::load_ros_map;
use gridpath::grid::Map;

/// A pose in metres and degrees in the map frame (y up, yaw counter-clockwise).
type Posed = (f64, f64, f64);

/// The turtlebot3 arena: round its 3 × 3 pillars.
const TURTLEBOT3: [(Posed, Posed); 5] = [
    ((-1.9, -0.5, 90.0), (1.9, 0.6, 90.0)),
    ((-0.6, -1.6, 0.0), (0.6, 1.6, 180.0)),
    ((-1.6, 1.6, -45.0), (1.5, -1.5, 0.0)),
    ((-0.5, 0.6, 0.0), (0.55, -0.5, 0.0)),
    ((0.0, 2.1, 0.0), (0.0, -2.0, 180.0)),
];

/// The floorplan's rooms, corridors and its narrow passage (1 m cells, the origin at the
/// lower-left corner).
const FLOORPLAN: [(Posed, Posed); 5] = [
    ((3.5, 32.5, 0.0), (28.5, 4.5, 0.0)),
    ((10.5, 25.5, 90.0), (40.5, 25.5, -90.0)),
    ((10.5, 5.5, 180.0), (38.5, 30.5, 90.0)),
    ((3.5, 18.5, 0.0), (31.5, 4.5, 180.0)),
    ((6.5, 27.5, 0.0), (20.5, 29.5, 90.0)),
];

fn pose(map: &Map, (x, y, yaw): Posed) -> Pose {
    let geo = map.metadata.expect("a world frame");
    let height = f64::from(map.grid.height());
    Pose::new(
        (x - geo.origin[0]) / geo.resolution,
        height - (y - geo.origin[1]) / geo.resolution,
        -yaw.to_radians(),
    )
}

fn table(name: &str, map: &Map, pairs: &[(Posed, Posed)]) {
    let metres = map.metadata.expect("a world frame").resolution;
    println!(
        "\n{name} ({} × {} cells of {metres} m)",
        map.grid.width(),
        map.grid.height()
    );
    println!(
        "| motion | body m | pair | length m | no walls m | least clearance m | tightest turn m | expanded | ms |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let runs = [Motion::Dubins, Motion::ReedsShepp]
        .into_iter()
        .flat_map(|m| [(m, 0.15), (m, 0.25)]);
    for (motion, body) in runs {
        for (i, &(a, b)) in pairs.iter().enumerate() {
            let mut request = DriveRequest::new(pose(map, a), pose(map, b))
                .with_body_radius(body / metres)
                .with_turning_radius(0.3 / metres);
            request.motion = motion;
            let mut best = Duration::MAX;
            let mut outcome = None;
            for _ in 0..5 {
                let t = Instant::now();
                let result = plan(&map.grid, &request, None);
                best = best.min(t.elapsed());
                outcome = Some(result);
            }
            let bound =
                motion.distance(request.start, request.goal, request.turning_radius) * metres;
            let ms = best.as_secs_f64() * 1e3;
            let name = motion.name();
            match outcome.unwrap() {
                Ok(drive) => println!(
                    "| {name} | {body} | {} | {:.3} | {bound:.3} | {:.3} | {:.3} | {} | {ms:.2} |",
                    i + 1,
                    drive.curve.length() * metres,
                    drive.least_clearance * metres,
                    drive.least_turning_radius() * metres,
                    drive.expanded,
                ),
                Err(e @ (DriveError::NoWay | DriveError::Blocked { .. })) => {
                    println!(
                        "| {name} | {body} | {} | {e} | {bound:.3} | | | | {ms:.2} |",
                        i + 1
                    );
                }
                Err(e) => panic!("pair {}: {e}", i + 1),
            }
        }
    }
}

fn main() {
    let samples =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/samples/ros-turtlebot3/map.yaml");
    match Some(samples).filter(|p| p.exists()) {
        Some(path) => table(
            "turtlebot3",
            &load_ros_map(&path, |_| {}).expect("the turtlebot3 map"),
            &TURTLEBOT3,
        ),
        None => println!("SKIPPED: the turtlebot3 sample is not beside the project"),
    }
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/floorplan.json");
    let mut floorplan = load_map(&fixture).expect("the floorplan fixture");
    floorplan.metadata = Some(gridpath::grid::GeoReference {
        resolution: 1.0,
        origin: [0.0, 0.0, 0.0],
    });
    table("floorplan", &floorplan, &FLOORPLAN);
}
