//! Splitting a count into subproblems: the unit of work of the parallel
//! solver, of shards spread over many machines, and of checkpoints.
//!
//! A [`Plan`] lists the subproblems of an N x N board, numbered from 0, in
//! an order fixed by N and this crate's version: the subproblems of the
//! symmetric kernel (see [`crate::kernel::symmetric`]: a queen in the
//! corner, or the top queen `k` columns from a corner with or without a
//! *tie*), each split further by placing queens in the next rows until
//! there are enough pieces to keep every thread busy to the end. Each
//! subproblem's [`count`](Subproblem::count) is its share of the total:
//! the solutions its canonical boards stand for. The shares add up to the
//! number of solutions, whatever the order they are counted in, on however
//! many threads or machines.
//!
//! # How the parallel solver splits the work
//!
//! Below N = 12 a plan is the unsplit subproblems (18 to 25); from N = 12
//! each is split by its first three rows: 646 subproblems at N = 12, 4,018
//! at N = 18, 37,086 at N = 32. Each gets an [estimate](Subproblem::estimate)
//! (from the live squares three rows further down) and [`Plan::all`] orders them
//! largest first, the ties last (the walkers count ties in a second pass).
//! [`Plan::count`] starts scoped threads that take the next subproblem from
//! a shared atomic cursor and feed it to their three interleaved walkers, so
//! a thread that drew small pieces takes more, and the last pieces to
//! finish are the smallest: two threads count nearly twice as fast as one
//! (`threads/` in BENCHMARKS.md). Results reach the
//! calling thread through a channel it drains every 50 ms (waking it per
//! subproblem would take time from the workers), where `done` can record
//! them: the command line's checkpoints and progress bar do.
//!
//! # Spreading a count over many machines
//!
//! A plan depends only on N and this crate's version, so every machine
//! numbers the subproblems the same way, and [`Plan::fingerprint`] proves
//! it. Give each machine a [`Shard`] `i/m` (every `m`-th subproblem of
//! [`Plan::all`], from position `i`, so that each shard gets large and
//! small ones alike), count [`Plan::shard`] there, and add the counts. The
//! command line does this with `--shard i/m`, whose JSON records
//! `queens-simd merge` checks for a subproblem missing or counted twice
//! before it adds them up; run the shards with any batch system (a Slurm
//! array job, GNU parallel over ssh): this crate has no network protocol of
//! its own.
//!
//! ```
//! use queens_simd::Kernel;
//! use queens_simd::plan::{Options, Plan, Shard};
//!
//! let plan = Plan::new(12)?;
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
//! # Ok::<(), queens_simd::Error>(())
//! ```

mod parallel;
mod partial;
mod shard;

use core::fmt;

pub use parallel::Options;
pub use partial::PartialBoard;
pub use shard::Shard;

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
/// kernel (`auto` resolved for counting) splits. The one place that decides
/// it, for [`crate::count_on_threads`] and the command line.
pub fn counts_through_plan(kernel: Kernel, n: usize) -> bool {
    n >= SPLIT_FROM && kernel.resolve_for(n, crate::kernel::Task::Count).splits()
}

/// Changes whenever the way a plan splits a board changes, so that shards
/// and checkpoints of another split are refused (it is part of
/// [`Plan::fingerprint`]).
const SPLIT_VERSION: u64 = 1;

/// The rows a subproblem of an `n`x`n` board has placed once split: none
/// below N = 12 (18 to 25 subproblems), else three: 646 subproblems at
/// N = 12, 4018 at N = 18, 37086 at N = 32, enough for every thread to
/// finish within a small fraction of the total from the others.
fn split_rows(n: usize) -> usize {
    if n < 12 { 0 } else { 3 }
}

/// The subproblems of an N x N board, numbered, with an order to count them
/// in (largest first) and a fingerprint of the split.
#[derive(Clone, Debug)]
pub struct Plan {
    n: usize,
    subproblems: Vec<Subproblem>,
    all: Vec<usize>,
    fingerprint: u64,
}

/// One subproblem of a [`Plan`]: some queens pre-placed, some squares
/// forbidden by its [`kind`](Subproblem::kind), and its share of the total.
#[derive(Clone, Debug)]
pub struct Subproblem {
    index: usize,
    estimate: u64,
    search: Search,
}

// Every plan but those of N < 4 holds only the large variant: boxing it
// would add an allocation per subproblem for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
enum Search {
    /// A board too small to split (`N < 4`): counted whole.
    Small(usize),
    /// A subproblem of the symmetric search.
    Symmetric(search::Subproblem),
}

/// Which boards a [`Subproblem`] covers (see [`crate::kernel::symmetric`]
/// for why these cover every class exactly once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SubproblemKind {
    /// The whole board, for N < 4, which is not split.
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
}

impl fmt::Display for SubproblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SubproblemKind::WholeBoard => write!(f, "whole board"),
            SubproblemKind::Corner => write!(f, "corner"),
            SubproblemKind::Edge { k } => write!(f, "edge k={k}"),
            SubproblemKind::Tie { k } => write!(f, "tie k={k}"),
        }
    }
}

impl Plan {
    /// The plan of an `n`x`n` board, `n` from 0 to 32. Building it costs
    /// little next to the count: it lists the subproblems, it does not
    /// search them.
    pub fn new(n: usize) -> Result<Plan, Error> {
        Kernel::Symmetric.check_size(n)?;
        let searches: Vec<Search> = if n < 4 {
            vec![Search::Small(n)]
        } else {
            let rows = split_rows(n);
            let mut pieces = Vec::new();
            for sub in search::unsplit_subproblems(n) {
                split_into(sub, rows, &mut pieces);
            }
            pieces.into_iter().map(Search::Symmetric).collect()
        };
        let subproblems: Vec<Subproblem> = searches
            .into_iter()
            .enumerate()
            .map(|(index, search)| Subproblem {
                index,
                estimate: search.estimate(),
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
        let fingerprint = fingerprint(n, &subproblems, &all);
        Ok(Plan {
            n,
            subproblems,
            all,
            fingerprint,
        })
    }

    /// Board side N.
    pub fn n(&self) -> usize {
        self.n
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

    /// A 64-bit fingerprint of N, of every subproblem's queens and
    /// constraints, and of the counting order (FNV-1a): two plans with the
    /// same fingerprint number the same subproblems the same way and cut
    /// the same shards.
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

    /// The solutions of the subproblems numbered `indices` (each at most
    /// once), on `options.threads` threads; `done(index, count)` is called
    /// on the calling thread as each one finishes.
    ///
    /// Fails if `options.kernel` does not count subproblems (only
    /// `symmetric`, `symmetric-bmi` and `auto` do) or cannot run here, if
    /// an index is out of range or given twice, or if `threads` is 0.
    pub fn count(
        &self,
        indices: &[usize],
        options: &Options,
        done: impl FnMut(usize, Count),
    ) -> Result<Count, Error> {
        parallel::count(self, indices, options, done)
    }
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

impl Search {
    /// A cheap measure of the work in this subproblem: the square of the
    /// live squares three rows below the placed ones, summed over the ways
    /// to reach them. (Measured at N = 14 and 16, counts grow as the 2.4th
    /// to 3.2nd power of those nodes, correlation 0.7 in log-log; the
    /// square keeps the progress bar's estimate of the time left within
    /// about 10% of the truth at N = 18.)
    fn estimate(&self) -> u64 {
        match self {
            Search::Small(_) => 1,
            Search::Symmetric(sub) => nodes_below(sub, ESTIMATE_ROWS).pow(2),
        }
    }
}

/// How many rows below its placed ones a subproblem's estimate looks.
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
            Search::Small(n) => *n,
            Search::Symmetric(sub) => sub.n,
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
        }
    }

    fn is_tie(&self) -> bool {
        matches!(self.kind(), SubproblemKind::Tie { .. })
    }

    /// Its pre-placed queens, `(row, column)`, by row: the first rows, then
    /// any queen placed further down (a tie's).
    pub fn queens(&self) -> Vec<(usize, usize)> {
        let Search::Symmetric(sub) = &self.search else {
            return Vec::new();
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

    /// The estimate of its size that orders the plan and weighs the
    /// progress bar (the square of the live squares three rows below the
    /// placed ones): rough, only its order of magnitude means anything.
    pub fn estimate(&self) -> u64 {
        self.estimate
    }

    /// Its share of the total, counted on this thread by `kernel`
    /// (`symmetric`, `symmetric-bmi` or `auto`).
    pub fn count(&self, kernel: Kernel) -> Result<Count, Error> {
        let engine = crate::dispatch::engine(kernel)?;
        let mut total = 0;
        self.count_with(engine, &mut |_, count| total += count);
        Ok(total)
    }

    /// Counts it with `engine`, reporting through `done`.
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
        }
    }
}

impl fmt::Display for Subproblem {
    /// `#index kind: queens (row, column) ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{} {}:", self.index, self.kind())?;
        for (row, column) in self.queens() {
            write!(f, " ({row}, {column})")?;
        }
        Ok(())
    }
}

/// FNV-1a over the split's version, N, every subproblem's constraints and
/// the counting order (which decides the shards).
fn fingerprint(n: usize, subproblems: &[Subproblem], order: &[usize]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |word: u64| {
        for byte in word.to_le_bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    eat(SPLIT_VERSION);
    eat(n as u64);
    for sub in subproblems {
        let Search::Symmetric(sub) = &sub.search else {
            continue;
        };
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
    for &index in order {
        eat(index as u64);
    }
    hash
}
