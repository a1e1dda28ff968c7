//! The shared kernel table: every kernel (or the one named by
//! `QUEENS_SIMD_KERNEL`) against OEIS counts and the portable kernel's full
//! solution sets.

mod common;

use std::collections::HashSet;
use std::ops::ControlFlow;

use common::{
    A000170, A002562, kernels_under_test, listing_kernels_under_test, max_count_n_for, max_set_n,
};
use queens_simd::{Board, Error, Kernel, fundamental};

fn sizes_under_test(kernel: Kernel, max: usize) -> impl Iterator<Item = usize> {
    kernel.sizes().filter(move |&n| n <= max)
}

#[test]
fn counts_match_oeis_a000170() {
    for kernel in kernels_under_test() {
        for n in sizes_under_test(kernel, max_count_n_for(kernel)) {
            assert_eq!(
                queens_simd::dispatch::count(kernel, n).unwrap(),
                A000170[n],
                "{kernel}, N = {n}"
            );
        }
    }
}

#[test]
fn solution_sets_match_the_portable_kernel() {
    for kernel in listing_kernels_under_test() {
        for n in sizes_under_test(kernel, max_set_n()) {
            let mut expected = queens_simd::dispatch::solutions(Kernel::Portable, n).unwrap();
            expected.sort_unstable();
            let mut got = queens_simd::dispatch::solutions(kernel, n).unwrap();
            got.sort_unstable();
            assert_eq!(got, expected, "{kernel}, N = {n}");
        }
    }
}

#[test]
fn every_listed_board_is_a_distinct_solution() {
    for kernel in listing_kernels_under_test() {
        for n in sizes_under_test(kernel, max_set_n()) {
            let listed = queens_simd::dispatch::solutions(kernel, n).unwrap();
            let distinct: HashSet<Board> = listed.iter().copied().collect();
            assert_eq!(
                distinct.len(),
                listed.len(),
                "{kernel}, N = {n}: duplicates"
            );
            assert_eq!(listed.len() as u128, A000170[n], "{kernel}, N = {n}");
            for board in &listed {
                assert_eq!(board.n(), n);
                assert!(board.is_solution(), "{kernel}, N = {n}: {board:?}");
            }
        }
    }
}

#[test]
fn enumeration_stops_when_the_visitor_breaks() {
    for kernel in listing_kernels_under_test() {
        let n = 8.min(*kernel.sizes().end());
        let mut seen = 0;
        let flow = queens_simd::dispatch::for_each_solution(kernel, n, &mut |_| {
            seen += 1;
            if seen == 3 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap();
        assert_eq!((seen, flow), (3, ControlFlow::Break(())), "{kernel}");
    }
}

#[test]
fn counts_on_threads_match_oeis_a000170() {
    for kernel in kernels_under_test().into_iter().chain([Kernel::Auto]) {
        if !kernel.counts_on_threads() {
            continue;
        }
        let max = if cfg!(debug_assertions) { 11 } else { 14 };
        for n in sizes_under_test(kernel, max) {
            for threads in [1, 2, 3] {
                let count = queens_simd::dispatch::count_on_threads(kernel, n, threads).unwrap();
                assert_eq!(count, A000170[n], "{kernel}, N = {n}, {threads} threads");
            }
        }
        assert_eq!(
            queens_simd::dispatch::count_on_threads(kernel, 8, 0),
            Err(Error::InvalidThreads)
        );
    }
}

#[test]
fn kernels_that_only_count_refuse_to_list() {
    for kernel in kernels_under_test() {
        if kernel.enumerates() {
            continue;
        }
        let refused = Error::CountOnly(kernel);
        assert_eq!(
            queens_simd::dispatch::solutions(kernel, 8).err(),
            Some(refused.clone()),
            "{kernel}"
        );
        let classes = fundamental::count(kernel, 8);
        assert_eq!(classes.err(), Some(refused.clone()), "{kernel}");
        let classes = fundamental::solutions(kernel, 8);
        assert_eq!(classes.err(), Some(refused), "{kernel}");
        // Refused before any work or output.
        let solver =
            queens_simd::dispatch::solver_for(kernel, queens_simd::kernel::Task::Enumerate, 8);
        assert_eq!(solver.err(), Some(Error::CountOnly(kernel)), "{kernel}");
    }
}

#[test]
fn sizes_outside_a_kernels_range_are_errors_not_panics() {
    for kernel in kernels_under_test() {
        let too_big = kernel.sizes().end() + 1;
        assert!(
            matches!(queens_simd::dispatch::count(kernel, too_big), Err(Error::SizeOutOfRange { n, .. }) if n == too_big),
            "{kernel}"
        );
        assert!(
            queens_simd::dispatch::solutions(kernel, too_big).is_err(),
            "{kernel}"
        );
    }
}

#[test]
fn fundamental_counts_match_oeis_a002562() {
    // Kernels that search by class count them as fast as solutions.
    let max = if cfg!(debug_assertions) { 11 } else { 13 };
    for kernel in listing_kernels_under_test()
        .into_iter()
        .chain([Kernel::Auto])
    {
        let max = max.max(max_count_n_for(queens_simd::dispatch::resolve_for(
            kernel,
            queens_simd::kernel::Task::Count,
            8,
        )));
        for n in sizes_under_test(kernel, max) {
            assert_eq!(
                fundamental::count(kernel, n).unwrap(),
                A002562[n],
                "{kernel}, N = {n}"
            );
        }
    }
}

#[test]
fn fundamental_solutions_are_canonical_and_cover_every_solution() {
    use queens_simd::symmetry::{Symmetry, canonical, orbit_size};
    for (n, &expected) in A000170.iter().enumerate().take(max_set_n() + 1) {
        let classes = fundamental::solutions(Kernel::Auto, n).unwrap();
        // Each is its own canonical form, and the orbits partition the
        // full solution set.
        let mut covered = HashSet::new();
        for class in &classes {
            assert_eq!(canonical(class), *class, "N = {n}");
            let orbit: HashSet<Board> = Symmetry::ALL.iter().map(|s| s.apply(class)).collect();
            assert_eq!(orbit.len(), orbit_size(class));
            covered.extend(orbit);
        }
        assert_eq!(covered.len() as u128, expected, "N = {n}");
    }
}

#[test]
fn every_kernel_finds_the_same_fundamental_solutions() {
    for kernel in listing_kernels_under_test() {
        for n in sizes_under_test(kernel, max_set_n()) {
            let expected = fundamental::solutions(Kernel::Portable, n).unwrap();
            let got = fundamental::solutions(kernel, n).unwrap();
            assert_eq!(got, expected, "{kernel}, N = {n}");
        }
    }
}

#[test]
fn auto_picks_an_available_fast_kernel_for_every_size() {
    use queens_simd::kernel::Task;
    for n in 0..=queens_simd::MAX_N {
        for task in Task::ALL {
            let kernel = queens_simd::dispatch::resolve_for(Kernel::Auto, task, n);
            assert_ne!(kernel, Kernel::Auto);
            assert!(
                kernel.is_available() && kernel.sizes().contains(&n),
                "N = {n}, {task:?}"
            );
            assert_eq!(kernel.role(), queens_simd::kernel::Role::Fast);
        }
        assert_eq!(
            queens_simd::dispatch::resolve_for(Kernel::Auto, queens_simd::kernel::Task::Count, n),
            queens_simd::dispatch::resolve_for(Kernel::Auto, Task::Count, n)
        );
    }
}

#[test]
fn first_row_restriction_keeps_exactly_the_matching_solutions() {
    for kernel in listing_kernels_under_test() {
        for n in sizes_under_test(kernel, max_set_n().min(9)) {
            let all = queens_simd::dispatch::solutions(kernel, n).unwrap();
            for first_row in [0u32, 1, 0b1010, (1 << n.div_ceil(2)) - 1, u32::MAX] {
                let mut got = Vec::new();
                let flow = queens_simd::dispatch::for_each_solution_in_first_row(
                    kernel,
                    n,
                    first_row,
                    &mut |board| {
                        got.push(*board);
                        ControlFlow::Continue(())
                    },
                )
                .unwrap();
                assert_eq!(flow, ControlFlow::Continue(()));
                let expected: Vec<Board> = all
                    .iter()
                    .copied()
                    .filter(|b| b.columns().first().is_none_or(|&c| first_row >> c & 1 == 1))
                    .collect();
                assert_eq!(got, expected, "{kernel}, N = {n}, first row {first_row:#b}");
            }
        }
    }
}

#[test]
fn verify_refuses_sizes_it_cannot_hold() {
    let limit = queens_simd::verify::MAX_VERIFY_N;
    let refused = queens_simd::verify::run(limit + 1, |_| {});
    assert!(matches!(refused, Err(Error::VerifyTooLarge { max_n, .. }) if max_n == limit + 1));
}

#[test]
fn verify_agrees_on_small_sizes() {
    let mut rows = Vec::new();
    let all_agree = queens_simd::verify::run(6, |row| rows.push(row.clone())).unwrap();
    assert!(all_agree);
    let solutions: Vec<u128> = rows.iter().map(|r| r.solutions).collect();
    assert_eq!(solutions, &A000170[..=6]);
    let classes: Vec<u128> = rows.iter().map(|r| r.classes).collect();
    assert_eq!(classes, &A002562[..=6]);
}
