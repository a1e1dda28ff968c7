//! How much memory a join count takes, known before it starts, and how
//! finely its quarter-boards are cut to keep it small.
//!
//! Nearly all of it is quarter-boards (`quarters.rs`): 12 bytes each
//! (inner and crossing bits), and an index of 4 bytes per (rows, columns)
//! of each quarter. The whole quarters of a split grow about nine times per
//! two N (7.5 million quarter-boards a quarter at N = 20, 67 million at
//! N = 22, 633 million at N = 24), so no thread holds them whole: each
//! holds only those that agree with the first [`Tables::depth`] choices of
//! rows of the piece it counts (`split::Decided`), the shallowest depth
//! whose tables fit a target (32 MiB, 256 MiB with a band of two or more;
//! `depth.rs` finds it by counting placements, and [`FOUND`] writes it
//! down). Pieces that share those choices share the tables, and a thread
//! keeps them from one such piece to the next. Each thread adds the
//! half-boards of one row set and their slices.

use super::band::Band;
use crate::MAX_N;

/// Bytes of a thread's buffers besides the tables, beyond the half-boards
/// of one row set: the matcher's slices and the lists of row sets.
const BUFFERS: u64 = 4 << 20;

/// How a join count of an `n`x`n` board cuts its quarter-boards: the depth
/// of the choices its tables are built for, and what they take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tables {
    /// How many of a piece's first choices of rows (from the outside in)
    /// the tables agree with: pieces that share them share tables.
    pub(crate) depth: usize,
    /// About how many bytes one thread's tables take at that depth (an
    /// upper bound, by the counts of `depth.rs`).
    pub(crate) bytes: u64,
}

impl Tables {
    /// The tables of an `n`x`n` board (`n` up to 32): the shallowest depth
    /// whose tables fit the target, or every free row if none does. Read
    /// from [`FOUND`], which `depth.rs` computes: finding them counts
    /// placements for seconds at the largest N, and the memory check must
    /// answer at once.
    pub(crate) fn of(n: usize) -> Tables {
        let (depth, bytes) = FOUND[n.min(MAX_N)];
        Tables { depth, bytes }
    }
}

/// The tables of each N from 0 to [`MAX_N`], as `depth.rs` finds them:
/// the depth and the bytes. Written down because finding them takes
/// seconds (BENCHMARKS.md, "The memory check answers at once"), and
/// checked against the finding by its test
/// `the_tables_found_are_those_written`, which prints the lines to paste
/// here when they differ (after a change to the bands, the quarter-boards
/// or the target).
#[rustfmt::skip]
pub(crate) const FOUND: [(usize, u64); MAX_N + 1] = [
    (0, 140), // N = 0
    (0, 140), // N = 1
    (0, 312), // N = 2
    (0, 312), // N = 3
    (0, 908), // N = 4
    (0, 908), // N = 5
    (0, 3288), // N = 6
    (0, 3288), // N = 7
    (0, 13700), // N = 8
    (0, 13700), // N = 9
    (0, 61032), // N = 10
    (0, 61032), // N = 11
    (0, 290228), // N = 12
    (0, 290228), // N = 13
    (0, 1538568), // N = 14
    (0, 1538568), // N = 15
    (0, 9239420), // N = 16
    (0, 9239420), // N = 17
    (2, 31661692), // N = 18
    (2, 31661692), // N = 19
    (8, 32268788), // N = 20
    (8, 32268788), // N = 21
    (16, 19737888), // N = 22
    (16, 19737888), // N = 23
    (10, 146861464), // N = 24
    (10, 146861464), // N = 25
    (16, 197729720), // N = 26
    (16, 197729720), // N = 27
    (24, 159548712), // N = 28
    (24, 159548712), // N = 29
    (28, 503340656), // N = 30
    (28, 503340656), // N = 31
    (30, 3294118984), // N = 32
];

/// What a join count of an `n`x`n` board takes on `threads` threads, in
/// bytes: each thread's tables ([`Tables::of`]) two and a half times over
/// (a rebuilt quarter is made before the one it replaces is freed, and the
/// allocator keeps some of what was freed: twice over was not enough for
/// the whole count of N = 22, which took an hour and a half), its
/// half-boards of one row set ([`half_boards`]) and its other buffers, and
/// the process itself (the plan, the program, the allocator's arenas).
/// Measured peaks are below it: BENCHMARKS.md.
pub(crate) fn estimate(n: usize, threads: usize) -> u64 {
    let tables = Tables::of(n).bytes;
    let per_thread = tables
        .saturating_mul(2)
        .saturating_add(tables / 2)
        .saturating_add(half_boards(n))
        .saturating_add(BUFFERS);
    (threads.max(1) as u64)
        .saturating_mul(per_thread)
        .saturating_add(PROCESS)
}

/// What the process holds besides the threads' work: the program, the
/// plan and its records, the allocator's arenas.
const PROCESS: u64 = 16 << 20;

/// Bytes of the half-boards of the largest row set of an `n`x`n` board: the
/// pairs of quarter-boards tried (8 bytes each), and the half-boards kept,
/// filed and sliced (about 24 bytes each; 28% of the pairs are kept at
/// N = 20). The largest row set's pairs, measured, are 6,540, 41,652 and
/// 300,958 at N = 16, 18 and 20 (fewer for odd N): 6.4 and then 7.2 times
/// more per two N, the ratio itself growing. Below N = 20 they are taken
/// to shrink 2.7 times per N. Above, 2.9 times per N for even N (8.4 per
/// two N), so that the peaks measured at N = 22, 24 and 26 stay under the
/// estimate (at 2.7 they had passed it by up to a sixth), and 2.7 for odd
/// N, whose measured peaks stay a third of the estimate or less
/// (BENCHMARKS.md).
///
/// A band of two or three queens (`band.rs`) makes the lists those of a
/// board two smaller: at N = 24 the largest row set drawn in 300 had
/// 280,000 half-boards a side, at N = 22 (no band) 754,000; at N = 25,
/// 162,000, at N = 23, 414,000.
pub(crate) fn half_boards(n: usize) -> u64 {
    let n = n + n % 2 - Band::width(n).min(n);
    let growth = if n.is_multiple_of(2) { 2.9 } else { 2.7 };
    // A loop, not `powi`: this module builds without `std`.
    let mut pairs: f64 = 301e3;
    for _ in n..20 {
        pairs /= 2.7;
    }
    for _ in 20..n {
        pairs *= growth;
    }
    ((pairs * 16.0).min(u64::MAX as f64 / 2.0) as u64).max(1 << 16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimate_grows_with_threads_and_meets_the_targets() {
        // Finding the depth takes seconds from N = 24 without optimisation.
        let largest = if cfg!(debug_assertions) { 20 } else { 28 };
        for n in 4..=largest {
            let (one, two) = (estimate(n, 1), estimate(n, 2));
            assert!(two > one, "n = {n}");
            // The targets of docs/plan.md: every N up to 28 on two threads
            // in 16 GiB, N = 24 in 8 GiB.
            assert!(two <= 16 << 30, "n = {n}");
        }
        if !cfg!(debug_assertions) {
            assert!(estimate(24, 2) <= 8 << 30);
            // Issue 37's: N = 27 in 4 GiB a thread, N = 28 in 8.
            assert!(estimate(27, 1) <= 4 << 30);
            assert!(estimate(28, 1) <= 8 << 30);
        }
    }

    /// The peaks measured on two threads (BENCHMARKS.md: the whole count
    /// of N = 22, samples of N = 24 to 28 with the bands) are under the
    /// estimate, which the extrapolation of the half-boards at 2.7 times
    /// per N missed.
    #[test]
    fn the_estimate_covers_the_peaks_measured() {
        let measured: &[(usize, u64)] = if cfg!(debug_assertions) {
            &[(22, 191_736 << 10)]
        } else {
            &[
                (22, 191_736 << 10),
                (24, 233_780 << 10),
                (25, 163_624 << 10),
                (26, 463_300 << 10),
                (27, 347_884 << 10),
                (28, 1_447_340 << 10),
            ]
        };
        for &(n, peak) in measured {
            assert!(
                estimate(n, 2) >= peak,
                "n = {n}: {} < {peak}",
                estimate(n, 2)
            );
        }
    }
}
