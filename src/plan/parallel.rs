//! Counting a plan's subproblems on several threads: scoped threads that
//! claim subproblems in the plan's order from a shared cursor, so that a
//! thread that finishes early takes the next one and all finish together.
//! A symmetric plan's are counted here; a join plan's by
//! [`pieces::count`], which does the same cut by cut.

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::{Method, Plan, Search, Subproblem};
use crate::kernel::join::pieces::{self, Piece};
use crate::kernel::symmetric::Engine;
use crate::kernel::symmetric::subproblem::Subproblem as SearchSubproblem;
use crate::{Count, Error, Kernel};

/// How to count a plan.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Worker threads, at least 1. Default: every core
    /// ([`std::thread::available_parallelism`]).
    pub threads: usize,
    /// A kernel of the plan's method (`symmetric` or `symmetric-bmi` for a
    /// symmetric plan; `join`, `join-avx2` or `join-avx512` for a join
    /// plan), or `auto` (the default): the fastest one of the plan's method
    /// this CPU runs.
    pub kernel: Kernel,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            threads: std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
            kernel: Kernel::Auto,
        }
    }
}

impl Options {
    /// The default options with `threads` threads.
    pub fn threads(threads: usize) -> Options {
        Options {
            threads,
            ..Options::default()
        }
    }

    /// These options with `kernel`.
    pub fn with_kernel(self, kernel: Kernel) -> Options {
        Options { kernel, ..self }
    }

    /// The kernel that counts with these options: `kernel` if it counts a
    /// plan (a symmetric or a join kernel) and runs here; for `auto`, the
    /// faster symmetric kernel this CPU runs, which counts symmetric plans
    /// (a join plan's kernel for `auto` is the fastest join kernel:
    /// [`Plan::counting_kernel`] says which kernel counts a given plan).
    /// Fails for kernels that do not count subproblems or cannot run here.
    pub fn counting_kernel(&self) -> Result<Kernel, Error> {
        let method = match Method::of(self.kernel) {
            Some(Method::Join) => Method::Join,
            _ => Method::Symmetric,
        };
        method.counting_kernel(self.kernel)
    }
}

/// A list of subproblems that threads take one at a time, in order.
struct Queue<'a> {
    subproblems: Vec<(usize, &'a SearchSubproblem)>,
    next: AtomicUsize,
}

impl<'a> Queue<'a> {
    fn new(subproblems: Vec<(usize, &'a SearchSubproblem)>) -> Self {
        Queue {
            subproblems,
            next: AtomicUsize::new(0),
        }
    }

    /// The next subproblem nobody has taken yet.
    fn claim(&self) -> Option<(usize, &'a SearchSubproblem)> {
        // Relaxed: the counter only hands out positions; the subproblems
        // themselves were written before the threads started.
        let position = self.next.fetch_add(1, Ordering::Relaxed);
        self.subproblems.get(position).copied()
    }
}

/// Counts what is left of `rest`, then of `ties` (the walkers count ties in
/// a pass of their own), reporting each subproblem through `done`.
fn drain(engine: Engine, rest: &Queue<'_>, ties: &Queue<'_>, done: &mut dyn FnMut(usize, Count)) {
    engine.count(
        &mut core::iter::from_fn(|| rest.claim()),
        false,
        false,
        done,
    );
    engine.count(&mut core::iter::from_fn(|| ties.claim()), true, false, done);
}

pub(super) fn count(
    plan: &Plan,
    indices: &[usize],
    options: &Options,
    mut done: impl FnMut(usize, Count),
) -> Result<Count, Error> {
    if options.threads == 0 {
        return Err(Error::InvalidThreads);
    }
    // The kernel first: a kernel that cannot count this plan is refused
    // before the indices are looked at.
    let counter = match plan.method() {
        Method::Symmetric => Counter::Symmetric(super::symmetric_engine(options.kernel)?),
        Method::Join => Counter::Join(super::joiner(options.kernel)?),
    };
    let subproblems = checked(plan, indices)?;
    let mut total: Count = 0;
    let mut report = |index, count| {
        total += count;
        done(index, count);
    };
    match counter {
        Counter::Symmetric(engine) => count_symmetric(engine, &subproblems, options, &mut report),
        Counter::Join(joiner) => {
            let pieces: Vec<(usize, Piece)> = subproblems
                .iter()
                .filter_map(|sub| match &sub.search {
                    Search::Join { piece, .. } => Some((sub.index, *piece)),
                    _ => None,
                })
                .collect();
            pieces::count(joiner, plan.n(), &pieces, options.threads, &mut report)?;
        }
    }
    Ok(total)
}

/// What counts a plan: the symmetric kernel's walkers, or a join kernel.
enum Counter {
    Symmetric(Engine),
    Join(pieces::AnyJoiner),
}

/// The subproblems numbered `indices`, in that order, refusing an index
/// that is out of range or given twice.
fn checked<'a>(plan: &'a Plan, indices: &[usize]) -> Result<Vec<&'a Subproblem>, Error> {
    let mut seen = vec![false; plan.len()];
    let mut subproblems = Vec::with_capacity(indices.len());
    for &index in indices {
        let Some(sub) = plan.get(index) else {
            return Err(Error::InvalidShard(format!(
                "subproblem {index} does not exist: the plan for N = {} has {}",
                plan.n(),
                plan.len()
            )));
        };
        if std::mem::replace(&mut seen[index], true) {
            return Err(Error::InvalidShard(format!(
                "subproblem {index} is listed twice"
            )));
        }
        subproblems.push(sub);
    }
    Ok(subproblems)
}

/// Counts a symmetric plan's `subproblems` with `engine` on
/// `options.threads` threads, reporting each through `report` on this
/// thread.
fn count_symmetric(
    engine: Engine,
    subproblems: &[&Subproblem],
    options: &Options,
    report: &mut dyn FnMut(usize, Count),
) {
    let mut rest = Vec::new();
    let mut ties = Vec::new();
    let mut small = Vec::new();
    for &sub in subproblems {
        match &sub.search {
            Search::Small(_) => small.push(sub),
            Search::Symmetric(search) if search.kind.is_tie() => ties.push((sub.index, search)),
            Search::Symmetric(search) => rest.push((sub.index, search)),
            Search::Join { .. } => unreachable!("a symmetric plan holds no join pieces"),
        }
    }
    for sub in small {
        sub.count_with(engine, report);
    }
    let (rest, ties) = (Queue::new(rest), Queue::new(ties));
    let threads = options
        .threads
        .min(rest.subproblems.len() + ties.subproblems.len());
    if threads <= 1 {
        drain(engine, &rest, &ties, report);
        return;
    }
    crate::workers::run(threads, |send| drain(engine, &rest, &ties, send), report);
}
