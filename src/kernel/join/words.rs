//! What the join needs of a vector unit, written once per instruction set:
//! [`PatternWords`] for `u64` (any target) here, for `__m256i` in
//! `avx2.rs`, for `__m512i` in `avx512.rs`. The join's algorithm
//! (`halves.rs`, `matcher.rs`) is generic over it, and each kernel compiles
//! it inside one `#[target_feature]` function, so that these methods inline
//! there with the kernel's instructions.
//!
//! The lane kernels have a vector trait of their own
//! (`kernel::lanes::simd::Simd`), implemented for the same two x86 types.
//! They are kept apart because they share no operation: this one sees a
//! vector as 64-bit words of bit-sliced patterns (OR, popcount, slicing,
//! and a plain `u64` for every target), the lanes' as 32-bit lanes that
//! each walk a board (compares, blends, shifts per lane, stack loads), on
//! x86-64 only. One trait would make each type implement the other's half.

use super::cuts::Cuts;

/// A vector of `WORDS` words of bit-sliced patterns, and the few other
/// steps of the join an instruction set does its own way. The methods are
/// `unsafe`: the CPU must run the instructions of the type's kernel (the
/// kernel's type proves it), and the pointer contracts below must hold.
pub(crate) trait PatternWords: Copy {
    /// `u64` words per vector.
    const WORDS: usize;

    /// All lanes clear.
    ///
    /// # Safety
    ///
    /// The CPU runs this type's instructions.
    unsafe fn zero() -> Self;

    /// `self | *words`, for `WORDS` words from `words`.
    ///
    /// # Safety
    ///
    /// As for [`PatternWords::zero`]; `words` points to `WORDS` readable words.
    unsafe fn or_load(self, words: *const u64) -> Self;

    /// `self | *a | *b`, for `WORDS` words from each: two rows of an item
    /// ORed in one step where the vector unit has a three-input OR.
    ///
    /// # Safety
    ///
    /// As for [`PatternWords::or_load`], for `a` and `b`.
    #[inline(always)]
    unsafe fn or_load_two(self, a: *const u64, b: *const u64) -> Self {
        // SAFETY: the caller's.
        unsafe { self.or_load(a).or_load(b) }
    }

    /// Stores the vector's `WORDS` words at `words`.
    ///
    /// # Safety
    ///
    /// As for [`PatternWords::zero`]; `words` points to `WORDS` writable
    /// words.
    unsafe fn store(self, words: *mut u64);

    /// Whether [`PatternWords::compress`] is one instruction (BMI2's
    /// `pext`): the matcher then reads an item's rows four at a time,
    /// through tables (`or_tables.rs`), where it reads them one by one
    /// otherwise.
    const COMPRESSES: bool = false;

    /// The bits of `bits` at the places of the bits of `mask`, packed into
    /// the low bits, in order (`pext`). Only read where
    /// [`PatternWords::COMPRESSES`].
    ///
    /// # Safety
    ///
    /// As for [`PatternWords::zero`].
    #[inline(always)]
    unsafe fn compress(bits: u64, mask: u64) -> u64 {
        let (mut packed, mut rest, mut at) = (0, mask, 0);
        while rest != 0 {
            packed |= (bits >> rest.trailing_zeros() & 1) << at;
            rest &= rest - 1;
            at += 1;
        }
        packed
    }

    /// `sum` plus the set bits of every vector of `hits`, in whatever
    /// lanes the type keeps its sums (read by [`PatternWords::total`]).
    ///
    /// # Safety
    ///
    /// As for [`PatternWords::zero`].
    unsafe fn add_counts<const G: usize>(sum: Self, hits: [Self; G]) -> Self;

    /// The sum of every lane of a sum made by [`PatternWords::add_counts`].
    ///
    /// # Safety
    ///
    /// As for [`PatternWords::zero`].
    unsafe fn total(sum: Self) -> u64;

    /// ORs `patterns` (at most 64) bit-sliced into `words`: bit `b` of
    /// pattern `j` to bit `j` of `words[row[b] * stride]`, for every bit
    /// `b` of `union`, which holds every bit of the patterns.
    ///
    /// # Safety
    ///
    /// As for [`PatternWords::zero`]; `patterns` holds at most 64 masks, and
    /// `row[b] * stride` is inside `words` for every bit `b` of `union`.
    unsafe fn slice(
        patterns: &[u64],
        union: u64,
        row: &[usize; 64],
        stride: usize,
        words: &mut [u64],
    ) {
        for (lane, &pattern) in patterns.iter().enumerate() {
            let mut rest = pattern & union;
            while rest != 0 {
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                words[row[bit] * stride] |= 1 << lane;
            }
        }
    }

    /// The class of `mask` by `cuts`: its cut bits, lowest first
    /// ([`Cuts::class`], by table; BMI2's `pext` where the kernel has it).
    ///
    /// # Safety
    ///
    /// As for [`PatternWords::zero`].
    #[inline(always)]
    unsafe fn class(cuts: &Cuts, mask: u64) -> usize {
        cuts.class(mask)
    }

    /// Writes `crossing | others_crossing[j]` for every `j` whose
    /// `others_inner[j]` shares no bit with `inner`, in order, from `out`;
    /// returns how many.
    ///
    /// # Safety
    ///
    /// As for [`PatternWords::zero`]; `out` has room for `others_inner.len() +
    /// 8` words, and the two slices are as long as each other.
    unsafe fn join_pairs(
        inner: u32,
        crossing: u64,
        others_inner: &[u32],
        others_crossing: &[u64],
        out: *mut u64,
    ) -> usize {
        // SAFETY: the caller's.
        unsafe { join_pairs_one_by_one(inner, crossing, others_inner, others_crossing, out) }
    }
}

/// The portable vector: one word, 64 patterns.
impl PatternWords for u64 {
    const WORDS: usize = 1;

    unsafe fn zero() -> u64 {
        0
    }

    unsafe fn or_load(self, words: *const u64) -> u64 {
        // SAFETY: the caller gives a readable word.
        self | unsafe { *words }
    }

    unsafe fn add_counts<const G: usize>(sum: u64, hits: [u64; G]) -> u64 {
        hits.iter()
            .fold(sum, |sum, hit| sum + u64::from(hit.count_ones()))
    }

    unsafe fn total(sum: u64) -> u64 {
        sum
    }

    unsafe fn store(self, words: *mut u64) {
        // SAFETY: the caller gives a writable word.
        unsafe { *words = self }
    }
}

/// [`PatternWords::join_pairs`] one pair at a time: what every type does, and
/// what the vector ones do with the pairs left after their last vector.
///
/// # Safety
///
/// `out` has room for `others_inner.len()` words, and the two slices are as
/// long as each other.
#[inline(always)]
pub(crate) unsafe fn join_pairs_one_by_one(
    inner: u32,
    crossing: u64,
    others_inner: &[u32],
    others_crossing: &[u64],
    out: *mut u64,
) -> usize {
    debug_assert_eq!(others_inner.len(), others_crossing.len());
    let mut written = 0;
    for (&other_inner, &other_crossing) in others_inner.iter().zip(others_crossing) {
        // Written always, kept (the count moved past it) only if the two
        // share no inner bit: no branch to mispredict.
        // SAFETY: `written` is at most the pairs so far, within the room
        // the caller gives.
        unsafe { *out.add(written) = crossing | other_crossing };
        written += usize::from(inner & other_inner == 0);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The portable `compress` packs the bits under the mask, lowest first,
    /// as `pext` does (checked against `pext` itself where the CPU has it).
    #[test]
    fn compress_packs_the_bits_under_the_mask() {
        // SAFETY: `u64`'s steps are plain Rust.
        let compress = |bits, mask| unsafe { <u64 as PatternWords>::compress(bits, mask) };
        assert_eq!(compress(0b1011_0110, 0b1111_0000), 0b1011);
        assert_eq!(compress(0b1011_0110, 0b0101_0101), 0b0110);
        assert_eq!(compress(u64::MAX, 1 << 63 | 1), 0b11);
        assert_eq!(compress(u64::MAX, 0), 0);
        #[cfg(all(simd_kernels, target_arch = "x86_64"))]
        if std::arch::is_x86_feature_detected!("bmi2") {
            let mut seed = 0x9e37_79b9_7f4a_7c15u64;
            for _ in 0..1000 {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let (bits, mask) = (seed, seed.rotate_left(29) ^ seed.rotate_left(7));
                // SAFETY: the CPU has BMI2 (checked just above).
                let pext = unsafe { pext(bits, mask) };
                assert_eq!(compress(bits, mask), pext, "{bits:#x} {mask:#x}");
            }
        }
    }

    /// BMI2's `pext`.
    ///
    /// # Safety
    ///
    /// The CPU runs BMI2.
    #[cfg(all(simd_kernels, target_arch = "x86_64"))]
    #[target_feature(enable = "bmi2")]
    unsafe fn pext(bits: u64, mask: u64) -> u64 {
        core::arch::x86_64::_pext_u64(bits, mask)
    }
}
