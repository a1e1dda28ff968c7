//! Counting the pairs of two sets of masks that share no bit: the join's
//! inner loop, where nearly all of its time goes.
//!
//! The patterns are stored bit-sliced: a block of `L` patterns becomes 64
//! words of `L` bits, word `b` holding bit `b` of every pattern in the
//! block. An item is then matched against the whole block at once: OR
//! together the words of the item's set bits, and lane `j` of the result
//! is set exactly when pattern `j` shares a bit with the item. Its
//! popcount is the block's conflicts with the item, for one OR per set bit
//! of the item (about `n` of them) instead of `L` tests. Lanes past the
//! last pattern stay 0 in every word, so they never count as conflicts,
//! and the pairs that share no bit are all pairs less the conflicts.

use alloc::vec::Vec;

/// Counts `items` x `patterns` pairs with `item & pattern == 0`.
pub(crate) trait Matcher {
    /// The number of pairs of an item and a pattern with no bit in common.
    fn disjoint_pairs(&mut self, items: &[u64], patterns: &[u64]) -> u64;
}

/// Slices per block, one per bit of a `u64` mask (the join's use at most
/// 62): a fixed size, so that indexing a block by a bit needs no check.
pub(crate) const SLICES: usize = 64;

/// Writes `patterns` bit-sliced into `blocks` (cleared first), `L` to a
/// block of 64 slices of `L / 64` words each. Returns the union of the
/// patterns: an item's other bits meet no pattern and need no OR.
pub(crate) fn slice<const WORDS: usize>(
    patterns: &[u64],
    blocks: &mut Vec<[[u64; WORDS]; SLICES]>,
) -> u64 {
    let lanes = 64 * WORDS;
    blocks.clear();
    blocks.resize(patterns.len().div_ceil(lanes), [[0; WORDS]; SLICES]);
    let mut union = 0;
    for (block, group) in blocks.iter_mut().zip(patterns.chunks(lanes)) {
        for (lane, &pattern) in group.iter().enumerate() {
            union |= pattern;
            let (word, bit) = (lane / 64, lane % 64);
            let mut rest = pattern;
            while rest != 0 {
                block[rest.trailing_zeros() as usize % SLICES][word] |= 1 << bit;
                rest &= rest - 1;
            }
        }
    }
    union
}

/// The positions of the set bits of `mask`, lowest first, into `bits`;
/// returns how many.
#[inline]
pub(crate) fn set_bits(mask: u64, bits: &mut [u8; 64]) -> usize {
    let mut count = 0;
    let mut rest = mask;
    while rest != 0 {
        bits[count] = rest.trailing_zeros() as u8;
        count += 1;
        rest &= rest - 1;
    }
    count
}

/// The portable matcher: 64 patterns to a block, one `u64` per slice.
#[derive(Default)]
pub(crate) struct Portable {
    blocks: Vec<[[u64; 1]; SLICES]>,
}

impl Matcher for Portable {
    fn disjoint_pairs(&mut self, items: &[u64], patterns: &[u64]) -> u64 {
        let union = slice(patterns, &mut self.blocks);
        let mut conflicts = 0u64;
        let mut bits = [0u8; 64];
        for &item in items {
            let set = set_bits(item & union, &mut bits);
            let bits = &bits[..set];
            // Four blocks at a time: each slice number read once, four ORs.
            let mut quads = self.blocks.chunks_exact(4);
            for quad in &mut quads {
                let mut hits = [0u64; 4];
                for &bit in bits {
                    let slice = usize::from(bit) % SLICES;
                    for (hit, block) in hits.iter_mut().zip(quad) {
                        *hit |= block[slice][0];
                    }
                }
                conflicts += hits.iter().map(|h| u64::from(h.count_ones())).sum::<u64>();
            }
            for block in quads.remainder() {
                let mut hit = 0u64;
                for &bit in bits {
                    hit |= block[usize::from(bit) % SLICES][0];
                }
                conflicts += u64::from(hit.count_ones());
            }
        }
        items.len() as u64 * patterns.len() as u64 - conflicts
    }
}

/// The oracle: every pair tested, one at a time.
#[cfg(test)]
pub(crate) fn disjoint_pairs_one_by_one(items: &[u64], patterns: &[u64]) -> u64 {
    let mut pairs = 0;
    for &item in items {
        pairs += patterns.iter().filter(|&&p| p & item == 0).count() as u64;
    }
    pairs
}
