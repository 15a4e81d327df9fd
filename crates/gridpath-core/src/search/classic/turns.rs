//! Turn penalties: a cost for every 45° a path turns, so that a unit that pays to change
//! direction gets a path with fewer zig-zags. With a penalty the cost of a step depends on the
//! step before it, so the search runs exactly in the state space of (cell, heading): A* (or
//! Dijkstra) over up to nine states per cell — the eight headings and "not moved yet" at the
//! start — with the grid's heuristic, which stays admissible since penalties only add cost.
//!
//! Each state keeps its best cost only (8 bytes), in pages of 8 × 8 cells allocated as the
//! search reaches them, so that memory follows the states reached and no state is hashed;
//! the path is traced back through the costs. A*'s open list is the searches' 16-byte entry
//! heap, with the heading in the entry; Dijkstra's is a ring of buckets of cost as wide as the
//! cheapest step ([`Rings`]), each sorted by page of the costs when the search reaches it,
//! which finds the heap's costs and paths to the last bit. A cell's states of one bucket are
//! expanded together ([`relax_group`]), and the costs the next page's states will read are
//! asked of the processor while this page's are expanded ([`Costs::prefetch_around`]).
//!
//! On a hex map a turn is a change between the six directions, and the penalty is paid for
//! every 60° turned; the heading is still kept as the graph's direction of the step, whose
//! hex direction depends on the row (or column) it starts from ([`turns_at`]).
//!
//! ```
//! use gridpath_core::grid::{Cell, Grid};
//! use gridpath_core::search::{Diagonal, SearchRequest, solve};
//!
//! // On an open field with 4-connected moves every staircase costs the same: a turn penalty
//! // picks the path with one turn.
//! let grid = Grid::from_ascii(&["......"; 6]).expect("a valid map");
//! let request = SearchRequest::new(Cell::new(0, 0), Cell::new(5, 5))
//!     .with_diagonal(Diagonal::Never)
//!     .with_turn_penalty(0.5);
//! let result = solve(&grid, &request).expect("plans");
//! assert_eq!(result.cost, 10.0 + 2.0 * 0.5, "ten steps and one 90° turn");
//! ```

use std::time::Instant;

use crate::grid::{Cell, Topology};

use crate::control::SearchControl;
use crate::search::frontier::heap::{Entry, Heap};
use crate::search::graph::{DX, DY, OPPOSITE, SearchGraph};
use crate::search::request::{
    Algorithm, Heuristic, SearchError, SearchRequest, SearchResult, Stats,
};

/// Each direction of the graph (`graph::DX`/`DY` order: E, W, S, N, NE, NW, SE, SW) as a
/// multiple of 45° counted round the compass.
const ANGLE: [u8; 8] = [0, 4, 2, 6, 7, 5, 1, 3];

/// The heading of a state at the start, before any step.
const UNMOVED: u8 = 8;

/// How many 45° turns lie between two headings (0 to 4); none from the start.
pub(crate) fn turns(from: u8, to: u8) -> u32 {
    if from == UNMOVED {
        return 0;
    }
    let a = ANGLE[usize::from(from)];
    let b = ANGLE[usize::from(to)];
    let d = u32::from(a.abs_diff(b));
    d.min(8 - d)
}

/// How many turns lie between the heading `from` a path enters `(x, y)` with and the heading
/// `to` it leaves by: 45° steps on squares ([`turns`]), 60° steps on hexes (0 to 3).
pub(crate) fn turns_at(topology: Topology, x: usize, y: usize, from: u8, to: u8) -> u32 {
    if !topology.turns_depend_on_place() {
        return turns(from, to);
    }
    if from == UNMOVED {
        return 0;
    }
    let (f, t) = (usize::from(from), usize::from(to));
    let enter = (i64::from(DX[f]), i64::from(DY[f]));
    let leave = (i64::from(DX[t]), i64::from(DY[t]));
    topology.turns_between(x as i64, y as i64, enter, leave)
}

/// The side of the square of cells whose states share a page of [`Costs`].
const TILE: usize = 8;

/// States a page of [`Costs`] holds: those of a tile of 8 × 8 cells, 4 KB.
const PAGE: usize = TILE * TILE * 8;

/// The best cost known of each (cell, heading) state with a step behind it: one `f64` a
/// state, in pages of 8 × 8 cells allocated when the search first reaches one of their
/// states, so that memory follows the states reached (an A* across an open map touches the
/// tiles along its way; a Dijkstra search that reaches everything takes 64 bytes a cell), and
/// a cell's neighbours mostly lie in its own page. The start's state before any step costs 0
/// and is not kept.
struct Costs {
    /// Tiles a row of tiles holds, and rows of tiles.
    tiles_across: usize,
    tiles_down: usize,
    /// The pages, 8 bytes each in the table (an eighth of a byte a cell), by tile.
    pages: Vec<Option<Box<[f64; PAGE]>>>,
}

impl Costs {
    /// Room for every state of a `width` × `height` map, none reached yet.
    fn new(width: usize, height: usize) -> Self {
        let tiles_across = width.div_ceil(TILE);
        let mut pages = Vec::new();
        pages.resize_with(tiles_across * height.div_ceil(TILE), || None);
        Self {
            tiles_across,
            tiles_down: height.div_ceil(TILE),
            pages,
        }
    }

    /// The index of the state of cell `(x, y)` entered with `heading`.
    #[inline]
    fn state(&self, x: usize, y: usize, heading: u8) -> usize {
        let tile = (y / TILE) * self.tiles_across + x / TILE;
        tile * PAGE + ((y % TILE) * TILE + x % TILE) * 8 + usize::from(heading)
    }

    /// The best cost known, infinite for a state not reached.
    #[inline]
    fn get(&self, state: usize) -> f64 {
        self.pages[state / PAGE]
            .as_ref()
            .map_or(f64::INFINITY, |page| page[state % PAGE])
    }

    /// Records a better cost.
    #[inline]
    fn set(&mut self, state: usize, cost: f64) {
        let page = self.pages[state / PAGE].get_or_insert_with(|| Box::new([f64::INFINITY; PAGE]));
        page[state % PAGE] = cost;
    }

    /// Asks the processor for the costs that expanding the cells `cells` (a bit a cell of the
    /// tile, row by row) of page `page` reads: those of the cells and of their neighbours, in
    /// this page and the eight round it, and the cells' masks in `masks` (a map `width` wide).
    #[inline(always)]
    fn prefetch_around(&self, page: usize, cells: u64, masks: &[u8], width: usize) {
        const WEST_EDGE: u64 = 0x0101_0101_0101_0101;
        const EAST_EDGE: u64 = WEST_EDGE << 7;
        let across = |m: u64| m | ((m << 1) & !WEST_EDGE) | ((m >> 1) & !EAST_EDGE);
        let down = |m: u64| m | (m << 8) | (m >> 8);
        let (tx, ty) = (page % self.tiles_across, page / self.tiles_across);
        let near = [
            (0, 0, down(across(cells))),
            (1, 0, down((cells & EAST_EDGE) >> 7)),
            (-1, 0, down((cells & WEST_EDGE) << 7)),
            (0, 1, across(cells >> 56)),
            (0, -1, across(cells & 0xff) << 56),
            (1, 1, (cells >> 63) & 1),
            (-1, 1, ((cells >> 56) & 1) << 7),
            (1, -1, ((cells >> 7) & 1) << 56),
            (-1, -1, (cells & 1) << 63),
        ];
        for (dx, dy, mut lines) in near {
            if lines == 0 {
                continue;
            }
            let (x, y) = (tx.wrapping_add_signed(dx), ty.wrapping_add_signed(dy));
            if x >= self.tiles_across || y >= self.tiles_down {
                continue;
            }
            let Some(Some(costs)) = self.pages.get(y * self.tiles_across + x) else {
                continue;
            };
            while lines != 0 {
                let at = lines.trailing_zeros() as usize;
                lines &= lines - 1;
                crate::search::space::prefetch(&costs[..], at * 8);
            }
        }
        let mut rows = cells;
        while rows != 0 {
            let row = rows.trailing_zeros() as usize / TILE;
            rows &= !(0xff << (row * TILE));
            crate::search::space::prefetch(masks, (ty * TILE + row) * width + tx * TILE);
        }
    }

    /// The bytes its pages take.
    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.pages.iter().flatten().count() * PAGE * 8
    }
}

/// Plans with a turn penalty: A* (weighted when the request says so) or Dijkstra over (cell,
/// heading). The request was checked; its `turn_penalty` is positive.
///
/// Dijkstra's open list is a [`Rings`] bucket queue where the graph's step costs allow one
/// (see [`Rings::width_and_span`]), the searches' heap otherwise; A* always uses the heap.
pub(crate) fn search(
    graph: &SearchGraph,
    request: &SearchRequest,
    control: &SearchControl,
) -> Result<SearchResult, SearchError> {
    if !matches!(request.algorithm, Algorithm::AStar | Algorithm::Dijkstra) {
        return Err(SearchError::TurnPenaltyUnsupported {
            algorithm: request.algorithm,
        });
    }
    let started = Instant::now();
    let mut costs = Costs::new(graph.width() as usize, graph.height() as usize);
    let rings = (request.algorithm == Algorithm::Dijkstra)
        .then(|| Rings::width_and_span(graph, request.turn_penalty))
        .flatten();
    let (reached, stats) = match rings {
        Some((width, span)) => {
            let open = Rings::new(width, span, costs.pages.len());
            search_in_buckets(graph, request, control, &mut costs, open)?
        }
        None => search_in_heap(graph, request, control, &mut costs)?,
    };
    let start = graph.index(request.start);
    let (path, cost) = match reached {
        Some(end) => {
            let (cells, cost) = trace_back(graph, &costs, start, end, request.turn_penalty);
            (Some(cells), cost)
        }
        None => (None, 0.0),
    };
    let mut stats = stats;
    stats.time_us = started.elapsed().as_micros() as u64;
    let mut result = crate::search::outcome::result(graph, request, path, stats, None);
    // The steps' cost plus the turns'.
    result.cost = cost;
    Ok(result)
}

/// What a step costs, read from tables where the map allows, each to the same bits as
/// [`SearchGraph::step_cost`] and the penalty times [`turns_at`] give it.
struct Moves {
    penalty: f64,
    /// Each direction's step cost, on a map of one cost without heights.
    steps: Option<[f64; 8]>,
    /// The penalty for each pair of headings (from, including the start's, and to), on squares,
    /// where the turns do not depend on the cell.
    turn_costs: Option<[[f64; 8]; 9]>,
    /// Whether a state leaves its cell back the way it came in: never on a cheapest path,
    /// which would be cheaper without that loop by two steps and the penalty for the turns it
    /// saves (the turns of a path are at most those of its loop plus the turn out of it, as
    /// turns are counted round a circle), so a search may skip it and find the same costs for
    /// every state a cheapest path passes through.
    reverse: bool,
}

impl Moves {
    /// What turning from `heading` to the direction `d` costs at `(x, y)`: from the table
    /// where turns may be tabled once, else counted there.
    #[inline]
    fn turn_cost(&self, topology: Topology, x: usize, y: usize, heading: usize, d: usize) -> f64 {
        match &self.turn_costs {
            Some(table) => table[heading][d],
            None => self.penalty * f64::from(turns_at(topology, x, y, heading as u8, d as u8)),
        }
    }

    fn new(graph: &SearchGraph, penalty: f64, reverse: bool) -> Self {
        let steps = graph.uniform_step_costs().filter(|_| !graph.has_heights());
        let turn_costs = (!graph.topology().turns_depend_on_place()).then(|| {
            std::array::from_fn(|from| {
                std::array::from_fn(|to| penalty * f64::from(turns(from as u8, to as u8)))
            })
        });
        Self {
            penalty,
            steps,
            turn_costs,
            reverse,
        }
    }
}

/// Relaxes every step out of state (`cell` at `(x, y)`, `heading`) of cost `cost`: each
/// neighbour state reached more cheaply gets its new cost, and `push((cost, cost before),
/// cell, x, y, heading, state)` queues it.
#[inline(always)]
fn relax(
    graph: &SearchGraph,
    costs: &mut Costs,
    moves: &Moves,
    (cell, x, y, heading, cost): (usize, usize, usize, u8, f64),
    mut push: impl FnMut((f64, f64), usize, usize, usize, u8, usize),
) {
    let topology = graph.topology();
    let mut mask = graph.mask(cell);
    if !moves.reverse && heading != UNMOVED {
        mask &= !(1 << OPPOSITE[usize::from(heading)]);
    }
    while mask != 0 {
        let d = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        let next_cell = cell.wrapping_add_signed(graph.delta(d));
        let step = match &moves.steps {
            Some(steps) => steps[d],
            None => graph.step_cost(cell, next_cell, d),
        };
        let turn = moves.turn_cost(topology, x, y, usize::from(heading), d);
        let next_cost = cost + step + turn;
        let (nx, ny) = (
            x.wrapping_add_signed(DX[d] as isize),
            y.wrapping_add_signed(DY[d] as isize),
        );
        let next = costs.state(nx, ny, d as u8);
        let known = costs.get(next);
        if next_cost < known {
            costs.set(next, next_cost);
            push((next_cost, known), next_cell, nx, ny, d as u8, next);
        }
    }
}

/// The goal state reached, if any, and the counts: A* (or Dijkstra) with the searches' heap.
/// Each entry carries its cell, and its heading in the notes; an entry is stale when its state
/// got cheaper since: its priority is then above the state's.
fn search_in_heap(
    graph: &SearchGraph,
    request: &SearchRequest,
    control: &SearchControl,
    costs: &mut Costs,
) -> Result<(Option<(usize, u8)>, Stats), SearchError> {
    let mut stats = Stats::default();
    let moves = Moves::new(graph, request.turn_penalty, true);
    let goal = graph.index(request.goal);
    let start = graph.index(request.start);
    let (heuristic, weight) = if request.algorithm == Algorithm::AStar {
        (request.heuristic_on(graph.topology()), request.weight)
    } else {
        (Heuristic::Zero, 1.0)
    };
    let scale = graph.min_cost() * weight;
    let h = |x: usize, y: usize| {
        crate::search::partial::distance(
            graph.topology(),
            heuristic,
            Cell::new(x as u32, y as u32),
            request.goal,
        ) * scale
    };
    let width = graph.width() as usize;
    let mut open = Heap::default();
    open.push(Entry::with_notes(
        h(start % width, start / width),
        0.0,
        start as u32,
        UNMOVED,
    ));
    while let Some(entry) = open.pop() {
        let (cell, heading) = (entry.cell() as usize, entry.notes());
        let (x, y) = (cell % width, cell / width);
        let cost = if heading == UNMOVED {
            0.0
        } else {
            costs.get(costs.state(x, y, heading))
        };
        if entry.priority() > cost + h(x, y) {
            continue;
        }
        stats.expanded += 1;
        if control.should_stop(stats.expanded) {
            return Err(SearchError::Cancelled);
        }
        if cell == goal {
            return Ok((Some((cell, heading)), stats));
        }
        relax(
            graph,
            costs,
            &moves,
            (cell, x, y, heading, cost),
            |(next_cost, _), next_cell, nx, ny, d, _| {
                open.push(Entry::with_notes(
                    next_cost + h(nx, ny),
                    next_cost,
                    next_cell as u32,
                    d,
                ));
                stats.pushed += 1;
                stats.max_open = stats.max_open.max(open.len() as u64);
            },
        );
    }
    Ok((None, stats))
}

/// The entries of one page in a sorted bucket, from `list[start]` to `list[end]`: a bit a
/// state in `here` (eight bits a cell), and a bit a cell in `cells`.
struct Run {
    page: usize,
    here: [u64; PAGE / 64],
    cells: u64,
    end: usize,
}

impl Run {
    /// The run that starts at entry `start` of `list`, if any.
    #[inline(always)]
    fn at(list: &[u64], start: usize) -> Option<Self> {
        let page = *list.get(start)? as usize / PAGE;
        let mut run = Run {
            page,
            here: [0; PAGE / 64],
            cells: 0,
            end: start,
        };
        while let Some(&entry) = list.get(run.end) {
            if entry as usize / PAGE != page {
                break;
            }
            let within = entry as usize % PAGE;
            run.here[within / 64] |= 1 << (within % 64);
            run.cells |= 1 << (within / 8);
            run.end += 1;
        }
        Some(run)
    }
}

/// The headings of a mask of eight bits, lowest first.
struct Bits(u8);

impl Iterator for Bits {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        (self.0 != 0).then(|| {
            let heading = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            heading
        })
    }
}

/// The states of one cell expanded together from one bucket: a bit for each heading, and
/// each one's cost.
#[derive(Default)]
struct Group {
    live: u8,
    costs: [f64; 8],
}

/// Relaxes every step out of the states of `group` at cell `(x, y)`: each neighbour state
/// gets the least, over the group's states that may take the step, of their cost plus the
/// step and its turns, summed as [`relax`] sums them, when that is below its cost, and is
/// queued. The neighbour's cost is read once for the whole group, and ends as it would after
/// relaxing the group's states one by one.
#[inline(always)]
fn relax_group(
    graph: &SearchGraph,
    costs: &mut Costs,
    moves: &Moves,
    (cell, x, y): (usize, usize, usize),
    group: &Group,
    open: &mut Rings,
) {
    let topology = graph.topology();
    let mut mask = graph.mask(cell);
    while mask != 0 {
        let d = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        let mut from = group.live;
        if !moves.reverse {
            from &= !(1 << OPPOSITE[d]);
        }
        if from == 0 {
            continue;
        }
        let next_cell = cell.wrapping_add_signed(graph.delta(d));
        let step = match &moves.steps {
            Some(steps) => steps[d],
            None => graph.step_cost(cell, next_cell, d),
        };
        let mut next_cost = f64::INFINITY;
        for heading in Bits(from) {
            let turn = moves.turn_cost(topology, x, y, heading, d);
            let through = group.costs[heading] + step + turn;
            if through < next_cost {
                next_cost = through;
            }
        }
        let (nx, ny) = (
            x.wrapping_add_signed(DX[d] as isize),
            y.wrapping_add_signed(DY[d] as isize),
        );
        let next = costs.state(nx, ny, d as u8);
        let known = costs.get(next);
        if next_cost < known {
            costs.set(next, next_cost);
            open.push(next_cost, known, next);
        }
    }
}

/// The goal state reached, if any, and the counts: Dijkstra with a [`Rings`] bucket queue.
///
/// The costs it finds are the heap's to the last bit. Both compute each state's cost as the
/// least, over the states before it, of their cost plus the step and its turns, in floats;
/// adding a positive step to a float never lowers it, so these equations have one solution,
/// the least float sum over the paths to the state, whichever order the states are expanded
/// in, as long as every state is expanded again after it gets cheaper (a state improved by
/// another of its own bucket, which only rounding allows, is queued into that bucket again).
/// The search stops at the end of the bucket where the goal's cell is first expanded: every
/// state cheaper than the cheapest goal state then has its least cost, so the trace back
/// reads the same costs as after the heap's search, and among the goal's states of the least
/// cost the one of the smallest heading ends the path, as the heap's order of entries picks.
fn search_in_buckets(
    graph: &SearchGraph,
    request: &SearchRequest,
    control: &SearchControl,
    costs: &mut Costs,
    mut open: Rings,
) -> Result<(Option<(usize, u8)>, Stats), SearchError> {
    let mut stats = Stats::default();
    let moves = Moves::new(graph, request.turn_penalty, false);
    let goal = graph.index(request.goal);
    let start = graph.index(request.start);
    let width = graph.width() as usize;
    if start == goal {
        stats.expanded = 1;
        return Ok((Some((start, UNMOVED)), stats));
    }
    // The start's state before any step (cost 0, kept by no page).
    stats.expanded = 1;
    let (x, y) = (start % width, start / width);
    relax(
        graph,
        costs,
        &moves,
        (start, x, y, UNMOVED, 0.0),
        |(cost, before), _, _, _, _, next| open.push(cost, before, next),
    );
    // The goal's cheapest state expanded so far, and the bucket where the search ends.
    let mut best: Option<(f64, u8)> = None;
    let mut last_bucket = usize::MAX;
    while let Some(list) = open.take(last_bucket) {
        let current = open.current();
        let mut next = Run::at(&list, 0);
        while let Some(Run {
            page, here, end, ..
        }) = next
        {
            // While this page's states are expanded, the processor loads the costs the next
            // page's will read.
            next = Run::at(&list, end);
            let (tx, ty) = (page % costs.tiles_across, page / costs.tiles_across);
            if let Some(run) = &next {
                costs.prefetch_around(run.page, run.cells, graph.masks(), width);
            }
            for (word, &bits) in here.iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    let shift = bits.trailing_zeros() & !7;
                    let headings = ((bits >> shift) & 0xff) as u8;
                    bits &= !(0xff << shift);
                    let first = page * PAGE + word * 64 + shift as usize;
                    // The cell's states whose cost lies in this bucket; the others are stale.
                    let mut group = Group::default();
                    for heading in Bits(headings) {
                        let cost = costs.get(first + heading);
                        if open.bucket(cost) == current {
                            group.live |= 1 << heading;
                            group.costs[heading] = cost;
                        }
                    }
                    if group.live == 0 {
                        continue;
                    }
                    let at = word * 8 + shift as usize / 8;
                    let (x, y) = (tx * TILE + at % TILE, ty * TILE + at / TILE);
                    let cell = y * width + x;
                    let before = stats.expanded;
                    stats.expanded += u64::from(group.live.count_ones());
                    // The checkpoint the count passed, if any, as when counted one by one.
                    let passed = stats.expanded - stats.expanded % SearchControl::CHECK_EVERY;
                    if passed > before && control.should_stop(passed) {
                        return Err(SearchError::Cancelled);
                    }
                    if cell == goal {
                        for heading in Bits(group.live) {
                            let cost = group.costs[heading];
                            if best.is_none_or(|(c, h)| (cost, heading as u8) < (c, h)) {
                                best = Some((cost, heading as u8));
                            }
                        }
                        last_bucket = current;
                        continue;
                    }
                    relax_group(graph, costs, &moves, (cell, x, y), &group, &mut open);
                }
            }
        }
        open.give_back(list);
    }
    stats.pushed = open.pushed;
    stats.max_open = open.max_len;
    Ok((best.map(|(_, heading)| (goal, heading)), stats))
}

/// Dijkstra's open list over (cell, heading) states: a ring of lists, each holding the states
/// whose cost lies in one bucket `[k·w, (k + 1)·w)` of the width `w` of the cheapest step.
/// Every step costs at least `w`, so a state can only make states of later buckets cheaper
/// (but for rounding, which the search allows for): the states of one bucket are expanded in
/// any order, without a heap. The ring holds as many buckets as one step can reach ahead, so
/// that the lists are reused all through the search.
///
/// An entry is the state's index in [`Costs`], 8 bytes. A state is queued in the bucket of its
/// cost, unless it waits in that bucket already (it got cheaper but stayed in a later bucket
/// than the current one): each state waits once in each bucket it may be expanded from, and
/// is expanded from there at the cost it has by then. An entry whose state's cost now lies in
/// another bucket is stale (the state got cheaper since) and is skipped. A state made cheaper
/// within the current bucket (by rounding only) is queued there again, and may be expanded
/// twice, the second time finding nothing new. A bucket's entries are sorted when the search reaches it,
/// so that its states are expanded page by page: the states of one wave of the search lie all
/// over the costs, and in the order they were queued nearly every one missed the cache.
struct Rings {
    /// Bucket `k` in `current ≤ k < current + lists.len()` is `lists[k % lists.len()]`.
    lists: Vec<Vec<u64>>,
    /// The bucket being expanded.
    current: usize,
    /// Buckets per unit of cost.
    per_unit: f64,
    /// Room for a bucket's entries while they are sorted.
    scratch: Vec<u64>,
    /// The bits of each of the two digits of a page index the sort orders by.
    digit_bits: u32,
    /// Entries queued.
    len: usize,
    /// Entries ever queued, and the most queued at once.
    pushed: u64,
    max_len: u64,
}

/// The most lists a ring may have; a search whose steps span more buckets uses the heap.
const RINGS_MAX: usize = 1 << 16;

impl Rings {
    /// The bucket width and the most a step can cost (turns included) on `graph` with a
    /// turn `penalty`, when a bucket queue can order its states: the cheapest step costs more
    /// than zero, no step costs more than [`RINGS_MAX`] widths, and steps cost no more than
    /// their terrain says (no heights, whose slopes would widen the span).
    fn width_and_span(graph: &SearchGraph, penalty: f64) -> Option<(f64, f64)> {
        let lengths = graph.step_lengths();
        let shortest = lengths.iter().copied().fold(f64::INFINITY, f64::min);
        let longest = lengths.iter().copied().fold(0.0, f64::max);
        let width = graph.min_cost() * shortest;
        let most_turns = f64::from(graph.topology().most_turns());
        let span = longest * graph.max_cost() + penalty * most_turns;
        let fits = width > 0.0
            && width.is_finite()
            && span.is_finite()
            && span / width < (RINGS_MAX / 2) as f64
            && !graph.has_heights();
        fits.then_some((width, span))
    }

    /// An empty queue of buckets `width` wide for steps of up to `span`.
    fn new(width: f64, span: f64, pages: usize) -> Self {
        // A step reaches at most `span / width` buckets ahead, and one more for rounding.
        let lists = ((span / width).ceil() as usize + 2).next_power_of_two();
        // Two digits of the page index, each of half its bits.
        let digit_bits = (usize::BITS - pages.max(2).leading_zeros()).div_ceil(2);
        Self {
            lists: vec![Vec::new(); lists],
            scratch: Vec::new(),
            digit_bits,
            current: 0,
            per_unit: 1.0 / width,
            len: 0,
            pushed: 0,
            max_len: 0,
        }
    }

    /// The bucket of a cost: monotone in the cost, as the order needs.
    #[inline(always)]
    fn bucket(&self, cost: f64) -> usize {
        (cost * self.per_unit) as usize
    }

    /// The bucket being expanded.
    fn current(&self) -> usize {
        self.current
    }

    /// Queues `state` at `cost`, which is not below the current bucket, unless it waits in
    /// that bucket already from its cost `before`.
    #[inline(always)]
    fn push(&mut self, cost: f64, before: f64, state: usize) {
        let bucket = self.bucket(cost);
        debug_assert!(bucket >= self.current && bucket - self.current < self.lists.len());
        if bucket > self.current && before.is_finite() && self.bucket(before) == bucket {
            return;
        }
        let slot = bucket & (self.lists.len() - 1);
        self.lists[slot].push(state as u64);
        self.len += 1;
        self.pushed += 1;
        self.max_len = self.max_len.max(self.len as u64);
    }

    /// Takes the entries of the cheapest bucket not past `last` that has any, sorted by page,
    /// and makes it the current bucket. States queued into it meanwhile wait in the ring, to
    /// be taken next.
    fn take(&mut self, last: usize) -> Option<Vec<u64>> {
        if self.len == 0 {
            return None;
        }
        let mask = self.lists.len() - 1;
        loop {
            let slot = self.current & mask;
            if !self.lists[slot].is_empty() {
                let mut list = std::mem::take(&mut self.lists[slot]);
                self.len -= list.len();
                self.sort(&mut list);
                return Some(list);
            }
            if self.current >= last {
                return None;
            }
            self.current += 1;
        }
    }

    /// Returns a list [`Rings::take`] gave, so that its room is used again.
    fn give_back(&mut self, mut list: Vec<u64>) {
        let slot = self.current & (self.lists.len() - 1);
        list.clear();
        list.append(&mut self.lists[slot]);
        self.lists[slot] = list;
    }

    /// Orders the entries of `list` by page: a radix sort on the two digits of the page index
    /// (the order inside a page does not matter), or a plain sort of a short list.
    fn sort(&mut self, list: &mut [u64]) {
        if list.len() < 1 << 10 {
            list.sort_unstable();
        } else {
            // The page index lies above the 9 bits of a state in its page.
            const PAGE_SHIFT: u32 = 9;
            let bits = self.digit_bits;
            let digits = 1usize << bits;
            let digit = move |entry: u64, pass: u32| {
                ((entry >> (PAGE_SHIFT + pass * bits)) as usize) & (digits - 1)
            };
            let mut counts = vec![0usize; 2 * digits];
            for &entry in list.iter() {
                counts[digit(entry, 0)] += 1;
                counts[digits + digit(entry, 1)] += 1;
            }
            for pass in 0..2 {
                let counts = &mut counts[pass * digits..(pass + 1) * digits];
                let mut at = 0;
                for count in counts.iter_mut() {
                    (*count, at) = (at, at + *count);
                }
            }
            self.scratch.resize(list.len(), 0);
            for &entry in list.iter() {
                let d = digit(entry, 0);
                self.scratch[counts[d]] = entry;
                counts[d] += 1;
            }
            for &entry in &self.scratch {
                let d = digits + digit(entry, 1);
                list[counts[d]] = entry;
                counts[d] += 1;
            }
        }
    }
}

/// The path to state `end` (a cell and the heading it was entered with) from the start, and
/// its cost: from each state, back one step against its heading to the state before it
/// whose cost plus the step and its turns is the least, which is the one that set the
/// state's cost. The cost is summed forwards in the order the search summed it.
fn trace_back(
    graph: &SearchGraph,
    costs: &Costs,
    start: usize,
    (mut cell, mut heading): (usize, u8),
    penalty: f64,
) -> (Vec<usize>, f64) {
    let mut cells = vec![cell];
    let mut headings = Vec::new();
    while heading != UNMOVED {
        let d = usize::from(heading);
        let before = cell.wrapping_add_signed(-graph.delta(d));
        let width = graph.width() as usize;
        let step = graph.step_cost(before, cell, d);
        let (bx, by) = (before % width, before / width);
        let turned = |from: u8| turns_at(graph.topology(), bx, by, from, heading);
        let through = |from: u8, cost: f64| cost + step + penalty * f64::from(turned(from));
        let mut best = (f64::INFINITY, UNMOVED);
        if before == start {
            best = (through(UNMOVED, 0.0), UNMOVED);
        }
        for from in 0..8u8 {
            let cost = costs.get(costs.state(before % width, before / width, from));
            if cost.is_finite() && through(from, cost) < best.0 {
                best = (through(from, cost), from);
            }
        }
        headings.push(heading);
        cells.push(before);
        (cell, heading) = (before, best.1);
    }
    cells.reverse();
    // Forwards, as the search added the costs.
    let mut cost = 0.0;
    let mut from = UNMOVED;
    let width = graph.width() as usize;
    for (pair, &to) in cells.windows(2).zip(headings.iter().rev()) {
        let (x, y) = (pair[0] % width, pair[0] / width);
        cost = cost
            + graph.step_cost(pair[0], pair[1], usize::from(to))
            + penalty * f64::from(turns_at(graph.topology(), x, y, from, to));
        from = to;
    }
    (cells, cost)
}

/// The cost of a path under a turn penalty: its steps, plus the penalty for every 45° turn
/// (every 60° on a hex map).
pub fn path_cost_with_turns(graph: &SearchGraph, path: &[Cell], penalty: f64) -> Option<f64> {
    let (mut cost, _) = graph.path_cost(path)?;
    let mut heading = UNMOVED;
    for pair in path.windows(2) {
        let d = SearchGraph::direction(pair[0], pair[1])? as u8;
        let (x, y) = (pair[0].x as usize, pair[0].y as usize);
        cost += penalty * f64::from(turns_at(graph.topology(), x, y, heading, d));
        heading = d;
    }
    Some(cost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::graph::{DX, DY};

    #[test]
    fn paths_traced_through_the_costs_cost_what_the_search_found() {
        let grid = crate::grid::Grid::from_ascii(&[
            "..~~....#.....",
            ".#~~.##.#.==..",
            ".#....#...#...",
            ".####.#.###.#.",
            "......#.....#.",
        ])
        .unwrap();
        for &diagonal in crate::search::Diagonal::ALL {
            let graph = SearchGraph::new(&grid, diagonal);
            let request = SearchRequest::new(Cell::new(0, 0), Cell::new(13, 4))
                .with_diagonal(diagonal)
                .with_turn_penalty(0.7);
            let control = SearchControl::new();
            let a = search(&graph, &request, &control).unwrap();
            let dijkstra = request.clone().with_algorithm(Algorithm::Dijkstra);
            let b = search(&graph, &dijkstra, &control).unwrap();
            assert!(a.found && b.found, "{diagonal}");
            assert!((a.cost - b.cost).abs() < 1e-9, "{diagonal}");
            for result in [&a, &b] {
                assert_eq!(result.path.first(), Some(&request.start), "{diagonal}");
                assert_eq!(result.path.last(), Some(&request.goal), "{diagonal}");
                let recomputed = path_cost_with_turns(&graph, &result.path, 0.7).unwrap();
                assert!((recomputed - result.cost).abs() < 1e-9, "{diagonal}");
            }
        }
    }

    /// Dijkstra with the whole search on the heap, as it ran before the bucket queue.
    fn dijkstra_in_heap(graph: &SearchGraph, request: &SearchRequest) -> (Vec<usize>, f64) {
        let mut costs = Costs::new(graph.width() as usize, graph.height() as usize);
        let request = request.clone().with_algorithm(Algorithm::Dijkstra);
        let (reached, _) =
            search_in_heap(graph, &request, &SearchControl::new(), &mut costs).unwrap();
        reached.map_or((Vec::new(), 0.0), |end| {
            trace_back(
                graph,
                &costs,
                graph.index(request.start),
                end,
                request.turn_penalty,
            )
        })
    }

    #[test]
    fn the_bucket_queue_finds_the_heaps_paths_to_the_last_bit() {
        use crate::grid::{Grid, HexLayout};
        // A small generator, so that the maps are the same on every run.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let mut bucketed = 0;
        for round in 0..240 {
            let (w, h) = (3 + next(22) as usize, 3 + next(18) as usize);
            let walls = next(4);
            let rows: Vec<String> = (0..h)
                .map(|_| {
                    (0..w)
                        .map(|_| match next(12) {
                            0..=5 => '.',
                            6 | 7 => '=',
                            8 => '~',
                            n if n < 9 + walls => '#',
                            _ => '.',
                        })
                        .collect()
                })
                .collect();
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let mut grid = Grid::from_ascii(&rows).unwrap();
            if round % 3 == 2 {
                grid = grid.with_topology(Topology::Hex(HexLayout::ODD_R));
            }
            let diagonal = crate::search::Diagonal::ALL[round % crate::search::Diagonal::ALL.len()];
            let graph = SearchGraph::new(&grid, diagonal);
            // Penalties of a few bits and of many, so that costs tie exactly and nearly.
            let penalty = match round % 4 {
                0 => 1.0,
                1 => 0.25 * (1 + next(8)) as f64,
                2 => 0.1 * (1 + next(30)) as f64,
                _ => std::f64::consts::SQRT_2 * (1 + next(5)) as f64 / 3.0,
            };
            let cell = |i: u64| Cell::new((i % w as u64) as u32, (i / w as u64) as u32);
            for _ in 0..6 {
                let (start, goal) = (cell(next((w * h) as u64)), cell(next((w * h) as u64)));
                if !grid.is_passable(start) || !grid.is_passable(goal) {
                    continue;
                }
                let request = SearchRequest::new(start, goal)
                    .with_diagonal(diagonal)
                    .with_turn_penalty(penalty);
                let dijkstra = request.clone().with_algorithm(Algorithm::Dijkstra);
                let control = SearchControl::new();
                let fast = search(&graph, &dijkstra, &control).unwrap();
                let (cells, cost) = dijkstra_in_heap(&graph, &request);
                let cells: Vec<Cell> = cells.into_iter().map(|i| graph.cell(i)).collect();
                let case = format!("round {round}, {start:?} → {goal:?}, penalty {penalty}");
                assert_eq!(fast.found, !cells.is_empty(), "{case}");
                assert_eq!(fast.path, cells, "{case}");
                assert_eq!(fast.cost.to_bits(), cost.to_bits(), "{case}");
                bucketed += usize::from(Rings::width_and_span(&graph, penalty).is_some());
                // A*, on the heap, finds a path of the same cost.
                let astar = search(&graph, &request, &control).unwrap();
                assert_eq!(astar.found, fast.found, "{case}");
                assert!((astar.cost - cost).abs() <= 1e-9 * cost.max(1.0), "{case}");
            }
        }
        assert!(bucketed > 500, "the buckets ordered {bucketed} searches");
    }

    #[test]
    fn a_search_in_buckets_stops_at_every_checkpoint_it_passes() {
        use std::sync::{Arc, Mutex};
        let grid = crate::grid::Grid::from_ascii(&[".".repeat(50).as_str(); 40]).unwrap();
        let graph = SearchGraph::new(&grid, crate::search::Diagonal::NoCut);
        let request = SearchRequest::new(Cell::new(0, 0), Cell::new(49, 39))
            .with_algorithm(Algorithm::Dijkstra)
            .with_turn_penalty(1.0);
        assert!(Rings::width_and_span(&graph, 1.0).is_some());
        let control = SearchControl::new();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        assert!(control.on_checkpoint(Box::new(move |expanded| {
            log.lock().unwrap().push(expanded);
        })));
        let result = search(&graph, &request, &control).unwrap();
        let every = SearchControl::CHECK_EVERY;
        let expected: Vec<u64> = (1..=result.stats.expanded / every)
            .map(|k| k * every)
            .collect();
        assert!(expected.len() > 5, "{:?}", result.stats);
        assert_eq!(*seen.lock().unwrap(), expected);
    }

    #[test]
    fn a_bucket_is_sorted_by_page_keeping_every_state() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for (pages, len) in [
            (1usize, 5000usize),
            (70, 3000),
            (65_536, 20_000),
            (1 << 20, 1500),
        ] {
            let mut rings = Rings::new(1.0, 6.0, pages);
            let states: Vec<u64> = (0..len)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    seed % (pages * PAGE) as u64
                })
                .collect();
            let mut sorted = states.clone();
            rings.sort(&mut sorted);
            assert!(
                sorted
                    .windows(2)
                    .all(|w| w[0] / PAGE as u64 <= w[1] / PAGE as u64),
                "{pages} pages"
            );
            let (mut a, mut b) = (states, sorted.clone());
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "{pages} pages");
        }
    }

    #[test]
    fn costs_take_pages_only_where_states_are_reached() {
        let mut costs = Costs::new(1000, 700);
        assert_eq!(costs.bytes(), 0);
        let (a, b, c) = (
            costs.state(57, 12, 3),
            costs.state(58, 13, 7),
            costs.state(57, 12, 4),
        );
        assert_eq!(costs.get(a), f64::INFINITY);
        costs.set(a, 2.5);
        costs.set(b, 1.5);
        assert_eq!(
            (costs.get(a), costs.get(b), costs.get(c)),
            (2.5, 1.5, f64::INFINITY)
        );
        assert_eq!(costs.bytes(), PAGE * 8, "two neighbours share a page");
        // Every state of the map has an index of its own.
        let mut seen = vec![false; costs.pages.len() * PAGE];
        for y in 0..700 {
            for x in 0..1000 {
                for heading in 0..8 {
                    let i = costs.state(x, y, heading);
                    assert!(!seen[i], "({x}, {y}) heading {heading}");
                    seen[i] = true;
                }
            }
        }
    }

    #[test]
    fn turns_count_45_degree_steps_round_the_compass() {
        for a in 0..8u8 {
            assert_eq!(turns(a, a), 0);
            assert_eq!(turns(UNMOVED, a), 0);
            for b in 0..8u8 {
                // The angle between the two step vectors, in multiples of 45°.
                let (ax, ay) = (f64::from(DX[usize::from(a)]), f64::from(DY[usize::from(a)]));
                let (bx, by) = (f64::from(DX[usize::from(b)]), f64::from(DY[usize::from(b)]));
                let angle = ((ax * bx + ay * by) / (ax.hypot(ay) * bx.hypot(by)))
                    .clamp(-1.0, 1.0)
                    .acos();
                let expected = (angle / std::f64::consts::FRAC_PI_4).round() as u32;
                assert_eq!(turns(a, b), expected, "{a} → {b}");
            }
        }
    }
}
