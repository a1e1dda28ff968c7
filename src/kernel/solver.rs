//! [`Solver`]: the interface every kernel implements, and the visitor
//! ([`Visit`]) its enumeration takes. The trait's one public path is the crate root's
//! (`queens_simd::Solver`), the visitor's `kernel::Visit`.

use core::ops::ControlFlow;

use crate::{Board, Count, Error, Kernel};

/// What a kernel calls for each solution it finds; `Break` stops the search.
pub type Visit<'a> = &'a mut dyn FnMut(&Board) -> ControlFlow<()>;

/// A solving algorithm. Each method checks `n` against the kernel's
/// [`Kernel::sizes`] and returns [`Error::SizeOutOfRange`] instead of
/// panicking.
pub trait Solver: Send + Sync {
    /// Which kernel this is.
    fn kernel(&self) -> Kernel;

    /// Number of solutions on an `n`x`n` board.
    fn count(&self, n: usize) -> Result<Count, Error>;

    /// Calls `visit` once for every solution, in the kernel's own order,
    /// until it returns `Break`. Returns `Break` if `visit` stopped it.
    fn for_each_solution(&self, n: usize, visit: Visit<'_>) -> Result<ControlFlow<()>, Error>;

    /// Like [`Solver::for_each_solution`], restricted to the solutions whose
    /// row-0 queen stands in one of the columns of `first_row` (bit `c` for
    /// column `c`). The empty board of N = 0 has no row 0 and is always
    /// visited. Kernels that can prune their search override this; the
    /// default filters the full enumeration.
    fn for_each_solution_in_first_row(
        &self,
        n: usize,
        first_row: u32,
        visit: Visit<'_>,
    ) -> Result<ControlFlow<()>, Error> {
        self.for_each_solution(n, &mut |board| match board.columns().first() {
            Some(&col) if first_row >> col & 1 == 0 => ControlFlow::Continue(()),
            _ => visit(board),
        })
    }

    /// Calls `visit` with the canonical form ([`crate::symmetry::canonical`])
    /// of every class of solutions under the symmetries of the square, in
    /// the kernel's own order, until it returns `Break`. The default
    /// enumerates the solutions whose row-0 queen is in the left half of the
    /// board (where every canonical form has it) and keeps those that are
    /// their own canonical form; kernels that search by class override it.
    fn for_each_fundamental(&self, n: usize, visit: Visit<'_>) -> Result<ControlFlow<()>, Error> {
        // First, as the mask below is only defined for the kernels' sizes.
        self.kernel().check_size(n)?;
        // A canonical form has its row-0 queen in column c with 2c <= n - 1:
        // the left-right mirror would otherwise be smaller.
        let left_half = (1u32 << n.div_ceil(2)) - 1;
        self.for_each_solution_in_first_row(n, left_half, &mut |board| {
            if crate::symmetry::is_canonical(board) {
                visit(board)
            } else {
                ControlFlow::Continue(())
            }
        })
    }

    /// Number of classes of solutions under the symmetries of the square
    /// (OEIS A002562). The default counts [`Solver::for_each_fundamental`].
    fn count_fundamental(&self, n: usize) -> Result<Count, Error> {
        let mut classes: Count = 0;
        // The visitor never breaks: the flow it returns carries nothing.
        let _ = self.for_each_fundamental(n, &mut |_| {
            classes += 1;
            ControlFlow::Continue(())
        })?;
        Ok(classes)
    }

    /// Every solution, in the kernel's own order.
    #[cfg(feature = "alloc")]
    fn solutions(&self, n: usize) -> Result<alloc::vec::Vec<Board>, Error> {
        let mut all = alloc::vec::Vec::new();
        // The visitor never breaks: the flow it returns carries nothing.
        let _ = self.for_each_solution(n, &mut |board| {
            all.push(*board);
            ControlFlow::Continue(())
        })?;
        Ok(all)
    }
}
