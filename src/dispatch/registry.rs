//! The registry: the one map from a kernel's name to the code that runs
//! it, a line per kernel (`build`). Each kernel type can be built only
//! where this CPU runs it (its `new()` asks for the features of its row in
//! the kernel table), so what this hands out is `'static` and proves its
//! features: a solver for whole boards and, for a kernel that counts a
//! plan's pieces, the [`PieceCounter`] the plan runs.

#[cfg(feature = "std")]
use crate::Error;
#[cfg(feature = "std")]
use crate::kernel::Method;
use crate::kernel::blocks::Blocks;
#[cfg(feature = "alloc")]
use crate::kernel::join::{Join, Joiner};
#[cfg(feature = "std")]
use crate::kernel::pieces::PieceCounter;
use crate::kernel::portable::Portable;
use crate::kernel::symmetric::{Symmetric, Walkers};
use crate::reference::bitboard64::Bitboard64;
use crate::reference::brute_force::BruteForce;
use crate::reference::heap_permutations::HeapPermutations;
use crate::reference::threat_masks::ThreatMasks;
use crate::{Kernel, Solver};

/// A kernel built: its solver and, for a kernel that counts a plan's
/// pieces, the same kernel as a [`PieceCounter`].
#[derive(Clone, Copy)]
pub(super) struct Built {
    pub(super) solver: &'static dyn Solver,
    #[cfg(feature = "std")]
    pub(super) counter: Option<PieceCounter>,
}

impl Built {
    /// A kernel that solves whole boards only.
    fn solver(solver: &'static dyn Solver) -> Built {
        Built {
            solver,
            #[cfg(feature = "std")]
            counter: None,
        }
    }

    /// A kernel whose walkers also count a symmetric plan's pieces.
    fn walkers(walkers: &'static dyn Walkers) -> Built {
        Built {
            solver: walkers,
            #[cfg(feature = "std")]
            counter: Some(PieceCounter::Walkers(walkers)),
        }
    }

    /// A join kernel, which also counts a join plan's pieces.
    #[cfg(feature = "alloc")]
    fn joiner<J: Joiner + 'static>(joiner: &'static J) -> Built {
        Built {
            solver: joiner,
            #[cfg(feature = "std")]
            counter: Some(PieceCounter::Joiner(joiner)),
        }
    }
}

/// The kernel type behind a concrete `kernel`, built, or `None` where this
/// build or CPU cannot run it: the one map from names to the code that
/// runs them, a line per kernel. (Whether it counts pieces, which this
/// says by the type's trait, must agree with the kernel table's plan
/// method: a test checks it.)
pub(super) fn build(kernel: Kernel) -> Option<Built> {
    match kernel {
        Kernel::Auto | Kernel::Asm => None,
        Kernel::Portable => Portable::new().map(|k| Built::solver(k.as_static())),
        Kernel::Symmetric => Symmetric::new().map(|k| Built::walkers(k.as_static())),
        Kernel::Blocks => Blocks::new().map(|k| Built::solver(k.as_static())),
        #[cfg(x86_kernels)]
        Kernel::BlocksBmi => {
            crate::kernel::blocks::BlocksBmi::new().map(|k| Built::solver(k.as_static()))
        }
        #[cfg(x86_kernels)]
        Kernel::SymmetricBmi => {
            crate::kernel::symmetric::SymmetricBmi::new().map(|k| Built::walkers(k.as_static()))
        }
        #[cfg(simd_kernels)]
        Kernel::LanesAvx512 => {
            crate::kernel::lanes::avx512::LanesAvx512::new().map(|k| Built::walkers(k.as_static()))
        }
        #[cfg(simd_kernels)]
        Kernel::LanesAvx2 => {
            crate::kernel::lanes::avx2::LanesAvx2::new().map(|k| Built::walkers(k.as_static()))
        }
        #[cfg(feature = "alloc")]
        Kernel::Join => Join::new().map(|k| Built::joiner(k.as_static())),
        #[cfg(all(simd_kernels, feature = "alloc"))]
        Kernel::JoinAvx512 => {
            crate::kernel::join::avx512::JoinAvx512::new().map(|k| Built::joiner(k.as_static()))
        }
        #[cfg(all(simd_kernels, feature = "alloc"))]
        Kernel::JoinAvx512Bw => {
            crate::kernel::join::avx512bw::JoinAvx512Bw::new().map(|k| Built::joiner(k.as_static()))
        }
        #[cfg(all(simd_kernels, feature = "alloc"))]
        Kernel::JoinAvx2 => {
            crate::kernel::join::avx2::JoinAvx2::new().map(|k| Built::joiner(k.as_static()))
        }
        #[cfg(simd_kernels)]
        Kernel::Sse41 => crate::kernel::sse41::Sse41::new().map(|k| Built::solver(k.as_static())),
        #[cfg(simd_kernels)]
        Kernel::Avx => crate::kernel::avx::Avx::new().map(|k| Built::solver(k.as_static())),
        #[cfg(asm_kernels)]
        Kernel::AsmSse41 => crate::kernel::asm::Asm::sse41().map(|k| Built::solver(k.as_static())),
        #[cfg(asm_kernels)]
        Kernel::AsmAvx => crate::kernel::asm::Asm::avx().map(|k| Built::solver(k.as_static())),
        Kernel::Bitboard64 => Bitboard64::new().map(|k| Built::solver(k.as_static())),
        Kernel::ThreatMasks => ThreatMasks::new().map(|k| Built::solver(k.as_static())),
        Kernel::BruteForce => BruteForce::new().map(|k| Built::solver(k.as_static())),
        Kernel::HeapPermutations => HeapPermutations::new().map(|k| Built::solver(k.as_static())),
        // Kernels this build does not carry.
        #[allow(unreachable_patterns)]
        _ => None,
    }
}

/// The solver behind a concrete `kernel`, or `None` where this build or
/// CPU cannot run it.
pub(super) fn try_solver(kernel: Kernel) -> Option<&'static dyn Solver> {
    build(kernel).map(|built| built.solver)
}

/// The asm kernel in the encoding the name `asm` stands for on this CPU
/// (`dispatch::asm_kernel`, which decides it: AVX where it runs, else
/// SSE4.1), built; `None` where neither runs.
#[cfg(asm_kernels)]
pub fn best_asm() -> Option<crate::kernel::asm::Asm> {
    use crate::kernel::asm::Asm;
    match super::policy::asm_kernel() {
        Kernel::AsmAvx => Asm::avx(),
        Kernel::AsmSse41 => Asm::sse41(),
        _ => None,
    }
}

/// The counter of `method`'s pieces that `asked` stands for: the kernel
/// itself if it counts them and runs here; for `auto`, the fastest kernel
/// of that method this CPU runs (the first of `auto`'s list for large
/// boards).
///
/// # Errors
///
/// [`Error::WrongMethod`] for a kernel that counts the other method's
/// pieces, [`Error::KernelUnavailable`] if this CPU or build cannot run the
/// kernel, [`Error::NotSplittable`] for one that counts no pieces.
#[cfg(feature = "std")]
pub(crate) fn counter(asked: Kernel, method: Method) -> Result<PieceCounter, Error> {
    if asked.method().is_some_and(|own| own != method) {
        return Err(Error::WrongMethod {
            kernel: asked,
            method,
        });
    }
    let kernel = match asked {
        Kernel::Auto => {
            super::policy::auto_for_plans(method).ok_or_else(|| Error::unavailable(Kernel::Auto))?
        }
        Kernel::Asm => super::policy::asm_kernel(),
        other => other,
    };
    // Availability first: a kernel this CPU lacks is unavailable, whether
    // or not it would split.
    let built = build(kernel).ok_or_else(|| Error::unavailable(kernel))?;
    if kernel.method().is_none() {
        return Err(Error::NotSplittable(asked));
    }
    built.counter.ok_or_else(|| Error::unavailable(kernel))
}
