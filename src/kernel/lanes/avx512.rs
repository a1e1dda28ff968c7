//! The `lanes-avx512` kernel: sixteen walkers, one per `u32` lane of a
//! zmm register (`walk.rs`). Sets of lanes live in mask registers: the
//! compares write them (`vpcmpeqd`, `vptestnmd`), the choices blend by them
//! (`vpblendmd`), the stack pointers and counts move under them (masked
//! `vpaddd`, `vpsubd`). The solutions of a lane come from `vpopcntd`. A
//! lane's stack entries are 16 bytes, as for AVX2: sixteen loads (four per
//! register, placed by `vinserti32x4`) and a 4×4 transpose in each 128-bit
//! quarter turn them into four vectors, and back. `cli/tests/program/disassembly.rs`
//! checks that these instructions are there.

use core::arch::x86_64::{
    __m512i, __mmask16, _mm_cvtsi32_si128, _mm_load_si128, _mm_store_si128, _mm512_abs_epi32,
    _mm512_add_epi32, _mm512_and_si512, _mm512_andnot_si512, _mm512_castps_si512,
    _mm512_castsi128_si512, _mm512_castsi512_si128, _mm512_cmpeq_epi32_mask, _mm512_cvtepi32_ps,
    _mm512_extracti32x4_epi32, _mm512_inserti32x4, _mm512_loadu_si512, _mm512_mask_add_epi32,
    _mm512_mask_blend_epi32, _mm512_mask_set1_epi32, _mm512_mask_sub_epi32, _mm512_or_si512,
    _mm512_popcnt_epi32, _mm512_set1_epi32, _mm512_sll_epi32, _mm512_sllv_epi32, _mm512_srai_epi32,
    _mm512_srl_epi32, _mm512_srli_epi32, _mm512_srlv_epi32, _mm512_storeu_si512, _mm512_sub_epi32,
    _mm512_testn_epi32_mask, _mm512_unpackhi_epi32, _mm512_unpackhi_epi64, _mm512_unpacklo_epi32,
    _mm512_unpacklo_epi64, _mm512_xor_si512,
};

use super::simd::{LaneEntry, Simd, slot_above, slot_below};

super::lane_kernel!(
    /// The `lanes-avx512` kernel: 16 walkers in the `u32` lanes of zmm
    /// registers, sets of lanes in mask registers. Holding one proves this
    /// CPU runs AVX-512 F and VPOPCNTDQ, BMI1, BMI2, LZCNT and POPCNT.
    LanesAvx512,
    __m512i
);

// SAFETY (every method): inlined into the kernel's functions, which enable
// AVX-512 F and VPOPCNTDQ; the callers keep the slice and pointer contracts
// written on the trait.
impl Simd for __m512i {
    const LANES: usize = 16;
    // Measured on Zen 5 (`dispatch::count`, one thread, medians): at N = 13
    // mirror starts take 1.20 ms against 1.40 ms for the subproblems (at
    // N = 11, 43 µs against 197 µs); N = 14 and up is the join's.
    const MIRROR_UP_TO: usize = 13;
    type Mask = __mmask16;

    #[inline(always)]
    unsafe fn splat(value: u32) -> __m512i {
        // SAFETY: `_mm512_set1_epi32` needs AVX-512 F, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx512`); registers only.
        unsafe { _mm512_set1_epi32(value as i32) }
    }

    #[inline(always)]
    unsafe fn load(words: &[u32]) -> __m512i {
        debug_assert!(words.len() >= 16);
        // SAFETY: `_mm512_loadu_si512` needs AVX-512 F, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx512`); by the same
        // contract `words` holds at least 16 words, so the unaligned 64-byte
        // load stays inside it.
        unsafe { _mm512_loadu_si512(words.as_ptr().cast()) }
    }

    #[inline(always)]
    unsafe fn store(self, words: &mut [u32]) {
        debug_assert!(words.len() >= 16);
        // SAFETY: `_mm512_storeu_si512` needs AVX-512 F, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx512`); by the same
        // contract `words` holds at least 16 words, so the unaligned 64-byte
        // store stays inside it.
        unsafe { _mm512_storeu_si512(words.as_mut_ptr().cast(), self) }
    }

    #[inline(always)]
    unsafe fn with_lane(self, lane: usize, value: u32) -> __m512i {
        // SAFETY: `_mm512_mask_set1_epi32` needs AVX-512 F, which the CPU runs
        // by `Simd`'s contract (the caller holds a `LanesAvx512`); registers
        // only.
        unsafe { _mm512_mask_set1_epi32(self, 1 << lane, value as i32) }
    }

    #[inline(always)]
    unsafe fn and(self, other: __m512i) -> __m512i {
        // SAFETY: `_mm512_and_si512` needs AVX-512 F, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx512`); registers only.
        unsafe { _mm512_and_si512(self, other) }
    }

    #[inline(always)]
    unsafe fn or(self, other: __m512i) -> __m512i {
        // SAFETY: `_mm512_or_si512` needs AVX-512 F, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx512`); registers only.
        unsafe { _mm512_or_si512(self, other) }
    }

    #[inline(always)]
    unsafe fn xor(self, other: __m512i) -> __m512i {
        // SAFETY: `_mm512_xor_si512` needs AVX-512 F, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx512`); registers only.
        unsafe { _mm512_xor_si512(self, other) }
    }

    #[inline(always)]
    unsafe fn and_not(self, other: __m512i) -> __m512i {
        // SAFETY: `_mm512_andnot_si512` needs AVX-512 F, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx512`); registers only.
        unsafe { _mm512_andnot_si512(self, other) }
    }

    #[inline(always)]
    unsafe fn add(self, other: __m512i) -> __m512i {
        // SAFETY: `_mm512_add_epi32` needs AVX-512 F, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx512`); registers only.
        unsafe { _mm512_add_epi32(self, other) }
    }

    #[inline(always)]
    unsafe fn sub(self, other: __m512i) -> __m512i {
        // SAFETY: `_mm512_sub_epi32` needs AVX-512 F, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx512`); registers only.
        unsafe { _mm512_sub_epi32(self, other) }
    }

    #[inline(always)]
    unsafe fn shl<const S: i32>(self) -> __m512i {
        // SAFETY: `_mm512_sll_epi32` needs AVX-512 F, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx512`), and
        // `_mm_cvtsi32_si128` only SSE2, baseline on x86-64; registers only.
        unsafe { _mm512_sll_epi32(self, _mm_cvtsi32_si128(S)) }
    }

    #[inline(always)]
    unsafe fn shr<const S: i32>(self) -> __m512i {
        // SAFETY: `_mm512_srl_epi32` needs AVX-512 F, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx512`), and
        // `_mm_cvtsi32_si128` only SSE2, baseline on x86-64; registers only.
        unsafe { _mm512_srl_epi32(self, _mm_cvtsi32_si128(S)) }
    }

    #[inline(always)]
    unsafe fn shl_by(self, counts: __m512i) -> __m512i {
        // SAFETY: `_mm512_sllv_epi32` needs AVX-512 F, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx512`); registers only.
        unsafe { _mm512_sllv_epi32(self, counts) }
    }

    #[inline(always)]
    unsafe fn shr_by(self, counts: __m512i) -> __m512i {
        // SAFETY: `_mm512_srlv_epi32` needs AVX-512 F, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx512`); registers only.
        unsafe { _mm512_srlv_epi32(self, counts) }
    }

    #[inline(always)]
    unsafe fn abs(self) -> __m512i {
        // SAFETY: `_mm512_abs_epi32` needs AVX-512 F, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx512`); registers only.
        unsafe { _mm512_abs_epi32(self) }
    }

    #[inline(always)]
    unsafe fn spread_top_bit(self) -> __m512i {
        // SAFETY: `_mm512_srai_epi32` needs AVX-512 F, which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx512`); registers only.
        unsafe { _mm512_srai_epi32::<31>(self) }
    }

    #[inline(always)]
    unsafe fn equal(self, other: __m512i) -> __mmask16 {
        // SAFETY: `_mm512_cmpeq_epi32_mask` needs AVX-512 F, which the CPU runs
        // by `Simd`'s contract (the caller holds a `LanesAvx512`); registers
        // only.
        unsafe { _mm512_cmpeq_epi32_mask(self, other) }
    }

    #[inline(always)]
    unsafe fn none_of(self, bits: __m512i) -> __mmask16 {
        // SAFETY: `_mm512_testn_epi32_mask` needs AVX-512 F, which the CPU runs
        // by `Simd`'s contract (the caller holds a `LanesAvx512`); registers
        // only.
        unsafe { _mm512_testn_epi32_mask(self, bits) }
    }

    #[inline(always)]
    unsafe fn both(a: __mmask16, b: __mmask16) -> __mmask16 {
        a & b
    }

    #[inline(always)]
    unsafe fn either(a: __mmask16, b: __mmask16) -> __mmask16 {
        a | b
    }

    #[inline(always)]
    unsafe fn neither(a: __mmask16, b: __mmask16) -> __mmask16 {
        !(a | b)
    }

    #[inline(always)]
    unsafe fn except(set: __mmask16, but: __mmask16) -> __mmask16 {
        set & !but
    }

    #[inline(always)]
    unsafe fn bits(set: __mmask16) -> u32 {
        u32::from(set)
    }

    #[inline(always)]
    unsafe fn select(set: __mmask16, if_set: __m512i, otherwise: __m512i) -> __m512i {
        // SAFETY: `_mm512_mask_blend_epi32` needs AVX-512 F, which the CPU runs
        // by `Simd`'s contract (the caller holds a `LanesAvx512`); registers
        // only.
        unsafe { _mm512_mask_blend_epi32(set, otherwise, if_set) }
    }

    #[inline(always)]
    unsafe fn add_in(self, set: __mmask16, amount: __m512i) -> __m512i {
        // SAFETY: `_mm512_mask_add_epi32` needs AVX-512 F, which the CPU runs
        // by `Simd`'s contract (the caller holds a `LanesAvx512`); registers
        // only.
        unsafe { _mm512_mask_add_epi32(self, set, self, amount) }
    }

    #[inline(always)]
    unsafe fn sub_in(self, set: __mmask16, amount: __m512i) -> __m512i {
        // SAFETY: `_mm512_mask_sub_epi32` needs AVX-512 F, which the CPU runs
        // by `Simd`'s contract (the caller holds a `LanesAvx512`); registers
        // only.
        unsafe { _mm512_mask_sub_epi32(self, set, self, amount) }
    }

    #[inline(always)]
    unsafe fn up_to_highest(self) -> __m512i {
        // As for AVX2: the float's exponent field is 127 + the highest bit
        // (0 for a lane of 0), and all ones shifted right by 158 minus it
        // keep the bits up to the highest.
        // SAFETY: the conversion, shifts and subtraction need AVX-512 F, which
        // the CPU runs by `Simd`'s contract (the caller holds a `LanesAvx512`);
        // registers only.
        unsafe {
            let field = _mm512_srli_epi32::<23>(_mm512_castps_si512(_mm512_cvtepi32_ps(self)));
            let shift = _mm512_sub_epi32(_mm512_set1_epi32(158), field);
            _mm512_srlv_epi32(_mm512_set1_epi32(-1), shift)
        }
    }

    #[inline(always)]
    unsafe fn highest_bit(self) -> __m512i {
        // The float's exponent field, 127 + the highest bit.
        // SAFETY: the conversion, shift and subtraction need AVX-512 F, which
        // the CPU runs by `Simd`'s contract (the caller holds a `LanesAvx512`);
        // registers only.
        unsafe {
            let field = _mm512_srli_epi32::<23>(_mm512_castps_si512(_mm512_cvtepi32_ps(self)));
            _mm512_sub_epi32(field, _mm512_set1_epi32(127))
        }
    }

    #[inline(always)]
    unsafe fn add_counts(self, set: __mmask16, squares: __m512i) -> __m512i {
        // SAFETY: `_mm512_popcnt_epi32` needs AVX-512 VPOPCNTDQ and
        // `_mm512_mask_add_epi32` AVX-512 F, both of which the CPU runs by
        // `Simd`'s contract (the caller holds a `LanesAvx512`); registers only.
        unsafe { _mm512_mask_add_epi32(self, set, self, _mm512_popcnt_epi32(squares)) }
    }

    #[inline(always)]
    unsafe fn load_entries_below(stack: *const LaneEntry, at: __m512i) -> [__m512i; 4] {
        // SAFETY: the intrinsics need AVX-512 F, which the CPU runs by `Simd`'s
        // contract (the caller holds a `LanesAvx512`). `__m512i` and `[u32;
        // 16]` are both 64 bytes and every bit pattern is valid for both, so
        // the transmute is sound. By the same contract each lane of `at` minus
        // `ENTRY_BYTES` is a multiple of it within `stack`'s initialised
        // entries, as `slot_below` requires, so each `_mm_load_si128` (SSE2,
        // baseline) reads one initialised `LaneEntry`, 16-byte aligned as it needs
        // (`LaneEntry` is `align(16)`).
        unsafe {
            let at: [u32; 16] = core::mem::transmute(at);
            // Lanes l, l + 4, l + 8 and l + 12 in the four quarters, then a
            // 4x4 transpose of words in each quarter.
            // (A macro, not a closure: a closure would be compiled without
            // the kernel's features.)
            macro_rules! quarters {
                ($l:expr) => {{
                    let v = _mm512_castsi128_si512(_mm_load_si128(slot_below(stack, at[$l])));
                    let v =
                        _mm512_inserti32x4::<1>(v, _mm_load_si128(slot_below(stack, at[$l + 4])));
                    let v =
                        _mm512_inserti32x4::<2>(v, _mm_load_si128(slot_below(stack, at[$l + 8])));
                    _mm512_inserti32x4::<3>(v, _mm_load_si128(slot_below(stack, at[$l + 12])))
                }};
            }
            let (r0, r1, r2, r3) = (quarters!(0), quarters!(1), quarters!(2), quarters!(3));
            let t0 = _mm512_unpacklo_epi32(r0, r1);
            let t1 = _mm512_unpackhi_epi32(r0, r1);
            let t2 = _mm512_unpacklo_epi32(r2, r3);
            let t3 = _mm512_unpackhi_epi32(r2, r3);
            [
                _mm512_unpacklo_epi64(t0, t2),
                _mm512_unpackhi_epi64(t0, t2),
                _mm512_unpacklo_epi64(t1, t3),
                _mm512_unpackhi_epi64(t1, t3),
            ]
        }
    }

    #[inline(always)]
    unsafe fn store_entries_above(stack: *mut LaneEntry, at: __m512i, words: [__m512i; 4]) {
        // SAFETY: the intrinsics need AVX-512 F, which the CPU runs by `Simd`'s
        // contract (the caller holds a `LanesAvx512`). `__m512i` and `[u32;
        // 16]` are both 64 bytes and every bit pattern is valid for both, so
        // the transmute is sound. By the same contract each lane of `at` plus
        // `ENTRY_BYTES` is a multiple of it within `stack`'s entries, as
        // `slot_above` requires, so each `_mm_store_si128` (SSE2, baseline)
        // writes one `LaneEntry` of the stack, 16-byte aligned as it needs (`LaneEntry`
        // is `align(16)`).
        unsafe {
            let at: [u32; 16] = core::mem::transmute(at);
            let [w0, w1, w2, w3] = words;
            let t0 = _mm512_unpacklo_epi32(w0, w1);
            let t1 = _mm512_unpackhi_epi32(w0, w1);
            let t2 = _mm512_unpacklo_epi32(w2, w3);
            let t3 = _mm512_unpackhi_epi32(w2, w3);
            let rows = [
                _mm512_unpacklo_epi64(t0, t2),
                _mm512_unpackhi_epi64(t0, t2),
                _mm512_unpacklo_epi64(t1, t3),
                _mm512_unpackhi_epi64(t1, t3),
            ];
            for (l, row) in rows.into_iter().enumerate() {
                _mm_store_si128(slot_above(stack, at[l]), _mm512_castsi512_si128(row));
                _mm_store_si128(
                    slot_above(stack, at[l + 4]),
                    _mm512_extracti32x4_epi32::<1>(row),
                );
                _mm_store_si128(
                    slot_above(stack, at[l + 8]),
                    _mm512_extracti32x4_epi32::<2>(row),
                );
                _mm_store_si128(
                    slot_above(stack, at[l + 12]),
                    _mm512_extracti32x4_epi32::<3>(row),
                );
            }
        }
    }
}
