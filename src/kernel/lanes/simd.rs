//! What the lane walkers need of a vector unit, written once per
//! instruction set: [`Simd`] for `__m256i` (8 lanes, `avx2.rs`) and
//! `__m512i` (16 lanes, `avx512.rs`). The walk (`walk.rs`) is generic over
//! it, and each kernel compiles the walk inside one `#[target_feature]`
//! function, so that these methods inline there with the kernel's
//! instructions. (The join kernels' vector trait, `PatternWords` in
//! `kernel::join::words`, is another: it sees the same registers as 64-bit
//! words of bit-sliced patterns, and says why the two stay apart.)

use core::arch::x86_64::__m128i;

/// One entry of a lane's stack: a row with squares left to try and its
/// masks, in the order of [`Simd::load_entries`]: live squares (with the
/// row in the top bits, see `walk.rs`), columns, left and right diagonals.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
pub(crate) struct LaneEntry(pub(crate) [u32; 4]);

/// Bytes between two entries of a lane's stack.
pub(crate) const ENTRY_BYTES: u32 = core::mem::size_of::<LaneEntry>() as u32;

/// The slot below the entry at byte offset `offset` from `stack`, as a
/// 16-byte vector's address (the same for every instruction set).
///
/// # Safety
///
/// `offset` minus [`ENTRY_BYTES`] is a multiple of it within `stack`'s
/// entries.
#[inline(always)]
pub(crate) unsafe fn slot_below(stack: *const LaneEntry, offset: u32) -> *const __m128i {
    // SAFETY: the caller's. One entry down: a displacement in the load's
    // address.
    unsafe {
        stack
            .cast::<u8>()
            .add(offset as usize)
            .cast::<LaneEntry>()
            .sub(1)
            .cast()
    }
}

/// The slot above the entry at byte offset `offset` from `stack`, as a
/// 16-byte vector's address.
///
/// # Safety
///
/// `offset` plus [`ENTRY_BYTES`] is a multiple of it within `stack`'s
/// entries.
#[inline(always)]
pub(crate) unsafe fn slot_above(stack: *mut LaneEntry, offset: u32) -> *mut __m128i {
    // SAFETY: the caller's. One entry up: a displacement in the store's
    // address.
    unsafe {
        stack
            .cast::<u8>()
            .add(offset as usize)
            .cast::<LaneEntry>()
            .add(1)
            .cast()
    }
}

/// A vector of `LANES` `u32` lanes, and a set of lanes ([`Simd::Mask`]).
///
/// The methods are `unsafe`: the CPU must run the instructions of the
/// type's kernel (the kernel's type proves it), and the pointer contracts
/// below must hold.
pub(crate) trait Simd: Copy {
    /// `u32` lanes per vector.
    const LANES: usize;

    /// The largest N whose whole board these lanes count over mirror
    /// starts rather than the symmetric subproblems ([`super::count_board`]):
    /// more lanes keep more starts in flight, so the mirror search, which
    /// needs no set-up but walks twice the symmetric kernel's boards, wins
    /// further up.
    const MIRROR_UP_TO: usize;

    /// A set of lanes: a vector of all-ones and all-zeros lanes for AVX2,
    /// a mask register for AVX-512.
    type Mask: Copy;

    /// Every lane `value`.
    ///
    /// # Safety
    ///
    /// The CPU runs this type's instructions.
    unsafe fn splat(value: u32) -> Self;

    /// The first `LANES` words of `words`.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`]; `words` has at least `LANES` words.
    unsafe fn load(words: &[u32]) -> Self;

    /// Writes the lanes to the first `LANES` words of `words`.
    ///
    /// # Safety
    ///
    /// As for [`Simd::load`].
    unsafe fn store(self, words: &mut [u32]);

    /// `self` with lane `lane` (below `LANES`) set to `value`, in
    /// registers: writing a lane through memory would stall the vector's
    /// next load, which cannot be forwarded from the narrower store.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn with_lane(self, lane: usize, value: u32) -> Self;

    /// `self & other`.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn and(self, other: Self) -> Self;

    /// `self | other`.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn or(self, other: Self) -> Self;

    /// `self ^ other`.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn xor(self, other: Self) -> Self;

    /// `!self & other`.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn and_not(self, other: Self) -> Self;

    /// `self + other`, wrapping.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn add(self, other: Self) -> Self;

    /// `self - other`, wrapping.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn sub(self, other: Self) -> Self;

    /// `self << S`.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn shl<const S: i32>(self) -> Self;

    /// `self >> S`, logical.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn shr<const S: i32>(self) -> Self;

    /// Each lane shifted left by the matching lane of `counts`; 0 where the
    /// count is 32 or more.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn shl_by(self, counts: Self) -> Self;

    /// Each lane shifted right (logically) by the matching lane of
    /// `counts`; 0 where the count is 32 or more.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn shr_by(self, counts: Self) -> Self;

    /// Each lane's absolute value, as a signed number.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn abs(self) -> Self;

    /// Each lane's top bit copied to all 32 (an arithmetic shift by 31).
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn spread_top_bit(self) -> Self;

    /// The lanes equal to `other`'s.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn equal(self, other: Self) -> Self::Mask;

    /// The lanes that share no bit with `bits`.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn none_of(self, bits: Self) -> Self::Mask;

    /// Both sets' lanes.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn both(a: Self::Mask, b: Self::Mask) -> Self::Mask;

    /// Either set's lanes.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn either(a: Self::Mask, b: Self::Mask) -> Self::Mask;

    /// The lanes in neither set.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn neither(a: Self::Mask, b: Self::Mask) -> Self::Mask;

    /// The lanes of `set` not in `but`.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn except(set: Self::Mask, but: Self::Mask) -> Self::Mask;

    /// One bit per lane of `set`, lane 0 the lowest.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn bits(set: Self::Mask) -> u32;

    /// `if_set` in the lanes of `set`, `otherwise` in the others.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn select(set: Self::Mask, if_set: Self, otherwise: Self) -> Self;

    /// `self + amount` in the lanes of `set`, `self` in the others.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn add_in(self, set: Self::Mask, amount: Self) -> Self;

    /// `self - amount` in the lanes of `set`, `self` in the others.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn sub_in(self, set: Self::Mask, amount: Self) -> Self;

    /// Every bit from 0 up to the highest bit set, in each lane; 0 in a
    /// lane of 0. Lanes below `2^24`.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn up_to_highest(self) -> Self;

    /// The index of each lane's highest bit set; lanes nonzero and below
    /// `2^24`.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn highest_bit(self) -> Self;

    /// `self` plus, in the lanes of `set`, the number of bits set in
    /// `squares`, at most two a lane.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`].
    unsafe fn add_counts(self, set: Self::Mask, squares: Self) -> Self;

    /// The entries at byte offsets `at` minus [`ENTRY_BYTES`] from
    /// `stack` (the slot below each lane's top), one per lane, as four
    /// vectors of their four words.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`]; every offset minus [`ENTRY_BYTES`] is a
    /// multiple of [`ENTRY_BYTES`] within `stack`'s initialised entries.
    unsafe fn load_entries_below(stack: *const LaneEntry, at: Self) -> [Self; 4];

    /// Writes the four words of `words` as one entry per lane, at byte
    /// offsets `at` plus [`ENTRY_BYTES`] from `stack`: the slot above each
    /// lane's top.
    ///
    /// # Safety
    ///
    /// As for [`Simd::splat`]; every offset plus [`ENTRY_BYTES`] is a
    /// multiple of [`ENTRY_BYTES`] within `stack`'s entries.
    unsafe fn store_entries_above(stack: *mut LaneEntry, at: Self, words: [Self; 4]);
}
