//! Splitting a count into subproblems: the unit of work of the parallel
//! solver, of shards spread over many machines, and of checkpoints.
//!
//! A [`Plan`] lists the subproblems of an N x N board, numbered from 0, in
//! an order fixed by N, its [`Method`] and this crate's version. Each
//! subproblem's [`count`](Subproblem::count) is its share of the total;
//! the shares add up to the number of solutions, whatever the order they
//! are counted in, on however many threads or machines. There are two
//! methods, one per family of kernels that count subproblems:
//!
//! * [`Method::Symmetric`] ([`Plan::new`]): the subproblems of the
//!   symmetric kernel (see [`crate::kernel::symmetric`]: a queen in the
//!   corner, or the top queen `k` columns from a corner with or without a
//!   *tie*), each split further by placing queens in the next rows until
//!   there are enough pieces to keep every thread busy to the end. Each
//!   subproblem's share is the solutions its canonical boards stand for.
//!   Counted by `symmetric` and `symmetric-bmi`.
//! * [`Method::Join`]: the pieces of the join kernels (see
//!   [`crate::kernel::join`]): for each way to cut the board into halves
//!   (one for even N, one per row of the middle column's queen down to the
//!   centre for odd N), the west half's row sets grouped by their first
//!   choices of rows, from the outside in. Counted by `join`, `join-avx2`
//!   and `join-avx512`, which build each cut's quarter-boards once and
//!   share its pieces among the threads: that table is most of the memory
//!   a join count takes ([`Plan::memory_estimate`]: 70 MiB at N = 18,
//!   4 GiB at N = 22, 36 GiB at N = 24).
//!
//! [`Plan::for_kernel`] gives the plan of the kernel that would count:
//! `auto` counts with a join kernel from [`crate::dispatch::JOIN_FROM`],
//! so its plan is a join plan from there, a symmetric plan below.
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
//! at N = 12, 1,013 at N = 18, 5,392 at N = 21, 131,483 at N = 32. Each
//! subproblem gets an [estimate](Subproblem::estimate) and [`Plan::all`]
//! orders them largest first (in a symmetric plan the ties last: the
//! walkers count ties in a second pass). [`Plan::count`] starts scoped
//! threads that take the next subproblem from a shared atomic cursor, so a
//! thread that drew small pieces takes more, and the last pieces to finish
//! are the smallest: two threads count nearly twice as fast as one
//! (`threads/` in BENCHMARKS.md). A join count takes its pieces cut by
//! cut (each cut's quarter-boards are built once, then shared), in the
//! plan's order within each. Results reach the calling thread through a
//! channel it drains every 50 ms (waking it per subproblem would take time
//! from the workers), where `done` can record them: the command line's
//! checkpoints and progress bar do.
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
//! use queens_simd::plan::{Method, Options, Plan, Shard};
//!
//! let plan = Plan::new(12)?; // symmetric
//! // One subproblem at a time, in any order:
//! let mut total = 0;
//! for sub in plan.subproblems() {
//!     total += sub.count(Kernel::Auto)?;
//! }
//! assert_eq!(total, 14_200);
//! // All of them on two threads:
//! assert_eq!(plan.count(plan.all(), &Options::threads(2), |_, _| {})?, 14_200);
//! // Three shards, as three machines would run them:
//! let mut total = 0;
//! for i in 0..3 {
//!     let shard = plan.shard(Shard::new(i, 3)?);
//!     total += plan.count(&shard, &Options::threads(1), |_, _| {})?;
//! }
//! assert_eq!(total, 14_200);
//!
//! // The join kernels' plan: the same calls, other subproblems.
//! let join = Plan::with_method(14, Method::Join)?;
//! assert_eq!(join.method(), Method::Join);
//! assert_ne!(join.fingerprint(), Plan::new(14)?.fingerprint());
//! // What `auto` counts N = 14 with, and so its plan:
//! assert_eq!(Plan::for_kernel(14, Kernel::Auto)?.method(), Method::Join);
//! // Check the memory first (most of it: the quarter-boards), then count.
//! assert!(join.memory_estimate(2) < 64 << 20);
//! let mut total = 0;
//! for i in 0..2 {
//!     let shard = join.shard(Shard::new(i, 2)?);
//!     total += join.count(&shard, &Options::threads(2), |_, _| {})?;
//! }
//! assert_eq!(total, 365_596);
//! // A symmetric kernel does not count a join plan's pieces (nor the
//! // reverse): an error, not a wrong count.
//! let symmetric = Options::threads(1).with_kernel(Kernel::Symmetric);
//! assert!(join.count(join.all(), &symmetric, |_, _| {}).is_err());
//! # Ok::<(), queens_simd::Error>(())
//! ```

mod parallel;
mod partial;
mod shard;

use core::fmt;
use core::str::FromStr;

pub use parallel::Options;
pub use partial::PartialBoard;
pub use shard::Shard;

use crate::kernel::Task;
use crate::kernel::join::pieces::{self, Piece};
use crate::kernel::symmetric::Engine;
use crate::kernel::symmetric::subproblem::{self as search, Kind};
use crate::{Count, Error, Kernel, MAX_N};

/// From this N up, a count on several threads beats one thread on the
/// whole board; below, starting threads costs more than it saves (see
/// `threads/` in BENCHMARKS.md). [`crate::count_on_threads`] and the
/// command line count through a plan from here.
pub const SPLIT_FROM: usize = 12;

/// Whether a count of size `n` by `kernel` goes through a plan when no
/// shard or checkpoint asks for one: from [`SPLIT_FROM`] up, where the
/// kernel (`auto` resolved for counting) splits: a symmetric or a join
/// kernel. The one place that decides it, for [`crate::count_on_threads`]
/// and the command line.
pub fn counts_through_plan(kernel: Kernel, n: usize) -> bool {
    n >= SPLIT_FROM && kernel.resolve_for(n, Task::Count).splits()
}

/// How a [`Plan`] cuts a board into subproblems: one method per family of
/// kernels that count subproblems, each counting only its own method's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Method {
    /// The symmetric kernel's subproblems (corner, edge and tie cases,
    /// split by their first rows), counted by `symmetric` and
    /// `symmetric-bmi`.
    Symmetric,
    /// The join kernels' pieces (row sets of the west half, by their first
    /// choices), counted by `join`, `join-avx2` and `join-avx512`.
    Join,
}

impl Method {
    /// Every method.
    pub const ALL: [Method; 2] = [Method::Symmetric, Method::Join];

    /// Its name in records and messages: `symmetric` or `join`.
    pub const fn name(self) -> &'static str {
        match self {
            Method::Symmetric => "symmetric",
            Method::Join => "join",
        }
    }

    /// The method whose plans the concrete `kernel` counts, or `None` for a
    /// kernel that counts no plan's subproblems (and for `auto` and `asm`,
    /// which stand for a kernel that depends on N: see
    /// [`Plan::for_kernel`]).
    pub const fn of(kernel: Kernel) -> Option<Method> {
        match kernel {
            Kernel::Symmetric | Kernel::SymmetricBmi | Kernel::LanesAvx2 | Kernel::LanesAvx512 => {
                Some(Method::Symmetric)
            }
            Kernel::Join | Kernel::JoinAvx2 | Kernel::JoinAvx512 => Some(Method::Join),
            _ => None,
        }
    }

    /// The method of the plan `kernel` counts size `n` through: the
    /// kernel's own, or for `auto` the method of the kernel it counts `n`
    /// with (a join plan from [`crate::dispatch::JOIN_FROM`] where it
    /// picks a join kernel, else a symmetric plan, whose kernels it also
    /// counts with).
    ///
    /// # Errors
    ///
    /// [`Error::SizeOutOfRange`] if `kernel` does not accept `n`,
    /// [`Error::NotSplittable`] for a kernel that counts no plan.
    pub fn for_kernel(n: usize, kernel: Kernel) -> Result<Method, Error> {
        kernel.check_size(n)?;
        match kernel {
            Kernel::Auto => Ok(match Method::of(kernel.resolve_for(n, Task::Count)) {
                Some(Method::Join) => Method::Join,
                _ => Method::Symmetric,
            }),
            _ => Method::of(kernel).ok_or(Error::NotSplittable(kernel)),
        }
    }

    /// The kernel that counts this method's plans when `kernel` is asked:
    /// `kernel` if it counts them and runs here; for `auto`, the fastest
    /// kernel of this method this CPU runs (`symmetric-bmi`, else
    /// `symmetric`; `join-avx512`, else `join-avx2`, else `join`).
    ///
    /// # Errors
    ///
    /// [`Error::KernelUnavailable`] if this CPU or build cannot run the
    /// kernel, [`Error::WrongMethod`] for a kernel that counts the other
    /// method's plans, [`Error::NotSplittable`] for one that counts none.
    pub fn counting_kernel(self, kernel: Kernel) -> Result<Kernel, Error> {
        match self {
            Method::Symmetric => symmetric_engine(kernel).map(Engine::kernel),
            Method::Join => {
                joiner(kernel).map(<pieces::AnyJoiner as crate::kernel::join::Joiner>::kernel)
            }
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Method {
    type Err = Error;

    /// `symmetric` or `join`, as [`Method::name`] writes them.
    fn from_str(name: &str) -> Result<Method, Error> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == name)
            .ok_or_else(|| Error::UnknownMethod(name.into()))
    }
}

/// Changes whenever the way a symmetric plan splits a board changes, so
/// that shards and checkpoints of another split are refused (it is part
/// of [`Plan::fingerprint`]).
const SPLIT_VERSION: u64 = 1;

/// The first word of a join plan's fingerprint: its method ("JOIN") and
/// the version of its split, which changes whenever the pieces do. No
/// symmetric fingerprint starts with it (theirs start with
/// [`SPLIT_VERSION`]).
const JOIN_SPLIT_VERSION: u64 = 0x4a4f_494e_0000_0001;

/// The rows a subproblem of an `n`x`n` board has placed once split: none
/// below N = 12 (18 to 25 subproblems), else three: 646 subproblems at
/// N = 12, 4018 at N = 18, 37086 at N = 32, enough for every thread to
/// finish within a small fraction of the total from the others.
fn split_rows(n: usize) -> usize {
    if n < 12 { 0 } else { 3 }
}

/// The subproblems of an N x N board by one [`Method`], numbered, with an
/// order to count them in (largest first) and a fingerprint of the split.
#[derive(Clone, Debug)]
pub struct Plan {
    n: usize,
    method: Method,
    subproblems: Vec<Subproblem>,
    all: Vec<usize>,
    fingerprint: u64,
}

/// One subproblem of a [`Plan`]: for a symmetric plan, some queens
/// pre-placed and some squares forbidden by its
/// [`kind`](Subproblem::kind); for a join plan, a piece of the row sets of
/// one cut. Either way, a share of the total.
#[derive(Clone, Debug)]
pub struct Subproblem {
    index: usize,
    estimate: u64,
    search: Search,
}

// Every plan but those of N < 4 holds only one of the large variants:
// boxing them would add an allocation per subproblem for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
enum Search {
    /// A board too small to split (`N < 4`): counted whole.
    Small(usize),
    /// A subproblem of the symmetric search.
    Symmetric(search::Subproblem),
    /// A piece of the join of an `n`x`n` board.
    Join {
        /// Board side.
        n: usize,
        /// Which cut, and which of its row sets.
        piece: Piece,
    },
}

/// Which boards a [`Subproblem`] covers (see [`crate::kernel::symmetric`]
/// for why the symmetric kinds cover every class exactly once, and
/// [`crate::kernel::join`] for the join's pieces).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SubproblemKind {
    /// The whole board, for N < 4, which a symmetric plan does not split.
    WholeBoard,
    /// A queen in the corner (0, 0); column 1 empty down to row `a`, where
    /// (1, `a`) holds the row-1 queen. Every board counts 8.
    Corner,
    /// The row-0 queen in column `k`, every other edge queen further than
    /// `k` from the corners. Every board counts 8.
    Edge {
        /// Column of the row-0 queen.
        k: usize,
    },
    /// The row-0 queen in column `k`, no corner queen, and another edge
    /// queen pre-placed exactly `k` from a corner: each board is compared
    /// with its images and counts its orbit if it is canonical.
    Tie {
        /// Column of the row-0 queen.
        k: usize,
    },
    /// A piece of a join plan: the solutions whose west half's rows (and
    /// those of their images under the flip and the mirror) begin with the
    /// piece's choices. Its count is any whole number.
    Join {
        /// For odd N, the row of the middle column's queen, which the cut
        /// places first (from the top down to the centre; one lower down
        /// stands for its flip); `None` for even N.
        middle_row: Option<usize>,
    },
}

impl fmt::Display for SubproblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SubproblemKind::WholeBoard => write!(f, "whole board"),
            SubproblemKind::Corner => write!(f, "corner"),
            SubproblemKind::Edge { k } => write!(f, "edge k={k}"),
            SubproblemKind::Tie { k } => write!(f, "tie k={k}"),
            SubproblemKind::Join { middle_row: None } => write!(f, "join"),
            SubproblemKind::Join {
                middle_row: Some(row),
            } => write!(f, "join middle row {row}"),
        }
    }
}

impl Plan {
    /// The symmetric plan of an `n`x`n` board, `n` from 0 to 32: short for
    /// [`Plan::with_method`]`(n, Method::Symmetric)`. Building it costs
    /// little next to the count: it lists the subproblems, it does not
    /// search them.
    pub fn new(n: usize) -> Result<Plan, Error> {
        Plan::with_method(n, Method::Symmetric)
    }

    /// The plan of an `n`x`n` board by `method`, `n` from 0 to 32.
    /// Building it costs little next to the count (a join plan's pieces are
    /// named by their first choices of rows, not built).
    ///
    /// # Errors
    ///
    /// [`Error::SizeOutOfRange`] for `n` over [`MAX_N`].
    pub fn with_method(n: usize, method: Method) -> Result<Plan, Error> {
        match method {
            Method::Symmetric => Kernel::Symmetric.check_size(n)?,
            Method::Join => Kernel::Join.check_size(n)?,
        }
        // Each subproblem with its estimate; a join plan's all at once,
        // each split built once.
        let searches: Vec<(Search, u64)> = match method {
            Method::Symmetric if n < 4 => vec![(Search::Small(n), 1)],
            Method::Symmetric => {
                let rows = split_rows(n);
                let mut pieces = Vec::new();
                for sub in search::unsplit_subproblems(n) {
                    split_into(sub, rows, &mut pieces);
                }
                pieces
                    .into_iter()
                    .map(|sub| {
                        let estimate = nodes_below(&sub, ESTIMATE_ROWS).pow(2);
                        (Search::Symmetric(sub), estimate)
                    })
                    .collect()
            }
            Method::Join => {
                let all = pieces::pieces(n);
                let estimates = pieces::estimates(n, &all);
                all.into_iter()
                    .zip(estimates)
                    .map(|(piece, estimate)| (Search::Join { n, piece }, estimate))
                    .collect()
            }
        };
        let subproblems: Vec<Subproblem> = searches
            .into_iter()
            .enumerate()
            .map(|(index, (search, estimate))| Subproblem {
                index,
                estimate,
                search,
            })
            .collect();
        // Largest first, so that the last pieces to finish are small ones;
        // ties after the rest, as the walkers count them in a second pass.
        let mut all: Vec<usize> = (0..subproblems.len()).collect();
        all.sort_by_key(|&i| {
            let sub = &subproblems[i];
            (sub.is_tie(), core::cmp::Reverse(sub.estimate), i)
        });
        let fingerprint = fingerprint(n, method, &subproblems, &all);
        Ok(Plan {
            n,
            method,
            subproblems,
            all,
            fingerprint,
        })
    }

    /// The plan that `kernel` counts size `n` through: a symmetric plan for
    /// `symmetric` and `symmetric-bmi`, a join plan for `join`,
    /// `join-avx2` and `join-avx512`, and for `auto` the plan of the kernel
    /// it counts `n` with ([`Method::for_kernel`]): a join plan from
    /// [`crate::dispatch::JOIN_FROM`] where it picks a join kernel.
    ///
    /// # Errors
    ///
    /// [`Error::SizeOutOfRange`] if `kernel` does not accept `n`,
    /// [`Error::NotSplittable`] for a kernel that counts no plan.
    pub fn for_kernel(n: usize, kernel: Kernel) -> Result<Plan, Error> {
        Plan::with_method(n, Method::for_kernel(n, kernel)?)
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

    /// The numbers of the subproblems of `shard`, in counting order: every
    /// `m`-th of [`Plan::all`] from position `i`, so that each shard gets
    /// its share of large and small ones. The `m` shards together hold every
    /// subproblem exactly once.
    pub fn shard(&self, shard: Shard) -> Vec<usize> {
        self.all
            .iter()
            .skip(shard.index())
            .step_by(shard.count())
            .copied()
            .collect()
    }

    /// About how many bytes [`Plan::count`] allocates to count this plan
    /// (any of its subproblems: a shard takes as much as the whole) on
    /// `threads` threads, to check before counting.
    ///
    /// A join plan's count builds the quarter-boards of one cut at a time
    /// and shares them among its threads, each of which adds buffers of its
    /// own: about 70 MiB at N = 18, 480 MiB at N = 20 and 21, 4 GiB at
    /// N = 22 and 23, 36 GiB at N = 24 (on two threads; the table of
    /// quarter-boards, counted without building it up to quarters of
    /// 11 x 11, which takes up to a second from N = 22, and extrapolated
    /// past). A symmetric plan's count holds little beside the plan itself:
    /// a queue entry per subproblem and each thread's walkers, under a
    /// megabyte for every N.
    pub fn memory_estimate(&self, threads: usize) -> u64 {
        match self.method {
            Method::Join => crate::kernel::join::memory::estimate(self.n, threads),
            Method::Symmetric => {
                let queue = 16 * self.len() as u64;
                let per_thread = 64 << 10;
                queue.saturating_add((threads.max(1) as u64).saturating_mul(per_thread))
            }
        }
    }

    /// The kernel that counts this plan with `options`:
    /// [`Method::counting_kernel`] of its method and `options.kernel`.
    ///
    /// # Errors
    ///
    /// As [`Method::counting_kernel`].
    pub fn counting_kernel(&self, options: &Options) -> Result<Kernel, Error> {
        self.method.counting_kernel(options.kernel)
    }

    /// The solutions of the subproblems numbered `indices` (each at most
    /// once), on `options.threads` threads; `done(index, count)` is called
    /// on the calling thread as each one finishes.
    ///
    /// Fails if `options.kernel` does not count this plan's method
    /// ([`Plan::counting_kernel`]) or cannot run here, if an index is out
    /// of range or given twice, or if `threads` is 0. It does not check the
    /// memory: see [`Plan::memory_estimate`].
    pub fn count(
        &self,
        indices: &[usize],
        options: &Options,
        done: impl FnMut(usize, Count),
    ) -> Result<Count, Error> {
        parallel::count(self, indices, options, done)
    }
}

/// The symmetric kernel's walkers behind `kernel`, or why it counts no
/// symmetric plan.
fn symmetric_engine(kernel: Kernel) -> Result<Engine, Error> {
    if Method::of(kernel) == Some(Method::Join) {
        return Err(Error::WrongMethod {
            kernel,
            method: Method::Symmetric.name(),
        });
    }
    crate::dispatch::engine(kernel)
}

/// The join kernel behind `kernel`, or why it counts no join plan.
fn joiner(kernel: Kernel) -> Result<pieces::AnyJoiner, Error> {
    if Method::of(kernel) == Some(Method::Symmetric) {
        return Err(Error::WrongMethod {
            kernel,
            method: Method::Join.name(),
        });
    }
    crate::dispatch::joiner(kernel)
}

/// Splits `sub` by placing queens in its next rows until `rows` rows are
/// placed (or the next would be the row before last), and appends the
/// pieces to `pieces`. A pre-placed row is passed through as one piece.
fn split_into(sub: search::Subproblem, rows: usize, pieces: &mut Vec<search::Subproblem>) {
    if sub.start >= rows || sub.start + 1 >= sub.n - 2 {
        pieces.push(sub);
        return;
    }
    let mut live = sub.live();
    while live != 0 {
        let bit = live & live.wrapping_neg();
        live ^= bit;
        split_into(sub.with_queen(bit), rows, pieces);
    }
}

/// How many rows below its placed ones a symmetric subproblem's estimate
/// looks: its estimate is the square of the live squares that many rows
/// below the placed ones, summed over the ways to reach them. (Measured at
/// N = 14 and 16, counts grow as the 2.4th to 3.2nd power of those nodes,
/// correlation 0.7 in log-log; the square keeps the progress bar's estimate
/// of the time left within about 10% of the truth at N = 18.) A join
/// piece's estimate is its row sets weighed by the size of their joins
/// ([`pieces::estimates`]).
const ESTIMATE_ROWS: usize = 3;

/// The live squares `rows` rows below `sub`'s placed ones (or down to the
/// row before last), summed over every way to reach them.
fn nodes_below(sub: &search::Subproblem, rows: usize) -> u64 {
    let live = sub.live();
    if rows <= 1 || sub.start + 1 >= sub.n - 2 {
        return u64::from(live.count_ones());
    }
    let mut total = 0;
    let mut rest = live;
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        rest ^= bit;
        total += nodes_below(&sub.with_queen(bit), rows - 1);
    }
    total
}

impl Subproblem {
    /// Its number in the plan.
    pub fn index(&self) -> usize {
        self.index
    }

    /// Board side N.
    pub fn n(&self) -> usize {
        match &self.search {
            Search::Small(n) | Search::Join { n, .. } => *n,
            Search::Symmetric(sub) => sub.n,
        }
    }

    /// The method of the plan it belongs to.
    pub fn method(&self) -> Method {
        match &self.search {
            Search::Small(_) | Search::Symmetric(_) => Method::Symmetric,
            Search::Join { .. } => Method::Join,
        }
    }

    /// Which boards it covers.
    pub fn kind(&self) -> SubproblemKind {
        match &self.search {
            Search::Small(_) => SubproblemKind::WholeBoard,
            Search::Symmetric(sub) => match sub.kind {
                Kind::Corner => SubproblemKind::Corner,
                Kind::Edge { k } => SubproblemKind::Edge { k },
                Kind::Tie { k } => SubproblemKind::Tie { k },
                Kind::Plain => unreachable!("plans hold no plain partial boards"),
            },
            Search::Join { n, piece } => SubproblemKind::Join {
                middle_row: piece.middle_row(*n),
            },
        }
    }

    fn is_tie(&self) -> bool {
        matches!(self.kind(), SubproblemKind::Tie { .. })
    }

    /// Its pre-placed queens, `(row, column)`, by row. Symmetric: the
    /// first rows, then any queen placed further down (a tie's). Join: the
    /// middle column's queen for odd N, none for even N.
    pub fn queens(&self) -> Vec<(usize, usize)> {
        let sub = match &self.search {
            Search::Small(_) => return Vec::new(),
            Search::Join { n, piece } => {
                return piece
                    .middle_row(*n)
                    .map(|row| (row, n / 2))
                    .into_iter()
                    .collect();
            }
            Search::Symmetric(sub) => sub,
        };
        let mut queens: Vec<(usize, usize)> = (0..sub.start)
            .map(|row| (row, sub.queens[row].trailing_zeros() as usize))
            .collect();
        let on_board = u32::MAX >> (MAX_N - sub.n);
        for row in sub.start..sub.n {
            if sub.fixed_rows & 1 << row != 0 {
                let column = (!sub.forbidden[row] & on_board).trailing_zeros();
                queens.push((row, column as usize));
            }
        }
        queens
    }

    /// For a piece of a join plan, the board rows its choices give the
    /// west half and those they give the east half (each a set: bit `r`
    /// for row `r`); `None` for a symmetric subproblem.
    pub fn join_rows(&self) -> Option<(u32, u32)> {
        match &self.search {
            Search::Join { n, piece } => Some(piece.rows(*n)),
            _ => None,
        }
    }

    /// The estimate of its size that orders the plan and weighs the
    /// progress bar: rough, only its order of magnitude means anything
    /// (symmetric: the square of the live squares three rows below the
    /// placed ones; join: its row sets weighed by the size of their joins).
    pub fn estimate(&self) -> u64 {
        self.estimate
    }

    /// Its share of the total, counted on this thread by `kernel`: for a
    /// symmetric subproblem `symmetric`, `symmetric-bmi` or `auto`; for a
    /// join piece `join`, `join-avx2`, `join-avx512` or `auto` (which
    /// builds its cut's quarter-boards for it alone: [`Plan::count`] builds
    /// them once for all the pieces it is given).
    ///
    /// # Errors
    ///
    /// As [`Plan::counting_kernel`].
    pub fn count(&self, kernel: Kernel) -> Result<Count, Error> {
        let mut total = 0;
        match &self.search {
            Search::Join { n, piece } => {
                let joiner = joiner(kernel)?;
                pieces::count(joiner, *n, &[(self.index, *piece)], 1, &mut |_, count| {
                    total += count
                })?;
            }
            _ => {
                let engine = symmetric_engine(kernel)?;
                self.count_with(engine, &mut |_, count| total += count);
            }
        }
        Ok(total)
    }

    /// Counts a symmetric subproblem with `engine`, reporting through
    /// `done`.
    fn count_with(&self, engine: Engine, done: &mut dyn FnMut(usize, Count)) {
        match &self.search {
            Search::Small(n) => {
                let count = crate::kernel::Kernel::Portable
                    .count(*n)
                    .expect("the portable kernel counts boards up to 3x3");
                done(self.index, count);
            }
            Search::Symmetric(sub) => {
                let mut one = core::iter::once((self.index, sub));
                engine.count(&mut one, sub.kind.is_tie(), false, done);
            }
            Search::Join { .. } => unreachable!("a join piece is counted by a join kernel"),
        }
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

/// FNV-1a over the method and its split's version, N, every subproblem
/// (a symmetric one's constraints, a join piece's cut and choices) and the
/// counting order (which decides the shards).
fn fingerprint(n: usize, method: Method, subproblems: &[Subproblem], order: &[usize]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |word: u64| {
        for byte in word.to_le_bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    // The symmetric plan's fingerprint is what it was before join plans
    // existed, so that its records and checkpoints stay valid.
    eat(match method {
        Method::Symmetric => SPLIT_VERSION,
        Method::Join => JOIN_SPLIT_VERSION,
    });
    eat(n as u64);
    for sub in subproblems {
        match &sub.search {
            Search::Small(_) => {}
            Search::Symmetric(sub) => {
                let (kind, k) = match sub.kind {
                    Kind::Corner => (0, 0),
                    Kind::Edge { k } => (1, k),
                    Kind::Tie { k } => (2, k),
                    Kind::Plain => (3, 0),
                };
                eat(kind);
                eat(k as u64);
                eat(sub.start as u64);
                for row in 0..sub.n {
                    eat(u64::from(sub.queens[row]) << 32 | u64::from(sub.forbidden[row]));
                }
            }
            Search::Join { piece, .. } => {
                eat(piece.split as u64);
                eat(u64::from(piece.chunk.pattern));
                eat(piece.chunk.len as u64);
            }
        }
    }
    for &index in order {
        eat(index as u64);
    }
    hash
}
