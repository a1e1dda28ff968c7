//! Seed 003, Andrew Que's brute force (2017): every one-queen-per-row
//! placement, N^N of them, each checked queen by queen with threat masks.
//!
//! # The algorithm
//!
//! A counter runs over all `N^N` states. Each state is read as N digits
//! (base N, row 0 in the lowest digit): digit `row` is the column of that
//! row's queen. For N = 8 the digits are the article's 3-bit fields, 8^8 =
//! 16,777,216 states in 24 bits.
//!
//! Every state starts from a blank `u64` playing field (bit `row * 8 + col`).
//! Row by row, the next digit is decoded, and, if the field already holds a
//! queen, the new queen's [`queen_mask`] (its row, column and both diagonals,
//! built by shifting whole-board constants) is ANDed with the field: any bit
//! in common is a threat, and the state is abandoned at once. Otherwise the
//! queen is set on the field and the next row follows. A state whose N
//! queens all went down is a solution.
//!
//! # Faithful
//!
//! The exhaustive counter (no pruning between states: a threat in row 1
//! still costs the next state its full restart), the lazy digit-by-digit
//! decoding, the blank field per state, the four base masks and their
//! row-multiple shifts, the "only check when the field is not empty" test
//! and the stop at the first threat. The article's own timing is beside
//! ours in BENCHMARKS.md, "Seeds".
//!
//! # Generalised
//!
//! * N from 0 to 8 instead of 8 only: `N^N` states in base N (the counter is
//!   instantiated per N, so for N = 8 the compiler turns `% 8` and `/ 8` into
//!   the article's mask and 3-bit shift). Queen masks keep the 8x8
//!   geometry; only columns below N are ever decoded. N = 0 has `0^0 = 1`
//!   state, placing no queen: the empty board, its one solution.
//! * Solutions go to a visitor, which may stop the search, instead of being
//!   printed; the count is the number of boards visited.

use core::ops::ControlFlow;

use crate::kernel::{Visit, kernel_type};
use crate::reference::{count_found, visit_bitboards};
use crate::{Count, Error, Kernel, Solver};

/// Columns on the bitboard (its row stride).
const COLUMNS: u32 = 8;

/// The entire first row.
const ROW: u64 = 0x0000_0000_0000_00ff;
/// The entire first column.
const COLUMN: u64 = 0x0101_0101_0101_0101;
/// Top-left to bottom-right diagonal: bits 0, 9, 18, ..., 63.
const LEFT_DIAGONAL: u64 = 0x8040_2010_0804_0201;
/// Top-right to bottom-left diagonal: bits 7, 14, 21, ..., 56.
const RIGHT_DIAGONAL: u64 = 0x0102_0408_1020_4080;

kernel_type! {
    /// The seed-003 solver, N from 0 to 8.
    #[derive(Default)]
    pub struct BruteForce = Kernel::BruteForce;
}

/// The bit of square (`row`, `column`).
#[inline]
const fn set(row: u32, column: u32) -> u64 {
    1 << (column + row * COLUMNS)
}

/// Every square a queen on (`row`, `column`) reaches: its row, its column and
/// both diagonals (and its own square). `row` and `column` from 0 to 7.
///
/// # Errors
///
/// [`Error::SquareOffBoard`] if `row` or `column` is 8 or more: the masks'
/// shifts would leave the 8x8 board.
pub const fn queen_mask(row: u32, column: u32) -> Result<u64, Error> {
    if row >= COLUMNS || column >= COLUMNS {
        return Err(Error::SquareOffBoard {
            row: row as usize,
            column: column as usize,
            n: COLUMNS as usize,
        });
    }
    Ok(reach(row, column))
}

/// [`queen_mask`] for a square the caller keeps on the 8x8 board: the
/// search's own, which only decodes columns below N <= 8.
#[inline]
const fn reach(row: u32, column: u32) -> u64 {
    debug_assert!(row < COLUMNS && column < COLUMNS);
    // The diagonals only move by whole rows, so nothing wraps round an edge.
    let mut left_diagonal = LEFT_DIAGONAL;
    if row > column {
        left_diagonal <<= (row - column) * COLUMNS;
    } else if row < column {
        left_diagonal >>= (column - row) * COLUMNS;
    }

    let mut right_diagonal = RIGHT_DIAGONAL;
    let opposite_column = COLUMNS - column - 1;
    if row > opposite_column {
        right_diagonal <<= (row - opposite_column) * COLUMNS;
    } else if row < opposite_column {
        right_diagonal >>= (opposite_column - row) * COLUMNS;
    }

    (ROW << (COLUMNS * row)) | (COLUMN << column) | left_diagonal | right_diagonal
}

/// Tries all `N^N` states of an `N`x`N` board and calls `found` with the
/// field of every one without a threat.
fn search<const N: u32, F>(found: &mut F) -> ControlFlow<()>
where
    F: FnMut(u64) -> ControlFlow<()> + ?Sized,
{
    const { assert!(N <= 8) };
    // At most 8^8 = 2^24: the article's 24-bit counter.
    let states = N.pow(N);
    for state in 0..states {
        // Initial field has no pieces on it.
        let mut field = 0u64;
        let mut is_good = true;
        let mut row = 0;
        // The digits still to decode; the lowest one is the current row's.
        let mut sub_state = state;
        while row < N && is_good {
            // `row < N` here, so N >= 1.
            let column = sub_state % N;
            sub_state /= N;
            // Only check the field if there is at least one other piece.
            if field > 0 && field & reach(row, column) != 0 {
                is_good = false;
            }
            field |= set(row, column);
            row += 1;
        }
        if is_good {
            found(field)?;
        }
    }
    ControlFlow::Continue(())
}

/// [`search`] for a run-time `n` from 0 to 8.
fn search_n<F>(n: usize, found: &mut F) -> ControlFlow<()>
where
    F: FnMut(u64) -> ControlFlow<()> + ?Sized,
{
    match n {
        0 => search::<0, F>(found),
        1 => search::<1, F>(found),
        2 => search::<2, F>(found),
        3 => search::<3, F>(found),
        4 => search::<4, F>(found),
        5 => search::<5, F>(found),
        6 => search::<6, F>(found),
        7 => search::<7, F>(found),
        8 => search::<8, F>(found),
        // The callers check the size first.
        _ => ControlFlow::Continue(()),
    }
}

impl Solver for BruteForce {
    fn kernel(&self) -> Kernel {
        Kernel::BruteForce
    }

    fn count(&self, n: usize) -> Result<Count, Error> {
        Kernel::BruteForce.check_size(n)?;
        Ok(count_found(|found| search_n(n, found)))
    }

    fn for_each_solution(&self, n: usize, visit: Visit<'_>) -> Result<ControlFlow<()>, Error> {
        Kernel::BruteForce.check_size(n)?;
        visit_bitboards(n, visit, |found| search_n(n, found))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::tests::{check_break, check_solver};
    use crate::reference::threat_masks::THREAT_MASKS;

    #[test]
    fn counts_and_boards() {
        check_solver(&BruteForce(()), 8);
        check_break(&BruteForce(()), 8);
    }

    #[test]
    fn queen_masks_agree_with_seed_001() {
        // Seed 001's threat masks are the complement of these, built from a
        // predicate instead of shifted constants.
        for row in 0..8 {
            for column in 0..8 {
                let square = (row * 8 + column) as usize;
                assert_eq!(queen_mask(row, column), Ok(!THREAT_MASKS[square]));
            }
        }
    }

    #[test]
    fn states_are_read_row_0_first() {
        // Row 0 is the lowest digit, so the solution met first has the
        // smallest column in the *last* row: of the two 4x4 solutions,
        // 1 3 0 2 is state 1 + 3*4 + 0*16 + 2*64 = 141 and 2 0 3 1 is state
        // 2 + 0*4 + 3*16 + 1*64 = 114.
        let mut first = None;
        let _ = search::<4, _>(&mut |field| {
            first = Some(field);
            ControlFlow::Break(())
        });
        assert_eq!(first, Some(set(0, 2) | set(1, 0) | set(2, 3) | set(3, 1)));
    }
}
