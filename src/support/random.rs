//! SplitMix64: the seeded random numbers of the spot checks (`merge
//! --recount`) and of the sampled projections (`--sample`), the same on
//! every machine for the same seed. Not for secrets: a choice that a
//! seed repeats is what these need.

use alloc::vec::Vec;

/// Sebastiano Vigna's SplitMix64 generator.
/// `k` distinct numbers from `0..len` (all of them if `k >= len`), chosen
/// by a partial Fisher-Yates shuffle driven by SplitMix64 from `seed`:
/// the same on every machine for the same seed (`merge --recount`'s
/// subproblems, `script --cross-check`'s shards).
pub fn choose_indices(len: usize, k: usize, seed: u64) -> Vec<usize> {
    let all: Vec<usize> = (0..len).collect();
    SplitMix64::new(seed).choose(&all, k)
}

pub(crate) struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The generator that `seed` starts.
    pub(crate) fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..len` (`len` > 0). Modulo bias is below `len / 2^64`:
    /// irrelevant for the sizes here.
    pub(crate) fn below(&mut self, len: usize) -> usize {
        (self.next_u64() % len as u64) as usize
    }

    /// A number in `[0, 1)`, from the top 53 bits.
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// `k` distinct items of `from` (all of them if `k >= from.len()`),
    /// by a partial Fisher-Yates shuffle.
    pub(crate) fn choose<T: Copy>(&mut self, from: &[T], k: usize) -> Vec<T> {
        let mut pool = from.to_vec();
        let k = k.min(pool.len());
        for i in 0..k {
            let j = i + self.below(pool.len() - i);
            pool.swap(i, j);
        }
        pool.truncate(k);
        pool
    }
}
