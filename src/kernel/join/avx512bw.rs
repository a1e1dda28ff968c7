//! The `join-avx512bw` kernel: the join ([`super`]) with vectors of 512
//! patterns (`matcher.rs`) on CPUs with AVX-512 but without VPOPCNTDQ
//! (Skylake-SP and Cascade Lake Xeons): `vpord` of an item's slices, then a
//! popcount of the conflict bits by AVX-512 BW, as `join-avx2` counts them
//! at 256 bits (`vpshufb` on nibbles, bytes summed over a group of vectors,
//! `vpsadbw` into eight 64-bit sums). Reading a class (`pext`), slicing the
//! patterns and joining the quarter-boards need no VPOPCNTDQ: they are
//! `join-avx512`'s code (`avx512::zmm_steps!`).
//! `cli/tests/program/disassembly.rs` checks that these instructions are there, and
//! that no `vpopcntq` is.

use core::arch::x86_64::{
    __m512i, _mm_setr_epi8, _mm512_add_epi8, _mm512_add_epi64, _mm512_and_si512,
    _mm512_broadcast_i32x4, _mm512_loadu_si512, _mm512_or_si512, _mm512_reduce_add_epi64,
    _mm512_sad_epu8, _mm512_set1_epi8, _mm512_setzero_si512, _mm512_shuffle_epi8,
    _mm512_srli_epi64, _mm512_storeu_si512,
};

use super::words::PatternWords;

super::join_kernel!(
    /// The `join-avx512bw` kernel. Holding one proves this CPU (and its
    /// operating system) runs AVX-512 F and BW, and BMI2.
    JoinAvx512Bw,
    Zmm
);

/// A zmm register of patterns, for `join-avx512bw`: its own type, not
/// `__m512i`, because a type has one [`PatternWords`] and `__m512i`'s counts
/// bits with `vpopcntq`, which this kernel's CPUs lack.
#[derive(Clone, Copy)]
#[repr(transparent)]
struct Zmm(__m512i);

// SAFETY (every method): inlined into `count_row_sets`, which enables AVX-512 F
// and BW, and BMI2; the callers keep the pointer contracts written on the
// trait.
impl PatternWords for Zmm {
    const WORDS: usize = 8;

    #[inline(always)]
    unsafe fn zero() -> Zmm {
        // SAFETY: AVX-512 F runs: this inlines into `count_row_sets`, compiled with it (the note on
        // the impl); registers only.
        Zmm(unsafe { _mm512_setzero_si512() })
    }

    #[inline(always)]
    unsafe fn or_load(self, words: *const u64) -> Zmm {
        // SAFETY: AVX-512 F runs: this inlines into `count_row_sets`, compiled with it (the note on
        // the impl); `words` points at 8 readable `u64`s (the trait's contract), and `loadu` takes
        // any alignment.
        Zmm(unsafe { _mm512_or_si512(self.0, _mm512_loadu_si512(words.cast())) })
    }

    /// `vpternlogq`: one instruction ORs two rows into the hits.
    #[inline(always)]
    unsafe fn or_load_two(self, a: *const u64, b: *const u64) -> Zmm {
        // SAFETY: AVX-512 F runs: this inlines into `count_row_sets`, compiled with it (the note on
        // the impl); `a` and `b` point at 8 readable `u64`s each (the trait's contract).
        Zmm(unsafe { super::avx512::or_two_512(self.0, a, b) })
    }

    #[inline(always)]
    unsafe fn store(self, words: *mut u64) {
        // SAFETY: AVX-512 F runs: this inlines into `count_row_sets`, compiled with it (the note on
        // the impl); `words` points at 8 writable `u64`s (the trait's contract), and `storeu`
        // takes any alignment.
        unsafe { _mm512_storeu_si512(words.cast(), self.0) }
    }

    /// Set bits per byte by a nibble table (`vpshufb`, which looks up in
    /// each 128-bit lane: hence the table in all four), summed in bytes
    /// over the group (at most 8 vectors of at most 8 bits a byte: no
    /// overflow), then into the eight 64-bit sums (`vpsadbw`).
    #[inline(always)]
    unsafe fn add_counts<const G: usize>(sum: Zmm, hits: [Zmm; G]) -> Zmm {
        // SAFETY: AVX-512 F and BW run: this inlines into `count_row_sets`, compiled with them (the
        // note on the impl); registers only.
        unsafe {
            let nibble_bits = _mm512_broadcast_i32x4(_mm_setr_epi8(
                0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
            ));
            let low_nibble = _mm512_set1_epi8(0x0f);
            let mut bytes = _mm512_setzero_si512();
            // A loop, not a closure: a closure would be compiled apart
            // from the `#[target_feature]` function this inlines into.
            for Zmm(hit) in hits {
                let low = _mm512_and_si512(hit, low_nibble);
                let high = _mm512_and_si512(_mm512_srli_epi64::<4>(hit), low_nibble);
                bytes = _mm512_add_epi8(bytes, _mm512_shuffle_epi8(nibble_bits, low));
                bytes = _mm512_add_epi8(bytes, _mm512_shuffle_epi8(nibble_bits, high));
            }
            Zmm(_mm512_add_epi64(
                sum.0,
                _mm512_sad_epu8(bytes, _mm512_setzero_si512()),
            ))
        }
    }

    #[inline(always)]
    unsafe fn total(sum: Zmm) -> u64 {
        // SAFETY: AVX-512 F runs: this inlines into `count_row_sets`, compiled with it (the note on
        // the impl); registers only.
        unsafe { _mm512_reduce_add_epi64(sum.0) as u64 }
    }

    super::avx512::zmm_steps!();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::join::matcher::check_against_the_oracle;
    use crate::kernel::join::{Joiner, Scratch};

    #[test]
    fn the_avx512bw_matcher_agrees_with_testing_every_pair() {
        let Some(cpu) = JoinAvx512Bw::new() else {
            crate::kernel::join::skip_missing(crate::Kernel::JoinAvx512Bw);
            return;
        };
        let mut scratch = Scratch::default();
        check_against_the_oracle(|items, patterns, weighing| {
            cpu.disjoint_pairs(items, patterns, weighing, &mut scratch)
        });
    }
}
