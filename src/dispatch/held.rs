//! [`HeldSolver`]: a kernel held for one task and one size, what
//! [`super::solver_for`] returns.

use core::fmt;
use core::ops::ControlFlow;

use crate::kernel::Visit;
use crate::{Count, Error, Kernel, Solver};

/// A kernel held for one size: its name resolved (`auto` picked for the
/// task asked, `asm` given its encoding), its CPU features and the size
/// checked once, so that each call goes straight to the kernel. Hold it
/// to call the same kernel many times with no dispatch per call.
///
/// It keeps the N it was made for: a count of another size asks for
/// another ([`super::solver_for`]), whose `auto` may pick another kernel.
/// (A kernel's own type, such as `kernel::portable::Portable`, takes any
/// N its kernel accepts.)
///
/// ```
/// use queens_simd::Kernel;
/// use queens_simd::dispatch::solver_for;
/// use queens_simd::kernel::Task;
///
/// let held = solver_for(Kernel::Auto, Task::Count, 12)?;
/// assert_eq!((held.n(), held.count()?), (12, 14_200));
/// # Ok::<(), queens_simd::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct HeldSolver {
    solver: &'static dyn Solver,
    n: usize,
}

impl HeldSolver {
    /// `solver` for size `n`, both checked by the caller.
    pub(super) fn new(solver: &'static dyn Solver, n: usize) -> HeldSolver {
        HeldSolver { solver, n }
    }

    /// The kernel that runs: concrete, never `auto` or `asm`.
    pub fn kernel(&self) -> Kernel {
        self.solver.kernel()
    }

    /// The board size it was made for.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The kernel's own solver, which takes any N that kernel accepts
    /// (and refuses the others in its own name): for a caller that times
    /// the kernel with the size hidden from the optimiser, as the benches
    /// do.
    pub fn solver(&self) -> &'static dyn Solver {
        self.solver
    }

    /// Number of solutions.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfMemory`] if a join kernel's tables or buffers are
    /// refused.
    pub fn count(&self) -> Result<Count, Error> {
        self.solver.count(self.n)
    }

    /// Calls `visit` once for every solution, in the kernel's own order,
    /// until it returns `Break` (see [`Solver::for_each_solution`]).
    ///
    /// # Errors
    ///
    /// [`Error::CountOnly`] for a kernel that only counts.
    pub fn for_each_solution(&self, visit: Visit<'_>) -> Result<ControlFlow<()>, Error> {
        self.solver.for_each_solution(self.n, visit)
    }

    /// [`HeldSolver::for_each_solution`] for the solutions whose row-0
    /// queen stands in one of the columns of `first_row` (see
    /// [`Solver::for_each_solution_in_first_row`]).
    ///
    /// # Errors
    ///
    /// As [`HeldSolver::for_each_solution`].
    pub fn for_each_solution_in_first_row(
        &self,
        first_row: u32,
        visit: Visit<'_>,
    ) -> Result<ControlFlow<()>, Error> {
        self.solver
            .for_each_solution_in_first_row(self.n, first_row, visit)
    }

    /// Calls `visit` with one solution per class under the symmetries of
    /// the square (see [`Solver::for_each_fundamental`]).
    ///
    /// # Errors
    ///
    /// As [`HeldSolver::for_each_solution`].
    pub fn for_each_fundamental(&self, visit: Visit<'_>) -> Result<ControlFlow<()>, Error> {
        self.solver.for_each_fundamental(self.n, visit)
    }

    /// Number of classes of solutions under the symmetries of the square.
    ///
    /// # Errors
    ///
    /// As [`HeldSolver::for_each_solution`].
    pub fn count_fundamental(&self) -> Result<Count, Error> {
        self.solver.count_fundamental(self.n)
    }

    /// Every solution, in the kernel's own order.
    ///
    /// # Errors
    ///
    /// As [`HeldSolver::for_each_solution`].
    #[cfg(feature = "alloc")]
    pub fn solutions(&self) -> Result<alloc::vec::Vec<crate::Board>, Error> {
        self.solver.solutions(self.n)
    }
}

impl fmt::Debug for HeldSolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HeldSolver")
            .field("kernel", &self.kernel())
            .field("n", &self.n)
            .finish()
    }
}
