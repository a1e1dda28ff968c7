//! The `lanes-avx2` kernel: eight walkers, one per `u32` lane of a ymm
//! register (`walk.rs`). A lane's stack entries are 16 bytes, one row's
//! four masks: eight `vmovdqa` loads (paired by `vinserti128`) and a 4×4
//! transpose in each 128-bit half (`vpunpck[lh]dq`, `vpunpck[lh]qdq`) turn
//! eight entries into four vectors, and the same transpose backwards
//! writes them. Choices are `vpblendvb`; the highest bit of a lane comes
//! from its float conversion (`vcvtdq2ps`); the solutions of a lane, at most
//! two a step, from two compares. `cli/tests/program/disassembly.rs` checks that these
//! instructions are there.

use core::arch::x86_64::{
    __m256i, _mm_load_si128, _mm_store_si128, _mm256_abs_epi32, _mm256_add_epi32, _mm256_and_si256,
    _mm256_andnot_si256, _mm256_blendv_epi8, _mm256_castps_si256, _mm256_castsi128_si256,
    _mm256_castsi256_ps, _mm256_castsi256_si128, _mm256_cmpeq_epi32, _mm256_cvtepi32_ps,
    _mm256_extracti128_si256, _mm256_inserti128_si256, _mm256_loadu_si256, _mm256_min_epu32,
    _mm256_movemask_ps, _mm256_or_si256, _mm256_set1_epi32, _mm256_setr_epi32,
    _mm256_setzero_si256, _mm256_slli_epi32, _mm256_sllv_epi32, _mm256_srai_epi32,
    _mm256_srli_epi32, _mm256_srlv_epi32, _mm256_storeu_si256, _mm256_sub_epi32,
    _mm256_unpackhi_epi32, _mm256_unpackhi_epi64, _mm256_unpacklo_epi32, _mm256_unpacklo_epi64,
    _mm256_xor_si256,
};

use super::simd::{LaneEntry, Simd, slot_above, slot_below};

super::lane_kernel!(
    /// The `lanes-avx2` kernel: 8 walkers in the `u32` lanes of ymm
    /// registers. Holding one proves this CPU runs AVX2, BMI1, BMI2, LZCNT
    /// and POPCNT (the last four for the scalar walkers of the ties).
    LanesAvx2,
    __m256i
);

// SAFETY (every method): inlined into the kernel's functions, which enable
// AVX2; the callers keep the slice and pointer contracts written on the
// trait.
impl Simd for __m256i {
    const LANES: usize = 8;
    // Measured on Zen 5 (`dispatch::count`, one thread, medians): at N = 11
    // mirror starts take 76 µs against 188 µs for the subproblems, at
    // N = 12 366 µs against 330 µs.
    const MIRROR_UP_TO: usize = 11;
    type Mask = __m256i;

    #[inline(always)]
    unsafe fn splat(value: u32) -> __m256i {
        // SAFETY: `_mm256_set1_epi32` needs AVX, part of AVX2, which the CPU
        // runs by `Simd`'s contract (the caller holds a `LanesAvx2`); registers
        // only.
        unsafe { _mm256_set1_epi32(value as i32) }
    }

    #[inline(always)]
    unsafe fn load(words: &[u32]) -> __m256i {
        debug_assert!(words.len() >= 8);
        // SAFETY: `_mm256_loadu_si256` needs AVX, part of AVX2, which the CPU
        // runs by `Simd`'s contract (the caller holds a `LanesAvx2`); by the
        // same contract `words` holds at least 8 words, so the unaligned
        // 32-byte load stays inside it.
        unsafe { _mm256_loadu_si256(words.as_ptr().cast()) }
    }

    #[inline(always)]
    unsafe fn store(self, words: &mut [u32]) {
        debug_assert!(words.len() >= 8);
        // SAFETY: `_mm256_storeu_si256` needs AVX, part of AVX2, which the CPU
        // runs by `Simd`'s contract (the caller holds a `LanesAvx2`); by the
        // same contract `words` holds at least 8 words, so the unaligned
        // 32-byte store stays inside it.
        unsafe { _mm256_storeu_si256(words.as_mut_ptr().cast(), self) }
    }

    #[inline(always)]
    unsafe fn with_lane(self, lane: usize, value: u32) -> __m256i {
        // SAFETY: `_mm256_setr_epi32`, `_mm256_set1_epi32`,
        // `_mm256_cmpeq_epi32` and `_mm256_blendv_epi8` need at most AVX2,
        // which the CPU runs by `Simd`'s contract (the caller holds a
        // `LanesAvx2`); registers only.
        unsafe {
            let lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
            let only = _mm256_cmpeq_epi32(lanes, _mm256_set1_epi32(lane as i32));
            _mm256_blendv_epi8(self, _mm256_set1_epi32(value as i32), only)
        }
    }

    #[inline(always)]
    unsafe fn and(self, other: __m256i) -> __m256i {
        // SAFETY: `_mm256_and_si256` needs AVX2, which the CPU runs by `Simd`'s
        // contract (the caller holds a `LanesAvx2`); registers only.
        unsafe { _mm256_and_si256(self, other) }
    }

    #[inline(always)]
    unsafe fn or(self, other: __m256i) -> __m256i {
        // SAFETY: `_mm256_or_si256` needs AVX2, which the CPU runs by `Simd`'s
        // contract (the caller holds a `LanesAvx2`); registers only.
        unsafe { _mm256_or_si256(self, other) }
    }

    #[inline(always)]
    unsafe fn xor(self, other: __m256i) -> __m256i {
        // SAFETY: `_mm256_xor_si256` needs AVX2, which the CPU runs by `Simd`'s
        // contract (the caller holds a `LanesAvx2`); registers only.
        unsafe { _mm256_xor_si256(self, other) }
    }

    #[inline(always)]
    unsafe fn and_not(self, other: __m256i) -> __m256i {
        // SAFETY: `_mm256_andnot_si256` needs AVX2, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx2`); registers only.
        unsafe { _mm256_andnot_si256(self, other) }
    }

    #[inline(always)]
    unsafe fn add(self, other: __m256i) -> __m256i {
        // SAFETY: `_mm256_add_epi32` needs AVX2, which the CPU runs by `Simd`'s
        // contract (the caller holds a `LanesAvx2`); registers only.
        unsafe { _mm256_add_epi32(self, other) }
    }

    #[inline(always)]
    unsafe fn sub(self, other: __m256i) -> __m256i {
        // SAFETY: `_mm256_sub_epi32` needs AVX2, which the CPU runs by `Simd`'s
        // contract (the caller holds a `LanesAvx2`); registers only.
        unsafe { _mm256_sub_epi32(self, other) }
    }

    #[inline(always)]
    unsafe fn shl<const S: i32>(self) -> __m256i {
        // SAFETY: `_mm256_slli_epi32` needs AVX2, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx2`); registers only.
        unsafe { _mm256_slli_epi32::<S>(self) }
    }

    #[inline(always)]
    unsafe fn shr<const S: i32>(self) -> __m256i {
        // SAFETY: `_mm256_srli_epi32` needs AVX2, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx2`); registers only.
        unsafe { _mm256_srli_epi32::<S>(self) }
    }

    #[inline(always)]
    unsafe fn shl_by(self, counts: __m256i) -> __m256i {
        // SAFETY: `_mm256_sllv_epi32` needs AVX2, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx2`); registers only.
        unsafe { _mm256_sllv_epi32(self, counts) }
    }

    #[inline(always)]
    unsafe fn shr_by(self, counts: __m256i) -> __m256i {
        // SAFETY: `_mm256_srlv_epi32` needs AVX2, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx2`); registers only.
        unsafe { _mm256_srlv_epi32(self, counts) }
    }

    #[inline(always)]
    unsafe fn abs(self) -> __m256i {
        // SAFETY: `_mm256_abs_epi32` needs AVX2, which the CPU runs by `Simd`'s
        // contract (the caller holds a `LanesAvx2`); registers only.
        unsafe { _mm256_abs_epi32(self) }
    }

    #[inline(always)]
    unsafe fn spread_top_bit(self) -> __m256i {
        // SAFETY: `_mm256_srai_epi32` needs AVX2, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx2`); registers only.
        unsafe { _mm256_srai_epi32::<31>(self) }
    }

    #[inline(always)]
    unsafe fn equal(self, other: __m256i) -> __m256i {
        // SAFETY: `_mm256_cmpeq_epi32` needs AVX2, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx2`); registers only.
        unsafe { _mm256_cmpeq_epi32(self, other) }
    }

    #[inline(always)]
    unsafe fn none_of(self, bits: __m256i) -> __m256i {
        // SAFETY: `_mm256_cmpeq_epi32`, `_mm256_and_si256` and
        // `_mm256_setzero_si256` need at most AVX2, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx2`); registers only.
        unsafe { _mm256_cmpeq_epi32(_mm256_and_si256(self, bits), _mm256_setzero_si256()) }
    }

    #[inline(always)]
    unsafe fn both(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `_mm256_and_si256` needs AVX2, which the CPU runs by `Simd`'s
        // contract (the caller holds a `LanesAvx2`); registers only.
        unsafe { _mm256_and_si256(a, b) }
    }

    #[inline(always)]
    unsafe fn either(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `_mm256_or_si256` needs AVX2, which the CPU runs by `Simd`'s
        // contract (the caller holds a `LanesAvx2`); registers only.
        unsafe { _mm256_or_si256(a, b) }
    }

    #[inline(always)]
    unsafe fn neither(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `_mm256_xor_si256`, `_mm256_or_si256` and `_mm256_set1_epi32`
        // need at most AVX2, which the CPU runs by `Simd`'s contract (the
        // caller holds a `LanesAvx2`); registers only.
        unsafe { _mm256_xor_si256(_mm256_or_si256(a, b), _mm256_set1_epi32(-1)) }
    }

    #[inline(always)]
    unsafe fn except(set: __m256i, but: __m256i) -> __m256i {
        // SAFETY: `_mm256_andnot_si256` needs AVX2, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx2`); registers only.
        unsafe { _mm256_andnot_si256(but, set) }
    }

    #[inline(always)]
    unsafe fn bits(set: __m256i) -> u32 {
        // SAFETY: `_mm256_movemask_ps` and `_mm256_castsi256_ps` need AVX, part
        // of AVX2, which the CPU runs by `Simd`'s contract (the caller holds a
        // `LanesAvx2`); registers only.
        unsafe { _mm256_movemask_ps(_mm256_castsi256_ps(set)) as u32 }
    }

    #[inline(always)]
    unsafe fn select(set: __m256i, if_set: __m256i, otherwise: __m256i) -> __m256i {
        // SAFETY: `_mm256_blendv_epi8` needs AVX2, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx2`); registers only.
        unsafe { _mm256_blendv_epi8(otherwise, if_set, set) }
    }

    #[inline(always)]
    unsafe fn add_in(self, set: __m256i, amount: __m256i) -> __m256i {
        // SAFETY: `_mm256_add_epi32` and `_mm256_and_si256` need AVX2, which
        // the CPU runs by `Simd`'s contract (the caller holds a `LanesAvx2`);
        // registers only.
        unsafe { _mm256_add_epi32(self, _mm256_and_si256(set, amount)) }
    }

    #[inline(always)]
    unsafe fn sub_in(self, set: __m256i, amount: __m256i) -> __m256i {
        // SAFETY: `_mm256_sub_epi32` and `_mm256_and_si256` need AVX2, which
        // the CPU runs by `Simd`'s contract (the caller holds a `LanesAvx2`);
        // registers only.
        unsafe { _mm256_sub_epi32(self, _mm256_and_si256(set, amount)) }
    }

    #[inline(always)]
    unsafe fn up_to_highest(self) -> __m256i {
        // A lane below 2^24 converts to a float exactly; its exponent
        // field is 127 + the highest bit h, or 0 for a lane of 0. All ones
        // shifted right by 158 - field keep bits 0 to h (a count of 32 or
        // more, for 0, keeps none).
        // SAFETY: the conversion, shifts and subtraction need at most AVX2,
        // which the CPU runs by `Simd`'s contract (the caller holds a
        // `LanesAvx2`); registers only.
        unsafe {
            let field = _mm256_srli_epi32::<23>(_mm256_castps_si256(_mm256_cvtepi32_ps(self)));
            let shift = _mm256_sub_epi32(_mm256_set1_epi32(158), field);
            _mm256_srlv_epi32(_mm256_set1_epi32(-1), shift)
        }
    }

    #[inline(always)]
    unsafe fn highest_bit(self) -> __m256i {
        // The float's exponent field, 127 + the highest bit.
        // SAFETY: the conversion, shift and subtraction need at most AVX2,
        // which the CPU runs by `Simd`'s contract (the caller holds a
        // `LanesAvx2`); registers only.
        unsafe {
            let field = _mm256_srli_epi32::<23>(_mm256_castps_si256(_mm256_cvtepi32_ps(self)));
            _mm256_sub_epi32(field, _mm256_set1_epi32(127))
        }
    }

    #[inline(always)]
    unsafe fn add_counts(self, set: __m256i, squares: __m256i) -> __m256i {
        // At most two bits: one for a nonzero lane (its minimum with 1),
        // one more if clearing its lowest bit leaves one.
        // SAFETY: `_mm256_min_epu32`, `_mm256_add_epi32`, `_mm256_and_si256`
        // and `_mm256_set1_epi32` need at most AVX2, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx2`); registers only.
        unsafe {
            let squares = _mm256_and_si256(set, squares);
            let without_lowest =
                _mm256_and_si256(squares, _mm256_add_epi32(squares, _mm256_set1_epi32(-1)));
            let one = _mm256_set1_epi32(1);
            let counted = _mm256_add_epi32(
                _mm256_min_epu32(squares, one),
                _mm256_min_epu32(without_lowest, one),
            );
            _mm256_add_epi32(self, counted)
        }
    }

    #[inline(always)]
    unsafe fn load_entries_below(stack: *const LaneEntry, at: __m256i) -> [__m256i; 4] {
        // SAFETY: the intrinsics need at most AVX2, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx2`). `__m256i` and
        // `[u32; 8]` are both 32 bytes and every bit pattern is valid for both,
        // so the transmute is sound. By the same contract each lane of `at`
        // minus `ENTRY_BYTES` is a multiple of it within `stack`'s initialised
        // entries, as `slot_below` requires, so each `_mm_load_si128` (SSE2,
        // baseline) reads one initialised `LaneEntry`, 16-byte aligned as it needs
        // (`LaneEntry` is `align(16)`).
        unsafe {
            let at: [u32; 8] = core::mem::transmute(at);
            // Lanes l and l + 4 side by side, then a 4x4 transpose of
            // words in each half.
            // (A macro, not a closure: a closure would be compiled without
            // the kernel's features.)
            macro_rules! pair {
                ($l:expr) => {
                    _mm256_inserti128_si256::<1>(
                        _mm256_castsi128_si256(_mm_load_si128(slot_below(stack, at[$l]))),
                        _mm_load_si128(slot_below(stack, at[$l + 4])),
                    )
                };
            }
            let (r0, r1, r2, r3) = (pair!(0), pair!(1), pair!(2), pair!(3));
            let t0 = _mm256_unpacklo_epi32(r0, r1);
            let t1 = _mm256_unpackhi_epi32(r0, r1);
            let t2 = _mm256_unpacklo_epi32(r2, r3);
            let t3 = _mm256_unpackhi_epi32(r2, r3);
            [
                _mm256_unpacklo_epi64(t0, t2),
                _mm256_unpackhi_epi64(t0, t2),
                _mm256_unpacklo_epi64(t1, t3),
                _mm256_unpackhi_epi64(t1, t3),
            ]
        }
    }

    #[inline(always)]
    unsafe fn store_entries_above(stack: *mut LaneEntry, at: __m256i, words: [__m256i; 4]) {
        // SAFETY: the intrinsics need at most AVX2, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx2`). `__m256i` and
        // `[u32; 8]` are both 32 bytes and every bit pattern is valid for both,
        // so the transmute is sound. By the same contract each lane of `at`
        // plus `ENTRY_BYTES` is a multiple of it within `stack`'s entries, as
        // `slot_above` requires, so each `_mm_store_si128` (SSE2, baseline)
        // writes one `LaneEntry` of the stack, 16-byte aligned as it needs (`LaneEntry`
        // is `align(16)`).
        unsafe {
            let at: [u32; 8] = core::mem::transmute(at);
            let [w0, w1, w2, w3] = words;
            let t0 = _mm256_unpacklo_epi32(w0, w1);
            let t1 = _mm256_unpackhi_epi32(w0, w1);
            let t2 = _mm256_unpacklo_epi32(w2, w3);
            let t3 = _mm256_unpackhi_epi32(w2, w3);
            let rows = [
                _mm256_unpacklo_epi64(t0, t2),
                _mm256_unpackhi_epi64(t0, t2),
                _mm256_unpacklo_epi64(t1, t3),
                _mm256_unpackhi_epi64(t1, t3),
            ];
            for (l, row) in rows.into_iter().enumerate() {
                let low = slot_above(stack, at[l]);
                let high = slot_above(stack, at[l + 4]);
                _mm_store_si128(low, _mm256_castsi256_si128(row));
                _mm_store_si128(high, _mm256_extracti128_si256::<1>(row));
            }
        }
    }
}
