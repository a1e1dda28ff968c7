//! The one place that maps a [`Kernel`] to a running [`Solver`] and decides
//! what `auto` and `asm` mean on this CPU.
//!
//! * **One line per kernel builds it** (`build`): the kernel's type, made
//!   only where this CPU runs it, as a solver and, for a kernel that counts
//!   a plan's pieces, as the counter the plan runs (`plans.rs` builds it
//!   from a kernel's name and hands it to the plan; the plan never imports
//!   this module). The facts of each kernel (name, sizes, plan method, CPU
//!   features) are its row of the kernel table in [`crate::kernel`].
//! * **Solvers are `&'static`.** Every kernel type is a zero-sized proof
//!   that this CPU runs it (its `new()` asks the crate's `cpu` module for the
//!   features of its row in the kernel table), so [`Kernel::solver_for`]
//!   hands out a `&'static dyn Solver`: no allocation, nothing to drop,
//!   and a caller may hold it and call it in a loop with no check per call.
//! * **The CPU is asked once.** Feature checks are cached (by the standard
//!   library with `std`, by CPUID read in `cpu` without), and `auto`'s choice for
//!   each task and N is cached in an atomic after its first use.
//! * **`auto`** walks [`auto_preference`] for the task and N asked, fastest
//!   first, and takes the first kernel that this build carries, this CPU
//!   runs, that accepts the size and that does the task (the join kernels
//!   only count). The lists are the same in every build:
//!   a kernel the build lacks is skipped like one the CPU lacks; and on
//!   every CPU, but for one list on a CPU that runs each 512-bit
//!   instruction as two halves (AMD Zen 4, `cpu::splits_512_bit_vectors`). Why each
//!   list is in its order is measured in BENCHMARKS.md (`simd/count`,
//!   `simd/enumerate`); the doc comments below keep only the decision.
//! * **Which builds carry which kernel** comes from `build.rs`'s cfg
//!   aliases: `x86_kernels` (x86-64, not forced portable: `symmetric-bmi`),
//!   `simd_kernels` (and vector registers: `sse41`, `avx`) and
//!   `asm_kernels` (and Linux: `asm-sse41`, `asm-avx`). A build with
//!   `--cfg queens_simd_force_portable` (or `QUEENS_SIMD_FORCE_PORTABLE=1`
//!   at build time) has only the plain-Rust kernels (`portable`,
//!   `symmetric`, `blocks`, `join`) and the reference kernels.
//!
//! Holding the fastest counter for one size, with no dispatch per call:
//!
//! ```
//! use queens_simd::{Kernel, kernel::Task};
//!
//! let solver = Kernel::Auto.solver_for(10, Task::Count)?; // &'static dyn Solver
//! let mut total = 0;
//! for _ in 0..3 {
//!     total += solver.count(10)?;
//! }
//! assert_eq!(total, 3 * 724);
//! # Ok::<(), queens_simd::Error>(())
//! ```

use core::ops::ControlFlow;
use core::sync::atomic::{AtomicU8, Ordering};

#[cfg(feature = "std")]
mod plans;

#[cfg(feature = "std")]
pub use plans::counts_through_plan;

use crate::board::MAX_N;
use crate::kernel::blocks::Blocks;
#[cfg(feature = "alloc")]
use crate::kernel::join::{Join, Joiner};
#[cfg(feature = "std")]
use crate::kernel::pieces::PieceCounter;
use crate::kernel::portable::Portable;
use crate::kernel::symmetric::{Symmetric, Walkers};
use crate::kernel::{Build, Kernel, Role, Solver, Task, Visit};
use crate::reference::bitboard64::Bitboard64;
use crate::reference::brute_force::BruteForce;
use crate::reference::heap_permutations::HeapPermutations;
use crate::reference::threat_masks::ThreatMasks;
use crate::{Count, Error};

/// Kernels `auto` may choose to count below N = [`BLOCKS_FROM`], fastest
/// first: the portable kernel, whose search of a board this small costs
/// less than building the blocks kernel's tables or filling the lanes'
/// stacks; then the rest in the order of [`SMALL_N_PREFERENCE`]. Measured
/// (one `--time` each, BENCHMARKS.md "auto at small N" and "The blocks
/// kernel") on Zen 5, on Zen 3 and by the issue that asked for it on an
/// Intel Xeon with AVX-512: at N = 4, 23 ns against 157 ns for
/// `lanes-avx512` (Zen 5), 25 ns against 197 ns (Xeon), 47 ns against
/// 88 ns for `blocks-bmi` (Zen 3).
const TINY_N_PREFERENCE: &[Kernel] = &[
    Kernel::Portable,
    Kernel::AsmAvx,
    Kernel::Avx,
    Kernel::AsmSse41,
    Kernel::Sse41,
    Kernel::BlocksBmi,
    Kernel::Blocks,
    Kernel::LanesAvx512,
    Kernel::LanesAvx2,
    Kernel::SymmetricBmi,
    Kernel::Symmetric,
    Kernel::JoinAvx512,
    Kernel::JoinAvx2,
    Kernel::Join,
];

/// Kernels `auto` may choose to count from N = [`BLOCKS_FROM`] up to
/// [`crate::kernel::blocks::MAX_N`], fastest first: the blocks kernels,
/// which search two rows a step and count the last two with one `popcnt`
/// (at N = 8 on Zen 3: 0.63 µs against 1.56 µs for `lanes-avx2`,
/// BENCHMARKS.md "The blocks kernel"); then the rest in the order of
/// [`SMALL_N_PREFERENCE`].
const BLOCKS_PREFERENCE: &[Kernel] = &[
    Kernel::BlocksBmi,
    Kernel::Blocks,
    Kernel::LanesAvx512,
    Kernel::LanesAvx2,
    Kernel::Portable,
    Kernel::AsmAvx,
    Kernel::Avx,
    Kernel::AsmSse41,
    Kernel::Sse41,
    Kernel::SymmetricBmi,
    Kernel::Symmetric,
    Kernel::JoinAvx512,
    Kernel::JoinAvx2,
    Kernel::Join,
];

/// Kernels `auto` may choose to count from N = [`LANES_FROM`] up to below
/// N = [`SYMMETRIC_FROM`],
/// fastest first (`simd/count` and `lanes/` in BENCHMARKS.md): the lane
/// kernels (mirror starts, no set-up), then the portable kernel, which is
/// ahead of davidad's machine, whose path from one queen to the next
/// crosses between general and xmm registers twice. On small boards the
/// symmetric kernels' fixed cost (building their subproblems and walkers)
/// outweighs the search they save.
const SMALL_N_PREFERENCE: &[Kernel] = &[
    Kernel::LanesAvx512,
    Kernel::LanesAvx2,
    Kernel::BlocksBmi,
    Kernel::Blocks,
    Kernel::Portable,
    Kernel::AsmAvx,
    Kernel::Avx,
    Kernel::AsmSse41,
    Kernel::Sse41,
    Kernel::SymmetricBmi,
    Kernel::Symmetric,
    Kernel::JoinAvx512,
    Kernel::JoinAvx2,
    Kernel::Join,
];

/// `list` with the kernels of `first` moved to its front, in `first`'s
/// order, and the others in theirs: a list derived from another where
/// measurements put some kernels ahead, rather than a copy of it. `L` is
/// `list`'s length; a kernel of `first` that `list` lacks fails the build.
const fn with_first<const L: usize>(list: &[Kernel], first: &[Kernel]) -> [Kernel; L] {
    const fn holds(list: &[Kernel], kernel: Kernel) -> bool {
        let mut i = 0;
        while i < list.len() {
            if list[i] as u8 == kernel as u8 {
                return true;
            }
            i += 1;
        }
        false
    }
    assert!(list.len() == L);
    let mut ordered = [Kernel::Portable; L];
    let mut at = 0;
    while at < first.len() {
        assert!(holds(list, first[at]));
        ordered[at] = first[at];
        at += 1;
    }
    let mut i = 0;
    while i < L {
        if !holds(first, list[i]) {
            ordered[at] = list[i];
            at += 1;
        }
        i += 1;
    }
    ordered
}

/// On a CPU that runs each 512-bit instruction as two 256-bit halves
/// (`cpu::splits_512_bit_vectors`: AMD Zen 4), from N = [`LANES_FROM`] to
/// [`SPLIT_512_LANES_AVX2_UP_TO`], `lanes-avx2` leads: there 16 lanes cost
/// about twice 8 a step, and a board this small has too few starts to keep
/// 16 lanes busy (on Zen 4, N = 9: 4.2 µs against 5.1 µs for
/// `lanes-avx512`; N = 11: 71 µs against 82 µs; BENCHMARKS.md, "Zen 4: N =
/// 8 against the peer, and `auto`"). On Zen 5, which runs them whole,
/// `lanes-avx512` is 1.6 to 1.8 times faster at the same N.
const SPLIT_512_FIRST: &[Kernel] = &[Kernel::LanesAvx2];

/// [`SMALL_N_PREFERENCE`] on a CPU that splits 512-bit instructions
/// ([`SPLIT_512_FIRST`]), from N = [`LANES_FROM`] up to below
/// [`SYMMETRIC_FROM`].
const SPLIT_512_SMALL_N_PREFERENCE: &[Kernel] =
    &with_first::<{ SMALL_N_PREFERENCE.len() }>(SMALL_N_PREFERENCE, SPLIT_512_FIRST);

/// [`LARGE_N_PREFERENCE`] on a CPU that splits 512-bit instructions
/// ([`SPLIT_512_FIRST`]), from N = [`SYMMETRIC_FROM`] to
/// [`SPLIT_512_LANES_AVX2_UP_TO`].
const SPLIT_512_LARGE_N_PREFERENCE: &[Kernel] =
    &with_first::<{ LARGE_N_PREFERENCE.len() }>(LARGE_N_PREFERENCE, SPLIT_512_FIRST);

/// The largest N at which the split-512 lists apply: the last that `auto`
/// counts with a lane kernel (the join's [`JOIN_FROM`] is next). At N = 12
/// and 13 `lanes-avx2` counts the symmetric subproblems, ties and all, in
/// lanes, and on Zen 4 beats `lanes-avx512`'s mirror starts (N = 12:
/// 366 µs against 416 µs; N = 13: 1.79 ms against 2.28 ms; BENCHMARKS.md,
/// "Ties in lanes").
pub const SPLIT_512_LANES_AVX2_UP_TO: usize = JOIN_FROM - 1;

/// Kernels `auto` may choose to enumerate below N = [`SYMMETRIC_FROM`]
/// (and to find fundamental solutions below [`SYMMETRIC_FUNDAMENTAL_FROM`]),
/// fastest first (`simd/enumerate` in BENCHMARKS.md): davidad's machine,
/// where built, ahead of the portable kernel; its encodings are within
/// noise of each other, and `sse41` needs the least of the CPU.
const SMALL_N_ENUMERATION_PREFERENCE: &[Kernel] = &[
    Kernel::Sse41,
    Kernel::AsmAvx,
    Kernel::Avx,
    Kernel::AsmSse41,
    Kernel::Portable,
    Kernel::SymmetricBmi,
    Kernel::Symmetric,
    Kernel::BlocksBmi,
    Kernel::Blocks,
    Kernel::JoinAvx512,
    Kernel::JoinAvx2,
    Kernel::Join,
    Kernel::LanesAvx512,
    Kernel::LanesAvx2,
];

/// Kernels `auto` may choose to enumerate from N = [`BLOCKS_ENUMERATION_FROM`]
/// to the blocks kernels' largest, 8: [`SMALL_N_ENUMERATION_PREFERENCE`]
/// with the blocks kernels first, which place two rows a step and there
/// list boards faster than davidad's machine (`simd/enumerate` on Zen 4:
/// N = 7, `blocks-bmi` 1.34 µs against 2.24 µs for `sse41`; N = 8, 4.70
/// against 6.04 µs).
const BLOCKS_ENUMERATION_PREFERENCE: &[Kernel] =
    &with_first::<{ SMALL_N_ENUMERATION_PREFERENCE.len() }>(
        SMALL_N_ENUMERATION_PREFERENCE,
        &[Kernel::BlocksBmi, Kernel::Blocks],
    );

/// The smallest N that `auto` enumerates with the blocks kernels: at N = 6
/// `sse41` is a little ahead (382 ns against 408 ns on Zen 4), at N = 5
/// more (191 ns against 249 ns).
pub const BLOCKS_ENUMERATION_FROM: usize = 7;

/// Kernels `auto` may choose from N = [`SYMMETRIC_FROM`] up, fastest first
/// (`simd/count` and `lanes/` in BENCHMARKS.md): the symmetric search
/// visits about an eighth of the boards, and its walkers in vector lanes
/// (`lanes-avx512`, then `lanes-avx2`) count it faster than one at a time,
/// though they only count.
///
/// The join kernels, which only count, come last in the lists for the
/// other tasks (and `auto` never picks a kernel that cannot do the task).
const LARGE_N_PREFERENCE: &[Kernel] = &[
    Kernel::LanesAvx512,
    Kernel::LanesAvx2,
    Kernel::SymmetricBmi,
    Kernel::Symmetric,
    Kernel::Portable,
    Kernel::AsmAvx,
    Kernel::Avx,
    Kernel::AsmSse41,
    Kernel::Sse41,
    Kernel::BlocksBmi,
    Kernel::Blocks,
    Kernel::JoinAvx512,
    Kernel::JoinAvx2,
    Kernel::Join,
];

/// Kernels `auto` may choose to count from N = [`JOIN_FROM`] up, fastest
/// first: the join kernels do less work than any search of the board
/// (`join/` in BENCHMARKS.md). Their plans are join plans, so shards and
/// checkpoints of `auto` from here are counted by the first join kernel
/// here that runs; a symmetric plan of `auto`'s, by the first symmetric or
/// lane kernel here that runs.
const JOIN_PREFERENCE: &[Kernel] = &[
    Kernel::JoinAvx512,
    Kernel::JoinAvx2,
    Kernel::Join,
    Kernel::LanesAvx512,
    Kernel::LanesAvx2,
    Kernel::SymmetricBmi,
    Kernel::Symmetric,
    Kernel::Portable,
    Kernel::AsmAvx,
    Kernel::Avx,
    Kernel::AsmSse41,
    Kernel::Sse41,
    Kernel::BlocksBmi,
    Kernel::Blocks,
];

/// The smallest N for which `auto` counts with the join kernels: the first
/// N where the join beats the searches on one thread (`join/` in
/// BENCHMARKS.md). Below it the searches win, and at odd N the join pays
/// for the quarter-boards of one split per row of the middle queen.
pub const JOIN_FROM: usize = 14;

/// The smallest N for which `auto` counts with the lane kernels: the first
/// past the blocks kernels' sizes (below it the blocks kernels are faster
/// from N = 5 to 8, and the portable kernel below that).
pub const LANES_FROM: usize = crate::kernel::blocks::MAX_N + 1;

/// The smallest N for which `auto` counts with the blocks kernels: below
/// it the portable kernel is faster (the crossover is N = 5 on Zen 3,
/// where `blocks-bmi` takes 120 ns and `portable` 129 ns; at N = 4 47 ns
/// against 88).
pub const BLOCKS_FROM: usize = 5;

/// The smallest N for which `auto` prefers the symmetric kernels: below it,
/// their fixed cost outweighs the eighth of the search they save (the
/// crossover in BENCHMARKS.md).
pub const SYMMETRIC_FROM: usize = 10;

/// The smallest N for which `auto` prefers the symmetric kernels to find
/// fundamental solutions: they search one board per class, where the
/// others enumerate half the solutions and check each for canonical form.
pub const SYMMETRIC_FUNDAMENTAL_FROM: usize = 7;

/// Whether this build was made with `queens_simd_force_portable`, which
/// leaves `auto` only the plain-Rust kernels: `portable`, `symmetric`,
/// `blocks` and `join`.
pub const PORTABLE_FORCED: bool = cfg!(queens_simd_force_portable);

/// What `--kernels` says of such a build, and why a SIMD or asm kernel is
/// missing from it.
pub const FORCED_BECAUSE: &str =
    "this build forces the portable kernel (queens_simd_force_portable)";

/// The kernels `auto` may choose for `task` at size `n`, fastest first on
/// the machines measured; `auto` takes the first that runs here and
/// accepts `n`. The join kernels lead counting from N = [`JOIN_FROM`] up,
/// the lane kernels from N = [`LANES_FROM`] (`lanes-avx2` ahead of
/// `lanes-avx512` up to N = [`SPLIT_512_LANES_AVX2_UP_TO`] on a CPU that
/// runs 512-bit instructions as two halves, the one list that depends on
/// more than the CPU's features), the blocks kernels from [`BLOCKS_FROM`]
/// and `portable` below; the symmetric kernels lead from
/// N = [`SYMMETRIC_FROM`] up for the other tasks and where no lane kernel
/// runs (from [`SYMMETRIC_FUNDAMENTAL_FROM`] for fundamental solutions);
/// below, `portable` counts fastest and davidad's machine, where built,
/// enumerates fastest, but for the blocks kernels from
/// [`BLOCKS_ENUMERATION_FROM`] to 8. `n` from 0 to [`MAX_N`].
///
/// # Errors
///
/// [`Error::SizeOutOfRange`] (for `auto`) if `n` is over [`MAX_N`]: no
/// kernel accepts it, so `auto` has nothing to prefer.
pub fn auto_preference(n: usize, task: Task) -> Result<&'static [Kernel], Error> {
    preference(n, task, crate::cpu::splits_512_bit_vectors())
}

/// [`auto_preference`] on a CPU that does (`splits_512`) or does not run
/// each 512-bit instruction as two halves.
fn preference(n: usize, task: Task, splits_512: bool) -> Result<&'static [Kernel], Error> {
    Kernel::Auto.check_size(n)?;
    let symmetric_from = match task {
        Task::Fundamental => SYMMETRIC_FUNDAMENTAL_FROM,
        Task::Count | Task::Enumerate => SYMMETRIC_FROM,
    };
    Ok(match task {
        Task::Count if n >= JOIN_FROM => JOIN_PREFERENCE,
        Task::Count if splits_512 && (LANES_FROM..=SPLIT_512_LANES_AVX2_UP_TO).contains(&n) => {
            if n >= SYMMETRIC_FROM {
                SPLIT_512_LARGE_N_PREFERENCE
            } else {
                SPLIT_512_SMALL_N_PREFERENCE
            }
        }
        _ if n >= symmetric_from => LARGE_N_PREFERENCE,
        Task::Count if n >= LANES_FROM => SMALL_N_PREFERENCE,
        Task::Count if n >= BLOCKS_FROM => BLOCKS_PREFERENCE,
        Task::Count => TINY_N_PREFERENCE,
        Task::Enumerate
            if (BLOCKS_ENUMERATION_FROM..=crate::kernel::blocks::MAX_N).contains(&n) =>
        {
            BLOCKS_ENUMERATION_PREFERENCE
        }
        Task::Enumerate | Task::Fundamental => SMALL_N_ENUMERATION_PREFERENCE,
    })
}

/// Why this build does not carry `kernel` at all, or `None` if it does.
fn absent_because(kernel: Kernel) -> Option<&'static str> {
    let built = match kernel.build() {
        Build::Everywhere | Build::Alias => true,
        Build::Alloc => cfg!(feature = "alloc"),
        Build::X86 => cfg!(x86_kernels),
        Build::Simd => cfg!(simd_kernels),
        Build::SimdAlloc => cfg!(all(simd_kernels, feature = "alloc")),
        Build::Asm => cfg!(asm_kernels),
    };
    // The first of the aliases' conditions (see `build.rs`) that fails.
    (!built).then_some(
        if !cfg!(feature = "alloc") && matches!(kernel.build(), Build::Alloc) {
            "it needs the crate's alloc feature"
        } else if PORTABLE_FORCED {
            FORCED_BECAUSE
        } else if !cfg!(target_arch = "x86_64") {
            "it needs an x86-64 target"
        } else if !cfg!(simd_kernels) {
            "this target has no vector registers (a soft-float target)"
        } else if !cfg!(feature = "alloc") && matches!(kernel.build(), Build::SimdAlloc) {
            "it needs the crate's alloc feature"
        } else {
            "its assembly is ELF for the System V ABI, built for x86-64 Linux only"
        },
    )
}

/// The error for a `kernel` this build or CPU cannot run, with the reason.
pub(crate) fn unavailable(kernel: Kernel) -> Error {
    Error::KernelUnavailable {
        kernel,
        because: kernel
            .unavailable_because()
            .unwrap_or("this CPU or build cannot run it"),
    }
}

/// A kernel built: its solver and, for a kernel that counts a plan's
/// pieces, the same kernel as a [`PieceCounter`].
#[derive(Clone, Copy)]
struct Built {
    solver: &'static dyn Solver,
    #[cfg(feature = "std")]
    counter: Option<PieceCounter>,
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
fn build(kernel: Kernel) -> Option<Built> {
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
            crate::kernel::lanes::LanesAvx512::new().map(|k| Built::walkers(k.as_static()))
        }
        #[cfg(simd_kernels)]
        Kernel::LanesAvx2 => {
            crate::kernel::lanes::LanesAvx2::new().map(|k| Built::walkers(k.as_static()))
        }
        #[cfg(feature = "alloc")]
        Kernel::Join => Join::new().map(|k| Built::joiner(k.as_static())),
        #[cfg(all(simd_kernels, feature = "alloc"))]
        Kernel::JoinAvx512 => {
            crate::kernel::join::avx512::JoinAvx512::new().map(|k| Built::joiner(k.as_static()))
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
fn try_solver(kernel: Kernel) -> Option<&'static dyn Solver> {
    build(kernel).map(|built| built.solver)
}

/// The best encoding of the asm kernel this CPU runs: AVX where it runs,
/// else SSE4.1. The one place that decides what the name `asm` means.
#[cfg(asm_kernels)]
pub fn best_asm() -> Option<crate::kernel::asm::Asm> {
    use crate::kernel::asm::Asm;
    Asm::avx().or_else(Asm::sse41)
}

/// The concrete kernel the name `asm` stands for: the AVX encoding where it
/// runs, else the SSE4.1 one, else `Asm` itself (unavailable).
pub fn asm_kernel() -> Kernel {
    cfg_if::cfg_if! {
        if #[cfg(asm_kernels)] {
            best_asm().map_or(Kernel::Asm, |asm| asm.kernel())
        } else {
            Kernel::Asm
        }
    }
}

/// `auto`'s choice for each task (in [`Task::ALL`] order) and N: 0 while
/// not yet made, else 1 + the kernel's index in [`Kernel::ALL`].
static AUTO_CHOICE: [[AtomicU8; MAX_N + 1]; 3] =
    [const { [const { AtomicU8::new(0) }; MAX_N + 1] }; 3];

/// The kernel `auto` picks for `task` at size `n` (from 0 to [`MAX_N`]):
/// the first kernel of [`auto_preference`] that runs here and accepts `n`.
/// Made once per task and N, then read from a cache.
///
/// # Errors
///
/// [`Error::SizeOutOfRange`] (for `auto`) if `n` is over [`MAX_N`], which
/// no kernel accepts.
pub fn auto_kernel(n: usize, task: Task) -> Result<Kernel, Error> {
    // Past MAX_N there is no choice, and no slot of the cache.
    Kernel::Auto.check_size(n)?;
    Ok(cached_auto_kernel(n, task))
}

/// [`auto_kernel`] for an `n` already checked against `auto`'s sizes (0 to
/// [`MAX_N`]): the path of every call through `auto` after the first, kept
/// to a load and a compare (BENCHMARKS.md, "Dispatch cost": a call of
/// `queens_simd::count` may cost at most 2% more than a held solver).
#[inline]
fn cached_auto_kernel(n: usize, task: Task) -> Kernel {
    // The slots follow `Task::ALL`, the tasks' order of declaration.
    let cached = &AUTO_CHOICE[task as usize][n];
    if let Some(&kernel) =
        Kernel::ALL.get(usize::from(cached.load(Ordering::Relaxed)).wrapping_sub(1))
    {
        return kernel;
    }
    choose_auto_kernel(n, task, cached)
}

/// `auto`'s choice for `task` at `n`, made and stored in `cached`.
#[cold]
fn choose_auto_kernel(n: usize, task: Task, cached: &AtomicU8) -> Kernel {
    let kernel = auto_preference(n, task)
        .unwrap_or(&[])
        .iter()
        .copied()
        .find(|k| {
            k.role() == Role::Fast
                && (task == Task::Count || k.enumerates())
                && k.is_available()
                && k.sizes().contains(&n)
        })
        .unwrap_or(Kernel::Portable);
    if let Some(index) = Kernel::ALL.iter().position(|&k| k == kernel) {
        // Racing threads compute the same choice; either store is right.
        cached.store(index as u8 + 1, Ordering::Relaxed);
    }
    kernel
}

impl Kernel {
    /// Whether this CPU and build can run the kernel. Always true for
    /// `Auto`, which falls back to `Portable`; true for `Asm` where either
    /// encoding runs.
    pub fn is_available(self) -> bool {
        match self {
            Kernel::Auto => true,
            Kernel::Asm => asm_kernel() != Kernel::Asm,
            _ => try_solver(self).is_some(),
        }
    }

    /// Why this CPU or build cannot run the kernel, or `None` if it can.
    /// The build's reason comes first; the CPU's only where it is built.
    pub fn unavailable_because(self) -> Option<&'static str> {
        if self.is_available() {
            return None;
        }
        // `asm` needs at least its SSE4.1 encoding.
        let needs = if self == Kernel::Asm {
            Kernel::AsmSse41
        } else {
            self
        };
        Some(absent_because(needs).unwrap_or(match needs.cpu_features() {
            [crate::cpu::Feature::Sse41] => "this CPU lacks SSE4.1",
            [crate::cpu::Feature::Avx] => "this CPU or its operating system lacks AVX",
            [crate::cpu::Feature::Avx2] => "this CPU or its operating system lacks AVX2",
            [
                crate::cpu::Feature::Avx512F,
                crate::cpu::Feature::Avx512Vpopcntdq,
            ] => "this CPU or its operating system lacks AVX-512 F or VPOPCNTDQ",
            [crate::cpu::Feature::Avx2, ..] => {
                "this CPU or its operating system lacks AVX2, or one of BMI1, BMI2, LZCNT and POPCNT"
            }
            [crate::cpu::Feature::Avx512F, ..] => {
                "this CPU or its operating system lacks AVX-512 F or VPOPCNTDQ, or one of BMI1, \
                 BMI2, LZCNT and POPCNT"
            }
            [] => "it is not built in",
            _ => "this CPU lacks one of BMI1, BMI2, LZCNT and POPCNT",
        }))
    }

    /// The concrete kernel that would count size `n`: `Auto` and `Asm`
    /// resolved, any other kernel itself. (`Asm` stays itself where no
    /// encoding runs, `Auto` for sizes no kernel accepts.) Defined for
    /// every `n`: [`Kernel::check_size`] and [`Kernel::solver`] tell
    /// whether the kernel accepts it. Short for `resolve_for(n, Task::Count)`.
    pub fn resolve(self, n: usize) -> Kernel {
        self.resolve_for(n, Task::Count)
    }

    /// The concrete kernel that would do `task` for size `n`: `Auto`
    /// resolved for that task, `Asm` to its best encoding, any other kernel
    /// itself. Defined for every `n`, as [`Kernel::resolve`]: for sizes no
    /// kernel accepts, `Auto` stays itself, and its size check reports them
    /// in its own name.
    pub fn resolve_for(self, n: usize, task: Task) -> Kernel {
        match self {
            Kernel::Auto => auto_kernel(n, task).unwrap_or(Kernel::Auto),
            Kernel::Asm => asm_kernel(),
            other => other,
        }
    }

    /// The solver that counts size `n`: `Auto` resolved, availability and
    /// size checked. Short for `solver_for(n, Task::Count)`.
    ///
    /// # Errors
    ///
    /// As [`Kernel::solver_for`].
    pub fn solver(self, n: usize) -> Result<&'static dyn Solver, Error> {
        self.solver_for(n, Task::Count)
    }

    /// The solver for `task` at size `n`: `Auto` resolved for that task,
    /// availability and size checked. The reference is `'static`: hold it
    /// to call the same kernel many times with no dispatch per call.
    ///
    /// # Errors
    ///
    /// [`Error::SizeOutOfRange`] if `n` is outside [`Kernel::sizes`]
    /// (checked first, in the name asked: `auto`'s range is 0 to 32,
    /// `asm`'s 0 to 16), [`Error::KernelUnavailable`] if this CPU or build
    /// cannot run the kernel, [`Error::CountOnly`] for a task other than
    /// counting asked of a kernel that only counts.
    pub fn solver_for(self, n: usize, task: Task) -> Result<&'static dyn Solver, Error> {
        self.check_size(n)?;
        let kernel = if self == Kernel::Auto {
            // `auto` picks only a kernel that accepts `n`.
            cached_auto_kernel(n, task)
        } else {
            let kernel = self.resolve_for(n, task);
            kernel.check_size(n)?;
            kernel
        };
        let solver = try_solver(kernel).ok_or_else(|| unavailable(kernel))?;
        if task != Task::Count && !kernel.enumerates() {
            return Err(Error::CountOnly(kernel));
        }
        Ok(solver)
    }

    /// Number of solutions on an `n`x`n` board.
    ///
    /// A join kernel (and `auto` from [`JOIN_FROM`], which counts with
    /// one) allocates about [`Kernel::memory_estimate`] bytes for it: see
    /// the crate's Memory section.
    ///
    /// # Errors
    ///
    /// As [`Kernel::solver_for`], and [`Error::OutOfMemory`] if a join
    /// kernel's tables or buffers are refused.
    pub fn count(self, n: usize) -> Result<Count, Error> {
        self.solver(n)?.count(n)
    }

    /// About how many bytes [`Kernel::count`]`(n)` allocates, to check
    /// before counting: for a join kernel (and `auto` from [`JOIN_FROM`]),
    /// its quarter-boards, half-boards and buffers on one thread and
    /// 16 MiB for the process, the figure that
    /// [`crate::plan::Plan::memory_estimate`]`(1)` gives for its plan (here
    /// without the `std` feature); 0 for every other kernel, which counts
    /// without the heap. The first call for an N counts the tables'
    /// placements (up to seconds at N = 27); later calls remember it.
    ///
    /// ```
    /// use queens_simd::Kernel;
    ///
    /// // `auto` counts N = 22 with a join kernel, and needs its tables.
    /// let bytes = Kernel::Auto.memory_estimate(22)?;
    /// assert!(bytes > 64 << 20 && bytes < 1 << 30);
    /// assert_eq!(Kernel::Portable.memory_estimate(22)?, 0);
    /// # Ok::<(), queens_simd::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Kernel::solver_for`].
    pub fn memory_estimate(self, n: usize) -> Result<u64, Error> {
        let kernel = self.solver(n)?.kernel();
        #[cfg(feature = "alloc")]
        if kernel.method() == Some(crate::kernel::Method::Join) {
            return Ok(crate::kernel::join::memory::estimate(n, 1));
        }
        let _ = kernel;
        Ok(0)
    }

    /// Calls `visit` for every solution until it returns `Break`.
    ///
    /// # Errors
    ///
    /// As [`Kernel::solver_for`].
    pub fn for_each_solution(self, n: usize, visit: Visit<'_>) -> Result<ControlFlow<()>, Error> {
        self.solver_for(n, Task::Enumerate)?
            .for_each_solution(n, visit)
    }

    /// Calls `visit` for every solution whose row-0 queen stands in a
    /// column of `first_row` (bit `c` for column `c`), until it returns
    /// `Break`.
    ///
    /// # Errors
    ///
    /// As [`Kernel::solver_for`].
    pub fn for_each_solution_in_first_row(
        self,
        n: usize,
        first_row: u32,
        visit: Visit<'_>,
    ) -> Result<ControlFlow<()>, Error> {
        self.solver_for(n, Task::Enumerate)?
            .for_each_solution_in_first_row(n, first_row, visit)
    }

    /// Every solution, in the kernel's own order.
    ///
    /// # Errors
    ///
    /// As [`Kernel::solver_for`].
    #[cfg(feature = "alloc")]
    pub fn solutions(self, n: usize) -> Result<alloc::vec::Vec<crate::Board>, Error> {
        self.solver_for(n, Task::Enumerate)?.solutions(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::Method;
    use plans::counter;

    #[cfg(simd_kernels)]
    #[test]
    fn simd_kernels_exist_exactly_where_the_cpu_has_their_feature() {
        use crate::kernel::{avx::Avx, sse41::Sse41};
        let sse41 = std::arch::is_x86_feature_detected!("sse4.1");
        let avx = std::arch::is_x86_feature_detected!("avx");
        assert_eq!(Sse41::new().is_some(), sse41);
        assert_eq!(Avx::new().is_some(), avx);
        assert_eq!(Kernel::Sse41.is_available(), sse41);
        assert_eq!(Kernel::Avx.is_available(), avx);
    }

    #[cfg(not(simd_kernels))]
    #[test]
    fn simd_kernels_are_absent_from_this_build() {
        for kernel in [Kernel::Sse41, Kernel::Avx] {
            assert!(!kernel.is_available());
            assert_eq!(
                kernel.unavailable_because(),
                absent_because(kernel),
                "{kernel}"
            );
            assert!(matches!(
                kernel.solver(8).err(),
                Some(Error::KernelUnavailable { kernel: k, .. }) if k == kernel
            ));
        }
        let symmetric_kernel = if Kernel::SymmetricBmi.is_available() {
            Kernel::SymmetricBmi
        } else {
            Kernel::Symmetric
        };
        for n in 0..=MAX_N {
            for task in Task::ALL {
                let symmetric_from = if task == Task::Fundamental {
                    SYMMETRIC_FUNDAMENTAL_FROM
                } else {
                    SYMMETRIC_FROM
                };
                let blocks = match task {
                    Task::Count => BLOCKS_FROM..=crate::kernel::blocks::MAX_N,
                    Task::Enumerate => BLOCKS_ENUMERATION_FROM..=crate::kernel::blocks::MAX_N,
                    Task::Fundamental => 1..=0,
                };
                let expected = if task == Task::Count && n >= JOIN_FROM {
                    // The portable join: the AVX2 matcher is not built.
                    Kernel::Join
                } else if blocks.contains(&n) {
                    // The blocks kernel without BMI: `blocks-bmi` is not built.
                    Kernel::Blocks
                } else if n < symmetric_from {
                    Kernel::Portable
                } else {
                    symmetric_kernel
                };
                assert_eq!(auto_kernel(n, task), Ok(expected), "N = {n}, {task:?}");
            }
        }
    }

    #[test]
    fn a_reason_is_given_exactly_for_unavailable_kernels() {
        for &kernel in Kernel::ALL.iter().chain(Kernel::ALIASES) {
            assert_eq!(
                kernel.unavailable_because().is_none(),
                kernel.is_available(),
                "{kernel}"
            );
            let fits = *kernel.sizes().start();
            assert_eq!(
                kernel.solver(fits).is_ok(),
                kernel.is_available(),
                "{kernel}"
            );
        }
    }

    #[test]
    fn every_solver_is_the_kernel_asked_for() {
        for &kernel in Kernel::ALL {
            if let Some(solver) = try_solver(kernel) {
                assert_eq!(solver.kernel(), kernel);
            }
        }
    }

    #[test]
    fn auto_picks_the_first_preferred_kernel_that_runs_and_fits() {
        for task in Task::ALL {
            for n in 0..=MAX_N {
                let picked = auto_kernel(n, task).unwrap();
                assert_eq!(picked.role(), Role::Fast, "N = {n}, {task:?}");
                assert!(
                    picked.is_available() && picked.sizes().contains(&n),
                    "N = {n}, {task:?}"
                );
                // No kernel ahead of it in the preference list could have
                // served.
                for &ahead in auto_preference(n, task)
                    .unwrap()
                    .iter()
                    .take_while(|&&k| k != picked)
                {
                    assert!(
                        !ahead.is_available()
                            || !ahead.sizes().contains(&n)
                            || (task != Task::Count && !ahead.enumerates()),
                        "N = {n}, {task:?}: {ahead} could serve before {picked}"
                    );
                }
                // The second call reads the cache and agrees.
                assert_eq!(auto_kernel(n, task), Ok(picked), "N = {n}, {task:?}");
                assert!(try_solver(picked).is_some());
            }
            for n in [MAX_N + 1, usize::MAX] {
                let refused = Kernel::Auto.check_size(n).unwrap_err();
                assert_eq!(auto_kernel(n, task), Err(refused.clone()));
                assert_eq!(auto_preference(n, task), Err(refused));
            }
        }
    }

    #[test]
    fn every_preference_lists_every_fast_kernel_once() {
        for (n, splits_512) in (0..=MAX_N).flat_map(|n| [(n, false), (n, true)]) {
            for task in Task::ALL {
                let mut listed = preference(n, task, splits_512).unwrap().to_vec();
                listed.sort();
                let mut fast: Vec<Kernel> = Kernel::ALL
                    .iter()
                    .copied()
                    .filter(|k| k.role() == Role::Fast)
                    .collect();
                fast.sort();
                assert_eq!(listed, fast, "N = {n}, {task:?}, {splits_512}");
            }
        }
    }

    /// Every kernel that its row of the kernel table says runs here (this
    /// build carries it and this CPU has its features) is built: a kernel
    /// left out of `build` fails here.
    #[test]
    fn every_kernel_the_table_says_runs_here_is_built() {
        for &kernel in Kernel::ALL {
            let runs =
                absent_because(kernel).is_none() && crate::cpu::has_all(kernel.cpu_features());
            assert_eq!(build(kernel).is_some(), runs, "{kernel}");
        }
    }

    /// `build` makes a counter of pieces exactly for the kernels whose row
    /// of the kernel table has a plan method, of that method; `counter`
    /// hands it out for that method and refuses the other.
    #[test]
    fn the_kernels_that_split_count_their_own_plans() {
        for &kernel in Kernel::ALL {
            let built = build(kernel);
            assert_eq!(built.is_some(), kernel.is_available(), "{kernel}");
            let Some(built) = built else {
                continue;
            };
            assert_eq!(built.solver.kernel(), kernel);
            assert_eq!(
                built.counter.map(PieceCounter::method),
                kernel.method(),
                "{kernel}"
            );
            for method in Method::ALL {
                let counter = counter(kernel, method);
                if kernel.method() == Some(method) {
                    assert_eq!(counter.map(PieceCounter::kernel), Ok(kernel));
                } else {
                    assert!(counter.is_err(), "{kernel}, {method}");
                }
            }
        }
        // `auto` counts a symmetric plan with the first kernel of its
        // large-N list that does: the one it counts the largest boards
        // below the join with, but on a CPU that splits 512-bit
        // instructions, where a whole board of N = 12 or 13 counts fastest
        // in 8 lanes and a plan's pieces, split further, in 16
        // (BENCHMARKS.md, "Ties in lanes"); and a join plan with the one it
        // counts large boards with.
        let large = preference(JOIN_FROM - 1, Task::Count, false).unwrap();
        assert_eq!(
            counter(Kernel::Auto, Method::Symmetric)
                .map(PieceCounter::kernel)
                .ok(),
            large.iter().copied().find(|k| k.is_available())
        );
        assert_eq!(
            counter(Kernel::Auto, Method::Join).map(PieceCounter::kernel),
            auto_kernel(MAX_N, Task::Count)
        );
    }

    /// A plan of either method counted on fewer threads than asked,
    /// because the system refused the rest, or on the calling thread
    /// alone, because it refused them all, counts the same and says on
    /// how many threads it counted.
    #[test]
    fn plans_count_right_on_the_threads_the_system_starts() {
        use crate::plan::{Counted, Options, Plan};
        for method in Method::ALL {
            let plan = Plan::with_method(12, method).unwrap();
            for (allowed, threads, refused) in [(usize::MAX, 3, 0), (2, 2, 1), (0, 1, 3)] {
                let counted = crate::workers::refusing_after(allowed, || {
                    plan.count_reporting(plan.all(), &Options::threads(3), |_, _| {})
                });
                let expected = Counted {
                    count: 14_200,
                    threads,
                    refused,
                };
                assert_eq!(counted, Ok(expected), "{method:?}, {allowed} allowed");
            }
        }
    }

    /// On a CPU that splits 512-bit instructions, `lanes-avx2` leads
    /// counting from N = `LANES_FROM` to `SPLIT_512_LANES_AVX2_UP_TO`, and
    /// every other list is the one any CPU gets.
    #[test]
    fn a_split_512_cpu_counts_small_boards_in_8_lanes() {
        for task in Task::ALL {
            for n in 0..=MAX_N {
                let whole = preference(n, task, false).unwrap();
                let split = preference(n, task, true).unwrap();
                let moved =
                    task == Task::Count && (LANES_FROM..=SPLIT_512_LANES_AVX2_UP_TO).contains(&n);
                if !moved {
                    assert_eq!(whole, split, "N = {n}, {task:?}");
                    continue;
                }
                assert_eq!(split[..2], [Kernel::LanesAvx2, Kernel::LanesAvx512]);
                assert_eq!(whole[..2], [Kernel::LanesAvx512, Kernel::LanesAvx2]);
                // The same kernels, the rest in the same order.
                assert_eq!(split[2..], whole[2..], "N = {n}");
            }
        }
        assert_eq!(
            auto_preference(LANES_FROM, Task::Count).unwrap(),
            preference(
                LANES_FROM,
                Task::Count,
                crate::cpu::splits_512_bit_vectors()
            )
            .unwrap()
        );
    }

    /// `auto` enumerates N = `BLOCKS_ENUMERATION_FROM` to 8 with a blocks
    /// kernel where one runs, and every other N with the list it had: the
    /// same kernels, the blocks kernels moved to the front.
    #[test]
    fn boards_of_7_and_8_are_listed_by_the_blocks_kernels() {
        let blocks = BLOCKS_ENUMERATION_FROM..=crate::kernel::blocks::MAX_N;
        for n in 0..SYMMETRIC_FROM {
            let list = preference(n, Task::Enumerate, false).unwrap();
            let first_two = list[..2] == [Kernel::BlocksBmi, Kernel::Blocks];
            assert_eq!(first_two, blocks.contains(&n), "N = {n}: {list:?}");
            let mut sorted = list.to_vec();
            let mut small = SMALL_N_ENUMERATION_PREFERENCE.to_vec();
            sorted.sort_by_key(|k| k.name());
            small.sort_by_key(|k| k.name());
            assert_eq!(sorted, small, "N = {n}");
        }
        if Kernel::Blocks.is_available() {
            let picked = auto_kernel(8, Task::Enumerate).unwrap();
            assert!(
                matches!(picked, Kernel::BlocksBmi | Kernel::Blocks),
                "{picked}"
            );
        }
    }

    /// The cache of `auto`'s choices has a slot per task, by its place in
    /// `Task::ALL`, which is its discriminant.
    #[test]
    fn each_task_has_its_own_slot() {
        for (slot, &task) in Task::ALL.iter().enumerate() {
            assert_eq!(task as usize, slot, "{task:?}");
        }
        assert_eq!(AUTO_CHOICE.len(), Task::ALL.len());
    }

    #[test]
    fn auto_counts_with_a_join_kernel_from_join_from() {
        for n in 0..=MAX_N {
            let picked = auto_kernel(n, Task::Count).unwrap();
            let join = picked.method() == Some(Method::Join);
            assert_eq!(join, n >= JOIN_FROM, "N = {n}: {picked}");
            for task in [Task::Enumerate, Task::Fundamental] {
                let picked = auto_kernel(n, task).unwrap();
                assert!(picked.enumerates(), "N = {n}, {task:?}: {picked}");
            }
        }
    }
}
