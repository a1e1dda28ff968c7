//! A lane's first row ([`Start`]): the row, its masks, and the squares the
//! walk must forbid beyond the attacks, built from a subproblem (its
//! forbidden squares as two masks, and a tie's pre-placed queen) or from
//! rows placed by hand (the mirror starts).

use crate::Count;
use crate::kernel::symmetric::subproblem::{SearchRoot, fixed_queen_squares};

/// The live squares of a lane's row carry its row from this bit up (in its
/// [`Start`], its registers and its stack's entries): the forbidden columns
/// of the rows below, and whether the child is at the leaves, depend on it.
pub(crate) const ROW_SHIFT: i32 = 27;

/// The bits of the live squares below the row.
pub(super) const SQUARES: u32 = (1 << ROW_SHIFT) - 1;

/// The largest N the lanes take: squares below bit 24 (the walk finds a
/// lane's highest square through a float conversion, exact below 2^24) and
/// rows below 32.
pub(crate) const MAX_N: usize = 24;

/// The largest N whose ties a lane takes: its path keeps a column of 4 bits
/// for each of 16 rows (see `walk::Leaves::score`).
pub(crate) const TIES_UP_TO: usize = 16;

/// A lane's first row: what a walker starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Start {
    /// The row's live squares, and the row from [`ROW_SHIFT`] up.
    pub(super) live: u32,
    /// Taken columns (off-board columns included) and the diagonals
    /// attacking the row.
    pub(super) columns: u32,
    pub(super) left: u32,
    pub(super) right: u32,
    /// Squares forbidden beyond the attacks: row `r` may not use the
    /// columns of a pair whose rows have bit `r` set.
    pub(super) forbidden: [(u32, u32); 2],
    /// What each solution found counts for.
    pub(super) weight: u64,
    /// A tie's queen fixed further down: its row and its column (one bit);
    /// [`NO_FIXED_QUEEN`] for every other start.
    pub(super) fixed: (u32, u32),
}

/// The fixed queen of a start that has none: column 0 forbids nothing, and
/// row 31 is out of any lane's reach.
const NO_FIXED_QUEEN: (u32, u32) = (31, 0);

/// The columns of `forbidden` (`(row, columns)`, rows below 32) as at most
/// two (rows, columns) pairs, one per distinct set of columns; `None` if
/// they take more.
fn forbidden_pairs(forbidden: impl Iterator<Item = (usize, u32)>) -> Option<[(u32, u32); 2]> {
    let mut pairs = [(0u32, 0u32); 2];
    let mut used = 0;
    for (row, columns) in forbidden.filter(|&(_, columns)| columns != 0) {
        let pair = match pairs[..used].iter().position(|&(_, c)| c == columns) {
            Some(pair) => pair,
            None if used < pairs.len() => {
                used += 1;
                pairs[used - 1].1 = columns;
                used - 1
            }
            None => return None,
        };
        pairs[pair].0 |= 1 << row;
    }
    Some(pairs)
}

impl Start {
    /// The start of row `row` of an `n`x`n` board (`n` from 4 to
    /// [`MAX_N`]) with these masks, no forbidden squares, each solution
    /// counting `weight`.
    pub(crate) fn new(
        n: usize,
        row: usize,
        columns: u32,
        left: u32,
        right: u32,
        weight: u64,
    ) -> Start {
        debug_assert!((4..=MAX_N).contains(&n) && row < n);
        let full = (1u32 << n) - 1;
        let left = left & full;
        let free = !(columns | left | right) & full;
        let ahead = !(columns | left << 1 | right >> 1) & full;
        let live = free & crate::kernel::symmetric::alive_columns(ahead);
        Start {
            live: live | (row as u32) << ROW_SHIFT,
            columns: columns | !full,
            left,
            right,
            forbidden: [(0, 0); 2],
            weight,
            fixed: NO_FIXED_QUEEN,
        }
    }

    /// The start of a symmetric subproblem (not a tie) or a plain partial
    /// board, each solution counting its orbit (or 1 with `classes`);
    /// `None` where its forbidden squares take more than two masks.
    pub(crate) fn of_subproblem(sub: &SearchRoot, classes: bool) -> Option<Start> {
        debug_assert!(!sub.kind.is_tie());
        let n = sub.n;
        if n > MAX_N {
            return None;
        }
        // The walk reads the forbidden columns of the rows below `start`.
        let rows = sub
            .forbidden
            .iter()
            .copied()
            .enumerate()
            .take(n)
            .skip(sub.start + 1);
        let forbidden = forbidden_pairs(rows)?;
        let weight = if classes { 1 } else { sub.kind.orbit() };
        Some(Start::at(sub, forbidden, weight, NO_FIXED_QUEEN))
    }

    /// The start of `sub`'s first free row, with these forbidden squares,
    /// weight and fixed queen.
    fn at(sub: &SearchRoot, forbidden: [(u32, u32); 2], weight: u64, fixed: (u32, u32)) -> Start {
        let full = u32::MAX >> (32 - sub.n);
        Start {
            live: sub.live() | (sub.start as u32) << ROW_SHIFT,
            columns: sub.columns,
            left: sub.left & full,
            right: sub.right,
            forbidden,
            weight,
            fixed,
        }
    }

    /// The start of a tie subproblem, whose leaves are scored one by one
    /// (its weight is 0): its queen fixed further down forbids squares in
    /// every row, which the walk computes from the queen's row and column;
    /// the rest of its forbidden squares take the two masks. `None` where
    /// they do not fit (more than one fixed queen, or more masks), and past
    /// N = 16, where a lane's path (see `walk::Leaves::score`) would not fit.
    pub(crate) fn of_tie(sub: &SearchRoot) -> Option<Start> {
        debug_assert!(sub.kind.is_tie());
        let n = sub.n;
        if n > TIES_UP_TO || sub.fixed_rows.count_ones() > 1 {
            return None;
        }
        let full = u32::MAX >> (32 - n);
        let fixed = if sub.fixed_rows == 0 {
            NO_FIXED_QUEEN
        } else {
            let row = sub.fixed_rows.trailing_zeros();
            (row, !sub.forbidden[row as usize] & full)
        };
        let (fixed_row, column) = fixed;
        // Each row's squares beyond the fixed queen's, those of them that no
        // placed queen attacks (a mask must forbid these), and those a mask
        // may forbid (any forbidden or attacked square).
        let (mut beyond, mut must, mut may) = ([0u32; MAX_N], [0u32; MAX_N], [0u32; MAX_N]);
        for row in sub.start + 1..n {
            let distance = (row as u32).abs_diff(fixed_row);
            let squares = fixed_queen_squares(distance, column, full) & full;
            let forbidden = sub.forbidden[row] & full;
            // The walk forbids the fixed queen's squares: they must be the
            // subproblem's.
            if squares & !forbidden != 0 {
                return None;
            }
            let below = (row - sub.start) as u32;
            let attacked = (sub.columns | sub.left << below | sub.right >> below) & full;
            beyond[row] = forbidden & !squares;
            must[row] = beyond[row] & !attacked;
            may[row] = forbidden | attacked;
        }
        // The masks, by the first of three ways that takes two: each row's
        // squares beyond the fixed queen's; only those no queen attacks;
        // or those and what the row may forbid of the columns that some
        // row must (the edge columns, say, in a row where the fixed queen
        // takes one of them too).
        let needed = must.iter().fold(0, |all, &m| all | m);
        let widened = |row: usize| {
            if must[row] == 0 {
                0
            } else {
                must[row] | (may[row] & needed)
            }
        };
        let forbidden = forbidden_pairs(beyond.into_iter().enumerate().take(n))
            .or_else(|| forbidden_pairs(must.into_iter().enumerate().take(n)))
            .or_else(|| forbidden_pairs((0..n).map(|row| (row, widened(row)))))?;
        Some(Start::at(sub, forbidden, 0, fixed))
    }

    /// The row of this start.
    pub(super) fn row(&self) -> usize {
        (self.live >> ROW_SHIFT) as usize
    }

    /// The solutions of this start found without a walk: none if its row
    /// has no live square, each live square one if it is the row before
    /// last (`n - 2`); `None` if it needs a walk.
    pub(super) fn counted_at_once(&self, n: usize) -> Option<Count> {
        let squares = self.live & SQUARES;
        if squares == 0 {
            Some(0)
        } else if self.row() + 2 >= n {
            debug_assert_eq!(self.row() + 2, n);
            Some(Count::from(squares.count_ones()) * Count::from(self.weight))
        } else {
            None
        }
    }

    /// Whether any row has forbidden squares.
    pub(crate) fn has_forbidden(&self) -> bool {
        self.forbidden.iter().any(|&(rows, _)| rows != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::symmetric::subproblem::{RootKind, unsplit_subproblems};

    /// Every subproblem of an `n`x`n` board, unsplit and split one row
    /// further (as the lane kernels split the ties), ties or not.
    fn subproblems_and_parts(n: usize) -> impl Iterator<Item = SearchRoot> {
        unsplit_subproblems(n).flat_map(|sub| sub.clone().split_one_row().chain([sub]))
    }

    /// The squares a start's walk forbids in row `row` beyond the attacks:
    /// its masks' and its fixed queen's.
    fn forbidden_in(start: &Start, n: usize, row: usize) -> u32 {
        let full = u32::MAX >> (32 - n);
        let masks = start
            .forbidden
            .iter()
            .filter(|&&(rows, _)| rows >> row & 1 != 0);
        let masks = masks.fold(0, |all, &(_, columns)| all | columns);
        let (fixed_row, column) = start.fixed;
        let distance = (row as u32).abs_diff(fixed_row);
        masks | fixed_queen_squares(distance, column, full) & full
    }

    /// Every subproblem of N up to 16 runs in a lane, ties too (up to 24
    /// but the ties, which stay on the scalar walkers past 16), and its
    /// start forbids in each row below its own the squares the subproblem
    /// forbids, but for squares its queens attack anyway.
    #[test]
    fn every_subproblem_fits_a_lane_as_it_is() {
        let largest = if cfg!(miri) { 8 } else { MAX_N };
        for n in 4..=largest {
            let full = u32::MAX >> (32 - n);
            for sub in subproblems_and_parts(n) {
                let start = if sub.kind.is_tie() {
                    Start::of_tie(&sub)
                } else {
                    Start::of_subproblem(&sub, false)
                };
                let Some(start) = start else {
                    assert!(sub.kind.is_tie() && n > TIES_UP_TO, "N = {n}: {sub:?}");
                    continue;
                };
                for row in sub.start + 1..n {
                    let below = (row - sub.start) as u32;
                    let attacked = (sub.columns | sub.left << below | sub.right >> below) & full;
                    let walked = forbidden_in(&start, n, row) | attacked;
                    let wanted = sub.forbidden[row] & full | attacked;
                    assert_eq!(walked, wanted, "N = {n}, row {row}: {sub:?}");
                }
            }
        }
    }

    /// A tie with a second pre-placed queen (not one the search builds)
    /// does not fit a lane: the walk computes one fixed queen's squares.
    #[test]
    fn a_tie_with_two_fixed_queens_stays_on_the_scalar_walkers() {
        let tie = RootKind::Tie { k: 1 };
        let sub = SearchRoot::new(8, tie, &[1], &[(7, 4), (5, 7)], &[]).expect("no attacks");
        assert_eq!(Start::of_tie(&sub), None);
    }
}
