//! The transpose, which does not keep the halves, used all the same: a
//! weight `f` on solutions with `f(s) + f(T(s)) = 2` for the transpose `T`
//! adds up to the count over every solution, and where `f` is 0 for half
//! of them, the join skips that half. Each way below keeps what the flip
//! and the mirror do to a solution (`f` is the same on its images), so
//! the splits' bands and row sets still fold by them.
//!
//! * **Odd N** ([`close_nearer_than_middle`]): `T` swaps the middle
//!   column's queen, in row `q` at distance `d` from the centre, with the
//!   middle row's, in column `p`. Every solution without a queen in the
//!   centre has `p` at another distance than `d` (at the same one the two
//!   queens share a diagonal), and of a solution and its transpose
//!   exactly one has the middle row's queen further out: a split off the
//!   centre keeps only those (2), closing the middle row's squares nearer
//!   the centre.
//! * **Even N** ([`weigh_long_diagonals`]): `T` leaves the main diagonal
//!   in place and swaps the halves of the anti-diagonal: of a solution with
//!   queens on both and its transpose, exactly one has them in one half
//!   (the band's west columns in the west half). Such a solution counts
//!   twice, one with the two queens in different halves not at all, and
//!   the matcher weighs the pairs by the long diagonals' bits
//!   ([`LongDiagonals`]). This saves only a tenth: few solutions have
//!   queens on both.
//!
//! Tried for even N with a band of two and dropped: `T` also swaps the
//! band's queens with the two middle rows'. Weighing a solution by which
//! of the two pairs stands further from the centre (2, 1 or 0) would skip
//! half of the pairs, but the weight depends on both middle rows' queens,
//! so the half-boards must be cut by their columns (cases of a split, or
//! tags in the sieve's classes), and the shorter lists lose the sieve as
//! many pairs as the weight saves: at N = 24 the joins took 103 core-hours
//! against 108, the tables three times as long (BENCHMARKS.md).

use super::band::Band;
use crate::MAX_N;

/// For odd `n` (see the module): closes the middle row's squares nearer
/// the centre than the middle column's queen, or none if that queen is the
/// centre's; returns the split's weight from the transpose: 1 for the
/// centre, 2 off it, and if the band holds the middle row's queen, 2 if it
/// stands further out than the middle column's, else 0.
pub(crate) fn close_nearer_than_middle(n: usize, band: &Band, open: &mut [u32; MAX_N]) -> u32 {
    let centre = n / 2;
    let Some((q, _)) = band.queens(n).find(|&(_, column)| column == centre) else {
        return 1;
    };
    if q == centre {
        return 1;
    }
    let distance = q.abs_diff(centre);
    if let Some((_, p)) = band.queens(n).find(|&(row, _)| row == centre) {
        return if p.abs_diff(centre) > distance { 2 } else { 0 };
    }
    for (column, rows) in open.iter_mut().enumerate().take(n) {
        if column.abs_diff(centre) <= distance {
            *rows &= !(1 << centre);
        }
    }
    2
}

/// For even `n` from 4 (see the module): how the split
/// weighs pairs by the long diagonals, its weight from them, and the
/// diagonals the matcher weighs, by id (falling `r - c + n - 1`, rising
/// `2n - 1 + r + c`, as `split::crossing_bits` numbers them): both if the
/// band holds neither's queen; if it holds one's, the other, whose squares
/// in the half opposite that queen are closed; if it holds both, none, and
/// the split counts twice (one half holds both) or not at all.
pub(crate) fn weigh_long_diagonals(
    n: usize,
    band: &Band,
    open: &mut [u32; MAX_N],
) -> (LongDiagonals, u32, [Option<usize>; 2]) {
    let half_of = |column: usize| usize::from(column >= n / 2);
    let main = band
        .queens(n)
        .find(|&(r, c)| r == c)
        .map(|(_, c)| half_of(c));
    let anti = band
        .queens(n)
        .find(|&(r, c)| r + c == n - 1)
        .map(|(_, c)| half_of(c));
    let (main_id, anti_id) = (n - 1, 2 * n - 1 + n - 1);
    match (main, anti) {
        (None, None) => (LongDiagonals::Both, 1, [Some(main_id), Some(anti_id)]),
        (Some(a), Some(b)) => (
            LongDiagonals::Unweighed,
            if a == b { 2 } else { 0 },
            [None; 2],
        ),
        (Some(half), None) | (None, Some(half)) => {
            let anti_free = main.is_some();
            for (column, rows) in open.iter_mut().enumerate().take(n) {
                if half_of(column) != half {
                    let row = if anti_free { n - 1 - column } else { column };
                    *rows &= !(1 << row);
                }
            }
            let id = if anti_free { anti_id } else { main_id };
            (LongDiagonals::One, 1, [Some(id), None])
        }
    }
}

/// How the pairs of a split are weighed by the board's two long diagonals,
/// the transpose's use for even `n` (see `Split::new`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LongDiagonals {
    /// Not at all: odd `n`, or a band that holds both long diagonals'
    /// queens (the split's weight says what they make of it).
    Unweighed,
    /// By both, the top two cut bits (main above anti): a pair counts twice
    /// if one half holds the queens of both, not at all if the halves hold
    /// one each.
    Both,
    /// By one, the top cut bit: the band holds the other's queen, and the
    /// squares of this one in the half that does not hold it are closed; a
    /// pair with a queen on it counts twice.
    One,
}

impl LongDiagonals {
    /// How many top cut bits it weighs by.
    pub(crate) fn bits(self) -> usize {
        match self {
            LongDiagonals::Unweighed => 0,
            LongDiagonals::One => 1,
            LongDiagonals::Both => 2,
        }
    }

    /// Those bits, at the top of a mask.
    pub(crate) fn mask(self) -> u64 {
        match self.bits() {
            0 => 0,
            bits => u64::MAX << (64 - bits),
        }
    }
}
