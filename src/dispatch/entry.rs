//! The public entry points: a kernel's name and a size in, a solver, a
//! count or the solutions out. Each resolves `auto` and `asm` by the
//! policy, checks the size, and runs the solver the registry builds.

use core::ops::ControlFlow;

use super::held::HeldSolver;
use super::policy::{cached_auto_kernel, resolve_for};
use super::registry::try_solver;
use crate::Error;
use crate::kernel::{Task, Visit};
use crate::{Count, Kernel};

/// The kernel for `task` at size `n`, held ([`HeldSolver`]): `Auto`
/// resolved for that task, availability and size checked, once.
///
/// # Errors
///
/// [`Error::SizeOutOfRange`] if `n` is outside [`Kernel::sizes`]
/// (checked first, in the name asked: `auto`'s range is 0 to 32,
/// `asm`'s 0 to 16), [`Error::KernelUnavailable`] if this CPU or build
/// cannot run the kernel, [`Error::CountOnly`] for a task other than
/// counting asked of a kernel that only counts.
pub fn solver_for(kernel: Kernel, task: Task, n: usize) -> Result<HeldSolver, Error> {
    kernel.check_size(n)?;
    let kernel = if kernel == Kernel::Auto {
        // `auto` picks only a kernel that accepts `n`.
        cached_auto_kernel(task, n)
    } else {
        let kernel = resolve_for(kernel, task, n);
        kernel.check_size(n)?;
        kernel
    };
    let solver = try_solver(kernel).ok_or_else(|| Error::unavailable(kernel))?;
    if task != Task::Count && !kernel.enumerates() {
        return Err(Error::CountOnly(kernel));
    }
    Ok(HeldSolver::new(solver, n))
}

/// Number of solutions on an `n`x`n` board.
///
/// A join kernel (and `auto` for the N it counts with one:
/// [`super::resolve_for`] says which) allocates about [`memory_estimate`]
/// bytes for it: see the crate's Memory section.
///
/// # Errors
///
/// As [`solver_for`], and [`Error::OutOfMemory`] if a join
/// kernel's tables or buffers are refused.
pub fn count(kernel: Kernel, n: usize) -> Result<Count, Error> {
    solver_for(kernel, Task::Count, n)?.count()
}

/// About how many bytes [`count`]`(n)` allocates, to check
/// before counting: for a join kernel (and `auto` where it counts with one),
/// its quarter-boards, half-boards and buffers on one thread and
/// 16 MiB for the process, the figure that
/// [`crate::plan::Plan::memory_estimate`]`(1)` gives for its plan (here
/// without the `std` feature); 0 for every other kernel, which counts
/// without the heap. The first call for an N counts the tables'
/// placements (up to seconds at N = 27); later calls remember it.
///
/// ```
/// use queens_simd::{Kernel, dispatch};
///
/// // `auto` counts N = 22 with a join kernel, and needs its tables.
/// let bytes = dispatch::memory_estimate(Kernel::Auto, 22)?;
/// assert!(bytes > 64 << 20 && bytes < 1 << 30);
/// assert_eq!(dispatch::memory_estimate(Kernel::Portable, 22)?, 0);
/// # Ok::<(), queens_simd::Error>(())
/// ```
///
/// # Errors
///
/// As [`solver_for`].
#[cfg_attr(not(feature = "std"), doc = "")]
#[cfg_attr(
    not(feature = "std"),
    doc = "[`crate::plan::Plan::memory_estimate`]: crate#features"
)]
pub fn memory_estimate(kernel: Kernel, n: usize) -> Result<u64, Error> {
    let kernel = solver_for(kernel, Task::Count, n)?.kernel();
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
/// As [`solver_for`].
pub fn for_each_solution(
    kernel: Kernel,
    n: usize,
    visit: Visit<'_>,
) -> Result<ControlFlow<()>, Error> {
    solver_for(kernel, Task::Enumerate, n)?.for_each_solution(visit)
}

/// Calls `visit` for every solution whose row-0 queen stands in a
/// column of `first_row` (bit `c` for column `c`), until it returns
/// `Break`.
///
/// # Errors
///
/// As [`solver_for`].
pub fn for_each_solution_in_first_row(
    kernel: Kernel,
    n: usize,
    first_row: u32,
    visit: Visit<'_>,
) -> Result<ControlFlow<()>, Error> {
    solver_for(kernel, Task::Enumerate, n)?.for_each_solution_in_first_row(first_row, visit)
}

/// Every solution, in the kernel's own order.
///
/// # Errors
///
/// As [`solver_for`].
#[cfg(feature = "alloc")]
pub fn solutions(kernel: Kernel, n: usize) -> Result<alloc::vec::Vec<crate::Board>, Error> {
    solver_for(kernel, Task::Enumerate, n)?.solutions()
}
