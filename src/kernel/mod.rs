//! Kernels: every algorithm that counts and enumerates N-Queens solutions,
//! behind one trait ([`Solver`]). Their names ([`Kernel`]) and the table of
//! what each kernel is (name, sizes, role, plan method, CPU features) sit
//! below, in the crate's vocabulary, where every layer reads them. This
//! module says how a kernel solves, never which one runs:
//! [`crate::dispatch`] decides that, and nothing under `kernel/` imports
//! it.
//!
//! # Layers
//!
//! Imports run one way, down this list:
//!
//! 1. `pieces` (with `std`): a plan's pieces as each family cuts them, and
//!    the one type that counts them, `PieceCounter`, which the dispatcher
//!    builds and the plan runs;
//! 2. the lane kernels (`lanes`), which walk the symmetric kernel's
//!    subproblems in vector lanes;
//! 3. the families: `symmetric`, `join`, `blocks`, `portable`, davidad's
//!    machine (`davidad`, `sse41`, `avx`, `asm`), and the seeds' reference
//!    solvers in [`crate::reference`]. They know nothing of each other but
//!    the portable kernel, which the symmetric search borrows for boards
//!    too small for its subproblems (N < 4);
//! 4. this module: the [`Solver`] trait (`solver.rs`), and `proof.rs`'s
//!    `kernel_type!`, which declares every kernel's type.
//!
//! # Adding a kernel
//!
//! Every kernel, of every family and ISA, is made the same way:
//!
//! 1. **Its row of the kernel table** (`vocabulary/kernel.rs`): a variant
//!    of [`Kernel`], its `FACTS` row (name, sizes, family, plan method,
//!    builds; the table's length grows by one), and, if it needs CPU
//!    features, its line of `target_features!`, the one place they are
//!    written.
//! 2. **Its type**, declared in its own file with `kernel_type!` (the
//!    macro `proof.rs` defines): zero-sized, built only where the CPU runs
//!    its row's features.
//! 3. **Its code**, the family's generic code compiled with those features:
//!    `target_features!(ItsVariant => { fn ... })` around the family's
//!    entry points (`lane_kernel!` and `join_kernel!` write the type, the
//!    compiled code and the traits, so that a new ISA of theirs is one
//!    invocation at the top of the ISA's file, `lanes/avx2.rs` or
//!    `join/avx2.rs`, beside its own vector operations;
//!    `davidad_kernel!` the compiled machine and its `Solver`), and the
//!    [`Solver`] impl, plus the family's trait for a kernel that counts a
//!    plan's pieces (the symmetric kernel's `Walkers`, the join's
//!    `Joiner`); a new file is
//!    declared in this module (or its family's) under its build's `cfg`.
//! 4. **One line of `dispatch/registry.rs`'s `build`**, which makes its
//!    type. `auto` places it by its family (`dispatch/policy.rs`), in the
//!    table's order within the family.
//! 5. **Its row in the tests that build or emulate kernels**, which read
//!    the table and fail until the row is there: `joiners` in
//!    `join/mod.rs` for a join kernel, `trace::lanes::first_steps` for a
//!    lane kernel, `Model::runs` in `cli/tests/cpu_models.rs` for any.
//!
//! Nothing else in the code names it: the plan, the errors, `--kernels`,
//! the hints of the command line and the other lists of kernels in the
//! tests read the table (`Kernel::ALL`, `Method::kernels`). The docs do: its line
//! of the README's `--kernels` example (which runs as a test, and fails
//! until the line is there) and its row of docs/kernels.md. The
//! dispatcher's tests fail while a kernel is missing from `build`, and the
//! build fails while a fast kernel is missing from a preference list (a
//! new family needs its place in `policy.rs`'s rules). The assembly's type
//! is the one exception (`kernel::asm` says why).

pub mod blocks;
#[cfg(feature = "alloc")]
pub mod join;
#[cfg(feature = "std")]
pub(crate) mod pieces;
pub mod portable;
#[cfg(feature = "std")]
pub(crate) mod progress;
mod proof;
pub mod symmetric;

// The hand-written assembly is ELF for the System V ABI: x86-64 Linux only.
// Elsewhere its `Kernel` variants stay (so their names parse) and report
// themselves unavailable; so do davidad's intrinsics kernels where the
// target has no vector registers or the portable kernel is forced.
#[cfg(asm_kernels)]
pub mod asm;
#[cfg(simd_kernels)]
pub mod avx;
#[cfg(simd_kernels)]
pub mod davidad;
#[cfg(simd_kernels)]
pub mod lanes;
#[cfg(simd_kernels)]
pub mod sse41;

pub(crate) use proof::kernel_type;
pub(crate) mod solver;

pub use crate::vocabulary::kernel::{Method, Role, UnsupportedSize};
pub use crate::vocabulary::task::Task;
#[cfg(doc)]
use crate::{Kernel, Solver};
pub use solver::Visit;
