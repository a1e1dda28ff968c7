//! The `join-avx2` kernel: the join ([`super`]) with a matcher that
//! matches an item against 256 patterns per step: `vpor` of the item's
//! slices (four blocks at a time, so that each slice number is read once
//! for four ORs), then a popcount of the conflict bits in the vector unit
//! (`vpshufb` on nibbles, `vpsadbw` into four 64-bit sums). The patterns
//! are sliced a slice at a time: `vpsllvq` moves bit `b` of four patterns
//! to their signs, `vmovmskpd` gathers them. `tests/disassembly.rs` checks
//! that these instructions are there.

use alloc::vec::Vec;
use core::arch::x86_64::{
    __m256i, _mm256_add_epi8, _mm256_add_epi64, _mm256_and_si256, _mm256_castsi256_pd,
    _mm256_extract_epi64, _mm256_loadu_si256, _mm256_movemask_pd, _mm256_or_si256, _mm256_sad_epu8,
    _mm256_set1_epi8, _mm256_set1_epi64x, _mm256_setr_epi8, _mm256_setzero_si256,
    _mm256_shuffle_epi8, _mm256_sllv_epi64, _mm256_srli_epi16,
};
use core::ops::ControlFlow;

use super::matcher::{Group, Matcher, SLICES, set_bits, sieved};
use crate::kernel::{Kernel, Solver, Visit};
use crate::{Count, Error};

/// The `join-avx2` kernel. Holding one proves this CPU (and its operating
/// system) runs AVX2.
#[derive(Clone, Copy, Debug)]
pub struct JoinAvx2(());

impl JoinAvx2 {
    /// `Some` if this CPU has AVX2 and the operating system saves the ymm
    /// registers (asked once, see `crate::cpu`).
    pub fn new() -> Option<JoinAvx2> {
        crate::cpu::has_all(Kernel::JoinAvx2.cpu_features()).then_some(JoinAvx2(()))
    }

    /// This proof as a `'static` solver: what the dispatcher hands out
    /// (the type is zero-sized, so the reference costs nothing).
    pub(crate) fn as_static(self) -> &'static JoinAvx2 {
        &JoinAvx2(())
    }
}

impl JoinAvx2 {
    /// The count on `threads` threads (see [`crate::Kernel::count_on_threads`]).
    #[cfg(feature = "std")]
    pub(crate) fn count_on_threads(self, n: usize, threads: usize) -> Count {
        super::count_on_threads(n, threads, || Avx2Matcher::new(self))
    }
}

impl Solver for JoinAvx2 {
    fn kernel(&self) -> Kernel {
        Kernel::JoinAvx2
    }

    fn count(&self, n: usize) -> Result<Count, Error> {
        Kernel::JoinAvx2.check_size(n)?;
        Ok(super::count(n, &mut Avx2Matcher::new(*self)))
    }

    fn for_each_solution(&self, n: usize, _visit: Visit<'_>) -> Result<ControlFlow<()>, Error> {
        Kernel::JoinAvx2.check_size(n)?;
        Err(Error::CountOnly(Kernel::JoinAvx2))
    }
}

/// 256 patterns to a block: one ymm register per slice.
pub(crate) struct Avx2Matcher {
    /// The proof that AVX2 runs here.
    _cpu: JoinAvx2,
    blocks: Vec<[[u64; 4]; SLICES]>,
}

impl Avx2Matcher {
    pub(crate) fn new(cpu: JoinAvx2) -> Avx2Matcher {
        Avx2Matcher {
            _cpu: cpu,
            blocks: Vec::new(),
        }
    }
}

impl Matcher for Avx2Matcher {
    fn disjoint_pairs(&mut self, items: Group<'_>, patterns: Group<'_>) -> u64 {
        sieved(
            &mut self.blocks,
            items,
            patterns,
            |patterns, blocks| {
                // SAFETY: `self._cpu` is a `JoinAvx2`, which
                // `JoinAvx2::new` makes only where the CPU and operating
                // system run AVX2.
                unsafe { slice(patterns, blocks) }
            },
            |items, union, blocks| {
                // SAFETY: as for `slice`: this CPU runs AVX2.
                unsafe { conflicts(items, union, blocks) }
            },
        )
    }
}

/// Writes `patterns` bit-sliced into `blocks` (cleared first), 256 to a
/// block, a slice at a time: each slice word gathers bit `b` of 64
/// patterns, four at a time by `vpsllvq` (bit `b` to the sign) and
/// `vmovmskpd`. Returns the union of the patterns.
///
/// # Safety
///
/// The CPU must support AVX2 (and the operating system save ymm state).
#[target_feature(enable = "avx2")]
unsafe fn slice(patterns: &[u64], blocks: &mut Vec<[[u64; 4]; SLICES]>) -> u64 {
    let union = patterns.iter().fold(0, |union, &p| union | p);
    blocks.clear();
    blocks.resize(patterns.len().div_ceil(256), [[0; 4]; SLICES]);
    for (block, group) in blocks.iter_mut().zip(patterns.chunks(256)) {
        let mut lanes = [[0u64; 4]; 64];
        for (four, masks) in lanes.iter_mut().zip(group.chunks(4)) {
            four[..masks.len()].copy_from_slice(masks);
        }
        let vectors: [__m256i; 64] = core::array::from_fn(|i| {
            // SAFETY: `lanes[i]` is 32 readable bytes and `loadu` takes
            // any alignment; AVX, which it needs, is part of this
            // function's AVX2.
            unsafe { _mm256_loadu_si256(lanes[i].as_ptr().cast()) }
        });
        let mut rest = union;
        while rest != 0 {
            let bit = rest.trailing_zeros();
            rest &= rest - 1;
            let to_sign = _mm256_set1_epi64x(i64::from(63 - bit));
            for (word, sixteen) in block[bit as usize % SLICES]
                .iter_mut()
                .zip(vectors.chunks_exact(16))
            {
                *word = sixteen.iter().enumerate().fold(0u64, |word, (k, &v)| {
                    let signs =
                        _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_sllv_epi64(v, to_sign)));
                    word | (signs as u64) << (4 * k)
                });
            }
        }
    }
    union
}

/// The pairs of `items` and the sliced patterns `words` that share a bit.
///
/// # Safety
///
/// The CPU must support AVX2 (and the operating system save ymm state).
#[target_feature(enable = "avx2")]
unsafe fn conflicts(items: &[u64], union: u64, blocks: &[[[u64; 4]; SLICES]]) -> u64 {
    // One slice of a block, 256 bits.
    let load = |words: &[u64; 4]| {
        // SAFETY: `words` is a reference to 32 readable bytes, and
        // `loadu` takes any alignment; AVX is part of this function's AVX2.
        unsafe { _mm256_loadu_si256(words.as_ptr().cast()) }
    };
    // Set bits of every nibble value.
    let nibble_bits = _mm256_setr_epi8(
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3,
        3, 4,
    );
    let low_nibble = _mm256_set1_epi8(0x0f);
    let zero = _mm256_setzero_si256();
    // Set bits per byte of a vector; at most 8 per byte, so four vectors'
    // counts add up in bytes without overflow.
    let byte_bits = |v: __m256i| {
        let low = _mm256_and_si256(v, low_nibble);
        let high = _mm256_and_si256(_mm256_srli_epi16::<4>(v), low_nibble);
        _mm256_add_epi8(
            _mm256_shuffle_epi8(nibble_bits, low),
            _mm256_shuffle_epi8(nibble_bits, high),
        )
    };
    let mut sums = zero;
    let mut bits = [0u8; 64];
    for &item in items {
        let set = set_bits(item & union, &mut bits);
        let bits = &bits[..set];
        // Four blocks at a time: each slice number read once, four ORs.
        let mut quads = blocks.chunks_exact(4);
        for quad in &mut quads {
            let (mut h0, mut h1, mut h2, mut h3) = (zero, zero, zero, zero);
            for &bit in bits {
                let slice = usize::from(bit) % SLICES;
                h0 = _mm256_or_si256(h0, load(&quad[0][slice]));
                h1 = _mm256_or_si256(h1, load(&quad[1][slice]));
                h2 = _mm256_or_si256(h2, load(&quad[2][slice]));
                h3 = _mm256_or_si256(h3, load(&quad[3][slice]));
            }
            let per_byte = _mm256_add_epi8(
                _mm256_add_epi8(byte_bits(h0), byte_bits(h1)),
                _mm256_add_epi8(byte_bits(h2), byte_bits(h3)),
            );
            sums = _mm256_add_epi64(sums, _mm256_sad_epu8(per_byte, zero));
        }
        for block in quads.remainder() {
            let mut hit = zero;
            for &bit in bits {
                hit = _mm256_or_si256(hit, load(&block[usize::from(bit) % SLICES]));
            }
            sums = _mm256_add_epi64(sums, _mm256_sad_epu8(byte_bits(hit), zero));
        }
    }
    (_mm256_extract_epi64::<0>(sums)
        + _mm256_extract_epi64::<1>(sums)
        + _mm256_extract_epi64::<2>(sums)
        + _mm256_extract_epi64::<3>(sums)) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::join::matcher::{disjoint_pairs_one_by_one, group};

    #[test]
    fn the_avx2_matcher_agrees_with_testing_every_pair() {
        let Some(cpu) = JoinAvx2::new() else {
            eprintln!("SKIPPED: this CPU lacks AVX2");
            return;
        };
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut matcher = Avx2Matcher::new(cpu);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        // Block counts around the four-at-a-time loop's edges.
        for (items, patterns) in [
            (0, 5),
            (3, 0),
            (1, 1),
            (7, 255),
            (9, 256),
            (5, 1025),
            (11, 1300),
        ] {
            let items: Vec<u64> = (0..items).map(|_| next() & next()).collect();
            let patterns: Vec<u64> = (0..patterns).map(|_| next() & next() & next()).collect();
            assert_eq!(
                matcher.disjoint_pairs(group(&items, &mut a), group(&patterns, &mut b)),
                disjoint_pairs_one_by_one(&items, &patterns)
            );
        }
    }
}
