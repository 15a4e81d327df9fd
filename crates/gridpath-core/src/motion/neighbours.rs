//! Which units are near which: square buckets, rebuilt every step by a counting sort. Where
//! the units' buckets span a small box (a few per unit), a slot is a bucket of that box;
//! otherwise buckets are hashed into twice as many slots as units, so a step costs time in
//! proportion to the units however far apart they are.

use super::vector::Vec2;

/// Units sorted into hashed buckets of `size` × `size`.
#[derive(Clone, Debug, Default)]
pub struct NeighbourIndex {
    size: f64,
    mask: usize,
    /// The box of buckets when slots are its buckets (no hashing): its first column and row,
    /// and its width and height in buckets.
    dense: Option<(i64, i64, i64, i64)>,
    /// For each slot, the range of `order` holding the units hashed there.
    starts: Vec<u32>,
    order: Vec<u32>,
    slots: Vec<u32>,
    /// Each unit's bucket, to tell apart the buckets that share a slot.
    buckets: Vec<(i64, i64)>,
    /// For each entry of `order`: its unit's bucket and position, read in the order of a
    /// slot's scan.
    sorted: Vec<((i64, i64), Vec2)>,
}

impl NeighbourIndex {
    /// Sorts `positions` into buckets of `size` (at least the farthest any query reaches).
    pub fn rebuild(&mut self, positions: &[Vec2], size: f64) {
        self.size = size.max(1e-6);
        let mut buckets = std::mem::take(&mut self.buckets);
        buckets.clear();
        buckets.extend(positions.iter().map(|&p| self.bucket(p)));
        let (mut x0, mut y0, mut x1, mut y1) = (i64::MAX, i64::MAX, i64::MIN, i64::MIN);
        for &(bx, by) in &buckets {
            (x0, y0, x1, y1) = (x0.min(bx), y0.min(by), x1.max(bx), y1.max(by));
        }
        let (columns, rows) = (x1.saturating_sub(x0) + 1, y1.saturating_sub(y0) + 1);
        let roomy = (8 * positions.len() as i64).max(64);
        let table = if !buckets.is_empty() && columns <= roomy && rows <= roomy / columns {
            self.dense = Some((x0, y0, columns, rows));
            (columns * rows) as usize
        } else {
            self.dense = None;
            (positions.len() * 2).next_power_of_two().max(64)
        };
        self.mask = table - 1;
        let mut slots = std::mem::take(&mut self.slots);
        slots.clear();
        slots.extend(buckets.iter().map(|&b| self.slot_of(b) as u32));
        self.slots = slots;
        self.buckets = buckets;
        self.starts.clear();
        self.starts.resize(table + 1, 0);
        for &slot in &self.slots {
            self.starts[slot as usize + 1] += 1;
        }
        for i in 0..table {
            self.starts[i + 1] += self.starts[i];
        }
        let mut next = self.starts.clone();
        self.order.clear();
        self.order.resize(positions.len(), 0);
        for (unit, &slot) in self.slots.iter().enumerate() {
            let at = &mut next[slot as usize];
            self.order[*at as usize] = unit as u32;
            *at += 1;
        }
        self.sorted.clear();
        self.sorted.extend(
            self.order
                .iter()
                .map(|&u| (self.buckets[u as usize], positions[u as usize])),
        );
    }

    fn bucket(&self, p: Vec2) -> (i64, i64) {
        (
            (p.x / self.size).floor() as i64,
            (p.y / self.size).floor() as i64,
        )
    }

    /// The slot of a bucket; in a box of buckets, `usize::MAX` for one outside it.
    fn slot_of(&self, (bx, by): (i64, i64)) -> usize {
        if let Some((x0, y0, columns, rows)) = self.dense {
            let (dx, dy) = (bx.wrapping_sub(x0), by.wrapping_sub(y0));
            return if (0..columns).contains(&dx) && (0..rows).contains(&dy) {
                (dy * columns + dx) as usize
            } else {
                usize::MAX
            };
        }
        let h = (bx as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ (by as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        ((h ^ (h >> 29)) as usize) & self.mask
    }

    /// Calls `visit` with every unit in bucket `(bx, by)` and its position.
    fn in_bucket(&self, bucket: (i64, i64), visit: &mut impl FnMut(usize, Vec2)) {
        let slot = self.slot_of(bucket);
        if slot == usize::MAX {
            return;
        }
        let (from, to) = (self.starts[slot] as usize, self.starts[slot + 1] as usize);
        for (k, &(b, p)) in self.sorted[from..to].iter().enumerate() {
            if b == bucket {
                visit(self.order[from + k] as usize, p);
            }
        }
    }

    /// The `k` units nearest `p` within `limit` (leaving out `me`), nearest first, as pairs of
    /// squared distance and unit, ties broken by the unit's index. Searches rings of buckets outwards and stops as soon as no
    /// nearer unit can lie farther out.
    pub fn nearest(&self, p: Vec2, me: usize, k: usize, limit: f64, out: &mut Vec<(f64, usize)>) {
        out.clear();
        if self.order.is_empty() || k == 0 {
            return;
        }
        let (bx, by) = self.bucket(p);
        let limit_sq = limit * limit;
        // How far p lies inside its bucket from the nearest side: ring r is at least
        // (r − 1) · size + that far.
        let inner = {
            let fx = p.x / self.size - bx as f64;
            let fy = p.y / self.size - by as f64;
            fx.min(1.0 - fx).min(fy).min(1.0 - fy).max(0.0) * self.size
        };
        let max_ring = (limit / self.size).ceil() as i64 + 1;
        let consider = |out: &mut Vec<(f64, usize)>, unit: usize, q: Vec2| {
            if unit == me {
                return;
            }
            let d_sq = (q - p).length_sq();
            if d_sq >= limit_sq || (out.len() == k && (d_sq, unit) >= out[k - 1]) {
                return;
            }
            let at = out.partition_point(|&e| e < (d_sq, unit));
            if out.len() == k {
                out.pop();
            }
            out.insert(at, (d_sq, unit));
        };
        for ring in 0..=max_ring {
            if ring > 0 {
                let reach = (ring - 1) as f64 * self.size + inner;
                let worst = if out.len() == k {
                    out[k - 1].0
                } else {
                    limit_sq
                };
                if reach * reach > worst {
                    break;
                }
            }
            let mut visit = |unit: usize, q: Vec2| consider(out, unit, q);
            if ring == 0 {
                self.in_bucket((bx, by), &mut visit);
                continue;
            }
            for d in -ring..=ring {
                self.in_bucket((bx + d, by - ring), &mut visit);
                self.in_bucket((bx + d, by + ring), &mut visit);
            }
            for d in 1 - ring..ring {
                self.in_bucket((bx - ring, by + d), &mut visit);
                self.in_bucket((bx + ring, by + d), &mut visit);
            }
        }
    }

    /// Calls `visit` once with every unit in the 3 × 3 buckets around `p`: all those within
    /// the bucket size, and some beyond (the caller filters by distance).
    pub fn around(&self, p: Vec2, mut visit: impl FnMut(usize)) {
        if self.order.is_empty() {
            return;
        }
        let (bx, by) = self.bucket(p);
        for dy in -1..=1 {
            for dx in -1..=1 {
                self.in_bucket((bx + dx, by + dy), &mut |unit, _| visit(unit));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_unit_within_the_bucket_size_is_visited_once() {
        let mut state = 7u64;
        let mut next = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let positions: Vec<Vec2> = (0..500)
            .map(|_| Vec2::new(next() * 200.0 - 100.0, next() * 200.0 - 100.0))
            .collect();
        let mut index = NeighbourIndex::default();
        index.rebuild(&positions, 10.0);
        for &p in positions.iter().take(50) {
            let mut seen = Vec::new();
            index.around(p, |u| seen.push(u));
            let mut unique = seen.clone();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(unique.len(), seen.len());
            // The five nearest within 7, against sorting them all.
            let me = positions.iter().position(|&q| q == p).expect("a unit");
            let mut all: Vec<(f64, usize)> = positions
                .iter()
                .enumerate()
                .filter(|&(u, q)| u != me && p.distance(*q) < 7.0)
                .map(|(u, &q)| ((q - p).length_sq(), u))
                .collect();
            all.sort_by(|a, b| a.partial_cmp(b).expect("numbers"));
            all.truncate(5);
            let mut near = Vec::new();
            index.nearest(p, me, 5, 7.0, &mut near);
            assert_eq!(near, all);
            for (u, &q) in positions.iter().enumerate() {
                if p.distance(q) <= 10.0 {
                    assert!(seen.contains(&u));
                }
            }
        }
    }
}
