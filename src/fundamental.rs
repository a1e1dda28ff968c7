//! Fundamental solutions: one representative per class of solutions that the
//! eight symmetries of the square map onto each other (OEIS A002562; 12 for
//! N = 8). Each class is represented by its canonical form
//! ([`crate::symmetry::canonical`]).
//!
//! The chosen kernel (`auto` resolved for [`Task::Fundamental`]) finds them
//! ([`crate::Solver::for_each_fundamental`]): the
//! symmetric kernels search one board per class, the others enumerate the
//! solutions whose row-0 queen is in the left half of the board (where every
//! canonical form has it) and keep those that are their own canonical form.

use core::ops::ControlFlow;

use crate::kernel::{Task, Visit};
use crate::{Count, Error, Kernel};

/// Calls `visit` with the canonical form of every class of solutions, in the
/// kernel's enumeration order, until it returns `Break`.
pub fn for_each(kernel: Kernel, n: usize, visit: Visit<'_>) -> Result<ControlFlow<()>, Error> {
    crate::dispatch::solver_for(kernel, Task::Fundamental, n)?.for_each_fundamental(visit)
}

/// The canonical forms of all classes, sorted.
#[cfg(feature = "alloc")]
pub fn solutions(kernel: Kernel, n: usize) -> Result<alloc::vec::Vec<crate::Board>, Error> {
    let mut all = alloc::vec::Vec::new();
    // The visitor never breaks: the flow it returns carries nothing.
    let _ = for_each(kernel, n, &mut |board| {
        all.push(*board);
        ControlFlow::Continue(())
    })?;
    all.sort_unstable();
    Ok(all)
}

/// Number of classes of solutions under the symmetries of the square.
pub fn count(kernel: Kernel, n: usize) -> Result<Count, Error> {
    crate::dispatch::solver_for(kernel, Task::Fundamental, n)?.count_fundamental()
}
