//! Best-first search on `g_weight · g + h`: A*, weighted A*, Dijkstra (h = 0) and greedy
//! best-first (`g_weight` = 0) are this one loop with other weights.

use crate::control::SearchControl;
use crate::search::frontier::heap::Entry;
use crate::search::graph::{DX, DY, SearchGraph};
use crate::search::heuristic::Estimate;
use crate::search::outcome::walk_back;
use crate::search::request::{Heuristic, Stats};
use crate::search::space::{CLOSED, NO_PARENT, Space, prefetch, seen};
use crate::search::workspace::{Query, Workspace};

/// How one best-first search ranks cells.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ranking {
    /// The heuristic towards the goal, already multiplied by the weight.
    pub estimate: Estimate,
    /// 1 for A* and Dijkstra, 0 for greedy best-first.
    pub g_weight: f64,
}

/// Runs a best-first search from `start` to `goal` (cell indices) in `space`. Returns whether
/// the goal was reached; the path is left in the parent links of `space`. Expanded cells are
/// appended to `order` when `RECORD` is set.
#[expect(
    clippy::too_many_arguments,
    reason = "a search takes the graph, its state, the request's parts and the control apart, so that the hot loop borrows each on its own"
)]
pub(crate) fn best_first<const RECORD: bool>(
    graph: &SearchGraph,
    space: &mut Space,
    start: usize,
    goal: usize,
    ranking: Ranking,
    stats: &mut Stats,
    order: &mut Vec<u32>,
    control: &SearchControl,
) -> bool {
    let estimate = ranking.estimate;
    // The common cases get a loop of their own: one cost for every cell, the octile estimate,
    // g weighed by 1 (A* and Dijkstra).
    macro_rules! run {
        ($prune:literal, $unit_g:literal, $step_cost:expr, $estimate_at:expr) => {
            run::<RECORD, $prune, $unit_g, _, _>(
                graph,
                space,
                start,
                goal,
                ranking,
                stats,
                order,
                control,
                $step_cost,
                $estimate_at,
            )
        };
    }
    macro_rules! with_estimate {
        ($prune:literal, $step_cost:expr) => {{
            let octile = |x, y| estimate.octile_at(x, y);
            let any = |x, y| estimate.at(x, y);
            match (estimate.is_octile(), ranking.g_weight == 1.0) {
                (true, true) => run!($prune, true, $step_cost, octile),
                (true, false) => run!($prune, false, $step_cost, octile),
                (false, true) => run!($prune, true, $step_cost, any),
                (false, false) => run!($prune, false, $step_cost, any),
            }
        }};
    }
    match graph.uniform_cost() {
        Some(cost) => {
            let steps = graph.step_lengths().map(|length| length * cost);
            with_estimate!(true, |_, _, d: usize| steps[d])
        }
        None => with_estimate!(false, |from, to, d| graph.step_cost(from, to, d)),
    }
}

/// The search loop, for a `ranking.g_weight` of 1 exactly when `UNIT_G`. With `PRUNE`, each
/// entry notes the neighbours of its cell that its parent covers ([`COVERED`],
/// [`BEYOND_NO_CUT`]) and the cell's expansion skips them: exact only when every passable cell
/// costs the same.
#[expect(
    clippy::too_many_arguments,
    reason = "a search takes the graph, its state, the request's parts and the control apart, so that the hot loop borrows each on its own"
)]
#[inline(always)]
fn run<const RECORD: bool, const PRUNE: bool, const UNIT_G: bool, C, H>(
    graph: &SearchGraph,
    space: &mut Space,
    start: usize,
    goal: usize,
    ranking: Ranking,
    stats: &mut Stats,
    order: &mut Vec<u32>,
    control: &SearchControl,
    step_cost: C,
    estimate_at: H,
) -> bool
where
    C: Fn(usize, usize, usize) -> f64,
    H: Fn(i32, i32) -> f64,
{
    let width = graph.width() as usize;
    let Ranking { estimate, g_weight } = ranking;
    debug_assert_eq!(UNIT_G, g_weight == 1.0);
    // A* and Dijkstra weigh g by 1: the compiler drops the tests of other weights.
    let g_weight = if UNIT_G { 1.0 } else { g_weight };
    // A quarter of the cheapest step: a band of the open list holds few entries.
    let bucket_width = graph.min_cost() * 0.25;
    space.begin(graph.len());
    space.relax(start, 0.0, NO_PARENT);
    let rows = RowDivider::new(width as u32);
    let (sx, sy) = rows.split(start as u32);
    let first = Entry::new(estimate_at(sx, sy), 0.0, start as u32);
    // How far one step can raise a priority: the step's cost and the change of the estimate.
    let span = std::f64::consts::SQRT_2 * (g_weight * graph.max_cost() + 2.0 * estimate.scale());
    space.buckets.reset(bucket_width, first.priority(), span);
    space.heap.push(first);
    // The arrays of the loop, all of one length, so that one bounds check serves them all.
    let n = graph.len();
    let masks = &graph.masks()[..n];
    let deltas: [isize; 8] = std::array::from_fn(|d| graph.delta(d));
    let Space {
        state,
        g: costs,
        touched,
        heap,
        buckets,
    } = space;
    let state = &mut state[..n];
    let costs = &mut costs[..n];
    // Past the limit the next search clears everything: the list need not grow.
    let touch_limit = Space::touch_limit(n);
    let (mut expanded, mut pushed, mut max_open) = (0u64, 1u64, 1usize);
    // Entries in the open list (the held successor among them), kept up to date as entries
    // are taken and pushed, and counted again when a band is refilled.
    let mut open = 1usize;
    // The cells beyond a diagonal step wait for their cheaper way only when it ranks first: the
    // estimate changes by at most its scale along that way, so a scale up to the step cost
    // keeps it ahead (a heavier weight, or greedy search, could rank the dearer way first).
    let beyond =
        graph.is_square_no_cut() && g_weight == 1.0 && estimate.scale() <= graph.min_cost();
    let notes = &NOTES[usize::from(beyond)];
    // Greedy search moves a cell to a cheaper parent without a new entry, and the notes
    // would be the old parent's: it skips nothing.
    let prune = if PRUNE && g_weight != 0.0 { u8::MAX } else { 0 };
    let mut found = false;
    // Not the shared best-first loop (search/best_first_loop.rs): this one drains buckets in
    // bulk, dropping closed cells' entries and prefetching the rest on the way.
    // A successor that ranks with the cell just expanded: no entry in the open list ranks
    // before it, so it is expanded next without a trip through the open list.
    let mut next_up = Entry::NONE;
    loop {
        let entry = if !next_up.is_none() {
            std::mem::replace(&mut next_up, Entry::NONE)
        } else if let Some(entry) = buckets.pop_ready(heap) {
            entry
        } else {
            // Entries of cells closed since are dropped in bulk. (An entry left behind when its
            // cell was reached more cheaply ranks after the newer one, and is skipped below.)
            // The cells of the others will be expanded soon: start loading their cost and mask.
            let (state, costs) = (&*state, &*costs);
            let live = |e: &Entry| {
                let cell = e.cell() as usize;
                let alive = state[cell] & CLOSED == 0;
                if alive {
                    prefetch(costs, cell);
                    prefetch(masks, cell);
                }
                alive
            };
            if buckets.refill(&live) {
                open = heap.len() + buckets.len();
                continue;
            }
            break;
        };
        open -= 1;
        let current = entry.cell() as usize;
        if state[current] & CLOSED != 0 {
            continue;
        }
        state[current] |= CLOSED;
        if let Some(cell) = buckets.next_in_band() {
            // The next cell is likely far from this one: start loading what its expansion
            // reads, its own state and the rows of its neighbours.
            let cell = cell as usize;
            prefetch(masks, cell);
            prefetch(costs, cell);
            prefetch(state, cell.wrapping_sub(width));
            prefetch(state, cell + width);
            prefetch(costs, cell.wrapping_sub(width));
            prefetch(costs, cell + width);
            prefetch(masks, cell.wrapping_sub(width));
            prefetch(masks, cell + width);
        }
        let g = costs[current];
        expanded += 1;
        if RECORD {
            order.push(entry.cell());
        }
        if control.should_stop(expanded) {
            stats.cancelled = true;
            break;
        }
        if current == goal {
            found = true;
            break;
        }
        let (x, y) = rows.split(current as u32);
        let around = masks[current];
        let notes_for = &notes[usize::from(around)];
        // Less the neighbours that the parent's expansion already reached more cheaply, which
        // the parent noted in the entry.
        let mut mask = around & !entry.notes();
        while mask != 0 {
            let d = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let next = current.wrapping_add_signed(deltas[d]);
            let ng = g + step_cost(current, next, d);
            let old = state[next];
            if old == 0 {
                state[next] = seen(d as u8);
                costs[next] = ng;
                if touched.len() <= touch_limit {
                    touched.push(next as u32);
                }
            } else if old & CLOSED == 0 && ng < costs[next] {
                state[next] = seen(d as u8);
                costs[next] = ng;
                if g_weight == 0.0 {
                    // Greedy ranks by h alone: the cell's place in the open list is unchanged.
                    continue;
                }
            } else {
                continue;
            }
            let h = estimate_at(x + DX[d], y + DY[d]);
            let notes = notes_for[d] & prune;
            // A* and Dijkstra weigh g by 1: no multiplication on the way to the bucket index.
            let f = if UNIT_G { ng + h } else { g_weight * ng + h };
            let successor = Entry::with_notes(f, ng, next as u32, notes);
            pushed += 1;
            open += 1;
            if successor.priority() <= entry.priority() && successor.before(&next_up) {
                // The better of the two waits to be expanded next; the other goes to the list.
                let held = std::mem::replace(&mut next_up, successor);
                if !held.is_none() {
                    buckets.push(heap, held);
                }
                continue;
            }
            buckets.push(heap, successor);
        }
        max_open = max_open.max(open);
    }
    stats.expanded += expanded;
    stats.pushed += pushed;
    stats.max_open = stats.max_open.max(max_open as u64);
    found
}

/// `COVERED[d][m]`: the neighbours of a cell reached by a step in direction `d` that its parent,
/// whose neighbour mask is `m`, reaches in one step (the parent itself among them).
///
/// On a map of one cost the direct step is strictly cheaper than the two steps through the cell
/// (1 against 1 + √2, √2 against 2), and the parent relaxed its neighbours when it was expanded,
/// so the cell's expansion cannot improve them and skips them. The search expands the same cells
/// in the same order; it only tests fewer neighbours.
const COVERED: [[u8; 256]; 8] = covered_table();

/// For a cell reached diagonally, the two neighbours beyond it on either side (north-west and
/// south-east after a north-east step): two orthogonal steps from the parent reach them for 2,
/// against 2√2 through the cell. Without corner cutting, a diagonal step out of the cell proves
/// both of those orthogonal steps open, so the path through the cell is never the cheapest;
/// and when the middle cell of the cheaper way ranks before the dearer entry would have, the
/// search expands the same cells in the same order without it. (Another diagonal rule could
/// leave the orthogonal way blocked.)
const BEYOND_NO_CUT: [u8; 8] = beyond_table();

/// `NOTES[b][m][d]`: the neighbours a cell reached by a step in direction `d` from a parent of
/// mask `m` skips, [`COVERED`] and, when `b` is 1, [`BEYOND_NO_CUT`]; by parent mask first, so
/// that an expansion finds the notes of all its successors in one row.
static NOTES: [[[u8; 8]; 256]; 2] = notes_table();

const fn notes_table() -> [[[u8; 8]; 256]; 2] {
    let covered = COVERED;
    let mut table = [[[0u8; 8]; 256]; 2];
    let mut m = 0;
    while m < 256 {
        let mut d = 0;
        while d < 8 {
            table[0][m][d] = covered[d][m];
            table[1][m][d] = covered[d][m] | BEYOND_NO_CUT[d];
            d += 1;
        }
        m += 1;
    }
    table
}

const fn direction(x: i32, y: i32) -> usize {
    let mut d = 0;
    while DX[d] != x || DY[d] != y {
        d += 1;
    }
    d
}

const fn beyond_table() -> [u8; 8] {
    let mut table = [0u8; 8];
    let mut d = 4;
    while d < 8 {
        table[d] = (1 << direction(-DX[d], DY[d])) | (1 << direction(DX[d], -DY[d]));
        d += 1;
    }
    table
}

const fn covered_table() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut d = 0;
    while d < 8 {
        let mut m = 0;
        while m < 256 {
            let mut bits = 0u8;
            let mut e = 0;
            while e < 8 {
                let (x, y) = (DX[d] + DX[e], DY[d] + DY[e]);
                // The parent itself, or a neighbour of it that it steps to.
                let parent = x == 0 && y == 0;
                if parent || (x.abs() <= 1 && y.abs() <= 1 && (m >> direction(x, y)) & 1 == 1) {
                    bits |= 1 << e;
                }
                e += 1;
            }
            table[d][m] = bits;
            m += 1;
        }
        d += 1;
    }
    table
}

/// Splits cell indices into columns and rows with a multiplication instead of a division
/// (Lemire's method, exact for every 32-bit index and width).
#[derive(Clone, Copy, Debug)]
struct RowDivider {
    width: u32,
    /// `u64::MAX / width + 1`, or 0 for width 1 (where the row is the index itself).
    magic: u64,
}

impl RowDivider {
    fn new(width: u32) -> Self {
        let width = width.max(1);
        let magic = if width == 1 {
            0
        } else {
            u64::MAX / u64::from(width) + 1
        };
        Self { width, magic }
    }

    /// The column and row of a cell index.
    #[inline(always)]
    fn split(&self, index: u32) -> (i32, i32) {
        let row = if self.magic == 0 {
            index
        } else {
            ((u128::from(self.magic) * u128::from(index)) >> 64) as u32
        };
        ((index - row * self.width) as i32, row as i32)
    }
}

/// A*'s run for the [registry](crate::search::algorithms): best-first on g + w·h.
pub(crate) fn run_astar(
    ws: &mut Workspace,
    q: &Query<'_>,
    control: &SearchControl,
    stats: &mut Stats,
) -> Option<Vec<usize>> {
    let ranking = Ranking {
        estimate: q.estimate_to_goal(q.request.weight),
        g_weight: 1.0,
    };
    run_ranked(ws, q, ranking, control, stats)
}

/// Dijkstra's run: best-first on g alone.
pub(crate) fn run_dijkstra(
    ws: &mut Workspace,
    q: &Query<'_>,
    control: &SearchControl,
    stats: &mut Stats,
) -> Option<Vec<usize>> {
    let goal = q.request.goal;
    let ranking = Ranking {
        estimate: Estimate::new(q.graph.topology(), Heuristic::Zero, goal.x, goal.y, q.scale),
        g_weight: 1.0,
    };
    run_ranked(ws, q, ranking, control, stats)
}

/// Greedy best-first's run: on h alone.
pub(crate) fn run_greedy(
    ws: &mut Workspace,
    q: &Query<'_>,
    control: &SearchControl,
    stats: &mut Stats,
) -> Option<Vec<usize>> {
    let ranking = Ranking {
        estimate: q.estimate_to_goal(1.0),
        g_weight: 0.0,
    };
    run_ranked(ws, q, ranking, control, stats)
}

fn run_ranked(
    ws: &mut Workspace,
    q: &Query<'_>,
    ranking: Ranking,
    control: &SearchControl,
    stats: &mut Stats,
) -> Option<Vec<usize>> {
    let (graph, space, order) = (q.graph, &mut ws.forward, &mut ws.order);
    let found = if q.record() {
        best_first::<true>(
            graph, space, q.start, q.goal, ranking, stats, order, control,
        )
    } else {
        best_first::<false>(
            graph, space, q.start, q.goal, ranking, stats, order, control,
        )
    };
    found.then(|| walk_back(graph, &ws.forward, q.goal, q.start))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cell a step in direction `d` from `(x, y)` reaches.
    fn step(x: i32, y: i32, d: usize) -> (i32, i32) {
        (x + DX[d], y + DY[d])
    }

    #[test]
    fn covered_neighbours_are_the_parents_own_neighbours() {
        for (d, row) in COVERED.iter().enumerate() {
            for (m, &covered) in row.iter().enumerate() {
                // The parent at the origin, the cell one step away.
                let cell = step(0, 0, d);
                for e in 0..8 {
                    let next = step(cell.0, cell.1, e);
                    let from_parent = (0..8).find(|&f| step(0, 0, f) == next);
                    let expected = next == (0, 0) || from_parent.is_some_and(|f| m >> f & 1 == 1);
                    assert_eq!(
                        covered >> e & 1 == 1,
                        expected,
                        "d {d}, mask {m:#010b}, e {e}"
                    );
                    if expected && next != (0, 0) {
                        // Strictly cheaper from the parent than through the cell.
                        let f = from_parent.unwrap();
                        let direct = crate::search::graph::STEP_LENGTH[f];
                        let through = crate::search::graph::STEP_LENGTH[d]
                            + crate::search::graph::STEP_LENGTH[e];
                        assert!(direct + 0.4 < through);
                    }
                }
            }
        }
    }

    #[test]
    fn the_cells_beyond_a_diagonal_step_are_two_orthogonal_steps_from_the_parent() {
        assert_eq!(
            BEYOND_NO_CUT[..4],
            [0; 4],
            "orthogonal steps prune nothing beyond"
        );
        for d in 4..8 {
            let cell = step(0, 0, d);
            let beyond: Vec<(i32, i32)> = (0..8)
                .filter(|&e| BEYOND_NO_CUT[d] >> e & 1 == 1)
                .map(|e| step(cell.0, cell.1, e))
                .collect();
            // North-east step to (1, -1): the cells beyond are (0, -2) and (2, 0).
            let mut expected = vec![(0, 2 * DY[d]), (2 * DX[d], 0)];
            expected.sort();
            let mut beyond = beyond;
            beyond.sort();
            assert_eq!(beyond, expected, "d {d}");
        }
    }

    #[test]
    fn row_divider_matches_division() {
        for width in [1u32, 2, 3, 7, 100, 512, 513, 1000, 4096, 65535, 100_000] {
            let rows = RowDivider::new(width);
            let mut seed = u64::from(width);
            for _ in 0..10_000 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let index = (seed >> 32) as u32;
                let (x, y) = rows.split(index);
                assert_eq!((x as u32, y as u32), (index % width, index / width));
            }
            for index in [0, 1, width - 1, width, u32::MAX - 1, u32::MAX] {
                let (x, y) = rows.split(index);
                assert_eq!((x as u32, y as u32), (index % width, index / width));
            }
        }
    }
}
