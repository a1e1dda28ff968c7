//! The portable kernel: classic bitmask backtracking, iterative with an
//! explicit stack, for every N from 0 to 32 on any target.
//!
//! Three masks describe the row being filled, one bit per column:
//! `columns` holds the columns already taken, `left` the squares attacked
//! along diagonals running down-left (shifted left one column per row) and
//! `right` those along diagonals running down-right (shifted right). The free
//! squares of the row are `full & !(columns | left | right)`; the lowest one
//! is `free & free.wrapping_neg()`. A queen is placed by OR-ing its bit into
//! all three masks and shifting the diagonals one step. The stack keeps, for
//! every row above, the squares not yet tried and the masks to restore.
//!
//! `u32` masks suffice for N <= 32: a diagonal bit shifted past column 31 or
//! below column 0 can never attack the board again.
//!
//! This kernel is the oracle every other kernel is checked against.

use core::ops::ControlFlow;

use crate::kernel::{Visit, kernel_type};
use crate::{Board, Count, Error, Kernel, MAX_N, Solver};

kernel_type! {
    /// The portable kernel. Runs on every target.
    #[derive(Default)]
    pub struct Portable = Kernel::Portable;
}

/// The search state of one row: squares still to try, and the masks that
/// produced them.
#[derive(Clone, Copy, Default)]
struct Frame {
    free: u32,
    columns: u32,
    left: u32,
    right: u32,
}

/// Mask of the `n` columns of the board (`n` from 1 to 32).
#[inline]
fn full_row(n: usize) -> u32 {
    debug_assert!((1..=MAX_N).contains(&n));
    u32::MAX >> (MAX_N - n)
}

/// The deepest stack a small board needs: boards up to this N count with
/// a stack of this many rows.
const SMALL_STACK: usize = 8;

/// Counts the solutions for `n` from 1 to 32, with a stack as deep as the
/// board needs: on a small board, zeroing the 512 bytes of a 32-row stack
/// took longer than the search, and left `count(1)` behind davidad's
/// machine, whose stack holds 16 rows (BENCHMARKS.md, "Zen 4: N = 8
/// against the peer, and `auto`").
#[inline(always)]
fn count_solutions(n: usize) -> Count {
    if n <= SMALL_STACK {
        count_with_stack::<SMALL_STACK>(n)
    } else {
        count_with_stack::<MAX_N>(n)
    }
}

/// Counts the solutions for `n` from 1 to `DEPTH`, with a stack of `DEPTH`
/// rows (`DEPTH` at most 32). Never inlined, so that its prologue (six
/// registers saved, the stack zeroed) stays off `count`'s path for the
/// empty board.
#[inline(never)]
fn count_with_stack<const DEPTH: usize>(n: usize) -> Count {
    debug_assert!((1..=DEPTH).contains(&n) && DEPTH <= MAX_N);
    let full = full_row(n);
    let last = n - 1;
    // The stack, one array per field of `Frame`, indexed by depth. A pop
    // then loads from `array + 4 * depth`, an address x86-64 forms in the
    // load itself, straight from the depth before the decrement. With an
    // array of `Frame`s (16 bytes, a scale no addressing mode has) or a
    // masked index, one or two more operations would sit between the
    // decrement and the load, and from there on the path to the test of the
    // restored row's free squares, a branch that is often mispredicted and
    // so costs its full latency (see benches/c/compare.sh).
    //
    // The indexing is plain and checked: `depth < last < DEPTH` at every
    // push and `depth - 1 < last` at every pop, so the checks never fail;
    // they are predicted branches beside the loads, not in front of them.
    let mut stack_free = [0u32; DEPTH];
    let mut stack_columns = [0u32; DEPTH];
    let mut stack_left = [0u32; DEPTH];
    let mut stack_right = [0u32; DEPTH];
    let mut depth = 0;
    // The columns off the board (`!full`) start out taken, so that
    // `!(columns | left | right)` is already `full & !(columns | left |
    // right)`: one operation less on the path from a queen to the test of
    // the next row's free squares. Diagonal bits shifted past column n - 1
    // land on these taken columns and change nothing.
    let mut top = Frame {
        free: full,
        columns: !full,
        ..Frame::default()
    };
    let mut solutions: Count = 0;
    loop {
        if top.free != 0 {
            let bit = top.free & top.free.wrapping_neg();
            top.free ^= bit;
            if depth == last {
                solutions += 1;
                continue;
            }
            let columns = top.columns | bit;
            let left = (top.left | bit) << 1;
            let right = (top.right | bit) >> 1;
            let free = !(columns | left | right);
            // A row below with no free square is a dead end: it is visited
            // (its squares are computed and found empty) but no frame is
            // pushed for it only to be popped straight away. This visits
            // the same rows in the same order as pushing it would, with
            // less stack traffic.
            if free == 0 {
                continue;
            }
            stack_free[depth] = top.free;
            stack_columns[depth] = top.columns;
            stack_left[depth] = top.left;
            stack_right[depth] = top.right;
            depth += 1;
            top = Frame {
                free,
                columns,
                left,
                right,
            };
        } else if depth == 0 {
            return solutions;
        } else {
            depth -= 1;
            top = Frame {
                free: stack_free[depth],
                columns: stack_columns[depth],
                left: stack_left[depth],
                right: stack_right[depth],
            };
        }
    }
}

/// The portable kernel's solutions as an iterator: the search is a state
/// machine that stops at each solution and resumes on the next call.
#[derive(Clone)]
pub struct Solutions {
    n: usize,
    full: u32,
    depth: usize,
    top: Frame,
    stack: [Frame; MAX_N],
    queens: [u8; MAX_N],
    /// N = 0 has one solution, the empty board, yielded once.
    empty_board_pending: bool,
}

impl Solutions {
    /// The solutions on an `n`x`n` board, `n` from 0 to 32.
    ///
    /// # Errors
    ///
    /// [`Error::SizeOutOfRange`] if `n` is over 32.
    pub fn new(n: usize) -> Result<Solutions, Error> {
        Solutions::in_first_row(n, u32::MAX)
    }

    /// The solutions on an `n`x`n` board whose row-0 queen stands in a
    /// column of `first_row` (bit `c` for column `c`; any `first_row`, its
    /// bits from `n` up ignored); the search never enters the other columns
    /// of row 0. For N = 0 the empty board.
    ///
    /// # Errors
    ///
    /// [`Error::SizeOutOfRange`] if `n` is over 32.
    pub fn in_first_row(n: usize, first_row: u32) -> Result<Solutions, Error> {
        Kernel::Portable.check_size(n)?;
        let full = if n == 0 { 0 } else { full_row(n) };
        Ok(Solutions {
            n,
            full,
            depth: 0,
            top: Frame {
                free: full & first_row,
                ..Frame::default()
            },
            stack: [Frame::default(); MAX_N],
            queens: [0; MAX_N],
            empty_board_pending: n == 0,
        })
    }
}

impl Iterator for Solutions {
    type Item = Board;

    fn next(&mut self) -> Option<Board> {
        if self.empty_board_pending {
            self.empty_board_pending = false;
            return Some(Board::EMPTY);
        }
        let last = self.n.checked_sub(1)?;
        loop {
            if self.top.free != 0 {
                let bit = self.top.free & self.top.free.wrapping_neg();
                self.top.free ^= bit;
                self.queens[self.depth & (MAX_N - 1)] = bit.trailing_zeros() as u8;
                if self.depth == last {
                    return Some(Board::from_permutation(&self.queens[..self.n]));
                }
                let columns = self.top.columns | bit;
                let left = (self.top.left | bit) << 1;
                let right = (self.top.right | bit) >> 1;
                let free = self.full & !(columns | left | right);
                // A dead end gets no frame, as in `count_solutions`.
                if free == 0 {
                    continue;
                }
                self.stack[self.depth & (MAX_N - 1)] = self.top;
                self.depth += 1;
                self.top = Frame {
                    free,
                    columns,
                    left,
                    right,
                };
            } else if self.depth == 0 {
                return None;
            } else {
                self.depth -= 1;
                self.top = self.stack[self.depth & (MAX_N - 1)];
            }
        }
    }
}

impl core::iter::FusedIterator for Solutions {}

impl Solver for Portable {
    fn kernel(&self) -> Kernel {
        Kernel::Portable
    }

    fn count(&self, n: usize) -> Result<Count, Error> {
        Kernel::Portable.check_size(n)?;
        Ok(if n == 0 { 1 } else { count_solutions(n) })
    }

    fn for_each_solution(&self, n: usize, visit: Visit<'_>) -> Result<ControlFlow<()>, Error> {
        self.for_each_solution_in_first_row(n, u32::MAX, visit)
    }

    fn for_each_solution_in_first_row(
        &self,
        n: usize,
        first_row: u32,
        visit: Visit<'_>,
    ) -> Result<ControlFlow<()>, Error> {
        Ok(Solutions::in_first_row(n, first_row)?
            .into_iter()
            .try_for_each(|board| visit(&board)))
    }
}

/// The oracle for the other kernels' unit tests, at this layer: the
/// portable kernel, without the dispatcher above.
#[cfg(test)]
pub(crate) fn oracle() -> &'static Portable {
    Portable::new()
        .expect("the portable kernel runs everywhere")
        .as_static()
}

/// The oracle's fundamental solutions at `n`, sorted.
#[cfg(test)]
pub(crate) fn oracle_fundamental(n: usize) -> Vec<Board> {
    let mut all = Vec::new();
    let _ = oracle().for_each_fundamental(n, &mut |board| {
        all.push(*board);
        ControlFlow::Continue(())
    });
    all.sort_unstable();
    all
}

/// The oracle's count at `n`.
#[cfg(test)]
pub(crate) fn oracle_count(n: usize) -> Count {
    oracle()
        .count(n)
        .expect("the portable kernel takes N up to 32")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The largest N the enumeration tests solve. Miri (`.ci/miri`) runs
    /// this code some thousand times slower than a native build, so under it
    /// the same assertions run on boards up to N = 7 (40 solutions) instead
    /// of N = 9 (352).
    const ENUMERATED_UP_TO: usize = if cfg!(miri) { 7 } else { 9 };

    #[test]
    fn small_counts() {
        let counts: Vec<Count> = (0..=8).map(|n| Portable(()).count(n).unwrap()).collect();
        assert_eq!(counts, [1, 1, 0, 0, 2, 10, 4, 40, 92]);
    }

    #[test]
    fn iterator_matches_count_and_is_fused() {
        for n in 0..=ENUMERATED_UP_TO {
            let mut it = Solutions::new(n).unwrap();
            let listed = it.by_ref().count() as Count;
            assert_eq!(listed, Portable(()).count(n).unwrap(), "n = {n}");
            assert_eq!(it.next(), None);
        }
    }

    /// `for_each_solution` visits the iterator's solutions in its order;
    /// `for_each_solution_in_first_row` those with their row-0 queen in the
    /// given columns (bits from N up ignored); a `Break` stops the search.
    #[test]
    fn for_each_solution_follows_the_iterator_and_stops_on_break() {
        let collect = |n: usize, first_row: u32| {
            let mut found = Vec::new();
            let flow = Portable(())
                .for_each_solution_in_first_row(n, first_row, &mut |board| {
                    found.push(*board);
                    ControlFlow::Continue(())
                })
                .unwrap();
            assert_eq!(flow, ControlFlow::Continue(()), "n = {n}");
            found
        };
        for n in 0..=ENUMERATED_UP_TO {
            let expected: Vec<Board> = Solutions::new(n).unwrap().collect();
            let mut all = Vec::new();
            let flow = Portable(())
                .for_each_solution(n, &mut |board| {
                    all.push(*board);
                    ControlFlow::Continue(())
                })
                .unwrap();
            assert_eq!(flow, ControlFlow::Continue(()), "n = {n}");
            assert_eq!(all, expected, "n = {n}");
            assert!(all.iter().all(|b| b.n() == n && b.is_solution()), "n = {n}");
            for col in 0..n {
                let in_col: Vec<Board> = expected
                    .iter()
                    .filter(|b| usize::from(b.columns()[0]) == col)
                    .copied()
                    .collect();
                assert_eq!(collect(n, 1 << col), in_col, "n = {n}, column {col}");
            }
            if n > 0 {
                assert_eq!(collect(n, u32::MAX << n), [], "n = {n}");
            }
            let mut visited = 0;
            let flow = Portable(())
                .for_each_solution(n, &mut |_| {
                    visited += 1;
                    ControlFlow::Break(())
                })
                .unwrap();
            let stopped = !expected.is_empty();
            assert_eq!(flow.is_break(), stopped, "n = {n}");
            assert_eq!(visited, usize::from(stopped), "n = {n}");
        }
    }

    #[test]
    fn rejects_n_above_32() {
        assert!(Portable(()).count(33).is_err());
        assert!(Solutions::new(33).is_err());
        assert!(
            Portable(())
                .for_each_solution(33, &mut |_| ControlFlow::Continue(()))
                .is_err()
        );
    }
}
