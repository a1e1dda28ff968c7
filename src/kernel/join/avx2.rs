//! The `join-avx2` kernel: the join ([`super`]) with vectors of 256
//! patterns (`matcher.rs`): `vpor` of an item's slices, then a
//! popcount of the conflict bits in the vector unit (`vpshufb` on nibbles,
//! bytes summed over a group of vectors, `vpsadbw` into four 64-bit sums).
//! The patterns are sliced four at a time: `vpsllvq` moves bit `b` of four
//! patterns to their signs, `vmovmskpd` gathers them.
//! `tests/disassembly.rs` checks that these instructions are there.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi8, _mm256_add_epi64, _mm256_and_si256, _mm256_castsi256_pd,
    _mm256_extract_epi64, _mm256_loadu_si256, _mm256_movemask_pd, _mm256_or_si256, _mm256_sad_epu8,
    _mm256_set1_epi8, _mm256_set1_epi64x, _mm256_setr_epi8, _mm256_setzero_si256,
    _mm256_shuffle_epi8, _mm256_sllv_epi64, _mm256_srli_epi16, _mm256_storeu_si256,
};

use super::words::PatternWords;

super::join_kernel!(
    /// The `join-avx2` kernel. Holding one proves this CPU (and its operating
    /// system) runs AVX2.
    JoinAvx2,
    __m256i
);

// SAFETY (every method): inlined into `count_chunk`, which enables AVX2; the
// callers keep the pointer contracts written on the trait.
impl PatternWords for __m256i {
    const WORDS: usize = 4;

    #[inline(always)]
    unsafe fn zero() -> __m256i {
        // SAFETY: AVX2 runs: this inlines into `count_chunk`, compiled with it (the note on the
        // impl); registers only.
        unsafe { _mm256_setzero_si256() }
    }

    #[inline(always)]
    unsafe fn or_load(self, words: *const u64) -> __m256i {
        // SAFETY: AVX2 runs: this inlines into `count_chunk`, compiled with it (the note on the
        // impl); `words` points at 4 readable `u64`s (the trait's contract), and `loadu` takes any
        // alignment.
        unsafe { _mm256_or_si256(self, _mm256_loadu_si256(words.cast())) }
    }

    /// Set bits per byte by a nibble table (`vpshufb`), summed in bytes
    /// over the group (at most 8 vectors of at most 8 bits a byte: no
    /// overflow), then into the four 64-bit sums (`vpsadbw`).
    #[inline(always)]
    unsafe fn add_counts<const G: usize>(sum: __m256i, hits: [__m256i; G]) -> __m256i {
        // SAFETY: AVX2 runs: this inlines into `count_chunk`, compiled with it (the note on the
        // impl); registers only.
        unsafe {
            let nibble_bits = _mm256_setr_epi8(
                0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3,
                2, 3, 3, 4,
            );
            let low_nibble = _mm256_set1_epi8(0x0f);
            let mut bytes = _mm256_setzero_si256();
            for hit in hits {
                let low = _mm256_and_si256(hit, low_nibble);
                let high = _mm256_and_si256(_mm256_srli_epi16::<4>(hit), low_nibble);
                bytes = _mm256_add_epi8(bytes, _mm256_shuffle_epi8(nibble_bits, low));
                bytes = _mm256_add_epi8(bytes, _mm256_shuffle_epi8(nibble_bits, high));
            }
            _mm256_add_epi64(sum, _mm256_sad_epu8(bytes, _mm256_setzero_si256()))
        }
    }

    #[inline(always)]
    unsafe fn store(self, words: *mut u64) {
        // SAFETY: AVX2 runs: this inlines into `count_chunk`, compiled with it (the note on the
        // impl); `words` points at 4 writable `u64`s (the trait's contract), and `storeu` takes
        // any alignment.
        unsafe { _mm256_storeu_si256(words.cast(), self) }
    }

    #[inline(always)]
    unsafe fn total(sum: __m256i) -> u64 {
        // SAFETY: AVX2 runs: this inlines into `count_chunk`, compiled with it (the note on the
        // impl); registers only.
        unsafe {
            (_mm256_extract_epi64::<0>(sum)
                + _mm256_extract_epi64::<1>(sum)
                + _mm256_extract_epi64::<2>(sum)
                + _mm256_extract_epi64::<3>(sum)) as u64
        }
    }

    /// Four patterns at a time: `vpsllvq` moves bit `b` to their signs,
    /// `vmovmskpd` gathers the four signs.
    #[inline(always)]
    unsafe fn slice(
        patterns: &[u64],
        union: u64,
        row: &[usize; 64],
        stride: usize,
        words: &mut [u64],
    ) {
        let mut lanes = [[0u64; 4]; 16];
        for (four, masks) in lanes.iter_mut().zip(patterns.chunks(4)) {
            four[..masks.len()].copy_from_slice(masks);
        }
        // Loops, not closures: a closure would be compiled apart from the
        // `#[target_feature]` function this inlines into.
        // SAFETY: AVX2 runs: this inlines into `count_chunk`, compiled with it (the note on the
        // impl); registers only.
        let mut vectors = [unsafe { _mm256_setzero_si256() }; 16];
        for (vector, four) in vectors.iter_mut().zip(&lanes) {
            // SAFETY: `four` is 32 readable bytes; `loadu` takes any
            // alignment.
            *vector = unsafe { _mm256_loadu_si256(four.as_ptr().cast()) };
        }
        let used = patterns.len().div_ceil(4);
        let mut rest = union;
        while rest != 0 {
            let bit = rest.trailing_zeros();
            rest &= rest - 1;
            // SAFETY: AVX2 runs: this inlines into `count_chunk`, compiled with it (the note on the
            // impl); registers only.
            let to_sign = unsafe { _mm256_set1_epi64x(i64::from(63 - bit)) };
            let mut word = 0u64;
            for (k, &v) in vectors[..used].iter().enumerate() {
                // SAFETY: AVX2 runs: this inlines into `count_chunk`, compiled with it (the note on
                // the impl); registers only.
                let signs = unsafe {
                    _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_sllv_epi64(v, to_sign)))
                };
                word |= (signs as u64) << (4 * k);
            }
            words[row[bit as usize] * stride] |= word;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::join::matcher::check_against_the_oracle;
    use crate::kernel::join::{Joiner, Scratch};

    #[test]
    fn the_avx2_matcher_agrees_with_testing_every_pair() {
        let Some(cpu) = JoinAvx2::new() else {
            crate::kernel::join::skip_missing(crate::Kernel::JoinAvx2);
            return;
        };
        let mut scratch = Scratch::default();
        check_against_the_oracle(|items, patterns, weighing| {
            cpu.disjoint_pairs(items, patterns, weighing, &mut scratch)
        });
    }
}
