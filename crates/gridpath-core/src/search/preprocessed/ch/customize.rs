//! The hierarchy's two cost passes over the pairs of each rank's upward neighbours (the
//! triangles of the filled graph), most of its build: bottom up, every edge takes the cost of
//! the cheapest way through lower ranks; top down, the cost of the cheapest way through any
//! rank, and an edge with a way round as cheap is left out of the queries. Each pass looks at
//! each pair once.
//!
//! On a machine with two cores or more, two threads share the work:
//!
//! - The ranks of the upper separators have hundreds of upward neighbours and hold most of
//!   the pairs (at 512² nine in ten pairs belong to ranks of 4,000 pairs or more). The two
//!   threads take such a rank together, each about half of its pairs (rows of one neighbour
//!   each). Bottom up, a row writes only the edges of its own neighbour, which no other row
//!   writes. Top down, each thread gathers the cheapest way round for the rank's edges into
//!   an array of its own, from their bottom-up costs and the exact costs above, and the two
//!   are merged: the first hop of a cheapest path that climbs above the rank costs no more
//!   than its bottom-up cost (its way runs through lower ranks), and the rest of the path
//!   joins two upward neighbours, whose edge is exact already, so the merged costs are exact.
//! - Below the top of the elimination tree (the ranks whose subtrees hold more than a
//!   thirty-second of the work, [`SUBTREE_SHARE`], taken together as above), each thread takes
//!   whole subtrees of its own, balanced by their pairs ([`owners`]). Top down, a rank writes
//!   only its own edges and reads those of its ancestors, so the subtrees are apart. Bottom
//!   up, a rank's row writes the edges of its neighbour, an ancestor: the rows to neighbours
//!   in the same subtree are the thread's own, and the rows to the ranks at the top, which
//!   other subtrees write too, come after, split between the threads by the neighbour.
//!
//! The answer does not depend on the threads: the costs are the same sums, their minima do
//! not depend on the order they are taken in, and among ways of the same cost an edge keeps
//! the lowest middle rank. The costs are kept as atomic words while the threads share them;
//! relaxed loads and stores are plain ones, and the threads meet before each rank they take
//! together and between the steps, so that each sees what the other wrote.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};

use super::edges::{NONE, SEARCHED, seek};
use crate::search::request::SearchError;

/// A rank whose upward neighbours make at least this many pairs shares them between the two
/// threads; below, the cost of meeting outweighs the gain.
const SHARED_PAIRS: usize = 1024;

/// How many times a thread waiting for the other looks before it sleeps, with a pause between
/// two looks (about 0.4 ms in all on the 2-core test machine, a pause taking 25 ns there):
/// long enough to span most waits between two shared ranks, which saves waking from sleep.
const SPINS: u32 = 1 << 14;

const RELAXED: Ordering = Ordering::Relaxed;

/// A rank at the top of the elimination tree, which both threads take (see [`owners`]).
pub(super) const BOTH: u8 = 2;

/// A subtree holding at most one part in this many of the work goes to one thread.
const SUBTREE_SHARE: u64 = 32;

fn pairs(n: usize) -> usize {
    n * n.saturating_sub(1) / 2
}

/// The rows (upward edges of one rank) whose pairs the first thread takes, about half of the
/// rank's pairs: row `t` of `n` has `n - 1 - t` pairs.
fn first_rows(n: usize) -> usize {
    let half = pairs(n) / 2;
    let (mut rows, mut taken) = (0, 0);
    while rows < n && taken < half {
        taken += n - 1 - rows;
        rows += 1;
    }
    rows
}

/// The costs of the edges, with what the passes find, as the threads share them.
struct Shared<'a> {
    head: &'a [u32],
    first: &'a [u32],
    weight: &'a [AtomicU64],
    middle: &'a [AtomicU32],
    flags: &'a [AtomicU8],
    /// Each thread's cheapest ways round for the edges of a large rank, top down.
    rounds: [Vec<AtomicU64>; 2],
    meeting: Meeting,
    /// How many threads go through the ranks: 1 or 2.
    lanes: usize,
    /// With two threads, which takes each rank (see [`owners`]).
    owner: Vec<u8>,
    /// Whether an edge with a way round exactly as cheap is left out of the queries: when the
    /// sum of two edges' costs is always more than either (no cost is below 2⁻⁵⁰ of another,
    /// which the map's steps tell), so that each edge of the way round costs strictly less.
    /// Otherwise only a way round strictly cheaper leaves an edge out.
    prune: bool,
    /// Bottom up, the rows of the subtrees' ranks to ranks at the top go to the first thread
    /// when their neighbour ranks below this, to the second otherwise (see [`split`]).
    split: u32,
}

impl Shared<'_> {
    fn span(&self, x: usize) -> Range<usize> {
        self.first[x] as usize..self.first[x + 1] as usize
    }

    /// The rows of rank `x` whose neighbours are ranks at the top of the tree: the last ones,
    /// its ancestors at the top ranking above those in its own subtree.
    fn top_rows(&self, x: usize) -> Range<usize> {
        let heads = &self.head[self.span(x)];
        heads.partition_point(|&h| self.owner(h as usize) != BOTH)..heads.len()
    }

    /// The thread that takes rank `x`, or [`BOTH`].
    fn owner(&self, x: usize) -> u8 {
        self.owner.get(x).copied().unwrap_or(0)
    }

    fn cost(&self, k: usize) -> f64 {
        f64::from_bits(self.weight[k].load(RELAXED))
    }

    fn set_cost(&self, k: usize, cost: f64) {
        self.weight[k].store(cost.to_bits(), RELAXED);
    }

    /// The rows of rank `x`'s pairs that thread `lane` takes, or `None` when the rank is
    /// small and the first thread takes it alone.
    fn rows(&self, x: usize, lane: usize) -> Option<Range<usize>> {
        let n = self.span(x).len();
        if self.lanes < 2 || pairs(n) < SHARED_PAIRS {
            return None;
        }
        let split = first_rows(n);
        Some(if lane == 0 { 0..split } else { split..n })
    }
}

/// Where the two threads wait for each other: the second to arrive lets both go on. A thread
/// that stops (cancelled, or unwinding) lets the other out of every wait. A waiting thread
/// spins for a while, the wait between two large ranks being short, then sleeps.
struct Meeting {
    arrived: AtomicUsize,
    round: AtomicUsize,
    stopped: AtomicBool,
    lock: Mutex<()>,
    bell: Condvar,
}

impl Meeting {
    fn new() -> Self {
        Self {
            arrived: AtomicUsize::new(0),
            round: AtomicUsize::new(0),
            stopped: AtomicBool::new(false),
            lock: Mutex::new(()),
            bell: Condvar::new(),
        }
    }

    /// Waits for the other thread; `false` when it stopped before they met.
    fn wait(&self) -> bool {
        let round = self.round.load(Ordering::Acquire);
        if self.arrived.fetch_add(1, Ordering::AcqRel) == 1 {
            self.arrived.store(0, RELAXED);
            self.ring(|| self.round.store(round + 1, Ordering::Release));
            return true;
        }
        let met = || self.round.load(Ordering::Acquire) != round;
        let stopped = || self.stopped.load(Ordering::Acquire);
        for _ in 0..SPINS {
            if met() {
                return true;
            }
            if stopped() {
                // The other thread may have met this one and left since the look above.
                return met();
            }
            std::hint::spin_loop();
        }
        let mut guard = self.lock.lock().unwrap_or_else(PoisonError::into_inner);
        while !met() && !stopped() {
            guard = self
                .bell
                .wait(guard)
                .unwrap_or_else(PoisonError::into_inner);
        }
        met()
    }

    /// Changes the state under the lock, so that a thread about to sleep sees the change or
    /// hears the bell, and wakes a sleeping thread.
    fn ring(&self, change: impl FnOnce()) {
        {
            let _guard = self.lock.lock().unwrap_or_else(PoisonError::into_inner);
            change();
        }
        self.bell.notify_all();
    }
}

/// Lets the other thread out of its waits when a thread leaves its pass, however it leaves.
struct Leaving<'a>(&'a Meeting);

impl Drop for Leaving<'_> {
    fn drop(&mut self) {
        self.0
            .ring(|| self.0.stopped.store(true, Ordering::Release));
    }
}

/// Lowers each cost to the way round beside it when that is cheaper.
fn lower_to(costs: &mut [f64], round: impl Iterator<Item = f64>) {
    for (cost, r) in costs.iter_mut().zip(round) {
        if r < *cost {
            *cost = r;
        }
    }
}

/// The costs of a rank's upward edges as they stood when its turn came.
fn load(shared: &Shared, span: Range<usize>, costs: &mut Vec<f64>) {
    costs.clear();
    costs.extend(span.map(|k| shared.cost(k)));
}

/// Where the edges from `u` to the ranks of `rest` (sorted, each an upward neighbour of `u`)
/// lie in `u`'s list: from `k` on, one after the other when [`Row::Dense`], else spread.
enum Row {
    Dense(usize),
    Spread(usize),
}

/// Finds the edge from `u` to `rest[0]` in `u`'s list, and whether the rest follow it
/// without a gap: then the list holds exactly `rest` from there, and no walk along it is
/// needed (the ranks at the top of the tree, which hold most of the pairs, mostly share
/// their upward neighbours).
fn row(shared: &Shared, u: usize, rest: &[u32]) -> Row {
    let k = seek(shared.head, shared.first[u] as usize, rest[0]);
    let last = k + rest.len() - 1;
    if last < shared.first[u + 1] as usize && shared.head[last] == rest[rest.len() - 1] {
        Row::Dense(k)
    } else {
        Row::Spread(k)
    }
}

/// Bottom up, the rows `rows` of rank `x`'s pairs: the edge between the row's neighbour and
/// each later neighbour takes the cost through `x` when cheaper, with `x` as its middle.
fn lower_rows(shared: &Shared, x: usize, costs: &[f64], rows: Range<usize>) {
    let heads = &shared.head[shared.span(x)];
    // Among ways through lower ranks of the same cost, the lowest rank is the middle, whatever
    // the order the threads take the ranks in (a step of that cost keeps none): what one
    // thread going up the ranks keeps.
    let lower = |k: usize, via: f64| {
        let cost = shared.cost(k);
        let lower_middle = || {
            let middle = shared.middle[k].load(RELAXED);
            middle != NONE && (x as u32) < middle
        };
        if via < cost || (via == cost && lower_middle()) {
            shared.set_cost(k, via);
            shared.middle[k].store(x as u32, RELAXED);
        }
    };
    for t in rows {
        let cu = costs[t];
        if !cu.is_finite() || t + 1 == heads.len() {
            continue;
        }
        let rest = &heads[t + 1..];
        match row(shared, heads[t] as usize, rest) {
            Row::Dense(k) => {
                for (k, &cw) in (k..).zip(&costs[t + 1..]) {
                    if cw.is_finite() {
                        lower(k, cu + cw);
                    }
                }
            }
            Row::Spread(mut k) => {
                for (&h, &cw) in rest.iter().zip(&costs[t + 1..]) {
                    if cw.is_finite() {
                        k = seek(shared.head, k, h);
                        lower(k, cu + cw);
                    }
                }
            }
        }
    }
}

/// Top down, the rows `rows` of rank `x`'s pairs: `round[t]` takes the cost of the way round
/// through each other neighbour when cheaper.
fn upper_rows(shared: &Shared, x: usize, costs: &[f64], rows: Range<usize>, round: &mut [f64]) {
    let heads = &shared.head[shared.span(x)];
    for t in rows {
        if t + 1 == heads.len() {
            continue;
        }
        let xy = costs[t];
        let mut best = round[t];
        // Comparisons rather than `f64::min`: no cost is NaN, and these loops are much of
        // the build.
        let mut pair = |xz: f64, yz: f64, round_j: &mut f64| {
            if xz + yz < best {
                best = xz + yz;
            }
            if xy + yz < *round_j {
                *round_j = xy + yz;
            }
        };
        let (_, later) = round.split_at_mut(t + 1);
        match row(shared, heads[t] as usize, &heads[t + 1..]) {
            Row::Dense(k) => {
                for ((k, &xz), round_j) in (k..).zip(&costs[t + 1..]).zip(later) {
                    pair(xz, shared.cost(k), round_j);
                }
            }
            Row::Spread(mut k) => {
                for ((&h, &xz), round_j) in heads[t + 1..].iter().zip(&costs[t + 1..]).zip(later) {
                    k = seek(shared.head, k, h);
                    pair(xz, shared.cost(k), round_j);
                }
            }
        }
        round[t] = best;
    }
}

/// How often (in ranks passed) a pass looks for a cancellation, besides at every shared rank.
const CHECK_EVERY: usize = 256;

/// Waits for the other thread, or fails when it stopped.
fn meet(shared: &Shared) -> Result<(), SearchError> {
    if shared.meeting.wait() {
        Ok(())
    } else {
        Err(SearchError::Cancelled)
    }
}

/// Thread `lane`'s part of the bottom-up pass. A rank's row writes the edges of its neighbour,
/// an ancestor; the rank's own edges are final once its descendants are done. With two
/// threads, first each takes the subtrees [`owners`] gave it, rows to neighbours in the same
/// subtree only (those edges no other subtree writes); then both take all the subtrees' rows
/// to the ranks at the top, the first thread those of neighbours below `shared.split`, the
/// second the others; then the ranks at the top, from the lowest, both together on the large
/// ones. The threads meet between these, and before and after a rank they share (for each to
/// see what the other wrote).
fn lower_pass(shared: &Shared, lane: usize, check: Check) -> Result<(), SearchError> {
    let _leaving = Leaving(&shared.meeting);
    let mut costs = Vec::new();
    let ranks = shared.first.len() - 1;
    let done = |step: usize, x: usize| (step as f64 + x as f64 / ranks as f64) / 3.0;
    if shared.lanes > 1 {
        for x in 0..ranks {
            if x % CHECK_EVERY == 0 {
                check(done(0, x))?;
            }
            if shared.owner(x) == lane as u8 {
                let top = shared.top_rows(x);
                load(shared, shared.span(x), &mut costs);
                lower_rows(shared, x, &costs, 0..top.start);
            }
        }
        meet(shared)?;
        for x in 0..ranks {
            if x % CHECK_EVERY == 0 {
                check(done(1, x))?;
            }
            if shared.owner(x) == BOTH {
                continue;
            }
            let top = shared.top_rows(x);
            let heads = &shared.head[shared.span(x)];
            let split = top.start + heads[top.clone()].partition_point(|&h| h < shared.split);
            let rows = if lane == 0 {
                top.start..split
            } else {
                split..top.end
            };
            if !rows.is_empty() {
                load(shared, shared.span(x), &mut costs);
                lower_rows(shared, x, &costs, rows);
            }
        }
        meet(shared)?;
    }
    let mut met = true;
    for x in 0..ranks {
        if shared.lanes > 1 && shared.owner(x) != BOTH {
            continue;
        }
        let rows = shared.rows(x, lane);
        if x % CHECK_EVERY == 0 || rows.is_some() {
            check(done(2, x))?;
        }
        match rows {
            None => {
                met = false;
                if lane == 0 {
                    load(shared, shared.span(x), &mut costs);
                    lower_rows(shared, x, &costs, 0..costs.len());
                }
            }
            Some(rows) => {
                if !met {
                    meet(shared)?;
                }
                load(shared, shared.span(x), &mut costs);
                lower_rows(shared, x, &costs, rows);
                meet(shared)?;
                met = true;
            }
        }
    }
    if shared.lanes > 1 && !met {
        meet(shared)?;
    }
    Ok(())
}

/// One thread's buffers for the top-down pass, reused from rank to rank.
#[derive(Default)]
struct Upper {
    costs: Vec<f64>,
    round: Vec<f64>,
}

impl Upper {
    /// Top down at rank `x`: the rows `rows` of its pairs, all of them when `alone`, else
    /// about half, merged by the first thread with the other thread's.
    ///
    /// `round` gathers, for each edge, the cheapest way round through another upward
    /// neighbour, from the bottom-up costs of the rank's edges and the exact costs of the
    /// edges between its neighbours (the module documentation tells why that is exact). An
    /// edge then costs the cheaper of its bottom-up cost and its way round, and it is left out
    /// of the queries when the way round costs less than its bottom-up cost, or as much (see
    /// [`Shared::prune`]): each of the way's two edges costs strictly less than the edge, so
    /// by induction on the cost whatever is left out has a replacement among the searched
    /// edges. One pass over the pairs finds both.
    fn rank(
        &mut self,
        shared: &Shared,
        lane: usize,
        x: usize,
        rows: Range<usize>,
        alone: bool,
    ) -> Result<(), SearchError> {
        let span = shared.span(x);
        load(shared, span.clone(), &mut self.costs);
        self.round.clear();
        self.round.resize(self.costs.len(), f64::INFINITY);
        upper_rows(shared, x, &self.costs, rows, &mut self.round);
        if !alone {
            for (mine, &r) in shared.rounds[lane].iter().zip(&self.round) {
                mine.store(r.to_bits(), RELAXED);
            }
            meet(shared)?;
            if lane != 0 {
                return Ok(());
            }
            let other = &shared.rounds[1 - lane][..self.costs.len()];
            lower_to(
                &mut self.round,
                other.iter().map(|r| f64::from_bits(r.load(RELAXED))),
            );
        }
        for ((k, &cost), &round) in span.zip(&self.costs).zip(&self.round) {
            if round < cost {
                shared.set_cost(k, round);
            }
            // A way round strictly cheaper always leaves the edge out: its middle is that of
            // its dearer way through lower ranks. So does one as cheap when the map's costs
            // allow, and an edge that stays infinite (it joins two parts of the map).
            if round < cost || (round == cost && (shared.prune || cost == f64::INFINITY)) {
                shared.flags[k].fetch_and(!SEARCHED, RELAXED);
            }
        }
        Ok(())
    }
}

/// Thread `lane`'s part of the top-down pass. A rank reads only the edges of its ancestors in
/// the elimination tree (its upward neighbours), so the threads first take together the ranks
/// at the top of the tree ([`owners`]), sharing the pairs of the large ones, meeting before
/// each (for the second to see what the first wrote) and before merging their ways round; then
/// each takes alone the subtrees below them that it was given.
fn upper_pass(shared: &Shared, lane: usize, check: Check) -> Result<(), SearchError> {
    let _leaving = Leaving(&shared.meeting);
    let mut upper = Upper::default();
    let ranks = shared.first.len() - 1;
    let done = |x: usize| (ranks - 1 - x) as f64 / ranks as f64 / 2.0;
    for x in (0..ranks).rev() {
        if shared.owner(x) != BOTH {
            continue;
        }
        check(done(x))?;
        match shared.rows(x, lane) {
            Some(rows) => {
                meet(shared)?;
                upper.rank(shared, lane, x, rows, false)?;
            }
            None if lane == 0 => upper.rank(shared, lane, x, 0..shared.span(x).len(), true)?,
            None => {}
        }
    }
    if shared.lanes > 1 {
        meet(shared)?;
    }
    for x in (0..ranks).rev() {
        if x % CHECK_EVERY == 0 {
            check(0.5 + done(x))?;
        }
        if shared.owner(x) == lane as u8 {
            upper.rank(shared, lane, x, 0..shared.span(x).len(), true)?;
        }
    }
    if shared.lanes > 1 {
        meet(shared)?;
    }
    Ok(())
}

/// Which thread takes each rank: both ([`BOTH`]) for the ranks at the top
/// of the elimination tree whose subtrees hold more than [`SUBTREE_SHARE`] of the work, else
/// the one given the subtree below them that holds the rank. The subtrees go to the thread
/// with less work so far (a rank's pairs, and a little more for the rank itself), the higher
/// ones first.
fn owners(head: &[u32], first: &[u32]) -> Vec<u8> {
    let ranks = first.len() - 1;
    share_subtrees(
        ranks,
        |x| (first[x] < first[x + 1]).then(|| head[first[x] as usize] as usize),
        |x| pairs((first[x + 1] - first[x]) as usize) as u64 + 64,
    )
}

/// Which of two threads takes each of `ranks` ranks of an elimination tree (children before
/// their parents, `parent` giving each one's) when each rank's own work is `own`: both
/// ([`BOTH`]) for the ranks whose subtrees hold more than [`SUBTREE_SHARE`] of the work, else
/// the thread given the subtree below them that holds the rank, to the thread with less work
/// so far, the higher subtrees first. A rank's ancestors are its own thread's or both's.
pub(super) fn share_subtrees(
    ranks: usize,
    parent: impl Fn(usize) -> Option<usize>,
    own: impl Fn(usize) -> u64,
) -> Vec<u8> {
    let mut work = vec![0u64; ranks];
    for x in 0..ranks {
        work[x] += own(x);
        if let Some(p) = parent(x) {
            work[p] += work[x];
        }
    }
    let all: u64 = (0..ranks)
        .filter(|&x| parent(x).is_none())
        .map(|x| work[x])
        .sum();
    let mut owner = vec![BOTH; ranks];
    let mut given = [0u64; 2];
    for x in (0..ranks).rev() {
        owner[x] = match parent(x).map(|p| owner[p]) {
            Some(lane) if lane != BOTH => lane,
            _ if work[x] > all / SUBTREE_SHARE => BOTH,
            _ => {
                let lane = usize::from(given[1] < given[0]);
                given[lane] += work[x];
                lane as u8
            }
        };
    }
    owner
}

/// Visits every rank of an elimination tree on the threads that `owner` gives the ranks to
/// (see [`share_subtrees`]), or on the calling thread in order when it is empty. `down`: from
/// the top, the ranks of both threads first, for visits that read what their ancestors'
/// visits wrote; else from the bottom, the ranks of both last, for visits that read what
/// their descendants' wrote. A visit may write only what no visit on the other thread reads
/// or writes: its own rank's data, or its subtree's. `check` is called on the calling thread
/// every [`CHECK_EVERY`] ranks it visits, with the share of its ranks done, and its error
/// stops both.
pub(super) fn by_subtrees<E>(
    owner: &[u8],
    ranks: usize,
    down: bool,
    visit: impl Fn(usize) + Sync,
    check: &mut dyn FnMut(f64) -> Result<(), E>,
) -> Result<(), E> {
    let stop = AtomicBool::new(false);
    let mut visited = 0;
    // The calling thread's ranks: all of them, or those of both and its own subtrees'.
    let mine = if owner.is_empty() {
        ranks
    } else {
        owner.iter().filter(|&&lane| lane != 1).count()
    };
    // The ranks of `lane` (all of them for `None`) in the pass's order.
    let ranks_of = |lane: Option<u8>| {
        (0..ranks)
            .map(move |x| if down { ranks - 1 - x } else { x })
            .filter(move |&x| lane.is_none_or(|lane| owner[x] == lane))
    };
    // Those ranks on the calling thread.
    let mut run = |lane: Option<u8>| {
        for x in ranks_of(lane) {
            if visited % CHECK_EVERY == 0
                && let Err(e) = check(visited as f64 / mine as f64)
            {
                stop.store(true, RELAXED);
                return Err(e);
            }
            visited += 1;
            visit(x);
        }
        Ok(())
    };
    if owner.is_empty() {
        return run(None);
    }
    if down {
        run(Some(BOTH))?;
    }
    std::thread::scope(|scope| {
        // The second thread's ranks, until the first stops.
        scope.spawn(|| {
            for x in ranks_of(Some(1)) {
                if x % CHECK_EVERY == 0 && stop.load(RELAXED) {
                    break;
                }
                visit(x);
            }
        });
        run(Some(0))
    })?;
    if !down {
        run(Some(BOTH))?;
    }
    Ok(())
}

/// The rank that splits the bottom-up rows of the subtrees' ranks to the ranks at the top
/// between the two threads, by their pairs: the rows to neighbours below it go to the first.
fn split(shared: &Shared) -> u32 {
    let ranks = shared.first.len() - 1;
    let mut pairs_to = vec![0u64; ranks];
    for x in (0..ranks).filter(|&x| shared.owner(x) != BOTH) {
        let n = shared.span(x).len();
        let heads = &shared.head[shared.span(x)];
        for t in shared.top_rows(x) {
            pairs_to[heads[t] as usize] += (n - 1 - t) as u64;
        }
    }
    let half = pairs_to.iter().sum::<u64>() / 2;
    let mut taken = 0;
    for (y, &p) in pairs_to.iter().enumerate() {
        taken += p;
        if taken > half {
            return y as u32;
        }
    }
    ranks as u32
}

/// Runs a pass on the shared edges' threads; `check` (on the calling thread) looks for a
/// cancellation with the share of the pass done.
fn run(
    shared: &mut Shared,
    pass: fn(&Shared, usize, Check) -> Result<(), SearchError>,
    check: Check,
) -> Result<(), SearchError> {
    shared.meeting = Meeting::new();
    if shared.lanes < 2 {
        return pass(shared, 0, check);
    }
    let shared = &*shared;
    std::thread::scope(|scope| {
        let second = scope.spawn(|| pass(shared, 1, &|_| Ok(())));
        let first = pass(shared, 0, check);
        let second = second
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        first.and(second)
    })
}

/// A look for a cancellation, with the share of the pass done.
type Check<'a> = &'a dyn Fn(f64) -> Result<(), SearchError>;

/// What the passes find for every edge.
pub(super) struct Customized {
    /// The cost of the cheapest path between the edge's ends.
    pub(super) weight: Vec<f64>,
    /// The rank the edge's cheapest path through lower ranks passes through, or [`NONE`].
    pub(super) middle: Vec<u32>,
    /// [`SEARCHED`] unless a way round through another upward neighbour is as cheap.
    pub(super) flags: Vec<u8>,
}

/// Whether a way round exactly as cheap as an edge leaves it out of the queries (see
/// [`Shared::prune`]), for the steps `weight` of a map of fewer than `ranks` cells: every cost
/// is a path's, of one step to a step for every cell.
pub(super) fn ties_prune(weight: &[f64], ranks: usize) -> bool {
    let (lightest, heaviest) = weight
        .iter()
        .filter(|w| w.is_finite())
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), &w| {
            (lo.min(w), hi.max(w))
        });
    heaviest * ranks as f64 <= lightest * 2f64.powi(50)
}

/// How many threads the passes over the ranks whose upward edges start at `first` should
/// take: two on a machine with two cores or more, when a rank has enough pairs to share.
pub(super) fn lanes(first: &[u32]) -> usize {
    if two_cores() && pairs(widest(first)) >= SHARED_PAIRS {
        2
    } else {
        1
    }
}

/// Whether the machine has two cores or more.
fn two_cores() -> bool {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get) >= 2
}

/// A pass over fewer edges than this runs on one thread: two would spend more on starting
/// than they save.
const SHARED_TREE_EDGES: usize = 1 << 16;

/// Which of two threads takes each rank of the elimination tree `parent` ([`NONE`] for a
/// root) in a pass over `edges` edges whose work at a rank is `own` (see [`share_subtrees`]),
/// for [`by_subtrees`]; nothing (one thread) on one core or for a pass too small to share.
pub(super) fn tree_owners(parent: &[u32], edges: usize, own: impl Fn(usize) -> u64) -> Vec<u8> {
    if !two_cores() || edges < SHARED_TREE_EDGES {
        return Vec::new();
    }
    share_subtrees(
        parent.len(),
        |x| (parent[x] != NONE).then_some(parent[x] as usize),
        own,
    )
}

/// The most upward edges of a rank.
fn widest(first: &[u32]) -> usize {
    first
        .windows(2)
        .map(|w| (w[1] - w[0]) as usize)
        .max()
        .unwrap_or(0)
}

/// The costs of every edge, bottom up then top down, on `lanes` threads (1 or 2), with each
/// edge's middle and whether the queries search it (the [`SEARCHED`] flag of each). `weight`
/// holds the steps of the grid on entry (infinite elsewhere); an edge's middle is the rank it
/// passes through ([`NONE`] for a step). `check(pass, done)` looks for a cancellation
/// (pass 1 bottom up, 2 top down, with the share of the pass done). The answer does not
/// depend on the threads (see the module documentation).
pub(super) fn customize(
    head: &[u32],
    first: &[u32],
    weight: Vec<f64>,
    lanes: usize,
    check: &impl Fn(u32, f64) -> Result<(), SearchError>,
) -> Result<Customized, SearchError> {
    let prune = ties_prune(&weight, first.len());
    // In place: an atomic word has the size and alignment of the value it holds.
    let weight: Vec<AtomicU64> = weight
        .into_iter()
        .map(|w| AtomicU64::new(w.to_bits()))
        .collect();
    let middle: Vec<AtomicU32> = (0..head.len()).map(|_| AtomicU32::new(NONE)).collect();
    let flags: Vec<AtomicU8> = (0..head.len()).map(|_| AtomicU8::new(SEARCHED)).collect();
    let lanes = lanes.clamp(1, 2);
    let rounds = || {
        let len = if lanes > 1 { widest(first) } else { 0 };
        (0..len).map(|_| AtomicU64::new(0)).collect()
    };
    let mut shared = Shared {
        head,
        first,
        weight: &weight,
        middle: &middle,
        flags: &flags,
        rounds: [rounds(), rounds()],
        meeting: Meeting::new(),
        lanes,
        owner: Vec::new(),
        split: 0,
        prune,
    };
    if lanes > 1 {
        shared.owner = owners(head, first);
        shared.split = split(&shared);
    }
    run(&mut shared, lower_pass, &|done| check(1, done))?;
    run(&mut shared, upper_pass, &|done| check(2, done))?;
    drop(shared);
    let weight = weight
        .into_iter()
        .map(|w| f64::from_bits(w.into_inner()))
        .collect();
    let middle = middle.into_iter().map(AtomicU32::into_inner).collect();
    let flags = flags.into_iter().map(AtomicU8::into_inner).collect();
    Ok(Customized {
        weight,
        middle,
        flags,
    })
}

/// A rank needs this many upward edges for its pairs to be shared.
#[cfg(test)]
pub(super) fn shared_edges() -> usize {
    (2..)
        .find(|&n| pairs(n) >= SHARED_PAIRS)
        .unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subtrees_on_two_threads_visit_each_rank_once_after_its_ancestors_or_its_descendants() {
        // A tree of 5,000 ranks, children before parents, each rank's parent a little above.
        let ranks = 5000;
        let mut seed = 7u64;
        let parent: Vec<u32> = (0..ranks)
            .map(|x| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let p = x + 1 + (seed >> 33) as usize % 40;
                if p < ranks { p as u32 } else { NONE }
            })
            .collect();
        let owner = share_subtrees(
            ranks,
            |x| (parent[x] != NONE).then_some(parent[x] as usize),
            |_| 1,
        );
        for lane in [0, 1, BOTH] {
            assert!(owner.contains(&lane), "lane {lane} has ranks");
        }
        for down in [true, false] {
            // Each visit takes a ticket; a rank's ancestors must hold earlier tickets going
            // down, later ones going up.
            let next = AtomicUsize::new(1);
            let ticket: Vec<AtomicUsize> = (0..ranks).map(|_| AtomicUsize::new(0)).collect();
            let visit = |x: usize| {
                let t = next.fetch_add(1, Ordering::SeqCst);
                assert_eq!(
                    ticket[x].swap(t, Ordering::SeqCst),
                    0,
                    "rank {x} visited twice"
                );
            };
            let checked = Ok::<(), ()>(());
            by_subtrees(&owner, ranks, down, visit, &mut |_| checked).unwrap();
            for x in 0..ranks {
                let t = ticket[x].load(Ordering::SeqCst);
                assert!(t > 0, "rank {x} visited");
                let p = parent[x];
                if p != NONE {
                    let tp = ticket[p as usize].load(Ordering::SeqCst);
                    assert_eq!(tp < t, down, "rank {x} against its parent {p}");
                }
            }
        }
        // A failed check stops both threads and is returned.
        let visited = AtomicUsize::new(0);
        let stopped = by_subtrees(
            &owner,
            ranks,
            true,
            |_| {
                visited.fetch_add(1, Ordering::SeqCst);
            },
            &mut |done| if done >= 0.2 { Err(done) } else { Ok(()) },
        );
        let mine = owner.iter().filter(|&&lane| lane != 1).count();
        let first = (0.2 * mine as f64 / CHECK_EVERY as f64).ceil() * CHECK_EVERY as f64;
        assert_eq!(
            stopped,
            Err(first / mine as f64),
            "stopped at the first check past a fifth"
        );
        assert!(visited.load(Ordering::SeqCst) < ranks);
    }

    #[test]
    fn the_first_thread_takes_about_half_of_the_pairs() {
        for n in [3, 10, 128, 129, 1000] {
            let rows = first_rows(n);
            let taken: usize = (0..rows).map(|t| n - 1 - t).sum();
            let all = pairs(n);
            assert!(rows < n, "{n}: the second thread has rows");
            assert!(2 * taken >= all, "{n}: {taken} of {all}");
            assert!(
                2 * (taken - (n - rows)) < all,
                "{n}: one row fewer would be under half"
            );
        }
    }
}
