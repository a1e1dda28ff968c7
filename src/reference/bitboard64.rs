//! Seed 000, "Masquerade ball with eight queens" (2011): the board as one
//! `u64` and a recursive scan over its squares.
//!
//! # The algorithm
//!
//! The board `t` is a `u64` with bit `row * 8 + col` set for a queen (least
//! significant bit = row 0, column 0). `solve(t, qleft, idx)` looks at square
//! `idx`: if [`ok`] says no queen on the board shares its line, column or
//! either diagonal, it places a queen there and either reports the board (no
//! queen left) or recurses from the first square of the next row; then, queen
//! removed, it always goes on with the next square, `idx + 1`.
//!
//! `ok(t, idx)` ANDs the board with four masks built from constants and
//! shifted into place: `MLI` (row 0) shifted by `8 * y`, `MCL` (column 0)
//! shifted by `x`, and the two long diagonals `MD1` and `MD2` shifted
//! sideways by `d1 = x - y` or `d2 = x + y - 7` columns after clearing, with
//! a shifted all-ones mask, the rows whose bits would wrap into the next row.
//!
//! # Faithful
//!
//! The board layout, the four masks and their shifts (including the
//! wrap-clearing of the diagonals), and the recursion's shape: the scan over
//! squares, the jump to the next row after placing, the queen count-down,
//! and the "skip this square" branch that, as in the article, also carries on
//! into the next row without placing (a dead end the line masks make
//! harmless).
//!
//! # Generalised
//!
//! * N from 0 to 8 instead of 8 only. The masks keep the 8x8 geometry; the
//!   scan only visits squares with `row < N` and `col < N`: after column
//!   `N - 1` it moves to the next row's column 0, and it ends after row
//!   `N - 1` (the article's `idx == 64` for N = 8). For N = 8 the scan is
//!   exactly the article's.
//! * N = 0 reports the empty board (the article's recursion only reports a
//!   board after placing a queen).
//! * Solutions go to a visitor, which may stop the search, instead of being
//!   printed; the count is the number of boards visited.

use core::ops::ControlFlow;

use crate::kernel::{Visit, kernel_type};
use crate::reference::{count_found, visit_bitboards};
use crate::{Count, Error, Kernel, Solver};

/// Row 0: `00000000 ... 11111111`.
const MLI: u64 = 0x0000_0000_0000_00ff;
/// Column 0: bit 0 of every byte.
const MCL: u64 = 0x0101_0101_0101_0101;
/// The main diagonal, (0, 0) to (7, 7).
const MD1: u64 = 0x8040_2010_0804_0201;
/// The anti-diagonal, (0, 7) to (7, 0).
const MD2: u64 = 0x0102_0408_1020_4080;

kernel_type! {
    /// The seed-000 solver, N from 0 to 8.
    #[derive(Default)]
    pub struct Bitboard64 = Kernel::Bitboard64;
}

/// Whether a queen on square `idx` would be safe on board `t`: no queen on
/// its line, its column or either of its diagonals. Any `t`; `idx` is
/// `row * 8 + col`, from 0 to 63.
///
/// # Errors
///
/// [`Error::BitboardSquareOutOfRange`] if `idx` is 64 or more: its shifts
/// would leave the board.
pub fn ok(t: u64, idx: usize) -> Result<bool, Error> {
    if idx >= 64 {
        return Err(Error::BitboardSquareOutOfRange { square: idx });
    }
    Ok(is_safe(t, idx))
}

/// [`ok`] for a square the caller keeps below 64: the search's own, which
/// never leaves the `n`x`n` corner.
#[inline]
fn is_safe(t: u64, idx: usize) -> bool {
    debug_assert!(idx < 64);
    let y = (idx / 8) as i32;
    let x = (idx % 8) as i32;
    let d1 = x - y;
    let d2 = x + y - 7;
    // `d1` and `d2` lie in -7..=7, so every shift below is under 64.
    let diagonal1 = if d1 > 0 {
        (MD1 & (!0u64 >> (8 * d1))) << d1
    } else {
        (MD1 & (!0u64 << (8 * -d1))) >> -d1
    };
    let diagonal2 = if d2 > 0 {
        (MD2 & (!0u64 << (8 * d2))) << d2
    } else {
        (MD2 & (!0u64 >> (8 * -d2))) >> -d2
    };
    t & ((MLI << (y * 8)) | (MCL << x) | diagonal1 | diagonal2) == 0
}

/// The square after `idx` in the scan of an `n`x`n` corner: the next column,
/// or column 0 of the next row after column `n - 1`. For `n = 8` this is
/// `idx + 1`.
#[inline]
fn next_square(n: usize, idx: usize) -> usize {
    if idx % 8 + 1 < n {
        idx + 1
    } else {
        (idx / 8 + 1) * 8
    }
}

/// The article's `solve`: scans from square `idx` with `qleft` queens still
/// to place on board `t`, and calls `found` with every full board.
fn solve<F>(n: usize, t: u64, qleft: usize, idx: usize, found: &mut F) -> ControlFlow<()>
where
    F: FnMut(u64) -> ControlFlow<()> + ?Sized,
{
    // Past the last row of the n x n corner (the article's `idx == 64`).
    if idx >= 8 * n {
        return ControlFlow::Continue(());
    }
    if is_safe(t, idx) {
        let t = t | 1 << idx; // sq(idx)
        let qleft = qleft - 1;
        if qleft == 0 {
            found(t)?;
        } else {
            solve(n, t, qleft, (idx / 8 + 1) * 8, found)?;
        }
        // rq(idx): the caller's `t` and `qleft` are untouched.
    }
    solve(n, t, qleft, next_square(n, idx), found)
}

/// Calls `found` with the bitboard of every solution on an `n`x`n` board,
/// `n` from 0 to 8, in the article's order.
fn search<F>(n: usize, found: &mut F) -> ControlFlow<()>
where
    F: FnMut(u64) -> ControlFlow<()> + ?Sized,
{
    debug_assert!(n <= 8);
    if n == 0 {
        return found(0);
    }
    solve(n, 0, n, 0, found)
}

impl Solver for Bitboard64 {
    fn kernel(&self) -> Kernel {
        Kernel::Bitboard64
    }

    fn count(&self, n: usize) -> Result<Count, Error> {
        Kernel::Bitboard64.check_size(n)?;
        Ok(count_found(|found| search(n, found)))
    }

    fn for_each_solution(&self, n: usize, visit: Visit<'_>) -> Result<ControlFlow<()>, Error> {
        Kernel::Bitboard64.check_size(n)?;
        visit_bitboards(n, visit, |found| search(n, found))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::tests::{check_break, check_solver};

    #[test]
    fn counts_and_boards() {
        check_solver(&Bitboard64(()), 8);
        check_break(&Bitboard64(()), 8);
    }

    #[test]
    fn ok_builds_the_articles_masks() {
        // A queen at (3, 3) attacks its line, column and both diagonals,
        // and nothing a knight's move away.
        let center = 3 * 8 + 3;
        let t = 1u64 << center;
        for idx in 0..64 {
            let (y, x) = (idx / 8, idx % 8);
            let attacked = y == 3 || x == 3 || x == y || x + y == 6;
            assert_eq!(ok(t, idx), Ok(!attacked), "square ({y}, {x})");
        }
        // The diagonals do not wrap round the board's edge.
        assert_eq!(ok(1 << 7, 8), Ok(true)); // (0, 7) and (1, 0)
        assert_eq!(ok(1 << 8, 7), Ok(true));
        assert!(ok(0, 64).is_err());
    }

    #[test]
    fn first_solution_is_the_articles_example() {
        let mut first = None;
        let _ = search(8, &mut |t| {
            first = Some(t);
            ControlFlow::Break(())
        });
        assert_eq!(first, Some(577094088726155265));
    }
}
