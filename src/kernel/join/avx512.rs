//! The `join-avx512` kernel: the join ([`super`]) with vectors of 512
//! patterns (`matcher.rs`): `vporq` of an item's slices, then
//! `vpopcntq` (AVX512-VPOPCNTDQ) of the conflict bits. The patterns are
//! sliced 64 at a time: their bytes transposed (`vpshufb`, `vpermw` and a
//! transpose of 64-bit words), then `vptestmb` tests bit `t` of every
//! byte `j` into a mask register, the word of slice `8j + t`.
//! `cli/tests/program/disassembly.rs` checks that these instructions are there. All
//! but `vpopcntq` are AVX-512 F and BW (and BMI2's `pext`), and
//! `join-avx512bw` shares them (`zmm_steps!`).

use core::arch::x86_64::{
    __m512i, _mm256_loadu_si256, _mm512_add_epi64, _mm512_castsi512_si256, _mm512_cvtepu32_epi64,
    _mm512_loadu_si512, _mm512_mask_testn_epi64_mask, _mm512_maskz_compress_epi64,
    _mm512_maskz_loadu_epi32, _mm512_maskz_loadu_epi64, _mm512_or_si512, _mm512_permutex2var_epi64,
    _mm512_permutexvar_epi16, _mm512_popcnt_epi64, _mm512_reduce_add_epi64, _mm512_set_epi8,
    _mm512_set_epi16, _mm512_set_epi64, _mm512_set1_epi8, _mm512_set1_epi64, _mm512_setzero_si512,
    _mm512_shuffle_epi8, _mm512_shuffle_i64x2, _mm512_storeu_si512, _mm512_ternarylogic_epi64,
    _mm512_test_epi8_mask, _mm512_testn_epi64_mask, _mm512_unpackhi_epi64, _mm512_unpacklo_epi64,
};

use super::words::PatternWords;

super::join_kernel!(
    /// The `join-avx512` kernel. Holding one proves this CPU (and its
    /// operating system) runs AVX-512 F, BW and VPOPCNTDQ, and BMI2.
    JoinAvx512,
    __m512i
);

// SAFETY (every method): inlined into `count_row_sets`, which enables AVX-512 F
// and VPOPCNTDQ; the callers keep the pointer contracts written on the
// trait.
impl PatternWords for __m512i {
    const WORDS: usize = 8;

    #[inline(always)]
    unsafe fn zero() -> __m512i {
        // SAFETY: AVX-512 F, BW and VPOPCNTDQ run: this inlines into `count_row_sets`, compiled with them
        // (the note on the impl); registers only.
        unsafe { _mm512_setzero_si512() }
    }

    #[inline(always)]
    unsafe fn or_load(self, words: *const u64) -> __m512i {
        // SAFETY: AVX-512 F, BW and VPOPCNTDQ run: this inlines into `count_row_sets`, compiled with them
        // (the note on the impl); `words` points at 8 readable `u64`s (the trait's contract), and
        // `loadu` takes any alignment.
        unsafe { _mm512_or_si512(self, _mm512_loadu_si512(words.cast())) }
    }

    /// `vpternlogq`: one instruction ORs two rows into the hits, where two
    /// `vpord` were.
    #[inline(always)]
    unsafe fn or_load_two(self, a: *const u64, b: *const u64) -> __m512i {
        // SAFETY: AVX-512 F, BW and VPOPCNTDQ run: this inlines into `count_row_sets`, compiled with
        // them (the note on the impl); `a` and `b` point at 8 readable `u64`s each (the trait's
        // contract), and `loadu` takes any alignment.
        unsafe { or_two_512(self, a, b) }
    }

    #[inline(always)]
    unsafe fn store(self, words: *mut u64) {
        // SAFETY: AVX-512 F, BW and VPOPCNTDQ run: this inlines into `count_row_sets`, compiled with
        // them (the note on the impl); `words` points at 8 writable `u64`s (the trait's
        // contract), and `storeu` takes any alignment.
        unsafe { _mm512_storeu_si512(words.cast(), self) }
    }

    #[inline(always)]
    unsafe fn add_counts<const G: usize>(sum: __m512i, hits: [__m512i; G]) -> __m512i {
        // Loops, not closures, here and below: a closure would be compiled
        // apart from the `#[target_feature]` function these inline into.
        let mut sum = sum;
        for hit in hits {
            // SAFETY: AVX-512 F, BW and VPOPCNTDQ run: this inlines into `count_row_sets`, compiled with
            // them (the note on the impl); registers only.
            sum = unsafe { _mm512_add_epi64(sum, _mm512_popcnt_epi64(hit)) };
        }
        sum
    }

    #[inline(always)]
    unsafe fn total(sum: __m512i) -> u64 {
        // SAFETY: AVX-512 F, BW and VPOPCNTDQ run: this inlines into `count_row_sets`, compiled with them
        // (the note on the impl); registers only.
        unsafe { _mm512_reduce_add_epi64(sum) as u64 }
    }

    zmm_steps!();
}

// Shared by both 512-bit join kernels, this one and `join-avx512bw` (for
// CPUs without VPOPCNTDQ): reading a class by `pext`, and the two steps
// below, which use AVX-512 F and BW alone. The steps are free functions, not
// methods of either kernel's vector type, and `zmm_steps!` writes in each
// impl the three `PatternWords` methods that call them; all
// `#[inline(always)]`, so that each kernel compiles them inside its own
// `#[target_feature]` function.

/// The methods of [`PatternWords`] that the 512-bit join kernels share:
/// `class` by BMI2's `pext`, [`join_pairs_512`] and [`slice_512`]. Invoked
/// in an impl for a vector whose kernel's `count_row_sets` is compiled with
/// AVX-512 F and BW and BMI2, which the methods inline into.
macro_rules! zmm_steps {
    () => {
        const COMPRESSES: bool = true;

        /// `pext`, one instruction where the kernel has BMI2.
        #[inline(always)]
        unsafe fn compress(bits: u64, mask: u64) -> u64 {
            // SAFETY: BMI2 runs: `count_row_sets`, which this inlines into, is compiled with it (the
            // macro's contract); registers only.
            unsafe { core::arch::x86_64::_pext_u64(bits, mask) }
        }

        /// `pext`: one instruction on every CPU with AVX-512, where the
        /// tables take a lookup per byte of cut bits.
        #[inline(always)]
        unsafe fn class(cuts: &super::cuts::Cuts, mask: u64) -> usize {
            // SAFETY: BMI2 runs: `count_row_sets`, which this inlines into, is compiled with it (the
            // macro's contract); registers only.
            unsafe { core::arch::x86_64::_pext_u64(mask, cuts.mask()) as usize }
        }

        /// [`join_pairs_512`](super::avx512::join_pairs_512): eight pairs
        /// at a time in zmm registers.
        #[inline(always)]
        unsafe fn join_pairs(
            inner: u32,
            crossing: u64,
            others_inner: &[u32],
            others_crossing: &[u64],
            out: *mut u64,
        ) -> usize {
            // SAFETY: AVX-512 F runs: this inlines into `count_row_sets`, compiled with it (the
            // macro's contract); the caller keeps the trait's contract on `out` and the slices.
            unsafe {
                super::avx512::join_pairs_512(inner, crossing, others_inner, others_crossing, out)
            }
        }

        /// [`slice_512`](super::avx512::slice_512): 64 patterns at a time,
        /// their bytes transposed.
        #[inline(always)]
        unsafe fn slice(
            patterns: &[u64],
            union: u64,
            row: &[usize; 64],
            stride: usize,
            words: &mut [u64],
        ) {
            // SAFETY: AVX-512 F and BW run: this inlines into `count_row_sets`, compiled with them
            // (the macro's contract); the caller keeps the trait's contract on `patterns`, `row`
            // and `words`.
            unsafe { super::avx512::slice_512(patterns, union, row, stride, words) }
        }
    };
}
pub(super) use zmm_steps;

/// [`PatternWords::join_pairs`] eight pairs at a time: `vptestnmq` of the
/// inner bits gives the pairs to keep in a mask register, `vpcompressq`
/// packs their crossing bits to the front of a vector, stored whole; the
/// next store starts past the kept ones.
///
/// # Safety
///
/// The CPU runs AVX-512 F; `out` has room for `others_inner.len() + 8`
/// words, and the two slices are as long as each other (the trait's
/// contract).
#[inline(always)]
pub(super) unsafe fn join_pairs_512(
    inner: u32,
    crossing: u64,
    others_inner: &[u32],
    others_crossing: &[u64],
    out: *mut u64,
) -> usize {
    debug_assert_eq!(others_inner.len(), others_crossing.len());
    // SAFETY: AVX-512 F runs (this function's contract); registers only.
    let (inner_all, crossing_all) = unsafe {
        (
            _mm512_set1_epi64(i64::from(inner)),
            _mm512_set1_epi64(crossing as i64),
        )
    };
    let mut written = 0;
    let mut inners = others_inner.chunks_exact(8);
    let mut crossings = others_crossing.chunks_exact(8);
    for (eight_inner, eight_crossing) in (&mut inners).zip(&mut crossings) {
        // SAFETY: AVX-512 F runs (this function's contract); the chunks
        // are 8 readable `u32` (32 bytes) and 8 `u64` (64 bytes); `loadu`
        // takes any alignment; the caller gives room for every pair plus
        // 8, so the whole vector stored at `written` (at most the pairs
        // before these 8) fits.
        unsafe {
            let others = _mm512_cvtepu32_epi64(_mm256_loadu_si256(eight_inner.as_ptr().cast()));
            let keep = _mm512_testn_epi64_mask(others, inner_all);
            let joined = _mm512_or_si512(
                _mm512_loadu_si512(eight_crossing.as_ptr().cast()),
                crossing_all,
            );
            _mm512_storeu_si512(
                out.add(written).cast(),
                _mm512_maskz_compress_epi64(keep, joined),
            );
            written += keep.count_ones() as usize;
        }
    }
    // The last pairs, fewer than 8, as one vector whose other lanes are
    // neither read nor kept: where a pair at a time cost a mispredicted
    // loop for most north quarter-boards (their south ranges are short).
    let left = inners.remainder().len();
    if left > 0 {
        let lanes = (1u8 << left) - 1;
        // SAFETY: AVX-512 F runs (this function's contract); the masked
        // loads read only the `left` pairs there are (a masked-off lane is
        // never read, so never faults); the store fits as above.
        unsafe {
            let loaded =
                _mm512_maskz_loadu_epi32(u16::from(lanes), inners.remainder().as_ptr().cast());
            let others = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(loaded));
            let keep = _mm512_mask_testn_epi64_mask(lanes, others, inner_all);
            let joined = _mm512_or_si512(
                _mm512_maskz_loadu_epi64(lanes, crossings.remainder().as_ptr().cast()),
                crossing_all,
            );
            _mm512_storeu_si512(
                out.add(written).cast(),
                _mm512_maskz_compress_epi64(keep, joined),
            );
            written += keep.count_ones() as usize;
        }
    }
    written
}

/// [`PatternWords::slice`] of all 64 patterns at once
/// ([`bytes_of_patterns`]): a vector holds byte `j` of every pattern, and
/// `vptestmb` against bit `t` of each byte gives the whole word of slice
/// `8j + t` in a mask register.
///
/// # Safety
///
/// The CPU runs AVX-512 F and BW; `patterns` holds at most 64 masks, and
/// `row[b] * stride` is inside `words` for every bit `b` of `union` (the
/// trait's contract).
#[inline(always)]
pub(super) unsafe fn slice_512(
    patterns: &[u64],
    union: u64,
    row: &[usize; 64],
    stride: usize,
    words: &mut [u64],
) {
    // SAFETY: AVX-512 F and BW run, and `patterns` holds at most 64 masks
    // (this function's contract).
    let bytes = unsafe { bytes_of_patterns(patterns) };
    let mut rest = union;
    while rest != 0 {
        let bit = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        // SAFETY: AVX-512 F and BW run (this function's contract); registers
        // only.
        let word =
            unsafe { _mm512_test_epi8_mask(bytes[bit / 8], _mm512_set1_epi8(1 << (bit % 8))) };
        words[row[bit] * stride] |= word;
    }
}

/// `hits | *a | *b` in one `vpternlogq`, for both 512-bit kernels.
///
/// # Safety
///
/// The CPU runs AVX-512 F; `a` and `b` point at 8 readable `u64`s each.
#[inline(always)]
pub(super) unsafe fn or_two_512(hits: __m512i, a: *const u64, b: *const u64) -> __m512i {
    // SAFETY: the caller's; `loadu` takes any alignment.
    unsafe {
        _mm512_ternarylogic_epi64::<0xFE>(
            hits,
            _mm512_loadu_si512(a.cast()),
            _mm512_loadu_si512(b.cast()),
        )
    }
}

/// Up to 64 patterns, byte by byte: byte `i` of vector `j` is byte `j` of
/// pattern `i` (0 past the last pattern). Three steps on eight vectors of
/// eight patterns each: `vpshufb` puts byte `j` of the two patterns of each
/// 128-bit lane side by side, `vpermw` gathers those pairs into 64-bit word
/// `j` (byte `j` of the vector's eight patterns), and a transpose of the 8 x
/// 8 words (`vpunpck[lh]qdq`, `vpermt2q`, `vshufi64x2`) makes word `k` of
/// vector `j` the bytes `j` of patterns `8k..8k + 8`. About 50 instructions
/// for 64 patterns, where testing each bit of eight patterns at a time took
/// eight per bit.
///
/// # Safety
///
/// The CPU runs AVX-512 F and BW; `patterns` holds at most 64 masks.
#[inline(always)]
unsafe fn bytes_of_patterns(patterns: &[u64]) -> [__m512i; 8] {
    debug_assert!(patterns.len() <= 64);
    // SAFETY: the caller's CPU; each masked load reads only the patterns
    // that are there (its mask stops at the slice's end), unaligned.
    unsafe {
        let pairs = _mm512_set_epi8(
            15, 7, 14, 6, 13, 5, 12, 4, 11, 3, 10, 2, 9, 1, 8, 0, 15, 7, 14, 6, 13, 5, 12, 4, 11,
            3, 10, 2, 9, 1, 8, 0, 15, 7, 14, 6, 13, 5, 12, 4, 11, 3, 10, 2, 9, 1, 8, 0, 15, 7, 14,
            6, 13, 5, 12, 4, 11, 3, 10, 2, 9, 1, 8, 0,
        );
        // Word `4j + l` from word `8l + j`: pair `j` of lane `l`.
        let gather = _mm512_set_epi16(
            31, 23, 15, 7, 30, 22, 14, 6, 29, 21, 13, 5, 28, 20, 12, 4, 27, 19, 11, 3, 26, 18, 10,
            2, 25, 17, 9, 1, 24, 16, 8, 0,
        );
        let mut words = [_mm512_setzero_si512(); 8];
        for (k, vector) in words.iter_mut().enumerate() {
            let here = patterns.len().saturating_sub(8 * k).min(8);
            let eight = _mm512_maskz_loadu_epi64(
                ((1u32 << here) - 1) as u8,
                patterns.as_ptr().add((8 * k).min(patterns.len())).cast(),
            );
            *vector = _mm512_permutexvar_epi16(gather, _mm512_shuffle_epi8(eight, pairs));
        }
        transpose_words(words)
    }
}

/// The 8 x 8 transpose of 64-bit words: word `k` of vector `j` becomes
/// word `j` of vector `k`. Pairs of words (`vpunpck[lh]qdq`), then pairs
/// of pairs (`vpermt2q`), then halves (`vshufi64x2`): 24 shuffles.
///
/// # Safety
///
/// The CPU runs AVX-512 F.
#[inline(always)]
unsafe fn transpose_words(v: [__m512i; 8]) -> [__m512i; 8] {
    // SAFETY: the caller's CPU; registers only.
    unsafe {
        // Words 2i and 2i + 1 of the pair's two vectors, side by side.
        let mut t = [_mm512_setzero_si512(); 8];
        for pair in 0..4 {
            t[2 * pair] = _mm512_unpacklo_epi64(v[2 * pair], v[2 * pair + 1]);
            t[2 * pair + 1] = _mm512_unpackhi_epi64(v[2 * pair], v[2 * pair + 1]);
        }
        // Then 128-bit pieces 0 and 2 (and 1 and 3) of two such vectors.
        let even = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
        let odd = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
        let mut u = [_mm512_setzero_si512(); 8];
        for quad in 0..2 {
            for parity in 0..2 {
                let (a, b) = (t[4 * quad + parity], t[4 * quad + parity + 2]);
                u[4 * quad + parity] = _mm512_permutex2var_epi64(a, even, b);
                u[4 * quad + parity + 2] = _mm512_permutex2var_epi64(a, odd, b);
            }
        }
        // Then the 256-bit halves of vectors `i` and `i + 4`.
        let mut out = [_mm512_setzero_si512(); 8];
        for i in 0..4 {
            out[i] = _mm512_shuffle_i64x2::<0b01_00_01_00>(u[i], u[i + 4]);
            out[i + 4] = _mm512_shuffle_i64x2::<0b11_10_11_10>(u[i], u[i + 4]);
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
    fn the_avx512_matcher_agrees_with_testing_every_pair() {
        let Some(cpu) = JoinAvx512::new() else {
            crate::kernel::join::skip_missing(crate::Kernel::JoinAvx512);
            return;
        };
        let mut scratch = Scratch::default();
        check_against_the_oracle(|items, patterns, weighing| {
            cpu.disjoint_pairs(items, patterns, weighing, &mut scratch)
        });
    }
}
