//! Plans counted by a kernel's name: the dispatcher turns the name into a
//! [`PieceCounter`] (built from the kernel table, `auto` resolved) and
//! hands it to the plan, which runs it. The plan's methods that take a
//! [`Kernel`] are written here, so that the plan never imports the
//! dispatcher.

use super::{JOIN_PREFERENCE, unavailable};
use crate::kernel::pieces::PieceCounter;
use crate::kernel::{Method, Task};
use crate::plan::{Counted, Options, PartialBoard, Plan, SPLIT_FROM, Sample, Subproblem};
use crate::{Count, Error, Kernel};
use core::num::NonZeroUsize;

/// The counter of `method`'s pieces that `asked` stands for: the kernel
/// itself if it counts them and runs here; for `auto`, the fastest kernel
/// of that method this CPU runs (the first of `auto`'s list for large
/// boards).
///
/// # Errors
///
/// [`Error::WrongMethod`] for a kernel that counts the other method's
/// pieces, [`Error::KernelUnavailable`] if this CPU or build cannot run the
/// kernel, [`Error::NotSplittable`] for one that counts no pieces.
pub(crate) fn counter(asked: Kernel, method: Method) -> Result<PieceCounter, Error> {
    if asked.method().is_some_and(|own| own != method) {
        return Err(Error::WrongMethod {
            kernel: asked,
            method: method.name(),
        });
    }
    let kernel = match asked {
        Kernel::Auto => JOIN_PREFERENCE
            .iter()
            .copied()
            .find(|k| k.method() == Some(method) && k.is_available())
            .ok_or_else(|| unavailable(Kernel::Auto))?,
        other => other,
    };
    // Availability first: a kernel this CPU lacks is unavailable, whether
    // or not it would split.
    kernel.solver_for(0, Task::Count)?;
    if kernel.method().is_none() {
        return Err(Error::NotSplittable(asked));
    }
    super::build(kernel)
        .and_then(|built| built.counter)
        .ok_or_else(|| unavailable(kernel))
}

/// Whether a count of size `n` by `kernel` goes through a plan when no
/// shard or checkpoint asks for one: from [`SPLIT_FROM`] up, where the
/// kernel (`auto` resolved for counting) splits: a symmetric, lane or join
/// kernel. The one place that decides it, for [`crate::count_on_threads`]
/// and the command line.
pub fn counts_through_plan(kernel: Kernel, n: usize) -> bool {
    n >= SPLIT_FROM && kernel.resolve_for(n, Task::Count).splits()
}

impl Method {
    /// The method of the plan `kernel` counts size `n` through: the
    /// kernel's own, or for `auto` the method of the kernel it counts `n`
    /// with (a join plan from [`super::JOIN_FROM`] where it picks a join
    /// kernel, else a symmetric plan, whose kernels it also counts with).
    ///
    /// # Errors
    ///
    /// [`Error::SizeOutOfRange`] if `kernel` does not accept `n`,
    /// [`Error::NotSplittable`] for a kernel that counts no plan.
    pub fn for_kernel(n: usize, kernel: Kernel) -> Result<Method, Error> {
        kernel.check_size(n)?;
        match kernel {
            Kernel::Auto => Ok(kernel
                .resolve_for(n, Task::Count)
                .method()
                .unwrap_or(Method::Symmetric)),
            _ => kernel.method().ok_or(Error::NotSplittable(kernel)),
        }
    }

    /// The kernel that counts this method's plans when `kernel` is asked:
    /// `kernel` if it counts them and runs here; for `auto`, the fastest
    /// kernel of this method this CPU runs.
    ///
    /// # Errors
    ///
    /// [`Error::KernelUnavailable`] if this CPU or build cannot run the
    /// kernel, [`Error::WrongMethod`] for a kernel that counts the other
    /// method's plans, [`Error::NotSplittable`] for one that counts none.
    pub fn counting_kernel(self, kernel: Kernel) -> Result<Kernel, Error> {
        counter(kernel, self).map(PieceCounter::kernel)
    }
}

impl Options {
    /// The kernel that counts with these options: `kernel` if it counts a
    /// plan (a symmetric, lane or join kernel) and runs here; for `auto`,
    /// the fastest symmetric kernel this CPU runs, which counts symmetric
    /// plans (a join plan's kernel for `auto` is the fastest join kernel:
    /// [`Plan::counting_kernel`] says which kernel counts a given plan).
    ///
    /// # Errors
    ///
    /// As [`Method::counting_kernel`].
    pub fn counting_kernel(&self) -> Result<Kernel, Error> {
        let method = self.kernel.method().unwrap_or(Method::Symmetric);
        method.counting_kernel(self.kernel)
    }
}

impl Plan {
    /// The plan that `kernel` counts size `n` through: a symmetric plan for
    /// the symmetric and lane kernels, a join plan for the join kernels,
    /// and for `auto` the plan of the kernel it counts `n` with
    /// ([`Method::for_kernel`]): a join plan from [`super::JOIN_FROM`]
    /// where it picks a join kernel.
    ///
    /// # Errors
    ///
    /// [`Error::SizeOutOfRange`] if `kernel` does not accept `n`,
    /// [`Error::NotSplittable`] for a kernel that counts no plan.
    pub fn for_kernel(n: usize, kernel: Kernel) -> Result<Plan, Error> {
        Plan::with_method(n, Method::for_kernel(n, kernel)?)
    }

    /// The kernel that counts this plan with `options`:
    /// [`Method::counting_kernel`] of its method and `options.kernel`.
    ///
    /// # Errors
    ///
    /// As [`Method::counting_kernel`].
    pub fn counting_kernel(&self, options: &Options) -> Result<Kernel, Error> {
        self.method().counting_kernel(options.kernel)
    }

    /// The solutions of the subproblems numbered `indices` (each at most
    /// once), on `options.threads` threads; `done(index, count)` is called
    /// on the calling thread as each one finishes.
    ///
    /// Fails if `threads` is 0, if `options.kernel` does not count this
    /// plan's method ([`Plan::counting_kernel`]) or cannot run here, or if
    /// an index is out of range or given twice. It does not check the
    /// memory: see [`Plan::memory_estimate`]. Threads the system refuses
    /// to start are done without (the others count everything):
    /// [`Plan::count_reporting`] says how many counted.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidThreads`], as [`Method::counting_kernel`],
    /// [`Error::InvalidShard`] for the indices, and for a join plan
    /// [`Error::OutOfMemory`] if a thread's tables or buffers are refused
    /// (the subproblems reported to `done` before it were counted right).
    pub fn count(
        &self,
        indices: &[usize],
        options: &Options,
        done: impl FnMut(usize, Count),
    ) -> Result<Count, Error> {
        self.count_reporting(indices, options, done)
            .map(|counted| counted.count)
    }

    /// [`Plan::count`], and how many threads counted: fewer than
    /// `options.threads` if there were fewer subproblems, or if the
    /// operating system refused to start some ([`Counted::refused`]: a
    /// program can then say that it counted on K of the N threads asked).
    ///
    /// ```
    /// use queens_simd::plan::{Options, Plan};
    ///
    /// let plan = Plan::new(12)?;
    /// let counted = plan.count_reporting(plan.all(), &Options::threads(2), |_, _| {})?;
    /// assert_eq!(counted.count, 14_200);
    /// if counted.refused > 0 {
    ///     eprintln!("counted on {} of the 2 threads asked", counted.threads);
    /// }
    /// # Ok::<(), queens_simd::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Plan::count`].
    pub fn count_reporting(
        &self,
        indices: &[usize],
        options: &Options,
        done: impl FnMut(usize, Count),
    ) -> Result<Counted, Error> {
        // The threads, then the kernel, then the indices.
        if options.threads == 0 {
            return Err(Error::InvalidThreads);
        }
        let counter = counter(options.kernel, self.method())?;
        self.run(indices, counter, options.threads, done)
    }

    /// `draws` row sets of this join plan, drawn at random with `seed`
    /// (the same seed draws the same ones on every machine), each built
    /// and joined on one thread by `options.kernel`, `options.threads` at
    /// a time: a [`Sample`] that projects the whole count's solutions and
    /// time. docs/plan.md says how to use it and how well it did.
    ///
    /// It takes the memory of a count on `options.threads` threads
    /// ([`Plan::memory_estimate`]) and of its draws
    /// ([`Plan::sample_memory_estimate`]), and does not check them; draws
    /// that do not fit are [`Error::OutOfMemory`]. Threads the system
    /// refuses to start are done without.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidThreads`], as [`Method::counting_kernel`],
    /// [`Error::WrongMethod`] for a symmetric plan (only a join is
    /// sampled), and [`Error::OutOfMemory`] if the join's tables or
    /// buffers are refused.
    pub fn sample(
        &self,
        draws: NonZeroUsize,
        seed: u64,
        options: &Options,
    ) -> Result<Sample, Error> {
        if options.threads == 0 {
            return Err(Error::InvalidThreads);
        }
        let counter = counter(options.kernel, self.method())?;
        self.run_sample(counter, draws, seed, options.threads)
    }

    /// `draws` row sets of this join plan, drawn as [`Plan::sample`] draws
    /// them, each a subproblem of its own (the solutions with its split's
    /// band of queens and a west queen in exactly its rows), counted twice:
    /// by `kernel` on the split with nothing folded, and by a plain search
    /// that places queens row by row. Where no whole count can be run
    /// (N = 23 to 28 here), this is how the join's pieces are checked; the
    /// two counts of each must agree.
    ///
    /// # Errors
    ///
    /// As [`Method::counting_kernel`], [`Error::WrongMethod`] for a
    /// symmetric plan, and [`Error::OutOfMemory`] if the join's tables or
    /// buffers are refused.
    pub fn check_pieces(
        &self,
        draws: NonZeroUsize,
        seed: u64,
        kernel: crate::Kernel,
    ) -> Result<Vec<crate::plan::Checked>, Error> {
        let counter = counter(kernel, self.method())?;
        if self.method() != crate::plan::Method::Join {
            return Err(Error::WrongMethod {
                kernel: counter.kernel(),
                method: self.method().name(),
            });
        }
        let pieces: Vec<_> = self.subproblems().iter().map(|sub| sub.piece()).collect();
        counter.check(self.n(), &pieces, draws.get(), seed)
    }
}

impl Subproblem {
    /// Its share of the total, counted on this thread by `kernel`: for a
    /// symmetric subproblem a symmetric or lane kernel or `auto`; for a
    /// join piece a join kernel or `auto` (which builds its cut's
    /// quarter-boards for it alone: [`Plan::count`] builds them once for
    /// all the pieces it is given).
    ///
    /// # Errors
    ///
    /// As [`Plan::counting_kernel`], and [`Error::OutOfMemory`] if a
    /// join's tables or buffers are refused.
    pub fn count(&self, kernel: Kernel) -> Result<Count, Error> {
        let counter = counter(kernel, self.method())?;
        let mut total = 0;
        counter.count(
            self.n(),
            &[(self.index(), self.piece())],
            1,
            &mut |_, count| {
                total += count;
            },
        )?;
        Ok(total)
    }
}

impl PartialBoard {
    /// The number of solutions that hold every queen placed, counted on
    /// this thread by `kernel` (a symmetric or lane kernel, or `auto`).
    ///
    /// # Errors
    ///
    /// As [`Method::counting_kernel`] for [`Method::Symmetric`].
    pub fn count(&self, kernel: Kernel) -> Result<Count, Error> {
        let counter = counter(kernel, Method::Symmetric)?;
        let Some(piece) = self.piece() else {
            // Two queens attack each other.
            return Ok(0);
        };
        let mut total = 0;
        counter.count(self.n(), &[(0, &piece)], 1, &mut |_, count| total += count)?;
        Ok(total)
    }
}

impl Kernel {
    /// Number of solutions on an `n`x`n` board, on `threads` threads:
    /// `Auto` resolved for counting; a kernel that splits (a symmetric,
    /// lane or join kernel) counts through its [`Plan`] from
    /// [`SPLIT_FROM`] up, and any other kernel, or any kernel below, counts
    /// on this thread. The same count for every number of threads, and
    /// on fewer threads if the system refuses to start some. (It does not
    /// check the memory a join count takes: see [`Plan::memory_estimate`]
    /// and the crate's Memory section.)
    ///
    /// # Errors
    ///
    /// [`Error::InvalidThreads`] for 0 threads, [`Error::OutOfMemory`] if a
    /// join's tables or buffers are refused, else as
    /// [`Kernel::solver_for`].
    pub fn count_on_threads(self, n: usize, threads: usize) -> Result<Count, Error> {
        if threads == 0 {
            return Err(Error::InvalidThreads);
        }
        let solver = self.solver(n)?;
        let kernel = solver.kernel();
        if counts_through_plan(kernel, n) {
            let plan = Plan::for_kernel(n, kernel)?;
            let counter = counter(kernel, plan.method())?;
            Ok(plan.run(plan.all(), counter, threads, |_, _| {})?.count)
        } else {
            solver.count(n)
        }
    }
}
