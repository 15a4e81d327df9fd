//! Sorting the open list's band keys: up to 64 keys in vector registers with a bitonic
//! network where the processor has AVX-512, the standard library's sort otherwise.
//!
//! The bands of a search are small (a few to a few dozen keys) and their order is random, so a
//! comparison sort mispredicts a branch on about every other comparison. A network compares
//! the same lanes whatever the keys: eight keys per register, each step a permutation, a
//! minimum and a masked maximum, and no branch that depends on the keys. Both ways give the
//! same order, as the keys of a band are distinct.

/// The most keys the network sorts: eight registers of eight.
const NETWORK_UP_TO: usize = 64;

/// Sorts `keys` ascending.
#[inline]
pub(crate) fn sort_keys(keys: &mut [u64]) {
    #[cfg(target_arch = "x86_64")]
    if keys.len() > 1 && keys.len() <= NETWORK_UP_TO && has_avx512() {
        // SAFETY: the processor has AVX-512F, checked just above.
        unsafe { avx512::sort(keys) };
        return;
    }
    keys.sort_unstable();
}

/// Whether the network can run here (the check is cached by the standard library).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn has_avx512() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::{
        __m512i, __mmask8, _mm512_loadu_si512, _mm512_mask_max_epu64, _mm512_mask_storeu_epi64,
        _mm512_maskz_loadu_epi64, _mm512_max_epu64, _mm512_min_epu64, _mm512_permutexvar_epi64,
        _mm512_set_epi64, _mm512_setzero_si512, _mm512_storeu_si512,
    };

    /// The lane permutation that meets each lane `i` with lane `i ^ x`: its partner at
    /// distance 1, 2 or 4 for `x` 1, 2 or 4, the lanes reversed for 7.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn partners(x: i64) -> __m512i {
        // `_mm512_set_epi64` lists lanes from the highest down.
        _mm512_set_epi64(7 ^ x, 6 ^ x, 5 ^ x, 4 ^ x, 3 ^ x, 2 ^ x, 1 ^ x, x)
    }

    /// One compare-exchange step inside a register: each lane meets its partner under
    /// `partner`, and the lanes in `upper` keep the larger of the two.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn step(v: __m512i, partner: __m512i, upper: __mmask8) -> __m512i {
        let other = _mm512_permutexvar_epi64(partner, v);
        let low = _mm512_min_epu64(v, other);
        _mm512_mask_max_epu64(low, upper, v, other)
    }

    /// Sorts the eight lanes of a register ascending: a bitonic sorter, whose first phases
    /// build runs that alternate up and down (masks 0x66, then 0x3C and 0x5A).
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn sort8(v: __m512i) -> __m512i {
        let v = step(v, partners(1), 0x66);
        let v = step(v, partners(2), 0x3C);
        let v = step(v, partners(1), 0x5A);
        merge8(v)
    }

    /// Sorts a register whose lanes rise and then fall (a bitonic sequence) ascending.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn merge8(v: __m512i) -> __m512i {
        let v = step(v, partners(4), 0xF0);
        let v = step(v, partners(2), 0xCC);
        step(v, partners(1), 0xAA)
    }

    /// Sorts `R` registers as one sequence of `8 R` keys, ascending from the first lane of the
    /// first register: each register sorted, then runs of registers merged two by two, the
    /// second run reversed so that the pair is bitonic.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn sort_registers<const R: usize>(regs: &mut [__m512i; R]) {
        for r in regs.iter_mut() {
            *r = sort8(*r);
        }
        let mut size = 2;
        while size <= R {
            let half = size / 2;
            for group in (0..R).step_by(size) {
                // Reverse the second run: its registers end to end and the lanes of each.
                let second = &mut regs[group + half..group + size];
                second.reverse();
                for r in second.iter_mut() {
                    *r = _mm512_permutexvar_epi64(partners(7), *r);
                }
                // Half-cleaners across registers, lane by lane, at distances half, …, 1.
                let mut distance = half;
                while distance >= 1 {
                    for i in group..group + size {
                        if (i - group) & distance == 0 {
                            let (a, b) = (regs[i], regs[i + distance]);
                            regs[i] = _mm512_min_epu64(a, b);
                            regs[i + distance] = _mm512_max_epu64(a, b);
                        }
                    }
                    distance /= 2;
                }
                for r in &mut regs[group..group + size] {
                    *r = merge8(*r);
                }
            }
            size *= 2;
        }
    }

    /// Sorts `R` registers' worth of `keys` (more than `8 (R / 2)`, at most `8 R`): loaded
    /// with zeros past the end, which sort first and are left out.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn sort_in<const R: usize>(keys: &mut [u64]) {
        let len = keys.len();
        // The loads and stores below stay in bounds only for `len ≤ 8 R`.
        assert!(len <= 8 * R, "{len} keys for {R} registers");
        let mut regs = [_mm512_setzero_si512(); R];
        for (i, r) in regs.iter_mut().enumerate() {
            let first = 8 * i;
            if first < len {
                let lanes = (len - first).min(8);
                let mask = ((1u32 << lanes) - 1) as __mmask8;
                // SAFETY: the lanes of the mask are keys `first..first + lanes`, all in the
                // slice; the masked-off lanes are neither read nor able to fault.
                *r = unsafe { _mm512_maskz_loadu_epi64(mask, keys.as_ptr().add(first).cast()) };
            }
        }
        sort_registers(&mut regs);
        // The zeros are first: the keys are the last `len` of the `8 R`, which are read back
        // from a buffer eight keys longer, so that every load of eight is in it.
        let mut sorted = [0u64; super::NETWORK_UP_TO + 8];
        for (i, r) in regs.iter().enumerate() {
            // SAFETY: lanes `8 i..8 i + 8` of a buffer of `8 R` or more keys.
            unsafe { _mm512_storeu_si512(sorted.as_mut_ptr().add(8 * i).cast(), *r) };
        }
        let skip = 8 * R - len;
        for first in (0..len).step_by(8) {
            let lanes = (len - first).min(8);
            let mask = ((1u32 << lanes) - 1) as __mmask8;
            // SAFETY: the eight keys loaded end at `skip + first + 8 ≤ 8 R + 8`, in the
            // buffer; the lanes stored are keys `first..first + lanes`, in the slice.
            unsafe {
                let v = _mm512_loadu_si512(sorted.as_ptr().add(skip + first).cast());
                _mm512_mask_storeu_epi64(keys.as_mut_ptr().add(first).cast(), mask, v);
            }
        }
    }

    /// Sorts up to 64 keys ascending.
    ///
    /// # Safety
    /// The processor must support AVX-512F. The slice may hold at most
    /// [`NETWORK_UP_TO`](super::NETWORK_UP_TO) (64) keys: more is refused by an assertion,
    /// since the network's buffers hold no more.
    #[target_feature(enable = "avx512f")]
    pub(in crate::search) unsafe fn sort(keys: &mut [u64]) {
        match keys.len() {
            0..=8 => sort_in::<1>(keys),
            9..=16 => sort_in::<2>(keys),
            17..=32 => sort_in::<4>(keys),
            _ => sort_in::<8>(keys),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random_keys(seed: &mut u64, len: usize, spread: u64) -> Vec<u64> {
        (0..len)
            .map(|_| {
                *seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let bits = *seed ^ (*seed >> 29);
                if spread == 0 { bits } else { bits % spread }
            })
            .collect()
    }

    #[test]
    fn sorts_like_the_standard_library_at_every_length() {
        #[cfg(target_arch = "x86_64")]
        if !has_avx512() {
            println!("note: no AVX-512 on this processor; only the standard sort is checked");
        }
        let mut seed = 7u64;
        for len in 0..=NETWORK_UP_TO + 20 {
            // Full-width keys, keys with many repeats, and the extremes 0 and u64::MAX.
            for spread in [0, 3, 1000] {
                for _ in 0..20 {
                    let mut keys = random_keys(&mut seed, len, spread);
                    if len > 2 {
                        keys[0] = u64::MAX;
                        keys[len / 2] = 0;
                    }
                    let mut expected = keys.clone();
                    expected.sort_unstable();
                    sort_keys(&mut keys);
                    assert_eq!(keys, expected, "len {len}, spread {spread}");
                }
            }
        }
        // Already sorted and reversed inputs.
        for len in [7, 8, 9, 31, 32, 33, 63, 64] {
            let mut up: Vec<u64> = (0..len as u64).collect();
            let expected = up.clone();
            sort_keys(&mut up);
            assert_eq!(up, expected);
            let mut down: Vec<u64> = (0..len as u64).rev().collect();
            sort_keys(&mut down);
            assert_eq!(down, expected);
        }
    }
}
