//! Best-first search on `g_weight · g + h`: A*, weighted A*, Dijkstra (h = 0) and greedy
//! best-first (g_weight = 0) are this one loop with other weights.

use super::control::SearchControl;
use super::graph::{DX, DY, SearchGraph};
use super::heap::Entry;
use super::heuristic::Estimate;
use super::request::Stats;
use super::space::{CLOSED, NO_PARENT, Space, prefetch, seen};

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
#[allow(clippy::too_many_arguments)]
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
    // The common cases get a loop of their own: one cost for every cell, the octile estimate.
    macro_rules! with_estimate {
        ($step_cost:expr) => {
            if estimate.is_octile() {
                let octile = |x, y| estimate.octile_at(x, y);
                run::<RECORD, _, _>(
                    graph, space, start, goal, ranking, stats, order, control, $step_cost, octile,
                )
            } else {
                let any = |x, y| estimate.at(x, y);
                run::<RECORD, _, _>(
                    graph, space, start, goal, ranking, stats, order, control, $step_cost, any,
                )
            }
        };
    }
    match graph.uniform_cost() {
        Some(cost) => {
            let steps = super::graph::STEP_LENGTH.map(|length| length * cost);
            with_estimate!(|_, _, d: usize| steps[d])
        }
        None => with_estimate!(|from, to, d| graph.step_cost(from, to, d)),
    }
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn run<const RECORD: bool, C, H>(
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
    let (mut expanded, mut pushed, mut max_open) = (0u64, 1u64, 1usize);
    let mut found = false;
    // A successor that ranks with the cell just expanded: no entry in the open list ranks
    // before it, so it is expanded next without a trip through the open list.
    let mut next_up: Option<Entry> = None;
    while let Some(entry) = next_up.take().or_else(|| {
        // Entries of cells closed since, or reached more cheaply since, are dropped in bulk.
        let (state, costs) = (&*state, &*costs);
        buckets.pop(heap, |e| {
            let i = e.cell() as usize;
            // Greedy keeps a cell's first entry when it finds a cheaper way there.
            state[i] & CLOSED == 0 && (g_weight == 0.0 || e.made_for(costs[i]))
        })
    }) {
        let current = entry.cell() as usize;
        if state[current] & CLOSED != 0 {
            continue;
        }
        state[current] |= CLOSED;
        if let Some(cell) = buckets.next_in_band() {
            // The next cell's state is likely far from this one's: start loading it now.
            let cell = cell as usize;
            prefetch(masks, cell);
            prefetch(costs, cell);
            prefetch(state, cell.wrapping_sub(width));
            prefetch(state, cell + width);
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
        let mut mask = masks[current];
        while mask != 0 {
            let d = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let next = current.wrapping_add_signed(deltas[d]);
            let ng = g + step_cost(current, next, d);
            let old = state[next];
            if old == 0 {
                state[next] = seen(d as u8);
                costs[next] = ng;
                touched.push(next as u32);
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
            let successor = Entry::new(g_weight * ng + h, ng, next as u32);
            pushed += 1;
            if successor.priority() <= entry.priority() {
                match next_up {
                    None => {
                        next_up = Some(successor);
                        continue;
                    }
                    Some(held) if successor.before(&held) => {
                        next_up = Some(successor);
                        buckets.push(heap, held);
                        continue;
                    }
                    Some(_) => {}
                }
            }
            buckets.push(heap, successor);
        }
        let open = heap.len() + buckets.len() + usize::from(next_up.is_some());
        max_open = max_open.max(open);
    }
    stats.expanded += expanded;
    stats.pushed += pushed;
    stats.max_open = stats.max_open.max(max_open as u64);
    found
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

#[cfg(test)]
mod tests {
    use super::RowDivider;

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
