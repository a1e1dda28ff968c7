//! Plans counted by a kernel's name: which plan a kernel counts a board
//! through, and the counts of one subproblem or one partial board on this
//! thread. Each turns the name into a counter (the registry builds it) and
//! hands it to the plan, which runs it; the plan never imports the
//! dispatcher. [`super::Options`] counts whole plans.

use super::entry::solver_for;
use super::policy::resolve_for;
use super::registry::counter;
use crate::Error;
use crate::kernel::pieces::{Piece, PieceCounter};
use crate::kernel::{Method, Task};
use crate::plan::{InFlight, PartialBoard, Plan, Progress, SPLIT_FROM, Subproblem};
use crate::{Count, Kernel};

/// Whether a count of size `n` by `kernel` goes through a plan when no
/// shard or checkpoint asks for one: from the size where counting on
/// threads pays (`threads/` in BENCHMARKS.md) up, where the kernel (`auto`
/// resolved for counting) splits: a symmetric, lane or join kernel. The one place that decides it, for [`crate::count_on_threads`]
/// and the command line.
pub fn counts_through_plan(kernel: Kernel, n: usize) -> bool {
    n >= SPLIT_FROM && resolve_for(kernel, Task::Count, n).splits()
}

/// The method of the plan `kernel` counts size `n` through: the
/// kernel's own, or for `auto` the method of the kernel it counts `n`
/// with (a join plan where it picks a join kernel, else a symmetric plan,
/// whose kernels it also counts with).
///
/// # Errors
///
/// [`Error::SizeOutOfRange`] if `kernel` does not accept `n`,
/// [`Error::NotSplittable`] for a kernel that counts no plan.
pub fn plan_method(kernel: Kernel, n: usize) -> Result<Method, Error> {
    kernel.check_size(n)?;
    match kernel {
        Kernel::Auto => Ok(resolve_for(kernel, Task::Count, n)
            .method()
            .unwrap_or(Method::Symmetric)),
        _ => kernel.method().ok_or(Error::NotSplittable(kernel)),
    }
}

/// The plan that `kernel` counts size `n` through: a symmetric plan for
/// the symmetric and lane kernels, a join plan for the join kernels,
/// and for `auto` the plan of the kernel it counts `n` with
/// ([`plan_method`]): a join plan where it picks a join kernel.
///
/// # Errors
///
/// [`Error::SizeOutOfRange`] if `kernel` does not accept `n`,
/// [`Error::NotSplittable`] for a kernel that counts no plan.
pub fn plan_for(kernel: Kernel, n: usize) -> Result<Plan, Error> {
    Plan::with_method(plan_method(kernel, n)?, n)
}

/// `subproblem`'s share of the total, counted on this thread by `kernel`: for a
/// symmetric subproblem a symmetric or lane kernel or `auto`; for a
/// join piece a join kernel or `auto` (which builds its cut's
/// quarter-boards for it alone: [`super::Options::count`] builds them once for
/// all the pieces it is given).
///
/// # Errors
///
/// As [`super::Options::counting_kernel`], and [`Error::OutOfMemory`] if a
/// join's tables or buffers are refused.
pub fn count_subproblem(kernel: Kernel, subproblem: &Subproblem) -> Result<Count, Error> {
    let counter = counter(kernel, subproblem.method())?;
    count_one_piece(
        counter,
        subproblem.n(),
        subproblem.index(),
        subproblem.piece(),
    )
}

/// The number of solutions that hold every queen placed on `board`, counted on
/// this thread by `kernel` (a symmetric or lane kernel, or `auto`).
///
/// # Errors
///
/// As [`super::Options::counting_kernel`] for [`Method::Symmetric`].
pub fn count_partial_board(kernel: Kernel, board: &PartialBoard) -> Result<Count, Error> {
    let counter = counter(kernel, Method::Symmetric)?;
    let Some(piece) = board.piece() else {
        // Two queens attack each other.
        return Ok(0);
    };
    count_one_piece(counter, board.n(), 0, &piece)
}

/// `piece` (numbered `index`) of an `n`x`n` board, counted by `counter` on
/// this thread.
fn count_one_piece(
    counter: PieceCounter,
    n: usize,
    index: usize,
    piece: &Piece,
) -> Result<Count, Error> {
    let mut total = 0;
    let mut done = |progress| {
        if let Progress::Done { count, .. } = progress {
            total += count;
        }
    };
    counter.count(n, &[(index, piece)], &InFlight::new(), 1, &mut done)?;
    Ok(total)
}

/// Number of solutions on an `n`x`n` board, on `threads` threads:
/// `Auto` resolved for counting; a kernel that splits (a symmetric,
/// lane or join kernel) counts through its [`Plan`] from
/// the size [`counts_through_plan`] names up, and any other kernel, or any
/// kernel below, counts on this thread. The same count for every number of threads, and
/// on fewer threads if the system refuses to start some. (It does not
/// check the memory a join count takes: see [`Plan::memory_estimate`]
/// and the crate's Memory section.)
///
/// # Errors
///
/// [`Error::InvalidThreads`] for 0 threads, [`Error::OutOfMemory`] if a
/// join's tables or buffers are refused, else as
/// [`super::solver_for`].
pub fn count_on_threads(kernel: Kernel, n: usize, threads: usize) -> Result<Count, Error> {
    if threads == 0 {
        return Err(Error::InvalidThreads);
    }
    let solver = solver_for(kernel, Task::Count, n)?;
    let kernel = solver.kernel();
    if counts_through_plan(kernel, n) {
        let plan = plan_for(kernel, n)?;
        let counter = counter(kernel, plan.method())?;
        Ok(plan
            .run(plan.all(), &InFlight::new(), counter, threads, |_| {})?
            .count)
    } else {
        solver.count()
    }
}

/// `subproblem`'s share of the total counted by a plain search that places
/// queens row by row, if it is a join plan's piece (`None` for a symmetric
/// subproblem): the count a join kernel gives it ([`count_subproblem`]),
/// found without the join's quarter-boards, half-boards, sieve or
/// matcher. The two share only the piece's folding (which of its row sets
/// are counted, and what each stands for), so a kernel that miscounts a
/// piece, or a record that lies about one, shows as a difference
/// (`queens-simd merge --recount K --recount-by search`). It allocates
/// nothing, and takes about as long as a plain search of the piece's
/// boards: far longer than a join kernel for a large piece.
///
/// ```
/// use queens_simd::Kernel;
/// use queens_simd::dispatch::{count_subproblem, search_subproblem};
/// use queens_simd::plan::Plan;
/// use queens_simd::kernel::Method;
///
/// let plan = Plan::with_method(Method::Join, 12)?;
/// let piece = plan.get(3).unwrap();
/// assert_eq!(search_subproblem(piece), Some(count_subproblem(Kernel::Join, piece)?));
/// let symmetric = Plan::with_method(Method::Symmetric, 12)?;
/// assert_eq!(search_subproblem(symmetric.get(0).unwrap()), None);
/// # Ok::<(), queens_simd::Error>(())
/// ```
pub fn search_subproblem(subproblem: &Subproblem) -> Option<Count> {
    match subproblem.piece() {
        Piece::Join { n, piece } => Some(crate::kernel::join::check::search_piece(*n, piece)),
        Piece::Symmetric(_) => None,
    }
}
