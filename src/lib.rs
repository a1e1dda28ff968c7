//! # queens-simd
//!
//! Counts and enumerates the solutions of the N-Queens puzzle: N queens on an
//! N x N board, no two in the same row, column or diagonal.
//!
//! The crate offers interchangeable kernels (see [`Kernel`]): the
//! symmetric kernels, which search one board per class of the square's
//! eight symmetries without a branch near the leaves (`symmetric`
//! anywhere, `symmetric-bmi` with BMI1/BMI2/LZCNT/POPCNT; see
//! [`kernel::symmetric`]), and their walkers in the lanes of vector
//! registers (`lanes-avx2`, `lanes-avx512`; see `kernel::lanes`); the
//! blocks kernels for boards up to N = 8, two rows a step as sets of their
//! placements (`blocks` anywhere, `blocks-bmi` with BMI1/POPCNT; see
//! [`kernel::blocks`]); a portable bitmask solver that runs everywhere and is the oracle for all
//! others; the x86-64 SIMD ports of davidad's register-only state machine
//! (`sse41` and `avx` in intrinsics, see `kernel::davidad`; `asm-sse41` and
//! `asm-avx` by hand in `global_asm!`, resumable, see `kernel::asm`); the
//! join kernels, which count by joining half-boards with a bit-sliced
//! matcher instead of searching the board (`join` anywhere, `join-avx2`
//! with AVX2, `join-avx512` with AVX-512 F, BW and VPOPCNTDQ, `join-avx512bw`
//! with AVX-512 F and BW; see [`kernel::join`]); and the seed articles' own algorithms as reference
//! solvers. The dispatcher ([`dispatch`]) picks, for each N and task
//! (counting, enumerating, fundamental solutions), the fastest kernel this
//! CPU supports, as measured (BENCHMARKS.md, "`auto`'s choices", has where
//! each family takes over and the figures why): to count, the join kernels
//! on the large boards, the lane kernels below where the CPU has them, the
//! blocks kernels on the small boards they hold (to N = 8); to enumerate,
//! the symmetric kernels on the larger boards and davidad's machine below
//! ([`dispatch::resolve_for`] says which kernel, for a task and N).
//!
//! ```
//! use queens_simd::{Kernel, dispatch, fundamental};
//!
//! assert_eq!(queens_simd::count(8)?, 92);
//! assert_eq!(queens_simd::count_on_threads(14, 2)?, 365_596);
//! assert_eq!(fundamental::count(Kernel::Auto, 8)?, 12);
//!
//! let first = dispatch::solutions(Kernel::Portable, 8)?[0];
//! assert_eq!(first.columns(), &[0, 4, 7, 5, 2, 6, 1, 3]);
//! assert_eq!(first.to_bitboard()?, 577094088726155265);
//! # Ok::<(), queens_simd::Error>(())
//! ```
//!
//! Large counts split into subproblems, counted on every core, in shards
//! across machines, or one at a time: see [`plan`].
//!
//! Every function takes its arguments in one order: what picks the
//! algorithm first (the kernel, then the method or task), then what is
//! solved (`n`, a subproblem, a plan), then the rest (threads, a callback):
//! `dispatch::count(kernel, n)`, `dispatch::solver_for(kernel, task, n)`,
//! `dispatch::resolve_for(kernel, task, n)`. docs/api.md in the repository lists
//! the public items and why each is public.
//!
//! Counts are [`Count`] (`u128`): the number of solutions of an N x N board
//! is at most N! < 2^118 for N <= 32, so a count can never overflow.
//!
//! # Memory
//!
//! Only counts allocate much. A count through a plan ([`count_on_threads`],
//! [`crate::dispatch::count_on_threads`], [`crate::dispatch::Options::count`] and
//! [`crate::dispatch::Options::sample`]) holds the plan, a few hundred bytes per
//! subproblem ([`plan::MemoryNeeds::plan`]: at most 31 MiB, at N = 32). A join
//! kernel also holds, on each thread, its tables of quarter-boards (cut to
//! 32 or 256 MiB), the half-boards of the row set it joins (growing about
//! three times per N) and the matcher's slices: about
//! [`plan::Plan::memory_estimate`]`(threads)` bytes in all, on one thread
//! [`crate::dispatch::memory_estimate`]`(n)` (also without `std`), which is what
//! [`count`], [`crate::dispatch::count`] and [`Solver::count`] take with a join
//! kernel, or with `auto` where it counts with one (N = 14 up). It grows
//! from tens of MiB at N = 20 to GiB past N = 25 (BENCHMARKS.md has the
//! estimates beside the peaks measured). Every other kernel counts without
//! the heap; listing solutions holds them ([`solutions`]).
//! [`plan::MemoryNeeds`] gives all of a count's needs before anything is
//! built, in well under a second for every N up to 32.
//!
//! When an allocation of those buffers is refused (a limit on the address
//! space, `ulimit -v`; a memory cgroup's allocation that fails), these
//! calls return [`Error::OutOfMemory`] instead of aborting the process.
//! Many systems overcommit memory instead of refusing it, and their
//! out-of-memory killer may then end the process part-way: check the
//! estimate against the memory available before counting, as the command
//! line does (with `--max-memory`, or against what the system has left).
//!
//! ```
//! use queens_simd::{Kernel, dispatch};
//!
//! let one_thread = dispatch::memory_estimate(Kernel::Auto, 20)?;
//! let two_threads = dispatch::plan_for(Kernel::Auto, 20)?.memory_estimate(2);
//! assert!(one_thread < two_threads && two_threads < 1 << 30);
//! # Ok::<(), queens_simd::Error>(())
//! ```
//!
//! A thread the operating system refuses to start (`ulimit -u`) is no
//! error: the counts on threads go on with those that started (the calling
//! thread alone if none did), and count the same;
//! [`crate::dispatch::Options::count_reporting`] says how many threads counted.
//!
//! # Features
//!
//! Without its `std` feature the library is `#![no_std]`; what needs more
//! than `core` comes with a feature:
//!
//! | feature | default | adds |
//! |---|---|---|
//! | (none) | | every kernel but the join kernels: counting ([`count`], [`crate::dispatch::count`]), visiting each solution ([`crate::dispatch::for_each_solution`]), holding a solver ([`crate::dispatch::solver_for`]), [`symmetry`]; CPU features read with CPUID |
//! | `alloc` | yes (by `std`) | the join kernels ([`kernel::join`]: `join`, `join-avx2`, `join-avx512`, `join-avx512bw`), which hold tables of half-boards, and `auto` counting with them from N = 14; vectors of solutions ([`solutions`], [`fundamental::solutions`]), errors with text |
//! | `std` | yes | [`count_on_threads`], the [`plan`] of subproblems, shards and threads, [`verify`]; feature detection by the standard library |
//! | `trace` | | the kernels' intermediate states ([`trace`]), which the pictures in docs/ are drawn from |
//! //!
//! Without `alloc` the join kernels stay in [`Kernel::ALL`] (so their
//! names parse) but are not built: [`Kernel::is_available`] is false for
//! them, [`Kernel::unavailable_because`] says "it needs the crate's alloc
//! feature", a count with one of them is [`Error::KernelUnavailable`], and
//! `auto` counts every N with the fastest of the other kernels.
//!
//! A plain dependency, `queens-simd = "0.1"`, gets the library with `std`
//! and `cfg-if` as its one other dependency; `default-features = false`
//! (with `features = ["alloc"]` for the join kernels) makes it `no_std`.
//! The `queens-simd` command line is a package of its own,
//! `queens-simd-cli` (`cli/` in the repository: `cargo install --path
//! cli`, or `cargo run --release -- ARGS` at the repository's root).
//!
//! (In a build without a feature, the links to what it adds lead to this
//! table.)
#![cfg_attr(not(feature = "alloc"), doc = "")]
#![cfg_attr(
    not(feature = "alloc"),
    doc = "[`kernel::join`]: crate#features
[`solutions`]: crate#features
[`fundamental::solutions`]: crate#features"
)]
#![cfg_attr(not(feature = "std"), doc = "")]
#![cfg_attr(
    not(feature = "std"),
    doc = "[`plan`]: crate#features
[`plan::MemoryNeeds::plan`]: crate#features
[`plan::Plan::memory_estimate`]: crate#features
[`plan::MemoryNeeds`]: crate#features
[`crate::dispatch::count_on_threads`]: crate#features
[`crate::dispatch::Options::count`]: crate#features
[`crate::dispatch::Options::sample`]: crate#features
[`crate::dispatch::Options::count_reporting`]: crate#features
[`count_on_threads`]: crate#features
[`verify`]: crate#features"
)]
#![cfg_attr(not(feature = "trace"), doc = "")]
#![cfg_attr(not(feature = "trace"), doc = "[`trace`]: crate#features")]
#![cfg_attr(not(feature = "std"), no_std)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;

pub mod dispatch;
pub mod fundamental;
pub mod kernel;
#[cfg(feature = "std")]
pub mod plan;
pub mod reference;
#[cfg(feature = "std")]
mod support;
#[cfg(feature = "trace")]
#[cfg_attr(docsrs, doc(cfg(feature = "trace")))]
pub mod trace;
#[cfg(feature = "std")]
pub mod verify;
mod vocabulary;

pub use kernel::solver::Solver;
pub use vocabulary::board::Board;
pub use vocabulary::count::Count;
pub use vocabulary::defect::BoardDefect;
pub use vocabulary::error::Error;
pub use vocabulary::kernel::{Kernel, MAX_N};
#[cfg(feature = "alloc")]
pub use vocabulary::suggest;
pub use vocabulary::symmetry;

/// Number of solutions on an `n`x`n` board, by the fastest kernel available.
/// On the large boards that is a join kernel, which allocates
/// about [`crate::dispatch::memory_estimate`]`(n)` bytes (see Memory above).
///
/// # Errors
///
/// [`Error::SizeOutOfRange`] for `n` over [`MAX_N`], [`Error::OutOfMemory`]
/// if the join's tables or buffers are refused.
pub fn count(n: usize) -> Result<Count, Error> {
    dispatch::count(Kernel::Auto, n)
}

/// Number of solutions on an `n`x`n` board, on `threads` threads, by the
/// fastest kernel available ([`crate::dispatch::count_on_threads`] for `auto`):
/// from the size where threads pay ([`dispatch::counts_through_plan`])
/// through a [`plan::Plan`], a symmetric plan or, where `auto` counts with
/// a join kernel, a join plan (whose memory [`plan::Plan::memory_estimate`]
/// tells, and which this does not check); below it, one thread counts. The same count for every
/// number of threads, and on fewer if the system refuses to start some.
///
/// # Errors
///
/// [`Error::InvalidThreads`] for 0 threads, [`Error::SizeOutOfRange`] for
/// `n` over [`MAX_N`], [`Error::OutOfMemory`] if a join's tables or
/// buffers are refused.
#[cfg(feature = "std")]
pub fn count_on_threads(n: usize, threads: usize) -> Result<Count, Error> {
    dispatch::count_on_threads(Kernel::Auto, n, threads)
}

/// Every solution on an `n`x`n` board, by the fastest kernel available, in
/// that kernel's order.
///
/// # Errors
///
/// [`Error::SizeOutOfRange`] for `n` over [`MAX_N`].
#[cfg(feature = "alloc")]
pub fn solutions(n: usize) -> Result<alloc::vec::Vec<Board>, Error> {
    dispatch::solutions(Kernel::Auto, n)
}

/// The README's Rust examples run as doctests, so they stay true.
#[cfg(all(doctest, feature = "std"))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// So do those of the pages in `docs/`.
#[cfg(all(doctest, feature = "std"))]
#[doc = include_str!("../docs/davidad.md")]
struct DavidadPageDoctests;

/// (docs/plan.md)
#[cfg(all(doctest, feature = "std"))]
#[doc = include_str!("../docs/plan.md")]
struct PlanPageDoctests;

/// (docs/library.md)
#[cfg(all(doctest, feature = "std"))]
#[doc = include_str!("../docs/library.md")]
struct LibraryPageDoctests;
