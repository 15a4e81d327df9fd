//! Conflicts between the agents' paths, as conflict-based search (CBS, ECBS and EECBS) finds
//! them: each pair's first meeting at each tick, on a cell or across a move, with the
//! constraint that resolves it for either agent. The tables it is found in are as large as
//! the map, allocated once per solver and left clear between searches.

use std::rc::Rc;

use super::constraint::Constraint;
use super::graph::{FastMap, MoveGraph};

/// A conflict between two agents' paths.
#[derive(Clone, Copy, Debug)]
pub(super) struct Conflict {
    pub(super) a: u32,
    pub(super) b: u32,
    pub(super) t: u32,
    /// The constraint that resolves it for `a`, and for `b`.
    pub(super) on_a: Constraint,
    pub(super) on_b: Constraint,
}

/// The first agent on each cell at one tick and at the tick before, for finding conflicts:
/// each entry stamped with its tick (plus one) in the high half, so that nothing needs
/// clearing between ticks; every entry is 0 between searches (a search clears what it wrote),
/// so the tables, as large as the map, are allocated once per solver.
#[derive(Default)]
pub(super) struct ConflictTables {
    here: Vec<u64>,
    before: Vec<u64>,
}

impl ConflictTables {
    /// Every conflict between the paths (each pair's first at each tick).
    pub(super) fn find(&mut self, graph: &MoveGraph, paths: &[Rc<Vec<u32>>]) -> Vec<Conflict> {
        self.here.resize(graph.len(), 0);
        self.before.resize(graph.len(), 0);
        let found = conflicts_in(graph, paths, &mut self.here, &mut self.before);
        for &v in paths.iter().flat_map(|p| p.iter()) {
            self.here[v as usize] = 0;
            self.before[v as usize] = 0;
        }
        found
    }
}

/// [`ConflictTables::find`] in the given tables.
fn conflicts_in(
    graph: &MoveGraph,
    paths: &[Rc<Vec<u32>>],
    here: &mut Vec<u64>,
    before: &mut Vec<u64>,
) -> Vec<Conflict> {
    let end = paths.iter().map(|p| p.len()).max().unwrap_or(1);
    let at = |i: usize, t: usize| -> u32 { paths[i][t.min(paths[i].len() - 1)] };
    let mut found = Vec::new();
    let stamp = |t: usize, i: usize| ((t as u64 + 1) << 32) | i as u64;
    let owner = |table: &[u64], v: u32, t: usize| -> Option<usize> {
        let e = table[v as usize];
        (e >> 32 == t as u64 + 1).then_some((e & 0xffff_ffff) as usize)
    };
    let mut blocks: FastMap<(u32, u32), (usize, u32, u32)> = FastMap::default();
    for t in 0..end {
        std::mem::swap(here, before);
        blocks.clear();
        for i in 0..paths.len() {
            let v = at(i, t);
            if let Some(j) = owner(here, v, t) {
                let c = Constraint::Vertex { v, t: t as u32 };
                // A target conflict: one of the two rests on its goal from this tick on. Either
                // its last arrival comes later, or the other never comes here again.
                let barrier = Constraint::Barrier { v, t: t as u32 };
                let later = Constraint::ArriveAfter { t: t as u32 };
                let resting = |k: usize| paths[k].len() - 1 <= t;
                let (on_a, on_b) = if resting(j) {
                    (later, barrier)
                } else if resting(i) {
                    (barrier, later)
                } else {
                    (c, c)
                };
                found.push(Conflict {
                    a: j as u32,
                    b: i as u32,
                    t: t as u32,
                    on_a,
                    on_b,
                });
            } else {
                here[v as usize] = stamp(t, i);
            }
            if t == 0 {
                continue;
            }
            let u = at(i, t - 1);
            if u == v {
                continue;
            }
            let tt = t as u32;
            // A swap: an agent of a lower number was on `v` and moves to `u`.
            if let Some(j) = owner(before, v, t - 1)
                && j < i
                && at(j, t) == u
            {
                found.push(Conflict {
                    a: j as u32,
                    b: i as u32,
                    t: tt,
                    on_a: Constraint::Move { u: v, v: u, t: tt },
                    on_b: Constraint::Move { u, v, t: tt },
                });
            }
            if let Some((a, b)) = graph.diagonal_sides(u, v) {
                let block = (a.min(b), a.max(b));
                if let Some(&(j, ju, jv)) = blocks.get(&block)
                    && (ju, jv) != (v, u)
                {
                    found.push(Conflict {
                        a: j as u32,
                        b: i as u32,
                        t: tt,
                        on_a: Constraint::Move {
                            u: ju,
                            v: jv,
                            t: tt,
                        },
                        on_b: Constraint::Move { u, v, t: tt },
                    });
                }
                // The other diagonal of the block has the move's own cells as its sides.
                blocks.insert((u.min(v), u.max(v)), (i, u, v));
            }
        }
    }
    found
}
