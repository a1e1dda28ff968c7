//! The `join-avx512` kernel: the join ([`super`]) with vectors of 512
//! patterns (`matcher.rs`): `vporq` of an item's slices, then
//! `vpopcntq` (AVX512-VPOPCNTDQ) of the conflict bits. The patterns are
//! sliced eight at a time: `vptestmq` tests bit `b` of eight patterns
//! into a mask register, a byte of slice `b`. `tests/disassembly.rs`
//! checks that these instructions are there. All but `vpopcntq` are
//! AVX-512 F (and BMI2's `pext`), and `join-avx512bw` shares them
//! (`zmm_steps!`).

use core::arch::x86_64::{
    __m512i, _mm256_loadu_si256, _mm512_add_epi64, _mm512_cvtepu32_epi64, _mm512_loadu_si512,
    _mm512_maskz_compress_epi64, _mm512_or_si512, _mm512_popcnt_epi64, _mm512_reduce_add_epi64,
    _mm512_set1_epi64, _mm512_setzero_si512, _mm512_storeu_si512, _mm512_test_epi64_mask,
    _mm512_testn_epi64_mask,
};

use super::words::{PatternWords, join_pairs_one_by_one};

super::join_kernel!(
    /// The `join-avx512` kernel. Holding one proves this CPU (and its
    /// operating system) runs AVX-512 F and VPOPCNTDQ, and BMI2.
    JoinAvx512,
    __m512i
);

// SAFETY (every method): inlined into `count_chunk`, which enables AVX-512 F
// and VPOPCNTDQ; the callers keep the pointer contracts written on the
// trait.
impl PatternWords for __m512i {
    const WORDS: usize = 8;

    #[inline(always)]
    unsafe fn zero() -> __m512i {
        // SAFETY: AVX-512 F and VPOPCNTDQ run: this inlines into `count_chunk`, compiled with them
        // (the note on the impl); registers only.
        unsafe { _mm512_setzero_si512() }
    }

    #[inline(always)]
    unsafe fn or_load(self, words: *const u64) -> __m512i {
        // SAFETY: AVX-512 F and VPOPCNTDQ run: this inlines into `count_chunk`, compiled with them
        // (the note on the impl); `words` points at 8 readable `u64`s (the trait's contract), and
        // `loadu` takes any alignment.
        unsafe { _mm512_or_si512(self, _mm512_loadu_si512(words.cast())) }
    }

    #[inline(always)]
    unsafe fn add_counts<const G: usize>(sum: __m512i, hits: [__m512i; G]) -> __m512i {
        // Loops, not closures, here and below: a closure would be compiled
        // apart from the `#[target_feature]` function these inline into.
        let mut sum = sum;
        for hit in hits {
            // SAFETY: AVX-512 F and VPOPCNTDQ run: this inlines into `count_chunk`, compiled with
            // them (the note on the impl); registers only.
            sum = unsafe { _mm512_add_epi64(sum, _mm512_popcnt_epi64(hit)) };
        }
        sum
    }

    #[inline(always)]
    unsafe fn total(sum: __m512i) -> u64 {
        // SAFETY: AVX-512 F and VPOPCNTDQ run: this inlines into `count_chunk`, compiled with them
        // (the note on the impl); registers only.
        unsafe { _mm512_reduce_add_epi64(sum) as u64 }
    }

    zmm_steps!();
}

// Shared by both 512-bit join kernels, this one and `join-avx512bw` (for
// CPUs without VPOPCNTDQ): reading a class by `pext`, and the two steps
// below, which use AVX-512 F alone. The steps are free functions, not
// methods of either kernel's vector type, and `zmm_steps!` writes in each
// impl the three `PatternWords` methods that call them; all
// `#[inline(always)]`, so that each kernel compiles them inside its own
// `#[target_feature]` function.

/// The methods of [`PatternWords`] that the 512-bit join kernels share:
/// `class` by BMI2's `pext`, [`join_pairs_512`] and [`slice_512`]. Invoked
/// in an impl for a vector whose kernel's `count_chunk` is compiled with
/// AVX-512 F and BMI2, which the methods inline into.
macro_rules! zmm_steps {
    () => {
        /// `pext`: one instruction on every CPU with AVX-512, where the
        /// tables take a lookup per byte of cut bits.
        #[inline(always)]
        unsafe fn class(cuts: &super::cuts::Cuts, mask: u64) -> usize {
            // SAFETY: BMI2 runs: `count_chunk`, which this inlines into, is compiled with it (the
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
            // SAFETY: AVX-512 F runs: this inlines into `count_chunk`, compiled with it (the
            // macro's contract); the caller keeps the trait's contract on `out` and the slices.
            unsafe {
                super::avx512::join_pairs_512(inner, crossing, others_inner, others_crossing, out)
            }
        }

        /// [`slice_512`](super::avx512::slice_512): eight patterns at a
        /// time into mask registers.
        #[inline(always)]
        unsafe fn slice(
            patterns: &[u64],
            union: u64,
            row: &[usize; 64],
            stride: usize,
            words: &mut [u64],
        ) {
            // SAFETY: AVX-512 F runs: this inlines into `count_chunk`, compiled with it (the
            // macro's contract); the caller keeps the trait's contract on `row` and `words`.
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
    // SAFETY: the room left is at least the pairs left.
    written += unsafe {
        join_pairs_one_by_one(
            inner,
            crossing,
            inners.remainder(),
            crossings.remainder(),
            out.add(written),
        )
    };
    written
}

/// [`PatternWords::slice`] eight patterns at a time: `vptestmq` against
/// bit `b` gives their eight bits of slice `b` in a mask register.
///
/// # Safety
///
/// The CPU runs AVX-512 F; `row[b] * stride` is inside `words` for every
/// bit `b` of `union` (the trait's contract).
#[inline(always)]
pub(super) unsafe fn slice_512(
    patterns: &[u64],
    union: u64,
    row: &[usize; 64],
    stride: usize,
    words: &mut [u64],
) {
    let mut lanes = [[0u64; 8]; 8];
    for (eight, masks) in lanes.iter_mut().zip(patterns.chunks(8)) {
        eight[..masks.len()].copy_from_slice(masks);
    }
    // Loops, not closures: a closure would be compiled apart from the
    // `#[target_feature]` function this inlines into.
    // SAFETY: AVX-512 F runs (this function's contract); registers only.
    let mut vectors = [unsafe { _mm512_setzero_si512() }; 8];
    for (vector, eight) in vectors.iter_mut().zip(&lanes) {
        // SAFETY: AVX-512 F runs (this function's contract); `eight` is 64
        // readable bytes; `loadu` takes any alignment.
        *vector = unsafe { _mm512_loadu_si512(eight.as_ptr().cast()) };
    }
    let used = patterns.len().div_ceil(8);
    let mut rest = union;
    while rest != 0 {
        let bit = rest.trailing_zeros();
        rest &= rest - 1;
        // SAFETY: AVX-512 F runs (this function's contract); registers only.
        let probe = unsafe { _mm512_set1_epi64(1 << bit) };
        let mut word = 0u64;
        for (k, &v) in vectors[..used].iter().enumerate() {
            // SAFETY: AVX-512 F runs (this function's contract); registers
            // only.
            word |= u64::from(unsafe { _mm512_test_epi64_mask(v, probe) }) << (8 * k);
        }
        words[row[bit as usize] * stride] |= word;
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
