//! Seed 001, "Haskell Solution to the Eight Queens Problem" (Brian Shourd,
//! 2014): threat masks intersected row by row, and deduplication by the
//! eight symmetries of the square.
//!
//! # The algorithm
//!
//! A square (a *move*) is a number `row * 8 + col` in `0..64`. Two 64-bit
//! masks describe a position:
//!
//! * a [`ThreatMask`], 1 for every square no queen threatens yet and 0 for a
//!   threatened one, so that combining threats is a plain AND;
//! * a [`MoveMask`], 1 for an empty square and 0 for a queen.
//!
//! [`THREAT_MASKS`] holds, for each of the 64 squares, the mask of what a
//! queen there leaves unthreatened, computed from the predicate
//! [`is_threatened`] (same row, column or diagonal; a square threatens
//! itself). The recursion starts from the empty board (both masks all ones)
//! and, in the row given by the number of queens placed so far, tries every
//! square still set in the threat mask: the new threat mask is the AND with
//! that square's table entry, the new move mask clears the square's bit.
//! When every row holds a queen, the move mask is a solution.
//!
//! [`fundamental`] is the article's deduplication: each solution's move mask
//! is mapped by the eight symmetries of the square, acting on the masks
//! themselves (decode the queens' `(a, b)` = (row, column) positions, map
//! them, encode again), the smallest `u64` of the eight is the class's
//! representative, and repeated representatives are dropped (`nub`, keeping
//! the first).
//!
//! # Faithful
//!
//! The two mask types and their polarity, the threat-mask table built from
//! `is_threatened`, the row-by-row recursion, the symmetries written on
//! `(a, b)` coordinates exactly as the article's `r1, r2, r3, m1..m4`, and
//! the choice of representative: the minimum *move mask*. That is the
//! seed's own canonical form and differs from
//! [`crate::symmetry::canonical`] (smallest column vector); the two pick
//! different boards of the same class.
//!
//! # Generalised
//!
//! * N from 0 to 8 instead of 8 only. The masks and the threat table keep the
//!   8x8 geometry; the recursion only tries the first N squares of the first
//!   N rows, and the symmetries use `N - 1` where the article has `7`.
//! * Solutions go to a visitor, which may stop the search, instead of being
//!   collected in a list; [`fundamental`] returns [`Board`](crate::Board)s.
#![cfg_attr(not(feature = "alloc"), doc = "")]
#![cfg_attr(not(feature = "alloc"), doc = "[`fundamental`]: crate#features")]

use core::ops::ControlFlow;

use crate::kernel::{Visit, kernel_type};
use crate::reference::{count_found, visit_bitboards};
use crate::{Count, Error, Kernel, Solver};

/// Squares no queen threatens: 1 = unthreatened, 0 = threatened.
pub type ThreatMask = u64;

/// Queens on the board: 1 = empty square, 0 = queen.
pub type MoveMask = u64;

/// A square, `row * 8 + col`.
type Move = usize;

/// A square as `(row, col)`.
type BoardPosition = (usize, usize);

/// The empty board: nothing threatened, no queen. Both a [`ThreatMask`] and
/// a [`MoveMask`].
pub const EMPTY_MASK: u64 = !0;

const fn move_to_board_position(m: Move) -> BoardPosition {
    (m / 8, m % 8)
}

const fn board_position_to_move((row, col): BoardPosition) -> Move {
    row * 8 + col
}

/// Whether queens on squares `a` and `b` (each `row * 8 + col`, from 0 to
/// 63) threaten each other: same column, row or diagonal. A square
/// threatens itself.
///
/// # Errors
///
/// [`Error::BitboardSquareOutOfRange`] for the first of `a` and `b` that is
/// 64 or more: it would wrap onto a square of the board.
pub const fn is_threatened(a: usize, b: usize) -> Result<bool, Error> {
    if a >= 64 {
        return Err(Error::BitboardSquareOutOfRange { square: a });
    }
    if b >= 64 {
        return Err(Error::BitboardSquareOutOfRange { square: b });
    }
    Ok(threaten_each_other(a, b))
}

/// [`is_threatened`] for squares the caller keeps below 64: the threat
/// table's.
const fn threaten_each_other(a: Move, b: Move) -> bool {
    let (row_a, col_a) = move_to_board_position(a);
    let (row_b, col_b) = move_to_board_position(b);
    col_a == col_b
        || row_a == row_b
        || col_a + row_a == col_b + row_b
        // `col - row == col' - row'`, rearranged to stay unsigned.
        || col_a + row_b == col_b + row_a
}

/// What a queen on square `m` (below 64) leaves unthreatened: every square
/// for which [`is_threatened`] holds cleared from [`EMPTY_MASK`].
const fn threat_mask(m: Move) -> ThreatMask {
    let mut mask = EMPTY_MASK;
    let mut square = 0;
    while square < 64 {
        if threaten_each_other(m, square) {
            mask &= !(1 << square);
        }
        square += 1;
    }
    mask
}

/// The threat mask of every square, indexed by `row * 8 + col`.
pub const THREAT_MASKS: [ThreatMask; 64] = {
    let mut table = [0; 64];
    let mut m = 0;
    while m < 64 {
        table[m] = threat_mask(m);
        m += 1;
    }
    table
};

kernel_type! {
    /// The seed-001 solver, N from 0 to 8.
    #[derive(Default)]
    pub struct ThreatMasks = Kernel::ThreatMasks;
}

/// The article's `qMImpl`: with `num_moves` queens placed (one in each of
/// the first rows), tries every unthreatened square of the next row, and
/// calls `found` with the move mask of every full board.
fn qm_impl<F>(
    n: usize,
    tmask: ThreatMask,
    mmask: MoveMask,
    num_moves: usize,
    found: &mut F,
) -> ControlFlow<()>
where
    F: FnMut(MoveMask) -> ControlFlow<()> + ?Sized,
{
    if num_moves == n {
        return found(mmask);
    }
    // openMovesInRow: the row's first n squares that are unthreatened.
    let row = num_moves * 8;
    for m in (row..row + n).filter(|&m| tmask & 1 << m != 0) {
        // doMove, and the queen cleared from the move mask.
        qm_impl(
            n,
            THREAT_MASKS[m] & tmask,
            mmask & !(1 << m),
            num_moves + 1,
            found,
        )?;
    }
    ControlFlow::Continue(())
}

/// Calls `found` with the move mask of every solution on an `n`x`n` board,
/// `n` from 0 to 8.
fn search<F>(n: usize, found: &mut F) -> ControlFlow<()>
where
    F: FnMut(MoveMask) -> ControlFlow<()> + ?Sized,
{
    debug_assert!(n <= 8);
    qm_impl(n, EMPTY_MASK, EMPTY_MASK, 0, found)
}

/// A symmetry of the square on `(a, b)` = (row, column), with `m = N - 1`.
type SquareSymmetry = fn(usize, BoardPosition) -> BoardPosition;

/// The article's `squareSymmetries`: identity, the three rotations and the
/// four reflections, with `m = N - 1` in place of `7`.
const SQUARE_SYMMETRIES: [SquareSymmetry; 8] = [
    |_, (a, b)| (a, b),         // id
    |m, (a, b)| (m - b, a),     // r1
    |m, (a, b)| (m - a, m - b), // r2
    |m, (a, b)| (b, m - a),     // r3
    |m, (a, b)| (m - a, b),     // m1
    |m, (a, b)| (a, m - b),     // m2
    |_, (a, b)| (b, a),         // m3
    |m, (a, b)| (m - b, m - a), // m4
];

/// The article's `applyOnMasks`: the queens of `mmask`, each moved by `f`,
/// as a move mask again.
fn apply_on_masks(f: SquareSymmetry, n: usize, mmask: MoveMask) -> MoveMask {
    // Only the queens' squares are mapped, and they all lie in the n x n
    // corner, so `n - 1` is never needed (and never computed) for n = 0.
    (0..64)
        .filter(|&m| mmask & 1 << m == 0) // moveMaskToMoves
        .map(|m| board_position_to_move(f(n - 1, move_to_board_position(m))))
        .fold(EMPTY_MASK, |mask, m| mask & !(1 << m)) // movesToMoveMask
}

/// The seed's canonical form of a solution on an `n`x`n` board: the
/// smallest of its eight images as a [`MoveMask`]. `n` from 0 to 8, and
/// every queen (0 bit) of `mmask` on the `n`x`n` board; any such set of
/// queens has its images, solution or not.
///
/// # Errors
///
/// [`Error::BitboardTooSmall`] if `n` is over 8, and
/// [`Error::SquareOffBoard`] for the first queen in a row or column at or
/// past `n` (its images would fall off the board).
pub fn canonical(n: usize, mmask: MoveMask) -> Result<MoveMask, Error> {
    if n > 8 {
        return Err(Error::BitboardTooSmall { n });
    }
    let row = (1u64 << n) - 1;
    let board = (0..n).fold(0, |board, r| board | row << (8 * r));
    let off_board = !mmask & !board;
    if off_board != 0 {
        let (row, column) = move_to_board_position(off_board.trailing_zeros() as Move);
        return Err(Error::SquareOffBoard { row, column, n });
    }
    Ok(smallest_image(n, mmask))
}

/// [`canonical`] for a move mask whose queens the caller keeps on the
/// `n`x`n` board: the search's solutions.
fn smallest_image(n: usize, mmask: MoveMask) -> MoveMask {
    SQUARE_SYMMETRIES
        .iter()
        .map(|&f| apply_on_masks(f, n, mmask))
        .min()
        .unwrap_or(mmask)
}

/// One representative of each class of solutions under the symmetries of the
/// square (12 for N = 8), chosen and ordered as seed 001 does: every
/// solution's [`canonical`] move mask, repeats dropped, in the order the
/// search first meets each class.
///
/// The representatives are the seed's, not [`crate::symmetry::canonical`]'s;
/// map them through it to compare classes with [`crate::fundamental`].
#[cfg(feature = "alloc")]
pub fn fundamental(n: usize) -> Result<alloc::vec::Vec<crate::Board>, Error> {
    Kernel::ThreatMasks.check_size(n)?;
    let mut classes: alloc::vec::Vec<MoveMask> = alloc::vec::Vec::new();
    // The closure never breaks.
    let _ = search(n, &mut |mmask| {
        let representative = smallest_image(n, mmask);
        if !classes.contains(&representative) {
            classes.push(representative);
        }
        ControlFlow::Continue(())
    });
    classes
        .into_iter()
        .map(|mmask| crate::Board::from_bitboard(n, !mmask))
        .collect()
}

impl Solver for ThreatMasks {
    fn kernel(&self) -> Kernel {
        Kernel::ThreatMasks
    }

    fn count(&self, n: usize) -> Result<Count, Error> {
        Kernel::ThreatMasks.check_size(n)?;
        Ok(count_found(|found| search(n, found)))
    }

    fn for_each_solution(&self, n: usize, visit: Visit<'_>) -> Result<ControlFlow<()>, Error> {
        Kernel::ThreatMasks.check_size(n)?;
        // A move mask marks queens with 0: its complement is the bitboard.
        visit_bitboards(n, visit, |found| search(n, &mut |mmask| found(!mmask)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::tests::{check_break, check_solver};
    use crate::{Board, symmetry};

    #[test]
    fn counts_and_boards() {
        check_solver(&ThreatMasks(()), 8);
        check_break(&ThreatMasks(()), 8);
    }

    #[test]
    fn threat_table() {
        // A corner queen threatens 22 squares including its own.
        assert_eq!(THREAT_MASKS[0].count_zeros(), 22);
        // A central queen threatens 28.
        assert_eq!(THREAT_MASKS[3 * 8 + 3].count_zeros(), 28);
        for (a, &mask) in THREAT_MASKS.iter().enumerate() {
            for b in 0..64 {
                assert_eq!(is_threatened(a, b), Ok(mask & 1 << b == 0));
            }
        }
    }

    #[test]
    fn twelve_classes_for_eight() {
        let classes = fundamental(8).unwrap();
        assert_eq!(classes.len(), 12);
        let mut canon: Vec<Board> = classes.iter().map(symmetry::canonical).collect();
        canon.sort_unstable();
        canon.dedup();
        assert_eq!(canon.len(), 12);
        // Each representative is the smallest move mask of its class.
        for board in &classes {
            let mmask = !board.to_bitboard().unwrap();
            for image in symmetry::Symmetry::ALL.map(|s| s.apply(board)) {
                assert!(mmask <= !image.to_bitboard().unwrap());
            }
        }
    }

    #[test]
    fn class_counts() {
        // OEIS A002562.
        let counts: Vec<usize> = (0..=8).map(|n| fundamental(n).unwrap().len()).collect();
        assert_eq!(counts, [1, 1, 0, 0, 1, 2, 1, 6, 12]);
        assert!(fundamental(9).is_err());
    }
}
