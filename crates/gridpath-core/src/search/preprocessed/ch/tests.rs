//! The hierarchy's unit tests: the build's tables, the queries against Dijkstra, and the
//! packing of steps, through the parts' private items.

use super::build::*;
use super::customize;
use super::edges::*;
use super::hierarchy::ContractionHierarchy;
use super::landmarks::{self, Landmarks};
use super::limits::Limits;
use super::links::*;
use super::regions::{self, Local, Place, REGION_CELLS};
use super::side::*;
use super::unpack::*;
use crate::control::UNCONTROLLED;
use crate::search::graph::{OPPOSITE, SearchGraph};
use crate::search::request::{Algorithm, Diagonal, SearchError, SearchRequest, Stats};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::grid::{Cell, Grid, Terrain, TerrainId};
use crate::search::{FlowField, solve};

/// Rows of a map with walls that make long detours, a closed room and single-cell pockets.
const DETOURS: [&str; 9] = [
    "..........#.....~~..",
    ".########.#.###.~~#.",
    ".#......#.#...#.==#.",
    ".#.####.#.###.#.==#.",
    ".#.#..#.#.....#...#.",
    ".#.#..#.#######.###.",
    ".#.####.........#.#.",
    ".#..............#.#.",
    ".################...",
];

/// Every passable cell of a grid.
fn passable(grid: &Grid) -> Vec<Cell> {
    (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
        .filter(|&c| grid.is_passable(c))
        .collect()
}

/// A hierarchy with no regions: every cell a rank.
fn whole(grid: &Grid, diagonal: Diagonal) -> ContractionHierarchy {
    let graph = SearchGraph::new(grid, diagonal);
    ContractionHierarchy::build_with(graph, &UNCONTROLLED, (true, 0)).unwrap()
}

#[test]
fn the_landmarks_bounds_never_exceed_the_cost_and_tell_apart_parts_with_no_way_between() {
    let grid = Grid::from_ascii(&DETOURS).unwrap();
    let ch = whole(&grid, Diagonal::NoCut);
    let cells = passable(&grid);
    let (mut tight, mut tight_above, mut pruned) = (0, 0, 0);
    for &a in &cells {
        let field = FlowField::new(&ch.graph, a).unwrap();
        let ra = ch.rank[ch.graph.index(a)] as usize;
        for &b in &cells {
            let rb = ch.rank[ch.graph.index(b)] as usize;
            let between = ch.landmarks.between(ra, rb);
            match field.cost(b) {
                None => assert!(between.is_none(), "{a} → {b} has no way"),
                Some(cost) => {
                    let (ends, bound) = between.expect("a way joins them");
                    let to_goal = ch.landmarks.lower(&ends, ra, true);
                    let to_start = ch.landmarks.lower(&ends, rb, false);
                    for lower in [bound, to_goal, to_start] {
                        assert!(lower <= cost * (1.0 + 1e-12), "{a} → {b}: {lower} > {cost}");
                    }
                    let upper = ch.landmarks.upper(&ends);
                    assert!(upper >= cost * (1.0 - 1e-12), "{a} → {b}: {upper} < {cost}");
                    tight += usize::from(bound >= 0.999 * cost && cost > 0.0);
                    tight_above += usize::from(upper <= 1.001 * cost + 0.01);
                    // The test by units: never a rank whose way costs less than the limit,
                    // nor one that the bound in costs keeps.
                    let above = cost * (1.0 + 1e-9) + 1e-9;
                    assert!(
                        !ch.landmarks.prunes(&ends, ra, true, 0.0, above),
                        "{a} → {b}"
                    );
                    assert!(
                        !ch.landmarks.prunes(&ends, rb, false, 0.0, above),
                        "{a} → {b}"
                    );
                    for limit in [0.25 * cost, 0.5 * cost, 0.9 * cost, cost] {
                        for d in [0.0, 0.1 * limit] {
                            if ch.landmarks.prunes(&ends, ra, true, d, limit) {
                                assert!(d + to_goal >= limit, "{a} → {b}: {d} {limit}");
                                pruned += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    // Not a bound of zero everywhere: many pairs are bounded to their cost, from below
    // and from above.
    assert!(tight > cells.len(), "{tight} tight bounds");
    assert!(
        tight_above > cells.len(),
        "{tight_above} tight upper bounds"
    );
    assert!(pruned > cells.len(), "{pruned} limits pruned by units");
}

#[test]
fn the_landmarks_bounds_from_cells_of_regions_never_exceed_the_cost() {
    let grid = Grid::from_ascii(&DETOURS).unwrap();
    let mut ch = ContractionHierarchy::build(&grid, Diagonal::NoCut);
    ch.allocate_query_state();
    let cells = passable(&grid);
    let in_region = |ch: &ContractionHierarchy, c: Cell| {
        matches!(Place::of(ch.rank[ch.graph.index(c)]), Place::Region(..))
    };
    let regions = cells.iter().filter(|&&c| in_region(&ch, c)).count();
    assert!(regions > cells.len() / 2, "{regions} cells in regions");
    let (mut tight, mut checked) = (0, 0);
    for &a in &cells {
        let field = FlowField::new(&ch.graph, a).unwrap();
        let (mut sides, mut near) = (Side::new(ch.height), [Local::default(), Local::default()]);
        let from = ch.enter(
            ch.graph.index(a),
            &mut sides,
            &mut near[0],
            &mut Stats::default(),
        );
        for &b in &cells {
            let to = ch.enter(
                ch.graph.index(b),
                &mut sides,
                &mut near[1],
                &mut Stats::default(),
            );
            let (Some(cost), Some((ends, bound))) =
                (field.cost(b), ch.landmarks.between_rows(from.row, to.row))
            else {
                continue;
            };
            checked += 1;
            assert!(bound <= cost * (1.0 + 1e-12), "{a} → {b}: {bound} > {cost}");
            let upper = ch.landmarks.upper(&ends);
            assert!(upper >= cost * (1.0 - 1e-12), "{a} → {b}: {upper} < {cost}");
            tight += usize::from(bound >= 0.9 * cost && cost > 0.0);
            // Never a rank on a cheapest way pruned: the rank the walk from `a` starts
            // at, reached at its cost from `a`, towards `b`.
            if from.rank != NONE && to.rank != NONE {
                let via = FlowField::new(
                    &ch.graph,
                    ch.graph.cell(ch.order[from.rank as usize] as usize),
                )
                .unwrap();
                let reached = field
                    .cost(ch.graph.cell(ch.order[from.rank as usize] as usize))
                    .unwrap();
                let through = reached + via.cost(b).unwrap();
                let above = through * (1.0 + 1e-9) + 1e-9;
                assert!(
                    !ch.landmarks
                        .prunes(&ends, from.rank as usize, true, reached, above),
                    "{a} → {b}"
                );
            }
        }
    }
    assert!(checked > cells.len() * cells.len() / 2, "{checked} pairs");
    assert!(tight > cells.len(), "{tight} bounds within a tenth");
}

#[test]
fn regions_first_in_the_order_leave_every_cells_upward_set_as_it_was() {
    let grid = noise_map(60);
    let graph = SearchGraph::new(&grid, Diagonal::NoCut);
    let unchecked = |_: u32, _: usize| Ok(());
    let sets = |order: &[u32]| {
        let mut rank = vec![NONE; graph.len()];
        for (r, &c) in order.iter().enumerate() {
            rank[c as usize] = r as u32;
        }
        let up = upward_sets(&graph, order, &rank, CH_MAX_EDGES, &unchecked).unwrap();
        // Each cell's upward neighbours, as cells, sorted.
        let mut by_cell = vec![Vec::new(); graph.len()];
        for (r, &c) in order.iter().enumerate() {
            let mut set: Vec<u32> = up.head[up.first[r] as usize..up.first[r + 1] as usize]
                .iter()
                .map(|&h| order[h as usize])
                .collect();
            set.sort_unstable();
            by_cell[c as usize] = set;
        }
        (by_cell, up.parent)
    };
    let (order, _) = contraction_order(&graph);
    let (before, parent) = sets(&order);
    for most in [1, 4, REGION_CELLS] {
        let (reordered, start) = regions::regions_first(&order, &parent, most);
        let mut sorted = reordered.clone();
        sorted.sort_unstable();
        let mut cells = order.clone();
        cells.sort_unstable();
        assert_eq!(sorted, cells, "the same cells");
        let (after, new_parent) = sets(&reordered);
        assert_eq!(before, after, "regions of at most {most}");
        // Each region a whole subtree of at most `most` ranks, whose root's parent lies
        // above every region.
        let within = *start.last().unwrap();
        assert!(within > 0 && (within as usize) < order.len());
        for w in start.windows(2) {
            assert!((1..=most as u32).contains(&(w[1] - w[0])));
            for r in w[0]..w[1] - 1 {
                let p = new_parent[r as usize];
                assert!(p > r && p < w[1], "a region's parents lie in it");
            }
            let p = new_parent[w[1] as usize - 1];
            assert!(p == NONE || p >= within, "the root's parent lies above");
        }
    }
}

/// A corridor that winds east, south, west and south again down `rows` rows of `width`.
fn serpentine(width: usize, rows: usize) -> Grid {
    let rows: Vec<String> = (0..rows)
        .map(|y| match y % 4 {
            0 | 2 => ".".repeat(width),
            1 => format!("{}.", "#".repeat(width - 1)),
            _ => format!(".{}", "#".repeat(width - 1)),
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    Grid::from_ascii(&rows).unwrap()
}

#[test]
fn ways_through_regions_are_unpacked_by_a_search_of_the_region() {
    // Winding corridors: the ways through their regions take three directions, and
    // some more steps than a link holds.
    let mut unpacked = 0;
    for (width, rows) in [(5, 31), (6, 41), (7, 25), (4, 61), (8, 33), (3, 45)] {
        let grid = serpentine(width, rows);
        let mut ch = ContractionHierarchy::build(&grid, Diagonal::NoCut);
        // Each edge through a region, unpacked from either end, is a way of its cost
        // between its ends, the cheapest.
        for r in 0..ch.order.len() {
            let searched = (ch.start[r + 1] - ch.start[r]) as usize;
            for k in ch.first[r] as usize..ch.first[r] as usize + searched {
                if ch.links.links[k].through_region().is_none() {
                    continue;
                }
                let from = ch.order[r] as usize;
                let (path, (cost, _)) = ch.unpack(vec![Unpacked::Halves(k, true)], from);
                assert_eq!(ch.graph.path_cost(&path).map(|c| c.0), Some(cost));
                let end = ch.graph.index(*path.last().unwrap());
                let Place::Rank(h) = Place::of(ch.rank[end]) else {
                    panic!("an edge ends at a rank");
                };
                assert!(ch.depth[h as usize] < ch.depth[r], "its higher end");
                let (back, (again, _)) = ch.unpack(vec![Unpacked::Halves(k, false)], end);
                assert_eq!(back.last(), path.first());
                assert!((again - cost).abs() <= 1e-9 * cost);
                let dijkstra = FlowField::new(&ch.graph, ch.graph.cell(from)).unwrap();
                let want = dijkstra.cost(*path.last().unwrap()).unwrap();
                assert!((cost - want).abs() <= 1e-9 * want, "the cheapest way");
                unpacked += 1;
            }
        }
        check_against_dijkstra(&grid, &mut ch, (1, 1));
    }
    assert!(unpacked > 0, "{unpacked} searched edges through regions");
}

#[test]
fn queries_whose_first_limits_fall_short_walk_again_and_find_the_cheapest_path() {
    let grid = Grid::from_ascii(&DETOURS).unwrap();
    let builds = Diagonal::ALL.iter().flat_map(|&diagonal| {
        let graph = SearchGraph::new(&grid, diagonal);
        [0, 4, REGION_CELLS].map(|most| {
            ContractionHierarchy::build_with(graph.clone(), &UNCONTROLLED, (true, most)).unwrap()
        })
    });
    for mut ch in builds {
        let diagonal = ch.graph.diagonal();
        let cells = passable(&grid);
        for &a in &cells {
            let field = FlowField::new(&ch.graph, a).unwrap();
            for &b in cells.iter().step_by(3) {
                let ends = (ch.graph.index(a), ch.graph.index(b));
                // A limit of the bound itself, one far below it (every limited walk fails
                // and the last has none), the limit of the queries, and one far above.
                for first in [1.0, 1e-6, 1.05, 10.0] {
                    let limits = Limits::growing_from(first);
                    let (path, _) = ch.query(ends, &limits, &mut Stats::default());
                    let cost = path.map(|(p, summed)| {
                        // Summed as the path was laid out, the cost and length of its cells.
                        assert_eq!(ch.graph.path_cost(&p), Some(summed), "{a} → {b}");
                        summed.0
                    });
                    match (field.cost(b), cost) {
                        (None, None) => {}
                        (Some(want), Some(got)) => assert!(
                            (got - want).abs() <= 1e-9 * want.max(1.0),
                            "{a} → {b} {diagonal} (first limit {first}): {got} vs {want}"
                        ),
                        (want, got) => panic!("{a} → {b} {diagonal}: {got:?} vs {want:?}"),
                    }
                }
            }
        }
    }
}

#[test]
fn the_build_calibrates_the_first_limit_to_the_map() {
    // Open ground of one cost, with a few walls: the landmarks' bound is most often the
    // cost itself, and the first limit lies just above it.
    let rows: Vec<String> = (0..48)
        .map(|y| {
            (0..48)
                .map(|x| if x % 12 == 6 && y % 16 < 10 { '#' } else { '.' })
                .collect()
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let open = ContractionHierarchy::build(&Grid::from_ascii(&rows).unwrap(), Diagonal::NoCut);
    let first = |ch: &ContractionHierarchy| ch.limits.first(1.0);
    assert!(
        1.0 < first(&open) && first(&open) < 1.01,
        "{}",
        first(&open)
    );
    // Its queries leave no query state behind: the first query allocates it.
    assert!(open.forward.dist.is_empty() && open.backward.dist.is_empty());
    // Terrains of several costs: the costs lie further above their bounds.
    let noisy = ContractionHierarchy::build(&noise_map(48), Diagonal::NoCut);
    assert!(first(&noisy) > first(&open), "{}", first(&noisy));
    assert!(first(&noisy) <= Limits::default().first(1.0));
}

/// A `side` × `side` map of grass, swamp, road and one wall in ten, from a fixed hash.
fn noise_map(side: u32) -> Grid {
    let rows: Vec<String> = (0..side)
        .map(|y| {
            (0..side)
                .map(|x| match ((x * 7919 + y * 104_729) ^ (x * y * 31)) % 20 {
                    0..=1 => '#',
                    2..=5 => '~',
                    6..=8 => '=',
                    _ => '.',
                })
                .collect()
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    Grid::from_ascii(&rows).unwrap()
}

#[test]
fn the_stages_shares_of_a_build_make_the_whole() {
    assert!((STAGE_SHARES.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert!(STAGE_SHARES.iter().all(|&share| share > 0.0));
}

#[test]
fn upward_sets_past_the_edge_budget_are_refused() {
    let grid = noise_map(60);
    let graph = SearchGraph::new(&grid, Diagonal::NoCut);
    let (order, rank) = contraction_order(&graph);
    let unchecked = |_: u32, _: usize| Ok(());
    let edges = upward_sets(&graph, &order, &rank, CH_MAX_EDGES, &unchecked)
        .unwrap()
        .head
        .len();
    // Exactly the edges it needs is enough; one fewer is refused, naming the budget.
    assert!(upward_sets(&graph, &order, &rank, edges, &unchecked).is_ok());
    match upward_sets(&graph, &order, &rank, edges - 1, &unchecked) {
        Err(
            error @ SearchError::HierarchyTooLarge {
                edges: counted,
                max,
            },
        ) => {
            assert_eq!(max, edges - 1);
            assert!(counted > max, "{counted} counted");
            let message = error.to_string();
            assert!(
                message.contains(&format!("more than {max} edges")),
                "{message}"
            );
        }
        other => panic!(
            "refused as too large, not {:?}",
            other.map(|u| u.head.len())
        ),
    }
}

#[test]
fn two_threads_find_the_same_costs_middles_and_searched_edges_as_one() {
    let grid = noise_map(120);
    let graph = SearchGraph::new(&grid, Diagonal::NoCut);
    let (order, rank) = contraction_order(&graph);
    let unchecked = |_: u32, _: usize| Ok(());
    let uncancelled = |_: u32, _: f64| Ok(());
    let up = upward_sets(&graph, &order, &rank, CH_MAX_EDGES, &unchecked).unwrap();
    let widest = up.first.windows(2).map(|w| (w[1] - w[0]) as usize).max();
    assert!(
        widest >= Some(customize::shared_edges()),
        "some rank's pairs are shared: {widest:?} upward edges at most"
    );
    let weight = step_weights(&graph, &order, &rank, &up.head, &up.first);
    let one = customize::customize(&up.head, &up.first, weight.clone(), 1, &uncancelled);
    let two = customize::customize(&up.head, &up.first, weight, 2, &uncancelled);
    let (one, two) = (one.unwrap(), two.unwrap());
    let bits = |costs: &[f64]| costs.iter().map(|c| c.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&one.weight), bits(&two.weight));
    assert_eq!(one.middle, two.middle);
    assert_eq!(one.flags, two.flags);
    assert!(
        one.flags.iter().any(|&f| f & SEARCHED == 0),
        "some edges have a way round"
    );
    // A cancellation in the middle of either pass (top down, while the threads share
    // the large ranks and while each takes its subtrees) ends both threads.
    for (pass, at) in [(1, 0.5), (2, 0.25), (2, 0.75)] {
        let weight = step_weights(&graph, &order, &rank, &up.head, &up.first);
        let cancel = |p: u32, done: f64| {
            if p == pass && done >= at {
                Err(SearchError::Cancelled)
            } else {
                Ok(())
            }
        };
        let cancelled = customize::customize(&up.head, &up.first, weight, 2, &cancel);
        assert!(
            matches!(cancelled, Err(SearchError::Cancelled)),
            "pass {pass}"
        );
    }
}

/// The heads of `ch`'s kept edges as ranks: each the ancestor of its tail at the depth
/// kept.
fn rank_heads(ch: &ContractionHierarchy) -> Vec<u32> {
    let mut heads = Vec::with_capacity(ch.links.len());
    for r in 0..ch.order.len() {
        for h in kept_heads(ch, r) {
            let mut a = r as u32;
            while ch.depth[a as usize] > h {
                a = ch.parent[a as usize];
            }
            heads.push(a);
        }
    }
    heads
}

/// The depths of rank `r`'s kept edges' heads, searched first, whether the searched ones
/// are kept by blocks or not.
fn kept_heads(ch: &ContractionHierarchy, r: usize) -> Vec<u16> {
    match &ch.blocks {
        None => ch.head[ch.first[r] as usize..ch.first[r + 1] as usize].to_vec(),
        Some(blocks) => {
            let mut heads = blocks.heads(r);
            heads.extend_from_slice(&ch.head[ch.unpacking_heads(r)]);
            heads
        }
    }
}

#[test]
fn depths_count_down_from_the_roots_and_refuse_a_tree_too_high() {
    // Two trees: 2 over 0 and 1, and 3 alone.
    let (depth, height) = depths(&[2, 2, NONE, NONE]).unwrap();
    assert_eq!((depth, height), (vec![1, 1, 0, 0], 2));
    // A path of ranks, each the parent of the one before: as high as it has ranks.
    let path = |ranks: u32| -> Vec<u32> {
        (1..=ranks)
            .map(|p| if p == ranks { NONE } else { p })
            .collect()
    };
    let (depth, height) = depths(&path(MAX_HEIGHT as u32)).unwrap();
    assert_eq!((depth[0], height), (u16::MAX, MAX_HEIGHT));
    match depths(&path(MAX_HEIGHT as u32 + 1)) {
        Err(error @ SearchError::HierarchyTooDeep { max: MAX_HEIGHT }) => {
            assert!(
                error.to_string().contains("more than 65536 ranks"),
                "{error}"
            );
        }
        other => panic!("refused as too deep, not {:?}", other.map(|d| d.1)),
    }
}

#[test]
fn every_kept_head_is_an_upward_neighbour_of_its_tail_and_the_lists_stay_sorted() {
    let grid = noise_map(60);
    let ch = whole(&grid, Diagonal::NoCut);
    let graph = SearchGraph::new(&grid, Diagonal::NoCut);
    let (order, rank) = contraction_order(&graph);
    let unchecked = |_: u32, _: usize| Ok(());
    let up = upward_sets(&graph, &order, &rank, CH_MAX_EDGES, &unchecked).unwrap();
    let heads = rank_heads(&ch);
    for r in 0..order.len() {
        let sets = &up.head[up.first[r] as usize..up.first[r + 1] as usize];
        let split = ch.first[r] as usize + (ch.start[r + 1] - ch.start[r]) as usize;
        for list in [
            &heads[ch.first[r] as usize..split],
            &heads[split..ch.first[r + 1] as usize],
        ] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "rank {r}: {list:?}");
            assert!(list.iter().all(|h| sets.contains(h)), "rank {r}: {list:?}");
        }
    }
}

/// The costs of `ch`'s searched edges, in the order of their heads (the relaxations by
/// blocks read each block's costs turned round).
fn searched_costs(ch: &ContractionHierarchy) -> Vec<f64> {
    let mut cost = ch.costs.wide().into_owned();
    if let Some(blocks) = &ch.blocks {
        blocks.runs(&ch.start, |run| cost[run].reverse());
    }
    cost
}

/// The searched upward edges of `ch` (`heads`, from [`rank_heads`]), and the ranks given
/// out to two threads by them, whatever the machine's cores and the map's size.
fn upward_on_two_threads<'a>(
    ch: &'a ContractionHierarchy,
    heads: &'a [u32],
    cost: &'a [f64],
) -> (landmarks::Upward<'a>, Vec<u8>) {
    let upward = landmarks::Upward {
        parent: &ch.parent,
        first: &ch.first,
        head: heads,
        start: &ch.start,
        cost,
    };
    let owner = customize::share_subtrees(
        ch.parent.len(),
        |x| (ch.parent[x] != NONE).then_some(ch.parent[x] as usize),
        |x| u64::from(ch.start[x + 1] - ch.start[x]) + 1,
    );
    (upward, owner)
}

#[test]
fn landmarks_swept_on_two_threads_keep_the_same_costs_as_on_one() {
    let ch = whole(&noise_map(120), Diagonal::NoCut);
    let heads = rank_heads(&ch);
    let cost = searched_costs(&ch);
    let (upward, owner) = upward_on_two_threads(&ch, &heads, &cost);
    let lanes = |lane: u8| owner.iter().filter(|&&o| o == lane).count();
    assert!(
        lanes(0) > 0 && lanes(1) > 0 && lanes(customize::BOTH) > 0,
        "both threads sweep ranks of their own after the top"
    );
    let build =
        |owner: &[u8]| Landmarks::build(&upward, owner, |_| Ok::<_, SearchError>(())).unwrap();
    let one = build(&[]);
    assert_eq!(one, build(&owner));
    assert_eq!(one, ch.landmarks, "what the build keeps");
}

#[test]
fn one_sweep_for_four_landmarks_gives_each_the_costs_dijkstra_gives_it() {
    let ch = whole(&noise_map(90), Diagonal::NoCut);
    let heads = rank_heads(&ch);
    let cost = searched_costs(&ch);
    let (upward, owner) = upward_on_two_threads(&ch, &heads, &cost);
    let ranks = ch.parent.len();
    let from = [0, ranks / 3, ranks / 2, ranks - 1];
    let dist = |n: usize| {
        (0..ranks * n)
            .map(|_| AtomicU64::new(0))
            .collect::<Vec<_>>()
    };
    let cost = |dist: &[AtomicU64], k: usize| f64::from_bits(dist[k].load(Ordering::Relaxed));
    let four = dist(4);
    upward.costs_from(from, &four, &owner);
    for (b, &l) in from.iter().enumerate() {
        let one = dist(1);
        upward.costs_from([l], &one, &[]);
        let cell = ch.graph.cell(ch.order[l] as usize);
        let field = FlowField::new(&ch.graph, cell).unwrap();
        for r in 0..ranks {
            let got = cost(&four, r * 4 + b);
            assert_eq!(got.to_bits(), cost(&one, r).to_bits(), "lane {b}, rank {r}");
            let want = field.cost(ch.graph.cell(ch.order[r] as usize));
            match want {
                Some(want) => assert!(
                    (got - want).abs() <= 1e-9 * want.max(1.0),
                    "from rank {l} to rank {r}: {got} against {want}"
                ),
                None => assert!(got.is_infinite(), "rank {r} unreachable from {l}"),
            }
        }
    }
}

/// The hierarchy's answers between every `every.0`-th and every `every.1`-th passable cell
/// of `grid`, against Dijkstra's costs.
fn check_against_dijkstra(grid: &Grid, ch: &mut ContractionHierarchy, every: (usize, usize)) {
    let cells = passable(grid);
    for &a in cells.iter().step_by(every.0) {
        let field = FlowField::new(&ch.graph, a).unwrap();
        for &b in cells.iter().step_by(every.1) {
            let request = SearchRequest::new(a, b).with_algorithm(Algorithm::ContractionHierarchy);
            let got = ch.find_path(&request).unwrap();
            match field.cost(b) {
                Some(want) => assert!(
                    got.found && (got.cost - want).abs() <= 1e-9 * want.max(1.0),
                    "{a} → {b}: {} vs {want}",
                    got.cost
                ),
                None => assert!(!got.found, "{a} → {b}"),
            }
            if got.found {
                // The cost and length as the path's steps sum them, to the last bit.
                let (cost, length) = ch.graph.path_cost(&got.path).expect("a path");
                assert_eq!(
                    (got.cost.to_bits(), got.length.to_bits()),
                    (cost.to_bits(), length.to_bits()),
                    "{a} → {b}: {} and {} as laid out, {cost} and {length} summed",
                    got.cost,
                    got.length
                );
            }
        }
    }
}

#[test]
fn relaxing_by_blocks_finds_what_one_edge_at_a_time_finds() {
    let grid = noise_map(120);
    // The costs as the build computed them, and in words.
    for words in [false, true] {
        let build = || {
            let graph = SearchGraph::new(&grid, Diagonal::NoCut);
            ContractionHierarchy::build_with(graph, &UNCONTROLLED, (words, REGION_CELLS)).unwrap()
        };
        let mut by_blocks = build();
        if by_blocks.blocks.is_none() {
            eprintln!("skipped: this processor cannot relax by blocks (no AVX-512)");
            return;
        }
        assert_eq!(by_blocks.costs.counted(), words);
        let mut one_at_a_time = build();
        // The heads of every kept edge back in place of the words, as a processor without
        // AVX-512 keeps them.
        let head = (0..one_at_a_time.order.len())
            .flat_map(|r| kept_heads(&one_at_a_time, r))
            .collect();
        one_at_a_time.head = head;
        // And the costs in the order of the heads.
        if let Some(blocks) = one_at_a_time.blocks.take() {
            blocks.runs(&one_at_a_time.start, |run| one_at_a_time.costs.reverse(run));
        }
        let cells = passable(&grid);
        let mut found = 0;
        for &a in cells.iter().step_by(401) {
            for &b in cells.iter().step_by(37) {
                let request =
                    SearchRequest::new(a, b).with_algorithm(Algorithm::ContractionHierarchy);
                let got = by_blocks.find_path(&request).unwrap();
                let want = one_at_a_time.find_path(&request).unwrap();
                assert_eq!(got.cost.to_bits(), want.cost.to_bits(), "{a} → {b}");
                assert_eq!(got.path, want.path, "{a} → {b}");
                assert_eq!(got.stats.expanded, want.stats.expanded, "{a} → {b}");
                found += usize::from(got.found);
            }
        }
        assert!(found > 1000, "{found} paths found");
    }
}

#[test]
fn a_hierarchy_built_on_two_threads_matches_dijkstra() {
    let grid = noise_map(120);
    let mut ch = ContractionHierarchy::build(&grid, Diagonal::NoCut);
    check_against_dijkstra(&grid, &mut ch, (1499, 97));
}

#[test]
fn costs_are_kept_in_words_where_the_terrains_have_a_unit() {
    // Grass 1, road 0.5, swamp 3 (and walls): every step a whole number of quarters, times
    // its length. The words stand for the costs the build computed, and the answers are
    // Dijkstra's.
    let grid = noise_map(90);
    let mut ch = ContractionHierarchy::build(&grid, Diagonal::NoCut);
    assert!(ch.costs.counted(), "the default terrains have a unit");
    check_against_dijkstra(&grid, &mut ch, (307, 41));
    // A swamp of cost 3.1 has no unit that grass shares: the costs stay as they are.
    let mut odd = grid.clone();
    for id in 0..odd.terrains().len() as TerrainId {
        let terrain = odd.terrain(id).clone();
        if terrain.symbol == '~' {
            odd.set_terrain(
                id,
                Terrain {
                    cost: Some(3.1),
                    ..terrain
                },
            )
            .unwrap();
        }
    }
    let mut ch = ContractionHierarchy::build(&odd, Diagonal::NoCut);
    assert!(
        !ch.costs.counted(),
        "3.1 is no whole number of any power of two"
    );
    check_against_dijkstra(&odd, &mut ch, (307, 41));
    // Costs so far apart that the counts pass 32 bits: the costs stay as they are too.
    let mut far = grid.clone();
    for id in 0..far.terrains().len() as TerrainId {
        let terrain = far.terrain(id).clone();
        let cost = match terrain.symbol {
            '~' => Some(65536.0),
            '=' => Some(2f64.powi(-19)),
            _ => terrain.cost,
        };
        far.set_terrain(id, Terrain { cost, ..terrain }).unwrap();
    }
    let mut ch = ContractionHierarchy::build(&far, Diagonal::NoCut);
    assert!(!ch.costs.counted(), "counts of 2⁻²⁰ units pass 32 bits");
    check_against_dijkstra(&far, &mut ch, (307, 41));
}

#[test]
fn costs_too_far_apart_to_add_leave_out_only_edges_with_a_cheaper_way_round() {
    // Swamp a million and roads a millionth: a sum of two edges' costs may round to the
    // dearer one, so a way round as cheap cannot tell that both its edges cost less.
    let mut grid = noise_map(60);
    for id in 0..grid.terrains().len() as TerrainId {
        let terrain = grid.terrain(id).clone();
        let cost = match terrain.symbol {
            '~' => Some(Terrain::MAX_COST),
            '=' => Some(Terrain::MIN_COST),
            _ => terrain.cost,
        };
        grid.set_terrain(id, Terrain { cost, ..terrain }).unwrap();
    }
    let ties_prune = |grid: &Grid| {
        let graph = SearchGraph::new(grid, Diagonal::NoCut);
        let (order, rank) = contraction_order(&graph);
        let unchecked = |_: u32, _: usize| Ok(());
        let up = upward_sets(&graph, &order, &rank, CH_MAX_EDGES, &unchecked).unwrap();
        let weight = step_weights(&graph, &order, &rank, &up.head, &up.first);
        customize::ties_prune(&weight, up.first.len())
    };
    assert!(!ties_prune(&grid) && ties_prune(&noise_map(60)));
    let mut ch = ContractionHierarchy::build(&grid, Diagonal::NoCut);
    assert!(ch.edge_count() < ch.unpacking_edge_count(), "a way round");
    check_against_dijkstra(&grid, &mut ch, (211, 13));
}

#[test]
fn halves_too_far_apart_for_sixteen_bits_are_found_in_the_list() {
    // Both halves belong to one middle rank; 16 bits hold how far apart they lie, up to
    // 32,767 either way.
    assert!(Link::halves(10, 10 + 32_767).is_some());
    assert!(Link::halves(32_777, 10).is_some());
    assert!(Link::halves(10, 10 + 32_768).is_none());
    assert!(Link::halves(32_778, 10).is_none(), "the mark of a far edge");
    let near = Link::halves(100, 90).unwrap();
    let far = Link {
        middle: 5,
        across: Links::FAR,
    };
    let links = Links {
        links: vec![near, far, near],
        far: vec![(1, 70_005)],
    };
    assert_eq!(links.second(0, near), 90);
    assert_eq!(links.second(1, far), 70_005);
    assert_eq!(links.len(), 3);
    assert_eq!(links.bytes(), 3 * 6 + 8);
}

#[test]
fn short_edges_keep_their_steps_in_order_both_ways() {
    // `join(down, up)` runs `down` (from a middle to the lower end) backwards, each step
    // reversed, then `up` (from the middle to the higher end).
    let (east, south_east, north) = (0u32, 6, 3);
    let packed = |steps: u64| Link::packed(steps).steps() == Some(steps);
    let down = Packed::join(Packed::step(east), Packed::step(south_east)).unwrap();
    assert_eq!(
        Packed::steps(down).collect::<Vec<_>>(),
        vec![OPPOSITE[0], 6]
    );
    let joined = Packed::join(down, Packed::step(north)).unwrap();
    assert!(packed(joined), "a link keeps the steps");
    assert_eq!(
        Link::halves(7, 9).and_then(Link::steps),
        None,
        "halves, not steps"
    );
    assert_eq!(
        Packed::steps(joined).collect::<Vec<_>>(),
        vec![OPPOSITE[6], 0, 3]
    );
    // Fourteen steps fit in any directions; up to thirty-one in two.
    let mut long = Packed::step(east);
    for _ in 1..PACKED_STEPS {
        long = Packed::join(Packed::step(east), long).unwrap();
    }
    assert_eq!(Packed::len(long), PACKED_STEPS);
    // Fifteen steps in three directions do not fit; in two they do, up to thirty-one.
    let east9 = Packed::pack(&[0; PACKED_STEPS as usize]).unwrap();
    let three = Packed::pack(&[6, 3]).unwrap();
    assert!(
        Packed::join(three, east9).is_none(),
        "fifteen steps in three directions"
    );
    let mut long = Packed::join(Packed::step(south_east), east9).unwrap();
    let mut want = vec![OPPOSITE[6]];
    want.extend([0; PACKED_STEPS as usize]);
    assert_eq!(Packed::steps(long).collect::<Vec<_>>(), want);
    for i in 0..TWO_WAY_STEPS - PACKED_STEPS - 1 {
        // A step down, run backwards: east, or the way back from the south-east.
        let d = if i % 2 == 0 { OPPOSITE[0] } else { 6 };
        long = Packed::join(Packed::step(d as u32), long).unwrap();
        want.insert(0, OPPOSITE[d]);
        assert_eq!(Packed::steps(long).collect::<Vec<_>>(), want);
        let mut back = want.clone();
        back.reverse();
        assert_eq!(Packed::steps_backwards(long).collect::<Vec<_>>(), back);
        assert!(packed(long), "a link keeps the steps");
    }
    assert_eq!(Packed::len(long), TWO_WAY_STEPS);
    assert!(
        Packed::join(Packed::step(1), long).is_none(),
        "thirty-two steps"
    );
}

#[test]
fn matches_dijkstra_on_a_small_weighted_map() {
    let rows = [
        "..~~..==..#.",
        ".#~~.#==.#..",
        "..~~..==..~.",
        "#.##..##.#~.",
        "..==..~~....",
    ];
    let grid = Grid::from_ascii(&rows).unwrap();
    for diagonal in Diagonal::ALL.iter().copied() {
        let mut ch = ContractionHierarchy::build(&grid, diagonal);
        let cells: Vec<Cell> = (0..grid.height())
            .flat_map(|y| (0..grid.width()).map(move |x| Cell::new(x, y)))
            .filter(|&c| grid.is_passable(c))
            .collect();
        for &a in &cells {
            for &b in &cells {
                let request = SearchRequest::new(a, b)
                    .with_diagonal(diagonal)
                    .with_algorithm(Algorithm::Dijkstra);
                let expected = solve(&grid, &request).unwrap();
                let got = ch
                    .find_path(&request.with_algorithm(Algorithm::ContractionHierarchy))
                    .unwrap();
                assert_eq!(got.found, expected.found, "{a} → {b} {diagonal}");
                assert!(
                    (got.cost - expected.cost).abs() <= 1e-9 * expected.cost.max(1.0),
                    "{a} → {b} {diagonal}: {} vs {}",
                    got.cost,
                    expected.cost
                );
            }
        }
    }
}
