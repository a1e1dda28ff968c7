//! Fundamental solutions: one representative per class of solutions that the
//! eight symmetries of the square map onto each other (OEIS A002562; 12 for
//! N = 8). Each class is represented by its canonical form
//! ([`symmetry::canonical`]).
//!
//! The chosen kernel enumerates the solutions whose row-0 queen is in the
//! left half of the board (where every canonical form has it) and only those
//! that are their own canonical form are kept.

use core::ops::ControlFlow;

use crate::kernel::Visit;
use crate::symmetry;
use crate::{Board, Count, Error, Kernel};

/// Calls `visit` with the canonical form of every class of solutions, in the
/// kernel's enumeration order, until it returns `Break`.
pub fn for_each(kernel: Kernel, n: usize, visit: Visit<'_>) -> Result<ControlFlow<()>, Error> {
    // A canonical form has its row-0 queen in the left half (column c with
    // 2c <= n - 1): the left-right mirror would otherwise be smaller.
    let left_half = (1u32 << n.div_ceil(2)) - 1;
    kernel.for_each_solution_in_first_row(n, left_half, &mut |board| {
        if symmetry::is_canonical(board) {
            visit(board)
        } else {
            ControlFlow::Continue(())
        }
    })
}

/// The canonical forms of all classes, sorted.
pub fn solutions(kernel: Kernel, n: usize) -> Result<Vec<Board>, Error> {
    let mut all = Vec::new();
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
    let mut classes: Count = 0;
    // The visitor never breaks: the flow it returns carries nothing.
    let _ = for_each(kernel, n, &mut |_| {
        classes += 1;
        ControlFlow::Continue(())
    })?;
    Ok(classes)
}
