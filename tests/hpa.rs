//! HPA* checked against A*: a path exactly when A* finds one, always legal, never cheaper than
//! the optimum, within 3% of it on average on weighted terrain; and an edited abstraction
//! answers as a freshly built one does.

#![expect(
    clippy::unwrap_used,
    reason = "test helpers fail loudly on broken test data"
)]

use gridpath::grid::{Cell, Grid, Rgb, Terrain, TerrainId};
use gridpath::search::{
    Algorithm, Diagonal, HpaGraph, Optimality, Refinement, SearchGraph, SearchRequest,
    SearchResult, Searcher, solve,
};
use proptest::prelude::*;

#[path = "common/weighted_map.rs"]
mod weighted_map;

use weighted_map::{XorShift, weighted_map};

fn catalog() -> Vec<Terrain> {
    let mut t = Terrain::default_catalog();
    t.push(Terrain::passable("Mud", 'm', Rgb([90, 60, 30]), 1.7));
    t
}

const WALL: TerrainId = 3;

/// A random map, weighted or of one terrain, with walls, under a random diagonal rule.
fn arb_map() -> impl Strategy<Value = (Grid, Cell, Cell, Diagonal, u32)> {
    (
        2u32..48,
        2u32..48,
        0usize..4,
        any::<bool>(),
        4u32..11,
        0.0f64..0.4,
    )
        .prop_flat_map(|(w, h, d, weighted, size, density)| {
            let terrains = if weighted {
                vec![0u8, 0, 0, 1, 2, 4]
            } else {
                vec![0u8]
            };
            let cells = prop::collection::vec(
                (
                    prop::bool::weighted(density),
                    prop::sample::select(terrains),
                ),
                (w * h) as usize,
            );
            (
                Just(w),
                Just(h),
                cells,
                0..w,
                0..h,
                0..w,
                0..h,
                Just(d),
                Just(size),
            )
        })
        .prop_map(|(w, h, cells, sx, sy, gx, gy, d, size)| {
            let mut cells: Vec<TerrainId> = cells
                .into_iter()
                .map(|(wall, t)| if wall { WALL } else { t })
                .collect();
            cells[(sy * w + sx) as usize] = 0;
            cells[(gy * w + gx) as usize] = 0;
            let grid = Grid::from_cells(w, h, catalog(), cells).unwrap();
            (
                grid,
                Cell::new(sx, sy),
                Cell::new(gx, gy),
                Diagonal::ALL[d],
                size,
            )
        })
}

fn astar(grid: &Grid, diagonal: Diagonal, start: Cell, goal: Cell) -> SearchResult {
    let graph = SearchGraph::new(grid, diagonal);
    Searcher::new()
        .search(
            &graph,
            &SearchRequest::new(start, goal).with_diagonal(diagonal),
        )
        .unwrap()
}

/// HPA*'s answer agrees with A*'s on existence, is legal, and costs no less.
fn check(
    grid: &Grid,
    diagonal: Diagonal,
    hpa: &SearchResult,
    optimal: &SearchResult,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        hpa.found,
        optimal.found,
        "hpa found {}, astar {}",
        hpa.found,
        optimal.found
    );
    if !hpa.found {
        prop_assert!(hpa.path.is_empty());
        return Ok(());
    }
    let graph = SearchGraph::new(grid, diagonal);
    let (cost, length) = graph.path_cost(&hpa.path).expect("every step is legal");
    let tolerance = 1e-9 * cost.max(1.0);
    prop_assert!(
        (cost - hpa.cost).abs() <= tolerance,
        "steps sum to {cost}, reported {}",
        hpa.cost
    );
    prop_assert!((length - hpa.length).abs() <= tolerance);
    prop_assert!(
        hpa.cost >= optimal.cost - tolerance,
        "{} below the optimum {}",
        hpa.cost,
        optimal.cost
    );
    prop_assert_eq!(hpa.path.first(), Some(&hpa.start));
    prop_assert_eq!(hpa.path.last(), Some(&hpa.goal));
    for pair in hpa.path.windows(2) {
        let (dx, dy) = (pair[0].x.abs_diff(pair[1].x), pair[0].y.abs_diff(pair[1].y));
        prop_assert!(dx <= 1 && dy <= 1 && dx + dy > 0);
    }
    prop_assert_eq!(hpa.optimality, Optimality::Approximate);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn hpa_finds_a_legal_path_exactly_when_astar_does(
        (grid, start, goal, diagonal, size) in arb_map()
    ) {
        let mut hpa = HpaGraph::build(&grid, diagonal, size);
        let request = SearchRequest::new(start, goal)
            .with_diagonal(diagonal)
            .with_algorithm(Algorithm::Hpa);
        let optimal = astar(&grid, diagonal, start, goal);
        let found = hpa.find_path(&request).unwrap();
        check(&grid, diagonal, &found, &optimal)?;
        hpa.set_refinement(Refinement::Edges);
        let edges = hpa.find_path(&request).unwrap();
        check(&grid, diagonal, &edges, &optimal)?;
        // The corridor holds the joined pieces, so it never costs more.
        prop_assert!(found.cost <= edges.cost + 1e-9 * edges.cost.max(1.0));
        // Other queries on the same abstraction.
        let mut rng = XorShift(u64::from(start.x) * 7919 + u64::from(goal.y) + 1);
        for _ in 0..4 {
            let a = Cell::new(rng.below(grid.width()), rng.below(grid.height()));
            let b = Cell::new(rng.below(grid.width()), rng.below(grid.height()));
            if !grid.is_passable(a) || !grid.is_passable(b) {
                continue;
            }
            let request = SearchRequest::new(a, b).with_diagonal(diagonal).with_algorithm(Algorithm::Hpa);
            let found = hpa.find_path(&request).unwrap();
            check(&grid, diagonal, &found, &astar(&grid, diagonal, a, b))?;
        }
    }

    #[test]
    fn an_edited_abstraction_answers_as_a_fresh_one(
        (mut grid, start, goal, diagonal, size) in arb_map(),
        strokes in prop::collection::vec(prop::collection::vec((0u32..48, 0u32..48, prop::sample::select(vec![0u8, 1, 2, 3, 3, 4])), 1..8), 1..6),
    ) {
        let mut hpa = HpaGraph::build(&grid, diagonal, size);
        for stroke in strokes {
            let mut cells = Vec::new();
            for (x, y, t) in stroke {
                let cell = Cell::new(x % grid.width(), y % grid.height());
                if cell != start && cell != goal {
                    grid.set(cell, t);
                    cells.push(cell);
                }
            }
            hpa.update_cells(&grid, &cells);
            let mut fresh = HpaGraph::build(&grid, diagonal, size);
            prop_assert_eq!(hpa.node_count(), fresh.node_count());
            prop_assert_eq!(hpa.edge_count(), fresh.edge_count());
            let request = SearchRequest::new(start, goal)
                .with_diagonal(diagonal)
                .with_algorithm(Algorithm::Hpa);
            let updated = hpa.find_path(&request).unwrap();
            let rebuilt = fresh.find_path(&request).unwrap();
            prop_assert_eq!(&updated.path, &rebuilt.path);
            prop_assert_eq!(updated.cost, rebuilt.cost);
            check(&grid, diagonal, &updated, &astar(&grid, diagonal, start, goal))?;
        }
    }
}

#[test]
fn solve_builds_and_queries_with_the_default_clusters() {
    let mut rows = vec![".".repeat(100); 100];
    for (y, row) in rows.iter_mut().enumerate() {
        if y % 20 == 10 {
            *row = "#".repeat(95) + ".....";
        }
    }
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    let grid = Grid::from_ascii(&refs).unwrap();
    let request =
        SearchRequest::new(Cell::new(0, 0), Cell::new(0, 99)).with_algorithm(Algorithm::Hpa);
    let hpa = solve(&grid, &request).unwrap();
    let optimal = solve(&grid, &request.clone().with_algorithm(Algorithm::AStar)).unwrap();
    assert!(hpa.found);
    assert_eq!(hpa.optimality, Optimality::Approximate);
    assert!(hpa.cost >= optimal.cost - 1e-9);
    assert!(
        hpa.cost <= optimal.cost * 1.1,
        "{} vs {}",
        hpa.cost,
        optimal.cost
    );
    assert!(
        SearchGraph::new(&grid, request.diagonal)
            .path_cost(&hpa.path)
            .is_some()
    );
}

#[test]
fn open_maps_come_close_to_the_optimum() {
    let mut rng = XorShift(99);
    let (w, h) = (256u32, 256u32);
    let cells: Vec<TerrainId> = (0..w * h)
        .map(|_| if rng.below(100) < 20 { WALL } else { 0 })
        .collect();
    let grid = Grid::from_cells(w, h, catalog(), cells).unwrap();
    let mut hpa = HpaGraph::build(&grid, Diagonal::NoCut, 32);
    let (mut ratio_sum, mut count) = (0.0, 0);
    for _ in 0..60 {
        let a = Cell::new(rng.below(w), rng.below(h));
        let b = Cell::new(rng.below(w), rng.below(h));
        if !grid.is_passable(a) || !grid.is_passable(b) {
            continue;
        }
        let request = SearchRequest::new(a, b);
        let optimal = astar(&grid, Diagonal::NoCut, a, b);
        let found = hpa
            .find_path(&request.with_algorithm(Algorithm::Hpa))
            .unwrap();
        assert_eq!(found.found, optimal.found);
        if optimal.found && optimal.cost > 0.0 {
            assert!(found.cost >= optimal.cost - 1e-9);
            ratio_sum += found.cost / optimal.cost;
            count += 1;
        }
    }
    let mean = ratio_sum / f64::from(count);
    assert!(mean < 1.06, "mean cost ratio {mean}");
}

/// The mean ratio of HPA*'s cost to the optimum over `count` seeded queries on `grid`, each
/// path checked; queries with no path (or an empty one) count in neither.
fn mean_ratio(grid: &Grid, hpa: &mut HpaGraph, seed: u64, count: usize) -> f64 {
    let (mut sum, mut n) = (0.0, 0usize);
    for (a, b) in weighted_map::query_pairs(grid, seed, count) {
        let optimal = astar(grid, Diagonal::NoCut, a, b);
        let request = SearchRequest::new(a, b).with_algorithm(Algorithm::Hpa);
        let found = hpa.find_path(&request).unwrap();
        check(grid, Diagonal::NoCut, &found, &optimal).unwrap();
        if optimal.found && optimal.cost > 0.0 {
            sum += found.cost / optimal.cost;
            n += 1;
        }
    }
    assert!(n > count / 2, "only {n} of {count} queries have a path");
    sum / n as f64
}

#[test]
fn weighted_maps_come_within_three_percent_of_the_optimum_on_average() {
    for (side, cluster, seed) in [(128, 32, 11), (128, 16, 12), (96, 16, 13)] {
        let grid = weighted_map(side, seed);
        let mut hpa = HpaGraph::build(&grid, Diagonal::NoCut, cluster);
        assert_eq!(hpa.refinement(), Refinement::Auto);
        assert_eq!(hpa.effective_refinement(), Refinement::Corridor);
        let mean = mean_ratio(&grid, &mut hpa, seed * 31, 40);
        assert!(
            mean <= 1.03,
            "{side}² map, clusters of {cluster}: mean cost ratio {mean}"
        );
        hpa.set_refinement(Refinement::Edges);
        let edges = mean_ratio(&grid, &mut hpa, seed * 31, 40);
        assert!(
            mean <= edges + 1e-12,
            "{side}² map: the corridor ({mean}) above the joined edges ({edges})"
        );
    }
}

#[test]
fn an_edited_weighted_map_answers_as_a_fresh_build() {
    let mut grid = weighted_map(96, 21);
    let mut hpa = HpaGraph::build(&grid, Diagonal::NoCut, 16);
    let mut rng = XorShift(77);
    for stroke in 0..6 {
        // A road, a wall or a swamp drawn along a row or a column, across cluster borders.
        let terrain = [weighted_map::ROAD, weighted_map::WALL, weighted_map::SWAMP][stroke % 3];
        let (x, y) = (rng.below(96), rng.below(96));
        let length = 10 + rng.below(30);
        let across = rng.below(2) == 0;
        let cells: Vec<Cell> = (0..length)
            .map(|i| if across { (x + i, y) } else { (x, y + i) })
            .filter(|&(cx, cy)| cx < 96 && cy < 96)
            .map(|(cx, cy)| Cell::new(cx, cy))
            .collect();
        for &cell in &cells {
            grid.set(cell, terrain);
        }
        hpa.update_cells(&grid, &cells);
        let mut fresh = HpaGraph::build(&grid, Diagonal::NoCut, 16);
        assert_eq!(hpa.node_count(), fresh.node_count());
        assert_eq!(hpa.edge_count(), fresh.edge_count());
        for (a, b) in weighted_map::query_pairs(&grid, 100 + stroke as u64, 8) {
            let request = SearchRequest::new(a, b).with_algorithm(Algorithm::Hpa);
            let updated = hpa.find_path(&request).unwrap();
            let rebuilt = fresh.find_path(&request).unwrap();
            assert_eq!(updated.path, rebuilt.path);
            assert_eq!(updated.cost, rebuilt.cost);
            check(
                &grid,
                Diagonal::NoCut,
                &updated,
                &astar(&grid, Diagonal::NoCut, a, b),
            )
            .unwrap();
        }
    }
}

#[test]
fn the_default_refinement_follows_the_terrain() {
    let mut grid = Grid::from_ascii(&["....", "....", "....", "...."]).unwrap();
    let mut hpa = HpaGraph::build(&grid, Diagonal::NoCut, 4);
    assert_eq!(hpa.effective_refinement(), Refinement::Edges);
    // A swamp painted in makes the map weighted.
    grid.set(Cell::new(1, 1), weighted_map::SWAMP);
    hpa.update_cells(&grid, &[Cell::new(1, 1)]);
    assert_eq!(hpa.effective_refinement(), Refinement::Corridor);
    hpa.set_refinement(Refinement::Edges);
    assert_eq!(hpa.effective_refinement(), Refinement::Edges);
}
