//! The one place that maps a [`Kernel`] to a running [`Solver`] and decides
//! what `auto` means on this CPU.
//!
//! `auto` walks [`AUTO_PREFERENCE`], fastest first, and takes the first kernel
//! that this CPU runs and that accepts the size asked. CPU features are
//! detected at run time (`is_x86_feature_detected!` caches its answer in an
//! atomic, so repeated checks cost a load); a build with
//! `--cfg queens_simd_force_portable` (or `QUEENS_SIMD_FORCE_PORTABLE=1` at
//! build time) compiles only the portable kernel into this list.

use crate::Error;
use crate::kernel::portable::Portable;
use crate::kernel::{Kernel, Role, Solver};
use crate::reference::bitboard64::Bitboard64;
use crate::reference::brute_force::BruteForce;
use crate::reference::heap_permutations::HeapPermutations;
use crate::reference::threat_masks::ThreatMasks;

cfg_if::cfg_if! {
    if #[cfg(queens_simd_force_portable)] {
        /// Kernels `auto` may choose, fastest first: only the portable one in
        /// a build that forces it.
        pub const AUTO_PREFERENCE: &[Kernel] = &[Kernel::Portable];
    } else {
        /// Kernels `auto` may choose, fastest first (as measured on the
        /// reference machine, see BENCHMARKS.md). The portable kernel comes
        /// last and accepts every size, so `auto` always finds one.
        pub const AUTO_PREFERENCE: &[Kernel] = &[Kernel::Portable];
    }
}

/// Whether this build was made with `queens_simd_force_portable`, which
/// leaves `auto` only the portable kernel.
pub const PORTABLE_FORCED: bool = cfg!(queens_simd_force_portable);

/// Whether this CPU and build can run `kernel`.
pub fn is_available(kernel: Kernel) -> bool {
    match kernel {
        Kernel::Auto => true,
        Kernel::Portable => Portable::new().is_some(),
        Kernel::Bitboard64 => Bitboard64::new().is_some(),
        Kernel::ThreatMasks => ThreatMasks::new().is_some(),
        Kernel::BruteForce => BruteForce::new().is_some(),
        Kernel::HeapPermutations => HeapPermutations::new().is_some(),
    }
}

/// The kernel `auto` picks for size `n`.
pub fn auto_kernel(n: usize) -> Kernel {
    AUTO_PREFERENCE
        .iter()
        .copied()
        .find(|k| k.role() == Role::Fast && is_available(*k) && k.sizes().contains(&n))
        .unwrap_or(Kernel::Portable)
}

/// The solver behind a concrete `kernel`, or why there is none.
pub fn solver(kernel: Kernel) -> Result<Box<dyn Solver>, Error> {
    // Every kernel type is a zero-sized proof that it can run here, so these
    // boxes do not allocate.
    let solver: Option<Box<dyn Solver>> = match kernel {
        Kernel::Auto => None,
        Kernel::Portable => Portable::new().map(|k| Box::new(k) as Box<dyn Solver>),
        Kernel::Bitboard64 => Bitboard64::new().map(|k| Box::new(k) as Box<dyn Solver>),
        Kernel::ThreatMasks => ThreatMasks::new().map(|k| Box::new(k) as Box<dyn Solver>),
        Kernel::BruteForce => BruteForce::new().map(|k| Box::new(k) as Box<dyn Solver>),
        Kernel::HeapPermutations => HeapPermutations::new().map(|k| Box::new(k) as Box<dyn Solver>),
    };
    solver.ok_or(Error::KernelUnavailable(kernel))
}
