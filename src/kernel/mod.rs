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
//! 1. **Its row of the kernel table**, `kernels!` in
//!    `vocabulary/kernel/table.rs`: its variant's name and docs, name, sizes,
//!    role, plan method, family, CPU features (the one place they are
//!    written), builds, and its type's constructor with how it is handed
//!    out (`solver`, `walkers` or `joiner`). [`Kernel`], its facts,
//!    `target_features!`, the registry's constructor
//!    (`dispatch/registry.rs`), `auto`'s lists (by family) and the tests'
//!    lists of kernels are written from the rows, so nothing else is
//!    written for it.
//! 2. **Its code**, in its own file, declared in this module (or its
//!    family's) under its build's `cfg`: its type, declared with
//!    `kernel_type!` (`proof.rs`: zero-sized, built only where the CPU
//!    runs its row's features), the family's code compiled with those
//!    features (`target_features!(ItsVariant => { fn ... })`), and the
//!    [`Solver`] impl, plus the family's trait for a kernel that counts a
//!    plan's pieces (the symmetric kernel's `Walkers`, the join's
//!    `Joiner`). `lane_kernel!` and `join_kernel!` write all of that, so
//!    that a new ISA of theirs is one invocation at the top of the ISA's
//!    file (`lanes/avx2.rs`, `join/avx2.rs`), beside its own vector
//!    operations; `davidad_kernel!` writes the compiled machine and its
//!    `Solver`.
//!
//! A row whose constructor or type is missing fails the build on every
//! machine (the registry's match has an arm per row, no wildcard); a new
//! family needs its place in `dispatch/policy.rs`'s rules (the build fails
//! while a fast kernel is in no list) and its arm of `if_family!`. The
//! docs name it too: its line of the README's `--kernels` example (which
//! runs as a test, and fails until the line is there) and its row of
//! docs/kernels.md. The assembly's type is the one exception to
//! `kernel_type!` (`kernel::asm` says why).

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
