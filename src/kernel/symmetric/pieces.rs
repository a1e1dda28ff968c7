//! The symmetric kernel cut into numbered pieces: what a symmetric plan
//! ([`crate::plan`]) counts on threads, in shards across machines and from
//! checkpoints, and a partial board's one piece.
//!
//! A plan's pieces are the kernel's subproblems (corners, edges and ties,
//! see the module above), each split further by placing queens in its
//! next rows until there are enough pieces to keep every thread busy to
//! the end, each with an estimate of its size. Their counts add up to the
//! board's, whatever the order they are counted in.

use alloc::vec::Vec;
use core::sync::atomic::{AtomicUsize, Ordering};

use super::Walkers;
use super::subproblem::{RootKind, SearchRoot, unsplit_subproblems};
use crate::support::workers::Ran;
use crate::{Count, MAX_N};

/// Changes whenever the way a symmetric plan splits a board changes, so
/// that shards and checkpoints of another split are refused: the first
/// word of a symmetric plan's fingerprint.
pub(crate) const SPLIT_VERSION: u64 = 1;

/// One piece of a symmetric count.
// Every plan but those of N < 4 holds only subproblems: boxing them would
// add an allocation per piece for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub(crate) enum SymmetricPiece {
    /// A board too small for the subproblems (`N < 4`), whole, with any
    /// queens a partial board places: counted from its few solutions.
    Small {
        /// Board side.
        n: usize,
        /// `(row, column)`, by row.
        queens: Vec<(usize, usize)>,
    },
    /// A subproblem of the symmetric search, or a partial board's.
    SearchRoot(SearchRoot),
}

impl SymmetricPiece {
    /// Board side N.
    pub(crate) fn n(&self) -> usize {
        match self {
            SymmetricPiece::Small { n, .. } => *n,
            SymmetricPiece::SearchRoot(sub) => sub.n,
        }
    }

    /// Whether it is a tie subproblem, whose leaves the walkers check in a
    /// pass of their own, after the rest.
    pub(crate) fn is_tie(&self) -> bool {
        matches!(self, SymmetricPiece::SearchRoot(sub) if sub.kind.is_tie())
    }

    /// Its pre-placed queens, `(row, column)`, by row: the first rows, then
    /// any queen placed further down (a tie's, a partial board's).
    pub(crate) fn queens(&self) -> Vec<(usize, usize)> {
        let sub = match self {
            SymmetricPiece::Small { queens, .. } => return queens.clone(),
            SymmetricPiece::SearchRoot(sub) => sub,
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

    /// Feeds what names the piece (its kind, its queens and its forbidden
    /// squares) to a plan's fingerprint. A small board feeds nothing: N,
    /// which the plan feeds, names it.
    pub(crate) fn fingerprint(&self, eat: &mut dyn FnMut(u64)) {
        let SymmetricPiece::SearchRoot(sub) = self else {
            return;
        };
        let (kind, k) = match sub.kind {
            RootKind::Corner => (0, 0),
            RootKind::Edge { k } => (1, k),
            RootKind::Tie { k } => (2, k),
            RootKind::Plain => (3, 0),
        };
        eat(kind);
        eat(k as u64);
        eat(sub.start as u64);
        for row in 0..sub.n {
            eat(u64::from(sub.queens[row]) << 32 | u64::from(sub.forbidden[row]));
        }
    }
}

/// Calls `visit` with each piece of an `n`x`n` board (`n` up to 32) and
/// its estimate, in a fixed order: the whole board below N = 4, else the
/// subproblems, split by their first [`split_rows`].
pub(crate) fn for_each_estimated(n: usize, mut visit: impl FnMut(SymmetricPiece, u64)) {
    if n < 4 {
        let whole = SymmetricPiece::Small {
            n,
            queens: Vec::new(),
        };
        return visit(whole, 1);
    }
    let rows = split_rows(n);
    for sub in unsplit_subproblems(n) {
        split_into(sub, rows, &mut |sub| {
            let estimate = nodes_below(&sub, ESTIMATE_ROWS).pow(2);
            visit(SymmetricPiece::SearchRoot(sub), estimate);
        });
    }
}

/// How many pieces [`for_each_estimated`] visits, found without keeping
/// them (or estimating them): what a plan will hold, before it is built.
pub(crate) fn how_many(n: usize) -> usize {
    if n < 4 {
        return 1;
    }
    let mut pieces = 0;
    for sub in unsplit_subproblems(n) {
        split_into(sub, split_rows(n), &mut |_| pieces += 1);
    }
    pieces
}

/// The one piece of an `n`x`n` board (`n` up to 32) with `queens` (`(row,
/// column)`, by row, at most one per row, on the board) placed: the
/// solutions that hold them all, each counted once. `None` if two of the
/// queens attack each other (no solution holds them).
pub(crate) fn partial(n: usize, queens: &[(usize, usize)]) -> Option<SymmetricPiece> {
    if n < 4 {
        return Some(SymmetricPiece::Small {
            n,
            queens: queens.to_vec(),
        });
    }
    SearchRoot::new(n, RootKind::Plain, &[], queens, &[]).map(SymmetricPiece::SearchRoot)
}

/// The rows a subproblem of an `n`x`n` board has placed once split: none
/// below N = 12 (18 to 25 subproblems), else three: 646 subproblems at
/// N = 12, 4018 at N = 18, 37086 at N = 32, enough for every thread to
/// finish within a small fraction of the total from the others.
fn split_rows(n: usize) -> usize {
    if n < 12 { 0 } else { 3 }
}

/// Splits `sub` by placing queens in its next rows until `rows` rows are
/// placed (or the next would be the row before last), and gives each
/// piece to `visit`. A pre-placed row is passed through as one piece.
fn split_into(sub: SearchRoot, rows: usize, visit: &mut dyn FnMut(SearchRoot)) {
    if sub.start >= rows || sub.start + 1 >= sub.n - 2 {
        visit(sub);
        return;
    }
    let mut live = sub.live();
    while live != 0 {
        let bit = live & live.wrapping_neg();
        live ^= bit;
        split_into(sub.with_queen(bit), rows, visit);
    }
}

/// How many rows below its placed ones a subproblem's estimate looks: its
/// estimate is the square of the live squares that many rows below the
/// placed ones, summed over the ways to reach them. (Counts grow as a
/// power between 2.4 and 3.2 of those nodes, measured at N = 14 and 16;
/// the square keeps the progress bar's estimate of the time left close to
/// the truth.)
const ESTIMATE_ROWS: usize = 3;

/// The live squares `rows` rows below `sub`'s placed ones (or down to the
/// row before last), summed over every way to reach them.
fn nodes_below(sub: &SearchRoot, rows: usize) -> u64 {
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

/// The solutions of a small board (`N < 4`) that hold `queens`.
fn count_small(n: usize, queens: &[(usize, usize)]) -> Count {
    let solutions =
        crate::kernel::portable::Solutions::new(n).expect("n < 4 fits the portable kernel");
    let holds = |board: &crate::Board| {
        queens
            .iter()
            .all(|&(row, column)| usize::from(board.columns()[row]) == column)
    };
    solutions.filter(holds).count() as Count
}

/// A list of subproblems that threads take one at a time, in order.
struct Queue<'a> {
    subproblems: Vec<(usize, &'a SearchRoot)>,
    next: AtomicUsize,
}

impl<'a> Queue<'a> {
    fn new(subproblems: Vec<(usize, &'a SearchRoot)>) -> Self {
        Queue {
            subproblems,
            next: AtomicUsize::new(0),
        }
    }

    /// The next subproblem nobody has taken yet.
    fn claim(&self) -> Option<(usize, &'a SearchRoot)> {
        // Relaxed: the counter only hands out positions; the subproblems
        // themselves were written before the threads started.
        let position = self.next.fetch_add(1, Ordering::Relaxed);
        self.subproblems.get(position).copied()
    }
}

/// Counts what is left of `rest`, then of `ties` (the walkers count ties in
/// a pass of their own), reporting each subproblem through `done`.
fn drain(
    walkers: &dyn Walkers,
    rest: &Queue<'_>,
    ties: &Queue<'_>,
    done: &mut dyn FnMut(usize, Count),
) {
    walkers.count_listed(
        &mut core::iter::from_fn(|| rest.claim()),
        false,
        false,
        done,
    );
    walkers.count_listed(&mut core::iter::from_fn(|| ties.claim()), true, false, done);
}

/// Counts `pieces` (`(index, piece)` pairs) with `walkers` on `threads`
/// threads (at least 1), calling `done(index, count)` on this thread as
/// each finishes. Scoped threads claim the pieces in the order given from
/// a shared cursor, so that a thread that drew small pieces takes more and
/// all finish together; ties come after the rest. Returns how many threads
/// counted: fewer than asked if the system refused some
/// (`crate::support::workers`).
pub(crate) fn count(
    walkers: &dyn Walkers,
    pieces: &[(usize, &SymmetricPiece)],
    threads: usize,
    done: &mut dyn FnMut(usize, Count),
) -> Ran {
    let mut rest = Vec::new();
    let mut ties = Vec::new();
    for &(index, piece) in pieces {
        match piece {
            SymmetricPiece::Small { n, queens } => done(index, count_small(*n, queens)),
            SymmetricPiece::SearchRoot(sub) if sub.kind.is_tie() => ties.push((index, sub)),
            SymmetricPiece::SearchRoot(sub) => rest.push((index, sub)),
        }
    }
    let (rest, ties) = (Queue::new(rest), Queue::new(ties));
    let threads = threads.min(rest.subproblems.len() + ties.subproblems.len());
    if threads <= 1 {
        drain(walkers, &rest, &ties, done);
        return Ran::ONE;
    }
    let worker = |send: &mut dyn FnMut((usize, Count))| {
        drain(walkers, &rest, &ties, &mut |index, count| {
            send((index, count))
        });
    };
    crate::support::workers::run(threads, worker, &mut |(index, count)| done(index, count))
}
