//! The tie subproblems in lanes: walked like the others, each leaf checked
//! against its images on the scalar side.
//!
//! A tie subproblem (`RootKind::Tie`) pre-places a queen further down the
//! board, so its forbidden squares differ from row to row (the queen's
//! column and both diagonals): more than the two masks a lane carries for
//! the corners and edges. So a tie's lane also holds that queen's row and
//! column, and each step computes the squares it forbids in the next two
//! rows with a few shifts (`Start::of_tie`, `walk::fixed_queen`).
//!
//! And a tie's leaves are not all worth the same: each board is compared
//! with its images, and counts its orbit only if it is its class's
//! canonical form. So a tie's lane also keeps its path, the column of each
//! row's queen in 4 bits, which every step writes for its row; a lane that
//! reaches a leaf (rare: some 600 times at N = 12, against some 50,000
//! lane steps) hands it to [`TieStarts::score`], which builds the board and
//! checks it as the scalar walkers do.

use core::borrow::Borrow;

use super::start::Start;
use super::walk::{LANE_SLOTS, Leaves};
use crate::Count;
use crate::kernel::symmetric::live_squares;
use crate::kernel::symmetric::subproblem::SearchRoot;

/// Tie subproblems as the walk's starts (`S`: owned or borrowed, each with
/// its lane's start), their leaves checked one by one.
pub(crate) struct TieStarts<S> {
    n: usize,
    /// Whether to count classes rather than solutions.
    classes: bool,
    /// The subproblem each lane walks.
    walked: [Option<S>; LANE_SLOTS],
    /// What each lane's leaves scored since its start.
    totals: [Count; LANE_SLOTS],
}

impl<S: Borrow<SearchRoot>> TieStarts<S> {
    /// For tie subproblems of an `n`x`n` board.
    pub(crate) fn new(n: usize, classes: bool) -> TieStarts<S> {
        TieStarts {
            n,
            classes,
            walked: core::array::from_fn(|_| None),
            totals: [0; LANE_SLOTS],
        }
    }
}

impl<S: Borrow<SearchRoot>> Leaves for TieStarts<S> {
    const CHECKED: bool = true;
    type Item = (Start, S);

    #[inline(always)]
    fn start((start, _): &(Start, S)) -> Start {
        *start
    }

    #[inline(always)]
    fn at_once(&self, n: usize, (_, sub): &(Start, S)) -> Option<Count> {
        let sub = sub.borrow();
        let live = sub.live();
        if live == 0 {
            Some(0)
        } else if sub.start + 2 >= n {
            debug_assert_eq!(sub.start + 2, n);
            let masks = (sub.columns, sub.left, sub.right);
            Some(Count::from(sub.checked_leaves(
                &sub.queens,
                masks,
                live,
                self.classes,
            )))
        } else {
            None
        }
    }

    #[inline(always)]
    fn begin(&mut self, slot: usize, (_, sub): (Start, S)) {
        self.walked[slot] = Some(sub);
    }

    fn score(&mut self, slot: usize, path: u64) {
        let sub = self.walked[slot]
            .as_ref()
            .expect("a lane at a leaf walks a subproblem");
        let sub = sub.borrow();
        let n = self.n;
        let mut queens = sub.queens;
        let (mut columns, mut left, mut right) = (sub.columns, sub.left, sub.right);
        for (row, queen) in queens.iter_mut().enumerate().take(n - 2).skip(sub.start) {
            *queen = 1 << (path >> (4 * row) & 0xF);
            columns |= *queen;
            left = (left | *queen) << 1;
            right = (right | *queen) >> 1;
        }
        let leaves = live_squares(
            columns,
            left,
            right,
            sub.forbidden[n - 2],
            sub.forbidden[n - 1],
        );
        debug_assert_ne!(leaves, 0, "a leaf of {sub:?}");
        let masks = (columns, left, right);
        self.totals[slot] += Count::from(sub.checked_leaves(&queens, masks, leaves, self.classes));
    }

    #[inline(always)]
    fn take(&mut self, slot: usize) -> Count {
        self.walked[slot] = None;
        core::mem::take(&mut self.totals[slot])
    }
}
