//! Drives checked by a validator of the tests' own: from the samples alone, the exact distance
//! of every sample and every chord between samples to the nearest wall square, and the turning
//! radius of every three consecutive samples.

use std::f64::consts::{FRAC_PI_2, PI};

use super::*;
use crate::grid::Cell;
use crate::rng::Rng;

/// The distance from the segment `a`–`b` to the square of cell `(cx, cy)`, by sampling the
/// segment finely and measuring each point exactly (independent of the engine's geometry).
fn segment_to_square(a: (f64, f64), b: (f64, f64), cx: i64, cy: i64) -> f64 {
    let n = 20;
    (0..=n)
        .map(|i| {
            let t = i as f64 / n as f64;
            let (x, y) = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
            let dx = (cx as f64 - x).max(0.0).max(x - (cx as f64 + 1.0));
            let dy = (cy as f64 - y).max(0.0).max(y - (cy as f64 + 1.0));
            dx.hypot(dy)
        })
        .fold(f64::INFINITY, f64::min)
}

/// The least distance from the chord `a`–`b` to a wall square or the outside.
fn chord_clearance(grid: &Grid, a: (f64, f64), b: (f64, f64), reach: f64) -> f64 {
    let x0 = (a.0.min(b.0) - reach).floor() as i64;
    let x1 = (a.0.max(b.0) + reach).ceil() as i64;
    let y0 = (a.1.min(b.1) - reach).floor() as i64;
    let y1 = (a.1.max(b.1) + reach).ceil() as i64;
    let mut best = reach;
    for cy in y0..=y1 {
        for cx in x0..=x1 {
            let wall = !grid.contains(cx, cy) || !grid.is_passable(Cell::new(cx as u32, cy as u32));
            if wall {
                best = best.min(segment_to_square(a, b, cx, cy));
            }
        }
    }
    best
}

/// The radius of the circle through three points (infinite when they are in a line).
fn circumradius(a: (f64, f64), b: (f64, f64), c: (f64, f64)) -> f64 {
    let ab = (a.0 - b.0).hypot(a.1 - b.1);
    let bc = (b.0 - c.0).hypot(b.1 - c.1);
    let ca = (c.0 - a.0).hypot(c.1 - a.1);
    let cross = ((b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)).abs();
    if cross < 1e-12 {
        f64::INFINITY
    } else {
        ab * bc * ca / (2.0 * cross)
    }
}

/// Checks a drive from its samples alone: clearance along every chord (less the chord's own
/// sagitta allowance of a thousandth of a cell), turning radius at every three samples, the
/// ends on the requested poses. Returns the least clearance and least radius seen.
pub(super) fn validate(grid: &Grid, request: &DriveRequest, drive: &Drive) -> (f64, f64) {
    let samples = drive.curve.samples(0.05);
    let first = samples[0].pose;
    let last = samples.last().unwrap().pose;
    assert!(first.distance(request.start) < 1e-6, "starts at {first:?}");
    assert!(last.distance(request.goal) < 1e-6, "ends at {last:?}");
    if !request.start_heading_free {
        assert!(pose::angle_between(first.theta, request.start.theta) < 1e-6);
    }
    if !request.goal_heading_free {
        assert!(
            pose::angle_between(last.theta, request.goal.theta) < 1e-6,
            "ends facing {}",
            last.theta
        );
    }
    let points: Vec<(f64, f64)> = samples.iter().map(|s| (s.pose.x, s.pose.y)).collect();
    let mut least = f64::INFINITY;
    for pair in points.windows(2) {
        least = least.min(chord_clearance(
            grid,
            pair[0],
            pair[1],
            request.body_radius + 1.0,
        ));
    }
    assert!(
        least >= request.body_radius - 1e-3,
        "the body comes {least} from a wall (radius {})",
        request.body_radius
    );
    let mut tightest = f64::INFINITY;
    for (i, w) in points.windows(3).enumerate() {
        // A change of gear is a cusp, where the car stops and drives back: no turn.
        if samples[i].gear != samples[i + 1].gear {
            continue;
        }
        let (d1, d2) = (
            (w[0].0 - w[1].0).hypot(w[0].1 - w[1].1),
            (w[1].0 - w[2].0).hypot(w[1].1 - w[2].1),
        );
        if d1 < 1e-6 || d2 < 1e-6 {
            continue;
        }
        tightest = tightest.min(circumradius(w[0], w[1], w[2]));
    }
    assert!(
        tightest >= request.turning_radius * (1.0 - 1e-3),
        "a turn of radius {tightest} (limit {})",
        request.turning_radius
    );
    // Each chord points the way the car faces, or straight behind it in reverse (Dubins: never).
    for pair in samples.windows(2) {
        let (a, b) = (pair[0].pose, pair[1].pose);
        let d = (b.x - a.x).hypot(b.y - a.y);
        if d > 1e-6 {
            let along = ((b.x - a.x) * a.theta.cos() + (b.y - a.y) * a.theta.sin()) / d;
            match pair[0].gear {
                Gear::Forward => assert!(along > 0.9, "a chord runs against the heading"),
                Gear::Reverse => {
                    assert_eq!(request.motion, Motion::ReedsShepp, "a Dubins car backs up");
                    assert!(along < -0.9, "a reversing chord runs ahead");
                }
            }
        }
    }
    (least, tightest)
}

/// A room of `width` × `height` cells with `blocks` walls of 1 to `size` cells a side.
fn random_room(rng: &mut Rng, width: usize, height: usize, blocks: usize, size: usize) -> Grid {
    let mut rows = vec![vec!['.'; width]; height];
    for _ in 0..blocks {
        let (x, y) = (rng.below(width - 2), rng.below(height - 2));
        let (w, h) = (1 + rng.below(size), 1 + rng.below(size));
        for row in rows.iter_mut().skip(y).take(h) {
            for c in row.iter_mut().skip(x).take(w) {
                *c = '#';
            }
        }
    }
    let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    Grid::from_ascii(&refs).unwrap()
}

/// A pose at least a cell inside a room of `width` × `height`, at any heading.
fn random_pose_in(rng: &mut Rng, width: usize, height: usize) -> Pose {
    Pose::new(
        1.0 + rng.below((width - 2) * 100) as f64 / 100.0,
        1.0 + rng.below((height - 2) * 100) as f64 / 100.0,
        rng.below(6283) as f64 / 1000.0,
    )
}

/// Plans `request` and validates the drive if there is one: whether there was. A body that
/// does not fit or finds no way is an answer; any other error fails the test.
fn planned_and_valid(grid: &Grid, request: &DriveRequest, round: usize) -> bool {
    match plan(grid, request, None) {
        Ok(drive) => {
            validate(grid, request, &drive);
            true
        }
        Err(DriveError::Blocked { .. } | DriveError::NoWay) => false,
        Err(other) => panic!("round {round}: {other}"),
    }
}

fn room() -> Grid {
    Grid::from_ascii(&[
        "..................",
        "..................",
        "..................",
        "#############.....",
        "..................",
        "..................",
        "..................",
    ])
    .unwrap()
}

#[test]
fn a_drive_round_a_wall_keeps_its_body_and_its_turns() {
    let grid = room();
    let request = DriveRequest::new(Pose::new(2.0, 1.5, 0.0), Pose::new(2.0, 5.5, PI))
        .with_body_radius(0.45)
        .with_turning_radius(1.2);
    let drive = plan(&grid, &request, None).expect("a drive");
    let (least, _) = validate(&grid, &request, &drive);
    assert!(least >= 0.45);
    assert!(drive.least_clearance >= 0.45 - 1e-9);
}

#[test]
fn a_body_too_wide_for_the_door_gets_no_drive() {
    // A door two cells wide: a body of radius 0.95 passes it, one of 1.05 does not.
    let mut rows = vec!["...................."; 13];
    rows[6] = "#########..#########";
    let grid = Grid::from_ascii(&rows).unwrap();
    let (start, goal) = (
        Pose::new(10.0, 2.5, FRAC_PI_2),
        Pose::new(10.0, 10.5, FRAC_PI_2),
    );
    let fits = DriveRequest::new(start, goal)
        .with_body_radius(0.95)
        .with_turning_radius(2.0);
    let drive = plan(&grid, &fits, None).expect("it passes the door");
    validate(&grid, &fits, &drive);
    let wide = DriveRequest::new(start, goal)
        .with_body_radius(1.05)
        .with_turning_radius(2.0);
    assert_eq!(plan(&grid, &wide, None).map(|_| ()), Err(DriveError::NoWay));
}

#[test]
fn a_turn_too_tight_for_the_corridor_gets_no_drive() {
    // A corridor one cell wide with a right-angle bend: a point turns it, a car of turning
    // radius 3 cannot.
    let grid = Grid::from_ascii(&["#######", "......#", "#####.#", "#####.#", "#####.#"]).unwrap();
    let start = Pose::new(0.5, 1.5, 0.0);
    let goal = Pose::new(5.5, 4.5, FRAC_PI_2);
    let tight = DriveRequest::new(start, goal)
        .with_body_radius(0.2)
        .with_turning_radius(3.0);
    assert_eq!(
        plan(&grid, &tight, None).map(|_| ()),
        Err(DriveError::NoWay)
    );
    let easy = DriveRequest::new(start, goal)
        .with_body_radius(0.2)
        .with_turning_radius(0.3);
    let drive = plan(&grid, &easy, None).expect("a small turn fits");
    validate(&grid, &easy, &drive);
}

#[test]
fn random_rooms_give_valid_drives() {
    let mut rng = Rng::new(42);
    let mut planned = 0;
    for round in 0..30 {
        let grid = random_room(&mut rng, 40, 24, 8, 4);
        let pick = |rng: &mut Rng| random_pose_in(rng, 40, 24);
        let request = DriveRequest::new(pick(&mut rng), pick(&mut rng))
            .with_body_radius(0.3 + rng.below(50) as f64 / 100.0)
            .with_turning_radius(0.5 + rng.below(250) as f64 / 100.0)
            .with_free_heading(false, round % 3 == 0);
        planned += usize::from(planned_and_valid(&grid, &request, round));
    }
    assert!(planned >= 15, "only {planned} of 30 rooms planned");
}

#[test]
fn the_search_stops_when_cancelled() {
    let grid = room();
    let control = SearchControl::default();
    control.cancel();
    let request = DriveRequest::new(Pose::new(2.0, 1.5, 0.0), Pose::new(2.0, 5.5, PI));
    // A cancelled control stops the search within its first checks (or it finds the drive
    // first on so small a map): never anything else.
    match plan(&grid, &request, Some(&control)) {
        Ok(drive) => assert!(drive.expanded < 256),
        Err(e) => assert_eq!(e, DriveError::Cancelled),
    }
}

#[test]
fn a_car_that_may_reverse_backs_out_of_a_dead_end() {
    let grid = Grid::from_ascii(&["#############", "............#", "#############"]).unwrap();
    let (start, goal) = (Pose::new(9.5, 1.5, 0.0), Pose::new(2.5, 1.5, 0.0));
    let forward = DriveRequest::new(start, goal)
        .with_body_radius(0.3)
        .with_turning_radius(1.0);
    assert_eq!(
        plan(&grid, &forward, None).map(|_| ()),
        Err(DriveError::NoWay)
    );
    let mut reverse = forward.clone();
    reverse.motion = Motion::ReedsShepp;
    let drive = plan(&grid, &reverse, None).expect("it backs out");
    validate(&grid, &reverse, &drive);
    assert!(
        (drive.curve.length() - 7.0).abs() < 1e-6,
        "straight back: {:?}",
        drive.curve.pieces
    );
    assert!(drive.curve.pieces.iter().all(|p| p.gear == Gear::Reverse));
}

#[test]
fn reeds_shepp_drives_in_random_rooms_are_valid() {
    let mut rng = Rng::new(77);
    let mut planned = 0;
    for round in 0..20 {
        let grid = random_room(&mut rng, 30, 20, 6, 3);
        let pick = |rng: &mut Rng| random_pose_in(rng, 30, 20);
        let mut request = DriveRequest::new(pick(&mut rng), pick(&mut rng))
            .with_body_radius(0.3 + rng.below(40) as f64 / 100.0)
            .with_turning_radius(0.5 + rng.below(200) as f64 / 100.0);
        request.motion = Motion::ReedsShepp;
        planned += usize::from(planned_and_valid(&grid, &request, round));
    }
    assert!(planned >= 10, "only {planned} of 20 rooms planned");
}

#[test]
fn an_inflation_keeps_the_drive_away_from_the_walls_where_there_is_room() {
    // A hall 9 cells wide: the shortest drive runs along the top wall, the inflated one
    // keeps to the middle.
    let grid = Grid::from_ascii(&["..............................."; 9]).unwrap();
    let (start, goal) = (Pose::new(2.0, 1.0, 0.0), Pose::new(29.0, 1.0, 0.0));
    let plain = DriveRequest::new(start, goal)
        .with_body_radius(0.5)
        .with_turning_radius(2.0);
    let shortest = plan(&grid, &plain, None).expect("a drive");
    validate(&grid, &plain, &shortest);
    assert!(
        (shortest.curve.length() - 27.0).abs() < 1e-6,
        "straight along the wall"
    );
    let mut inflated = plain.clone();
    inflated.inflation = Some(Inflation {
        radius: 4.0,
        scaling: 1.0,
        penalty: 2.0,
    });
    let kept = plan(&grid, &inflated, None).expect("a drive");
    validate(&grid, &inflated, &kept);
    let middle = kept.curve.samples(0.5)[kept.curve.samples(0.5).len() / 2].pose;
    assert!(
        middle.y > 3.0,
        "the middle of the drive keeps off the wall: {middle:?}"
    );
    assert!(kept.cost < plain_cost_under(&grid, &inflated, &shortest.curve));
    assert!(kept.curve.length() > shortest.curve.length());
}

/// What a curve costs under a request's inflation, as the search prices it.
fn plain_cost_under(grid: &Grid, request: &DriveRequest, curve: &Curve) -> f64 {
    let reach = request.inflation.map_or(0.0, |i| i.radius);
    let mut space = Space::reaching(grid, request.body_radius, reach);
    hybrid::curve_cost(&mut space, request, curve)
}

#[test]
fn a_map_too_large_for_the_drive_is_refused_before_any_table_is_built() {
    let grid = Grid::new(4097, 4097, crate::grid::Terrain::default_catalog(), 0).unwrap();
    let request = DriveRequest::new(Pose::new(1.5, 1.5, 0.0), Pose::new(4000.5, 4000.5, 0.0));
    match plan(&grid, &request, None) {
        Err(DriveError::BadRequest(why)) => assert!(why.contains("at most 16777216"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(widest_gap(&grid, (1.5, 1.5), (4000.5, 4000.5), 1.0), None);
}
