//! Seed 004, Andrew Que's permutations (2017): Heap's algorithm over the N!
//! arrangements with one queen per row and per column, checking only the
//! diagonals.
//!
//! # The algorithm
//!
//! Every solution has exactly one queen in each row and each column, so it is
//! a permutation of the columns. The state packs each row's column into a
//! fixed-width bit field, row 0 lowest, starting from the identity (queen `r`
//! in column `r`). Heap's algorithm, in its iterative form with one counter
//! per position, walks all N! permutations, each one a single swap of two
//! fields away from the previous.
//!
//! Each permutation is checked row by row against two diagonal masks: the
//! queen on (`row`, `column`) owns bit `column + row` of one and bit
//! `column + N - 1 - row` of the other; a bit already set is a threat and
//! ends the check. Rows and columns need no check at all.
//!
//! # Faithful
//!
//! The packed state and its swap of two bit fields by masks and one shift,
//! the iterative Heap's algorithm with its counters (swap position `i` with
//! position 0 when `i` is even, with position `counter[i]` when odd), and
//! the diagonal-only check that stops at the first threat. The article's
//! own timing is beside ours in BENCHMARKS.md, "Seeds".
//!
//! # Generalised, and one fix
//!
//! * N from 0 to 10 instead of 8 only: the fields are 4 bits wide instead of
//!   the article's 3, so columns up to 9 fit (40 bits of a `u64`), and the
//!   diagonal masks have `2N - 1` bits. 10! = 3,628,800 permutations is the
//!   practical limit. N = 0 has one permutation, the empty one.
//! * The article runs its loop exactly N! times but starts it with a swap of
//!   position 0 with itself, so it checks the starting arrangement twice and
//!   never reaches Heap's last permutation (for N = 8 that is
//!   `5 6 1 2 3 4 7 0`, not a solution, so its 92 are right). Here the loop
//!   ends when the counters run out, so each of the N! permutations is
//!   checked exactly once.
//! * Solutions go to a visitor, which may stop the search, instead of being
//!   printed as hex; the count is the number of boards visited.

use core::ops::ControlFlow;

use crate::kernel::{Visit, kernel_type};
use crate::reference::count_found;
use crate::{Board, Count, Error, Kernel, Solver};

/// Largest N: 10! = 3,628,800 permutations.
const MAX_ROWS: usize = 10;

/// Bits per row in the packed state: enough for columns 0..=15.
const COLUMN_BITS: usize = 4;

/// Selects the lowest field.
const COLUMN_BIT_MASK: u64 = (1 << COLUMN_BITS) - 1;

kernel_type! {
    /// The seed-004 solver, N from 0 to 10.
    #[derive(Default)]
    pub struct HeapPermutations = Kernel::HeapPermutations;
}

/// The identity arrangement of `n` rows: queen `r` in column `r`.
fn identity(n: usize) -> u64 {
    (0..n).fold(0, |state, row| state | (row as u64) << (row * COLUMN_BITS))
}

/// Whether no two queens of the packed `state` (`n` rows) share a diagonal.
#[inline]
fn diagonals_free(n: usize, state: u64) -> bool {
    let mut left_diagonal = 0u32;
    let mut right_diagonal = 0u32;
    let mut sub_state = state;
    for row in 0..n {
        let column = (sub_state & COLUMN_BIT_MASK) as usize;
        sub_state >>= COLUMN_BITS;
        let left_mask = 1 << (column + row);
        let right_mask = 1 << (column + n - 1 - row);
        if (left_diagonal & left_mask) | (right_diagonal & right_mask) != 0 {
            return false;
        }
        left_diagonal |= left_mask;
        right_diagonal |= right_mask;
    }
    true
}

/// Swaps the fields of positions `a > b` in `state`.
#[inline]
fn swap_fields(state: u64, a: usize, b: usize) -> u64 {
    let index_a = a * COLUMN_BITS;
    let index_b = b * COLUMN_BITS;
    let mask_a = COLUMN_BIT_MASK << index_a;
    let mask_b = COLUMN_BIT_MASK << index_b;
    let distance = index_a - index_b;
    ((state & mask_b) << distance) | ((state & mask_a) >> distance) | (state & !(mask_a | mask_b))
}

/// Walks the `n!` permutations of `n` columns (`n` up to 10) with Heap's
/// algorithm and calls `each` with every packed state, the identity first.
fn permutations<F>(n: usize, each: &mut F) -> ControlFlow<()>
where
    F: FnMut(u64) -> ControlFlow<()> + ?Sized,
{
    debug_assert!(n <= MAX_ROWS);
    let mut state = identity(n);
    let mut counters = [0usize; MAX_ROWS];
    loop {
        each(state)?;
        // The lowest position whose counter has not reached it; the
        // counters below it start again.
        let mut i = 1;
        while i < n && counters[i] >= i {
            counters[i] = 0;
            i += 1;
        }
        if i >= n {
            return ControlFlow::Continue(());
        }
        let partner = if i % 2 == 1 { counters[i] } else { 0 };
        state = swap_fields(state, i, partner);
        counters[i] += 1;
    }
}

/// Calls `found` with every packed state of `n` rows whose diagonals are
/// free, in Heap's order.
fn search<F>(n: usize, found: &mut F) -> ControlFlow<()>
where
    F: FnMut(u64) -> ControlFlow<()> + ?Sized,
{
    permutations(n, &mut |state| {
        if diagonals_free(n, state) {
            found(state)
        } else {
            ControlFlow::Continue(())
        }
    })
}

/// The board of a packed state of `n` rows.
fn board(n: usize, state: u64) -> Board {
    let mut columns = [0u8; MAX_ROWS];
    for (row, column) in columns.iter_mut().take(n).enumerate() {
        *column = ((state >> (row * COLUMN_BITS)) & COLUMN_BIT_MASK) as u8;
    }
    // Heap's algorithm only swaps fields of the identity: a permutation.
    Board::from_permutation(&columns[..n])
}

impl Solver for HeapPermutations {
    fn kernel(&self) -> Kernel {
        Kernel::HeapPermutations
    }

    fn count(&self, n: usize) -> Result<Count, Error> {
        Kernel::HeapPermutations.check_size(n)?;
        Ok(count_found(|found| search(n, found)))
    }

    fn for_each_solution(&self, n: usize, visit: Visit<'_>) -> Result<ControlFlow<()>, Error> {
        Kernel::HeapPermutations.check_size(n)?;
        Ok(search(n, &mut |state| visit(&board(n, state))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::tests::{check_break, check_solver};

    #[test]
    fn counts_and_boards() {
        check_solver(&HeapPermutations(()), MAX_ROWS);
        check_break(&HeapPermutations(()), 8);
    }

    #[test]
    fn visits_every_permutation_once() {
        for n in 0..=7 {
            let mut all = Vec::new();
            let _ = permutations(n, &mut |state| {
                all.push(board(n, state));
                ControlFlow::Continue(())
            });
            let listed = all.len();
            all.sort_unstable();
            all.dedup();
            assert_eq!(all.len(), listed, "n = {n}");
            assert_eq!(all.len(), (1..=n).product::<usize>(), "n = {n}");
        }
    }
}
