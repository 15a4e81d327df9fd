//! A fast hasher for the searches' own keys.

use std::hash::{BuildHasherDefault, Hasher};

/// A multiply-rotate hasher for the searches' keys — the multi-agent solvers' configurations
/// (lists of vertices) and (cell, tick) keys, the pose buckets of the drive search: much faster than the standard hasher, and the keys are not chosen by an
/// adversary.
#[derive(Default, Clone, Copy)]
pub(crate) struct ConfigHasher(u64);

impl Hasher for ConfigHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
        for &b in chunks.remainder() {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }

    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }

    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
}

/// The hasher's builder, for `HashMap`.
pub(crate) type BuildConfigHasher = BuildHasherDefault<ConfigHasher>;

/// A hash map with the fast hasher.
pub(crate) type FastMap<K, V> = std::collections::HashMap<K, V, BuildConfigHasher>;
