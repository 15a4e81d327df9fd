//! The admissible estimates of conflict-based search's high level, from the weighted
//! dependency graph (an edge for each pair of agents in conflict, weighted by the extra cost
//! the pair needs when solved alone): the least edge-weighted vertex cover in whole ticks
//! under uniform costs, and a greedy matching elsewhere or for parts too large to cover
//! exactly. Neither ever overestimates.

use super::graph::{FastMap, FastSet};

/// The weight of a greedy maximal matching of the weighted dependency graph's edges
/// (`(extra cost, a, b)`), heaviest first: disjoint pairs' extra costs add up, so the sum
/// never overestimates.
pub(super) fn matching_bound(edges: &[(f64, u32, u32)]) -> f64 {
    let mut sorted = edges.to_vec();
    sorted.sort_by(|x, y| y.0.total_cmp(&x.0));
    let mut matched = FastSet::default();
    let mut h = 0.0;
    for (delta, a, b) in sorted {
        if !matched.contains(&a) && !matched.contains(&b) {
            matched.insert(a);
            matched.insert(b);
            h += delta;
        }
    }
    h
}

/// The most agents of one connected part of the dependency graph whose edge-weighted vertex
/// cover is searched exactly; larger parts take the matching bound.
const COVER_AGENTS: usize = 12;

/// The most assignments the exact cover search of one part may try before it falls back to
/// the matching bound.
const COVER_STEPS: u32 = 20_000;

/// The weighted dependency graph's bound (Li et al. 2019): the least total of whole ticks
/// `x` given to the agents such that `x[a] + x[b]` covers every edge's extra cost. Any plan
/// gives each agent some extra cost, and each pair's extra costs together are at least the
/// pair's alone, so the least such total never overestimates. Each connected part is
/// searched exactly by depth-first search when small, else bounded by a matching.
pub(super) fn dependency_bound(edges: &[(f64, u32, u32)], tick: f64) -> f64 {
    // Whole ticks, rounded down (an extra cost is a whole number of ticks under uniform costs).
    let ticks = |d: f64| (d / tick + 1e-6).floor() as u32;
    let mut index: FastMap<u32, usize> = FastMap::default();
    for &(_, a, b) in edges {
        for v in [a, b] {
            let n = index.len();
            index.entry(v).or_insert(n);
        }
    }
    let n = index.len();
    let mut part: Vec<usize> = (0..n).collect();
    fn root(part: &mut [usize], mut v: usize) -> usize {
        while part[v] != v {
            part[v] = part[part[v]];
            v = part[v];
        }
        v
    }
    let mut weights: Vec<(usize, usize, u32)> = Vec::with_capacity(edges.len());
    for &(d, a, b) in edges {
        let (i, j) = (index[&a], index[&b]);
        weights.push((i, j, ticks(d)));
        let (ri, rj) = (root(&mut part, i), root(&mut part, j));
        part[ri] = rj;
    }
    let mut parts: FastMap<usize, Vec<usize>> = FastMap::default();
    for v in 0..n {
        let r = root(&mut part, v);
        parts.entry(r).or_default().push(v);
    }
    let mut total = 0.0;
    for members in parts.values() {
        let local: FastMap<usize, usize> =
            members.iter().enumerate().map(|(k, &v)| (v, k)).collect();
        let part_edges: Vec<(usize, usize, u32)> = weights
            .iter()
            .filter_map(|&(i, j, w)| Some((*local.get(&i)?, *local.get(&j)?, w)))
            .collect();
        let exact = if members.len() <= COVER_AGENTS {
            min_cover(members.len(), &part_edges)
        } else {
            None
        };
        total += match exact {
            Some(x) => f64::from(x) * tick,
            None => matching_bound(
                &part_edges
                    .iter()
                    .map(|&(i, j, w)| (f64::from(w) * tick, i as u32, j as u32))
                    .collect::<Vec<_>>(),
            ),
        };
    }
    total
}

/// The least edge-weighted vertex cover of a small graph (`n` vertices, edges `(i, j, w)`):
/// whole values `x` with `x[i] + x[j] >= w` of the least total; `None` when the search takes
/// more than [`COVER_STEPS`] steps.
pub(super) fn min_cover(n: usize, edges: &[(usize, usize, u32)]) -> Option<u32> {
    // Each vertex's edges to vertices earlier in the order fix its least value; its largest
    // useful value is its heaviest edge to a later one.
    let mut earlier: Vec<Vec<(usize, u32)>> = vec![Vec::new(); n];
    let mut later_max = vec![0u32; n];
    for &(i, j, w) in edges {
        let (lo, hi) = (i.min(j), i.max(j));
        earlier[hi].push((lo, w));
        later_max[lo] = later_max[lo].max(w);
    }
    struct Search<'e> {
        earlier: &'e [Vec<(usize, u32)>],
        later_max: &'e [u32],
        x: Vec<u32>,
        best: u32,
        steps: u32,
    }
    impl Search<'_> {
        fn go(&mut self, v: usize, sum: u32) -> bool {
            self.steps += 1;
            if self.steps > COVER_STEPS {
                return false;
            }
            if v == self.x.len() {
                self.best = self.best.min(sum);
                return true;
            }
            let least = self.earlier[v]
                .iter()
                .map(|&(u, w)| w.saturating_sub(self.x[u]))
                .max()
                .unwrap_or(0);
            let most = least.max(self.later_max[v]);
            for value in least..=most {
                if sum + value >= self.best {
                    break;
                }
                self.x[v] = value;
                if !self.go(v + 1, sum + value) {
                    return false;
                }
            }
            true
        }
    }
    let mut search = Search {
        earlier: &earlier,
        later_max: &later_max,
        x: vec![0; n],
        // Every edge covered by both its ends at their heaviest: an upper bound.
        best: later_max.iter().sum::<u32>() + edges.iter().map(|e| e.2).max().unwrap_or(0) + 1,
        steps: 0,
    };
    search.go(0, 0).then_some(search.best)
}
