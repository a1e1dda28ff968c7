//! Splitting a count into subproblems: the unit of work of the parallel
//! solver, of shards spread over many machines, and of checkpoints.
//!
//! A [`Plan`] lists the subproblems of an N x N board, numbered from 0, in
//! an order fixed by N, its [`Method`] and this crate's version. Each
//! subproblem's count ([`crate::dispatch::count_subproblem`]) is its share of the total;
//! the shares add up to the number of solutions, whatever the order they
//! are counted in, on however many threads or machines. There are two
//! methods, one per family of kernels that count subproblems (the kernel
//! table's plan method, [`crate::Kernel::method`]):
//!
//! * [`Method::Symmetric`] ([`Plan::with_method`]): the subproblems of the
//!   symmetric kernel (see [`crate::kernel::symmetric`]: a queen in the
//!   corner, or the top queen `k` columns from a corner with or without a
//!   *tie*), each split further by placing queens in the next rows until
//!   there are enough pieces to keep every thread busy to the end. Each
//!   subproblem's share is the solutions its canonical boards stand for.
//!   Counted by the symmetric and lane kernels.
//! * [`Method::Join`]: the pieces of the join kernels (see
//!   [`crate::kernel::join`]): for each way to cut the board into halves
//!   (one for even N, one per row of the middle column's queen down to the
//!   centre for odd N), the west half's row sets grouped by their first
//!   choices of rows, from the outside in. Counted by the join kernels,
//!   each thread of which builds only the quarter-boards its row sets read
//!   (cut by their first choices of rows), so that the memory a join count
//!   takes is bounded by its threads, not by the board or the shard
//!   ([`Plan::memory_estimate`] says how much; BENCHMARKS.md has the
//!   figures).
//!
//! Each family cuts its own pieces; the plan numbers them, orders them,
//! deals them to shards, fingerprints them and runs them, without looking
//! inside. What counts them is a kernel of the plan's method, which the
//! dispatcher ([`crate::dispatch`]) builds from the kernel's name and hands
//! to the plan: what takes a kernel's name ([`crate::dispatch::Options`],
//! [`crate::dispatch::plan_for`], [`crate::dispatch::count_subproblem`],
//! [`crate::dispatch::count_partial_board`], ...) is written there, and
//! this module never imports it. `auto` counts the larger boards with a
//! join kernel ([`crate::dispatch::resolve_for`] says from which N), so its
//! plan ([`crate::dispatch::plan_for`]) is a join plan there, a symmetric
//! plan below.
//!
//! docs/plan.md in the repository draws a plan (the 646 subproblems of
//! N = 12, coloured by the shard `--shard i/3` deals them to) and
//! describes the command line's threads, shards, checkpoints, `merge`,
//! batch engines, scaling and memory.
//!
//! # How the parallel solver splits the work
//!
//! Below N = 12 a symmetric plan is the unsplit subproblems (18 to 25);
//! from N = 12 each is split by its first three rows: 646 subproblems at
//! N = 12, 4,018 at N = 18, 37,086 at N = 32. A join plan has 118 pieces
//! at N = 12, 1,013 at N = 18, 4,880 at N = 21, 59,640 at N = 32
//! (`tests/plan.rs` checks these figures, and docs/plan.md's). Each
//! subproblem gets an [estimate](Subproblem::estimate) and [`Plan::all`]
//! orders them largest first (in a symmetric plan the ties last: the
//! walkers count ties in a second pass). Counting starts scoped threads
//! that take the next subproblem from a shared atomic cursor, so a thread
//! that drew small pieces takes more, and the last pieces to finish are
//! the smallest (`threads/` in BENCHMARKS.md measures the gain). A join
//! count takes together the pieces that share their first choices (and so
//! their quarter-boards), each group where its first piece comes in the
//! plan's order. Results reach the
//! calling thread through a channel it drains now and then (waking it per
//! subproblem would take time from the workers), where `done` can record
//! them: the command line's checkpoints and progress bar do.
//!
//! # Spreading a count over many machines
//!
//! A plan depends only on N, its method and this crate's version, so every
//! machine numbers the subproblems the same way, and [`Plan::fingerprint`]
//! proves it. Give each machine a [`Shard`] `i/m` (every `m`-th subproblem
//! of [`Plan::all`], from position `i`, so that each shard gets large and
//! small ones alike), count [`Plan::shard`] there, and add the counts. The
//! command line does this with `--shard i/m`, whose JSON records
//! `queens-simd merge` checks for a subproblem missing or counted twice
//! before it adds them up; run the shards with any batch system (a Slurm
//! array job, GNU parallel over ssh): this crate has no network protocol of
//! its own.
//!
//! ```
//! use queens_simd::Kernel;
//! use queens_simd::dispatch::{self, Options};
//! use queens_simd::plan::{Plan, Shard};
//! use queens_simd::kernel::Method;
//!
//! let plan = Plan::with_method(Method::Symmetric, 12)?; // symmetric
//! // One subproblem at a time, in any order:
//! let mut total = 0;
//! for sub in plan.subproblems() {
//!     total += dispatch::count_subproblem(Kernel::Auto, sub)?;
//! }
//! assert_eq!(total, 14_200);
//! // All of them on two threads:
//! assert_eq!(Options::new().with_threads(2).count(&plan, plan.all(), |_, _| {})?, 14_200);
//! // Three shards, as three machines would run them:
//! let mut total = 0;
//! for i in 0..3 {
//!     let shard = plan.shard(Shard::new(i, 3)?);
//!     total += Options::new().with_threads(1).count(&plan, &shard, |_, _| {})?;
//! }
//! assert_eq!(total, 14_200);
//!
//! // The join kernels' plan: the same calls, other subproblems.
//! let join = Plan::with_method(Method::Join, 14)?;
//! assert_eq!(join.method(), Method::Join);
//! assert_ne!(join.fingerprint(), Plan::with_method(Method::Symmetric, 14)?.fingerprint());
//! // What `auto` counts N = 14 with, and so its plan:
//! assert_eq!(dispatch::plan_for(Kernel::Auto, 14)?.method(), Method::Join);
//! // Check the memory first (most of it: the quarter-boards), then count.
//! assert!(join.memory_estimate(2) < 64 << 20);
//! let mut total = 0;
//! for i in 0..2 {
//!     let shard = join.shard(Shard::new(i, 2)?);
//!     total += Options::new().with_threads(2).count(&join, &shard, |_, _| {})?;
//! }
//! assert_eq!(total, 365_596);
//! // A symmetric kernel does not count a join plan's pieces (nor the
//! // reverse): an error, not a wrong count.
//! let symmetric = Options::new().with_threads(1).with_kernel(Kernel::Symmetric);
//! assert!(symmetric.count(&join, join.all(), |_, _| {}).is_err());
//! # Ok::<(), queens_simd::Error>(())
//! ```

mod memory;
mod partial;
mod sample;
mod search;
pub(crate) use search::run_search;
mod shard;

use core::fmt;
use core::num::NonZeroUsize;

pub use crate::kernel::join::check::Checked;
pub use crate::support::random::choose_indices;
pub use memory::{MemoryNeeds, PROBED_HEADROOM};
pub use partial::PartialBoard;
pub use sample::{JoinStats, Observation, Projection, Sample};
pub use shard::Shard;

use crate::kernel::Method;
pub use crate::kernel::join::deal::BLOCK_SECONDS;
use crate::kernel::pieces::{self, Piece, PieceCounter};
pub use crate::kernel::pieces::{JoinBand, SubproblemKind};
pub use crate::kernel::progress::{InFlight, PartsDone, Progress};
use crate::{Count, Error, MAX_N};

/// From this N up, a count on several threads beats one thread on the
/// whole board; below, starting threads costs more than it saves (see
/// `threads/` in BENCHMARKS.md). [`crate::count_on_threads`] and the
/// command line count through a plan from here
/// ([`crate::dispatch::counts_through_plan`]).
pub(crate) const SPLIT_FROM: usize = 12;

/// The subproblems of an N x N board by one [`Method`], numbered, with an
/// order to count them in (largest first) and a fingerprint of the split.
#[derive(Clone, Debug)]
pub struct Plan {
    n: usize,
    method: Method,
    subproblems: Vec<Subproblem>,
    all: Vec<usize>,
    fingerprint: u64,
    /// The owners of the last number of shards [`Plan::owners`] dealt:
    /// `merge` checks every record's shard, all of the same number, and
    /// dealing them again for each took most of a merge's time
    /// (BENCHMARKS.md, "Merge's memory").
    last_owners: OwnersCache,
}

/// The cache behind [`Plan::owners`]: a copy of the plan starts empty.
#[derive(Debug, Default)]
struct OwnersCache(std::sync::Mutex<Option<(usize, std::sync::Arc<[usize]>)>>);

impl Clone for OwnersCache {
    fn clone(&self) -> OwnersCache {
        OwnersCache::default()
    }
}

/// What [`crate::dispatch::Options::count_reporting`] counted, and on how many threads: what
/// a program that asked for many threads can tell its user when the
/// system started fewer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Counted {
    /// The solutions of the subproblems counted: what [`crate::dispatch::Options::count`]
    /// returns.
    pub count: Count,
    /// How many threads counted: the threads asked for, no more than there
    /// were subproblems to share, less those the system refused; 1 (the
    /// calling thread) if it refused them all.
    pub threads: usize,
    /// How many of the threads asked for (no more than the subproblems)
    /// the operating system refused to start (`ulimit -u`, or no memory
    /// for their stacks; after the first refusal no more are tried): 0
    /// unless some could not start. The others counted everything, so the
    /// count is right either way; only the time grows.
    pub refused: usize,
}

/// One subproblem of a [`Plan`]: for a symmetric plan, some queens
/// pre-placed and some squares forbidden by its
/// [`kind`](Subproblem::kind); for a join plan, a piece of the row sets of
/// one cut. Either way, a share of the total.
#[derive(Clone, Debug)]
pub struct Subproblem {
    index: usize,
    estimate: u64,
    piece: Piece,
}

impl Plan {
    /// The plan of an `n`x`n` board by `method`, `n` from 0 to 32: the
    /// pieces its family cuts, numbered in the family's order. Building it
    /// costs little next to the count (a join plan's pieces are named by
    /// their first choices of rows, not built).
    ///
    /// # Errors
    ///
    /// [`Error::SizeOutOfRange`] for `n` over [`MAX_N`].
    pub fn with_method(method: Method, n: usize) -> Result<Plan, Error> {
        // Counted first, so that the two lists are reserved at their size,
        // and refused as Error::OutOfMemory where they do not fit.
        let len = pieces::how_many(method, n)?;
        let mut subproblems: Vec<Subproblem> = pieces::reserved(len)?;
        pieces::for_each_estimated(method, n, |piece, estimate| {
            subproblems.push(Subproblem {
                index: subproblems.len(),
                estimate,
                piece,
            });
        })?;
        // Largest first, so that the last pieces to finish are small ones;
        // those of a second pass (the symmetric ties) after the rest. (The
        // number last makes the keys unique: an unstable sort, which takes
        // no buffer, gives the one order.)
        let mut all: Vec<usize> = pieces::reserved(len)?;
        all.extend(0..subproblems.len());
        all.sort_unstable_by_key(|&i| {
            let sub = &subproblems[i];
            (sub.piece.second_pass(), core::cmp::Reverse(sub.estimate), i)
        });
        let fingerprint = fingerprint(method, n, &subproblems, &all);
        Ok(Plan {
            n,
            method,
            subproblems,
            all,
            fingerprint,
            last_owners: OwnersCache::default(),
        })
    }

    /// About how many bytes [`Plan::with_method`]`(method, n)` takes at
    /// most while it builds the plan, and the plan holds once built,
    /// known before it is built: [`MemoryNeeds::plan`].
    ///
    /// ```
    /// use queens_simd::plan::Plan;
    /// use queens_simd::kernel::Method;
    ///
    /// let bytes = Plan::build_memory_estimate(Method::Join, 20)?;
    /// assert!(bytes > 100 << 10 && bytes < 16 << 20);
    /// # Ok::<(), queens_simd::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::SizeOutOfRange`] for `n` over what the method's kernels
    /// accept.
    pub fn build_memory_estimate(method: Method, n: usize) -> Result<u64, Error> {
        Ok(MemoryNeeds::new(method, n)?.plan())
    }

    /// Board side N.
    pub fn n(&self) -> usize {
        self.n
    }

    /// How the plan cuts the board, and so which kernels count it.
    pub fn method(&self) -> Method {
        self.method
    }

    /// Number of subproblems, numbered `0..len()`.
    pub fn len(&self) -> usize {
        self.subproblems.len()
    }

    /// Always false: every board has at least one subproblem.
    pub fn is_empty(&self) -> bool {
        self.subproblems.is_empty()
    }

    /// Subproblem number `index`.
    pub fn get(&self, index: usize) -> Option<&Subproblem> {
        self.subproblems.get(index)
    }

    /// Every subproblem, by number.
    pub fn subproblems(&self) -> &[Subproblem] {
        &self.subproblems
    }

    /// Every subproblem's number, in the order they are best counted in:
    /// largest estimate first.
    pub fn all(&self) -> &[usize] {
        &self.all
    }

    /// A 64-bit fingerprint (FNV-1a) of the method and the version of its
    /// split, of N, of every subproblem (a symmetric one's queens and
    /// constraints, a join piece's cut and choices) and of the counting
    /// order: two plans with the same fingerprint number the same
    /// subproblems the same way and cut the same shards. The two methods'
    /// fingerprints start from different words, so no symmetric plan
    /// shares a join plan's.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// The numbers of the subproblems of `shard`, in counting order. The
    /// `m` shards together hold every subproblem exactly once.
    ///
    /// * Symmetric: every `m`-th of [`Plan::all`] from position `i`, so
    ///   that each shard gets its share of large and small ones.
    /// * Join: run `i` of `m` runs of about equal estimate, the pieces taken
    ///   in the order of their choices of rows (cut by cut, from the
    ///   outside in). Pieces that share their first choices share
    ///   quarter-boards, so a run builds few tables that another shard
    ///   also builds: only where it starts and ends.
    pub fn shard(&self, shard: Shard) -> Vec<usize> {
        let owners = self.owners(shard.shards());
        self.all
            .iter()
            .copied()
            .filter(|&index| owners[index] == shard.index())
            .collect()
    }

    /// Which of `m` shards ([`Plan::shard`]) holds each subproblem, by
    /// number: dealt once for the same `m` in a row.
    pub fn owners(&self, m: usize) -> std::sync::Arc<[usize]> {
        // A poisoned lock only held a cache: deal again.
        let mut last = self
            .last_owners
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match &*last {
            Some((dealt, owners)) if *dealt == m => owners.clone(),
            _ => {
                let owners: std::sync::Arc<[usize]> = self.deal(m).into();
                *last = Some((m, owners.clone()));
                owners
            }
        }
    }

    /// [`Plan::owners`], dealt.
    fn deal(&self, m: usize) -> Vec<usize> {
        let mut owners = vec![0; self.len()];
        match self.method {
            Method::Symmetric => {
                for (at, &index) in self.all.iter().enumerate() {
                    owners[index] = at % m;
                }
            }
            Method::Join => {
                // Runs: each subproblem's shard is where the middle of its
                // estimate falls, in the order of the pieces' choices.
                let mut in_order: Vec<usize> = (0..self.len()).collect();
                in_order.sort_by_key(|&index| self.subproblems[index].piece.choice_order());
                let weight = |index: usize| u128::from(self.subproblems[index].estimate.max(1));
                let total: u128 = in_order.iter().map(|&index| weight(index)).sum();
                let mut before = 0u128;
                for index in in_order {
                    let middle = 2 * before + weight(index);
                    owners[index] = (middle * m as u128 / (2 * total)) as usize;
                    before += weight(index);
                }
            }
        }
        owners
    }

    /// About how many bytes counting this plan allocates (any of its
    /// subproblems: a shard takes as much as the whole) on `threads`
    /// threads, to check before counting.
    ///
    /// Each thread of a join plan's count holds the quarter-boards of the
    /// row set it joins, cut by its first choices of rows to fit 32 MiB,
    /// and the half-boards of that row set; their sizes are counted
    /// without building them, or for the half-boards extrapolated from
    /// N = 20 (BENCHMARKS.md and docs/plan.md give the figures). A symmetric plan's count holds
    /// little beside the plan itself: a queue entry per subproblem and
    /// each thread's walkers.
    pub fn memory_estimate(&self, threads: usize) -> u64 {
        pieces::memory_estimate(self.method, self.n, self.len(), threads)
    }

    /// The solutions of the subproblems numbered `indices` (each at most
    /// once), counted by `counter` on `threads` threads, the parts of
    /// pieces that `in_flight` holds left out; `report` is called on the
    /// calling thread as each part and each subproblem finishes
    /// ([`Progress`]). What [`crate::dispatch::Options::count_progress`]
    /// runs once the dispatcher has built the counter. The count returned
    /// is the subproblems' whole shares, their parts of `in_flight`
    /// included.
    ///
    /// Fails if `threads` is 0, if `counter` counts the other method's
    /// plans, if an index is out of range or given twice, if a piece of
    /// `in_flight` is not among them, or if a join's tables or buffers are
    /// refused.
    pub(crate) fn run(
        &self,
        indices: &[usize],
        in_flight: &InFlight,
        counter: PieceCounter,
        threads: usize,
        mut report: impl FnMut(Progress),
    ) -> Result<Counted, Error> {
        if threads == 0 {
            return Err(Error::InvalidThreads);
        }
        if counter.method() != self.method {
            return Err(Error::WrongMethod {
                kernel: counter.kernel(),
                method: self.method,
            });
        }
        let pieces: Vec<(usize, &Piece)> = self
            .checked(indices)?
            .into_iter()
            .map(|sub| (sub.index, &sub.piece))
            .collect();
        if let Some((index, _)) = in_flight
            .iter()
            .find(|&(index, _)| !indices.contains(&index))
        {
            return Err(Error::InvalidInFlight(format!(
                "subproblem {index} is in flight but not among those to count"
            )));
        }
        let mut total: Count = 0;
        let ran = counter.count(self.n, &pieces, in_flight, threads, &mut |progress| {
            if let Progress::Done { count, .. } = progress {
                total += count;
            }
            report(progress);
        })?;
        Ok(Counted {
            count: total,
            threads: ran.threads,
            refused: ran.refused,
        })
    }

    /// The subproblems numbered `indices`, in that order, refusing an index
    /// that is out of range or given twice.
    fn checked(&self, indices: &[usize]) -> Result<Vec<&Subproblem>, Error> {
        let mut seen = vec![false; self.len()];
        let mut subproblems = Vec::with_capacity(indices.len());
        for &index in indices {
            let Some(sub) = self.get(index) else {
                return Err(Error::MissingSubproblem {
                    index,
                    n: self.n,
                    subproblems: self.len(),
                });
            };
            if std::mem::replace(&mut seen[index], true) {
                return Err(Error::RepeatedSubproblem { index });
            }
            subproblems.push(sub);
        }
        Ok(subproblems)
    }

    /// About how many bytes [`crate::dispatch::Options::sample`] of `draws` row sets on
    /// `threads` threads allocates beyond a count's
    /// ([`Plan::memory_estimate`] on as many threads), at most:
    /// [`Sample::memory_estimate`] for this plan's subproblems. It bounds
    /// [`crate::dispatch::Options::check`] of as many draws too. Saturating: draws past
    /// the address space estimate `u64::MAX`.
    ///
    /// ```
    /// use queens_simd::plan::Plan;
    /// use queens_simd::kernel::Method;
    ///
    /// let plan = Plan::with_method(Method::Join, 16)?;
    /// let draws = plan.sample_memory_estimate(1 << 20, 1);
    /// // 160 MiB for a million draws, and some for the plan and the thread.
    /// assert!(draws >= 160 << 20 && draws < 200 << 20);
    /// // A count and its sample, to check against the memory there is.
    /// let _needed = plan.memory_estimate(1).saturating_add(draws);
    /// assert_eq!(plan.sample_memory_estimate(usize::MAX, 1), u64::MAX);
    /// # Ok::<(), queens_simd::Error>(())
    /// ```
    pub fn sample_memory_estimate(&self, draws: usize, threads: usize) -> u64 {
        Sample::memory_estimate(self.len(), draws, threads)
    }

    /// [`crate::dispatch::Options::sample`] with the counter the dispatcher built.
    pub(crate) fn run_sample(
        &self,
        counter: PieceCounter,
        draws: NonZeroUsize,
        seed: u64,
        threads: usize,
    ) -> Result<Sample, Error> {
        if self.method != Method::Join || counter.method() != Method::Join {
            return Err(Error::WrongMethod {
                kernel: counter.kernel(),
                method: self.method,
            });
        }
        let pieces: Vec<_> = self.subproblems.iter().map(|sub| sub.piece()).collect();
        let drawn = counter.sample(self.n, &pieces, draws.get(), seed, threads)?;
        Ok(Sample::of(counter.kernel(), self.n, seed, drawn))
    }

    /// [`crate::dispatch::Options::check`] with the counter the
    /// dispatcher built.
    pub(crate) fn run_check(
        &self,
        counter: PieceCounter,
        draws: NonZeroUsize,
        seed: u64,
    ) -> Result<Vec<Checked>, Error> {
        if self.method != Method::Join {
            return Err(Error::WrongMethod {
                kernel: counter.kernel(),
                method: self.method,
            });
        }
        let pieces: Vec<_> = self.subproblems.iter().map(|sub| sub.piece()).collect();
        counter.check(self.n, &pieces, draws.get(), seed)
    }
}

impl Subproblem {
    /// Its number in the plan.
    pub fn index(&self) -> usize {
        self.index
    }

    /// Board side N.
    pub fn n(&self) -> usize {
        self.piece.n()
    }

    /// The method of the plan it belongs to.
    pub fn method(&self) -> Method {
        self.piece.method()
    }

    /// Which boards it covers.
    pub fn kind(&self) -> SubproblemKind {
        self.piece.kind()
    }

    /// Its pre-placed queens, `(row, column)`, by row. Symmetric: the
    /// first rows, then any queen placed further down (a tie's). Join: the
    /// middle column's queen for odd N, none for even N.
    pub fn queens(&self) -> Vec<(usize, usize)> {
        self.piece.queens()
    }

    /// For a piece of a join plan, the board rows its choices give the
    /// west half and those they give the east half (each a set: bit `r`
    /// for row `r`); `None` for a symmetric subproblem.
    pub fn join_rows(&self) -> Option<(u32, u32)> {
        self.piece.join_rows()
    }

    /// How many row sets a join piece has: its parts, in a count's
    /// [`Progress::Part`]s and a checkpoint's [`InFlight`], are ranges of
    /// `0..` that. `None` for a symmetric subproblem, which is counted
    /// whole. (It lists them: a thousandth of a second at N = 28.)
    pub fn row_sets(&self) -> Option<u32> {
        self.piece.row_sets()
    }

    /// The estimate of its size that orders the plan and weighs the
    /// progress bar: rough, only its order of magnitude means anything
    /// (symmetric: the square of the live squares three rows below the
    /// placed ones; join: its row sets weighed by the size of their joins).
    pub fn estimate(&self) -> u64 {
        self.estimate
    }

    /// The piece its family cut, for the counter.
    pub(crate) fn piece(&self) -> &Piece {
        &self.piece
    }
}

impl fmt::Display for Subproblem {
    /// `#index kind: queens (row, column) ...`, and for a join piece the
    /// rows its choices put west and east:
    /// `#7 join middle row 2: (2, 6); west rows 0 12, east rows 1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{} {}:", self.index, self.kind())?;
        for (row, column) in self.queens() {
            write!(f, " ({row}, {column})")?;
        }
        if let Some((west, east)) = self.join_rows() {
            if !self.queens().is_empty() {
                write!(f, ";")?;
            }
            for (label, rows) in [(" west rows", west), (", east rows", east)] {
                write!(f, "{label}")?;
                if rows == 0 {
                    write!(f, " none")?;
                }
                for row in 0..MAX_N {
                    if rows >> row & 1 != 0 {
                        write!(f, " {row}")?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// FNV-1a over the method's split version (of N), N, every subproblem (what its
/// family says names it) and the counting order (which decides the
/// shards). A symmetric plan's fingerprint is what it was before join
/// plans existed, so that its records and checkpoints stay valid.
fn fingerprint(method: Method, n: usize, subproblems: &[Subproblem], order: &[usize]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |word: u64| {
        for byte in word.to_le_bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    eat(pieces::split_version(method, n));
    eat(n as u64);
    for sub in subproblems {
        sub.piece.fingerprint(&mut eat);
    }
    for &index in order {
        eat(index as u64);
    }
    hash
}
