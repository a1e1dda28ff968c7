//! The one place that maps a [`Kernel`] to a running [`Solver`] and decides
//! what `auto` and `asm` mean on this CPU. One job per file:
//!
//! * `policy.rs`, **which kernel**: `auto`'s preferences as data, a rule
//!   per task and size range citing its figures, and the cached choice;
//! * `registry.rs`, **the code that runs it**: one line per kernel builds
//!   its type, made only where this CPU runs it, as a solver and, for a
//!   kernel that counts a plan's pieces, as the counter the plan runs;
//! * `entry.rs`, `plans.rs` and `options.rs`, **the public entry points**:
//!   a kernel's name and a size in, a count or the solutions out
//!   ([`count`], [`solutions`], [`solver_for`], ...), and the counts of
//!   plans ([`Options`], [`plan_for`], [`count_subproblem`]), which hand
//!   the counter to the plan (the plan never imports this module).
//!
//! The facts of each kernel (name, sizes, plan method, CPU features) are
//! its row of the kernel table, in the crate's vocabulary ([`Kernel`]).
//!
//! # Design
//!
//! * **Solvers are `&'static`.** Every kernel type is a zero-sized proof
//!   that this CPU runs it (its `new()` asks the crate's `cpu` module for the
//!   features of its row in the kernel table), so [`solver_for`]
//!   hands out a [`HeldSolver`] around a `&'static dyn Solver`: no
//!   allocation, nothing to drop, and a caller may hold it for its N and
//!   call it in a loop with no check per call.
//! * **The CPU is asked once.** Feature checks are cached (by the standard
//!   library with `std`, by CPUID read in `cpu` without), and `auto`'s choice for
//!   each task and N is cached in an atomic after its first use.
//! * **`auto`** walks [`auto_preference`] for the task and N asked, fastest
//!   first, and takes the first kernel that this build carries, this CPU
//!   runs, that accepts the size and that does the task (the join kernels
//!   only count). The lists are the same in every build:
//!   a kernel the build lacks is skipped like one the CPU lacks; and on
//!   every CPU, but for one list on a CPU that runs each 512-bit
//!   instruction as two halves (AMD Zen 4, `cpu::splits_512_bit_vectors`).
//!   Each list is a rule of `policy.rs` that orders families of kernels and
//!   cites the figures of BENCHMARKS.md (`simd/count`, `simd/enumerate`)
//!   that put them in that order; a test fails where an order contradicts
//!   a figure it cites.
//! * **Which builds carry which kernel** is the table's `Build` column,
//!   read through `build.rs`'s cfg aliases: `x86_kernels` (x86-64, not
//!   forced portable: `symmetric-bmi`, `blocks-bmi`), `simd_kernels` (and
//!   vector registers: `sse41`, `avx`, `lanes-avx2`, `lanes-avx512`, and
//!   with `alloc` `join-avx2`, `join-avx512`, `join-avx512bw`) and
//!   `asm_kernels` (and Linux: `asm-sse41`, `asm-avx`). A build with
//!   `--cfg queens_simd_force_portable` (or `QUEENS_SIMD_FORCE_PORTABLE=1`
//!   at build time) has only the plain-Rust kernels (`portable`,
//!   `symmetric`, `blocks`, `join`) and the reference kernels.
//!
//! Holding the fastest counter for one size, with no dispatch per call:
//!
//! ```
//! use queens_simd::{Kernel, dispatch, kernel::Task};
//!
//! let held = dispatch::solver_for(Kernel::Auto, Task::Count, 10)?; // for N = 10
//! let mut total = 0;
//! for _ in 0..3 {
//!     total += held.count()?;
//! }
//! assert_eq!(total, 3 * 724);
//! # Ok::<(), queens_simd::Error>(())
//! ```
#![cfg_attr(not(feature = "alloc"), doc = "")]
#![cfg_attr(not(feature = "alloc"), doc = "[`solutions`]: crate#features")]
#![cfg_attr(not(feature = "std"), doc = "")]
#![cfg_attr(
    not(feature = "std"),
    doc = "[`plan_for`]: crate#features
[`Options`]: crate#features
[`count_subproblem`]: crate#features"
)]

mod entry;
mod figures;
mod held;
#[cfg(feature = "std")]
mod options;
#[cfg(feature = "std")]
mod plans;
mod policy;
mod registry;
#[cfg(test)]
mod tests;

pub use crate::vocabulary::kernel::portable_forced;
#[cfg(feature = "alloc")]
pub use entry::solutions;
pub use entry::{
    count, for_each_solution, for_each_solution_in_first_row, memory_estimate, solver_for,
};
pub use held::HeldSolver;
#[cfg(feature = "std")]
pub use options::Options;
#[cfg(feature = "std")]
pub use plans::{
    count_on_threads, count_partial_board, count_subproblem, counts_through_plan, plan_for,
    plan_method, search_subproblem,
};
// The sizes where `auto` changes families (`policy::JOIN_FROM`, ...) are
// tuning, not API: what `auto` picks for a task and N is asked of
// `resolve_for(Kernel::Auto, task, n)` and `auto_preference`.
pub use policy::{auto_preference, resolve_for};
#[cfg(asm_kernels)]
pub use registry::best_asm;

#[cfg(doc)]
use crate::{Kernel, Solver};
