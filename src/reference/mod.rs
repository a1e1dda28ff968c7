//! The seed articles' own algorithms, re-implemented as reference solvers.
//!
//! Each module follows one article's *algorithm* (not its code), generalised
//! to N where the idea allows. They are slow on purpose: they exist to
//! cross-check the fast kernels from independent angles (a square-by-square
//! scan, threat-mask intersection, exhaustive N^N search, permutations) and
//! to let users reproduce the articles' own comparisons, e.g.
//! `queens-simd --kernel brute-force --time 8`. `auto` never picks them
//! (their [`Role`](crate::kernel::Role) is `Reference`).
//!
//! | seed | article | module | kernel name | sizes |
//! |------|---------|--------|-------------|-------|
//! | 000 | "Masquerade ball with eight queens" (2011) | [`bitboard64`] | `bitboard64` | 0..=8 |
//! | 001 | "Haskell Solution to the Eight Queens Problem" (Brian Shourd, 2014) | [`threat_masks`] | `threat-masks` | 0..=8 |
//! | 003 | Andrew Que, brute force (2017) | [`brute_force`] | `brute-force` | 0..=8 |
//! | 004 | Andrew Que, permutations with Heap's algorithm (2017) | [`heap_permutations`] | `heap` | 0..=10 |
//!
//! Seed 002 (davidad's register-only state machine) is not here: it is the
//! model of the fast SIMD kernels in [`crate::kernel`].
//!
//! The three bitboard solvers (000, 001, 003) use the seed-000 layout, one
//! `u64` with bit `row * 8 + col` (least significant bit = row 0 column 0),
//! and keep the 8x8 geometry for smaller N: they simply use only the squares
//! with `row < N` and `col < N`.

pub mod bitboard64;
pub mod brute_force;
pub mod heap_permutations;
pub mod threat_masks;

use core::ops::ControlFlow;

use crate::kernel::Visit;
use crate::{Board, Count, Error};

/// Runs `search`, which reports each solution as a seed-000 bitboard of an
/// `n`x`n` board, and hands each one to `visit` as a [`Board`].
///
/// A bitboard that is not one queen per row and column (a bug in the search)
/// stops the search and comes back as the error of
/// [`Board::from_bitboard`], so no reference solver panics.
pub(crate) fn visit_bitboards(
    n: usize,
    visit: Visit<'_>,
    search: impl FnOnce(&mut dyn FnMut(u64) -> ControlFlow<()>) -> ControlFlow<()>,
) -> Result<ControlFlow<()>, Error> {
    let mut error = None;
    let flow = search(&mut |bits| match Board::from_bitboard(n, bits) {
        Ok(board) => visit(&board),
        Err(e) => {
            error = Some(e);
            ControlFlow::Break(())
        }
    });
    match error {
        Some(e) => Err(e),
        None => Ok(flow),
    }
}

/// The number of boards `search` reports: the reference solvers count by
/// enumerating, as their articles do.
pub(crate) fn count_found(
    search: impl FnOnce(&mut dyn FnMut(u64) -> ControlFlow<()>) -> ControlFlow<()>,
) -> Count {
    let mut found: Count = 0;
    // The closure never breaks: the flow carries nothing.
    let _ = search(&mut |_| {
        found += 1;
        ControlFlow::Continue(())
    });
    found
}

/// Shared checks for the reference solvers' unit tests.
#[cfg(test)]
pub(crate) mod tests {
    use crate::{Count, Solver};

    /// Solutions for N = 0..=10 (OEIS A000170).
    pub const COUNTS: [Count; 11] = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724];

    /// Checks `solver` on every N up to `max`: the count, the listed boards
    /// (all solutions, all distinct, as many as counted), and that `max + 1`
    /// is refused.
    pub fn check_solver(solver: &dyn Solver, max: usize) {
        for (n, &expected) in COUNTS.iter().enumerate().take(max + 1) {
            assert_eq!(solver.count(n).unwrap(), expected, "count, n = {n}");
            let mut boards = solver.solutions(n).unwrap();
            assert_eq!(boards.len() as Count, expected, "listed, n = {n}");
            assert!(
                boards.iter().all(|b| b.n() == n && b.is_solution()),
                "n = {n}"
            );
            boards.sort_unstable();
            boards.dedup();
            assert_eq!(boards.len() as Count, expected, "duplicates, n = {n}");
        }
        assert!(solver.count(max + 1).is_err());
        assert!(solver.solutions(max + 1).is_err());
    }

    /// Checks that a visitor returning `Break` stops the enumeration.
    pub fn check_break(solver: &dyn Solver, n: usize) {
        let mut seen = 0;
        let flow = solver
            .for_each_solution(n, &mut |_| {
                seen += 1;
                if seen == 3 {
                    core::ops::ControlFlow::Break(())
                } else {
                    core::ops::ControlFlow::Continue(())
                }
            })
            .unwrap();
        assert!(flow.is_break());
        assert_eq!(seen, 3);
    }
}
