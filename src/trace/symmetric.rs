//! The symmetric kernel ([`crate::kernel::symmetric`]): the subproblems it
//! splits a board into, and one walker's stack, step by step.

use alloc::vec::Vec;

use super::Columns;
use crate::kernel::symmetric::subproblem::{self, unsplit_subproblems};
use crate::kernel::symmetric::walker;
use crate::{Error, Kernel, MAX_N};

/// Which boards a subproblem covers (see [`crate::kernel::symmetric`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A queen in the corner (row 0, column 0): every board found is the
    /// canonical form of its class, whose orbit is 8.
    Corner,
    /// Row 0's queen in column `k`, and no other edge queen `k` or fewer
    /// squares from a corner: every board found is canonical, orbit 8.
    Edge {
        /// Row 0's queen's column, its distance from the corner.
        k: usize,
    },
    /// Row 0's queen in column `k`, and another edge queen exactly `k`
    /// from a corner, pre-placed: every board found is compared with its
    /// images.
    Tie {
        /// Row 0's queen's column.
        k: usize,
    },
}

/// One subproblem, as the kernel builds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TracedRoot {
    /// The board's size.
    pub n: usize,
    /// Its kind.
    pub kind: Kind,
    /// The queens placed in the first rows, `(row, column)`: rows 0 to
    /// `start - 1`.
    pub queens: Vec<(usize, usize)>,
    /// Queens pre-placed further down, `(row, column)`: their row may use
    /// their column only.
    pub fixed: Vec<(usize, usize)>,
    /// The first row left to fill.
    pub start: usize,
    /// By row: the squares each row may not use beyond the attacks of the
    /// queens placed above (the rules of the kind, and the pre-placed
    /// queens' rows, columns and diagonals).
    pub forbidden: Vec<Columns>,
    /// The squares of row `start` the walk tries: neither attacked nor
    /// forbidden, and leaving the row below a square.
    pub live: Columns,
}

impl TracedRoot {
    fn of(sub: &subproblem::SearchRoot) -> TracedRoot {
        let n = sub.n;
        let full = u32::MAX >> (MAX_N - n);
        let queens = (0..sub.start)
            .map(|row| (row, sub.queens[row].trailing_zeros() as usize))
            .collect();
        let fixed = (0..n)
            .filter(|&row| sub.fixed_rows >> row & 1 != 0)
            .map(|row| (row, (full & !sub.forbidden[row]).trailing_zeros() as usize))
            .collect();
        TracedRoot {
            n,
            kind: match sub.kind {
                subproblem::RootKind::Corner => Kind::Corner,
                subproblem::RootKind::Edge { k } => Kind::Edge { k },
                subproblem::RootKind::Tie { k } => Kind::Tie { k },
                subproblem::RootKind::Plain => {
                    unreachable!("the search builds no plain subproblem")
                }
            },
            queens,
            fixed,
            start: sub.start,
            forbidden: sub.forbidden[..n].iter().map(|&f| f & full).collect(),
            live: sub.live(),
        }
    }
}

/// Every subproblem of an `n`x`n` board (`n` from 4 to 32), in the
/// kernel's order and before it splits any one row further (from N = 12):
/// the corners, then for each `k` its five ties and its edge, those whose
/// queens attack each other left out. Their canonical boards are all
/// classes, each exactly once.
///
/// # Errors
///
/// [`Error::SizeOutOfRange`] for `n` outside 4 to 32.
pub fn subproblems(n: usize) -> Result<Vec<TracedRoot>, Error> {
    super::check_size(Kernel::Symmetric, n, 4, MAX_N)?;
    Ok(unsplit_subproblems(n)
        .map(|sub| TracedRoot::of(&sub))
        .collect())
}

/// An entry of a walker's stack: a row with squares left to try.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The row.
    pub row: usize,
    /// Its squares not tried yet.
    pub live: Columns,
}

/// A walker between two steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TracedWalker {
    /// The stack, bottom first; the next step takes the lowest live square
    /// of the top entry.
    pub stack: Vec<Entry>,
    /// Classes found so far: each live square of row `N - 2` that a step
    /// reaches (for a tie, each such board that is canonical).
    pub found: u64,
}

/// The symmetric kernel's walker on subproblem `index` of
/// [`subproblems(n)`](subproblems), counting classes: its state at the
/// start and after every step, to the end of the walk.
///
/// # Errors
///
/// [`Error::SizeOutOfRange`] for `n` outside 4 to 32;
/// [`Error::MissingSubproblem`] if there is no subproblem `index`.
pub fn walk(n: usize, index: usize) -> Result<Vec<TracedWalker>, Error> {
    super::check_size(Kernel::Symmetric, n, 4, MAX_N)?;
    let sub = unsplit_subproblems(n)
        .nth(index)
        .ok_or_else(|| Error::MissingSubproblem {
            index,
            n,
            subproblems: unsplit_subproblems(n).count(),
        })?;
    let mut states = Vec::new();
    walker::watch(&sub, &mut |stack, found| {
        let stack = stack
            .iter()
            .map(|&(row, live)| Entry { row, live })
            .collect();
        states.push(TracedWalker { stack, found });
    });
    Ok(states)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Classes of the N x N board (OEIS A002562).
    const CLASSES: [u64; 11] = [1, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92];

    #[test]
    fn walks_find_every_class_once_and_move_the_stack_a_row_at_a_time() {
        for (n, &known) in CLASSES.iter().enumerate().skip(4) {
            let mut classes = 0;
            for (index, sub) in subproblems(n).unwrap().iter().enumerate() {
                let states = walk(n, index).unwrap();
                classes += states.last().unwrap().found;
                assert!(states.last().unwrap().stack.is_empty());
                for state in &states {
                    // Rows on the stack run down from the subproblem's
                    // first row and stop above the leaves; each has
                    // squares left.
                    let mut above = sub.start;
                    for entry in &state.stack {
                        assert!(entry.row >= above, "N = {n}, {index}");
                        assert!(entry.row < n - 2 && entry.live != 0);
                        above = entry.row + 1;
                    }
                }
            }
            assert_eq!(classes, known, "N = {n}");
        }
    }

    #[test]
    fn subproblems_hold_their_queens_and_forbid_their_rows() {
        let subs = subproblems(8).unwrap();
        assert!(matches!(subs[0].kind, Kind::Corner));
        assert_eq!(subs[0].queens, [(0, 0), (1, 2)]);
        for sub in &subs {
            for &(row, column) in &sub.fixed {
                assert_eq!(sub.forbidden[row], 0xff & !(1 << column));
            }
        }
        assert!(subproblems(3).is_err() && walk(8, 1000).is_err());
    }
}
