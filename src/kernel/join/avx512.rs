//! The `join-avx512` kernel: the join ([`super`]) with vectors of 512
//! patterns ([`super::matcher`]): `vporq` of an item's slices, then
//! `vpopcntq` (AVX512-VPOPCNTDQ) of the conflict bits. The patterns are
//! sliced eight at a time: `vptestmq` tests bit `b` of eight patterns
//! into a mask register, a byte of slice `b`. `tests/disassembly.rs`
//! checks that these instructions are there.

use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_loadu_si512, _mm512_or_si512, _mm512_popcnt_epi64,
    _mm512_reduce_add_epi64, _mm512_set1_epi64, _mm512_setzero_si512, _mm512_test_epi64_mask,
};
use core::ops::ControlFlow;

use super::matcher::{Group, Lanes, Matcher, Scratch, disjoint_pairs};
use crate::kernel::{Kernel, Solver, Visit};
use crate::{Count, Error};

/// The `join-avx512` kernel. Holding one proves this CPU (and its
/// operating system) runs AVX-512 F and VPOPCNTDQ.
#[derive(Clone, Copy, Debug)]
pub struct JoinAvx512(());

impl JoinAvx512 {
    /// `Some` if this CPU has AVX-512 F and VPOPCNTDQ and the operating
    /// system saves the zmm and mask registers (asked once, see
    /// `crate::cpu`).
    pub fn new() -> Option<JoinAvx512> {
        crate::cpu::has_all(Kernel::JoinAvx512.cpu_features()).then_some(JoinAvx512(()))
    }

    /// This proof as a `'static` solver: what the dispatcher hands out
    /// (the type is zero-sized, so the reference costs nothing).
    pub(crate) fn as_static(self) -> &'static JoinAvx512 {
        &JoinAvx512(())
    }
}

impl JoinAvx512 {
    /// The count on `threads` threads (see [`crate::Kernel::count_on_threads`]).
    #[cfg(feature = "std")]
    pub(crate) fn count_on_threads(self, n: usize, threads: usize) -> Count {
        super::count_on_threads(n, threads, || Avx512Matcher::new(self))
    }
}

impl Solver for JoinAvx512 {
    fn kernel(&self) -> Kernel {
        Kernel::JoinAvx512
    }

    fn count(&self, n: usize) -> Result<Count, Error> {
        Kernel::JoinAvx512.check_size(n)?;
        Ok(super::count(n, &mut Avx512Matcher::new(*self)))
    }

    fn for_each_solution(&self, n: usize, _visit: Visit<'_>) -> Result<ControlFlow<()>, Error> {
        Kernel::JoinAvx512.check_size(n)?;
        Err(Error::CountOnly(Kernel::JoinAvx512))
    }
}

/// The AVX-512 matcher.
pub(crate) struct Avx512Matcher {
    /// The proof that AVX-512 F and VPOPCNTDQ run here.
    _cpu: JoinAvx512,
    scratch: Scratch,
}

impl Avx512Matcher {
    pub(crate) fn new(cpu: JoinAvx512) -> Avx512Matcher {
        Avx512Matcher {
            _cpu: cpu,
            scratch: Scratch::default(),
        }
    }
}

impl Matcher for Avx512Matcher {
    fn disjoint_pairs(&mut self, items: Group<'_>, patterns: Group<'_>) -> u64 {
        // SAFETY: `self._cpu` is a `JoinAvx512`, which `JoinAvx512::new`
        // makes only where the CPU and operating system run AVX-512 F and
        // VPOPCNTDQ.
        unsafe { matched(items, patterns, &mut self.scratch) }
    }
}

/// [`disjoint_pairs`] compiled for AVX-512, with `__m512i` vectors.
///
/// # Safety
///
/// The CPU must support AVX-512 F and VPOPCNTDQ (and the operating system
/// save the zmm and mask registers).
#[target_feature(enable = "avx512f,avx512vpopcntdq")]
unsafe fn matched(items: Group<'_>, patterns: Group<'_>, scratch: &mut Scratch) -> u64 {
    // SAFETY: this function's features are `__m512i`'s instructions.
    unsafe { disjoint_pairs::<__m512i>(items, patterns, scratch) }
}

// SAFETY (every method): inlined into `matched`, which enables AVX-512 F
// and VPOPCNTDQ; the callers keep the pointer contracts written on the
// trait.
impl Lanes for __m512i {
    const WORDS: usize = 8;

    #[inline(always)]
    unsafe fn zero() -> __m512i {
        unsafe { _mm512_setzero_si512() }
    }

    #[inline(always)]
    unsafe fn or_load(self, words: *const u64) -> __m512i {
        unsafe { _mm512_or_si512(self, _mm512_loadu_si512(words.cast())) }
    }

    #[inline(always)]
    unsafe fn add_counts<const G: usize>(sum: __m512i, hits: [__m512i; G]) -> __m512i {
        unsafe {
            hits.iter()
                .fold(sum, |sum, &hit| _mm512_add_epi64(sum, _mm512_popcnt_epi64(hit)))
        }
    }

    #[inline(always)]
    unsafe fn total(sum: __m512i) -> u64 {
        unsafe { _mm512_reduce_add_epi64(sum) as u64 }
    }

    /// Eight patterns at a time: `vptestmq` against bit `b` gives their
    /// eight bits of slice `b` in a mask register.
    #[inline(always)]
    unsafe fn slice(
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
        let vectors: [__m512i; 8] = core::array::from_fn(|i| {
            // SAFETY: `lanes[i]` is 64 readable bytes; `loadu` takes any
            // alignment.
            unsafe { _mm512_loadu_si512(lanes[i].as_ptr().cast()) }
        });
        let used = patterns.len().div_ceil(8);
        let mut rest = union;
        while rest != 0 {
            let bit = rest.trailing_zeros();
            rest &= rest - 1;
            let probe = unsafe { _mm512_set1_epi64(1 << bit) };
            let mut word = 0u64;
            for (k, &v) in vectors[..used].iter().enumerate() {
                word |= u64::from(unsafe { _mm512_test_epi64_mask(v, probe) }) << (8 * k);
            }
            words[row[bit as usize] * stride] |= word;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::join::matcher::check_against_the_oracle;

    #[test]
    fn the_avx512_matcher_agrees_with_testing_every_pair() {
        let Some(cpu) = JoinAvx512::new() else {
            eprintln!("SKIPPED: this CPU lacks AVX-512 F or VPOPCNTDQ");
            return;
        };
        check_against_the_oracle(&mut Avx512Matcher::new(cpu));
    }
}
