//! Unpacking a query's edges into the cells of a full path, through what each kept edge holds
//! (see `links.rs`), and the layout of the cells with the path's cost and length summed from
//! its steps.
//!
//! What it guarantees: a path from one end to the other, cell by cell, each step one the
//! graph allows, its cost summed a step at a time as `SearchGraph::index_path_cost` sums it.

use super::hierarchy::ContractionHierarchy;
use super::links::{Link, Packed, find_edge};
use super::regions::{Local, Place, Source};

use crate::grid::Cell;
use crate::search::graph::{DX, DY, OPPOSITE, SearchGraph};

/// The path from cell `from` along `directions`: its cells, and its cost and length summed a
/// step at a time from the start as `SearchGraph::index_path_cost` sums them. On a map of one
/// cost each direction's step costs the same everywhere, so the layout of a long path reads no
/// terrain (2–7% off a query on the Moving AI maps at 512²).
fn lay_out(graph: &SearchGraph, from: usize, directions: &[u8]) -> (Vec<Cell>, (f64, f64)) {
    match graph.uniform_step_costs() {
        Some(costs) => lay_out_by(graph, from, directions, |d| costs[d]),
        None => {
            let mut cell = from;
            lay_out_by(graph, from, directions, |d| {
                let next = cell.wrapping_add_signed(graph.delta(d));
                let cost = graph.step_cost(cell, next, d);
                cell = next;
                cost
            })
        }
    }
}

/// [`lay_out`] with each step's cost from `step_cost`, asked with the step's direction in the
/// path's order. The loop calls nothing: the path's room is taken first, so the running cost
/// and length stay in registers rather than waiting on the stack.
#[inline(always)]
fn lay_out_by(
    graph: &SearchGraph,
    from: usize,
    directions: &[u8],
    mut step_cost: impl FnMut(usize) -> f64,
) -> (Vec<Cell>, (f64, f64)) {
    let mut at = graph.cell(from);
    let mut path = vec![at; directions.len() + 1];
    let (mut cost, mut length) = (0.0, 0.0);
    let lengths = graph.step_lengths();
    for (place, &d) in path[1..].iter_mut().zip(directions) {
        let d = usize::from(d & 7);
        cost += step_cost(d);
        length += lengths[d];
        at = Cell::new(
            at.x.wrapping_add_signed(DX[d]),
            at.y.wrapping_add_signed(DY[d]),
        );
        *place = at;
    }
    (path, (cost, length))
}

/// An edge of a path on its way to cells: its index and whether it is taken up (from its
/// lower rank to its higher), or its packed steps and the same.
#[derive(Clone, Copy)]
pub(super) enum Unpacked {
    Halves(usize, bool),
    Steps(u64, bool),
}

impl Unpacked {
    /// One step in direction `d`, taken as it runs.
    pub(super) fn step(d: u8) -> Self {
        Unpacked::Steps(Packed::step(d.into()), true)
    }
}

impl ContractionHierarchy {
    /// The index of the edge between two ranks: among the searched edges of the lower rank or
    /// among those it keeps for unpacking, each list sorted by rank, so by depth downwards.
    pub(super) fn edge_index(&self, a: usize, b: usize) -> Option<usize> {
        let (low, high) = if a < b { (a, b) } else { (b, a) };
        let key = self.depth[high];
        let Some(blocks) = &self.blocks else {
            return find_edge((&self.first, &self.start), &self.head, low, key, |h| {
                h > key
            });
        };
        let first = self.first[low] as usize;
        if let Some(j) = blocks.position(low, key) {
            return Some(first + j);
        }
        let searched = (self.start[low + 1] - self.start[low]) as usize;
        let others = &self.head[self.unpacking_heads(low)];
        let j = others.partition_point(|&h| h > key);
        (others.get(j) == Some(&key)).then_some(first + searched + j)
    }

    /// Where the searched edges are kept by blocks: where `head` holds the heads of rank
    /// `r`'s edges kept to unpack shortcuts alone (the kept edges of the ranks before it that
    /// are not searched come first).
    pub(super) fn unpacking_heads(&self, r: usize) -> std::ops::Range<usize> {
        (self.first[r] - self.start[r]) as usize..(self.first[r + 1] - self.start[r + 1]) as usize
    }

    /// The cells of a path from cell `from` along `edges`, each taken up from its lower rank
    /// to its higher or down, and its cost and length.
    ///
    /// Each round replaces every edge whose link holds its halves by the two, in the path's
    /// order, until every edge holds its steps: the links of a round are asked for as the
    /// round before finds them, so that their loads overlap, where taking the edges depth
    /// first would wait for each load in turn (a query's path at weighted 512² holds some 20
    /// links, mostly far apart in memory). The edges before the first one still to halve are
    /// set aside as they are, so that a round goes over no more than what it may halve.
    ///
    /// The steps are then written out as directions, and the cells laid out from them in a
    /// loop of their own that calls nothing, so that the running cost and length stay in
    /// registers (see [`lay_out`]).
    pub(super) fn unpack(&self, mut edges: Vec<Unpacked>, from: usize) -> (Vec<Cell>, (f64, f64)) {
        let links = &self.links.links;
        for edge in &edges {
            if let Unpacked::Halves(k, _) = *edge {
                crate::search::space::prefetch(links, k);
            }
        }
        let mut done = Vec::with_capacity(2 * edges.len());
        let mut next = Vec::with_capacity(2 * edges.len());
        while !edges.is_empty() {
            for &edge in &edges {
                let edge = match edge {
                    Unpacked::Halves(k, up) => {
                        let link = links[k];
                        match link.packed_bits() {
                            Some(steps) => Unpacked::Steps(steps, up),
                            None => {
                                // Up: from the lower end down its first half to the middle,
                                // then up the second half; down: the other way round.
                                let (first, second) =
                                    (link.middle as usize, self.links.second(k, link));
                                crate::search::space::prefetch(links, first);
                                crate::search::space::prefetch(links, second);
                                next.extend(if up {
                                    [
                                        Unpacked::Halves(first, false),
                                        Unpacked::Halves(second, true),
                                    ]
                                } else {
                                    [
                                        Unpacked::Halves(second, false),
                                        Unpacked::Halves(first, true),
                                    ]
                                });
                                continue;
                            }
                        }
                    }
                    steps => steps,
                };
                if next.is_empty() {
                    done.push(edge);
                } else {
                    next.push(edge);
                }
            }
            std::mem::swap(&mut edges, &mut next);
            next.clear();
        }
        lay_out(&self.graph, from, &self.directions(&done, from))
    }

    /// The directions of the steps of `edges`, each packed (see [`Unpacked`]), from cell
    /// `from`. A way through a region is searched from where the path stands.
    fn directions(&self, edges: &[Unpacked], from: usize) -> Vec<u8> {
        let steps = |edge: &Unpacked| match *edge {
            Unpacked::Steps(steps, _) => Packed::len(steps) as usize,
            Unpacked::Halves(..) => unreachable!("every edge is unpacked into steps"),
        };
        let mut directions: Vec<u8> = Vec::with_capacity(edges.iter().map(steps).sum::<usize>());
        // Where the path stood after the first `known.1` directions: the cell an edge through
        // a region starts from, found when one comes.
        let mut known = (from, 0);
        let mut near = None;
        let mut through = Vec::new();
        for &edge in edges {
            let Unpacked::Steps(steps, up) = edge else {
                unreachable!("every edge is unpacked into steps");
            };
            if let Some((region, (dx, dy))) = Link::packed(steps).through_region() {
                // A way through a region: searched from where the path stands to the other
                // end, which the link keeps.
                let cell = directions[known.1..].iter().fold(known.0, |cell, &d| {
                    cell.wrapping_add_signed(self.graph.delta(usize::from(d)))
                });
                known = (cell, directions.len());
                let at = self.graph.cell(cell);
                let (dx, dy) = if up { (dx, dy) } else { (-dx, -dy) };
                let to = Cell::new(at.x.wrapping_add_signed(dx), at.y.wrapping_add_signed(dy));
                let Place::Rank(u) = Place::of(self.rank[self.graph.index(to)]) else {
                    unreachable!("a region's way ends outside it");
                };
                let near: &mut Local = near.get_or_insert_with(Local::default);
                let tables = (&self.graph, &self.rank[..], &self.regions);
                near.search(tables, region, Source::Outside(cell), |_| {});
                let (_, i, d) = near.exit(u).expect("the region joins the edge's ends");
                near.steps_to(i, &mut through);
                through.push(d);
                directions.append(&mut through);
                continue;
            }
            // The steps run from the lower rank to the higher.
            if up {
                Packed::write(steps, &mut directions);
            } else {
                let at = directions.len();
                Packed::write(steps, &mut directions);
                directions[at..].reverse();
                for d in &mut directions[at..] {
                    *d = OPPOSITE[usize::from(*d)] as u8;
                }
            }
        }
        directions
    }
}
