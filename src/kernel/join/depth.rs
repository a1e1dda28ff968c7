//! How deep a join count's tables are cut ([`find_tables`]), found by
//! counting: what `memory.rs`'s `FOUND` writes down for each N, and the
//! tests that keep the two the same. Test-only: finding the depths takes
//! seconds at the largest N, while the memory check must answer at once
//! (BENCHMARKS.md, "The memory check answers at once").
//!
//! The size of the tables at a depth is found by counting, not building,
//! the placements of a quarter the size of the board's (an upper bound for
//! odd N, whose middle queen takes some squares) with its outer rows
//! decided as a piece decides them, for a few choices of those rows with
//! each number of queens; the count stops as soon as it passes the target.

use alloc::vec::Vec;

use super::band::Band;
use super::memory::Tables;
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

/// [`Tables::of`], found by counting: what [`super::memory::FOUND`]
/// holds, as the test below checks.
pub(crate) fn find_tables(n: usize) -> Tables {
    // Every free row: all but the band's; a quarter as wide as a half
    // (`band.rs`).
    let band = Band::width(n).min(n);
    let rows = n - band;
    let side = rows / 2;
    // An odd depth's bound is the even depth's below it (each half has
    // `depth / 2` rows decided), so only even depths are tried.
    for depth in (0..rows).step_by(2) {
        if let Some(bytes) = tables_bytes(side, depth, table_target(n)) {
            return Tables { depth, bytes };
        }
    }
    let bytes = tables_bytes(side, rows, u64::MAX).unwrap_or(u64::MAX);
    Tables { depth: rows, bytes }
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
    let mut counter = CappedSearch {
        side,
        open: [(0, false); 32],
        len: 0,
        left: cap,
    };
    for row in 0..side {
        let must = row < fixed && queens >> row & 1 != 0;
        if row >= fixed || must {
            counter.open[counter.len] = (row, must);
            counter.len += 1;
        }
    }
    counter.count(0, 0, 0, 0)
}

/// The search of [`capped_count`], over the rows that may hold a queen
/// (a row decided empty only moves the diagonals on).
struct CappedSearch {
    side: usize,
    /// The rows that may hold a queen, top down, and whether each must.
    open: [(usize, bool); 32],
    /// How many of `open` there are.
    len: usize,
    /// Placements it may still find before giving up.
    left: u64,
}

impl CappedSearch {
    /// The placements on open rows `at..len`, given the columns taken and
    /// the diagonals that attack open row `at`'s columns.
    fn count(&mut self, at: usize, columns: u32, falling: u32, rising: u32) -> Option<u64> {
        let found = match self.len - at {
            // The last two rows counted at once: the search's leaves are
            // nearly all there.
            0..=2 => self.last_rows(at, columns, falling, rising),
            _ => return self.search(at, columns, falling, rising),
        };
        self.left = self.left.checked_sub(found)?;
        Some(found)
    }

    /// The free squares of open row `at + ahead`.
    fn free(&self, at: usize, ahead: usize, columns: u32, falling: u32, rising: u32) -> u32 {
        let shift = self.open[at + ahead].0 - self.open[at].0;
        let (falling, rising) = (
            falling.checked_shl(shift as u32),
            rising.checked_shr(shift as u32),
        );
        all(self.side) & !(columns | falling.unwrap_or(0) | rising.unwrap_or(0))
    }

    /// [`CappedSearch::count`] by trying each choice of open row `at`: none
    /// (unless it must hold a queen), or a queen on each free square.
    fn search(&mut self, at: usize, columns: u32, falling: u32, rising: u32) -> Option<u64> {
        let (row, must) = self.open[at];
        let step = self.open[at + 1].0 - row;
        let mut total = 0;
        if !must {
            total += self.count(at + 1, columns, falling << step, rising >> step)?;
        }
        let mut free = all(self.side) & !(columns | falling | rising);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            total += self.count(
                at + 1,
                columns | bit,
                (falling | bit) << step,
                (rising | bit) >> step,
            )?;
        }
        Some(total)
    }

    /// [`CappedSearch::count`] from open row `at`, at most two before the end.
    /// With `a` and `b` the free squares of the last two open rows, `d`
    /// rows apart, a queen on `a`'s square `q` leaves `b` less `q`'s column
    /// and the squares `d` to either side, so the pairs of queens are
    /// `|a||b|` less `a`'s squares with a square of `b` at those places.
    fn last_rows(&self, at: usize, columns: u32, falling: u32, rising: u32) -> u64 {
        let count = |set: u32| u64::from(set.count_ones());
        // Without a queen (if the row may hold none), or with one on any of
        // `queens` squares.
        let ways = |must: bool, queens: u64| u64::from(!must) + queens;
        match self.len - at {
            0 => 1,
            1 => ways(
                self.open[at].1,
                count(self.free(at, 0, columns, falling, rising)),
            ),
            _ => {
                let (must_a, must_b) = (self.open[at].1, self.open[at + 1].1);
                let a = self.free(at, 0, columns, falling, rising);
                let b = self.free(at, 1, columns, falling, rising);
                let d = (self.open[at + 1].0 - self.open[at].0) as u32;
                let pairs = count(a) * count(b)
                    - count(a & b)
                    - count(a & b.checked_shr(d).unwrap_or(0))
                    - count(a & b.checked_shl(d).unwrap_or(0));
                let with_a = pairs + if must_b { 0 } else { count(a) };
                if must_a {
                    with_a
                } else {
                    ways(must_b, count(b)) + with_a
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::join::quarters::Quarters;
    use crate::kernel::join::split::{Chunk, Split};
    use alloc::collections::BTreeSet;

    /// [`FOUND`] is what [`find_tables`] finds, for every N (up to 22
    /// without optimisation, where it is slow; all in release tests with
    /// the long tests, as CI runs them; up to 26 otherwise).
    #[test]
    fn the_tables_found_are_those_written() {
        let largest = match (cfg!(debug_assertions), crate::kernel::join::long_tests()) {
            (true, _) => 22,
            (false, false) => 26,
            (false, true) => MAX_N,
        };
        let found: Vec<Tables> = (0..=largest).map(find_tables).collect();
        let lines: Vec<alloc::string::String> = found
            .iter()
            .enumerate()
            .map(|(n, t)| alloc::format!("    ({}, {}), // N = {n}", t.depth, t.bytes))
            .collect();
        for (n, tables) in found.iter().enumerate() {
            assert_eq!(
                *tables,
                Tables::of(n),
                "FOUND is out of date; its lines are now:\n{}",
                lines.join("\n")
            );
        }
    }
    /// At every depth, every row set's tables take at most what
    /// `tables_bytes` says, and for even N no less than half of it (the
    /// unrestricted square is the board's quarter, so the bound is close).
    #[test]
    fn the_tables_take_no_more_than_their_bound() {
        let largest = match (cfg!(debug_assertions), crate::kernel::join::long_tests()) {
            (true, _) => 12,
            (false, false) => 14,
            (false, true) => 16,
        };
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

    /// The counter, which counts the last two open rows at once, agrees
    /// with a plain search row by row, for every choice of decided rows on
    /// boards up to 7 wide, and gives up exactly past its cap.
    #[test]
    fn the_placements_are_counted_as_a_plain_search_counts_them() {
        fn plain(side: usize, fixed: usize, queens: u32, row: usize, taken: [u32; 3]) -> u64 {
            if row == side {
                return 1;
            }
            let (columns, falling, rising) = (taken[0], taken[1], taken[2]);
            let decided = row < fixed;
            let must = decided && queens >> row & 1 != 0;
            let mut total = 0;
            if !must {
                total += plain(
                    side,
                    fixed,
                    queens,
                    row + 1,
                    [columns, falling << 1, rising >> 1],
                );
            }
            if !decided || must {
                for column in 0..side {
                    let bit = 1 << column;
                    if (columns | falling | rising) & bit == 0 {
                        let next = [columns | bit, (falling | bit) << 1, (rising | bit) >> 1];
                        total += plain(side, fixed, queens, row + 1, next);
                    }
                }
            }
            total
        }
        for side in 0..=7 {
            for fixed in 0..=side {
                for queens in 0..1u32 << fixed {
                    let expected = plain(side, fixed, queens, 0, [0; 3]);
                    assert_eq!(capped_count(side, fixed, queens, u64::MAX), Some(expected));
                    assert_eq!(capped_count(side, fixed, queens, expected), Some(expected));
                    if expected > 0 {
                        assert_eq!(capped_count(side, fixed, queens, expected - 1), None);
                    }
                }
            }
        }
    }
}
