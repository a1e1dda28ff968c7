//! [`Options`]: how to count a plan, on how many threads and with which
//! kernel, and the counting itself. Its methods turn the kernel's name
//! into the counter of the plan's pieces (the registry builds it) and
//! hand that counter to the plan, which runs it.

use std::num::NonZeroUsize;

use super::registry::counter;
use crate::Error;
use crate::kernel::Method;
use crate::plan::{Checked, Counted, InFlight, Plan, Progress, Sample};
use crate::{Count, Kernel};

/// How to count a plan, and the counting, built in one style:
/// `Options::new().with_threads(2).with_kernel(Kernel::Join)
/// .count(&plan, plan.all(), |_, _| {})`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Worker threads, at least 1 to count. Default: every core
    /// ([`std::thread::available_parallelism`]).
    threads: usize,
    /// A kernel of the plan's method (a symmetric or lane kernel for a
    /// symmetric plan, a join kernel for a join plan), or `auto` (the
    /// default): the fastest one of the plan's method this CPU runs.
    kernel: Kernel,
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
    /// The default options: every core, `auto`.
    pub fn new() -> Options {
        Options::default()
    }

    /// These options with `threads` worker threads (0 is refused when
    /// counting: [`Error::InvalidThreads`]).
    pub fn with_threads(self, threads: usize) -> Options {
        Options { threads, ..self }
    }

    /// These options with `kernel`.
    pub fn with_kernel(self, kernel: Kernel) -> Options {
        Options { kernel, ..self }
    }

    /// The worker threads these options count on.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The kernel these options ask for (`auto` by default).
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// The kernel that counts `method`'s plans with these options:
    /// `self.kernel` if it counts them and runs here; for `auto`, the
    /// fastest kernel of that method this CPU runs.
    ///
    /// # Errors
    ///
    /// [`Error::KernelUnavailable`] if this CPU or build cannot run the
    /// kernel, [`Error::WrongMethod`] for a kernel that counts the other
    /// method's plans, [`Error::NotSplittable`] for one that counts none.
    pub fn counting_kernel(&self, method: Method) -> Result<Kernel, Error> {
        super::registry::counter(self.kernel, method).map(|counter| counter.kernel())
    }

    /// The solutions of the subproblems numbered `indices` (each at most
    /// once), on `self.threads` threads; `done(index, count)` is called
    /// on the calling thread as each one finishes.
    ///
    /// Fails if `self.threads` is 0, if `self.kernel` does not count
    /// this plan's method ([`Options::counting_kernel`]) or cannot run
    /// here, or if an index is out of range or given twice. It does not check the
    /// memory: see [`Plan::memory_estimate`]. Threads the system refuses
    /// to start are done without (the others count everything):
    /// [`Options::count_reporting`] says how many counted.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidThreads`], as [`Options::counting_kernel`](crate::dispatch::Options::counting_kernel),
    /// [`Error::MissingSubproblem`] or [`Error::RepeatedSubproblem`] for
    /// the indices, and for a join plan
    /// [`Error::OutOfMemory`] if a thread's tables or buffers are refused
    /// (the subproblems reported to `done` before it were counted right).
    pub fn count(
        &self,
        plan: &Plan,
        indices: &[usize],
        done: impl FnMut(usize, Count),
    ) -> Result<Count, Error> {
        self.count_reporting(plan, indices, done)
            .map(|counted| counted.count)
    }

    /// [`Options::count`], and how many threads counted: fewer than
    /// `self.threads` if there were fewer subproblems, or if the
    /// operating system refused to start some ([`Counted::refused`]: a
    /// program can then say that it counted on K of the N threads asked).
    ///
    /// ```
    /// use queens_simd::dispatch::Options;
    /// use queens_simd::kernel::Method;
    /// use queens_simd::plan::Plan;
    ///
    /// let plan = Plan::with_method(Method::Symmetric, 12)?;
    /// let counted = Options::new().with_threads(2).count_reporting(&plan, plan.all(), |_, _| {})?;
    /// assert_eq!(counted.count, 14_200);
    /// if counted.refused > 0 {
    ///     eprintln!("counted on {} of the 2 threads asked", counted.threads);
    /// }
    /// # Ok::<(), queens_simd::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Options::count`].
    pub fn count_reporting(
        &self,
        plan: &Plan,
        indices: &[usize],
        mut done: impl FnMut(usize, Count),
    ) -> Result<Counted, Error> {
        self.count_progress(plan, indices, &InFlight::new(), |progress| {
            if let Progress::Done { index, count } = progress {
                done(index, count);
            }
        })
    }

    /// [`Options::count_reporting`] by a plain search instead of the plan's
    /// kernel: each join piece numbered `indices` is searched row by row
    /// under its queens ([`crate::dispatch::search_subproblem`]), no join,
    /// on `self.threads` threads. A check of a join count by a second
    /// algorithm (the command line's `merge --recount-by search`); `self`'s
    /// kernel is not used, and nothing large is allocated.
    ///
    /// ```
    /// use queens_simd::dispatch::Options;
    /// use queens_simd::kernel::Method;
    /// use queens_simd::plan::Plan;
    ///
    /// let plan = Plan::with_method(Method::Join, 12)?;
    /// let searched = Options::new().with_threads(2).search_reporting(&plan, plan.all(), |_, _| {})?;
    /// assert_eq!(searched.count, 14_200);
    /// # Ok::<(), queens_simd::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidThreads`] for 0 threads, [`Error::WrongMethod`] for
    /// a symmetric plan (no plain search counts its pieces), and
    /// [`Error::MissingSubproblem`] or [`Error::RepeatedSubproblem`] for an
    /// index out of range or given twice.
    pub fn search_reporting(
        &self,
        plan: &Plan,
        indices: &[usize],
        mut done: impl FnMut(usize, Count),
    ) -> Result<Counted, Error> {
        crate::plan::run_search(plan, indices, self.threads, &mut done)
    }

    /// [`Options::count_reporting`], resumed and reported in parts: the
    /// row sets of join pieces that `in_flight` holds (counted by an
    /// earlier run, and saved from its [`Progress::Part`]s) are left out,
    /// and `report` is called on the calling thread with each part of a
    /// join piece as it finishes, each subproblem once it is whole (its
    /// count includes its parts of `in_flight`), and now and then with
    /// [`Progress::Alive`]. Every thread works on the piece in hand: a
    /// join piece's row sets are dealt to the threads in blocks of about
    /// two seconds of one core, so that one piece on `T` threads takes
    /// about `1/T` of its time, and a stop loses at most the blocks in
    /// flight.
    ///
    /// ```
    /// use queens_simd::Kernel;
    /// use queens_simd::dispatch::Options;
    /// use queens_simd::kernel::Method;
    /// use queens_simd::plan::{InFlight, Plan, Progress};
    ///
    /// let plan = Plan::with_method(Method::Join, 16)?;
    /// let options = Options::new().with_threads(2).with_kernel(Kernel::Join);
    /// // The first piece, begun: its parts kept as they finish.
    /// let first = [plan.all()[0]];
    /// let mut begun = InFlight::new();
    /// let mut whole = 0;
    /// options.count_progress(&plan, &first, &InFlight::new(), |progress| match progress {
    ///     Progress::Part { index, rows, of, count } => begun.add(index, rows, of, count).unwrap(),
    ///     Progress::Done { count, .. } => whole = count,
    ///     _ => {}
    /// })?;
    /// // Resumed from all of its parts, it counts nothing more, and the
    /// // total is the same.
    /// let resumed = options.count_progress(&plan, &first, &begun, |_| {})?;
    /// assert_eq!(resumed.count, whole);
    /// # Ok::<(), queens_simd::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Options::count`], and [`Error::InvalidInFlight`] for a piece of
    /// `in_flight` that is not among `indices`, that is symmetric, or
    /// whose parts do not fit it.
    pub fn count_progress(
        &self,
        plan: &Plan,
        indices: &[usize],
        in_flight: &InFlight,
        report: impl FnMut(Progress),
    ) -> Result<Counted, Error> {
        // The threads, then the kernel, then the indices.
        if self.threads == 0 {
            return Err(Error::InvalidThreads);
        }
        let counter = counter(self.kernel, plan.method())?;
        plan.run(indices, in_flight, counter, self.threads, report)
    }

    /// `draws` row sets of the join `plan`, drawn at random with `seed`
    /// (the same seed draws the same ones on every machine), each built
    /// and joined on one thread by `self.kernel`, `self.threads` at
    /// a time: a [`Sample`] that projects the whole count's solutions and
    /// time. docs/plan.md says how to use it and how well it did.
    ///
    /// It takes the memory of a count on `self.threads` threads
    /// ([`Plan::memory_estimate`]) and of its draws
    /// ([`Plan::sample_memory_estimate`]), and does not check them; draws
    /// that do not fit are [`Error::OutOfMemory`]. Threads the system
    /// refuses to start are done without.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidThreads`], as [`Options::counting_kernel`](crate::dispatch::Options::counting_kernel),
    /// [`Error::WrongMethod`] for a symmetric plan (only a join is
    /// sampled), and [`Error::OutOfMemory`] if the join's tables or
    /// buffers are refused.
    pub fn sample(&self, plan: &Plan, draws: NonZeroUsize, seed: u64) -> Result<Sample, Error> {
        if self.threads == 0 {
            return Err(Error::InvalidThreads);
        }
        let counter = counter(self.kernel, plan.method())?;
        plan.run_sample(counter, draws, seed, self.threads)
    }

    /// `draws` row sets of the join `plan`, drawn as [`Options::sample`]
    /// draws them, each a subproblem of its own (the solutions with its
    /// split's band of queens and a west queen in exactly its rows),
    /// counted twice: by `self.kernel` on the split with nothing folded,
    /// and by a plain search that places queens row by row. Where no whole
    /// count can be run (N = 23 to 28 here), this is how the join's pieces
    /// are checked; the two counts of each must agree. It runs on one
    /// thread.
    ///
    /// # Errors
    ///
    /// As [`Options::counting_kernel`], [`Error::WrongMethod`] for a
    /// symmetric plan, and [`Error::OutOfMemory`] if the join's tables or
    /// buffers are refused.
    pub fn check(
        &self,
        plan: &Plan,
        draws: NonZeroUsize,
        seed: u64,
    ) -> Result<Vec<Checked>, Error> {
        let counter = counter(self.kernel, plan.method())?;
        plan.run_check(counter, draws, seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dispatch::plan_for;
    use core::num::NonZeroUsize;

    /// Draws past the address space: refused, not a panic on the
    /// capacity; the sample of a check, as well.
    #[test]
    fn draws_past_the_address_space_are_out_of_memory() {
        let plan = plan_for(Kernel::Join, 10).unwrap();
        let options = Options::new().with_threads(2).with_kernel(Kernel::Join);
        let sampled = options.sample(&plan, NonZeroUsize::MAX, 1);
        assert!(
            matches!(sampled, Err(Error::OutOfMemory { .. })),
            "{sampled:?}"
        );
        let checked = Options::new()
            .with_kernel(Kernel::Join)
            .check(&plan, NonZeroUsize::MAX, 1);
        assert!(
            matches!(checked, Err(Error::OutOfMemory { .. })),
            "{checked:?}"
        );
    }
}
