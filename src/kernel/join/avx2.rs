//! The `join-avx2` kernel: the join ([`super`]) with vectors of 256
//! patterns (`matcher.rs`): `vpor` of an item's slices, then a
//! popcount of the conflict bits in the vector unit (`vpshufb` on nibbles,
//! bytes summed over a group of vectors, `vpsadbw` into four 64-bit sums).
//! The patterns are sliced 64 at a time: their bytes transposed
//! (`vpermd`, `vpshufb` and a transpose of 32-bit words), then `vpsllw`
//! moves bit `t` of every byte `j` to its top and `vpmovmskb` gathers 32 of
//! them, half a word of slice `8j + t`.
//! `cli/tests/program/disassembly.rs` checks that these instructions are there.

use core::arch::x86_64::{
    __m256i, _mm_cvtsi32_si128, _mm256_add_epi8, _mm256_add_epi64, _mm256_and_si256,
    _mm256_extract_epi64, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256,
    _mm256_permute2x128_si256, _mm256_permutevar8x32_epi32, _mm256_sad_epu8, _mm256_set1_epi8,
    _mm256_setr_epi8, _mm256_setr_epi32, _mm256_setzero_si256, _mm256_shuffle_epi8,
    _mm256_sll_epi16, _mm256_srli_epi16, _mm256_storeu_si256, _mm256_unpackhi_epi32,
    _mm256_unpackhi_epi64, _mm256_unpacklo_epi32, _mm256_unpacklo_epi64,
};

use super::words::PatternWords;

super::join_kernel!(
    /// The `join-avx2` kernel. Holding one proves this CPU (and its operating
    /// system) runs AVX2.
    JoinAvx2,
    __m256i
);

// SAFETY (every method): inlined into `count_row_sets`, which enables AVX2; the
// callers keep the pointer contracts written on the trait.
impl PatternWords for __m256i {
    const WORDS: usize = 4;

    #[inline(always)]
    unsafe fn zero() -> __m256i {
        // SAFETY: AVX2 runs: this inlines into `count_row_sets`, compiled with it (the note on the
        // impl); registers only.
        unsafe { _mm256_setzero_si256() }
    }

    #[inline(always)]
    unsafe fn or_load(self, words: *const u64) -> __m256i {
        // SAFETY: AVX2 runs: this inlines into `count_row_sets`, compiled with it (the note on the
        // impl); `words` points at 4 readable `u64`s (the trait's contract), and `loadu` takes any
        // alignment.
        unsafe { _mm256_or_si256(self, _mm256_loadu_si256(words.cast())) }
    }

    /// Set bits per byte by a nibble table (`vpshufb`), summed in bytes
    /// over the group (at most 8 vectors of at most 8 bits a byte: no
    /// overflow), then into the four 64-bit sums (`vpsadbw`).
    #[inline(always)]
    unsafe fn add_counts<const G: usize>(sum: __m256i, hits: [__m256i; G]) -> __m256i {
        // SAFETY: AVX2 runs: this inlines into `count_row_sets`, compiled with it (the note on the
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
        // SAFETY: AVX2 runs: this inlines into `count_row_sets`, compiled with it (the note on the
        // impl); `words` points at 4 writable `u64`s (the trait's contract), and `storeu` takes
        // any alignment.
        unsafe { _mm256_storeu_si256(words.cast(), self) }
    }

    #[inline(always)]
    unsafe fn total(sum: __m256i) -> u64 {
        // SAFETY: AVX2 runs: this inlines into `count_row_sets`, compiled with it (the note on the
        // impl); registers only.
        unsafe {
            (_mm256_extract_epi64::<0>(sum)
                + _mm256_extract_epi64::<1>(sum)
                + _mm256_extract_epi64::<2>(sum)
                + _mm256_extract_epi64::<3>(sum)) as u64
        }
    }

    /// All 64 patterns at once, 32 in each of two halves ([`bytes_of_32`]):
    /// a vector holds byte `j` of 32 patterns, and `vpsllw` then `vpmovmskb`
    /// give bit `t` of each byte, half a word of slice `8j + t`.
    #[inline(always)]
    unsafe fn slice(
        patterns: &[u64],
        union: u64,
        row: &[usize; 64],
        stride: usize,
        words: &mut [u64],
    ) {
        let mut lanes = [0u64; 64];
        lanes[..patterns.len()].copy_from_slice(patterns);
        // SAFETY: AVX2 runs: this inlines into `count_row_sets`, compiled with it (the note on the
        // impl); `lanes` holds 64 masks, 32 for each half.
        let halves = unsafe { [bytes_of_32(&lanes[..32]), bytes_of_32(&lanes[32..])] };
        let mut rest = union;
        while rest != 0 {
            let bit = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let mut word = 0u64;
            for (half, bytes) in halves.iter().enumerate() {
                // SAFETY: AVX2 runs: this inlines into `count_row_sets`, compiled with it (the note
                // on the impl); registers only. A 16-bit shift moves bit `t` of both its bytes
                // to their tops (the low byte's bits that cross into the high byte stop below
                // its top).
                let signs = unsafe {
                    _mm256_movemask_epi8(_mm256_sll_epi16(
                        bytes[bit / 8],
                        _mm_cvtsi32_si128(7 - (bit % 8) as i32),
                    ))
                };
                word |= u64::from(signs as u32) << (32 * half);
            }
            words[row[bit] * stride] |= word;
        }
    }
}

/// 32 patterns, byte by byte: byte `i` of vector `j` is byte `j` of
/// pattern `i`. Each vector of four patterns first has its low halves
/// moved to its low lane and its high halves to its high one (`vpermd`),
/// then each lane's 4 x 4 bytes transposed (`vpshufb`), so that its
/// 32-bit word `j` is byte `j` of the four; then a transpose of the 8 x 8
/// 32-bit words (`vpunpck[lh]dq`, `vpunpck[lh]qdq`, `vperm2i128`).
///
/// # Safety
///
/// The CPU runs AVX2; `patterns` holds 32 masks.
#[inline(always)]
unsafe fn bytes_of_32(patterns: &[u64]) -> [__m256i; 8] {
    debug_assert_eq!(patterns.len(), 32);
    // SAFETY: the caller's CPU; each load reads four of the 32 masks,
    // unaligned.
    unsafe {
        let halves = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
        let transpose = _mm256_setr_epi8(
            0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 0, 4, 8, 12, 1, 5, 9, 13, 2, 6,
            10, 14, 3, 7, 11, 15,
        );
        let mut y = [_mm256_setzero_si256(); 8];
        for (k, vector) in y.iter_mut().enumerate() {
            let four = _mm256_loadu_si256(patterns.as_ptr().add(4 * k).cast());
            *vector = _mm256_shuffle_epi8(_mm256_permutevar8x32_epi32(four, halves), transpose);
        }
        let mut t = [_mm256_setzero_si256(); 8];
        for pair in 0..4 {
            t[2 * pair] = _mm256_unpacklo_epi32(y[2 * pair], y[2 * pair + 1]);
            t[2 * pair + 1] = _mm256_unpackhi_epi32(y[2 * pair], y[2 * pair + 1]);
        }
        let mut u = [_mm256_setzero_si256(); 8];
        for quad in 0..2 {
            let (a, b, c, d) = (
                t[4 * quad],
                t[4 * quad + 1],
                t[4 * quad + 2],
                t[4 * quad + 3],
            );
            u[4 * quad] = _mm256_unpacklo_epi64(a, c);
            u[4 * quad + 1] = _mm256_unpackhi_epi64(a, c);
            u[4 * quad + 2] = _mm256_unpacklo_epi64(b, d);
            u[4 * quad + 3] = _mm256_unpackhi_epi64(b, d);
        }
        let mut out = [_mm256_setzero_si256(); 8];
        for j in 0..4 {
            out[j] = _mm256_permute2x128_si256::<0x20>(u[j], u[j + 4]);
            out[j + 4] = _mm256_permute2x128_si256::<0x31>(u[j], u[j + 4]);
        }
        out
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
