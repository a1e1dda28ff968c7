//! The counting walkers: the branch-free search that counts subproblems,
//! several at a time.

use core::borrow::Borrow;

use super::live_squares;
use super::subproblem::{RootKind, SearchRoot, subproblems};
use crate::{Count, MAX_N};

/// Entries of a walker's per-row arrays: a power of two, so that indices
/// masked with `SLOTS - 1` need no bounds check, and at least `MAX_N`: a
/// walk reads rows up to `N - 1` and keeps at most `N - 2` entries, from
/// slot 1.
const SLOTS: usize = 32;
const _: () = assert!(SLOTS.is_power_of_two() && SLOTS >= MAX_N);

/// Entries of a walker's per-row tables, which are indexed not by the row
/// but by the number of bits set in the `columns` mask of its queens above:
/// `columns` starts with the `32 - N` columns off the board set and gains
/// one bit per row, so row `r` is entry `32 - N + r`, which a `popcnt`
/// gives without loading anything, and the row before last is always entry
/// [`LEAF_ENTRY`]. A power of two above 32, so that masked indices need no
/// bounds check.
const ROW_ENTRIES: usize = 64;
const _: () = assert!(ROW_ENTRIES.is_power_of_two() && ROW_ENTRIES > MAX_N + 1);

/// The row-table entry of the row before last, `N - 2`, for every N.
const LEAF_ENTRY: usize = MAX_N - 2;

/// The row-table entry of the row below the queens of `columns`.
#[inline(always)]
fn row_entry(columns: u32) -> usize {
    columns.count_ones() as usize
}

/// One entry of a [`Walker`]'s stack: a row with squares left to try and
/// the masks they were found with, 16 bytes stored and loaded together.
#[derive(Clone, Copy, Default)]
#[repr(C, align(16))]
struct StackEntry {
    live: u32,
    columns: u32,
    left: u32,
    right: u32,
}

/// The counting search of one subproblem, reshaped so that every step
/// places a queen and none merely backtracks, and driven one step at a time
/// so that several walkers can take turns (see [`count_all`]). `TIES`: the
/// subproblems are of [`RootKind::Tie`], whose leaves are checked one by one.
///
/// The stack holds only rows with squares left to try. A step takes the
/// lowest live square of the top entry, drops the entry if that was its
/// last, and pushes the child row unless it is at the leaves (whose live
/// squares it then counts) or has none. Both moves of the stack pointer are
/// arithmetic on flags, not branches: without ties, no branch depends on
/// the board. What limits a walker is then the chain from one step's stack
/// pointer to the next one's, through a load and the child's masks; a
/// second walker's steps fill that wait.
struct Walker<const TIES: bool> {
    sub: SearchRoot,
    /// Index of the top entry; 0 when the walk is over (slot 0 is unused).
    top: usize,
    entries: [StackEntry; SLOTS],
    /// The subproblem's forbidden columns, by row-table entry (see
    /// [`ROW_ENTRIES`]).
    forbidden: [u32; ROW_ENTRIES],
    /// With `TIES`, the queen of each row on the current path, one bit, by
    /// row-table entry.
    queens: [u32; ROW_ENTRIES],
    /// Whether to count classes rather than solutions.
    classes: bool,
    /// Each unchecked leaf counts `orbit`: 1 for classes, else the orbit of
    /// the subproblem's kind (see [`RootKind::orbit`]).
    orbit: u64,
    /// The caller's name for the subproblem being walked, if any.
    id: Option<usize>,
    /// Leaves found without ties, each worth `orbit`.
    leaves: u64,
    /// Solutions or classes of the checked leaves.
    total: u64,
}

impl<const TIES: bool> Walker<TIES> {
    fn idle(classes: bool) -> Self {
        Walker {
            sub: SearchRoot {
                n: 4,
                kind: RootKind::Corner,
                start: 0,
                fixed_rows: 0,
                queens: [0; MAX_N],
                columns: 0,
                left: 0,
                right: 0,
                forbidden: [0; MAX_N + 1],
            },
            top: 0,
            forbidden: [0; ROW_ENTRIES],
            entries: [StackEntry::default(); SLOTS],
            queens: [0; ROW_ENTRIES],
            classes,
            orbit: 1,
            id: None,
            leaves: 0,
            total: 0,
        }
    }

    /// The finished walk's subproblem and its solutions or classes, if it
    /// walked one; the walker is then idle.
    fn take_result(&mut self) -> Option<(usize, Count)> {
        debug_assert!(!self.running());
        let total = Count::from(self.orbit) * Count::from(self.leaves) + Count::from(self.total);
        (self.leaves, self.total) = (0, 0);
        self.id.take().map(|id| (id, total))
    }

    /// Whether the walk has steps left.
    #[inline(always)]
    fn running(&self) -> bool {
        self.top != 0
    }

    /// Starts walking `sub`, named `id` (the previous walk must be over and
    /// its result taken).
    fn start(&mut self, id: usize, sub: &SearchRoot) {
        debug_assert_eq!(sub.kind.is_tie(), TIES);
        debug_assert!(self.id.is_none());
        self.id = Some(id);
        self.orbit = if self.classes { 1 } else { sub.kind.orbit() };
        let n = sub.n;
        let first = row_entry(sub.columns) - sub.start;
        self.forbidden[first..first + n + 1].copy_from_slice(&sub.forbidden[..n + 1]);
        if TIES {
            // Only the checks at the leaves read the placed queens and the
            // subproblem itself.
            self.queens[first..first + n].copy_from_slice(&sub.queens[..n]);
            self.sub.clone_from(sub);
        }
        let start = sub.start;
        let live = sub.live();
        let (columns, left, right) = (sub.columns, sub.left, sub.right);
        if start == n - 2 {
            self.score(columns, left, right, live);
            self.top = 0;
        } else {
            self.top = usize::from(live != 0);
            self.entries[1] = StackEntry {
                live,
                columns,
                left,
                right,
            };
        }
    }

    /// Adds `leaves`, live squares of row `N - 2` (whose masks are given),
    /// to the total.
    #[inline(always)]
    fn score(&mut self, columns: u32, left: u32, right: u32, leaves: u32) {
        if !TIES {
            self.leaves += u64::from(leaves.count_ones());
        } else if leaves != 0 {
            self.total += self.score_ties(columns, left, right, leaves);
        }
    }

    /// One step of the walk (which must be running).
    #[inline(always)]
    fn step(&mut self) {
        let top = self.top & (SLOTS - 1);
        let entry = self.entries[top];
        let bit = entry.live & entry.live.wrapping_neg();
        let rest = entry.live ^ bit;
        self.entries[top].live = rest;
        // The row-table entry of the entry's row, from its columns mask,
        // in parallel with the bit scan.
        let row = row_entry(entry.columns);
        if TIES {
            self.queens[row & (ROW_ENTRIES - 1)] = bit;
        }
        let columns = entry.columns | bit;
        let left = (entry.left | bit) << 1;
        let right = (entry.right | bit) >> 1;
        let next = row + 1;
        let forbidden = &self.forbidden;
        let child = live_squares(
            columns,
            left,
            right,
            forbidden[next & (ROW_ENTRIES - 1)],
            forbidden[(next + 1) & (ROW_ENTRIES - 1)],
        );
        let at_leaf = next == LEAF_ENTRY;
        // Drop the entry once its last square is taken; write the child
        // where it goes, but count it in only if it is alive and not at
        // the leaves.
        let top = top - usize::from(rest == 0);
        let slot = (top + 1) & (SLOTS - 1);
        self.entries[slot] = StackEntry {
            live: child,
            columns,
            left,
            right,
        };
        self.top = top + usize::from(!at_leaf & (child != 0));
        self.score(
            columns,
            left,
            right,
            child & u32::from(at_leaf).wrapping_neg(),
        );
    }

    /// The leaves of a tie subproblem, each checked in full.
    #[cold]
    #[inline(never)]
    fn score_ties(&self, columns: u32, left: u32, right: u32, leaves: u32) -> u64 {
        let n = self.sub.n;
        let first = MAX_N - n;
        let mut queens = [0u32; MAX_N];
        queens[..n].copy_from_slice(&self.queens[first..first + n]);
        self.sub
            .checked_leaves(&queens, (columns, left, right), leaves, self.classes)
    }
}

/// What [`watch`] calls after each step.
#[cfg(feature = "trace")]
pub(crate) type AfterStep<'a> = dyn FnMut(&[(usize, u32)], u64) + 'a;

/// Walks `sub` alone, one step at a time, and after its start and each
/// step calls `after_step` with its stack (bottom first: each entry's row
/// and live squares) and the solutions counted so far (unweighted by the
/// orbit). The trace's view of a walker.
#[cfg(feature = "trace")]
pub(crate) fn watch(sub: &SearchRoot, after_step: &mut AfterStep<'_>) {
    fn walk<const TIES: bool>(sub: &SearchRoot, after_step: &mut AfterStep<'_>) {
        let mut walker = Walker::<TIES>::idle(true);
        walker.start(0, sub);
        // Row r's entries have the 32 - N off-board columns and r queens.
        let off_board = MAX_N - sub.n;
        let mut report = |walker: &Walker<TIES>| {
            let stack: alloc::vec::Vec<(usize, u32)> = walker.entries[1..=walker.top]
                .iter()
                .map(|entry| (row_entry(entry.columns) - off_board, entry.live))
                .collect();
            after_step(&stack, walker.leaves + walker.total);
        };
        report(&walker);
        while walker.running() {
            walker.step();
            report(&walker);
        }
    }
    if sub.kind.is_tie() {
        walk::<true>(sub, after_step);
    } else {
        walk::<false>(sub, after_step);
    }
}

/// Walkers that take turns, step for step: independent searches whose
/// chains of latency overlap.
const WALKERS: usize = 3;

/// Counts every subproblem of `subproblems` (`(id, subproblem)` pairs, all
/// of kind [`RootKind::Tie`] exactly when `TIES`), by [`WALKERS`] walkers in
/// turn, and calls `done(id, solutions)` (or classes, with `classes`) as
/// each one finishes, in no particular order.
#[inline(always)]
pub(crate) fn count_with<const TIES: bool, S: Borrow<SearchRoot>>(
    mut subproblems: impl Iterator<Item = (usize, S)>,
    classes: bool,
    mut done: impl FnMut(usize, Count),
) {
    let mut walkers: [Walker<TIES>; WALKERS] = core::array::from_fn(|_| Walker::idle(classes));
    let mut more = true;
    loop {
        // Give every idle walker a subproblem that has steps.
        for walker in &mut walkers {
            while more && !walker.running() {
                if let Some((id, total)) = walker.take_result() {
                    done(id, total);
                }
                match subproblems.next() {
                    Some((id, sub)) => walker.start(id, sub.borrow()),
                    None => more = false,
                }
            }
        }
        if !more {
            break;
        }
        while walkers.iter().all(Walker::running) {
            for walker in &mut walkers {
                walker.step();
            }
        }
    }
    for walker in &mut walkers {
        while walker.running() {
            walker.step();
        }
        if let Some((id, total)) = walker.take_result() {
            done(id, total);
        }
    }
}

/// [`count_with`] over subproblems chosen by the caller (`listed`), all
/// ties or (`ties == false`) none. Inlined into each of its callers, which
/// compile it for their own target features.
#[inline(always)]
#[cfg_attr(not(feature = "std"), allow(dead_code))] // for the plan (`std`)
pub(super) fn count_listed(
    listed: super::Listed<'_>,
    ties: bool,
    classes: bool,
    done: &mut dyn FnMut(usize, Count),
) {
    if ties {
        count_with::<true, _>(listed, classes, done);
    } else {
        count_with::<false, _>(listed, classes, done);
    }
}

/// The solutions (or with `classes`, the classes) of an `n`x`n` board, `n`
/// from 4 to 32, over the subproblems as [`subproblems`] builds them.
/// Inlined into each of its callers, which compile it for their own target
/// features.
#[inline(always)]
pub(super) fn count_all(n: usize, classes: bool) -> Count {
    let mut total: Count = 0;
    let mut add = |_, count| total += count;
    count_with::<false, _>(
        subproblems(n, Some(false)).map(|s| (0, s)),
        classes,
        &mut add,
    );
    count_with::<true, _>(
        subproblems(n, Some(true)).map(|s| (0, s)),
        classes,
        &mut add,
    );
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::symmetric::subproblem::unsplit_subproblems;
    use core::ops::ControlFlow;

    /// Solutions (OEIS A000170) and classes (A002562) for N from 0 to 13.
    const SOLUTIONS: [Count; 14] = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712];
    const CLASSES: [Count; 14] = [1, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233];

    /// The largest N the tests below count. Miri (`.ci/miri`) runs this
    /// code some thousand times slower than a native build, so under it the
    /// same assertions count boards up to N = 8 instead of N = 13 (or 11
    /// where each subproblem is also searched by the branching search).
    const COUNTED_UP_TO: usize = if cfg!(miri) { 8 } else { 13 };
    const CHECKED_UP_TO: usize = if cfg!(miri) { 8 } else { 11 };

    #[test]
    fn count_all_gives_the_known_totals() {
        for n in 4..=COUNTED_UP_TO {
            assert_eq!(count_all(n, false), SOLUTIONS[n], "N = {n}");
            assert_eq!(count_all(n, true), CLASSES[n], "N = {n}, classes");
        }
    }

    /// Each subproblem, walked by walkers that take turns, counts the
    /// solutions (or classes) that the branching search finds in it, and
    /// is reported exactly once under its name.
    #[test]
    fn each_subproblem_counts_what_the_branching_search_finds() {
        for n in 4..=CHECKED_UP_TO {
            for ties in [false, true] {
                // Unsplit and split (N from 12 up) alike.
                let subs: Vec<SearchRoot> = unsplit_subproblems(n)
                    .filter(|s| s.kind.is_tie() == ties)
                    .chain(subproblems(n, Some(ties)))
                    .collect();
                for classes in [false, true] {
                    let mut counted = vec![None; subs.len()];
                    let mut listed = subs.iter().enumerate();
                    count_listed(&mut listed, ties, classes, &mut |id, count| {
                        assert_eq!(counted[id].replace(count), None, "N = {n}: {id} twice");
                    });
                    for (id, sub) in subs.iter().enumerate() {
                        let mut expected: Count = 0;
                        let _ = sub.for_each_class(&mut |_, orbit| {
                            expected += if classes { 1 } else { Count::from(orbit) };
                            ControlFlow::Continue(())
                        });
                        let what = (n, classes, sub);
                        assert_eq!(counted[id], Some(expected), "N, classes, sub: {what:?}");
                    }
                }
            }
        }
    }

    /// On plain partial boards every completion counts once: with the
    /// row-0 queen pre-placed in each column in turn, all solutions.
    #[test]
    fn plain_subproblems_count_every_completion_once() {
        for (n, &solutions) in SOLUTIONS.iter().enumerate().take(CHECKED_UP_TO + 1).skip(4) {
            let subs: Vec<SearchRoot> = (0..n)
                .map(|col| SearchRoot::new(n, RootKind::Plain, &[], &[(0, col)], &[]).unwrap())
                .collect();
            let mut total: Count = 0;
            let mut listed = subs.iter().enumerate();
            count_listed(&mut listed, false, false, &mut |_, count| total += count);
            assert_eq!(total, solutions, "N = {n}");
        }
    }
}
