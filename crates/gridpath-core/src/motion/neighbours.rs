//! Which units are near which: a spatial hash of square buckets, rebuilt every step by a
//! counting sort, so a step costs time in proportion to the units however far apart they are.

use super::vector::Vec2;

/// Units sorted into hashed buckets of `size` × `size`.
#[derive(Clone, Debug, Default)]
pub struct NeighbourIndex {
    size: f64,
    mask: usize,
    /// For each slot, the range of `order` holding the units hashed there.
    starts: Vec<u32>,
    order: Vec<u32>,
    slots: Vec<u32>,
}

impl NeighbourIndex {
    /// Sorts `positions` into buckets of `size` (at least the farthest any query reaches).
    pub fn rebuild(&mut self, positions: &[Vec2], size: f64) {
        self.size = size.max(1e-6);
        let table = (positions.len() * 2).next_power_of_two().max(64);
        self.mask = table - 1;
        let mut slots = std::mem::take(&mut self.slots);
        slots.clear();
        slots.extend(
            positions
                .iter()
                .map(|&p| self.slot_of(self.bucket(p)) as u32),
        );
        self.slots = slots;
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
    }

    fn bucket(&self, p: Vec2) -> (i64, i64) {
        (
            (p.x / self.size).floor() as i64,
            (p.y / self.size).floor() as i64,
        )
    }

    fn slot_of(&self, (bx, by): (i64, i64)) -> usize {
        let h = (bx as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ (by as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        ((h ^ (h >> 29)) as usize) & self.mask
    }

    /// Calls `visit` with every unit in the 3 × 3 buckets around `p` — all those within the
    /// bucket size, and some beyond (and, where buckets share a slot, some twice over: the
    /// caller filters by distance and skips repeats if it must).
    pub fn around(&self, p: Vec2, mut visit: impl FnMut(usize)) {
        if self.order.is_empty() {
            return;
        }
        let (bx, by) = self.bucket(p);
        let mut visited = [usize::MAX; 9];
        let mut k = 0;
        for dy in -1..=1 {
            for dx in -1..=1 {
                let slot = self.slot_of((bx + dx, by + dy));
                let repeat = visited[..k].contains(&slot);
                visited[k] = slot;
                k += 1;
                if repeat {
                    continue;
                }
                let (from, to) = (self.starts[slot] as usize, self.starts[slot + 1] as usize);
                for &unit in &self.order[from..to] {
                    visit(unit as usize);
                }
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
            for (u, &q) in positions.iter().enumerate() {
                if p.distance(q) <= 10.0 {
                    assert!(seen.contains(&u));
                }
            }
        }
    }
}
