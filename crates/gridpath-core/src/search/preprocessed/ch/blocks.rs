//! The searched edges of each rank by blocks of eight depths, for relaxing up to eight of
//! them at once where the processor has AVX-512.
//!
//! A rank's searched edges lead to its ancestors in the elimination tree, and a query keeps
//! its costs and links by depth (see `Side`). The heads of one rank are far from spread at
//! random: those of the ranks the queries relax most, in the upper separators, cover an
//! eighth to a half of the depths between the first and the last, and on the weighted maps
//! from 256² to 1024² all the searched heads fall into 0.28–0.29 blocks of eight consecutive
//! depths per edge. For each such block a rank keeps one 32-bit word: the block's number
//! and which of its eight depths are heads. A relaxation takes a block at a time: it expands
//! the row's next costs into the lanes of the block's heads, adds the rank's cost, compares
//! the eight costs of the block's depths and stores the costs and links of the lanes that
//! fall. That is a few instructions for a block, where one edge at a time takes about a dozen
//! for each.
//!
//! The blocks of a rank run from the deepest up, as its edges do, but within a block the
//! costs are kept from the shallowest head up (the build turns each block's run of costs
//! round, [`Blocks::runs`]), the order of the lanes, so that the expanding load puts each
//! head's cost in its own depth's lane. The sums and comparisons are those of one edge at a
//! time, so the answers are the same to the last bit.
//!
//! The words, 4 bytes a block (about 1.1 bytes a searched edge), are built only where the
//! processor can use them, and there they take the place of the searched edges' heads (2
//! bytes each): unpacking finds an edge among a rank's searched ones by counting heads in the
//! words ([`Blocks::position`]), and the hierarchy keeps heads only for the edges it keeps to
//! unpack shortcuts alone.

use super::costs::{HALF, MASK, Row, Scale};
use crate::search::preprocessed::huge_pages;

/// What a hierarchy keeps to relax its searched edges by blocks: each rank's words are
/// `words[first[r]..first[r + 1]]`, from the deepest block up, each with the block's number
/// in its top 16 bits and the heads in the low 8 (bit `i`: depth `8 × block + i`).
#[derive(Debug)]
pub(super) struct Blocks {
    first: Vec<u32>,
    words: Vec<u32>,
    /// The length of the query's arrays the relaxations write: the tree's height rounded up
    /// to whole blocks.
    lanes: usize,
}

/// The length of a query's arrays of costs and links by depth for a tree `height` high:
/// whole blocks of eight, which the relaxations by blocks read and write.
pub(super) fn padded(height: usize) -> usize {
    height.next_multiple_of(8)
}

impl Blocks {
    /// The words for the searched edges of every rank (`head[first[r]..][..start[r + 1] -
    /// start[r]]`, depths, sorted from the deepest up, each below `height`), or `None` when
    /// the processor cannot relax by blocks (no AVX-512, or not x86-64).
    pub(super) fn build(first: &[u32], start: &[u32], head: &[u16], height: usize) -> Option<Self> {
        if !available() {
            return None;
        }
        Some(Self::words(first, start, head, height))
    }

    /// The words, whatever the processor.
    fn words(first: &[u32], start: &[u32], head: &[u16], height: usize) -> Self {
        let ranks = start.len() - 1;
        let mut blocks = Self {
            first: Vec::with_capacity(ranks + 1),
            words: Vec::new(),
            lanes: padded(height),
        };
        blocks.first.push(0);
        for r in 0..ranks {
            let from = first[r] as usize;
            let searched = (start[r + 1] - start[r]) as usize;
            let mut word: Option<(u32, u8)> = None;
            for &h in &head[from..from + searched] {
                assert!(usize::from(h) < height, "every head lies within the tree");
                let (block, bit) = (u32::from(h) / 8, 1u8 << (h % 8));
                word = match word {
                    Some((b, heads)) if b == block => Some((b, heads | bit)),
                    Some(done) => {
                        blocks.words.push(Self::word(done));
                        Some((block, bit))
                    }
                    None => Some((block, bit)),
                };
            }
            blocks.words.extend(word.map(Self::word));
            blocks.first.push(blocks.words.len() as u32);
            // What the relaxations rely on to read the row's costs unchecked: one cost a
            // head, the heads strictly from the deepest up.
            let words = &blocks.words[blocks.first[r] as usize..];
            assert_eq!(
                words
                    .iter()
                    .map(|&w| (w as u8).count_ones() as usize)
                    .sum::<usize>(),
                searched,
                "one head for each searched edge, each in one block"
            );
        }
        blocks.words.shrink_to_fit();
        blocks
    }

    /// Where the edge from rank `r` to the depth `key` stands among `r`'s searched edges, if
    /// it is one: the heads before it in the row's words, deeper blocks first and, within a
    /// block, deeper heads first.
    pub(super) fn position(&self, r: usize, key: u16) -> Option<usize> {
        let (block, bit) = (u32::from(key) / 8, key % 8);
        let mut before = 0;
        for &word in &self.words[self.first[r] as usize..self.first[r + 1] as usize] {
            let heads = word as u8;
            match (word >> 16).cmp(&block) {
                std::cmp::Ordering::Greater => before += heads.count_ones() as usize,
                std::cmp::Ordering::Equal => {
                    let deeper = u8::MAX.checked_shl(u32::from(bit) + 1).unwrap_or(0);
                    return (heads >> bit & 1 == 1)
                        .then(|| before + (heads & deeper).count_ones() as usize);
                }
                std::cmp::Ordering::Less => return None,
            }
        }
        None
    }

    /// The heads of rank `r`'s searched edges, from the deepest up, as the words hold them.
    #[cfg(test)]
    pub(super) fn heads(&self, r: usize) -> Vec<u16> {
        let mut heads = Vec::new();
        for &word in &self.words[self.first[r] as usize..self.first[r + 1] as usize] {
            let block = (word >> 16) as u16 * 8;
            heads.extend(
                (0..8)
                    .rev()
                    .filter(|i| word >> i & 1 == 1)
                    .map(|i| block + i),
            );
        }
        heads
    }

    fn word((block, heads): (u32, u8)) -> u32 {
        block << 16 | u32::from(heads)
    }

    /// Calls `f` with the range of the costs of each block's heads, rank after rank: the
    /// costs, in the order of the heads, are each block's to turn round.
    pub(super) fn runs(&self, start: &[u32], mut f: impl FnMut(std::ops::Range<usize>)) {
        for (words, &from) in self.first.windows(2).zip(start) {
            let mut at = from as usize;
            for &word in &self.words[words[0] as usize..words[1] as usize] {
                let n = (word as u8).count_ones() as usize;
                f(at..at + n);
                at += n;
            }
        }
    }

    /// The bytes the words take.
    pub(super) fn bytes(&self) -> usize {
        (self.first.capacity() + self.words.capacity()) * size_of::<u32>()
    }

    /// Asks for huge pages under the blocks (see [`huge_pages`]).
    pub(super) fn back_with_huge_pages(&self) {
        huge_pages::back(&self.first);
        huge_pages::back(&self.words);
    }

    /// Relaxes the searched edges of rank `x` at depth `dx`, reached at cost `d`, whose costs
    /// are `row` (sorted by rank, one a head): each head's cost and link fall to `d +` the
    /// edge's cost and `dx` where that is cheaper, as one edge at a time does.
    #[inline]
    pub(super) fn relax(
        &self,
        x: usize,
        (d, dx): (f64, u32),
        row: Row,
        dist: &mut [f64],
        link: &mut [u32],
    ) {
        let words = &self.words[self.first[x] as usize..self.first[x + 1] as usize];
        assert!(dist.len() == self.lanes && link.len() == self.lanes);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the words exist only where the processor has AVX-512 F and VL and POPCNT
        // (`build`); each block lies within the arrays (`lanes` covers the tree's height in
        // whole blocks, and the build asserted every head below the height), and the row's
        // words hold one head for each of its costs (asserted by the build), so the expanding
        // loads read within the row.
        unsafe {
            let (dist, link) = (dist.as_mut_ptr(), link.as_mut_ptr());
            match row {
                Row::Wide(costs) => relax_avx512(words, (d, dx), Wide(costs.as_ptr()), dist, link),
                Row::Counted(counts, scale) => {
                    relax_avx512(words, (d, dx), Counted(counts.as_ptr(), scale), dist, link);
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (words, d, dx, row, dist, link);
    }
}

/// Whether the processor can relax by blocks: AVX-512 F and VL, and POPCNT.
fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Where a relaxation by blocks reads the row's costs, the deepest head's first.
#[cfg(target_arch = "x86_64")]
trait Lanes: Copy {
    /// The row's next costs, one for each bit of `heads` from the lowest, into the lanes of
    /// those bits (the others 0), and the place of the costs after them.
    ///
    /// # Safety
    /// The processor has AVX-512 F and VL and POPCNT; the row holds as many costs from here
    /// on as `heads` has bits.
    unsafe fn expand(self, heads: u8) -> (std::arch::x86_64::__m512d, Self);
}

#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Wide(*const f64);

#[cfg(target_arch = "x86_64")]
impl Lanes for Wide {
    #[inline(always)]
    unsafe fn expand(self, heads: u8) -> (std::arch::x86_64::__m512d, Self) {
        use std::arch::x86_64::_mm512_maskz_expandloadu_pd;
        // SAFETY: as the trait's contract says.
        unsafe {
            let costs = _mm512_maskz_expandloadu_pd(heads, self.0);
            (costs, Wide(self.0.add(heads.count_ones() as usize)))
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Counted(*const u32, Scale);

#[cfg(target_arch = "x86_64")]
impl Lanes for Counted {
    #[inline(always)]
    unsafe fn expand(self, heads: u8) -> (std::arch::x86_64::__m512d, Self) {
        use std::arch::x86_64::{
            _mm256_and_si256, _mm256_maskz_expandloadu_epi32, _mm256_set1_epi32, _mm256_srli_epi32,
            _mm512_add_pd, _mm512_cvtepu32_pd, _mm512_mul_pd, _mm512_set1_pd,
        };
        let Counted(next, scale) = self;
        // SAFETY: as the trait's contract says.
        unsafe {
            let words = _mm256_maskz_expandloadu_epi32(heads, next.cast());
            let straight = _mm256_and_si256(words, _mm256_set1_epi32(MASK as i32));
            let diagonal = _mm256_srli_epi32::<{ HALF as i32 }>(words);
            // As `Scale::cost`: two products and their sum.
            let (a, b) = scale.factors();
            let costs = _mm512_add_pd(
                _mm512_mul_pd(_mm512_cvtepu32_pd(straight), _mm512_set1_pd(a)),
                _mm512_mul_pd(_mm512_cvtepu32_pd(diagonal), _mm512_set1_pd(b)),
            );
            (costs, Counted(next.add(heads.count_ones() as usize), scale))
        }
    }
}

/// The relaxation by blocks (see the module documentation). Where a block's costs start
/// follows from the heads of the blocks before it, a count of bits on the loop's one chain
/// from block to block: POPCNT counts them in one instruction where the bit tricks that
/// stand in for it without took a dozen (queries 3–5% faster at weighted 512²).
///
/// # Safety
/// The processor has AVX-512 F and VL and POPCNT; every word's block lies within `dist` and
/// `link`, and the words' heads number no more than the costs from `costs` on.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,popcnt")]
unsafe fn relax_avx512(
    words: &[u32],
    (d, dx): (f64, u32),
    costs: impl Lanes,
    dist: *mut f64,
    link: *mut u32,
) {
    use std::arch::x86_64::{
        _CMP_LT_OQ, _mm256_mask_storeu_epi32, _mm256_set1_epi32, _mm512_add_pd, _mm512_loadu_pd,
        _mm512_mask_cmp_pd_mask, _mm512_mask_storeu_pd, _mm512_set1_pd,
    };
    let from = _mm512_set1_pd(d);
    let tail = _mm256_set1_epi32(dx as i32);
    let mut next = costs;
    for &word in words {
        let block = (word >> 16) as usize * 8;
        let heads = word as u8;
        // SAFETY: as the function's contract says.
        unsafe {
            // The row's next costs, the block's shallowest head's first, into the lanes of
            // the heads: each head's cost in its own depth's lane.
            let (cost, after) = next.expand(heads);
            next = after;
            let through = _mm512_add_pd(cost, from);
            let old = _mm512_loadu_pd(dist.add(block));
            let better = _mm512_mask_cmp_pd_mask::<_CMP_LT_OQ>(heads, through, old);
            _mm512_mask_storeu_pd(dist.add(block), better, through);
            _mm256_mask_storeu_epi32(link.add(block).cast::<i32>(), better, tail);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_hold_each_rows_heads_by_block_from_the_deepest_up() {
        // Rank 0: depths 17, 16, 9, 3; rank 1: none; rank 2: depth 7 (an unpacking edge
        // after it, not searched).
        let head = [17u16, 16, 9, 3, 7, 2];
        let first = [0u32, 4, 4, 6];
        let start = [0u32, 4, 4, 5];
        let blocks = Blocks::words(&first, &start, &head, 18);
        assert_eq!(blocks.first, [0, 3, 3, 4]);
        let word = |block: u32, heads: u8| block << 16 | u32::from(heads);
        assert_eq!(
            blocks.words,
            [
                word(2, 0b11),
                word(1, 0b10),
                word(0, 0b1000),
                word(0, 0b1000_0000)
            ]
        );
        assert_eq!(blocks.lanes, 24);
        assert_eq!(blocks.heads(0), [17, 16, 9, 3]);
        assert_eq!(blocks.heads(1), Vec::<u16>::new());
        assert_eq!(blocks.heads(2), [7]);
        let found: Vec<Option<usize>> = (0..19).map(|key| blocks.position(0, key)).collect();
        let mut want = vec![None; 19];
        for (j, &h) in [17, 16, 9, 3].iter().enumerate() {
            want[h] = Some(j);
        }
        assert_eq!(found, want);
        assert_eq!(blocks.position(2, 7), Some(0));
        assert_eq!(blocks.position(2, 2), None);
    }

    #[test]
    fn a_relaxation_by_blocks_lowers_what_one_edge_at_a_time_lowers() {
        if !available() {
            eprintln!("skipped: this processor cannot relax by blocks (no AVX-512)");
            return;
        }
        // One rank at depth 40 with heads at scattered depths below it, over arrays already
        // holding some costs; its costs as words of counts, and the `f64`s they stand for, in
        // the order of the heads (from the deepest up).
        let heads: Vec<u16> = vec![39, 38, 33, 31, 30, 29, 28, 27, 26, 25, 24, 16, 9, 8, 7, 0];
        let scale = Scale::new(0.25);
        let words: Vec<u32> = (0..heads.len() as u32)
            .map(|i| ((i * 5 + 3) << HALF) | ((i * 11 + 1) % 128))
            .collect();
        let wide: Vec<f64> = words.iter().map(|&w| scale.cost(w)).collect();
        let first = [0u32, heads.len() as u32];
        let start = first;
        let blocks = Blocks::words(&first, &start, &heads, 41);
        let lanes = padded(41);
        let before: Vec<f64> = (0..lanes)
            .map(|i| {
                if i % 3 == 0 {
                    f64::INFINITY
                } else {
                    2.0 + i as f64 * 0.05
                }
            })
            .collect();
        let links: Vec<u32> = (0..lanes as u32).map(|i| 1000 + i).collect();
        let d = 0.75;
        let (mut want_dist, mut want_link) = (before.clone(), links.clone());
        for (&h, &c) in heads.iter().zip(&wide) {
            let h = usize::from(h);
            if d + c < want_dist[h] {
                want_dist[h] = d + c;
                want_link[h] = 40;
            }
        }
        // The relaxation reads each block's costs turned round.
        let (mut turned_wide, mut turned_words) = (wide.clone(), words.clone());
        blocks.runs(&start, |run| {
            turned_wide[run.clone()].reverse();
            turned_words[run].reverse();
        });
        assert_ne!(turned_wide, wide, "some block holds more than one head");
        for row in [Row::Wide(&turned_wide), Row::Counted(&turned_words, scale)] {
            let (mut dist, mut link) = (before.clone(), links.clone());
            blocks.relax(0, (d, 40), row, &mut dist, &mut link);
            assert_eq!(
                dist.iter().map(|c| c.to_bits()).collect::<Vec<_>>(),
                want_dist.iter().map(|c| c.to_bits()).collect::<Vec<_>>()
            );
            assert_eq!(link, want_link);
            assert_ne!(dist, before, "some costs fell");
        }
    }
}
