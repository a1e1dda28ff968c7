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
//! whose tables fit [`table_target`]. Pieces that share those choices share
//! the tables, and a thread keeps them from one such piece to the next.
//! Each thread adds the half-boards of one row set and their slices.
//!
//! The size of the tables at a depth is found by counting, not building,
//! the placements of a quarter the size of the board's (an upper bound for
//! odd N, whose middle queen takes some squares) with its outer rows
//! decided as a piece decides them, for a few choices of those rows with
//! each number of queens; the count stops as soon as it passes the target,
//! so that finding the depth costs little even at N = 27.

use alloc::vec::Vec;
use core::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use super::band::Band;
use super::quarters::BYTES_PER_QUARTER_BOARD;
use crate::MAX_N;

/// The most bytes of quarter-boards a thread's tables should hold (the
/// shallowest depth that fits is taken): small enough that a count of any
/// N up to 28 fits a few GiB per thread, large enough that the tables are
/// rebuilt rarely. With a band of two queens or more (`band.rs`) every
/// split has tables of its own, so more is worth holding: at N = 25, 256
/// MiB took the tables' share of a count from a third (at 32 MiB) to a
/// twelfth (`--sample`, BENCHMARKS.md).
pub(crate) fn table_target(n: usize) -> u64 {
    if Band::width(n) >= 2 {
        WIDE_BAND_TABLE_TARGET
    } else {
        TABLE_TARGET
    }
}

/// [`table_target`] with no band or a band of one.
pub(crate) const TABLE_TARGET: u64 = 32 << 20;

/// [`table_target`] with a band of two or more.
const WIDE_BAND_TABLE_TARGET: u64 = 256 << 20;

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
    /// upper bound by the counts of [`Tables::of`]).
    pub(crate) bytes: u64,
}

impl Tables {
    /// The tables of an `n`x`n` board (`n` up to 32): the shallowest depth
    /// whose tables fit [`table_target`], or every free row if none does.
    /// Found once per `n` and remembered: the memory check and every count
    /// of the board ask for it, and finding it takes up to seconds.
    pub(crate) fn of(n: usize) -> Tables {
        // The bytes are stored before the depth is released, so a depth
        // read with Acquire comes with its bytes. Two threads that find the
        // same N at once store the same values.
        let (depth, bytes) = (&KNOWN_DEPTH[n], &KNOWN_BYTES[n]);
        let known = depth.load(Ordering::Acquire);
        if known != UNKNOWN {
            return Tables {
                depth: known,
                bytes: bytes.load(Ordering::Relaxed),
            };
        }
        let found = Tables::find(n);
        bytes.store(found.bytes, Ordering::Relaxed);
        depth.store(found.depth, Ordering::Release);
        found
    }

    /// [`Tables::of`], found.
    fn find(n: usize) -> Tables {
        // Every free row: all but the band's; a quarter as wide as a half
        // (`band.rs`).
        let band = Band::width(n).min(n);
        let rows = n - band;
        let side = rows / 2;
        for depth in 0..rows {
            if let Some(bytes) = tables_bytes(side, depth, table_target(n)) {
                return Tables { depth, bytes };
            }
        }
        let bytes = tables_bytes(side, rows, u64::MAX).unwrap_or(u64::MAX);
        Tables { depth: rows, bytes }
    }
}

/// No depth found yet for this N.
const UNKNOWN: usize = usize::MAX;

/// [`Tables::of`] of each N, once found.
static KNOWN_DEPTH: [AtomicUsize; MAX_N + 1] = [const { AtomicUsize::new(UNKNOWN) }; MAX_N + 1];
static KNOWN_BYTES: [AtomicU64; MAX_N + 1] = [const { AtomicU64::new(0) }; MAX_N + 1];

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

/// Bytes of the tables of the four quarters (`side` x `side`) with the
/// first `depth` choices decided, or `None` if that is more than `cap`.
/// The choices alternate between the top and the bottom rows, so each
/// half has `depth / 2` rows decided at least (`depth / 2 + 1` for one of
/// them with an odd depth, fewer bits to file, so the smaller is taken).
fn tables_bytes(side: usize, depth: usize, cap: u64) -> Option<u64> {
    let fixed = (depth / 2).min(side);
    let free = side - fixed;
    // Per quarter: a start per (rows, columns) and one more, the column
    // sets present (at most as many), and a start per row set and one more.
    let index = 4 * (8 * (1u64 << (free + side).min(58)) + 4 * (1u64 << free) + 8);
    let cap_boards = cap.saturating_sub(index) / BYTES_PER_QUARTER_BOARD as u64;
    // The west half takes a choice, the east its complement; the choices
    // sampled are mostly each other's complements, and all the same with
    // nothing decided, so each is counted once.
    let mut choices: Vec<u32> = sampled_patterns(fixed)
        .flat_map(|queens| [queens, !queens & all(fixed)])
        .collect();
    choices.sort_unstable();
    choices.dedup();
    let mut placements = Vec::with_capacity(choices.len());
    for &queens in &choices {
        placements.push(capped_count(side, fixed, queens, cap_boards / 2)?);
    }
    let placements_of = |queens: u32| {
        choices
            .binary_search(&queens)
            .map_or(0, |index| placements[index])
    };
    let mut most = 0;
    for queens in sampled_patterns(fixed) {
        let (west, east) = (placements_of(queens), placements_of(!queens & all(fixed)));
        most = most.max(west + east);
    }
    // Both halves, north and south, alike; a quarter more for the choices
    // not sampled (the most the tests find past the sample is 9%).
    let boards = 2 * most + most / 2;
    let bytes = boards
        .saturating_mul(BYTES_PER_QUARTER_BOARD as u64)
        .saturating_add(index);
    (bytes <= cap).then_some(bytes)
}

/// The choices of queens in `fixed` decided rows that [`tables_bytes`]
/// counts: for each number of queens, packed at the top, at the bottom,
/// and spread evenly.
fn sampled_patterns(fixed: usize) -> impl Iterator<Item = u32> {
    (0..=fixed).flat_map(move |queens| {
        let top = all(queens);
        let bottom = top << (fixed - queens);
        let spread = (0..queens).fold(0u32, |set, i| set | 1 << (i * fixed / queens.max(1)));
        [top, bottom, spread]
    })
}

/// Rows `0..k`.
fn all(k: usize) -> u32 {
    if k >= 32 { u32::MAX } else { (1u32 << k) - 1 }
}

/// The placements of non-attacking queens, any number, at most one per
/// row and column, on a `side` x `side` board whose first `fixed` rows
/// hold a queen exactly where `queens` has a bit; `None` once past `cap`.
fn capped_count(side: usize, fixed: usize, queens: u32, cap: u64) -> Option<u64> {
    let mut counter = Counter {
        side,
        fixed,
        queens,
        left: cap,
    };
    let found = counter.count(0, 0, 0, 0)?;
    Some(found)
}

/// The search of [`capped_count`].
struct Counter {
    side: usize,
    fixed: usize,
    queens: u32,
    /// Placements it may still find before giving up.
    left: u64,
}

impl Counter {
    /// The placements on rows `row..side` given the columns taken and the
    /// diagonals that attack this row's columns.
    fn count(&mut self, row: usize, columns: u32, falling: u32, rising: u32) -> Option<u64> {
        if row == self.side {
            self.left = self.left.checked_sub(1)?;
            return Some(1);
        }
        let (with, without) = if row < self.fixed {
            let queen = self.queens >> row & 1 != 0;
            (queen, !queen)
        } else {
            (true, true)
        };
        let mut total = 0;
        if without {
            total += self.count(row + 1, columns, falling << 1, rising >> 1)?;
        }
        if with {
            let mut free = all(self.side) & !(columns | falling | rising);
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                total += self.count(
                    row + 1,
                    columns | bit,
                    (falling | bit) << 1,
                    (rising | bit) >> 1,
                )?;
            }
        }
        Some(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::join::quarters::Quarters;
    use crate::kernel::join::split::{Chunk, Split};
    use alloc::collections::BTreeSet;

    /// At every depth, every row set's tables take at most what
    /// `tables_bytes` says, and for even N no less than half of it (the
    /// unrestricted square is the board's quarter, so the bound is close).
    #[test]
    fn the_tables_take_no_more_than_their_bound() {
        let largest = if cfg!(debug_assertions) { 12 } else { 16 };
        for n in 4..=largest {
            let splits = Split::all(n);
            for depth in 0..=splits[0].rows {
                let bound = tables_bytes(n / 2, depth, u64::MAX).unwrap();
                let mut most = 0;
                for split in splits.iter().filter(|split| !split.is_empty()) {
                    let mut seen = BTreeSet::new();
                    for chunk in Chunk::all(split, split.piece_len(splits.len())) {
                        chunk.for_each_row_set(split, |rows, _| {
                            let decided = split.decided(depth, rows);
                            seen.insert((decided.rows, decided.west));
                        });
                    }
                    for (rows, west) in seen {
                        let decided = crate::kernel::join::split::Decided { rows, west };
                        most = most.max(Quarters::restricted(split, decided).unwrap().bytes());
                    }
                }
                assert!(most <= bound, "n = {n}, depth {depth}: {most} > {bound}");
                if n % 2 == 0 {
                    assert!(
                        3 * most >= bound,
                        "n = {n}, depth {depth}: {most} << {bound}"
                    );
                }
            }
        }
    }

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

    /// The shallowest depth that fits is taken: one less does not fit.
    #[test]
    fn the_depth_is_the_shallowest_that_fits() {
        for n in [12, 16, 18, 20] {
            let tables = Tables::of(n);
            assert!(tables.bytes <= TABLE_TARGET, "n = {n}");
            if tables.depth > 0 {
                assert_eq!(tables_bytes(n / 2, tables.depth - 1, TABLE_TARGET), None);
            }
        }
    }
}
