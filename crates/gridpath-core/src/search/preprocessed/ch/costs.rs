//! The costs of the searched edges, as the queries read them: in 32 bits where the map's
//! costs allow it exactly, in 64 otherwise.
//!
//! A step costs its length (1 or √2) times the mean of its two cells' costs. Where every
//! terrain's half cost is a whole multiple of one power of two, the *unit* (as on the Moving
//! AI maps, all of cost 1, or on terrains of costs 0.5, 1, 2 and 3), every step costs `n`
//! units or `n√2` units for a whole `n`, and so does every edge of the hierarchy: `a + b√2`
//! units, where `a` counts the units of its straight steps and `b` those of its diagonal
//! ones. The build counts them for each kept edge from its two halves, lowest rank first (a
//! grid step counts itself), and when the counts of every searched edge fit the halves of a
//! 32-bit word, `a` in the low half, `b` in the high, the words stand for the costs: half the
//! bytes of an `f64`, which the queries read for every edge they relax. (Sixteen bits held
//! the counts of every edge of the generated weighted map of 2048², whose steps cost 2 to 12
//! quarters; a map whose counts pass them keeps its `f64`s.)
//!
//! A word's cost is `a × unit + b × (√2 × unit)`, two products and a sum in `f64`, the same
//! in the relaxations by blocks as one edge at a time. It is a cost of the same path as the
//! `f64` the build computed, summed in another order: the two differ by a few units of the
//! last place, which the build checks for every searched edge, keeping the `f64` costs
//! otherwise. The length of the path that a query reports is summed from its cells, either
//! way.
//!
//! The words take a few more instructions to relax than the `f64`s, and half the bytes to
//! read. Measured side by side with the tables on huge pages, queries were 0–6% slower on maps
//! of 512² cells, for 13–19% fewer bytes kept (on pages of 4 KiB, 7–27% slower), so the
//! hierarchy keeps its costs in words wherever the map allows it.

use super::edges::Kept;
use crate::search::graph::SearchGraph;
use crate::search::preprocessed::huge_pages;

/// How a word turns into a cost: `a` is its low [`HALF`] bits, `b` the rest.
#[derive(Clone, Copy, Debug)]
pub(super) struct Scale {
    /// The cost of one unit of a straight step, and of one unit of a diagonal step (√2 units).
    straight: f64,
    diagonal: f64,
}

impl Scale {
    /// Words in units of `unit`.
    pub(super) fn new(unit: f64) -> Self {
        Self {
            straight: unit,
            diagonal: unit * std::f64::consts::SQRT_2,
        }
    }

    /// What `a` and `b` are multiplied by.
    pub(super) fn factors(self) -> (f64, f64) {
        (self.straight, self.diagonal)
    }

    /// The cost a word stands for.
    #[inline(always)]
    pub(super) fn cost(self, word: u32) -> f64 {
        f64::from(word & MASK) * self.straight + f64::from(word >> HALF) * self.diagonal
    }
}

/// The searched edges' costs, in the order of the edges (`start[r]..start[r + 1]` for rank
/// `r`).
#[derive(Debug)]
pub(super) enum Costs {
    /// The costs as the build computed them.
    Wide(Vec<f64>),
    /// One word an edge, and what turns it into its cost.
    Counted { words: Vec<u32>, scale: Scale },
}

/// The costs of one rank's searched edges.
#[derive(Clone, Copy)]
pub(super) enum Row<'a> {
    Wide(&'a [f64]),
    Counted(&'a [u32], Scale),
}

impl Row<'_> {
    pub(super) fn len(self) -> usize {
        match self {
            Row::Wide(costs) => costs.len(),
            Row::Counted(words, _) => words.len(),
        }
    }
}

impl Costs {
    /// The costs `weight` of the searched edges, in words where the counts allow it: `counts`
    /// holds each kept edge's word (see [`Counter`]), `unit` the cost of a unit.
    pub(super) fn new(weight: Vec<f64>, kept: &Kept, counts: Option<(Vec<u32>, f64)>) -> Self {
        let Some((counts, unit)) = counts else {
            return Costs::Wide(weight);
        };
        let scale = Scale::new(unit);
        let mut words = Vec::with_capacity(weight.len());
        for (r, edges) in kept.first.windows(2).enumerate() {
            let searched = (kept.start[r + 1] - kept.start[r]) as usize;
            words.extend_from_slice(&counts[edges[0] as usize..][..searched]);
        }
        // The same paths' costs summed in another order: they may differ in the last places,
        // no more.
        let close = words
            .iter()
            .zip(&weight)
            .all(|(&w, &c)| w != UNCOUNTED && (scale.cost(w) - c).abs() <= 1e-12 * c.max(1.0));
        if !close {
            return Costs::Wide(weight);
        }
        Costs::Counted { words, scale }
    }

    /// How many searched edges there are.
    pub(super) fn len(&self) -> usize {
        match self {
            Costs::Wide(costs) => costs.len(),
            Costs::Counted { words, .. } => words.len(),
        }
    }

    /// Asks for huge pages under the costs (see [`huge_pages`]).
    pub(super) fn back_with_huge_pages(&self) {
        match self {
            Costs::Wide(costs) => huge_pages::back(costs),
            Costs::Counted { words, .. } => huge_pages::back(words),
        }
    }

    /// The bytes the costs take.
    pub(super) fn bytes(&self) -> usize {
        match self {
            Costs::Wide(costs) => costs.capacity() * size_of::<f64>(),
            Costs::Counted { words, .. } => words.capacity() * size_of::<u32>(),
        }
    }

    /// The costs of the searched edges `range`.
    #[inline(always)]
    pub(super) fn row(&self, range: std::ops::Range<usize>) -> Row<'_> {
        match self {
            Costs::Wide(costs) => Row::Wide(&costs[range]),
            Costs::Counted { words, scale } => Row::Counted(&words[range], *scale),
        }
    }

    /// The costs without the first `edges`.
    pub(super) fn drop_first(&mut self, edges: usize) {
        match self {
            Costs::Wide(costs) => drop(costs.drain(..edges)),
            Costs::Counted { words, .. } => drop(words.drain(..edges)),
        }
    }

    pub(super) fn shrink_to_fit(&mut self) {
        match self {
            Costs::Wide(costs) => costs.shrink_to_fit(),
            Costs::Counted { words, .. } => words.shrink_to_fit(),
        }
    }

    /// Turns the costs `run` round.
    pub(super) fn reverse(&mut self, run: std::ops::Range<usize>) {
        match self {
            Costs::Wide(costs) => costs[run].reverse(),
            Costs::Counted { words, .. } => words[run].reverse(),
        }
    }

    /// Whether the costs are kept in words.
    #[cfg(test)]
    pub(super) fn counted(&self) -> bool {
        matches!(self, Costs::Counted { .. })
    }

    /// Every searched edge's cost as an `f64`: borrowed where they are kept so.
    pub(super) fn wide(&self) -> std::borrow::Cow<'_, [f64]> {
        match self {
            Costs::Wide(costs) => std::borrow::Cow::Borrowed(costs),
            Costs::Counted { words, scale } => {
                std::borrow::Cow::Owned(words.iter().map(|&w| scale.cost(w)).collect())
            }
        }
    }
}

/// The bits of a word that hold `a`; `b` takes the rest.
pub(super) const HALF: u32 = 16;

/// The bits of a word that hold `a`.
pub(super) const MASK: u32 = (1 << HALF) - 1;

/// No count: the edge's cost is not a whole number of units, or its counts pass 16 bits.
pub(super) const UNCOUNTED: u32 = u32::MAX;

/// Counts each kept edge's units (see the module documentation) as the build visits the
/// ranks, lowest first: a step of the grid from its own cost, any other edge from its two
/// halves'. A count is a word, `b` in its high half and `a` in its low, each below 2¹⁶ − 1.
#[derive(Clone, Copy)]
pub(super) struct Counter {
    unit: f64,
}

impl Counter {
    /// The counter for `graph`'s costs, if they have a unit.
    pub(super) fn new(graph: &SearchGraph) -> Option<Self> {
        graph.half_cost_unit().map(|unit| Self { unit })
    }

    /// The cost of a unit.
    pub(super) fn unit(self) -> f64 {
        self.unit
    }

    /// The count of the step from `from` to `to` in direction `d`.
    pub(super) fn step(self, graph: &SearchGraph, (from, to): (usize, usize), d: usize) -> u32 {
        graph
            .step_units(from, to, d, self.unit)
            .map_or(UNCOUNTED, |(a, b)| word(a, b))
    }

    /// The count of an edge whose halves count `x` and `y`.
    pub(super) fn join(x: u32, y: u32) -> u32 {
        if x == UNCOUNTED || y == UNCOUNTED {
            return UNCOUNTED;
        }
        word(
            u64::from((x & MASK) + (y & MASK)),
            u64::from((x >> HALF) + (y >> HALF)),
        )
    }
}

/// The word of `a` and `b` units, if each fits its half (below its largest value, so that no
/// word is [`UNCOUNTED`]).
fn word(a: u64, b: u64) -> u32 {
    let fits = |n: u64| n < u64::from(MASK);
    if fits(a) && fits(b) {
        (b << HALF | a) as u32
    } else {
        UNCOUNTED
    }
}
