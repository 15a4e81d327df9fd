//! The simple subgoal graph of a map, with its two levels: which cells are subgoals, the
//! edges between them, and which subgoals are global. The search over it (the `subgoal`
//! module) documents why the answers are exact.

use crate::control::{SearchControl, UNCONTROLLED};
use crate::search::frontier::heap::Heap;
use crate::search::request::SearchError;

/// Column offsets of the eight directions, in the order of the search graph's.
pub(crate) const DX: [i32; 8] = [1, -1, 0, 0, 1, -1, 1, -1];
/// Row offsets of the eight directions.
pub(crate) const DY: [i32; 8] = [0, 0, 1, -1, -1, -1, 1, 1];

/// What the subgoal graph reads of a map: its size and the steps allowed from each cell
/// (bit `d` of a cell's mask for direction `d` of [`DX`]/[`DY`], under the no-cut rule).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Moves<'a> {
    width: u32,
    height: u32,
    masks: &'a [u8],
    delta: [isize; 8],
}

impl<'a> Moves<'a> {
    /// The moves of a `width` × `height` map; `delta[d]` is the change of cell index of a
    /// step in direction `d`.
    pub fn new(width: u32, height: u32, masks: &'a [u8], delta: [isize; 8]) -> Self {
        Self {
            width,
            height,
            masks,
            delta,
        }
    }

    fn width(&self) -> u32 {
        self.width
    }

    fn height(&self) -> u32 {
        self.height
    }

    /// Each cell's mask of allowed steps.
    pub fn masks(&self) -> &'a [u8] {
        self.masks
    }

    /// The change of cell index of a step in direction `d`.
    fn delta(&self, d: usize) -> isize {
        self.delta[d]
    }
}

/// Not a subgoal, or no cell.
pub(in crate::search) const NONE: u32 = u32::MAX;

/// √2 − 1: an octile distance is `max + (√2 − 1) · min` of the two offsets.
const SQRT2_MINUS_1: f64 = std::f64::consts::SQRT_2 - 1.0;

/// The eight octants, each as its straight direction `c`, the other straight direction `e` and
/// the diagonal `d = c + e` (indices of [`DX`]/[`DY`]).
const OCTANTS: [(usize, usize, usize); 8] = [
    (0, 3, 4),
    (0, 2, 6),
    (1, 3, 5),
    (1, 2, 7),
    (2, 0, 6),
    (2, 1, 7),
    (3, 0, 4),
    (3, 1, 5),
];

/// The diagonals with their two straight components.
const CORNERS: [(usize, usize, usize); 4] = [(4, 0, 3), (5, 1, 3), (6, 0, 2), (7, 1, 2)];

/// Scan state of a cell: reached along a path free of subgoals, and passed through.
const CLEAN: u8 = 1;
/// Scan state of a cell: reached, but not passed through (a subgoal, or a cell also reached
/// through one).
const STOP: u8 = 2;

/// Whether a cell with neighbour mask `mask` (no-cut rule) is a subgoal: some diagonal step is
/// missing while both straight steps beside it are there, so the diagonal cell is blocked.
#[inline]
fn is_corner(mask: u8) -> bool {
    CORNERS.iter().any(|&(d, a, b)| {
        let sides = (1u8 << a) | (1u8 << b);
        mask & sides == sides && mask & (1u8 << d) == 0
    })
}

/// Sizes of a subgoal graph, for reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubgoalSummary {
    /// The number of subgoals (corner cells).
    pub subgoals: usize,
    /// How many of them are global: searched by every query, where the local ones are
    /// searched only near the query's ends.
    pub global: usize,
    /// The number of directed edges between them.
    pub edges: usize,
    /// The memory the graph takes, in bytes.
    pub bytes: usize,
}

/// A simple subgoal graph of a map: its subgoals and the edges between them.
#[derive(Clone, Debug)]
pub(crate) struct SubgoalGraph {
    /// Each cell's subgoal number, or [`NONE`].
    pub(in crate::search) id: Vec<u32>,
    /// The cells a scan stops at, along the rows and the columns (2 bits a cell).
    pub(in crate::search) closed: ClosedLines,
    /// Each subgoal's cell index.
    pub(in crate::search) cells: Vec<u32>,
    /// Each subgoal's column and row.
    pub(in crate::search) at: Vec<[i32; 2]>,
    /// Each subgoal's level: [`GLOBAL`], or the order in which it was made local.
    pub(in crate::search) rank: Vec<u32>,
    /// Each subgoal's cost (in steps) from each of the [`LANDMARKS`] landmarks, infinite
    /// where it cannot be reached from one.
    pub(in crate::search) landmarks: Vec<[f64; LANDMARKS]>,
    /// Where each subgoal's edges begin in `edges`, plus the end.
    pub(in crate::search) offsets: Vec<u32>,
    /// Where each subgoal's edges to local subgoals begin in `edges`.
    pub(in crate::search) locals: Vec<u32>,
    /// The subgoals joined to each subgoal, grouped by subgoal, the global ones of each group
    /// first.
    pub(in crate::search) edges: Vec<Edge>,
}

/// An edge of the subgoal graph: the subgoal it leads to, and that subgoal's column and row,
/// so that a search reads the step's cost and the estimate beyond it from the edge list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Edge {
    pub(in crate::search) to: u32,
    pub(in crate::search) x: u16,
    pub(in crate::search) y: u16,
}

impl Edge {
    /// The edge to node `to` at `(x, y)`; a side is at most [`crate::grid::Grid::MAX_SIDE`].
    pub(in crate::search) fn new(to: u32, x: i32, y: i32) -> Self {
        Self {
            to,
            x: x as u16,
            y: y as u16,
        }
    }
}

/// The level of a global subgoal, above every local one.
pub(in crate::search) const GLOBAL: u32 = u32::MAX;

/// A subgoal with more neighbours than this (among the subgoals still global) stays global.
const MAX_LOCAL_DEGREE: usize = 16;

/// Two path costs, in steps, that differ by less than this are equal.
const EPS: f64 = 1e-9;

/// The octile distance between two subgoals' positions, in steps.
#[inline]
pub(in crate::search) fn octile_steps([ax, ay]: [i32; 2], [bx, by]: [i32; 2]) -> f64 {
    let (dx, dy) = (f64::from((ax - bx).abs()), f64::from((ay - by).abs()));
    dx.max(dy) + SQRT2_MINUS_1 * dx.min(dy)
}

/// How many landmarks the estimate of a subgoal search reads (each subgoal keeps its cost
/// from each: 8 bytes a landmark).
pub(crate) const LANDMARKS: usize = 16;

/// The costs from a few landmarks to every subgoal, for the differential estimate (Goldberg
/// & Harrelson's ALT; Sturtevant et al. on grids): by the triangle inequality,
/// `|d(L, v) − d(L, g)| ≤ d(v, g)` for any landmark `L`, so the largest such difference never
/// overestimates and, being a maximum of consistent estimates, stays consistent. The
/// landmarks are spread by taking each time the subgoal farthest from those chosen.
fn landmark_distances(at: &[[i32; 2]], adjacent: &[Vec<u32>]) -> Vec<[f64; LANDMARKS]> {
    use std::cmp::Reverse;
    let n = at.len();
    let mut table = vec![[f64::INFINITY; LANDMARKS]; n];
    if n == 0 {
        return table;
    }
    let mut dist = vec![f64::INFINITY; n];
    let mut heap = std::collections::BinaryHeap::new();
    let mut dijkstra = |from: usize, dist: &mut Vec<f64>| {
        dist.fill(f64::INFINITY);
        dist[from] = 0.0;
        heap.push(Reverse((0f64.to_bits(), from as u32)));
        while let Some(Reverse((bits, u))) = heap.pop() {
            let d = f64::from_bits(bits);
            if d > dist[u as usize] {
                continue;
            }
            for &v in &adjacent[u as usize] {
                let next = d + octile_steps(at[u as usize], at[v as usize]);
                if next < dist[v as usize] {
                    dist[v as usize] = next;
                    heap.push(Reverse((next.to_bits(), v)));
                }
            }
        }
    };
    // The farthest point from the first subgoal starts the spread; each next landmark is the
    // subgoal whose nearest landmark is farthest (among those reached).
    dijkstra(0, &mut dist);
    let farthest = |nearest: &dyn Fn(usize) -> f64| {
        (0..n)
            .filter(|&v| nearest(v).is_finite())
            .max_by(|&a, &b| nearest(a).total_cmp(&nearest(b)))
            .unwrap_or(0)
    };
    let mut landmark = farthest(&|v| dist[v]);
    for k in 0..LANDMARKS {
        dijkstra(landmark, &mut dist);
        for (row, &d) in table.iter_mut().zip(&dist) {
            row[k] = d;
        }
        let nearest = |v: usize| table[v][..=k].iter().copied().fold(f64::INFINITY, f64::min);
        landmark = farthest(&nearest);
    }
    table
}

/// Makes local every subgoal that the others can do without, least connected first, and
/// returns each subgoal's level.
///
/// A subgoal `s` goes local when, for every pair `p`, `q` of its neighbours still global,
/// a path `p`–`q` no dearer than through `s` avoids it: an edge `p`–`q`, two edges through
/// another global subgoal, or an octile path from `p` to `q` (when `s` lies on one), which
/// becomes a new edge. Otherwise `s` stays global. (A bounded Dijkstra search for longer
/// detours, as a contraction hierarchy does, made fewer than a tenth more subgoals local on
/// random maps and slowed the build more than it sped the queries.) The edges of `s` all stay in the moves.
///
/// As in a contraction hierarchy, some cheapest path between any two subgoals then climbs
/// the levels and comes down again, never passing a subgoal below both its neighbours on the
/// path (such a subgoal was made local while both were still global, so a detour no dearer
/// existed or was added). A query therefore searches the global subgoals, plus the local
/// ones reached by climbing from either end.
fn two_levels(
    moves: &Moves<'_>,
    cells: &[usize],
    at: &[[i32; 2]],
    adjacent: &mut [Vec<u32>],
    control: &SearchControl,
) -> Result<Vec<u32>, SearchError> {
    let n = adjacent.len();
    let mut rank = vec![GLOBAL; n];
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.sort_by_key(|&i| adjacent[i as usize].len());
    let distance = |a: u32, b: u32| octile_steps(at[a as usize], at[b as usize]);
    let (mut neighbours, mut shortcuts, mut path) = (Vec::new(), Vec::new(), Vec::new());
    let mut level = 0;
    for (done, s) in order.into_iter().enumerate() {
        if done.is_multiple_of(CANCEL_CHECK_EVERY) {
            if control.is_cancelled() {
                return Err(SearchError::Cancelled);
            }
            control.report_build(SCAN_SHARE + (1.0 - SCAN_SHARE) * done as f64 / n.max(1) as f64);
        }
        neighbours.clear();
        neighbours.extend(
            adjacent[s as usize]
                .iter()
                .copied()
                .filter(|&v| rank[v as usize] == GLOBAL),
        );
        if neighbours.len() > MAX_LOCAL_DEGREE {
            continue;
        }
        shortcuts.clear();
        let joined = |a: u32, b: u32| adjacent[a as usize].binary_search(&b).is_ok();
        let mut removable = true;
        'pairs: for (k, &p) in neighbours.iter().enumerate() {
            for &q in &neighbours[k + 1..] {
                let through = distance(p, s) + distance(s, q);
                let detour = joined(p, q)
                    || adjacent[p as usize].iter().any(|&r| {
                        r != s
                            && rank[r as usize] == GLOBAL
                            && distance(p, r) + distance(r, q) <= through + EPS
                            && joined(r, q)
                    });
                if detour {
                    continue;
                }
                path.clear();
                if (distance(p, q) - through).abs() <= EPS
                    && octile_path(moves, cells[p as usize], cells[q as usize], &mut path)
                {
                    shortcuts.push((p, q));
                    continue;
                }
                removable = false;
                break 'pairs;
            }
        }
        if !removable {
            continue;
        }
        rank[s as usize] = level;
        level += 1;
        for &(p, q) in &shortcuts {
            for (a, b) in [(p, q), (q, p)] {
                let list = &mut adjacent[a as usize];
                if let Err(k) = list.binary_search(&b) {
                    list.insert(k, b);
                }
            }
        }
    }
    Ok(rank)
}

/// How many subgoals pass between two looks at the control for a cancellation.
const CANCEL_CHECK_EVERY: usize = 256;

/// The share of a build's progress taken by the scans for the edges (the rest: the levels).
const SCAN_SHARE: f64 = 0.5;

impl SubgoalGraph {
    /// Finds the subgoals of a no-cut graph and the edges between them.
    pub fn build(moves: &Moves<'_>) -> Self {
        let Ok(graph) = Self::build_controlled(moves, &UNCONTROLLED) else {
            unreachable!("a build nobody can cancel runs to the end")
        };
        graph
    }

    /// Builds as [`SubgoalGraph::build`] does, reporting its progress through `control` and
    /// stopping with [`SearchError::Cancelled`] soon after a cancellation (a build on a large
    /// map with many walls takes seconds).
    pub fn build_controlled(
        moves: &Moves<'_>,
        control: &SearchControl,
    ) -> Result<Self, SearchError> {
        let masks = moves.masks();
        let mut id = vec![NONE; masks.len()];
        let mut cells = Vec::new();
        for (i, &mask) in masks.iter().enumerate() {
            if is_corner(mask) {
                id[i] = cells.len() as u32;
                cells.push(i);
            }
        }
        let width = moves.width() as usize;
        let at: Vec<[i32; 2]> = cells
            .iter()
            .map(|&c| [(c % width) as i32, (c / width) as i32])
            .collect();
        // The simple subgoal graph, both ways.
        let mut adjacent = vec![Vec::new(); cells.len()];
        let closed = ClosedLines::new(moves);
        let mut scan = Scan::default();
        for (i, &cell) in cells.iter().enumerate() {
            if i.is_multiple_of(CANCEL_CHECK_EVERY) {
                if control.is_cancelled() {
                    return Err(SearchError::Cancelled);
                }
                control.report_build(SCAN_SHARE * i as f64 / cells.len() as f64);
            }
            scan.from(moves, (&id, &closed), cell, None);
            for &c in &scan.found {
                let j = id[c as usize];
                adjacent[i].push(j);
                adjacent[j as usize].push(i as u32);
            }
        }
        for list in &mut adjacent {
            list.sort_unstable();
            list.dedup();
        }
        let rank = two_levels(moves, &cells, &at, &mut adjacent, control)?;
        let landmarks = landmark_distances(&at, &adjacent);
        // Each subgoal's global neighbours first, then its local ones.
        let mut offsets = Vec::with_capacity(cells.len() + 1);
        let mut locals = Vec::with_capacity(cells.len());
        let mut edges = Vec::with_capacity(adjacent.iter().map(Vec::len).sum());
        offsets.push(0u32);
        let edge = |&v: &u32| {
            let [x, y] = at[v as usize];
            Edge::new(v, x, y)
        };
        for list in &adjacent {
            edges.extend(
                list.iter()
                    .filter(|&&v| rank[v as usize] == GLOBAL)
                    .map(edge),
            );
            locals.push(edges.len() as u32);
            edges.extend(
                list.iter()
                    .filter(|&&v| rank[v as usize] != GLOBAL)
                    .map(edge),
            );
            offsets.push(edges.len() as u32);
        }
        Ok(Self {
            at,
            cells: cells.into_iter().map(|c| c as u32).collect(),
            id,
            closed,
            rank,
            landmarks,
            offsets,
            locals,
            edges,
        })
    }

    /// Whether a cell is a subgoal.
    #[inline]
    #[cfg(test)]
    pub(in crate::search) fn is_subgoal(&self, cell: usize) -> bool {
        self.id[cell] != NONE
    }

    /// The number of subgoals.
    #[inline]
    pub(in crate::search) fn len(&self) -> usize {
        self.cells.len()
    }

    /// The subgoals joined to subgoal `id`: the global ones, then the local ones.
    #[inline]
    pub(in crate::search) fn edges_of(&self, id: usize) -> (&[Edge], &[Edge]) {
        let (start, split, end) = (
            self.offsets[id] as usize,
            self.locals[id] as usize,
            self.offsets[id + 1] as usize,
        );
        (&self.edges[start..split], &self.edges[split..end])
    }

    /// Marks with `side` (a bit of `active`) the local subgoals among `seeds` and those
    /// reached from them by edges that climb the levels, listing those newly active in
    /// `marked`. With `down`, also marks the global subgoals such a climb reaches, listing them
    /// in `downs`.
    pub(in crate::search) fn climb(
        &self,
        seeds: &[u32],
        side: u8,
        (active, marked): (&mut [u8], &mut Vec<u32>),
        stack: &mut Vec<u32>,
        mut down: Option<(&mut [bool], &mut Vec<u32>)>,
    ) {
        stack.clear();
        let mut visit = |v: u32, active: &mut [u8], stack: &mut Vec<u32>| {
            let flags = &mut active[v as usize];
            if *flags & side == 0 {
                if *flags == 0 {
                    marked.push(v);
                }
                *flags |= side;
                stack.push(v);
            }
        };
        for &seed in seeds {
            if self.rank[seed as usize] != GLOBAL {
                visit(seed, active, stack);
            }
        }
        while let Some(u) = stack.pop() {
            let u = u as usize;
            let (globals, locals) = self.edges_of(u);
            if let Some((down, downs)) = down.as_mut() {
                for e in globals {
                    if !down[e.to as usize] {
                        down[e.to as usize] = true;
                        downs.push(e.to);
                    }
                }
            }
            for e in locals {
                if self.rank[e.to as usize] > self.rank[u] {
                    visit(e.to, active, stack);
                }
            }
        }
    }

    /// Its sizes.
    pub fn summary(&self) -> SubgoalSummary {
        SubgoalSummary {
            subgoals: self.cells.len(),
            global: self.rank.iter().filter(|&&r| r == GLOBAL).count(),
            edges: self.edges.len(),
            bytes: 4
                * (self.id.len()
                    + self.cells.len()
                    + self.rank.len()
                    + self.offsets.len()
                    + self.locals.len())
                + 8 * (self.at.len() + self.edges.len() + LANDMARKS * self.landmarks.len())
                + self.closed.bytes(),
        }
    }
}

/// A cell's mask when every step from it is allowed: it lies away from every wall and from
/// the map's edge, so it is not a subgoal either.
const OPEN: u8 = 0xFF;

/// The cells from which some step is missing (every wall's neighbours, every subgoal, the
/// map's edge), as bitsets along the rows and along the columns, one bit a cell each way.
/// A scan jumps over the open cells between two of them with word operations, so that it
/// takes time along the edges of the area it covers rather than over all of it.
#[derive(Clone, Debug, Default)]
pub(crate) struct ClosedLines {
    width: usize,
    height: usize,
    /// Words a row takes in `rows`, and a column in `columns`.
    row_words: usize,
    column_words: usize,
    /// Bit `x` of row `y`'s words: cell `(x, y)` is closed.
    rows: Vec<u64>,
    /// Bit `y` of column `x`'s words: cell `(x, y)` is closed.
    columns: Vec<u64>,
}

impl ClosedLines {
    /// The closed cells of a map from its steps.
    fn new(moves: &Moves<'_>) -> Self {
        let (width, height) = (moves.width() as usize, moves.height() as usize);
        let (row_words, column_words) = (width.div_ceil(64), height.div_ceil(64));
        let mut rows = vec![0u64; row_words * height];
        let mut columns = vec![0u64; column_words * width];
        for (i, &mask) in moves.masks().iter().enumerate() {
            if mask != OPEN {
                let (x, y) = (i % width, i / width);
                rows[y * row_words + x / 64] |= 1 << (x % 64);
                columns[x * column_words + y / 64] |= 1 << (y % 64);
            }
        }
        Self {
            width,
            height,
            row_words,
            column_words,
            rows,
            columns,
        }
    }

    /// Along row `line` (`along_rows`) or column `line`: the nearest closed cell's position
    /// at `from` or beyond it, forwards (increasing) or backwards. Every line ends in closed
    /// cells (the edge), so there is one when `from` lies on the line.
    fn next(&self, along_rows: bool, line: usize, from: usize, forwards: bool) -> usize {
        let (words, len) = if along_rows {
            let w = self.row_words;
            (&self.rows[line * w..(line + 1) * w], self.width)
        } else {
            let w = self.column_words;
            (&self.columns[line * w..(line + 1) * w], self.height)
        };
        let mut word = from / 64;
        if forwards {
            let mut bits = words[word] & (u64::MAX << (from % 64));
            while bits == 0 {
                word += 1;
                if word == words.len() {
                    return len;
                }
                bits = words[word];
            }
            word * 64 + bits.trailing_zeros() as usize
        } else {
            let mut bits = words[word] & (u64::MAX >> (63 - from % 64));
            while bits == 0 {
                if word == 0 {
                    return usize::MAX;
                }
                word -= 1;
                bits = words[word];
            }
            word * 64 + 63 - bits.leading_zeros() as usize
        }
    }

    /// The memory it takes, in bytes.
    fn bytes(&self) -> usize {
        8 * (self.rows.len() + self.columns.len())
    }
}

/// A run of cells of one scan state along a row of an octant: positions `start..end`.
#[derive(Clone, Copy, Debug)]
struct Run {
    start: usize,
    end: usize,
    state: u8,
}

/// Appends positions `start..end` of state `state` to a row's runs (unreached cells are not
/// kept), joining it to the last run when they touch and agree.
fn push_run(runs: &mut Vec<Run>, start: usize, end: usize, state: u8) {
    if state == 0 || start >= end {
        return;
    }
    if let Some(last) = runs.last_mut()
        && last.end == start
        && last.state == state
    {
        last.end = end;
        return;
    }
    runs.push(Run { start, end, state });
}

/// The state of a cell reached from a diagonal neighbour in state `from_diagonal` and a
/// straight neighbour in state `from_straight` (0 where no step leads from it), before the
/// cell itself is looked at: see [`Scan::octant`].
#[inline]
fn reached(from_diagonal: u8, from_straight: u8) -> u8 {
    match (from_diagonal, from_straight) {
        (0, 0) => 0,
        (CLEAN, 0) | (0, CLEAN) | (CLEAN, CLEAN) => CLEAN,
        (CLEAN, STOP) | (STOP, CLEAN) => STOP,
        // Reached through stops only: left to the stops' own scans.
        _ => 0,
    }
}

/// The scratch of the scans that find the subgoals h-reachable from a cell.
#[derive(Debug, Default)]
pub(crate) struct Scan {
    /// The cells reached in the previous row of the octant being scanned, as runs of one
    /// state by distance along `c`.
    prev: Vec<Run>,
    /// The runs of the row being scanned.
    cur: Vec<Run>,
    /// The cells found by the last scan, sorted, without duplicates.
    pub(in crate::search) found: Vec<u32>,
}

impl Scan {
    /// Scans the eight octants from `source` and leaves in `found` the subgoals reached along
    /// paths free of other subgoals, and `target` too when it is reached so.
    pub(in crate::search) fn from(
        &mut self,
        moves: &Moves<'_>,
        (id, closed): (&[u32], &ClosedLines),
        source: usize,
        target: Option<usize>,
    ) {
        self.found.clear();
        for octant in OCTANTS {
            self.octant(
                moves,
                (id, closed),
                source,
                target.unwrap_or(usize::MAX),
                octant,
            );
        }
        self.found.sort_unstable();
        self.found.dedup();
    }

    /// Scans one octant from `source`; see the module documentation.
    ///
    /// Row `i` is scanned from the cell after the first one reached in row `i − 1`. A cell's
    /// state follows from its diagonal neighbour in the row before and its straight neighbour
    /// before it in the row; over a stretch of open cells that are not the target, where the
    /// row before keeps one state, every cell takes the state of the one before it once that
    /// state is a fixed point of [`reached`], so the scan jumps to the stretch's end (the
    /// next closed cell in either row, found in [`ClosedLines`], the next change in the row
    /// before, or the target). What it finds is what a scan cell by cell finds.
    fn octant(
        &mut self,
        moves: &Moves<'_>,
        (id, closed): (&[u32], &ClosedLines),
        source: usize,
        target: usize,
        (c, e, d): (usize, usize, usize),
    ) {
        let masks = moves.masks();
        let width = moves.width() as usize;
        let (dc, de) = (moves.delta(c), moves.delta(e));
        let (c_bit, d_bit) = (1u8 << c, 1u8 << d);
        // Row `i`, distance `k` along `c`: `k` straight steps along `c` and `i` along `e`.
        let at =
            |i: usize, k: usize| (source as isize + k as isize * dc + i as isize * de) as usize;
        // The rows of the octant are the map's rows when `c` is horizontal, else its columns.
        let along_rows = DY[c] == 0;
        let (sx, sy) = ((source % width) as isize, (source / width) as isize);
        let (origin, across, forwards) = if along_rows {
            (sx, sy, DX[c] > 0)
        } else {
            (sy, sx, DY[c] > 0)
        };
        let step_across = (if along_rows { DY[e] } else { DX[e] }) as isize;
        // The first closed cell of row `i` at distance `k` or beyond (row `i` on the map).
        let next_closed = |i: usize, k: usize| {
            let line = (across + i as isize * step_across) as usize;
            let from = if forwards {
                origin + k as isize
            } else {
                origin - k as isize
            } as usize;
            let p = closed.next(along_rows, line, from, forwards);
            if forwards {
                p.wrapping_sub(from).wrapping_add(k)
            } else {
                from.wrapping_sub(p).wrapping_add(k)
            }
        };
        // The target's row and distance in this octant, if it lies in it.
        let target_at = (target != usize::MAX)
            .then(|| {
                let (tx, ty) = ((target % width) as isize, (target / width) as isize);
                let (t_along, t_across) = if along_rows { (tx, ty) } else { (ty, tx) };
                let k = (t_along - origin) * if forwards { 1 } else { -1 };
                let i = (t_across - across) * step_across;
                (k >= 0 && i >= 0).then_some((i as usize, k as usize))
            })
            .flatten();
        let Self { prev, cur, found } = self;
        // A cell reached along clean paths only: record it if it is a subgoal (and stop
        // there) or the target.
        let mut clean = |cell: usize| {
            if id[cell] != NONE {
                found.push(cell as u32);
                STOP
            } else {
                if cell == target {
                    found.push(cell as u32);
                }
                CLEAN
            }
        };
        // Row 0: the straight run along `c`, over open cells in one jump.
        cur.clear();
        let mut k = 0;
        let mut state = CLEAN;
        while state == CLEAN && masks[at(0, k)] & c_bit != 0 {
            if masks[at(0, k)] == OPEN {
                let stop = next_closed(0, k);
                if let Some((0, t)) = target_at
                    && t > k
                    && t < stop
                {
                    clean(target);
                }
                k = stop - 1;
            }
            k += 1;
            state = clean(at(0, k));
        }
        push_run(cur, 0, k, CLEAN);
        push_run(cur, k, k + 1, state);
        for i in 1.. {
            std::mem::swap(prev, cur);
            cur.clear();
            let (Some(first), Some(last)) = (prev.first(), prev.last()) else {
                return;
            };
            let (start, hi) = (first.start + 1, last.end - 1);
            let target_here = match target_at {
                Some((ti, t)) if ti == i => t,
                _ => usize::MAX,
            };
            let (mut k, mut before, mut run) = (start, 0u8, 0usize);
            loop {
                // The state of the diagonal neighbour (`k − 1` in the row before), and the
                // first distance past it where that state may change.
                while run < prev.len() && prev[run].end < k {
                    run += 1;
                }
                let (p, p_end) = match prev.get(run) {
                    Some(r) if r.start < k => (r.state, r.end),
                    Some(r) => (0, r.start),
                    None => (0, usize::MAX),
                };
                let from_diagonal = if p != 0 && masks[at(i - 1, k - 1)] & d_bit != 0 {
                    p
                } else {
                    0
                };
                let from_straight = if k > start && before != 0 && masks[at(i, k - 1)] & c_bit != 0
                {
                    before
                } else {
                    0
                };
                let state = match reached(from_diagonal, from_straight) {
                    CLEAN => clean(at(i, k)),
                    other => other,
                };
                push_run(cur, k, k + 1, state);
                if k > hi && state != CLEAN {
                    break;
                }
                let mut next = k + 1;
                // A stretch where every cell repeats this one's state: for an unreached cell,
                // while no clean diagonal neighbour comes; for a reached one, over open cells
                // whose steps are all there, while the state is a fixed point.
                let until = if state == 0 {
                    if p == CLEAN {
                        next
                    } else {
                        p_end.saturating_add(1)
                    }
                } else if reached(p, state) == state {
                    let target_limit = if target_here > k {
                        target_here
                    } else {
                        usize::MAX
                    };
                    let mut until = p_end
                        .saturating_add(1)
                        .min(next_closed(i, k))
                        .min(target_limit);
                    if p != 0 {
                        until = until.min(next_closed(i - 1, k).saturating_add(1));
                    }
                    until
                } else {
                    next
                };
                if until > next {
                    push_run(cur, next, until, state);
                    next = until;
                }
                before = state;
                k = next;
            }
        }
    }
}

/// The direction index of the step `(dx, dy)`, each −1, 0 or 1, not both 0.
fn direction(dx: i32, dy: i32) -> usize {
    (0..8)
        .find(|&d| DX[d] == dx && DY[d] == dy)
        .unwrap_or_default()
}

/// The steps from `a` to `b` (cell indices) of an octile path: the diagonal `d` and the
/// straight direction `c` it takes, and how many steps of each.
fn octile_steps_between(moves: &Moves<'_>, a: usize, b: usize) -> (usize, usize, usize, usize) {
    let width = moves.width() as usize;
    let (ax, ay) = ((a % width) as i32, (a / width) as i32);
    let (bx, by) = ((b % width) as i32, (b / width) as i32);
    let (dx, dy) = (bx - ax, by - ay);
    let diagonals = dx.abs().min(dy.abs()) as usize;
    let straights = dx.abs().max(dy.abs()) as usize - diagonals;
    let d = direction(dx.signum(), dy.signum());
    let c = if dx.abs() >= dy.abs() {
        direction(dx.signum(), 0)
    } else {
        direction(0, dy.signum())
    };
    (d, diagonals, c, straights)
}

/// Walks from `a` the steps of `legs` in turn (a direction and a count each), appending the
/// cells to `out`; returns false, leaving `out` as it was, at the first step not allowed.
fn walk(moves: &Moves<'_>, a: usize, legs: [(usize, usize); 2], out: &mut Vec<usize>) -> bool {
    let masks = moves.masks();
    let mark = out.len();
    let mut cell = a;
    for (dir, count) in legs {
        for _ in 0..count {
            if masks[cell] & (1u8 << dir) == 0 {
                out.truncate(mark);
                return false;
            }
            cell = (cell as isize + moves.delta(dir)) as usize;
            out.push(cell);
        }
    }
    true
}

/// Appends to `out` the cells after `a` up to `b` of the path that takes the diagonal steps
/// of their octile distance first, or else of the one that takes the straight steps first,
/// and returns true; returns false, leaving `out` as it was, when neither is free. Such a
/// path is as short as a path between them can be, so on a map of one cost it is a
/// cheapest one.
pub(in crate::search) fn direct_path(
    moves: &Moves<'_>,
    a: usize,
    b: usize,
    out: &mut Vec<usize>,
) -> bool {
    let (d, diagonals, c, straights) = octile_steps_between(moves, a, b);
    walk(moves, a, [(d, diagonals), (c, straights)], out)
        || walk(moves, a, [(c, straights), (d, diagonals)], out)
}

/// Appends to `out` the cells after `a` up to `b` of a path from `a` to `b` no longer than
/// their octile distance, and returns true; returns false, leaving `out` as it was, when there
/// is none. Tries the diagonal steps first, then the straight ones first, then any order.
pub(in crate::search) fn octile_path(
    moves: &Moves<'_>,
    a: usize,
    b: usize,
    out: &mut Vec<usize>,
) -> bool {
    if direct_path(moves, a, b, out) {
        return true;
    }
    let (d, diagonals, c, straights) = octile_steps_between(moves, a, b);
    let masks = moves.masks();
    // Some other interleaving: which (diagonal, straight) counts still lead to `b`, from the
    // end back, then a walk forward through them.
    let at = |p: usize, q: usize| {
        (a as isize + p as isize * moves.delta(d) + q as isize * moves.delta(c)) as usize
    };
    let columns = straights + 1;
    let mut leads = vec![false; (diagonals + 1) * columns];
    for p in (0..=diagonals).rev() {
        for q in (0..=straights).rev() {
            leads[p * columns + q] = (p == diagonals && q == straights)
                || (p < diagonals
                    && masks[at(p, q)] & (1u8 << d) != 0
                    && leads[(p + 1) * columns + q])
                || (q < straights
                    && masks[at(p, q)] & (1u8 << c) != 0
                    && leads[p * columns + q + 1]);
        }
    }
    if !leads[0] {
        return false;
    }
    let (mut p, mut q) = (0, 0);
    while p < diagonals || q < straights {
        if p < diagonals && masks[at(p, q)] & (1u8 << d) != 0 && leads[(p + 1) * columns + q] {
            p += 1;
        } else {
            q += 1;
        }
        out.push(at(p, q));
    }
    true
}

/// The per-searcher state of subgoal graph queries.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    pub(in crate::search) scan: Scan,
    /// The edges to the nodes (subgoals, maybe the goal) joined to a start that is not a
    /// subgoal.
    pub(in crate::search) from_start: Vec<Edge>,
    /// The subgoals joined to a goal that is not a subgoal.
    pub(in crate::search) to_goal: Vec<u32>,
    /// Whether each subgoal is joined to the goal (set for `to_goal` during a search only).
    pub(in crate::search) joins_goal: Vec<bool>,
    /// The local subgoals the search may enter: bit 1 when climbed to from the start, bit 2
    /// from the goal (set for `marked` during a search only).
    pub(in crate::search) active: Vec<u8>,
    /// The subgoals set in `active`.
    pub(in crate::search) marked: Vec<u32>,
    /// The global subgoals from which the search may step down to local ones (set for
    /// `downs` during a search only).
    pub(in crate::search) down: Vec<bool>,
    /// The subgoals set in `down`.
    pub(in crate::search) downs: Vec<u32>,
    /// The subgoals a climb starts from.
    pub(in crate::search) seeds: Vec<u32>,
    /// The subgoals a climb has yet to leave.
    pub(in crate::search) stack: Vec<u32>,
    /// The state of each node.
    pub(in crate::search) nodes: Nodes,
    /// The cells of the path's nodes, goal first.
    pub(in crate::search) chain: Vec<usize>,
}

/// The state of a node in a search over a subgoal graph.
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::search) struct NodeState {
    /// The cost so far; meaningful when `seen` is the search's generation or the next.
    pub(in crate::search) g: f64,
    /// The generation of the last search that reached the node: the current search's when
    /// open, one more when expanded.
    pub(in crate::search) seen: u32,
    /// The node it was reached from.
    pub(in crate::search) parent: u32,
}

/// The node states of the searches over a subgoal graph, in one array (a node's cost, state
/// and parent share a cache line), started anew by a generation count rather than cleared.
#[derive(Debug, Default)]
pub(crate) struct Nodes {
    pub(in crate::search) states: Vec<NodeState>,
    pub(in crate::search) generation: u32,
    pub(in crate::search) heap: Heap,
}

impl Nodes {
    /// Starts a search over `len` nodes.
    pub(in crate::search) fn begin(&mut self, len: usize) {
        if self.states.len() != len || self.generation >= u32::MAX - 2 {
            self.states.clear();
            self.states.resize(len, NodeState::default());
            self.generation = 0;
        }
        self.generation += 2;
        self.heap.clear();
    }

    /// Records a cost and parent for a node; returns whether it improved on what was known
    /// and the node is still open.
    #[inline(always)]
    pub(in crate::search) fn relax(&mut self, i: usize, g: f64, parent: u32) -> bool {
        let generation = self.generation;
        let state = &mut self.states[i];
        if state.seen < generation || (state.seen == generation && g < state.g) {
            *state = NodeState {
                g,
                seen: generation,
                parent,
            };
            true
        } else {
            false
        }
    }

    /// Marks a node expanded; false when it already was.
    #[inline(always)]
    pub(in crate::search) fn close(&mut self, i: usize) -> bool {
        let state = &mut self.states[i];
        let open = state.seen == self.generation;
        state.seen = self.generation + 1;
        open
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, Terrain};
    use crate::search::{Diagonal, SearchGraph};

    /// The scan cell by cell, as it was before it jumped over open cells: the cells an
    /// octant scan from `source` finds, for the jumping scan to agree with.
    fn reference_scan(moves: &Moves<'_>, id: &[u32], source: usize, target: usize) -> Vec<u32> {
        let masks = moves.masks();
        let len = moves.width().max(moves.height()) as usize + 2;
        let (mut prev, mut cur) = (vec![0u8; len], vec![0u8; len]);
        let mut found = Vec::new();
        for (c, e, d) in OCTANTS {
            let (dc, de) = (moves.delta(c), moves.delta(e));
            let (c_bit, d_bit) = (1u8 << c, 1u8 << d);
            let at =
                |i: usize, k: usize| (source as isize + k as isize * dc + i as isize * de) as usize;
            let mut clean = |cell: usize| {
                if id[cell] != NONE {
                    found.push(cell as u32);
                    STOP
                } else {
                    if cell == target {
                        found.push(cell as u32);
                    }
                    CLEAN
                }
            };
            cur[0] = CLEAN;
            let mut k = 0;
            while cur[k] == CLEAN && masks[at(0, k)] & c_bit != 0 {
                k += 1;
                cur[k] = clean(at(0, k));
            }
            let (mut lo, mut hi) = (0, k);
            for i in 1.. {
                std::mem::swap(&mut prev, &mut cur);
                let start = lo + 1;
                let (mut first, mut last) = (usize::MAX, 0);
                let mut k = start;
                loop {
                    let from_diagonal = if k - 1 <= hi
                        && prev[k - 1] != 0
                        && masks[at(i - 1, k - 1)] & d_bit != 0
                    {
                        prev[k - 1]
                    } else {
                        0
                    };
                    let from_straight =
                        if k > start && cur[k - 1] != 0 && masks[at(i, k - 1)] & c_bit != 0 {
                            cur[k - 1]
                        } else {
                            0
                        };
                    let state = match reached(from_diagonal, from_straight) {
                        CLEAN => clean(at(i, k)),
                        other => other,
                    };
                    cur[k] = state;
                    if state != 0 {
                        first = first.min(k);
                        last = k;
                    }
                    if k > hi && state != CLEAN {
                        break;
                    }
                    k += 1;
                }
                if first == usize::MAX {
                    break;
                }
                (lo, hi) = (first, last);
            }
        }
        found.sort_unstable();
        found.dedup();
        found
    }

    /// A small deterministic xorshift generator.
    struct XorShift(u64);

    impl XorShift {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    #[test]
    fn jumping_scans_find_what_scans_cell_by_cell_find() {
        let mut rng = XorShift(0x5ca1_ab1e);
        // Sides on both sides of a 64-bit word, open ground with a few blocks to walls
        // strewn at random.
        for (width, height, blocks, strewn) in [
            (37, 29, 0, 0),
            (37, 29, 6, 0),
            (150, 70, 12, 0),
            (70, 150, 40, 2),
            (129, 65, 4, 10),
            (64, 64, 0, 25),
        ] {
            let mut cells = vec![0u8; width * height];
            for _ in 0..blocks {
                let (w, h) = (1 + rng.below(9) as usize, 1 + rng.below(9) as usize);
                let (x0, y0) = (
                    rng.below(width as u64) as usize,
                    rng.below(height as u64) as usize,
                );
                for y in y0..(y0 + h).min(height) {
                    for x in x0..(x0 + w).min(width) {
                        cells[y * width + x] = 3;
                    }
                }
            }
            for cell in &mut cells {
                if rng.below(100) < strewn {
                    *cell = 3;
                }
            }
            let grid = Grid::from_cells(
                width as u32,
                height as u32,
                Terrain::default_catalog(),
                cells,
            )
            .expect("a valid map");
            let graph = SearchGraph::new(&grid, Diagonal::NoCut);
            let moves = graph.moves();
            let subgoals = SubgoalGraph::build(&moves);
            let mut scan = Scan::default();
            let free: Vec<usize> = (0..graph.len()).filter(|&i| graph.is_passable(i)).collect();
            for n in 0..300 {
                let source = free[rng.below(free.len() as u64) as usize];
                // Half the scans look for a target too, anywhere on the map.
                let target = (n % 2 == 0).then(|| rng.below(graph.len() as u64) as usize);
                scan.from(&moves, (&subgoals.id, &subgoals.closed), source, target);
                let expected =
                    reference_scan(&moves, &subgoals.id, source, target.unwrap_or(usize::MAX));
                assert_eq!(
                    scan.found, expected,
                    "{width} × {height}: from {source} to {target:?}"
                );
            }
        }
    }
}
