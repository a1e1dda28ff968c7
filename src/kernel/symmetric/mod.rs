//! The symmetric kernel: one search per class of solutions under the eight
//! symmetries of the square, each class found once as its canonical form
//! (see [`crate::symmetry::canonical`]) with the size of its orbit; dead
//! ends pruned a row ahead, without a branch. Scalar Rust, `u32` masks,
//! every N from 0 to 32.
//!
//! `docs/symmetric.md` in the repository draws the subproblems of the 8 x 8
//! board, one walker's stack and the lane kernels' lanes, from this code's
//! own state (the `trace` feature).
//!
//! # Which boards the search visits
//!
//! The canonical form of a class is its lexicographically smallest column
//! vector `p` (`p[row] = column`, `m = N - 1`). Two kinds of class:
//!
//! * **A queen in a corner.** At most one corner holds a queen (any two
//!   corners share a row, column or diagonal), so a class has 8 members, two
//!   of them with the queen at (0, 0): a board and its transpose. Their rows
//!   1 hold queens in columns `a = p[1]` and `b = p⁻¹[1]`, and `a != b`
//!   (queens at (1, a) and (a, 1) share an anti-diagonal). The canonical one
//!   has `a < b`: the search places (0, 0) and (1, a) for each `a` from 2 to
//!   `m`, and forbids column 1 in rows 2 to `a`. Every board found is
//!   canonical, with an orbit of 8: no check at the leaves.
//! * **No queen in a corner.** The row-0 queens of the eight images are the
//!   four edge queens read from either end of their edge: `p[0]`, `m -
//!   p[0]`, `p[m]`, `m - p[m]`, `p⁻¹[0]`, `m - p⁻¹[0]`, `p⁻¹[m]` and `m -
//!   p⁻¹[m]`. The canonical form has the smallest, `k = p[0]`, so its other
//!   edge queens lie at least `k` from every corner: the search places (0,
//!   k) for each `k` with `2k < m` (with `2k = m` the bottom queen would
//!   need column `k` too), forbids columns 0 and `m` in rows above `k` and
//!   below `m - k`, and allows row `m` only columns `k..=m-k`. An image
//!   other than the board itself can then start with `k` only if another
//!   edge queen sits exactly `k` from a corner (a *tie*: in row `k` or
//!   `m - k` of an outer column, or in column `m - k` of the bottom row).
//!   Each `k` gives six subproblems: five *tie* subproblems, each with one
//!   such queen pre-placed (and the earlier cases' squares forbidden, so
//!   that no board falls in two), whose leaves are compared with their
//!   images in full; and one *edge* subproblem with all tie squares forbidden,
//!   whose boards are all canonical with orbit 8, unchecked. A tie can
//!   reject the board (an image is smaller) or find it symmetric: the
//!   images equal to it (its stabilizer, only ever rotations) give the
//!   orbit size 8, 4 or 2.
//!
//! From N = 12 up the large subproblems (corners and edges) are split one
//! row further, one part per square of their first free row, so that no
//! part is much longer than the rest.
//!
//! # Dead ends pruned a row ahead
//!
//! For the row being filled the search keeps, besides the masks of taken
//! columns and diagonals, the squares of the *next* row that stay free
//! whatever this row does (`ahead`). A queen in column `c` takes columns
//! `c - 1`, `c` and `c + 1` of the next row, so it leaves the next row empty
//! exactly when `ahead` lies within those three columns. `alive_columns`
//! turns `ahead` into the set of such columns with two bit scans and a few
//! shifts, and the search only ever descends into the others (`live`): a
//! square whose next row is empty costs no branch and no iteration. At the
//! row before last, each live square is a whole solution, so the search
//! stops one row early and counts them.
//!
//! # Counting without branches: walkers
//!
//! Counting runs each subproblem as a *walker*: a stack of the rows that
//! still have live squares, where every step places a queen, pops the
//! entry it emptied and pushes the child row, both moves computed from
//! flags rather than branched on. The only branch left in
//! the inner loop is the end of a walk, so the branch predictor has nothing
//! to mispredict at the leaves, where almost all steps are. Three walkers,
//! on three subproblems, take turns step by step (`WALKERS`): each step's
//! chain of latency (load the top entry, compute the child, move the stack
//! pointer) overlaps the other walkers'. Tie subproblems run in a second
//! pass with walkers that record the path and check each leaf; a single
//! pass with both kinds in one loop was slower.
//!
//! Enumeration (and the fundamental solutions of `--unique`) uses the same
//! subproblems with an ordinary branching search, and expands each
//! canonical form into its orbit: every solution exactly once.
//!
//! # Two builds
//!
//! [`Symmetric`] is compiled for the target's baseline and runs anywhere.
//! [`SymmetricBmi`] is the same code compiled with BMI1, BMI2, LZCNT and
//! POPCNT (`#[target_feature]`, checked at run time), where the bit scans
//! and counts are single instructions, which makes it the faster of the two
//! (`simd/count` in BENCHMARKS.md).

#[cfg(x86_kernels)]
use crate::vocabulary::kernel::target_features;
use core::ops::ControlFlow;

use crate::kernel::{Visit, kernel_type};
use crate::{Board, Count, Error, Kernel, Solver};

#[cfg(feature = "std")]
pub(crate) mod pieces;
pub(crate) mod subproblem;
pub(crate) mod walker;

use subproblem::{SearchRoot, subproblems};

kernel_type! {
    /// The symmetric kernel, built for the baseline of the target. Runs on
    /// every target.
    #[derive(Default)]
    pub struct Symmetric = Kernel::Symmetric;
}

#[cfg(x86_kernels)]
kernel_type! {
    /// The symmetric kernel built with BMI1, BMI2, LZCNT and POPCNT (x86-64
    /// only): the same code, whose bit scans, lowest-bit isolations, variable
    /// shifts and leaf counts become single instructions (`tzcnt`, `lzcnt`,
    /// `blsi`, `shlx`, `popcnt`) instead of sequences. Holding one proves the
    /// CPU has those features.
    pub struct SymmetricBmi = Kernel::SymmetricBmi;
}

/// The columns of a row whose queen leaves the next row a free square,
/// given `ahead`, the next row's squares that no queen above attacks. A
/// queen in column `c` takes `c - 1`, `c` and `c + 1` of the next row, so
/// some square of `ahead` stays free exactly when one lies at or below `c -
/// 2` or at or above `c + 2`: when `c >= lo + 2` or `c <= hi - 2` for the
/// lowest and highest bits `lo` and `hi` of `ahead`. `ahead | -ahead` sets
/// every bit from `lo` up; a shift right by the leading zeros, every bit up
/// to `hi`. Defined for every `ahead`: an empty one gives no column.
#[inline(always)]
pub(crate) fn alive_columns(ahead: u32) -> u32 {
    let from_lo = ahead | ahead.wrapping_neg();
    let up_to_hi = (u64::from(u32::MAX) >> ahead.leading_zeros()) as u32;
    from_lo << 2 | up_to_hi >> 2
}

/// The squares of a row that are free (`!(columns | left | right |
/// forbidden)`) and whose queen leaves the next row a free square.
#[inline(always)]
pub(crate) fn live_squares(
    columns: u32,
    left: u32,
    right: u32,
    forbidden: u32,
    forbidden_next: u32,
) -> u32 {
    let free = !(columns | left | right | forbidden);
    let ahead = !(columns | left << 1 | right >> 1 | forbidden_next);
    free & alive_columns(ahead)
}

/// Boards too small for the subproblems (`n < 4`): their classes, straight
/// from the portable kernel and the symmetry group.
fn for_each_small_class(
    n: usize,
    visit: &mut dyn FnMut(&Board, u32) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let solutions =
        crate::kernel::portable::Solutions::new(n).expect("n < 4 fits the portable kernel");
    for board in solutions {
        if let Some(size) = crate::symmetry::canonical_orbit_size(&board) {
            visit(&board, size as u32)?;
        }
    }
    ControlFlow::Continue(())
}

/// Calls `visit` with the canonical form of every class of solutions on an
/// `n`x`n` board (`n` from 0 to 32) and the size of its orbit, until it
/// returns `Break`.
///
/// # Errors
///
/// [`Error::SizeOutOfRange`] if `n` is over 32.
pub fn for_each_class(
    n: usize,
    visit: &mut dyn FnMut(&Board, u32) -> ControlFlow<()>,
) -> Result<ControlFlow<()>, Error> {
    Kernel::Symmetric.check_size(n)?;
    if n < 4 {
        return Ok(for_each_small_class(n, visit));
    }
    for sub in subproblems(n, None) {
        if sub.for_each_class(visit).is_break() {
            return Ok(ControlFlow::Break(()));
        }
    }
    Ok(ControlFlow::Continue(()))
}

/// The count of solutions, or with `classes` of classes, on an `n`x`n`
/// board by `kernel`, which counts boards from N = 4 up with `count_board`.
pub(crate) fn count(
    kernel: Kernel,
    n: usize,
    classes: bool,
    count_board: impl FnOnce(usize, bool) -> Count,
) -> Result<Count, Error> {
    kernel.check_size(n)?;
    if n >= 4 {
        return Ok(count_board(n, classes));
    }
    let mut total: Count = 0;
    let _ = for_each_small_class(n, &mut |_, orbit| {
        total += if classes { 1 } else { Count::from(orbit) };
        ControlFlow::Continue(())
    });
    Ok(total)
}

/// [`walker::count_all`] compiled for the target's baseline.
fn count_baseline(n: usize, classes: bool) -> Count {
    walker::count_all(n, classes)
}

#[cfg(x86_kernels)]
target_features!(SymmetricBmi => {
    /// [`walker::count_all`] compiled with BMI1, BMI2, LZCNT and POPCNT.
    fn count_bmi(n: usize, classes: bool) -> Count {
        walker::count_all(n, classes)
    }
});

/// SearchRoots handed to [`Walkers::count_listed`], each with the caller's
/// name for it.
#[cfg_attr(not(feature = "std"), allow(dead_code))] // for the plan (`std`)
pub(crate) type Listed<'a> = &'a mut dyn Iterator<Item = (usize, &'a SearchRoot)>;

/// A kernel whose walkers count symmetric subproblems chosen by the caller
/// (a plan's pieces, a partial board): [`Symmetric`] and [`SymmetricBmi`]
/// here, and the lane kernels (`kernel::lanes`), which run the same
/// walkers in vector lanes. Holding one proves this CPU runs it.
#[cfg_attr(not(feature = "std"), allow(dead_code))] // for the plan (`std`)
pub(crate) trait Walkers: Solver {
    /// Counts the solutions (or with `classes`, the classes) of every
    /// subproblem of `listed`, all ties or (`ties == false`) none, calling
    /// `done(name, count)` as each one finishes.
    fn count_listed(
        &self,
        listed: Listed<'_>,
        ties: bool,
        classes: bool,
        done: &mut dyn FnMut(usize, Count),
    );
}

/// [`walker::count_listed`] compiled for the target's baseline.
impl Walkers for Symmetric {
    fn count_listed(
        &self,
        listed: Listed<'_>,
        ties: bool,
        classes: bool,
        done: &mut dyn FnMut(usize, Count),
    ) {
        walker::count_listed(listed, ties, classes, done);
    }
}

#[cfg(x86_kernels)]
impl Walkers for SymmetricBmi {
    fn count_listed(
        &self,
        listed: Listed<'_>,
        ties: bool,
        classes: bool,
        done: &mut dyn FnMut(usize, Count),
    ) {
        // SAFETY: a `SymmetricBmi` exists only where `SymmetricBmi::new`
        // found BMI1, BMI2, LZCNT and POPCNT on this CPU, the features
        // `count_listed_bmi` is compiled with. Its arguments are
        // references, valid for the call.
        unsafe { count_listed_bmi(listed, ties, classes, done) }
    }
}

#[cfg(x86_kernels)]
target_features!(SymmetricBmi => {
    /// [`walker::count_listed`] compiled with BMI1, BMI2, LZCNT and POPCNT.
    #[cfg_attr(not(feature = "std"), allow(dead_code))] // for the plan (`std`)
    fn count_listed_bmi(
        listed: Listed<'_>,
        ties: bool,
        classes: bool,
        done: &mut dyn FnMut(usize, Count),
    ) {
        walker::count_listed(listed, ties, classes, done);
    }
});

/// Enumeration is the same for both builds: each class's canonical form
/// from the (branching) search, expanded into its orbit.
macro_rules! symmetric_solver {
    ($kernel_type:ty, $kernel:expr, $count_board:expr) => {
        impl Solver for $kernel_type {
            fn kernel(&self) -> Kernel {
                $kernel
            }

            fn count(&self, n: usize) -> Result<Count, Error> {
                count($kernel, n, false, $count_board)
            }

            fn for_each_solution(
                &self,
                n: usize,
                visit: Visit<'_>,
            ) -> Result<ControlFlow<()>, Error> {
                $kernel.check_size(n)?;
                for_each_class(n, &mut |board, _| {
                    crate::symmetry::orbit(board).try_for_each(|image| visit(&image))
                })
            }

            fn for_each_fundamental(
                &self,
                n: usize,
                visit: Visit<'_>,
            ) -> Result<ControlFlow<()>, Error> {
                $kernel.check_size(n)?;
                for_each_class(n, &mut |board, _| visit(board))
            }

            fn count_fundamental(&self, n: usize) -> Result<Count, Error> {
                count($kernel, n, true, $count_board)
            }
        }
    };
}

symmetric_solver!(Symmetric, Kernel::Symmetric, count_baseline);

#[cfg(x86_kernels)]
symmetric_solver!(SymmetricBmi, Kernel::SymmetricBmi, |n, classes| {
    // SAFETY: a `SymmetricBmi` exists only where `SymmetricBmi::new` found
    // BMI1, BMI2, LZCNT and POPCNT on this CPU, the features `count_bmi` is
    // compiled with. It takes no pointers.
    unsafe { count_bmi(n, classes) }
});

#[cfg(test)]
mod tests {
    use super::*;

    /// `alive_columns` against its definition, for every `ahead` of 10
    /// bits and some wider ones.
    #[test]
    fn alive_columns_are_those_that_leave_the_next_row_a_square() {
        let wide = [u32::MAX, 1 << 31, 3 << 30, 0x8000_0001, 0x0F0F_0000];
        for ahead in (0u32..1024).chain(wide) {
            let expected = (0..32).fold(0u32, |alive, c| {
                let taken = (0b111u64 << c >> 1) as u32;
                if ahead & !taken != 0 {
                    alive | 1 << c
                } else {
                    alive
                }
            });
            assert_eq!(alive_columns(ahead), expected, "ahead = {ahead:#b}");
        }
    }

    /// The largest N the tests below solve. Miri (`.ci/miri`) runs this
    /// code some thousand times slower than a native build, so under it the
    /// same assertions run on boards up to N = 8 instead of N = 10.
    const SOLVED_UP_TO: usize = if cfg!(miri) { 8 } else { 10 };

    #[test]
    fn every_class_is_found_once_as_its_canonical_form() {
        for n in 0..=SOLVED_UP_TO {
            let mut found = Vec::new();
            let _ = for_each_class(n, &mut |board, orbit| {
                assert_eq!(crate::symmetry::canonical(board), *board, "N = {n}");
                assert_eq!(crate::symmetry::orbit_size(board) as u32, orbit, "N = {n}");
                found.push(*board);
                ControlFlow::Continue(())
            });
            let mut expected = crate::kernel::portable::oracle_fundamental(n);
            expected.sort_unstable();
            found.sort_unstable();
            assert_eq!(found, expected, "N = {n}");
        }
    }

    /// The builds of the symmetric kernel this CPU runs (under Miri: those
    /// whose features the build enables, see `.ci/miri`).
    fn builds() -> Vec<Box<dyn Solver>> {
        let mut builds: Vec<Box<dyn Solver>> = vec![Box::new(Symmetric(()))];
        #[cfg(x86_kernels)]
        builds.extend(SymmetricBmi::new().map(|k| Box::new(k) as Box<dyn Solver>));
        builds
    }

    /// Where BMI1, BMI2, LZCNT and POPCNT are enabled at compile time (as in
    /// the second run of `.ci/miri`), the BMI build is there: the tests run
    /// it rather than skip it.
    #[test]
    #[cfg(x86_kernels)]
    fn bmi_build_is_there_where_its_features_are_enabled() {
        let enabled = cfg!(all(
            target_feature = "bmi1",
            target_feature = "bmi2",
            target_feature = "lzcnt",
            target_feature = "popcnt"
        ));
        if enabled {
            assert!(SymmetricBmi::new().is_some());
        }
    }

    /// Counts, solutions and fundamental solutions of every build, against
    /// the portable kernel's.
    #[test]
    fn builds_solve_as_the_portable_kernel_does() {
        let portable = crate::kernel::portable::Portable::new().unwrap();
        for build in builds() {
            let kernel = build.kernel();
            for n in 0..=SOLVED_UP_TO {
                let expected = portable.count(n).unwrap();
                assert_eq!(build.count(n).unwrap(), expected, "{kernel:?}, N = {n}");
                let mut solutions = Vec::new();
                let flow = build
                    .for_each_solution(n, &mut |board| {
                        solutions.push(*board);
                        ControlFlow::Continue(())
                    })
                    .unwrap();
                assert!(flow.is_continue(), "{kernel:?}, N = {n}");
                solutions.sort_unstable();
                let mut portable_solutions = portable.solutions(n).unwrap();
                portable_solutions.sort_unstable();
                assert_eq!(solutions, portable_solutions, "{kernel:?}, N = {n}");

                let classes = crate::kernel::portable::oracle_fundamental(n);
                let mut fundamental = Vec::new();
                let _ = build.for_each_fundamental(n, &mut |board| {
                    fundamental.push(*board);
                    ControlFlow::Continue(())
                });
                fundamental.sort_unstable();
                assert_eq!(fundamental, classes, "{kernel:?}, N = {n}");
                assert_eq!(
                    build.count_fundamental(n).unwrap(),
                    classes.len() as Count,
                    "{kernel:?}, N = {n}"
                );
            }
            assert!(build.count(33).is_err(), "{kernel:?}");
            assert!(build.count_fundamental(33).is_err(), "{kernel:?}");
        }
    }

    /// Each build's walkers count subproblems listed by the caller one by
    /// one, each reported once under its name, adding up to the board's
    /// count. (The lane kernels' own tests do the same for theirs.)
    #[test]
    fn walkers_count_listed_subproblems_one_by_one() {
        let mut builds: Vec<&dyn Walkers> = vec![Symmetric(()).as_static()];
        #[cfg(x86_kernels)]
        builds.extend(SymmetricBmi::new().map(|k| k.as_static() as &dyn Walkers));
        let portable = crate::kernel::portable::Portable::new().unwrap();
        for walkers in builds {
            let kernel = walkers.kernel();
            for n in 4..=SOLVED_UP_TO {
                let mut total: Count = 0;
                for ties in [false, true] {
                    let subs: Vec<SearchRoot> = subproblems(n, Some(ties)).collect();
                    let mut reported = vec![0; subs.len()];
                    let mut listed = subs.iter().enumerate();
                    walkers.count_listed(&mut listed, ties, false, &mut |id, count| {
                        reported[id] += 1;
                        total += count;
                    });
                    assert!(reported.iter().all(|&r| r == 1), "{kernel:?}, N = {n}");
                }
                assert_eq!(total, portable.count(n).unwrap(), "{kernel:?}, N = {n}");
            }
        }
    }
}
