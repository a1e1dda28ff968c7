//! The lane kernels: the symmetric kernel's branch-free walkers
//! ([`crate::kernel::symmetric`]), one per vector lane, each on its own
//! subproblem: `lanes-avx2` runs 8 (`u32` lanes of a ymm register),
//! `lanes-avx512` 16 (of a zmm register). They count only.
//! `docs/symmetric.md` in the repository draws eight lanes side by side,
//! step by step, from this code's own state (the `trace` feature).
//!
//! # Why lanes
//!
//! A symmetric walker's step places a queen and moves its stack pointer by
//! arithmetic on flags: nothing in it branches on the board. So the same
//! step can run in every lane of a vector at once, each lane walking its
//! own subproblem with its own stack (`walk.rs`): one vector step does 8
//! or 16 lanes' steps for a few times the instructions of one scalar step
//! (BENCHMARKS.md, "Lane kernels", has the counts).
//!
//! # What they count
//!
//! * **Small boards** (N up to 11 in 8 lanes, 13 in 16): no symmetric
//!   subproblems to build, no symmetry to
//!   check. Each start places rows 0 and 1, row 0
//!   in the left half (with odd N, also row 0 in the middle and row 1 in
//!   the left half), and each solution found counts twice: its mirror
//!   image starts in the right half.
//! * **Larger boards**, and the classes: the symmetric kernel's
//!   subproblems, in lanes. A corner's or an edge's forbidden squares take
//!   at most two masks each (one set of columns for a set of rows), which
//!   the walk applies per row. A tie's (up to N = 16, `ties.rs`) take two
//!   masks and its queen fixed further down, whose squares each step
//!   computes; its lane keeps its path, and each leaf it reaches is
//!   compared with its images on the scalar side. The odd subproblem that
//!   fits no lane (a plan's partial board whose forbidden squares take more
//!   masks, a tie past N = 16) runs on the scalar walkers.
//!
//! Both kernels also count a symmetric plan's subproblems (`plan`)
//! (threads, shards, checkpoints) the same way: they are the symmetric
//! kernel's `Walkers`, in lanes.
//!
//! The walk needs squares below bit 24 and rows below 32, so these kernels
//! take N up to 24 (`walk::MAX_N`), which is beyond any board a search
//! can count.

use core::cell::RefCell;

use crate::Count;
use crate::kernel::symmetric::subproblem::{SearchRoot, subproblems};
use crate::kernel::symmetric::{Listed, walker};

pub(crate) mod simd;
mod start;
mod ties;
pub(crate) mod walk;

pub mod avx2;
pub mod avx512;

use simd::Simd;
use start::Start;
use ties::TieStarts;
use walk::CountedLeaves;

/// The largest N whose whole board both lane kernels count over mirror
/// starts rather than the symmetric subproblems (each kernel's own bound,
/// `Simd::MIRROR_UP_TO`, is 11 for `lanes-avx2` and 13 for
/// `lanes-avx512`): up to it the symmetric kernel's set-up (its
/// subproblems, the checks of the ties' leaves) costs more than the search
/// it saves.
#[cfg_attr(not(feature = "trace"), allow(dead_code))] // for the traces (`trace`)
pub(crate) const MIRROR_UP_TO: usize = 11;

/// The starts of a whole `n`x`n` board by mirror symmetry (`n` from 4 to
/// [`walk::MAX_N`]): rows 0 and 1 placed, row 0 in the left half, or for
/// odd `n` in the middle with row 1 in the left half; each solution
/// counts 2. Each start is named `first * n + second` by the columns of
/// its queens in rows 0 and 1.
fn mirror_starts(n: usize) -> impl Iterator<Item = (usize, Start)> {
    let half = n / 2;
    (0..n)
        .flat_map(move |first| (0..n).map(move |second| (first, second)))
        .filter(move |&(first, second)| {
            first.abs_diff(second) > 1
                && (first < half || (n % 2 == 1 && first == half && second < half))
        })
        .map(move |(first, second)| {
            let (a, b) = (1u32 << first, 1u32 << second);
            let start = Start::new(n, 2, a | b, (a << 1 | b) << 1, (a >> 1 | b) >> 1, 2);
            (first * n + second, start)
        })
}

/// The solutions (or with `classes`, the classes) of a whole `n`x`n`
/// board, `n` from 4 to [`walk::MAX_N`], with lanes of `V`.
///
/// # Safety
///
/// The CPU runs `V`'s instructions and BMI1, BMI2, LZCNT and POPCNT (for
/// the scalar walkers).
#[inline(always)]
unsafe fn count_board<V: Simd>(n: usize, classes: bool) -> Count {
    // SAFETY: the caller's.
    unsafe { watch_board::<V, ()>(n, classes, &mut ()) }
}

/// [`count_board`], with `watch` told of every step of the lanes.
///
/// # Safety
///
/// As for [`count_board`].
#[inline(always)]
unsafe fn watch_board<V: Simd, W: walk::Watch>(n: usize, classes: bool, watch: &mut W) -> Count {
    let mut total: Count = 0;
    let mut add = |_, count| total += count;
    if !classes && n <= V::MIRROR_UP_TO {
        // Only a watcher tells the starts apart: a count names them all 0,
        // and so never computes their names.
        let mut starts =
            mirror_starts(n).map(|(id, start)| (if W::WATCHING { id } else { 0 }, start));
        // One group: a small board has too few starts to keep two busy.
        // SAFETY: the caller's CPU.
        unsafe {
            walk::count::<V, false, 1, W, _>(n, &mut starts, &mut CountedLeaves, &mut add, watch)
        };
    } else {
        let mut listed = subproblems(n, Some(false));
        let mut listed = (&mut listed).map(|sub| (0, sub));
        // SAFETY: the caller's CPU.
        unsafe { count_subproblems::<V, SearchRoot, W>(n, &mut listed, classes, &mut add, watch) };
        // The ties split one row further: a board has only a few (15 at
        // N = 13), too few and too uneven to keep every lane busy.
        let mut ties = subproblems(n, Some(true)).flat_map(SearchRoot::split_one_row);
        let mut ties = (&mut ties).map(|sub| (0, sub));
        // SAFETY: the caller's CPU.
        unsafe { count_ties::<V, SearchRoot>(n, &mut ties, classes, &mut add) };
    }
    total
}

/// Counts tie subproblems (`(id, subproblem)` pairs of an `n`x`n` board) in
/// lanes of `V`, each leaf checked against its images, where they fit a
/// lane ([`Start::of_tie`]) and on the scalar walkers where not; calls
/// `done(id, solutions)` (or classes) as each one finishes.
///
/// # Safety
///
/// As for [`count_board`].
#[inline(always)]
unsafe fn count_ties<V: Simd, S: core::borrow::Borrow<SearchRoot>>(
    n: usize,
    listed: &mut dyn Iterator<Item = (usize, S)>,
    classes: bool,
    done: &mut dyn FnMut(usize, Count),
) {
    if n > start::TIES_UP_TO {
        walker::count_with::<true, _>(listed, classes, done);
        return;
    }
    let mut leaves = TieStarts::<S>::new(n, classes);
    let to_lane = |sub: S| match Start::of_tie(sub.borrow()) {
        Some(start) => Ok((start, sub)),
        None => Err(sub),
    };
    // SAFETY: the caller's.
    unsafe {
        walk_or_fall_back::<V, S, _, (), true>(
            n,
            listed,
            (classes, &mut leaves),
            to_lane,
            done,
            &mut (),
        )
    };
}

/// Counts the subproblems of `listed` (`(id, subproblem)` pairs of an
/// `n`x`n` board, no ties), in lanes of `V` where their forbidden squares
/// fit a lane's two masks and on a scalar walker where not; calls
/// `done(id, solutions)` (or classes) as each one finishes.
///
/// # Safety
///
/// As for [`count_board`].
#[inline(always)]
unsafe fn count_subproblems<V: Simd, S: core::borrow::Borrow<SearchRoot>, W: walk::Watch>(
    n: usize,
    listed: &mut dyn Iterator<Item = (usize, S)>,
    classes: bool,
    done: &mut dyn FnMut(usize, Count),
    watch: &mut W,
) {
    if n > walk::MAX_N {
        walker::count_with::<false, _>(listed, classes, done);
        return;
    }
    let to_lane = |sub: S| Start::of_subproblem(sub.borrow(), classes).ok_or(sub);
    // SAFETY: the caller's.
    unsafe {
        walk_or_fall_back::<V, S, _, W, false>(
            n,
            listed,
            (classes, &mut CountedLeaves),
            to_lane,
            done,
            watch,
        )
    };
}

/// Walks the subproblems of `listed` (`(id, subproblem)` pairs of an
/// `n`x`n` board, of kind `RootKind::Tie` exactly when `TIES`) in lanes of
/// `V`, each as `to_lane` hands it to the walk, whose leaves `leaves` score,
/// and on a scalar walker the odd one that `to_lane` gives back; calls
/// `done(id, solutions)` (or with `classes`, classes) as each one finishes.
///
/// # Safety
///
/// As for [`count_board`].
#[inline(always)]
unsafe fn walk_or_fall_back<V: Simd, S: core::borrow::Borrow<SearchRoot>, L, W, const TIES: bool>(
    n: usize,
    listed: &mut dyn Iterator<Item = (usize, S)>,
    (classes, leaves): (bool, &mut L),
    to_lane: impl Fn(S) -> Result<L::Item, S>,
    done: &mut dyn FnMut(usize, Count),
    watch: &mut W,
) where
    L: walk::Leaves,
    W: walk::Watch,
{
    // The walk and the odd subproblem on a scalar walker report in turn.
    let done = RefCell::new(done);
    let mut starts = listed.filter_map(|(id, sub)| match to_lane(sub) {
        Ok(item) => Some((id, item)),
        Err(sub) => {
            let mut done = done.borrow_mut();
            walker::count_with::<TIES, _>(core::iter::once((id, sub)), classes, &mut **done);
            None
        }
    });
    // SAFETY: the caller's CPU.
    unsafe {
        walk::count::<V, true, { walk::GROUPS }, W, L>(
            n,
            &mut starts,
            leaves,
            &mut |id, count| done.borrow_mut()(id, count),
            watch,
        );
    }
}

/// Counts subproblems chosen by the caller (a plan's), all ties or
/// (`ties == false`) none, as [`count_subproblems`] and [`count_ties`] do.
///
/// # Safety
///
/// As for [`count_board`].
#[inline(always)]
#[cfg_attr(not(feature = "std"), allow(dead_code))] // for the plan (`std`)
unsafe fn count_listed<V: Simd>(
    listed: Listed<'_>,
    ties: bool,
    classes: bool,
    done: &mut dyn FnMut(usize, Count),
) {
    let mut listed = listed.peekable();
    let Some(n) = listed.peek().map(|(_, sub)| sub.n) else {
        return;
    };
    if ties {
        // SAFETY: the caller's.
        unsafe { count_ties::<V, &SearchRoot>(n, &mut listed, classes, done) };
    } else {
        // SAFETY: the caller's.
        unsafe { count_subproblems::<V, &SearchRoot, ()>(n, &mut listed, classes, done, &mut ()) };
    }
}

/// The solutions of a board of `n` (from 4 to [`walk::MAX_N`]) by its
/// mirror starts, at any N: in one group of lanes for 8 lanes, in two for
/// 16, so that the tests walk both.
///
/// # Safety
///
/// The CPU runs `V`'s instructions.
#[cfg(test)]
#[inline(always)]
unsafe fn count_mirror_starts<V: Simd>(n: usize) -> Count {
    let mut total: Count = 0;
    let mut add = |_, count| total += count;
    let mut starts = mirror_starts(n);
    if V::LANES == 8 {
        // SAFETY: the caller's CPU; `n` is at most `walk::MAX_N`.
        unsafe {
            walk::count::<V, false, 1, (), _>(n, &mut starts, &mut CountedLeaves, &mut add, &mut ())
        };
    } else {
        // SAFETY: as above.
        unsafe {
            walk::count::<V, false, 2, (), _>(n, &mut starts, &mut CountedLeaves, &mut add, &mut ())
        };
    }
    total
}

/// A lane kernel, instantiated at the end of its ISA's file (`avx2.rs`,
/// `avx512.rs`), as the join kernels are: its type (`kernel_type!`), the
/// walks of this module compiled with its row's features
/// (`target_features!`) over its vector type, and its traits. `$name` is
/// its variant of [`crate::Kernel`]. The compiled functions sit in the invoking
/// module: `cli/tests/program/disassembly.rs` finds each kernel's
/// `count_board::compiled` by that path (`lanes::avx2::…`).
macro_rules! lane_kernel {
    (
        $(#[$doc:meta])*
        $name:ident, $vector:ty
    ) => {
        $crate::kernel::kernel_type! {
            $(#[$doc])*
            pub struct $name = $crate::Kernel::$name;
        }

        impl $name {
            /// Counts a plan's subproblems (see `lanes::count_listed`).
            #[cfg_attr(not(feature = "std"), allow(dead_code))] // for the plan (`std`)
            pub(crate) fn count_listed(
                self,
                listed: $crate::kernel::symmetric::Listed<'_>,
                ties: bool,
                classes: bool,
                done: &mut dyn FnMut(usize, $crate::Count),
            ) {
                $crate::vocabulary::kernel::target_features!($name => {
                    /// `lanes::count_listed` compiled with the kernel's features.
                    ///
                    /// # Safety
                    ///
                    /// The CPU runs them.
                    unsafe fn compiled(
                        listed: $crate::kernel::symmetric::Listed<'_>,
                        ties: bool,
                        classes: bool,
                        done: &mut dyn FnMut(usize, $crate::Count),
                    ) {
                        // SAFETY: the caller's.
                        unsafe { super::count_listed::<$vector>(listed, ties, classes, done) }
                    }
                });
                // SAFETY: `self` exists only where `new` found the kernel's
                // features, those `compiled` is built with; the arguments
                // are references, valid for the call.
                unsafe { compiled(listed, ties, classes, done) }
            }

            /// `lanes::count_board` for solutions, with `watch` told of each
            /// step of the lanes: the trace's way in.
            #[cfg(feature = "trace")]
            pub(crate) fn watch<W: super::walk::Watch>(self, n: usize, watch: &mut W) -> $crate::Count {
                $crate::vocabulary::kernel::target_features!($name => {
                    /// `lanes::watch_board` compiled with the kernel's features.
                    ///
                    /// # Safety
                    ///
                    /// The CPU runs them.
                    unsafe fn compiled<W: super::walk::Watch>(n: usize, watch: &mut W) -> $crate::Count {
                        // SAFETY: the caller's.
                        unsafe { super::watch_board::<$vector, W>(n, false, watch) }
                    }
                });
                assert!((4..=super::walk::MAX_N).contains(&n));
                // SAFETY: `self` exists only where `new` found the kernel's
                // features, those `compiled` is built with.
                unsafe { compiled(n, watch) }
            }

            /// The solutions or classes of a whole board, `n` from 4.
            fn count_board(self, n: usize, classes: bool) -> $crate::Count {
                $crate::vocabulary::kernel::target_features!($name => {
                    /// `lanes::count_board` compiled with the kernel's features.
                    ///
                    /// # Safety
                    ///
                    /// The CPU runs them.
                    unsafe fn compiled(n: usize, classes: bool) -> $crate::Count {
                        // SAFETY: the caller's.
                        unsafe { super::count_board::<$vector>(n, classes) }
                    }
                });
                // SAFETY: `self` exists only where `new` found the kernel's
                // features, those `compiled` is built with.
                unsafe { compiled(n, classes) }
            }

            /// `lanes::count_mirror_starts`: the tests' way to the mirror
            /// starts at any N, not only those `count` uses them for.
            #[cfg(test)]
            pub(crate) fn count_mirror_starts(self, n: usize) -> $crate::Count {
                $crate::vocabulary::kernel::target_features!($name => {
                    /// `lanes::count_mirror_starts` compiled with the kernel's
                    /// features.
                    ///
                    /// # Safety
                    ///
                    /// The CPU runs them.
                    unsafe fn compiled(n: usize) -> $crate::Count {
                        // SAFETY: the caller's.
                        unsafe { super::count_mirror_starts::<$vector>(n) }
                    }
                });
                assert!((4..=super::walk::MAX_N).contains(&n));
                // SAFETY: `self` exists only where `new` found the kernel's
                // features, those `compiled` is built with.
                unsafe { compiled(n) }
            }
        }

        /// A plan's symmetric subproblems, in lanes.
        impl $crate::kernel::symmetric::Walkers for $name {
            fn count_listed(
                &self,
                listed: $crate::kernel::symmetric::Listed<'_>,
                ties: bool,
                classes: bool,
                done: &mut dyn FnMut(usize, $crate::Count),
            ) {
                $name::count_listed(*self, listed, ties, classes, done);
            }
        }

        impl $crate::Solver for $name {
            fn kernel(&self) -> $crate::Kernel {
                $crate::Kernel::$name
            }

            fn count(&self, n: usize) -> Result<$crate::Count, $crate::Error> {
                $crate::kernel::symmetric::count($crate::Kernel::$name, n, false, |n, classes| {
                    self.count_board(n, classes)
                })
            }

            fn count_fundamental(&self, n: usize) -> Result<$crate::Count, $crate::Error> {
                $crate::kernel::symmetric::count($crate::Kernel::$name, n, true, |n, classes| {
                    self.count_board(n, classes)
                })
            }

            fn for_each_solution(
                &self,
                n: usize,
                _visit: $crate::kernel::Visit<'_>,
            ) -> Result<core::ops::ControlFlow<()>, $crate::Error> {
                $crate::Kernel::$name.check_size(n)?;
                Err($crate::Error::CountOnly($crate::Kernel::$name))
            }
        }
    };
}

use lane_kernel;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::symmetric::subproblem::{RootKind, unsplit_subproblems};
    use crate::{Kernel, Solver};

    /// Solutions (OEIS A000170) and classes (A002562) for N from 0 to 13.
    const SOLUTIONS: [Count; 14] = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712];
    const CLASSES: [Count; 14] = [1, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233];

    /// A lane kernel's count of listed subproblems.
    type CountListed = Box<dyn Fn(Listed<'_>, bool, bool, &mut dyn FnMut(usize, Count))>;

    /// A lane kernel's count of a board's mirror starts.
    type CountMirrored = Box<dyn Fn(usize) -> Count>;

    /// The lane kernels of the table (its `Lanes` family) that this CPU
    /// runs, as solvers and as counters of listed subproblems and of
    /// mirror starts.
    fn kernels() -> Vec<(&'static dyn Solver, CountListed, CountMirrored)> {
        use crate::vocabulary::kernel::{Family, family_kernel};
        Kernel::ALL
            .iter()
            .filter(|kernel| kernel.family() == Family::Lanes)
            .filter_map(|&kernel| {
                family_kernel!(Lanes, kernel, |k| {
                    let solver: &'static dyn Solver = k.as_static();
                    let listed: CountListed =
                        Box::new(move |l, t, c, d| k.count_listed(l, t, c, d));
                    let mirrored: CountMirrored = Box::new(move |n| k.count_mirror_starts(n));
                    (solver, listed, mirrored)
                })
            })
            .collect()
    }

    /// Whole boards: counts and classes against the oracle, both by
    /// mirror starts and by the symmetric subproblems.
    #[test]
    fn whole_boards_count_the_known_totals() {
        for (solver, _, _) in kernels() {
            let kernel = solver.kernel();
            for n in 0..=13 {
                assert_eq!(solver.count(n), Ok(SOLUTIONS[n]), "{kernel}, N = {n}");
                assert_eq!(
                    solver.count_fundamental(n),
                    Ok(CLASSES[n]),
                    "{kernel}, N = {n}"
                );
            }
            assert!(solver.count(25).is_err());
        }
    }

    /// The mirror starts count every N, not only those `count` uses them
    /// for.
    #[test]
    fn mirror_starts_count_every_board() {
        for (n, &solutions) in SOLUTIONS.iter().enumerate().skip(4) {
            let mut totals = Vec::new();
            for (_, _, count_mirrored) in kernels() {
                let total = count_mirrored(n);
                totals.push(total);
            }
            assert!(
                totals.iter().all(|&t| t == solutions),
                "N = {n}: {totals:?}"
            );
        }
    }

    /// Listed subproblems, each reported once under its name with what the
    /// scalar walkers find: the symmetric ones (split and unsplit, ties
    /// and not, solutions and classes), plain partial boards with a queen
    /// pre-placed further down, whose forbidden squares need more than two
    /// masks, and ties with two pre-placed queens, both of which go to a
    /// scalar walker.
    #[test]
    fn listed_subproblems_count_what_the_scalar_walkers_find() {
        for (solver, count_listed, _) in kernels() {
            let kernel = solver.kernel();
            for n in 4..=11 {
                let mut subs: Vec<SearchRoot> =
                    unsplit_subproblems(n).chain(subproblems(n, None)).collect();
                for col in 0..n {
                    let fixed = [(n - 1, (col + 2) % n)];
                    subs.extend(SearchRoot::new(n, RootKind::Plain, &[], &[(0, col)], &[]));
                    subs.extend(SearchRoot::new(n, RootKind::Plain, &[col], &fixed, &[]));
                    // A tie with two pre-placed queens fits no lane.
                    let two = [(n - 1, col), (n - 3, (col + 3) % n)];
                    subs.extend(SearchRoot::new(n, RootKind::Tie { k: 1 }, &[1], &two, &[]));
                }
                for ties in [false, true] {
                    let subs: Vec<&SearchRoot> =
                        subs.iter().filter(|s| s.kind.is_tie() == ties).collect();
                    for classes in [false, true] {
                        let mut expected = vec![0; subs.len()];
                        let mut listed = subs.iter().map(|s| &**s).enumerate();
                        walker::count_with::<false, _>(
                            (&mut listed).filter(|_| !ties),
                            classes,
                            |id, c| expected[id] = c,
                        );
                        let mut listed = subs.iter().map(|s| &**s).enumerate();
                        if ties {
                            walker::count_with::<true, _>(&mut listed, classes, |id, c| {
                                expected[id] = c
                            });
                        }
                        let mut got = vec![None; subs.len()];
                        let mut listed = subs.iter().map(|s| &**s).enumerate();
                        count_listed(&mut listed, ties, classes, &mut |id, c| {
                            assert_eq!(got[id].replace(c), None, "{kernel}, N = {n}: {id} twice");
                        });
                        let got: Vec<Count> =
                            got.into_iter().map(|c| c.expect("reported")).collect();
                        assert_eq!(
                            got, expected,
                            "{kernel}, N = {n}, ties {ties}, classes {classes}"
                        );
                    }
                }
            }
        }
    }
}
